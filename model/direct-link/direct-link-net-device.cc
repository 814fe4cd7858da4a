/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-net-device.h"

#include "direct-link-channel.h"
#include "ns3/boolean.h"
#include "ns3/link-attribute-accessor.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/ppp-header.h"
#include "ns3/ppp-protocol.h"
#include "ns3/queue.h"
#include "ns3/rifl-check.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkNetDevice");

NS_OBJECT_ENSURE_REGISTERED(DirectLinkNetDevice);

std::string
DirectLinkLossReasonName(DirectLinkLossReason r)
{
    switch (r)
    {
        case DirectLinkLossReason::RETRANS_LIMIT:
            return "RETRANS_LIMIT";
        case DirectLinkLossReason::CREDIT_TIMEOUT:
            return "CREDIT_TIMEOUT";
        case DirectLinkLossReason::INITIAL_TIMEOUT:
            return "INITIAL_TIMEOUT";
        case DirectLinkLossReason::PEER_INIT:
            return "PEER_INIT";
        case DirectLinkLossReason::QUEUE_FULL:
            return "QUEUE_FULL";
        case DirectLinkLossReason::NO_ROUTE:
            return "NO_ROUTE";
        case DirectLinkLossReason::MALFORMED:
            return "MALFORMED";
        case DirectLinkLossReason::FALSE_ACK:
            return "FALSE_ACK";
        case DirectLinkLossReason::VC_OVERFLOW:
            return "VC_OVERFLOW";
    }
    return "UNKNOWN";
}

DirectLinkLossReason
DirectLinkLossReasonFromEngine(DirectLinkEndpointState::LossReason r)
{
    using E = DirectLinkEndpointState::LossReason;
    switch (r)
    {
        case E::RETRANS_LIMIT:
            return DirectLinkLossReason::RETRANS_LIMIT;
        case E::CREDIT_TIMEOUT:
            return DirectLinkLossReason::CREDIT_TIMEOUT;
        case E::INITIAL_TIMEOUT:
            return DirectLinkLossReason::INITIAL_TIMEOUT;
        case E::PEER_INIT:
            return DirectLinkLossReason::PEER_INIT;
        case E::FALSE_ACK:
            return DirectLinkLossReason::FALSE_ACK;
        case E::VC_OVERFLOW:
            return DirectLinkLossReason::VC_OVERFLOW;
    }
    return DirectLinkLossReason::FALSE_ACK;
}

TypeId
DirectLinkNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DirectLinkNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Rifl")
              .AddConstructor<DirectLinkNetDevice>()
              .AddAttribute(
                  "Mtu",
                  "The MAC-level MTU in bytes (IP packet without the 2-byte PPP field), "
                  "1..65533; Mtu + 2 must not exceed MaxMessageBytes.",
                  UintegerValue(1500),
                  MakeUintegerAccessor(&DirectLinkNetDevice::SetMtu, &DirectLinkNetDevice::GetMtu),
                  MakeUintegerChecker<uint16_t>(1, 65533))
              .AddAttribute("Address", "The MAC address of this device.",
                            Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                            MakeMac48AddressAccessor(&DirectLinkNetDevice::m_address),
                            MakeMac48AddressChecker())
              .AddAttribute("TxQueue", "The queue of IP packets waiting for the link.",
                            PointerValue(), MakePointerAccessor(&DirectLinkNetDevice::m_queue),
                            MakePointerChecker<Queue<Packet>>())
              .AddAttribute("IpVc",
                            "Virtual channel of IP traffic, 0..3 (default 2: VC0 requests and VC1 "
                            "responses are the DLIU's).",
                            UintegerValue(2),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(MakeUintegerAccessor(
                                &DirectLinkNetDevice::SetIpVc, &DirectLinkNetDevice::GetIpVc)),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("IpClass",
                            "Message class of IP traffic in the routing word, 0..15; a message "
                            "received on IpVc with this class is an IP packet.",
                            UintegerValue(15),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeUintegerAccessor(&DirectLinkNetDevice::m_ipClass)),
                            MakeUintegerChecker<uint32_t>(0, 15))
              .AddAttribute("EngineQueueMessages",
                            "Messages per VC handed to the link engine ahead of the line "
                            "(>= 2 keeps back-to-back messages gap-free), 1..64.",
                            UintegerValue(2),
                            MakeUintegerAccessor(&DirectLinkNetDevice::m_engineMessages),
                            MakeUintegerChecker<uint32_t>(1, 64))
              .AddAttribute("MessageQueueLimit",
                            "DLIU messages waiting per VC before SendMessage counts one lost "
                            "(QUEUE_FULL), 1..1e6.",
                            UintegerValue(1024),
                            MakeUintegerAccessor(&DirectLinkNetDevice::m_messageQueueLimit),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
              .AddAttribute("RetryBufferSize",
                            "Go-Back-N retry buffer in micro-packets, 1..30 (sequence numbers are "
                            "modulo 31, 0x1F marks Null).",
                            UintegerValue(30),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeUintegerAccessor(&DirectLinkNetDevice::SetRetryBufferSize,
                                                     &DirectLinkNetDevice::GetRetryBufferSizeAttr)),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("VcBufferSize",
                            "Receive buffer of every VC in micro-packets (= credits), 1..4096.",
                            UintegerValue(16),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeUintegerAccessor(&DirectLinkNetDevice::SetVcBufferSize,
                                                     &DirectLinkNetDevice::GetVcBufferSizeAttr)),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("VcBufferSizes",
                            "Receive buffer per VC in micro-packets (= credits of each VC), four "
                            "comma-separated values in [1, 4096] for VC0..VC3, e.g. "
                            "\"16,16,4,16\"; overrides VcBufferSize for every VC when set; \"\" "
                            "= VcBufferSize on every VC.",
                            StringValue(""),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeStringAccessor(&DirectLinkNetDevice::SetVcBufferSizes,
                                                   &DirectLinkNetDevice::GetVcBufferSizesAttr)),
                            MakeStringChecker())
              .AddAttribute("CrcPolynomial",
                            "CRC-8 generator of CRC80/CRC81 (normal notation, odd, 0x01..0xFF); "
                            "default 0x07 = x^8+x^2+x+1.",
                            UintegerValue(0x07),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeUintegerAccessor(&DirectLinkNetDevice::SetCrcPolynomial,
                                                     &DirectLinkNetDevice::GetCrcPolynomialAttr)),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute(
                  "AckTime",
                  "AckTime: how long a retry-buffer entry waits for its ack, converted to "
                  "micro-packet times (rounded up) that must fit the 16-bit counter, "
                  "1..65535 (<= 2.516 ms at 5 Gb/s). Default 2.5 us = 66 at 5 Gb/s.",
                  TimeValue(NanoSeconds(2500)),
                  MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                      MakeTimeAccessor(&DirectLinkNetDevice::m_ackTime)),
                  MakeTimeChecker(Seconds(0)))
              .AddAttribute("RetransLimit",
                            "RetransTime: resends allowed per micro-packet before Shutdown, 0..31 "
                            "(5-bit counter).",
                            UintegerValue(7),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeUintegerAccessor(&DirectLinkNetDevice::SetRetransLimit,
                                                     &DirectLinkNetDevice::GetRetransLimitAttr)),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute(
                  "CrdNullTime",
                  "CrdNullTime: how long a VC's credit may stay empty before Shutdown, in "
                  "micro-packet times that must fit 16 bits, 1..65535. Default 40 us = "
                  "1042 at 5 Gb/s.",
                  TimeValue(MicroSeconds(40)),
                  MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                      MakeTimeAccessor(&DirectLinkNetDevice::m_crdNullTime)),
                  MakeTimeChecker(Seconds(0)))
              .AddAttribute("InitialTime",
                            "InitialTime: longest stay in Initial before Shutdown, in micro-packet "
                            "times that must fit 16 bits, 2 * OneWayDelay + 3 .. 65535, or "
                            "max(2 * OneWayDelay + 4, 5) .. 65535 with InitAckGuard (a shorter one "
                            "can keep the handshake from completing). Default 160 us = 4167 at 5 "
                            "Gb/s.",
                            TimeValue(MicroSeconds(160)),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeTimeAccessor(&DirectLinkNetDevice::m_initialTime)),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("NakEnabled",
                            "The NAK what-if (not in the document): retransmit on the first "
                            "out-of-sequence reception instead of waiting for AckTime.",
                            BooleanValue(false),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeBooleanAccessor(&DirectLinkNetDevice::m_nakEnabled)),
                            MakeBooleanChecker())
              .AddAttribute("InitAckGuard",
                            "The corrected handshake (not in the document): in Initial, count an "
                            "Init-Ack only if it arrives at least 2 * OneWayDelay + 1 micro-packet "
                            "times after this Initial began (an earlier one answers an Init of a "
                            "previous incarnation). false = the document's rule, under which a "
                            "side can re-enter Normal on such stale Init-Acks and the peer's acks "
                            "can then free micro-packets it never accepted (messages counted lost "
                            "FALSE_ACK). true needs InitialTime >= max(2 * OneWayDelay + 4, 5).",
                            BooleanValue(false),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeBooleanAccessor(&DirectLinkNetDevice::m_initAckGuard)),
                            MakeBooleanChecker())
              .AddAttribute("MaxMessageBytes",
                            "Largest message accepted, 0..65535 bytes (16-bit length field).",
                            UintegerValue(4096),
                            MakeLinkAttributeAccessor<DirectLinkNetDevice>(
                                MakeUintegerAccessor(&DirectLinkNetDevice::SetMaxMessageBytes,
                                                     &DirectLinkNetDevice::GetMaxMessageBytesAttr)),
                            MakeUintegerChecker<uint32_t>())
              .AddTraceSource("MacTx", "An IP packet from the upper layer entered the device.",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_macTxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacTxDrop",
                              "An IP packet from the upper layer was dropped (queue full or no "
                              "link).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_macTxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacRx", "An IP packet was passed to the upper layer.",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_macRxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyTxBegin", "An IP packet's header micro-packet went on the line.",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_phyTxBeginTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyTxEnd", "An IP packet's tail micro-packet went on the line.",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_phyTxEndTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyRxEnd",
                              "An IP packet was received complete (with its PPP field).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_phyRxEndTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyRxDrop",
                              "A received IP packet was dropped (truncated or malformed by a "
                              "Shutdown, or an unknown PPP protocol number).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_phyRxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Sniffer",
                              "IP packets sent and received, with the PPP field (non-promiscuous).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_snifferTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PromiscSniffer",
                              "IP packets sent and received, with the PPP field (promiscuous).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_promiscSnifferTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("StateChange",
                              "This side's link state changed (0 Initial, 1 Normal, 2 Shutdown).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_stateChangeTrace),
                              "ns3::DirectLinkNetDevice::StateChangeTracedCallback")
              .AddTraceSource("Shutdown",
                              "This side went to Shutdown (value: 0 RetransLimit, 1 CrdNullTime, "
                              "2 InitialTime).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_shutdownTrace),
                              "ns3::DirectLinkNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("Retransmission",
                              "This sender resent a micro-packet (value: its SndNo).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_retransmissionTrace),
                              "ns3::DirectLinkNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("Timeout", "An AckTime expired at this sender (value: AskExpected).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_timeoutTrace),
                              "ns3::DirectLinkNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("CrcError",
                              "A received micro-packet failed a check (value: "
                              "DirectLinkFlit::DecodeStatus).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_crcErrorTrace),
                              "ns3::DirectLinkNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("UndetectedError",
                              "A corrupted micro-packet passed every check at this receiver.",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_undetectedTrace),
                              "ns3::DirectLinkNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("MessageLost",
                              "A message sent from here was counted lost (id, VC, "
                              "DirectLinkLossReason).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_messageLostTrace),
                              "ns3::DirectLinkNetDevice::MessageLostTracedCallback")
              .AddTraceSource(
                  "MessageHeldOpen",
                  "A message sent from here is held open by the peer after a stale handshake "
                  "(InitAckGuard false): the peer holds part of it and the rest will never "
                  "come; it stays pending and is delivered, truncated or malformed, only at "
                  "the next header on its VC or the peer's next reset (id, VC).",
                  MakeTraceSourceAccessor(&DirectLinkNetDevice::m_messageHeldOpenTrace),
                  "ns3::DirectLinkNetDevice::MessageHeldOpenTracedCallback")
              .AddTraceSource(
                  "MessageTruncated",
                  "A message arrived truncated with NetErr (cut by a Shutdown).",
                  MakeTraceSourceAccessor(&DirectLinkNetDevice::m_messageTruncatedTrace),
                  "ns3::DirectLinkNetDevice::MessageTracedCallback")
              .AddTraceSource("MessageRx",
                              "A DLIU (non-IP) message was received (intact, truncated or "
                              "malformed).",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_messageRxTrace),
                              "ns3::DirectLinkNetDevice::MessageTracedCallback")
              .AddTraceSource("MessageTx", "A DLIU (non-IP) message was handed to the link engine.",
                              MakeTraceSourceAccessor(&DirectLinkNetDevice::m_messageTxTrace),
                              "ns3::DirectLinkNetDevice::MessageTracedCallback");
    return tid;
}

DirectLinkNetDevice::DirectLinkNetDevice()
    : m_ackTime(NanoSeconds(2500))
    , m_crdNullTime(MicroSeconds(40))
    , m_initialTime(MicroSeconds(160))
{
    NS_LOG_FUNCTION(this);
}

DirectLinkNetDevice::~DirectLinkNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
DirectLinkNetDevice::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    m_queue = nullptr;
    m_inEngine.clear();
    m_rxCallback.Nullify();
    m_promiscCallback.Nullify();
    m_msgCallback.Nullify();
    m_txSpaceCallback.Nullify();
    NetDevice::DoDispose();
}

// ---- attribute setters -----------------------------------------------------

void
DirectLinkNetDevice::SetRetryBufferSize(uint32_t v)
{
    RIFL_CHECK_ARG(v < 1 || v > DirectLinkConfig::MAX_RETRY_BUFFER,
                   "DirectLinkNetDevice: RetryBufferSize = "
                       << v << " is out of range [1, 30]: sequence numbers are modulo 31 (0x1F "
                       << "marks Null), so Go-Back-N allows at most 30 outstanding micro-packets");
    m_retryBufferSize = v;
}

void
DirectLinkNetDevice::SetVcBufferSize(uint32_t v)
{
    RIFL_CHECK_ARG(v < 1 || v > DirectLinkConfig::MAX_VC_BUFFER,
                   "DirectLinkNetDevice: VcBufferSize = " << v << " is out of range [1, "
                                                          << DirectLinkConfig::MAX_VC_BUFFER
                                                          << "] micro-packets");
    m_vcBufferSize = v;
}

void
DirectLinkNetDevice::SetVcBufferSizes(std::string v)
{
    std::array<uint32_t, DirectLinkConfig::NUM_VCS> sizes{};
    if (!v.empty())
    {
        std::vector<std::string> parts;
        std::stringstream ss(v);
        std::string item;
        while (std::getline(ss, item, ','))
        {
            parts.push_back(item);
        }
        RIFL_CHECK_ARG(parts.size() != DirectLinkConfig::NUM_VCS,
                       "DirectLinkNetDevice: VcBufferSizes = \""
                           << v << "\" must list 4 sizes (VC0..VC3), comma-separated, got "
                           << parts.size());
        for (uint32_t vc = 0; vc < DirectLinkConfig::NUM_VCS; ++vc)
        {
            const std::string& t = parts[vc];
            const size_t b = t.find_first_not_of(' ');
            const size_t e = t.find_last_not_of(' ');
            const std::string num = b == std::string::npos ? "" : t.substr(b, e - b + 1);
            RIFL_CHECK_ARG(num.empty() || num.size() > 9
                               || num.find_first_not_of("0123456789") != std::string::npos,
                           "DirectLinkNetDevice: VcBufferSizes = \""
                               << v << "\": VC" << vc << " size \"" << t
                               << "\" is not a number in [1, " << DirectLinkConfig::MAX_VC_BUFFER
                               << "]");
            const uint64_t x = std::stoull(num);
            RIFL_CHECK_ARG(x < 1 || x > DirectLinkConfig::MAX_VC_BUFFER,
                           "DirectLinkNetDevice: VcBufferSizes = \""
                               << v << "\": VC" << vc << " size " << x << " is out of range [1, "
                               << DirectLinkConfig::MAX_VC_BUFFER << "] micro-packets");
            sizes[vc] = static_cast<uint32_t>(x);
        }
    }
    m_vcBufferSizes = sizes;
    m_vcBufferSizesText = v;
}

std::string
DirectLinkNetDevice::GetVcBufferSizesAttr() const
{
    return m_vcBufferSizesText;
}

void
DirectLinkNetDevice::SetCrcPolynomial(uint32_t v)
{
    RIFL_CHECK_ARG(v == 0 || v > 0xFF || (v & 1) == 0, "DirectLinkNetDevice: CrcPolynomial = 0x"
                                                           << std::hex << v << std::dec
                                                           << " must be odd and in [0x01, 0xFF]");
    m_crcPoly = v;
}

void
DirectLinkNetDevice::SetRetransLimit(uint32_t v)
{
    RIFL_CHECK_ARG(v > DirectLinkConfig::MAX_COUNTER5,
                   "DirectLinkNetDevice: RetransLimit = "
                       << v << " is out of range [0, 31] (5-bit RetransTime counter)");
    m_retransLimit = v;
}

void
DirectLinkNetDevice::SetIpVc(uint32_t v)
{
    RIFL_CHECK_ARG(v >= DirectLinkConfig::NUM_VCS,
                   "DirectLinkNetDevice: IpVc = " << v
                                                  << " is not a virtual channel, range [0, 3]");
    m_ipVc = v;
}

void
DirectLinkNetDevice::SetMaxMessageBytes(uint32_t v)
{
    RIFL_CHECK_ARG(v > DirectLinkFlit::MAX_MESSAGE_BYTES,
                   "DirectLinkNetDevice: MaxMessageBytes = "
                       << v << " is out of range [0, 65535] (16-bit length field)");
    m_maxMessageBytes = v;
}

uint32_t
DirectLinkNetDevice::GetRetryBufferSizeAttr() const
{
    return m_retryBufferSize;
}

uint32_t
DirectLinkNetDevice::GetVcBufferSizeAttr() const
{
    return m_vcBufferSize;
}

uint32_t
DirectLinkNetDevice::GetCrcPolynomialAttr() const
{
    return m_crcPoly;
}

uint32_t
DirectLinkNetDevice::GetRetransLimitAttr() const
{
    return m_retransLimit;
}

uint32_t
DirectLinkNetDevice::GetMaxMessageBytesAttr() const
{
    return m_maxMessageBytes;
}

uint32_t
DirectLinkNetDevice::GetIpVc() const
{
    return m_ipVc;
}

uint32_t
DirectLinkNetDevice::GetIpClass() const
{
    return m_ipClass;
}

DirectLinkConfig
DirectLinkNetDevice::GetLinkConfig(uint64_t lineRateBps, uint32_t oneWayDelaySlots) const
{
    DirectLinkConfig c;
    c.lineRateBps = lineRateBps;
    c.oneWayDelaySlots = oneWayDelaySlots;
    c.retryBufferSize = m_retryBufferSize;
    for (uint32_t vc = 0; vc < DirectLinkConfig::NUM_VCS; ++vc)
    {
        c.vcBufferSize[vc] = m_vcBufferSizes[vc] != 0 ? m_vcBufferSizes[vc] : m_vcBufferSize;
    }
    c.crcPoly = m_crcPoly;
    c.retransLimit = m_retransLimit;
    c.nakEnabled = m_nakEnabled;
    c.initAckGuard = m_initAckGuard;
    c.maxMessageBytes = m_maxMessageBytes;
    auto conv = [&c](const char* name, Time t)
    {
        try
        {
            return c.NsToMicroPackets(name, t.GetSeconds() * 1e9, DirectLinkConfig::MAX_COUNTER16);
        }
        catch (const std::invalid_argument& e)
        {
            RIFL_CHECK_ARG(true, "DirectLinkNetDevice attribute "
                                     << name << " = " << t.As(Time::US) << " at LineRate "
                                     << c.lineRateBps << " bit/s: " << e.what());
        }
        return 0U;
    };
    c.ackTime = conv("AckTime", m_ackTime);
    c.crdNullTime = conv("CrdNullTime", m_crdNullTime);
    c.initialTime = conv("InitialTime", m_initialTime);
    RIFL_CHECK_ARG(m_mtu + 2U > m_maxMessageBytes,
                   "DirectLinkNetDevice: Mtu = " << m_mtu << " + 2 (PPP field) exceeds "
                                                 << "MaxMessageBytes = " << m_maxMessageBytes);
    return c;
}

// ---- configuration ---------------------------------------------------------

bool
DirectLinkNetDevice::Attach(Ptr<DirectLinkChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    RIFL_CHECK_ARG(!channel, "DirectLinkNetDevice::Attach: channel must not be null");
    RIFL_CHECK_ARG(m_channel, "DirectLinkNetDevice::Attach: the device is already attached");
    m_channel = channel;
    m_channel->Attach(this);
    return true;
}

void
DirectLinkNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
DirectLinkNetDevice::GetQueue() const
{
    return m_queue;
}

void
DirectLinkNetDevice::SetCpuNumbers(uint32_t localCpu, uint32_t peerCpu)
{
    RIFL_CHECK_ARG(localCpu > 255,
                   "DirectLinkNetDevice: localCpu = " << localCpu << " is out of range [0, 255]");
    RIFL_CHECK_ARG(peerCpu > 255,
                   "DirectLinkNetDevice: peerCpu = " << peerCpu << " is out of range [0, 255]");
    m_localCpu = localCpu;
    m_peerCpu = peerCpu;
}

Ptr<DirectLinkNetDevice>
DirectLinkNetDevice::GetPeer() const
{
    if (!m_channel || m_channel->GetNDevices() != 2)
    {
        return nullptr;
    }
    return DynamicCast<DirectLinkNetDevice>(m_channel->GetDevice(1 - m_channel->GetSide(this)));
}

DirectLinkDeviceCounters
DirectLinkNetDevice::GetCounters() const
{
    return m_counters;
}

DirectLinkEndpointState::Counters
DirectLinkNetDevice::GetEndpointCounters() const
{
    if (m_channel && m_channel->GetEngine())
    {
        return m_channel->GetEngine()->GetEndpoint(m_channel->GetSide(this)).GetCounters();
    }
    return DirectLinkEndpointState::Counters();
}

DirectLinkEndpointState::LinkState
DirectLinkNetDevice::GetLinkState() const
{
    return m_state;
}

uint64_t
DirectLinkNetDevice::GetQueuedMessages() const
{
    uint64_t n = m_queue ? m_queue->GetNPackets() : 0;
    for (const auto& q : m_vcQueue)
    {
        n += q.size();
    }
    for (uint32_t v : m_vcInEngine)
    {
        n += v;
    }
    return n;
}

// ---- sending -------------------------------------------------------------------

uint64_t
DirectLinkNetDevice::SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                                 const std::vector<uint8_t>& bytes)
{
    return SendMessage(dstCpu, srcCpu, msgClass, vc, bytes, DirectLinkMessageFlags());
}

uint64_t
DirectLinkNetDevice::SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                                 const std::vector<uint8_t>& bytes,
                                 const DirectLinkMessageFlags& flags)
{
    NS_LOG_FUNCTION(this << dstCpu << srcCpu << msgClass << vc << bytes.size());
    RIFL_CHECK_ARG(vc >= DirectLinkConfig::NUM_VCS,
                   "DirectLinkNetDevice::SendMessage: vc = " << vc << " is out of range [0, 3]");
    RIFL_CHECK_ARG(dstCpu > 255, "DirectLinkNetDevice::SendMessage: dstCpu = "
                                     << dstCpu << " is out of range [0, 255]");
    RIFL_CHECK_ARG(srcCpu > 255, "DirectLinkNetDevice::SendMessage: srcCpu = "
                                     << srcCpu << " is out of range [0, 255]");
    RIFL_CHECK_ARG(msgClass > 15, "DirectLinkNetDevice::SendMessage: msgClass = "
                                      << msgClass << " is out of range [0, 15]");
    RIFL_CHECK_ARG(bytes.size() > m_maxMessageBytes,
                   "DirectLinkNetDevice::SendMessage: bytes size = "
                       << bytes.size() << " exceeds MaxMessageBytes = " << m_maxMessageBytes);
    RIFL_CHECK_ARG(vc == m_ipVc && msgClass == m_ipClass,
                   "DirectLinkNetDevice::SendMessage: msgClass = "
                       << msgClass << " on vc = " << vc
                       << " is reserved for IP (IpClass on IpVc); use another class or VC");
    flags.Check("DirectLinkNetDevice::SendMessage", bytes.size());
    if (m_vcQueue[vc].size() >= m_messageQueueLimit)
    {
        CountLoss(0, vc, DirectLinkLossReason::QUEUE_FULL);
        return 0;
    }
    Pending p;
    p.dstCpu = dstCpu;
    p.srcCpu = srcCpu;
    p.msgClass = msgClass;
    p.bytes = bytes;
    p.id = m_nextId++;
    p.flags = flags;
    const uint64_t id = p.id;
    m_vcQueue[vc].push_back(std::move(p));
    ++m_counters.messagesAccepted;
    if (flags.netErr)
    {
        ++m_counters.messagesSentNetErr;
    }
    TryTransmit();
    return id;
}

void
DirectLinkNetDevice::SetMessageReceiveCallback(MessageReceiveCallback cb)
{
    m_msgCallback = cb;
}

void
DirectLinkNetDevice::SetTxSpaceCallback(TxSpaceCallback cb)
{
    m_txSpaceCallback = cb;
}

uint32_t
DirectLinkNetDevice::GetVcQueueLength(uint32_t vc) const
{
    RIFL_CHECK_INDEX(vc >= DirectLinkConfig::NUM_VCS, "DirectLinkNetDevice::GetVcQueueLength: vc = "
                                                          << vc << " is out of range [0, 3]");
    return static_cast<uint32_t>(m_vcQueue[vc].size());
}

void
DirectLinkNetDevice::SetReceiveHold(uint32_t vc, bool hold)
{
    RIFL_CHECK_INDEX(vc >= DirectLinkConfig::NUM_VCS, "DirectLinkNetDevice::SetReceiveHold: vc = "
                                                          << vc << " is out of range [0, 3]");
    if (m_rxHold[vc] == hold)
    {
        return;
    }
    m_rxHold[vc] = hold;
    if (m_channel)
    {
        m_channel->SetDrainHold(this, vc, hold);
    }
}

bool
DirectLinkNetDevice::GetReceiveHold(uint32_t vc) const
{
    RIFL_CHECK_INDEX(vc >= DirectLinkConfig::NUM_VCS, "DirectLinkNetDevice::GetReceiveHold: vc = "
                                                          << vc << " is out of range [0, 3]");
    return m_rxHold[vc];
}

void
DirectLinkNetDevice::CountLoss(uint64_t messageId, uint32_t vc, DirectLinkLossReason reason)
{
    NS_LOG_INFO("message " << messageId << " vc " << vc
                           << " lost: " << DirectLinkLossReasonName(reason));
    ++m_counters.messagesLost;
    ++m_counters.lostByReason[static_cast<uint32_t>(reason)];
    m_messageLostTrace(messageId, vc, static_cast<uint8_t>(reason));
}

void
DirectLinkNetDevice::TryTransmit()
{
    if (!m_linkUp || !m_channel)
    {
        return;
    }
    if (m_inTransmit)
    {
        // Re-entered from a callback the channel dispatched while offering: the outer
        // call goes round again, so the VC queues stay in order.
        m_transmitAgain = true;
        return;
    }
    m_inTransmit = true;
    do
    {
        m_transmitAgain = false;
        TransmitRound();
    } while (m_transmitAgain);
    m_inTransmit = false;
    // Tell the DLIU outside the loop (it may send again from the callback).
    while (m_spaceFreed != 0 && !m_txSpaceCallback.IsNull())
    {
        const uint32_t freed = m_spaceFreed;
        m_spaceFreed = 0;
        for (uint32_t vc = 0; vc < DirectLinkConfig::NUM_VCS; ++vc)
        {
            if ((freed >> vc) & 1U)
            {
                m_txSpaceCallback(this, vc);
            }
        }
    }
    m_spaceFreed = 0;
}

void
DirectLinkNetDevice::TransmitRound()
{
    for (uint32_t vc = 0; vc < DirectLinkConfig::NUM_VCS; ++vc)
    {
        while (m_vcInEngine[vc] < m_engineMessages)
        {
            const bool haveMsg = !m_vcQueue[vc].empty();
            const bool haveIp = vc == m_ipVc && m_queue && !m_queue->IsEmpty();
            if (!haveMsg && !haveIp)
            {
                break;
            }
            const bool takeIp = haveIp && (!haveMsg || m_ipTurn);
            if (vc == m_ipVc)
            {
                m_ipTurn = !takeIp; // IP and DLIU messages alternate on a shared VC
            }
            if (takeIp)
            {
                Ptr<Packet> pkt = m_queue->Dequeue();
                m_snifferTrace(pkt);
                m_promiscSnifferTrace(pkt);
                Pending p;
                p.dstCpu = m_peerCpu;
                p.srcCpu = m_localCpu;
                p.msgClass = m_ipClass;
                p.bytes.resize(pkt->GetSize());
                pkt->CopyData(p.bytes.data(), p.bytes.size());
                p.id = m_nextId++;
                ++m_counters.messagesAccepted;
                ++m_counters.ipPacketsSent;
                Offer(vc, std::move(p), pkt);
            }
            else
            {
                Pending p = std::move(m_vcQueue[vc].front());
                m_vcQueue[vc].pop_front();
                m_spaceFreed |= 1U << vc;
                Offer(vc, std::move(p), nullptr);
            }
        }
    }
}

void
DirectLinkNetDevice::Offer(uint32_t vc, Pending&& p, Ptr<Packet> packet)
{
    InEngine rec;
    rec.vc = vc;
    rec.packet = packet;
    rec.message.dstCpu = p.dstCpu;
    rec.message.srcCpu = p.srcCpu;
    rec.message.msgClass = p.msgClass;
    rec.message.vc = vc;
    rec.message.length = static_cast<uint32_t>(p.bytes.size());
    rec.message.messageId = p.id;
    ++m_vcInEngine[vc];
    ++m_counters.messagesOffered;
    if (!packet)
    {
        rec.message.bytes = p.bytes;
        m_messageTxTrace(rec.message);
        rec.message.bytes.clear();
    }
    m_inEngine[p.id] = std::move(rec);
    // The channel may dispatch callbacks before it offers this message; TryTransmit is
    // guarded against re-entry, so no later message of the VC overtakes this one.
    m_channel->Offer(this, p.id, p.dstCpu, p.srcCpu, p.msgClass, vc, p.bytes, p.flags);
}

void
DirectLinkNetDevice::Release(uint64_t id)
{
    auto it = m_inEngine.find(id);
    if (it != m_inEngine.end() && !it->second.txDone)
    {
        it->second.txDone = true;
        --m_vcInEngine[it->second.vc];
    }
}

bool
DirectLinkNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    if (!m_channel || !m_queue)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    RIFL_CHECK_ARG(packet->GetSize() > m_mtu, "DirectLinkNetDevice::Send: packet of "
                                                  << packet->GetSize()
                                                  << " bytes exceeds Mtu = " << m_mtu);
    PppHeader ppp;
    ppp.SetProtocol(EtherToPpp(protocolNumber));
    packet->AddHeader(ppp);
    m_macTxTrace(packet);
    if (!m_queue->Enqueue(packet))
    {
        m_macTxDropTrace(packet);
        return false;
    }
    TryTransmit();
    return true;
}

bool
DirectLinkNetDevice::SendFrom(Ptr<Packet> packet, const Address& source, const Address& dest,
                              uint16_t protocolNumber)
{
    return false;
}

// ---- called by the channel ----------------------------------------------------

void
DirectLinkNetDevice::NotifyLinkUp()
{
    if (!m_linkUp)
    {
        m_linkUp = true;
        m_linkChangeCallbacks();
    }
    TryTransmit();
}

void
DirectLinkNetDevice::NotifyEvent(const DirectLinkEvent& ev)
{
    switch (ev.type)
    {
        case DirectLinkEventType::STATE_CHANGE:
            m_state = static_cast<DirectLinkEndpointState::LinkState>(ev.value);
            ++m_counters.stateChanges;
            m_stateChangeTrace(ev.slot, static_cast<uint8_t>(ev.value2),
                               static_cast<uint8_t>(ev.value));
            break;
        case DirectLinkEventType::SHUTDOWN:
            ++m_counters.shutdowns;
            m_shutdownTrace(ev.slot, ev.value);
            break;
        case DirectLinkEventType::TIMEOUT:
            ++m_counters.timeouts;
            m_timeoutTrace(ev.slot, ev.value);
            break;
        case DirectLinkEventType::RETRANSMISSION:
            ++m_counters.retransmissions;
            m_retransmissionTrace(ev.slot, ev.value);
            break;
        case DirectLinkEventType::CRC_ERROR:
            ++m_counters.crcErrors;
            m_crcErrorTrace(ev.slot, ev.value);
            break;
        case DirectLinkEventType::UNDETECTED_ERROR:
            ++m_counters.undetectedErrors;
            m_undetectedTrace(ev.slot, ev.value);
            break;
        case DirectLinkEventType::TX_BEGIN:
        {
            auto it = m_inEngine.find(ev.messageId);
            if (it != m_inEngine.end() && it->second.packet)
            {
                m_phyTxBeginTrace(it->second.packet);
            }
            break;
        }
        case DirectLinkEventType::TX_END:
        {
            auto it = m_inEngine.find(ev.messageId);
            if (it != m_inEngine.end())
            {
                if (it->second.packet)
                {
                    m_phyTxEndTrace(it->second.packet);
                }
                if (!it->second.txDone)
                {
                    ++m_counters.messagesTxComplete;
                }
                Release(ev.messageId);
            }
            TryTransmit();
            break;
        }
        case DirectLinkEventType::MESSAGE_HELD_OPEN:
            ++m_counters.messagesHeldOpen;
            m_messageHeldOpenTrace(ev.messageId, ev.vc);
            // the engine has nothing of it left to send (its tail may never have gone out,
            // so no TX_END): free its place among the VC's EngineQueueMessages, or the VC
            // would stay one message short for good; the packet stays known for a late
            // delivery (FinishMessage)
            Release(ev.messageId);
            TryTransmit();
            break;
        case DirectLinkEventType::MESSAGE_DELIVERED:
            FinishMessage(ev.messageId);
            break;
        default:
            // MESSAGE_LOST / MESSAGE_TRUNCATED are handled through the loss and delivery
            // callbacks (NotifyLost, Receive); NAK_SENT and SEQUENCE_REJECT are counted by
            // the engine (GetEndpointCounters).
            break;
    }
}

void
DirectLinkNetDevice::ReceiveRemote(Ptr<Packet> message)
{
    NS_ABORT_MSG_IF(!m_channel, "DirectLinkNetDevice::ReceiveRemote: the device has no channel");
    m_channel->ReceiveRemote(this, message);
}

Ptr<Packet>
DirectLinkNetDevice::PeekMessagePacket(uint64_t messageId) const
{
    auto it = m_inEngine.find(messageId);
    return it == m_inEngine.end() ? nullptr : it->second.packet;
}

void
DirectLinkNetDevice::FinishMessage(uint64_t messageId)
{
    auto it = m_inEngine.find(messageId);
    if (it == m_inEngine.end())
    {
        return;
    }
    Release(messageId);
    m_inEngine.erase(it);
    TryTransmit();
}

void
DirectLinkNetDevice::NotifyLost(const DirectLinkLostMessage& lost)
{
    uint32_t vc = 0;
    auto it = m_inEngine.find(lost.messageId);
    if (it != m_inEngine.end())
    {
        vc = it->second.vc;
        Release(lost.messageId);
        m_inEngine.erase(it);
    }
    CountLoss(lost.messageId, vc, DirectLinkLossReasonFromEngine(lost.reason));
    TryTransmit();
}

void
DirectLinkNetDevice::Receive(const DirectLinkDeliveredMessage& d, Ptr<Packet> original)
{
    NS_LOG_FUNCTION(this << d.info.messageId << d.info.truncated);
    DirectLinkMessage m;
    m.dstCpu = d.info.route.dstCpu;
    m.srcCpu = d.info.route.srcCpu;
    m.msgClass = d.info.route.msgClass;
    m.length = d.info.route.length;
    m.vc = d.info.vc;
    m.bytes = d.info.bytes;
    m.netErr = d.info.netErr;
    m.ncErr = d.info.ncErr;
    m.truncated = d.info.truncated;
    m.truncationReason = d.info.truncReason;
    m.malformed = d.info.malformed;
    m.contentOk = d.contentOk;
    m.messageId = d.info.messageId;
    m.deliverySlot = d.info.slot;
    if (m.truncated)
    {
        ++m_counters.messagesTruncated;
        ++m_counters.truncatedByReason[static_cast<uint32_t>(m.truncationReason)];
        m_messageTruncatedTrace(m);
    }
    else if (m.malformed)
    {
        ++m_counters.messagesMalformed;
    }
    else
    {
        ++m_counters.messagesDelivered;
        if (!m.contentOk)
        {
            ++m_counters.contentMismatches;
        }
    }
    if (m.vc == m_ipVc && m.msgClass == m_ipClass)
    {
        Ptr<Packet> packet = (m.contentOk && original)
                                 ? original->Copy()
                                 : Create<Packet>(m.bytes.data(), m.bytes.size());
        if (m.truncated || m.malformed)
        {
            ++m_counters.ipPacketsDropped;
            m_phyRxDropTrace(packet);
            return;
        }
        m_phyRxEndTrace(packet);
        m_snifferTrace(packet);
        m_promiscSnifferTrace(packet);
        Ptr<Packet> p = packet->Copy();
        PppHeader ppp;
        if (p->GetSize() < ppp.GetSerializedSize())
        {
            ++m_counters.ipPacketsDropped;
            m_phyRxDropTrace(packet);
            return;
        }
        p->RemoveHeader(ppp);
        const uint16_t protocol = PppToEther(ppp.GetProtocol());
        if (protocol == 0)
        {
            ++m_counters.ipPacketsDropped;
            m_phyRxDropTrace(packet);
            return;
        }
        ++m_counters.ipPacketsReceived;
        if (!m_promiscCallback.IsNull())
        {
            m_promiscCallback(this, p, protocol, GetRemote(), GetAddress(), NetDevice::PACKET_HOST);
        }
        m_macRxTrace(p);
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, p, protocol, GetRemote());
        }
        return;
    }
    m_messageRxTrace(m);
    if (!m_msgCallback.IsNull())
    {
        m_msgCallback(this, m);
    }
}

// ---- NetDevice boilerplate --------------------------------------------------------

uint16_t
DirectLinkNetDevice::EtherToPpp(uint16_t etherType)
{
    return PppProtocol::EtherToPpp(etherType);
}

uint16_t
DirectLinkNetDevice::PppToEther(uint16_t ppp)
{
    return PppProtocol::PppToEther(ppp);
}

Address
DirectLinkNetDevice::GetRemote() const
{
    Ptr<DirectLinkNetDevice> peer = GetPeer();
    return peer ? peer->GetAddress() : GetBroadcast();
}

void
DirectLinkNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
DirectLinkNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
DirectLinkNetDevice::GetChannel() const
{
    return m_channel;
}

void
DirectLinkNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
DirectLinkNetDevice::GetAddress() const
{
    return m_address;
}

bool
DirectLinkNetDevice::SetMtu(const uint16_t mtu)
{
    RIFL_CHECK_ARG(mtu < 1 || mtu > 65533,
                   "DirectLinkNetDevice: Mtu = " << mtu << " is out of range [1, 65533]");
    // checked against MaxMessageBytes when the link starts (GetLinkConfig()); from then on
    // MaxMessageBytes is fixed, so a larger Mtu would let packets reach the engine that it
    // refuses
    RIFL_CHECK_ARG(IsLinkStarted() && mtu + 2U > m_maxMessageBytes,
                   "DirectLinkNetDevice: Mtu = " << mtu << " + 2 (PPP field) exceeds "
                                                 << "MaxMessageBytes = " << m_maxMessageBytes
                                                 << " of the started link");
    m_mtu = mtu;
    return true;
}

uint16_t
DirectLinkNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
DirectLinkNetDevice::IsLinkStarted() const
{
    return m_channel && m_channel->IsLinkStarted();
}

bool
DirectLinkNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
DirectLinkNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
DirectLinkNetDevice::IsBroadcast() const
{
    return true;
}

Address
DirectLinkNetDevice::GetBroadcast() const
{
    static const Mac48Address broadcast = Mac48Address::GetBroadcast(); // parsed once
    return broadcast;
}

bool
DirectLinkNetDevice::IsMulticast() const
{
    return true;
}

Address
DirectLinkNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address("01:00:5e:00:00:00");
}

Address
DirectLinkNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address("33:33:00:00:00:00");
}

bool
DirectLinkNetDevice::IsPointToPoint() const
{
    return true;
}

bool
DirectLinkNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
DirectLinkNetDevice::GetNode() const
{
    return m_node;
}

void
DirectLinkNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
DirectLinkNetDevice::NeedsArp() const
{
    return false;
}

void
DirectLinkNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
DirectLinkNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
DirectLinkNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3

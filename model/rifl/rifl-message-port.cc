/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-message-port.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/ppp-protocol.h"
#include "ns3/queue.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "rifl-net-device.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflMessagePort");

NS_OBJECT_ENSURE_REGISTERED(RiflMessagePort);

namespace
{
/// Packet type of a message.
constexpr uint8_t TYPE_MESSAGE = 0;
/// Packet type of a credit return.
constexpr uint8_t TYPE_CREDIT = 1;
/// NetErr bit of the class byte.
constexpr uint8_t FLAG_NET_ERR = 0x10;
/// NcErr bit of the class byte.
constexpr uint8_t FLAG_NC_ERR = 0x20;
/// VC reported for a loss whose VC is unknown.
constexpr uint32_t UNKNOWN_VC = DirectLinkConfig::NUM_VCS;
} // namespace

TypeId
RiflMessagePort::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RiflMessagePort")
              .SetParent<DirectLinkPort>()
              .SetGroupName("Rifl")
              .AddConstructor<RiflMessagePort>()
              .AddAttribute("VcBufferMessages",
                            "Received messages of each VC this end buffers for the DLIU (= the "
                            "peer's credits of the VC), 1..1e6.",
                            UintegerValue(4), MakeUintegerAccessor(&RiflMessagePort::m_vcBuffer),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
              .AddAttribute("MessageQueueLimit",
                            "DLIU messages waiting per VC before SendMessage counts one lost "
                            "(QUEUE_FULL), 1..1e6.",
                            UintegerValue(1024),
                            MakeUintegerAccessor(&RiflMessagePort::m_queueLimit),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
              .AddAttribute("DeviceQueuePackets",
                            "The port adds a packet to the RIFL device's queue only while fewer "
                            "than this many packets wait there (credit packets first, then "
                            "messages round robin over the VCs holding credit), 1..1e6.",
                            UintegerValue(2),
                            MakeUintegerAccessor(&RiflMessagePort::m_deviceQueuePackets),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
              .AddTraceSource("MessageLost",
                              "A message was counted lost here (id, VC (4 if unknown), "
                              "DirectLinkLossReason).",
                              MakeTraceSourceAccessor(&RiflMessagePort::m_lostTrace),
                              "ns3::RiflMessagePort::MessageLostTracedCallback")
              .AddTraceSource("MessageTx", "A message was handed to the RIFL device.",
                              MakeTraceSourceAccessor(&RiflMessagePort::m_txTrace),
                              "ns3::RiflMessagePort::MessageTracedCallback")
              .AddTraceSource("MessageRx", "A message was handed to the DLIU.",
                              MakeTraceSourceAccessor(&RiflMessagePort::m_rxTrace),
                              "ns3::RiflMessagePort::MessageTracedCallback");
    return tid;
}

RiflMessagePort::RiflMessagePort()
{
    NS_LOG_FUNCTION(this);
}

RiflMessagePort::~RiflMessagePort()
{
    NS_LOG_FUNCTION(this);
}

void
RiflMessagePort::DoDispose()
{
    m_pumpEvent.Cancel();
    if (m_device && m_device->GetQueue())
    {
        m_device->GetQueue()->TraceDisconnectWithoutContext(
            "Dequeue", MakeCallback(&RiflMessagePort::OnDequeue, this));
    }
    m_device = nullptr;
    for (auto& q : m_txq)
    {
        q.clear();
    }
    for (auto& q : m_rxBuf)
    {
        q.clear();
    }
    DirectLinkPort::DoDispose();
}

void
RiflMessagePort::SetDevice(Ptr<RiflNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    RIFL_CHECK_ARG(!device, "RiflMessagePort::SetDevice: device must not be null");
    RIFL_CHECK_ARG(m_device, "RiflMessagePort::SetDevice: the port already has a device");
    RIFL_CHECK_ARG(!device->GetNode(), "RiflMessagePort::SetDevice: the device is on no node");
    RIFL_CHECK_ARG(!device->GetChannel(),
                   "RiflMessagePort::SetDevice: the device is attached to no channel");
    RIFL_CHECK_ARG(!device->GetQueue(), "RiflMessagePort::SetDevice: the device has no queue");
    BooleanValue ppp;
    device->GetAttribute("PppHeader", ppp);
    RIFL_CHECK_ARG(!ppp.Get(), "RiflMessagePort::SetDevice: the device's PppHeader is false; "
                               "DLIU messages need the PPP protocol field (PppHeader true)");
    RIFL_CHECK_ARG(device->GetMtu() <= HEADER_BYTES,
                   "RiflMessagePort::SetDevice: the device's Mtu = "
                       << device->GetMtu() << " leaves no room for a message (it must exceed "
                       << HEADER_BYTES << ", the message header)");
    RIFL_CHECK_ARG(device->GetObject<DirectLinkPort>(),
                   "RiflMessagePort::SetDevice: the device already has a DLIU port");
    m_device = device;
    device->AggregateObject(this);
    device->GetNode()->RegisterProtocolHandler(MakeCallback(&RiflMessagePort::OnPacket, this),
                                               PppProtocol::DLIU_MESSAGE_ETHERTYPE, device);
    device->GetQueue()->TraceConnectWithoutContext("Dequeue",
                                                   MakeCallback(&RiflMessagePort::OnDequeue, this));
}

Ptr<RiflNetDevice>
RiflMessagePort::GetDevice() const
{
    return m_device;
}

Ptr<NetDevice>
RiflMessagePort::GetNetDevice() const
{
    return m_device;
}

Ptr<Node>
RiflMessagePort::GetPeerNode() const
{
    if (!m_device || !m_device->GetChannel())
    {
        return nullptr;
    }
    Ptr<Channel> ch = m_device->GetChannel();
    for (std::size_t i = 0; i < ch->GetNDevices(); ++i)
    {
        Ptr<NetDevice> d = ch->GetDevice(i);
        if (d && PeekPointer(d) != PeekPointer(m_device))
        {
            return d->GetNode();
        }
    }
    return nullptr;
}

Ptr<RiflMessagePort>
RiflMessagePort::PeerPort() const
{
    Ptr<Channel> ch = m_device->GetChannel();
    Ptr<RiflMessagePort> peer;
    for (std::size_t i = 0; i < ch->GetNDevices(); ++i)
    {
        Ptr<NetDevice> d = ch->GetDevice(i);
        if (d && PeekPointer(d) != PeekPointer(m_device))
        {
            peer = d->GetObject<RiflMessagePort>();
        }
    }
    RIFL_CHECK_ARG(!peer, "RiflMessagePort: the device at the other end of node "
                              << m_device->GetNode()->GetId()
                              << "'s RIFL link has no RiflMessagePort; both ends need one");
    return peer;
}

void
RiflMessagePort::Start()
{
    if (m_started)
    {
        return;
    }
    // Read once: a port's attributes are final when its link carries traffic.
    m_peerVcBuffer = PeerPort()->m_vcBuffer;
    m_credits.fill(m_peerVcBuffer);
    m_started = true;
}

void
RiflMessagePort::CheckVc(uint32_t vc, const char* method)
{
    RIFL_CHECK_ARG(vc >= DirectLinkConfig::NUM_VCS,
                   "RiflMessagePort::" << method << ": vc = " << vc << " is out of range [0, 3]");
}

uint64_t
RiflMessagePort::SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                             const std::vector<uint8_t>& bytes, const DirectLinkMessageFlags& flags)
{
    NS_LOG_FUNCTION(this << dstCpu << srcCpu << msgClass << vc << bytes.size());
    RIFL_CHECK_ARG(!m_device, "RiflMessagePort::SendMessage: the port has no device (SetDevice)");
    CheckVc(vc, "SendMessage");
    RIFL_CHECK_ARG(dstCpu > 255, "RiflMessagePort::SendMessage: dstCpu = "
                                     << dstCpu << " is out of range [0, 255]");
    RIFL_CHECK_ARG(srcCpu > 255, "RiflMessagePort::SendMessage: srcCpu = "
                                     << srcCpu << " is out of range [0, 255]");
    RIFL_CHECK_ARG(msgClass > 15, "RiflMessagePort::SendMessage: msgClass = "
                                      << msgClass << " is out of range [0, 15]");
    RIFL_CHECK_ARG(bytes.size() > GetMaxMessageBytes(),
                   "RiflMessagePort::SendMessage: bytes size = "
                       << bytes.size() << " exceeds the device's Mtu - " << HEADER_BYTES << " = "
                       << GetMaxMessageBytes());
    RIFL_CHECK_ARG(flags.announcedLength > 65535, "RiflMessagePort::SendMessage: announcedLength = "
                                                      << flags.announcedLength
                                                      << " is out of range [0, 65535]");
    RIFL_CHECK_ARG(flags.announcedLength != 0 && flags.announcedLength < bytes.size(),
                   "RiflMessagePort::SendMessage: announcedLength = "
                       << flags.announcedLength << " is below the " << bytes.size()
                       << " bytes sent");
    RIFL_CHECK_ARG(flags.announcedLength > bytes.size() && !flags.netErr,
                   "RiflMessagePort::SendMessage: announcedLength = "
                       << flags.announcedLength << " > " << bytes.size()
                       << " bytes sent needs netErr (a copy truncated upstream)");
    Start();
    if (m_txq[vc].size() >= m_queueLimit)
    {
        CountLoss(0, vc, DirectLinkLossReason::QUEUE_FULL);
        return 0;
    }
    Outgoing o;
    o.id = m_nextId++;
    o.message.dstCpu = dstCpu;
    o.message.srcCpu = srcCpu;
    o.message.msgClass = msgClass;
    o.message.vc = vc;
    o.message.bytes = bytes;
    o.message.length
        = flags.announcedLength == 0 ? static_cast<uint32_t>(bytes.size()) : flags.announcedLength;
    o.message.netErr = flags.netErr;
    o.message.ncErr = flags.ncErr;
    o.message.messageId = o.id;
    o.flags = flags;
    const uint64_t id = o.id;
    m_txq[vc].push_back(std::move(o));
    ++m_counters.messagesAccepted;
    Pump();
    return id;
}

uint32_t
RiflMessagePort::GetMaxMessageBytes() const
{
    return m_device ? m_device->GetMtu() - HEADER_BYTES : 0;
}

bool
RiflMessagePort::DeviceHasRoom(uint32_t bytes) const
{
    Ptr<Queue<Packet>> q = m_device->GetQueue();
    if (q->GetNPackets() >= m_deviceQueuePackets)
    {
        return false;
    }
    const QueueSize max = q->GetMaxSize();
    if (max.GetUnit() == QueueSizeUnit::PACKETS)
    {
        return q->GetNPackets() + 1 <= max.GetValue();
    }
    // bytes, with the 2-byte PPP field the device adds
    return q->GetNBytes() + bytes + 2 <= max.GetValue();
}

bool
RiflMessagePort::SendPacket(Ptr<Packet> packet)
{
    return m_device->Send(packet, m_device->GetBroadcast(), PppProtocol::DLIU_MESSAGE_ETHERTYPE);
}

void
RiflMessagePort::Pump()
{
    if (m_pumping)
    {
        m_pumpAgain = true;
        return;
    }
    if (!m_device)
    {
        return;
    }
    Start();
    m_pumping = true;
    do
    {
        m_pumpAgain = false;
        while (true)
        {
            // credits first: they let the peer's messages move
            bool sent = false;
            for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS && !sent; ++v)
            {
                if (m_owed[v] == 0)
                {
                    continue;
                }
                if (!DeviceHasRoom(CREDIT_BYTES))
                {
                    break;
                }
                const uint32_t n = std::min<uint32_t>(m_owed[v], 65535);
                const uint8_t b[CREDIT_BYTES]
                    = {TYPE_CREDIT, static_cast<uint8_t>(v), static_cast<uint8_t>(n >> 8),
                       static_cast<uint8_t>(n & 0xFF)};
                if (!SendPacket(Create<Packet>(b, CREDIT_BYTES)))
                {
                    break; // the device took nothing (its MacTxDrop traced it); retry later
                }
                m_owed[v] -= n;
                ++m_counters.creditPacketsSent;
                sent = true;
            }
            if (sent)
            {
                continue;
            }
            bool owing = false;
            for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
            {
                owing = owing || m_owed[v] > 0;
            }
            if (owing)
            {
                break; // no room for the credits: no message overtakes them
            }
            for (uint32_t k = 0; k < DirectLinkConfig::NUM_VCS && !sent; ++k)
            {
                const uint32_t v = (m_rrVc + k) % DirectLinkConfig::NUM_VCS;
                if (m_txq[v].empty() || m_credits[v] == 0)
                {
                    continue;
                }
                Outgoing& o = m_txq[v].front();
                const uint32_t size = HEADER_BYTES + static_cast<uint32_t>(o.message.bytes.size());
                if (!DeviceHasRoom(size))
                {
                    break;
                }
                std::vector<uint8_t> b(size);
                const uint32_t announced = o.message.length;
                b[0] = TYPE_MESSAGE;
                b[1] = static_cast<uint8_t>(o.message.dstCpu);
                b[2] = static_cast<uint8_t>(o.message.srcCpu);
                b[3] = static_cast<uint8_t>(o.message.msgClass | (o.flags.netErr ? FLAG_NET_ERR : 0)
                                            | (o.flags.ncErr ? FLAG_NC_ERR : 0));
                b[4] = static_cast<uint8_t>(v);
                b[5] = static_cast<uint8_t>(announced >> 8);
                b[6] = static_cast<uint8_t>(announced & 0xFF);
                for (uint32_t i = 0; i < 8; ++i)
                {
                    b[7 + i] = static_cast<uint8_t>(o.id >> (56 - 8 * i));
                }
                std::copy(o.message.bytes.begin(), o.message.bytes.end(), b.begin() + HEADER_BYTES);
                if (!SendPacket(Create<Packet>(b.data(), size)))
                {
                    break; // retry on the next dequeue
                }
                --m_credits[v];
                ++m_counters.messagesSent;
                m_txTrace(o.message);
                m_txq[v].pop_front();
                m_spaceFreed |= 1U << v;
                m_rrVc = (v + 1) % DirectLinkConfig::NUM_VCS;
                sent = true;
            }
            if (!sent)
            {
                break;
            }
        }
    } while (m_pumpAgain);
    m_pumping = false;
    // outside the transmit loop: the DLIU may hand over more messages now
    while (m_spaceFreed != 0)
    {
        uint32_t v = 0;
        while ((m_spaceFreed & (1U << v)) == 0)
        {
            ++v;
        }
        m_spaceFreed &= ~(1U << v);
        NotifyTxSpace(v);
    }
}

void
RiflMessagePort::SchedulePump()
{
    if (!RiflEventPending(m_pumpEvent))
    {
        m_pumpEvent = Simulator::ScheduleNow(&RiflMessagePort::Pump, this);
    }
}

void
RiflMessagePort::OnDequeue(Ptr<const Packet> /* packet */)
{
    SchedulePump();
}

uint32_t
RiflMessagePort::GetVcQueueLength(uint32_t vc) const
{
    CheckVc(vc, "GetVcQueueLength");
    return static_cast<uint32_t>(m_txq[vc].size());
}

uint64_t
RiflMessagePort::GetQueuedMessages() const
{
    uint64_t n = 0;
    for (const auto& q : m_txq)
    {
        n += q.size();
    }
    return n;
}

uint32_t
RiflMessagePort::GetHeldMessages(uint32_t vc) const
{
    CheckVc(vc, "GetHeldMessages");
    return static_cast<uint32_t>(m_rxBuf[vc].size());
}

uint32_t
RiflMessagePort::GetCredits(uint32_t vc) const
{
    CheckVc(vc, "GetCredits");
    return m_credits[vc];
}

void
RiflMessagePort::SetReceiveHold(uint32_t vc, bool hold)
{
    CheckVc(vc, "SetReceiveHold");
    const bool was = m_hold[vc];
    m_hold[vc] = hold;
    if (was && !hold && !m_rxBuf[vc].empty())
    {
        // not from inside the DLIU's call: the drain hands messages back to it
        Simulator::ScheduleNow(&RiflMessagePort::Drain, this, vc);
    }
}

bool
RiflMessagePort::GetReceiveHold(uint32_t vc) const
{
    CheckVc(vc, "GetReceiveHold");
    return m_hold[vc];
}

void
RiflMessagePort::CountLoss(uint64_t messageId, uint32_t vc, DirectLinkLossReason reason)
{
    NS_LOG_FUNCTION(this << messageId << vc << DirectLinkLossReasonName(reason));
    ++m_counters.messagesLost;
    ++m_counters.lostByReason[static_cast<uint32_t>(reason)];
    m_lostTrace(messageId, vc, static_cast<uint8_t>(reason));
}

void
RiflMessagePort::SetCpuNumbers(uint32_t localCpu, uint32_t peerCpu)
{
    m_localCpu = localCpu;
    m_peerCpu = peerCpu;
}

bool
RiflMessagePort::IsIpPair(uint32_t /* msgClass */, uint32_t /* vc */) const
{
    return false; // IP rides the RIFL device itself, not DLIU messages
}

RiflMessagePortCounters
RiflMessagePort::GetCounters() const
{
    return m_counters;
}

void
RiflMessagePort::Malformed(const char* why)
{
    NS_LOG_LOGIC("malformed DLIU packet: " << why);
    ++m_counters.malformedPackets;
    CountLoss(0, UNKNOWN_VC, DirectLinkLossReason::MALFORMED);
}

void
RiflMessagePort::OnPacket(Ptr<NetDevice> /* device */, Ptr<const Packet> packet,
                          uint16_t /* protocol */, const Address& /* from */,
                          const Address& /* to */, NetDevice::PacketType /* type */)
{
    NS_LOG_FUNCTION(this << packet);
    const bool corrupt = m_device->GetLastReceiveCorrupt();
    const uint32_t size = packet->GetSize();
    std::vector<uint8_t> b(size);
    packet->CopyData(b.data(), size);
    if (size == 0)
    {
        Malformed("empty");
        return;
    }
    if (b[0] == TYPE_CREDIT)
    {
        if (size != CREDIT_BYTES || b[1] >= DirectLinkConfig::NUM_VCS)
        {
            Malformed("credit packet of the wrong size or VC");
            return;
        }
        const uint32_t vc = b[1];
        const uint32_t n = (uint32_t{b[2]} << 8) | b[3];
        if (n == 0)
        {
            Malformed("credit packet of no credit");
            return;
        }
        Start();
        ++m_counters.creditPacketsReceived;
        m_counters.creditsReturned += n;
        const uint32_t limit = m_peerVcBuffer;
        if (m_credits[vc] + n > limit)
        {
            // more than the peer's buffer: a duplicate delivered (ReplayTail=Rtl) or an
            // undetected error; kept, so the excess shows as VC_OVERFLOW at the peer
            m_counters.creditOverflows += m_credits[vc] + n - limit;
        }
        m_credits[vc] += n;
        Pump();
        return;
    }
    if (b[0] != TYPE_MESSAGE || size < HEADER_BYTES)
    {
        Malformed("unknown type or short header");
        return;
    }
    const uint32_t vc = b[4];
    if (vc >= DirectLinkConfig::NUM_VCS || (b[3] & 0xC0) != 0)
    {
        Malformed("VC or flags out of range");
        return;
    }
    DirectLinkMessage m;
    m.dstCpu = b[1];
    m.srcCpu = b[2];
    m.msgClass = b[3] & 0x0F;
    m.netErr = (b[3] & FLAG_NET_ERR) != 0;
    m.ncErr = (b[3] & FLAG_NC_ERR) != 0;
    m.vc = vc;
    m.length = (uint32_t{b[5]} << 8) | b[6];
    for (uint32_t i = 0; i < 8; ++i)
    {
        m.messageId = (m.messageId << 8) | b[7 + i];
    }
    m.bytes.assign(b.begin() + HEADER_BYTES, b.end());
    if (m.length < m.bytes.size() || (m.length > m.bytes.size() && !m.netErr))
    {
        ++m_counters.malformedPackets;
        CountLoss(m.messageId, vc, DirectLinkLossReason::MALFORMED);
        return;
    }
    if (m.length > m.bytes.size())
    {
        m.truncated = true;
        m.truncationReason = DirectLinkEndpointState::TruncationReason::UPSTREAM;
    }
    m.contentOk = !corrupt;
    if (m_rxBuf[vc].size() >= m_vcBuffer)
    {
        CountLoss(m.messageId, vc, DirectLinkLossReason::VC_OVERFLOW);
        return;
    }
    m_rxBuf[vc].push_back(std::move(m));
    Drain(vc);
}

void
RiflMessagePort::Drain(uint32_t vc)
{
    if (m_draining[vc] || !m_device)
    {
        return;
    }
    m_draining[vc] = true;
    bool freed = false;
    while (!m_hold[vc] && !m_rxBuf[vc].empty())
    {
        DirectLinkMessage m = std::move(m_rxBuf[vc].front());
        m_rxBuf[vc].pop_front();
        ++m_owed[vc];
        freed = true;
        ++m_counters.messagesReceived;
        if (!m.contentOk)
        {
            ++m_counters.messagesReceivedCorrupt;
        }
        if (m.truncated)
        {
            ++m_counters.messagesTruncated;
        }
        m_rxTrace(m);
        NotifyReceive(m);
    }
    m_draining[vc] = false;
    if (freed)
    {
        SchedulePump(); // the credits go back
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-net-device.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
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
#include "ns3/uinteger.h"
#include "rifl-channel.h"
#include "rifl-lane-state.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflNetDevice");

NS_OBJECT_ENSURE_REGISTERED(RiflNetDevice);

namespace
{

/**
 * Fire a packet trace source only when something is connected to it: an empty
 * TracedCallback still costs a call and a reference count on the packet, several
 * times per packet on this device's path.
 *
 * \param trace the trace source
 * \param packet the packet it reports
 */
template <typename P>
inline void
FirePacketTrace(const TracedCallback<Ptr<const Packet>>& trace, const P& packet)
{
    if (!trace.IsEmpty())
    {
        trace(packet);
    }
}

} // namespace

TypeId
RiflNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RiflNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Rifl")
              .AddConstructor<RiflNetDevice>()
              .AddAttribute("Mtu",
                            "The MAC-level MTU in bytes (payload of the PPP header), 1..65535.",
                            UintegerValue(1500),
                            MakeUintegerAccessor(&RiflNetDevice::SetMtu, &RiflNetDevice::GetMtu),
                            MakeUintegerChecker<uint16_t>(1, 65535))
              .AddAttribute("Address", "The MAC address of this device.",
                            Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                            MakeMac48AddressAccessor(&RiflNetDevice::m_address),
                            MakeMac48AddressChecker())
              .AddAttribute("TxQueue",
                            "The queue of packets waiting for the link; the device fills and "
                            "empties it (Send()), nothing else may.",
                            PointerValue(), MakePointerAccessor(&RiflNetDevice::m_queue),
                            MakePointerChecker<Queue<Packet>>())
              .AddAttribute("EngineQueuePackets",
                            "Packets handed to the link engine ahead of the line (>= 2 keeps "
                            "back-to-back packets gap-free), 1..64.",
                            UintegerValue(2), MakeUintegerAccessor(&RiflNetDevice::m_enginePackets),
                            MakeUintegerChecker<uint32_t>(1, 64))
              .AddAttribute("DeliverCorrupted",
                            "Deliver packets whose bytes were changed by an undetected error "
                            "(true, as hardware would) or drop them (false); traced either way.",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RiflNetDevice::m_deliverCorrupt),
                            MakeBooleanChecker())
              .AddAttribute(
                  "PppHeader",
                  "Carry the 2-byte PPP protocol field (true: IPv4 and IPv6 demultiplexed, "
                  "DLT_PPP pcap). false: raw packets, delivered up as IPv4, for "
                  "measurements of the link alone (the paper's payload efficiency).",
                  BooleanValue(true), MakeBooleanAccessor(&RiflNetDevice::m_pppHeader),
                  MakeBooleanChecker())
              .AddAttribute("FrameSize", "RIFL frame size S in bits: 128, 256, 512 or 1024.",
                            UintegerValue(256),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeUintegerAccessor(&RiflNetDevice::m_frameSize)),
                            MakeUintegerChecker<uint32_t>(128, 1024))
              .AddAttribute("Lanes", "Bonded lanes per direction, 1..16.", UintegerValue(4),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeUintegerAccessor(&RiflNetDevice::m_lanes)),
                            MakeUintegerChecker<uint32_t>(1, 16))
              .AddAttribute("LaneRate", "Line rate of one lane, (0, 1000 Gb/s].",
                            DataRateValue(DataRate("28Gbps")),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeDataRateAccessor(&RiflNetDevice::m_laneRate)),
                            MakeDataRateChecker())
              .AddAttribute("DataRate", "Lanes x LaneRate (read-only: set Lanes and LaneRate).",
                            TypeId::ATTR_GET, DataRateValue(DataRate("112Gbps")),
                            MakeDataRateAccessor(&RiflNetDevice::GetDataRate),
                            MakeDataRateChecker())
              .AddAttribute("FrameIdWidth",
                            "Frame ID bits (buffer D = 2^w frames): 0 = the RTL rule from lane "
                            "rate, cable length and TransceiverDelay; an explicit value must be at "
                            "least that minimum and at most 12.",
                            UintegerValue(0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeUintegerAccessor(&RiflNetDevice::m_frameIdWidth)),
                            MakeUintegerChecker<uint32_t>(0, 12))
              .AddAttribute("TransceiverDelay",
                            "T_gt of the RTL sizing rule RTT = 2 (T_gt + L x 3.34 ns/m), "
                            "[0, 10 us].",
                            TimeValue(NanoSeconds(80)),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeTimeAccessor(&RiflNetDevice::m_transceiverDelay)),
                            MakeTimeChecker(Seconds(0), MicroSeconds(10)))
              .AddAttribute("ReplayTail",
                            "Idle slots ending a replay: Rtl = D/2 + 1 as the authors' RTL "
                            "(reproduces the duplicate-delivery hazard of spec 10.3, counted and "
                            "traced), Corrected = at least 2L + 8.",
                            EnumValue(0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeEnumAccessor(&RiflNetDevice::m_replayTail)),
                            MakeEnumChecker(0, "Rtl", 1, "Corrected"))
              .AddAttribute("CorrectedTail",
                            "Explicit tail in slots for ReplayTail=Corrected (0 = max(D/2+1, "
                            "2L+8)).",
                            UintegerValue(0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeUintegerAccessor(&RiflNetDevice::m_correctedTail)),
                            MakeUintegerChecker<uint32_t>(0, 1000000))
              .AddAttribute("Startup",
                            "RX-up wait after alignment: Full = 2^20 transceiver words (about "
                            "2.4 ms at 28 Gb/s) as the hardware, Short = 2^12 as the RTL's "
                            "simulation builds.",
                            EnumValue(0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeEnumAccessor(&RiflNetDevice::m_startup)),
                            MakeEnumChecker(0, "Full", 1, "Short"))
              .AddAttribute("RxUpSlots", "Explicit RX-up wait in frame slots (0 = from Startup).",
                            UintegerValue(0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeUintegerAccessor(&RiflNetDevice::m_rxUpSlots)),
                            MakeUintegerChecker<uint32_t>(0, 100000000))
              .AddAttribute("FcFifoDepth",
                            "Real depth of the receiver's FC FIFO in frames (0 = 2^(FID+1) + 16, "
                            "144 for FID 6, as the RTL) of this device's receiver; frames beyond "
                            "it are dropped, counted and traced (spec 10.4). Each device may use "
                            "its own value.",
                            UintegerValue(0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeUintegerAccessor(&RiflNetDevice::m_fcFifoDepth)),
                            MakeUintegerChecker<uint32_t>(0, 1000000))
              .AddAttribute("DrainRate",
                            "User frames per slot this device's receiving user side takes from "
                            "its lanes' FC FIFOs in total (round robin over the lanes; Lanes = "
                            "the line rate), [0, 16]; 0 = unlimited. Each device may use its own "
                            "value.",
                            DoubleValue(0.0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeDoubleAccessor(&RiflNetDevice::m_drainRate)),
                            MakeDoubleChecker<double>(0.0, 16.0))
              .AddAttribute("ClockOffsetPpm",
                            "Offset of this device's frame clock from nominal, [-1000, 1000] ppm "
                            "(resolution 0.001 ppm). The two devices' difference Delta makes the "
                            "slower one miss one slot per 1/Delta slots (spec 6.1).",
                            DoubleValue(0.0),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeDoubleAccessor(&RiflNetDevice::m_clockOffsetPpm)),
                            MakeDoubleChecker<double>(-1000.0, 1000.0))
              .AddAttribute("ClockCompensation",
                            "When this device is the faster side, insert clock-compensation Idle "
                            "frames (not stored, not numbered) at the measured rate, as the RTL "
                            "(default). false: the slower side's FC FIFOs absorb the difference "
                            "through flow control.",
                            BooleanValue(true),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeBooleanAccessor(&RiflNetDevice::m_clockCompensation)),
                            MakeBooleanChecker())
              .AddAttribute("UserWordBytes",
                            "User bus width in bytes for per-word latency, 1..1024.",
                            UintegerValue(32),
                            MakeLinkAttributeAccessor<RiflNetDevice>(
                                MakeUintegerAccessor(&RiflNetDevice::m_userWordBytes)),
                            MakeUintegerChecker<uint32_t>(1, 1024))
              .AddTraceSource("MacTx", "A packet from the upper layer entered the device.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_macTxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacTxDrop",
                              "A packet from the upper layer was dropped (queue full).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_macTxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacRx", "A packet was passed to the upper layer.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_macRxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyTxBegin", "The packet's first frame went on the line.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_phyTxBeginTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyTxEnd", "The packet's last frame went on the line.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_phyTxEndTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyRxEnd", "A packet's last frame reached the receiving user.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_phyRxEndTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PhyRxDrop",
                              "A received packet was dropped (undetected corruption with "
                              "DeliverCorrupted=false, or an unknown protocol number).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_phyRxDropTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("Sniffer",
                              "Packets sent and received, with the PPP header (non-promiscuous).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_snifferTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PromiscSniffer",
                              "Packets sent and received, with the PPP header (promiscuous).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_promiscSnifferTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("TxStateChange",
                              "A lane's TX state changed (old and new RiflTxState: 0 Init, 1 "
                              "SendPause, 2 Pause, 3 Retrans, 4 SendRetrans, 5 Normal).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_txStateTrace),
                              "ns3::RiflNetDevice::TxStateChangeTracedCallback")
              .AddTraceSource("FrameError",
                              "This receiver's check failed on a frame (value: RiflFrame::Status).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_frameErrorTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("ReplayStart", "This sender began a replay of its buffer.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_replayStartTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("ReplayEnd", "This sender's replay ended.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_replayEndTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("FlowControl",
                              "Flow control (value: 0 pause sent, 1 resume sent, 2 pause received, "
                              "3 resume received).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_flowControlTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("SyncLoss",
                              "This receiver lost (value 1) or regained (value 0) RX up.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_syncLossTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("UndetectedError",
                              "A frame with line errors passed every check at this receiver.",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_undetectedTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("DuplicateDelivery",
                              "A user frame was delivered a second time at this receiver (the "
                              "replay-tail hazard of spec 10.3; value: packet id).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_duplicateTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("FcFifoDrop",
                              "A user frame was dropped at this receiver's full FC FIFO (spec "
                              "10.4; value: packet id).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_fifoDropTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("OutOfOrderDelivery",
                              "A user frame was delivered ahead of missing ones at this receiver "
                              "(the reordering hazard of spec 10.2 / 11.8; value: packets lost "
                              "because their last frame was skipped, 0 or more).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_outOfOrderTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("ResyncAhead",
                              "This receiver accepted a non-user frame (fill or FC notification) "
                              "sent after a user frame it has not received (spec 10.2 / 11.8: "
                              "resynchronised on a frame D newer; the missing frames arrive later "
                              "or are reported by OutOfOrderDelivery; value: user frames missing "
                              "before it).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_resyncAheadTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("FcNotificationSkipped",
                              "This receiver accepted a Data frame sent after flow-control "
                              "notifications of the peer that it never acted on (spec 10.2 / "
                              "11.8: resynchronised on a frame D newer; a skipped resume leaves "
                              "this device's TX lane paused for good; value: notifications "
                              "skipped).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_fcSkippedTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("FcNotificationRepeated",
                              "This receiver acted a second time on a flow-control notification "
                              "of the peer (a frame D older accepted in sequence, spec 10.3; "
                              "value: 1 pause, 2 resume).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_fcRepeatedTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback")
              .AddTraceSource("ClockCompensation",
                              "This (faster) device sent a clock-compensation Idle on a lane "
                              "(spec 6.1; value: line slot).",
                              MakeTraceSourceAccessor(&RiflNetDevice::m_compensationTrace),
                              "ns3::RiflNetDevice::ProtocolEventTracedCallback");
    return tid;
}

RiflNetDevice::RiflNetDevice()
    : m_laneRate("28Gbps")
    , m_transceiverDelay(NanoSeconds(80))
{
    NS_LOG_FUNCTION(this);
}

RiflNetDevice::~RiflNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
RiflNetDevice::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    m_peer = nullptr;
    m_queue = nullptr;
    m_rxCallback.Nullify();
    m_promiscCallback.Nullify();
    NetDevice::DoDispose();
}

bool
RiflNetDevice::Attach(Ptr<RiflChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    RIFL_CHECK_ARG(!channel, "RiflNetDevice::Attach: channel must not be null");
    RIFL_CHECK_ARG(m_channel, "RiflNetDevice::Attach: the device is already attached");
    m_channel = channel;
    m_channel->Attach(this);
    return true;
}

void
RiflNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
RiflNetDevice::GetQueue() const
{
    return m_queue;
}

RiflLinkConfig
RiflNetDevice::GetLinkConfig() const
{
    RiflLinkConfig c;
    c.frameSize = m_frameSize;
    c.lanes = m_lanes;
    c.laneRateGbps = m_laneRate.GetBitRate() / 1e9;
    c.transceiverDelayNs = m_transceiverDelay.GetSeconds() * 1e9;
    c.frameIdWidth = m_frameIdWidth;
    c.replayTail = m_replayTail == 0 ? RiflReplayTail::RTL : RiflReplayTail::CORRECTED;
    c.correctedTailSlots = m_correctedTail;
    c.startup = m_startup == 0 ? RiflStartup::FULL : RiflStartup::SHORT;
    c.rxUpSlots = m_rxUpSlots;
    c.fcFifoDepth = m_fcFifoDepth;
    c.drainFramesPerSlot = m_drainRate;
    c.userWordBytes = m_userWordBytes;
    c.clockOffsetPpm = {m_clockOffsetPpm, 0.0};
    c.clockCompensation = {m_clockCompensation, true};
    return c;
}

DataRate
RiflNetDevice::GetDataRate() const
{
    return DataRate(m_laneRate.GetBitRate() * m_lanes);
}

RiflEndpointCounters
RiflNetDevice::GetCounters() const
{
    if (m_channel)
    {
        const uint32_t ep = m_channel->GetEndpoint(this);
        m_channel->CatchUpNow(ep);
        if (const RiflLinkEngine* e = m_channel->GetEngine(ep))
        {
            return e->GetCounters(ep);
        }
    }
    return RiflEndpointCounters();
}

void
RiflNetDevice::ReceiveRemote(Ptr<Packet> message)
{
    NS_ABORT_MSG_IF(!m_channel, "RiflNetDevice::ReceiveRemote: the device has no channel");
    m_channel->ReceiveRemote(this, message);
}

uint64_t
RiflNetDevice::GetPacketsReceived() const
{
    return m_packetsReceived;
}

uint64_t
RiflNetDevice::GetPacketsReceivedCorrupt() const
{
    return m_packetsReceivedCorrupt;
}

bool
RiflNetDevice::GetLastReceiveCorrupt() const
{
    return m_lastRxCorrupt;
}

uint16_t
RiflNetDevice::EtherToPpp(uint16_t etherType)
{
    return PppProtocol::EtherToPpp(etherType);
}

uint16_t
RiflNetDevice::PppToEther(uint16_t ppp)
{
    return PppProtocol::PppToEther(ppp);
}

bool
RiflNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    if (!m_channel || !m_queue)
    {
        FirePacketTrace(m_macTxDropTrace, packet);
        return false;
    }
    RIFL_CHECK_ARG(packet->GetSize() > m_mtu, "RiflNetDevice::Send: packet of "
                                                  << packet->GetSize()
                                                  << " bytes exceeds Mtu = " << m_mtu);
    // With its PPP header an empty packet carries 2 bytes; without, it would carry none,
    // which the link cannot (a packet is 1 byte or more of frames' user bytes).
    RIFL_CHECK_ARG(packet->GetSize() == 0 && !m_pppHeader,
                   "RiflNetDevice::Send: an empty packet with PppHeader = false (a RIFL link "
                   "carries packets of 1 byte or more)");
    if (m_pppHeader)
    {
        PppHeader ppp;
        ppp.SetProtocol(EtherToPpp(protocolNumber));
        packet->AddHeader(ppp);
    }
    FirePacketTrace(m_macTxTrace, packet);
    m_queueHolds = true;
    if (!m_queue->Enqueue(packet))
    {
        // The queue traces its own drop (and the NetDeviceQueueInterface, if any, has
        // stopped the upper layer before it came to this).
        FirePacketTrace(m_macTxDropTrace, packet);
        return false;
    }
    TryTransmit();
    return true;
}

bool
RiflNetDevice::SendFrom(Ptr<Packet> packet, const Address& source, const Address& dest,
                        uint16_t protocolNumber)
{
    return false;
}

void
RiflNetDevice::TryTransmit()
{
    if (!m_linkUp || !m_channel)
    {
        return;
    }
    bool empty = m_queue->IsEmpty();
    m_queueHolds = !empty;
    while (!empty)
    {
        // The engine may lag behind now (TX_END events it need not wake for): catch up
        // first. Its events may call this method again and empty the queue.
        const uint64_t pending = m_channel->GetPendingPacketsNow(this, m_enginePackets);
        Ptr<Packet> p = pending < m_enginePackets ? m_queue->Dequeue() : nullptr;
        empty = m_queue->IsEmpty();
        m_queueHolds = !empty; // before Send(): the channel asks NeedsTxEndWake()
        if (!p)
        {
            break;
        }
        FirePacketTrace(m_snifferTrace, p);
        FirePacketTrace(m_promiscSnifferTrace, p);
        m_channel->Send(this, p);
    }
    if (!empty)
    {
        m_channel->RequireTxEndWake(this); // to hand the rest over as soon as there is room
    }
}

Address
RiflNetDevice::GetRemote() const
{
    if (m_channel && m_channel->GetNDevices() == 2)
    {
        if (!m_peer)
        {
            m_peer = DynamicCast<RiflNetDevice>(m_channel->GetDevice(1 - m_channel->GetEndpoint(this)));
            m_peerMac = m_peer->m_address;
            m_peerAddress = m_peerMac;
        }
        if (m_peer->m_address != m_peerMac)
        {
            m_peerMac = m_peer->m_address; // the peer's address was changed
            m_peerAddress = m_peerMac;
        }
        return m_peerAddress;
    }
    return GetBroadcast();
}

void
RiflNetDevice::NotifyLinkUp()
{
    if (!m_linkUp)
    {
        m_linkUp = true;
        m_linkChangeCallbacks();
    }
    TryTransmit();
}

void
RiflNetDevice::Receive(Ptr<Packet> packet, bool corrupt)
{
    NS_LOG_FUNCTION(this << packet << corrupt);
    m_lastRxCorrupt = corrupt;
    FirePacketTrace(m_phyRxEndTrace, packet);
    if (corrupt)
    {
        ++m_packetsReceivedCorrupt;
        if (!m_deliverCorrupt)
        {
            FirePacketTrace(m_phyRxDropTrace, packet);
            return;
        }
    }
    FirePacketTrace(m_snifferTrace, packet);
    FirePacketTrace(m_promiscSnifferTrace, packet);
    // The channel hands over a packet of its own (as ns-3's PointToPointChannel does):
    // its PPP header is removed in place, without another copy.
    Ptr<Packet> p = packet;
    uint16_t protocol = 0x0800;
    if (m_pppHeader)
    {
        PppHeader ppp;
        if (p->GetSize() < ppp.GetSerializedSize())
        {
            FirePacketTrace(m_phyRxDropTrace, packet);
            return;
        }
        p->RemoveHeader(ppp);
        protocol = PppToEther(ppp.GetProtocol());
    }
    if (protocol == 0)
    {
        FirePacketTrace(m_phyRxDropTrace, packet);
        return;
    }
    ++m_packetsReceived;
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, p, protocol, GetRemote(), GetAddress(), NetDevice::PACKET_HOST);
    }
    FirePacketTrace(m_macRxTrace, p);
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, p, protocol, GetRemote());
    }
}

void
RiflNetDevice::NotifyEvent(const RiflLinkEvent& ev, Ptr<const Packet> packet)
{
    switch (ev.type)
    {
        case RiflLinkEventType::TX_STATE_CHANGE:
            m_txStateTrace(ev.lane, ev.slot, static_cast<uint8_t>(ev.value2),
                           static_cast<uint8_t>(ev.value));
            break;
        case RiflLinkEventType::FRAME_ERROR:
            m_frameErrorTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::REPLAY_START:
            m_replayStartTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::REPLAY_END:
            m_replayEndTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::FC_PAUSE_SENT:
            m_flowControlTrace(ev.lane, ev.slot, 0);
            break;
        case RiflLinkEventType::FC_RESUME_SENT:
            m_flowControlTrace(ev.lane, ev.slot, 1);
            break;
        case RiflLinkEventType::FC_PAUSE_RECEIVED:
            m_flowControlTrace(ev.lane, ev.slot, 2);
            break;
        case RiflLinkEventType::FC_RESUME_RECEIVED:
            m_flowControlTrace(ev.lane, ev.slot, 3);
            break;
        case RiflLinkEventType::RX_DOWN:
            m_syncLossTrace(ev.lane, ev.slot, 1);
            break;
        case RiflLinkEventType::RX_UP:
            m_syncLossTrace(ev.lane, ev.slot, 0);
            break;
        case RiflLinkEventType::UNDETECTED_ERROR:
            m_undetectedTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::DUPLICATE_DELIVERY:
            m_duplicateTrace(ev.lane, ev.slot, static_cast<int64_t>(ev.packetId));
            break;
        case RiflLinkEventType::FC_FIFO_DROP:
            m_fifoDropTrace(ev.lane, ev.slot, static_cast<int64_t>(ev.packetId));
            break;
        case RiflLinkEventType::CLOCK_COMPENSATION:
            m_compensationTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::OUT_OF_ORDER_DELIVERY:
            m_outOfOrderTrace(ev.lane, ev.slot, ev.value2);
            break;
        case RiflLinkEventType::RESYNC_AHEAD:
            m_resyncAheadTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::FC_NOTIFICATION_SKIPPED:
            m_fcSkippedTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::FC_NOTIFICATION_REPEATED:
            m_fcRepeatedTrace(ev.lane, ev.slot, ev.value);
            break;
        case RiflLinkEventType::TX_BEGIN:
            if (packet)
            {
                m_phyTxBeginTrace(packet);
            }
            break;
        case RiflLinkEventType::TX_END:
            if (packet)
            {
                m_phyTxEndTrace(packet);
            }
            TryTransmit();
            break;
    }
}

bool
RiflNetDevice::NeedsTxEndWake() const
{
    NS_ASSERT_MSG(!m_queue || m_queueHolds || m_queue->IsEmpty(),
                  "RiflNetDevice: packets in the TX queue that Send() did not put there");
    return !m_phyTxEndTrace.IsEmpty() || m_queueHolds;
}

bool
RiflNetDevice::ObservesLinkEvents() const
{
    // every trace IsEventObserved() names for a type other than TX_BEGIN and TX_END
    const bool observed = !m_txStateTrace.IsEmpty() || !m_frameErrorTrace.IsEmpty()
                          || !m_replayStartTrace.IsEmpty() || !m_replayEndTrace.IsEmpty()
                          || !m_flowControlTrace.IsEmpty() || !m_syncLossTrace.IsEmpty()
                          || !m_undetectedTrace.IsEmpty() || !m_duplicateTrace.IsEmpty()
                          || !m_fifoDropTrace.IsEmpty() || !m_compensationTrace.IsEmpty()
                          || !m_outOfOrderTrace.IsEmpty() || !m_resyncAheadTrace.IsEmpty()
                          || !m_fcSkippedTrace.IsEmpty() || !m_fcRepeatedTrace.IsEmpty();
#ifdef NS3_ASSERT_ENABLE
    bool any = false;
    for (uint8_t t = 0; t <= static_cast<uint8_t>(RiflLinkEventType::FC_NOTIFICATION_REPEATED);
         ++t)
    {
        const auto type = static_cast<RiflLinkEventType>(t);
        any = any
              || (type != RiflLinkEventType::TX_BEGIN && type != RiflLinkEventType::TX_END
                  && IsEventObserved(type));
    }
    NS_ASSERT_MSG(any == observed, "RiflNetDevice::ObservesLinkEvents: a trace is missing");
#endif
    return observed;
}

bool
RiflNetDevice::IsEventObserved(RiflLinkEventType type) const
{
    switch (type)
    {
        case RiflLinkEventType::TX_STATE_CHANGE:
            return !m_txStateTrace.IsEmpty();
        case RiflLinkEventType::FRAME_ERROR:
            return !m_frameErrorTrace.IsEmpty();
        case RiflLinkEventType::REPLAY_START:
            return !m_replayStartTrace.IsEmpty();
        case RiflLinkEventType::REPLAY_END:
            return !m_replayEndTrace.IsEmpty();
        case RiflLinkEventType::FC_PAUSE_SENT:
        case RiflLinkEventType::FC_RESUME_SENT:
        case RiflLinkEventType::FC_PAUSE_RECEIVED:
        case RiflLinkEventType::FC_RESUME_RECEIVED:
            return !m_flowControlTrace.IsEmpty();
        case RiflLinkEventType::RX_DOWN:
        case RiflLinkEventType::RX_UP:
            return !m_syncLossTrace.IsEmpty();
        case RiflLinkEventType::UNDETECTED_ERROR:
            return !m_undetectedTrace.IsEmpty();
        case RiflLinkEventType::DUPLICATE_DELIVERY:
            return !m_duplicateTrace.IsEmpty();
        case RiflLinkEventType::FC_FIFO_DROP:
            return !m_fifoDropTrace.IsEmpty();
        case RiflLinkEventType::CLOCK_COMPENSATION:
            return !m_compensationTrace.IsEmpty();
        case RiflLinkEventType::OUT_OF_ORDER_DELIVERY:
            return !m_outOfOrderTrace.IsEmpty();
        case RiflLinkEventType::RESYNC_AHEAD:
            return !m_resyncAheadTrace.IsEmpty();
        case RiflLinkEventType::FC_NOTIFICATION_SKIPPED:
            return !m_fcSkippedTrace.IsEmpty();
        case RiflLinkEventType::FC_NOTIFICATION_REPEATED:
            return !m_fcRepeatedTrace.IsEmpty();
        case RiflLinkEventType::TX_BEGIN:
            return !m_phyTxBeginTrace.IsEmpty();
        case RiflLinkEventType::TX_END:
            return NeedsTxEndWake(); // a sink, or queued packets to hand over
    }
    return true;
}

void
RiflNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
RiflNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
RiflNetDevice::GetChannel() const
{
    return m_channel;
}

void
RiflNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
RiflNetDevice::GetAddress() const
{
    return m_address;
}

bool
RiflNetDevice::SetMtu(const uint16_t mtu)
{
    RIFL_CHECK_ARG(mtu < 1, "RiflNetDevice: Mtu = " << mtu << " is out of range [1, 65535]");
    m_mtu = mtu;
    return true;
}

uint16_t
RiflNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
RiflNetDevice::IsLinkStarted() const
{
    return m_channel && m_channel->IsLinkStarted();
}

bool
RiflNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
RiflNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
RiflNetDevice::IsBroadcast() const
{
    return true;
}

Address
RiflNetDevice::GetBroadcast() const
{
    static const Mac48Address broadcast = Mac48Address::GetBroadcast(); // parsed once
    return broadcast;
}

bool
RiflNetDevice::IsMulticast() const
{
    return true;
}

Address
RiflNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address("01:00:5e:00:00:00");
}

Address
RiflNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address("33:33:00:00:00:00");
}

bool
RiflNetDevice::IsPointToPoint() const
{
    return true;
}

bool
RiflNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
RiflNetDevice::GetNode() const
{
    return m_node;
}

void
RiflNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
RiflNetDevice::NeedsArp() const
{
    return false;
}

void
RiflNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
RiflNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
RiflNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_NET_DEVICE_H
#define RIFL_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/queue-fwd.h"
#include "ns3/traced-callback.h"
#include "rifl-link-config.h"
#include "rifl-link-counters.h"
#include "rifl-link-engine.h"

namespace ns3
{

class RiflChannel;
class Node;

/**
 * \ingroup rifl-ns3
 * \brief A point-to-point NetDevice whose link runs the RIFL protocol.
 *
 * An ordinary IP-capable point-to-point device (no ARP; IPv4 and IPv6 under
 * InternetStackHelper): packets from above get a 2-byte PPP protocol field
 * (so pcap files use DLT_PPP and open in Wireshark), wait in the TxQueue, and
 * are handed to the link engine a few at a time (EngineQueuePackets), so
 * that back-to-back frames leave no gap while the queue, with its
 * NetDeviceQueueInterface, pauses the IP layer instead of dropping.
 *
 * The protocol parameters are attributes of the device and must be equal on
 * both ends of a RiflChannel (the channel checks). DataRate is derived:
 * Lanes x LaneRate on the line, read-only.
 *
 * Packets that arrive with undetected errors (the CRC missed them) are
 * delivered with the corrupted bytes (DeliverCorrupted, as hardware would)
 * or dropped, and in both cases traced (UndetectedError, PhyRxDrop) and
 * counted.
 */
class RiflNetDevice : public NetDevice
{
  public:
    /**
     * \brief TracedCallback signature of TxStateChange.
     * \param lane the lane.
     * \param slot the frame slot of the change.
     * \param oldState the previous RiflTxState.
     * \param newState the new RiflTxState.
     */
    typedef void (*TxStateChangeTracedCallback)(uint32_t lane, uint64_t slot, uint8_t oldState,
                                                uint8_t newState);

    /**
     * \brief TracedCallback signature of the protocol event traces (FrameError,
     *        ReplayStart, ReplayEnd, FlowControl, SyncLoss, UndetectedError,
     *        DuplicateDelivery, FcFifoDrop, OutOfOrderDelivery, ResyncAhead,
     *        FcNotificationSkipped, FcNotificationRepeated).
     * \param lane the lane.
     * \param slot the frame slot.
     * \param value the event's value (see each trace's help).
     */
    typedef void (*ProtocolEventTracedCallback)(uint32_t lane, uint64_t slot, int64_t value);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    RiflNetDevice();

    /// \brief Destructor.
    ~RiflNetDevice() override;

    /**
     * \brief Attach the device to a channel.
     * \param channel the channel.
     * \return true.
     */
    bool Attach(Ptr<RiflChannel> channel);

    /**
     * \brief Set the transmit queue.
     * \param queue the queue.
     */
    void SetQueue(Ptr<Queue<Packet>> queue);

    /// \return the transmit queue.
    Ptr<Queue<Packet>> GetQueue() const;

    /**
     * \brief This end's part of the link configuration (protocol attributes).
     *
     * The per-device fields (clockOffsetPpm, clockCompensation) hold this
     * device's values in index 0; RiflChannel combines the two devices.
     * \return the configuration built from the attributes.
     */
    RiflLinkConfig GetLinkConfig() const;

    /// \return Lanes x LaneRate.
    DataRate GetDataRate() const;

    /**
     * \brief The engine's counters of this endpoint as of now.
     *
     * The fast engine counts quiet stretches lazily; its engine is first advanced to
     * the slot in progress (RiflChannel::CatchUpNow()), so the counters are the same
     * whichever engine runs the link and whether it is split. Not free of side effects:
     * during a run, what a wake-up due now would hand over to the nodes is handed over
     * now; where Simulator::IsFinished() (between runs, or in the run's last event)
     * it waits for a wake-up at this instant, which hands it over if the run goes on.
     * \return the counters (zero before the link started, or when this endpoint runs
     *         on another MPI rank).
     */
    RiflEndpointCounters GetCounters() const;

    /// \return packets delivered to the upper layer.
    uint64_t GetPacketsReceived() const;

    /// \return packets delivered whose bytes differ from what was sent (undetected errors).
    uint64_t GetPacketsReceivedCorrupt() const;

    /**
     * \brief Ground truth of the packet being delivered, for a protocol handler that is
     *        called from the device's receive (e.g. RiflMessagePort).
     * \return true if the last packet received differs from what the peer sent.
     */
    bool GetLastReceiveCorrupt() const;

    /**
     * \brief A message of the peer's half engine on another MPI rank (the callback of
     *        the MpiReceiver RiflHelper aggregates; see RiflChannel::ReceiveRemote()).
     * \param message the message.
     */
    void ReceiveRemote(Ptr<Packet> message);

    // Called by RiflChannel
    /**
     * \brief A packet arrived from the peer.
     * \param packet the packet as received (with its PPP header), the receiver's own
     *        object: its PPP header is removed in place before it goes up.
     * \param corrupt true if its bytes differ from what the peer sent.
     */
    void Receive(Ptr<Packet> packet, bool corrupt);

    /**
     * \brief A protocol event at this endpoint (dispatched to the trace sources).
     * \param ev the event.
     * \param packet the packet concerned, if any (TX_BEGIN/TX_END).
     */
    void NotifyEvent(const RiflLinkEvent& ev, Ptr<const Packet> packet);

    /**
     * \brief Whether NotifyEvent() would do anything with an event of this type
     *        now: fire a trace source that has sinks, or (TX_END) hand queued
     *        packets over (NeedsTxEndWake()). The channel skips the others.
     * \param type the event type.
     * \return true if the event must be handed over.
     */
    bool IsEventObserved(RiflLinkEventType type) const;

    /**
     * \brief Whether this device needs its TX_END events in their own slot: a
     *        PhyTxEnd sink is connected, or packets wait in its queue for room in
     *        the engine. Otherwise the channel lets the engine report them later
     *        (RiflLinkEngine::SetTxEventWakes), which saves a wake-up per packet and
     *        changes no result.
     * \return true if a TX_END must wake the channel.
     */
    bool NeedsTxEndWake() const;

    /**
     * \brief Whether a sink sees any event other than TX_BEGIN and TX_END (the
     *        protocol traces: TxStateChange, FrameError, ReplayStart, ...). If
     *        neither device of a link has one, the channel wakes only for
     *        deliveries and the TX events it asks for (RiflLinkEngine::NextWakeSlot()).
     * \return true if such an event must be handed over in its own slot.
     */
    bool ObservesLinkEvents() const;

    /// \brief The link started; try to send.
    void NotifyLinkUp();

    // NetDevice interface
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;

    /**
     * \return true once this device's link has started (RiflChannel::IsLinkStarted()):
     *         its protocol attributes (FrameSize, Lanes, ... UserWordBytes) were read then
     *         and refuse a new value from then on.
     */
    bool IsLinkStarted() const;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet, const Address& source, const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /**
     * \brief Map an EtherType to the PPP protocol number carried on the link.
     * \param etherType 0x0800 (IPv4) or 0x86DD (IPv6).
     * \return 0x0021 or 0x0057 (std::invalid_argument otherwise).
     */
    static uint16_t EtherToPpp(uint16_t etherType);

    /**
     * \brief Map a PPP protocol number back to its EtherType.
     * \param ppp 0x0021 or 0x0057.
     * \return the EtherType, or 0 for an unknown number.
     */
    static uint16_t PppToEther(uint16_t ppp);

  protected:
    void DoDispose() override;

  private:
    /// \brief Hand queued packets to the engine while it has room.
    void TryTransmit();

    /// \return the peer device's address (or broadcast before attachment).
    Address GetRemote() const;

    Ptr<Node> m_node;                         //!< the node
    Ptr<RiflChannel> m_channel;               //!< the channel
    Ptr<Queue<Packet>> m_queue;               //!< transmit queue
    uint32_t m_ifIndex{0};                    //!< interface index
    Mac48Address m_address;                   //!< MAC address
    uint16_t m_mtu{1500};                     //!< MTU
    uint32_t m_enginePackets{2};              //!< packets handed to the engine at once
    bool m_deliverCorrupt{true};              //!< deliver undetected-corrupt packets
    bool m_pppHeader{true};                   //!< carry the 2-byte PPP protocol field
    NetDevice::ReceiveCallback m_rxCallback;  //!< upper layer
    PromiscReceiveCallback m_promiscCallback; //!< promiscuous upper layer
    TracedCallback<> m_linkChangeCallbacks;   //!< link change listeners
    bool m_linkUp{false};                     //!< channel attached and started
    /// Whether the TX queue held packets when this device last looked (Send(),
    /// TryTransmit()): the queue is the device's own, filled and emptied there only.
    bool m_queueHolds{false};
    mutable Ptr<RiflNetDevice> m_peer;  //!< the other device of the link (GetRemote())
    mutable Mac48Address m_peerMac;     //!< its address when m_peerAddress was made
    mutable Address m_peerAddress;      //!< m_peerMac as an Address
    uint64_t m_packetsReceived{0};            //!< delivered up
    uint64_t m_packetsReceivedCorrupt{0};     //!< of which corrupt
    bool m_lastRxCorrupt{false};              //!< the last packet received was corrupt

    // protocol attributes
    uint32_t m_frameSize{256};      //!< FrameSize
    uint32_t m_lanes{4};            //!< Lanes
    DataRate m_laneRate;            //!< LaneRate
    uint32_t m_frameIdWidth{0};     //!< FrameIdWidth, 0 = RTL rule
    Time m_transceiverDelay;        //!< TransceiverDelay
    uint32_t m_replayTail{0};       //!< ReplayTail (RiflReplayTail)
    uint32_t m_correctedTail{0};    //!< CorrectedTail
    uint32_t m_startup{0};          //!< Startup (RiflStartup)
    uint32_t m_rxUpSlots{0};        //!< RxUpSlots
    uint32_t m_fcFifoDepth{0};      //!< FcFifoDepth
    double m_drainRate{0.0};        //!< DrainRate
    uint32_t m_userWordBytes{32};   //!< UserWordBytes
    double m_clockOffsetPpm{0.0};   //!< ClockOffsetPpm
    bool m_clockCompensation{true}; //!< ClockCompensation

    TracedCallback<Ptr<const Packet>> m_macTxTrace;                      //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;                  //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macRxTrace;                      //!< MacRx
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;                 //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;                   //!< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;                   //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;                  //!< PhyRxDrop
    TracedCallback<Ptr<const Packet>> m_snifferTrace;                    //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;             //!< PromiscSniffer
    TracedCallback<uint32_t, uint64_t, uint8_t, uint8_t> m_txStateTrace; //!< TxStateChange
    TracedCallback<uint32_t, uint64_t, int64_t> m_frameErrorTrace;       //!< FrameError
    TracedCallback<uint32_t, uint64_t, int64_t> m_replayStartTrace;      //!< ReplayStart
    TracedCallback<uint32_t, uint64_t, int64_t> m_replayEndTrace;        //!< ReplayEnd
    TracedCallback<uint32_t, uint64_t, int64_t> m_flowControlTrace;      //!< FlowControl
    TracedCallback<uint32_t, uint64_t, int64_t> m_syncLossTrace;         //!< SyncLoss
    TracedCallback<uint32_t, uint64_t, int64_t> m_undetectedTrace;       //!< UndetectedError
    TracedCallback<uint32_t, uint64_t, int64_t> m_duplicateTrace;        //!< DuplicateDelivery
    TracedCallback<uint32_t, uint64_t, int64_t> m_fifoDropTrace;         //!< FcFifoDrop
    TracedCallback<uint32_t, uint64_t, int64_t> m_outOfOrderTrace;       //!< OutOfOrderDelivery
    TracedCallback<uint32_t, uint64_t, int64_t> m_resyncAheadTrace;      //!< ResyncAhead
    TracedCallback<uint32_t, uint64_t, int64_t> m_fcSkippedTrace;  //!< FcNotificationSkipped
    TracedCallback<uint32_t, uint64_t, int64_t> m_fcRepeatedTrace; //!< FcNotificationRepeated
    TracedCallback<uint32_t, uint64_t, int64_t> m_compensationTrace;     //!< ClockCompensation
};

} // namespace ns3

#endif /* RIFL_NET_DEVICE_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_NET_DEVICE_H
#define DIRECT_LINK_NET_DEVICE_H

#include "direct-link-config.h"
#include "direct-link-endpoint-state.h"
#include "direct-link-link-engine.h"
#include "ns3/callback.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/queue-fwd.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class DirectLinkChannel;
class Node;
class Packet;

/**
 * \ingroup rifl
 * \defgroup direct-link-ns3 Direct-link ns-3 devices, channel, DLIU, traffic and helper
 * \brief ns-3 adapters of the direct-link layer (spec/direct-link-protocol.md):
 *        DirectLinkNetDevice / DirectLinkChannel around a DirectLinkLinkEngine,
 *        the per-CPU DirectLinkInterfaceUnit (DLIU) with its forwarding, the
 *        CpuTrafficApplication and the DirectLinkHelper.
 */

/**
 * \ingroup direct-link-ns3
 * \brief Why a message was counted lost (the four engine reset reasons first; the engine's
 *        FALSE_ACK and VC_OVERFLOW last, added after the others so their numbers stay).
 */
enum class DirectLinkLossReason : uint8_t
{
    RETRANS_LIMIT = 0,   //!< its sender's RetransTime ran out (Shutdown)
    CREDIT_TIMEOUT = 1,  //!< its sender's CrdNullTime expired (Shutdown)
    INITIAL_TIMEOUT = 2, //!< its sender's InitialTime expired (Shutdown)
    PEER_INIT = 3,       //!< its sender re-entered Initial on a received Init
    QUEUE_FULL = 4,      //!< the device's message queue of its VC was full
    NO_ROUTE = 5,        //!< the DLIU had no output device toward its destination
    MALFORMED = 6,       //!< it arrived with micro-packets inconsistent with its routing word
    /// acknowledged, not received: the peer's ack freed one of its micro-packets from the
    /// retry buffer although the peer never accepted it (an ack answering another incarnation
    /// of the sender after a stale handshake, DirectLinkEndpointState::LossReason::FALSE_ACK;
    /// InitAckGuard prevents it)
    FALSE_ACK = 7,
    /// accepted, not kept: the peer accepted its header micro-packet and dropped it because
    /// the VC buffer was full, the sender's credits exceeding the free space after a stale
    /// handshake (DirectLinkEndpointState::LossReason::VC_OVERFLOW; InitAckGuard prevents
    /// that) or an undetected error
    VC_OVERFLOW = 8,
};

/// \ingroup direct-link-ns3
/// Number of DirectLinkLossReason values.
constexpr uint32_t DIRECT_LINK_NUM_LOSS_REASONS = 9;

/**
 * \ingroup direct-link-ns3
 * \param r a loss reason of the link engine.
 * \return the device's loss reason for it.
 */
DirectLinkLossReason DirectLinkLossReasonFromEngine(DirectLinkEndpointState::LossReason r);

/**
 * \ingroup direct-link-ns3
 * \param r a reason.
 * \return its name, e.g. "RETRANS_LIMIT".
 */
std::string DirectLinkLossReasonName(DirectLinkLossReason r);

/**
 * \ingroup direct-link-ns3
 * \brief A message as the NI hands it to the DLIU (received) or takes it (sent).
 */
struct DirectLinkMessage
{
    uint32_t dstCpu{0};         //!< destination CPU (routing word)
    uint32_t srcCpu{0};         //!< source CPU
    uint32_t msgClass{0};       //!< message class, 0..15
    uint32_t vc{0};             //!< virtual channel it travelled on
    std::vector<uint8_t> bytes; //!< content (truncated: what arrived)
    uint32_t length{0};         //!< length announced by the routing word
    bool netErr{false};         //!< NetErr: a Shutdown truncated it (or a flit carried NetErr)
    bool ncErr{false};          //!< NcErr of any of its micro-packets
    bool truncated{false};      //!< cut short by a Shutdown / re-initialisation (here or upstream)
    /// why it was cut short (meaningful when truncated)
    DirectLinkEndpointState::TruncationReason truncationReason{};
    bool malformed{false};    //!< micro-packets inconsistent with the routing word
    bool contentOk{true};     //!< ground truth: route and bytes equal what was sent
    uint64_t messageId{0};    //!< the sending device's id of the message
    uint64_t deliverySlot{0}; //!< micro-packet slot of delivery on the link
};

/**
 * \ingroup direct-link-ns3
 * \brief Message-level counters of one DirectLinkNetDevice.
 *
 * Accounting: every message accepted by SendMessage() (or every IP packet
 * dequeued from the TxQueue) ends, at the peer, as delivered intact,
 * delivered truncated (NetErr), delivered malformed, or here as lost with a
 * reason; messagesInEngine + queued are those still on their way.
 */
struct DirectLinkDeviceCounters
{
    uint64_t messagesAccepted{0};   //!< accepted by SendMessage() / IP packets dequeued
    uint64_t messagesOffered{0};    //!< handed to the link engine
    uint64_t messagesTxComplete{0}; //!< tail micro-packet went on the line (first time)
    uint64_t messagesDelivered{0};  //!< received here intact
    uint64_t messagesTruncated{0};  //!< received here truncated (NetErr)
    /// received truncated, by DirectLinkEndpointState::TruncationReason
    std::array<uint64_t, DirectLinkEndpointState::NUM_TRUNCATION_REASONS> truncatedByReason{};
    uint64_t messagesSentNetErr{0}; //!< accepted with NetErr set (truncated copies forwarded)
    uint64_t messagesMalformed{0};  //!< received here malformed
    uint64_t contentMismatches{0};  //!< received intact-looking but differing (undetected errors)
    uint64_t messagesLost{0};       //!< sent from here and counted lost (any reason)
    std::array<uint64_t, DIRECT_LINK_NUM_LOSS_REASONS> lostByReason{}; //!< by DirectLinkLossReason
    uint64_t ipPacketsSent{0};     //!< IP packets handed to the engine
    uint64_t ipPacketsReceived{0}; //!< IP packets passed up
    uint64_t ipPacketsDropped{0};  //!< IP packets dropped on receive (truncated, unknown protocol)
    uint64_t shutdowns{0};         //!< link Shutdowns at this side
    uint64_t stateChanges{0};      //!< link state changes at this side
    uint64_t retransmissions{0};   //!< micro-packets resent by this side
    uint64_t timeouts{0};          //!< AckTime expiries at this side
    uint64_t crcErrors{0};         //!< received micro-packets that failed a check
    uint64_t undetectedErrors{0};  //!< corrupted micro-packets accepted by this receiver
    /// messages sent from here that the peer holds open after a stale handshake (InitAckGuard
    /// false): pending, delivered (truncated or malformed) only at the next header on their
    /// VC or the peer's next reset, then counted there too (DirectLinkReferenceEngine, "Held
    /// open"; trace MessageHeldOpen; only goes up)
    uint64_t messagesHeldOpen{0};
};

/**
 * \ingroup direct-link-ns3
 * \brief One end of a direct link: an IP-capable point-to-point NetDevice and
 *        the message interface of the DLIU.
 *
 * **IP.** An ordinary point-to-point device (no ARP; IPv4/IPv6 under
 * InternetStackHelper): a packet from above gets a 2-byte PPP protocol field
 * (pcap DLT_PPP), waits in the TxQueue (with NetDeviceQueueInterface
 * back-pressure when the helper aggregates one) and is carried as one message
 * on VC IpVc with message class IpClass; Mtu + 2 must not exceed
 * MaxMessageBytes.
 *
 * **Messages.** SendMessage() queues a DLIU message on a VC (per-VC FIFO of
 * MessageQueueLimit messages; a full queue counts it lost, QUEUE_FULL). At
 * most EngineQueueMessages messages per VC are handed to the link engine
 * ahead of the line, so a VC whose credits are exhausted never blocks another
 * one; the engine interleaves VCs micro-packet by micro-packet (round robin
 * among those with credit). Received messages that are not IP go to the
 * message receive callback (the DLIU).
 *
 * **Protocol attributes** (RetryBufferSize, VcBufferSize / VcBufferSizes, CrcPolynomial,
 * AckTime, RetransLimit, CrdNullTime, InitialTime, NakEnabled,
 * MaxMessageBytes) belong to the device and must be equal on both ends (the
 * channel checks when the link starts, naming the attribute). The link reads them
 * once, when it starts; from then on a new value is refused with std::invalid_argument
 * naming the attribute (IsLinkStarted()). The other attributes (Mtu, IpVc, IpClass,
 * EngineQueueMessages, MessageQueueLimit, ...) are read as the link runs and still
 * change. Times are ns-3
 * Time values converted to micro-packet times (192 bits at the channel's
 * LineRate) rounded up; a value that does not fit its counter (16 bits for
 * AckTime, CrdNullTime, InitialTime) is rejected with std::invalid_argument
 * naming it.
 *
 * **Nothing silently lost.** Every message dropped, truncated or lost is
 * counted (GetCounters()) by reason and traced (MessageLost, MessageTruncated); a message
 * that a stale handshake leaves held open by the peer (pending, possibly for good) is
 * counted (messagesHeldOpen) and traced (MessageHeldOpen).
 */
class DirectLinkNetDevice : public NetDevice
{
  public:
    /**
     * \brief TracedCallback signature of the protocol event traces
     *        (Shutdown, Retransmission, Timeout, CrcError, UndetectedError).
     * \param slot the micro-packet slot of the event.
     * \param value the event's value (see each trace's help).
     */
    typedef void (*ProtocolEventTracedCallback)(uint64_t slot, int64_t value);

    /**
     * \brief TracedCallback signature of StateChange.
     * \param slot the slot the new state takes effect.
     * \param oldState the previous state (0 Initial, 1 Normal, 2 Shutdown).
     * \param newState the new state.
     */
    typedef void (*StateChangeTracedCallback)(uint64_t slot, uint8_t oldState, uint8_t newState);

    /**
     * \brief TracedCallback signature of MessageLost.
     * \param messageId this device's id of the message (0 if it never got one).
     * \param vc its virtual channel.
     * \param reason a DirectLinkLossReason.
     */
    typedef void (*MessageLostTracedCallback)(uint64_t messageId, uint32_t vc, uint8_t reason);

    /**
     * \brief TracedCallback signature of MessageHeldOpen.
     * \param messageId this device's id of the message.
     * \param vc its virtual channel.
     */
    typedef void (*MessageHeldOpenTracedCallback)(uint64_t messageId, uint32_t vc);

    /**
     * \brief TracedCallback signature of MessageTruncated, MessageRx and MessageTx.
     * \param message the message.
     */
    typedef void (*MessageTracedCallback)(const DirectLinkMessage& message);

    /// Message receive callback: the device and the message.
    typedef Callback<void, Ptr<DirectLinkNetDevice>, const DirectLinkMessage&>
        MessageReceiveCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    DirectLinkNetDevice();

    /// \brief Destructor.
    ~DirectLinkNetDevice() override;

    /**
     * \brief Attach the device to a channel (the first attached is side A).
     * \param channel the channel.
     * \return true.
     */
    bool Attach(Ptr<DirectLinkChannel> channel);

    /**
     * \brief Set the IP transmit queue.
     * \param queue the queue.
     */
    void SetQueue(Ptr<Queue<Packet>> queue);

    /// \return the IP transmit queue.
    Ptr<Queue<Packet>> GetQueue() const;

    /**
     * \brief Queue a DLIU message for the link.
     * \param dstCpu destination CPU, 0..255.
     * \param srcCpu source CPU, 0..255.
     * \param msgClass message class, 0..15.
     * \param vc virtual channel, 0..3 (std::invalid_argument naming "vc").
     * \param bytes the content, at most MaxMessageBytes (std::invalid_argument naming it).
     * \return the message id (> 0), or 0 if the VC's queue was full (counted
     *         lost, QUEUE_FULL, and traced).
     */
    uint64_t SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                         const std::vector<uint8_t>& bytes);

    /**
     * \brief Queue a DLIU message with error flags: NetErr / NcErr on its tail
     *        micro-packet and, for a copy truncated upstream, the routing word's
     *        original length (DirectLinkMessageFlags; the receiver delivers it
     *        truncated, TruncationReason UPSTREAM).
     * \param dstCpu destination CPU, 0..255.
     * \param srcCpu source CPU, 0..255.
     * \param msgClass message class, 0..15.
     * \param vc virtual channel, 0..3.
     * \param bytes the content (what arrived, for a truncated copy).
     * \param flags the flags (std::invalid_argument naming "announcedLength" if inconsistent).
     * \return the message id (> 0), or 0 if the VC's queue was full (counted lost).
     */
    uint64_t SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                         const std::vector<uint8_t>& bytes, const DirectLinkMessageFlags& flags);

    /// Transmit-space callback: the device and the VC whose message queue got shorter.
    typedef Callback<void, Ptr<DirectLinkNetDevice>, uint32_t> TxSpaceCallback;

    /**
     * \brief Set the callback told, after the device handed a VC's queued message to the
     *        link engine, that the VC's message queue got shorter (the DLIU's back-pressure).
     * \param cb the callback (called outside the device's transmit loop).
     */
    void SetTxSpaceCallback(TxSpaceCallback cb);

    /**
     * \param vc a VC, 0..3.
     * \return DLIU messages waiting in its queue, not yet handed to the link engine.
     */
    uint32_t GetVcQueueLength(uint32_t vc) const;

    /**
     * \brief Stop (hold) or resume the NI's draining of a VC's receive buffer at this end.
     *
     * While held, received micro-packets of the VC stay in its VC buffer, no credit of the
     * VC goes back, and the peer's sender stalls on the VC (its CrdNullTime runs). The
     * DLIU holds a VC of an input whose forwarded messages cannot move on (back-pressure).
     * \param vc the VC, 0..3.
     * \param hold true to stop draining, false to resume.
     */
    void SetReceiveHold(uint32_t vc, bool hold);

    /**
     * \param vc a VC, 0..3.
     * \return true if the VC's receive drain is held (SetReceiveHold).
     */
    bool GetReceiveHold(uint32_t vc) const;

    /**
     * \brief Set the callback receiving every non-IP message (intact, truncated or malformed).
     * \param cb the callback.
     */
    void SetMessageReceiveCallback(MessageReceiveCallback cb);

    /**
     * \brief Count and trace a message lost above the link (by the DLIU).
     * \param messageId an id (0 if none).
     * \param vc its VC.
     * \param reason why.
     */
    void CountLoss(uint64_t messageId, uint32_t vc, DirectLinkLossReason reason);

    /**
     * \brief This end's link configuration from the protocol attributes.
     * \param lineRateBps the channel's line rate (times are converted with it).
     * \param oneWayDelaySlots the channel's one-way delay.
     * \return the configuration (std::invalid_argument naming the attribute if a time
     *         does not fit its counter).
     */
    DirectLinkConfig GetLinkConfig(uint64_t lineRateBps, uint32_t oneWayDelaySlots) const;

    /// \return this device's message counters.
    DirectLinkDeviceCounters GetCounters() const;

    /**
     * \return the engine's protocol counters of this side (zero before the link
     *         started), as of the slot the engine has run to (its last wake-up, or a
     *         call that catches it up: a send, SetReceiveHold(), a remote half's input),
     *         which with the fast engine may be behind the current time (a read does
     *         not advance the engine; RiflNetDevice::GetCounters() does).
     */
    DirectLinkEndpointState::Counters GetEndpointCounters() const;

    /// \return the link state of this side (Initial before the link started).
    DirectLinkEndpointState::LinkState GetLinkState() const;

    /// \return messages queued here or in the engine and not yet fully sent.
    uint64_t GetQueuedMessages() const;

    /// \return the virtual channel of IP traffic.
    uint32_t GetIpVc() const;

    /// \return the message class of IP traffic.
    uint32_t GetIpClass() const;

    /// \return the peer device (null before both ends are attached).
    Ptr<DirectLinkNetDevice> GetPeer() const;

    /**
     * \brief CPU numbers written into the routing word of IP messages (set by the DLIU).
     * \param localCpu this node's CPU, 0..255.
     * \param peerCpu the peer node's CPU, 0..255.
     */
    void SetCpuNumbers(uint32_t localCpu, uint32_t peerCpu);

    // Called by DirectLinkChannel
    /// \brief The link started; try to send.
    void NotifyLinkUp();
    /**
     * \brief A message of the peer's rank arrived for this device's link (ns-3 MPI; the
     *        MpiReceiver DirectLinkHelper aggregates calls it): handed to the channel.
     * \param message the message.
     */
    void ReceiveRemote(Ptr<Packet> message);
    /**
     * \brief A protocol event at this side.
     * \param ev the event.
     */
    void NotifyEvent(const DirectLinkEvent& ev);
    /**
     * \param messageId the id of a message sent from here and not yet forgotten.
     * \return the IP packet it carried (null for a DLIU message or an unknown id).
     */
    Ptr<Packet> PeekMessagePacket(uint64_t messageId) const;
    /**
     * \brief The peer delivered a message sent from here (intact, truncated or malformed;
     *        engine event MESSAGE_DELIVERED, one line delay after the delivery): forget it.
     * \param messageId the id.
     */
    void FinishMessage(uint64_t messageId);
    /**
     * \brief A message sent from here was counted lost by the engine.
     * \param lost the record.
     */
    void NotifyLost(const DirectLinkLostMessage& lost);
    /**
     * \brief A message arrived from the peer.
     * \param d the engine's delivery record.
     * \param original the IP packet the peer sent, if any (delivered as is when intact).
     */
    void Receive(const DirectLinkDeliveredMessage& d, Ptr<Packet> original);

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
     * \return true once this device's link has started (DirectLinkChannel::IsLinkStarted()):
     *         its protocol attributes (RetryBufferSize, VcBufferSize, VcBufferSizes,
     *         CrcPolynomial, AckTime, RetransLimit, CrdNullTime, InitialTime, NakEnabled,
     *         InitAckGuard, MaxMessageBytes) were read then and refuse a new value from then
     *         on, and Mtu + 2 may no longer exceed MaxMessageBytes.
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
    /// A message waiting in a VC queue.
    struct Pending
    {
        uint32_t dstCpu{0};           //!< routing word
        uint32_t srcCpu{0};           //!< routing word
        uint32_t msgClass{0};         //!< routing word
        std::vector<uint8_t> bytes;   //!< content
        uint64_t id{0};               //!< id
        DirectLinkMessageFlags flags; //!< NetErr / NcErr / announced length
    };

    /// A message handed to the engine.
    struct InEngine
    {
        uint32_t vc{0};            //!< its VC
        Ptr<Packet> packet;        //!< the IP packet (null for DLIU messages)
        bool txDone{false};        //!< TX_END seen (no longer counts against the VC)
        DirectLinkMessage message; //!< what was sent (for traces)
    };

    /// \brief Hand queued messages and IP packets to the engine while VCs have room.
    void TryTransmit();
    /// \brief One pass of TryTransmit over the VCs.
    void TransmitRound();
    /**
     * \brief Offer one message to the engine.
     * \param vc its VC. \param p the message. \param packet the IP packet, if any.
     */
    void Offer(uint32_t vc, Pending&& p, Ptr<Packet> packet);
    /// \param id an in-engine message: it no longer counts against its VC.
    void Release(uint64_t id);
    /// \return the peer's address (or broadcast before attachment).
    Address GetRemote() const;

    // attribute setters with checks
    /// \param v RetryBufferSize.
    void SetRetryBufferSize(uint32_t v);
    /// \param v VcBufferSize.
    void SetVcBufferSize(uint32_t v);
    /// \param v VcBufferSizes ("" or four comma-separated sizes).
    void SetVcBufferSizes(std::string v);
    /// \return VcBufferSizes as set ("" if not).
    std::string GetVcBufferSizesAttr() const;
    /// \param v CrcPolynomial.
    void SetCrcPolynomial(uint32_t v);
    /// \param v RetransLimit.
    void SetRetransLimit(uint32_t v);
    /// \param v IpVc.
    void SetIpVc(uint32_t v);
    /// \param v MaxMessageBytes.
    void SetMaxMessageBytes(uint32_t v);
    /// \return RetryBufferSize.
    uint32_t GetRetryBufferSizeAttr() const;
    /// \return VcBufferSize.
    uint32_t GetVcBufferSizeAttr() const;
    /// \return CrcPolynomial.
    uint32_t GetCrcPolynomialAttr() const;
    /// \return RetransLimit.
    uint32_t GetRetransLimitAttr() const;
    /// \return MaxMessageBytes.
    uint32_t GetMaxMessageBytesAttr() const;

    Ptr<Node> m_node;                         //!< the node
    Ptr<DirectLinkChannel> m_channel;         //!< the channel
    Ptr<Queue<Packet>> m_queue;               //!< IP transmit queue
    uint32_t m_ifIndex{0};                    //!< interface index
    Mac48Address m_address;                   //!< MAC address
    uint16_t m_mtu{1500};                     //!< MTU
    NetDevice::ReceiveCallback m_rxCallback;  //!< IP upper layer
    PromiscReceiveCallback m_promiscCallback; //!< promiscuous upper layer
    MessageReceiveCallback m_msgCallback;     //!< the DLIU
    TxSpaceCallback m_txSpaceCallback;        //!< the DLIU's back-pressure
    uint32_t m_spaceFreed{0};                 //!< VCs (bit mask) whose queue got shorter
    std::array<bool, DirectLinkConfig::NUM_VCS> m_rxHold{}; //!< SetReceiveHold
    TracedCallback<> m_linkChangeCallbacks;                 //!< link change listeners
    bool m_linkUp{false};                                   //!< the link started
    uint32_t m_localCpu{0};                                 //!< CPU of this node (IP routing word)
    uint32_t m_peerCpu{0};                                  //!< CPU of the peer (IP routing word)

    uint32_t m_ipVc{2};                 //!< IpVc
    uint32_t m_ipClass{15};             //!< IpClass
    uint32_t m_engineMessages{2};       //!< EngineQueueMessages (per VC)
    uint32_t m_messageQueueLimit{1024}; //!< MessageQueueLimit (per VC)

    // protocol attributes
    uint32_t m_retryBufferSize{30};                                    //!< RetryBufferSize
    uint32_t m_vcBufferSize{16};                                       //!< VcBufferSize (every VC)
    std::string m_vcBufferSizesText;                                   //!< VcBufferSizes as set
    std::array<uint32_t, DirectLinkConfig::NUM_VCS> m_vcBufferSizes{}; //!< per VC, 0 = VcBufferSize
    uint32_t m_crcPoly{0x07};                                          //!< CrcPolynomial
    Time m_ackTime;                                                    //!< AckTime
    uint32_t m_retransLimit{7};                                        //!< RetransLimit
    Time m_crdNullTime;                                                //!< CrdNullTime
    Time m_initialTime;                                                //!< InitialTime
    bool m_nakEnabled{false};                                          //!< NakEnabled
    bool m_initAckGuard{false};                                        //!< InitAckGuard
    uint32_t m_maxMessageBytes{4096};                                  //!< MaxMessageBytes

    uint64_t m_nextId{1};                                                 //!< next message id
    std::array<std::deque<Pending>, DirectLinkConfig::NUM_VCS> m_vcQueue; //!< DLIU messages
    std::array<uint32_t, DirectLinkConfig::NUM_VCS> m_vcInEngine{};       //!< not yet TX_END
    bool m_inTransmit{false};                                             //!< inside TryTransmit
    bool m_transmitAgain{false};             //!< TryTransmit was re-entered
    bool m_ipTurn{false};                    //!< IpVc: IP next (alternates with messages)
    std::map<uint64_t, InEngine> m_inEngine; //!< handed to the engine, fate open
    DirectLinkDeviceCounters m_counters;     //!< counters
    /// The link state last reported by the engine for this end.
    DirectLinkEndpointState::LinkState m_state{DirectLinkEndpointState::LinkState::INITIAL};

    TracedCallback<Ptr<const Packet>> m_macTxTrace;                   //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;               //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macRxTrace;                   //!< MacRx
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;              //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;                //!< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;                //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;               //!< PhyRxDrop
    TracedCallback<Ptr<const Packet>> m_snifferTrace;                 //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;          //!< PromiscSniffer
    TracedCallback<uint64_t, uint8_t, uint8_t> m_stateChangeTrace;    //!< StateChange
    TracedCallback<uint64_t, int64_t> m_shutdownTrace;                //!< Shutdown
    TracedCallback<uint64_t, int64_t> m_retransmissionTrace;          //!< Retransmission
    TracedCallback<uint64_t, int64_t> m_timeoutTrace;                 //!< Timeout
    TracedCallback<uint64_t, int64_t> m_crcErrorTrace;                //!< CrcError
    TracedCallback<uint64_t, int64_t> m_undetectedTrace;              //!< UndetectedError
    TracedCallback<uint64_t, uint32_t, uint8_t> m_messageLostTrace;   //!< MessageLost
    TracedCallback<uint64_t, uint32_t> m_messageHeldOpenTrace;        //!< MessageHeldOpen
    TracedCallback<const DirectLinkMessage&> m_messageTruncatedTrace; //!< MessageTruncated
    TracedCallback<const DirectLinkMessage&> m_messageRxTrace;        //!< MessageRx
    TracedCallback<const DirectLinkMessage&> m_messageTxTrace;        //!< MessageTx
};

} // namespace ns3

#endif /* DIRECT_LINK_NET_DEVICE_H */

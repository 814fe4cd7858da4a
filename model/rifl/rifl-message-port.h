/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_MESSAGE_PORT_H
#define RIFL_MESSAGE_PORT_H

#include "ns3/direct-link-config.h"
#include "ns3/direct-link-port.h"
#include "ns3/event-id.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class Packet;
class RiflNetDevice;

/**
 * \ingroup rifl-ns3
 * \brief Counters of one RiflMessagePort.
 *
 * Accounting: every message accepted by SendMessage() is still queued here
 * (GetQueuedMessages()), or was handed to the RIFL device (messagesSent); every
 * message packet that arrives is delivered to the DLIU (messagesReceived), waits in a
 * held VC (GetHeldMessages()), or is counted lost here (MALFORMED, VC_OVERFLOW).
 */
struct RiflMessagePortCounters
{
    uint64_t messagesAccepted{0};        //!< accepted by SendMessage()
    uint64_t messagesSent{0};            //!< handed to the RIFL device, one packet each
    uint64_t messagesReceived{0};        //!< handed to the DLIU
    uint64_t messagesReceivedCorrupt{0}; //!< of which changed by an undetected RIFL error
    uint64_t messagesTruncated{0};       //!< of which truncated upstream (NetErr tail)
    uint64_t creditPacketsSent{0};       //!< credit packets handed to the RIFL device
    uint64_t creditPacketsReceived{0};   //!< credit packets received
    uint64_t creditsReturned{0};         //!< message credits those packets carried back
    uint64_t malformedPackets{0};        //!< packets no message or credit could be read from
    uint64_t creditOverflows{0};         //!< credits received beyond VcBufferMessages
    uint64_t messagesLost{0};            //!< counted lost here, any reason
    /// messagesLost by DirectLinkLossReason
    std::array<uint64_t, DIRECT_LINK_NUM_LOSS_REASONS> lostByReason{};
};

/**
 * \ingroup rifl-ns3
 * \brief A DLIU port over a RiflNetDevice: RIFL as the link technology of a
 *        multiprocessor's direct connections.
 *
 * RIFL retransmits corrupted frames hop by hop and delivers packets in order, so the
 * DLIU's messages need no retransmission of their own here: each message is one RIFL
 * packet (PPP protocol PppProtocol::DLIU_MESSAGE_PPP, EtherType 0x88B5) carrying a
 * 15-byte header (type, destination and source CPU, class with the NetErr / NcErr
 * flags, VC, announced length, the sender's message id) and the message's bytes. What
 * RIFL does not have, the ports add:
 *
 * - **Virtual channels with credits.** A RIFL link has one flow of frames and stops
 *   it as a whole (flow control). To keep the DLIU's per-VC back-pressure (and so its
 *   deadlock avoidance, which needs one VC to stall while another moves), every VC has
 *   its own credits of whole messages: a port holds VcBufferMessages received messages
 *   of each VC; the peer sends a message of a VC only while it holds a credit of that
 *   VC, and a credit goes back (a 4-byte credit packet, sent ahead of messages) when a
 *   message leaves the buffer for the DLIU. SetReceiveHold() stops that drain: the
 *   messages stay, no credit goes back, and the peer stalls on that VC only.
 * - **Per-VC queues** of MessageQueueLimit messages (a full one counts the message
 *   lost, QUEUE_FULL), served round robin among VCs holding a credit. At most
 *   DeviceQueuePackets packets wait in the RIFL device's queue when the port adds one,
 *   so a VC without credit never blocks another behind it.
 *
 * RIFL's own hazards pass through as they are (rifl-protocol.md §10): with
 * ReplayTail=Rtl a duplicate packet delivers a message twice and returns a second
 * credit (the extra credit is counted, creditOverflows, and a message that then
 * finds its VC buffer full is counted lost, VC_OVERFLOW); a packet the RTL's FIFO
 * drops is counted by the RIFL device and its credit never comes back. The
 * multiprocessor helper's RIFL links use ReplayTail=Corrected unless told otherwise.
 * A packet changed by an undetected error is delivered with contentOk false (and
 * counted); one whose header no longer parses is dropped and counted lost here
 * (MALFORMED).
 *
 * Requirements, checked by SetDevice() (std::invalid_argument naming them): the
 * device is attached to a node and a channel, carries the PPP field (PppHeader true),
 * and its Mtu leaves room for the header; both ends of the link need a port
 * (checked when the first message is sent).
 */
class RiflMessagePort : public DirectLinkPort
{
  public:
    /// Size of a message packet's header in bytes.
    static constexpr uint32_t HEADER_BYTES = 15;
    /// Size of a credit packet in bytes.
    static constexpr uint32_t CREDIT_BYTES = 4;

    /**
     * \brief TracedCallback signature of MessageLost.
     * \param messageId the port's id of the message (0 if unknown).
     * \param vc its VC (4 if unknown).
     * \param reason a DirectLinkLossReason.
     */
    typedef void (*MessageLostTracedCallback)(uint64_t messageId, uint32_t vc, uint8_t reason);

    /**
     * \brief TracedCallback signature of MessageTx and MessageRx.
     * \param message the message.
     */
    typedef void (*MessageTracedCallback)(const DirectLinkMessage& message);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    RiflMessagePort();

    /// \brief Destructor.
    ~RiflMessagePort() override;

    /**
     * \brief Take the device (once), aggregate the port to it and register for its DLIU
     *        message packets at its node.
     * \param device the RIFL device, on a node and a channel (std::invalid_argument
     *        naming what is missing).
     */
    void SetDevice(Ptr<RiflNetDevice> device);

    /// \return the device.
    Ptr<RiflNetDevice> GetDevice() const;

    /// \return the counters.
    RiflMessagePortCounters GetCounters() const;

    /// \return messages accepted and not yet handed to the device, over every VC.
    uint64_t GetQueuedMessages() const;

    /**
     * \param vc a VC, 0..3.
     * \return received messages of the VC waiting in the port (held drain).
     */
    uint32_t GetHeldMessages(uint32_t vc) const;

    /**
     * \param vc a VC, 0..3.
     * \return the credits of the VC this end holds (messages it may still send).
     */
    uint32_t GetCredits(uint32_t vc) const;

    /// \return the largest message the port carries: the device's Mtu - HEADER_BYTES.
    uint32_t GetMaxMessageBytes() const;

    Ptr<NetDevice> GetNetDevice() const override;
    Ptr<Node> GetPeerNode() const override;
    uint64_t SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                         const std::vector<uint8_t>& bytes,
                         const DirectLinkMessageFlags& flags) override;
    uint32_t GetVcQueueLength(uint32_t vc) const override;
    void SetReceiveHold(uint32_t vc, bool hold) override;
    bool GetReceiveHold(uint32_t vc) const override;
    void CountLoss(uint64_t messageId, uint32_t vc, DirectLinkLossReason reason) override;
    void SetCpuNumbers(uint32_t localCpu, uint32_t peerCpu) override;
    bool IsIpPair(uint32_t msgClass, uint32_t vc) const override;

  protected:
    void DoDispose() override;

  private:
    /// A message waiting to be sent.
    struct Outgoing
    {
        uint64_t id{0};               //!< this port's id
        DirectLinkMessage message;    //!< routing word and bytes
        DirectLinkMessageFlags flags; //!< NetErr / NcErr, announced length
    };

    /// \return the port at the other end (std::invalid_argument if there is none).
    Ptr<RiflMessagePort> PeerPort() const;
    /// \brief Take the initial credits from the peer's VcBufferMessages (once).
    void Start();
    /**
     * \brief Check a VC index.
     * \param vc the VC.
     * \param method the public method checking it (for the message).
     */
    static void CheckVc(uint32_t vc, const char* method);
    /**
     * \param bytes a packet's size.
     * \return true if the device's queue takes it now (DeviceQueuePackets, its MaxSize).
     */
    bool DeviceHasRoom(uint32_t bytes) const;
    /// \brief Hand credits and messages to the device while it has room.
    void Pump();
    /// \brief Run Pump() once, soon (after a dequeue, a release or a drain).
    void SchedulePump();
    /**
     * \brief Hand a packet to the device.
     * \param packet the packet (without PPP field).
     * \return true if the device took it.
     */
    bool SendPacket(Ptr<Packet> packet);
    /**
     * \brief The device's queue handed a packet over (its Dequeue trace).
     * \param packet the packet.
     */
    void OnDequeue(Ptr<const Packet> packet);
    /**
     * \brief A DLIU message packet from the peer (the node's protocol handler).
     * \param device the receiving device. \param packet the packet.
     * \param protocol its EtherType. \param from sender. \param to receiver.
     * \param type packet type.
     */
    void OnPacket(Ptr<NetDevice> device, Ptr<const Packet> packet, uint16_t protocol,
                  const Address& from, const Address& to, NetDevice::PacketType type);
    /**
     * \brief Hand a VC's buffered messages to the DLIU while its drain is not held.
     * \param vc the VC.
     */
    void Drain(uint32_t vc);
    /**
     * \brief Count a packet that could not be read.
     * \param why what was wrong, for the log.
     */
    void Malformed(const char* why);

    Ptr<RiflNetDevice> m_device;      //!< the device
    uint32_t m_vcBuffer{4};           //!< VcBufferMessages
    uint32_t m_queueLimit{1024};      //!< MessageQueueLimit
    uint32_t m_deviceQueuePackets{2}; //!< DeviceQueuePackets
    uint32_t m_localCpu{0};           //!< this end's CPU
    uint32_t m_peerCpu{0};            //!< the peer's CPU
    bool m_started{false};            //!< credits taken
    uint32_t m_peerVcBuffer{0};       //!< the peer's VcBufferMessages (read at Start())
    uint64_t m_nextId{1};             //!< next message id
    std::array<std::deque<Outgoing>, DirectLinkConfig::NUM_VCS> m_txq;            //!< per VC
    std::array<uint32_t, DirectLinkConfig::NUM_VCS> m_credits{};                  //!< per VC
    std::array<uint32_t, DirectLinkConfig::NUM_VCS> m_owed{};                     //!< to return
    std::array<std::deque<DirectLinkMessage>, DirectLinkConfig::NUM_VCS> m_rxBuf; //!< per VC
    std::array<bool, DirectLinkConfig::NUM_VCS> m_hold{};                         //!< held drains
    std::array<bool, DirectLinkConfig::NUM_VCS> m_draining{};                     //!< in Drain()
    uint32_t m_rrVc{0};                 //!< round-robin pointer over VCs
    bool m_pumping{false};              //!< inside Pump()
    bool m_pumpAgain{false};            //!< Pump() asked for while pumping
    uint32_t m_spaceFreed{0};           //!< VCs (bit mask) whose queue got shorter
    EventId m_pumpEvent;                //!< scheduled Pump()
    RiflMessagePortCounters m_counters; //!< counters
    TracedCallback<uint64_t, uint32_t, uint8_t> m_lostTrace; //!< MessageLost
    TracedCallback<const DirectLinkMessage&> m_txTrace;      //!< MessageTx
    TracedCallback<const DirectLinkMessage&> m_rxTrace;      //!< MessageRx
};

} // namespace ns3

#endif /* RIFL_MESSAGE_PORT_H */

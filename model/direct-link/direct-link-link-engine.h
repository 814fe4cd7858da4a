/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_LINK_ENGINE_H
#define DIRECT_LINK_LINK_ENGINE_H

#include "direct-link-config.h"
#include "direct-link-endpoint-state.h"
#include "ns3/direct-link-flit.h"
#include "ns3/rifl-check.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup direct-link-protocol
 * \brief Kinds of protocol events a direct-link engine reports.
 */
enum class DirectLinkEventType : uint8_t
{
    STATE_CHANGE,      //!< link state changed; value = new LinkState, value2 = old
    SHUTDOWN,          //!< link went to Shutdown; value = ResetReason
    TIMEOUT,           //!< an AckTime expired (go-back); value = AskExpected
    RETRANSMISSION,    //!< a micro-packet was resent; value = its SndNo
    NAK_SENT,          //!< a NAK went out (NakEnabled)
    CRC_ERROR,         //!< a received micro-packet failed a check; value = DecodeStatus
    SEQUENCE_REJECT,   //!< a correct Data/Credit micro-packet had the wrong SndNo
    UNDETECTED_ERROR,  //!< a corrupted micro-packet passed every check
    MESSAGE_TRUNCATED, //!< a message was delivered truncated with NetErr; value = TruncationReason
    MESSAGE_LOST,      //!< a message was counted lost; value = LossReason
    TX_BEGIN,          //!< a message's header micro-packet went on the line (first time)
    TX_END,            //!< a message's tail micro-packet went on the line (first time)
    /// a message of this side is held open by the peer after a stale handshake
    /// (DirectLinkReferenceEngine, "Held open"); it stays pending
    MESSAGE_HELD_OPEN,
    /// the peer delivered a message of this side (intact, truncated or malformed; the first
    /// delivery), L slots ago: the sender's end learns it one line delay later
    MESSAGE_DELIVERED,
};

/**
 * \ingroup direct-link-protocol
 * \brief The number of DirectLinkEventType values (for arrays indexed by type).
 */
constexpr uint32_t DIRECT_LINK_NUM_EVENT_TYPES
    = static_cast<uint32_t>(DirectLinkEventType::MESSAGE_DELIVERED) + 1;

/**
 * \ingroup direct-link-protocol
 * \brief How a message is sent beyond its bytes: error flags and, for a copy
 *        truncated upstream, the length its routing word announces.
 *
 * Spec §4.2 (Shutdown): a router forwarding a packet whose input link shut
 * down inserts a tail flag and sets NetErr. This model's DLIU is
 * store-and-forward, so it forwards what arrived as a complete micro-packet
 * sequence whose **tail** micro-packet carries NetErr (and NcErr, if set) and
 * whose routing word keeps the original length. The receiver recognises a
 * message whose tail carries NetErr and that has fewer micro-packets than
 * its routing word announces as truncated upstream
 * (DirectLinkEndpointState::TruncationReason::UPSTREAM).
 */
struct DirectLinkMessageFlags
{
    bool netErr{false};          //!< set NetErr on the tail micro-packet
    bool ncErr{false};           //!< set NcErr on the tail micro-packet
    uint32_t announcedLength{0}; //!< routing-word length; 0 = the number of bytes sent

    /**
     * \brief Check the flags against the bytes sent (std::invalid_argument naming
     *        "announcedLength" and the rule broken).
     * \param where the caller, for the message.
     * \param bytes the number of bytes sent.
     */
    void Check(const std::string& where, size_t bytes) const
    {
        if (announcedLength == 0 || announcedLength == bytes)
        {
            return;
        }
        RIFL_CHECK_ARG(announcedLength < bytes, where << ": announcedLength = " << announcedLength
                                                      << " is below the " << bytes
                                                      << " bytes sent");
        RIFL_CHECK_ARG(announcedLength > DirectLinkFlit::MAX_MESSAGE_BYTES,
                       where << ": announcedLength = " << announcedLength
                             << " is out of range [0, 65535] (16-bit length field)");
        RIFL_CHECK_ARG(!netErr, where << ": announcedLength = " << announcedLength << " > " << bytes
                                      << " bytes sent needs netErr (a copy truncated upstream "
                                         "ends with a NetErr tail)");
        const uint32_t k = DirectLinkFlit::NumMicroPackets(static_cast<uint32_t>(bytes));
        RIFL_CHECK_ARG(
            bytes != DirectLinkFlit::HEADER_PAYLOAD_BYTES + (k - 1) * DirectLinkFlit::DATA_BYTES,
            where << ": announcedLength = " << announcedLength << " > " << bytes
                  << " bytes sent: a truncated copy must fill its micro-packets "
                     "(10 + 18 k bytes)");
    }

    /**
     * \param bytes the number of bytes sent.
     * \return the length the routing word carries.
     */
    uint32_t Length(size_t bytes) const
    {
        return announcedLength == 0 ? static_cast<uint32_t>(bytes) : announcedLength;
    }
};

/**
 * \ingroup direct-link-protocol
 * \brief One protocol event. Fields not meaningful for a type are zero.
 */
struct DirectLinkEvent
{
    DirectLinkEventType type{DirectLinkEventType::STATE_CHANGE}; //!< what happened
    uint32_t side{0};                                            //!< where (0 = A, 1 = B)
    uint64_t slot{0};                                            //!< when (micro-packet slot)
    uint64_t messageId{0}; //!< the message concerned (TX_*, MESSAGE_*)
    uint32_t vc{0};        //!< its virtual channel
    int64_t value{0};      //!< type-specific value
    int64_t value2{0};     //!< type-specific second value

    /**
     * \param o another event.
     * \return true if every field is equal.
     */
    bool operator==(const DirectLinkEvent& o) const
    {
        return type == o.type && side == o.side && slot == o.slot && messageId == o.messageId
               && vc == o.vc && value == o.value && value2 == o.value2;
    }
};

/**
 * \ingroup direct-link-protocol
 * \brief A message delivered by the receiving NI (possibly truncated).
 */
struct DirectLinkDeliveredMessage
{
    uint32_t side{0};                       //!< receiving side
    DirectLinkEndpointState::Delivery info; //!< what the NI delivered
    uint64_t offerSlot{0};                  //!< slot the sender offered it
    bool contentOk{false};                  //!< bytes and route equal the offered ones
};

/**
 * \ingroup direct-link-protocol
 * \brief A message counted as lost.
 */
struct DirectLinkLostMessage
{
    uint32_t side{0};      //!< sending side
    uint64_t messageId{0}; //!< the message
    /// slot it was abandoned (the sender's reset) or, for FALSE_ACK, the slot at whose end
    /// the false ack arrived (for VC_OVERFLOW, whichever of its sender's reset and the ack
    /// freeing its dropped header came first); the loss is decided OneWayDelay slots later
    uint64_t slot{0};
    DirectLinkEndpointState::LossReason reason{}; //!< why
};

/**
 * \ingroup direct-link-protocol
 * \brief The interface every direct-link engine offers to the ns-3 adapters.
 *
 * Both directions of one link (sides 0 = A and 1 = B) in micro-packet
 * slots, advanced by calls. Two engines implement it: the reference slot
 * engine (one step per micro-packet time) and the fast engine; for the same
 * inputs and error streams both produce identical callbacks in identical order.
 */
class DirectLinkLinkEngine
{
  public:
    /// Slot value meaning "never".
    static constexpr uint64_t NEVER = std::numeric_limits<uint64_t>::max();

    /// Called for every delivered (or truncated) message.
    using DeliveryCallback = std::function<void(const DirectLinkDeliveredMessage&)>;
    /// Called for every message counted lost.
    using LossCallback = std::function<void(const DirectLinkLostMessage&)>;
    /// Called for every protocol event.
    using EventCallback = std::function<void(const DirectLinkEvent&)>;

    /// \brief Destructor.
    virtual ~DirectLinkLinkEngine() = default;

    /// \return the configuration.
    virtual const DirectLinkConfig& GetConfig() const = 0;

    /**
     * \brief Queue a message at a side; it may be sent from the next slot on.
     * \param side the sending side.
     * \param messageId unique per side.
     * \param dstCpu destination CPU (routing word).
     * \param srcCpu source CPU.
     * \param msgClass message class.
     * \param vc virtual channel, 0..3.
     * \param bytes the message, 1..MaxMessageBytes.
     * \param flags NetErr / NcErr on its tail and the announced length (DirectLinkMessageFlags).
     */
    virtual void OfferMessage(uint32_t side, uint64_t messageId, uint32_t dstCpu, uint32_t srcCpu,
                              uint32_t msgClass, uint32_t vc, const std::vector<uint8_t>& bytes,
                              const DirectLinkMessageFlags& flags = DirectLinkMessageFlags())
        = 0;

    /**
     * \brief Run every slot before \p slot.
     * \param slot the first slot not to run.
     */
    virtual void AdvanceTo(uint64_t slot) = 0;

    /// \return the slot the engine runs next.
    virtual uint64_t GetSlot() const = 0;

    /**
     * \brief The earliest slot after which a callback may fire if nothing is
     *        offered meanwhile (AdvanceTo(NextEventSlot() + 1) runs it).
     * \return the slot, or NEVER.
     */
    virtual uint64_t NextEventSlot() = 0;

    /**
     * \param side a side.
     * \return messages offered there and not yet fully sent.
     */
    virtual uint64_t GetPending(uint32_t side) const = 0;

    /**
     * \brief How fast the receiving NI takes micro-packets from a VC buffer.
     * \param side the receiving side.
     * \param vc the VC.
     * \param interval one micro-packet every \p interval slots (0 = stopped).
     */
    virtual void SetDrainInterval(uint32_t side, uint32_t vc, uint32_t interval) = 0;

    /**
     * \param side a side.
     * \return its protocol state and counters.
     */
    virtual const DirectLinkEndpointState& GetEndpoint(uint32_t side) const = 0;

    /**
     * \brief Set the delivery callback.
     * \param cb the callback.
     */
    virtual void SetDeliveryCallback(DeliveryCallback cb) = 0;

    /**
     * \brief Set the loss callback.
     * \param cb the callback.
     */
    virtual void SetLossCallback(LossCallback cb) = 0;

    /**
     * \brief Set the event callback.
     * \param cb the callback.
     */
    virtual void SetEventCallback(EventCallback cb) = 0;
};

} // namespace ns3

#endif /* DIRECT_LINK_LINK_ENGINE_H */

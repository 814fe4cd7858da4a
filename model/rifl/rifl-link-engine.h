/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_LINK_ENGINE_H
#define RIFL_LINK_ENGINE_H

#include "ns3/bit-error-process.h"
#include "ns3/ptr.h"
#include "ns3/rifl-check.h"
#include "ns3/sync-loss-process.h"
#include "rifl-link-config.h"
#include "rifl-link-counters.h"
#include "rifl-payload.h"

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-protocol
 * \brief Kinds of protocol events a RIFL link engine reports.
 */
enum class RiflLinkEventType : uint8_t
{
    TX_STATE_CHANGE,    //!< a lane's TX state changed; value = new RiflTxState, old in value2
    FRAME_ERROR,        //!< the receiver's check failed (value = RiflFrame::Status)
    REPLAY_START,       //!< a replay began (replay counter 0 in RETRANS)
    REPLAY_END,         //!< a replay ended (counter wrapped)
    FC_PAUSE_SENT,      //!< an FC_ON notification was sent
    FC_RESUME_SENT,     //!< an FC_OFF notification was sent
    FC_PAUSE_RECEIVED,  //!< an FC_ON notification was acted on
    FC_RESUME_RECEIVED, //!< an FC_OFF notification was acted on
    RX_DOWN,            //!< the receiver lost alignment / RX up dropped
    RX_UP,              //!< the receiver is up again
    UNDETECTED_ERROR,   //!< a frame with line errors passed every check
    DUPLICATE_DELIVERY, //!< a user frame was delivered a second time (spec §10.3)
    FC_FIFO_DROP,       //!< a user frame was dropped at a full FC FIFO (spec §10.4)
    TX_BEGIN,           //!< a packet's first frame went on the line (packetId set)
    TX_END,             //!< a packet's last frame went on the line (packetId set)
    CLOCK_COMPENSATION, //!< a lane sent a clock-compensation Idle (value = line slot; spec 6.1)
    /// a user frame was delivered ahead of missing ones (spec 10.2 / 11.8 reordering hazard);
    /// packetId = its packet, value = user frames skipped on the lane, value2 = packet ends
    /// among them (packets lost by merging, counted in packetEndsLost)
    OUT_OF_ORDER_DELIVERY,
    /// a non-user data frame was accepted while an earlier user frame is missing (spec
    /// 10.2 / 11.8, RiflIsResyncAhead()); value = user frames missing before it, value2 =
    /// its line slot
    RESYNC_AHEAD,
    /// flow-control notifications of the peer's lane were never acted on: a data frame sent
    /// after them was accepted in sequence first (spec 10.2 / 11.8 resynchronisation on a
    /// frame D newer; RiflCheckFcSequence()); value = notifications skipped, value2 = the
    /// accepted frame's line slot
    FC_NOTIFICATION_SKIPPED,
    /// a flow-control notification already acted on was accepted in sequence and acted on
    /// again (a frame D older, as after the replay-tail hazard of spec 10.3;
    /// RiflCheckFcSequence()); value = 1 for a pause, 2 for a resume, value2 = its line slot
    FC_NOTIFICATION_REPEATED,
};

/**
 * \ingroup rifl-protocol
 * \brief One protocol event. Fields not meaningful for a type are zero.
 */
struct RiflLinkEvent
{
    RiflLinkEventType type{RiflLinkEventType::TX_STATE_CHANGE}; //!< what happened
    uint32_t endpoint{0};                                       //!< where (0 = A, 1 = B)
    uint32_t lane{0};                                           //!< which lane
    uint64_t slot{0};                                           //!< when (frame slot)
    uint64_t packetId{0}; //!< the packet concerned (TX_BEGIN/END, DUPLICATE, DROP)
    int64_t value{0};     //!< type-specific value
    int64_t value2{0};    //!< type-specific second value

    /**
     * \param o another event.
     * \return true if every field is equal.
     */
    bool operator==(const RiflLinkEvent& o) const
    {
        return type == o.type && endpoint == o.endpoint && lane == o.lane && slot == o.slot
               && packetId == o.packetId && value == o.value && value2 == o.value2;
    }
};

/**
 * \ingroup rifl-protocol
 * \brief A packet handed to the receiving user.
 */
struct RiflDelivery
{
    uint32_t endpoint{0};         //!< the receiving endpoint
    uint64_t packetId{0};         //!< the sender's packet its first frame belonged to
    uint64_t firstSlot{0};        //!< slot its first frame was first on the line
    uint64_t slot{0};             //!< slot its last frame reached the user
    std::vector<uint8_t> content; //!< the bytes as decoded from the line
    /// Per user word (UserWordBytes), in slots: delivery of the frame holding the
    /// word's last byte minus the slot the frame holding its first byte was
    /// accepted from the user (spec 11.2; L + 7 for a 2-frame word, error free).
    std::vector<uint64_t> wordLatencies;
    /// A hint, not a result: true when the engine knows by construction that
    /// content is exactly the bytes offered (no line error came near them), so an
    /// adapter may skip comparing them. False says nothing.
    bool intact{false};
    /// True when the engine left content and wordLatencies empty because the
    /// delivery is intact and lean deliveries were asked for (SetLeanDeliveries()).
    bool lean{false};
    /// For a lean delivery, when the engine has it: the payload offered with the
    /// packet (OfferPayload()), so that an adapter can reach the offered packet
    /// without looking it up (RiflPayload::GetPacket()). Null says nothing.
    std::shared_ptr<const RiflPayload> source;
};

/**
 * \ingroup rifl-protocol
 * \brief The interface every RIFL link engine offers to the ns-3 adapters.
 *
 * An engine models both directions of one link (endpoints 0 = A and 1 = B,
 * each with its TX and RX on every lane) in frame slots. It is advanced by
 * calls; it never schedules ns-3 events itself. Two engines implement it:
 * RiflReferenceEngine (one step per slot) and the fast engine (work only at
 * packets, errors and state changes). For the same inputs and the same error
 * streams both produce identical callbacks in identical order.
 */
class RiflLinkEngine
{
  public:
    /// Slot value meaning "never".
    static constexpr uint64_t NEVER = std::numeric_limits<uint64_t>::max();

    /// Called for every delivered packet.
    using DeliveryCallback = std::function<void(RiflDelivery&&)>;
    /// Called for every protocol event.
    using EventCallback = std::function<void(const RiflLinkEvent&)>;

    /// \brief Destructor.
    virtual ~RiflLinkEngine() = default;

    /// \return the configuration.
    virtual const RiflLinkConfig& GetConfig() const = 0;

    /**
     * \brief Attach the bit-error stream of one direction and lane.
     * \param sender the sending endpoint (0 or 1).
     * \param lane the lane.
     * \param process the stream (null = error free).
     */
    virtual void SetErrorProcess(uint32_t sender, uint32_t lane, Ptr<BitErrorProcess> process) = 0;

    /**
     * \brief Attach the sync-loss events of one direction and lane.
     * \param sender the sending endpoint.
     * \param lane the lane.
     * \param process the events (null = none).
     */
    virtual void SetSyncLossProcess(uint32_t sender, uint32_t lane, Ptr<SyncLossProcess> process)
        = 0;

    /**
     * \brief Queue a packet at a sender; it may be sent from the next slot on.
     * \param endpoint the sending endpoint.
     * \param packetId an identifier, unique per endpoint.
     * \param payload the bytes, at least one.
     */
    virtual void OfferPacket(uint32_t endpoint, uint64_t packetId,
                             const std::vector<uint8_t>& payload)
        = 0;

    /**
     * \brief OfferPacket() for bytes the caller shares instead of copying: an
     *        engine that can keep them reads them only when it needs them
     *        (RiflPayload); by default they are copied at once.
     * \param endpoint the sending endpoint.
     * \param packetId an identifier, unique per endpoint.
     * \param payload the bytes, at least one (not null, never changed after).
     */
    virtual void OfferPayload(uint32_t endpoint, uint64_t packetId,
                              std::shared_ptr<const RiflPayload> payload)
    {
        RIFL_CHECK_ARG(!payload, "RiflLinkEngine::OfferPayload: payload is null");
        OfferPacket(endpoint, packetId, payload->GetBytes());
    }

    /**
     * \brief OfferPayload() of a packet that arrives at a later slot than the
     *        engine has run to, without running up to it first: the engine takes
     *        it at the start of \p slot, exactly as AdvanceTo(slot) followed by
     *        OfferPayload() would, and NextEventSlot() already counts it. An
     *        engine that cannot defer an offer returns false and takes nothing
     *        (the default); the caller then runs the engine up to \p slot and
     *        offers the packet there.
     * \param endpoint the sending endpoint.
     * \param packetId an identifier, unique per endpoint.
     * \param payload the bytes, at least one (not null, never changed after).
     * \param slot the slot of its arrival: GetSlot() or later, and no earlier than
     *        the slot of the endpoint's previous deferred offer.
     * \return true if the engine took the packet.
     */
    virtual bool OfferPayloadAt(uint32_t endpoint, uint64_t packetId,
                                std::shared_ptr<const RiflPayload> payload, uint64_t slot)
    {
        return false;
    }

    /**
     * \brief What NextEventSlot() (and NextWakeSlot()) count for the first packet an
     *        endpoint has waiting for a later slot (OfferPayloadAt()): a lower bound on
     *        the slot of the first callback it may bring. A caller whose promised slot
     *        is not after it need not ask NextEventSlot() again after an offer (with the
     *        TX-event wake-ups, SetTxEventWakes(), unchanged).
     * \param endpoint 0 or 1.
     * \return the slot; 0 (the default) where the engine cannot tell, or when the
     *         endpoint has no such packet (an offer for the current slot joined the
     *         queue at once).
     */
    virtual uint64_t BoundFirstArrival(uint32_t endpoint)
    {
        return 0;
    }

    /**
     * \brief Run every slot before \p slot (no-op if already there).
     * \param slot the first slot not to run.
     */
    virtual void AdvanceTo(uint64_t slot) = 0;

    /// \return the slot the engine runs next.
    virtual uint64_t GetSlot() const = 0;

    /**
     * \brief The earliest slot after which a callback may fire if no packet is
     *        offered meanwhile: AdvanceTo(NextEventSlot() + 1) runs it.
     * \return the slot, or NEVER.
     */
    virtual uint64_t NextEventSlot() = 0;

    /**
     * \brief Like NextEventSlot(), for a caller that needs no wake-up for events other
     *        than the TX_BEGIN and TX_END SetTxEventWakes() asks for (no sink sees
     *        them at their time): the earliest slot whose step may fire a delivery or
     *        such a TX event; other events may come before it. The default is
     *        NextEventSlot().
     * \return the slot, or NEVER.
     */
    virtual uint64_t NextWakeSlot()
    {
        return NextEventSlot();
    }

    /**
     * \brief A hint for the ns-3 adapter, valid after NextEventSlot(): the
     *        endpoint whose callback that slot is expected to bring, so that the
     *        wake-up can run in its node's context. Never changes results.
     * \return 0 or 1, or 2 when not known.
     */
    virtual uint32_t NextEventEndpoint() const
    {
        return 2;
    }

    /**
     * \brief A hint for adapters that need neither the bytes nor the word
     *        latencies of an intact delivery (they hold the offered packet): an
     *        engine may then leave both empty and set RiflDelivery::lean. Slots,
     *        counters and every other field are unchanged. Default off; an
     *        engine may ignore it.
     * \param on true to allow lean deliveries.
     */
    virtual void SetLeanDeliveries(bool on) {}

    /**
     * \brief A hint for adapters: whether an endpoint's TX_BEGIN and TX_END events
     *        must come in their own slot, i.e. count for NextEventSlot() (the default,
     *        both true). When one is false the event is still reported, with its own
     *        slot, by the AdvanceTo() that runs past it, which may be later; nothing
     *        else changes (deliveries, counters, every slot stay the same). An engine
     *        may ignore it (the reference engine wakes every slot anyway).
     * \param endpoint 0 or 1.
     * \param begin TX_BEGIN of its packets counts for NextEventSlot().
     * \param end TX_END of its packets counts for NextEventSlot().
     */
    virtual void SetTxEventWakes(uint32_t endpoint, bool begin, bool end) {}

    /**
     * \param endpoint an endpoint.
     * \return the packets offered there whose last frame has not gone on the line yet.
     */
    virtual uint64_t GetPendingPackets(uint32_t endpoint) const = 0;

    /**
     * \brief What GetPendingPackets() would return after AdvanceTo(\p slot) with no
     *        packet offered meanwhile, where the engine can tell without running.
     * \param endpoint an endpoint (0 or 1).
     * \param slot a slot not before GetSlot().
     * \param pending set to the count when the engine can tell.
     * \return true if it could (the default: never).
     */
    virtual bool PredictPendingPackets(uint32_t endpoint, uint64_t slot, uint64_t* pending)
    {
        return false;
    }

    /**
     * \param endpoint an endpoint (the receiver).
     * \return the packet-ending user frames in its RX FC FIFOs not yet taken by the
     *         user (packets received in part; after an out-of-order delivery, spec
     *         11.8, the ones stranded behind the lane that skipped frames).
     */
    virtual uint64_t GetHeldPacketEnds(uint32_t endpoint) const = 0;

    /**
     * \param endpoint an endpoint (0 or 1).
     * \return its counters (its TX's and its RX's, summed over lanes).
     */
    virtual const RiflEndpointCounters& GetCounters(uint32_t endpoint) const = 0;

    /**
     * \brief Set the delivery callback.
     *
     * The delivery and event callbacks run inside AdvanceTo(): they must not call the
     * engine (offer packets, advance it, read its lane states); they collect what it
     * reports, and the caller acts on it once AdvanceTo() returns (as RiflChannel does).
     * Both engines refuse such calls with std::invalid_argument naming the call.
     * \param cb the callback.
     */
    virtual void SetDeliveryCallback(DeliveryCallback cb) = 0;

    /**
     * \brief Set the event callback.
     * \param cb the callback.
     */
    virtual void SetEventCallback(EventCallback cb) = 0;
};

} // namespace ns3

#endif /* RIFL_LINK_ENGINE_H */

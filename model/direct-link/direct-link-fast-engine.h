/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_FAST_ENGINE_H
#define DIRECT_LINK_FAST_ENGINE_H

#include "direct-link-reference-engine.h"

#include <array>
#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup direct-link-protocol
 * \brief The direct-link fast engine: the same observable behaviour as
 *        DirectLinkReferenceEngine (deliveries with slot and content, losses,
 *        events in the same canonical order, endpoint and truth counters) for
 *        the same configuration, offers and error streams, at a cost that grows
 *        with micro-packets carrying something, errors and state changes, not
 *        with idle slots.
 *
 * **Design.** The engine derives from the reference engine and reuses all of
 * its bookkeeping (offered messages, fates, truth counters, event collection
 * and canonical ordering) and the same per-side DirectLinkEndpointState. It
 * differs in two ways only.
 *
 * 1. *Slot mode* (any slot that is not provably quiescent) runs exactly the
 *    reference's per-slot sequence (BuildTx A, B; errors; receive, drain,
 *    timers A, B; events), through the same helpers. Only the line differs: a
 *    micro-packet whose direction has no error listed for its send slot is not
 *    encoded and decoded; the receiver is handed DecodeResult{OK, fields}.
 *    A micro-packet with listed errors is materialised as its real 192 line
 *    bits (DirectLinkFlit::Encode), the listed bits are flipped and
 *    DirectLinkFlit::Decode judges it, exactly as in the reference.
 * 2. *Bulk mode* advances a quiescent stretch [s, e) in O(1): at slot s both
 *    sides are DirectLinkEndpointState::IsIdle() and every micro-packet on both
 *    lines is a correct non-NAK Null; e = min(target slot, next error slot of
 *    either direction (BitErrorProcess::Peek), IdleLimit() of either side
 *    (CrdNullTime), the next decision on an abandoned message or slot at which a watched
 *    message can be counted held open, NextLossDecision()). The stretch is accounted for with
 * SkipIdle(e - s) and one run-length line entry per direction (e - s identical Nulls).
 *
 * **Argument for exactness.** (a) Clean path: for every Fields that BuildTx()
 * produces (builders' fixed values, Segment()'s Data, 5-bit sequence
 * numbers, 4-bit Crdt, NAK = Null with Data byte 0 = 1, which Decode() does
 * not check), Decode(Encode(f)) = {OK, f}, and Receive() reads only the status
 * and the fields; SetVerifyCleanPath(true) checks this on every clean
 * micro-packet (the equivalence suite runs with it). (b) Bulk: an idle side's
 * BuildTx() returns IdleTx() and changes only sentByType[Null] (no NAK, no
 * resend, no sendable VC, nothing owed); Receive() of a correct non-NAK Null
 * changes nothing (ProcessAck on an empty retry buffer is a no-op; no NAK);
 * EndOfSlot() drains nothing (buffers empty or stopped) and fires no timer
 * before IdleLimit() (empty retry buffer: no AckTime; Normal: no InitialTime);
 * no abandoned message is decided inside the stretch (e is at most the next
 * decision slot, so the decision runs in slot mode).
 * Since neither side changes, the Null sent and hence every reception in the
 * stretch is the same, by induction over the slots; no error is listed in the
 * stretch, so no truth counter or event changes; external inputs (offers,
 * drain changes) arrive only between AdvanceTo() calls, which end stretches.
 * (c) Everything else is the reference's own code.
 *
 * **Busy-link prediction.** On a busy link NextEventSlot() returns a lower
 * bound of the next slot with a callback (see there) instead of GetSlot(), so
 * the adapter wakes only then; busy slots are still run one by one in slot
 * mode (there is no bulk mode for saturated stretches).
 *
 * The per-slot SlotCallback of the reference is not called by this engine.
 */
class DirectLinkFastEngine : public DirectLinkReferenceEngine
{
  public:
    /**
     * \brief Build the engine.
     * \param config the configuration (validated; std::invalid_argument otherwise).
     * \param aToB the error process of direction A -> B (null = error free).
     * \param bToA the error process of direction B -> A (null = error free).
     */
    DirectLinkFastEngine(const DirectLinkConfig& config, Ptr<BitErrorProcess> aToB,
                         Ptr<BitErrorProcess> bToA);

    /// \brief Run one slot in slot mode.
    void Step() override;

    /// \return false: the fast engine does not run split (see SetLocalEndpoint()).
    bool SupportsSplit() const override;

    /**
     * \brief Run every slot before \p slot, quiescent stretches in bulk.
     * \param slot the first slot not to run.
     */
    void RunUntil(uint64_t slot) override;

    /**
     * \brief The earliest slot in which a callback may fire if nothing is offered.
     *
     * Quiescent link: the next error slot, CrdNullTime expiry or decision on an abandoned
     * message (a loss), or NEVER. Busy link
     * (SetPredictBusy, default on): a lower bound from both sides' state
     * (DirectLinkEndpointState::EarliestOwnEvent) and from the lines: the arrival of the
     * first in-flight micro-packet that produces an event at its receiver (corrupted, Init /
     * Init-Ack, a NAK, a Data / Credit whose SndNo the receiver will reject given the
     * in-order acceptance of those ahead of it, a header or tail Data), of the next
     * listed error (error slot + OneWayDelay), and GetSlot() + OneWayDelay if the sender's
     * next new sequence number is not the one the receiver will expect (one was lost), the
     * next decision on an abandoned message, GetSlot() + OneWayDelay while a header micro-packet
     * that the receiver accepted and dropped on a full VC buffer is still in its sender's retry
     * buffer (the ack that frees it is decided L slots later), and GetSlot() + OneWayDelay
     * unless ground truth
     * rules out a false ack (the decision on a falsely acked message comes L slots after
     * it): both sides' current Normals started together and have seen no false ack
     * (AckRecordsClean) and no micro-packet sent before its sender's Normal began is still
     * on the line. The adapter then needs no wake-up in the
     * slots between (the equivalence suite checks that no callback fires before it).
     * \return the slot (>= GetSlot()).
     */
    uint64_t NextEventSlot() override;

    /**
     * \brief Predict busy stretches in NextEventSlot() (true, default) or return GetSlot()
     *        whenever the link is not quiescent (false: one adapter wake-up per busy slot).
     * \param predict true to predict.
     */
    void SetPredictBusy(bool predict);

    /**
     * \brief Also encode and decode every clean micro-packet and abort if the
     *        result is not {OK, the sent fields} (a self-check of the clean path).
     * \param verify true to check.
     */
    void SetVerifyCleanPath(bool verify);

    /// \return the number of slots run in slot mode.
    uint64_t GetSlotModeSlots() const;
    /// \return the number of slots advanced in bulk.
    uint64_t GetBulkSlots() const;

  private:
    /// A run of micro-packets on the line (count > 1 only for identical clean Nulls).
    struct Run
    {
        uint64_t sendSlot{0};                 //!< send slot of the first
        uint64_t count{1};                    //!< how many (consecutive slots)
        DirectLinkFlit::Fields fields;        //!< the fields sent
        DirectLinkEndpointState::FlitTag tag; //!< ground truth
        bool corrupted{false};                //!< bits were flipped (count 1)
        bool busy{false};                     //!< not a correct non-NAK Null
        BitBlock bits;                        //!< line bits (corrupted only)
    };

    /// \return true if both sides are idle and both lines carry only correct non-NAK Nulls.
    bool Quiescent() const;
    /// \return the first slot >= GetSlot() a quiescent stretch must not include.
    uint64_t QuiescentLimit();
    /// \brief Advance a quiescent stretch up to \p end in bulk. \param end first slot not run.
    void Bulk(uint64_t end);

    std::array<std::deque<Run>, 2> m_runs{}; //!< line by sending side
    std::array<uint64_t, 2> m_busy{};        //!< busy entries on each line
    bool m_verify{false};                    //!< SetVerifyCleanPath
    bool m_predictBusy{true};                //!< SetPredictBusy
    uint64_t m_slotModeSlots{0};             //!< statistics
    uint64_t m_bulkSlots{0};                 //!< statistics
};

} // namespace ns3

#endif /* DIRECT_LINK_FAST_ENGINE_H */

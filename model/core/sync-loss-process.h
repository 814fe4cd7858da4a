/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_SYNC_LOSS_PROCESS_H
#define RIFL_SYNC_LOSS_PROCESS_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup rifl-core
 * \brief One loss-of-sync event: slots [startSlot, startSlot + durationSlots).
 */
struct SyncLossEvent
{
    /// startSlot value meaning "no more events".
    static constexpr uint64_t NO_MORE_EVENTS = std::numeric_limits<uint64_t>::max();

    uint64_t startSlot{NO_MORE_EVENTS}; //!< first slot out of sync, or NO_MORE_EVENTS
    uint64_t durationSlots{0};          //!< number of slots out of sync, >= 1
};

/**
 * \ingroup rifl-core
 * \brief Loss-of-sync events of one lane and direction (RIFL's out-of-sync path).
 *
 * Two modes:
 * - a deterministic list given with AddEvent(); if the list is not empty it is
 *   replayed and MeanInterval is ignored;
 * - Poisson: while in sync, onsets come at rate 1 / MeanInterval (0 = off).
 *   With m = MeanInterval / slot and d = max(1, ceil(Duration / slot)) slots,
 *   the in-sync stretch before each event is ceil(E) slots, E ~ Exp(mean m),
 *   counted from the end of the previous event (from slot 0 for the first).
 *   SetSlotDuration() must have been called (the engine does).
 * Events never overlap: each starts at least one slot after the previous one
 * ends. Uses one RNG stream.
 */
class SyncLossProcess : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    SyncLossProcess();
    /// \brief Destructor.
    ~SyncLossProcess() override;

    /**
     * \brief Set the slot duration used to convert times to slots (setting the same
     *        value again is a no-op; a new value applies from the next drawn event).
     * \param slot the duration of one frame slot, > 0 (std::invalid_argument otherwise).
     */
    void SetSlotDuration(Time slot);
    /// \return the slot duration (0 if unset).
    Time GetSlotDuration() const;

    /**
     * \brief Set the mean in-sync time between events (Poisson mode).
     * \param interval the mean, >= 0; 0 turns the Poisson mode off.
     */
    void SetMeanInterval(Time interval);
    /// \return the mean interval.
    Time GetMeanInterval() const;

    /**
     * \brief Set the duration of each Poisson event.
     * \param duration the duration, >= 0 (rounded up to whole slots, at least one).
     */
    void SetDuration(Time duration);
    /// \return the event duration.
    Time GetDuration() const;

    /**
     * \brief Add a deterministic event.
     * \param startSlot the first slot out of sync.
     * \param durationSlots the number of slots, >= 1; the event must not overlap
     *        or touch another listed event (std::invalid_argument naming startSlot).
     */
    void AddEvent(uint64_t startSlot, uint64_t durationSlots);

    /**
     * \brief The next event.
     * \return it; startSlot == SyncLossEvent::NO_MORE_EVENTS when none is left.
     */
    const SyncLossEvent& Peek();

    /// \brief Move to the following event; no-op at the end.
    void Pop();

    /**
     * \brief Restart at slot 0; re-seeds the stream given to AssignStreams() so the
     *        sequence repeats (if AssignStreams() was never called it continues).
     */
    void Reset();

    /**
     * \brief Assign a fixed random variable stream number.
     * \param stream the stream index.
     * \return the number of streams used (1).
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the Poisson mean interval in slots (0 if off or no slot duration).
    double GetMeanIntervalSlots() const;
    /// \return the Poisson event duration in slots (0 if no slot duration).
    uint64_t GetDurationSlots() const;

  protected:
    void DoDispose() override;

  private:
    /// \brief Fill m_event with the next event.
    void Generate();

    Time m_slot{0};                    //!< slot duration
    Time m_meanInterval{0};            //!< Poisson mean in-sync interval
    Time m_duration{0};                //!< Poisson event duration
    std::vector<SyncLossEvent> m_list; //!< deterministic events, sorted
    size_t m_listIndex{0};             //!< next list entry
    Ptr<UniformRandomVariable> m_rng;  //!< the random stream
    SyncLossEvent m_event;             //!< the cached next event
    bool m_valid{false};               //!< m_event is valid
    uint64_t m_nextFree{0};            //!< end of the previous random event (gap base)
};

} // namespace ns3

#endif /* RIFL_SYNC_LOSS_PROCESS_H */

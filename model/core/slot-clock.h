/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_SLOT_CLOCK_H
#define RIFL_SLOT_CLOCK_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief Exact times of frame slots: slot k starts at t0 + floor(k S / rate).
 *
 * S bits per slot at a line rate in bit/s; the start of every slot is computed
 * from k in 128-bit integer arithmetic in the simulator's time resolution, so
 * rounding never accumulates (at the default 1 ns resolution a 9.142857 ns
 * RIFL256 slot at 28 Gb/s starts on whole nanoseconds, each within 1 ns of the
 * exact value; Time::SetResolution(Time::PS) gives sub-ns starts). Both link
 * channels use it.
 */
class SlotClock
{
  public:
    /**
     * \brief Start the clock.
     * \param t0 the start of slot 0.
     * \param bitsPerSlot bits per slot, >= 1 (std::invalid_argument otherwise).
     * \param rateBps line rate in bit/s, >= 1 (std::invalid_argument otherwise).
     */
    void Start(Time t0, uint64_t bitsPerSlot, uint64_t rateBps);

    /// \return true once Start was called.
    bool IsStarted() const;

    /**
     * \param slot a slot index.
     * \return the exact start time of that slot (t0 before Start).
     */
    Time GetSlotStart(uint64_t slot) const;

    /**
     * \param t a time.
     * \return the slot in progress at t (0 before t0 or before Start).
     */
    uint64_t SlotAt(Time t) const;

  private:
    Time m_t0;                   //!< start of slot 0
    uint64_t m_bitsPerSlot{0};   //!< S
    uint64_t m_rateBps{0};       //!< line rate, 0 = not started
    int64_t m_unitsPerSecond{0}; //!< time steps per second
    // Slot k starts floor(k * S * units / rate) time steps after t0. With the
    // fraction reduced (m_num / m_den) the products fit in 64 bits for any
    // practical k; otherwise (m_num == 0) 128-bit arithmetic is used.
    uint64_t m_num{0}; //!< S * units / g (0: use 128-bit arithmetic)
    uint64_t m_den{0}; //!< rate / g
    // The last query (a link asks for the same instant several times per event).
    mutable int64_t m_lastSteps{-1}; //!< time steps after t0 of the last SlotAt()
    mutable uint64_t m_lastSlot{0};  //!< its answer
};

} // namespace ns3

#endif /* RIFL_SLOT_CLOCK_H */

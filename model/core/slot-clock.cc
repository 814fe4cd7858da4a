/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "slot-clock.h"

#include "rifl-check.h"

namespace ns3
{

void
SlotClock::Start(Time t0, uint64_t bitsPerSlot, uint64_t rateBps)
{
    RIFL_CHECK_ARG(bitsPerSlot < 1, "SlotClock: bitsPerSlot = " << bitsPerSlot << " must be >= 1");
    RIFL_CHECK_ARG(rateBps < 1, "SlotClock: rateBps = " << rateBps << " must be >= 1");
    m_t0 = t0;
    m_bitsPerSlot = bitsPerSlot;
    m_rateBps = rateBps;
    m_unitsPerSecond = Seconds(1).GetTimeStep();
}

bool
SlotClock::IsStarted() const
{
    return m_rateBps != 0;
}

Time
SlotClock::GetSlotStart(uint64_t slot) const
{
    if (m_rateBps == 0)
    {
        return m_t0;
    }
    const unsigned __int128 num = static_cast<unsigned __int128>(slot) * m_bitsPerSlot
                                  * static_cast<unsigned __int128>(m_unitsPerSecond);
    return m_t0 + TimeStep(static_cast<uint64_t>(num / m_rateBps));
}

uint64_t
SlotClock::SlotAt(Time t) const
{
    if (m_rateBps == 0 || t <= m_t0)
    {
        return 0;
    }
    // Largest k with start(k) <= t: the quotient, then a fix-up for the rounding of start().
    const unsigned __int128 dt = static_cast<unsigned __int128>((t - m_t0).GetTimeStep());
    uint64_t k = static_cast<uint64_t>(dt * m_rateBps
                                       / (static_cast<unsigned __int128>(m_bitsPerSlot)
                                          * static_cast<unsigned __int128>(m_unitsPerSecond)));
    while (GetSlotStart(k + 1) <= t)
    {
        ++k;
    }
    while (k > 0 && GetSlotStart(k) > t)
    {
        --k;
    }
    return k;
}

} // namespace ns3

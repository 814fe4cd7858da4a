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
    const unsigned __int128 a
        = static_cast<unsigned __int128>(bitsPerSlot) * static_cast<uint64_t>(m_unitsPerSecond);
    unsigned __int128 x = a;
    unsigned __int128 y = rateBps;
    while (y != 0)
    {
        const unsigned __int128 r = x % y;
        x = y;
        y = r;
    }
    const unsigned __int128 num = a / x;
    const unsigned __int128 den = rateBps / x;
    // 64-bit products for slots (and time steps) below 2^32 times the slack.
    const bool small = num < (uint64_t{1} << 24) && den < (uint64_t{1} << 24);
    m_num = small ? static_cast<uint64_t>(num) : 0;
    m_den = small ? static_cast<uint64_t>(den) : 0;
    m_lastSteps = -1;
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
    if (m_num != 0 && slot < (uint64_t{1} << 39))
    {
        return m_t0 + TimeStep(slot * m_num / m_den); // exact: the same reduced fraction
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
    const uint64_t steps = static_cast<uint64_t>((t - m_t0).GetTimeStep());
    if (static_cast<int64_t>(steps) == m_lastSteps)
    {
        return m_lastSlot;
    }
    uint64_t k;
    if (m_num != 0 && steps < (uint64_t{1} << 39))
    {
        // start(k) - t0 = floor(k num / den) <= steps iff k num < (steps + 1) den: the
        // largest such k, exactly (no fix-up).
        k = ((steps + 1) * m_den - 1) / m_num;
    }
    else
    {
        const unsigned __int128 dt = steps;
        k = static_cast<uint64_t>(dt * m_rateBps
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
    }
    m_lastSteps = static_cast<int64_t>(steps);
    m_lastSlot = k;
    return k;
}

} // namespace ns3

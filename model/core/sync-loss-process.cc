/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sync-loss-process.h"

#include "bit-error-process.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "rifl-check.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflSyncLossProcess");

NS_OBJECT_ENSURE_REGISTERED(SyncLossProcess);

TypeId
SyncLossProcess::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SyncLossProcess")
              .SetParent<Object>()
              .SetGroupName("Rifl")
              .AddConstructor<SyncLossProcess>()
              .AddAttribute("MeanInterval",
                            "Mean in-sync time before each loss-of-sync event (Poisson onsets "
                            "while in sync); 0 turns random events off.",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&SyncLossProcess::SetMeanInterval,
                                             &SyncLossProcess::GetMeanInterval),
                            MakeTimeChecker(Time(0)))
              .AddAttribute(
                  "Duration",
                  "Duration of each random loss-of-sync event (rounded up to whole "
                  "slots, at least one slot).",
                  TimeValue(NanoSeconds(100)),
                  MakeTimeAccessor(&SyncLossProcess::SetDuration, &SyncLossProcess::GetDuration),
                  MakeTimeChecker(Time(0)));
    return tid;
}

SyncLossProcess::SyncLossProcess()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

SyncLossProcess::~SyncLossProcess()
{
    NS_LOG_FUNCTION(this);
}

void
SyncLossProcess::DoDispose()
{
    m_rng = nullptr;
    Object::DoDispose();
}

void
SyncLossProcess::SetSlotDuration(Time slot)
{
    RIFL_CHECK_ARG(!slot.IsStrictlyPositive(),
                   "SyncLossProcess: SlotDuration = " << slot << " must be > 0");
    if (slot != m_slot)
    {
        m_slot = slot;
        m_valid = false;
    }
}

Time
SyncLossProcess::GetSlotDuration() const
{
    return m_slot;
}

void
SyncLossProcess::SetMeanInterval(Time interval)
{
    RIFL_CHECK_ARG(interval.IsStrictlyNegative(),
                   "SyncLossProcess: MeanInterval = " << interval << " must be >= 0");
    if (interval != m_meanInterval)
    {
        m_meanInterval = interval;
        m_valid = false;
    }
}

Time
SyncLossProcess::GetMeanInterval() const
{
    return m_meanInterval;
}

void
SyncLossProcess::SetDuration(Time duration)
{
    RIFL_CHECK_ARG(duration.IsStrictlyNegative(),
                   "SyncLossProcess: Duration = " << duration << " must be >= 0");
    if (duration != m_duration)
    {
        m_duration = duration;
        m_valid = false;
    }
}

Time
SyncLossProcess::GetDuration() const
{
    return m_duration;
}

double
SyncLossProcess::GetMeanIntervalSlots() const
{
    if (!m_slot.IsStrictlyPositive() || !m_meanInterval.IsStrictlyPositive())
    {
        return 0.0;
    }
    return m_meanInterval.GetDouble() / m_slot.GetDouble();
}

uint64_t
SyncLossProcess::GetDurationSlots() const
{
    if (!m_slot.IsStrictlyPositive())
    {
        return 0;
    }
    double d = std::ceil(m_duration.GetDouble() / m_slot.GetDouble() - 1e-9);
    if (d < 1.0)
    {
        return 1;
    }
    if (!(d < static_cast<double>(BitErrorProcess::MAX_SLOT)))
    {
        return BitErrorProcess::MAX_SLOT;
    }
    return static_cast<uint64_t>(d);
}

void
SyncLossProcess::AddEvent(uint64_t startSlot, uint64_t durationSlots)
{
    NS_LOG_FUNCTION(this << startSlot << durationSlots);
    RIFL_CHECK_ARG(durationSlots < 1 || durationSlots > BitErrorProcess::MAX_SLOT,
                   "SyncLossProcess: durationSlots = " << durationSlots << " is outside 1.."
                                                       << BitErrorProcess::MAX_SLOT);
    RIFL_CHECK_ARG(startSlot > BitErrorProcess::MAX_SLOT,
                   "SyncLossProcess: startSlot = " << startSlot << " is outside 0.."
                                                   << BitErrorProcess::MAX_SLOT);
    auto it = std::lower_bound(m_list.begin(), m_list.end(), startSlot,
                               [](const SyncLossEvent& e, uint64_t s)
                               {
                                   return e.startSlot < s;
                               });
    if (it != m_list.begin())
    {
        const SyncLossEvent& prev = *(it - 1);
        RIFL_CHECK_ARG(startSlot <= prev.startSlot + prev.durationSlots,
                       "SyncLossProcess: startSlot = "
                           << startSlot << " overlaps or touches the event at slots ["
                           << prev.startSlot << ", " << prev.startSlot + prev.durationSlots
                           << "); events need at least one in-sync slot between them");
    }
    if (it != m_list.end())
    {
        RIFL_CHECK_ARG(startSlot + durationSlots >= it->startSlot,
                       "SyncLossProcess: startSlot = "
                           << startSlot << " with durationSlots = " << durationSlots
                           << " overlaps or touches the event starting at slot " << it->startSlot
                           << "; events need at least one in-sync slot between them");
    }
    size_t index = it - m_list.begin();
    m_list.insert(it, SyncLossEvent{startSlot, durationSlots});
    if (index < m_listIndex)
    {
        ++m_listIndex; // already in the past of this pass
    }
    m_valid = false;
}

void
SyncLossProcess::Generate()
{
    m_event = SyncLossEvent();
    if (!m_list.empty())
    {
        if (m_listIndex < m_list.size())
        {
            m_event = m_list[m_listIndex];
        }
        return;
    }
    if (!m_meanInterval.IsStrictlyPositive() || m_nextFree >= BitErrorProcess::MAX_SLOT)
    {
        return;
    }
    RIFL_CHECK_ARG(!m_slot.IsStrictlyPositive(),
                   "SyncLossProcess: SlotDuration = "
                       << m_slot << " must be set (> 0) with SetSlotDuration() before Peek()");
    double mean = GetMeanIntervalSlots();
    double e = -mean * std::log(BitErrorProcess::DrawUniform53(m_rng));
    double gap = std::max(1.0, std::ceil(e));
    if (!(gap < static_cast<double>(BitErrorProcess::MAX_SLOT - m_nextFree)))
    {
        m_nextFree = BitErrorProcess::MAX_SLOT;
        return;
    }
    m_event.startSlot = m_nextFree + static_cast<uint64_t>(gap);
    m_event.durationSlots = GetDurationSlots();
}

const SyncLossEvent&
SyncLossProcess::Peek()
{
    if (!m_valid)
    {
        Generate();
        m_valid = true;
    }
    return m_event;
}

void
SyncLossProcess::Pop()
{
    Peek();
    if (m_event.startSlot == SyncLossEvent::NO_MORE_EVENTS)
    {
        return;
    }
    if (!m_list.empty())
    {
        ++m_listIndex;
    }
    else
    {
        m_nextFree = m_event.startSlot + m_event.durationSlots;
    }
    m_valid = false;
}

void
SyncLossProcess::Reset()
{
    NS_LOG_FUNCTION(this);
    m_listIndex = 0;
    m_nextFree = 0;
    m_valid = false;
    if (m_rng->GetStream() >= 0)
    {
        m_rng->SetStream(m_rng->GetStream()); // rewind to the stream's start
    }
}

int64_t
SyncLossProcess::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-link-counters.h"

#include <sstream>
#include <utility>

namespace ns3
{

namespace
{

/**
 * \brief Visit every field of two counter sets with its name.
 * \tparam F callable (const std::string& name, uint64_t a, uint64_t b).
 * \param a first counters.
 * \param b second counters.
 * \param f the visitor.
 */
template <typename F>
void
VisitFields(const RiflEndpointCounters& a, const RiflEndpointCounters& b, F&& f)
{
#define RIFL_COUNTER_FIELD(name) f(#name, a.name, b.name)
    RIFL_COUNTER_FIELD(newUserFrames);
    RIFL_COUNTER_FIELD(fillFrames);
    RIFL_COUNTER_FIELD(fcPauseSent);
    RIFL_COUNTER_FIELD(fcResumeSent);
    RIFL_COUNTER_FIELD(replayedFrames);
    RIFL_COUNTER_FIELD(idleSent);
    RIFL_COUNTER_FIELD(pauseRequestsSent);
    RIFL_COUNTER_FIELD(retransRequestsSent);
    RIFL_COUNTER_FIELD(replays);
    RIFL_COUNTER_FIELD(slotsLost);
    RIFL_COUNTER_FIELD(userStallSlots);
    for (std::size_t i = 0; i < a.stateSlots.size(); ++i)
    {
        f("stateSlots[" + std::to_string(i) + "]", a.stateSlots[i], b.stateSlots[i]);
    }
    RIFL_COUNTER_FIELD(clockSkipSlots);
    RIFL_COUNTER_FIELD(compensationSlots);
    RIFL_COUNTER_FIELD(compensationIdles);
    RIFL_COUNTER_FIELD(framesReceived);
    RIFL_COUNTER_FIELD(lineErrorFrames);
    RIFL_COUNTER_FIELD(errorsDetected);
    RIFL_COUNTER_FIELD(controlFrameErrors);
    RIFL_COUNTER_FIELD(badSyncwords);
    RIFL_COUNTER_FIELD(dataFramesDelivered);
    RIFL_COUNTER_FIELD(duplicatesDropped);
    RIFL_COUNTER_FIELD(undetectedErrors);
    RIFL_COUNTER_FIELD(contentMismatches);
    RIFL_COUNTER_FIELD(duplicatesDelivered);
    RIFL_COUNTER_FIELD(outOfOrderDeliveries);
    RIFL_COUNTER_FIELD(resyncsAhead);
    RIFL_COUNTER_FIELD(fcNotificationsSkipped);
    RIFL_COUNTER_FIELD(fcNotificationsRepeated);
    RIFL_COUNTER_FIELD(fcPauseReceived);
    RIFL_COUNTER_FIELD(fcResumeReceived);
    RIFL_COUNTER_FIELD(fcFifoDrops);
    RIFL_COUNTER_FIELD(maxFcOccupancy);
    RIFL_COUNTER_FIELD(alignmentLosses);
    RIFL_COUNTER_FIELD(bytesDelivered);
    RIFL_COUNTER_FIELD(packetsDelivered);
    RIFL_COUNTER_FIELD(packetEndsLost);
#undef RIFL_COUNTER_FIELD
}

} // namespace

bool
RiflEndpointCounters::operator==(const RiflEndpointCounters& o) const
{
    return Diff(o).empty();
}

bool
RiflEndpointCounters::operator!=(const RiflEndpointCounters& o) const
{
    return !(*this == o);
}

std::string
RiflEndpointCounters::ToString() const
{
    std::ostringstream os;
    bool first = true;
    VisitFields(*this, *this,
                [&](const std::string& name, uint64_t v, uint64_t)
                {
                    os << (first ? "" : " ") << name << "=" << v;
                    first = false;
                });
    return os.str();
}

std::vector<std::string>
RiflEndpointCounters::Diff(const RiflEndpointCounters& other) const
{
    std::vector<std::string> names;
    VisitFields(*this, other,
                [&](const std::string& name, uint64_t a, uint64_t b)
                {
                    if (a != b)
                    {
                        names.push_back(name);
                    }
                });
    return names;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-channel.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/global-value.h"
#include "ns3/independent-bit-error-process.h"
#include "ns3/integer.h"
#include "ns3/link-attribute-accessor.h"
#include "ns3/log.h"
#include "ns3/make-event.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-frame.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "rifl-fast-engine.h"
#include "rifl-net-device.h"
#include "rifl-reference-engine.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflChannel");

NS_OBJECT_ENSURE_REGISTERED(RiflChannel);

namespace
{
/// One lean delivery with its payload in this many looks its packet up and releases
/// the held packets it makes old (RiflChannel::Dispatch).
constexpr uint64_t RELEASE_EVERY = 8;

/// RiflCanonicalTies (see RiflChannel::Dispatch).
GlobalValue g_canonicalTies(
    "RiflCanonicalTies",
    "Hand what RIFL links deliver at one instant (packets and device events) to the devices "
    "in a canonical order, node id, then ifIndex, then the engine's order, instead of the "
    "order the links' wake-ups happen to run in. The results then do not depend on how the "
    "links are driven (one engine per link, split halves, MPI ranks); it costs one ns-3 "
    "event per instant, and the calls of one node at one instant are grouped into one event "
    "of that node. As the order of the links' wake-ups then changes nothing, the wake-ups "
    "of all RIFL links due at one instant share one ns-3 event (without a node context). "
    "Read when a simulation first hands over or schedules a wake-up; "
    "DcnScenario turns it on for its run (DcnScenarioConfig::canonicalTies).",
    BooleanValue(false), MakeBooleanChecker());

/// What RIFL links hand over at the current instant, waiting for the canonical order.
struct TieItem
{
    uint32_t node;    //!< receiving node
    uint32_t ifIndex; //!< receiving device
    uint64_t seq;     //!< order of hand-over
    EventImpl* event; //!< the call (owned until scheduled)
};

std::vector<TieItem> g_ties;     //!< the current instant's hand-overs
bool g_tieFlushPending{false};   //!< a flush is scheduled
bool g_tieResetScheduled{false}; //!< ResetTies() is registered with this simulation
int g_canonical{-1};             //!< RiflCanonicalTies of this simulation (-1: not read)
uint64_t g_tieSeq{0};            //!< hand-over counter
/// Calls from a device into its channel in progress (Send(), GetPendingPacketsNow(),
/// CatchUpNow()): what the engine hands over meanwhile must not re-enter the node.
uint32_t g_deviceCalls{0};

/**
 * \brief Marks a call from a device (an upper layer's Send(), a counter read) for its
 *        duration: HandOver() then schedules every hand-over as an event of the node at
 *        the current instant instead of calling the device at once, so no packet or
 *        event reaches an upper layer from inside its own call into the device.
 */
class DeviceCallScope
{
  public:
    DeviceCallScope()
    {
        ++g_deviceCalls;
    }

    ~DeviceCallScope()
    {
        --g_deviceCalls;
    }

    DeviceCallScope(const DeviceCallScope&) = delete;
    DeviceCallScope& operator=(const DeviceCallScope&) = delete;
};

/// A wake-up in the calendar of RiflCanonicalTies (RiflChannel::Reschedule()).
struct CalendarWake
{
    Ptr<RiflChannel> channel; //!< the link
    uint32_t driver;          //!< its driver
    uint64_t generation;      //!< the wake-up's number
};

/// RiflCanonicalTies: the wake-ups due, by instant (time steps), in scheduling order;
/// each instant has one ns-3 event (RiflChannel::RunWakes()).
std::map<int64_t, std::vector<CalendarWake>> g_calendar;
std::vector<std::vector<CalendarWake>> g_calendarPool; //!< emptied lists, for reuse

/// \brief At Simulator::Destroy: drop hand-overs a stopped simulation never made.
void
ResetTies()
{
    for (const TieItem& it : g_ties)
    {
        it.event->Unref();
    }
    g_ties.clear();
    g_calendar.clear();
    g_calendarPool.clear();
    g_tieFlushPending = false;
    g_tieResetScheduled = false;
    g_canonical = -1;
}

/**
 * \brief One node's hand-overs of an instant, run in their order as one ns-3 event.
 *
 * Equivalent to scheduling each as its own event of that node at the same instant:
 * events a call schedules for now come after every event already scheduled for now,
 * i.e. after the rest of the group either way.
 */
class TieGroupEvent : public EventImpl
{
  public:
    /// \param calls the hand-overs, in order (owned).
    explicit TieGroupEvent(std::vector<EventImpl*>&& calls)
        : m_calls(std::move(calls))
    {
    }

    ~TieGroupEvent() override
    {
        for (EventImpl* e : m_calls)
        {
            e->Unref();
        }
    }

  private:
    void Notify() override
    {
        for (EventImpl* e : m_calls)
        {
            e->Invoke();
        }
    }

    std::vector<EventImpl*> m_calls; //!< the hand-overs, in order
};

/// \brief Schedule the collected hand-overs, sorted, as events of their nodes (one
/// event per node and instant).
void
FlushTies()
{
    g_tieFlushPending = false;
    std::vector<TieItem> items;
    items.swap(g_ties);
    std::stable_sort(items.begin(), items.end(),
                     [](const TieItem& a, const TieItem& b)
                     {
                         return std::tie(a.node, a.ifIndex, a.seq)
                                < std::tie(b.node, b.ifIndex, b.seq);
                     });
    for (std::size_t i = 0; i < items.size();)
    {
        std::size_t j = i + 1;
        while (j < items.size() && items[j].node == items[i].node)
        {
            ++j;
        }
        if (j == i + 1)
        {
            Simulator::ScheduleWithContext(items[i].node, Time(0), items[i].event);
        }
        else
        {
            std::vector<EventImpl*> calls;
            calls.reserve(j - i);
            for (std::size_t k = i; k < j; ++k)
            {
                calls.push_back(items[k].event);
            }
            Simulator::ScheduleWithContext(items[i].node, Time(0),
                                           new TieGroupEvent(std::move(calls)));
        }
        i = j;
    }
}

/**
 * \return RiflCanonicalTies of the current simulation (read at its first hand-over).
 */
bool
CanonicalTies()
{
    if (g_canonical < 0)
    {
        BooleanValue v;
        g_canonicalTies.GetValue(v);
        g_canonical = v.Get() ? 1 : 0;
        if (!g_tieResetScheduled)
        {
            g_tieResetScheduled = true;
            Simulator::ScheduleDestroy(&ResetTies);
        }
    }
    return g_canonical == 1;
}

/**
 * \brief Hand a call to a device: at once (RiflCanonicalTies false: directly when this is
 *        already its node's context and no device is calling into a channel, else as an
 *        event of its node), or in the canonical order of this instant.
 * \param dev the device.
 * \param mem the member function of the device.
 * \param args its arguments.
 */
template <typename MEM, typename... Ts>
void
HandOver(Ptr<RiflNetDevice> dev, MEM mem, Ts... args)
{
    const uint32_t node = dev->GetNode()->GetId();
    if (!CanonicalTies())
    {
        if (g_deviceCalls == 0 && Simulator::GetContext() == node)
        {
            (PeekPointer(dev)->*mem)(args...);
        }
        else
        {
            Simulator::ScheduleWithContext(node, Time(0), mem, dev, args...);
        }
        return;
    }
    g_ties.push_back(TieItem{node, dev->GetIfIndex(), g_tieSeq++, MakeEvent(mem, dev, args...)});
    if (!g_tieFlushPending)
    {
        g_tieFlushPending = true;
        Simulator::ScheduleNow(&FlushTies);
    }
}

/**
 * \param p held packets by increasing id.
 * \param id an id.
 * \return the held packet with that id, or null.
 */
template <typename Held>
const Held*
FindById(const std::deque<Held>& p, uint64_t id)
{
    if (p.empty() || id < p.front().id)
    {
        return nullptr;
    }
    // The ids a channel hands out are consecutive: the position follows from the first.
    const uint64_t guess = id - p.front().id;
    if (guess < p.size() && p[guess].id == id)
    {
        return &p[guess];
    }
    const auto it = std::lower_bound(p.begin(), p.end(), id,
                                     [](const Held& e, uint64_t v)
                                     {
                                         return e.id < v;
                                     });
    return it != p.end() && it->id == id ? &*it : nullptr;
}

} // namespace

TypeId
RiflChannel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RiflChannel")
              .SetParent<Channel>()
              .SetGroupName("Rifl")
              .AddConstructor<RiflChannel>()
              .AddAttribute("CableLength",
                            "Cable length in metres, [0, 1000] (the RTL's range). It sets the "
                            "one-way line delay (with CableDelay) and the RTL sizing rule's RTT.",
                            DoubleValue(10.0),
                            MakeLinkAttributeAccessor<RiflChannel>(
                                MakeDoubleAccessor(&RiflChannel::m_cableLength)),
                            MakeDoubleChecker<double>(0.0, 1000.0))
              .AddAttribute("CableDelay",
                            "Propagation delay per metre of cable (fibre: about 5 ns/m), "
                            "[0, 100 ns].",
                            TimeValue(NanoSeconds(5)),
                            MakeLinkAttributeAccessor<RiflChannel>(
                                MakeTimeAccessor(&RiflChannel::m_cableDelay)),
                            MakeTimeChecker(Seconds(0), NanoSeconds(100)))
              .AddAttribute("LineDelaySlots",
                            "Explicit one-way line delay in frame slots (transceivers + cable); "
                            "-1 = round(CableLength x CableDelay / slot).",
                            IntegerValue(-1),
                            MakeLinkAttributeAccessor<RiflChannel>(
                                MakeIntegerAccessor(&RiflChannel::m_lineDelaySlots)),
                            MakeIntegerChecker<int64_t>(-1, 1000000))
              .AddAttribute("LaneSkew",
                            "Extra one-way delay of each lane in frame slots, both directions "
                            "(spec 6.2): comma-separated, entry l for lane l, missing entries 0, "
                            "each 0..100000, at most Lanes entries (e.g. \"0,3,0,1\").",
                            StringValue(""),
                            MakeLinkAttributeAccessor<RiflChannel>(
                                MakeStringAccessor(&RiflChannel::m_laneSkew)),
                            MakeStringChecker())
              .AddAttribute(
                  "Ber",
                  "Independent bit error rate of every lane in both directions, [0, 1); "
                  "each (direction, lane) gets its own IndependentBitErrorProcess "
                  "(streams via AssignStreams). Explicit SetErrorProcess calls win.",
                  DoubleValue(0.0),
                  MakeLinkAttributeAccessor<RiflChannel>(MakeDoubleAccessor(&RiflChannel::m_ber)),
                  MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute(
                  "Engine",
                  "Link engine: Fast (work only at packets, errors and state changes) "
                  "or Reference (one step per frame slot; identical results, slow).",
                  EnumValue(RiflChannel::FAST),
                  MakeLinkAttributeAccessor<RiflChannel>(
                      MakeEnumAccessor(&RiflChannel::m_engineType)),
                  MakeEnumChecker(RiflChannel::FAST, "Fast", RiflChannel::REFERENCE, "Reference"))
              .AddAttribute(
                  "StartupTemplates",
                  "Fast engine: take the start-up (Init, RX-up wait, first replays) of a link "
                  "that has no packet and no error yet from a template run once per "
                  "configuration, instead of running its slots one by one "
                  "(RiflFastEngine::SetStartupTemplates()). Results are identical either way.",
                  BooleanValue(true),
                  MakeLinkAttributeAccessor<RiflChannel>(
                      MakeBooleanAccessor(&RiflChannel::m_startupTemplates)),
                  MakeBooleanChecker())
              .AddAttribute(
                  "DeferOffers",
                  "Fast engine: a packet a device sends joins the engine at its arrival slot "
                  "without running the engine up to now first "
                  "(RiflLinkEngine::OfferPayloadAt()); false runs it up to now at every send. "
                  "Deliveries, events and counters are identical either way.",
                  BooleanValue(true), MakeBooleanAccessor(&RiflChannel::m_deferOffers),
                  MakeBooleanChecker())
              .AddAttribute(
                  "BoundSteppedWakes",
                  "Fast engine: while the link is stepped slot by slot (a recovery, flow "
                  "control) and no device has sinks of the protocol events (TxStateChange, "
                  "FrameError, ReplayStart, ...), wake only for deliveries and the TX events "
                  "the devices need (RiflLinkEngine::NextWakeSlot()); false wakes in every "
                  "stepped slot. Deliveries, events and counters are identical either way "
                  "(a sink connected during the run sees events from the link's next wake-up "
                  "on in their own slot).",
                  BooleanValue(true), MakeBooleanAccessor(&RiflChannel::m_stepWakes),
                  MakeBooleanChecker())
              .AddAttribute(
                  "Split",
                  "Run each device's end on its own half engine (the reference slot engine in "
                  "split mode, whatever Engine says), the two exchanging line frames through "
                  "scheduled events that take the Delay attribute's lookahead: the structure "
                  "of a run on two ns-3 MPI ranks, in one process. Results equal the "
                  "unsplit link's; for validating distributed runs (one step per slot).",
                  BooleanValue(false),
                  MakeLinkAttributeAccessor<RiflChannel>(
                      MakeBooleanAccessor(&RiflChannel::m_split)),
                  MakeBooleanChecker())
              .AddAttribute("Delay",
                            "Read only: the lookahead of a distributed run on this link, "
                            "floor((L + 4) S / LaneRate) with L the one-way line delay in "
                            "slots (RiflChannel::GetDelay(); needs both devices attached).",
                            TypeId::ATTR_GET, TimeValue(Seconds(0)),
                            MakeTimeAccessor(&RiflChannel::GetDelay), MakeTimeChecker())
              .AddTraceSource("Delivery",
                              "The engine delivered a packet (endpoint, slots, per-word latencies "
                              "in slots) and whether its bytes were corrupted.",
                              MakeTraceSourceAccessor(&RiflChannel::m_deliveryTrace),
                              "ns3::RiflChannel::DeliveryTracedCallback");
    return tid;
}

RiflChannel::RiflChannel()
    : m_cableDelay(NanoSeconds(5))
{
    NS_LOG_FUNCTION(this);
}

RiflChannel::~RiflChannel()
{
    NS_LOG_FUNCTION(this);
}

void
RiflChannel::DoDispose()
{
    for (Driver& d : m_drivers)
    {
        ++d.wakeGeneration; // a pending wake-up does nothing now
        d.wakePending = false;
        d.engine.reset();
        d.events.clear(); // held between runs (CatchUp()), never handed over now
        d.deliveries.clear();
    }
    m_devices = {};
    m_errors.clear();
    m_syncLoss.clear();
    m_inFlight[0].clear();
    m_inFlight[1].clear();
    m_announced[0].clear();
    m_announced[1].clear();
    m_sentFrames = {0, 0};
    m_announcedFrames = {0, 0};
    m_transport[0].Clear();
    m_transport[1].Clear();
    Channel::DoDispose();
}

void
RiflChannel::Attach(Ptr<RiflNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    RIFL_CHECK_ARG(m_nDevices >= 2, "RiflChannel::Attach: a RIFL link has exactly 2 devices");
    m_devices[m_nDevices++] = device;
    if (m_nDevices == 2)
    {
        // The link starts when the simulation reaches the current time (both
        // devices' attributes are final by then).
        Simulator::ScheduleNow(&RiflChannel::Start, this);
    }
}

std::size_t
RiflChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
RiflChannel::GetDevice(std::size_t i) const
{
    RIFL_CHECK_INDEX(i >= m_nDevices, "RiflChannel::GetDevice: i = " << i << " but " << m_nDevices
                                                                     << " devices are attached");
    return m_devices[i];
}

uint32_t
RiflChannel::GetEndpoint(Ptr<const RiflNetDevice> device) const
{
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        if (PeekPointer(m_devices[i]) == PeekPointer(device))
        {
            return i;
        }
    }
    RIFL_CHECK_ARG(true, "RiflChannel: the device is not attached to this channel");
    return 0;
}

void
RiflChannel::SetErrorProcess(uint32_t sender, uint32_t lane, Ptr<BitErrorProcess> process)
{
    RIFL_CHECK_ARG(sender > 1,
                   "RiflChannel::SetErrorProcess: sender = " << sender << " is not 0 or 1");
    RIFL_CHECK_ARG(lane > 15,
                   "RiflChannel::SetErrorProcess: lane = " << lane << " is out of range [0, 15]");
    RIFL_CHECK_ARG(m_started, "RiflChannel::SetErrorProcess: the link has already started");
    m_errors[{sender, lane}] = process;
}

Ptr<BitErrorProcess>
RiflChannel::GetErrorProcess(uint32_t sender, uint32_t lane) const
{
    auto it = m_errors.find({sender, lane});
    return it == m_errors.end() ? nullptr : it->second;
}

void
RiflChannel::SetSyncLossProcess(uint32_t sender, uint32_t lane, Ptr<SyncLossProcess> process)
{
    RIFL_CHECK_ARG(sender > 1,
                   "RiflChannel::SetSyncLossProcess: sender = " << sender << " is not 0 or 1");
    RIFL_CHECK_ARG(lane > 15, "RiflChannel::SetSyncLossProcess: lane = "
                                  << lane << " is out of range [0, 15]");
    RIFL_CHECK_ARG(m_started, "RiflChannel::SetSyncLossProcess: the link has already started");
    m_syncLoss[{sender, lane}] = process;
}

void
RiflChannel::EnsureProcesses()
{
    RIFL_CHECK_ARG(!(m_ber < 1.0), "RiflChannel: Ber = " << m_ber << " is outside [0, 1)");
    if (m_ber <= 0.0 || m_nDevices < 1)
    {
        return;
    }
    uint32_t lanes = 0;
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        lanes = std::max(lanes, m_devices[i]->GetLinkConfig().lanes);
    }
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t l = 0; l < lanes; ++l)
        {
            if (m_errors.find({s, l}) == m_errors.end())
            {
                Ptr<IndependentBitErrorProcess> p = CreateObject<IndependentBitErrorProcess>();
                p->SetBer(m_ber);
                m_errors[{s, l}] = p;
            }
        }
    }
}

int64_t
RiflChannel::AssignStreams(int64_t stream)
{
    EnsureProcesses();
    int64_t used = 0;
    for (auto& kv : m_errors)
    {
        if (kv.second)
        {
            used += kv.second->AssignStreams(stream + used);
        }
    }
    for (auto& kv : m_syncLoss)
    {
        if (kv.second)
        {
            used += kv.second->AssignStreams(stream + used);
        }
    }
    m_firstStream = stream;
    return used;
}

std::vector<uint32_t>
RiflChannel::ParseLaneSkew(const std::string& text)
{
    std::vector<uint32_t> out;
    std::size_t pos = 0;
    while (pos <= text.size() && !text.empty())
    {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        std::string item = text.substr(pos, comma - pos);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        const bool digits = !item.empty() && item.size() <= 6
                            && item.find_first_not_of("0123456789") == std::string::npos;
        RIFL_CHECK_ARG(!digits || std::stoul(item) > 100000,
                       "RiflChannel: LaneSkew entry " << out.size() << " = \"" << item
                                                      << "\" is not a slot count 0..100000 (\""
                                                      << text << "\")");
        out.push_back(static_cast<uint32_t>(std::stoul(item)));
        pos = comma + 1;
    }
    return out;
}

RiflLinkConfig
RiflChannel::BuildConfig() const
{
    RIFL_CHECK_ARG(m_nDevices != 2,
                   "RiflChannel: the link needs 2 devices, " << m_nDevices << " attached");
    RiflLinkConfig a = m_devices[0]->GetLinkConfig();
    const RiflLinkConfig b = m_devices[1]->GetLinkConfig();
    auto same = [](const char* name, double x, double y)
    {
        RIFL_CHECK_ARG(x != y, "RiflChannel: the two devices disagree on ns3::RiflNetDevice::"
                                   << name << " (" << x << " vs " << y
                                   << "); both ends of a RIFL link must use the same value");
    };
    same("FrameSize", a.frameSize, b.frameSize);
    same("Lanes", a.lanes, b.lanes);
    same("LaneRate", a.laneRateGbps, b.laneRateGbps);
    same("FrameIdWidth", a.frameIdWidth, b.frameIdWidth);
    same("TransceiverDelay", a.transceiverDelayNs, b.transceiverDelayNs);
    same("ReplayTail", static_cast<int>(a.replayTail), static_cast<int>(b.replayTail));
    same("CorrectedTail", a.correctedTailSlots, b.correctedTailSlots);
    same("Startup", static_cast<int>(a.startup), static_cast<int>(b.startup));
    same("RxUpSlots", a.rxUpSlots, b.rxUpSlots);
    same("UserWordBytes", a.userWordBytes, b.userWordBytes);
    // Per-device values (each GetLinkConfig() holds its own in index 0).
    a.clockOffsetPpm[1] = b.clockOffsetPpm[0];
    a.clockCompensation[1] = b.clockCompensation[0];
    // Each device's receiving side uses its own DrainRate and FcFifoDepth.
    a.endpointDrainRate = {a.drainFramesPerSlot, b.drainFramesPerSlot};
    a.endpointFcFifoDepth = {a.fcFifoDepth, b.fcFifoDepth};
    a.cableLengthM = m_cableLength;
    a.cableDelayNsPerM = m_cableDelay.GetSeconds() * 1e9;
    a.lineDelaySlots = m_lineDelaySlots;
    a.laneSkewSlots = ParseLaneSkew(m_laneSkew);
    a.Validate();
    return a;
}

void
RiflChannel::Start()
{
    if (m_started)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_config = BuildConfig();
    m_holdFrames = static_cast<uint64_t>(m_config.lanes) * (m_config.GetBufferDepth() + 2);
    EnsureProcesses();
    m_started = true;
    m_lookahead = GetDelay();
    // Across MPI ranks each rank runs only its own end: a split link.
    m_remote = !(IsLocal(0) && IsLocal(1));
    NS_ABORT_MSG_IF(m_remote && !m_lookahead.IsStrictlyPositive(),
                    "RiflChannel: the link between nodes "
                        << m_devices[0]->GetNode()->GetId() << " and "
                        << m_devices[1]->GetNode()->GetId()
                        << " spans MPI ranks with a lookahead (Delay) of 0 at this time "
                           "resolution; lengthen the cable (LineDelaySlots, CableLength) or "
                           "use a finer Time resolution");
    if (m_remote)
    {
        m_split = true;
        for (uint32_t e = 0; e < 2; ++e)
        {
            if (IsLocal(e))
            {
                m_transport[e].SetEnds(m_devices[e], m_devices[1 - e], "RiflChannel");
            }
        }
    }
    const uint32_t nDrivers = m_split ? 2 : 1;
    for (uint32_t d = 0; d < nDrivers; ++d)
    {
        Driver& drv = m_drivers[d];
        if (m_split && !IsLocal(d))
        {
            continue; // the other rank runs it
        }
        if (m_split)
        {
            auto half = std::make_unique<RiflReferenceEngine>(m_config);
            half->SetRecordHistory(false);
            half->SetLocalEndpoint(d);
            half->SetLineOutCallback(
                [this, d](uint32_t lane, const RiflReferenceEngine::LineFrame& f)
                {
                    SendLine(d, lane, f);
                });
            drv.engine = std::move(half);
        }
        else if (m_engineType == REFERENCE)
        {
            auto ref = std::make_unique<RiflReferenceEngine>(m_config);
            // deliveries are consumed through the callbacks: keep no history
            ref->SetRecordHistory(false);
            drv.engine = std::move(ref);
        }
        else
        {
            auto fast = std::make_unique<RiflFastEngine>(m_config);
            fast->SetStartupTemplates(m_startupTemplates);
            drv.engine = std::move(fast);
        }
        for (auto& kv : m_errors)
        {
            // with Split, the errors of a direction are applied by the receiving half
            if (!m_split || kv.first.first != d)
            {
                drv.engine->SetErrorProcess(kv.first.first, kv.first.second, kv.second);
            }
        }
        for (auto& kv : m_syncLoss)
        {
            if (!m_split || kv.first.first != d)
            {
                drv.engine->SetSyncLossProcess(kv.first.first, kv.first.second, kv.second);
            }
        }
        drv.engine->SetDeliveryCallback(
            [&drv](RiflDelivery&& delivery)
            {
                drv.deliveries.push_back(std::move(delivery));
            });
        drv.engine->SetEventCallback(
            [&drv](const RiflLinkEvent& e)
            {
                drv.events.push_back(e);
            });
    }
    m_clock.Start(Simulator::Now(), m_config.frameSize,
                  static_cast<uint64_t>(std::llround(m_config.laneRateGbps * 1e9)));
    for (uint32_t i = 0; i < 2; ++i)
    {
        if (IsLocal(i))
        {
            m_devices[i]->NotifyLinkUp();
        }
    }
    for (uint32_t d = 0; d < nDrivers; ++d)
    {
        Reschedule(d);
    }
}

bool
RiflChannel::IsLinkStarted() const
{
    return m_started;
}

bool
RiflChannel::IsLocal(uint32_t endpoint) const
{
    RIFL_CHECK_ARG(endpoint >= m_nDevices,
                   "RiflChannel::IsLocal: endpoint = " << endpoint << " but " << m_nDevices
                                                       << " devices are attached");
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        return m_devices[endpoint]->GetNode()->GetSystemId() == MpiInterface::GetSystemId();
    }
#endif
    return true;
}

void
RiflChannel::SendLine(uint32_t sender, uint32_t lane, const RiflReferenceEngine::LineFrame& f)
{
    // Made in slot f.lineSlot - 1, at the start of f.lineSlot; due in the peer's slot
    // f.lineSlot + L_l + 4, which runs at the start of the next one: sent to arrive at
    // the start of f.lineSlot + L + 4, GetDelay() or more after now and strictly
    // before it is due.
    const Time at = GetSlotStart(f.lineSlot + m_config.GetLineDelaySlots() + 4);
    const Time now = Simulator::Now();
    NS_ABORT_MSG_IF(at < now + m_lookahead, "RiflChannel (Split): a line frame of line slot "
                                                << f.lineSlot << " made at " << now
                                                << " would arrive less than Delay later");
    const uint32_t rx = 1 - sender;
    if (IsLocal(rx))
    {
        Simulator::ScheduleWithContext(m_devices[rx]->GetNode()->GetId(), at - now,
                                       &RiflChannel::ReceiveLine, Ptr<RiflChannel>(this), rx, lane,
                                       f);
        return;
    }
    const auto* half = static_cast<const RiflReferenceEngine*>(m_drivers[sender].engine.get());
    m_transport[sender].SendItem(half->EncodeLineFrame(lane, f), at);
}

void
RiflChannel::SendPacketRemote(uint32_t sender, uint64_t id, Ptr<const Packet> packet)
{
    // It cannot be delivered before its first frame crossed the line: Delay is enough.
    m_transport[sender].SendPacket(id, packet, Simulator::Now() + m_lookahead);
}

void
RiflChannel::ReceiveRemote(Ptr<RiflNetDevice> device, Ptr<Packet> message)
{
    const uint32_t rx = GetEndpoint(device);
    const uint32_t sender = 1 - rx;
    m_transport[rx].Receive(
        message,
        [this, rx](const uint8_t* data, std::size_t size)
        {
            const auto* half = dynamic_cast<const RiflReferenceEngine*>(m_drivers[rx].engine.get());
            NS_ABORT_MSG_IF(half == nullptr || !m_split, "RiflChannel: a line frame for endpoint "
                                                             << rx << ", which is not local");
            uint32_t lane = 0;
            RiflReferenceEngine::LineFrame f;
            try
            {
                f = half->DecodeLineFrame(data, size, lane);
            }
            catch (const std::invalid_argument& e)
            {
                NS_FATAL_ERROR("RiflChannel: malformed remote line frame: " << e.what());
            }
            ReceiveLine(rx, lane, f);
        },
        [this, sender](uint64_t id, Ptr<Packet> packet)
        {
            auto& announced = m_announced[sender];
            NS_ABORT_MSG_IF(!announced.empty() && announced.back().id >= id,
                            "RiflChannel: remote packet " << id << " announced out of order");
            m_announcedFrames[sender]
                += RiflFrame::FramesForPacket(m_config.frameSize, packet->GetSize());
            announced.push_back(HeldPacket{id, packet, m_announcedFrames[sender]});
        });
}

const RiflLinkConfig&
RiflChannel::GetConfig() const
{
    return m_config;
}

RiflLinkEngine*
RiflChannel::GetEngine() const
{
    return m_drivers[0].engine.get();
}

RiflLinkEngine*
RiflChannel::GetEngine(uint32_t endpoint) const
{
    RIFL_CHECK_ARG(endpoint > 1,
                   "RiflChannel::GetEngine: endpoint = " << endpoint << " is not 0 or 1");
    return m_drivers[DriverOf(endpoint)].engine.get();
}

Time
RiflChannel::GetDelay() const
{
    if (!m_started && m_nDevices < 2)
    {
        return Time(0); // no link yet (an attribute dump reads it)
    }
    const RiflLinkConfig c = m_started ? m_config : BuildConfig();
    SlotClock clock;
    clock.Start(Time(0), c.frameSize, static_cast<uint64_t>(std::llround(c.laneRateGbps * 1e9)));
    return clock.GetSlotStart(c.GetLineDelaySlots() + 4);
}

Time
RiflChannel::GetSlotDuration() const
{
    return GetSlotStart(1) - GetSlotStart(0);
}

Time
RiflChannel::GetSlotStart(uint64_t slot) const
{
    return m_clock.GetSlotStart(slot);
}

uint64_t
RiflChannel::Send(Ptr<RiflNetDevice> device, Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << device << packet);
    const DeviceCallScope scope;
    if (!m_started)
    {
        Start();
    }
    const uint32_t ep = GetEndpoint(device);
    const uint32_t d = DriverOf(ep);
    NS_ABORT_MSG_IF(!m_drivers[d].engine, "RiflChannel: device of node "
                                              << device->GetNode()->GetId()
                                              << " sends, but its node is on another rank");
    const uint64_t id = m_nextPacketId[ep]++;
    // The device hands the packet over for good: no copy is needed to keep what was
    // sent, and the engine reads its bytes only if a frame or a delivery needs them.
    auto payload = std::make_shared<const RiflPayload>(packet);
    // An engine that can take it at its arrival slot need not run up to now first
    // (whole-link engines only: a split half exchanges its line with the peer's rank).
    RiflLinkEngine& engine = *m_drivers[d].engine;
    const bool deferred
        = m_deferOffers && !m_split && !m_remote && !m_drivers[d].inEngine
          && engine.OfferPayloadAt(ep, id, payload, m_clock.SlotAt(Simulator::Now()));
    if (!deferred)
    {
        CatchUp(d);
    }
    m_sentFrames[ep] += RiflFrame::FramesForPacket(m_config.frameSize, packet->GetSize());
    m_inFlight[ep].push_back(HeldPacket{id, packet, m_sentFrames[ep]}); // ids increase
    if (m_remote)
    {
        SendPacketRemote(ep, id, packet);
    }
    if (!deferred)
    {
        engine.OfferPayload(ep, id, std::move(payload));
    }
    const Driver& drv = m_drivers[d];
    if (deferred && drv.wakePending && drv.wakeSlot <= engine.BoundFirstArrival(ep))
    {
        // The wake-up due comes before anything the packet brings, and reschedules
        // with it: no need to ask the engine now.
        return id;
    }
    Reschedule(d);
    return id;
}

uint64_t
RiflChannel::GetPendingPackets(Ptr<const RiflNetDevice> device) const
{
    const uint32_t ep = GetEndpoint(device);
    const RiflLinkEngine* e = m_drivers[DriverOf(ep)].engine.get();
    return e ? e->GetPendingPackets(ep) : 0;
}

uint64_t
RiflChannel::GetPendingPacketsNow(Ptr<RiflNetDevice> device, uint64_t enough)
{
    const uint32_t ep = GetEndpoint(device);
    Driver& drv = m_drivers[DriverOf(ep)];
    if (!drv.engine)
    {
        return 0;
    }
    const uint64_t lagging = drv.engine->GetPendingPackets(ep);
    if (!m_started || m_txWakes[ep][1] || lagging < enough)
    {
        return lagging;
    }
    // The engine may have run past TX_ENDs of this device unseen. Where offers are
    // deferred it need not catch up when it can count them without running.
    uint64_t pending = 0;
    if (m_deferOffers && !m_split && !m_remote && !drv.inEngine
        && drv.engine->PredictPendingPackets(ep, m_clock.SlotAt(Simulator::Now()), &pending))
    {
        return pending;
    }
    const DeviceCallScope scope;
    CatchUp(DriverOf(ep));
    return drv.engine ? drv.engine->GetPendingPackets(ep) : 0;
}

void
RiflChannel::RequireTxEndWake(Ptr<RiflNetDevice> device)
{
    const uint32_t ep = GetEndpoint(device);
    if (m_started && !m_txWakes[ep][1])
    {
        Reschedule(DriverOf(ep));
    }
}

uint64_t
RiflChannel::GetHeldPacketEnds(Ptr<const RiflNetDevice> device) const
{
    const uint32_t ep = GetEndpoint(device);
    const RiflLinkEngine* e = m_drivers[DriverOf(ep)].engine.get();
    return e ? e->GetHeldPacketEnds(ep) : 0;
}

void
RiflChannel::CatchUpNow(uint32_t endpoint)
{
    RIFL_CHECK_ARG(endpoint > 1,
                   "RiflChannel::CatchUpNow: endpoint = " << endpoint << " is not 0 or 1");
    if (m_started)
    {
        const DeviceCallScope scope;
        const uint32_t d = DriverOf(endpoint);
        CatchUp(d);
        Reschedule(d);
    }
}

void
RiflChannel::ReceiveLine(uint32_t rx, uint32_t lane, const RiflReferenceEngine::LineFrame& frame)
{
    Driver& drv = m_drivers[rx];
    if (!drv.engine)
    {
        return; // disposed
    }
    try
    {
        static_cast<RiflReferenceEngine*>(drv.engine.get())->ReceiveLineFrame(lane, frame);
    }
    catch (const std::exception& e)
    {
        NS_FATAL_ERROR("RiflChannel: " << e.what());
    }
}

void
RiflChannel::CatchUp(uint32_t d, bool inEvent)
{
    Driver& drv = m_drivers[d];
    if (!drv.engine || drv.inEngine)
    {
        return;
    }
    const uint64_t now = m_clock.SlotAt(Simulator::Now());
    if (drv.engine->GetSlot() < now)
    {
        // Sinks of the Delivery trace see every delivery in full; without them the
        // channel needs no bytes or word latencies of an intact one.
        drv.engine->SetLeanDeliveries(m_deliveryTrace.IsEmpty());
        drv.inEngine = true;
        try
        {
            drv.engine->AdvanceTo(now);
        }
        catch (const std::exception& e)
        {
            // an engine refusing its input (e.g. a split half missing a line frame)
            // ends the run with its message, not an exception through ns-3's scheduler
            drv.inEngine = false;
            NS_FATAL_ERROR("RiflChannel: " << e.what());
        }
        drv.inEngine = false;
    }
    if (drv.events.empty() && drv.deliveries.empty())
    {
        return; // nothing to hand over
    }
    if (!inEvent && Simulator::IsFinished())
    {
        // Between runs (a read such as RiflNetDevice::GetCounters() after Run()
        // returned): what the engine reported waits for the wake-up Reschedule()
        // asks for at this instant, which hands it over if the run goes on (its own
        // wake-up, due now, may still be pending behind the Stop event). A wake-up is
        // an event of the run even when ns-3 calls the run finished (its last event).
        return;
    }
    Dispatch(d);
}

void
RiflChannel::Wake(uint32_t d, uint64_t generation)
{
    Driver& drv = m_drivers[d];
    if (generation != drv.wakeGeneration)
    {
        return; // replaced by a later Reschedule()
    }
    drv.wakePending = false;
    drv.wakeSlot = RiflLinkEngine::NEVER;
    CatchUp(d, true);
    Reschedule(d);
}

void
RiflChannel::RunWakes(int64_t ts)
{
    const auto it = g_calendar.find(ts);
    if (it == g_calendar.end())
    {
        return; // dropped with its simulation
    }
    std::vector<CalendarWake> due;
    due.swap(it->second);
    g_calendar.erase(it);
    for (const CalendarWake& w : due)
    {
        w.channel->Wake(w.driver, w.generation);
    }
    due.clear();
    g_calendarPool.push_back(std::move(due));
}

void
RiflChannel::Dispatch(uint32_t d)
{
    Driver& drv = m_drivers[d];
    // Deliveries and events are handed over only after the engine returned, so that
    // an upper layer sending in response re-enters the channel safely.
    while (!drv.events.empty() || !drv.deliveries.empty())
    {
        // Taken out first (a device may re-enter the channel); the emptied vectors
        // go back afterwards so that their capacity is reused.
        std::vector<RiflLinkEvent> events;
        events.swap(drv.events);
        std::vector<RiflDelivery> deliveries;
        deliveries.swap(drv.deliveries);
        for (const RiflLinkEvent& ev : events)
        {
            Ptr<RiflNetDevice> dev = m_devices[ev.endpoint];
            const bool observed = dev->IsEventObserved(ev.type);
            Ptr<const Packet> pkt;
            if (observed
                && (ev.type == RiflLinkEventType::TX_BEGIN || ev.type == RiflLinkEventType::TX_END))
            {
                pkt = FindInFlight(ev.endpoint, ev.packetId);
            }
            if (m_remote && ev.type == RiflLinkEventType::TX_END)
            {
                // the peer's rank delivers it (from its announced copy): done here
                auto& sent = m_inFlight[ev.endpoint];
                while (!sent.empty() && sent.front().id <= ev.packetId)
                {
                    sent.pop_front();
                }
            }
            if (!observed)
            {
                continue; // no sink and nothing to do: no event for it
            }
            // Each device runs in its own node's context (ns-3 requires it of a
            // channel handing work to a node), at this same instant, in order:
            // directly when this is already its context.
            HandOver(dev, &RiflNetDevice::NotifyEvent, ev, pkt);
        }
        for (const RiflDelivery& d : deliveries)
        {
            const uint32_t sender = 1 - d.endpoint;
            Ptr<Packet> delivered;
            bool corrupt = true;
            auto& sent = m_remote ? m_announced[sender] : m_inFlight[sender];
            // A lean delivery is the packet offered, which its payload leads to: no
            // lookup in the held packets (a cache miss per delivery on a large
            // fabric) but on one such delivery in RELEASE_EVERY, which releases the
            // packets it makes old (they are kept a little longer, never less).
            Ptr<const Packet> source
                = d.lean && d.source && !m_remote ? d.source->GetPacket() : nullptr;
            if (source && ++m_sourcedDeliveries[sender] % RELEASE_EVERY != 0)
            {
                m_deliveryTrace(d, false);
                HandOver(m_devices[d.endpoint], &RiflNetDevice::Receive, source->Copy(), false);
                continue;
            }
            const HeldPacket* held = FindById(sent, d.packetId);
            if (held)
            {
                const Ptr<Packet> original = held->packet;
                if (d.intact && (d.lean || original->GetSize() == d.content.size()))
                {
                    corrupt = false; // the engine handed back the offered bytes
                }
                else if (original->GetSize() == d.content.size())
                {
                    std::vector<uint8_t> sentBytes(original->GetSize());
                    original->CopyData(sentBytes.data(), sentBytes.size());
                    corrupt = sentBytes != d.content;
                }
                if (!corrupt)
                {
                    // Deliver the original packet object: its tags (FlowMonitor,
                    // applications) survive, exactly as on ns-3's own channels.
                    delivered = original->Copy();
                }
                // Packets older than this one by m_holdFrames user frames have left
                // every retransmission buffer: no replay can deliver them again.
                const uint64_t framesEnd = held->framesEnd;
                while (!sent.empty() && sent.front().framesEnd + m_holdFrames <= framesEnd)
                {
                    sent.pop_front();
                }
            }
            if (!delivered)
            {
                // A lean delivery is intact and in order: its packet is still held.
                NS_ABORT_MSG_IF(d.lean, "RiflChannel: lean delivery of packet " << d.packetId
                                                                                << " not held");
                delivered = Create<Packet>(d.content.data(), d.content.size());
            }
            m_deliveryTrace(d, corrupt);
            Ptr<RiflNetDevice> rx = m_devices[d.endpoint];
            HandOver(rx, &RiflNetDevice::Receive, delivered, corrupt);
        }
        events.clear();
        deliveries.clear();
        if (drv.events.empty())
        {
            drv.events.swap(events);
        }
        if (drv.deliveries.empty())
        {
            drv.deliveries.swap(deliveries);
        }
    }
}

Ptr<Packet>
RiflChannel::FindInFlight(uint32_t sender, uint64_t id) const
{
    const HeldPacket* held = FindById(m_inFlight[sender], id);
    return held ? held->packet : nullptr;
}

void
RiflChannel::Reschedule(uint32_t d)
{
    Driver& drv = m_drivers[d];
    if (!drv.engine)
    {
        return;
    }
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        if (DriverOf(ep) != d)
        {
            continue;
        }
        const std::array<bool, 2> want{m_devices[ep]->IsEventObserved(RiflLinkEventType::TX_BEGIN),
                                       m_devices[ep]->NeedsTxEndWake()};
        if (want != m_txWakes[ep])
        {
            m_txWakes[ep] = want;
            drv.engine->SetTxEventWakes(ep, want[0], want[1]);
        }
    }
    uint64_t next = drv.engine->NextEventSlot();
    if (!drv.events.empty() || !drv.deliveries.empty())
    {
        // Held over between runs (CatchUp()): handed over at this instant if the run
        // goes on (the engine has reported slot GetSlot() - 1 at least, so GetSlot() is
        // not 0, and that slot's wake-up is due at the start of GetSlot(), not after
        // now). A wake-up pending for that slot or an earlier one is due now already:
        // it is kept, in its place among this instant's events.
        NS_ABORT_MSG_IF(drv.engine->GetSlot() == 0,
                        "RiflChannel: the engine reported something before its first slot");
        const uint64_t due = drv.engine->GetSlot() - 1;
        if (drv.wakePending && drv.wakeSlot <= due)
        {
            return;
        }
        next = std::min(next, due);
    }
    else if (next == drv.engine->GetSlot() && !m_split && m_stepWakes)
    {
        // A stepped link (a recovery, flow control): without sinks of the protocol
        // events only deliveries and the TX events asked for need their own slot.
        bool observed = false;
        for (uint32_t ep = 0; ep < 2 && !observed; ++ep)
        {
            observed = m_devices[ep]->ObservesLinkEvents();
        }
        if (!observed)
        {
            next = drv.engine->NextWakeSlot();
        }
    }
    if (next == RiflLinkEngine::NEVER)
    {
        ++drv.wakeGeneration;
        drv.wakePending = false;
        drv.wakeSlot = RiflLinkEngine::NEVER;
        return;
    }
    if (drv.wakePending && drv.wakeSlot == next)
    {
        return;
    }
    // ScheduleWithContext() gives no EventId to cancel: a replaced wake-up is
    // recognised by its number instead (and holds a reference to the channel).
    const uint64_t generation = ++drv.wakeGeneration;
    drv.wakePending = true;
    drv.wakeSlot = next;
    // The engine reports slot `next` once it has run it, i.e. at the start of next + 1.
    const Time at = GetSlotStart(next + 1);
    const Time now = Simulator::Now();
    const Time delay = at > now ? at - now : Time(0);
    if (CanonicalTies())
    {
        // Its hand-overs wait for the canonical order of their instant, so the order
        // of one instant's wake-ups changes nothing: they share one event, which runs
        // them in the order they were scheduled (without a node's context: they call
        // no device directly).
        const int64_t ts = (now + delay).GetTimeStep();
        const auto [slot, fresh] = g_calendar.try_emplace(ts);
        if (fresh)
        {
            if (!g_calendarPool.empty())
            {
                slot->second.swap(g_calendarPool.back());
                g_calendarPool.pop_back();
            }
            Simulator::ScheduleWithContext(Simulator::NO_CONTEXT, delay, &RiflChannel::RunWakes,
                                           ts);
        }
        slot->second.push_back(CalendarWake{Ptr<RiflChannel>(this), d, generation});
        return;
    }
    // In the context of the node the engine expects to call back, which lets
    // Dispatch() call that device at once instead of through one more event (a half
    // engine only ever calls back its own endpoint).
    const uint32_t hint = m_split ? d : drv.engine->NextEventEndpoint();
    if (hint < 2)
    {
        Simulator::ScheduleWithContext(m_devices[hint]->GetNode()->GetId(), delay,
                                       &RiflChannel::Wake, Ptr<RiflChannel>(this), d, generation);
    }
    else
    {
        Simulator::Schedule(delay, &RiflChannel::Wake, Ptr<RiflChannel>(this), d, generation);
    }
}

} // namespace ns3

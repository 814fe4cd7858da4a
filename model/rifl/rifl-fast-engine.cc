/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-fast-engine.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rifl-check.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflFastEngine");

namespace
{
/// Slots from a frame on the line to the receiver's flags used by its TX (§11.1), beyond L.
constexpr uint64_t FLAG_DELAY = 4;
/// Slots from a frame on the line to the receiving user (§11.1), beyond L.
constexpr uint64_t USER_DELAY = 6;
/// Largest packet accepted by OfferPacket().
constexpr std::size_t MAX_PACKET_BYTES = 100000000;
/// Quiet slots beyond L needed before a jump (line flushed, 16-frame key/aligner windows).
constexpr uint64_t QUIET_MARGIN = 24;
/// Steady slots beyond L needed before a loaded jump: every frame on the line and in the
/// flag pipeline (the last L + FLAG_DELAY slots) was sent in a steady slot; the rest of the
/// state IsLoadedSteady() checks itself.
constexpr uint64_t STEADY_MARGIN = FLAG_DELAY + 1;
/// Shortest loaded jump worth its set-up (slots).
constexpr uint64_t MIN_LOADED_JUMP = 1;
/// Sparse stepping: slots to the AdvanceTo() target below which no entry is tried.
constexpr uint64_t SPARSE_MIN_SLOTS = 4;
/// Sparse stepping: slots after a failed entry before the next try.
constexpr uint64_t SPARSE_RETRY_SLOTS = 4;
/// Start-up templates kept per process (RiflFastEngine::SetStartupTemplates()).
constexpr std::size_t MAX_TEMPLATES = 256;
/// Longest start-up a template is made of (slots).
constexpr uint64_t MAX_TEMPLATE_SLOTS = uint64_t{1} << 22;

/**
 * \param c a configuration.
 * \return every field of \p c, exactly (doubles in hexadecimal): the key of its
 *         start-up template.
 */
std::string
TemplateKey(const RiflLinkConfig& c)
{
#if defined(__x86_64__) && defined(__GLIBCXX__)
    // A field added to RiflLinkConfig changes its size: add it to the key below.
    static_assert(sizeof(RiflLinkConfig) == 176, "RiflLinkConfig changed: update TemplateKey()");
#endif
    std::ostringstream os;
    os << std::hexfloat << c.frameSize << ' ' << c.lanes << ' ' << c.laneRateGbps << ' '
       << c.cableLengthM << ' ' << c.transceiverDelayNs << ' ' << c.cableDelayNsPerM << ' '
       << c.frameIdWidth << ' ' << c.lineDelaySlots << ' ' << c.fcFifoDepth << ' '
       << c.drainFramesPerSlot << ' ' << static_cast<int>(c.replayTail) << ' '
       << c.correctedTailSlots << ' ' << static_cast<int>(c.startup) << ' ' << c.rxUpSlots << ' '
       << c.userWordBytes;
    for (uint32_t e = 0; e < 2; ++e)
    {
        os << ' ' << c.endpointDrainRate[e] << ' ' << c.endpointFcFifoDepth[e] << ' '
           << c.clockOffsetPpm[e] << ' ' << c.clockCompensation[e];
    }
    os << " skew";
    for (uint32_t k : c.laneSkewSlots)
    {
        os << ' ' << k;
    }
    return os.str();
}

/**
 * \param m a Data Frame's meta code.
 * \return true if the frame ends a user packet (TLAST).
 */
bool
IsPacketEnd(RiflFrame::Meta m)
{
    return m == RiflFrame::Meta::LAST_FULL || m == RiflFrame::Meta::LAST_PARTIAL;
}

/// The frames an engine sends that depend on the frame size alone.
struct ConstantFrames
{
    RiflFrame fill;       //!< MakeFill()
    RiflFrame idle;       //!< MakeIdle()
    RiflFrame pauseReq;   //!< MakePauseRequest()
    RiflFrame retransReq; //!< MakeRetransmitRequest()
    RiflFrame fcPause;    //!< MakeFcNotification(PAUSE)
    RiflFrame fcResume;   //!< MakeFcNotification(RESUME)
};

/**
 * \param frameSize a frame size.
 * \return its constant frames, made on first use and kept for the life of the process.
 */
const ConstantFrames&
GetConstantFrames(uint32_t frameSize)
{
    static std::mutex mutex;
    // Never freed, nor destroyed at exit (so that every frame stays reachable, also for
    // a leak checker): engines held until exit may still point at them.
    static auto* frames = new std::map<uint32_t, const ConstantFrames*>();
    const std::lock_guard<std::mutex> lock(mutex);
    const ConstantFrames*& f = (*frames)[frameSize];
    if (f == nullptr)
    {
        f = new ConstantFrames{
            RiflFrame::MakeFill(frameSize),
            RiflFrame::MakeIdle(frameSize),
            RiflFrame::MakePauseRequest(frameSize),
            RiflFrame::MakeRetransmitRequest(frameSize),
            RiflFrame::MakeFcNotification(frameSize, RiflFrame::FcNotification::PAUSE),
            RiflFrame::MakeFcNotification(frameSize, RiflFrame::FcNotification::RESUME)};
    }
    return *f;
}

/**
 * \brief A shared pointer to a frame that outlives every engine, without a control
 *        block (the aliasing constructor on an empty owner): copying and releasing it
 *        touch no reference count. The fill frame is copied into the line and the
 *        retransmission buffer on every lane of every stepped slot, and each copy and
 *        release of a counted pointer is an atomic operation.
 * \param frame the frame (of GetConstantFrames()).
 * \return the pointer.
 */
std::shared_ptr<const RiflFrame>
Uncounted(const RiflFrame& frame)
{
    return std::shared_ptr<const RiflFrame>(std::shared_ptr<const RiflFrame>(), &frame);
}
} // namespace

RiflFastEngine::RiflFastEngine(const RiflLinkConfig& config)
    : m_config(config)
{
    m_config.Validate();
    m_laneDiv.n = m_config.lanes;
    m_laneDiv.pow2 = (m_config.lanes & (m_config.lanes - 1)) == 0;
    while (m_laneDiv.pow2 && (1u << m_laneDiv.shift) < m_config.lanes)
    {
        ++m_laneDiv.shift;
    }
    m_fid = m_config.GetFrameIdWidth();
    m_payloadBytes = m_config.GetPayloadBytes();
    m_d = m_config.GetBufferDepth();
    m_lineDelay = m_config.GetLineDelaySlots();
    for (uint32_t l = 0; l < m_config.lanes; ++l)
    {
        m_laneDelay.push_back(m_config.GetLaneDelaySlots(l));
    }
    m_maxDelay = m_lineDelay + m_config.GetMaxLaneSkewSlots();
    m_rxUpSlots = m_config.GetRxUpSlots();
    m_fifoDepth = {m_config.GetFcFifoDepth(0), m_config.GetFcFifoDepth(1)};
    m_drainRate = {m_config.GetDrainRate(0), m_config.GetDrainRate(1)};
    m_thrOn = m_config.GetFcThrOn();
    m_thrOff = m_config.GetFcThrOff();
    m_slowEp = m_config.GetSlowEndpoint();
    m_compensated = m_config.IsClockCompensated();
    m_nextSkip = m_config.NextClockSkipSlot(0);
    const uint32_t s = m_config.frameSize;
    const ConstantFrames& constant = GetConstantFrames(s);
    m_fill = Uncounted(constant.fill);
    m_idle = Uncounted(constant.idle);
    m_pauseReq = Uncounted(constant.pauseReq);
    m_retransReq = Uncounted(constant.retransReq);
    m_fcPause = Uncounted(constant.fcPause);
    m_fcResume = Uncounted(constant.fcResume);
    m_cIdle = ContentState(*m_idle);
    m_cPauseReq = ContentState(*m_pauseReq);
    m_cRetransReq = ContentState(*m_retransReq);
    m_cFcPause = ContentState(*m_fcPause);
    m_cFcResume = ContentState(*m_fcResume);
    m_taken.reserve(m_config.lanes);
    for (auto& ep : m_ep)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            // Every other member at its default: a positional initialiser list once put D
            // in rxNextEopSeq after the ground-truth fields were added, so the first
            // hazard on a lane counted packetEndsLost wrong (found by the rifl-engine
            // fuzz target).
            Lane lane(RiflLaneState(m_fid, m_config.GetReplaySlots(), m_config.frameSize));
            lane.fillPushes = m_d; // the buffer starts with D fill frames
            ep.lanes.push_back(std::move(lane));
        }
    }
    NS_LOG_INFO("RiflFastEngine: " << m_config.ToString());
}

/// A start-up template: an engine run from slot 0 without input to its first
/// quiescent slot, and the events it emitted on the way.
struct RiflFastEngine::StartupTemplate
{
    std::unique_ptr<RiflFastEngine> engine; //!< the state at endSlot
    std::vector<RiflLinkEvent> events;      //!< its events, in order
    uint64_t endSlot{0};                    //!< the first quiescent slot
};

std::shared_ptr<const RiflFastEngine::StartupTemplate>
RiflFastEngine::GetStartupTemplate(const RiflLinkConfig& config)
{
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const StartupTemplate>> cache;
    const std::string key = TemplateKey(config);
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = cache.find(key);
    if (it != cache.end())
    {
        return it->second;
    }
    if (cache.size() >= MAX_TEMPLATES)
    {
        return nullptr;
    }
    auto t = std::make_shared<StartupTemplate>();
    t->engine = std::make_unique<RiflFastEngine>(config);
    RiflFastEngine& e = *t->engine;
    e.m_useTemplates = false;
    e.m_templateChecked = true;
    e.SetEventCallback(
        [&events = t->events](const RiflLinkEvent& ev)
        {
            events.push_back(ev);
        });
    while (e.m_slot == 0 || !e.IsQuiescent())
    {
        if (e.m_slot >= MAX_TEMPLATE_SLOTS)
        {
            cache.emplace(key, nullptr);
            return nullptr;
        }
        // Slot by slot to the first quiescent one; the RX-up wait, which cannot end
        // in quiescence, at once.
        e.AdvanceTo(e.m_slot + std::max<uint64_t>(1, e.PauseWaitSlots(MAX_TEMPLATE_SLOTS)));
    }
    e.SetEventCallback(nullptr);
    t->endSlot = e.m_slot;
    NS_LOG_INFO("start-up template of " << config.ToString() << ": " << t->endSlot << " slots, "
                                        << t->events.size() << " events");
    cache.emplace(key, t);
    return t;
}

bool
RiflFastEngine::DecideTemplate()
{
    m_templateChecked = true;
    if (!m_useTemplates || !m_jumps || m_selfCheck || m_trackScrambler || m_started
        || m_slot != 0)
    {
        return false;
    }
    std::shared_ptr<const StartupTemplate> t = GetStartupTemplate(m_config);
    if (!t)
    {
        return false;
    }
    for (const Endpoint& ep : m_ep)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            const Lane& lane = ep.lanes[l];
            if (lane.syncLoss)
            {
                return false;
            }
            if (lane.errors)
            {
                // an error the start-up would receive: run it slot by slot
                const FrameErrorEvent& ev = lane.errors->Peek();
                if (ev.slot != FrameErrorEvent::NO_MORE_ERRORS
                    && ev.slot + m_laneDelay[l] + FLAG_DELAY < t->endSlot)
                {
                    return false;
                }
            }
        }
    }
    m_template = std::move(t);
    m_virtualSlot = 0;
    m_templateEvents = 0;
    return true;
}

void
RiflFastEngine::EmitTemplateEvents(uint64_t slot)
{
    const std::vector<RiflLinkEvent>& events = m_template->events;
    for (; m_templateEvents < events.size() && events[m_templateEvents].slot < slot;
         ++m_templateEvents)
    {
        if (m_eventCb)
        {
            m_eventCb(events[m_templateEvents]);
        }
    }
}

void
RiflFastEngine::AdoptTemplate()
{
    EmitTemplateEvents(m_template->endSlot);
    const std::shared_ptr<const StartupTemplate> t = std::move(m_template);
    // What is this engine's own, not the start-up's.
    DeliveryCallback deliveryCb = std::move(m_deliveryCb);
    EventCallback eventCb = std::move(m_eventCb);
    std::array<std::vector<std::pair<Ptr<BitErrorProcess>, Ptr<SyncLossProcess>>>, 2> processes;
    for (uint32_t e = 0; e < 2; ++e)
    {
        for (const Lane& lane : m_ep[e].lanes)
        {
            processes[e].emplace_back(lane.errors, lane.syncLoss);
        }
    }
    const bool lean = m_lean;
    const auto txWake = m_txWake;
    *this = *t->engine;
    m_deliveryCb = std::move(deliveryCb);
    m_eventCb = std::move(eventCb);
    for (uint32_t e = 0; e < 2; ++e)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            m_ep[e].lanes[l].errors = processes[e][l].first;
            m_ep[e].lanes[l].syncLoss = processes[e][l].second;
        }
    }
    NoteProcesses();
    m_lean = lean;
    m_txWake = txWake;
    m_useTemplates = true;
    m_templateChecked = true;
    m_templatedSlots = t->endSlot;
    m_stepped = 0;
    m_jumped = 0;
    m_pauseWaitJumped = 0;
    m_materialised = 0;
}

void
RiflFastEngine::LeaveTemplate()
{
    if (!m_template)
    {
        return;
    }
    const uint64_t slot = m_virtualSlot;
    m_muteEvents = m_templateEvents;
    m_template.reset();
    AdvanceTo(slot);
    NS_ABORT_MSG_IF(m_muteEvents != 0, "RiflFastEngine: the start-up run again emitted "
                                           << m_templateEvents - m_muteEvents << " of the "
                                           << m_templateEvents << " events its template did");
}

void
RiflFastEngine::SetStartupTemplates(bool on)
{
    if (!on)
    {
        LeaveTemplate();
    }
    m_useTemplates = on;
}

uint64_t
RiflFastEngine::GetTemplatedSlots() const
{
    return m_templatedSlots;
}

const RiflLinkConfig&
RiflFastEngine::GetConfig() const
{
    return m_config;
}

void
RiflFastEngine::CheckIndex(uint32_t endpoint, uint32_t lane) const
{
    RIFL_CHECK_INDEX(endpoint > 1, "RiflFastEngine: endpoint = " << endpoint << " is outside 0..1");
    RIFL_CHECK_INDEX(lane >= m_config.lanes,
                     "RiflFastEngine: lane = " << lane << " is outside 0.." << m_config.lanes - 1);
}

void
RiflFastEngine::SetErrorProcess(uint32_t sender, uint32_t lane, Ptr<BitErrorProcess> process)
{
    CheckIndex(sender, lane);
    LeaveTemplate();
    if (process)
    {
        process->SetFrameBits(m_config.frameSize);
    }
    m_ep[sender].lanes[lane].errors = process;
    NoteProcesses();
}

void
RiflFastEngine::SetSyncLossProcess(uint32_t sender, uint32_t lane, Ptr<SyncLossProcess> process)
{
    CheckIndex(sender, lane);
    LeaveTemplate();
    if (process)
    {
        process->SetSlotDuration(Seconds(m_config.GetSlotTimeNs() * 1e-9));
        // Only a sync loss (all-zero line bits) makes the TX scrambler state
        // observable (see the class description); track it from the first slot.
        RIFL_CHECK_ARG(!m_trackScrambler && (m_started || m_slot != 0),
                       "RiflFastEngine::SetSyncLossProcess: called at slot "
                           << m_slot << " after traffic started; set sync-loss processes "
                           << "before the first packet and slot");
        TrackScrambler();
    }
    m_ep[sender].lanes[lane].syncLoss = process;
    NoteProcesses();
}

void
RiflFastEngine::NoteProcesses()
{
    m_errorHorizonValid = false;
    m_anyProcess = false;
    m_anySyncLoss = false;
    for (const Endpoint& ep : m_ep)
    {
        for (const Lane& lane : ep.lanes)
        {
            m_anyProcess = m_anyProcess || lane.errors || lane.syncLoss;
            m_anySyncLoss = m_anySyncLoss || lane.syncLoss;
        }
    }
}

void
RiflFastEngine::OfferPacket(uint32_t endpoint, uint64_t packetId,
                            const std::vector<uint8_t>& payload)
{
    OfferPayload(endpoint, packetId, std::make_shared<const RiflPayload>(payload));
}

void
RiflFastEngine::OfferPayload(uint32_t endpoint, uint64_t packetId,
                             std::shared_ptr<const RiflPayload> payload)
{
    RequireNotAdvancing("OfferPayload");
    CheckIndex(endpoint, 0);
    QueuedPacket qp = MakeQueued(packetId, std::move(payload));
    RIFL_CHECK_ARG(!m_ep[endpoint].arrivals.empty(),
                   "RiflFastEngine::OfferPayload: endpoint "
                       << endpoint << " has packets offered for later slots (OfferPayloadAt()) "
                       << "that it has not reached: AdvanceTo() them first");
    LeaveTemplate();
    m_started = true;
    Enqueue(endpoint, std::move(qp));
}

RiflFastEngine::QueuedPacket
RiflFastEngine::MakeQueued(uint64_t packetId, std::shared_ptr<const RiflPayload> payload) const
{
    const uint32_t size = payload ? payload->GetSize() : 0;
    RIFL_CHECK_ARG(size == 0 || size > MAX_PACKET_BYTES,
                   "RiflFastEngine: payload size = " << size << " bytes is outside 1..100000000");
    const uint32_t p = m_config.GetPayloadBytes();
    QueuedPacket qp;
    qp.payload = std::move(payload);
    qp.packetId = packetId;
    qp.segments = (size + p - 1) / p;
    return qp;
}

void
RiflFastEngine::Enqueue(uint32_t endpoint, QueuedPacket qp)
{
    m_ep[endpoint].txSegments += qp.segments;
    m_ep[endpoint].txQueue.push_back(std::move(qp));
    ++m_ep[endpoint].pendingPackets;
}

bool
RiflFastEngine::OfferPayloadAt(uint32_t endpoint, uint64_t packetId,
                               std::shared_ptr<const RiflPayload> payload, uint64_t slot)
{
    RequireNotAdvancing("OfferPayloadAt");
    CheckIndex(endpoint, 0);
    if (!m_started || m_template)
    {
        return false; // the start-up template is left by OfferPayload()
    }
    QueuedPacket qp = MakeQueued(packetId, std::move(payload));
    auto& arrivals = m_ep[endpoint].arrivals;
    const uint64_t after = arrivals.empty() ? m_slot : arrivals.back().first;
    RIFL_CHECK_ARG(slot < after, "RiflFastEngine::OfferPayloadAt: slot = "
                                     << slot << " is before " << after
                                     << " (the engine's slot or the previous arrival)");
    if (slot == m_slot)
    {
        Enqueue(endpoint, std::move(qp));
    }
    else
    {
        arrivals.emplace_back(slot, std::move(qp));
        ++m_arrivalCount;
    }
    return true;
}

void
RiflFastEngine::AdmitArrivals()
{
    if (m_arrivalCount == 0)
    {
        return;
    }
    for (uint32_t e = 0; e < 2; ++e)
    {
        auto& arrivals = m_ep[e].arrivals;
        while (!arrivals.empty() && arrivals.front().first <= m_slot)
        {
            NS_ABORT_MSG_IF(arrivals.front().first != m_slot,
                            "RiflFastEngine: ran past the arrival of slot "
                                << arrivals.front().first << " (now " << m_slot << ")");
            Enqueue(e, std::move(arrivals.front().second));
            arrivals.pop_front();
            --m_arrivalCount;
        }
    }
}

uint64_t
RiflFastEngine::NextArrival() const
{
    uint64_t a = NEVER;
    if (m_arrivalCount == 0)
    {
        return a;
    }
    for (const Endpoint& ep : m_ep)
    {
        if (!ep.arrivals.empty())
        {
            a = std::min(a, ep.arrivals.front().first);
        }
    }
    return a;
}

uint64_t
RiflFastEngine::BoundArrival(uint32_t s, uint32_t* hint) const
{
    const auto& arrivals = m_ep[s].arrivals;
    if (arrivals.empty())
    {
        return NEVER;
    }
    // Dealt from its arrival slot on at the earliest, nLanes segments per slot;
    // its last frame reaches the user L + USER_DELAY slots after its line slot at
    // the earliest (the bound the loaded mode uses for the front packet).
    const uint64_t a = arrivals.front().first;
    const uint64_t lastDealt = a + m_laneDiv.Div(arrivals.front().second.segments - 1);
    uint64_t h = NEVER;
    if (m_txWake[s][0])
    {
        h = a;
        *hint = s;
    }
    if (m_txWake[s][1] && lastDealt < h)
    {
        h = lastDealt;
        *hint = s;
    }
    const uint64_t ready = lastDealt + 1 + m_lineDelay + USER_DELAY;
    if (ready < h)
    {
        h = ready;
        *hint = 1 - s;
    }
    return h;
}

uint64_t
RiflFastEngine::BoundArrivalEvents(uint64_t h)
{
    if (m_arrivalCount == 0)
    {
        return h;
    }
    for (uint32_t s = 0; s < 2; ++s)
    {
        uint32_t hint = 2;
        const uint64_t b = BoundArrival(s, &hint);
        if (b < h)
        {
            h = b;
            m_nextEndpoint = hint;
        }
    }
    return h;
}

uint64_t
RiflFastEngine::BoundFirstArrival(uint32_t endpoint)
{
    CheckIndex(endpoint, 0);
    if (m_ep[endpoint].arrivals.empty())
    {
        return 0;
    }
    // NextEventSlot(): a quiescent link that is not steadily loaded wakes at the
    // arrival slot itself; every other case counts BoundArrivalEvents().
    if (IsQuiescent() && !IsLoadedSteady())
    {
        return m_ep[endpoint].arrivals.front().first;
    }
    uint32_t hint = 2;
    return BoundArrival(endpoint, &hint);
}

uint64_t
RiflFastEngine::GetSlot() const
{
    return m_template ? m_virtualSlot : m_slot;
}

void
RiflFastEngine::AdvanceTo(uint64_t slot)
{
    RequireNotAdvancing("AdvanceTo");
    // Marks the run (RequireNotAdvancing()), also when a callback throws out of it.
    struct Advancing
    {
        bool& flag; //!< m_advancing
        ~Advancing()
        {
            flag = false;
        }
    } advancing{m_advancing};
    m_advancing = true;
    if (InTemplate())
    {
        if (slot < m_template->endSlot)
        {
            EmitTemplateEvents(slot);
            m_virtualSlot = std::max(m_virtualSlot, slot);
            return;
        }
        AdoptTemplate();
    }
    while (m_slot < slot)
    {
        // Deferred arrivals (OfferPayloadAt()) join the queue in their slot: a batched
        // jump takes them on the way, every other mode stops there.
        AdmitArrivals();
        if (m_dormant != 0)
        {
            // Sparse stepping goes on while no sender can deal, no error, sync-loss or
            // skip slot comes and the last step had activity (a quiet one may lead to a
            // jump).
            if (m_quietSlots == 0 && NoDealPossible() && m_slot < JumpHorizon())
            {
                Step();
                continue;
            }
            WakeDormant();
        }
        const uint64_t stop = std::min(slot, NextArrival());
        if (IsQuiescent())
        {
            const uint64_t h = std::min(stop, JumpHorizon());
            const uint64_t n = h > m_slot ? (h - m_slot) / m_d * m_d : 0;
            if (n > 0)
            {
                Jump(n);
                continue;
            }
            // The last slots before the catch-up, fewer than D (a jump takes whole D),
            // enter batched mode (which covers idle stretches of any length) instead of
            // being stepped one by one.
            const uint64_t hb = std::min(slot, JumpHorizon());
            if (hb > m_slot && !m_trackScrambler && IsLoadedSteady())
            {
                LoadedJump(hb);
                continue;
            }
        }
        else if (slot - m_slot >= MIN_LOADED_JUMP && (m_batch || LoadedWork()) && IsLoadedSteady())
        {
            // Through the queued segments and their deliveries, up to the next error;
            // in batched mode also through idle stretches (fill frames cost nothing).
            const uint64_t work = LoadedWork();
            const uint64_t h = std::min({m_trackScrambler ? stop : slot, JumpHorizon(),
                                         work != 0 || !m_batch ? m_slot + work : NEVER});
            if (h >= m_slot + MIN_LOADED_JUMP)
            {
                LoadedJump(h);
                continue;
            }
        }
        if (const uint64_t n = PauseWaitSlots(stop))
        {
            PauseWaitJump(n);
            continue;
        }
        if (m_slot >= m_sparseRetry && slot - m_slot >= SPARSE_MIN_SLOTS)
        {
            TryEnterSparse();
        }
        Step();
    }
    AdmitArrivals();
    if (m_dormant != 0)
    {
        WakeDormant(); // nothing outside AdvanceTo() sees a dormant lane
    }
}

uint64_t
RiflFastEngine::NextEventSlot()
{
    m_nextEndpoint = 2;
    if (InTemplate())
    {
        // the template's next event, else its end (where its state is taken)
        const StartupTemplate& t = *m_template;
        return m_templateEvents < t.events.size() ? t.events[m_templateEvents].slot
                                                  : t.endSlot - 1;
    }
    if (IsQuiescent())
    {
        // A deferred arrival on a link that is not steadily loaded may bring any event
        // from its slot on (flow control at a slow drain, skew, ...): wake there.
        const uint64_t h = JumpHorizon();
        const uint64_t a = NextArrival();
        return a == NEVER ? h : IsLoadedSteady() ? BoundArrivalEvents(h) : std::min(h, a);
    }
    if ((m_batch || LoadedWork()) && IsLoadedSteady())
    {
        return BoundArrivalEvents(LoadedNextEvent());
    }
    if (const uint64_t n = PauseWaitSlots(NEVER))
    {
        // The RX-up wait: no callback (no event, delivery or transmission, whatever
        // arrives) in the slots PauseWaitJump() can take at once.
        return m_slot + n;
    }
    m_promisedNow = true;
    return m_slot;
}

uint64_t
RiflFastEngine::NextWakeSlot()
{
    m_promisedNow = false;
    const uint64_t next = NextEventSlot();
    // (JumpHorizon() pops loss-of-sync events a jump passes; a stepped link keeps
    // them for Receive().)
    if (!m_promisedNow || m_batch || !m_jumps || m_selfCheck || m_anySyncLoss)
    {
        return next;
    }
    m_nextEndpoint = 2;
    uint64_t h = BoundArrivalEvents(JumpHorizon());
    for (uint32_t e = 0; e < 2 && h > m_slot; ++e)
    {
        h = std::min(h, BoundSteppedDelivery(e));
        const Endpoint& ep = m_ep[e];
        if ((m_txWake[e][0] || m_txWake[e][1]) && !ep.txQueue.empty())
        {
            // The group takes user data from its round-robin lane on (a stalled lane
            // stalls the group), Lanes segments a slot at most.
            const uint64_t first = m_slot + ep.lanes[ep.txRoundRobin].state.GetUserReadyWait();
            const QueuedPacket& qp = ep.txQueue.front();
            h = std::min(h, m_txWake[e][0] ? first
                                           : first + m_laneDiv.Div(qp.segments - qp.next - 1));
        }
    }
    m_nextEndpoint = 2;
    return std::max(h, m_slot);
}

uint64_t
RiflFastEngine::BoundSteppedDelivery(uint32_t r) const
{
    // Drain() takes the front of the round-robin lane's FIFO, one lane after the
    // other: walk the FIFOs in that order to the first packet end. A lane whose FIFO
    // runs out first waits for its next user frame on the line (any may be taken in,
    // as any may end a packet), or for one sent now.
    const Endpoint& rx = m_ep[r];
    const Endpoint& tx = m_ep[1 - r];
    const uint32_t nLanes = m_config.lanes;
    for (const Lane& lane : rx.lanes)
    {
        if (lane.rxDelta != 0)
        {
            // the descrambler is out of step after line errors: the next frames are
            // decoded from their exact bits, and a fill may turn into a packet end
            return m_slot;
        }
    }
    std::array<std::size_t, 16> taken{};
    for (uint32_t l = rx.rxRoundRobin;; l = l + 1 == nLanes ? 0 : l + 1)
    {
        const Lane& lane = rx.lanes[l];
        if (taken[l] < lane.fifo.size())
        {
            const FifoEntry& e = lane.fifo[taken[l]++];
            if (e.eop)
            {
                return std::max(m_slot, e.readySlot);
            }
            continue;
        }
        for (const LineFrame& f : tx.lanes[l].line)
        {
            if (f.tag.user)
            {
                return std::max(m_slot, f.lineSlot + m_laneDelay[l] + USER_DELAY);
            }
        }
        return m_slot + 1 + m_laneDelay[l] + USER_DELAY;
    }
}

uint32_t
RiflFastEngine::NextEventEndpoint() const
{
    return m_nextEndpoint;
}

void
RiflFastEngine::SetLeanDeliveries(bool on)
{
    m_lean = on;
}

void
RiflFastEngine::SetTxEventWakes(uint32_t endpoint, bool begin, bool end)
{
    CheckIndex(endpoint, 0);
    m_txWake[endpoint] = {begin, end};
}

uint64_t
RiflFastEngine::GetPendingPackets(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].pendingPackets + m_ep[endpoint].arrivals.size();
}

bool
RiflFastEngine::PredictPendingPackets(uint32_t endpoint, uint64_t slot, uint64_t* pending)
{
    CheckIndex(endpoint, 0);
    RIFL_CHECK_ARG(pending == nullptr, "RiflFastEngine::PredictPendingPackets: pending = null");
    if (m_template || !m_started || !m_jumps || m_selfCheck || m_trackScrambler || slot < m_slot)
    {
        return false;
    }
    const Endpoint& ep = m_ep[endpoint];
    const uint64_t total = ep.pendingPackets + ep.arrivals.size();
    if (slot == m_slot || total == 0)
    {
        *pending = total;
        return true;
    }
    // AdvanceTo(slot) would take a batched jump (or steps equal to one) to slot.
    // (IsLoadedSteady() first: it holds only past the start-up, and JumpHorizon()
    // pops the sync-loss events that have ended before the next line slot received.)
    if (!IsLoadedSteady() || JumpHorizon() < slot)
    {
        return false;
    }
    // BatchJump()'s dealing, counted only: frame j of a stretch from slot te goes in
    // slot te + j / Lanes; a packet is done when its last frame is before slot.
    const uint64_t lanes = m_config.lanes;
    uint64_t te = m_slot;
    uint64_t j = 0;
    uint64_t limit = (slot - te) * lanes;
    uint64_t done = 0;
    bool full = false;
    for (const QueuedPacket& qp : ep.txQueue)
    {
        j += qp.segments - qp.next;
        if (j > limit)
        {
            full = true;
            break;
        }
        ++done;
    }
    for (auto it = ep.arrivals.begin(); !full && it != ep.arrivals.end() && it->first < slot; ++it)
    {
        if (it->first > te + m_laneDiv.Div(j))
        {
            // the queue ran dry before the arrival: a new stretch in its slot
            te = it->first;
            j = 0;
            limit = (slot - te) * lanes;
        }
        j += it->second.segments;
        full = j > limit;
        done += full ? 0 : 1;
    }
    *pending = total - done;
    return true;
}

uint64_t
RiflFastEngine::GetHeldPacketEnds(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    uint64_t n = 0;
    if (m_batch)
    {
        // Packet ends received (in a FIFO) and not taken.
        const RunQueue& runs = m_runs[1 - endpoint];
        const Cursor& tk = m_takenTo[1 - endpoint];
        const Cursor& rcv = m_receivedTo[1 - endpoint];
        for (std::size_t i = tk.run; i <= rcv.run && i < runs.size(); ++i)
        {
            const Run& u = runs[i];
            const bool end = u.single ? u.eop : u.seg0 + u.count == u.segments;
            const uint32_t lo = i == tk.run ? tk.frame : 0;
            const uint32_t hi = i == rcv.run ? rcv.frame : u.count;
            n += end && u.count - 1 >= lo && u.count - 1 < hi ? 1 : 0;
        }
    }
    for (const Lane& lane : m_ep[endpoint].lanes)
    {
        for (const FifoEntry& e : lane.fifo)
        {
            n += e.eop ? 1 : 0;
        }
    }
    return n;
}

const RiflEndpointCounters&
RiflFastEngine::GetCounters(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    const_cast<RiflFastEngine*>(this)->LeaveTemplate();
    // Frames whose taking a batched jump deferred are counted first.
    const_cast<RiflFastEngine*>(this)->SettleBatch();
    return m_ep[endpoint].counters;
}

void
RiflFastEngine::SetDeliveryCallback(DeliveryCallback cb)
{
    m_deliveryCb = std::move(cb);
}

void
RiflFastEngine::SetEventCallback(EventCallback cb)
{
    m_eventCb = std::move(cb);
}

const RiflLaneState&
RiflFastEngine::GetLaneState(uint32_t endpoint, uint32_t lane) const
{
    RequireNotAdvancing("GetLaneState");
    CheckIndex(endpoint, lane);
    const_cast<RiflFastEngine*>(this)->LeaveTemplate();
    // The buffer is built lazily in batched mode; ending the batch changes nothing else.
    const_cast<RiflFastEngine*>(this)->LeaveBatch();
    return m_ep[endpoint].lanes[lane].state;
}

uint64_t
RiflFastEngine::GetSteppedSlots() const
{
    return m_stepped;
}

uint64_t
RiflFastEngine::GetJumpedSlots() const
{
    return m_jumped;
}

uint64_t
RiflFastEngine::GetLoadedJumpedSlots() const
{
    return m_loadedJumped;
}

uint64_t
RiflFastEngine::GetBatchedSlots() const
{
    return m_batchedSlots;
}

uint64_t
RiflFastEngine::GetPauseWaitJumpedSlots() const
{
    return m_pauseWaitJumped;
}

uint64_t
RiflFastEngine::GetDormantLaneSlots() const
{
    return m_dormantLaneSlots;
}

uint64_t
RiflFastEngine::GetMaterialisedFrames() const
{
    return m_materialised;
}

void
RiflFastEngine::RequireNotAdvancing(const char* method) const
{
    RIFL_CHECK_ARG(m_advancing,
                   "RiflFastEngine::" << method
                                      << " called from a delivery or event callback, inside "
                                         "AdvanceTo(): a callback must not call the engine "
                                         "(collect what it reports and act after AdvanceTo() "
                                         "returns, as RiflChannel does)");
}

void
RiflFastEngine::RequireNotStarted(const char* setter)
{
    LeaveTemplate(); // the real slot, if a template was followed
    RIFL_CHECK_ARG(m_slot != 0 || m_started, "RiflFastEngine: " << setter << " at slot " << m_slot
                                                                << " (only before the first "
                                                                << "packet and slot)");
}

void
RiflFastEngine::SetSelfCheck(bool on)
{
    RequireNotStarted("SetSelfCheck");
    m_selfCheck = on;
    if (on)
    {
        TrackScrambler();
    }
}

void
RiflFastEngine::TrackScrambler()
{
    m_trackScrambler = true;
    if (!m_tables)
    {
        m_tables = GetTables(m_config.frameSize, m_fid); // built once per process
    }
}

void
RiflFastEngine::SetJumps(bool on)
{
    RequireNotStarted("SetJumps");
    m_jumps = on;
}

RiflFastEngine::Segment
RiflFastEngine::PopSegment(Endpoint& ep)
{
    NS_ASSERT(!ep.txQueue.empty());
    QueuedPacket& qp = ep.txQueue.front();
    const uint32_t p = m_config.GetPayloadBytes();
    Segment seg;
    seg.payload = qp.payload;
    seg.packetId = qp.packetId;
    seg.byteOffset = qp.next * p;
    seg.first = qp.next == 0;
    seg.last = qp.next + 1 == qp.segments;
    seg.nBytes = seg.last ? qp.payload->GetSize() - seg.byteOffset : p;
    if (m_trackScrambler)
    {
        seg.content = DataContentState(*SegmentFrame(seg));
    }
    --ep.txSegments;
    if (++qp.next == qp.segments)
    {
        ep.txQueue.pop_front();
    }
    return seg;
}

const std::shared_ptr<const RiflFrame>&
RiflFastEngine::SegmentFrame(const Segment& seg) const
{
    if (!seg.frame)
    {
        seg.frame = BuildUserFrame(*seg.payload, seg.byteOffset);
    }
    return seg.frame;
}

std::shared_ptr<const RiflFrame>
RiflFastEngine::BuildUserFrame(const RiflPayload& payload, uint32_t byteOffset) const
{
    uint32_t n = 0;
    const bool last = SegmentShape(payload, byteOffset, &n) != RiflFrame::Meta::MIDDLE;
    return std::make_shared<const RiflFrame>(
        RiflFrame::MakeData(m_config.frameSize, payload.GetData() + byteOffset, n, last));
}

std::shared_ptr<const RiflFrame>
RiflFastEngine::LineContent(const LineFrame& f) const
{
    return f.frame ? f.frame : BuildUserFrame(*f.payload, f.tag.byteOffset);
}

// ------------------------------------------------------------------ GF(2) helpers

uint64_t
RiflFastEngine::Apply(const Matrix& m, uint64_t v)
{
    uint64_t r = 0;
    for (uint32_t j = 0; v != 0; ++j, v >>= 1)
    {
        if (v & 1)
        {
            r ^= m[j];
        }
    }
    return r;
}

uint64_t
RiflFastEngine::StepState(uint64_t v) const
{
    const auto& t = m_tables->stepTable;
    return t[0][v & 0xff] ^ t[1][(v >> 8) & 0xff] ^ t[2][(v >> 16) & 0xff] ^ t[3][(v >> 24) & 0xff]
           ^ t[4][(v >> 32) & 0xff];
}

RiflFastEngine::Matrix
RiflFastEngine::Multiply(const Matrix& a, const Matrix& b)
{
    Matrix r{};
    for (std::size_t j = 0; j < r.size(); ++j)
    {
        r[j] = Apply(a, b[j]);
    }
    return r;
}

RiflFastEngine::Matrix
RiflFastEngine::Power(uint64_t n) const
{
    Matrix r{};
    for (uint32_t j = 0; j < RiflScrambler::STATE_BITS; ++j)
    {
        r[j] = uint64_t{1} << j;
    }
    for (uint32_t k = 0; n != 0; ++k, n >>= 1)
    {
        if (n & 1)
        {
            r = Multiply(m_tables->pow2[k], r);
        }
    }
    return r;
}

std::shared_ptr<const RiflFastEngine::Tables>
RiflFastEngine::GetTables(uint32_t frameSize, uint32_t fid)
{
    static std::mutex mutex;
    static std::map<std::pair<uint32_t, uint32_t>, std::shared_ptr<const Tables>> cache;
    const std::lock_guard<std::mutex> lock(mutex);
    // Kept for the process's life: at most 4 frame sizes times the Frame ID widths used.
    std::shared_ptr<const Tables>& t = cache[{frameSize, fid}];
    if (!t)
    {
        t = BuildTables(frameSize, fid);
    }
    return t;
}

std::shared_ptr<const RiflFastEngine::Tables>
RiflFastEngine::BuildTables(uint32_t frameSize, uint32_t fid)
{
    auto t = std::make_shared<Tables>();
    // M: column j = the state after one fill frame (zero input) from state bit j alone.
    const RiflFrame fill = RiflFrame::MakeFill(frameSize);
    Matrix m{};
    for (uint32_t j = 0; j < RiflScrambler::STATE_BITS; ++j)
    {
        RiflScrambler scr(uint64_t{1} << j);
        m[j] = RiflFrame::ScramblerStateAfter(RiflFrame::Encode(fill, 0, scr, fid));
    }
    t->pow2[0] = m;
    for (std::size_t k = 1; k < t->pow2.size(); ++k)
    {
        t->pow2[k] = Multiply(t->pow2[k - 1], t->pow2[k - 1]);
    }
    for (uint32_t b = 0; b < t->stepTable.size(); ++b)
    {
        for (uint32_t v = 0; v < 256; ++v)
        {
            t->stepTable[b][v] = Apply(m, (uint64_t{v} << (8 * b)) & RiflScrambler::STATE_MASK);
        }
    }
    // c() is linear over GF(2) from state 0: the XOR of the images of the set
    // input bits. One table per payload byte position, one for the 2 Meta bits.
    const uint32_t s = frameSize;
    const uint32_t p = RiflFrame::PayloadBytes(frameSize);
    auto image = [s, p](int32_t metaBits, uint32_t byte, uint8_t value)
    {
        std::vector<uint8_t> payload(p, 0);
        if (metaBits < 0)
        {
            payload[byte] = value;
        }
        RiflScrambler z;
        const uint32_t fieldBits = s - 14;
        z.ScrambleBits(metaBits < 0 ? 0 : static_cast<uint64_t>(metaBits), 2);
        uint32_t done = 2;
        for (uint8_t b : payload)
        {
            z.ScrambleBits(b, 8);
            done += 8;
        }
        while (done < fieldBits)
        {
            const uint32_t nb = std::min<uint32_t>(64, fieldBits - done);
            z.ScrambleBits(0, nb);
            done += nb;
        }
        return z.GetState();
    };
    for (uint32_t meta = 0; meta < 4; ++meta)
    {
        t->metaTable[meta] = image(static_cast<int32_t>(meta), 0, 0);
    }
    t->byteTable.assign(p, std::array<uint64_t, 256>{});
    for (uint32_t i = 0; i < p; ++i)
    {
        std::array<uint64_t, 8> basis{};
        for (uint32_t b = 0; b < 8; ++b)
        {
            basis[b] = image(-1, i, static_cast<uint8_t>(1u << b));
        }
        for (uint32_t v = 0; v < 256; ++v)
        {
            uint64_t x = 0;
            for (uint32_t b = 0; b < 8; ++b)
            {
                if (v & (1u << b))
                {
                    x ^= basis[b];
                }
            }
            t->byteTable[i][v] = x;
        }
    }
    return t;
}

uint64_t
RiflFastEngine::DataContentState(const RiflFrame& f) const
{
    const std::vector<uint8_t>& p = f.GetPayload();
    if (f.GetKind() != RiflFrame::Kind::DATA || p.size() > m_tables->byteTable.size())
    {
        return ContentState(f);
    }
    uint64_t x = m_tables->metaTable[static_cast<uint8_t>(f.GetMeta())];
    for (std::size_t i = 0; i < p.size(); ++i)
    {
        x ^= m_tables->byteTable[i][p[i]];
    }
    return x;
}

uint64_t
RiflFastEngine::ContentState(const RiflFrame& f)
{
    // The scrambled field [S-3:12] in line order, from state 0 (no CRC, no BitBlock):
    // Meta (2 bits) then the payload bytes MSB first, or the 16-bit key then zeros.
    RiflScrambler z;
    const uint32_t fieldBits = f.GetFrameSize() - 14;
    uint32_t done = 0;
    if (f.GetKind() == RiflFrame::Kind::CONTROL)
    {
        z.ScrambleBits(f.GetKey(), 16);
        done = 16;
    }
    else
    {
        z.ScrambleBits(static_cast<uint64_t>(f.GetMeta()), 2);
        done = 2;
        const std::vector<uint8_t>& p = f.GetPayload();
        std::size_t i = 0;
        while (i < p.size())
        {
            uint64_t w = 0;
            uint32_t nb = 0;
            for (; nb < 8 && i < p.size(); ++nb, ++i)
            {
                w = (w << 8) | p[i];
            }
            z.ScrambleBits(w, 8 * nb);
            done += 8 * nb;
        }
    }
    while (done < fieldBits)
    {
        const uint32_t nb = std::min<uint32_t>(64, fieldBits - done);
        z.ScrambleBits(0, nb);
        done += nb;
    }
    return z.GetState();
}

void
RiflFastEngine::Emit(RiflLinkEventType type, uint32_t endpoint, uint32_t lane, uint64_t packetId,
                     int64_t value, int64_t value2)
{
    if (m_muteEvents > 0)
    {
        --m_muteEvents; // emitted already, from the start-up template (LeaveTemplate())
        return;
    }
    if (m_eventCb)
    {
        RiflLinkEvent ev;
        ev.type = type;
        ev.endpoint = endpoint;
        ev.lane = lane;
        ev.slot = m_slot;
        ev.packetId = packetId;
        ev.value = value;
        ev.value2 = value2;
        m_eventCb(ev);
    }
}

// ------------------------------------------------------------------ run mode

bool
RiflFastEngine::IsQuiescent() const
{
    if (!m_jumps || m_selfCheck || m_quietSlots < m_maxDelay + QUIET_MARGIN)
    {
        return false;
    }
    for (const Endpoint& ep : m_ep)
    {
        if (!ep.txQueue.empty())
        {
            return false;
        }
        for (const Lane& lane : ep.lanes)
        {
            const RiflLaneState& st = lane.state;
            if (!lane.fifo.empty() || lane.rxDelta != 0 || st.GetTxState() != RiflTxState::NORMAL
                || !st.IsRollbackDone() || st.GetFcNotified() || st.GetRemoteFcPause()
                || !st.IsRxUp() || st.GetResumeWait() < m_d)
            {
                return false;
            }
        }
    }
    return true;
}

uint64_t
RiflFastEngine::JumpHorizon()
{
    // The next line slot to be received on lane l is m_slot - L_l - 4 (m_slot is past
    // max L_l + 24 here), L_l = L + the lane's skew.
    // A skip slot of the slower clock (§6.1) is always stepped.
    uint64_t h = m_nextSkip == RiflLinkConfig::NO_SKIP ? NEVER : m_nextSkip;
    if (!m_anyProcess)
    {
        return h; // an error-free link
    }
    // A lane's next error at line slot e is received at e + delay, or now if that is
    // past: max(e, m_slot - delay) + delay = max(e + delay, m_slot). The minimum of
    // the e + delay over the lanes changes only when a process's next event does
    // (GetHeadChanges(), or a process set), so it is kept until then.
    // No process of the program changed its head since the last check: none of these.
    const uint64_t anyChanges = BitErrorProcess::GetAnyHeadChanges();
    uint64_t changes = m_errorHeadChanges;
    if (!m_errorHorizonValid || anyChanges != m_anyHeadChanges)
    {
        m_anyHeadChanges = anyChanges;
        changes = 0;
        for (const Endpoint& ep : m_ep)
        {
            for (uint32_t l = 0; l < m_config.lanes; ++l)
            {
                changes += ep.lanes[l].errors ? ep.lanes[l].errors->GetHeadChanges() : 0;
            }
        }
    }
    if (!m_errorHorizonValid || changes != m_errorHeadChanges)
    {
        m_errorHeadChanges = changes;
        m_errorHorizon = NEVER;
        for (Endpoint& ep : m_ep)
        {
            for (uint32_t l = 0; l < m_config.lanes; ++l)
            {
                Lane& lane = ep.lanes[l];
                if (lane.errors)
                {
                    const FrameErrorEvent& ev = lane.errors->Peek();
                    if (ev.slot != FrameErrorEvent::NO_MORE_ERRORS)
                    {
                        m_errorHorizon = std::min(m_errorHorizon,
                                                  ev.slot + m_laneDelay[l] + FLAG_DELAY);
                    }
                }
            }
        }
        m_errorHorizonValid = true;
    }
    if (m_errorHorizon != NEVER)
    {
        h = std::min(h, std::max(m_errorHorizon, m_slot));
    }
    if (!m_anySyncLoss)
    {
        return h;
    }
    for (Endpoint& ep : m_ep)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            Lane& lane = ep.lanes[l];
            const uint64_t delay = m_laneDelay[l] + FLAG_DELAY;
            const uint64_t nextLine = m_slot - delay;
            if (lane.syncLoss)
            {
                // Events over before the next received frame are popped as Receive() would.
                const SyncLossEvent* ev = &lane.syncLoss->Peek();
                while (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS
                       && ev->startSlot + ev->durationSlots <= nextLine)
                {
                    lane.syncLoss->Pop();
                    ev = &lane.syncLoss->Peek();
                }
                if (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS)
                {
                    h = std::min(h, std::max(ev->startSlot, nextLine) + delay);
                }
            }
        }
    }
    return h;
}

void
RiflFastEngine::Jump(uint64_t n)
{
    NS_ASSERT(n % m_d == 0);
    m_loadedSteady = false;
    NS_LOG_LOGIC("jump " << n << " slots from " << m_slot);
    LeaveBatch();
    const Matrix p = m_trackScrambler ? Power(n) : Matrix{};
    const uint64_t laneSlots = n * m_config.lanes;
    for (uint32_t e = 0; e < 2; ++e)
    {
        Endpoint& ep = m_ep[e];
        for (Lane& lane : ep.lanes)
        {
            // Every per-slot rule is periodic with period D here; only the buffer
            // changes: its last D entries are fill frames.
            for (; lane.fillPushes < m_d; ++lane.fillPushes)
            {
                lane.state.PushBuffer(RiflBufferEntry{
                    m_fill, RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq),
                    nullptr});
            }
            for (LineFrame& f : lane.line)
            {
                f.lineSlot += n;
            }
            if (m_trackScrambler)
            {
                lane.txScr = Apply(p, lane.txScr);
                for (LineFrame& f : lane.line)
                {
                    f.scrBefore = Apply(p, f.scrBefore);
                }
            }
        }
        RiflEndpointCounters& c = ep.counters;
        c.fillFrames += laneSlots;
        c.stateSlots[static_cast<uint8_t>(RiflTxState::NORMAL)] += laneSlots;
        c.framesReceived += laneSlots;
        c.dataFramesDelivered += laneSlots;
        AddIdleDrainCredit(e, n);
    }
    m_slot += n;
    m_jumped += n;
}

void
RiflFastEngine::AddIdleDrainCredit(uint32_t e, uint64_t n)
{
    // The same saturating additions Drain() makes with an empty FIFO.
    const double rate = m_drainRate[e];
    if (rate == 0.0)
    {
        return;
    }
    double& credit = m_ep[e].drainCredit;
    const double cap = std::max(1.0, rate);
    for (uint64_t i = 0; i < n && credit != cap; ++i)
    {
        credit = std::min(credit + rate, cap);
    }
}

uint64_t
RiflFastEngine::PauseWaitSlots(uint64_t stop)
{
    if (m_ep[0].lanes[0].state.GetTxState() != RiflTxState::SEND_PAUSE || !m_jumps || m_selfCheck
        || m_trackScrambler || m_batch || stop <= m_slot)
    {
        return 0;
    }
    uint64_t n = stop - m_slot;
    for (const Endpoint& ep : m_ep)
    {
        for (const Lane& lane : ep.lanes)
        {
            const RiflLaneState& st = lane.state;
            if (st.GetTxState() != RiflTxState::SEND_PAUSE || !st.IsInitDone() || st.GetFrameError()
                || !lane.fifo.empty() || lane.rxDelta != 0)
            {
                return 0;
            }
            n = std::min(n, st.GetPauseWaitFrames(m_rxUpSlots));
        }
    }
    // Errors received, skip slots (JumpHorizon(); no sync-loss process here: it tracks
    // the scrambler).
    const uint64_t h = JumpHorizon();
    n = h > m_slot ? std::min(n, h - m_slot) : 0;
    // The lines are read (and PauseWaitJump() renumbers them) only for a jump longer
    // than they are: the last slots of a wait are stepped.
    if (n <= m_maxDelay + FLAG_DELAY)
    {
        return 0;
    }
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            // The line holds the frames of line slots m_slot - delay .. m_slot, one each
            // (none missing: a skip slot leaves a gap), all the sender's Pause Request.
            const Lane& sendLane = m_ep[s].lanes[l];
            const uint64_t delay = m_laneDelay[l] + FLAG_DELAY;
            const uint32_t id = sendLane.state.GetTxFrameId();
            if (m_slot < delay || sendLane.line.size() != delay + 1
                || sendLane.line.front().lineSlot != m_slot - delay)
            {
                return 0;
            }
            for (const LineFrame& f : sendLane.line)
            {
                if (f.frame != m_pauseReq || f.txId != id)
                {
                    return 0;
                }
            }
        }
    }
    return n;
}

void
RiflFastEngine::PauseWaitJump(uint64_t n)
{
    NS_ASSERT(n > 0 && n <= PauseWaitSlots(m_slot + n));
    NS_LOG_LOGIC("RX-up wait jump " << n << " slots from " << m_slot);
    const uint64_t laneSlots = n * m_config.lanes;
    for (uint32_t e = 0; e < 2; ++e)
    {
        Endpoint& ep = m_ep[e];
        RiflEndpointCounters& c = ep.counters;
        // Transmit(): a Pause Request per lane and slot (SEND_PAUSE neither numbers nor
        // stores it); the group stalls on a queued packet; a lane that was up loses
        // its slots.
        c.stateSlots[static_cast<uint8_t>(RiflTxState::SEND_PAUSE)] += laneSlots;
        c.pauseRequestsSent += laneSlots;
        if (!ep.txQueue.empty())
        {
            c.userStallSlots += n;
        }
        for (Lane& lane : ep.lanes)
        {
            c.slotsLost += lane.linkUp ? n : 0;
            for (LineFrame& f : lane.line)
            {
                f.lineSlot += n;
            }
            // Receive(): a legal Pause Request, RX not up yet.
            lane.state.AdvancePauseWait(n);
        }
        c.framesReceived += laneSlots;
        AddIdleDrainCredit(e, n); // Drain() with empty FIFOs
    }
    // Step() in such a slot: activity (a non-NORMAL state), not steady.
    m_loadedSteady = false;
    m_quietSlots = 0;
    m_steadySlots = 0;
    m_slot += n;
    m_jumped += n;
    m_pauseWaitJumped += n;
}

// ------------------------------------------------------------------ loaded run mode

bool
RiflFastEngine::IsLoadedSteady()
{
    if (!m_jumps)
    {
        return false;
    }
    if (m_loadedSteady)
    {
        return true; // nothing but loaded jumps since the last full check
    }
    if (m_drainRate[0] != 0.0 || m_drainRate[1] != 0.0 || m_thrOn < 2 || m_maxDelay != m_lineDelay
        || m_steadySlots < m_lineDelay + STEADY_MARGIN || m_slot < m_lineDelay + QUIET_MARGIN)
    {
        return false;
    }
    const uint32_t nLanes = m_config.lanes;
    for (const Endpoint& ep : m_ep)
    {
        for (const Lane& lane : ep.lanes)
        {
            const RiflLaneState& st = lane.state;
            if (lane.rxDelta != 0 || st.GetTxState() != RiflTxState::NORMAL || !st.IsRollbackDone()
                || st.GetFcNotified() || st.GetRemoteFcPause() || !st.IsRxUp()
                || st.GetResumeWait() < m_d || st.GetFrameError() || st.GetPauseFlag()
                || st.GetRetransmitFlag() || st.GetRegularCount() < 16
                || st.GetAlignWindowBad() != 0 || !lane.linkUp)
            {
                return false;
            }
            for (const FifoEntry& e : lane.fifo)
            {
                if (e.readySlot < m_slot || !e.tag.user)
                {
                    return false;
                }
            }
        }
    }
    // The user side in step with the sender: the pending user frames (FIFO, then
    // in flight) are consecutive segments on consecutive lanes from the drain pointer.
    for (uint32_t r = 0; r < 2; ++r)
    {
        const Endpoint& rx = m_ep[r];
        const Endpoint& tx = m_ep[1 - r];
        std::vector<std::pair<uint64_t, uint32_t>> pending; // (groupSeq, lane)
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            for (const FifoEntry& e : rx.lanes[l].fifo)
            {
                pending.emplace_back(e.tag.groupSeq, l);
            }
            for (const LineFrame& f : tx.lanes[l].line)
            {
                if (f.tag.user)
                {
                    pending.emplace_back(f.tag.groupSeq, l);
                }
            }
        }
        std::sort(pending.begin(), pending.end());
        for (std::size_t i = 0; i < pending.size(); ++i)
        {
            if (pending[i].first != rx.rxGroupSeq + i
                || pending[i].second != (rx.rxRoundRobin + i) % nLanes)
            {
                return false;
            }
        }
        if (tx.txGroupSeq != rx.rxGroupSeq + pending.size()
            || tx.txRoundRobin != (rx.rxRoundRobin + pending.size()) % nLanes)
        {
            return false;
        }
        // Every lane's receiver expects the next frame the line brings: a jump takes
        // each user frame as in sequence. A receiver left behind (it resynchronised
        // past a lost frame, spec 11.8) counts its next user frame out of order.
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            uint64_t seq = rx.lanes[l].rxNextSeq;
            uint64_t eop = rx.lanes[l].rxNextEopSeq;
            for (const LineFrame& f : tx.lanes[l].line)
            {
                if (f.tag.laneSeq != seq || f.tag.laneEopSeq != eop)
                {
                    return false;
                }
                if (f.tag.user)
                {
                    ++seq;
                    eop += IsPacketEnd(LineMeta(f)) ? 1 : 0;
                }
            }
            if (seq != tx.lanes[l].txLaneSeq || eop != tx.lanes[l].txLaneEopSeq)
            {
                return false;
            }
        }
    }
    m_loadedSteady = true;
    return true;
}

uint64_t
RiflFastEngine::LoadedWork() const
{
    // Slots until both queues are dealt, plus the line and the FIFO for the last frames;
    // 0 when nothing is queued or in flight (the quiescent run mode takes over).
    const uint32_t nLanes = m_config.lanes;
    uint64_t w = 0;
    bool pending = false;
    for (uint32_t s = 0; s < 2; ++s)
    {
        const Endpoint& tx = m_ep[s];
        w = std::max<uint64_t>(w, m_laneDiv.Div(tx.txSegments + nLanes - 1));
        pending = pending || !tx.txQueue.empty() || tx.txGroupSeq != m_ep[1 - s].rxGroupSeq;
    }
    return pending ? w + m_lineDelay + USER_DELAY + 2 : 0;
}

uint64_t
RiflFastEngine::LoadedNextEvent()
{
    const uint32_t nLanes = m_config.lanes;
    uint64_t h = JumpHorizon();
    for (uint32_t s = 0; s < 2; ++s)
    {
        const Endpoint& tx = m_ep[s];
        const bool wakeBegin = m_txWake[s][0];
        const bool wakeEnd = m_txWake[s][1];
        if (!tx.txQueue.empty() && (wakeBegin || wakeEnd))
        {
            // The next packet boundary asked for: the front's TX_BEGIN, or the end of
            // the front's packet (TX_END; the next TX_BEGIN follows in the same slot or
            // the next, and is no earlier than it).
            const QueuedPacket& front = tx.txQueue.front();
            const std::size_t j
                = front.next == 0 && wakeBegin ? 0 : front.segments - 1 - front.next;
            if (m_slot + m_laneDiv.Div(j) < h)
            {
                h = m_slot + m_laneDiv.Div(j);
                m_nextEndpoint = s;
            }
        }
        if (!tx.txQueue.empty() && !wakeEnd)
        {
            // Without a TX_END wake-up the front packet's delivery must be foreseen here:
            // its remaining segments are dealt from the next slot on, nLanes per slot, and
            // its last frame (line slot m_slot + 1 + (r - 1) / nLanes) reaches the user
            // L + USER_DELAY slots later (earlier packet ends are bounded below).
            const QueuedPacket& front = tx.txQueue.front();
            const uint64_t r = front.segments - front.next;
            const uint64_t ready = m_slot + 1 + m_laneDiv.Div(r - 1) + m_lineDelay + USER_DELAY;
            if (ready < h)
            {
                h = ready;
                m_nextEndpoint = 1 - s;
            }
        }
        if (m_batch)
        {
            // The next packet end the peer's user takes (FIFO, then in flight); one
            // not on the line yet is taken after its TX_END, the bound above.
            const RunQueue& runs = m_runs[s];
            for (std::size_t i = m_takenTo[s].run; i < runs.size(); ++i)
            {
                const Run& u = runs[i];
                if (u.single ? u.eop : u.seg0 + u.count == u.segments)
                {
                    const uint64_t ready
                        = RunLastSlot(u)
                          + (u.single ? u.ready - u.lineSlot : m_lineDelay + USER_DELAY);
                    if (ready < h)
                    {
                        h = ready;
                        m_nextEndpoint = 1 - s;
                    }
                    break;
                }
            }
            continue;
        }
        const Endpoint& rx = m_ep[1 - s];
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            for (const FifoEntry& e : rx.lanes[l].fifo)
            {
                if (e.eop)
                {
                    h = std::min(h, e.readySlot);
                }
            }
            for (const LineFrame& f : tx.lanes[l].line)
            {
                const auto meta = LineMeta(f);
                if (f.tag.user
                    && (meta == RiflFrame::Meta::LAST_FULL
                        || meta == RiflFrame::Meta::LAST_PARTIAL))
                {
                    h = std::min(h, f.lineSlot + m_lineDelay + USER_DELAY);
                }
            }
        }
    }
    return h;
}

void
RiflFastEngine::LoadedJump(uint64_t t1)
{
    if (!m_trackScrambler)
    {
        if (!m_batch)
        {
            EnterBatch();
        }
        BatchJump(t1);
        return;
    }
    const uint64_t t0 = m_slot;
    const uint64_t n = t1 - t0;
    const uint32_t nLanes = m_config.lanes;
    const uint64_t lastInFlight = t1 - m_lineDelay - FLAG_DELAY; // first line slot not received
    NS_LOG_LOGIC("loaded jump " << n << " slots from " << t0);

    auto& received = m_jumpReceived; // by receiving endpoint
    auto& txEvents = m_jumpTxEvents;
    auto& deliveries = m_jumpDeliveries;
    for (uint32_t e = 0; e < 2; ++e)
    {
        received[e].clear();
        txEvents[e].clear();
        deliveries[e].clear();
    }

    // ---- TX of both endpoints: segments dealt round robin, one frame per lane and slot.
    for (uint32_t s = 0; s < 2; ++s)
    {
        Endpoint& ep = m_ep[s];
        RiflEndpointCounters& c = ep.counters;
        const uint64_t k = std::min<uint64_t>(ep.txSegments, n * nLanes);
        std::vector<Segment>& dealt = m_jumpSegments;
        dealt.clear();
        for (uint64_t j = 0; j < k; ++j)
        {
            dealt.push_back(PopSegment(ep));
        }
        const uint32_t rr0 = ep.txRoundRobin;
        const uint64_t seq0 = ep.txGroupSeq;
        std::vector<Received>& rec = received[1 - s];
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            Lane& lane = ep.lanes[l];
            // Frames in flight that reach the receiver during the jump.
            while (!lane.line.empty() && lane.line.front().lineSlot < lastInFlight)
            {
                LineFrame& f = lane.line.front();
                if (f.tag.user)
                {
                    rec.push_back(Received{f.lineSlot, l, f.tag, f.frame});
                }
                lane.line.pop_front();
            }
            const uint32_t pos = (l + nLanes - rr0) % nLanes; // this lane's place in a slot
            const uint32_t id0 = lane.state.GetTxFrameId();
            const uint64_t pushFrom = n > m_d ? n - m_d : 0;
            for (uint64_t i = 0; i < n; ++i)
            {
                const uint64_t j = i * nLanes + pos;
                const uint64_t lineSlot = t0 + i + 1;
                const bool user = j < k;
                LineFrame out;
                out.lineSlot = lineSlot;
                out.scrBefore = lane.txScr;
                out.txId = static_cast<uint32_t>((id0 + i) % m_d);
                if (user)
                {
                    const Segment& seg = dealt[j];
                    out.frame = SegmentFrame(seg);
                    out.tag.user = true;
                    out.tag.packetId = seg.packetId;
                    out.tag.byteOffset = seg.byteOffset;
                    out.tag.laneSeq = lane.txLaneSeq++;
                    out.tag.laneEopSeq = lane.txLaneEopSeq;
                    lane.txLaneEopSeq += seg.last ? 1 : 0;
                    out.tag.acceptSlot = lineSlot;
                    out.tag.groupSeq = seq0 + j;
                    out.tag.fcSeq = lane.txFcSeq;
                    lane.txScr = StepState(lane.txScr) ^ seg.content;
                    lane.fillPushes = 0;
                }
                else
                {
                    out.frame = m_fill;
                    out.fill = true;
                    out.tag
                        = RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq);
                    lane.txScr = StepState(lane.txScr);
                    lane.fillPushes = std::min(lane.fillPushes + 1, m_d);
                }
                if (m_selfCheck)
                {
                    NS_ABORT_MSG_IF(lane.checkScr.GetState() != out.scrBefore,
                                    "RiflFastEngine self-check: state before a frame differs");
                    const BitBlock bits
                        = RiflFrame::Encode(*out.frame, out.txId, lane.checkScr, m_fid);
                    NS_ABORT_MSG_IF(RiflFrame::ScramblerStateAfter(bits) != lane.txScr,
                                    "RiflFastEngine self-check: tracked state differs (loaded)");
                }
                if (i >= pushFrom)
                {
                    lane.state.PushBuffer(RiflBufferEntry{out.frame, out.tag, nullptr});
                }
                if (lineSlot >= lastInFlight)
                {
                    lane.line.push_back(std::move(out));
                }
                else if (user)
                {
                    rec.push_back(Received{lineSlot, l, out.tag, out.frame});
                }
            }
            lane.state.AdvanceSteady(n, n);
        }
        for (uint64_t j = 0; j < k; ++j)
        {
            const Segment& seg = dealt[j];
            RiflLinkEvent ev;
            ev.endpoint = s;
            ev.lane = (rr0 + j) % nLanes;
            ev.slot = t0 + j / nLanes;
            ev.packetId = seg.packetId;
            ev.value = static_cast<int64_t>(ev.slot + 1);
            if (seg.first)
            {
                ev.type = RiflLinkEventType::TX_BEGIN;
                txEvents[s].push_back(ev);
            }
            if (seg.last)
            {
                --ep.pendingPackets;
                ev.type = RiflLinkEventType::TX_END;
                txEvents[s].push_back(ev);
            }
        }
        ep.txRoundRobin = static_cast<uint32_t>((rr0 + k) % nLanes);
        ep.txGroupSeq += k;
        c.stateSlots[static_cast<uint8_t>(RiflTxState::NORMAL)] += n * nLanes;
        c.newUserFrames += k;
        c.fillFrames += n * nLanes - k;
    }

    // ---- RX of both endpoints: every frame passes in sequence; user frames go
    // through the FC FIFO to the user at line slot + L + 6, in segment order.
    for (uint32_t r = 0; r < 2; ++r)
    {
        Endpoint& ep = m_ep[r];
        RiflEndpointCounters& c = ep.counters;
        c.framesReceived += n * nLanes;
        c.dataFramesDelivered += n * nLanes;
        std::vector<Received>& rec = received[r];
        std::sort(rec.begin(), rec.end(),
                  [](const Received& a, const Received& b)
                  {
                      return a.tag.groupSeq < b.tag.groupSeq;
                  });
        // FIFO occupancy at each push: this frame plus the lane's user frames of
        // the two line slots before (still in the FIFO at its receive slot).
        std::array<std::array<uint64_t, 2>, 16> recent;
        recent.fill({NEVER, NEVER});
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            for (const FifoEntry& e : ep.lanes[l].fifo)
            {
                recent[l][0] = recent[l][1];
                recent[l][1] = e.readySlot - m_lineDelay - USER_DELAY;
            }
        }
        for (const Received& f : rec)
        {
            auto& rc = recent[f.lane];
            uint64_t occ = 1;
            for (uint64_t x : rc)
            {
                occ += x != NEVER && x + 2 >= f.lineSlot ? 1 : 0;
            }
            c.maxFcOccupancy = std::max(c.maxFcOccupancy, occ);
            rc[0] = rc[1];
            rc[1] = f.lineSlot;
            ep.lanes[f.lane].rxNextSeq = f.tag.laneSeq + 1;
            ep.lanes[f.lane].rxNextEopSeq
                = f.tag.laneEopSeq + (IsPacketEnd(f.frame->GetMeta()) ? 1 : 0);
        }
        // The user takes, in segment order, everything ready before t1.
        std::vector<FifoEntry>& old = m_jumpOld;
        old.clear();
        for (Lane& lane : ep.lanes)
        {
            while (!lane.fifo.empty() && lane.fifo.front().readySlot < t1)
            {
                old.push_back(std::move(lane.fifo.front()));
                lane.fifo.pop_front();
            }
        }
        std::sort(old.begin(), old.end(),
                  [](const FifoEntry& a, const FifoEntry& b)
                  {
                      return a.tag.groupSeq < b.tag.groupSeq;
                  });
        std::vector<RiflDelivery>& out = deliveries[r];
        for (FifoEntry& e : old)
        {
            TakeFrame(r, e.payload ? nullptr : e.Data(), e.payload, e.nBytes, e.eop, e.tag,
                      e.readySlot, &out);
        }
        for (const Received& f : rec)
        {
            const uint64_t ready = f.lineSlot + m_lineDelay + USER_DELAY;
            const std::vector<uint8_t>& p = f.frame->GetPayload();
            const uint32_t nb = f.frame->GetValidBytes();
            const auto meta = f.frame->GetMeta();
            const bool eop
                = meta == RiflFrame::Meta::LAST_FULL || meta == RiflFrame::Meta::LAST_PARTIAL;
            if (ready < t1)
            {
                TakeFrame(r, p.data(), m_noPayload, nb, eop, f.tag, ready, &out);
            }
            else
            {
                FifoEntry e;
                e.readySlot = ready;
                e.frame = f.frame;
                e.nBytes = nb;
                e.eop = eop;
                e.tag = f.tag;
                ep.lanes[f.lane].fifo.push_back(std::move(e));
            }
        }
    }

    FlushJumpCallbacks();
    m_slot = t1;
    m_steadySlots += n;
    m_quietSlots = 0;
    m_loadedJumped += n;
    m_jumped += n;
}

// ------------------------------------------------------------------ batched loaded mode
//
// A loaded jump changes the lane structures (retransmission buffers, frames in
// flight, FC FIFOs) only by appending user and fill frames in a fixed pattern:
// segments dealt round robin, one frame per lane and slot. Batched mode keeps one
// record per run of consecutive frames of one packet instead and builds the
// structures when the batch ends, only for the slots that can still matter: the
// last D slots of each buffer, the frames still on the line and the frames
// waiting in a FIFO. Everything observable (counters, TX events, deliveries and
// their order) is produced as the per-frame loaded jump produces it, at a cost
// per packet and lane, not per frame.

uint64_t
RiflFastEngine::RunLastSlot(const Run& u) const
{
    return u.single ? u.lineSlot : u.lineSlot + m_laneDiv.Div(u.pos0 + u.count - 1);
}

RiflFastEngine::FrameView
RiflFastEngine::ViewFrame(const Run& u, uint32_t i) const
{
    FrameView v;
    if (u.single)
    {
        v.tag = u.tag;
        v.lineSlot = u.lineSlot;
        v.ready = u.ready;
        v.lane = u.lane0;
        v.nBytes = u.nBytes;
        v.eop = u.eop;
        return v;
    }
    const uint32_t p = m_config.GetPayloadBytes();
    const uint32_t seg = u.seg0 + i;
    v.lane = m_laneDiv.Mod(u.lane0 + i);
    v.lineSlot = u.lineSlot + m_laneDiv.Div(u.pos0 + i);
    v.ready = v.lineSlot + m_lineDelay + USER_DELAY;
    v.eop = seg + 1 == u.segments;
    v.nBytes = v.eop ? static_cast<uint32_t>(u.payload->GetSize() - uint64_t{seg} * p) : p;
    v.tag.user = true;
    v.tag.packetId = u.packetId;
    v.tag.byteOffset = seg * p;
    v.tag.laneSeq = u.lanes[v.lane].seq + m_laneDiv.Div(i);
    v.tag.laneEopSeq = u.lanes[v.lane].eop;
    v.tag.acceptSlot = v.lineSlot;
    v.tag.groupSeq = u.groupSeq0 + i;
    // no notification is sent during a batch (IsLoadedSteady()), so the sender lane's
    // count holds for every frame of its runs
    v.tag.fcSeq = m_ep[u.sender].lanes[v.lane].txFcSeq;
    return v;
}

uint32_t
RiflFastEngine::RunFramesBefore(const Run& u, uint64_t slot) const
{
    if (u.single)
    {
        return u.lineSlot < slot ? 1 : 0;
    }
    if (slot <= u.lineSlot)
    {
        return 0;
    }
    const uint64_t n = (slot - u.lineSlot) * m_config.lanes - u.pos0;
    return static_cast<uint32_t>(std::min<uint64_t>(n, u.count));
}

void
RiflFastEngine::EnterBatch()
{
    NS_ASSERT(!m_batch && !m_trackScrambler);
    m_batch = true;
    m_batchStart = m_slot;
    m_batchSteady = 0;
    m_batchLine = {true, true};
    const uint32_t nLanes = m_config.lanes;
    for (uint32_t r = 0; r < 2; ++r)
    {
        const uint32_t s = 1 - r;
        Endpoint& rx = m_ep[r];
        const Endpoint& tx = m_ep[s];
        // The user frames in the FIFOs (received) and on the line, each in groupSeq
        // order; sorted as small keys, then built in place in the run queue.
        struct Source
        {
            uint64_t seq;   // its groupSeq
            uint32_t lane;  // its lane
            uint32_t index; // its place in the lane's FIFO or line
        };
        std::vector<Source> waiting;
        std::vector<Source> inFlight;
        auto& recent = m_recent[r];
        recent.fill({NEVER, NEVER});
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            const auto& fifo = rx.lanes[l].fifo;
            for (uint32_t i = 0; i < fifo.size(); ++i)
            {
                recent[l][0] = recent[l][1];
                recent[l][1] = fifo[i].readySlot - m_lineDelay - USER_DELAY;
                waiting.push_back({fifo[i].tag.groupSeq, l, i});
            }
            const auto& line = tx.lanes[l].line;
            for (uint32_t i = 0; i < line.size(); ++i)
            {
                if (line[i].tag.user)
                {
                    inFlight.push_back({line[i].tag.groupSeq, l, i});
                }
            }
        }
        const auto bySeq = [](const Source& a, const Source& b) { return a.seq < b.seq; };
        std::sort(waiting.begin(), waiting.end(), bySeq);
        std::sort(inFlight.begin(), inFlight.end(), bySeq);
        RunQueue& runs = m_runs[s];
        runs.clear();
        for (const Source& src : waiting)
        {
            FifoEntry& e = rx.lanes[src.lane].fifo[src.index];
            Run& x = runs.push_back_slot();
            x = Run();
            x.single = true;
            x.count = 1;
            x.frame = std::move(e.frame);
            x.payload = std::move(e.payload);
            x.bytes = std::move(e.bytes);
            x.tag = e.tag;
            x.lineSlot = e.readySlot - m_lineDelay - USER_DELAY;
            x.ready = e.readySlot;
            x.lane0 = src.lane;
            x.nBytes = e.nBytes;
            x.eop = e.eop;
        }
        for (const Source& src : inFlight)
        {
            const LineFrame& f = tx.lanes[src.lane].line[src.index];
            Run& x = runs.push_back_slot();
            x = Run();
            x.single = true;
            x.count = 1;
            x.frame = f.frame;
            x.payload = f.payload;
            x.tag = f.tag;
            x.lineSlot = f.lineSlot;
            x.ready = f.lineSlot + m_lineDelay + USER_DELAY;
            x.lane0 = src.lane;
            if (f.frame)
            {
                x.nBytes = f.frame->GetValidBytes();
                x.eop = IsPacketEnd(f.frame->GetMeta());
            }
            else
            {
                x.eop = IsPacketEnd(SegmentShape(*f.payload, f.tag.byteOffset, &x.nBytes));
            }
        }
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            rx.lanes[l].fifo.clear();
        }
        m_receivedTo[s] = {waiting.size(), 0};
        m_takenTo[s] = {0, 0};
    }
}

void
RiflFastEngine::ReceiveRun(uint32_t r, const Run& u, uint32_t i0, uint32_t i1)
{
    // Per lane: the FIFO occupancy at each push (this frame plus the lane's user
    // frames of the two line slots before, still in the FIFO at its receive slot)
    // and the next expected sequence numbers. A lane's frames of one run are on
    // consecutive line slots, so from its third frame on the occupancy is 3.
    Endpoint& ep = m_ep[r];
    RiflEndpointCounters& c = ep.counters;
    auto& recent = m_recent[r];
    const uint32_t nLanes = m_config.lanes;
    if (!u.single && c.maxFcOccupancy >= 3)
    {
        // The occupancy maximum is known: only each lane's last frame of the range
        // matters, among the range's last Lanes frames. Frame i of the run is the
        // (i / Lanes)-th of the run on lane (lane0 + i) % Lanes.
        for (uint32_t i = i1 - std::min(i1 - i0, nLanes); i < i1; ++i)
        {
            const uint32_t l = m_laneDiv.Mod(u.lane0 + i);
            Lane& lane = ep.lanes[l];
            lane.rxNextSeq = u.lanes[l].seq + m_laneDiv.Div(i) + 1;
            lane.rxNextEopSeq = u.lanes[l].eop + (u.seg0 + i + 1 == u.segments ? 1 : 0);
        }
        return;
    }
    const uint32_t perLane = u.single ? 1 : nLanes;
    for (uint32_t q = 0; q < perLane && i0 + q < i1; ++q)
    {
        const uint32_t first = i0 + q;
        const auto m
            = static_cast<uint32_t>(m_laneDiv.Div(i1 - first + nLanes - 1)); // on this lane
        FrameView a; // the lane's first frame of the range: lane, line slot
        if (u.single)
        {
            a.lane = u.lane0;
            a.lineSlot = u.lineSlot;
        }
        else
        {
            a.lane = m_laneDiv.Mod(u.lane0 + first);
            a.lineSlot = u.lineSlot + m_laneDiv.Div(u.pos0 + first);
        }
        auto& rc = recent[a.lane];
        // An occupancy is at most 3 (this frame and two before): once 3 was seen, the
        // maximum cannot change and the recent slots, which serve only it, need no care.
        for (uint32_t k = 0; c.maxFcOccupancy < 3 && k < std::min<uint32_t>(m, 3); ++k)
        {
            const uint64_t slot = a.lineSlot + k;
            uint64_t occ = 1;
            for (uint64_t x : rc)
            {
                occ += x != NEVER && x + 2 >= slot ? 1 : 0;
            }
            c.maxFcOccupancy = std::max(c.maxFcOccupancy, occ);
            rc[0] = rc[1];
            rc[1] = slot;
        }
        if (m > 3 && c.maxFcOccupancy < 3)
        {
            rc = {a.lineSlot + m - 2, a.lineSlot + m - 1};
        }
        Lane& lane = ep.lanes[a.lane];
        if (u.single)
        {
            lane.rxNextSeq = u.tag.laneSeq + 1;
            lane.rxNextEopSeq = u.tag.laneEopSeq + (u.eop ? 1 : 0);
        }
        else
        {
            const uint32_t lastFrame = first + (m - 1) * nLanes;
            lane.rxNextSeq = u.lanes[a.lane].seq + m_laneDiv.Div(lastFrame) + 1;
            lane.rxNextEopSeq = u.lanes[a.lane].eop + (u.seg0 + lastFrame + 1 == u.segments ? 1 : 0);
        }
    }
}

void
RiflFastEngine::BatchJump(uint64_t t1)
{
    const uint64_t t0 = m_slot;
    const uint64_t n = t1 - t0;
    const uint32_t nLanes = m_config.lanes;
    const uint64_t lastInFlight = t1 - m_lineDelay - FLAG_DELAY; // first line slot not received
    NS_LOG_LOGIC("batched loaded jump " << n << " slots from " << t0);
    for (uint32_t e = 0; e < 2; ++e)
    {
        m_jumpTxEvents[e].clear();
        m_jumpDeliveries[e].clear();
    }

    // ---- TX of both endpoints: segments dealt round robin, one frame per lane and
    // slot; a run per packet (part) dealt. Frames are dealt in stretches without a gap:
    // frame j of a stretch from slot te and lane rre goes in slot te + j / Lanes on lane
    // (rre + j) % Lanes. The first stretch starts at t0 with the round-robin lane; a
    // packet arriving in the jump (OfferPayloadAt()) after the queue ran dry starts
    // another in its arrival slot at the round-robin lane (fill frames in between).
    for (uint32_t s = 0; s < 2; ++s)
    {
        Endpoint& ep = m_ep[s];
        RiflEndpointCounters& c = ep.counters;
        const uint32_t rr0 = ep.txRoundRobin;
        const uint64_t seq0 = ep.txGroupSeq;
        RunQueue& runs = m_runs[s];
        uint64_t te = t0;            // the stretch's first slot
        uint32_t rre = rr0;          // and lane
        uint64_t j = 0;              // the stretch's next frame
        uint64_t dealt = 0;          // frames dealt so far in this jump
        uint64_t limit = n * nLanes; // frames the stretch can take before t1
        uint64_t k = std::min<uint64_t>(ep.txSegments, limit); // end of the queue's frames
        while (true)
        {
            while (j < k)
            {
                QueuedPacket& qp = ep.txQueue.front();
                const uint32_t cnt
                    = static_cast<uint32_t>(std::min<uint64_t>(qp.segments - qp.next, k - j));
                const uint32_t lane0 = static_cast<uint32_t>(m_laneDiv.Mod(rre + j));
                // A packet still being dealt when the last jump ended continues its last
                // run: frame i of a run is at line slot lineSlot + (pos0 + i) / Lanes on
                // lane (lane0 + i) % Lanes, which covers the new frames when the run
                // filled the last slot of that jump. One run per packet, not per jump,
                // on a saturated link (fewer records written, each a cache miss on a
                // large fabric).
                Run* cont = nullptr;
                bool continued = false;
                if (dealt == 0 && te == t0 && !runs.empty() && m_receivedTo[s].run < runs.size())
                {
                    Run& b = runs.back();
                    if (!b.single && b.packetId == qp.packetId && b.seg0 + b.count == qp.next
                        && m_laneDiv.Mod(b.pos0 + b.count) == 0 && RunLastSlot(b) == t0)
                    {
                        cont = &b;
                        continued = true;
                    }
                }
                if (continued)
                {
#ifdef NS3_ASSERT_ENABLE
                    NS_ASSERT_MSG(cont->groupSeq0 + cont->count == seq0
                                      && m_laneDiv.Mod(cont->lane0 + cont->count) == lane0,
                                  "RiflFastEngine: a continued run does not line up");
                    for (uint32_t l = 0; l < nLanes; ++l)
                    {
                        const uint32_t offset
                            = l >= cont->lane0 ? l - cont->lane0 : l + nLanes - cont->lane0;
                        NS_ASSERT_MSG(
                            cont->lanes[l].seq + m_laneDiv.Div(cont->count)
                                        + (offset < m_laneDiv.Mod(cont->count) ? 1 : 0)
                                    == ep.lanes[l].txLaneSeq
                                && cont->lanes[l].eop == ep.lanes[l].txLaneEopSeq,
                            "RiflFastEngine: a continued run's lane marks do not line up");
                    }
#endif
                    cont->count += cnt;
                }
                else
                {
                    // Built in place: every field a batched run uses is set below (the
                    // single-only fields are not read; frame and bytes are empty).
                    Run& u = runs.push_back_slot();
                    u.single = false;
                    u.packetId = qp.packetId;
                    u.seg0 = qp.next;
                    u.count = cnt;
                    u.segments = qp.segments;
                    u.groupSeq0 = seq0 + dealt;
                    u.lineSlot = te + 1 + m_laneDiv.Div(j);
                    u.pos0 = static_cast<uint32_t>(m_laneDiv.Mod(j));
                    u.lane0 = lane0;
                    u.sender = static_cast<uint8_t>(s);
                    for (uint32_t l = 0; l < nLanes; ++l)
                    {
                        u.lanes[l].seq = ep.lanes[l].txLaneSeq;
                        u.lanes[l].eop = ep.lanes[l].txLaneEopSeq;
                    }
                    cont = &u;
                }
                Run& u = *cont;
                const uint64_t cntPerLane = m_laneDiv.Div(cnt);
                const uint32_t cntRest = m_laneDiv.Mod(cnt);
                for (uint32_t l = 0; l < nLanes; ++l)
                {
                    const uint32_t offset = l >= lane0 ? l - lane0 : l + nLanes - lane0;
                    ep.lanes[l].txLaneSeq += cntPerLane + (offset < cntRest ? 1 : 0);
                }
                RiflLinkEvent ev;
                ev.endpoint = s;
                ev.packetId = qp.packetId;
                if (qp.next == 0)
                {
                    ev.type = RiflLinkEventType::TX_BEGIN;
                    ev.lane = u.lane0;
                    ev.slot = te + m_laneDiv.Div(j);
                    ev.value = static_cast<int64_t>(ev.slot + 1);
                    m_jumpTxEvents[s].push_back(ev);
                }
                j += cnt;
                dealt += cnt;
                ep.txSegments -= cnt;
                if (qp.next + cnt == qp.segments)
                {
                    ev.type = RiflLinkEventType::TX_END;
                    ev.lane = static_cast<uint32_t>(m_laneDiv.Mod(rre + j - 1));
                    ev.slot = te + m_laneDiv.Div(j - 1);
                    ev.value = static_cast<int64_t>(ev.slot + 1);
                    m_jumpTxEvents[s].push_back(ev);
                    --ep.pendingPackets;
                    ++ep.lanes[ev.lane].txLaneEopSeq;
                    if (!continued)
                    {
                        u.payload = std::move(qp.payload);
                    }
                    ep.txQueue.pop_front();
                }
                else
                {
                    if (!continued)
                    {
                        u.payload = qp.payload;
                    }
                    qp.next += cnt;
                }
            }
            // The queue ran dry (or the jump is full): an arrival before t1 resumes it.
            auto& arrivals = ep.arrivals;
            if (j >= limit || arrivals.empty() || arrivals.front().first >= t1)
            {
                break;
            }
            const uint64_t a = arrivals.front().first;
            NS_ASSERT(a > t0);
            if (a > te + m_laneDiv.Div(j))
            {
                // The queue was empty in the slots before a: a new stretch.
                rre = static_cast<uint32_t>(m_laneDiv.Mod(rre + j));
                te = a;
                j = 0;
                limit = (t1 - te) * nLanes;
            }
            Enqueue(s, std::move(arrivals.front().second));
            arrivals.pop_front();
            --m_arrivalCount;
            k = j + std::min<uint64_t>(ep.txSegments, limit - j);
        }
        // Packets arriving while the positions up to t1 were taken wait in the queue.
        for (auto& arrivals = ep.arrivals; !arrivals.empty() && arrivals.front().first < t1;
             arrivals.pop_front())
        {
            Enqueue(s, std::move(arrivals.front().second));
            --m_arrivalCount;
        }
        // (Each lane's fill frames since its last user frame, fillPushes, are counted
        // when the batch ends: LeaveBatch().)
        ep.txRoundRobin = static_cast<uint32_t>(m_laneDiv.Mod(rre + j));
        ep.txGroupSeq += dealt;
        c.stateSlots[static_cast<uint8_t>(RiflTxState::NORMAL)] += n * nLanes;
        c.newUserFrames += dealt;
        c.fillFrames += n * nLanes - dealt;
    }

    // ---- RX of both endpoints: every frame passes in sequence; user frames go
    // through the FC FIFO to the user at line slot + L + 6, in segment order.
    for (uint32_t r = 0; r < 2; ++r)
    {
        const uint32_t s = 1 - r;
        Endpoint& ep = m_ep[r];
        RiflEndpointCounters& c = ep.counters;
        c.framesReceived += n * nLanes;
        c.dataFramesDelivered += n * nLanes;
        RunQueue& runs = m_runs[s];
        Cursor& rcv = m_receivedTo[s];
        while (rcv.run < runs.size())
        {
            const Run& u = runs[rcv.run];
            const uint32_t end = RunFramesBefore(u, lastInFlight);
            if (end > rcv.frame)
            {
                ReceiveRun(r, u, rcv.frame, end);
                rcv.frame = end;
            }
            if (end < u.count)
            {
                break;
            }
            ++rcv.run;
            rcv.frame = 0;
        }
        if (m_batchLine[s])
        {
            // Frames on the line from before the batch (their user frames are runs).
            bool left = false;
            for (Lane& lane : m_ep[s].lanes)
            {
                while (!lane.line.empty() && lane.line.front().lineSlot < lastInFlight)
                {
                    lane.line.pop_front();
                }
                left = left || !lane.line.empty();
            }
            m_batchLine[s] = left;
        }
        TakeRuns(r, t1, &m_jumpDeliveries[r]);
        // Runs taken whose frames are all older than every buffer's last D slots are done.
        Cursor& tk = m_takenTo[s];
        while (tk.run > 0)
        {
            const Run& u = runs.front();
            if (RunLastSlot(u) + m_d > t1)
            {
                break;
            }
            runs.pop_front();
            --tk.run;
            --rcv.run;
        }
    }

    FlushJumpCallbacks();
    m_slot = t1;
    m_steadySlots += n;
    m_quietSlots = 0;
    m_batchedSlots += n;
    m_batchSteady += n; // every lane's IDs and windows advance by n (LeaveBatch())
    m_loadedJumped += n;
    m_jumped += n;
}

void
RiflFastEngine::TakeRuns(uint32_t r, uint64_t t1, std::vector<RiflDelivery>* out)
{
    const uint32_t s = 1 - r;
    const RunQueue& runs = m_runs[s];
    const Cursor& rcv = m_receivedTo[s];
    Cursor& tk = m_takenTo[s];
    Endpoint& ep = m_ep[r];
    while (tk.run < rcv.run || (tk.run == rcv.run && tk.frame < rcv.frame))
    {
        const Run& u = runs[tk.run];
        if (!u.single && u.seg0 == 0 && tk.frame == 0 && ep.assembly.frames.empty() && out)
        {
            // A whole packet at once when all its frames are here and ready.
            std::size_t e = tk.run;
            while (e < runs.size() && runs[e].seg0 + runs[e].count != runs[e].segments)
            {
                ++e;
            }
            const bool received
                = e < runs.size() && (e < rcv.run || (e == rcv.run && rcv.frame == runs[e].count));
            if (received && RunLastSlot(runs[e]) + m_lineDelay + USER_DELAY < t1)
            {
                TakePacket(r, tk.run, e, out);
                tk = {e + 1, 0};
                continue;
            }
            // Its end comes in a later jump: take it whole then (or frame by frame
            // in SettleBatch(), which gives the same state). Nothing behind it is
            // ready before it.
            break;
        }
        const FrameView v = ViewFrame(u, tk.frame);
        if (v.ready >= t1)
        {
            break;
        }
        NS_ASSERT_MSG(out != nullptr || !v.eop,
                      "RiflFastEngine: a deferred take reached a packet end");
        // A batched run's frames, and an unbuilt single's, are its packet's bytes; a
        // single otherwise holds its frame or the bytes decoded.
        const uint8_t* bytes
            = u.payload ? nullptr : (u.frame ? u.frame->GetPayload().data() : u.bytes.data());
        TakeFrame(r, bytes, u.payload, v.nBytes, v.eop, v.tag, v.ready, out);
        if (++tk.frame == u.count)
        {
            tk = {tk.run + 1, 0};
        }
    }
}

void
RiflFastEngine::TakePacket(uint32_t epIndex, std::size_t first, std::size_t last,
                           std::vector<RiflDelivery>* out)
{
    // What TakeFrame() does for each frame of a packet whose frames are all in the
    // runs first..last of this batch (full payloads but the last, in byte order).
    const RunQueue& runs = m_runs[1 - epIndex];
    Endpoint& ep = m_ep[epIndex];
    const Run& head = runs[first];
    const Run& tail = runs[last];
    const RiflPayload& payload = *head.payload;
    const uint32_t p = m_config.GetPayloadBytes();
    const FrameView end = ViewFrame(tail, tail.count - 1);
    ep.rxRoundRobin = static_cast<uint32_t>(m_laneDiv.Mod(ep.rxRoundRobin + head.segments));
    ep.rxGroupSeq = end.tag.groupSeq + 1;
    ep.counters.bytesDelivered += payload.GetSize();
    ++ep.counters.packetsDelivered;
    RiflDelivery rd;
    rd.endpoint = epIndex;
    rd.packetId = head.packetId;
    rd.firstSlot = head.lineSlot;
    rd.slot = end.ready;
    if (m_lean)
    {
        rd.intact = true;
        rd.lean = true; // the adapter holds the offered bytes
        rd.source = head.payload;
        out->push_back(std::move(rd));
        return;
    }
    // Per user word (§11.2): delivered with the frame holding its last byte,
    // accepted with the frame holding its first byte; a frame is accepted at
    // its line slot and delivered L + 6 slots later.
    const uint32_t w = m_config.userWordBytes;
    const std::size_t total = payload.GetSize();
    const uint32_t nLanes = m_config.lanes;
    std::vector<uint64_t>& slots = m_packetSlots; // line slot of each frame of the packet
    slots.clear();
    for (std::size_t k = first; k <= last; ++k)
    {
        const Run& u = runs[k];
        uint64_t slot = u.lineSlot;
        uint32_t pos = u.pos0;
        for (uint32_t i = 0; i < u.count; ++i)
        {
            slots.push_back(slot);
            if (++pos == nLanes)
            {
                pos = 0;
                ++slot;
            }
        }
    }
    rd.wordLatencies.resize((total + w - 1) / w);
    const uint64_t delay = m_lineDelay + USER_DELAY;
    std::size_t fa = 0;   // frame of the word's first byte
    std::size_t fb = 0;   // frame of the word's last byte
    std::size_t aEnd = p; // first byte after frame fa
    std::size_t bEnd = p; // first byte after frame fb
    for (std::size_t b = 0, k = 0; b < total; b += w, ++k)
    {
        const std::size_t lastByte = std::min<std::size_t>(b + w, total) - 1;
        while (aEnd <= b)
        {
            ++fa;
            aEnd += p;
        }
        while (bEnd <= lastByte)
        {
            ++fb;
            bEnd += p;
        }
        rd.wordLatencies[k] = slots[fb] + delay - slots[fa];
    }
    rd.content = payload.GetBytes();
    rd.intact = true; // the offered bytes themselves
    out->push_back(std::move(rd));
}

void
RiflFastEngine::SettleBatch()
{
    if (!m_batch)
    {
        return;
    }
    for (uint32_t r = 0; r < 2; ++r)
    {
        // Frame by frame: no packet end can be among them (a frame not received
        // yet is ready two slots after m_slot at the earliest).
        TakeRuns(r, m_slot, nullptr);
    }
}

void
RiflFastEngine::LeaveBatch()
{
    if (!m_batch)
    {
        return;
    }
    SettleBatch();
    m_batch = false;
    for (Endpoint& ep : m_ep)
    {
        for (Lane& lane : ep.lanes)
        {
            lane.state.AdvanceSteady(m_batchSteady, m_batchSteady);
        }
    }
    m_batchSteady = 0;
    const uint64_t t = m_slot; // the last line slot sent is t
    const uint32_t nLanes = m_config.lanes;
    const uint64_t inFlight = m_lineDelay + FLAG_DELAY;
    const uint64_t lineFrom = std::max(m_batchStart + 1, t >= inFlight ? t - inFlight : 0);
    const uint64_t bufferFrom = std::max<uint64_t>(m_batchStart + 1, t + 1 > m_d ? t + 1 - m_d : 0);
    const uint64_t from = std::min(lineFrom, bufferFrom);
    auto& perLane = m_leaveLanes; // reused: no allocation once grown
    perLane.resize(nLanes);
    for (uint32_t s = 0; s < 2; ++s)
    {
        RunQueue& runs = m_runs[s];
        for (auto& frames : perLane)
        {
            frames.clear();
        }
        for (std::size_t k = 0; k < runs.size(); ++k)
        {
            const Run& u = runs[k];
            if (u.single)
            {
                continue; // from before the batch: still on the line, or in the buffer already
            }
            const uint32_t i0 = RunFramesBefore(u, from);
            for (uint32_t i = i0; i < u.count; ++i)
            {
                const FrameView v = ViewFrame(u, i);
                perLane[v.lane].push_back(Slotted{v.lineSlot, &u, i, v.tag});
            }
        }
        for (uint32_t l = 0; l < nLanes; ++l)
        {
            Lane& lane = m_ep[s].lanes[l];
            // The fill frames sent since the lane's last user frame (saturating at D): a
            // user frame of the batch on line slot x leaves t - x; none since `from`
            // means none in the batch, or one D or more slots before t.
            lane.fillPushes = static_cast<uint32_t>(
                perLane[l].empty() ? std::min<uint64_t>(lane.fillPushes + (t - m_batchStart), m_d)
                                   : std::min<uint64_t>(t - perLane[l].back().slot, m_d));
            const uint32_t idNext = lane.state.GetTxFrameId(); // the ID of line slot t + 1
            std::size_t k = 0;
            for (uint64_t slot = from; slot <= t; ++slot)
            {
                const Slotted* u = nullptr;
                if (k < perLane[l].size() && perLane[l][k].slot == slot)
                {
                    u = &perLane[l][k++];
                }
                // A user frame is not built: the line and the buffer keep its packet
                // (a frame is built only if its bits are needed).
                const std::shared_ptr<const RiflFrame>& frame = u == nullptr ? m_fill : m_none;
                const std::shared_ptr<const RiflPayload>& payload
                    = u == nullptr ? m_noPayload : u->run->payload;
                // a fill's tag: the lane's user frames before it (those of the
                // next user frame in the window, or all the lane has sent)
                RiflFrameTag tag;
                if (u != nullptr)
                {
                    tag = u->tag;
                }
                else if (k < perLane[l].size())
                {
                    const RiflFrameTag& next = perLane[l][k].tag;
                    tag = RiflFrameTag::NonUser(next.laneSeq, next.laneEopSeq, next.fcSeq);
                }
                else
                {
                    tag = RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq);
                }
                if (slot >= bufferFrom)
                {
                    lane.state.PushBuffer(RiflBufferEntry{frame, tag, payload});
                }
                if (slot >= lineFrom)
                {
                    LineFrame f;
                    f.lineSlot = slot;
                    f.frame = frame;
                    f.payload = payload;
                    f.tag = tag;
                    f.txId = static_cast<uint32_t>((idNext + m_d - (t + 1 - slot) % m_d) % m_d);
                    f.fill = u == nullptr;
                    lane.line.push_back(std::move(f));
                }
            }
        }
        // The receiver's FIFOs: received, not taken.
        Endpoint& rx = m_ep[1 - s];
        const Cursor rcv = m_receivedTo[s];
        for (Cursor c = m_takenTo[s]; c.run < rcv.run || (c.run == rcv.run && c.frame < rcv.frame);)
        {
            Run& u = runs[c.run];
            const FrameView v = ViewFrame(u, c.frame);
            FifoEntry e;
            e.readySlot = v.ready;
            if (u.single)
            {
                e.frame = std::move(u.frame);
                e.payload = std::move(u.payload);
                e.bytes = std::move(u.bytes);
            }
            else
            {
                e.payload = u.payload; // the frame is not built (FifoEntry::Data())
            }
            e.nBytes = v.nBytes;
            e.eop = v.eop;
            e.tag = v.tag;
            rx.lanes[v.lane].fifo.push_back(std::move(e));
            if (++c.frame == u.count)
            {
                c = {c.run + 1, 0};
            }
        }
        runs.clear();
        m_receivedTo[s] = {0, 0};
        m_takenTo[s] = {0, 0};
    }
}

void
RiflFastEngine::FlushJumpCallbacks()
{
    // Four lists, each in slot order (deliveries to endpoints 0 and 1, TX events of
    // endpoints 0 and 1), merged by slot; at equal slots the lists in that order.
    auto& txEvents = m_jumpTxEvents;
    auto& deliveries = m_jumpDeliveries;
    const std::array<std::size_t, 4> size{deliveries[0].size(), deliveries[1].size(),
                                          txEvents[0].size(), txEvents[1].size()};
    std::array<std::size_t, 4> idx{0, 0, 0, 0};
    std::array<uint64_t, 4> head; // each list's next slot, NEVER once it is done
    const auto headOf = [&](int k)
    {
        if (idx[k] == size[k])
        {
            return NEVER;
        }
        return k < 2 ? deliveries[k][idx[k]].slot : txEvents[k - 2][idx[k]].slot;
    };
    for (int k = 0; k < 4; ++k)
    {
        head[k] = headOf(k);
    }
    while (true)
    {
        int cat = 0;
        for (int k = 1; k < 4; ++k)
        {
            cat = head[k] < head[cat] ? k : cat;
        }
        if (head[cat] == NEVER)
        {
            break;
        }
        if (cat < 2)
        {
            if (m_deliveryCb)
            {
                m_deliveryCb(std::move(deliveries[cat][idx[cat]]));
            }
        }
        else if (m_eventCb)
        {
            m_eventCb(txEvents[cat - 2][idx[cat]]);
        }
        ++idx[cat];
        head[cat] = headOf(cat);
    }
}

// ------------------------------------------------------------------ slot mode

void
RiflFastEngine::Step()
{
    LeaveBatch();
    m_started = true;
    const uint64_t t = m_slot;
    m_loadedSteady = false;
    m_activity = false;
    m_unsteady = false;
    for (uint32_t rx = 0; rx < 2; ++rx)
    {
        const uint32_t sender = 1 - rx;
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            if ((m_dormant >> l) & 1)
            {
                // A dormant lane receives a clean fill in sequence (ReceiveCleanFill()):
                // its state is caught up when it wakes, its counters here.
                RiflEndpointCounters& c = m_ep[rx].counters;
                ++c.framesReceived;
                ++c.dataFramesDelivered;
                continue;
            }
            auto& line = m_ep[sender].lanes[l].line;
            const uint64_t delay = m_laneDelay[l] + FLAG_DELAY;
            while (!line.empty())
            {
                const LineFrame& f = line.front();
                if (f.lineSlot + delay > t)
                {
                    break;
                }
                NS_ASSERT(f.lineSlot + delay == t);
                if (!ReceiveCleanFill(rx, l, f))
                {
                    Receive(rx, l, f);
                }
                line.pop_front();
            }
        }
    }
    // Clock domains (§6.1), as the reference: the slower endpoint misses a skip
    // slot, the faster one's compensation signal is active in it.
    const bool skip = t == m_nextSkip;
    if (skip)
    {
        m_nextSkip = m_config.NextClockSkipSlot(t + 1);
        ++m_ep[m_slowEp].counters.clockSkipSlots;
        m_activity = true;
        m_unsteady = true;
    }
    for (uint32_t e = 0; e < 2; ++e)
    {
        if (!(skip && e == m_slowEp))
        {
            Drain(e);
        }
    }
    for (uint32_t e = 0; e < 2; ++e)
    {
        if (!(skip && e == m_slowEp))
        {
            Transmit(e, skip && m_compensated);
        }
    }
    ++m_slot;
    ++m_stepped;
    m_quietSlots = m_activity ? 0 : m_quietSlots + 1;
    m_steadySlots = m_unsteady ? 0 : m_steadySlots + 1;
}

bool
RiflFastEngine::NoDealPossible() const
{
    for (const Endpoint& ep : m_ep)
    {
        if (ep.txQueue.empty())
        {
            continue;
        }
        // The deal starts at the round-robin lane and stops at the first lane not
        // ready: a lane with counters to run cannot be ready in this slot.
        const uint32_t rr = ep.txRoundRobin;
        if (((m_dormant >> rr) & 1) || ep.lanes[rr].state.GetUserReadyWait() == 0)
        {
            return false;
        }
    }
    return true;
}

bool
RiflFastEngine::IsDormantLane(uint32_t k) const
{
    const uint64_t delay = m_laneDelay[k] + FLAG_DELAY;
    for (uint32_t s = 0; s < 2; ++s)
    {
        const Lane& lane = m_ep[s].lanes[k];
        const Lane& peer = m_ep[1 - s].lanes[k];
        const RiflLaneState& st = lane.state;
        // TX: NORMAL sending fills, and nothing that could change that but a deal.
        // RX: receiving in sequence with nothing raised (regular count saturated:
        // both request counters are 0).
        if (st.GetTxState() != RiflTxState::NORMAL || !st.IsInitDone() || !st.IsRollbackDone()
            || st.GetResumeWait() < m_d || st.GetReplayCounter() != 0 || st.GetFcNotified()
            || st.GetRemoteFcPause() || st.GetFrameError() || st.GetRegularCount() < 16
            || !st.IsAligned() || !st.IsRxUp() || st.GetAlignWindowBad() != 0
            || st.GetExpectedId() != st.GetThreshold() || lane.fifo.size() > m_thrOn
            || lane.rxDelta != 0 || !lane.linkUp)
        {
            return false;
        }
        // The line s -> 1 - s: the fills Transmit() sent in the last delay + 1 slots (no
        // other frame between them: the same tag, consecutive IDs), one per line slot up
        // to the last one sent (m_slot), the first received in this slot, carrying the ID
        // the receiver expects.
        const std::size_t n = lane.line.size();
        if (lane.fillLast + 1 != m_slot || m_slot - lane.fillSince < delay + 1 || n != delay + 1
            || lane.line[0].lineSlot + delay != m_slot)
        {
            return false;
        }
        const RiflFrameTag tag
            = RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq);
        const uint32_t exp = peer.state.GetExpectedId();
        if (FillNeedsReport(tag, peer) || lane.line[0].txId != exp)
        {
            return false;
        }
        // The next frame sent carries the ID after the last one on the line.
        if (((exp + n) & (m_d - 1)) != st.GetTxFrameId())
        {
            return false;
        }
    }
    return true;
}

bool
RiflFastEngine::TryEnterSparse()
{
    NS_ASSERT(m_dormant == 0);
    if (!m_jumps || m_selfCheck || m_trackScrambler || m_batch || !m_started || m_quietSlots != 0
        || m_slot < m_maxDelay + FLAG_DELAY + 1 || !NoDealPossible() || m_slot >= JumpHorizon())
    {
        m_sparseRetry = m_slot + SPARSE_RETRY_SLOTS;
        return false;
    }
    uint32_t mask = 0;
    uint32_t count = 0;
    for (uint32_t k = 0; k < m_config.lanes; ++k)
    {
        if (IsDormantLane(k))
        {
            mask |= 1u << k;
            ++count;
        }
    }
    // Every lane dormant: both queues are empty (a lane a sender waits on is not), the
    // link is about to be quiet and to jump.
    if (mask == 0 || count == m_config.lanes)
    {
        m_sparseRetry = m_slot + SPARSE_RETRY_SLOTS;
        return false;
    }
    m_dormant = mask;
    m_dormantCount = count;
    m_dormantFrom = m_slot;
    return true;
}

void
RiflFastEngine::WakeDormant()
{
    const uint64_t n = m_slot - m_dormantFrom;
    for (uint32_t k = 0; k < m_config.lanes; ++k)
    {
        if (((m_dormant >> k) & 1) == 0)
        {
            continue;
        }
        [[maybe_unused]] const uint64_t delay = m_laneDelay[k] + FLAG_DELAY;
        for (uint32_t s = 0; s < 2; ++s)
        {
            Lane& lane = m_ep[s].lanes[k];
            // The line held delay + 1 fills (one per line slot, consecutive IDs, one tag)
            // and still does, n line slots and n IDs on: the first n received, n sent.
            NS_ASSERT_MSG(lane.line.size() == delay + 1,
                          "dormant lane " << k << " of " << s << ": " << lane.line.size()
                                          << " frames on the line, not " << delay + 1);
            for (LineFrame& f : lane.line)
            {
                f.lineSlot += n;
                f.txId = static_cast<uint32_t>((f.txId + n) & (m_d - 1));
            }
            lane.fillLast = m_slot - 1; // the run of fills goes on
            // The buffer: a fill pushed per slot while it held fewer than D since the
            // last other frame.
            const RiflFrameTag tag
                = RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq);
            for (uint64_t i = 0; i < n && lane.fillPushes < m_d; ++i, ++lane.fillPushes)
            {
                lane.state.PushBuffer(RiflBufferEntry{m_fill, tag, nullptr});
            }
            // n fills sent, n received in sequence.
            lane.state.AdvanceSteady(n, n);
        }
    }
    m_dormantLaneSlots += 2 * n * m_dormantCount;
    m_dormant = 0;
    m_dormantCount = 0;
}

bool
RiflFastEngine::SyncLostAt(const Lane& sendLane, uint64_t n)
{
    if (!sendLane.syncLoss)
    {
        return false;
    }
    const SyncLossEvent* ev = &sendLane.syncLoss->Peek();
    while (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS && ev->startSlot + ev->durationSlots <= n)
    {
        sendLane.syncLoss->Pop();
        ev = &sendLane.syncLoss->Peek();
    }
    return ev->startSlot != SyncLossEvent::NO_MORE_EVENTS && ev->startSlot <= n;
}

bool
RiflFastEngine::ReceiveCleanFill(uint32_t rx, uint32_t laneIndex, const LineFrame& f)
{
    Lane& lane = m_ep[rx].lanes[laneIndex];
    const Lane& sendLane = m_ep[1 - rx].lanes[laneIndex];
    const RiflFrameTag& tag = f.tag;
    // A fill frame is m_fill: Data, Meta 00, no FC notification, no user bytes. It is
    // received logically (check passed iff its ID = exp_id) when nothing touched it;
    // NoteFcSequence() reports nothing iff fcSeq <= rxNextFcSeq (no notification), and
    // NoteResyncAhead() nothing under RiflIsResyncAhead()'s own condition.
    if (!f.fill || tag.user || tag.fcNotification || lane.rxDelta != 0 || FillNeedsReport(tag, lane)
        || SyncLostAt(sendLane, f.lineSlot)
        || (sendLane.errors && sendLane.errors->SkipTo(f.lineSlot).slot == f.lineSlot)
        || !lane.state.TryDeliverInSequence(f.txId))
    {
        return false;
    }
    RiflEndpointCounters& c = m_ep[rx].counters;
    ++c.framesReceived;
    ++c.dataFramesDelivered;
    return true;
}

void
RiflFastEngine::Receive(uint32_t rx, uint32_t laneIndex, const LineFrame& f)
{
    Endpoint& ep = m_ep[rx];
    Lane& lane = ep.lanes[laneIndex];
    const Lane& sendLane = m_ep[1 - rx].lanes[laneIndex];
    RiflEndpointCounters& c = ep.counters;
    RiflLaneState& st = lane.state;
    const uint64_t n = f.lineSlot;

    const bool syncLost = SyncLostAt(sendLane, n);
    std::vector<uint32_t> flips;
    if (sendLane.errors)
    {
        const FrameErrorEvent& ev = sendLane.errors->SkipTo(n);
        if (ev.slot == n)
        {
            flips = ev.bits;
            sendLane.errors->Pop();
        }
    }

    // The decoded view: logical when nothing touched the frame and the
    // descrambler is in step, else the reference's exact bits.
    RiflFrame::DecodeResult d;
    bool changed = false;
    // The frame sent, where its bits are needed (an unbuilt user frame is built then).
    std::shared_ptr<const RiflFrame> sentFrame;
    if (!syncLost && flips.empty() && lane.rxDelta == 0)
    {
        d.checkPassed = f.txId == st.GetExpectedId();
        d.status = d.checkPassed ? RiflFrame::Status::OK : RiflFrame::Status::CHECK_FAILED;
        if (f.frame)
        {
            const RiflFrame& fr = *f.frame;
            d.kind = fr.GetKind();
            d.key = fr.GetKey();
            d.meta = fr.GetMeta();
            d.validBytes = fr.GetValidBytes();
            d.fc = fr.GetFcNotification();
        }
        else
        {
            // an unbuilt user frame: what RiflFrame::MakeData() would have made
            d.kind = RiflFrame::Kind::DATA;
            d.key = 0;
            d.meta = SegmentShape(*f.payload, f.tag.byteOffset, &d.validBytes);
            d.fc = RiflFrame::FcNotification::NONE;
        }
    }
    else
    {
        m_activity = true;
        m_unsteady = true;
        ++m_materialised;
        sentFrame = LineContent(f);
        RiflScrambler tx(f.scrBefore);
        const BitBlock sent = RiflFrame::Encode(*sentFrame, f.txId, tx, m_fid);
        BitBlock bits = syncLost ? BitBlock(m_config.frameSize) : sent;
        for (uint32_t b : flips)
        {
            bits.Flip(b);
        }
        changed = bits != sent;
        RiflScrambler rxs(f.scrBefore ^ lane.rxDelta);
        d = RiflFrame::Decode(bits, st.GetExpectedId(), rxs, m_fid);
        lane.rxDelta = rxs.GetState() ^ tx.GetState();
    }
    if (!f.fill)
    {
        m_activity = true;
    }

    ++c.framesReceived;
    if (changed)
    {
        ++c.lineErrorFrames;
    }
    const bool legal = d.kind != RiflFrame::Kind::ILLEGAL;
    const uint64_t lossesBefore = st.GetAlignmentLosses();
    const bool upBefore = st.IsRxUp();
    st.OnHeader(legal, m_rxUpSlots);
    c.alignmentLosses += st.GetAlignmentLosses() - lossesBefore;
    if (upBefore != st.IsRxUp())
    {
        m_activity = true;
        m_unsteady = true;
        Emit(upBefore ? RiflLinkEventType::RX_DOWN : RiflLinkEventType::RX_UP, rx, laneIndex, 0,
             static_cast<int64_t>(n), st.IsAligned() ? 1 : 0);
    }
    if (!st.IsAligned())
    {
        m_activity = true;
        m_unsteady = true;
        return;
    }
    RiflLaneState::KeyClass k = RiflLaneState::KeyClass::REGULAR;
    if (d.kind == RiflFrame::Kind::CONTROL)
    {
        if (d.key == RiflFrame::KEY_PAUSE_REQUEST)
        {
            k = RiflLaneState::KeyClass::PAUSE_REQUEST;
        }
        else if (d.key == RiflFrame::KEY_RETRANSMIT_REQUEST)
        {
            k = RiflLaneState::KeyClass::RETRANSMIT_REQUEST;
        }
        else
        {
            k = RiflLaneState::KeyClass::OTHER_CONTROL;
        }
    }
    st.OnKey(k);
    if (!st.IsRxUp())
    {
        m_activity = true;
        m_unsteady = true;
        return;
    }
    const bool passed = legal && d.checkPassed;
    const RiflLaneState::Verdict v = st.OnCheck(passed, d.kind == RiflFrame::Kind::DATA);
    if (v != RiflLaneState::Verdict::DELIVER)
    {
        m_activity = true;
        m_unsteady = true;
    }
    if (v == RiflLaneState::Verdict::FAILED)
    {
        ++c.errorsDetected;
        if (!legal)
        {
            ++c.badSyncwords;
        }
        else if (d.kind == RiflFrame::Kind::CONTROL)
        {
            ++c.controlFrameErrors;
        }
        Emit(RiflLinkEventType::FRAME_ERROR, rx, laneIndex, 0, static_cast<int64_t>(d.status),
             static_cast<int64_t>(n));
        return;
    }
    if (changed)
    {
        ++c.undetectedErrors;
        NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                            << ": undetected error in the frame of line slot " << n);
        Emit(RiflLinkEventType::UNDETECTED_ERROR, rx, laneIndex, f.tag.user ? f.tag.packetId : 0,
             static_cast<int64_t>(v), static_cast<int64_t>(n));
    }
    if (v == RiflLaneState::Verdict::DUPLICATE)
    {
        ++c.duplicatesDropped;
        return;
    }
    if (v != RiflLaneState::Verdict::DELIVER)
    {
        return;
    }
    ++c.dataFramesDelivered;
    NoteFcSequence(rx, laneIndex, lane, f.tag, d.fc, n);
    if (d.meta == RiflFrame::Meta::INVALID)
    {
        if (d.fc == RiflFrame::FcNotification::PAUSE)
        {
            m_activity = true;
            m_unsteady = true;
            st.SetRemoteFcPause(true);
            ++c.fcPauseReceived;
            Emit(RiflLinkEventType::FC_PAUSE_RECEIVED, rx, laneIndex, 0, static_cast<int64_t>(n));
        }
        else if (d.fc == RiflFrame::FcNotification::RESUME)
        {
            m_activity = true;
            m_unsteady = true;
            st.SetRemoteFcPause(false);
            ++c.fcResumeReceived;
            Emit(RiflLinkEventType::FC_RESUME_RECEIVED, rx, laneIndex, 0, static_cast<int64_t>(n));
        }
        if (f.tag.user)
        {
            ++c.contentMismatches;
        }
        NoteResyncAhead(rx, laneIndex, lane, f.tag, n);
        return;
    }

    m_activity = true;
    // Decoded from bits, the payload image and Meta may differ from the ones sent;
    // logically they are the ones sent.
    const bool samePayload = d.payload.empty() || d.payload == sentFrame->GetPayload();
    const RiflFrame::Meta sentMeta
        = sentFrame ? sentFrame->GetMeta() : (f.frame ? f.frame->GetMeta() : d.meta);
    const bool sentEop = IsPacketEnd(sentMeta);
    if (!f.tag.user || d.meta != sentMeta || !samePayload)
    {
        m_unsteady = true;
        ++c.contentMismatches;
    }
    if (f.tag.user)
    {
        if (f.tag.laneSeq < lane.rxNextSeq)
        {
            m_unsteady = true;
            ++c.duplicatesDelivered;
            NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                                << ": user frame " << f.tag.laneSeq << " (packet " << f.tag.packetId
                                << ") delivered again");
            Emit(RiflLinkEventType::DUPLICATE_DELIVERY, rx, laneIndex, f.tag.packetId,
                 f.tag.byteOffset, static_cast<int64_t>(f.tag.laneSeq));
        }
        else
        {
            if (f.tag.laneSeq > lane.rxNextSeq)
            {
                // Spec 11.8: resynchronised on a frame D newer (see the reference engine).
                m_unsteady = true;
                const uint64_t skipped = f.tag.laneSeq - lane.rxNextSeq;
                const uint64_t ends = f.tag.laneEopSeq - lane.rxNextEopSeq;
                ++c.outOfOrderDeliveries;
                c.packetEndsLost += ends;
                Emit(RiflLinkEventType::OUT_OF_ORDER_DELIVERY, rx, laneIndex, f.tag.packetId,
                     static_cast<int64_t>(skipped), static_cast<int64_t>(ends));
            }
            lane.rxNextSeq = f.tag.laneSeq + 1;
            lane.rxNextEopSeq = f.tag.laneEopSeq + (sentEop ? 1 : 0);
        }
    }
    if (lane.fifo.size() >= m_fifoDepth[rx])
    {
        m_unsteady = true;
        ++c.fcFifoDrops;
        c.packetEndsLost += f.tag.user && sentEop ? 1 : 0;
        Emit(RiflLinkEventType::FC_FIFO_DROP, rx, laneIndex, f.tag.packetId, f.tag.byteOffset,
             static_cast<int64_t>(f.tag.laneSeq));
        return;
    }
    FifoEntry e;
    e.readySlot = n + m_laneDelay[laneIndex] + USER_DELAY;
    e.nBytes = d.validBytes;
    if (samePayload)
    {
        e.frame = f.frame;
        e.payload = f.payload;
    }
    else
    {
        e.bytes.assign(d.payload.begin(), d.payload.begin() + d.validBytes);
    }
    e.eop = d.meta == RiflFrame::Meta::LAST_FULL || d.meta == RiflFrame::Meta::LAST_PARTIAL;
    e.tag = f.tag;
    lane.fifo.push_back(std::move(e));
    c.maxFcOccupancy = std::max<uint64_t>(c.maxFcOccupancy, lane.fifo.size());
}

void
RiflFastEngine::NoteResyncAhead(uint32_t rx, uint32_t laneIndex, Lane& lane,
                                const RiflFrameTag& tag, uint64_t n)
{
    if (!RiflIsResyncAhead(tag, lane.rxNextSeq, lane.resyncReportedAt))
    {
        return;
    }
    m_activity = true;
    m_unsteady = true;
    ++m_ep[rx].counters.resyncsAhead;
    NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                        << ": a non-user frame sent after user frame " << (tag.laneSeq - 1)
                        << " accepted while user frame " << lane.rxNextSeq
                        << " is missing (line slot " << n << ")");
    Emit(RiflLinkEventType::RESYNC_AHEAD, rx, laneIndex, 0,
         static_cast<int64_t>(tag.laneSeq - lane.rxNextSeq), static_cast<int64_t>(n));
}

void
RiflFastEngine::NoteFcSequence(uint32_t rx, uint32_t laneIndex, Lane& lane, const RiflFrameTag& tag,
                               RiflFrame::FcNotification fc, uint64_t n)
{
    const RiflFcSequenceCheck chk = RiflCheckFcSequence(tag, lane.rxNextFcSeq);
    if (chk.skipped == 0 && !chk.repeated)
    {
        return;
    }
    m_activity = true;
    m_unsteady = true;
    RiflEndpointCounters& c = m_ep[rx].counters;
    if (chk.skipped != 0)
    {
        c.fcNotificationsSkipped += chk.skipped;
        NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex << ": "
                            << chk.skipped << " FC notification(s) of the peer skipped (line slot "
                            << n << ")");
        Emit(RiflLinkEventType::FC_NOTIFICATION_SKIPPED, rx, laneIndex, 0,
             static_cast<int64_t>(chk.skipped), static_cast<int64_t>(n));
    }
    if (chk.repeated)
    {
        ++c.fcNotificationsRepeated;
        NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                            << ": FC notification " << tag.fcSeq
                            << " of the peer acted on again (line slot " << n << ")");
        Emit(RiflLinkEventType::FC_NOTIFICATION_REPEATED, rx, laneIndex, 0,
             static_cast<int64_t>(fc), static_cast<int64_t>(n));
    }
}

void
RiflFastEngine::Drain(uint32_t epIndex)
{
    Endpoint& ep = m_ep[epIndex];
    const double rate = m_drainRate[epIndex];
    const bool unlimited = rate == 0.0;
    if (!unlimited)
    {
        ep.drainCredit = std::min(ep.drainCredit + rate, std::max(1.0, rate));
    }
    while (unlimited || ep.drainCredit >= 1.0)
    {
        Lane& lane = ep.lanes[ep.rxRoundRobin];
        if (lane.fifo.empty() || lane.fifo.front().readySlot > m_slot)
        {
            break;
        }
        m_activity = true;
        FifoEntry e = std::move(lane.fifo.front());
        lane.fifo.pop_front();
        if (!unlimited)
        {
            ep.drainCredit -= 1.0;
        }
        // an unbuilt frame's bytes are its packet's (not read unless needed)
        TakeFrame(epIndex, e.payload ? nullptr : e.Data(), e.payload, e.nBytes, e.eop, e.tag,
                  m_slot);
    }
}

void
RiflFastEngine::TakeFrame(uint32_t epIndex, const uint8_t* bytes,
                          const std::shared_ptr<const RiflPayload>& source, uint32_t nBytes,
                          bool eop, const RiflFrameTag& tag, uint64_t slot,
                          std::vector<RiflDelivery>* defer)
{
    Endpoint& ep = m_ep[epIndex];
    ep.rxRoundRobin = ep.rxRoundRobin + 1 == m_config.lanes ? 0 : ep.rxRoundRobin + 1;
    ep.rxGroupSeq = tag.groupSeq + 1;
    Assembly& a = ep.assembly;
    const bool first = a.frames.empty();
    if (first)
    {
        a.packetId = tag.packetId;
        a.size = 0;
    }
    // Lean so far: this frame carries the packet's next bytes, all of them.
    bool lean
        = m_lean && source && uint64_t{tag.byteOffset} == a.size && (first || source == a.source);
    if (lean)
    {
        uint32_t whole = 0;
        SegmentShape(*source, tag.byteOffset, &whole);
        lean = nBytes == whole;
    }
    // Off the lean path: the bytes so far are the packet's first a.size, copied now.
    const auto unlean = [&a]()
    {
        a.bytes.assign(a.source->GetData(), a.source->GetData() + a.size);
        a.source.reset();
    };
    if (a.source && !lean)
    {
        unlean();
    }
    else if (first && lean)
    {
        a.source = source;
    }
    a.frames.push_back({tag.acceptSlot, slot, a.size});
    if (!a.source)
    {
        const uint8_t* b = source ? source->GetData() + tag.byteOffset : bytes;
        a.bytes.insert(a.bytes.end(), b, b + nBytes);
    }
    a.size += nBytes;
    ep.counters.bytesDelivered += nBytes;
    if (!eop)
    {
        return;
    }
    RiflDelivery rd;
    rd.endpoint = epIndex;
    rd.packetId = a.packetId;
    rd.firstSlot = a.frames.front().accept;
    rd.slot = slot;
    if (a.source && (!m_lean || a.size != a.source->GetSize()))
    {
        unlean(); // not the whole packet, or lean deliveries no longer asked for
    }
    if (a.source)
    {
        // Lean (as TakePacket()): the offered bytes, whole and in order.
        rd.intact = true;
        rd.lean = true;
        rd.source = std::move(a.source);
    }
    else
    {
        // Per user word (§11.2): delivered with the frame holding its last byte,
        // accepted with the frame holding its first byte (frames in byte order).
        const uint32_t w = m_config.userWordBytes;
        const uint32_t total = a.size;
        rd.wordLatencies.reserve((total + w - 1) / w);
        std::size_t fFirst = 0;
        std::size_t fLast = 0;
        const std::size_t nf = a.frames.size();
        for (uint32_t b = 0; b < total; b += w)
        {
            const uint32_t last = std::min<uint32_t>(b + w, total) - 1;
            while (fFirst + 1 < nf && a.frames[fFirst + 1].offset <= b)
            {
                ++fFirst;
            }
            fLast = std::max(fLast, fFirst);
            while (fLast + 1 < nf && a.frames[fLast + 1].offset <= last)
            {
                ++fLast;
            }
            rd.wordLatencies.push_back(a.frames[fLast].deliver - a.frames[fFirst].accept);
        }
        rd.content = std::move(a.bytes);
    }
    a.frames.clear();
    a.bytes = std::vector<uint8_t>();
    ++ep.counters.packetsDelivered;
    if (defer != nullptr)
    {
        defer->push_back(std::move(rd));
    }
    else if (m_deliveryCb)
    {
        m_deliveryCb(std::move(rd));
    }
}

void
RiflFastEngine::Transmit(uint32_t epIndex, bool compensate)
{
    Endpoint& ep = m_ep[epIndex];
    RiflEndpointCounters& c = ep.counters;
    const uint32_t nLanes = m_config.lanes;
    bool groupRxUp = true;
    bool groupAligned = true;
    for (const Lane& lane : ep.lanes)
    {
        groupRxUp = groupRxUp && lane.state.IsRxUp();
        groupAligned = groupAligned && lane.state.IsAligned();
    }

    RiflTxFrame plan[16];
    bool ready[16];
    bool allReady = true;
    for (uint32_t l = 0; l < nLanes; ++l)
    {
        if ((m_dormant >> l) & 1)
        {
            plan[l] = RiflTxFrame::NEW_DATA; // a fill (no sender deals: NoDealPossible())
            ready[l] = true;
            continue;
        }
        RiflLaneState& st = ep.lanes[l].state;
        const RiflTxState before = st.GetTxState();
        const RiflTxState now = st.SelectState(groupRxUp);
        if (now != before)
        {
            m_activity = true;
            m_unsteady = true;
            Emit(RiflLinkEventType::TX_STATE_CHANGE, epIndex, l, 0, static_cast<int64_t>(now),
                 static_cast<int64_t>(before));
        }
        plan[l] = st.PlanFrame(static_cast<uint32_t>(ep.lanes[l].fifo.size()), m_thrOn, m_thrOff,
                               compensate);
        ready[l] = st.IsUserReady(plan[l]);
        allReady = allReady && ready[l];
        if (ready[l])
        {
            ep.lanes[l].linkUp = true;
        }
        if (now != RiflTxState::NORMAL || plan[l] != RiflTxFrame::NEW_DATA || !st.IsRollbackDone())
        {
            m_activity = true;
            m_unsteady = true;
        }
    }
    if (allReady && ep.linkUpSlot == NEVER)
    {
        m_activity = true;
        m_unsteady = true;
        ep.linkUpSlot = m_slot;
    }
    if (compensate)
    {
        ++c.compensationSlots;
    }
    int32_t assigned[16];
    std::fill(assigned, assigned + nLanes, -1);
    std::vector<Segment>& taken = m_taken;
    taken.clear();
    uint32_t takenLane[16];
    uint32_t nTaken = 0;
    if (!ep.txQueue.empty() && !ready[ep.txRoundRobin])
    {
        ++c.userStallSlots;
    }
    for (uint32_t i = 0, l = ep.txRoundRobin; i < nLanes && !ep.txQueue.empty(); ++i)
    {
        if (!ready[l])
        {
            break;
        }
        taken.push_back(PopSegment(ep));
        taken.back().groupSeq = ep.txGroupSeq++;
        assigned[l] = static_cast<int32_t>(nTaken);
        takenLane[nTaken++] = l;
        l = l + 1 == nLanes ? 0 : l + 1; // the next lane, round robin
        ep.txRoundRobin = l;
    }
    if (nTaken > 0 || !ep.txQueue.empty())
    {
        m_activity = true;
    }

    for (uint32_t l = 0; l < nLanes; ++l)
    {
        if ((m_dormant >> l) & 1)
        {
            // A dormant lane sends a fill in NORMAL: its line, buffer and Frame ID are
            // caught up when it wakes (WakeDormant()), its counters here.
            NS_ASSERT(assigned[l] < 0);
            ++c.stateSlots[static_cast<uint8_t>(RiflTxState::NORMAL)];
            ++c.fillFrames;
            continue;
        }
        Lane& lane = ep.lanes[l];
        RiflLaneState& st = lane.state;
        const RiflTxState state = st.GetTxState();
        const RiflTxFrame kind = plan[l];
        // Built in place on the line (no temporary to zero and move); a slot the ring
        // reuses holds a released frame, every other field is set here. The event
        // callbacks below run while it is being built: no public getter reads the line.
        LineFrame& out = lane.line.push_back_slot();
        out.lineSlot = m_slot + 1;
        NS_ASSERT(!out.frame && !out.payload); // released (Ring::push_back_slot())
        out.scrBefore = lane.txScr;
        out.tag = RiflFrameTag();
        out.txId = 0;
        out.fill = false;
        uint64_t content = 0;
        ++c.stateSlots[static_cast<uint8_t>(state)];
        if (state == RiflTxState::RETRANS && st.GetReplayCounter() == 0)
        {
            ++c.replays;
            Emit(RiflLinkEventType::REPLAY_START, epIndex, l, 0, static_cast<int64_t>(c.replays));
        }
        bool newFrame = false;
        switch (kind)
        {
            case RiflTxFrame::PAUSE_REQUEST:
                out.frame = m_pauseReq;
                content = m_cPauseReq;
                ++c.pauseRequestsSent;
                break;
            case RiflTxFrame::IDLE:
                out.frame = m_idle;
                content = m_cIdle;
                ++c.idleSent;
                break;
            case RiflTxFrame::RETRANSMIT_REQUEST:
                out.frame = m_retransReq;
                content = m_cRetransReq;
                ++c.retransRequestsSent;
                break;
            case RiflTxFrame::COMPENSATION_IDLE:
                out.frame = m_idle;
                content = m_cIdle;
                ++c.compensationIdles;
                Emit(RiflLinkEventType::CLOCK_COMPENSATION, epIndex, l, 0,
                     static_cast<int64_t>(out.lineSlot));
                break;
            case RiflTxFrame::REPLAY:
            {
                const RiflBufferEntry& e = st.RotateBuffer();
                out.tag = e.tag;
                if (!e.frame)
                {
                    // A user frame left unbuilt (no scrambler state is tracked): it
                    // stays so on the line.
                    NS_ASSERT(e.payload && e.tag.user && !m_trackScrambler);
                    out.payload = e.payload;
                    ++c.replayedFrames;
                    break;
                }
                const auto fc = e.frame->GetFcNotification();
                if (e.frame->GetMeta() == RiflFrame::Meta::INVALID
                    && fc == RiflFrame::FcNotification::NONE)
                {
                    out.frame = m_fill; // the buffer's fill frames are MakeFill() frames
                    out.fill = true;
                }
                else if (e.frame->GetMeta() == RiflFrame::Meta::INVALID)
                {
                    out.frame = fc == RiflFrame::FcNotification::PAUSE ? m_fcPause : m_fcResume;
                    content = fc == RiflFrame::FcNotification::PAUSE ? m_cFcPause : m_cFcResume;
                }
                else
                {
                    out.frame = e.frame;
                    content = m_trackScrambler ? DataContentState(*e.frame) : 0;
                }
                ++c.replayedFrames;
                break;
            }
            case RiflTxFrame::FC_PAUSE:
            case RiflTxFrame::FC_RESUME:
                out.frame = kind == RiflTxFrame::FC_PAUSE ? m_fcPause : m_fcResume;
                content = kind == RiflTxFrame::FC_PAUSE ? m_cFcPause : m_cFcResume;
                out.tag = RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq++,
                                                true);
                st.PushBuffer(RiflBufferEntry{out.frame, out.tag, nullptr});
                lane.fillPushes = 0;
                ++(kind == RiflTxFrame::FC_PAUSE ? c.fcPauseSent : c.fcResumeSent);
                Emit(kind == RiflTxFrame::FC_PAUSE ? RiflLinkEventType::FC_PAUSE_SENT
                                                   : RiflLinkEventType::FC_RESUME_SENT,
                     epIndex, l, 0, static_cast<int64_t>(out.lineSlot));
                newFrame = true;
                break;
            case RiflTxFrame::NEW_DATA:
                if (assigned[l] >= 0)
                {
                    const Segment& seg = taken[assigned[l]];
                    // Built only where the scrambler state is tracked (its content state
                    // needs it); else the line and the buffer keep the packet.
                    if (m_trackScrambler)
                    {
                        out.frame = SegmentFrame(seg);
                    }
                    else
                    {
                        out.payload = seg.payload;
                    }
                    out.tag.user = true;
                    out.tag.packetId = seg.packetId;
                    out.tag.byteOffset = seg.byteOffset;
                    out.tag.laneSeq = lane.txLaneSeq++;
                    out.tag.laneEopSeq = lane.txLaneEopSeq;
                    lane.txLaneEopSeq += seg.last ? 1 : 0;
                    out.tag.acceptSlot = out.lineSlot;
                    out.tag.groupSeq = seg.groupSeq;
                    out.tag.fcSeq = lane.txFcSeq;
                    content = seg.content;
                    lane.fillPushes = 0;
                    st.PushBuffer(RiflBufferEntry{out.frame, out.tag, out.payload});
                    ++c.newUserFrames;
                }
                else
                {
                    out.frame = m_fill;
                    out.fill = true;
                    out.tag
                        = RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq);
                    if (lane.fillLast + 1 != m_slot)
                    {
                        lane.fillSince = m_slot;
                    }
                    lane.fillLast = m_slot;
                    // Pushing a fill into an all-fill buffer changes nothing (the
                    // fills since the lane's last user frame carry the same tag).
                    if (lane.fillPushes < m_d)
                    {
                        ++lane.fillPushes;
                        st.PushBuffer(RiflBufferEntry{out.frame, out.tag, nullptr});
                    }
                    ++c.fillFrames;
                }
                newFrame = true;
                break;
        }
        if (kind == RiflTxFrame::REPLAY)
        {
            lane.fillPushes = 0; // rotation: be conservative about the buffer's contents
        }
        if (lane.linkUp && !newFrame)
        {
            ++c.slotsLost;
        }
        const uint32_t id = st.CommitFrame(kind, groupAligned);
        if (state == RiflTxState::RETRANS && st.GetReplayCounter() == 0)
        {
            Emit(RiflLinkEventType::REPLAY_END, epIndex, l, 0, static_cast<int64_t>(c.replays));
        }
        out.txId = id;
        if (m_trackScrambler)
        {
            lane.txScr = StepState(lane.txScr) ^ content;
        }
        if (m_selfCheck)
        {
            NS_ABORT_MSG_IF(lane.checkScr.GetState() != out.scrBefore,
                            "RiflFastEngine self-check: scrambler state before a frame differs");
            const BitBlock bits = RiflFrame::Encode(*out.frame, id, lane.checkScr, m_fid);
            NS_ABORT_MSG_IF(RiflFrame::ScramblerStateAfter(bits) != lane.txScr,
                            "RiflFastEngine self-check: tracked scrambler state differs");
        }
    }
    for (uint32_t i = 0; i < nTaken; ++i)
    {
        const Segment& seg = taken[i];
        if (seg.first)
        {
            Emit(RiflLinkEventType::TX_BEGIN, epIndex, takenLane[i], seg.packetId,
                 static_cast<int64_t>(m_slot + 1));
        }
        if (seg.last)
        {
            --ep.pendingPackets;
            Emit(RiflLinkEventType::TX_END, epIndex, takenLane[i], seg.packetId,
                 static_cast<int64_t>(m_slot + 1));
        }
    }
}

} // namespace ns3

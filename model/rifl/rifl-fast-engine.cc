/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-fast-engine.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rifl-check.h"

#include <algorithm>

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
} // namespace

RiflFastEngine::RiflFastEngine(const RiflLinkConfig& config)
    : m_config(config)
{
    m_config.Validate();
    m_fid = m_config.GetFrameIdWidth();
    m_d = m_config.GetBufferDepth();
    m_lineDelay = m_config.GetLineDelaySlots();
    m_rxUpSlots = m_config.GetRxUpSlots();
    m_fifoDepth = m_config.GetFcFifoDepth();
    m_thrOn = m_config.GetFcThrOn();
    m_thrOff = m_config.GetFcThrOff();
    const uint32_t s = m_config.frameSize;
    m_fill = RiflFrame::MakeFill(s);
    m_idle = RiflFrame::MakeIdle(s);
    m_pauseReq = RiflFrame::MakePauseRequest(s);
    m_retransReq = RiflFrame::MakeRetransmitRequest(s);
    m_fcPause = RiflFrame::MakeFcNotification(s, RiflFrame::FcNotification::PAUSE);
    m_fcResume = RiflFrame::MakeFcNotification(s, RiflFrame::FcNotification::RESUME);
    m_cIdle = ContentState(m_idle);
    m_cPauseReq = ContentState(m_pauseReq);
    m_cRetransReq = ContentState(m_retransReq);
    m_cFcPause = ContentState(m_fcPause);
    m_cFcResume = ContentState(m_fcResume);
    // M: column j = the state after one fill frame (zero input) from state bit j alone.
    Matrix m{};
    for (uint32_t j = 0; j < RiflScrambler::STATE_BITS; ++j)
    {
        RiflScrambler scr(uint64_t{1} << j);
        m[j] = RiflFrame::ScramblerStateAfter(RiflFrame::Encode(m_fill, 0, scr, m_fid));
    }
    m_pow2[0] = m;
    for (std::size_t k = 1; k < m_pow2.size(); ++k)
    {
        m_pow2[k] = Multiply(m_pow2[k - 1], m_pow2[k - 1]);
    }
    for (auto& ep : m_ep)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            ep.lanes.push_back(
                Lane{RiflLaneState(m_fid, m_config.GetReplaySlots(), m_config.frameSize),
                     0,
                     0,
                     RiflScrambler(),
                     {},
                     {},
                     nullptr,
                     nullptr,
                     0,
                     0,
                     false,
                     m_d}); // the buffer starts with D fill frames
        }
    }
    NS_LOG_INFO("RiflFastEngine: " << m_config.ToString());
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
    if (process)
    {
        process->SetFrameBits(m_config.frameSize);
    }
    m_ep[sender].lanes[lane].errors = process;
}

void
RiflFastEngine::SetSyncLossProcess(uint32_t sender, uint32_t lane, Ptr<SyncLossProcess> process)
{
    CheckIndex(sender, lane);
    if (process)
    {
        process->SetSlotDuration(Seconds(m_config.GetSlotTimeNs() * 1e-9));
    }
    m_ep[sender].lanes[lane].syncLoss = process;
}

void
RiflFastEngine::OfferPacket(uint32_t endpoint, uint64_t packetId, const std::vector<uint8_t>& payload)
{
    CheckIndex(endpoint, 0);
    RIFL_CHECK_ARG(payload.empty() || payload.size() > MAX_PACKET_BYTES,
                   "RiflFastEngine: payload size = " << payload.size()
                                                     << " bytes is outside 1..100000000");
    const auto frames = RiflFrame::CutPacket(m_config.frameSize, payload);
    const uint32_t p = m_config.GetPayloadBytes();
    for (std::size_t i = 0; i < frames.size(); ++i)
    {
        m_ep[endpoint].txQueue.push_back(Segment{frames[i],
                                                 packetId,
                                                 static_cast<uint32_t>(i * p),
                                                 i == 0,
                                                 i + 1 == frames.size()});
    }
    ++m_ep[endpoint].pendingPackets;
}

uint64_t
RiflFastEngine::GetSlot() const
{
    return m_slot;
}

void
RiflFastEngine::AdvanceTo(uint64_t slot)
{
    while (m_slot < slot)
    {
        if (IsQuiescent())
        {
            const uint64_t h = std::min(slot, JumpHorizon());
            const uint64_t n = h > m_slot ? (h - m_slot) / m_d * m_d : 0;
            if (n > 0)
            {
                Jump(n);
                continue;
            }
        }
        Step();
    }
}

uint64_t
RiflFastEngine::NextEventSlot()
{
    if (IsQuiescent())
    {
        return JumpHorizon();
    }
    return m_slot;
}

uint64_t
RiflFastEngine::GetPendingPackets(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].pendingPackets;
}

const RiflEndpointCounters&
RiflFastEngine::GetCounters(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
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
    CheckIndex(endpoint, lane);
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
RiflFastEngine::GetMaterialisedFrames() const
{
    return m_materialised;
}

void
RiflFastEngine::SetSelfCheck(bool on)
{
    RIFL_CHECK_ARG(m_slot != 0, "RiflFastEngine: SetSelfCheck at slot " << m_slot << " (only 0)");
    m_selfCheck = on;
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
            r = Multiply(m_pow2[k], r);
        }
    }
    return r;
}

uint64_t
RiflFastEngine::ContentState(const RiflFrame& f) const
{
    RiflScrambler zero;
    return RiflFrame::ScramblerStateAfter(RiflFrame::Encode(f, 0, zero, m_fid));
}

void
RiflFastEngine::Emit(RiflLinkEventType type,
                     uint32_t endpoint,
                     uint32_t lane,
                     uint64_t packetId,
                     int64_t value,
                     int64_t value2)
{
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
    if (m_selfCheck || m_quietSlots < m_lineDelay + QUIET_MARGIN)
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
            if (!lane.fifo.empty() || lane.rxDelta != 0 || st.GetTxState() != RiflTxState::NORMAL ||
                !st.IsRollbackDone() || st.GetFcNotified() || st.GetRemoteFcPause() ||
                !st.IsRxUp() || st.GetResumeWait() < m_d)
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
    // The next line slot to be received is m_slot - L - 4 (m_slot is past L + 24 here).
    const uint64_t nextLine = m_slot - m_lineDelay - FLAG_DELAY;
    uint64_t h = NEVER;
    for (Endpoint& ep : m_ep)
    {
        for (Lane& lane : ep.lanes)
        {
            if (lane.errors)
            {
                const FrameErrorEvent& ev = lane.errors->Peek();
                if (ev.slot != FrameErrorEvent::NO_MORE_ERRORS)
                {
                    h = std::min(h, std::max(ev.slot, nextLine) + m_lineDelay + FLAG_DELAY);
                }
            }
            if (lane.syncLoss)
            {
                // Events over before the next received frame are popped as Receive() would.
                const SyncLossEvent* ev = &lane.syncLoss->Peek();
                while (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS &&
                       ev->startSlot + ev->durationSlots <= nextLine)
                {
                    lane.syncLoss->Pop();
                    ev = &lane.syncLoss->Peek();
                }
                if (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS)
                {
                    h = std::min(h, std::max(ev->startSlot, nextLine) + m_lineDelay + FLAG_DELAY);
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
    NS_LOG_LOGIC("jump " << n << " slots from " << m_slot);
    const Matrix p = Power(n);
    const uint64_t laneSlots = n * m_config.lanes;
    const double rate = m_config.drainFramesPerSlot;
    for (Endpoint& ep : m_ep)
    {
        for (Lane& lane : ep.lanes)
        {
            // Every per-slot rule is periodic with period D here; only the buffer
            // changes: its last D entries are fill frames.
            for (; lane.fillPushes < m_d; ++lane.fillPushes)
            {
                lane.state.PushBuffer(RiflBufferEntry{m_fill, RiflFrameTag{}});
            }
            lane.txScr = Apply(p, lane.txScr);
            for (LineFrame& f : lane.line)
            {
                f.lineSlot += n;
                f.scrBefore = Apply(p, f.scrBefore);
            }
        }
        RiflEndpointCounters& c = ep.counters;
        c.fillFrames += laneSlots;
        c.stateSlots[static_cast<uint8_t>(RiflTxState::NORMAL)] += laneSlots;
        c.framesReceived += laneSlots;
        c.dataFramesDelivered += laneSlots;
        if (rate != 0.0)
        {
            // The same saturating additions Drain() makes with an empty FIFO.
            const double cap = std::max(1.0, rate);
            for (uint64_t i = 0; i < n && ep.drainCredit != cap; ++i)
            {
                ep.drainCredit = std::min(ep.drainCredit + rate, cap);
            }
        }
    }
    m_slot += n;
    m_jumped += n;
}

// ------------------------------------------------------------------ slot mode

void
RiflFastEngine::Step()
{
    const uint64_t t = m_slot;
    m_activity = false;
    for (uint32_t rx = 0; rx < 2; ++rx)
    {
        const uint32_t sender = 1 - rx;
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            auto& line = m_ep[sender].lanes[l].line;
            while (!line.empty() && line.front().lineSlot + m_lineDelay + FLAG_DELAY <= t)
            {
                NS_ASSERT(line.front().lineSlot + m_lineDelay + FLAG_DELAY == t);
                Receive(rx, l, line.front());
                line.pop_front();
            }
        }
    }
    Drain(ENDPOINT_A);
    Drain(ENDPOINT_B);
    Transmit(ENDPOINT_A);
    Transmit(ENDPOINT_B);
    ++m_slot;
    ++m_stepped;
    m_quietSlots = m_activity ? 0 : m_quietSlots + 1;
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

    bool syncLost = false;
    if (sendLane.syncLoss)
    {
        const SyncLossEvent* ev = &sendLane.syncLoss->Peek();
        while (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS &&
               ev->startSlot + ev->durationSlots <= n)
        {
            sendLane.syncLoss->Pop();
            ev = &sendLane.syncLoss->Peek();
        }
        syncLost = ev->startSlot != SyncLossEvent::NO_MORE_EVENTS && ev->startSlot <= n;
    }
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
    if (!syncLost && flips.empty() && lane.rxDelta == 0)
    {
        const RiflFrame& fr = f.frame;
        d.kind = fr.GetKind();
        d.checkPassed = f.txId == st.GetExpectedId();
        d.status = d.checkPassed ? RiflFrame::Status::OK : RiflFrame::Status::CHECK_FAILED;
        d.key = fr.GetKey();
        d.meta = fr.GetMeta();
        d.validBytes = fr.GetValidBytes();
        d.fc = fr.GetFcNotification();
    }
    else
    {
        m_activity = true;
        ++m_materialised;
        RiflScrambler tx(f.scrBefore);
        const BitBlock sent = RiflFrame::Encode(f.frame, f.txId, tx, m_fid);
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
    const std::vector<uint8_t>& payload = d.payload.empty() ? f.frame.GetPayload() : d.payload;
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
        Emit(upBefore ? RiflLinkEventType::RX_DOWN : RiflLinkEventType::RX_UP,
             rx,
             laneIndex,
             0,
             static_cast<int64_t>(n),
             st.IsAligned() ? 1 : 0);
    }
    if (!st.IsAligned())
    {
        m_activity = true;
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
        return;
    }
    const bool passed = legal && d.checkPassed;
    const RiflLaneState::Verdict v = st.OnCheck(passed, d.kind == RiflFrame::Kind::DATA);
    if (v != RiflLaneState::Verdict::DELIVER)
    {
        m_activity = true;
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
        Emit(RiflLinkEventType::FRAME_ERROR,
             rx,
             laneIndex,
             0,
             static_cast<int64_t>(d.status),
             static_cast<int64_t>(n));
        return;
    }
    if (changed)
    {
        ++c.undetectedErrors;
        NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                            << ": undetected error in the frame of line slot " << n);
        Emit(RiflLinkEventType::UNDETECTED_ERROR,
             rx,
             laneIndex,
             f.tag.user ? f.tag.packetId : 0,
             static_cast<int64_t>(v),
             static_cast<int64_t>(n));
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
    if (d.meta == RiflFrame::Meta::INVALID)
    {
        if (d.fc == RiflFrame::FcNotification::PAUSE)
        {
            m_activity = true;
            st.SetRemoteFcPause(true);
            ++c.fcPauseReceived;
            Emit(RiflLinkEventType::FC_PAUSE_RECEIVED, rx, laneIndex, 0, static_cast<int64_t>(n));
        }
        else if (d.fc == RiflFrame::FcNotification::RESUME)
        {
            m_activity = true;
            st.SetRemoteFcPause(false);
            ++c.fcResumeReceived;
            Emit(RiflLinkEventType::FC_RESUME_RECEIVED, rx, laneIndex, 0, static_cast<int64_t>(n));
        }
        if (f.tag.user)
        {
            ++c.contentMismatches;
        }
        return;
    }

    m_activity = true;
    if (!f.tag.user || d.meta != f.frame.GetMeta() || payload != f.frame.GetPayload())
    {
        ++c.contentMismatches;
    }
    if (f.tag.user)
    {
        if (f.tag.laneSeq < lane.rxNextSeq)
        {
            ++c.duplicatesDelivered;
            NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                                << ": user frame " << f.tag.laneSeq << " (packet " << f.tag.packetId
                                << ") delivered again");
            Emit(RiflLinkEventType::DUPLICATE_DELIVERY,
                 rx,
                 laneIndex,
                 f.tag.packetId,
                 f.tag.byteOffset,
                 static_cast<int64_t>(f.tag.laneSeq));
        }
        else
        {
            if (f.tag.laneSeq > lane.rxNextSeq)
            {
                ++c.outOfOrderDeliveries;
            }
            lane.rxNextSeq = f.tag.laneSeq + 1;
        }
    }
    if (lane.fifo.size() >= m_fifoDepth)
    {
        ++c.fcFifoDrops;
        Emit(RiflLinkEventType::FC_FIFO_DROP,
             rx,
             laneIndex,
             f.tag.packetId,
             f.tag.byteOffset,
             static_cast<int64_t>(f.tag.laneSeq));
        return;
    }
    FifoEntry e;
    e.readySlot = n + m_lineDelay + USER_DELAY;
    e.bytes.assign(payload.begin(), payload.begin() + d.validBytes);
    e.eop = d.meta == RiflFrame::Meta::LAST_FULL || d.meta == RiflFrame::Meta::LAST_PARTIAL;
    e.tag = f.tag;
    lane.fifo.push_back(std::move(e));
    c.maxFcOccupancy = std::max<uint64_t>(c.maxFcOccupancy, lane.fifo.size());
}

void
RiflFastEngine::Drain(uint32_t epIndex)
{
    Endpoint& ep = m_ep[epIndex];
    const double rate = m_config.drainFramesPerSlot;
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
        ep.rxRoundRobin = (ep.rxRoundRobin + 1) % m_config.lanes;
        if (!unlimited)
        {
            ep.drainCredit -= 1.0;
        }
        Assembly& a = ep.assembly;
        if (!a.started)
        {
            a.started = true;
            a.packetId = e.tag.packetId;
            a.firstAccept = e.tag.acceptSlot;
        }
        a.bytes.insert(a.bytes.end(), e.bytes.begin(), e.bytes.end());
        ep.counters.bytesDelivered += e.bytes.size();
        if (!e.eop)
        {
            continue;
        }
        RiflDelivery rd;
        rd.endpoint = epIndex;
        rd.packetId = a.packetId;
        rd.firstSlot = a.firstAccept;
        rd.slot = m_slot;
        rd.content = std::move(a.bytes);
        a = Assembly{};
        ++ep.counters.packetsDelivered;
        if (m_deliveryCb)
        {
            m_deliveryCb(rd);
        }
    }
}

void
RiflFastEngine::Transmit(uint32_t epIndex)
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
        RiflLaneState& st = ep.lanes[l].state;
        const RiflTxState before = st.GetTxState();
        const RiflTxState now = st.SelectState(groupRxUp);
        if (now != before)
        {
            m_activity = true;
            Emit(RiflLinkEventType::TX_STATE_CHANGE,
                 epIndex,
                 l,
                 0,
                 static_cast<int64_t>(now),
                 static_cast<int64_t>(before));
        }
        plan[l] = st.PlanFrame(static_cast<uint32_t>(ep.lanes[l].fifo.size()), m_thrOn, m_thrOff);
        ready[l] = st.IsUserReady(plan[l]);
        allReady = allReady && ready[l];
        if (ready[l])
        {
            ep.lanes[l].linkUp = true;
        }
        if (now != RiflTxState::NORMAL || plan[l] != RiflTxFrame::NEW_DATA ||
            !st.IsRollbackDone())
        {
            m_activity = true;
        }
    }
    if (allReady && ep.linkUpSlot == NEVER)
    {
        m_activity = true;
        ep.linkUpSlot = m_slot;
    }
    int32_t assigned[16];
    std::fill(assigned, assigned + nLanes, -1);
    Segment taken[16];
    uint32_t takenLane[16];
    uint32_t nTaken = 0;
    if (!ep.txQueue.empty() && !ready[ep.txRoundRobin])
    {
        ++c.userStallSlots;
    }
    const uint32_t start = ep.txRoundRobin;
    for (uint32_t i = 0; i < nLanes && !ep.txQueue.empty(); ++i)
    {
        const uint32_t l = (start + i) % nLanes;
        if (!ready[l])
        {
            break;
        }
        taken[nTaken] = std::move(ep.txQueue.front());
        ep.txQueue.pop_front();
        assigned[l] = static_cast<int32_t>(nTaken);
        takenLane[nTaken++] = l;
        ep.txRoundRobin = (l + 1) % nLanes;
    }
    if (nTaken > 0 || !ep.txQueue.empty())
    {
        m_activity = true;
    }

    for (uint32_t l = 0; l < nLanes; ++l)
    {
        Lane& lane = ep.lanes[l];
        RiflLaneState& st = lane.state;
        const RiflTxState state = st.GetTxState();
        const RiflTxFrame kind = plan[l];
        LineFrame out;
        out.lineSlot = m_slot + 1;
        out.scrBefore = lane.txScr;
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
        case RiflTxFrame::REPLAY: {
            const RiflBufferEntry& e = st.RotateBuffer();
            out.frame = e.frame;
            out.tag = e.tag;
            const auto fc = e.frame.GetFcNotification();
            if (e.frame.GetMeta() == RiflFrame::Meta::INVALID &&
                fc == RiflFrame::FcNotification::NONE)
            {
                out.fill = true;
            }
            else if (e.frame.GetMeta() == RiflFrame::Meta::INVALID)
            {
                content = fc == RiflFrame::FcNotification::PAUSE ? m_cFcPause : m_cFcResume;
            }
            else
            {
                content = ContentState(e.frame);
            }
            ++c.replayedFrames;
            break;
        }
        case RiflTxFrame::FC_PAUSE:
        case RiflTxFrame::FC_RESUME:
            out.frame = kind == RiflTxFrame::FC_PAUSE ? m_fcPause : m_fcResume;
            content = kind == RiflTxFrame::FC_PAUSE ? m_cFcPause : m_cFcResume;
            st.PushBuffer(RiflBufferEntry{out.frame, out.tag});
            lane.fillPushes = 0;
            ++(kind == RiflTxFrame::FC_PAUSE ? c.fcPauseSent : c.fcResumeSent);
            Emit(kind == RiflTxFrame::FC_PAUSE ? RiflLinkEventType::FC_PAUSE_SENT
                                               : RiflLinkEventType::FC_RESUME_SENT,
                 epIndex,
                 l,
                 0,
                 static_cast<int64_t>(out.lineSlot));
            newFrame = true;
            break;
        case RiflTxFrame::NEW_DATA:
            if (assigned[l] >= 0)
            {
                const Segment& seg = taken[assigned[l]];
                out.frame = seg.frame;
                out.tag.user = true;
                out.tag.packetId = seg.packetId;
                out.tag.byteOffset = seg.byteOffset;
                out.tag.laneSeq = lane.txLaneSeq++;
                out.tag.acceptSlot = out.lineSlot;
                content = ContentState(seg.frame);
                lane.fillPushes = 0;
                ++c.newUserFrames;
            }
            else
            {
                out.frame = m_fill;
                out.fill = true;
                if (lane.fillPushes < m_d)
                {
                    ++lane.fillPushes;
                }
                ++c.fillFrames;
            }
            st.PushBuffer(RiflBufferEntry{out.frame, out.tag});
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
        lane.txScr = Apply(m_pow2[0], lane.txScr) ^ content;
        if (m_selfCheck)
        {
            NS_ABORT_MSG_IF(lane.checkScr.GetState() != out.scrBefore,
                            "RiflFastEngine self-check: scrambler state before a frame differs");
            const BitBlock bits = RiflFrame::Encode(out.frame, id, lane.checkScr, m_fid);
            NS_ABORT_MSG_IF(RiflFrame::ScramblerStateAfter(bits) != lane.txScr,
                            "RiflFastEngine self-check: tracked scrambler state differs");
        }
        lane.line.push_back(std::move(out));
    }
    for (uint32_t i = 0; i < nTaken; ++i)
    {
        const Segment& seg = taken[i];
        if (seg.first)
        {
            Emit(RiflLinkEventType::TX_BEGIN,
                 epIndex,
                 takenLane[i],
                 seg.packetId,
                 static_cast<int64_t>(m_slot + 1));
        }
        if (seg.last)
        {
            --ep.pendingPackets;
            Emit(RiflLinkEventType::TX_END,
                 epIndex,
                 takenLane[i],
                 seg.packetId,
                 static_cast<int64_t>(m_slot + 1));
        }
    }
}

} // namespace ns3

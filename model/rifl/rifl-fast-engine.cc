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
/// Shortest loaded jump worth its set-up (slots).
constexpr uint64_t MIN_LOADED_JUMP = 1;

/**
 * \param m a Data Frame's meta code.
 * \return true if the frame ends a user packet (TLAST).
 */
bool
IsPacketEnd(RiflFrame::Meta m)
{
    return m == RiflFrame::Meta::LAST_FULL || m == RiflFrame::Meta::LAST_PARTIAL;
}
} // namespace

RiflFastEngine::RiflFastEngine(const RiflLinkConfig& config)
    : m_config(config)
{
    m_config.Validate();
    m_fid = m_config.GetFrameIdWidth();
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
    m_fill = std::make_shared<const RiflFrame>(RiflFrame::MakeFill(s));
    m_idle = std::make_shared<const RiflFrame>(RiflFrame::MakeIdle(s));
    m_pauseReq = std::make_shared<const RiflFrame>(RiflFrame::MakePauseRequest(s));
    m_retransReq = std::make_shared<const RiflFrame>(RiflFrame::MakeRetransmitRequest(s));
    m_fcPause = std::make_shared<const RiflFrame>(
        RiflFrame::MakeFcNotification(s, RiflFrame::FcNotification::PAUSE));
    m_fcResume = std::make_shared<const RiflFrame>(
        RiflFrame::MakeFcNotification(s, RiflFrame::FcNotification::RESUME));
    m_cIdle = ContentState(*m_idle);
    m_cPauseReq = ContentState(*m_pauseReq);
    m_cRetransReq = ContentState(*m_retransReq);
    m_cFcPause = ContentState(*m_fcPause);
    m_cFcResume = ContentState(*m_fcResume);
    m_taken.reserve(m_config.lanes);
    BuildContentTables();
    // M: column j = the state after one fill frame (zero input) from state bit j alone.
    Matrix m{};
    for (uint32_t j = 0; j < RiflScrambler::STATE_BITS; ++j)
    {
        RiflScrambler scr(uint64_t{1} << j);
        m[j] = RiflFrame::ScramblerStateAfter(RiflFrame::Encode(*m_fill, 0, scr, m_fid));
    }
    m_pow2[0] = m;
    for (std::size_t k = 1; k < m_pow2.size(); ++k)
    {
        m_pow2[k] = Multiply(m_pow2[k - 1], m_pow2[k - 1]);
    }
    for (uint32_t b = 0; b < m_stepTable.size(); ++b)
    {
        for (uint32_t v = 0; v < 256; ++v)
        {
            m_stepTable[b][v] = Apply(m, (uint64_t{v} << (8 * b)) & RiflScrambler::STATE_MASK);
        }
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
RiflFastEngine::OfferPacket(uint32_t endpoint, uint64_t packetId,
                            const std::vector<uint8_t>& payload)
{
    CheckIndex(endpoint, 0);
    RIFL_CHECK_ARG(payload.empty() || payload.size() > MAX_PACKET_BYTES,
                   "RiflFastEngine: payload size = " << payload.size()
                                                     << " bytes is outside 1..100000000");
    auto frames = RiflFrame::CutPacket(m_config.frameSize, payload);
    const uint32_t p = m_config.GetPayloadBytes();
    for (std::size_t i = 0; i < frames.size(); ++i)
    {
        Segment seg{std::make_shared<const RiflFrame>(std::move(frames[i])),
                    packetId,
                    static_cast<uint32_t>(i * p),
                    i == 0,
                    i + 1 == frames.size(),
                    0,
                    0};
        seg.content = DataContentState(*seg.frame);
        m_ep[endpoint].txQueue.push_back(std::move(seg));
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
        else if (slot - m_slot >= MIN_LOADED_JUMP && LoadedWork() && IsLoadedSteady())
        {
            // Through the queued segments and their deliveries, up to the next error.
            const uint64_t h = std::min({slot, JumpHorizon(), m_slot + LoadedWork()});
            if (h >= m_slot + MIN_LOADED_JUMP)
            {
                LoadedJump(h);
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
    if (LoadedWork() && IsLoadedSteady())
    {
        return LoadedNextEvent();
    }
    return m_slot;
}

uint64_t
RiflFastEngine::GetPendingPackets(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].pendingPackets;
}

uint64_t
RiflFastEngine::GetHeldPacketEnds(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    uint64_t n = 0;
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
RiflFastEngine::GetLoadedJumpedSlots() const
{
    return m_loadedJumped;
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

uint64_t
RiflFastEngine::StepState(uint64_t v) const
{
    return m_stepTable[0][v & 0xff] ^ m_stepTable[1][(v >> 8) & 0xff]
           ^ m_stepTable[2][(v >> 16) & 0xff] ^ m_stepTable[3][(v >> 24) & 0xff]
           ^ m_stepTable[4][(v >> 32) & 0xff];
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

void
RiflFastEngine::BuildContentTables()
{
    // c() is linear over GF(2) from state 0: the XOR of the images of the set
    // input bits. One table per payload byte position, one for the 2 Meta bits.
    const uint32_t s = m_config.frameSize;
    const uint32_t p = m_config.GetPayloadBytes();
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
    for (uint32_t m = 0; m < 4; ++m)
    {
        m_metaTable[m] = image(static_cast<int32_t>(m), 0, 0);
    }
    m_byteTable.assign(p, std::array<uint64_t, 256>{});
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
            m_byteTable[i][v] = x;
        }
    }
}

uint64_t
RiflFastEngine::DataContentState(const RiflFrame& f) const
{
    const std::vector<uint8_t>& p = f.GetPayload();
    if (f.GetKind() != RiflFrame::Kind::DATA || p.size() > m_byteTable.size())
    {
        return ContentState(f);
    }
    uint64_t x = m_metaTable[static_cast<uint8_t>(f.GetMeta())];
    for (std::size_t i = 0; i < p.size(); ++i)
    {
        x ^= m_byteTable[i][p[i]];
    }
    return x;
}

uint64_t
RiflFastEngine::ContentState(const RiflFrame& f) const
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
    if (m_selfCheck || m_quietSlots < m_maxDelay + QUIET_MARGIN)
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
    for (Endpoint& ep : m_ep)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            Lane& lane = ep.lanes[l];
            const uint64_t delay = m_laneDelay[l] + FLAG_DELAY;
            const uint64_t nextLine = m_slot - delay;
            if (lane.errors)
            {
                const FrameErrorEvent& ev = lane.errors->Peek();
                if (ev.slot != FrameErrorEvent::NO_MORE_ERRORS)
                {
                    h = std::min(h, std::max(ev.slot, nextLine) + delay);
                }
            }
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
    const Matrix p = Power(n);
    const uint64_t laneSlots = n * m_config.lanes;
    for (uint32_t e = 0; e < 2; ++e)
    {
        Endpoint& ep = m_ep[e];
        const double rate = m_drainRate[e];
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

// ------------------------------------------------------------------ loaded run mode

bool
RiflFastEngine::IsLoadedSteady()
{
    if (m_loadedSteady)
    {
        return true; // nothing but loaded jumps since the last full check
    }
    if (m_drainRate[0] != 0.0 || m_drainRate[1] != 0.0 || m_thrOn < 2 || m_maxDelay != m_lineDelay
        || m_steadySlots < m_lineDelay + QUIET_MARGIN || m_slot < m_lineDelay + QUIET_MARGIN)
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
        w = std::max<uint64_t>(w, (tx.txQueue.size() + nLanes - 1) / nLanes);
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
        for (std::size_t j = 0; j < tx.txQueue.size() && m_slot + j / nLanes < h; ++j)
        {
            if (tx.txQueue[j].first || tx.txQueue[j].last)
            {
                h = std::min<uint64_t>(h, m_slot + j / nLanes);
                break;
            }
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
                const auto meta = f.frame->GetMeta();
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
        const uint64_t k = std::min<uint64_t>(ep.txQueue.size(), n * nLanes);
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
                    const Segment& seg = ep.txQueue[j];
                    out.frame = seg.frame;
                    out.tag.user = true;
                    out.tag.packetId = seg.packetId;
                    out.tag.byteOffset = seg.byteOffset;
                    out.tag.laneSeq = lane.txLaneSeq++;
                    out.tag.laneEopSeq = lane.txLaneEopSeq;
                    lane.txLaneEopSeq += IsPacketEnd(seg.frame->GetMeta()) ? 1 : 0;
                    out.tag.acceptSlot = lineSlot;
                    out.tag.groupSeq = seq0 + j;
                    lane.txScr = StepState(lane.txScr) ^ seg.content;
                    lane.fillPushes = 0;
                }
                else
                {
                    out.frame = m_fill;
                    out.fill = true;
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
                    lane.state.PushBuffer(RiflBufferEntry{out.frame, out.tag});
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
            const Segment& seg = ep.txQueue[j];
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
        ep.txQueue.erase(ep.txQueue.begin(), ep.txQueue.begin() + k);
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
            TakeFrame(r, e.Data(), e.nBytes, e.eop, e.tag, e.readySlot, &out);
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
                TakeFrame(r, p.data(), nb, eop, f.tag, ready, &out);
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

    // ---- Callbacks in the reference's order: per slot, deliveries A, B, then TX A, B.
    std::array<std::size_t, 4> idx{0, 0, 0, 0};
    while (true)
    {
        uint64_t best = NEVER;
        int cat = -1;
        for (int k = 0; k < 4; ++k)
        {
            uint64_t sl = NEVER;
            if (k < 2 && idx[k] < deliveries[k].size())
            {
                sl = deliveries[k][idx[k]].slot;
            }
            else if (k >= 2 && idx[k] < txEvents[k - 2].size())
            {
                sl = txEvents[k - 2][idx[k]].slot;
            }
            if (sl < best)
            {
                best = sl;
                cat = k;
            }
        }
        if (cat < 0)
        {
            break;
        }
        if (cat < 2)
        {
            if (m_deliveryCb)
            {
                m_deliveryCb(deliveries[cat][idx[cat]]);
            }
        }
        else if (m_eventCb)
        {
            m_eventCb(txEvents[cat - 2][idx[cat]]);
        }
        ++idx[cat];
    }
    m_slot = t1;
    m_steadySlots += n;
    m_quietSlots = 0;
    m_loadedJumped += n;
    m_jumped += n;
}

// ------------------------------------------------------------------ slot mode

void
RiflFastEngine::Step()
{
    const uint64_t t = m_slot;
    m_loadedSteady = false;
    m_activity = false;
    m_unsteady = false;
    for (uint32_t rx = 0; rx < 2; ++rx)
    {
        const uint32_t sender = 1 - rx;
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            auto& line = m_ep[sender].lanes[l].line;
            while (!line.empty() && line.front().lineSlot + m_laneDelay[l] + FLAG_DELAY <= t)
            {
                NS_ASSERT(line.front().lineSlot + m_laneDelay[l] + FLAG_DELAY == t);
                Receive(rx, l, line.front());
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
        while (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS
               && ev->startSlot + ev->durationSlots <= n)
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
        const RiflFrame& fr = *f.frame;
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
        m_unsteady = true;
        ++m_materialised;
        RiflScrambler tx(f.scrBefore);
        const BitBlock sent = RiflFrame::Encode(*f.frame, f.txId, tx, m_fid);
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
    const std::vector<uint8_t>& payload = d.payload.empty() ? f.frame->GetPayload() : d.payload;
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
        return;
    }

    m_activity = true;
    if (!f.tag.user || d.meta != f.frame->GetMeta() || payload != f.frame->GetPayload())
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
            lane.rxNextEopSeq = f.tag.laneEopSeq + (IsPacketEnd(f.frame->GetMeta()) ? 1 : 0);
        }
    }
    if (lane.fifo.size() >= m_fifoDepth[rx])
    {
        m_unsteady = true;
        ++c.fcFifoDrops;
        c.packetEndsLost += f.tag.user && IsPacketEnd(f.frame->GetMeta()) ? 1 : 0;
        Emit(RiflLinkEventType::FC_FIFO_DROP, rx, laneIndex, f.tag.packetId, f.tag.byteOffset,
             static_cast<int64_t>(f.tag.laneSeq));
        return;
    }
    FifoEntry e;
    e.readySlot = n + m_laneDelay[laneIndex] + USER_DELAY;
    e.nBytes = d.validBytes;
    if (&payload == &f.frame->GetPayload() || payload == f.frame->GetPayload())
    {
        e.frame = f.frame;
    }
    else
    {
        e.bytes.assign(payload.begin(), payload.begin() + d.validBytes);
    }
    e.eop = d.meta == RiflFrame::Meta::LAST_FULL || d.meta == RiflFrame::Meta::LAST_PARTIAL;
    e.tag = f.tag;
    lane.fifo.push_back(std::move(e));
    c.maxFcOccupancy = std::max<uint64_t>(c.maxFcOccupancy, lane.fifo.size());
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
        TakeFrame(epIndex, e.Data(), e.nBytes, e.eop, e.tag, m_slot);
    }
}

void
RiflFastEngine::TakeFrame(uint32_t epIndex, const uint8_t* bytes, uint32_t nBytes, bool eop,
                          const RiflFrameTag& tag, uint64_t slot, std::vector<RiflDelivery>* defer)
{
    Endpoint& ep = m_ep[epIndex];
    ep.rxRoundRobin = (ep.rxRoundRobin + 1) % m_config.lanes;
    ep.rxGroupSeq = tag.groupSeq + 1;
    Assembly& a = ep.assembly;
    if (a.offsets.empty())
    {
        a.packetId = tag.packetId;
    }
    a.offsets.push_back(static_cast<uint32_t>(a.bytes.size()));
    a.accept.push_back(tag.acceptSlot);
    a.deliver.push_back(slot);
    a.bytes.insert(a.bytes.end(), bytes, bytes + nBytes);
    ep.counters.bytesDelivered += nBytes;
    if (!eop)
    {
        return;
    }
    RiflDelivery rd;
    rd.endpoint = epIndex;
    rd.packetId = a.packetId;
    rd.firstSlot = a.accept.front();
    rd.slot = slot;
    // Per user word (§11.2): delivered with the frame holding its last byte,
    // accepted with the frame holding its first byte (frames in byte order).
    const uint32_t w = m_config.userWordBytes;
    const uint32_t total = static_cast<uint32_t>(a.bytes.size());
    rd.wordLatencies.reserve((total + w - 1) / w);
    std::size_t fFirst = 0;
    std::size_t fLast = 0;
    const std::size_t nf = a.offsets.size();
    for (uint32_t first = 0; first < total; first += w)
    {
        const uint32_t last = std::min<uint32_t>(first + w, total) - 1;
        while (fFirst + 1 < nf && a.offsets[fFirst + 1] <= first)
        {
            ++fFirst;
        }
        fLast = std::max(fLast, fFirst);
        while (fLast + 1 < nf && a.offsets[fLast + 1] <= last)
        {
            ++fLast;
        }
        rd.wordLatencies.push_back(a.deliver[fLast] - a.accept[fFirst]);
    }
    rd.content = std::move(a.bytes);
    a.offsets.clear();
    a.accept.clear();
    a.deliver.clear();
    a.bytes = std::vector<uint8_t>();
    ++ep.counters.packetsDelivered;
    if (defer != nullptr)
    {
        defer->push_back(std::move(rd));
    }
    else if (m_deliveryCb)
    {
        m_deliveryCb(rd);
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
    const uint32_t start = ep.txRoundRobin;
    for (uint32_t i = 0; i < nLanes && !ep.txQueue.empty(); ++i)
    {
        const uint32_t l = (start + i) % nLanes;
        if (!ready[l])
        {
            break;
        }
        taken.push_back(std::move(ep.txQueue.front()));
        ep.txQueue.pop_front();
        taken.back().groupSeq = ep.txGroupSeq++;
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
                    content = DataContentState(*e.frame);
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
                     epIndex, l, 0, static_cast<int64_t>(out.lineSlot));
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
                    out.tag.laneEopSeq = lane.txLaneEopSeq;
                    lane.txLaneEopSeq += IsPacketEnd(seg.frame->GetMeta()) ? 1 : 0;
                    out.tag.acceptSlot = out.lineSlot;
                    out.tag.groupSeq = seg.groupSeq;
                    content = seg.content;
                    lane.fillPushes = 0;
                    st.PushBuffer(RiflBufferEntry{out.frame, out.tag});
                    ++c.newUserFrames;
                }
                else
                {
                    out.frame = m_fill;
                    out.fill = true;
                    // Pushing a fill into an all-fill buffer changes nothing.
                    if (lane.fillPushes < m_d)
                    {
                        ++lane.fillPushes;
                        st.PushBuffer(RiflBufferEntry{out.frame, out.tag});
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
        lane.txScr = StepState(lane.txScr) ^ content;
        if (m_selfCheck)
        {
            NS_ABORT_MSG_IF(lane.checkScr.GetState() != out.scrBefore,
                            "RiflFastEngine self-check: scrambler state before a frame differs");
            const BitBlock bits = RiflFrame::Encode(*out.frame, id, lane.checkScr, m_fid);
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

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-reference-engine.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rifl-check.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflReferenceEngine");

namespace
{
/// Slots from a frame on the line to the receiver's flags used by its TX (§11.1), beyond L.
constexpr uint64_t FLAG_DELAY = 4;
/// Slots from a frame on the line to the receiving user (§11.1), beyond L.
constexpr uint64_t USER_DELAY = 6;
/// Largest packet accepted by OfferPacket().
constexpr std::size_t MAX_PACKET_BYTES = 100000000;

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

RiflReferenceEngine::RiflReferenceEngine(const RiflLinkConfig& config)
    : m_config(config)
{
    m_config.Validate();
    m_fid = m_config.GetFrameIdWidth();
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
    for (auto& ep : m_ep)
    {
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            ep.lanes.emplace_back(
                RiflLaneState(m_fid, m_config.GetReplaySlots(), m_config.frameSize));
        }
    }
    NS_LOG_INFO("RiflReferenceEngine: " << m_config.ToString());
}

const RiflLinkConfig&
RiflReferenceEngine::GetConfig() const
{
    return m_config;
}

void
RiflReferenceEngine::CheckIndex(uint32_t endpoint, uint32_t lane) const
{
    RIFL_CHECK_INDEX(endpoint > 1,
                     "RiflReferenceEngine: endpoint = " << endpoint << " is outside 0..1");
    RIFL_CHECK_INDEX(lane >= m_config.lanes, "RiflReferenceEngine: lane = " << lane
                                                                            << " is outside 0.."
                                                                            << m_config.lanes - 1);
}

void
RiflReferenceEngine::SetErrorProcess(uint32_t sender, uint32_t lane, Ptr<BitErrorProcess> process)
{
    CheckIndex(sender, lane);
    if (process)
    {
        process->SetFrameBits(m_config.frameSize);
    }
    m_ep[sender].lanes[lane].errors = process;
}

void
RiflReferenceEngine::SetSyncLossProcess(uint32_t sender, uint32_t lane,
                                        Ptr<SyncLossProcess> process)
{
    CheckIndex(sender, lane);
    if (process)
    {
        process->SetSlotDuration(Seconds(m_config.GetSlotTimeNs() * 1e-9));
    }
    m_ep[sender].lanes[lane].syncLoss = process;
}

void
RiflReferenceEngine::OfferPacket(uint32_t endpoint, uint64_t packetId,
                                 const std::vector<uint8_t>& payload)
{
    RequireNotStepping("OfferPacket");
    CheckIndex(endpoint, 0);
    RIFL_CHECK_ARG(m_local != 2 && endpoint != m_local,
                   "RiflReferenceEngine::OfferPacket: endpoint " << endpoint
                                                                 << " is remote (split mode, "
                                                                 << "endpoint " << m_local
                                                                 << " local)");
    CheckIndex(endpoint, 0);
    RIFL_CHECK_ARG(payload.empty() || payload.size() > MAX_PACKET_BYTES,
                   "RiflReferenceEngine: payload size = " << payload.size()
                                                          << " bytes is outside 1..100000000");
    const auto frames = RiflFrame::CutPacket(m_config.frameSize, payload);
    const uint32_t p = m_config.GetPayloadBytes();
    for (std::size_t i = 0; i < frames.size(); ++i)
    {
        m_ep[endpoint].txQueue.push_back(Segment{frames[i], packetId, static_cast<uint32_t>(i * p),
                                                 i == 0, i + 1 == frames.size()});
    }
    ++m_ep[endpoint].pendingPackets;
}

void
RiflReferenceEngine::SetLocalEndpoint(uint32_t endpoint)
{
    RIFL_CHECK_ARG(endpoint > 1, "RiflReferenceEngine::SetLocalEndpoint: endpoint = "
                                     << endpoint << " is not 0 or 1");
    RIFL_CHECK_ARG(m_slot != 0, "RiflReferenceEngine::SetLocalEndpoint: the engine has already "
                                "run "
                                    << m_slot << " slots; choose the local endpoint before");
    m_local = endpoint;
}

uint32_t
RiflReferenceEngine::GetLocalEndpoint() const
{
    return m_local;
}

void
RiflReferenceEngine::SetLineOutCallback(LineOutCallback cb)
{
    m_lineOutCb = std::move(cb);
}

uint64_t
RiflReferenceEngine::GetLineFrameDueSlot(uint32_t lane, uint64_t lineSlot) const
{
    CheckIndex(0, lane);
    return lineSlot + m_laneDelay[lane] + FLAG_DELAY;
}

namespace
{
constexpr uint8_t LINE_FRAME_VERSION = 1; //!< EncodeLineFrame() format

} // namespace

std::vector<uint8_t>
RiflReferenceEngine::EncodeLineFrame(uint32_t lane, const LineFrame& f) const
{
    CheckIndex(0, lane);
    WireWriter w;
    w.Put(LINE_FRAME_VERSION, 1);
    w.Put(lane, 1);
    w.Put(f.lineSlot, 8);
    w.Put(f.bits.ToBytes());
    w.Put(static_cast<uint8_t>(f.frame.GetKind()), 1);
    w.Put(static_cast<uint8_t>(f.frame.GetMeta()), 1);
    w.Put(f.frame.GetKey(), 2);
    w.Put(f.frame.GetPayload());
    const RiflFrameTag& t = f.tag;
    w.Put(t.user ? 1 : 0, 1);
    w.Put(t.packetId, 8);
    w.Put(t.byteOffset, 4);
    w.Put(t.laneSeq, 8);
    w.Put(t.laneEopSeq, 8);
    w.Put(t.acceptSlot, 8);
    w.Put(t.groupSeq, 8);
    w.Put(t.fcSeq, 8);
    w.Put(t.fcNotification ? 1 : 0, 1);
    return std::move(w.out);
}

RiflReferenceEngine::LineFrame
RiflReferenceEngine::DecodeLineFrame(const uint8_t* data, std::size_t size, uint32_t& lane) const
{
    RIFL_CHECK_ARG(data == nullptr && size != 0, "RiflReferenceEngine::DecodeLineFrame: data = "
                                                 "null with size "
                                                     << size);
    WireReader r{data, size, "RiflReferenceEngine::DecodeLineFrame"};
    const uint64_t version = r.Get(1, "version");
    RIFL_CHECK_ARG(version != LINE_FRAME_VERSION, "RiflReferenceEngine::DecodeLineFrame: version "
                                                      << version << " is not "
                                                      << int{LINE_FRAME_VERSION});
    lane = static_cast<uint32_t>(r.Get(1, "lane"));
    RIFL_CHECK_ARG(lane >= m_config.lanes, "RiflReferenceEngine::DecodeLineFrame: lane "
                                               << lane << " is out of range [0, "
                                               << m_config.lanes - 1 << "]");
    const uint32_t s = m_config.frameSize;
    LineFrame f;
    f.lineSlot = r.Get(8, "lineSlot");
    const std::vector<uint8_t> bits = r.GetBytes(s / 8, "line bits");
    f.bits = BitBlock::FromBytes(bits.data(), s);
    const uint64_t kind = r.Get(1, "kind");
    const uint64_t meta = r.Get(1, "meta");
    const uint16_t key = static_cast<uint16_t>(r.Get(2, "key"));
    const std::vector<uint8_t> payload = r.GetBytes(RiflFrame::PayloadBytes(s), "payload");
    const uint32_t p = RiflFrame::PayloadBytes(s);
    RiflFrame frame;
    if (kind == static_cast<uint8_t>(RiflFrame::Kind::CONTROL))
    {
        // the keys a transmitter sends (§1.3)
        RIFL_CHECK_ARG(key != RiflFrame::KEY_IDLE && key != RiflFrame::KEY_PAUSE_REQUEST
                           && key != RiflFrame::KEY_RETRANSMIT_REQUEST,
                       "RiflReferenceEngine::DecodeLineFrame: control key 0x"
                           << std::hex << key << std::dec << " is not one a sender makes");
        frame = RiflFrame::MakeControl(s, key);
    }
    else if (meta == static_cast<uint8_t>(RiflFrame::Meta::INVALID))
    {
        frame = payload[p - 1] == 1   ? RiflFrame::MakeFcNotification(
                                          s, RiflFrame::FcNotification::PAUSE)
                : payload[p - 1] == 2 ? RiflFrame::MakeFcNotification(
                                            s, RiflFrame::FcNotification::RESUME)
                                      : RiflFrame::MakeFill(s);
    }
    else if (meta == static_cast<uint8_t>(RiflFrame::Meta::LAST_PARTIAL))
    {
        RIFL_CHECK_ARG(payload[p - 1] < 1 || payload[p - 1] >= p,
                       "RiflReferenceEngine::DecodeLineFrame: a last partial frame with byte "
                       "count "
                           << int{payload[p - 1]});
        frame = RiflFrame::MakeData(s, payload.data(), payload[p - 1], true);
    }
    else if (meta == static_cast<uint8_t>(RiflFrame::Meta::MIDDLE)
             || meta == static_cast<uint8_t>(RiflFrame::Meta::LAST_FULL))
    {
        frame = RiflFrame::MakeData(s, payload.data(), p,
                                    meta == static_cast<uint8_t>(RiflFrame::Meta::LAST_FULL));
    }
    RIFL_CHECK_ARG(kind > 1 || meta > 3 || frame.GetPayload() != payload
                       || static_cast<uint8_t>(frame.GetKind()) != kind
                       || (kind == static_cast<uint8_t>(RiflFrame::Kind::DATA)
                           && static_cast<uint8_t>(frame.GetMeta()) != meta),
                   "RiflReferenceEngine::DecodeLineFrame: frame image (kind "
                       << kind << ", meta " << meta << ", key " << key
                       << ") is not one a sender makes");
    f.frame = frame;
    RiflFrameTag& t = f.tag;
    t.user = r.Get(1, "tag.user") != 0;
    t.packetId = r.Get(8, "tag.packetId");
    t.byteOffset = static_cast<uint32_t>(r.Get(4, "tag.byteOffset"));
    t.laneSeq = r.Get(8, "tag.laneSeq");
    t.laneEopSeq = r.Get(8, "tag.laneEopSeq");
    t.acceptSlot = r.Get(8, "tag.acceptSlot");
    t.groupSeq = r.Get(8, "tag.groupSeq");
    t.fcSeq = r.Get(8, "tag.fcSeq");
    t.fcNotification = r.Get(1, "tag.fcNotification") != 0;
    RIFL_CHECK_ARG(r.pos != size, "RiflReferenceEngine::DecodeLineFrame: "
                                      << size - r.pos << " bytes after the frame's end");
    return f;
}

void
RiflReferenceEngine::ReceiveLineFrame(uint32_t lane, LineFrame frame)
{
    CheckIndex(0, lane);
    RIFL_CHECK_ARG(m_local == 2, "RiflReferenceEngine::ReceiveLineFrame: the engine runs both "
                                 "endpoints (call SetLocalEndpoint() first)");
    const uint64_t due = GetLineFrameDueSlot(lane, frame.lineSlot);
    auto& line = m_ep[1 - m_local].lanes[lane].line;
    if (due < m_slot || (!line.empty() && line.back().lineSlot >= frame.lineSlot))
    {
        throw std::runtime_error(
            "RiflReferenceEngine (split, endpoint " + std::to_string(m_local) + "): lane "
            + std::to_string(lane) + ": the peer's frame of line slot "
            + std::to_string(frame.lineSlot) + " arrived when slot " + std::to_string(m_slot)
            + " runs next (due in slot " + std::to_string(due)
            + (line.empty() ? std::string()
                            : ", after line slot " + std::to_string(line.back().lineSlot))
            + "): the remote channel delivered it later than its lookahead or out of order");
    }
    line.push_back(std::move(frame));
}

void
RiflReferenceEngine::Step()
{
    RequireNotStepping("Step");
    // Marks the slot (RequireNotStepping()), also when a callback throws out of it.
    struct Stepping
    {
        bool& flag; //!< m_stepping
        ~Stepping()
        {
            flag = false;
        }
    } stepping{m_stepping};
    m_stepping = true;
    const uint64_t t = m_slot;
    const bool split = m_local != 2;
    RIFL_CHECK_ARG(split && !m_lineOutCb, "RiflReferenceEngine: split mode (endpoint "
                                              << m_local << " local) needs a LineOutCallback");
    // 1. Frames on the line in slot t - L - 4 reach the receivers' flags (§11.1).
    // Receivers in the order endpoint A, endpoint B, then lane (event order).
    for (uint32_t rx = 0; rx < 2; ++rx)
    {
        if (split && rx != m_local)
        {
            continue;
        }
        const uint32_t sender = 1 - rx;
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            auto& line = m_ep[sender].lanes[l].line;
            if (split && t >= m_laneDelay[l] + FLAG_DELAY + 1)
            {
                // The remote TX put a frame on line slot n unless slot n - 1 was one of
                // its clock's skip slots (§6.1): it must have arrived.
                const uint64_t n = t - m_laneDelay[l] - FLAG_DELAY;
                const bool skipped
                    = std::binary_search(m_remoteSkips.begin(), m_remoteSkips.end(), n - 1);
                if (!skipped && (line.empty() || line.front().lineSlot != n))
                {
                    throw std::runtime_error(
                        "RiflReferenceEngine (split, endpoint " + std::to_string(m_local)
                        + "): lane " + std::to_string(l) + ": the peer's frame of line slot "
                        + std::to_string(n) + " has not arrived by slot " + std::to_string(t)
                        + ": the remote channel delivered it later than its lookahead");
                }
            }
            while (!line.empty() && line.front().lineSlot + m_laneDelay[l] + FLAG_DELAY <= t)
            {
                NS_ASSERT(line.front().lineSlot + m_laneDelay[l] + FLAG_DELAY == t);
                Receive(rx, l, line.front());
                line.pop_front();
            }
        }
    }
    // Clock domains (§6.1): in a skip slot the slower endpoint's frame clock has
    // no edge (no drain, no TX decision, no frame on its line in slot t + 1); the
    // faster endpoint's compensation signal is active in that same slot.
    const bool skip = t == m_nextSkip;
    if (skip)
    {
        m_nextSkip = m_config.NextClockSkipSlot(t + 1);
        if (!split || m_slowEp == m_local)
        {
            ++m_ep[m_slowEp].counters.clockSkipSlots;
        }
        else
        {
            m_remoteSkips.push_back(t);
        }
    }
    if (split)
    {
        // keep the skip slots a frame still due may need (n - 1 >= t - maxDelay - 4)
        while (!m_remoteSkips.empty() && m_remoteSkips.front() + m_maxDelay + FLAG_DELAY + 1 < t)
        {
            m_remoteSkips.pop_front();
        }
    }
    // 2. The users take what is ready (slot n + L + 6).
    for (uint32_t e = 0; e < 2; ++e)
    {
        if (!(skip && e == m_slowEp) && (!split || e == m_local))
        {
            Drain(e);
        }
    }
    // 3. The TX states of slot t select the frames on the line in slot t + 1.
    for (uint32_t e = 0; e < 2; ++e)
    {
        if (!(skip && e == m_slowEp) && (!split || e == m_local))
        {
            Transmit(e, skip && m_compensated);
        }
    }
    if (split)
    {
        // the local TX's frames go to the remote half
        for (uint32_t l = 0; l < m_config.lanes; ++l)
        {
            auto& line = m_ep[m_local].lanes[l].line;
            for (const LineFrame& f : line)
            {
                m_lineOutCb(l, f);
            }
            line.clear();
        }
    }
    ++m_slot;
}

void
RiflReferenceEngine::Run(uint64_t slots)
{
    for (uint64_t i = 0; i < slots; ++i)
    {
        Step();
    }
}

uint64_t
RiflReferenceEngine::GetSlot() const
{
    return m_slot;
}

void
RiflReferenceEngine::RequireNotStepping(const char* method) const
{
    RIFL_CHECK_ARG(m_stepping,
                   "RiflReferenceEngine::" << method
                                           << " called from a delivery or event callback, inside "
                                              "Step(): a callback must not call the engine "
                                              "(collect what it reports and act after Step() "
                                              "or AdvanceTo() returns, as RiflChannel does)");
}

void
RiflReferenceEngine::AdvanceTo(uint64_t slot)
{
    RequireNotStepping("AdvanceTo");
    while (m_slot < slot)
    {
        Step();
    }
}

uint64_t
RiflReferenceEngine::NextEventSlot()
{
    return m_slot;
}

uint64_t
RiflReferenceEngine::GetPendingPackets(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].pendingPackets;
}

uint64_t
RiflReferenceEngine::GetHeldPacketEnds(uint32_t endpoint) const
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

void
RiflReferenceEngine::Emit(RiflLinkEventType type, uint32_t endpoint, uint32_t lane,
                          uint64_t packetId, int64_t value, int64_t value2)
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

void
RiflReferenceEngine::Receive(uint32_t rx, uint32_t laneIndex, const LineFrame& f)
{
    Endpoint& ep = m_ep[rx];
    Lane& lane = ep.lanes[laneIndex];
    const Lane& sendLane = m_ep[1 - rx].lanes[laneIndex];
    Counters& c = ep.counters;
    RiflLaneState& st = lane.state;
    const uint64_t n = f.lineSlot;

    // The line: loss of sync replaces the frame, then bit errors flip line bits.
    BitBlock bits = f.bits;
    if (sendLane.syncLoss)
    {
        const SyncLossEvent* ev = &sendLane.syncLoss->Peek();
        while (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS
               && ev->startSlot + ev->durationSlots <= n)
        {
            sendLane.syncLoss->Pop();
            ev = &sendLane.syncLoss->Peek();
        }
        if (ev->startSlot != SyncLossEvent::NO_MORE_EVENTS && ev->startSlot <= n)
        {
            bits = BitBlock(m_config.frameSize);
        }
    }
    if (sendLane.errors)
    {
        const FrameErrorEvent& ev = sendLane.errors->SkipTo(n);
        if (ev.slot == n)
        {
            for (uint32_t b : ev.bits)
            {
                bits.Flip(b);
            }
            sendLane.errors->Pop();
        }
    }
    const bool changed = bits != f.bits;
    ++c.framesReceived;
    if (changed)
    {
        ++c.lineErrorFrames;
    }

    // Aligner, then the key monitor, then (RX up) the verification rule.
    const RiflFrame::DecodeResult d
        = RiflFrame::Decode(bits, st.GetExpectedId(), lane.rxScrambler, m_fid);
    const bool legal = d.kind != RiflFrame::Kind::ILLEGAL;
    const uint64_t lossesBefore = st.GetAlignmentLosses();
    const bool upBefore = st.IsRxUp();
    st.OnHeader(legal, m_rxUpSlots);
    c.alignmentLosses += st.GetAlignmentLosses() - lossesBefore;
    if (upBefore != st.IsRxUp())
    {
        Emit(upBefore ? RiflLinkEventType::RX_DOWN : RiflLinkEventType::RX_UP, rx, laneIndex, 0,
             static_cast<int64_t>(n), st.IsAligned() ? 1 : 0);
    }
    if (!st.IsAligned())
    {
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
        return;
    }
    const bool passed = legal && d.checkPassed;
    const RiflLaneState::Verdict v = st.OnCheck(passed, d.kind == RiflFrame::Kind::DATA);
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
        NS_LOG_LOGIC("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                             << ": frame of line slot " << n << " failed, exp_id -> "
                             << st.GetExpectedId());
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
            st.SetRemoteFcPause(true);
            ++c.fcPauseReceived;
            Emit(RiflLinkEventType::FC_PAUSE_RECEIVED, rx, laneIndex, 0, static_cast<int64_t>(n));
        }
        else if (d.fc == RiflFrame::FcNotification::RESUME)
        {
            st.SetRemoteFcPause(false);
            ++c.fcResumeReceived;
            Emit(RiflLinkEventType::FC_RESUME_RECEIVED, rx, laneIndex, 0, static_cast<int64_t>(n));
        }
        if (f.tag.user)
        {
            ++c.contentMismatches; // a user frame turned into fill by an undetected error
        }
        NoteResyncAhead(rx, laneIndex, lane, f.tag, n);
        return;
    }

    // A user frame in sequence: ground-truth checks, then the FC FIFO.
    if (!f.tag.user || d.meta != f.frame.GetMeta() || d.payload != f.frame.GetPayload())
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
            if (m_duplicateCb)
            {
                m_duplicateCb(DuplicateDelivery{rx, laneIndex, m_slot, f.tag.packetId,
                                                f.tag.byteOffset, f.tag.laneSeq});
            }
            Emit(RiflLinkEventType::DUPLICATE_DELIVERY, rx, laneIndex, f.tag.packetId,
                 f.tag.byteOffset, static_cast<int64_t>(f.tag.laneSeq));
        }
        else
        {
            if (f.tag.laneSeq > lane.rxNextSeq)
            {
                // Spec 11.8: resynchronised on a frame D newer; the skipped frames never
                // reach the user, nor do the packet ends among them.
                const uint64_t skipped = f.tag.laneSeq - lane.rxNextSeq;
                const uint64_t ends = f.tag.laneEopSeq - lane.rxNextEopSeq;
                ++c.outOfOrderDeliveries;
                c.packetEndsLost += ends;
                NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                                    << ": user frame " << f.tag.laneSeq << " delivered ahead of "
                                    << lane.rxNextSeq << " (line slot " << n << ", " << ends
                                    << " packet ends skipped)");
                Emit(RiflLinkEventType::OUT_OF_ORDER_DELIVERY, rx, laneIndex, f.tag.packetId,
                     static_cast<int64_t>(skipped), static_cast<int64_t>(ends));
            }
            lane.rxNextSeq = f.tag.laneSeq + 1;
            lane.rxNextEopSeq = f.tag.laneEopSeq + (IsPacketEnd(f.frame.GetMeta()) ? 1 : 0);
        }
    }
    if (lane.fifo.size() >= m_fifoDepth[rx])
    {
        ++c.fcFifoDrops;
        c.packetEndsLost += f.tag.user && IsPacketEnd(f.frame.GetMeta()) ? 1 : 0;
        NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                            << ": FC FIFO full, frame dropped");
        Emit(RiflLinkEventType::FC_FIFO_DROP, rx, laneIndex, f.tag.packetId, f.tag.byteOffset,
             static_cast<int64_t>(f.tag.laneSeq));
        return;
    }
    FifoEntry e;
    e.readySlot = n + m_laneDelay[laneIndex] + USER_DELAY;
    e.bytes.assign(d.payload.begin(), d.payload.begin() + d.validBytes);
    e.eop = d.meta == RiflFrame::Meta::LAST_FULL || d.meta == RiflFrame::Meta::LAST_PARTIAL;
    e.tag = f.tag;
    lane.fifo.push_back(std::move(e));
    c.maxFcOccupancy = std::max<uint64_t>(c.maxFcOccupancy, lane.fifo.size());
}

void
RiflReferenceEngine::NoteResyncAhead(uint32_t rx, uint32_t laneIndex, Lane& lane,
                                     const RiflFrameTag& tag, uint64_t n)
{
    if (!RiflIsResyncAhead(tag, lane.rxNextSeq, lane.resyncReportedAt))
    {
        return;
    }
    ++m_ep[rx].counters.resyncsAhead;
    NS_LOG_WARN("slot " << m_slot << " ep " << rx << " lane " << laneIndex
                        << ": a non-user frame sent after user frame " << (tag.laneSeq - 1)
                        << " accepted while user frame " << lane.rxNextSeq
                        << " is missing (line slot " << n << ")");
    Emit(RiflLinkEventType::RESYNC_AHEAD, rx, laneIndex, 0,
         static_cast<int64_t>(tag.laneSeq - lane.rxNextSeq), static_cast<int64_t>(n));
}

void
RiflReferenceEngine::NoteFcSequence(uint32_t rx, uint32_t laneIndex, Lane& lane,
                                    const RiflFrameTag& tag, RiflFrame::FcNotification fc,
                                    uint64_t n)
{
    const RiflFcSequenceCheck chk = RiflCheckFcSequence(tag, lane.rxNextFcSeq);
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
RiflReferenceEngine::Drain(uint32_t epIndex)
{
    Endpoint& ep = m_ep[epIndex];
    const double rate = m_drainRate[epIndex];
    const bool unlimited = rate == 0.0;
    if (!unlimited)
    {
        ep.drainCredit = std::min(ep.drainCredit + rate, std::max(1.0, rate));
    }
    const uint32_t w = m_config.userWordBytes;
    while (unlimited || ep.drainCredit >= 1.0)
    {
        Lane& lane = ep.lanes[ep.rxRoundRobin];
        if (lane.fifo.empty() || lane.fifo.front().readySlot > m_slot)
        {
            break;
        }
        FifoEntry e = std::move(lane.fifo.front());
        lane.fifo.pop_front();
        ep.rxRoundRobin = (ep.rxRoundRobin + 1) % m_config.lanes;
        if (!unlimited)
        {
            ep.drainCredit -= 1.0;
        }
        Assembly& a = ep.assembly;
        if (a.offsets.empty())
        {
            a.packetId = e.tag.packetId;
        }
        a.offsets.push_back(static_cast<uint32_t>(a.bytes.size()));
        a.accept.push_back(e.tag.acceptSlot);
        a.deliver.push_back(m_slot);
        a.bytes.insert(a.bytes.end(), e.bytes.begin(), e.bytes.end());
        ep.counters.bytesDelivered += e.bytes.size();
        if (!e.eop)
        {
            continue;
        }
        DeliveredPacket p;
        p.endpoint = epIndex;
        p.packetId = a.packetId;
        p.firstAcceptSlot = a.accept.front();
        p.deliverySlot = m_slot;
        // Per user word (§11.2): the word reaches the user with the frame holding
        // its last byte; it was accepted with the frame holding its first byte.
        auto frameOf = [&a](uint32_t byte)
        {
            auto it = std::upper_bound(a.offsets.begin(), a.offsets.end(), byte);
            return static_cast<std::size_t>(it - a.offsets.begin()) - 1;
        };
        for (uint32_t first = 0; first < a.bytes.size(); first += w)
        {
            const uint32_t last = std::min<uint32_t>(first + w, a.bytes.size()) - 1;
            p.wordLatencies.push_back(a.deliver[frameOf(last)] - a.accept[frameOf(first)]);
        }
        p.content = std::move(a.bytes);
        a = Assembly{};
        ++ep.counters.packetsDelivered;
        if (m_recordHistory)
        {
            ep.delivered.push_back(std::move(p));
        }
        const DeliveredPacket& dp = m_recordHistory ? ep.delivered.back() : p;
        if (m_deliveryCb)
        {
            m_deliveryCb(dp);
        }
        if (m_linkDeliveryCb)
        {
            RiflDelivery rd;
            rd.endpoint = dp.endpoint;
            rd.packetId = dp.packetId;
            rd.firstSlot = dp.firstAcceptSlot;
            rd.slot = dp.deliverySlot;
            rd.content = dp.content;
            rd.wordLatencies = dp.wordLatencies;
            m_linkDeliveryCb(std::move(rd));
        }
    }
}

void
RiflReferenceEngine::Transmit(uint32_t epIndex, bool compensate)
{
    Endpoint& ep = m_ep[epIndex];
    Counters& c = ep.counters;
    const uint32_t nLanes = m_config.lanes;
    bool groupRxUp = true;
    bool groupAligned = true;
    for (const Lane& lane : ep.lanes)
    {
        groupRxUp = groupRxUp && lane.state.IsRxUp();
        groupAligned = groupAligned && lane.state.IsAligned();
    }

    // States and plans of all lanes, then the bonding round robin (§6.2).
    std::vector<RiflTxFrame> plan(nLanes);
    std::vector<bool> ready(nLanes);
    bool allReady = true;
    for (uint32_t l = 0; l < nLanes; ++l)
    {
        RiflLaneState& st = ep.lanes[l].state;
        const RiflTxState before = st.GetTxState();
        const RiflTxState now = st.SelectState(groupRxUp);
        if (now != before)
        {
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
    }
    if (allReady && ep.linkUpSlot == NEVER)
    {
        ep.linkUpSlot = m_slot;
    }
    if (compensate)
    {
        ++c.compensationSlots;
    }
    std::vector<const Segment*> assigned(nLanes, nullptr);
    std::vector<Segment> taken;
    std::vector<uint32_t> takenLane;
    taken.reserve(nLanes);
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
            break; // a lane that does not accept stalls the one-hot round robin
        }
        taken.push_back(std::move(ep.txQueue.front()));
        ep.txQueue.pop_front();
        assigned[l] = &taken.back();
        takenLane.push_back(l);
        ep.txRoundRobin = (l + 1) % nLanes;
    }

    const uint32_t s = m_config.frameSize;
    for (uint32_t l = 0; l < nLanes; ++l)
    {
        Lane& lane = ep.lanes[l];
        RiflLaneState& st = lane.state;
        const RiflTxState state = st.GetTxState();
        const RiflTxFrame kind = plan[l];
        LineFrame out;
        out.lineSlot = m_slot + 1;
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
                out.frame = RiflFrame::MakePauseRequest(s);
                ++c.pauseRequestsSent;
                break;
            case RiflTxFrame::IDLE:
                out.frame = RiflFrame::MakeIdle(s);
                ++c.idleSent;
                break;
            case RiflTxFrame::RETRANSMIT_REQUEST:
                out.frame = RiflFrame::MakeRetransmitRequest(s);
                ++c.retransRequestsSent;
                break;
            case RiflTxFrame::COMPENSATION_IDLE:
                out.frame = RiflFrame::MakeIdle(s);
                ++c.compensationIdles;
                Emit(RiflLinkEventType::CLOCK_COMPENSATION, epIndex, l, 0,
                     static_cast<int64_t>(out.lineSlot));
                break;
            case RiflTxFrame::REPLAY:
            {
                const RiflBufferEntry& e = st.RotateBuffer();
                out.frame = *e.frame;
                out.tag = e.tag;
                ++c.replayedFrames;
                break;
            }
            case RiflTxFrame::FC_PAUSE:
            case RiflTxFrame::FC_RESUME:
                out.frame = RiflFrame::MakeFcNotification(
                    s, kind == RiflTxFrame::FC_PAUSE ? RiflFrame::FcNotification::PAUSE
                                                     : RiflFrame::FcNotification::RESUME);
                out.tag = RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq,
                                                lane.txFcSeq++, true);
                st.PushBuffer(RiflBufferEntry{std::make_shared<const RiflFrame>(out.frame), out.tag,
                                              nullptr});
                ++(kind == RiflTxFrame::FC_PAUSE ? c.fcPauseSent : c.fcResumeSent);
                Emit(kind == RiflTxFrame::FC_PAUSE ? RiflLinkEventType::FC_PAUSE_SENT
                                                   : RiflLinkEventType::FC_RESUME_SENT,
                     epIndex, l, 0, static_cast<int64_t>(out.lineSlot));
                newFrame = true;
                break;
            case RiflTxFrame::NEW_DATA:
                if (assigned[l] != nullptr)
                {
                    out.frame = assigned[l]->frame;
                    out.tag.user = true;
                    out.tag.packetId = assigned[l]->packetId;
                    out.tag.byteOffset = assigned[l]->byteOffset;
                    out.tag.laneSeq = lane.txLaneSeq++;
                    out.tag.laneEopSeq = lane.txLaneEopSeq;
                    lane.txLaneEopSeq += IsPacketEnd(assigned[l]->frame.GetMeta()) ? 1 : 0;
                    out.tag.acceptSlot = out.lineSlot;
                    out.tag.fcSeq = lane.txFcSeq;
                    ++c.newUserFrames;
                }
                else
                {
                    out.frame = RiflFrame::MakeFill(s);
                    out.tag =
                        RiflFrameTag::NonUser(lane.txLaneSeq, lane.txLaneEopSeq, lane.txFcSeq);
                    ++c.fillFrames;
                }
                st.PushBuffer(RiflBufferEntry{std::make_shared<const RiflFrame>(out.frame), out.tag,
                                              nullptr});
                newFrame = true;
                break;
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
        out.bits = RiflFrame::Encode(out.frame, id, lane.txScrambler, m_fid);
        if (m_txStateCb)
        {
            m_txStateCb(epIndex, l, m_slot, state, kind);
        }
        lane.line.push_back(std::move(out));
    }
    // Packet events after the lanes, in the order the segments left the queue.
    for (std::size_t i = 0; i < taken.size(); ++i)
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

void
RiflReferenceEngine::SetDeliveryCallback(DeliveryCallback cb)
{
    m_deliveryCb = std::move(cb);
}

void
RiflReferenceEngine::SetDeliveryCallback(LinkDeliveryCallback cb)
{
    m_linkDeliveryCb = std::move(cb);
}

void
RiflReferenceEngine::SetEventCallback(EventCallback cb)
{
    m_eventCb = std::move(cb);
}

void
RiflReferenceEngine::SetTxStateCallback(TxStateCallback cb)
{
    m_txStateCb = std::move(cb);
}

void
RiflReferenceEngine::SetDuplicateCallback(DuplicateCallback cb)
{
    m_duplicateCb = std::move(cb);
}

const RiflReferenceEngine::Counters&
RiflReferenceEngine::GetCounters(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].counters;
}

const std::vector<RiflReferenceEngine::DeliveredPacket>&
RiflReferenceEngine::GetDelivered(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].delivered;
}

void
RiflReferenceEngine::SetRecordHistory(bool record)
{
    m_recordHistory = record;
}

uint64_t
RiflReferenceEngine::GetRetainedPackets() const
{
    return m_ep[0].delivered.size() + m_ep[1].delivered.size();
}

const RiflLaneState&
RiflReferenceEngine::GetLaneState(uint32_t endpoint, uint32_t lane) const
{
    RequireNotStepping("GetLaneState");
    CheckIndex(endpoint, lane);
    return m_ep[endpoint].lanes[lane].state;
}

uint64_t
RiflReferenceEngine::GetLinkUpSlot(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].linkUpSlot;
}

uint64_t
RiflReferenceEngine::GetPendingSegments(uint32_t endpoint) const
{
    CheckIndex(endpoint, 0);
    return m_ep[endpoint].txQueue.size();
}

uint32_t
RiflReferenceEngine::GetFcOccupancy(uint32_t endpoint, uint32_t lane) const
{
    CheckIndex(endpoint, lane);
    return static_cast<uint32_t>(m_ep[endpoint].lanes[lane].fifo.size());
}

} // namespace ns3

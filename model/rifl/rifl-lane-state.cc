/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-lane-state.h"

#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/rifl-check.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflLaneState");

namespace
{
/// Frames in one aligner window (§3.4).
constexpr uint32_t ALIGN_WINDOW = 16;
/// Illegal headers in one window that break the lock (§3.4, §10.5).
constexpr uint32_t ALIGN_BAD_LIMIT = 2;
/// Keys in a row that raise a request flag (§3.4).
constexpr uint32_t KEYS_IN_A_ROW = 8;
/// Consecutive regular frames that clear the request counters (§11.7).
constexpr uint32_t REGULAR_RESET = 16;
/// Rollback of exp_id on a failed check, and the start-up delivery threshold (§3.4).
constexpr uint32_t ROLLBACK = 16;
} // namespace

std::string
RiflTxStateName(RiflTxState s)
{
    switch (s)
    {
        case RiflTxState::INIT:
            return "INIT";
        case RiflTxState::SEND_PAUSE:
            return "SEND_PAUSE";
        case RiflTxState::PAUSE:
            return "PAUSE";
        case RiflTxState::RETRANS:
            return "RETRANS";
        case RiflTxState::SEND_RETRANS:
            return "SEND_RETRANS";
        case RiflTxState::NORMAL:
            return "NORMAL";
    }
    return "?";
}

RiflLaneState::RiflLaneState(uint32_t frameIdWidth, uint32_t replaySlots, uint32_t frameSize)
    : m_d(0)
    , m_replaySlots(replaySlots)
{
    RIFL_CHECK_ARG(frameIdWidth < 1 || frameIdWidth > RiflFrame::MAX_FRAME_ID_WIDTH,
                   "RiflLaneState: frameIdWidth = " << frameIdWidth << " is outside 1..12");
    m_d = 1u << frameIdWidth;
    RIFL_CHECK_ARG(replaySlots <= 2 * m_d,
                   "RiflLaneState: replaySlots = " << replaySlots << " is outside " << 2 * m_d + 1
                                                   << "..(2D + tail)");
    m_resumeWait = m_d; // no wait after reset: the rollback counter covers start-up
    m_thr = ROLLBACK & (m_d - 1);
    RiflBufferEntry fill{std::make_shared<const RiflFrame>(RiflFrame::MakeFill(frameSize)),
                         RiflFrameTag{}};
    m_buffer.assign(m_d, fill);
}

RiflTxState
RiflLaneState::SelectState(bool groupRxUp)
{
    if (m_err)
    {
        m_resumeWait = 0; // §11.3: cleared in every slot the TX sees its Frame Error
    }
    if (m_initCount < m_d)
    {
        m_state = RiflTxState::INIT;
    }
    else if (!groupRxUp)
    {
        m_state = RiflTxState::SEND_PAUSE;
    }
    else if (GetPauseFlag())
    {
        m_state = RiflTxState::PAUSE;
    }
    else if (GetRetransmitFlag() || m_replay != 0)
    {
        m_state = RiflTxState::RETRANS;
    }
    else if (m_err)
    {
        m_state = RiflTxState::SEND_RETRANS;
    }
    else
    {
        m_state = RiflTxState::NORMAL;
    }
    return m_state;
}

RiflTxFrame
RiflLaneState::PlanFrame(uint32_t fcOccupancy, uint32_t thrOn, uint32_t thrOff,
                         bool compensate) const
{
    switch (m_state)
    {
        case RiflTxState::INIT:
        case RiflTxState::SEND_PAUSE:
            return RiflTxFrame::PAUSE_REQUEST;
        case RiflTxState::PAUSE:
            return RiflTxFrame::IDLE;
        case RiflTxState::SEND_RETRANS:
            return RiflTxFrame::RETRANSMIT_REQUEST;
        case RiflTxState::RETRANS:
            if (m_replay < 2 * m_d && m_replay % 2 == 0)
            {
                return RiflTxFrame::REPLAY;
            }
            return m_err ? RiflTxFrame::RETRANSMIT_REQUEST : RiflTxFrame::IDLE;
        case RiflTxState::NORMAL:
            // §3.2: (1) clock compensation; (2) FC level change;
            // (3) remote FC pause or resume wait; (4) data or fill.
            if (compensate)
            {
                return RiflTxFrame::COMPENSATION_IDLE;
            }
            if (!m_fcNotified && fcOccupancy > thrOn)
            {
                return RiflTxFrame::FC_PAUSE;
            }
            if (m_fcNotified && fcOccupancy < thrOff)
            {
                return RiflTxFrame::FC_RESUME;
            }
            if (m_remoteFcPause || m_resumeWait < m_d)
            {
                return RiflTxFrame::IDLE;
            }
            return RiflTxFrame::NEW_DATA;
    }
    return RiflTxFrame::IDLE;
}

uint32_t
RiflLaneState::CommitFrame(RiflTxFrame kind, bool groupAligned)
{
    const uint32_t id = m_txId;
    switch (m_state)
    {
        case RiflTxState::INIT:
            if (groupAligned)
            {
                ++m_initCount; // one invalid frame shifted into the buffer per slot
            }
            break;
        case RiflTxState::RETRANS:
            if (kind == RiflTxFrame::REPLAY)
            {
                m_txId = (m_txId + 1) & (m_d - 1);
            }
            m_replay = (m_replay + 1) % m_replaySlots;
            break;
        case RiflTxState::NORMAL:
            if (kind == RiflTxFrame::COMPENSATION_IDLE)
            {
                break; // §3.2 action 1: not stored, not numbered, no resume-wait step
            }
            if (kind == RiflTxFrame::IDLE)
            {
                // A resume-wait Idle (§11.3). [INF] An Idle sent for a remote FC
                // pause while the wait runs counts as one too.
                if (m_resumeWait < m_d)
                {
                    ++m_resumeWait;
                }
            }
            else
            {
                if (kind == RiflTxFrame::FC_PAUSE)
                {
                    m_fcNotified = true;
                }
                else if (kind == RiflTxFrame::FC_RESUME)
                {
                    m_fcNotified = false;
                }
                else if (m_rollback < m_d)
                {
                    ++m_rollback;
                }
                m_txId = (m_txId + 1) & (m_d - 1);
            }
            break;
        default:
            break;
    }
    return id;
}

const RiflBufferEntry&
RiflLaneState::RotateBuffer()
{
    // The oldest entry becomes the newest: only the ring's head moves.
    const RiflBufferEntry& e = m_buffer[m_bufferHead];
    m_bufferHead = (m_bufferHead + 1) & (m_d - 1);
    return e;
}

void
RiflLaneState::PushBuffer(const RiflBufferEntry& entry)
{
    m_buffer[m_bufferHead] = entry; // replaces the oldest, which becomes the newest
    m_bufferHead = (m_bufferHead + 1) & (m_d - 1);
}

void
RiflLaneState::PushBuffer(RiflBufferEntry&& entry)
{
    m_buffer[m_bufferHead] = std::move(entry); // replaces the oldest, which becomes the newest
    m_bufferHead = (m_bufferHead + 1) & (m_d - 1);
}

uint32_t
RiflLaneState::GetTxFrameId() const
{
    return m_txId;
}

uint32_t
RiflLaneState::GetResumeWait() const
{
    return m_resumeWait;
}

bool
RiflLaneState::IsInitDone() const
{
    return m_initCount >= m_d;
}

const RiflBufferEntry&
RiflLaneState::GetBufferEntry(uint32_t age) const
{
    RIFL_CHECK_ARG(age >= m_d, "RiflLaneState::GetBufferEntry: age = " << age << " is outside 0.."
                                                                        << (m_d - 1));
    return m_buffer[(m_bufferHead + age) & (m_d - 1)];
}

void
RiflLaneState::OnHeader(bool legalSyncword, uint32_t rxUpSlots)
{
    if (m_aligned)
    {
        ++m_windowCount;
        if (!legalSyncword)
        {
            ++m_windowBad;
        }
        if (m_windowBad >= ALIGN_BAD_LIMIT)
        {
            m_aligned = false; // loss of lock: slide and start a new window
            ++m_alignmentLosses;
            m_windowCount = 0;
            m_windowBad = 0;
        }
        else if (m_windowCount == ALIGN_WINDOW)
        {
            m_windowCount = 0;
            m_windowBad = 0;
        }
    }
    else if (!legalSyncword)
    {
        m_windowCount = 0; // bad header while hunting: slide, restart the window
        m_windowBad = 0;
    }
    else if (++m_windowCount == ALIGN_WINDOW)
    {
        m_aligned = true;
        m_windowCount = 0;
        m_windowBad = 0;
    }

    if (m_aligned)
    {
        if (m_rxUpCount < rxUpSlots)
        {
            ++m_rxUpCount;
        }
        m_rxUp = m_rxUpCount >= rxUpSlots;
    }
    else
    {
        m_rxUpCount = 0;
        m_rxUp = false;
    }
}

void
RiflLaneState::OnKey(KeyClass k)
{
    switch (k)
    {
        case KeyClass::PAUSE_REQUEST:
            m_pauseCount = std::min(KEYS_IN_A_ROW, m_pauseCount + 1);
            m_retransCount = 0;
            m_regularCount = 0;
            break;
        case KeyClass::RETRANSMIT_REQUEST:
            m_retransCount = std::min(KEYS_IN_A_ROW, m_retransCount + 1);
            m_pauseCount = 0;
            m_regularCount = 0;
            break;
        case KeyClass::OTHER_CONTROL:
            m_pauseCount = 0;
            m_retransCount = 0;
            m_regularCount = std::min(REGULAR_RESET, m_regularCount + 1);
            break;
        case KeyClass::REGULAR:
            // Saturates at 16: the count is only ever compared with 16 (§11.7).
            m_regularCount = std::min(REGULAR_RESET, m_regularCount + 1);
            if (m_regularCount >= REGULAR_RESET)
            {
                m_pauseCount = 0;
                m_retransCount = 0;
            }
            break;
    }
}

RiflLaneState::Verdict
RiflLaneState::OnCheck(bool passed, bool isData)
{
    if (!passed)
    {
        m_err = true;
        m_expId = (m_thr - ROLLBACK) & (m_d - 1); // modulo D (a power of two)
        return Verdict::FAILED;
    }
    if (m_expId == ((m_thr - 1) & (m_d - 1)))
    {
        m_err = false; // §11.4, before any increment
    }
    if (!isData)
    {
        return Verdict::CONTROL_OK;
    }
    const bool deliver = m_expId == m_thr;
    m_expId = (m_expId + 1) & (m_d - 1);
    if (deliver)
    {
        m_thr = (m_thr + 1) & (m_d - 1);
        return Verdict::DELIVER;
    }
    return Verdict::DUPLICATE;
}

bool
RiflLaneState::TryDeliverInSequence(uint32_t txId)
{
    if (!m_aligned || !m_rxUp || m_expId != m_thr || txId != m_expId)
    {
        return false;
    }
    NS_ASSERT(m_windowBad < ALIGN_BAD_LIMIT); // an aligned receiver unlocks at the limit
    // OnHeader(true): one more legal header in the window; RX up stays up.
    if (++m_windowCount == ALIGN_WINDOW)
    {
        m_windowCount = 0;
        m_windowBad = 0;
    }
    // OnKey(REGULAR).
    m_regularCount = std::min(REGULAR_RESET, m_regularCount + 1);
    if (m_regularCount >= REGULAR_RESET)
    {
        m_pauseCount = 0;
        m_retransCount = 0;
    }
    // OnCheck(true, true) with exp_id = thr: exp_id = thr - 1 is impossible (D >= 2),
    // so the Frame Error flag is left as it is; deliver and advance both.
    m_expId = (m_expId + 1) & (m_d - 1);
    m_thr = m_expId;
    return true;
}

void
RiflLaneState::SetRemoteFcPause(bool pause)
{
    m_remoteFcPause = pause;
}

uint32_t
RiflLaneState::GetExpectedId() const
{
    return m_expId;
}

uint32_t
RiflLaneState::GetThreshold() const
{
    return m_thr;
}

bool
RiflLaneState::GetFrameError() const
{
    return m_err;
}

bool
RiflLaneState::GetPauseFlag() const
{
    return m_pauseCount >= KEYS_IN_A_ROW;
}

bool
RiflLaneState::GetRetransmitFlag() const
{
    return m_retransCount >= KEYS_IN_A_ROW;
}

bool
RiflLaneState::GetRemoteFcPause() const
{
    return m_remoteFcPause;
}

bool
RiflLaneState::GetFcNotified() const
{
    return m_fcNotified;
}

uint32_t
RiflLaneState::GetRegularCount() const
{
    return m_regularCount;
}

uint32_t
RiflLaneState::GetAlignWindowCount() const
{
    return m_windowCount;
}

uint32_t
RiflLaneState::GetAlignWindowBad() const
{
    return m_windowBad;
}

void
RiflLaneState::AdvanceSteady(uint64_t txFrames, uint64_t rxFrames)
{
    NS_ASSERT(m_state == RiflTxState::NORMAL && m_rollback >= m_d && m_aligned && m_rxUp && !m_err
              && m_regularCount >= REGULAR_RESET && m_windowBad == 0);
    m_txId = static_cast<uint32_t>((m_txId + txFrames) & (m_d - 1));
    m_expId = static_cast<uint32_t>((m_expId + rxFrames) & (m_d - 1));
    m_thr = static_cast<uint32_t>((m_thr + rxFrames) & (m_d - 1));
    m_windowCount = static_cast<uint32_t>((m_windowCount + rxFrames) % ALIGN_WINDOW);
}

uint64_t
RiflLaneState::GetAlignmentLosses() const
{
    return m_alignmentLosses;
}

} // namespace ns3

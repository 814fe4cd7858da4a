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
                         RiflFrameTag{}, nullptr};
    m_buffer.assign(m_d, fill);
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

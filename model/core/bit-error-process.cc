/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bit-error-process.h"

#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "rifl-check.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflBitErrorProcess");

NS_OBJECT_ENSURE_REGISTERED(BitErrorProcess);

std::atomic<uint64_t> BitErrorProcess::s_anyHeadChanges{0};

TypeId
BitErrorProcess::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BitErrorProcess").SetParent<Object>().SetGroupName("Rifl");
    return tid;
}

BitErrorProcess::BitErrorProcess()
{
    NS_LOG_FUNCTION(this);
}

BitErrorProcess::~BitErrorProcess()
{
    NS_LOG_FUNCTION(this);
}

void
BitErrorProcess::SetFrameBits(uint32_t frameBits)
{
    NS_LOG_FUNCTION(this << frameBits);
    RIFL_CHECK_ARG(frameBits < 1 || frameBits > MAX_FRAME_BITS,
                   "BitErrorProcess: FrameBits = " << frameBits << " is outside 1.."
                                                   << MAX_FRAME_BITS);
    if (frameBits == m_frameBits)
    {
        return;
    }
    RIFL_CHECK_ARG(m_started, "BitErrorProcess: FrameBits cannot change from "
                                  << m_frameBits << " to " << frameBits
                                  << " after events were generated (call Reset() first)");
    DoSetFrameBits(frameBits);
    m_frameBits = frameBits;
}

uint32_t
BitErrorProcess::GetFrameBits() const
{
    return m_frameBits;
}

const FrameErrorEvent&
BitErrorProcess::Generate()
{
    RIFL_CHECK_ARG(m_frameBits == 0,
                   "BitErrorProcess: FrameBits = 0 (not set); call SetFrameBits(1.."
                       << MAX_FRAME_BITS << ") before Peek()");
    m_event.slot = FrameErrorEvent::NO_MORE_ERRORS;
    m_event.bits.clear();
    if (m_nextSlot != FrameErrorEvent::NO_MORE_ERRORS)
    {
        m_started = true;
        DoGenerateNext(m_nextSlot, m_event);
        NS_ASSERT(m_event.slot >= m_nextSlot);
        if (m_event.slot == FrameErrorEvent::NO_MORE_ERRORS)
        {
            m_event.bits.clear();
            m_nextSlot = FrameErrorEvent::NO_MORE_ERRORS;
        }
        else
        {
            NS_LOG_LOGIC("event at slot " << m_event.slot << " with " << m_event.bits.size()
                                          << " bits");
        }
    }
    m_valid = true;
    return m_event;
}

void
BitErrorProcess::Pop()
{
    Peek();
    if (m_event.slot == FrameErrorEvent::NO_MORE_ERRORS)
    {
        return;
    }
    m_nextSlot = m_event.slot + 1;
    m_valid = false;
    ++m_headChanges;
    s_anyHeadChanges.fetch_add(1, std::memory_order_relaxed);
}

void
BitErrorProcess::Reset()
{
    NS_LOG_FUNCTION(this);
    m_valid = false;
    ++m_headChanges;
    s_anyHeadChanges.fetch_add(1, std::memory_order_relaxed);
    m_started = false;
    m_nextSlot = 0;
    m_event = FrameErrorEvent();
}

void
BitErrorProcess::DoSetFrameBits(uint32_t frameBits)
{
}

bool
BitErrorProcess::HasStarted() const
{
    return m_started;
}

double
BitErrorProcess::DrawUniform53(Ptr<UniformRandomVariable> rv)
{
    constexpr double two26 = 67108864.0;  // 2^26
    constexpr double two27 = 134217728.0; // 2^27
    double u1 = rv->GetValue(0.0, 1.0);
    double u2 = rv->GetValue(0.0, 1.0);
    auto a = static_cast<uint64_t>(std::floor(u1 * two26));
    auto b = static_cast<uint64_t>(std::floor(u2 * two27));
    a = std::min<uint64_t>(a, (uint64_t(1) << 26) - 1);
    b = std::min<uint64_t>(b, (uint64_t(1) << 27) - 1);
    uint64_t k = (a << 27) + b + 1; // 1 .. 2^53, exact in a double
    return std::ldexp(static_cast<double>(k), -53);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gilbert-elliott-error-process.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "rifl-check.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflGilbertElliottErrorProcess");

NS_OBJECT_ENSURE_REGISTERED(GilbertElliottErrorProcess);

namespace
{
/// Largest sojourn or skip, in bits.
constexpr uint64_t MAX_SKIP_BITS = uint64_t(1) << 62;
} // namespace

TypeId
GilbertElliottErrorProcess::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::GilbertElliottErrorProcess")
              .SetParent<BitErrorProcess>()
              .SetGroupName("Rifl")
              .AddConstructor<GilbertElliottErrorProcess>()
              .AddAttribute("GoodBer", "Bit error rate in the Good state, in [0, 1).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&GilbertElliottErrorProcess::SetGoodBer,
                                               &GilbertElliottErrorProcess::GetGoodBer),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("BadBer", "Bit error rate in the Bad state, in [0, 1).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&GilbertElliottErrorProcess::SetBadBer,
                                               &GilbertElliottErrorProcess::GetBadBer),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("MeanGoodBits",
                            "Mean sojourn in the Good state in line bits (geometric), >= 1.",
                            DoubleValue(1e6),
                            MakeDoubleAccessor(&GilbertElliottErrorProcess::SetMeanGoodBits,
                                               &GilbertElliottErrorProcess::GetMeanGoodBits),
                            MakeDoubleChecker<double>(1.0))
              .AddAttribute("MeanBadBits",
                            "Mean sojourn in the Bad state in line bits (geometric), >= 1.",
                            DoubleValue(100.0),
                            MakeDoubleAccessor(&GilbertElliottErrorProcess::SetMeanBadBits,
                                               &GilbertElliottErrorProcess::GetMeanBadBits),
                            MakeDoubleChecker<double>(1.0));
    return tid;
}

GilbertElliottErrorProcess::GilbertElliottErrorProcess()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

GilbertElliottErrorProcess::~GilbertElliottErrorProcess()
{
    NS_LOG_FUNCTION(this);
}

void
GilbertElliottErrorProcess::DoDispose()
{
    m_rng = nullptr;
    BitErrorProcess::DoDispose();
}

void
GilbertElliottErrorProcess::SetGoodBer(double ber)
{
    RIFL_CHECK_ARG(!(ber >= 0.0 && ber < 1.0),
                   "GilbertElliottErrorProcess: GoodBer = " << ber << " is outside [0, 1)");
    m_goodBer = ber;
}

double
GilbertElliottErrorProcess::GetGoodBer() const
{
    return m_goodBer;
}

void
GilbertElliottErrorProcess::SetBadBer(double ber)
{
    RIFL_CHECK_ARG(!(ber >= 0.0 && ber < 1.0),
                   "GilbertElliottErrorProcess: BadBer = " << ber << " is outside [0, 1)");
    m_badBer = ber;
}

double
GilbertElliottErrorProcess::GetBadBer() const
{
    return m_badBer;
}

void
GilbertElliottErrorProcess::SetMeanGoodBits(double bits)
{
    RIFL_CHECK_ARG(
        !(bits >= 1.0 && std::isfinite(bits)),
        "GilbertElliottErrorProcess: MeanGoodBits = " << bits << " is outside [1, inf) (finite)");
    m_meanGoodBits = bits;
}

double
GilbertElliottErrorProcess::GetMeanGoodBits() const
{
    return m_meanGoodBits;
}

void
GilbertElliottErrorProcess::SetMeanBadBits(double bits)
{
    RIFL_CHECK_ARG(!(bits >= 1.0 && std::isfinite(bits)),
                   "GilbertElliottErrorProcess: MeanBadBits = " << bits
                                                                << " is outside [1, inf) (finite)");
    m_meanBadBits = bits;
}

double
GilbertElliottErrorProcess::GetMeanBadBits() const
{
    return m_meanBadBits;
}

double
GilbertElliottErrorProcess::GetBadStateProbability() const
{
    return m_meanBadBits / (m_meanGoodBits + m_meanBadBits);
}

double
GilbertElliottErrorProcess::GetMeanBer() const
{
    double piBad = GetBadStateProbability();
    return (1.0 - piBad) * m_goodBer + piBad * m_badBer;
}

int64_t
GilbertElliottErrorProcess::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

void
GilbertElliottErrorProcess::Reset()
{
    NS_LOG_FUNCTION(this);
    BitErrorProcess::Reset();
    m_initialized = false;
    m_bad = false;
    m_remaining = 0;
    m_cursor = Position();
    m_hasPending = false;
    m_exhausted = false;
    m_pending = Position();
    if (m_rng->GetStream() >= 0)
    {
        m_rng->SetStream(m_rng->GetStream()); // rewind to the stream's start
    }
}

void
GilbertElliottErrorProcess::Advance(Position& pos, uint64_t bits) const
{
    const uint32_t n = GetFrameBits();
    pos.slot += bits / n;
    pos.bit += static_cast<uint32_t>(bits % n);
    if (pos.bit >= n)
    {
        pos.bit -= n;
        ++pos.slot;
    }
}

uint64_t
GilbertElliottErrorProcess::DrawSojourn(bool bad)
{
    double mean = bad ? m_meanBadBits : m_meanGoodBits;
    if (mean <= 1.0)
    {
        return 1;
    }
    // P(R = r) = (1-q)^(r-1) q, mean 1/q.
    double extra = std::floor(std::log(DrawUniform53(m_rng)) / std::log1p(-1.0 / mean));
    if (!(extra < static_cast<double>(MAX_SKIP_BITS - 1)))
    {
        return MAX_SKIP_BITS;
    }
    return 1 + static_cast<uint64_t>(extra);
}

bool
GilbertElliottErrorProcess::DrawNextError()
{
    if (!m_initialized)
    {
        m_bad = DrawUniform53(m_rng) <= GetBadStateProbability();
        m_remaining = DrawSojourn(m_bad);
        m_initialized = true;
        NS_LOG_LOGIC("initial state " << (m_bad ? "Bad" : "Good") << " for " << m_remaining
                                      << " bits");
    }
    if (m_goodBer <= 0.0 && m_badBer <= 0.0)
    {
        return false;
    }
    while (m_cursor.slot < MAX_SLOT)
    {
        double p = m_bad ? m_badBer : m_goodBer;
        if (p > 0.0)
        {
            double k = std::floor(std::log(DrawUniform53(m_rng)) / std::log1p(-p));
            if (k < static_cast<double>(MAX_SKIP_BITS) && static_cast<uint64_t>(k) < m_remaining)
            {
                auto skip = static_cast<uint64_t>(k);
                m_pending = m_cursor;
                Advance(m_pending, skip);
                m_cursor = m_pending;
                Advance(m_cursor, 1);
                m_remaining -= skip + 1;
                if (m_remaining == 0)
                {
                    m_bad = !m_bad;
                    m_remaining = DrawSojourn(m_bad);
                }
                return m_pending.slot < MAX_SLOT;
            }
        }
        // No error in the rest of this sojourn (memoryless: the skip is discarded).
        Advance(m_cursor, m_remaining);
        m_bad = !m_bad;
        m_remaining = DrawSojourn(m_bad);
    }
    return false;
}

void
GilbertElliottErrorProcess::DoGenerateNext(uint64_t minSlot, FrameErrorEvent& event)
{
    NS_LOG_FUNCTION(this << minSlot);
    if (!m_hasPending)
    {
        if (m_exhausted || !DrawNextError())
        {
            m_exhausted = true;
            event.slot = FrameErrorEvent::NO_MORE_ERRORS;
            return;
        }
    }
    NS_ASSERT(m_pending.slot >= minSlot);
    event.slot = m_pending.slot;
    event.bits.push_back(m_pending.bit);
    m_hasPending = false;
    while (true)
    {
        if (!DrawNextError())
        {
            m_exhausted = true;
            break;
        }
        if (m_pending.slot != event.slot)
        {
            m_hasPending = true;
            break;
        }
        event.bits.push_back(m_pending.bit);
    }
}

} // namespace ns3

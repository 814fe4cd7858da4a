/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "independent-bit-error-process.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "rifl-check.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflIndependentBitErrorProcess");

NS_OBJECT_ENSURE_REGISTERED(IndependentBitErrorProcess);

TypeId
IndependentBitErrorProcess::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::IndependentBitErrorProcess")
              .SetParent<BitErrorProcess>()
              .SetGroupName("Rifl")
              .AddConstructor<IndependentBitErrorProcess>()
              .AddAttribute("Ber",
                            "Bit error rate: each line bit is flipped independently with this "
                            "probability, in [0, 1).",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&IndependentBitErrorProcess::SetBer,
                                               &IndependentBitErrorProcess::GetBer),
                            MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

IndependentBitErrorProcess::IndependentBitErrorProcess()
    : m_rng(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

IndependentBitErrorProcess::~IndependentBitErrorProcess()
{
    NS_LOG_FUNCTION(this);
}

void
IndependentBitErrorProcess::DoDispose()
{
    m_rng = nullptr;
    BitErrorProcess::DoDispose();
}

void
IndependentBitErrorProcess::SetBer(double ber)
{
    NS_LOG_FUNCTION(this << ber);
    RIFL_CHECK_ARG(!(ber >= 0.0 && ber < 1.0),
                   "IndependentBitErrorProcess: Ber = " << ber << " is outside [0, 1)");
    m_ber = ber;
}

double
IndependentBitErrorProcess::GetBer() const
{
    return m_ber;
}

double
IndependentBitErrorProcess::GetFer() const
{
    uint32_t n = GetFrameBits();
    if (n == 0)
    {
        return 0.0;
    }
    return -std::expm1(n * std::log1p(-m_ber));
}

int64_t
IndependentBitErrorProcess::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_rng->SetStream(stream);
    return 1;
}

void
IndependentBitErrorProcess::Reset()
{
    NS_LOG_FUNCTION(this);
    BitErrorProcess::Reset();
    m_cursor = 0;
    if (m_rng->GetStream() >= 0)
    {
        m_rng->SetStream(m_rng->GetStream()); // rewind to the stream's start
    }
}

double
IndependentBitErrorProcess::GetMeanBer() const
{
    return m_ber;
}

void
IndependentBitErrorProcess::DoGenerateNext(uint64_t minSlot, FrameErrorEvent& event)
{
    NS_LOG_FUNCTION(this << minSlot);
    NS_ASSERT(m_cursor == minSlot);
    if (m_ber <= 0.0 || m_cursor >= MAX_SLOT)
    {
        event.slot = FrameErrorEvent::NO_MORE_ERRORS;
        return;
    }
    const uint32_t n = GetFrameBits();
    const double logQ = std::log1p(-m_ber); // log(1-p) < 0
    const double logFrameClean = n * logQ;  // log((1-p)^n), exact product
    const double fer = -std::expm1(logFrameClean);

    // Clean frames before the next hit ~ Geometric(FER) on {0, 1, ...}.
    double gap = std::floor(std::log(DrawUniform53(m_rng)) / logFrameClean);
    if (!(gap < static_cast<double>(MAX_SLOT - m_cursor)))
    {
        event.slot = FrameErrorEvent::NO_MORE_ERRORS;
        m_cursor = MAX_SLOT;
        return;
    }
    event.slot = m_cursor + static_cast<uint64_t>(gap);

    // First errored bit, conditioned on >= 1 error in the frame, by inversion:
    // P(J >= j) = ((1-p)^j - (1-p)^n) / FER.
    double v = 1.0 - DrawUniform53(m_rng); // [0, 1)
    double j = std::floor(std::log1p(-v * fer) / logQ);
    uint32_t pos = (j >= n - 1) ? n - 1 : static_cast<uint32_t>(j < 0 ? 0 : j);
    event.bits.push_back(pos);
    ++pos;
    // Further errors of the same frame: clean bits before the next ~ Geometric(p).
    while (pos < n)
    {
        double k = std::floor(std::log(DrawUniform53(m_rng)) / logQ);
        if (!(k < static_cast<double>(n - pos)))
        {
            break;
        }
        pos += static_cast<uint32_t>(k);
        event.bits.push_back(pos);
        ++pos;
    }
    m_cursor = event.slot + 1;
}

} // namespace ns3

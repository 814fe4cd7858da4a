/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/deterministic-error-process.h"
#include "ns3/double.h"
#include "ns3/gilbert-elliott-error-process.h"
#include "ns3/independent-bit-error-process.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rifl-compat.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/sync-loss-process.h"
#include "ns3/test.h"

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rifl-core
 * \brief Tests of the bit-error, burst, deterministic and sync-loss processes.
 *
 * Statistical bounds: FER and means within 5.5 sigma (two-sided normal tail
 * 3.8e-8), chi-square p-values above 1e-6, batch-mean t statistics within 6.5.
 */

using namespace ns3;

namespace
{

/**
 * \brief Run \p f and return the message of the exception of type E it throws.
 * \param f the code to run.
 * \return the message, or "" if nothing of type E was thrown.
 */
template <class E>
std::string
CatchMessage(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \brief Chi-square p-value of observed counts against expected ones, with
 *        adjacent bins merged (in order) until each expected count is >= 5.
 * \param observed the observed counts.
 * \param expected the expected counts (same size).
 * \param bins set to the number of merged bins.
 * \return the upper-tail p-value (1 if fewer than 2 bins).
 */
double
ChiSquarePValue(const std::vector<double>& observed, const std::vector<double>& expected,
                uint32_t& bins)
{
    std::vector<double> o;
    std::vector<double> e;
    double co = 0;
    double ce = 0;
    double tail = 0;
    for (double x : expected)
    {
        tail += x;
    }
    for (size_t i = 0; i < expected.size(); ++i)
    {
        co += observed[i];
        ce += expected[i];
        tail -= expected[i];
        if (ce >= 5 && (tail >= 5 || i + 1 == expected.size()))
        {
            o.push_back(co);
            e.push_back(ce);
            co = 0;
            ce = 0;
        }
    }
    if (ce > 0 || co > 0)
    {
        if (e.empty())
        {
            o.push_back(co);
            e.push_back(ce);
        }
        else
        {
            o.back() += co;
            e.back() += ce;
        }
    }
    bins = static_cast<uint32_t>(e.size());
    if (bins < 2)
    {
        return 1.0;
    }
    double chi2 = 0;
    for (size_t i = 0; i < e.size(); ++i)
    {
        chi2 += (o[i] - e[i]) * (o[i] - e[i]) / e[i];
    }
    boost::math::chi_squared dist(bins - 1);
    return boost::math::cdf(boost::math::complement(dist, chi2));
}

/**
 * \brief Make an independent-error process.
 * \param ber the BER.
 * \param frameBits the frame size.
 * \param stream the stream number.
 * \return the process.
 */
Ptr<IndependentBitErrorProcess>
MakeIndependent(double ber, uint32_t frameBits, int64_t stream)
{
    auto p = CreateObject<IndependentBitErrorProcess>();
    p->SetBer(ber);
    p->SetFrameBits(frameBits);
    p->AssignStreams(stream);
    return p;
}

/**
 * \brief Check that an event is well formed (bits ascending, distinct, in range).
 * \param ev the event.
 * \param frameBits the frame size.
 * \return true if it is.
 */
bool
WellFormed(const FrameErrorEvent& ev, uint32_t frameBits)
{
    if (ev.bits.empty())
    {
        return false;
    }
    for (size_t i = 0; i < ev.bits.size(); ++i)
    {
        if (ev.bits[i] >= frameBits || (i > 0 && ev.bits[i] <= ev.bits[i - 1]))
        {
            return false;
        }
    }
    return true;
}

} // namespace

/**
 * \ingroup rifl-core
 * \brief Independent errors: FER, errors per frame and bit positions at one BER.
 */
class RiflIndependentStatisticsTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param ber the BER.
     * \param frameBits the frame size.
     * \param events the approximate number of errored frames to sample.
     */
    RiflIndependentStatisticsTestCase(double ber, uint32_t frameBits, double events)
        : TestCase("Independent errors at BER " + std::to_string(ber) + ", "
                   + std::to_string(frameBits) + "-bit frames: FER, bits per frame, positions")
        , m_ber(ber)
        , m_frameBits(frameBits)
        , m_events(events)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        const uint32_t n = m_frameBits;
        auto proc = MakeIndependent(m_ber, n, 11);
        const double fer = -std::expm1(n * std::log1p(-m_ber));
        NS_TEST_ASSERT_MSG_EQ_TOL(proc->GetFer(), fer, 1e-12 * fer, "GetFer");
        NS_TEST_ASSERT_MSG_EQ(proc->GetMeanBer(), m_ber, "GetMeanBer");
        const auto span = static_cast<uint64_t>(std::ceil(m_events / fer));

        std::vector<double> perFrame(n + 1, 0.0);
        const uint32_t buckets = n >= 32 ? 32 : n;
        std::vector<double> posCount(buckets, 0.0);
        uint64_t errored = 0;
        uint64_t lastSlot = 0;
        bool ok = true;
        bool ascending = true;
        while (proc->Peek().slot < span)
        {
            const FrameErrorEvent& ev = proc->Peek();
            ok = ok && WellFormed(ev, n);
            ascending = ascending && (errored == 0 || ev.slot > lastSlot);
            lastSlot = ev.slot;
            ++errored;
            perFrame[ev.bits.size()] += 1;
            for (uint32_t b : ev.bits)
            {
                posCount[b * buckets / n] += 1;
            }
            proc->Pop();
        }
        NS_TEST_ASSERT_MSG_EQ(ok, true, "every event has ascending distinct bits in range");
        NS_TEST_ASSERT_MSG_EQ(ascending, true, "slots strictly increase");

        // FER: errored ~ Binomial(span, FER).
        double mean = span * fer;
        double sd = std::sqrt(span * fer * (1 - fer));
        NS_TEST_ASSERT_MSG_EQ_TOL(static_cast<double>(errored), mean, 5.5 * sd,
                                  "errored slots in " << span << " slots vs FER " << fer);

        // Bits per errored frame ~ Binomial(n, p) conditioned on >= 1.
        boost::math::binomial bin(n, m_ber);
        std::vector<double> obs(n);
        std::vector<double> exp(n);
        for (uint32_t k = 1; k <= n; ++k)
        {
            obs[k - 1] = perFrame[k];
            exp[k - 1] = errored * boost::math::pdf(bin, k) / fer;
        }
        uint32_t bins = 0;
        double pv = ChiSquarePValue(obs, exp, bins);
        NS_TEST_ASSERT_MSG_GT(pv, 1e-6, "errors per frame: chi-square over " << bins << " bins");

        // Positions uniform.
        double total = 0;
        for (double c : posCount)
        {
            total += c;
        }
        std::vector<double> posExp(buckets, total / buckets);
        pv = ChiSquarePValue(posCount, posExp, bins);
        NS_TEST_ASSERT_MSG_EQ(bins, buckets, "position buckets not merged");
        NS_TEST_ASSERT_MSG_GT(pv, 1e-6, "bit positions: chi-square over " << bins << " buckets");
    }

    double m_ber;         //!< BER
    uint32_t m_frameBits; //!< frame size
    double m_events;      //!< target number of errored frames
};

/**
 * \ingroup rifl-core
 * \brief Independent errors at BER 1e-15: the mean gap over >= 1e4 events is 1/FER.
 */
class RiflIndependentTinyBerTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param events number of errored slots to draw.
     */
    RiflIndependentTinyBerTestCase(uint32_t events)
        : TestCase("Independent errors at BER 1e-15: mean gap over " + std::to_string(events)
                   + " events")
        , m_events(events)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        const double ber = 1e-15;
        const uint32_t n = 256;
        auto proc = MakeIndependent(ber, n, 21);
        const double fer = -std::expm1(n * std::log1p(-ber)); // 2.56e-13
        uint64_t multi = 0;
        uint64_t last = 0;
        uint64_t maxGap = 0;
        for (uint32_t i = 0; i < m_events; ++i)
        {
            const FrameErrorEvent& ev = proc->Peek();
            NS_TEST_ASSERT_MSG_NE(ev.slot, FrameErrorEvent::NO_MORE_ERRORS, "stream ended");
            NS_TEST_ASSERT_MSG_EQ(WellFormed(ev, n), true, "well-formed event");
            multi += ev.bits.size() > 1;
            uint64_t gap = ev.slot + 1 - (i == 0 ? 0 : last + 1);
            maxGap = std::max(maxGap, gap);
            last = ev.slot;
            proc->Pop();
        }
        double spanned = static_cast<double>(last) + 1.0;
        NS_TEST_ASSERT_MSG_GT(spanned, 1e16, "more than 1e16 frames spanned");
        // Gaps ~ Geometric(FER) on {1,...}: mean 1/FER, relative sd sqrt(1-FER).
        double meanGap = spanned / m_events;
        double tol = 5.5 * std::sqrt(1 - fer) / fer / std::sqrt(m_events);
        NS_TEST_ASSERT_MSG_EQ_TOL(meanGap, 1 / fer, tol, "mean gap between errored slots");
        // P(>= 2 errors in an errored frame) ~ 1.3e-13: none expected.
        NS_TEST_ASSERT_MSG_EQ(multi, 0, "multi-bit frames at BER 1e-15");
        // The largest of N exponential gaps is ~ ln(N)/FER; below 1/(40 FER) with
        // probability e^-40 for all N here, and above (ln N - 5)/FER with prob. < 1e-6.
        NS_TEST_ASSERT_MSG_GT(maxGap * fer, std::log(m_events) - 5.0, "largest gap");
    }

    uint32_t m_events; //!< events to draw
};

/**
 * \ingroup rifl-core
 * \brief The 53-bit uniform draw: grid, range and fine bits.
 */
class RiflUniform53TestCase : public TestCase
{
  public:
    RiflUniform53TestCase()
        : TestCase("DrawUniform53: values k*2^-53 in (0,1], uniform, fine bits used")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        auto rv = CreateObject<UniformRandomVariable>();
        rv->SetStream(5);
        const uint32_t draws = 1000000;
        double sum = 0;
        double fineSum = 0;
        uint32_t below = 0;
        bool grid = true;
        bool range = true;
        for (uint32_t i = 0; i < draws; ++i)
        {
            double u = BitErrorProcess::DrawUniform53(rv);
            range = range && u > 0 && u <= 1;
            double k = std::ldexp(u, 53);
            grid = grid && k == std::floor(k);
            // The low 21 bits: always zero for a 32-bit generator.
            double fine = std::fmod(k - 1, 2097152.0) / 2097152.0;
            fineSum += fine;
            sum += u;
            below += u < 1.0 / 1024;
        }
        NS_TEST_ASSERT_MSG_EQ(range, true, "values in (0,1]");
        NS_TEST_ASSERT_MSG_EQ(grid, true, "values on the 2^-53 grid");
        double sdMean = std::sqrt(1.0 / 12 / draws);
        NS_TEST_ASSERT_MSG_EQ_TOL(sum / draws, 0.5, 5.5 * sdMean, "mean");
        NS_TEST_ASSERT_MSG_EQ_TOL(fineSum / draws, 0.5, 5.5 * sdMean, "mean of the low 21 bits");
        double p = 1.0 / 1024;
        NS_TEST_ASSERT_MSG_EQ_TOL(below, draws * p, 5.5 * std::sqrt(draws * p * (1 - p)),
                                  "values below 2^-10");
    }
};

/**
 * \ingroup rifl-core
 * \brief Same stream -> same sequence; different -> different; Reset and queries.
 */
class RiflReproducibilityTestCase : public TestCase
{
  public:
    RiflReproducibilityTestCase()
        : TestCase("Reproducibility: stream numbers, Reset, query independence")
    {
    }

  private:
    /**
     * \brief Draw events.
     * \param proc the process.
     * \param count how many.
     * \return the events.
     */
    static std::vector<FrameErrorEvent> Draw(Ptr<BitErrorProcess> proc, uint32_t count)
    {
        std::vector<FrameErrorEvent> out;
        for (uint32_t i = 0; i < count; ++i)
        {
            out.push_back(proc->Peek());
            proc->Pop();
        }
        return out;
    }

    /**
     * \brief Compare event lists.
     * \param a one list.
     * \param b another.
     * \return true if identical.
     */
    static bool Same(const std::vector<FrameErrorEvent>& a, const std::vector<FrameErrorEvent>& b)
    {
        if (a.size() != b.size())
        {
            return false;
        }
        for (size_t i = 0; i < a.size(); ++i)
        {
            if (a[i].slot != b[i].slot || a[i].bits != b[i].bits)
            {
                return false;
            }
        }
        return true;
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        RngSeedManager::SetRun(2);
        auto a = Draw(MakeIndependent(1e-3, 256, 7), 2000);
        auto b = Draw(MakeIndependent(1e-3, 256, 7), 2000);
        auto c = Draw(MakeIndependent(1e-3, 256, 8), 2000);
        NS_TEST_ASSERT_MSG_EQ(Same(a, b), true, "same stream, same sequence");
        NS_TEST_ASSERT_MSG_EQ(Same(a, c), false, "different stream, different sequence");

        auto p = MakeIndependent(1e-3, 256, 7);
        Draw(p, 500);
        p->Reset();
        NS_TEST_ASSERT_MSG_EQ(Same(Draw(p, 2000), a), true, "Reset replays the sequence");

        // Query independence: SkipTo at points that skip no event, repeated Peeks.
        auto q = MakeIndependent(1e-3, 256, 7);
        std::vector<FrameErrorEvent> viaSkip;
        uint64_t prev = 0;
        for (size_t i = 0; i < a.size(); ++i)
        {
            q->SkipTo(prev + (a[i].slot - prev) / 2);
            q->Peek();
            viaSkip.push_back(q->Peek());
            q->Pop();
            prev = a[i].slot + 1;
        }
        NS_TEST_ASSERT_MSG_EQ(Same(viaSkip, a), true, "SkipTo/Peek pattern does not matter");
        auto r = MakeIndependent(1e-3, 256, 7);
        NS_TEST_ASSERT_MSG_EQ(r->SkipTo(a[1000].slot).slot, a[1000].slot, "SkipTo an event");
        const FrameErrorEvent& ev = r->SkipTo(a[1499].slot + 1);
        NS_TEST_ASSERT_MSG_EQ(ev.slot, a[1500].slot, "SkipTo past an event");
        NS_TEST_ASSERT_MSG_EQ((ev.bits == a[1500].bits), true, "SkipTo: same bits");

        auto g1 = CreateObject<GilbertElliottErrorProcess>();
        auto g2 = CreateObject<GilbertElliottErrorProcess>();
        for (auto g : {g1, g2})
        {
            g->SetGoodBer(1e-4);
            g->SetBadBer(0.05);
            g->SetMeanGoodBits(1e4);
            g->SetMeanBadBits(50);
            g->SetFrameBits(192);
            g->AssignStreams(4);
        }
        auto ga = Draw(g1, 1000);
        NS_TEST_ASSERT_MSG_EQ(Same(ga, Draw(g2, 1000)), true, "GE: same stream, same sequence");
        g1->Reset();
        NS_TEST_ASSERT_MSG_EQ(Same(ga, Draw(g1, 1000)), true, "GE: Reset replays");
        g2->AssignStreams(5);
        g2->Reset();
        NS_TEST_ASSERT_MSG_EQ(Same(ga, Draw(g2, 1000)), false, "GE: different stream");

        auto zero = MakeIndependent(0.0, 256, 1);
        NS_TEST_ASSERT_MSG_EQ(zero->Peek().slot, FrameErrorEvent::NO_MORE_ERRORS, "BER 0");
        zero->Pop();
        NS_TEST_ASSERT_MSG_EQ(zero->Peek().slot, FrameErrorEvent::NO_MORE_ERRORS, "stays at end");
    }
};

/**
 * \ingroup rifl-core
 * \brief Gilbert-Elliott: long-run BER, burst and gap lengths, initial state.
 */
class RiflGilbertElliottTestCase : public TestCase
{
  public:
    RiflGilbertElliottTestCase()
        : TestCase("Gilbert-Elliott: long-run BER, burst lengths, stationary start")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        // Long-run BER by batch means.
        {
            auto g = CreateObject<GilbertElliottErrorProcess>();
            g->SetAttribute("GoodBer", DoubleValue(1e-5));
            g->SetAttribute("BadBer", DoubleValue(1e-2));
            g->SetAttribute("MeanGoodBits", DoubleValue(1e5));
            g->SetAttribute("MeanBadBits", DoubleValue(100));
            g->SetFrameBits(256);
            g->AssignStreams(3);
            double piBad = 100.0 / (1e5 + 100);
            double expected = (1 - piBad) * 1e-5 + piBad * 1e-2;
            NS_TEST_ASSERT_MSG_EQ_TOL(g->GetMeanBer(), expected, 1e-15, "stationary mix");
            NS_TEST_ASSERT_MSG_EQ_TOL(g->GetBadStateProbability(), piBad, 1e-15, "pi_Bad");
            const uint32_t batches = 50;
            const uint64_t batchSlots = 800000; // 2.05e8 bits, ~2000 state cycles each
            std::vector<double> errors(batches, 0.0);
            while (g->Peek().slot < batches * batchSlots)
            {
                errors[g->Peek().slot / batchSlots] += g->Peek().bits.size();
                g->Pop();
            }
            double m = 0;
            for (double e : errors)
            {
                m += e / (batchSlots * 256.0);
            }
            m /= batches;
            double s2 = 0;
            for (double e : errors)
            {
                double x = e / (batchSlots * 256.0) - m;
                s2 += x * x;
            }
            double se = std::sqrt(s2 / (batches - 1) / batches);
            // |t_49| > 6.5 has probability ~4e-8.
            NS_TEST_ASSERT_MSG_EQ_TOL(m, expected, 6.5 * se, "long-run BER (batch means)");
            NS_TEST_ASSERT_MSG_EQ_TOL(m, expected, 0.05 * expected, "long-run BER within 5%");
        }
        // Bursts: Bad state errs every bit, Good state none -> runs = Bad sojourns.
        {
            auto g = CreateObject<GilbertElliottErrorProcess>();
            g->SetGoodBer(0.0);
            g->SetBadBer(1 - 1e-12);
            g->SetMeanGoodBits(1000);
            g->SetMeanBadBits(20);
            g->SetFrameBits(256);
            g->AssignStreams(9);
            std::vector<double> runs;
            std::vector<double> gaps;
            uint64_t runStart = 0;
            uint64_t prev = 0;
            bool first = true;
            const uint32_t wanted = 10000;
            while (runs.size() < wanted + 1)
            {
                const FrameErrorEvent& ev = g->Peek();
                for (uint32_t b : ev.bits)
                {
                    uint64_t pos = ev.slot * 256 + b;
                    if (first)
                    {
                        runStart = pos;
                        first = false;
                    }
                    else if (pos != prev + 1)
                    {
                        runs.push_back(static_cast<double>(prev + 1 - runStart));
                        gaps.push_back(static_cast<double>(pos - prev - 1));
                        runStart = pos;
                    }
                    prev = pos;
                }
                g->Pop();
            }
            // Drop the first run (may start inside a sojourn... it is stationary, but
            // also may begin at bit 0); use runs 1..wanted.
            double meanRun = 0;
            double meanGap = 0;
            for (uint32_t i = 1; i <= wanted; ++i)
            {
                meanRun += runs[i] / wanted;
                meanGap += gaps[i] / wanted;
            }
            // Geometric sojourns: sd = sqrt(L (L - 1)).
            NS_TEST_ASSERT_MSG_EQ_TOL(meanRun, 20.0, 5.5 * std::sqrt(20.0 * 19.0 / wanted),
                                      "mean burst length in bits");
            NS_TEST_ASSERT_MSG_EQ_TOL(meanGap, 1000.0, 5.5 * std::sqrt(1000.0 * 999.0 / wanted),
                                      "mean gap between bursts in bits");
        }
        // Initial state from the stationary distribution: P(start Bad) = 1/4.
        {
            const uint32_t trials = 4000;
            uint32_t startBad = 0;
            for (uint32_t i = 0; i < trials; ++i)
            {
                auto g = CreateObject<GilbertElliottErrorProcess>();
                g->SetGoodBer(0.0);
                g->SetBadBer(1 - 1e-12);
                g->SetMeanGoodBits(3);
                g->SetMeanBadBits(1);
                g->SetFrameBits(64);
                g->AssignStreams(1000 + i);
                const FrameErrorEvent& ev = g->Peek();
                startBad += ev.slot == 0 && ev.bits.front() == 0;
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(startBad, trials * 0.25,
                                      5.5 * std::sqrt(trials * 0.25 * 0.75),
                                      "fraction of runs starting in Bad");
        }
    }
};

/**
 * \ingroup rifl-core
 * \brief Deterministic lists are replayed exactly.
 */
class RiflDeterministicTestCase : public TestCase
{
  public:
    RiflDeterministicTestCase()
        : TestCase("Deterministic errors: parse, merge, sort, replay")
    {
    }

  private:
    void DoRun() override
    {
        auto d = CreateObject<DeterministicErrorProcess>();
        d->SetAttribute("Errors", StringValue(" 40:255 ; 12:5, 0"));
        d->AddError(12, {3, 5});
        d->AddError(7, {1});
        d->AddError(9, {});
        d->SetFrameBits(256);
        NS_TEST_ASSERT_MSG_EQ(d->GetErrors(), "7:1;12:0,3,5;40:255", "merged list");
        NS_TEST_ASSERT_MSG_EQ(d->GetNErrorSlots(), 3, "three slots");
        StringValue sv;
        d->GetAttribute("Errors", sv);
        NS_TEST_ASSERT_MSG_EQ(sv.Get(), "7:1;12:0,3,5;40:255", "attribute read back");
        NS_TEST_ASSERT_MSG_EQ_TOL(d->GetMeanBer(), 5.0 / (41 * 256), 1e-15, "mean BER");
        for (int pass = 0; pass < 2; ++pass)
        {
            NS_TEST_ASSERT_MSG_EQ(d->Peek().slot, 7, "first slot");
            NS_TEST_ASSERT_MSG_EQ((d->Peek().bits == std::vector<uint32_t>{1}), true, "bits 7");
            d->Pop();
            NS_TEST_ASSERT_MSG_EQ(d->Peek().slot, 12, "second slot");
            NS_TEST_ASSERT_MSG_EQ((d->Peek().bits == std::vector<uint32_t>{0, 3, 5}), true,
                                  "bits 12");
            NS_TEST_ASSERT_MSG_EQ(d->SkipTo(13).slot, 40, "SkipTo");
            NS_TEST_ASSERT_MSG_EQ((d->Peek().bits == std::vector<uint32_t>{255}), true, "bits 40");
            d->Pop();
            NS_TEST_ASSERT_MSG_EQ(d->Peek().slot, FrameErrorEvent::NO_MORE_ERRORS, "end");
            d->Pop();
            NS_TEST_ASSERT_MSG_EQ(d->Peek().slot, FrameErrorEvent::NO_MORE_ERRORS, "stays");
            d->Reset();
        }
        NS_TEST_ASSERT_MSG_EQ(d->AssignStreams(3), 0, "no streams");
        d->SetErrors("");
        NS_TEST_ASSERT_MSG_EQ(d->Peek().slot, FrameErrorEvent::NO_MORE_ERRORS, "cleared");
    }
};

/**
 * \ingroup rifl-core
 * \brief Sync-loss events: Poisson mean interval, durations, lists.
 */
class RiflSyncLossTestCase : public TestCase
{
  public:
    RiflSyncLossTestCase()
        : TestCase("Sync loss: Poisson mean interval, duration, no overlap, lists")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        auto s = CreateObject<SyncLossProcess>();
        s->SetAttribute("MeanInterval", TimeValue(MicroSeconds(1)));
        s->SetAttribute("Duration", TimeValue(NanoSeconds(45)));
        s->SetSlotDuration(NanoSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(s->AssignStreams(17), 1, "one stream");
        NS_TEST_ASSERT_MSG_EQ(s->GetDurationSlots(), 5, "45 ns on 10 ns slots");
        NS_TEST_ASSERT_MSG_EQ_TOL(s->GetMeanIntervalSlots(), 100.0, 1e-12, "mean in slots");
        const uint32_t events = 100000;
        uint64_t prevEnd = 0;
        double gapSum = 0;
        bool durOk = true;
        bool gapOk = true;
        std::vector<uint64_t> firstStarts;
        for (uint32_t i = 0; i < events; ++i)
        {
            const SyncLossEvent& ev = s->Peek();
            durOk = durOk && ev.durationSlots == 5;
            gapOk = gapOk && ev.startSlot >= prevEnd + 1;
            gapSum += static_cast<double>(ev.startSlot - prevEnd);
            prevEnd = ev.startSlot + ev.durationSlots;
            if (i < 100)
            {
                firstStarts.push_back(ev.startSlot);
            }
            s->SetSlotDuration(NanoSeconds(10)); // the same value: no effect
            s->Pop();
        }
        NS_TEST_ASSERT_MSG_EQ(durOk, true, "every duration is 5 slots");
        NS_TEST_ASSERT_MSG_EQ(gapOk, true, "events never overlap or touch");
        // In-sync gap = ceil(Exp(100)) ~ Geometric(1 - e^-0.01) on {1,...}.
        double q = -std::expm1(-0.01);
        double sd = std::sqrt(1 - q) / q;
        NS_TEST_ASSERT_MSG_EQ_TOL(gapSum / events, 1 / q, 5.5 * sd / std::sqrt(events),
                                  "mean in-sync interval in slots");
        s->Reset();
        bool same = true;
        for (uint32_t i = 0; i < 100; ++i)
        {
            same = same && s->Peek().startSlot == firstStarts[i];
            s->Pop();
        }
        NS_TEST_ASSERT_MSG_EQ(same, true, "Reset replays");

        auto off = CreateObject<SyncLossProcess>();
        NS_TEST_ASSERT_MSG_EQ(off->Peek().startSlot, SyncLossEvent::NO_MORE_EVENTS, "off");

        auto list = CreateObject<SyncLossProcess>();
        list->AddEvent(100, 5);
        list->AddEvent(10, 3);
        list->AddEvent(14, 2);
        std::string msg = CatchMessage<std::invalid_argument>(
            [&]()
            {
                list->AddEvent(12, 2);
            });
        NS_TEST_ASSERT_MSG_NE(msg.find("startSlot"), std::string::npos, "overlap: " << msg);
        msg = CatchMessage<std::invalid_argument>(
            [&]()
            {
                list->AddEvent(13, 1);
            });
        NS_TEST_ASSERT_MSG_NE(msg.find("startSlot"), std::string::npos, "touching: " << msg);
        msg = CatchMessage<std::invalid_argument>(
            [&]()
            {
                list->AddEvent(95, 5);
            });
        NS_TEST_ASSERT_MSG_NE(msg.find("startSlot"), std::string::npos, "touch next: " << msg);
        msg = CatchMessage<std::invalid_argument>(
            [&]()
            {
                list->AddEvent(50, 0);
            });
        NS_TEST_ASSERT_MSG_NE(msg.find("durationSlots"), std::string::npos, msg);
        uint64_t starts[] = {10, 14, 100};
        uint64_t durs[] = {3, 2, 5};
        for (int i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(list->Peek().startSlot, starts[i], "list start " << i);
            NS_TEST_ASSERT_MSG_EQ(list->Peek().durationSlots, durs[i], "list duration " << i);
            list->Pop();
        }
        NS_TEST_ASSERT_MSG_EQ(list->Peek().startSlot, SyncLossEvent::NO_MORE_EVENTS, "list end");

        auto noSlot = CreateObject<SyncLossProcess>();
        noSlot->SetMeanInterval(MicroSeconds(1));
        msg = CatchMessage<std::invalid_argument>(
            [&]()
            {
                noSlot->Peek();
            });
        NS_TEST_ASSERT_MSG_NE(msg.find("SlotDuration"), std::string::npos, msg);
        msg = CatchMessage<std::invalid_argument>(
            [&]()
            {
                noSlot->SetSlotDuration(Time(0));
            });
        NS_TEST_ASSERT_MSG_NE(msg.find("SlotDuration"), std::string::npos, msg);
        msg = CatchMessage<std::invalid_argument>(
            [&]()
            {
                noSlot->SetMeanInterval(NanoSeconds(-1));
            });
        NS_TEST_ASSERT_MSG_NE(msg.find("MeanInterval"), std::string::npos, msg);
    }
};

/**
 * \ingroup rifl-core
 * \brief Bad input: messages name the parameter.
 */
class RiflErrorProcessBadInputTestCase : public TestCase
{
  public:
    RiflErrorProcessBadInputTestCase()
        : TestCase("Bad input to the error processes")
    {
    }

  private:
    /**
     * \brief Check that \p f throws std::invalid_argument naming \p what.
     * \param f the code.
     * \param what text the message must contain.
     * \param what2 more text the message must contain ("" for none).
     */
    void Expect(const std::function<void()>& f, const std::string& what, const std::string& what2)
    {
        std::string msg = CatchMessage<std::invalid_argument>(f);
        NS_TEST_EXPECT_MSG_NE(msg.find(what), std::string::npos, "'" << msg << "' names " << what);
        if (!what2.empty())
        {
            NS_TEST_EXPECT_MSG_NE(msg.find(what2), std::string::npos,
                                  "'" << msg << "' contains " << what2);
        }
    }

    void DoRun() override
    {
        auto ind = CreateObject<IndependentBitErrorProcess>();
        Expect(
            [&]()
            {
                ind->SetBer(1.0);
            },
            "Ber", "[0, 1)");
        Expect(
            [&]()
            {
                ind->SetBer(-0.1);
            },
            "Ber", "-0.1");
        Expect(
            [&]()
            {
                ind->SetBer(std::numeric_limits<double>::quiet_NaN());
            },
            "Ber", "");
        Expect(
            [&]()
            {
                ind->SetAttribute("Ber", DoubleValue(1.0));
            },
            "Ber", "");
        NS_TEST_EXPECT_MSG_EQ(ind->SetAttributeFailSafe("Ber", DoubleValue(1.5)), false,
                              "checker rejects 1.5");
        NS_TEST_EXPECT_MSG_EQ(ind->GetBer(), 0.0, "BER unchanged");
        Expect(
            [&]()
            {
                ind->Peek();
            },
            "FrameBits", "");
        Expect(
            [&]()
            {
                ind->SetFrameBits(0);
            },
            "FrameBits", "65536");
        Expect(
            [&]()
            {
                ind->SetFrameBits(65537);
            },
            "FrameBits", "65537");
        ind->SetBer(0.01);
        ind->SetFrameBits(256);
        ind->Peek();
        Expect(
            [&]()
            {
                ind->SetFrameBits(192);
            },
            "FrameBits", "Reset");
        ind->SetFrameBits(256); // same value: fine
        ind->Reset();
        ind->SetFrameBits(192); // after Reset: fine
        NS_TEST_EXPECT_MSG_EQ(ind->GetFrameBits(), 192, "frame size after Reset");

        auto ge = CreateObject<GilbertElliottErrorProcess>();
        Expect(
            [&]()
            {
                ge->SetMeanGoodBits(0);
            },
            "MeanGoodBits", "0");
        Expect(
            [&]()
            {
                ge->SetMeanBadBits(0.5);
            },
            "MeanBadBits", "0.5");
        Expect(
            [&]()
            {
                ge->SetGoodBer(1.0);
            },
            "GoodBer", "[0, 1)");
        Expect(
            [&]()
            {
                ge->SetBadBer(-1);
            },
            "BadBer", "[0, 1)");
        NS_TEST_EXPECT_MSG_EQ(ge->SetAttributeFailSafe("MeanGoodBits", DoubleValue(0)), false,
                              "checker rejects MeanGoodBits 0");

        auto det = CreateObject<DeterministicErrorProcess>();
        for (const char* bad :
             {"12", "12:", "a:1", "12:0,,5", "12:0,", "12:0;", ";", "12:x", "-1:0", "12:-3",
              "1:2:3", "12:99999999999", "99999999999999999999999:1"})
        {
            Expect(
                [&]()
                {
                    det->SetErrors(bad);
                },
                "Errors", std::string("\"") + bad + "\"");
        }
        Expect(
            [&]()
            {
                det->SetAttribute("Errors", StringValue("12;4"));
            },
            "Errors", "");
        NS_TEST_EXPECT_MSG_EQ(det->GetNErrorSlots(), 0, "failed parses leave the list unchanged");
        det->AddError(3, {300});
        Expect(
            [&]()
            {
                det->SetFrameBits(256);
            },
            "300", "FrameBits = 256");
        det->Clear();
        det->SetFrameBits(256);
        Expect(
            [&]()
            {
                det->AddError(3, {256});
            },
            "bit = 256", "FrameBits = 256");
        Expect(
            [&]()
            {
                det->SetErrors("3:256");
            },
            "bit = 256", "FrameBits = 256");
        Expect(
            [&]()
            {
                det->AddError(FrameErrorEvent::NO_MORE_ERRORS, {1});
            },
            "slot", "");
    }
};

/**
 * \ingroup rifl-core
 * \brief The error-process test suite.
 */
class RiflBitErrorProcessTestSuite : public TestSuite
{
  public:
    RiflBitErrorProcessTestSuite()
        : TestSuite("rifl-bit-error-process", RIFL_TEST_UNIT)
    {
        for (double ber : {1e-3, 1e-4, 1e-5, 1e-6})
        {
            AddTestCase(new RiflIndependentStatisticsTestCase(ber, 256, 1e5), RIFL_TEST_QUICK);
        }
        AddTestCase(new RiflIndependentStatisticsTestCase(0.05, 16, 1e5), RIFL_TEST_QUICK);
        AddTestCase(new RiflIndependentStatisticsTestCase(0.3, 192, 2e4), RIFL_TEST_QUICK);
        AddTestCase(new RiflIndependentTinyBerTestCase(20000), RIFL_TEST_QUICK);
        AddTestCase(new RiflUniform53TestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflReproducibilityTestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflGilbertElliottTestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflDeterministicTestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflSyncLossTestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflErrorProcessBadInputTestCase(), RIFL_TEST_QUICK);
        // Longer runs: ten times the samples.
        AddTestCase(new RiflIndependentStatisticsTestCase(1e-4, 256, 2e6), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflIndependentTinyBerTestCase(1000000), RIFL_TEST_EXTENSIVE);
    }
};

/// The suite's static instance.
static RiflBitErrorProcessTestSuite g_riflBitErrorProcessTestSuite;

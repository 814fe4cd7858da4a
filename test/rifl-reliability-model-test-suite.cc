/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of LinkReliabilityModel against the closed forms and the published
 * figures of shared/spec/reliability-math.md §4-§5 and rifl-protocol.md §4.
 */

#include "ns3/link-reliability-model.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/**
 * \brief Whether calling \p f throws std::invalid_argument whose message names \p param.
 * \param f the call.
 * \param param the parameter name the message must contain.
 * \return true if so.
 */
bool
ThrowsNaming(const std::function<void()>& f, const std::string& param)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return std::string(e.what()).find(param) != std::string::npos;
    }
    return false;
}

/// C(n, 4) as a double.
double
Choose4(double n)
{
    return n * (n - 1) * (n - 2) * (n - 3) / 24.0;
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Frame error rate and the framing-efficiency zig-zag (spec §5 table).
 */
class RiflEfficiencyTestCase : public TestCase
{
  public:
    RiflEfficiencyTestCase()
        : TestCase("FER closed form and the RIFL256 and RIFL512 efficiency zig-zag")
    {
    }

  private:
    void DoRun() override
    {
        using M = LinkReliabilityModel;
        // FER: exact at tiny BER (1 - (1-p)^n ~ n p), and against pow at moderate BER.
        NS_TEST_ASSERT_MSG_EQ_TOL(M::FrameErrorRate(1e-15, 256) / 2.56e-13, 1.0, 1e-9,
                                  "FER at 1e-15");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::FrameErrorRate(1e-3, 256), 1.0 - std::pow(1.0 - 1e-3, 256),
                                  1e-12, "FER at 1e-3");
        NS_TEST_ASSERT_MSG_EQ(M::FrameErrorRate(0.0, 256), 0.0, "FER at 0");

        // The published framing-only table (rifl-protocol.md §5), in percent to 0.1.
        struct Row
        {
            uint32_t p;
            double rifl256;
            double rifl512;
        };
        const Row rows[]
            = {{30, 93.75, 46.9}, {62, 64.6, 96.9},   {64, 66.7, 50.0},     {128, 80.0, 66.7},
               {256, 88.9, 80.0}, {1024, 91.4, 94.1}, {1500, 93.75, 93.75}, {8192, 93.4, 96.2}};
        for (const Row& r : rows)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(100 * M::RiflFramingEfficiency(r.p, 256), r.rifl256, 0.051,
                                      "RIFL256 efficiency at " << r.p << " B");
            NS_TEST_EXPECT_MSG_EQ_TOL(100 * M::RiflFramingEfficiency(r.p, 512), r.rifl512, 0.051,
                                      "RIFL512 efficiency at " << r.p << " B");
        }
        // Exact values: P / (32 ceil(P/30)).
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflFramingEfficiency(31, 256), 31.0 / 64.0, 1e-15, "31 B");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflFramingAsymptote(256), 0.9375, 1e-15, "asymptote 256");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflFramingAsymptote(512), 0.96875, 1e-15, "asymptote 512");
        NS_TEST_ASSERT_MSG_EQ(M::RiflPayloadBits(1024), 1008u, "payload of RIFL1024");
        // Zig-zag: every multiple of the payload is a local maximum at the asymptote.
        for (uint32_t k = 1; k <= 50; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(M::RiflFramingEfficiency(30 * k, 256), 0.9375, 1e-12,
                                      "peak at " << 30 * k);
            NS_TEST_EXPECT_MSG_LT(M::RiflFramingEfficiency(30 * k + 1, 256),
                                  M::RiflFramingEfficiency(30 * k, 256),
                                  "drop after the peak at " << 30 * k);
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief Buffer sizing: the RTL Frame-ID rule and the paper's S_retrans <= 45 KB.
 */
class RiflSizingTestCase : public TestCase
{
  public:
    RiflSizingTestCase()
        : TestCase("RIFL buffer sizing: Frame ID width, S_retrans, FC buffer, replay length")
    {
    }

  private:
    void DoRun() override
    {
        using M = LinkReliabilityModel;
        // RTT = 2 (80 + 3.34 x 10) ns = 226.8 ns -> 24.8 -> 25 frames at 28 Gb/s, 256 bit.
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflSizingRtt(10.0), 226.8e-9, 1e-15, "RTT at 10 m");
        NS_TEST_ASSERT_MSG_EQ(M::RiflRttFrames(28e9, 10.0, 256), 25u, "RTT frames at 10 m");
        NS_TEST_ASSERT_MSG_EQ(M::RiflFrameIdWidth(28e9, 10.0, 256), 6u, "FID 28G 10 m 256");
        NS_TEST_ASSERT_MSG_EQ(M::RiflFrameIdWidth(28e9, 10.0, 512), 6u, "FID 28G 10 m 512");
        NS_TEST_ASSERT_MSG_EQ(M::RiflFrameIdWidth(25.78125e9, 10.0, 256), 6u, "FID 25.78G");
        NS_TEST_ASSERT_MSG_EQ(M::RiflFrameIdWidth(28e9, 100.0, 256), 7u, "FID at 100 m");
        NS_TEST_ASSERT_MSG_EQ(M::RiflFrameIdWidth(28e9, 500.0, 256), 9u, "FID at 500 m");
        NS_TEST_ASSERT_MSG_EQ(ThrowsNaming(
                                  []
                                  {
                                      M::RiflFrameIdWidth(28e9, 10000.0, 256);
                                  },
                                  "cableLengthM"),
                              true, "a 10 km link needs more than 12 Frame ID bits");

        // Eq. 1-4 with Constraint A: (100 ns + 2 x 500 m / 3e8) x 100 Gb/s = 42.9 KB <= 45 KB.
        const double sRetrans = M::RiflRetransBufferBytes(100e9, 100e-9, 500.0, 3e8);
        NS_TEST_ASSERT_MSG_EQ_TOL(sRetrans, 42916.67, 0.01, "S_retrans at 500 m");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sRetrans, 45000.0, "the paper's bound of 45 KB");
        NS_TEST_ASSERT_MSG_GT(M::RiflRetransBufferBytes(100e9, 100e-9, 500.0, 2e8), 45000.0,
                              "with C = 2e8 m/s the bound would not hold (63.8 KB)");
        // ">100 Gb/s with RTT > 100 us needs more than 1 MB" (Eq. 1).
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflRetransBufferBytes(100e9, 100e-6, 0.0), 1.25e6, 1e-3,
                                  "1.25 MB at 100 us");

        // FC buffer 2^(FID+1) = 128, Thr_ON 85, Thr_OFF 42; replay 2D + D/2 + 1 = 161.
        NS_TEST_ASSERT_MSG_EQ(M::RiflFcBufferFrames(6), 128u, "FC depth");
        NS_TEST_ASSERT_MSG_EQ(M::RiflFcThresholdOn(6), 85u, "Thr_ON");
        NS_TEST_ASSERT_MSG_EQ(M::RiflFcThresholdOff(6), 42u, "Thr_OFF");
        NS_TEST_ASSERT_MSG_EQ(M::RiflReplaySlots(6), 161u, "replay slots");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Bandwidth ratio and Go-Back-N efficiency closed forms.
 */
class RiflThroughputModelTestCase : public TestCase
{
  public:
    RiflThroughputModelTestCase()
        : TestCase("Bandwidth ratio under BER and Go-Back-N efficiency")
    {
    }

  private:
    void DoRun() override
    {
        using M = LinkReliabilityModel;
        const double fer = M::FrameErrorRate(1e-7, 256);
        // 1 / (1 + 2 x 4 x FER x 161) = 0.9680; with K = 180, 0.9645 (spec §4: 96.7-96.3 %).
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflBandwidthRatio(1e-7, 256, 4, 161),
                                  1.0 / (1.0 + 8 * fer * 161), 1e-15, "closed form");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflBandwidthRatio(1e-7, 256, 4, 161), 0.9680, 5e-4,
                                  "K = 161 at 1e-7");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflBandwidthRatio(1e-7, 256, 4, 180), 0.9645, 5e-4,
                                  "K = 180 at 1e-7");
        // "Starts to drop" at 5.6e-10: a loss of about 0.02 %.
        NS_TEST_ASSERT_MSG_EQ_TOL(1.0 - M::RiflBandwidthRatio(5.6e-10, 256, 4, 161), 1.85e-4,
                                  0.1e-4, "loss at 5.6e-10");
        NS_TEST_ASSERT_MSG_EQ(M::RiflBandwidthRatio(0.0, 256, 4, 161), 1.0, "error free");
        // directions x lanes = 2^32 must not wrap to 0 (a ratio of 1).
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflBandwidthRatio(1e-7, 256, 0x80000000U, 161, 2),
                                  1.0 / (1.0 + 4294967296.0 * fer * 161), 1e-15,
                                  "no 32-bit wrap of directions x lanes");

        NS_TEST_ASSERT_MSG_EQ(M::GoBackNEfficiency(0.0, 100.0), 1.0, "no errors");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::GoBackNEfficiency(1e-3, 100.0), 0.999 / 1.099, 1e-15,
                                  "P_f 1e-3, 100 slots");
        NS_TEST_ASSERT_MSG_EQ(M::GoBackNEfficiency(1.0, 100.0), 0.0, "every flit lost");

        // Ethernet: 1500 B + 38 B overhead at BER 1e-6 loses 1 - (1 - 1e-6)^12304 = 1.2229 %.
        NS_TEST_ASSERT_MSG_EQ_TOL(M::EthernetPacketLoss(1e-6, 1500, 38),
                                  1.0 - std::pow(1.0 - 1e-6, 8.0 * 1538), 1e-12, "Ethernet loss");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Undetected-error probabilities and MTBF, including the published 1.88e7 years.
 */
class RiflMtbfTestCase : public TestCase
{
  public:
    RiflMtbfTestCase()
        : TestCase("P_ud (paper and exact) and MTBF: 1.88e7 years at BER 1e-7")
    {
    }

  private:
    void DoRun() override
    {
        using M = LinkReliabilityModel;
        // Paper: P_ue = C(256,4) BER^4 / 2^12 = 4.267e-24 at 1e-7.
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflUndetectedPaper(1e-7, 256) / 4.2674e-24, 1.0, 1e-4,
                                  "paper P_ue");
        // lambda_actual = 0.963 x 112 Gb/s x 240/256; MTBF = S / (lambda x P_ue) = 1.88e7 y.
        const double lambda = 0.963 * 112e9 * 240.0 / 256.0;
        const double paperYears = M::RiflMtbfPaperSeconds(1e-7, 256, lambda) / M::SECONDS_PER_YEAR;
        NS_TEST_ASSERT_MSG_EQ_TOL(paperYears / 1.88e7, 1.0, 0.005, "published 1.88e7 years");
        // With the raw 112 Gb/s it would be 1.70e7 years (spec §4).
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflMtbfPaperSeconds(1e-7, 256, 112e9) / M::SECONDS_PER_YEAR
                                      / 1.70e7,
                                  1.0, 0.01, "raw line rate");

        // Exact spectrum of the real decoder: no 1-, 2- or 3-bit pattern is accepted, and
        // A4 is about twice C(S,4)/2^12 because G(1) = 0 rejects every odd weight.
        for (uint32_t s : {128U, 256U, 512U})
        {
            const std::vector<uint64_t> a = M::RiflAcceptedSpectrum(s);
            NS_TEST_ASSERT_MSG_EQ(a.size(), 5u, "A_0..A_4");
            NS_TEST_ASSERT_MSG_EQ(a[0], 1u, "A_0");
            NS_TEST_ASSERT_MSG_EQ(a[1] + a[2] + a[3], 0u, "distance >= 4 at S = " << s);
            const double ratio = a[4] / (Choose4(s) / 4096.0);
            NS_TEST_ASSERT_MSG_GT(ratio, 1.7, "A4 vs textbook at S = " << s);
            NS_TEST_ASSERT_MSG_LT(ratio, 2.3, "A4 vs textbook at S = " << s);
        }
        const std::vector<uint64_t> a256 = M::RiflAcceptedSpectrum(256);
        // P_ud exact ~ A4 p^4 (1-p)^252 at 1e-7; the p^6 term is ~1e-10 relative.
        const double pud = M::RiflUndetectedExact(1e-7, 256);
        NS_TEST_ASSERT_MSG_EQ_TOL(pud / (a256[4] * 1e-28 * std::pow(1 - 1e-7, 252)), 1.0, 1e-9,
                                  "exact P_ud at 1e-7");
        const double exactYears = M::RiflMtbfExactSeconds(1e-7, 256, lambda) / M::SECONDS_PER_YEAR;
        NS_TEST_ASSERT_MSG_EQ_TOL(exactYears / paperYears,
                                  (Choose4(256) / 4096.0) / a256[4] / std::pow(1 - 1e-7, 252), 1e-6,
                                  "exact vs paper MTBF = inverse A4 ratio");
        // Tiny BER stays exact (no underflow to 0 at 1e-12: P_ud ~ 1e-44).
        NS_TEST_ASSERT_MSG_EQ_TOL(M::RiflUndetectedExact(1e-12, 256) / (a256[4] * 1e-48), 1.0, 1e-6,
                                  "exact P_ud at 1e-12");

        // Direct link: both CRC-8 interleaves must accept, so to first order
        // P_ud = (A4_even + A4_odd) p^4.
        const std::vector<uint64_t> e = M::DirectLinkInterleaveSpectrum(0);
        const std::vector<uint64_t> o = M::DirectLinkInterleaveSpectrum(1);
        NS_TEST_ASSERT_MSG_EQ(e[1] + e[2] + e[3] + o[1] + o[2] + o[3], 0u, "CRC-8 0x07 HD 4");
        NS_TEST_ASSERT_MSG_GT(e[4], 0u, "even interleave A4");
        const double pudDl = M::DirectLinkUndetectedExact(1e-9);
        NS_TEST_ASSERT_MSG_EQ_TOL(pudDl / ((e[4] + o[4]) * 1e-36), 1.0, 1e-6, "direct-link P_ud");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::DirectLinkUndetectedPaper(1e-9)
                                      / (2 * Choose4(96) * 1e-36 / 256.0),
                                  1.0, 1e-12, "direct-link approx");

        // Ethernet CRC-32 has Hamming distance 5 up to 2974 bits: nothing of weight <= 4.
        const std::vector<uint64_t> eth = M::EthernetSpectrum(64);
        NS_TEST_ASSERT_MSG_EQ(eth[1] + eth[2] + eth[3] + eth[4], 0u, "CRC-32 at 512 bits");
        NS_TEST_ASSERT_MSG_EQ(M::EthernetUndetectedExact(1e-6, 64), 0.0, "truncated at w = 4");

        // MTBF, network MTBF (harmonic) and FIT.
        NS_TEST_ASSERT_MSG_EQ_TOL(M::MtbfSeconds(1e9, 1e-18), 1e9, 1e-3, "MTBF");
        NS_TEST_ASSERT_MSG_EQ(std::isinf(M::MtbfSeconds(1e9, 0.0)), true, "P_ud 0 -> infinite");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::NetworkMtbfSeconds({1.0, 2.0, 2.0}), 0.5, 1e-15, "harmonic");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::NetworkMtbfSeconds({3.0, INFINITY}), 3.0, 1e-15, "infinite");
        NS_TEST_ASSERT_MSG_EQ_TOL(M::Fit(3600.0 * 1e9), 1.0, 1e-12, "1 FIT");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Ethernet CRC-32 spectrum at a full-size frame (several seconds).
 */
class RiflEthernetSpectrumTestCase : public TestCase
{
  public:
    RiflEthernetSpectrumTestCase()
        : TestCase("Ethernet CRC-32 weight-4 spectrum at 1518 bytes")
    {
    }

  private:
    void DoRun() override
    {
        // Above 2974 bits the IEEE CRC-32 has Hamming distance 4 (Koopman).
        const std::vector<uint64_t> eth = LinkReliabilityModel::EthernetSpectrum(1518);
        NS_TEST_ASSERT_MSG_EQ(eth[1] + eth[2] + eth[3], 0u, "no weight 1-3 codewords");
        NS_TEST_ASSERT_MSG_GT(eth[4], 0u, "weight-4 codewords exist at 12144 bits");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Every bad argument is rejected with a message naming it.
 */
class RiflReliabilityBadInputTestCase : public TestCase
{
  public:
    RiflReliabilityBadInputTestCase()
        : TestCase("Bad input to the analytic model names the parameter")
    {
    }

  private:
    void DoRun() override
    {
        using M = LinkReliabilityModel;
        struct Case
        {
            std::function<void()> call;
            const char* param;
        };
        const Case cases[] = {
            {[]
             {
                 M::FrameErrorRate(1.0, 256);
             },
             "ber"},
            {[]
             {
                 M::FrameErrorRate(-0.1, 256);
             },
             "ber"},
            {[]
             {
                 M::FrameErrorRate(NAN, 256);
             },
             "ber"},
            {[]
             {
                 M::FrameErrorRate(1e-6, 0);
             },
             "frameBits"},
            {[]
             {
                 M::RiflFramingEfficiency(100, 300);
             },
             "frameBits"},
            {[]
             {
                 M::RiflFramingEfficiency(0, 256);
             },
             "packetBytes"},
            {[]
             {
                 M::RiflFrameIdWidth(28e9, -1.0, 256);
             },
             "cableLengthM"},
            {[]
             {
                 M::RiflFrameIdWidth(0.0, 10.0, 256);
             },
             "laneRateBps"},
            {[]
             {
                 M::RiflFrameIdWidth(28e9, 10.0, 256, -1e-9);
             },
             "transceiverDelayS"},
            {[]
             {
                 M::RiflRetransBufferBytes(100e9, 1e-7, -5.0);
             },
             "cableLengthM"},
            {[]
             {
                 M::RiflFcBufferFrames(13);
             },
             "frameIdWidth"},
            {[]
             {
                 M::RiflReplaySlots(0);
             },
             "frameIdWidth"},
            {[]
             {
                 M::RiflBandwidthRatio(1e-7, 256, 0, 161);
             },
             "lanes"},
            {[]
             {
                 M::RiflBandwidthRatio(1e-7, 256, 4, 161, 3);
             },
             "directions"},
            {[]
             {
                 M::RiflUndetectedExact(2.0, 256);
             },
             "ber"},
            {[]
             {
                 M::RiflAcceptedSpectrum(100);
             },
             "frameBits"},
            {[]
             {
                 M::DirectLinkInterleaveSpectrum(2);
             },
             "interleave"},
            {[]
             {
                 M::EthernetSpectrum(4000);
             },
             "frameBytes"},
            {[]
             {
                 M::MtbfSeconds(0.0, 1e-20);
             },
             "framesPerSecond"},
            {[]
             {
                 M::MtbfSeconds(1e9, 1.5);
             },
             "pud"},
            {[]
             {
                 M::RiflMtbfPaperSeconds(1e-7, 256, 0.0);
             },
             "lambdaActualBps"},
            {[]
             {
                 M::NetworkMtbfSeconds({1.0, -1.0});
             },
             "mtbfSeconds[1]"},
            {[]
             {
                 M::Fit(0.0);
             },
             "mtbfSeconds"},
            {[]
             {
                 M::GoBackNEfficiency(1.5, 10);
             },
             "flitErrorProbability"},
            {[]
             {
                 M::GoBackNEfficiency(0.1, -1);
             },
             "replaySlots"},
            {[]
             {
                 M::EthernetPacketLoss(1e-6, 0, 38);
             },
             "packetBytes"},
            {[]
             {
                 M::RiflRttFrames(1e20, 10.0, 256); // wrapped modulo 2^32 before
             },
             "laneRateBps"},
            {[]
             {
                 M::RiflFrameIdWidth(1e300, 10.0, 256);
             },
             "laneRateBps"},
            {[]
             {
                 M::RiflRttFrames(1e15, 100000.0, 128); // 5.2e12 frames: no uint32_t
             },
             "frames per round trip"},
            {[]
             {
                 M::RiflRttFrames(28e9, 10.0, 256, 1e10);
             },
             "transceiverDelayS"},
            {[]
             {
                 M::RiflRetransBufferBytes(1e300, 1e-7, 5.0);
             },
             "lineRateBps"},
            {[]
             {
                 M::RiflBandwidthRatio(1e-7, 256, 4, INFINITY);
             },
             "kStallSlots"},
            {[]
             {
                 M::RiflMtbfExactSeconds(1e-7, 256, 1e300);
             },
             "lambdaActualBps"},
            {[]
             {
                 M::DirectLinkInterleaveSpectrum(0, 0x107);
             },
             "poly"},
            {[]
             {
                 M::MtbfSeconds(INFINITY, 1e-20);
             },
             "framesPerSecond"},
        };
        for (const Case& c : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(ThrowsNaming(c.call, c.param), true,
                                  "expected an error naming " << c.param);
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief The analytic-model test suite.
 */
class RiflReliabilityModelTestSuite : public TestSuite
{
  public:
    RiflReliabilityModelTestSuite()
        : TestSuite("rifl-reliability-model", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflEfficiencyTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflSizingTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflThroughputModelTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflMtbfTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflReliabilityBadInputTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflEthernetSpectrumTestCase, RIFL_TEST_EXTENSIVE);
    }
};

/// The suite's only instance.
static RiflReliabilityModelTestSuite g_riflReliabilityModelTestSuite;

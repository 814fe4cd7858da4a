/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of ExactBitErrorModel: the per-packet corruption probability of an
 * Ethernet-style baseline equals 1 - (1 - p)^(8 (B + overhead)) at any BER.
 */

#include "ns3/core-module.h"
#include "ns3/exact-bit-error-model.h"
#include "ns3/gilbert-elliott-error-process.h"
#include "ns3/packet.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"

#include <cmath>
#include <stdexcept>
#include <string>

using namespace ns3;

/**
 * \ingroup rifl-tests
 * \brief Corruption rate against the closed form at several BERs.
 */
class RiflExactErrorModelRateTestCase : public TestCase
{
  public:
    RiflExactErrorModelRateTestCase()
        : TestCase("Packet corruption rate equals 1 - (1-p)^bits at BER 1e-4 to 1e-9")
    {
    }

  private:
    void DoRun() override
    {
        struct Point
        {
            double ber;
            uint32_t bytes;
            uint32_t overhead;
            uint64_t packets;
        };
        const Point points[] = {{1e-4, 1500, 38, 50000},
                                {1e-6, 1500, 38, 400000},
                                {1e-6, 64, 0, 400000},
                                {1e-9, 1500, 38, 20000000}};
        int64_t stream = 1;
        for (const Point& pt : points)
        {
            Ptr<ExactBitErrorModel> em = CreateObject<ExactBitErrorModel>();
            em->SetAttribute("Ber", DoubleValue(pt.ber));
            em->SetAttribute("OverheadBytes", UintegerValue(pt.overhead));
            em->AssignStreams(stream++);
            Ptr<Packet> p = Create<Packet>(pt.bytes);
            uint64_t bad = 0;
            for (uint64_t i = 0; i < pt.packets; ++i)
            {
                bad += em->IsCorrupt(p) ? 1 : 0;
            }
            const double q = -std::expm1(8.0 * (pt.bytes + pt.overhead) * std::log1p(-pt.ber));
            const double mean = q * pt.packets;
            const double sigma = std::sqrt(mean * (1 - q));
            // 5.5 sigma: a correct sampler fails with probability ~4e-8.
            NS_TEST_EXPECT_MSG_LT(std::fabs(bad - mean), 5.5 * sigma + 1,
                                  "BER " << pt.ber << ", " << pt.bytes << " B: " << bad
                                         << " corrupt, expected " << mean);
            NS_TEST_EXPECT_MSG_EQ(em->GetPacketsSeen(), pt.packets, "packets seen");
            NS_TEST_EXPECT_MSG_EQ(em->GetPacketsCorrupted(), bad, "corrupted count");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(em->GetBitErrors(), bad, "bit errors >= corrupt packets");
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief Reproducibility, bursty processes, BER 0 and bad input.
 */
class RiflExactErrorModelBehaviourTestCase : public TestCase
{
  public:
    RiflExactErrorModelBehaviourTestCase()
        : TestCase("Same stream gives the same losses, BER 0 never corrupts, bad Ber rejected")
    {
    }

  private:
    void DoRun() override
    {
        auto pattern = [](int64_t stream)
        {
            Ptr<ExactBitErrorModel> em = CreateObject<ExactBitErrorModel>();
            em->SetBer(1e-5);
            em->AssignStreams(stream);
            std::string s;
            Ptr<Packet> p = Create<Packet>(1000);
            for (int i = 0; i < 20000; ++i)
            {
                s.push_back(em->IsCorrupt(p) ? '1' : '0');
            }
            return s;
        };
        NS_TEST_ASSERT_MSG_EQ((pattern(7) == pattern(7)), true, "same stream, same losses");
        NS_TEST_ASSERT_MSG_EQ((pattern(7) == pattern(8)), false, "other stream, other losses");

        Ptr<ExactBitErrorModel> zero = CreateObject<ExactBitErrorModel>();
        zero->SetBer(0.0);
        Ptr<Packet> big = Create<Packet>(9000);
        bool any = false;
        for (int i = 0; i < 10000; ++i)
        {
            any = any || zero->IsCorrupt(big);
        }
        NS_TEST_ASSERT_MSG_EQ(any, false, "BER 0 never corrupts");

        // A Gilbert-Elliott process: the long-run corruption matches its mean BER loosely
        // and losses cluster (more consecutive corrupt pairs than independent losses give).
        Ptr<GilbertElliottErrorProcess> ge = CreateObject<GilbertElliottErrorProcess>();
        ge->SetAttribute("GoodBer", DoubleValue(0.0));
        ge->SetAttribute("BadBer", DoubleValue(1e-3));
        ge->SetAttribute("MeanGoodBits", DoubleValue(1e7));
        ge->SetAttribute("MeanBadBits", DoubleValue(1e5));
        ge->AssignStreams(3);
        Ptr<ExactBitErrorModel> bursty = CreateObject<ExactBitErrorModel>();
        bursty->SetBitErrorProcess(ge);
        Ptr<Packet> p = Create<Packet>(125); // 1000 bits
        uint64_t bad = 0;
        uint64_t pairs = 0;
        bool last = false;
        const uint64_t n = 2000000;
        for (uint64_t i = 0; i < n; ++i)
        {
            const bool c = bursty->IsCorrupt(p);
            bad += c;
            pairs += (c && last);
            last = c;
        }
        const double f = static_cast<double>(bad) / n;
        NS_TEST_EXPECT_MSG_GT(bad, 0u, "bursty errors occur");
        NS_TEST_EXPECT_MSG_GT(static_cast<double>(pairs), 5.0 * f * f * n,
                              "losses cluster under Gilbert-Elliott");

        bool named = false;
        try
        {
            Ptr<ExactBitErrorModel> em = CreateObject<ExactBitErrorModel>();
            em->SetBer(1.0);
        }
        catch (const std::invalid_argument& e)
        {
            named = std::string(e.what()).find("Ber") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(named, true, "Ber = 1 rejected, naming Ber");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The ExactBitErrorModel test suite.
 */
class RiflExactErrorModelTestSuite : public TestSuite
{
  public:
    RiflExactErrorModelTestSuite()
        : TestSuite("rifl-exact-error-model", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflExactErrorModelRateTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflExactErrorModelBehaviourTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's only instance.
static RiflExactErrorModelTestSuite g_riflExactErrorModelTestSuite;

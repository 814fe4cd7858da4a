/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RiflLinkScenario (the scenario behind the examples, benchmarks and
 * Python bindings): error-free figures against the slot arithmetic, the
 * paper's 110 ns headline, determinism, and argument errors.
 */

#include "ns3/core-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-link-scenario.h"
#include "ns3/test.h"

#include <cmath>
#include <stdexcept>
#include <string>

using namespace ns3;

/**
 * \ingroup rifl-tests
 * \brief Error-free saturated link: latency L + 7 slots, full line share.
 */
class RiflScenarioErrorFreeTestCase : public TestCase
{
  public:
    RiflScenarioErrorFreeTestCase()
        : TestCase("Error-free RIFL256 4 x 28 Gbps 10 m: 110 ns word latency, saturated line")
    {
    }

  private:
    void DoRun() override
    {
        RiflLinkScenarioConfig c;
        c.minPacketBytes = 240; // 9 frames per packet
        c.maxPacketBytes = 240;
        c.durationUs = 20;
        c.attributes["ns3::RiflChannel::Engine"] = "Reference";
        // A 1024-bit user bus on 4 lanes: a word spans 5 frames over 2 slots.
        c.attributes["ns3::RiflNetDevice::UserWordBytes"] = "128";
        const RiflLinkScenarioResult r = RiflLinkScenario::Run(c);
        NS_TEST_ASSERT_MSG_EQ(r.lineDelaySlots, 5u, "10 m x 5 ns/m = 5.47 slots -> 5");
        NS_TEST_ASSERT_MSG_EQ(r.frameIdWidth, 6u, "RTL rule at 10 m");
        // Every user word spans two frames: latency L + 7 = 12 slots = 109.7 ns, the
        // paper's 110 ns point-to-point headline (spec 10.1, 11.2).
        NS_TEST_EXPECT_MSG_EQ_TOL(r.aToB.wordLatencyNsP50, 12 * r.slotNs, 1e-6, "median word");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.aToB.wordLatencyNsMax, 12 * r.slotNs, 1e-6, "max word");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.aToB.wordLatencyNsMean, 109.714, 0.01, "110 ns headline");
        NS_TEST_EXPECT_MSG_GT(r.aToB.lineShare, 0.99, "saturated: almost every slot new data");
        NS_TEST_EXPECT_MSG_GT(r.bToA.lineShare, 0.99, "both directions");
        NS_TEST_EXPECT_MSG_EQ(r.aToB.packetsCorrupt, 0u, "no corruption");
        NS_TEST_EXPECT_MSG_EQ(r.countersA.errorsDetected + r.countersB.errorsDetected, 0u,
                              "no errors");
        // Goodput: 240 B + 2 B PPP = 242 B = 9 frames of 256 line bits each, so the
        // delivered payload is lineShare x 112 Gb/s x 1920 / 2304 (2 % for window edges).
        const double expected = r.aToB.lineShare * r.lineRateGbps * 1920.0 / 2304.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(r.aToB.goodputGbps / expected, 1.0, 0.02, "goodput");
        NS_TEST_EXPECT_MSG_EQ(std::isinf(r.mtbfYearsPaper), true, "no MTBF at BER 0");
    }
};

/**
 * \ingroup rifl-tests
 * \brief A fractional duration in microseconds is kept to the nanosecond (ns-3.37's
 *        MicroSeconds(double) truncated 20.5 us to 20 us).
 */
class RiflScenarioFractionalTimeTestCase : public TestCase
{
  public:
    RiflScenarioFractionalTimeTestCase()
        : TestCase("durationUs = 20.5 runs 20.5 us, not 20 us")
    {
    }

  private:
    void DoRun() override
    {
        RiflLinkScenarioConfig c;
        c.minPacketBytes = 240;
        c.maxPacketBytes = 240;
        c.load = 1.0;
        c.durationUs = 20;
        const RiflLinkScenarioResult whole = RiflLinkScenario::Run(c);
        c.durationUs = 20.5;
        const RiflLinkScenarioResult half = RiflLinkScenario::Run(c);
        // 0.5 us of a saturated 112 Gb/s line is about 29 packets of 242 bytes.
        NS_TEST_EXPECT_MSG_GT(half.aToB.packetsOffered, whole.aToB.packetsOffered + 10,
                              "the extra half microsecond carries traffic");
        // The goodput is the window's bytes over the same 20.5 us.
        NS_TEST_EXPECT_MSG_EQ_TOL(half.aToB.goodputGbps / whole.aToB.goodputGbps, 1.0, 0.05,
                                  "the same line share over the longer window");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Same run number, same results; bad arguments name the parameter.
 */
class RiflScenarioDeterminismTestCase : public TestCase
{
  public:
    RiflScenarioDeterminismTestCase()
        : TestCase("Scenario results repeat exactly for a run number and differ for another")
    {
    }

  private:
    void DoRun() override
    {
        RiflLinkScenarioConfig c;
        c.ber = 1e-6;
        c.durationUs = 30;
        c.load = 0.6;
        c.attributes["ns3::RiflChannel::Engine"] = "Reference";
        const RiflLinkScenarioResult a = RiflLinkScenario::Run(c);
        const RiflLinkScenarioResult b = RiflLinkScenario::Run(c);
        c.rngRun = 2;
        const RiflLinkScenarioResult d = RiflLinkScenario::Run(c);
        NS_TEST_ASSERT_MSG_EQ((a.countersA == b.countersA && a.countersB == b.countersB), true,
                              "same run, same counters: " << a.countersA.Diff(b.countersA).size());
        NS_TEST_ASSERT_MSG_EQ(a.aToB.bytesDelivered, b.aToB.bytesDelivered, "same bytes");
        NS_TEST_ASSERT_MSG_EQ(a.aToB.wordLatencyNsMean, b.aToB.wordLatencyNsMean, "same latency");
        NS_TEST_ASSERT_MSG_EQ((a.countersA == d.countersA), false, "another run differs");

        struct Bad
        {
            RiflLinkScenarioConfig cfg;
            const char* name;
        };
        std::vector<Bad> bad(5);
        bad[0].cfg.ber = 1.5;
        bad[0].name = "ber";
        bad[1].cfg.minPacketBytes = 0;
        bad[1].name = "minPacketBytes";
        bad[2].cfg.durationUs = -1;
        bad[2].name = "durationUs";
        bad[3].cfg.attributes["ns3::RiflNetDevice::NoSuchThing"] = "1";
        bad[3].name = "NoSuchThing";
        bad[4].cfg.attributes["ns3::RiflNetDevice::Lanes"] = "many";
        bad[4].name = "Lanes";
        bad.emplace_back(); // the parameter ber owns it (it was overridden in silence)
        bad.back().cfg.attributes["ns3::RiflChannel::Ber"] = "1e-4";
        bad.back().name = "ns3::RiflChannel::Ber is set by the parameter ber";
        bad.emplace_back();
        bad.back().cfg.deviceAttributesB["ClockOffsetPpm"] = "5000";
        bad.back().name = "deviceAttributesB[\"ClockOffsetPpm\"] = \"5000\"";
        bad.emplace_back();
        bad.back().cfg.deviceAttributesA["NoSuchThing"] = "1";
        bad.back().name = "deviceAttributesA[\"NoSuchThing\"]";
        for (const Bad& x : bad)
        {
            bool named = false;
            try
            {
                RiflLinkScenario::Run(x.cfg);
            }
            catch (const std::invalid_argument& e)
            {
                named = std::string(e.what()).find(x.name) != std::string::npos;
            }
            NS_TEST_EXPECT_MSG_EQ(named, true, "error names " << x.name);
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief Per-device attributes: clock offsets reach the engine of each side.
 */
class RiflScenarioPerDeviceTestCase : public TestCase
{
  public:
    RiflScenarioPerDeviceTestCase()
        : TestCase("Per-device attributes: ClockOffsetPpm of A and B, compensation counted")
    {
    }

  private:
    void DoRun() override
    {
        RiflLinkScenarioConfig c;
        c.durationUs = 200;
        c.maxPacketBytes = 1500;
        c.deviceAttributesA["ClockOffsetPpm"] = "300";
        c.deviceAttributesB["ClockOffsetPpm"] = "-200";
        const RiflLinkScenarioResult r = RiflLinkScenario::Run(c);
        // 500 ppm: one skip slot per 2000 slots of the run.
        NS_TEST_EXPECT_MSG_GT(r.countersB.clockSkipSlots, 10u, "B is the slower side");
        NS_TEST_EXPECT_MSG_EQ(r.countersA.clockSkipSlots, 0u, "A is the faster side");
        NS_TEST_EXPECT_MSG_EQ(r.countersA.compensationSlots, r.countersB.clockSkipSlots,
                              "A's compensation follows B's skips");
        NS_TEST_EXPECT_MSG_GT(r.countersA.compensationIdles, 0u, "compensation Idles sent");
        NS_TEST_EXPECT_MSG_EQ(r.aToB.packetsCorrupt + r.bToA.packetsCorrupt, 0u, "intact");
        NS_TEST_EXPECT_MSG_GT(r.aToB.packetsDelivered, 100u, "traffic flows");
    }
};

/**
 * \ingroup rifl-tests
 * \brief RiflChannel::Split (each end on its own half engine, line frames exchanged by
 *        scheduled events with the Delay lookahead, as on two MPI ranks) gives the
 *        unsplit fast engine's results: counters of both devices, packets, bytes and
 *        latencies, under errors, flow control, ppm offsets and lane skew.
 */
class RiflScenarioSplitTestCase : public TestCase
{
  public:
    RiflScenarioSplitTestCase()
        : TestCase("Split channel (two half engines, as on two MPI ranks) equals the unsplit "
                   "link")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            const char* name;        //!< description
            RiflLinkScenarioConfig c; //!< the scenario
        };
        std::vector<Case> cases(4);
        cases[0].name = "4 lanes, BER 1e-5";
        cases[0].c.ber = 1e-5;
        cases[0].c.load = 0.7;
        cases[1].name = "1 lane, 512-bit frames, BER 1e-6, A drains slowly (FC)";
        cases[1].c.ber = 1e-6;
        cases[1].c.attributes["ns3::RiflNetDevice::Lanes"] = "1";
        cases[1].c.attributes["ns3::RiflNetDevice::FrameSize"] = "512";
        cases[1].c.deviceAttributesA["DrainRate"] = "0.4";
        cases[2].name = "ppm offsets with compensation, lane skew, 50 m cable, BER 1e-6";
        cases[2].c.ber = 1e-6;
        cases[2].c.deviceAttributesA["ClockOffsetPpm"] = "400";
        cases[2].c.deviceAttributesB["ClockOffsetPpm"] = "-300";
        cases[2].c.attributes["ns3::RiflChannel::LaneSkew"] = "0,3,1,0";
        cases[2].c.attributes["ns3::RiflChannel::CableLength"] = "50";
        cases[3].name = "no compensation at B, A slower, RTL replay tail, BER 3e-6";
        cases[3].c.ber = 3e-6;
        cases[3].c.deviceAttributesA["ClockOffsetPpm"] = "-500";
        cases[3].c.deviceAttributesB["ClockCompensation"] = "false";
        cases[3].c.attributes["ns3::RiflNetDevice::ReplayTail"] = "Rtl";
        for (Case& k : cases)
        {
            k.c.durationUs = 40;
            k.c.maxPacketBytes = 3000;
            const RiflLinkScenarioResult whole = RiflLinkScenario::Run(k.c);
            k.c.attributes["ns3::RiflChannel::Split"] = "true";
            const RiflLinkScenarioResult split = RiflLinkScenario::Run(k.c);
            NS_TEST_EXPECT_MSG_EQ(whole.countersA.Diff(split.countersA).size(), 0u,
                                  k.name << ": counters of A: " << whole.countersA.ToString()
                                         << " | " << split.countersA.ToString());
            NS_TEST_EXPECT_MSG_EQ(whole.countersB.Diff(split.countersB).size(), 0u,
                                  k.name << ": counters of B");
            for (const auto& [w, p] :
                 {std::make_pair(&whole.aToB, &split.aToB), std::make_pair(&whole.bToA, &split.bToA)})
            {
                NS_TEST_EXPECT_MSG_EQ(w->packetsOffered, p->packetsOffered, k.name);
                NS_TEST_EXPECT_MSG_EQ(w->packetsDelivered, p->packetsDelivered, k.name);
                NS_TEST_EXPECT_MSG_EQ(w->packetsCorrupt, p->packetsCorrupt, k.name);
                NS_TEST_EXPECT_MSG_EQ(w->bytesDelivered, p->bytesDelivered, k.name);
                NS_TEST_EXPECT_MSG_EQ(w->wordLatencyNsMean, p->wordLatencyNsMean, k.name);
                NS_TEST_EXPECT_MSG_EQ(w->wordLatencyNsMax, p->wordLatencyNsMax, k.name);
                NS_TEST_EXPECT_MSG_EQ(w->packetLatencyNsMean, p->packetLatencyNsMean, k.name);
                NS_TEST_EXPECT_MSG_EQ(w->packetLatencyNsMax, p->packetLatencyNsMax, k.name);
            }
            std::cout << k.name << ": delivered " << whole.aToB.packetsDelivered << "/"
                      << whole.bToA.packetsDelivered << ", replays " << whole.countersA.replays
                      << "/" << whole.countersB.replays << ", FC pauses "
                      << whole.countersA.fcPauseSent << "/" << whole.countersB.fcPauseSent
                      << ", skip slots " << whole.countersA.clockSkipSlots << "/"
                      << whole.countersB.clockSkipSlots << "; ns-3 events " << whole.events
                      << " unsplit, " << split.events << " split" << std::endl;
            NS_TEST_EXPECT_MSG_GT(whole.aToB.packetsDelivered, 10u, k.name << ": traffic flows");
            // the split run steps every slot (reference halves): many more events
            NS_TEST_EXPECT_MSG_GT(split.events, 2 * whole.events, k.name << ": split ran");
            NS_TEST_EXPECT_MSG_GT(whole.countersA.replays + whole.countersB.replays
                                      + whole.countersA.fcPauseSent + whole.countersB.fcPauseSent
                                      + whole.countersA.clockSkipSlots
                                      + whole.countersB.clockSkipSlots,
                                  0u, k.name << ": the protocol had work to do");
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief A run's attributes are defaults for that run only (ScenarioAttributeDefaults).
 */
class RiflScenarioDefaultsRestoredTestCase : public TestCase
{
  public:
    RiflScenarioDefaultsRestoredTestCase()
        : TestCase("Attributes of one run do not leak into the next")
    {
    }

  private:
    void DoRun() override
    {
        RiflLinkScenarioConfig c;
        c.durationUs = 5;
        c.attributes["ns3::RiflChannel::CableLength"] = "500"; // derives FrameIdWidth 9
        const RiflLinkScenarioResult longCable = RiflLinkScenario::Run(c);
        c.attributes.clear();
        const RiflLinkScenarioResult plain = RiflLinkScenario::Run(c);
        NS_TEST_ASSERT_MSG_GT(longCable.frameIdWidth, plain.frameIdWidth,
                              "the 500 m run sized its buffer for 500 m");
        NS_TEST_ASSERT_MSG_EQ(plain.frameIdWidth, 6u, "the next run is back at 10 m");
        NS_TEST_ASSERT_MSG_EQ(plain.lineDelaySlots, 5u, "the next run is back at 10 m");
    }
};

/**
 * \ingroup rifl-tests
 * \brief MTBF at BERs where the paper's P_ue approximation exceeds 1: the run's
 *        results come back, with the paper's MTBF NaN and the exact one finite.
 */
class RiflScenarioHighBerMtbfTestCase : public TestCase
{
  public:
    RiflScenarioHighBerMtbfTestCase()
        : TestCase("BER beyond the paper's P_ue approximation: paper MTBF NaN, exact finite")
    {
    }

  private:
    void DoRun() override
    {
        RiflLinkScenarioConfig c;
        c.durationUs = 2;
        c.warmupUs = 15;
        // C(256,4) x 0.06^4 / 2^12 = 0.54 (inside), x 0.5^4 / 2^12 = 2,600 (outside).
        c.ber = 0.06;
        RiflLinkScenarioResult r = RiflLinkScenario::Run(c);
        NS_TEST_EXPECT_MSG_EQ(std::isfinite(r.mtbfYearsPaper), true, "paper MTBF at BER 0.06");
        NS_TEST_EXPECT_MSG_GT(r.mtbfYearsPaper, 0.0, "positive");
        c.ber = 0.5;
        r = RiflLinkScenario::Run(c);
        NS_TEST_EXPECT_MSG_EQ(std::isnan(r.mtbfYearsPaper), true, "no paper MTBF at BER 0.5");
        NS_TEST_EXPECT_MSG_EQ(std::isfinite(r.mtbfYearsExact), true, "exact MTBF at BER 0.5");
        NS_TEST_EXPECT_MSG_GT(r.mtbfYearsExact, 0.0, "positive");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The channel's shortcuts change no result: offers deferred to their arrival
 *        slots (DeferOffers, with PredictPendingPackets() instead of a catch-up) and
 *        stepped slots woken only for deliveries and needed TX events
 *        (BoundSteppedWakes), each on its own and both, against both off, on traffic
 *        that steps many slots (BER 1e-6 and 1e-5, a slow drain, ppm offsets without
 *        compensation, a saturated link with its TX_END wake-ups).
 */
class RiflScenarioDeferOffersTestCase : public TestCase
{
  public:
    RiflScenarioDeferOffersTestCase()
        : TestCase("DeferOffers and BoundSteppedWakes on and off: identical counters, "
                   "deliveries and latencies (clean, BER 1e-6 and 1e-5, slow drain, ppm "
                   "offsets without compensation, saturated)")
    {
    }

  private:
    void DoRun() override
    {
        for (int variant = 0; variant < 6; ++variant)
        {
            RiflLinkScenarioConfig c;
            c.durationUs = 100;
            c.load = 0.6;
            c.minPacketBytes = 1;
            c.maxPacketBytes = 3000;
            std::string name = "clean";
            if (variant == 1)
            {
                c.ber = 1e-6;
                name = "BER 1e-6";
            }
            else if (variant == 2)
            {
                c.attributes["ns3::RiflNetDevice::DrainRate"] = "0.5";
                name = "drain 0.5 frames per slot";
            }
            else if (variant == 3)
            {
                c.deviceAttributesA["ClockOffsetPpm"] = "300";
                c.deviceAttributesA["ClockCompensation"] = "false";
                c.deviceAttributesB["ClockCompensation"] = "false";
                name = "A 300 ppm faster, no compensation";
            }
            else if (variant == 4)
            {
                c.ber = 1e-5;
                c.maxPacketBytes = 500; // a recovery every few packets
                name = "BER 1e-5";
            }
            else if (variant == 5)
            {
                c.ber = 1e-6;
                c.load = 1.0;
                name = "BER 1e-6, saturated (TX_END wake-ups)";
            }
            auto run = [&c](bool defer, bool bound)
            {
                c.attributes["ns3::RiflChannel::DeferOffers"] = defer ? "true" : "false";
                c.attributes["ns3::RiflChannel::BoundSteppedWakes"] = bound ? "true" : "false";
                return RiflLinkScenario::Run(c);
            };
            const RiflLinkScenarioResult base = run(false, false);
            NS_TEST_EXPECT_MSG_GT(base.aToB.packetsDelivered, 50u, name << ": traffic");
            for (const auto& [defer, bound] :
                 {std::make_pair(true, true), std::make_pair(true, false),
                  std::make_pair(false, true)})
            {
                const RiflLinkScenarioResult a = run(defer, bound);
                const std::string which = name + (defer ? ", DeferOffers" : "")
                                          + (bound ? ", BoundSteppedWakes" : "");
                NS_TEST_EXPECT_MSG_EQ(
                    (a.countersA == base.countersA && a.countersB == base.countersB), true,
                    which << ": counters");
                for (const auto& [x, y] :
                     {std::make_pair(a.aToB, base.aToB), std::make_pair(a.bToA, base.bToA)})
                {
                    NS_TEST_EXPECT_MSG_EQ(x.packetsDelivered, y.packetsDelivered, which);
                    NS_TEST_EXPECT_MSG_EQ(x.bytesDelivered, y.bytesDelivered, which);
                    NS_TEST_EXPECT_MSG_EQ(x.wordLatencyNsMean, y.wordLatencyNsMean, which);
                    NS_TEST_EXPECT_MSG_EQ(x.wordLatencyNsMax, y.wordLatencyNsMax, which);
                    NS_TEST_EXPECT_MSG_EQ(x.packetLatencyNsMean, y.packetLatencyNsMean, which);
                    NS_TEST_EXPECT_MSG_EQ(x.packetLatencyNsMax, y.packetLatencyNsMax, which);
                }
                if (bound && !defer && variant == 4)
                {
                    // the recoveries' stepped slots no longer wake the channel one by one
                    NS_TEST_EXPECT_MSG_LT(a.events * 4, base.events * 3,
                                          which << ": ns-3 events " << a.events << " against "
                                                << base.events);
                }
            }
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief The scenario test suite.
 */
class RiflLinkScenarioTestSuite : public TestSuite
{
  public:
    RiflLinkScenarioTestSuite()
        : TestSuite("rifl-link-scenario", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflScenarioErrorFreeTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflScenarioDeterminismTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflScenarioPerDeviceTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflScenarioSplitTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflScenarioDefaultsRestoredTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflScenarioHighBerMtbfTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflScenarioDeferOffersTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflScenarioFractionalTimeTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's only instance.
static RiflLinkScenarioTestSuite g_riflLinkScenarioTestSuite;

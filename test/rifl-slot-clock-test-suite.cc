/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of SlotClock: exact slot start times without accumulated rounding.
 */

#include "ns3/core-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/slot-clock.h"
#include "ns3/test.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup rifl-tests
 * \brief Slot starts are floor(k S / rate) exactly, and SlotAt inverts them.
 */
class RiflSlotClockTestCase : public TestCase
{
  public:
    RiflSlotClockTestCase()
        : TestCase("Slot k starts at t0 + floor(k S over rate), with no accumulated rounding")
    {
    }

  private:
    void DoRun() override
    {
        SlotClock c;
        NS_TEST_ASSERT_MSG_EQ(c.IsStarted(), false, "not started");
        const Time t0 = MicroSeconds(3);
        c.Start(t0, 256, 28000000000ULL); // RIFL256 at 28 Gb/s: 9.142857 ns slots
        NS_TEST_ASSERT_MSG_EQ(c.IsStarted(), true, "started");
        // 7 slots are exactly 64 ns; 7e9 slots exactly 64 s, at any resolution.
        NS_TEST_ASSERT_MSG_EQ(c.GetSlotStart(7) - t0, NanoSeconds(64), "7 slots");
        NS_TEST_ASSERT_MSG_EQ(c.GetSlotStart(7000000000ULL) - t0, Seconds(64), "7e9 slots");
        // Slot 1 rounds down to 9 ns (default 1 ns resolution) without drifting.
        const int64_t ns1 = (c.GetSlotStart(1) - t0).GetTimeStep();
        NS_TEST_ASSERT_MSG_EQ(ns1, Seconds(1).GetTimeStep() * 256 / 28000000000LL, "slot 1");
        // SlotAt is the inverse: the slot in progress at its own start and just before the next.
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(5);
        for (int i = 0; i < 10000; ++i)
        {
            const uint64_t k = u->GetInteger(0, 2000000000);
            NS_TEST_ASSERT_MSG_EQ(c.SlotAt(c.GetSlotStart(k)), k, "SlotAt(start(k))");
            NS_TEST_ASSERT_MSG_EQ(c.SlotAt(c.GetSlotStart(k + 1) - TimeStep(1)), k,
                                  "SlotAt(start(k+1) - 1 step)");
        }
        NS_TEST_ASSERT_MSG_EQ(c.SlotAt(t0 - NanoSeconds(5)), 0u, "before t0");
        // Direct-link micro-packets: 192 bits at 5 Gb/s = 38.4 ns; 5 slots = 192 ns.
        SlotClock d;
        d.Start(Seconds(0), 192, 5000000000ULL);
        NS_TEST_ASSERT_MSG_EQ(d.GetSlotStart(5), NanoSeconds(192), "5 micro-packet times");

        // The 64-bit path (reduced fraction) against the 128-bit formula, for line
        // rates that reduce well and one that does not, below and above 2^39 slots.
        for (const auto& [bits, rate] : std::vector<std::pair<uint64_t, uint64_t>>{
                 {256, 28000000000ULL},
                 {192, 5000000000ULL},
                 {1024, 25781250000ULL},
                 {512, 99999999977ULL}, // prime: no reduction, 128-bit path only
             })
        {
            SlotClock e;
            e.Start(Seconds(0), bits, rate);
            const unsigned __int128 units = Seconds(1).GetTimeStep();
            for (int i = 0; i < 2000; ++i)
            {
                const uint64_t k
                    = i < 1000 ? u->GetInteger(0, 4000000000U)
                               : (uint64_t{1} << 39) - 1000 + static_cast<uint64_t>(i - 1000);
                const uint64_t want = static_cast<uint64_t>(static_cast<unsigned __int128>(k) * bits
                                                            * units / rate);
                NS_TEST_ASSERT_MSG_EQ(static_cast<uint64_t>(e.GetSlotStart(k).GetTimeStep()), want,
                                      "start of slot " << k << " at " << rate << " b/s");
                NS_TEST_ASSERT_MSG_EQ(e.SlotAt(e.GetSlotStart(k)), k, "SlotAt inverts start");
                NS_TEST_ASSERT_MSG_EQ(e.SlotAt(e.GetSlotStart(k + 1) - TimeStep(1)), k,
                                      "SlotAt(start(k+1) - 1 step) at " << rate << " b/s");
                // Any instant: the slot in progress, start(s) <= t < start(s + 1).
                const Time t = e.GetSlotStart(k) + TimeStep(u->GetInteger(0, 100));
                const uint64_t s = e.SlotAt(t);
                NS_TEST_ASSERT_MSG_EQ((e.GetSlotStart(s) <= t && t < e.GetSlotStart(s + 1)), true,
                                      "SlotAt(" << t.GetTimeStep() << ") = " << s << " at " << rate
                                                << " b/s");
            }
        }

        bool named = false;
        try
        {
            SlotClock bad;
            bad.Start(Seconds(0), 256, 0);
        }
        catch (const std::invalid_argument& e)
        {
            named = std::string(e.what()).find("rateBps") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(named, true, "rate 0 rejected, naming rateBps");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The SlotClock test suite.
 */
class RiflSlotClockTestSuite : public TestSuite
{
  public:
    RiflSlotClockTestSuite()
        : TestSuite("rifl-slot-clock", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflSlotClockTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's only instance.
RiflSlotClockTestSuite g_riflSlotClockTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/rifl-compat.h"
#include "ns3/rifl-fast-engine.h"
#include "ns3/rifl-reference-engine.h"
#include "ns3/test.h"

#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rifl-protocol
 * Clock compensation (rifl-protocol.md §6.1) on both link engines
 * ("rifl-clock-compensation").
 *
 * Endpoint A runs +Delta/2 ppm, endpoint B -Delta/2 ppm, so B is the slower
 * side and misses one grid slot per 1/Delta slots. Both directions carry
 * saturated traffic (the TX queues never run dry), every delivery is checked
 * for exactly-once in-order delivery and content, and both engines must give
 * identical counters and deliveries.
 *  - Compensation on: the skip slots and the compensation slots equal
 *    floor(N Delta / 1e9) exactly, every compensation Idle is at a skip slot,
 *    the Idles are exactly Lanes per skip slot after A reached NORMAL (1 per
 *    5000 frames per lane at 200 ppm), and B's FC FIFOs, drained at the line
 *    rate, stay as small as without any offset (no FC event).
 *  - Compensation off: B receives one frame per lane more every 1/Delta slots
 *    than its user consumes; its FIFO rises past Thr_ON, flow control pauses
 *    A (FC_ON sent by B, acted on by A) and resumes it, nothing is dropped or
 *    lost, and the A-to-B word latency rises.
 */

using namespace ns3;

namespace
{

/// Bytes of the test packets.
constexpr uint32_t PACKET_BYTES = 1500;

/**
 * \param id a packet id.
 * \param i a byte index.
 * \return the packet's byte i (a deterministic pattern).
 */
uint8_t
PayloadByte(uint64_t id, uint32_t i)
{
    uint64_t x = (id * 0x9E3779B97F4A7C15ULL) ^ (uint64_t{i} * 0xBF58476D1CE4E5B9ULL);
    x ^= x >> 29;
    return static_cast<uint8_t>(x * 0x94D049BB133111EBULL >> 56);
}

/// What one run produced.
struct RunResult
{
    RiflEndpointCounters counters[2];    //!< final counters
    uint64_t delivered[2]{0, 0};         //!< packets received at each endpoint
    uint64_t badOrder[2]{0, 0};          //!< deliveries out of sequence or duplicated
    uint64_t badContent[2]{0, 0};        //!< deliveries with wrong bytes
    double meanLatency[2]{0, 0};         //!< mean word latency (slots) at each receiver
    std::vector<uint64_t> compSlots;     //!< slots of CLOCK_COMPENSATION events
    uint64_t normalSlot[2]{0, 0};        //!< slot of each endpoint's last change to NORMAL
    uint64_t fcEvents[2]{0, 0};          //!< FC_PAUSE_SENT + FC_RESUME_SENT per endpoint
    std::vector<uint64_t> deliverySlots; //!< every delivery slot, in order (equivalence)
};

/**
 * \brief Run saturated traffic both ways on an engine.
 * \param e the engine (fresh).
 * \param slots the slots to run.
 * \return the result.
 */
RunResult
RunSaturated(RiflLinkEngine& e, uint64_t slots)
{
    RunResult r;
    uint64_t nextId[2] = {1, 1};   // next id offered by each sender
    uint64_t expected[2] = {1, 1}; // next id expected at each receiver
    double latSum[2] = {0, 0};
    uint64_t latN[2] = {0, 0};
    e.SetDeliveryCallback(
        [&](const RiflDelivery& d)
        {
            const uint32_t rx = d.endpoint;
            ++r.delivered[rx];
            r.deliverySlots.push_back(d.slot);
            if (d.packetId != expected[rx])
            {
                ++r.badOrder[rx];
            }
            expected[rx] = d.packetId + 1;
            bool ok = d.content.size() == PACKET_BYTES;
            for (uint32_t i = 0; ok && i < PACKET_BYTES; ++i)
            {
                ok = d.content[i] == PayloadByte(d.packetId * 2 + (1 - rx), i);
            }
            r.badContent[rx] += ok ? 0 : 1;
            for (uint64_t w : d.wordLatencies)
            {
                latSum[rx] += static_cast<double>(w);
                ++latN[rx];
            }
        });
    e.SetEventCallback(
        [&](const RiflLinkEvent& ev)
        {
            if (ev.type == RiflLinkEventType::CLOCK_COMPENSATION)
            {
                r.compSlots.push_back(ev.slot);
            }
            else if (ev.type == RiflLinkEventType::TX_STATE_CHANGE
                     && ev.value == static_cast<int64_t>(RiflTxState::NORMAL))
            {
                r.normalSlot[ev.endpoint] = ev.slot;
            }
            else if (ev.type == RiflLinkEventType::FC_PAUSE_SENT
                     || ev.type == RiflLinkEventType::FC_RESUME_SENT)
            {
                ++r.fcEvents[ev.endpoint];
            }
        });
    const uint64_t chunk = 256;
    const uint64_t lanes = e.GetConfig().lanes;
    for (uint64_t t = 0; t < slots; t += chunk)
    {
        for (uint32_t s = 0; s < 2; ++s)
        {
            // More than a chunk's worth of frames on every lane: never dry.
            while (e.GetPendingPackets(s) < 3 + chunk * lanes / 40)
            {
                std::vector<uint8_t> p(PACKET_BYTES);
                for (uint32_t i = 0; i < PACKET_BYTES; ++i)
                {
                    p[i] = PayloadByte(nextId[s] * 2 + s, i);
                }
                e.OfferPacket(s, nextId[s]++, p);
            }
        }
        e.AdvanceTo(std::min(slots, t + chunk));
    }
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        r.counters[ep] = e.GetCounters(ep);
        r.meanLatency[ep] = latN[ep] ? latSum[ep] / static_cast<double>(latN[ep]) : 0.0;
    }
    return r;
}

/**
 * \param lanes lanes.
 * \param deltaPpm the offset difference (A = +Delta/2, B = -Delta/2).
 * \param compensation A's ClockCompensation.
 * \return the configuration (256-bit frames, L = 11, short start-up, user at line rate).
 */
RiflLinkConfig
MakeConfig(uint32_t lanes, double deltaPpm, bool compensation)
{
    RiflLinkConfig c;
    c.lanes = lanes;
    c.frameSize = 256;
    c.lineDelaySlots = 11;
    c.rxUpSlots = 64;
    c.drainFramesPerSlot = lanes; // each user side exactly as fast as its own line
    c.clockOffsetPpm = {deltaPpm / 2, -deltaPpm / 2};
    c.clockCompensation = {compensation, true};
    return c;
}

/**
 * \brief Run a configuration on both engines.
 * \param c the configuration.
 * \param slots slots.
 * \param ref the reference engine's result (out).
 * \param fast the fast engine's result (out).
 */
void
RunBoth(const RiflLinkConfig& c, uint64_t slots, RunResult& ref, RunResult& fast)
{
    RiflReferenceEngine re(c);
    RiflFastEngine fe(c);
    ref = RunSaturated(re, slots);
    fast = RunSaturated(fe, slots);
}

/**
 * \ingroup rifl-protocol
 * \brief The skip-slot arithmetic of RiflLinkConfig.
 */
class RiflClockSkipArithmeticTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflClockSkipArithmeticTestCase()
        : TestCase("skip slots: exactly floor(N Delta over 1e9), at the integer crossings")
    {
    }

  private:
    void DoRun() override
    {
        RiflLinkConfig c;
        NS_TEST_ASSERT_MSG_EQ(c.NextClockSkipSlot(0), RiflLinkConfig::NO_SKIP, "no offset");
        NS_TEST_ASSERT_MSG_EQ(c.GetSlowEndpoint(), 2u, "no slower side");
        NS_TEST_ASSERT_MSG_EQ(c.IsClockCompensated(), false, "nothing to compensate");
        c.clockOffsetPpm = {100, -100};
        NS_TEST_ASSERT_MSG_EQ(c.GetSlowEndpoint(), 1u, "B is slower");
        NS_TEST_ASSERT_MSG_EQ(c.GetClockDeltaPpb(), 200000u, "Delta = 200 ppm");
        NS_TEST_ASSERT_MSG_EQ(c.NextClockSkipSlot(0), 4999u, "first skip");
        NS_TEST_ASSERT_MSG_EQ(c.NextClockSkipSlot(4999), 4999u, "inclusive");
        NS_TEST_ASSERT_MSG_EQ(c.NextClockSkipSlot(5000), 9999u, "second skip");
        NS_TEST_ASSERT_MSG_EQ(c.CountClockSkipSlots(1000000), 200u, "200 per million");
        NS_TEST_ASSERT_MSG_EQ(c.IsClockCompensated(), true, "A compensates by default");
        c.clockCompensation[0] = false;
        NS_TEST_ASSERT_MSG_EQ(c.IsClockCompensated(), false, "A's switch off");
        c.clockCompensation[1] = false;
        c.clockCompensation[0] = true;
        NS_TEST_ASSERT_MSG_EQ(c.IsClockCompensated(), true, "only the faster side's switch");
        // A non-integer period: brute force agrees with NextClockSkipSlot and the count.
        c.clockOffsetPpm = {-300.123, 437.5};
        NS_TEST_ASSERT_MSG_EQ(c.GetSlowEndpoint(), 0u, "A is slower");
        const uint64_t delta = c.GetClockDeltaPpb();
        NS_TEST_ASSERT_MSG_EQ(delta, 737623u, "Delta in ppb");
        uint64_t next = c.NextClockSkipSlot(0);
        uint64_t count = 0;
        for (uint64_t s = 0; s < 300000; ++s)
        {
            const bool skip = (s + 1) * delta / 1000000000 > s * delta / 1000000000;
            if (skip)
            {
                ++count;
                NS_TEST_ASSERT_MSG_EQ(next, s, "skip slot " << count);
                next = c.NextClockSkipSlot(s + 1);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(count, c.CountClockSkipSlots(300000), "count");
    }
};

/**
 * \ingroup rifl-protocol
 * \brief Compensation on: exact Idle rate, no FIFO growth, identical engines.
 */
class RiflClockCompensationOnTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param lanes lanes.
     * \param slots slots to run.
     */
    RiflClockCompensationOnTestCase(uint32_t lanes, uint64_t slots)
        : TestCase("compensation on, 200 ppm, " + std::to_string(lanes) + " lanes, "
                   + std::to_string(slots) + " slots")
        , m_lanes(lanes)
        , m_slots(slots)
    {
    }

  private:
    void DoRun() override
    {
        const RiflLinkConfig c = MakeConfig(m_lanes, 200.0, true);
        RunResult ref;
        RunResult fast;
        RunBoth(c, m_slots, ref, fast);
        RunResult base0;
        RunResult base1;
        RunBoth(MakeConfig(m_lanes, 0.0, true), m_slots, base0, base1);
        const uint64_t skips = c.CountClockSkipSlots(m_slots);
        NS_TEST_ASSERT_MSG_EQ(skips, m_slots / 5000, "200 ppm: one skip per 5000 slots");
        for (const RunResult* r : {&ref, &fast})
        {
            const char* who = r == &ref ? "reference" : "fast";
            const RiflEndpointCounters& a = r->counters[0];
            const RiflEndpointCounters& b = r->counters[1];
            NS_TEST_ASSERT_MSG_EQ(b.clockSkipSlots, skips, who << ": B misses the skip slots");
            NS_TEST_ASSERT_MSG_EQ(a.clockSkipSlots, 0u, who << ": A is the faster side");
            NS_TEST_ASSERT_MSG_EQ(a.compensationSlots, skips, who << ": one per skip slot");
            NS_TEST_ASSERT_MSG_EQ(b.compensationSlots + b.compensationIdles, 0u,
                                  who << ": the slower side does not compensate");
            // Every lane of A is in NORMAL from its last change on: exactly one Idle
            // per lane at every skip slot from then on, and at skip slots only.
            uint64_t expectIdles = 0;
            for (uint64_t s = c.NextClockSkipSlot(0); s < m_slots; s = c.NextClockSkipSlot(s + 1))
            {
                expectIdles += s >= r->normalSlot[0] ? m_lanes : 0;
            }
            NS_TEST_ASSERT_MSG_GT(expectIdles, 0u, who << ": compensation after link-up");
            NS_TEST_ASSERT_MSG_EQ(a.compensationIdles, expectIdles, who << ": exact Idle count");
            NS_TEST_ASSERT_MSG_EQ(r->compSlots.size(), expectIdles, who << ": traced");
            for (uint64_t s : r->compSlots)
            {
                NS_TEST_ASSERT_MSG_EQ(c.NextClockSkipSlot(s), s, who << ": at a skip slot");
            }
            // B's buffers do not grow because of the offset; nothing is lost.
            NS_TEST_ASSERT_MSG_EQ(r->fcEvents[1], 0u, who << ": B never needs flow control");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(b.maxFcOccupancy, base0.counters[1].maxFcOccupancy + 1,
                                        who << ": B's FIFO as without offset (+1 frame)");
            for (uint32_t ep = 0; ep < 2; ++ep)
            {
                NS_TEST_ASSERT_MSG_GT(r->delivered[ep], 100u, who << ": traffic flows");
                NS_TEST_ASSERT_MSG_EQ(r->badOrder[ep] + r->badContent[ep], 0u,
                                      who << ": exactly once, in order, intact");
                NS_TEST_ASSERT_MSG_EQ(r->counters[ep].fcFifoDrops, 0u, who << ": no drop");
            }
        }
        NS_TEST_ASSERT_MSG_EQ((ref.deliverySlots == fast.deliverySlots), true,
                              "identical delivery slots");
        for (uint32_t ep = 0; ep < 2; ++ep)
        {
            NS_TEST_ASSERT_MSG_EQ(ref.counters[ep].ToString(), fast.counters[ep].ToString(),
                                  "identical counters");
        }
        std::cout << GetName() << ": compensation Idles " << ref.counters[0].compensationIdles
                  << " (" << ref.counters[0].compensationIdles / m_lanes << " per lane in "
                  << m_slots << " slots), B max FIFO " << ref.counters[1].maxFcOccupancy
                  << " (no offset: " << base0.counters[1].maxFcOccupancy << ")" << std::endl;
    }

    uint32_t m_lanes; //!< lanes
    uint64_t m_slots; //!< slots
};

/**
 * \ingroup rifl-protocol
 * \brief Compensation off: B's FIFO fills, flow control absorbs it, latency rises.
 */
class RiflClockCompensationOffTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param lanes lanes.
     * \param ppm the offset difference.
     * \param slots slots to run.
     */
    RiflClockCompensationOffTestCase(uint32_t lanes, double ppm, uint64_t slots)
        : TestCase("compensation off, " + std::to_string(static_cast<int>(ppm)) + " ppm, "
                   + std::to_string(lanes) + " lanes, " + std::to_string(slots) + " slots")
        , m_lanes(lanes)
        , m_ppm(ppm)
        , m_slots(slots)
    {
    }

  private:
    void DoRun() override
    {
        const RiflLinkConfig c = MakeConfig(m_lanes, m_ppm, false);
        RunResult ref;
        RunResult fast;
        RunBoth(c, m_slots, ref, fast);
        RunResult on;
        RunResult onFast;
        RunBoth(MakeConfig(m_lanes, m_ppm, true), m_slots, on, onFast);
        for (const RunResult* r : {&ref, &fast})
        {
            const char* who = r == &ref ? "reference" : "fast";
            const RiflEndpointCounters& a = r->counters[0];
            const RiflEndpointCounters& b = r->counters[1];
            NS_TEST_ASSERT_MSG_EQ(b.clockSkipSlots, c.CountClockSkipSlots(m_slots), who);
            NS_TEST_ASSERT_MSG_EQ(a.compensationSlots + a.compensationIdles, 0u,
                                  who << ": no compensation");
            NS_TEST_ASSERT_MSG_GT(b.maxFcOccupancy, c.GetFcThrOn(), who << ": B's FIFO fills");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(b.maxFcOccupancy, c.GetFcFifoDepth(),
                                        who << ": but never overflows");
            NS_TEST_ASSERT_MSG_GT(b.fcPauseSent, 0u, who << ": B pauses A");
            NS_TEST_ASSERT_MSG_GT(b.fcResumeSent, 0u, who << ": and resumes it");
            NS_TEST_ASSERT_MSG_GT(a.fcPauseReceived, 0u, who << ": A acts on the pauses");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(a.fcPauseReceived, b.fcPauseSent, who);
            NS_TEST_ASSERT_MSG_EQ(a.fcPauseSent, 0u, who << ": A (faster) needs no FC");
            for (uint32_t ep = 0; ep < 2; ++ep)
            {
                NS_TEST_ASSERT_MSG_EQ(r->counters[ep].fcFifoDrops, 0u, who << ": nothing dropped");
                NS_TEST_ASSERT_MSG_EQ(r->badOrder[ep] + r->badContent[ep], 0u,
                                      who << ": exactly once, in order, intact");
                NS_TEST_ASSERT_MSG_GT(r->delivered[ep], 100u, who << ": traffic flows");
            }
            NS_TEST_ASSERT_MSG_GT(r->meanLatency[1], on.meanLatency[1] + 20,
                                  who << ": A-to-B latency rises");
        }
        NS_TEST_ASSERT_MSG_EQ((ref.deliverySlots == fast.deliverySlots), true,
                              "identical delivery slots");
        for (uint32_t ep = 0; ep < 2; ++ep)
        {
            NS_TEST_ASSERT_MSG_EQ(ref.counters[ep].ToString(), fast.counters[ep].ToString(),
                                  "identical counters");
        }
        std::cout << GetName() << ": B max FIFO " << ref.counters[1].maxFcOccupancy << " (Thr_ON "
                  << c.GetFcThrOn() << ", with compensation " << on.counters[1].maxFcOccupancy
                  << "), FC_ON/FC_OFF sent by B " << ref.counters[1].fcPauseSent << "/"
                  << ref.counters[1].fcResumeSent << ", A-to-B mean word latency "
                  << ref.meanLatency[1] << " slots (with compensation " << on.meanLatency[1]
                  << "), packets A->B " << ref.delivered[1] << " (with compensation "
                  << on.delivered[1] << ")" << std::endl;
    }

    uint32_t m_lanes; //!< lanes
    double m_ppm;     //!< offset difference
    uint64_t m_slots; //!< slots
};

/**
 * \ingroup rifl-protocol
 * \brief The "rifl-clock-compensation" suite.
 */
class RiflClockCompensationTestSuite : public TestSuite
{
  public:
    /// \brief Constructor.
    RiflClockCompensationTestSuite()
        : TestSuite("rifl-clock-compensation", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflClockSkipArithmeticTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflClockCompensationOnTestCase(1, 200000), RIFL_TEST_QUICK);
        AddTestCase(new RiflClockCompensationOnTestCase(4, 100000), RIFL_TEST_QUICK);
        AddTestCase(new RiflClockCompensationOffTestCase(1, 1000, 250000), RIFL_TEST_QUICK);
        AddTestCase(new RiflClockCompensationOffTestCase(4, 1000, 150000), RIFL_TEST_QUICK);
        AddTestCase(new RiflClockCompensationOnTestCase(4, 2000000), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflClockCompensationOffTestCase(4, 200, 1500000), RIFL_TEST_EXTENSIVE);
    }
};

/// The suite instance.
static RiflClockCompensationTestSuite g_riflClockCompensationTestSuite;

} // namespace

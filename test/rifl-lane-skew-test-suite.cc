/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-fast-engine.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-net-device.h"
#include "ns3/rifl-reference-engine.h"
#include "ns3/test.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rifl-protocol
 * Lane skew (rifl-protocol.md §6.2) on both link engines ("rifl-lane-skew").
 *
 *  - Exact latency: a packet of n frames dealt round robin from lane p, frame j
 *    on lane (p + j) mod N in line slot s + 1 + j / N, reaches the user when
 *    its last-needed frame is ready: max over j of (line slot + L + skew of its
 *    lane + 6). The lagging lane delays the packet by exactly its skew (or
 *    less, when it does not carry the last frames).
 *  - The FC FIFOs of the other lanes absorb the skew: with saturated traffic
 *    their occupancy rises by the skew, with a skew above Thr_ON flow control
 *    takes over; delivery stays exactly once, in order and intact.
 *  - Bad LaneSkew values fail with messages naming LaneSkew.
 */

using namespace ns3;

namespace
{

/**
 * \param id a packet id.
 * \param i a byte index.
 * \return the packet's byte i.
 */
uint8_t
SkewByte(uint64_t id, uint32_t i)
{
    return static_cast<uint8_t>((id * 167 + i * 13 + (i >> 7)) & 0xFF);
}

/**
 * \param lanes lanes.
 * \param skew the lane skews.
 * \return a configuration (256-bit frames, L = 11, short start-up).
 */
RiflLinkConfig
SkewConfig(uint32_t lanes, const std::vector<uint32_t>& skew)
{
    RiflLinkConfig c;
    c.lanes = lanes;
    c.frameSize = 256;
    c.lineDelaySlots = 11;
    c.rxUpSlots = 64;
    c.laneSkewSlots = skew;
    return c;
}

/// A delivery seen by the test.
struct Seen
{
    uint32_t endpoint; //!< receiver
    uint64_t id;       //!< packet
    uint64_t slot;     //!< delivery slot
    bool intact;       //!< bytes as sent
};

/**
 * \brief Offer packets A -> B at given slots, run to the end, collect the deliveries.
 * \param e the engine.
 * \param offers (slot, bytes) pairs, ascending.
 * \param end the end slot.
 * \return the deliveries.
 */
std::vector<Seen>
RunOffers(RiflLinkEngine& e, const std::vector<std::pair<uint64_t, uint32_t>>& offers, uint64_t end)
{
    std::vector<Seen> seen;
    std::vector<uint32_t> sizes;
    e.SetDeliveryCallback(
        [&](const RiflDelivery& d)
        {
            bool ok = d.packetId < sizes.size() && d.content.size() == sizes[d.packetId];
            for (uint32_t i = 0; ok && i < d.content.size(); ++i)
            {
                ok = d.content[i] == SkewByte(d.packetId, i);
            }
            seen.push_back(Seen{d.endpoint, d.packetId, d.slot, ok});
        });
    for (const auto& [slot, bytes] : offers)
    {
        e.AdvanceTo(slot);
        std::vector<uint8_t> p(bytes);
        for (uint32_t i = 0; i < bytes; ++i)
        {
            p[i] = SkewByte(sizes.size(), i);
        }
        e.OfferPacket(0, sizes.size(), p);
        sizes.push_back(bytes);
    }
    e.AdvanceTo(end);
    return seen;
}

/**
 * \ingroup rifl-protocol
 * \brief Error-free latency with a known skew equals the slot arithmetic.
 */
class RiflLaneSkewLatencyTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflLaneSkewLatencyTestCase()
        : TestCase("exact latency with a lagging lane: max over frames of line slot + L_l + 6")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::vector<uint32_t>> skews
            = {{}, {0, 0, 5, 0}, {7, 0, 0, 0}, {0, 3, 1, 2}, {0, 0, 0, 40}};
        for (const auto& skew : skews)
        {
            const RiflLinkConfig c = SkewConfig(4, skew);
            // Packets of 35, 1, 8 and 90 frames, far apart (each on an idle link).
            const std::vector<std::pair<uint64_t, uint32_t>> offers
                = {{3000, 1050}, {4000, 30}, {5000, 240}, {6000, 2700}};
            RiflReferenceEngine ref(c);
            RiflFastEngine fast(c);
            const auto a = RunOffers(ref, offers, 8000);
            const auto b = RunOffers(fast, offers, 8000);
            NS_TEST_ASSERT_MSG_EQ(a.size(), offers.size(), "every packet delivered");
            NS_TEST_ASSERT_MSG_EQ(b.size(), offers.size(), "every packet delivered (fast)");
            uint32_t ptr = 0; // the TX round robin, from lane 0 at power-on
            const uint32_t payload = c.GetPayloadBytes();
            for (std::size_t k = 0; k < offers.size(); ++k)
            {
                const uint64_t s = offers[k].first;
                const uint32_t frames = (offers[k].second + payload - 1) / payload;
                uint64_t expect = 0;
                for (uint32_t j = 0; j < frames; ++j)
                {
                    const uint32_t lane = (ptr + j) % 4;
                    const uint64_t line = s + 1 + j / 4;
                    expect = std::max<uint64_t>(expect, line + c.GetLaneDelaySlots(lane) + 6);
                }
                ptr = (ptr + frames) % 4;
                NS_TEST_EXPECT_MSG_EQ(a[k].slot, expect, "reference, packet " << k);
                NS_TEST_EXPECT_MSG_EQ(b[k].slot, expect, "fast, packet " << k);
                NS_TEST_EXPECT_MSG_EQ(a[k].intact && b[k].intact && a[k].id == k && b[k].id == k,
                                      true, "in order and intact");
            }
        }
    }
};

/**
 * \ingroup rifl-protocol
 * \brief The other lanes' FC FIFOs absorb the skew; beyond Thr_ON flow control does.
 */
class RiflLaneSkewFifoTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param skew the lagging lane's skew.
     */
    explicit RiflLaneSkewFifoTestCase(uint32_t skew)
        : TestCase("saturated traffic, lane 1 lags by " + std::to_string(skew)
                   + " slots: FIFOs absorb it, delivery lossless, engines identical")
        , m_skew(skew)
    {
    }

  private:
    void DoRun() override
    {
        const RiflLinkConfig c = SkewConfig(4, {0, m_skew, 0, 0});
        std::vector<std::pair<uint64_t, uint32_t>> offers;
        // 1500 B (50 frames, 12.5 slots on 4 lanes) every 11 slots: saturated.
        for (uint64_t s = 3000; s < 40000; s += 11)
        {
            offers.emplace_back(s, 1500);
        }
        RiflReferenceEngine ref(c);
        RiflFastEngine fast(c);
        // Beyond Thr_ON the leading lanes' FC pauses the group again and again: slower.
        const uint64_t end = m_skew + 2 < c.GetFcThrOn() ? 60000 : 120000;
        const auto a = RunOffers(ref, offers, end);
        const auto b = RunOffers(fast, offers, end);
        NS_TEST_ASSERT_MSG_EQ(a.size(), offers.size(), "every packet delivered");
        NS_TEST_ASSERT_MSG_EQ(b.size(), a.size(), "fast engine too");
        for (std::size_t k = 0; k < a.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(a[k].id, k, "in order, exactly once");
            NS_TEST_ASSERT_MSG_EQ(a[k].intact, true, "intact");
            NS_TEST_ASSERT_MSG_EQ(a[k].slot, b[k].slot, "identical delivery slots");
        }
        for (uint32_t ep = 0; ep < 2; ++ep)
        {
            NS_TEST_ASSERT_MSG_EQ(ref.GetCounters(ep).ToString(), fast.GetCounters(ep).ToString(),
                                  "identical counters");
        }
        const RiflEndpointCounters& rx = ref.GetCounters(1);
        NS_TEST_ASSERT_MSG_EQ(rx.fcFifoDrops, 0u, "nothing dropped");
        if (m_skew + 2 < c.GetFcThrOn())
        {
            // The leading lanes hold the frames of the skew (plus the 2 of the pipeline).
            NS_TEST_ASSERT_MSG_GT_OR_EQ(rx.maxFcOccupancy, m_skew, "the skew is buffered");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(rx.maxFcOccupancy, m_skew + 3, "and no more");
            NS_TEST_ASSERT_MSG_EQ(rx.fcPauseSent, 0u, "no flow control needed");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(rx.fcPauseSent, 0u, "flow control absorbs a large skew");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(rx.maxFcOccupancy, c.GetFcFifoDepth(), "no overflow");
        }
        std::cout << GetName() << ": B max FIFO " << rx.maxFcOccupancy << ", FC_ON sent "
                  << rx.fcPauseSent << ", last delivery slot " << a.back().slot << std::endl;
    }

    uint32_t m_skew; //!< skew of lane 1
};

/**
 * \ingroup rifl-protocol
 * \brief Bad LaneSkew values fail with clear messages.
 */
class RiflLaneSkewBadInputTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflLaneSkewBadInputTestCase()
        : TestCase("bad LaneSkew values name LaneSkew and the allowed range")
    {
    }

  private:
    /**
     * \brief Expect a configuration to be rejected.
     * \param c the configuration.
     * \param text part of the expected message.
     */
    void ExpectBad(const RiflLinkConfig& c, const std::string& text)
    {
        std::string msg;
        try
        {
            c.Validate();
        }
        catch (const std::invalid_argument& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(msg.find(text), std::string::npos, "message: " << msg);
    }

    /**
     * \brief Expect a channel attribute value to be rejected when the link starts.
     * \param value the LaneSkew text.
     * \param text part of the expected message.
     */
    void ExpectBadAttribute(const std::string& value, const std::string& text)
    {
        NodeContainer nodes;
        nodes.Create(2);
        RiflHelper rifl;
        rifl.SetDeviceAttribute("Startup", StringValue("Short"));
        rifl.SetChannelAttribute("LaneSkew", StringValue(value));
        rifl.Install(nodes);
        std::string msg;
        try
        {
            Simulator::Stop(MicroSeconds(1));
            Simulator::Run();
        }
        catch (const std::invalid_argument& e)
        {
            msg = e.what();
        }
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_NE(msg.find(text), std::string::npos,
                              "LaneSkew \"" << value << "\": " << msg);
    }

    void DoRun() override
    {
        ExpectBad(SkewConfig(2, {0, 1, 2}), "LaneSkew has 3 entries, more than Lanes = 2");
        ExpectBad(SkewConfig(4, {0, 100001}),
                  "LaneSkew of lane 1 = 100001 slots is outside 0..100000");
        RiflLinkConfig t = SkewConfig(4, {0, 0, 20});
        t.replayTail = RiflReplayTail::CORRECTED;
        t.correctedTailSlots = 40;
        ExpectBad(t, "CorrectedTail = 40 is outside 70..1048576");
        ExpectBadAttribute("0,x,1", "LaneSkew entry 1 = \"x\" is not a slot count 0..100000");
        ExpectBadAttribute("0,,1", "LaneSkew entry 1 = \"\" is not a slot count");
        ExpectBadAttribute("200000", "LaneSkew entry 0 = \"200000\" is not a slot count");
        ExpectBadAttribute("0,1,2,3,4", "LaneSkew has 5 entries, more than Lanes = 4");
        // A good value reaches the engine.
        NodeContainer nodes;
        nodes.Create(2);
        RiflHelper rifl;
        rifl.SetDeviceAttribute("Startup", StringValue("Short"));
        rifl.SetChannelAttribute("LaneSkew", StringValue(" 0, 3 ,0,1"));
        NetDeviceContainer d = rifl.Install(nodes);
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        Ptr<RiflChannel> ch = DynamicCast<RiflChannel>(d.Get(0)->GetChannel());
        NS_TEST_EXPECT_MSG_EQ(ch->GetConfig().GetLaneSkewSlots(1), 3u, "lane 1");
        NS_TEST_EXPECT_MSG_EQ(ch->GetConfig().GetLaneSkewSlots(3), 1u, "lane 3");
        NS_TEST_EXPECT_MSG_EQ(ch->GetConfig().GetMaxLaneSkewSlots(), 3u, "largest");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-protocol
 * \brief The "rifl-lane-skew" suite.
 */
class RiflLaneSkewTestSuite : public TestSuite
{
  public:
    /// \brief Constructor.
    RiflLaneSkewTestSuite()
        : TestSuite("rifl-lane-skew", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflLaneSkewLatencyTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflLaneSkewFifoTestCase(30), RIFL_TEST_QUICK);
        AddTestCase(new RiflLaneSkewFifoTestCase(100), RIFL_TEST_QUICK);
        AddTestCase(new RiflLaneSkewBadInputTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite instance.
static RiflLaneSkewTestSuite g_riflLaneSkewTestSuite;

} // namespace

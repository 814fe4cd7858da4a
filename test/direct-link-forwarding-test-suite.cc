/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of Shutdown while forwarding (spec/direct-link-protocol.md §4.2): the
 * engine sends a message with a NetErr tail and the original routing-word
 * length (DirectLinkMessageFlags) and the receiver delivers it truncated
 * (TruncationReason UPSTREAM), identically in both engines; bad flags are
 * rejected with exact messages; and across a chain of 4 CPUs a forced
 * Shutdown of the middle link while messages are being forwarded over it
 * truncates messages that the next DLIU completes with a NetErr tail, so that
 * every message sent ends as delivered intact (content-checked), delivered
 * with NetErr (a content-checked prefix) or counted lost:
 * sent = delivered-ok + delivered-with-NetErr + counted-lost, with the same
 * figures on the fast and the reference engine.
 */

#include "ns3/core-module.h"
#include "ns3/deterministic-error-process.h"
#include "ns3/direct-link-channel.h"
#include "ns3/direct-link-fast-engine.h"
#include "ns3/direct-link-flit.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/direct-link-reference-engine.h"
#include "ns3/multiprocessor-topology-helper.h"
#include "ns3/network-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"
#include "rifl-test-util.h"

#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using rifltest::InvalidArgumentMessage;

namespace
{

using Reason = DirectLinkEndpointState::TruncationReason;

/**
 * \param src source CPU. \param seq sequence number. \param i byte index.
 * \return the content byte.
 */
uint8_t
Byte(uint32_t src, uint32_t seq, uint32_t i)
{
    if (i == 0)
    {
        return static_cast<uint8_t>(src);
    }
    if (i <= 4)
    {
        return static_cast<uint8_t>(seq >> (8 * (i - 1)));
    }
    return static_cast<uint8_t>((src * 131 + seq * 31 + i * 7) ^ (i >> 3));
}

/**
 * \param src source CPU. \param seq sequence number. \param n length.
 * \return the content.
 */
std::vector<uint8_t>
Content(uint32_t src, uint32_t seq, uint32_t n)
{
    std::vector<uint8_t> b(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        b[i] = Byte(src, seq, i);
    }
    return b;
}

/**
 * \ingroup rifl-tests
 * \brief The engine sends NetErr tails and short copies; the receiver delivers them truncated.
 */
class DirectLinkNetErrOfferTestCase : public TestCase
{
  public:
    DirectLinkNetErrOfferTestCase()
        : TestCase("Engine: a NetErr-tail copy with the original length arrives truncated "
                   "(UPSTREAM), NcErr passes through, bad flags are rejected; both engines")
    {
    }

  private:
    /// What one engine delivered.
    struct Result
    {
        std::vector<DirectLinkDeliveredMessage> delivered; //!< deliveries
        std::vector<DirectLinkEvent> events;               //!< events
        DirectLinkEndpointState::Counters rx;              //!< receiver counters
    };

    /**
     * \param fast fast engine (true) or reference.
     * \return what it delivered.
     */
    Result Run(bool fast)
    {
        DirectLinkConfig cfg;
        std::unique_ptr<DirectLinkReferenceEngine> eng;
        if (fast)
        {
            eng = std::make_unique<DirectLinkFastEngine>(cfg, nullptr, nullptr);
        }
        else
        {
            eng = std::make_unique<DirectLinkReferenceEngine>(cfg, nullptr, nullptr);
        }
        Result r;
        eng->SetDeliveryCallback(
            [&r](const DirectLinkDeliveredMessage& d)
            {
                r.delivered.push_back(d);
            });
        eng->SetEventCallback(
            [&r](const DirectLinkEvent& e)
            {
                r.events.push_back(e);
            });
        eng->AdvanceTo(10);
        DirectLinkMessageFlags cut;
        cut.netErr = true;
        cut.announcedLength = 100; // 7 micro-packets; only 2 (10 + 18 bytes) are sent
        eng->OfferMessage(0, 1, 5, 4, 2, 3, Content(4, 1, 28), cut);
        DirectLinkMessageFlags nc;
        nc.ncErr = true;
        eng->OfferMessage(0, 2, 5, 4, 0, 0, Content(4, 2, 64), nc);
        eng->OfferMessage(0, 3, 5, 4, 1, 1, Content(4, 3, 40));
        eng->AdvanceTo(200);
        r.rx = eng->GetEndpoint(1).GetCounters();
        NS_TEST_EXPECT_MSG_EQ(eng->GetPending(0), 0u, "everything resolved");
        return r;
    }

    void DoRun() override
    {
        const Result ref = Run(false);
        const Result fast = Run(true);
        NS_TEST_ASSERT_MSG_EQ(ref.delivered.size(), 3u, "three deliveries");
        std::map<uint64_t, DirectLinkDeliveredMessage> byId;
        for (const auto& d : ref.delivered)
        {
            byId[d.info.messageId] = d;
        }
        const auto& cutMsg = byId.at(1).info;
        NS_TEST_EXPECT_MSG_EQ(cutMsg.truncated, true, "short NetErr copy: truncated");
        NS_TEST_EXPECT_MSG_EQ(cutMsg.netErr, true, "NetErr");
        NS_TEST_EXPECT_MSG_EQ(static_cast<int>(cutMsg.truncReason),
                              static_cast<int>(Reason::UPSTREAM), "reason UPSTREAM");
        NS_TEST_EXPECT_MSG_EQ(cutMsg.route.length, 100u, "original length kept");
        NS_TEST_EXPECT_MSG_EQ(cutMsg.route.dstCpu, 5u, "routing word");
        NS_TEST_EXPECT_MSG_EQ((cutMsg.bytes == Content(4, 1, 28)), true, "the 28 bytes sent");
        NS_TEST_EXPECT_MSG_EQ(byId.at(1).contentOk, false, "not intact");
        const auto& ncMsg = byId.at(2);
        NS_TEST_EXPECT_MSG_EQ(ncMsg.info.truncated, false, "NcErr message complete");
        NS_TEST_EXPECT_MSG_EQ(ncMsg.info.ncErr, true, "NcErr delivered");
        NS_TEST_EXPECT_MSG_EQ(ncMsg.info.netErr, false, "no NetErr");
        NS_TEST_EXPECT_MSG_EQ(ncMsg.contentOk, true, "content intact");
        NS_TEST_EXPECT_MSG_EQ(byId.at(3).contentOk, true, "plain message intact");
        NS_TEST_EXPECT_MSG_EQ(byId.at(3).info.ncErr || byId.at(3).info.netErr, false, "no flag");
        NS_TEST_EXPECT_MSG_EQ(ref.rx.messagesTruncated, 1u, "one truncated");
        NS_TEST_EXPECT_MSG_EQ(ref.rx.truncatedByReason[static_cast<uint32_t>(Reason::UPSTREAM)], 1u,
                              "counted by reason");
        NS_TEST_EXPECT_MSG_EQ(ref.rx.messagesDelivered, 2u, "two intact");
        uint32_t truncEvents = 0;
        for (const auto& e : ref.events)
        {
            if (e.type == DirectLinkEventType::MESSAGE_TRUNCATED)
            {
                ++truncEvents;
                NS_TEST_EXPECT_MSG_EQ(e.value, static_cast<int64_t>(Reason::UPSTREAM), "traced");
                NS_TEST_EXPECT_MSG_EQ(e.messageId, 1u, "the cut message");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(truncEvents, 1u, "one MESSAGE_TRUNCATED event");
        // both engines identical
        NS_TEST_ASSERT_MSG_EQ(fast.delivered.size(), ref.delivered.size(), "same deliveries");
        for (size_t k = 0; k < ref.delivered.size(); ++k)
        {
            const auto& a = ref.delivered[k].info;
            const auto& b = fast.delivered[k].info;
            NS_TEST_EXPECT_MSG_EQ(a.messageId, b.messageId, "delivery " << k << " id");
            NS_TEST_EXPECT_MSG_EQ(a.slot, b.slot, "delivery " << k << " slot");
            NS_TEST_EXPECT_MSG_EQ((a.bytes == b.bytes), true, "delivery " << k << " bytes");
            NS_TEST_EXPECT_MSG_EQ(a.truncated, b.truncated, "delivery " << k << " truncated");
        }
        NS_TEST_EXPECT_MSG_EQ((fast.events == ref.events), true, "same events");

        // bad flags
        DirectLinkReferenceEngine eng(DirectLinkConfig(), nullptr, nullptr);
        DirectLinkMessageFlags f;
        f.announcedLength = 100;
        NS_TEST_EXPECT_MSG_EQ(
            InvalidArgumentMessage(
                [&]()
                {
                    eng.OfferMessage(0, 9, 1, 0, 0, 0, Content(0, 9, 28), f);
                }),
            "DirectLinkReferenceEngine::OfferMessage: announcedLength = 100 > 28 bytes sent needs "
            "netErr (a copy truncated upstream ends with a NetErr tail)",
            "short copy without NetErr");
        f.netErr = true;
        NS_TEST_EXPECT_MSG_EQ(
            InvalidArgumentMessage(
                [&]()
                {
                    eng.OfferMessage(0, 9, 1, 0, 0, 0, Content(0, 9, 20), f);
                }),
            "DirectLinkReferenceEngine::OfferMessage: announcedLength = 100 > 20 bytes sent: a "
            "truncated copy must fill its micro-packets (10 + 18 k bytes)",
            "short copy not on a micro-packet boundary");
        f.announcedLength = 10;
        NS_TEST_EXPECT_MSG_EQ(
            InvalidArgumentMessage(
                [&]()
                {
                    eng.OfferMessage(0, 9, 1, 0, 0, 0, Content(0, 9, 28), f);
                }),
            "DirectLinkReferenceEngine::OfferMessage: announcedLength = 10 is below the 28 bytes "
            "sent",
            "announced below the bytes");
        NS_TEST_EXPECT_MSG_EQ(eng.GetPending(0), 0u, "nothing queued by rejected offers");
    }
};

/// Tallies of one multi-hop run.
struct ChainTally
{
    uint64_t sent{0};            //!< messages accepted by the source DLIUs
    uint64_t ok{0};              //!< delivered intact with correct content
    uint64_t netErr{0};          //!< delivered with NetErr, content a correct prefix
    uint64_t bad{0};             //!< content wrong, duplicate or unknown (must be 0)
    uint64_t lost{0};            //!< counted lost by the devices
    uint64_t forwardedNetErr{0}; //!< truncated copies forwarded with a NetErr tail
    uint64_t upstreamAtDst{0};   //!< arrivals at a destination truncated UPSTREAM
    uint64_t shutdowns{0};       //!< link Shutdowns
    uint64_t pending{0};         //!< still queued or waiting at the end (must be 0)
    std::array<uint64_t, DirectLinkEndpointState::NUM_TRUNCATION_REASONS> truncByReason{}; //!< all
};

/**
 * \ingroup rifl-tests
 * \brief A chain 0 - 1 - 2 - 3 with traffic both ways and a forced Shutdown of link 1 - 2.
 */
class DirectLinkShutdownForwardingTestCase : public TestCase
{
  public:
    DirectLinkShutdownForwardingTestCase()
        : TestCase("Chain of 4 CPUs, link 1-2 forced into Shutdown while forwarding: truncated "
                   "messages go on with a NetErr tail; sent = ok + NetErr + lost on both engines")
    {
    }

  private:
    /**
     * \param engine "Fast" or "Reference".
     * \return the tallies.
     */
    ChainTally Run(const std::string& engine)
    {
        MultiprocessorTopologyHelper h;
        h.SetChannelAttribute("Engine", StringValue(engine));
        h.SetDeviceAttribute("RetransLimit", UintegerValue(2));
        h.Mesh2D(4, 1); // a chain: 0 - 1 - 2 - 3
        // Kill direction 1 -> 2 for 400 micro-packet times from slot 3000 (115.2 us): CPU 1's
        // sender exhausts RetransTime (3 x AckTime) and shuts down while sending.
        Ptr<DirectLinkNetDevice> d12 = h.GetInterface(1, 2);
        Ptr<DirectLinkChannel> ch = DynamicCast<DirectLinkChannel>(d12->GetChannel());
        Ptr<DeterministicErrorProcess> burst = CreateObject<DeterministicErrorProcess>();
        for (uint64_t s = 3000; s < 3400; ++s)
        {
            burst->AddError(s, {0}); // Frame byte wrong: discarded
        }
        ch->SetErrorProcess(ch->GetSide(d12), burst);

        ChainTally t;
        const uint32_t perSource = 400;
        const uint32_t bytes = 190; // 11 micro-packets
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> seen;
        auto receiver = [&t, &seen](uint32_t me, const DirectLinkMessage& m)
        {
            if (m.bytes.size() < 5 || m.srcCpu == me)
            {
                ++t.bad;
                return;
            }
            const uint32_t seq = m.bytes[1] | m.bytes[2] << 8 | m.bytes[3] << 16 | m.bytes[4] << 24;
            if (m.bytes[0] != m.srcCpu || ++seen[{m.srcCpu, seq}] != 1)
            {
                ++t.bad;
                return;
            }
            const std::vector<uint8_t> want = Content(m.srcCpu, seq, bytes);
            const bool prefix = m.bytes.size() <= want.size()
                                && std::equal(m.bytes.begin(), m.bytes.end(), want.begin());
            if (!m.netErr && !m.ncErr && !m.truncated && !m.malformed && m.bytes == want)
            {
                ++t.ok;
            }
            else if (m.netErr && m.truncated && prefix && m.length == bytes)
            {
                ++t.netErr;
                if (m.truncationReason == Reason::UPSTREAM)
                {
                    ++t.upstreamAtDst;
                }
            }
            else
            {
                ++t.bad;
            }
        };
        h.GetDliu(0)->SetReceiveCallback(RiflMakeCallback<void, const DirectLinkMessage&>(
            std::function<void(const DirectLinkMessage&)>(
                [&receiver](const DirectLinkMessage& m)
                {
                    receiver(0, m);
                })));
        h.GetDliu(3)->SetReceiveCallback(RiflMakeCallback<void, const DirectLinkMessage&>(
            std::function<void(const DirectLinkMessage&)>(
                [&receiver](const DirectLinkMessage& m)
                {
                    receiver(3, m);
                })));
        for (uint32_t k = 0; k < perSource; ++k)
        {
            // 11 micro-packets every 600 ns (about 70 % of the line), classes 0, 1, 2 -> VCs 0, 1,
            // 3
            const Time at = MicroSeconds(10) + NanoSeconds(600) * k;
            for (uint32_t src : {0u, 3u})
            {
                Simulator::Schedule(at,
                                    [&h, &t, src, k]()
                                    {
                                        const uint32_t dst = 3 - src;
                                        if (h.GetDliu(src)->Send(dst, k % 3, Content(src, k, bytes))
                                            != 0)
                                        {
                                            ++t.sent;
                                        }
                                    });
            }
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        const NetDeviceContainer devs = h.GetDevices();
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            Ptr<DirectLinkNetDevice> d = DynamicCast<DirectLinkNetDevice>(devs.Get(k));
            const DirectLinkDeviceCounters c = d->GetCounters();
            t.lost += c.messagesLost;
            t.shutdowns += c.shutdowns;
            t.pending += d->GetQueuedMessages();
            for (uint32_t r = 0; r < DirectLinkEndpointState::NUM_TRUNCATION_REASONS; ++r)
            {
                t.truncByReason[r] += c.truncatedByReason[r];
            }
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            t.forwardedNetErr += h.GetDliu(i)->GetCounters().forwardedNetErr;
            t.pending += h.GetDliu(i)->GetWaitingMessages();
        }
        Simulator::Destroy();
        std::cout << engine << ": sent " << t.sent << " = ok " << t.ok << " + NetErr " << t.netErr
                  << " (UPSTREAM at destination " << t.upstreamAtDst << ") + lost " << t.lost
                  << "; forwarded with NetErr " << t.forwardedNetErr << ", Shutdowns "
                  << t.shutdowns << ", truncations by reason";
        for (uint32_t r = 0; r < DirectLinkEndpointState::NUM_TRUNCATION_REASONS; ++r)
        {
            std::cout << " "
                      << DirectLinkEndpointState::TruncationReasonName(static_cast<Reason>(r))
                      << "=" << t.truncByReason[r];
        }
        std::cout << std::endl;
        return t;
    }

    void DoRun() override
    {
        const ChainTally f = Run("Fast");
        NS_TEST_EXPECT_MSG_EQ(f.sent, 800u, "every Send accepted");
        NS_TEST_EXPECT_MSG_EQ(f.bad, 0u, "no wrong content, duplicate or unknown message");
        NS_TEST_EXPECT_MSG_EQ(f.pending, 0u, "nothing left in queues");
        NS_TEST_EXPECT_MSG_EQ(f.ok + f.netErr + f.lost, f.sent,
                              "sent = delivered-ok + delivered-with-NetErr + counted-lost");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(f.shutdowns, 1u, "the forced Shutdown happened");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(f.forwardedNetErr, 1u,
                                    "a message truncated in transit was forwarded with NetErr");
        NS_TEST_EXPECT_MSG_EQ(f.upstreamAtDst, f.forwardedNetErr,
                              "each forwarded NetErr copy arrived truncated UPSTREAM");
        NS_TEST_EXPECT_MSG_EQ(f.truncByReason[static_cast<uint32_t>(Reason::UPSTREAM)],
                              f.forwardedNetErr, "devices count them by reason");
        NS_TEST_EXPECT_MSG_GT(f.ok, 700u, "most messages unaffected");
        const ChainTally r = Run("Reference");
        NS_TEST_EXPECT_MSG_EQ(r.sent, f.sent, "reference: sent");
        NS_TEST_EXPECT_MSG_EQ(r.ok, f.ok, "reference: ok");
        NS_TEST_EXPECT_MSG_EQ(r.netErr, f.netErr, "reference: NetErr");
        NS_TEST_EXPECT_MSG_EQ(r.lost, f.lost, "reference: lost");
        NS_TEST_EXPECT_MSG_EQ(r.forwardedNetErr, f.forwardedNetErr, "reference: forwarded");
        NS_TEST_EXPECT_MSG_EQ(r.shutdowns, f.shutdowns, "reference: Shutdowns");
        NS_TEST_EXPECT_MSG_EQ(r.bad, 0u, "reference: content");
    }
};

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Shutdown while forwarding: NetErr tails and the accounting identity.
 */
class DirectLinkForwardingTestSuite : public TestSuite
{
  public:
    DirectLinkForwardingTestSuite()
        : TestSuite("direct-link-forwarding", RIFL_TEST_UNIT)
    {
        AddTestCase(new DirectLinkNetErrOfferTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkShutdownForwardingTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite instance.
static DirectLinkForwardingTestSuite g_directLinkForwardingTestSuite;

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of MultiprocessorScenario (the scenario behind the Python binding
 * run_multiprocessor): every request answered with checked content on every
 * topology at BER 0, one-hop latency equal to the slot arithmetic on a full
 * mesh, exact message accounting (sent = delivered, device hops = sends +
 * forwards, forwards = the route lengths), lossless delivery under bit errors
 * with a finite network MTBF, determinism, attributes by name without leaking
 * into the next run, the time limit, and exact argument-error messages.
 */

#include "ns3/core-module.h"
#include "ns3/direct-link-flit.h"
#include "ns3/link-reliability-model.h"
#include "ns3/multiprocessor-scenario.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "ns3/slot-clock.h"
#include "ns3/test.h"

#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup rifl-tests
 * \brief Full mesh at BER 0, one request per CPU: one hop each, latency = slot arithmetic.
 */
class MpScenarioFullMeshLatencyTestCase : public TestCase
{
  public:
    MpScenarioFullMeshLatencyTestCase()
        : TestCase("Full mesh of 4 at BER 0: each request one hop, latency exactly the slot "
                   "arithmetic")
    {
    }

  private:
    void DoRun() override
    {
        for (double startUs : {4.8, 5.0})
        {
            MultiprocessorScenarioConfig c;
            c.topology = "fullmesh";
            c.n = 4;
            c.requestsPerCpu = 1;
            c.window = 1;
            c.startUs = startUs;
            const MultiprocessorScenarioResult r = MultiprocessorScenario::Run(c);
            const std::string what = "start " + std::to_string(startUs) + " us";
            NS_TEST_ASSERT_MSG_EQ(r.completed, true, what);
            NS_TEST_ASSERT_MSG_EQ(r.nCpus, 4u, what);
            NS_TEST_ASSERT_MSG_EQ(r.nLinks, 6u, what);
            NS_TEST_ASSERT_MSG_EQ(r.responsesOk, 4u, what << ": every request answered");
            NS_TEST_ASSERT_MSG_EQ(r.responsesBad + r.responsesErrored + r.requestTimeouts, 0u,
                                  what);
            NS_TEST_ASSERT_MSG_EQ(r.messagesForwarded, 0u, what << ": nothing forwarded");
            NS_TEST_ASSERT_MSG_EQ_TOL(r.hopsMean, 1.0, 1e-12, what << ": one hop each");
            NS_TEST_ASSERT_MSG_EQ(r.hopsMax, 1u, what);
            NS_TEST_ASSERT_MSG_EQ(r.oneWayDelaySlots, 2u, what << ": default 1 m cable");
            // Offered at the first slot boundary s0 at or after the start, an n-micro-packet
            // message costs n + L slots per hop (test/direct-link-net-device-test-suite.cc).
            SlotClock clock;
            clock.Start(Seconds(0), 192, 5000000000ULL);
            const Time t = RiflMicroseconds(startUs); // 4.8 us, not MicroSeconds()'s 4 us
            uint64_t s0 = clock.SlotAt(t);
            if (clock.GetSlotStart(s0) < t)
            {
                ++s0;
            }
            const uint64_t L = r.oneWayDelaySlots;
            const uint64_t end = s0 + (DirectLinkFlit::NumMicroPackets(8) + L)
                                 + (DirectLinkFlit::NumMicroPackets(64) + L);
            const double expected = (clock.GetSlotStart(end) - t).ToDouble(Time::NS);
            NS_TEST_EXPECT_MSG_EQ(r.latencyNsMin, expected, what << ": latency = slot arithmetic");
            NS_TEST_EXPECT_MSG_EQ(r.latencyNsMax, expected, what << ": every request alike");
            NS_TEST_EXPECT_MSG_EQ(r.durationUs * 1e3, expected, what << ": ends at the last");
            NS_TEST_EXPECT_MSG_EQ(r.throughputGbps, 4 * 64 * 8 / expected, what);
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief Every topology at BER 0 with load: every request answered, exact accounting.
 */
class MpScenarioAccountingTestCase : public TestCase
{
  public:
    MpScenarioAccountingTestCase()
        : TestCase("Every topology at BER 0: every response correct, messages and forwards "
                   "accounted exactly")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string topology;  //!< topology
            uint32_t a;            //!< n, x or dim
            uint32_t b;            //!< y
            std::string avoidance; //!< deadlock avoidance
            uint32_t maxHops;      //!< the longest route
            bool acyclic;          //!< channel dependencies acyclic (same-VC forwarding)
            bool deadlockFree;     //!< the check that applies (dateline VC switch included)
        };
        // A torus 4 x 3: its 4-rings have 2-hop routes that close a cycle on one VC.
        const std::vector<Case> cases = {
            {"fullmesh", 8, 0, "none", 1, true, true},
            {"ring", 6, 0, "none", 3, false, false},
            {"ring", 6, 0, "dateline-routing", 4, true, true},
            {"ring", 6, 0, "dateline-vcs", 3, false, true},
            {"mesh", 2, 3, "none", 3, true, true},
            {"torus", 4, 3, "none", 3, false, false},
            {"torus", 4, 3, "dateline-vcs", 3, false, true},
            {"hypercube", 3, 0, "none", 3, true, true},
        };
        for (const Case& k : cases)
        {
            MultiprocessorScenarioConfig c;
            c.topology = k.topology;
            c.n = k.a;
            c.x = k.a;
            c.y = k.b;
            c.dim = k.a;
            c.deadlockAvoidance = k.avoidance;
            c.requestsPerCpu = 60;
            c.window = 3;
            c.responseBytes = 100;
            const MultiprocessorScenarioResult r = MultiprocessorScenario::Run(c);
            const std::string what = k.topology + " " + k.avoidance;
            const uint64_t total = uint64_t(r.nCpus) * c.requestsPerCpu;
            NS_TEST_ASSERT_MSG_EQ(r.completed, true, what);
            NS_TEST_ASSERT_MSG_EQ(r.requestsIssued, total, what);
            NS_TEST_ASSERT_MSG_EQ(r.requestsServed, total, what << ": every request served");
            NS_TEST_ASSERT_MSG_EQ(r.responsesOk, total, what << ": every response correct");
            NS_TEST_ASSERT_MSG_EQ(r.responsesBad, 0u, what << ": content checked");
            NS_TEST_ASSERT_MSG_EQ(r.responsesErrored + r.responsesLate + r.responsesUnknown, 0u,
                                  what);
            NS_TEST_ASSERT_MSG_EQ(r.requestTimeouts + r.requestsOutstanding, 0u, what);
            NS_TEST_ASSERT_MSG_EQ(r.responseBytes, total * 100, what);
            NS_TEST_ASSERT_MSG_EQ(r.messagesSent, 2 * total, what << ": requests + responses");
            NS_TEST_ASSERT_MSG_EQ(r.messagesDelivered, r.messagesSent, what);
            NS_TEST_ASSERT_MSG_EQ(r.messagesDeliveredErrored, 0u, what);
            NS_TEST_ASSERT_MSG_EQ(r.messagesForwarded, r.forwardsExpected,
                                  what << ": one forward per intermediate CPU of each route");
            NS_TEST_ASSERT_MSG_EQ(r.linkMessagesAccepted, r.messagesSent + r.messagesForwarded,
                                  what << ": each hop one device message");
            NS_TEST_ASSERT_MSG_EQ(r.linkMessagesDelivered, r.linkMessagesAccepted, what);
            NS_TEST_ASSERT_MSG_EQ(r.messagesLost + r.contentMismatches + r.linkMessagesTruncated,
                                  0u, what);
            NS_TEST_ASSERT_MSG_EQ(r.crcErrors + r.retransmissions + r.shutdowns, 0u, what);
            NS_TEST_ASSERT_MSG_EQ(r.hopsMax, k.maxHops, what);
            NS_TEST_ASSERT_MSG_EQ(r.channelDependenciesAcyclic, k.acyclic, what);
            NS_TEST_ASSERT_MSG_EQ(r.deadlockFree, k.deadlockFree, what);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(r.hopsMean, 1.0, what);
            // Data micro-packets: every hop of every request and of every response.
            const auto requestHops = static_cast<uint64_t>(std::llround(r.hopsMean * total));
            const uint64_t responseHops = r.linkMessagesAccepted - requestHops;
            NS_TEST_ASSERT_MSG_EQ(r.dataMicroPackets,
                                  requestHops * DirectLinkFlit::NumMicroPackets(8)
                                      + responseHops * DirectLinkFlit::NumMicroPackets(100),
                                  what << ": one Data micro-packet per hop and 18 bytes");
            NS_TEST_ASSERT_MSG_GT(r.linkUtilisationMean, 0.0, what);
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r.linkUtilisationMax, 1.0, what);
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r.latencyNsP50, r.latencyNsP99, what);
            NS_TEST_ASSERT_MSG_LT_OR_EQ(r.latencyNsP99, r.latencyNsMax, what);
            NS_TEST_ASSERT_MSG_EQ(std::isinf(r.networkMtbfYears), true, what << ": BER 0");
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief BER 1e-5: errors retransmitted, every response still correct, finite MTBF;
 *        same seed same results.
 */
class MpScenarioErrorsTestCase : public TestCase
{
  public:
    MpScenarioErrorsTestCase()
        : TestCase("Full mesh and torus at BER 1e-5: lossless, finite network MTBF, "
                   "deterministic per seed")
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorScenarioConfig c;
        c.topology = "fullmesh";
        c.n = 4;
        c.ber = 1e-5;
        c.requestsPerCpu = 300;
        c.rngRun = 3;
        const MultiprocessorScenarioResult r = MultiprocessorScenario::Run(c);
        NS_TEST_ASSERT_MSG_EQ(r.completed, true, "done");
        NS_TEST_ASSERT_MSG_EQ(r.responsesOk, 4u * 300, "every response correct");
        NS_TEST_ASSERT_MSG_EQ(r.messagesLost + r.contentMismatches, 0u, "nothing lost");
        NS_TEST_ASSERT_MSG_GT(r.crcErrors, 0u, "errors happened");
        NS_TEST_ASSERT_MSG_GT(r.retransmissions, 0u, "and were retransmitted");
        NS_TEST_ASSERT_MSG_GT(r.pUndetected, 0.0, "P_ud > 0");
        NS_TEST_ASSERT_MSG_EQ(std::isfinite(r.networkMtbfYears), true, "finite MTBF");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.networkMtbfYears, r.networkMtbfYearsFullLine,
                                    "a busy line fails sooner than the measured traffic");
        // Harmonic sum over the 12 link directions of identical full lines: MTBF / 12.
        const double one = 1.0 / (5e9 / 192 * r.pUndetected) / (365.25 * 86400);
        NS_TEST_ASSERT_MSG_EQ_TOL(r.networkMtbfYearsFullLine / (one / 12), 1.0, 1e-3,
                                  "full-line network MTBF");

        const MultiprocessorScenarioResult same = MultiprocessorScenario::Run(c);
        NS_TEST_ASSERT_MSG_EQ(same.crcErrors, r.crcErrors, "same seed");
        NS_TEST_ASSERT_MSG_EQ(same.retransmissions, r.retransmissions, "same seed");
        NS_TEST_ASSERT_MSG_EQ(same.latencyNsMean, r.latencyNsMean, "same seed");
        NS_TEST_ASSERT_MSG_EQ(same.durationUs, r.durationUs, "same seed");
        NS_TEST_ASSERT_MSG_EQ(same.events, r.events, "same seed");
        c.rngRun = 4;
        const MultiprocessorScenarioResult other = MultiprocessorScenario::Run(c);
        const bool differs
            = other.crcErrors != r.crcErrors || other.latencyNsMean != r.latencyNsMean;
        NS_TEST_ASSERT_MSG_EQ(differs, true, "another seed differs");

        MultiprocessorScenarioConfig t;
        t.topology = "torus";
        t.ber = 1e-5;
        t.requestsPerCpu = 40;
        const MultiprocessorScenarioResult tr = MultiprocessorScenario::Run(t);
        NS_TEST_ASSERT_MSG_EQ(tr.responsesOk, 9u * 40, "torus: every response correct");
        NS_TEST_ASSERT_MSG_EQ(tr.messagesForwarded, tr.forwardsExpected, "torus forwards");
        NS_TEST_ASSERT_MSG_GT(tr.crcErrors, 0u, "torus: errors happened");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Links run as split halves (DirectLinkChannel::Split: each end alone, exchanging line
 *        records, the structure of a link across MPI ranks) give the multiprocessor exactly
 *        the results of the two-sided reference engine: clean, at BER 1e-4 with forwarding on
 *        a torus, and with Shutdowns and losses (BER 2e-3, RetransLimit 1).
 */
class MpScenarioSplitLinksTestCase : public TestCase
{
  public:
    MpScenarioSplitLinksTestCase()
        : TestCase("Split links (each end alone, line records between them) and ranks by CPU "
                   "groups give exactly the two-sided engine's results")
    {
    }

  private:
    /// \return the result's fields that must agree (all but wall time and event count).
    static std::vector<double> Fields(const MultiprocessorScenarioResult& r)
    {
        std::vector<double> v{double(r.completed),
                              r.durationUs,
                              double(r.requestsIssued),
                              double(r.requestsRefused),
                              double(r.requestsServed),
                              double(r.requestsErrored),
                              double(r.responsesOk),
                              double(r.responsesBad),
                              double(r.responsesErrored),
                              double(r.responsesLate),
                              double(r.responsesUnknown),
                              double(r.requestTimeouts),
                              double(r.requestsOutstanding),
                              double(r.responseBytes),
                              double(r.messagesSent),
                              double(r.messagesDelivered),
                              double(r.messagesDeliveredErrored),
                              double(r.messagesForwarded),
                              double(r.forwardTruncated),
                              double(r.sendFailures),
                              double(r.linkMessagesAccepted),
                              double(r.linkMessagesDelivered),
                              double(r.linkMessagesTruncated),
                              double(r.linkMessagesMalformed),
                              double(r.contentMismatches),
                              double(r.messagesLost),
                              double(r.messagesHeldOpen),
                              r.latencyNsMean,
                              r.latencyNsMin,
                              r.latencyNsP50,
                              r.latencyNsP99,
                              r.latencyNsMax,
                              double(r.microPackets),
                              double(r.dataMicroPackets),
                              r.linkUtilisationMax,
                              double(r.retransmissions),
                              double(r.ackTimeouts),
                              double(r.crcErrors),
                              double(r.shutdowns),
                              double(r.undetectedErrors)};
        for (uint64_t n : r.lostByReason)
        {
            v.push_back(double(n));
        }
        return v;
    }

    void DoRun() override
    {
        struct Case
        {
            std::string topology;
            double ber;
            std::string retransLimit;
            uint32_t requests;
        };
        const std::vector<Case> cases{
            {"fullmesh", 0.0, "", 30},
            {"torus", 1e-4, "", 40},
            {"ring", 2e-3, "1", 30},
        };
        for (const Case& k : cases)
        {
            MultiprocessorScenarioConfig c;
            c.topology = k.topology;
            c.n = 4;
            c.ber = k.ber;
            c.requestsPerCpu = k.requests;
            c.window = 4;
            c.responseBytes = 100;
            c.rngRun = 7;
            c.attributes["ns3::DirectLinkChannel::Engine"] = "Reference";
            if (!k.retransLimit.empty())
            {
                c.attributes["ns3::DirectLinkNetDevice::RetransLimit"] = k.retransLimit;
            }
            const MultiprocessorScenarioResult two = MultiprocessorScenario::Run(c);
            c.attributes["ns3::DirectLinkChannel::Split"] = "true";
            const MultiprocessorScenarioResult split = MultiprocessorScenario::Run(c);
            const std::vector<double> a = Fields(two);
            const std::vector<double> b = Fields(split);
            for (size_t i = 0; i < a.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(
                    a[i], b[i], k.topology << " BER " << k.ber << ": field " << i << " differs");
            }
            NS_TEST_EXPECT_MSG_GT(two.responsesOk, 0u, k.topology << ": traffic ran");
            if (k.ber > 1e-3)
            {
                NS_TEST_EXPECT_MSG_GT(two.shutdowns, 0u, k.topology << ": Shutdowns happened");
            }
            else if (k.ber > 0)
            {
                NS_TEST_EXPECT_MSG_GT(two.retransmissions, 0u, k.topology << ": errors happened");
            }
            std::cout << k.topology << " BER " << k.ber << ": " << two.responsesOk << " responses, "
                      << two.retransmissions << " retransmissions, " << two.shutdowns
                      << " Shutdowns, " << two.messagesLost << " lost; split identical; events "
                      << two.events << " / " << split.events << std::endl;
        }
        // Ranks by CPU groups (labels without MPI): the links between groups split, as they
        // would run across ranks, the rest two-sided; the same results again
        struct RankCase
        {
            std::string topology;
            uint32_t n;
            uint32_t ranks;
            uint32_t across; //!< links between groups
        };
        const std::vector<RankCase> rankCases{
            {"ring", 6, 3, 3},      // arcs {0,1} {2,3} {4,5}
            {"torus", 4, 2, 8},     // bands of two rows: 4 links each way between them
            {"hypercube", 3, 2, 4}, // subcubes 0-3 and 4-7
            {"fullmesh", 5, 2, 6},  // {0,1,2} and {3,4}
        };
        for (const RankCase& k : rankCases)
        {
            MultiprocessorScenarioConfig c;
            c.topology = k.topology;
            c.n = k.n;
            c.x = k.n;
            c.y = k.n;
            c.dim = k.n;
            c.ber = 1e-4;
            c.requestsPerCpu = 25;
            c.window = 4;
            c.responseBytes = 100;
            c.rngRun = 9;
            c.attributes["ns3::DirectLinkChannel::Engine"] = "Reference";
            const MultiprocessorScenarioResult one = MultiprocessorScenario::Run(c);
            c.ranks = k.ranks;
            c.splitRemoteLinks = true;
            const MultiprocessorScenarioResult ranked = MultiprocessorScenario::Run(c);
            NS_TEST_EXPECT_MSG_EQ(one.nLinksAcrossRanks, 0u, k.topology << ": one rank");
            NS_TEST_EXPECT_MSG_EQ(ranked.nLinksAcrossRanks, k.across,
                                  k.topology << ": links between the CPU groups");
            const std::vector<double> a = Fields(one);
            const std::vector<double> b = Fields(ranked);
            for (size_t i = 0; i < a.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(a[i], b[i],
                                      k.topology << " on " << k.ranks << " ranks: field " << i
                                                 << " differs");
            }
            NS_TEST_EXPECT_MSG_GT(one.retransmissions, 0u, k.topology << ": errors happened");
        }
        MultiprocessorScenarioConfig bad;
        bad.topology = "ring";
        bad.n = 4;
        bad.ranks = 5;
        std::string what;
        try
        {
            MultiprocessorScenario::Run(bad);
        }
        catch (const std::invalid_argument& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(what.find("ranks = 5 exceeds the 4 CPUs"), std::string::npos,
                              "more ranks than CPUs: " << what);
        bad.ranks = 0;
        what.clear();
        try
        {
            MultiprocessorScenario::Run(bad);
        }
        catch (const std::invalid_argument& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(what.find("ranks = 0 is out of range"), std::string::npos,
                              "ranks 0: " << what);
    }
};

/**
 * \ingroup rifl-tests
 * \brief Attributes by name apply to one run only; the time limit ends a run.
 */
class MpScenarioAttributesTestCase : public TestCase
{
  public:
    MpScenarioAttributesTestCase()
        : TestCase("Attributes by name apply to their run only; the time limit stops a run")
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorScenarioConfig c;
        c.topology = "ring";
        c.n = 3;
        c.requestsPerCpu = 1;
        c.window = 1;
        c.attributes["ns3::DirectLinkChannel::OneWayDelaySlots"] = "7";
        c.attributes["ns3::DirectLinkChannel::Engine"] = "Reference";
        const MultiprocessorScenarioResult r = MultiprocessorScenario::Run(c);
        NS_TEST_ASSERT_MSG_EQ(r.oneWayDelaySlots, 7u, "the attribute applied");
        NS_TEST_ASSERT_MSG_EQ(r.responsesOk, 3u, "answered");
        c.attributes.clear();
        const MultiprocessorScenarioResult d = MultiprocessorScenario::Run(c);
        NS_TEST_ASSERT_MSG_EQ(d.oneWayDelaySlots, 2u, "the default is back for the next run");
        NS_TEST_ASSERT_MSG_LT(d.latencyNsMax, r.latencyNsMax, "shorter line, lower latency");

        MultiprocessorScenarioConfig l;
        l.requestsPerCpu = 100000;
        l.maxDurationUs = 2.0;
        const MultiprocessorScenarioResult lr = MultiprocessorScenario::Run(l);
        NS_TEST_ASSERT_MSG_EQ(lr.completed, false, "stopped by the time limit");
        NS_TEST_ASSERT_MSG_EQ(lr.durationUs, 2.0, "window = the limit");
        NS_TEST_ASSERT_MSG_GT(lr.requestsOutstanding, 0u, "requests still in flight");
        NS_TEST_ASSERT_MSG_EQ(lr.requestsIssued,
                              lr.responsesOk + lr.requestsOutstanding + lr.requestTimeouts,
                              "every issued request accounted");
    }
};

/**
 * \ingroup rifl-tests
 * \brief RIFL links: the same traffic and accounting as on direct links, RIFL's units in the
 *        link fields.
 */
class MpScenarioRiflLinksTestCase : public TestCase
{
  public:
    MpScenarioRiflLinksTestCase()
        : TestCase("link = rifl: ring of 6 and 3x3 torus at BER 0 and 1e-6 (ReplayTail "
                   "Corrected): every response correct, each hop one port message, replays "
                   "at 1e-6, RIFL's P_ud and line rate; same seed same results")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string topology : {"ring", "torus"})
        {
            for (double ber : {0.0, 1e-6})
            {
                MultiprocessorScenarioConfig c;
                c.link = "rifl";
                c.topology = topology;
                c.n = 6;
                c.ber = ber;
                c.requestsPerCpu = 80;
                c.window = 4;
                c.attributes["ns3::RiflNetDevice::ReplayTail"] = "Corrected";
                const MultiprocessorScenarioResult r = MultiprocessorScenario::Run(c);
                const std::string what = topology + " BER " + std::to_string(ber);
                const uint64_t total = uint64_t(r.nCpus) * c.requestsPerCpu;
                NS_TEST_ASSERT_MSG_EQ(r.link, "rifl", what);
                NS_TEST_ASSERT_MSG_EQ(r.completed, true, what);
                NS_TEST_ASSERT_MSG_EQ(r.responsesOk, total, what << ": every response correct");
                NS_TEST_ASSERT_MSG_EQ(r.requestsServed, total, what << ": served exactly once");
                NS_TEST_ASSERT_MSG_EQ(r.responsesBad + r.responsesErrored + r.responsesLate
                                          + r.responsesUnknown + r.requestTimeouts,
                                      0u, what);
                NS_TEST_ASSERT_MSG_EQ(r.messagesForwarded, r.forwardsExpected, what);
                NS_TEST_ASSERT_MSG_EQ(r.linkMessagesAccepted, r.messagesSent + r.messagesForwarded,
                                      what << ": each hop one port message");
                NS_TEST_ASSERT_MSG_EQ(r.linkMessagesDelivered, r.linkMessagesAccepted, what);
                NS_TEST_ASSERT_MSG_EQ(r.messagesLost + r.contentMismatches + r.undetectedErrors
                                          + r.shutdowns + r.ackTimeouts,
                                      0u, what);
                NS_TEST_ASSERT_MSG_EQ(r.lineRateGbps, 112.0, what << ": 4 lanes x 28 Gb/s");
                NS_TEST_ASSERT_MSG_GT(r.dataMicroPackets, r.linkMessagesAccepted,
                                      what << ": user frames, several per message");
                NS_TEST_ASSERT_MSG_GT(r.linkUtilisationMean, 0.0, what);
                NS_TEST_ASSERT_MSG_LT_OR_EQ(r.linkUtilisationMax, 1.0, what);
                if (ber == 0.0)
                {
                    NS_TEST_ASSERT_MSG_EQ(r.retransmissions + r.crcErrors, 0u, what);
                    NS_TEST_ASSERT_MSG_EQ(r.pUndetected, 0.0, what);
                    NS_TEST_ASSERT_MSG_EQ(std::isinf(r.networkMtbfYears), true, what);
                    continue;
                }
                NS_TEST_ASSERT_MSG_GT(r.retransmissions, 0u, what << ": frames replayed");
                NS_TEST_ASSERT_MSG_GT(r.crcErrors, 0u, what << ": frames failed the check");
                NS_TEST_ASSERT_MSG_EQ(r.pUndetected,
                                      LinkReliabilityModel::RiflUndetectedExact(ber, 256),
                                      what << ": RIFL's exact P_ud of a 256-bit frame");
                NS_TEST_ASSERT_MSG_EQ(std::isfinite(r.networkMtbfYears), true, what);
                const MultiprocessorScenarioResult again = MultiprocessorScenario::Run(c);
                NS_TEST_ASSERT_MSG_EQ(again.retransmissions, r.retransmissions, what << ": seed");
                NS_TEST_ASSERT_MSG_EQ(again.latencyNsP99, r.latencyNsP99, what << ": seed");
            }
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief Bad configurations: std::invalid_argument with the exact message.
 */
class MpScenarioBadInputTestCase : public TestCase
{
  public:
    MpScenarioBadInputTestCase()
        : TestCase("Bad configurations throw std::invalid_argument naming the parameter")
    {
    }

  private:
    void DoRun() override
    {
        struct Bad
        {
            std::function<void(MultiprocessorScenarioConfig&)> set; //!< the change
            std::string message;                                    //!< the exact message
        };
        const std::vector<Bad> bad = {
            {[](auto& c)
             {
                 c.topology = "star";
             },
             "topology = \"star\" is not one of fullmesh, ring, mesh, torus, hypercube"},
            {[](auto& c)
             {
                 c.link = "ethernet";
             },
             "link = \"ethernet\" is not one of direct, rifl"},
            {[](auto& c)
             {
                 c.n = 1;
             },
             "n = 1 is out of range [2, 256]"},
            {[](auto& c)
             {
                 c.topology = "ring";
                 c.n = 2;
             },
             "n = 2 is out of range [3, 256]"},
            {[](auto& c)
             {
                 c.topology = "mesh";
                 c.x = 1;
                 c.y = 1;
             },
             "x * y = 1 is out of range [2, 256]"},
            {[](auto& c)
             {
                 c.topology = "mesh";
                 c.x = 0;
             },
             "x = 0 is out of range [1, 256]"},
            {[](auto& c)
             {
                 c.topology = "torus";
                 c.y = 2;
             },
             "y = 2 is out of range [3, 85]"},
            {[](auto& c)
             {
                 c.topology = "torus";
                 c.x = 16;
                 c.y = 17;
             },
             "x * y = 272 is out of range [9, 256]"},
            {[](auto& c)
             {
                 c.topology = "hypercube";
                 c.dim = 9;
             },
             "dim = 9 is out of range [1, 8]"},
            {[](auto& c)
             {
                 c.deadlockAvoidance = "vc";
             },
             "deadlockAvoidance = \"vc\" is not one of dateline-vcs, dateline-routing, none"},
            {[](auto& c)
             {
                 c.ber = 1.0;
             },
             "ber = 1 is out of range [0, 1)"},
            {[](auto& c)
             {
                 c.ber = NAN;
             },
             "ber = nan is out of range [0, 1)"},
            {[](auto& c)
             {
                 c.requestsPerCpu = 0;
             },
             "requestsPerCpu = 0 is out of range [1, 10000000]"},
            {[](auto& c)
             {
                 c.window = 0;
             },
             "window = 0 is out of range [1, 65536]"},
            {[](auto& c)
             {
                 c.requestBytes = 7;
             },
             "requestBytes = 7 is out of range [8, 4096]"},
            {[](auto& c)
             {
                 c.responseBytes = 4097;
             },
             "responseBytes = 4097 is out of range [4, 4096]"},
            {[](auto& c)
             {
                 c.startUs = -1;
             },
             "startUs = -1 is out of range: 0 or [0.001, 1e6] (1 ns to 1 s)"},
            {[](auto& c)
             {
                 c.maxDurationUs = 0;
             },
             "maxDurationUs = 0 is out of range [0.001, 1e9] (1 ns to 1000 s)"},
            {[](auto& c)
             {
                 c.rngRun = 0;
             },
             "rngRun = 0 must be >= 1"},
            {[](auto& c)
             {
                 c.attributes["ns3::DirectLinkChannel::Ber"] = "0.1";
             },
             "attributes: ns3::DirectLinkChannel::Ber is set by the parameter ber; use that "
             "instead"},
            {[](auto& c)
             {
                 c.attributes["ns3::CpuTrafficApplication::MaxOutstanding"] = "2";
             },
             "attributes: ns3::CpuTrafficApplication::MaxOutstanding is set by the parameter "
             "window; use that instead"},
            {[](auto& c)
             {
                 c.attributes["ns3::DirectLinkChannel::NoSuch"] = "1";
             },
             "attributes[\"ns3::DirectLinkChannel::NoSuch\"]: ns3::DirectLinkChannel has no "
             "attribute NoSuch"},
            {[](auto& c)
             {
                 c.attributes["ns3::DirectLinkChannel::OneWayDelaySlots"] = "x";
             },
             "attributes[\"ns3::DirectLinkChannel::OneWayDelaySlots\"] = \"x\" is not an "
             "integer"},
        };
        for (const Bad& b : bad)
        {
            MultiprocessorScenarioConfig c;
            c.requestsPerCpu = 1;
            b.set(c);
            std::string got = "(no exception)";
            try
            {
                MultiprocessorScenario::Run(c);
            }
            catch (const std::invalid_argument& e)
            {
                got = e.what();
            }
            NS_TEST_EXPECT_MSG_EQ(got, b.message, "the message names the parameter");
        }
        // A rejected attribute value leaves no default behind.
        MultiprocessorScenarioConfig ok;
        ok.requestsPerCpu = 1;
        NS_TEST_ASSERT_MSG_EQ(MultiprocessorScenario::Run(ok).oneWayDelaySlots, 2u,
                              "defaults intact after the errors");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The multiprocessor scenario suite.
 */
class RiflMultiprocessorScenarioTestSuite : public TestSuite
{
  public:
    RiflMultiprocessorScenarioTestSuite()
        : TestSuite("rifl-multiprocessor-scenario", RIFL_TEST_UNIT)
    {
        AddTestCase(new MpScenarioFullMeshLatencyTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MpScenarioAccountingTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MpScenarioErrorsTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MpScenarioAttributesTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MpScenarioBadInputTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MpScenarioSplitLinksTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MpScenarioRiflLinksTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite instance.
RiflMultiprocessorScenarioTestSuite g_riflMultiprocessorScenarioTestSuite;

} // namespace

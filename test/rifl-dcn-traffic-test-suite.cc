/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the data-center traffic and scenario layer: flow-size CDF files
 * (shipped workloads, malformed files), traffic patterns, the RIFL vs
 * Ethernet comparison under bit errors and at BER 0, per-flow ECMP and that
 * no routing or attribute default leaks out of a fabric or a run, and
 * determinism under a fixed run number.
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/dcn-ecmp-routing.h"
#include "ns3/dcn-flow-size-distribution.h"
#include "ns3/dcn-scenario.h"
#include "ns3/dcn-topology-helper.h"
#include "ns3/dcn-traffic-helper.h"
#include "ns3/internet-module.h"
#include "ns3/link-reliability-model.h"
#include "ns3/network-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \brief The message of the std::invalid_argument \p f throws ("" if none).
 * \param f the call.
 * \return the message.
 */
template <typename F>
std::string
ThrownMessage(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \brief The current default of an attribute, as text.
 * \param cls the class, e.g. "ns3::Ipv4GlobalRouting".
 * \param attr the attribute.
 * \return its serialized initial value.
 */
std::string
DefaultOf(const std::string& cls, const std::string& attr)
{
    TypeId tid = TypeId::LookupByName(cls);
    TypeId::AttributeInformation info;
    tid.LookupAttributeByName(attr, &info);
    return info.initialValue->SerializeToString(info.checker);
}

/**
 * \brief A small k = 4 comparison run: 16 TCP flows, a random permutation.
 * \param tech "rifl" or "ethernet".
 * \param ber the BER of every link.
 * \param bytes the flow size.
 * \param udp UDP instead of TCP.
 * \param run the run number.
 * \param timeoutUs the timeout after the traffic start.
 * \return the result.
 */
DcnScenarioResult
RunK4(const std::string& tech, double ber, uint64_t bytes, bool udp = false, uint64_t run = 3,
      double timeoutUs = 1e6)
{
    DcnScenarioConfig c;
    c.k = 4;
    c.technology = tech;
    c.hostBer = c.fabricBer = ber;
    c.traffic.pattern = DcnTrafficConfig::PERMUTATION;
    c.traffic.transport = udp ? DcnTrafficConfig::UDP : DcnTrafficConfig::TCP;
    c.traffic.flowBytes = bytes;
    c.rngRun = run;
    c.timeoutUs = timeoutUs;
    return DcnScenario::Run(c);
}

} // namespace

namespace
{

/**
 * \ingroup rifl-tests
 * \brief Shipped CDFs load with their published points; malformed files name file and line.
 */
class DcnFlowSizeCdfTestCase : public TestCase
{
  public:
    DcnFlowSizeCdfTestCase()
        : TestCase("Flow-size CDFs: web-search and data-mining tables and means, sampling mean, "
                   "malformed files rejected naming file and line")
    {
    }

  private:
    void DoRun() override
    {
        const DcnFlowSizeDistribution ws = DcnFlowSizeDistribution::Load("web-search");
        NS_TEST_ASSERT_MSG_EQ(ws.GetPoints().size(), 12u, "web-search points");
        NS_TEST_EXPECT_MSG_EQ(ws.GetPoints().front().first, 6 * 1460.0, "smallest 6 packets");
        NS_TEST_EXPECT_MSG_EQ(ws.GetPoints()[5].second, 0.53, "53 packets at 0.53");
        NS_TEST_EXPECT_MSG_EQ(ws.GetPoints().back().first, 20000 * 1460.0, "largest 20000");
        const DcnFlowSizeDistribution dm = DcnFlowSizeDistribution::Load("data-mining");
        NS_TEST_ASSERT_MSG_EQ(dm.GetPoints().size(), 9u, "data-mining points");
        NS_TEST_EXPECT_MSG_EQ(dm.GetPoints()[1].second, 0.5, "half the flows one packet");
        NS_TEST_EXPECT_MSG_EQ(dm.GetPoints().back().first, 666667 * 1460.0, "largest");

        // The mean of the interpolated web-search CDF, computed here from the
        // published table in packets: 6 x 0.15 + sum of segment midpoints x mass.
        const double pk[] = {6, 6, 13, 19, 33, 53, 133, 667, 1333, 3333, 6667, 20000};
        const double cdf[] = {0, 0.15, 0.2, 0.3, 0.4, 0.53, 0.6, 0.7, 0.8, 0.9, 0.97, 1};
        double mean = 0;
        for (int i = 1; i < 12; ++i)
        {
            mean += (cdf[i] - cdf[i - 1]) * 0.5 * (pk[i] + pk[i - 1]) * 1460.0;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(ws.GetMeanBytes() / mean, 1.0, 1e-12, "web-search mean");
        // Sampling: 200000 draws, the sample mean within 3 % (the tail's standard
        // error is about 0.6 %).
        Ptr<EmpiricalRandomVariable> v = ws.MakeVariable(11);
        double sum = 0;
        const int n = 200000;
        for (int i = 0; i < n; ++i)
        {
            sum += v->GetValue();
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(sum / n / mean, 1.0, 0.03, "sample mean");

        // Malformed files.
        const std::string path = "rifl-dcn-traffic-test.cdf";
        auto bad = [&path](const std::string& text)
        {
            std::ofstream(path) << text;
            return ThrownMessage(
                [&path]()
                {
                    DcnFlowSizeDistribution::Load(path);
                });
        };
        NS_TEST_EXPECT_MSG_EQ(bad("# c\n100 0\n200 0.5\n300 0.4\n400 1\n"),
                              path + ":4: cdf 0.4 is below the previous point's 0.5", "cdf order");
        NS_TEST_EXPECT_MSG_EQ(bad("100 0\n50 0.5\n400 1\n"),
                              path + ":2: size 50 is below the previous point's 100", "sizes");
        NS_TEST_EXPECT_MSG_EQ(bad("100 0\n200 0.5 7\n"),
                              path + ":2: expected \"size_bytes cdf\", got 3 fields", "fields");
        NS_TEST_EXPECT_MSG_EQ(bad("100 0\nabc 0.5\n"), path + ":2: size \"abc\" is not a number",
                              "number");
        NS_TEST_EXPECT_MSG_EQ(bad("100 0\n200 1.5\n"), path + ":2: cdf 1.5 is outside [0, 1]",
                              "range");
        NS_TEST_EXPECT_MSG_EQ(bad("100 0\n\n200 0.9\n"),
                              path + ":3: the last cdf is 0.9, it must be 1", "last");
        NS_TEST_EXPECT_MSG_EQ(bad("0 0\n200 1\n"), path + ":1: size 0 must be > 0 bytes", "size");
        NS_TEST_EXPECT_MSG_EQ(bad("# only a comment\n"), path + ": no \"size_bytes cdf\" points",
                              "empty");
        std::remove(path.c_str());
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage(
                                  []()
                                  {
                                      DcnFlowSizeDistribution::Load("no-such-dir/x.cdf");
                                  }),
                              "flowSizeCdf = \"no-such-dir/x.cdf\" cannot be opened", "missing");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Pattern structure, determinism of the draws, bad traffic input.
 */
class DcnTrafficPatternTestCase : public TestCase
{
  public:
    DcnTrafficPatternTestCase()
        : TestCase("Traffic patterns on a k = 4 fat-tree: permutation is a derangement, "
                   "all-to-all n(n-1), incast, Poisson arrivals; same streams same flows")
    {
    }

  private:
    /**
     * \brief Draw flows on a fresh k = 4 fabric.
     * \param c the traffic.
     * \param stream the first stream.
     * \return the flows.
     */
    static std::vector<DcnFlowRecord> Draw(const DcnTrafficConfig& c, int64_t stream)
    {
        DcnTopologyHelper dcn;
        dcn.InstallFatTree(4);
        DcnTrafficHelper t(c);
        t.AssignStreams(stream);
        t.Install(dcn);
        std::vector<DcnFlowRecord> f = t.GetFlows();
        Simulator::Destroy();
        return f;
    }

    void DoRun() override
    {
        DcnTrafficConfig c;
        c.pattern = DcnTrafficConfig::PERMUTATION;
        const std::vector<DcnFlowRecord> p = Draw(c, 5);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 16u, "one flow per host");
        std::set<uint32_t> dsts;
        bool identity = false;
        for (uint32_t i = 0; i < p.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p[i].src, i, "source order");
            dsts.insert(p[i].dst);
            identity = identity || p[i].dst == p[i].src;
            NS_TEST_EXPECT_MSG_EQ(p[i].bytes, c.flowBytes, "fixed size");
        }
        NS_TEST_EXPECT_MSG_EQ(dsts.size(), 16u, "every host receives once");
        NS_TEST_EXPECT_MSG_EQ(identity, false, "no host sends to itself");
        const std::vector<DcnFlowRecord> p2 = Draw(c, 5);
        const std::vector<DcnFlowRecord> p3 = Draw(c, 6);
        bool same = true;
        bool differ = false;
        for (uint32_t i = 0; i < 16; ++i)
        {
            same = same && p2[i].dst == p[i].dst;
            differ = differ || p3[i].dst != p[i].dst;
        }
        NS_TEST_EXPECT_MSG_EQ(same, true, "same stream, same permutation");
        NS_TEST_EXPECT_MSG_EQ(differ, true, "another stream, another permutation");

        c.pattern = DcnTrafficConfig::ALL_TO_ALL;
        c.flowSizeCdf = "web-search";
        const std::vector<DcnFlowRecord> a = Draw(c, 5);
        NS_TEST_EXPECT_MSG_EQ(a.size(), 240u, "n (n - 1)");
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        bool sizesOk = true;
        for (const auto& f : a)
        {
            pairs.insert({f.src, f.dst});
            sizesOk = sizesOk && f.bytes >= 6 * 1460 && f.bytes <= 20000 * 1460;
        }
        NS_TEST_EXPECT_MSG_EQ(pairs.size(), 240u, "every ordered pair once");
        NS_TEST_EXPECT_MSG_EQ(sizesOk, true, "sizes inside the web-search support");

        c.pattern = DcnTrafficConfig::INCAST;
        c.flowSizeCdf.clear();
        c.incastReceiver = 3;
        c.incastSenders = 5;
        const std::vector<DcnFlowRecord> in = Draw(c, 5);
        NS_TEST_ASSERT_MSG_EQ(in.size(), 5u, "5 senders");
        std::set<uint32_t> senders;
        for (const auto& f : in)
        {
            NS_TEST_EXPECT_MSG_EQ(f.dst, 3u, "to the receiver");
            NS_TEST_EXPECT_MSG_NE(f.src, 3u, "not from the receiver");
            senders.insert(f.src);
        }
        NS_TEST_EXPECT_MSG_EQ(senders.size(), 5u, "distinct senders");

        c.pattern = DcnTrafficConfig::RANDOM;
        c.flowsPerHost = 50;
        c.load = 0.5;
        c.flowBytes = 100000;
        const std::vector<DcnFlowRecord> r = Draw(c, 5);
        NS_TEST_ASSERT_MSG_EQ(r.size(), 800u, "16 x 50");
        // Mean gap = 100 kB x 8 / (0.5 x 112 Gb/s) = 14.2857 us; 800 gaps: within 15 %.
        double lastStart = 0;
        for (uint32_t h = 0; h < 16; ++h)
        {
            lastStart += r[h * 50 + 49].startNs - c.start.GetNanoSeconds();
            for (uint32_t f = 1; f < 50; ++f)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(r[h * 50 + f].startNs, r[h * 50 + f - 1].startNs,
                                            "arrivals in order");
                NS_TEST_EXPECT_MSG_NE(r[h * 50 + f].dst, h, "no self traffic");
            }
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(lastStart / 800.0 / 14285.714, 1.0, 0.15, "Poisson rate");

        DcnTrafficConfig b;
        b.load = 0;
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage(
                                  [&b]()
                                  {
                                      DcnTrafficHelper t(b);
                                  }),
                              "load = 0 is outside (0, 1]", "load");
        b = DcnTrafficConfig();
        b.pattern = DcnTrafficConfig::INCAST;
        b.incastReceiver = 16;
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage(
                                  [&b]()
                                  {
                                      Draw(b, 1);
                                  }),
                              "incastReceiver = 16 is outside [0, 16)", "receiver");
        Simulator::Destroy();
        b = DcnTrafficConfig();
        b.flowBytes = 0;
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage(
                                  [&b]()
                                  {
                                      DcnTrafficHelper t(b);
                                  }),
                              "flowBytes = 0 is outside [1, 2^32 - 1]", "size");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The comparison is real: at BER 1e-6 the baseline loses packets to
 *        corruption and TCP retransmits; RIFL loses none and delivers every flow.
 */
class DcnRiflVsEthernetTcpTestCase : public TestCase
{
  public:
    DcnRiflVsEthernetTcpTestCase()
        : TestCase("k = 4 fat-tree, 16 TCP flows of 200 kB, BER 1e-6 on 1500 B frames: Ethernet "
                   "(PointToPoint and CSMA) loses packets and retransmits, RIFL loses none, "
                   "retransmits none, delivers all")
    {
    }

  private:
    void DoRun() override
    {
        const DcnScenarioResult e = RunK4("ethernet", 1e-6, 200000);
        const DcnScenarioResult r = RunK4("rifl", 1e-6, 200000);
        NS_TEST_ASSERT_MSG_EQ(e.flows.size(), 16u, "flows");
        // Baseline: a 1502 B packet is lost with probability 1 - (1 - 1e-6)^12016 = 1.2 % per hop.
        NS_TEST_EXPECT_MSG_GT(e.packetsLostToCorruption, 0u, "baseline corruption losses");
        NS_TEST_EXPECT_MSG_EQ(e.packetsLostToCorruption,
                              e.hostTier.corruptionDrops + e.fabricTier.corruptionDrops,
                              "losses are the error models' drops");
        NS_TEST_EXPECT_MSG_EQ(e.hostTier.rxDrops + e.fabricTier.rxDrops, e.packetsLostToCorruption,
                              "every corruption is a PhyRxDrop");
        NS_TEST_EXPECT_MSG_GT(e.tcpRetransmissions, 0u, "baseline TCP retransmissions");
        NS_TEST_EXPECT_MSG_EQ(e.queueDrops, 0u, "no congestion loss (1000-packet queues)");
        // RIFL: errors happened and were repaired on the links.
        NS_TEST_EXPECT_MSG_GT(r.hostTier.riflErrorsDetected + r.fabricTier.riflErrorsDetected, 0u,
                              "RIFL detected errors");
        NS_TEST_EXPECT_MSG_GT(r.hostTier.riflReplays + r.fabricTier.riflReplays, 0u, "replays");
        NS_TEST_EXPECT_MSG_EQ(r.packetsLostToCorruption, 0u, "RIFL: no corruption loss");
        NS_TEST_EXPECT_MSG_EQ(r.hostTier.riflUndetected + r.fabricTier.riflUndetected, 0u,
                              "no undetected error");
        NS_TEST_EXPECT_MSG_EQ(r.queueDrops, 0u, "RIFL: no queue drops");
        NS_TEST_EXPECT_MSG_EQ(r.tcpRetransmissions, 0u, "RIFL: no TCP retransmission");
        NS_TEST_EXPECT_MSG_EQ(r.tcpTimeouts, 0u, "RIFL: no TCP timeout");
        NS_TEST_EXPECT_MSG_EQ(r.flowsCompleted, 16u, "RIFL delivers every flow");
        NS_TEST_EXPECT_MSG_EQ(r.bytesReceived, r.bytesOffered, "every byte");
        uint64_t exact = 0;
        for (const DcnFlowRecord& f : r.flows)
        {
            exact += f.bytesReceived == f.bytes ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(exact, 16u, "each flow received exactly its bytes");
        NS_TEST_EXPECT_MSG_EQ(e.flows.size(), r.flows.size(), "same flows");
        for (uint32_t i = 0; i < e.flows.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(e.flows[i].dst, r.flows[i].dst, "same permutation");
        }
        NS_TEST_EXPECT_MSG_LT(r.fctUsP99, e.fctUsP99, "RIFL's tail FCT is shorter");
        // The CSMA baseline (Ethernet frames on two-port CSMA channels) loses packets too.
        const DcnScenarioResult m = RunK4("csma", 1e-6, 200000);
        NS_TEST_EXPECT_MSG_GT(m.packetsLostToCorruption, 0u, "CSMA corruption losses");
        NS_TEST_EXPECT_MSG_GT(m.tcpRetransmissions, 0u, "CSMA TCP retransmissions");
        NS_TEST_EXPECT_MSG_EQ(m.report.ethernetDirections, 96u, "report: 96 CSMA directions");
        NS_TEST_EXPECT_MSG_EQ(m.report.ethernetPacketsLost, m.packetsLostToCorruption,
                              "report: CSMA losses");
        // The report sees the same network.
        NS_TEST_EXPECT_MSG_EQ(r.report.riflDirections, 96u, "2 x 48 RIFL directions");
        NS_TEST_EXPECT_MSG_EQ(e.report.ethernetPacketsLost, e.packetsLostToCorruption,
                              "report: baseline losses");
    }
};

/**
 * \ingroup rifl-tests
 * \brief At BER 0 both technologies give the same goodput within RIFL's framing overhead.
 */
class DcnGoodputBer0TestCase : public TestCase
{
  public:
    DcnGoodputBer0TestCase()
        : TestCase(
            "k = 4 fat-tree at BER 0: RIFL to Ethernet goodput ratio = RIFL framing efficiency "
            "of a 1502 B packet (0.9203) within 0.02 (UDP), in [eff - 0.10, eff + 0.02] (TCP)")
    {
    }

  private:
    void DoRun() override
    {
        // Both carry 1500 B IP packets + the 2-byte PPP field; RIFL puts 1502 B
        // in ceil(1502 / 30) = 51 frames of 32 B.
        const double eff = LinkReliabilityModel::RiflFramingEfficiency(1502, 256);
        NS_TEST_ASSERT_MSG_EQ_TOL(eff, 1502.0 / (51 * 32), 1e-12, "framing efficiency");

        // UDP paced at the host line rate: the links are the only limit.
        const DcnScenarioResult eu = RunK4("ethernet", 0.0, 300000, true);
        const DcnScenarioResult ru = RunK4("rifl", 0.0, 300000, true);
        NS_TEST_EXPECT_MSG_EQ(eu.flowsCompleted, 16u, "Ethernet UDP complete");
        NS_TEST_EXPECT_MSG_EQ(ru.flowsCompleted, 16u, "RIFL UDP complete");
        NS_TEST_EXPECT_MSG_EQ(eu.packetsLostToCorruption + ru.packetsLostToCorruption, 0u, "BER 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(ru.goodputGbps / eu.goodputGbps, eff, 0.02, "UDP goodput ratio");

        // TCP: the same, less tight (slow start is RTT-bound and RIFL's hops
        // add frame-pipeline latency; ACKs take 2 frames).
        const DcnScenarioResult et = RunK4("ethernet", 0.0, 300000);
        const DcnScenarioResult rt = RunK4("rifl", 0.0, 300000);
        NS_TEST_EXPECT_MSG_EQ(et.flowsCompleted + rt.flowsCompleted, 32u, "TCP complete");
        NS_TEST_EXPECT_MSG_EQ(et.tcpRetransmissions + rt.tcpRetransmissions, 0u, "no loss");
        // Measured 0.866 at run 3 (300 kB flows): no better than the framing
        // allows, and within 0.10 below it.
        const double tcpRatio = rt.goodputGbps / et.goodputGbps;
        NS_TEST_EXPECT_MSG_LT(tcpRatio, eff + 0.02, "TCP: RIFL no better than its framing allows");
        NS_TEST_EXPECT_MSG_GT(tcpRatio, eff - 0.10, "TCP: at most 0.10 below the framing bound");
    }
};

/**
 * \ingroup rifl-tests
 * \brief ECMP stays inside its fabric; per-flow ECMP keeps a flow on one path and spreads flows.
 */
class DcnEcmpScopeTestCase : public TestCase
{
  public:
    DcnEcmpScopeTestCase()
        : TestCase("ECMP: per-packet mode sets RandomEcmpRouting on the fabric's routing objects "
                   "only (the default and later stacks keep false); per-flow hashing spreads")
    {
    }

  private:
    /**
     * \param n a node.
     * \return its Ipv4GlobalRouting (null if none).
     */
    static Ptr<Ipv4GlobalRouting> GlobalOf(Ptr<Node> n)
    {
        Ptr<Ipv4ListRouting> list
            = DynamicCast<Ipv4ListRouting>(n->GetObject<Ipv4>()->GetRoutingProtocol());
        for (uint32_t j = 0; list && j < list->GetNRoutingProtocols(); ++j)
        {
            int16_t prio;
            if (Ptr<Ipv4GlobalRouting> g
                = DynamicCast<Ipv4GlobalRouting>(list->GetRoutingProtocol(j, prio)))
            {
                return g;
            }
        }
        return nullptr;
    }

    void DoRun() override
    {
        const std::string before = DefaultOf("ns3::Ipv4GlobalRouting", "RandomEcmpRouting");
        NS_TEST_ASSERT_MSG_EQ(before, "false", "ns-3 default");
        {
            DcnTopologyHelper dcn;
            dcn.SetEcmpMode(DcnTopologyHelper::ECMP_PER_PACKET);
            dcn.InstallFatTree(4);
            uint32_t on = 0;
            for (uint32_t i = 0; i < dcn.GetAllNodes().GetN(); ++i)
            {
                BooleanValue b;
                GlobalOf(dcn.GetAllNodes().Get(i))->GetAttribute("RandomEcmpRouting", b);
                on += b.Get() ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(on, dcn.GetAllNodes().GetN(), "set on every fabric node");
            NS_TEST_EXPECT_MSG_EQ(DefaultOf("ns3::Ipv4GlobalRouting", "RandomEcmpRouting"), "false",
                                  "the default is untouched");
            // A stack installed afterwards in the same simulation does not inherit it.
            NodeContainer other;
            other.Create(1);
            InternetStackHelper().Install(other);
            BooleanValue b;
            GlobalOf(other.Get(0))->GetAttribute("RandomEcmpRouting", b);
            NS_TEST_EXPECT_MSG_EQ(b.Get(), false, "later stacks keep the default");
            Simulator::Destroy();
        }
        {
            DcnTopologyHelper dcn; // per-flow: no global routing attribute touched
            dcn.InstallFatTree(4);
            uint32_t on = 0;
            for (uint32_t i = 0; i < dcn.GetAllNodes().GetN(); ++i)
            {
                BooleanValue b;
                GlobalOf(dcn.GetAllNodes().Get(i))->GetAttribute("RandomEcmpRouting", b);
                on += b.Get() ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(on, 0u, "per-flow mode leaves ns-3's global routing alone");
            // Equal-cost next hops of a k = 4 fat-tree toward a host in another pod:
            // host 1, edge 2 (k/2), aggregation 2, core 1.
            std::shared_ptr<const DcnRouteTable> t = dcn.GetRouteTable();
            NS_TEST_ASSERT_MSG_EQ((t != nullptr), true, "table");
            auto hops = [&dcn](Ptr<Node> n, uint32_t host)
            {
                Ptr<Ipv4ListRouting> list
                    = DynamicCast<Ipv4ListRouting>(n->GetObject<Ipv4>()->GetRoutingProtocol());
                int16_t prio;
                Ptr<DcnEcmpRouting> r
                    = DynamicCast<DcnEcmpRouting>(list->GetRoutingProtocol(0, prio));
                return r ? r->GetNextHops(host).size() : 99;
            };
            NS_TEST_EXPECT_MSG_EQ(hops(dcn.GetHosts().Get(0), 15), 1u, "host");
            NS_TEST_EXPECT_MSG_EQ(hops(dcn.GetEdgeSwitches().Get(0), 15), 2u, "edge");
            NS_TEST_EXPECT_MSG_EQ(hops(dcn.GetAggregationSwitches().Get(0), 15), 2u, "aggregation");
            NS_TEST_EXPECT_MSG_EQ(hops(dcn.GetCoreSwitches().Get(0), 15), 1u, "core");
            NS_TEST_EXPECT_MSG_EQ(hops(dcn.GetEdgeSwitches().Get(0), 1), 1u, "same edge: 1 port");
            // The hash spreads 1000 flows over the 2 up-ports of an edge switch.
            Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(
                dcn.GetEdgeSwitches().Get(0)->GetObject<Ipv4>()->GetRoutingProtocol());
            int16_t prio;
            Ptr<DcnEcmpRouting> edge
                = DynamicCast<DcnEcmpRouting>(list->GetRoutingProtocol(0, prio));
            uint32_t first = 0;
            for (uint16_t port = 0; port < 1000; ++port)
            {
                Ipv4Header h;
                h.SetSource(dcn.GetHostAddress(0));
                h.SetDestination(dcn.GetHostAddress(15));
                h.SetProtocol(6);
                uint8_t b[4] = {uint8_t(port >> 8), uint8_t(port), 0x13, 0x88};
                Ptr<Packet> p = Create<Packet>(b, 4);
                first += edge->FlowHash(h, p) % 2 == 0 ? 1 : 0;
                NS_TEST_EXPECT_MSG_EQ(edge->FlowHash(h, p), edge->FlowHash(h, p->Copy()),
                                      "a flow always hashes the same");
            }
            NS_TEST_EXPECT_MSG_GT(first, 400u, "spread (lower)");
            NS_TEST_EXPECT_MSG_LT(first, 600u, "spread (upper)");
            Simulator::Destroy();
        }
        // A cross-pod TCP flow over per-flow ECMP (one path, no reordering) completes
        // without a single retransmission, and the run leaves the default alone.
        DcnScenarioConfig c;
        c.traffic.pattern = DcnTrafficConfig::INCAST;
        c.traffic.incastReceiver = 15;
        c.traffic.incastSenders = 1;
        c.traffic.flowBytes = 100000;
        c.report = false;
        const DcnScenarioResult one = DcnScenario::Run(c);
        NS_TEST_EXPECT_MSG_EQ(one.flowsCompleted, 1u, "completed");
        NS_TEST_EXPECT_MSG_EQ(one.tcpRetransmissions, 0u, "no reordering retransmissions");
        NS_TEST_EXPECT_MSG_EQ(DefaultOf("ns3::Ipv4GlobalRouting", "RandomEcmpRouting"), "false",
                              "the default is still untouched");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Same run number, same bits; attribute defaults are restored after a run.
 */
class DcnDeterminismTestCase : public TestCase
{
  public:
    DcnDeterminismTestCase()
        : TestCase("DcnScenario: same run number gives identical flows and losses, another "
                   "differs; attribute defaults restored; bad input names the field")
    {
    }

  private:
    void DoRun() override
    {
        const DcnScenarioResult a = RunK4("ethernet", 1e-6, 100000, true, 4, 500);
        const DcnScenarioResult b = RunK4("ethernet", 1e-6, 100000, true, 4, 500);
        const DcnScenarioResult d = RunK4("ethernet", 1e-6, 100000, true, 5, 500);
        NS_TEST_ASSERT_MSG_EQ(a.flows.size(), b.flows.size(), "flows");
        bool same = a.packetsLostToCorruption == b.packetsLostToCorruption;
        for (uint32_t i = 0; i < a.flows.size(); ++i)
        {
            same = same && a.flows[i].dst == b.flows[i].dst
                   && a.flows[i].bytesReceived == b.flows[i].bytesReceived
                   && a.flows[i].endNs == b.flows[i].endNs;
        }
        NS_TEST_EXPECT_MSG_EQ(same, true, "same run, same bits");
        NS_TEST_EXPECT_MSG_GT(a.packetsLostToCorruption, 0u, "UDP baseline loses datagrams");
        NS_TEST_EXPECT_MSG_LT(a.flowsCompleted, 16u, "a lost datagram leaves a UDP flow short");
        bool differ = a.packetsLostToCorruption != d.packetsLostToCorruption;
        for (uint32_t i = 0; i < a.flows.size(); ++i)
        {
            differ = differ || a.flows[i].dst != d.flows[i].dst
                     || a.flows[i].bytesReceived != d.flows[i].bytesReceived;
        }
        NS_TEST_EXPECT_MSG_EQ(differ, true, "another run differs");

        // Attribute defaults are applied for the run and restored after it.
        const std::string cwnd = DefaultOf("ns3::TcpSocket", "InitialCwnd");
        DcnScenarioConfig c;
        c.k = 2;
        c.traffic.flowBytes = 20000;
        c.attributes["ns3::TcpSocket::InitialCwnd"] = "2";
        c.report = false;
        const DcnScenarioResult small = DcnScenario::Run(c);
        NS_TEST_EXPECT_MSG_EQ(small.flowsCompleted, 2u, "k = 2 run");
        NS_TEST_EXPECT_MSG_EQ(DefaultOf("ns3::TcpSocket", "InitialCwnd"), cwnd, "restored");

        c.attributes["ns3::TcpSocket::NoSuch"] = "1";
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage(
                                  [&c]()
                                  {
                                      DcnScenario::Run(c);
                                  }),
                              "attributes[\"ns3::TcpSocket::NoSuch\"]: ns3::TcpSocket has no "
                              "attribute NoSuch",
                              "bad attribute");
        NS_TEST_EXPECT_MSG_EQ(DefaultOf("ns3::TcpSocket", "InitialCwnd"), cwnd,
                              "restored after a failed run");
        c.attributes.clear();
        c.technology = "fddi";
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage(
                                  [&c]()
                                  {
                                      DcnScenario::Run(c);
                                  }),
                              "technology = \"fddi\" must be \"rifl\", \"ethernet\" or \"csma\"",
                              "tech");
        c.technology = "rifl";
        c.k = 5;
        NS_TEST_EXPECT_MSG_EQ(ThrownMessage(
                                  [&c]()
                                  {
                                      DcnScenario::Run(c);
                                  }),
                              "k = 5 must be even and in [2, 64]", "k");
        NS_TEST_EXPECT_MSG_EQ(NodeList::GetNNodes(), 0u, "nothing left behind");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The rifl-dcn-traffic suite.
 */
class RiflDcnTrafficTestSuite : public TestSuite
{
  public:
    RiflDcnTrafficTestSuite()
        : TestSuite("rifl-dcn-traffic", RIFL_TEST_UNIT)
    {
        AddTestCase(new DcnFlowSizeCdfTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnTrafficPatternTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnEcmpScopeTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnDeterminismTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnRiflVsEthernetTcpTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnGoodputBer0TestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's static instance.
RiflDcnTrafficTestSuite g_riflDcnTrafficTestSuite;

} // namespace

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of DcnTopologyHelper (fat-tree and leaf-spine structure, all-pairs
 * reachability, RIFL vs the Ethernet baseline under bit errors) and of
 * ReliabilityReportHelper (network MTBF = harmonic sum of per-direction MTBFs).
 */

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/core-module.h"
#include "ns3/csma-net-device.h"
#include "ns3/dcn-topology-helper.h"
#include "ns3/exact-bit-error-model.h"
#include "ns3/internet-module.h"
#include "ns3/link-reliability-model.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/reliability-report-helper.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-net-device.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Time the RIFL links are surely up (Startup = Short) before traffic starts.
const Time TRAFFIC_START = MicroSeconds(200);

/// What the receivers saw: per (receiver host, source address) packet counts.
struct RxMatrix
{
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> count; //!< (rx host, src addr) -> packets
    uint64_t total{0};                                       //!< all packets
    uint64_t badSize{0};                                     //!< packets of an unexpected size
    uint32_t expectedSize{0};                                //!< payload size
};

/**
 * \brief Socket receive callback.
 * \param m the matrix.
 * \param host the receiving host index.
 * \param socket the socket.
 */
void
OnRx(RxMatrix* m, uint32_t host, Ptr<Socket> socket)
{
    Ptr<Packet> p;
    Address from;
    while ((p = socket->RecvFrom(from)))
    {
        const uint32_t src = InetSocketAddress::ConvertFrom(from).GetIpv4().Get();
        ++m->count[{host, src}];
        ++m->total;
        if (p->GetSize() != m->expectedSize)
        {
            ++m->badSize;
        }
    }
}

/**
 * \brief Send one datagram.
 * \param s the socket.
 * \param to the destination.
 * \param size payload bytes.
 */
void
SendTo(Ptr<Socket> s, Ipv4Address to, uint32_t size)
{
    s->SendTo(Create<Packet>(size), 0, InetSocketAddress(to, 9));
}

/// UDP sockets on every host of a topology.
struct Udp
{
    std::vector<Ptr<Socket>> tx; //!< per host
    RxMatrix rx;                 //!< what arrived

    /**
     * \brief Open a receiver (port 9) and a sender on every host.
     * \param dcn the topology.
     * \param size payload bytes.
     */
    Udp(const DcnTopologyHelper& dcn, uint32_t size)
    {
        rx.expectedSize = size;
        NodeContainer hosts = dcn.GetHosts();
        for (uint32_t i = 0; i < hosts.GetN(); ++i)
        {
            Ptr<Socket> r = Socket::CreateSocket(hosts.Get(i), UdpSocketFactory::GetTypeId());
            r->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            r->SetRecvCallback(MakeBoundCallback(&OnRx, &rx, i));
            Ptr<Socket> t = Socket::CreateSocket(hosts.Get(i), UdpSocketFactory::GetTypeId());
            t->Bind();
            tx.push_back(t);
        }
    }
};

/**
 * \brief Send one datagram between every ordered host pair and check all arrive.
 * \param dcn the topology (already installed).
 * \return true if every pair got exactly one packet.
 */
bool
AllPairsReachable(const DcnTopologyHelper& dcn)
{
    Udp udp(dcn, 64);
    const uint32_t n = dcn.GetHosts().GetN();
    uint32_t idx = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i != j)
            {
                Simulator::Schedule(TRAFFIC_START + NanoSeconds(100) * idx++, &SendTo, udp.tx[i],
                                    dcn.GetHostAddress(j), 64);
            }
        }
    }
    Simulator::Stop(TRAFFIC_START + NanoSeconds(100) * idx + MicroSeconds(100));
    Simulator::Run();
    bool ok = udp.rx.total == uint64_t(n) * (n - 1) && udp.rx.badSize == 0;
    for (uint32_t i = 0; ok && i < n; ++i)
    {
        for (uint32_t j = 0; ok && j < n; ++j)
        {
            if (i != j)
            {
                auto it = udp.rx.count.find({j, dcn.GetHostAddress(i).Get()});
                ok = it != udp.rx.count.end() && it->second == 1;
            }
        }
    }
    return ok;
}

/**
 * \brief Count the nodes of a container with IPv4 forwarding on every interface.
 * \param c nodes.
 * \return how many forward.
 */
uint32_t
Forwarding(const NodeContainer& c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        Ptr<Ipv4> ip = c.Get(i)->GetObject<Ipv4>();
        bool all = ip && ip->GetNInterfaces() > 1;
        for (uint32_t k = 1; all && k < ip->GetNInterfaces(); ++k)
        {
            all = ip->IsForwarding(k);
        }
        n += all ? 1 : 0;
    }
    return n;
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Fat-tree structure and all-pairs reachability for one k.
 */
class DcnFatTreeStructureTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param k the fat-tree arity.
     * \param tech the link technology.
     */
    DcnFatTreeStructureTestCase(uint32_t k, DcnTopologyHelper::LinkTechnology tech)
        : TestCase("Fat-tree k = " + std::to_string(k) + " over "
                   + (tech == DcnTopologyHelper::RIFL       ? "RIFL"
                      : tech == DcnTopologyHelper::ETHERNET ? "Ethernet"
                                                            : "CSMA")
                   + ": node and link counts, every host pair reachable")
        , m_k(k)
        , m_tech(tech)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t k = m_k;
        DcnTopologyHelper dcn;
        dcn.SetLinkTechnology(m_tech);
        dcn.InstallFatTree(k);
        dcn.AssignStreams(1);
        NS_TEST_ASSERT_MSG_EQ(dcn.GetHosts().GetN(), k * k * k / 4, "hosts k^3/4");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetEdgeSwitches().GetN(), k * k / 2, "edge k^2/2");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetAggregationSwitches().GetN(), k * k / 2, "aggregation k^2/2");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetCoreSwitches().GetN(), k * k / 4, "core k^2/4");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetSwitches().GetN(), 5 * k * k / 4, "switches 5k^2/4");
        NS_TEST_ASSERT_MSG_EQ(DcnTopologyHelper::FatTreeSwitchCount(k), 5 * k * k / 4, "static");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetNLinks(), 3 * k * k * k / 4, "links 3k^3/4");
        NS_TEST_ASSERT_MSG_EQ(DcnTopologyHelper::FatTreeLinkCount(k), 3 * k * k * k / 4, "static");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetHostLinkDevices().GetN(), 2 * k * k * k / 4, "host devices");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetFabricLinkDevices().GetN(), 4 * k * k * k / 4, "fabric");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetLinkDevices().GetN(), 6 * k * k * k / 4, "all devices");
        // Port counts: every switch has k ports (core: one per pod), hosts one.
        for (uint32_t i = 0; i < dcn.GetSwitches().GetN(); ++i)
        {
            // k link ports + the loopback device of the Internet stack.
            NS_TEST_ASSERT_MSG_EQ(dcn.GetSwitches().Get(i)->GetNDevices(), k + 1, "switch ports");
        }
        for (uint32_t i = 0; i < dcn.GetHosts().GetN(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(dcn.GetHosts().Get(i)->GetNDevices(), 2u, "host port + loopback");
        }
        NS_TEST_ASSERT_MSG_EQ(Forwarding(dcn.GetSwitches()), dcn.GetSwitches().GetN(),
                              "every switch forwards IPv4");
        // No queue disc in front of any port: the device queue is the port buffer.
        uint32_t qdiscs = 0;
        for (uint32_t i = 0; i < dcn.GetLinkDevices().GetN(); ++i)
        {
            Ptr<NetDevice> d = dcn.GetLinkDevices().Get(i);
            Ptr<TrafficControlLayer> tc = d->GetNode()->GetObject<TrafficControlLayer>();
            qdiscs += (tc && tc->GetRootQueueDiscOnDevice(d)) ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(qdiscs, 0u, "no root queue disc on a link device");
        const bool isRifl = DynamicCast<RiflNetDevice>(dcn.GetLinkDevices().Get(0)) != nullptr;
        NS_TEST_ASSERT_MSG_EQ(isRifl, (m_tech == DcnTopologyHelper::RIFL), "technology");
        const bool isCsma = DynamicCast<CsmaNetDevice>(dcn.GetLinkDevices().Get(0)) != nullptr;
        NS_TEST_ASSERT_MSG_EQ(isCsma, (m_tech == DcnTopologyHelper::CSMA), "CSMA devices");
        NS_TEST_ASSERT_MSG_EQ(AllPairsReachable(dcn), true, "every ordered host pair reachable");
        Simulator::Destroy();
    }

    uint32_t m_k;                             //!< arity
    DcnTopologyHelper::LinkTechnology m_tech; //!< technology
};

/**
 * \ingroup rifl-tests
 * \brief Leaf-spine structure and reachability.
 */
class DcnLeafSpineStructureTestCase : public TestCase
{
  public:
    DcnLeafSpineStructureTestCase()
        : TestCase("Leaf-spine 4 leaves, 2 spines, 3 hosts per leaf over RIFL: counts, "
                   "reachability")
    {
    }

  private:
    void DoRun() override
    {
        DcnTopologyHelper dcn;
        dcn.SetHostLinkParameters(DataRate("28Gbps"), 3.0, 0.0);
        dcn.SetFabricLinkParameters(DataRate("112Gbps"), 50.0, 0.0);
        dcn.InstallLeafSpine(4, 2, 3);
        NS_TEST_ASSERT_MSG_EQ(dcn.GetHosts().GetN(), 12u, "hosts");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetLeafSwitches().GetN(), 4u, "leaves");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetSpineSwitches().GetN(), 2u, "spines");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetAggregationSwitches().GetN(), 0u, "no aggregation");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetSwitches().GetN(), 6u, "switches");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetNLinks(), 20u, "links 4 x (2 + 3)");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetHostLinkDevices().GetN(), 24u, "host devices");
        NS_TEST_ASSERT_MSG_EQ(dcn.GetFabricLinkDevices().GetN(), 16u, "fabric devices");
        Ptr<RiflNetDevice> h = DynamicCast<RiflNetDevice>(dcn.GetHostLinkDevices().Get(0));
        Ptr<RiflNetDevice> f = DynamicCast<RiflNetDevice>(dcn.GetFabricLinkDevices().Get(0));
        NS_TEST_ASSERT_MSG_EQ(h->GetDataRate(), DataRate("28Gbps"), "host tier rate");
        NS_TEST_ASSERT_MSG_EQ(f->GetDataRate(), DataRate("112Gbps"), "fabric tier rate");
        DoubleValue len;
        f->GetChannel()->GetAttribute("CableLength", len);
        NS_TEST_ASSERT_MSG_EQ(len.Get(), 50.0, "fabric cable length");
        NS_TEST_ASSERT_MSG_EQ(AllPairsReachable(dcn), true, "every ordered host pair reachable");
        Simulator::Destroy();
    }
};

/// Result of one cross-pod UDP run on a k = 4 fat-tree.
struct FlowRun
{
    uint64_t sent{0};                       //!< datagrams sent
    uint64_t received{0};                   //!< datagrams received
    uint64_t badSize{0};                    //!< wrong sizes
    uint64_t corrupted{0};                  //!< ExactBitErrorModel corruptions (baseline)
    uint64_t detected{0};                   //!< RIFL detected errors
    ReliabilityReportHelper::Report report; //!< the report at the end
    std::string json;                       //!< its JSON
    double independentMtbf{0.0};            //!< harmonic sum computed by the test
};

/**
 * \brief Run 16 cross-pod flows (host i -> host i + 8 mod 16), 50 datagrams of
 *        1472 B (1500 B IP) each at 10 us spacing, on a k = 4 fat-tree.
 * \param tech the technology.
 * \param ber the BER of every link.
 * \return counts and the report.
 */
FlowRun
RunFlows(DcnTopologyHelper::LinkTechnology tech, double ber)
{
    FlowRun out;
    DcnTopologyHelper dcn;
    dcn.SetLinkTechnology(tech);
    dcn.SetBer(ber);
    dcn.InstallFatTree(4);
    dcn.AssignStreams(7);
    const uint32_t size = 1472;
    Udp udp(dcn, size);
    const uint32_t n = dcn.GetHosts().GetN();
    const uint32_t perFlow = 50;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t s = 0; s < perFlow; ++s)
        {
            Simulator::Schedule(TRAFFIC_START + MicroSeconds(10) * s + NanoSeconds(37) * i, &SendTo,
                                udp.tx[i], dcn.GetHostAddress((i + n / 2) % n), size);
            ++out.sent;
        }
    }
    const Time end = TRAFFIC_START + MicroSeconds(10) * perFlow + MicroSeconds(200);
    Simulator::Stop(end);
    Simulator::Run();
    out.received = udp.rx.total;
    out.badSize = udp.rx.badSize;
    NetDeviceContainer devs = dcn.GetLinkDevices();
    double rate = 0.0;
    for (uint32_t i = 0; i < devs.GetN(); ++i)
    {
        if (Ptr<RiflNetDevice> d = DynamicCast<RiflNetDevice>(devs.Get(i)))
        {
            const RiflEndpointCounters c = d->GetCounters();
            out.detected += c.errorsDetected;
            const double fps = c.dataFramesDelivered / end.GetSeconds();
            const double mtbf = LinkReliabilityModel::MtbfSeconds(
                fps, LinkReliabilityModel::RiflUndetectedExact(ber, 256));
            rate += 1.0 / mtbf;
        }
        else
        {
            PointerValue pv;
            devs.Get(i)->GetAttribute("ReceiveErrorModel", pv);
            Ptr<ExactBitErrorModel> em = pv.Get<ExactBitErrorModel>();
            out.corrupted += em->GetPacketsCorrupted();
            const double fps = em->GetPacketsSeen() / end.GetSeconds();
            if (fps > 0)
            {
                rate += 1.0
                        / LinkReliabilityModel::MtbfSeconds(
                            fps, LinkReliabilityModel::EthernetUndetectedExact(ber, 1518));
            }
        }
    }
    out.independentMtbf = 1.0 / rate;
    ReliabilityReportHelper report;
    out.report = report.Collect();
    out.json = ReliabilityReportHelper::ToJson(out.report);
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup rifl-tests
 * \brief RIFL delivers every datagram under bit errors; the baseline loses some.
 */
class DcnRiflVsEthernetTestCase : public TestCase
{
  public:
    DcnRiflVsEthernetTestCase()
        : TestCase("Fat-tree k = 4, 800 cross-pod 1500 B datagrams: RIFL at BER 1e-7 and 1e-6 "
                   "loses none, the Ethernet baseline at 1e-6 loses exactly its corruptions")
    {
    }

  private:
    void DoRun() override
    {
        const FlowRun r7 = RunFlows(DcnTopologyHelper::RIFL, 1e-7);
        NS_TEST_ASSERT_MSG_EQ(r7.sent, 800u, "sent");
        NS_TEST_EXPECT_MSG_EQ(r7.received, r7.sent, "RIFL 1e-7 delivers everything");
        NS_TEST_EXPECT_MSG_EQ(r7.badSize, 0u, "sizes");
        NS_TEST_EXPECT_MSG_EQ(r7.report.riflDirections, 96u, "2 x 48 RIFL directions");

        const FlowRun r6 = RunFlows(DcnTopologyHelper::RIFL, 1e-6);
        NS_TEST_EXPECT_MSG_EQ(r6.received, r6.sent, "RIFL 1e-6 delivers everything");
        NS_TEST_EXPECT_MSG_GT(r6.detected, 0u, "RIFL 1e-6 detected and replayed errors");

        const FlowRun e6 = RunFlows(DcnTopologyHelper::ETHERNET, 1e-6);
        NS_TEST_EXPECT_MSG_GT(e6.corrupted, 0u, "the baseline's error models corrupted packets");
        NS_TEST_EXPECT_MSG_LT(e6.received, e6.sent, "the baseline lost packets");
        NS_TEST_EXPECT_MSG_EQ(e6.received + e6.corrupted, e6.sent,
                              "every corruption is one lost datagram, nothing else is lost");
        NS_TEST_EXPECT_MSG_EQ(e6.report.ethernetDirections, 96u, "2 x 48 baseline directions");
        NS_TEST_EXPECT_MSG_EQ(e6.report.ethernetPacketsLost, e6.corrupted, "report: lost");
        NS_TEST_EXPECT_MSG_EQ_TOL(e6.report.networkMtbfSeconds / e6.independentMtbf, 1.0, 1e-9,
                                  "baseline network MTBF");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The report's network MTBF is the harmonic sum of per-direction MTBFs.
 */
class DcnReportMtbfTestCase : public TestCase
{
  public:
    DcnReportMtbfTestCase()
        : TestCase("Reliability report on a k = 4 RIFL fat-tree at BER 1e-6: network MTBF = "
                   "harmonic sum of independently computed MTBFs, JSON agrees")
    {
    }

  private:
    void DoRun() override
    {
        const FlowRun r = RunFlows(DcnTopologyHelper::RIFL, 1e-6);
        NS_TEST_ASSERT_MSG_EQ(r.report.directions.size(), 96u, "directions");
        NS_TEST_ASSERT_MSG_EQ(std::isfinite(r.independentMtbf), true, "finite MTBF");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.report.networkMtbfSeconds / r.independentMtbf, 1.0, 1e-9,
                                  "network MTBF = 1 / sum 1/MTBF_i");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.report.undetectedRate * r.independentMtbf, 1.0, 1e-9,
                                  "summed undetected rate = 1 / MTBF");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.report.fit / LinkReliabilityModel::Fit(r.independentMtbf), 1.0,
                                  1e-9, "FIT");
        double harmonic = 0.0;
        uint64_t frames = 0;
        for (const auto& d : r.report.directions)
        {
            harmonic += 1.0 / d.mtbfSeconds;
            frames += d.frames;
            NS_TEST_EXPECT_MSG_EQ_TOL(d.pudExact
                                          / LinkReliabilityModel::RiflUndetectedExact(1e-6, 256),
                                      1.0, 1e-12, "P_ud exact");
            NS_TEST_EXPECT_MSG_EQ_TOL(d.pudPaper
                                          / LinkReliabilityModel::RiflUndetectedPaper(1e-6, 256),
                                      1.0, 1e-12, "P_ud paper");
            NS_TEST_EXPECT_MSG_EQ((d.bandwidthShare >= 0.0 && d.bandwidthShare <= 1.0), true,
                                  "share in [0, 1]");
        }
        NS_TEST_EXPECT_MSG_GT(frames, 0u, "frames counted");
        NS_TEST_EXPECT_MSG_EQ_TOL(harmonic * r.report.networkMtbfSeconds, 1.0, 1e-9,
                                  "report internally consistent");
        const nlohmann::json j = nlohmann::json::parse(r.json);
        NS_TEST_EXPECT_MSG_EQ(j["directions"].size(), 96u, "JSON directions");
        NS_TEST_EXPECT_MSG_EQ_TOL(j["network"]["mtbfSeconds"].get<double>() / r.independentMtbf,
                                  1.0, 1e-9, "JSON network MTBF");
        const std::string table = ReliabilityReportHelper::ToTable(r.report);
        NS_TEST_EXPECT_MSG_NE(table.find("network:"), std::string::npos, "table");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Bad input throws std::invalid_argument naming the parameter.
 */
class DcnBadInputTestCase : public TestCase
{
  public:
    DcnBadInputTestCase()
        : TestCase("Bad topology input (odd k, k = 0, hostsPerLeaf = 0, ...) names the parameter")
    {
    }

  private:
    /**
     * \brief Expect \p f to throw std::invalid_argument containing \p needle.
     * \param f the call.
     * \param needle expected message text.
     */
    template <typename F> void ExpectThrow(F f, const std::string& needle)
    {
        std::string msg;
        try
        {
            f();
        }
        catch (const std::invalid_argument& e)
        {
            msg = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(msg.find(needle), std::string::npos,
                              "message '" << msg << "' names '" << needle << "'");
    }

    void DoRun() override
    {
        ExpectThrow(
            []
            {
                DcnTopologyHelper().InstallFatTree(3);
            },
            "k = 3");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().InstallFatTree(0);
            },
            "k = 0");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().InstallFatTree(5);
            },
            "even");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().InstallLeafSpine(2, 2, 0);
            },
            "hostsPerLeaf = 0");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().InstallLeafSpine(0, 2, 2);
            },
            "leaves = 0");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().InstallLeafSpine(2, 0, 2);
            },
            "spines = 0");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().SetBer(1.5);
            },
            "ber = 1.5");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().SetHostLinkParameters(DataRate(1e9), -1, 0);
            },
            "cableLengthM");
        ExpectThrow(
            []
            {
                DcnTopologyHelper().SetRiflLanes(0);
            },
            "lanes = 0");
        ExpectThrow(
            []
            {
                ReliabilityReportHelper().SetEthernetFrameBytes(4);
            },
            "ethernetFrameBytes = 4");
        ExpectThrow(
            []
            {
                ReliabilityReportHelper().Collect();
            },
            "measurement time");
        // No nodes were created by the failed calls.
        NS_TEST_EXPECT_MSG_EQ(NodeList::GetNNodes(), 0u, "no nodes left behind");
    }
};

/**
 * \ingroup rifl-tests
 * \brief The rifl-dcn-topology suite.
 */
class RiflDcnTopologyTestSuite : public TestSuite
{
  public:
    RiflDcnTopologyTestSuite()
        : TestSuite("rifl-dcn-topology", RIFL_TEST_UNIT)
    {
        AddTestCase(new DcnBadInputTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnFatTreeStructureTestCase(2, DcnTopologyHelper::RIFL), RIFL_TEST_QUICK);
        AddTestCase(new DcnFatTreeStructureTestCase(4, DcnTopologyHelper::RIFL), RIFL_TEST_QUICK);
        AddTestCase(new DcnFatTreeStructureTestCase(6, DcnTopologyHelper::ETHERNET),
                    RIFL_TEST_QUICK);
        AddTestCase(new DcnFatTreeStructureTestCase(6, DcnTopologyHelper::RIFL),
                    RIFL_TEST_EXTENSIVE);
        AddTestCase(new DcnFatTreeStructureTestCase(4, DcnTopologyHelper::CSMA), RIFL_TEST_QUICK);
        AddTestCase(new DcnLeafSpineStructureTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnRiflVsEthernetTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DcnReportMtbfTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's static instance.
static RiflDcnTopologyTestSuite g_riflDcnTopologyTestSuite;

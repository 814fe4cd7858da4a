/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of MultiprocessorTopologyHelper: structure (link counts, degrees,
 * interfaces, coordinates) and routes (hop counts of every pair, Boost.Graph
 * BFS distances) of full meshes, rings, meshes, tori and hypercubes; channel
 * dependency acyclicity of the deadlock-avoidance options; end-to-end
 * request/response over a ring of 6 and a 3x3 torus at BER 1e-5; the DLIUs'
 * dateline VC switch against DatelineVc(); closed-loop saturation with
 * back-pressure on a ring of 6 and a 4x4 torus (dateline VCs and dateline
 * routing: no deadlock, exactly-once content-checked; same VC with shortest
 * routes: deadlock broken by CrdNullTime); bad input.
 */

#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/direct-link-helper.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/internet-module.h"
#include "ns3/multiprocessor-topology-helper.h"
#include "ns3/network-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"
#include "rifl-test-util.h"

#include <array>
#include <bitset>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using rifltest::InvalidArgumentMessage;
using rifltest::ModeName;

namespace
{

/**
 * \param a position. \param b position. \param k ring size.
 * \return the ring distance.
 */
uint32_t
RingDist(uint32_t a, uint32_t b, uint32_t k)
{
    const uint32_t d = (a > b) ? a - b : b - a;
    return std::min(d, k - d);
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Structure and routes of every topology for several sizes.
 */
class MultiprocessorStructureTestCase : public TestCase
{
  public:
    MultiprocessorStructureTestCase()
        : TestCase("Full mesh, ring, mesh, torus and hypercube: link counts, degrees, interfaces "
                   "and the hop count of every pair")
    {
    }

  private:
    /**
     * \brief Check interfaces and that every route follows a shortest path.
     * \param h the helper after a build.
     * \param expected expected hop count of (i, j).
     * \param what topology name for messages.
     */
    void CheckRoutes(const MultiprocessorTopologyHelper& h,
                     const std::function<uint32_t(uint32_t, uint32_t)>& expected,
                     const std::string& what)
    {
        const uint32_t n = h.GetNCpus();
        uint32_t degreeSum = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(h.GetDliu(i)->GetCpuNumber(), i, what << ": CPU number");
            NS_TEST_ASSERT_MSG_EQ(h.GetDliu(i)->GetNDevices(), h.GetDegree(i),
                                  what << ": DLIU " << i << " owns its interfaces");
            NS_TEST_ASSERT_MSG_EQ(h.GetCpu(i)->GetNDevices(), h.GetDegree(i),
                                  what << ": node " << i << " has only its interfaces");
            degreeSum += h.GetDegree(i);
            NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(h.GetInterface(i, i)), false,
                                  what << ": no self link");
            for (uint32_t j = 0; j < n; ++j)
            {
                if (i == j)
                {
                    NS_TEST_ASSERT_MSG_EQ(h.GetHopCount(i, j), 0u, what << ": self");
                    continue;
                }
                const uint32_t e = expected(i, j);
                Ptr<DirectLinkNetDevice> dev = h.GetInterface(i, j);
                NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(dev), (e == 1),
                                      what << ": interface " << i << "->" << j);
                if (dev)
                {
                    NS_TEST_ASSERT_MSG_EQ(dev->GetNode(), h.GetCpu(i), what << ": on CPU i");
                    NS_TEST_ASSERT_MSG_EQ(dev->GetPeer()->GetNode(), h.GetCpu(j),
                                          what << ": toward CPU j");
                    NS_TEST_ASSERT_MSG_EQ(dev->GetPeer(), h.GetInterface(j, i),
                                          what << ": the two ends");
                }
                NS_TEST_ASSERT_MSG_EQ(h.GetDistance(i, j), e,
                                      what << ": BFS distance " << i << "->" << j);
                NS_TEST_ASSERT_MSG_EQ(h.GetHopCount(i, j), e,
                                      what << ": routed hops " << i << "->" << j);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(degreeSum, 2 * h.GetNLinks(), what << ": degree sum");
        NS_TEST_ASSERT_MSG_EQ(h.GetDevices().GetN(), 2 * h.GetNLinks(), what << ": devices");
    }

    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        for (uint32_t n : {2u, 3u, 5u, 8u, 16u})
        {
            h.FullMesh(n);
            const std::string what = "FullMesh(" + std::to_string(n) + ")";
            NS_TEST_ASSERT_MSG_EQ(h.GetNCpus(), n, what);
            NS_TEST_ASSERT_MSG_EQ(h.GetNLinks(), n * (n - 1) / 2, what << ": n(n-1)/2 links");
            for (uint32_t i = 0; i < n; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(h.GetDegree(i), n - 1, what << ": degree n-1");
            }
            CheckRoutes(
                h,
                [](uint32_t, uint32_t)
                {
                    return 1u;
                },
                what);
            NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), true, what << ": acyclic");
        }
        for (uint32_t n : {3u, 4u, 6u, 7u, 10u})
        {
            h.Ring(n);
            const std::string what = "Ring(" + std::to_string(n) + ")";
            NS_TEST_ASSERT_MSG_EQ(h.GetNLinks(), n, what << ": n links");
            for (uint32_t i = 0; i < n; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(h.GetDegree(i), 2u, what << ": degree 2");
            }
            CheckRoutes(
                h,
                [n](uint32_t i, uint32_t j)
                {
                    return RingDist(i, j, n);
                },
                what);
        }
        for (auto [x, y] : std::vector<std::pair<uint32_t, uint32_t>>{{1, 2}, {3, 4}, {5, 5}})
        {
            h.Mesh2D(x, y);
            const std::string what = "Mesh2D(" + std::to_string(x) + "," + std::to_string(y) + ")";
            NS_TEST_ASSERT_MSG_EQ(h.GetNLinks(), (x - 1) * y + x * (y - 1), what << ": links");
            CheckRoutes(
                h,
                [x = x](uint32_t i, uint32_t j)
                {
                    return uint32_t(std::abs(int(i % x) - int(j % x))
                                    + std::abs(int(i / x) - int(j / x)));
                },
                what);
            NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), true,
                                  what << ": XY routing is deadlock-free");
        }
        h.Mesh2D(3, 4);
        NS_TEST_ASSERT_MSG_EQ(h.GetDegree(h.GetCpuAt(0, 0)), 2u, "mesh corner");
        NS_TEST_ASSERT_MSG_EQ(h.GetDegree(h.GetCpuAt(1, 0)), 3u, "mesh edge");
        NS_TEST_ASSERT_MSG_EQ(h.GetDegree(h.GetCpuAt(1, 2)), 4u, "mesh inside");
        NS_TEST_ASSERT_MSG_EQ(h.GetCoordinates(7).first, 1u, "CPU 7 of 3x4 at x 1");
        NS_TEST_ASSERT_MSG_EQ(h.GetCoordinates(7).second, 2u, "CPU 7 of 3x4 at y 2");
        NS_TEST_ASSERT_MSG_EQ(h.GetCpuAt(2, 3), 11u, "CPU at (2, 3)");
        for (auto [x, y] : std::vector<std::pair<uint32_t, uint32_t>>{{3, 3}, {4, 5}, {6, 3}})
        {
            h.Torus2D(x, y);
            const std::string what = "Torus2D(" + std::to_string(x) + "," + std::to_string(y) + ")";
            NS_TEST_ASSERT_MSG_EQ(h.GetNLinks(), 2 * x * y, what << ": 2xy links");
            for (uint32_t i = 0; i < x * y; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(h.GetDegree(i), 4u, what << ": degree 4");
            }
            CheckRoutes(
                h,
                [x = x, y = y](uint32_t i, uint32_t j)
                {
                    return RingDist(i % x, j % x, x) + RingDist(i / x, j / x, y);
                },
                what);
        }
        for (uint32_t dim = 1; dim <= 5; ++dim)
        {
            h.Hypercube(dim);
            const uint32_t n = 1u << dim;
            const std::string what = "Hypercube(" + std::to_string(dim) + ")";
            NS_TEST_ASSERT_MSG_EQ(h.GetNCpus(), n, what);
            NS_TEST_ASSERT_MSG_EQ(h.GetNLinks(), dim * n / 2, what << ": dim 2^(dim-1) links");
            for (uint32_t i = 0; i < n; ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(h.GetDegree(i), dim, what << ": degree dim");
            }
            CheckRoutes(
                h,
                [](uint32_t i, uint32_t j)
                {
                    return uint32_t(std::bitset<8>(i ^ j).count());
                },
                what);
            NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), true,
                                  what << ": e-cube routing is deadlock-free");
        }
        // Hypercube e-cube: 0 -> 7 flips bit 0, then 1, then 2.
        h.Hypercube(3);
        const std::vector<uint32_t> p = h.GetPath(0, 7);
        NS_TEST_ASSERT_MSG_EQ(p.size(), 4u, "0 -> 7 three hops");
        NS_TEST_ASSERT_MSG_EQ(p[1], 1u, "lowest bit first");
        NS_TEST_ASSERT_MSG_EQ(p[2], 3u, "then bit 1");
        // Ring tie (n even, distance n/2) goes "+".
        h.Ring(6);
        NS_TEST_ASSERT_MSG_EQ(h.GetPath(0, 3)[1], 1u, "ring tie 0 -> 3 via 1");
        NS_TEST_ASSERT_MSG_EQ(h.GetPath(4, 1)[1], 5u, "ring tie 4 -> 1 via 5");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief Deadlock avoidance: channel dependency graphs with and without it.
 */
class MultiprocessorDeadlockTestCase : public TestCase
{
  public:
    MultiprocessorDeadlockTestCase()
        : TestCase("Rings and tori: shortest routes have cyclic channel dependencies, dateline "
                   "routing and dateline VCs do not")
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        h.Ring(3);
        NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), true, "ring 3: one-hop routes");
        for (uint32_t n : {4u, 6u, 7u})
        {
            h.SetDeadlockAvoidance(MultiprocessorTopologyHelper::NO_AVOIDANCE);
            h.Ring(n);
            NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), false,
                                  "ring " << n << ": shortest routes form a cycle");
            NS_TEST_ASSERT_MSG_EQ(h.DatelineVcsAcyclic(), true,
                                  "ring " << n << ": dateline VCs break it");
            h.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_ROUTING);
            h.Ring(n);
            NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), true,
                                  "ring " << n << ": dateline routing is acyclic");
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t j = 0; j < n; ++j)
                {
                    const uint32_t hops = h.GetHopCount(i, j);
                    NS_TEST_ASSERT_MSG_LT(hops, n, "ring " << n << ": routed " << i << "->" << j);
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(hops, RingDist(i, j, n), "never shorter");
                }
            }
        }
        // Ring of 6 with dateline routing: 5 -> 1 goes 5 4 3 2 1; 5 -> 0 takes the dateline.
        h.Ring(6);
        NS_TEST_ASSERT_MSG_EQ(h.GetHopCount(5, 1), 4u, "5 -> 1 avoids the dateline");
        NS_TEST_ASSERT_MSG_EQ(h.GetHopCount(5, 0), 1u, "5 -> 0 ends on it");
        NS_TEST_ASSERT_MSG_EQ(h.GetHopCount(4, 0), 2u, "4 -> 0 via 5, ends on it");
        NS_TEST_ASSERT_MSG_EQ(h.GetHopCount(1, 5), 2u, "1 -> 5 via 0, ends on it");
        NS_TEST_ASSERT_MSG_EQ(h.GetHopCount(1, 4), 3u, "1 -> 4 via 2 and 3, not 0");
        NS_TEST_ASSERT_MSG_EQ(h.GetPath(1, 4)[1], 2u, "1 -> 4 via 2");
        NS_TEST_ASSERT_MSG_EQ(h.IsDateline(0, 5), true, "0 - 5 is the dateline");
        NS_TEST_ASSERT_MSG_EQ(h.IsDateline(0, 1), false, "0 - 1 is not");

        h.SetDeadlockAvoidance(MultiprocessorTopologyHelper::NO_AVOIDANCE);
        h.Ring(6);
        // 4 -> 1 goes 4 5 0 1: VC0 on the first hop, VC2 from the dateline hop on.
        NS_TEST_ASSERT_MSG_EQ(h.DatelineVc(4, 1, 0, 0), 0u, "before the dateline");
        NS_TEST_ASSERT_MSG_EQ(h.DatelineVc(4, 1, 1, 0), 2u, "on the dateline");
        NS_TEST_ASSERT_MSG_EQ(h.DatelineVc(4, 1, 2, 0), 2u, "after it");
        NS_TEST_ASSERT_MSG_EQ(h.DatelineVc(4, 1, 2, 1), 3u, "responses VC1 -> VC3");

        for (auto [x, y] : std::vector<std::pair<uint32_t, uint32_t>>{{3, 3}, {4, 4}, {5, 3}})
        {
            h.SetDeadlockAvoidance(MultiprocessorTopologyHelper::NO_AVOIDANCE);
            h.Torus2D(x, y);
            // On a ring of 3 every route takes one hop per dimension: no cycle even so.
            NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), (x == 3 && y == 3),
                                  "torus " << x << "x" << y << ": cyclic unless 3x3");
            NS_TEST_ASSERT_MSG_EQ(h.DatelineVcsAcyclic(), true,
                                  "torus " << x << "x" << y << ": dateline VCs acyclic");
            h.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_ROUTING);
            h.Torus2D(x, y);
            NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic(), true,
                                  "torus " << x << "x" << y << ": dateline routing acyclic");
        }
        Simulator::Destroy();
    }
};

namespace
{

/**
 * \brief One CpuTrafficApplication per CPU, all sending.
 * \param h the built helper.
 * \param maxRequests requests per CPU.
 * \param window MaxOutstanding.
 * \param start start time.
 * \return the applications, by CPU.
 */
std::vector<Ptr<CpuTrafficApplication>>
InstallApps(MultiprocessorTopologyHelper& h, uint32_t maxRequests, uint32_t window, Time start)
{
    h.AssignStreams(10);
    std::vector<Ptr<CpuTrafficApplication>> apps;
    for (uint32_t i = 0; i < h.GetNCpus(); ++i)
    {
        Ptr<CpuTrafficApplication> app = CreateObject<CpuTrafficApplication>();
        app->SetAttribute("MaxRequests", UintegerValue(maxRequests));
        app->SetAttribute("MaxOutstanding", UintegerValue(window));
        app->AssignStreams(1000 + 10 * i);
        h.GetCpu(i)->AddApplication(app);
        app->SetStartTime(start);
        apps.push_back(app);
    }
    return apps;
}

/**
 * \brief Latency trace sink: remember when the last response arrived.
 * \param last the time. \param dst the CPU that answered. \param latency its latency.
 */
void
RecordLast(Time* last, uint32_t dst, Time latency)
{
    *last = Simulator::Now();
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Request/response over multi-hop topologies at BER 1e-5.
 */
class MultiprocessorEndToEndTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param torus 3x3 torus (true) or ring of 6 (false).
     */
    MultiprocessorEndToEndTestCase(bool torus)
        : TestCase(std::string(torus ? "Torus 3x3" : "Ring of 6")
                   + " at BER 1e-5, every CPU sending: every response content-checked, none lost")
        , m_torus(torus)
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        h.SetChannelAttribute("Engine", StringValue("Fast"));
        h.SetChannelAttribute("Ber", DoubleValue(1e-5));
        if (m_torus)
        {
            h.Torus2D(3, 3);
        }
        else
        {
            h.Ring(6);
        }
        const uint32_t n = 300;
        std::vector<Ptr<CpuTrafficApplication>> apps = InstallApps(h, n, 4, MicroSeconds(5));
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        uint64_t served = 0;
        uint64_t forwarded = 0;
        for (uint32_t i = 0; i < h.GetNCpus(); ++i)
        {
            const CpuTrafficStats st = apps[i]->GetStats();
            NS_TEST_ASSERT_MSG_EQ(st.responsesOk, n, "CPU " << i << ": every response arrived");
            NS_TEST_ASSERT_MSG_EQ(st.responsesBad, 0u, "CPU " << i << ": content checked");
            NS_TEST_ASSERT_MSG_EQ(st.responsesErrored, 0u, "CPU " << i << ": no NetErr");
            NS_TEST_ASSERT_MSG_EQ(st.timeouts, 0u, "CPU " << i << ": no timeout");
            NS_TEST_ASSERT_MSG_EQ(st.outstanding, 0u, "CPU " << i << ": nothing outstanding");
            served += st.requestsServed;
            const DirectLinkInterfaceUnitCounters c = h.GetDliu(i)->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(c.noRoute, 0u, "CPU " << i << ": routes everywhere");
            NS_TEST_ASSERT_MSG_EQ(c.forwardTruncated, 0u, "CPU " << i << ": nothing truncated");
            forwarded += c.forwarded;
        }
        NS_TEST_ASSERT_MSG_EQ(served, uint64_t(n) * h.GetNCpus(), "every request served");
        uint64_t crc = 0;
        const NetDeviceContainer devs = h.GetDevices();
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            const DirectLinkDeviceCounters dc
                = DynamicCast<DirectLinkNetDevice>(devs.Get(k))->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(dc.messagesLost, 0u, "device " << k << ": nothing lost");
            NS_TEST_ASSERT_MSG_EQ(dc.shutdowns, 0u, "device " << k << ": no Shutdown");
            NS_TEST_ASSERT_MSG_EQ(dc.undetectedErrors, 0u, "device " << k << ": none undetected");
            crc += dc.crcErrors;
        }
        std::cout << (m_torus ? "torus 3x3" : "ring 6") << ": " << served << " pairs, " << forwarded
                  << " forwarded, " << crc << " micro-packets failed a check, p99 "
                  << apps[0]->GetStats().latencyP99Ns << " ns" << std::endl;
        NS_TEST_ASSERT_MSG_GT(forwarded, 0u, "multi-hop traffic was forwarded");
        NS_TEST_ASSERT_MSG_GT(crc, 0u, "errors did happen");
        Simulator::Destroy();
    }

    bool m_torus; //!< torus or ring
};

namespace
{

/**
 * \brief Count the messages a device hands to its engine, by VC.
 * \param counts the counters. \param m the message.
 */
void
CountVc(std::array<uint64_t, 4>* counts, const DirectLinkMessage& m)
{
    ++(*counts)[m.vc];
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief The DLIUs' VC switch is the helper's DatelineVc() scheme, hop by hop.
 */
class MultiprocessorDatelineVcTestCase : public TestCase
{
  public:
    MultiprocessorDatelineVcTestCase()
        : TestCase("Dateline VCs: the VC every DLIU picks on every hop of every route equals "
                   "DatelineVc(); DeadlockFree() per mode")
    {
    }

  private:
    void DoRun() override
    {
        for (int t = 0; t < 2; ++t)
        {
            MultiprocessorTopologyHelper h;
            NS_TEST_ASSERT_MSG_EQ(h.GetDeadlockAvoidance(),
                                  MultiprocessorTopologyHelper::DATELINE_VCS,
                                  "dateline VCs are the default");
            if (t == 0)
            {
                h.Ring(6);
            }
            else
            {
                h.Torus2D(4, 4);
            }
            const std::string what = t == 0 ? "ring 6" : "torus 4x4";
            NS_TEST_ASSERT_MSG_EQ(h.DeadlockFree(), true, what << ": dateline VCs acyclic");
            uint32_t switched = 0;
            const uint32_t n = h.GetNCpus();
            for (uint32_t s = 0; s < n; ++s)
            {
                for (uint32_t d = 0; d < n; ++d)
                {
                    if (s == d)
                    {
                        continue;
                    }
                    const std::vector<uint32_t> p = h.GetPath(s, d);
                    NS_TEST_ASSERT_MSG_EQ(p.size(), h.GetDistance(s, d) + 1, "shortest route");
                    for (uint32_t base = 0; base < 2; ++base)
                    {
                        Ptr<DirectLinkInterfaceUnit> src = h.GetDliu(s);
                        uint32_t vc = src->GetLocalVc(base, h.GetInterface(s, p[1]));
                        for (uint32_t hop = 0; hop + 1 < p.size(); ++hop)
                        {
                            if (hop > 0)
                            {
                                vc = h.GetDliu(p[hop])->GetForwardVc(
                                    h.GetInterface(p[hop], p[hop - 1]), vc,
                                    h.GetInterface(p[hop], p[hop + 1]));
                            }
                            NS_TEST_ASSERT_MSG_EQ(vc, h.DatelineVc(s, d, hop, base),
                                                  what << " " << s << "->" << d << " hop " << hop
                                                       << " base " << base);
                            switched += vc >= 2 ? 1 : 0;
                        }
                    }
                }
            }
            NS_TEST_ASSERT_MSG_GT(switched, 0u, what << ": some hops use VC2/VC3");
            h.SetDeadlockAvoidance(MultiprocessorTopologyHelper::NO_AVOIDANCE);
            t == 0 ? h.Ring(6) : h.Torus2D(4, 4);
            NS_TEST_ASSERT_MSG_EQ(h.DeadlockFree(), false, what << ": same VC is cyclic");
            NS_TEST_ASSERT_MSG_EQ(h.GetDliu(0)->GetVcPolicy(), DirectLinkInterfaceUnit::SAME_VC,
                                  "same-VC policy");
            h.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_ROUTING);
            t == 0 ? h.Ring(6) : h.Torus2D(4, 4);
            NS_TEST_ASSERT_MSG_EQ(h.DeadlockFree(), true, what << ": dateline routing acyclic");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief Saturation with back-pressure: every CPU at full rate (closed loop, deep window),
 *        small VC buffers. Deadlock-free modes answer every request exactly once with
 *        correct content and no Shutdown; same-VC shortest routes deadlock (the cycle of
 *        full buffers is broken only by CrdNullTime Shutdowns, which lose messages).
 */
class MultiprocessorSaturationTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param torus 4x4 torus (true) or ring of 6 (false).
     * \param mode deadlock avoidance.
     */
    MultiprocessorSaturationTestCase(bool torus,
                                     MultiprocessorTopologyHelper::DeadlockAvoidance mode)
        : TestCase(std::string(torus ? "Torus 4x4" : "Ring of 6")
                   + " saturated (32 outstanding per CPU, VcBufferSize 4), " + ModeName(mode)
                   + (mode == MultiprocessorTopologyHelper::NO_AVOIDANCE
                          ? ": deadlocks, broken by CrdNullTime Shutdowns"
                          : ": no deadlock, every request answered exactly once"))
        , m_torus(torus)
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        h.SetChannelAttribute("Engine", StringValue("Fast"));
        h.SetDeviceAttribute("VcBufferSize", UintegerValue(4));
        h.SetDeadlockAvoidance(m_mode);
        if (m_torus)
        {
            h.Torus2D(4, 4);
        }
        else
        {
            h.Ring(6);
        }
        const uint32_t n = m_torus ? 600 : 1500;
        std::vector<Ptr<CpuTrafficApplication>> apps = InstallApps(h, n, 32, MicroSeconds(5));
        Time last;
        for (auto& a : apps)
        {
            a->SetAttribute("Timeout", TimeValue(Seconds(1)));
            a->TraceConnectWithoutContext("Latency", MakeBoundCallback(&RecordLast, &last));
        }
        std::array<uint64_t, 4> byVc{};
        const NetDeviceContainer devs = h.GetDevices();
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            devs.Get(k)->TraceConnectWithoutContext("MessageTx",
                                                    MakeBoundCallback(&CountVc, &byVc));
        }
        const Time stop = MilliSeconds(8);
        Simulator::Stop(stop);
        Simulator::Run();
        uint64_t ok = 0;
        uint64_t bad = 0;
        uint64_t served = 0;
        uint64_t issued = 0;
        uint64_t holds = 0;
        uint64_t waits = 0;
        for (uint32_t i = 0; i < h.GetNCpus(); ++i)
        {
            const CpuTrafficStats st = apps[i]->GetStats();
            ok += st.responsesOk;
            bad += st.responsesBad + st.responsesErrored + st.responsesLate + st.responsesUnknown
                   + st.requestsRefused + st.requestsErrored;
            served += st.requestsServed;
            issued += st.requestsIssued;
            const DirectLinkInterfaceUnitCounters c = h.GetDliu(i)->GetCounters();
            holds += c.drainHolds;
            waits += c.forwardWaits;
        }
        uint64_t lost = 0;
        uint64_t shutdowns = 0;
        uint64_t creditTimeouts = 0;
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            Ptr<DirectLinkNetDevice> d = DynamicCast<DirectLinkNetDevice>(devs.Get(k));
            lost += d->GetCounters().messagesLost;
            shutdowns += d->GetCounters().shutdowns;
            creditTimeouts += d->GetEndpointCounters().resets[static_cast<uint32_t>(
                DirectLinkEndpointState::ResetReason::CREDIT_TIMEOUT)];
        }
        const uint64_t total = uint64_t(n) * h.GetNCpus();
        std::cout << (m_torus ? "torus 4x4" : "ring 6") << " saturated, " << ModeName(m_mode)
                  << ": " << ok << " of " << total << " answered, last at "
                  << last.GetMicroSeconds() << " us, CPU 0 p50 " << apps[0]->GetStats().latencyP50Ns
                  << " ns p99 " << apps[0]->GetStats().latencyP99Ns << " ns; " << shutdowns
                  << " Shutdowns (" << creditTimeouts << " CrdNullTime), " << lost
                  << " lost; drain holds " << holds << ", forward waits " << waits
                  << "; messages by VC " << byVc[0] << " " << byVc[1] << " " << byVc[2] << " "
                  << byVc[3] << std::endl;
        NS_TEST_ASSERT_MSG_EQ(h.ChannelDependenciesAcyclic() || h.DeadlockFree(),
                              (m_mode != MultiprocessorTopologyHelper::NO_AVOIDANCE),
                              "the dependency check agrees with the mode");
        NS_TEST_ASSERT_MSG_GT(holds, 0u, "back-pressure reached the links (saturation)");
        if (m_mode == MultiprocessorTopologyHelper::NO_AVOIDANCE)
        {
            NS_TEST_ASSERT_MSG_GT(creditTimeouts, 0u, "a cycle of full buffers: CrdNullTime fired");
            NS_TEST_ASSERT_MSG_LT(ok, total, "not every request was answered");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(shutdowns, 0u, "no Shutdown");
        NS_TEST_ASSERT_MSG_EQ(lost, 0u, "nothing lost");
        NS_TEST_ASSERT_MSG_EQ(bad, 0u, "no wrong, late, duplicate or refused message");
        NS_TEST_ASSERT_MSG_EQ(issued, total, "every request issued");
        NS_TEST_ASSERT_MSG_EQ(served, total, "every request served exactly once");
        NS_TEST_ASSERT_MSG_EQ(ok, total, "every response content-checked, exactly once");
        NS_TEST_ASSERT_MSG_LT(last, stop, "the last response arrived before the end");
        if (m_mode == MultiprocessorTopologyHelper::DATELINE_VCS)
        {
            NS_TEST_ASSERT_MSG_GT(byVc[2] * byVc[3], 0u, "VC2 and VC3 carried dateline traffic");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(byVc[2] + byVc[3], 0u, "same-VC modes stay on VC0 and VC1");
        }
        Simulator::Destroy();
    }

    bool m_torus;                                           //!< torus or ring
    MultiprocessorTopologyHelper::DeadlockAvoidance m_mode; //!< deadlock avoidance
};

namespace
{

/// UDP datagrams received.
struct RingUdpLog
{
    std::vector<uint32_t> seq; //!< sequence numbers in arrival order
    uint32_t bad{0};           //!< datagrams with wrong content
};

/**
 * \param seq sequence number. \param size bytes.
 * \return the datagram content.
 */
std::vector<uint8_t>
RingUdpPattern(uint32_t seq, uint32_t size)
{
    std::vector<uint8_t> b(size);
    for (uint32_t i = 0; i < size; ++i)
    {
        b[i] = static_cast<uint8_t>(i < 2 ? (seq >> (8 * (1 - i))) : (seq * 7 + i * 13));
    }
    return b;
}

/**
 * \brief Socket receive callback.
 * \param log the log. \param socket the socket.
 */
void
RingUdpRx(RingUdpLog* log, Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        const uint32_t seq = (uint32_t(b[0]) << 8) | b[1];
        log->seq.push_back(seq);
        log->bad += b != RingUdpPattern(seq, b.size()) ? 1 : 0;
    }
}

/**
 * \brief Send one datagram.
 * \param s socket. \param seq number. \param size bytes.
 */
void
RingUdpSend(Ptr<Socket> s, uint32_t seq, uint32_t size)
{
    std::vector<uint8_t> b = RingUdpPattern(seq, size);
    s->Send(Create<Packet>(b.data(), b.size()));
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief IP on VC2 beside dateline VCs: IPv4 UDP across a ring of 6 (IP-routed hop by hop)
 *        while the DLIUs saturate it with requests that switch to VC2 at the dateline.
 */
class MultiprocessorIpDatelineTestCase : public TestCase
{
  public:
    MultiprocessorIpDatelineTestCase()
        : TestCase("Ring of 6, dateline VCs: IPv4 UDP on VC2 (IpVc) beside saturating requests "
                   "that use VC2 past the dateline: both complete, exactly once, no Shutdown")
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        h.SetChannelAttribute("Engine", StringValue("Fast"));
        h.SetDeviceAttribute("VcBufferSize", UintegerValue(4));
        h.Ring(6);
        const uint32_t n = 600;
        std::vector<Ptr<CpuTrafficApplication>> apps = InstallApps(h, n, 16, MicroSeconds(5));
        for (auto& a : apps)
        {
            a->SetAttribute("Timeout", TimeValue(Seconds(1)));
        }
        InternetStackHelper ip;
        ip.Install(h.GetCpus());
        Ipv4AddressHelper addr("10.2.0.0", "255.255.255.0");
        for (uint32_t k = 0; k < h.GetNLinks(); ++k)
        {
            addr.Assign(h.GetLink(k));
            addr.NewNetwork();
        }
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        const Ipv4Address dst = h.GetCpu(3)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
        RingUdpLog log;
        Ptr<Socket> rx = Socket::CreateSocket(h.GetCpu(3), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeBoundCallback(&RingUdpRx, &log));
        Ptr<Socket> tx = Socket::CreateSocket(h.GetCpu(0), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(dst, 9));
        const uint32_t datagrams = 200;
        for (uint32_t i = 0; i < datagrams; ++i)
        {
            Simulator::Schedule(MicroSeconds(10) + NanoSeconds(3000 * i), &RingUdpSend, tx, i,
                                100 + (i * 97) % 1300);
        }
        std::array<uint64_t, 4> byVc{};
        const NetDeviceContainer devs = h.GetDevices();
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            devs.Get(k)->TraceConnectWithoutContext("MessageTx",
                                                    MakeBoundCallback(&CountVc, &byVc));
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        uint64_t ok = 0;
        uint64_t holds = 0;
        for (uint32_t i = 0; i < h.GetNCpus(); ++i)
        {
            ok += apps[i]->GetStats().responsesOk;
            NS_TEST_EXPECT_MSG_EQ(apps[i]->GetStats().responsesUnknown
                                      + apps[i]->GetStats().responsesBad,
                                  0u, "CPU " << i << ": no duplicate or wrong response");
            holds += h.GetDliu(i)->GetCounters().drainHolds;
        }
        uint64_t ipSent = 0;
        uint64_t shutdowns = 0;
        uint64_t lost = 0;
        uint64_t ipDropped = 0;
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            const DirectLinkDeviceCounters c
                = DynamicCast<DirectLinkNetDevice>(devs.Get(k))->GetCounters();
            ipSent += c.ipPacketsSent;
            shutdowns += c.shutdowns;
            lost += c.messagesLost;
            ipDropped += c.ipPacketsDropped;
        }
        std::cout << "ring 6, dateline VCs + UDP on VC2: " << ok << " of " << 6 * n << " answered, "
                  << log.seq.size() << " of " << datagrams
                  << " datagrams, IP micro-packet messages " << ipSent << ", DLIU messages on VC2 "
                  << byVc[2] << ", drain holds " << holds << std::endl;
        NS_TEST_EXPECT_MSG_EQ(ok, uint64_t(6) * n, "every request answered");
        NS_TEST_EXPECT_MSG_EQ(log.seq.size(), datagrams, "every datagram arrived");
        for (uint32_t i = 0; i < std::min<size_t>(log.seq.size(), datagrams); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(log.seq[i], i, "in order, exactly once");
        }
        NS_TEST_EXPECT_MSG_EQ(log.bad, 0u, "datagram content intact");
        NS_TEST_EXPECT_MSG_EQ(shutdowns + lost + ipDropped, 0u, "no Shutdown, loss or IP drop");
        NS_TEST_EXPECT_MSG_GT(byVc[2], 0u, "requests used VC2 past the dateline");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(ipSent, 3u * datagrams, "IP crossed 3 links on VC2");
        NS_TEST_EXPECT_MSG_GT(holds, 0u, "back-pressure was active");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief Bad input names the parameter and its range.
 */
class MultiprocessorBadInputTestCase : public TestCase
{
  public:
    MultiprocessorBadInputTestCase()
        : TestCase("Bad sizes (n < 2, ring of 2, x*y too large, torus side 2, dim 0 or 9) and "
                   "indices throw naming the parameter")
    {
    }

  private:
    /**
     * \brief Check that \p f throws std::invalid_argument containing \p part.
     * \param f the call. \param part expected substring.
     */
    void Expect(const std::function<void()>& f, const std::string& part)
    {
        const std::string msg = InvalidArgumentMessage(f);
        NS_TEST_ASSERT_MSG_NE(msg.find(part), std::string::npos,
                              "message '" << msg << "' names '" << part << "'");
    }

    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        Expect(
            [&]
            {
                h.FullMesh(1);
            },
            "FullMesh: n = 1 is out of range [2, 256]");
        Expect(
            [&]
            {
                h.FullMesh(0);
            },
            "n = 0");
        Expect(
            [&]
            {
                h.FullMesh(257);
            },
            "n = 257 is out of range");
        Expect(
            [&]
            {
                h.Ring(2);
            },
            "Ring: n = 2 is out of range [3, 256]");
        Expect(
            [&]
            {
                h.Mesh2D(1, 1);
            },
            "x * y = 1 * 1 = 1 is out of range [2, 256]");
        Expect(
            [&]
            {
                h.Mesh2D(20, 20);
            },
            "x * y = 20 * 20 = 400 is out of range [2, 256]");
        Expect(
            [&]
            {
                h.Mesh2D(0, 4);
            },
            "x = 0");
        Expect(
            [&]
            {
                h.Torus2D(2, 5);
            },
            "Torus2D: x = 2 is out of range [3, 85]");
        Expect(
            [&]
            {
                h.Torus2D(4, 1);
            },
            "y = 1");
        Expect(
            [&]
            {
                h.Torus2D(17, 17);
            },
            "x * y = 17 * 17 = 289 is out of range");
        Expect(
            [&]
            {
                h.Hypercube(9);
            },
            "Hypercube: dim = 9 is out of range [1, 8]");
        Expect(
            [&]
            {
                h.Hypercube(0);
            },
            "dim = 0");
        NS_TEST_ASSERT_MSG_EQ(h.GetNCpus(), 0u, "nothing built");
        h.Ring(4);
        Expect(
            [&]
            {
                h.GetCoordinates(0);
            },
            "not a mesh or torus");
        Expect(
            [&]
            {
                h.DatelineVc(0, 2, 0, 2);
            },
            "baseVc = 2");
        Expect(
            [&]
            {
                h.DatelineVc(0, 2, 2, 0);
            },
            "hop = 2 is out of range [0, 2)");
        bool threw = false;
        try
        {
            h.GetCpu(4);
        }
        catch (const std::out_of_range& e)
        {
            threw = std::string(e.what()).find("CPU 4 is out of range [0, 4)") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "GetCpu(4) out of range");
        NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(h.GetInterface(0, 2)), false, "0 and 2 not neighbours");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief The MultiprocessorTopologyHelper test suite.
 */
class RiflMultiprocessorTopologyTestSuite : public TestSuite
{
  public:
    RiflMultiprocessorTopologyTestSuite()
        : TestSuite("rifl-multiprocessor-topology", RIFL_TEST_UNIT)
    {
        AddTestCase(new MultiprocessorBadInputTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MultiprocessorStructureTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MultiprocessorDeadlockTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MultiprocessorEndToEndTestCase(false), RIFL_TEST_QUICK);
        AddTestCase(new MultiprocessorEndToEndTestCase(true), RIFL_TEST_QUICK);
        AddTestCase(new MultiprocessorDatelineVcTestCase, RIFL_TEST_QUICK);
        AddTestCase(new MultiprocessorIpDatelineTestCase, RIFL_TEST_QUICK);
        for (bool torus : {false, true})
        {
            for (auto mode : {MultiprocessorTopologyHelper::DATELINE_VCS,
                              MultiprocessorTopologyHelper::DATELINE_ROUTING,
                              MultiprocessorTopologyHelper::NO_AVOIDANCE})
            {
                AddTestCase(new MultiprocessorSaturationTestCase(torus, mode), RIFL_TEST_QUICK);
            }
        }
    }
};

/// The suite instance.
static RiflMultiprocessorTopologyTestSuite g_riflMultiprocessorTopologyTestSuite;

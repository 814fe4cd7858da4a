/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RIFL as the link technology of a multiprocessor (MultiprocessorTopologyHelper
 * SetLinkTechnology(RIFL), RiflMessagePort): the same structure and routes as
 * with direct links; per-VC message credits and the receive hold of one port
 * (one VC stalls, the other moves; release delivers the rest in order);
 * request/response across a ring of 6 and a 3x3 torus at BER 1e-6 in both
 * directions with ReplayTail=Corrected (every response content-checked,
 * exactly once, RIFL replays seen, nothing lost; at 1e-5 RIFL's CRC lets a few
 * corrupted frames through in such a run, which RIFL counts as undetected
 * errors, so exact delivery is asserted at 1e-6); closed-loop saturation of a
 * ring of 6 and a 4x4 torus with one-message VC buffers (dateline VCs and
 * dateline routing complete; same-VC shortest routes deadlock for good, as
 * RIFL has no credit timeout); the links between two CPU groups split (the
 * structure of an MPI run) give exactly the unsplit run's results with
 * RiflCanonicalTies on; bad input.
 */

#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/direct-link-port.h"
#include "ns3/multiprocessor-topology-helper.h"
#include "ns3/network-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-message-port.h"
#include "ns3/rifl-net-device.h"
#include "ns3/test.h"
#include "rifl-test-util.h"

#include <array>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using rifltest::Has;
using rifltest::InvalidArgumentMessage;
using rifltest::ModeName;

namespace
{

/**
 * \brief RIFL link settings of these tests: short start-up, the corrected replay tail
 *        (lossless), a BER in both directions.
 * \param h the topology helper. \param ber the BER.
 */
void
UseRifl(MultiprocessorTopologyHelper& h, double ber)
{
    h.SetLinkTechnology(MultiprocessorTopologyHelper::RIFL);
    h.GetRiflHelper().SetDeviceAttribute("Startup", StringValue("Short"));
    h.GetRiflHelper().SetDeviceAttribute("ReplayTail", StringValue("Corrected"));
    h.GetRiflHelper().SetChannelAttribute("Ber", DoubleValue(ber));
}

/**
 * \brief One CpuTrafficApplication per CPU (closed loop).
 * \param h the topology. \param maxRequests requests per CPU. \param window outstanding.
 * \return the applications, by CPU.
 */
std::vector<Ptr<CpuTrafficApplication>>
InstallApps(MultiprocessorTopologyHelper& h, uint32_t maxRequests, uint32_t window)
{
    h.AssignStreams(10);
    std::vector<Ptr<CpuTrafficApplication>> apps;
    for (uint32_t i = 0; i < h.GetNCpus(); ++i)
    {
        Ptr<CpuTrafficApplication> app = CreateObject<CpuTrafficApplication>();
        app->SetAttribute("MaxRequests", UintegerValue(maxRequests));
        app->SetAttribute("MaxOutstanding", UintegerValue(window));
        app->SetAttribute("Timeout", TimeValue(Seconds(1)));
        app->AssignStreams(1000 + 10 * i);
        h.GetCpu(i)->AddApplication(app);
        app->SetStartTime(MicroSeconds(5));
        apps.push_back(app);
    }
    return apps;
}

/// Totals over every port of a topology.
struct PortTotals
{
    uint64_t sent{0};     //!< messages handed to RIFL devices
    uint64_t received{0}; //!< messages handed to DLIUs
    uint64_t lost{0};     //!< counted lost
    uint64_t corrupt{0};  //!< received corrupt
    uint64_t queued{0};   //!< still queued
    uint64_t held{0};     //!< still held
    uint64_t credits{0};  //!< credit packets sent
};

/**
 * \param h a topology with RIFL links.
 * \return the port totals.
 */
PortTotals
SumPorts(const MultiprocessorTopologyHelper& h)
{
    PortTotals t;
    for (uint32_t i = 0; i < h.GetNCpus(); ++i)
    {
        for (uint32_t j : h.GetNeighbours(i))
        {
            Ptr<RiflMessagePort> p = DynamicCast<RiflMessagePort>(h.GetPort(i, j));
            const RiflMessagePortCounters c = p->GetCounters();
            t.sent += c.messagesSent;
            t.received += c.messagesReceived;
            t.lost += c.messagesLost;
            t.corrupt += c.messagesReceivedCorrupt;
            t.queued += p->GetQueuedMessages();
            t.credits += c.creditPacketsSent;
            for (uint32_t v = 0; v < 4; ++v)
            {
                t.held += p->GetHeldMessages(v);
            }
        }
    }
    return t;
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief RIFL links give the same structure and routes as direct links.
 */
class RiflLinksStructureTestCase : public TestCase
{
  public:
    RiflLinksStructureTestCase()
        : TestCase("Full mesh of 4, ring of 6, 3x3 torus with RIFL links: same links, "
                   "degrees and routes as with direct links; every interface a RiflNetDevice "
                   "with its RiflMessagePort")
    {
    }

  private:
    void DoRun() override
    {
        for (int topo = 0; topo < 3; ++topo)
        {
            MultiprocessorTopologyHelper dl;
            MultiprocessorTopologyHelper rl;
            UseRifl(rl, 0.0);
            NS_TEST_ASSERT_MSG_EQ(rl.GetLinkTechnology(), MultiprocessorTopologyHelper::RIFL,
                                  "technology set");
            for (MultiprocessorTopologyHelper* h : {&dl, &rl})
            {
                if (topo == 0)
                {
                    h->FullMesh(4);
                }
                else if (topo == 1)
                {
                    h->Ring(6);
                }
                else
                {
                    h->Torus2D(3, 3);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(rl.GetNLinks(), dl.GetNLinks(), "link count");
            NS_TEST_ASSERT_MSG_EQ(rl.DeadlockFree(), dl.DeadlockFree(), "deadlock check");
            for (uint32_t i = 0; i < rl.GetNCpus(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(rl.GetDegree(i), dl.GetDegree(i), "degree of " << i);
                NS_TEST_ASSERT_MSG_EQ(rl.GetDliu(i)->GetNDevices(), rl.GetDegree(i),
                                      "one DLIU interface per link");
                for (uint32_t j : rl.GetNeighbours(i))
                {
                    NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(rl.GetInterface(i, j)), false,
                                          "no direct-link device");
                    Ptr<RiflNetDevice> dev = DynamicCast<RiflNetDevice>(rl.GetNetDevice(i, j));
                    NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(dev), true, "a RIFL device");
                    Ptr<RiflMessagePort> port = DynamicCast<RiflMessagePort>(rl.GetPort(i, j));
                    NS_TEST_ASSERT_MSG_EQ(RiflPtrValid(port), true, "a RIFL message port");
                    NS_TEST_ASSERT_MSG_EQ(dev->GetObject<RiflMessagePort>(), port,
                                          "the port is aggregated to its device");
                    NS_TEST_ASSERT_MSG_EQ(port->GetPeerNode(), rl.GetCpu(j), "peer node");
                    NS_TEST_ASSERT_MSG_EQ(rl.IsDateline(i, j), dl.IsDateline(i, j), "dateline");
                    NS_TEST_ASSERT_MSG_EQ(rl.GetDliu(i)->GetLinkClass(dev).first,
                                          dl.GetDliu(i)->GetLinkClass(dl.GetInterface(i, j)).first,
                                          "link dimension");
                }
                for (uint32_t j = 0; j < rl.GetNCpus(); ++j)
                {
                    NS_TEST_ASSERT_MSG_EQ((rl.GetPath(i, j) == dl.GetPath(i, j)), true,
                                          "route " << i << " -> " << j);
                }
            }
            Simulator::Destroy();
        }
    }
};

namespace
{

/// Messages one test CPU received.
struct HoldLog
{
    std::array<std::vector<uint32_t>, 4> seqByVc; //!< sequence numbers by VC, in order
    uint32_t badContent{0};                       //!< content that did not match
};

/**
 * \param vc VC. \param seq number.
 * \return the message content.
 */
std::vector<uint8_t>
HoldContent(uint32_t vc, uint32_t seq)
{
    std::vector<uint8_t> b(20 + seq);
    for (uint32_t i = 0; i < b.size(); ++i)
    {
        b[i] = static_cast<uint8_t>(i == 0 ? seq : vc * 77 + seq * 13 + i * 3);
    }
    return b;
}

/**
 * \brief Receive callback of the hold test.
 * \param log the log. \param port the port. \param m the message.
 */
void
HoldReceive(HoldLog* log, Ptr<DirectLinkPort> port, const DirectLinkMessage& m)
{
    const uint32_t seq = m.bytes.empty() ? 0 : m.bytes[0];
    log->seqByVc[m.vc].push_back(seq);
    if (m.bytes != HoldContent(m.vc, seq) || !m.contentOk || m.srcCpu != 1 || m.dstCpu != 2)
    {
        ++log->badContent;
    }
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Per-VC message credits and the receive hold of one RIFL link's ports.
 */
class RiflMessagePortHoldTestCase : public TestCase
{
  public:
    RiflMessagePortHoldTestCase()
        : TestCase("RiflMessagePort: a held VC stalls alone (VcBufferMessages messages buffered, "
                   "the sender out of credits) while another VC delivers; the release delivers "
                   "the rest in order and every credit comes back")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        RiflHelper rifl;
        rifl.SetDeviceAttribute("Startup", StringValue("Short"));
        NetDeviceContainer d = rifl.Install(nodes.Get(0), nodes.Get(1));
        Ptr<RiflMessagePort> a = CreateObject<RiflMessagePort>();
        Ptr<RiflMessagePort> b = CreateObject<RiflMessagePort>();
        b->SetAttribute("VcBufferMessages", UintegerValue(3));
        a->SetDevice(DynamicCast<RiflNetDevice>(d.Get(0)));
        b->SetDevice(DynamicCast<RiflNetDevice>(d.Get(1)));
        HoldLog log;
        b->SetReceiveCallback(MakeBoundCallback(&HoldReceive, &log));
        b->SetReceiveHold(0, true);
        for (uint32_t k = 0; k < 10; ++k)
        {
            for (uint32_t vc : {0u, 1u})
            {
                const uint64_t id
                    = a->SendMessage(2, 1, vc, vc, HoldContent(vc, k), DirectLinkMessageFlags());
                NS_TEST_ASSERT_MSG_GT(id, 0u, "accepted");
            }
        }
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(log.seqByVc[1].size(), 10u, "VC1 delivered everything");
        NS_TEST_ASSERT_MSG_EQ(log.seqByVc[0].size(), 0u, "VC0 held: nothing delivered");
        NS_TEST_ASSERT_MSG_EQ(b->GetHeldMessages(0), 3u, "VcBufferMessages = 3 buffered");
        NS_TEST_ASSERT_MSG_EQ(a->GetCredits(0), 0u, "the sender is out of VC0 credits");
        NS_TEST_ASSERT_MSG_EQ(a->GetVcQueueLength(0), 7u, "7 wait at the sender");
        NS_TEST_ASSERT_MSG_EQ(a->GetCredits(1), 3u, "every VC1 credit came back");
        b->SetReceiveHold(0, false);
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(log.seqByVc[0].size(), 10u, "VC0 delivered after the release");
        for (uint32_t vc : {0u, 1u})
        {
            for (uint32_t k = 0; k < log.seqByVc[vc].size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(log.seqByVc[vc][k], k, "VC " << vc << " in order");
            }
            NS_TEST_ASSERT_MSG_EQ(a->GetCredits(vc), 3u, "VC " << vc << ": credits back");
        }
        NS_TEST_ASSERT_MSG_EQ(log.badContent, 0u, "content, routing word and ground truth");
        const RiflMessagePortCounters ca = a->GetCounters();
        const RiflMessagePortCounters cb = b->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(ca.messagesAccepted, 20u, "accepted");
        NS_TEST_ASSERT_MSG_EQ(ca.messagesSent, 20u, "sent");
        NS_TEST_ASSERT_MSG_EQ(cb.messagesReceived, 20u, "received");
        NS_TEST_ASSERT_MSG_EQ(cb.creditsReturned, 0u, "b sent nothing: no credit came back to b");
        NS_TEST_ASSERT_MSG_EQ(ca.creditsReturned, 20u, "one credit per message came back");
        NS_TEST_ASSERT_MSG_GT(cb.creditPacketsSent, 0u, "credit packets went back");
        NS_TEST_ASSERT_MSG_EQ(ca.messagesLost + cb.messagesLost, 0u, "nothing lost");
        NS_TEST_ASSERT_MSG_EQ(ca.creditOverflows, 0u, "no excess credit");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief Request/response over RIFL links at BER 1e-6 in both directions.
 */
class RiflLinksEndToEndTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param torus 3x3 torus (true) or ring of 6 (false).
     */
    RiflLinksEndToEndTestCase(bool torus)
        : TestCase(std::string(torus ? "3x3 torus" : "Ring of 6")
                   + " with RIFL links at BER 1e-6 both ways (ReplayTail Corrected): every "
                     "response content-checked, exactly once; replays seen; nothing lost")
        , m_torus(torus)
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        UseRifl(h, 1e-6);
        if (m_torus)
        {
            h.Torus2D(3, 3);
        }
        else
        {
            h.Ring(6);
        }
        const uint32_t n = 300;
        std::vector<Ptr<CpuTrafficApplication>> apps = InstallApps(h, n, 4);
        Simulator::Stop(MicroSeconds(500)); // the traffic needs about 150 us
        Simulator::Run();
        uint64_t served = 0;
        uint64_t forwarded = 0;
        for (uint32_t i = 0; i < h.GetNCpus(); ++i)
        {
            const CpuTrafficStats st = apps[i]->GetStats();
            NS_TEST_ASSERT_MSG_EQ(st.responsesOk, n, "CPU " << i << ": every response arrived");
            NS_TEST_ASSERT_MSG_EQ(st.responsesBad + st.responsesErrored + st.responsesUnknown
                                      + st.responsesLate + st.timeouts + st.requestsRefused,
                                  0u, "CPU " << i << ": nothing wrong, late or refused");
            NS_TEST_ASSERT_MSG_EQ(st.outstanding, 0u, "CPU " << i << ": nothing outstanding");
            served += st.requestsServed;
            forwarded += h.GetDliu(i)->GetCounters().forwarded;
        }
        uint64_t replays = 0;
        uint64_t detected = 0;
        uint64_t undetected = 0;
        const NetDeviceContainer devs = h.GetDevices();
        for (uint32_t k = 0; k < devs.GetN(); ++k)
        {
            const RiflEndpointCounters c = DynamicCast<RiflNetDevice>(devs.Get(k))->GetCounters();
            replays += c.replays;
            detected += c.errorsDetected;
            undetected += c.undetectedErrors;
        }
        const PortTotals t = SumPorts(h);
        std::cout << (m_torus ? "torus 3x3" : "ring 6") << " over RIFL at BER 1e-6: " << served
                  << " served, " << forwarded << " forwarded, " << t.sent << " messages and "
                  << t.credits << " credit packets sent, " << detected << " errors detected, "
                  << replays << " replays" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(served, uint64_t(n) * h.GetNCpus(), "served exactly once");
        NS_TEST_ASSERT_MSG_GT(forwarded, 0u, "multi-hop routes were used");
        NS_TEST_ASSERT_MSG_GT(replays, 0u, "RIFL replayed corrupted frames");
        NS_TEST_ASSERT_MSG_EQ(undetected, 0u, "no undetected RIFL error in this run");
        NS_TEST_ASSERT_MSG_EQ(t.lost + t.corrupt, 0u, "nothing lost or corrupt at the ports");
        NS_TEST_ASSERT_MSG_EQ(t.sent, t.received, "every message sent was received");
        NS_TEST_ASSERT_MSG_EQ(t.queued + t.held, 0u, "nothing left in the ports");
        Simulator::Destroy();
    }

    bool m_torus; //!< torus or ring
};

namespace
{

/**
 * \brief Latency trace sink: count responses and remember the last.
 * \param last the time. \param count responses. \param dst the CPU that answered.
 * \param latency its latency.
 */
void
RecordResponse(Time* last, uint64_t* count, uint32_t dst, Time latency)
{
    *last = Simulator::Now();
    ++*count;
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Closed-loop saturation over RIFL links with one-message VC buffers.
 */
class RiflLinksSaturationTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param torus 4x4 torus (true) or ring of 6 (false).
     * \param mode deadlock avoidance.
     */
    RiflLinksSaturationTestCase(bool torus, MultiprocessorTopologyHelper::DeadlockAvoidance mode)
        : TestCase(std::string(torus ? "Torus 4x4" : "Ring of 6")
                   + " with RIFL links saturated (32 outstanding per CPU, VcBufferMessages 1), "
                   + ModeName(mode)
                   + (mode == MultiprocessorTopologyHelper::NO_AVOIDANCE
                          ? ": deadlocks for good (no credit timeout on RIFL)"
                          : ": no deadlock, every request answered exactly once"))
        , m_torus(torus)
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        MultiprocessorTopologyHelper h;
        UseRifl(h, 0.0);
        h.SetRiflPortAttribute("VcBufferMessages", UintegerValue(1));
        h.SetDliuAttribute("OutputQueueMessages", UintegerValue(1));
        h.SetDliuAttribute("InputHoldMessages", UintegerValue(1));
        h.SetDeadlockAvoidance(m_mode);
        if (m_torus)
        {
            h.Torus2D(4, 4);
        }
        else
        {
            h.Ring(6);
        }
        const uint32_t n = m_torus ? 400 : 1000;
        std::vector<Ptr<CpuTrafficApplication>> apps = InstallApps(h, n, 32);
        Time last;
        uint64_t responses = 0;
        for (auto& a : apps)
        {
            a->TraceConnectWithoutContext("Latency",
                                          MakeBoundCallback(&RecordResponse, &last, &responses));
        }
        const Time stop = MilliSeconds(4);
        Simulator::Stop(stop);
        Simulator::Run();
        uint64_t ok = 0;
        uint64_t bad = 0;
        uint64_t served = 0;
        uint64_t holds = 0;
        uint64_t waiting = 0;
        for (uint32_t i = 0; i < h.GetNCpus(); ++i)
        {
            const CpuTrafficStats st = apps[i]->GetStats();
            ok += st.responsesOk;
            bad += st.responsesBad + st.responsesErrored + st.responsesLate + st.responsesUnknown
                   + st.requestsRefused + st.requestsErrored;
            served += st.requestsServed;
            holds += h.GetDliu(i)->GetCounters().drainHolds;
            waiting += h.GetDliu(i)->GetWaitingMessages();
        }
        const PortTotals t = SumPorts(h);
        const uint64_t total = uint64_t(n) * h.GetNCpus();
        std::cout << (m_torus ? "torus 4x4" : "ring 6") << " over RIFL saturated, "
                  << ModeName(m_mode) << ": " << ok << " of " << total << " answered, last at "
                  << last.GetMicroSeconds() << " us; drain holds " << holds << ", waiting "
                  << waiting << ", held at ports " << t.held << std::endl;
        NS_TEST_ASSERT_MSG_GT(holds, 0u, "back-pressure reached the links (saturation)");
        NS_TEST_ASSERT_MSG_EQ(t.lost, 0u, "nothing lost at the ports");
        NS_TEST_ASSERT_MSG_EQ(bad, 0u, "no wrong, duplicate or refused message");
        if (m_mode == MultiprocessorTopologyHelper::NO_AVOIDANCE)
        {
            NS_TEST_ASSERT_MSG_LT(ok, total, "not every request was answered");
            NS_TEST_ASSERT_MSG_GT(waiting + t.held, 0u, "messages stuck in a cycle");
            // no progress any more: a real deadlock, not a slow network
            const uint64_t before = responses;
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(responses, before, "no response in another millisecond");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(served, total, "every request served exactly once");
        NS_TEST_ASSERT_MSG_EQ(ok, total, "every response content-checked, exactly once");
        NS_TEST_ASSERT_MSG_LT(last, stop, "the last response arrived before the end");
        NS_TEST_ASSERT_MSG_EQ(waiting + t.held + t.queued, 0u, "nothing left anywhere");
        Simulator::Destroy();
    }

    bool m_torus;                                           //!< torus or ring
    MultiprocessorTopologyHelper::DeadlockAvoidance m_mode; //!< deadlock avoidance
};

namespace
{

/// What one run of the split-links comparison gave.
struct SplitRun
{
    std::vector<CpuTrafficStats> stats;          //!< by CPU
    std::vector<std::vector<int64_t>> latencies; //!< by CPU, in arrival order
    std::vector<RiflMessagePortCounters> ports;  //!< by link end (GetLink order)
    std::vector<RiflEndpointCounters> rifl;      //!< by link end
    uint32_t across{0};                          //!< links between the CPU groups
};

/**
 * \brief Run a 4x4 torus on RIFL links at BER 1e-6 with RiflCanonicalTies on.
 * \param split two CPU groups with the links between them split (true) or not.
 * \return what it gave.
 */
SplitRun
RunTorusSplit(bool split)
{
    MultiprocessorTopologyHelper h;
    UseRifl(h, 1e-6);
    if (split)
    {
        h.SetRanks(2);
        h.SetSplitRemoteLinks(true);
    }
    h.Torus2D(4, 4);
    std::vector<Ptr<CpuTrafficApplication>> apps = InstallApps(h, 60, 4);
    Simulator::Stop(MicroSeconds(120));
    Simulator::Run();
    SplitRun r;
    r.across = h.GetNLinksAcrossRanks();
    for (const auto& a : apps)
    {
        r.stats.push_back(a->GetStats());
        r.latencies.push_back(a->GetLatencies());
    }
    for (uint32_t k = 0; k < h.GetNLinks(); ++k)
    {
        for (uint32_t e = 0; e < 2; ++e)
        {
            Ptr<RiflNetDevice> d = DynamicCast<RiflNetDevice>(h.GetLink(k).Get(e));
            r.ports.push_back(d->GetObject<RiflMessagePort>()->GetCounters());
            r.rifl.push_back(d->GetCounters());
        }
    }
    Simulator::Destroy();
    return r;
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief RIFL links between CPU groups split (the structure of an MPI run) give the
 *        unsplit run's results, with canonical ties.
 */
class RiflLinksSplitTestCase : public TestCase
{
  public:
    RiflLinksSplitTestCase()
        : TestCase("4x4 torus on RIFL links at BER 1e-6, RiflCanonicalTies on: two CPU groups "
                   "with the 8 links between them split give exactly the unsplit run's "
                   "latencies, application and port counters and RIFL counters")
    {
    }

  private:
    void DoRun() override
    {
        GlobalValue::Bind("RiflCanonicalTies", BooleanValue(true));
        const SplitRun a = RunTorusSplit(false);
        const SplitRun b = RunTorusSplit(true);
        GlobalValue::Bind("RiflCanonicalTies", BooleanValue(false));
        NS_TEST_ASSERT_MSG_EQ(b.across, 8u, "8 links between the two groups");
        uint64_t ok = 0;
        for (std::size_t i = 0; i < a.stats.size(); ++i)
        {
            ok += a.stats[i].responsesOk;
            NS_TEST_ASSERT_MSG_EQ(b.stats[i].responsesOk, a.stats[i].responsesOk, "CPU " << i);
            NS_TEST_ASSERT_MSG_EQ(b.stats[i].requestsServed, a.stats[i].requestsServed,
                                  "CPU " << i);
            NS_TEST_ASSERT_MSG_EQ((b.latencies[i] == a.latencies[i]), true,
                                  "CPU " << i << ": every latency, in order");
        }
        NS_TEST_ASSERT_MSG_EQ(ok, 960u, "every response of the 16 CPUs arrived");
        uint64_t replays = 0;
        for (std::size_t k = 0; k < a.ports.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(b.ports[k].messagesSent, a.ports[k].messagesSent, "end " << k);
            NS_TEST_ASSERT_MSG_EQ(b.ports[k].messagesReceived, a.ports[k].messagesReceived,
                                  "end " << k);
            NS_TEST_ASSERT_MSG_EQ(b.ports[k].creditPacketsSent, a.ports[k].creditPacketsSent,
                                  "end " << k);
            const auto diff = a.rifl[k].Diff(b.rifl[k]);
            NS_TEST_ASSERT_MSG_EQ(diff.empty(), true,
                                  "end " << k << ": RIFL counters, first " << diff.front());
            replays += a.rifl[k].replays;
        }
        NS_TEST_ASSERT_MSG_GT(replays, 0u, "errors were replayed");
    }
};

/**
 * \ingroup rifl-tests
 * \brief Bad input to RiflMessagePort and the RIFL link technology.
 */
class RiflMessagePortBadInputTestCase : public TestCase
{
  public:
    RiflMessagePortBadInputTestCase()
        : TestCase("RiflMessagePort and SetLinkTechnology: bad input is refused with a message "
                   "naming the parameter")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        RiflHelper rifl;
        NetDeviceContainer d = rifl.Install(nodes.Get(0), nodes.Get(1));
        Ptr<RiflNetDevice> d0 = DynamicCast<RiflNetDevice>(d.Get(0));
        Ptr<RiflNetDevice> d1 = DynamicCast<RiflNetDevice>(d.Get(1));
        Ptr<RiflMessagePort> a = CreateObject<RiflMessagePort>();
        std::string m = InvalidArgumentMessage(
            [&]()
            {
                a->SetDevice(nullptr);
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "device must not be null"), true, m);
        m = InvalidArgumentMessage(
            [&]()
            {
                CreateObject<RiflMessagePort>()->SetDevice(CreateObject<RiflNetDevice>());
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "on no node"), true, m);
        d1->SetAttribute("PppHeader", BooleanValue(false));
        m = InvalidArgumentMessage(
            [&]()
            {
                CreateObject<RiflMessagePort>()->SetDevice(d1);
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "PppHeader"), true, m);
        d1->SetAttribute("PppHeader", BooleanValue(true));
        d1->SetMtu(15);
        m = InvalidArgumentMessage(
            [&]()
            {
                CreateObject<RiflMessagePort>()->SetDevice(d1);
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "Mtu = 15"), true, m);
        d1->SetMtu(1500);
        a->SetDevice(d0);
        m = InvalidArgumentMessage(
            [&]()
            {
                CreateObject<RiflMessagePort>()->SetDevice(d0);
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "already has a DLIU port"), true, m);
        const std::vector<uint8_t> small(8, 1);
        m = InvalidArgumentMessage(
            [&]()
            {
                a->SendMessage(1, 0, 0, 0, small, DirectLinkMessageFlags());
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "has no RiflMessagePort; both ends need one"), true, m);
        Ptr<RiflMessagePort> b = CreateObject<RiflMessagePort>();
        b->SetDevice(d1);
        m = InvalidArgumentMessage(
            [&]()
            {
                a->SendMessage(1, 0, 0, 4, small, DirectLinkMessageFlags());
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "vc = 4 is out of range [0, 3]"), true, m);
        m = InvalidArgumentMessage(
            [&]()
            {
                a->SendMessage(1, 0, 16, 0, small, DirectLinkMessageFlags());
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "msgClass = 16 is out of range [0, 15]"), true, m);
        m = InvalidArgumentMessage(
            [&]()
            {
                a->SendMessage(1, 0, 0, 0, std::vector<uint8_t>(1486), DirectLinkMessageFlags());
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "bytes size = 1486 exceeds the device's Mtu - 15 = 1485"),
                              true, m);
        DirectLinkMessageFlags f;
        f.announcedLength = 100;
        m = InvalidArgumentMessage(
            [&]()
            {
                a->SendMessage(1, 0, 0, 0, small, f);
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "needs netErr"), true, m);
        m = InvalidArgumentMessage(
            [&]()
            {
                a->GetCredits(9);
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "vc = 9 is out of range [0, 3]"), true, m);
        MultiprocessorTopologyHelper h;
        m = InvalidArgumentMessage(
            [&]()
            {
                h.SetLinkTechnology(static_cast<MultiprocessorTopologyHelper::LinkTechnology>(7));
            });
        NS_TEST_ASSERT_MSG_EQ(Has(m, "technology = 7 is not DIRECT_LINK or RIFL"), true, m);
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief RIFL as the multiprocessor's link technology.
 */
class RiflMultiprocessorRiflLinksTestSuite : public TestSuite
{
  public:
    RiflMultiprocessorRiflLinksTestSuite()
        : TestSuite("rifl-multiprocessor-rifl-links", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflLinksStructureTestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflMessagePortHoldTestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflMessagePortBadInputTestCase(), RIFL_TEST_QUICK);
        AddTestCase(new RiflLinksEndToEndTestCase(false), RIFL_TEST_QUICK);
        AddTestCase(new RiflLinksEndToEndTestCase(true), RIFL_TEST_QUICK);
        AddTestCase(new RiflLinksSplitTestCase(), RIFL_TEST_QUICK);
        for (bool torus : {false, true})
        {
            for (auto mode : {MultiprocessorTopologyHelper::DATELINE_VCS,
                              MultiprocessorTopologyHelper::DATELINE_ROUTING,
                              MultiprocessorTopologyHelper::NO_AVOIDANCE})
            {
                AddTestCase(new RiflLinksSaturationTestCase(torus, mode), RIFL_TEST_QUICK);
            }
        }
    }
};

/// The suite instance.
static RiflMultiprocessorRiflLinksTestSuite g_riflMultiprocessorRiflLinksTestSuite;

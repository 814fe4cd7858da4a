/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of DirectLinkNetDevice / DirectLinkChannel / DirectLinkInterfaceUnit /
 * CpuTrafficApplication / DirectLinkHelper inside ns-3: exact request/response
 * latency from the slot arithmetic, lossless request/response traffic under bit
 * errors, IPv4 UDP over the device, store-and-forward through a middle CPU,
 * Shutdown accounting under persistent errors, configuration errors, and attributes
 * refused once the link has started.
 */

#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/deterministic-error-process.h"
#include "ns3/direct-link-channel.h"
#include "ns3/direct-link-flit.h"
#include "ns3/direct-link-helper.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"
#include "rifl-test-util.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// A few CPUs on direct links, each with a DLIU and a CpuTrafficApplication.
struct CpuBed
{
    NodeContainer nodes;                             //!< the CPUs
    std::vector<NetDeviceContainer> links;           //!< the links, in Link() order
    std::vector<Ptr<DirectLinkInterfaceUnit>> dlius; //!< by CPU
    std::vector<Ptr<CpuTrafficApplication>> apps;    //!< by CPU
    DirectLinkHelper helper;                         //!< the helper

    /**
     * \brief Create the nodes.
     * \param n number of CPUs.
     * \param engine "Fast" or "Reference".
     * \param ber both directions of every link.
     */
    CpuBed(uint32_t n, const std::string& engine, double ber)
    {
        nodes.Create(n);
        helper.SetChannelAttribute("Engine", StringValue(engine));
        helper.SetChannelAttribute("Ber", DoubleValue(ber));
    }

    /**
     * \brief Connect two CPUs.
     * \param a first CPU. \param b second CPU.
     * \return the devices.
     */
    NetDeviceContainer Link(uint32_t a, uint32_t b)
    {
        links.push_back(helper.Install(nodes.Get(a), nodes.Get(b)));
        return links.back();
    }

    /**
     * \brief DLIUs and applications on every CPU (CPU i = node i); only \p sender
     *        generates requests.
     * \param sender the requesting CPU (-1: all).
     * \param start application start.
     */
    void Apps(int32_t sender, Time start)
    {
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            dlius.push_back(helper.InstallDliu(nodes.Get(i), i));
        }
        int64_t stream = 10;
        for (auto& l : links)
        {
            stream += helper.AssignStreams(l, stream);
        }
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            Ptr<CpuTrafficApplication> app = CreateObject<CpuTrafficApplication>();
            app->SetAttribute("GenerateRequests",
                              BooleanValue(sender < 0 || static_cast<uint32_t>(sender) == i));
            app->AssignStreams(1000 + 10 * i);
            nodes.Get(i)->AddApplication(app);
            app->SetStartTime(start);
            apps.push_back(app);
        }
    }

    /**
     * \param link a link index.
     * \return its channel.
     */
    Ptr<DirectLinkChannel> Channel(uint32_t link) const
    {
        return DynamicCast<DirectLinkChannel>(links[link].Get(0)->GetChannel());
    }

    /**
     * \param link a link index. \param side 0 or 1.
     * \return the device.
     */
    Ptr<DirectLinkNetDevice> Dev(uint32_t link, uint32_t side) const
    {
        return DynamicCast<DirectLinkNetDevice>(links[link].Get(side));
    }
};

/**
 * \param ch a started channel.
 * \param t a time.
 * \return the first slot starting at or after t.
 */
uint64_t
FirstSlotAtOrAfter(Ptr<DirectLinkChannel> ch, Time t)
{
    uint64_t s = ch->SlotAt(t);
    if (ch->GetSlotStart(s) < t)
    {
        ++s;
    }
    return s;
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief One request and its response at BER 0: latency equals the slot arithmetic.
 */
class DirectLinkDeviceLatencyTestCase : public TestCase
{
  public:
    DirectLinkDeviceLatencyTestCase()
        : TestCase("One request-response at BER 0 takes exactly the slot arithmetic, 1 and 2 hops")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string engine; //!< engine
            uint32_t hops;      //!< 1 (A-B) or 2 (A-B-C)
            int64_t delay;      //!< OneWayDelaySlots (-1 = cable default)
            uint32_t reqBytes;  //!< request bytes
            uint32_t respBytes; //!< response bytes
            Time start;         //!< request time
        };
        const std::vector<Case> cases = {
            {"Reference", 1, -1, 8, 64, MicroSeconds(10)},
            {"Fast", 1, -1, 8, 64, MicroSeconds(10)},
            {"Reference", 1, 5, 30, 256, NanoSeconds(10017)}, // inside a slot: waits for the next
            {"Reference", 2, -1, 8, 64, MicroSeconds(10)},
            {"Fast", 2, 3, 8, 64, NanoSeconds(12345)},
        };
        for (const Case& c : cases)
        {
            CpuBed bed(c.hops + 1, c.engine, 0.0);
            bed.helper.SetChannelAttribute("OneWayDelaySlots", IntegerValue(c.delay));
            bed.Link(0, 1);
            if (c.hops == 2)
            {
                bed.Link(1, 2);
            }
            bed.Apps(0, c.start);
            if (c.hops == 2)
            {
                DirectLinkHelper::SetRoute(bed.nodes.Get(0), 2, bed.links[0].Get(0));
                DirectLinkHelper::SetRoute(bed.nodes.Get(2), 0, bed.links[1].Get(1));
            }
            Ptr<CpuTrafficApplication> a = bed.apps[0];
            a->SetAttribute("MaxRequests", UintegerValue(1));
            a->SetAttribute("RequestBytes", UintegerValue(c.reqBytes));
            a->SetAttribute("ResponseBytes", UintegerValue(c.respBytes));
            a->SetDestinations({c.hops});
            Simulator::Stop(c.start + MicroSeconds(20));
            Simulator::Run();
            const CpuTrafficStats st = a->GetStats();
            const std::string what = c.engine + ", " + std::to_string(c.hops) + " hop(s), "
                                     + std::to_string(c.reqBytes) + "/"
                                     + std::to_string(c.respBytes) + " B";
            NS_TEST_ASSERT_MSG_EQ(st.responsesOk, 1u, what << ": the response arrived intact");
            NS_TEST_ASSERT_MSG_EQ(st.responsesBad, 0u, what << ": content");
            Ptr<DirectLinkChannel> ch = bed.Channel(0);
            const uint64_t L = ch->GetConfig().oneWayDelaySlots;
            const uint64_t wantL = c.delay < 0 ? 2 : static_cast<uint64_t>(c.delay);
            NS_TEST_ASSERT_MSG_EQ(L, wantL, "delay");
            const uint64_t nReq = DirectLinkFlit::NumMicroPackets(c.reqBytes);
            const uint64_t nResp = DirectLinkFlit::NumMicroPackets(c.respBytes);
            // Offered at the first slot boundary s0 at or after the request time, an
            // n-micro-packet message occupies slots s0 .. s0+n-1, its tail arrives at the
            // end of slot s0+n-1+L, and the NI delivers it then; the channel dispatches it
            // at the start of slot s0+n+L, where the destination answers (or the middle
            // DLIU forwards it, store-and-forward) at once. So each hop costs n + L slots.
            const uint64_t s0 = FirstSlotAtOrAfter(ch, c.start);
            const uint64_t end = s0 + c.hops * (nReq + L) + c.hops * (nResp + L);
            const Time expected = ch->GetSlotStart(end) - c.start;
            NS_TEST_ASSERT_MSG_EQ(a->GetLatencies().size(), 1u, what);
            NS_TEST_EXPECT_MSG_EQ(NanoSeconds(a->GetLatencies()[0]), expected,
                                  what << ": latency = slot arithmetic (slot " << end << ")");
            if (c.hops == 2)
            {
                NS_TEST_EXPECT_MSG_EQ(bed.dlius[1]->GetCounters().forwarded, 2u,
                                      what << ": B forwarded the request and the response");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief Request/response traffic both ways at BER 1e-5: lossless, content checked.
 */
class DirectLinkDeviceLosslessTestCase : public TestCase
{
  public:
    DirectLinkDeviceLosslessTestCase()
        : TestCase("Two CPUs at BER 1e-5 both directions: every response arrives with correct "
                   "content")
    {
    }

  private:
    void DoRun() override
    {
        CpuBed bed(2, "Fast", 1e-5);
        bed.Link(0, 1);
        bed.Apps(-1, MicroSeconds(5));
        const uint32_t n = 1500;
        for (auto& app : bed.apps)
        {
            app->SetAttribute("MaxRequests", UintegerValue(n));
            app->SetAttribute("MaxOutstanding", UintegerValue(8));
        }
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        uint64_t crc = 0;
        uint64_t retrans = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            const CpuTrafficStats st = bed.apps[i]->GetStats();
            NS_TEST_ASSERT_MSG_EQ(st.responsesOk, n, "CPU " << i << ": every response arrived");
            NS_TEST_ASSERT_MSG_EQ(st.responsesBad, 0u, "CPU " << i << ": content checked");
            NS_TEST_ASSERT_MSG_EQ(st.responsesErrored, 0u, "CPU " << i << ": no NetErr");
            NS_TEST_ASSERT_MSG_EQ(st.timeouts, 0u, "CPU " << i << ": no timeout");
            const DirectLinkDeviceCounters dc = bed.Dev(0, i)->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(dc.shutdowns, 0u, "no Shutdown");
            NS_TEST_ASSERT_MSG_EQ(dc.messagesLost, 0u, "nothing lost");
            NS_TEST_ASSERT_MSG_EQ(dc.undetectedErrors, 0u, "no undetected error");
            crc += dc.crcErrors;
            retrans += dc.retransmissions;
        }
        std::cout << "BER 1e-5: " << 2 * n << " request-response pairs, " << crc
                  << " micro-packets failed a check, " << retrans << " retransmissions, p99 "
                  << bed.apps[0]->GetStats().latencyP99Ns << " ns" << std::endl;
        NS_TEST_ASSERT_MSG_GT(crc, 0u, "errors did happen");
        NS_TEST_ASSERT_MSG_GT(retrans, 0u, "and were retransmitted");
        Simulator::Destroy();
    }
};

namespace
{

/// What a UDP receiver saw.
struct UdpLog
{
    std::vector<uint32_t> seq; //!< sequence numbers in arrival order
    uint32_t bad{0};           //!< payloads with a wrong pattern
};

/**
 * \param seq sequence number. \param size bytes.
 * \return the payload.
 */
std::vector<uint8_t>
UdpPattern(uint32_t seq, uint32_t size)
{
    std::vector<uint8_t> b(size);
    for (uint32_t i = 0; i < size; ++i)
    {
        b[i] = static_cast<uint8_t>(seq * 31 + i * 7);
    }
    b[0] = seq >> 8;
    b[1] = seq & 0xFF;
    return b;
}

/**
 * \brief Socket receive callback.
 * \param log the log. \param socket the socket.
 */
void
UdpRx(UdpLog* log, Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        const uint32_t seq = (uint32_t(b[0]) << 8) | b[1];
        log->seq.push_back(seq);
        if (b != UdpPattern(seq, b.size()))
        {
            ++log->bad;
        }
    }
}

/**
 * \brief Send one datagram.
 * \param s socket. \param seq number. \param size bytes.
 */
void
UdpSend(Ptr<Socket> s, uint32_t seq, uint32_t size)
{
    std::vector<uint8_t> b = UdpPattern(seq, size);
    s->Send(Create<Packet>(b.data(), b.size()));
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief IPv4 UDP over a direct link, alongside DLIU traffic.
 */
class DirectLinkDeviceIpTestCase : public TestCase
{
  public:
    DirectLinkDeviceIpTestCase()
        : TestCase("IPv4 UDP over DirectLinkNetDevice (VC2) with request traffic on VC0 and VC1")
    {
    }

  private:
    void DoRun() override
    {
        CpuBed bed(2, "Fast", 1e-6);
        NetDeviceContainer d = bed.Link(0, 1);
        bed.Apps(0, MicroSeconds(5));
        bed.apps[0]->SetAttribute("MaxRequests", UintegerValue(300));
        bed.apps[0]->SetAttribute("MaxOutstanding", UintegerValue(4));
        InternetStackHelper ip;
        ip.Install(bed.nodes);
        Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(d);
        UdpLog log;
        Ptr<Socket> rx = Socket::CreateSocket(bed.nodes.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetRecvCallback(MakeBoundCallback(&UdpRx, &log));
        Ptr<Socket> tx = Socket::CreateSocket(bed.nodes.Get(0), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(ifs.GetAddress(1), 9));
        const uint32_t n = 200;
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(MicroSeconds(10) + NanoSeconds(400 * i), &UdpSend, tx, i,
                                100 + (i * 97) % 1300);
        }
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(log.seq.size(), n, "every datagram arrived");
        for (uint32_t i = 0; i < n; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(log.seq[i], i, "in order, exactly once");
        }
        NS_TEST_ASSERT_MSG_EQ(log.bad, 0u, "content intact");
        const DirectLinkDeviceCounters rxc = bed.Dev(0, 1)->GetCounters();
        NS_TEST_ASSERT_MSG_EQ(rxc.ipPacketsReceived, n, "IP packets counted");
        NS_TEST_ASSERT_MSG_EQ(bed.apps[0]->GetStats().responsesOk, 300u, "requests too");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief Three CPUs in a line: requests A -> C are forwarded by B and answered.
 */
class DirectLinkDeviceLineTestCase : public TestCase
{
  public:
    DirectLinkDeviceLineTestCase()
        : TestCase("Three CPUs in a line A-B-C at BER 1e-5: requests A to C forwarded by B, all "
                   "answered")
    {
    }

  private:
    void DoRun() override
    {
        CpuBed bed(3, "Fast", 1e-5);
        bed.Link(0, 1);
        bed.Link(1, 2);
        bed.Apps(0, MicroSeconds(5));
        DirectLinkHelper::SetRoute(bed.nodes.Get(0), 2, bed.links[0].Get(0));
        DirectLinkHelper::SetRoute(bed.nodes.Get(2), 0, bed.links[1].Get(1));
        const uint32_t n = 400;
        bed.apps[0]->SetAttribute("MaxRequests", UintegerValue(n));
        bed.apps[0]->SetAttribute("MaxOutstanding", UintegerValue(6));
        bed.apps[0]->SetDestinations({1, 2});
        bed.apps[0]->SetAttribute("HotspotCpu", IntegerValue(2));
        bed.apps[0]->SetAttribute("HotspotFraction", DoubleValue(0.75));
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        const CpuTrafficStats st = bed.apps[0]->GetStats();
        NS_TEST_ASSERT_MSG_EQ(st.responsesOk, n, "every request answered");
        NS_TEST_ASSERT_MSG_EQ(st.responsesBad + st.timeouts + st.responsesErrored, 0u, "cleanly");
        const CpuTrafficStats c = bed.apps[2]->GetStats();
        const CpuTrafficStats b = bed.apps[1]->GetStats();
        NS_TEST_ASSERT_MSG_EQ(b.requestsServed + c.requestsServed, n, "served by B and C");
        NS_TEST_ASSERT_MSG_GT(c.requestsServed, b.requestsServed, "the hotspot C got more");
        NS_TEST_ASSERT_MSG_EQ(bed.dlius[1]->GetCounters().forwarded, 2 * c.requestsServed,
                              "B forwarded each A-C request and response");
        NS_TEST_ASSERT_MSG_EQ(bed.dlius[1]->GetCounters().noRoute, 0u, "routes");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief Persistent errors force a Shutdown; every message is accounted for.
 */
class DirectLinkDeviceShutdownTestCase : public TestCase
{
  public:
    DirectLinkDeviceShutdownTestCase()
        : TestCase("A burst of persistent errors A to B forces Shutdown: traced, counted, sent = "
                   "delivered + truncated + lost")
    {
    }

  private:
    /// Trace counts.
    struct Traced
    {
        uint32_t shutdowns{0}; //!< Shutdown traces
        uint32_t lost{0};      //!< MessageLost traces
        uint32_t truncated{0}; //!< MessageTruncated traces
    };

    /// \param t counts. \param slot slot. \param reason reason.
    static void OnShutdown(Traced* t, uint64_t slot, int64_t reason)
    {
        ++t->shutdowns;
    }

    /// \param t counts. \param id id. \param vc VC. \param reason reason.
    static void OnLost(Traced* t, uint64_t id, uint32_t vc, uint8_t reason)
    {
        ++t->lost;
    }

    /// \param t counts. \param m message.
    static void OnTruncated(Traced* t, const DirectLinkMessage& m)
    {
        ++t->truncated;
    }

    void DoRun() override
    {
        CpuBed bed(2, "Fast", 0.0);
        NetDeviceContainer d = bed.Link(0, 1);
        Ptr<DirectLinkChannel> ch = bed.Channel(0);
        // Every micro-packet A sends in slots [1000, 4000) gets one data bit flipped
        // (always detected): A's retransmissions fail until RetransTime runs out.
        Ptr<DeterministicErrorProcess> burst = CreateObject<DeterministicErrorProcess>();
        for (uint64_t s = 1000; s < 4000; ++s)
        {
            burst->AddError(s, {100});
        }
        ch->SetErrorProcess(0, burst);
        bed.Apps(-1, MicroSeconds(5));
        for (auto& app : bed.apps)
        {
            app->SetAttribute("MaxOutstanding", UintegerValue(8));
            app->SetAttribute("Timeout", TimeValue(MicroSeconds(100)));
            app->SetStopTime(MicroSeconds(400));
        }
        std::vector<Traced> traced(2);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<DirectLinkNetDevice> dev = bed.Dev(0, i);
            dev->TraceConnectWithoutContext("Shutdown", MakeBoundCallback(&OnShutdown, &traced[i]));
            dev->TraceConnectWithoutContext("MessageLost", MakeBoundCallback(&OnLost, &traced[i]));
            dev->TraceConnectWithoutContext("MessageTruncated",
                                            MakeBoundCallback(&OnTruncated, &traced[i]));
        }
        Simulator::Stop(MicroSeconds(600));
        Simulator::Run();
        uint64_t shutdowns = 0;
        uint64_t lost = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            const DirectLinkDeviceCounters me = bed.Dev(0, i)->GetCounters();
            const DirectLinkDeviceCounters peer = bed.Dev(0, 1 - i)->GetCounters();
            shutdowns += me.shutdowns;
            lost += me.messagesLost;
            NS_TEST_ASSERT_MSG_EQ(traced[i].shutdowns, me.shutdowns, "Shutdown traced");
            NS_TEST_ASSERT_MSG_EQ(traced[i].lost, me.messagesLost, "MessageLost traced");
            NS_TEST_ASSERT_MSG_EQ(traced[i].truncated, me.messagesTruncated, "truncation traced");
            NS_TEST_ASSERT_MSG_EQ(bed.Dev(0, i)->GetQueuedMessages(), 0u, "all settled");
            NS_TEST_ASSERT_MSG_EQ(
                me.messagesAccepted,
                peer.messagesDelivered + peer.messagesTruncated + peer.messagesMalformed
                    + me.messagesLost
                    - me.lostByReason[static_cast<uint32_t>(DirectLinkLossReason::QUEUE_FULL)],
                "side " << i << ": sent = delivered + truncated + lost");
            NS_TEST_ASSERT_MSG_EQ(bed.apps[i]->GetStats().responsesBad, 0u, "no bad content");
        }
        const DirectLinkDeviceCounters ca = bed.Dev(0, 0)->GetCounters();
        const DirectLinkDeviceCounters cb = bed.Dev(0, 1)->GetCounters();
        std::cout << "error burst: Shutdowns A " << ca.shutdowns << " B " << cb.shutdowns
                  << "; A sent " << ca.messagesAccepted << " = B delivered " << cb.messagesDelivered
                  << " + truncated " << cb.messagesTruncated << " + A lost " << ca.messagesLost
                  << "; B sent " << cb.messagesAccepted << " = A delivered " << ca.messagesDelivered
                  << " + truncated " << ca.messagesTruncated << " + B lost " << cb.messagesLost
                  << "; timeouts A " << bed.apps[0]->GetStats().timeouts << " B "
                  << bed.apps[1]->GetStats().timeouts << std::endl;
        NS_TEST_ASSERT_MSG_GT(shutdowns, 0u, "the burst caused a Shutdown");
        NS_TEST_ASSERT_MSG_GT(lost + bed.Dev(0, 0)->GetCounters().messagesTruncated
                                  + bed.Dev(0, 1)->GetCounters().messagesTruncated,
                              0u, "and cost messages");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(bed.Dev(0, 0)->GetLinkState()),
                              static_cast<uint32_t>(DirectLinkEndpointState::LinkState::NORMAL),
                              "the link recovered");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief Bad attributes give messages naming the parameter.
 */
class DirectLinkDeviceConfigTestCase : public TestCase
{
  public:
    DirectLinkDeviceConfigTestCase()
        : TestCase("Bad attributes (RetryBufferSize 31, AckTime beyond 16 bits, unknown VC, "
                   "disagreeing ends) are rejected naming the parameter")
    {
    }

  private:
    /**
     * \brief Run a function, return the std::invalid_argument message ("" if none).
     * \param f the function.
     * \return the message.
     */
    template <typename F> static std::string What(F f)
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

    void DoRun() override
    {
        auto has = [](const std::string& s, const std::string& w)
        {
            return s.find(w) != std::string::npos;
        };
        // RetryBufferSize 31: rejected when the device is created.
        std::string w = What(
            []()
            {
                NodeContainer n;
                n.Create(2);
                DirectLinkHelper h;
                h.SetDeviceAttribute("RetryBufferSize", UintegerValue(31));
                h.Install(n);
            });
        NS_TEST_EXPECT_MSG_EQ(has(w, "RetryBufferSize") && has(w, "31") && has(w, "[1, 30]"), true,
                              "RetryBufferSize 31: '" << w << "'");
        Simulator::Destroy();

        // AckTime 3 ms = 78125 micro-packet times: rejected when the link starts.
        w = What(
            []()
            {
                NodeContainer n;
                n.Create(2);
                DirectLinkHelper h;
                h.SetDeviceAttribute("AckTime", TimeValue(MilliSeconds(3)));
                h.Install(n);
                Simulator::Stop(MicroSeconds(1));
                Simulator::Run();
            });
        NS_TEST_EXPECT_MSG_EQ(has(w, "AckTime") && has(w, "78125") && has(w, "65535"), true,
                              "AckTime 3 ms: '" << w << "'");
        Simulator::Destroy();

        // Unknown VC: the IpVc attribute and SendMessage.
        w = What(
            []()
            {
                Ptr<DirectLinkNetDevice> d = CreateObject<DirectLinkNetDevice>();
                d->SetAttribute("IpVc", UintegerValue(4));
            });
        NS_TEST_EXPECT_MSG_EQ(has(w, "IpVc") && has(w, "4"), true, "IpVc 4: '" << w << "'");
        w = What(
            []()
            {
                NodeContainer n;
                n.Create(2);
                DirectLinkHelper h;
                NetDeviceContainer d = h.Install(n);
                DynamicCast<DirectLinkNetDevice>(d.Get(0))->SendMessage(1, 0, 0, 5, {1, 2, 3});
            });
        NS_TEST_EXPECT_MSG_EQ(has(w, "vc = 5") && has(w, "[0, 3]"), true,
                              "SendMessage vc 5: '" << w << "'");
        Simulator::Destroy();

        // The two ends disagree.
        w = What(
            []()
            {
                NodeContainer n;
                n.Create(2);
                DirectLinkHelper h;
                NetDeviceContainer d = h.Install(n);
                d.Get(1)->SetAttribute("RetryBufferSize", UintegerValue(20));
                Simulator::Stop(MicroSeconds(1));
                Simulator::Run();
            });
        NS_TEST_EXPECT_MSG_EQ(has(w, "RetryBufferSize") && has(w, "disagree"), true,
                              "disagreeing ends: '" << w << "'");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief The false ack after a stale handshake through the devices: traced by MessageLost and
 *        counted with DirectLinkLossReason::FALSE_ACK by default; absent with InitAckGuard.
 */
class DirectLinkDeviceFalseAckTestCase : public TestCase
{
  public:
    DirectLinkDeviceFalseAckTestCase()
        : TestCase("False ack and held-open message after a stale handshake: MessageLost traces "
                   "FALSE_ACK, MessageHeldOpen the held message, the device counts both "
                   "(default); InitAckGuard avoids them")
    {
    }

  private:
    /// MessageLost traces by reason, MessageHeldOpen traces.
    struct Traced
    {
        std::array<uint32_t, DIRECT_LINK_NUM_LOSS_REASONS> byReason{}; //!< traces by reason
        std::vector<std::pair<uint64_t, uint32_t>> heldOpen;           //!< (id, VC) held open
    };

    /// \param t counts. \param id id. \param vc VC. \param reason reason.
    static void OnLost(Traced* t, uint64_t id, uint32_t vc, uint8_t reason)
    {
        ++t->byReason.at(reason);
    }

    /// \param t counts. \param id id. \param vc VC.
    static void OnHeldOpen(Traced* t, uint64_t id, uint32_t vc)
    {
        t->heldOpen.emplace_back(id, vc);
    }

    /**
     * \brief The scenario of the engine tests (DirectLinkFalseAckTestCase and, with
     *        heldOpen, DirectLinkHeldOpenTestCase, suite direct-link-reference-engine): L 16,
     *        AckTime 1, RetransLimit 3, InitialTime 35 (36 with the guard), six messages sent
     *        at exact slot starts (one byte each; with heldOpen the last one is sent in 200,
     *        not 214, with 28 bytes: 2 micro-packets, EngineQueueMessages is 1 and B sends one
     *        more one-byte message on VC0 in 400).
     * \param guard InitAckGuard.
     * \param heldOpen the held-open variant.
     * \param traced MessageLost and MessageHeldOpen traces by device.
     * \return the device counters of A and B.
     */
    std::array<DirectLinkDeviceCounters, 2> Run(bool guard, bool heldOpen,
                                                std::array<Traced, 2>& traced)
    {
        NodeContainer n;
        n.Create(2);
        DirectLinkHelper h;
        h.SetChannelAttribute("OneWayDelaySlots", IntegerValue(16));
        h.SetDeviceAttribute("Mtu", UintegerValue(698));
        h.SetDeviceAttribute("MaxMessageBytes", UintegerValue(700));
        h.SetDeviceAttribute("VcBufferSizes", StringValue("22,6,1,1"));
        // in micro-packet times of 38.4 ns (rounded up): AckTime 1, CrdNullTime 600,
        // InitialTime 35 (36 with the guard, its minimum 2L + 4)
        h.SetDeviceAttribute("AckTime", TimeValue(NanoSeconds(30)));
        h.SetDeviceAttribute("RetransLimit", UintegerValue(3));
        h.SetDeviceAttribute("CrdNullTime", TimeValue(NanoSeconds(23040)));
        h.SetDeviceAttribute("InitialTime", TimeValue(NanoSeconds(guard ? 1382 : 1344)));
        h.SetDeviceAttribute("InitAckGuard", BooleanValue(guard));
        h.SetDeviceAttribute("EngineQueueMessages", UintegerValue(heldOpen ? 1 : 2));
        NetDeviceContainer d = h.Install(n);
        std::array<Ptr<DirectLinkNetDevice>, 2> dev{DynamicCast<DirectLinkNetDevice>(d.Get(0)),
                                                    DynamicCast<DirectLinkNetDevice>(d.Get(1))};
        for (uint32_t i = 0; i < 2; ++i)
        {
            dev[i]->TraceConnectWithoutContext("MessageLost",
                                               MakeBoundCallback(&OnLost, &traced[i]));
            dev[i]->TraceConnectWithoutContext("MessageHeldOpen",
                                               MakeBoundCallback(&OnHeldOpen, &traced[i]));
        }
        Ptr<DirectLinkChannel> ch = DynamicCast<DirectLinkChannel>(dev[0]->GetChannel());
        struct Send
        {
            uint64_t slot;
            uint32_t side;
            uint32_t vc;
            uint32_t bytes;
        };

        std::vector<Send> sends
            = {{133, 1, 3, 1}, {136, 0, 1, 1}, {136, 1, 2, 1},
               {136, 1, 1, 1}, {181, 0, 0, 1}, heldOpen ? Send{200, 1, 0, 28} : Send{214, 1, 0, 1}};
        if (heldOpen)
        {
            sends.push_back({400, 1, 0, 1});
        }
        // the channel starts at time 0; schedule the sends at their slot starts then
        Simulator::Schedule(NanoSeconds(1),
                            [ch, dev, sends]()
                            {
                                for (const Send& x : sends)
                                {
                                    Ptr<DirectLinkNetDevice> src = dev[x.side];
                                    const uint32_t vc = x.vc;
                                    const std::vector<uint8_t> bytes(x.bytes, 7);
                                    Simulator::Schedule(ch->GetSlotStart(x.slot) - Simulator::Now(),
                                                        [src, vc, bytes]()
                                                        {
                                                            src->SendMessage(1, 0, 0, vc, bytes);
                                                        });
                                }
                            });
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        std::array<DirectLinkDeviceCounters, 2> c{dev[0]->GetCounters(), dev[1]->GetCounters()};
        Simulator::Destroy();
        return c;
    }

    void DoRun() override
    {
        const uint32_t fa = static_cast<uint32_t>(DirectLinkLossReason::FALSE_ACK);
        NS_TEST_ASSERT_MSG_EQ(DirectLinkLossReasonName(DirectLinkLossReason::FALSE_ACK),
                              "FALSE_ACK", "name");
        NS_TEST_ASSERT_MSG_EQ(
            (DirectLinkLossReasonFromEngine(DirectLinkEndpointState::LossReason::FALSE_ACK)
             == DirectLinkLossReason::FALSE_ACK),
            true, "engine reason mapped");
        // the stale pairing's other loss (DirectLinkStalePairingTestCase replays it)
        NS_TEST_ASSERT_MSG_EQ(DirectLinkLossReasonName(DirectLinkLossReason::VC_OVERFLOW),
                              "VC_OVERFLOW", "name");
        NS_TEST_ASSERT_MSG_EQ(
            (DirectLinkLossReasonFromEngine(DirectLinkEndpointState::LossReason::VC_OVERFLOW)
             == DirectLinkLossReason::VC_OVERFLOW),
            true, "engine reason mapped");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(DirectLinkLossReason::VC_OVERFLOW) + 1,
                              DIRECT_LINK_NUM_LOSS_REASONS, "the last reason");
        for (uint32_t k = 0; k < 4; ++k)
        {
            const bool held = k >= 2;      // the held-open variant
            const bool guard = k % 2 == 1; // InitAckGuard
            std::array<Traced, 2> traced;
            const std::array<DirectLinkDeviceCounters, 2> c = Run(guard, held, traced);
            for (uint32_t i = 0; i < 2; ++i)
            {
                const DirectLinkDeviceCounters& me = c[i];
                const DirectLinkDeviceCounters& peer = c[1 - i];
                // every message ends delivered (intact, truncated or malformed) or lost: the
                // one held open is closed by B's later VC0 header (held-open variant)
                NS_TEST_ASSERT_MSG_EQ(me.messagesAccepted,
                                      peer.messagesDelivered + peer.messagesTruncated
                                          + peer.messagesMalformed + me.messagesLost,
                                      "held " << held << " guard " << guard << " side " << i
                                              << ": sent = delivered + truncated + lost");
                NS_TEST_ASSERT_MSG_EQ(traced[i].heldOpen.size(), me.messagesHeldOpen,
                                      "every message held open traced");
                uint64_t traces = 0;
                for (uint32_t r = 0; r < DIRECT_LINK_NUM_LOSS_REASONS; ++r)
                {
                    NS_TEST_ASSERT_MSG_EQ(traced[i].byReason[r], me.lostByReason[r],
                                          "MessageLost traced with its reason");
                    traces += traced[i].byReason[r];
                }
                NS_TEST_ASSERT_MSG_EQ(traces, me.messagesLost, "every loss traced");
            }
            NS_TEST_ASSERT_MSG_EQ(c[0].lostByReason[fa], 0, "A lost nothing FALSE_ACK");
            NS_TEST_ASSERT_MSG_EQ(c[0].messagesHeldOpen, 0, "A: nothing held open");
            if (!held)
            {
                NS_TEST_ASSERT_MSG_EQ(c[1].lostByReason[fa], (guard ? 0 : 1),
                                      "B lost " << (guard ? "nothing" : "one message")
                                                << " FALSE_ACK");
                NS_TEST_ASSERT_MSG_EQ(c[1].messagesHeldOpen, 0, "B: nothing held open");
                continue;
            }
            // B's message on VC0 sent in 200, abandoned by B's PEER_INIT reset at the end of 205
            // while A holds its header, B Normal again from the end of 206 on an early
            // Init-Ack: held open (the engine test checks the slots); its place among VC0's
            // EngineQueueMessages (1) is freed then
            NS_TEST_ASSERT_MSG_EQ(c[1].messagesHeldOpen, (guard ? 0 : 1),
                                  "B: " << (guard ? "nothing" : "one message") << " held open");
            if (!guard)
            {
                NS_TEST_ASSERT_MSG_EQ(traced[1].heldOpen.size(), 1, "traced once");
                NS_TEST_EXPECT_MSG_EQ(traced[1].heldOpen[0].second, 0, "on VC0");
                // B's other messages as in the engine test (2 lost, 1 delivered); its message
                // of 400 is handed to the engine (the held one's place freed), rejected by A
                // (whose FrameExpected still counts B's old incarnation) and lost
                // RETRANS_LIMIT; B's Shutdown resets A, which closes the held message:
                // delivered truncated (PEER_INIT). Without the freed place the message of 400
                // would wait in B's queue for good and the identity above would fail.
                NS_TEST_EXPECT_MSG_EQ(c[1].messagesLost, 3, "B: 2 others and the one of 400 lost");
                NS_TEST_EXPECT_MSG_EQ(
                    c[1].lostByReason[uint32_t(DirectLinkLossReason::RETRANS_LIMIT)], 3,
                    "all RETRANS_LIMIT");
                NS_TEST_EXPECT_MSG_EQ(c[0].messagesDelivered, 1, "B's others: 1 delivered");
                NS_TEST_EXPECT_MSG_EQ(c[0].truncatedByReason[uint32_t(
                                          DirectLinkEndpointState::TruncationReason::PEER_INIT)],
                                      1, "the held message closed at A's reset");
            }
        }
    }
};

namespace
{

/// Deliveries of one VcBufferSizes run.
struct VcRun
{
    std::array<uint64_t, 4> count{};      //!< messages delivered per VC
    std::array<uint64_t, 4> last{};       //!< slot of the last delivery per VC
    uint64_t first{0};                    //!< slot the messages were offered
    uint64_t vcOverflows{0};              //!< receiver VC buffer overflows (must be 0)
    std::array<uint32_t, 4> configured{}; //!< the link's VcBufferSize per VC
};

/**
 * \brief MessageRx sink.
 * \param r the record. \param m the message.
 */
void
RecordVcRx(VcRun* r, const DirectLinkMessage& m)
{
    if (!m.truncated && !m.malformed && m.contentOk)
    {
        ++r->count[m.vc];
        r->last[m.vc] = std::max(r->last[m.vc], m.deliverySlot);
    }
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief Per-VC VcBufferSizes: a small VC stalls only itself.
 */
class DirectLinkDeviceVcBufferTestCase : public TestCase
{
  public:
    DirectLinkDeviceVcBufferTestCase()
        : TestCase("VcBufferSizes 32,1,32,32: VC1 sends one micro-packet per credit round trip "
                   "(>= 2L+2 slots) while VC0 keeps its rate; bad lists are rejected")
    {
    }

  private:
    static constexpr uint32_t L = 10;        //!< one-way delay, slots
    static constexpr uint32_t N = 50;        //!< messages per VC
    static constexpr uint32_t BYTES = 64;    //!< 4 micro-packets each
    static constexpr uint32_t FLITS = 4 * N; //!< micro-packets per VC

    /**
     * \param sizes VcBufferSizes. \param vc1 also send on VC1.
     * \return the deliveries.
     */
    VcRun Run(const std::string& sizes, bool vc1)
    {
        CpuBed bed(2, "Fast", 0.0);
        bed.helper.SetChannelAttribute("OneWayDelaySlots", IntegerValue(L));
        bed.helper.SetDeviceAttribute("VcBufferSizes", StringValue(sizes));
        bed.Link(0, 1);
        Ptr<DirectLinkNetDevice> a = bed.Dev(0, 0);
        Ptr<DirectLinkNetDevice> b = bed.Dev(0, 1);
        VcRun r;
        b->TraceConnectWithoutContext("MessageRx", MakeBoundCallback(&RecordVcRx, &r));
        Simulator::Schedule(MicroSeconds(1),
                            [a, vc1, &r, ch = bed.Channel(0)]()
                            {
                                r.first = ch->SlotAt(Simulator::Now());
                                for (uint32_t k = 0; k < N; ++k)
                                {
                                    a->SendMessage(1, 0, 2, 0, std::vector<uint8_t>(BYTES, k));
                                    if (vc1)
                                    {
                                        a->SendMessage(1, 0, 2, 1, std::vector<uint8_t>(BYTES, k));
                                    }
                                }
                            });
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        r.vcOverflows = b->GetEndpointCounters().vcOverflows;
        for (uint32_t v = 0; v < 4; ++v)
        {
            r.configured[v] = bed.Channel(0)->GetConfig().vcBufferSize[v];
        }
        Simulator::Destroy();
        return r;
    }

    void DoRun() override
    {
        const VcRun alone = Run("32,1,32,32", false);
        const VcRun both = Run("32, 1, 32, 32", true);
        const VcRun wide = Run("32,32,32,32", true);
        NS_TEST_ASSERT_MSG_EQ(both.configured[1], 1u, "VC1 has 1 credit");
        NS_TEST_ASSERT_MSG_EQ(both.configured[0], 32u, "VC0 has 32");
        NS_TEST_ASSERT_MSG_EQ(alone.count[0], N, "VC0 alone: all delivered");
        NS_TEST_ASSERT_MSG_EQ(both.count[0], N, "VC0: all delivered");
        NS_TEST_ASSERT_MSG_EQ(both.count[1], N, "VC1: all delivered");
        NS_TEST_ASSERT_MSG_EQ(wide.count[1], N, "wide VC1: all delivered");
        NS_TEST_ASSERT_MSG_EQ(both.vcOverflows + alone.vcOverflows + wide.vcOverflows, 0u,
                              "no VC buffer overflow");
        const uint64_t t0 = alone.last[0] - alone.first;
        const uint64_t t0b = both.last[0] - both.first;
        const uint64_t t1 = both.last[1] - both.first;
        const uint64_t t1w = wide.last[1] - wide.first;
        std::cout << "VcBufferSizes 32,1,32,32, L = " << L << ": VC0 alone " << t0
                  << " slots, VC0 beside 1-credit VC1 " << t0b << " slots, VC1 " << t1 << " slots ("
                  << static_cast<double>(t1) / FLITS << " per micro-packet); VC1 with 32 credits "
                  << t1w << " slots" << std::endl;
        // VC0 (200 micro-packets, 32 credits > the 2L+2 round trip) runs at line rate alone and
        // loses only the slots VC1's single credit lets it use: at most 1 in 2L+2, + 10 %.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(t0, FLITS, "VC0 alone: at most one micro-packet per slot");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(t0b, t0 * 11 / 10, "the small VC1 does not stall VC0");
        // VC1: a micro-packet sent in slot n frees its credit when drained at the end of
        // n + L; the credit goes back in slot >= n + L + 1 and is usable from n + 2L + 2.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(t1, uint64_t(FLITS - 1) * (2 * L + 2),
                                    "VC1 is held to one micro-packet per credit round trip");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(t1, uint64_t(FLITS) * (2 * L + 2),
                                    "and the credit is back exactly then (no slower)");
        NS_TEST_ASSERT_MSG_LT(t1w * 4, t1, "with 32 credits VC1 is not held back");

        // bad lists
        auto what = [](const std::string& v)
        {
            try
            {
                Ptr<DirectLinkNetDevice> d = CreateObject<DirectLinkNetDevice>();
                d->SetAttribute("VcBufferSizes", StringValue(v));
            }
            catch (const std::invalid_argument& e)
            {
                return std::string(e.what());
            }
            return std::string();
        };
        NS_TEST_EXPECT_MSG_EQ(what("32,1,32"),
                              "DirectLinkNetDevice: VcBufferSizes = \"32,1,32\" must list 4 sizes "
                              "(VC0..VC3), comma-separated, got 3",
                              "three sizes");
        NS_TEST_EXPECT_MSG_EQ(what("32,0,32,32"),
                              "DirectLinkNetDevice: VcBufferSizes = \"32,0,32,32\": VC1 size 0 is "
                              "out of range [1, 4096] micro-packets",
                              "zero");
        NS_TEST_EXPECT_MSG_EQ(
            what("32,1,x,32"),
            "DirectLinkNetDevice: VcBufferSizes = \"32,1,x,32\": VC2 size \"x\" is "
            "not a number in [1, 4096]",
            "not a number");
        NS_TEST_EXPECT_MSG_EQ(
            what("16,16,16,4097"),
            "DirectLinkNetDevice: VcBufferSizes = \"16,16,16,4097\": VC3 size 4097 "
            "is out of range [1, 4096] micro-packets",
            "too large");
        NS_TEST_EXPECT_MSG_EQ(what(""), "", "empty: VcBufferSize on every VC");
    }
};

namespace
{

/// What the receiving device handed over to its node (trace MessageRx: DLIU messages).
struct MessageLog
{
    std::vector<DirectLinkMessage> messages; //!< in arrival order
    std::vector<Time> when;                  //!< arrival times
};

/**
 * \brief MessageRx sink.
 * \param log the log. \param m the message.
 */
void
RecordMessage(MessageLog* log, const DirectLinkMessage& m)
{
    log->messages.push_back(m);
    log->when.push_back(Simulator::Now());
}

/// CrcError traces of a device.
struct CrcLog
{
    std::vector<Time> when;     //!< trace times
    std::vector<bool> finished; //!< Simulator::IsFinished() in the trace's event
};

/**
 * \brief CrcError sink.
 * \param log the log. \param slot slot. \param status decode status.
 */
void
RecordCrcError(CrcLog* log, uint64_t slot, int64_t status)
{
    log->when.push_back(Simulator::Now());
    log->finished.push_back(Simulator::IsFinished());
}

/**
 * \param log a message log.
 * \return the number of messages that do not carry UdpPattern(seq, size) with the seq of their
 *         first two bytes, or arrived truncated, malformed or with NetErr.
 */
uint32_t
BadMessages(const MessageLog& log)
{
    uint32_t bad = 0;
    for (const DirectLinkMessage& m : log.messages)
    {
        const bool ok = m.bytes.size() >= 2 && !m.truncated && !m.malformed && !m.netErr
                        && m.contentOk
                        && m.bytes
                               == UdpPattern((uint32_t(m.bytes[0]) << 8) | m.bytes[1],
                                             static_cast<uint32_t>(m.bytes.size()));
        bad += ok ? 0 : 1;
    }
    return bad;
}

/**
 * \param m a message carrying UdpPattern.
 * \return its sequence number.
 */
uint32_t
MessageSeq(const DirectLinkMessage& m)
{
    return m.bytes.size() >= 2 ? (uint32_t(m.bytes[0]) << 8) | m.bytes[1] : 0xFFFFFFFFU;
}

/// Two nodes on one direct link (no DLIU): A sends, B logs what it hands over.
struct PairBed
{
    NodeContainer nodes;        //!< A and B
    NetDeviceContainer devices; //!< A's and B's devices
    Ptr<DirectLinkNetDevice> a; //!< A's device
    Ptr<DirectLinkNetDevice> b; //!< B's device
    MessageLog log;             //!< B's MessageRx
    CrcLog crc;                 //!< B's CrcError

    /**
     * \brief Build the link (it starts when the simulation runs, at time 0).
     * \param engine "Fast" or "Reference".
     * \param split the Split attribute (two split halves; Engine is then ignored).
     * \param delay OneWayDelaySlots (-1 = the cable default, 2).
     */
    PairBed(const std::string& engine, bool split, int64_t delay)
    {
        nodes.Create(2);
        DirectLinkHelper helper;
        helper.SetChannelAttribute("Engine", StringValue(engine));
        helper.SetChannelAttribute("Split", BooleanValue(split));
        helper.SetChannelAttribute("OneWayDelaySlots", IntegerValue(delay));
        devices = helper.Install(nodes);
        a = DynamicCast<DirectLinkNetDevice>(devices.Get(0));
        b = DynamicCast<DirectLinkNetDevice>(devices.Get(1));
        b->TraceConnectWithoutContext("MessageRx", MakeBoundCallback(&RecordMessage, &log));
        b->TraceConnectWithoutContext("CrcError", MakeBoundCallback(&RecordCrcError, &crc));
    }

    /// \return the channel.
    Ptr<DirectLinkChannel> Channel() const
    {
        return DynamicCast<DirectLinkChannel>(a->GetChannel());
    }

    /**
     * \brief Send a DLIU message from A on VC0 (class 3) carrying UdpPattern(seq, size).
     * \param seq its sequence number. \param size its bytes (>= 2).
     */
    void Send(uint32_t seq, uint32_t size)
    {
        a->SendMessage(1, 0, 3, 0, UdpPattern(seq, size));
    }
};

/**
 * \brief Call every counter and state getter of the devices and the channel (as a script
 *        does between runs); none may change what is delivered.
 * \param bed the bed.
 * \return B's engine-level count of intact messages delivered (the engine as advanced so
 *         far: the getters do not advance it).
 */
uint64_t
ReadEverything(const PairBed& bed)
{
    uint64_t sum = 0;
    for (Ptr<DirectLinkNetDevice> d : {bed.a, bed.b})
    {
        const DirectLinkDeviceCounters c = d->GetCounters();
        const DirectLinkEndpointState::Counters e = d->GetEndpointCounters();
        sum += c.messagesDelivered + e.rxAccepted + d->GetQueuedMessages()
               + static_cast<uint64_t>(d->GetLinkState()) + d->GetVcQueueLength(0)
               + (d->GetReceiveHold(0) ? 1 : 0) + (d->IsLinkUp() ? 1 : 0);
    }
    Ptr<DirectLinkChannel> ch = bed.Channel();
    DirectLinkLinkEngine* engine = ch->GetEngine();
    sum += engine->GetSlot() + engine->GetPending(0) + engine->GetPending(1)
           + ch->GetConfig().oneWayDelaySlots + ch->SlotAt(Simulator::Now())
           + ch->GetDelay().GetTimeStep();
    static_cast<void>(sum); // the values are not checked: reading them must change nothing
    return engine->GetEndpoint(1).GetCounters().messagesDelivered;
}

} // namespace

/**
 * \ingroup rifl-tests
 * \brief A simulation without Simulator::Stop() runs until no event is left (the fast
 *        engine schedules no wake-up once the link is quiet): every UDP datagram and DLIU
 *        message still reaches B, and what the channel's last wake-up reports, in the run's
 *        final event (ns-3 then calls the run finished: its event list is empty), is handed
 *        over too.
 *
 * Error free, the direct link always has traffic after a delivery (B returns the credits
 * of the drained micro-packets, A acknowledges them), so the run's last wake-up (about
 * AckTime after the last delivery) reports nothing; a single detected bit error on an idle
 * micro-packet from A, long after the traffic, makes the last wake-up report something:
 * B's CRC_ERROR event, which must reach B's device (its CrcError trace and crcErrors
 * counter) in the final event. Fast engine only: the reference engine wakes every slot,
 * so a run of it never ends without Simulator::Stop().
 */
class DirectLinkDeviceLastEventTestCase : public TestCase
{
  public:
    DirectLinkDeviceLastEventTestCase()
        : TestCase("Without Simulator::Stop(), every datagram and message is delivered and the "
                   "wake-up that is the run's last event hands over what it reports")
    {
    }

  private:
    void DoRun() override
    {
        for (int64_t delay : {-1, 0, 16})
        {
            PairBed bed("Fast", false, delay);
            // slot 2000 (76.8 us; the link starts at time 0): one data bit of the Null
            // micro-packet A sends then, always detected; the traffic ends before 40 us
            const uint64_t errorSlot = 2000;
            Ptr<DeterministicErrorProcess> burst = CreateObject<DeterministicErrorProcess>();
            burst->AddError(errorSlot, {100});
            bed.Channel()->SetErrorProcess(0, burst);
            InternetStackHelper ip;
            ip.Install(bed.nodes);
            Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
            Ipv4InterfaceContainer ifs = addr.Assign(bed.devices);
            UdpLog udp;
            Ptr<Socket> rx = Socket::CreateSocket(bed.nodes.Get(1), UdpSocketFactory::GetTypeId());
            rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            rx->SetRecvCallback(MakeBoundCallback(&UdpRx, &udp));
            Ptr<Socket> tx = Socket::CreateSocket(bed.nodes.Get(0), UdpSocketFactory::GetTypeId());
            tx->Connect(InetSocketAddress(ifs.GetAddress(1), 9));
            const uint32_t n = 3;
            for (uint32_t i = 0; i < n; ++i)
            {
                Simulator::Schedule(MicroSeconds(20), &UdpSend, tx, i, 700 + 300 * i);
                Simulator::Schedule(MicroSeconds(20), &PairBed::Send, &bed, i, 100 + 50 * i);
            }
            Simulator::Run(); // no Stop: until no event is left
            const std::string what = "OneWayDelaySlots " + std::to_string(delay);
            // every datagram and message, in order, exactly once, intact
            NS_TEST_EXPECT_MSG_EQ(udp.seq.size(), n, what << ": every datagram delivered");
            for (uint32_t i = 0; i < udp.seq.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(udp.seq[i], i, what << ": datagrams in order");
            }
            NS_TEST_EXPECT_MSG_EQ(udp.bad, 0u, what << ": datagram content");
            NS_TEST_EXPECT_MSG_EQ(bed.log.messages.size(), n, what << ": every message delivered");
            for (uint32_t i = 0; i < bed.log.messages.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(MessageSeq(bed.log.messages[i]), i, what << ": in order");
            }
            NS_TEST_EXPECT_MSG_EQ(BadMessages(bed.log), 0u, what << ": message content");
            // what the engine reported was handed over: B's device counted every delivery the
            // engine made, A's device learnt of each (MESSAGE_DELIVERED) and forgot it
            const DirectLinkDeviceCounters cb = bed.b->GetCounters();
            NS_TEST_EXPECT_MSG_EQ(cb.ipPacketsReceived, n, what << ": IP packets counted");
            NS_TEST_EXPECT_MSG_EQ(cb.messagesDelivered, 2 * n, what << ": messages counted");
            NS_TEST_EXPECT_MSG_EQ(bed.b->GetEndpointCounters().messagesDelivered,
                                  cb.messagesDelivered,
                                  what << ": the device got every delivery of the engine");
            NS_TEST_EXPECT_MSG_EQ(bed.a->GetQueuedMessages(), 0u, what << ": A sent everything");
            for (uint64_t id = 1; id <= 2 * n; ++id)
            {
                NS_TEST_EXPECT_MSG_EQ((bed.a->PeekMessagePacket(id) == nullptr), true,
                                      what << ": A forgot message " << id);
            }
            // the run's last wake-up: it reported B's CRC error, handed over in the final event
            const Time errorAt = bed.Channel()->GetSlotStart(
                errorSlot + bed.Channel()->GetConfig().oneWayDelaySlots + 1);
            NS_TEST_EXPECT_MSG_EQ(bed.b->GetEndpointCounters().rxCorrupted, 1u,
                                  what << ": the engine saw the bit error");
            NS_TEST_EXPECT_MSG_EQ(bed.crc.when.size(), 1u, what << ": CrcError traced at B");
            NS_TEST_EXPECT_MSG_EQ(cb.crcErrors, 1u, what << ": and counted");
            NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), errorAt, what << ": the run ended there");
            if (!bed.crc.when.empty())
            {
                NS_TEST_EXPECT_MSG_EQ(bed.crc.when[0], errorAt,
                                      what << ": at the start of the slot after its arrival");
                NS_TEST_EXPECT_MSG_EQ(bed.crc.finished[0], true,
                                      what << ": in the run's final event (nothing left after it)");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief A run stopped at the very instant a message is handed to B, the devices' and the
 *        channel's getters read in between, then continued: the message reaches B exactly
 *        once, at that instant. Three ways: the Stop event before the wake-up due then (the
 *        wake-up waits behind it), the Stop event after it (the hand-over to B waits behind
 *        it), and the Stop before it followed by calls that catch the engine up between runs
 *        (SetReceiveHold and SendMessage: the engine reports the delivery while no run is in
 *        progress). Every engine: Reference, Fast and the split halves.
 */
class DirectLinkDeviceResumedRunTestCase : public TestCase
{
  public:
    DirectLinkDeviceResumedRunTestCase()
        : TestCase("A run stopped at a delivery's instant, read (or caught up) and continued, "
                   "delivers it exactly once at that instant (all engines)")
    {
    }

  private:
    void DoRun() override
    {
        struct Engine
        {
            std::string name; //!< Engine
            bool split;       //!< Split
        };

        const std::vector<Engine> engines
            = {{"Reference", false}, {"Fast", false}, {"Reference", true}};
        for (const Engine& eng : engines)
        {
            for (const std::string way : {"stop first", "stop second", "catch-up"})
            {
                const std::string what = eng.name + (eng.split ? " split" : "") + ", " + way;
                PairBed bed(eng.name, eng.split, -1);
                Simulator::Stop(MicroSeconds(1)); // the link has started by then
                Simulator::Run();
                Ptr<DirectLinkChannel> ch = bed.Channel();
                const uint64_t L = ch->GetConfig().oneWayDelaySlots;
                // 100 B: n micro-packets offered at the slot boundary s0 go on the line in
                // s0 .. s0+n-1, the tail arrives at the end of s0+n-1+L and B's NI delivers it
                // then; the channel hands it to B at the start of s0+n+L
                const uint32_t bytes = 100;
                const uint64_t n = DirectLinkFlit::NumMicroPackets(bytes);
                const uint64_t s0 = FirstSlotAtOrAfter(ch, MicroSeconds(10));
                const Time sendAt = ch->GetSlotStart(s0);
                const Time due = ch->GetSlotStart(s0 + n + L);
                Simulator::Schedule(sendAt - Simulator::Now(), &PairBed::Send, &bed, 7, bytes);
                if (way == "stop second")
                {
                    // stopped 1 ns earlier, the wake-up due then is already scheduled: a Stop
                    // scheduled now comes after it, and the hand-over it schedules after that
                    Simulator::Stop(due - NanoSeconds(1) - Simulator::Now());
                    Simulator::Run();
                    NS_TEST_EXPECT_MSG_EQ(bed.log.messages.size(), 0u, what << ": not yet");
                    Simulator::Stop(NanoSeconds(1));
                }
                else
                {
                    // scheduled before the message is sent, the Stop event comes before the
                    // wake-up due at the same instant
                    Simulator::Stop(due - Simulator::Now());
                }
                Simulator::Run();
                NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), due, what << ": stopped at its instant");
                NS_TEST_EXPECT_MSG_EQ(bed.log.messages.size(), 0u, what << ": not handed over yet");
                const uint64_t engineDelivered = ReadEverything(bed);
                NS_TEST_EXPECT_MSG_EQ(bed.b->GetCounters().messagesDelivered, 0u,
                                      what << ": B's device has not counted it yet");
                if (way == "stop second")
                {
                    NS_TEST_EXPECT_MSG_EQ(engineDelivered, 1u,
                                          what
                                              << ": the engine has delivered it (the wake-up ran)");
                }
                uint32_t sent = 1;
                if (way == "catch-up")
                {
                    // each call catches the engine up to now: the engine reports the delivery
                    // now, between runs; it must be handed over when the run goes on
                    bed.b->SetReceiveHold(3, true); // VC3 carries nothing here
                    NS_TEST_EXPECT_MSG_EQ(bed.b->GetEndpointCounters().messagesDelivered, 1u,
                                          what << ": the engine has delivered it by now");
                    bed.b->SetReceiveHold(3, false);
                    bed.Send(8, 60);
                    ++sent;
                    NS_TEST_EXPECT_MSG_EQ(bed.log.messages.size(), 0u,
                                          what << ": still not handed over (no run)");
                }
                ReadEverything(bed);
                Simulator::Stop(MicroSeconds(20));
                Simulator::Run();
                // (EXPECT, not ASSERT: a failure must not skip Simulator::Destroy(), which
                // disconnects the trace sinks bound to this bed)
                NS_TEST_EXPECT_MSG_EQ(bed.log.messages.size(), sent,
                                      what << ": delivered after all, exactly once");
                if (!bed.log.messages.empty())
                {
                    NS_TEST_EXPECT_MSG_EQ(bed.log.when[0], due, what << ": at its instant");
                    NS_TEST_EXPECT_MSG_EQ(MessageSeq(bed.log.messages[0]), 7u,
                                          what << ": the message");
                    NS_TEST_EXPECT_MSG_EQ(bed.log.messages[0].deliverySlot, s0 + n + L - 1,
                                          what << ": delivered by the NI at the end of s0+n+L-1");
                }
                if (sent == 2 && bed.log.messages.size() == 2)
                {
                    NS_TEST_EXPECT_MSG_EQ(MessageSeq(bed.log.messages[1]), 8u,
                                          what << ": then the one sent between runs");
                    NS_TEST_EXPECT_MSG_GT(bed.log.when[1], due, what << ": later");
                }
                NS_TEST_EXPECT_MSG_EQ(BadMessages(bed.log), 0u, what << ": content");
                const DirectLinkDeviceCounters cb = bed.b->GetCounters();
                NS_TEST_EXPECT_MSG_EQ(cb.messagesDelivered, sent, what << ": counted once each");
                NS_TEST_EXPECT_MSG_EQ(bed.b->GetEndpointCounters().messagesDelivered, sent,
                                      what << ": as the engine delivered them");
                NS_TEST_EXPECT_MSG_EQ(bed.a->GetQueuedMessages(), 0u,
                                      what << ": A sent everything");
                Simulator::Destroy();
            }
        }
    }
};

/**
 * \ingroup rifl-tests
 * \brief The attributes of the devices and the channel that the link reads once, when it
 *        starts (DirectLinkChannel::Start() builds the engine's configuration from them),
 *        refuse a new value from then on with an error naming them (they were ignored in
 *        silence); the attributes read as the link runs (Mtu, MessageQueueLimit,
 *        EngineQueueMessages) still change, Mtu within the started link's MaxMessageBytes;
 *        every attribute still reads, and the link delivers on unchanged.
 */
class DirectLinkDeviceFrozenAttributesTestCase : public TestCase
{
  public:
    DirectLinkDeviceFrozenAttributesTestCase()
        : TestCase("Attributes read when the link starts refuse a change once it has started, "
                   "with an error naming them; run-time attributes still change")
    {
    }

  private:
    void DoRun() override
    {
        PairBed bed("Fast", false, -1);
        Ptr<DirectLinkChannel> ch = bed.Channel();
        // Before the start: taken (and set back).
        NS_TEST_EXPECT_MSG_EQ(bed.a->IsLinkStarted(), false, "not started before the run");
        NS_TEST_EXPECT_MSG_EQ(ch->IsLinkStarted(), false, "the channel neither");
        NS_TEST_EXPECT_MSG_EQ(
            rifltest::TrySetAttribute(bed.a, "RetryBufferSize", UintegerValue(20)), "",
            "RetryBufferSize before the start");
        NS_TEST_EXPECT_MSG_EQ(
            rifltest::TrySetAttribute(bed.a, "RetryBufferSize", UintegerValue(30)), "", "and back");
        NS_TEST_EXPECT_MSG_EQ(rifltest::TrySetAttribute(ch, "Ber", DoubleValue(1e-9)), "",
                              "Ber before the start");
        NS_TEST_EXPECT_MSG_EQ(rifltest::TrySetAttribute(ch, "Ber", DoubleValue(0.0)), "",
                              "and back");
        NS_TEST_EXPECT_MSG_EQ(
            rifltest::TrySetAttribute(ch, "LineRate", UintegerValue(10000000000ULL)), "",
            "LineRate before the start");
        NS_TEST_EXPECT_MSG_EQ(
            rifltest::TrySetAttribute(ch, "LineRate", UintegerValue(5000000000ULL)), "",
            "and back");
        NS_TEST_EXPECT_MSG_EQ(rifltest::TrySetAttribute(bed.a, "Mtu", UintegerValue(4095)), "",
                              "Mtu + 2 above MaxMessageBytes before the start (checked at it)");
        NS_TEST_EXPECT_MSG_EQ(rifltest::TrySetAttribute(bed.a, "Mtu", UintegerValue(1500)), "",
                              "and back");
        Simulator::Schedule(MicroSeconds(100), &PairBed::Send, &bed, 1, 300);
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(bed.a->IsLinkStarted(), true, "started by 50 us");
        NS_TEST_EXPECT_MSG_EQ(bed.b->IsLinkStarted(), true, "both devices");
        NS_TEST_EXPECT_MSG_EQ(ch->IsLinkStarted(), true, "the channel too");
        const Time delay = ch->GetDelay();
        // Every value is valid (taken before the start), so a refusal is the started link's.
        const std::vector<std::pair<std::string, Ptr<AttributeValue>>> deviceValues
            = {{"RetryBufferSize", Create<UintegerValue>(20)},
               {"VcBufferSize", Create<UintegerValue>(8)},
               {"VcBufferSizes", Create<StringValue>("8,8,4,8")},
               {"CrcPolynomial", Create<UintegerValue>(0x31)},
               {"AckTime", Create<TimeValue>(MicroSeconds(3))},
               {"RetransLimit", Create<UintegerValue>(3)},
               {"CrdNullTime", Create<TimeValue>(MicroSeconds(20))},
               {"InitialTime", Create<TimeValue>(MicroSeconds(100))},
               {"NakEnabled", Create<BooleanValue>(true)},
               {"InitAckGuard", Create<BooleanValue>(true)},
               {"MaxMessageBytes", Create<UintegerValue>(2000)},
               {"IpVc", Create<UintegerValue>(3)},
               {"IpClass", Create<UintegerValue>(14)}};
        for (const auto& [name, value] : deviceValues)
        {
            for (Ptr<DirectLinkNetDevice> dev : {bed.a, bed.b})
            {
                NS_TEST_EXPECT_MSG_EQ(
                    rifltest::StartedLinkRefusal(dev, "DirectLinkNetDevice", name, *value), "",
                    name);
            }
        }
        const std::vector<std::pair<std::string, Ptr<AttributeValue>>> channelValues
            = {{"LineRate", Create<UintegerValue>(10000000000ULL)},
               {"CableLength", Create<DoubleValue>(20.0)},
               {"CableDelay", Create<TimeValue>(NanoSeconds(4))},
               {"SerDesDelay", Create<TimeValue>(NanoSeconds(100))},
               {"OneWayDelaySlots", Create<IntegerValue>(5)},
               {"Ber", Create<DoubleValue>(1e-6)},
               {"Engine", Create<EnumValue>(DirectLinkChannel::REFERENCE)},
               {"PredictBusy", Create<BooleanValue>(false)},
               {"Split", Create<BooleanValue>(true)}};
        for (const auto& [name, value] : channelValues)
        {
            NS_TEST_EXPECT_MSG_EQ(
                rifltest::StartedLinkRefusal(ch, "DirectLinkChannel", name, *value), "", name);
        }
        // Reads still work and show the values the link runs with.
        UintegerValue retry;
        bed.a->GetAttribute("RetryBufferSize", retry);
        NS_TEST_EXPECT_MSG_EQ(retry.Get(), 30u, "RetryBufferSize reads as before");
        StringValue sizes;
        bed.a->GetAttribute("VcBufferSizes", sizes);
        NS_TEST_EXPECT_MSG_EQ(sizes.Get(), "", "VcBufferSizes reads as before");
        UintegerValue maxBytes;
        bed.a->GetAttribute("MaxMessageBytes", maxBytes);
        NS_TEST_EXPECT_MSG_EQ(maxBytes.Get(), 4096u, "MaxMessageBytes reads as before");
        DoubleValue ber;
        ch->GetAttribute("Ber", ber);
        NS_TEST_EXPECT_MSG_EQ(ber.Get(), 0.0, "Ber reads as before");
        UintegerValue lineRate;
        ch->GetAttribute("LineRate", lineRate);
        NS_TEST_EXPECT_MSG_EQ(lineRate.Get(), 5000000000ULL, "LineRate reads as before");
        NS_TEST_EXPECT_MSG_EQ(ch->GetOneWayDelaySlots(), ch->GetConfig().oneWayDelaySlots,
                              "the delay from the attributes is the link's");
        NS_TEST_EXPECT_MSG_EQ(ch->GetDelay(), delay, "the Delay attribute is unchanged");
        NS_TEST_EXPECT_MSG_EQ((ch->GetErrorProcess(0) == nullptr), true, "still error free");
        NS_TEST_EXPECT_MSG_EQ(ch->GetConfig().retryBufferSize, 30u, "the engine's config too");
        // Attributes the device reads as it runs still change; Mtu only within the started
        // link's MaxMessageBytes (its engine refuses longer messages).
        NS_TEST_EXPECT_MSG_EQ(rifltest::TrySetAttribute(bed.a, "Mtu", UintegerValue(1400)), "",
                              "Mtu changes");
        NS_TEST_EXPECT_MSG_EQ(rifltest::TrySetAttribute(bed.a, "Mtu", UintegerValue(4094)), "",
                              "Mtu up to MaxMessageBytes - 2");
        const std::string mtu = rifltest::TrySetAttribute(bed.a, "Mtu", UintegerValue(4095));
        NS_TEST_EXPECT_MSG_EQ((mtu.find("Mtu = 4095") != std::string::npos
                               && mtu.find("MaxMessageBytes = 4096") != std::string::npos),
                              true, "Mtu + 2 above MaxMessageBytes refused: '" << mtu << "'");
        NS_TEST_EXPECT_MSG_EQ(bed.a->GetMtu(), 4094, "Mtu kept");
        NS_TEST_EXPECT_MSG_EQ(rifltest::TrySetAttribute(bed.a, "Mtu", UintegerValue(1500)), "",
                              "and back");
        NS_TEST_EXPECT_MSG_EQ(
            rifltest::TrySetAttribute(bed.a, "MessageQueueLimit", UintegerValue(64)), "",
            "MessageQueueLimit changes");
        NS_TEST_EXPECT_MSG_EQ(
            rifltest::TrySetAttribute(bed.a, "EngineQueueMessages", UintegerValue(4)), "",
            "EngineQueueMessages changes");
        UintegerValue limit;
        bed.a->GetAttribute("MessageQueueLimit", limit);
        NS_TEST_EXPECT_MSG_EQ(limit.Get(), 64u, "MessageQueueLimit reads the new value");
        // The link runs on, unchanged: the message sent at 100 us arrives, intact.
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(bed.log.messages.size(), 1u, "the link still delivers");
        NS_TEST_EXPECT_MSG_EQ(BadMessages(bed.log), 0u, "content");
        if (!bed.log.messages.empty())
        {
            NS_TEST_EXPECT_MSG_EQ(MessageSeq(bed.log.messages[0]), 1u, "the message sent");
        }
        NS_TEST_EXPECT_MSG_EQ(bed.b->GetCounters().crcErrors, 0u, "no bit error (Ber refused)");
        Simulator::Destroy();
    }
};

/**
 * \ingroup rifl-tests
 * \brief The direct-link ns-3 adapter test suite.
 */
class DirectLinkNetDeviceTestSuite : public TestSuite
{
  public:
    DirectLinkNetDeviceTestSuite()
        : TestSuite("direct-link-net-device", RIFL_TEST_UNIT)
    {
        AddTestCase(new DirectLinkDeviceConfigTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceFrozenAttributesTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceLatencyTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceLosslessTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceIpTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceLineTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceShutdownTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceFalseAckTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceVcBufferTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceLastEventTestCase, RIFL_TEST_QUICK);
        AddTestCase(new DirectLinkDeviceResumedRunTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's only instance.
static DirectLinkNetDeviceTestSuite g_directLinkNetDeviceTestSuite;

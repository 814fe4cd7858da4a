/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * direct-link-bench: wall time, events and messages per second of one direct
 * link (two CPUs, request/response traffic) on the fast engine, on the
 * reference engine (one step per micro-packet time), and of ns-3's
 * PointToPointNetDevice pair at the same 5 Gb/s and one-way delay, on the
 * same traffic, in one run (ratios are what matter on a shared machine).
 *
 * Direct link: DirectLinkPairScenario (DLIUs, CpuTrafficApplication on both
 * CPUs). P2P: the same request/response sizes sent as packets at the device
 * level (no IP stack), closed loop (window requests in flight per CPU) or
 * open loop (Poisson rate per CPU), each request with the same timeout as
 * CpuTrafficApplication's default; errors by ExactBitErrorModel at the BER
 * (a corrupted packet is dropped; its request times out and is replaced).
 *
 * Prints one JSON object per (ber, model) line and a summary of the ratios:
 *   direct-link-bench --bers=0,1e-9,1e-6 --simTime=2000 --window=8
 */

#include "ns3/core-module.h"
#include "ns3/direct-link-pair-scenario.h"
#include "ns3/exact-bit-error-model.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rifl-check.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "../rifl-example-args.h"

using namespace ns3;

namespace
{

/// Traffic shared by every model.
struct Traffic
{
    uint32_t requestBytes{8};   //!< request size
    uint32_t responseBytes{64}; //!< response size
    bool closedLoop{true};      //!< closed or open loop
    uint32_t window{8};         //!< closed loop: in flight per CPU
    double rate{1e6};           //!< open loop: requests/s per CPU
    double simTimeUs{1000};     //!< traffic time
};

/// Result of one run.
struct Result
{
    double wallS{0};             //!< wall seconds of Simulator::Run
    uint64_t events{0};          //!< events executed
    uint64_t requests{0};        //!< requests issued
    uint64_t responses{0};       //!< correct responses received
    double latencyNsMean{0};     //!< mean request -> response latency
    uint64_t retransmissions{0}; //!< direct link only
};

/// One CPU of the P2P model.
struct P2pCpu
{
    Ptr<NetDevice> dev;                                                 //!< its device
    const Traffic* t{nullptr};                                          //!< traffic
    Ptr<ExponentialRandomVariable> gap;                                 //!< open-loop gaps (ns)
    Time stop;                                                          //!< no requests after this
    uint32_t next{1};                                                   //!< next request number
    std::unordered_map<uint32_t, std::pair<Time, EventId>> outstanding; //!< number -> sent, timeout
    uint64_t requests{0};                                               //!< issued
    uint64_t responses{0};                                              //!< received in time
    double latencySumNs{0};                                             //!< sum of latencies
};

const Time P2P_TIMEOUT = MicroSeconds(500); //!< CpuTrafficApplication's default Timeout

/**
 * \brief A message packet: [0] kind (0 request, 1 response), [1..4] number.
 * \param kind 0 or 1.
 * \param number request number.
 * \param size total bytes (>= 5).
 * \return the packet.
 */
Ptr<Packet>
MakeMessage(uint8_t kind, uint32_t number, uint32_t size)
{
    std::vector<uint8_t> b(std::max<uint32_t>(size, 5), 0);
    b[0] = kind;
    std::memcpy(&b[1], &number, 4);
    return Create<Packet>(b.data(), b.size());
}

void P2pIssue(P2pCpu* c);

/**
 * \brief A request timed out: forget it and (closed loop) replace it.
 * \param c the CPU.
 * \param number the request.
 */
void
P2pTimeout(P2pCpu* c, uint32_t number)
{
    c->outstanding.erase(number);
    if (c->t->closedLoop)
    {
        P2pIssue(c);
    }
}

/**
 * \brief Send one request.
 * \param c the CPU.
 */
void
P2pIssue(P2pCpu* c)
{
    if (Simulator::Now() >= c->stop)
    {
        return;
    }
    const uint32_t n = c->next++;
    c->outstanding[n] = {Simulator::Now(), Simulator::Schedule(P2P_TIMEOUT, &P2pTimeout, c, n)};
    ++c->requests;
    c->dev->Send(MakeMessage(0, n, c->t->requestBytes), c->dev->GetBroadcast(), 0x0800);
}

/**
 * \brief Open loop: issue and schedule the next request.
 * \param c the CPU.
 */
void
P2pOpenLoop(P2pCpu* c)
{
    if (Simulator::Now() >= c->stop)
    {
        return;
    }
    P2pIssue(c);
    Simulator::Schedule(NanoSeconds(static_cast<int64_t>(c->gap->GetValue())), &P2pOpenLoop, c);
}

/**
 * \brief A packet for a CPU: answer a request, or account a response.
 * \param c the CPU.
 * \param p the packet.
 * \return true.
 */
bool
P2pRx(P2pCpu* c, Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
{
    uint8_t h[5];
    p->CopyData(h, 5);
    uint32_t number;
    std::memcpy(&number, &h[1], 4);
    if (h[0] == 0)
    {
        c->dev->Send(MakeMessage(1, number, c->t->responseBytes), c->dev->GetBroadcast(), 0x0800);
        return true;
    }
    auto it = c->outstanding.find(number);
    if (it == c->outstanding.end())
    {
        return true; // late
    }
    c->latencySumNs += (Simulator::Now() - it->second.first).ToDouble(Time::NS);
    ++c->responses;
    it->second.second.Cancel();
    c->outstanding.erase(it);
    if (c->t->closedLoop)
    {
        P2pIssue(c);
    }
    return true;
}

/**
 * \brief Run the P2P model.
 * \param t the traffic.
 * \param ber bit error rate.
 * \param delay one-way delay.
 * \return the measurements.
 */
Result
RunP2p(const Traffic& t, double ber, Time delay)
{
    Simulator::Destroy();
    RngSeedManager::SetRun(1);
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate("5Gbps")));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
    p2p.SetChannelAttribute("Delay", TimeValue(delay));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("100000p")));
    NetDeviceContainer devs = p2p.Install(nodes);
    std::vector<P2pCpu> cpus(2);
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<ExactBitErrorModel> em = CreateObject<ExactBitErrorModel>();
        em->SetBer(ber);
        em->AssignStreams(10 + i);
        devs.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        P2pCpu& c = cpus[i];
        c.dev = devs.Get(i);
        c.t = &t;
        c.stop = RiflMicroseconds(t.simTimeUs);
        c.gap = CreateObject<ExponentialRandomVariable>();
        c.gap->SetAttribute("Mean", DoubleValue(1e9 / t.rate));
        c.gap->SetStream(30 + i);
        c.dev->SetReceiveCallback(MakeBoundCallback(&P2pRx, &c));
        if (t.closedLoop)
        {
            for (uint32_t k = 0; k < t.window; ++k)
            {
                Simulator::Schedule(Seconds(0), &P2pIssue, &c);
            }
        }
        else
        {
            Simulator::Schedule(Seconds(0), &P2pOpenLoop, &c);
        }
    }
    Simulator::Stop(RiflMicroseconds(t.simTimeUs) + NanoSeconds(1));
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();
    Result r;
    r.wallS = std::chrono::duration<double>(t1 - t0).count();
    r.events = Simulator::GetEventCount();
    double sum = 0;
    for (const P2pCpu& c : cpus)
    {
        r.requests += c.requests;
        r.responses += c.responses;
        sum += c.latencySumNs;
    }
    r.latencyNsMean = r.responses ? sum / r.responses : 0.0;
    Simulator::Destroy();
    return r;
}

/**
 * \brief Run the direct link on one engine.
 * \param t the traffic.
 * \param ber bit error rate.
 * \param engine "Fast" or "Reference".
 * \param full the scenario result (out).
 * \return the measurements.
 */
Result
RunDirectLink(const Traffic& t, double ber, const std::string& engine,
              DirectLinkPairScenarioResult& full, bool predictBusy = true)
{
    DirectLinkPairScenarioConfig c;
    c.ber = ber;
    c.requestBytes = t.requestBytes;
    c.responseBytes = t.responseBytes;
    c.closedLoop = t.closedLoop;
    c.maxOutstanding = t.window;
    c.requestRate = t.rate;
    c.warmupUs = 0; // the whole run, as for P2P
    c.durationUs = t.simTimeUs;
    c.attributes["ns3::DirectLinkChannel::Engine"] = engine;
    c.attributes["ns3::DirectLinkChannel::PredictBusy"] = predictBusy ? "true" : "false";
    full = DirectLinkPairScenario::Run(c);
    Result r;
    r.wallS = full.wallSeconds;
    r.events = full.events;
    r.requests = full.requestsIssued;
    r.responses = full.responses;
    r.latencyNsMean = full.latencyNsMean;
    r.retransmissions = full.retransmissions;
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    Traffic t;
    std::string mode = "closed";
    std::string bers = "0,1e-9,1e-7,1e-5";
    bool withReference = true;
    bool withNoPredict = true;
    std::string repeatText = "3";
    std::string requestBytesText = std::to_string(t.requestBytes);
    std::string responseBytesText = std::to_string(t.responseBytes);
    std::string windowText = std::to_string(t.window);

    CommandLine cmd(__FILE__);
    cmd.AddValue("requestBytes", "request size in bytes, 8..4096", requestBytesText);
    cmd.AddValue("responseBytes", "response size in bytes, 5..4096", responseBytesText);
    cmd.AddValue("mode", "closed (window in flight) or open (Poisson rate)", mode);
    cmd.AddValue("window", "closed loop: requests in flight per CPU, 1..65536", windowText);
    cmd.AddValue("rate", "open loop: requests per second per CPU, (0, 1e10]", t.rate);
    cmd.AddValue("simTime", "traffic time in microseconds, [1, 1e6]", t.simTimeUs);
    cmd.AddValue("bers", "comma-separated BER values, each in [0, 1)", bers);
    cmd.AddValue("reference", "also run the reference engine", withReference);
    cmd.AddValue("noPredict",
                 "also run the fast engine with PredictBusy=false (a wake-up every busy slot, "
                 "the previous behaviour)",
                 withNoPredict);
    cmd.AddValue("repeat", "runs per (ber, model), 1..100; the fastest wall time is reported",
                 repeatText);
    cmd.Parse(argc, argv);
    try
    {
        using namespace riflexample;
        RefuseIneffectiveAttributes(argc, argv, {"ns3::Rifl"}, "this benchmark",
                                    {{"ns3::DirectLinkChannel::Ber", "use --bers"}});
        RIFL_CHECK_ARG(mode != "closed" && mode != "open",
                       "--mode = " << mode << " must be closed or open");
        t.requestBytes
            = static_cast<uint32_t>(ParseUnsigned("--requestBytes", requestBytesText, 8, 4096));
        t.responseBytes
            = static_cast<uint32_t>(ParseUnsigned("--responseBytes", responseBytesText, 5, 4096));
        t.window = static_cast<uint32_t>(ParseUnsigned("--window", windowText, 1, 65536));
        const auto repeat = static_cast<uint32_t>(ParseUnsigned("--repeat", repeatText, 1, 100));
        RIFL_CHECK_ARG(!(t.rate > 0 && t.rate <= 1e10),
                       "--rate = " << t.rate << " is outside (0, 1e10] requests/s");
        CheckDouble("--simTime", t.simTimeUs, 1, 1e6);
        t.closedLoop = mode == "closed";
        const std::vector<double> berList = ParseDoubleList("--bers", bers, 0, 1, true);
        for (double ber : berList)
        {
            std::vector<std::string> models = {"fast", "p2p"};
            if (withReference)
            {
                models.push_back("reference");
            }
            if (withNoPredict)
            {
                models.push_back("fast-nopredict");
            }
            std::map<std::string, Result> res;
            DirectLinkPairScenarioResult dl;
            Time delay;
            for (const std::string& m : models)
            {
                for (uint32_t k = 0; k < repeat; ++k)
                {
                    Result one;
                    if (m == "p2p")
                    {
                        one = RunP2p(t, ber, delay);
                    }
                    else
                    {
                        one = RunDirectLink(t, ber, m == "reference" ? "Reference" : "Fast", dl,
                                            m != "fast-nopredict");
                        delay = PicoSeconds(
                            static_cast<int64_t>(dl.oneWayDelaySlots * dl.slotNs * 1e3));
                    }
                    if (k == 0 || one.wallS < res[m].wallS)
                    {
                        res[m] = one;
                    }
                }
                const Result& r = res[m];
                nlohmann::json j;
                j["ber"] = ber;
                j["model"] = m;
                j["wall_s"] = r.wallS;
                j["events"] = r.events;
                j["requests"] = r.requests;
                j["responses"] = r.responses;
                j["latency_ns_mean"] = r.latencyNsMean;
                j["retransmissions"] = r.retransmissions;
                j["messages_per_wall_s"] = (r.requests + r.responses) / r.wallS;
                j["events_per_wall_s"] = r.events / r.wallS;
                j["ns_per_event"] = r.wallS * 1e9 / std::max<uint64_t>(1, r.events);
                std::cout << j.dump() << "\n";
            }
            nlohmann::json s;
            s["ber"] = ber;
            s["summary"] = true;
            s["fast_over_p2p_wall"] = res["fast"].wallS / res["p2p"].wallS;
            s["fast_over_p2p_events"] = static_cast<double>(res["fast"].events) / res["p2p"].events;
            s["fast_over_p2p_messages_per_wall_s"]
                = ((res["fast"].requests + res["fast"].responses) / res["fast"].wallS)
                  / ((res["p2p"].requests + res["p2p"].responses) / res["p2p"].wallS);
            if (withReference)
            {
                s["reference_over_fast_wall"] = res["reference"].wallS / res["fast"].wallS;
                s["reference_over_fast_events"]
                    = static_cast<double>(res["reference"].events) / res["fast"].events;
                s["engines_agree"]
                    = res["reference"].responses == res["fast"].responses
                      && res["reference"].retransmissions == res["fast"].retransmissions;
            }
            if (withNoPredict)
            {
                s["nopredict_over_fast_wall"] = res["fast-nopredict"].wallS / res["fast"].wallS;
                s["nopredict_over_fast_events"]
                    = static_cast<double>(res["fast-nopredict"].events) / res["fast"].events;
                s["predict_agrees"]
                    = res["fast-nopredict"].responses == res["fast"].responses
                      && res["fast-nopredict"].retransmissions == res["fast"].retransmissions
                      && res["fast-nopredict"].latencyNsMean == res["fast"].latencyNsMean;
            }
            std::cout << s.dump() << "\n";
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "direct-link-bench: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

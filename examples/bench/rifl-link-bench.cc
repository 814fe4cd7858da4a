/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rifl-link-bench: wall time, events and packets per second of one RIFL link
 * on the fast engine, on the reference slot engine, and of ns-3's
 * PointToPointNetDevice pair at the same aggregate rate, on the same packet
 * stream, in one run (ratios are what matter on a shared machine).
 *
 * One RIFL256 4 x 28 Gb/s link, 10 m; packets sent at the device level (no
 * IP stack) from A to B and B to A at a given load; sizes uniform in
 * [minSize, maxSize] (inclusive; UniformRandomVariable::GetInteger) or fixed (--size); BER swept
 * over --bers.
 *
 * Prints one JSON object per (ber, model) line and a summary of the ratios:
 *   rifl-link-bench --size=1500 --bers=0,1e-12,1e-9,1e-7 --simTime=2000
 */

#include "ns3/core-module.h"
#include "ns3/exact-bit-error-model.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-fast-engine.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-net-device.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// A device-level packet source.
struct Gen
{
    Ptr<NetDevice> dev;                 //!< sending device
    Ptr<UniformRandomVariable> size;    //!< packet size
    double gapNs{0};                    //!< mean gap
    Ptr<ExponentialRandomVariable> gap; //!< gap draw
    Time stop;                          //!< last send time
    uint64_t sent{0};                   //!< packets sent
};

/// Packets received per device.
uint64_t g_received[2] = {0, 0};

/**
 * \brief Send a packet and schedule the next one.
 * \param g the generator.
 */
void
Emit(Gen* g)
{
    if (Simulator::Now() >= g->stop)
    {
        return;
    }
    g->dev->Send(Create<Packet>(g->size->GetInteger()), g->dev->GetBroadcast(), 0x0800);
    ++g->sent;
    Simulator::Schedule(NanoSeconds(static_cast<int64_t>(g->gap->GetValue())), &Emit, g);
}

/**
 * \brief Count a received packet.
 * \param idx receiving side.
 * \return true.
 */
bool
Rx(uint32_t idx, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
{
    ++g_received[idx];
    return true;
}

/// \return the CPU time of the calling thread, in seconds.
double
ThreadCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// Result of one run.
struct Result
{
    double wallS{0};      //!< wall seconds
    double cpuS{0};       //!< CPU seconds of this thread
    uint64_t events{0};   //!< events executed
    uint64_t sent{0};     //!< packets sent
    uint64_t received{0}; //!< packets received
    uint64_t slots{0};    //!< RIFL slots run (0 for p2p)
    uint64_t stepped{0};  //!< fast engine: slots stepped one by one
    uint64_t loaded{0};   //!< fast engine: slots jumped with traffic
};

/**
 * \brief Run one model.
 * \param model "fast", "reference" or "p2p".
 * \param ber bit error rate.
 * \param minSize smallest packet.
 * \param maxSize largest packet.
 * \param load offered load per direction.
 * \param simTimeUs traffic time.
 * \return the measurements.
 */
Result
RunOne(const std::string& model, double ber, uint32_t minSize, uint32_t maxSize, double load,
       double simTimeUs)
{
    RngSeedManager::SetRun(1);
    g_received[0] = g_received[1] = 0;
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devs;
    const double lineBps = 112e9;
    if (model == "p2p")
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate("112Gbps")));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(9000));
        p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(50)));
        p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
        devs = p2p.Install(nodes);
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<ExactBitErrorModel> em = CreateObject<ExactBitErrorModel>();
            em->SetBer(ber);
            em->AssignStreams(10 + i);
            devs.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }
    else
    {
        RiflHelper rifl;
        rifl.SetDeviceAttribute("Mtu", UintegerValue(9000));
        rifl.SetDeviceAttribute("Startup", StringValue("Short"));
        rifl.SetChannelAttribute("Ber", DoubleValue(ber));
        rifl.SetChannelAttribute("Engine", StringValue(model == "fast" ? "Fast" : "Reference"));
        rifl.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
        devs = rifl.Install(nodes);
        rifl.AssignStreams(devs, 10);
    }
    std::vector<Gen> gens(2);
    for (uint32_t i = 0; i < 2; ++i)
    {
        devs.Get(i)->SetReceiveCallback(MakeBoundCallback(&Rx, i));
        Gen& g = gens[i];
        g.dev = devs.Get(i);
        g.size = CreateObject<UniformRandomVariable>();
        g.size->SetAttribute("Min", DoubleValue(minSize));
        g.size->SetAttribute("Max", DoubleValue(maxSize));
        g.size->SetStream(20 + i);
        g.gap = CreateObject<ExponentialRandomVariable>();
        g.gap->SetAttribute("Mean",
                            DoubleValue((minSize + maxSize) / 2.0 * 8 / (load * lineBps) * 1e9));
        g.gap->SetStream(30 + i);
        g.stop = MicroSeconds(100 + simTimeUs);
        Simulator::Schedule(MicroSeconds(100), &Emit, &g);
    }
    Simulator::Stop(MicroSeconds(200 + simTimeUs));
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = ThreadCpuSeconds();
    Simulator::Run();
    const double c1 = ThreadCpuSeconds();
    const auto t1 = std::chrono::steady_clock::now();
    Result r;
    r.wallS = std::chrono::duration<double>(t1 - t0).count();
    r.cpuS = c1 - c0;
    r.events = Simulator::GetEventCount();
    if (model != "p2p")
    {
        Ptr<RiflChannel> ch = DynamicCast<RiflChannel>(devs.Get(0)->GetChannel());
        r.slots = ch->GetEngine()->GetSlot();
        if (const auto* fast = dynamic_cast<const RiflFastEngine*>(ch->GetEngine()))
        {
            r.stepped = fast->GetSteppedSlots();
            r.loaded = fast->GetLoadedJumpedSlots();
        }
    }
    r.sent = gens[0].sent + gens[1].sent;
    r.received = g_received[0] + g_received[1];
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t size = 0;
    uint32_t minSize = 1;
    uint32_t maxSize = 8192;
    double load = 0.5;
    double simTimeUs = 1000;
    std::string bers = "0,1e-12,1e-10,1e-9,1e-8,1e-7";
    bool withReference = true;
    uint32_t repeat = 1;
    std::string modelList = "fast,p2p";

    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "fixed packet size in bytes (0 = uniform in [minSize, maxSize])", size);
    cmd.AddValue("minSize", "smallest packet in bytes", minSize);
    cmd.AddValue("maxSize", "largest packet in bytes (<= 9000)", maxSize);
    cmd.AddValue("load", "offered load per direction as a fraction of 112 Gb/s", load);
    cmd.AddValue("simTime", "traffic time in microseconds", simTimeUs);
    cmd.AddValue("bers", "comma-separated BER values", bers);
    cmd.AddValue("reference", "also run the reference slot engine (added to --models)",
                 withReference);
    cmd.AddValue("models",
                 "comma-separated models to run, of fast, p2p and reference (one alone, e.g. "
                 "under a profiler or callgrind; ratios are printed for the pairs present)",
                 modelList);
    cmd.AddValue("repeat",
                 "runs per (BER, model), 1..100; the fastest (by CPU time) is reported, which "
                 "keeps the ratios steady on a busy machine",
                 repeat);
    cmd.Parse(argc, argv);
    try
    {
        if (size > 0)
        {
            minSize = maxSize = size;
        }
        RIFL_CHECK_ARG(minSize < 1 || maxSize > 8998 || minSize > maxSize,
                       "--minSize = " << minSize << ", --maxSize = " << maxSize
                                      << " must satisfy 1 <= minSize <= maxSize <= 8998");
        RIFL_CHECK_ARG(!(load > 0 && load <= 1), "--load = " << load << " is out of range (0, 1]");
        RIFL_CHECK_ARG(repeat < 1 || repeat > 100,
                       "--repeat = " << repeat << " is out of range [1, 100]");
        std::vector<std::string> models;
        std::stringstream ms(modelList);
        std::string name;
        while (std::getline(ms, name, ','))
        {
            RIFL_CHECK_ARG(name != "fast" && name != "p2p" && name != "reference",
                           "--models: \"" << name << "\" is not one of fast, p2p and reference");
            if (std::find(models.begin(), models.end(), name) == models.end())
            {
                models.push_back(name);
            }
        }
        if (withReference && std::find(models.begin(), models.end(), "reference") == models.end())
        {
            models.push_back("reference");
        }
        RIFL_CHECK_ARG(models.empty(), "--models: no model given");
        const auto has = [&models](const char* m)
        {
            return std::find(models.begin(), models.end(), m) != models.end();
        };
        std::vector<double> berList;
        std::stringstream ss(bers);
        std::string tok;
        while (std::getline(ss, tok, ','))
        {
            berList.push_back(std::stod(tok));
        }
        std::cout << std::setprecision(4);
        for (double ber : berList)
        {
            std::map<std::string, Result> res;
            for (const std::string& m : models)
            {
                for (uint32_t i = 0; i < repeat; ++i)
                {
                    const Result one = RunOne(m, ber, minSize, maxSize, load, simTimeUs);
                    if (i == 0 || one.cpuS < res[m].cpuS)
                    {
                        res[m] = one;
                    }
                }
                nlohmann::json j;
                j["ber"] = ber;
                j["model"] = m;
                j["wall_s"] = res[m].wallS;
                j["cpu_s"] = res[m].cpuS;
                j["events"] = res[m].events;
                j["packets_sent"] = res[m].sent;
                j["packets_received"] = res[m].received;
                j["packets_per_wall_s"] = res[m].received / res[m].wallS;
                j["events_per_wall_s"] = res[m].events / res[m].wallS;
                j["slots"] = res[m].slots;
                j["fast_stepped_slots"] = res[m].stepped;
                j["fast_loaded_jumped_slots"] = res[m].loaded;
                std::cout << j.dump() << "\n";
            }
            if (!has("fast") || (!has("p2p") && !has("reference")))
            {
                continue;
            }
            nlohmann::json s;
            s["ber"] = ber;
            if (has("p2p"))
            {
                s["fast_over_p2p_wall"] = res["fast"].wallS / res["p2p"].wallS;
                s["fast_over_p2p_cpu"] = res["fast"].cpuS / res["p2p"].cpuS;
            }
            if (has("reference"))
            {
                s["reference_over_fast_wall"] = res["reference"].wallS / res["fast"].wallS;
                s["reference_over_fast_cpu"] = res["reference"].cpuS / res["fast"].cpuS;
            }
            std::cout << s.dump() << "\n";
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "rifl-link-bench: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

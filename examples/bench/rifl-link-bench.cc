/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rifl-link-bench: wall time, events and packets per second of one RIFL link
 * on the fast engine, on the reference slot engine, and of ns-3's
 * PointToPointNetDevice pair at the same aggregate rate, on the same packet
 * stream, in one run (ratios are what matter on a shared machine); and of the
 * two engines alone (no device, channel or scheduler) on that stream.
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
#include "ns3/independent-bit-error-process.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-fast-engine.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-net-device.h"
#include "ns3/rifl-payload.h"
#include "ns3/rifl-reference-engine.h"
#include "ns3/slot-clock.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "../rifl-example-args.h"

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

/// The link configuration of the last RIFL device run (to check the engine-only runs').
RiflLinkConfig g_deviceConfig;
/// Whether g_deviceConfig was set.
bool g_haveDeviceConfig = false;

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

/**
 * \brief The random streams of a sender's packet sizes and gaps (the same in every run).
 * \param sender 0 or 1.
 * \param minSize smallest packet.
 * \param maxSize largest packet.
 * \param load offered load as a fraction of the 112 Gb/s line.
 * \param size set to the size stream (uniform integers in [minSize, maxSize]).
 * \param gap set to the gap stream (exponential, nanoseconds).
 */
void
MakeStreams(uint32_t sender, uint32_t minSize, uint32_t maxSize, double load,
            Ptr<UniformRandomVariable>* size, Ptr<ExponentialRandomVariable>* gap)
{
    *size = CreateObject<UniformRandomVariable>();
    (*size)->SetAttribute("Min", DoubleValue(minSize));
    (*size)->SetAttribute("Max", DoubleValue(maxSize));
    (*size)->SetStream(20 + sender);
    *gap = CreateObject<ExponentialRandomVariable>();
    (*gap)->SetAttribute("Mean", DoubleValue((minSize + maxSize) / 2.0 * 8 / (load * 112e9) * 1e9));
    (*gap)->SetStream(30 + sender);
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
    uint64_t dormant{0};  //!< fast engine: lane-slots sparse stepping left out
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
        MakeStreams(i, minSize, maxSize, load, &g.size, &g.gap);
        g.stop = RiflMicroseconds(100 + simTimeUs);
        Simulator::Schedule(MicroSeconds(100), &Emit, &g);
    }
    Simulator::Stop(RiflMicroseconds(200 + simTimeUs));
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
        g_deviceConfig = ch->GetConfig();
        g_haveDeviceConfig = true;
        if (const auto* fast = dynamic_cast<const RiflFastEngine*>(ch->GetEngine()))
        {
            r.stepped = fast->GetSteppedSlots();
            r.loaded = fast->GetLoadedJumpedSlots();
            r.dormant = fast->GetDormantLaneSlots();
        }
    }
    r.sent = gens[0].sent + gens[1].sent;
    r.received = g_received[0] + g_received[1];
    Simulator::Destroy();
    return r;
}

/// One packet of the stream as an engine sees it.
struct Offer
{
    uint64_t slot{0};                           //!< slot it is offered in
    uint32_t endpoint{0};                       //!< sender
    std::shared_ptr<const RiflPayload> payload; //!< its bytes
};

/**
 * \brief The packet stream of RunOne() (same streams, sizes and send times), as
 *        engine offers: each packet is offered in the slot in progress at its send time.
 * \param config the link.
 * \param minSize smallest packet.
 * \param maxSize largest packet.
 * \param load offered load per direction.
 * \param simTimeUs traffic time.
 * \return the offers in slot order (ties: endpoint 0 first).
 */
std::vector<Offer>
MakeOffers(const RiflLinkConfig& config, uint32_t minSize, uint32_t maxSize, double load,
           double simTimeUs)
{
    RngSeedManager::SetRun(1);
    SlotClock clock;
    clock.Start(Time(0), config.frameSize,
                static_cast<uint64_t>(std::llround(config.laneRateGbps * 1e9)));
    std::vector<Offer> offers;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<UniformRandomVariable> size;
        Ptr<ExponentialRandomVariable> gap;
        MakeStreams(i, minSize, maxSize, load, &size, &gap);
        const Time stop = RiflMicroseconds(100 + simTimeUs);
        for (Time t = MicroSeconds(100); t < stop;
             t += NanoSeconds(static_cast<int64_t>(gap->GetValue())))
        {
            const std::vector<uint8_t> bytes(size->GetInteger(), 0);
            offers.push_back(Offer{clock.SlotAt(t), i, std::make_shared<const RiflPayload>(bytes)});
        }
    }
    std::stable_sort(offers.begin(), offers.end(),
                     [](const Offer& a, const Offer& b)
                     {
                         return a.slot < b.slot;
                     });
    return offers;
}

/**
 * \brief Offer a stream to an engine and run it to \p end: the engine's whole work
 *        in an engine-only run (tools/bench-instructions counts the instructions
 *        executed in this function).
 * \param engine the engine.
 * \param offers the stream.
 * \param end the slot to run to.
 *
 * Never inlined, so that a profiler finds it.
 */
[[gnu::noinline]] void
DriveEngine(RiflLinkEngine& engine, const std::vector<Offer>& offers, uint64_t end)
{
    uint64_t id = 0;
    for (const Offer& o : offers)
    {
        engine.AdvanceTo(o.slot);
        engine.OfferPayload(o.endpoint, id++, o.payload);
    }
    engine.AdvanceTo(end);
}

/**
 * \brief Run one engine alone (no device, channel or scheduler) on a packet stream.
 * \param engine the engine, fresh.
 * \param config its link.
 * \param ber bit error rate of every direction and lane (the same streams for every engine).
 * \param offers the stream (MakeOffers()).
 * \param simTimeUs traffic time (the run ends 200 us after it, as RunOne()).
 * \param digest set to a hash of every delivery (endpoint, packet, slot) and event (every
 *        field), in order.
 * \return the measurements (events = engine events reported).
 */
Result
RunEngine(RiflLinkEngine& engine, const RiflLinkConfig& config, double ber,
          const std::vector<Offer>& offers, double simTimeUs, uint64_t* digest)
{
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t l = 0; l < config.lanes; ++l)
        {
            if (ber > 0)
            {
                Ptr<IndependentBitErrorProcess> p = CreateObject<IndependentBitErrorProcess>();
                p->SetBer(ber);
                p->AssignStreams(1000 + 16 * s + l);
                engine.SetErrorProcess(s, l, p);
            }
        }
    }
    Result r;
    uint64_t h = 1469598103934665603ULL; // FNV-1a over the callbacks
    const auto mix = [&h](uint64_t v)
    {
        h = (h ^ v) * 1099511628211ULL;
    };
    engine.SetLeanDeliveries(true);
    engine.SetDeliveryCallback(
        [&r, &mix](const RiflDelivery& d)
        {
            ++r.received;
            mix(d.endpoint);
            mix(d.packetId);
            mix(d.slot);
        });
    engine.SetEventCallback(
        [&r, &mix](const RiflLinkEvent& e)
        {
            ++r.events;
            mix(static_cast<uint64_t>(e.type));
            mix(e.endpoint);
            mix(e.lane);
            mix(e.slot);
            mix(e.packetId);
            mix(static_cast<uint64_t>(e.value));
            mix(static_cast<uint64_t>(e.value2));
        });
    SlotClock clock;
    clock.Start(Time(0), config.frameSize,
                static_cast<uint64_t>(std::llround(config.laneRateGbps * 1e9)));
    const uint64_t end = clock.SlotAt(RiflMicroseconds(200 + simTimeUs));
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = ThreadCpuSeconds();
    DriveEngine(engine, offers, end);
    const double c1 = ThreadCpuSeconds();
    const auto t1 = std::chrono::steady_clock::now();
    r.wallS = std::chrono::duration<double>(t1 - t0).count();
    r.cpuS = c1 - c0;
    r.sent = offers.size();
    r.slots = engine.GetSlot();
    if (const auto* fast = dynamic_cast<const RiflFastEngine*>(&engine))
    {
        r.stepped = fast->GetSteppedSlots();
        r.loaded = fast->GetLoadedJumpedSlots();
        r.dormant = fast->GetDormantLaneSlots();
    }
    *digest = h;
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string sizeText = "0";
    std::string minSizeText = "1";
    std::string maxSizeText = "8192";
    double load = 0.5;
    double simTimeUs = 1000;
    std::string bers = "0,1e-12,1e-10,1e-9,1e-8,1e-7";
    bool withReference = true;
    std::string repeatText = "1";
    std::string modelList = "fast,p2p";
    bool withEngines = true;

    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "fixed packet size in bytes, 0..8998 (0 = uniform in [minSize, maxSize])",
                 sizeText);
    cmd.AddValue("minSize", "smallest packet in bytes, 1..8998", minSizeText);
    cmd.AddValue("maxSize", "largest packet in bytes, 1..8998", maxSizeText);
    cmd.AddValue("load", "offered load per direction as a fraction of 112 Gb/s", load);
    cmd.AddValue("simTime", "traffic time in microseconds, [1, 1e6]", simTimeUs);
    cmd.AddValue("bers", "comma-separated BER values, each in [0, 1)", bers);
    cmd.AddValue("reference",
                 "also run the device pair on the reference slot engine (added to --models)",
                 withReference);
    cmd.AddValue("engines",
                 "also run the two engines alone, fast-engine and reference-engine (added to "
                 "--models)",
                 withEngines);
    cmd.AddValue("models",
                 "comma-separated models to run, of fast, p2p and reference (ns-3 device pairs) "
                 "and fast-engine and reference-engine (the engine alone, driven by the same "
                 "packet stream without a device, channel or scheduler; one alone, e.g. under a "
                 "profiler or callgrind; ratios are printed for the pairs present)",
                 modelList);
    cmd.AddValue("repeat",
                 "runs per (BER, model), 1..100, the models taking turns; the fastest (by CPU "
                 "time) is reported, which keeps the ratios steady on a busy machine",
                 repeatText);
    cmd.Parse(argc, argv);
    try
    {
        using namespace riflexample;
        RefuseIneffectiveAttributes(argc, argv, {"ns3::DirectLink"}, "this benchmark",
                                    {{"ns3::RiflNetDevice::Mtu", "fixed at 9000 bytes"},
                                     {"ns3::RiflNetDevice::Startup", "fixed at Short"},
                                     {"ns3::RiflChannel::Ber", "use --bers"},
                                     {"ns3::RiflChannel::Engine", "use --models"}});
        const auto size = static_cast<uint32_t>(ParseUnsigned("--size", sizeText, 0, 8998));
        auto minSize = static_cast<uint32_t>(ParseUnsigned("--minSize", minSizeText, 1, 8998));
        auto maxSize = static_cast<uint32_t>(ParseUnsigned("--maxSize", maxSizeText, 1, 8998));
        const auto repeat = static_cast<uint32_t>(ParseUnsigned("--repeat", repeatText, 1, 100));
        CheckDouble("--simTime", simTimeUs, 1, 1e6);
        if (size > 0)
        {
            minSize = maxSize = size;
        }
        RIFL_CHECK_ARG(minSize > maxSize,
                       "--minSize = " << minSize << ", --maxSize = " << maxSize
                                      << " must satisfy 1 <= minSize <= maxSize <= 8998");
        RIFL_CHECK_ARG(!(load > 0 && load <= 1), "--load = " << load << " is out of range (0, 1]");
        std::vector<std::string> models;
        std::stringstream ms(modelList);
        std::string name;
        while (std::getline(ms, name, ','))
        {
            RIFL_CHECK_ARG(name != "fast" && name != "p2p" && name != "reference"
                               && name != "fast-engine" && name != "reference-engine",
                           "--models: \"" << name
                                          << "\" is not one of fast, p2p, reference, "
                                             "fast-engine and reference-engine");
            if (std::find(models.begin(), models.end(), name) == models.end())
            {
                models.push_back(name);
            }
        }
        if (withReference && std::find(models.begin(), models.end(), "reference") == models.end())
        {
            models.push_back("reference");
        }
        for (const char* m : {"fast-engine", "reference-engine"})
        {
            if (withEngines && std::find(models.begin(), models.end(), m) == models.end())
            {
                models.emplace_back(m);
            }
        }
        RIFL_CHECK_ARG(models.empty(), "--models: no model given");
        const auto has = [&models](const char* m)
        {
            return std::find(models.begin(), models.end(), m) != models.end();
        };
        const std::vector<double> berList = ParseDoubleList("--bers", bers, 0, 1, true);
        std::cout << std::setprecision(4);
        // The engines alone: the configuration of the devices (Startup Short, every other
        // attribute at its default), checked against a device run's; the stream is the
        // same at every BER, so it is built once.
        RiflLinkConfig config;
        config.startup = RiflStartup::SHORT;
        std::vector<Offer> offers;
        for (double ber : berList)
        {
            std::map<std::string, Result> res;
            std::map<std::string, uint64_t> digests;
            // The models take turns (A, B, A, B, ...), so that a slow spell of the
            // machine hits every model's runs alike.
            for (uint32_t i = 0; i < repeat; ++i)
            {
                for (const std::string& m : models)
                {
                    const bool engineOnly = m == "fast-engine" || m == "reference-engine";
                    if (engineOnly && offers.empty())
                    {
                        config.Validate();
                        if (g_haveDeviceConfig)
                        {
                            RIFL_CHECK_ARG(
                                g_deviceConfig.frameSize != config.frameSize
                                    || g_deviceConfig.lanes != config.lanes
                                    || g_deviceConfig.laneRateGbps != config.laneRateGbps
                                    || g_deviceConfig.GetFrameIdWidth() != config.GetFrameIdWidth()
                                    || g_deviceConfig.GetLineDelaySlots()
                                           != config.GetLineDelaySlots()
                                    || g_deviceConfig.GetRxUpSlots() != config.GetRxUpSlots(),
                                "the engine-only configuration differs from the devices' (frame "
                                "size, lanes, lane rate, FrameIdWidth, line delay or RX-up wait)");
                        }
                        offers = MakeOffers(config, minSize, maxSize, load, simTimeUs);
                    }
                    Result one;
                    if (m == "fast-engine")
                    {
                        RiflFastEngine engine(config);
                        one = RunEngine(engine, config, ber, offers, simTimeUs, &digests[m]);
                    }
                    else if (m == "reference-engine")
                    {
                        RiflReferenceEngine engine(config);
                        one = RunEngine(engine, config, ber, offers, simTimeUs, &digests[m]);
                    }
                    else
                    {
                        one = RunOne(m, ber, minSize, maxSize, load, simTimeUs);
                    }
                    if (i == 0 || one.cpuS < res[m].cpuS)
                    {
                        res[m] = one;
                    }
                }
            }
            for (const std::string& m : models)
            {
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
                j["fast_dormant_lane_slots"] = res[m].dormant;
                j["fast_loaded_jumped_slots"] = res[m].loaded;
                std::cout << j.dump() << "\n";
            }
            nlohmann::json s;
            s["ber"] = ber;
            if (has("fast-engine") && has("reference-engine"))
            {
                // Both engines were fed the same packets and errors: their callbacks
                // must be identical (the equivalence the tests check, here for free).
                RIFL_CHECK_ARG(digests["fast-engine"] != digests["reference-engine"],
                               "at BER " << ber
                                         << " the fast and reference engines reported different "
                                            "deliveries or events on the same input");
                s["reference_engine_over_fast_engine_wall"]
                    = res["reference-engine"].wallS / res["fast-engine"].wallS;
                s["reference_engine_over_fast_engine_cpu"]
                    = res["reference-engine"].cpuS / res["fast-engine"].cpuS;
            }
            if (!has("fast") || (!has("p2p") && !has("reference")))
            {
                if (s.size() > 1)
                {
                    std::cout << s.dump() << "\n";
                }
                continue;
            }
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

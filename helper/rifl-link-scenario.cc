/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-link-scenario.h"

#include "ns3/core-module.h"
#include "ns3/link-reliability-model.h"
#include "ns3/network-module.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-net-device.h"
#include "rifl-helper.h"
#include "scenario-attribute-defaults.h"
#include "scenario-attributes.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <cmath>
#include <unordered_map>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflLinkScenario");

namespace
{

/// Per-direction state while the scenario runs.
struct Flow
{
    Ptr<RiflNetDevice> tx;                     //!< sending device
    Ptr<UniformRandomVariable> size;           //!< packet sizes
    Ptr<ExponentialRandomVariable> gap;        //!< Poisson gaps (ns), if not saturating
    bool saturate{false};                      //!< keep the queue full
    Time stop;                                 //!< no offers after this
    std::unordered_map<uint64_t, Time> sentAt; //!< packet uid -> offer time
    Time windowStart;                          //!< measurement window start
    Time windowEnd;                            //!< measurement window end
    RiflLinkDirectionResult result;            //!< measurements
    std::vector<double> wordLatencyNs;         //!< per word, in the window
    std::vector<double> packetLatencyNs;       //!< per packet, in the window
    uint64_t framesAtStart{0};                 //!< newUserFrames at window start
    uint64_t framesAtEnd{0};                   //!< newUserFrames at window end
};

/**
 * \brief Offer one packet on a flow.
 * \param f the flow.
 */
void
OfferOne(Flow* f)
{
    Ptr<Packet> p = Create<Packet>(f->size->GetInteger());
    f->sentAt[p->GetUid()] = Simulator::Now();
    ++f->result.packetsOffered;
    f->tx->Send(p, f->tx->GetBroadcast(), 0x0800);
}

/**
 * \brief Poisson source: offer and schedule the next offer.
 * \param f the flow.
 */
void
PoissonNext(Flow* f)
{
    if (Simulator::Now() >= f->stop)
    {
        return;
    }
    OfferOne(f);
    Simulator::Schedule(NanoSeconds(static_cast<int64_t>(f->gap->GetValue())), &PoissonNext, f);
}

/**
 * \brief Saturating source: top the device queue up whenever a packet leaves.
 * \param f the flow.
 */
void
TopUp(Flow* f, Ptr<const Packet>)
{
    while (Simulator::Now() < f->stop && f->tx->GetQueue()->GetNPackets() < 80)
    {
        OfferOne(f);
    }
}

/**
 * \brief Sorted-vector quantile (nearest rank).
 * \param v sorted values.
 * \param q quantile.
 * \return the value (0 if empty).
 */
double
Q(const std::vector<double>& v, double q)
{
    if (v.empty())
    {
        return 0.0;
    }
    const std::size_t rank = static_cast<std::size_t>(std::ceil(q * v.size()));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

/**
 * \brief Mean of a vector.
 * \param v values.
 * \return the mean (0 if empty).
 */
double
Mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
    {
        s += x;
    }
    return v.empty() ? 0.0 : s / v.size();
}

} // namespace

RiflLinkScenarioResult
RiflLinkScenario::Run(const RiflLinkScenarioConfig& c)
{
    // A run that throws (e.g. a bad attribute found when the link starts) must
    // not leave events of this run behind for the next simulation in the process.
    try
    {
        return DoRun(c);
    }
    catch (...)
    {
        Simulator::Destroy();
        throw;
    }
}

RiflLinkScenarioResult
RiflLinkScenario::DoRun(const RiflLinkScenarioConfig& c)
{
    RIFL_CHECK_ARG(!(c.ber >= 0 && c.ber < 1), "ber = " << c.ber << " is out of range [0, 1)");
    RIFL_CHECK_ARG(!(c.load > 0 && c.load <= 100),
                   "load = " << c.load << " is out of range (0, 100]");
    RIFL_CHECK_ARG(
        c.minPacketBytes < 1 || c.maxPacketBytes > 9000 || c.minPacketBytes > c.maxPacketBytes,
        "minPacketBytes = " << c.minPacketBytes << ", maxPacketBytes = " << c.maxPacketBytes
                            << " must satisfy 1 <= min <= max <= 9000");
    RiflCheckMicroseconds("durationUs", c.durationUs, false, 1e9);
    RiflCheckMicroseconds("warmupUs", c.warmupUs, true, 1e9);
    RIFL_CHECK_ARG(c.rngRun < 1, "rngRun = " << c.rngRun << " must be >= 1");

    // The channel's BER is the config's: naming it in the map too would be overridden.
    RIFL_CHECK_ARG(c.attributes.count("ns3::RiflChannel::Ber") != 0,
                   "attributes: ns3::RiflChannel::Ber is set by the parameter ber; use that "
                   "instead");

    ScenarioAttributes::CheckUsed(c.attributes,
                                  {"ns3::RiflNetDevice", "ns3::RiflChannel", "ns3::BitErrorProcess",
                                   "ns3::SyncLossProcess", "ns3::Node", "ns3::QueueBase",
                                   "ns3::RandomVariableStream", "ns3::NetDeviceQueueInterface"},
                                  "RiflLinkScenario");

    RngSeedManager::SetRun(c.rngRun);
    ScenarioAttributeDefaults defaults(c.attributes); // put back when the run ends or throws
    ScenarioAttributes::Apply(c.attributes);

    NodeContainer nodes;
    nodes.Create(2);
    RiflHelper rifl;
    if (c.attributes.find("ns3::RiflNetDevice::Mtu") == c.attributes.end())
    {
        rifl.SetDeviceAttribute("Mtu", UintegerValue(9000));
    }
    if (c.attributes.find("ns3::RiflNetDevice::EngineQueuePackets") == c.attributes.end())
    {
        // Enough packets ahead of the line that even 1-frame packets fill every lane.
        rifl.SetDeviceAttribute("EngineQueuePackets", UintegerValue(64));
    }
    if (c.attributes.find("ns3::RiflNetDevice::Startup") == c.attributes.end())
    {
        rifl.SetDeviceAttribute("Startup", StringValue("Short"));
    }
    rifl.SetChannelAttribute("Ber", DoubleValue(c.ber));
    rifl.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
    NetDeviceContainer devs = rifl.Install(nodes);
    int64_t stream = 1;
    stream += rifl.AssignStreams(devs, stream);

    Ptr<RiflNetDevice> dev[2]
        = {DynamicCast<RiflNetDevice>(devs.Get(0)), DynamicCast<RiflNetDevice>(devs.Get(1))};
    for (uint32_t i = 0; i < 2; ++i)
    {
        for (const auto& kv : i == 0 ? c.deviceAttributesA : c.deviceAttributesB)
        {
            RIFL_CHECK_ARG(!dev[i]->SetAttributeFailSafe(kv.first, StringValue(kv.second)),
                           (i == 0 ? "deviceAttributesA[\"" : "deviceAttributesB[\"")
                               << kv.first << "\"] = \"" << kv.second
                               << "\" is not a valid ns3::RiflNetDevice attribute value");
        }
    }
    Ptr<RiflChannel> channel = DynamicCast<RiflChannel>(dev[0]->GetChannel());
    const double lineBps = dev[0]->GetDataRate().GetBitRate();
    {
        // Up to one word latency per UserWordBytes and one packet latency per packet
        // delivered in the window, per direction, 16 bytes each (a double, twice while
        // the vector grows): refuse a window whose samples would not fit.
        UintegerValue wordA;
        UintegerValue wordB;
        dev[0]->GetAttribute("UserWordBytes", wordA);
        dev[1]->GetAttribute("UserWordBytes", wordB);
        const double wordBytes = std::max<double>(1, std::min(wordA.Get(), wordB.Get()));
        const double meanPacketBytes = (c.minPacketBytes + c.maxPacketBytes) / 2.0;
        const double bytesPerUs = lineBps / 8 * 1e-6 * std::min(c.load, 1.0);
        const double samplesPerUs
            = (c.bidirectional ? 2 : 1) * bytesPerUs * (1 / wordBytes + 1 / meanPacketBytes);
        const double need = 16 * samplesPerUs * c.durationUs;
        RIFL_CHECK_ARG(need > MAX_SAMPLE_BYTES,
                       "durationUs = "
                           << c.durationUs << " would keep about " << need / (1024.0 * 1024 * 1024)
                           << " GiB of latency samples (" << lineBps / 1e9
                           << " Gb/s line rate, load " << c.load
                           << ", ns3::RiflNetDevice::UserWordBytes = " << wordBytes
                           << "), more than the limit of "
                           << MAX_SAMPLE_BYTES / (1024.0 * 1024 * 1024)
                           << " GiB: at most durationUs = "
                           << static_cast<uint64_t>(MAX_SAMPLE_BYTES / (16 * samplesPerUs))
                           << " here");
    }
    const Time windowStart = RiflMicroseconds(c.warmupUs);
    const Time windowEnd = windowStart + RiflMicroseconds(c.durationUs);

    std::vector<Flow> flows(2);
    const uint32_t nFlows = c.bidirectional ? 2 : 1;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Flow& f = flows[i];
        f.tx = dev[i];
        f.stop = windowEnd;
        f.windowStart = windowStart;
        f.windowEnd = windowEnd;
        f.size = CreateObject<UniformRandomVariable>();
        f.size->SetAttribute("Min", DoubleValue(c.minPacketBytes));
        f.size->SetAttribute("Max", DoubleValue(c.maxPacketBytes));
        f.size->SetStream(stream++);
        f.gap = CreateObject<ExponentialRandomVariable>();
        const double meanBits = 8.0 * ((c.minPacketBytes + c.maxPacketBytes) / 2.0 + 2);
        if (lineBps > 0)
        {
            // (LaneRate = 0 is reported by the link when it starts, at time 0, before any
            // packet is offered; an infinite Mean would make ns-3 abort here instead.)
            f.gap->SetAttribute("Mean", DoubleValue(meanBits / (c.load * lineBps) * 1e9));
        }
        f.gap->SetStream(stream++);
        f.saturate = c.load >= 1.0;
        if (i >= nFlows)
        {
            continue;
        }
        if (f.saturate)
        {
            dev[i]->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&TopUp, &f));
            Simulator::Schedule(Seconds(0), &TopUp, &f, Ptr<const Packet>());
        }
        else
        {
            Simulator::Schedule(Seconds(0), &PoissonNext, &f);
        }
    }
    // Receivers: packet latency by uid (the channel delivers the sender's packet object).
    for (uint32_t i = 0; i < 2; ++i)
    {
        Flow* f = &flows[1 - i];
        dev[i]->SetReceiveCallback(
            [f](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
            {
                const Time now = Simulator::Now();
                auto it = f->sentAt.find(p->GetUid());
                if (now >= f->windowStart && now < f->windowEnd)
                {
                    ++f->result.packetsDelivered;
                    f->result.bytesDelivered += p->GetSize();
                    if (it != f->sentAt.end())
                    {
                        f->packetLatencyNs.push_back((now - it->second).GetSeconds() * 1e9);
                    }
                }
                if (it != f->sentAt.end())
                {
                    f->sentAt.erase(it);
                }
                return true;
            });
    }
    const double slotNs
        = dev[0]->GetLinkConfig().frameSize / (lineBps / dev[0]->GetLinkConfig().lanes) * 1e9;
    channel->TraceConnectWithoutContext(
        "Delivery", RiflMakeCallback<void, const RiflDelivery&, bool>(
                        std::function<void(const RiflDelivery&, bool)>(
                            [&flows, slotNs](const RiflDelivery& d, bool corrupt)
                            {
                                Flow& f = flows[1 - d.endpoint];
                                const Time now = Simulator::Now();
                                if (now < f.windowStart || now >= f.windowEnd)
                                {
                                    return;
                                }
                                f.result.packetsCorrupt += corrupt ? 1 : 0;
                                for (uint64_t w : d.wordLatencies)
                                {
                                    f.wordLatencyNs.push_back(w * slotNs);
                                }
                            })));
    auto snapshot = [&flows, dev](bool start)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            const uint64_t n = dev[i]->GetCounters().newUserFrames;
            (start ? flows[i].framesAtStart : flows[i].framesAtEnd) = n;
        }
    };
    RiflScheduleFunction(windowStart, std::function<void()>(
                                          [snapshot]()
                                          {
                                              snapshot(true);
                                          }));
    RiflScheduleFunction(windowEnd, std::function<void()>(
                                        [snapshot]()
                                        {
                                            snapshot(false);
                                        }));
    Simulator::Stop(windowEnd + NanoSeconds(1));

    const auto t0 = std::chrono::steady_clock::now();
    if (c.beforeRun)
    {
        c.beforeRun();
    }
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();

    RiflLinkScenarioResult r;
    const RiflLinkConfig& cfg = channel->GetConfig();
    r.lineRateGbps = lineBps / 1e9;
    r.slotNs = cfg.GetSlotTimeNs();
    r.frameIdWidth = cfg.GetFrameIdWidth();
    r.lineDelaySlots = cfg.GetLineDelaySlots();
    r.countersA = dev[0]->GetCounters();
    r.countersB = dev[1]->GetCounters();
    r.wallSeconds = std::chrono::duration<double>(t1 - t0).count();
    r.events = Simulator::GetEventCount();
    const double windowSlots = c.durationUs * 1e3 / r.slotNs;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Flow& f = flows[i];
        RiflLinkDirectionResult& d = f.result;
        d.goodputGbps = d.bytesDelivered * 8.0 / (c.durationUs * 1e-6) / 1e9;
        d.lineShare = (f.framesAtEnd - f.framesAtStart) / (cfg.lanes * windowSlots);
        std::sort(f.wordLatencyNs.begin(), f.wordLatencyNs.end());
        std::sort(f.packetLatencyNs.begin(), f.packetLatencyNs.end());
        d.wordLatencyNsMean = Mean(f.wordLatencyNs);
        d.wordLatencyNsP50 = Q(f.wordLatencyNs, 0.5);
        d.wordLatencyNsP99 = Q(f.wordLatencyNs, 0.99);
        d.wordLatencyNsP999 = Q(f.wordLatencyNs, 0.999);
        d.wordLatencyNsMax = f.wordLatencyNs.empty() ? 0.0 : f.wordLatencyNs.back();
        d.packetLatencyNsMean = Mean(f.packetLatencyNs);
        d.packetLatencyNsP99 = Q(f.packetLatencyNs, 0.99);
        d.packetLatencyNsMax = f.packetLatencyNs.empty() ? 0.0 : f.packetLatencyNs.back();
        (i == 0 ? r.aToB : r.bToA) = d;
    }
    // MTBF of the A-to-B direction from its measured actual bandwidth (spec 4, Eq. 15).
    const double lambdaActual
        = std::max(1e-30, r.aToB.lineShare) * lineBps * (cfg.frameSize - 16.0) / cfg.frameSize;
    if (c.ber > 0)
    {
        // The paper's C(S,4) BER^4 / 2^12 is a small-BER approximation: above about
        // BER 0.07 (S = 256) it exceeds 1 and is no probability, so no MTBF follows.
        r.mtbfYearsPaper
            = LinkReliabilityModel::RiflUndetectedPaper(c.ber, cfg.frameSize) > 1.0
                  ? std::numeric_limits<double>::quiet_NaN()
                  : LinkReliabilityModel::RiflMtbfPaperSeconds(c.ber, cfg.frameSize, lambdaActual)
                        / LinkReliabilityModel::SECONDS_PER_YEAR;
        r.mtbfYearsExact
            = LinkReliabilityModel::RiflMtbfExactSeconds(c.ber, cfg.frameSize, lambdaActual)
              / LinkReliabilityModel::SECONDS_PER_YEAR;
    }
    else
    {
        r.mtbfYearsPaper = r.mtbfYearsExact = INFINITY;
    }
    Simulator::Destroy();
    return r;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-pair-scenario.h"

#include "direct-link-helper.h"
#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/direct-link-channel.h"
#include "ns3/direct-link-flit.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/link-reliability-model.h"
#include "ns3/network-module.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "scenario-attribute-defaults.h"
#include "scenario-attributes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkPairScenario");

namespace
{

/// Counters of both CPUs and devices at one instant.
struct Snapshot
{
    CpuTrafficStats app[2];          //!< per CPU
    DirectLinkDeviceCounters dev[2]; //!< per device
    uint64_t microPackets{0};        //!< non-Null micro-packets sent, both sides
};

/**
 * \brief A number as an output stream writes it.
 * \param v the number.
 * \return its text.
 */
std::string
Str(double v)
{
    std::ostringstream os;
    os << v;
    return os.str();
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

/// Attributes the config sets itself (naming them in the map too is an error).
const char* const OWNED[][2] = {
    {"ns3::DirectLinkChannel::Ber", "ber"},
    {"ns3::CpuTrafficApplication::RequestBytes", "requestBytes"},
    {"ns3::CpuTrafficApplication::ResponseBytes", "responseBytes"},
    {"ns3::CpuTrafficApplication::Mode", "closedLoop"},
    {"ns3::CpuTrafficApplication::MaxOutstanding", "maxOutstanding"},
    {"ns3::CpuTrafficApplication::RequestRate", "requestRate"},
    {"ns3::CpuTrafficApplication::GenerateRequests", "bidirectional"},
};

/**
 * \brief Validate the configuration.
 * \param c the configuration (std::invalid_argument naming a bad parameter).
 */
void
Check(const DirectLinkPairScenarioConfig& c)
{
    RIFL_CHECK_ARG(!(c.ber >= 0 && c.ber < 1), "ber = " << c.ber << " is out of range [0, 1)");
    RIFL_CHECK_ARG(c.requestBytes < 8 || c.requestBytes > 4096,
                   "requestBytes = " << c.requestBytes << " is out of range [8, 4096]");
    RIFL_CHECK_ARG(c.responseBytes < 4 || c.responseBytes > 4096,
                   "responseBytes = " << c.responseBytes << " is out of range [4, 4096]");
    RIFL_CHECK_ARG(c.maxOutstanding < 1 || c.maxOutstanding > 65536,
                   "maxOutstanding = " << c.maxOutstanding << " is out of range [1, 65536]");
    RIFL_CHECK_ARG(!(c.requestRate > 0 && c.requestRate <= 1e10),
                   "requestRate = " << c.requestRate << " is out of range (0, 1e10]");
    RiflCheckMicroseconds("durationUs", c.durationUs, false, 1e9);
    RiflCheckMicroseconds("warmupUs", c.warmupUs, true, 1e9);
    RIFL_CHECK_ARG(c.rngRun < 1, "rngRun = " << c.rngRun << " must be >= 1");
    for (const auto& o : OWNED)
    {
        RIFL_CHECK_ARG(c.attributes.count(o[0]) != 0,
                       "attributes: " << o[0] << " is set by the parameter " << o[1]
                                      << "; use that instead");
    }
    ScenarioAttributes::CheckUsed(c.attributes,
                                  {"ns3::DirectLinkNetDevice", "ns3::DirectLinkChannel",
                                   "ns3::DirectLinkInterfaceUnit", "ns3::DirectLinkDevicePort",
                                   "ns3::CpuTrafficApplication", "ns3::BitErrorProcess",
                                   "ns3::Node", "ns3::QueueBase", "ns3::RandomVariableStream",
                                   "ns3::NetDeviceQueueInterface"},
                                  "DirectLinkPairScenario");
}

/**
 * \brief The scenario body (the caller destroys the simulator).
 * \param c the validated configuration.
 * \return the measurements.
 */
DirectLinkPairScenarioResult
RunBody(const DirectLinkPairScenarioConfig& c)
{
    RngSeedManager::SetRun(c.rngRun);
    ScenarioAttributeDefaults defaults(c.attributes); // put back when the run ends or throws
    ScenarioAttributes::Apply(c.attributes);

    NodeContainer cpus;
    cpus.Create(2);
    DirectLinkHelper helper;
    helper.SetChannelAttribute("Ber", DoubleValue(c.ber));
    NetDeviceContainer devices = helper.Install(cpus);
    helper.AssignStreams(devices, 1);
    Ptr<DirectLinkNetDevice> dev[2] = {DynamicCast<DirectLinkNetDevice>(devices.Get(0)),
                                       DynamicCast<DirectLinkNetDevice>(devices.Get(1))};
    Ptr<DirectLinkChannel> ch = DynamicCast<DirectLinkChannel>(dev[0]->GetChannel());

    {
        // One latency sample per response in the window, 16 bytes each (a double, twice
        // while the vector grows). Each response takes at least one micro-packet of its
        // own in each direction (its request one way, itself the other), so no more
        // than one completes per micro-packet time, nor (open loop) more than the CPUs
        // request: refuse a window whose samples would not fit.
        const double lineBps = static_cast<double>(ch->GetLineRateBps());
        const double lineLimitPerUs = lineBps / DirectLinkFlit::FLIT_BITS * 1e-6;
        const double generators = c.bidirectional ? 2 : 1;
        const double samplesPerUs
            = c.closedLoop ? lineLimitPerUs
                           : std::min(lineLimitPerUs, generators * c.requestRate * 1e-6);
        const double need = 16 * samplesPerUs * c.durationUs;
        RIFL_CHECK_ARG(need > DirectLinkPairScenario::MAX_SAMPLE_BYTES,
                       "durationUs = "
                           << c.durationUs << " would keep up to about "
                           << need / (1024.0 * 1024 * 1024) << " GiB of latency samples ("
                           << lineBps / 1e9 << " Gb/s line rate"
                           << (c.closedLoop ? ", closed loop"
                                            : ", open loop, requestRate = " + Str(c.requestRate))
                           << "), more than the limit of "
                           << DirectLinkPairScenario::MAX_SAMPLE_BYTES / (1024.0 * 1024 * 1024)
                           << " GiB: at most durationUs = "
                           << static_cast<uint64_t>(DirectLinkPairScenario::MAX_SAMPLE_BYTES
                                                    / (16 * samplesPerUs))
                           << " here");
    }
    const Time windowStart = RiflMicroseconds(c.warmupUs);
    const Time windowEnd = windowStart + RiflMicroseconds(c.durationUs);
    std::vector<double> latencyNs;
    Ptr<CpuTrafficApplication> app[2];
    for (uint32_t i = 0; i < 2; ++i)
    {
        helper.InstallDliu(cpus.Get(i), i);
        app[i] = CreateObject<CpuTrafficApplication>();
        app[i]->SetAttribute("Mode", EnumValue(c.closedLoop ? CpuTrafficApplication::CLOSED_LOOP
                                                            : CpuTrafficApplication::OPEN_LOOP));
        app[i]->SetAttribute("MaxOutstanding", UintegerValue(c.maxOutstanding));
        app[i]->SetAttribute("RequestRate", DoubleValue(c.requestRate));
        app[i]->SetAttribute("RequestBytes", UintegerValue(c.requestBytes));
        app[i]->SetAttribute("ResponseBytes", UintegerValue(c.responseBytes));
        app[i]->SetAttribute("GenerateRequests", BooleanValue(i == 0 || c.bidirectional));
        app[i]->AssignStreams(100 + 10 * i);
        cpus.Get(i)->AddApplication(app[i]);
        app[i]->SetStartTime(Seconds(0));
        app[i]->SetStopTime(windowEnd);
        app[i]->TraceConnectWithoutContext(
            "Latency", RiflMakeCallback<void, uint32_t, Time>(std::function<void(uint32_t, Time)>(
                           [&latencyNs, windowStart, windowEnd](uint32_t, Time latency)
                           {
                               const Time now = Simulator::Now();
                               if (now >= windowStart && now < windowEnd)
                               {
                                   latencyNs.push_back(latency.ToDouble(Time::NS));
                               }
                           })));
    }

    Snapshot snap[2];
    auto take = [&app, &dev](Snapshot& s)
    {
        s.microPackets = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            s.app[i] = app[i]->GetStats();
            s.dev[i] = dev[i]->GetCounters();
            const auto ec = dev[i]->GetEndpointCounters();
            for (uint32_t t = 0; t < ec.sentByType.size(); ++t)
            {
                if (t != static_cast<uint32_t>(DirectLinkFlit::PktType::NULL_FLIT))
                {
                    s.microPackets += ec.sentByType[t];
                }
            }
        }
    };
    if (windowStart.IsZero())
    {
        take(snap[0]);
    }
    else
    {
        RiflScheduleFunction(windowStart, std::function<void()>(
                                              [&]()
                                              {
                                                  take(snap[0]);
                                              }));
    }
    RiflScheduleFunction(windowEnd, std::function<void()>(
                                        [&]()
                                        {
                                            take(snap[1]);
                                        }));
    Simulator::Stop(windowEnd + NanoSeconds(1));

    const auto t0 = std::chrono::steady_clock::now();
    if (c.beforeRun)
    {
        c.beforeRun();
    }
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();

    DirectLinkPairScenarioResult r;
    r.wallSeconds = std::chrono::duration<double>(t1 - t0).count();
    r.events = Simulator::GetEventCount();
    const DirectLinkConfig& cfg = ch->GetConfig();
    r.lineRateGbps = cfg.lineRateBps / 1e9;
    r.slotNs = cfg.GetSlotNs();
    r.oneWayDelaySlots = cfg.oneWayDelaySlots;
    const Snapshot& a = snap[0];
    const Snapshot& b = snap[1];
    for (uint32_t i = 0; i < 2; ++i)
    {
        r.requestsIssued += b.app[i].requestsIssued - a.app[i].requestsIssued;
        r.responses += b.app[i].responsesOk - a.app[i].responsesOk;
        r.responsesBad += b.app[i].responsesBad - a.app[i].responsesBad;
        r.responsesErrored += b.app[i].responsesErrored - a.app[i].responsesErrored;
        r.requestTimeouts += b.app[i].timeouts - a.app[i].timeouts;
        r.responseBytes += b.app[i].responseBytes - a.app[i].responseBytes;
        r.retransmissions += b.dev[i].retransmissions - a.dev[i].retransmissions;
        r.ackTimeouts += b.dev[i].timeouts - a.dev[i].timeouts;
        r.crcErrors += b.dev[i].crcErrors - a.dev[i].crcErrors;
        r.shutdowns += b.dev[i].shutdowns - a.dev[i].shutdowns;
        r.messagesLost += b.dev[i].messagesLost - a.dev[i].messagesLost;
        r.messagesHeldOpen += b.dev[i].messagesHeldOpen - a.dev[i].messagesHeldOpen;
        r.messagesTruncated += b.dev[i].messagesTruncated - a.dev[i].messagesTruncated;
        r.undetectedErrors += b.dev[i].undetectedErrors - a.dev[i].undetectedErrors;
        r.contentMismatches += b.dev[i].contentMismatches - a.dev[i].contentMismatches;
    }
    r.microPackets = b.microPackets - a.microPackets;
    const double windowS = c.durationUs * 1e-6;
    r.responsesPerSecond = r.responses / windowS;
    r.throughputGbps = r.responseBytes * 8.0 / windowS / 1e9;
    r.microPacketsPerSecond = r.microPackets / windowS;
    std::sort(latencyNs.begin(), latencyNs.end());
    double sum = 0;
    for (double x : latencyNs)
    {
        sum += x;
    }
    r.latencyNsMean = latencyNs.empty() ? 0.0 : sum / latencyNs.size();
    r.latencyNsP50 = Q(latencyNs, 0.5);
    r.latencyNsP99 = Q(latencyNs, 0.99);
    r.latencyNsP999 = Q(latencyNs, 0.999);
    r.latencyNsMax = latencyNs.empty() ? 0.0 : latencyNs.back();
    r.pUndetected = LinkReliabilityModel::DirectLinkUndetectedExact(c.ber, cfg.crcPoly);
    const double fullLine = 2.0 * cfg.lineRateBps / DirectLinkConfig::MICRO_PACKET_BITS;
    r.mtbfYears = (r.pUndetected > 0 && r.microPacketsPerSecond > 0)
                      ? LinkReliabilityModel::MtbfSeconds(r.microPacketsPerSecond, r.pUndetected)
                            / LinkReliabilityModel::SECONDS_PER_YEAR
                      : INFINITY;
    r.mtbfYearsFullLine = r.pUndetected > 0
                              ? LinkReliabilityModel::MtbfSeconds(fullLine, r.pUndetected)
                                    / LinkReliabilityModel::SECONDS_PER_YEAR
                              : INFINITY;
    return r;
}

} // namespace

DirectLinkPairScenarioResult
DirectLinkPairScenario::Run(const DirectLinkPairScenarioConfig& c)
{
    Check(c);
    // Start from a clean simulator: a scenario that threw mid-run without destroying it
    // would otherwise leave events (pointing at its freed state) and nodes behind.
    Simulator::Destroy();
    try
    {
        DirectLinkPairScenarioResult r = RunBody(c);
        Simulator::Destroy();
        return r;
    }
    catch (...)
    {
        Simulator::Destroy();
        throw;
    }
}

} // namespace ns3

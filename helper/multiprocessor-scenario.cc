/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "multiprocessor-scenario.h"

#include "multiprocessor-topology-helper.h"
#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/direct-link-channel.h"
#include "ns3/direct-link-flit.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/link-reliability-model.h"
#include "ns3/network-module.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-message-port.h"
#include "ns3/rifl-net-device.h"
#include "scenario-attribute-defaults.h"
#include "scenario-attributes.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflMultiprocessorScenario");

static_assert(MULTIPROCESSOR_SCENARIO_LOSS_REASONS == DIRECT_LINK_NUM_LOSS_REASONS,
              "MultiprocessorScenarioResult::lostByReason must have one entry per "
              "DirectLinkLossReason");

namespace
{

/// Attributes the config sets itself (naming them in the map too is an error).
const char* const OWNED[][2] = {
    {"ns3::DirectLinkChannel::Ber", "ber"},
    {"ns3::RiflChannel::Ber", "ber"},
    {"ns3::CpuTrafficApplication::RequestBytes", "requestBytes"},
    {"ns3::CpuTrafficApplication::ResponseBytes", "responseBytes"},
    {"ns3::CpuTrafficApplication::MaxOutstanding", "window"},
    {"ns3::CpuTrafficApplication::MaxRequests", "requestsPerCpu"},
    {"ns3::CpuTrafficApplication::Mode", "window (the scenario is closed loop)"},
    {"ns3::CpuTrafficApplication::RequestRate", "window (the scenario is closed loop)"},
    {"ns3::CpuTrafficApplication::GenerateRequests", "requestsPerCpu (every CPU sends)"},
    {"ns3::DirectLinkInterfaceUnit::CpuNumber", "topology (CPU i is node i)"},
};

/**
 * \brief Sorted-vector quantile (nearest rank).
 * \param v sorted values.
 * \param q quantile.
 * \return the value (0 if empty).
 */
double
Quantile(const std::vector<int64_t>& v, double q)
{
    if (v.empty())
    {
        return 0.0;
    }
    const std::size_t rank = static_cast<std::size_t>(std::ceil(q * v.size()));
    return static_cast<double>(v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)]);
}

/**
 * \brief Validate the configuration.
 * \param c the configuration (std::invalid_argument naming a bad parameter).
 */
void
Check(const MultiprocessorScenarioConfig& c)
{
    const std::string& t = c.topology;
    RIFL_CHECK_ARG(
        t != "fullmesh" && t != "ring" && t != "mesh" && t != "torus" && t != "hypercube",
        "topology = \"" << t << "\" is not one of fullmesh, ring, mesh, torus, hypercube");
    if (t == "fullmesh")
    {
        RIFL_CHECK_ARG(c.n < 2 || c.n > 256, "n = " << c.n << " is out of range [2, 256]");
    }
    else if (t == "ring")
    {
        RIFL_CHECK_ARG(c.n < 3 || c.n > 256, "n = " << c.n << " is out of range [3, 256]");
    }
    else if (t == "mesh")
    {
        RIFL_CHECK_ARG(c.x < 1 || c.x > 256, "x = " << c.x << " is out of range [1, 256]");
        RIFL_CHECK_ARG(c.y < 1 || c.y > 256, "y = " << c.y << " is out of range [1, 256]");
        RIFL_CHECK_ARG(c.x * c.y < 2 || c.x * c.y > 256,
                       "x * y = " << c.x * c.y << " is out of range [2, 256]");
    }
    else if (t == "torus")
    {
        RIFL_CHECK_ARG(c.x < 3 || c.x > 85, "x = " << c.x << " is out of range [3, 85]");
        RIFL_CHECK_ARG(c.y < 3 || c.y > 85, "y = " << c.y << " is out of range [3, 85]");
        RIFL_CHECK_ARG(c.x * c.y > 256, "x * y = " << c.x * c.y << " is out of range [9, 256]");
    }
    else
    {
        RIFL_CHECK_ARG(c.dim < 1 || c.dim > 8, "dim = " << c.dim << " is out of range [1, 8]");
    }
    RIFL_CHECK_ARG(c.deadlockAvoidance != "dateline-vcs" && c.deadlockAvoidance != "none"
                       && c.deadlockAvoidance != "dateline-routing",
                   "deadlockAvoidance = \""
                       << c.deadlockAvoidance
                       << "\" is not one of dateline-vcs, dateline-routing, none");
    RIFL_CHECK_ARG(c.link != "direct" && c.link != "rifl",
                   "link = \"" << c.link << "\" is not one of direct, rifl");
    RIFL_CHECK_ARG(!(c.ber >= 0 && c.ber < 1), "ber = " << c.ber << " is out of range [0, 1)");
    RIFL_CHECK_ARG(c.requestsPerCpu < 1 || c.requestsPerCpu > 10000000,
                   "requestsPerCpu = " << c.requestsPerCpu << " is out of range [1, 10000000]");
    {
        const uint64_t cpus = t == "fullmesh" || t == "ring" ? c.n
                              : t == "hypercube"             ? uint64_t{1} << c.dim
                                                             : uint64_t{c.x} * c.y;
        const uint64_t requests = cpus * c.requestsPerCpu;
        RIFL_CHECK_ARG(requests > MultiprocessorScenario::MAX_REQUESTS,
                       "requestsPerCpu = " << c.requestsPerCpu << " on " << cpus << " CPUs gives "
                                           << requests << " requests, more than the limit of "
                                           << MultiprocessorScenario::MAX_REQUESTS
                                           << " (a latency sample each: 16 GiB)");
    }
    RIFL_CHECK_ARG(c.window < 1 || c.window > 65536,
                   "window = " << c.window << " is out of range [1, 65536]");
    RIFL_CHECK_ARG(c.requestBytes < 8 || c.requestBytes > 4096,
                   "requestBytes = " << c.requestBytes << " is out of range [8, 4096]");
    RIFL_CHECK_ARG(c.responseBytes < 4 || c.responseBytes > 4096,
                   "responseBytes = " << c.responseBytes << " is out of range [4, 4096]");
    RiflCheckMicroseconds("startUs", c.startUs, true, 1e6);
    RiflCheckMicroseconds("maxDurationUs", c.maxDurationUs, false, 1e9);
    RIFL_CHECK_ARG(c.rngRun < 1, "rngRun = " << c.rngRun << " must be >= 1");
#ifdef NS3_MPI
    RIFL_CHECK_ARG(c.ranks > 1 && MpiInterface::IsEnabled(),
                   "ranks = " << c.ranks
                              << ": the scenario runs in one process (ranks are labels); on MPI "
                                 "ranks run examples/multiprocessor-direct-connect --mpi");
#endif
    RIFL_CHECK_ARG(c.ranks < 1 || c.ranks > 256, "ranks = " << c.ranks
                                                            << " is out of range [1, 256] (at most "
                                                               "the CPUs of the topology)");
    for (const auto& o : OWNED)
    {
        RIFL_CHECK_ARG(c.attributes.count(o[0]) != 0,
                       "attributes: " << o[0] << " is set by the parameter " << o[1]
                                      << "; use that instead");
    }
    std::vector<std::string> used{"ns3::DirectLinkInterfaceUnit",
                                  "ns3::CpuTrafficApplication",
                                  "ns3::BitErrorProcess",
                                  "ns3::Node",
                                  "ns3::QueueBase",
                                  "ns3::RandomVariableStream",
                                  "ns3::NetDeviceQueueInterface"};
    if (c.link == "rifl")
    {
        used.insert(used.end(), {"ns3::RiflNetDevice", "ns3::RiflChannel", "ns3::RiflMessagePort",
                                 "ns3::SyncLossProcess"});
    }
    else
    {
        used.insert(used.end(), {"ns3::DirectLinkNetDevice", "ns3::DirectLinkChannel",
                                 "ns3::DirectLinkDevicePort"});
    }
    ScenarioAttributes::CheckUsed(c.attributes, used,
                                  "MultiprocessorScenario with link = \"" + c.link + "\"");
}

/// Counters of every app and device at one instant.
struct Snapshot
{
    std::vector<CpuTrafficStats> app;                  //!< by CPU
    std::vector<DirectLinkInterfaceUnitCounters> dliu; //!< by CPU
    std::vector<DirectLinkDeviceCounters> dev;         //!< by device
    std::vector<uint64_t> nonNull;                     //!< non-Null sent, by device
    std::vector<uint64_t> data;                        //!< Data sent, by device
    std::vector<RiflMessagePortCounters> port;         //!< RIFL links: by device
    std::vector<RiflEndpointCounters> rifl;            //!< RIFL links: by device
};

/**
 * \brief The scenario body (the caller destroys the simulator).
 * \param c the validated configuration.
 * \return the measurements.
 */
MultiprocessorScenarioResult
RunBody(const MultiprocessorScenarioConfig& c)
{
    RngSeedManager::SetRun(c.rngRun);
    ScenarioAttributes::Apply(c.attributes);

    MultiprocessorTopologyHelper mp;
    mp.SetChannelAttribute("Ber", DoubleValue(c.ber));
    const bool rifl = c.link == "rifl";
    if (rifl)
    {
        mp.SetLinkTechnology(MultiprocessorTopologyHelper::RIFL);
        mp.GetRiflHelper().SetChannelAttribute("Ber", DoubleValue(c.ber));
        if (c.attributes.count("ns3::RiflNetDevice::Startup") == 0)
        {
            // the scenario's traffic starts at startUs, microseconds after the links
            mp.GetRiflHelper().SetDeviceAttribute("Startup", StringValue("Short"));
        }
    }
    mp.SetRanks(c.ranks);
    mp.SetSplitRemoteLinks(c.splitRemoteLinks);
    if (c.deadlockAvoidance == "dateline-routing")
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_ROUTING);
    }
    else if (c.deadlockAvoidance == "none")
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::NO_AVOIDANCE);
    }
    else
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_VCS);
    }
    if (c.topology == "fullmesh")
    {
        mp.FullMesh(c.n);
    }
    else if (c.topology == "ring")
    {
        mp.Ring(c.n);
    }
    else if (c.topology == "mesh")
    {
        mp.Mesh2D(c.x, c.y);
    }
    else if (c.topology == "torus")
    {
        mp.Torus2D(c.x, c.y);
    }
    else
    {
        mp.Hypercube(c.dim);
    }
    const uint32_t n = mp.GetNCpus();
    const int64_t appStream = 1 + mp.AssignStreams(1);

    // Route lengths, for the hop statistics and the expected number of forwards.
    std::vector<std::vector<uint32_t>> hops(n, std::vector<uint32_t>(n, 0));
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s != d)
            {
                hops[s][d] = mp.GetHopCount(s, d);
                RIFL_CHECK_ARG(hops[s][d] == std::numeric_limits<uint32_t>::max(),
                               "MultiprocessorScenario: no route from CPU " << s << " to CPU "
                                                                            << d);
            }
        }
    }

    const NetDeviceContainer devices = mp.GetDevices();
    std::vector<Ptr<DirectLinkNetDevice>> dev;
    std::vector<Ptr<RiflNetDevice>> rdev;
    for (uint32_t k = 0; k < devices.GetN(); ++k)
    {
        if (rifl)
        {
            rdev.push_back(DynamicCast<RiflNetDevice>(devices.Get(k)));
        }
        else
        {
            dev.push_back(DynamicCast<DirectLinkNetDevice>(devices.Get(k)));
        }
    }

    const Time start = RiflMicroseconds(c.startUs);
    const Time limit = start + RiflMicroseconds(c.maxDurationUs);
    std::vector<Ptr<CpuTrafficApplication>> app(n);
    std::vector<uint8_t> done(n, 0);
    std::vector<std::size_t> lastCount(n, std::numeric_limits<std::size_t>::max());
    uint32_t nDone = 0;
    uint64_t hopSum = 0;
    uint64_t forwardsExpected = 0;
    uint32_t hopsMax = 0;
    Time end = limit;
    bool completed = false;
    auto finish = [&](uint32_t i)
    {
        if (!done[i])
        {
            done[i] = 1;
            if (++nDone == n)
            {
                completed = true;
                end = Simulator::Now();
                Simulator::Stop();
            }
        }
    };
    for (uint32_t i = 0; i < n; ++i)
    {
        // Through a named Ptr, not a temporary moved into the vector: g++ 12 warned
        // -Wmaybe-uninitialized inside ns-3's Ptr on the temporary in an
        // RIFL_PGO=USE build (a false positive).
        Ptr<CpuTrafficApplication> made = CreateObject<CpuTrafficApplication>();
        app[i] = made;
        app[i]->SetAttribute("Mode", EnumValue(CpuTrafficApplication::CLOSED_LOOP));
        app[i]->SetAttribute("MaxOutstanding", UintegerValue(c.window));
        app[i]->SetAttribute("MaxRequests", UintegerValue(c.requestsPerCpu));
        app[i]->SetAttribute("RequestBytes", UintegerValue(c.requestBytes));
        app[i]->SetAttribute("ResponseBytes", UintegerValue(c.responseBytes));
        app[i]->SetAttribute("GenerateRequests", BooleanValue(true));
        app[i]->AssignStreams(appStream + 3 * i);
        app[i]->SetStartTime(start);
        mp.GetCpu(i)->AddApplication(app[i]);
        app[i]->TraceConnectWithoutContext(
            "Latency", RiflMakeCallback<void, uint32_t, Time>(std::function<void(uint32_t, Time)>(
                           [&, i](uint32_t dst, Time)
                           {
                               const uint32_t h = dst < n ? hops[i][dst] : 0;
                               hopSum += h;
                               hopsMax = std::max(hopsMax, h);
                               forwardsExpected += h + (dst < n ? hops[dst][i] : 0) - 2;
                               // Every request answered correctly: this CPU is done, exactly now.
                               if (app[i]->GetLatencies().size() == c.requestsPerCpu)
                               {
                                   finish(i);
                               }
                           })));
    }

    // A CPU that lost responses never reaches requestsPerCpu correct ones; it is done
    // once it has issued them all and none is outstanding (answered or timed out). The
    // check (GetStats sorts the latencies) runs only on CPUs that made no progress since
    // the previous one.
    const Time pollPeriod = MicroSeconds(10);
    std::function<void()> poll = [&]()
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            const std::size_t count = app[i]->GetLatencies().size();
            if (!done[i] && count == lastCount[i])
            {
                const CpuTrafficStats st = app[i]->GetStats();
                if (st.requestsIssued + st.requestsRefused >= c.requestsPerCpu
                    && st.outstanding == 0)
                {
                    finish(i);
                }
            }
            lastCount[i] = count;
        }
        if (!completed)
        {
            Simulator::Schedule(pollPeriod, poll);
        }
    };
    Simulator::Schedule(start + pollPeriod, poll);

    auto take = [&](Snapshot& s)
    {
        s.app.clear();
        s.dliu.clear();
        s.dev.clear();
        s.nonNull.clear();
        s.data.clear();
        s.port.clear();
        s.rifl.clear();
        for (uint32_t i = 0; i < n; ++i)
        {
            s.app.push_back(app[i]->GetStats());
            s.dliu.push_back(mp.GetDliu(i)->GetCounters());
        }
        for (const auto& d : dev)
        {
            s.dev.push_back(d->GetCounters());
            const auto ec = d->GetEndpointCounters();
            uint64_t nn = 0;
            for (uint32_t t = 0; t < ec.sentByType.size(); ++t)
            {
                if (t != static_cast<uint32_t>(DirectLinkFlit::PktType::NULL_FLIT))
                {
                    nn += ec.sentByType[t];
                }
            }
            s.nonNull.push_back(nn);
            s.data.push_back(ec.sentByType[static_cast<uint32_t>(DirectLinkFlit::PktType::DATA)]);
        }
        for (const auto& d : rdev)
        {
            s.port.push_back(d->GetObject<RiflMessagePort>()->GetCounters());
            s.rifl.push_back(d->GetCounters());
            s.nonNull.push_back(s.rifl.back().newUserFrames + s.rifl.back().replayedFrames);
            s.data.push_back(s.rifl.back().newUserFrames);
        }
    };
    Snapshot a;
    Snapshot b;
    RiflScheduleFunction(start, std::function<void()>(
                                    [&]()
                                    {
                                        take(a);
                                    }));
    Simulator::Stop(limit);

    const auto t0 = std::chrono::steady_clock::now();
    if (c.beforeRun)
    {
        c.beforeRun();
    }
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();
    take(b);

    MultiprocessorScenarioResult r;
    r.wallSeconds = std::chrono::duration<double>(t1 - t0).count();
    r.events = Simulator::GetEventCount();
    r.topology = c.topology;
    r.nCpus = n;
    r.nLinks = mp.GetNLinks();
    r.nLinksAcrossRanks = mp.GetNLinksAcrossRanks();
    r.channelDependenciesAcyclic = mp.ChannelDependenciesAcyclic();
    r.deadlockFree = mp.DeadlockFree();
    r.completed = completed;
    r.durationUs = (end - start).ToDouble(Time::US);
    r.link = c.link;
    uint32_t crcPoly = 0;
    uint32_t frameBits = DirectLinkConfig::MICRO_PACKET_BITS;
    uint32_t lanes = 1;
    double lineRateBps = 0; // of one direction
    if (rifl)
    {
        const RiflLinkConfig& cfg = DynamicCast<RiflChannel>(rdev[0]->GetChannel())->GetConfig();
        lineRateBps = cfg.lanes * cfg.laneRateGbps * 1e9;
        r.lineRateGbps = cfg.lanes * cfg.laneRateGbps;
        r.slotNs = cfg.GetSlotTimeNs();
        r.oneWayDelaySlots = cfg.GetLineDelaySlots();
        frameBits = cfg.frameSize;
        lanes = cfg.lanes;
    }
    else
    {
        const DirectLinkConfig& cfg
            = DynamicCast<DirectLinkChannel>(dev[0]->GetChannel())->GetConfig();
        lineRateBps = cfg.lineRateBps;
        r.lineRateGbps = cfg.lineRateBps / 1e9;
        r.slotNs = cfg.GetSlotNs();
        r.oneWayDelaySlots = cfg.oneWayDelaySlots;
        crcPoly = cfg.crcPoly;
    }

    std::vector<int64_t> lat;
    for (uint32_t i = 0; i < n; ++i)
    {
        const CpuTrafficStats& x = a.app[i];
        const CpuTrafficStats& y = b.app[i];
        r.requestsIssued += y.requestsIssued - x.requestsIssued;
        r.requestsRefused += y.requestsRefused - x.requestsRefused;
        r.requestsServed += y.requestsServed - x.requestsServed;
        r.requestsErrored += y.requestsErrored - x.requestsErrored;
        r.responsesOk += y.responsesOk - x.responsesOk;
        r.responsesBad += y.responsesBad - x.responsesBad;
        r.responsesErrored += y.responsesErrored - x.responsesErrored;
        r.responsesLate += y.responsesLate - x.responsesLate;
        r.responsesUnknown += y.responsesUnknown - x.responsesUnknown;
        r.requestTimeouts += y.timeouts - x.timeouts;
        r.requestsOutstanding += y.outstanding;
        r.responseBytes += y.responseBytes - x.responseBytes;
        const DirectLinkInterfaceUnitCounters& p = a.dliu[i];
        const DirectLinkInterfaceUnitCounters& q = b.dliu[i];
        r.messagesSent += q.messagesSent - p.messagesSent;
        r.messagesDelivered += q.localDelivered - p.localDelivered;
        r.messagesDeliveredErrored += q.localErrored - p.localErrored;
        r.messagesForwarded += q.forwarded - p.forwarded;
        r.forwardTruncated += q.forwardTruncated - p.forwardTruncated;
        r.sendFailures += q.sendFailures - p.sendFailures;
        const auto& l = app[i]->GetLatencies();
        lat.insert(lat.end(), l.begin(), l.end());
    }
    const double slots = r.durationUs * 1e3 / r.slotNs;
    std::vector<double> mtbf;
    r.pUndetected = rifl ? LinkReliabilityModel::RiflUndetectedExact(c.ber, frameBits)
                         : LinkReliabilityModel::DirectLinkUndetectedExact(c.ber, crcPoly);
    double utilSum = 0;
    for (std::size_t k = 0; k < rdev.size(); ++k)
    {
        const RiflMessagePortCounters& p = a.port[k];
        const RiflMessagePortCounters& q = b.port[k];
        r.linkMessagesAccepted += q.messagesAccepted - p.messagesAccepted;
        const uint64_t received = q.messagesReceived - p.messagesReceived;
        const uint64_t corrupt = q.messagesReceivedCorrupt - p.messagesReceivedCorrupt;
        const uint64_t truncated = q.messagesTruncated - p.messagesTruncated;
        r.linkMessagesDelivered += received - corrupt - truncated;
        r.linkMessagesTruncated += truncated;
        r.linkMessagesMalformed += q.malformedPackets - p.malformedPackets;
        r.contentMismatches += corrupt;
        r.messagesLost += q.messagesLost - p.messagesLost;
        for (uint32_t j = 0; j < MULTIPROCESSOR_SCENARIO_LOSS_REASONS; ++j)
        {
            r.lostByReason[j] += q.lostByReason[j] - p.lostByReason[j];
        }
        const RiflEndpointCounters& x = a.rifl[k];
        const RiflEndpointCounters& y = b.rifl[k];
        r.retransmissions += y.replayedFrames - x.replayedFrames;
        r.crcErrors += y.errorsDetected - x.errorsDetected;
        r.undetectedErrors += y.undetectedErrors - x.undetectedErrors;
        const uint64_t nn = b.nonNull[k] - a.nonNull[k];
        const uint64_t fresh = b.data[k] - a.data[k];
        r.microPackets += nn;
        r.dataMicroPackets += fresh;
        const double util = slots > 0 ? fresh / (slots * lanes) : 0.0;
        utilSum += util;
        r.linkUtilisationMax = std::max(r.linkUtilisationMax, util);
        if (r.pUndetected > 0 && nn > 0 && r.durationUs > 0)
        {
            mtbf.push_back(
                LinkReliabilityModel::MtbfSeconds(nn / (r.durationUs * 1e-6), r.pUndetected));
        }
    }
    for (std::size_t k = 0; k < dev.size(); ++k)
    {
        const DirectLinkDeviceCounters& p = a.dev[k];
        const DirectLinkDeviceCounters& q = b.dev[k];
        r.linkMessagesAccepted += q.messagesAccepted - p.messagesAccepted;
        r.linkMessagesDelivered += q.messagesDelivered - p.messagesDelivered;
        r.linkMessagesTruncated += q.messagesTruncated - p.messagesTruncated;
        r.linkMessagesMalformed += q.messagesMalformed - p.messagesMalformed;
        r.contentMismatches += q.contentMismatches - p.contentMismatches;
        r.messagesLost += q.messagesLost - p.messagesLost;
        r.messagesHeldOpen += q.messagesHeldOpen - p.messagesHeldOpen;
        for (uint32_t j = 0; j < MULTIPROCESSOR_SCENARIO_LOSS_REASONS; ++j)
        {
            r.lostByReason[j] += q.lostByReason[j] - p.lostByReason[j];
        }
        r.retransmissions += q.retransmissions - p.retransmissions;
        r.ackTimeouts += q.timeouts - p.timeouts;
        r.crcErrors += q.crcErrors - p.crcErrors;
        r.shutdowns += q.shutdowns - p.shutdowns;
        r.undetectedErrors += q.undetectedErrors - p.undetectedErrors;
        const uint64_t nn = b.nonNull[k] - a.nonNull[k];
        r.microPackets += nn;
        r.dataMicroPackets += b.data[k] - a.data[k];
        const double util = slots > 0 ? nn / slots : 0.0;
        utilSum += util;
        r.linkUtilisationMax = std::max(r.linkUtilisationMax, util);
        if (r.pUndetected > 0 && nn > 0 && r.durationUs > 0)
        {
            mtbf.push_back(
                LinkReliabilityModel::MtbfSeconds(nn / (r.durationUs * 1e-6), r.pUndetected));
        }
    }
    const std::size_t directions = dev.size() + rdev.size();
    r.linkUtilisationMean = directions == 0 ? 0.0 : utilSum / directions;
    r.networkMtbfYears
        = LinkReliabilityModel::NetworkMtbfSeconds(mtbf) / LinkReliabilityModel::SECONDS_PER_YEAR;
    if (r.pUndetected > 0)
    {
        const double perDirection = lineRateBps / double(frameBits);
        const std::vector<double> full(
            directions, LinkReliabilityModel::MtbfSeconds(perDirection, r.pUndetected));
        r.networkMtbfYearsFullLine = LinkReliabilityModel::NetworkMtbfSeconds(full)
                                     / LinkReliabilityModel::SECONDS_PER_YEAR;
    }
    else
    {
        r.networkMtbfYearsFullLine = INFINITY;
    }

    r.throughputGbps = r.durationUs > 0 ? r.responseBytes * 8.0 / (r.durationUs * 1e3) : 0.0;
    std::sort(lat.begin(), lat.end());
    double sum = 0;
    for (int64_t v : lat)
    {
        sum += static_cast<double>(v);
    }
    r.latencyNsMean = lat.empty() ? 0.0 : sum / lat.size();
    r.latencyNsMin = lat.empty() ? 0.0 : static_cast<double>(lat.front());
    r.latencyNsP50 = Quantile(lat, 0.5);
    r.latencyNsP99 = Quantile(lat, 0.99);
    r.latencyNsP999 = Quantile(lat, 0.999);
    r.latencyNsMax = lat.empty() ? 0.0 : static_cast<double>(lat.back());
    r.hopsMean = lat.empty() ? 0.0 : static_cast<double>(hopSum) / lat.size();
    r.hopsMax = hopsMax;
    r.forwardsExpected = forwardsExpected;
    return r;
}

} // namespace

MultiprocessorScenarioResult
MultiprocessorScenario::Run(const MultiprocessorScenarioConfig& c)
{
    Check(c);
    ScenarioAttributeDefaults restore(c.attributes);
    // Start from a clean simulator: a scenario that threw mid-run without destroying it
    // would otherwise leave events (pointing at its freed state) and nodes behind.
    Simulator::Destroy();
    try
    {
        MultiprocessorScenarioResult r = RunBody(c);
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

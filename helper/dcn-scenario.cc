/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcn-scenario.h"

#include "dcn-topology-helper.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/exact-bit-error-model.h"
#include "ns3/global-value.h"
#include "ns3/link-reliability-model.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-net-device.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "scenario-attribute-defaults.h"
#include "scenario-attributes.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflDcnScenario");

namespace
{

/**
 * \brief Connect a trace source with a lambda.
 * \param dev the device.
 * \param name the trace source ("PhyTxEnd", "MacTxDrop", "PhyRxDrop").
 * \param f the function.
 */
void
Hook(Ptr<NetDevice> dev, const std::string& name, std::function<void(Ptr<const Packet>)> f)
{
    dev->TraceConnectWithoutContext(name, Callback<void, Ptr<const Packet>>(f));
}

} // namespace

double
DcnScenario::Quantile(const std::vector<double>& v, double q)
{
    if (v.empty())
    {
        return 0.0;
    }
    const std::size_t rank = static_cast<std::size_t>(std::ceil(q * v.size()));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double
DcnScenario::EstimatedLinkBytes(const DcnScenarioConfig& c, double rateGbps, double cableM)
{
    const double base = 40.0 * 1024;
    if (c.technology != "rifl")
    {
        return base;
    }
    uint32_t fid = 12; // beyond the largest width the link refuses to start; count the largest
    try
    {
        fid = LinkReliabilityModel::RiflFrameIdWidth(rateGbps * 1e9 / c.riflLanes, cableM, 256);
    }
    catch (const std::invalid_argument&)
    {
    }
    const double d = std::ldexp(1.0, static_cast<int>(fid));
    return base + 320.0 * c.riflLanes * d * (1 + d / 1024);
}

DcnScenarioResult
DcnScenario::Run(const DcnScenarioConfig& c)
{
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

DcnScenarioResult
DcnScenario::DoRun(const DcnScenarioConfig& c)
{
    RIFL_CHECK_ARG(c.topology != "fat-tree" && c.topology != "leaf-spine",
                   "topology = \"" << c.topology << "\" must be \"fat-tree\" or \"leaf-spine\"");
    RIFL_CHECK_ARG(c.technology != "rifl" && c.technology != "ethernet" && c.technology != "csma",
                   "technology = \"" << c.technology
                                     << "\" must be \"rifl\", \"ethernet\" or \"csma\"");
    RIFL_CHECK_ARG(c.ecmp != "per-flow" && c.ecmp != "per-packet" && c.ecmp != "off",
                   "ecmp = \"" << c.ecmp << "\" must be \"per-flow\", \"per-packet\" or \"off\"");
    RIFL_CHECK_ARG(!(c.hostRateGbps > 0 && c.hostRateGbps <= 16000),
                   "hostRateGbps = " << c.hostRateGbps << " is outside (0, 16000]");
    RIFL_CHECK_ARG(!(c.fabricRateGbps > 0 && c.fabricRateGbps <= 16000),
                   "fabricRateGbps = " << c.fabricRateGbps << " is outside (0, 16000]");
    RIFL_CHECK_ARG(!(c.hostCableM >= 0 && c.hostCableM <= 1000),
                   "hostCableM = " << c.hostCableM << " is outside [0, 1000]");
    RIFL_CHECK_ARG(!(c.fabricCableM >= 0 && c.fabricCableM <= 1000),
                   "fabricCableM = " << c.fabricCableM << " is outside [0, 1000]");
    RIFL_CHECK_ARG(!(c.hostBer >= 0 && c.hostBer < 1),
                   "hostBer = " << c.hostBer << " is outside [0, 1)");
    RIFL_CHECK_ARG(!(c.fabricBer >= 0 && c.fabricBer < 1),
                   "fabricBer = " << c.fabricBer << " is outside [0, 1)");
    RIFL_CHECK_ARG(c.riflLanes < 1 || c.riflLanes > 16,
                   "riflLanes = " << c.riflLanes << " is outside [1, 16]");
    RIFL_CHECK_ARG(c.queuePackets < 1 || c.queuePackets > 1000000,
                   "queuePackets = " << c.queuePackets << " is outside [1, 1000000]");
    RIFL_CHECK_ARG(c.ethernetOverheadBytes > 65535,
                   "ethernetOverheadBytes = " << c.ethernetOverheadBytes
                                              << " is outside [0, 65535]");
    // durationUs = 0: until every flow completed.
    RiflCheckMicroseconds("durationUs", c.durationUs, true, 1e9);
    RiflCheckMicroseconds("timeoutUs", c.timeoutUs, false, 1e9);
    RIFL_CHECK_ARG(c.rngRun < 1, "rngRun = " << c.rngRun << " must be >= 1");
    if (c.topology == "fat-tree")
    {
        RIFL_CHECK_ARG(c.k < 2 || c.k % 2 != 0 || c.k > 64,
                       "k = " << c.k << " must be even and in [2, 64]");
    }
    {
        // Each size keyword has its own range, but not all at once: the memory of a run
        // grows with the hosts and links, and a fabric that does not fit would end the
        // process instead of an error. Checked before anything is built.
        const bool fatTree = c.topology == "fat-tree";
        const uint64_t hosts
            = fatTree ? uint64_t{c.k} * c.k * c.k / 4 : uint64_t{c.leaves} * c.hostsPerLeaf;
        const uint64_t fabricLinks
            = fatTree ? uint64_t{c.k} * c.k * c.k / 2 : uint64_t{c.leaves} * c.spines;
        RIFL_CHECK_ARG(!fatTree && hosts > MAX_HOSTS,
                       "leaves = " << c.leaves << ", hostsPerLeaf = " << c.hostsPerLeaf << " give "
                                   << hosts << " hosts, more than the limit of " << MAX_HOSTS
                                   << " (the hosts of a k = 64 fat-tree)");
        const double bytes
            = hosts * EstimatedLinkBytes(c, c.hostRateGbps, c.hostCableM)
              + fabricLinks * EstimatedLinkBytes(c, c.fabricRateGbps, c.fabricCableM);
        const double gib = 1024.0 * 1024 * 1024;
        RIFL_CHECK_ARG(bytes > MAX_FABRIC_BYTES,
                       "the fabric's " << hosts + fabricLinks << " links (" << hosts
                                       << " host links, " << fabricLinks
                                       << " fabric links) would take about " << bytes / gib
                                       << " GiB, more than the limit of " << MAX_FABRIC_BYTES / gib
                                       << " GiB: a smaller fabric (k, or leaves, spines and "
                                          "hostsPerLeaf)"
                                       << (c.technology == "rifl"
                                               ? ", fewer riflLanes or fewer frames in flight "
                                                 "(lower rates, shorter cables)"
                                               : ""));
    }
    {
        // The flows are drawn before DcnTrafficHelper can count them: check first.
        const uint64_t n = c.topology == "fat-tree" ? uint64_t{c.k} * c.k * c.k / 4
                                                    : uint64_t{c.leaves} * c.hostsPerLeaf;
        const DcnTrafficConfig& t = c.traffic;
        const uint64_t flows = t.pattern == DcnTrafficConfig::ALL_TO_ALL ? n * (n - 1)
                               : t.pattern == DcnTrafficConfig::RANDOM   ? n * t.flowsPerHost
                                                                         : n;
        RIFL_CHECK_ARG(flows > MAX_FLOWS, (t.pattern == DcnTrafficConfig::ALL_TO_ALL
                                               ? "the all-to-all pattern"
                                               : "flowsPerHost = " + std::to_string(t.flowsPerHost))
                                              << " over " << n << " hosts gives " << flows
                                              << " flows, more than the limit of " << MAX_FLOWS);
    }

    RIFL_CHECK_ARG(c.ranks > 65536, "ranks = " << c.ranks << " is outside [0, 65536]");
    uint32_t ranks = c.ranks == 0 ? 1 : c.ranks;
    uint32_t myRank = DcnTrafficHelper::ALL_RANKS;
    uint32_t mpiRanks = 1;
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        mpiRanks = MpiInterface::GetSize();
        RIFL_CHECK_ARG(c.ranks != 0 && c.ranks != mpiRanks,
                       "ranks = " << c.ranks << " must be 0 or the MPI size " << mpiRanks);
        ranks = mpiRanks;
        myRank = MpiInterface::GetSystemId();
    }
#endif
    // Completion of every flow is known on no single rank: a fixed window.
    RIFL_CHECK_ARG(mpiRanks > 1 && !(c.durationUs > 0),
                   "durationUs = " << c.durationUs << " must be > 0 on " << mpiRanks
                                   << " MPI ranks (the all-flows-complete stop needs one process)");
    RIFL_CHECK_ARG(mpiRanks > 1 && c.technology == "csma",
                   "technology = \"csma\" cannot span " << mpiRanks
                                                      << " MPI ranks (ns-3's CsmaChannel is local)");
    RIFL_CHECK_ARG(c.coreRank >= ranks,
                   "coreRank = " << c.coreRank << " is outside [0, " << ranks - 1 << "]");
    auto isLocal = [myRank](Ptr<NetDevice> d)
    {
        return myRank == DcnTrafficHelper::ALL_RANKS || d->GetNode()->GetSystemId() == myRank;
    };

    RngSeedManager::SetRun(c.rngRun);
    // RiflCanonicalTies for this run only (restored when it ends or throws).
    struct TiesGuard
    {
        BooleanValue saved;

        explicit TiesGuard(bool on)
        {
            GlobalValue::GetValueByName("RiflCanonicalTies", saved);
            GlobalValue::Bind("RiflCanonicalTies", BooleanValue(on));
        }

        ~TiesGuard()
        {
            GlobalValue::Bind("RiflCanonicalTies", saved);
        }
    } ties(c.canonicalTies);
    // The links' BERs are the config's (hostBer, fabricBer): naming them in the map too
    // would be overridden.
    for (const char* owned : {"ns3::RiflChannel::Ber", "ns3::ExactBitErrorModel::Ber"})
    {
        RIFL_CHECK_ARG(c.attributes.count(owned) != 0,
                       "attributes: " << owned
                                      << " is set by the parameters hostBer and fabricBer; use "
                                         "those instead");
    }
    std::vector<std::string> used{"ns3::DcnEcmpRouting", "ns3::LoopbackNetDevice"};
    if (c.technology == "rifl")
    {
        used.insert(used.end(), {"ns3::RiflNetDevice", "ns3::RiflChannel", "ns3::BitErrorProcess",
                                 "ns3::SyncLossProcess"});
    }
    else
    {
        used.insert(
            used.end(),
            {c.technology == "ethernet" ? "ns3::PointToPointNetDevice" : "ns3::CsmaNetDevice",
             c.technology == "ethernet" ? "ns3::PointToPointChannel" : "ns3::CsmaChannel",
             "ns3::ExactBitErrorModel", "ns3::BitErrorProcess"});
    }
    ScenarioAttributes::CheckUsed(c.attributes, used,
                                  "DcnScenario with technology = \"" + c.technology + "\"", false);
    ScenarioAttributeDefaults defaults(c.attributes);
    ScenarioAttributes::Apply(c.attributes); // restored by `defaults`, also if this throws
    DcnTrafficHelper traffic(c.traffic);     // checks the traffic config

    const auto t0 = std::chrono::steady_clock::now();
    DcnTopologyHelper dcn;
    dcn.SetLinkTechnology(c.technology == "rifl"       ? DcnTopologyHelper::RIFL
                          : c.technology == "ethernet" ? DcnTopologyHelper::ETHERNET
                                                       : DcnTopologyHelper::CSMA);
    dcn.SetHostLinkParameters(DataRate(static_cast<uint64_t>(c.hostRateGbps * 1e9)), c.hostCableM,
                              c.hostBer);
    dcn.SetFabricLinkParameters(DataRate(static_cast<uint64_t>(c.fabricRateGbps * 1e9)),
                                c.fabricCableM, c.fabricBer);
    dcn.SetRiflLanes(c.riflLanes);
    dcn.SetQueuePackets(c.queuePackets);
    dcn.SetEthernetOverheadBytes(c.ethernetOverheadBytes);
    dcn.SetEcmpMode(c.ecmp == "per-flow"     ? DcnTopologyHelper::ECMP_PER_FLOW
                    : c.ecmp == "per-packet" ? DcnTopologyHelper::ECMP_PER_PACKET
                                             : DcnTopologyHelper::ECMP_OFF);
    dcn.SetRanks(ranks, c.coreRank);
    dcn.SetSplitRemoteLinks(c.splitRemoteLinks);
    traffic.SetRank(myRank);
    if (c.topology == "fat-tree")
    {
        dcn.InstallFatTree(c.k);
    }
    else
    {
        dcn.InstallLeafSpine(c.leaves, c.spines, c.hostsPerLeaf);
    }
    // The traffic's streams first, at a fixed place: both technologies draw the
    // same flows (the links use a technology-dependent number of streams).
    traffic.AssignStreams(1);
    dcn.AssignStreams(16);
    traffic.Install(dcn);

    DcnScenarioResult r;
    r.ranks = ranks;
    r.mpiRanks = mpiRanks;
    r.hosts = dcn.GetHosts().GetN();
    r.switches = dcn.GetSwitches().GetN();
    r.links = dcn.GetNLinks();
    for (const DcnTopologyHelper::LinkInfo& l : dcn.GetLinks())
    {
        DcnTierCounters* tier = l.hostLink ? &r.hostTier : &r.fabricTier;
        ++tier->links;
        for (const Ptr<NetDevice>& d : {l.a, l.b})
        {
            if (!isLocal(d))
            {
                continue; // its rank counts it
            }
            Hook(d, "PhyTxEnd",
                 [tier](Ptr<const Packet> p)
                 {
                     ++tier->txPackets;
                     tier->txBytes += p->GetSize();
                 });
            Hook(d, "MacTxDrop",
                 [tier](Ptr<const Packet>)
                 {
                     ++tier->queueDrops;
                 });
            Hook(d, "PhyRxDrop",
                 [tier](Ptr<const Packet>)
                 {
                     ++tier->rxDrops;
                 });
        }
    }

    const Time start = c.traffic.start;
    if (c.durationUs > 0)
    {
        Simulator::Stop(start + RiflMicroseconds(c.durationUs));
    }
    else
    {
        traffic.SetAllCompleteCallback(MakeCallback(static_cast<void (*)()>(&Simulator::Stop)));
        Simulator::Stop(start + RiflMicroseconds(c.timeoutUs));
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (c.beforeRun)
    {
        c.beforeRun();
    }
    Simulator::Run();
    const auto t2 = std::chrono::steady_clock::now();
    r.setupSeconds = std::chrono::duration<double>(t1 - t0).count();
    r.wallSeconds = std::chrono::duration<double>(t2 - t1).count();
    r.events = Simulator::GetEventCount();
    r.simulatedUs = Simulator::Now().GetSeconds() * 1e6;

    // Every RIFL engine's counters to the end time (the fast engine counts quiet
    // stretches lazily); after the run nothing more is handed over to the nodes.
    for (const DcnTopologyHelper::LinkInfo& l : dcn.GetLinks())
    {
        for (const Ptr<NetDevice>& d : {l.a, l.b})
        {
            if (Ptr<RiflNetDevice> rd = DynamicCast<RiflNetDevice>(d); rd && isLocal(d))
            {
                rd->GetCounters();
            }
        }
    }
    r.flows = traffic.GetFlows();
    // Link counters.
    for (const DcnTopologyHelper::LinkInfo& l : dcn.GetLinks())
    {
        DcnTierCounters* tier = l.hostLink ? &r.hostTier : &r.fabricTier;
        for (const Ptr<NetDevice>& d : {l.a, l.b})
        {
            if (!isLocal(d))
            {
                continue; // its rank counts it
            }
            if (Ptr<RiflNetDevice> rd = DynamicCast<RiflNetDevice>(d))
            {
                const RiflEndpointCounters rc = rd->GetCounters();
                tier->riflErrorsDetected += rc.errorsDetected;
                tier->riflReplays += rc.replays;
                tier->riflUndetected += rc.undetectedErrors;
                tier->riflFcFifoDrops += rc.fcFifoDrops;
            }
            else
            {
                PointerValue pv;
                d->GetAttribute("ReceiveErrorModel", pv);
                if (Ptr<ExactBitErrorModel> em = pv.Get<ExactBitErrorModel>())
                {
                    tier->corruptionDrops += em->GetPacketsCorrupted();
                }
            }
        }
    }
#ifdef NS3_MPI
    if (mpiRanks > 1)
    {
        // Every rank filled its own flow ends and devices: combine them on every rank.
        MPI_Comm comm = MpiInterface::GetCommunicator();
        std::vector<double> dmax;
        std::vector<uint64_t> usum;
        std::vector<uint64_t> umax;
        for (const DcnFlowRecord& f : r.flows)
        {
            dmax.push_back(f.endNs);
            dmax.push_back(f.fctNs);
            usum.push_back(f.bytesReceived);
            usum.push_back(f.retransmissions);
            usum.push_back(f.timeouts);
            usum.push_back(f.datagramsSent);
            umax.push_back(f.completed ? 1 : 0);
        }
        for (DcnTierCounters* t : {&r.hostTier, &r.fabricTier})
        {
            for (uint64_t v : {t->txPackets, t->txBytes, t->queueDrops, t->corruptionDrops,
                               t->rxDrops, t->riflErrorsDetected, t->riflReplays,
                               t->riflUndetected, t->riflFcFifoDrops})
            {
                usum.push_back(v);
            }
        }
        usum.push_back(r.events);
        dmax.push_back(r.wallSeconds);
        dmax.push_back(r.setupSeconds);
        MPI_Allreduce(MPI_IN_PLACE, dmax.data(), static_cast<int>(dmax.size()), MPI_DOUBLE,
                      MPI_MAX, comm);
        MPI_Allreduce(MPI_IN_PLACE, usum.data(), static_cast<int>(usum.size()), MPI_UINT64_T,
                      MPI_SUM, comm);
        MPI_Allreduce(MPI_IN_PLACE, umax.data(), static_cast<int>(umax.size()), MPI_UINT64_T,
                      MPI_MAX, comm);
        std::size_t di = 0;
        std::size_t ui = 0;
        for (std::size_t f = 0; f < r.flows.size(); ++f)
        {
            DcnFlowRecord& x = r.flows[f];
            x.endNs = dmax[di++];
            x.fctNs = dmax[di++];
            x.bytesReceived = usum[ui++];
            x.retransmissions = usum[ui++];
            x.timeouts = usum[ui++];
            x.datagramsSent = usum[ui++];
            x.completed = umax[f] != 0;
        }
        for (DcnTierCounters* t : {&r.hostTier, &r.fabricTier})
        {
            for (uint64_t* v : {&t->txPackets, &t->txBytes, &t->queueDrops, &t->corruptionDrops,
                                &t->rxDrops, &t->riflErrorsDetected, &t->riflReplays,
                                &t->riflUndetected, &t->riflFcFifoDrops})
            {
                *v = usum[ui++];
            }
        }
        r.events = usum[ui++];
        r.wallSeconds = dmax[di++];
        r.setupSeconds = dmax[di++];
    }
#endif

    // Flows (the records were copied before the link counters).
    std::vector<double> fct;
    double lastEndNs = 0;
    for (const DcnFlowRecord& f : r.flows)
    {
        r.bytesOffered += f.bytes;
        r.bytesReceived += std::min(f.bytesReceived, f.bytes);
        r.tcpRetransmissions += f.retransmissions;
        r.tcpTimeouts += f.timeouts;
        if (f.completed)
        {
            ++r.flowsCompleted;
            fct.push_back(f.fctNs / 1e3);
            lastEndNs = std::max(lastEndNs, f.endNs);
        }
    }
    std::sort(fct.begin(), fct.end());
    if (!fct.empty())
    {
        double sum = 0;
        for (double x : fct)
        {
            sum += x;
        }
        r.fctUsMean = sum / fct.size();
        r.fctUsP50 = Quantile(fct, 0.5);
        r.fctUsP99 = Quantile(fct, 0.99);
        r.fctUsP999 = Quantile(fct, 0.999);
        r.fctUsMax = fct.back();
    }
    const bool all = r.flowsCompleted == r.flows.size();
    r.trafficEndUs = (all && c.durationUs == 0) ? lastEndNs / 1e3 : r.simulatedUs;
    const double spanS = (r.trafficEndUs - start.GetSeconds() * 1e6) * 1e-6;
    r.goodputGbps = spanS > 0 ? r.bytesReceived * 8.0 / spanS / 1e9 : 0.0;

    for (DcnTierCounters* t : {&r.hostTier, &r.fabricTier})
    {
        const double rate = (t == &r.hostTier ? c.hostRateGbps : c.fabricRateGbps) * 1e9;
        t->utilization = (t->links > 0 && spanS > 0)
                             ? t->txBytes * 8.0 / (2.0 * t->links * rate * spanS)
                             : 0.0;
        r.queueDrops += t->queueDrops;
        r.packetHops += t->txPackets;
        // Baseline: the error model's drops are the PhyRxDrops; RIFL: undetected-corruption drops.
        r.packetsLostToCorruption += c.technology == "ethernet" ? t->corruptionDrops : t->rxDrops;
    }
    if (c.report)
    {
        ReliabilityReportHelper report;
        r.report = report.Collect();
#ifdef NS3_MPI
        if (mpiRanks > 1)
        {
            // Each rank counted the directions whose devices it runs (the others are
            // zero there): sum the counts, then derive the rates again.
            std::vector<uint64_t> counts;
            for (const ReliabilityReportHelper::DirectionReport& d : r.report.directions)
            {
                for (uint64_t v : {d.frames, d.dataFrames, d.errorsDetected, d.replays,
                                   d.slotsLost, d.undetectedErrors, d.packetsLost, d.bitErrors,
                                   d.txNewUserFrames, d.txLaneSlots})
                {
                    counts.push_back(v);
                }
            }
            MPI_Allreduce(MPI_IN_PLACE, counts.data(), static_cast<int>(counts.size()),
                          MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
            std::size_t i = 0;
            for (ReliabilityReportHelper::DirectionReport& d : r.report.directions)
            {
                for (uint64_t* v : {&d.frames, &d.dataFrames, &d.errorsDetected, &d.replays,
                                    &d.slotsLost, &d.undetectedErrors, &d.packetsLost,
                                    &d.bitErrors, &d.txNewUserFrames, &d.txLaneSlots})
                {
                    *v = counts[i++];
                }
            }
            ReliabilityReportHelper::Finish(r.report);
        }
#endif
        r.reportJson = ReliabilityReportHelper::ToJson(r.report);
    }
    Simulator::Destroy();
    return r;
}

} // namespace ns3

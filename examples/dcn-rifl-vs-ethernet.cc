/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RIFL against the Ethernet baseline on the same data-center fabric and the
 * same flows: a k-ary fat-tree (or a leaf-spine), flows drawn once
 * (permutation, all-to-all, incast or Poisson arrivals; a fixed size or a
 * flow-size CDF such as the shipped web-search and data-mining workloads;
 * TCP or UDP), run once with RIFL links and once with PointToPoint links whose
 * receivers drop packets with the module's exact bit-error model at the same
 * BER. Prints FCT p50/p99/p99.9, goodput, packets lost to corruption, TCP
 * retransmissions and the network MTBF side by side, and writes
 *   <prefix>-summary.csv   one row per technology (units in the column names)
 *   <prefix>-flows.csv     one row per flow and technology
 *   <prefix>-rifl-report.json, <prefix>-ethernet-report.json  reliability reports
 *
 *   dcn-rifl-vs-ethernet --k=4 --ber=1e-6 --cdf=web-search --pattern=random --flowsPerHost=4
 *
 * Distributed (the module built in an ns-3 tree with MPI, tools/check-ns3-tree --mpi):
 *   mpirun -np 2 dcn-rifl-vs-ethernet --mpi --technology=rifl --durationUs=200 [--nullmsg]
 * spreads the fabric over the ranks by pod (leaf group for a leaf-spine; core or spine
 * switches on --coreRank), runs each rank's part and combines the flows and link
 * counters; rank 0 writes the files. --ranks=2 --splitRemoteLinks without MPI runs
 * the same structure in one process.
 */

#include "ns3/core-module.h"
#include "ns3/dcn-scenario.h"
#include "ns3/link-reliability-model.h"
#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    DcnScenarioConfig c;
    std::string pattern = "permutation";
    std::string transport = "tcp";
    std::string cdf;
    double ber = 1e-6;
    uint64_t flowBytes = 1000000;
    uint32_t flowsPerHost = 4;
    double load = 0.3;
    std::string prefix = "dcn-rifl-vs-ethernet";
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "fat-tree or leaf-spine", c.topology);
    cmd.AddValue("k", "fat-tree arity (even)", c.k);
    cmd.AddValue("leaves", "leaf-spine leaves", c.leaves);
    cmd.AddValue("spines", "leaf-spine spines", c.spines);
    cmd.AddValue("hostsPerLeaf", "leaf-spine hosts per leaf", c.hostsPerLeaf);
    cmd.AddValue("ber", "BER of every link (both tiers)", ber);
    cmd.AddValue("hostRateGbps", "host-link line rate", c.hostRateGbps);
    cmd.AddValue("fabricRateGbps", "fabric-link line rate", c.fabricRateGbps);
    cmd.AddValue("queuePackets", "device queue size", c.queuePackets);
    cmd.AddValue("ecmp", "per-flow, per-packet or off", c.ecmp);
    cmd.AddValue("pattern", "permutation, all-to-all, incast or random", pattern);
    cmd.AddValue("transport", "tcp or udp", transport);
    cmd.AddValue("flowBytes", "flow size without --cdf", flowBytes);
    cmd.AddValue("cdf", "flow-size CDF file, or web-search / data-mining", cdf);
    cmd.AddValue("flowsPerHost", "random pattern: flows per host", flowsPerHost);
    cmd.AddValue("load", "random pattern: offered load per host", load);
    cmd.AddValue("timeoutUs", "stop this long after the traffic start at the latest", c.timeoutUs);
    cmd.AddValue("prefix", "output file prefix", prefix);
    bool wallTime = false;
    cmd.AddValue("wallTime", "add the wall-clock time (wall_s) to the summary CSV", wallTime);
    std::string technology = "both";
    cmd.AddValue("technology", "rifl, ethernet or both (one per MPI run)", technology);
    cmd.AddValue("durationUs",
                 "> 0: stop this long after the traffic start (needed on MPI ranks)",
                 c.durationUs);
    cmd.AddValue("ranks", "ranks to spread the nodes over (0: the MPI size, or 1)", c.ranks);
    cmd.AddValue("coreRank", "rank of the core / spine switches", c.coreRank);
    cmd.AddValue("splitRemoteLinks",
                 "split RIFL links between ranks as on MPI, in one process", c.splitRemoteLinks);
    bool mpi = false;
    bool nullmsg = false;
    cmd.AddValue("mpi", "run on ns-3 MPI ranks (mpirun; module built with NS3_MPI)", mpi);
    cmd.AddValue("nullmsg", "with --mpi: the null-message scheduler", nullmsg);
    cmd.Parse(argc, argv);
    if (technology != "rifl" && technology != "ethernet" && technology != "both")
    {
        std::cerr << "technology = \"" << technology << "\" is not rifl, ethernet or both\n";
        return 1;
    }
    uint32_t rank = 0;
    if (mpi)
    {
#ifdef NS3_MPI
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(nullmsg ? "ns3::NullMessageSimulatorImpl"
                                              : "ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
        rank = MpiInterface::GetSystemId();
        if (technology == "both")
        {
            // one distributed simulation per process
            std::cerr << "--mpi needs --technology=rifl or --technology=ethernet\n";
            MpiInterface::Disable();
            return 1;
        }
#else
        std::cerr << "--mpi: this build of the rifl module has no MPI support (build it in an "
                     "ns-3 tree configured with --enable-mpi, tools/check-ns3-tree --mpi)\n";
        return 1;
#endif
    }
    c.rngRun = RngSeedManager::GetRun();
    c.hostBer = c.fabricBer = ber;
    c.traffic.pattern = pattern == "all-to-all" ? DcnTrafficConfig::ALL_TO_ALL
                        : pattern == "incast"   ? DcnTrafficConfig::INCAST
                        : pattern == "random"   ? DcnTrafficConfig::RANDOM
                                                : DcnTrafficConfig::PERMUTATION;
    if (pattern != "permutation" && pattern != "all-to-all" && pattern != "incast"
        && pattern != "random")
    {
        std::cerr << "pattern = \"" << pattern
                  << "\" is not permutation, all-to-all, incast or random\n";
        return 1;
    }
    if (transport != "tcp" && transport != "udp")
    {
        std::cerr << "transport = \"" << transport << "\" is not tcp or udp\n";
        return 1;
    }
    c.traffic.transport = transport == "udp" ? DcnTrafficConfig::UDP : DcnTrafficConfig::TCP;
    c.traffic.flowBytes = flowBytes;
    c.traffic.flowSizeCdf = cdf;
    c.traffic.flowsPerHost = flowsPerHost;
    c.traffic.load = load;

    // Only rank 0 writes (every rank holds the combined results).
    const std::string out = rank == 0 ? prefix : std::string();
    std::ofstream summary(rank == 0 ? out + "-summary.csv" : "/dev/null");
    summary << "technology,ber,hosts,links,flows,flows_completed,bytes_offered,bytes_received,"
               "fct_us_p50,fct_us_p99,fct_us_p999,fct_us_max,goodput_gbps,"
               "packets_lost_to_corruption,queue_drops,tcp_retransmissions,tcp_timeouts,"
               "rifl_errors_detected,rifl_replays,host_link_utilization,"
               "fabric_link_utilization,network_mtbf_years,network_fit,events"
            << (wallTime ? ",wall_s\n" : "\n");
    std::ofstream flows(rank == 0 ? out + "-flows.csv" : "/dev/null");
    flows << "technology,flow,src_host,dst_host,bytes,start_ns,end_ns,fct_ns,bytes_received,"
             "completed,tcp_retransmissions,tcp_timeouts\n";
    std::vector<DcnScenarioResult> results;
    std::vector<std::string> techs{"rifl", "ethernet"};
    if (technology != "both")
    {
        techs = {technology};
    }
    for (const std::string& tech : techs)
    {
        c.technology = tech;
        DcnScenarioResult r = DcnScenario::Run(c);
        if (rank == 0)
        {
            std::ofstream(prefix + "-" + tech + "-report.json") << r.reportJson << "\n";
        }
        summary << std::setprecision(10) << tech << "," << ber << "," << r.hosts << "," << r.links
                << "," << r.flows.size() << "," << r.flowsCompleted << "," << r.bytesOffered << ","
                << r.bytesReceived << "," << r.fctUsP50 << "," << r.fctUsP99 << "," << r.fctUsP999
                << "," << r.fctUsMax << "," << r.goodputGbps << "," << r.packetsLostToCorruption
                << "," << r.queueDrops << "," << r.tcpRetransmissions << "," << r.tcpTimeouts << ","
                << r.hostTier.riflErrorsDetected + r.fabricTier.riflErrorsDetected << ","
                << r.hostTier.riflReplays + r.fabricTier.riflReplays << ","
                << r.hostTier.utilization << "," << r.fabricTier.utilization << ","
                << r.report.networkMtbfYears << "," << r.report.fit << "," << r.events;
        if (wallTime)
        {
            summary << "," << r.wallSeconds;
        }
        summary << "\n";
        for (uint32_t i = 0; i < r.flows.size(); ++i)
        {
            const DcnFlowRecord& f = r.flows[i];
            flows << tech << "," << i << "," << f.src << "," << f.dst << "," << f.bytes << ","
                  << f.startNs << "," << f.endNs << "," << f.fctNs << "," << f.bytesReceived << ","
                  << (f.completed ? 1 : 0) << "," << f.retransmissions << "," << f.timeouts << "\n";
        }
        results.push_back(std::move(r));
    }

    if (techs.size() == 1)
    {
        const DcnScenarioResult& a = results[0];
        if (rank == 0)
        {
            std::cout << c.topology << " (" << a.hosts << " hosts, " << a.links << " links), "
                      << technology << " links, " << a.mpiRanks << " MPI rank(s), nodes on "
                      << a.ranks << " rank(s): " << a.flowsCompleted << " of " << a.flows.size()
                      << " flows completed, FCT p99 " << a.fctUsP99 << " us, goodput "
                      << a.goodputGbps << " Gb/s, " << a.events << " events, wall "
                      << a.wallSeconds << " s\nwrote " << prefix << "-summary.csv, " << prefix
                      << "-flows.csv, " << prefix << "-" << technology << "-report.json\n";
        }
#ifdef NS3_MPI
        if (mpi)
        {
            MpiInterface::Disable();
        }
#endif
        return 0;
    }
    const DcnScenarioResult& a = results[0];
    const DcnScenarioResult& b = results[1];
    std::cout << c.topology << " (" << a.hosts << " hosts, " << a.links << " links), "
              << a.flows.size() << " " << transport << " flows (" << pattern
              << (cdf.empty() ? "" : ", sizes from " + cdf) << "), BER " << ber << "\n";
    auto row = [&](const std::string& name, auto fa, auto fb)
    {
        std::cout << std::left << std::setw(32) << name << std::right << std::setw(16) << fa
                  << std::setw(16) << fb << "\n";
    };
    row("", "RIFL", "Ethernet");
    row("flows completed", a.flowsCompleted, b.flowsCompleted);
    row("FCT p50 [us]", a.fctUsP50, b.fctUsP50);
    row("FCT p99 [us]", a.fctUsP99, b.fctUsP99);
    row("FCT p99.9 [us]", a.fctUsP999, b.fctUsP999);
    row("goodput [Gb/s]", a.goodputGbps, b.goodputGbps);
    row("packets lost to corruption", a.packetsLostToCorruption, b.packetsLostToCorruption);
    row("queue drops", a.queueDrops, b.queueDrops);
    row("TCP retransmissions", a.tcpRetransmissions, b.tcpRetransmissions);
    row("TCP timeouts", a.tcpTimeouts, b.tcpTimeouts);
    row("RIFL replays", a.hostTier.riflReplays + a.fabricTier.riflReplays, 0);
    row("network MTBF [years]", a.report.networkMtbfYears, b.report.networkMtbfYears);
    std::cout << "wrote " << prefix << "-summary.csv, " << prefix << "-flows.csv, " << prefix
              << "-{rifl,ethernet}-report.json\n";
    return 0;
}

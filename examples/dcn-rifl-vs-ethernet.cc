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
#include "ns3/dcn-flow-size-distribution.h"
#include "ns3/dcn-scenario.h"
#include "ns3/link-reliability-model.h"
#include "rifl-example-args.h"
#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::riflexample;

namespace
{

/// The body of main().
int
Main(int argc, char* argv[])
{
    DcnScenarioConfig c;
    // Numbers are parsed strictly (ns-3 would take "2.5" as 2 and "-1" as 4294967295);
    // an empty text = not given (the default applies).
    std::string kText;
    std::string leavesText;
    std::string spinesText;
    std::string hostsPerLeafText;
    std::string queuePacketsText = "1000";
    std::string pattern = "permutation";
    std::string transport = "tcp";
    std::string cdf;
    std::string berText = "1e-6";
    std::string hostRateText = "112";
    std::string fabricRateText = "112";
    std::string flowBytesText;
    std::string flowsPerHostText;
    std::string loadText;
    std::string timeoutText = "1000000";
    std::string durationText = "0";
    std::string ranksText = "0";
    std::string coreRankText = "0";
    std::string prefix = "dcn-rifl-vs-ethernet";
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "fat-tree or leaf-spine", c.topology);
    cmd.AddValue("k", "fat-tree arity, even, 2..64 (default 4)", kText);
    cmd.AddValue("leaves", "leaf-spine leaves, 1..4096 (default 4)", leavesText);
    cmd.AddValue("spines", "leaf-spine spines, 1..4096 (default 2)", spinesText);
    cmd.AddValue("hostsPerLeaf", "leaf-spine hosts per leaf, 1..4096 (default 4)",
                 hostsPerLeafText);
    cmd.AddValue("ber", "BER of every link (both tiers), [0, 1)", berText);
    cmd.AddValue("hostRateGbps", "host-link line rate, (0, 16000]", hostRateText);
    cmd.AddValue("fabricRateGbps", "fabric-link line rate, (0, 16000]", fabricRateText);
    cmd.AddValue("queuePackets", "device queue size, 1..1000000", queuePacketsText);
    cmd.AddValue("ecmp", "per-flow, per-packet or off", c.ecmp);
    cmd.AddValue("pattern", "permutation, all-to-all, incast or random", pattern);
    cmd.AddValue("transport", "tcp or udp", transport);
    cmd.AddValue("flowBytes", "flow size without --cdf, 1..4294967295 (default 1000000)",
                 flowBytesText);
    cmd.AddValue("cdf", "flow-size CDF file, or web-search / data-mining", cdf);
    cmd.AddValue("flowsPerHost", "random pattern: flows per host, 1..100000 (default 4)",
                 flowsPerHostText);
    cmd.AddValue("load", "random pattern: offered load per host, (0, 1] (default 0.3)", loadText);
    cmd.AddValue("timeoutUs",
                 "stop this long after the traffic start at the latest, us, [0.001, 1e9]",
                 timeoutText);
    cmd.AddValue("prefix", "output file prefix", prefix);
    bool wallTime = false;
    cmd.AddValue("wallTime", "add the wall-clock time (wall_s) to the summary CSV", wallTime);
    std::string technology = "both";
    cmd.AddValue("technology", "rifl, ethernet or both (one per MPI run)", technology);
    cmd.AddValue(
        "durationUs",
        "> 0: stop this long after the traffic start, us, 0 or [0.001, 1e9] (needed on MPI "
        "ranks)",
        durationText);
    cmd.AddValue("ranks", "ranks to spread the nodes over, 0..65536 (0: the MPI size, or 1)",
                 ranksText);
    cmd.AddValue("coreRank", "rank of the core / spine switches, below the ranks", coreRankText);
    cmd.AddValue("splitRemoteLinks", "split RIFL links between ranks as on MPI, in one process",
                 c.splitRemoteLinks);
    bool mpi = false;
    bool nullmsg = false;
    cmd.AddValue("mpi", "run on ns-3 MPI ranks (mpirun; module built with NS3_MPI)", mpi);
    cmd.AddValue("nullmsg", "with --mpi: the null-message scheduler", nullmsg);
    cmd.Parse(argc, argv);

    // Every option is checked before the run.
    RIFL_CHECK_ARG(technology != "rifl" && technology != "ethernet" && technology != "both",
                   "--technology = " << technology << " is not rifl, ethernet or both");
    RIFL_CHECK_ARG(c.topology != "fat-tree" && c.topology != "leaf-spine",
                   "--topology = " << c.topology << " is not fat-tree or leaf-spine");
    RIFL_CHECK_ARG(c.ecmp != "per-flow" && c.ecmp != "per-packet" && c.ecmp != "off",
                   "--ecmp = " << c.ecmp << " is not per-flow, per-packet or off");
    RIFL_CHECK_ARG(pattern != "permutation" && pattern != "all-to-all" && pattern != "incast"
                       && pattern != "random",
                   "--pattern = " << pattern
                                  << " is not permutation, all-to-all, incast or random");
    RIFL_CHECK_ARG(transport != "tcp" && transport != "udp",
                   "--transport = " << transport << " is not tcp or udp");
    // The options of the other topology, of another pattern, or --flowBytes with --cdf,
    // are refused rather than ignored.
    const bool fatTree = c.topology == "fat-tree";
    RIFL_CHECK_ARG(!kText.empty() && !fatTree, "--k applies to --topology=fat-tree only");
    RIFL_CHECK_ARG((!leavesText.empty() || !spinesText.empty() || !hostsPerLeafText.empty())
                       && fatTree,
                   "--leaves, --spines and --hostsPerLeaf apply to --topology=leaf-spine only");
    RIFL_CHECK_ARG((!flowsPerHostText.empty() || !loadText.empty()) && pattern != "random",
                   "--flowsPerHost and --load apply to --pattern=random only");
    RIFL_CHECK_ARG(!flowBytesText.empty() && !cdf.empty(),
                   "--flowBytes and --cdf exclude each other (--cdf draws the flow sizes)");
    RIFL_CHECK_ARG(nullmsg && !mpi, "--nullmsg applies to --mpi runs only");
    c.k = static_cast<uint32_t>(ParseUnsigned("--k", kText.empty() ? "4" : kText, 2, 64));
    RIFL_CHECK_ARG(c.k % 2 != 0, "--k = " << c.k << " must be even (in [2, 64])");
    c.leaves = static_cast<uint32_t>(
        ParseUnsigned("--leaves", leavesText.empty() ? "4" : leavesText, 1, 4096));
    c.spines = static_cast<uint32_t>(
        ParseUnsigned("--spines", spinesText.empty() ? "2" : spinesText, 1, 4096));
    c.hostsPerLeaf = static_cast<uint32_t>(ParseUnsigned(
        "--hostsPerLeaf", hostsPerLeafText.empty() ? "4" : hostsPerLeafText, 1, 4096));
    c.queuePackets
        = static_cast<uint32_t>(ParseUnsigned("--queuePackets", queuePacketsText, 1, 1000000));
    const double ber = ParseDoubleIn("--ber", berText, 0.0, false, 1.0, true);
    c.hostRateGbps = ParseDoubleIn("--hostRateGbps", hostRateText, 0.0, true, 16000.0, false);
    c.fabricRateGbps = ParseDoubleIn("--fabricRateGbps", fabricRateText, 0.0, true, 16000.0, false);
    const uint64_t flowBytes = ParseUnsigned(
        "--flowBytes", flowBytesText.empty() ? "1000000" : flowBytesText, 1, (1ULL << 32) - 1);
    const uint32_t flowsPerHost = static_cast<uint32_t>(ParseUnsigned(
        "--flowsPerHost", flowsPerHostText.empty() ? "4" : flowsPerHostText, 1, 100000));
    const double load
        = ParseDoubleIn("--load", loadText.empty() ? "0.3" : loadText, 0.0, true, 1.0, false);
    // Kept to the nanosecond (DcnScenario rounds them to whole nanoseconds).
    c.timeoutUs = ParseDouble("--timeoutUs", timeoutText, 0.001, 1e9);
    c.durationUs = ParseDouble("--durationUs", durationText, 0.0, 1e9);
    RIFL_CHECK_ARG(c.durationUs > 0 && c.durationUs < 0.001,
                   "--durationUs = " << durationText
                                     << " is below the 1 ns resolution of the simulation (0 = "
                                        "until the flows end)");
    c.ranks = static_cast<uint32_t>(ParseUnsigned("--ranks", ranksText, 0, 65536));
    c.coreRank = static_cast<uint32_t>(ParseUnsigned("--coreRank", coreRankText, 0, 65535));
    RIFL_CHECK_ARG(!mpi && c.coreRank >= std::max<uint32_t>(c.ranks, 1),
                   "--coreRank = " << c.coreRank << " must be below --ranks ("
                                   << std::max<uint32_t>(c.ranks, 1) << ")");
    RIFL_CHECK_ARG(!mpi && c.splitRemoteLinks && c.ranks < 2,
                   "--splitRemoteLinks needs --ranks > 1 (with one rank no link is between "
                   "ranks)");
    if (!cdf.empty())
    {
        // The file's errors (its sizes within a flow's 32-bit size among them) before the
        // run.
        DcnFlowSizeDistribution::Load(cdf);
    }
    std::vector<std::string> techs{"rifl", "ethernet"};
    if (technology != "both")
    {
        techs = {technology};
    }

    // one distributed simulation per process
    RIFL_CHECK_ARG(mpi && technology == "both",
                   "--mpi needs --technology=rifl or --technology=ethernet");
    uint32_t rank = 0;
    if (mpi)
    {
#ifdef NS3_MPI
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(nullmsg ? "ns3::NullMessageSimulatorImpl"
                                              : "ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
        rank = MpiInterface::GetSystemId();
#else
        RIFL_CHECK_ARG(true,
                       "--mpi: this build of the rifl module has no MPI support (build it in an "
                       "ns-3 tree configured with --enable-mpi, tools/check-ns3-tree --mpi)");
#endif
    }
    // Only rank 0 writes (every rank holds the combined results): its files are checked
    // before the run.
    if (rank == 0)
    {
        RequireWritable("--prefix", prefix + "-summary.csv");
        RequireWritable("--prefix", prefix + "-flows.csv");
        for (const std::string& tech : techs)
        {
            RequireWritable("--prefix", prefix + "-" + tech + "-report.json");
        }
    }
    c.rngRun = RngSeedManager::GetRun();
    c.hostBer = c.fabricBer = ber;
    c.traffic.pattern = pattern == "all-to-all" ? DcnTrafficConfig::ALL_TO_ALL
                        : pattern == "incast"   ? DcnTrafficConfig::INCAST
                        : pattern == "random"   ? DcnTrafficConfig::RANDOM
                                                : DcnTrafficConfig::PERMUTATION;
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
    // FCTs are measured on completed flows: with none, "-" (stdout) and an empty field
    // (CSV), not 0 as if measured.
    auto fct = [](const DcnScenarioResult& r, double v)
    {
        std::ostringstream os;
        if (r.flowsCompleted > 0)
        {
            os << std::setprecision(10) << v;
        }
        return os.str();
    };
    auto fctOut = [](const DcnScenarioResult& r, double v)
    {
        std::ostringstream os;
        if (r.flowsCompleted > 0)
        {
            os << v;
        }
        else
        {
            os << "-";
        }
        return os.str();
    };
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
                << r.bytesReceived << "," << fct(r, r.fctUsP50) << "," << fct(r, r.fctUsP99) << ","
                << fct(r, r.fctUsP999) << "," << fct(r, r.fctUsMax) << "," << r.goodputGbps << ","
                << r.packetsLostToCorruption << "," << r.queueDrops << "," << r.tcpRetransmissions
                << "," << r.tcpTimeouts << ","
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
                      << " flows completed, FCT p99 " << fctOut(a, a.fctUsP99) << " us, goodput "
                      << a.goodputGbps << " Gb/s, " << a.events << " events, wall " << a.wallSeconds
                      << " s\nwrote " << prefix << "-summary.csv, " << prefix << "-flows.csv, "
                      << prefix << "-" << technology << "-report.json\n";
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
    row("FCT p50 [us]", fctOut(a, a.fctUsP50), fctOut(b, b.fctUsP50));
    row("FCT p99 [us]", fctOut(a, a.fctUsP99), fctOut(b, b.fctUsP99));
    row("FCT p99.9 [us]", fctOut(a, a.fctUsP999), fctOut(b, b.fctUsP999));
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

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("dcn-rifl-vs-ethernet",
                   [&]()
                   {
                       return Main(argc, argv);
                   });
}

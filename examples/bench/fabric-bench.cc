/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scale benchmark of data-center fabrics: k-ary fat-trees (k = 8 and 16 by
 * default) with RIFL links and with the PointToPoint baseline, the same
 * permutation traffic (every host one long flow to another, a random
 * derangement drawn from the run number), the same simulated window. Each
 * (k, technology) runs in its own child process so that its peak memory
 * (getrusage ru_maxrss of the child, via wait4) is its own; the parent
 * prints and writes one JSON document with wall time, setup time, events,
 * packet-hops (packets sent on any link), packet-hops/s, events/s and peak
 * RSS per run, the child's CPU time (steadier than wall time on a shared
 * machine), and the RIFL / baseline ratios of wall time, CPU time and memory.
 * With --repeat=N each (k, technology) runs N times, the technologies taking
 * turns, and the run of least CPU time is the one reported.
 *
 *   nice fabric-bench --k=8,16 --durationUs=1000 --repeat=3 --json=fabric-bench.json
 */

#include "ns3/core-module.h"
#include "ns3/dcn-scenario.h"

#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "../rifl-example-args.h"

using namespace ns3;

namespace
{

/**
 * \brief Run one configuration in a child process.
 * \param c the scenario.
 * \param[out] out the child's JSON figures (with peak_rss_mib added).
 * \return true on success.
 */
bool
RunChild(const DcnScenarioConfig& c, nlohmann::json& out)
{
    int fd[2];
    if (pipe(fd) != 0)
    {
        return false;
    }
    std::cout.flush();
    const pid_t pid = fork();
    if (pid < 0)
    {
        return false;
    }
    if (pid == 0)
    {
        close(fd[0]);
        nlohmann::json j;
        try
        {
            const DcnScenarioResult r = DcnScenario::Run(c);
            j["hosts"] = r.hosts;
            j["switches"] = r.switches;
            j["links"] = r.links;
            j["flows"] = r.flows.size();
            j["simulated_us"] = r.simulatedUs;
            j["setup_s"] = r.setupSeconds;
            j["wall_s"] = r.wallSeconds;
            j["events"] = r.events;
            j["packet_hops"] = r.packetHops;
            j["events_per_s"] = r.wallSeconds > 0 ? r.events / r.wallSeconds : 0.0;
            j["packet_hops_per_s"] = r.wallSeconds > 0 ? r.packetHops / r.wallSeconds : 0.0;
            j["bytes_received"] = r.bytesReceived;
            j["goodput_gbps"] = r.goodputGbps;
            j["host_link_utilization"] = r.hostTier.utilization;
            j["fabric_link_utilization"] = r.fabricTier.utilization;
            j["queue_drops"] = r.queueDrops;
            j["tcp_retransmissions"] = r.tcpRetransmissions;
            j["packets_lost_to_corruption"] = r.packetsLostToCorruption;
        }
        catch (const std::exception& e)
        {
            j["error"] = e.what();
        }
        const std::string s = j.dump();
        ssize_t off = 0;
        while (off < static_cast<ssize_t>(s.size()))
        {
            const ssize_t w = write(fd[1], s.data() + off, s.size() - off);
            if (w <= 0)
            {
                break;
            }
            off += w;
        }
        close(fd[1]);
        _exit(0);
    }
    close(fd[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof(buf))) > 0)
    {
        text.append(buf, n);
    }
    close(fd[0]);
    int status = 0;
    struct rusage ru;
    std::memset(&ru, 0, sizeof(ru));
    wait4(pid, &status, 0, &ru);
    if (!WIFEXITED(status) || text.empty())
    {
        out["error"] = "child process failed (status " + std::to_string(status) + ")";
        return false;
    }
    out = nlohmann::json::parse(text);
    out["peak_rss_mib"] = ru.ru_maxrss / 1024.0; // ru_maxrss is in KiB on Linux
    // CPU time of the whole child (setup + run): on a shared machine a steadier
    // measure than wall time.
    out["cpu_s"] = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec
                   + ru.ru_stime.tv_usec * 1e-6;
    return !out.contains("error");
}

} // namespace

/**
 * \brief The program.
 * \param argc argument count.
 * \param argv arguments.
 * \return the exit status.
 */
int
Main(int argc, char* argv[])
{
    std::string ks = "8,16";
    double durationUs = 1000;
    double rateGbps = 112;
    std::string transport = "tcp";
    std::string queuePacketsText = "1000";
    std::string json = "fabric-bench.json";
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "comma-separated fat-tree arities, each even in [2, 64]", ks);
    cmd.AddValue("durationUs",
                 "simulated traffic window, us, (0, M] with M such that a flow (twice the "
                 "window's bytes at the line rate) stays below 2^32 bytes",
                 durationUs);
    cmd.AddValue("rateGbps", "line rate of every link, (0, 16000]", rateGbps);
    cmd.AddValue("transport", "tcp or udp", transport);
    cmd.AddValue("queuePackets", "device queue size, 1..1000000", queuePacketsText);
    cmd.AddValue("json", "output file", json);
    bool canonicalTies = true;
    cmd.AddValue("canonicalTies",
                 "RIFL hand-overs of one instant in canonical order (DcnScenario's default)",
                 canonicalTies);
    std::string repeatText = "1";
    cmd.AddValue("repeat",
                 "runs per (k, technology), 1..20, alternating the technologies; the one of "
                 "least CPU time is reported, which keeps the ratios steady on a busy machine",
                 repeatText);
    cmd.Parse(argc, argv);
    using namespace riflexample;
    RefuseIneffectiveAttributes(argc, argv, {"ns3::DirectLink"}, "this benchmark",
                                {{"ns3::RiflChannel::Ber", "error-free: BER 0"},
                                 {"ns3::ExactBitErrorModel::Ber", "error-free: BER 0"}});
    const auto repeat = static_cast<uint32_t>(ParseUnsigned("--repeat", repeatText, 1, 20));
    const auto queuePackets
        = static_cast<uint32_t>(ParseUnsigned("--queuePackets", queuePacketsText, 1, 1000000));
    CheckDouble("--rateGbps", rateGbps, 1e-3, 16000);
    const double maxUs = 4294967295.0 * 8.0 / (2.0 * rateGbps * 1e9) * 1e6;
    RIFL_CHECK_ARG(!(durationUs > 0 && durationUs <= maxUs),
                   "--durationUs = " << durationUs << " is outside (0, " << maxUs
                                     << "] us at --rateGbps = " << rateGbps
                                     << " (each flow carries twice the window's bytes, at most "
                                        "2^32 - 1)");
    RIFL_CHECK_ARG(transport != "tcp" && transport != "udp",
                   "--transport = " << transport << " is not tcp or udp");
    std::vector<uint32_t> kList;
    {
        std::stringstream kss(ks);
        std::string item;
        while (std::getline(kss, item, ','))
        {
            const auto k = static_cast<uint32_t>(ParseUnsigned("--k item", item, 2, 64));
            RIFL_CHECK_ARG(k % 2 != 0, "--k item = " << k << " must be even, in [2, 64]");
            kList.push_back(k);
        }
        RIFL_CHECK_ARG(kList.empty() || ks.back() == ',',
                       "--k = '" << ks << "' must be a comma-separated list of even arities");
    }
    RequireWritable("--json", json);

    nlohmann::json doc;
    doc["benchmark"] = "fabric-bench";
    doc["duration_us"] = durationUs;
    doc["rate_gbps"] = rateGbps;
    doc["transport"] = transport;
    doc["traffic"] = "permutation, one flow per host, longer than the window";
    doc["rng_run"] = RngSeedManager::GetRun();
    doc["canonical_ties"] = canonicalTies;
    doc["runs"] = nlohmann::json::array();
    bool ok = true;
    for (const uint32_t k : kList)
    {
        nlohmann::json pair;
        pair["k"] = k;
        for (uint32_t rep = 0; rep < repeat; ++rep)
        {
            for (const std::string tech : {"ethernet", "rifl"})
            {
                DcnScenarioConfig c;
                c.k = k;
                c.technology = tech;
                c.hostRateGbps = c.fabricRateGbps = rateGbps;
                c.queuePackets = queuePackets;
                c.traffic.pattern = DcnTrafficConfig::PERMUTATION;
                c.traffic.transport
                    = transport == "udp" ? DcnTrafficConfig::UDP : DcnTrafficConfig::TCP;
                // Every flow outlasts the window: twice what the host link carries in it.
                c.traffic.flowBytes
                    = static_cast<uint64_t>(2.0 * rateGbps * 1e9 * durationUs * 1e-6 / 8.0);
                c.durationUs = durationUs;
                c.rngRun = RngSeedManager::GetRun();
                c.report = false;
                c.canonicalTies = canonicalTies;
                nlohmann::json r;
                ok = RunChild(c, r) && ok;
                std::cout << "k=" << k << " " << tech << ": " << r.dump() << std::endl;
                if (!pair.contains(tech) || !r.contains("cpu_s")
                    || (pair[tech].contains("cpu_s")
                        && r["cpu_s"].get<double>() < pair[tech]["cpu_s"].get<double>()))
                {
                    pair[tech] = r;
                }
            }
        }
        pair["repeat"] = repeat;
        if (pair["rifl"].contains("wall_s") && pair["ethernet"].contains("wall_s"))
        {
            pair["rifl_over_ethernet_wall"]
                = pair["rifl"]["wall_s"].get<double>() / pair["ethernet"]["wall_s"].get<double>();
            pair["rifl_over_ethernet_memory"] = pair["rifl"]["peak_rss_mib"].get<double>()
                                                / pair["ethernet"]["peak_rss_mib"].get<double>();
            pair["rifl_over_ethernet_cpu"]
                = pair["rifl"]["cpu_s"].get<double>() / pair["ethernet"]["cpu_s"].get<double>();
            pair["target_wall_ratio"] = 1.3;
            pair["target_memory_ratio"] = 2.0;
        }
        doc["runs"].push_back(pair);
        std::ofstream out(json);
        out << doc.dump(2) << "\n";
        RIFL_CHECK_ARG(!out, "--json = " << json << " could not be written");
    }
    std::cout << doc.dump(2) << "\n";
    return ok ? 0 : 1;
}

int
main(int argc, char* argv[])
{
    return ns3::riflexample::RunMain("fabric-bench",
                                     [&]()
                                     {
                                         return Main(argc, argv);
                                     });
}

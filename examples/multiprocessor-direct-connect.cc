/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A multiprocessor on direct links: build a full mesh, ring, mesh, torus or
 * hypercube with MultiprocessorTopologyHelper, run closed-loop
 * request/response traffic on every CPU and print per-CPU latency and link
 * error counters.
 *
 *   ./multiprocessor-direct-connect --topology=torus --x=4 --y=4 --ber=1e-6
 *
 * CPU groups on ns-3 MPI ranks (module built in an ns-3 tree with --enable-mpi):
 *
 *   mpirun -np 2 ./multiprocessor-direct-connect --mpi --ranks=2 --topology=ring
 *
 * gives the per-CPU table of the sequential run with the same groups and the links between
 * them split in one process (--ranks=2 --splitRemoteLinks). Rank 0 prints and writes it.
 *
 * RIFL as the link technology (RiflMessagePorts carry the DLIU messages; the corrected
 * replay tail, a short start-up):
 *
 *   ./multiprocessor-direct-connect --link=rifl --topology=torus --x=4 --y=4 --ber=1e-6 \
 *       --durationMs=2
 *
 * (RIFL links carry frames, and errors, when idle too: simulate the time the traffic needs,
 * --durationMs, rather than the default 100 ms.)
 *
 * With --link=rifl the per-link columns are the ports' and the RIFL devices' counters:
 * delivered / truncated / lost messages of the port, frames replayed (retransmissions),
 * frames failing the check (crc_errors), undetected errors; timeouts and Shutdowns are 0
 * (RIFL has neither).
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/multiprocessor-topology-helper.h"
#include "ns3/network-module.h"
#include "ns3/rifl-message-port.h"
#include "ns3/rifl-net-device.h"
#include "rifl-example-args.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <array>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::riflexample;

namespace
{

/// The body of main().
int
Main(int argc, char* argv[])
{
    std::string topology = "ring";
    // Integer options are parsed strictly (ns-3 would take "2.5" as 2 and "-1" as
    // 4294967295); an empty text = not given (the default applies).
    std::string nText;
    std::string xText;
    std::string yText;
    std::string dimText;
    std::string berText = "1e-6";
    std::string requestsText = "1000";
    std::string windowText = "8";
    bool dateline = false;
    std::string deadlock; // empty = not given: vcs, or routing with --dateline=true
    std::string output = "multiprocessor-direct-connect.csv";
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "fullmesh, ring, mesh, torus or hypercube", topology);
    cmd.AddValue("n", "CPUs of a full mesh (2..256) or ring (3..256), default 6", nText);
    cmd.AddValue("x", "mesh (1..256) / torus (3..85) X, default 3", xText);
    cmd.AddValue("y", "mesh (1..256) / torus (3..85) Y, default 3", yText);
    cmd.AddValue("dim", "hypercube dimension, 1..8, default 3", dimText);
    cmd.AddValue("ber", "bit error rate of every link, [0, 1)", berText);
    cmd.AddValue("requests", "requests per CPU, 0..1000000000 (0 = until durationMs)",
                 requestsText);
    cmd.AddValue("window", "outstanding requests per CPU, 1..65536", windowText);
    cmd.AddValue("dateline",
                 "dateline routing on rings and tori (same as --deadlock=routing; refused "
                 "with another --deadlock)",
                 dateline);
    cmd.AddValue("deadlock",
                 "deadlock avoidance on rings and tori: vcs (dateline VCs, default), routing "
                 "(dateline routing) or none (same VC, shortest routes: can deadlock)",
                 deadlock);
    cmd.AddValue("output", "per-CPU results, CSV", output);
    std::string ranksText = "1";
    bool splitRemote = false;
    bool mpi = false;
    bool nullmsg = false;
    cmd.AddValue("ranks", "CPU groups on ranks: CPU i on rank floor(i x ranks / CPUs), 1..CPUs",
                 ranksText);
    cmd.AddValue("splitRemoteLinks",
                 "run the links between the groups as split halves in this process (the "
                 "structure of an MPI run; needs --ranks > 1)",
                 splitRemote);
    cmd.AddValue("mpi", "run on ns-3 MPI ranks (mpirun; module built with NS3_MPI)", mpi);
    cmd.AddValue("nullmsg", "with --mpi: ns-3's null-message scheduler", nullmsg);
    std::string linksOutput;
    cmd.AddValue("links", "per-link counters of both ends, CSV (not written if empty)",
                 linksOutput);
    std::string durationText = "100";
    cmd.AddValue("durationMs", "simulated time in ms, (0.005, 1e6] (the traffic starts at 5 us)",
                 durationText);
    std::string link = "direct";
    cmd.AddValue("link",
                 "link technology: direct (direct-link devices) or rifl (RIFL links with "
                 "ReplayTail=Corrected and Startup=Short, DLIU messages on RiflMessagePorts)",
                 link);
    cmd.Parse(argc, argv);

    // Every option is checked before the run.
    RIFL_CHECK_ARG(link != "direct" && link != "rifl",
                   "--link = " << link << " is not one of direct, rifl");
    // the traffic starts at 5 us: a shorter run would measure nothing
    const double durationMs = ParseDoubleIn("--durationMs", durationText, 0.005, true, 1e6, false);
    const double ber = ParseDoubleIn("--ber", berText, 0.0, false, 1.0, true);
    CheckAttribute("--ber", "ns3::DirectLinkChannel", "Ber", DoubleValue(ber));
    if (link == "rifl")
    {
        CheckAttribute("--ber", "ns3::RiflChannel", "Ber", DoubleValue(ber));
    }
    const uint32_t requests
        = static_cast<uint32_t>(ParseUnsigned("--requests", requestsText, 0, 1000000000ULL));
    const uint32_t window = static_cast<uint32_t>(ParseUnsigned("--window", windowText, 1, 65536));
    CheckAttribute("--window", "ns3::CpuTrafficApplication", "MaxOutstanding",
                   UintegerValue(window));
    const uint32_t ranks = static_cast<uint32_t>(ParseUnsigned("--ranks", ranksText, 1, 256));
    RIFL_CHECK_ARG(topology != "fullmesh" && topology != "ring" && topology != "mesh"
                       && topology != "torus" && topology != "hypercube",
                   "--topology = " << topology
                                   << " is not one of fullmesh, ring, mesh, torus, hypercube");
    // The size options of the other topologies are refused rather than ignored.
    const bool byN = topology == "fullmesh" || topology == "ring";
    const bool byXy = topology == "mesh" || topology == "torus";
    RIFL_CHECK_ARG(!nText.empty() && !byN,
                   "--n applies to --topology=fullmesh or ring, not " << topology);
    RIFL_CHECK_ARG((!xText.empty() || !yText.empty()) && !byXy,
                   "--x and --y apply to --topology=mesh or torus, not " << topology);
    RIFL_CHECK_ARG(!dimText.empty() && topology != "hypercube",
                   "--dim applies to --topology=hypercube, not " << topology);
    const uint32_t n = static_cast<uint32_t>(
        ParseUnsigned("--n", nText.empty() ? "6" : nText, topology == "ring" ? 3 : 2, 256));
    const uint64_t xyLo = topology == "torus" ? 3 : 1;
    const uint64_t xyHi = topology == "torus" ? 85 : 256;
    const uint32_t x
        = static_cast<uint32_t>(ParseUnsigned("--x", xText.empty() ? "3" : xText, xyLo, xyHi));
    const uint32_t y
        = static_cast<uint32_t>(ParseUnsigned("--y", yText.empty() ? "3" : yText, xyLo, xyHi));
    const uint32_t dim
        = static_cast<uint32_t>(ParseUnsigned("--dim", dimText.empty() ? "3" : dimText, 1, 8));
    // --dateline=true is --deadlock=routing: another --deadlock with it is refused (the
    // printed setting is the one used).
    RIFL_CHECK_ARG(dateline && !deadlock.empty() && deadlock != "routing",
                   "--dateline=true means --deadlock=routing, but --deadlock = " << deadlock
                                                                                 << " was given");
    if (deadlock.empty())
    {
        deadlock = dateline ? "routing" : "vcs";
    }
    RIFL_CHECK_ARG(deadlock != "vcs" && deadlock != "routing" && deadlock != "none",
                   "--deadlock = " << deadlock << " is not one of vcs, routing, none");
    RIFL_CHECK_ARG(nullmsg && !mpi, "--nullmsg applies to --mpi runs only");
    RIFL_CHECK_ARG(splitRemote && ranks < 2,
                   "--splitRemoteLinks needs --ranks > 1 (with one rank no link is between "
                   "ranks)");
    // Attributes of the link technology not in use would be ignored: refused.
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        a.erase(0, a.find_first_not_of('-'));
        const bool directAttr = a.rfind("ns3::DirectLinkNetDevice::", 0) == 0
                                || a.rfind("ns3::DirectLinkChannel::", 0) == 0;
        const bool riflAttr = a.rfind("ns3::Rifl", 0) == 0;
        RIFL_CHECK_ARG(link == "rifl" && directAttr,
                       argv[i] << " is an attribute of the direct-link devices and channels, "
                                  "which --link=rifl does not use");
        RIFL_CHECK_ARG(link == "direct" && riflAttr,
                       argv[i] << " is an attribute of the RIFL links, which --link=direct "
                                  "does not use (give --link=rifl)");
    }
    RequireWritable("--output", output);
    if (!linksOutput.empty())
    {
        RequireWritable("--links", linksOutput);
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
        if (MpiInterface::GetSize() != ranks)
        {
            std::cerr << "--ranks=" << ranks << " but mpirun started " << MpiInterface::GetSize()
                      << " ranks\n";
            MpiInterface::Disable();
            return 1;
        }
#else
        RIFL_CHECK_ARG(true,
                       "--mpi: this build of the rifl module has no MPI support (build it in an "
                       "ns-3 tree configured with --enable-mpi, tools/check-ns3-tree --mpi)");
#endif
    }

    MultiprocessorTopologyHelper mp;
    mp.SetChannelAttribute("Engine", StringValue("Fast"));
    mp.SetRanks(ranks);
    mp.SetSplitRemoteLinks(splitRemote);
    mp.SetChannelAttribute("Ber", DoubleValue(ber));
    if (link == "rifl")
    {
        mp.SetLinkTechnology(MultiprocessorTopologyHelper::RIFL);
        mp.GetRiflHelper().SetDeviceAttribute("ReplayTail", StringValue("Corrected"));
        mp.GetRiflHelper().SetDeviceAttribute("Startup", StringValue("Short"));
        mp.GetRiflHelper().SetChannelAttribute("Ber", DoubleValue(ber));
    }
    if (deadlock == "routing")
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_ROUTING);
    }
    else if (deadlock == "none")
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::NO_AVOIDANCE);
    }
    else
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_VCS);
    }
    if (topology == "fullmesh")
    {
        mp.FullMesh(n);
    }
    else if (topology == "ring")
    {
        mp.Ring(n);
    }
    else if (topology == "mesh")
    {
        mp.Mesh2D(x, y);
    }
    else if (topology == "torus")
    {
        mp.Torus2D(x, y);
    }
    else
    {
        mp.Hypercube(dim);
    }
    mp.AssignStreams(1);

    std::vector<Ptr<CpuTrafficApplication>> apps;
    for (uint32_t i = 0; i < mp.GetNCpus(); ++i)
    {
        if (mpi && mp.GetRank(i) != rank)
        {
            apps.push_back(nullptr); // runs on its own rank
            continue;
        }
        Ptr<CpuTrafficApplication> app = CreateObject<CpuTrafficApplication>();
        app->SetAttribute("MaxRequests", UintegerValue(requests));
        app->SetAttribute("MaxOutstanding", UintegerValue(window));
        app->AssignStreams(100 + 10 * i);
        app->SetStartTime(MicroSeconds(5));
        mp.GetCpu(i)->AddApplication(app);
        apps.push_back(app);
    }
    Simulator::Stop(Seconds(durationMs / 1e3));
    Simulator::Run();

    // per CPU: ok, bad, timeouts, forwarded, p50, p99, max (each rank fills its own CPUs)
    constexpr std::size_t COLS = 7;
    std::vector<double> table(mp.GetNCpus() * COLS, 0.0);
    for (uint32_t i = 0; i < mp.GetNCpus(); ++i)
    {
        if (!apps[i])
        {
            continue;
        }
        const CpuTrafficStats st = apps[i]->GetStats();
        const std::array<double, COLS> row{
            double(st.responsesOk),  double(st.responsesBad),
            double(st.timeouts),     double(mp.GetDliu(i)->GetCounters().forwarded),
            double(st.latencyP50Ns), double(st.latencyP99Ns),
            double(st.latencyMaxNs)};
        std::copy(row.begin(), row.end(), table.begin() + i * COLS);
    }
    // per link end: delivered, truncated, lost, retransmissions, timeouts, failed checks,
    // Shutdowns, undetected errors (direct-link device counters; for RIFL those of the
    // port and of the RIFL device, see the file comment)
    constexpr std::size_t LCOLS = 8;
    auto endCounters = [](Ptr<NetDevice> nd)
    {
        if (Ptr<DirectLinkNetDevice> dev = DynamicCast<DirectLinkNetDevice>(nd))
        {
            const DirectLinkDeviceCounters c = dev->GetCounters();
            return std::array<double, LCOLS>{
                double(c.messagesDelivered), double(c.messagesTruncated), double(c.messagesLost),
                double(c.retransmissions),   double(c.timeouts),          double(c.crcErrors),
                double(c.shutdowns),         double(c.undetectedErrors)};
        }
        Ptr<RiflNetDevice> dev = DynamicCast<RiflNetDevice>(nd);
        const RiflMessagePortCounters p = dev->GetObject<RiflMessagePort>()->GetCounters();
        const RiflEndpointCounters c = dev->GetCounters();
        return std::array<double, LCOLS>{double(p.messagesReceived),
                                         double(p.messagesTruncated),
                                         double(p.messagesLost),
                                         double(c.replayedFrames),
                                         0.0,
                                         double(c.errorsDetected),
                                         0.0,
                                         double(c.undetectedErrors)};
    };
    // link counters of the devices of this rank's CPUs: failed checks, lost, Shutdowns
    std::array<double, 3> links{0, 0, 0};
    // per link and end (lower CPU first), each rank its own ends
    std::vector<double> perLink(mp.GetNLinks() * 2 * LCOLS, 0.0);
    for (uint32_t k = 0; k < mp.GetNLinks(); ++k)
    {
        const NetDeviceContainer ends = mp.GetLink(k);
        for (uint32_t e = 0; e < 2; ++e)
        {
            Ptr<NetDevice> dev = ends.Get(e);
            if (mpi && dev->GetNode()->GetSystemId() != rank)
            {
                continue;
            }
            const std::array<double, LCOLS> row = endCounters(dev);
            std::copy(row.begin(), row.end(), perLink.begin() + (k * 2 + e) * LCOLS);
            links[0] += row[5];
            links[1] += row[2];
            links[2] += row[6];
        }
    }
#ifdef NS3_MPI
    if (mpi)
    {
        MPI_Allreduce(MPI_IN_PLACE, perLink.data(), static_cast<int>(perLink.size()), MPI_DOUBLE,
                      MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, table.data(), static_cast<int>(table.size()), MPI_DOUBLE,
                      MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, links.data(), static_cast<int>(links.size()), MPI_DOUBLE,
                      MPI_SUM, MPI_COMM_WORLD);
    }
#endif
    if (rank != 0)
    {
        Simulator::Destroy();
#ifdef NS3_MPI
        MpiInterface::Disable();
#endif
        return 0;
    }
    std::cout << topology << ": " << mp.GetNCpus() << " CPUs, " << mp.GetNLinks() << " "
              << (link == "rifl" ? "RIFL" : "direct") << " links, deadlock avoidance " << deadlock
              << ", channel dependencies " << (mp.DeadlockFree() ? "acyclic" : "cyclic")
              << std::endl;
    if (ranks > 1)
    {
        std::cout << ranks << " ranks (CPU groups), " << mp.GetNLinksAcrossRanks()
                  << " links between them" << (mpi ? " across MPI ranks" : "")
                  << (!mpi && splitRemote ? " split in this process" : "") << std::endl;
    }
    std::cout << "cpu  ok  bad  timeouts  forwarded  p50_ns  p99_ns  max_ns" << std::endl;
    std::ofstream csv(output);
    RIFL_CHECK_ARG(!csv, "--output = " << output << " cannot be written");
    csv << "cpu,responses_ok,responses_bad,timeouts,forwarded,latency_ns_p50,latency_ns_p99,"
           "latency_ns_max\n";
    uint32_t cpusWithoutResponses = 0;
    for (uint32_t i = 0; i < mp.GetNCpus(); ++i)
    {
        const double* r = table.data() + i * COLS;
        // latencies only of CPUs with responses: "-" (stdout) and an empty field (CSV)
        // otherwise, not 0 as if measured
        const bool measured = r[0] > 0;
        cpusWithoutResponses += measured ? 0 : 1;
        std::cout << i;
        csv << i;
        for (std::size_t k = 0; k < COLS; ++k)
        {
            // counts, then latencies in ns (as the applications report them)
            if (k < 4)
            {
                std::cout << "  " << static_cast<uint64_t>(r[k]);
                csv << "," << static_cast<uint64_t>(r[k]);
            }
            else if (measured)
            {
                std::cout << "  " << r[k];
                csv << "," << r[k];
            }
            else
            {
                std::cout << "  -";
                csv << ",";
            }
        }
        std::cout << std::endl;
        csv << "\n";
    }
    if (cpusWithoutResponses > 0)
    {
        std::cout << cpusWithoutResponses << " of " << mp.GetNCpus()
                  << " CPUs got no responses (no latencies: -)" << std::endl;
    }
    if (!linksOutput.empty())
    {
        std::ofstream lf(linksOutput);
        RIFL_CHECK_ARG(!lf, "--links = " << linksOutput << " cannot be written");
        lf << "link,cpu,peer,delivered,truncated,lost,retransmissions,timeouts,crc_errors,"
              "shutdowns,undetected_errors\n";
        for (uint32_t k = 0; k < mp.GetNLinks(); ++k)
        {
            const NetDeviceContainer ends = mp.GetLink(k);
            for (uint32_t e = 0; e < 2; ++e)
            {
                const uint32_t cpu = ends.Get(e)->GetNode()->GetId();
                const uint32_t peer = ends.Get(1 - e)->GetNode()->GetId();
                lf << k << "," << cpu << "," << peer;
                for (std::size_t j = 0; j < LCOLS; ++j)
                {
                    lf << "," << static_cast<uint64_t>(perLink[(k * 2 + e) * LCOLS + j]);
                }
                lf << "\n";
            }
        }
    }
    std::cout << (link == "rifl" ? "RIFL frames failing the check: "
                                 : "micro-packets failing a check: ")
              << static_cast<uint64_t>(links[0])
              << ", messages lost: " << static_cast<uint64_t>(links[1])
              << ", Shutdowns: " << static_cast<uint64_t>(links[2]) << std::endl;
    Simulator::Destroy();
#ifdef NS3_MPI
    if (mpi)
    {
        MpiInterface::Disable();
    }
#endif
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("multiprocessor-direct-connect",
                   [&]()
                   {
                       return Main(argc, argv);
                   });
}

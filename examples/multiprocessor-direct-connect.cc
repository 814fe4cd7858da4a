/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A multiprocessor on direct links: build a full mesh, ring, mesh, torus or
 * hypercube with MultiprocessorTopologyHelper, run closed-loop
 * request/response traffic on every CPU and print per-CPU latency and link
 * error counters.
 *
 *   ./multiprocessor-direct-connect --topology=torus --x=4 --y=4 --ber=1e-6
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/multiprocessor-topology-helper.h"
#include "ns3/network-module.h"

#include <fstream>
#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string topology = "ring";
    uint32_t n = 6;
    uint32_t x = 3;
    uint32_t y = 3;
    uint32_t dim = 3;
    double ber = 1e-6;
    uint32_t requests = 1000;
    uint32_t window = 8;
    bool dateline = false;
    std::string deadlock = "vcs";
    std::string output = "multiprocessor-direct-connect.csv";
    CommandLine cmd(__FILE__);
    cmd.AddValue("topology", "fullmesh, ring, mesh, torus or hypercube", topology);
    cmd.AddValue("n", "CPUs of a full mesh or ring", n);
    cmd.AddValue("x", "mesh/torus X", x);
    cmd.AddValue("y", "mesh/torus Y", y);
    cmd.AddValue("dim", "hypercube dimension", dim);
    cmd.AddValue("ber", "bit error rate of every link", ber);
    cmd.AddValue("requests", "requests per CPU", requests);
    cmd.AddValue("window", "outstanding requests per CPU", window);
    cmd.AddValue("dateline", "dateline routing on rings and tori (same as --deadlock=routing)",
                 dateline);
    cmd.AddValue("deadlock",
                 "deadlock avoidance on rings and tori: vcs (dateline VCs, default), routing "
                 "(dateline routing) or none (same VC, shortest routes: can deadlock)",
                 deadlock);
    cmd.AddValue("output", "per-CPU results, CSV", output);
    cmd.Parse(argc, argv);

    MultiprocessorTopologyHelper mp;
    mp.SetChannelAttribute("Engine", StringValue("Fast"));
    mp.SetChannelAttribute("Ber", DoubleValue(ber));
    if (dateline || deadlock == "routing")
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_ROUTING);
    }
    else if (deadlock == "none")
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::NO_AVOIDANCE);
    }
    else if (deadlock == "vcs")
    {
        mp.SetDeadlockAvoidance(MultiprocessorTopologyHelper::DATELINE_VCS);
    }
    else
    {
        std::cerr << "unknown --deadlock=" << deadlock << std::endl;
        return 1;
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
    else if (topology == "hypercube")
    {
        mp.Hypercube(dim);
    }
    else
    {
        std::cerr << "unknown --topology=" << topology << std::endl;
        return 1;
    }
    mp.AssignStreams(1);

    std::vector<Ptr<CpuTrafficApplication>> apps;
    for (uint32_t i = 0; i < mp.GetNCpus(); ++i)
    {
        Ptr<CpuTrafficApplication> app = CreateObject<CpuTrafficApplication>();
        app->SetAttribute("MaxRequests", UintegerValue(requests));
        app->SetAttribute("MaxOutstanding", UintegerValue(window));
        app->AssignStreams(100 + 10 * i);
        app->SetStartTime(MicroSeconds(5));
        mp.GetCpu(i)->AddApplication(app);
        apps.push_back(app);
    }
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();

    std::cout << topology << ": " << mp.GetNCpus() << " CPUs, " << mp.GetNLinks()
              << " links, deadlock avoidance " << deadlock << ", channel dependencies "
              << (mp.DeadlockFree() ? "acyclic" : "cyclic") << std::endl;
    std::cout << "cpu  ok  bad  timeouts  forwarded  p50_ns  p99_ns  max_ns" << std::endl;
    std::ofstream csv(output);
    if (!csv)
    {
        std::cerr << "--output=" << output << " cannot be written" << std::endl;
        return 1;
    }
    csv << "cpu,responses_ok,responses_bad,timeouts,forwarded,latency_ns_p50,latency_ns_p99,"
           "latency_ns_max\n";
    for (uint32_t i = 0; i < mp.GetNCpus(); ++i)
    {
        const CpuTrafficStats st = apps[i]->GetStats();
        std::cout << i << "  " << st.responsesOk << "  " << st.responsesBad << "  " << st.timeouts
                  << "  " << mp.GetDliu(i)->GetCounters().forwarded << "  " << st.latencyP50Ns
                  << "  " << st.latencyP99Ns << "  " << st.latencyMaxNs << std::endl;
        csv << i << "," << st.responsesOk << "," << st.responsesBad << "," << st.timeouts << ","
            << mp.GetDliu(i)->GetCounters().forwarded << "," << st.latencyP50Ns << ","
            << st.latencyP99Ns << "," << st.latencyMaxNs << "\n";
    }
    uint64_t crc = 0;
    uint64_t lost = 0;
    uint64_t shutdowns = 0;
    const NetDeviceContainer devs = mp.GetDevices();
    for (uint32_t k = 0; k < devs.GetN(); ++k)
    {
        const DirectLinkDeviceCounters c
            = DynamicCast<DirectLinkNetDevice>(devs.Get(k))->GetCounters();
        crc += c.crcErrors;
        lost += c.messagesLost;
        shutdowns += c.shutdowns;
    }
    std::cout << "micro-packets failing a check: " << crc << ", messages lost: " << lost
              << ", Shutdowns: " << shutdowns << std::endl;
    Simulator::Destroy();
    return 0;
}

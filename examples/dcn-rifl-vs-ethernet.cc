/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A k-ary fat-tree (or leaf-spine) over RIFL or the Ethernet baseline at a
 * given BER: every host sends UDP datagrams to the host half the network away;
 * prints delivered/sent and the reliability report (table; JSON to --json).
 *
 *   dcn-rifl-vs-ethernet --k=4 --tech=rifl --ber=1e-6 --json=report.json
 */

#include "ns3/core-module.h"
#include "ns3/dcn-topology-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/reliability-report-helper.h"

#include <iostream>

using namespace ns3;

namespace
{

uint64_t g_received = 0; //!< datagrams received by all hosts

/**
 * \brief Count received datagrams.
 * \param s the socket.
 */
void
OnRx(Ptr<Socket> s)
{
    while (s->Recv())
    {
        ++g_received;
    }
}

/**
 * \brief Send one datagram.
 * \param s the socket.
 * \param to destination.
 * \param size payload bytes.
 */
void
SendTo(Ptr<Socket> s, Ipv4Address to, uint32_t size)
{
    s->SendTo(Create<Packet>(size), 0, InetSocketAddress(to, 9));
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t k = 4;
    uint32_t leaves = 0;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 4;
    std::string tech = "rifl";
    double ber = 1e-6;
    uint32_t size = 1472;
    uint32_t packets = 100;
    std::string json = "dcn-rifl-vs-ethernet.json";
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "fat-tree arity (even)", k);
    cmd.AddValue("leaves", "leaf-spine leaves (0 = build the fat-tree)", leaves);
    cmd.AddValue("spines", "leaf-spine spines", spines);
    cmd.AddValue("hostsPerLeaf", "leaf-spine hosts per leaf", hostsPerLeaf);
    cmd.AddValue("tech", "rifl or ethernet", tech);
    cmd.AddValue("ber", "BER of every link", ber);
    cmd.AddValue("size", "UDP payload bytes", size);
    cmd.AddValue("packets", "datagrams per host (10 us apart)", packets);
    cmd.AddValue("json", "write the JSON report here (empty: none)", json);
    cmd.Parse(argc, argv);

    DcnTopologyHelper dcn;
    dcn.SetLinkTechnology(tech == "ethernet" ? DcnTopologyHelper::ETHERNET
                                             : DcnTopologyHelper::RIFL);
    dcn.SetBer(ber);
    if (leaves > 0)
    {
        dcn.InstallLeafSpine(leaves, spines, hostsPerLeaf);
    }
    else
    {
        dcn.InstallFatTree(k);
    }
    dcn.AssignStreams(1);
    NodeContainer hosts = dcn.GetHosts();
    const uint32_t n = hosts.GetN();
    const Time start = MicroSeconds(200);
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Socket> r = Socket::CreateSocket(hosts.Get(i), UdpSocketFactory::GetTypeId());
        r->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        r->SetRecvCallback(MakeCallback(&OnRx));
        Ptr<Socket> t = Socket::CreateSocket(hosts.Get(i), UdpSocketFactory::GetTypeId());
        t->Bind();
        for (uint32_t p = 0; p < packets; ++p)
        {
            Simulator::Schedule(start + MicroSeconds(10) * p + NanoSeconds(37) * i, &SendTo, t,
                                dcn.GetHostAddress((i + n / 2) % n), size);
        }
    }
    Simulator::Stop(start + MicroSeconds(10) * packets + MicroSeconds(200));
    Simulator::Run();
    std::cout << tech << " " << n << " hosts, " << dcn.GetNLinks() << " links, BER " << ber
              << ": delivered " << g_received << " of " << uint64_t(n) * packets << "\n";
    ReliabilityReportHelper report;
    report.WriteTable(std::cout);
    if (!json.empty())
    {
        report.WriteJson(json);
    }
    Simulator::Destroy();
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Out-of-tree user of the installed rifl module (the rifl-install test): one
// RIFL link built with RiflHelper at BER 1e-6, 200 numbered packets from A to
// B through the devices' Send(), every one checked at B for order and content.
// Prints one result line; exits 1 unless every packet arrived exactly once, in
// order, intact, and the link did detect (and recover from) line errors.
// Then loads the shipped flow-size CDFs by name ("web-search", "data-mining")
// and prints, for each, where the library found it, its points and mean;
// exits 2 with the library's message if one cannot be loaded.
//
//   rifl-install-consumer        the link, then the CDFs
//   rifl-install-consumer cdf    the CDFs only

#include "ns3/dcn-flow-size-distribution.h"
#include "ns3/double.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-net-device.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t N_PACKETS = 200;    // packets sent A -> B
constexpr uint32_t PACKET_BYTES = 500; // payload bytes of each
constexpr uint16_t PROTOCOL = 0x0800;  // IPv4's PPP-mapped number (any supported one)

uint32_t g_received = 0; // packets B handed up
uint32_t g_bad = 0;      // out of order, duplicated or with wrong content

// The payload of packet i: bytes (i + k) mod 251.
std::vector<uint8_t>
Payload(uint32_t i)
{
    std::vector<uint8_t> b(PACKET_BYTES);
    for (uint32_t k = 0; k < PACKET_BYTES; ++k)
    {
        b[k] = static_cast<uint8_t>((i + k) % 251);
    }
    return b;
}

bool
Receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&)
{
    std::vector<uint8_t> got(p->GetSize());
    p->CopyData(got.data(), got.size());
    if (protocol != PROTOCOL || got != Payload(g_received))
    {
        ++g_bad;
    }
    ++g_received;
    return true;
}

void
SendOne(Ptr<NetDevice> a, Address to, uint32_t i)
{
    std::vector<uint8_t> b = Payload(i);
    a->Send(Create<Packet>(b.data(), b.size()), to, PROTOCOL);
}

// Loads the shipped CDFs by name; prints one line each. Returns false on an error.
bool
LoadShippedCdfs()
{
    for (const char* name : {"web-search", "data-mining"})
    {
        try
        {
            DcnFlowSizeDistribution d = DcnFlowSizeDistribution::Load(name);
            std::cout << "rifl-install-consumer: cdf " << name << ": " << d.GetPoints().size()
                      << " points, mean " << static_cast<uint64_t>(d.GetMeanBytes() + 0.5)
                      << " bytes, from " << d.GetSource() << "\n";
        }
        catch (const std::invalid_argument& e)
        {
            std::cout << "rifl-install-consumer: cdf " << name << ": ERROR " << e.what() << "\n";
            return false;
        }
    }
    return true;
}

// The RIFL link check; returns whether it passed.
bool
RunLink()
{
    NodeContainer nodes;
    nodes.Create(2);
    RiflHelper rifl;
    rifl.SetChannelAttribute("Ber", DoubleValue(1e-6));
    NetDeviceContainer devices = rifl.Install(nodes);
    rifl.AssignStreams(devices, 1);
    devices.Get(1)->SetReceiveCallback(MakeCallback(&Receive));

    // After the link's start-up, one packet every 100 ns (well below line rate).
    for (uint32_t i = 0; i < N_PACKETS; ++i)
    {
        Simulator::Schedule(MilliSeconds(3) + NanoSeconds(100 * i), &SendOne, devices.Get(0),
                            devices.Get(1)->GetAddress(), i);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    RiflEndpointCounters b = DynamicCast<RiflNetDevice>(devices.Get(1))->GetCounters();
    RiflEndpointCounters a = DynamicCast<RiflNetDevice>(devices.Get(0))->GetCounters();
    Simulator::Destroy();

    bool ok = g_received == N_PACKETS && g_bad == 0 && b.errorsDetected > 0 && a.replays > 0
              && b.undetectedErrors == 0;
    std::cout << "rifl-install-consumer: delivered " << g_received << "/" << N_PACKETS
              << " packets, " << g_bad << " bad, errors detected " << b.errorsDetected
              << ", replays " << a.replays << ", undetected " << b.undetectedErrors << ": "
              << (ok ? "OK" : "FAILED") << "\n";
    return ok;
}

} // namespace

int
main(int argc, char** argv)
{
    const bool cdfOnly = argc > 1 && std::string(argv[1]) == "cdf";
    if (!cdfOnly && !RunLink())
    {
        return 1;
    }
    return LoadShippedCdfs() ? 0 : 2;
}

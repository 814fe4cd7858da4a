// The README's C++ example: two nodes over a RIFL link at BER 1e-7, UDP echo.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/rifl-module.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    CommandLine cmd;
    cmd.Parse(argc, argv);
    NodeContainer nodes(2);
    RiflHelper rifl; // RIFL256, 4 x 28 Gb/s lanes, 10 m of cable by default
    rifl.SetChannelAttribute("Ber", DoubleValue(1e-7));
    NetDeviceContainer devices = rifl.Install(nodes);
    rifl.AssignStreams(devices, 1);
    InternetStackHelper().Install(nodes);
    Ipv4InterfaceContainer ifs = Ipv4AddressHelper("10.1.1.0", "255.255.255.0").Assign(devices);
    UdpEchoServerHelper server(9);
    server.Install(nodes.Get(1)).Start(Seconds(0));
    UdpEchoClientHelper client(ifs.GetAddress(1), 9);
    client.SetAttribute("MaxPackets", UintegerValue(100));
    client.SetAttribute("Interval", TimeValue(MicroSeconds(10)));
    client.Install(nodes.Get(0)).Start(MilliSeconds(3)); // after link start-up
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    auto c = DynamicCast<RiflNetDevice>(devices.Get(1))->GetCounters();
    std::cout << "B received " << c.packetsDelivered << " packets, " << c.errorsDetected
              << " frame errors detected, " << c.undetectedErrors << " undetected\n";
    Simulator::Destroy();
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-helper.h"

#include "ns3/config.h"
#include "ns3/direct-link-channel.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/direct-link-port.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rifl-check.h"
#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#endif

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkHelper");

DirectLinkHelper::DirectLinkHelper()
{
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_deviceFactory.SetTypeId("ns3::DirectLinkNetDevice");
    m_channelFactory.SetTypeId("ns3::DirectLinkChannel");
    m_dliuFactory.SetTypeId("ns3::DirectLinkInterfaceUnit");
}

DirectLinkHelper::~DirectLinkHelper() {}

void
DirectLinkHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
DirectLinkHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
DirectLinkHelper::SetDliuAttribute(std::string name, const AttributeValue& value)
{
    m_dliuFactory.Set(name, value);
}

NetDeviceContainer
DirectLinkHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    RIFL_CHECK_ARG(!a || !b, "DirectLinkHelper::Install: both nodes must be non-null");
    RIFL_CHECK_ARG(a == b, "DirectLinkHelper::Install: a direct link needs two different nodes");
    NetDeviceContainer devices;
    Ptr<DirectLinkChannel> channel = m_channelFactory.Create<DirectLinkChannel>();
    for (Ptr<Node> n : {a, b})
    {
        Ptr<DirectLinkNetDevice> dev = m_deviceFactory.Create<DirectLinkNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        Ptr<Queue<Packet>> queue = m_queueFactory.Create<Queue<Packet>>();
        dev->SetQueue(queue);
        // The queue interface lets the traffic-control layer stop and wake the upper
        // layer as the device queue fills and drains.
        Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
        ndqi->GetTxQueue(0)->ConnectQueueTraces(queue);
        dev->AggregateObject(ndqi);
        dev->Attach(channel);
        devices.Add(dev);
    }
    for (Ptr<Node> n : {a, b})
    {
        Ptr<DirectLinkInterfaceUnit> dliu = n->GetObject<DirectLinkInterfaceUnit>();
        if (dliu)
        {
            dliu->AddDevice(DynamicCast<DirectLinkNetDevice>(devices.Get(n == a ? 0 : 1)));
        }
    }
#ifdef NS3_MPI
    // Ends on two MPI ranks: each device receives its peer half's messages through an
    // MpiReceiver, as ns-3's point-to-point remote links do.
    if (MpiInterface::IsEnabled() && a->GetSystemId() != b->GetSystemId())
    {
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            Ptr<DirectLinkNetDevice> dev = DynamicCast<DirectLinkNetDevice>(devices.Get(i));
            Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
            receiver->SetReceiveCallback(MakeCallback(&DirectLinkNetDevice::ReceiveRemote, dev));
            dev->AggregateObject(receiver);
        }
    }
#endif
    return devices;
}

NetDeviceContainer
DirectLinkHelper::Install(NodeContainer c)
{
    RIFL_CHECK_ARG(c.GetN() != 2, "DirectLinkHelper::Install: the container holds "
                                      << c.GetN() << " nodes; a direct link needs 2");
    return Install(c.Get(0), c.Get(1));
}

Ptr<DirectLinkInterfaceUnit>
DirectLinkHelper::InstallDliu(Ptr<Node> node, uint32_t cpuNumber)
{
    RIFL_CHECK_ARG(!node, "DirectLinkHelper::InstallDliu: node must not be null");
    RIFL_CHECK_ARG(cpuNumber > 255, "DirectLinkHelper::InstallDliu: cpuNumber = "
                                        << cpuNumber << " is out of range [0, 255]");
    Ptr<DirectLinkInterfaceUnit> dliu = node->GetObject<DirectLinkInterfaceUnit>();
    if (!dliu)
    {
        dliu = m_dliuFactory.Create<DirectLinkInterfaceUnit>();
        node->AggregateObject(dliu);
    }
    dliu->SetCpuNumber(cpuNumber);
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> nd = node->GetDevice(i);
        Ptr<DirectLinkNetDevice> dev = DynamicCast<DirectLinkNetDevice>(nd);
        Ptr<DirectLinkPort> port = nd->GetObject<DirectLinkPort>();
        if (port)
        {
            dliu->AddPort(port); // another link technology carrying DLIU messages
        }
        else if (dev)
        {
            dliu->AddDevice(dev);
        }
    }
    return dliu;
}

void
DirectLinkHelper::SetRoute(Ptr<Node> node, uint32_t dstCpu, Ptr<NetDevice> device)
{
    RIFL_CHECK_ARG(!node, "DirectLinkHelper::SetRoute: node must not be null");
    Ptr<DirectLinkInterfaceUnit> dliu = node->GetObject<DirectLinkInterfaceUnit>();
    RIFL_CHECK_ARG(!dliu, "DirectLinkHelper::SetRoute: node " << node->GetId()
                                                              << " has no DLIU (InstallDliu)");
    dliu->SetRoute(dstCpu, device);
}

int64_t
DirectLinkHelper::AssignStreams(NetDeviceContainer c, int64_t stream)
{
    int64_t used = 0;
    std::set<Ptr<DirectLinkChannel>> done;
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        Ptr<DirectLinkNetDevice> dev = DynamicCast<DirectLinkNetDevice>(c.Get(i));
        if (!dev)
        {
            continue;
        }
        Ptr<DirectLinkChannel> ch = DynamicCast<DirectLinkChannel>(dev->GetChannel());
        if (ch && done.insert(ch).second)
        {
            used += ch->AssignStreams(stream + used);
        }
    }
    return used;
}

void
DirectLinkHelper::EnablePcapInternal(std::string prefix, Ptr<NetDevice> nd, bool promiscuous,
                                     bool explicitFilename)
{
    Ptr<DirectLinkNetDevice> device = nd->GetObject<DirectLinkNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("DirectLinkHelper::EnablePcapInternal(): device "
                    << nd << " is not a DirectLinkNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename
        = explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_PPP);
    pcapHelper.HookDefaultSink<DirectLinkNetDevice>(
        device, promiscuous ? "PromiscSniffer" : "Sniffer", file);
}

void
DirectLinkHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream, std::string prefix,
                                      Ptr<NetDevice> nd, bool explicitFilename)
{
    Ptr<DirectLinkNetDevice> device = nd->GetObject<DirectLinkNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("DirectLinkHelper::EnableAsciiInternal(): device "
                    << nd << " is not a DirectLinkNetDevice");
        return;
    }
    Packet::EnablePrinting();
    if (!stream)
    {
        AsciiTraceHelper ascii;
        const std::string filename
            = explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> file = ascii.CreateFileStream(filename);
        ascii.HookDefaultReceiveSinkWithoutContext<DirectLinkNetDevice>(device, "MacRx", file);
        Ptr<Queue<Packet>> queue = device->GetQueue();
        ascii.HookDefaultEnqueueSinkWithoutContext<Queue<Packet>>(queue, "Enqueue", file);
        ascii.HookDefaultDropSinkWithoutContext<Queue<Packet>>(queue, "Drop", file);
        ascii.HookDefaultDequeueSinkWithoutContext<Queue<Packet>>(queue, "Dequeue", file);
        ascii.HookDefaultDropSinkWithoutContext<DirectLinkNetDevice>(device, "PhyRxDrop", file);
        return;
    }
    const uint32_t nodeId = nd->GetNode()->GetId();
    const uint32_t deviceId = nd->GetIfIndex();
    const std::string base = "/NodeList/" + std::to_string(nodeId) + "/DeviceList/"
                             + std::to_string(deviceId) + "/$ns3::DirectLinkNetDevice/";
    Config::Connect(base + "MacRx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultReceiveSinkWithContext, stream));
    Config::Connect(base + "TxQueue/Enqueue",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultEnqueueSinkWithContext, stream));
    Config::Connect(base + "TxQueue/Dequeue",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDequeueSinkWithContext, stream));
    Config::Connect(base + "TxQueue/Drop",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
    Config::Connect(base + "PhyRxDrop",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-helper.h"

#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#endif
#include "ns3/rifl-net-device.h"

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflHelper");

RiflHelper::RiflHelper()
{
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_deviceFactory.SetTypeId("ns3::RiflNetDevice");
    m_channelFactory.SetTypeId("ns3::RiflChannel");
}

RiflHelper::~RiflHelper() {}

void
RiflHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
RiflHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
RiflHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    RIFL_CHECK_ARG(!a || !b, "RiflHelper::Install: both nodes must be non-null");
    NetDeviceContainer devices;
    Ptr<RiflChannel> channel = m_channelFactory.Create<RiflChannel>();
    for (Ptr<Node> n : {a, b})
    {
        Ptr<RiflNetDevice> dev = m_deviceFactory.Create<RiflNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        Ptr<Queue<Packet>> queue = m_queueFactory.Create<Queue<Packet>>();
        dev->SetQueue(queue);
        // The queue interface lets the traffic-control layer stop and wake the
        // upper layer as the device queue fills and drains (no drops above).
        Ptr<NetDeviceQueueInterface> ndqi = CreateObject<NetDeviceQueueInterface>();
        ndqi->GetTxQueue(0)->ConnectQueueTraces(queue);
        dev->AggregateObject(ndqi);
        dev->Attach(channel);
        devices.Add(dev);
    }
#ifdef NS3_MPI
    // Ends on two MPI ranks: each device receives its peer half's messages through an
    // MpiReceiver, as ns-3's point-to-point remote links do.
    if (MpiInterface::IsEnabled() && a->GetSystemId() != b->GetSystemId())
    {
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            Ptr<RiflNetDevice> dev = DynamicCast<RiflNetDevice>(devices.Get(i));
            Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
            receiver->SetReceiveCallback(MakeCallback(&RiflNetDevice::ReceiveRemote, dev));
            dev->AggregateObject(receiver);
        }
    }
#endif
    return devices;
}

NetDeviceContainer
RiflHelper::Install(NodeContainer c)
{
    RIFL_CHECK_ARG(c.GetN() != 2, "RiflHelper::Install: the container holds "
                                      << c.GetN() << " nodes; a RIFL link needs 2");
    return Install(c.Get(0), c.Get(1));
}

int64_t
RiflHelper::AssignStreams(NetDeviceContainer c, int64_t stream)
{
    int64_t used = 0;
    std::set<Ptr<RiflChannel>> done;
    for (uint32_t i = 0; i < c.GetN(); ++i)
    {
        Ptr<RiflNetDevice> dev = DynamicCast<RiflNetDevice>(c.Get(i));
        if (!dev)
        {
            continue;
        }
        Ptr<RiflChannel> ch = DynamicCast<RiflChannel>(dev->GetChannel());
        if (ch && done.insert(ch).second)
        {
            used += ch->AssignStreams(stream + used);
        }
    }
    return used;
}

void
RiflHelper::EnablePcapInternal(std::string prefix, Ptr<NetDevice> nd, bool promiscuous,
                               bool explicitFilename)
{
    Ptr<RiflNetDevice> device = nd->GetObject<RiflNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("RiflHelper::EnablePcapInternal(): device " << nd << " is not a RiflNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename
        = explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file = pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_PPP);
    pcapHelper.HookDefaultSink<RiflNetDevice>(device, promiscuous ? "PromiscSniffer" : "Sniffer",
                                              file);
}

void
RiflHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream, std::string prefix,
                                Ptr<NetDevice> nd, bool explicitFilename)
{
    Ptr<RiflNetDevice> device = nd->GetObject<RiflNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("RiflHelper::EnableAsciiInternal(): device " << nd
                                                                 << " is not a RiflNetDevice");
        return;
    }
    Packet::EnablePrinting();
    if (!stream)
    {
        AsciiTraceHelper ascii;
        const std::string filename
            = explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> file = ascii.CreateFileStream(filename);
        ascii.HookDefaultReceiveSinkWithoutContext<RiflNetDevice>(device, "MacRx", file);
        Ptr<Queue<Packet>> queue = device->GetQueue();
        ascii.HookDefaultEnqueueSinkWithoutContext<Queue<Packet>>(queue, "Enqueue", file);
        ascii.HookDefaultDropSinkWithoutContext<Queue<Packet>>(queue, "Drop", file);
        ascii.HookDefaultDequeueSinkWithoutContext<Queue<Packet>>(queue, "Dequeue", file);
        ascii.HookDefaultDropSinkWithoutContext<RiflNetDevice>(device, "PhyRxDrop", file);
        return;
    }
    const uint32_t nodeId = nd->GetNode()->GetId();
    const uint32_t deviceId = nd->GetIfIndex();
    const std::string base = "/NodeList/" + std::to_string(nodeId) + "/DeviceList/"
                             + std::to_string(deviceId) + "/$ns3::RiflNetDevice/";
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

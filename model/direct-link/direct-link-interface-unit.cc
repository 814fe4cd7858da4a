/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-interface-unit.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/rifl-check.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkInterfaceUnit");

NS_OBJECT_ENSURE_REGISTERED(DirectLinkInterfaceUnit);

TypeId
DirectLinkInterfaceUnit::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DirectLinkInterfaceUnit")
              .SetParent<Object>()
              .SetGroupName("Rifl")
              .AddConstructor<DirectLinkInterfaceUnit>()
              .AddAttribute("CpuNumber", "This CPU's number in routing words, 0..255.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::SetCpuNumber,
                                                 &DirectLinkInterfaceUnit::GetCpuNumber),
                            MakeUintegerChecker<uint32_t>(0, 255))
              .AddAttribute("RequestClass", "Message class of requests, 0..15.", UintegerValue(0),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_requestClass),
                            MakeUintegerChecker<uint32_t>(0, 15))
              .AddAttribute("ResponseClass", "Message class of responses, 0..15.", UintegerValue(1),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_responseClass),
                            MakeUintegerChecker<uint32_t>(0, 15))
              .AddAttribute("RequestVc", "VC of requests, 0..3 (spec 6: VC0).", UintegerValue(0),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_requestVc),
                            MakeUintegerChecker<uint32_t>(0, 3))
              .AddAttribute("ResponseVc", "VC of responses, 0..3 (spec 6: VC1).", UintegerValue(1),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_responseVc),
                            MakeUintegerChecker<uint32_t>(0, 3))
              .AddAttribute("OtherVc", "VC of every other message class, 0..3.", UintegerValue(3),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_otherVc),
                            MakeUintegerChecker<uint32_t>(0, 3))
              .AddAttribute("ForwardingDelay",
                            "Store-and-forward processing time of a message in transit, from its "
                            "complete reception to its offer on the output device (each "
                            "interface's receive queue is served one message at a time), "
                            "[0, 1 ms].",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&DirectLinkInterfaceUnit::m_forwardingDelay),
                            MakeTimeChecker(Seconds(0), MilliSeconds(1)))
              .AddTraceSource("LocalRx",
                              "A message addressed to this CPU was handed to the local receiver.",
                              MakeTraceSourceAccessor(&DirectLinkInterfaceUnit::m_localRxTrace),
                              "ns3::DirectLinkInterfaceUnit::MessageTracedCallback")
              .AddTraceSource("Forward",
                              "A message in transit was forwarded (value: output device index).",
                              MakeTraceSourceAccessor(&DirectLinkInterfaceUnit::m_forwardTrace),
                              "ns3::DirectLinkInterfaceUnit::ForwardTracedCallback")
              .AddTraceSource("ForwardDrop",
                              "A message was not forwarded or sent (value: DirectLinkLossReason: "
                              "NO_ROUTE, or MALFORMED for a truncated/malformed message in "
                              "transit).",
                              MakeTraceSourceAccessor(&DirectLinkInterfaceUnit::m_forwardDropTrace),
                              "ns3::DirectLinkInterfaceUnit::ForwardTracedCallback");
    return tid;
}

DirectLinkInterfaceUnit::DirectLinkInterfaceUnit()
{
    NS_LOG_FUNCTION(this);
}

DirectLinkInterfaceUnit::~DirectLinkInterfaceUnit()
{
    NS_LOG_FUNCTION(this);
}

void
DirectLinkInterfaceUnit::DoDispose()
{
    for (EventId& e : m_rxEvents)
    {
        e.Cancel();
    }
    m_devices.clear();
    m_routes.clear();
    m_rxQueues.clear();
    m_receiver.Nullify();
    Object::DoDispose();
}

void
DirectLinkInterfaceUnit::DoInitialize()
{
    UpdateCpuNumbers();
    Object::DoInitialize();
}

void
DirectLinkInterfaceUnit::AddDevice(Ptr<DirectLinkNetDevice> device)
{
    RIFL_CHECK_ARG(!device, "DirectLinkInterfaceUnit::AddDevice: device must not be null");
    if (IndexOf(device) < m_devices.size())
    {
        return;
    }
    m_devices.push_back(device);
    m_rxQueues.emplace_back();
    m_rxEvents.emplace_back();
    device->SetMessageReceiveCallback(
        MakeCallback(&DirectLinkInterfaceUnit::OnDeviceReceive, this));
    UpdateCpuNumbers();
}

uint32_t
DirectLinkInterfaceUnit::GetNDevices() const
{
    return static_cast<uint32_t>(m_devices.size());
}

Ptr<DirectLinkNetDevice>
DirectLinkInterfaceUnit::GetDevice(uint32_t i) const
{
    RIFL_CHECK_INDEX(i >= m_devices.size(),
                     "DirectLinkInterfaceUnit::GetDevice: i = " << i << " is out of range [0, "
                                                                << m_devices.size() << ")");
    return m_devices[i];
}

uint32_t
DirectLinkInterfaceUnit::IndexOf(Ptr<const DirectLinkNetDevice> device) const
{
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        if (PeekPointer(m_devices[i]) == PeekPointer(device))
        {
            return i;
        }
    }
    return static_cast<uint32_t>(m_devices.size());
}

uint32_t
DirectLinkInterfaceUnit::GetCpuNumber() const
{
    return m_cpu;
}

void
DirectLinkInterfaceUnit::SetCpuNumber(uint32_t cpu)
{
    RIFL_CHECK_ARG(cpu > 255,
                   "DirectLinkInterfaceUnit: CpuNumber = " << cpu << " is out of range [0, 255]");
    m_cpu = cpu;
    UpdateCpuNumbers();
}

void
DirectLinkInterfaceUnit::UpdateCpuNumbers()
{
    for (const auto& d : m_devices)
    {
        uint32_t peerCpu = 0;
        Ptr<DirectLinkNetDevice> peer = d->GetPeer();
        if (peer && peer->GetNode())
        {
            Ptr<DirectLinkInterfaceUnit> other
                = peer->GetNode()->GetObject<DirectLinkInterfaceUnit>();
            if (other)
            {
                peerCpu = other->GetCpuNumber();
            }
        }
        d->SetCpuNumbers(m_cpu, peerCpu);
    }
}

void
DirectLinkInterfaceUnit::SetRoute(uint32_t dstCpu, Ptr<DirectLinkNetDevice> device)
{
    RIFL_CHECK_ARG(dstCpu > 255, "DirectLinkInterfaceUnit::SetRoute: dstCpu = "
                                     << dstCpu << " is out of range [0, 255]");
    RIFL_CHECK_ARG(!device || IndexOf(device) >= m_devices.size(),
                   "DirectLinkInterfaceUnit::SetRoute: device is not one of CPU "
                       << m_cpu << "'s direct-link devices");
    m_routes[dstCpu] = device;
}

void
DirectLinkInterfaceUnit::ClearRoutes()
{
    m_routes.clear();
}

Ptr<DirectLinkNetDevice>
DirectLinkInterfaceUnit::GetRoute(uint32_t dstCpu) const
{
    auto it = m_routes.find(dstCpu);
    if (it != m_routes.end())
    {
        return it->second;
    }
    for (const auto& d : m_devices)
    {
        Ptr<DirectLinkNetDevice> peer = d->GetPeer();
        if (!peer || !peer->GetNode())
        {
            continue;
        }
        Ptr<DirectLinkInterfaceUnit> other = peer->GetNode()->GetObject<DirectLinkInterfaceUnit>();
        if (other && other->GetCpuNumber() == dstCpu)
        {
            return d;
        }
    }
    return nullptr;
}

std::vector<uint32_t>
DirectLinkInterfaceUnit::GetReachableCpus() const
{
    std::set<uint32_t> cpus;
    for (const auto& kv : m_routes)
    {
        cpus.insert(kv.first);
    }
    for (const auto& d : m_devices)
    {
        Ptr<DirectLinkNetDevice> peer = d->GetPeer();
        if (peer && peer->GetNode())
        {
            Ptr<DirectLinkInterfaceUnit> other
                = peer->GetNode()->GetObject<DirectLinkInterfaceUnit>();
            if (other)
            {
                cpus.insert(other->GetCpuNumber());
            }
        }
    }
    cpus.erase(m_cpu);
    return std::vector<uint32_t>(cpus.begin(), cpus.end());
}

uint32_t
DirectLinkInterfaceUnit::GetVcForClass(uint32_t msgClass) const
{
    if (msgClass == m_requestClass)
    {
        return m_requestVc;
    }
    if (msgClass == m_responseClass)
    {
        return m_responseVc;
    }
    return m_otherVc;
}

uint32_t
DirectLinkInterfaceUnit::GetRequestClass() const
{
    return m_requestClass;
}

uint32_t
DirectLinkInterfaceUnit::GetResponseClass() const
{
    return m_responseClass;
}

uint64_t
DirectLinkInterfaceUnit::Send(uint32_t dstCpu, uint32_t msgClass, const std::vector<uint8_t>& bytes)
{
    NS_LOG_FUNCTION(this << dstCpu << msgClass << bytes.size());
    RIFL_CHECK_ARG(dstCpu > 255 || dstCpu == m_cpu,
                   "DirectLinkInterfaceUnit::Send: dstCpu = "
                       << dstCpu << " must be another CPU in [0, 255] (this is CPU " << m_cpu
                       << ")");
    RIFL_CHECK_ARG(msgClass > 15, "DirectLinkInterfaceUnit::Send: msgClass = "
                                      << msgClass << " is out of range [0, 15]");
    Ptr<DirectLinkNetDevice> out = GetRoute(dstCpu);
    if (!out)
    {
        ++m_counters.sendFailures;
        ++m_counters.noRoute;
        DirectLinkMessage m;
        m.dstCpu = dstCpu;
        m.srcCpu = m_cpu;
        m.msgClass = msgClass;
        m.vc = GetVcForClass(msgClass);
        m.bytes = bytes;
        m.length = static_cast<uint32_t>(bytes.size());
        m_forwardDropTrace(m, static_cast<uint32_t>(DirectLinkLossReason::NO_ROUTE));
        return 0;
    }
    const uint64_t id = out->SendMessage(dstCpu, m_cpu, msgClass, GetVcForClass(msgClass), bytes);
    if (id == 0)
    {
        ++m_counters.sendFailures;
    }
    else
    {
        ++m_counters.messagesSent;
    }
    return id;
}

void
DirectLinkInterfaceUnit::SetReceiveCallback(ReceiveCallback cb)
{
    m_receiver = cb;
}

DirectLinkInterfaceUnitCounters
DirectLinkInterfaceUnit::GetCounters() const
{
    return m_counters;
}

void
DirectLinkInterfaceUnit::OnDeviceReceive(Ptr<DirectLinkNetDevice> device,
                                         const DirectLinkMessage& message)
{
    const uint32_t i = IndexOf(device);
    if (i >= m_devices.size())
    {
        return;
    }
    if (m_forwardingDelay.IsZero() && m_rxQueues[i].empty())
    {
        Handle(i, message);
        return;
    }
    m_rxQueues[i].push_back(message);
    m_counters.maxReceiveQueue
        = std::max<uint64_t>(m_counters.maxReceiveQueue, m_rxQueues[i].size());
    if (!m_rxEvents[i].IsRunning())
    {
        m_rxEvents[i] = Simulator::Schedule(m_forwardingDelay,
                                            &DirectLinkInterfaceUnit::ProcessQueue, this, i);
    }
}

void
DirectLinkInterfaceUnit::ProcessQueue(uint32_t i)
{
    if (m_rxQueues[i].empty())
    {
        return;
    }
    DirectLinkMessage m = std::move(m_rxQueues[i].front());
    m_rxQueues[i].pop_front();
    Handle(i, m);
    if (!m_rxQueues[i].empty())
    {
        m_rxEvents[i] = Simulator::Schedule(m_forwardingDelay,
                                            &DirectLinkInterfaceUnit::ProcessQueue, this, i);
    }
}

void
DirectLinkInterfaceUnit::Handle(uint32_t i, const DirectLinkMessage& m)
{
    if (m.dstCpu == m_cpu)
    {
        ++m_counters.localDelivered;
        if (m.netErr || m.ncErr || m.truncated || m.malformed)
        {
            ++m_counters.localErrored;
        }
        m_localRxTrace(m);
        if (!m_receiver.IsNull())
        {
            m_receiver(m);
        }
        return;
    }
    if (m.truncated || m.malformed)
    {
        // Store-and-forward: the message is known to be incomplete before it would be
        // forwarded; the engine offers no way to send it on with NetErr set.
        ++m_counters.forwardTruncated;
        m_forwardDropTrace(m, static_cast<uint32_t>(DirectLinkLossReason::MALFORMED));
        return;
    }
    Ptr<DirectLinkNetDevice> out = GetRoute(m.dstCpu);
    if (!out || out == m_devices[i])
    {
        ++m_counters.noRoute;
        m_devices[i]->CountLoss(m.messageId, m.vc, DirectLinkLossReason::NO_ROUTE);
        m_forwardDropTrace(m, static_cast<uint32_t>(DirectLinkLossReason::NO_ROUTE));
        return;
    }
    ++m_counters.forwarded;
    m_forwardTrace(m, IndexOf(out));
    out->SendMessage(m.dstCpu, m.srcCpu, m.msgClass, m.vc, m.bytes);
}

} // namespace ns3

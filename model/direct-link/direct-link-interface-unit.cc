/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-interface-unit.h"

#include "direct-link-device-port.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
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
              .AddAttribute("VcPolicy",
                            "VC of forwarded messages: SameVc (the VC it arrived on) or Dateline "
                            "(outVc = (same dimension as the input link ? inVc : inVc & 1) | "
                            "(output link is a dateline ? 2 : 0); local messages "
                            "VcForClass | (dateline ? 2 : 0); link classes via SetLinkClass).",
                            EnumValue(DirectLinkInterfaceUnit::SAME_VC),
                            MakeEnumAccessor(&DirectLinkInterfaceUnit::SetVcPolicy,
                                             &DirectLinkInterfaceUnit::GetVcPolicy),
                            MakeEnumChecker(DirectLinkInterfaceUnit::SAME_VC, "SameVc",
                                            DirectLinkInterfaceUnit::DATELINE, "Dateline"))
              .AddAttribute("OutputQueueMessages",
                            "Back-pressure: a forwarded or local message enters its output "
                            "device's VC queue only while fewer than this many messages wait "
                            "there; otherwise it waits at its input (in transit) or in the "
                            "injection queue (local). 0 = no limit (no back-pressure), 0..1e6.",
                            UintegerValue(4),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_outputQueue),
                            MakeUintegerChecker<uint32_t>(0, 1000000))
              .AddAttribute("InputHoldMessages",
                            "Back-pressure: when this many messages in transit wait at an input "
                            "VC, the NI stops draining that VC on the input link (no credit goes "
                            "back) until fewer wait, 1..1e6.",
                            UintegerValue(2),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_inputHold),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
              .AddAttribute("InjectionQueueLimit",
                            "Local messages waiting per output device and VC before Send "
                            "refuses one (counted lost, QUEUE_FULL), 1..1e6.",
                            UintegerValue(1024),
                            MakeUintegerAccessor(&DirectLinkInterfaceUnit::m_injectionLimit),
                            MakeUintegerChecker<uint32_t>(1, 1000000))
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
                              "A message in transit was forwarded (value: output device index); a "
                              "truncated one goes on with a NetErr tail (its truncated and netErr "
                              "flags are set).",
                              MakeTraceSourceAccessor(&DirectLinkInterfaceUnit::m_forwardTrace),
                              "ns3::DirectLinkInterfaceUnit::ForwardTracedCallback")
              .AddTraceSource("ForwardDrop",
                              "A message was not forwarded or sent (value: DirectLinkLossReason: "
                              "NO_ROUTE, or MALFORMED for a malformed message in transit).",
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
    for (const auto& p : m_ports)
    {
        p->SetTxSpaceCallback(DirectLinkPort::TxSpaceCallback());
        p->SetReceiveCallback(DirectLinkPort::ReceiveCallback());
    }
    m_ports.clear();
    m_routes.clear();
    m_rxQueues.clear();
    m_inWait.clear();
    m_localWait.clear();
    m_serveQueue.clear();
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
    if (IndexOf(device) < m_ports.size())
    {
        return;
    }
    Ptr<DirectLinkDevicePort> port = CreateObject<DirectLinkDevicePort>();
    port->SetDevice(device);
    AddPort(port);
}

void
DirectLinkInterfaceUnit::AddPort(Ptr<DirectLinkPort> port)
{
    RIFL_CHECK_ARG(!port || !port->GetNetDevice(),
                   "DirectLinkInterfaceUnit::AddPort: port must not be null and must have its "
                   "device");
    if (IndexOf(port->GetNetDevice()) < m_ports.size())
    {
        return;
    }
    m_ports.push_back(port);
    m_rxQueues.emplace_back();
    m_rxEvents.emplace_back();
    m_linkClass.emplace_back(0, false);
    m_inWait.emplace_back();
    m_localWait.emplace_back();
    m_rr.emplace_back();
    m_rr.back().fill(0);
    port->SetReceiveCallback(MakeCallback(&DirectLinkInterfaceUnit::OnPortReceive, this));
    port->SetTxSpaceCallback(MakeCallback(&DirectLinkInterfaceUnit::OnTxSpace, this));
    UpdateCpuNumbers();
}

uint32_t
DirectLinkInterfaceUnit::GetNDevices() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<DirectLinkPort>
DirectLinkInterfaceUnit::GetPort(uint32_t i) const
{
    RIFL_CHECK_INDEX(i >= m_ports.size(),
                     "DirectLinkInterfaceUnit::GetPort: i = " << i << " is out of range [0, "
                                                              << m_ports.size() << ")");
    return m_ports[i];
}

Ptr<NetDevice>
DirectLinkInterfaceUnit::GetNetDevice(uint32_t i) const
{
    RIFL_CHECK_INDEX(i >= m_ports.size(),
                     "DirectLinkInterfaceUnit::GetNetDevice: i = " << i << " is out of range [0, "
                                                                   << m_ports.size() << ")");
    return m_ports[i]->GetNetDevice();
}

Ptr<DirectLinkNetDevice>
DirectLinkInterfaceUnit::GetDevice(uint32_t i) const
{
    RIFL_CHECK_INDEX(i >= m_ports.size(),
                     "DirectLinkInterfaceUnit::GetDevice: i = " << i << " is out of range [0, "
                                                                << m_ports.size() << ")");
    return DynamicCast<DirectLinkNetDevice>(m_ports[i]->GetNetDevice());
}

uint32_t
DirectLinkInterfaceUnit::IndexOf(Ptr<const NetDevice> device) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (PeekPointer(m_ports[i]->GetNetDevice()) == PeekPointer(device))
        {
            return i;
        }
    }
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<DirectLinkInterfaceUnit>
DirectLinkInterfaceUnit::PeerDliu(uint32_t i) const
{
    Ptr<Node> peer = m_ports[i]->GetPeerNode();
    return peer ? peer->GetObject<DirectLinkInterfaceUnit>() : nullptr;
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
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Ptr<DirectLinkInterfaceUnit> other = PeerDliu(i);
        m_ports[i]->SetCpuNumbers(m_cpu, other ? other->GetCpuNumber() : 0);
    }
}

void
DirectLinkInterfaceUnit::SetRoute(uint32_t dstCpu, Ptr<NetDevice> device)
{
    RIFL_CHECK_ARG(dstCpu > 255, "DirectLinkInterfaceUnit::SetRoute: dstCpu = "
                                     << dstCpu << " is out of range [0, 255]");
    const uint32_t i = device ? IndexOf(device) : static_cast<uint32_t>(m_ports.size());
    RIFL_CHECK_ARG(i >= m_ports.size(), "DirectLinkInterfaceUnit::SetRoute: device is not "
                                        "one of CPU "
                                            << m_cpu << "'s interfaces");
    m_routes[dstCpu] = i;
}

void
DirectLinkInterfaceUnit::ClearRoutes()
{
    m_routes.clear();
}

uint32_t
DirectLinkInterfaceUnit::RouteIndex(uint32_t dstCpu) const
{
    auto it = m_routes.find(dstCpu);
    if (it != m_routes.end())
    {
        return it->second;
    }
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Ptr<DirectLinkInterfaceUnit> other = PeerDliu(i);
        if (other && other->GetCpuNumber() == dstCpu)
        {
            return i;
        }
    }
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<NetDevice>
DirectLinkInterfaceUnit::GetRoute(uint32_t dstCpu) const
{
    const uint32_t i = RouteIndex(dstCpu);
    return i < m_ports.size() ? m_ports[i]->GetNetDevice() : nullptr;
}

Ptr<DirectLinkPort>
DirectLinkInterfaceUnit::GetRoutePort(uint32_t dstCpu) const
{
    const uint32_t i = RouteIndex(dstCpu);
    return i < m_ports.size() ? m_ports[i] : nullptr;
}

std::vector<uint32_t>
DirectLinkInterfaceUnit::GetReachableCpus() const
{
    std::set<uint32_t> cpus;
    for (const auto& kv : m_routes)
    {
        cpus.insert(kv.first);
    }
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Ptr<DirectLinkInterfaceUnit> other = PeerDliu(i);
        if (other)
        {
            cpus.insert(other->GetCpuNumber());
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
    const uint32_t outIndex = RouteIndex(dstCpu);
    Waiting w;
    w.message.dstCpu = dstCpu;
    w.message.srcCpu = m_cpu;
    w.message.msgClass = msgClass;
    w.message.bytes = bytes;
    w.message.length = static_cast<uint32_t>(bytes.size());
    if (outIndex >= m_ports.size())
    {
        ++m_counters.sendFailures;
        ++m_counters.noRoute;
        w.message.vc = GetVcForClass(msgClass);
        m_forwardDropTrace(w.message, static_cast<uint32_t>(DirectLinkLossReason::NO_ROUTE));
        return 0;
    }
    w.out = outIndex;
    w.vc = LocalVc(msgClass, outIndex);
    w.message.vc = w.vc;
    CheckNotIp(w.message, w.out, w.vc);
    std::deque<Waiting>& q = m_localWait[w.out][w.vc];
    if (q.empty() && HasRoom(w.out, w.vc))
    {
        if (m_ports[w.out]->SendMessage(dstCpu, m_cpu, msgClass, w.vc, bytes,
                                        DirectLinkMessageFlags())
            == 0)
        {
            ++m_counters.sendFailures; // counted lost (QUEUE_FULL) by the device
            return 0;
        }
    }
    else if (q.size() >= m_injectionLimit)
    {
        ++m_counters.sendFailures;
        m_ports[w.out]->CountLoss(0, w.vc, DirectLinkLossReason::QUEUE_FULL);
        return 0;
    }
    else
    {
        ++m_counters.injectionWaits;
        q.push_back(std::move(w));
    }
    ++m_counters.messagesSent;
    return ++m_sendNumber;
}

void
DirectLinkInterfaceUnit::SetLinkClass(Ptr<NetDevice> device, uint32_t dimension, bool dateline)
{
    const uint32_t i = IndexOf(device);
    RIFL_CHECK_ARG(i >= m_ports.size(), "DirectLinkInterfaceUnit::SetLinkClass: device is not "
                                        "one of CPU "
                                            << m_cpu << "'s interfaces");
    RIFL_CHECK_ARG(dimension > 255, "DirectLinkInterfaceUnit::SetLinkClass: dimension = "
                                        << dimension << " is out of range [0, 255]");
    m_linkClass[i] = {dimension, dateline};
}

std::pair<uint32_t, bool>
DirectLinkInterfaceUnit::GetLinkClass(Ptr<NetDevice> device) const
{
    const uint32_t i = IndexOf(device);
    RIFL_CHECK_ARG(i >= m_ports.size(), "DirectLinkInterfaceUnit::GetLinkClass: device is not "
                                        "one of CPU "
                                            << m_cpu << "'s interfaces");
    return m_linkClass[i];
}

void
DirectLinkInterfaceUnit::SetVcPolicy(VcPolicy policy)
{
    RIFL_CHECK_ARG(policy != SAME_VC && policy != DATELINE,
                   "DirectLinkInterfaceUnit: VcPolicy = " << static_cast<int>(policy)
                                                          << " is not SameVc or Dateline");
    m_vcPolicy = policy;
}

DirectLinkInterfaceUnit::VcPolicy
DirectLinkInterfaceUnit::GetVcPolicy() const
{
    return m_vcPolicy;
}

uint32_t
DirectLinkInterfaceUnit::GetForwardVc(Ptr<NetDevice> in, uint32_t inVc, Ptr<NetDevice> out) const
{
    const uint32_t i = IndexOf(in);
    const uint32_t o = IndexOf(out);
    RIFL_CHECK_ARG(i >= m_ports.size() || o >= m_ports.size(),
                   "DirectLinkInterfaceUnit::GetForwardVc: in and out must be CPU "
                       << m_cpu << "'s interfaces");
    RIFL_CHECK_ARG(inVc >= DirectLinkConfig::NUM_VCS, "DirectLinkInterfaceUnit::GetForwardVc: "
                                                      "inVc = "
                                                          << inVc << " is out of range [0, 3]");
    return ForwardVc(i, inVc, o);
}

uint32_t
DirectLinkInterfaceUnit::ForwardVc(uint32_t in, uint32_t inVc, uint32_t out) const
{
    if (m_vcPolicy == SAME_VC)
    {
        return inVc;
    }
    const uint32_t base = (m_linkClass[in].first == m_linkClass[out].first) ? inVc : (inVc & 1U);
    return base | (m_linkClass[out].second ? 2U : 0U);
}

uint32_t
DirectLinkInterfaceUnit::GetLocalVc(uint32_t msgClass, Ptr<NetDevice> out) const
{
    const uint32_t o = IndexOf(out);
    RIFL_CHECK_ARG(o >= m_ports.size(), "DirectLinkInterfaceUnit::GetLocalVc: out must be CPU "
                                            << m_cpu << "'s interface");
    return LocalVc(msgClass, o);
}

uint32_t
DirectLinkInterfaceUnit::LocalVc(uint32_t msgClass, uint32_t out) const
{
    const uint32_t vc = GetVcForClass(msgClass);
    if (m_vcPolicy == SAME_VC)
    {
        return vc;
    }
    return vc | (m_linkClass[out].second ? 2U : 0U);
}

uint64_t
DirectLinkInterfaceUnit::GetWaitingMessages() const
{
    uint64_t n = 0;
    for (uint32_t d = 0; d < m_ports.size(); ++d)
    {
        for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
        {
            n += m_inWait[d][v].size() + m_localWait[d][v].size();
        }
    }
    return n;
}

void
DirectLinkInterfaceUnit::CheckNotIp(const DirectLinkMessage& m, uint32_t out, uint32_t vc) const
{
    RIFL_CHECK_ARG(m_ports[out]->IsIpPair(m.msgClass, vc),
                   "DirectLinkInterfaceUnit (CPU "
                       << m_cpu << "): a message of class " << m.msgClass << " would travel on VC "
                       << vc
                       << ", the output device's (IpClass, IpVc): change OtherVc, the classes or "
                          "IpVc (VcPolicy Dateline adds 2 to a VC past a dateline)");
}

bool
DirectLinkInterfaceUnit::HasRoom(uint32_t out, uint32_t vc) const
{
    return m_outputQueue == 0 || m_ports[out]->GetVcQueueLength(vc) < m_outputQueue;
}

void
DirectLinkInterfaceUnit::Emit(const Waiting& w)
{
    const DirectLinkMessage& m = w.message;
    m_ports[w.out]->SendMessage(m.dstCpu, m.srcCpu, m.msgClass, w.vc, m.bytes, w.flags);
}

void
DirectLinkInterfaceUnit::OnTxSpace(Ptr<DirectLinkPort> port, uint32_t vc)
{
    const uint32_t o = IndexOf(port->GetNetDevice());
    if (o < m_ports.size())
    {
        RequestServe(o, vc);
    }
}

void
DirectLinkInterfaceUnit::RequestServe(uint32_t out, uint32_t vc)
{
    m_serveQueue.emplace_back(out, vc);
    if (m_serving)
    {
        return;
    }
    m_serving = true;
    while (!m_serveQueue.empty())
    {
        const auto [o, v] = m_serveQueue.front();
        m_serveQueue.pop_front();
        Serve(o, v);
    }
    m_serving = false;
}

void
DirectLinkInterfaceUnit::Serve(uint32_t out, uint32_t vc)
{
    const uint32_t nIn = static_cast<uint32_t>(m_ports.size()) * DirectLinkConfig::NUM_VCS;
    const uint32_t nSrc = nIn + 1; // every (input, VC), then local
    while (HasRoom(out, vc))
    {
        bool served = false;
        for (uint32_t k = 0; k < nSrc && !served; ++k)
        {
            const uint32_t src = (m_rr[out][vc] + k) % nSrc;
            std::deque<Waiting>& q
                = src < nIn
                      ? m_inWait[src / DirectLinkConfig::NUM_VCS][src % DirectLinkConfig::NUM_VCS]
                      : m_localWait[out][vc];
            if (q.empty() || q.front().out != out || q.front().vc != vc)
            {
                continue;
            }
            Waiting w = std::move(q.front());
            q.pop_front();
            m_rr[out][vc] = (src + 1) % nSrc;
            served = true;
            if (src < nIn)
            {
                UpdateHold(src / DirectLinkConfig::NUM_VCS, src % DirectLinkConfig::NUM_VCS);
                if (!q.empty())
                {
                    RequestServe(q.front().out, q.front().vc); // the next head's output
                }
            }
            Emit(w);
        }
        if (!served)
        {
            return;
        }
    }
}

void
DirectLinkInterfaceUnit::UpdateHold(uint32_t in, uint32_t vc)
{
    const uint64_t waiting = m_inWait[in][vc].size();
    m_counters.maxInputHold = std::max(m_counters.maxInputHold, waiting);
    const bool hold = m_outputQueue != 0 && waiting >= m_inputHold;
    if (hold != m_ports[in]->GetReceiveHold(vc))
    {
        if (hold)
        {
            ++m_counters.drainHolds;
        }
        m_ports[in]->SetReceiveHold(vc, hold);
    }
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
DirectLinkInterfaceUnit::OnPortReceive(Ptr<DirectLinkPort> port, const DirectLinkMessage& message)
{
    const uint32_t i = IndexOf(port->GetNetDevice());
    if (i >= m_ports.size())
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
    if (!RiflEventPending(m_rxEvents[i]))
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
        if (m.netErr)
        {
            ++m_counters.localNetErr;
        }
        m_localRxTrace(m);
        if (!m_receiver.IsNull())
        {
            m_receiver(m);
        }
        return;
    }
    const uint32_t out = RouteIndex(m.dstCpu);
    if (out >= m_ports.size() || out == i)
    {
        ++m_counters.noRoute;
        m_ports[i]->CountLoss(m.messageId, m.vc, DirectLinkLossReason::NO_ROUTE);
        m_forwardDropTrace(m, static_cast<uint32_t>(DirectLinkLossReason::NO_ROUTE));
        return;
    }
    if (m.malformed)
    {
        // Its micro-packets do not match its routing word (an undetected error): the
        // routing word itself is not to be trusted.
        ++m_counters.forwardTruncated;
        ++m_counters.forwardMalformed;
        m_ports[i]->CountLoss(m.messageId, m.vc, DirectLinkLossReason::MALFORMED);
        m_forwardDropTrace(m, static_cast<uint32_t>(DirectLinkLossReason::MALFORMED));
        return;
    }
    Waiting w;
    w.message = m;
    w.out = out;
    w.vc = ForwardVc(i, m.vc, out);
    CheckNotIp(m, w.out, w.vc);
    w.flags.netErr = m.netErr;
    w.flags.ncErr = m.ncErr;
    if (m.truncated)
    {
        // Spec 4.2: complete the downstream copy with a tail carrying NetErr; the routing
        // word keeps the original length, so the destination sees it truncated.
        ++m_counters.forwardTruncated;
        ++m_counters.forwardedNetErr;
        w.flags.netErr = true;
        w.flags.announcedLength = std::max<uint32_t>(m.length, m.bytes.size());
    }
    ++m_counters.forwarded;
    m_forwardTrace(m, w.out);
    std::deque<Waiting>& q = m_inWait[i][m.vc];
    if (q.empty() && HasRoom(w.out, w.vc))
    {
        Emit(w);
        return;
    }
    ++m_counters.forwardWaits;
    q.push_back(std::move(w));
    UpdateHold(i, m.vc);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cpu-traffic-application.h"

#include "direct-link-interface-unit.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rifl-check.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflCpuTrafficApplication");

NS_OBJECT_ENSURE_REGISTERED(CpuTrafficApplication);

TypeId
CpuTrafficApplication::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::CpuTrafficApplication")
              .SetParent<Application>()
              .SetGroupName("Rifl")
              .AddConstructor<CpuTrafficApplication>()
              .AddAttribute("Mode",
                            "OpenLoop (requests at RequestRate) or ClosedLoop (MaxOutstanding "
                            "requests in flight).",
                            EnumValue(CpuTrafficApplication::CLOSED_LOOP),
                            MakeEnumAccessor(&CpuTrafficApplication::m_mode),
                            MakeEnumChecker(CpuTrafficApplication::OPEN_LOOP, "OpenLoop",
                                            CpuTrafficApplication::CLOSED_LOOP, "ClosedLoop"))
              .AddAttribute("RequestRate", "Open loop: requests per second, (0, 1e10].",
                            DoubleValue(1e6), MakeDoubleAccessor(&CpuTrafficApplication::m_rate),
                            MakeDoubleChecker<double>(1e-3, 1e10))
              .AddAttribute(
                  "Poisson", "Open loop: exponential gaps (true) or constant 1 / RequestRate.",
                  BooleanValue(true), MakeBooleanAccessor(&CpuTrafficApplication::m_poisson),
                  MakeBooleanChecker())
              .AddAttribute("MaxOutstanding", "Closed loop: requests in flight, 1..65536.",
                            UintegerValue(1),
                            MakeUintegerAccessor(&CpuTrafficApplication::m_window),
                            MakeUintegerChecker<uint32_t>(1, 65536))
              .AddAttribute("MaxRequests", "Requests to issue in total, 0 = unlimited.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&CpuTrafficApplication::m_maxRequests),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute(
                  "RequestBytes", "Bytes of a read request, 8..4096 (<= 10 is one micro-packet).",
                  UintegerValue(8), MakeUintegerAccessor(&CpuTrafficApplication::m_requestBytes),
                  MakeUintegerChecker<uint32_t>(8, 4096))
              .AddAttribute("ResponseBytes",
                            "Bytes of the response this CPU asks for, 4..4096 (64 = a cache "
                            "line, 4 micro-packets).",
                            UintegerValue(64),
                            MakeUintegerAccessor(&CpuTrafficApplication::m_responseBytes),
                            MakeUintegerChecker<uint32_t>(4, 4096))
              .AddAttribute(
                  "HotspotCpu", "A CPU receiving HotspotFraction of the requests, -1 = uniform.",
                  IntegerValue(-1), MakeIntegerAccessor(&CpuTrafficApplication::m_hotspot),
                  MakeIntegerChecker<int32_t>(-1, 255))
              .AddAttribute("HotspotFraction", "Fraction of requests sent to HotspotCpu, [0, 1].",
                            DoubleValue(0.0),
                            MakeDoubleAccessor(&CpuTrafficApplication::m_hotspotFraction),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("Timeout",
                            "A request without a response after this long is counted as timed "
                            "out, (0, 1 s].",
                            TimeValue(MicroSeconds(500)),
                            MakeTimeAccessor(&CpuTrafficApplication::m_timeout),
                            MakeTimeChecker(NanoSeconds(1), Seconds(1)))
              .AddAttribute("GenerateRequests", "Send requests (true) or only answer them (false).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&CpuTrafficApplication::m_generate),
                            MakeBooleanChecker())
              .AddTraceSource("Latency", "A correct response arrived (answering CPU, latency).",
                              MakeTraceSourceAccessor(&CpuTrafficApplication::m_latencyTrace),
                              "ns3::CpuTrafficApplication::LatencyTracedCallback");
    return tid;
}

CpuTrafficApplication::CpuTrafficApplication()
    : m_timeout(MicroSeconds(500))
{
    NS_LOG_FUNCTION(this);
    m_destRng = CreateObject<UniformRandomVariable>();
    m_addrRng = CreateObject<UniformRandomVariable>();
    m_arrivalRng = CreateObject<ExponentialRandomVariable>();
}

CpuTrafficApplication::~CpuTrafficApplication()
{
    NS_LOG_FUNCTION(this);
}

void
CpuTrafficApplication::DoDispose()
{
    m_next.Cancel();
    for (auto& kv : m_outstanding)
    {
        kv.second.timeout.Cancel();
    }
    m_outstanding.clear();
    m_dliu = nullptr;
    Application::DoDispose();
}

int64_t
CpuTrafficApplication::AssignStreams(int64_t stream)
{
    m_destRng->SetStream(stream);
    m_addrRng->SetStream(stream + 1);
    m_arrivalRng->SetStream(stream + 2);
    return 3;
}

void
CpuTrafficApplication::SetDestinations(const std::vector<uint32_t>& cpus)
{
    for (uint32_t c : cpus)
    {
        RIFL_CHECK_ARG(c > 255, "CpuTrafficApplication::SetDestinations: cpu = "
                                    << c << " is out of range [0, 255]");
    }
    m_destinations = cpus;
}

uint8_t
CpuTrafficApplication::Pattern(uint32_t requester, uint32_t number, uint32_t address, uint32_t i)
{
    uint32_t x = requester * 0x9E3779B1U ^ number * 0x85EBCA77U ^ address * 0xC2B2AE3DU
                 ^ (i + 1) * 0x27D4EB2FU;
    x ^= x >> 15;
    x *= 0x2C1B3C6DU;
    x ^= x >> 12;
    return static_cast<uint8_t>(x);
}

void
CpuTrafficApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_dliu = GetNode()->GetObject<DirectLinkInterfaceUnit>();
    RIFL_CHECK_ARG(!m_dliu, "CpuTrafficApplication: node " << GetNode()->GetId()
                                                           << " has no DirectLinkInterfaceUnit "
                                                              "(DirectLinkHelper::InstallDliu)");
    m_dliu->SetReceiveCallback(MakeCallback(&CpuTrafficApplication::OnMessage, this));
    if (m_destinations.empty())
    {
        m_destinations = m_dliu->GetReachableCpus();
    }
    m_running = true;
    if (!m_generate)
    {
        return;
    }
    RIFL_CHECK_ARG(m_destinations.empty(), "CpuTrafficApplication: CPU "
                                               << m_dliu->GetCpuNumber()
                                               << " has no destination to send requests to");
    if (m_mode == CLOSED_LOOP)
    {
        for (uint32_t k = 0; k < m_window && MayIssue(); ++k)
        {
            SendRequest();
        }
    }
    else
    {
        SendRequest();
        ScheduleNext();
    }
}

void
CpuTrafficApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    m_next.Cancel();
}

bool
CpuTrafficApplication::MayIssue() const
{
    return m_maxRequests == 0 || m_stats.requestsIssued + m_stats.requestsRefused < m_maxRequests;
}

void
CpuTrafficApplication::ScheduleNext()
{
    if (!m_running || !MayIssue())
    {
        return;
    }
    const double gap = m_poisson ? m_arrivalRng->GetValue(1.0 / m_rate, 0) : 1.0 / m_rate;
    m_next = Simulator::Schedule(Seconds(gap),
                                 [this]()
                                 {
                                     SendRequest();
                                     ScheduleNext();
                                 });
}

uint32_t
CpuTrafficApplication::PickDestination()
{
    if (m_hotspot >= 0 && m_hotspotFraction > 0.0
        && m_addrRng->GetValue(0.0, 1.0) < m_hotspotFraction)
    {
        return static_cast<uint32_t>(m_hotspot);
    }
    const uint32_t k = m_destRng->GetInteger(0, static_cast<uint32_t>(m_destinations.size()) - 1);
    return m_destinations[k];
}

void
CpuTrafficApplication::SendRequest()
{
    if (!m_running || !MayIssue())
    {
        return;
    }
    const uint32_t dst = PickDestination();
    const uint32_t number = m_nextNumber++;
    const uint32_t address = m_addrRng->GetInteger(0, 0xFFFF);
    std::vector<uint8_t> b(m_requestBytes);
    b[0] = number & 0xFF;
    b[1] = (number >> 8) & 0xFF;
    b[2] = (number >> 16) & 0xFF;
    b[3] = (number >> 24) & 0xFF;
    b[4] = m_responseBytes & 0xFF;
    b[5] = (m_responseBytes >> 8) & 0xFF;
    b[6] = address & 0xFF;
    b[7] = (address >> 8) & 0xFF;
    for (uint32_t i = 8; i < b.size(); ++i)
    {
        b[i] = Pattern(number, address, 0, i);
    }
    const Time now = Simulator::Now();
    // Counted before the send: a link may hand a response over while the request is
    // being sent, and the request that response lets this application issue must see
    // this one (MaxRequests).
    ++m_stats.requestsIssued;
    const uint64_t id = m_dliu->Send(dst, m_dliu->GetRequestClass(), b);
    if (id == 0)
    {
        --m_stats.requestsIssued;
        ++m_stats.requestsRefused;
        if (m_mode == CLOSED_LOOP)
        {
            m_next = Simulator::Schedule(m_timeout, &CpuTrafficApplication::SendRequest, this);
        }
        return;
    }
    Outstanding o;
    o.sent = now;
    o.dst = dst;
    o.address = address;
    o.length = m_responseBytes;
    o.timeout = Simulator::Schedule(m_timeout, &CpuTrafficApplication::OnTimeout, this, number);
    m_outstanding[number] = o;
}

void
CpuTrafficApplication::OnTimeout(uint32_t number)
{
    auto it = m_outstanding.find(number);
    if (it == m_outstanding.end())
    {
        return;
    }
    NS_LOG_INFO("CPU " << m_dliu->GetCpuNumber() << ": request " << number << " to CPU "
                       << it->second.dst << " timed out");
    ++m_stats.timeouts;
    m_timedOut[number] = it->second.dst;
    m_outstanding.erase(it);
    if (m_mode == CLOSED_LOOP)
    {
        SendRequest();
    }
}

void
CpuTrafficApplication::OnMessage(const DirectLinkMessage& m)
{
    const bool errored = m.netErr || m.ncErr || m.truncated || m.malformed;
    const uint32_t number = m.bytes.size() >= 4
                                ? (uint32_t(m.bytes[0]) | uint32_t(m.bytes[1]) << 8
                                   | uint32_t(m.bytes[2]) << 16 | uint32_t(m.bytes[3]) << 24)
                                : 0;
    if (m.msgClass == m_dliu->GetRequestClass())
    {
        if (errored || m.bytes.size() < 8)
        {
            ++m_stats.requestsErrored;
            return;
        }
        const uint32_t length = std::max<uint32_t>(4, m.bytes[4] | uint32_t(m.bytes[5]) << 8);
        const uint32_t address = m.bytes[6] | uint32_t(m.bytes[7]) << 8;
        std::vector<uint8_t> r(length);
        for (uint32_t i = 0; i < 4; ++i)
        {
            r[i] = m.bytes[i];
        }
        for (uint32_t i = 4; i < length; ++i)
        {
            r[i] = Pattern(m.srcCpu, number, address, i);
        }
        ++m_stats.requestsServed;
        m_dliu->Send(m.srcCpu, m_dliu->GetResponseClass(), r);
        return;
    }
    if (m.msgClass != m_dliu->GetResponseClass())
    {
        return;
    }
    auto it = m_outstanding.find(number);
    if (it == m_outstanding.end() || it->second.dst != m.srcCpu)
    {
        if (errored)
        {
            ++m_stats.responsesErrored;
        }
        else if (m_timedOut.count(number) != 0)
        {
            ++m_stats.responsesLate;
        }
        else
        {
            ++m_stats.responsesUnknown;
        }
        return;
    }
    Outstanding o = it->second;
    o.timeout.Cancel();
    m_outstanding.erase(it);
    if (errored)
    {
        ++m_stats.responsesErrored;
    }
    else
    {
        bool ok = m.bytes.size() == o.length;
        const uint32_t me = m_dliu->GetCpuNumber();
        for (uint32_t i = 4; ok && i < m.bytes.size(); ++i)
        {
            ok = m.bytes[i] == Pattern(me, number, o.address, i);
        }
        if (ok)
        {
            ++m_stats.responsesOk;
            m_stats.responseBytes += m.bytes.size();
            const Time lat = Simulator::Now() - o.sent;
            m_latencies.push_back(lat.GetNanoSeconds());
            m_latencyTrace(m.srcCpu, lat);
        }
        else
        {
            NS_LOG_WARN("CPU " << me << ": response " << number << " from CPU " << m.srcCpu
                               << " has bad content");
            ++m_stats.responsesBad;
        }
    }
    if (m_mode == CLOSED_LOOP)
    {
        SendRequest();
    }
}

const std::vector<int64_t>&
CpuTrafficApplication::GetLatencies() const
{
    return m_latencies;
}

CpuTrafficStats
CpuTrafficApplication::GetStats() const
{
    CpuTrafficStats s = m_stats;
    s.outstanding = m_outstanding.size();
    if (!m_latencies.empty())
    {
        std::vector<int64_t> v = m_latencies;
        std::sort(v.begin(), v.end());
        double sum = 0;
        for (int64_t x : v)
        {
            sum += static_cast<double>(x);
        }
        auto pct = [&v](double p)
        {
            const size_t n = v.size();
            size_t k = static_cast<size_t>(std::ceil(p * n));
            k = std::min(std::max<size_t>(k, 1), n);
            return static_cast<double>(v[k - 1]);
        };
        s.latencyMeanNs = sum / v.size();
        s.latencyP50Ns = pct(0.5);
        s.latencyP99Ns = pct(0.99);
        s.latencyP999Ns = pct(0.999);
        s.latencyMaxNs = static_cast<double>(v.back());
        s.latencyMinNs = static_cast<double>(v.front());
    }
    return s;
}

} // namespace ns3

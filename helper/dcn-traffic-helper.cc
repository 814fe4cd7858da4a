/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcn-traffic-helper.h"

#include "dcn-flow-size-distribution.h"
#include "dcn-topology-helper.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket-state.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflDcnTrafficHelper");

namespace
{

/**
 * \param addr an IPv4 address.
 * \param port a port.
 * \return the receiver-side key of a flow.
 */
uint64_t
PeerKey(Ipv4Address addr, uint16_t port)
{
    return (uint64_t(addr.Get()) << 16) | port;
}

/// Bytes of IPv4 + UDP headers and the PPP protocol field on every datagram.
constexpr uint32_t UDP_OVERHEAD_BYTES = 20 + 8 + 2;

} // namespace

DcnTrafficHelper::DcnTrafficHelper(const DcnTrafficConfig& c)
    : m_config(c)
{
    RIFL_CHECK_ARG(
        c.pattern != DcnTrafficConfig::PERMUTATION && c.pattern != DcnTrafficConfig::ALL_TO_ALL
            && c.pattern != DcnTrafficConfig::INCAST && c.pattern != DcnTrafficConfig::RANDOM,
        "pattern = " << int(c.pattern) << " is not a DcnTrafficConfig::Pattern");
    RIFL_CHECK_ARG(c.transport != DcnTrafficConfig::TCP && c.transport != DcnTrafficConfig::UDP,
                   "transport = " << int(c.transport) << " is not TCP (0) or UDP (1)");
    RIFL_CHECK_ARG(c.flowSizeCdf.empty() && (c.flowBytes < 1 || c.flowBytes > (1ULL << 32) - 1),
                   "flowBytes = " << c.flowBytes << " is outside [1, 2^32 - 1]");
    RIFL_CHECK_ARG(c.start.IsStrictlyNegative(),
                   "start = " << c.start.GetMicroSeconds() << " us must be >= 0");
    RIFL_CHECK_ARG(c.startJitter.IsStrictlyNegative(),
                   "startJitter = " << c.startJitter.GetNanoSeconds() << " ns must be >= 0");
    RIFL_CHECK_ARG(!(c.load > 0 && c.load <= 1), "load = " << c.load << " is outside (0, 1]");
    RIFL_CHECK_ARG(c.flowsPerHost < 1 || c.flowsPerHost > 100000,
                   "flowsPerHost = " << c.flowsPerHost << " is outside [1, 100000]");
    RIFL_CHECK_ARG(c.segmentBytes < 64 || c.segmentBytes > 8960,
                   "segmentBytes = " << c.segmentBytes << " is outside [64, 8960]");
    RIFL_CHECK_ARG(!(c.udpRateFraction > 0 && c.udpRateFraction <= 1),
                   "udpRateFraction = " << c.udpRateFraction << " is outside (0, 1]");
    RIFL_CHECK_ARG(!c.tcpMinRto.IsStrictlyPositive(),
                   "tcpMinRto = " << c.tcpMinRto.GetMicroSeconds() << " us must be > 0");
    RIFL_CHECK_ARG(c.tcpBufferBytes < 4096 || c.tcpBufferBytes > (1U << 30),
                   "tcpBufferBytes = " << c.tcpBufferBytes << " is outside [4096, 2^30]");
    RIFL_CHECK_ARG(c.port == 0, "port = 0 must be in [1, 65535]");
    m_pick = CreateObject<UniformRandomVariable>();
    m_jitter = CreateObject<UniformRandomVariable>();
    m_arrival = CreateObject<ExponentialRandomVariable>();
    m_arrival->SetAttribute("Mean", DoubleValue(1.0));
}

DcnTrafficHelper::~DcnTrafficHelper() = default;

int64_t
DcnTrafficHelper::AssignStreams(int64_t stream)
{
    RIFL_CHECK_ARG(stream < 0, "DcnTrafficHelper: stream = " << stream << " must be >= 0");
    m_pick->SetStream(stream);
    m_jitter->SetStream(stream + 1);
    m_arrival->SetStream(stream + 2);
    m_sizeStream = stream + 3;
    if (m_size)
    {
        m_size->SetStream(m_sizeStream);
    }
    return 4;
}

void
DcnTrafficHelper::SetAllCompleteCallback(Callback<void> cb)
{
    m_allComplete = cb;
}

const std::vector<DcnFlowRecord>&
DcnTrafficHelper::GetFlows() const
{
    return m_flows;
}

uint32_t
DcnTrafficHelper::GetCompletedFlows() const
{
    return m_completed;
}

const DcnTrafficConfig&
DcnTrafficHelper::GetConfig() const
{
    return m_config;
}

void
DcnTrafficHelper::Install(const DcnTopologyHelper& topo)
{
    RIFL_CHECK_ARG(m_installed, "DcnTrafficHelper: Install was already called (once per helper)");
    const DcnTrafficConfig& c = m_config;
    const NodeContainer hosts = topo.GetHosts();
    const uint32_t n = hosts.GetN();
    RIFL_CHECK_ARG(n < 2, "DcnTrafficHelper: the fabric has " << n
                                                              << " hosts, at least 2 needed "
                                                                 "(install a topology first)");
    m_installed = true;
    for (uint32_t i = 0; i < n; ++i)
    {
        m_hostNode.push_back(hosts.Get(i));
        m_hostAddr.push_back(topo.GetHostAddress(i));
    }
    m_hostRateBps = topo.GetHostLinkParameters().lineRate.GetBitRate();

    double meanBytes = static_cast<double>(c.flowBytes);
    if (!c.flowSizeCdf.empty())
    {
        const DcnFlowSizeDistribution dist = DcnFlowSizeDistribution::Load(c.flowSizeCdf);
        m_size = dist.MakeVariable(m_sizeStream);
        meanBytes = dist.GetMeanBytes();
    }
    auto drawSize = [this, &c]() -> uint64_t
    {
        if (!m_size)
        {
            return c.flowBytes;
        }
        return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(m_size->GetValue())));
    };
    auto jittered = [this, &c]() -> Time
    {
        if (!c.startJitter.IsStrictlyPositive())
        {
            return c.start;
        }
        return c.start
               + NanoSeconds(static_cast<int64_t>(
                   m_jitter->GetValue(0.0, static_cast<double>(c.startJitter.GetNanoSeconds()))));
    };
    auto add = [this](uint32_t src, uint32_t dst, uint64_t bytes, Time start)
    {
        DcnFlowRecord r;
        r.src = src;
        r.dst = dst;
        r.bytes = bytes;
        r.startNs = static_cast<double>(start.GetNanoSeconds());
        m_flows.push_back(r);
    };
    // A random order of the hosts: Fisher-Yates with the pattern stream.
    auto shuffled = [this](std::vector<uint32_t> v)
    {
        for (uint32_t i = v.size(); i > 1; --i)
        {
            std::swap(v[i - 1], v[m_pick->GetInteger(0, i - 1)]);
        }
        return v;
    };

    switch (c.pattern)
    {
        case DcnTrafficConfig::PERMUTATION:
        {
            std::vector<uint32_t> ids(n);
            for (uint32_t i = 0; i < n; ++i)
            {
                ids[i] = i;
            }
            std::vector<uint32_t> perm = shuffled(ids);
            // Remove fixed points by swapping with the next position (keeps a permutation).
            for (uint32_t i = 0; i < n; ++i)
            {
                if (perm[i] == i)
                {
                    std::swap(perm[i], perm[(i + 1) % n]);
                }
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                add(i, perm[i], drawSize(), jittered());
            }
            break;
        }
        case DcnTrafficConfig::ALL_TO_ALL:
            for (uint32_t i = 0; i < n; ++i)
            {
                for (uint32_t j = 0; j < n; ++j)
                {
                    if (i != j)
                    {
                        add(i, j, drawSize(), jittered());
                    }
                }
            }
            break;
        case DcnTrafficConfig::INCAST:
        {
            RIFL_CHECK_ARG(c.incastReceiver >= n, "incastReceiver = " << c.incastReceiver
                                                                      << " is outside [0, " << n
                                                                      << ")");
            const uint32_t senders = c.incastSenders == 0 ? n - 1 : c.incastSenders;
            RIFL_CHECK_ARG(senders > n - 1, "incastSenders = " << c.incastSenders
                                                               << " is outside [0, " << n - 1
                                                               << "] for " << n << " hosts");
            std::vector<uint32_t> others;
            for (uint32_t i = 0; i < n; ++i)
            {
                if (i != c.incastReceiver)
                {
                    others.push_back(i);
                }
            }
            if (senders < others.size())
            {
                others = shuffled(others);
                others.resize(senders);
                std::sort(others.begin(), others.end());
            }
            for (uint32_t s : others)
            {
                add(s, c.incastReceiver, drawSize(), jittered());
            }
            break;
        }
        case DcnTrafficConfig::RANDOM:
        {
            // Poisson arrivals per host: mean gap = mean size / (load x line rate).
            const double meanGapNs = meanBytes * 8.0 / (c.load * m_hostRateBps) * 1e9;
            for (uint32_t i = 0; i < n; ++i)
            {
                double t = static_cast<double>(c.start.GetNanoSeconds());
                for (uint32_t f = 0; f < c.flowsPerHost; ++f)
                {
                    t += m_arrival->GetValue() * meanGapNs;
                    uint32_t d = m_pick->GetInteger(0, n - 2);
                    d += d >= i ? 1 : 0;
                    add(i, d, drawSize(), NanoSeconds(static_cast<int64_t>(t)));
                }
            }
            break;
        }
    }
    RIFL_CHECK_ARG(m_flows.size() > 4000000,
                   "DcnTrafficHelper: " << m_flows.size() << " flows exceed the limit of 4000000");
    m_state.resize(m_flows.size());
    // Source ports fixed at the draw (per sending host, in flow order), known to every rank.
    {
        std::vector<uint32_t> nextPort(n, 1024);
        for (uint32_t i = 0; i < m_flows.size(); ++i)
        {
            DcnFlowRecord& r = m_flows[i];
            uint32_t& port = nextPort[r.src];
            port += port == c.port ? 1 : 0;
            RIFL_CHECK_ARG(port > 49151, "DcnTrafficHelper: host "
                                             << r.src
                                             << " sends more flows than source ports 1024..49151 "
                                                "(less the listening port) allow");
            r.srcPort = static_cast<uint16_t>(port++);
            m_byPeer[PeerKey(m_hostAddr[r.src], r.srcPort)] = i;
        }
    }
    auto local = [this](uint32_t host)
    {
        return m_rank == ALL_RANKS || m_hostNode[host]->GetSystemId() == m_rank;
    };

    // One listening socket per destination host.
    std::vector<bool> isDst(n, false);
    for (const DcnFlowRecord& r : m_flows)
    {
        isDst[r.dst] = true;
    }
    for (uint32_t h = 0; h < n; ++h)
    {
        if (!isDst[h] || !local(h))
        {
            continue;
        }
        Ptr<Socket> s;
        if (c.transport == DcnTrafficConfig::TCP)
        {
            s = Socket::CreateSocket(m_hostNode[h], TcpSocketFactory::GetTypeId());
            s->SetAttribute("SegmentSize", UintegerValue(c.segmentBytes));
            s->SetAttribute("RcvBufSize", UintegerValue(c.tcpBufferBytes));
            s->SetAttribute("SndBufSize", UintegerValue(c.tcpBufferBytes));
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), c.port));
            s->Listen();
            s->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                 MakeCallback(&DcnTrafficHelper::OnAccept, this));
        }
        else
        {
            s = Socket::CreateSocket(m_hostNode[h], UdpSocketFactory::GetTypeId());
            s->SetAttribute("RcvBufSize", UintegerValue(1U << 30));
            s->Bind(InetSocketAddress(Ipv4Address::GetAny(), c.port));
            s->SetRecvCallback(MakeCallback(&DcnTrafficHelper::OnReceive, this));
        }
        m_listeners.push_back(s);
    }
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        if (!local(m_flows[i].src))
        {
            continue;
        }
        const Time at = NanoSeconds(static_cast<int64_t>(m_flows[i].startNs));
        Simulator::ScheduleWithContext(m_hostNode[m_flows[i].src]->GetId(),
                                       at > now ? at - now : Time(0), &DcnTrafficHelper::StartFlow,
                                       this, i);
    }
}

void
DcnTrafficHelper::SetRank(uint32_t rank)
{
    RIFL_CHECK_ARG(m_installed, "DcnTrafficHelper::SetRank: Install was already called");
    m_rank = rank;
}

void
DcnTrafficHelper::MergeFlows(std::vector<DcnFlowRecord>& into,
                             const std::vector<DcnFlowRecord>& from)
{
    RIFL_CHECK_ARG(into.size() != from.size(), "DcnTrafficHelper::MergeFlows: "
                                                   << into.size() << " and " << from.size()
                                                   << " flows (not the same draw)");
    for (std::size_t i = 0; i < into.size(); ++i)
    {
        DcnFlowRecord& a = into[i];
        const DcnFlowRecord& b = from[i];
        RIFL_CHECK_ARG(a.src != b.src || a.dst != b.dst || a.bytes != b.bytes,
                       "DcnTrafficHelper::MergeFlows: flow " << i << " differs (not the same draw)");
        a.endNs = std::max(a.endNs, b.endNs);
        a.fctNs = std::max(a.fctNs, b.fctNs);
        a.bytesReceived += b.bytesReceived;
        a.completed = a.completed || b.completed;
        a.retransmissions += b.retransmissions;
        a.timeouts += b.timeouts;
        a.datagramsSent += b.datagramsSent;
    }
}

void
DcnTrafficHelper::StartFlow(uint32_t i)
{
    const DcnTrafficConfig& c = m_config;
    DcnFlowRecord& r = m_flows[i];
    FlowState& st = m_state[i];
    st.node = m_hostNode[r.src];
    st.to = InetSocketAddress(m_hostAddr[r.dst], c.port);
    r.startNs = static_cast<double>(Simulator::Now().GetNanoSeconds());
    if (c.transport == DcnTrafficConfig::TCP)
    {
        Ptr<Socket> s = Socket::CreateSocket(st.node, TcpSocketFactory::GetTypeId());
        s->SetAttribute("SegmentSize", UintegerValue(c.segmentBytes));
        s->SetAttribute("SndBufSize", UintegerValue(c.tcpBufferBytes));
        s->SetAttribute("RcvBufSize", UintegerValue(c.tcpBufferBytes));
        s->SetAttribute("ConnTimeout", TimeValue(c.tcpMinRto));
        s->SetAttribute("MinRto", TimeValue(c.tcpMinRto));
        s->SetAttribute("ClockGranularity", TimeValue(std::min(c.tcpMinRto, MilliSeconds(1))));
        s->TraceConnectWithoutContext(
            "Tx",
            RiflMakeCallback<void, Ptr<const Packet>, const TcpHeader&, Ptr<const TcpSocketBase>>(
                std::function<void(Ptr<const Packet>, const TcpHeader&, Ptr<const TcpSocketBase>)>(
                    [this, i](Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> so)
                    {
                        OnTcpTx(i, p, h, so);
                    })));
        s->TraceConnectWithoutContext(
            "CongState",
            RiflMakeCallback<void, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t>(
                std::function<void(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t)>(
                    [this, i](TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
                    {
                        if (now == TcpSocketState::CA_LOSS)
                        {
                            ++m_flows[i].timeouts;
                        }
                    })));
        NS_ABORT_MSG_IF(s->Bind(InetSocketAddress(Ipv4Address::GetAny(), r.srcPort)) != 0,
                        "DcnTrafficHelper: flow " << i << " cannot bind source port "
                                                  << r.srcPort);
        s->SetConnectCallback(RiflMakeCallback<void, Ptr<Socket>>(std::function<void(Ptr<Socket>)>(
                                  [this, i](Ptr<Socket>)
                                  {
                                      FillTcp(i);
                                  })),
                              MakeNullCallback<void, Ptr<Socket>>());
        s->SetSendCallback(RiflMakeCallback<void, Ptr<Socket>, uint32_t>(
            std::function<void(Ptr<Socket>, uint32_t)>(
                [this, i](Ptr<Socket>, uint32_t)
                {
                    FillTcp(i);
                })));
        st.socket = s;
        s->Connect(st.to);
    }
    else
    {
        Ptr<Socket> s = Socket::CreateSocket(st.node, UdpSocketFactory::GetTypeId());
        NS_ABORT_MSG_IF(s->Bind(InetSocketAddress(Ipv4Address::GetAny(), r.srcPort)) != 0,
                        "DcnTrafficHelper: flow " << i << " cannot bind source port "
                                                  << r.srcPort);
        s->Connect(st.to);
        st.socket = s;
        const double rate = c.udpRateFraction * static_cast<double>(m_hostRateBps);
        st.gap = NanoSeconds(static_cast<int64_t>(
            std::ceil((c.segmentBytes + UDP_OVERHEAD_BYTES) * 8.0 / rate * 1e9)));
        SendUdp(i);
    }
}

void
DcnTrafficHelper::FillTcp(uint32_t i)
{
    FlowState& st = m_state[i];
    const uint64_t bytes = m_flows[i].bytes;
    while (st.written < bytes)
    {
        const uint32_t avail = st.socket->GetTxAvailable();
        if (avail == 0)
        {
            break;
        }
        const uint32_t n
            = static_cast<uint32_t>(std::min<uint64_t>({avail, bytes - st.written, 1U << 20}));
        const int sent = st.socket->Send(Create<Packet>(n));
        if (sent <= 0)
        {
            break;
        }
        st.written += static_cast<uint32_t>(sent);
        if (st.written == bytes)
        {
            st.socket->Close(); // FIN after the data
        }
    }
}

void
DcnTrafficHelper::SendUdp(uint32_t i)
{
    FlowState& st = m_state[i];
    DcnFlowRecord& r = m_flows[i];
    const uint32_t n
        = static_cast<uint32_t>(std::min<uint64_t>(m_config.segmentBytes, r.bytes - st.written));
    st.socket->Send(Create<Packet>(n));
    st.written += n;
    ++r.datagramsSent;
    if (st.written < r.bytes)
    {
        Simulator::Schedule(st.gap, &DcnTrafficHelper::SendUdp, this, i);
    }
    else
    {
        st.socket->Close();
    }
}

void
DcnTrafficHelper::OnAccept(Ptr<Socket> s, const Address& from)
{
    const InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
    auto it = m_byPeer.find(PeerKey(a.GetIpv4(), a.GetPort()));
    if (it == m_byPeer.end())
    {
        NS_LOG_WARN("connection from unknown peer " << a.GetIpv4() << ":" << a.GetPort());
        return;
    }
    m_acceptedBy[PeekPointer(s)] = it->second;
    m_accepted.push_back(s);
    s->SetRecvCallback(MakeCallback(&DcnTrafficHelper::OnReceive, this));
}

void
DcnTrafficHelper::OnReceive(Ptr<Socket> s)
{
    if (m_config.transport == DcnTrafficConfig::TCP)
    {
        auto it = m_acceptedBy.find(PeekPointer(s));
        Ptr<Packet> p;
        while ((p = s->Recv()))
        {
            if (it != m_acceptedBy.end())
            {
                Deliver(it->second, p->GetSize());
            }
        }
        return;
    }
    Address from;
    Ptr<Packet> p;
    while ((p = s->RecvFrom(from)))
    {
        const InetSocketAddress a = InetSocketAddress::ConvertFrom(from);
        auto it = m_byPeer.find(PeerKey(a.GetIpv4(), a.GetPort()));
        if (it != m_byPeer.end())
        {
            Deliver(it->second, p->GetSize());
        }
    }
}

void
DcnTrafficHelper::Deliver(uint32_t i, uint64_t bytes)
{
    DcnFlowRecord& r = m_flows[i];
    r.bytesReceived += bytes;
    if (!r.completed && r.bytesReceived >= r.bytes)
    {
        r.completed = true;
        r.endNs = static_cast<double>(Simulator::Now().GetNanoSeconds());
        r.fctNs = r.endNs - r.startNs;
        ++m_completed;
        if (m_completed == m_flows.size() && !m_allComplete.IsNull())
        {
            m_allComplete();
        }
    }
}

void
DcnTrafficHelper::OnTcpTx(uint32_t i, Ptr<const Packet> p, const TcpHeader& h,
                          Ptr<const TcpSocketBase>)
{
    const uint32_t size = p->GetSize();
    if (size == 0)
    {
        return;
    }
    FlowState& st = m_state[i];
    const uint64_t seq = h.GetSequenceNumber().GetValue();
    if (seq < st.highestEnd)
    {
        ++m_flows[i].retransmissions;
    }
    st.highestEnd = std::max(st.highestEnd, seq + size);
}

} // namespace ns3

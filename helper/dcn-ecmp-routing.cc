/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcn-ecmp-routing.h"

#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/output-stream-wrapper.h"
#include "ns3/packet.h"

#include <deque>
#include <ostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflDcnEcmpRouting");

NS_OBJECT_ENSURE_REGISTERED(DcnEcmpRouting);

namespace
{

/**
 * \brief SplitMix64 finaliser: a well-mixed 64-bit hash step.
 * \param x the input.
 * \return the mixed value.
 */
uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

void
DcnRouteTable::ComputeDistances()
{
    const uint32_t n = GetNNodes();
    dist.assign(static_cast<std::size_t>(nHosts) * n, 0xffff);
    std::deque<uint32_t> queue;
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        uint16_t* d = &dist[static_cast<std::size_t>(h) * n];
        d[h] = 0;
        queue.assign(1, h);
        while (!queue.empty())
        {
            const uint32_t u = queue.front();
            queue.pop_front();
            for (const Port& p : ports[u])
            {
                if (d[p.neighbour] == 0xffff)
                {
                    d[p.neighbour] = d[u] + 1;
                    // Hosts are endpoints, never transit nodes.
                    if (p.neighbour >= nHosts)
                    {
                        queue.push_back(p.neighbour);
                    }
                }
            }
        }
    }
}

TypeId
DcnEcmpRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcnEcmpRouting")
                            .SetParent<Ipv4RoutingProtocol>()
                            .SetGroupName("Rifl")
                            .AddConstructor<DcnEcmpRouting>();
    return tid;
}

DcnEcmpRouting::DcnEcmpRouting() = default;

DcnEcmpRouting::~DcnEcmpRouting() = default;

void
DcnEcmpRouting::DoDispose()
{
    m_ipv4 = nullptr;
    m_table.reset();
    Ipv4RoutingProtocol::DoDispose();
}

void
DcnEcmpRouting::SetTable(std::shared_ptr<const DcnRouteTable> table, uint32_t node)
{
    m_table = std::move(table);
    m_node = node;
}

std::vector<uint32_t>
DcnEcmpRouting::GetNextHops(uint32_t host) const
{
    std::vector<uint32_t> out;
    if (!m_table || host >= m_table->nHosts)
    {
        return out;
    }
    const uint16_t here = m_table->Distance(host, m_node);
    if (here == 0 || here == 0xffff)
    {
        return out;
    }
    const auto& ports = m_table->ports[m_node];
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        if (m_table->Distance(host, ports[i].neighbour) + 1 == here)
        {
            out.push_back(i);
        }
    }
    return out;
}

uint64_t
DcnEcmpRouting::FlowHash(const Ipv4Header& header, Ptr<const Packet> payload) const
{
    uint64_t h = Mix(0x5d1f00dULL + m_node);
    h = Mix(h ^ header.GetSource().Get());
    h = Mix(h ^ header.GetDestination().Get());
    h = Mix(h ^ header.GetProtocol());
    const uint8_t proto = header.GetProtocol();
    if (payload && (proto == 6 || proto == 17) && payload->GetSize() >= 4)
    {
        uint8_t ports[4];
        payload->CopyData(ports, 4);
        h = Mix(h
                ^ ((uint64_t(ports[0]) << 24) | (uint64_t(ports[1]) << 16)
                   | (uint64_t(ports[2]) << 8) | ports[3]));
    }
    return h;
}

uint64_t
DcnEcmpRouting::GetRoutedPackets() const
{
    return m_routed;
}

Ptr<Ipv4Route>
DcnEcmpRouting::Lookup(const Ipv4Header& header, Ptr<const Packet> payload,
                       Ptr<NetDevice> oif) const
{
    if (!m_table || !m_ipv4)
    {
        return nullptr;
    }
    auto it = m_table->hostByAddress.find(header.GetDestination().Get());
    if (it == m_table->hostByAddress.end())
    {
        return nullptr;
    }
    // Count the equal-cost next hops, then take the hash-th (no allocation per packet).
    const uint32_t host = it->second;
    const uint16_t here = m_table->Distance(host, m_node);
    if (here == 0 || here == 0xffff)
    {
        return nullptr;
    }
    const auto& ports = m_table->ports[m_node];
    auto eligible = [&](uint32_t i)
    {
        return m_table->Distance(host, ports[i].neighbour) + 1 == here
               && (!oif || m_ipv4->GetNetDevice(ports[i].interface) == oif);
    };
    uint32_t n = 0;
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        n += eligible(i) ? 1 : 0;
    }
    if (n == 0)
    {
        return nullptr;
    }
    uint32_t want = n == 1 ? 0 : static_cast<uint32_t>(FlowHash(header, payload) % n);
    uint32_t pick = 0;
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        if (eligible(i) && want-- == 0)
        {
            pick = i;
            break;
        }
    }
    const DcnRouteTable::Port& port = m_table->ports[m_node][pick];
    Ptr<Ipv4Route> r = Create<Ipv4Route>();
    r->SetDestination(header.GetDestination());
    r->SetSource(m_ipv4->GetAddress(port.interface, 0).GetLocal());
    r->SetGateway(port.gateway);
    r->SetOutputDevice(m_ipv4->GetNetDevice(port.interface));
    ++m_routed;
    return r;
}

Ptr<Ipv4Route>
DcnEcmpRouting::RouteOutput(Ptr<Packet> p, const Ipv4Header& header, Ptr<NetDevice> oif,
                            Socket::SocketErrno& sockerr)
{
    // The transport header is not on the packet yet: hash the addresses only.
    Ptr<Ipv4Route> r = Lookup(header, nullptr, oif);
    sockerr = r ? Socket::ERROR_NOTERROR : Socket::ERROR_NOROUTETOHOST;
    return r;
}

bool
DcnEcmpRouting::RouteInput(Ptr<const Packet> p, const Ipv4Header& header, Ptr<const NetDevice> idev,
                           UnicastForwardCallback ucb, MulticastForwardCallback mcb,
                           LocalDeliverCallback lcb, ErrorCallback ecb)
{
    // Ipv4ListRouting has already delivered local packets and checked forwarding.
    Ptr<Ipv4Route> r = Lookup(header, p, nullptr);
    if (!r)
    {
        return false;
    }
    ucb(r, p, header);
    return true;
}

void
DcnEcmpRouting::NotifyInterfaceUp(uint32_t)
{
}

void
DcnEcmpRouting::NotifyInterfaceDown(uint32_t)
{
}

void
DcnEcmpRouting::NotifyAddAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
DcnEcmpRouting::NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress)
{
}

void
DcnEcmpRouting::SetIpv4(Ptr<Ipv4> ipv4)
{
    m_ipv4 = ipv4;
}

void
DcnEcmpRouting::PrintRoutingTable(Ptr<OutputStreamWrapper> stream, Time::Unit) const
{
    std::ostream& os = *stream->GetStream();
    os << "DcnEcmpRouting node index " << m_node << ": per-flow ECMP toward "
       << (m_table ? m_table->nHosts : 0) << " hosts\n";
    if (!m_table)
    {
        return;
    }
    for (const auto& [addr, host] : m_table->hostByAddress)
    {
        os << "  " << Ipv4Address(addr) << " via";
        for (uint32_t i : GetNextHops(host))
        {
            os << " " << m_table->ports[m_node][i].gateway << " (if "
               << m_table->ports[m_node][i].interface << ")";
        }
        os << "\n";
    }
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "multiprocessor-topology-helper.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/direct-link-port.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-message-port.h"
#include "ns3/rifl-net-device.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/topological_sort.hpp>
#include <boost/graph/visitors.hpp>

#include <iterator>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MultiprocessorTopologyHelper");

namespace
{
/// Largest number of CPUs (8-bit CPU numbers).
constexpr uint32_t MAX_CPUS = 256;
/// Undirected topology graph.
using TopologyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
/// Directed channel dependency graph.
using DependencyGraph = boost::adjacency_list<boost::setS, boost::vecS, boost::directedS>;
} // namespace

MultiprocessorTopologyHelper::MultiprocessorTopologyHelper()
{
    m_portFactory.SetTypeId("ns3::RiflMessagePort");
}

MultiprocessorTopologyHelper::MultiprocessorTopologyHelper(const DirectLinkHelper& links)
    : m_links(links)
{
    m_portFactory.SetTypeId("ns3::RiflMessagePort");
}

void
MultiprocessorTopologyHelper::SetLinkTechnology(LinkTechnology technology)
{
    RIFL_CHECK_ARG(technology != DIRECT_LINK && technology != RIFL,
                   "MultiprocessorTopologyHelper::SetLinkTechnology: technology = "
                       << static_cast<int>(technology) << " is not DIRECT_LINK or RIFL");
    m_technology = technology;
}

MultiprocessorTopologyHelper::LinkTechnology
MultiprocessorTopologyHelper::GetLinkTechnology() const
{
    return m_technology;
}

void
MultiprocessorTopologyHelper::SetRiflHelper(const RiflHelper& links)
{
    m_rifl = links;
}

RiflHelper&
MultiprocessorTopologyHelper::GetRiflHelper()
{
    return m_rifl;
}

void
MultiprocessorTopologyHelper::SetRiflPortAttribute(std::string name, const AttributeValue& value)
{
    m_portFactory.Set(name, value);
}

void
MultiprocessorTopologyHelper::SetLinkHelper(const DirectLinkHelper& links)
{
    m_links = links;
}

DirectLinkHelper&
MultiprocessorTopologyHelper::GetLinkHelper()
{
    return m_links;
}

void
MultiprocessorTopologyHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_links.SetDeviceAttribute(name, value);
}

void
MultiprocessorTopologyHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_links.SetChannelAttribute(name, value);
}

void
MultiprocessorTopologyHelper::SetDliuAttribute(std::string name, const AttributeValue& value)
{
    m_links.SetDliuAttribute(name, value);
}

void
MultiprocessorTopologyHelper::SetDeadlockAvoidance(DeadlockAvoidance mode)
{
    RIFL_CHECK_ARG(mode != NO_AVOIDANCE && mode != DATELINE_ROUTING && mode != DATELINE_VCS,
                   "MultiprocessorTopologyHelper::SetDeadlockAvoidance: mode = "
                       << static_cast<int>(mode)
                       << " is not NO_AVOIDANCE, DATELINE_ROUTING or DATELINE_VCS");
    m_avoidance = mode;
}

MultiprocessorTopologyHelper::DeadlockAvoidance
MultiprocessorTopologyHelper::GetDeadlockAvoidance() const
{
    return m_avoidance;
}

void
MultiprocessorTopologyHelper::SetRanks(uint32_t ranks)
{
    RIFL_CHECK_ARG(ranks < 1 || ranks > MAX_CPUS, "MultiprocessorTopologyHelper::SetRanks: ranks = "
                                                      << ranks << " is out of range [1, "
                                                      << MAX_CPUS << "]");
    m_ranks = ranks;
}

uint32_t
MultiprocessorTopologyHelper::GetRanks() const
{
    return m_ranks;
}

uint32_t
MultiprocessorTopologyHelper::GetRank(uint32_t i) const
{
    RIFL_CHECK_INDEX(i >= m_rankOfCpu.size(), "MultiprocessorTopologyHelper::GetRank: i = "
                                                  << i << " is out of range [0, "
                                                  << m_rankOfCpu.size() << ")");
    return m_rankOfCpu[i];
}

void
MultiprocessorTopologyHelper::SetSplitRemoteLinks(bool split)
{
    m_splitRemote = split;
}

uint32_t
MultiprocessorTopologyHelper::GetNLinksAcrossRanks() const
{
    return m_linksAcrossRanks;
}

void
MultiprocessorTopologyHelper::Begin(uint32_t n, Topology topology)
{
    RIFL_CHECK_ARG(m_ranks > n, "MultiprocessorTopologyHelper: ranks = "
                                    << m_ranks << " exceeds the " << n
                                    << " CPUs it spreads over (SetRanks)");
    m_rankOfCpu.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        m_rankOfCpu[i] = static_cast<uint32_t>(uint64_t{i} * m_ranks / n);
    }
    m_linksAcrossRanks = 0;
    m_topology = topology;
    m_cpus = NodeContainer();
    for (uint32_t i = 0; i < n; ++i)
    {
        // on ns-3 MPI the rank is the node's system id (a link between ranks then runs as
        // two halves on their ranks); without MPI every node stays on system id 0
        uint32_t systemId = 0;
#ifdef NS3_MPI
        if (MpiInterface::IsEnabled())
        {
            systemId = m_rankOfCpu[i];
        }
#endif
        m_cpus.Add(CreateObject<Node>(systemId));
    }
    m_dlius.clear();
    m_ifs.assign(n, {});
    m_linkDevs.clear();
    m_dist.clear();
    // DLIUs first, so that every device added later sees its peer's CPU number.
    for (uint32_t i = 0; i < n; ++i)
    {
        m_dlius.push_back(m_links.InstallDliu(m_cpus.Get(i), i));
    }
}

void
MultiprocessorTopologyHelper::Connect(uint32_t a, uint32_t b)
{
    if (a > b)
    {
        std::swap(a, b);
    }
    NS_ASSERT(a != b && m_ifs[a].count(b) == 0);
    NetDeviceContainer d = m_technology == RIFL ? m_rifl.Install(m_cpus.Get(a), m_cpus.Get(b))
                                                : m_links.Install(m_cpus.Get(a), m_cpus.Get(b));
    if (m_rankOfCpu[a] != m_rankOfCpu[b])
    {
        ++m_linksAcrossRanks;
        if (m_splitRemote)
        {
            // the channel starts when the simulation does: the attribute is still open
            d.Get(0)->GetChannel()->SetAttribute("Split", BooleanValue(true));
        }
    }
    m_ifs[a][b] = d.Get(0);
    m_ifs[b][a] = d.Get(1);
    if (m_technology == RIFL)
    {
        for (uint32_t k = 0; k < 2; ++k)
        {
            Ptr<RiflMessagePort> port = m_portFactory.Create<RiflMessagePort>();
            port->SetDevice(DynamicCast<RiflNetDevice>(d.Get(k)));
            m_dlius[k == 0 ? a : b]->AddPort(port);
        }
    }
    else
    {
        m_dlius[a]->AddDevice(DynamicCast<DirectLinkNetDevice>(d.Get(0)));
        m_dlius[b]->AddDevice(DynamicCast<DirectLinkNetDevice>(d.Get(1)));
    }
    m_linkDevs.push_back(d);
}

NodeContainer
MultiprocessorTopologyHelper::FullMesh(uint32_t n)
{
    RIFL_CHECK_ARG(n < 2 || n > MAX_CPUS, "MultiprocessorTopologyHelper::FullMesh: n = "
                                              << n << " is out of range [2, " << MAX_CPUS << "]");
    m_x = n;
    m_y = 1;
    m_dim = 0;
    Begin(n, FULL_MESH);
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = a + 1; b < n; ++b)
        {
            Connect(a, b);
        }
    }
    Finish();
    return m_cpus;
}

NodeContainer
MultiprocessorTopologyHelper::Ring(uint32_t n)
{
    RIFL_CHECK_ARG(n < 3 || n > MAX_CPUS, "MultiprocessorTopologyHelper::Ring: n = "
                                              << n << " is out of range [3, " << MAX_CPUS << "]");
    m_x = n;
    m_y = 1;
    m_dim = 0;
    Begin(n, RING);
    for (uint32_t a = 0; a < n; ++a)
    {
        Connect(a, (a + 1) % n);
    }
    Finish();
    return m_cpus;
}

NodeContainer
MultiprocessorTopologyHelper::Mesh2D(uint32_t x, uint32_t y)
{
    RIFL_CHECK_ARG(x < 1 || x > MAX_CPUS, "MultiprocessorTopologyHelper::Mesh2D: x = "
                                              << x << " is out of range [1, " << MAX_CPUS << "]");
    RIFL_CHECK_ARG(y < 1 || y > MAX_CPUS, "MultiprocessorTopologyHelper::Mesh2D: y = "
                                              << y << " is out of range [1, " << MAX_CPUS << "]");
    RIFL_CHECK_ARG(x * y < 2 || x * y > MAX_CPUS, "MultiprocessorTopologyHelper::Mesh2D: x * y = "
                                                      << x << " * " << y << " = " << x * y
                                                      << " is out of range [2, " << MAX_CPUS
                                                      << "]");
    m_x = x;
    m_y = y;
    m_dim = 0;
    Begin(x * y, MESH_2D);
    for (uint32_t j = 0; j < y; ++j)
    {
        for (uint32_t i = 0; i < x; ++i)
        {
            if (i + 1 < x)
            {
                Connect(GetCpuAt(i, j), GetCpuAt(i + 1, j));
            }
            if (j + 1 < y)
            {
                Connect(GetCpuAt(i, j), GetCpuAt(i, j + 1));
            }
        }
    }
    Finish();
    return m_cpus;
}

NodeContainer
MultiprocessorTopologyHelper::Torus2D(uint32_t x, uint32_t y)
{
    RIFL_CHECK_ARG(x < 3 || x > MAX_CPUS / 3,
                   "MultiprocessorTopologyHelper::Torus2D: x = " << x << " is out of range [3, "
                                                                 << MAX_CPUS / 3 << "]");
    RIFL_CHECK_ARG(y < 3 || y > MAX_CPUS / 3,
                   "MultiprocessorTopologyHelper::Torus2D: y = " << y << " is out of range [3, "
                                                                 << MAX_CPUS / 3 << "]");
    RIFL_CHECK_ARG(x * y > MAX_CPUS, "MultiprocessorTopologyHelper::Torus2D: x * y = "
                                         << x << " * " << y << " = " << x * y
                                         << " is out of range [9, " << MAX_CPUS << "]");
    m_x = x;
    m_y = y;
    m_dim = 0;
    Begin(x * y, TORUS_2D);
    for (uint32_t j = 0; j < y; ++j)
    {
        for (uint32_t i = 0; i < x; ++i)
        {
            Connect(GetCpuAt(i, j), GetCpuAt((i + 1) % x, j));
            Connect(GetCpuAt(i, j), GetCpuAt(i, (j + 1) % y));
        }
    }
    Finish();
    return m_cpus;
}

NodeContainer
MultiprocessorTopologyHelper::Hypercube(uint32_t dim)
{
    RIFL_CHECK_ARG(dim < 1 || dim > 8, "MultiprocessorTopologyHelper::Hypercube: dim = "
                                           << dim << " is out of range [1, 8]");
    const uint32_t n = 1u << dim;
    m_x = n;
    m_y = 1;
    m_dim = dim;
    Begin(n, HYPERCUBE);
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = 0; b < dim; ++b)
        {
            const uint32_t c = a ^ (1u << b);
            if (a < c)
            {
                Connect(a, c);
            }
        }
    }
    Finish();
    return m_cpus;
}

int32_t
MultiprocessorTopologyHelper::RingDirection(uint32_t pos, uint32_t dst, uint32_t k) const
{
    const uint32_t plus = (dst + k - pos) % k;
    const uint32_t minus = (pos + k - dst) % k;
    if (m_avoidance == DATELINE_ROUTING)
    {
        // "+" crosses the dateline (k-1 -> 0) iff dst < pos; allowed only as its last hop.
        const bool plusOk = dst > pos || dst == 0;
        // "-" crosses it (0 -> k-1) iff dst > pos; allowed only as its last hop.
        const bool minusOk = dst < pos || dst == k - 1;
        if (plusOk && !minusOk)
        {
            return 1;
        }
        if (minusOk && !plusOk)
        {
            return -1;
        }
    }
    return plus <= minus ? 1 : -1;
}

uint32_t
MultiprocessorTopologyHelper::NextHop(uint32_t cur, uint32_t dst) const
{
    switch (m_topology)
    {
        case FULL_MESH:
            return dst;
        case RING:
        {
            const int32_t d = RingDirection(cur, dst, m_x);
            return (cur + m_x + d) % m_x;
        }
        case MESH_2D:
        case TORUS_2D:
        {
            auto [cx, cy] = GetCoordinates(cur);
            auto [dx, dy] = GetCoordinates(dst);
            if (cx != dx)
            {
                if (m_topology == MESH_2D)
                {
                    return GetCpuAt(dx > cx ? cx + 1 : cx - 1, cy);
                }
                return GetCpuAt((cx + m_x + RingDirection(cx, dx, m_x)) % m_x, cy);
            }
            if (m_topology == MESH_2D)
            {
                return GetCpuAt(cx, dy > cy ? cy + 1 : cy - 1);
            }
            return GetCpuAt(cx, (cy + m_y + RingDirection(cy, dy, m_y)) % m_y);
        }
        case HYPERCUBE:
        {
            const uint32_t diff = cur ^ dst;
            return cur ^ (diff & (~diff + 1));
        }
        default:
            NS_ABORT_MSG("MultiprocessorTopologyHelper: nothing built");
    }
    return dst;
}

void
MultiprocessorTopologyHelper::Finish()
{
    const uint32_t n = m_cpus.GetN();
    TopologyGraph g(n);
    for (uint32_t a = 0; a < n; ++a)
    {
        for (const auto& kv : m_ifs[a])
        {
            if (a < kv.first)
            {
                boost::add_edge(a, kv.first, g);
            }
        }
    }
    m_dist.assign(n, std::vector<uint32_t>(n, std::numeric_limits<uint32_t>::max()));
    for (uint32_t s = 0; s < n; ++s)
    {
        std::vector<uint32_t>& d = m_dist[s];
        d[s] = 0;
        boost::breadth_first_search(g, boost::vertex(s, g),
                                    boost::visitor(boost::make_bfs_visitor(
                                        boost::record_distances(d.data(), boost::on_tree_edge()))));
    }
    const bool vcSwitch
        = m_avoidance == DATELINE_VCS && (m_topology == RING || m_topology == TORUS_2D);
    for (uint32_t i = 0; i < n; ++i)
    {
        m_dlius[i]->SetVcPolicy(vcSwitch ? DirectLinkInterfaceUnit::DATELINE
                                         : DirectLinkInterfaceUnit::SAME_VC);
        for (const auto& kv : m_ifs[i])
        {
            uint32_t dim = 0;
            if (m_topology == TORUS_2D || m_topology == MESH_2D)
            {
                dim = GetCoordinates(i).second == GetCoordinates(kv.first).second ? 0 : 1;
            }
            else if (m_topology == HYPERCUBE)
            {
                const uint32_t diff = i ^ kv.first;
                while ((diff >> dim) > 1)
                {
                    ++dim;
                }
            }
            m_dlius[i]->SetLinkClass(kv.second, dim, IsDateline(i, kv.first));
        }
        m_dlius[i]->ClearRoutes();
        for (uint32_t j = 0; j < n; ++j)
        {
            if (i == j)
            {
                continue;
            }
            const uint32_t next = NextHop(i, j);
            auto it = m_ifs[i].find(next);
            NS_ABORT_MSG_IF(it == m_ifs[i].end(), "MultiprocessorTopologyHelper: next hop "
                                                      << next << " of " << i << " is no neighbour");
            m_dlius[i]->SetRoute(j, it->second);
        }
    }
}

MultiprocessorTopologyHelper::Topology
MultiprocessorTopologyHelper::GetTopology() const
{
    return m_topology;
}

uint32_t
MultiprocessorTopologyHelper::GetNCpus() const
{
    return m_cpus.GetN();
}

NodeContainer
MultiprocessorTopologyHelper::GetCpus() const
{
    return m_cpus;
}

void
MultiprocessorTopologyHelper::CheckCpu(uint32_t i, const char* caller) const
{
    RIFL_CHECK_INDEX(i >= m_cpus.GetN(), "MultiprocessorTopologyHelper::" << caller << ": CPU " << i
                                                                          << " is out of range [0, "
                                                                          << m_cpus.GetN() << ")");
}

Ptr<Node>
MultiprocessorTopologyHelper::GetCpu(uint32_t i) const
{
    CheckCpu(i, "GetCpu");
    return m_cpus.Get(i);
}

Ptr<DirectLinkInterfaceUnit>
MultiprocessorTopologyHelper::GetDliu(uint32_t i) const
{
    CheckCpu(i, "GetDliu");
    return m_dlius[i];
}

Ptr<DirectLinkNetDevice>
MultiprocessorTopologyHelper::GetInterface(uint32_t i, uint32_t j) const
{
    CheckCpu(i, "GetInterface");
    CheckCpu(j, "GetInterface");
    auto it = m_ifs[i].find(j);
    return it == m_ifs[i].end() ? nullptr : DynamicCast<DirectLinkNetDevice>(it->second);
}

Ptr<NetDevice>
MultiprocessorTopologyHelper::GetNetDevice(uint32_t i, uint32_t j) const
{
    CheckCpu(i, "GetNetDevice");
    CheckCpu(j, "GetNetDevice");
    auto it = m_ifs[i].find(j);
    return it == m_ifs[i].end() ? nullptr : it->second;
}

Ptr<DirectLinkPort>
MultiprocessorTopologyHelper::GetPort(uint32_t i, uint32_t j) const
{
    CheckCpu(i, "GetPort");
    CheckCpu(j, "GetPort");
    auto it = m_ifs[i].find(j);
    if (it == m_ifs[i].end())
    {
        return nullptr;
    }
    for (uint32_t k = 0; k < m_dlius[i]->GetNDevices(); ++k)
    {
        if (m_dlius[i]->GetNetDevice(k) == it->second)
        {
            return m_dlius[i]->GetPort(k);
        }
    }
    return nullptr;
}

std::vector<uint32_t>
MultiprocessorTopologyHelper::GetNeighbours(uint32_t i) const
{
    CheckCpu(i, "GetNeighbours");
    std::vector<uint32_t> v;
    for (const auto& kv : m_ifs[i])
    {
        v.push_back(kv.first);
    }
    return v;
}

uint32_t
MultiprocessorTopologyHelper::GetDegree(uint32_t i) const
{
    CheckCpu(i, "GetDegree");
    return static_cast<uint32_t>(m_ifs[i].size());
}

uint32_t
MultiprocessorTopologyHelper::GetNLinks() const
{
    return static_cast<uint32_t>(m_linkDevs.size());
}

NetDeviceContainer
MultiprocessorTopologyHelper::GetLink(uint32_t k) const
{
    RIFL_CHECK_INDEX(k >= m_linkDevs.size(),
                     "MultiprocessorTopologyHelper::GetLink: k = " << k << " is out of range [0, "
                                                                   << m_linkDevs.size() << ")");
    return m_linkDevs[k];
}

NetDeviceContainer
MultiprocessorTopologyHelper::GetDevices() const
{
    NetDeviceContainer c;
    for (const auto& l : m_linkDevs)
    {
        c.Add(l);
    }
    return c;
}

std::pair<uint32_t, uint32_t>
MultiprocessorTopologyHelper::GetCoordinates(uint32_t i) const
{
    RIFL_CHECK_ARG(m_topology != MESH_2D && m_topology != TORUS_2D,
                   "MultiprocessorTopologyHelper::GetCoordinates: the topology is not a mesh or "
                   "torus");
    CheckCpu(i, "GetCoordinates");
    return {i % m_x, i / m_x};
}

uint32_t
MultiprocessorTopologyHelper::GetCpuAt(uint32_t x, uint32_t y) const
{
    RIFL_CHECK_ARG(m_topology != MESH_2D && m_topology != TORUS_2D,
                   "MultiprocessorTopologyHelper::GetCpuAt: the topology is not a mesh or torus");
    RIFL_CHECK_INDEX(x >= m_x, "MultiprocessorTopologyHelper::GetCpuAt: x = "
                                   << x << " is out of range [0, " << m_x << ")");
    RIFL_CHECK_INDEX(y >= m_y, "MultiprocessorTopologyHelper::GetCpuAt: y = "
                                   << y << " is out of range [0, " << m_y << ")");
    return x + m_x * y;
}

uint32_t
MultiprocessorTopologyHelper::GetDistance(uint32_t src, uint32_t dst) const
{
    CheckCpu(src, "GetDistance");
    CheckCpu(dst, "GetDistance");
    return m_dist[src][dst];
}

std::vector<uint32_t>
MultiprocessorTopologyHelper::GetPath(uint32_t src, uint32_t dst) const
{
    CheckCpu(src, "GetPath");
    CheckCpu(dst, "GetPath");
    std::vector<uint32_t> path{src};
    uint32_t cur = src;
    while (cur != dst)
    {
        if (path.size() > m_cpus.GetN())
        {
            return {};
        }
        Ptr<DirectLinkPort> out = m_dlius[cur]->GetRoutePort(dst);
        Ptr<Node> peer = out ? out->GetPeerNode() : nullptr;
        if (!peer)
        {
            return {};
        }
        Ptr<DirectLinkInterfaceUnit> next = peer->GetObject<DirectLinkInterfaceUnit>();
        if (!next)
        {
            return {};
        }
        cur = next->GetCpuNumber();
        path.push_back(cur);
    }
    return path;
}

uint32_t
MultiprocessorTopologyHelper::GetHopCount(uint32_t src, uint32_t dst) const
{
    const std::vector<uint32_t> p = GetPath(src, dst);
    return p.empty() ? std::numeric_limits<uint32_t>::max() : static_cast<uint32_t>(p.size() - 1);
}

bool
MultiprocessorTopologyHelper::IsDateline(uint32_t i, uint32_t j) const
{
    CheckCpu(i, "IsDateline");
    CheckCpu(j, "IsDateline");
    if (m_ifs[i].count(j) == 0)
    {
        return false;
    }
    if (m_topology == RING)
    {
        return (i == 0 && j == m_x - 1) || (j == 0 && i == m_x - 1);
    }
    if (m_topology == TORUS_2D)
    {
        auto [ix, iy] = GetCoordinates(i);
        auto [jx, jy] = GetCoordinates(j);
        if (iy == jy)
        {
            return (ix == 0 && jx == m_x - 1) || (jx == 0 && ix == m_x - 1);
        }
        return (iy == 0 && jy == m_y - 1) || (jy == 0 && iy == m_y - 1);
    }
    return false;
}

uint32_t
MultiprocessorTopologyHelper::DatelineVc(uint32_t src, uint32_t dst, uint32_t hop,
                                         uint32_t baseVc) const
{
    RIFL_CHECK_ARG(baseVc > 1, "MultiprocessorTopologyHelper::DatelineVc: baseVc = "
                                   << baseVc << " is out of range [0, 1]");
    const std::vector<uint32_t> p = GetPath(src, dst);
    RIFL_CHECK_ARG(p.size() < 2 || hop >= p.size() - 1,
                   "MultiprocessorTopologyHelper::DatelineVc: hop = "
                       << hop << " is out of range [0, " << (p.empty() ? 0 : p.size() - 1) << ")");
    bool crossed = false;
    for (uint32_t h = 0; h <= hop; ++h)
    {
        if (m_topology == TORUS_2D && h > 0)
        {
            // Dimension order: the VC class restarts when the route turns from X to Y.
            const bool prevX = GetCoordinates(p[h - 1]).second == GetCoordinates(p[h]).second;
            const bool curX = GetCoordinates(p[h]).second == GetCoordinates(p[h + 1]).second;
            if (prevX != curX)
            {
                crossed = false;
            }
        }
        crossed = crossed || IsDateline(p[h], p[h + 1]);
    }
    return crossed ? baseVc + 2 : baseVc;
}

bool
MultiprocessorTopologyHelper::DependenciesAcyclic(bool vcs) const
{
    const uint32_t n = m_cpus.GetN();
    // Vertex of (directed link a -> b, vc): (a * n + b) * 4 + vc.
    DependencyGraph g(n * n * 4);
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s == d)
            {
                continue;
            }
            const std::vector<uint32_t> p = GetPath(s, d);
            if (p.size() < 3)
            {
                continue;
            }
            for (uint32_t base = 0; base < (vcs ? 2u : 1u); ++base)
            {
                for (uint32_t h = 0; h + 2 < p.size(); ++h)
                {
                    const uint32_t vc0 = vcs ? DatelineVc(s, d, h, base) : 0;
                    const uint32_t vc1 = vcs ? DatelineVc(s, d, h + 1, base) : 0;
                    boost::add_edge((p[h] * n + p[h + 1]) * 4 + vc0,
                                    (p[h + 1] * n + p[h + 2]) * 4 + vc1, g);
                }
            }
        }
    }
    std::vector<DependencyGraph::vertex_descriptor> order;
    try
    {
        boost::topological_sort(g, std::back_inserter(order));
    }
    catch (const boost::not_a_dag&)
    {
        return false;
    }
    return true;
}

bool
MultiprocessorTopologyHelper::DeadlockFree() const
{
    if (m_avoidance == DATELINE_VCS && (m_topology == RING || m_topology == TORUS_2D))
    {
        return DatelineVcsAcyclic();
    }
    return ChannelDependenciesAcyclic();
}

bool
MultiprocessorTopologyHelper::ChannelDependenciesAcyclic() const
{
    return DependenciesAcyclic(false);
}

bool
MultiprocessorTopologyHelper::DatelineVcsAcyclic() const
{
    return DependenciesAcyclic(true);
}

int64_t
MultiprocessorTopologyHelper::AssignStreams(int64_t stream)
{
    // each helper assigns the channels of its own devices (the other's are skipped)
    const int64_t used = m_links.AssignStreams(GetDevices(), stream);
    return used + m_rifl.AssignStreams(GetDevices(), stream + used);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcn-topology-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/csma-helper.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/exact-bit-error-model.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-global-routing.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/neighbor-cache-helper.h"
#include "ns3/nstime.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-net-device.h"
#include "ns3/string.h"
#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflDcnTopologyHelper");

namespace
{

/// Propagation delay per metre of the baseline's cable (as RiflChannel's default).
constexpr double SECONDS_PER_METRE = 5e-9;

} // namespace

DcnTopologyHelper::DcnTopologyHelper() = default;

void
DcnTopologyHelper::SetLinkTechnology(LinkTechnology tech)
{
    CheckFresh();
    RIFL_CHECK_ARG(tech != RIFL && tech != ETHERNET && tech != CSMA,
                   "DcnTopologyHelper: LinkTechnology = "
                       << int(tech) << " is not RIFL (0), ETHERNET (1) or CSMA (2)");
    m_tech = tech;
}

DcnTopologyHelper::LinkTechnology
DcnTopologyHelper::GetLinkTechnology() const
{
    return m_tech;
}

void
DcnTopologyHelper::CheckTier(const std::string& tier, const TierParameters& p) const
{
    RIFL_CHECK_ARG(p.lineRate.GetBitRate() == 0,
                   "DcnTopologyHelper: " << tier << " lineRate = 0 bit/s must be > 0");
    RIFL_CHECK_ARG(!(p.cableLengthM >= 0.0 && p.cableLengthM <= 1000.0),
                   "DcnTopologyHelper: " << tier << " cableLengthM = " << p.cableLengthM
                                         << " is outside [0, 1000]");
    RIFL_CHECK_ARG(!(p.ber >= 0.0 && p.ber < 1.0),
                   "DcnTopologyHelper: " << tier << " ber = " << p.ber << " is outside [0, 1)");
}

void
DcnTopologyHelper::SetHostLinkParameters(DataRate lineRate, double cableLengthM, double ber)
{
    TierParameters p{lineRate, cableLengthM, ber};
    CheckTier("host", p);
    m_host = p;
}

void
DcnTopologyHelper::SetFabricLinkParameters(DataRate lineRate, double cableLengthM, double ber)
{
    TierParameters p{lineRate, cableLengthM, ber};
    CheckTier("fabric", p);
    m_fabric = p;
}

void
DcnTopologyHelper::SetBer(double ber)
{
    RIFL_CHECK_ARG(!(ber >= 0.0 && ber < 1.0),
                   "DcnTopologyHelper: ber = " << ber << " is outside [0, 1)");
    m_host.ber = ber;
    m_fabric.ber = ber;
}

DcnTopologyHelper::TierParameters
DcnTopologyHelper::GetHostLinkParameters() const
{
    return m_host;
}

DcnTopologyHelper::TierParameters
DcnTopologyHelper::GetFabricLinkParameters() const
{
    return m_fabric;
}

void
DcnTopologyHelper::SetRiflLanes(uint32_t lanes)
{
    RIFL_CHECK_ARG(lanes < 1 || lanes > 16,
                   "DcnTopologyHelper: lanes = " << lanes << " is outside [1, 16]");
    m_lanes = lanes;
}

void
DcnTopologyHelper::SetRiflDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_riflAttrs.emplace_back(name, value.Copy());
}

void
DcnTopologyHelper::SetEthernetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_ethAttrs.emplace_back(name, value.Copy());
}

void
DcnTopologyHelper::SetEthernetOverheadBytes(uint32_t bytes)
{
    RIFL_CHECK_ARG(bytes > 65535,
                   "DcnTopologyHelper: overheadBytes = " << bytes << " is outside [0, 65535]");
    m_ethOverhead = bytes;
}

void
DcnTopologyHelper::SetQueuePackets(uint32_t packets)
{
    RIFL_CHECK_ARG(packets < 1, "DcnTopologyHelper: queuePackets = 0 must be >= 1");
    m_queuePackets = packets;
}

void
DcnTopologyHelper::SetEcmp(bool ecmp)
{
    SetEcmpMode(ecmp ? ECMP_PER_FLOW : ECMP_OFF);
}

void
DcnTopologyHelper::SetEcmpMode(EcmpMode mode)
{
    CheckFresh();
    RIFL_CHECK_ARG(mode != ECMP_OFF && mode != ECMP_PER_FLOW && mode != ECMP_PER_PACKET,
                   "DcnTopologyHelper: EcmpMode = " << int(mode)
                                                    << " is not ECMP_OFF (0), ECMP_PER_FLOW (1) "
                                                       "or ECMP_PER_PACKET (2)");
    m_ecmp = mode;
}

DcnTopologyHelper::EcmpMode
DcnTopologyHelper::GetEcmpMode() const
{
    return m_ecmp;
}

std::shared_ptr<const DcnRouteTable>
DcnTopologyHelper::GetRouteTable() const
{
    return m_routes;
}

uint32_t
DcnTopologyHelper::GetNodeIndex(Ptr<Node> node) const
{
    auto it = node ? m_nodeIndex.find(node->GetId()) : m_nodeIndex.end();
    RIFL_CHECK_INDEX(it == m_nodeIndex.end(), "DcnTopologyHelper: node "
                                                  << (node ? int64_t(node->GetId()) : -1)
                                                  << " is not a node of this fabric");
    return it->second;
}

void
DcnTopologyHelper::SetTrafficControl(bool keep)
{
    CheckFresh();
    m_trafficControl = keep;
}

void
DcnTopologyHelper::SetBaseNetwork(Ipv4Address base, Ipv4Mask mask)
{
    RIFL_CHECK_ARG(mask.GetPrefixLength() > 29, "DcnTopologyHelper: base network mask /"
                                                    << mask.GetPrefixLength()
                                                    << " must be /29 or shorter");
    m_base = base.CombineMask(mask);
    m_baseMask = mask;
}

void
DcnTopologyHelper::CheckFresh() const
{
    RIFL_CHECK_ARG(m_kind != NONE,
                   "DcnTopologyHelper: a topology was already installed (one per helper)");
}

uint32_t
DcnTopologyHelper::FatTreeHostCount(uint32_t k)
{
    RIFL_CHECK_ARG(k < 2 || k % 2 != 0 || k > 1024,
                   "DcnTopologyHelper: fat-tree k = " << k << " must be even and in [2, 1024]");
    return k * k * k / 4;
}

uint32_t
DcnTopologyHelper::FatTreeSwitchCount(uint32_t k)
{
    FatTreeHostCount(k);
    return 5 * k * k / 4;
}

uint32_t
DcnTopologyHelper::FatTreeLinkCount(uint32_t k)
{
    return 3 * FatTreeHostCount(k);
}

void
DcnTopologyHelper::InstallStacks()
{
    // No Config::SetDefault here: the routing mode is applied to these nodes
    // only, in FinishRouting.
    InternetStackHelper ip;
    ip.Install(GetAllNodes());
}

void
DcnTopologyHelper::Connect(Ptr<Node> a, Ptr<Node> b, bool hostLink)
{
    const TierParameters& p = hostLink ? m_host : m_fabric;
    const std::string queueSize = std::to_string(m_queuePackets) + "p";
    NetDeviceContainer devs;
    if (m_tech == RIFL)
    {
        RiflHelper rifl;
        rifl.SetDeviceAttribute("Startup", StringValue("Short"));
        rifl.SetDeviceAttribute("Lanes", UintegerValue(m_lanes));
        const uint64_t laneRate = p.lineRate.GetBitRate() / m_lanes;
        RIFL_CHECK_ARG(laneRate == 0 || laneRate > 1000000000000ULL,
                       "DcnTopologyHelper: " << (hostLink ? "host" : "fabric") << " lineRate = "
                                             << p.lineRate.GetBitRate() << " bit/s over " << m_lanes
                                             << " lanes gives a lane rate outside (0, 1000 Gb/s]");
        rifl.SetDeviceAttribute("LaneRate", DataRateValue(DataRate(laneRate)));
        for (const auto& [name, value] : m_riflAttrs)
        {
            rifl.SetDeviceAttribute(name, *value);
        }
        rifl.SetChannelAttribute("CableLength", DoubleValue(p.cableLengthM));
        rifl.SetChannelAttribute("Ber", DoubleValue(p.ber));
        if (m_splitRemote && GetRank(a) != GetRank(b))
        {
            rifl.SetChannelAttribute("Split", BooleanValue(true));
        }
        rifl.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize(queueSize)));
        devs = rifl.Install(a, b);
    }
    else
    {
        if (m_tech == ETHERNET)
        {
            PointToPointHelper p2p;
            p2p.SetDeviceAttribute("DataRate", DataRateValue(p.lineRate));
            for (const auto& [name, value] : m_ethAttrs)
            {
                p2p.SetDeviceAttribute(name, *value);
            }
            p2p.SetChannelAttribute("Delay",
                                    TimeValue(Seconds(p.cableLengthM * SECONDS_PER_METRE)));
            p2p.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize(queueSize)));
            devs = p2p.Install(a, b);
        }
        else
        {
            CsmaHelper csma;
            csma.SetChannelAttribute("DataRate", DataRateValue(p.lineRate));
            csma.SetChannelAttribute("Delay",
                                     TimeValue(Seconds(p.cableLengthM * SECONDS_PER_METRE)));
            for (const auto& [name, value] : m_ethAttrs)
            {
                csma.SetDeviceAttribute(name, *value);
            }
            csma.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize(queueSize)));
            devs = csma.Install(NodeContainer(a, b));
        }
        for (uint32_t i = 0; i < devs.GetN(); ++i)
        {
            Ptr<ExactBitErrorModel> em = CreateObject<ExactBitErrorModel>();
            em->SetBer(p.ber);
            em->SetAttribute("OverheadBytes", UintegerValue(m_ethOverhead));
            devs.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
    }

    // One /30 per link, in order from the base network.
    const uint64_t maxSubnets = (uint64_t(~m_baseMask.Get()) + 1) / 4;
    RIFL_CHECK_ARG(m_nextSubnet >= maxSubnets, "DcnTopologyHelper: the base network "
                                                   << m_base << " holds only " << maxSubnets
                                                   << " /30 link subnets");
    Ipv4AddressHelper addr(Ipv4Address(m_base.Get() + 4 * m_nextSubnet), "255.255.255.252");
    ++m_nextSubnet;
    addr.Assign(devs);
    if (m_tech == CSMA)
    {
        // Static ARP entries for the link's two ends: no ARP exchange (and no
        // packet dropped at a pending ARP queue) before the first packet.
        NeighborCacheHelper().PopulateNeighborCache(devs.Get(0)->GetChannel());
    }
    if (!m_trafficControl)
    {
        TrafficControlHelper().Uninstall(devs); // the device queue is the port buffer
    }
    LinkInfo l{devs.Get(0), devs.Get(1), hostLink};
    l.ifA = a->GetObject<Ipv4>()->GetInterfaceForDevice(l.a);
    l.ifB = b->GetObject<Ipv4>()->GetInterfaceForDevice(l.b);
    m_links.push_back(l);
}

void
DcnTopologyHelper::FinishRouting()
{
    m_hostAddresses.clear();
    for (uint32_t i = 0; i < m_hosts.GetN(); ++i)
    {
        m_hostAddresses.push_back(m_hosts.Get(i)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal());
    }
    const NodeContainer all = GetAllNodes();
    m_nodeIndex.clear();
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        m_nodeIndex[all.Get(i)->GetId()] = i;
    }
    if (m_ecmp != ECMP_PER_FLOW)
    {
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        if (m_ecmp == ECMP_PER_PACKET)
        {
            // On this fabric's routing objects only (never the attribute default).
            for (uint32_t i = 0; i < all.GetN(); ++i)
            {
                Ptr<Ipv4GlobalRouting> g;
                Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(
                    all.Get(i)->GetObject<Ipv4>()->GetRoutingProtocol());
                for (uint32_t j = 0; list && !g && j < list->GetNRoutingProtocols(); ++j)
                {
                    int16_t priority;
                    g = DynamicCast<Ipv4GlobalRouting>(list->GetRoutingProtocol(j, priority));
                }
                RIFL_CHECK_ARG(!g, "DcnTopologyHelper: node " << all.Get(i)->GetId()
                                                              << " has no Ipv4GlobalRouting");
                g->SetAttribute("RandomEcmpRouting", BooleanValue(true));
            }
        }
        return;
    }
    auto table = std::make_shared<DcnRouteTable>();
    table->nHosts = m_hosts.GetN();
    table->ports.resize(all.GetN());
    auto gatewayOf = [](Ptr<NetDevice> d, uint32_t ifIndex)
    {
        return d->GetNode()->GetObject<Ipv4>()->GetAddress(ifIndex, 0).GetLocal();
    };
    for (const LinkInfo& l : m_links)
    {
        const uint32_t ia = m_nodeIndex.at(l.a->GetNode()->GetId());
        const uint32_t ib = m_nodeIndex.at(l.b->GetNode()->GetId());
        table->ports[ia].push_back(DcnRouteTable::Port{l.ifA, ib, gatewayOf(l.b, l.ifB)});
        table->ports[ib].push_back(DcnRouteTable::Port{l.ifB, ia, gatewayOf(l.a, l.ifA)});
    }
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        table->hostByAddress[m_hostAddresses[h].Get()] = h;
    }
    table->ComputeDistances();
    m_routes = table;
    for (uint32_t i = 0; i < all.GetN(); ++i)
    {
        Ptr<Ipv4> ipv4 = all.Get(i)->GetObject<Ipv4>();
        Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol());
        RIFL_CHECK_ARG(!list, "DcnTopologyHelper: node " << all.Get(i)->GetId()
                                                         << " has no Ipv4ListRouting");
        Ptr<DcnEcmpRouting> r = CreateObject<DcnEcmpRouting>();
        r->SetTable(m_routes, i);
        list->AddRoutingProtocol(r, 20);
    }
}

uint32_t
DcnTopologyHelper::SystemIdOf(uint32_t rank) const
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        return rank;
    }
#endif
    // Without MPI every node stays on system id 0: ns-3's global routing computes
    // routes only for the nodes of its own system id. The rank is kept as a label.
    return 0;
}

void
DcnTopologyHelper::CreateNodes(NodeContainer& into, uint32_t n, uint32_t rank)
{
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Node> node = CreateObject<Node>(SystemIdOf(rank));
        m_rankOfNode[node->GetId()] = rank;
        into.Add(node);
    }
}

uint32_t
DcnTopologyHelper::GetRank(Ptr<Node> node) const
{
    RIFL_CHECK_ARG(!node, "DcnTopologyHelper::GetRank: node must not be null");
    const auto it = m_rankOfNode.find(node->GetId());
    RIFL_CHECK_ARG(it == m_rankOfNode.end(), "DcnTopologyHelper::GetRank: node "
                                                 << node->GetId()
                                                 << " is not a node of this fabric");
    return it->second;
}

void
DcnTopologyHelper::SetRanks(uint32_t ranks, uint32_t coreRank)
{
    CheckFresh();
    RIFL_CHECK_ARG(ranks < 1 || ranks > 65536,
                   "DcnTopologyHelper::SetRanks: ranks = " << ranks << " is outside [1, 65536]");
    RIFL_CHECK_ARG(coreRank >= ranks, "DcnTopologyHelper::SetRanks: coreRank = "
                                          << coreRank << " is outside [0, " << ranks - 1 << "]");
    m_ranks = ranks;
    m_coreRank = coreRank;
}

uint32_t
DcnTopologyHelper::GetRanks() const
{
    return m_ranks;
}

void
DcnTopologyHelper::SetSplitRemoteLinks(bool split)
{
    CheckFresh();
    m_splitRemote = split;
}

void
DcnTopologyHelper::CheckRanks(uint32_t groups, const std::string& what) const
{
    RIFL_CHECK_ARG(m_ranks > groups, "DcnTopologyHelper: ranks = "
                                         << m_ranks << " exceeds the " << groups << " " << what
                                         << " it spreads over (SetRanks)");
}

void
DcnTopologyHelper::InstallFatTree(uint32_t k)
{
    CheckFresh();
    FatTreeHostCount(k); // validates k
    CheckRanks(k, "pods");
    const uint32_t half = k / 2;
    // Created tier by tier, as without ranks (the node ids do not depend on them).
    for (uint32_t p = 0; p < k; ++p)
    {
        CreateNodes(m_hosts, half * half, RankOf(p, k));
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        CreateNodes(m_edge, half, RankOf(p, k));
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        CreateNodes(m_agg, half, RankOf(p, k));
    }
    CreateNodes(m_core, half * half, m_coreRank);
    m_kind = FAT_TREE;
    InstallStacks();
    // Pod p: edge switches p*half + e, aggregation switches p*half + j.
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t h = 0; h < half; ++h)
            {
                Connect(m_hosts.Get((p * half + e) * half + h), m_edge.Get(p * half + e), true);
            }
        }
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t j = 0; j < half; ++j)
            {
                Connect(m_edge.Get(p * half + e), m_agg.Get(p * half + j), false);
            }
        }
    }
    // Aggregation switch j of every pod connects to cores j*half .. j*half + half - 1.
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t j = 0; j < half; ++j)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                Connect(m_agg.Get(p * half + j), m_core.Get(j * half + c), false);
            }
        }
    }
    FinishRouting();
}

void
DcnTopologyHelper::InstallLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    CheckFresh();
    RIFL_CHECK_ARG(leaves < 1 || leaves > 4096,
                   "DcnTopologyHelper: leaves = " << leaves << " is outside [1, 4096]");
    RIFL_CHECK_ARG(spines < 1 || spines > 4096,
                   "DcnTopologyHelper: spines = " << spines << " is outside [1, 4096]");
    RIFL_CHECK_ARG(hostsPerLeaf < 1 || hostsPerLeaf > 4096,
                   "DcnTopologyHelper: hostsPerLeaf = " << hostsPerLeaf << " is outside [1, 4096]");
    CheckRanks(leaves, "leaves");
    for (uint32_t l = 0; l < leaves; ++l)
    {
        CreateNodes(m_hosts, hostsPerLeaf, RankOf(l, leaves));
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        CreateNodes(m_edge, 1, RankOf(l, leaves));
    }
    CreateNodes(m_core, spines, m_coreRank);
    m_kind = LEAF_SPINE;
    InstallStacks();
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t h = 0; h < hostsPerLeaf; ++h)
        {
            Connect(m_hosts.Get(l * hostsPerLeaf + h), m_edge.Get(l), true);
        }
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            Connect(m_edge.Get(l), m_core.Get(s), false);
        }
    }
    FinishRouting();
}

DcnTopologyHelper::TopologyKind
DcnTopologyHelper::GetTopologyKind() const
{
    return m_kind;
}

NodeContainer
DcnTopologyHelper::GetHosts() const
{
    return m_hosts;
}

NodeContainer
DcnTopologyHelper::GetSwitches() const
{
    return NodeContainer(m_edge, m_agg, m_core);
}

NodeContainer
DcnTopologyHelper::GetEdgeSwitches() const
{
    return m_edge;
}

NodeContainer
DcnTopologyHelper::GetAggregationSwitches() const
{
    return m_agg;
}

NodeContainer
DcnTopologyHelper::GetCoreSwitches() const
{
    return m_core;
}

NodeContainer
DcnTopologyHelper::GetLeafSwitches() const
{
    return m_edge;
}

NodeContainer
DcnTopologyHelper::GetSpineSwitches() const
{
    return m_core;
}

NodeContainer
DcnTopologyHelper::GetAllNodes() const
{
    return NodeContainer(m_hosts, GetSwitches());
}

NetDeviceContainer
DcnTopologyHelper::GetLinkDevices() const
{
    NetDeviceContainer c;
    for (const LinkInfo& l : m_links)
    {
        c.Add(l.a);
        c.Add(l.b);
    }
    return c;
}

NetDeviceContainer
DcnTopologyHelper::GetHostLinkDevices() const
{
    NetDeviceContainer c;
    for (const LinkInfo& l : m_links)
    {
        if (l.hostLink)
        {
            c.Add(l.a);
            c.Add(l.b);
        }
    }
    return c;
}

NetDeviceContainer
DcnTopologyHelper::GetFabricLinkDevices() const
{
    NetDeviceContainer c;
    for (const LinkInfo& l : m_links)
    {
        if (!l.hostLink)
        {
            c.Add(l.a);
            c.Add(l.b);
        }
    }
    return c;
}

const std::vector<DcnTopologyHelper::LinkInfo>&
DcnTopologyHelper::GetLinks() const
{
    return m_links;
}

uint32_t
DcnTopologyHelper::GetNLinks() const
{
    return m_links.size();
}

Ipv4Address
DcnTopologyHelper::GetHostAddress(uint32_t i) const
{
    RIFL_CHECK_INDEX(i >= m_hostAddresses.size(),
                     "DcnTopologyHelper: host index i = " << i << " is outside [0, "
                                                          << m_hostAddresses.size() << ")");
    return m_hostAddresses[i];
}

int64_t
DcnTopologyHelper::AssignStreams(int64_t stream)
{
    RIFL_CHECK_ARG(stream < 0, "DcnTopologyHelper: stream = " << stream << " must be >= 0");
    int64_t used = 0;
    for (const LinkInfo& l : m_links)
    {
        if (Ptr<RiflChannel> ch = DynamicCast<RiflChannel>(l.a->GetChannel()))
        {
            used += ch->AssignStreams(stream + used);
            continue;
        }
        for (const Ptr<NetDevice>& d : {l.a, l.b})
        {
            PointerValue pv;
            d->GetAttribute("ReceiveErrorModel", pv);
            if (Ptr<ExactBitErrorModel> em = pv.Get<ExactBitErrorModel>())
            {
                used += em->AssignStreams(stream + used);
            }
        }
    }
    if (m_kind != NONE)
    {
        InternetStackHelper ip;
        used += ip.AssignStreams(GetAllNodes(), stream + used);
    }
    return used;
}

} // namespace ns3

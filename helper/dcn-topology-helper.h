/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_DCN_TOPOLOGY_HELPER_H
#define RIFL_DCN_TOPOLOGY_HELPER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/dcn-ecmp-routing.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-topology
 * \brief Builds data-center networks (k-ary fat-tree, leaf-spine) of IPv4
 *        nodes joined by RIFL links or by an Ethernet-style baseline.
 *
 * Every link is a point-to-point link with its own /30 subnet (taken in order
 * from the base network, 10.0.0.0/8 by default). All nodes get the Internet
 * stack; switches are ordinary ns-3 nodes that forward IP (IpForward is on by
 * default in ns-3). Routing is one of (SetEcmpMode):
 *  * ECMP_PER_FLOW (default): DcnEcmpRouting on every node, shortest paths
 *    toward every host computed by the helper and one equal-cost next hop
 *    chosen per flow by a 5-tuple hash, as switches do (no reordering). Only
 *    host addresses are routed; ns-3's global routing tables are not built
 *    (they cost O(nodes x links) memory and time on large fabrics);
 *  * ECMP_PER_PACKET: ns-3's Ipv4GlobalRouting with "RandomEcmpRouting" set
 *    on the Ipv4GlobalRouting object of these nodes only (each packet takes a
 *    random equal-cost route: reordering, spurious TCP retransmissions);
 *  * ECMP_OFF: ns-3's Ipv4GlobalRouting, always the first equal-cost route.
 * The helper never changes an attribute default (Config::SetDefault), so
 * nothing leaks into other simulations of the process.
 *
 * The link technology is a parameter:
 *  * RIFL: RiflHelper links (Startup = Short), lanes x lane rate = the tier's
 *    line rate, the tier's cable length and BER on the RiflChannel;
 *  * ETHERNET: PointToPointHelper links at the tier's line rate with a delay
 *    of cable length x 5 ns/m, and an ExactBitErrorModel at the tier's BER
 *    as the "ReceiveErrorModel" of every receiving device (the baseline: a
 *    corrupted packet is dropped, recovery is end to end);
 *  * CSMA: one two-port CsmaChannel per link (CsmaHelper, DIX Ethernet
 *    header and FCS on every frame) at the tier's line rate and delay, with
 *    the same ExactBitErrorModel receive error model, and static ARP
 *    entries on both ends (NeighborCacheHelper), so no ARP exchange happens.
 *
 * Ports have no queue disc (SetTrafficControl): the device's DropTail queue
 * of SetQueuePackets packets is the port buffer.
 *
 * Two tiers have their own line rate, cable length and BER: host links
 * (host to edge/leaf switch) and fabric links (switch to switch).
 */
class DcnTopologyHelper
{
  public:
    /// The link technology of every link.
    enum LinkTechnology
    {
        RIFL,     //!< RiflNetDevice / RiflChannel
        ETHERNET, //!< PointToPointNetDevice with an ExactBitErrorModel on receive
        CSMA,     //!< CsmaNetDevice pair with an ExactBitErrorModel on receive
    };

    /// The kind of a built topology.
    enum TopologyKind
    {
        NONE,       //!< nothing built yet
        FAT_TREE,   //!< k-ary fat-tree
        LEAF_SPINE, //!< two-tier leaf-spine
    };

    /// How equal-cost paths are used.
    enum EcmpMode
    {
        ECMP_OFF,        //!< ns-3 global routing, first equal-cost route
        ECMP_PER_FLOW,   //!< DcnEcmpRouting: 5-tuple hash per flow (default)
        ECMP_PER_PACKET, //!< ns-3 global routing, random route per packet (this fabric only)
    };

    /// Parameters of one link tier.
    struct TierParameters
    {
        DataRate lineRate{"112Gbps"}; //!< line rate per direction (RIFL: lanes x lane rate)
        double cableLengthM{10.0};    //!< cable length in metres
        double ber{0.0};              //!< bit error rate of both directions
    };

    /// One built link: its two devices and tier.
    struct LinkInfo
    {
        Ptr<NetDevice> a; //!< the device of the first node (host or lower switch)
        Ptr<NetDevice> b; //!< the device of the second node
        bool hostLink;    //!< true for host links, false for fabric links
        uint32_t ifA{0};  //!< a's IPv4 interface index of the link
        uint32_t ifB{0};  //!< b's IPv4 interface index of the link
    };

    /// \brief Constructor: RIFL, 112 Gb/s, 10 m, BER 0 on both tiers, per-flow ECMP.
    DcnTopologyHelper();

    /**
     * \brief Choose the link technology (before Install*).
     * \param tech RIFL, ETHERNET or CSMA.
     */
    void SetLinkTechnology(LinkTechnology tech);

    /// \return the link technology.
    LinkTechnology GetLinkTechnology() const;

    /**
     * \brief Set the host-link tier (host to edge/leaf switch).
     * \param lineRate line rate, > 0 (RIFL: at most Lanes x 1000 Gb/s).
     * \param cableLengthM cable length in metres, [0, 1000].
     * \param ber bit error rate, [0, 1).
     */
    void SetHostLinkParameters(DataRate lineRate, double cableLengthM, double ber);

    /**
     * \brief Set the fabric-link tier (switch to switch).
     * \param lineRate line rate, > 0 (RIFL: at most Lanes x 1000 Gb/s).
     * \param cableLengthM cable length in metres, [0, 1000].
     * \param ber bit error rate, [0, 1).
     */
    void SetFabricLinkParameters(DataRate lineRate, double cableLengthM, double ber);

    /**
     * \brief Set the same BER on both tiers.
     * \param ber bit error rate, [0, 1).
     */
    void SetBer(double ber);

    /// \return the host-link tier.
    TierParameters GetHostLinkParameters() const;

    /// \return the fabric-link tier.
    TierParameters GetFabricLinkParameters() const;

    /**
     * \brief Set the RIFL lanes per direction; the lane rate is the tier's
     *        line rate / lanes.
     * \param lanes 1..16.
     */
    void SetRiflLanes(uint32_t lanes);

    /**
     * \brief Set an extra attribute of every RiflNetDevice (e.g. "FrameSize",
     *        "ReplayTail"); Lanes, LaneRate and Startup are set by the helper.
     * \param name the attribute name.
     * \param value its value.
     */
    void SetRiflDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an extra attribute of every PointToPointNetDevice (or
     *        CsmaNetDevice) of the baseline (e.g. "Mtu"); the rate and
     *        ReceiveErrorModel are set by the helper.
     * \param name the attribute name.
     * \param value its value.
     */
    void SetEthernetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set the ExactBitErrorModel "OverheadBytes" of the baseline (line
     *        framing exposed to errors besides the packet).
     * \param bytes 0..65535.
     */
    void SetEthernetOverheadBytes(uint32_t bytes);

    /**
     * \brief Set the device queue size in packets (both technologies).
     * \param packets >= 1.
     */
    void SetQueuePackets(uint32_t packets);

    /**
     * \brief Enable or disable ECMP (before Install*).
     * \param ecmp true for ECMP_PER_FLOW (the default), false for ECMP_OFF.
     */
    void SetEcmp(bool ecmp);

    /**
     * \brief Choose the routing (before Install*).
     * \param mode ECMP_OFF, ECMP_PER_FLOW or ECMP_PER_PACKET.
     */
    void SetEcmpMode(EcmpMode mode);

    /// \return the routing mode.
    EcmpMode GetEcmpMode() const;

    /**
     * \return the shared shortest-path table of ECMP_PER_FLOW (null in the
     *         other modes or before Install*).
     */
    std::shared_ptr<const DcnRouteTable> GetRouteTable() const;

    /**
     * \param node a node of this fabric.
     * \return its index in GetAllNodes() (hosts first); std::out_of_range otherwise.
     */
    uint32_t GetNodeIndex(Ptr<Node> node) const;

    /**
     * \brief Keep or remove the queue discs ns-3 puts in front of every device
     *        (Ipv4AddressHelper installs FqCoDel by default).
     * \param keep false (the default): no queue disc, the device queue
     *        (SetQueuePackets) is the only buffer of a port, as in a switch,
     *        and every congestion drop is a MacTxDrop; true: ns-3's default.
     */
    void SetTrafficControl(bool keep);

    /**
     * \brief Set the network the /30 link subnets are taken from.
     * \param base the first address, e.g. 10.0.0.0.
     * \param mask its mask (at most a /29 so that two /30s fit).
     */
    void SetBaseNetwork(Ipv4Address base, Ipv4Mask mask);

    /**
     * \brief Spread the nodes over ns-3 MPI ranks (Node::GetSystemId()) when they are
     *        created: a fat-tree by pod (pod p, its hosts, edge and aggregation switches,
     *        on rank floor(p x ranks / k)), a leaf-spine by leaf group (leaf l and its
     *        hosts on rank floor(l x ranks / leaves)); core or spine switches on
     *        \p coreRank. On ns-3 MPI the rank is the node's system id, and links between
     *        ranks become remote links (RiflChannel across ranks, ns-3's
     *        PointToPointRemoteChannel for the Ethernet baseline); without MPI every node
     *        keeps system id 0 (ns-3's global routing serves only its own system id) and
     *        the rank is a label (GetRank(), SetSplitRemoteLinks()).
     * \param ranks 1 (the default: every node on rank 0) up to the pods or leaves
     *        (std::invalid_argument naming "ranks" otherwise, at Install).
     * \param coreRank the rank of the core / spine switches, below \p ranks.
     */
    void SetRanks(uint32_t ranks, uint32_t coreRank = 0);

    /// \return the number of ranks set by SetRanks() (1 by default).
    uint32_t GetRanks() const;

    /**
     * \param node a node of the fabric.
     * \return the rank SetRanks() gave it (its system id on ns-3 MPI; without MPI every
     *         node keeps system id 0, since ns-3's global routing serves only its own
     *         system id, and the rank is a label).
     */
    uint32_t GetRank(Ptr<Node> node) const;

    /**
     * \brief RIFL links between nodes of different ranks run split
     *        (RiflChannel::Split): in one process, the structure of the MPI run, whose
     *        results it must give. (On MPI ranks such links are split anyway.)
     * \param split true to split them.
     */
    void SetSplitRemoteLinks(bool split);

    /**
     * \brief Build a k-ary fat-tree: k pods of k/2 edge and k/2 aggregation
     *        switches, (k/2)^2 core switches, k/2 hosts per edge switch
     *        (k^3/4 hosts, 3 k^3/4 links), IPv4 and global routes.
     * \param k even, >= 2 (std::invalid_argument naming "k" otherwise).
     */
    void InstallFatTree(uint32_t k);

    /**
     * \brief Build a leaf-spine: every leaf connects to every spine and to its
     *        hosts (leaves x hostsPerLeaf hosts, leaves x (spines + hostsPerLeaf)
     *        links), IPv4 and global routes.
     * \param leaves >= 1.
     * \param spines >= 1.
     * \param hostsPerLeaf >= 1.
     */
    void InstallLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf);

    /**
     * \param k even, >= 2.
     * \return k^3/4, the hosts of a k-ary fat-tree.
     */
    static uint32_t FatTreeHostCount(uint32_t k);

    /**
     * \param k even, >= 2.
     * \return 5 k^2/4, the switches of a k-ary fat-tree.
     */
    static uint32_t FatTreeSwitchCount(uint32_t k);

    /**
     * \param k even, >= 2.
     * \return 3 k^3/4, the links of a k-ary fat-tree.
     */
    static uint32_t FatTreeLinkCount(uint32_t k);

    /// \return the kind of topology built (NONE before Install*).
    TopologyKind GetTopologyKind() const;

    /// \return every host, in order (pod, edge switch, port; or leaf, port).
    NodeContainer GetHosts() const;

    /// \return every switch: edge, aggregation, core (fat-tree) or leaf, spine.
    NodeContainer GetSwitches() const;

    /// \return the fat-tree's edge switches (pod-major), or the leaves.
    NodeContainer GetEdgeSwitches() const;

    /// \return the fat-tree's aggregation switches (pod-major); empty for leaf-spine.
    NodeContainer GetAggregationSwitches() const;

    /// \return the fat-tree's core switches, or the spines.
    NodeContainer GetCoreSwitches() const;

    /// \return the leaves of a leaf-spine (same as GetEdgeSwitches()).
    NodeContainer GetLeafSwitches() const;

    /// \return the spines of a leaf-spine (same as GetCoreSwitches()).
    NodeContainer GetSpineSwitches() const;

    /// \return every node: hosts, then switches.
    NodeContainer GetAllNodes() const;

    /// \return both devices of every link, link by link (a, b).
    NetDeviceContainer GetLinkDevices() const;

    /// \return both devices of every host link.
    NetDeviceContainer GetHostLinkDevices() const;

    /// \return both devices of every fabric link.
    NetDeviceContainer GetFabricLinkDevices() const;

    /// \return every link, in build order.
    const std::vector<LinkInfo>& GetLinks() const;

    /// \return the number of links.
    uint32_t GetNLinks() const;

    /**
     * \param i host index, < GetHosts().GetN() (std::out_of_range otherwise).
     * \return the host's IPv4 address (on its only link).
     */
    Ipv4Address GetHostAddress(uint32_t i) const;

    /**
     * \brief Assign fixed random streams to every error process of the links
     *        built (RIFL channels or baseline error models), in link order,
     *        then to the Internet stacks of the nodes (global routing's ECMP
     *        choice, ARP jitter; InternetStackHelper::AssignStreams).
     * \param stream the first stream.
     * \return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// \brief Check that nothing was built yet (one topology per helper).
    void CheckFresh() const;
    /**
     * \brief Check SetRanks() against the number of pods or leaves.
     * \param groups pods or leaves.
     * \param what their name, for the error.
     */
    void CheckRanks(uint32_t groups, const std::string& what) const;
    /**
     * \param rank a rank.
     * \return the system id of its nodes: the rank on ns-3 MPI, else 0.
     */
    uint32_t SystemIdOf(uint32_t rank) const;
    /**
     * \brief Create nodes of a rank.
     * \param into the container to add them to.
     * \param n how many.
     * \param rank their rank.
     */
    void CreateNodes(NodeContainer& into, uint32_t n, uint32_t rank);
    /**
     * \param group a pod or leaf.
     * \param groups pods or leaves.
     * \return its rank.
     */
    uint32_t RankOf(uint32_t group, uint32_t groups) const
    {
        return static_cast<uint32_t>(uint64_t{group} * m_ranks / groups);
    }

    /**
     * \brief Check a tier's parameters.
     * \param tier "host" or "fabric" (for the message).
     * \param p the parameters.
     */
    void CheckTier(const std::string& tier, const TierParameters& p) const;

    /// \brief Install the Internet stack on every node.
    void InstallStacks();

    /**
     * \brief Build one link, give it a /30 subnet.
     * \param a first node.
     * \param b second node.
     * \param hostLink tier.
     */
    void Connect(Ptr<Node> a, Ptr<Node> b, bool hostLink);

    /// \brief Build the routes of the chosen EcmpMode.
    void FinishRouting();

    LinkTechnology m_tech{RIFL};      //!< technology
    uint32_t m_ranks{1};              //!< SetRanks: ranks
    uint32_t m_coreRank{0};           //!< SetRanks: rank of the core / spine switches
    bool m_splitRemote{false};        //!< SetSplitRemoteLinks
    std::map<uint32_t, uint32_t> m_rankOfNode; //!< node id -> rank (SetRanks)
    TierParameters m_host;            //!< host-link tier
    TierParameters m_fabric;          //!< fabric-link tier
    uint32_t m_lanes{4};              //!< RIFL lanes
    uint32_t m_ethOverhead{0};        //!< baseline OverheadBytes
    uint32_t m_queuePackets{100};     //!< device queue size
    bool m_trafficControl{false};     //!< keep ns-3's default queue discs
    EcmpMode m_ecmp{ECMP_PER_FLOW};   //!< routing mode
    Ipv4Address m_base{"10.0.0.0"};   //!< base network
    Ipv4Mask m_baseMask{"255.0.0.0"}; //!< its mask
    uint32_t m_nextSubnet{0};         //!< next /30 index
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_riflAttrs; //!< extra RIFL attrs
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_ethAttrs;  //!< extra p2p attrs
    TopologyKind m_kind{NONE};                                            //!< what was built
    NodeContainer m_hosts;                                                //!< hosts
    NodeContainer m_edge;                               //!< edge switches / leaves
    NodeContainer m_agg;                                //!< aggregation switches
    NodeContainer m_core;                               //!< core switches / spines
    std::vector<LinkInfo> m_links;                      //!< links
    std::vector<Ipv4Address> m_hostAddresses;           //!< per host
    std::shared_ptr<DcnRouteTable> m_routes;            //!< ECMP_PER_FLOW table
    std::unordered_map<uint32_t, uint32_t> m_nodeIndex; //!< node id -> index
};

} // namespace ns3

#endif /* RIFL_DCN_TOPOLOGY_HELPER_H */

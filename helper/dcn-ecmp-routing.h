/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_DCN_ECMP_ROUTING_H
#define RIFL_DCN_ECMP_ROUTING_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-ns3
 * \brief Shortest-path distances of a data-center fabric toward every host,
 *        shared by the DcnEcmpRouting instance of every node.
 *
 * Built once by DcnTopologyHelper after addressing: nodes are numbered
 * 0..N-1 (hosts first), every node lists its point-to-point neighbours, and a
 * breadth-first search from every host gives the hop distance of every node
 * to it. The equal-cost next hops of node u toward host d are the neighbours
 * v with dist(d, v) = dist(d, u) - 1; nothing per (node, destination) is
 * stored, so the table is nHosts x nNodes x 2 bytes (2.7 MB for a k = 16
 * fat-tree) however many routes there are.
 */
struct DcnRouteTable
{
    /// One port of a node.
    struct Port
    {
        uint32_t interface;  //!< the node's IPv4 interface index of the port
        uint32_t neighbour;  //!< the node index at the other end
        Ipv4Address gateway; //!< the neighbour's address on the link
    };

    uint32_t nHosts{0};                                   //!< hosts are nodes 0..nHosts-1
    std::vector<std::vector<Port>> ports;                 //!< per node
    std::vector<uint16_t> dist;                           //!< [host * nNodes + node], hops
    std::unordered_map<uint32_t, uint32_t> hostByAddress; //!< host address -> host index

    /// \return the number of nodes.
    uint32_t GetNNodes() const
    {
        return ports.size();
    }

    /**
     * \brief Fill dist by breadth-first search from every host.
     */
    void ComputeDistances();

    /**
     * \param host a host index.
     * \param node a node index.
     * \return the hop distance (0xffff if unreachable).
     */
    uint16_t Distance(uint32_t host, uint32_t node) const
    {
        return dist[static_cast<std::size_t>(host) * ports.size() + node];
    }
};

/**
 * \ingroup rifl-ns3
 * \brief Per-flow ECMP toward the hosts of a data-center fabric.
 *
 * An Ipv4RoutingProtocol added by DcnTopologyHelper to every node's
 * Ipv4ListRouting (priority 20, ahead of static and global routing). For a
 * packet to a host address it picks one of the equal-cost shortest-path next
 * hops (DcnRouteTable) by a hash of the 5-tuple (source, destination,
 * protocol and, for TCP and UDP, the two ports) salted with the node index,
 * as switches do: every packet of a flow takes the same path (no reordering,
 * so TCP sees no spurious retransmissions), different flows spread, and the
 * salt keeps the tiers' choices independent. No random stream is involved:
 * the same flows give the same paths in every run. Destinations that are not
 * hosts are left to the next routing protocol of the list.
 */
class DcnEcmpRouting : public Ipv4RoutingProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DcnEcmpRouting();
    ~DcnEcmpRouting() override;

    /**
     * \brief Attach the shared table.
     * \param table the fabric's table.
     * \param node this node's index in it.
     */
    void SetTable(std::shared_ptr<const DcnRouteTable> table, uint32_t node);

    /**
     * \brief The equal-cost next hops toward a host.
     * \param host the host index.
     * \return the indices (into the table's ports of this node) of the next hops.
     */
    std::vector<uint32_t> GetNextHops(uint32_t host) const;

    /**
     * \brief The flow hash of a packet as this node computes it.
     * \param header the IPv4 header.
     * \param payload the IP payload (its first 4 bytes are the ports of TCP/UDP), may be null.
     * \return the hash.
     */
    uint64_t FlowHash(const Ipv4Header& header, Ptr<const Packet> payload) const;

    /// \return the packets this node routed (RouteInput and RouteOutput).
    uint64_t GetRoutedPackets() const;

    // Ipv4RoutingProtocol
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet> p, const Ipv4Header& header, Ptr<NetDevice> oif,
                               Socket::SocketErrno& sockerr) override;
    bool RouteInput(Ptr<const Packet> p, const Ipv4Header& header, Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb, MulticastForwardCallback mcb,
                    LocalDeliverCallback lcb, ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t interface) override;
    void NotifyInterfaceDown(uint32_t interface) override;
    void NotifyAddAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void NotifyRemoveAddress(uint32_t interface, Ipv4InterfaceAddress address) override;
    void SetIpv4(Ptr<Ipv4> ipv4) override;
    void PrintRoutingTable(Ptr<OutputStreamWrapper> stream,
                           Time::Unit unit = Time::S) const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Choose the route toward a destination.
     * \param header the IPv4 header.
     * \param payload the IP payload (may be null).
     * \param oif the required output device, or null.
     * \return the route, or null if the destination is not a host (or oif does not lead to it).
     */
    Ptr<Ipv4Route> Lookup(const Ipv4Header& header, Ptr<const Packet> payload,
                          Ptr<NetDevice> oif) const;

    Ptr<Ipv4> m_ipv4;                             //!< this node's IPv4
    std::shared_ptr<const DcnRouteTable> m_table; //!< the fabric's table
    uint32_t m_node{0};                           //!< this node's index
    mutable uint64_t m_routed{0};                 //!< packets routed
};

} // namespace ns3

#endif /* RIFL_DCN_ECMP_ROUTING_H */

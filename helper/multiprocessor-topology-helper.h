/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MULTIPROCESSOR_TOPOLOGY_HELPER_H
#define MULTIPROCESSOR_TOPOLOGY_HELPER_H

#include "direct-link-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "rifl-helper.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class DirectLinkInterfaceUnit;
class DirectLinkNetDevice;
class DirectLinkPort;
class NetDevice;
class Node;

/**
 * \ingroup rifl-topology
 * \brief Builds a multiprocessor of n CPU nodes, each with a DLIU, connected
 *        by direct links in a full mesh, ring, 2D mesh, 2D torus or hypercube,
 *        and fills every DLIU's routing table.
 *
 * CPU i is node i of GetCpus() and has CPU number i (so at most 256 CPUs).
 * Devices, channels and DLIUs get the attributes of the DirectLinkHelper
 * given to the constructor or SetLinkHelper(), or set through
 * SetDeviceAttribute() / SetChannelAttribute() / SetDliuAttribute().
 *
 * **Link technology** (SetLinkTechnology()): DIRECT_LINK (default) builds
 * every link as a DirectLinkNetDevice pair; RIFL builds it with the RiflHelper
 * of SetRiflHelper() and puts a RiflMessagePort (attributes through
 * SetRiflPortAttribute()) on each end, so the DLIUs route, forward and
 * back-pressure their messages over RIFL exactly as over direct links (per-VC
 * message credits keep the deadlock avoidance below valid). Everything else
 * (routes, VCs, accessors) is the same for both; GetInterface() returns
 * direct-link devices only, GetNetDevice() and GetPort() either. For lossless
 * RIFL links set the RiflHelper's device attribute ReplayTail to Corrected
 * (the default, Rtl, reproduces the RTL's duplicate-delivery hazard,
 * rifl-protocol.md §10).
 *
 * **Routing** (explicit SetRoute() entries toward every other CPU):
 * - FullMesh: the direct link.
 * - Ring: shortest direction; a tie (n even, distance n/2) goes "+" (i -> i+1).
 * - Mesh2D / Torus2D: dimension order, X first then Y (CPU i = x + X*y); on
 *   a torus each dimension takes its shortest direction, ties "+".
 * - Hypercube: dimension order (e-cube): flip the lowest differing bit first.
 * All of these are shortest paths (checked against Boost.Graph BFS
 * distances, GetDistance()).
 *
 * **Deadlock avoidance** (SetDeadlockAvoidance; the DLIUs apply hop-by-hop
 * back-pressure, so a cycle of channel dependencies can really deadlock,
 * broken only by CrdNullTime Shutdowns):
 * - DATELINE_VCS (default): shortest-path / dimension-order routes as above,
 *   and on rings and tori every DLIU switches VCs at datelines
 *   (DirectLinkInterfaceUnit VcPolicy Dateline; the helper gives every device
 *   its link class: dimension 0 on a ring, 0 = X / 1 = Y on a torus, dateline
 *   = the wrap link between coordinates k-1 and 0). Requests VC0 -> VC2,
 *   responses VC1 -> VC3 from the dateline hop of a dimension on, back to the
 *   base VC on a turn (DatelineVc()); DatelineVcsAcyclic() checks the
 *   dependency graph on (link, VC). Other topologies keep VcPolicy SameVc.
 *   IP traffic keeps its IpVc (default VC2, shared with requests past a
 *   dateline; IP is link-local for the DLIU, so it adds no dependency).
 * - DATELINE_ROUTING: same-VC forwarding; on a ring, and on each ring of a
 *   torus, a route may cross the dateline only on its last hop in that
 *   dimension; longer routes go the other way round. The channel dependency
 *   graph (ChannelDependenciesAcyclic()) then has no cycle on any VC, at the
 *   price of longer routes (e.g. ring of 6: CPU 5 -> CPU 1 takes 4 hops
 *   instead of 2).
 * - NO_AVOIDANCE: shortest routes with same-VC forwarding; cyclic on rings
 *   of 4 or more and tori beyond 3x3 (ChannelDependenciesAcyclic() is false):
 *   it can deadlock under load.
 */
class MultiprocessorTopologyHelper
{
  public:
    /// The topology built.
    enum Topology
    {
        NONE,      //!< nothing built yet
        FULL_MESH, //!< every pair of CPUs directly linked
        RING,      //!< CPU i linked to CPU (i+1) mod n
        MESH_2D,   //!< X x Y grid
        TORUS_2D,  //!< X x Y grid with wrap-around links
        HYPERCUBE, //!< CPUs i and i ^ (1 << b) linked
    };

    /// The link technology of the next build (a fixed underlying type: any value a caller
    /// casts in is a value of the type, and SetLinkTechnology() refuses the unknown ones).
    enum LinkTechnology : uint8_t
    {
        DIRECT_LINK, //!< DirectLinkHelper links (the default)
        RIFL,        //!< RiflHelper links, DLIU messages carried by RiflMessagePorts
    };

    /// How cyclic topologies avoid deadlock.
    enum DeadlockAvoidance
    {
        NO_AVOIDANCE,     //!< shortest-path / dimension-order routes, same-VC forwarding
        DATELINE_ROUTING, //!< routes cross a ring's dateline only on their last hop there
        DATELINE_VCS,     //!< shortest routes, DLIUs switch to VC + 2 at datelines (default)
    };

    /// \brief Constructor: default DirectLinkHelper.
    MultiprocessorTopologyHelper();

    /**
     * \brief Constructor.
     * \param links the helper (copied) that builds every link and DLIU.
     */
    explicit MultiprocessorTopologyHelper(const DirectLinkHelper& links);

    /**
     * \brief Replace the link helper (copied); used by the next build.
     * \param links the helper.
     */
    void SetLinkHelper(const DirectLinkHelper& links);

    /// \return the link helper (e.g. for pcap tracing after a build).
    DirectLinkHelper& GetLinkHelper();

    /**
     * \brief Choose the link technology of the next build.
     * \param technology DIRECT_LINK or RIFL (std::invalid_argument naming "technology"
     *        otherwise).
     */
    void SetLinkTechnology(LinkTechnology technology);

    /// \return the link technology of the next build.
    LinkTechnology GetLinkTechnology() const;

    /**
     * \brief Replace the RIFL link helper (copied); used by the next build with RIFL links.
     * \param links the helper.
     */
    void SetRiflHelper(const RiflHelper& links);

    /// \return the RIFL link helper (e.g. to set its attributes, or for tracing).
    RiflHelper& GetRiflHelper();

    /**
     * \brief Set an attribute of every RiflMessagePort built next (RIFL links).
     * \param name the attribute name (e.g. "VcBufferMessages"). \param value its value.
     */
    void SetRiflPortAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every DirectLinkNetDevice built next.
     * \param name the attribute name. \param value its value.
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every DirectLinkChannel built next.
     * \param name the attribute name (e.g. "Ber"). \param value its value.
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every DirectLinkInterfaceUnit built next.
     * \param name the attribute name (e.g. "ForwardingDelay"). \param value its value.
     */
    void SetDliuAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Choose the deadlock avoidance of the routes of the next build.
     * \param mode the mode.
     */
    void SetDeadlockAvoidance(DeadlockAvoidance mode);

    /// \return the deadlock avoidance mode.
    DeadlockAvoidance GetDeadlockAvoidance() const;
    /**
     * \brief Spread the CPUs of the next build over ranks by CPU groups: CPU i on rank
     *        floor(i x ranks / n), so a group is a run of CPU numbers (an arc of a ring, a
     *        band of rows of a mesh or torus, a subcube of a hypercube). On ns-3 MPI
     *        (module built with NS3_MPI, MpiInterface enabled) the rank is the node's system
     *        id and a link between ranks runs as two halves, one on each rank
     *        (DirectLinkChannel or RiflChannel across ranks); otherwise the rank is a label
     *        (GetRank(),
     *        SetSplitRemoteLinks()). Node ids do not depend on it.
     * \param ranks 1 (the default) up to the CPUs of the build (std::invalid_argument
     *        naming "ranks" otherwise, at the build).
     */
    void SetRanks(uint32_t ranks);
    /// \return the number of ranks of SetRanks() (1 by default).
    uint32_t GetRanks() const;
    /**
     * \param i a CPU, 0..GetNCpus()-1.
     * \return its rank (SetRanks()).
     */
    uint32_t GetRank(uint32_t i) const;
    /**
     * \brief Run the links between CPUs of different ranks as split halves
     *        (DirectLinkChannel::Split or RiflChannel::Split: each end alone, exchanging
     *        line records, as across ranks), in one process, for the next build.
     * \param split true to split them.
     */
    void SetSplitRemoteLinks(bool split);
    /// \return the links of the last build between CPUs of different ranks.
    uint32_t GetNLinksAcrossRanks() const;

    /**
     * \brief Build n fully connected CPUs (n(n-1)/2 links, n-1 interfaces each).
     * \param n number of CPUs, 2..256.
     * \return the CPU nodes.
     */
    NodeContainer FullMesh(uint32_t n);

    /**
     * \brief Build a ring (n links, 2 interfaces each).
     * \param n number of CPUs, 3..256.
     * \return the CPU nodes.
     */
    NodeContainer Ring(uint32_t n);

    /**
     * \brief Build an X x Y mesh ((X-1)Y + X(Y-1) links).
     * \param x CPUs along X, >= 1. \param y CPUs along Y, >= 1; 2 <= x * y <= 256.
     * \return the CPU nodes.
     */
    NodeContainer Mesh2D(uint32_t x, uint32_t y);

    /**
     * \brief Build an X x Y torus (2XY links, 4 interfaces each).
     * \param x CPUs along X, >= 3. \param y CPUs along Y, >= 3; x * y <= 256.
     * \return the CPU nodes.
     */
    NodeContainer Torus2D(uint32_t x, uint32_t y);

    /**
     * \brief Build a hypercube of 2^dim CPUs (dim 2^(dim-1) links, dim interfaces each).
     * \param dim the dimension, 1..8.
     * \return the CPU nodes.
     */
    NodeContainer Hypercube(uint32_t dim);

    /// \return the topology built last.
    Topology GetTopology() const;

    /// \return the number of CPUs.
    uint32_t GetNCpus() const;

    /// \return the CPU nodes (CPU i = node i).
    NodeContainer GetCpus() const;

    /**
     * \param i a CPU, 0..GetNCpus()-1.
     * \return its node.
     */
    Ptr<Node> GetCpu(uint32_t i) const;

    /**
     * \param i a CPU, 0..GetNCpus()-1.
     * \return its DLIU.
     */
    Ptr<DirectLinkInterfaceUnit> GetDliu(uint32_t i) const;

    /**
     * \param i a CPU. \param j another CPU.
     * \return the direct-link device of CPU i toward its neighbour CPU j, or null if not
     *         neighbours or if the link is of another technology (GetNetDevice()).
     */
    Ptr<DirectLinkNetDevice> GetInterface(uint32_t i, uint32_t j) const;

    /**
     * \param i a CPU. \param j another CPU.
     * \return the device of CPU i toward its neighbour CPU j, of either link technology,
     *         or null if not neighbours.
     */
    Ptr<NetDevice> GetNetDevice(uint32_t i, uint32_t j) const;

    /**
     * \param i a CPU. \param j another CPU.
     * \return CPU i's DLIU port toward its neighbour CPU j, or null if not neighbours.
     */
    Ptr<DirectLinkPort> GetPort(uint32_t i, uint32_t j) const;

    /**
     * \param i a CPU.
     * \return its neighbours, ascending.
     */
    std::vector<uint32_t> GetNeighbours(uint32_t i) const;

    /**
     * \param i a CPU.
     * \return its number of interfaces.
     */
    uint32_t GetDegree(uint32_t i) const;

    /// \return the number of links.
    uint32_t GetNLinks() const;

    /**
     * \param k a link, 0..GetNLinks()-1.
     * \return its two devices (lower CPU first).
     */
    NetDeviceContainer GetLink(uint32_t k) const;

    /// \return every device.
    NetDeviceContainer GetDevices() const;

    /**
     * \param i a CPU (mesh or torus).
     * \return its (x, y) coordinates.
     */
    std::pair<uint32_t, uint32_t> GetCoordinates(uint32_t i) const;

    /**
     * \param x column. \param y row (mesh or torus).
     * \return the CPU there.
     */
    uint32_t GetCpuAt(uint32_t x, uint32_t y) const;

    /**
     * \param src a CPU. \param dst a CPU.
     * \return the Boost.Graph BFS hop distance in the topology.
     */
    uint32_t GetDistance(uint32_t src, uint32_t dst) const;

    /**
     * \brief Follow the DLIU routing tables (GetRoute) from \p src to \p dst.
     * \param src a CPU. \param dst a CPU.
     * \return the CPUs visited, src first, dst last (empty if a route is missing or loops).
     */
    std::vector<uint32_t> GetPath(uint32_t src, uint32_t dst) const;

    /**
     * \param src a CPU. \param dst a CPU.
     * \return the number of hops of GetPath() (0 if src == dst), or UINT32_MAX if unreachable.
     */
    uint32_t GetHopCount(uint32_t src, uint32_t dst) const;

    /**
     * \param i a CPU. \param j a neighbour.
     * \return true if the link i - j is a dateline (wrap link of a ring or torus ring).
     */
    bool IsDateline(uint32_t i, uint32_t j) const;

    /**
     * \brief The dateline VC scheme (what the DLIUs apply under DATELINE_VCS): the VC of
     *        hop \p hop of GetPath(src, dst) for a message of base VC \p baseVc (0 request,
     *        1 response): baseVc + 2 from the hop that crosses a dateline on (per dimension
     *        on a torus), else baseVc.
     * \param src a CPU. \param dst another CPU. \param hop 0..GetHopCount()-1.
     * \param baseVc 0 or 1.
     * \return the VC.
     */
    uint32_t DatelineVc(uint32_t src, uint32_t dst, uint32_t hop, uint32_t baseVc) const;

    /**
     * \brief Dally-Seitz check of the installed routes with same-VC forwarding (the DLIU
     *        today): the graph of directed links, with an edge for every pair of consecutive
     *        hops of some route, is acyclic.
     * \return true if deadlock-free.
     */
    bool ChannelDependenciesAcyclic() const;

    /**
     * \brief The same check on (directed link, VC) with DatelineVc() (the DLIUs' VC switch
     *        under DATELINE_VCS), for base VCs 0 and 1.
     * \return true if deadlock-free.
     */
    bool DatelineVcsAcyclic() const;

    /**
     * \brief The check that applies to the built network: DatelineVcsAcyclic() if its DLIUs
     *        switch VCs at datelines (DATELINE_VCS on a ring or torus), else
     *        ChannelDependenciesAcyclic().
     * \return true if deadlock-free.
     */
    bool DeadlockFree() const;

    /**
     * \brief Fixed random streams for the error processes of every link.
     * \param stream the first stream.
     * \return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /**
     * \brief Create n CPUs with their DLIUs (forgets a previous build).
     * \param n number of CPUs. \param topology what is built.
     */
    void Begin(uint32_t n, Topology topology);
    /**
     * \brief Link two CPUs.
     * \param a a CPU. \param b another CPU.
     */
    void Connect(uint32_t a, uint32_t b);
    /// \brief Compute the BFS distances and fill every routing table.
    void Finish();
    /**
     * \param cur current CPU. \param dst destination (not cur).
     * \return the next CPU toward dst.
     */
    uint32_t NextHop(uint32_t cur, uint32_t dst) const;
    /**
     * \param pos position on a ring. \param dst destination position. \param k ring size.
     * \return +1 or -1, the direction taken.
     */
    int32_t RingDirection(uint32_t pos, uint32_t dst, uint32_t k) const;
    /**
     * \param i a CPU.
     * \param caller the calling method, for the message.
     */
    void CheckCpu(uint32_t i, const char* caller) const;
    /**
     * \param vcs true: with DatelineVc(); false: same VC.
     * \return true if the dependency graph is acyclic.
     */
    bool DependenciesAcyclic(bool vcs) const;

    DirectLinkHelper m_links;                              //!< builds links and DLIUs
    RiflHelper m_rifl;                                     //!< builds RIFL links
    ObjectFactory m_portFactory;                           //!< RiflMessagePorts
    LinkTechnology m_technology{DIRECT_LINK};              //!< link technology
    DeadlockAvoidance m_avoidance{DATELINE_VCS};           //!< deadlock avoidance
    uint32_t m_ranks{1};                                   //!< SetRanks
    bool m_splitRemote{false};                             //!< SetSplitRemoteLinks
    std::vector<uint32_t> m_rankOfCpu;                     //!< by CPU
    uint32_t m_linksAcrossRanks{0};                        //!< of the last build
    Topology m_topology{NONE};                             //!< what was built
    uint32_t m_x{0};                                       //!< mesh/torus X (ring: n)
    uint32_t m_y{0};                                       //!< mesh/torus Y
    uint32_t m_dim{0};                                     //!< hypercube dimension
    NodeContainer m_cpus;                                  //!< CPU nodes
    std::vector<Ptr<DirectLinkInterfaceUnit>> m_dlius;     //!< by CPU
    std::vector<std::map<uint32_t, Ptr<NetDevice>>> m_ifs; //!< CPU -> neighbour -> dev
    std::vector<NetDeviceContainer> m_linkDevs;            //!< links in build order
    std::vector<std::vector<uint32_t>> m_dist;             //!< [src][dst] BFS distances
};

} // namespace ns3

#endif /* MULTIPROCESSOR_TOPOLOGY_HELPER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_DCN_TRAFFIC_HELPER_H
#define RIFL_DCN_TRAFFIC_HELPER_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class DcnTopologyHelper;
class TcpHeader;
class TcpSocketBase;

/**
 * \ingroup rifl-ns3
 * \brief What traffic DcnTrafficHelper generates.
 */
struct DcnTrafficConfig
{
    /// Who sends to whom.
    enum Pattern
    {
        PERMUTATION, //!< every host sends one flow to another, a random derangement
        ALL_TO_ALL,  //!< every host sends one flow to every other host
        INCAST,      //!< incastSenders hosts send one flow each to incastReceiver
        RANDOM,      //!< Poisson arrivals per host at `load`, random destinations
    };

    /// Transport of the flows.
    enum Transport
    {
        TCP, //!< a BulkSend-style TCP sender writing `bytes`, then closing
        UDP, //!< datagrams of segmentBytes paced at udpRateFraction x the host line rate
    };

    Pattern pattern{PERMUTATION};     //!< pattern
    Transport transport{TCP};         //!< transport
    uint64_t flowBytes{1000000};      //!< size of every flow when flowSizeCdf is empty, >= 1
    std::string flowSizeCdf;          //!< CDF file or "web-search"/"data-mining" (sizes per flow)
    Time start{MicroSeconds(200)};    //!< first flow start (RIFL links up, Startup = Short)
    Time startJitter{NanoSeconds(0)}; //!< PERMUTATION/ALL_TO_ALL/INCAST: uniform [0, jitter)
    uint32_t incastSenders{0};        //!< INCAST: senders (0 = every other host)
    uint32_t incastReceiver{0};       //!< INCAST: the receiving host
    double load{0.3};                 //!< RANDOM: offered load per host, fraction of its line rate
    uint32_t flowsPerHost{10};        //!< RANDOM: flows each host starts
    uint32_t segmentBytes{1460};      //!< TCP SegmentSize / UDP payload per datagram (1500 B IP)
    double udpRateFraction{1.0};      //!< UDP pacing, fraction of the host line rate, (0, 1]
    Time tcpMinRto{MilliSeconds(1)};  //!< TcpSocketBase MinRto (and ConnTimeout)
    uint32_t tcpBufferBytes{1 << 20}; //!< TCP SndBufSize and RcvBufSize
    uint16_t port{5000};              //!< destination port (TCP and UDP)
};

/**
 * \ingroup rifl-ns3
 * \brief One flow and what happened to it.
 */
struct DcnFlowRecord
{
    uint32_t src{0};             //!< sending host index
    uint32_t dst{0};             //!< receiving host index
    uint64_t bytes{0};           //!< flow size, bytes
    double startNs{0};           //!< start (sender created and connecting), ns
    double endNs{-1};            //!< last byte received, ns (-1 if not completed)
    double fctNs{-1};            //!< endNs - startNs (-1 if not completed)
    uint64_t bytesReceived{0};   //!< bytes the receiver got
    bool completed{false};       //!< every byte received
    uint64_t retransmissions{0}; //!< TCP data segments sent again (from the socket's Tx trace)
    uint64_t timeouts{0};        //!< TCP retransmission timeouts (CongState -> CA_LOSS)
    uint64_t datagramsSent{0};   //!< UDP datagrams sent
    uint16_t srcPort{0};         //!< the sender's port
};

/**
 * \ingroup rifl-ns3
 * \brief Host-to-host traffic on a DcnTopologyHelper fabric, with per-flow
 *        completion times.
 *
 * Install() draws the flows (pattern, sizes from a fixed size or a CDF file,
 * start times; every draw from streams fixed by AssignStreams) and schedules
 * them. Each destination host gets one listening socket on `port`; a flow is
 * identified at the receiver by the sender's (address, port). TCP flows are
 * BulkSend-style: at the start the sender socket is created (SegmentSize,
 * MinRto, ConnTimeout, buffers from the config), connects, writes `bytes` as
 * fast as the send buffer allows and closes. The flow completes when the
 * receiver has all `bytes`: FCT = that time - start. Retransmissions are
 * counted from the sender socket's "Tx" trace (a data segment starting below
 * the highest sequence already sent) and timeouts from "CongState". UDP flows
 * pace datagrams at udpRateFraction x the host line rate; a lost datagram
 * leaves the flow incomplete. When every flow has completed the helper calls
 * the completion callback (DcnScenario stops the simulation there).
 */
class DcnTrafficHelper
{
  public:
    /**
     * \brief Constructor.
     * \param config the traffic (std::invalid_argument naming a bad field).
     */
    explicit DcnTrafficHelper(const DcnTrafficConfig& config);

    ~DcnTrafficHelper();

    /**
     * \brief Fix the random streams of the flow draws (before Install).
     * \param stream the first stream, >= 0.
     * \return the number of streams used (4).
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Draw the flows and schedule them on a built fabric.
     *
     * Every flow's sender binds a source port fixed at the draw: its host's flows,
     * in flow order, get ports 1024, 1025, ... (skipping the listening port), so the
     * receiver knows a flow by (sender address, port) without seeing its sender.
     * \param topo the fabric (Install* done).
     */
    void Install(const DcnTopologyHelper& topo);

    /// Value of SetRank() meaning every host is local (the default).
    static constexpr uint32_t ALL_RANKS = 0xffffffff;

    /**
     * \brief On an ns-3 MPI rank: install only the ends of the flows whose hosts are on
     *        this rank (Node::GetSystemId()): senders of local sources, listeners of
     *        local destinations. Each rank then fills the fields of its own ends
     *        (MergeFlows() combines them). Call it before Install.
     * \param rank the rank, or ALL_RANKS.
     */
    void SetRank(uint32_t rank);

    /**
     * \brief Combine the flow records of another rank into these (same draw): the sum
     *        of the counts, the latest end, completed on either side. A field a rank
     *        did not fill is at its default there, so the combination is the record
     *        of the flow's two ends.
     * \param into records to update.
     * \param from another rank's records (as many, same flows).
     */
    static void MergeFlows(std::vector<DcnFlowRecord>& into,
                           const std::vector<DcnFlowRecord>& from);

    /**
     * \brief Called once when the last flow completes.
     * \param cb the callback.
     */
    void SetAllCompleteCallback(Callback<void> cb);

    /// \return every flow (src, dst, size, start before Install returns; results as they happen).
    const std::vector<DcnFlowRecord>& GetFlows() const;

    /// \return the flows completed so far.
    uint32_t GetCompletedFlows() const;

    /// \return the config.
    const DcnTrafficConfig& GetConfig() const;

  private:
    /// \brief Per-flow runtime state.
    struct FlowState
    {
        Ptr<Socket> socket;     //!< sender socket
        uint64_t written{0};    //!< bytes handed to the socket
        uint64_t highestEnd{0}; //!< TCP: highest sequence end sent
        Ptr<Node> node;         //!< sender node
        Address to;             //!< destination
        Time gap;               //!< UDP: time between datagrams
    };

    /**
     * \brief Start flow i (create and connect its socket).
     * \param i the flow.
     */
    void StartFlow(uint32_t i);

    /**
     * \brief Write what the TCP send buffer takes.
     * \param i the flow.
     */
    void FillTcp(uint32_t i);

    /**
     * \brief Send one UDP datagram and schedule the next.
     * \param i the flow.
     */
    void SendUdp(uint32_t i);

    /**
     * \brief A TCP connection was accepted by a listener.
     * \param s the new socket.
     * \param from the peer.
     */
    void OnAccept(Ptr<Socket> s, const Address& from);

    /**
     * \brief Bytes arrived at a receiver socket.
     * \param s the socket.
     */
    void OnReceive(Ptr<Socket> s);

    /**
     * \brief Account bytes to a flow.
     * \param i the flow.
     * \param bytes the bytes.
     */
    void Deliver(uint32_t i, uint64_t bytes);

    /**
     * \brief TCP sender Tx trace.
     * \param i the flow.
     * \param p the segment payload.
     * \param h its TCP header.
     * \param s the socket.
     */
    void OnTcpTx(uint32_t i, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase> s);

    DcnTrafficConfig m_config;                          //!< config
    Ptr<UniformRandomVariable> m_pick;                  //!< pattern draws
    Ptr<UniformRandomVariable> m_jitter;                //!< start jitter
    Ptr<ExponentialRandomVariable> m_arrival;           //!< RANDOM gaps
    Ptr<EmpiricalRandomVariable> m_size;                //!< sizes (CDF)
    int64_t m_sizeStream{-1};                           //!< the size stream (-1: not fixed)
    std::vector<DcnFlowRecord> m_flows;                 //!< flows
    std::vector<FlowState> m_state;                     //!< per flow
    std::vector<Ptr<Socket>> m_listeners;               //!< receiver sockets
    std::unordered_map<uint64_t, uint32_t> m_byPeer;    //!< (addr << 16 | port) -> flow
    std::unordered_map<Socket*, uint32_t> m_acceptedBy; //!< accepted TCP socket -> flow
    std::vector<Ptr<Socket>> m_accepted;                //!< accepted sockets (kept alive)
    uint32_t m_completed{0};                            //!< completed flows
    bool m_installed{false};                            //!< Install done
    uint32_t m_rank{ALL_RANKS};                         //!< SetRank
    Callback<void> m_allComplete;                       //!< completion callback
    std::vector<Ipv4Address> m_hostAddr;                //!< host addresses
    std::vector<Ptr<Node>> m_hostNode;                  //!< host nodes
    uint64_t m_hostRateBps{0};                          //!< host line rate
};

} // namespace ns3

#endif /* RIFL_DCN_TRAFFIC_HELPER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MULTIPROCESSOR_SCENARIO_H
#define MULTIPROCESSOR_SCENARIO_H

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup rifl-scenario
 * \brief Parameters of the multiprocessor direct-connect scenario (MultiprocessorScenario).
 *
 * The topology fields that do not belong to \c topology are ignored (n for
 * "fullmesh" and "ring", x and y for "mesh" and "torus", dim for
 * "hypercube"). The BER is set on every channel and the traffic fields on
 * every CpuTrafficApplication (closed loop); naming those attributes in
 * \c attributes as well is an error (std::invalid_argument), so a run never
 * has two values for one knob.
 */
struct MultiprocessorScenarioConfig
{
    /// "fullmesh", "ring", "mesh" (2D), "torus" (2D) or "hypercube".
    std::string topology{"fullmesh"};
    uint32_t n{4};   //!< CPUs of a full mesh (2..256) or ring (3..256)
    uint32_t x{3};   //!< mesh (1..256) / torus (3..85) CPUs along X
    uint32_t y{3};   //!< mesh (1..256) / torus (3..85) CPUs along Y; mesh 2 <= x*y <= 256
    uint32_t dim{3}; //!< hypercube dimension, 1..8
    /// "dateline-vcs" (shortest routes, DLIUs switch VCs at datelines on rings and tori),
    /// "dateline-routing" (same VC, routes cross a dateline only on their last hop) or
    /// "none" (shortest / dimension-order routes, same VC: can deadlock on rings and tori).
    std::string deadlockAvoidance{"dateline-vcs"};
    /// link technology: "direct" (direct-link devices) or "rifl" (RIFL links carrying the DLIU
    /// messages on RiflMessagePorts, MultiprocessorTopologyHelper::SetLinkTechnology; Startup
    /// Short unless ns3::RiflNetDevice::Startup is in \c attributes)
    std::string link{"direct"};
    double ber{0.0};               //!< bit error rate of both directions of every link, [0, 1)
    uint32_t requestsPerCpu{100};  //!< requests each CPU issues, 1..10^7
    uint32_t window{4};            //!< requests in flight per CPU (closed loop), 1..65536
    uint32_t requestBytes{8};      //!< read request size, 8..4096 (<= 10: one micro-packet)
    uint32_t responseBytes{64};    //!< response size asked for, 4..4096 (64: a cache line)
    double startUs{4.8};           //!< when every CPU starts (after link start-up), [0, 1e6]
    double maxDurationUs{10000.0}; //!< time limit after startUs, (0, 1e9]
    uint64_t rngRun{1};            //!< ns-3 run number (RngSeedManager::SetRun), >= 1
    /// ranks by CPU groups (MultiprocessorTopologyHelper::SetRanks), 1..the CPUs; labels
    /// (the scenario runs in one process; the multiprocessor-direct-connect example runs
    /// on ns-3 MPI ranks)
    uint32_t ranks{1};
    /// run the links between ranks as split halves in this process
    /// (MultiprocessorTopologyHelper::SetSplitRemoteLinks)
    bool splitRemoteLinks{false};
    /// ns-3 attribute defaults, e.g. {"ns3::DirectLinkChannel::Engine", "Reference"}.
    std::map<std::string, std::string> attributes;
    /// Called once just before Simulator::Run, after the set-up (the Python bindings
    /// schedule their Ctrl-C checks here); empty: nothing.
    std::function<void()> beforeRun;
};

/**
 * \ingroup rifl-scenario
 * Number of message-loss reasons (DIRECT_LINK_NUM_LOSS_REASONS).
 */
constexpr uint32_t MULTIPROCESSOR_SCENARIO_LOSS_REASONS = 9;

/**
 * \ingroup rifl-scenario
 * \brief Results of MultiprocessorScenario::Run, summed over every CPU, DLIU and device,
 *        over the measurement window [startUs, end of the run).
 *
 * The run ends when every CPU has issued requestsPerCpu requests and none is
 * outstanding (each answered, or timed out after
 * ns3::CpuTrafficApplication::Timeout), or at the time limit (completed = false).
 */
struct MultiprocessorScenarioResult
{
    std::string topology;                   //!< the topology name
    std::string link;                       //!< the link technology ("direct" or "rifl")
    uint32_t nCpus{0};                      //!< CPUs
    uint32_t nLinks{0};                     //!< links (each two directions)
    uint32_t nLinksAcrossRanks{0};          //!< links between CPUs of different ranks
    bool channelDependenciesAcyclic{false}; //!< Dally-Seitz check of the routes (same VC)
    bool deadlockFree{false}; //!< the check that applies to the built network (VC switch included)
    bool completed{false};    //!< every request answered or timed out in time
    double durationUs{0};     //!< measurement window: startUs to the end of the run

    uint64_t requestsIssued{0};      //!< requests accepted by the DLIUs
    uint64_t requestsRefused{0};     //!< requests the DLIUs refused (no route, queue full)
    uint64_t requestsServed{0};      //!< requests answered by their destinations
    uint64_t requestsErrored{0};     //!< requests received with an error flag (not answered)
    uint64_t responsesOk{0};         //!< responses with correct content, in time
    uint64_t responsesBad{0};        //!< responses with wrong content or length
    uint64_t responsesErrored{0};    //!< responses flagged NetErr/NcErr/truncated/malformed
    uint64_t responsesLate{0};       //!< responses after their request timed out
    uint64_t responsesUnknown{0};    //!< responses to no outstanding request
    uint64_t requestTimeouts{0};     //!< requests without a response within Timeout
    uint64_t requestsOutstanding{0}; //!< still waiting at the end (0 if completed)
    uint64_t responseBytes{0};       //!< bytes of correct responses
    double throughputGbps{0};        //!< responseBytes x 8 / durationUs, all CPUs together

    uint64_t messagesSent{0};             //!< messages the CPUs' DLIUs sent (requests + responses)
    uint64_t messagesDelivered{0};        //!< messages handed to their destination CPU
    uint64_t messagesDeliveredErrored{0}; //!< of which with NetErr/NcErr, truncated or malformed
    uint64_t messagesForwarded{0};        //!< store-and-forward hops at intermediate DLIUs
    uint64_t forwardsExpected{0};         //!< sum over correct responses of (hops there + back - 2)
    uint64_t forwardTruncated{0};         //!< truncated/malformed messages not forwarded
    uint64_t sendFailures{0};             //!< DLIU Send refusals (no route, queue full)
    uint64_t linkMessagesAccepted{0};     //!< messages accepted by the devices (every hop)
    uint64_t linkMessagesDelivered{0};    //!< received intact by the devices (every hop)
    uint64_t linkMessagesTruncated{0};    //!< received truncated (NetErr)
    uint64_t linkMessagesMalformed{0};    //!< received malformed
    uint64_t contentMismatches{0};        //!< received intact-looking but differing
    uint64_t messagesLost{0};             //!< counted lost by the devices (any reason)
    /// held open by a receiver after a stale handshake (pending; see
    /// DirectLinkDeviceCounters::messagesHeldOpen)
    uint64_t messagesHeldOpen{0};
    /// messagesLost by DirectLinkLossReason (RETRANS_LIMIT, ..., FALSE_ACK, VC_OVERFLOW).
    std::array<uint64_t, MULTIPROCESSOR_SCENARIO_LOSS_REASONS> lostByReason{};

    double latencyNsMean{0}; //!< request -> response latency over correct responses, mean
    double latencyNsMin{0};  //!< minimum
    double latencyNsP50{0};  //!< median (nearest rank)
    double latencyNsP99{0};  //!< 99th percentile
    double latencyNsP999{0}; //!< 99.9th percentile
    double latencyNsMax{0};  //!< maximum
    double hopsMean{0};      //!< request route length over correct responses, mean
    uint32_t hopsMax{0};     //!< longest request route of a correct response

    uint64_t microPackets{0};      //!< non-Null micro-packets sent, every link direction
    uint64_t dataMicroPackets{0};  //!< Data micro-packets sent (first sends and resends)
    double linkUtilisationMean{0}; //!< non-Null micro-packets / slots, mean over directions
    double linkUtilisationMax{0};  //!< the busiest link direction
    uint64_t retransmissions{0};   //!< micro-packets resent (Go-Back-N)
    uint64_t ackTimeouts{0};       //!< AckTime expiries
    uint64_t crcErrors{0};         //!< received micro-packets failing a check
    uint64_t shutdowns{0};         //!< link Shutdowns (both sides of every link)
    uint64_t undetectedErrors{0};  //!< corrupted micro-packets accepted by a receiver
    double pUndetected{0};         //!< DirectLinkUndetectedExact(ber, poly) per micro-packet
    double networkMtbfYears{0};    //!< 1 / sum over link directions of 1 / MTBF (measured rate)
    double networkMtbfYearsFullLine{0}; //!< the same with every slot of every direction used
    double lineRateGbps{0};             //!< line rate of one direction
    double slotNs{0};                   //!< micro-packet time
    uint32_t oneWayDelaySlots{0};       //!< effective one-way delay L
    double wallSeconds{0};              //!< wall time of Simulator::Run
    uint64_t events{0};                 //!< ns-3 events executed
};

/**
 * \ingroup rifl-scenario
 * \brief A multiprocessor on direct links (or RIFL links) with closed-loop
 *        request/response traffic on every CPU, measured.
 *
 * The scenario behind the Python binding run_multiprocessor: a
 * MultiprocessorTopologyHelper builds the topology (every channel with the
 * configured BER, devices, channels and DLIUs with the attribute defaults of
 * \c attributes) and fills the routing tables; every CPU runs a
 * CpuTrafficApplication from startUs on, closed loop with \c window requests
 * in flight to destinations chosen uniformly among the other CPUs, until it
 * has issued requestsPerCpu requests. Every response's content is checked by
 * its requester. Latency percentiles are over the correct responses; each
 * counter is the difference between the end of the run and startUs. Link
 * utilisation counts the non-Null micro-packets (Data, Credit, Init, ...) of
 * each link direction over the slots of the window. The network MTBF is the
 * harmonic sum over link directions of 1 / (P_ud x measured non-Null
 * micro-packet rate), P_ud the exact undetected-error probability of one
 * micro-packet.
 *
 * With RIFL links (\c link "rifl") the link fields count RIFL's own units: the
 * link message counters are the RiflMessagePorts' (linkMessagesDelivered intact,
 * contentMismatches changed by an undetected error, linkMessagesMalformed
 * packets that did not parse, messagesLost and lostByReason the ports' losses;
 * messagesHeldOpen, ackTimeouts and shutdowns are 0); retransmissions are RIFL
 * frames replayed, crcErrors frames failing the check (the line hits and the
 * frames after them until the replay, RiflEndpointCounters::errorsDetected),
 * undetectedErrors RIFL's; microPackets are the frames that carried user data
 * (first sends and replays) and dataMicroPackets the first sends, utilisation is
 * new user frames per frame slot of all lanes, P_ud the exact RIFL undetected
 * probability of one frame (LinkReliabilityModel::RiflUndetectedExact), the MTBF
 * over the user frames sent; lineRateGbps is lanes x lane rate, slotNs one frame
 * slot and oneWayDelaySlots RIFL's line delay in frame slots.
 *
 * Run validates the configuration first (std::invalid_argument
 * naming the parameter), calls Simulator::Destroy before and after the run
 * (also when it throws) and restores the attribute defaults it changed.
 */
class MultiprocessorScenario
{
  public:
    /// Most requests of a run, requestsPerCpu x CPUs (2^30): the scenario keeps one
    /// latency sample per response (8 bytes, up to twice that while the vector grows),
    /// so this bounds them at 16 GiB.
    static constexpr uint64_t MAX_REQUESTS = uint64_t{1} << 30;

    /**
     * \brief Run the scenario.
     * \param config the parameters (std::invalid_argument naming a bad one).
     * \return the measurements.
     */
    static MultiprocessorScenarioResult Run(const MultiprocessorScenarioConfig& config);
};

} // namespace ns3

#endif /* MULTIPROCESSOR_SCENARIO_H */

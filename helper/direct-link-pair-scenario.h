/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_PAIR_SCENARIO_H
#define DIRECT_LINK_PAIR_SCENARIO_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup rifl-scenario
 * \brief Parameters of the two-CPU direct-link scenario (DirectLinkPairScenario).
 *
 * The traffic fields below are set on every CpuTrafficApplication and the BER
 * on the channel; naming the same attributes in \c attributes as well is an
 * error (std::invalid_argument), so a run never has two values for one knob.
 */
struct DirectLinkPairScenarioConfig
{
    double ber{0.0};            //!< bit error rate of both directions, [0, 1)
    uint32_t requestBytes{8};   //!< read request size, 8..4096 (<= 10: one micro-packet)
    uint32_t responseBytes{64}; //!< response size asked for, 4..4096 (64: a cache line)
    bool closedLoop{true};      //!< closed loop (maxOutstanding in flight) or open loop
    uint32_t maxOutstanding{8}; //!< closed loop: requests in flight per CPU, 1..65536
    double requestRate{1e6};    //!< open loop: Poisson requests per second per CPU, (0, 1e10]
    double warmupUs{10.0};      //!< time before the measurement window (link start-up), [0, 1e9]
    double durationUs{200.0};   //!< length of the measurement window, (0, 1e9]
    bool bidirectional{true};   //!< both CPUs send requests (else only CPU 0)
    uint64_t rngRun{1};         //!< ns-3 run number (RngSeedManager::SetRun), >= 1
    /// ns-3 attribute defaults, e.g. {"ns3::DirectLinkChannel::Engine", "Reference"}.
    std::map<std::string, std::string> attributes;
    /// Called once just before Simulator::Run, after the set-up (the Python bindings
    /// schedule their Ctrl-C checks here); empty: nothing.
    std::function<void()> beforeRun;
};

/**
 * \ingroup rifl-scenario
 * \brief Results of DirectLinkPairScenario::Run, over the measurement window,
 *        summed over both CPUs / both devices.
 */
struct DirectLinkPairScenarioResult
{
    uint64_t requestsIssued{0};   //!< requests sent in the window
    uint64_t responses{0};        //!< correct, in-time responses received in the window
    uint64_t responsesBad{0};     //!< responses with wrong content or length
    uint64_t responsesErrored{0}; //!< responses flagged NetErr/NcErr/truncated/malformed
    uint64_t requestTimeouts{0};  //!< requests that timed out (CpuTrafficApplication)
    uint64_t responseBytes{0};    //!< bytes of correct responses
    double responsesPerSecond{0}; //!< responses / window (simulated time)
    double throughputGbps{0};     //!< responseBytes x 8 / window
    double latencyNsMean{0};      //!< request -> response latency, mean
    double latencyNsP50{0};       //!< median
    double latencyNsP99{0};       //!< 99th percentile
    double latencyNsP999{0};      //!< 99.9th percentile
    double latencyNsMax{0};       //!< maximum
    uint64_t retransmissions{0};  //!< micro-packets resent (Go-Back-N)
    uint64_t ackTimeouts{0};      //!< AckTime expiries
    uint64_t crcErrors{0};        //!< received micro-packets failing a check
    uint64_t shutdowns{0};        //!< link Shutdowns
    uint64_t messagesLost{0};     //!< messages counted lost by the senders
    /// messages held open by a receiver after a stale handshake (pending; see
    /// DirectLinkDeviceCounters::messagesHeldOpen)
    uint64_t messagesHeldOpen{0};
    uint64_t messagesTruncated{0};   //!< messages delivered truncated
    uint64_t undetectedErrors{0};    //!< corrupted micro-packets accepted by a receiver
    uint64_t contentMismatches{0};   //!< messages delivered intact-looking but differing
    uint64_t microPackets{0};        //!< non-Null micro-packets sent, both directions
    double microPacketsPerSecond{0}; //!< microPackets / window (the measured rate)
    double pUndetected{0};           //!< DirectLinkUndetectedExact(ber, poly) per micro-packet
    double mtbfYears{0};             //!< 1 / (pUndetected x microPacketsPerSecond), in years
    double mtbfYearsFullLine{0};     //!< the same with every slot of both directions carrying
    double lineRateGbps{0};          //!< line rate of one direction
    double slotNs{0};                //!< micro-packet time
    uint32_t oneWayDelaySlots{0};    //!< effective one-way delay L
    double wallSeconds{0};           //!< wall time of Simulator::Run
    uint64_t events{0};              //!< ns-3 events executed
};

/**
 * \ingroup rifl-scenario
 * \brief Two CPUs on one direct link with request/response traffic, measured.
 *
 * The scenario behind the Python binding run_direct_link_pair and the
 * direct-link benchmark: two nodes, one DirectLinkHelper link with the
 * configured attributes, a DLIU and a CpuTrafficApplication on each (CPU 1
 * only answers unless bidirectional), the applications running from time 0
 * until the end of the measurement window [warmupUs, warmupUs + durationUs).
 * Latency percentiles are over the correct responses that arrive in the
 * window; every counter is the difference between the window's end and
 * start. The MTBF uses the measured rate of non-Null micro-packets (Data,
 * Credit, Init) and the exact undetected-error probability of one
 * micro-packet. Each Run calls Simulator::Destroy first (discarding what an
 * earlier, failed scenario left behind) and at the end (also when it throws).
 */
class DirectLinkPairScenario
{
  public:
    /// Most memory the latency samples of a run may take (16 GiB): the scenario keeps
    /// the latency of every response in the window (8 bytes each, up to twice that
    /// while the vector grows), so it refuses, up front, a window that could need more
    /// (at most one response per micro-packet time, and in open loop no more than
    /// the CPUs request) before the simulation runs, instead of running out of memory.
    /// About 41 s of simulated window at the default 5 Gb/s, closed loop.
    static constexpr double MAX_SAMPLE_BYTES = 16.0 * 1024 * 1024 * 1024;

    /**
     * \brief Run the scenario.
     * \param config the parameters (std::invalid_argument naming a bad one).
     * \return the measurements.
     */
    static DirectLinkPairScenarioResult Run(const DirectLinkPairScenarioConfig& config);
};

} // namespace ns3

#endif /* DIRECT_LINK_PAIR_SCENARIO_H */

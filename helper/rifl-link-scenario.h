/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_LINK_SCENARIO_H
#define RIFL_LINK_SCENARIO_H

#include "ns3/rifl-link-counters.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup rifl-scenario
 * \brief Parameters of the single-link scenario (RiflLinkScenario).
 */
struct RiflLinkScenarioConfig
{
    double ber{0.0};  //!< bit error rate of every lane, both directions, [0, 1)
    double load{1.0}; //!< offered load per direction, fraction of the line; >= 1 saturates
    uint32_t minPacketBytes{1};    //!< smallest packet (uniform sizes), 1..9000
    uint32_t maxPacketBytes{8192}; //!< largest packet, minPacketBytes..9000
    double warmupUs{20.0};         //!< time before the measurement window (link start-up)
    double durationUs{100.0};      //!< length of the measurement window, > 0
    bool bidirectional{true};      //!< traffic in both directions (as the paper)
    uint64_t rngRun{1};            //!< ns-3 run number (RngSeedManager::SetRun)
    /// ns-3 attribute defaults, e.g. {"ns3::RiflNetDevice::FrameSize", "512"}.
    std::map<std::string, std::string> attributes;
    /// Called once just before Simulator::Run, after the set-up (the Python bindings
    /// schedule their Ctrl-C checks here); empty: nothing.
    std::function<void()> beforeRun;
    /// Attributes of device A only (RiflNetDevice attribute names, e.g.
    /// {"ClockOffsetPpm", "100"}, {"DrainRate", "2"}), set after the defaults.
    std::map<std::string, std::string> deviceAttributesA;
    /// Attributes of device B only.
    std::map<std::string, std::string> deviceAttributesB;
};

/**
 * \ingroup rifl-scenario
 * \brief Measurements of one direction of the scenario.
 */
struct RiflLinkDirectionResult
{
    uint64_t packetsOffered{0};    //!< packets handed to the sending device
    uint64_t packetsDelivered{0};  //!< packets delivered in the window
    uint64_t packetsCorrupt{0};    //!< of which with changed bytes (undetected errors)
    uint64_t bytesDelivered{0};    //!< payload bytes delivered in the window
    double goodputGbps{0};         //!< bytesDelivered x 8 / window
    double lineShare{0};           //!< new user frames / (lanes x slots) in the window
    double wordLatencyNsMean{0};   //!< per user word (spec 11.2)
    double wordLatencyNsP50{0};    //!< median
    double wordLatencyNsP99{0};    //!< 99th percentile
    double wordLatencyNsP999{0};   //!< 99.9th percentile
    double wordLatencyNsMax{0};    //!< maximum
    double packetLatencyNsMean{0}; //!< offer to delivery of a packet's last byte
    double packetLatencyNsP99{0};  //!< 99th percentile
    double packetLatencyNsMax{0};  //!< maximum
};

/**
 * \ingroup rifl-scenario
 * \brief Results of RiflLinkScenario::Run.
 */
struct RiflLinkScenarioResult
{
    RiflLinkDirectionResult aToB;   //!< A to B
    RiflLinkDirectionResult bToA;   //!< B to A (zero if not bidirectional)
    RiflEndpointCounters countersA; //!< engine counters of A
    RiflEndpointCounters countersB; //!< engine counters of B
    double lineRateGbps{0};         //!< lanes x lane rate
    double slotNs{0};               //!< frame slot
    uint32_t frameIdWidth{0};       //!< effective Frame ID width
    uint32_t lineDelaySlots{0};     //!< effective one-way line delay
    double mtbfYearsPaper{0};       //!< S / (lambda_actual P_ue), lambda_actual measured;
                                    //!< NaN where the paper's P_ue exceeds 1 (BER > ~0.07)
    double mtbfYearsExact{0};       //!< the same with the exact P_ud
    double wallSeconds{0};          //!< wall time of Simulator::Run
    uint64_t events{0};             //!< ns-3 events executed
};

/**
 * \ingroup rifl-scenario
 * \brief One RIFL link between two nodes, device-level traffic, measured.
 *
 * The scenario behind the rifl-link example, the benchmarks and the Python
 * bindings: two nodes, one RiflHelper link with the configured attributes,
 * packets of uniform random size offered at the device (no IP stack, so the
 * link itself is measured) at a Poisson rate or saturating (the queue is kept
 * full), a measurement window after start-up, per-word and per-packet
 * latency, goodput, the share of line slots carrying new user data, the
 * engine counters, and the MTBF from the measured actual bandwidth. Each Run
 * calls Simulator::Destroy at the end.
 */
class RiflLinkScenario
{
  public:
    /// Most memory the latency samples of a run may take (16 GiB): the scenario keeps
    /// every per-word and per-packet latency of the window (8 bytes each, up to twice
    /// that while a vector grows), so it refuses a window that would need more, up
    /// front, instead of running out of memory. About 1.2 s of simulated window at
    /// 112 Gb/s, saturating both directions, UserWordBytes = 32.
    static constexpr double MAX_SAMPLE_BYTES = 16.0 * 1024 * 1024 * 1024;

    /**
     * \brief Run the scenario.
     * \param config the parameters (std::invalid_argument naming a bad one).
     * \return the measurements.
     */
    static RiflLinkScenarioResult Run(const RiflLinkScenarioConfig& config);

  private:
    /**
     * \brief The body of Run (Run destroys the simulator if it throws).
     * \param config the parameters.
     * \return the measurements.
     */
    static RiflLinkScenarioResult DoRun(const RiflLinkScenarioConfig& config);
};

} // namespace ns3

#endif /* RIFL_LINK_SCENARIO_H */

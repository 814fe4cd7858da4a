/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_DCN_SCENARIO_H
#define RIFL_DCN_SCENARIO_H

#include "ns3/dcn-traffic-helper.h"
#include "ns3/reliability-report-helper.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-ns3
 * \brief Parameters of one data-center run (DcnScenario).
 */
struct DcnScenarioConfig
{
    std::string topology{"fat-tree"};  //!< "fat-tree" or "leaf-spine"
    uint32_t k{4};                     //!< fat-tree arity (even, >= 2)
    uint32_t leaves{4};                //!< leaf-spine leaves
    uint32_t spines{2};                //!< leaf-spine spines
    uint32_t hostsPerLeaf{4};          //!< leaf-spine hosts per leaf
    std::string technology{"rifl"};    //!< "rifl" or "ethernet" (PointToPoint + ExactBitErrorModel)
    double hostRateGbps{112.0};        //!< host-link line rate
    double fabricRateGbps{112.0};      //!< fabric-link line rate
    double hostCableM{3.0};            //!< host-link cable length, m
    double fabricCableM{10.0};         //!< fabric-link cable length, m
    double hostBer{0.0};               //!< host-link BER
    double fabricBer{0.0};             //!< fabric-link BER
    uint32_t riflLanes{4};             //!< RIFL lanes per direction
    uint32_t queuePackets{1000};       //!< device queue, packets
    uint32_t ethernetOverheadBytes{0}; //!< baseline framing bytes exposed to errors per packet
    std::string ecmp{"per-flow"};      //!< "per-flow", "per-packet" or "off"
    DcnTrafficConfig traffic;          //!< the traffic
    double durationUs{0.0};            //!< > 0: stop this long after traffic start (fixed window)
    double timeoutUs{1e6}; //!< durationUs = 0: stop when every flow completed, or after this
    uint64_t rngRun{1};    //!< ns-3 run number (RngSeedManager::SetRun)
    bool report{true};     //!< collect the ReliabilityReportHelper report
    /// Ranks the nodes are spread over (DcnTopologyHelper::SetRanks: fat-tree by pod,
    /// leaf-spine by leaf group). 0 = the MPI size when the module runs on ns-3 MPI,
    /// else 1; more than 1 without MPI only labels the nodes (one process).
    uint32_t ranks{0};
    uint32_t coreRank{0}; //!< the rank of the core / spine switches, below the ranks
    /// RIFL links between ranks run split (RiflChannel::Split), as on MPI, in one process.
    bool splitRemoteLinks{false};
    /// RiflCanonicalTies for the run: what RIFL links deliver at one instant reaches the
    /// nodes in a canonical order, so the results do not depend on how the links are
    /// driven (one engine per link, split halves, MPI ranks).
    bool canonicalTies{true};
    /// ns-3 attribute defaults, e.g. {"ns3::RiflNetDevice::FrameSize", "512"}; restored after the
    /// run.
    std::map<std::string, std::string> attributes;
    /// Called once just before Simulator::Run, after the set-up (the Python bindings
    /// schedule their Ctrl-C checks here); empty: nothing.
    std::function<void()> beforeRun;
};

/**
 * \ingroup rifl-ns3
 * \brief Counters of one link tier (host links or fabric links), both directions.
 */
struct DcnTierCounters
{
    uint32_t links{0};              //!< links of the tier
    uint64_t txPackets{0};          //!< packets sent on the tier's links (PhyTxEnd)
    uint64_t txBytes{0};            //!< their bytes (IP packets incl. PPP field)
    uint64_t queueDrops{0};         //!< packets dropped at a full device queue (MacTxDrop)
    uint64_t corruptionDrops{0};    //!< baseline: packets dropped by the error model
    uint64_t rxDrops{0};            //!< PhyRxDrop (baseline: = corruptionDrops; RIFL: undetected
                                    //!< corruption with DeliverCorrupted = false)
    uint64_t riflErrorsDetected{0}; //!< RIFL: frames that failed the check
    uint64_t riflReplays{0};        //!< RIFL: replays
    uint64_t riflUndetected{0};     //!< RIFL: undetected errors (ground truth)
    uint64_t riflFcFifoDrops{0};    //!< RIFL: frames dropped at a full FC FIFO
    double utilization{0.0};        //!< txBytes x 8 / (2 x links x line rate x run time)
};

/**
 * \ingroup rifl-ns3
 * \brief Measurements of one DcnScenario run.
 */
struct DcnScenarioResult
{
    uint32_t hosts{0};                      //!< hosts
    uint32_t switches{0};                   //!< switches
    uint32_t links{0};                      //!< links
    std::vector<DcnFlowRecord> flows;       //!< every flow
    uint32_t flowsCompleted{0};             //!< flows with every byte received
    uint64_t bytesOffered{0};               //!< sum of flow sizes
    uint64_t bytesReceived{0};              //!< sum received
    double fctUsMean{0};                    //!< over completed flows
    double fctUsP50{0};                     //!< median FCT
    double fctUsP99{0};                     //!< 99th percentile
    double fctUsP999{0};                    //!< 99.9th percentile
    double fctUsMax{0};                     //!< maximum
    double goodputGbps{0};                  //!< bytesReceived x 8 / (end - traffic start)
    double trafficEndUs{0};                 //!< end: last completion, or the stop time
    uint64_t packetsLostToCorruption{0};    //!< baseline error-model drops + RIFL PhyRxDrop
    uint64_t queueDrops{0};                 //!< all tiers
    uint64_t tcpRetransmissions{0};         //!< summed over flows
    uint64_t tcpTimeouts{0};                //!< summed over flows
    DcnTierCounters hostTier;               //!< host links
    DcnTierCounters fabricTier;             //!< fabric links
    ReliabilityReportHelper::Report report; //!< the reliability report (if requested)
    std::string reportJson;                 //!< the report as JSON
    uint64_t packetHops{0};                 //!< packets sent on any link (both tiers)
    uint64_t events{0};                     //!< ns-3 events executed
    double simulatedUs{0};                  //!< simulated time at the end
    double setupSeconds{0};                 //!< wall time to build the fabric and traffic
    double wallSeconds{0};                  //!< wall time of Simulator::Run (slowest rank)
    uint32_t ranks{1};                      //!< ranks the nodes were spread over
    uint32_t mpiRanks{1};                   //!< MPI processes that ran it (1: sequential)
};

/**
 * \ingroup rifl-ns3
 * \brief A data-center fabric with traffic, run and measured.
 *
 * Builds the fabric (DcnTopologyHelper), the traffic (DcnTrafficHelper),
 * fixes every random stream from the run number (error processes, ECMP,
 * flow draws), runs until every flow completed (or the timeout, or for a
 * fixed window), and returns per-flow records, FCT percentiles, goodput,
 * corruption losses, TCP retransmissions, per-tier link counters and the
 * reliability report. The attribute defaults of `attributes` are restored
 * after the run and Simulator::Destroy is called, also when the run throws,
 * so runs in one process do not affect each other.
 */
class DcnScenario
{
  public:
    /// Most hosts of a fabric (a k = 64 fat-tree has 65536).
    static constexpr uint64_t MAX_HOSTS = 65536;
    /**
     * Most memory the fabric's links may take, estimated before anything is built
     * (16 GiB): a fabric that does not fit would end the process (std::bad_alloc, the
     * OOM killer, SIGSEGV under a memory limit) instead of an error. A link takes
     * about 40 KiB, a RIFL link 40 KiB + 320 B x lanes x D (1 + D / 1024) with
     * D = 2^FrameIdWidth frames per lane (from its lane rate and cable, the RTL rule),
     * measured (and rounded up) from 101 KiB at 4 lanes and D = 64 (the defaults) to
     * 10 MiB at 16 lanes, 1.6 Tb/s and 300 m (D = 1024). With the defaults this admits
     * a k = 48 fat-tree (82944 links, about 10 GiB), not a k = 64 one.
     */
    static constexpr double MAX_FABRIC_BYTES = 16.0 * 1024 * 1024 * 1024;
    /// Most flows of a run's traffic (DcnTrafficHelper's limit, checked before drawing them).
    static constexpr uint64_t MAX_FLOWS = 4000000;

    /**
     * \brief Run the scenario.
     * \param config the parameters (std::invalid_argument naming a bad one).
     * \return the measurements.
     */
    static DcnScenarioResult Run(const DcnScenarioConfig& config);

    /**
     * \brief Nearest-rank quantile of sorted values.
     * \param sorted the values, ascending.
     * \param q the quantile, [0, 1].
     * \return the value (0 if empty).
     */
    static double Quantile(const std::vector<double>& sorted, double q);

    /**
     * \brief The estimated memory of one link (see MAX_FABRIC_BYTES).
     * \param config the parameters (technology, RIFL lanes).
     * \param rateGbps the link's line rate.
     * \param cableM its cable length.
     * \return bytes.
     */
    static double EstimatedLinkBytes(const DcnScenarioConfig& config, double rateGbps,
                                     double cableM);

  private:
    /**
     * \brief The body of Run.
     * \param config the parameters.
     * \return the measurements.
     */
    static DcnScenarioResult DoRun(const DcnScenarioConfig& config);
};

} // namespace ns3

#endif /* RIFL_DCN_SCENARIO_H */

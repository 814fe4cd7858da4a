/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_RELIABILITY_REPORT_HELPER_H
#define RIFL_RELIABILITY_REPORT_HELPER_H

#include "ns3/nstime.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-analytics
 * \brief Reliability report of every link direction in the simulation.
 *
 * Collect() walks NodeList and, for every RiflNetDevice and every
 * PointToPointNetDevice or two-port CsmaNetDevice whose "ReceiveErrorModel"
 * is an ExactBitErrorModel (the Ethernet baselines), makes one entry per direction: the receiving
 * device's view of what its peer sent.
 *
 * RIFL direction (peer TX -> this RX): frames received, errors detected,
 * replays and slots lost (the peer's TX counters), the bandwidth share (new
 * user frames / lane-slots the peer's TX spent in any state), P_ud exact
 * (LinkReliabilityModel::RiflUndetectedExact) and the paper's approximation
 * (RiflUndetectedPaper) at the channel's BER and the device's frame size,
 * the measured frame rate (Data frames accepted in sequence, incl. fill and
 * FC frames, / measurement time: the actual rate, replays excluded as in
 * spec 3) and MTBF = 1 / (rate x P_ud exact).
 *
 * Baseline direction: packets judged and lost to corruption (the
 * ExactBitErrorModel counters), bit errors, the CRC-32 P_ud
 * (LinkReliabilityModel::EthernetUndetectedExact at the model's BER over the
 * configured Ethernet frame length), the packet rate and MTBF.
 *
 * Network: the summed undetected-error rate (1/s) over every direction, the
 * network MTBF (its inverse = LinkReliabilityModel::NetworkMtbfSeconds of the
 * per-direction MTBFs) and its FIT. An infinite MTBF (no traffic or BER 0) is
 * written to JSON as null.
 */
class ReliabilityReportHelper
{
  public:
    /// One link direction.
    struct DirectionReport
    {
        std::string technology;       //!< "rifl" or "ethernet"
        uint32_t txNode{0};           //!< sending node id
        uint32_t txIfIndex{0};        //!< sending device's ifIndex
        uint32_t rxNode{0};           //!< receiving node id
        uint32_t rxIfIndex{0};        //!< receiving device's ifIndex
        double ber{0.0};              //!< BER of the direction
        double lineRateBps{0.0};      //!< line rate (RIFL: lanes x lane rate)
        uint32_t frameBits{0};        //!< RIFL frame size S / Ethernet frame bits
        uint64_t frames{0};           //!< RIFL: frames received; Ethernet: packets judged
        uint64_t dataFrames{0};       //!< RIFL: Data frames accepted; Ethernet: packets judged
        uint64_t errorsDetected{0};   //!< RIFL: detected errors; Ethernet: packets corrupted
        uint64_t replays{0};          //!< RIFL: replays started by the sender
        uint64_t slotsLost{0};        //!< RIFL: the sender's lost slots
        uint64_t undetectedErrors{0}; //!< RIFL: undetected errors observed (ground truth)
        uint64_t packetsLost{0};      //!< Ethernet: packets lost to corruption
        uint64_t bitErrors{0};        //!< Ethernet: bit errors inside packets
        double bandwidthShare{0.0};   //!< RIFL: new user frames / sender lane-slots
        uint64_t txNewUserFrames{0};  //!< RIFL: the sender's new user frames (share's numerator)
        uint64_t txLaneSlots{0};      //!< RIFL: the sender's lane-slots (share's denominator)
        double pudExact{0.0};         //!< exact undetected probability per frame
        double pudPaper{0.0};         //!< RIFL: paper approximation (Ethernet: = exact)
        double framesPerSecond{0.0};  //!< measured frame (packet) rate
        double undetectedRate{0.0};   //!< framesPerSecond x pudExact, 1/s
        double mtbfSeconds{0.0};      //!< 1 / undetectedRate (infinity if 0)
    };

    /// The whole report.
    struct Report
    {
        double measurementSeconds{0.0};          //!< time the rates are measured over
        std::vector<DirectionReport> directions; //!< every link direction
        uint32_t riflDirections{0};              //!< of which RIFL
        uint32_t ethernetDirections{0};          //!< of which Ethernet baseline
        uint64_t ethernetPacketsLost{0};         //!< summed baseline packets lost
        double undetectedRate{0.0};              //!< summed undetected-error rate, 1/s
        double networkMtbfSeconds{0.0};          //!< harmonic network MTBF (infinity if 0)
        double networkMtbfYears{0.0};            //!< the same in years
        double fit{0.0};                         //!< failures per 1e9 hours
    };

    /// \brief Constructor: measurement time = Simulator::Now(), Ethernet frame 1518 B.
    ReliabilityReportHelper();

    /**
     * \brief Measure rates over this time instead of Simulator::Now().
     * \param t > 0.
     */
    void SetMeasurementTime(Time t);

    /**
     * \brief Bytes of a baseline Ethernet frame for the CRC-32 P_ud
     *        (header + payload + FCS).
     * \param bytes 8..2000.
     */
    void SetEthernetFrameBytes(uint32_t bytes);

    /**
     * \brief Walk NodeList and build the report.
     * \return the report (measurement time must be > 0).
     */
    Report Collect() const;

    /**
     * \brief Compute a report's derived values from its counts: per direction the
     *        bandwidth share, frame rate, undetected-error rate and MTBF; the totals
     *        and the network MTBF. Collect() ends with it; a distributed run calls it
     *        again after summing the counts of every rank (each rank counts the
     *        directions whose devices it runs).
     * \param r the report (directions with their counts and configuration).
     */
    static void Finish(Report& r);

    /**
     * \param r a report.
     * \return it as a JSON document (nlohmann), pretty-printed.
     */
    static std::string ToJson(const Report& r);

    /**
     * \param r a report.
     * \return it as a readable table: one line per direction, then the network.
     */
    static std::string ToTable(const Report& r);

    /**
     * \brief Collect and write the JSON to a file.
     * \param filename the path (std::invalid_argument naming it if it cannot be opened).
     */
    void WriteJson(const std::string& filename) const;

    /**
     * \brief Collect and write the table to a stream.
     * \param os the stream.
     */
    void WriteTable(std::ostream& os) const;

  private:
    Time m_measurement{0};          //!< 0 = Simulator::Now()
    uint32_t m_ethFrameBytes{1518}; //!< baseline frame bytes
};

} // namespace ns3

#endif /* RIFL_RELIABILITY_REPORT_HELPER_H */

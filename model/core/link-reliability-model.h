/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_LINK_RELIABILITY_MODEL_H
#define RIFL_LINK_RELIABILITY_MODEL_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-analytics
 * \brief The closed-form reliability and throughput models of the module.
 *
 * Everything in shared/spec/reliability-math.md that has a closed form:
 * frame error rates, RIFL framing efficiency, RIFL buffer sizing (the paper's
 * Eq. 1 in bytes and the RTL's Frame-ID-width rule in frames), the flow-control
 * buffer, the first-order bandwidth ratio under BER, undetected-error
 * probabilities (the paper's approximation and the exact value from the weight
 * spectrum of the module's real checks), MTBF per link and per network, FIT,
 * the direct-link Go-Back-N efficiency and the Ethernet baseline's packet
 * loss. All functions are static and pure; bad arguments throw
 * std::invalid_argument naming the parameter and its allowed range.
 *
 * Units: rates in bit/s, times in seconds, lengths in metres, MTBF in seconds
 * unless a name says years. A year is 365.25 days.
 */
class LinkReliabilityModel
{
  public:
    /// Seconds in a (Julian) year, used for every "years" figure.
    static constexpr double SECONDS_PER_YEAR = 365.25 * 24 * 3600;

    /**
     * \brief Probability that an n-bit frame holds at least one bit error.
     * \param ber bit error rate, [0, 1).
     * \param frameBits frame length in bits, >= 1.
     * \return 1 - (1 - ber)^frameBits, computed with log1p/expm1.
     */
    static double FrameErrorRate(double ber, uint32_t frameBits);

    /**
     * \brief RIFL payload bits per frame, S - 16.
     * \param frameBits 128, 256, 512 or 1024.
     * \return the payload width in bits.
     */
    static uint32_t RiflPayloadBits(uint32_t frameBits);

    /**
     * \brief Framing efficiency of a P-byte packet on RIFL frames:
     *        P / ((S/8) ceil(P / (S_payload/8))) (the zig-zag curve).
     * \param packetBytes P, >= 1.
     * \param frameBits 128, 256, 512 or 1024.
     * \return the efficiency in (0, 1).
     */
    static double RiflFramingEfficiency(uint32_t packetBytes, uint32_t frameBits);

    /**
     * \brief The asymptote S_payload / S of the framing efficiency.
     * \param frameBits 128, 256, 512 or 1024.
     * \return the asymptotic efficiency.
     */
    static double RiflFramingAsymptote(uint32_t frameBits);

    /**
     * \brief Round-trip time of the RTL sizing rule: 2 (T_gt + L t_m).
     * \param cableLengthM cable length L in metres, [0, 100000].
     * \param transceiverDelayS one-way transceiver/circuit delay T_gt in seconds, [0, 1].
     * \param secondsPerMetre propagation t_m (the RTL uses 3.34 ns/m), (0, 1e-6].
     * \return the RTT in seconds.
     */
    static double RiflSizingRtt(double cableLengthM, double transceiverDelayS = 80e-9,
                                double secondsPerMetre = 3.34e-9);

    /**
     * \brief The smallest Frame ID width of the RTL rule
     *        2^FID >= 16 + 16 + round(RTT x lane rate / S).
     * \param laneRateBps lane line rate, (0, 1e15] bit/s.
     * \param cableLengthM cable length in metres, [0, 100000].
     * \param frameBits 128, 256, 512 or 1024.
     * \param transceiverDelayS one-way T_gt in seconds, [0, 1].
     * \param secondsPerMetre propagation per metre, (0, 1e-6].
     * \return the width in bits; a result above 12 (the Verification Code's
     *         width) throws, naming the cable length.
     */
    static uint32_t RiflFrameIdWidth(double laneRateBps, double cableLengthM, uint32_t frameBits,
                                     double transceiverDelayS = 80e-9,
                                     double secondsPerMetre = 3.34e-9);

    /**
     * \brief Frames in flight over one sizing RTT, round(RTT x lane rate / S).
     * \param laneRateBps lane line rate, (0, 1e15] bit/s.
     * \param cableLengthM cable length in metres, [0, 100000].
     * \param frameBits 128, 256, 512 or 1024.
     * \param transceiverDelayS one-way T_gt in seconds, [0, 1].
     * \param secondsPerMetre propagation per metre, (0, 1e-6].
     * \return the frame count (std::invalid_argument above 2^32 - 33).
     */
    static uint32_t RiflRttFrames(double laneRateBps, double cableLengthM, uint32_t frameBits,
                                  double transceiverDelayS = 80e-9,
                                  double secondsPerMetre = 3.34e-9);

    /**
     * \brief Eq. 1-4: S_retrans >= RTT x line rate with RTT = T_circuit + 2 L / C, in bytes.
     * \param lineRateBps line rate, (0, 1e15] bit/s.
     * \param circuitDelayS T_circuit in seconds, [0, 1].
     * \param cableLengthM link length in metres, [0, 100000].
     * \param propagationMps speed of light in the cable, [1, 3e8] m/s (the paper: 3e8).
     * \return the buffer in bytes.
     */
    static double RiflRetransBufferBytes(double lineRateBps, double circuitDelayS,
                                         double cableLengthM, double propagationMps = 3e8);

    /**
     * \brief The flow-control buffer depth of the RTL, 2^(FID+1) frames.
     * \param frameIdWidth 1..12.
     * \return the depth in frames.
     */
    static uint32_t RiflFcBufferFrames(uint32_t frameIdWidth);

    /**
     * \brief Thr_ON = 2/3 of the FC buffer (integer division, as the RTL).
     * \param frameIdWidth 1..12.
     * \return the threshold in frames.
     */
    static uint32_t RiflFcThresholdOn(uint32_t frameIdWidth);

    /**
     * \brief Thr_OFF = 1/3 of the FC buffer (integer division, as the RTL).
     * \param frameIdWidth 1..12.
     * \return the threshold in frames.
     */
    static uint32_t RiflFcThresholdOff(uint32_t frameIdWidth);

    /**
     * \brief Replay length of the RTL, 2D + D/2 + 1 slots (D = 2^FID): the
     *        default K_stall of RiflBandwidthRatio().
     * \param frameIdWidth 1..12.
     * \return the slot count.
     */
    static uint32_t RiflReplaySlots(uint32_t frameIdWidth);

    /**
     * \brief First-order bandwidth ratio under BER:
     *        1 / (1 + directions x lanes x FER x K_stall).
     *
     * Every detected error, in either direction, stalls both directions of
     * the bonded group for K_stall slots; with the same BER in both
     * directions, directions = 2.
     *
     * \param ber bit error rate, [0, 1).
     * \param frameBits 128, 256, 512 or 1024.
     * \param lanes bonded lanes, >= 1.
     * \param kStallSlots slots one error costs, finite, >= 0.
     * \param directions directions that carry errors (1 or 2).
     * \return the ratio in (0, 1].
     */
    static double RiflBandwidthRatio(double ber, uint32_t frameBits, uint32_t lanes,
                                     double kStallSlots, uint32_t directions = 2);

    /**
     * \brief The paper's undetected-frame probability C(S,4) BER^4 / 2^12.
     * \param ber bit error rate, [0, 1).
     * \param frameBits 128, 256, 512 or 1024.
     * \return P_ue (paper approximation).
     */
    static double RiflUndetectedPaper(double ber, uint32_t frameBits);

    /**
     * \brief The number of weight-w line error patterns the real RIFL decoder
     *        accepts: zero syndrome of the real CRC/Frame-ID check and a legal
     *        Syncword (none or both Syncword bits flipped).
     * \param frameBits 128, 256, 512 or 1024.
     * \return A_0..A_4 (computed once per frame size and cached).
     */
    static std::vector<uint64_t> RiflAcceptedSpectrum(uint32_t frameBits);

    /**
     * \brief Exact P_ud of a RIFL frame: sum_{w<=4} A_w p^w (1-p)^(S-w) over
     *        RiflAcceptedSpectrum(); the first neglected term is of order p^6
     *        (odd weights are never accepted: G(1) = 0).
     * \param ber bit error rate, [0, 1).
     * \param frameBits 128, 256, 512 or 1024.
     * \return P_ud.
     */
    static double RiflUndetectedExact(double ber, uint32_t frameBits);

    /**
     * \brief Low-weight spectrum of one direct-link CRC-8 interleave over the
     *        positions outside the Frame byte (A_0..A_4).
     * \param interleave 0 (even bits, CRC80) or 1 (odd bits, CRC81).
     * \param poly the CRC-8 generator (default 0x07), 0..255.
     * \return A_0..A_4 (cached per interleave and poly).
     */
    static std::vector<uint64_t> DirectLinkInterleaveSpectrum(uint32_t interleave,
                                                              uint32_t poly = 0x07);

    /**
     * \brief Exact P_ud of a 192-bit micro-packet: both interleaves accept
     *        (each a 96-bit codeword; its 4 Frame-byte bits must stay intact)
     *        and at least one bit flipped. With a_x = sum_{w>=1} A_w^x
     *        (p/(1-p))^w over interleave x's 92 other positions:
     *        P_ud = (1-p)^192 (a_even + a_odd + a_even a_odd), which avoids the
     *        cancellation of P(all checks pass) - P(no error).
     * \param ber bit error rate, [0, 1).
     * \param poly the CRC-8 generator, 0..255.
     * \return P_ud.
     */
    static double DirectLinkUndetectedExact(double ber, uint32_t poly = 0x07);

    /**
     * \brief The textbook approximation for the micro-packet: errors confined
     *        to one interleave, accepted with probability 2^-8:
     *        2 C(96,4) BER^4 / 2^8.
     * \param ber bit error rate, [0, 1).
     * \return P_ud (approximation).
     */
    static double DirectLinkUndetectedPaper(double ber);

    /**
     * \brief Low-weight spectrum of Ethernet's CRC-32 over a frame of the given length.
     * \param frameBytes the frame's bytes covered by the FCS plus the FCS, 8..2000.
     * \return A_0..A_4 (cached; the first call for a length takes seconds).
     */
    static std::vector<uint64_t> EthernetSpectrum(uint32_t frameBytes);

    /**
     * \brief Exact P_ud of an Ethernet frame under its CRC-32, truncated at weight 4.
     * \param ber bit error rate, [0, 1).
     * \param frameBytes covered bytes plus FCS, 8..2000.
     * \return P_ud.
     */
    static double EthernetUndetectedExact(double ber, uint32_t frameBytes);

    /**
     * \brief Probability that a B-byte packet is lost on a lossy Ethernet link:
     *        1 - (1 - p)^(8 (B + overhead)).
     * \param ber bit error rate, [0, 1).
     * \param packetBytes B, >= 1.
     * \param overheadBytes framing overhead counted with it, >= 0.
     * \return the loss probability.
     */
    static double EthernetPacketLoss(double ber, uint32_t packetBytes, uint32_t overheadBytes);

    /**
     * \brief MTBF of one link direction: 1 / (frames per second x P_ud).
     * \param framesPerSecond frames carried per second, finite, > 0.
     * \param pud undetected-error probability per frame, >= 0.
     * \return seconds (infinity when pud is 0).
     */
    static double MtbfSeconds(double framesPerSecond, double pud);

    /**
     * \brief The paper's RIFL MTBF: S / (lambda_actual x P_ue) with the paper's P_ue.
     * \param ber bit error rate, [0, 1).
     * \param frameBits 128, 256, 512 or 1024.
     * \param lambdaActualBps the actual bandwidth in bit/s (the paper: 0.963 x
     *        112 Gb/s x 240/256 at BER 1e-7), (0, 1e15].
     * \return seconds.
     */
    static double RiflMtbfPaperSeconds(double ber, uint32_t frameBits, double lambdaActualBps);

    /**
     * \brief The same MTBF with the exact P_ud of the real decoder.
     * \param ber bit error rate, [0, 1).
     * \param frameBits 128, 256, 512 or 1024.
     * \param lambdaActualBps the actual bandwidth in bit/s, (0, 1e15].
     * \return seconds.
     */
    static double RiflMtbfExactSeconds(double ber, uint32_t frameBits, double lambdaActualBps);

    /**
     * \brief Network MTBF: 1 / sum_i (1 / MTBF_i) over every link direction.
     * \param mtbfSeconds per-direction MTBFs, each > 0 (infinity allowed).
     * \return seconds (infinity for an empty set or all-infinite input).
     */
    static double NetworkMtbfSeconds(const std::vector<double>& mtbfSeconds);

    /**
     * \brief FIT rate: failures per 10^9 device-hours.
     * \param mtbfSeconds MTBF, > 0.
     * \return 1e9 h / MTBF.
     */
    static double Fit(double mtbfSeconds);

    /**
     * \brief Go-Back-N efficiency (1 - P_f) / (1 - P_f + P_f N_replay).
     * \param flitErrorProbability P_f, [0, 1].
     * \param replaySlots N_replay, slots one error costs (timeout plus replayed window), >= 0.
     * \return the efficiency in [0, 1].
     */
    static double GoBackNEfficiency(double flitErrorProbability, double replaySlots);
};

} // namespace ns3

#endif /* RIFL_LINK_RELIABILITY_MODEL_H */

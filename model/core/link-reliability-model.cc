/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-reliability-model.h"

#include "crc-engine.h"
#include "direct-link-flit.h"
#include "rifl-check.h"
#include "rifl-frame.h"
#include "weight-spectrum.h"

#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <utility>

namespace ns3
{

namespace
{

/// Largest lane, line or payload rate the model takes, bit/s (1 Pb/s).
constexpr double MAX_RATE_BPS = 1e15;
/// Longest cable, m.
constexpr double MAX_CABLE_M = 100000.0;
/// Longest transceiver or circuit delay, s.
constexpr double MAX_DELAY_S = 1.0;
/// Slowest propagation, s/m (light in fibre: about 5e-9).
constexpr double MAX_SECONDS_PER_METRE = 1e-6;

/**
 * \brief Reject a BER outside [0, 1).
 * \param where the calling function, for the message.
 * \param ber the value.
 */
void
CheckBer(const char* where, double ber)
{
    RIFL_CHECK_ARG(!(ber >= 0.0 && ber < 1.0),
                   where << ": ber = " << ber << " is out of range [0, 1)");
}

/**
 * \brief Reject a RIFL frame size other than 128, 256, 512, 1024.
 * \param where the calling function, for the message.
 * \param frameBits the value.
 */
void
CheckRiflFrame(const char* where, uint32_t frameBits)
{
    RIFL_CHECK_ARG(frameBits != 128 && frameBits != 256 && frameBits != 512 && frameBits != 1024,
                   where << ": frameBits = " << frameBits
                         << " is not a RIFL frame size (128, 256, 512 or 1024)");
}

/**
 * \brief Reject a Frame ID width outside 1..12.
 * \param where the calling function, for the message.
 * \param fid the value.
 */
void
CheckFid(const char* where, uint32_t fid)
{
    RIFL_CHECK_ARG(fid < 1 || fid > 12,
                   where << ": frameIdWidth = " << fid << " is out of range [1, 12]");
}

/**
 * \brief Check the common sizing arguments.
 * \param where the calling function, for the message.
 * \param laneRateBps lane rate.
 * \param cableLengthM cable length.
 * \param transceiverDelayS transceiver delay.
 * \param secondsPerMetre propagation per metre.
 */
void
CheckSizing(const char* where, double laneRateBps, double cableLengthM, double transceiverDelayS,
            double secondsPerMetre)
{
    RIFL_CHECK_ARG(!(laneRateBps > 0.0 && laneRateBps <= MAX_RATE_BPS),
                   where << ": laneRateBps = " << laneRateBps << " is out of range (0, "
                         << MAX_RATE_BPS << "] bit/s");
    RIFL_CHECK_ARG(!(cableLengthM >= 0.0 && cableLengthM <= MAX_CABLE_M),
                   where << ": cableLengthM = " << cableLengthM << " is out of range [0, "
                         << MAX_CABLE_M << "] m");
    RIFL_CHECK_ARG(!(transceiverDelayS >= 0.0 && transceiverDelayS <= MAX_DELAY_S),
                   where << ": transceiverDelayS = " << transceiverDelayS << " is out of range [0, "
                         << MAX_DELAY_S << "] s");
    RIFL_CHECK_ARG(!(secondsPerMetre > 0.0 && secondsPerMetre <= MAX_SECONDS_PER_METRE),
                   where << ": secondsPerMetre = " << secondsPerMetre << " is out of range (0, "
                         << MAX_SECONDS_PER_METRE << "] s/m");
}

/**
 * \brief sum_{w>=1} A_w x^w with x = p / (1 - p), in long double.
 * \param spectrum A_0..A_W.
 * \param ber p.
 * \return the sum.
 */
long double
AcceptedOddsSum(const std::vector<uint64_t>& spectrum, double ber)
{
    const long double x = static_cast<long double>(ber) / (1.0L - static_cast<long double>(ber));
    long double sum = 0.0L;
    long double xw = 1.0L;
    for (std::size_t w = 1; w < spectrum.size(); ++w)
    {
        xw *= x;
        sum += static_cast<long double>(spectrum[w]) * xw;
    }
    return sum;
}

/// Guards the spectrum caches.
std::mutex g_riflSpectrumMutex;

/**
 * \brief Binomial coefficient C(n, k) as a double.
 * \param n n.
 * \param k k.
 * \return C(n, k).
 */
double
Choose(uint32_t n, uint32_t k)
{
    double r = 1.0;
    for (uint32_t i = 1; i <= k; ++i)
    {
        r = r * (n - k + i) / i;
    }
    return r;
}

} // namespace

double
LinkReliabilityModel::FrameErrorRate(double ber, uint32_t frameBits)
{
    CheckBer("LinkReliabilityModel::FrameErrorRate", ber);
    RIFL_CHECK_ARG(frameBits < 1, "LinkReliabilityModel::FrameErrorRate: frameBits = "
                                      << frameBits << " must be >= 1");
    return -std::expm1(frameBits * std::log1p(-ber));
}

uint32_t
LinkReliabilityModel::RiflPayloadBits(uint32_t frameBits)
{
    CheckRiflFrame("LinkReliabilityModel::RiflPayloadBits", frameBits);
    return frameBits - 16;
}

double
LinkReliabilityModel::RiflFramingEfficiency(uint32_t packetBytes, uint32_t frameBits)
{
    CheckRiflFrame("LinkReliabilityModel::RiflFramingEfficiency", frameBits);
    RIFL_CHECK_ARG(packetBytes < 1, "LinkReliabilityModel::RiflFramingEfficiency: packetBytes = "
                                        << packetBytes << " must be >= 1");
    const uint32_t payloadBytes = (frameBits - 16) / 8;
    const uint64_t frames = (packetBytes + payloadBytes - 1) / payloadBytes;
    return static_cast<double>(packetBytes) / (static_cast<double>(frameBits / 8) * frames);
}

double
LinkReliabilityModel::RiflFramingAsymptote(uint32_t frameBits)
{
    CheckRiflFrame("LinkReliabilityModel::RiflFramingAsymptote", frameBits);
    return static_cast<double>(frameBits - 16) / frameBits;
}

double
LinkReliabilityModel::RiflSizingRtt(double cableLengthM, double transceiverDelayS,
                                    double secondsPerMetre)
{
    CheckSizing("LinkReliabilityModel::RiflSizingRtt", 1.0, cableLengthM, transceiverDelayS,
                secondsPerMetre);
    return 2.0 * (transceiverDelayS + cableLengthM * secondsPerMetre);
}

uint32_t
LinkReliabilityModel::RiflRttFrames(double laneRateBps, double cableLengthM, uint32_t frameBits,
                                    double transceiverDelayS, double secondsPerMetre)
{
    CheckRiflFrame("LinkReliabilityModel::RiflRttFrames", frameBits);
    CheckSizing("LinkReliabilityModel::RiflRttFrames", laneRateBps, cableLengthM, transceiverDelayS,
                secondsPerMetre);
    const double rtt = RiflSizingRtt(cableLengthM, transceiverDelayS, secondsPerMetre);
    const double frames = std::round(rtt * laneRateBps / frameBits);
    // 2^32 - 33: RiflFrameIdWidth adds 32 to it.
    RIFL_CHECK_ARG(!(frames <= 4294967263.0),
                   "LinkReliabilityModel::RiflRttFrames: laneRateBps = "
                       << laneRateBps << " over cableLengthM = " << cableLengthM
                       << " with transceiverDelayS = " << transceiverDelayS << " gives " << frames
                       << " frames per round trip, more than 4294967263 (2^32 - 33)");
    return static_cast<uint32_t>(frames);
}

uint32_t
LinkReliabilityModel::RiflFrameIdWidth(double laneRateBps, double cableLengthM, uint32_t frameBits,
                                       double transceiverDelayS, double secondsPerMetre)
{
    const uint64_t need
        = 32
          + RiflRttFrames(laneRateBps, cableLengthM, frameBits, transceiverDelayS, secondsPerMetre);
    uint32_t fid = 0;
    while ((uint64_t{1} << fid) < need)
    {
        ++fid;
    }
    RIFL_CHECK_ARG(fid > 12, "LinkReliabilityModel::RiflFrameIdWidth: cableLengthM = "
                                 << cableLengthM << " needs a Frame ID of " << fid
                                 << " bits (2^FID >= " << need
                                 << " frames), more than the 12 the Verification Code can carry; "
                                    "shorten the cable or lower the lane rate");
    return fid;
}

double
LinkReliabilityModel::RiflRetransBufferBytes(double lineRateBps, double circuitDelayS,
                                             double cableLengthM, double propagationMps)
{
    RIFL_CHECK_ARG(!(lineRateBps > 0.0 && lineRateBps <= MAX_RATE_BPS),
                   "LinkReliabilityModel::RiflRetransBufferBytes: lineRateBps = "
                       << lineRateBps << " is out of range (0, " << MAX_RATE_BPS << "] bit/s");
    RIFL_CHECK_ARG(!(circuitDelayS >= 0.0 && circuitDelayS <= MAX_DELAY_S),
                   "LinkReliabilityModel::RiflRetransBufferBytes: circuitDelayS = "
                       << circuitDelayS << " is out of range [0, " << MAX_DELAY_S << "] s");
    RIFL_CHECK_ARG(!(cableLengthM >= 0.0 && cableLengthM <= MAX_CABLE_M),
                   "LinkReliabilityModel::RiflRetransBufferBytes: cableLengthM = "
                       << cableLengthM << " is out of range [0, " << MAX_CABLE_M << "] m");
    RIFL_CHECK_ARG(!(propagationMps >= 1.0 && propagationMps <= 3e8),
                   "LinkReliabilityModel::RiflRetransBufferBytes: propagationMps = "
                       << propagationMps << " is out of range [1, 3e8] m/s");
    const double rtt = circuitDelayS + 2.0 * cableLengthM / propagationMps;
    return rtt * lineRateBps / 8.0;
}

uint32_t
LinkReliabilityModel::RiflFcBufferFrames(uint32_t frameIdWidth)
{
    CheckFid("LinkReliabilityModel::RiflFcBufferFrames", frameIdWidth);
    return 1U << (frameIdWidth + 1);
}

uint32_t
LinkReliabilityModel::RiflFcThresholdOn(uint32_t frameIdWidth)
{
    return 2 * RiflFcBufferFrames(frameIdWidth) / 3;
}

uint32_t
LinkReliabilityModel::RiflFcThresholdOff(uint32_t frameIdWidth)
{
    return RiflFcBufferFrames(frameIdWidth) / 3;
}

uint32_t
LinkReliabilityModel::RiflReplaySlots(uint32_t frameIdWidth)
{
    CheckFid("LinkReliabilityModel::RiflReplaySlots", frameIdWidth);
    const uint32_t d = 1U << frameIdWidth;
    return 2 * d + d / 2 + 1;
}

double
LinkReliabilityModel::RiflBandwidthRatio(double ber, uint32_t frameBits, uint32_t lanes,
                                         double kStallSlots, uint32_t directions)
{
    CheckRiflFrame("LinkReliabilityModel::RiflBandwidthRatio", frameBits);
    RIFL_CHECK_ARG(lanes < 1, "LinkReliabilityModel::RiflBandwidthRatio: lanes = "
                                  << lanes << " must be >= 1");
    RIFL_CHECK_ARG(!(kStallSlots >= 0.0 && std::isfinite(kStallSlots)),
                   "LinkReliabilityModel::RiflBandwidthRatio: kStallSlots = "
                       << kStallSlots << " must be finite and >= 0");
    RIFL_CHECK_ARG(directions < 1 || directions > 2,
                   "LinkReliabilityModel::RiflBandwidthRatio: directions = "
                       << directions << " is out of range [1, 2]");
    const double fer = FrameErrorRate(ber, frameBits);
    // In double: directions x lanes can exceed 32 bits.
    return 1.0 / (1.0 + static_cast<double>(directions) * lanes * fer * kStallSlots);
}

double
LinkReliabilityModel::RiflUndetectedPaper(double ber, uint32_t frameBits)
{
    CheckBer("LinkReliabilityModel::RiflUndetectedPaper", ber);
    CheckRiflFrame("LinkReliabilityModel::RiflUndetectedPaper", frameBits);
    return Choose(frameBits, 4) * std::pow(ber, 4) / 4096.0;
}

std::vector<uint64_t>
LinkReliabilityModel::RiflAcceptedSpectrum(uint32_t frameBits)
{
    CheckRiflFrame("LinkReliabilityModel::RiflAcceptedSpectrum", frameBits);
    static std::map<uint32_t, std::vector<uint64_t>> cache;
    std::lock_guard<std::mutex> lock(g_riflSpectrumMutex);
    auto it = cache.find(frameBits);
    if (it != cache.end())
    {
        return it->second;
    }
    const std::vector<uint32_t> syn = RiflFrame::CheckSyndromes(frameBits);
    // Syncword bits S-1 and S-2: flipping exactly one makes it illegal (rejected);
    // flipping both keeps it legal and adds their syndromes.
    const uint32_t syncPair = syn[frameBits - 1] ^ syn[frameBits - 2];
    const std::vector<uint32_t> rest(syn.begin(), syn.begin() + (frameBits - 2));
    std::vector<uint64_t> a(5, 0);
    for (uint32_t w = 0; w <= 4; ++w)
    {
        a[w] = WeightSpectrum::Count(rest, w, 0);
        if (w >= 2)
        {
            a[w] += WeightSpectrum::Count(rest, w - 2, syncPair);
        }
    }
    cache[frameBits] = a;
    return a;
}

double
LinkReliabilityModel::RiflUndetectedExact(double ber, uint32_t frameBits)
{
    CheckBer("LinkReliabilityModel::RiflUndetectedExact", ber);
    return WeightSpectrum::UndetectedProbability(RiflAcceptedSpectrum(frameBits), frameBits, ber);
}

std::vector<uint64_t>
LinkReliabilityModel::DirectLinkInterleaveSpectrum(uint32_t interleave, uint32_t poly)
{
    RIFL_CHECK_ARG(interleave > 1,
                   "LinkReliabilityModel::DirectLinkInterleaveSpectrum: interleave = "
                       << interleave << " is out of range [0, 1]");
    RIFL_CHECK_ARG(poly > 0xFF, "LinkReliabilityModel::DirectLinkInterleaveSpectrum: poly = "
                                    << poly << " is out of range [0, 255] (a CRC-8 generator)");
    static std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> cache;
    std::lock_guard<std::mutex> lock(g_riflSpectrumMutex);
    const auto key = std::make_pair(interleave, poly);
    auto it = cache.find(key);
    if (it != cache.end())
    {
        return it->second;
    }
    const std::vector<uint64_t> a
        = WeightSpectrum::Spectrum(DirectLinkFlit::NonFrameSyndromeMap(interleave, poly), 4);
    cache[key] = a;
    return a;
}

double
LinkReliabilityModel::DirectLinkUndetectedExact(double ber, uint32_t poly)
{
    CheckBer("LinkReliabilityModel::DirectLinkUndetectedExact", ber);
    const long double ae = AcceptedOddsSum(DirectLinkInterleaveSpectrum(0, poly), ber);
    const long double ao = AcceptedOddsSum(DirectLinkInterleaveSpectrum(1, poly), ber);
    const long double clean = std::exp(192.0L * std::log1p(-static_cast<long double>(ber)));
    return static_cast<double>(clean * (ae + ao + ae * ao));
}

double
LinkReliabilityModel::DirectLinkUndetectedPaper(double ber)
{
    CheckBer("LinkReliabilityModel::DirectLinkUndetectedPaper", ber);
    return 2.0 * Choose(96, 4) * std::pow(ber, 4) / 256.0;
}

std::vector<uint64_t>
LinkReliabilityModel::EthernetSpectrum(uint32_t frameBytes)
{
    RIFL_CHECK_ARG(frameBytes < 8 || frameBytes > 2000,
                   "LinkReliabilityModel::EthernetSpectrum: frameBytes = "
                       << frameBytes << " is out of range [8, 2000]");
    static std::map<uint32_t, std::vector<uint64_t>> cache;
    std::lock_guard<std::mutex> lock(g_riflSpectrumMutex);
    auto it = cache.find(frameBytes);
    if (it != cache.end())
    {
        return it->second;
    }
    // Undetected patterns of a CRC depend only on its generator (the
    // reflection, init and final XOR of 802.3 are affine maps): use the
    // textbook syndromes of a systematic codeword of the frame's length.
    const std::vector<uint64_t> a
        = WeightSpectrum::Spectrum(WeightSpectrum::CrcSyndromes(32, 0x04C11DB7, 8 * frameBytes), 4);
    cache[frameBytes] = a;
    return a;
}

double
LinkReliabilityModel::EthernetUndetectedExact(double ber, uint32_t frameBytes)
{
    CheckBer("LinkReliabilityModel::EthernetUndetectedExact", ber);
    return WeightSpectrum::UndetectedProbability(EthernetSpectrum(frameBytes), 8 * frameBytes, ber);
}

double
LinkReliabilityModel::EthernetPacketLoss(double ber, uint32_t packetBytes, uint32_t overheadBytes)
{
    CheckBer("LinkReliabilityModel::EthernetPacketLoss", ber);
    RIFL_CHECK_ARG(packetBytes < 1, "LinkReliabilityModel::EthernetPacketLoss: packetBytes = "
                                        << packetBytes << " must be >= 1");
    return -std::expm1(8.0 * (static_cast<double>(packetBytes) + overheadBytes) * std::log1p(-ber));
}

double
LinkReliabilityModel::MtbfSeconds(double framesPerSecond, double pud)
{
    RIFL_CHECK_ARG(!(framesPerSecond > 0.0 && std::isfinite(framesPerSecond)),
                   "LinkReliabilityModel::MtbfSeconds: framesPerSecond = "
                       << framesPerSecond << " must be finite and > 0");
    RIFL_CHECK_ARG(!(pud >= 0.0 && pud <= 1.0),
                   "LinkReliabilityModel::MtbfSeconds: pud = " << pud << " is out of range [0, 1]");
    if (pud == 0.0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return 1.0 / (framesPerSecond * pud);
}

double
LinkReliabilityModel::RiflMtbfPaperSeconds(double ber, uint32_t frameBits, double lambdaActualBps)
{
    RIFL_CHECK_ARG(!(lambdaActualBps > 0.0 && lambdaActualBps <= MAX_RATE_BPS),
                   "LinkReliabilityModel::RiflMtbfPaperSeconds: lambdaActualBps = "
                       << lambdaActualBps << " is out of range (0, " << MAX_RATE_BPS << "] bit/s");
    return MtbfSeconds(lambdaActualBps / frameBits, RiflUndetectedPaper(ber, frameBits));
}

double
LinkReliabilityModel::RiflMtbfExactSeconds(double ber, uint32_t frameBits, double lambdaActualBps)
{
    RIFL_CHECK_ARG(!(lambdaActualBps > 0.0 && lambdaActualBps <= MAX_RATE_BPS),
                   "LinkReliabilityModel::RiflMtbfExactSeconds: lambdaActualBps = "
                       << lambdaActualBps << " is out of range (0, " << MAX_RATE_BPS << "] bit/s");
    return MtbfSeconds(lambdaActualBps / frameBits, RiflUndetectedExact(ber, frameBits));
}

double
LinkReliabilityModel::NetworkMtbfSeconds(const std::vector<double>& mtbfSeconds)
{
    long double rate = 0.0L;
    for (std::size_t i = 0; i < mtbfSeconds.size(); ++i)
    {
        RIFL_CHECK_ARG(!(mtbfSeconds[i] > 0.0),
                       "LinkReliabilityModel::NetworkMtbfSeconds: mtbfSeconds["
                           << i << "] = " << mtbfSeconds[i] << " must be > 0");
        rate += 1.0L / static_cast<long double>(mtbfSeconds[i]);
    }
    if (rate == 0.0L)
    {
        return std::numeric_limits<double>::infinity();
    }
    return static_cast<double>(1.0L / rate);
}

double
LinkReliabilityModel::Fit(double mtbfSeconds)
{
    RIFL_CHECK_ARG(!(mtbfSeconds > 0.0),
                   "LinkReliabilityModel::Fit: mtbfSeconds = " << mtbfSeconds << " must be > 0");
    return 1e9 * 3600.0 / mtbfSeconds;
}

double
LinkReliabilityModel::GoBackNEfficiency(double flitErrorProbability, double replaySlots)
{
    RIFL_CHECK_ARG(!(flitErrorProbability >= 0.0 && flitErrorProbability <= 1.0),
                   "LinkReliabilityModel::GoBackNEfficiency: flitErrorProbability = "
                       << flitErrorProbability << " is out of range [0, 1]");
    RIFL_CHECK_ARG(!(replaySlots >= 0.0), "LinkReliabilityModel::GoBackNEfficiency: replaySlots = "
                                              << replaySlots << " must be >= 0");
    const double pf = flitErrorProbability;
    const double denom = 1.0 - pf + pf * replaySlots;
    return denom > 0.0 ? (1.0 - pf) / denom : 0.0;
}

} // namespace ns3

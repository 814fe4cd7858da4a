/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-link-config.h"

#include "ns3/log.h"
#include "ns3/rifl-check.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflLinkConfig");

namespace
{
/// Light-path delay per metre of the RTL's sizing rule (RIFL.sv), ns/m.
constexpr double RTL_NS_PER_METRE = 3.34;
/// RX_DELAY + ROLLBACK_DELAY of the RTL's sizing rule (frames).
constexpr uint32_t RTL_MARGIN_FRAMES = 16 + 16;
/// Spec 10.2 with the timing of 11.1: after a corrupted frame in line slot n the
/// sender's first replayed frame is in slot n + 2L + 17, so it has sent 2L + 16 new
/// frames, which must be fewer than D - 1: D >= 2L + 18.
constexpr uint32_t RECOVERY_MARGIN_FRAMES = 18;
/// Width of one transceiver word, bits (the RX-up counter counts these).
constexpr uint32_t GT_WORD_BITS = 64;
/// Largest Frame ID width (the Verification Code has 12 bits).
constexpr uint32_t MAX_FID = 12;
/// Largest clock offset magnitude, ppm.
constexpr double MAX_PPM = 1000.0;
/// Largest lane skew, slots.
constexpr uint32_t MAX_SKEW = 100000;
/// Parts per billion in one.
constexpr uint64_t PPB = 1000000000;
} // namespace

void
RiflLinkConfig::Validate() const
{
    RIFL_CHECK_ARG(frameSize != 128 && frameSize != 256 && frameSize != 512 && frameSize != 1024,
                   "RiflLinkConfig: FrameSize = " << frameSize
                                                  << " is not one of 128, 256, 512, 1024");
    RIFL_CHECK_ARG(lanes < 1 || lanes > 16,
                   "RiflLinkConfig: Lanes = " << lanes << " is outside 1..16");
    RIFL_CHECK_ARG(!(laneRateGbps > 0.0 && laneRateGbps <= 1000.0),
                   "RiflLinkConfig: LaneRate = " << laneRateGbps << " Gb/s is outside (0, 1000]");
    RIFL_CHECK_ARG(!(cableLengthM >= 0.0 && cableLengthM <= 1000.0),
                   "RiflLinkConfig: CableLength = " << cableLengthM << " m is outside [0, 1000]");
    RIFL_CHECK_ARG(!(transceiverDelayNs >= 0.0 && transceiverDelayNs <= 10000.0),
                   "RiflLinkConfig: TransceiverDelay = " << transceiverDelayNs
                                                         << " ns is outside [0, 10000]");
    RIFL_CHECK_ARG(!(cableDelayNsPerM >= 0.0 && cableDelayNsPerM <= 100.0),
                   "RiflLinkConfig: CableDelay = " << cableDelayNsPerM
                                                   << " ns/m is outside [0, 100]");
    RIFL_CHECK_ARG(lineDelaySlots < -1 || lineDelaySlots > 1000000,
                   "RiflLinkConfig: LineDelay = "
                       << lineDelaySlots << " slots is outside 0..1000000 (-1 derives it)");
    RIFL_CHECK_ARG(laneSkewSlots.size() > lanes, "RiflLinkConfig: LaneSkew has "
                                                     << laneSkewSlots.size()
                                                     << " entries, more than Lanes = " << lanes);
    for (std::size_t l = 0; l < laneSkewSlots.size(); ++l)
    {
        RIFL_CHECK_ARG(laneSkewSlots[l] > MAX_SKEW, "RiflLinkConfig: LaneSkew of lane "
                                                        << l << " = " << laneSkewSlots[l]
                                                        << " slots is outside 0..100000");
    }
    // The Frame ID width meets the RTL rule and can recover a single error over the
    // modelled line (spec 10.2: a shorter buffer loses frames on every error).
    const uint32_t minFid = GetMinFrameIdWidth();
    RIFL_CHECK_ARG(minFid > MAX_FID, "RiflLinkConfig: CableLength = "
                                         << cableLengthM << " m, LineDelay and LaneSkew need "
                                         << "FrameIdWidth " << minFid << ", above the largest 12 ("
                                         << FrameIdRuleText() << ")");
    RIFL_CHECK_ARG(frameIdWidth != 0 && (frameIdWidth < minFid || frameIdWidth > MAX_FID),
                   "RiflLinkConfig: FrameIdWidth = " << frameIdWidth << " is outside " << minFid
                                                     << "..12 (minimum " << minFid << " by "
                                                     << FrameIdRuleText() << "; 0 derives it)");
    const uint32_t fcFrames = GetFcBufferFrames();
    RIFL_CHECK_ARG(fcFifoDepth != 0 && (fcFifoDepth <= GetFcThrOn() || fcFifoDepth > (1u << 20)),
                   "RiflLinkConfig: FcFifoDepth = " << fcFifoDepth << " is outside "
                                                    << GetFcThrOn() + 1 << "..1048576 (S_FC = "
                                                    << fcFrames << "; 0 derives it)");
    RIFL_CHECK_ARG(!(drainFramesPerSlot >= 0.0 && drainFramesPerSlot <= 1024.0),
                   "RiflLinkConfig: DrainRate = " << drainFramesPerSlot
                                                  << " frames/slot is outside [0, 1024] (0 = "
                                                     "unlimited)");
    RIFL_CHECK_ARG(replayTail != RiflReplayTail::RTL && replayTail != RiflReplayTail::CORRECTED,
                   "RiflLinkConfig: ReplayTail = " << static_cast<int>(replayTail)
                                                   << " is not RTL (0) or CORRECTED (1)");
    for (uint32_t e = 0; e < 2; ++e)
    {
        const double r = endpointDrainRate[e];
        RIFL_CHECK_ARG(r != -1.0 && !(r >= 0.0 && r <= 1024.0),
                       "RiflLinkConfig: DrainRate of endpoint "
                           << e << " = " << r
                           << " frames/slot is outside [0, 1024] (0 = unlimited, -1 = the "
                              "link's DrainRate)");
        const int64_t f = endpointFcFifoDepth[e];
        RIFL_CHECK_ARG(f != -1 && f != 0 && (f <= GetFcThrOn() || f > (1 << 20)),
                       "RiflLinkConfig: FcFifoDepth of endpoint "
                           << e << " = " << f << " is outside " << GetFcThrOn() + 1
                           << "..1048576 (S_FC = " << fcFrames
                           << "; 0 derives it, -1 = the link's FcFifoDepth)");
    }
    const uint64_t minTail = GetLineRttSlots() + 8;
    RIFL_CHECK_ARG(correctedTailSlots != 0
                       && (correctedTailSlots < minTail || correctedTailSlots > (1u << 20)),
                   "RiflLinkConfig: CorrectedTail = "
                       << correctedTailSlots << " is outside " << minTail
                       << "..1048576 (2L + 8 with L = " << GetLineDelaySlots()
                       << " + the largest lane skew " << GetMaxLaneSkewSlots()
                       << "; 0 derives it)");
    RIFL_CHECK_ARG(startup != RiflStartup::FULL && startup != RiflStartup::SHORT,
                   "RiflLinkConfig: Startup = " << static_cast<int>(startup)
                                                << " is not FULL (0) or SHORT (1)");
    RIFL_CHECK_ARG(rxUpSlots > (1u << 24),
                   "RiflLinkConfig: RxUpSlots = " << rxUpSlots
                                                  << " is outside 0..16777216 (0 derives it)");
    RIFL_CHECK_ARG(userWordBytes < 1 || userWordBytes > 1024,
                   "RiflLinkConfig: UserWordBytes = " << userWordBytes << " is outside 1..1024");
    for (uint32_t e = 0; e < 2; ++e)
    {
        RIFL_CHECK_ARG(!(clockOffsetPpm[e] >= -MAX_PPM && clockOffsetPpm[e] <= MAX_PPM),
                       "RiflLinkConfig: ClockOffsetPpm of endpoint "
                           << e << " = " << clockOffsetPpm[e] << " ppm is outside [-1000, 1000]");
    }
}

int64_t
RiflLinkConfig::GetClockOffsetPpb(uint32_t endpoint) const
{
    RIFL_CHECK_INDEX(endpoint > 1, "RiflLinkConfig::GetClockOffsetPpb: endpoint = "
                                       << endpoint << " is outside 0..1");
    return std::llround(clockOffsetPpm[endpoint] * 1000.0);
}

uint64_t
RiflLinkConfig::GetClockDeltaPpb() const
{
    const int64_t d = GetClockOffsetPpb(0) - GetClockOffsetPpb(1);
    return static_cast<uint64_t>(d < 0 ? -d : d);
}

uint32_t
RiflLinkConfig::GetSlowEndpoint() const
{
    const int64_t a = GetClockOffsetPpb(0);
    const int64_t b = GetClockOffsetPpb(1);
    return a == b ? 2 : (a < b ? 0 : 1);
}

bool
RiflLinkConfig::IsClockCompensated() const
{
    const uint32_t slow = GetSlowEndpoint();
    return slow < 2 && clockCompensation[1 - slow];
}

uint64_t
RiflLinkConfig::NextClockSkipSlot(uint64_t from) const
{
    const uint64_t delta = GetClockDeltaPpb();
    if (delta == 0)
    {
        return NO_SKIP;
    }
    using u128 = unsigned __int128;
    // The next integer k crossed: the smallest s + 1 with (s + 1) Delta >= k 1e9.
    const u128 k = u128{from} * delta / PPB + 1;
    const u128 s1 = (k * PPB + delta - 1) / delta;
    return s1 - 1 >= u128{NO_SKIP} ? NO_SKIP : static_cast<uint64_t>(s1 - 1);
}

uint64_t
RiflLinkConfig::CountClockSkipSlots(uint64_t slots) const
{
    using u128 = unsigned __int128;
    return static_cast<uint64_t>(u128{slots} * GetClockDeltaPpb() / PPB);
}

double
RiflLinkConfig::GetSlotTimeNs() const
{
    return frameSize / laneRateGbps;
}

uint32_t
RiflLinkConfig::GetPayloadBytes() const
{
    return (frameSize - 16) / 8;
}

double
RiflLinkConfig::GetRttNs() const
{
    return 2.0 * (transceiverDelayNs + RTL_NS_PER_METRE * cableLengthM);
}

uint32_t
RiflLinkConfig::GetRttFrames() const
{
    return static_cast<uint32_t>(std::llround(GetRttNs() * laneRateGbps / frameSize));
}

uint64_t
RiflLinkConfig::GetLineRttSlots() const
{
    return 2 * (uint64_t{GetLineDelaySlots()} + GetMaxLaneSkewSlots());
}

std::string
RiflLinkConfig::FrameIdRuleText() const
{
    std::ostringstream os;
    os << "the RTL rule 2^w >= 16 + 16 + " << GetRttFrames()
       << " round-trip frames, and single-error recovery (spec 10.2) 2^w >= 2 (LineDelay "
       << GetLineDelaySlots() << " + largest LaneSkew " << GetMaxLaneSkewSlots() << ") + "
       << RECOVERY_MARGIN_FRAMES << " = " << GetLineRttSlots() + RECOVERY_MARGIN_FRAMES;
    return os.str();
}

uint32_t
RiflLinkConfig::GetMinFrameIdWidth() const
{
    const uint64_t need = std::max(uint64_t{RTL_MARGIN_FRAMES} + GetRttFrames(),
                                   GetLineRttSlots() + RECOVERY_MARGIN_FRAMES);
    uint32_t w = 1;
    while ((uint64_t{1} << w) < need && w < 40)
    {
        ++w;
    }
    return w;
}

uint32_t
RiflLinkConfig::GetFrameIdWidth() const
{
    return frameIdWidth != 0 ? frameIdWidth : GetMinFrameIdWidth();
}

uint32_t
RiflLinkConfig::GetBufferDepth() const
{
    return 1u << std::min(GetFrameIdWidth(), MAX_FID);
}

uint32_t
RiflLinkConfig::GetLineDelaySlots() const
{
    if (lineDelaySlots >= 0)
    {
        return static_cast<uint32_t>(lineDelaySlots);
    }
    return static_cast<uint32_t>(std::llround(cableLengthM * cableDelayNsPerM / GetSlotTimeNs()));
}

uint32_t
RiflLinkConfig::GetLaneSkewSlots(uint32_t lane) const
{
    return lane < laneSkewSlots.size() ? laneSkewSlots[lane] : 0;
}

uint32_t
RiflLinkConfig::GetMaxLaneSkewSlots() const
{
    uint32_t m = 0;
    for (uint32_t v : laneSkewSlots)
    {
        m = std::max(m, v);
    }
    return m;
}

uint32_t
RiflLinkConfig::GetLaneDelaySlots(uint32_t lane) const
{
    return GetLineDelaySlots() + GetLaneSkewSlots(lane);
}

uint32_t
RiflLinkConfig::GetFcBufferFrames() const
{
    return 2 * GetBufferDepth();
}

uint32_t
RiflLinkConfig::GetFcThrOn() const
{
    return 2 * GetFcBufferFrames() / 3;
}

uint32_t
RiflLinkConfig::GetFcThrOff() const
{
    return GetFcBufferFrames() / 3;
}

uint32_t
RiflLinkConfig::GetFcFifoDepth() const
{
    return fcFifoDepth != 0 ? fcFifoDepth : GetFcBufferFrames() + 16;
}

double
RiflLinkConfig::GetDrainRate(uint32_t endpoint) const
{
    RIFL_CHECK_INDEX(endpoint > 1,
                     "RiflLinkConfig::GetDrainRate: endpoint = " << endpoint << " is outside 0..1");
    return endpointDrainRate[endpoint] >= 0.0 ? endpointDrainRate[endpoint] : drainFramesPerSlot;
}

uint32_t
RiflLinkConfig::GetFcFifoDepth(uint32_t endpoint) const
{
    RIFL_CHECK_INDEX(endpoint > 1, "RiflLinkConfig::GetFcFifoDepth: endpoint = "
                                       << endpoint << " is outside 0..1");
    const int64_t f = endpointFcFifoDepth[endpoint];
    if (f < 0)
    {
        return GetFcFifoDepth();
    }
    return f != 0 ? static_cast<uint32_t>(f) : GetFcBufferFrames() + 16;
}

uint32_t
RiflLinkConfig::GetReplayTailSlots() const
{
    const uint32_t rtl = GetBufferDepth() / 2 + 1;
    if (replayTail == RiflReplayTail::RTL)
    {
        return rtl;
    }
    if (correctedTailSlots != 0)
    {
        return correctedTailSlots;
    }
    // L <= 10^6 and skew <= 10^5 (Validate()), so 2 (L + skew) + 8 fits 32 bits
    return std::max(rtl, static_cast<uint32_t>(GetLineRttSlots() + 8));
}

uint32_t
RiflLinkConfig::GetReplaySlots() const
{
    return 2 * GetBufferDepth() + GetReplayTailSlots();
}

uint32_t
RiflLinkConfig::GetRxUpSlots() const
{
    if (rxUpSlots != 0)
    {
        return rxUpSlots;
    }
    const uint32_t wordsPerFrame = frameSize / GT_WORD_BITS;
    const uint32_t cycles = startup == RiflStartup::FULL ? (1u << 20) : (1u << 12);
    return cycles / wordsPerFrame;
}

std::string
RiflLinkConfig::ToString() const
{
    std::ostringstream os;
    os << "S=" << frameSize << " lanes=" << lanes << " rate=" << laneRateGbps
       << "Gb/s FID=" << GetFrameIdWidth() << " D=" << GetBufferDepth()
       << " L=" << GetLineDelaySlots() << " SFC=" << GetFcBufferFrames()
       << " thrOn=" << GetFcThrOn() << " thrOff=" << GetFcThrOff() << " fifo=" << GetFcFifoDepth()
       << " tail=" << GetReplayTailSlots() << " rxUp=" << GetRxUpSlots()
       << " ppm=" << clockOffsetPpm[0] << "/" << clockOffsetPpm[1]
       << " comp=" << clockCompensation[0] << "/" << clockCompensation[1];
    return os.str();
}

} // namespace ns3

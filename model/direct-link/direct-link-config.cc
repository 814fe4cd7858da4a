/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-config.h"

#include "ns3/rifl-check.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{

void
CheckRange(const char* name, uint64_t value, uint64_t lo, uint64_t hi, const char* why = "")
{
    RIFL_CHECK_ARG(value < lo || value > hi, "DirectLinkConfig: " << name << " = " << value
                                                                  << " is out of range [" << lo
                                                                  << ", " << hi << "]" << why);
}

} // namespace

void
DirectLinkConfig::Validate() const
{
    CheckRange("LineRate", lineRateBps, 1000000ULL, 1000000000000ULL, " bit/s");
    CheckRange("OneWayDelay", oneWayDelaySlots, 0, MAX_DELAY_SLOTS, " micro-packet times");
    CheckRange("RetryBufferSize", retryBufferSize, 1, MAX_RETRY_BUFFER,
               ": sequence numbers are modulo 31 (0..30, 0x1F is reserved for Null), so "
               "Go-Back-N allows at most 30 outstanding micro-packets");
    for (uint32_t v = 0; v < NUM_VCS; ++v)
    {
        RIFL_CHECK_ARG(vcBufferSize[v] < 1 || vcBufferSize[v] > MAX_VC_BUFFER,
                       "DirectLinkConfig: VcBufferSize[" << v << "] = " << vcBufferSize[v]
                                                         << " is out of range [1, " << MAX_VC_BUFFER
                                                         << "]");
        RIFL_CHECK_ARG(vcDrainInterval[v] > MAX_COUNTER16, "DirectLinkConfig: VcDrainInterval["
                                                               << v << "] = " << vcDrainInterval[v]
                                                               << " is out of range [0, "
                                                               << MAX_COUNTER16 << "]");
    }
    RIFL_CHECK_ARG(crcPoly == 0 || crcPoly > 0xFF || (crcPoly & 1) == 0,
                   "DirectLinkConfig: CrcPoly = 0x" << std::hex << crcPoly << std::dec
                                                    << " must be odd and in [0x01, 0xFF]");
    CheckRange("AckTime", ackTime, 1, MAX_COUNTER16, " micro-packet times (16-bit counter)");
    CheckRange("RetransLimit", retransLimit, 0, MAX_COUNTER5, " resends (5-bit RetransTime)");
    CheckRange("CrdNullTime", crdNullTime, 1, MAX_COUNTER16,
               " micro-packet times (16-bit counter)");
    CheckRange("InitialTime", initialTime, 1, MAX_COUNTER16,
               " micro-packet times (16-bit counter)");
    RIFL_CHECK_ARG(initialTime < MinInitialTime() && !initAckGuard,
                   "DirectLinkConfig: InitialTime = "
                       << initialTime
                       << " is shorter than 2 * OneWayDelay + 3 = " << MinInitialTime()
                       << " micro-packet times (OneWayDelay = " << oneWayDelaySlots
                       << "): the shortest stay in Initial in which a side that reset alone "
                          "completes the Init / Init-Ack handshake; a shorter one can keep the "
                          "link from ever reaching Normal");
    RIFL_CHECK_ARG(initialTime < MinInitialTime() && initAckGuard,
                   "DirectLinkConfig: InitialTime = "
                       << initialTime
                       << " is shorter than max(2 * OneWayDelay + 4, 5) = " << MinInitialTime()
                       << " micro-packet times (OneWayDelay = " << oneWayDelaySlots
                       << "), the minimum with InitAckGuard on (with it off the minimum is 2 * "
                          "OneWayDelay + 3 = "
                       << 2 * uint64_t{oneWayDelaySlots} + 3
                       << "): with the guard, the handshake from some states never converges "
                          "below it");
    CheckRange("MaxMessageBytes", maxMessageBytes, 0, 0xFFFF, " bytes (16-bit length field)");
}

uint64_t
DirectLinkConfig::MinInitialTime() const
{
    if (!initAckGuard)
    {
        return 2 * uint64_t{oneWayDelaySlots} + 3;
    }
    // 2L + 4, except L = 0, where InitialTime 4 livelocks (exhaustive check) and 5 converges
    return std::max<uint64_t>(2 * uint64_t{oneWayDelaySlots} + 4, 5);
}

uint64_t
DirectLinkConfig::InitAckGuardSlots() const
{
    return 2 * uint64_t{oneWayDelaySlots} + 1;
}

double
DirectLinkConfig::GetSlotNs() const
{
    return MICRO_PACKET_BITS * 1e9 / static_cast<double>(lineRateBps);
}

uint32_t
DirectLinkConfig::NsToMicroPackets(const char* name, double ns, uint32_t maxValue) const
{
    RIFL_CHECK_ARG(!(ns >= 0.0), "DirectLinkConfig: " << name << " = " << ns << " ns must be >= 0");
    const double slots = std::ceil(ns / GetSlotNs() - 1e-9);
    RIFL_CHECK_ARG(slots > maxValue, "DirectLinkConfig: " << name << " = " << ns
                                                          << " ns = " << slots
                                                          << " micro-packet times does not fit "
                                                             "its counter, range [0, "
                                                          << maxValue << "]");
    return static_cast<uint32_t>(slots);
}

void
DirectLinkConfig::SetDelayFromCable(double lengthM, double propagationNsPerM, double extraNs)
{
    RIFL_CHECK_ARG(!(lengthM >= 0.0),
                   "DirectLinkConfig: cable length = " << lengthM << " m must be >= 0");
    RIFL_CHECK_ARG(!(propagationNsPerM > 0.0),
                   "DirectLinkConfig: propagation = " << propagationNsPerM << " ns/m must be > 0");
    RIFL_CHECK_ARG(!(extraNs >= 0.0),
                   "DirectLinkConfig: extra delay = " << extraNs << " ns must be >= 0");
    oneWayDelaySlots
        = NsToMicroPackets("OneWayDelay", lengthM * propagationNsPerM + extraNs, MAX_DELAY_SLOTS);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_LINK_CONFIG_H
#define RIFL_LINK_CONFIG_H

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

/**
 * \defgroup rifl-protocol RIFL protocol engines
 * \ingroup rifl
 *
 * Plain C++ engines that run the RIFL protocol rules in frame-slot time
 * (rifl-protocol.md §3, §10, §11), advanced by calls, with no ns-3 events
 * inside: the link configuration, the per-lane protocol state and the
 * reference slot engine.
 */

namespace ns3
{

/**
 * \ingroup rifl-protocol
 * \brief How a replay ends (rifl-protocol.md §3.5, §10.3, §11.9).
 */
enum class RiflReplayTail : uint8_t
{
    RTL,      //!< D/2 + 1 Idle slots, as the authors' RTL (duplicate-delivery hazard)
    CORRECTED //!< max(D/2 + 1, 2L + 8) Idle slots, or an explicit longer tail
};

/**
 * \ingroup rifl-protocol
 * \brief Length of the RX-up wait of the start-up sequence (rifl-protocol.md §3.4, §10.9).
 */
enum class RiflStartup : uint8_t
{
    FULL, //!< 2^20 transceiver-word (64-bit) cycles, as the hardware
    SHORT //!< 2^12 transceiver-word cycles, as the RTL's simulation builds
};

/**
 * \ingroup rifl-protocol
 * \brief The configuration of one RIFL link (both directions, L lanes each).
 *
 * Fields set to 0 (or -1 for LineDelaySlots) are derived; the Get...() methods
 * return the effective values. Validate() checks every field and throws
 * std::invalid_argument naming the parameter, the value and the allowed range.
 * Every field is part of the key of RiflFastEngine's start-up templates
 * (TemplateKey() in rifl-fast-engine.cc): a new field must be added there too.
 */
struct RiflLinkConfig
{
    uint32_t frameSize{256};         //!< FrameSize: S, 128, 256, 512 or 1024 bits
    uint32_t lanes{4};               //!< Lanes: bonded lanes per direction, 1..16
    double laneRateGbps{28.0};       //!< LaneRate: Gb/s per lane, (0, 1000]
    double cableLengthM{10.0};       //!< CableLength: metres, [0, 1000] (RTL range)
    double transceiverDelayNs{80.0}; //!< TransceiverDelay: T_gt of the RTL rule, [0, 10000] ns
    double cableDelayNsPerM{5.0};    //!< CableDelay: ns per metre for the derived line delay
    uint32_t frameIdWidth{0};        //!< FrameIdWidth: 0 = RTL rule, else min..12
    int64_t lineDelaySlots{-1};      //!< LineDelay: one-way slots, -1 = derived, 0..1000000
    uint32_t fcFifoDepth{0};         //!< FcFifoDepth: real FIFO frames, 0 = 2^(FID+1) + 16
    double drainFramesPerSlot{0.0};  //!< DrainRate: user frames per slot, 0 = unlimited
    RiflReplayTail replayTail{RiflReplayTail::RTL}; //!< ReplayTail mode
    /// CorrectedTail: 0 = max(D/2+1, 2L'+8), else >= 2L'+8, L' = L + the largest lane skew
    uint32_t correctedTailSlots{0};
    RiflStartup startup{RiflStartup::FULL}; //!< Startup: RX-up wait length
    uint32_t rxUpSlots{0};                  //!< RxUpSlots: explicit RX-up wait, 0 = from Startup
    uint32_t userWordBytes{32};             //!< UserWordBytes: user bus width for latency, 1..1024
    /// Per-endpoint DrainRate of A (0) and B (1): the user side of that endpoint's
    /// receiver, frames per slot in total; -1 = drainFramesPerSlot.
    std::array<double, 2> endpointDrainRate{-1.0, -1.0};
    /// Per-endpoint FcFifoDepth of A's and B's receivers; -1 = fcFifoDepth.
    std::array<int64_t, 2> endpointFcFifoDepth{-1, -1};
    /// LaneSkew: extra one-way delay of each lane in slots, both directions (spec 6.2);
    /// entry l is lane l (missing entries 0), at most Lanes entries, each 0..100000.
    std::vector<uint32_t> laneSkewSlots;
    /// ClockOffsetPpm of endpoint A (0) and B (1): the device clock's offset from nominal,
    /// [-1000, 1000] ppm, resolution 0.001 ppm (rounded to parts per billion).
    std::array<double, 2> clockOffsetPpm{0.0, 0.0};
    /// ClockCompensation of A and B: the endpoint inserts compensation Idles when it is the
    /// faster side (spec 6.1; default on, as the RTL).
    std::array<bool, 2> clockCompensation{true, true};

    /**
     * \brief Check every field.
     *
     * Throws std::invalid_argument whose message names the parameter, the
     * value given and the allowed range.
     */
    void Validate() const;

    /// \return the frame slot time in ns, S / LaneRate.
    double GetSlotTimeNs() const;

    /// \return the payload bytes per frame, (S - 16) / 8.
    uint32_t GetPayloadBytes() const;

    /// \return the RTL's round trip in ns, 2 x (T_gt + CableLength x 3.34 ns/m).
    double GetRttNs() const;

    /// \return round(RTT x LaneRate / S), the RTL's round trip in frames.
    uint32_t GetRttFrames() const;

    /// \return the modelled round trip of the slowest lane, 2 (LineDelay + largest
    ///         LaneSkew) slots.
    uint64_t GetLineRttSlots() const;

    /// \return the smallest Frame ID width w that meets both the RTL rule,
    ///         2^w >= 16 + 16 + GetRttFrames(), and single-error recovery over the
    ///         modelled line (spec 10.2 with the timing of 11.1), 2^w >= GetLineRttSlots()
    ///         + 18. With the derived LineDelay the RTL rule decides up to a few hundred
    ///         metres (its 3.34 ns/m is the vacuum speed of light; the line uses
    ///         CableDelay, 5 ns/m of fibre); an explicit LineDelay or a LaneSkew can make
    ///         the second the larger.
    uint32_t GetMinFrameIdWidth() const;

    /// \return the effective Frame ID width (explicit, or GetMinFrameIdWidth()).
    uint32_t GetFrameIdWidth() const;

    /// \return D = 2^FrameIdWidth, the retransmission buffer depth in frames.
    uint32_t GetBufferDepth() const;

    /// \return the one-way line delay L in slots (explicit, or round(cable delay / slot)).
    uint32_t GetLineDelaySlots() const;

    /**
     * \param lane a lane.
     * \return its skew in slots (0 beyond the LaneSkew entries).
     */
    uint32_t GetLaneSkewSlots(uint32_t lane) const;

    /// \return the largest lane skew in slots.
    uint32_t GetMaxLaneSkewSlots() const;

    /**
     * \param lane a lane.
     * \return its one-way delay in slots, L + its skew.
     */
    uint32_t GetLaneDelaySlots(uint32_t lane) const;

    /// \return S_FC = 2^(FrameIdWidth+1), the nominal FC buffer size in frames.
    uint32_t GetFcBufferFrames() const;

    /// \return Thr_ON = 2 S_FC / 3 (local FC turns on above it).
    uint32_t GetFcThrOn() const;

    /// \return Thr_OFF = S_FC / 3 (local FC turns off below it).
    uint32_t GetFcThrOff() const;

    /// \return the FC FIFO's real depth (explicit, or S_FC + 16: 144 for FID 6).
    uint32_t GetFcFifoDepth() const;

    /**
     * \param endpoint 0 or 1.
     * \return the drain rate of its receiving user side (endpointDrainRate, or
     *         drainFramesPerSlot), frames per slot, 0 = unlimited.
     */
    double GetDrainRate(uint32_t endpoint) const;

    /**
     * \param endpoint 0 or 1.
     * \return the real FC FIFO depth of its receiver (endpointFcFifoDepth, or GetFcFifoDepth()).
     */
    uint32_t GetFcFifoDepth(uint32_t endpoint) const;

    /// \return the Idle slots that end a replay (D/2 + 1 for RTL; corrected value otherwise).
    uint32_t GetReplayTailSlots() const;

    /// \return the slots of one replay, 2D + GetReplayTailSlots() (161 for D = 64, RTL).
    uint32_t GetReplaySlots() const;

    /// \return the aligned slots the RX-up counter needs (explicit, or from Startup).
    uint32_t GetRxUpSlots() const;

    /// Slot value meaning "never" (no clock skip).
    static constexpr uint64_t NO_SKIP = std::numeric_limits<uint64_t>::max();

    /**
     * \param endpoint 0 or 1.
     * \return its clock offset in parts per billion, round(ClockOffsetPpm x 1000).
     */
    int64_t GetClockOffsetPpb(uint32_t endpoint) const;

    /// \return Delta = |offset A - offset B| in parts per billion.
    uint64_t GetClockDeltaPpb() const;

    /// \return the slower endpoint (0 or 1), or 2 if both clocks run at the same rate.
    uint32_t GetSlowEndpoint() const;

    /// \return true if the faster endpoint compensates (Delta > 0 and its ClockCompensation).
    bool IsClockCompensated() const;

    /**
     * \brief The clock model on the common slot grid (spec 6.1).
     *
     * The grid runs at the faster endpoint's frame clock. The slower endpoint's
     * clock has 1 - Delta slots per grid slot (first order in Delta): grid slot s is
     * a skip slot, one the slower clock does not have, iff
     * floor((s + 1) Delta / 1e9) > floor(s Delta / 1e9); exactly floor(N Delta / 1e9)
     * of the slots 0..N-1 are skip slots (200 ppm: slots 4999, 9999, ...).
     * \param from a grid slot.
     * \return the first skip slot >= from, or NO_SKIP if Delta = 0.
     */
    uint64_t NextClockSkipSlot(uint64_t from) const;

    /**
     * \param slots a number of grid slots N.
     * \return the skip slots among 0..N-1, floor(N Delta / 1e9).
     */
    uint64_t CountClockSkipSlots(uint64_t slots) const;

    /// \return a one-line summary of the effective values (for logs).
    std::string ToString() const;

    /// \return the two rules of GetMinFrameIdWidth() with their values, in words (for
    ///         error messages).
    std::string FrameIdRuleText() const;
};

} // namespace ns3

#endif /* RIFL_LINK_CONFIG_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_CONFIG_H
#define DIRECT_LINK_CONFIG_H

#include <array>
#include <cstdint>

/**
 * \defgroup direct-link-protocol Direct-link protocol engines
 * \ingroup rifl
 * \brief Slot engines of the direct-link link layer (spec/direct-link-protocol.md):
 *        Go-Back-N retransmission, credits, timers and the Initial / Normal /
 *        Shutdown link state machine, plain C++ advanced by calls.
 */

namespace ns3
{

/**
 * \ingroup direct-link-protocol
 * \brief Configuration of one direct link (both sides use the same values).
 *
 * Every timer is in micro-packet times (one micro-packet time = 192 bits at
 * LineRate, 38.4 ns at 5 Gb/s) and must fit the spec's counter width
 * (§4.1: AckTime and CrdNullTime 16 bits, RetransTime 5 bits; InitialTime is
 * not sized by the document and gets 16 bits here, and must be at least
 * MinInitialTime() = 2 L + 3, or max(2 L + 4, 5) with initAckGuard, so the handshake
 * can complete). Validate() checks every
 * value and throws std::invalid_argument naming the parameter, the value and
 * the allowed range.
 */
struct DirectLinkConfig
{
    /// Number of virtual channels.
    static constexpr uint32_t NUM_VCS = 4;
    /// Largest RetryBufferSize: sequence numbers are modulo 31 (0x1F marks Null).
    static constexpr uint32_t MAX_RETRY_BUFFER = 30;
    /// Largest value of a 16-bit counter.
    static constexpr uint32_t MAX_COUNTER16 = 0xFFFF;
    /// Largest value of the 5-bit RetransTime counter.
    static constexpr uint32_t MAX_COUNTER5 = 0x1F;
    /// Largest VcBufferSize accepted (micro-packets per VC).
    static constexpr uint32_t MAX_VC_BUFFER = 4096;
    /// Largest one-way delay accepted, in micro-packet times.
    static constexpr uint32_t MAX_DELAY_SLOTS = 1000000;
    /// Micro-packet size in bits.
    static constexpr uint32_t MICRO_PACKET_BITS = 192;

    uint64_t lineRateBps{5000000000ULL}; //!< LineRate in bit/s, 1e6 .. 1e12
    uint32_t oneWayDelaySlots{2};        //!< one-way delay L in micro-packet times, 0..1e6
    uint32_t retryBufferSize{30};        //!< RetryBufferSize, 1..30
    std::array<uint32_t, NUM_VCS> vcBufferSize{{16, 16, 16, 16}}; //!< VcBufferSize, 1..4096
    uint32_t crcPoly{0x07};     //!< CRC-8 generator, odd, 0x01..0xFF
    uint32_t ackTime{64};       //!< AckTime, 1..65535 micro-packet times (16 bit)
    uint32_t retransLimit{7};   //!< RetransTime: resends allowed per entry, 0..31 (5 bit)
    uint32_t crdNullTime{1024}; //!< CrdNullTime, 1..65535 micro-packet times (16 bit)
    /// InitialTime, MinInitialTime() (2 L + 3, or max(2 L + 4, 5) with initAckGuard) .. 65535
    /// micro-packet times (16 bit)
    uint32_t initialTime{4096};
    bool nakEnabled{false}; //!< the NAK what-if of §5 (not in the document)
    /// The corrected handshake (not in the document): in Initial, an Init-Ack counts only
    /// if it arrives at least InitAckGuardSlots() = 2 L + 1 slots after this Initial began
    /// (only then can it answer this Initial's first Init); an earlier one is ignored.
    /// Off (the document's rule) by default.
    bool initAckGuard{false};
    /// NI drain interval per VC: the NI takes one micro-packet from the VC buffer in every
    /// slot s with s % interval == 0 (1 = one per slot); 0 = the NI does not drain (stalled).
    std::array<uint32_t, NUM_VCS> vcDrainInterval{{1, 1, 1, 1}};
    uint32_t maxMessageBytes{4096}; //!< largest message accepted by OfferMessage, 0..65535

    /**
     * \brief Check every value.
     *
     * Throws std::invalid_argument naming the parameter, the value and the allowed range.
     */
    void Validate() const;

    /**
     * \brief The shortest InitialTime Validate() accepts: 2 * oneWayDelaySlots + 3, or
     *        max(2 * oneWayDelaySlots + 4, 5) with initAckGuard.
     *
     * A side that resets alone (its peer still Normal) sends Init from the slot after its
     * reset (slot 0 here); the peer gets it at the end of slot L, re-enters Initial and
     * answers Init-Ack from slot L + 1; the side sees the first Init-Ack at the end of slot
     * 2L + 1 (peer seen) and the next at the end of 2L + 2, and is Normal then: 2L + 3 slots
     * in Initial (the peer needs 2L + 2). With less, that handshake never completes in one
     * try and the link can stay out of Normal for ever (with InitialTime 1 and L = 1 both
     * sides shut down on InitialTime in every slot). The document does not size InitialTime
     * (spec/direct-link-protocol.md section 4.1); this lower bound is this model's decision.
     *
     * With initAckGuard, 2L + 3 is still enough for a side that resets alone, but an
     * exhaustive check of the handshake from every state (test suite
     * direct-link-reference-engine, "exhaustive handshake") finds states that never
     * converge at 2L + 3 for every L = 1..5 checked (the two sides' Initials keep missing
     * each other: each ignores the other's early Init-Acks and times out just before the
     * answer to its own Init arrives), whereas every InitialTime checked from 2L + 4 on
     * converges (up to 2L + 43 for L <= 4, 2L + 23 for L = 5);
     * L = 0 is irregular (3 converges, 4 livelocks, 5 and more converge); hence
     * max(2L + 4, 5).
     * \return the bound in micro-packet times.
     */
    uint64_t MinInitialTime() const;

    /**
     * \brief With initAckGuard, the earliest age in Initial (slots since the Initial
     *        began) at whose end a received Init-Ack counts: 2 * oneWayDelaySlots + 1 (the
     *        first Init of this Initial, sent in its first slot s, reaches the peer at the end
     *        of s + L, whose answer, sent from s + L + 1, arrives at the end of s + 2L + 1).
     * \return the age in micro-packet times.
     */
    uint64_t InitAckGuardSlots() const;

    /// \return the micro-packet time in ns (192e9 / LineRate).
    double GetSlotNs() const;

    /**
     * \brief Set oneWayDelaySlots from a cable: ceil((length * propagation + extra) / slot).
     * \param lengthM cable length in m, >= 0.
     * \param propagationNsPerM propagation delay in ns/m, > 0 (about 5 for copper or fibre).
     * \param extraNs fixed SerDes / pipeline latency in ns, >= 0.
     */
    void SetDelayFromCable(double lengthM, double propagationNsPerM, double extraNs = 0.0);

    /**
     * \brief Convert a duration in ns into micro-packet times, rounded up.
     * \param name the parameter name used in error messages.
     * \param ns the duration in ns, >= 0.
     * \param maxValue the counter's largest value (std::invalid_argument if it does not fit).
     * \return the number of micro-packet times.
     */
    uint32_t NsToMicroPackets(const char* name, double ns, uint32_t maxValue) const;
};

} // namespace ns3

#endif /* DIRECT_LINK_CONFIG_H */

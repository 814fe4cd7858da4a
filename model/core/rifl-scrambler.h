/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_SCRAMBLER_H
#define RIFL_SCRAMBLER_H

#include "bit-block.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief RIFL's self-synchronous (multiplicative) scrambler, 1 + x^13 + x^33.
 *
 * Scrambling: out[n] = in[n] ^ out[n-13] ^ out[n-33]. Descrambling:
 * out[n] = in[n] ^ in[n-13] ^ in[n-33]. In both directions the 33-bit state
 * is the history of the last 33 *line* (scrambled) bits, so a scrambler and
 * the descrambler that follows it are in step exactly when their states are
 * equal, and a descrambler resynchronises by itself after 33 line bits.
 *
 * State layout (GetState(), SetState()): bit 0 is the most recent line bit,
 * bit k the line bit k+1 positions back (bit 12 = n-13, bit 32 = n-33).
 *
 * Bits are processed in line order. For a BitBlock field [msb:lsb] that is
 * bit msb first (frames go on the line MSB first); for the word helpers it is
 * bit n-1 of the value first. The state runs on across calls: RIFL scrambles
 * only Meta+Payload (or key+zeros) of each frame and keeps the state across
 * frames over those bits only (see RiflFrame).
 *
 * The implementation works on whole words: up to 13 bits per step when
 * scrambling (the nearest feedback tap is 13 bits back) and up to 31 bits per
 * step when descrambling.
 */
class RiflScrambler
{
  public:
    /// Number of state bits (the degree of the polynomial).
    static constexpr uint32_t STATE_BITS = 33;
    /// Mask of the valid state bits.
    static constexpr uint64_t STATE_MASK = (uint64_t{1} << STATE_BITS) - 1;

    /**
     * \brief Make a scrambler.
     * \param state the initial state, below 2^33 (std::invalid_argument naming
     *        "state" otherwise); default all zeros.
     */
    explicit RiflScrambler(uint64_t state = 0);

    /// \return the state (the last 33 line bits; bit 0 the most recent).
    uint64_t GetState() const;

    /**
     * \brief Set the state.
     * \param state the new state, below 2^33 (std::invalid_argument naming "state" otherwise).
     */
    void SetState(uint64_t state);

    /// \brief Set the state to all zeros.
    void Reset();

    /**
     * \brief Scramble the field [msb:lsb] of a block in place, bit msb first.
     * \param block the block.
     * \param msb the field's first (top) bit, below block.GetSize().
     * \param lsb the field's last (bottom) bit, <= msb (std::out_of_range otherwise).
     */
    void Scramble(BitBlock& block, uint32_t msb, uint32_t lsb);

    /**
     * \brief Descramble the field [msb:lsb] of a block in place, bit msb first.
     * \param block the block.
     * \param msb the field's first (top) bit, below block.GetSize().
     * \param lsb the field's last (bottom) bit, <= msb (std::out_of_range otherwise).
     */
    void Descramble(BitBlock& block, uint32_t msb, uint32_t lsb);

    /**
     * \brief Scramble \p nBits bits given as a number, bit nBits-1 first.
     * \param bits the clear bits (bits above nBits are ignored).
     * \param nBits how many, 0..64 (std::invalid_argument naming "nBits" otherwise).
     * \return the line bits, same layout.
     */
    uint64_t ScrambleBits(uint64_t bits, uint32_t nBits);

    /**
     * \brief Descramble \p nBits line bits given as a number, bit nBits-1 first.
     * \param bits the line bits (bits above nBits are ignored).
     * \param nBits how many, 0..64 (std::invalid_argument naming "nBits" otherwise).
     * \return the clear bits, same layout.
     */
    uint64_t DescrambleBits(uint64_t bits, uint32_t nBits);

  private:
    /**
     * \brief Scramble up to 13 bits (no range check).
     * \param bits the clear bits, first bit at bit n-1.
     * \param n how many, 1..13.
     * \return the line bits.
     */
    uint64_t ScrambleChunk(uint64_t bits, uint32_t n);

    /**
     * \brief Descramble up to 31 bits (no range check).
     * \param bits the line bits, first bit at bit n-1.
     * \param n how many, 1..31.
     * \return the clear bits.
     */
    uint64_t DescrambleChunk(uint64_t bits, uint32_t n);

    uint64_t m_state; //!< last 33 line bits, bit 0 the most recent
};

} // namespace ns3

#endif /* RIFL_SCRAMBLER_H */

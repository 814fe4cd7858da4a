/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-scrambler.h"

#include "rifl-check.h"

#include <algorithm>

namespace ns3
{

namespace
{

/**
 * \brief The mask of the low n bits.
 * \param n 0..64.
 * \return 2^n - 1.
 */
inline uint64_t
LowMask(uint32_t n)
{
    return n >= 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1);
}

/// Largest chunk scrambled in one step (the nearest tap is 13 bits back).
constexpr uint32_t SCRAMBLE_CHUNK = 13;
/// Largest chunk descrambled in one step (33 history bits + 31 new bits = 64).
constexpr uint32_t DESCRAMBLE_CHUNK = 31;

} // namespace

RiflScrambler::RiflScrambler(uint64_t state)
    : m_state(0)
{
    SetState(state);
}

uint64_t
RiflScrambler::GetState() const
{
    return m_state;
}

void
RiflScrambler::SetState(uint64_t state)
{
    RIFL_CHECK_ARG(state > STATE_MASK, "RiflScrambler: state = 0x"
                                           << std::hex << state << std::dec
                                           << " is out of range [0, 2^33 - 1]");
    m_state = state;
}

void
RiflScrambler::Reset()
{
    m_state = 0;
}

uint64_t
RiflScrambler::ScrambleChunk(uint64_t bits, uint32_t n)
{
    // Chunk bit j (j = n-1 first) needs line bits 13 and 33 positions earlier;
    // with n <= 13 they are all in the history, which (shifted up by n) sits
    // right above the chunk.
    const uint64_t y = m_state << n;
    const uint64_t out = (bits ^ (y >> 13) ^ (y >> 33)) & LowMask(n);
    m_state = (y | out) & STATE_MASK;
    return out;
}

uint64_t
RiflScrambler::DescrambleChunk(uint64_t bits, uint32_t n)
{
    const uint64_t x = (m_state << n) | (bits & LowMask(n));
    const uint64_t out = (x ^ (x >> 13) ^ (x >> 33)) & LowMask(n);
    m_state = x & STATE_MASK;
    return out;
}

void
RiflScrambler::Scramble(BitBlock& block, uint32_t msb, uint32_t lsb)
{
    RIFL_CHECK_INDEX(msb < lsb || msb >= block.GetSize(),
                     "RiflScrambler::Scramble: field [msb:lsb] = ["
                         << msb << ":" << lsb << "] is not inside [0, " << block.GetSize() << ")");
    // Whole 64-bit pieces out of the block; the chunking runs in registers.
    uint32_t remaining = msb - lsb + 1;
    uint32_t top = msb;
    while (remaining > 0)
    {
        const uint32_t n = std::min<uint32_t>(remaining, 64);
        const uint32_t bottom = top + 1 - n;
        block.SetField(top, bottom, ScrambleBits(block.GetField(top, bottom), n));
        remaining -= n;
        top = bottom - 1; // wraps only when remaining == 0
    }
}

void
RiflScrambler::Descramble(BitBlock& block, uint32_t msb, uint32_t lsb)
{
    RIFL_CHECK_INDEX(msb < lsb || msb >= block.GetSize(),
                     "RiflScrambler::Descramble: field [msb:lsb] = ["
                         << msb << ":" << lsb << "] is not inside [0, " << block.GetSize() << ")");
    uint32_t remaining = msb - lsb + 1;
    uint32_t top = msb;
    while (remaining > 0)
    {
        const uint32_t n = std::min<uint32_t>(remaining, 64);
        const uint32_t bottom = top + 1 - n;
        block.SetField(top, bottom, DescrambleBits(block.GetField(top, bottom), n));
        remaining -= n;
        top = bottom - 1;
    }
}

uint64_t
RiflScrambler::ScrambleBits(uint64_t bits, uint32_t nBits)
{
    RIFL_CHECK_ARG(nBits > 64,
                   "RiflScrambler::ScrambleBits: nBits = " << nBits << " is out of range [0, 64]");
    uint64_t out = 0;
    uint32_t remaining = nBits;
    while (remaining > 0)
    {
        const uint32_t n = std::min(remaining, SCRAMBLE_CHUNK);
        remaining -= n;
        const uint64_t chunk = (bits >> remaining) & LowMask(n);
        out |= ScrambleChunk(chunk, n) << remaining;
    }
    return out;
}

uint64_t
RiflScrambler::DescrambleBits(uint64_t bits, uint32_t nBits)
{
    RIFL_CHECK_ARG(nBits > 64, "RiflScrambler::DescrambleBits: nBits = "
                                   << nBits << " is out of range [0, 64]");
    uint64_t out = 0;
    uint32_t remaining = nBits;
    while (remaining > 0)
    {
        const uint32_t n = std::min(remaining, DESCRAMBLE_CHUNK);
        remaining -= n;
        const uint64_t chunk = (bits >> remaining) & LowMask(n);
        out |= DescrambleChunk(chunk, n) << remaining;
    }
    return out;
}

} // namespace ns3

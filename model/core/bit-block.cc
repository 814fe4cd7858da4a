/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bit-block.h"

#include "rifl-check.h"

namespace ns3
{

BitBlock::BitBlock(uint32_t nBits)
    : m_size(nBits)
{
    RIFL_CHECK_ARG(nBits > MAX_BITS,
                   "BitBlock: nBits = " << nBits << " is out of range [0, " << MAX_BITS << "]");
}

uint32_t
BitBlock::GetSize() const
{
    return m_size;
}

bool
BitBlock::Get(uint32_t pos) const
{
    RIFL_CHECK_INDEX(pos >= m_size, "BitBlock::Get: pos " << pos << " >= size " << m_size);
    return (m_words[pos / 64] >> (pos % 64)) & 1U;
}

void
BitBlock::Set(uint32_t pos, bool value)
{
    RIFL_CHECK_INDEX(pos >= m_size, "BitBlock::Set: pos " << pos << " >= size " << m_size);
    const uint64_t mask = uint64_t{1} << (pos % 64);
    if (value)
    {
        m_words[pos / 64] |= mask;
    }
    else
    {
        m_words[pos / 64] &= ~mask;
    }
}

void
BitBlock::Flip(uint32_t pos)
{
    RIFL_CHECK_INDEX(pos >= m_size, "BitBlock::Flip: pos " << pos << " >= size " << m_size);
    m_words[pos / 64] ^= uint64_t{1} << (pos % 64);
}

uint64_t
BitBlock::GetField(uint32_t msb, uint32_t lsb) const
{
    RIFL_CHECK_INDEX(msb < lsb || msb - lsb >= 64 || msb >= m_size,
                     "BitBlock::GetField: bad field [" << msb << ":" << lsb << "] of a " << m_size
                                                       << "-bit block");
    const uint32_t width = msb - lsb + 1;
    const uint32_t word = lsb / 64;
    const uint32_t shift = lsb % 64;
    uint64_t v = m_words[word] >> shift;
    if (shift != 0 && shift + width > 64)
    {
        v |= m_words[word + 1] << (64 - shift);
    }
    return width == 64 ? v : (v & ((uint64_t{1} << width) - 1));
}

void
BitBlock::SetField(uint32_t msb, uint32_t lsb, uint64_t value)
{
    RIFL_CHECK_INDEX(msb < lsb || msb - lsb >= 64 || msb >= m_size,
                     "BitBlock::SetField: bad field [" << msb << ":" << lsb << "] of a " << m_size
                                                       << "-bit block");
    const uint32_t width = msb - lsb + 1;
    const uint64_t mask = width == 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
    value &= mask;
    const uint32_t word = lsb / 64;
    const uint32_t shift = lsb % 64;
    m_words[word] = (m_words[word] & ~(mask << shift)) | (value << shift);
    if (shift != 0 && shift + width > 64)
    {
        const uint32_t hiBits = shift + width - 64;
        const uint64_t hiMask = (uint64_t{1} << hiBits) - 1;
        m_words[word + 1] = (m_words[word + 1] & ~hiMask) | (value >> (64 - shift));
    }
}

std::vector<uint8_t>
BitBlock::ToBytes() const
{
    RIFL_CHECK_ARG(m_size % 8 != 0, "BitBlock::ToBytes: size " << m_size << " is not whole bytes");
    std::vector<uint8_t> out(m_size / 8);
    for (uint32_t i = 0; i < out.size(); ++i)
    {
        const uint32_t lsb = m_size - 8 * (i + 1);
        out[i] = static_cast<uint8_t>(GetField(lsb + 7, lsb));
    }
    return out;
}

BitBlock
BitBlock::FromBytes(const uint8_t* data, uint32_t nBits)
{
    RIFL_CHECK_ARG(nBits % 8 != 0 || nBits > MAX_BITS,
                   "BitBlock::FromBytes: nBits = " << nBits << " must be a multiple of 8 in [0, "
                                                   << MAX_BITS << "]");
    BitBlock b(nBits);
    for (uint32_t i = 0; i < nBits / 8; ++i)
    {
        const uint32_t lsb = nBits - 8 * (i + 1);
        b.SetField(lsb + 7, lsb, data[i]);
    }
    return b;
}

uint32_t
BitBlock::PopCount() const
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < (m_size + 63) / 64; ++w)
    {
        n += static_cast<uint32_t>(__builtin_popcountll(m_words[w]));
    }
    return n;
}

std::vector<uint32_t>
BitBlock::OnePositions() const
{
    std::vector<uint32_t> out;
    for (uint32_t w = 0; w < (m_size + 63) / 64; ++w)
    {
        uint64_t v = m_words[w];
        while (v != 0)
        {
            const uint32_t b = static_cast<uint32_t>(__builtin_ctzll(v));
            out.push_back(w * 64 + b);
            v &= v - 1;
        }
    }
    return out;
}

BitBlock&
BitBlock::operator^=(const BitBlock& other)
{
    RIFL_CHECK_ARG(other.m_size != m_size, "BitBlock::operator^=: sizes differ ("
                                               << m_size << " vs " << other.m_size << ")");
    for (uint32_t w = 0; w < m_words.size(); ++w)
    {
        m_words[w] ^= other.m_words[w];
    }
    return *this;
}

bool
BitBlock::operator==(const BitBlock& other) const
{
    return m_size == other.m_size && m_words == other.m_words;
}

bool
BitBlock::operator!=(const BitBlock& other) const
{
    return !(*this == other);
}

std::string
BitBlock::ToHex() const
{
    static const char* digits = "0123456789abcdef";
    std::string s;
    const uint32_t nibbles = (m_size + 3) / 4;
    for (uint32_t i = nibbles; i-- > 0;)
    {
        uint32_t v = 0;
        for (uint32_t b = 0; b < 4; ++b)
        {
            const uint32_t pos = 4 * i + b;
            if (pos < m_size && Get(pos))
            {
                v |= 1U << b;
            }
        }
        s.push_back(digits[v]);
    }
    return s;
}

} // namespace ns3

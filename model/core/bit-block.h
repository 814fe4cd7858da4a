/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_BIT_BLOCK_H
#define RIFL_BIT_BLOCK_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

/**
 * \defgroup rifl RIFL and direct-link reliable link layers
 *
 * Hop-by-hop retransmitting link layers: RIFL (a NACK-only data-center link
 * protocol) and the direct-link layer of a multiprocessor's direct-connect
 * interface, with their frame codecs, CRCs, error processes and analytic
 * reliability models.
 */

/**
 * \defgroup rifl-core Link core
 * \ingroup rifl
 *
 * Plain C++ building blocks that know bits, slots and probabilities but
 * nothing of nodes or packets: bit blocks, CRC engines, weight spectra, frame
 * and micro-packet codecs, bit-error processes and the analytic model.
 */

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief A fixed-capacity block of up to 1024 bits, indexed as hardware does.
 *
 * Bit \c k has weight 2^k: bit 0 is the least significant bit and bit
 * GetSize()-1 the most significant one. Frames go on the line MSB first, so the
 * byte image (ToBytes()/FromBytes()) puts bits [S-1:S-8] in byte 0.
 */
class BitBlock
{
  public:
    /// The largest number of bits a block can hold (a RIFL1024 frame).
    static constexpr uint32_t MAX_BITS = 1024;

    /**
     * \brief Make a block of \p nBits zero bits.
     * \param nBits the size in bits, 0..MAX_BITS (std::invalid_argument otherwise).
     */
    explicit BitBlock(uint32_t nBits = 0);

    /// \return the size in bits.
    uint32_t GetSize() const;

    /**
     * \param pos the bit index, 0 (LSB) .. GetSize()-1 (MSB).
     * \return the bit's value.
     */
    bool Get(uint32_t pos) const;

    /**
     * \brief Set one bit.
     * \param pos the bit index, 0 .. GetSize()-1.
     * \param value the new value.
     */
    void Set(uint32_t pos, bool value);

    /**
     * \brief Invert one bit.
     * \param pos the bit index, 0 .. GetSize()-1.
     */
    void Flip(uint32_t pos);

    /**
     * \brief Read the field [msb:lsb] as an unsigned number (bit lsb is its LSB).
     * \param msb the field's top bit index.
     * \param lsb the field's bottom bit index; msb - lsb < 64.
     * \return the field's value.
     */
    uint64_t GetField(uint32_t msb, uint32_t lsb) const;

    /**
     * \brief Write the field [msb:lsb]; bits of \p value above the width are ignored.
     * \param msb the field's top bit index.
     * \param lsb the field's bottom bit index; msb - lsb < 64.
     * \param value the value to write.
     */
    void SetField(uint32_t msb, uint32_t lsb, uint64_t value);

    /**
     * \brief The byte image in line order (MSB first).
     * \return GetSize()/8 bytes; the size must be a multiple of 8.
     */
    std::vector<uint8_t> ToBytes() const;

    /**
     * \brief Build a block from its byte image (MSB first).
     * \param data the bytes.
     * \param nBits the size, a multiple of 8 not above MAX_BITS; data holds nBits/8 bytes.
     * \return the block.
     */
    static BitBlock FromBytes(const uint8_t* data, uint32_t nBits);

    /// \return the number of bits set to one.
    uint32_t PopCount() const;

    /// \return the indices of the bits set to one, ascending.
    std::vector<uint32_t> OnePositions() const;

    /**
     * \brief XOR another block of the same size into this one.
     * \param other a block with the same GetSize().
     * \return this block.
     */
    BitBlock& operator^=(const BitBlock& other);

    /**
     * \param other another block.
     * \return true if both have the same size and bits.
     */
    bool operator==(const BitBlock& other) const;

    /**
     * \param other another block.
     * \return true if they differ in size or in any bit.
     */
    bool operator!=(const BitBlock& other) const;

    /// \return the bits as hex digits, MSB first (size rounded up to a nibble).
    std::string ToHex() const;

  private:
    uint32_t m_size;                               //!< size in bits
    std::array<uint64_t, MAX_BITS / 64> m_words{}; //!< bit k is bit k%64 of word k/64
};

/**
 * \ingroup rifl-core
 * \brief Append an unsigned value as little-endian bytes (wire formats of the module).
 * \param out the bytes to append to.
 * \param value the value.
 * \param bytes its width, 1..8.
 */
inline void
PutLittleEndian(std::vector<uint8_t>& out, uint64_t value, uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes; ++i)
    {
        out.push_back(static_cast<uint8_t>(value >> (8 * i)));
    }
}

/**
 * \ingroup rifl-core
 * \brief Read an unsigned little-endian value (the caller checks the bounds).
 * \param data its first byte.
 * \param bytes its width, 1..8.
 * \return the value.
 */
inline uint64_t
GetLittleEndian(const uint8_t* data, uint32_t bytes)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < bytes; ++i)
    {
        v |= uint64_t{data[i]} << (8 * i);
    }
    return v;
}

/**
 * \ingroup rifl-core
 * \brief Little-endian writer of the module's wire formats (line records between the halves
 *        of a split link).
 */
struct WireWriter
{
    std::vector<uint8_t> out; //!< the bytes

    /**
     * \param v a value.
     * \param n its width in bytes, 1..8.
     */
    void Put(uint64_t v, uint32_t n)
    {
        PutLittleEndian(out, v, n);
    }

    /// \param b bytes to append.
    void Put(const std::vector<uint8_t>& b)
    {
        out.insert(out.end(), b.begin(), b.end());
    }
};

/**
 * \ingroup rifl-core
 * \brief Little-endian reader of the module's wire formats: reading past the end is a
 *        std::invalid_argument naming the decoder (\p where) and the field.
 */
struct WireReader
{
    const uint8_t* data; //!< the bytes
    std::size_t size;    //!< their number
    const char* where;   //!< the decoder, for the error
    std::size_t pos{0};  //!< next byte

    /**
     * \param n width in bytes, 1..8.
     * \param field the field's name (for the error).
     * \return the value.
     */
    uint64_t Get(uint32_t n, const char* field)
    {
        Need(n, field);
        const uint64_t v = GetLittleEndian(data + pos, n);
        pos += n;
        return v;
    }

    /**
     * \param n number of bytes.
     * \param field the field's name (for the error).
     * \return the bytes.
     */
    std::vector<uint8_t> GetBytes(std::size_t n, const char* field)
    {
        Need(n, field);
        std::vector<uint8_t> b(data + pos, data + pos + n);
        pos += n;
        return b;
    }

    /**
     * \brief Throw unless \p n more bytes are there.
     * \param n number of bytes.
     * \param field the field's name (for the error).
     */
    void Need(std::size_t n, const char* field) const
    {
        if (pos > size || size - pos < n)
        {
            throw std::invalid_argument(std::string(where) + ": " + std::to_string(size)
                                        + " bytes end inside " + field);
        }
    }
};

} // namespace ns3

#endif /* RIFL_BIT_BLOCK_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crc-engine.h"

#include "rifl-check.h"

#include <boost/crc.hpp>

#include <array>
#include <utility>

namespace ns3
{

namespace
{

/// How a message is handed to a Boost.CRC register.
enum class Feed
{
    BYTES, //!< a byte string
    BITS,  //!< a bit vector
    FIELD, //!< a field of a BitBlock
};

/// Arguments of one CRC computation (only the ones of its Feed are used).
struct CrcInput
{
    Feed feed;                     //!< which of the inputs below is used
    const uint8_t* bytes;          //!< BYTES: the data
    std::size_t length;            //!< BYTES: its length
    const std::vector<bool>* bits; //!< BITS: the bits
    const BitBlock* block;         //!< FIELD: the block
    uint32_t msb;                  //!< FIELD: first bit
    uint32_t lsb;                  //!< FIELD: last bit
};

/**
 * \brief Run one computation on a Boost.CRC register of width W.
 * \param poly the generator.
 * \param in the message.
 * \return the remainder.
 */
template <std::size_t W>
uint32_t
RunCrc(uint32_t poly, const CrcInput& in)
{
    boost::crc_basic<W> crc(poly, 0, 0, false, false);
    switch (in.feed)
    {
        case Feed::BYTES:
            crc.process_bytes(in.bytes, in.length);
            break;
        case Feed::BITS:
            for (bool b : *in.bits)
            {
                crc.process_bit(b);
            }
            break;
        case Feed::FIELD:
            for (uint32_t pos = in.msb + 1; pos-- > in.lsb;)
            {
                crc.process_bit(in.block->Get(pos));
            }
            break;
    }
    return static_cast<uint32_t>(crc.checksum());
}

/// Signature of RunCrc<W>.
using CrcFn = uint32_t (*)(uint32_t, const CrcInput&);

/**
 * \brief The table of RunCrc<1> .. RunCrc<32>.
 * \return the table, index = width - 1.
 */
template <std::size_t... I>
constexpr std::array<CrcFn, sizeof...(I)>
MakeTable(std::index_sequence<I...>)
{
    return {&RunCrc<I + 1>...};
}

/// RunCrc<W> by width (index W-1).
const std::array<CrcFn, 32> g_crcTable = MakeTable(std::make_index_sequence<32>{});

} // namespace

CrcEngine::CrcEngine(uint32_t width, uint32_t poly)
    : m_width(width)
    , m_poly(poly)
{
    RIFL_CHECK_ARG(width < 1 || width > 32,
                   "CrcEngine: width = " << width << " is out of range [1, 32]");
    RIFL_CHECK_ARG(width < 32 && (poly >> width) != 0,
                   "CrcEngine: poly = 0x" << std::hex << poly << std::dec
                                          << " does not fit in width = " << width
                                          << " bits (give it without the x^width term)");
    RIFL_CHECK_ARG((poly & 1U) == 0, "CrcEngine: poly = 0x" << std::hex << poly << std::dec
                                                            << " must have its x^0 term set");
}

uint32_t
CrcEngine::GetWidth() const
{
    return m_width;
}

uint32_t
CrcEngine::GetPolynomial() const
{
    return m_poly;
}

uint32_t
CrcEngine::ComputeBytes(const uint8_t* data, std::size_t length) const
{
    CrcInput in{Feed::BYTES, data, length, nullptr, nullptr, 0, 0};
    return g_crcTable[m_width - 1](m_poly, in);
}

uint32_t
CrcEngine::ComputeBits(const std::vector<bool>& bits) const
{
    CrcInput in{Feed::BITS, nullptr, 0, &bits, nullptr, 0, 0};
    return g_crcTable[m_width - 1](m_poly, in);
}

uint32_t
CrcEngine::ComputeField(const BitBlock& block, uint32_t msb, uint32_t lsb) const
{
    RIFL_CHECK_INDEX(msb < lsb || msb >= block.GetSize(), "CrcEngine::ComputeField: bad field ["
                                                              << msb << ":" << lsb << "] of a "
                                                              << block.GetSize() << "-bit block");
    CrcInput in{Feed::FIELD, nullptr, 0, nullptr, &block, msb, lsb};
    return g_crcTable[m_width - 1](m_poly, in);
}

namespace
{
/**
 * \brief The slicing-by-8 tables of CRC-12 0x02F (not reflected, init 0).
 * \return t[k][b]: the CRC from register 0 of a 64-bit word whose byte k (0 = most
 *         significant) is b and whose other bytes are zero.
 */
const std::array<std::array<uint16_t, 256>, 8>&
Crc12SliceTables()
{
    static const std::array<std::array<uint16_t, 256>, 8> tables = []
    {
        auto step = [](uint32_t c, uint32_t byte)
        {
            for (int i = 7; i >= 0; --i)
            {
                const uint32_t bit = ((byte >> i) ^ (c >> 11)) & 1;
                c = (c << 1) & 0xFFF;
                if (bit != 0)
                {
                    c ^= 0x02F;
                }
            }
            return c;
        };
        std::array<std::array<uint16_t, 256>, 8> x{};
        for (uint32_t b = 0; b < 256; ++b)
        {
            uint32_t c = step(0, b);
            x[7][b] = static_cast<uint16_t>(c);
            for (int k = 6; k >= 0; --k)
            {
                c = step(c, 0);
                x[k][b] = static_cast<uint16_t>(c);
            }
        }
        return x;
    }();
    return tables;
}
} // namespace

uint16_t
CrcEngine::RiflCrc12(const BitBlock& frame)
{
    const uint32_t s = frame.GetSize();
    RIFL_CHECK_ARG(s != 128 && s != 256 && s != 512 && s != 1024,
                   "CrcEngine::RiflCrc12: frame size " << s
                                                       << " bits is not one of 128, 256, "
                                                          "512, 1024");
    // Whole 64-bit words of the frame, MSB first, with the Verification Code field
    // [11:0] taken as zeros, by slicing-by-8 (this runs once per frame built or
    // judged): the register r before a word W acts like r XORed into W's top 12
    // bits, and the CRC of a word from register 0 is the XOR of its bytes' images.
    const auto& t = Crc12SliceTables();
    uint32_t c = 0;
    for (uint32_t w = 0; w < s / 64; ++w)
    {
        const uint32_t msb = s - 1 - 64 * w;
        uint64_t v = frame.GetField(msb, msb - 63);
        if (msb == 63)
        {
            v &= ~uint64_t{0xFFF};
        }
        v ^= static_cast<uint64_t>(c) << 52;
        c = t[0][v >> 56] ^ t[1][(v >> 48) & 0xFF] ^ t[2][(v >> 40) & 0xFF] ^ t[3][(v >> 32) & 0xFF]
            ^ t[4][(v >> 24) & 0xFF] ^ t[5][(v >> 16) & 0xFF] ^ t[6][(v >> 8) & 0xFF]
            ^ t[7][v & 0xFF];
    }
    return static_cast<uint16_t>(c);
}

uint32_t
CrcEngine::EthernetCrc32(const uint8_t* data, std::size_t length)
{
    boost::crc_32_type crc;
    crc.process_bytes(data, length);
    return crc.checksum();
}

} // namespace ns3

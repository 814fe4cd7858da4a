/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_CRC_ENGINE_H
#define RIFL_CRC_ENGINE_H

#include "bit-block.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief MSB-first, non-reflected CRCs of any width 1..32 and generator, on Boost.CRC.
 *
 * The register starts at zero; for each message bit b (most significant bit of
 * the message first): fb = reg[width-1] ^ b; reg = (reg << 1) mod 2^width;
 * if fb then reg ^= poly. There is no reflection and no final XOR. The
 * generator is given in "normal" notation, without its x^width term: RIFL's
 * CRC-12 is width 12, poly 0x02F (x^12+x^5+x^3+x^2+x+1).
 *
 * The static helpers compute the module's concrete codes:
 * - RiflCrc12(): RIFL's CRC-12 over a whole frame whose 12-bit Verification
 *   Code field [11:0] is taken as zeros (the caller XORs the Frame ID);
 * - EthernetCrc32(): IEEE 802.3's FCS (reflected, init and final XOR all ones),
 *   for the Ethernet baseline.
 */
class CrcEngine
{
  public:
    /**
     * \brief Make an engine.
     * \param width CRC width in bits, 1..32 (std::invalid_argument naming "width" otherwise).
     * \param poly generator without its x^width term; must fit in \p width bits
     *        and have its x^0 term set (std::invalid_argument naming "poly" otherwise).
     */
    CrcEngine(uint32_t width, uint32_t poly);

    /// \return the width in bits.
    uint32_t GetWidth() const;

    /// \return the generator (normal notation, no x^width term).
    uint32_t GetPolynomial() const;

    /**
     * \brief CRC of a byte string, each byte MSB first.
     * \param data the bytes.
     * \param length the number of bytes.
     * \return the CRC register after the last bit.
     */
    uint32_t ComputeBytes(const uint8_t* data, std::size_t length) const;

    /**
     * \brief CRC of a bit sequence given MSB first.
     * \param bits the bits in the order they enter the register.
     * \return the CRC register after the last bit.
     */
    uint32_t ComputeBits(const std::vector<bool>& bits) const;

    /**
     * \brief CRC of the field [msb:lsb] of a block, bit msb first.
     * \param block the block.
     * \param msb the first bit to enter the register.
     * \param lsb the last bit to enter the register.
     * \return the CRC register after bit lsb.
     */
    uint32_t ComputeField(const BitBlock& block, uint32_t msb, uint32_t lsb) const;

    /**
     * \brief RIFL's CRC-12 (0x02F) of a frame, with its bits [11:0] taken as zero.
     * \param frame a frame of 128, 256, 512 or 1024 bits.
     * \return the 12-bit CRC (not yet XORed with the Frame ID).
     */
    static uint16_t RiflCrc12(const BitBlock& frame);

    /**
     * \brief IEEE 802.3 CRC-32 (the Ethernet FCS) of a byte string.
     * \param data the bytes.
     * \param length the number of bytes.
     * \return the FCS value.
     */
    static uint32_t EthernetCrc32(const uint8_t* data, std::size_t length);

  private:
    uint32_t m_width; //!< CRC width in bits
    uint32_t m_poly;  //!< generator, normal notation
};

} // namespace ns3

#endif /* RIFL_CRC_ENGINE_H */

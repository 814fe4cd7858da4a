/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of CrcEngine: against an independent bit-serial reference written
 * here, RIFL's CRC-12 over whole frames, hand-worked and catalogue vectors,
 * and bad input.
 */

#include "ns3/bit-block.h"
#include "ns3/crc-engine.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \brief Independent bit-serial CRC: the register rule documented in crc-engine.h.
 *
 * reg = 0; for each bit b, first to last: fb = reg[width-1] ^ b;
 * reg = (reg << 1) mod 2^width; if fb, reg ^= poly.
 *
 * \param width the width, 1..32.
 * \param poly the generator without x^width.
 * \param bits the message bits in the order they enter the register.
 * \return the register after the last bit.
 */
uint32_t
ReferenceCrc(uint32_t width, uint32_t poly, const std::vector<bool>& bits)
{
    const uint64_t mask = (uint64_t{1} << width) - 1;
    uint64_t reg = 0;
    for (bool b : bits)
    {
        const bool fb = (((reg >> (width - 1)) & 1U) != 0) != b;
        reg = (reg << 1) & mask;
        if (fb)
        {
            reg ^= poly;
        }
    }
    return static_cast<uint32_t>(reg);
}

/**
 * \brief The bits of a byte string, each byte MSB first.
 * \param data the bytes.
 * \return the bits.
 */
std::vector<bool>
BytesToBits(const std::vector<uint8_t>& data)
{
    std::vector<bool> bits;
    for (uint8_t byte : data)
    {
        for (int k = 7; k >= 0; --k)
        {
            bits.push_back(((byte >> k) & 1U) != 0);
        }
    }
    return bits;
}

/**
 * \brief The ASCII check string "123456789" of the CRC catalogues.
 * \return its bytes.
 */
std::vector<uint8_t>
CheckString()
{
    const char* s = "123456789";
    return std::vector<uint8_t>(s, s + std::strlen(s));
}

} // namespace

/**
 * \ingroup rifl-core
 * \brief CrcEngine's three entry points against the bit-serial reference.
 */
class RiflCrcReferenceTestCase : public TestCase
{
  public:
    RiflCrcReferenceTestCase()
        : TestCase("ComputeBytes, ComputeBits, ComputeField equal an independent bit-serial CRC")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 mt(0xC0FFEEU);
        auto rng = [&mt]()
        {
            return static_cast<uint32_t>(mt());
        };
        struct Code
        {
            uint32_t width; //!< width
            uint32_t poly;  //!< generator
        };

        const Code codes[] = {{8, 0x07},    {8, 0x9B},    {12, 0x02F},      {12, 0x80F},
                              {16, 0x1021}, {16, 0x8005}, {32, 0x04C11DB7}, {32, 0x1EDC6F41}};
        for (const Code& c : codes)
        {
            CrcEngine engine(c.width, c.poly);
            NS_TEST_ASSERT_MSG_EQ(engine.GetWidth(), c.width, "GetWidth");
            NS_TEST_ASSERT_MSG_EQ(engine.GetPolynomial(), c.poly, "GetPolynomial");
            for (uint32_t trial = 0; trial < 30; ++trial)
            {
                // Bytes.
                std::vector<uint8_t> data(rng() % 70);
                for (auto& d : data)
                {
                    d = static_cast<uint8_t>(rng());
                }
                const uint32_t refBytes = ReferenceCrc(c.width, c.poly, BytesToBits(data));
                NS_TEST_ASSERT_MSG_EQ(engine.ComputeBytes(data.data(), data.size()), refBytes,
                                      "ComputeBytes, width " << c.width << ", " << data.size()
                                                             << " bytes");
                // Bits (any length, not a byte multiple).
                std::vector<bool> bits(rng() % 300);
                for (std::size_t k = 0; k < bits.size(); ++k)
                {
                    bits[k] = (rng() & 1U) != 0;
                }
                NS_TEST_ASSERT_MSG_EQ(engine.ComputeBits(bits), ReferenceCrc(c.width, c.poly, bits),
                                      "ComputeBits, width " << c.width << ", " << bits.size()
                                                            << " bits");
                // A field [msb:lsb] of a block, bit msb first.
                const uint32_t size = 1 + rng() % BitBlock::MAX_BITS;
                BitBlock block(size);
                for (uint32_t k = 0; k < size; ++k)
                {
                    block.Set(k, (rng() & 1U) != 0);
                }
                uint32_t msb = rng() % size;
                uint32_t lsb = rng() % size;
                if (msb < lsb)
                {
                    std::swap(msb, lsb);
                }
                std::vector<bool> fieldBits;
                for (uint32_t k = msb + 1; k-- > lsb;)
                {
                    fieldBits.push_back(block.Get(k));
                }
                NS_TEST_ASSERT_MSG_EQ(
                    engine.ComputeField(block, msb, lsb), ReferenceCrc(c.width, c.poly, fieldBits),
                    "ComputeField, width " << c.width << ", [" << msb << ":" << lsb << "]");
            }
        }
    }
};

/**
 * \ingroup rifl-core
 * \brief RiflCrc12 equals the reference over all S bits with bits [11:0] as zeros.
 */
class RiflCrcRiflCrc12TestCase : public TestCase
{
  public:
    RiflCrcRiflCrc12TestCase()
        : TestCase("RiflCrc12 = reference CRC-12 0x02F over the frame, [11:0] zeroed")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 mt(1234567U);
        auto rng = [&mt]()
        {
            return static_cast<uint32_t>(mt());
        };
        CrcEngine engine(12, 0x02F);
        for (uint32_t size : {128U, 256U, 512U, 1024U})
        {
            for (uint32_t trial = 0; trial < 25; ++trial)
            {
                BitBlock frame(size);
                for (uint32_t k = 0; k < size; ++k)
                {
                    frame.Set(k, (rng() & 1U) != 0);
                }
                std::vector<bool> bits;
                for (uint32_t k = size; k-- > 0;)
                {
                    bits.push_back(k >= 12 && frame.Get(k));
                }
                const uint32_t ref = ReferenceCrc(12, 0x02F, bits);
                const uint16_t got = CrcEngine::RiflCrc12(frame);
                NS_TEST_ASSERT_MSG_EQ(uint32_t{got}, ref, "RiflCrc12, S = " << size);
                // The field's content is ignored.
                BitBlock other = frame;
                other.SetField(11, 0, rng() & 0xFFFU);
                NS_TEST_ASSERT_MSG_EQ(CrcEngine::RiflCrc12(other), got,
                                      "bits [11:0] do not matter, S = " << size);
                // Same as the general engine on the frame with the field cleared.
                other.SetField(11, 0, 0);
                NS_TEST_ASSERT_MSG_EQ(engine.ComputeField(other, size - 1, 0), ref,
                                      "ComputeField with [11:0] = 0, S = " << size);
                // And a single flipped payload bit changes it (distance >= 2).
                other.Flip(12 + rng() % (size - 12));
                NS_TEST_ASSERT_MSG_NE(CrcEngine::RiflCrc12(other), got,
                                      "a single-bit error is detected, S = " << size);
            }
        }
    }
};

/**
 * \ingroup rifl-core
 * \brief Vectors worked out by hand, and catalogue check values.
 *
 * With the register rule of crc-engine.h (no augmentation, init 0), the CRC
 * of an m-bit message M(x) is M(x) x^width mod g(x).
 *
 * CRC-12, g = x^12+x^5+x^3+x^2+x+1 (0x02F):
 * - message "1" (one bit): x^12 mod g = x^5+x^3+x^2+x+1 = 0x02F. Register:
 *   fb = 0 ^ 1 = 1, reg = 0 << 1 = 0, reg ^= 0x02F -> 0x02F.
 * - message byte 0x80 (a 1 then seven 0s): x^19 mod g. Long division:
 *   x^19 = x^7 * x^12 = x^7 (x^5+x^3+x^2+x+1) = x^12 + x^10+x^9+x^8+x^7;
 *   the x^12 reduces once more to x^5+x^3+x^2+x+1, so
 *   x^19 mod g = x^10+x^9+x^8+x^7+x^5+x^3+x^2+x+1 = 0x780 | 0x02F = 0x7AF.
 *   Register after the 1: 0x02F; each 0 shifts (and XORs 0x02F when bit 11
 *   falls out): 0x05E, 0x0BC, 0x178, 0x2F0, 0x5E0, 0xBC0, then bit 11 is set:
 *   0x780 ^ 0x02F = 0x7AF.
 * - bytes 0x80 0x00: eight more 0s from 0x7AF: 0xF5E; 0xEBC^0x02F = 0xE93;
 *   0xD26^0x02F = 0xD09; 0xA12^0x02F = 0xA3D; 0x47A^0x02F = 0x455; 0x8AA;
 *   0x154^0x02F = 0x17B; 0x2F6. So CRC = 0x2F6 (= x^27 mod g).
 *
 * CRC-8, g = x^8+x^2+x+1 (0x07):
 * - byte 0x01: x^8 mod g = x^2+x+1 = 0x07 (seven 0s leave the register at 0,
 *   the final 1 gives fb = 1, reg = 0 ^ 0x07).
 * - byte 0x80: x^15 mod g: after the 1: 0x07, then 0x0E, 0x1C, 0x38, 0x70,
 *   0xE0, 0x1C0 -> 0xC0^0x07 = 0xC7, 0x18E -> 0x8E^0x07 = 0x89.
 *   Check: x^15 = x^7 x^8 = x^9+x^8+x^7 = x(x^8) + x^8 + x^7
 *   = (x^3+x^2+x) + (x^2+x+1) + x^7 = x^7+x^3+1 = 0x89.
 *
 * Catalogue check values of "123456789" (init 0, no reflection, no final
 * XOR): CRC-8 0x07 = 0xF4 (CRC-8/SMBUS), CRC-12 0x80F = 0xF5B (CRC-12/DECT),
 * CRC-16 0x1021 = 0x31C3 (CRC-16/XMODEM), CRC-32 0x04C11DB7 = 0x89A1897F
 * (CRC-32/CKSUM = 0x765E7680 without its final XOR with 0xFFFFFFFF); and the
 * Ethernet FCS (reflected, init/final XOR all ones) = 0xCBF43926.
 */
class RiflCrcKnownVectorsTestCase : public TestCase
{
  public:
    RiflCrcKnownVectorsTestCase()
        : TestCase("hand-worked vectors and catalogue check values")
    {
    }

  private:
    void DoRun() override
    {
        CrcEngine crc12(12, 0x02F);
        NS_TEST_ASSERT_MSG_EQ(crc12.ComputeBits({true}), 0x02FU, "CRC-12 of a single 1 bit");
        const uint8_t m80[2] = {0x80, 0x00};
        NS_TEST_ASSERT_MSG_EQ(crc12.ComputeBytes(m80, 1), 0x7AFU, "CRC-12 of 0x80 = x^19 mod g");
        NS_TEST_ASSERT_MSG_EQ(crc12.ComputeBytes(m80, 2), 0x2F6U, "CRC-12 of 0x80 0x00");
        std::vector<bool> oneThenZeros(8, false);
        oneThenZeros[0] = true;
        NS_TEST_ASSERT_MSG_EQ(crc12.ComputeBits(oneThenZeros), 0x7AFU, "bits 1 0000000");

        CrcEngine crc8(8, 0x07);
        const uint8_t one = 0x01;
        NS_TEST_ASSERT_MSG_EQ(crc8.ComputeBytes(&one, 1), 0x07U, "CRC-8 of 0x01");
        NS_TEST_ASSERT_MSG_EQ(crc8.ComputeBytes(m80, 1), 0x89U, "CRC-8 of 0x80");
        NS_TEST_ASSERT_MSG_EQ(crc8.ComputeBytes(m80, 0), 0x00U, "CRC of the empty message");

        const std::vector<uint8_t> check = CheckString();
        NS_TEST_ASSERT_MSG_EQ(crc8.ComputeBytes(check.data(), check.size()), 0xF4U,
                              "CRC-8/SMBUS check");
        NS_TEST_ASSERT_MSG_EQ(CrcEngine(12, 0x80F).ComputeBytes(check.data(), check.size()), 0xF5BU,
                              "CRC-12/DECT check");
        NS_TEST_ASSERT_MSG_EQ(CrcEngine(16, 0x1021).ComputeBytes(check.data(), check.size()),
                              0x31C3U, "CRC-16/XMODEM check");
        NS_TEST_ASSERT_MSG_EQ(CrcEngine(32, 0x04C11DB7).ComputeBytes(check.data(), check.size()),
                              0x89A1897FU, "CRC-32 0x04C11DB7, init 0, no final XOR");
        NS_TEST_ASSERT_MSG_EQ(CrcEngine::EthernetCrc32(check.data(), check.size()), 0xCBF43926U,
                              "Ethernet CRC-32 check");
        // The reference agrees with the hand-worked values too.
        NS_TEST_ASSERT_MSG_EQ(ReferenceCrc(12, 0x02F, BytesToBits({0x80, 0x00})), 0x2F6U,
                              "reference, CRC-12 of 0x80 0x00");
        NS_TEST_ASSERT_MSG_EQ(ReferenceCrc(8, 0x07, BytesToBits(check)), 0xF4U,
                              "reference, CRC-8 check");
    }
};

/**
 * \ingroup rifl-core
 * \brief Bad input throws, and the message names the parameter and value.
 */
class RiflCrcBadInputTestCase : public TestCase
{
  public:
    RiflCrcBadInputTestCase()
        : TestCase("bad input: exceptions name the parameter")
    {
    }

  private:
    /**
     * \brief Run \p f; check it throws \p E whose message holds \p needle.
     * \param f the call.
     * \param needle the text the message must contain.
     */
    template <class E, class F> void Expect(F f, const std::string& needle)
    {
        bool thrown = false;
        std::string msg;
        try
        {
            f();
        }
        catch (const E& e)
        {
            thrown = true;
            msg = e.what();
        }
        NS_TEST_ASSERT_MSG_EQ(thrown, true, "exception expected for " << needle);
        NS_TEST_ASSERT_MSG_NE(msg.find(needle), std::string::npos,
                              "message '" << msg << "' names '" << needle << "'");
    }

    void DoRun() override
    {
        using Inv = std::invalid_argument;
        Expect<Inv>(
            []
            {
                CrcEngine(0, 1);
            },
            "width = 0");
        Expect<Inv>(
            []
            {
                CrcEngine(33, 1);
            },
            "width = 33");
        Expect<Inv>(
            []
            {
                CrcEngine(8, 0x107);
            },
            "poly = 0x107");
        Expect<Inv>(
            []
            {
                CrcEngine(12, 0x1000);
            },
            "poly = 0x1000");
        Expect<Inv>(
            []
            {
                CrcEngine(8, 0x06);
            },
            "poly = 0x6");
        Expect<Inv>(
            []
            {
                CrcEngine(32, 0x04C11DB6);
            },
            "poly = 0x4c11db6");
        Expect<Inv>(
            []
            {
                CrcEngine::RiflCrc12(BitBlock(200));
            },
            "frame size 200");
        Expect<Inv>(
            []
            {
                CrcEngine::RiflCrc12(BitBlock(0));
            },
            "frame size 0");
        CrcEngine crc(8, 0x07);
        BitBlock block(16);
        Expect<std::out_of_range>(
            [&]
            {
                crc.ComputeField(block, 3, 5);
            },
            "[3:5]");
        Expect<std::out_of_range>(
            [&]
            {
                crc.ComputeField(block, 16, 0);
            },
            "[16:0]");
        // Valid extremes do not throw.
        bool ok = true;
        try
        {
            CrcEngine(1, 1);
            CrcEngine(32, 0xFFFFFFFF);
        }
        catch (const std::exception&)
        {
            ok = false;
        }
        NS_TEST_ASSERT_MSG_EQ(ok, true, "widths 1 and 32 are valid");
    }
};

/**
 * \ingroup rifl-core
 * \brief The rifl-crc test suite.
 */
class RiflCrcTestSuite : public TestSuite
{
  public:
    RiflCrcTestSuite()
        : TestSuite("rifl-crc", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflCrcReferenceTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflCrcRiflCrc12TestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflCrcKnownVectorsTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflCrcBadInputTestCase, RIFL_TEST_QUICK);
    }
};

/// The suite's static instance.
static RiflCrcTestSuite g_riflCrcTestSuite;

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/direct-link-flit.h"
#include "ns3/rifl-compat.h"
#include "ns3/test.h"
#include "ns3/weight-spectrum.h"

#include <boost/math/distributions/binomial.hpp>

#include <cstdint>
#include <iostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup rifl-core
 * \brief Tests of DirectLinkFlit: codec, CRCs, error detection, routing word,
 *        segmentation and syndrome maps.
 */

using namespace ns3;

namespace
{

using Flit = DirectLinkFlit;
using Status = DirectLinkFlit::DecodeStatus;
using Type = DirectLinkFlit::PktType;

/// Significance of every statistical test (probability a correct code fails it).
constexpr double ALPHA = 1e-6;

/**
 * \brief Independent bit-serial CRC-8 (no Boost, no CrcEngine).
 * \param block the flit.
 * \param interleave 0 = even bits 174..0, 1 = odd bits 175..1.
 * \param poly generator (normal notation).
 * \return the CRC register.
 */
uint32_t
RefCrc8(const BitBlock& block, uint32_t interleave, uint32_t poly)
{
    uint32_t reg = 0;
    for (int pos = 174 + static_cast<int>(interleave); pos >= 0; pos -= 2)
    {
        const uint32_t b = block.Get(static_cast<uint32_t>(pos)) ? 1 : 0;
        const uint32_t fb = ((reg >> 7) & 1U) ^ b;
        reg = (reg << 1) & 0xFFU;
        if (fb)
        {
            reg ^= poly;
        }
    }
    return reg;
}

/**
 * \brief Random valid fields of any non-reserved type (fixed fields as the builders set them).
 * \param rng the generator.
 * \return the fields.
 */
Flit::Fields
RandomFields(std::mt19937_64& rng)
{
    std::uniform_int_distribution<uint32_t> seq(0, 31);
    std::uniform_int_distribution<uint32_t> crdt(0, 15);
    std::uniform_int_distribution<uint32_t> vc(0, 3);
    std::uniform_int_distribution<uint32_t> byte(0, 255);
    std::uniform_int_distribution<uint32_t> type(1, 5);
    std::bernoulli_distribution coin(0.5);
    switch (type(rng))
    {
        case 1:
            return Flit::MakeInit();
        case 2:
            return Flit::MakeInitAck();
        case 3:
            return Flit::MakeNull(seq(rng));
        case 5:
            return Flit::MakeCredit(seq(rng), seq(rng), crdt(rng));
        default:
        {
            std::array<uint8_t, Flit::DATA_BYTES> d{};
            for (auto& x : d)
            {
                x = static_cast<uint8_t>(byte(rng));
            }
            return Flit::MakeData(seq(rng), seq(rng), crdt(rng), vc(rng), coin(rng), coin(rng), d,
                                  coin(rng), coin(rng));
        }
    }
}

/**
 * \brief A uniformly random 192-bit block.
 * \param rng the generator.
 * \return the block.
 */
BitBlock
RandomBlock(std::mt19937_64& rng)
{
    BitBlock b(192);
    b.SetField(63, 0, rng());
    b.SetField(127, 64, rng());
    b.SetField(191, 128, rng());
    return b;
}

/**
 * \brief Whether p lies in the two-sided Clopper-Pearson interval of k successes in n.
 * \param k successes.
 * \param n trials.
 * \param p the probability to test.
 * \param lo the lower bound (output).
 * \param hi the upper bound (output).
 * \return true if lo <= p <= hi.
 */
bool
InClopperPearson(uint64_t k, uint64_t n, double p, double& lo, double& hi)
{
    using boost::math::binomial_distribution;
    lo = binomial_distribution<>::find_lower_bound_on_p(double(n), double(k), ALPHA / 2);
    hi = binomial_distribution<>::find_upper_bound_on_p(double(n), double(k), ALPHA / 2);
    return lo <= p && p <= hi;
}

/**
 * \brief Run a callable that must throw E with a message containing \p needle.
 * \tparam E the exception type.
 * \tparam F the callable type.
 * \param f the callable.
 * \param needle text the message must contain.
 * \return an empty string on success, otherwise a description of the failure.
 */
template <typename E, typename F>
std::string
ExpectThrow(F f, const std::string& needle)
{
    try
    {
        f();
    }
    catch (const E& e)
    {
        const std::string msg = e.what();
        return msg.find(needle) != std::string::npos ? ""
                                                     : "message lacks '" + needle + "': " + msg;
    }
    catch (const std::exception& e)
    {
        return std::string("wrong exception type: ") + e.what();
    }
    return "no exception (expected one naming '" + needle + "')";
}

/// Round trips of every type and random fields; exact line positions.
class FlitRoundTripTest : public TestCase
{
  public:
    FlitRoundTripTest()
        : TestCase("encode-decode round trips, field positions on the line")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(12345);
        for (int i = 0; i < 5000; ++i)
        {
            const Flit::Fields f = RandomFields(rng);
            const BitBlock b = Flit::Encode(f);
            NS_TEST_ASSERT_MSG_EQ(b.GetSize(), 192U, "size");
            const Flit::DecodeResult r = Flit::Decode(b);
            NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(r.status), "OK", "valid flit " << b.ToHex());
            NS_TEST_ASSERT_MSG_EQ(r.IsOk(), true, "IsOk");
            NS_TEST_ASSERT_MSG_EQ((r.fields == f), true, "fields round trip " << b.ToHex());
            // Line positions, read back independently.
            NS_TEST_ASSERT_MSG_EQ(b.GetField(7, 0), 0xAAU, "Frame byte");
            NS_TEST_ASSERT_MSG_EQ(b.GetField(12, 8), f.askNo, "AskNo");
            NS_TEST_ASSERT_MSG_EQ(b.GetField(17, 13), f.sndNo, "SndNo");
            NS_TEST_ASSERT_MSG_EQ(b.GetField(21, 18), f.crdt, "Crdt");
            NS_TEST_ASSERT_MSG_EQ(b.GetField(23, 22), f.vc, "VC");
            NS_TEST_ASSERT_MSG_EQ(b.Get(24), f.tail, "Tail");
            NS_TEST_ASSERT_MSG_EQ(b.Get(25), f.header, "Header");
            NS_TEST_ASSERT_MSG_EQ(b.GetField(29, 26), uint64_t(f.type), "PktType");
            NS_TEST_ASSERT_MSG_EQ(b.Get(30), f.ncErr, "NcErr");
            NS_TEST_ASSERT_MSG_EQ(b.Get(31), f.netErr, "NetErr");
            for (uint32_t k = 0; k < 18; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(b.GetField(32 + 8 * k + 7, 32 + 8 * k), f.data[k],
                                      "data byte " << k);
            }
        }
        // Arbitrary raw field values (any type, any fixed fields) decode back exactly.
        std::uniform_int_distribution<uint32_t> u(0, 1U << 30);
        for (int i = 0; i < 2000; ++i)
        {
            Flit::Fields f;
            f.askNo = u(rng) % 32;
            f.sndNo = u(rng) % 32;
            f.crdt = u(rng) % 16;
            f.vc = u(rng) % 4;
            f.tail = u(rng) % 2;
            f.header = u(rng) % 2;
            f.type = static_cast<Type>(u(rng) % 16);
            f.ncErr = u(rng) % 2;
            f.netErr = u(rng) % 2;
            for (auto& x : f.data)
            {
                x = static_cast<uint8_t>(u(rng));
            }
            const Flit::DecodeResult r = Flit::Decode(Flit::Encode(f));
            NS_TEST_ASSERT_MSG_EQ(r.ChecksPassed(), true, "checks pass");
            NS_TEST_ASSERT_MSG_EQ((r.fields == f), true, "raw round trip");
            Status want = Status::OK;
            if (Flit::IsReservedType(f.type))
            {
                want = Status::RESERVED_TYPE;
            }
            else if (!Flit::HasConsistentFixedFields(f))
            {
                want = Status::INCONSISTENT_FIELDS;
            }
            NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(r.status), Flit::StatusName(want), "status");
        }
        // A non-default polynomial round-trips, and is rejected by the default decoder.
        const Flit::Fields c = Flit::MakeCredit(7, 9, 0xA);
        const BitBlock b31 = Flit::Encode(c, 0x31);
        NS_TEST_ASSERT_MSG_EQ(Flit::Decode(b31, 0x31).IsOk(), true, "poly 0x31");
        NS_TEST_ASSERT_MSG_EQ(Flit::Decode(b31).IsOk(), false, "poly mismatch detected");
    }
};

/// The builders' fixed fields and the INCONSISTENT_FIELDS / RESERVED_TYPE statuses.
class FlitBuilderTest : public TestCase
{
  public:
    FlitBuilderTest()
        : TestCase("builders' fixed fields, reserved types, inconsistent fields")
    {
    }

  private:
    void DoRun() override
    {
        for (const Flit::Fields& f : {Flit::MakeInit(), Flit::MakeInitAck()})
        {
            NS_TEST_ASSERT_MSG_EQ(f.sndNo, 0xFU, "SeqNo");
            NS_TEST_ASSERT_MSG_EQ(f.askNo, 0xFU, "AskNo");
            NS_TEST_ASSERT_MSG_EQ(f.vc, 0U, "VC");
            NS_TEST_ASSERT_MSG_EQ(f.crdt, 0U, "Crdt");
            NS_TEST_ASSERT_MSG_EQ(f.tail, true, "Tail");
            NS_TEST_ASSERT_MSG_EQ(f.header, true, "Header");
            NS_TEST_ASSERT_MSG_EQ(f.ncErr, false, "NcErr");
            NS_TEST_ASSERT_MSG_EQ(f.netErr, false, "NetErr");
            NS_TEST_ASSERT_MSG_EQ(f.frame, 0xAAU, "Frame");
        }
        NS_TEST_ASSERT_MSG_EQ(uint32_t(Flit::MakeInit().type), 1U, "Init type");
        NS_TEST_ASSERT_MSG_EQ(uint32_t(Flit::MakeInitAck().type), 2U, "Init-Ack type");
        const BitBlock init = Flit::Encode(Flit::MakeInit());
        // [29:26]=0001, [25]=1, [24]=1, [23:8]: VC 0, Crdt 0, SndNo 0xF, AskNo 0xF, Frame AA.
        NS_TEST_ASSERT_MSG_EQ(init.GetField(31, 0), 0x0701EFAAU, "Init low word");

        const Flit::Fields n = Flit::MakeNull(17);
        NS_TEST_ASSERT_MSG_EQ(uint32_t(n.type), 3U, "Null type");
        NS_TEST_ASSERT_MSG_EQ(n.sndNo, 0x1FU, "Null SndNo");
        NS_TEST_ASSERT_MSG_EQ(n.askNo, 17U, "Null AskNo");
        NS_TEST_ASSERT_MSG_EQ((n.vc + n.crdt + n.ncErr + n.netErr), 0U, "Null zero fields");
        NS_TEST_ASSERT_MSG_EQ((n.tail && n.header), true, "Null Tail/Header");

        const Flit::Fields c = Flit::MakeCredit(3, 30, 0x9);
        NS_TEST_ASSERT_MSG_EQ(uint32_t(c.type), 5U, "Credit type");
        NS_TEST_ASSERT_MSG_EQ(c.sndNo, 3U, "Credit SndNo");
        NS_TEST_ASSERT_MSG_EQ(c.askNo, 30U, "Credit AskNo");
        NS_TEST_ASSERT_MSG_EQ(c.crdt, 9U, "Credit Crdt");
        NS_TEST_ASSERT_MSG_EQ((c.vc + c.ncErr + c.netErr), 0U, "Credit zero fields");
        NS_TEST_ASSERT_MSG_EQ((c.tail && c.header), true, "Credit Tail/Header");

        std::array<uint8_t, 18> d{};
        d[0] = 0x5A;
        d[17] = 0xC3;
        const Flit::Fields da = Flit::MakeData(29, 4, 0x6, 2, true, false, d, true, false);
        NS_TEST_ASSERT_MSG_EQ(uint32_t(da.type), 4U, "Data type");
        NS_TEST_ASSERT_MSG_EQ(da.sndNo, 29U, "Data SndNo");
        NS_TEST_ASSERT_MSG_EQ(da.askNo, 4U, "Data AskNo");
        NS_TEST_ASSERT_MSG_EQ(da.crdt, 6U, "Data Crdt");
        NS_TEST_ASSERT_MSG_EQ(da.vc, 2U, "Data VC");
        NS_TEST_ASSERT_MSG_EQ((da.header && !da.tail && da.ncErr && !da.netErr), true, "flags");
        const BitBlock db = Flit::Encode(da);
        NS_TEST_ASSERT_MSG_EQ(db.GetField(39, 32), 0x5AU, "Data[7:0] at line [39:32]");
        NS_TEST_ASSERT_MSG_EQ(db.GetField(175, 168), 0xC3U, "Data[143:136] at line [175:168]");

        // Each fixed field altered -> INCONSISTENT_FIELDS; checks still pass.
        for (const Flit::Fields& base :
             {Flit::MakeInit(), Flit::MakeInitAck(), Flit::MakeNull(5), Flit::MakeCredit(1, 2, 3)})
        {
            NS_TEST_ASSERT_MSG_EQ(Flit::Decode(Flit::Encode(base)).IsOk(), true, "base OK");
            std::vector<Flit::Fields> bad(7, base);
            bad[0].vc = 1;
            bad[1].tail = false;
            bad[2].header = false;
            bad[3].ncErr = true;
            bad[4].netErr = true;
            bad[5].crdt = (base.type == Type::CREDIT) ? base.crdt : 1; // Credit's Crdt is free
            bad[6].sndNo = (base.type == Type::CREDIT) ? base.sndNo : 0;
            for (std::size_t i = 0; i < bad.size(); ++i)
            {
                const bool shouldFail = !(base.type == Type::CREDIT && i >= 5);
                const Flit::DecodeResult r = Flit::Decode(Flit::Encode(bad[i]));
                NS_TEST_ASSERT_MSG_EQ(r.ChecksPassed(), true, "checks pass");
                NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(r.status),
                                      std::string(shouldFail ? "INCONSISTENT_FIELDS" : "OK"),
                                      Flit::TypeName(base.type) << " variant " << i);
                NS_TEST_ASSERT_MSG_EQ((r.fields == bad[i]), true, "fields still decoded");
            }
        }
        Flit::Fields initAsk = Flit::MakeInit();
        initAsk.askNo = 3;
        NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(Flit::Decode(Flit::Encode(initAsk)).status),
                              "INCONSISTENT_FIELDS", "Init AskNo != 0xF");
        // Data micro-packets have no fixed fields.
        NS_TEST_ASSERT_MSG_EQ(Flit::Decode(db).IsOk(), true, "Data OK");

        // Reserved types.
        for (uint32_t t : {0U, 6U, 7U, 8U, 9U, 10U, 11U, 12U, 13U, 14U, 15U})
        {
            Flit::Fields f = Flit::MakeCredit(1, 1, 1);
            f.type = static_cast<Type>(t);
            NS_TEST_ASSERT_MSG_EQ(Flit::IsReservedType(f.type), true, "reserved " << t);
            const Flit::DecodeResult r = Flit::Decode(Flit::Encode(f));
            NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(r.status), "RESERVED_TYPE", "type " << t);
            NS_TEST_ASSERT_MSG_EQ(uint32_t(r.fields.type), t, "type value kept");
        }
        for (uint32_t t = 1; t <= 5; ++t)
        {
            NS_TEST_ASSERT_MSG_EQ(Flit::IsReservedType(static_cast<Type>(t)), false, "type " << t);
        }
        // A wrong Frame byte with valid CRCs is rejected as BAD_FRAME_BYTE.
        Flit::Fields wrongFrame = Flit::MakeNull(0);
        wrongFrame.frame = 0xAB;
        const Flit::DecodeResult wf = Flit::Decode(Flit::Encode(wrongFrame));
        NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(wf.status), "BAD_FRAME_BYTE", "frame");
        NS_TEST_ASSERT_MSG_EQ((wf.evenCrcOk && wf.oddCrcOk), true, "CRCs still pass");
    }
};

/// CRC80 / CRC81 against the independent bit-serial reference.
class FlitCrcReferenceTest : public TestCase
{
  public:
    FlitCrcReferenceTest()
        : TestCase("CRC80 and CRC81 against an independent bit-serial CRC-8")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(777);
        for (uint32_t poly : {0x07U, 0x31U, 0x9BU, 0x2FU})
        {
            for (int i = 0; i < 500; ++i)
            {
                const BitBlock b = Flit::Encode(RandomFields(rng), poly);
                NS_TEST_ASSERT_MSG_EQ(b.GetField(183, 176), RefCrc8(b, 0, poly), "CRC80");
                NS_TEST_ASSERT_MSG_EQ(b.GetField(191, 184), RefCrc8(b, 1, poly), "CRC81");
                const BitBlock g = RandomBlock(rng);
                NS_TEST_ASSERT_MSG_EQ(Flit::ComputeCrc(g, 0, poly), RefCrc8(g, 0, poly), "even");
                NS_TEST_ASSERT_MSG_EQ(Flit::ComputeCrc(g, 1, poly), RefCrc8(g, 1, poly), "odd");
                NS_TEST_ASSERT_MSG_EQ(Flit::InterleaveCheck(g, 0, poly),
                                      (RefCrc8(g, 0, poly) ^ uint32_t(g.GetField(183, 176))),
                                      "even check");
            }
        }
        // Known answer: only line bit 0 set -> even CRC = x^8 mod g = poly; odd CRC = 0.
        BitBlock one(192);
        one.Set(0, true);
        NS_TEST_ASSERT_MSG_EQ(Flit::ComputeCrc(one, 0), 0x07U, "x^8 mod g");
        NS_TEST_ASSERT_MSG_EQ(Flit::ComputeCrc(one, 1), 0U, "odd unaffected");
        // Only line bit 175 set -> odd CRC = x^95 mod g, equal to the reference.
        BitBlock top(192);
        top.Set(175, true);
        NS_TEST_ASSERT_MSG_EQ(Flit::ComputeCrc(top, 1), RefCrc8(top, 1, 0x07), "x^95 mod g");
        NS_TEST_ASSERT_MSG_EQ(Flit::ComputeCrc(top, 0), 0U, "even unaffected");
    }
};

/// Every 1-bit and every 2-bit error detected (exhaustive).
class FlitLowWeightDetectionTest : public TestCase
{
  public:
    FlitLowWeightDetectionTest()
        : TestCase("every 1-bit and 2-bit error is detected (exhaustive)")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(4242);
        const Flit::Fields f = RandomFields(rng);
        const BitBlock base = Flit::Encode(f);
        for (uint32_t i = 0; i < 192; ++i)
        {
            BitBlock b = base;
            b.Flip(i);
            const Flit::DecodeResult r = Flit::Decode(b);
            NS_TEST_ASSERT_MSG_EQ(r.ChecksPassed(), false, "1-bit error at " << i);
            const Status want = i < 8 ? Status::BAD_FRAME_BYTE
                                : (i < 176)
                                    ? ((i % 2) ? Status::CRC_ODD_FAILED : Status::CRC_EVEN_FAILED)
                                : (i < 184) ? Status::CRC_EVEN_FAILED
                                            : Status::CRC_ODD_FAILED;
            NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(r.status), Flit::StatusName(want), "bit " << i);
        }
        // Every pair inside one interleave, and (for completeness) every pair of the flit.
        uint64_t pairsInOne = 0;
        for (uint32_t k = 0; k < 2; ++k)
        {
            const std::vector<uint32_t> pos = Flit::InterleavePositions(k);
            for (std::size_t a = 0; a < pos.size(); ++a)
            {
                for (std::size_t c = a + 1; c < pos.size(); ++c)
                {
                    BitBlock b = base;
                    b.Flip(pos[a]);
                    b.Flip(pos[c]);
                    NS_TEST_ASSERT_MSG_NE(Flit::InterleaveCheck(b, k), 0U, "2-bit in one");
                    NS_TEST_ASSERT_MSG_EQ(Flit::Decode(b).ChecksPassed(), false,
                                          "2-bit error " << pos[a] << "," << pos[c]);
                    ++pairsInOne;
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(pairsInOne, 2U * 96 * 95 / 2, "pairs enumerated");
        for (uint32_t a = 0; a < 192; ++a)
        {
            for (uint32_t c = a + 1; c < 192; ++c)
            {
                BitBlock b = base;
                b.Flip(a);
                b.Flip(c);
                NS_TEST_ASSERT_MSG_EQ(Flit::Decode(b).ChecksPassed(), false, a << "," << c);
            }
        }
    }
};

/// Random garbage is classified without crash with the expected pass fractions.
class FlitGarbageTest : public TestCase
{
  public:
    FlitGarbageTest()
        : TestCase("1e5 random blocks: Frame byte ~2^-8, both CRCs ~2^-16")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(2024);
        const uint64_t n = 100000;
        uint64_t frameOk = 0;
        uint64_t evenOk = 0;
        uint64_t oddOk = 0;
        uint64_t bothOk = 0;
        uint64_t bothOkAmongFrame = 0;
        for (uint64_t i = 0; i < n; ++i)
        {
            const BitBlock b = RandomBlock(rng);
            Flit::DecodeResult r;
            try
            {
                r = Flit::Decode(b);
            }
            catch (const std::exception& e)
            {
                NS_TEST_ASSERT_MSG_EQ(true, false, "Decode threw " << e.what());
            }
            // Status consistent with the flags.
            Status want;
            if (!r.frameOk)
            {
                want = Status::BAD_FRAME_BYTE;
            }
            else if (!r.evenCrcOk || !r.oddCrcOk)
            {
                want = !r.evenCrcOk && !r.oddCrcOk ? Status::CRC_BOTH_FAILED
                       : !r.evenCrcOk              ? Status::CRC_EVEN_FAILED
                                                   : Status::CRC_ODD_FAILED;
            }
            else if (Flit::IsReservedType(r.fields.type))
            {
                want = Status::RESERVED_TYPE;
            }
            else
            {
                want = Flit::HasConsistentFixedFields(r.fields) ? Status::OK
                                                                : Status::INCONSISTENT_FIELDS;
            }
            NS_TEST_ASSERT_MSG_EQ(Flit::StatusName(r.status), Flit::StatusName(want), "status");
            NS_TEST_ASSERT_MSG_EQ(r.frameOk, (b.GetField(7, 0) == 0xAA), "frameOk");
            frameOk += r.frameOk;
            evenOk += r.evenCrcOk;
            oddOk += r.oddCrcOk;
            bothOk += r.evenCrcOk && r.oddCrcOk;
            bothOkAmongFrame += r.frameOk && r.evenCrcOk && r.oddCrcOk;
        }
        double lo;
        double hi;
        NS_TEST_EXPECT_MSG_EQ(InClopperPearson(frameOk, n, 1.0 / 256, lo, hi), true,
                              "Frame byte fraction " << frameOk << "/" << n << " CI [" << lo << ","
                                                     << hi << "]");
        NS_TEST_EXPECT_MSG_EQ(InClopperPearson(evenOk, n, 1.0 / 256, lo, hi), true,
                              "CRC80 pass fraction " << evenOk << "/" << n);
        NS_TEST_EXPECT_MSG_EQ(InClopperPearson(oddOk, n, 1.0 / 256, lo, hi), true,
                              "CRC81 pass fraction " << oddOk << "/" << n);
        NS_TEST_EXPECT_MSG_EQ(InClopperPearson(bothOk, n, 1.0 / 65536, lo, hi), true,
                              "both-CRC pass fraction " << bothOk << "/" << n);
        NS_TEST_EXPECT_MSG_EQ(
            InClopperPearson(bothOkAmongFrame, frameOk, 1.0 / 65536, lo, hi), true,
            "both-CRC pass among valid Frame bytes " << bothOkAmongFrame << "/" << frameOk);
        // Garbage with a forced valid Frame byte: both CRCs pass with probability 2^-16.
        uint64_t forcedPass = 0;
        for (uint64_t i = 0; i < n; ++i)
        {
            BitBlock b = RandomBlock(rng);
            b.SetField(7, 0, 0xAA);
            forcedPass += Flit::Decode(b).ChecksPassed();
        }
        NS_TEST_EXPECT_MSG_EQ(InClopperPearson(forcedPass, n, 1.0 / 65536, lo, hi), true,
                              "forced-frame CRC pass " << forcedPass << "/" << n);
    }
};

/// Routing word layout and message segmentation / reassembly.
class FlitMessageTest : public TestCase
{
  public:
    FlitMessageTest()
        : TestCase("routing word round trip, message cut and reassembly 0..4096 bytes")
    {
    }

  private:
    void DoRun() override
    {
        Flit::RoutingInfo r;
        r.dstCpu = 0x12;
        r.srcCpu = 0x34;
        r.msgClass = 0x5;
        r.length = 0xABCD;
        NS_TEST_ASSERT_MSG_EQ(Flit::EncodeRoutingWord(r), 0xABCD53412ULL, "known routing word");
        NS_TEST_ASSERT_MSG_EQ((Flit::DecodeRoutingWord(0xABCD53412ULL) == r), true, "decode");
        NS_TEST_ASSERT_MSG_EQ(Flit::RoutingWordReservedClear(0xABCD53412ULL), true, "clear");
        NS_TEST_ASSERT_MSG_EQ(Flit::RoutingWordReservedClear(1ULL << 36), false, "reserved");
        std::mt19937_64 rng(99);
        for (int i = 0; i < 1000; ++i)
        {
            Flit::RoutingInfo x;
            x.dstCpu = rng() % 256;
            x.srcCpu = rng() % 256;
            x.msgClass = rng() % 16;
            x.length = rng() % 65536;
            const uint64_t w = Flit::EncodeRoutingWord(x);
            NS_TEST_ASSERT_MSG_EQ((Flit::DecodeRoutingWord(w) == x), true, "round trip");
            NS_TEST_ASSERT_MSG_EQ(Flit::RoutingWordReservedClear(w), true, "reserved zero");
            Flit::Fields f = Flit::MakeData(0, 0, 0, 0, true, true, {});
            Flit::SetRoutingWord(f, w);
            NS_TEST_ASSERT_MSG_EQ(Flit::GetRoutingWord(f), w, "fields");
            NS_TEST_ASSERT_MSG_EQ(Flit::Encode(f).GetField(95, 32), w, "line bits [95:32]");
        }

        NS_TEST_ASSERT_MSG_EQ(Flit::PayloadBits(false), 144U, "payload bits");
        NS_TEST_ASSERT_MSG_EQ(Flit::PayloadBits(true), 80U, "header payload bits");
        NS_TEST_ASSERT_MSG_EQ(Flit::PayloadBytes(true), 10U, "header payload bytes");
        NS_TEST_ASSERT_MSG_EQ(Flit::NumMicroPackets(0), 1U, "0 B");
        NS_TEST_ASSERT_MSG_EQ(Flit::NumMicroPackets(10), 1U, "10 B");
        NS_TEST_ASSERT_MSG_EQ(Flit::NumMicroPackets(11), 2U, "11 B");
        NS_TEST_ASSERT_MSG_EQ(Flit::NumMicroPackets(28), 2U, "28 B");
        NS_TEST_ASSERT_MSG_EQ(Flit::NumMicroPackets(29), 3U, "29 B");
        NS_TEST_ASSERT_MSG_EQ(Flit::NumMicroPackets(65535), 3642U, "65535 B");

        for (uint32_t size = 0; size <= 4096; ++size)
        {
            std::vector<uint8_t> msg(size);
            for (auto& x : msg)
            {
                x = static_cast<uint8_t>(rng());
            }
            const uint32_t dst = size % 256;
            const uint32_t src = (size * 7) % 256;
            const uint32_t cls = size % 16;
            const uint32_t vc = size % 4;
            const std::vector<Flit::Fields> flits = Flit::Segment(dst, src, cls, vc, msg);
            // Independent count: ceil((size + 8) / 18), at least 1.
            const uint32_t want = size == 0 ? 1 : (size + 8 + 17) / 18;
            NS_TEST_ASSERT_MSG_EQ(flits.size(), want, "flit count for " << size);
            NS_TEST_ASSERT_MSG_EQ(Flit::NumMicroPackets(size), want, "NumMicroPackets");
            // Content: message byte j is at overall payload byte 8 + j.
            for (std::size_t i = 0; i < flits.size(); ++i)
            {
                const Flit::Fields& f = flits[i];
                NS_TEST_ASSERT_MSG_EQ(f.header, (i == 0), "header flag");
                NS_TEST_ASSERT_MSG_EQ(f.tail, (i + 1 == flits.size()), "tail flag");
                NS_TEST_ASSERT_MSG_EQ(f.vc, vc, "vc");
                NS_TEST_ASSERT_MSG_EQ(uint32_t(f.type), 4U, "Data type");
                for (uint32_t k = (i == 0 ? 8 : 0); k < 18; ++k)
                {
                    const std::size_t j = i * 18 + k - 8;
                    const uint8_t expect = j < size ? msg[j] : 0;
                    NS_TEST_ASSERT_MSG_EQ(uint32_t(f.data[k]), uint32_t(expect), "byte " << j);
                }
            }
            const Flit::RoutingInfo ri = Flit::DecodeRoutingWord(Flit::GetRoutingWord(flits[0]));
            NS_TEST_ASSERT_MSG_EQ(ri.dstCpu, dst, "dst");
            NS_TEST_ASSERT_MSG_EQ(ri.srcCpu, src, "src");
            NS_TEST_ASSERT_MSG_EQ(ri.msgClass, cls, "class");
            NS_TEST_ASSERT_MSG_EQ(ri.length, size, "length");
            std::vector<Flit::Fields> rx = flits;
            if (size % 97 == 0 || size < 40 || size == 4096)
            {
                // Through the real bits.
                for (auto& f : rx)
                {
                    const Flit::DecodeResult d = Flit::Decode(Flit::Encode(f));
                    NS_TEST_ASSERT_MSG_EQ(d.IsOk(), true, "Data flit decodes");
                    f = d.fields;
                }
            }
            const Flit::Message m = Flit::Reassemble(rx);
            NS_TEST_ASSERT_MSG_EQ((m.bytes == msg), true, "reassembled bytes, size " << size);
            NS_TEST_ASSERT_MSG_EQ((m.route == ri), true, "reassembled route");
        }
    }
};

/// Syndrome maps, exact spectra and a Monte Carlo check of A4 on the real decoder.
class FlitSyndromeTest : public TestCase
{
  public:
    FlitSyndromeTest()
        : TestCase("syndrome maps; 4-bit Monte Carlo against WeightSpectrum A4")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint32_t> frame = Flit::FrameBytePositions();
        NS_TEST_ASSERT_MSG_EQ(frame.size(), 8U, "frame positions");
        std::set<uint32_t> all;
        for (uint32_t k = 0; k < 2; ++k)
        {
            const std::vector<uint32_t> pos = Flit::InterleavePositions(k);
            const std::vector<uint32_t> syn = Flit::SyndromeMap(k);
            NS_TEST_ASSERT_MSG_EQ(pos.size(), 96U, "codeword size");
            NS_TEST_ASSERT_MSG_EQ(syn.size(), 96U, "map size");
            // Textbook systematic map: covered bit p is x^(8 + p/2), CRC bit 176+8k+j is x^j.
            const std::vector<uint32_t> tb = WeightSpectrum::CrcSyndromes(8, 0x07, 96);
            for (std::size_t i = 0; i < pos.size(); ++i)
            {
                all.insert(pos[i]);
                const uint32_t p = pos[i];
                const uint32_t cw = p < 176 ? 8 + p / 2 : (p - 176 - 8 * k);
                NS_TEST_ASSERT_MSG_EQ(syn[i], tb[cw], "syndrome of line bit " << p);
                NS_TEST_ASSERT_MSG_EQ((p < 176 ? p % 2 == k : (p - 176) / 8 == k), true,
                                      "position " << p << " in interleave " << k);
                // A flip of a bit of the other interleave does not change this check.
                BitBlock b = Flit::Encode(Flit::MakeInit());
                b.Flip(p);
                NS_TEST_ASSERT_MSG_EQ(Flit::InterleaveCheck(b, 1 - k), 0U, "other interleave");
                NS_TEST_ASSERT_MSG_EQ(Flit::InterleaveCheck(b, k), syn[i], "linear");
            }
            const std::vector<uint32_t> nf = Flit::NonFramePositions(k);
            const std::vector<uint32_t> nfs = Flit::NonFrameSyndromeMap(k);
            NS_TEST_ASSERT_MSG_EQ(nf.size(), 92U, "non-frame positions");
            NS_TEST_ASSERT_MSG_EQ(nfs.size(), 92U, "non-frame map");
            for (std::size_t i = 0; i < nf.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ((nf[i] >= 8), true, "not a Frame bit");
                NS_TEST_ASSERT_MSG_EQ(nfs[i], (syn[i + 4]), "aligned (4 Frame bits first)");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(all.size(), 192U, "interleaves partition the flit");

        // Exact spectra of the non-Frame maps, and the 4-bit Monte Carlo.
        std::mt19937_64 rng(31337);
        const uint64_t trials = 200000;
        for (uint32_t k = 0; k < 2; ++k)
        {
            const std::vector<uint32_t> nf = Flit::NonFramePositions(k);
            const std::vector<uint32_t> map = Flit::NonFrameSyndromeMap(k);
            const uint64_t a2 = WeightSpectrum::Count(map, 2, 0);
            const uint64_t a3 = WeightSpectrum::Count(map, 3, 0);
            const uint64_t a4 = WeightSpectrum::Count(map, 4, 0);
            NS_TEST_ASSERT_MSG_EQ(a2, 0U, "A2 (distance 4)");
            NS_TEST_ASSERT_MSG_EQ(a3, 0U, "A3 (x+1 factor)");
            NS_TEST_ASSERT_MSG_EQ(a2, WeightSpectrum::CountBruteForce(map, 2, 0), "A2 brute");
            NS_TEST_ASSERT_MSG_EQ(a3, WeightSpectrum::CountBruteForce(map, 3, 0), "A3 brute");
            const uint64_t m = nf.size();
            const double total = double(m) * (m - 1) * (m - 2) * (m - 3) / 24.0;
            const double p = double(a4) / total;
            std::cout << "interleave " << k << ": m=" << m << " A2=" << a2 << " A3=" << a3
                      << " A4=" << a4 << " A4/C(m,4)=" << p;

            std::uniform_int_distribution<std::size_t> pick(0, m - 1);
            uint64_t accepted = 0;
            for (uint64_t t = 0; t < trials; ++t)
            {
                BitBlock b = Flit::Encode(RandomFields(rng));
                std::set<std::size_t> chosen;
                while (chosen.size() < 4)
                {
                    chosen.insert(pick(rng));
                }
                for (std::size_t c : chosen)
                {
                    b.Flip(nf[c]);
                }
                const Flit::DecodeResult r = Flit::Decode(b);
                NS_TEST_ASSERT_MSG_EQ(r.frameOk, true, "Frame byte untouched");
                NS_TEST_ASSERT_MSG_EQ((k == 0 ? r.oddCrcOk : r.evenCrcOk), true,
                                      "other interleave untouched");
                accepted += r.ChecksPassed();
            }
            double lo;
            double hi;
            const bool inside = InClopperPearson(accepted, trials, p, lo, hi);
            std::cout << " Monte Carlo " << accepted << "/" << trials << " CI [" << lo << ", " << hi
                      << "]" << std::endl;
            NS_TEST_EXPECT_MSG_EQ(inside, true,
                                  "interleave " << k << ": accepted " << accepted << "/" << trials
                                                << ", CI [" << lo << "," << hi
                                                << "], A4/C(m,4) = " << p);
        }
    }
};

/// Bad input throws with messages naming the parameter.
class FlitBadInputTest : public TestCase
{
  public:
    FlitBadInputTest()
        : TestCase("bad input throws and names the parameter")
    {
    }

  private:
    void DoRun() override
    {
        using IA = std::invalid_argument;
        auto withF = [](auto mutate)
        {
            return [mutate]()
            {
                Flit::Fields f = Flit::MakeNull(0);
                mutate(f);
                Flit::Encode(f);
            };
        };
        std::vector<std::string> errs;
        errs.push_back(ExpectThrow<IA>(withF(
                                           [](Flit::Fields& f)
                                           {
                                               f.askNo = 32;
                                           }),
                                       "askNo"));
        errs.push_back(ExpectThrow<IA>(withF(
                                           [](Flit::Fields& f)
                                           {
                                               f.sndNo = 32;
                                           }),
                                       "sndNo"));
        errs.push_back(ExpectThrow<IA>(withF(
                                           [](Flit::Fields& f)
                                           {
                                               f.vc = 4;
                                           }),
                                       "vc = 4"));
        errs.push_back(ExpectThrow<IA>(withF(
                                           [](Flit::Fields& f)
                                           {
                                               f.crdt = 16;
                                           }),
                                       "crdt = 16"));
        errs.push_back(ExpectThrow<IA>(withF(
                                           [](Flit::Fields& f)
                                           {
                                               f.type = static_cast<Type>(16);
                                           }),
                                       "type = 16"));
        errs.push_back(ExpectThrow<IA>(withF(
                                           [](Flit::Fields& f)
                                           {
                                               f.frame = 256;
                                           }),
                                       "frame"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Encode(Flit::MakeInit(), 0x100);
            },
            "poly"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Decode(BitBlock(192), 0x06);
            },
            "poly"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Decode(BitBlock(128));
            },
            "block size"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::MakeNull(32);
            },
            "askNo = 32"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::MakeCredit(40, 0, 0);
            },
            "sndNo = 40"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::MakeCredit(0, 0, 16);
            },
            "crdt"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::MakeData(0, 0, 0, 5, 1, 1, {});
            },
            "vc"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::NumMicroPackets(65536);
            },
            "bytes = 65536"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Segment(1, 2, 3, 0, std::vector<uint8_t>(65536));
            },
            "message size = 65536"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Segment(1, 2, 3, 4, {1});
            },
            "vc = 4"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Segment(256, 2, 3, 0, {1});
            },
            "dstCpu"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Segment(1, 300, 3, 0, {1});
            },
            "srcCpu"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Segment(1, 2, 16, 0, {1});
            },
            "msgClass"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::RoutingInfo r;
                r.length = 70000;
                Flit::EncodeRoutingWord(r);
            },
            "length = 70000"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::Reassemble({});
            },
            "flits"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                auto v = Flit::Segment(1, 2, 3, 0, std::vector<uint8_t>(40));
                v.pop_back();
                Flit::Reassemble(v);
            },
            "flits size = 2"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                auto v = Flit::Segment(1, 2, 3, 0, std::vector<uint8_t>(40));
                v[1].type = Type::CREDIT;
                Flit::Reassemble(v);
            },
            "flits[1] type"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                auto v = Flit::Segment(1, 2, 3, 0, std::vector<uint8_t>(40));
                v[1].tail = true;
                Flit::Reassemble(v);
            },
            "flits[1] tail"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::InterleavePositions(2);
            },
            "interleave = 2"));
        errs.push_back(ExpectThrow<IA>(
            []()
            {
                Flit::SyndromeMap(0, 0x1FF);
            },
            "poly"));
        for (std::size_t i = 0; i < errs.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(errs[i], "", "bad-input case " << i);
        }
    }
};

/// Exhaustive 3-bit and 4-bit patterns of one interleave through the real decoder.
class FlitExhaustiveTest : public TestCase
{
  public:
    FlitExhaustiveTest()
        : TestCase("exhaustive 3- and 4-bit errors of each interleave vs WeightSpectrum")
    {
    }

  private:
    void DoRun() override
    {
        const BitBlock base = Flit::Encode(Flit::MakeCredit(12, 3, 5));
        for (uint32_t k = 0; k < 2; ++k)
        {
            const std::vector<uint32_t> nf = Flit::NonFramePositions(k);
            const std::vector<uint32_t> map = Flit::NonFrameSyndromeMap(k);
            const std::size_t m = nf.size();
            uint64_t acc3 = 0;
            uint64_t acc4 = 0;
            for (std::size_t a = 0; a < m; ++a)
            {
                for (std::size_t b = a + 1; b < m; ++b)
                {
                    for (std::size_t c = b + 1; c < m; ++c)
                    {
                        BitBlock x = base;
                        x.Flip(nf[a]);
                        x.Flip(nf[b]);
                        x.Flip(nf[c]);
                        acc3 += Flit::InterleaveCheck(x, k) == 0;
                        for (std::size_t d = c + 1; d < m; ++d)
                        {
                            BitBlock y = x;
                            y.Flip(nf[d]);
                            acc4 += Flit::InterleaveCheck(y, k) == 0;
                        }
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(acc3, WeightSpectrum::Count(map, 3, 0), "A3 exhaustive");
            NS_TEST_ASSERT_MSG_EQ(acc4, WeightSpectrum::Count(map, 4, 0), "A4 exhaustive");
        }
    }
};

/// The suite.
class DirectLinkFlitTestSuite : public TestSuite
{
  public:
    DirectLinkFlitTestSuite()
        : TestSuite("direct-link-flit", RIFL_TEST_UNIT)
    {
        AddTestCase(new FlitRoundTripTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitBuilderTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitCrcReferenceTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitLowWeightDetectionTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitGarbageTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitMessageTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitSyndromeTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitBadInputTest, RIFL_TEST_QUICK);
        AddTestCase(new FlitExhaustiveTest, RIFL_TEST_EXTENSIVE);
    }
};

/// The static instance that registers the suite.
DirectLinkFlitTestSuite g_directLinkFlitTestSuite;

} // namespace

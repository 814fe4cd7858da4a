/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/crc-engine.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-frame.h"
#include "ns3/rifl-scrambler.h"
#include "ns3/test.h"
#include "ns3/weight-spectrum.h"

#include <boost/math/distributions/binomial.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The four frame sizes.
const uint32_t g_sizes[] = {128, 256, 512, 1024};

/**
 * \brief Run \p f and return the message of the std::invalid_argument it throws.
 * \param f the callable.
 * \return the message, or "<no exception>" if nothing was thrown.
 */
std::string
InvalidArgMessage(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "<no exception>";
}

/**
 * \brief A bit-serial reference scrambler written straight from the recurrence.
 */
class RefScrambler
{
  public:
    /**
     * \brief Start from a RiflScrambler-layout state.
     * \param state bit k = the line bit k+1 positions back.
     */
    explicit RefScrambler(uint64_t state)
    {
        for (uint32_t k = 33; k-- > 0;)
        {
            m_hist.push_back((state >> k) & 1U);
        }
    }

    /**
     * \param in a clear bit.
     * \return the line bit: in ^ out[n-13] ^ out[n-33].
     */
    bool Scramble(bool in)
    {
        const bool out = in ^ m_hist[m_hist.size() - 13] ^ m_hist[m_hist.size() - 33];
        m_hist.push_back(out);
        return out;
    }

    /**
     * \param in a line bit.
     * \return the clear bit: in ^ in[n-13] ^ in[n-33].
     */
    bool Descramble(bool in)
    {
        const bool out = in ^ m_hist[m_hist.size() - 13] ^ m_hist[m_hist.size() - 33];
        m_hist.push_back(in);
        return out;
    }

    /// \return the state in RiflScrambler layout.
    uint64_t State() const
    {
        uint64_t s = 0;
        for (uint32_t k = 0; k < 33; ++k)
        {
            s |= uint64_t{m_hist[m_hist.size() - 1 - k]} << k;
        }
        return s;
    }

  private:
    std::vector<bool> m_hist; //!< all line bits so far, oldest first
};

/**
 * \brief A random block of \p n bits.
 * \param rng the generator.
 * \param n the size.
 * \return the block.
 */
BitBlock
RandomBlock(std::mt19937_64& rng, uint32_t n)
{
    BitBlock b(n);
    for (uint32_t lsb = 0; lsb < n; lsb += 64)
    {
        const uint32_t msb = std::min(n - 1, lsb + 63);
        b.SetField(msb, lsb, rng());
    }
    return b;
}

/**
 * \brief Random bytes.
 * \param rng the generator.
 * \param n how many.
 * \return the bytes.
 */
std::vector<uint8_t>
RandomBytes(std::mt19937_64& rng, std::size_t n)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v)
    {
        b = static_cast<uint8_t>(rng());
    }
    return v;
}

} // namespace

/**
 * \ingroup rifl-core
 * \brief RiflScrambler against a bit-serial reference, round trips, error multiplication.
 */
class RiflScramblerTestCase : public TestCase
{
  public:
    RiflScramblerTestCase()
        : TestCase("RiflScrambler: reference recurrence, round trip, 1 line error -> 3 errors")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(12345);
        // 1. Known answer: the impulse response from state 0 is 1/(1 + x^13 + x^33):
        //    a single 1 followed by 63 zeros gives ones at offsets 0, 13, 26, 33, 39, 52, 59 (46
        //    cancels).
        {
            RiflScrambler s;
            const uint64_t out = s.ScrambleBits(uint64_t{1} << 63, 64);
            uint64_t expect = 0;
            for (uint32_t off : {0, 13, 26, 33, 39, 52, 59})
            {
                expect |= uint64_t{1} << (63 - off);
            }
            NS_TEST_ASSERT_MSG_EQ(out, expect, "impulse response of 1/(1+x^13+x^33)");
        }
        // 2. Word-wise implementation == bit-serial reference, over a sequence of
        //    frames (field [S-3:12]) with state continuity, every frame size.
        for (uint32_t size : g_sizes)
        {
            const uint64_t init = rng() & RiflScrambler::STATE_MASK;
            RiflScrambler tx(init);
            RiflScrambler rx(init);
            RefScrambler refTx(init);
            RefScrambler refRx(init);
            for (int f = 0; f < 20; ++f)
            {
                const BitBlock clear = RandomBlock(rng, size);
                BitBlock line = clear;
                tx.Scramble(line, size - 3, 12);
                for (uint32_t pos = size; pos-- > 0;)
                {
                    const bool expect = (pos <= size - 3 && pos >= 12)
                                            ? refTx.Scramble(clear.Get(pos))
                                            : clear.Get(pos);
                    NS_TEST_ASSERT_MSG_EQ(line.Get(pos), expect, "scrambled bit " << pos);
                }
                NS_TEST_ASSERT_MSG_EQ(tx.GetState(), refTx.State(), "TX state continuity");
                NS_TEST_ASSERT_MSG_EQ(tx.GetState(), line.GetField(44, 12),
                                      "state = last 33 line bits");
                BitBlock back = line;
                rx.Descramble(back, size - 3, 12);
                NS_TEST_ASSERT_MSG_EQ(back.ToHex(), clear.ToHex(), "descramble(scramble(x)) == x");
                for (uint32_t pos = size - 3; pos + 1 > 12; --pos)
                {
                    refRx.Descramble(line.Get(pos));
                }
                NS_TEST_ASSERT_MSG_EQ(rx.GetState(), refRx.State(), "RX state continuity");
                NS_TEST_ASSERT_MSG_EQ(rx.GetState(), tx.GetState(), "TX and RX in step");
            }
        }
        // 3. The word helpers for every length 0..64 against the reference.
        for (uint32_t n = 0; n <= 64; ++n)
        {
            const uint64_t init = rng() & RiflScrambler::STATE_MASK;
            RiflScrambler s(init);
            RiflScrambler d(init);
            RefScrambler ref(init);
            const uint64_t in = n == 64 ? rng() : (rng() & ((uint64_t{1} << n) - 1));
            const uint64_t out = s.ScrambleBits(in, n);
            uint64_t expect = 0;
            for (uint32_t k = n; k-- > 0;)
            {
                expect |= uint64_t{ref.Scramble((in >> k) & 1U)} << k;
            }
            NS_TEST_ASSERT_MSG_EQ(out, expect, "ScrambleBits n = " << n);
            NS_TEST_ASSERT_MSG_EQ(d.DescrambleBits(out, n), in, "DescrambleBits n = " << n);
            NS_TEST_ASSERT_MSG_EQ(s.GetState(), ref.State(), "state after n = " << n);
        }
        // 4. Self-synchronisation: a descrambler with a wrong state is wrong only in
        //    the first 33 bits.
        {
            RiflScrambler tx(0x1234567ULL);
            RiflScrambler rx(0x0ABCDEF01ULL);
            const BitBlock clear = RandomBlock(rng, 256);
            BitBlock line = clear;
            tx.Scramble(line, 253, 12);
            rx.Descramble(line, 253, 12);
            line ^= clear;
            for (uint32_t pos : line.OnePositions())
            {
                NS_TEST_ASSERT_MSG_GT(pos, 253 - 33, "only the first 33 bits may differ");
            }
        }
        // 5. One line error -> exactly 3 errors at n, n+13, n+33 after descrambling,
        //    for every position of a 242-bit field followed by a second frame (taps
        //    falling past the first frame land in the second one).
        const uint32_t size = 256;
        const uint32_t len = size - 14;
        RiflScrambler tx(rng() & RiflScrambler::STATE_MASK);
        const uint64_t rxInit = tx.GetState();
        const BitBlock c1 = RandomBlock(rng, size);
        const BitBlock c2 = RandomBlock(rng, size);
        BitBlock l1 = c1;
        BitBlock l2 = c2;
        tx.Scramble(l1, size - 3, 12);
        tx.Scramble(l2, size - 3, 12);
        for (uint32_t e = 0; e < len; ++e)
        {
            BitBlock b1 = l1;
            BitBlock b2 = l2;
            b1.Flip(size - 3 - e);
            RiflScrambler rx(rxInit);
            rx.Descramble(b1, size - 3, 12);
            rx.Descramble(b2, size - 3, 12);
            b1 ^= c1;
            b2 ^= c2;
            NS_TEST_ASSERT_MSG_EQ(b1.PopCount() + b2.PopCount(), 3U, "3 errors for line bit " << e);
            for (uint32_t off : {0U, 13U, 33U})
            {
                const uint32_t q = e + off; // offset in the stream of scrambled bits
                const bool hit = q < len ? b1.Get(size - 3 - q) : b2.Get(size - 3 - (q - len));
                NS_TEST_ASSERT_MSG_EQ(hit, true, "error at offset +" << off << " of " << e);
            }
        }
        // 6. Bad input.
        RiflScrambler s;
        std::string m = InvalidArgMessage(
            [&]()
            {
                s.SetState(uint64_t{1} << 33);
            });
        NS_TEST_ASSERT_MSG_NE(m.find("state"), std::string::npos, m);
        m = InvalidArgMessage(
            [&]()
            {
                s.ScrambleBits(0, 65);
            });
        NS_TEST_ASSERT_MSG_NE(m.find("nBits"), std::string::npos, m);
        bool threw = false;
        try
        {
            BitBlock b(128);
            s.Scramble(b, 128, 0);
        }
        catch (const std::out_of_range&)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "field outside the block");
    }
};

/**
 * \ingroup rifl-core
 * \brief Encode/Decode round trips of every frame kind and size, and the line layout.
 */
class RiflFrameRoundTripTestCase : public TestCase
{
  public:
    RiflFrameRoundTripTestCase()
        : TestCase("RiflFrame: round trips of all kinds and sizes, line layout")
    {
    }

  private:
    /**
     * \brief Encode, decode and check one frame.
     * \param f the frame.
     * \param tx the TX scrambler.
     * \param rx the RX descrambler.
     * \param id the Frame ID.
     * \param status the expected status.
     */
    void RoundTrip(const RiflFrame& f, RiflScrambler& tx, RiflScrambler& rx, uint32_t id,
                   RiflFrame::Status status)
    {
        const uint32_t s = f.GetFrameSize();
        const uint64_t txBefore = tx.GetState();
        const BitBlock line = RiflFrame::Encode(f, id, tx);
        NS_TEST_ASSERT_MSG_EQ(line.GetSize(), s, "line size");
        // Layout: Syncword in the clear, scrambled field, Verification Code.
        const bool ctrl = f.GetKind() == RiflFrame::Kind::CONTROL;
        NS_TEST_ASSERT_MSG_EQ(line.GetField(s - 1, s - 2), (ctrl ? 2U : 1U), "Syncword");
        BitBlock clear = line;
        RiflScrambler d(txBefore);
        d.Descramble(clear, s - 3, 12);
        if (ctrl)
        {
            NS_TEST_ASSERT_MSG_EQ(clear.GetField(s - 3, s - 18), f.GetKey(), "key field");
            NS_TEST_ASSERT_MSG_EQ(clear.GetField(s - 19, s - 82), 0U, "zeros after key");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(clear.GetField(s - 3, s - 4), static_cast<uint32_t>(f.GetMeta()),
                                  "Meta field");
            for (uint32_t k = 0; k < RiflFrame::PayloadBytes(s); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(clear.GetField(s - 5 - 8 * k, s - 12 - 8 * k),
                                      f.GetPayload()[k],
                                      "payload byte " << k << " at [" << s - 5 - 8 * k << "]");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(line.GetField(11, 0),
                              static_cast<uint32_t>(CrcEngine::RiflCrc12(line) ^ id),
                              "Verification Code = CRC12(scrambled frame) ^ ID");
        NS_TEST_ASSERT_MSG_EQ(RiflFrame::ScramblerStateAfter(line), tx.GetState(),
                              "TX state after the frame");

        const RiflFrame::DecodeResult r = RiflFrame::Decode(line, id, rx);
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(r.status), static_cast<int>(status), "status");
        NS_TEST_ASSERT_MSG_EQ(r.checkPassed, true, "check passed");
        NS_TEST_ASSERT_MSG_EQ(r.mismatch, 0, "mismatch");
        NS_TEST_ASSERT_MSG_EQ(rx.GetState(), tx.GetState(), "RX in step with TX");
        NS_TEST_ASSERT_MSG_EQ(static_cast<int>(r.kind), static_cast<int>(f.GetKind()), "kind");
        NS_TEST_ASSERT_MSG_EQ(r.paddingZero, true, "padding zero");
        if (ctrl)
        {
            NS_TEST_ASSERT_MSG_EQ(r.key, f.GetKey(), "key");
            NS_TEST_ASSERT_MSG_EQ(r.validBytes, 0U, "no user bytes in control frames");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(static_cast<int>(r.meta), static_cast<int>(f.GetMeta()), "meta");
            NS_TEST_ASSERT_MSG_EQ((r.payload == f.GetPayload()), true, "payload image");
            NS_TEST_ASSERT_MSG_EQ(r.validBytes, f.GetValidBytes(), "valid bytes");
            NS_TEST_ASSERT_MSG_EQ(static_cast<int>(r.fc), static_cast<int>(f.GetFcNotification()),
                                  "FC notification");
        }
    }

    void DoRun() override
    {
        std::mt19937_64 rng(777);
        for (uint32_t s : g_sizes)
        {
            const uint32_t p = RiflFrame::PayloadBytes(s);
            NS_TEST_ASSERT_MSG_EQ(p, (s - 16) / 8, "payload bytes");
            const uint64_t init = rng() & RiflScrambler::STATE_MASK;
            RiflScrambler tx(init);
            RiflScrambler rx(init);
            uint32_t id = static_cast<uint32_t>(rng() & 0xFFF);
            auto next = [&]()
            {
                id = (id + 1) & 0xFFF;
                return id;
            };
            using St = RiflFrame::Status;
            // Partial last frames of every byte count, full middle and last frames.
            for (uint32_t len = 1; len <= p; ++len)
            {
                const std::vector<uint8_t> data = RandomBytes(rng, len);
                const RiflFrame f = RiflFrame::MakeData(s, data.data(), len, true);
                NS_TEST_ASSERT_MSG_EQ(static_cast<int>(f.GetMeta()), (len == p ? 3 : 2),
                                      "meta of a last frame of " << len << " bytes");
                NS_TEST_ASSERT_MSG_EQ(f.GetValidBytes(), len, "valid bytes");
                NS_TEST_ASSERT_MSG_EQ((f.GetUserBytes() == data), true, "user bytes");
                if (len < p)
                {
                    NS_TEST_ASSERT_MSG_EQ(f.GetPayload()[p - 1], len, "count in bits 7:0");
                }
                RoundTrip(f, tx, rx, next(), St::OK);
            }
            const std::vector<uint8_t> full = RandomBytes(rng, p);
            const RiflFrame mid = RiflFrame::MakeData(s, full.data(), p, false);
            NS_TEST_ASSERT_MSG_EQ(static_cast<int>(mid.GetMeta()), 1, "middle meta 01");
            RoundTrip(mid, tx, rx, next(), St::OK);
            // Fill and FC notification frames.
            const RiflFrame fill = RiflFrame::MakeFill(s);
            NS_TEST_ASSERT_MSG_EQ(static_cast<int>(fill.GetMeta()), 0, "fill meta 00");
            NS_TEST_ASSERT_MSG_EQ(fill.GetValidBytes(), 0U, "fill carries nothing");
            RoundTrip(fill, tx, rx, next(), St::OK);
            const RiflFrame pause
                = RiflFrame::MakeFcNotification(s, RiflFrame::FcNotification::PAUSE);
            const RiflFrame resume
                = RiflFrame::MakeFcNotification(s, RiflFrame::FcNotification::RESUME);
            NS_TEST_ASSERT_MSG_EQ(pause.GetPayload()[p - 1], 1, "FC pause last byte 0x01");
            NS_TEST_ASSERT_MSG_EQ(resume.GetPayload()[p - 1], 2, "FC resume last byte 0x02");
            NS_TEST_ASSERT_MSG_EQ(static_cast<int>(pause.GetMeta()), 0, "FC meta 00");
            NS_TEST_ASSERT_MSG_EQ(static_cast<int>(pause.GetKind()),
                                  static_cast<int>(RiflFrame::Kind::DATA),
                                  "FC frames are Data frames");
            RoundTrip(pause, tx, rx, next(), St::OK);
            RoundTrip(resume, tx, rx, next(), St::OK);
            // Control frames.
            NS_TEST_ASSERT_MSG_EQ(RiflFrame::MakeIdle(s).GetKey(), 0x0001, "Idle key");
            NS_TEST_ASSERT_MSG_EQ(RiflFrame::MakePauseRequest(s).GetKey(), 0x0010, "Pause key");
            NS_TEST_ASSERT_MSG_EQ(RiflFrame::MakeRetransmitRequest(s).GetKey(), 0x1000,
                                  "Re-transmit key");
            RoundTrip(RiflFrame::MakeIdle(s), tx, rx, id, St::OK);
            RoundTrip(RiflFrame::MakePauseRequest(s), tx, rx, id, St::OK);
            RoundTrip(RiflFrame::MakeRetransmitRequest(s), tx, rx, id, St::OK);
            RoundTrip(RiflFrame::MakeControl(s, 0x0011), tx, rx, id, St::UNKNOWN_KEY);
            RoundTrip(RiflFrame::MakeControl(s, 0x0000), tx, rx, id, St::UNKNOWN_KEY);
        }
        // Known answer: with scrambler state 0 a fill frame's scrambled field stays
        // zero, so the line is 01 00...0 followed by CRC12 ^ ID.
        RiflScrambler z;
        const BitBlock fill = RiflFrame::Encode(RiflFrame::MakeFill(256), 0x5A5, z);
        BitBlock expect(256);
        expect.SetField(255, 254, 1);
        const uint32_t crc = CrcEngine::RiflCrc12(expect);
        expect.SetField(11, 0, crc ^ 0x5A5);
        NS_TEST_ASSERT_MSG_EQ(fill.ToHex(), expect.ToHex(), "fill frame, state 0");
        CrcEngine engine(12, 0x02F);
        BitBlock zeroCode = expect;
        zeroCode.SetField(11, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(crc, engine.ComputeField(zeroCode, 255, 0), "CRC over all 256 bits");
        // The register is fed all 256 bits, the zeroed code field included, so the
        // CRC of 01 followed by 254 zeros is x^(254+12) mod g(x).
        NS_TEST_ASSERT_MSG_EQ(crc, WeightSpectrum::CrcSyndromes(12, 0x02F, 268)[266], "x^266");
    }
};

/**
 * \ingroup rifl-core
 * \brief Cutting packets of 1..9000 bytes into frames and reassembling them through the line.
 */
class RiflFramePacketTestCase : public TestCase
{
  public:
    RiflFramePacketTestCase()
        : TestCase("RiflFrame: packet cut and reassembly, 1..9000 bytes")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(4242);
        std::vector<std::size_t> lengths;
        for (std::size_t n = 1; n <= 300; ++n)
        {
            lengths.push_back(n);
        }
        for (std::size_t n = 301; n <= 9000; n += 97)
        {
            lengths.push_back(n);
        }
        for (std::size_t n : {1499U, 1500U, 1501U, 8999U, 9000U})
        {
            lengths.push_back(n);
        }
        for (uint32_t s : g_sizes)
        {
            const uint32_t p = RiflFrame::PayloadBytes(s);
            const uint64_t init = rng() & RiflScrambler::STATE_MASK;
            RiflScrambler tx(init);
            RiflScrambler rx(init);
            uint32_t id = 0;
            for (std::size_t n : lengths)
            {
                const std::vector<uint8_t> pkt = RandomBytes(rng, n);
                const std::vector<RiflFrame> frames = RiflFrame::CutPacket(s, pkt);
                const std::size_t nf = (n + p - 1) / p;
                NS_TEST_ASSERT_MSG_EQ(frames.size(), nf, "frame count for " << n << " bytes");
                NS_TEST_ASSERT_MSG_EQ(RiflFrame::FramesForPacket(s, n), nf, "FramesForPacket");
                for (std::size_t i = 0; i + 1 < nf; ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(static_cast<int>(frames[i].GetMeta()), 1, "middle");
                }
                NS_TEST_ASSERT_MSG_EQ(static_cast<int>(frames.back().GetMeta()),
                                      (n % p == 0 ? 3 : 2), "last meta for " << n << " bytes");
                NS_TEST_ASSERT_MSG_EQ((RiflFrame::Reassemble(frames) == pkt), true, "reassembly");
                // Through the line: encode, decode, rebuild from the decode results.
                std::vector<uint8_t> rebuilt;
                for (const RiflFrame& f : frames)
                {
                    const BitBlock line = RiflFrame::Encode(f, id, tx);
                    const RiflFrame::DecodeResult r = RiflFrame::Decode(line, id, rx);
                    NS_TEST_ASSERT_MSG_EQ(static_cast<int>(r.status), 0, "decoded OK");
                    rebuilt.insert(rebuilt.end(), r.payload.begin(),
                                   r.payload.begin() + r.validBytes);
                    id = RiflFrame::WrapFrameId(id + 1, 12);
                }
                NS_TEST_ASSERT_MSG_EQ((rebuilt == pkt), true, "packet of " << n << " bytes");
            }
        }
        // Malformed sequences are rejected.
        const std::vector<uint8_t> pkt = RandomBytes(rng, 70);
        std::vector<RiflFrame> frames = RiflFrame::CutPacket(256, pkt);
        frames.pop_back();
        std::string m = InvalidArgMessage(
            [&]()
            {
                RiflFrame::Reassemble(frames);
            });
        NS_TEST_ASSERT_MSG_NE(m.find("frames"), std::string::npos, m);
    }
};

/**
 * \ingroup rifl-core
 * \brief The implicit Frame ID, the check's syndrome map and error detection.
 */
class RiflFrameCheckTestCase : public TestCase
{
  public:
    RiflFrameCheckTestCase()
        : TestCase("RiflFrame: implicit Frame ID, syndromes, all 1- and 2-bit and sampled 3-bit "
                   "line errors detected, corrupted keys (11.6)")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(99);
        // Implicit Frame ID.
        for (uint32_t s : g_sizes)
        {
            RiflScrambler tx(rng() & RiflScrambler::STATE_MASK);
            for (int t = 0; t < 50; ++t)
            {
                const uint32_t id = static_cast<uint32_t>(rng() & 0xFFF);
                const std::vector<uint8_t> d = RandomBytes(rng, RiflFrame::PayloadBytes(s));
                const RiflFrame f = (t % 2) ? RiflFrame::MakeData(s, d.data(), d.size(), false)
                                            : RiflFrame::MakeIdle(s);
                RiflScrambler rxState = tx;
                const BitBlock line = RiflFrame::Encode(f, id, tx);
                for (uint32_t wrong : {id ^ 1U, (id + 1) & 0xFFFU, id ^ 0x800U})
                {
                    RiflScrambler rx = rxState;
                    const RiflFrame::DecodeResult r = RiflFrame::Decode(line, wrong, rx);
                    NS_TEST_ASSERT_MSG_EQ(r.checkPassed, false, "wrong ID fails");
                    NS_TEST_ASSERT_MSG_EQ(static_cast<int>(r.status),
                                          static_cast<int>(RiflFrame::Status::CHECK_FAILED),
                                          "wrong ID is a Frame Error");
                    NS_TEST_ASSERT_MSG_EQ(r.mismatch, (id ^ wrong), "mismatch = ID difference");
                    NS_TEST_ASSERT_MSG_EQ(rx.GetState(), tx.GetState(), "descrambler advanced");
                }
            }
        }
        // IDs modulo 2^width.
        for (uint32_t w : {1U, 6U, 9U, 12U})
        {
            RiflScrambler tx;
            RiflScrambler rx;
            for (uint64_t counter = 0; counter < 3 * (uint64_t{1} << w) && counter < 9000;
                 counter += 7)
            {
                const uint32_t id = RiflFrame::WrapFrameId(counter, w);
                NS_TEST_ASSERT_MSG_EQ(id, (counter % (uint64_t{1} << w)), "wrap");
                NS_TEST_ASSERT_MSG_EQ(RiflFrame::WrapFrameId(counter + (uint64_t{1} << w), w), id,
                                      "ID + 2^w == ID");
                const BitBlock line = RiflFrame::Encode(RiflFrame::MakeFill(128), id, tx, w);
                const RiflFrame::DecodeResult r = RiflFrame::Decode(
                    line, RiflFrame::WrapFrameId(counter + (1U << w), w), rx, w);
                NS_TEST_ASSERT_MSG_EQ(r.checkPassed, true, "ID + 2^w accepted, width " << w);
            }
            const std::string m = InvalidArgMessage(
                [&]()
                {
                    RiflFrame::Encode(RiflFrame::MakeFill(128), 1U << w, tx, w);
                });
            NS_TEST_ASSERT_MSG_NE(m.find("frameId"), std::string::npos, m);
        }

        // The codec's check computes exactly CrcEngine::RiflCrc12 (on random blocks).
        for (uint32_t s : g_sizes)
        {
            for (int t = 0; t < 2000; ++t)
            {
                const BitBlock g = RandomBlock(rng, s);
                const uint32_t id = static_cast<uint32_t>(rng() & 0xFFF);
                NS_TEST_ASSERT_MSG_EQ(RiflFrame::CheckMismatch(g, id),
                                      (g.GetField(11, 0) ^ CrcEngine::RiflCrc12(g) ^ id),
                                      "CheckMismatch uses RiflCrc12, size " << s);
            }
        }
        // Syndrome map: the textbook x^i mod g(x) for this layout, all nonzero,
        // and the real check is affine: mismatch change == XOR of syndromes for
        // random multi-bit patterns on random frames and IDs.
        for (uint32_t s : g_sizes)
        {
            const std::vector<uint32_t> syn = RiflFrame::CheckSyndromes(s);
            NS_TEST_ASSERT_MSG_EQ(syn.size(), s, "one syndrome per line bit");
            // Known structure: the code field enters the mismatch directly (x^i,
            // i < 12); every other bit through a CRC fed all S bits, the zeroed code
            // field included, i.e. x^(i+12) mod g(x). (This is not the textbook
            // systematic map x^i mod g(x) for i >= 12.)
            const std::vector<uint32_t> book = WeightSpectrum::CrcSyndromes(12, 0x02F, s + 12);
            for (uint32_t i = 0; i < s; ++i)
            {
                NS_TEST_ASSERT_MSG_NE(syn[i], 0U, "nonzero syndrome " << i);
                NS_TEST_ASSERT_MSG_EQ(syn[i], (i < 12 ? (1U << i) : book[i + 12]),
                                      "syndrome " << i);
            }
            RiflScrambler tx(rng() & RiflScrambler::STATE_MASK);
            for (int t = 0; t < 200; ++t)
            {
                const uint32_t id = static_cast<uint32_t>(rng() & 0xFFF);
                const std::vector<uint8_t> d = RandomBytes(rng, 1 + rng() % 10);
                const RiflFrame f = RiflFrame::MakeData(s, d.data(), d.size(), true);
                BitBlock line = RiflFrame::Encode(f, id, tx);
                uint32_t expect = 0;
                const uint32_t nErr = 1 + static_cast<uint32_t>(rng() % 8);
                for (uint32_t k = 0; k < nErr; ++k)
                {
                    const uint32_t pos = static_cast<uint32_t>(rng() % s);
                    line.Flip(pos);
                    expect ^= syn[pos];
                }
                NS_TEST_ASSERT_MSG_EQ(RiflFrame::CheckMismatch(line, id), expect, "affine check");
            }
        }

        // Every 1- and 2-bit line error on RIFL256 is detected (exhaustive), and
        // sampled 3-bit errors; the decoder runs with the real descrambler state.
        {
            const uint32_t s = 256;
            RiflScrambler tx(0x1F0F0F0F0ULL);
            RiflScrambler rx0 = tx;
            const std::vector<uint8_t> d = RandomBytes(rng, RiflFrame::PayloadBytes(s));
            const BitBlock line
                = RiflFrame::Encode(RiflFrame::MakeData(s, d.data(), d.size(), false), 0x3C3, tx);
            uint64_t missed = 0;
            uint64_t tried = 0;
            for (uint32_t i = 0; i < s; ++i)
            {
                for (uint32_t j = i; j < s; ++j)
                {
                    BitBlock b = line;
                    b.Flip(i);
                    if (j != i)
                    {
                        b.Flip(j);
                    }
                    RiflScrambler rx = rx0;
                    const RiflFrame::DecodeResult r = RiflFrame::Decode(b, 0x3C3, rx);
                    missed += r.checkPassed || r.status == RiflFrame::Status::OK;
                    ++tried;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(tried, 256U + 256U * 255U / 2U, "all patterns");
            NS_TEST_ASSERT_MSG_EQ(missed, 0U, "every 1- and 2-bit error detected");
            missed = 0;
            for (int t = 0; t < 100000; ++t)
            {
                uint32_t a;
                uint32_t b;
                uint32_t c;
                do
                {
                    a = rng() % s;
                    b = rng() % s;
                    c = rng() % s;
                } while (a == b || b == c || a == c);
                BitBlock e = line;
                e.Flip(a);
                e.Flip(b);
                e.Flip(c);
                RiflScrambler rx = rx0;
                missed += RiflFrame::Decode(e, 0x3C3, rx).checkPassed;
            }
            NS_TEST_ASSERT_MSG_EQ(missed, 0U, "sampled 3-bit errors detected");
        }

        // §11.6: corrupted Control frames and the key.
        {
            const uint32_t s = 256;
            RiflScrambler tx(0x0DEADBEEFULL & RiflScrambler::STATE_MASK);
            RiflScrambler rx = tx;
            const BitBlock a = RiflFrame::Encode(RiflFrame::MakeIdle(s), 5, tx);
            const BitBlock b = RiflFrame::Encode(RiflFrame::MakeIdle(s), 5, tx);
            // Error in the Verification Code: check fails, key survives.
            {
                BitBlock e = a;
                e.Flip(3);
                RiflScrambler r = rx;
                const RiflFrame::DecodeResult d = RiflFrame::Decode(e, 5, r);
                NS_TEST_ASSERT_MSG_EQ(d.checkPassed, false, "check fails");
                NS_TEST_ASSERT_MSG_EQ(d.keyKnown, true, "key survives");
                NS_TEST_ASSERT_MSG_EQ(d.key, RiflFrame::KEY_IDLE, "key is Idle");
            }
            // Error in the key bits: key destroyed (bit 0 of the key is line bit s-18).
            {
                BitBlock e = a;
                e.Flip(s - 18);
                RiflScrambler r = rx;
                const RiflFrame::DecodeResult d = RiflFrame::Decode(e, 5, r);
                NS_TEST_ASSERT_MSG_EQ(d.checkPassed, false, "check fails");
                NS_TEST_ASSERT_MSG_EQ(d.key, 0x0000, "key bit 0 flipped");
                NS_TEST_ASSERT_MSG_EQ(d.keyKnown, false, "key destroyed");
            }
            // Error in the last scrambled bit (line bit 12) of frame a: its taps at
            // +13 and +33 land at offsets 12 and 32 of frame b, i.e. key bit 3 and
            // a padding bit; b's check still passes but its key is unknown.
            {
                BitBlock e = a;
                e.Flip(12);
                RiflScrambler r = rx;
                const RiflFrame::DecodeResult da = RiflFrame::Decode(e, 5, r);
                NS_TEST_ASSERT_MSG_EQ(da.checkPassed, false, "a fails");
                NS_TEST_ASSERT_MSG_EQ(da.keyKnown, true, "a's key survives");
                const RiflFrame::DecodeResult db = RiflFrame::Decode(b, 5, r);
                NS_TEST_ASSERT_MSG_EQ(db.checkPassed, true, "b passes");
                NS_TEST_ASSERT_MSG_EQ(db.key, (RiflFrame::KEY_IDLE ^ 0x0008), "b's key bit 3");
                NS_TEST_ASSERT_MSG_EQ(static_cast<int>(db.status),
                                      static_cast<int>(RiflFrame::Status::UNKNOWN_KEY),
                                      "b has an unknown key");
                NS_TEST_ASSERT_MSG_EQ(db.paddingZero, false, "b's padding hit too");
            }
        }
    }
};

/**
 * \ingroup rifl-core
 * \brief Decoding random garbage never throws and classifies with the right frequencies.
 */
class RiflFrameGarbageTestCase : public TestCase
{
  public:
    RiflFrameGarbageTestCase()
        : TestCase("RiflFrame: 1e5 random 256-bit blocks: classification and frequencies")
    {
    }

  private:
    void DoRun() override
    {
        using boost::math::binomial_distribution;
        std::mt19937_64 rng(2024);
        const uint32_t s = 256;
        const uint64_t n = 100000;
        RiflScrambler rx(rng() & RiflScrambler::STATE_MASK);
        uint64_t illegal = 0;
        uint64_t legal = 0;
        uint64_t passedLegal = 0;
        uint64_t threw = 0;
        uint64_t inconsistent = 0;
        for (uint64_t t = 0; t < n; ++t)
        {
            const BitBlock g = RandomBlock(rng, s);
            const uint32_t id = static_cast<uint32_t>(rng() & 0xFFF);
            try
            {
                const RiflFrame::DecodeResult r = RiflFrame::Decode(g, id, rx);
                const uint64_t sw = g.GetField(255, 254);
                const bool ill = sw == 0 || sw == 3;
                illegal += ill;
                legal += !ill;
                passedLegal += !ill && r.checkPassed;
                using St = RiflFrame::Status;
                bool ok = (r.status == St::BAD_SYNCWORD) == ill;
                ok = ok && (r.checkPassed == (r.mismatch == 0));
                ok = ok && (ill || r.checkPassed || r.status == St::CHECK_FAILED);
                ok = ok
                     && (r.status != St::UNKNOWN_KEY
                         || (r.kind == RiflFrame::Kind::CONTROL && !r.keyKnown && r.checkPassed));
                ok = ok && rx.GetState() == RiflFrame::ScramblerStateAfter(g);
                ok = ok && r.payload.size() == RiflFrame::PayloadBytes(s);
                ok = ok && r.validBytes <= RiflFrame::PayloadBytes(s);
                inconsistent += !ok;
            }
            catch (...)
            {
                ++threw;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(threw, 0U, "Decode never throws on bit content");
        NS_TEST_ASSERT_MSG_EQ(inconsistent, 0U, "classification consistent");
        // Two-sided Clopper-Pearson intervals at alpha = 1e-6.
        const double a2 = 0.5e-6;
        const double lo1 = binomial_distribution<>::find_lower_bound_on_p(n, illegal, a2);
        const double hi1 = binomial_distribution<>::find_upper_bound_on_p(n, illegal, a2);
        NS_TEST_ASSERT_MSG_EQ((lo1 <= 0.5 && 0.5 <= hi1), true,
                              "illegal Syncword fraction " << illegal << "/" << n);
        const double p12 = 1.0 / 4096.0;
        const double lo2 = binomial_distribution<>::find_lower_bound_on_p(legal, passedLegal, a2);
        const double hi2 = binomial_distribution<>::find_upper_bound_on_p(legal, passedLegal, a2);
        NS_TEST_ASSERT_MSG_EQ((lo2 <= p12 && p12 <= hi2), true,
                              "check pass fraction " << passedLegal << "/" << legal);
    }
};

/**
 * \ingroup rifl-core
 * \brief Monte Carlo of 4-bit line errors through the real codec vs the exact count.
 */
class RiflFrameSpectrumMonteCarloTestCase : public TestCase
{
  public:
    /**
     * \brief Make the test.
     * \param trials number of injected 4-bit patterns.
     */
    explicit RiflFrameSpectrumMonteCarloTestCase(uint64_t trials)
        : TestCase("RiflFrame: Monte Carlo 4-bit errors on RIFL256 vs WeightSpectrum, "
                   + std::to_string(trials) + " trials")
        , m_trials(trials)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t s = 256;
        const std::vector<uint32_t> syn = RiflFrame::CheckSyndromes(s);
        const std::vector<uint32_t> nonSync(syn.begin(), syn.begin() + (s - 2));
        const uint64_t a4 = WeightSpectrum::Count(syn, 4, 0);
        const uint64_t a4acc = WeightSpectrum::Count(nonSync, 4, 0)
                               + WeightSpectrum::Count(nonSync, 2, syn[s - 1] ^ syn[s - 2]);
        const double total = 256.0 * 255.0 * 254.0 * 253.0 / 24.0;
        const double pExact = a4acc / total;

        std::mt19937_64 rng(31337 + m_trials);
        RiflScrambler tx(rng() & RiflScrambler::STATE_MASK);
        RiflScrambler rx = tx;
        const uint32_t perFrame = 8;
        uint64_t accepted = 0;
        uint64_t trials = 0;
        const auto t0 = std::chrono::steady_clock::now();
        while (trials < m_trials)
        {
            const uint32_t id = static_cast<uint32_t>(rng() & 0xFFF);
            const std::vector<uint8_t> d = RandomBytes(rng, RiflFrame::PayloadBytes(s));
            const BitBlock line
                = RiflFrame::Encode(RiflFrame::MakeData(s, d.data(), d.size(), false), id, tx);
            for (uint32_t k = 0; k < perFrame && trials < m_trials; ++k, ++trials)
            {
                uint32_t pos[4];
                for (uint32_t j = 0; j < 4; ++j)
                {
                    bool dup;
                    do
                    {
                        pos[j] = static_cast<uint32_t>(rng() & 0xFF);
                        dup = false;
                        for (uint32_t q = 0; q < j; ++q)
                        {
                            dup = dup || pos[q] == pos[j];
                        }
                    } while (dup);
                }
                BitBlock e = line;
                for (uint32_t p : pos)
                {
                    e.Flip(p);
                }
                RiflScrambler r = rx;
                const RiflFrame::DecodeResult res = RiflFrame::Decode(e, id, r);
                accepted += res.checkPassed && res.kind != RiflFrame::Kind::ILLEGAL;
            }
            RiflFrame::Decode(line, id, rx); // the receiver sees the clean frame
        }
        const double secs
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        using boost::math::binomial_distribution;
        const double a2 = 0.5e-6;
        const double lo
            = binomial_distribution<>::find_lower_bound_on_p(double(trials), double(accepted), a2);
        const double hi
            = binomial_distribution<>::find_upper_bound_on_p(double(trials), double(accepted), a2);
        const uint64_t a4Book
            = WeightSpectrum::Count(WeightSpectrum::CrcSyndromes(12, 0x02F, s), 4, 0);
        std::clog << "rifl-frame MC: A4 = " << a4 << " (textbook systematic map: " << a4Book
                  << "), A4_acc = " << a4acc << ", A4_acc/C(256,4) = " << pExact << ", observed "
                  << accepted << "/" << trials << " = " << double(accepted) / trials
                  << " CP99.9999% [" << lo << ", " << hi << "], " << secs << " s" << std::endl;
        NS_TEST_ASSERT_MSG_GT(a4acc, 0U, "some weight-4 patterns are accepted");
        NS_TEST_ASSERT_MSG_EQ((lo <= pExact && pExact <= hi), true,
                              "observed " << accepted << "/" << trials << " vs exact " << pExact);
    }

    uint64_t m_trials; //!< number of trials
};

/**
 * \ingroup rifl-core
 * \brief Bad input: messages name the parameter.
 */
class RiflFrameBadInputTestCase : public TestCase
{
  public:
    RiflFrameBadInputTestCase()
        : TestCase("RiflFrame: bad input errors name the parameter")
    {
    }

  private:
    /**
     * \brief Check that \p f throws std::invalid_argument naming \p param.
     * \param f the callable.
     * \param param the parameter name.
     */
    void Expect(const std::function<void()>& f, const std::string& param)
    {
        const std::string m = InvalidArgMessage(f);
        NS_TEST_EXPECT_MSG_NE(m.find(param), std::string::npos, "'" << m << "' names " << param);
    }

    void DoRun() override
    {
        RiflScrambler sc;
        const uint8_t bytes[200] = {};
        Expect(
            []()
            {
                RiflFrame::PayloadBytes(300);
            },
            "FrameSize = 300");
        Expect(
            []()
            {
                RiflFrame::MakeFill(300);
            },
            "FrameSize");
        Expect(
            [&]()
            {
                RiflFrame::MakeData(300, bytes, 10, true);
            },
            "FrameSize");
        Expect(
            [&]()
            {
                RiflFrame::Decode(BitBlock(300), 0, sc);
            },
            "FrameSize");
        Expect(
            [&]()
            {
                RiflFrame::Encode(RiflFrame::MakeIdle(256), 4096, sc);
            },
            "frameId = 4096");
        Expect(
            [&]()
            {
                RiflFrame::Decode(BitBlock(256), 4096, sc);
            },
            "expectedFrameId = 4096");
        Expect(
            [&]()
            {
                RiflFrame::Encode(RiflFrame::MakeIdle(256), 0, sc, 13);
            },
            "frameIdWidth");
        Expect(
            [&]()
            {
                RiflFrame::Decode(BitBlock(256), 0, sc, 0);
            },
            "frameIdWidth");
        Expect(
            [&]()
            {
                RiflFrame::WrapFrameId(5, 13);
            },
            "frameIdWidth");
        Expect(
            []()
            {
                RiflFrame::CutPacket(256, {});
            },
            "packetBytes = 0");
        Expect(
            []()
            {
                RiflFrame::FramesForPacket(256, 0);
            },
            "packetBytes");
        Expect(
            [&]()
            {
                RiflFrame::MakeData(256, bytes, 0, true);
            },
            "length = 0");
        Expect(
            [&]()
            {
                RiflFrame::MakeData(256, bytes, 31, true);
            },
            "length = 31");
        Expect(
            [&]()
            {
                RiflFrame::MakeData(256, bytes, 29, false);
            },
            "length = 29");
        Expect(
            []()
            {
                RiflFrame::Reassemble({});
            },
            "frames");
        Expect(
            []()
            {
                RiflFrame::MakeFcNotification(256, static_cast<RiflFrame::FcNotification>(3));
            },
            "fc");
        // A state-changing error path leaves the descrambler untouched.
        RiflScrambler r(5);
        Expect(
            [&]()
            {
                RiflFrame::Decode(BitBlock(256), 9999, r);
            },
            "expectedFrameId");
        NS_TEST_EXPECT_MSG_EQ(r.GetState(), 5U, "no state change on a rejected call");
    }
};

/**
 * \ingroup rifl-core
 * \brief The rifl-frame test suite.
 */
class RiflFrameTestSuite : public TestSuite
{
  public:
    RiflFrameTestSuite()
        : TestSuite("rifl-frame", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflScramblerTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflFrameRoundTripTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflFramePacketTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflFrameCheckTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflFrameGarbageTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflFrameBadInputTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflFrameSpectrumMonteCarloTestCase(2500000), RIFL_TEST_QUICK);
        AddTestCase(new RiflFrameSpectrumMonteCarloTestCase(30000000), RIFL_TEST_EXTENSIVE);
    }
};

/// The suite's static instance.
static RiflFrameTestSuite g_riflFrameTestSuite;

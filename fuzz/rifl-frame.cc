/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rifl
 * libFuzzer target "rifl-frame": the RIFL frame codec (RiflFrame, RiflScrambler)
 * for every frame size (128, 256, 512, 1024 bits) and Frame ID width (1..12).
 *
 * The first byte chooses the mode:
 *  - even: decode. A run of up to 8 arbitrary line frames (bits from the input,
 *    the Verification Code repaired to pass when the input says so) goes through
 *    one RX descrambler. Decode() must not throw on any bits; the
 *    mismatch must equal CheckMismatch() and checkPassed must be mismatch == 0;
 *    the descrambler must end in ScramblerStateAfter(line); the status must
 *    follow the precedence of rifl-frame.h; and every frame that decodes OK with
 *    zero padding must re-encode (same Frame ID, TX scrambler started where the
 *    RX one was) to exactly the same line bits and scrambler state.
 *  - odd: encode. A frame built from the input (user data of any length, last
 *    flag, fill, FC notification, any control key) is encoded and decoded back
 *    (same content, status OK unless an unknown key); then a set of line bits
 *    chosen by the input is flipped and the mismatch must be the XOR of those
 *    bits' CheckSyndromes() entries (the check is affine: what WeightSpectrum
 *    and the reliability model rely on).
 */

#include "ns3/rifl-frame.h"

#include "fuzz-check.h"
#include "ns3/bit-block.h"
#include "ns3/rifl-scrambler.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cstdint>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

/// The frame sizes.
constexpr std::array<uint32_t, 4> kSizes{128, 256, 512, 1024};

/**
 * \param size a frame size.
 * \return its CheckSyndromes() (computed once per size).
 */
const std::vector<uint32_t>&
Syndromes(uint32_t size)
{
    static std::map<uint32_t, std::vector<uint32_t>> cache;
    auto it = cache.find(size);
    if (it == cache.end())
    {
        it = cache.emplace(size, RiflFrame::CheckSyndromes(size)).first;
    }
    return it->second;
}

/**
 * \brief The logical frame a decode result describes (for OK frames with zero padding).
 * \param s the frame size.
 * \param r the result.
 * \return the frame.
 */
RiflFrame
FrameOf(uint32_t s, const RiflFrame::DecodeResult& r)
{
    const uint32_t p = RiflFrame::PayloadBytes(s);
    if (r.kind == RiflFrame::Kind::CONTROL)
    {
        return RiflFrame::MakeControl(s, r.key);
    }
    switch (r.meta)
    {
        case RiflFrame::Meta::INVALID:
            return RiflFrame::MakeFcNotification(s, r.fc);
        case RiflFrame::Meta::MIDDLE:
            return RiflFrame::MakeData(s, r.payload.data(), p, false);
        case RiflFrame::Meta::LAST_FULL:
            return RiflFrame::MakeData(s, r.payload.data(), p, true);
        case RiflFrame::Meta::LAST_PARTIAL:
            return RiflFrame::MakeData(s, r.payload.data(), r.validBytes, true);
    }
    RIFL_FUZZ_CHECK(false, "unknown meta");
    return RiflFrame();
}

/**
 * \brief Decode mode.
 * \param in the input.
 */
void
FuzzDecode(FuzzedDataProvider& in)
{
    const uint32_t s = kSizes[in.ConsumeIntegralInRange<uint32_t>(0, 3)];
    const uint32_t width = in.ConsumeIntegralInRange<uint32_t>(1, 12);
    RiflScrambler rx(in.ConsumeIntegralInRange<uint64_t>(0, RiflScrambler::STATE_MASK));
    const uint32_t p = RiflFrame::PayloadBytes(s);
    for (int n = 0; n < 8 && in.remaining_bytes() > 0; ++n)
    {
        const uint32_t expected = in.ConsumeIntegralInRange<uint32_t>(0, (1U << width) - 1);
        std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(s / 8);
        bytes.resize(s / 8, 0);
        BitBlock line = BitBlock::FromBytes(bytes.data(), s);
        if (in.ConsumeBool())
        {
            // Repair the Verification Code so that the check passes and the
            // content paths behind it are reached.
            const uint16_t m = RiflFrame::CheckMismatch(line, expected);
            line.SetField(11, 0, line.GetField(11, 0) ^ m);
            RIFL_FUZZ_CHECK(RiflFrame::CheckMismatch(line, expected) == 0, "repaired check");
        }
        const uint64_t before = rx.GetState();
        const RiflFrame::DecodeResult r = RiflFrame::Decode(line, expected, rx, width);

        RIFL_FUZZ_CHECK(rx.GetState() == RiflFrame::ScramblerStateAfter(line),
                        "descrambler state after the frame");
        RIFL_FUZZ_CHECK(r.mismatch == RiflFrame::CheckMismatch(line, expected), "mismatch");
        RIFL_FUZZ_CHECK(r.mismatch < (1U << 12), "mismatch is 12 bits");
        RIFL_FUZZ_CHECK(r.checkPassed == (r.mismatch == 0), "checkPassed");
        RIFL_FUZZ_CHECK(r.payload.size() == p, "payload size " << r.payload.size());
        RIFL_FUZZ_CHECK(r.syncword == line.GetField(s - 1, s - 2), "syncword");
        RIFL_FUZZ_CHECK(r.validBytes <= p, "validBytes " << r.validBytes);
        const bool illegal = r.syncword == 0 || r.syncword == 3;
        RIFL_FUZZ_CHECK(illegal == (r.kind == RiflFrame::Kind::ILLEGAL), "kind");
        if (illegal)
        {
            RIFL_FUZZ_CHECK(r.status == RiflFrame::Status::BAD_SYNCWORD, "status, bad syncword");
        }
        else if (!r.checkPassed)
        {
            RIFL_FUZZ_CHECK(r.status == RiflFrame::Status::CHECK_FAILED, "status, failed check");
        }
        else if (r.kind == RiflFrame::Kind::CONTROL)
        {
            RIFL_FUZZ_CHECK((r.status == RiflFrame::Status::OK) == r.keyKnown, "status, key");
            RIFL_FUZZ_CHECK(r.status == RiflFrame::Status::OK
                                || r.status == RiflFrame::Status::UNKNOWN_KEY,
                            "status, control");
        }
        else
        {
            const bool badCount = r.meta == RiflFrame::Meta::LAST_PARTIAL
                                  && (r.payload[p - 1] == 0 || r.payload[p - 1] >= p);
            RIFL_FUZZ_CHECK(
                r.status == (badCount ? RiflFrame::Status::BAD_META_COUNT : RiflFrame::Status::OK),
                "status, data");
        }
        if (r.status == RiflFrame::Status::OK && r.paddingZero)
        {
            RiflScrambler tx(before);
            const RiflFrame f = FrameOf(s, r);
            const BitBlock again = RiflFrame::Encode(f, expected, tx, width);
            RIFL_FUZZ_CHECK(again == line, "re-encode of an OK frame: " << again.ToHex()
                                                                        << " != " << line.ToHex());
            RIFL_FUZZ_CHECK(tx.GetState() == rx.GetState(), "TX/RX scrambler states");
            RIFL_FUZZ_CHECK(f.GetValidBytes() == r.validBytes, "valid bytes");
            RIFL_FUZZ_CHECK(f.GetFcNotification() == r.fc, "FC notification");
        }
    }
}

/**
 * \brief Encode mode.
 * \param in the input.
 */
void
FuzzEncode(FuzzedDataProvider& in)
{
    const uint32_t s = kSizes[in.ConsumeIntegralInRange<uint32_t>(0, 3)];
    const uint32_t width = in.ConsumeIntegralInRange<uint32_t>(1, 12);
    const uint32_t id = in.ConsumeIntegralInRange<uint32_t>(0, (1U << width) - 1);
    const uint64_t state = in.ConsumeIntegralInRange<uint64_t>(0, RiflScrambler::STATE_MASK);
    const uint32_t p = RiflFrame::PayloadBytes(s);
    RiflFrame f;
    std::vector<uint8_t> user;
    switch (in.ConsumeIntegralInRange<int>(0, 3))
    {
        case 0:
        {
            const uint32_t len = in.ConsumeIntegralInRange<uint32_t>(1, p);
            user = in.ConsumeBytes<uint8_t>(len);
            user.resize(len, 0xA5);
            const bool last = len < p || in.ConsumeBool();
            f = RiflFrame::MakeData(s, user.data(), len, last);
            RIFL_FUZZ_CHECK(f.GetUserBytes() == user, "user bytes of a built frame");
            break;
        }
        case 1:
            f = RiflFrame::MakeFill(s);
            break;
        case 2:
            f = RiflFrame::MakeFcNotification(s, in.ConsumeBool()
                                                     ? RiflFrame::FcNotification::PAUSE
                                                     : RiflFrame::FcNotification::RESUME);
            break;
        default:
            f = RiflFrame::MakeControl(s, in.ConsumeIntegral<uint16_t>());
            break;
    }
    RiflScrambler tx(state);
    RiflScrambler rx(state);
    const BitBlock line = RiflFrame::Encode(f, id, tx, width);
    RIFL_FUZZ_CHECK(line.GetSize() == s, "line size");
    const RiflFrame::DecodeResult r = RiflFrame::Decode(line, id, rx, width);
    RIFL_FUZZ_CHECK(tx.GetState() == rx.GetState(), "TX/RX states after a clean frame");
    RIFL_FUZZ_CHECK(r.checkPassed && r.mismatch == 0, "clean frame passes the check");
    const bool unknownKey = f.GetKind() == RiflFrame::Kind::CONTROL
                            && f.GetKey() != RiflFrame::KEY_IDLE
                            && f.GetKey() != RiflFrame::KEY_PAUSE_REQUEST
                            && f.GetKey() != RiflFrame::KEY_RETRANSMIT_REQUEST;
    RIFL_FUZZ_CHECK(r.status
                        == (unknownKey ? RiflFrame::Status::UNKNOWN_KEY : RiflFrame::Status::OK),
                    "status of a clean frame " << int(r.status));
    RIFL_FUZZ_CHECK(r.paddingZero, "padding of a built frame");
    RIFL_FUZZ_CHECK(r.kind == f.GetKind(), "kind");
    if (f.GetKind() == RiflFrame::Kind::CONTROL)
    {
        RIFL_FUZZ_CHECK(r.key == f.GetKey(), "key");
    }
    else
    {
        RIFL_FUZZ_CHECK(r.meta == f.GetMeta(), "meta");
        RIFL_FUZZ_CHECK(r.payload == f.GetPayload(), "payload image");
        RIFL_FUZZ_CHECK(r.validBytes == f.GetValidBytes(), "valid bytes");
        RIFL_FUZZ_CHECK(r.fc == f.GetFcNotification(), "FC notification");
    }

    // Flip a set of line bits: the mismatch is the XOR of their syndromes.
    const std::vector<uint32_t>& syn = Syndromes(s);
    BitBlock bad = line;
    uint32_t expect = 0;
    const uint32_t flips = in.ConsumeIntegralInRange<uint32_t>(0, 16);
    for (uint32_t i = 0; i < flips; ++i)
    {
        const uint32_t b = in.ConsumeIntegralInRange<uint32_t>(0, s - 1);
        bad.Flip(b);
        expect ^= syn[b];
    }
    RIFL_FUZZ_CHECK(RiflFrame::CheckMismatch(bad, id) == expect, "affine check");
    RiflScrambler rx2(state);
    const RiflFrame::DecodeResult r2 = RiflFrame::Decode(bad, id, rx2, width);
    RIFL_FUZZ_CHECK(r2.mismatch == expect, "mismatch of the errored frame");
    RIFL_FUZZ_CHECK(rx2.GetState() == RiflFrame::ScramblerStateAfter(bad), "descrambler state");
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider in(data, size);
    if (in.ConsumeIntegral<uint8_t>() % 2 == 0)
    {
        FuzzDecode(in);
    }
    else
    {
        FuzzEncode(in);
    }
    return 0;
}

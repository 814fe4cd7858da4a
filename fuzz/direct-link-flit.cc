/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rifl
 * libFuzzer target "direct-link-flit": the direct-link 192-bit micro-packet
 * codec (DirectLinkFlit) with any odd CRC-8 generator.
 *
 * For up to 4 arbitrary 192-bit blocks (the input may ask for a valid Frame
 * byte, and for both CRC fields recomputed, to reach what lies behind them): Decode() must not
 * throw; frameOk, evenCrcOk and oddCrcOk must agree with the Frame byte and InterleaveCheck(); the
 * status must follow the precedence of direct-link-flit.h; Encode() of the decoded fields must give
 * back the block's bits [175:0] (the fields are raw), and the whole block when both CRCs passed;
 * each interleave check must be linear (check(b ^ e) = check(b) ^ check(e) for an error pattern e
 * from the input). Then Reassemble() of the decoded blocks must either throw std::invalid_argument
 * or return route.length bytes, and a message built from the input must survive Segment() ->
 * Encode() -> Decode() -> Reassemble().
 */

#include "ns3/direct-link-flit.h"

#include "fuzz-check.h"
#include "ns3/bit-block.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param in the input.
 * \return a 192-bit block from the next 24 bytes (zero padded).
 */
BitBlock
TakeBlock(FuzzedDataProvider& in)
{
    std::vector<uint8_t> bytes = in.ConsumeBytes<uint8_t>(DirectLinkFlit::FLIT_BITS / 8);
    bytes.resize(DirectLinkFlit::FLIT_BITS / 8, 0);
    return BitBlock::FromBytes(bytes.data(), DirectLinkFlit::FLIT_BITS);
}

/**
 * \brief Check one decode.
 * \param b the block.
 * \param poly the generator.
 * \param e an error pattern (192 bits).
 * \return the result.
 */
DirectLinkFlit::DecodeResult
CheckDecode(const BitBlock& b, uint32_t poly, const BitBlock& e)
{
    using S = DirectLinkFlit::DecodeStatus;
    const DirectLinkFlit::DecodeResult r = DirectLinkFlit::Decode(b, poly);
    const uint32_t c0 = DirectLinkFlit::InterleaveCheck(b, 0, poly);
    const uint32_t c1 = DirectLinkFlit::InterleaveCheck(b, 1, poly);
    RIFL_FUZZ_CHECK(r.frameOk == (b.GetField(7, 0) == DirectLinkFlit::FRAME_BYTE), "frameOk");
    RIFL_FUZZ_CHECK(r.evenCrcOk == (c0 == 0), "evenCrcOk");
    RIFL_FUZZ_CHECK(r.oddCrcOk == (c1 == 0), "oddCrcOk");
    RIFL_FUZZ_CHECK(c0 < 256 && c1 < 256, "8-bit checks");
    S want = S::OK;
    if (!r.frameOk)
    {
        want = S::BAD_FRAME_BYTE;
    }
    else if (!r.evenCrcOk || !r.oddCrcOk)
    {
        want = !r.evenCrcOk && !r.oddCrcOk ? S::CRC_BOTH_FAILED
               : !r.evenCrcOk              ? S::CRC_EVEN_FAILED
                                           : S::CRC_ODD_FAILED;
    }
    else if (DirectLinkFlit::IsReservedType(r.fields.type))
    {
        want = S::RESERVED_TYPE;
    }
    else if (!DirectLinkFlit::HasConsistentFixedFields(r.fields))
    {
        want = S::INCONSISTENT_FIELDS;
    }
    RIFL_FUZZ_CHECK(r.status == want, "status " << DirectLinkFlit::StatusName(r.status)
                                                << " expected "
                                                << DirectLinkFlit::StatusName(want));
    RIFL_FUZZ_CHECK(r.IsOk() == (r.status == S::OK), "IsOk");
    RIFL_FUZZ_CHECK(r.ChecksPassed() == (r.frameOk && r.evenCrcOk && r.oddCrcOk), "ChecksPassed");

    const BitBlock again = DirectLinkFlit::Encode(r.fields, poly);
    RIFL_FUZZ_CHECK(again.GetField(63, 0) == b.GetField(63, 0)
                        && again.GetField(127, 64) == b.GetField(127, 64)
                        && again.GetField(175, 128) == b.GetField(175, 128),
                    "re-encode of the raw fields");
    RIFL_FUZZ_CHECK(again.GetField(183, 176) == DirectLinkFlit::ComputeCrc(b, 0, poly)
                        && again.GetField(191, 184) == DirectLinkFlit::ComputeCrc(b, 1, poly),
                    "CRC fields of the re-encode");
    if (r.ChecksPassed())
    {
        RIFL_FUZZ_CHECK(again == b, "a block that passes re-encodes to itself");
    }
    // Linearity of the interleave checks.
    BitBlock be = b;
    be ^= e;
    for (uint32_t k = 0; k < 2; ++k)
    {
        RIFL_FUZZ_CHECK(DirectLinkFlit::InterleaveCheck(be, k, poly)
                            == (DirectLinkFlit::InterleaveCheck(b, k, poly)
                                ^ DirectLinkFlit::InterleaveCheck(e, k, poly)),
                        "interleave " << k << " check is linear");
    }
    // The routing word.
    const uint64_t word = DirectLinkFlit::GetRoutingWord(r.fields);
    const DirectLinkFlit::RoutingInfo ri = DirectLinkFlit::DecodeRoutingWord(word);
    const uint64_t w2 = DirectLinkFlit::EncodeRoutingWord(ri);
    RIFL_FUZZ_CHECK((w2 == word) == DirectLinkFlit::RoutingWordReservedClear(word),
                    "routing word round trip");
    DirectLinkFlit::Fields f = r.fields;
    DirectLinkFlit::SetRoutingWord(f, word);
    RIFL_FUZZ_CHECK(f == r.fields, "SetRoutingWord(GetRoutingWord())");
    return r;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider in(data, size);
    const uint32_t poly = in.ConsumeIntegral<uint8_t>() | 1U;
    const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(1, 4);
    std::vector<DirectLinkFlit::Fields> decoded;
    for (uint32_t i = 0; i < n && in.remaining_bytes() > 0; ++i)
    {
        BitBlock b = TakeBlock(in);
        const uint32_t repair = in.ConsumeIntegralInRange<uint32_t>(0, 3);
        if (repair >= 1)
        {
            // Reach the paths behind the checks: a valid Frame byte, and the CRCs.
            b.SetField(7, 0, DirectLinkFlit::FRAME_BYTE);
        }
        if (repair >= 2)
        {
            b.SetField(183, 176, DirectLinkFlit::ComputeCrc(b, 0, poly));
            b.SetField(191, 184, DirectLinkFlit::ComputeCrc(b, 1, poly));
        }
        const BitBlock e = TakeBlock(in);
        decoded.push_back(CheckDecode(b, poly, e).fields);
    }
    try
    {
        const DirectLinkFlit::Message m = DirectLinkFlit::Reassemble(decoded);
        RIFL_FUZZ_CHECK(m.bytes.size() == m.route.length, "reassembled length");
    }
    catch (const std::invalid_argument&)
    {
        // documented for a sequence that is not one message
    }

    // A message from the input survives the codec.
    const uint32_t dst = in.ConsumeIntegral<uint8_t>();
    const uint32_t src = in.ConsumeIntegral<uint8_t>();
    const uint32_t cls = in.ConsumeIntegralInRange<uint32_t>(0, 15);
    const uint32_t vc = in.ConsumeIntegralInRange<uint32_t>(0, 3);
    const std::vector<uint8_t> msg
        = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<uint32_t>(0, 400));
    const std::vector<DirectLinkFlit::Fields> seg = DirectLinkFlit::Segment(dst, src, cls, vc, msg);
    RIFL_FUZZ_CHECK(seg.size() == DirectLinkFlit::NumMicroPackets(msg.size()), "segment count");
    std::vector<DirectLinkFlit::Fields> back;
    for (const auto& f : seg)
    {
        const DirectLinkFlit::DecodeResult r
            = DirectLinkFlit::Decode(DirectLinkFlit::Encode(f, poly), poly);
        RIFL_FUZZ_CHECK(r.IsOk() && r.fields == f, "clean Data micro-packet round trip");
        back.push_back(r.fields);
    }
    const DirectLinkFlit::Message m = DirectLinkFlit::Reassemble(back);
    RIFL_FUZZ_CHECK(m.bytes == msg, "message bytes");
    RIFL_FUZZ_CHECK(m.route.dstCpu == dst && m.route.srcCpu == src && m.route.msgClass == cls
                        && m.route.length == msg.size(),
                    "message route");
    return 0;
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rifl
 * libFuzzer target "line-records": the wire formats between the halves of a split link
 * (what crosses ns-3 MPI ranks), read from arbitrary bytes.
 *
 * The first byte chooses the format and the configuration:
 *  - RIFL (RiflReferenceEngine::DecodeLineFrame) with frame size 128, 256, 512 or 1024 bits
 *    and 1..4 lanes: every input is decoded or rejected with std::invalid_argument; a
 *    decoded frame encodes (EncodeLineFrame) to bytes that decode to the same frame (slot,
 *    line bits, logical frame, ground truth) on the same lane.
 *  - direct-link (DirectLinkReferenceEngine::DecodeLineRecord) with OneWayDelaySlots 1..4 and
 *    MaxMessageBytes 0..600: decoded or std::invalid_argument; a decoded record encodes to
 *    bytes that decode to the same record; then the record, made the other side's record of
 *    slot 0, is handed to a split half that runs to the slot it is due in and two more: its
 *    notices (offers, give-ups, verdicts on messages never offered, statuses, acceptances)
 *    and its arbitrary line bits and ground truth are either taken or refused with
 *    std::runtime_error / std::invalid_argument naming what is wrong, never a crash, hang
 *    or other exception.
 */

#include "fuzz-check.h"
#include "ns3/direct-link-reference-engine.h"
#include "ns3/rifl-reference-engine.h"

#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/// \brief The RIFL line frame format. \param choice configuration byte.
/// \param data the bytes. \param size their number.
void
FuzzRifl(uint8_t choice, const uint8_t* data, size_t size)
{
    RiflLinkConfig c;
    const uint32_t sizes[] = {128, 256, 512, 1024};
    c.frameSize = sizes[choice & 3];
    c.lanes = 1 + ((choice >> 2) & 3);
    const RiflReferenceEngine e(c);
    uint32_t lane = 0;
    RiflReferenceEngine::LineFrame f;
    try
    {
        f = e.DecodeLineFrame(data, size, lane);
    }
    catch (const std::invalid_argument&)
    {
        return; // refused, with a message naming the field
    }
    RIFL_FUZZ_CHECK(lane < c.lanes, "decoded lane " << lane << " out of range");
    const std::vector<uint8_t> again = e.EncodeLineFrame(lane, f);
    uint32_t lane2 = 0;
    const RiflReferenceEngine::LineFrame g = e.DecodeLineFrame(again.data(), again.size(), lane2);
    RIFL_FUZZ_CHECK(lane2 == lane && g.lineSlot == f.lineSlot && g.bits == f.bits &&
                        g.frame == f.frame && g.tag.user == f.tag.user &&
                        g.tag.packetId == f.tag.packetId && g.tag.byteOffset == f.tag.byteOffset &&
                        g.tag.laneSeq == f.tag.laneSeq && g.tag.laneEopSeq == f.tag.laneEopSeq &&
                        g.tag.acceptSlot == f.tag.acceptSlot && g.tag.groupSeq == f.tag.groupSeq &&
                        g.tag.fcSeq == f.tag.fcSeq && g.tag.fcNotification == f.tag.fcNotification,
                    "RIFL line frame changed by encode / decode");
}

/// \return true if two direct-link records are equal. \param a one. \param b the other.
bool
Same(const DirectLinkReferenceEngine::LineRecord& a, const DirectLinkReferenceEngine::LineRecord& b)
{
    if (a.sender != b.sender || a.slot != b.slot || !(a.bits == b.bits) ||
        a.tag.messageId != b.tag.messageId || a.tag.flitIndex != b.tag.flitIndex ||
        a.tag.serial != b.tag.serial || a.tag.incarnation != b.tag.incarnation ||
        a.notices.size() != b.notices.size())
    {
        return false;
    }
    for (size_t i = 0; i < a.notices.size(); ++i)
    {
        const auto& x = a.notices[i];
        const auto& y = b.notices[i];
        if (x.kind != y.kind || x.id != y.id || x.value != y.value || x.value2 != y.value2 ||
            x.reason != y.reason || x.vc != y.vc || x.flits != y.flits || !(x.route == y.route) ||
            x.bytes != y.bytes)
        {
            return false;
        }
    }
    return true;
}

/// \brief The direct-link line record format. \param choice configuration byte.
/// \param data the bytes. \param size their number.
void
FuzzDirectLink(uint8_t choice, const uint8_t* data, size_t size)
{
    DirectLinkConfig c;
    c.oneWayDelaySlots = 1 + (choice & 3);
    c.maxMessageBytes = (choice >> 2) * 20; // 0..600
    DirectLinkReferenceEngine codec(c, nullptr, nullptr);
    DirectLinkReferenceEngine::LineRecord r;
    try
    {
        r = codec.DecodeLineRecord(data, size);
    }
    catch (const std::invalid_argument&)
    {
        return;
    }
    const std::vector<uint8_t> again = codec.EncodeLineRecord(r);
    const DirectLinkReferenceEngine::LineRecord g = codec.DecodeLineRecord(again.data(), again.size());
    RIFL_FUZZ_CHECK(Same(r, g), "direct-link line record changed by encode / decode");
    // hand it, as the other side's record of slot 0, to a half and run past its due slot
    DirectLinkReferenceEngine half(c, nullptr, nullptr);
    half.SetLocalEndpoint(1 - r.sender);
    r.slot = 0;
    try
    {
        half.ReceiveLineRecord(r);
        for (uint32_t k = 0; k <= c.oneWayDelaySlots; ++k)
        {
            half.Step();
        }
        // the next one is missing: refused without running the slot
        half.Step();
        RIFL_FUZZ_CHECK(false, "a missing record was not refused");
    }
    catch (const std::runtime_error&)
    {
        // refused (a notice on a message never offered, a missing record)
    }
    catch (const std::invalid_argument&)
    {
        // refused while applying (e.g. an offer of a message larger than the config)
    }
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
    {
        return 0;
    }
    const uint8_t choice = data[0];
    if ((choice & 0x80) != 0)
    {
        FuzzRifl(choice, data + 1, size - 1);
    }
    else
    {
        FuzzDirectLink(choice, data + 1, size - 1);
    }
    return 0;
}

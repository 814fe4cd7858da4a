/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rifl
 * libFuzzer target "error-list": the text parser of DeterministicErrorProcess's
 * "Errors" attribute ("slot:bit,bit;slot:bit"), the one list the module reads
 * from text (sweeps and scenarios pass it as an attribute value).
 *
 * Input: one byte choosing FrameBits (unset, 128, 192, 256, 512, 1024 or 65536),
 * then the text. SetErrors() must either accept it or throw
 * std::invalid_argument (never abort, never another exception). When it accepts,
 * GetErrors() must parse back to itself, and the events read with Peek()/Pop()
 * must be GetNErrorSlots() slots in strictly ascending order, each with distinct
 * ascending bits below FrameBits, and the same as the text listed.
 */

#include "fuzz-check.h"
#include "ns3/deterministic-error-process.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    static const std::array<uint32_t, 8> bitsChoice{0, 128, 192, 256, 512, 1024, 65536, 256};
    const uint32_t frameBits = bitsChoice[data[0] % bitsChoice.size()];
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    Ptr<DeterministicErrorProcess> p = CreateObject<DeterministicErrorProcess>();
    if (frameBits != 0)
    {
        p->SetFrameBits(frameBits);
    }
    try
    {
        p->SetErrors(text);
    }
    catch (const std::invalid_argument& e)
    {
        RIFL_FUZZ_CHECK(std::string(e.what()).find("Errors") != std::string::npos
                            || std::string(e.what()).find("bit") != std::string::npos,
                        "the message names the attribute: " << e.what());
        return 0;
    }
    const std::string canon = p->GetErrors();
    Ptr<DeterministicErrorProcess> q = CreateObject<DeterministicErrorProcess>();
    if (frameBits != 0)
    {
        q->SetFrameBits(frameBits);
    }
    q->SetErrors(canon);
    RIFL_FUZZ_CHECK(q->GetErrors() == canon, "GetErrors() parses back to itself: " << canon);
    RIFL_FUZZ_CHECK(q->GetNErrorSlots() == p->GetNErrorSlots(), "slot count");
    if (frameBits == 0)
    {
        // Peek() needs FrameBits; bits were checked against MAX_FRAME_BITS.
        return 0;
    }
    std::map<uint64_t, std::set<uint32_t>> seen;
    uint64_t last = 0;
    bool first = true;
    for (size_t n = 0; n <= p->GetNErrorSlots(); ++n)
    {
        const FrameErrorEvent& ev = p->Peek();
        if (ev.slot == FrameErrorEvent::NO_MORE_ERRORS)
        {
            break;
        }
        RIFL_FUZZ_CHECK(first || ev.slot > last, "ascending slots");
        RIFL_FUZZ_CHECK(!ev.bits.empty(), "an event has bits");
        for (size_t i = 0; i < ev.bits.size(); ++i)
        {
            RIFL_FUZZ_CHECK(ev.bits[i] < frameBits, "bit below FrameBits");
            RIFL_FUZZ_CHECK(i == 0 || ev.bits[i] > ev.bits[i - 1], "distinct ascending bits");
        }
        seen[ev.slot].insert(ev.bits.begin(), ev.bits.end());
        first = false;
        last = ev.slot;
        p->Pop();
    }
    RIFL_FUZZ_CHECK(p->Peek().slot == FrameErrorEvent::NO_MORE_ERRORS, "no more events");
    RIFL_FUZZ_CHECK(seen.size() == q->GetNErrorSlots(), "every listed slot is an event");
    std::string again;
    for (const auto& [slot, bits] : seen)
    {
        again += (again.empty() ? "" : ";") + std::to_string(slot) + ":";
        bool firstBit = true;
        for (uint32_t b : bits)
        {
            again += (firstBit ? "" : ",") + std::to_string(b);
            firstBit = false;
        }
    }
    RIFL_FUZZ_CHECK(again == canon, "events " << again << " != list " << canon);
    return 0;
}

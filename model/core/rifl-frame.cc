/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-frame.h"

#include "crc-engine.h"
#include "ns3/log.h"
#include "rifl-check.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflFrame");

namespace
{

/// Syncword of a Data frame.
constexpr uint64_t SYNC_DATA = 0x1;
/// Syncword of a Control frame.
constexpr uint64_t SYNC_CONTROL = 0x2;
/// Bottom bit of the scrambled field (just above the Verification Code).
constexpr uint32_t SCRAMBLED_LSB = 12;
/// Most bytes moved per field access (7 bytes = 56 bits < 64).
constexpr uint32_t BYTES_PER_ACCESS = 7;

/**
 * \brief Write bytes into a block in line order, byte 0 in [top:top-7].
 * \param b the block.
 * \param top the top bit of byte 0.
 * \param bytes the bytes.
 * \param count how many.
 */
void
WriteBytes(BitBlock& b, uint32_t top, const uint8_t* bytes, uint32_t count)
{
    uint32_t k = 0;
    while (k < count)
    {
        const uint32_t m = std::min(BYTES_PER_ACCESS, count - k);
        uint64_t v = 0;
        for (uint32_t j = 0; j < m; ++j)
        {
            v = (v << 8) | bytes[k + j];
        }
        const uint32_t msb = top - 8 * k;
        b.SetField(msb, msb + 1 - 8 * m, v);
        k += m;
    }
}

/**
 * \brief Read bytes from a block in line order, byte 0 from [top:top-7].
 * \param b the block.
 * \param top the top bit of byte 0.
 * \param bytes where to put them.
 * \param count how many.
 */
void
ReadBytes(const BitBlock& b, uint32_t top, uint8_t* bytes, uint32_t count)
{
    uint32_t k = 0;
    while (k < count)
    {
        const uint32_t m = std::min(BYTES_PER_ACCESS, count - k);
        const uint32_t msb = top - 8 * k;
        uint64_t v = b.GetField(msb, msb + 1 - 8 * m);
        for (uint32_t j = m; j-- > 0;)
        {
            bytes[k + j] = static_cast<uint8_t>(v & 0xFF);
            v >>= 8;
        }
        k += m;
    }
}

/**
 * \brief Validate a Frame ID width.
 * \param frameIdWidth the width.
 */
void
CheckWidth(uint32_t frameIdWidth)
{
    RIFL_CHECK_ARG(frameIdWidth < 1 || frameIdWidth > RiflFrame::MAX_FRAME_ID_WIDTH,
                   "RiflFrame: frameIdWidth = " << frameIdWidth << " is out of range [1, "
                                                << RiflFrame::MAX_FRAME_ID_WIDTH << "]");
}

/**
 * \param key a control key.
 * \return true if it is Idle, Pause Request or Re-transmit Request.
 */
bool
IsKnownKey(uint16_t key)
{
    return key == RiflFrame::KEY_IDLE || key == RiflFrame::KEY_PAUSE_REQUEST
           || key == RiflFrame::KEY_RETRANSMIT_REQUEST;
}

} // namespace

RiflFrame::RiflFrame()
    : RiflFrame(256)
{
}

RiflFrame::RiflFrame(uint32_t frameSize)
    : m_frameSize(frameSize),
      m_payload(PayloadBytes(frameSize), 0)
{
}

void
RiflFrame::CheckFrameSize(uint32_t frameSize)
{
    RIFL_CHECK_ARG(frameSize != 128 && frameSize != 256 && frameSize != 512 && frameSize != 1024,
                   "RiflFrame: FrameSize = " << frameSize << " is not one of 128, 256, 512, 1024");
}

uint32_t
RiflFrame::PayloadBytes(uint32_t frameSize)
{
    CheckFrameSize(frameSize);
    return (frameSize - 16) / 8;
}

RiflFrame
RiflFrame::MakeData(uint32_t frameSize, const uint8_t* data, std::size_t length, bool last)
{
    const uint32_t p = PayloadBytes(frameSize);
    RIFL_CHECK_ARG(length < 1 || length > p,
                   "RiflFrame::MakeData: length = " << length << " is out of range [1, " << p
                                                    << "] for FrameSize " << frameSize);
    RIFL_CHECK_ARG(!last && length != p,
                   "RiflFrame::MakeData: length = " << length << " must be " << p
                                                    << " (a full payload) for a non-last frame");
    RIFL_CHECK_ARG(data == nullptr, "RiflFrame::MakeData: data = null with length = " << length);
    RiflFrame f(frameSize); // one allocation, the payload image zeroed
    std::copy(data, data + length, f.m_payload.begin());
    if (!last)
    {
        f.m_meta = Meta::MIDDLE;
    }
    else if (length == p)
    {
        f.m_meta = Meta::LAST_FULL;
    }
    else
    {
        f.m_meta = Meta::LAST_PARTIAL;
        f.m_payload[p - 1] = static_cast<uint8_t>(length);
    }
    return f;
}

RiflFrame
RiflFrame::MakeFill(uint32_t frameSize)
{
    return RiflFrame(frameSize);
}

RiflFrame
RiflFrame::MakeFcNotification(uint32_t frameSize, FcNotification fc)
{
    RIFL_CHECK_ARG(static_cast<uint32_t>(fc) > 2,
                   "RiflFrame::MakeFcNotification: fc = " << static_cast<uint32_t>(fc)
                                                          << " is out of range [0, 2]");
    RiflFrame f = MakeFill(frameSize);
    f.m_payload.back() = static_cast<uint8_t>(fc);
    return f;
}

RiflFrame
RiflFrame::MakeControl(uint32_t frameSize, uint16_t key)
{
    RiflFrame f = MakeFill(frameSize);
    f.m_kind = Kind::CONTROL;
    f.m_key = key;
    return f;
}

RiflFrame
RiflFrame::MakeIdle(uint32_t frameSize)
{
    return MakeControl(frameSize, KEY_IDLE);
}

RiflFrame
RiflFrame::MakePauseRequest(uint32_t frameSize)
{
    return MakeControl(frameSize, KEY_PAUSE_REQUEST);
}

RiflFrame
RiflFrame::MakeRetransmitRequest(uint32_t frameSize)
{
    return MakeControl(frameSize, KEY_RETRANSMIT_REQUEST);
}

uint32_t
RiflFrame::FramesForPacket(uint32_t frameSize, std::size_t packetBytes)
{
    const uint32_t p = PayloadBytes(frameSize);
    RIFL_CHECK_ARG(packetBytes < 1,
                   "RiflFrame: packetBytes = " << packetBytes << " is out of range [1, inf)");
    return static_cast<uint32_t>((packetBytes + p - 1) / p);
}

std::vector<RiflFrame>
RiflFrame::CutPacket(uint32_t frameSize, const std::vector<uint8_t>& packet)
{
    const uint32_t n = FramesForPacket(frameSize, packet.size());
    const uint32_t p = PayloadBytes(frameSize);
    std::vector<RiflFrame> frames;
    frames.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        const std::size_t offset = static_cast<std::size_t>(i) * p;
        const std::size_t len = std::min<std::size_t>(p, packet.size() - offset);
        frames.push_back(MakeData(frameSize, packet.data() + offset, len, i + 1 == n));
    }
    return frames;
}

std::vector<uint8_t>
RiflFrame::Reassemble(const std::vector<RiflFrame>& frames)
{
    RIFL_CHECK_ARG(frames.empty(), "RiflFrame::Reassemble: frames is empty (size 0, need >= 1)");
    std::vector<uint8_t> out;
    const uint32_t size = frames.front().m_frameSize;
    for (std::size_t i = 0; i < frames.size(); ++i)
    {
        const RiflFrame& f = frames[i];
        const bool last = i + 1 == frames.size();
        RIFL_CHECK_ARG(f.m_frameSize != size, "RiflFrame::Reassemble: frames["
                                                  << i << "] has FrameSize " << f.m_frameSize
                                                  << ", frames[0] has " << size);
        const bool ok = f.m_kind == Kind::DATA
                        && (last ? (f.m_meta == Meta::LAST_FULL || f.m_meta == Meta::LAST_PARTIAL)
                                 : f.m_meta == Meta::MIDDLE);
        RIFL_CHECK_ARG(!ok, "RiflFrame::Reassemble: frames["
                                << i << "] has meta " << static_cast<int>(f.m_meta) << " (kind "
                                << static_cast<int>(f.m_kind) << "); allowed: Data meta "
                                << (last ? "10/11 (last frame)" : "01 (middle frame)"));
        RIFL_CHECK_ARG(f.GetValidBytes() == 0,
                       "RiflFrame::Reassemble: frames[" << i << "] has a byte count of 0");
        const std::vector<uint8_t> bytes = f.GetUserBytes();
        out.insert(out.end(), bytes.begin(), bytes.end());
    }
    return out;
}

BitBlock
RiflFrame::Encode(const RiflFrame& frame, uint32_t frameId, RiflScrambler& tx,
                  uint32_t frameIdWidth)
{
    CheckWidth(frameIdWidth);
    RIFL_CHECK_ARG(frameId >= (1U << frameIdWidth),
                   "RiflFrame::Encode: frameId = " << frameId << " is out of range [0, "
                                                   << ((1U << frameIdWidth) - 1)
                                                   << "] for frameIdWidth " << frameIdWidth);
    const uint32_t s = frame.m_frameSize;
    BitBlock b(s);
    if (frame.m_kind == Kind::CONTROL)
    {
        b.SetField(s - 1, s - 2, SYNC_CONTROL);
        b.SetField(s - 3, s - 18, frame.m_key);
    }
    else
    {
        b.SetField(s - 1, s - 2, SYNC_DATA);
        b.SetField(s - 3, s - 4, static_cast<uint64_t>(frame.m_meta));
        WriteBytes(b, s - 5, frame.m_payload.data(), static_cast<uint32_t>(frame.m_payload.size()));
    }
    tx.Scramble(b, s - 3, SCRAMBLED_LSB);
    b.SetField(11, 0, CrcEngine::RiflCrc12(b) ^ frameId);
    return b;
}

uint16_t
RiflFrame::CheckMismatch(const BitBlock& line, uint32_t expectedFrameId)
{
    CheckFrameSize(line.GetSize());
    return static_cast<uint16_t>(
        (line.GetField(11, 0) ^ CrcEngine::RiflCrc12(line) ^ expectedFrameId) & 0xFFF);
}

RiflFrame::DecodeResult
RiflFrame::Decode(const BitBlock& line, uint32_t expectedFrameId, RiflScrambler& rx,
                  uint32_t frameIdWidth)
{
    const uint32_t s = line.GetSize();
    CheckFrameSize(s);
    CheckWidth(frameIdWidth);
    RIFL_CHECK_ARG(expectedFrameId >= (1U << frameIdWidth),
                   "RiflFrame::Decode: expectedFrameId = "
                       << expectedFrameId << " is out of range [0, " << ((1U << frameIdWidth) - 1)
                       << "] for frameIdWidth " << frameIdWidth);
    const uint32_t p = (s - 16) / 8;

    DecodeResult r;
    r.syncword = static_cast<uint8_t>(line.GetField(s - 1, s - 2));
    r.kind = r.syncword == SYNC_DATA      ? Kind::DATA
             : r.syncword == SYNC_CONTROL ? Kind::CONTROL
                                          : Kind::ILLEGAL;
    // The check runs on the line bits, before descrambling.
    r.mismatch = CheckMismatch(line, expectedFrameId);
    r.checkPassed = r.mismatch == 0;

    // The descrambler always consumes the frame's scrambled bits.
    BitBlock clear = line;
    rx.Descramble(clear, s - 3, SCRAMBLED_LSB);
    r.key = static_cast<uint16_t>(clear.GetField(s - 3, s - 18));
    r.keyKnown = IsKnownKey(r.key);
    r.meta = static_cast<Meta>(clear.GetField(s - 3, s - 4));
    r.payload.resize(p);
    ReadBytes(clear, s - 5, r.payload.data(), p);

    bool badCount = false;
    if (r.kind == Kind::DATA)
    {
        const uint8_t lastByte = r.payload[p - 1];
        switch (r.meta)
        {
            case Meta::INVALID:
                r.validBytes = 0;
                r.fc = lastByte == 1   ? FcNotification::PAUSE
                       : lastByte == 2 ? FcNotification::RESUME
                                       : FcNotification::NONE;
                r.paddingZero = lastByte <= 2
                                && std::all_of(r.payload.begin(), r.payload.end() - 1,
                                               [](uint8_t v)
                                               {
                                                   return v == 0;
                                               });
                break;
            case Meta::LAST_PARTIAL:
                badCount = lastByte == 0 || lastByte >= p;
                r.validBytes = badCount ? 0 : lastByte;
                r.paddingZero = !badCount
                                && std::all_of(r.payload.begin() + lastByte, r.payload.end() - 1,
                                               [](uint8_t v)
                                               {
                                                   return v == 0;
                                               });
                break;
            case Meta::MIDDLE:
            case Meta::LAST_FULL:
                r.validBytes = p;
                break;
        }
    }
    else if (r.kind == Kind::CONTROL)
    {
        // The zeros after the key: [s-19:12].
        for (uint32_t top = s - 19; top >= SCRAMBLED_LSB && r.paddingZero;)
        {
            const uint32_t n = std::min<uint32_t>(64, top - SCRAMBLED_LSB + 1);
            r.paddingZero = clear.GetField(top, top + 1 - n) == 0;
            if (top + 1 - n == SCRAMBLED_LSB)
            {
                break;
            }
            top -= n;
        }
    }

    if (r.kind == Kind::ILLEGAL)
    {
        r.status = Status::BAD_SYNCWORD;
    }
    else if (!r.checkPassed)
    {
        r.status = Status::CHECK_FAILED;
    }
    else if (r.kind == Kind::CONTROL && !r.keyKnown)
    {
        r.status = Status::UNKNOWN_KEY;
    }
    else if (badCount)
    {
        r.status = Status::BAD_META_COUNT;
    }
    else
    {
        r.status = Status::OK;
    }
    NS_LOG_LOGIC("Decode: sync " << static_cast<int>(r.syncword) << " mismatch " << r.mismatch
                                 << " status " << static_cast<int>(r.status));
    return r;
}

std::vector<uint32_t>
RiflFrame::CheckSyndromes(uint32_t frameSize)
{
    CheckFrameSize(frameSize);
    // Flip each line bit of a reference frame through the real check. The
    // reference is a real encoded frame (any frame gives the same map, the
    // check being affine; a nonzero one exercises that claim in the tests).
    RiflScrambler tx;
    const BitBlock ref = Encode(MakeIdle(frameSize), 0, tx);
    const uint16_t base = CheckMismatch(ref, 0);
    std::vector<uint32_t> syn(frameSize);
    for (uint32_t i = 0; i < frameSize; ++i)
    {
        BitBlock b = ref;
        b.Flip(i);
        syn[i] = CheckMismatch(b, 0) ^ base;
    }
    return syn;
}

uint64_t
RiflFrame::ScramblerStateAfter(const BitBlock& line)
{
    CheckFrameSize(line.GetSize());
    return line.GetField(SCRAMBLED_LSB + RiflScrambler::STATE_BITS - 1, SCRAMBLED_LSB);
}

uint32_t
RiflFrame::WrapFrameId(uint64_t counter, uint32_t frameIdWidth)
{
    CheckWidth(frameIdWidth);
    return static_cast<uint32_t>(counter & ((uint64_t{1} << frameIdWidth) - 1));
}

uint32_t
RiflFrame::GetValidBytes() const
{
    if (m_kind != Kind::DATA)
    {
        return 0;
    }
    switch (m_meta)
    {
        case Meta::MIDDLE:
        case Meta::LAST_FULL:
            return static_cast<uint32_t>(m_payload.size());
        case Meta::LAST_PARTIAL:
        {
            const uint32_t c = m_payload.back();
            return c < m_payload.size() ? c : 0;
        }
        case Meta::INVALID:
            break;
    }
    return 0;
}

std::vector<uint8_t>
RiflFrame::GetUserBytes() const
{
    const uint32_t n = GetValidBytes();
    return std::vector<uint8_t>(m_payload.begin(), m_payload.begin() + n);
}

RiflFrame::FcNotification
RiflFrame::GetFcNotification() const
{
    if (m_kind != Kind::DATA || m_meta != Meta::INVALID)
    {
        return FcNotification::NONE;
    }
    const uint8_t last = m_payload.back();
    return last == 1 ? FcNotification::PAUSE
                     : (last == 2 ? FcNotification::RESUME : FcNotification::NONE);
}

bool
RiflFrame::operator==(const RiflFrame& other) const
{
    return m_frameSize == other.m_frameSize && m_kind == other.m_kind && m_meta == other.m_meta
           && m_key == other.m_key && m_payload == other.m_payload;
}

} // namespace ns3

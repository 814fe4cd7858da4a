/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_FRAME_H
#define RIFL_FRAME_H

#include "bit-block.h"
#include "rifl-scrambler.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief A RIFL frame (logical content) and its line codec.
 *
 * Line layout of an S-bit frame (S = 128, 256, 512 or 1024), MSB first
 * (rifl-protocol.md §1):
 * - Data frame: [S-1:S-2] Syncword 01, [S-3:S-4] Meta, [S-5:12] payload of
 *   S-16 bits = (S-16)/8 bytes (user byte 0 in [S-5:S-12]), [11:0] Verification Code;
 * - Control frame: [S-1:S-2] Syncword 10, [S-3:S-18] 16-bit key, [S-19:12]
 *   zeros, [11:0] Verification Code.
 *
 * Encode() scrambles [S-3:12] (Meta+payload, or key+zeros) with the TX
 * scrambler, whose state runs on from frame to frame over these bits only;
 * the Syncword and Verification Code go in the clear. The Verification Code
 * is CrcEngine::RiflCrc12() of the *scrambled* frame (Syncword included,
 * [11:0] taken as zero) XOR the Frame ID. Decode() checks first, on the line
 * bits, then descrambles.
 *
 * A RiflFrame value holds the logical content: the kind, and for a Data frame
 * its Meta code and raw payload image (payload bytes in line order, the byte
 * count of a Meta-10 frame included in the last byte), for a Control frame its
 * key. Build one with the Make...() helpers or CutPacket().
 */
class RiflFrame
{
  public:
    /// Frame kind, from the Syncword.
    enum class Kind : uint8_t
    {
        DATA,    //!< Syncword 01
        CONTROL, //!< Syncword 10
        ILLEGAL, //!< Syncword 00 or 11 (only in decode results)
    };

    /// Meta code of a Data frame (§1.3).
    enum class Meta : uint8_t
    {
        INVALID = 0,      //!< 00: invalid/fill frame or FC notification
        MIDDLE = 1,       //!< 01: full frame in the middle of a packet
        LAST_PARTIAL = 2, //!< 10: last frame, partly full; byte count in payload bits 7:0
        LAST_FULL = 3,    //!< 11: last frame, full
    };

    /// Flow-control notification carried by a Meta-00 Data frame (§1.4).
    enum class FcNotification : uint8_t
    {
        NONE = 0,   //!< last payload byte 0x00 (plain invalid frame) or not a notification
        PAUSE = 1,  //!< last payload byte 0x01 (FC_ON)
        RESUME = 2, //!< last payload byte 0x02 (FC_OFF)
    };

    /// Outcome of Decode(), most severe first.
    enum class Status : uint8_t
    {
        OK,             //!< legal Syncword, check passed, content well formed
        BAD_SYNCWORD,   //!< Syncword 00 or 11 (takes precedence over the check)
        CHECK_FAILED,   //!< CRC/Frame ID mismatch (legal Syncword)
        UNKNOWN_KEY,    //!< Control frame, check passed, key not Idle/Pause/Re-transmit
        BAD_META_COUNT, //!< Meta-10 frame, check passed, byte count 0 or >= payload bytes
    };

    /// Control key of an Idle frame.
    static constexpr uint16_t KEY_IDLE = 0x0001;
    /// Control key of a Pause Request.
    static constexpr uint16_t KEY_PAUSE_REQUEST = 0x0010;
    /// Control key of a Re-transmit Request.
    static constexpr uint16_t KEY_RETRANSMIT_REQUEST = 0x1000;
    /// Width of the Verification Code, hence the largest Frame ID width.
    static constexpr uint32_t MAX_FRAME_ID_WIDTH = 12;

    /**
     * \brief Everything Decode() learns from one frame.
     *
     * The descrambled fields are always filled, whatever the status, so that
     * the protocol engine can apply §11.6: a Control frame that fails the check
     * still counts toward its key's 8-in-a-row when its 16 key bits survived
     * (checkPassed false, keyKnown true).
     */
    struct DecodeResult
    {
        Status status{Status::CHECK_FAILED};     //!< classification
        Kind kind{Kind::ILLEGAL};                //!< from the Syncword
        uint8_t syncword{0};                     //!< the raw Syncword bits [S-1:S-2]
        bool checkPassed{false};                 //!< CRC XOR expected ID matched (any Syncword)
        uint16_t mismatch{0};                    //!< received code ^ CRC ^ expected ID (0 = passed)
        uint16_t key{0};                         //!< descrambled bits [S-3:S-18]
        bool keyKnown{false};                    //!< key is Idle, Pause or Re-transmit Request
        Meta meta{Meta::INVALID};                //!< descrambled bits [S-3:S-4]
        std::vector<uint8_t> payload;            //!< descrambled [S-5:12] as (S-16)/8 bytes
        uint32_t validBytes{0};                  //!< user bytes: 0 (meta 00 or bad count),
                                                 //!< count (meta 10), all (meta 01/11)
        FcNotification fc{FcNotification::NONE}; //!< Data frame, meta 00, last byte 1/2
        bool paddingZero{true}; //!< unused payload bits are zero (information only:
                                //!< the RTL does not check them, so neither does status)
    };

    /// \brief A Meta-00 fill frame of 256 bits.
    RiflFrame();

    /**
     * \brief Check a frame size.
     * \param frameSize the size in bits; must be 128, 256, 512 or 1024
     *        (std::invalid_argument naming "FrameSize" otherwise).
     */
    static void CheckFrameSize(uint32_t frameSize);

    /**
     * \param frameSize 128, 256, 512 or 1024 (validated).
     * \return the payload size in bytes, (frameSize - 16) / 8.
     */
    static uint32_t PayloadBytes(uint32_t frameSize);

    /**
     * \brief A Data frame carrying user bytes.
     * \param frameSize 128, 256, 512 or 1024.
     * \param data the bytes (first byte goes first on the line).
     * \param length 1..PayloadBytes(frameSize); must equal PayloadBytes() unless \p last
     *        (std::invalid_argument naming "length" otherwise).
     * \param last true for the last frame of a packet: Meta 11 if full, else
     *        Meta 10 with the byte count in the last payload byte; false: Meta 01.
     * \return the frame.
     */
    static RiflFrame MakeData(uint32_t frameSize, const uint8_t* data, std::size_t length,
                              bool last);

    /**
     * \param frameSize 128, 256, 512 or 1024.
     * \return an invalid/fill Data frame (Meta 00, zero payload).
     */
    static RiflFrame MakeFill(uint32_t frameSize);

    /**
     * \param frameSize 128, 256, 512 or 1024.
     * \param fc PAUSE (last payload byte 0x01) or RESUME (0x02); NONE gives a fill frame.
     * \return a flow-control notification Data frame (Meta 00).
     */
    static RiflFrame MakeFcNotification(uint32_t frameSize, FcNotification fc);

    /**
     * \param frameSize 128, 256, 512 or 1024.
     * \param key any 16-bit key (unknown keys are allowed, for tests).
     * \return a Control frame.
     */
    static RiflFrame MakeControl(uint32_t frameSize, uint16_t key);

    /**
     * \param frameSize 128, 256, 512 or 1024.
     * \return an Idle Control frame (key 0x0001).
     */
    static RiflFrame MakeIdle(uint32_t frameSize);

    /**
     * \param frameSize 128, 256, 512 or 1024.
     * \return a Pause Request Control frame (key 0x0010).
     */
    static RiflFrame MakePauseRequest(uint32_t frameSize);

    /**
     * \param frameSize 128, 256, 512 or 1024.
     * \return a Re-transmit Request Control frame (key 0x1000).
     */
    static RiflFrame MakeRetransmitRequest(uint32_t frameSize);

    /**
     * \param frameSize 128, 256, 512 or 1024.
     * \param packetBytes the packet size, >= 1 (std::invalid_argument naming
     *        "packetBytes" otherwise).
     * \return ceil(packetBytes / PayloadBytes(frameSize)).
     */
    static uint32_t FramesForPacket(uint32_t frameSize, std::size_t packetBytes);

    /**
     * \brief Cut a packet into Data frames (Meta 01 ..., then 11 or 10).
     * \param frameSize 128, 256, 512 or 1024.
     * \param packet the packet bytes, not empty (std::invalid_argument naming
     *        "packetBytes" otherwise).
     * \return FramesForPacket() frames.
     */
    static std::vector<RiflFrame> CutPacket(uint32_t frameSize, const std::vector<uint8_t>& packet);

    /**
     * \brief Rebuild a packet from its frames.
     * \param frames Data frames: Meta 01 ... then one Meta 10/11, all of one size
     *        (std::invalid_argument naming "frames" otherwise).
     * \return the concatenated user bytes.
     */
    static std::vector<uint8_t> Reassemble(const std::vector<RiflFrame>& frames);

    /**
     * \brief Encode a frame into line bits.
     * \param frame the logical frame.
     * \param frameId the TX Frame ID, below 2^frameIdWidth (std::invalid_argument
     *        naming "frameId" otherwise).
     * \param tx the TX scrambler; advanced by the frame's S-14 scrambled bits.
     * \param frameIdWidth the Frame ID width, 1..12 (std::invalid_argument naming
     *        "frameIdWidth" otherwise).
     * \return the S line bits.
     */
    static BitBlock Encode(const RiflFrame& frame, uint32_t frameId, RiflScrambler& tx,
                           uint32_t frameIdWidth = MAX_FRAME_ID_WIDTH);

    /**
     * \brief Check and decode line bits. Never throws on the bit content.
     *
     * The descrambler always consumes the frame's S-14 scrambled bits, whatever
     * the outcome, so its state stays continuous.
     *
     * \param line the received frame; its size must be 128, 256, 512 or 1024
     *        (std::invalid_argument naming "FrameSize" otherwise).
     * \param expectedFrameId the Frame ID the receiver expects, below
     *        2^frameIdWidth (std::invalid_argument naming "expectedFrameId" otherwise).
     * \param rx the RX descrambler.
     * \param frameIdWidth 1..12 (std::invalid_argument naming "frameIdWidth" otherwise).
     * \return the result.
     */
    static DecodeResult Decode(const BitBlock& line, uint32_t expectedFrameId, RiflScrambler& rx,
                               uint32_t frameIdWidth = MAX_FRAME_ID_WIDTH);

    /**
     * \brief The check's mismatch value: line[11:0] ^ RiflCrc12(line) ^ expectedFrameId.
     *
     * This is exactly what Decode() compares with zero. It is affine in the line
     * bits (a zero-initialised CRC without final XOR is linear), so flipping a
     * set of line bits changes it by the XOR of their syndromes (CheckSyndromes()).
     *
     * \param line a frame of 128, 256, 512 or 1024 bits.
     * \param expectedFrameId the expected Frame ID (any 12-bit value).
     * \return the 12-bit mismatch (0 = the check passes).
     */
    static uint16_t CheckMismatch(const BitBlock& line, uint32_t expectedFrameId);

    /**
     * \brief The syndrome map of the real CRC/Frame ID check.
     *
     * s_i is the change of CheckMismatch() when line bit i alone is flipped,
     * measured by flipping each bit of a frame through the real computation
     * (not from a textbook formula). Because the check is affine, a line error
     * pattern e is missed by the check iff the XOR of s_i over e's bits is 0,
     * whatever the frame, so this map describes the check completely
     * (WeightSpectrum takes it). Bits S-1 and S-2 are the Syncword: a pattern
     * flipping exactly one of them makes the Syncword illegal, so the frame is
     * rejected regardless of the check.
     *
     * \param frameSize 128, 256, 512 or 1024.
     * \return frameSize syndromes, index = line bit.
     */
    static std::vector<uint32_t> CheckSyndromes(uint32_t frameSize);

    /**
     * \brief The scrambler state right after a frame went through it.
     *
     * The state is the last 33 scrambled line bits, i.e. line bits [44:12],
     * for TX and RX alike (the frame's scrambled field is longer than 33 bits).
     *
     * \param line a frame of 128, 256, 512 or 1024 line bits.
     * \return the state (RiflScrambler layout).
     */
    static uint64_t ScramblerStateAfter(const BitBlock& line);

    /**
     * \param counter any Frame ID counter value.
     * \param frameIdWidth 1..12 (std::invalid_argument naming "frameIdWidth" otherwise).
     * \return counter mod 2^frameIdWidth.
     */
    static uint32_t WrapFrameId(uint64_t counter, uint32_t frameIdWidth);

    /// \return the frame size in bits.
    uint32_t GetFrameSize() const;

    /// \return the kind (DATA or CONTROL).
    Kind GetKind() const;

    /// \return the Meta code (Data frames; INVALID for Control frames).
    Meta GetMeta() const;

    /// \return the control key (Control frames; 0 for Data frames).
    uint16_t GetKey() const;

    /// \return the raw payload image, PayloadBytes() bytes (zeros for Control frames).
    const std::vector<uint8_t>& GetPayload() const;

    /// \return the user bytes carried (none for Meta 00 and Control frames).
    std::vector<uint8_t> GetUserBytes() const;

    /// \return the number of user bytes carried.
    uint32_t GetValidBytes() const;

    /// \return the FC notification (NONE unless a Meta-00 Data frame with last byte 1/2).
    FcNotification GetFcNotification() const;

    /**
     * \param other another frame.
     * \return true if size, kind, meta, key and payload image are equal.
     */
    bool operator==(const RiflFrame& other) const;

  private:
    /**
     * \brief A Meta-00 fill frame of the given size (its payload image allocated once).
     * \param frameSize 128, 256, 512 or 1024 (checked).
     */
    explicit RiflFrame(uint32_t frameSize);

    uint32_t m_frameSize{256};      //!< frame size in bits
    Kind m_kind{Kind::DATA};        //!< DATA or CONTROL
    Meta m_meta{Meta::INVALID};     //!< Meta code (Data)
    uint16_t m_key{0};              //!< control key (Control)
    std::vector<uint8_t> m_payload; //!< payload image, PayloadBytes() bytes
};

// The accessors every received frame slot reads, inline.

inline uint32_t
RiflFrame::GetFrameSize() const
{
    return m_frameSize;
}

inline RiflFrame::Kind
RiflFrame::GetKind() const
{
    return m_kind;
}

inline RiflFrame::Meta
RiflFrame::GetMeta() const
{
    return m_meta;
}

inline uint16_t
RiflFrame::GetKey() const
{
    return m_key;
}

inline const std::vector<uint8_t>&
RiflFrame::GetPayload() const
{
    return m_payload;
}

} // namespace ns3

#endif /* RIFL_FRAME_H */

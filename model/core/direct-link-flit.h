/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_FLIT_H
#define DIRECT_LINK_FLIT_H

#include "bit-block.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief Codec of the direct-link 192-bit micro-packet (flit), its routing word
 *        and its error-check syndrome maps.
 *
 * Line layout (bit 0 = LSB, see BitBlock):
 *
 * | bits      | field   |
 * |-----------|---------|
 * | [7:0]     | Frame, 0xAA in a valid micro-packet |
 * | [12:8]    | AskNo   |
 * | [17:13]   | SndNo   |
 * | [21:18]   | Crdt (Crdt[n] = one credit of VC n) |
 * | [23:22]   | VC      |
 * | [24]      | Tail    |
 * | [25]      | Header  |
 * | [29:26]   | PktType |
 * | [30]      | NcErr   |
 * | [31]      | NetErr  |
 * | [175:32]  | Data (144 bits); Data bit j is line bit 32 + j |
 * | [183:176] | CRC80 (even interleave) |
 * | [191:184] | CRC81 (odd interleave)  |
 *
 * **Decision (CRC computation).** CRC80 is the CRC-8 of the 88 even line bits
 * of [175:0], fed MSB first (bit 174, 172, ..., 2, 0); CRC81 is the CRC-8 of
 * the 88 odd line bits, fed bit 175, 173, ..., 3, 1. Register initialised to 0,
 * no input or output reflection, no final XOR (CrcEngine's convention). The
 * generator is a parameter, default 0x07 (x^8+x^2+x+1). The Frame byte is
 * covered by both CRCs (its even bits by CRC80, its odd bits by CRC81).
 *
 * **Interleave codewords.** Interleave 0 (even) is the 96-bit codeword formed by
 * line bits {0, 2, ..., 174} (88 covered bits) and [183:176] (its CRC).
 * Interleave 1 (odd) is line bits {1, 3, ..., 175} and [191:184]. Every line
 * bit belongs to exactly one interleave. The check of interleave k is
 * InterleaveCheck() = (CRC recomputed over its covered bits) XOR (its stored
 * CRC field); the interleave accepts iff the check is 0. The check is linear,
 * so the syndrome of an error pattern is the XOR of the single-bit syndromes
 * of SyndromeMap().
 *
 * **Decision (data byte order).** Fields::data[k] holds Data[8k+7:8k], i.e.
 * line bits [32+8k+7 : 32+8k]; data[k] bit b is Data bit 8k+b. "First" means
 * "lowest": the routing word of a header Data micro-packet is Data[63:0]
 * (line bits [95:32], data[0..7], data[0] least significant), and message
 * bytes fill data[] upward after it (see Segment()).
 *
 * **Decision (routing word layout)**, a 64-bit little-endian word in Data[63:0]:
 * [7:0] destination CPU, [15:8] source CPU, [19:16] message class,
 * [35:20] message length in bytes (0..65535), [63:36] reserved, written as 0.
 *
 * **Decision (fixed fields on receive).** A micro-packet that passes the Frame
 * byte and both CRCs but is an Init, Init-Ack, Null or Credit whose fixed
 * fields differ from the spec's values gets the *status*
 * DecodeStatus::INCONSISTENT_FIELDS (so a strict receiver discards it); the
 * decoded fields are still returned, so a lenient receiver may use them. The
 * Data field of Init / Init-Ack / Null / Credit is written as zero and not
 * checked. Sequence-number ranges (0..30) are the Go-Back-N engine's business,
 * not the codec's, except for the fixed values listed in the builders.
 *
 * Decode() never throws nor crashes on any 192-bit pattern.
 */
class DirectLinkFlit
{
  public:
    /// Micro-packet size in bits.
    static constexpr uint32_t FLIT_BITS = 192;
    /// The Frame byte of a valid micro-packet.
    static constexpr uint8_t FRAME_BYTE = 0xAA;
    /// Default CRC-8 generator x^8+x^2+x+1 (normal notation, no x^8 term).
    static constexpr uint32_t DEFAULT_POLY = 0x07;
    /// Data bits per micro-packet.
    static constexpr uint32_t DATA_BITS = 144;
    /// Data bytes per micro-packet.
    static constexpr uint32_t DATA_BYTES = DATA_BITS / 8;
    /// Bits of the routing word in a header Data micro-packet.
    static constexpr uint32_t ROUTING_WORD_BITS = 64;
    /// Payload bits left in a header Data micro-packet (144 - 64).
    static constexpr uint32_t HEADER_PAYLOAD_BITS = DATA_BITS - ROUTING_WORD_BITS;
    /// Payload bytes left in a header Data micro-packet.
    static constexpr uint32_t HEADER_PAYLOAD_BYTES = HEADER_PAYLOAD_BITS / 8;
    /// Largest message length the routing word's 16-bit length field can hold.
    static constexpr uint32_t MAX_MESSAGE_BYTES = 0xFFFF;
    /// Largest AskNo / SndNo field value (5 bits).
    static constexpr uint32_t MAX_SEQ_FIELD = 31;
    /// SndNo of a Null micro-packet.
    static constexpr uint32_t NULL_SND_NO = 0x1F;
    /// SndNo and AskNo of Init and Init-Ack micro-packets.
    static constexpr uint32_t INIT_SEQ_NO = 0xF;
    /// Number of virtual channels.
    static constexpr uint32_t NUM_VCS = 4;
    /// Bits of one interleave codeword (88 covered + 8 CRC).
    static constexpr uint32_t INTERLEAVE_BITS = 96;
    /// Covered bits of one interleave.
    static constexpr uint32_t INTERLEAVE_COVERED_BITS = 88;

    /// Micro-packet types (PktType field [29:26]); 0 and 6..15 are reserved.
    enum class PktType : uint8_t
    {
        RESERVED_0 = 0, //!< reserved (discard, count)
        INIT = 1,       //!< link initialisation
        INIT_ACK = 2,   //!< answer to Init
        NULL_FLIT = 3,  //!< carries only an acknowledgement (AskNo)
        DATA = 4,       //!< data (header/body/tail of a packet)
        CREDIT = 5,     //!< credits, SndNo and AskNo
    };

    /// How Decode() classified a block, in order of precedence.
    enum class DecodeStatus : uint8_t
    {
        OK = 0,              //!< accepted
        BAD_FRAME_BYTE,      //!< Frame byte [7:0] is not 0xAA (checked first)
        CRC_EVEN_FAILED,     //!< Frame byte intact, CRC80 failed, CRC81 passed
        CRC_ODD_FAILED,      //!< Frame byte intact, CRC81 failed, CRC80 passed
        CRC_BOTH_FAILED,     //!< Frame byte intact, both CRCs failed
        RESERVED_TYPE,       //!< checks passed but PktType is reserved: discard, count
        INCONSISTENT_FIELDS, //!< checks passed, Init/Init-Ack/Null/Credit fixed field wrong
    };

    /// The decoded content of a micro-packet (everything but the CRCs).
    struct Fields
    {
        uint32_t frame = FRAME_BYTE;            //!< Frame byte; Encode() writes it as given
        uint32_t askNo = 0;                     //!< AskNo, 0..31
        uint32_t sndNo = 0;                     //!< SndNo, 0..31
        uint32_t crdt = 0;                      //!< Crdt, 0..15 (bit n = VC n)
        uint32_t vc = 0;                        //!< VC, 0..3
        bool tail = false;                      //!< Tail flag
        bool header = false;                    //!< Header flag
        PktType type = PktType::NULL_FLIT;      //!< PktType, 0..15 (reserved values by cast)
        bool ncErr = false;                     //!< NcErr (endpoint error bit)
        bool netErr = false;                    //!< NetErr (router error bit)
        std::array<uint8_t, DATA_BYTES> data{}; //!< data[k] = Data[8k+7:8k]

        /**
         * \param o other fields.
         * \return true if every field is equal.
         */
        bool operator==(const Fields& o) const;

        /**
         * \param o other fields.
         * \return true if any field differs.
         */
        bool operator!=(const Fields& o) const;
    };

    /// The result of Decode().
    struct DecodeResult
    {
        DecodeStatus status = DecodeStatus::BAD_FRAME_BYTE; //!< the classification
        bool frameOk = false;                               //!< Frame byte == 0xAA
        bool evenCrcOk = false;                             //!< CRC80 matched
        bool oddCrcOk = false;                              //!< CRC81 matched
        Fields fields; //!< the raw fields, decoded whatever the status

        /// \return true if status == OK.
        bool IsOk() const;

        /// \return true if the Frame byte and both CRCs passed (whatever the type).
        bool ChecksPassed() const;
    };

    /// Routing information of a message (the header micro-packet's first word).
    struct RoutingInfo
    {
        uint32_t dstCpu = 0;   //!< destination CPU, 0..255
        uint32_t srcCpu = 0;   //!< source CPU, 0..255
        uint32_t msgClass = 0; //!< message class, 0..15
        uint32_t length = 0;   //!< message length in bytes, 0..65535

        /**
         * \param o other routing information.
         * \return true if all fields are equal.
         */
        bool operator==(const RoutingInfo& o) const;
    };

    /// A reassembled message.
    struct Message
    {
        RoutingInfo route;          //!< routing word of the header micro-packet
        std::vector<uint8_t> bytes; //!< the message bytes (route.length of them)
    };

    // ---- builders --------------------------------------------------------

    /**
     * \brief An Init micro-packet: SndNo=AskNo=0xF, VC=0, Crdt=0, Tail=Header=1,
     *        NcErr=NetErr=0, Data=0.
     * \return the fields.
     */
    static Fields MakeInit();

    /**
     * \brief An Init-Ack micro-packet (same fixed fields as Init).
     * \return the fields.
     */
    static Fields MakeInitAck();

    /**
     * \brief A Null micro-packet: SndNo=0x1F, VC=0, Crdt=0, Tail=Header=1,
     *        NcErr=NetErr=0, Data=0, carrying \p askNo.
     * \param askNo the acknowledged sequence number, 0..31.
     * \return the fields.
     */
    static Fields MakeNull(uint32_t askNo);

    /**
     * \brief A Credit micro-packet: VC=0, Tail=Header=1, NcErr=NetErr=0, Data=0.
     * \param sndNo its send sequence number, 0..31.
     * \param askNo the acknowledged sequence number, 0..31.
     * \param crdt returned credits, 0..15 (bit n = one credit of VC n).
     * \return the fields.
     */
    static Fields MakeCredit(uint32_t sndNo, uint32_t askNo, uint32_t crdt);

    /**
     * \brief A Data micro-packet; every field is given.
     * \param sndNo send sequence number, 0..31.
     * \param askNo acknowledged sequence number, 0..31.
     * \param crdt returned credits, 0..15.
     * \param vc virtual channel, 0..3.
     * \param header true for the first micro-packet of a packet.
     * \param tail true for the last micro-packet of a packet.
     * \param data the 144 data bits (data[k] = Data[8k+7:8k]).
     * \param ncErr NcErr bit.
     * \param netErr NetErr bit.
     * \return the fields.
     */
    static Fields MakeData(uint32_t sndNo, uint32_t askNo, uint32_t crdt, uint32_t vc, bool header,
                           bool tail, const std::array<uint8_t, DATA_BYTES>& data,
                           bool ncErr = false, bool netErr = false);

    /**
     * \brief Whether the fixed fields of an Init / Init-Ack / Null / Credit are the
     *        spec's values (Data and reserved types always pass).
     * \param f the fields.
     * \return true if consistent.
     */
    static bool HasConsistentFixedFields(const Fields& f);

    /**
     * \param t a type (any value 0..255).
     * \return true for 0 and 6..15 (and anything above 15).
     */
    static bool IsReservedType(PktType t);

    // ---- codec -------------------------------------------------------------

    /**
     * \brief Encode fields into a 192-bit micro-packet with both CRCs.
     * \param f the fields; frame 0..255, askNo/sndNo 0..31, crdt 0..15, vc 0..3,
     *        type 0..15 (std::invalid_argument naming the field otherwise).
     * \param poly the CRC-8 generator, odd, < 256 (std::invalid_argument naming "poly").
     * \return the block.
     */
    static BitBlock Encode(const Fields& f, uint32_t poly = DEFAULT_POLY);

    /**
     * \brief Decode and classify a block. Never throws for a 192-bit block.
     * \param block a 192-bit block (std::invalid_argument naming "block" otherwise).
     * \param poly the CRC-8 generator (std::invalid_argument naming "poly" if invalid).
     * \return the classification and the raw fields.
     */
    static DecodeResult Decode(const BitBlock& block, uint32_t poly = DEFAULT_POLY);

    /**
     * \brief CRC80 or CRC81 of a block's covered bits (the stored CRC fields are ignored).
     * \param block a 192-bit block.
     * \param interleave 0 (even, CRC80) or 1 (odd, CRC81).
     * \param poly the CRC-8 generator.
     * \return the 8-bit CRC.
     */
    static uint32_t ComputeCrc(const BitBlock& block, uint32_t interleave,
                               uint32_t poly = DEFAULT_POLY);

    /**
     * \brief The check of one interleave: recomputed CRC XOR stored CRC field.
     * \param block a 192-bit block.
     * \param interleave 0 (even) or 1 (odd).
     * \param poly the CRC-8 generator.
     * \return 0 if the interleave accepts, otherwise its 8-bit syndrome.
     */
    static uint32_t InterleaveCheck(const BitBlock& block, uint32_t interleave,
                                    uint32_t poly = DEFAULT_POLY);

    /**
     * \param s a status.
     * \return its name, e.g. "CRC_EVEN_FAILED".
     */
    static std::string StatusName(DecodeStatus s);

    /**
     * \param t a type.
     * \return its name, e.g. "NULL_FLIT", or "RESERVED_<n>".
     */
    static std::string TypeName(PktType t);

    // ---- routing word and messages -----------------------------------------

    /**
     * \brief Pack routing information into the 64-bit routing word.
     * \param r the fields, each in range (std::invalid_argument naming it otherwise).
     * \return the word (reserved bits [63:36] zero).
     */
    static uint64_t EncodeRoutingWord(const RoutingInfo& r);

    /**
     * \brief Unpack a routing word (reserved bits are ignored; see RoutingWordReservedClear()).
     * \param word the word.
     * \return the routing information.
     */
    static RoutingInfo DecodeRoutingWord(uint64_t word);

    /**
     * \param word a routing word.
     * \return true if its reserved bits [63:36] are zero.
     */
    static bool RoutingWordReservedClear(uint64_t word);

    /**
     * \param f fields of a micro-packet.
     * \return Data[63:0] (data[0..7], little-endian) as a 64-bit word.
     */
    static uint64_t GetRoutingWord(const Fields& f);

    /**
     * \brief Write Data[63:0] of \p f.
     * \param f the fields to modify.
     * \param word the routing word.
     */
    static void SetRoutingWord(Fields& f, uint64_t word);

    /**
     * \param header true for the header micro-packet of a message.
     * \return payload bits available to message bytes: 80 in the header, 144 otherwise.
     */
    static uint32_t PayloadBits(bool header);

    /**
     * \param header true for the header micro-packet of a message.
     * \return payload bytes available to message bytes: 10 in the header, 18 otherwise.
     */
    static uint32_t PayloadBytes(bool header);

    /**
     * \brief Number of Data micro-packets of a message: 1 if bytes <= 10,
     *        else 1 + ceil((bytes - 10) / 18).
     * \param bytes the message length, 0..65535 (std::invalid_argument naming "bytes").
     * \return the count.
     */
    static uint32_t NumMicroPackets(uint32_t bytes);

    /**
     * \brief Cut a message into Data micro-packets: the first has Header=1 and the
     *        routing word (length = message.size()), the last has Tail=1; message
     *        bytes follow the routing word in order, unused bytes are zero.
     *        SndNo, AskNo and Crdt are left 0 for the link layer to fill in.
     * \param dstCpu destination CPU, 0..255.
     * \param srcCpu source CPU, 0..255.
     * \param msgClass message class, 0..15.
     * \param vc virtual channel, 0..3.
     * \param message the bytes; at most 65535 (std::invalid_argument naming "message").
     * \return the micro-packets' fields, NumMicroPackets(message.size()) of them.
     */
    static std::vector<Fields> Segment(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass,
                                       uint32_t vc, const std::vector<uint8_t>& message);

    /**
     * \brief Reassemble a message from its Data micro-packets, in order.
     * \param flits the micro-packets: all Data, Header only on the first, Tail only
     *        on the last, as many as NumMicroPackets(length) (std::invalid_argument
     *        naming "flits" otherwise).
     * \return the routing information and the bytes.
     */
    static Message Reassemble(const std::vector<Fields>& flits);

    // ---- syndrome maps for the reliability model ----------------------------

    /**
     * \brief The 96 line bits of an interleave codeword: its 88 covered bits in
     *        ascending order, then its 8 CRC bits ascending.
     * \param interleave 0 (even) or 1 (odd) (std::invalid_argument naming "interleave").
     * \return the positions.
     */
    static std::vector<uint32_t> InterleavePositions(uint32_t interleave);

    /**
     * \brief The syndrome of every line bit of an interleave, found by flipping
     *        each bit of a real encoded micro-packet and reading InterleaveCheck().
     * \param interleave 0 or 1.
     * \param poly the CRC-8 generator.
     * \return syndromes aligned with InterleavePositions(interleave).
     */
    static std::vector<uint32_t> SyndromeMap(uint32_t interleave, uint32_t poly = DEFAULT_POLY);

    /// \return the line positions of the Frame byte, 0..7 (a flip there is always rejected).
    static std::vector<uint32_t> FrameBytePositions();

    /**
     * \brief The positions of an interleave that are not Frame-byte bits (92 of 96).
     * \param interleave 0 or 1.
     * \return the positions, in InterleavePositions() order.
     */
    static std::vector<uint32_t> NonFramePositions(uint32_t interleave);

    /**
     * \brief Syndromes of NonFramePositions(interleave): the map whose weight
     *        spectrum counts the patterns that interleave cannot see (a
     *        micro-packet is mis-accepted only if both interleaves accept and the
     *        Frame byte is intact).
     * \param interleave 0 or 1.
     * \param poly the CRC-8 generator.
     * \return syndromes aligned with NonFramePositions(interleave).
     */
    static std::vector<uint32_t> NonFrameSyndromeMap(uint32_t interleave,
                                                     uint32_t poly = DEFAULT_POLY);
};

} // namespace ns3

#endif /* DIRECT_LINK_FLIT_H */

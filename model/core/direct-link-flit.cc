/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-flit.h"

#include "crc-engine.h"
#include "ns3/log.h"
#include "rifl-check.h"

#include <array>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkFlit");

namespace
{

// Line positions of the fields.
constexpr uint32_t FRAME_MSB = 7;     //!< Frame [7:0]
constexpr uint32_t ASK_LSB = 8;       //!< AskNo [12:8]
constexpr uint32_t SND_LSB = 13;      //!< SndNo [17:13]
constexpr uint32_t CRDT_LSB = 18;     //!< Crdt [21:18]
constexpr uint32_t VC_LSB = 22;       //!< VC [23:22]
constexpr uint32_t TAIL_POS = 24;     //!< Tail
constexpr uint32_t HEADER_POS = 25;   //!< Header
constexpr uint32_t TYPE_LSB = 26;     //!< PktType [29:26]
constexpr uint32_t NCERR_POS = 30;    //!< NcErr
constexpr uint32_t NETERR_POS = 31;   //!< NetErr
constexpr uint32_t DATA_LSB = 32;     //!< Data [175:32]
constexpr uint32_t COVERED_MSB = 175; //!< last bit covered by the CRCs
constexpr uint32_t CRC80_LSB = 176;   //!< CRC80 [183:176]
constexpr uint32_t CRC81_LSB = 184;   //!< CRC81 [191:184]

/**
 * \brief Check a field value against its maximum.
 * \param name the parameter's name.
 * \param value the value given.
 * \param max the largest allowed value.
 * \param where the calling function.
 */
void
CheckRange(const char* name, uint32_t value, uint32_t max, const char* where)
{
    RIFL_CHECK_ARG(value > max, where << ": " << name << " = " << value << " is out of range [0, "
                                      << max << "]");
}

/**
 * \brief Check an interleave index.
 * \param interleave the index.
 * \param where the calling function.
 */
void
CheckInterleave(uint32_t interleave, const char* where)
{
    RIFL_CHECK_ARG(interleave > 1,
                   where << ": interleave = " << interleave << " is out of range [0, 1]");
}

/**
 * \brief Check that a block is a micro-packet.
 * \param block the block.
 * \param where the calling function.
 */
void
CheckBlock(const BitBlock& block, const char* where)
{
    RIFL_CHECK_ARG(block.GetSize() != DirectLinkFlit::FLIT_BITS,
                   where << ": block size = " << block.GetSize() << " bits, must be "
                         << DirectLinkFlit::FLIT_BITS);
}

/**
 * \brief The byte tables of every CRC-8 generator (non-reflected, init 0): t[poly][b]
 *        is the register after the byte b from register 0 (the bit-serial CRC of
 *        CrcEngine(8, poly) over b's bits, MSB first). Built once (64 KB).
 * \return the tables, by generator.
 */
const std::array<std::array<uint8_t, 256>, 256>&
Crc8Tables()
{
    static const std::array<std::array<uint8_t, 256>, 256> tables = []
    {
        std::array<std::array<uint8_t, 256>, 256> t{};
        for (uint32_t poly = 0; poly < 256; ++poly)
        {
            for (uint32_t b = 0; b < 256; ++b)
            {
                uint32_t c = b;
                for (int i = 0; i < 8; ++i)
                {
                    c = (c & 0x80) != 0 ? ((c << 1) ^ poly) : (c << 1);
                    c &= 0xFF;
                }
                t[poly][b] = static_cast<uint8_t>(c);
            }
        }
        return t;
    }();
    return tables;
}

/**
 * \param x a word.
 * \return its even bits (0, 2, ..., 62) packed into bits 0..31.
 */
uint64_t
EvenBits(uint64_t x)
{
    x &= 0x5555555555555555ULL;
    x = (x | (x >> 1)) & 0x3333333333333333ULL;
    x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0FULL;
    x = (x | (x >> 4)) & 0x00FF00FF00FF00FFULL;
    x = (x | (x >> 8)) & 0x0000FFFF0000FFFFULL;
    x = (x | (x >> 16)) & 0x00000000FFFFFFFFULL;
    return x;
}

/**
 * \brief CRC of one interleave's covered bits (even: 174, 172, ..., 0; odd: 175,
 *        173, ..., 1; MSB first), a generator already validated by CrcEngine: the 88
 *        bits packed by bit tricks, then eleven byte look-ups (equal to the bit-serial
 *        CrcEngine::ComputeBits() over those bits; direct-link-flit suite).
 * \param poly the CRC-8 generator.
 * \param block a 192-bit block.
 * \param interleave 0 or 1.
 * \return the CRC.
 */
uint32_t
InterleaveCrc(uint32_t poly, const BitBlock& block, uint32_t interleave)
{
    static_assert(COVERED_MSB == 175 && DirectLinkFlit::INTERLEAVE_COVERED_BITS == 88,
                  "the packing below assumes bits 175..0 in two interleaves of 88");
    // Block bits 63..0, 127..64, 175..128, shifted so the interleave's bits are even.
    const uint64_t w0 = block.GetField(63, 0) >> interleave;
    const uint64_t w1 = block.GetField(127, 64) >> interleave;
    const uint64_t w2 = block.GetField(COVERED_MSB, 128) >> interleave;
    // The interleave's 88 bits, its first (most significant) bit at bit 87.
    const uint64_t lo = EvenBits(w0) | (EvenBits(w1) << 32);
    const uint64_t hi = EvenBits(w2); // bits 87..64
    const std::array<uint8_t, 256>& t = Crc8Tables()[poly & 0xFF];
    uint32_t c = 0;
    for (int k = 2; k >= 0; --k)
    {
        c = t[c ^ ((hi >> (8 * k)) & 0xFF)];
    }
    for (int k = 7; k >= 0; --k)
    {
        c = t[c ^ ((lo >> (8 * k)) & 0xFF)];
    }
    return c;
}

/**
 * \param interleave 0 or 1.
 * \return the LSB of its CRC field.
 */
uint32_t
CrcFieldLsb(uint32_t interleave)
{
    return interleave == 0 ? CRC80_LSB : CRC81_LSB;
}

/**
 * \brief The validated CRC-8 engine of a generator.
 * \param poly the generator (CrcEngine rejects bad ones naming "poly").
 * \return the engine.
 */
CrcEngine
MakeEngine(uint32_t poly)
{
    return CrcEngine(8, poly);
}

} // namespace

bool
DirectLinkFlit::Fields::operator==(const Fields& o) const
{
    return frame == o.frame && askNo == o.askNo && sndNo == o.sndNo && crdt == o.crdt && vc == o.vc
           && tail == o.tail && header == o.header && type == o.type && ncErr == o.ncErr
           && netErr == o.netErr && data == o.data;
}

bool
DirectLinkFlit::Fields::operator!=(const Fields& o) const
{
    return !(*this == o);
}

bool
DirectLinkFlit::DecodeResult::IsOk() const
{
    return status == DecodeStatus::OK;
}

bool
DirectLinkFlit::DecodeResult::ChecksPassed() const
{
    return frameOk && evenCrcOk && oddCrcOk;
}

bool
DirectLinkFlit::RoutingInfo::operator==(const RoutingInfo& o) const
{
    return dstCpu == o.dstCpu && srcCpu == o.srcCpu && msgClass == o.msgClass && length == o.length;
}

// ---- builders ---------------------------------------------------------------

DirectLinkFlit::Fields
DirectLinkFlit::MakeInit()
{
    Fields f;
    f.type = PktType::INIT;
    f.sndNo = INIT_SEQ_NO;
    f.askNo = INIT_SEQ_NO;
    f.vc = 0;
    f.crdt = 0;
    f.tail = true;
    f.header = true;
    return f;
}

DirectLinkFlit::Fields
DirectLinkFlit::MakeInitAck()
{
    Fields f = MakeInit();
    f.type = PktType::INIT_ACK;
    return f;
}

DirectLinkFlit::Fields
DirectLinkFlit::MakeNull(uint32_t askNo)
{
    CheckRange("askNo", askNo, MAX_SEQ_FIELD, "DirectLinkFlit::MakeNull");
    Fields f;
    f.type = PktType::NULL_FLIT;
    f.sndNo = NULL_SND_NO;
    f.askNo = askNo;
    f.tail = true;
    f.header = true;
    return f;
}

DirectLinkFlit::Fields
DirectLinkFlit::MakeCredit(uint32_t sndNo, uint32_t askNo, uint32_t crdt)
{
    CheckRange("sndNo", sndNo, MAX_SEQ_FIELD, "DirectLinkFlit::MakeCredit");
    CheckRange("askNo", askNo, MAX_SEQ_FIELD, "DirectLinkFlit::MakeCredit");
    CheckRange("crdt", crdt, 15, "DirectLinkFlit::MakeCredit");
    Fields f;
    f.type = PktType::CREDIT;
    f.sndNo = sndNo;
    f.askNo = askNo;
    f.crdt = crdt;
    f.tail = true;
    f.header = true;
    return f;
}

DirectLinkFlit::Fields
DirectLinkFlit::MakeData(uint32_t sndNo, uint32_t askNo, uint32_t crdt, uint32_t vc, bool header,
                         bool tail, const std::array<uint8_t, DATA_BYTES>& data, bool ncErr,
                         bool netErr)
{
    CheckRange("sndNo", sndNo, MAX_SEQ_FIELD, "DirectLinkFlit::MakeData");
    CheckRange("askNo", askNo, MAX_SEQ_FIELD, "DirectLinkFlit::MakeData");
    CheckRange("crdt", crdt, 15, "DirectLinkFlit::MakeData");
    CheckRange("vc", vc, NUM_VCS - 1, "DirectLinkFlit::MakeData");
    Fields f;
    f.type = PktType::DATA;
    f.sndNo = sndNo;
    f.askNo = askNo;
    f.crdt = crdt;
    f.vc = vc;
    f.header = header;
    f.tail = tail;
    f.data = data;
    f.ncErr = ncErr;
    f.netErr = netErr;
    return f;
}

bool
DirectLinkFlit::HasConsistentFixedFields(const Fields& f)
{
    const bool common = f.vc == 0 && f.tail && f.header && !f.ncErr && !f.netErr;
    switch (f.type)
    {
        case PktType::INIT:
        case PktType::INIT_ACK:
            return common && f.crdt == 0 && f.sndNo == INIT_SEQ_NO && f.askNo == INIT_SEQ_NO;
        case PktType::NULL_FLIT:
            return common && f.crdt == 0 && f.sndNo == NULL_SND_NO;
        case PktType::CREDIT:
            return common;
        default:
            return true;
    }
}

bool
DirectLinkFlit::IsReservedType(PktType t)
{
    const auto v = static_cast<uint32_t>(t);
    return v == 0 || v > static_cast<uint32_t>(PktType::CREDIT);
}

// ---- codec --------------------------------------------------------------------

BitBlock
DirectLinkFlit::Encode(const Fields& f, uint32_t poly)
{
    const CrcEngine engine = MakeEngine(poly);
    CheckRange("frame", f.frame, 0xFF, "DirectLinkFlit::Encode");
    CheckRange("askNo", f.askNo, MAX_SEQ_FIELD, "DirectLinkFlit::Encode");
    CheckRange("sndNo", f.sndNo, MAX_SEQ_FIELD, "DirectLinkFlit::Encode");
    CheckRange("crdt", f.crdt, 15, "DirectLinkFlit::Encode");
    CheckRange("vc", f.vc, NUM_VCS - 1, "DirectLinkFlit::Encode");
    CheckRange("type", static_cast<uint32_t>(f.type), 15, "DirectLinkFlit::Encode");

    BitBlock b(FLIT_BITS);
    b.SetField(FRAME_MSB, 0, f.frame);
    b.SetField(ASK_LSB + 4, ASK_LSB, f.askNo);
    b.SetField(SND_LSB + 4, SND_LSB, f.sndNo);
    b.SetField(CRDT_LSB + 3, CRDT_LSB, f.crdt);
    b.SetField(VC_LSB + 1, VC_LSB, f.vc);
    b.Set(TAIL_POS, f.tail);
    b.Set(HEADER_POS, f.header);
    b.SetField(TYPE_LSB + 3, TYPE_LSB, static_cast<uint32_t>(f.type));
    b.Set(NCERR_POS, f.ncErr);
    b.Set(NETERR_POS, f.netErr);
    for (uint32_t k = 0; k < DATA_BYTES; ++k)
    {
        b.SetField(DATA_LSB + 8 * k + 7, DATA_LSB + 8 * k, f.data[k]);
    }
    b.SetField(CRC80_LSB + 7, CRC80_LSB, InterleaveCrc(engine.GetPolynomial(), b, 0));
    b.SetField(CRC81_LSB + 7, CRC81_LSB, InterleaveCrc(engine.GetPolynomial(), b, 1));
    NS_LOG_LOGIC("Encode " << TypeName(f.type) << " -> " << b.ToHex());
    return b;
}

DirectLinkFlit::DecodeResult
DirectLinkFlit::Decode(const BitBlock& block, uint32_t poly)
{
    CheckBlock(block, "DirectLinkFlit::Decode");
    const CrcEngine engine = MakeEngine(poly);

    DecodeResult r;
    Fields& f = r.fields;
    f.frame = static_cast<uint32_t>(block.GetField(FRAME_MSB, 0));
    f.askNo = static_cast<uint32_t>(block.GetField(ASK_LSB + 4, ASK_LSB));
    f.sndNo = static_cast<uint32_t>(block.GetField(SND_LSB + 4, SND_LSB));
    f.crdt = static_cast<uint32_t>(block.GetField(CRDT_LSB + 3, CRDT_LSB));
    f.vc = static_cast<uint32_t>(block.GetField(VC_LSB + 1, VC_LSB));
    f.tail = block.Get(TAIL_POS);
    f.header = block.Get(HEADER_POS);
    f.type = static_cast<PktType>(block.GetField(TYPE_LSB + 3, TYPE_LSB));
    f.ncErr = block.Get(NCERR_POS);
    f.netErr = block.Get(NETERR_POS);
    for (uint32_t k = 0; k < DATA_BYTES; ++k)
    {
        f.data[k] = static_cast<uint8_t>(block.GetField(DATA_LSB + 8 * k + 7, DATA_LSB + 8 * k));
    }

    r.frameOk = f.frame == FRAME_BYTE;
    r.evenCrcOk = InterleaveCrc(engine.GetPolynomial(), block, 0)
                  == block.GetField(CRC80_LSB + 7, CRC80_LSB);
    r.oddCrcOk = InterleaveCrc(engine.GetPolynomial(), block, 1)
                 == block.GetField(CRC81_LSB + 7, CRC81_LSB);

    if (!r.frameOk)
    {
        r.status = DecodeStatus::BAD_FRAME_BYTE;
    }
    else if (!r.evenCrcOk && !r.oddCrcOk)
    {
        r.status = DecodeStatus::CRC_BOTH_FAILED;
    }
    else if (!r.evenCrcOk)
    {
        r.status = DecodeStatus::CRC_EVEN_FAILED;
    }
    else if (!r.oddCrcOk)
    {
        r.status = DecodeStatus::CRC_ODD_FAILED;
    }
    else if (IsReservedType(f.type))
    {
        r.status = DecodeStatus::RESERVED_TYPE;
    }
    else if (!HasConsistentFixedFields(f))
    {
        r.status = DecodeStatus::INCONSISTENT_FIELDS;
    }
    else
    {
        r.status = DecodeStatus::OK;
    }
    NS_LOG_LOGIC("Decode " << block.ToHex() << " -> " << StatusName(r.status));
    return r;
}

uint32_t
DirectLinkFlit::ComputeCrc(const BitBlock& block, uint32_t interleave, uint32_t poly)
{
    CheckBlock(block, "DirectLinkFlit::ComputeCrc");
    CheckInterleave(interleave, "DirectLinkFlit::ComputeCrc");
    return InterleaveCrc(MakeEngine(poly).GetPolynomial(), block, interleave);
}

uint32_t
DirectLinkFlit::InterleaveCheck(const BitBlock& block, uint32_t interleave, uint32_t poly)
{
    CheckBlock(block, "DirectLinkFlit::InterleaveCheck");
    CheckInterleave(interleave, "DirectLinkFlit::InterleaveCheck");
    const uint32_t lsb = CrcFieldLsb(interleave);
    const auto stored = static_cast<uint32_t>(block.GetField(lsb + 7, lsb));
    return InterleaveCrc(MakeEngine(poly).GetPolynomial(), block, interleave) ^ stored;
}

std::string
DirectLinkFlit::StatusName(DecodeStatus s)
{
    switch (s)
    {
        case DecodeStatus::OK:
            return "OK";
        case DecodeStatus::BAD_FRAME_BYTE:
            return "BAD_FRAME_BYTE";
        case DecodeStatus::CRC_EVEN_FAILED:
            return "CRC_EVEN_FAILED";
        case DecodeStatus::CRC_ODD_FAILED:
            return "CRC_ODD_FAILED";
        case DecodeStatus::CRC_BOTH_FAILED:
            return "CRC_BOTH_FAILED";
        case DecodeStatus::RESERVED_TYPE:
            return "RESERVED_TYPE";
        case DecodeStatus::INCONSISTENT_FIELDS:
            return "INCONSISTENT_FIELDS";
    }
    return "UNKNOWN_STATUS";
}

std::string
DirectLinkFlit::TypeName(PktType t)
{
    switch (t)
    {
        case PktType::INIT:
            return "INIT";
        case PktType::INIT_ACK:
            return "INIT_ACK";
        case PktType::NULL_FLIT:
            return "NULL_FLIT";
        case PktType::DATA:
            return "DATA";
        case PktType::CREDIT:
            return "CREDIT";
        default:
            return "RESERVED_" + std::to_string(static_cast<uint32_t>(t));
    }
}

// ---- routing word and messages -------------------------------------------------

uint64_t
DirectLinkFlit::EncodeRoutingWord(const RoutingInfo& r)
{
    CheckRange("dstCpu", r.dstCpu, 0xFF, "DirectLinkFlit::EncodeRoutingWord");
    CheckRange("srcCpu", r.srcCpu, 0xFF, "DirectLinkFlit::EncodeRoutingWord");
    CheckRange("msgClass", r.msgClass, 0xF, "DirectLinkFlit::EncodeRoutingWord");
    CheckRange("length", r.length, MAX_MESSAGE_BYTES, "DirectLinkFlit::EncodeRoutingWord");
    return uint64_t{r.dstCpu} | (uint64_t{r.srcCpu} << 8) | (uint64_t{r.msgClass} << 16)
           | (uint64_t{r.length} << 20);
}

DirectLinkFlit::RoutingInfo
DirectLinkFlit::DecodeRoutingWord(uint64_t word)
{
    RoutingInfo r;
    r.dstCpu = static_cast<uint32_t>(word & 0xFF);
    r.srcCpu = static_cast<uint32_t>((word >> 8) & 0xFF);
    r.msgClass = static_cast<uint32_t>((word >> 16) & 0xF);
    r.length = static_cast<uint32_t>((word >> 20) & 0xFFFF);
    return r;
}

bool
DirectLinkFlit::RoutingWordReservedClear(uint64_t word)
{
    return (word >> 36) == 0;
}

uint64_t
DirectLinkFlit::GetRoutingWord(const Fields& f)
{
    uint64_t w = 0;
    for (uint32_t k = 0; k < 8; ++k)
    {
        w |= uint64_t{f.data[k]} << (8 * k);
    }
    return w;
}

void
DirectLinkFlit::SetRoutingWord(Fields& f, uint64_t word)
{
    for (uint32_t k = 0; k < 8; ++k)
    {
        f.data[k] = static_cast<uint8_t>(word >> (8 * k));
    }
}

uint32_t
DirectLinkFlit::PayloadBits(bool header)
{
    return header ? HEADER_PAYLOAD_BITS : DATA_BITS;
}

uint32_t
DirectLinkFlit::PayloadBytes(bool header)
{
    return header ? HEADER_PAYLOAD_BYTES : DATA_BYTES;
}

uint32_t
DirectLinkFlit::NumMicroPackets(uint32_t bytes)
{
    CheckRange("bytes", bytes, MAX_MESSAGE_BYTES, "DirectLinkFlit::NumMicroPackets");
    if (bytes <= HEADER_PAYLOAD_BYTES)
    {
        return 1;
    }
    return 1 + (bytes - HEADER_PAYLOAD_BYTES + DATA_BYTES - 1) / DATA_BYTES;
}

std::vector<DirectLinkFlit::Fields>
DirectLinkFlit::Segment(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                        const std::vector<uint8_t>& message)
{
    RIFL_CHECK_ARG(message.size() > MAX_MESSAGE_BYTES,
                   "DirectLinkFlit::Segment: message size = "
                       << message.size() << " bytes is out of range [0, " << MAX_MESSAGE_BYTES
                       << "] (16-bit length field of the routing word)");
    CheckRange("vc", vc, NUM_VCS - 1, "DirectLinkFlit::Segment");
    RoutingInfo r;
    r.dstCpu = dstCpu;
    r.srcCpu = srcCpu;
    r.msgClass = msgClass;
    r.length = static_cast<uint32_t>(message.size());
    const uint64_t word = EncodeRoutingWord(r);

    const uint32_t n = NumMicroPackets(r.length);
    std::vector<Fields> out(n);
    std::size_t next = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        Fields& f = out[i];
        f.type = PktType::DATA;
        f.vc = vc;
        f.header = (i == 0);
        f.tail = (i == n - 1);
        uint32_t k = 0;
        if (f.header)
        {
            SetRoutingWord(f, word);
            k = ROUTING_WORD_BITS / 8;
        }
        for (; k < DATA_BYTES && next < message.size(); ++k)
        {
            f.data[k] = message[next++];
        }
    }
    return out;
}

DirectLinkFlit::Message
DirectLinkFlit::Reassemble(const std::vector<Fields>& flits)
{
    RIFL_CHECK_ARG(flits.empty(), "DirectLinkFlit::Reassemble: flits is empty (size = 0, need "
                                  ">= 1)");
    const uint64_t word = GetRoutingWord(flits.front());
    RIFL_CHECK_ARG(!RoutingWordReservedClear(word),
                   "DirectLinkFlit::Reassemble: flits[0] routing word 0x"
                       << std::hex << word << std::dec << " has reserved bits [63:36] set");
    Message m;
    m.route = DecodeRoutingWord(word);
    const uint32_t n = NumMicroPackets(m.route.length);
    RIFL_CHECK_ARG(flits.size() != n, "DirectLinkFlit::Reassemble: flits size = "
                                          << flits.size() << " but the routing word's length "
                                          << m.route.length << " bytes needs " << n);
    const uint32_t vc = flits.front().vc;
    for (uint32_t i = 0; i < n; ++i)
    {
        const Fields& f = flits[i];
        RIFL_CHECK_ARG(f.type != PktType::DATA, "DirectLinkFlit::Reassemble: flits["
                                                    << i << "] type = " << TypeName(f.type)
                                                    << ", must be DATA");
        RIFL_CHECK_ARG(f.header != (i == 0), "DirectLinkFlit::Reassemble: flits["
                                                 << i << "] header = " << f.header << ", must be "
                                                 << (i == 0));
        RIFL_CHECK_ARG(f.tail != (i == n - 1), "DirectLinkFlit::Reassemble: flits["
                                                   << i << "] tail = " << f.tail << ", must be "
                                                   << (i == n - 1));
        RIFL_CHECK_ARG(f.vc != vc, "DirectLinkFlit::Reassemble: flits[" << i << "] vc = " << f.vc
                                                                        << ", must be " << vc
                                                                        << " (as flits[0])");
    }
    m.bytes.reserve(m.route.length);
    for (uint32_t i = 0; i < n && m.bytes.size() < m.route.length; ++i)
    {
        for (uint32_t k = (i == 0 ? ROUTING_WORD_BITS / 8 : 0);
             k < DATA_BYTES && m.bytes.size() < m.route.length; ++k)
        {
            m.bytes.push_back(flits[i].data[k]);
        }
    }
    return m;
}

// ---- syndrome maps --------------------------------------------------------------

std::vector<uint32_t>
DirectLinkFlit::InterleavePositions(uint32_t interleave)
{
    CheckInterleave(interleave, "DirectLinkFlit::InterleavePositions");
    std::vector<uint32_t> pos;
    pos.reserve(INTERLEAVE_BITS);
    for (uint32_t p = interleave; p <= COVERED_MSB; p += 2)
    {
        pos.push_back(p);
    }
    const uint32_t lsb = CrcFieldLsb(interleave);
    for (uint32_t p = lsb; p < lsb + 8; ++p)
    {
        pos.push_back(p);
    }
    return pos;
}

std::vector<uint32_t>
DirectLinkFlit::SyndromeMap(uint32_t interleave, uint32_t poly)
{
    const std::vector<uint32_t> pos = InterleavePositions(interleave);
    const BitBlock base = Encode(MakeNull(0), poly);
    const uint32_t baseCheck = InterleaveCheck(base, interleave, poly); // 0
    std::vector<uint32_t> syn;
    syn.reserve(pos.size());
    for (uint32_t p : pos)
    {
        BitBlock b = base;
        b.Flip(p);
        syn.push_back(InterleaveCheck(b, interleave, poly) ^ baseCheck);
    }
    return syn;
}

std::vector<uint32_t>
DirectLinkFlit::FrameBytePositions()
{
    std::vector<uint32_t> pos;
    for (uint32_t p = 0; p <= FRAME_MSB; ++p)
    {
        pos.push_back(p);
    }
    return pos;
}

std::vector<uint32_t>
DirectLinkFlit::NonFramePositions(uint32_t interleave)
{
    std::vector<uint32_t> out;
    for (uint32_t p : InterleavePositions(interleave))
    {
        if (p > FRAME_MSB)
        {
            out.push_back(p);
        }
    }
    return out;
}

std::vector<uint32_t>
DirectLinkFlit::NonFrameSyndromeMap(uint32_t interleave, uint32_t poly)
{
    const std::vector<uint32_t> pos = InterleavePositions(interleave);
    const std::vector<uint32_t> syn = SyndromeMap(interleave, poly);
    std::vector<uint32_t> out;
    for (std::size_t i = 0; i < pos.size(); ++i)
    {
        if (pos[i] > FRAME_MSB)
        {
            out.push_back(syn[i]);
        }
    }
    return out;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-reference-engine.h"

#include "ns3/log.h"
#include "ns3/rifl-check.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkReferenceEngine");

using Flit = DirectLinkFlit;

namespace
{

void
CheckSide(const char* where, uint32_t side)
{
    RIFL_CHECK_INDEX(side > 1, "DirectLinkReferenceEngine::" << where << ": side = " << side
                                                             << " is out of range [0, 1]");
}

} // namespace

DirectLinkReferenceEngine::DirectLinkReferenceEngine(const DirectLinkConfig& config,
                                                     Ptr<BitErrorProcess> aToB,
                                                     Ptr<BitErrorProcess> bToA)
    : m_cfg(config)
    , m_ep{DirectLinkEndpointState(config), DirectLinkEndpointState(config)}
    , m_err{aToB, bToA}
{
    for (uint32_t s = 0; s < 2; ++s)
    {
        if (m_err[s])
        {
            m_err[s]->SetFrameBits(Flit::FLIT_BITS);
        }
        m_ep[s].SetDeliveryCallback(
            [this, s](const DirectLinkEndpointState::Delivery& d)
            {
                OnDelivery(s, d);
            });
        m_ep[s].SetAbandonCallback(
            [this, s](uint64_t id, DirectLinkEndpointState::ResetReason r, uint64_t slot)
            {
                OnAbandon(s, id, r, slot);
            });
        m_ep[s].SetStateCallback(
            [this, s](DirectLinkEndpointState::LinkState st, uint64_t slot,
                      DirectLinkEndpointState::ResetReason r)
            {
                OnState(s, st, slot, r);
            });
        m_ep[s].SetAckCallback(
            [this, s](const DirectLinkEndpointState::FlitTag& tag, uint64_t slot)
            {
                OnAck(s, tag, slot);
            });
    }
    // both sides start in Initial; the peer's acceptance record starts empty
}

void
DirectLinkReferenceEngine::OfferMessage(uint32_t side, uint64_t messageId, uint32_t dstCpu,
                                        uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                                        const std::vector<uint8_t>& bytes,
                                        const DirectLinkMessageFlags& flags)
{
    CheckSide("OfferMessage", side);
    RIFL_CHECK_ARG(vc >= DirectLinkConfig::NUM_VCS, "DirectLinkReferenceEngine::OfferMessage: vc = "
                                                        << vc << " is out of range [0, 3]");
    RIFL_CHECK_ARG(bytes.size() > m_cfg.maxMessageBytes,
                   "DirectLinkReferenceEngine::OfferMessage: bytes size = "
                       << bytes.size() << " exceeds MaxMessageBytes, range [0, "
                       << m_cfg.maxMessageBytes << "]");
    RIFL_CHECK_ARG(messageId == NEVER || m_offered[side].count(messageId) != 0
                       || IsRetired(side, messageId),
                   "DirectLinkReferenceEngine::OfferMessage: messageId = "
                       << messageId << " was already offered by side " << side
                       << " (ids must be unique per side and < 2^64-1)");
    // Segment checks dstCpu, srcCpu and msgClass (std::invalid_argument naming them)
    flags.Check("DirectLinkReferenceEngine::OfferMessage", bytes.size());
    std::vector<Flit::Fields> flits = Flit::Segment(dstCpu, srcCpu, msgClass, vc, bytes);
    const uint32_t length = flags.Length(bytes.size());
    if (length != bytes.size())
    {
        Flit::RoutingInfo r = Flit::DecodeRoutingWord(Flit::GetRoutingWord(flits.front()));
        r.length = length;
        Flit::SetRoutingWord(flits.front(), Flit::EncodeRoutingWord(r));
    }
    flits.back().netErr = flags.netErr;
    flits.back().ncErr = flags.ncErr;
    OfferedMessage m;
    m.offerSlot = m_slot;
    m.offerIndex = ++m_truth[side].offered;
    m.vc = vc;
    m.route.dstCpu = dstCpu;
    m.route.srcCpu = srcCpu;
    m.route.msgClass = msgClass;
    m.route.length = length;
    m.bytes = bytes;
    m_offered[side][messageId] = std::move(m);
    ++m_pending[side];
    m_ep[side].QueueMessage(messageId, flits);
}

void
DirectLinkReferenceEngine::TxEvents(uint32_t side, const DirectLinkEndpointState::TxFlit& t)
{
    if (t.retransmission)
    {
        AddEvent(DirectLinkEventType::RETRANSMISSION, side, t.fields.sndNo);
    }
    if (t.nak)
    {
        AddEvent(DirectLinkEventType::NAK_SENT, side, t.fields.askNo);
    }
    if (t.fields.type == Flit::PktType::DATA && !t.retransmission)
    {
        if (t.fields.header)
        {
            AddEvent(DirectLinkEventType::TX_BEGIN, side, 0, 0, t.tag.messageId, t.fields.vc);
        }
        if (t.fields.tail)
        {
            AddEvent(DirectLinkEventType::TX_END, side, 0, 0, t.tag.messageId, t.fields.vc);
        }
    }
}

void
DirectLinkReferenceEngine::ApplyErrors(uint32_t side, uint64_t s, BitBlock* bits, bool& corrupted)
{
    corrupted = false;
    if (!m_err[side])
    {
        return;
    }
    const FrameErrorEvent& ev = m_err[side]->SkipTo(s);
    if (ev.slot == s)
    {
        if (bits != nullptr)
        {
            for (uint32_t b : ev.bits)
            {
                bits->Flip(b);
            }
        }
        corrupted = !ev.bits.empty();
        m_err[side]->Pop();
    }
    if (corrupted)
    {
        ++m_truth[side].corruptedSent;
    }
}

void
DirectLinkReferenceEngine::RxAndEndOfSlot(uint32_t side, uint64_t s,
                                          const DirectLinkFlit::DecodeResult* r,
                                          const DirectLinkEndpointState::FlitTag& tag,
                                          bool corrupted)
{
    if (r != nullptr)
    {
        if (r->IsOk() && corrupted)
        {
            ++m_truth[side].undetectedErrors;
            AddEvent(DirectLinkEventType::UNDETECTED_ERROR, side,
                     static_cast<int64_t>(r->fields.type));
        }
        if (!r->IsOk())
        {
            AddEvent(DirectLinkEventType::CRC_ERROR, side, static_cast<int64_t>(r->status));
        }
        const uint64_t rejects = m_ep[side].GetCounters().seqRejects;
        const uint64_t accepted = m_ep[side].GetCounters().rxAccepted;
        const uint64_t overflows = m_ep[side].GetCounters().vcOverflows;
        const uint32_t frameExpected = m_ep[side].GetFrameExpected();
        m_ep[side].Receive(s, *r, tag);
        if (m_ep[side].GetCounters().seqRejects != rejects)
        {
            AddEvent(DirectLinkEventType::SEQUENCE_REJECT, side, r->fields.sndNo, frameExpected);
        }
        if (m_ep[side].GetCounters().rxAccepted != accepted)
        {
            // ground truth: the peer's micro-packet tag.serial accepted at the end of s
            AckTruth& t = m_ackTruth[1 - side];
            if (tag.serial == NEVER)
            {
                t.accBroken = true; // not a retry-buffer entry (an undetected error)
            }
            else
            {
                t.accepted.emplace(tag.serial, s);
                if (t.accFirst == NEVER)
                {
                    t.accFirst = tag.serial;
                }
                else if (tag.serial != t.accLast + 1)
                {
                    t.accBroken = true;
                }
                t.accLast = tag.serial;
                if (t.accIncarnation != NEVER && tag.incarnation != t.accIncarnation)
                {
                    // this Normal of the receiver now holds state of two incarnations of the
                    // sender (FrameExpected, VC buffers, reassembly, credits owed)
                    t.accMixed = true;
                }
                t.accIncarnation = tag.incarnation;
            }
        }
        if (m_ep[side].GetCounters().vcOverflows != overflows)
        {
            if (IsStalePairing(1 - side))
            {
                ++m_truth[side].staleVcOverflows;
            }
            OnOverflow(side, tag, s);
        }
    }
    const uint64_t timeouts = m_ep[side].GetCounters().timeouts;
    const uint32_t askExpected = m_ep[side].GetAskExpected();
    m_ep[side].EndOfSlot(s);
    if (m_ep[side].GetCounters().timeouts != timeouts)
    {
        AddEvent(DirectLinkEventType::TIMEOUT, side, askExpected);
    }
}

void
DirectLinkReferenceEngine::Step()
{
    const uint64_t s = m_slot;
    std::array<DirectLinkEndpointState::TxFlit, 2> tx;
    std::array<bool, 2> txCorrupted{{false, false}};
    // 1. send
    for (uint32_t side = 0; side < 2; ++side)
    {
        tx[side] = m_ep[side].BuildTx(s);
        TxEvents(side, tx[side]);
        InFlight f;
        f.arrival = s + m_cfg.oneWayDelaySlots;
        f.bits = Flit::Encode(tx[side].fields, m_cfg.crcPoly);
        f.tag = tx[side].tag;
        ApplyErrors(side, s, &f.bits, f.corrupted);
        txCorrupted[side] = f.corrupted;
        m_line[side].push_back(std::move(f));
    }
    // 2. end of slot: receive, drain, timers
    std::array<SlotTrace, 2> trace;
    for (uint32_t side = 0; side < 2; ++side)
    {
        const uint32_t peer = 1 - side;
        SlotTrace& t = trace[side];
        if (!m_line[peer].empty() && m_line[peer].front().arrival == s)
        {
            InFlight f = std::move(m_line[peer].front());
            m_line[peer].pop_front();
            const Flit::DecodeResult r = Flit::Decode(f.bits, m_cfg.crcPoly);
            t.rxPresent = true;
            t.rxStatus = r.status;
            t.rxType = r.fields.type;
            RxAndEndOfSlot(side, s, &r, f.tag, f.corrupted);
        }
        else
        {
            RxAndEndOfSlot(side, s, nullptr, DirectLinkEndpointState::FlitTag(), false);
        }
    }
    // 3. fates of abandoned messages
    ResolveAbandoned(s);
    // 4. trace
    for (uint32_t side = 0; side < 2; ++side)
    {
        SlotTrace& t = trace[side];
        const DirectLinkEndpointState& ep = m_ep[side];
        t.slot = s;
        t.side = side;
        t.state = ep.GetState();
        t.txType = tx[side].fields.type;
        t.txSndNo = tx[side].fields.sndNo;
        t.txAskNo = tx[side].fields.askNo;
        t.txCrdt = tx[side].fields.crdt;
        t.txRetransmission = tx[side].retransmission;
        t.txNak = tx[side].nak;
        t.txCorrupted = txCorrupted[side];
        t.askExpected = ep.GetAskExpected();
        t.outstanding = ep.GetOutstanding();
        t.frameExpected = ep.GetFrameExpected();
        for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
        {
            t.credit[v] = ep.GetCredit(v);
            t.vcOccupancy[v] = ep.GetVcOccupancy(v);
        }
        if (m_slotCb)
        {
            m_slotCb(t);
        }
    }
    // 5. events
    FlushEvents();
    ++m_slot;
}

void
DirectLinkReferenceEngine::AddEvent(DirectLinkEventType type, uint32_t side, int64_t value,
                                    int64_t value2, uint64_t id, uint32_t vc)
{
    DirectLinkEvent e;
    e.type = type;
    e.side = side;
    e.slot = m_slot;
    e.messageId = id;
    e.vc = vc;
    e.value = value;
    e.value2 = value2;
    m_events.push_back(e);
}

void
DirectLinkReferenceEngine::FlushEvents()
{
    if (m_events.empty())
    {
        return;
    }
    std::stable_sort(m_events.begin(), m_events.end(),
                     [](const DirectLinkEvent& a, const DirectLinkEvent& b)
                     {
                         if (a.side != b.side)
                         {
                             return a.side < b.side;
                         }
                         return static_cast<uint32_t>(a.type) < static_cast<uint32_t>(b.type);
                     });
    if (m_eventCb)
    {
        for (const DirectLinkEvent& e : m_events)
        {
            m_eventCb(e);
        }
    }
    m_events.clear();
}

void
DirectLinkReferenceEngine::AdvanceTo(uint64_t slot)
{
    RunUntil(slot);
}

uint64_t
DirectLinkReferenceEngine::NextEventSlot()
{
    return m_slot;
}

void
DirectLinkReferenceEngine::RunUntil(uint64_t slot)
{
    while (m_slot < slot)
    {
        Step();
    }
}

void
DirectLinkReferenceEngine::OnDelivery(uint32_t side, const DirectLinkEndpointState::Delivery& d)
{
    const uint32_t sender = 1 - side;
    DeliveredMessage rec;
    rec.side = side;
    rec.info = d;
    if (d.truncated)
    {
        AddEvent(DirectLinkEventType::MESSAGE_TRUNCATED, side, static_cast<int64_t>(d.truncReason),
                 0, d.messageId, d.vc);
    }
    auto it = m_offered[sender].find(d.messageId);
    if (it == m_offered[sender].end() && IsRetired(sender, d.messageId))
    {
        // A late duplicate of a message done long ago (its record erased): it was
        // delivered before on this VC, hence a duplicate and out of order.
        ++m_truth[side].duplicateDeliveries;
        ++m_truth[side].outOfOrder;
    }
    if (it != m_offered[sender].end())
    {
        OfferedMessage& m = it->second;
        rec.offerSlot = m.offerSlot;
        rec.contentOk = !d.truncated && !d.malformed && d.bytes == m.bytes && d.route == m.route;
        if (!d.truncated && !d.malformed && !rec.contentOk)
        {
            ++m_truth[side].contentMismatches;
            if (IsStalePairing(sender))
            {
                ++m_truth[side].staleContentMismatches;
            }
        }
        if (m.fate == Fate::DONE)
        {
            ++m_truth[side].duplicateDeliveries;
        }
        else
        {
            m.fate = Fate::DONE;
            --m_pending[sender];
            m_done[sender].push_back(d.messageId);
        }
        if (m.offerIndex <= m_lastDelivered[side][d.vc])
        {
            ++m_truth[side].outOfOrder;
        }
        m_lastDelivered[side][d.vc] = m.offerIndex;
        TrimDone(sender);
    }
    if (m_recordHistory)
    {
        m_delivered.push_back(rec);
    }
    if (m_deliveryCb)
    {
        m_deliveryCb(rec);
    }
}

void
DirectLinkReferenceEngine::OnOverflow(uint32_t side, const DirectLinkEndpointState::FlitTag& tag,
                                      uint64_t slot)
{
    const uint32_t sender = 1 - side;
    if (tag.messageId == NEVER)
    {
        return;
    }
    if (tag.flitIndex != 0)
    {
        // a Data micro-packet after the header: the message is delivered malformed when its
        // tail arrives, or truncated at the peer's next reset or header on the VC, which
        // counts it; if its tail was dropped too it may be held open (see Held open)
        WatchHeldOpen(sender, tag.messageId);
        return;
    }
    auto it = m_offered[sender].find(tag.messageId);
    if (it == m_offered[sender].end() || it->second.fate == Fate::DONE)
    {
        return;
    }
    NS_LOG_INFO("side " << side << " slot " << slot << ": header of message " << tag.messageId
                        << " of side " << sender << " (entry " << tag.serial
                        << ") accepted and dropped, VC " << it->second.vc << " full");
    it->second.headerDropped = true;
    if (tag.serial != NEVER)
    {
        // decided when the sender frees the entry (OnAck) or abandons it (OnAbandon)
        m_ackTruth[sender].dropped.insert(tag.serial);
    }
}

void
DirectLinkReferenceEngine::OnAbandon(uint32_t side, uint64_t id,
                                     DirectLinkEndpointState::ResetReason r, uint64_t slot)
{
    // the four reset reasons are the first four loss reasons, same numbers
    Undecide(side, id, static_cast<DirectLinkEndpointState::LossReason>(r), slot);
}

void
DirectLinkReferenceEngine::Undecide(uint32_t side, uint64_t id,
                                    DirectLinkEndpointState::LossReason r, uint64_t slot)
{
    auto it = m_offered[side].find(id);
    if (it == m_offered[side].end() || it->second.fate != Fate::PENDING)
    {
        return;
    }
    it->second.fate = Fate::ABANDONED;
    it->second.abandonSlot = slot;
    it->second.reason = r;
    // its last micro-packet on the line (sent in slot <= slot) arrives by the end of slot + L
    m_undecided[side].emplace_back(slot + m_cfg.oneWayDelaySlots, id);
}

void
DirectLinkReferenceEngine::OnAck(uint32_t side, const DirectLinkEndpointState::FlitTag& tag,
                                 uint64_t slot)
{
    AckTruth& t = m_ackTruth[side];
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    // the ack was sent in slot - L and reflects what the peer accepted up to slot - L - 1
    auto it = t.accepted.find(tag.serial);
    const bool genuine = it != t.accepted.end() && it->second + delay + 1 <= slot;
    // entries are freed oldest first: no older serial is freed again
    t.accepted.erase(t.accepted.begin(), t.accepted.upper_bound(tag.serial));
    const uint64_t peerSince = m_ackTruth[1 - side].normalSince;
    if (peerSince == NEVER || slot < peerSince + delay)
    {
        t.mixed = true; // the ack was sent before the peer's current Normal began
    }
    t.freed = true;
    t.freedUpTo = tag.serial;
    if (t.dropped.erase(tag.serial) != 0 && tag.messageId != NEVER)
    {
        // a header the peer accepted and dropped on a full VC buffer: the sender never resends
        // it; decided like a falsely acked one, L slots later (lost VC_OVERFLOW unless a copy
        // sent before reached the peer's VC buffer or reassembly)
        NS_LOG_INFO("side " << side << " slot " << slot << ": entry " << tag.serial << " (message "
                            << tag.messageId << ") freed, the peer dropped it on a full VC buffer");
        Undecide(side, tag.messageId, DirectLinkEndpointState::LossReason::VC_OVERFLOW, slot);
    }
    if (genuine)
    {
        return;
    }
    t.falseAck = true;
    ++m_truth[side].falseAcks;
    NS_LOG_INFO("side " << side << " slot " << slot << ": entry " << tag.serial << " (message "
                        << (tag.messageId == NEVER ? std::string("none, Credit")
                                                   : std::to_string(tag.messageId))
                        << ") freed by an ack of a micro-packet the peer did not accept");
    if (tag.messageId != NEVER)
    {
        Undecide(side, tag.messageId, DirectLinkEndpointState::LossReason::FALSE_ACK, slot);
    }
}

bool
DirectLinkReferenceEngine::AckRecordsClean(uint32_t side) const
{
    using LinkState = DirectLinkEndpointState::LinkState;
    if (m_ep[0].GetState() != LinkState::NORMAL || m_ep[1].GetState() != LinkState::NORMAL)
    {
        return false;
    }
    const AckTruth& t = m_ackTruth[side];
    if (t.falseAck || t.mixed || t.accBroken)
    {
        return false;
    }
    if (t.accFirst == NEVER)
    {
        return !t.freed;
    }
    return t.accFirst == t.firstSerial && (!t.freed || t.freedUpTo <= t.accLast);
}

uint64_t
DirectLinkReferenceEngine::NextLossDecision() const
{
    uint64_t next = NEVER;
    // a watched message can be counted held open (an event) from HeldOpenEarliest() on, as
    // soon as its sender has sent all of it (an ack can free the last micro-packet at the
    // end of any slot: no promise beyond this one then); not while its tail waits in the
    // peer's VC buffer (draining it delivers the message, itself an event); entering
    // Normal is itself an event
    for (uint32_t side = 0; side < 2; ++side)
    {
        for (uint64_t id : m_heldByPeer[side])
        {
            auto it = m_offered[side].find(id);
            if (it == m_offered[side].end() || m_ep[1 - side].HoldsMessageTail(id))
            {
                continue;
            }
            const uint64_t earliest = HeldOpenEarliest(side, it->second);
            if (earliest == NEVER)
            {
                continue;
            }
            next
                = std::min(next, m_ep[side].SendsMessage(id) ? m_slot : std::max(earliest, m_slot));
        }
    }
    for (uint32_t side = 0; side < 2; ++side)
    {
        if (!m_undecided[side].empty())
        {
            next = std::min(next, m_undecided[side].front().first);
        }
    }
    return next;
}

void
DirectLinkReferenceEngine::ResolveAbandoned(uint64_t s)
{
    for (uint32_t side = 0; side < 2; ++side)
    {
        bool lostAny = false;
        std::deque<std::pair<uint64_t, uint64_t>>& q = m_undecided[side];
        while (!q.empty() && q.front().first <= s)
        {
            const uint64_t id = q.front().second;
            q.pop_front();
            auto it = m_offered[side].find(id);
            if (it == m_offered[side].end() || it->second.fate != Fate::ABANDONED)
            {
                continue; // delivered (intact, truncated or malformed) meanwhile
            }
            if (m_ep[1 - side].HoldsMessage(id))
            {
                // the peer accepted some of it: it delivers it later (at the latest at its
                // next reset), which decides its fate
                NS_LOG_LOGIC("side " << side << " message " << id
                                     << " abandoned, held by the peer: delivered later");
                WatchHeldOpen(side, id);
                continue;
            }
            OfferedMessage& m = it->second;
            if (m.headerDropped)
            {
                // its header, accepted and dropped on a full VC buffer, is what it misses
                // (abandoned or falsely acked as it may also be)
                m.reason = DirectLinkEndpointState::LossReason::VC_OVERFLOW;
            }
            m.fate = Fate::DONE;
            --m_pending[side];
            m_done[side].push_back(id);
            lostAny = true;
            LostMessage l;
            l.side = side;
            l.messageId = id;
            l.slot = m.abandonSlot;
            l.reason = m.reason;
            ++m_truth[side].lost;
            ++m_truth[side].lostByReason[static_cast<uint32_t>(m.reason)];
            AddEvent(DirectLinkEventType::MESSAGE_LOST, side, static_cast<int64_t>(m.reason), 0, id,
                     m.vc);
            NS_LOG_INFO("side " << side << " message " << id << " lost ("
                                << DirectLinkEndpointState::LossReasonName(m.reason) << ")");
            if (m_recordHistory)
            {
                m_lost.push_back(l);
            }
            if (m_lossCb)
            {
                m_lossCb(l);
            }
        }
        if (lostAny)
        {
            TrimDone(side);
        }
        // watched messages (abandoned ones the peer held at their decision, ones with a
        // body micro-packet dropped): held open once nothing can close them any more but a
        // later header or reset
        std::vector<uint64_t>& held = m_heldByPeer[side];
        held.erase(std::remove_if(held.begin(), held.end(),
                                  [this, side, s](uint64_t id)
                                  {
                                      return !CheckHeldOpen(side, id, s);
                                  }),
                   held.end());
    }
}

bool
DirectLinkReferenceEngine::IsStalePairing(uint32_t sender) const
{
    const uint32_t receiver = 1 - sender;
    if (m_ackTruth[sender].accMixed)
    {
        return true; // the receiver's Normal holds state of two incarnations of the sender
    }
    // the sender's Normal accepted micro-packets (credits, acks) of two incarnations of the
    // receiver, or of one that is not the receiver's current one: its credits can exceed
    // what the receiver's current buffers hold
    const AckTruth& back = m_ackTruth[receiver];
    return back.accMixed
           || (back.accIncarnation != NEVER
               && back.accIncarnation != m_ep[receiver].GetCounters().normalEntries);
}

void
DirectLinkReferenceEngine::WatchHeldOpen(uint32_t side, uint64_t id)
{
    std::vector<uint64_t>& held = m_heldByPeer[side];
    if (std::find(held.begin(), held.end(), id) == held.end())
    {
        held.push_back(id);
    }
}

uint64_t
DirectLinkReferenceEngine::HeldOpenEarliest(uint32_t side, const OfferedMessage& m) const
{
    const uint64_t since = m_ackTruth[side].normalSince;
    if (since == NEVER)
    {
        return NEVER; // this side not Normal: its Inits may still reset the peer
    }
    // an Init it sent before its Normal may still be on the line until since + L
    uint64_t earliest = since + m_cfg.oneWayDelaySlots;
    if (m.fate == Fate::ABANDONED)
    {
        // micro-packets of it sent before its abandonment (or the false ack that freed
        // them) may still arrive until then
        earliest = std::max(earliest, m.abandonSlot + m_cfg.oneWayDelaySlots);
    }
    return earliest;
}

bool
DirectLinkReferenceEngine::CheckHeldOpen(uint32_t side, uint64_t id, uint64_t s)
{
    auto it = m_offered[side].find(id);
    if (it == m_offered[side].end() || it->second.fate == Fate::DONE || it->second.heldOpen
        || !m_ep[1 - side].HoldsMessage(id))
    {
        return false; // delivered (or closed) meanwhile, or already counted
    }
    OfferedMessage& m = it->second;
    if (s < HeldOpenEarliest(side, m) || m_ep[side].SendsMessage(id)
        || m_ep[1 - side].HoldsMessageTail(id))
    {
        // see HeldOpenEarliest(); or more of the message may still be sent; or its tail
        // waits in the peer's VC buffer (delivered when drained)
        return true;
    }
    m.heldOpen = true;
    ++m_truth[side].heldOpen;
    AddEvent(DirectLinkEventType::MESSAGE_HELD_OPEN, side, 0, 0, id, m.vc);
    NS_LOG_INFO("side " << side << " message " << id << " held open by the peer");
    return false;
}

void
DirectLinkReferenceEngine::OnState(uint32_t side, DirectLinkEndpointState::LinkState s,
                                   uint64_t slot, DirectLinkEndpointState::ResetReason r)
{
    AddEvent(DirectLinkEventType::STATE_CHANGE, side, static_cast<int64_t>(s),
             static_cast<int64_t>(m_lastState[side]));
    m_lastState[side] = s;
    AckTruth& mine = m_ackTruth[side];
    AckTruth& theirs = m_ackTruth[1 - side]; // the peer's micro-packets, accepted here
    if (s == DirectLinkEndpointState::LinkState::NORMAL)
    {
        mine.normalSince = slot;
        mine.firstSerial = m_ep[side].GetNextSerial();
        mine.freed = false;
        mine.falseAck = false;
        mine.mixed = false;
        theirs.accFirst = NEVER;
        theirs.accLast = NEVER;
        theirs.accBroken = false;
        theirs.accIncarnation = NEVER;
        theirs.accMixed = false;
        // the peer's frees so far came from acks of this side's previous Normal
        theirs.mixed = theirs.mixed || theirs.freed;
    }
    else
    {
        mine.normalSince = NEVER;
    }
    if (s == DirectLinkEndpointState::LinkState::INITIAL)
    {
        // the reset cleared the retry buffer (its messages were reported abandoned first)
        mine.dropped.clear();
    }
    if (s == DirectLinkEndpointState::LinkState::SHUTDOWN)
    {
        AddEvent(DirectLinkEventType::SHUTDOWN, side, static_cast<int64_t>(r));
    }
}

uint64_t
DirectLinkReferenceEngine::RetentionWindow() const
{
    uint64_t w = uint64_t{m_cfg.retryBufferSize} + m_cfg.oneWayDelaySlots + 1
                 + DirectLinkConfig::NUM_VCS + 64;
    for (uint32_t b : m_cfg.vcBufferSize)
    {
        w += b;
    }
    return w;
}

void
DirectLinkReferenceEngine::TrimDone(uint32_t side)
{
    const uint64_t window = RetentionWindow();
    std::deque<uint64_t>& done = m_done[side];
    while (done.size() > window)
    {
        const uint64_t id = done.front();
        done.pop_front();
        m_offered[side].erase(id);
        std::map<uint64_t, uint64_t>& r = m_retired[side];
        // insert id into the ranges, merging with its neighbours
        auto next = r.upper_bound(id);
        bool merged = false;
        if (next != r.begin())
        {
            auto prev = std::prev(next);
            if (prev->second + 1 == id)
            {
                prev->second = id;
                merged = true;
                if (next != r.end() && next->first == id + 1)
                {
                    prev->second = next->second;
                    r.erase(next);
                }
            }
        }
        if (!merged)
        {
            if (next != r.end() && next->first == id + 1)
            {
                const uint64_t last = next->second;
                r.erase(next);
                r[id] = last;
            }
            else
            {
                r[id] = id;
            }
        }
    }
}

bool
DirectLinkReferenceEngine::IsRetired(uint32_t side, uint64_t id) const
{
    const std::map<uint64_t, uint64_t>& r = m_retired[side];
    auto next = r.upper_bound(id);
    if (next == r.begin())
    {
        return false;
    }
    return std::prev(next)->second >= id;
}

void
DirectLinkReferenceEngine::SetRecordHistory(bool record)
{
    m_recordHistory = record;
}

uint64_t
DirectLinkReferenceEngine::GetRetainedMessages() const
{
    uint64_t n = m_delivered.size() + m_lost.size();
    for (uint32_t s = 0; s < 2; ++s)
    {
        n += m_offered[s].size() + m_retired[s].size();
    }
    return n;
}

uint64_t
DirectLinkReferenceEngine::GetSlot() const
{
    return m_slot;
}

const DirectLinkEndpointState&
DirectLinkReferenceEngine::GetEndpoint(uint32_t side) const
{
    CheckSide("GetEndpoint", side);
    return m_ep[side];
}

void
DirectLinkReferenceEngine::SetDrainInterval(uint32_t side, uint32_t vc, uint32_t interval)
{
    CheckSide("SetDrainInterval", side);
    m_ep[side].SetDrainInterval(vc, interval);
}

const DirectLinkReferenceEngine::TruthCounters&
DirectLinkReferenceEngine::GetTruth(uint32_t side) const
{
    CheckSide("GetTruth", side);
    return m_truth[side];
}

const std::vector<DirectLinkReferenceEngine::DeliveredMessage>&
DirectLinkReferenceEngine::GetDelivered() const
{
    return m_delivered;
}

const std::vector<DirectLinkReferenceEngine::LostMessage>&
DirectLinkReferenceEngine::GetLost() const
{
    return m_lost;
}

uint64_t
DirectLinkReferenceEngine::GetPending(uint32_t side) const
{
    CheckSide("GetPending", side);
    return m_pending[side];
}

void
DirectLinkReferenceEngine::SetDeliveryCallback(DeliveryCallback cb)
{
    m_deliveryCb = std::move(cb);
}

void
DirectLinkReferenceEngine::SetLossCallback(LossCallback cb)
{
    m_lossCb = std::move(cb);
}

void
DirectLinkReferenceEngine::SetEventCallback(EventCallback cb)
{
    m_eventCb = std::move(cb);
}

void
DirectLinkReferenceEngine::SetSlotCallback(SlotCallback cb)
{
    m_slotCb = std::move(cb);
}

const DirectLinkConfig&
DirectLinkReferenceEngine::GetConfig() const
{
    return m_cfg;
}

} // namespace ns3

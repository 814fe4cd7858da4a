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
    RIFL_CHECK_ARG(Remote(side), "DirectLinkReferenceEngine::OfferMessage: side = "
                                     << side << " is not the local side " << m_local
                                     << " of this split half");
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
    m.flits = static_cast<uint32_t>(flits.size());
    if (m_split)
    {
        // the receiving half keeps the copy its deliveries are checked against
        LineNotice n;
        n.kind = NoticeKind::OFFER;
        n.id = messageId;
        n.value = m.offerIndex;
        n.vc = vc;
        n.flits = m.flits;
        n.route = m.route;
        n.bytes = bytes;
        m_outbox.push_back(std::move(n));
    }
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
                if (Remote(1 - side))
                {
                    // the sender's half checks its acks against this (see False acks)
                    LineNotice n;
                    n.kind = NoticeKind::ACCEPTED;
                    n.id = tag.serial;
                    m_outbox.push_back(std::move(n));
                }
                else
                {
                    t.accepted.emplace(tag.serial, s);
                }
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
                NoteStatus(side, s);
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
    if (m_split)
    {
        SplitStep();
        return;
    }
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
        FillTrace(t, side, s, tx[side]);
        t.txCorrupted = txCorrupted[side];
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
DirectLinkReferenceEngine::FillTrace(SlotTrace& t, uint32_t side, uint64_t s,
                                     const DirectLinkEndpointState::TxFlit& tx) const
{
    const DirectLinkEndpointState& ep = m_ep[side];
    t.slot = s;
    t.side = side;
    t.state = ep.GetState();
    t.txType = tx.fields.type;
    t.txSndNo = tx.fields.sndNo;
    t.txAskNo = tx.fields.askNo;
    t.txCrdt = tx.fields.crdt;
    t.txRetransmission = tx.retransmission;
    t.txNak = tx.nak;
    t.askExpected = ep.GetAskExpected();
    t.outstanding = ep.GetOutstanding();
    t.frameExpected = ep.GetFrameExpected();
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        t.credit[v] = ep.GetCredit(v);
        t.vcOccupancy[v] = ep.GetVcOccupancy(v);
    }
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
            // the sender's end learns it one line delay later
            Report r;
            r.due = m_slot + m_cfg.oneWayDelaySlots;
            r.kind = ReportKind::DELIVERED;
            r.id = d.messageId;
            r.vc = m.vc;
            PostReport(sender, r);
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
        if (Remote(sender))
        {
            LineNotice n;
            n.kind = NoticeKind::DROPPED;
            n.id = tag.serial;
            n.value = tag.incarnation;
            m_outbox.push_back(std::move(n));
        }
        else if (m_ep[sender].GetState() == DirectLinkEndpointState::LinkState::NORMAL &&
                 tag.incarnation == m_ep[sender].GetCounters().normalEntries)
        {
            // (an entry of an earlier incarnation was abandoned by the reset: no ack frees
            // it, and a set never emptied would pin the fast engine's prediction)
            m_ackTruth[sender].dropped.insert(tag.serial);
        }
    }
}

void
DirectLinkReferenceEngine::OnAbandon(uint32_t side, uint64_t id,
                                     DirectLinkEndpointState::ResetReason r, uint64_t slot)
{
    MarkFinished(side, id, slot); // the reset dropped all of it
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
    if (m_split && side == m_local)
    {
        // the receiving half decides, L slots from now (its copy then knows of it)
        LineNotice n;
        n.kind = NoticeKind::UNDECIDE;
        n.id = id;
        n.reason = static_cast<uint32_t>(r);
        m_outbox.push_back(std::move(n));
        return;
    }
    // its last micro-packet on the line (sent in slot <= slot) arrives by the end of slot + L
    m_undecided[side].emplace_back(slot + m_cfg.oneWayDelaySlots, id);
}

void
DirectLinkReferenceEngine::OnAck(uint32_t side, const DirectLinkEndpointState::FlitTag& tag,
                                 uint64_t slot)
{
    AckTruth& t = m_ackTruth[side];
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    if (tag.messageId != NEVER)
    {
        // entries are freed oldest first: freeing the tail frees the last of the message
        auto m = m_offered[side].find(tag.messageId);
        if (m != m_offered[side].end() && tag.flitIndex + 1 == m->second.flits)
        {
            MarkFinished(side, tag.messageId, slot);
        }
    }
    // the ack was sent in slot - L and reflects what the peer accepted up to slot - L - 1
    auto it = t.accepted.find(tag.serial);
    const bool genuine = it != t.accepted.end() && it->second + delay + 1 <= slot;
    // entries are freed oldest first: no older serial is freed again
    t.accepted.erase(t.accepted.begin(), t.accepted.upper_bound(tag.serial));
    t.everFreedUpTo = tag.serial;
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
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    for (uint32_t side = 0; side < 2; ++side)
    {
        if (!m_reports[side].empty())
        {
            next = std::min(next, m_reports[side].front().due);
        }
        if (!m_undecided[side].empty())
        {
            next = std::min(next, m_undecided[side].front().first);
        }
        // a watched message can be counted held open (see CheckHeldOpen) at the end of a slot
        // s once its sender had finished it and was Normal at the end of s - L; not while
        // its tail waits in the peer's VC buffer (draining it delivers the message, itself
        // an event). The sender's entry into Normal is itself an event.
        for (uint64_t id : m_heldByPeer[side])
        {
            auto it = m_offered[side].find(id);
            if (it == m_offered[side].end() || m_ep[1 - side].HoldsMessageTail(id))
            {
                continue;
            }
            const uint64_t finished = it->second.finishedSlot;
            if (finished == NEVER)
            {
                // finished at the end of m_slot at the earliest
                next = std::min(next, m_slot + delay);
                continue;
            }
            const uint64_t from = std::max(m_slot, finished + delay);
            // Normal at the end of some x >= from - L: now (it stays so until an event), or
            // in the history kept
            bool normal = m_ackTruth[side].normalSince != NEVER
                          || (from >= delay && NormalSinceAt(side, from - delay) != NEVER);
            for (const auto& h : m_normalHistory[side])
            {
                normal = normal || (h.second != NEVER && h.first + delay >= from);
            }
            if (normal)
            {
                next = std::min(next, from);
            }
        }
    }
    return next;
}

void
DirectLinkReferenceEngine::FireReports(uint32_t side, uint64_t s)
{
    std::deque<Report>& q = m_reports[side];
    while (!q.empty() && q.front().due <= s)
    {
        const Report r = q.front();
        q.pop_front();
        if (r.kind == ReportKind::DELIVERED)
        {
            AddEvent(DirectLinkEventType::MESSAGE_DELIVERED, side, 0, 0, r.id, r.vc);
            continue;
        }
        if (r.kind == ReportKind::HELD_OPEN)
        {
            ++m_truth[side].heldOpen;
            AddEvent(DirectLinkEventType::MESSAGE_HELD_OPEN, side, 0, 0, r.id, r.vc);
            NS_LOG_INFO("side " << side << " message " << r.id << " held open by the peer");
            continue;
        }
        --m_pending[side];
        LostMessage l;
        l.side = side;
        l.messageId = r.id;
        l.slot = r.abandonSlot;
        l.reason = r.reason;
        ++m_truth[side].lost;
        ++m_truth[side].lostByReason[static_cast<uint32_t>(r.reason)];
        AddEvent(DirectLinkEventType::MESSAGE_LOST, side, static_cast<int64_t>(r.reason), 0, r.id,
                 r.vc);
        NS_LOG_INFO("side " << side << " message " << r.id << " lost ("
                            << DirectLinkEndpointState::LossReasonName(r.reason) << ")");
        if (m_recordHistory)
        {
            m_lost.push_back(l);
        }
        if (m_lossCb)
        {
            m_lossCb(l);
        }
    }
}

void
DirectLinkReferenceEngine::ResolveAbandoned(uint64_t s)
{
    const uint64_t delay = m_cfg.oneWayDelaySlots;
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
            // decided here (no later delivery can count it), reported at the sender L
            // slots later
            m.fate = Fate::DONE;
            m_done[side].push_back(id);
            lostAny = true;
            Report r;
            r.due = s + delay;
            r.kind = ReportKind::LOST;
            r.id = id;
            r.vc = m.vc;
            r.abandonSlot = m.abandonSlot;
            r.reason = m.reason;
            PostReport(side, r);
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
        // verdicts reached L slots ago, reported at the sender's end
        FireReports(side, s);
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
    // what the receiver's current buffers hold. The receiver's end of the link knows the
    // sender's record one line delay late: as of the end of slot m_slot - L (what the sender
    // did after that cannot have reached the receiver yet).
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    if (m_slot < delay)
    {
        return false;
    }
    const AcceptanceStatus back = AcceptanceAt(sender, m_slot - delay);
    return back.mixed
           || (back.incarnation != NEVER
               && back.incarnation != m_ep[receiver].GetCounters().normalEntries);
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
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    // the peer's end knows the sender one line delay late: as of the end of slot s - L the
    // sender held nothing of the message (so all of it has arrived by the end of s) and
    // was Normal (so no Init of its Initial is still on the line)
    if (s < delay || m.finishedSlot == NEVER || m.finishedSlot > s - delay
        || NormalSinceAt(side, s - delay) == NEVER || m_ep[1 - side].HoldsMessageTail(id))
    {
        // not yet; or its tail waits in the peer's VC buffer (delivered when drained)
        return true;
    }
    m.heldOpen = true;
    Report r;
    r.due = s + delay;
    r.kind = ReportKind::HELD_OPEN;
    r.id = id;
    r.vc = m.vc;
    PostReport(side, r);
    NS_LOG_LOGIC("side " << side << " message " << id << " held open by the peer, reported at "
                         << r.due);
    return false;
}

uint64_t
DirectLinkReferenceEngine::NormalSinceAt(uint32_t side, uint64_t x) const
{
    uint64_t since = NEVER;
    for (const auto& h : m_normalHistory[side])
    {
        if (h.first > x)
        {
            break;
        }
        since = h.second;
    }
    return since;
}

DirectLinkReferenceEngine::AcceptanceStatus
DirectLinkReferenceEngine::AcceptanceAt(uint32_t acceptor, uint64_t x) const
{
    AcceptanceStatus st;
    for (const AcceptanceStatus& h : m_accHistory[acceptor])
    {
        if (h.slot > x)
        {
            break;
        }
        st = h;
    }
    return st;
}

void
DirectLinkReferenceEngine::NoteStatus(uint32_t side, uint64_t x)
{
    const AckTruth& t = m_ackTruth[1 - side]; // the peer's micro-packets accepted here
    const uint64_t since = m_ackTruth[side].normalSince;
    // (called on every acceptance: most leave the status as it was, and send nothing)
    if (PushStatus(side, x, since, t.accMixed, t.accIncarnation) && m_split && side == m_local)
    {
        // the peer's half reads it one line delay late (held open, stale pairings)
        LineNotice* n = nullptr;
        for (LineNotice& o : m_outbox)
        {
            n = o.kind == NoticeKind::STATUS ? &o : n;
        }
        if (n == nullptr)
        {
            m_outbox.emplace_back();
            n = &m_outbox.back();
            n->kind = NoticeKind::STATUS;
        }
        n->value = since;
        n->reason = t.accMixed ? 1 : 0;
        n->value2 = t.accIncarnation;
    }
}

bool
DirectLinkReferenceEngine::PushStatus(uint32_t side, uint64_t x, uint64_t since, bool mixed,
                                      uint64_t incarnation)
{
    bool changed = false;
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    // queries ask for slots >= m_slot - L: keep the last entry at or before that
    const uint64_t oldest = m_slot >= delay ? m_slot - delay : 0;
    auto& normal = m_normalHistory[side];
    if (normal.empty() ? since != NEVER : normal.back().second != since)
    {
        changed = true;
        if (!normal.empty() && normal.back().first == x)
        {
            normal.back().second = since;
        }
        else
        {
            normal.emplace_back(x, since);
        }
    }
    while (normal.size() >= 2 && normal[1].first <= oldest)
    {
        normal.pop_front();
    }
    auto& acc = m_accHistory[side];
    if (acc.empty() ? (mixed || incarnation != NEVER)
                    : (acc.back().mixed != mixed || acc.back().incarnation != incarnation))
    {
        changed = true;
        if (!acc.empty() && acc.back().slot == x)
        {
            acc.back().mixed = mixed;
            acc.back().incarnation = incarnation;
        }
        else
        {
            AcceptanceStatus st;
            st.slot = x;
            st.mixed = mixed;
            st.incarnation = incarnation;
            acc.push_back(st);
        }
    }
    while (acc.size() >= 2 && acc[1].slot <= oldest)
    {
        acc.pop_front();
    }
    return changed;
}

void
DirectLinkReferenceEngine::PostReport(uint32_t side, const Report& r)
{
    if (!Remote(side))
    {
        m_reports[side].push_back(r);
        return;
    }
    // the sender's half reports it at the end of slot r.due, when this notice arrives
    LineNotice n;
    n.kind = NoticeKind::VERDICT;
    n.id = r.id;
    n.vc = r.vc;
    n.value = r.abandonSlot;
    n.reason = r.kind == ReportKind::DELIVERED ? 16
               : r.kind == ReportKind::HELD_OPEN ? 8 + static_cast<uint32_t>(r.reason)
                                                 : static_cast<uint32_t>(r.reason);
    m_outbox.push_back(std::move(n));
}

void
DirectLinkReferenceEngine::MarkFinished(uint32_t side, uint64_t id, uint64_t slot)
{
    auto it = m_offered[side].find(id);
    if (it == m_offered[side].end() || it->second.finishedSlot != NEVER)
    {
        return;
    }
    it->second.finishedSlot = slot;
    if (m_split && side == m_local)
    {
        LineNotice n;
        n.kind = NoticeKind::FINISHED;
        n.id = id;
        m_outbox.push_back(std::move(n));
        m_finishedOwn.push_back(id); // its record is not needed here any more
    }
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
    // the callback's slot is the first one in the new state, except for SHUTDOWN (the slot
    // at whose end the side reset); either way the status holds from the end of x on
    NoteStatus(side, s == DirectLinkEndpointState::LinkState::SHUTDOWN ? slot : slot - 1);
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
        Retire(side, id);
    }
}

void
DirectLinkReferenceEngine::Retire(uint32_t side, uint64_t id)
{
    m_offered[side].erase(id);
    std::map<uint64_t, uint64_t>& r = m_retired[side];
    // insert id into the ranges, merging with its neighbours
    auto next = r.upper_bound(id);
    if (next != r.begin())
    {
        auto prev = std::prev(next);
        if (prev->second >= id)
        {
            return; // already retired
        }
        if (prev->second + 1 == id)
        {
            prev->second = id;
            if (next != r.end() && next->first == id + 1)
            {
                prev->second = next->second;
                r.erase(next);
            }
            return;
        }
    }
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
    RIFL_CHECK_ARG(Remote(side), "DirectLinkReferenceEngine::SetDrainInterval: side = "
                                     << side << " is not the local side " << m_local
                                     << " of this split half");
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

void
DirectLinkReferenceEngine::SetLocalEndpoint(uint32_t side)
{
    CheckSide("SetLocalEndpoint", side);
    if (m_slot != 0 || m_truth[0].offered != 0 || m_truth[1].offered != 0)
    {
        throw std::logic_error("DirectLinkReferenceEngine::SetLocalEndpoint: the engine has "
                               "already run or been offered messages");
    }
    if (!SupportsSplit())
    {
        throw std::logic_error("DirectLinkReferenceEngine::SetLocalEndpoint: only the reference "
                               "engine runs split (not this engine type)");
    }
    RIFL_CHECK_ARG(m_cfg.oneWayDelaySlots < 1, "DirectLinkReferenceEngine::SetLocalEndpoint: "
                                               "OneWayDelaySlots = "
                                                   << m_cfg.oneWayDelaySlots
                                                   << " is out of range for a split link, "
                                                      "which needs >= 1");
    m_split = true;
    m_local = side;
}

bool
DirectLinkReferenceEngine::SupportsSplit() const
{
    return true;
}

bool
DirectLinkReferenceEngine::IsSplit() const
{
    return m_split;
}

uint32_t
DirectLinkReferenceEngine::GetLocalEndpoint() const
{
    return m_local;
}

void
DirectLinkReferenceEngine::SetLineOutCallback(LineOutCallback cb)
{
    m_lineOut = std::move(cb);
}

uint64_t
DirectLinkReferenceEngine::GetLineRecordDueSlot(uint64_t slot) const
{
    return slot + m_cfg.oneWayDelaySlots;
}

void
DirectLinkReferenceEngine::ReceiveLineRecord(const LineRecord& r)
{
    if (!m_split)
    {
        throw std::logic_error("DirectLinkReferenceEngine::ReceiveLineRecord: not split "
                               "(SetLocalEndpoint)");
    }
    if (r.sender != 1 - m_local)
    {
        throw std::runtime_error("DirectLinkReferenceEngine::ReceiveLineRecord: a record of side " +
                                 std::to_string(r.sender) + " at the half of side " +
                                 std::to_string(m_local));
    }
    if (r.slot != m_nextInSlot)
    {
        throw std::runtime_error("DirectLinkReferenceEngine::ReceiveLineRecord: record of slot " +
                                 std::to_string(r.slot) + " out of order (expected slot " +
                                 std::to_string(m_nextInSlot) + ")");
    }
    CheckRecord(r, "DirectLinkReferenceEngine::ReceiveLineRecord");
    if (GetLineRecordDueSlot(r.slot) < m_slot)
    {
        throw std::runtime_error("DirectLinkReferenceEngine::ReceiveLineRecord: record of slot " +
                                 std::to_string(r.slot) + " is late: due at the end of slot " +
                                 std::to_string(GetLineRecordDueSlot(r.slot)) +
                                 ", and slot " + std::to_string(m_slot) + " is next");
    }
    ++m_nextInSlot;
    m_inbox.push_back(r);
}

void
DirectLinkReferenceEngine::ApplyNotice(const LineNotice& n, uint64_t x)
{
    const uint32_t peer = 1 - m_local;
    AckTruth& mine = m_ackTruth[m_local];
    switch (n.kind)
    {
    case NoticeKind::OFFER: {
        if (m_offered[peer].count(n.id) != 0 || IsRetired(peer, n.id))
        {
            throw std::runtime_error("DirectLinkReferenceEngine: the peer's record of slot " +
                                     std::to_string(x) + " offers message " +
                                     std::to_string(n.id) + " again");
        }
        OfferedMessage m;
        m.offerSlot = x;
        m.offerIndex = n.value;
        m.vc = n.vc;
        m.route = n.route;
        m.bytes = n.bytes;
        m.flits = n.flits;
        m_offered[peer][n.id] = std::move(m);
        break;
    }
    case NoticeKind::UNDECIDE:
        // decided here at the end of slot x + L, the slot this record is due in
        Undecide(peer, n.id, static_cast<DirectLinkEndpointState::LossReason>(n.reason), x);
        break;
    case NoticeKind::FINISHED: {
        auto it = m_offered[peer].find(n.id);
        if (it != m_offered[peer].end() && it->second.finishedSlot == NEVER)
        {
            it->second.finishedSlot = x;
        }
        break;
    }
    case NoticeKind::STATUS:
        PushStatus(peer, x, n.value, n.reason != 0, n.value2);
        break;
    case NoticeKind::ACCEPTED:
        // (one freed already was freed by a false ack: no ack can ask for it again)
        if (mine.everFreedUpTo == NEVER || n.id > mine.everFreedUpTo)
        {
            mine.accepted.emplace(n.id, x);
        }
        break;
    case NoticeKind::DROPPED:
        // still an entry of this Normal's retry buffer (a reset since clears the set)
        if (m_ep[m_local].GetState() == DirectLinkEndpointState::LinkState::NORMAL &&
            n.value == m_ep[m_local].GetCounters().normalEntries &&
            (mine.everFreedUpTo == NEVER || n.id > mine.everFreedUpTo))
        {
            mine.dropped.insert(n.id);
        }
        break;
    case NoticeKind::VERDICT: {
        if (m_offered[m_local].count(n.id) == 0 && !IsRetired(m_local, n.id))
        {
            throw std::runtime_error("DirectLinkReferenceEngine: the peer's record of slot " +
                                     std::to_string(x) + " has a verdict on message " +
                                     std::to_string(n.id) + ", which this side never offered");
        }
        Report r;
        r.due = x + m_cfg.oneWayDelaySlots;
        r.kind = (n.reason & 16) != 0  ? ReportKind::DELIVERED
                 : (n.reason & 8) != 0 ? ReportKind::HELD_OPEN
                                       : ReportKind::LOST;
        r.id = n.id;
        r.vc = n.vc;
        r.abandonSlot = n.value;
        r.reason = static_cast<DirectLinkEndpointState::LossReason>(n.reason & 7);
        m_reports[m_local].push_back(r);
        break;
    }
    }
}

void
DirectLinkReferenceEngine::SplitStep()
{
    const uint64_t s = m_slot;
    const uint32_t side = m_local;
    const uint32_t peer = 1 - side;
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    // the peer's record due now must be here before anything of the slot runs (so that the
    // half is unchanged after this error)
    if (s >= delay && (m_inbox.empty() || m_inbox.front().slot != s - delay))
    {
        throw std::runtime_error("DirectLinkReferenceEngine: the record of side " +
                                 std::to_string(peer) + " for slot " + std::to_string(s - delay) +
                                 " is missing at the end of slot " + std::to_string(s));
    }
    // 1. send (the line's errors are applied by the peer's half on arrival)
    const DirectLinkEndpointState::TxFlit tx = m_ep[side].BuildTx(s);
    TxEvents(side, tx);
    LineRecord out;
    out.sender = side;
    out.slot = s;
    out.bits = Flit::Encode(tx.fields, m_cfg.crcPoly);
    out.tag = tx.tag;
    // 2. end of slot: the peer's record of slot s - L (its notices first: they describe the
    //    peer's end up to the end of slot s - L), then reception, drain, timers
    SlotTrace t;
    if (s >= delay)
    {
        LineRecord in = std::move(m_inbox.front());
        m_inbox.pop_front();
        for (const LineNotice& n : in.notices)
        {
            ApplyNotice(n, in.slot);
        }
        bool corrupted = false;
        ApplyErrors(peer, in.slot, &in.bits, corrupted);
        const Flit::DecodeResult r = Flit::Decode(in.bits, m_cfg.crcPoly);
        t.rxPresent = true;
        t.rxStatus = r.status;
        t.rxType = r.fields.type;
        RxAndEndOfSlot(side, s, &r, in.tag, corrupted);
    }
    else
    {
        RxAndEndOfSlot(side, s, nullptr, DirectLinkEndpointState::FlitTag(), false);
    }
    // 3. the peer's messages: decisions and held-open checks (told to the peer); the local
    //    side's verdicts due now (reported here)
    ResolveAbandoned(s);
    // 4. trace (the local side; txCorrupted is known only at the peer's half)
    FillTrace(t, side, s, tx);
    if (m_slotCb)
    {
        m_slotCb(t);
    }
    // 5. events
    FlushEvents();
    for (uint64_t id : m_finishedOwn)
    {
        Retire(side, id); // the peer's half keeps the record that matters
    }
    m_finishedOwn.clear();
    out.notices = std::move(m_outbox);
    m_outbox.clear();
    ++m_slot;
    if (m_lineOut)
    {
        m_lineOut(out);
    }
}

namespace
{
constexpr uint8_t LINE_RECORD_VERSION = 1; //!< EncodeLineRecord() format
} // namespace

std::vector<uint8_t>
DirectLinkReferenceEngine::EncodeLineRecord(const LineRecord& r) const
{
    RIFL_CHECK_ARG(r.bits.GetSize() != Flit::FLIT_BITS,
                   "DirectLinkReferenceEngine::EncodeLineRecord: bits size = "
                       << r.bits.GetSize() << " is not " << Flit::FLIT_BITS);
    WireWriter w;
    w.Put(LINE_RECORD_VERSION, 1);
    w.Put(r.sender, 1);
    w.Put(r.slot, 8);
    w.Put(r.bits.ToBytes());
    w.Put(r.tag.messageId, 8);
    w.Put(r.tag.flitIndex, 4);
    w.Put(r.tag.serial, 8);
    w.Put(r.tag.incarnation, 8);
    w.Put(r.notices.size(), 4);
    for (const LineNotice& n : r.notices)
    {
        w.Put(static_cast<uint8_t>(n.kind), 1);
        w.Put(n.id, 8);
        w.Put(n.value, 8);
        w.Put(n.value2, 8);
        w.Put(n.reason, 1);
        w.Put(n.vc, 1);
        if (n.kind == NoticeKind::OFFER)
        {
            w.Put(n.flits, 4);
            w.Put(n.route.dstCpu, 1);
            w.Put(n.route.srcCpu, 1);
            w.Put(n.route.msgClass, 1);
            w.Put(n.route.length, 2);
            w.Put(n.bytes.size(), 4);
            w.Put(n.bytes);
        }
    }
    return std::move(w.out);
}

DirectLinkReferenceEngine::LineRecord
DirectLinkReferenceEngine::DecodeLineRecord(const uint8_t* data, std::size_t size) const
{
    const char* where = "DirectLinkReferenceEngine::DecodeLineRecord";
    RIFL_CHECK_ARG(data == nullptr && size != 0, where << ": data = null with size " << size);
    WireReader rd{data, size, where};
    const uint64_t version = rd.Get(1, "version");
    RIFL_CHECK_ARG(version != LINE_RECORD_VERSION,
                   where << ": version " << version << " is not " << int{LINE_RECORD_VERSION});
    LineRecord r;
    const uint64_t sender = rd.Get(1, "sender");
    RIFL_CHECK_ARG(sender > 1, where << ": sender " << sender << " is out of range [0, 1]");
    r.sender = static_cast<uint32_t>(sender);
    r.slot = rd.Get(8, "slot");
    const std::vector<uint8_t> bits = rd.GetBytes(Flit::FLIT_BITS / 8, "line bits");
    r.bits = BitBlock::FromBytes(bits.data(), Flit::FLIT_BITS);
    r.tag.messageId = rd.Get(8, "tag.messageId");
    r.tag.flitIndex = static_cast<uint32_t>(rd.Get(4, "tag.flitIndex"));
    r.tag.serial = rd.Get(8, "tag.serial");
    r.tag.incarnation = rd.Get(8, "tag.incarnation");
    const uint64_t count = rd.Get(4, "notice count");
    // the smallest notice takes 27 bytes: a count beyond what is left is malformed
    RIFL_CHECK_ARG(count > (size - rd.pos) / 27,
                   where << ": notice count " << count << " exceeds the " << size - rd.pos
                         << " bytes left");
    for (uint64_t k = 0; k < count; ++k)
    {
        LineNotice n;
        const uint64_t kind = rd.Get(1, "notice kind");
        RIFL_CHECK_ARG(kind > static_cast<uint8_t>(NoticeKind::VERDICT),
                       where << ": notice kind " << kind << " is out of range [0, 6]");
        n.kind = static_cast<NoticeKind>(kind);
        n.id = rd.Get(8, "notice id");
        n.value = rd.Get(8, "notice value");
        n.value2 = rd.Get(8, "notice value2");
        n.reason = static_cast<uint32_t>(rd.Get(1, "notice reason"));
        n.vc = static_cast<uint32_t>(rd.Get(1, "notice vc"));
        if (n.kind == NoticeKind::OFFER)
        {
            n.flits = static_cast<uint32_t>(rd.Get(4, "offer flits"));
            n.route.dstCpu = static_cast<uint32_t>(rd.Get(1, "offer dstCpu"));
            n.route.srcCpu = static_cast<uint32_t>(rd.Get(1, "offer srcCpu"));
            n.route.msgClass = static_cast<uint32_t>(rd.Get(1, "offer msgClass"));
            n.route.length = static_cast<uint32_t>(rd.Get(2, "offer length"));
            const uint64_t len = rd.Get(4, "offer byte count");
            RIFL_CHECK_ARG(len > m_cfg.maxMessageBytes,
                           where << ": offer byte count " << len << " exceeds MaxMessageBytes "
                                 << m_cfg.maxMessageBytes);
            n.bytes = rd.GetBytes(len, "offer bytes");
        }
        r.notices.push_back(std::move(n));
    }
    RIFL_CHECK_ARG(rd.pos != size, where << ": " << size - rd.pos << " bytes after the record");
    CheckRecord(r, where);
    return r;
}

void
DirectLinkReferenceEngine::CheckRecord(const LineRecord& r, const char* where) const
{
    RIFL_CHECK_ARG(r.sender > 1, where << ": sender " << r.sender << " is out of range [0, 1]");
    RIFL_CHECK_ARG(r.bits.GetSize() != Flit::FLIT_BITS,
                   where << ": line bits size " << r.bits.GetSize() << " is not "
                         << Flit::FLIT_BITS);
    for (const LineNotice& n : r.notices)
    {
        RIFL_CHECK_ARG(n.kind > NoticeKind::VERDICT,
                       where << ": notice kind " << int(n.kind) << " is out of range [0, 6]");
        RIFL_CHECK_ARG(n.vc >= DirectLinkConfig::NUM_VCS,
                       where << ": notice vc " << n.vc << " is out of range [0, 3]");
        const bool reasonOk =
            n.kind == NoticeKind::VERDICT
                ? (n.reason == 16 || (n.reason & ~8u) < DirectLinkEndpointState::NUM_LOSS_REASONS)
            : n.kind == NoticeKind::UNDECIDE ? n.reason < DirectLinkEndpointState::NUM_LOSS_REASONS
            : n.kind == NoticeKind::STATUS   ? n.reason <= 1
                                             : n.reason == 0;
        RIFL_CHECK_ARG(!reasonOk, where << ": notice reason " << n.reason
                                        << " is out of range for notice kind " << int(n.kind));
        if (n.kind == NoticeKind::OFFER)
        {
            RIFL_CHECK_ARG(n.route.dstCpu > 255 || n.route.srcCpu > 255 || n.route.msgClass > 15 ||
                               n.route.length > 0xFFFF,
                           where << ": offer routing word (dstCpu " << n.route.dstCpu
                                 << ", srcCpu " << n.route.srcCpu << ", msgClass "
                                 << n.route.msgClass << ", length " << n.route.length
                                 << ") is out of range");
            RIFL_CHECK_ARG(n.bytes.size() > m_cfg.maxMessageBytes,
                           where << ": offer byte count " << n.bytes.size()
                                 << " exceeds MaxMessageBytes " << m_cfg.maxMessageBytes);
            RIFL_CHECK_ARG(n.flits != Flit::NumMicroPackets(static_cast<uint32_t>(n.bytes.size())),
                           where << ": offer flits " << n.flits << " is not the "
                                 << Flit::NumMicroPackets(static_cast<uint32_t>(n.bytes.size()))
                                 << " micro-packets of " << n.bytes.size() << " bytes");
        }
    }
}

} // namespace ns3

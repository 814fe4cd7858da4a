/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-endpoint-state.h"

#include "ns3/log.h"
#include "ns3/rifl-check.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkEndpointState");

using Flit = DirectLinkFlit;
using PktType = DirectLinkFlit::PktType;

DirectLinkEndpointState::DirectLinkEndpointState(const DirectLinkConfig& config)
    : m_cfg(config)
{
    m_cfg.Validate();
    m_creditZeroSince.fill(NEVER);
}

void
DirectLinkEndpointState::QueueMessage(uint64_t messageId, const std::vector<Flit::Fields>& flits)
{
    for (uint32_t i = 0; i < flits.size(); ++i)
    {
        TaggedFlit t;
        t.fields = flits[i];
        t.tag.messageId = messageId;
        t.tag.flitIndex = i;
        m_txQueue[flits[i].vc].push_back(t);
    }
}

uint32_t
DirectLinkEndpointState::MyAskNo() const
{
    return (m_frameExpected + SEQ_MODULUS - 1) % SEQ_MODULUS;
}

uint32_t
DirectLinkEndpointState::TakeOwedCredits()
{
    uint32_t crdt = 0;
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        if (m_owed[v] > 0)
        {
            --m_owed[v];
            crdt |= 1U << v;
            ++m_counters.creditsSent;
        }
    }
    return crdt;
}

DirectLinkEndpointState::TxFlit
DirectLinkEndpointState::BuildTx(uint64_t slot)
{
    TxFlit tx;
    if (m_state != LinkState::NORMAL)
    {
        tx.fields = m_peerSeen ? Flit::MakeInitAck() : Flit::MakeInit();
    }
    else if (m_nakPending)
    {
        m_nakPending = false;
        tx.fields = Flit::MakeNull(MyAskNo());
        tx.fields.data[0] = 0x01;
        tx.nak = true;
        ++m_counters.naksSent;
    }
    else if (m_resendPos < m_retry.size())
    {
        RetryEntry& e = m_retry[m_resendPos++];
        e.fields.askNo = MyAskNo();
        e.deadline = slot + m_cfg.ackTime;
        if (e.retransLeft > 0)
        {
            --e.retransLeft;
        }
        tx.fields = e.fields;
        tx.tag = e.tag;
        tx.retransmission = true;
        ++m_counters.retransmissions;
    }
    else
    {
        bool sent = false;
        if (m_retry.size() < m_cfg.retryBufferSize)
        {
            const uint32_t nextSeq = (m_askExpected + m_retry.size()) % SEQ_MODULUS;
            for (uint32_t k = 0; k < DirectLinkConfig::NUM_VCS && !sent; ++k)
            {
                const uint32_t v = (m_rrVc + k) % DirectLinkConfig::NUM_VCS;
                if (m_txQueue[v].empty() || m_credit[v] == 0)
                {
                    continue;
                }
                TaggedFlit t = m_txQueue[v].front();
                m_txQueue[v].pop_front();
                t.fields.sndNo = nextSeq;
                t.fields.askNo = MyAskNo();
                t.fields.crdt = TakeOwedCredits();
                if (--m_credit[v] == 0)
                {
                    m_creditZeroSince[v] = slot;
                }
                m_rrVc = (v + 1) % DirectLinkConfig::NUM_VCS;
                tx.fields = t.fields;
                tx.tag = t.tag;
                ++m_counters.dataNew;
                sent = true;
            }
            if (!sent && (m_owed[0] | m_owed[1] | m_owed[2] | m_owed[3]) != 0)
            {
                const uint32_t crdt = TakeOwedCredits();
                tx.fields = Flit::MakeCredit(nextSeq, MyAskNo(), crdt);
                ++m_counters.creditNew;
                sent = true;
            }
            if (sent)
            {
                tx.tag.serial = m_nextSerial++;
                tx.tag.incarnation = m_counters.normalEntries;
                RetryEntry e;
                e.fields = tx.fields;
                e.tag = tx.tag;
                e.deadline = slot + m_cfg.ackTime;
                e.retransLeft = m_cfg.retransLimit;
                m_retry.push_back(e);
                m_resendPos = m_retry.size();
            }
        }
        if (!sent)
        {
            tx.fields = Flit::MakeNull(MyAskNo());
        }
    }
    ++m_counters.sentByType[static_cast<uint32_t>(tx.fields.type)];
    return tx;
}

void
DirectLinkEndpointState::ProcessAck(uint32_t askNo, uint64_t slot)
{
    if (askNo >= SEQ_MODULUS)
    {
        return;
    }
    const uint32_t d = (askNo + SEQ_MODULUS - m_askExpected) % SEQ_MODULUS;
    if (d >= m_retry.size())
    {
        return; // duplicate (AskExpected - 1) or stale
    }
    for (uint32_t i = 0; i <= d; ++i)
    {
        NS_LOG_LOGIC("slot " << slot << ": AskNo " << askNo << " frees SndNo "
                             << m_retry.front().fields.sndNo << " (serial "
                             << m_retry.front().tag.serial << ", message "
                             << m_retry.front().tag.messageId << ")");
        if (m_ackCb)
        {
            m_ackCb(m_retry.front().tag, slot);
        }
        m_retry.pop_front();
    }
    m_resendPos = (m_resendPos > d + 1) ? m_resendPos - (d + 1) : 0;
    m_askExpected = (askNo + 1) % SEQ_MODULUS;
    ++m_counters.acksReceived;
    m_counters.entriesAcked += d + 1;
}

void
DirectLinkEndpointState::GoBack(uint64_t slot)
{
    if (m_retry.empty() || m_resendPos == 0)
    {
        return;
    }
    if (m_retry.front().retransLeft == 0)
    {
        Reset(slot, ResetReason::RETRANS_LIMIT);
        return;
    }
    m_resendPos = 0;
}

void
DirectLinkEndpointState::Receive(uint64_t slot, const Flit::DecodeResult& r, const FlitTag& tag)
{
    using Status = Flit::DecodeStatus;
    if (r.status != Status::OK)
    {
        if (r.status == Status::RESERVED_TYPE)
        {
            ++m_counters.rxReservedType;
        }
        else if (r.status == Status::INCONSISTENT_FIELDS)
        {
            ++m_counters.rxInconsistent;
        }
        else
        {
            ++m_counters.rxCorrupted;
        }
        return;
    }
    const Flit::Fields& f = r.fields;
    if (f.type == PktType::INIT)
    {
        if (m_state == LinkState::NORMAL)
        {
            Reset(slot, ResetReason::PEER_INIT);
        }
        m_peerSeen = true;
        return;
    }
    if (f.type == PktType::INIT_ACK)
    {
        if (m_state == LinkState::NORMAL)
        {
            ++m_counters.initAckIgnored;
        }
        else
        {
            // an Init-Ack this early cannot answer this Initial's first Init, only an
            // Init of an earlier incarnation
            const bool early = slot < m_initialEntry + m_cfg.InitAckGuardSlots();
            if (early)
            {
                ++m_counters.initAckEarly;
            }
            if (early && m_cfg.initAckGuard)
            {
                NS_LOG_LOGIC("early Init-Ack at slot " << slot << " ignored (Initial since "
                                                       << m_initialEntry << ")");
            }
            else if (m_peerSeen)
            {
                EnterNormal(slot);
            }
            else
            {
                m_peerSeen = true;
            }
        }
        return;
    }
    if (m_state != LinkState::NORMAL)
    {
        ++m_counters.rxDiscardedInInitial;
        return;
    }
    ProcessAck(f.askNo, slot);
    if (f.type == PktType::NULL_FLIT)
    {
        if (m_cfg.nakEnabled && (f.data[0] & 0x01) != 0)
        {
            ++m_counters.naksReceived;
            GoBack(slot);
        }
        return;
    }
    // Data or Credit
    if (f.sndNo != m_frameExpected)
    {
        ++m_counters.seqRejects;
        if (m_cfg.nakEnabled && m_nakArmed)
        {
            m_nakArmed = false;
            m_nakPending = true;
        }
        return;
    }
    NS_LOG_LOGIC("slot " << slot << ": accepted SndNo " << f.sndNo << " type "
                         << static_cast<uint32_t>(f.type) << " vc " << f.vc << " (serial "
                         << tag.serial << ", message " << tag.messageId << ")");
    m_frameExpected = (m_frameExpected + 1) % SEQ_MODULUS;
    m_nakArmed = true;
    ++m_counters.rxAccepted;
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        if ((f.crdt >> v) & 1U)
        {
            ++m_counters.creditsReceived;
            if (m_credit[v] >= m_cfg.vcBufferSize[v])
            {
                ++m_counters.creditOverflows;
            }
            else
            {
                ++m_credit[v];
            }
            m_creditZeroSince[v] = NEVER;
        }
    }
    if (f.type == PktType::DATA)
    {
        if (m_vcBuf[f.vc].size() >= m_cfg.vcBufferSize[f.vc])
        {
            NS_LOG_LOGIC("slot " << slot << ": VC " << f.vc << " full, message " << tag.messageId
                                 << " dropped");
            ++m_counters.vcOverflows;
            return;
        }
        m_vcBuf[f.vc].push_back(TaggedFlit{f, tag});
    }
}

void
DirectLinkEndpointState::EndOfSlot(uint64_t slot)
{
    // NI drain
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        const uint32_t iv = m_cfg.vcDrainInterval[v];
        if (iv == 0 || slot % iv != 0 || m_vcBuf[v].empty())
        {
            continue;
        }
        TaggedFlit t = m_vcBuf[v].front();
        m_vcBuf[v].pop_front();
        if (m_state == LinkState::NORMAL)
        {
            ++m_owed[v];
        }
        FeedReassembly(slot, v, t);
    }
    // timers
    if (m_state == LinkState::NORMAL)
    {
        if (!m_retry.empty() && m_resendPos > 0 && m_retry.front().deadline <= slot)
        {
            ++m_counters.timeouts;
            GoBack(slot);
        }
        if (m_state == LinkState::NORMAL)
        {
            for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
            {
                if (m_creditZeroSince[v] != NEVER
                    && slot >= m_creditZeroSince[v] + m_cfg.crdNullTime)
                {
                    Reset(slot, ResetReason::CREDIT_TIMEOUT);
                    break;
                }
            }
        }
    }
    else if (slot + 1 >= m_initialEntry + m_cfg.initialTime)
    {
        Reset(slot, ResetReason::INITIAL_TIMEOUT);
    }
}

void
DirectLinkEndpointState::FeedReassembly(uint64_t slot, uint32_t vc, const TaggedFlit& t)
{
    Reassembly& rx = m_rx[vc];
    const Flit::Fields& f = t.fields;
    if (f.header)
    {
        if (rx.active)
        {
            // a header while a message is open (after an undetected error, or on a message
            // held open after a stale handshake): the open one is delivered truncated and
            // counted once, in messagesTruncated (NEW_HEADER)
            Deliver(slot, vc, true, TruncationReason::NEW_HEADER);
        }
        rx.active = true;
        rx.messageId = t.tag.messageId;
        rx.flits.clear();
    }
    else if (!rx.active)
    {
        ++m_counters.orphanFlits;
        return;
    }
    rx.flits.push_back(f);
    if (f.tail)
    {
        Deliver(slot, vc, false);
    }
}

void
DirectLinkEndpointState::Deliver(uint64_t slot, uint32_t vc, bool truncated,
                                 TruncationReason reason)
{
    Reassembly& rx = m_rx[vc];
    Delivery d;
    d.messageId = rx.messageId;
    d.vc = vc;
    d.slot = slot;
    for (const auto& f : rx.flits)
    {
        d.netErr = d.netErr || f.netErr;
        d.ncErr = d.ncErr || f.ncErr;
    }
    d.route = Flit::DecodeRoutingWord(Flit::GetRoutingWord(rx.flits.front()));
    if (!truncated && rx.flits.back().tail && rx.flits.back().netErr
        && rx.flits.size() < Flit::NumMicroPackets(d.route.length))
    {
        // a router cut it and inserted a NetErr tail (DirectLinkMessageFlags)
        truncated = true;
        reason = TruncationReason::UPSTREAM;
    }
    d.truncated = truncated;
    d.truncReason = reason;
    if (!truncated)
    {
        try
        {
            Flit::Message m = Flit::Reassemble(rx.flits);
            d.route = m.route;
            d.bytes = std::move(m.bytes);
        }
        catch (const std::invalid_argument&)
        {
            d.malformed = true;
            ++m_counters.messagesMalformed;
        }
    }
    if (truncated || d.malformed)
    {
        // what arrived, in order, up to the routing word's length
        for (uint32_t i = 0; i < rx.flits.size() && d.bytes.size() < d.route.length; ++i)
        {
            for (uint32_t k = (i == 0 ? Flit::ROUTING_WORD_BITS / 8 : 0);
                 k < Flit::DATA_BYTES && d.bytes.size() < d.route.length; ++k)
            {
                d.bytes.push_back(rx.flits[i].data[k]);
            }
        }
    }
    if (truncated)
    {
        d.netErr = true;
        ++m_counters.messagesTruncated;
        ++m_counters.truncatedByReason[static_cast<uint32_t>(reason)];
    }
    else if (!d.malformed)
    {
        ++m_counters.messagesDelivered;
    }
    rx.active = false;
    rx.flits.clear();
    rx.messageId = NEVER;
    NS_LOG_LOGIC("deliver id " << d.messageId << " vc " << vc << " slot " << slot
                               << (truncated ? " truncated" : ""));
    if (m_deliverCb)
    {
        m_deliverCb(d);
    }
}

void
DirectLinkEndpointState::Reset(uint64_t slot, ResetReason reason)
{
    NS_LOG_FUNCTION(this << slot << ReasonName(reason));
    ++m_counters.resets[static_cast<uint32_t>(reason)];
    if (reason != ResetReason::PEER_INIT && m_stateCb)
    {
        m_stateCb(LinkState::SHUTDOWN, slot, reason);
    }
    // receiver: flush VC buffers, truncate messages being received
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        while (!m_vcBuf[v].empty())
        {
            TaggedFlit t = m_vcBuf[v].front();
            m_vcBuf[v].pop_front();
            FeedReassembly(slot, v, t);
        }
        if (m_rx[v].active)
        {
            Deliver(slot, v, true, static_cast<TruncationReason>(reason));
        }
        m_owed[v] = 0;
    }
    m_nakPending = false;
    m_nakArmed = true;
    m_frameExpected = 0xF;
    // sender: abandon what the retry buffer holds and partially segmented messages
    std::vector<uint64_t> abandoned;
    std::set<uint64_t> seen;
    for (const auto& e : m_retry)
    {
        if (e.tag.messageId != NEVER && seen.insert(e.tag.messageId).second)
        {
            abandoned.push_back(e.tag.messageId);
        }
    }
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        while (!m_txQueue[v].empty() && !m_txQueue[v].front().fields.header)
        {
            const uint64_t id = m_txQueue[v].front().tag.messageId;
            if (seen.insert(id).second)
            {
                abandoned.push_back(id);
            }
            m_txQueue[v].pop_front();
        }
        m_credit[v] = 0;
        m_creditZeroSince[v] = NEVER;
    }
    m_retry.clear();
    m_resendPos = 0;
    m_askExpected = 0xF;
    m_counters.messagesAbandoned += abandoned.size();
    for (uint64_t id : abandoned)
    {
        if (m_abandonCb)
        {
            m_abandonCb(id, reason, slot);
        }
    }
    m_state = LinkState::INITIAL;
    m_peerSeen = (reason == ResetReason::PEER_INIT);
    m_initialEntry = slot + 1;
    if (m_stateCb)
    {
        m_stateCb(LinkState::INITIAL, slot + 1, reason);
    }
}

void
DirectLinkEndpointState::EnterNormal(uint64_t slot)
{
    NS_LOG_FUNCTION(this << slot);
    m_state = LinkState::NORMAL;
    m_askExpected = 0;
    m_frameExpected = 0;
    m_resendPos = 0;
    m_retry.clear();
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        m_credit[v] = m_cfg.vcBufferSize[v];
        m_creditZeroSince[v] = NEVER;
        m_owed[v] = 0;
    }
    m_nakPending = false;
    m_nakArmed = true;
    ++m_counters.normalEntries;
    if (m_stateCb)
    {
        m_stateCb(LinkState::NORMAL, slot + 1, ResetReason::PEER_INIT);
    }
}

void
DirectLinkEndpointState::SetDrainInterval(uint32_t vc, uint32_t interval)
{
    RIFL_CHECK_INDEX(
        vc >= DirectLinkConfig::NUM_VCS,
        "DirectLinkEndpointState::SetDrainInterval: vc = " << vc << " is out of range [0, 3]");
    RIFL_CHECK_ARG(interval > DirectLinkConfig::MAX_COUNTER16,
                   "DirectLinkEndpointState::SetDrainInterval: interval = "
                       << interval << " is out of range [0, 65535]");
    m_cfg.vcDrainInterval[vc] = interval;
}

void
DirectLinkEndpointState::SetDeliveryCallback(DeliveryCallback cb)
{
    m_deliverCb = std::move(cb);
}

void
DirectLinkEndpointState::SetAbandonCallback(AbandonCallback cb)
{
    m_abandonCb = std::move(cb);
}

void
DirectLinkEndpointState::SetStateCallback(StateCallback cb)
{
    m_stateCb = std::move(cb);
}

void
DirectLinkEndpointState::SetAckCallback(AckCallback cb)
{
    m_ackCb = std::move(cb);
}

DirectLinkEndpointState::LinkState
DirectLinkEndpointState::GetState() const
{
    return m_state;
}

uint32_t
DirectLinkEndpointState::GetAskExpected() const
{
    return m_askExpected;
}

uint32_t
DirectLinkEndpointState::GetNextFrameToSend() const
{
    if (m_state != LinkState::NORMAL)
    {
        return 0xF;
    }
    return (m_askExpected + m_resendPos) % SEQ_MODULUS;
}

uint32_t
DirectLinkEndpointState::GetOutstanding() const
{
    return static_cast<uint32_t>(m_retry.size());
}

uint32_t
DirectLinkEndpointState::GetFrameExpected() const
{
    return m_frameExpected;
}

uint32_t
DirectLinkEndpointState::GetCredit(uint32_t vc) const
{
    RIFL_CHECK_INDEX(vc >= DirectLinkConfig::NUM_VCS, "DirectLinkEndpointState::GetCredit: vc = "
                                                          << vc << " is out of range [0, 3]");
    return m_credit[vc];
}

uint32_t
DirectLinkEndpointState::GetVcOccupancy(uint32_t vc) const
{
    RIFL_CHECK_INDEX(vc >= DirectLinkConfig::NUM_VCS,
                     "DirectLinkEndpointState::GetVcOccupancy: vc = " << vc
                                                                      << " is out of range [0, 3]");
    return static_cast<uint32_t>(m_vcBuf[vc].size());
}

uint32_t
DirectLinkEndpointState::GetQueuedFlits(uint32_t vc) const
{
    RIFL_CHECK_INDEX(vc >= DirectLinkConfig::NUM_VCS,
                     "DirectLinkEndpointState::GetQueuedFlits: vc = " << vc
                                                                      << " is out of range [0, 3]");
    return static_cast<uint32_t>(m_txQueue[vc].size());
}

bool
DirectLinkEndpointState::GetPeerSeen() const
{
    return m_peerSeen;
}

uint64_t
DirectLinkEndpointState::GetNextSerial() const
{
    return m_nextSerial;
}

bool
DirectLinkEndpointState::HoldsMessage(uint64_t messageId) const
{
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        if (m_rx[v].active && m_rx[v].messageId == messageId)
        {
            return true;
        }
        for (const TaggedFlit& t : m_vcBuf[v])
        {
            if (t.tag.messageId == messageId && t.fields.header)
            {
                return true;
            }
        }
    }
    return false;
}

bool
DirectLinkEndpointState::HoldsMessageTail(uint64_t messageId) const
{
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        for (const TaggedFlit& t : m_vcBuf[v])
        {
            if (t.tag.messageId == messageId && t.fields.tail)
            {
                return true;
            }
        }
    }
    return false;
}

bool
DirectLinkEndpointState::SendsMessage(uint64_t messageId) const
{
    for (const RetryEntry& e : m_retry)
    {
        if (e.tag.messageId == messageId)
        {
            return true;
        }
    }
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        for (const TaggedFlit& t : m_txQueue[v])
        {
            if (t.tag.messageId == messageId)
            {
                return true;
            }
        }
    }
    return false;
}

const DirectLinkEndpointState::Counters&
DirectLinkEndpointState::GetCounters() const
{
    return m_counters;
}

bool
DirectLinkEndpointState::IsIdle() const
{
    if (m_state != LinkState::NORMAL || !m_retry.empty() || m_nakPending)
    {
        return false;
    }
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        if (m_owed[v] != 0 || (!m_txQueue[v].empty() && m_credit[v] != 0)
            || (!m_vcBuf[v].empty() && m_cfg.vcDrainInterval[v] != 0))
        {
            return false;
        }
    }
    return true;
}

uint64_t
DirectLinkEndpointState::IdleLimit() const
{
    uint64_t limit = NEVER;
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        if (m_creditZeroSince[v] != NEVER)
        {
            limit = std::min(limit, m_creditZeroSince[v] + m_cfg.crdNullTime);
        }
    }
    return limit;
}

uint64_t
DirectLinkEndpointState::EarliestOwnEvent(uint64_t slot) const
{
    if (m_state != LinkState::NORMAL || m_nakPending || m_resendPos < m_retry.size())
    {
        return slot;
    }
    uint64_t bound = slot + m_cfg.crdNullTime;
    bound = std::min(bound, m_retry.empty() ? slot + m_cfg.ackTime : m_retry.front().deadline);
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        if (m_creditZeroSince[v] != NEVER)
        {
            bound = std::min(bound, m_creditZeroSince[v] + m_cfg.crdNullTime);
        }
        const std::deque<TaggedFlit>& q = m_txQueue[v];
        for (uint64_t p = 0; p < q.size() && slot + p < bound; ++p)
        {
            if (q[p].fields.header || q[p].fields.tail)
            {
                bound = std::min(bound, slot + p);
                break;
            }
        }
        if (m_cfg.vcDrainInterval[v] != 0)
        {
            const std::deque<TaggedFlit>& b = m_vcBuf[v];
            for (uint64_t p = 0; p < b.size() && slot + p < bound; ++p)
            {
                if (b[p].fields.header || b[p].fields.tail)
                {
                    bound = std::min(bound, slot + p);
                    break;
                }
            }
        }
    }
    return std::max(bound, slot);
}

Flit::Fields
DirectLinkEndpointState::IdleTx() const
{
    return Flit::MakeNull(MyAskNo());
}

void
DirectLinkEndpointState::SkipIdle(uint64_t n)
{
    m_counters.sentByType[static_cast<uint32_t>(PktType::NULL_FLIT)] += n;
}

std::string
DirectLinkEndpointState::StateName(LinkState s)
{
    switch (s)
    {
        case LinkState::INITIAL:
            return "INITIAL";
        case LinkState::NORMAL:
            return "NORMAL";
        case LinkState::SHUTDOWN:
            return "SHUTDOWN";
    }
    return "UNKNOWN";
}

std::string
DirectLinkEndpointState::TruncationReasonName(TruncationReason r)
{
    switch (r)
    {
        case TruncationReason::RETRANS_LIMIT:
            return "RETRANS_LIMIT";
        case TruncationReason::CREDIT_TIMEOUT:
            return "CREDIT_TIMEOUT";
        case TruncationReason::INITIAL_TIMEOUT:
            return "INITIAL_TIMEOUT";
        case TruncationReason::PEER_INIT:
            return "PEER_INIT";
        case TruncationReason::UPSTREAM:
            return "UPSTREAM";
        case TruncationReason::NEW_HEADER:
            return "NEW_HEADER";
    }
    return "UNKNOWN";
}

std::string
DirectLinkEndpointState::LossReasonName(LossReason r)
{
    switch (r)
    {
        case LossReason::RETRANS_LIMIT:
            return "RETRANS_LIMIT";
        case LossReason::CREDIT_TIMEOUT:
            return "CREDIT_TIMEOUT";
        case LossReason::INITIAL_TIMEOUT:
            return "INITIAL_TIMEOUT";
        case LossReason::PEER_INIT:
            return "PEER_INIT";
        case LossReason::FALSE_ACK:
            return "FALSE_ACK";
        case LossReason::VC_OVERFLOW:
            return "VC_OVERFLOW";
    }
    return "UNKNOWN";
}

std::string
DirectLinkEndpointState::ReasonName(ResetReason r)
{
    switch (r)
    {
        case ResetReason::RETRANS_LIMIT:
            return "RETRANS_LIMIT";
        case ResetReason::CREDIT_TIMEOUT:
            return "CREDIT_TIMEOUT";
        case ResetReason::INITIAL_TIMEOUT:
            return "INITIAL_TIMEOUT";
        case ResetReason::PEER_INIT:
            return "PEER_INIT";
    }
    return "UNKNOWN";
}

} // namespace ns3

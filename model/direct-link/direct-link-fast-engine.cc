/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-fast-engine.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkFastEngine");

using Flit = DirectLinkFlit;

DirectLinkFastEngine::DirectLinkFastEngine(const DirectLinkConfig& config,
                                           Ptr<BitErrorProcess> aToB, Ptr<BitErrorProcess> bToA)
    : DirectLinkReferenceEngine(config, aToB, bToA)
{
}

void
DirectLinkFastEngine::Step()
{
    const uint64_t s = m_slot;
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    ++m_slotModeSlots;
    // 1. send
    for (uint32_t side = 0; side < 2; ++side)
    {
        const DirectLinkEndpointState::TxFlit tx = m_ep[side].BuildTx(s);
        TxEvents(side, tx);
        Run r;
        r.sendSlot = s;
        r.fields = tx.fields;
        r.tag = tx.tag;
        if (m_err[side] && m_err[side]->SkipTo(s).slot == s)
        {
            r.bits = Flit::Encode(tx.fields, m_cfg.crcPoly);
            ApplyErrors(side, s, &r.bits, r.corrupted);
        }
        r.busy = r.corrupted || tx.nak || tx.fields.type != Flit::PktType::NULL_FLIT;
        if (!r.corrupted && m_verify)
        {
            const Flit::DecodeResult d
                = Flit::Decode(Flit::Encode(tx.fields, m_cfg.crcPoly), m_cfg.crcPoly);
            NS_ABORT_MSG_IF(!d.IsOk() || d.fields != tx.fields,
                            "DirectLinkFastEngine: clean path mismatch at slot " << s);
        }
        m_busy[side] += r.busy ? 1 : 0;
        m_runs[side].push_back(std::move(r));
    }
    // 2. end of slot: receive, drain, timers
    for (uint32_t side = 0; side < 2; ++side)
    {
        std::deque<Run>& line = m_runs[1 - side];
        if (!line.empty() && line.front().sendSlot + delay == s)
        {
            Run& f = line.front();
            Flit::DecodeResult r;
            if (f.corrupted)
            {
                r = Flit::Decode(f.bits, m_cfg.crcPoly);
            }
            else
            {
                r.status = Flit::DecodeStatus::OK;
                r.frameOk = true;
                r.evenCrcOk = true;
                r.oddCrcOk = true;
                r.fields = f.fields;
            }
            const DirectLinkEndpointState::FlitTag tag = f.tag;
            const bool corrupted = f.corrupted;
            if (--f.count == 0)
            {
                m_busy[1 - side] -= f.busy ? 1 : 0;
                line.pop_front();
            }
            else
            {
                ++f.sendSlot;
            }
            RxAndEndOfSlot(side, s, &r, tag, corrupted);
        }
        else
        {
            RxAndEndOfSlot(side, s, nullptr, DirectLinkEndpointState::FlitTag(), false);
        }
    }
    // 3. fates of abandoned messages
    ResolveAbandoned(s);
    // 4. events
    FlushEvents();
    ++m_slot;
}

bool
DirectLinkFastEngine::Quiescent() const
{
    return m_busy[0] == 0 && m_busy[1] == 0 && m_ep[0].IsIdle() && m_ep[1].IsIdle();
}

uint64_t
DirectLinkFastEngine::QuiescentLimit()
{
    uint64_t limit = std::min(m_ep[0].IdleLimit(), m_ep[1].IdleLimit());
    // an abandoned message decided in a quiet stretch (its fate is reported then)
    limit = std::min(limit, NextLossDecision());
    for (uint32_t side = 0; side < 2; ++side)
    {
        if (m_err[side])
        {
            limit = std::min(limit, m_err[side]->SkipTo(m_slot).slot);
        }
    }
    return limit;
}

void
DirectLinkFastEngine::Bulk(uint64_t end)
{
    const uint64_t s = m_slot;
    const uint64_t n = end - s;
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    NS_LOG_LOGIC("bulk " << s << " .. " << end);
    for (uint32_t side = 0; side < 2; ++side)
    {
        const Flit::Fields null = m_ep[side].IdleTx();
        m_ep[side].SkipIdle(n);
        std::deque<Run>& line = m_runs[side];
        if (!line.empty() && !line.back().busy && line.back().fields == null
            && line.back().sendSlot + line.back().count == s)
        {
            line.back().count += n;
        }
        else
        {
            Run r;
            r.sendSlot = s;
            r.count = n;
            r.fields = null;
            line.push_back(std::move(r));
        }
        // drop what the peer received during the stretch (sent before end - delay)
        while (!line.empty() && line.front().sendSlot + delay < end)
        {
            Run& f = line.front();
            const uint64_t received = std::min(f.count, end - delay - f.sendSlot);
            if (received == f.count)
            {
                line.pop_front(); // not busy: Quiescent()
            }
            else
            {
                f.count -= received;
                f.sendSlot += received;
            }
        }
    }
    m_bulkSlots += n;
    m_slot = end;
}

void
DirectLinkFastEngine::RunUntil(uint64_t slot)
{
    while (m_slot < slot)
    {
        if (Quiescent())
        {
            const uint64_t end = std::min(slot, QuiescentLimit());
            if (end > m_slot + 1)
            {
                Bulk(end);
                continue;
            }
        }
        Step();
    }
}

uint64_t
DirectLinkFastEngine::NextEventSlot()
{
    if (Quiescent())
    {
        return std::max(QuiescentLimit(), m_slot);
    }
    if (!m_predictBusy)
    {
        return m_slot;
    }
    uint64_t bound = std::min(m_ep[0].EarliestOwnEvent(m_slot), m_ep[1].EarliestOwnEvent(m_slot));
    // the decision on an abandoned message (a loss callback and event)
    bound = std::min(bound, NextLossDecision());
    const uint64_t delay = m_cfg.oneWayDelaySlots;
    // a header the peer accepted and dropped on a full VC buffer is decided L slots after
    // the ack that frees it, which can arrive at the end of this slot
    if (!m_ackTruth[0].dropped.empty() || !m_ackTruth[1].dropped.empty())
    {
        bound = std::min(bound, m_slot + delay);
    }
    // a false ack in slot >= m_slot is decided (a possible loss) L slots later; rule it out
    // from ground truth (AckRecordsClean: both Normals started together, and nothing sent
    // before its sender's Normal began is still on the line), else bound by m_slot + L
    if (bound > m_slot + delay)
    {
        bool clean = AckRecordsClean(0) && AckRecordsClean(1);
        for (uint32_t side = 0; side < 2 && clean; ++side)
        {
            const uint64_t since = m_ackTruth[side].normalSince;
            for (const Run& r : m_runs[side])
            {
                const Flit::PktType t = r.fields.type;
                if (r.sendSlot < since && t != Flit::PktType::INIT && t != Flit::PktType::INIT_ACK)
                {
                    clean = false; // an ack or a micro-packet of an older incarnation
                    break;
                }
                if (r.sendSlot >= since)
                {
                    break; // the line is in send order
                }
            }
        }
        if (!clean)
        {
            bound = m_slot + delay;
        }
    }
    for (uint32_t side = 0; side < 2 && bound > m_slot; ++side)
    {
        // errors: the corrupted micro-packet is judged at its arrival
        if (m_err[side])
        {
            const uint64_t e = m_err[side]->SkipTo(m_slot).slot;
            if (e != FrameErrorEvent::NO_MORE_ERRORS && e + delay < bound)
            {
                bound = e + delay;
            }
        }
        // the line toward the peer: in-order acceptance from the peer's FrameExpected
        uint32_t expected = m_ep[1 - side].GetFrameExpected();
        for (const Run& r : m_runs[side])
        {
            const uint64_t arrival = r.sendSlot + delay;
            if (arrival >= bound)
            {
                break;
            }
            const Flit::PktType t = r.fields.type;
            bool event = r.corrupted || t == Flit::PktType::INIT || t == Flit::PktType::INIT_ACK;
            if (t == Flit::PktType::NULL_FLIT)
            {
                event = event || (m_cfg.nakEnabled && (r.fields.data[0] & 0x01) != 0);
            }
            else if (t == Flit::PktType::DATA || t == Flit::PktType::CREDIT)
            {
                if (r.fields.sndNo != expected)
                {
                    event = true; // SEQUENCE_REJECT (and a NAK may follow)
                }
                expected = (expected + 1) % DirectLinkEndpointState::SEQ_MODULUS;
                event = event || (t == Flit::PktType::DATA && (r.fields.header || r.fields.tail));
            }
            else
            {
                event = true; // reserved types are never sent; be safe
            }
            if (event)
            {
                bound = arrival;
                break;
            }
        }
        // the sender's next new Data / Credit (sent in m_slot at the earliest) is rejected if
        // the receiver will still expect an earlier sequence number (one was lost)
        const DirectLinkEndpointState& tx = m_ep[side];
        const uint32_t nextSeq
            = (tx.GetAskExpected() + tx.GetOutstanding()) % DirectLinkEndpointState::SEQ_MODULUS;
        if (nextSeq != expected)
        {
            bound = std::min(bound, m_slot + delay);
        }
    }
    return std::max(bound, m_slot);
}

bool
DirectLinkFastEngine::SupportsSplit() const
{
    return false;
}

void
DirectLinkFastEngine::SetPredictBusy(bool predict)
{
    m_predictBusy = predict;
}

void
DirectLinkFastEngine::SetVerifyCleanPath(bool verify)
{
    m_verify = verify;
}

uint64_t
DirectLinkFastEngine::GetSlotModeSlots() const
{
    return m_slotModeSlots;
}

uint64_t
DirectLinkFastEngine::GetBulkSlots() const
{
    return m_bulkSlots;
}

} // namespace ns3

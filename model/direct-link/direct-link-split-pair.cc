/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-split-pair.h"

#include "ns3/rifl-check.h"

#include <algorithm>

namespace ns3
{

DirectLinkSplitPair::DirectLinkSplitPair(const DirectLinkConfig& config, Ptr<BitErrorProcess> aToB,
                                         Ptr<BitErrorProcess> bToA)
{
    for (uint32_t s = 0; s < 2; ++s)
    {
        // half s applies the errors of the direction toward it
        m_half[s] = std::make_unique<DirectLinkReferenceEngine>(config, s == 1 ? aToB : nullptr,
                                                                s == 0 ? bToA : nullptr);
        m_half[s]->SetLocalEndpoint(s);
        m_half[s]->SetRecordHistory(false);
        m_half[s]->SetDeliveryCallback(
            [this, s](const DirectLinkDeliveredMessage& d)
            {
                m_pendingCb[s].deliveries.push_back(d);
            });
        m_half[s]->SetLossCallback(
            [this, s](const DirectLinkLostMessage& l)
            {
                m_pendingCb[s].losses.push_back(l);
            });
        m_half[s]->SetEventCallback(
            [this, s](const DirectLinkEvent& e)
            {
                m_pendingCb[s].events.push_back(e);
            });
        m_half[s]->SetLineOutCallback(
            [this, s](const DirectLinkReferenceEngine::LineRecord& r)
            {
                uint64_t at = r.slot + 1;
                if (m_random)
                {
                    const uint64_t due = m_half[s]->GetLineRecordDueSlot(r.slot);
                    at = std::uniform_int_distribution<uint64_t>(r.slot + 1, due)(m_rng);
                }
                at = std::max(at, m_lastRelease[s]);
                m_lastRelease[s] = at;
                m_relay[s].emplace_back(at, m_half[s]->EncodeLineRecord(r));
            });
    }
}

void
DirectLinkSplitPair::SetRelaySeed(uint64_t seed)
{
    m_random = true;
    m_rng.seed(seed);
}

const DirectLinkConfig&
DirectLinkSplitPair::GetConfig() const
{
    return m_half[0]->GetConfig();
}

void
DirectLinkSplitPair::OfferMessage(uint32_t side, uint64_t messageId, uint32_t dstCpu,
                                  uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                                  const std::vector<uint8_t>& bytes,
                                  const DirectLinkMessageFlags& flags)
{
    RIFL_CHECK_INDEX(side > 1, "DirectLinkSplitPair::OfferMessage: side = "
                                   << side << " is out of range [0, 1]");
    m_half[side]->OfferMessage(side, messageId, dstCpu, srcCpu, msgClass, vc, bytes, flags);
}

void
DirectLinkSplitPair::Relay()
{
    for (uint32_t s = 0; s < 2; ++s)
    {
        while (!m_relay[s].empty() && m_relay[s].front().first <= m_slot)
        {
            const std::vector<uint8_t>& b = m_relay[s].front().second;
            m_half[1 - s]->ReceiveLineRecord(m_half[1 - s]->DecodeLineRecord(b.data(), b.size()));
            m_bytes += b.size();
            m_relay[s].pop_front();
        }
    }
}

void
DirectLinkSplitPair::AdvanceTo(uint64_t slot)
{
    while (m_slot < slot)
    {
        Relay();
        m_half[0]->Step();
        m_half[1]->Step();
        ++m_slot;
        // the two-sided engine's order within a slot
        for (SlotCallbacks& c : m_pendingCb)
        {
            for (const DirectLinkDeliveredMessage& d : c.deliveries)
            {
                if (m_deliveryCb)
                {
                    m_deliveryCb(d);
                }
            }
            c.deliveries.clear();
        }
        for (SlotCallbacks& c : m_pendingCb)
        {
            for (const DirectLinkLostMessage& l : c.losses)
            {
                if (m_lossCb)
                {
                    m_lossCb(l);
                }
            }
            c.losses.clear();
        }
        for (SlotCallbacks& c : m_pendingCb)
        {
            for (const DirectLinkEvent& e : c.events)
            {
                if (m_eventCb)
                {
                    m_eventCb(e);
                }
            }
            c.events.clear();
        }
    }
}

uint64_t
DirectLinkSplitPair::GetSlot() const
{
    return m_slot;
}

uint64_t
DirectLinkSplitPair::NextEventSlot()
{
    return m_slot;
}

uint64_t
DirectLinkSplitPair::GetPending(uint32_t side) const
{
    return m_half[0]->GetPending(side) + m_half[1]->GetPending(side);
}

void
DirectLinkSplitPair::SetDrainInterval(uint32_t side, uint32_t vc, uint32_t interval)
{
    RIFL_CHECK_INDEX(side > 1, "DirectLinkSplitPair::SetDrainInterval: side = "
                                   << side << " is out of range [0, 1]");
    m_half[side]->SetDrainInterval(side, vc, interval);
}

const DirectLinkEndpointState&
DirectLinkSplitPair::GetEndpoint(uint32_t side) const
{
    RIFL_CHECK_INDEX(side > 1, "DirectLinkSplitPair::GetEndpoint: side = "
                                   << side << " is out of range [0, 1]");
    return m_half[side]->GetEndpoint(side);
}

void
DirectLinkSplitPair::SetDeliveryCallback(DeliveryCallback cb)
{
    m_deliveryCb = std::move(cb);
}

void
DirectLinkSplitPair::SetLossCallback(LossCallback cb)
{
    m_lossCb = std::move(cb);
}

void
DirectLinkSplitPair::SetEventCallback(EventCallback cb)
{
    m_eventCb = std::move(cb);
}

DirectLinkReferenceEngine::TruthCounters
DirectLinkSplitPair::GetTruth(uint32_t side) const
{
    const DirectLinkReferenceEngine::TruthCounters& a = m_half[0]->GetTruth(side);
    const DirectLinkReferenceEngine::TruthCounters& b = m_half[1]->GetTruth(side);
    DirectLinkReferenceEngine::TruthCounters t;
    t.offered = a.offered + b.offered;
    t.corruptedSent = a.corruptedSent + b.corruptedSent;
    t.undetectedErrors = a.undetectedErrors + b.undetectedErrors;
    t.contentMismatches = a.contentMismatches + b.contentMismatches;
    t.duplicateDeliveries = a.duplicateDeliveries + b.duplicateDeliveries;
    t.outOfOrder = a.outOfOrder + b.outOfOrder;
    t.lost = a.lost + b.lost;
    for (uint32_t i = 0; i < t.lostByReason.size(); ++i)
    {
        t.lostByReason[i] = a.lostByReason[i] + b.lostByReason[i];
    }
    t.falseAcks = a.falseAcks + b.falseAcks;
    t.staleVcOverflows = a.staleVcOverflows + b.staleVcOverflows;
    t.staleContentMismatches = a.staleContentMismatches + b.staleContentMismatches;
    t.heldOpen = a.heldOpen + b.heldOpen;
    return t;
}

DirectLinkReferenceEngine&
DirectLinkSplitPair::GetHalf(uint32_t side)
{
    RIFL_CHECK_INDEX(side > 1, "DirectLinkSplitPair::GetHalf: side = "
                                   << side << " is out of range [0, 1]");
    return *m_half[side];
}

uint64_t
DirectLinkSplitPair::GetRelayedBytes() const
{
    return m_bytes;
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rifl
 * libFuzzer target "rifl-engine": the input paths of RiflReferenceEngine and
 * RiflFastEngine.
 *
 * The input chooses a link configuration within the ranges Validate() accepts
 * (frame size, 1..4 lanes, line delay 0..24 slots, Frame ID width from the RTL
 * minimum up to 7, FC FIFO depth, drain rate, replay tail mode and length, RX-up
 * wait 1..128 slots, user word size), up to 16 packets (sender, 1..1500 bytes,
 * gaps of 0..511 slots), and per (direction, lane) explicit bit errors (up to 6 slots,
 * 1..4 bits each) and loss-of-sync events (up to 2). Both engines run the same
 * scenario, advanced the way the ns-3 channel advances them (NextEventSlot()
 * driven for the fast engine, every slot for the reference), to an end slot
 * with an error-free quiet tail long enough to recover and drain everything.
 *
 * The fast engine runs on every input; the reference engine on every input too,
 * or on one in K with RIFL_FUZZ_REFERENCE_EVERY=K (see RiflFuzzRunReference(),
 * for long runs); likewise the fast engine's second run with lazy TX wake-ups
 * (on half of those inputs, or on all with RIFL_FUZZ_DEFER=1 and none with
 * RIFL_FUZZ_DEFER=0, with its offers deferred to their arrival slots,
 * OfferPayloadAt(), as RiflChannel makes them; on three in four, or all with
 * RIFL_FUZZ_WAKE_BOUND=1 and none with 0, woken at NextWakeSlot()),
 * one in K with RIFL_FUZZ_LAZY_EVERY=K (RiflFuzzRunLazy()), and its run without
 * jumps (every slot stepped), one in K with RIFL_FUZZ_STEPPED_EVERY=K
 * (RiflFuzzRunStepped()).
 *
 * RIFL_FUZZ_VERBOSE=1 prints the decoded scenario (and, with RIFL_FUZZ_EVENTS=1,
 * every event and delivery) to stderr; RIFL_FUZZ_REFERENCE_FIRST=1 runs the reference
 * engine's checks before the fast engine's, and RIFL_FUZZ_NO_TEMPLATES=1 runs the fast
 * engine without start-up templates (triage).
 *
 * Properties (abort, so libFuzzer keeps the input):
 *  - no exception, no sanitizer report;
 *  - a deferred run's PredictPendingPackets() (every other offer) equals
 *    GetPendingPackets() once the engine has run to the offer's slot;
 *  - both engines give the same deliveries (slot, id, content, word latencies),
 *    events and counters, and the fast engine no callback before the slot its
 *    NextEventSlot() promised; so does the fast engine without jumps (with lean
 *    deliveries on inputs of odd size: each one intact, its payload the bytes);
 *  - accounting, per direction: TX_END events + pending = offered; deliveries =
 *    packetsDelivered and their bytes = bytesDelivered; unless the receiver
 *    counted an accounted anomaly (undetectedErrors, contentMismatches,
 *    outOfOrderDeliveries, resyncsAhead, duplicatesDelivered, fcFifoDrops; or the sender's
 *    own receiver counted undetectedErrors, fcNotificationsSkipped or
 *    fcNotificationsRepeated), the deliveries are
 *    exactly the offered packets in order with their content, and after the quiet
 *    tail every offered packet was delivered (nothing lost, nothing stuck);
 *  - with ReplayTail CORRECTED, no undetected error, no loss of sync and bit errors in
 *    one direction only, no duplicate delivery (see Run()).
 */

#include "fuzz-check.h"
#include "ns3/deterministic-error-process.h"
#include "ns3/rifl-fast-engine.h"
#include "ns3/rifl-reference-engine.h"
#include "ns3/sync-loss-process.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// One offered packet.
struct Offer
{
    uint64_t slot;     //!< offer slot
    uint32_t endpoint; //!< sender
    uint64_t id;       //!< packet id (per sender, 0, 1, ...)
    uint32_t bytes;    //!< size
};

/// Errors of one (direction, lane).
struct Errors
{
    std::vector<std::pair<uint64_t, std::vector<uint32_t>>> listed; //!< (slot, bits)
    std::vector<std::pair<uint64_t, uint64_t>> syncLoss;            //!< (start, duration)
};

/// A whole scenario.
struct Scenario
{
    RiflLinkConfig config;       //!< the link
    std::vector<Offer> offers;   //!< ascending slots
    std::vector<Errors> errors;  //!< index sender * lanes + lane
    uint64_t lastDisturbance{0}; //!< last errored or sync-loss line slot
    uint64_t endSlot{0};         //!< run to this slot

    /// \return true if any lane of either direction has a loss-of-sync event.
    bool HasSyncLoss() const
    {
        return std::any_of(errors.begin(), errors.end(),
                           [](const Errors& e)
                           {
                               return !e.syncLoss.empty();
                           });
    }

    /// \return true if both directions have listed bit errors.
    bool HasErrorsBothWays() const
    {
        bool dir[2] = {false, false};
        for (std::size_t k = 0; k < errors.size(); ++k)
        {
            dir[k / config.lanes] = dir[k / config.lanes] || !errors[k].listed.empty();
        }
        return dir[0] && dir[1];
    }
};

/// RIFL_FUZZ_EVENTS=1: print every event and delivery to stderr.
const bool g_events = std::getenv("RIFL_FUZZ_EVENTS") != nullptr;

/// RIFL_FUZZ_NO_TEMPLATES set: the fast engine without start-up templates (triage).
const bool g_noTemplates = std::getenv("RIFL_FUZZ_NO_TEMPLATES") != nullptr;

/// What one engine produced.
struct Outcome
{
    std::vector<RiflDelivery> deliveries; //!< in order
    std::vector<RiflLinkEvent> events;    //!< in order
    uint64_t early{0};                    //!< callbacks before the promised slot
};

/**
 * \param ep sender.
 * \param id packet id.
 * \param n size.
 * \return the packet's bytes (a function of its identity).
 */
std::vector<uint8_t>
Payload(uint32_t ep, uint64_t id, uint32_t n)
{
    return RiflFuzzBytes(0x9E3779B9u ^ (ep * 0x85EBCA6Bu) ^ static_cast<uint32_t>(id * 0xC2B2AE35u),
                         n);
}

/**
 * \param in the input.
 * \return the scenario it describes.
 */
Scenario
Build(FuzzedDataProvider& in)
{
    Scenario sc;
    RiflLinkConfig& c = sc.config;
    static const uint32_t sizes[] = {128, 256, 512, 1024};
    c.frameSize = sizes[in.ConsumeIntegralInRange<uint32_t>(0, 3)];
    c.lanes = in.ConsumeIntegralInRange<uint32_t>(1, 4);
    c.cableLengthM = in.ConsumeIntegralInRange<uint32_t>(0, 40);
    c.transceiverDelayNs = in.ConsumeIntegralInRange<uint32_t>(0, 100);
    c.lineDelaySlots = in.ConsumeIntegralInRange<int64_t>(0, 24);
    const uint32_t minFid = c.GetMinFrameIdWidth();
    const uint32_t fid = in.ConsumeIntegralInRange<uint32_t>(minFid - 1, std::max(minFid, 7u));
    c.frameIdWidth = fid < minFid ? 0 : fid;
    if (in.ConsumeBool())
    {
        c.fcFifoDepth = c.GetFcThrOn() + in.ConsumeIntegralInRange<uint32_t>(1, 80);
    }
    const uint32_t drain = in.ConsumeIntegralInRange<uint32_t>(0, 40);
    c.drainFramesPerSlot = drain == 0 ? 0.0 : drain / 16.0;
    c.replayTail = in.ConsumeBool() ? RiflReplayTail::CORRECTED : RiflReplayTail::RTL;
    if (c.replayTail == RiflReplayTail::CORRECTED && in.ConsumeBool())
    {
        c.correctedTailSlots
            = 2 * c.GetLineDelaySlots() + 8 + in.ConsumeIntegralInRange<uint32_t>(0, 64);
    }
    c.startup = RiflStartup::SHORT;
    c.rxUpSlots = in.ConsumeIntegralInRange<uint32_t>(1, 128);
    c.userWordBytes = in.ConsumeIntegralInRange<uint32_t>(1, 1024);
    c.Validate();

    // Offers: start after link-up is possible, but also during start-up.
    const uint32_t nOffers = in.ConsumeIntegralInRange<uint32_t>(1, 16);
    uint64_t slot = in.ConsumeIntegralInRange<uint64_t>(0, 1200);
    uint64_t ids[2] = {0, 0};
    for (uint32_t i = 0; i < nOffers && in.remaining_bytes() > 0; ++i)
    {
        slot += in.ConsumeBool() ? in.ConsumeIntegralInRange<uint64_t>(0, 511) : 0;
        const uint32_t ep = in.ConsumeIntegralInRange<uint32_t>(0, 1);
        const uint32_t big = in.ConsumeIntegralInRange<uint32_t>(0, 7);
        const uint32_t bytes = big == 0 ? in.ConsumeIntegralInRange<uint32_t>(1, 1500)
                                        : in.ConsumeIntegralInRange<uint32_t>(1, 200);
        sc.offers.push_back({slot, ep, ids[ep]++, bytes});
    }
    const uint64_t lastOffer = sc.offers.empty() ? 0 : sc.offers.back().slot;

    // Errors and sync loss within [0, lastOffer + 4000).
    const uint64_t window = lastOffer + 1000;
    sc.errors.resize(2 * c.lanes);
    for (uint32_t k = 0; k < 2 * c.lanes && in.remaining_bytes() > 0; ++k)
    {
        Errors& e = sc.errors[k];
        const uint32_t nErr = in.ConsumeIntegralInRange<uint32_t>(0, 6);
        for (uint32_t i = 0; i < nErr; ++i)
        {
            const uint64_t s = in.ConsumeIntegralInRange<uint64_t>(1, window);
            std::vector<uint32_t> bits;
            const uint32_t nb = in.ConsumeIntegralInRange<uint32_t>(1, 4);
            for (uint32_t b = 0; b < nb; ++b)
            {
                bits.push_back(in.ConsumeIntegralInRange<uint32_t>(0, c.frameSize - 1));
            }
            e.listed.emplace_back(s, bits);
            sc.lastDisturbance = std::max(sc.lastDisturbance, s);
        }
        const uint32_t nSync = in.ConsumeIntegralInRange<uint32_t>(0, 2);
        uint64_t from = 1; // events need an in-sync slot between them
        for (uint32_t i = 0; i < nSync; ++i)
        {
            const uint64_t s = from + in.ConsumeIntegralInRange<uint64_t>(0, window);
            const uint64_t d = in.ConsumeIntegralInRange<uint64_t>(1, 64);
            e.syncLoss.emplace_back(s, d);
            sc.lastDisturbance = std::max(sc.lastDisturbance, s + d);
            from = s + d + 1;
        }
    }

    // Quiet tail: error free, long enough for several recoveries (RX up, a
    // replay of 2D + tail, the resume wait D) and for the drain of every frame.
    uint64_t frames = 0;
    for (const Offer& o : sc.offers)
    {
        frames += (o.bytes + c.GetPayloadBytes() - 1) / c.GetPayloadBytes();
    }
    const uint64_t recovery = c.GetRxUpSlots() + c.GetReplaySlots() + c.GetBufferDepth()
                              + 2 * c.GetLineDelaySlots() + 32;
    const double rate = c.drainFramesPerSlot == 0.0 ? 1.0 : std::min(1.0, c.drainFramesPerSlot);
    const uint64_t drainSlots = static_cast<uint64_t>(frames / rate) + frames;
    sc.endSlot = std::max(lastOffer, sc.lastDisturbance) + 3 * recovery + drainSlots + 200;
    return sc;
}

/**
 * \brief Attach the scenario's error and sync-loss streams (fresh instances).
 * \param e the engine.
 * \param sc the scenario.
 */
void
Attach(RiflLinkEngine& e, const Scenario& sc)
{
    const uint32_t lanes = sc.config.lanes;
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t l = 0; l < lanes; ++l)
        {
            const Errors& spec = sc.errors[s * lanes + l];
            if (!spec.listed.empty())
            {
                auto p = CreateObject<DeterministicErrorProcess>();
                p->SetFrameBits(sc.config.frameSize);
                for (const auto& [slot, bits] : spec.listed)
                {
                    p->AddError(slot, bits);
                }
                e.SetErrorProcess(s, l, p);
            }
            if (!spec.syncLoss.empty())
            {
                auto p = CreateObject<SyncLossProcess>();
                for (const auto& [start, dur] : spec.syncLoss)
                {
                    p->AddEvent(start, dur);
                }
                e.SetSyncLossProcess(s, l, p);
            }
        }
    }
}

/**
 * \brief Run the scenario on one engine and check its accounting.
 * \param e the engine (fresh).
 * \param sc the scenario.
 * \param byEvents advance by NextEventSlot() (as the ns-3 channel does).
 * \param name for messages.
 * \param txWakes per endpoint, SetTxEventWakes(begin = bit 0, end = bit 1); TX events
 *        not asked for are exempt from the NextEventSlot() promise.
 * \param deferred with byEvents: offer with OfferPayloadAt() after the wake-ups due by
 *        the offer's slot only, as RiflChannel does (where the engine takes it).
 * \param wakeBound with byEvents: wake at NextWakeSlot() (as RiflChannel does when no
 *        sink sees the protocol events); events other than TX_BEGIN and TX_END are
 *        exempt from its promise.
 * \param lean ask for lean deliveries (SetLeanDeliveries()); each lean one must be
 *        intact and carry its payload, whose bytes then stand for its content.
 * \return the outcome.
 */
Outcome
Run(RiflLinkEngine& e, const Scenario& sc, bool byEvents, const char* name,
    const uint32_t txWakes[2] = nullptr, bool deferred = false, bool wakeBound = false,
    bool lean = false)
{
    Outcome o;
    uint64_t promised = 0;
    uint64_t txEnd[2] = {0, 0};
    Attach(e, sc);
    e.SetLeanDeliveries(lean);
    bool promiseBegin[2] = {true, true};
    bool promiseEnd[2] = {true, true};
    if (txWakes != nullptr)
    {
        for (uint32_t ep = 0; ep < 2; ++ep)
        {
            promiseBegin[ep] = (txWakes[ep] & 1) != 0;
            promiseEnd[ep] = (txWakes[ep] & 2) != 0;
            e.SetTxEventWakes(ep, promiseBegin[ep], promiseEnd[ep]);
        }
    }
    e.SetDeliveryCallback(
        [&](const RiflDelivery& d)
        {
            o.early += d.slot < promised ? 1 : 0;
            if (g_events && d.slot < promised)
            {
                std::fprintf(stderr, "  %s EARLY delivery (promised %llu)\n", name,
                             static_cast<unsigned long long>(promised));
            }
            o.deliveries.push_back(d);
            if (d.lean)
            {
                // A lean delivery is the offered packet, intact: its payload stands for
                // the bytes in every check below (word latencies are left out).
                RIFL_FUZZ_CHECK(lean && d.intact && d.source && d.content.empty()
                                    && d.wordLatencies.empty(),
                                name << ": lean delivery of packet " << d.packetId
                                     << " not intact, without its payload, or not asked for");
                o.deliveries.back().content = d.source->GetBytes();
            }
            if (g_events)
            {
                std::fprintf(stderr, "  %s delivery slot %llu endpoint %u packet %llu, %zu bytes\n",
                             name, static_cast<unsigned long long>(d.slot), d.endpoint,
                             static_cast<unsigned long long>(d.packetId), d.content.size());
            }
        });
    e.SetEventCallback(
        [&](const RiflLinkEvent& ev)
        {
            const bool tx
                = ev.type == RiflLinkEventType::TX_BEGIN || ev.type == RiflLinkEventType::TX_END;
            const bool exempt
                = (ev.type == RiflLinkEventType::TX_BEGIN && !promiseBegin[ev.endpoint])
                  || (ev.type == RiflLinkEventType::TX_END && !promiseEnd[ev.endpoint])
                  || (wakeBound && !tx);
            o.early += ev.slot < promised && !exempt ? 1 : 0;
            if (g_events && ev.slot < promised && !exempt)
            {
                std::fprintf(stderr, "  %s EARLY event (promised %llu)\n", name,
                             static_cast<unsigned long long>(promised));
            }
            txEnd[ev.endpoint] += ev.type == RiflLinkEventType::TX_END ? 1 : 0;
            o.events.push_back(ev);
            if (g_events)
            {
                std::fprintf(stderr,
                             "  %s event slot %llu endpoint %u lane %u type %d packet %llu "
                             "value %lld/%lld\n",
                             name, static_cast<unsigned long long>(ev.slot), ev.endpoint, ev.lane,
                             int(ev.type), static_cast<unsigned long long>(ev.packetId),
                             static_cast<long long>(ev.value), static_cast<long long>(ev.value2));
            }
        });
    auto advance = [&](uint64_t target)
    {
        if (byEvents)
        {
            while (e.GetSlot() < target)
            {
                promised = wakeBound ? e.NextWakeSlot() : e.NextEventSlot();
                const uint64_t to
                    = promised == RiflLinkEngine::NEVER ? target : std::min(target, promised + 1);
                e.AdvanceTo(std::max(to, e.GetSlot() + 1));
            }
            promised = 0;
        }
        e.AdvanceTo(target);
    };
    uint64_t offered[2] = {0, 0};
    for (const Offer& of : sc.offers)
    {
        ++offered[of.endpoint];
        if (byEvents && deferred)
        {
            // the wake-ups due by the offer only (a slot promised runs at the next one)
            for (promised = wakeBound ? e.NextWakeSlot() : e.NextEventSlot();
                 promised != RiflLinkEngine::NEVER && promised + 1 <= of.slot;
                 promised = wakeBound ? e.NextWakeSlot() : e.NextEventSlot())
            {
                e.AdvanceTo(std::max(promised + 1, e.GetSlot() + 1));
            }
            if (of.id % 2 == 0 && e.GetSlot() <= of.slot)
            {
                // What the channel asks a lagging engine (RiflChannel::GetPendingPacketsNow):
                // the pending packets it predicts for the offer's slot, checked by running
                // there (on every other offer; the rest keep the lag for batched jumps).
                uint64_t predicted[2] = {0, 0};
                bool known[2] = {false, false};
                for (uint32_t ep = 0; ep < 2; ++ep)
                {
                    known[ep] = e.PredictPendingPackets(ep, of.slot, &predicted[ep]);
                }
                e.AdvanceTo(of.slot);
                for (uint32_t ep = 0; ep < 2; ++ep)
                {
                    RIFL_FUZZ_CHECK(!known[ep] || predicted[ep] == e.GetPendingPackets(ep),
                                    name << ": PredictPendingPackets(" << ep << ", " << of.slot
                                         << ") = " << predicted[ep] << ", after AdvanceTo: "
                                         << e.GetPendingPackets(ep));
                }
            }
            if (e.OfferPayloadAt(
                    of.endpoint, of.id,
                    std::make_shared<const RiflPayload>(Payload(of.endpoint, of.id, of.bytes)),
                    of.slot))
            {
                continue;
            }
        }
        advance(of.slot);
        e.OfferPacket(of.endpoint, of.id, Payload(of.endpoint, of.id, of.bytes));
    }
    advance(sc.endSlot);
    RIFL_FUZZ_CHECK(e.GetSlot() == sc.endSlot, name << ": end slot");

    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        const uint32_t r = 1 - ep;
        const RiflEndpointCounters& rx = e.GetCounters(r);
        RIFL_FUZZ_CHECK(txEnd[ep] + e.GetPendingPackets(ep) == offered[ep],
                        name << ": endpoint " << ep << " TX_END " << txEnd[ep] << " + pending "
                             << e.GetPendingPackets(ep) << " != offered " << offered[ep]);
        std::vector<const RiflDelivery*> del;
        uint64_t bytes = 0;
        for (const RiflDelivery& d : o.deliveries)
        {
            if (d.endpoint == r)
            {
                del.push_back(&d);
                bytes += d.content.size();
            }
        }
        RIFL_FUZZ_CHECK(del.size() == rx.packetsDelivered, name << ": deliveries " << del.size()
                                                                << " != packetsDelivered "
                                                                << rx.packetsDelivered);
        // bytesDelivered also counts the bytes of a packet still being assembled
        RIFL_FUZZ_CHECK(bytes <= rx.bytesDelivered, name << ": bytes delivered");
        // the sender's own receiver counts too: an undetected error there can turn a frame
        // into an FC pause that no resume ever follows, and a resynchronisation there can
        // skip the peer's resume (or repeat its pause), stalling this direction for good
        // (both found by the fuzzer)
        const RiflEndpointCounters& own = e.GetCounters(ep);
        const uint64_t anomalies = own.undetectedErrors + own.fcNotificationsSkipped
                                   + own.fcNotificationsRepeated + rx.undetectedErrors
                                   + rx.contentMismatches + rx.outOfOrderDeliveries
                                   + rx.resyncsAhead + rx.duplicatesDelivered + rx.fcFifoDrops;
        // The corrected tail removes the replay-tail duplicates (spec 10.3); a
        // duplicate can still follow a reordering hazard (10.2 / 11.8) that skipped
        // only fill frames, which needs more than D - 1 new frames after an error: a
        // pause (sync loss) delaying the request, or corrupted requests (errors in both
        // directions). With neither, Validate()'s D >= 2 (L + skew) + 18 bounds them.
        if (sc.config.replayTail == RiflReplayTail::CORRECTED && rx.undetectedErrors == 0
            && !sc.HasSyncLoss() && !sc.HasErrorsBothWays())
        {
            RIFL_FUZZ_CHECK(rx.duplicatesDelivered == 0,
                            name << ": duplicate delivery with the corrected replay tail; "
                                 << "receiver counters " << rx.ToString());
        }
        if (anomalies != 0)
        {
            continue; // accounted for by the receiver's counters
        }
        RIFL_FUZZ_CHECK(del.size() <= txEnd[ep], name << ": delivered more than sent");
        std::vector<const Offer*> sent;
        for (const Offer& of : sc.offers)
        {
            if (of.endpoint == ep)
            {
                sent.push_back(&of);
            }
        }
        for (size_t i = 0; i < del.size(); ++i)
        {
            RIFL_FUZZ_CHECK(del[i]->packetId == i, name << ": endpoint " << r << " delivery " << i
                                                        << " is packet " << del[i]->packetId);
            RIFL_FUZZ_CHECK(del[i]->content == Payload(ep, i, sent[i]->bytes),
                            name << ": content of packet " << i);
        }
        RIFL_FUZZ_CHECK(del.size() == offered[ep],
                        name << ": direction " << ep << "->" << r << " delivered " << del.size()
                             << " of " << offered[ep] << " (pending " << e.GetPendingPackets(ep)
                             << ") by slot " << sc.endSlot << "; last disturbance "
                             << sc.lastDisturbance << "; " << sc.config.ToString()
                             << "; receiver counters " << rx.ToString());
        RIFL_FUZZ_CHECK(bytes == rx.bytesDelivered, name << ": bytes delivered, all delivered");
    }
    return o;
}

/**
 * \brief Print the decoded scenario to stderr (RIFL_FUZZ_VERBOSE=1).
 * \param sc the scenario.
 */
void
Print(const Scenario& sc)
{
    std::fprintf(stderr, "%zu offers, end slot %llu, last disturbance %llu\n%s\n", sc.offers.size(),
                 static_cast<unsigned long long>(sc.endSlot),
                 static_cast<unsigned long long>(sc.lastDisturbance), sc.config.ToString().c_str());
    std::fprintf(stderr, "drain %g frames/slot, replay tail %s (%u slots), user word %u B\n",
                 sc.config.drainFramesPerSlot,
                 sc.config.replayTail == RiflReplayTail::CORRECTED ? "CORRECTED" : "RTL",
                 sc.config.correctedTailSlots, sc.config.userWordBytes);
    std::fprintf(stderr,
                 "fields: cableLengthM %g transceiverDelayNs %g lineDelaySlots %lld frameIdWidth %u "
                 "fcFifoDepth %u rxUpSlots %u\n",
                 sc.config.cableLengthM, sc.config.transceiverDelayNs,
                 static_cast<long long>(sc.config.lineDelaySlots), sc.config.frameIdWidth,
                 sc.config.fcFifoDepth, sc.config.rxUpSlots);
    for (const Offer& o : sc.offers)
    {
        std::fprintf(stderr, "  slot %llu: endpoint %u offers packet %llu, %u bytes\n",
                     static_cast<unsigned long long>(o.slot), o.endpoint,
                     static_cast<unsigned long long>(o.id), o.bytes);
    }
    const uint32_t lanes = sc.config.lanes;
    for (uint32_t k = 0; k < sc.errors.size(); ++k)
    {
        for (const auto& [slot, bits] : sc.errors[k].listed)
        {
            std::fprintf(stderr, "  sent by %u lane %u: %zu bit errors in slot %llu, bits",
                         k / lanes, k % lanes, bits.size(), static_cast<unsigned long long>(slot));
            for (uint32_t b : bits)
            {
                std::fprintf(stderr, " %u", b);
            }
            std::fprintf(stderr, "\n");
        }
        for (const auto& [start, dur] : sc.errors[k].syncLoss)
        {
            std::fprintf(stderr, "  sent by %u lane %u: sync lost in slots [%llu, %llu)\n",
                         k / lanes, k % lanes, static_cast<unsigned long long>(start),
                         static_cast<unsigned long long>(start + dur));
        }
    }
}

/**
 * \brief Two runs of the same scenario must agree: counters, pending packets and every
 *        delivery (slots, id, content, word latencies).
 * \param e1 the first engine.
 * \param o1 its outcome.
 * \param e2 the second engine.
 * \param o2 its outcome.
 * \param what the comparison, for messages.
 */
void
CheckSame(const RiflLinkEngine& e1, const Outcome& o1, const RiflLinkEngine& e2, const Outcome& o2,
          const char* what)
{
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        const auto diff = e1.GetCounters(ep).Diff(e2.GetCounters(ep));
        if (!diff.empty() && std::getenv("RIFL_FUZZ_VERBOSE"))
        {
            for (const auto& d : diff)
            {
                std::fprintf(stderr, "endpoint %u: %s differs\n", ep, d.c_str());
            }
        }
        RIFL_FUZZ_CHECK(diff.empty(), what << ": counters of endpoint " << ep << " differ, first "
                                           << diff.front());
        RIFL_FUZZ_CHECK(e1.GetPendingPackets(ep) == e2.GetPendingPackets(ep), what << ": pending");
    }
    RIFL_FUZZ_CHECK(o1.deliveries.size() == o2.deliveries.size(), what << ": delivery count");
    for (size_t i = 0; i < o1.deliveries.size(); ++i)
    {
        const RiflDelivery& x = o1.deliveries[i];
        const RiflDelivery& y = o2.deliveries[i];
        RIFL_FUZZ_CHECK(
            x.endpoint == y.endpoint && x.packetId == y.packetId && x.firstSlot == y.firstSlot
                && x.slot == y.slot && x.content == y.content
                && (x.lean || y.lean || x.wordLatencies == y.wordLatencies),
            what << ": delivery " << i << " differs (slot " << x.slot << " vs " << y.slot << ")");
    }
}

/**
 * \brief Two runs of the same scenario must emit the same events in the same order.
 * \param o1 the first run's outcome.
 * \param o2 the second run's outcome.
 * \param what the comparison, for messages.
 */
void
CheckSameEvents(const Outcome& o1, const Outcome& o2, const char* what)
{
    const size_t n = std::min(o1.events.size(), o2.events.size());
    for (size_t i = 0; i < n; ++i)
    {
        const RiflLinkEvent& x = o1.events[i];
        const RiflLinkEvent& y = o2.events[i];
        RIFL_FUZZ_CHECK(x == y, what << ": event " << i << " differs: type " << int(x.type) << "/"
                                     << int(y.type) << " slot " << x.slot << "/" << y.slot
                                     << " endpoint " << x.endpoint << "/" << y.endpoint << " lane "
                                     << x.lane << "/" << y.lane);
    }
    RIFL_FUZZ_CHECK(o1.events.size() == o2.events.size(), what << ": event count");
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider in(data, size);
    const Scenario sc = Build(in);
    if (std::getenv("RIFL_FUZZ_VERBOSE"))
    {
        Print(sc);
    }
    if (std::getenv("RIFL_FUZZ_REFERENCE_FIRST"))
    {
        // triage: the reference engine's own checks first
        RiflReferenceEngine first(sc.config);
        Run(first, sc, false, "reference");
    }
    RiflFastEngine fast(sc.config);
    fast.SetStartupTemplates(!g_noTemplates);
    const Outcome b = Run(fast, sc, true, "fast");
    RIFL_FUZZ_CHECK(b.early == 0, "fast: " << b.early << " callbacks before NextEventSlot()");
    if (RiflFuzzRunLazy(data, size))
    {
        // The fast engine again with TX events it need not wake for (the ns-3 channel's
        // SetTxEventWakes() when no sink and no queued packet needs them), the masks chosen
        // by a hash of the input: the same deliveries, counters and events (the TX events
        // possibly reported later), and every promise kept.
        uint32_t hash = 2166136261u;
        for (size_t i = 0; i < size; ++i)
        {
            hash = (hash ^ data[i]) * 16777619u;
        }
        const uint32_t wakes[2] = {hash & 3, (hash >> 2) & 3};
        // Half of them with the offers deferred (OfferPayloadAt()), as RiflChannel offers.
        // RIFL_FUZZ_DEFER=0 or 1 chooses for every input (corpus replays).
        const char* force = std::getenv("RIFL_FUZZ_DEFER");
        const bool deferred = force != nullptr ? force[0] == '1' : ((hash >> 4) & 1) != 0;
        // Three in four of them woken at NextWakeSlot() (as RiflChannel wakes a link
        // whose protocol events no sink sees); RIFL_FUZZ_WAKE_BOUND=0 or 1 chooses.
        const char* bound = std::getenv("RIFL_FUZZ_WAKE_BOUND");
        const bool wakeBound = bound != nullptr ? bound[0] == '1' : ((hash >> 5) & 3) != 0;
        RiflFastEngine lazy(sc.config);
        const Outcome c = Run(lazy, sc, true, deferred ? "fast-lazy-deferred" : "fast-lazy",
                              wakes, deferred, wakeBound);
        RIFL_FUZZ_CHECK(c.early == 0, "fast with TX wakes " << wakes[0] << "/" << wakes[1] << ": "
                                                            << c.early
                                                            << " callbacks before NextEventSlot()");
        CheckSame(lazy, c, fast, b, "lazy TX wakes");
        const auto key = [](const RiflLinkEvent& ev)
        {
            return std::make_tuple(ev.slot, ev.endpoint, static_cast<int>(ev.type), ev.lane,
                                   ev.packetId, ev.value, ev.value2);
        };
        std::vector<std::tuple<uint64_t, uint32_t, int, uint32_t, uint64_t, int64_t, int64_t>> kb;
        std::vector<std::tuple<uint64_t, uint32_t, int, uint32_t, uint64_t, int64_t, int64_t>> kc;
        for (const RiflLinkEvent& ev : b.events)
        {
            kb.push_back(key(ev));
        }
        for (const RiflLinkEvent& ev : c.events)
        {
            kc.push_back(key(ev));
        }
        std::sort(kb.begin(), kb.end());
        std::sort(kc.begin(), kc.end());
        RIFL_FUZZ_CHECK(kb == kc, "lazy TX wakes: events differ");
    }
    if (RiflFuzzRunStepped(data, size))
    {
        // Every slot stepped: the jumps (quiescent, loaded, start-up templates) must not
        // change anything, events in the same order included.
        // Lean deliveries (the channel's case without Delivery sinks) on inputs of odd
        // size: the same packets, the offered payloads themselves.
        RiflFastEngine stepped(sc.config);
        stepped.SetJumps(false);
        const Outcome d
            = Run(stepped, sc, false, "fast-stepped", nullptr, false, false, (size & 1) != 0);
        CheckSame(stepped, d, fast, b, "fast without jumps vs fast");
        CheckSameEvents(d, b, "fast without jumps vs fast");
    }
    if (!RiflFuzzRunReference(data, size))
    {
        return 0;
    }
    RiflReferenceEngine ref(sc.config);
    const Outcome a = Run(ref, sc, false, "reference");
    CheckSame(ref, a, fast, b, "reference vs fast");
    CheckSameEvents(a, b, "reference vs fast");
    return 0;
}

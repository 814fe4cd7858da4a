/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/deterministic-error-process.h"
#include "ns3/independent-bit-error-process.h"
#include "ns3/packet.h"
#include "ns3/rifl-compat.h"
#include "ns3/rifl-fast-engine.h"
#include "ns3/rifl-reference-engine.h"
#include "ns3/sync-loss-process.h"
#include "ns3/test.h"
#include "rifl-test-util.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <deque>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

/**
 * \file
 * \ingroup rifl-protocol
 * Equivalence of RiflFastEngine and RiflReferenceEngine ("rifl-engine-equivalence").
 *
 * Both engines get the same configuration, the same offers at the same slots
 * (both are advanced to the offer slot, then offered the packet) and identical
 * error and sync-loss streams (two process instances with the same stream
 * number or the same explicit list). They are run to the same end slot and
 * every delivery (slot, id, content, word latencies), every event and every counter must be
 * equal; the first difference is printed.
 */

using namespace ns3;

namespace
{

/// One offered packet.
struct Offer
{
    uint64_t slot;     //!< offer slot
    uint32_t endpoint; //!< sender
    uint64_t id;       //!< packet id
    uint32_t bytes;    //!< size
};

/// Errors of one (direction, lane).
struct ErrorSpec
{
    double ber{0.0};                                                //!< i.i.d. BER (0 = none)
    std::vector<std::pair<uint64_t, std::vector<uint32_t>>> listed; //!< explicit errors
    std::vector<std::pair<uint64_t, uint64_t>> syncLoss;            //!< (start, duration)
};

/// A whole scenario.
struct Scenario
{
    std::string name;              //!< description
    RiflLinkConfig config;         //!< the link
    std::vector<Offer> offers;     //!< offers, ascending slots
    std::vector<ErrorSpec> errors; //!< index sender * lanes + lane
    uint64_t endSlot{0};           //!< run to this slot
    uint32_t seed{1};              //!< stream base and payload seed
};

/// What an engine produced.
struct Outcome
{
    std::vector<RiflDelivery> deliveries; //!< in callback order
    std::vector<RiflLinkEvent> events;    //!< in callback order
    RiflEndpointCounters counters[2];     //!< final counters
    uint64_t pending[2]{0, 0};            //!< final pending packets
    double seconds{0.0};                  //!< wall time
    uint64_t earlyCallbacks{0};           //!< callbacks before the promised NextEventSlot()
    uint64_t advances{0};                 //!< AdvanceTo() calls (event-driven runs)
    uint64_t predictions{0};              //!< PredictPendingPackets() answers checked
    uint64_t laterWakes{0};               //!< NextWakeSlot() promises after NextEventSlot()'s
    std::string predictionError;          //!< the first wrong answer, if any
};

/**
 * \brief Check PredictPendingPackets() before an offer deferred to \p slot: on every
 *        third offer, run the engine to \p slot (no packet is offered meanwhile) and
 *        compare GetPendingPackets() with what it predicted for both endpoints.
 * \param e the engine (lagging behind \p slot).
 * \param slot the offer's slot.
 * \param index the offer's index.
 * \param o the outcome (predictions counted, the first wrong one kept).
 */
void
CheckPrediction(RiflLinkEngine& e, uint64_t slot, std::size_t index, Outcome& o)
{
    if (index % 3 != 0 || slot < e.GetSlot())
    {
        return;
    }
    const uint64_t from = e.GetSlot();
    std::array<uint64_t, 2> predicted{0, 0};
    std::array<bool, 2> known{false, false};
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        known[ep] = e.PredictPendingPackets(ep, slot, &predicted[ep]);
    }
    if (!known[0] && !known[1])
    {
        return;
    }
    e.AdvanceTo(slot);
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        if (!known[ep])
        {
            continue;
        }
        ++o.predictions;
        if (predicted[ep] != e.GetPendingPackets(ep) && o.predictionError.empty())
        {
            std::ostringstream os;
            os << "PredictPendingPackets(" << ep << ", " << slot << ") from slot " << from
               << " = " << predicted[ep] << ", after AdvanceTo: " << e.GetPendingPackets(ep);
            o.predictionError = os.str();
        }
    }
}

/**
 * \brief Attach a scenario's error streams to an engine (fresh process instances).
 * \param e the engine.
 * \param sc the scenario.
 */
void
AttachErrors(RiflLinkEngine& e, const Scenario& sc)
{
    const uint32_t lanes = sc.config.lanes;
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t l = 0; l < lanes; ++l)
        {
            const ErrorSpec& spec = sc.errors[s * lanes + l];
            if (spec.ber > 0.0)
            {
                auto p = CreateObject<IndependentBitErrorProcess>();
                p->SetBer(spec.ber);
                p->AssignStreams(sc.seed * 64 + s * 16 + l);
                e.SetErrorProcess(s, l, p);
            }
            else if (!spec.listed.empty())
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
 * \param e an engine.
 * \param wakeBound ask NextWakeSlot() (deliveries and the TX events asked for only, as
 *        RiflChannel does when no sink sees the protocol events) instead of
 *        NextEventSlot().
 * \param o the outcome (promises later than NextEventSlot()'s counted).
 * \return the slot the engine promises.
 */
uint64_t
Promise(RiflLinkEngine& e, bool wakeBound, Outcome& o)
{
    if (!wakeBound)
    {
        return e.NextEventSlot();
    }
    const uint64_t every = e.NextEventSlot();
    const uint64_t bound = e.NextWakeSlot();
    o.laterWakes += bound > every ? 1 : 0;
    return bound;
}

/**
 * \brief Advance an engine the way the ns-3 channel does: one AdvanceTo() per
 *        NextEventSlot(), counting callbacks that come before the promised slot.
 * \param e the engine.
 * \param target the slot to reach.
 * \param promised the slot NextEventSlot() promised last (updated).
 * \param o the outcome (advances counted).
 * \param wakeBound promise by NextWakeSlot() instead (see Promise()).
 */
void
AdvanceByEvents(RiflLinkEngine& e, uint64_t target, uint64_t& promised, Outcome& o,
                bool wakeBound = false)
{
    while (e.GetSlot() < target)
    {
        promised = Promise(e, wakeBound, o);
        const uint64_t to
            = promised == RiflLinkEngine::NEVER ? target : std::min(target, promised + 1);
        e.AdvanceTo(std::max(to, e.GetSlot() + 1));
        ++o.advances;
    }
    promised = 0;
}

/**
 * \brief Run an engine's wake-ups due by \p target (a slot NextEventSlot() promised,
 *        run at the start of the slot after it), as the ns-3 channel does before an
 *        offer that it defers (OfferPayloadAt()) instead of running the engine up to it.
 * \param e the engine.
 * \param target the offer's slot.
 * \param promised the slot NextEventSlot() promised last (updated).
 * \param o the outcome (advances counted).
 * \param wakeBound promise by NextWakeSlot() instead (see Promise()).
 */
void
AdvanceWakesBefore(RiflLinkEngine& e, uint64_t target, uint64_t& promised, Outcome& o,
                   bool wakeBound)
{
    while (true)
    {
        promised = Promise(e, wakeBound, o);
        if (promised == RiflLinkEngine::NEVER || promised + 1 > target)
        {
            return;
        }
        e.AdvanceTo(std::max(promised + 1, e.GetSlot() + 1));
        ++o.advances;
    }
}

/**
 * \brief Run a scenario on one engine.
 * \param e the engine (fresh).
 * \param sc the scenario.
 * \param byEvents advance the way the ns-3 channel does (NextEventSlot() driven).
 * \param payloads if not null, offer each packet as an ns-3 Packet in a RiflPayload
 *        (as RiflChannel does) and keep the payloads here; else as a byte vector.
 * \param deferred with byEvents: offer each packet with OfferPayloadAt() after the
 *        wake-ups due by its slot only, as RiflChannel does (where the engine takes it);
 *        for odd seeds with no wake-ups for TX_BEGIN and TX_END (as RiflChannel asks when
 *        no device observes them), so that batched jumps run across the arrivals.
 * \return the outcome.
 */
Outcome
RunScenario(RiflLinkEngine& e, const Scenario& sc, bool byEvents = false,
            std::vector<std::shared_ptr<const RiflPayload>>* payloads = nullptr,
            bool deferred = false)
{
    Outcome o;
    uint64_t promised = 0;
    AttachErrors(e, sc);
    // Deferred offers: TX wake-ups off on odd seeds (batched jumps across the arrivals), on
    // on even ones (the TX events of an arrival promised too).
    const bool txWakes = !(byEvents && deferred) || sc.seed % 2 == 0;
    // ... and woken by NextWakeSlot() on three seeds in four, as RiflChannel wakes
    // a link no protocol-event sink watches: no other event is promised then.
    const bool wakeBound = byEvents && deferred && sc.seed % 4 != 3;
    if (!txWakes)
    {
        e.SetTxEventWakes(0, false, false);
        e.SetTxEventWakes(1, false, false);
    }
    e.SetDeliveryCallback(
        [&o, &promised](const RiflDelivery& d)
        {
            o.earlyCallbacks += d.slot < promised ? 1 : 0;
            o.deliveries.push_back(d);
        });
    e.SetEventCallback(
        [&o, &promised, txWakes, wakeBound](const RiflLinkEvent& ev)
        {
            const bool tx
                = ev.type == RiflLinkEventType::TX_BEGIN || ev.type == RiflLinkEventType::TX_END;
            o.earlyCallbacks += ev.slot < promised && (tx ? txWakes : !wakeBound) ? 1 : 0;
            o.events.push_back(ev);
        });
    std::mt19937_64 rng(sc.seed);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t index = 0;
    for (const Offer& of : sc.offers)
    {
        ++index;
        std::vector<uint8_t> payload(of.bytes);
        uint64_t r = 0;
        for (std::size_t i = 0; i < payload.size(); ++i)
        {
            r = i % 8 == 0 ? rng() : r >> 8;
            payload[i] = static_cast<uint8_t>(r);
        }
        if (byEvents && deferred)
        {
            AdvanceWakesBefore(e, of.slot, promised, o, wakeBound);
            CheckPrediction(e, of.slot, index, o);
            if (e.OfferPayloadAt(of.endpoint, of.id, std::make_shared<const RiflPayload>(payload),
                                 of.slot))
            {
                continue;
            }
        }
        if (byEvents)
        {
            AdvanceByEvents(e, of.slot, promised, o, wakeBound);
        }
        e.AdvanceTo(of.slot);
        if (payloads)
        {
            payloads->push_back(std::make_shared<const RiflPayload>(
                Create<Packet>(payload.data(), static_cast<uint32_t>(payload.size()))));
            e.OfferPayload(of.endpoint, of.id, payloads->back());
        }
        else
        {
            e.OfferPacket(of.endpoint, of.id, payload);
        }
    }
    if (byEvents)
    {
        AdvanceByEvents(e, sc.endSlot, promised, o, wakeBound);
    }
    e.AdvanceTo(sc.endSlot);
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        o.counters[ep] = e.GetCounters(ep);
        o.pending[ep] = e.GetPendingPackets(ep);
    }
    return o;
}

/**
 * \param ev an event.
 * \return a one-line description.
 */
std::string
Describe(const RiflLinkEvent& ev)
{
    std::ostringstream os;
    os << "type=" << static_cast<int>(ev.type) << " ep=" << ev.endpoint << " lane=" << ev.lane
       << " slot=" << ev.slot << " packet=" << ev.packetId << " value=" << ev.value
       << " value2=" << ev.value2;
    return os.str();
}

/**
 * \brief Compare two outcomes.
 * \param ref the reference's.
 * \param fast the fast engine's.
 * \return empty if equal, else the first difference.
 */
std::string
Compare(const Outcome& ref, const Outcome& fast)
{
    std::ostringstream os;
    const std::size_t nd = std::min(ref.deliveries.size(), fast.deliveries.size());
    for (std::size_t i = 0; i < nd; ++i)
    {
        const RiflDelivery& a = ref.deliveries[i];
        const RiflDelivery& b = fast.deliveries[i];
        if (a.endpoint != b.endpoint || a.packetId != b.packetId || a.slot != b.slot
            || a.firstSlot != b.firstSlot || a.content != b.content
            || a.wordLatencies != b.wordLatencies)
        {
            os << "delivery " << i << ": ref ep " << a.endpoint << " id " << a.packetId << " slot "
               << a.slot << " first " << a.firstSlot << " bytes " << a.content.size()
               << " | fast ep " << b.endpoint << " id " << b.packetId << " slot " << b.slot
               << " first " << b.firstSlot << " bytes " << b.content.size()
               << (a.content != b.content ? " (content differs)" : "")
               << (a.wordLatencies != b.wordLatencies ? " (word latencies differ)" : "");
            return os.str();
        }
    }
    if (ref.deliveries.size() != fast.deliveries.size())
    {
        os << "deliveries: ref " << ref.deliveries.size() << " fast " << fast.deliveries.size();
        return os.str();
    }
    const std::size_t ne = std::min(ref.events.size(), fast.events.size());
    for (std::size_t i = 0; i < ne; ++i)
    {
        if (!(ref.events[i] == fast.events[i]))
        {
            os << "event " << i << ": ref " << Describe(ref.events[i]) << " | fast "
               << Describe(fast.events[i]);
            return os.str();
        }
    }
    if (ref.events.size() != fast.events.size())
    {
        os << "events: ref " << ref.events.size() << " fast " << fast.events.size();
        if (ref.events.size() > ne)
        {
            os << " first extra ref " << Describe(ref.events[ne]);
        }
        else
        {
            os << " first extra fast " << Describe(fast.events[ne]);
        }
        return os.str();
    }
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        const auto diff = ref.counters[ep].Diff(fast.counters[ep]);
        if (!diff.empty())
        {
            os << "counters of endpoint " << ep << " differ:";
            for (const auto& name : diff)
            {
                os << " " << name;
            }
            os << "\n ref  " << ref.counters[ep].ToString() << "\n fast "
               << fast.counters[ep].ToString();
            return os.str();
        }
        if (ref.pending[ep] != fast.pending[ep])
        {
            os << "pending packets of endpoint " << ep << ": ref " << ref.pending[ep] << " fast "
               << fast.pending[ep];
            return os.str();
        }
    }
    if (fast.earlyCallbacks != 0)
    {
        os << "fast engine: " << fast.earlyCallbacks
           << " callbacks before the slot NextEventSlot() promised";
        return os.str();
    }
    return "";
}

/**
 * \brief A scenario's link, without traffic: up after 64 slots, the same BER on every
 *        (direction, lane).
 * \param lanes lanes.
 * \param frameSize S.
 * \param lineDelay L in slots.
 * \param ber BER of every (direction, lane), 0 = clean.
 * \param drain drain rate (frames per slot, 0 = unlimited).
 * \param seed the seed.
 * \return the scenario, no offers yet.
 */
Scenario
LinkScenario(uint32_t lanes, uint32_t frameSize, uint32_t lineDelay, double ber, double drain,
             uint32_t seed)
{
    Scenario sc;
    sc.seed = seed;
    sc.config.lanes = lanes;
    sc.config.frameSize = frameSize;
    sc.config.lineDelaySlots = lineDelay;
    sc.config.rxUpSlots = 64; // up before the first packet
    sc.config.drainFramesPerSlot = drain;
    sc.errors.resize(2 * lanes);
    for (auto& e : sc.errors)
    {
        e.ber = ber;
    }
    return sc;
}

/**
 * \brief Make a scenario with saturated traffic (both TX queues never run dry).
 * \param lanes lanes.
 * \param frameSize S.
 * \param mixed sizes 1..9000 B (else 1500 B).
 * \param ber BER of every (direction, lane), 0 = clean.
 * \param drain drain rate (frames per slot, 0 = unlimited).
 * \param slots slots to run.
 * \param seed the seed.
 * \return the scenario.
 */
Scenario
SaturatedScenario(uint32_t lanes, uint32_t frameSize, bool mixed, double ber, double drain,
                  uint64_t slots, uint32_t seed)
{
    Scenario sc = LinkScenario(lanes, frameSize, 11, ber, drain, seed);
    std::mt19937_64 rng(seed);
    // Offered load 1.3 x the line rate of each direction.
    const double bytesPerSlot = 1.3 * lanes * (frameSize / 8 - 2);
    uint64_t id = 1;
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        double slot = 1500;
        while (slot < slots - 2000)
        {
            const uint32_t bytes = mixed ? 1 + static_cast<uint32_t>(rng() % 9000) : 1500;
            sc.offers.push_back(Offer{static_cast<uint64_t>(slot), ep, id++, bytes});
            slot += bytes / bytesPerSlot;
        }
    }
    std::stable_sort(sc.offers.begin(), sc.offers.end(),
                     [](const Offer& a, const Offer& b)
                     {
                         return a.slot < b.slot;
                     });
    sc.endSlot = slots;
    std::ostringstream os;
    os << "saturated, lanes " << lanes << " S " << frameSize << (mixed ? " mixed" : " 1500 B")
       << " BER " << ber << " drain " << drain << " slots " << slots;
    sc.name = os.str();
    return sc;
}

/**
 * \brief Make a scenario of packets with random gaps (Poisson arrivals at a given load),
 *        the traffic the ns-3 channel defers offers on (OfferPayloadAt()).
 * \param lanes lanes.
 * \param load offered load per direction, as a fraction of the line.
 * \param minBytes smallest packet.
 * \param maxBytes largest packet.
 * \param ber BER of every (direction, lane).
 * \param drain the receivers' drain rate (frames per slot, 0 = unlimited).
 * \param seed the seed.
 * \return the scenario.
 */
Scenario
GapScenario(uint32_t lanes, double load, uint32_t minBytes, uint32_t maxBytes, double ber,
            double drain, uint32_t seed)
{
    Scenario sc = LinkScenario(lanes, 256, 5, ber, drain, seed);
    std::mt19937_64 rng(seed);
    const uint64_t slots = 30000;
    uint64_t id = 1;
    for (uint32_t ep = 0; ep < 2; ++ep)
    {
        double slot = 1500;
        while (slot < slots - 2000)
        {
            const uint32_t bytes
                = minBytes + static_cast<uint32_t>(rng() % (maxBytes - minBytes + 1));
            sc.offers.push_back(Offer{static_cast<uint64_t>(slot), ep, id++, bytes});
            const double mean = bytes / (load * lanes * 30.0);
            slot += -mean * std::log((rng() % 1000000 + 1) / 1000001.0);
        }
    }
    std::stable_sort(sc.offers.begin(), sc.offers.end(),
                     [](const Offer& a, const Offer& b)
                     {
                         return a.slot < b.slot;
                     });
    sc.endSlot = slots + 20000; // a quiet tail: everything delivered
    std::ostringstream os;
    os << "gaps, lanes " << lanes << " load " << load << " sizes " << minBytes << ".." << maxBytes
       << " BER " << ber << " drain " << drain << " seed " << seed;
    sc.name = os.str();
    return sc;
}

/**
 * \brief Make a randomized scenario.
 * \param seed the seed.
 * \param big larger and longer (EXTENSIVE).
 * \return the scenario.
 */
Scenario
RandomScenario(uint32_t seed, bool big)
{
    std::mt19937_64 rng(seed * 7919 + 13);
    auto uni = [&rng](double a, double b)
    {
        return std::uniform_real_distribution<double>(a, b)(rng);
    };
    auto pick = [&rng](uint64_t n)
    {
        return static_cast<uint64_t>(rng() % n);
    };
    Scenario sc;
    sc.seed = seed;
    RiflLinkConfig& c = sc.config;
    c.lanes = pick(2) == 0 ? 1 : 4;
    c.frameSize = pick(2) == 0 ? 256 : 512;
    c.rxUpSlots = 32 + static_cast<uint32_t>(pick(64));
    const bool longLink = pick(6) == 0;
    c.lineDelaySlots
        = longLink ? 30 + static_cast<int64_t>(pick(20)) : 2 + static_cast<int64_t>(pick(14));
    c.replayTail = pick(3) == 0 ? RiflReplayTail::CORRECTED : RiflReplayTail::RTL;
    const bool slowDrain = pick(5) == 0;
    if (slowDrain)
    {
        c.drainFramesPerSlot = uni(0.2, 0.9);
    }
    const uint64_t startup = 2000;
    const uint64_t span = big ? 40000 + pick(60000) : 6000 + pick(10000);
    const uint32_t maxBytes = pick(3) == 0 ? 9000 : (pick(2) == 0 ? 1500 : 200);
    const double meanGap = uni(5, big ? 2000 : 600);
    uint64_t slot = startup + pick(500);
    uint64_t id = 1;
    while (slot < startup + span)
    {
        Offer of{slot, static_cast<uint32_t>(pick(2)), id++,
                 1 + static_cast<uint32_t>(pick(maxBytes))};
        sc.offers.push_back(of);
        slot
            += 1 + static_cast<uint64_t>(std::exponential_distribution<double>(1.0 / meanGap)(rng));
    }
    sc.endSlot = startup + span + 3000 + 40 * c.lineDelaySlots;
    sc.errors.resize(2 * c.lanes);
    const uint32_t mode = static_cast<uint32_t>(pick(6));
    const double bers[] = {1e-6, 3e-6, 1e-5, 3e-5};
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t l = 0; l < c.lanes; ++l)
        {
            ErrorSpec& e = sc.errors[s * c.lanes + l];
            if (mode == 0 || mode == 1)
            {
                // Random BER, one direction (mode 0) or both (mode 1).
                if (mode == 1 || s == 0)
                {
                    e.ber = bers[pick(4)];
                }
            }
            else if (mode == 2 || mode == 3)
            {
                // Explicit errors: clusters, inside replays, control and FC frames.
                const uint32_t n = 1 + static_cast<uint32_t>(pick(6));
                for (uint32_t i = 0; i < n; ++i)
                {
                    uint64_t at = startup + pick(span);
                    const uint32_t burst = 1 + static_cast<uint32_t>(pick(4));
                    for (uint32_t b = 0; b < burst; ++b)
                    {
                        std::vector<uint32_t> bits;
                        const uint32_t k = 1 + static_cast<uint32_t>(pick(4));
                        for (uint32_t j = 0; j < k; ++j)
                        {
                            bits.push_back(static_cast<uint32_t>(pick(c.frameSize)));
                        }
                        e.listed.emplace_back(at, bits);
                        at += 1 + pick(mode == 3 ? 200 : 20);
                    }
                }
                std::sort(e.listed.begin(), e.listed.end());
                e.listed.erase(std::unique(e.listed.begin(), e.listed.end(),
                                           [](const auto& a, const auto& b)
                                           {
                                               return a.first == b.first;
                                           }),
                               e.listed.end());
            }
            else if (mode == 4)
            {
                // Loss of sync (one or a few slots, or long), plus a low BER.
                if (pick(2) == 0)
                {
                    const uint64_t at = startup + pick(span);
                    e.syncLoss.emplace_back(at, pick(3) == 0 ? 1 + pick(300) : 1 + pick(3));
                }
                e.ber = pick(2) == 0 ? 1e-6 : 0.0;
            }
            // mode 5: clean
        }
    }
    // Clock offsets (§6.1), drawn last so that the rest of the scenario is unchanged:
    // half of the scenarios, +-1000 ppm per endpoint, compensation on or off.
    if (pick(2) == 0)
    {
        c.clockOffsetPpm = {uni(-1000, 1000), uni(-1000, 1000)};
        c.clockCompensation = {pick(3) != 0, pick(3) != 0};
    }
    // Lane skew (§6.2), drawn after everything else: a third of the scenarios.
    if (pick(3) == 0)
    {
        for (uint32_t l = 0; l < c.lanes; ++l)
        {
            c.laneSkewSlots.push_back(static_cast<uint32_t>(pick(2) == 0 ? 0 : pick(25)));
        }
    }
    // Per-endpoint user sides (drawn last): a different drain rate or FIFO depth at one end.
    if (pick(4) == 0)
    {
        const uint32_t e = static_cast<uint32_t>(pick(2));
        c.endpointDrainRate[e] = pick(3) == 0 ? 0.0 : uni(0.2, 1.5 * c.lanes);
        if (pick(2) == 0)
        {
            c.endpointFcFifoDepth[1 - e] = c.GetFcThrOn() + 1 + static_cast<int64_t>(pick(100));
        }
    }
    std::ostringstream os;
    os << "seed " << seed << " lanes " << c.lanes << " S " << c.frameSize << " L "
       << c.lineDelaySlots << " tail " << (c.replayTail == RiflReplayTail::RTL ? "RTL" : "COR")
       << " drain " << c.drainFramesPerSlot << " mode " << mode << " offers " << sc.offers.size()
       << " end " << sc.endSlot << " ppm " << c.clockOffsetPpm[0] << "/" << c.clockOffsetPpm[1]
       << " comp " << c.clockCompensation[0] << c.clockCompensation[1] << " skew "
       << c.GetMaxLaneSkewSlots() << " drains " << c.GetDrainRate(0) << "/" << c.GetDrainRate(1)
       << " fifos " << c.GetFcFifoDepth(0) << "/" << c.GetFcFifoDepth(1);
    sc.name = os.str();
    return sc;
}

} // namespace

/**
 * \ingroup rifl-protocol
 * \brief Randomized equivalence scenarios.
 */
class RiflEquivalenceRandomTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param first first seed.
     * \param count number of scenarios.
     * \param big larger scenarios.
     */
    RiflEquivalenceRandomTestCase(uint32_t first, uint32_t count, bool big)
        : TestCase("randomized scenarios, seeds " + std::to_string(first) + " to "
                   + std::to_string(first + count - 1) + (big ? ", large" : ""))
        , m_first(first)
        , m_count(count)
        , m_big(big)
    {
    }

  private:
    void DoRun() override
    {
        double refSeconds = 0;
        double fastSeconds = 0;
        uint64_t predictions = 0; // PredictPendingPackets() answers checked
        uint64_t laterWakes = 0;  // NextWakeSlot() promises later than NextEventSlot()'s
        uint64_t dormant = 0;     // lane-slots left out by sparse stepping
        for (uint32_t s = m_first; s < m_first + m_count; ++s)
        {
            const Scenario sc = RandomScenario(s, m_big);
            RiflReferenceEngine ref(sc.config);
            RiflFastEngine fast(sc.config);
            const Outcome a = RunScenario(ref, sc);
            // Odd seeds: driven as the ns-3 channel drives it (NextEventSlot()).
            const Outcome b = RunScenario(fast, sc, s % 2 == 1);
            refSeconds += a.seconds;
            fastSeconds += b.seconds;
            dormant += fast.GetDormantLaneSlots();
            std::string diff = Compare(a, b);
            NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
            if (!diff.empty())
            {
                std::cerr << "FIRST DIFFERENCE (" << sc.name << "): " << diff << std::endl;
            }
            // Every seed again with the offers deferred (OfferPayloadAt()), as RiflChannel
            // offers them.
            RiflFastEngine deferred(sc.config);
            const Outcome c = RunScenario(deferred, sc, true, nullptr, true);
            dormant += deferred.GetDormantLaneSlots();
            NS_TEST_EXPECT_MSG_EQ(c.predictionError, "", sc.name << ", offers deferred");
            predictions += c.predictions;
            laterWakes += c.laterWakes;
            diff = Compare(a, c);
            NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name << ", offers deferred");
            if (!diff.empty())
            {
                std::cerr << "FIRST DIFFERENCE (" << sc.name << ", offers deferred): " << diff
                          << std::endl;
            }
        }
        // the scenarios reach the predicted case (a steadily loaded link) many times
        NS_TEST_EXPECT_MSG_GT(predictions, m_count, "PredictPendingPackets() answers checked");
        NS_TEST_EXPECT_MSG_GT(laterWakes, m_count, "NextWakeSlot() promises beyond NextEventSlot()");
        // the recoveries under traffic leave lanes out (sparse stepping) many times
        NS_TEST_EXPECT_MSG_GT(dormant, 100 * m_count, "sparse stepping checked");
        std::cout << GetName() << ": reference " << refSeconds << " s, fast " << fastSeconds
                  << " s, " << predictions << " pending-packet predictions checked, " << laterWakes
                  << " wake-ups promised later than NextEventSlot(), " << dormant
                  << " lane-slots left out by sparse stepping" << std::endl;
    }

    uint32_t m_first; //!< first seed
    uint32_t m_count; //!< scenarios
    bool m_big;       //!< large
};

/**
 * \return a receiver lane left behind, then steady traffic (fuzz finding of
 *         2026-12-03, fuzz/corpus/rifl-engine/resync-behind-then-loaded): a loss of
 *         sync on both lanes B -> A, and A resynchronises on lane 0 past a lost user
 *         frame of packet 5 (RESYNC_AHEAD). That lane's receiver stays one frame behind
 *         until its next user frame (packet 6, slot 4612), which it counts out of
 *         order; the loaded-run jumps had taken it as in sequence.
 */
Scenario
LaneBehindScenario()
{
    Scenario sc;
    sc.name = "receiver lane behind, then loaded";
    RiflLinkConfig& c = sc.config;
    c.lanes = 2;
    c.frameSize = 256;
    c.cableLengthM = 5;
    c.transceiverDelayNs = 43;
    c.lineDelaySlots = 19;
    c.fcFifoDepth = 151;
    c.replayTail = RiflReplayTail::CORRECTED;
    c.correctedTailSlots = 93;
    c.rxUpSlots = 82;
    c.userWordBytes = 695;
    sc.offers = {{1398, 0, 0, 76},    {1729, 1, 1, 76},   {2060, 1, 2, 76},
                 {2391, 1, 3, 1},     {2391, 0, 4, 1276}, {2722, 1, 5, 76},
                 {2979, 0, 6, 1},     {3490, 1, 7, 76},   {3821, 1, 8, 76},
                 {4257, 0, 9, 184},   {4588, 1, 10, 76},  {4919, 0, 11, 161},
                 {4919, 1, 12, 796}};
    sc.errors.resize(4);
    const std::vector<uint32_t> b75(4, 75);
    const std::vector<uint32_t> b83(4, 83);
    sc.errors[0].listed = {{890, {66}},
                           {1450, {129, 153, 143, 151}},
                           {2333, {213, 88, 233, 142}},
                           {3977, b75},
                           {4153, {203}},
                           {5370, {90, 141, 143, 175}}};
    sc.errors[1].listed = {{1519, b75}};
    sc.errors[2].listed = {{1519, {75, 75, 83, 83}}, {3575, b83}, {3575, {83, 75, 83, 83}}};
    sc.errors[3].listed = {{2070, b75}, {3575, b83}};
    sc.errors[2].syncLoss = {{3572, 20}, {7164, 20}};
    sc.errors[3].syncLoss = {{3572, 20}, {7164, 20}};
    sc.endSlot = 8907;
    return sc;
}

/**
 * \ingroup rifl-protocol
 * \brief Hand-made scenarios: errors in replays, control frames, FC, sync loss, hazard.
 */
class RiflEquivalenceDirectedTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflEquivalenceDirectedTestCase()
        : TestCase("directed scenarios: replays, control frames, FC, sync loss, duplicate hazard")
    {
    }

  private:
    /**
     * \brief Run one scenario on both engines and compare.
     * \param sc the scenario.
     */
    void Check(const Scenario& sc)
    {
        RiflReferenceEngine ref(sc.config);
        RiflFastEngine fast(sc.config);
        const Outcome a = RunScenario(ref, sc);
        const Outcome b = RunScenario(fast, sc);
        const std::string diff = Compare(a, b);
        NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
        if (!diff.empty())
        {
            std::cerr << "FIRST DIFFERENCE (" << sc.name << "): " << diff << std::endl;
        }
    }

    /**
     * \param lanes lanes.
     * \param frameSize S.
     * \param l line delay.
     * \return a base scenario with steady traffic both ways.
     */
    static Scenario Base(uint32_t lanes, uint32_t frameSize, int64_t l)
    {
        Scenario sc;
        sc.config.lanes = lanes;
        sc.config.frameSize = frameSize;
        sc.config.lineDelaySlots = l;
        sc.config.rxUpSlots = 64;
        sc.errors.resize(2 * lanes);
        uint64_t id = 1;
        for (uint64_t slot = 1500; slot < 9000; slot += 37)
        {
            sc.offers.push_back(Offer{slot, static_cast<uint32_t>(id % 2), id,
                                      static_cast<uint32_t>(200 + 97 * (id % 40))});
            ++id;
        }
        sc.endSlot = 14000;
        return sc;
    }

    void DoRun() override
    {
        // Errors inside a replay: a second error while the first replay runs.
        for (uint32_t lanes : {1u, 4u})
        {
            Scenario sc = Base(lanes, 256, 10);
            sc.name = "error inside a replay, lanes " + std::to_string(lanes);
            sc.errors[0].listed = {{3000, {100}}, {3030, {7}}, {3100, {50, 51}}, {3101, {200}}};
            Check(sc);
        }
        // Errors in both directions at once.
        {
            Scenario sc = Base(4, 512, 8);
            sc.name = "errors both directions";
            sc.errors[0].listed = {{4000, {300}}};
            sc.errors[4].listed = {{4002, {17}}, {4090, {400}}};
            Check(sc);
        }
        // Key bits of control frames (Re-transmit Requests, Idles) and spill from the previous
        // frame's last 33 scrambled bits into the next frame's key: a dense sweep of bit positions.
        for (uint32_t bit : {12u, 20u, 40u, 44u, 45u, 200u, 237u, 238u, 240u, 250u, 254u, 255u})
        {
            Scenario sc = Base(1, 256, 6);
            sc.name = "control-frame errors, bit " + std::to_string(bit);
            // B -> A errors during A's Send Retrans / replay phase.
            sc.errors[0].listed = {{3000, {99}}};
            for (uint64_t k = 3020; k < 3200; k += 3)
            {
                sc.errors[1].listed.push_back({k, {bit}});
            }
            Check(sc);
        }
        // Slow drain: flow control on and off, corrupted FC notifications.
        for (uint32_t lanes : {1u, 4u})
        {
            Scenario sc = Base(lanes, 256, 12);
            sc.config.drainFramesPerSlot = 0.3;
            sc.name = "slow drain, FC, lanes " + std::to_string(lanes);
            for (uint64_t k = 2000; k < 9000; k += 211)
            {
                sc.errors[lanes + 0].listed.push_back({k, {static_cast<uint32_t>(k % 256)}});
            }
            Check(sc);
        }
        // Sync loss: single slot, short, and long (alignment lost, RX down, pause).
        for (uint64_t dur : {1u, 2u, 5u, 400u})
        {
            Scenario sc = Base(4, 256, 9);
            sc.name = "sync loss of " + std::to_string(dur) + " slots";
            sc.errors[1].syncLoss = {{3500, dur}};
            sc.errors[4].syncLoss = {{6000, dur}};
            sc.errors[2].listed = {{3500, {255}}, {3501, {3}}};
            Check(sc);
        }
        // Long link: the duplicate hazard of the RTL tail, and the corrected tail.
        for (auto tail : {RiflReplayTail::RTL, RiflReplayTail::CORRECTED})
        {
            Scenario sc = Base(1, 256, 45);
            sc.config.replayTail = tail;
            sc.name
                = std::string("long link, tail ") + (tail == RiflReplayTail::RTL ? "RTL" : "COR");
            sc.errors[0].ber = 2e-5;
            sc.errors[1].ber = 2e-5;
            sc.seed = 77;
            Check(sc);
        }
        // Clock offsets (§6.1): compensation on and off, with slow drain, errors and
        // sync loss, on both sides of the link.
        for (uint32_t k = 0; k < 4; ++k)
        {
            Scenario sc = Base(k % 2 == 0 ? 1 : 4, 256, 9);
            sc.config.clockOffsetPpm = {k < 2 ? 900.0 : -650.5, k < 2 ? -900.0 : 120.0};
            sc.config.clockCompensation = {k != 1, k != 3};
            sc.config.drainFramesPerSlot = k == 2 ? 0.5 : (k == 3 ? 4.0 : 0.0);
            sc.name = "clock offset " + std::to_string(k);
            sc.errors[0].listed = {{3000, {100}}, {5003, {7, 9}}};
            sc.errors[1].syncLoss = {{7000, 3}};
            Check(sc);
        }
        // Lane skew with errors inside replays, slow drain and a large skew (FC).
        for (uint32_t k = 0; k < 3; ++k)
        {
            Scenario sc = Base(4, 256, 10);
            sc.config.laneSkewSlots = k == 2 ? std::vector<uint32_t>{0, 100, 0, 0}
                                             : std::vector<uint32_t>{0, 4, 0, 9 * k};
            sc.config.drainFramesPerSlot = k == 1 ? 1.5 : 0.0;
            sc.name = "lane skew " + std::to_string(k);
            sc.errors[1].listed = {{3000, {100}}, {3040, {7}}};
            sc.errors[7].listed = {{4500, {33}}};
            sc.errors[3].syncLoss = {{6000, 4}};
            Check(sc);
        }
        // A receiver lane left behind, then steady traffic (LaneBehindScenario()).
        {
            const Scenario sc = LaneBehindScenario();
            Check(sc);
            RiflReferenceEngine ref(sc.config);
            const Outcome a = RunScenario(ref, sc);
            NS_TEST_EXPECT_MSG_EQ(a.counters[0].resyncsAhead, 1, sc.name << ": resyncs ahead");
            NS_TEST_EXPECT_MSG_EQ(a.counters[0].outOfOrderDeliveries,
                                  2,
                                  sc.name << ": lane 1 at once, lane 0 at packet 6");
        }
        // Idle link with rare errors only (run mode up to the errors).
        {
            Scenario sc;
            sc.config.lanes = 4;
            sc.config.rxUpSlots = 64;
            sc.config.lineDelaySlots = 11;
            sc.errors.resize(8);
            sc.errors[3].listed = {{50000, {1}}, {120001, {250}}};
            sc.errors[6].syncLoss = {{90000, 3}};
            sc.offers = {{70000, 0, 1, 3000}, {70010, 1, 2, 9000}};
            sc.endSlot = 200000;
            sc.name = "idle link, rare errors";
            Check(sc);
        }
    }
};

/**
 * \ingroup rifl-protocol
 * \brief The tracked scrambler state equals a real continuous scrambler (self-check mode).
 */
class RiflFastEngineSelfCheckTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflFastEngineSelfCheckTestCase()
        : TestCase("fast engine: tracked scrambler states equal real scramblers")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t s : {3u, 4u})
        {
            const Scenario sc = RandomScenario(s, false);
            RiflFastEngine fast(sc.config);
            fast.SetSelfCheck(true); // aborts on a mismatch
            RunScenario(fast, sc);
            NS_TEST_EXPECT_MSG_EQ(fast.GetJumpedSlots(), fast.GetLoadedJumpedSlots(),
                                  "self-check mode never makes quiescent jumps");
        }
        // Loaded jumps: every frame they put on the line is checked too.
        for (uint32_t lanes : {1u, 4u})
        {
            const Scenario sc = SaturatedScenario(lanes, 256, true, 1e-6, 0.0, 30000, 7);
            RiflFastEngine fast(sc.config);
            fast.SetSelfCheck(true);
            RunScenario(fast, sc, true);
            NS_TEST_EXPECT_MSG_GT(fast.GetLoadedJumpedSlots(), 10000, "loaded jumps checked");
        }
    }
};

/**
 * \ingroup rifl-protocol
 * \brief The fast engine's batched loaded mode (records per packet run, lane
 *        structures built when the batch ends) against its per-frame loaded
 *        jumps, which it uses when TX scrambler states are tracked: an empty
 *        sync-loss process on every stream forces them. Same inputs, same
 *        errors, identical callbacks and counters; and each mode really ran.
 */
class RiflBatchedModeTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflBatchedModeTestCase()
        : TestCase("fast engine: batched loaded mode equals per-frame loaded jumps")
    {
    }

  private:
    /**
     * \brief Run one scenario both ways and compare.
     * \param sc the scenario (its sync-loss events are dropped).
     * \param byEvents drive the engines as the ns-3 channel does.
     * \param batched accumulates the batched slots of the plain run.
     */
    void RunBoth(Scenario sc, bool byEvents, uint64_t* batched)
    {
        for (ErrorSpec& e : sc.errors)
        {
            e.syncLoss.clear();
        }
        RiflFastEngine plain(sc.config);
        RiflFastEngine perFrame(sc.config);
        for (uint32_t s = 0; s < 2; ++s)
        {
            for (uint32_t l = 0; l < sc.config.lanes; ++l)
            {
                perFrame.SetSyncLossProcess(s, l, CreateObject<SyncLossProcess>());
            }
        }
        const Outcome a = RunScenario(plain, sc, byEvents);
        const Outcome b = RunScenario(perFrame, sc, byEvents);
        const std::string diff = Compare(a, b);
        NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
        if (!diff.empty())
        {
            std::cerr << "FIRST DIFFERENCE (" << sc.name << "): " << diff << std::endl;
        }
        NS_TEST_EXPECT_MSG_EQ(perFrame.GetBatchedSlots(), 0, "tracked states: no batched mode");
        *batched += plain.GetBatchedSlots();
    }

    void DoRun() override
    {
        uint64_t batched = 0;
        for (uint32_t seed = 2000; seed < 2080; ++seed)
        {
            RunBoth(RandomScenario(seed, false), seed % 2 == 1, &batched);
        }
        for (uint32_t lanes : {1u, 4u})
        {
            for (double ber : {0.0, 1e-6})
            {
                RunBoth(SaturatedScenario(lanes, 256, true, ber, 0.0, 30000, 11), true, &batched);
                RunBoth(SaturatedScenario(lanes, 512, false, ber, ber, 30000, 12), false, &batched);
            }
        }
        NS_TEST_EXPECT_MSG_GT(batched, 100000, "the batched mode carried a real share of slots");
        std::cout << GetName() << ": " << batched << " slots batched" << std::endl;
    }
};

/**
 * \ingroup rifl-protocol
 * \brief Speed of both engines (printed, not asserted).
 */
class RiflEquivalenceSpeedTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param ber BER both directions (0 = clean).
     * \param slots slots to run.
     */
    RiflEquivalenceSpeedTestCase(double ber, uint64_t slots)
        : TestCase(Name(ber, slots))
        , m_ber(ber)
        , m_slots(slots)
    {
    }

  private:
    /**
     * \param ber the BER.
     * \param slots the slots.
     * \return the test name.
     */
    static std::string Name(double ber, uint64_t slots)
    {
        std::ostringstream os;
        os << "speed, 4 lanes, sparse traffic, BER " << ber << ", " << slots << " slots";
        return os.str();
    }

    void DoRun() override
    {
        Scenario sc;
        sc.config.lanes = 4;
        sc.config.rxUpSlots = 64;
        sc.config.lineDelaySlots = 11;
        sc.errors.resize(8);
        for (auto& e : sc.errors)
        {
            e.ber = m_ber;
        }
        uint64_t id = 1;
        for (uint64_t slot = 2000; slot + 5000 < m_slots; slot += 20000)
        {
            sc.offers.push_back(Offer{slot, static_cast<uint32_t>(id % 2), id, 1500});
            ++id;
        }
        sc.endSlot = m_slots;
        sc.name = "speed";
        RiflReferenceEngine ref(sc.config);
        RiflFastEngine fast(sc.config);
        const Outcome a = RunScenario(ref, sc);
        const Outcome b = RunScenario(fast, sc);
        const std::string diff = Compare(a, b);
        NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
        std::cout << "SPEED ber " << m_ber << " slots " << m_slots << ": reference " << a.seconds
                  << " s (" << m_slots / a.seconds << " slots/s), fast " << b.seconds << " s ("
                  << m_slots / b.seconds << " slots/s), ratio " << a.seconds / b.seconds
                  << "; fast stepped " << fast.GetSteppedSlots() << " jumped "
                  << fast.GetJumpedSlots() << " materialised " << fast.GetMaterialisedFrames()
                  << std::endl;
    }

    double m_ber;     //!< BER
    uint64_t m_slots; //!< slots
};

/**
 * \ingroup rifl-protocol
 * \brief Saturated traffic: loaded run mode, driven as the channel drives it.
 */
class RiflEquivalenceSaturatedTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param slots slots per scenario.
     */
    explicit RiflEquivalenceSaturatedTestCase(uint64_t slots)
        : TestCase("saturated traffic, loaded run mode, " + std::to_string(slots) + " slots")
        , m_slots(slots)
    {
    }

  private:
    void DoRun() override
    {
        uint32_t seed = 500;
        for (uint32_t lanes : {1u, 4u})
        {
            for (uint32_t frameSize : {256u, 512u})
            {
                for (bool mixed : {true, false})
                {
                    for (double ber : {0.0, 1e-7, 1e-6})
                    {
                        const bool slow = ber == 1e-6 && !mixed;
                        Scenario sc = SaturatedScenario(lanes, frameSize, mixed, ber,
                                                        slow ? 0.7 : 0.0, m_slots, ++seed);
                        if (ber == 0.0)
                        {
                            // Clock offsets: skip slots interrupt the loaded jumps.
                            sc.config.clockOffsetPpm = {mixed ? 300.0 : -450.0, 0.0};
                            sc.config.clockCompensation = {true, !mixed};
                            sc.name += " ppm";
                        }
                        if (ber == 1e-7)
                        {
                            // Short losses of sync: their zeros expose the absolute
                            // scrambler states the loaded jumps track.
                            sc.errors[0].syncLoss = {{m_slots / 3, 2}};
                            sc.errors[lanes].syncLoss = {{m_slots / 2, 1}};
                            sc.name += " sync loss";
                        }
                        Check(sc);
                    }
                }
            }
        }
        // the recoveries of the 4-lane 1e-6 scenarios leave lanes out (sparse stepping; the
        // 1e-7 ones have sync-loss processes, which track the scrambler and turn it off)
        NS_TEST_EXPECT_MSG_GT(m_dormant, 1000, "sparse stepping checked");
        std::cout << GetName() << ": reference " << m_refSeconds << " s, fast " << m_fastSeconds
                  << " s, speed-up " << m_refSeconds / m_fastSeconds << ", " << m_dormant
                  << " lane-slots left out by sparse stepping" << std::endl;
    }

    /**
     * \brief Run one scenario on both engines (the fast one event-driven) and compare.
     * \param sc the scenario.
     */
    void Check(const Scenario& sc)
    {
        RiflReferenceEngine ref(sc.config);
        RiflFastEngine fast(sc.config);
        const Outcome a = RunScenario(ref, sc);
        const Outcome b = RunScenario(fast, sc, true);
        m_refSeconds += a.seconds;
        m_fastSeconds += b.seconds;
        const std::string diff = Compare(a, b);
        NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
        if (!diff.empty())
        {
            std::cerr << "FIRST DIFFERENCE (" << sc.name << "): " << diff << std::endl;
        }
        // Again with the offers deferred and woken as RiflChannel wakes the engine (longer
        // AdvanceTo() strides through the recoveries: sparse stepping).
        RiflFastEngine deferred(sc.config);
        const Outcome c = RunScenario(deferred, sc, true, nullptr, true);
        m_dormant += deferred.GetDormantLaneSlots();
        const std::string diffDeferred = Compare(a, c);
        NS_TEST_EXPECT_MSG_EQ(diffDeferred, "", sc.name << ", offers deferred");
        if (!diffDeferred.empty())
        {
            std::cerr << "FIRST DIFFERENCE (" << sc.name << ", offers deferred): " << diffDeferred
                      << std::endl;
        }
        NS_TEST_EXPECT_MSG_GT(a.deliveries.size(), 10, sc.name << ": traffic flows");
    }

    uint64_t m_slots;          //!< slots per scenario
    double m_refSeconds{0.0};  //!< reference wall time
    double m_fastSeconds{0.0}; //!< fast engine wall time
    uint64_t m_dormant{0};     //!< lane-slots left out by sparse stepping
};

/**
 * \ingroup rifl-protocol
 * \brief Speed of both engines with saturated traffic (printed, not asserted).
 */
class RiflEquivalenceSaturatedSpeedTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param ber BER both directions (0 = clean).
     * \param slots slots to run.
     */
    RiflEquivalenceSaturatedSpeedTestCase(double ber, uint64_t slots)
        : TestCase(Name(ber, slots))
        , m_ber(ber)
        , m_slots(slots)
    {
    }

  private:
    /**
     * \param ber the BER.
     * \param slots the slots.
     * \return the test name.
     */
    static std::string Name(double ber, uint64_t slots)
    {
        std::ostringstream os;
        os << "speed, 4 lanes, saturated 1500 B traffic, BER " << ber << ", " << slots << " slots";
        return os.str();
    }

    void DoRun() override
    {
        const Scenario sc = SaturatedScenario(4, 256, false, m_ber, 0.0, m_slots, 99);
        RiflReferenceEngine ref(sc.config);
        RiflFastEngine fast(sc.config);
        const Outcome a = RunScenario(ref, sc);
        const Outcome b = RunScenario(fast, sc, true);
        const std::string diff = Compare(a, b);
        NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
        std::cout << "SPEED saturated ber " << m_ber << " slots " << m_slots << ": reference "
                  << a.seconds << " s (" << m_slots / a.seconds << " slots/s), fast " << b.seconds
                  << " s (" << m_slots / b.seconds << " slots/s), ratio " << a.seconds / b.seconds
                  << "; fast stepped " << fast.GetSteppedSlots() << " jumped "
                  << fast.GetJumpedSlots() << " (loaded " << fast.GetLoadedJumpedSlots()
                  << "), AdvanceTo calls " << b.advances << ", packets delivered "
                  << b.counters[0].packetsDelivered << "+" << b.counters[1].packetsDelivered
                  << std::endl;
    }

    double m_ber;     //!< BER
    uint64_t m_slots; //!< slots
};

/**
 * \ingroup rifl-protocol
 * \brief Two split-mode RiflReferenceEngine halves (RiflReferenceEngine::SetLocalEndpoint)
 *        behind the RiflLinkEngine interface, as two ns-3 MPI ranks would run a link.
 *
 * Each frame a half puts on the line is relayed to the other half at a random slot
 * boundary between the step after it was made and its due slot (the latest a remote
 * channel may deliver it), in order per lane. With \p lateBy > 0 one frame (the
 * \p lateFrame-th relayed) is relayed \p lateBy slots after its due slot instead, to
 * check that the halves refuse it.
 */
class SplitPair : public RiflLinkEngine
{
  public:
    /**
     * \brief Constructor.
     * \param config the link.
     * \param seed the relay timing seed.
     * \param lateFrame index of the frame to relay late (with lateBy > 0).
     * \param lateBy slots after its due slot (0 = none late).
     */
    SplitPair(const RiflLinkConfig& config, uint32_t seed, uint64_t lateFrame = 0,
              uint64_t lateBy = 0)
        : m_half{RiflReferenceEngine(config), RiflReferenceEngine(config)},
          m_rng(seed),
          m_lateFrame(lateFrame),
          m_lateBy(lateBy)
    {
        for (uint32_t e = 0; e < 2; ++e)
        {
            m_half[e].SetRecordHistory(false);
            m_half[e].SetLocalEndpoint(e);
            m_half[e].SetLineOutCallback(
                [this, e](uint32_t lane, const RiflReferenceEngine::LineFrame& f)
                {
                    Relay(1 - e, lane, f);
                });
        }
    }

    const RiflLinkConfig& GetConfig() const override
    {
        return m_half[0].GetConfig();
    }

    /// the sender's direction is applied by the receiving half
    void SetErrorProcess(uint32_t sender, uint32_t lane, Ptr<BitErrorProcess> process) override
    {
        m_half[1 - sender].SetErrorProcess(sender, lane, process);
    }

    /// the sender's direction is applied by the receiving half
    void SetSyncLossProcess(uint32_t sender, uint32_t lane, Ptr<SyncLossProcess> process) override
    {
        m_half[1 - sender].SetSyncLossProcess(sender, lane, process);
    }

    void OfferPacket(uint32_t endpoint, uint64_t packetId,
                     const std::vector<uint8_t>& payload) override
    {
        m_half[endpoint].OfferPacket(endpoint, packetId, payload);
    }

    void AdvanceTo(uint64_t slot) override
    {
        while (m_half[0].GetSlot() < slot)
        {
            const uint64_t u = m_half[0].GetSlot();
            // relay what is due before slot u runs (each queue is in line order)
            for (auto& q : m_queue)
            {
                while (!q.empty() && q.front().before <= u)
                {
                    m_half[q.front().dst].ReceiveLineFrame(q.front().lane,
                                                           std::move(q.front().frame));
                    q.pop_front();
                }
            }
            m_half[0].Step();
            m_half[1].Step();
        }
    }

    uint64_t GetSlot() const override
    {
        return m_half[0].GetSlot();
    }

    uint64_t NextEventSlot() override
    {
        return GetSlot();
    }

    uint64_t GetPendingPackets(uint32_t endpoint) const override
    {
        return m_half[endpoint].GetPendingPackets(endpoint);
    }

    uint64_t GetHeldPacketEnds(uint32_t endpoint) const override
    {
        return m_half[endpoint].GetHeldPacketEnds(endpoint);
    }

    const RiflEndpointCounters& GetCounters(uint32_t endpoint) const override
    {
        return m_half[endpoint].GetCounters(endpoint);
    }

    void SetDeliveryCallback(DeliveryCallback cb) override
    {
        m_half[0].SetDeliveryCallback(cb);
        m_half[1].SetDeliveryCallback(cb);
    }

    void SetEventCallback(EventCallback cb) override
    {
        m_half[0].SetEventCallback(cb);
        m_half[1].SetEventCallback(cb);
    }

  private:
    /// A frame on its way to a half.
    struct InFlight
    {
        uint64_t before;                       //!< relay before this slot runs
        uint32_t dst;                          //!< receiving half
        uint32_t lane;                         //!< lane
        RiflReferenceEngine::LineFrame frame; //!< the frame
    };

    /**
     * \brief Queue a frame for the other half.
     * \param dst the receiving half.
     * \param lane the lane.
     * \param f the frame (made in the slot running now).
     */
    void Relay(uint32_t dst, uint32_t lane, const RiflReferenceEngine::LineFrame& f)
    {
        const uint64_t now = m_half[1 - dst].GetSlot();
        const uint64_t due = m_half[dst].GetLineFrameDueSlot(lane, f.lineSlot);
        auto& q = m_queue[dst * 16 + lane];
        uint64_t before = now + 1 + m_rng() % (due - now);
        before = std::max(before, q.empty() ? 0 : q.back().before);
        if (m_lateBy > 0 && m_relayed++ == m_lateFrame)
        {
            before = due + m_lateBy;
        }
        // through the wire format a remote channel uses (EncodeLineFrame / DecodeLineFrame)
        const std::vector<uint8_t> bytes = m_half[1 - dst].EncodeLineFrame(lane, f);
        uint32_t decodedLane = 99;
        RiflReferenceEngine::LineFrame g =
            m_half[dst].DecodeLineFrame(bytes.data(), bytes.size(), decodedLane);
        if (decodedLane != lane || g.lineSlot != f.lineSlot || g.bits != f.bits
            || !(g.frame == f.frame) || g.tag.packetId != f.tag.packetId
            || g.tag.laneSeq != f.tag.laneSeq || g.tag.fcSeq != f.tag.fcSeq)
        {
            throw std::logic_error("line frame changed by EncodeLineFrame / DecodeLineFrame");
        }
        q.push_back(InFlight{before, dst, lane, std::move(g)});
    }

    std::array<RiflReferenceEngine, 2> m_half;     //!< the two halves
    std::array<std::deque<InFlight>, 32> m_queue; //!< per (dst, lane), in line order
    std::mt19937_64 m_rng;                         //!< relay timing
    uint64_t m_relayed{0};                         //!< frames relayed
    uint64_t m_lateFrame;                          //!< the frame to relay late
    uint64_t m_lateBy;                             //!< how late
};

/**
 * \brief Order an outcome's deliveries and events by (slot, endpoint), keeping the order
 *        within each: how a two-sided engine's callbacks compare to two halves'.
 * \param o the outcome.
 * \return the ordered outcome.
 */
Outcome
ByEndpoint(Outcome o)
{
    std::stable_sort(o.deliveries.begin(), o.deliveries.end(),
                     [](const RiflDelivery& a, const RiflDelivery& b)
                     {
                         return std::tie(a.slot, a.endpoint) < std::tie(b.slot, b.endpoint);
                     });
    std::stable_sort(o.events.begin(), o.events.end(),
                     [](const RiflLinkEvent& a, const RiflLinkEvent& b)
                     {
                         return std::tie(a.slot, a.endpoint) < std::tie(b.slot, b.endpoint);
                     });
    return o;
}

/**
 * \ingroup rifl-protocol
 * \brief Split mode: two RiflReferenceEngine halves connected by a relay that delivers
 *        every line frame at a random time before its due slot give, per endpoint, the
 *        deliveries, events and counters of the two-sided engine (random scenarios:
 *        errors, sync loss, FC, ppm offsets with and without compensation, lane skew);
 *        a frame relayed after its due slot, and a missing one, are refused with a
 *        std::runtime_error naming the lane and the slots.
 */
class RiflSplitEngineTestCase : public TestCase
{
  public:
    /**
     * \brief Constructor.
     * \param first first seed.
     * \param count number of scenarios.
     */
    RiflSplitEngineTestCase(uint32_t first, uint32_t count)
        : TestCase("split halves (as on two MPI ranks) equal the two-sided engine, seeds "
                   + std::to_string(first) + " to " + std::to_string(first + count - 1)),
          m_first(first),
          m_count(count)
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t s = m_first; s < m_first + m_count; ++s)
        {
            const Scenario sc = RandomScenario(s, false);
            RiflReferenceEngine ref(sc.config);
            SplitPair split(sc.config, s);
            const Outcome a = ByEndpoint(RunScenario(ref, sc));
            const Outcome b = RunScenario(split, sc);
            const std::string diff = Compare(a, b);
            NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
            if (!diff.empty())
            {
                std::cerr << "FIRST DIFFERENCE (split, " << sc.name << "): " << diff << std::endl;
            }
        }
        // A frame relayed one slot after its due slot, and one never relayed (relayed far
        // later than the run): both refused, naming the lane and the slot.
        const Scenario sc = RandomScenario(m_first, false);
        for (const uint64_t lateBy : {uint64_t{1}, uint64_t{1} << 40})
        {
            SplitPair late(sc.config, m_first, 100, lateBy);
            std::string what;
            try
            {
                RunScenario(late, sc);
            }
            catch (const std::runtime_error& e)
            {
                what = e.what();
            }
            const bool named = what.find("lane ") != std::string::npos
                               && what.find("line slot") != std::string::npos
                               && what.find("lookahead") != std::string::npos;
            NS_TEST_EXPECT_MSG_EQ(named, true,
                                  "late by " << lateBy << ": error \"" << what << "\"");
        }
        // Malformed wire bytes are refused, naming the field.
        {
            RiflReferenceEngine e(sc.config);
            RiflReferenceEngine::LineFrame f;
            f.lineSlot = 7;
            f.bits = BitBlock(sc.config.frameSize);
            f.frame = RiflFrame::MakeIdle(sc.config.frameSize);
            const std::vector<uint8_t> good = e.EncodeLineFrame(0, f);
            uint32_t lane = 0;
            NS_TEST_EXPECT_MSG_EQ(e.DecodeLineFrame(good.data(), good.size(), lane).lineSlot, 7u,
                                  "round trip");
            struct Bad
            {
                std::vector<uint8_t> bytes; //!< the input
                const char* name;           //!< what the error must name
            };
            std::vector<Bad> bad;
            bad.push_back({std::vector<uint8_t>(good.begin(), good.begin() + 20), "line bits"});
            bad.push_back({std::vector<uint8_t>(good.begin(), good.end() - 3), "tag.fcSeq"});
            bad.push_back({good, "version"});
            bad.back().bytes[0] = 9;
            bad.push_back({good, "lane"});
            bad.back().bytes[1] = static_cast<uint8_t>(sc.config.lanes);
            bad.push_back({good, "after the frame"});
            bad.back().bytes.push_back(0);
            bad.push_back({good, "not one a sender makes"});
            bad.back().bytes[10 + sc.config.frameSize / 8] = 5; // kind
            bad.push_back({{}, "version"});
            for (const Bad& b : bad)
            {
                std::string what;
                try
                {
                    e.DecodeLineFrame(b.bytes.data(), b.bytes.size(), lane);
                }
                catch (const std::invalid_argument& ex)
                {
                    what = ex.what();
                }
                NS_TEST_EXPECT_MSG_EQ((what.find(b.name) != std::string::npos), true,
                                      "malformed line frame: \"" << what << "\" names " << b.name);
            }
        }
        // Split-mode misuse is refused.
        RiflReferenceEngine half(sc.config);
        half.SetLocalEndpoint(1);
        bool threw = false;
        try
        {
            half.OfferPacket(0, 1, std::vector<uint8_t>(10, 1));
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "offer at the remote endpoint");
        threw = false;
        try
        {
            half.Step(); // no LineOutCallback
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "split mode without a LineOutCallback");
    }

    uint32_t m_first; //!< first seed
    uint32_t m_count; //!< scenarios
};

/**
 * \ingroup rifl-protocol
 * \brief Start-up templates (RiflFastEngine::SetStartupTemplates()) change no result:
 *        random scenarios with templates on and off give identical deliveries, events
 *        and counters, whether the first packet comes after the start-up (the template
 *        is taken) or during it (the start-up is then run slot by slot without
 *        repeating the events already emitted); counters and lane states read during
 *        the start-up are those of a run without templates.
 */
class RiflStartupTemplateTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflStartupTemplateTestCase()
        : TestCase("fast engine: start-up templates change no result")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t used = 0;
        for (uint32_t seed = 1; seed <= 40; ++seed)
        {
            const Scenario sc = RandomScenario(seed, false);
            for (const bool early : {false, true})
            {
                Scenario x = sc;
                if (early && !x.offers.empty())
                {
                    // halfway through the start-up (the template's length, from an
                    // engine without input)
                    RiflFastEngine probe(x.config);
                    probe.AdvanceTo(uint64_t{1} << 22);
                    const uint64_t half = probe.GetTemplatedSlots() / 2;
                    NS_TEST_ASSERT_MSG_GT(half, 0u, x.name << ": a template");
                    x.offers.front().slot = half;
                    x.name += ", first packet at slot " + std::to_string(half);
                }
                RiflFastEngine on(x.config);
                RiflFastEngine off(x.config);
                off.SetStartupTemplates(false);
                const Outcome a = RunScenario(off, x, seed % 2 == 1);
                const Outcome b = RunScenario(on, x, seed % 2 == 1);
                NS_TEST_EXPECT_MSG_EQ(Compare(a, b), "", x.name);
                NS_TEST_EXPECT_MSG_EQ(off.GetTemplatedSlots(), 0u, x.name);
                if (early)
                {
                    NS_TEST_EXPECT_MSG_EQ(on.GetTemplatedSlots(), 0u, x.name << ": run slot by slot");
                }
                used += !early && on.GetTemplatedSlots() > 0 ? 1 : 0;
            }
        }
        NS_TEST_EXPECT_MSG_GT(used, 20u, "scenarios that took a start-up template");

        // Advanced as the channel does, read or not during the start-up.
        RiflLinkConfig c;
        c.startup = RiflStartup::SHORT;
        for (const bool readEarly : {false, true})
        {
            RiflFastEngine on(c);
            RiflFastEngine off(c);
            off.SetStartupTemplates(false);
            Outcome a;
            Outcome b;
            off.SetEventCallback(
                [&a](const RiflLinkEvent& ev)
                {
                    a.events.push_back(ev);
                });
            on.SetEventCallback(
                [&b](const RiflLinkEvent& ev)
                {
                    b.events.push_back(ev);
                });
            uint64_t promised = 0;
            if (readEarly)
            {
                // between the template's events (slots 89, 1048, 1058 here)
                AdvanceByEvents(off, 1050, promised, a);
                AdvanceByEvents(on, 1050, promised, b);
                NS_TEST_EXPECT_MSG_EQ(on.GetSlot(), 1050u, "slot");
                for (uint32_t ep = 0; ep < 2; ++ep)
                {
                    a.counters[ep] = off.GetCounters(ep);
                    b.counters[ep] = on.GetCounters(ep);
                    for (uint32_t l = 0; l < c.lanes; ++l)
                    {
                        NS_TEST_EXPECT_MSG_EQ(
                            static_cast<int>(on.GetLaneState(ep, l).GetTxState()),
                            static_cast<int>(off.GetLaneState(ep, l).GetTxState()),
                            "TX state at slot 1050");
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(Compare(a, b), "", "read at slot 1050");
                // Run again once read: stepped, but for the RX-up wait (slots 90 to
                // 1047 here; 1048, where the lanes come up, is stepped), which is jumped.
                NS_TEST_EXPECT_MSG_EQ(on.GetSteppedSlots(), 92u, "run again once read");
                NS_TEST_EXPECT_MSG_EQ(on.GetPauseWaitJumpedSlots(), 958u, "RX-up wait jumped");
            }
            AdvanceByEvents(off, 20000, promised, a);
            AdvanceByEvents(on, 20000, promised, b);
            for (uint32_t ep = 0; ep < 2; ++ep)
            {
                a.counters[ep] = off.GetCounters(ep);
                b.counters[ep] = on.GetCounters(ep);
            }
            NS_TEST_EXPECT_MSG_EQ(Compare(a, b), "", "read early = " << readEarly);
            NS_TEST_EXPECT_MSG_GT(a.events.size(), 0u, "the start-up has events");
            NS_TEST_EXPECT_MSG_EQ((on.GetTemplatedSlots() > 0), !readEarly, "template taken");
            if (!readEarly)
            {
                NS_TEST_EXPECT_MSG_EQ(on.GetSteppedSlots(), 0u, "no slot stepped");
                NS_TEST_EXPECT_MSG_LT(b.advances * 20, a.advances, "far fewer wake-ups");
            }
        }
    }
};

/**
 * \ingroup rifl-protocol
 * \brief The fast engine without jumps (RiflFastEngine::SetJumps(false), every slot
 *        stepped) gives the deliveries, events (in order) and counters of the fast
 *        engine with them, on random scenarios and on a receiver lane left behind
 *        (LaneBehindScenario()), driven both ways; and it really steps every slot.
 */
class RiflJumpsOffTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflJumpsOffTestCase()
        : TestCase("fast engine: jumps change no result; without them every slot is stepped")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<Scenario> scenarios{LaneBehindScenario()};
        for (uint32_t seed = 1; seed <= 24; ++seed)
        {
            scenarios.push_back(RandomScenario(seed, false));
        }
        uint64_t jumped = 0;
        for (std::size_t k = 0; k < scenarios.size(); ++k)
        {
            const Scenario& sc = scenarios[k];
            RiflFastEngine on(sc.config);
            RiflFastEngine off(sc.config);
            off.SetJumps(false);
            const Outcome a = RunScenario(off, sc, false);
            const Outcome b = RunScenario(on, sc, k % 2 == 0);
            NS_TEST_EXPECT_MSG_EQ(Compare(a, b), "", sc.name);
            NS_TEST_EXPECT_MSG_EQ(off.GetSteppedSlots(), sc.endSlot, sc.name << ": all stepped");
            NS_TEST_EXPECT_MSG_EQ(off.GetJumpedSlots() + off.GetLoadedJumpedSlots()
                                      + off.GetTemplatedSlots(),
                                  0u,
                                  sc.name << ": nothing jumped");
            jumped += on.GetJumpedSlots() + on.GetLoadedJumpedSlots() + on.GetTemplatedSlots();
        }
        NS_TEST_EXPECT_MSG_GT(jumped, 100000u, "slots jumped with jumps on");

        // Only before the first slot.
        RiflFastEngine late(scenarios[0].config);
        late.AdvanceTo(10);
        bool threw = false;
        try
        {
            late.SetJumps(false);
        }
        catch (const std::invalid_argument& e)
        {
            threw = std::string(e.what()).find("SetJumps at slot 10") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "SetJumps after the first slot is refused");
    }
};

/**
 * \ingroup rifl-protocol
 * \brief The RX-up wait jumped (RiflFastEngine::PauseWaitJump()) gives the reference
 *        engine's deliveries, events and counters, and those of every slot stepped:
 *        packets queued during the wait, lane skew, a slow drain, clock offsets with and
 *        without compensation (skip slots leave gaps on the line), errors in the wait,
 *        one and four lanes; and it covers most of a long wait.
 */
class RiflPauseWaitJumpTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflPauseWaitJumpTestCase()
        : TestCase("fast engine: RX-up waits jumped equal the reference and stepping")
    {
    }

  private:
    /**
     * \param name the scenario's name.
     * \param lanes lanes.
     * \param frameSize S.
     * \return a link with a 3000-slot RX-up wait and packets offered both ways from
     *         slot 200 on (queued until the link is up).
     */
    static Scenario Wait(const std::string& name, uint32_t lanes, uint32_t frameSize)
    {
        Scenario sc;
        sc.name = name;
        sc.config.lanes = lanes;
        sc.config.frameSize = frameSize;
        sc.config.rxUpSlots = 3000;
        sc.errors.resize(2 * lanes);
        uint64_t id = 1;
        for (uint64_t slot = 200; slot < 6000; slot += 211)
        {
            sc.offers.push_back(Offer{slot, static_cast<uint32_t>(id % 2), id,
                                      static_cast<uint32_t>(1 + (id * 397) % 3000)});
            ++id;
        }
        sc.endSlot = 9000;
        return sc;
    }

    void DoRun() override
    {
        std::vector<Scenario> scenarios;
        scenarios.push_back(Wait("clean wait, 4 lanes", 4, 256));
        scenarios.push_back(Wait("clean wait, 1 lane, S = 512", 1, 512));
        Scenario skew = Wait("skew, slow drain, +1000 ppm compensated", 4, 256);
        skew.config.laneSkewSlots = {0, 3, 7, 1};
        skew.config.endpointDrainRate = {0.5, -1.0};
        skew.config.clockOffsetPpm = {1000.0, 0.0};
        scenarios.push_back(skew);
        Scenario uncompensated = Wait("-700 ppm, no compensation", 4, 256);
        uncompensated.config.clockOffsetPpm = {0.0, -700.0};
        uncompensated.config.clockCompensation = {false, false};
        scenarios.push_back(uncompensated);
        Scenario errors = Wait("errors in the wait", 4, 256);
        errors.errors[1].listed = {{900, {3}}, {2500, {40, 41}}};
        errors.errors[6].listed = {{1700, {1, 2, 3, 4}}};
        errors.errors[2].ber = 2e-6;
        scenarios.push_back(errors);
        // Two illegal headers 8 frames apart lose the lock when they fall in one
        // 16-frame aligner window: one pair per offset, so that the window's phase after
        // a jump decides the outcome of some of them.
        uint64_t losses = 0;
        for (uint32_t k = 0; k < 16; ++k)
        {
            Scenario bad = Wait("illegal headers at +" + std::to_string(k), 4, 256);
            const std::vector<uint32_t> syncBit{255}; // a Syncword bit: 10 -> 00
            bad.errors[6].listed = {{1200 + k, syncBit}, {1208 + k, syncBit}};
            scenarios.push_back(bad);
        }
        for (const Scenario& sc : scenarios)
        {
            RiflReferenceEngine ref(sc.config);
            RiflFastEngine on(sc.config);
            RiflFastEngine own(sc.config); // driven by its events, no start-up template
            RiflFastEngine off(sc.config);
            own.SetStartupTemplates(false);
            off.SetStartupTemplates(false);
            off.SetJumps(false);
            const Outcome r = RunScenario(ref, sc);
            const Outcome a = RunScenario(off, sc);
            const Outcome b = RunScenario(own, sc, true);
            const Outcome c = RunScenario(on, sc);
            NS_TEST_EXPECT_MSG_EQ(Compare(r, a), "", sc.name << ": reference / stepped");
            NS_TEST_EXPECT_MSG_EQ(Compare(a, b), "", sc.name << ": stepped / jumped");
            NS_TEST_EXPECT_MSG_EQ(Compare(a, c), "", sc.name << ": stepped / template");
            losses += a.counters[0].alignmentLosses;
            NS_TEST_EXPECT_MSG_GT(a.deliveries.size(), 20u, sc.name << ": packets delivered");
            NS_TEST_EXPECT_MSG_GT(a.counters[0].userStallSlots, 2000u,
                                  sc.name << ": packets queued in the wait");
            NS_TEST_EXPECT_MSG_EQ(off.GetPauseWaitJumpedSlots(), 0u, sc.name);
            // The wait is 3000 slots; the first ~110 (buffer fill, alignment, the
            // Pause counter) and the slots around errors and skip slots are stepped.
            NS_TEST_EXPECT_MSG_GT(own.GetPauseWaitJumpedSlots(), 2000u,
                                  sc.name << ": most of the wait jumped");
        }
        NS_TEST_EXPECT_MSG_EQ(losses, 8u, "pairs of illegal headers in one window");

        // NextEventSlot() promises the slots a wait can jump (nothing is called back in
        // them), so a channel waking at its promise takes them in one jump.
        RiflFastEngine e(scenarios[0].config);
        e.SetStartupTemplates(false);
        e.AdvanceTo(200);
        const uint64_t before = e.GetPauseWaitJumpedSlots();
        const uint64_t next = e.NextEventSlot();
        NS_TEST_EXPECT_MSG_GT(next, 2500u, "promised through most of the wait");
        e.AdvanceTo(next + 1);
        NS_TEST_EXPECT_MSG_EQ(e.GetPauseWaitJumpedSlots() - before, next - 200, "one jump");
    }
};

/**
 * \ingroup rifl-protocol
 * \brief Sparse stepping (RiflFastEngine): the lane states, buffers and counters after
 *        every short AdvanceTo() stride equal those of an engine that steps every slot,
 *        on recoveries with lane skew, three lanes, a slow drain and a clock offset, and
 *        a callback that calls the engine is refused (by the reference engine too).
 */
class RiflSparseSteppingTestCase : public TestCase
{
  public:
    RiflSparseSteppingTestCase()
        : TestCase("Sparse stepping: lane states, buffers and counters equal stepping every "
                   "slot after each short stride; callbacks may not call the engine")
    {
    }

  private:
    /**
     * \param a an engine.
     * \param b another.
     * \param lanes the lanes.
     * \param d D.
     * \return the first difference of their lane states and buffer tags, or "".
     */
    static std::string LaneDiff(const RiflFastEngine& a, const RiflFastEngine& b, uint32_t lanes,
                                uint32_t d)
    {
        for (uint32_t ep = 0; ep < 2; ++ep)
        {
            for (uint32_t l = 0; l < lanes; ++l)
            {
                const RiflLaneState& x = a.GetLaneState(ep, l);
                const RiflLaneState& y = b.GetLaneState(ep, l);
                std::ostringstream os;
                os << "endpoint " << ep << " lane " << l << ": ";
                if (x.GetTxState() != y.GetTxState() || x.GetTxFrameId() != y.GetTxFrameId()
                    || x.GetExpectedId() != y.GetExpectedId()
                    || x.GetThreshold() != y.GetThreshold()
                    || x.GetAlignWindowCount() != y.GetAlignWindowCount()
                    || x.GetRegularCount() != y.GetRegularCount()
                    || x.GetResumeWait() != y.GetResumeWait()
                    || x.GetReplayCounter() != y.GetReplayCounter()
                    || x.GetFrameError() != y.GetFrameError())
                {
                    return os.str() + "state differs";
                }
                for (uint32_t age = 0; age < d; ++age)
                {
                    const RiflFrameTag& t = x.GetBufferEntry(age).tag;
                    const RiflFrameTag& u = y.GetBufferEntry(age).tag;
                    if (t.user != u.user || t.packetId != u.packetId || t.byteOffset != u.byteOffset
                        || t.laneSeq != u.laneSeq || t.laneEopSeq != u.laneEopSeq
                        || t.fcSeq != u.fcSeq)
                    {
                        os << "buffer entry " << age << " differs";
                        return os.str();
                    }
                }
            }
        }
        for (uint32_t ep = 0; ep < 2; ++ep)
        {
            if (!(a.GetCounters(ep) == b.GetCounters(ep)))
            {
                return "counters of endpoint " + std::to_string(ep) + " differ";
            }
        }
        return "";
    }

    void DoRun() override
    {
        Scenario sc;
        sc.name = "sparse stepping";
        sc.seed = 77;
        RiflLinkConfig& c = sc.config;
        c.lanes = 3;
        c.frameSize = 256;
        c.laneSkewSlots = {0, 9, 23};
        c.endpointDrainRate = {2.4, 0.0}; // A's user side slower than the line (B sends little)
        c.clockOffsetPpm = {800.0, 0.0};
        c.clockCompensation = {true, true};
        c.rxUpSlots = 100; // link up within the run
        const uint32_t lanes = c.lanes;
        sc.errors.resize(2 * lanes);
        // A -> B: a burst on lane 0, then lane 2 soon after lane 0's recovery (its replay
        // sends a buffer refilled by a wake-up), then lane 1; B -> A: lane 1.
        sc.errors[0].listed = {{4000, {17, 90}}, {9000, {5}}};
        sc.errors[2].listed = {{4700, {33}}, {12000, {200}}};
        sc.errors[1].listed = {{15000, {77}}};
        sc.errors[lanes + 1].listed = {{6500, {3}}, {13500, {150}}};
        uint64_t id = 0;
        // A near the line rate (9000 B = 300 frames, 100 slots on 3 lanes), B lighter.
        for (uint64_t slot = 2000; slot < 16000; slot += 110)
        {
            sc.offers.push_back({slot, 0, id++, 9000});
            if (slot % 550 == 0)
            {
                sc.offers.push_back({slot, 1, id++, 1500});
            }
        }
        sc.endSlot = 22000;

        RiflFastEngine on(c);
        RiflFastEngine off(c);
        off.SetJumps(false);
        std::vector<RiflDelivery> dOn;
        std::vector<RiflDelivery> dOff;
        on.SetDeliveryCallback(
            [&dOn](const RiflDelivery& d)
            {
                dOn.push_back(d);
            });
        off.SetDeliveryCallback(
            [&dOff](const RiflDelivery& d)
            {
                dOff.push_back(d);
            });
        AttachErrors(on, sc);
        AttachErrors(off, sc);
        std::mt19937_64 rng(sc.seed);
        std::size_t next = 0;
        std::string diff;
        uint64_t strides = 0;
        const uint32_t depth = c.GetBufferDepth();
        while (on.GetSlot() < sc.endSlot && diff.empty())
        {
            while (next < sc.offers.size() && sc.offers[next].slot <= on.GetSlot())
            {
                const Offer& of = sc.offers[next++];
                std::vector<uint8_t> payload(of.bytes);
                for (std::size_t i = 0; i < payload.size(); ++i)
                {
                    payload[i] = static_cast<uint8_t>(rng());
                }
                on.OfferPacket(of.endpoint, of.id, payload);
                off.OfferPacket(of.endpoint, of.id, payload);
            }
            const uint64_t to = on.GetSlot() + 1 + rng() % 7;
            on.AdvanceTo(to);
            off.AdvanceTo(to);
            ++strides;
            diff = LaneDiff(on, off, lanes, depth);
            if (diff.empty() && dOn.size() != dOff.size())
            {
                diff = "deliveries differ";
            }
            if (!diff.empty())
            {
                diff += " after AdvanceTo(" + std::to_string(to) + ")";
            }
        }
        NS_TEST_EXPECT_MSG_EQ(diff, "", "sparse stepping against every slot stepped");
        NS_TEST_EXPECT_MSG_EQ(dOn.size(), dOff.size(), "deliveries");
        for (std::size_t i = 0; i < std::min(dOn.size(), dOff.size()); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(dOn[i].slot, dOff[i].slot, "delivery " << i << " slot");
            NS_TEST_EXPECT_MSG_EQ(dOn[i].packetId, dOff[i].packetId, "delivery " << i);
            NS_TEST_EXPECT_MSG_EQ((dOn[i].content == dOff[i].content), true, "content " << i);
        }
        NS_TEST_EXPECT_MSG_GT(dOn.size(), 20u, "traffic delivered");
        NS_TEST_EXPECT_MSG_GT(on.GetCounters(0).replays + on.GetCounters(1).replays, 4u,
                              "recoveries");
        NS_TEST_EXPECT_MSG_GT(on.GetDormantLaneSlots(), 1000u, "sparse stepping ran");
        std::cout << GetName() << ": " << strides << " strides, " << on.GetDormantLaneSlots()
                  << " lane-slots left out, " << dOn.size() << " deliveries" << std::endl;

        // A delivery callback that offers a packet is refused, naming the call.
        RiflFastEngine e(c);
        std::string what;
        e.SetDeliveryCallback(
            [&e](const RiflDelivery&)
            {
                e.OfferPacket(0, 999, std::vector<uint8_t>(10, 1));
            });
        e.OfferPacket(1, 1, std::vector<uint8_t>(100, 2));
        try
        {
            e.AdvanceTo(10000);
        }
        catch (const std::invalid_argument& ex)
        {
            what = ex.what();
        }
        NS_TEST_EXPECT_MSG_EQ((what.find("OfferPayload called from a delivery or event callback")
                               != std::string::npos),
                              true, "refused: '" << what << "'");
        e.SetDeliveryCallback(RiflLinkEngine::DeliveryCallback());
        e.AdvanceTo(10001); // usable again once the callback is gone
        NS_TEST_EXPECT_MSG_EQ(e.GetSlot(), 10001u, "runs on");

        // So does the reference engine, for an offer, a step and a lane-state read.
        for (const std::string call : {"OfferPacket", "Step", "GetLaneState"})
        {
            RiflReferenceEngine r(c);
            r.SetDeliveryCallback(
                [&r, &call](const RiflDelivery&)
                {
                    if (call == "OfferPacket")
                    {
                        r.OfferPacket(0, 999, std::vector<uint8_t>(10, 1));
                    }
                    else if (call == "Step")
                    {
                        r.Step();
                    }
                    else
                    {
                        r.GetLaneState(0, 0);
                    }
                });
            r.OfferPacket(1, 1, std::vector<uint8_t>(100, 2));
            std::string refused;
            try
            {
                r.AdvanceTo(10000);
            }
            catch (const std::invalid_argument& ex)
            {
                refused = ex.what();
            }
            NS_TEST_EXPECT_MSG_EQ((refused.find("RiflReferenceEngine::" + call
                                                + " called from a delivery or event callback")
                                   != std::string::npos),
                                  true, "reference refused " << call << ": '" << refused << "'");
            r.SetDeliveryCallback(RiflLinkEngine::DeliveryCallback());
            r.AdvanceTo(10001); // usable again
            NS_TEST_EXPECT_MSG_EQ(r.GetSlot(), 10001u, "reference runs on after " << call);
        }
    }
};

/**
 * \ingroup rifl-protocol
 * \brief Packets offered as ns-3 Packets (RiflPayload, as RiflChannel offers them)
 *        give the same deliveries, events and counters as byte vectors, and their
 *        bytes are read only when a frame or a delivery needs them.
 */
class RiflPacketPayloadTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflPacketPayloadTestCase()
        : TestCase("packet payloads: same outcome as byte vectors, bytes read only when needed")
    {
    }

  private:
    void DoRun() override
    {
        // Random scenarios (errors in either direction, sync loss, slow drain, ppm):
        // identical outcomes, channel-driven or not.
        for (uint32_t s = 1; s <= 20; ++s)
        {
            const Scenario sc = RandomScenario(s, false);
            RiflFastEngine bytes(sc.config);
            RiflFastEngine packets(sc.config);
            std::vector<std::shared_ptr<const RiflPayload>> kept;
            const Outcome a = RunScenario(bytes, sc, s % 2 == 1);
            const Outcome b = RunScenario(packets, sc, s % 2 == 1, &kept);
            NS_TEST_EXPECT_MSG_EQ(Compare(a, b), "", sc.name);
            NS_TEST_EXPECT_MSG_EQ(kept.size(), sc.offers.size(), sc.name);
        }
        // A clean link in batched mode: 40 packets of 1500 B each way after start-up,
        // delivered lean (the channel's case without Delivery sinks): no byte is read.
        // The same offers with full deliveries: the bytes arrive, read once.
        for (const bool lean : {true, false})
        {
            RiflLinkConfig config;
            config.startup = RiflStartup::SHORT;
            RiflFastEngine e(config);
            e.SetLeanDeliveries(lean);
            std::vector<RiflDelivery> got;
            e.SetDeliveryCallback(
                [&got](const RiflDelivery& d)
                {
                    got.push_back(d);
                });
            std::vector<std::shared_ptr<const RiflPayload>> kept;
            std::vector<std::vector<uint8_t>> sent;
            uint64_t slot = 10000; // after the start-up (Startup SHORT)
            e.AdvanceTo(slot);
            for (uint32_t i = 0; i < 80; ++i)
            {
                std::vector<uint8_t> b(1500);
                for (std::size_t k = 0; k < b.size(); ++k)
                {
                    b[k] = static_cast<uint8_t>(k * 7 + i * 13);
                }
                sent.push_back(b);
                kept.push_back(std::make_shared<const RiflPayload>(
                    Create<Packet>(b.data(), static_cast<uint32_t>(b.size()))));
                NS_TEST_EXPECT_MSG_EQ(kept.back()->GetSize(), 1500u, "payload size");
                e.OfferPayload(i % 2, i / 2, kept.back());
                slot += 30;
                // as the channel drives it: to each promised event, then to the offer
                for (uint64_t next = e.NextEventSlot(); next < slot; next = e.NextEventSlot())
                {
                    e.AdvanceTo(next + 1);
                }
                e.AdvanceTo(slot);
            }
            e.AdvanceTo(slot + 20000);
            NS_TEST_ASSERT_MSG_EQ(got.size(), 80u, "every packet delivered");
            uint32_t read = 0;
            for (const auto& p : kept)
            {
                read += p->IsMaterialised() ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(read, (lean ? 0u : 80u), "payloads read, lean = " << lean);
            NS_TEST_EXPECT_MSG_GT(e.GetBatchedSlots(), 10000u, "batched mode ran");
            for (const RiflDelivery& d : got)
            {
                const uint32_t i = static_cast<uint32_t>(d.packetId * 2 + (1 - d.endpoint));
                NS_TEST_EXPECT_MSG_EQ(d.intact, true, "intact");
                if (!lean)
                {
                    NS_TEST_EXPECT_MSG_EQ((d.content == sent[i]), true,
                                          "content of packet " << i);
                }
            }
        }
        // A payload made from bytes holds them from the start.
        const RiflPayload owned(std::vector<uint8_t>{1, 2, 3});
        NS_TEST_EXPECT_MSG_EQ(owned.IsMaterialised(), true, "owned bytes");
        NS_TEST_EXPECT_MSG_EQ(owned.GetSize(), 3u, "owned size");
        // A null or empty payload is refused, naming the size.
        RiflFastEngine e{RiflLinkConfig{}};
        for (const bool null : {true, false})
        {
            std::string what;
            try
            {
                e.OfferPayload(0, 1,
                               null ? nullptr
                                    : std::make_shared<const RiflPayload>(Create<Packet>(0)));
            }
            catch (const std::invalid_argument& ex)
            {
                what = ex.what();
            }
            NS_TEST_EXPECT_MSG_EQ((what.find("payload size = 0") != std::string::npos), true,
                                  "refused: \"" << what << "\"");
        }
    }
};

/**
 * \ingroup rifl-protocol
 * \brief Lean deliveries (SetLeanDeliveries(), the channel's case without Delivery sinks)
 *        from stepped slots and batched jumps alike: the reference engine's deliveries,
 *        events and counters, each lean one intact and handing back the very packet
 *        offered, with the reference's content; on a clean link stepped slot by slot no
 *        payload byte is read.
 */
class RiflLeanDeliveriesTestCase : public TestCase
{
  public:
    /// \brief Constructor.
    RiflLeanDeliveriesTestCase()
        : TestCase("lean deliveries from stepped slots: the reference's outcome, no bytes read")
    {
    }

  private:
    /**
     * \brief Check the lean deliveries of \p lean against \p ref and give them the
     *        reference's content and word latencies, which a lean delivery leaves out.
     * \param ref the reference engine's outcome.
     * \param lean an outcome with lean deliveries.
     * \param name the scenario, for messages.
     * \return the number of lean deliveries.
     */
    uint64_t Fill(const Outcome& ref, Outcome* lean, const std::string& name)
    {
        uint64_t n = 0;
        const std::size_t nd = std::min(ref.deliveries.size(), lean->deliveries.size());
        for (std::size_t i = 0; i < nd; ++i)
        {
            RiflDelivery& d = lean->deliveries[i];
            if (!d.lean)
            {
                continue;
            }
            ++n;
            const RiflDelivery& r = ref.deliveries[i];
            NS_TEST_EXPECT_MSG_EQ(d.intact, true, name << ": lean delivery " << i << " intact");
            NS_TEST_EXPECT_MSG_EQ((d.content.empty() && d.wordLatencies.empty()), true,
                                  name << ": lean delivery " << i << " carries no bytes");
            NS_TEST_EXPECT_MSG_NE(d.source, nullptr, name << ": lean delivery " << i << " source");
            NS_TEST_EXPECT_MSG_EQ((d.source && d.source->GetBytes() == r.content), true,
                                  name << ": lean delivery " << i << " is the packet received");
            d.content = r.content;
            d.wordLatencies = r.wordLatencies;
        }
        return n;
    }

    void DoRun() override
    {
        uint64_t leanStepped = 0;
        uint64_t fullStepped = 0;
        for (uint32_t seed = 1; seed <= 16; ++seed)
        {
            const Scenario sc = RandomScenario(seed, false);
            RiflReferenceEngine ref(sc.config);
            const Outcome r = RunScenario(ref, sc, false);
            for (const bool jumps : {false, true})
            {
                RiflFastEngine fast(sc.config);
                fast.SetJumps(jumps);
                fast.SetLeanDeliveries(true);
                std::vector<std::shared_ptr<const RiflPayload>> kept;
                Outcome o = RunScenario(fast, sc, jumps, &kept);
                const uint64_t n = Fill(r, &o, sc.name);
                NS_TEST_EXPECT_MSG_EQ(Compare(r, o), "", sc.name << ", jumps " << jumps);
                if (!jumps)
                {
                    leanStepped += n;
                    fullStepped += o.deliveries.size() - n;
                }
            }
        }
        // Every slot stepped: most deliveries lean (a packet hit by an undetected error,
        // resynchronised past a lost frame or decoded from bits is delivered in full).
        NS_TEST_EXPECT_MSG_GT(leanStepped, 10 * fullStepped, "lean deliveries from stepped slots");

        // A clean link stepped slot by slot: every delivery lean, no payload read.
        RiflLinkConfig config;
        config.startup = RiflStartup::SHORT;
        RiflFastEngine e(config);
        e.SetJumps(false);
        e.SetLeanDeliveries(true);
        std::vector<RiflDelivery> got;
        e.SetDeliveryCallback(
            [&got](const RiflDelivery& d)
            {
                got.push_back(d);
            });
        std::vector<std::shared_ptr<const RiflPayload>> kept;
        uint64_t slot = 10000;
        e.AdvanceTo(slot);
        for (uint32_t i = 0; i < 20; ++i)
        {
            std::vector<uint8_t> b(1000 + 37 * i, static_cast<uint8_t>(i));
            kept.push_back(std::make_shared<const RiflPayload>(
                Create<Packet>(b.data(), static_cast<uint32_t>(b.size()))));
            e.OfferPayload(i % 2, i, kept.back());
            slot += 40;
            e.AdvanceTo(slot);
        }
        e.AdvanceTo(slot + 2000);
        NS_TEST_ASSERT_MSG_EQ(got.size(), 20u, "every packet delivered");
        for (const RiflDelivery& d : got)
        {
            NS_TEST_EXPECT_MSG_EQ(d.lean, true, "packet " << d.packetId << " lean");
            NS_TEST_EXPECT_MSG_EQ((d.source == kept[d.packetId]), true,
                                  "packet " << d.packetId << " is the one offered");
        }
        uint32_t read = 0;
        for (const auto& p : kept)
        {
            read += p->IsMaterialised() ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(read, 0u, "payloads read");
        NS_TEST_EXPECT_MSG_EQ(e.GetSteppedSlots(), e.GetSlot(), "every slot stepped");
    }
};

/**
 * \ingroup rifl-protocol
 * \brief Offers deferred to their arrival slot (OfferPayloadAt(), as RiflChannel makes
 *        them) give the reference engine's deliveries, events and counters, on traffic
 *        with random gaps that batched jumps cross.
 */
class RiflDeferredOffersTestCase : public TestCase
{
  public:
    RiflDeferredOffersTestCase()
        : TestCase("offers deferred to their arrival slot (OfferPayloadAt()) equal the "
                   "reference engine on gapped traffic")
    {
    }

  private:
    /**
     * \brief Run a scenario on the reference engine and, with deferred offers, on the
     *        fast one, and require identical outcomes and every packet delivered.
     * \param sc the scenario.
     * \return the reference engine's outcome.
     */
    Outcome CheckDeferred(const Scenario& sc)
    {
        RiflReferenceEngine ref(sc.config);
        RiflFastEngine fast(sc.config);
        const Outcome a = RunScenario(ref, sc);
        const Outcome b = RunScenario(fast, sc, true, nullptr, true);
        NS_TEST_EXPECT_MSG_EQ(a.deliveries.size(), sc.offers.size(), sc.name << ": delivered");
        NS_TEST_EXPECT_MSG_EQ(b.predictionError, "", sc.name);
        m_predictions += b.predictions;
        m_laterWakes += b.laterWakes;
        const std::string diff = Compare(a, b);
        NS_TEST_EXPECT_MSG_EQ(diff, "", sc.name);
        if (!diff.empty())
        {
            std::cerr << "FIRST DIFFERENCE (" << sc.name << "): " << diff << std::endl;
        }
        return a;
    }

    void DoRun() override
    {
        // The API: before the first offer nothing is deferred; a slot in the past, an
        // arrival before the previous one and an immediate offer behind waiting
        // arrivals are refused with a message naming the slot; pending counts arrivals.
        {
            RiflLinkConfig cfg;
            cfg.lanes = 1;
            cfg.rxUpSlots = 64;
            RiflFastEngine e(cfg);
            const auto payload = std::make_shared<const RiflPayload>(std::vector<uint8_t>(100, 7));
            NS_TEST_EXPECT_MSG_EQ(e.OfferPayloadAt(0, 1, payload, 10), false, "not started");
            e.AdvanceTo(2000);
            e.OfferPayload(0, 1, payload);
            e.AdvanceTo(2100);
            const std::string past = rifltest::InvalidArgumentMessage(
                [&]
                {
                    e.OfferPayloadAt(0, 2, payload, 2050);
                });
            NS_TEST_EXPECT_MSG_NE(past.find("slot = 2050 is before 2100"), std::string::npos, past);
            NS_TEST_EXPECT_MSG_EQ(e.OfferPayloadAt(0, 2, payload, 2300), true, "deferred");
            NS_TEST_EXPECT_MSG_EQ(e.GetPendingPackets(0), 1u,
                                  "the arrival is pending (the first is sent)");
            const std::string order = rifltest::InvalidArgumentMessage(
                [&]
                {
                    e.OfferPayloadAt(0, 3, payload, 2200);
                });
            NS_TEST_EXPECT_MSG_NE(order.find("slot = 2200 is before 2300"), std::string::npos,
                                  order);
            const std::string behind = rifltest::InvalidArgumentMessage(
                [&]
                {
                    e.OfferPayload(0, 3, payload);
                });
            NS_TEST_EXPECT_MSG_NE(behind.find("AdvanceTo() them first"), std::string::npos, behind);
            NS_TEST_EXPECT_MSG_EQ(e.OfferPayloadAt(1, 3, payload, 2100), true, "now: queued");
            e.AdvanceTo(2301);
            NS_TEST_EXPECT_MSG_EQ(e.OfferPayloadAt(0, 4, payload, 2301), true, "after it");
            e.AdvanceTo(4000);
            NS_TEST_EXPECT_MSG_EQ(e.GetPendingPackets(0) + e.GetPendingPackets(1), 0u, "all sent");
            NS_TEST_EXPECT_MSG_EQ(e.GetCounters(1).packetsDelivered, 3u, "A's packets delivered");
            NS_TEST_EXPECT_MSG_EQ(e.GetCounters(0).packetsDelivered, 1u, "B's packet delivered");
        }
        uint32_t seed = 1;
        for (uint32_t lanes : {1u, 4u})
        {
            for (double load : {0.2, 0.5, 0.9})
            {
                for (const auto& [lo, hi] : {std::pair<uint32_t, uint32_t>{1, 200},
                                             std::pair<uint32_t, uint32_t>{1400, 1500},
                                             std::pair<uint32_t, uint32_t>{1, 3000}})
                {
                    for (double ber : {0.0, 1e-6})
                    {
                        CheckDeferred(GapScenario(lanes, load, lo, hi, ber, 0.0, seed++));
                    }
                }
            }
            // A slow drain (flow control, which no loaded jump runs through) at a low load:
            // a packet arrives on a quiet link, and its frames fill the FC FIFO (FC_PAUSE
            // events) before it can be delivered.
            for (uint32_t i = 0; i < 3; ++i)
            {
                Scenario sc = GapScenario(lanes, 0.5, 1, 1, 0.0, 0.05, seed++);
                sc.offers.clear();
                for (uint32_t k = 0; k < 5; ++k)
                {
                    // 20000 B every 16000 + 100 i slots, the endpoints taking turns
                    sc.offers.push_back(Offer{3000 + k * (16000 + 100 * i), k % 2, k + 1, 20000});
                }
                sc.endSlot = 3000 + 5 * (16000 + 100 * i) + 30000;
                sc.name += ", 20000 B packets on a quiet link";
                const Outcome a = CheckDeferred(sc);
                NS_TEST_EXPECT_MSG_GT(a.counters[1].fcPauseSent + a.counters[0].fcPauseSent, 0u,
                                      sc.name << ": flow control");
            }
        }
        // PredictPendingPackets() during the start-up of a link with a sync-loss process
        // declines and leaves the sync-loss events in place (JumpHorizon() would pop them
        // all while the slot is below the line delay; a review of 2026-12-06 asked).
        // Two guards keep it from there: such a link tracks scrambler states, and
        // IsLoadedSteady() is asked first.
        {
            RiflLinkConfig cfg;
            cfg.lanes = 1;
            cfg.rxUpSlots = 64;
            std::array<RiflEndpointCounters, 2> rx;
            for (uint32_t k = 0; k < 2; ++k)
            {
                RiflFastEngine e(cfg);
                auto loss = CreateObject<SyncLossProcess>();
                loss->AddEvent(5000, 20);
                e.SetSyncLossProcess(0, 0, loss);
                e.OfferPayload(0, 1, std::make_shared<const RiflPayload>(std::vector<uint8_t>(90, 1)));
                uint64_t pending = 0;
                if (k == 1)
                {
                    NS_TEST_EXPECT_MSG_EQ(e.PredictPendingPackets(0, 3, &pending), false,
                                          "no prediction during the start-up");
                }
                e.AdvanceTo(12000);
                rx[k] = e.GetCounters(1);
            }
            NS_TEST_EXPECT_MSG_GT(rx[0].alignmentLosses, 0u, "the loss of sync happens");
            NS_TEST_EXPECT_MSG_EQ((rx[0] == rx[1]), true, "and still after a prediction");
        }
        // Fuzz finding of 2026-12-06 (NextWakeSlot()): four bit errors in a fill at line
        // slot 2268 pass the check (an undetected error) and leave the descrambler out of
        // step, so the next fill, still on the line and no user frame, decodes as a
        // packet end delivered at slot 2275; the bound had promised 2280.
        {
            Scenario sc;
            sc.name = "an undetected error leaves the descrambler out of step, woken at "
                      "NextWakeSlot()";
            sc.seed = 1; // deferred offers with no TX wake-ups, woken at NextWakeSlot()
            RiflLinkConfig& c = sc.config;
            c.lanes = 1;
            c.frameSize = 256;
            c.cableLengthM = 0;
            c.transceiverDelayNs = 0;
            c.lineDelaySlots = 0;
            c.rxUpSlots = 1;
            c.userWordBytes = 847;
            sc.offers = {{623, 1, 0, 84},  {962, 1, 1, 84},  {1301, 1, 2, 101},
                         {1301, 0, 3, 22}, {1301, 1, 4, 24}, {1351, 0, 5, 9}};
            sc.errors.resize(2);
            sc.errors[0].listed = {{716, {193}},           {863, {127, 223}},
                                   {907, {210, 99, 8, 51}}, {1058, {87, 222}},
                                   {1264, {158, 242}},      {2268, {81, 44, 62, 129}}};
            sc.errors[1].listed = {{540, {115, 83}}, {780, {78}}, {982, {128, 131}}};
            sc.endSlot = 2932;
            RiflReferenceEngine ref(sc.config);
            RiflFastEngine fast(sc.config);
            const Outcome a = RunScenario(ref, sc);
            const Outcome b = RunScenario(fast, sc, true, nullptr, true);
            NS_TEST_EXPECT_MSG_GT(a.counters[1].undetectedErrors, 0u, sc.name);
            NS_TEST_EXPECT_MSG_GT(b.laterWakes, 0u, sc.name << ": bounded wake-ups");
            NS_TEST_EXPECT_MSG_EQ(Compare(a, b), "", sc.name);
        }
        NS_TEST_EXPECT_MSG_GT(m_predictions, 100u, "PredictPendingPackets() answers checked");
        NS_TEST_EXPECT_MSG_GT(m_laterWakes, 100u, "NextWakeSlot() promises beyond NextEventSlot()");
    }

    uint64_t m_predictions{0}; //!< PredictPendingPackets() answers checked
    uint64_t m_laterWakes{0};  //!< NextWakeSlot() promises later than NextEventSlot()'s
};

/**
 * \ingroup rifl-protocol
 * \brief The "rifl-engine-equivalence" suite.
 */
class RiflEngineEquivalenceTestSuite : public TestSuite
{
  public:
    /// \brief Constructor.
    RiflEngineEquivalenceTestSuite()
        : TestSuite("rifl-engine-equivalence", RIFL_TEST_UNIT)
    {
        AddTestCase(new RiflFastEngineSelfCheckTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceDirectedTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflBatchedModeTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflDeferredOffersTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflPacketPayloadTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflLeanDeliveriesTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflStartupTemplateTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflJumpsOffTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflPauseWaitJumpTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflSparseSteppingTestCase, RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceRandomTestCase(1, 30, false), RIFL_TEST_QUICK);
        AddTestCase(new RiflSplitEngineTestCase(1, 30), RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceSpeedTestCase(0.0, 500000), RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceSpeedTestCase(1e-7, 500000), RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceSpeedTestCase(1e-6, 200000), RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceSaturatedTestCase(25000), RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceSaturatedSpeedTestCase(0.0, 150000), RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceSaturatedSpeedTestCase(1e-7, 150000), RIFL_TEST_QUICK);
        AddTestCase(new RiflEquivalenceRandomTestCase(1000, 300, true), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflSplitEngineTestCase(2000, 300), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflEquivalenceSpeedTestCase(0.0, 20000000), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflEquivalenceSpeedTestCase(1e-7, 4000000), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflEquivalenceSpeedTestCase(1e-6, 2000000), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflEquivalenceSaturatedTestCase(400000), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflEquivalenceSaturatedSpeedTestCase(0.0, 2000000), RIFL_TEST_EXTENSIVE);
        AddTestCase(new RiflEquivalenceSaturatedSpeedTestCase(1e-7, 2000000), RIFL_TEST_EXTENSIVE);
    }
};

/// The suite instance.
static RiflEngineEquivalenceTestSuite g_riflEngineEquivalenceTestSuite;

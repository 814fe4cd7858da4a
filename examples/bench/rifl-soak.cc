/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rifl-soak: a long run of one RIFL link (4 lanes by default) and one
 * direct-link pair at a high bit error rate in both directions, with
 * flow-control pressure and (RIFL) sync-loss events, checking every packet's
 * content, order and count. A program, not a test: run it for hours.
 *
 * Both links are driven through their ns-3 devices (RiflHelper,
 * DirectLinkHelper), so every device or channel attribute applies exactly as
 * in a user's simulation and can be set with ns-3's own command-line syntax,
 * e.g. --ns3::RiflNetDevice::DrainRate=0.1 or any attribute added later; the
 * clock offsets differ per device, so they have their own flags --ppmA and
 * --ppmB (RiflNetDevice::ClockOffsetPpm of A and of B). The
 * soak sets its defaults with Config::SetDefault before parsing, so the
 * command line overrides them:
 *   RIFL:        RiflChannel::Ber = 1e-5, RiflNetDevice::DrainRate = 0.25 (flow
 *                control on), Startup = Short, ReplayTail = Corrected, Mtu = 9000,
 *                FrameIdWidth = 7 (D = 128, twice the RTL sizing for 10 m: the
 *                corrected variant, as in the rifl-lossless suite),
 *                a SyncLossProcess on every lane of both directions
 *                (--syncLossMeanUs, --syncLossNs);
 *   direct-link: DirectLinkChannel::Ber = 1e-5, DirectLinkNetDevice::VcBufferSize
 *                = 4 (credit-bound sender).
 *
 * Each direction has a saturating source: the device queue is topped up
 * whenever a packet's last frame leaves. Packet k of a direction has a size
 * drawn in [minSize, maxSize] and the bytes: 8-byte k, 4-byte size, then a
 * pattern function of (direction, k, index). The receiver checks protocol,
 * size, k (exactly-once, in order) and every byte.
 *
 * Violations (exit code 2, the run stops at the first one): a packet whose
 * bytes differ without the device having counted an undetected error; a
 * packet out of order or repeated beyond the duplicates the engine counted;
 * after the drain phase, offered != delivered + counted losses + in flight.
 * Counted hazards (RIFL FC FIFO drops, duplicate deliveries or out-of-order
 * deliveries, direct-link Shutdown losses) are reported; --failOnCounted makes
 * them violations too. A RIFL out-of-order delivery (the reordering limit of
 * spec 10.2 / 11.8: the receiver resynchronises on a frame D newer) skips
 * user frames on one lane for good, so later packets of that direction are
 * reassembled wrongly (flagged corrupt by the device) and the packets whose
 * last frame was skipped merge into the next one: the engine counts them in
 * packetEndsLost (with FC FIFO drops of last frames), and the identity
 * counts them as losses. The receiver's packet boundaries then no longer
 * match the sender's: one delivery per packet end it sees, so a packet can be
 * split over two deliveries, and a packet whose frames all travelled on
 * in-step lanes can arrive intact after a later one. After a counted
 * out-of-order delivery the soak therefore checks intact packets for
 * exactly-once only (a bitmap of the packets seen), not for order; the
 * identity still counts every packet once.
 *
 * Prints progress every --progressS wall seconds, and at the end per link the
 * accounting identity, undetected errors, slots and slots per wall second;
 * writes the results to --out (JSON).
 *
 * RIFL's UndetectedError trace also fires for changed frames that passed the
 * check but were not delivered (dropped duplicates, control frames); the soak
 * reports them by kind, and the engine's own ground truth (content mismatches,
 * out-of-order and duplicate deliveries) from its counters.
 *
 *   rifl-soak --slots=1e9 --link=rifl
 *   rifl-soak --slots=1e10 --maxWallS=3600 --link=direct-link --progressS=300
 *   rifl-soak --slots=1e6 --link=both --ns3::RiflChannel::Ber=1e-6
 */

#include "ns3/core-module.h"
#include "ns3/direct-link-channel.h"
#include "ns3/direct-link-helper.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/network-module.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-net-device.h"
#include "ns3/sync-loss-process.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "../rifl-example-args.h"

using namespace ns3;

namespace
{

/// Wall-time limit of a traffic phase, seconds (0 = none).
double g_maxWallS = 0;

/// Bytes of the packet header the soak writes (sequence number and size).
constexpr uint32_t HEADER_BYTES = 12;

/**
 * \brief The pattern byte at an index of a packet.
 * \param dir direction (0 = A to B, 1 = B to A).
 * \param seq packet sequence number.
 * \param i byte index.
 * \return the byte.
 */
inline uint8_t
PatternByte(uint32_t dir, uint64_t seq, uint32_t i)
{
    uint64_t x = (seq * 0x9E3779B97F4A7C15ULL) ^ (uint64_t{i} * 0xD1B54A32D192ED03ULL) ^ dir;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    return static_cast<uint8_t>(x >> 56);
}

/// One direction of one link.
struct Flow
{
    uint32_t dir{0};                 //!< direction index
    Ptr<NetDevice> tx;               //!< sending device
    Ptr<NetDevice> rx;               //!< receiving device
    Ptr<UniformRandomVariable> size; //!< packet sizes
    bool offering{true};             //!< the source is on
    uint32_t queueTarget{16};        //!< packets kept in the device queue
    uint64_t offered{0};             //!< packets handed to Send (accepted)
    uint64_t rejected{0};            //!< Send returned false (counted by MacTxDrop)
    uint64_t delivered{0};           //!< packets received intact and in order
    uint64_t deliveredCorrupt{0};    //!< packets received with changed bytes, counted
    uint64_t bytesDelivered{0};      //!< bytes of those
    uint64_t expected{0};            //!< next sequence number expected
    uint64_t gaps{0};                //!< packets skipped by the receiver (seq jumps)
    uint64_t duplicatesSeen{0};      //!< intact packets delivered a second time
    uint64_t olderUnseen{0};          //!< intact packets older than expected, not seen before,
                                      //!< while no out-of-order delivery is counted
    uint64_t reorderedAfterHazard{0}; //!< the same after a counted out-of-order delivery
                                      //!< (RIFL, spec 10.2 / 11.8)
    std::vector<bool> seen;           //!< seen[k]: packet k was delivered intact
    // counted by the module's traces
    uint64_t macTxDrop{0};  //!< sender MacTxDrop
    uint64_t phyRxDrop{0};  //!< receiver PhyRxDrop
    uint64_t undetected{0}; //!< receiver UndetectedError
    /// RIFL: UndetectedError by the frame's verdict (0 delivered in sequence,
    /// 1 duplicate dropped, 2 control frame passed)
    uint64_t undetectedByVerdict[3]{0, 0, 0};
    uint64_t duplicateTrace{0};   //!< receiver DuplicateDelivery (RIFL)
    uint64_t fifoDropTrace{0};    //!< receiver FcFifoDrop (RIFL, user frames)
    uint64_t outOfOrderTrace{0};  //!< receiver OutOfOrderDelivery firings (RIFL, spec 11.8)
    uint64_t outOfOrderEnds{0};   //!< packet ends those skipped (sum of the trace values)
    uint64_t syncLossEvents{0};   //!< receiver SyncLoss (value 1) (RIFL)
    uint64_t messagesLost{0};     //!< sender MessageLost (direct-link)
    uint64_t truncated{0};        //!< receiver MessageTruncated (direct-link)
    uint64_t shutdowns{0};        //!< sender Shutdown (direct-link)
    uint64_t lastCorruptCount{0}; //!< RiflNetDevice::GetPacketsReceivedCorrupt at last packet
    std::string violation;        //!< first violation, empty if none
};

/// The soak of one link.
struct Soak
{
    std::string name;                           //!< "rifl" or "direct-link"
    Flow flow[2];                               //!< both directions
    Ptr<RiflChannel> riflChannel;               //!< RIFL: the channel
    Ptr<DirectLinkChannel> dlChannel;           //!< direct-link: the channel
    std::vector<Ptr<SyncLossProcess>> syncLoss; //!< RIFL: the sync-loss processes
};

/**
 * \brief Record a violation (the first one of a flow is kept).
 * \param f the flow.
 * \param what the description.
 */
void
Violation(Flow* f, const std::string& what)
{
    if (f->violation.empty())
    {
        f->violation = what;
        Simulator::Stop();
    }
}

/**
 * \brief Offer one packet.
 * \param f the flow.
 */
void
OfferOne(Flow* f)
{
    const uint32_t size = f->size->GetInteger();
    std::vector<uint8_t> b(size);
    const uint64_t seq = f->offered + f->rejected;
    std::memcpy(b.data(), &seq, 8);
    std::memcpy(b.data() + 8, &size, 4);
    for (uint32_t i = HEADER_BYTES; i < size; ++i)
    {
        b[i] = PatternByte(f->dir, seq, i);
    }
    if (f->tx->Send(Create<Packet>(b.data(), size), f->tx->GetBroadcast(), 0x0800))
    {
        ++f->offered;
    }
    else
    {
        ++f->rejected;
    }
}

/**
 * \brief Keep the sending queue topped up.
 * \param f the flow.
 */
void
TopUp(Flow* f)
{
    Ptr<Queue<Packet>> q;
    if (auto r = DynamicCast<RiflNetDevice>(f->tx))
    {
        q = r->GetQueue();
    }
    else
    {
        q = DynamicCast<DirectLinkNetDevice>(f->tx)->GetQueue();
    }
    while (f->offering && q->GetNPackets() < f->queueTarget)
    {
        OfferOne(f);
    }
}

/**
 * \brief Trace sink: a packet's last frame left; top the queue up.
 * \param f the flow.
 */
void
TxEnd(Flow* f, Ptr<const Packet>)
{
    TopUp(f);
}

/**
 * \brief Receive callback: check one packet.
 * \param f the flow.
 * \param p the packet.
 * \param protocol the protocol number.
 * \return true.
 */
bool
Receive(Flow* f, Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&)
{
    bool flaggedCorrupt = false;
    if (auto r = DynamicCast<RiflNetDevice>(f->rx))
    {
        const uint64_t c = r->GetPacketsReceivedCorrupt();
        flaggedCorrupt = c != f->lastCorruptCount;
        f->lastCorruptCount = c;
    }
    const uint32_t n = p->GetSize();
    std::vector<uint8_t> b(n);
    p->CopyData(b.data(), n);
    uint64_t seq = 0;
    uint32_t size = 0;
    bool intact = protocol == 0x0800 && n >= HEADER_BYTES;
    if (intact)
    {
        std::memcpy(&seq, b.data(), 8);
        std::memcpy(&size, b.data() + 8, 4);
        intact = size == n;
        for (uint32_t i = HEADER_BYTES; intact && i < n; ++i)
        {
            intact = b[i] == PatternByte(f->dir, seq, i);
        }
    }
    if (!intact)
    {
        // Changed bytes are allowed only where the module counted an undetected error.
        ++f->deliveredCorrupt;
        const bool allowed = flaggedCorrupt || f->deliveredCorrupt <= f->undetected;
        if (!allowed)
        {
            std::ostringstream os;
            os << "packet " << f->expected << " (" << n
               << " bytes) delivered with changed bytes and no undetected error counted";
            Violation(f, os.str());
        }
        ++f->expected;
        return true;
    }
    if (seq < f->seen.size() && f->seen[seq])
    {
        ++f->duplicatesSeen;
        if (f->duplicatesSeen + f->olderUnseen > f->duplicateTrace)
        {
            std::ostringstream os;
            os << "packet " << seq << " delivered again (expected " << f->expected
               << ") with no duplicate delivery counted";
            Violation(f, os.str());
        }
        return true;
    }
    if (seq >= f->offered + f->rejected)
    {
        std::ostringstream os;
        os << "packet " << seq << " delivered intact but never offered (" << f->offered + f->rejected
           << " offered)";
        Violation(f, os.str());
        return true;
    }
    if (f->seen.size() <= seq)
    {
        f->seen.resize(std::max<uint64_t>(seq + 1, 2 * f->seen.size()), false);
    }
    f->seen[seq] = true;
    ++f->delivered;
    f->bytesDelivered += n;
    if (seq < f->expected)
    {
        // Older than expected and not delivered before. After a counted out-of-order
        // delivery a lane's user frames are out of step with the other lanes for good,
        // so the receiver's packet boundaries no longer match the sender's: a packet
        // can be split in two deliveries or reassembled intact from the in-step lanes
        // after a later one. Before that, only a counted duplicate delivery (frames
        // delivered twice, taken as parts of other packets) can explain it.
        if (f->outOfOrderTrace > 0)
        {
            ++f->reorderedAfterHazard;
            return true;
        }
        ++f->olderUnseen;
        if (f->duplicatesSeen + f->olderUnseen > f->duplicateTrace)
        {
            std::ostringstream os;
            os << "packet " << seq << " delivered out of order (expected " << f->expected
               << ") with no out-of-order or duplicate delivery counted";
            Violation(f, os.str());
        }
        return true;
    }
    if (seq > f->expected && f->outOfOrderTrace == 0)
    {
        f->gaps += seq - f->expected;
    }
    f->expected = seq + 1;
    return true;
}

/**
 * \brief Count a trace firing.
 * \param c the counter.
 */
void
CountPacket(uint64_t* c, Ptr<const Packet>)
{
    ++*c;
}

/**
 * \brief Count a RIFL protocol event (lane, slot, value).
 * \param c the counter.
 */
void
CountEvent(uint64_t* c, uint32_t, uint64_t, int64_t)
{
    ++*c;
}

/**
 * \brief Count a RIFL undetected error by the frame's verdict.
 * \param f the flow.
 * \param verdict RiflLaneState::Verdict of the frame.
 */
void
CountUndetected(Flow* f, uint32_t, uint64_t, int64_t verdict)
{
    ++f->undetected;
    if (verdict >= 0 && verdict < 3)
    {
        ++f->undetectedByVerdict[verdict];
    }
}

/**
 * \brief Count a direct-link protocol event (slot, value).
 * \param c the counter.
 */
void
CountDlEvent(uint64_t* c, uint64_t, int64_t)
{
    ++*c;
}

/**
 * \brief Count a RIFL out-of-order delivery (spec 10.2 / 11.8).
 * \param f the flow.
 * \param ends packet ends skipped by it (packets merged into the next one).
 */
void
CountOutOfOrder(Flow* f, uint32_t, uint64_t, int64_t ends)
{
    ++f->outOfOrderTrace;
    f->outOfOrderEnds += static_cast<uint64_t>(ends);
}

/**
 * \brief Count a sync loss (value 1 = lost).
 * \param c the counter.
 * \param value 1 lost, 0 regained.
 */
void
CountSyncLoss(uint64_t* c, uint32_t, uint64_t, int64_t value)
{
    if (value == 1)
    {
        ++*c;
    }
}

/**
 * \brief Count a lost direct-link message.
 * \param c the counter.
 */
void
CountLost(uint64_t* c, uint64_t, uint32_t, uint8_t)
{
    ++*c;
}

/**
 * \brief Count a direct-link message event.
 * \param c the counter.
 */
void
CountMessage(uint64_t* c, const DirectLinkMessage&)
{
    ++*c;
}

/**
 * \param s the soak.
 * \param d direction.
 * \return the packets of the direction in the sender's queue or the link engine
 *         (RIFL: not fully on the line, or with their last frame in the receiver's
 *         FC FIFOs, e.g. stranded there after an out-of-order delivery).
 */
uint64_t
InFlight(const Soak& s, uint32_t d)
{
    const Flow& f = s.flow[d];
    if (s.riflChannel)
    {
        Ptr<RiflNetDevice> tx = DynamicCast<RiflNetDevice>(f.tx);
        Ptr<RiflNetDevice> rx = DynamicCast<RiflNetDevice>(f.rx);
        return tx->GetQueue()->GetNPackets() + s.riflChannel->GetPendingPackets(tx)
               + s.riflChannel->GetHeldPacketEnds(rx);
    }
    Ptr<DirectLinkNetDevice> tx = DynamicCast<DirectLinkNetDevice>(f.tx);
    return tx->GetQueue()->GetNPackets();
}

/**
 * \param f a flow.
 * \return the losses the module counted for the flow (packets).
 */
uint64_t
CountedLosses(const Flow& f)
{
    uint64_t merged = 0; // RIFL: packets whose last frame never reached the user
    if (auto r = DynamicCast<RiflNetDevice>(f.rx))
    {
        merged = r->GetCounters().packetEndsLost;
    }
    return f.phyRxDrop + f.messagesLost + merged;
}

/**
 * \brief Print one progress or final line.
 * \param s the soak.
 * \param slots slots run.
 * \param wallS wall seconds so far.
 * \param target target slots.
 */
void
Progress(const Soak& s, uint64_t slots, double wallS, uint64_t target)
{
    std::ostringstream os;
    os << "[" << s.name << "] slots " << slots << " / " << target << " (" << std::setprecision(3)
       << 100.0 * slots / target << "%), " << std::setprecision(4) << slots / wallS
       << " slots/s, delivered " << s.flow[0].delivered << " + " << s.flow[1].delivered
       << ", undetected " << s.flow[0].undetected << " + " << s.flow[1].undetected << ", wall "
       << std::setprecision(6) << wallS << " s";
    std::cout << os.str() << std::endl;
}

/**
 * \brief Run one soak for a number of slots per direction, then drain.
 * \param s the soak (devices installed, traces connected).
 * \param slotStart the start time of a slot (the channel's exact slot clock).
 * \param slotNs the exact slot duration in ns.
 * \param target slots to run.
 * \param progressS wall seconds between progress lines.
 * \param out the JSON result (filled).
 * \return true if no violation was found.
 */
bool
RunSoak(Soak& s, std::function<Time(uint64_t)> slotStart, double slotNs, uint64_t target,
        double progressS, nlohmann::json& out)
{
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t cpu0 = std::clock();
    auto wall = [&t0]()
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    Simulator::Schedule(Seconds(0), &TopUp, &s.flow[0]);
    Simulator::Schedule(Seconds(0), &TopUp, &s.flow[1]);
    const Time end = slotStart(target);
    auto slotsNow = [slotNs]()
    {
        return static_cast<uint64_t>((Simulator::Now().GetNanoSeconds() + 0.999) / slotNs);
    };
    // Chunks of simulated time sized to about progressS of wall time.
    uint64_t chunkSlots = 100000;
    double lastPrint = 0;
    bool ok = true;
    while (Simulator::Now() < end && ok && (g_maxWallS <= 0 || wall() < g_maxWallS))
    {
        const Time stop = std::min(end, slotStart(slotsNow() + chunkSlots));
        const double w0 = wall();
        Simulator::Stop(stop - Simulator::Now());
        Simulator::Run();
        const double dw = std::max(1e-3, wall() - w0);
        ok = s.flow[0].violation.empty() && s.flow[1].violation.empty();
        if (dw < progressS / 4)
        {
            chunkSlots *= 2;
        }
        else if (dw > progressS)
        {
            chunkSlots = std::max<uint64_t>(1000, chunkSlots / 2);
        }
        if (wall() - lastPrint >= progressS)
        {
            lastPrint = wall();
            Progress(s, slotsNow(), lastPrint, target);
        }
    }
    const uint64_t slotsRun = slotsNow();
    const double wallRun = wall();
    const double cpuRun = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    // Drain: no new packets; run until nothing is in flight (at most 10^7 slots).
    s.flow[0].offering = s.flow[1].offering = false;
    // Drained: nothing in flight and the identity holds; or (RIFL, after an
    // out-of-order delivery) the only packets left are stranded in the receiver's
    // FC FIFOs, the identity holds counting them in flight, and another 1e5 slots
    // moved nothing.
    auto balanced = [&s](uint32_t d)
    {
        const Flow& f = s.flow[d];
        return f.offered == f.delivered + f.deliveredCorrupt + CountedLosses(f) + InFlight(s, d);
    };
    auto held = [&s](uint32_t d)
    {
        return s.riflChannel
                   ? s.riflChannel->GetHeldPacketEnds(DynamicCast<RiflNetDevice>(s.flow[d].rx))
                   : 0;
    };
    uint64_t lastDelivered = UINT64_MAX;
    for (int i = 0; i < 100 && ok; ++i)
    {
        const uint64_t deliveredNow = s.flow[0].delivered + s.flow[0].deliveredCorrupt
                                      + s.flow[1].delivered + s.flow[1].deliveredCorrupt;
        if (balanced(0) && balanced(1)
            && ((InFlight(s, 0) == 0 && InFlight(s, 1) == 0)
                || (InFlight(s, 0) == held(0) && InFlight(s, 1) == held(1)
                    && deliveredNow == lastDelivered)))
        {
            break;
        }
        lastDelivered = deliveredNow;
        Simulator::Stop(NanoSeconds(static_cast<int64_t>(slotNs * 100000)));
        Simulator::Run();
        ok = s.flow[0].violation.empty() && s.flow[1].violation.empty();
    }
    out["link"] = s.name;
    out["slots_per_direction"] = slotsRun;
    out["slot_ns"] = slotNs;
    out["simulated_s"] = Simulator::Now().GetSeconds();
    out["wall_s"] = wallRun;
    out["slots_per_wall_s"] = slotsRun / std::max(1e-9, wallRun);
    out["cpu_s"] = cpuRun;
    out["slots_per_cpu_s"] = slotsRun / std::max(1e-9, cpuRun);
    out["events"] = Simulator::GetEventCount();
    std::cout << "[" << s.name << "] " << slotsRun << " slots per direction in " << wallRun
              << " s wall (" << slotsRun / std::max(1e-9, wallRun) << " slots/s), " << cpuRun
              << " s CPU (" << slotsRun / std::max(1e-9, cpuRun) << " slots per CPU second)"
              << std::endl;
    for (uint32_t d = 0; d < 2; ++d)
    {
        Flow& f = s.flow[d];
        const uint64_t inFlight = InFlight(s, d);
        const uint64_t losses = CountedLosses(f);
        const uint64_t partial
            = f.offered - std::min(f.offered, f.delivered + f.deliveredCorrupt + losses + inFlight);
        const bool identity
            = f.offered == f.delivered + f.deliveredCorrupt + losses + inFlight + partial
              && partial == 0 && f.gaps <= losses;
        if (ok && !identity)
        {
            std::ostringstream os;
            os << "accounting identity broken: offered " << f.offered << " != delivered "
               << f.delivered << " + corrupt " << f.deliveredCorrupt << " + counted losses "
               << losses << " + in flight " << inFlight << " (unaccounted " << partial << ", gaps "
               << f.gaps << ")";
            Violation(&f, os.str());
        }
        const char* dirName = d == 0 ? "A->B" : "B->A";
        std::cout << "[" << s.name << "] " << dirName << ": offered " << f.offered
                  << " = delivered " << f.delivered << " + delivered corrupt (undetected) "
                  << f.deliveredCorrupt << " + counted losses " << losses << " + in flight "
                  << inFlight << (identity ? "  [identity holds]" : "  [IDENTITY BROKEN]")
                  << std::endl;
        std::cout << "[" << s.name << "] " << dirName << ": undetected errors " << f.undetected
                  << ", bytes " << f.bytesDelivered << ", duplicates counted " << f.duplicateTrace
                  << ", FC FIFO drops " << f.fifoDropTrace << ", sync losses " << f.syncLossEvents
                  << ", messages lost " << f.messagesLost << ", truncated " << f.truncated
                  << ", shutdowns " << f.shutdowns << ", send rejected " << f.rejected << std::endl;
        if (f.outOfOrderTrace > 0)
        {
            std::cout << "[" << s.name << "] " << dirName
                      << ": counted hazard: " << f.outOfOrderTrace
                      << " out-of-order deliveries (spec 10.2 / 11.8 reordering limit), "
                      << f.outOfOrderEnds << " packets merged into the next (in counted losses), "
                      << s.riflChannel->GetHeldPacketEnds(DynamicCast<RiflNetDevice>(f.rx))
                      << " packets stranded in the receiver's FC FIFOs (in flight); later "
                         "packets of the direction are reassembled wrongly and counted corrupt, "
                      << f.reorderedAfterHazard
                      << " intact ones out of order (each exactly once)" << std::endl;
        }
        if (f.violation.empty() && f.offered > 0 && f.delivered + f.deliveredCorrupt == 0)
        {
            // A soak that delivered nothing checked nothing: not a pass.
            f.violation = "nothing delivered: no packet of this direction was checked (did the "
                          "link come up? see alignmentLosses in the counters)";
        }
        if (!f.violation.empty())
        {
            std::cout << "[" << s.name << "] " << dirName << ": VIOLATION: " << f.violation
                      << std::endl;
        }
        nlohmann::json j;
        j["offered"] = f.offered;
        j["delivered"] = f.delivered;
        j["delivered_corrupt"] = f.deliveredCorrupt;
        j["counted_losses"] = losses;
        j["in_flight"] = inFlight;
        j["identity_holds"] = identity;
        j["gaps"] = f.gaps;
        j["bytes_delivered"] = f.bytesDelivered;
        j["undetected_errors"] = f.undetected;
        if (s.riflChannel)
        {
            j["undetected_errors_delivered_frames"] = f.undetectedByVerdict[0];
            j["undetected_errors_duplicate_frames"] = f.undetectedByVerdict[1];
            j["undetected_errors_control_frames"] = f.undetectedByVerdict[2];
            std::cout << "[" << s.name << "] " << dirName
                      << ": undetected errors by frame: delivered in sequence "
                      << f.undetectedByVerdict[0] << ", duplicate (dropped) "
                      << f.undetectedByVerdict[1] << ", control " << f.undetectedByVerdict[2]
                      << std::endl;
        }
        j["duplicates_counted"] = f.duplicateTrace;
        j["duplicates_seen"] = f.duplicatesSeen;
        j["older_unseen"] = f.olderUnseen;
        j["reordered_after_hazard"] = f.reorderedAfterHazard;
        j["fc_fifo_drops"] = f.fifoDropTrace;
        j["out_of_order_counted"] = f.outOfOrderTrace;
        j["out_of_order_packets_merged"] = f.outOfOrderEnds;
        j["held_in_rx_fifo"]
            = s.riflChannel ? s.riflChannel->GetHeldPacketEnds(DynamicCast<RiflNetDevice>(f.rx))
                            : 0;
        j["sync_losses"] = f.syncLossEvents;
        j["mac_tx_drop"] = f.macTxDrop;
        j["phy_rx_drop"] = f.phyRxDrop;
        j["messages_lost"] = f.messagesLost;
        j["messages_truncated"] = f.truncated;
        j["shutdowns"] = f.shutdowns;
        j["violation"] = f.violation;
        out[d == 0 ? "a_to_b" : "b_to_a"] = j;
    }
    if (s.riflChannel)
    {
        for (uint32_t e = 0; e < 2; ++e)
        {
            const RiflEndpointCounters c = DynamicCast<RiflNetDevice>(s.flow[e].tx)->GetCounters();
            out[e == 0 ? "counters_a" : "counters_b"] = c.ToString();
            // Ground truth of the engine: frames delivered ahead of a missing one
            // (the reordering hazard of spec 10.2 / 11.8), received at endpoint e.
            out[e == 1 ? "a_to_b" : "b_to_a"]["engine_out_of_order_frames"]
                = c.outOfOrderDeliveries;
            out[e == 1 ? "a_to_b" : "b_to_a"]["engine_content_mismatches"] = c.contentMismatches;
            out[e == 1 ? "a_to_b" : "b_to_a"]["engine_duplicates_delivered"]
                = c.duplicatesDelivered;
            if (c.outOfOrderDeliveries > 0)
            {
                std::cout << "[" << s.name << "] " << (e == 1 ? "A->B" : "B->A") << ": the engine "
                          << "counted " << c.outOfOrderDeliveries
                          << " user frames delivered out of order (spec 10.2 / 11.8 reordering "
                             "hazard)"
                          << std::endl;
            }
            std::cout << "[" << s.name << "] counters " << (e == 0 ? "A" : "B") << ": "
                      << c.ToString() << std::endl;
        }
    }
    Simulator::Destroy();
    return s.flow[0].violation.empty() && s.flow[1].violation.empty();
}

/**
 * \brief Install two devices' flows and connect the common traces.
 * \param s the soak.
 * \param devs the two devices.
 * \param minSize smallest packet.
 * \param maxSize largest packet.
 * \param stream first random stream.
 */
void
SetUpFlows(Soak& s, NetDeviceContainer devs, uint32_t minSize, uint32_t maxSize, int64_t stream)
{
    for (uint32_t d = 0; d < 2; ++d)
    {
        Flow& f = s.flow[d];
        f.dir = d;
        f.tx = devs.Get(d);
        f.rx = devs.Get(1 - d);
        f.size = CreateObject<UniformRandomVariable>();
        f.size->SetAttribute("Min", DoubleValue(minSize));
        f.size->SetAttribute("Max", DoubleValue(maxSize));
        f.size->SetStream(stream + d);
        f.rx->SetReceiveCallback(MakeBoundCallback(&Receive, &f));
        f.tx->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&TxEnd, &f));
        f.tx->TraceConnectWithoutContext("MacTxDrop",
                                         MakeBoundCallback(&CountPacket, &f.macTxDrop));
        f.rx->TraceConnectWithoutContext("PhyRxDrop",
                                         MakeBoundCallback(&CountPacket, &f.phyRxDrop));
        if (DynamicCast<RiflNetDevice>(f.rx))
        {
            f.rx->TraceConnectWithoutContext("UndetectedError",
                                             MakeBoundCallback(&CountUndetected, &f));
        }
        else
        {
            f.rx->TraceConnectWithoutContext("UndetectedError",
                                             MakeBoundCallback(&CountDlEvent, &f.undetected));
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    // The soak's defaults; the command line (--ns3::Class::Attribute=value) overrides them.
    Config::SetDefault("ns3::RiflChannel::Ber", DoubleValue(1e-5));
    Config::SetDefault("ns3::RiflNetDevice::DrainRate", DoubleValue(0.25));
    Config::SetDefault("ns3::RiflNetDevice::Startup", StringValue("Short"));
    Config::SetDefault("ns3::RiflNetDevice::ReplayTail", StringValue("Corrected"));
    // The corrected buffer sizing: with the RTL's D = 64 for this cable a sync loss
    // meeting a replay can exceed the reordering limit (spec 10.2 / 11.8), a hazard
    // the engines count; --ns3::RiflNetDevice::FrameIdWidth=0 (derived) brings it back.
    Config::SetDefault("ns3::RiflNetDevice::FrameIdWidth", UintegerValue(7));
    Config::SetDefault("ns3::RiflNetDevice::Mtu", UintegerValue(9000));
    Config::SetDefault("ns3::DirectLinkChannel::Ber", DoubleValue(1e-5));
    Config::SetDefault("ns3::DirectLinkNetDevice::VcBufferSize", UintegerValue(4));

    double slotsD = 1e10;
    std::string link = "both";
    std::string minSizeText = std::to_string(HEADER_BYTES);
    std::string maxSizeText = "1500";
    double syncLossMeanUs = 1000.0;
    double syncLossNs = 100.0;
    double progressS = 60.0;
    bool failOnCounted = false;
    std::string output = "rifl-soak.json";
    double ppmA = 0.0;
    double ppmB = 0.0;

    CommandLine cmd(__FILE__);
    cmd.Usage("Soak of a RIFL link and a direct-link pair; any attribute via "
              "--ns3::Class::Attribute=value (e.g. --ns3::RiflNetDevice::DrainRate=0.1).");
    cmd.AddValue("slots", "frame slots per direction to run, per link (e.g. 1e10)", slotsD);
    cmd.AddValue("link", "rifl, direct-link or both (one after the other)", link);
    cmd.AddValue("minSize", "smallest packet in bytes (>= 12)", minSizeText);
    cmd.AddValue("maxSize", "largest packet in bytes (<= 9000; <= 1500 for direct-link's Mtu)",
                 maxSizeText);
    cmd.AddValue("syncLossMeanUs",
                 "RIFL: mean in-sync time between sync-loss events on every lane of both "
                 "directions, us, 0 (none) or [0.001, 1e9]",
                 syncLossMeanUs);
    cmd.AddValue("syncLossNs", "RIFL: duration of each sync-loss event, ns, [1, 1e6]", syncLossNs);
    cmd.AddValue("progressS", "wall seconds between progress lines", progressS);
    cmd.AddValue("maxWallS",
                 "stop the traffic phase after this many wall seconds even if --slots is not "
                 "reached (0 = no limit); the drain and the identity follow as usual",
                 g_maxWallS);
    cmd.AddValue("failOnCounted",
                 "also fail on counted hazards (RIFL FC FIFO drops or duplicates, direct-link "
                 "losses at Shutdown)",
                 failOnCounted);
    cmd.AddValue("out", "JSON results file", output);
    cmd.AddValue("ppmA", "RIFL: ClockOffsetPpm of device A, [-1000, 1000]", ppmA);
    cmd.AddValue("ppmB", "RIFL: ClockOffsetPpm of device B, [-1000, 1000]", ppmB);
    cmd.Parse(argc, argv);

    try
    {
        RIFL_CHECK_ARG(!(slotsD >= 1 && slotsD <= 1e15),
                       "--slots = " << slotsD << " is out of range [1, 1e15]");
        RIFL_CHECK_ARG(link != "rifl" && link != "direct-link" && link != "both",
                       "--link = " << link << " is not rifl, direct-link or both");
        using namespace riflexample;
        const auto minSize
            = static_cast<uint32_t>(ParseUnsigned("--minSize", minSizeText, HEADER_BYTES, 9000));
        const auto maxSize
            = static_cast<uint32_t>(ParseUnsigned("--maxSize", maxSizeText, 1, 9000));
        RIFL_CHECK_ARG(minSize > maxSize,
                       "--minSize = " << minSize << ", --maxSize = " << maxSize
                                      << " must satisfy 12 <= minSize <= maxSize <= 9000");
        RIFL_CHECK_ARG(link != "rifl" && maxSize > 1500,
                       "--maxSize = " << maxSize << " is above direct-link's Mtu of 1500 bytes: "
                                      << "use --maxSize <= 1500 or --link=rifl");
        const bool withRifl = link == "rifl" || link == "both";
        RIFL_CHECK_ARG(
            !withRifl
                && (ppmA != 0 || ppmB != 0 || syncLossMeanUs != 1000.0 || syncLossNs != 100.0),
            "--ppmA, --ppmB, --syncLossMeanUs and --syncLossNs apply to RIFL only, "
            "not to --link = "
                << link);
        const Time syncLossMean
            = syncLossMeanUs == 0
                  ? Time(0)
                  : MicrosecondsOption("--syncLossMeanUs", syncLossMeanUs, 1e-3, 1e9);
        CheckDouble("--syncLossNs", syncLossNs, 1, 1e6);
        const Time syncLossDuration = NanoSeconds(std::llround(syncLossNs));
        RIFL_CHECK_ARG(!(progressS > 0), "--progressS = " << progressS << " must be > 0");
        CheckDouble("--maxWallS", g_maxWallS, 0, 1e9);
        CheckAttribute("--ppmA", "ns3::RiflNetDevice", "ClockOffsetPpm", DoubleValue(ppmA));
        CheckAttribute("--ppmB", "ns3::RiflNetDevice", "ClockOffsetPpm", DoubleValue(ppmB));
        std::vector<std::string> unused;
        if (link == "rifl")
        {
            unused = {"ns3::DirectLink"};
        }
        else if (link == "direct-link")
        {
            unused = {"ns3::Rifl"};
        }
        RefuseIneffectiveAttributes(argc, argv, unused, "this soak (--link = " + link + ")",
                                    {{"ns3::RiflNetDevice::ClockOffsetPpm", "use --ppmA/--ppmB"}});
        RequireWritable("--out", output);
        const uint64_t target = static_cast<uint64_t>(std::llround(slotsD));
        nlohmann::json result;
        result["rng_run"] = RngSeedManager::GetRun();
        result["slots_target"] = target;
        result["ppm_a"] = ppmA;
        result["ppm_b"] = ppmB;
        bool ok = true;

        if (link == "rifl" || link == "both")
        {
            Soak s;
            s.name = "rifl";
            NodeContainer nodes;
            nodes.Create(2);
            RiflHelper rifl;
            rifl.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
            NetDeviceContainer devs = rifl.Install(nodes);
            devs.Get(0)->SetAttribute("ClockOffsetPpm", DoubleValue(ppmA));
            devs.Get(1)->SetAttribute("ClockOffsetPpm", DoubleValue(ppmB));
            s.riflChannel = DynamicCast<RiflChannel>(devs.Get(0)->GetChannel());
            const uint32_t lanes = DynamicCast<RiflNetDevice>(devs.Get(0))->GetLinkConfig().lanes;
            if (syncLossMean.IsStrictlyPositive())
            {
                for (uint32_t sender = 0; sender < 2; ++sender)
                {
                    for (uint32_t lane = 0; lane < lanes; ++lane)
                    {
                        Ptr<SyncLossProcess> p = CreateObject<SyncLossProcess>();
                        p->SetMeanInterval(syncLossMean);
                        p->SetDuration(syncLossDuration);
                        s.riflChannel->SetSyncLossProcess(sender, lane, p);
                        s.syncLoss.push_back(p);
                    }
                }
            }
            int64_t stream = 1;
            stream += rifl.AssignStreams(devs, stream);
            SetUpFlows(s, devs, minSize, maxSize, stream);
            for (uint32_t d = 0; d < 2; ++d)
            {
                Flow& f = s.flow[d];
                f.rx->TraceConnectWithoutContext("DuplicateDelivery",
                                                 MakeBoundCallback(&CountEvent, &f.duplicateTrace));
                f.rx->TraceConnectWithoutContext("FcFifoDrop",
                                                 MakeBoundCallback(&CountEvent, &f.fifoDropTrace));
                f.rx->TraceConnectWithoutContext("OutOfOrderDelivery",
                                                 MakeBoundCallback(&CountOutOfOrder, &f));
                f.rx->TraceConnectWithoutContext(
                    "SyncLoss", MakeBoundCallback(&CountSyncLoss, &f.syncLossEvents));
            }
            // The slot time is known once the link has started (at time 0).
            Simulator::Stop(Seconds(0));
            Simulator::Run();
            const double slotNs = s.riflChannel->GetConfig().GetSlotTimeNs();
            Ptr<RiflChannel> ch = s.riflChannel;
            auto slotStart = [ch](uint64_t n)
            {
                return ch->GetSlotStart(n);
            };
            DoubleValue ber;
            s.riflChannel->GetAttribute("Ber", ber);
            std::cout << "[rifl] " << s.riflChannel->GetConfig().ToString() << ", slot " << slotNs
                      << " ns, BER " << ber.Get() << std::endl;
            nlohmann::json j;
            j["config"] = s.riflChannel->GetConfig().ToString();
            ok = RunSoak(s, slotStart, slotNs, target, progressS, j) && ok;
            if (failOnCounted)
            {
                for (const char* d : {"a_to_b", "b_to_a"})
                {
                    ok = ok && j[d]["fc_fifo_drops"] == 0 && j[d]["duplicates_counted"] == 0
                         && j[d]["out_of_order_counted"] == 0;
                }
            }
            result["rifl"] = j;
        }
        if (link == "direct-link" || link == "both")
        {
            Soak s;
            s.name = "direct-link";
            NodeContainer nodes;
            nodes.Create(2);
            DirectLinkHelper dl;
            dl.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
            NetDeviceContainer devs = dl.Install(nodes);
            s.dlChannel = DynamicCast<DirectLinkChannel>(devs.Get(0)->GetChannel());
            int64_t stream = 1;
            stream += dl.AssignStreams(devs, stream);
            SetUpFlows(s, devs, minSize, maxSize, stream);
            for (uint32_t d = 0; d < 2; ++d)
            {
                Flow& f = s.flow[d];
                f.tx->TraceConnectWithoutContext("MessageLost",
                                                 MakeBoundCallback(&CountLost, &f.messagesLost));
                f.rx->TraceConnectWithoutContext("MessageTruncated",
                                                 MakeBoundCallback(&CountMessage, &f.truncated));
                f.tx->TraceConnectWithoutContext("Shutdown",
                                                 MakeBoundCallback(&CountDlEvent, &f.shutdowns));
            }
            Simulator::Stop(Seconds(0));
            Simulator::Run();
            const double slotNs = s.dlChannel->GetConfig().GetSlotNs();
            Ptr<DirectLinkChannel> ch = s.dlChannel;
            auto slotStart = [ch](uint64_t n)
            {
                return ch->GetSlotStart(n);
            };
            std::cout << "[direct-link] slot " << slotNs
                      << " ns, L = " << s.dlChannel->GetConfig().oneWayDelaySlots << " slots"
                      << std::endl;
            nlohmann::json j;
            ok = RunSoak(s, slotStart, slotNs, target, progressS, j) && ok;
            if (failOnCounted)
            {
                for (const char* d : {"a_to_b", "b_to_a"})
                {
                    ok = ok && j[d]["counted_losses"] == 0;
                }
            }
            result["direct_link"] = j;
        }
        result["ok"] = ok;
        std::ofstream out(output);
        out << std::setw(2) << result << std::endl;
        RIFL_CHECK_ARG(!out, "--out = " << output << " could not be written");
        std::cout << (ok ? "soak OK" : "soak FAILED") << "; results in " << output << std::endl;
        return ok ? 0 : 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "rifl-soak: " << e.what() << std::endl;
        return 1;
    }
}

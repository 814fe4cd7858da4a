/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_CHANNEL_H
#define RIFL_CHANNEL_H

#include "ns3/bit-error-process.h"
#include "ns3/channel.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/slot-clock.h"
#include "ns3/split-link-transport.h"
#include "ns3/sync-loss-process.h"
#include "ns3/traced-callback.h"
#include "rifl-link-config.h"
#include "rifl-link-engine.h"
#include "rifl-reference-engine.h"

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class RiflNetDevice;
class Packet;

/**
 * \ingroup rifl
 * \defgroup rifl-ns3 RIFL ns-3 devices, channel and helper
 */

/**
 * \ingroup rifl-ns3
 * \brief The cable between two RiflNetDevices, and the driver of their link engine.
 *
 * The channel holds what belongs to the cable (length, propagation, bit-error
 * and sync-loss processes per direction and lane) and runs the link's
 * protocol engine (RiflLinkEngine: the fast engine by default, or the
 * reference slot engine) in frame slots. Slot k of the link starts at the
 * exact time t0 + floor(k S / LaneRate) in the simulator's time resolution
 * (no accumulated rounding; at the default 1 ns resolution a 9.14 ns slot is
 * rounded down to whole ns, set Time::SetResolution(Time::PS) for sub-ns
 * accuracy). The channel schedules one ns-3 event for the next slot at which
 * the engine reports something (a delivery, a packet leaving, a protocol
 * event), never one per slot unless the reference engine is selected.
 *
 * The protocol parameters (frame size, lanes, lane rate, Frame ID width, ...)
 * are attributes of the two devices and must agree; the engine is built when
 * the link starts (at the time both devices are attached, or at simulation
 * start).
 */
class RiflChannel : public Channel
{
  public:
    /// Which engine runs the link.
    enum EngineType
    {
        FAST,      //!< RiflFastEngine: work only at packets, errors and state changes
        REFERENCE, //!< RiflReferenceEngine: one step per frame slot (for validation)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    RiflChannel();

    /// \brief Destructor.
    ~RiflChannel() override;

    /**
     * \brief Attach a device (the first is endpoint A = 0, the second B = 1).
     * \param device the device; a third one is an error.
     */
    void Attach(Ptr<RiflNetDevice> device);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \param device an attached device.
     * \return its endpoint index (0 or 1).
     */
    uint32_t GetEndpoint(Ptr<const RiflNetDevice> device) const;

    /**
     * \brief Use a bit-error process for one direction and lane (replaces the
     *        one the Ber attribute would make).
     * \param sender index of the sending device (0 or 1).
     * \param lane the lane, 0..Lanes-1.
     * \param process the process.
     */
    void SetErrorProcess(uint32_t sender, uint32_t lane, Ptr<BitErrorProcess> process);

    /**
     * \param sender index of the sending device.
     * \param lane the lane.
     * \return the process in use (null if error free).
     */
    Ptr<BitErrorProcess> GetErrorProcess(uint32_t sender, uint32_t lane) const;

    /**
     * \brief Use sync-loss events for one direction and lane.
     * \param sender index of the sending device (0 or 1).
     * \param lane the lane.
     * \param process the events.
     */
    void SetSyncLossProcess(uint32_t sender, uint32_t lane, Ptr<SyncLossProcess> process);

    /**
     * \brief Assign fixed random streams to every error process of the channel
     *        (in the order direction A to B lanes 0.., then B to A).
     * \param stream the first stream index.
     * \return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the link configuration (valid once the link started).
    const RiflLinkConfig& GetConfig() const;

    /**
     * \return the engine (null before the link started); with Split, the half engine
     *         of endpoint A (null when A runs on another MPI rank: use GetEngine(endpoint)).
     */
    RiflLinkEngine* GetEngine() const;

    /**
     * \param endpoint 0 or 1.
     * \return the engine that runs that endpoint (the link's engine, or with Split its
     *         half engine; null before the link started).
     */
    RiflLinkEngine* GetEngine(uint32_t endpoint) const;

    /**
     * \brief The lookahead a distributed run may use on this link (the Delay
     *        attribute): a line frame made at time t is needed by the peer's receiver
     *        no earlier than t + GetDelay().
     *
     * It is (L + 4) frame slots, L the one-way line delay and 4 the RX flag delay (spec
     * 11.1), rounded down to the time resolution: floor((L + 4) S / LaneRate).
     * \return the delay (0 while fewer than two devices are attached; a link across MPI
     *         ranks needs it above 0).
     */
    Time GetDelay() const;

    /// \return the duration of one frame slot (rounded to the time resolution).
    Time GetSlotDuration() const;

    /**
     * \param slot a slot index.
     * \return the exact start time of that slot.
     */
    Time GetSlotStart(uint64_t slot) const;

    /**
     * \brief Called by a device: queue a packet at its endpoint.
     * \param device the sending device.
     * \param packet the packet (with its RIFL/PPP header).
     * \return the packet id given to the engine.
     */
    uint64_t Send(Ptr<RiflNetDevice> device, Ptr<Packet> packet);

    /**
     * \param device an attached device.
     * \return packets it handed over that have not fully gone on the line.
     */
    uint64_t GetPendingPackets(Ptr<const RiflNetDevice> device) const;

    /**
     * \brief GetPendingPackets() after advancing the engine to now when it may lag
     *        behind it (the device's TX_ENDs do not wake the channel).
     *
     * Catching up only lowers the count, so a count below \p enough without it
     * is returned as it is: the caller's decision (room for one more packet) is
     * the same either way. With DeferOffers, an engine that can count the packets
     * done by now without running (RiflLinkEngine::PredictPendingPackets(): a
     * steadily loaded link with no error before now) is not caught up; it stays
     * behind until its next wake-up.
     * \param device an attached device.
     * \param enough the count from which the engine is caught up first (0: always).
     * \return packets it handed over that have not fully gone on the line by now,
     *         or a count below \p enough.
     */
    uint64_t GetPendingPacketsNow(Ptr<RiflNetDevice> device, uint64_t enough = 0);

    /**
     * \brief Called by a device whose queue holds packets the engine has no room for:
     *        make sure the engine's next TX_END of that device wakes the channel
     *        (RiflNetDevice::NeedsTxEndWake()).
     * \param device the device.
     */
    void RequireTxEndWake(Ptr<RiflNetDevice> device);

    /**
     * \param device an attached device (the receiver).
     * \return packets whose last frame sits in its RX FC FIFOs, not yet handed to it
     *         (RiflLinkEngine::GetHeldPacketEnds).
     */
    uint64_t GetHeldPacketEnds(Ptr<const RiflNetDevice> device) const;

    /// \brief Build the engine and start the link now (idempotent).
    void Start();

    /**
     * \return true once the link has started (Start()): its protocol attributes and its
     *         devices' were read then, and refuse a new value from then on.
     */
    bool IsLinkStarted() const;

    /**
     * \brief Advance the engine of an endpoint to the slot in progress now and hand
     *        over what it reports, as its next wake-up would (no-op before the link
     *        started, for a remote endpoint, or inside the engine).
     * \param endpoint 0 or 1.
     */
    void CatchUpNow(uint32_t endpoint);

    /**
     * \param endpoint 0 or 1.
     * \return true when that endpoint runs in this process: always, except in an ns-3
     *         MPI run (module built with NS3_MPI, MpiInterface enabled) where its node
     *         belongs to another rank (Node::GetSystemId()).
     */
    bool IsLocal(uint32_t endpoint) const;

    /**
     * \brief A message of the remote half arrived (ns-3 MPI: the MpiReceiver that
     *        RiflHelper aggregates to a device whose peer is on another rank calls
     *        RiflNetDevice::ReceiveRemote(), which calls this).
     *
     * Messages are a line frame (RiflReferenceEngine::EncodeLineFrame) or a chunk of
     * a packet the peer's device sent (Packet::Serialize, tags included), kept until
     * its delivery so that the delivered packet is the sent one. A malformed message
     * is a fatal error naming what is wrong.
     * \param device the receiving (local) device.
     * \param message the message.
     */
    void ReceiveRemote(Ptr<RiflNetDevice> device, Ptr<Packet> message);

    /**
     * \brief TracedCallback signature of the Delivery trace.
     * \param delivery what the engine delivered (with per-word latencies in slots).
     * \param corrupt true if its bytes differ from what was sent.
     */
    typedef void (*DeliveryTracedCallback)(const RiflDelivery& delivery, bool corrupt);

  protected:
    void DoDispose() override;

  private:
    /// One engine and the state of its wake-ups (the link's, or with Split an endpoint's).
    struct Driver
    {
        std::unique_ptr<RiflLinkEngine> engine;     //!< the engine
        uint64_t wakeGeneration{0};                 //!< number of the current wake-up
        bool wakePending{false};                    //!< the current wake-up is scheduled
        uint64_t wakeSlot{RiflLinkEngine::NEVER};   //!< slot the wake-up is for
        bool inEngine{false};                       //!< inside AdvanceTo (re-entrancy guard)
        std::vector<RiflDelivery> deliveries;       //!< collected, not yet dispatched
        std::vector<RiflLinkEvent> events;          //!< collected, not yet dispatched
    };

    /**
     * \param endpoint 0 or 1.
     * \return the index of the driver that runs it.
     */
    uint32_t DriverOf(uint32_t endpoint) const
    {
        return m_split ? endpoint : 0;
    }

    /// \brief Create the Ber-attribute error processes that are missing.
    void EnsureProcesses();
    /**
     * \brief Advance a driver's engine to the current time and dispatch what it reported.
     * \param d the driver.
     * \param generation the wake-up's number; stale ones (a later Reschedule()
     *        replaced them) do nothing.
     */
    void Wake(uint32_t d, uint64_t generation);
    /**
     * \brief RiflCanonicalTies: run every wake-up of RIFL links due at one instant,
     *        in the order they were scheduled, as one ns-3 event (see Reschedule()).
     * \param ts the instant, in time steps.
     */
    static void RunWakes(int64_t ts);
    /**
     * \brief Advance a driver's engine to the slot in progress now and hand over what
     *        it reports, unless the run is over.
     * \param d the driver.
     * \param inEvent true when called by the driver's own wake-up, an event of the run
     *        (which may be its last: ns-3 then reports the run finished while it runs);
     *        otherwise the run is over when Simulator::IsFinished() says so.
     */
    void CatchUp(uint32_t d, bool inEvent = false);
    /**
     * \brief Hand a driver's collected deliveries and events to the devices.
     * \param d the driver.
     */
    void Dispatch(uint32_t d);
    /**
     * \brief Split: a line frame of the peer's half reaches this endpoint's half.
     * \param rx the receiving endpoint.
     * \param lane the lane.
     * \param frame the frame.
     */
    void ReceiveLine(uint32_t rx, uint32_t lane, const RiflReferenceEngine::LineFrame& frame);
    /**
     * \brief Send a line frame of a local half to the peer's half: a scheduled event
     *        when the peer is local, an MPI message otherwise.
     * \param sender the sending endpoint (local).
     * \param lane the lane.
     * \param frame the frame.
     */
    void SendLine(uint32_t sender, uint32_t lane, const RiflReferenceEngine::LineFrame& frame);
    /**
     * \brief Send a packet a local device hands over to the peer's rank (MPI), in
     *        chunks, for its delivery there.
     * \param sender the sending endpoint.
     * \param id its packet id.
     * \param packet the packet.
     */
    void SendPacketRemote(uint32_t sender, uint64_t id, Ptr<const Packet> packet);
    /**
     * \param sender an endpoint.
     * \param id a packet id it sent.
     * \return the packet, or null when no longer kept.
     */
    Ptr<Packet> FindInFlight(uint32_t sender, uint64_t id) const;
    /**
     * \brief Schedule a driver's next wake-up from its engine's next event slot, after
     *        telling the engine which TX events the devices need in their own slot.
     *
     * An ns-3 event of its own, in the context of the node expected to be called
     * back; with RiflCanonicalTies (whose hand-overs wait for the canonical order of
     * the instant, so that the order of the wake-ups of one instant changes nothing),
     * an entry in the wake calendar, whose entries of one instant share one event.
     * \param d the driver.
     */
    void Reschedule(uint32_t d);
    /**
     * \brief Parse a LaneSkew attribute value.
     * \param text comma-separated slot counts ("" = no skew), e.g. "0,3,0,1".
     * \return the skews, entry l for lane l (std::invalid_argument naming LaneSkew on a
     *         bad entry).
     */
    static std::vector<uint32_t> ParseLaneSkew(const std::string& text);

    /**
     * \brief Build the link configuration from the two devices.
     * \return the configuration (throws if the devices disagree).
     */
    RiflLinkConfig BuildConfig() const;

    std::array<Ptr<RiflNetDevice>, 2> m_devices; //!< endpoints A and B
    std::size_t m_nDevices{0};                   //!< attached devices
    double m_cableLength{10.0};                  //!< metres
    Time m_cableDelay;                           //!< propagation per metre
    int64_t m_lineDelaySlots{-1};                //!< explicit one-way delay, -1 = derived
    std::string m_laneSkew;                      //!< LaneSkew attribute text
    double m_ber{0.0};                           //!< Ber attribute
    EngineType m_engineType{FAST};               //!< which engine
    std::map<std::pair<uint32_t, uint32_t>, Ptr<BitErrorProcess>> m_errors;   //!< (sender, lane)
    std::map<std::pair<uint32_t, uint32_t>, Ptr<SyncLossProcess>> m_syncLoss; //!< (sender, lane)
    int64_t m_firstStream{-1}; //!< AssignStreams base, -1 = none

    bool m_split{false};                        //!< Split attribute
    bool m_deferOffers{true};                   //!< DeferOffers attribute
    bool m_stepWakes{true};                     //!< BoundSteppedWakes attribute
    bool m_startupTemplates{true};              //!< StartupTemplates attribute

    RiflLinkConfig m_config;                    //!< effective configuration
    bool m_started{false};                      //!< the engines are built
    Time m_lookahead;                           //!< GetDelay() once started
    std::array<Driver, 2> m_drivers;            //!< [0] the link (or A's half), [1] B's half
    SlotClock m_clock;                          //!< exact slot times
    /// per endpoint: TX_BEGIN / TX_END wakes asked of the engine (SetTxEventWakes)
    std::array<std::array<bool, 2>, 2> m_txWakes{{{true, true}, {true, true}}};
    bool m_remote{false};                       //!< the ends run on different MPI ranks
    std::array<uint64_t, 2> m_nextPacketId{{1, 1}}; //!< per sender: next engine packet id
    /// A packet handed to the engine, kept while the engine may still deliver it.
    struct HeldPacket
    {
        uint64_t id{0};        //!< the engine's packet id
        Ptr<Packet> packet;    //!< the packet as sent
        uint64_t framesEnd{0}; //!< the sender's user frames up to and including this packet
    };

    /// Per remote sender (MPI): packets announced by the peer's rank, by increasing id,
    /// kept as m_inFlight.
    std::array<std::deque<HeldPacket>, 2> m_announced;
    /// Per remote sender (MPI): user frames of the packets announced so far.
    std::array<uint64_t, 2> m_announcedFrames{{0, 0}};
    /// Per local endpoint (MPI): its messages to the peer's rank and the peer's to it.
    std::array<SplitLinkTransport, 2> m_transport;
    /// Per sender: sent packets by increasing id. A packet is kept until a delivery
    /// of a packet at least m_holdFrames user frames newer: by then none of its
    /// frames is in a retransmission buffer, so no replay can deliver it again and
    /// a duplicate can always be compared with what was sent.
    std::array<std::deque<HeldPacket>, 2> m_inFlight;
    /// Per sender: user frames of the packets sent so far.
    std::array<uint64_t, 2> m_sentFrames{{0, 0}};
    /// Lanes x (buffer depth + 2): see m_inFlight.
    uint64_t m_holdFrames{0};
    /// Per sender: lean deliveries that came with their payload (RiflDelivery::source).
    /// Such a delivery needs no lookup in m_inFlight; one in RELEASE_EVERY looks its
    /// packet up all the same, to release the packets it makes old.
    std::array<uint64_t, 2> m_sourcedDeliveries{{0, 0}};
    TracedCallback<const RiflDelivery&, bool> m_deliveryTrace; //!< the Delivery trace
};

} // namespace ns3

#endif /* RIFL_CHANNEL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_CHANNEL_H
#define DIRECT_LINK_CHANNEL_H

#include "direct-link-config.h"
#include "direct-link-link-engine.h"
#include "direct-link-reference-engine.h"
#include "ns3/bit-error-process.h"
#include "ns3/channel.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/slot-clock.h"
#include "ns3/split-link-transport.h"

#include <array>
#include <map>
#include <memory>
#include <vector>

namespace ns3
{

class DirectLinkNetDevice;

/**
 * \ingroup direct-link-ns3
 * \brief The serial cable between two DirectLinkNetDevices, and the driver of
 *        their DirectLinkLinkEngine.
 *
 * The channel holds what belongs to the cable (LineRate, length and
 * propagation or an explicit one-way delay in micro-packet times, one
 * bit-error process per direction) and runs the link's engine in
 * micro-packet slots. Slot k starts at the exact time
 * t0 + floor(k 192 / LineRate) in the simulator's time resolution (no
 * accumulated rounding; at 5 Gb/s and the default 1 ns resolution the
 * 38.4 ns slots start on whole ns, alternately 38 and 39 ns apart; set
 * Time::SetResolution(Time::PS) for exact slot boundaries). t0 is the time
 * the link starts (the simulation time at which the second device attached).
 *
 * One ns-3 event is scheduled for the next slot at which the engine reports
 * something (NextEventSlot); the engine's callbacks are collected during
 * AdvanceTo and handed to the devices afterwards, so that upper layers may
 * send from inside them. A callback of slot n is dispatched at the start of
 * slot n + 1.
 *
 * **Offer timing.** A message offered at a slot boundary start(s) may go on
 * the line in slot s; one offered inside slot s is held by the channel and
 * offered at start(s + 1) (a real NI cannot start a micro-packet that is
 * already on the wire). So a message sent in reaction to a delivery
 * dispatched at start(n + 1) leaves in slot n + 1 exactly.
 */
class DirectLinkChannel : public Channel
{
  public:
    /// Which engine runs the link.
    enum EngineType
    {
        FAST,      //!< DirectLinkFastEngine (the reference engine until it exists)
        REFERENCE, //!< DirectLinkReferenceEngine: one step per micro-packet time
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    DirectLinkChannel();

    /// \brief Destructor.
    ~DirectLinkChannel() override;

    /**
     * \brief Attach a device (the first is side A = 0, the second B = 1).
     * \param device the device; a third one is an error.
     */
    void Attach(Ptr<DirectLinkNetDevice> device);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * \param device an attached device.
     * \return its side (0 or 1).
     */
    uint32_t GetSide(Ptr<const DirectLinkNetDevice> device) const;

    /**
     * \brief Use a bit-error process for one direction (replaces the Ber attribute's).
     * \param sender the sending side, 0 (A -> B) or 1 (B -> A).
     * \param process the process (null = error free).
     */
    void SetErrorProcess(uint32_t sender, Ptr<BitErrorProcess> process);

    /**
     * \param sender the sending side.
     * \return the process of that direction (null if error free).
     */
    Ptr<BitErrorProcess> GetErrorProcess(uint32_t sender) const;

    /**
     * \brief Assign fixed random streams to the error processes (A -> B first).
     * \param stream the first stream index.
     * \return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

    /// \return the link configuration (valid once the link started).
    const DirectLinkConfig& GetConfig() const;

    /// \return the engine (null before the link started).
    DirectLinkLinkEngine* GetEngine() const;

    /// \return the one-way delay in micro-packet times from the attributes.
    uint32_t GetOneWayDelaySlots() const;

    /// \return the line rate in bit/s.
    uint64_t GetLineRateBps() const;

    /**
     * \param slot a slot index.
     * \return the exact start time of that slot (valid once the link started).
     */
    Time GetSlotStart(uint64_t slot) const;

    /**
     * \param t a time.
     * \return the slot in progress at t.
     */
    uint64_t SlotAt(Time t) const;

    /**
     * \brief Called by a device: offer a message at its side (now, or at the next
     *        slot boundary, see the class description).
     * \param device the sending device.
     * \param messageId unique per device.
     * \param dstCpu destination CPU.
     * \param srcCpu source CPU.
     * \param msgClass message class.
     * \param vc virtual channel.
     * \param bytes the content.
     * \param flags NetErr / NcErr and announced length (DirectLinkMessageFlags).
     */
    void Offer(Ptr<DirectLinkNetDevice> device, uint64_t messageId, uint32_t dstCpu,
               uint32_t srcCpu, uint32_t msgClass, uint32_t vc, const std::vector<uint8_t>& bytes,
               const DirectLinkMessageFlags& flags = DirectLinkMessageFlags());

    /// \brief Build the engine and start the link now (idempotent).
    void Start();

    /**
     * \return true once the link has started (Start() built its configuration): the
     *         attributes it read then, this channel's (LineRate, CableLength, CableDelay,
     *         SerDesDelay, OneWayDelaySlots, Ber, Engine, PredictBusy, Split) and its
     *         devices' protocol attributes, refuse a new value from then on.
     */
    bool IsLinkStarted() const;

    /**
     * \brief The lookahead a distributed run may use on this link (the Delay attribute):
     *        a line record of slot x is made at the start of slot x + 1 and needed before
     *        the peer runs slot x + L at the start of x + L + 1, so it is sent to arrive at
     *        the start of x + L: floor((L - 1) x 192 / LineRate) later.
     * \return the delay (0 with fewer than two devices or L < 2; a link across MPI ranks
     *         then aborts at start).
     */
    Time GetDelay() const;
    /**
     * \param side 0 or 1.
     * \return false only if that side's node runs on another rank of an ns-3 MPI run
     *         (module built with NS3_MPI, MpiInterface enabled).
     */
    bool IsLocal(uint32_t side) const;
    /**
     * \brief A message of the peer's rank arrived (ns-3 MPI: the MpiReceiver that
     *        DirectLinkHelper aggregates to each device of a link across ranks calls
     *        DirectLinkNetDevice::ReceiveRemote(), which calls this).
     * \param device the local device it arrived at.
     * \param message the message.
     */
    void ReceiveRemote(Ptr<DirectLinkNetDevice> device, Ptr<Packet> message);
    /**
     * \brief Called by a device: stop (hold) or resume its NI's draining of one VC's
     *        receive buffer, from the slot in progress on (kept until the link starts).
     * \param device the receiving device.
     * \param vc the VC, 0..3.
     * \param hold true to stop, false to resume at the configured drain interval.
     */
    void SetDrainHold(Ptr<DirectLinkNetDevice> device, uint32_t vc, bool hold);

  protected:
    void DoDispose() override;

  private:
    /// An offer held until the next slot boundary.
    struct HeldOffer
    {
        uint32_t side{0};             //!< sending side
        uint64_t id{0};               //!< message id
        uint32_t dst{0};              //!< destination CPU
        uint32_t src{0};              //!< source CPU
        uint32_t cls{0};              //!< class
        uint32_t vc{0};               //!< VC
        std::vector<uint8_t> bytes;   //!< content
        DirectLinkMessageFlags flags; //!< flags
    };

    /// A callback collected during AdvanceTo.
    struct Collected
    {
        uint8_t kind{0};                     //!< 0 event, 1 delivery, 2 loss
        DirectLinkEvent event;               //!< kind 0
        DirectLinkDeliveredMessage delivery; //!< kind 1
        DirectLinkLostMessage loss;          //!< kind 2
    };

    /// \brief Create the Ber-attribute error processes that are missing.
    void EnsureProcesses();
    /// \brief Advance the engine to the current time and dispatch what it reported.
    void Wake();
    /// \brief Advance the engine to the slot in progress now.
    void CatchUp();
    /// \brief Offer the held messages (at a slot boundary).
    void ReleaseHeld();
    /// \brief Hand collected callbacks to the devices.
    void Dispatch();
    /// \brief Schedule the next wake-up from the engine's next event slot.
    void Reschedule();
    /// \return the configuration built from the two devices (throws if they disagree).
    DirectLinkConfig BuildConfig() const;
    /**
     * \brief Across ranks: send a line record of the local half to the peer's rank, to
     *        arrive at the start of the slot it is due in.
     * \param r the record.
     */
    void SendRecord(const DirectLinkReferenceEngine::LineRecord& r);

    std::array<Ptr<DirectLinkNetDevice>, 2> m_devices;   //!< sides A and B
    std::size_t m_nDevices{0};                           //!< attached devices
    uint64_t m_lineRateBps{5000000000ULL};               //!< LineRate
    double m_cableLength{1.0};                           //!< CableLength, m
    Time m_cableDelay;                                   //!< CableDelay per m
    Time m_serdesDelay;                                  //!< SerDesDelay
    int64_t m_delaySlots{-1};                            //!< OneWayDelaySlots, -1 = derived
    double m_ber{0.0};                                   //!< Ber
    EngineType m_engineType{FAST};                       //!< Engine
    bool m_predictBusy{true};                            //!< PredictBusy
    bool m_split{false};                                 //!< Split
    bool m_started{false};                               //!< Start() built the configuration
    bool m_remote{false};                 //!< the ends run on different MPI ranks
    uint32_t m_local{0};                  //!< the local side when remote
    DirectLinkReferenceEngine* m_half{nullptr}; //!< the local half (m_engine) when remote
    Time m_lookahead;                     //!< GetDelay() once started
    std::array<SplitLinkTransport, 2> m_transport; //!< by local side, when remote
    /// when remote: packets the peer's device sent, by message id, until delivered
    std::map<uint64_t, Ptr<Packet>> m_remotePackets;
    std::array<Ptr<BitErrorProcess>, 2> m_errors;        //!< by sending side
    std::array<bool, 2> m_explicitError{{false, false}}; //!< set by SetErrorProcess

    DirectLinkConfig m_config;                        //!< effective configuration
    std::unique_ptr<DirectLinkLinkEngine> m_engine;   //!< the engine
    SlotClock m_clock;                                //!< exact slot times
    EventId m_wake;                                   //!< next wake-up
    uint64_t m_wakeSlot{DirectLinkLinkEngine::NEVER}; //!< slot the wake-up is for
    bool m_inEngine{false};                           //!< inside AdvanceTo
    bool m_dispatching{false};                        //!< inside Dispatch
    std::vector<HeldOffer> m_held;                    //!< offers waiting for a boundary
    EventId m_heldEvent;                              //!< releases m_held
    std::vector<Collected> m_collected;               //!< callbacks, in engine order
    std::array<std::array<bool, DirectLinkConfig::NUM_VCS>, 2> m_hold{}; //!< drain holds
};

} // namespace ns3

#endif /* DIRECT_LINK_CHANNEL_H */

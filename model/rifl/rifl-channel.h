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
#include "ns3/sync-loss-process.h"
#include "ns3/traced-callback.h"
#include "rifl-link-config.h"
#include "rifl-link-engine.h"

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

    /// \return the engine (null before the link started).
    RiflLinkEngine* GetEngine() const;

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
     * \param device an attached device.
     * \return packets it handed over that have not fully gone on the line by now.
     */
    uint64_t GetPendingPacketsNow(Ptr<RiflNetDevice> device);

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
     * \brief TracedCallback signature of the Delivery trace.
     * \param delivery what the engine delivered (with per-word latencies in slots).
     * \param corrupt true if its bytes differ from what was sent.
     */
    typedef void (*DeliveryTracedCallback)(const RiflDelivery& delivery, bool corrupt);

  protected:
    void DoDispose() override;

  private:
    /// \brief Create the Ber-attribute error processes that are missing.
    void EnsureProcesses();
    /**
     * \brief Advance the engine to the current time and dispatch what it reported.
     * \param generation the wake-up's number; stale ones (a later Reschedule()
     *        replaced them) do nothing.
     */
    void Wake(uint64_t generation);
    /// \brief Advance the engine to the slot in progress now.
    void CatchUp();
    /// \brief Hand collected deliveries and events to the devices.
    void Dispatch();

    /**
     * \param sender an endpoint.
     * \param id a packet id it sent.
     * \return the packet, or null when no longer kept.
     */
    Ptr<Packet> FindInFlight(uint32_t sender, uint64_t id) const;
    /**
     * \brief Schedule the next wake-up from the engine's next event slot, after
     *        telling the engine which TX events the devices need in their own slot.
     */
    void Reschedule();
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

    RiflLinkConfig m_config;                    //!< effective configuration
    std::unique_ptr<RiflLinkEngine> m_engine;   //!< the engine
    SlotClock m_clock;                          //!< exact slot times
    uint64_t m_wakeGeneration{0};               //!< number of the current wake-up
    bool m_wakePending{false};                  //!< the current wake-up is scheduled
    uint64_t m_wakeSlot{RiflLinkEngine::NEVER}; //!< slot the wake-up is for
    bool m_inEngine{false};                     //!< inside AdvanceTo (re-entrancy guard)
    /// per endpoint: TX_BEGIN / TX_END wakes asked of the engine (SetTxEventWakes)
    std::array<std::array<bool, 2>, 2> m_txWakes{{{true, true}, {true, true}}};
    uint64_t m_nextPacketId{1};                 //!< next engine packet id
    /// Per sender: sent packets by increasing id (kept until 64 ids past delivery).
    std::array<std::deque<std::pair<uint64_t, Ptr<Packet>>>, 2> m_inFlight;
    std::vector<RiflDelivery> m_deliveries;                    //!< collected, not yet dispatched
    std::vector<RiflLinkEvent> m_events;                       //!< collected, not yet dispatched
    TracedCallback<const RiflDelivery&, bool> m_deliveryTrace; //!< the Delivery trace
};

} // namespace ns3

#endif /* RIFL_CHANNEL_H */

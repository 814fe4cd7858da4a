/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_INTERFACE_UNIT_H
#define DIRECT_LINK_INTERFACE_UNIT_H

#include "direct-link-net-device.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup direct-link-ns3
 * \brief Counters of a DLIU.
 */
struct DirectLinkInterfaceUnitCounters
{
    uint64_t messagesSent{0};     //!< messages this CPU sent (Send accepted by a device)
    uint64_t sendFailures{0};     //!< Send() refused (no route or device queue full)
    uint64_t localDelivered{0};   //!< messages handed to the local receiver
    uint64_t localErrored{0};     //!< of which with NetErr/NcErr or truncated/malformed
    uint64_t forwarded{0};        //!< messages forwarded toward their destination
    uint64_t forwardTruncated{0}; //!< truncated/malformed messages not forwarded (traced)
    uint64_t noRoute{0};          //!< messages with no output device (counted lost)
    uint64_t maxReceiveQueue{0};  //!< largest per-interface receive-queue occupancy seen
};

/**
 * \ingroup direct-link-ns3
 * \brief The direct-link interface unit (DLIU) of one CPU, aggregated to its node.
 *
 * Owns the node's direct-link devices (n - 1 of them in a full mesh), has a
 * CPU number, and holds a routing table destination CPU -> output device
 * (SetRoute(); without an entry, the device whose peer node's DLIU has that
 * CPU number). Its NI maps message classes to VCs (RequestClass on
 * RequestVc, default VC0; ResponseClass on ResponseVc, default VC1; any
 * other class on OtherVc, default VC3) so that responses never wait behind
 * requests; on the line the engine interleaves VCs micro-packet by
 * micro-packet (round robin among VCs holding credit).
 *
 * **Receive and forwarding.** Each interface has its own receive queue.
 * A received message whose destination is this CPU goes to the local
 * receiver callback, with its error flags (NetErr / NcErr, truncated,
 * malformed) as message-level errors. Any other message is forwarded
 * **store-and-forward**: only once it has been received completely (the NI
 * delivered its tail) is it queued, after ForwardingDelay, on the output
 * device toward its destination, on the same VC, with its routing word
 * unchanged. A truncated or malformed message in transit is not forwarded
 * (the engine cannot yet send a message with NetErr set; see ForwardDrop).
 * Messages without a route are counted lost (NO_ROUTE) on the input device.
 */
class DirectLinkInterfaceUnit : public Object
{
  public:
    /// Local receiver: every message addressed to this CPU.
    typedef Callback<void, const DirectLinkMessage&> ReceiveCallback;

    /**
     * \brief TracedCallback signature of LocalRx.
     * \param message the message.
     */
    typedef void (*MessageTracedCallback)(const DirectLinkMessage& message);

    /**
     * \brief TracedCallback signature of Forward and ForwardDrop.
     * \param message the message.
     * \param value Forward: index of the output device; ForwardDrop: a DirectLinkLossReason.
     */
    typedef void (*ForwardTracedCallback)(const DirectLinkMessage& message, uint32_t value);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    DirectLinkInterfaceUnit();

    /// \brief Destructor.
    ~DirectLinkInterfaceUnit() override;

    /**
     * \brief Take a device of this node (idempotent); its messages now come here.
     * \param device the device.
     */
    void AddDevice(Ptr<DirectLinkNetDevice> device);

    /// \return the number of devices.
    uint32_t GetNDevices() const;

    /**
     * \param i index, 0..GetNDevices()-1.
     * \return the device.
     */
    Ptr<DirectLinkNetDevice> GetDevice(uint32_t i) const;

    /// \return the CPU number.
    uint32_t GetCpuNumber() const;

    /**
     * \param cpu the CPU number, 0..255.
     */
    void SetCpuNumber(uint32_t cpu);

    /**
     * \brief Route messages for \p dstCpu through \p device (one of this DLIU's).
     * \param dstCpu destination CPU, 0..255.
     * \param device the output device.
     */
    void SetRoute(uint32_t dstCpu, Ptr<DirectLinkNetDevice> device);

    /// \brief Remove every explicit route (back to the neighbour default).
    void ClearRoutes();

    /**
     * \param dstCpu a destination CPU.
     * \return the output device toward it (explicit route, else the device whose peer is
     *         that CPU), or null.
     */
    Ptr<DirectLinkNetDevice> GetRoute(uint32_t dstCpu) const;

    /// \return the CPUs this DLIU can reach: its neighbours and the explicit routes.
    std::vector<uint32_t> GetReachableCpus() const;

    /**
     * \param msgClass a message class.
     * \return the VC the NI uses for it.
     */
    uint32_t GetVcForClass(uint32_t msgClass) const;

    /**
     * \brief Send a message from this CPU.
     * \param dstCpu destination CPU (not this one: std::invalid_argument naming "dstCpu").
     * \param msgClass message class, 0..15 (the VC follows from it).
     * \param bytes the content.
     * \return the sending device's message id, or 0 if refused (no route: counted in
     *         sendFailures and traced by ForwardDrop; device queue full: counted by it).
     */
    uint64_t Send(uint32_t dstCpu, uint32_t msgClass, const std::vector<uint8_t>& bytes);

    /**
     * \brief Set the local receiver.
     * \param cb the callback.
     */
    void SetReceiveCallback(ReceiveCallback cb);

    /// \return the counters.
    DirectLinkInterfaceUnitCounters GetCounters() const;

    /// \return the message class of requests.
    uint32_t GetRequestClass() const;
    /// \return the message class of responses.
    uint32_t GetResponseClass() const;

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    /**
     * \brief A device received a message.
     * \param device the input device.
     * \param message the message.
     */
    void OnDeviceReceive(Ptr<DirectLinkNetDevice> device, const DirectLinkMessage& message);
    /**
     * \brief Process the head of an interface's receive queue.
     * \param i the interface index.
     */
    void ProcessQueue(uint32_t i);
    /**
     * \brief Deliver locally or forward.
     * \param i input interface. \param m the message.
     */
    void Handle(uint32_t i, const DirectLinkMessage& m);
    /// \brief Tell each device the CPU numbers of its ends.
    void UpdateCpuNumbers();
    /**
     * \param device a device.
     * \return its index (GetNDevices() if not ours).
     */
    uint32_t IndexOf(Ptr<const DirectLinkNetDevice> device) const;

    uint32_t m_cpu{0};                                                     //!< CpuNumber
    uint32_t m_requestClass{0};                                            //!< RequestClass
    uint32_t m_responseClass{1};                                           //!< ResponseClass
    uint32_t m_requestVc{0};                                               //!< RequestVc
    uint32_t m_responseVc{1};                                              //!< ResponseVc
    uint32_t m_otherVc{3};                                                 //!< OtherVc
    Time m_forwardingDelay;                                                //!< ForwardingDelay
    std::vector<Ptr<DirectLinkNetDevice>> m_devices;                       //!< interfaces
    std::map<uint32_t, Ptr<DirectLinkNetDevice>> m_routes;                 //!< explicit routes
    std::vector<std::deque<DirectLinkMessage>> m_rxQueues;                 //!< per interface
    std::vector<EventId> m_rxEvents;                                       //!< per interface
    ReceiveCallback m_receiver;                                            //!< local receiver
    DirectLinkInterfaceUnitCounters m_counters;                            //!< counters
    TracedCallback<const DirectLinkMessage&> m_localRxTrace;               //!< LocalRx
    TracedCallback<const DirectLinkMessage&, uint32_t> m_forwardTrace;     //!< Forward
    TracedCallback<const DirectLinkMessage&, uint32_t> m_forwardDropTrace; //!< ForwardDrop
};

} // namespace ns3

#endif /* DIRECT_LINK_INTERFACE_UNIT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_INTERFACE_UNIT_H
#define DIRECT_LINK_INTERFACE_UNIT_H

#include "direct-link-net-device.h"
#include "direct-link-port.h"
#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <utility>
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
    uint64_t forwardTruncated{0}; //!< truncated or malformed messages in transit
    uint64_t forwardedNetErr{0};  //!< of which truncated, forwarded with a NetErr tail
    uint64_t forwardMalformed{0}; //!< of which malformed, not forwarded (counted lost, MALFORMED)
    uint64_t localNetErr{0};      //!< local deliveries with NetErr set
    uint64_t noRoute{0};          //!< messages with no output device (counted lost)
    uint64_t maxReceiveQueue{0};  //!< largest per-interface receive-queue occupancy seen
    uint64_t forwardWaits{0};     //!< messages in transit that waited for room at their output
    uint64_t injectionWaits{0};   //!< local messages that waited for room at their output
    uint64_t maxInputHold{0};     //!< largest number of messages waiting at one input VC
    uint64_t drainHolds{0};       //!< times an input VC's drain was held (back-pressure)
};

/**
 * \ingroup direct-link-ns3
 * \brief The direct-link interface unit (DLIU) of one CPU, aggregated to its node.
 *
 * Owns the node's interfaces (n - 1 of them in a full mesh), has a CPU
 * number, and holds a routing table destination CPU -> output interface
 * (SetRoute(); without an entry, the interface whose peer node's DLIU has
 * that CPU number). An interface is a DirectLinkPort: a DirectLinkNetDevice
 * (AddDevice(), the direct-link technology) or a RiflMessagePort over a
 * RiflNetDevice (AddPort(), RIFL carrying the DLIU's messages); the devices
 * below stand for either. Its NI maps message classes to VCs (RequestClass on
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
 * device toward its destination, with its routing word unchanged.
 *
 * **Shutdown while forwarding (spec §4.2).** A message in transit that its
 * input link's Shutdown (or the peer's reset) truncated is forwarded as what
 * arrived, completed by a tail micro-packet carrying NetErr and with the
 * original length in its routing word (DirectLinkMessageFlags); the
 * destination receives it truncated with NetErr (TruncationReason UPSTREAM),
 * counted in forwardedNetErr and traced by Forward (the message's truncated
 * and netErr flags are set). A malformed message in transit (only after an
 * undetected error) is not forwarded: counted lost (MALFORMED) on its input
 * device and traced by ForwardDrop. Messages without a route are counted lost
 * (NO_ROUTE) on the input device.
 *
 * **VC of a forwarded message (VcPolicy).** SameVc: the VC it arrived on.
 * Dateline: every output device has a link class (SetLinkClass: dimension,
 * dateline flag); outVc = (same dimension as the input link ? inVc : inVc & 1)
 * | (output link is a dateline ? 2 : 0), and a locally originated message
 * takes GetVcForClass(class) | (dateline ? 2 : 0). With dimension-order
 * shortest routes on rings and tori this is the dateline scheme (requests
 * VC0 -> VC2, responses VC1 -> VC3 from the dateline hop of a dimension on;
 * MultiprocessorTopologyHelper::DatelineVc), whose channel dependency graph
 * is acyclic. IP traffic (IpVc, default VC2) is never forwarded by the DLIU
 * (the IP layer routes it hop by hop), so sharing VC2 with requests past a
 * dateline adds no dependency; it shares VC2's credits and bandwidth only. A
 * message whose (class, VC) would be an output device's (IpClass, IpVc) is
 * a configuration error (std::invalid_argument).
 *
 * **Back-pressure.** A message handed on (forwarded or local) enters its
 * output device's VC queue only while that queue holds fewer than
 * OutputQueueMessages messages (0 = no limit, the device queue's own
 * MessageQueueLimit applies). Otherwise it waits: in transit at its input (one
 * FIFO per input interface and VC), local in an injection queue per output
 * and VC (InjectionQueueLimit; a full one refuses Send, counted lost
 * QUEUE_FULL on the output device). When an output VC queue gets shorter, the
 * waiting sources for it are served round robin (every input, then local).
 * When InputHoldMessages messages wait at an input VC, the DLIU holds that
 * VC's NI drain on the input link (DirectLinkNetDevice::SetReceiveHold): no
 * credit goes back and the upstream sender stalls on that VC only; the hold is
 * released when fewer wait. So a cycle of full buffers is a real deadlock, broken
 * only by the spec's CrdNullTime Shutdown (whose losses and truncations are
 * counted). A reset of the input link flushes its VC buffers, so more than
 * InputHoldMessages may wait then.
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

    /// VC choice for forwarded and local messages.
    enum VcPolicy
    {
        SAME_VC,  //!< forward on the VC the message arrived on
        DATELINE, //!< dateline VCs by link class (see the class description)
    };

    /// \brief Constructor.
    DirectLinkInterfaceUnit();

    /// \brief Destructor.
    ~DirectLinkInterfaceUnit() override;

    /**
     * \brief Take a direct-link device of this node (idempotent): a DirectLinkDevicePort
     *        is made for it; its messages now come here.
     * \param device the device.
     */
    void AddDevice(Ptr<DirectLinkNetDevice> device);

    /**
     * \brief Take an interface of this node (idempotent per device): any link technology
     *        (DirectLinkDevicePort, RiflMessagePort); its messages now come here.
     * \param port the port, with its device (std::invalid_argument otherwise).
     */
    void AddPort(Ptr<DirectLinkPort> port);

    /// \return the number of interfaces.
    uint32_t GetNDevices() const;

    /**
     * \param i index, 0..GetNDevices()-1.
     * \return the interface's direct-link device, or null if the interface is of another
     *         link technology (GetNetDevice()).
     */
    Ptr<DirectLinkNetDevice> GetDevice(uint32_t i) const;

    /**
     * \param i index, 0..GetNDevices()-1.
     * \return the interface's device, of either link technology.
     */
    Ptr<NetDevice> GetNetDevice(uint32_t i) const;

    /**
     * \param i index, 0..GetNDevices()-1.
     * \return the interface's port.
     */
    Ptr<DirectLinkPort> GetPort(uint32_t i) const;

    /// \return the CPU number.
    uint32_t GetCpuNumber() const;

    /**
     * \param cpu the CPU number, 0..255.
     */
    void SetCpuNumber(uint32_t cpu);

    /**
     * \brief Route messages for \p dstCpu through \p device (one of this DLIU's).
     * \param dstCpu destination CPU, 0..255.
     * \param device the output interface's device.
     */
    void SetRoute(uint32_t dstCpu, Ptr<NetDevice> device);

    /// \brief Remove every explicit route (back to the neighbour default).
    void ClearRoutes();

    /**
     * \param dstCpu a destination CPU.
     * \return the output interface's device toward it (explicit route, else the interface
     *         whose peer is that CPU), or null.
     */
    Ptr<NetDevice> GetRoute(uint32_t dstCpu) const;

    /**
     * \param dstCpu a destination CPU.
     * \return the output interface's port toward it (as GetRoute()), or null.
     */
    Ptr<DirectLinkPort> GetRoutePort(uint32_t dstCpu) const;

    /// \return the CPUs this DLIU can reach: its neighbours and the explicit routes.
    std::vector<uint32_t> GetReachableCpus() const;

    /**
     * \brief Give an output device its link class (VcPolicy Dateline).
     * \param device one of this DLIU's devices (std::invalid_argument otherwise).
     * \param dimension the link's dimension (ring: 0; torus: 0 = X, 1 = Y), 0..255.
     * \param dateline true if the link is a dateline (wrap link of a ring).
     */
    void SetLinkClass(Ptr<NetDevice> device, uint32_t dimension, bool dateline);

    /**
     * \param device one of this DLIU's devices.
     * \return its (dimension, dateline) (default (0, false)).
     */
    std::pair<uint32_t, bool> GetLinkClass(Ptr<NetDevice> device) const;

    /// \param policy the VC policy (also the VcPolicy attribute).
    void SetVcPolicy(VcPolicy policy);

    /// \return the VC policy.
    VcPolicy GetVcPolicy() const;

    /**
     * \brief The VC a message in transit takes on its output device.
     * \param in the input device. \param inVc the VC it arrived on, 0..3.
     * \param out the output device.
     * \return the output VC (VcPolicy).
     */
    uint32_t GetForwardVc(Ptr<NetDevice> in, uint32_t inVc, Ptr<NetDevice> out) const;

    /**
     * \brief The VC a message sent by this CPU takes on its output device.
     * \param msgClass the message class. \param out the output device.
     * \return GetVcForClass(msgClass), | 2 on a dateline output under VcPolicy Dateline.
     */
    uint32_t GetLocalVc(uint32_t msgClass, Ptr<NetDevice> out) const;

    /// \return messages waiting for room at their output (in transit and local).
    uint64_t GetWaitingMessages() const;

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
     * \return a nonzero number of this DLIU's send (1, 2, ...; the message reaches the
     *         output device at once or after waiting for room, see Back-pressure), or 0 if
     *         refused (no route: counted in sendFailures and traced by ForwardDrop; device
     *         queue or injection queue full: counted lost QUEUE_FULL by the device).
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
    /// A message waiting for room at its output.
    struct Waiting
    {
        DirectLinkMessage message;    //!< routing word, bytes, flags as received / sent
        uint32_t out{0};              //!< output device index
        uint32_t vc{0};               //!< output VC
        DirectLinkMessageFlags flags; //!< NetErr tail for truncated copies
    };

    /**
     * \param out output device index. \param vc output VC.
     * \return true if the output VC queue has room (OutputQueueMessages).
     */
    bool HasRoom(uint32_t out, uint32_t vc) const;
    /**
     * \brief Hand a message to its output device.
     * \param w the message.
     */
    void Emit(const Waiting& w);
    /**
     * \brief An output VC queue got shorter: serve waiting sources round robin.
     * \param port the output interface. \param vc the VC.
     */
    void OnTxSpace(Ptr<DirectLinkPort> port, uint32_t vc);
    /**
     * \param in input interface index. \param inVc its VC. \param out output interface index.
     * \return the VC of a forwarded message (VcPolicy).
     */
    uint32_t ForwardVc(uint32_t in, uint32_t inVc, uint32_t out) const;
    /**
     * \param msgClass a message class. \param out output interface index.
     * \return the VC of a local message (VcPolicy).
     */
    uint32_t LocalVc(uint32_t msgClass, uint32_t out) const;
    /**
     * \param dstCpu a destination CPU.
     * \return the output interface index toward it, or GetNDevices() if none.
     */
    uint32_t RouteIndex(uint32_t dstCpu) const;
    /**
     * \param i an interface index.
     * \return the DLIU at its other end, or null.
     */
    Ptr<DirectLinkInterfaceUnit> PeerDliu(uint32_t i) const;
    /**
     * \brief Serve waiting sources of one output VC while it has room.
     * \param out output device index. \param vc the VC.
     */
    void Serve(uint32_t out, uint32_t vc);
    /**
     * \brief Queue Serve(out, vc) and run the queue unless already running.
     * \param out output device index. \param vc the VC.
     */
    void RequestServe(uint32_t out, uint32_t vc);
    /**
     * \brief Hold or release the drain of an input VC from its waiting count.
     * \param in input device index. \param vc the VC.
     */
    void UpdateHold(uint32_t in, uint32_t vc);
    /**
     * \brief Throw if (class, vc) is the output device's IP pair.
     * \param m the message. \param out output device index. \param vc output VC.
     */
    void CheckNotIp(const DirectLinkMessage& m, uint32_t out, uint32_t vc) const;

    /**
     * \brief An interface received a message.
     * \param port the input interface.
     * \param message the message.
     */
    void OnPortReceive(Ptr<DirectLinkPort> port, const DirectLinkMessage& message);
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
     * \return the index of its interface (GetNDevices() if not ours).
     */
    uint32_t IndexOf(Ptr<const NetDevice> device) const;

    uint32_t m_cpu{0};                                  //!< CpuNumber
    uint32_t m_requestClass{0};                         //!< RequestClass
    uint32_t m_responseClass{1};                        //!< ResponseClass
    uint32_t m_requestVc{0};                            //!< RequestVc
    uint32_t m_responseVc{1};                           //!< ResponseVc
    uint32_t m_otherVc{3};                              //!< OtherVc
    VcPolicy m_vcPolicy{SAME_VC};                       //!< VcPolicy
    uint32_t m_outputQueue{4};                          //!< OutputQueueMessages
    uint32_t m_inputHold{2};                            //!< InputHoldMessages
    uint32_t m_injectionLimit{1024};                    //!< InjectionQueueLimit
    uint64_t m_sendNumber{0};                           //!< last Send number
    std::vector<std::pair<uint32_t, bool>> m_linkClass; //!< by device: dimension, dateline
    /// [input device][VC]: messages in transit waiting for room at their output
    std::vector<std::array<std::deque<Waiting>, DirectLinkConfig::NUM_VCS>> m_inWait;
    /// [output device][VC]: local messages waiting for room
    std::vector<std::array<std::deque<Waiting>, DirectLinkConfig::NUM_VCS>> m_localWait;
    /// [output device][VC]: round-robin pointer over sources (inputs, then local)
    std::vector<std::array<uint32_t, DirectLinkConfig::NUM_VCS>> m_rr;
    bool m_serving{false};                                   //!< serving m_serveQueue (no re-entry)
    std::deque<std::pair<uint32_t, uint32_t>> m_serveQueue;  //!< (output, VC) to serve
    Time m_forwardingDelay;                                  //!< ForwardingDelay
    std::vector<Ptr<DirectLinkPort>> m_ports;                //!< interfaces
    std::map<uint32_t, uint32_t> m_routes;                   //!< explicit routes: interface index
    std::vector<std::deque<DirectLinkMessage>> m_rxQueues;   //!< per interface
    std::vector<EventId> m_rxEvents;                         //!< per interface
    ReceiveCallback m_receiver;                              //!< local receiver
    DirectLinkInterfaceUnitCounters m_counters;              //!< counters
    TracedCallback<const DirectLinkMessage&> m_localRxTrace; //!< LocalRx
    TracedCallback<const DirectLinkMessage&, uint32_t> m_forwardTrace;     //!< Forward
    TracedCallback<const DirectLinkMessage&, uint32_t> m_forwardDropTrace; //!< ForwardDrop
};

} // namespace ns3

#endif /* DIRECT_LINK_INTERFACE_UNIT_H */

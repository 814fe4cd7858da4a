/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_PORT_H
#define DIRECT_LINK_PORT_H

#include "direct-link-link-engine.h"
#include "direct-link-net-device.h"
#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class NetDevice;
class Node;

/**
 * \ingroup direct-link-ns3
 * \brief One interface of a DLIU: what the DLIU needs of a link to carry its messages.
 *
 * The DLIU (DirectLinkInterfaceUnit) routes, forwards and back-pressures messages;
 * a port carries them over one link. Two link technologies implement it:
 * DirectLinkDevicePort (a DirectLinkNetDevice: the direct-link NI, micro-packets,
 * Go-Back-N, VC credits of micro-packets) and RiflMessagePort (a RiflNetDevice: each
 * message one RIFL packet, VC credits of whole messages kept by the ports).
 *
 * The contract, for either technology:
 * - SendMessage() queues a message on a VC (per-VC FIFO); a full FIFO counts the
 *   message lost (QUEUE_FULL) and returns 0;
 * - GetVcQueueLength() is what waits in that FIFO, not yet handed to the link, and
 *   the TX-space callback tells, outside the port's own transmit loop, that it got
 *   shorter;
 * - SetReceiveHold() stops draining a VC at this end: received messages of that VC
 *   stay in the port, no credit of the VC goes back, and the peer stalls on that VC
 *   only;
 * - every received message goes to the receive callback (intact, truncated or
 *   malformed, with its flags); every message the port drops is counted and traced by
 *   the port, with a DirectLinkLossReason.
 */
class DirectLinkPort : public Object
{
  public:
    /// Receive callback: the port and the message.
    typedef Callback<void, Ptr<DirectLinkPort>, const DirectLinkMessage&> ReceiveCallback;

    /// TX-space callback: the port and the VC whose queue got shorter.
    typedef Callback<void, Ptr<DirectLinkPort>, uint32_t> TxSpaceCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    DirectLinkPort();

    /// \brief Destructor.
    ~DirectLinkPort() override;

    /// \return the link's device at this end.
    virtual Ptr<NetDevice> GetNetDevice() const = 0;

    /// \return the node at the other end of the link (null if not connected).
    virtual Ptr<Node> GetPeerNode() const = 0;

    /**
     * \brief Queue a message on a VC.
     * \param dstCpu destination CPU, 0..255.
     * \param srcCpu source CPU, 0..255.
     * \param msgClass message class, 0..15.
     * \param vc virtual channel, 0..3.
     * \param bytes the content.
     * \param flags NetErr / NcErr and the announced length of a truncated copy.
     * \return the port's id of the message (> 0), or 0 if the VC's queue was full
     *         (counted lost, QUEUE_FULL, and traced).
     */
    virtual uint64_t SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                                 const std::vector<uint8_t>& bytes,
                                 const DirectLinkMessageFlags& flags)
        = 0;

    /**
     * \param vc a VC, 0..3.
     * \return messages of the VC waiting in the port, not yet handed to the link.
     */
    virtual uint32_t GetVcQueueLength(uint32_t vc) const = 0;

    /**
     * \brief Stop (hold) or resume draining a VC's received messages at this end.
     * \param vc the VC, 0..3.
     * \param hold true to stop, false to resume.
     */
    virtual void SetReceiveHold(uint32_t vc, bool hold) = 0;

    /**
     * \param vc a VC, 0..3.
     * \return true if the VC's drain is held.
     */
    virtual bool GetReceiveHold(uint32_t vc) const = 0;

    /**
     * \brief Count and trace a message lost above the link (by the DLIU).
     * \param messageId an id (0 if none).
     * \param vc its VC.
     * \param reason why.
     */
    virtual void CountLoss(uint64_t messageId, uint32_t vc, DirectLinkLossReason reason) = 0;

    /**
     * \brief Tell the port the CPU numbers of its two ends.
     * \param localCpu this node's CPU. \param peerCpu the peer's CPU.
     */
    virtual void SetCpuNumbers(uint32_t localCpu, uint32_t peerCpu) = 0;

    /**
     * \param msgClass a message class. \param vc a VC.
     * \return true if DLIU messages may not use this (class, VC) because the link's IP
     *         traffic travels as messages of that class on that VC.
     */
    virtual bool IsIpPair(uint32_t msgClass, uint32_t vc) const = 0;

    /**
     * \brief Set the callback receiving every message that arrives.
     * \param cb the callback.
     */
    void SetReceiveCallback(ReceiveCallback cb);

    /**
     * \brief Set the callback told that a VC's queue got shorter.
     * \param cb the callback.
     */
    void SetTxSpaceCallback(TxSpaceCallback cb);

  protected:
    void DoDispose() override;

    /**
     * \brief Hand a received message to the receive callback.
     * \param message the message.
     */
    void NotifyReceive(const DirectLinkMessage& message);

    /**
     * \brief Tell the TX-space callback that a VC's queue got shorter.
     * \param vc the VC.
     */
    void NotifyTxSpace(uint32_t vc);

  private:
    ReceiveCallback m_receive; //!< the DLIU's receive
    TxSpaceCallback m_txSpace; //!< the DLIU's back-pressure
};

} // namespace ns3

#endif /* DIRECT_LINK_PORT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_DEVICE_PORT_H
#define DIRECT_LINK_DEVICE_PORT_H

#include "direct-link-port.h"

namespace ns3
{

/**
 * \ingroup direct-link-ns3
 * \brief A DLIU port over a DirectLinkNetDevice (the direct-link technology).
 *
 * Every call goes to the device: its per-VC message queues, its NI drain hold, its
 * loss counters and traces. The device's message receive and TX-space callbacks
 * come back through the port.
 */
class DirectLinkDevicePort : public DirectLinkPort
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    DirectLinkDevicePort();

    /// \brief Destructor.
    ~DirectLinkDevicePort() override;

    /**
     * \brief Take the device (once; std::invalid_argument if null or if a device is set).
     * \param device the device; its message receive and TX-space callbacks now come here.
     */
    void SetDevice(Ptr<DirectLinkNetDevice> device);

    /// \return the device.
    Ptr<DirectLinkNetDevice> GetDevice() const;

    Ptr<NetDevice> GetNetDevice() const override;
    Ptr<Node> GetPeerNode() const override;
    uint64_t SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                         const std::vector<uint8_t>& bytes,
                         const DirectLinkMessageFlags& flags) override;
    uint32_t GetVcQueueLength(uint32_t vc) const override;
    void SetReceiveHold(uint32_t vc, bool hold) override;
    bool GetReceiveHold(uint32_t vc) const override;
    void CountLoss(uint64_t messageId, uint32_t vc, DirectLinkLossReason reason) override;
    void SetCpuNumbers(uint32_t localCpu, uint32_t peerCpu) override;
    bool IsIpPair(uint32_t msgClass, uint32_t vc) const override;

  protected:
    void DoDispose() override;

  private:
    /// \brief Clear the device's callbacks to this port and forget the device.
    void Release();
    /**
     * \brief The device received a message.
     * \param device the device. \param message the message.
     */
    void OnReceive(Ptr<DirectLinkNetDevice> device, const DirectLinkMessage& message);
    /**
     * \brief A VC queue of the device got shorter.
     * \param device the device. \param vc the VC.
     */
    void OnTxSpace(Ptr<DirectLinkNetDevice> device, uint32_t vc);

    Ptr<DirectLinkNetDevice> m_device; //!< the device
};

} // namespace ns3

#endif /* DIRECT_LINK_DEVICE_PORT_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-device-port.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rifl-check.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflDirectLinkDevicePort");

NS_OBJECT_ENSURE_REGISTERED(DirectLinkDevicePort);

TypeId
DirectLinkDevicePort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectLinkDevicePort")
                            .SetParent<DirectLinkPort>()
                            .SetGroupName("Rifl")
                            .AddConstructor<DirectLinkDevicePort>();
    return tid;
}

DirectLinkDevicePort::DirectLinkDevicePort()
{
    NS_LOG_FUNCTION(this);
}

DirectLinkDevicePort::~DirectLinkDevicePort()
{
    NS_LOG_FUNCTION(this);
    // The DLIU owns the port alone and drops it without disposing it: the device must not
    // keep callbacks bound to it.
    Release();
}

void
DirectLinkDevicePort::DoDispose()
{
    Release();
    DirectLinkPort::DoDispose();
}

void
DirectLinkDevicePort::Release()
{
    if (m_device)
    {
        m_device->SetMessageReceiveCallback(DirectLinkNetDevice::MessageReceiveCallback());
        m_device->SetTxSpaceCallback(DirectLinkNetDevice::TxSpaceCallback());
        m_device = nullptr;
    }
}

void
DirectLinkDevicePort::SetDevice(Ptr<DirectLinkNetDevice> device)
{
    RIFL_CHECK_ARG(!device, "DirectLinkDevicePort::SetDevice: device must not be null");
    RIFL_CHECK_ARG(m_device && m_device != device,
                   "DirectLinkDevicePort::SetDevice: the port already has a device");
    m_device = device;
    m_device->SetMessageReceiveCallback(MakeCallback(&DirectLinkDevicePort::OnReceive, this));
    m_device->SetTxSpaceCallback(MakeCallback(&DirectLinkDevicePort::OnTxSpace, this));
}

Ptr<DirectLinkNetDevice>
DirectLinkDevicePort::GetDevice() const
{
    return m_device;
}

Ptr<NetDevice>
DirectLinkDevicePort::GetNetDevice() const
{
    return m_device;
}

Ptr<Node>
DirectLinkDevicePort::GetPeerNode() const
{
    if (!m_device)
    {
        return nullptr;
    }
    Ptr<DirectLinkNetDevice> peer = m_device->GetPeer();
    return peer ? peer->GetNode() : nullptr;
}

uint64_t
DirectLinkDevicePort::SendMessage(uint32_t dstCpu, uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                                  const std::vector<uint8_t>& bytes,
                                  const DirectLinkMessageFlags& flags)
{
    return m_device->SendMessage(dstCpu, srcCpu, msgClass, vc, bytes, flags);
}

uint32_t
DirectLinkDevicePort::GetVcQueueLength(uint32_t vc) const
{
    return m_device->GetVcQueueLength(vc);
}

void
DirectLinkDevicePort::SetReceiveHold(uint32_t vc, bool hold)
{
    m_device->SetReceiveHold(vc, hold);
}

bool
DirectLinkDevicePort::GetReceiveHold(uint32_t vc) const
{
    return m_device->GetReceiveHold(vc);
}

void
DirectLinkDevicePort::CountLoss(uint64_t messageId, uint32_t vc, DirectLinkLossReason reason)
{
    m_device->CountLoss(messageId, vc, reason);
}

void
DirectLinkDevicePort::SetCpuNumbers(uint32_t localCpu, uint32_t peerCpu)
{
    m_device->SetCpuNumbers(localCpu, peerCpu);
}

bool
DirectLinkDevicePort::IsIpPair(uint32_t msgClass, uint32_t vc) const
{
    return msgClass == m_device->GetIpClass() && vc == m_device->GetIpVc();
}

void
DirectLinkDevicePort::OnReceive(Ptr<DirectLinkNetDevice> /* device */,
                                const DirectLinkMessage& message)
{
    NotifyReceive(message);
}

void
DirectLinkDevicePort::OnTxSpace(Ptr<DirectLinkNetDevice> /* device */, uint32_t vc)
{
    NotifyTxSpace(vc);
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-port.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflDirectLinkPort");

NS_OBJECT_ENSURE_REGISTERED(DirectLinkPort);

TypeId
DirectLinkPort::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectLinkPort").SetParent<Object>().SetGroupName("Rifl");
    return tid;
}

DirectLinkPort::DirectLinkPort()
{
    NS_LOG_FUNCTION(this);
}

DirectLinkPort::~DirectLinkPort()
{
    NS_LOG_FUNCTION(this);
}

void
DirectLinkPort::DoDispose()
{
    m_receive.Nullify();
    m_txSpace.Nullify();
    Object::DoDispose();
}

void
DirectLinkPort::SetReceiveCallback(ReceiveCallback cb)
{
    m_receive = cb;
}

void
DirectLinkPort::SetTxSpaceCallback(TxSpaceCallback cb)
{
    m_txSpace = cb;
}

void
DirectLinkPort::NotifyReceive(const DirectLinkMessage& message)
{
    if (!m_receive.IsNull())
    {
        m_receive(this, message);
    }
}

void
DirectLinkPort::NotifyTxSpace(uint32_t vc)
{
    if (!m_txSpace.IsNull())
    {
        m_txSpace(this, vc);
    }
}

} // namespace ns3

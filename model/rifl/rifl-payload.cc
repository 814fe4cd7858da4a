/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rifl-payload.h"

#include "ns3/packet.h"

namespace ns3
{

RiflPayload::RiflPayload(std::vector<uint8_t> bytes)
    : m_bytes(std::move(bytes)),
      m_size(static_cast<uint32_t>(m_bytes.size()))
{
}

RiflPayload::RiflPayload(Ptr<const Packet> packet)
    : m_packet(std::move(packet)),
      m_size(m_packet ? m_packet->GetSize() : 0)
{
}

RiflPayload::~RiflPayload() = default;

Ptr<const Packet>
RiflPayload::GetPacket() const
{
    return m_packet;
}

void
RiflPayload::Materialise() const
{
    m_bytes.resize(m_size);
    m_packet->CopyData(m_bytes.data(), m_size);
    m_packet = nullptr;
}

} // namespace ns3

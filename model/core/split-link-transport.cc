/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "split-link-transport.h"

#include "bit-block.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <algorithm>

namespace ns3
{

namespace
{
constexpr uint8_t MSG_ITEM = 1;         //!< message: an item
constexpr uint8_t MSG_PACKET_CHUNK = 2; //!< message: a chunk of a sent packet
constexpr uint8_t MSG_BATCH = 3;        //!< MPI message: [count u16] then [len u16][message]...
/// Bytes of a batch: ns-3's MPI messages hold at most 2000 with their headers and the
/// serialised packet's own.
constexpr uint32_t BATCH_BYTES = 1800;
/// Packet bytes per chunk (one chunk fits a batch).
constexpr uint32_t CHUNK_BYTES = 1400;
/// Header of a chunk: type, packet id, index, count, total size.
constexpr uint32_t CHUNK_HEADER = 1 + 8 + 4 + 4 + 4;
} // namespace

void
SplitLinkTransport::SetEnds(Ptr<NetDevice> local, Ptr<NetDevice> peer, const std::string& who)
{
    m_local = local;
    m_peer = peer;
    m_who = who;
}

void
SplitLinkTransport::SendItem(const std::vector<uint8_t>& item, Time at)
{
    std::vector<uint8_t> bytes{MSG_ITEM};
    bytes.insert(bytes.end(), item.begin(), item.end());
    Queue(std::move(bytes), at);
}

void
SplitLinkTransport::SendPacket(uint64_t id, Ptr<const Packet> packet, Time at)
{
    const uint32_t size = packet->GetSerializedSize();
    std::vector<uint8_t> image(size);
    NS_ABORT_MSG_IF(packet->Serialize(image.data(), size) == 0,
                    m_who << ": packet " << id << " does not serialise for the peer's rank");
    const uint32_t count = std::max<uint32_t>(1, (size + CHUNK_BYTES - 1) / CHUNK_BYTES);
    for (uint32_t i = 0; i < count; ++i)
    {
        std::vector<uint8_t> bytes{MSG_PACKET_CHUNK};
        PutLittleEndian(bytes, id, 8);
        PutLittleEndian(bytes, i, 4);
        PutLittleEndian(bytes, count, 4);
        PutLittleEndian(bytes, size, 4);
        const uint32_t from = i * CHUNK_BYTES;
        const uint32_t to = std::min(size, from + CHUNK_BYTES);
        bytes.insert(bytes.end(), image.begin() + from, image.begin() + to);
        Queue(std::move(bytes), at);
    }
}

void
SplitLinkTransport::Queue(std::vector<uint8_t> bytes, Time at)
{
    NS_ABORT_MSG_IF(!m_local || !m_peer, m_who << ": the transport has no ends (SetEnds)");
    m_outbox.emplace_back(at, std::move(bytes));
    if (!m_flushPending)
    {
        m_flushPending = true;
        Simulator::ScheduleWithContext(m_local->GetNode()->GetId(), Time(0),
                                       &SplitLinkTransport::Flush, this);
    }
}

void
SplitLinkTransport::Flush()
{
    m_flushPending = false;
    if (m_outbox.empty())
    {
        return;
    }
    // As many messages (in order) as fit in one MPI message, arriving with the earliest.
    std::vector<uint8_t> batch{MSG_BATCH, 0, 0};
    Time at = m_outbox.front().first;
    std::size_t n = 0;
    while (n < m_outbox.size() && n < 0xFFFF &&
           (n == 0 || batch.size() + 2 + m_outbox[n].second.size() <= BATCH_BYTES))
    {
        PutLittleEndian(batch, m_outbox[n].second.size(), 2);
        batch.insert(batch.end(), m_outbox[n].second.begin(), m_outbox[n].second.end());
        at = std::min(at, m_outbox[n].first);
        ++n;
    }
    batch[1] = static_cast<uint8_t>(n);
    batch[2] = static_cast<uint8_t>(n >> 8);
    m_outbox.erase(m_outbox.begin(), m_outbox.begin() + static_cast<std::ptrdiff_t>(n));
    if (!m_outbox.empty())
    {
        // the rest in a later event at this instant, scheduled before this one sends
        // (the guarantee sent with it is then this instant + lookahead)
        m_flushPending = true;
        Simulator::ScheduleWithContext(m_local->GetNode()->GetId(), Time(0),
                                       &SplitLinkTransport::Flush, this);
    }
#ifdef NS3_MPI
    MpiInterface::SendPacket(Create<Packet>(batch.data(), batch.size()), at,
                             m_peer->GetNode()->GetId(), m_peer->GetIfIndex());
#else
    NS_FATAL_ERROR(m_who << ": node " << m_peer->GetNode()->GetId()
                         << " is on another rank, but this build of the rifl module has no MPI "
                            "support (NS3_MPI)");
#endif
}

void
SplitLinkTransport::Receive(Ptr<Packet> message, const ItemCallback& onItem,
                            const PacketCallback& onPacket)
{
    std::vector<uint8_t> b(message->GetSize());
    message->CopyData(b.data(), b.size());
    NS_ABORT_MSG_IF(b.size() < 3 || b[0] != MSG_BATCH,
                    m_who << ": malformed remote message (" << b.size() << " bytes)");
    const uint64_t n = GetLittleEndian(b.data() + 1, 2);
    std::size_t pos = 3;
    for (uint64_t i = 0; i < n; ++i)
    {
        NS_ABORT_MSG_IF(pos + 2 > b.size(), m_who << ": remote batch ends inside item " << i);
        const std::size_t len = GetLittleEndian(b.data() + pos, 2);
        pos += 2;
        NS_ABORT_MSG_IF(len == 0 || pos + len > b.size(),
                        m_who << ": remote batch ends inside item " << i);
        const uint8_t* m = b.data() + pos;
        pos += len;
        if (m[0] == MSG_ITEM)
        {
            onItem(m + 1, len - 1);
            continue;
        }
        NS_ABORT_MSG_IF(m[0] != MSG_PACKET_CHUNK || len <= CHUNK_HEADER,
                        m_who << ": malformed remote message (type " << int{m[0]} << ", " << len
                              << " bytes)");
        const uint64_t id = GetLittleEndian(m + 1, 8);
        const uint64_t index = GetLittleEndian(m + 9, 4);
        const uint64_t count = GetLittleEndian(m + 13, 4);
        const uint64_t size = GetLittleEndian(m + 17, 4);
        if (index == 0)
        {
            m_partial.clear();
        }
        NS_ABORT_MSG_IF(index >= count || m_partial.size() != index * CHUNK_BYTES ||
                            m_partial.size() + len - CHUNK_HEADER > size,
                        m_who << ": remote packet " << id << ": chunk " << index << " of " << count
                              << " out of order or too long");
        m_partial.insert(m_partial.end(), m + CHUNK_HEADER, m + len);
        if (index + 1 < count)
        {
            continue;
        }
        NS_ABORT_MSG_IF(m_partial.size() != size, m_who << ": remote packet " << id << ": "
                                                        << m_partial.size() << " of " << size
                                                        << " bytes");
        onPacket(id, Create<Packet>(m_partial.data(), size, true));
        m_partial.clear();
    }
    NS_ABORT_MSG_IF(pos != b.size(), m_who << ": " << b.size() - pos
                                           << " bytes after a remote batch");
}

void
SplitLinkTransport::Clear()
{
    m_outbox.clear();
    m_partial.clear();
    m_local = nullptr;
    m_peer = nullptr;
}

} // namespace ns3

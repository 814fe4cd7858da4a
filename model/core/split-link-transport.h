/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SPLIT_LINK_TRANSPORT_H
#define SPLIT_LINK_TRANSPORT_H

#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief What one local end of a split link sends to its peer on another ns-3 MPI rank, and
 *        reads from it: opaque items (line records of the link's engine half) and the
 *        packets the local device sent (serialised with their tags, in chunks), each with
 *        the time it must arrive by.
 *
 * Items and chunks are collected and sent by one event at the current instant as one MPI
 * message (MpiInterface::SendPacket to the peer device's node and interface), arriving at the
 * earliest of their times: ns-3's null-message scheduler piggybacks on each message a
 * guarantee (the next local event + lookahead) that a second message of the same event could
 * undercut. What does not fit one message goes in a later event of the same instant. The
 * peer's MpiReceiver hands each message to Receive(). Without NS3_MPI sending is a fatal
 * error (a split link within one process needs no transport).
 */
class SplitLinkTransport
{
  public:
    /// Called with every item of a received message, in order.
    using ItemCallback = std::function<void(const uint8_t* data, std::size_t size)>;
    /// Called with every packet a received message completes (its id, the packet).
    using PacketCallback = std::function<void(uint64_t id, Ptr<Packet> packet)>;

    /**
     * \brief Set the ends (before sending).
     * \param local the local device (its node gives the context of the send events).
     * \param peer the peer device on the other rank (the MPI destination).
     * \param who the owner's name, for messages.
     */
    void SetEnds(Ptr<NetDevice> local, Ptr<NetDevice> peer, const std::string& who);

    /**
     * \brief Send an item to the peer's rank.
     * \param item its bytes.
     * \param at when it must arrive (now + the link's lookahead or later).
     */
    void SendItem(const std::vector<uint8_t>& item, Time at);

    /**
     * \brief Send a packet to the peer's rank (serialised with its tags, in chunks).
     * \param id its id (increasing per sender).
     * \param packet the packet.
     * \param at when it must arrive.
     */
    void SendPacket(uint64_t id, Ptr<const Packet> packet, Time at);

    /**
     * \brief Read a message the peer's rank sent (a fatal error naming the owner if
     *        malformed).
     * \param message the message (from the device's MpiReceiver).
     * \param onItem called for each item.
     * \param onPacket called for each completed packet.
     */
    void Receive(Ptr<Packet> message, const ItemCallback& onItem, const PacketCallback& onPacket);

    /// \brief Drop everything unsent or half received (at dispose).
    void Clear();

  private:
    /// \brief Queue one message for the next Flush(). \param bytes it. \param at arrival.
    void Queue(std::vector<uint8_t> bytes, Time at);
    /// \brief Send what Queue() collected, as one MPI message.
    void Flush();

    Ptr<NetDevice> m_local;                                      //!< local device
    Ptr<NetDevice> m_peer;                                       //!< peer device
    std::string m_who{"SplitLinkTransport"};                     //!< for messages
    std::vector<std::pair<Time, std::vector<uint8_t>>> m_outbox; //!< (arrival, message)
    bool m_flushPending{false};                                  //!< a Flush() is scheduled
    std::vector<uint8_t> m_partial; //!< the chunks of the packet being received
};

} // namespace ns3

#endif /* SPLIT_LINK_TRANSPORT_H */

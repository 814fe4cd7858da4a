/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_PAYLOAD_H
#define RIFL_PAYLOAD_H

#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup rifl-protocol
 * \brief The bytes of one packet offered to a RIFL engine, copied only when an
 *        engine first reads them.
 *
 * A packet crossing a clean link in batched mode is dealt, received and
 * delivered by its size alone: no frame is built from its bytes. RiflChannel
 * therefore hands the engine the packet itself, and the bytes are copied out of
 * it only if a frame must be materialised (slot mode, a replay, an error, the
 * end of a batch) or a delivery carries them (the Delivery trace, a corrupted
 * packet). A payload made from a byte vector owns those bytes from the start.
 *
 * The packet must not change after the payload is made (RiflChannel holds the
 * packet the device handed over for good, as ns-3's own channels do). Not
 * thread-safe: the first GetBytes() writes the copy.
 */
class RiflPayload
{
  public:
    /**
     * \brief A payload owning \p bytes.
     * \param bytes the packet's bytes.
     */
    explicit RiflPayload(std::vector<uint8_t> bytes);

    /**
     * \brief A payload reading \p packet's bytes on first use.
     * \param packet the packet (not null, never changed after).
     */
    explicit RiflPayload(Ptr<const Packet> packet);

    /// \brief Destructor (releases the packet, if still held).
    ~RiflPayload();

    RiflPayload(const RiflPayload&) = delete;            //!< shared, not copied
    RiflPayload& operator=(const RiflPayload&) = delete; //!< shared, not copied

    /// \return the number of bytes.
    uint32_t GetSize() const
    {
        return m_size;
    }

    /// \return the bytes (copied out of the packet on the first call).
    const std::vector<uint8_t>& GetBytes() const
    {
        if (m_packet)
        {
            Materialise();
        }
        return m_bytes;
    }

    /// \return GetBytes().data().
    const uint8_t* GetData() const
    {
        return GetBytes().data();
    }

    /**
     * \return the packet the payload was made from, until its bytes were copied
     *         out of it (GetBytes()); null after that and for a byte payload.
     */
    Ptr<const Packet> GetPacket() const;

    /// \return true once the bytes are held (always for a byte-vector payload).
    bool IsMaterialised() const
    {
        return !m_packet;
    }

  private:
    /// \brief Copy the packet's bytes and release the packet.
    void Materialise() const;

    mutable Ptr<const Packet> m_packet;   //!< the source, until copied
    mutable std::vector<uint8_t> m_bytes; //!< the bytes, once copied
    uint32_t m_size{0};                   //!< the number of bytes
};

} // namespace ns3

#endif // RIFL_PAYLOAD_H

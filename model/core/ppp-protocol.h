/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_PPP_PROTOCOL_H
#define RIFL_PPP_PROTOCOL_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief The 2-byte PPP protocol field both link devices carry (so pcap files
 *        use DLT_PPP): mapping between EtherTypes and PPP protocol numbers.
 */
class PppProtocol
{
  public:
    /// EtherType of DLIU messages carried by another link technology (RiflMessagePort):
    /// IEEE 802 local experimental EtherType 1.
    static constexpr uint16_t DLIU_MESSAGE_ETHERTYPE = 0x88B5;
    /// PPP protocol number carrying them on the link: from PPP's range for low-volume
    /// protocols without an NCP (0x4001-0x7fff), not assigned by IANA; private to this module.
    static constexpr uint16_t DLIU_MESSAGE_PPP = 0x4E01;

    /**
     * \brief Map an EtherType to the PPP protocol number carried on the link.
     * \param etherType 0x0800 (IPv4), 0x86DD (IPv6) or DLIU_MESSAGE_ETHERTYPE.
     * \return 0x0021, 0x0057 or DLIU_MESSAGE_PPP (std::invalid_argument naming
     *         protocolNumber otherwise).
     */
    static uint16_t EtherToPpp(uint16_t etherType);

    /**
     * \brief Map a PPP protocol number back to its EtherType.
     * \param ppp 0x0021, 0x0057 or DLIU_MESSAGE_PPP.
     * \return the EtherType, or 0 for an unknown number.
     */
    static uint16_t PppToEther(uint16_t ppp);
};

} // namespace ns3

#endif /* RIFL_PPP_PROTOCOL_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ppp-protocol.h"

#include "rifl-check.h"

namespace ns3
{

uint16_t
PppProtocol::EtherToPpp(uint16_t etherType)
{
    switch (etherType)
    {
        case 0x0800:
            return 0x0021;
        case 0x86DD:
            return 0x0057;
        case DLIU_MESSAGE_ETHERTYPE:
            return DLIU_MESSAGE_PPP;
        default:
            RIFL_CHECK_ARG(true, "protocolNumber = 0x"
                                     << std::hex << etherType << std::dec
                                     << " is not carried (IPv4 0x0800, IPv6 0x86DD and DLIU "
                                        "messages 0x88b5 are)");
    }
    return 0;
}

uint16_t
PppProtocol::PppToEther(uint16_t ppp)
{
    switch (ppp)
    {
        case 0x0021:
            return 0x0800;
        case 0x0057:
            return 0x86DD;
        case DLIU_MESSAGE_PPP:
            return DLIU_MESSAGE_ETHERTYPE;
        default:
            return 0;
    }
}

} // namespace ns3

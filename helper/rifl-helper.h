/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_HELPER_H
#define RIFL_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/queue.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class RiflChannel;
class RiflNetDevice;

/**
 * \ingroup rifl-ns3
 * \brief Builds RIFL links: a pair of RiflNetDevices on a RiflChannel.
 *
 * Like PointToPointHelper: device, channel and queue attributes, Install on
 * two nodes (or a two-node container), pcap (DLT_PPP: the device's 2-byte PPP
 * protocol field, so Wireshark decodes IPv4/IPv6) and ASCII tracing, and
 * AssignStreams for every error process of the links it built.
 */
class RiflHelper
    : public PcapHelperForDevice
    , public AsciiTraceHelperForDevice
{
  public:
    /// \brief Constructor: DropTail queue of 100 packets, default attributes.
    RiflHelper();

    /// \brief Destructor.
    ~RiflHelper() override;

    /**
     * \brief Set an attribute of every RiflNetDevice created.
     * \param name the attribute name (e.g. "FrameSize").
     * \param value its value.
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every RiflChannel created.
     * \param name the attribute name (e.g. "CableLength", "Ber", "Engine").
     * \param value its value.
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set the queue type and attributes of every device.
     * \param type the queue TypeId name, e.g. "ns3::DropTailQueue<Packet>".
     * \param args name/value pairs of queue attributes.
     */
    template <typename... Ts> void SetQueue(std::string type, Ts&&... args);

    /**
     * \brief Connect two nodes.
     * \param a endpoint A's node.
     * \param b endpoint B's node.
     * \return the two devices (A first).
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * \brief Connect the two nodes of a container.
     * \param c exactly two nodes.
     * \return the two devices.
     */
    NetDeviceContainer Install(NodeContainer c);

    /**
     * \brief Assign fixed random streams to the error processes of the links
     *        whose devices are in \p c (each channel once).
     * \param c devices.
     * \param stream the first stream.
     * \return the number of streams used.
     */
    int64_t AssignStreams(NetDeviceContainer c, int64_t stream);

  private:
    void EnablePcapInternal(std::string prefix, Ptr<NetDevice> nd, bool promiscuous,
                            bool explicitFilename) override;
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream, std::string prefix, Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_queueFactory;   //!< queues
    ObjectFactory m_deviceFactory;  //!< devices
    ObjectFactory m_channelFactory; //!< channels
};

template <typename... Ts>
void
RiflHelper::SetQueue(std::string type, Ts&&... args)
{
    QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* RIFL_HELPER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_LINK_HELPER_H
#define DIRECT_LINK_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/queue.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class DirectLinkChannel;
class DirectLinkInterfaceUnit;
class DirectLinkNetDevice;

/**
 * \ingroup direct-link-ns3
 * \brief Builds direct links (a pair of DirectLinkNetDevices on a
 *        DirectLinkChannel) and the DLIUs of CPU nodes.
 *
 * Like PointToPointHelper: device, channel and queue attributes, Install on
 * two nodes (or a two-node container), pcap (DLT_PPP: the IP packets with
 * their 2-byte PPP field) and ASCII tracing, AssignStreams for the error
 * processes of the links it built. InstallDliu() aggregates a
 * DirectLinkInterfaceUnit to a node and gives it the node's direct-link
 * devices (also those installed later by this helper); SetRoute() fills its
 * routing table (topology helpers build on it).
 */
class DirectLinkHelper
    : public PcapHelperForDevice
    , public AsciiTraceHelperForDevice
{
  public:
    /// \brief Constructor: DropTail IP queue of 100 packets, default attributes.
    DirectLinkHelper();

    /// \brief Destructor.
    ~DirectLinkHelper() override;

    /**
     * \brief Set an attribute of every DirectLinkNetDevice created.
     * \param name the attribute name (e.g. "RetryBufferSize", "AckTime").
     * \param value its value.
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every DirectLinkChannel created.
     * \param name the attribute name (e.g. "LineRate", "Ber", "Engine").
     * \param value its value.
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every DirectLinkInterfaceUnit created by InstallDliu.
     * \param name the attribute name (e.g. "ForwardingDelay").
     * \param value its value.
     */
    void SetDliuAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set the IP queue type and attributes of every device.
     * \param type the queue TypeId name, e.g. "ns3::DropTailQueue<Packet>".
     * \param args name/value pairs of queue attributes.
     */
    template <typename... Ts> void SetQueue(std::string type, Ts&&... args);

    /**
     * \brief Connect two nodes.
     * \param a side A's node.
     * \param b side B's node.
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
     * \brief Aggregate a DLIU to a CPU node (or reuse its DLIU) and give it every
     *        direct-link device of the node, and every device of another link technology
     *        with a DirectLinkPort aggregated (e.g. a RiflNetDevice with its
     *        RiflMessagePort).
     * \param node the node.
     * \param cpuNumber its CPU number, 0..255.
     * \return the DLIU.
     */
    Ptr<DirectLinkInterfaceUnit> InstallDliu(Ptr<Node> node, uint32_t cpuNumber);

    /**
     * \brief Route \p dstCpu's messages at \p node through \p device.
     * \param node a node with a DLIU.
     * \param dstCpu the destination CPU.
     * \param device one of the DLIU's interfaces (std::invalid_argument otherwise).
     */
    static void SetRoute(Ptr<Node> node, uint32_t dstCpu, Ptr<NetDevice> device);

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
    ObjectFactory m_dliuFactory;    //!< DLIUs
};

template <typename... Ts>
void
DirectLinkHelper::SetQueue(std::string type, Ts&&... args)
{
    QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* DIRECT_LINK_HELPER_H */

/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reliability-report-helper.h"

#include "ns3/channel.h"
#include "ns3/csma-net-device.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/exact-bit-error-model.h"
#include "ns3/link-reliability-model.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-net-device.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * \brief The other device on a two-device channel.
 * \param dev a device.
 * \return its peer, or null.
 */
Ptr<NetDevice>
PeerOf(Ptr<NetDevice> dev)
{
    Ptr<Channel> ch = dev->GetChannel();
    if (!ch || ch->GetNDevices() != 2)
    {
        return nullptr;
    }
    return ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
}

/**
 * \param x a value.
 * \return x as JSON, null when not finite.
 */
nlohmann::json
Num(double x)
{
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

} // namespace

ReliabilityReportHelper::ReliabilityReportHelper() = default;

void
ReliabilityReportHelper::SetMeasurementTime(Time t)
{
    RIFL_CHECK_ARG(!t.IsStrictlyPositive(), "ReliabilityReportHelper: measurement time = "
                                                << t.GetSeconds() << " s must be > 0");
    m_measurement = t;
}

void
ReliabilityReportHelper::SetEthernetFrameBytes(uint32_t bytes)
{
    RIFL_CHECK_ARG(bytes < 8 || bytes > 2000, "ReliabilityReportHelper: ethernetFrameBytes = "
                                                  << bytes << " is outside [8, 2000]");
    m_ethFrameBytes = bytes;
}

ReliabilityReportHelper::Report
ReliabilityReportHelper::Collect() const
{
    Report r;
    const Time t = m_measurement.IsStrictlyPositive() ? m_measurement : Simulator::Now();
    RIFL_CHECK_ARG(!t.IsStrictlyPositive(), "ReliabilityReportHelper: measurement time = "
                                                << t.GetSeconds()
                                                << " s must be > 0 (run the simulation first)");
    r.measurementSeconds = t.GetSeconds();
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        Ptr<Node> node = *it;
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<NetDevice> dev = node->GetDevice(i);
            Ptr<NetDevice> peer = PeerOf(dev);
            if (!peer)
            {
                continue;
            }
            DirectionReport d;
            d.txNode = peer->GetNode()->GetId();
            d.txIfIndex = peer->GetIfIndex();
            d.rxNode = node->GetId();
            d.rxIfIndex = dev->GetIfIndex();
            if (Ptr<RiflNetDevice> rx = DynamicCast<RiflNetDevice>(dev))
            {
                Ptr<RiflNetDevice> tx = DynamicCast<RiflNetDevice>(peer);
                DoubleValue ber;
                rx->GetChannel()->GetAttribute("Ber", ber);
                UintegerValue frameSize;
                rx->GetAttribute("FrameSize", frameSize);
                const RiflEndpointCounters rc = rx->GetCounters();
                const RiflEndpointCounters tc = tx->GetCounters();
                d.technology = "rifl";
                d.ber = ber.Get();
                d.lineRateBps = static_cast<double>(tx->GetDataRate().GetBitRate());
                d.frameBits = frameSize.Get();
                d.frames = rc.framesReceived;
                d.dataFrames = rc.dataFramesDelivered;
                d.errorsDetected = rc.errorsDetected;
                d.undetectedErrors = rc.undetectedErrors;
                d.replays = tc.replays;
                d.slotsLost = tc.slotsLost;
                uint64_t laneSlots = 0;
                for (uint64_t s : tc.stateSlots)
                {
                    laneSlots += s;
                }
                d.txNewUserFrames = tc.newUserFrames;
                d.txLaneSlots = laneSlots;
                d.pudExact = LinkReliabilityModel::RiflUndetectedExact(d.ber, d.frameBits);
                d.pudPaper = LinkReliabilityModel::RiflUndetectedPaper(d.ber, d.frameBits);
            }
            else if (DynamicCast<PointToPointNetDevice>(dev) || DynamicCast<CsmaNetDevice>(dev))
            {
                PointerValue pv;
                dev->GetAttribute("ReceiveErrorModel", pv);
                Ptr<ExactBitErrorModel> em = pv.Get<ExactBitErrorModel>();
                if (!em)
                {
                    continue;
                }
                DataRateValue rate;
                if (DynamicCast<CsmaNetDevice>(dev))
                {
                    dev->GetChannel()->GetAttribute("DataRate", rate); // the channel's rate
                }
                else
                {
                    peer->GetAttribute("DataRate", rate);
                }
                d.technology = "ethernet";
                d.ber = em->GetBer();
                d.lineRateBps = static_cast<double>(rate.Get().GetBitRate());
                d.frameBits = 8 * m_ethFrameBytes;
                d.frames = em->GetPacketsSeen();
                d.dataFrames = d.frames;
                d.errorsDetected = em->GetPacketsCorrupted();
                d.packetsLost = em->GetPacketsCorrupted();
                d.bitErrors = em->GetBitErrors();
                d.pudExact = LinkReliabilityModel::EthernetUndetectedExact(d.ber, m_ethFrameBytes);
                d.pudPaper = d.pudExact;
            }
            else
            {
                continue;
            }
            r.directions.push_back(d);
        }
    }
    Finish(r);
    return r;
}

void
ReliabilityReportHelper::Finish(Report& r)
{
    RIFL_CHECK_ARG(!(r.measurementSeconds > 0), "ReliabilityReportHelper::Finish: measurement "
                                                "time = "
                                                    << r.measurementSeconds << " s must be > 0");
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> mtbfs;
    r.riflDirections = 0;
    r.ethernetDirections = 0;
    r.ethernetPacketsLost = 0;
    r.undetectedRate = 0.0;
    for (DirectionReport& d : r.directions)
    {
        if (d.technology == "rifl")
        {
            d.bandwidthShare = d.txLaneSlots > 0
                                   ? static_cast<double>(d.txNewUserFrames) / d.txLaneSlots
                                   : 0.0;
            d.framesPerSecond = d.dataFrames / r.measurementSeconds;
            ++r.riflDirections;
        }
        else
        {
            d.bandwidthShare = 0.0;
            d.framesPerSecond = d.frames / r.measurementSeconds;
            r.ethernetPacketsLost += d.packetsLost;
            ++r.ethernetDirections;
        }
        d.undetectedRate = d.framesPerSecond * d.pudExact;
        d.mtbfSeconds = d.framesPerSecond > 0.0
                            ? LinkReliabilityModel::MtbfSeconds(d.framesPerSecond, d.pudExact)
                            : inf;
        r.undetectedRate += d.undetectedRate;
        mtbfs.push_back(d.mtbfSeconds);
    }
    r.networkMtbfSeconds = LinkReliabilityModel::NetworkMtbfSeconds(mtbfs);
    r.networkMtbfYears = r.networkMtbfSeconds / LinkReliabilityModel::SECONDS_PER_YEAR;
    r.fit = std::isfinite(r.networkMtbfSeconds) ? LinkReliabilityModel::Fit(r.networkMtbfSeconds)
                                                : 0.0;
}

std::string
ReliabilityReportHelper::ToJson(const Report& r)
{
    nlohmann::json j;
    j["measurementSeconds"] = r.measurementSeconds;
    nlohmann::json dirs = nlohmann::json::array();
    for (const DirectionReport& d : r.directions)
    {
        nlohmann::json e;
        e["technology"] = d.technology;
        e["txNode"] = d.txNode;
        e["txIfIndex"] = d.txIfIndex;
        e["rxNode"] = d.rxNode;
        e["rxIfIndex"] = d.rxIfIndex;
        e["ber"] = d.ber;
        e["lineRateBps"] = d.lineRateBps;
        e["frameBits"] = d.frameBits;
        e["frames"] = d.frames;
        e["dataFrames"] = d.dataFrames;
        e["errorsDetected"] = d.errorsDetected;
        if (d.technology == "rifl")
        {
            e["replays"] = d.replays;
            e["slotsLost"] = d.slotsLost;
            e["undetectedErrorsObserved"] = d.undetectedErrors;
            e["bandwidthShare"] = d.bandwidthShare;
            e["pudExact"] = d.pudExact;
            e["pudPaper"] = d.pudPaper;
        }
        else
        {
            e["packetsLost"] = d.packetsLost;
            e["bitErrors"] = d.bitErrors;
            e["pudCrc32"] = d.pudExact;
        }
        e["framesPerSecond"] = d.framesPerSecond;
        e["undetectedRate"] = d.undetectedRate;
        e["mtbfSeconds"] = Num(d.mtbfSeconds);
        e["mtbfYears"] = Num(d.mtbfSeconds / LinkReliabilityModel::SECONDS_PER_YEAR);
        dirs.push_back(e);
    }
    j["directions"] = dirs;
    nlohmann::json net;
    net["riflDirections"] = r.riflDirections;
    net["ethernetDirections"] = r.ethernetDirections;
    net["ethernetPacketsLost"] = r.ethernetPacketsLost;
    net["undetectedRate"] = r.undetectedRate;
    net["mtbfSeconds"] = Num(r.networkMtbfSeconds);
    net["mtbfYears"] = Num(r.networkMtbfYears);
    net["fit"] = r.fit;
    j["network"] = net;
    return j.dump(2);
}

std::string
ReliabilityReportHelper::ToTable(const Report& r)
{
    std::ostringstream os;
    os << "Reliability report over " << r.measurementSeconds << " s\n";
    os << std::left << std::setw(9) << "tech" << std::setw(12) << "tx->rx" << std::right
       << std::setw(9) << "BER" << std::setw(12) << "frames" << std::setw(9) << "detect"
       << std::setw(8) << "replays" << std::setw(10) << "slotsLost" << std::setw(8) << "share"
       << std::setw(8) << "lost" << std::setw(11) << "Pud exact" << std::setw(11) << "Pud paper"
       << std::setw(12) << "MTBF [y]"
       << "\n";
    for (const DirectionReport& d : r.directions)
    {
        std::ostringstream ends;
        ends << d.txNode << "." << d.txIfIndex << "->" << d.rxNode << "." << d.rxIfIndex;
        os << std::left << std::setw(9) << d.technology << std::setw(12) << ends.str() << std::right
           << std::setprecision(3) << std::setw(9) << d.ber << std::setw(12) << d.frames
           << std::setw(9) << d.errorsDetected << std::setw(8) << d.replays << std::setw(10)
           << d.slotsLost << std::setw(8) << std::fixed << d.bandwidthShare << std::defaultfloat
           << std::setw(8) << d.packetsLost << std::setw(11) << d.pudExact << std::setw(11)
           << d.pudPaper << std::setw(12) << d.mtbfSeconds / LinkReliabilityModel::SECONDS_PER_YEAR
           << "\n";
    }
    os << std::setprecision(6) << "network: " << r.riflDirections << " RIFL + "
       << r.ethernetDirections << " Ethernet directions, Ethernet packets lost "
       << r.ethernetPacketsLost << ", undetected rate " << r.undetectedRate << " /s, MTBF "
       << r.networkMtbfSeconds << " s (" << r.networkMtbfYears << " years), FIT " << r.fit << "\n";
    return os.str();
}

void
ReliabilityReportHelper::WriteJson(const std::string& filename) const
{
    std::ofstream f(filename);
    RIFL_CHECK_ARG(!f, "ReliabilityReportHelper: filename = " << filename << " cannot be opened");
    f << ToJson(Collect()) << "\n";
}

void
ReliabilityReportHelper::WriteTable(std::ostream& os) const
{
    os << ToTable(Collect());
}

} // namespace ns3

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rifl-link: two nodes over one RIFL link, UDP traffic of mixed sizes from A
 * to B (and optionally back), at a chosen load and bit-error rate. Prints
 * goodput, one-way latency percentiles and the link counters, and writes them
 * to rifl-link-results.json (units in the field names).
 *
 * Every device and channel attribute is on the command line too, e.g.
 *   rifl-link --ber=1e-7 --frameSize=512 --lanes=4 --cableLength=10
 *             --ns3::RiflNetDevice::ReplayTail=Corrected --ns3::RiflChannel::Engine=Reference
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/rifl-channel.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-helper.h"
#include "ns3/rifl-net-device.h"
#include "rifl-example-args.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

/// Per-flow measurements of the receiver.
struct FlowStats
{
    std::vector<double> latencyNs; //!< one-way latency of each datagram received
    uint64_t bytes{0};             //!< payload bytes received
    uint64_t received{0};          //!< datagrams received
    uint64_t outOfOrder{0};        //!< datagrams with a sequence number below the highest seen
    uint64_t duplicates{0};        //!< datagrams seen twice
    uint64_t corrupt{0};           //!< datagrams whose pattern was wrong
    std::vector<bool> seen;        //!< sequence numbers seen
    int64_t highest{-1};           //!< highest sequence number seen
};

/// The traffic source of one direction.
struct Source
{
    Ptr<Socket> socket;                 //!< UDP socket
    Ptr<UniformRandomVariable> size;    //!< payload size
    Ptr<ExponentialRandomVariable> gap; //!< inter-send gap in ns
    uint32_t sent{0};                   //!< datagrams sent
    uint32_t count{0};                  //!< datagrams to send
    Time stop;                          //!< no sends after this
};

/**
 * \brief Payload byte i of datagram seq (after the 12-byte header).
 * \param seq sequence number.
 * \param i byte index.
 * \return the byte.
 */
uint8_t
PatternByte(uint32_t seq, uint32_t i)
{
    return static_cast<uint8_t>((seq * 29 + i * 13) & 0xFF);
}

/**
 * \brief Send one datagram and schedule the next.
 * \param src the source.
 */
void
SendNext(Source* src)
{
    if (src->sent >= src->count || Simulator::Now() >= src->stop)
    {
        return;
    }
    const uint32_t size = std::max<uint32_t>(12, src->size->GetInteger());
    std::vector<uint8_t> b(size);
    const uint32_t seq = src->sent++;
    const int64_t t = Simulator::Now().GetTimeStep();
    for (int k = 0; k < 4; ++k)
    {
        b[k] = static_cast<uint8_t>(seq >> (24 - 8 * k));
    }
    for (int k = 0; k < 8; ++k)
    {
        b[4 + k] = static_cast<uint8_t>(t >> (56 - 8 * k));
    }
    for (uint32_t i = 12; i < size; ++i)
    {
        b[i] = PatternByte(seq, i);
    }
    src->socket->Send(Create<Packet>(b.data(), b.size()));
    Simulator::Schedule(NanoSeconds(static_cast<int64_t>(src->gap->GetValue())), &SendNext, src);
}

/**
 * \brief Receive datagrams and measure them.
 * \param st the flow's statistics.
 * \param socket the socket.
 */
void
Receive(FlowStats* st, Ptr<Socket> socket)
{
    Ptr<Packet> p;
    while ((p = socket->Recv()))
    {
        std::vector<uint8_t> b(p->GetSize());
        p->CopyData(b.data(), b.size());
        if (b.size() < 12)
        {
            ++st->corrupt;
            continue;
        }
        uint32_t seq = 0;
        int64_t t = 0;
        for (int k = 0; k < 4; ++k)
        {
            seq = (seq << 8) | b[k];
        }
        for (int k = 0; k < 8; ++k)
        {
            t = (t << 8) | b[4 + k];
        }
        bool ok = true;
        for (uint32_t i = 12; i < b.size(); ++i)
        {
            ok = ok && b[i] == PatternByte(seq, i);
        }
        if (!ok)
        {
            ++st->corrupt;
            continue;
        }
        if (seq >= st->seen.size())
        {
            st->seen.resize(seq + 1, false);
        }
        if (st->seen[seq])
        {
            ++st->duplicates;
            continue;
        }
        st->seen[seq] = true;
        if (static_cast<int64_t>(seq) < st->highest)
        {
            ++st->outOfOrder;
        }
        st->highest = std::max<int64_t>(st->highest, seq);
        ++st->received;
        st->bytes += b.size();
        st->latencyNs.push_back((Simulator::Now() - TimeStep(t)).GetSeconds() * 1e9);
    }
}

/**
 * \brief The q-quantile of sorted values (nearest rank).
 * \param v sorted values.
 * \param q the quantile in [0, 1].
 * \return the value, or NaN if empty.
 */
double
Quantile(const std::vector<double>& v, double q)
{
    if (v.empty())
    {
        return NAN;
    }
    const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(std::ceil(q * v.size()))
                                                     - (q > 0 ? 1 : 0));
    return v[k];
}

/**
 * \brief The program.
 * \param argc argument count.
 * \param argv arguments.
 * \return the exit status.
 */
int
Run(int argc, char* argv[])
{
    double ber = 0.0;
    std::string frameSizeText = "256";
    std::string lanesText = "4";
    double cableLength = 10.0;
    double load = 0.5;
    std::string minSizeText = "12";
    std::string maxSizeText = "8192";
    double simTimeUs = 1000.0;
    double warmupUs = 100.0;
    bool bidirectional = false;
    std::string engine = "Fast";
    std::string output = "rifl-link-results.json";
    double ppmA = 0.0;
    double ppmB = 0.0;
    bool compensation = true;
    std::string laneSkew;

    CommandLine cmd(__FILE__);
    cmd.AddValue("ber", "bit error rate of every lane in both directions, [0, 1)", ber);
    cmd.AddValue("frameSize", "RIFL frame size in bits (128, 256, 512, 1024)", frameSizeText);
    cmd.AddValue("lanes", "bonded lanes, 1..16", lanesText);
    cmd.AddValue("cableLength", "cable length in metres", cableLength);
    cmd.AddValue("load", "offered load as a fraction of Lanes x LaneRate, (0, 2]", load);
    cmd.AddValue("minSize", "smallest UDP payload in bytes (>= 12)", minSizeText);
    cmd.AddValue("maxSize", "largest UDP payload in bytes (<= 8972)", maxSizeText);
    cmd.AddValue("simTime", "traffic duration in microseconds, (0, 1e7]", simTimeUs);
    cmd.AddValue("warmup", "time before traffic starts, in microseconds, [0, 1e7]", warmupUs);
    cmd.AddValue("bidirectional", "also send B to A", bidirectional);
    cmd.AddValue("engine", "link engine: Fast or Reference", engine);
    cmd.AddValue("output", "JSON results file", output);
    cmd.AddValue("ppmA", "clock offset of A in ppm, [-1000, 1000] (spec 6.1)", ppmA);
    cmd.AddValue("ppmB", "clock offset of B in ppm, [-1000, 1000]", ppmB);
    cmd.AddValue("compensation", "the faster side inserts compensation Idles", compensation);
    cmd.AddValue("laneSkew", "per-lane skew in slots, comma-separated (e.g. 0,3,0,1)", laneSkew);
    // A short RX-up wait unless the command line asks for another
    // (--ns3::RiflNetDevice::Startup=Full): a default, not a helper attribute.
    Config::SetDefault("ns3::RiflNetDevice::Startup", StringValue("Short"));
    cmd.Parse(argc, argv);

    using namespace riflexample;
    RefuseIneffectiveAttributes(argc, argv, {"ns3::DirectLink"}, "a RIFL link",
                                {{"ns3::RiflNetDevice::FrameSize", "use --frameSize"},
                                 {"ns3::RiflNetDevice::Lanes", "use --lanes"},
                                 {"ns3::RiflNetDevice::Mtu", "fixed at 9000 bytes"},
                                 {"ns3::RiflNetDevice::ClockCompensation", "use --compensation"},
                                 {"ns3::RiflNetDevice::ClockOffsetPpm", "use --ppmA/--ppmB"},
                                 {"ns3::RiflChannel::CableLength", "use --cableLength"},
                                 {"ns3::RiflChannel::Ber", "use --ber"},
                                 {"ns3::RiflChannel::Engine", "use --engine"},
                                 {"ns3::RiflChannel::LaneSkew", "use --laneSkew"}});
    const auto frameSize
        = static_cast<uint32_t>(ParseUnsigned("--frameSize", frameSizeText, 1, 1024));
    const auto lanes = static_cast<uint32_t>(ParseUnsigned("--lanes", lanesText, 1, 16));
    const auto minSize = static_cast<uint32_t>(ParseUnsigned("--minSize", minSizeText, 12, 8972));
    const auto maxSize = static_cast<uint32_t>(ParseUnsigned("--maxSize", maxSizeText, 12, 8972));
    RIFL_CHECK_ARG(minSize > maxSize,
                   "--minSize = " << minSize << " and --maxSize = " << maxSize
                                  << " must satisfy 12 <= minSize <= maxSize <= 8972");
    RIFL_CHECK_ARG(!(load > 0 && load <= 2), "--load = " << load << " is out of range (0, 2]");
    const Time start = MicrosecondsOption("--warmup", warmupUs, 0, 1e7);
    const Time duration = MicrosecondsOption("--simTime", simTimeUs, 1e-3, 1e7);
    CheckAttribute("--ber", "ns3::RiflChannel", "Ber", DoubleValue(ber));
    CheckAttribute("--frameSize", "ns3::RiflNetDevice", "FrameSize", UintegerValue(frameSize));
    CheckAttribute("--cableLength", "ns3::RiflChannel", "CableLength", DoubleValue(cableLength));
    CheckAttribute("--engine", "ns3::RiflChannel", "Engine", StringValue(engine));
    CheckAttribute("--laneSkew", "ns3::RiflChannel", "LaneSkew", StringValue(laneSkew));
    CheckAttribute("--ppmA", "ns3::RiflNetDevice", "ClockOffsetPpm", DoubleValue(ppmA));
    CheckAttribute("--ppmB", "ns3::RiflNetDevice", "ClockOffsetPpm", DoubleValue(ppmB));
    RequireWritable("--output", output);

    NodeContainer nodes;
    nodes.Create(2);
    RiflHelper rifl;
    rifl.SetDeviceAttribute("FrameSize", UintegerValue(frameSize));
    rifl.SetDeviceAttribute("Lanes", UintegerValue(lanes));
    rifl.SetDeviceAttribute("Mtu", UintegerValue(9000));
    rifl.SetChannelAttribute("CableLength", DoubleValue(cableLength));
    rifl.SetChannelAttribute("Ber", DoubleValue(ber));
    rifl.SetChannelAttribute("Engine", StringValue(engine));
    rifl.SetChannelAttribute("LaneSkew", StringValue(laneSkew));
    rifl.SetDeviceAttribute("ClockCompensation", BooleanValue(compensation));
    rifl.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("1000p")));
    NetDeviceContainer devices = rifl.Install(nodes);
    devices.Get(0)->SetAttribute("ClockOffsetPpm", DoubleValue(ppmA));
    devices.Get(1)->SetAttribute("ClockOffsetPpm", DoubleValue(ppmB));
    int64_t stream = 1000;
    stream += rifl.AssignStreams(devices, stream);

    Ptr<RiflNetDevice> devA = DynamicCast<RiflNetDevice>(devices.Get(0));
    // The traffic is derived from the line rate: a lane rate the link refuses at its
    // start (RiflLinkConfig) is refused here already.
    const double laneGbps = devA->GetLinkConfig().laneRateGbps;
    RIFL_CHECK_ARG(!(laneGbps > 0 && laneGbps <= 1000),
                   "--ns3::RiflNetDevice::LaneRate = " << laneGbps
                                                       << " Gb/s is outside (0, 1000] Gb/s");

    InternetStackHelper ip;
    ip.Install(nodes);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devices);

    const double lineBps = devA->GetDataRate().GetBitRate();
    const double meanBytes = (minSize + maxSize) / 2.0 + 30; // + IP, UDP, PPP
    const double meanGapNs = meanBytes * 8 / (load * lineBps) * 1e9;
    const Time stop = start + duration;
    std::vector<FlowStats> stats(2);
    std::vector<Source> sources(2);
    for (uint32_t dir = 0; dir < (bidirectional ? 2U : 1U); ++dir)
    {
        const uint32_t from = dir;
        const uint32_t to = 1 - dir;
        Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(to), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        rx->SetAttribute("RcvBufSize", UintegerValue(1 << 26));
        rx->SetRecvCallback(MakeBoundCallback(&Receive, &stats[dir]));
        Source& s = sources[dir];
        s.socket = Socket::CreateSocket(nodes.Get(from), UdpSocketFactory::GetTypeId());
        s.socket->Connect(InetSocketAddress(ifs.GetAddress(to), 9));
        s.size = CreateObject<UniformRandomVariable>();
        s.size->SetAttribute("Min", DoubleValue(minSize));
        s.size->SetAttribute("Max", DoubleValue(maxSize));
        s.size->SetStream(stream++);
        s.gap = CreateObject<ExponentialRandomVariable>();
        s.gap->SetAttribute("Mean", DoubleValue(meanGapNs));
        s.gap->SetStream(stream++);
        s.count = 0xFFFFFFFF;
        s.stop = stop;
        Simulator::Schedule(start, &SendNext, &s);
    }
    // Let what is in flight arrive.
    Simulator::Stop(stop + MicroSeconds(100));
    Simulator::Run();

    nlohmann::json out;
    out["ber"] = ber;
    out["frame_size_bits"] = frameSize;
    out["lanes"] = lanes;
    out["cable_length_m"] = cableLength;
    out["load"] = load;
    out["engine"] = engine;
    out["sim_time_us"] = simTimeUs;
    const RiflLinkConfig& cfg = DynamicCast<RiflChannel>(devA->GetChannel())->GetConfig();
    out["frame_id_width"] = cfg.GetFrameIdWidth();
    out["line_delay_slots"] = cfg.GetLineDelaySlots();
    std::cout << "RIFL" << frameSize << ", " << lanes << " x " << cfg.laneRateGbps << " Gb/s, "
              << cableLength << " m, BER " << ber << ", FrameIdWidth " << cfg.GetFrameIdWidth()
              << ", line delay " << cfg.GetLineDelaySlots() << " slots, engine " << engine << "\n";
    for (uint32_t dir = 0; dir < (bidirectional ? 2U : 1U); ++dir)
    {
        FlowStats& st = stats[dir];
        std::sort(st.latencyNs.begin(), st.latencyNs.end());
        double mean = 0;
        for (double v : st.latencyNs)
        {
            mean += v;
        }
        mean = st.latencyNs.empty() ? NAN : mean / st.latencyNs.size();
        const double goodput = st.bytes * 8.0 / duration.GetSeconds() / 1e9;
        const uint64_t lost = sources[dir].sent - st.received;
        nlohmann::json f;
        f["datagrams_sent"] = sources[dir].sent;
        f["datagrams_received"] = st.received;
        f["datagrams_not_received"] = lost;
        f["duplicates"] = st.duplicates;
        f["out_of_order"] = st.outOfOrder;
        f["corrupt"] = st.corrupt;
        f["goodput_gbps"] = goodput;
        f["latency_ns_mean"] = mean;
        f["latency_ns_p50"] = Quantile(st.latencyNs, 0.5);
        f["latency_ns_p99"] = Quantile(st.latencyNs, 0.99);
        f["latency_ns_p999"] = Quantile(st.latencyNs, 0.999);
        f["latency_ns_max"] = st.latencyNs.empty() ? NAN : st.latencyNs.back();
        out[dir == 0 ? "a_to_b" : "b_to_a"] = f;
        std::cout << (dir == 0 ? "A -> B" : "B -> A") << ": sent " << sources[dir].sent
                  << ", received " << st.received << ", not received " << lost << ", duplicates "
                  << st.duplicates << ", out of order " << st.outOfOrder << ", corrupt "
                  << st.corrupt << "\n  goodput " << std::fixed << std::setprecision(3) << goodput
                  << " Gb/s; latency ns mean " << std::setprecision(1) << mean << ", p50 "
                  << Quantile(st.latencyNs, 0.5) << ", p99 " << Quantile(st.latencyNs, 0.99)
                  << ", p99.9 " << Quantile(st.latencyNs, 0.999) << ", max "
                  << (st.latencyNs.empty() ? NAN : st.latencyNs.back()) << "\n"
                  << std::defaultfloat;
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<RiflNetDevice> d = DynamicCast<RiflNetDevice>(devices.Get(i));
        const RiflEndpointCounters c = d->GetCounters();
        std::cout << (i == 0 ? "A" : "B") << " counters: " << c.ToString() << "\n";
        out[i == 0 ? "counters_a" : "counters_b"] = c.ToString();
    }
    std::ofstream f(output);
    RIFL_CHECK_ARG(!f, "--output = " << output << " cannot be written");
    f << out.dump(2) << "\n";
    std::cout << "Wrote " << output << "\n";
    Simulator::Destroy();
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return ns3::riflexample::RunMain("rifl-link",
                                     [&]()
                                     {
                                         return Run(argc, argv);
                                     });
}

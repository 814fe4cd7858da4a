/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * direct-link-pair: two CPUs on one direct link (5 Gb/s SerDes, 192-bit
 * micro-packets, Go-Back-N), each with a DLIU and a CpuTrafficApplication
 * sending read requests to the other and answering its requests with cache
 * lines. Prints request -> response latency percentiles, throughput,
 * retransmissions, Shutdowns and the analytic MTBF of undetected errors
 * (LinkReliabilityModel::DirectLinkUndetectedExact), and writes them to
 * direct-link-pair-results.json (units in the field names).
 *
 * Every attribute is on the command line, through the short options below or
 * the ns-3 form, e.g.
 *   direct-link-pair --ber=1e-6 --window=16 --responseBytes=64
 *                    --ns3::DirectLinkNetDevice::AckTime=5us
 *                    --ns3::DirectLinkChannel::Engine=Reference
 *                    --ns3::CpuTrafficApplication::HotspotFraction=0.5
 */

#include "ns3/core-module.h"
#include "ns3/cpu-traffic-application.h"
#include "ns3/direct-link-channel.h"
#include "ns3/direct-link-helper.h"
#include "ns3/direct-link-interface-unit.h"
#include "ns3/direct-link-net-device.h"
#include "ns3/link-reliability-model.h"
#include "ns3/network-module.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    double ber = 0.0;
    std::string engine;
    std::string lineRate;
    std::string cableLength;
    std::string delaySlots;
    std::string retryBufferSize;
    std::string vcBufferSize;
    std::string vcBufferSizes;
    std::string crcPoly;
    std::string ackTime;
    std::string retransLimit;
    std::string crdNullTime;
    std::string initialTime;
    std::string nak;
    std::string initAckGuard;
    std::string maxMessageBytes;
    std::string mode;
    std::string rate;
    std::string window;
    std::string requestBytes;
    std::string responseBytes;
    std::string timeout;
    uint64_t requests = 20000;
    bool bidirectional = true;
    Time simTime = MilliSeconds(20);
    std::string output = "direct-link-pair-results.json";
    bool printWallTime = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("ber", "bit error rate of both directions", ber);
    cmd.AddValue("engine", "DirectLinkChannel::Engine: Fast or Reference", engine);
    cmd.AddValue("lineRate", "DirectLinkChannel::LineRate in bit/s", lineRate);
    cmd.AddValue("cableLength", "DirectLinkChannel::CableLength in m", cableLength);
    cmd.AddValue("delaySlots", "DirectLinkChannel::OneWayDelaySlots (-1 = from cable)", delaySlots);
    cmd.AddValue("retryBufferSize", "DirectLinkNetDevice::RetryBufferSize, 1..30", retryBufferSize);
    cmd.AddValue("vcBufferSize", "DirectLinkNetDevice::VcBufferSize", vcBufferSize);
    cmd.AddValue("vcBufferSizes",
                 "DirectLinkNetDevice::VcBufferSizes per VC, e.g. 16,16,4,16 (overrides "
                 "vcBufferSize)",
                 vcBufferSizes);
    cmd.AddValue("crcPoly", "DirectLinkNetDevice::CrcPolynomial (e.g. 7)", crcPoly);
    cmd.AddValue("ackTime", "DirectLinkNetDevice::AckTime (e.g. 2.5us)", ackTime);
    cmd.AddValue("retransLimit", "DirectLinkNetDevice::RetransLimit, 0..31", retransLimit);
    cmd.AddValue("crdNullTime", "DirectLinkNetDevice::CrdNullTime", crdNullTime);
    cmd.AddValue("initialTime", "DirectLinkNetDevice::InitialTime", initialTime);
    cmd.AddValue("nak", "DirectLinkNetDevice::NakEnabled (true/false)", nak);
    cmd.AddValue("initAckGuard",
                 "DirectLinkNetDevice::InitAckGuard (true/false): the corrected handshake",
                 initAckGuard);
    cmd.AddValue("maxMessageBytes", "DirectLinkNetDevice::MaxMessageBytes", maxMessageBytes);
    cmd.AddValue("mode", "CpuTrafficApplication::Mode: OpenLoop or ClosedLoop", mode);
    cmd.AddValue("rate", "CpuTrafficApplication::RequestRate (open loop), requests/s", rate);
    cmd.AddValue("window", "CpuTrafficApplication::MaxOutstanding (closed loop)", window);
    cmd.AddValue("requestBytes", "CpuTrafficApplication::RequestBytes", requestBytes);
    cmd.AddValue("responseBytes", "CpuTrafficApplication::ResponseBytes", responseBytes);
    cmd.AddValue("timeout", "CpuTrafficApplication::Timeout", timeout);
    cmd.AddValue("requests", "requests per CPU (0 = until simTime)", requests);
    cmd.AddValue("bidirectional", "both CPUs send requests (else only CPU 0)", bidirectional);
    cmd.AddValue("simTime", "simulated time", simTime);
    cmd.AddValue("output", "JSON results file", output);
    cmd.AddValue("wallTime",
                 "also report the wall time (stdout and wall_time_s; off by default so that "
                 "runs with the same --RngRun give identical outputs)",
                 printWallTime);
    cmd.Parse(argc, argv);

    auto set = [](const std::string& path, const std::string& v)
    {
        if (!v.empty())
        {
            Config::SetDefault(path, StringValue(v));
        }
    };
    set("ns3::DirectLinkChannel::Engine", engine);
    set("ns3::DirectLinkChannel::LineRate", lineRate);
    set("ns3::DirectLinkChannel::CableLength", cableLength);
    set("ns3::DirectLinkChannel::OneWayDelaySlots", delaySlots);
    set("ns3::DirectLinkNetDevice::RetryBufferSize", retryBufferSize);
    set("ns3::DirectLinkNetDevice::VcBufferSize", vcBufferSize);
    set("ns3::DirectLinkNetDevice::VcBufferSizes", vcBufferSizes);
    set("ns3::DirectLinkNetDevice::CrcPolynomial", crcPoly);
    set("ns3::DirectLinkNetDevice::AckTime", ackTime);
    set("ns3::DirectLinkNetDevice::RetransLimit", retransLimit);
    set("ns3::DirectLinkNetDevice::CrdNullTime", crdNullTime);
    set("ns3::DirectLinkNetDevice::InitialTime", initialTime);
    set("ns3::DirectLinkNetDevice::NakEnabled", nak);
    set("ns3::DirectLinkNetDevice::InitAckGuard", initAckGuard);
    set("ns3::DirectLinkNetDevice::MaxMessageBytes", maxMessageBytes);
    set("ns3::CpuTrafficApplication::Mode", mode);
    set("ns3::CpuTrafficApplication::RequestRate", rate);
    set("ns3::CpuTrafficApplication::MaxOutstanding", window.empty() ? "8" : window);
    set("ns3::CpuTrafficApplication::RequestBytes", requestBytes);
    set("ns3::CpuTrafficApplication::ResponseBytes", responseBytes);
    set("ns3::CpuTrafficApplication::Timeout", timeout);
    Config::SetDefault("ns3::CpuTrafficApplication::MaxRequests", UintegerValue(requests));

    NodeContainer cpus;
    cpus.Create(2);
    DirectLinkHelper helper;
    helper.SetChannelAttribute("Ber", DoubleValue(ber));
    NetDeviceContainer devices = helper.Install(cpus);
    helper.AssignStreams(devices, 1);
    std::vector<Ptr<CpuTrafficApplication>> apps;
    for (uint32_t i = 0; i < 2; ++i)
    {
        helper.InstallDliu(cpus.Get(i), i);
        Ptr<CpuTrafficApplication> app = CreateObject<CpuTrafficApplication>();
        app->SetAttribute("GenerateRequests", BooleanValue(i == 0 || bidirectional));
        app->AssignStreams(100 + 10 * i);
        cpus.Get(i)->AddApplication(app);
        app->SetStartTime(MicroSeconds(5));
        app->SetStopTime(simTime);
        apps.push_back(app);
    }
    Time lastResponse;
    for (auto& app : apps)
    {
        app->TraceConnectWithoutContext("Latency", Callback<void, uint32_t, Time>(
                                                       [&lastResponse](uint32_t, Time)
                                                       {
                                                           lastResponse = Simulator::Now();
                                                       }));
    }
    const auto wall0 = std::chrono::steady_clock::now();
    Simulator::Stop(simTime + MicroSeconds(200));
    Simulator::Run();
    const double wallS
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

    Ptr<DirectLinkChannel> ch = DynamicCast<DirectLinkChannel>(devices.Get(0)->GetChannel());
    const DirectLinkConfig& cfg = ch->GetConfig();
    nlohmann::json out;
    out["ber"] = ber;
    out["line_rate_bps"] = cfg.lineRateBps;
    out["one_way_delay_slots"] = cfg.oneWayDelaySlots;
    out["slot_ns"] = cfg.GetSlotNs();
    out["ack_time_slots"] = cfg.ackTime;
    out["retry_buffer_size"] = cfg.retryBufferSize;
    if (printWallTime)
    {
        out["wall_time_s"] = wallS;
    }
    const double activeS = (lastResponse - MicroSeconds(5)).GetSeconds();
    std::cout << std::fixed << std::setprecision(1);
    std::cout << "direct-link-pair: BER " << std::scientific << std::setprecision(2) << ber
              << std::fixed << std::setprecision(1) << ", " << cfg.lineRateBps / 1e9
              << " Gb/s, slot " << cfg.GetSlotNs() << " ns, L = " << cfg.oneWayDelaySlots
              << " slots, AckTime " << cfg.ackTime << " slots\n";
    uint64_t totalOk = 0;
    uint64_t totalBytes = 0;
    for (uint32_t i = 0; i < 2; ++i)
    {
        const CpuTrafficStats s = apps[i]->GetStats();
        const DirectLinkDeviceCounters c
            = DynamicCast<DirectLinkNetDevice>(devices.Get(i))->GetCounters();
        totalOk += s.responsesOk;
        totalBytes += s.responseBytes;
        std::cout << "CPU " << i << ": requests " << s.requestsIssued << ", responses ok "
                  << s.responsesOk << ", bad " << s.responsesBad << ", errored "
                  << s.responsesErrored << ", timeouts " << s.timeouts << "; latency ns mean "
                  << s.latencyMeanNs << " p50 " << s.latencyP50Ns << " p99 " << s.latencyP99Ns
                  << " p99.9 " << s.latencyP999Ns << " max " << s.latencyMaxNs << "\n";
        std::cout << "  device " << i << ": retransmissions " << c.retransmissions << ", timeouts "
                  << c.timeouts << ", CRC errors " << c.crcErrors << ", undetected "
                  << c.undetectedErrors << ", Shutdowns " << c.shutdowns << ", lost "
                  << c.messagesLost << ", truncated " << c.messagesTruncated << "\n";
        nlohmann::json j;
        j["requests"] = s.requestsIssued;
        j["responses_ok"] = s.responsesOk;
        j["responses_bad"] = s.responsesBad;
        j["responses_errored"] = s.responsesErrored;
        j["timeouts"] = s.timeouts;
        j["requests_served"] = s.requestsServed;
        j["latency_ns_mean"] = s.latencyMeanNs;
        j["latency_ns_p50"] = s.latencyP50Ns;
        j["latency_ns_p99"] = s.latencyP99Ns;
        j["latency_ns_p999"] = s.latencyP999Ns;
        j["latency_ns_max"] = s.latencyMaxNs;
        j["retransmissions"] = c.retransmissions;
        j["ack_timeouts"] = c.timeouts;
        j["crc_errors"] = c.crcErrors;
        j["undetected_errors"] = c.undetectedErrors;
        j["shutdowns"] = c.shutdowns;
        j["messages_lost"] = c.messagesLost;
        j["messages_truncated"] = c.messagesTruncated;
        out["cpu"].push_back(j);
    }
    const double throughputGbps = activeS > 0 ? totalBytes * 8 / activeS / 1e9 : 0.0;
    const double rps = activeS > 0 ? totalOk / activeS : 0.0;
    // MTBF of undetected errors: every slot carries a micro-packet, in both directions.
    const double pud = LinkReliabilityModel::DirectLinkUndetectedExact(ber, cfg.crcPoly);
    const double flitsPerS = 2.0 * cfg.lineRateBps / DirectLinkConfig::MICRO_PACKET_BITS;
    const double mtbfS = pud > 0 ? 1.0 / (pud * flitsPerS) : 0.0;
    std::cout << "throughput: " << rps / 1e6 << " M responses/s, " << std::setprecision(3)
              << throughputGbps << " Gb/s of response data over " << activeS * 1e6 << " us\n";
    std::cout << "P_ud per micro-packet " << std::scientific << pud << ", MTBF (both directions) "
              << mtbfS << " s = " << mtbfS / 3.156e7 << " years"
              << (pud > 0 ? "" : " (BER 0: infinite, reported as 0)") << "\n";
    if (printWallTime)
    {
        std::cout << "wall time " << std::fixed << std::setprecision(2) << wallS << " s\n";
    }
    out["responses_per_s"] = rps;
    out["throughput_gbps"] = throughputGbps;
    out["p_undetected_per_flit"] = pud;
    out["mtbf_s"] = mtbfS;
    out["mtbf_years"] = mtbfS / 3.156e7;
    std::ofstream f(output);
    f << out.dump(2) << "\n";
    Simulator::Destroy();
    return 0;
}

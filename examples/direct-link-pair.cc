/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * direct-link-pair: two CPUs on one direct link (5 Gb/s SerDes, 192-bit
 * micro-packets, Go-Back-N), each with a DLIU and a CpuTrafficApplication
 * sending read requests to the other and answering its requests with cache
 * lines. Prints request -> response latency percentiles, throughput,
 * retransmissions, Shutdowns and the analytic MTBF of undetected errors
 * (LinkReliabilityModel::DirectLinkUndetectedExact), and writes them to
 * direct-link-pair-results.json (units in the field names; null where nothing was
 * measured: latencies and throughput without responses, and mtbf_s / mtbf_years at
 * BER 0, where the MTBF is infinite).
 *
 * Bad options are refused with one line naming the option and its range, exit
 * status 1; --rate needs --mode=OpenLoop and --window --mode=ClosedLoop.
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
#include "rifl-example-args.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <stdexcept>

using namespace ns3;
using namespace ns3::riflexample;

namespace
{

/**
 * \brief Parse a time option ("2.5us", "20ms", a bare number is seconds) without ns-3's
 *        abort on text it cannot parse, and check its range.
 * \param option the option's name, with its dashes.
 * \param text the text.
 * \param loS smallest allowed value in seconds (exclusive: the value must be greater).
 * \param hiS largest allowed value in seconds.
 * \param range the range as the message states it.
 * \return the time.
 */
Time
ParseTimeOption(const std::string& option, const std::string& text, double loS, double hiS,
                const std::string& range)
{
    static const std::pair<const char*, double> units[]
        = {{"", 1.0},     {"s", 1.0},    {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9},
           {"ps", 1e-12}, {"fs", 1e-15}, {"min", 60.0}, {"h", 3600.0}};
    const std::string bad = option + " = " + (text.empty() ? "(empty)" : text)
                            + " is not a time in " + range
                            + " (a number with a unit s, ms, us, ns, ps, fs, min or h, e.g. 2.5us)";
    const std::size_t n = text.find_first_not_of("+-0123456789.eE");
    const std::string number = text.substr(0, n);
    const std::string unit = n == std::string::npos ? "" : text.substr(n);
    char* end = nullptr;
    errno = 0;
    const double v = number.empty() ? NAN : std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || errno != 0 || !std::isfinite(v))
    {
        throw std::invalid_argument(bad);
    }
    double factor = -1;
    for (const auto& [name, f] : units)
    {
        if (unit == name)
        {
            factor = f;
        }
    }
    const double seconds = v * factor;
    if (factor < 0 || !(seconds > loS && seconds <= hiS))
    {
        throw std::invalid_argument(bad);
    }
    const Time t(text); // the text is checked: ns-3's own conversion
    if (!t.IsStrictlyPositive())
    {
        throw std::invalid_argument(option + " = " + text
                                    + " is below the 1 ns resolution of the simulation");
    }
    return t;
}

/**
 * \brief Parse a boolean option: true/false (or 1/0).
 * \param option the option's name, with its dashes.
 * \param text the text.
 * \return the value.
 */
bool
ParseBool(const std::string& option, const std::string& text)
{
    if (text == "true" || text == "1")
    {
        return true;
    }
    if (text == "false" || text == "0")
    {
        return false;
    }
    throw std::invalid_argument(option + " = " + (text.empty() ? "(empty)" : text)
                                + " is not true or false");
}

/**
 * \brief The current default of an attribute (after the command line's
 *        --ns3::Type::Attribute settings), as text.
 * \param type the TypeId name.
 * \param attribute the attribute.
 * \return the default, serialized.
 */
std::string
CurrentDefault(const std::string& type, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    TypeId::LookupByName(type).LookupAttributeByName(attribute, &info);
    return info.initialValue->SerializeToString(info.checker);
}

/// The body of main().
int
Main(int argc, char* argv[])
{
    std::string berText = "0";
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
    std::string requestsText = "20000";
    bool bidirectional = true;
    std::string simTimeText = "20ms";
    std::string output = "direct-link-pair-results.json";
    bool printWallTime = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("ber", "bit error rate of both directions, [0, 1)", berText);
    cmd.AddValue("engine", "DirectLinkChannel::Engine: Fast or Reference", engine);
    cmd.AddValue("lineRate", "DirectLinkChannel::LineRate in bit/s, [1e6, 1e12]", lineRate);
    cmd.AddValue("cableLength", "DirectLinkChannel::CableLength in m, [0, 10000]", cableLength);
    cmd.AddValue("delaySlots",
                 "DirectLinkChannel::OneWayDelaySlots, [0, 1000000] (-1 = from cable)", delaySlots);
    cmd.AddValue("retryBufferSize", "DirectLinkNetDevice::RetryBufferSize, 1..30", retryBufferSize);
    cmd.AddValue("vcBufferSize", "DirectLinkNetDevice::VcBufferSize, 1..4096", vcBufferSize);
    cmd.AddValue("vcBufferSizes",
                 "DirectLinkNetDevice::VcBufferSizes per VC, four values in 1..4096, e.g. "
                 "16,16,4,16 (overrides vcBufferSize)",
                 vcBufferSizes);
    cmd.AddValue("crcPoly", "DirectLinkNetDevice::CrcPolynomial, odd, 1..255 (e.g. 7)", crcPoly);
    cmd.AddValue("ackTime", "DirectLinkNetDevice::AckTime (e.g. 2.5us)", ackTime);
    cmd.AddValue("retransLimit", "DirectLinkNetDevice::RetransLimit, 0..31", retransLimit);
    cmd.AddValue("crdNullTime", "DirectLinkNetDevice::CrdNullTime (e.g. 40us)", crdNullTime);
    cmd.AddValue("initialTime", "DirectLinkNetDevice::InitialTime (e.g. 160us)", initialTime);
    cmd.AddValue("nak", "DirectLinkNetDevice::NakEnabled (true/false)", nak);
    cmd.AddValue("initAckGuard",
                 "DirectLinkNetDevice::InitAckGuard (true/false): the corrected handshake",
                 initAckGuard);
    cmd.AddValue("maxMessageBytes", "DirectLinkNetDevice::MaxMessageBytes, 0..65535",
                 maxMessageBytes);
    cmd.AddValue("mode", "CpuTrafficApplication::Mode: OpenLoop or ClosedLoop", mode);
    cmd.AddValue("rate",
                 "CpuTrafficApplication::RequestRate (open loop only), requests/s, [1e-3, 1e10]",
                 rate);
    cmd.AddValue("window",
                 "CpuTrafficApplication::MaxOutstanding (closed loop only), 1..65536 (default 8)",
                 window);
    cmd.AddValue("requestBytes", "CpuTrafficApplication::RequestBytes, 8..4096", requestBytes);
    cmd.AddValue("responseBytes", "CpuTrafficApplication::ResponseBytes, 4..4096", responseBytes);
    cmd.AddValue("timeout", "CpuTrafficApplication::Timeout, (0, 1s]", timeout);
    cmd.AddValue("requests", "requests per CPU, 0..1000000000 (0 = until simTime)", requestsText);
    cmd.AddValue("bidirectional", "both CPUs send requests (else only CPU 0)", bidirectional);
    cmd.AddValue("simTime", "simulated time, (5us, 1000s] (e.g. 20ms)", simTimeText);
    cmd.AddValue("output", "JSON results file", output);
    cmd.AddValue("wallTime",
                 "also report the wall time (stdout and wall_time_s; off by default so that "
                 "runs with the same --RngRun give identical outputs)",
                 printWallTime);
    cmd.Parse(argc, argv);

    // Every option is checked before anything is set or run.
    const double ber = ParseDoubleIn("--ber", berText, 0.0, false, 1.0, true);
    const uint64_t requests = ParseUnsigned("--requests", requestsText, 0, 1000000000ULL);
    const Time simTime = ParseTimeOption("--simTime", simTimeText, 5e-6, 1000.0, "(5us, 1000s]");
    RequireWritable("--output", output);

    auto setDefault = [](const std::string& option, const std::string& type,
                         const std::string& attribute, const AttributeValue& value)
    {
        CheckAttribute(option, type, attribute, value);
        Config::SetDefault(type + "::" + attribute, value);
    };
    const std::string channel = "ns3::DirectLinkChannel";
    const std::string device = "ns3::DirectLinkNetDevice";
    const std::string app = "ns3::CpuTrafficApplication";
    if (!engine.empty())
    {
        RIFL_CHECK_ARG(engine != "Fast" && engine != "Reference",
                       "--engine = " << engine << " is not Fast or Reference");
        setDefault("--engine", channel, "Engine", StringValue(engine));
    }
    if (!lineRate.empty())
    {
        const double v = ParseDouble("--lineRate", lineRate, 1e6, 1e12);
        RIFL_CHECK_ARG(v != std::floor(v),
                       "--lineRate = " << lineRate << " is not a whole number of bit/s");
        setDefault("--lineRate", channel, "LineRate", UintegerValue(static_cast<uint64_t>(v)));
    }
    if (!cableLength.empty())
    {
        setDefault("--cableLength", channel, "CableLength",
                   DoubleValue(ParseDouble("--cableLength", cableLength, 0.0, 10000.0)));
    }
    if (!delaySlots.empty())
    {
        int64_t v = -1;
        if (delaySlots != "-1")
        {
            try
            {
                v = static_cast<int64_t>(ParseUnsigned("--delaySlots", delaySlots, 0, 1000000));
            }
            catch (const std::invalid_argument&)
            {
                throw std::invalid_argument("--delaySlots = " + delaySlots
                                            + " is not -1 (from the cable) or a whole number in "
                                              "[0, 1000000]");
            }
        }
        setDefault("--delaySlots", channel, "OneWayDelaySlots", IntegerValue(v));
    }
    auto setUnsigned
        = [&setDefault](const std::string& option, const std::string& text, const std::string& type,
                        const std::string& attribute, uint64_t lo, uint64_t hi)
    {
        if (!text.empty())
        {
            setDefault(option, type, attribute, UintegerValue(ParseUnsigned(option, text, lo, hi)));
        }
    };
    setUnsigned("--retryBufferSize", retryBufferSize, device, "RetryBufferSize", 1, 30);
    setUnsigned("--vcBufferSize", vcBufferSize, device, "VcBufferSize", 1, 4096);
    if (!vcBufferSizes.empty())
    {
        std::stringstream ss(vcBufferSizes);
        std::string item;
        uint32_t items = 0;
        while (std::getline(ss, item, ','))
        {
            ParseUnsigned("--vcBufferSizes item", item, 1, 4096);
            ++items;
        }
        RIFL_CHECK_ARG(items != 4 || vcBufferSizes.back() == ',',
                       "--vcBufferSizes = " << vcBufferSizes
                                            << " must be four comma-separated whole numbers in "
                                               "[1, 4096], one per VC (e.g. 16,16,4,16)");
        setDefault("--vcBufferSizes", device, "VcBufferSizes", StringValue(vcBufferSizes));
    }
    if (!crcPoly.empty())
    {
        const uint64_t v = ParseUnsigned("--crcPoly", crcPoly, 1, 255);
        RIFL_CHECK_ARG(v % 2 == 0,
                       "--crcPoly = " << crcPoly
                                      << " must be odd (a CRC-8 generator with the x^0 term), "
                                         "1..255");
        setDefault("--crcPoly", device, "CrcPolynomial", UintegerValue(v));
    }
    auto setTime = [&setDefault](const std::string& option, const std::string& text,
                                 const std::string& type, const std::string& attribute)
    {
        if (!text.empty())
        {
            setDefault(option, type, attribute,
                       TimeValue(ParseTimeOption(option, text, 0.0, 1.0, "(0, 1s]")));
        }
    };
    setTime("--ackTime", ackTime, device, "AckTime");
    setUnsigned("--retransLimit", retransLimit, device, "RetransLimit", 0, 31);
    setTime("--crdNullTime", crdNullTime, device, "CrdNullTime");
    setTime("--initialTime", initialTime, device, "InitialTime");
    if (!nak.empty())
    {
        setDefault("--nak", device, "NakEnabled", BooleanValue(ParseBool("--nak", nak)));
    }
    if (!initAckGuard.empty())
    {
        setDefault("--initAckGuard", device, "InitAckGuard",
                   BooleanValue(ParseBool("--initAckGuard", initAckGuard)));
    }
    setUnsigned("--maxMessageBytes", maxMessageBytes, device, "MaxMessageBytes", 0, 65535);
    if (!mode.empty())
    {
        RIFL_CHECK_ARG(mode != "OpenLoop" && mode != "ClosedLoop",
                       "--mode = " << mode << " is not OpenLoop or ClosedLoop");
        setDefault("--mode", app, "Mode", StringValue(mode));
    }
    // --rate applies to open loop only, --window to closed loop only: refused otherwise
    // rather than ignored.
    const std::string effectiveMode = CurrentDefault(app, "Mode");
    RIFL_CHECK_ARG(!rate.empty() && effectiveMode != "OpenLoop",
                   "--rate applies to --mode=OpenLoop only (the mode is " << effectiveMode << ")");
    RIFL_CHECK_ARG(!window.empty() && effectiveMode != "ClosedLoop",
                   "--window applies to --mode=ClosedLoop only (the mode is " << effectiveMode
                                                                              << ")");
    if (!rate.empty())
    {
        setDefault("--rate", app, "RequestRate",
                   DoubleValue(ParseDouble("--rate", rate, 1e-3, 1e10)));
    }
    setUnsigned("--window", window.empty() ? "8" : window, app, "MaxOutstanding", 1, 65536);
    setUnsigned("--requestBytes", requestBytes, app, "RequestBytes", 8, 4096);
    setUnsigned("--responseBytes", responseBytes, app, "ResponseBytes", 4, 4096);
    setTime("--timeout", timeout, app, "Timeout");
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
                  << s.responsesErrored << ", timeouts " << s.timeouts << "; ";
        if (s.responsesOk > 0)
        {
            std::cout << "latency ns mean " << s.latencyMeanNs << " p50 " << s.latencyP50Ns
                      << " p99 " << s.latencyP99Ns << " p99.9 " << s.latencyP999Ns << " max "
                      << s.latencyMaxNs << "\n";
        }
        else
        {
            std::cout << "latency: no responses\n";
        }
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
        // latencies are null when no response arrived (nothing measured)
        const bool measured = s.responsesOk > 0;
        j["latency_ns_mean"] = measured ? nlohmann::json(s.latencyMeanNs) : nlohmann::json();
        j["latency_ns_p50"] = measured ? nlohmann::json(s.latencyP50Ns) : nlohmann::json();
        j["latency_ns_p99"] = measured ? nlohmann::json(s.latencyP99Ns) : nlohmann::json();
        j["latency_ns_p999"] = measured ? nlohmann::json(s.latencyP999Ns) : nlohmann::json();
        j["latency_ns_max"] = measured ? nlohmann::json(s.latencyMaxNs) : nlohmann::json();
        j["retransmissions"] = c.retransmissions;
        j["ack_timeouts"] = c.timeouts;
        j["crc_errors"] = c.crcErrors;
        j["undetected_errors"] = c.undetectedErrors;
        j["shutdowns"] = c.shutdowns;
        j["messages_lost"] = c.messagesLost;
        j["messages_truncated"] = c.messagesTruncated;
        out["cpu"].push_back(j);
    }
    // The active time runs from the applications' start to the last response.
    const double activeS = (lastResponse - MicroSeconds(5)).GetSeconds();
    const bool throughputMeasured = totalOk > 0 && activeS > 0;
    const double throughputGbps = throughputMeasured ? totalBytes * 8 / activeS / 1e9 : 0.0;
    const double rps = throughputMeasured ? totalOk / activeS : 0.0;
    // MTBF of undetected errors: every slot carries a micro-packet, in both directions.
    const double pud = LinkReliabilityModel::DirectLinkUndetectedExact(ber, cfg.crcPoly);
    const double flitsPerS = 2.0 * cfg.lineRateBps / DirectLinkConfig::MICRO_PACKET_BITS;
    const double mtbfS = pud > 0 ? 1.0 / (pud * flitsPerS) : 0.0;
    if (throughputMeasured)
    {
        std::cout << "throughput: " << rps / 1e6 << " M responses/s, " << std::setprecision(3)
                  << throughputGbps << " Gb/s of response data over " << activeS * 1e6 << " us\n";
    }
    else
    {
        std::cout << "throughput: no responses (nothing measured)\n";
    }
    std::cout << "P_ud per micro-packet " << std::scientific << std::setprecision(3) << pud;
    if (pud > 0)
    {
        std::cout << ", MTBF (both directions) " << mtbfS << " s = " << mtbfS / 3.156e7
                  << " years\n";
    }
    else
    {
        std::cout << ", MTBF (both directions) infinite (no undetected errors at BER 0)\n";
    }
    if (printWallTime)
    {
        std::cout << "wall time " << std::fixed << std::setprecision(2) << wallS << " s\n";
    }
    // null = not measured (no responses) or infinite (MTBF at BER 0)
    out["responses_per_s"] = throughputMeasured ? nlohmann::json(rps) : nlohmann::json();
    out["throughput_gbps"] = throughputMeasured ? nlohmann::json(throughputGbps) : nlohmann::json();
    out["p_undetected_per_flit"] = pud;
    out["mtbf_s"] = pud > 0 ? nlohmann::json(mtbfS) : nlohmann::json();
    out["mtbf_years"] = pud > 0 ? nlohmann::json(mtbfS / 3.156e7) : nlohmann::json();
    std::ofstream f(output);
    f << out.dump(2) << "\n";
    f.close();
    RIFL_CHECK_ARG(!f, "--output = " << output << " could not be written");
    Simulator::Destroy();
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return RunMain("direct-link-pair",
                   [&]()
                   {
                       return Main(argc, argv);
                   });
}

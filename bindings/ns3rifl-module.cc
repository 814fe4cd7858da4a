/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3rifl._core: the Python face of the rifl module (pybind11). It binds the
 * scenario level, not all of ns-3: the analytic reliability model (vectorised
 * over NumPy arrays where it helps) and scenario runners that configure a
 * simulation from keyword arguments, run it with the GIL released, destroy
 * the simulator, and return plain Python data. Every bad argument raises
 * ValueError or TypeError naming it; nothing aborts the interpreter.
 */

#include "ns3/direct-link-net-device.h"
#include "ns3/direct-link-pair-scenario.h"
#include "ns3/link-reliability-model.h"
#include "ns3/multiprocessor-scenario.h"
#include "ns3/rifl-link-scenario.h"
#include "ns3/scenario-attribute-defaults.h"
#include "ns3/type-id.h"
#include "ns3/weight-spectrum.h"
#include "ns3rifl-binding-util.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace ns3;
using M = LinkReliabilityModel;
void RiflBindDcn(py::module_& m); // bindings/dcn-binding.cc

namespace
{

using ns3rifl::IntArg;
using ns3rifl::RunGuard;
using ns3rifl::ToAttributeMap;
using ns3rifl::ToKeywords;
using ns3rifl::ToUInt;
using ns3rifl::U32_MAX;
using ns3rifl::U64_MAX;

/**
 * \brief "name=value name=value ..." (RiflEndpointCounters::ToString) as a dict of ints.
 * \param text the text.
 * \return the dict.
 */
py::dict
CountersToDict(const std::string& text)
{
    py::dict d;
    std::istringstream is(text);
    std::string tok;
    while (is >> tok)
    {
        const std::size_t eq = tok.find('=');
        if (eq == std::string::npos)
        {
            continue;
        }
        std::string name = tok.substr(0, eq);
        for (char& ch : name)
        {
            if (ch == '[' || ch == ']')
            {
                ch = '_';
            }
        }
        while (!name.empty() && name.back() == '_')
        {
            name.pop_back();
        }
        d[py::str(name)] = py::int_(std::stoull(tok.substr(eq + 1)));
    }
    return d;
}

/**
 * \brief One direction's results as a dict (units in the names).
 * \param r the results.
 * \return the dict.
 */
py::dict
DirectionToDict(const RiflLinkDirectionResult& r)
{
    py::dict d;
    d["packets_offered"] = r.packetsOffered;
    d["packets_delivered"] = r.packetsDelivered;
    d["packets_corrupt"] = r.packetsCorrupt;
    d["bytes_delivered"] = r.bytesDelivered;
    d["goodput_gbps"] = r.goodputGbps;
    d["line_share"] = r.lineShare;
    d["word_latency_ns_mean"] = r.wordLatencyNsMean;
    d["word_latency_ns_p50"] = r.wordLatencyNsP50;
    d["word_latency_ns_p99"] = r.wordLatencyNsP99;
    d["word_latency_ns_p999"] = r.wordLatencyNsP999;
    d["word_latency_ns_max"] = r.wordLatencyNsMax;
    d["packet_latency_ns_mean"] = r.packetLatencyNsMean;
    d["packet_latency_ns_p99"] = r.packetLatencyNsP99;
    d["packet_latency_ns_max"] = r.packetLatencyNsMax;
    return d;
}

/// RiflLinkScenarioConfig fields -> run_rifl_link keywords.
const ns3rifl::KeywordNames kRiflLinkKeywords = {
    {"minPacketBytes", "min_packet_bytes"},
    {"maxPacketBytes", "max_packet_bytes"},
    {"warmupUs", "warmup_us"},
    {"durationUs", "duration_us"},
    {"rngRun", "rng_run"},
    {"RiflLinkScenario", "run_rifl_link"},
};

/**
 * \brief Run the single RIFL link scenario.
 * \return its results as a dict.
 */
py::dict
RunRiflLink(double ber, double load, const IntArg& minPacketBytes, const IntArg& maxPacketBytes,
            double warmupUs, double durationUs, bool bidirectional, const IntArg& rngRunArg,
            const py::object& attributes)
{
    RunGuard guard; // one run at a time in the process
    RiflLinkScenarioConfig c;
    c.ber = ber;
    c.load = load;
    c.minPacketBytes = ToUInt(minPacketBytes.value, "min_packet_bytes", 0, U32_MAX);
    c.maxPacketBytes = ToUInt(maxPacketBytes.value, "max_packet_bytes", 0, U32_MAX);
    c.warmupUs = warmupUs;
    c.durationUs = durationUs;
    c.bidirectional = bidirectional;
    const uint64_t rngRun = ToUInt(rngRunArg.value, "rng_run", 1, U64_MAX);
    c.rngRun = rngRun;
    c.attributes = ToAttributeMap(attributes);
    const RiflLinkScenarioResult r
        = ns3rifl::RunScenario(c, &RiflLinkScenario::Run,
                               [](const std::string& what)
                               {
                                   return ToKeywords(what, kRiflLinkKeywords);
                               });
    py::dict d;
    d["ber"] = ber;
    d["load"] = load;
    d["rng_run"] = rngRun;
    d["line_rate_gbps"] = r.lineRateGbps;
    d["slot_ns"] = r.slotNs;
    d["frame_id_width"] = r.frameIdWidth;
    d["line_delay_slots"] = r.lineDelaySlots;
    d["a_to_b"] = DirectionToDict(r.aToB);
    d["b_to_a"] = DirectionToDict(r.bToA);
    d["counters_a"] = CountersToDict(r.countersA.ToString());
    d["counters_b"] = CountersToDict(r.countersB.ToString());
    d["mtbf_years_paper"] = r.mtbfYearsPaper;
    d["mtbf_years_exact"] = r.mtbfYearsExact;
    d["wall_s"] = r.wallSeconds;
    d["events"] = r.events;
    return d;
}

/// DirectLinkPairScenarioConfig fields -> run_direct_link_pair keywords.
const ns3rifl::KeywordNames kDirectLinkPairKeywords = {
    {"requestBytes", "request_bytes"},
    {"responseBytes", "response_bytes"},
    {"maxOutstanding", "max_outstanding"},
    {"requestRate", "request_rate"},
    {"warmupUs", "warmup_us"},
    {"durationUs", "duration_us"},
    {"rngRun", "rng_run"},
    {"closedLoop", "mode"},
    {"DirectLinkPairScenario", "run_direct_link_pair"},
};

/**
 * \brief Run the two-CPU direct-link scenario.
 * \return its results as a dict (units in the names).
 */
py::dict
RunDirectLinkPair(double ber, const IntArg& requestBytes, const IntArg& responseBytes,
                  const std::string& mode, const IntArg& maxOutstanding,
                  std::optional<double> requestRate, double warmupUs, double durationUs,
                  bool bidirectional, const IntArg& rngRunArg, const py::object& attributes)
{
    RunGuard guard; // one run at a time in the process
    if (mode != "closed_loop" && mode != "open_loop")
    {
        throw py::value_error("mode = \"" + mode + "\" must be \"closed_loop\" or \"open_loop\"");
    }
    DirectLinkPairScenarioConfig c;
    c.closedLoop = mode == "closed_loop";
    // A keyword of the other mode is a mistake, not something to ignore.
    if (!c.closedLoop && maxOutstanding.Given())
    {
        throw py::value_error("max_outstanding does not apply to mode = \"open_loop\" (it "
                              "bounds the requests in flight of mode = \"closed_loop\"; "
                              "open loop issues request_rate requests per second)");
    }
    if (c.closedLoop && requestRate)
    {
        throw py::value_error("request_rate does not apply to mode = \"closed_loop\" (it is "
                              "the Poisson rate of mode = \"open_loop\"; closed loop keeps "
                              "max_outstanding requests in flight)");
    }
    c.ber = ber;
    c.requestBytes = ToUInt(requestBytes.value, "request_bytes", 0, U32_MAX);
    c.responseBytes = ToUInt(responseBytes.value, "response_bytes", 0, U32_MAX);
    c.maxOutstanding = ToUInt(maxOutstanding, "max_outstanding", 0, U32_MAX, c.maxOutstanding);
    c.requestRate = requestRate.value_or(c.requestRate);
    c.warmupUs = warmupUs;
    c.durationUs = durationUs;
    c.bidirectional = bidirectional;
    const uint64_t rngRun = ToUInt(rngRunArg.value, "rng_run", 1, U64_MAX);
    c.rngRun = rngRun;
    c.attributes = ToAttributeMap(attributes);
    const DirectLinkPairScenarioResult r
        = ns3rifl::RunScenario(c, &DirectLinkPairScenario::Run,
                               [](const std::string& what)
                               {
                                   return ToKeywords(what, kDirectLinkPairKeywords);
                               });
    py::dict d;
    d["ber"] = ber;
    d["mode"] = mode;
    d["rng_run"] = rngRun;
    d["line_rate_gbps"] = r.lineRateGbps;
    d["slot_ns"] = r.slotNs;
    d["one_way_delay_slots"] = r.oneWayDelaySlots;
    d["requests_issued"] = r.requestsIssued;
    d["responses"] = r.responses;
    d["responses_bad"] = r.responsesBad;
    d["responses_errored"] = r.responsesErrored;
    d["request_timeouts"] = r.requestTimeouts;
    d["response_bytes"] = r.responseBytes;
    d["responses_per_s"] = r.responsesPerSecond;
    d["throughput_gbps"] = r.throughputGbps;
    d["latency_ns_mean"] = r.latencyNsMean;
    d["latency_ns_p50"] = r.latencyNsP50;
    d["latency_ns_p99"] = r.latencyNsP99;
    d["latency_ns_p999"] = r.latencyNsP999;
    d["latency_ns_max"] = r.latencyNsMax;
    d["retransmissions"] = r.retransmissions;
    d["ack_timeouts"] = r.ackTimeouts;
    d["crc_errors"] = r.crcErrors;
    d["shutdowns"] = r.shutdowns;
    d["messages_lost"] = r.messagesLost;
    d["messages_held_open"] = r.messagesHeldOpen;
    d["messages_truncated"] = r.messagesTruncated;
    d["undetected_errors"] = r.undetectedErrors;
    d["content_mismatches"] = r.contentMismatches;
    d["micro_packets"] = r.microPackets;
    d["micro_packets_per_s"] = r.microPacketsPerSecond;
    d["p_undetected_per_micro_packet"] = r.pUndetected;
    d["mtbf_years"] = r.mtbfYears;
    d["mtbf_years_full_line"] = r.mtbfYearsFullLine;
    d["wall_s"] = r.wallSeconds;
    d["events"] = r.events;
    return d;
}

/// MultiprocessorScenarioConfig fields -> run_multiprocessor keywords.
const ns3rifl::KeywordNames kMultiprocessorKeywords = {
    {"deadlockAvoidance", "deadlock_avoidance"},
    {"requestsPerCpu", "requests_per_cpu"},
    {"requestBytes", "request_bytes"},
    {"responseBytes", "response_bytes"},
    {"maxDurationUs", "max_duration_us"},
    {"startUs", "start_us"},
    {"rngRun", "rng_run"},
    {"splitRemoteLinks", "split_remote_links"},
    {"MultiprocessorScenario", "run_multiprocessor"},
};

/**
 * \brief Run the multiprocessor direct-connect scenario.
 * \return its results as a dict (units in the names).
 */
py::dict
RunMultiprocessor(const std::string& topology, const IntArg& n, const IntArg& x, const IntArg& y,
                  const IntArg& dim, const std::string& deadlockAvoidance, double ber,
                  const IntArg& requestsPerCpu, const IntArg& window, const IntArg& requestBytes,
                  const IntArg& responseBytes, double startUs, double maxDurationUs,
                  const IntArg& rngRunArg, const IntArg& ranks, bool splitRemoteLinks,
                  const std::string& link, const py::object& attributes)
{
    RunGuard guard; // one run at a time in the process
    MultiprocessorScenarioConfig c;
    c.topology = topology;
    c.n = ToUInt(n, "n", 0, U32_MAX, c.n);
    c.x = ToUInt(x, "x", 0, U32_MAX, c.x);
    c.y = ToUInt(y, "y", 0, U32_MAX, c.y);
    c.dim = ToUInt(dim, "dim", 0, U32_MAX, c.dim);
    // A size keyword of another topology is a mistake, not something to ignore.
    const struct
    {
        const char* name;
        const IntArg& value;
        bool applies;
    } sizes[] = {
        {"n", n, topology == "fullmesh" || topology == "ring"},
        {"x", x, topology == "mesh" || topology == "torus"},
        {"y", y, topology == "mesh" || topology == "torus"},
        {"dim", dim, topology == "hypercube"},
    };
    const bool known = topology == "fullmesh" || topology == "ring" || topology == "mesh"
                       || topology == "torus" || topology == "hypercube";
    for (const auto& k : sizes)
    {
        if (known && !k.applies && k.value.Given())
        {
            throw py::value_error(std::string(k.name) + " does not apply to topology = \""
                                  + topology
                                  + "\" (fullmesh and ring take n, mesh and torus x and y, "
                                    "hypercube dim)");
        }
    }
    c.deadlockAvoidance = deadlockAvoidance;
    c.ber = ber;
    c.requestsPerCpu = ToUInt(requestsPerCpu.value, "requests_per_cpu", 0, U32_MAX);
    c.window = ToUInt(window.value, "window", 0, U32_MAX);
    c.requestBytes = ToUInt(requestBytes.value, "request_bytes", 0, U32_MAX);
    c.responseBytes = ToUInt(responseBytes.value, "response_bytes", 0, U32_MAX);
    c.startUs = startUs;
    c.maxDurationUs = maxDurationUs;
    const uint64_t rngRun = ToUInt(rngRunArg.value, "rng_run", 1, U64_MAX);
    c.rngRun = rngRun;
    c.ranks = ToUInt(ranks.value, "ranks", 0, U32_MAX);
    c.splitRemoteLinks = splitRemoteLinks;
    c.link = link;
    c.attributes = ToAttributeMap(attributes);
    const MultiprocessorScenarioResult r
        = ns3rifl::RunScenario(c, &MultiprocessorScenario::Run,
                               [](const std::string& what)
                               {
                                   return ToKeywords(what, kMultiprocessorKeywords);
                               });
    py::dict d;
    d["topology"] = r.topology;
    d["link"] = r.link;
    d["n_cpus"] = r.nCpus;
    d["n_links"] = r.nLinks;
    d["n_links_across_ranks"] = r.nLinksAcrossRanks;
    d["deadlock_avoidance"] = deadlockAvoidance;
    d["channel_dependencies_acyclic"] = r.channelDependenciesAcyclic;
    d["deadlock_free"] = r.deadlockFree;
    d["ber"] = ber;
    d["rng_run"] = rngRun;
    d["completed"] = r.completed;
    d["duration_us"] = r.durationUs;
    d["line_rate_gbps"] = r.lineRateGbps;
    d["slot_ns"] = r.slotNs;
    d["one_way_delay_slots"] = r.oneWayDelaySlots;
    d["requests_issued"] = r.requestsIssued;
    d["requests_refused"] = r.requestsRefused;
    d["requests_served"] = r.requestsServed;
    d["requests_errored"] = r.requestsErrored;
    d["responses"] = r.responsesOk;
    d["responses_bad"] = r.responsesBad;
    d["responses_errored"] = r.responsesErrored;
    d["responses_late"] = r.responsesLate;
    d["responses_unknown"] = r.responsesUnknown;
    d["request_timeouts"] = r.requestTimeouts;
    d["requests_outstanding"] = r.requestsOutstanding;
    d["response_bytes"] = r.responseBytes;
    d["throughput_gbps"] = r.throughputGbps;
    d["messages_sent"] = r.messagesSent;
    d["messages_delivered"] = r.messagesDelivered;
    d["messages_delivered_errored"] = r.messagesDeliveredErrored;
    d["messages_forwarded"] = r.messagesForwarded;
    d["forwards_expected"] = r.forwardsExpected;
    d["forward_truncated"] = r.forwardTruncated;
    d["send_failures"] = r.sendFailures;
    d["link_messages_accepted"] = r.linkMessagesAccepted;
    d["link_messages_delivered"] = r.linkMessagesDelivered;
    d["link_messages_truncated"] = r.linkMessagesTruncated;
    d["link_messages_malformed"] = r.linkMessagesMalformed;
    d["content_mismatches"] = r.contentMismatches;
    d["messages_lost"] = r.messagesLost;
    d["messages_held_open"] = r.messagesHeldOpen;
    py::dict lost;
    for (uint32_t j = 0; j < MULTIPROCESSOR_SCENARIO_LOSS_REASONS; ++j)
    {
        lost[py::str(DirectLinkLossReasonName(static_cast<DirectLinkLossReason>(j)))]
            = r.lostByReason[j];
    }
    d["messages_lost_by_reason"] = lost;
    d["latency_ns_mean"] = r.latencyNsMean;
    d["latency_ns_min"] = r.latencyNsMin;
    d["latency_ns_p50"] = r.latencyNsP50;
    d["latency_ns_p99"] = r.latencyNsP99;
    d["latency_ns_p999"] = r.latencyNsP999;
    d["latency_ns_max"] = r.latencyNsMax;
    d["hops_mean"] = r.hopsMean;
    d["hops_max"] = r.hopsMax;
    d["micro_packets"] = r.microPackets;
    d["data_micro_packets"] = r.dataMicroPackets;
    d["link_utilisation_mean"] = r.linkUtilisationMean;
    d["link_utilisation_max"] = r.linkUtilisationMax;
    d["retransmissions"] = r.retransmissions;
    d["ack_timeouts"] = r.ackTimeouts;
    d["crc_errors"] = r.crcErrors;
    d["shutdowns"] = r.shutdowns;
    d["undetected_errors"] = r.undetectedErrors;
    d["p_undetected_per_micro_packet"] = r.pUndetected;
    d["network_mtbf_years"] = r.networkMtbfYears;
    d["network_mtbf_years_full_line"] = r.networkMtbfYearsFullLine;
    d["wall_s"] = r.wallSeconds;
    d["events"] = r.events;
    return d;
}

} // namespace

PYBIND11_MODULE(_core, m)
{
    m.doc() = "rifl ns-3 module: analytic reliability model and scenario runners";
    m.attr("SECONDS_PER_YEAR") = M::SECONDS_PER_YEAR;

    // Analytic model (vectorised over the first argument where it is a rate).
    m.def("frame_error_rate", py::vectorize(&M::FrameErrorRate), py::arg("ber"),
          py::arg("frame_bits"), "1 - (1 - ber)^frame_bits");
    m.def("rifl_framing_efficiency", py::vectorize(&M::RiflFramingEfficiency),
          py::arg("packet_bytes"), py::arg("frame_bits"),
          "P / ((S/8) ceil(P / (S_payload/8))): the zig-zag framing efficiency");
    m.def("rifl_framing_asymptote", &M::RiflFramingAsymptote, py::arg("frame_bits"));
    m.def("rifl_payload_bits", &M::RiflPayloadBits, py::arg("frame_bits"));
    m.def("rifl_sizing_rtt_s", &M::RiflSizingRtt, py::arg("cable_length_m"),
          py::arg("transceiver_delay_s") = 80e-9, py::arg("seconds_per_metre") = 3.34e-9);
    m.def("rifl_frame_id_width", &M::RiflFrameIdWidth, py::arg("lane_rate_bps"),
          py::arg("cable_length_m"), py::arg("frame_bits"), py::arg("transceiver_delay_s") = 80e-9,
          py::arg("seconds_per_metre") = 3.34e-9, "the RTL rule 2^FID >= 32 + RTT frames");
    m.def("rifl_rtt_frames", &M::RiflRttFrames, py::arg("lane_rate_bps"), py::arg("cable_length_m"),
          py::arg("frame_bits"), py::arg("transceiver_delay_s") = 80e-9,
          py::arg("seconds_per_metre") = 3.34e-9);
    m.def("rifl_retrans_buffer_bytes", &M::RiflRetransBufferBytes, py::arg("line_rate_bps"),
          py::arg("circuit_delay_s"), py::arg("cable_length_m"), py::arg("propagation_mps") = 3e8,
          "Eq. 1-4: (T_circuit + 2L/C) x line rate / 8");
    m.def("rifl_fc_buffer_frames", &M::RiflFcBufferFrames, py::arg("frame_id_width"));
    m.def("rifl_fc_threshold_on", &M::RiflFcThresholdOn, py::arg("frame_id_width"));
    m.def("rifl_fc_threshold_off", &M::RiflFcThresholdOff, py::arg("frame_id_width"));
    m.def("rifl_replay_slots", &M::RiflReplaySlots, py::arg("frame_id_width"));
    m.def("rifl_bandwidth_ratio", py::vectorize(&M::RiflBandwidthRatio), py::arg("ber"),
          py::arg("frame_bits"), py::arg("lanes"), py::arg("k_stall_slots"),
          py::arg("directions") = 2, "1 / (1 + directions x lanes x FER x K_stall)");
    m.def("rifl_undetected_paper", py::vectorize(&M::RiflUndetectedPaper), py::arg("ber"),
          py::arg("frame_bits"), "C(S,4) ber^4 / 2^12 (the paper's Table 5)");
    m.def("rifl_undetected_exact", py::vectorize(&M::RiflUndetectedExact), py::arg("ber"),
          py::arg("frame_bits"), "exact P_ud of the real RIFL decoder (weight spectrum)");
    m.def("rifl_accepted_spectrum", &M::RiflAcceptedSpectrum, py::arg("frame_bits"),
          "A_0..A_4 of the line error patterns the real RIFL decoder accepts");
    m.def("rifl_mtbf_paper_seconds", py::vectorize(&M::RiflMtbfPaperSeconds), py::arg("ber"),
          py::arg("frame_bits"), py::arg("lambda_actual_bps"));
    m.def("rifl_mtbf_exact_seconds", py::vectorize(&M::RiflMtbfExactSeconds), py::arg("ber"),
          py::arg("frame_bits"), py::arg("lambda_actual_bps"));
    m.def("direct_link_interleave_spectrum", &M::DirectLinkInterleaveSpectrum,
          py::arg("interleave"), py::arg("poly") = 0x07);
    m.def("direct_link_undetected_exact", py::vectorize(&M::DirectLinkUndetectedExact),
          py::arg("ber"), py::arg("poly") = 0x07);
    m.def("direct_link_undetected_paper", py::vectorize(&M::DirectLinkUndetectedPaper),
          py::arg("ber"));
    m.def("ethernet_spectrum", &M::EthernetSpectrum, py::arg("frame_bytes"));
    m.def("ethernet_undetected_exact", py::vectorize(&M::EthernetUndetectedExact), py::arg("ber"),
          py::arg("frame_bytes"));
    m.def("ethernet_packet_loss", py::vectorize(&M::EthernetPacketLoss), py::arg("ber"),
          py::arg("packet_bytes"), py::arg("overhead_bytes"));
    m.def("mtbf_seconds", py::vectorize(&M::MtbfSeconds), py::arg("frames_per_second"),
          py::arg("pud"));
    m.def("network_mtbf_seconds", &M::NetworkMtbfSeconds, py::arg("mtbf_seconds"));
    m.def("fit", py::vectorize(&M::Fit), py::arg("mtbf_seconds"));
    m.def("go_back_n_efficiency", py::vectorize(&M::GoBackNEfficiency),
          py::arg("flit_error_probability"), py::arg("replay_slots"));
    m.def(
        "weight_spectrum",
        [](uint32_t width, uint32_t poly, uint32_t n, uint32_t maxWeight)
        {
            return WeightSpectrum::Spectrum(WeightSpectrum::CrcSyndromes(width, poly, n),
                                            maxWeight);
        },
        py::arg("width"), py::arg("poly"), py::arg("n"), py::arg("max_weight") = 4,
        "A_0..A_w of a systematic CRC codeword of n bits (syndrome method)");

    // Scenarios.
    m.def("run_rifl_link", &RunRiflLink, py::arg("ber") = 0.0, py::arg("load") = 1.0,
          py::arg("min_packet_bytes") = 1, py::arg("max_packet_bytes") = 8192,
          py::arg("warmup_us") = 20.0, py::arg("duration_us") = 100.0,
          py::arg("bidirectional").noconvert() = true, py::arg("rng_run") = 1,
          py::arg("attributes") = py::none(),
          "Run one RIFL link (two nodes, device-level traffic) and return its measurements.");
    m.def("run_direct_link_pair", &RunDirectLinkPair, py::arg("ber") = 0.0,
          py::arg("request_bytes") = 8, py::arg("response_bytes") = 64,
          py::arg("mode") = "closed_loop", py::arg("max_outstanding") = py::none(),
          py::arg("request_rate") = py::none(), py::arg("warmup_us") = 10.0,
          py::arg("duration_us") = 200.0, py::arg("bidirectional").noconvert() = true,
          py::arg("rng_run") = 1, py::arg("attributes") = py::none(),
          "Run two CPUs on one direct link (request/response traffic over DLIUs) and return "
          "its measurements. mode=\"closed_loop\" keeps max_outstanding requests in flight "
          "per CPU (default 8), mode=\"open_loop\" issues request_rate requests per second "
          "(Poisson, default 1e6); the keyword of the other mode is refused.");
    m.def("run_multiprocessor", &RunMultiprocessor, py::arg("topology") = "fullmesh",
          py::arg("n") = py::none(), py::arg("x") = py::none(), py::arg("y") = py::none(),
          py::arg("dim") = py::none(), py::arg("deadlock_avoidance") = "dateline-vcs",
          py::arg("ber") = 0.0, py::arg("requests_per_cpu") = 100, py::arg("window") = 4,
          py::arg("request_bytes") = 8, py::arg("response_bytes") = 64, py::arg("start_us") = 4.8,
          py::arg("max_duration_us") = 10000.0, py::arg("rng_run") = 1, py::arg("ranks") = 1,
          py::arg("split_remote_links").noconvert() = false, py::arg("link") = "direct",
          py::arg("attributes") = py::none(),
          "Run a multiprocessor of CPUs on direct links (link=\"direct\") or RIFL links "
          "(link=\"rifl\": DLIU messages on RiflMessagePorts) (topology fullmesh/ring with n, "
          "mesh/torus with x and y, hypercube with dim; defaults n=4, x=y=3, dim=3) with "
          "closed-loop request/response traffic on every CPU until each has issued "
          "requests_per_cpu requests, and return its measurements. ranks puts the CPUs in "
          "groups (CPU i in group i * ranks // CPUs; labels: the run is in this process) and "
          "split_remote_links runs the links between groups as split halves, the structure "
          "of an MPI run.");
    RiflBindDcn(m);
    m.def(
        "_set_signal_checks",
        [](bool on)
        {
            ns3rifl::SignalCheck::Enabled() = on;
        },
        py::arg("on").noconvert(),
        "Whether runs check for Ctrl-C (default True; False only to compare results).");
}

/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3rifl._core.run_dcn: the data-center scenario (DcnScenario) from Python.
 * Keyword arguments map one to one onto DcnScenarioConfig / DcnTrafficConfig
 * (snake_case); the run releases the GIL and destroys the simulator; the
 * result is a dict with units in the names. A bad value raises ValueError
 * naming the keyword, a value of the wrong type TypeError.
 */

#include "ns3/dcn-scenario.h"
#include "ns3rifl-binding-util.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace ns3;
using ns3rifl::IntArg;
using ns3rifl::ToUInt;

namespace
{

/// C++ field names in DcnScenario / DcnTrafficHelper messages -> Python keywords.
const std::vector<std::pair<std::string, std::string>> kKeywordNames = {
    {"topology", "topology"},
    {"technology", "technology"},
    {"ecmp", "ecmp"},
    {"k", "k"},
    {"hostRateGbps", "host_rate_gbps"},
    {"fabricRateGbps", "fabric_rate_gbps"},
    {"hostCableM", "host_cable_m"},
    {"fabricCableM", "fabric_cable_m"},
    {"hostBer", "host_ber"},
    {"fabricBer", "fabric_ber"},
    {"riflLanes", "rifl_lanes"},
    {"queuePackets", "queue_packets"},
    {"ethernetOverheadBytes", "ethernet_overhead_bytes"},
    {"durationUs", "duration_us"},
    {"timeoutUs", "timeout_us"},
    {"rngRun", "rng_run"},
    {"coreRank", "core_rank"},
    {"ranks", "ranks"},
    {"flowBytes", "flow_bytes"},
    {"flowSizeCdf", "flow_size_cdf"},
    {"start", "start_us"},
    {"startJitter", "start_jitter_ns"},
    {"incastSenders", "incast_senders"},
    {"incastReceiver", "incast_receiver"},
    {"load", "load"},
    {"flowsPerHost", "flows_per_host"},
    {"segmentBytes", "segment_bytes"},
    {"udpRateFraction", "udp_rate_fraction"},
    {"tcpMinRto", "tcp_min_rto_us"},
    {"tcpBufferBytes", "tcp_buffer_bytes"},
    {"DcnTopologyHelper: leaves", "leaves"},
    {"DcnTopologyHelper: spines", "spines"},
    {"DcnTopologyHelper: hostsPerLeaf", "hosts_per_leaf"},
    {"hostsPerLeaf", "hosts_per_leaf"},
    {"DcnScenario", "run_dcn"},
};

/**
 * \brief Rename the C++ field a message starts with to its Python keyword.
 * \param msg the C++ message ("hostBer = 2 is outside [0, 1)").
 * \return the message for Python ("host_ber = 2 is outside [0, 1)").
 */
std::string
ToPythonMessage(const std::string& msg)
{
    for (const auto& [cpp, python] : kKeywordNames)
    {
        if (msg.rfind(cpp + " = ", 0) == 0)
        {
            return python + msg.substr(cpp.size());
        }
    }
    // An attribute the config sets itself (DcnScenario::Run()).
    const std::string owned = "the parameters hostBer and fabricBer";
    if (const std::size_t at = msg.find(owned); at != std::string::npos)
    {
        return msg.substr(0, at) + "the parameters host_ber and fabric_ber (or ber)"
               + msg.substr(at + owned.size());
    }
    // Field names inside the message (camelCase ones only: the others are words too).
    ns3rifl::KeywordNames camel;
    for (const auto& [cpp, python] : kKeywordNames)
    {
        const bool isCamel
            = std::any_of(cpp.begin(), cpp.end(),
                          [](char ch)
                          {
                              return std::isupper(static_cast<unsigned char>(ch)) != 0;
                          });
        if (isCamel && cpp.find(' ') == std::string::npos)
        {
            camel.emplace_back(cpp, python);
        }
    }
    return ns3rifl::ToKeywords(msg, camel);
}


/**
 * \param t tier counters.
 * \return them as a dict.
 */
py::dict
TierToDict(const DcnTierCounters& t)
{
    py::dict d;
    d["links"] = t.links;
    d["tx_packets"] = t.txPackets;
    d["tx_bytes"] = t.txBytes;
    d["queue_drops"] = t.queueDrops;
    d["corruption_drops"] = t.corruptionDrops;
    d["rx_drops"] = t.rxDrops;
    d["rifl_errors_detected"] = t.riflErrorsDetected;
    d["rifl_replays"] = t.riflReplays;
    d["rifl_undetected"] = t.riflUndetected;
    d["rifl_fc_fifo_drops"] = t.riflFcFifoDrops;
    d["utilization"] = t.utilization;
    return d;
}

/**
 * \brief Refuse a keyword the caller gave that the configuration does not use.
 * \param given whether the caller gave it.
 * \param applies whether the configuration uses it.
 * \param name the keyword.
 * \param why where it applies, for the message.
 */
void
RefuseUnused(bool given, bool applies, const char* name, const std::string& why)
{
    if (given && !applies)
    {
        throw py::value_error(std::string(name) + " does not apply here: " + why);
    }
}

/**
 * \brief Run the data-center scenario.
 * \return its results as a dict.
 */
py::dict
RunDcn(const std::string& topology, const IntArg& k, const IntArg& leaves, const IntArg& spines,
       const IntArg& hostsPerLeaf, const std::string& technology, double hostRateGbps,
       double fabricRateGbps, double hostCableM, double fabricCableM, const py::object& ber,
       std::optional<double> hostBer, std::optional<double> fabricBer, const IntArg& riflLanes,
       const IntArg& queuePackets, const IntArg& ethernetOverheadBytes, const std::string& ecmp,
       const std::string& pattern, const std::string& transport, const IntArg& flowBytes,
       const py::object& flowSizeCdf, double startUs, std::optional<double> startJitterNs,
       const IntArg& incastSenders, const IntArg& incastReceiver, std::optional<double> load,
       const IntArg& flowsPerHost, const IntArg& segmentBytes,
       std::optional<double> udpRateFraction, std::optional<double> tcpMinRtoUs,
       const IntArg& tcpBufferBytes, double durationUs, std::optional<double> timeoutUs,
       const IntArg& rngRunArg, bool report, bool reportJson, bool flows,
       const py::object& attributes, const IntArg& ranks, const IntArg& coreRank,
       bool splitRemoteLinks, bool canonicalTies)
{
    ns3rifl::RunGuard guard; // one run at a time in the process
    DcnScenarioConfig c;
    DcnTrafficConfig& t = c.traffic;
    c.topology = topology;
    if (pattern == "permutation")
    {
        t.pattern = DcnTrafficConfig::PERMUTATION;
    }
    else if (pattern == "all-to-all" || pattern == "all_to_all")
    {
        t.pattern = DcnTrafficConfig::ALL_TO_ALL;
    }
    else if (pattern == "incast")
    {
        t.pattern = DcnTrafficConfig::INCAST;
    }
    else if (pattern == "random")
    {
        t.pattern = DcnTrafficConfig::RANDOM;
    }
    else
    {
        throw py::value_error("pattern = \"" + pattern
                              + "\" must be \"permutation\", \"all-to-all\", \"incast\" or "
                                "\"random\"");
    }
    if (transport != "tcp" && transport != "udp")
    {
        throw py::value_error("transport = \"" + transport + "\" must be \"tcp\" or \"udp\"");
    }
    // A keyword the configuration does not use is a mistake, not something to ignore.
    const bool fatTree = topology == "fat-tree";
    const bool leafSpine = topology == "leaf-spine";
    if (fatTree || leafSpine)
    {
        const std::string why = "topology = \"" + topology
                                + "\" (fat-tree takes k, leaf-spine leaves, spines and "
                                  "hosts_per_leaf)";
        RefuseUnused(k.Given(), fatTree, "k", why);
        RefuseUnused(leaves.Given(), leafSpine, "leaves", why);
        RefuseUnused(spines.Given(), leafSpine, "spines", why);
        RefuseUnused(hostsPerLeaf.Given(), leafSpine, "hosts_per_leaf", why);
    }
    RefuseUnused(riflLanes.Given(), technology == "rifl", "rifl_lanes",
                 "technology = \"" + technology + "\" (only technology = \"rifl\" has lanes)");
    RefuseUnused(ethernetOverheadBytes.Given(), technology == "ethernet" || technology == "csma",
                 "ethernet_overhead_bytes",
                 "technology = \"" + technology
                     + "\" (the framing bytes of technology = \"ethernet\" or \"csma\")");
    const bool random = t.pattern == DcnTrafficConfig::RANDOM;
    const std::string patternWhy = "pattern = \"" + pattern + "\"";
    RefuseUnused(incastSenders.Given(), t.pattern == DcnTrafficConfig::INCAST, "incast_senders",
                 patternWhy + " (only pattern = \"incast\" has incast senders)");
    RefuseUnused(incastReceiver.Given(), t.pattern == DcnTrafficConfig::INCAST, "incast_receiver",
                 patternWhy + " (only pattern = \"incast\" has an incast receiver)");
    RefuseUnused(load.has_value(), random, "load",
                 patternWhy + " (the offered load of pattern = \"random\")");
    RefuseUnused(flowsPerHost.Given(), random, "flows_per_host",
                 patternWhy + " (the flows per host of pattern = \"random\")");
    RefuseUnused(startJitterNs.has_value(), !random, "start_jitter_ns",
                 patternWhy + " (pattern = \"random\" starts flows at Poisson arrivals)");
    RefuseUnused(udpRateFraction.has_value(), transport == "udp", "udp_rate_fraction",
                 "transport = \"" + transport + "\" (the pacing of transport = \"udp\")");
    RefuseUnused(tcpMinRtoUs.has_value(), transport == "tcp", "tcp_min_rto_us",
                 "transport = \"" + transport + "\" (a TCP setting)");
    RefuseUnused(tcpBufferBytes.Given(), transport == "tcp", "tcp_buffer_bytes",
                 "transport = \"" + transport + "\" (a TCP setting)");
    RefuseUnused(flowBytes.Given(), flowSizeCdf.is_none(), "flow_bytes",
                 "flow_size_cdf draws the flow sizes");
    RefuseUnused(timeoutUs.has_value(), durationUs == 0, "timeout_us",
                 "duration_us > 0 stops the run (timeout_us bounds a run with duration_us = 0, "
                 "which stops when every flow completed)");
    if (!ber.is_none() && (hostBer || fabricBer))
    {
        throw py::value_error(std::string(hostBer ? "host_ber" : "fabric_ber")
                              + " does not apply here: ber sets the BER of both tiers; give "
                                "either ber or host_ber and fabric_ber");
    }
    c.k = ToUInt(k, "k", 0, ns3rifl::U32_MAX, c.k);
    c.leaves = ToUInt(leaves, "leaves", 0, ns3rifl::U32_MAX, c.leaves);
    c.spines = ToUInt(spines, "spines", 0, ns3rifl::U32_MAX, c.spines);
    c.hostsPerLeaf = ToUInt(hostsPerLeaf, "hosts_per_leaf", 0, ns3rifl::U32_MAX, c.hostsPerLeaf);
    c.technology = technology;
    c.hostRateGbps = hostRateGbps;
    c.fabricRateGbps = fabricRateGbps;
    c.hostCableM = hostCableM;
    c.fabricCableM = fabricCableM;
    c.hostBer = hostBer.value_or(c.hostBer);
    c.fabricBer = fabricBer.value_or(c.fabricBer);
    if (!ber.is_none())
    {
        if (!py::isinstance<py::float_>(ber) && !py::isinstance<py::int_>(ber))
        {
            throw py::type_error("ber must be a float (the BER of both tiers) or None");
        }
        const double b = ber.cast<double>();
        if (!(b >= 0 && b < 1))
        {
            throw py::value_error("ber = " + py::str(ber).cast<std::string>()
                                  + " is outside [0, 1)");
        }
        c.hostBer = c.fabricBer = b;
    }
    c.riflLanes = ToUInt(riflLanes, "rifl_lanes", 0, ns3rifl::U32_MAX, c.riflLanes);
    c.queuePackets = ToUInt(queuePackets.value, "queue_packets", 0, ns3rifl::U32_MAX);
    c.ethernetOverheadBytes = ToUInt(ethernetOverheadBytes, "ethernet_overhead_bytes", 0,
                                     ns3rifl::U32_MAX, c.ethernetOverheadBytes);
    c.ecmp = ecmp;
    t.transport = transport == "udp" ? DcnTrafficConfig::UDP : DcnTrafficConfig::TCP;
    t.flowBytes = ToUInt(flowBytes, "flow_bytes", 0, ns3rifl::U64_MAX, t.flowBytes);
    if (!flowSizeCdf.is_none())
    {
        if (!py::isinstance<py::str>(flowSizeCdf))
        {
            throw py::type_error("flow_size_cdf must be a str (a CDF file, \"web-search\" or "
                                 "\"data-mining\") or None");
        }
        t.flowSizeCdf = flowSizeCdf.cast<std::string>();
        if (t.flowSizeCdf.empty())
        {
            throw py::value_error("flow_size_cdf = \"\" must name a CDF file, \"web-search\" or "
                                  "\"data-mining\"");
        }
    }
    // Times in ns: a value that rounds to 0 ns but is not 0 would be lost in silence.
    auto toNs = [](const char* name, double v, double scale, double hi)
    {
        if (!(v >= 0 && v <= hi) || (v > 0 && v * scale < 1))
        {
            std::ostringstream os;
            os << name << " = " << v << " is outside [0, " << hi << "]"
               << (v > 0 && v * scale < 1 ? " or below 1 ns (it would become 0 ns)" : "");
            throw py::value_error(os.str());
        }
        return NanoSeconds(static_cast<int64_t>(v * scale));
    };
    t.start = toNs("start_us", startUs, 1e3, 1e9);
    t.startJitter = toNs("start_jitter_ns", startJitterNs.value_or(0.0), 1.0, 1e12);
    t.incastSenders = ToUInt(incastSenders, "incast_senders", 0, ns3rifl::U32_MAX, 0);
    t.incastReceiver = ToUInt(incastReceiver, "incast_receiver", 0, ns3rifl::U32_MAX, 0);
    t.load = load.value_or(t.load);
    t.flowsPerHost = ToUInt(flowsPerHost, "flows_per_host", 0, ns3rifl::U32_MAX, t.flowsPerHost);
    t.segmentBytes = ToUInt(segmentBytes.value, "segment_bytes", 0, ns3rifl::U32_MAX);
    t.udpRateFraction = udpRateFraction.value_or(t.udpRateFraction);
    t.tcpMinRto = toNs("tcp_min_rto_us", tcpMinRtoUs.value_or(1000.0), 1e3, 1e9);
    t.tcpBufferBytes
        = ToUInt(tcpBufferBytes, "tcp_buffer_bytes", 0, ns3rifl::U32_MAX, t.tcpBufferBytes);
    c.durationUs = durationUs;
    c.timeoutUs = timeoutUs.value_or(c.timeoutUs);
    const uint64_t rngRun = ToUInt(rngRunArg.value, "rng_run", 1, ns3rifl::U64_MAX);
    c.rngRun = rngRun;
    c.report = report;
    c.attributes = ns3rifl::ToAttributeMap(attributes);
    c.ranks = ToUInt(ranks.value, "ranks", 0, ns3rifl::U32_MAX);
    c.coreRank = ToUInt(coreRank.value, "core_rank", 0, ns3rifl::U32_MAX);
    c.splitRemoteLinks = splitRemoteLinks;
    c.canonicalTies = canonicalTies;

    const DcnScenarioResult r = ns3rifl::RunScenario(c, &DcnScenario::Run, &ToPythonMessage);

    py::dict d;
    d["topology"] = topology;
    d["technology"] = technology;
    d["host_ber"] = c.hostBer;
    d["fabric_ber"] = c.fabricBer;
    d["rng_run"] = rngRun;
    d["ranks"] = r.ranks;
    d["hosts"] = r.hosts;
    d["switches"] = r.switches;
    d["links"] = r.links;
    d["flows_total"] = r.flows.size();
    d["flows_completed"] = r.flowsCompleted;
    d["bytes_offered"] = r.bytesOffered;
    d["bytes_received"] = r.bytesReceived;
    d["fct_us_mean"] = r.fctUsMean;
    d["fct_us_p50"] = r.fctUsP50;
    d["fct_us_p99"] = r.fctUsP99;
    d["fct_us_p999"] = r.fctUsP999;
    d["fct_us_max"] = r.fctUsMax;
    d["goodput_gbps"] = r.goodputGbps;
    d["traffic_end_us"] = r.trafficEndUs;
    d["packets_lost_to_corruption"] = r.packetsLostToCorruption;
    d["queue_drops"] = r.queueDrops;
    d["tcp_retransmissions"] = r.tcpRetransmissions;
    d["tcp_timeouts"] = r.tcpTimeouts;
    d["host_tier"] = TierToDict(r.hostTier);
    d["fabric_tier"] = TierToDict(r.fabricTier);
    d["packet_hops"] = r.packetHops;
    d["events"] = r.events;
    d["simulated_us"] = r.simulatedUs;
    d["setup_s"] = r.setupSeconds;
    d["wall_s"] = r.wallSeconds;
    if (report)
    {
        py::dict rep;
        rep["rifl_directions"] = r.report.riflDirections;
        rep["ethernet_directions"] = r.report.ethernetDirections;
        rep["ethernet_packets_lost"] = r.report.ethernetPacketsLost;
        rep["undetected_rate_per_s"] = r.report.undetectedRate;
        rep["network_mtbf_s"] = r.report.networkMtbfSeconds;
        rep["network_mtbf_years"] = r.report.networkMtbfYears;
        rep["fit"] = r.report.fit;
        d["report"] = rep;
        if (reportJson)
        {
            d["report_json"] = r.reportJson;
        }
    }
    if (flows)
    {
        // Columnar (pandas.DataFrame(result["flows"]) gives one row per flow).
        py::list src, dst, bytes, start, end, fct, recv, done, retx, rto;
        for (const DcnFlowRecord& f : r.flows)
        {
            src.append(f.src);
            dst.append(f.dst);
            bytes.append(f.bytes);
            start.append(f.startNs);
            end.append(f.completed ? py::object(py::float_(f.endNs)) : py::object(py::none()));
            fct.append(f.completed ? py::object(py::float_(f.fctNs)) : py::object(py::none()));
            recv.append(f.bytesReceived);
            done.append(f.completed);
            retx.append(f.retransmissions);
            rto.append(f.timeouts);
        }
        py::dict fl;
        fl["src_host"] = src;
        fl["dst_host"] = dst;
        fl["bytes"] = bytes;
        fl["start_ns"] = start;
        fl["end_ns"] = end;
        fl["fct_ns"] = fct;
        fl["bytes_received"] = recv;
        fl["completed"] = done;
        fl["tcp_retransmissions"] = retx;
        fl["tcp_timeouts"] = rto;
        d["flows"] = fl;
    }
    return d;
}

} // namespace

/**
 * \brief Add run_dcn to the module (called from PYBIND11_MODULE in ns3rifl-module.cc).
 * \param m the module.
 */
void
RiflBindDcn(py::module_& m)
{
    m.def("run_dcn", &RunDcn, py::arg("topology") = "fat-tree", py::arg("k") = py::none(),
          py::arg("leaves") = py::none(), py::arg("spines") = py::none(),
          py::arg("hosts_per_leaf") = py::none(), py::arg("technology") = "rifl",
          py::arg("host_rate_gbps") = 112.0, py::arg("fabric_rate_gbps") = 112.0,
          py::arg("host_cable_m") = 3.0, py::arg("fabric_cable_m") = 10.0,
          py::arg("ber") = py::none(), py::arg("host_ber") = py::none(),
          py::arg("fabric_ber") = py::none(), py::arg("rifl_lanes") = py::none(),
          py::arg("queue_packets") = 1000, py::arg("ethernet_overhead_bytes") = py::none(),
          py::arg("ecmp") = "per-flow", py::arg("pattern") = "permutation",
          py::arg("transport") = "tcp", py::arg("flow_bytes") = py::none(),
          py::arg("flow_size_cdf") = py::none(), py::arg("start_us") = 200.0,
          py::arg("start_jitter_ns") = py::none(), py::arg("incast_senders") = py::none(),
          py::arg("incast_receiver") = py::none(), py::arg("load") = py::none(),
          py::arg("flows_per_host") = py::none(), py::arg("segment_bytes") = 1460,
          py::arg("udp_rate_fraction") = py::none(), py::arg("tcp_min_rto_us") = py::none(),
          py::arg("tcp_buffer_bytes") = py::none(), py::arg("duration_us") = 0.0,
          py::arg("timeout_us") = py::none(), py::arg("rng_run") = 1,
          py::arg("report").noconvert() = true, py::arg("report_json").noconvert() = true,
          py::arg("flows").noconvert() = true, py::arg("attributes") = py::none(),
          py::arg("ranks") = 0, py::arg("core_rank") = 0,
          py::arg("split_remote_links").noconvert() = false,
          py::arg("canonical_ties").noconvert() = true,
          "Run a data-center fabric (fat-tree or leaf-spine; technology rifl, ethernet "
          "(PointToPoint) or csma) "
          "with host-to-host traffic and return FCTs, goodput, losses, TCP retransmissions, "
          "per-tier link counters and the reliability summary. ber sets both tiers. "
          "ranks / core_rank spread the nodes over ranks (fat-tree by pod, leaf-spine by "
          "leaf group); split_remote_links runs the RIFL links between ranks split, as on "
          "MPI ranks, in this process; canonical_ties hands same-instant deliveries to the "
          "nodes in a canonical order (RiflCanonicalTies). Keywords that default to None "
          "apply to one configuration only and are refused elsewhere: k (fat-tree, default "
          "4), leaves/spines/hosts_per_leaf (leaf-spine, 4/2/4), rifl_lanes (rifl, 4), "
          "ethernet_overhead_bytes (ethernet/csma, 0), host_ber/fabric_ber (without ber, 0), "
          "flow_bytes (without flow_size_cdf, 1000000), start_jitter_ns (not random, 0), "
          "incast_senders/incast_receiver (incast, 0 = every other host / host 0), "
          "load/flows_per_host (random, 0.3/10), udp_rate_fraction (udp, 1.0), "
          "tcp_min_rto_us/tcp_buffer_bytes (tcp, 1000/1048576), timeout_us (duration_us = 0, "
          "1e6).");
}

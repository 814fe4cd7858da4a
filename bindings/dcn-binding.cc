/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3rifl._core.run_dcn: the data-center scenario (DcnScenario) from Python.
 * Keyword arguments map one to one onto DcnScenarioConfig / DcnTrafficConfig
 * (snake_case); the run releases the GIL and destroys the simulator; the
 * result is a dict with units in the names. A bad value raises ValueError
 * naming the keyword, a value of the wrong type TypeError.
 */

#include "ns3rifl-binding-util.h"

#include "ns3/dcn-scenario.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace ns3;

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
    return msg;
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
 * \brief Run the data-center scenario.
 * \return its results as a dict.
 */
py::dict
RunDcn(const std::string& topology, uint32_t k, uint32_t leaves, uint32_t spines,
       uint32_t hostsPerLeaf, const std::string& technology, double hostRateGbps,
       double fabricRateGbps, double hostCableM, double fabricCableM, const py::object& ber,
       double hostBer, double fabricBer, uint32_t riflLanes, uint32_t queuePackets,
       uint32_t ethernetOverheadBytes, const std::string& ecmp, const std::string& pattern,
       const std::string& transport, uint64_t flowBytes, const py::object& flowSizeCdf,
       double startUs, double startJitterNs, uint32_t incastSenders, uint32_t incastReceiver,
       double load, uint32_t flowsPerHost, uint32_t segmentBytes, double udpRateFraction,
       double tcpMinRtoUs, uint32_t tcpBufferBytes, double durationUs, double timeoutUs,
       uint64_t rngRun, bool report, bool reportJson, bool flows, const py::object& attributes,
       uint32_t ranks, uint32_t coreRank, bool splitRemoteLinks, bool canonicalTies)
{
    ns3rifl::RunGuard guard; // one run at a time in the process
    DcnScenarioConfig c;
    c.topology = topology;
    c.k = k;
    c.leaves = leaves;
    c.spines = spines;
    c.hostsPerLeaf = hostsPerLeaf;
    c.technology = technology;
    c.hostRateGbps = hostRateGbps;
    c.fabricRateGbps = fabricRateGbps;
    c.hostCableM = hostCableM;
    c.fabricCableM = fabricCableM;
    c.hostBer = hostBer;
    c.fabricBer = fabricBer;
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
    c.riflLanes = riflLanes;
    c.queuePackets = queuePackets;
    c.ethernetOverheadBytes = ethernetOverheadBytes;
    c.ecmp = ecmp;
    DcnTrafficConfig& t = c.traffic;
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
    t.transport = transport == "udp" ? DcnTrafficConfig::UDP : DcnTrafficConfig::TCP;
    t.flowBytes = flowBytes;
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
    auto checkTime = [](const char* name, double v, double hi)
    {
        if (!(v >= 0 && v <= hi))
        {
            throw py::value_error(std::string(name) + " = " + std::to_string(v) + " is outside [0, "
                                  + std::to_string(hi) + "]");
        }
    };
    checkTime("start_us", startUs, 1e9);
    checkTime("start_jitter_ns", startJitterNs, 1e12);
    checkTime("tcp_min_rto_us", tcpMinRtoUs, 1e9);
    t.start = NanoSeconds(static_cast<int64_t>(startUs * 1e3));
    t.startJitter = NanoSeconds(static_cast<int64_t>(startJitterNs));
    t.incastSenders = incastSenders;
    t.incastReceiver = incastReceiver;
    t.load = load;
    t.flowsPerHost = flowsPerHost;
    t.segmentBytes = segmentBytes;
    t.udpRateFraction = udpRateFraction;
    t.tcpMinRto = NanoSeconds(static_cast<int64_t>(tcpMinRtoUs * 1e3));
    t.tcpBufferBytes = tcpBufferBytes;
    c.durationUs = durationUs;
    c.timeoutUs = timeoutUs;
    c.rngRun = rngRun;
    c.report = report;
    c.attributes = ns3rifl::ToAttributeMap(attributes);
    c.ranks = ranks;
    c.coreRank = coreRank;
    c.splitRemoteLinks = splitRemoteLinks;
    c.canonicalTies = canonicalTies;

    DcnScenarioResult r;
    try
    {
        py::gil_scoped_release release;
        r = DcnScenario::Run(c);
    }
    catch (const std::invalid_argument& e)
    {
        throw py::value_error(ToPythonMessage(e.what()));
    }
    catch (const std::out_of_range& e)
    {
        throw py::value_error(ToPythonMessage(e.what()));
    }

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
    m.def("run_dcn", &RunDcn, py::arg("topology") = "fat-tree", py::arg("k") = 4,
          py::arg("leaves") = 4, py::arg("spines") = 2, py::arg("hosts_per_leaf") = 4,
          py::arg("technology") = "rifl", py::arg("host_rate_gbps") = 112.0,
          py::arg("fabric_rate_gbps") = 112.0, py::arg("host_cable_m") = 3.0,
          py::arg("fabric_cable_m") = 10.0, py::arg("ber") = py::none(), py::arg("host_ber") = 0.0,
          py::arg("fabric_ber") = 0.0, py::arg("rifl_lanes") = 4, py::arg("queue_packets") = 1000,
          py::arg("ethernet_overhead_bytes") = 0, py::arg("ecmp") = "per-flow",
          py::arg("pattern") = "permutation", py::arg("transport") = "tcp",
          py::arg("flow_bytes") = 1000000, py::arg("flow_size_cdf") = py::none(),
          py::arg("start_us") = 200.0, py::arg("start_jitter_ns") = 0.0,
          py::arg("incast_senders") = 0, py::arg("incast_receiver") = 0, py::arg("load") = 0.3,
          py::arg("flows_per_host") = 10, py::arg("segment_bytes") = 1460,
          py::arg("udp_rate_fraction") = 1.0, py::arg("tcp_min_rto_us") = 1000.0,
          py::arg("tcp_buffer_bytes") = 1 << 20, py::arg("duration_us") = 0.0,
          py::arg("timeout_us") = 1e6, py::arg("rng_run") = 1, py::arg("report").noconvert() = true,
          py::arg("report_json").noconvert() = true, py::arg("flows").noconvert() = true,
          py::arg("attributes") = py::none(), py::arg("ranks") = 0, py::arg("core_rank") = 0,
          py::arg("split_remote_links").noconvert() = false,
          py::arg("canonical_ties").noconvert() = true,
          "Run a data-center fabric (fat-tree or leaf-spine; technology rifl, ethernet "
          "(PointToPoint) or csma) "
          "with host-to-host traffic and return FCTs, goodput, losses, TCP retransmissions, "
          "per-tier link counters and the reliability summary. ber sets both tiers. "
          "ranks / core_rank spread the nodes over ranks (fat-tree by pod, leaf-spine by "
          "leaf group); split_remote_links runs the RIFL links between ranks split, as on "
          "MPI ranks, in this process; canonical_ties hands same-instant deliveries to the "
          "nodes in a canonical order (RiflCanonicalTies).");
}

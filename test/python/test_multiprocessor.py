"""Tests of ns3rifl.run_multiprocessor (the multiprocessor direct-connect
scenario): sane and exactly accounted fields, determinism per seed, bad
arguments raising ValueError/TypeError that name the keyword, attribute
defaults that do not leak into the next run, and a small sweep through the
process pool."""

import math

import pytest

import ns3rifl
import ns3rifl.sweeps as sw

REASONS = {"RETRANS_LIMIT", "CREDIT_TIMEOUT", "INITIAL_TIMEOUT", "PEER_INIT", "QUEUE_FULL",
           "NO_ROUTE", "MALFORMED", "FALSE_ACK", "VC_OVERFLOW"}


def test_full_mesh_at_ber_0_is_one_hop_and_lossless():
    r = ns3rifl.run_multiprocessor(topology="fullmesh", n=5, requests_per_cpu=40, window=2)
    assert r["topology"] == "fullmesh" and r["n_cpus"] == 5 and r["n_links"] == 10
    assert r["completed"] is True and r["channel_dependencies_acyclic"] is True
    assert r["requests_issued"] == r["requests_served"] == r["responses"] == 5 * 40
    assert r["responses_bad"] == r["responses_errored"] == r["request_timeouts"] == 0
    assert r["response_bytes"] == 64 * r["responses"]
    assert r["messages_sent"] == r["messages_delivered"] == 2 * 5 * 40
    assert r["messages_forwarded"] == r["forwards_expected"] == 0
    assert r["hops_mean"] == 1.0 and r["hops_max"] == 1
    assert r["link_messages_accepted"] == r["link_messages_delivered"] == r["messages_sent"]
    assert r["messages_lost"] == 0 and set(r["messages_lost_by_reason"]) == REASONS
    assert sum(r["messages_lost_by_reason"].values()) == 0
    assert r["messages_held_open"] == 0
    assert r["crc_errors"] == r["retransmissions"] == r["shutdowns"] == 0
    # One hop: request 1 + L, response 4 + L micro-packet times (L = 2) at least.
    assert r["latency_ns_min"] >= 9 * r["slot_ns"] - 1
    assert (r["latency_ns_min"] <= r["latency_ns_p50"] <= r["latency_ns_p99"]
            <= r["latency_ns_p999"] <= r["latency_ns_max"])
    assert 0 < r["link_utilisation_mean"] <= r["link_utilisation_max"] <= 1.0
    assert 0 < r["throughput_gbps"] < r["n_links"] * 2 * r["line_rate_gbps"]
    assert math.isinf(r["network_mtbf_years"]) and r["p_undetected_per_micro_packet"] == 0
    assert r["events"] > 0 and r["wall_s"] > 0 and r["duration_us"] > 0


@pytest.mark.parametrize("kw, cpus, hops_max", [
    (dict(topology="ring", n=6), 6, 3),
    (dict(topology="ring", n=6, deadlock_avoidance="dateline-routing"), 6, 4),
    (dict(topology="mesh", x=3, y=2), 6, 3),
    (dict(topology="torus", x=3, y=4), 12, 3),
    (dict(topology="hypercube", dim=3), 8, 3),
])
def test_multi_hop_topologies_forward_exactly(kw, cpus, hops_max):
    r = ns3rifl.run_multiprocessor(requests_per_cpu=30, **kw)
    assert r["n_cpus"] == cpus and r["completed"]
    assert r["responses"] == cpus * 30 and r["responses_bad"] == 0
    assert r["messages_forwarded"] == r["forwards_expected"] > 0
    assert r["link_messages_accepted"] == r["messages_sent"] + r["messages_forwarded"]
    assert r["hops_max"] == hops_max and 1.0 < r["hops_mean"] <= hops_max


def test_errors_are_retransmitted_and_give_a_finite_network_mtbf():
    r = ns3rifl.run_multiprocessor(topology="torus", x=3, y=3, ber=1e-5, requests_per_cpu=50)
    assert r["crc_errors"] > 0 and r["retransmissions"] > 0
    assert r["responses"] == 9 * 50 and r["responses_bad"] == 0 and r["messages_lost"] == 0
    assert 0 < r["network_mtbf_years_full_line"] <= r["network_mtbf_years"] < math.inf


def test_rifl_links_carry_the_same_traffic_with_rifl_units():
    kw = dict(topology="ring", n=6, requests_per_cpu=40, window=4)
    d = ns3rifl.run_multiprocessor(**kw)
    # (A RiflNetDevice attribute on direct links is refused: it would change nothing.)
    kw["attributes"] = {"ns3::RiflNetDevice::ReplayTail": "Corrected"}
    r = ns3rifl.run_multiprocessor(link="rifl", **kw)
    assert d["link"] == "direct" and r["link"] == "rifl"
    assert r["responses"] == d["responses"] == 6 * 40 and r["responses_bad"] == 0
    assert r["messages_forwarded"] == d["messages_forwarded"]
    assert r["line_rate_gbps"] == 112.0 and r["shutdowns"] == 0 and r["messages_lost"] == 0
    e = ns3rifl.run_multiprocessor(link="rifl", ber=1e-6, **kw)
    assert e["responses"] == 6 * 40 and e["retransmissions"] > 0 and e["crc_errors"] > 0
    assert 0 < e["network_mtbf_years"] < math.inf


def test_same_seed_same_results_other_seed_differs():
    kw = dict(topology="ring", n=5, ber=1e-5, requests_per_cpu=60)
    a = ns3rifl.run_multiprocessor(rng_run=7, **kw)
    b = ns3rifl.run_multiprocessor(rng_run=7, **kw)
    c = ns3rifl.run_multiprocessor(rng_run=8, **kw)
    for d in (a, b, c):
        d.pop("wall_s")
    assert a == b
    assert a != c


def test_cpu_groups_with_split_links_equal_the_unsplit_run():
    kw = dict(topology="torus", x=4, y=4, ber=1e-4, requests_per_cpu=20, rng_run=3,
              attributes={"ns3::DirectLinkChannel::Engine": "Reference"})
    a = ns3rifl.run_multiprocessor(**kw)
    b = ns3rifl.run_multiprocessor(ranks=2, split_remote_links=True, **kw)
    assert a["n_links_across_ranks"] == 0 and b["n_links_across_ranks"] == 8
    assert a["retransmissions"] > 0
    for d in (a, b):
        for k in ("wall_s", "events", "n_links_across_ranks"):
            d.pop(k)
    assert a == b


def test_time_limit_ends_an_unfinished_run():
    r = ns3rifl.run_multiprocessor(requests_per_cpu=100000, max_duration_us=3.0)
    assert r["completed"] is False and r["duration_us"] == pytest.approx(3.0)
    assert r["requests_outstanding"] > 0
    assert r["requests_issued"] == r["responses"] + r["requests_outstanding"] + r["request_timeouts"]


@pytest.mark.parametrize("kw, exc, match", [
    (dict(topology="star"), ValueError, "topology"),
    (dict(link="ethernet"), ValueError, r"^link = \"ethernet\" is not one of direct, rifl$"),
    (dict(link=3), TypeError, "link"),
    (dict(n=1), ValueError, r"^n = 1 is out of range \[2, 256\]$"),
    (dict(topology="ring", n=2), ValueError, r"^n = 2 is out of range \[3, 256\]$"),
    (dict(x=3), ValueError, r"^x does not apply to topology = \"fullmesh\""),
    (dict(topology="torus", n=9), ValueError, r"^n does not apply"),
    (dict(topology="torus", x=2), ValueError, r"^x = 2 is out of range \[3, 85\]$"),
    (dict(topology="mesh", x=1, y=1), ValueError, r"^x \* y = 1"),
    (dict(topology="hypercube", dim=9), ValueError, r"^dim = 9 is out of range \[1, 8\]$"),
    (dict(deadlock_avoidance="vc"), ValueError, r"^deadlock_avoidance = \"vc\""),
    (dict(ber=1.0), ValueError, r"^ber = 1 is out of range"),
    (dict(ber=float("nan")), ValueError, r"^ber = nan"),
    (dict(requests_per_cpu=0), ValueError, r"^requests_per_cpu = 0 is out of range"),
    (dict(window=0), ValueError, r"^window = 0 is out of range \[1, 65536\]$"),
    (dict(request_bytes=4), ValueError, r"^request_bytes = 4 is out of range \[8, 4096\]$"),
    (dict(response_bytes=5000), ValueError, r"^response_bytes = 5000 is out of range"),
    (dict(start_us=-1.0), ValueError, r"^start_us = -1 is out of range"),
    (dict(max_duration_us=0.0), ValueError, r"^max_duration_us = 0 is out of range"),
    (dict(rng_run=0), ValueError, r"^rng_run = 0 is out of range \[1, 18446744073709551615\]$"),
    (dict(ranks=0), ValueError, r"^ranks = 0 is out of range"),
    (dict(topology="ring", n=4, ranks=5), ValueError, r"ranks = 5 exceeds the 4 CPUs"),
    (dict(ranks=-1), ValueError, r"^ranks = -1 is out of range \[0, 4294967295\]$"),
    (dict(n=-3), ValueError, r"^n = -3 is out of range"),
    (dict(attributes={"ns3::DirectLinkChannel::Ber": 0.1}), ValueError,
     r"ns3::DirectLinkChannel::Ber is set by the parameter ber"),
    (dict(attributes={"ns3::CpuTrafficApplication::MaxRequests": 3}), ValueError,
     r"set by the parameter requests_per_cpu"),
    (dict(attributes={"ns3::DirectLinkChannel::NoSuch": 1}), ValueError, "NoSuch"),
    (dict(attributes={"ns3::DirectLinkChannel::OneWayDelaySlots": "far"}), ValueError,
     "OneWayDelaySlots"),
    (dict(n="4"), TypeError, r"^n must be an int in \[0, 4294967295\], not str$"),
    (dict(dim=True, topology="hypercube"), TypeError,
     r"^dim must be an int in \[0, 4294967295\], not bool$"),
    (dict(no_such_argument=1), TypeError, "no_such_argument"),
    (dict(ber="x"), TypeError, "ber"),
    (dict(window=-1), ValueError, r"^window = -1 is out of range \[0, 4294967295\]$"),
    (dict(attributes=[1]), TypeError, "attributes"),
])
def test_bad_arguments_raise_naming_the_keyword(kw, exc, match):
    with pytest.raises(exc, match=match):
        ns3rifl.run_multiprocessor(**kw)


def test_interpreter_survives_bad_arguments():
    for kw in (dict(n=0), dict(attributes={"ns3::Nope::X": 1}), dict(topology="ring", n=1)):
        with pytest.raises(ValueError):
            ns3rifl.run_multiprocessor(**kw)
    assert ns3rifl.run_multiprocessor(requests_per_cpu=2)["responses"] == 8


def test_attributes_apply_to_one_call_only():
    slow = ns3rifl.run_multiprocessor(requests_per_cpu=3,
                                      attributes={"ns3::DirectLinkChannel::OneWayDelaySlots": 9})
    assert slow["one_way_delay_slots"] == 9
    assert ns3rifl.run_multiprocessor(requests_per_cpu=3)["one_way_delay_slots"] == 2
    # The same holds for the other scenarios of the module.
    attrs = {"ns3::DirectLinkChannel::OneWayDelaySlots": 9}
    assert ns3rifl.run_direct_link_pair(duration_us=5.0, attributes=attrs)["one_way_delay_slots"] == 9
    assert ns3rifl.run_direct_link_pair(duration_us=5.0)["one_way_delay_slots"] == 2
    far = ns3rifl.run_rifl_link(duration_us=2.0, attributes={"ns3::RiflChannel::CableLength": 500.0})
    # 500 m: the RTL rule gives 9, but 5 ns/m of fibre is 273 slots each way and
    # single-error recovery needs 2^w >= 2 x 273 + 18
    assert far["frame_id_width"] == 10
    assert ns3rifl.run_rifl_link(duration_us=2.0)["frame_id_width"] == 6


def test_sweep_through_the_process_pool_and_pandas(tmp_path):
    pd = pytest.importorskip("pandas")
    assert "multiprocessor" in sw.SCENARIOS
    grid = {"topology": ["fullmesh", "ring"], "n": [4], "ber": [0.0, 1e-5],
            "requests_per_cpu": [20]}
    out = str(tmp_path / "mp.jsonl")
    rows = sw.sweep("multiprocessor", grid, seeds=[1], workers=2, output=out, progress=False)
    assert len(rows) == 4
    for r in rows:
        assert r["scenario"] == "multiprocessor"
        assert r["responses"] == 80 and r["responses_bad"] == 0
        assert r["messages_lost_by_reason.QUEUE_FULL"] == 0
    df = pd.DataFrame(rows)
    assert len(df) == 4 and {"param.topology", "latency_ns_p99", "network_mtbf_years"} <= set(df.columns)
    assert (df[df["param.ber"] > 0]["crc_errors"] > 0).all()
    # Resume: nothing re-runs, the same numbers come back.
    again = sw.sweep("multiprocessor", grid, seeds=[1], workers=2, output=out, progress=False)
    with open(out) as f:
        assert len([x for x in f if x.strip()]) == 4
    assert again == rows

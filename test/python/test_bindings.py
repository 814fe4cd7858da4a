"""Tests of the ns3rifl bindings: analytics agree with the C++ tests' values,
a short scenario runs and returns sane fields, bad arguments raise the right
exceptions, and two runs with the same seed give identical results."""

import math

import numpy as np
import pytest

import ns3rifl


def test_analytics_match_the_cpp_suite():
    # Same figures as test/rifl-reliability-model-test-suite.cc.
    assert ns3rifl.rifl_frame_id_width(28e9, 10.0, 256) == 6
    assert ns3rifl.rifl_frame_id_width(28e9, 500.0, 256) == 9
    assert ns3rifl.rifl_fc_buffer_frames(6) == 128
    assert ns3rifl.rifl_fc_threshold_on(6) == 85
    assert ns3rifl.rifl_replay_slots(6) == 161
    assert ns3rifl.rifl_retrans_buffer_bytes(100e9, 100e-9, 500.0) == pytest.approx(42916.67, abs=0.01)
    lam = 0.963 * 112e9 * 240 / 256
    years = ns3rifl.rifl_mtbf_paper_seconds(1e-7, 256, lam) / ns3rifl.SECONDS_PER_YEAR
    assert years == pytest.approx(1.88e7, rel=0.005)
    a = ns3rifl.rifl_accepted_spectrum(256)
    assert a[:4] == [1, 0, 0, 0] and a[4] == 83057
    assert ns3rifl.direct_link_interleave_spectrum(0)[4] == 22333
    assert ns3rifl.weight_spectrum(3, 0x3, 7) == [1, 0, 0, 7, 7]


def test_analytics_are_vectorised():
    ber = np.array([1e-9, 1e-7, 1e-5])
    fer = ns3rifl.frame_error_rate(ber, 256)
    assert isinstance(fer, np.ndarray) and fer.shape == (3,)
    assert fer[1] == pytest.approx(2.56e-5, rel=1e-3)
    eff = ns3rifl.rifl_framing_efficiency(np.arange(1, 1501), 256)
    assert eff.max() == pytest.approx(0.9375)
    assert eff[29] == pytest.approx(0.9375)  # 30 bytes fill one frame


def test_bad_analytic_arguments_raise_value_error():
    with pytest.raises(ValueError, match="ber"):
        ns3rifl.frame_error_rate(1.5, 256)
    with pytest.raises(ValueError, match="rifl_framing_efficiency: frame_bits = 300"):
        ns3rifl.rifl_framing_efficiency(100, 300)
    with pytest.raises(ValueError, match="cable_length_m"):
        ns3rifl.rifl_frame_id_width(28e9, -1.0, 256)
    with pytest.raises(TypeError):
        ns3rifl.frame_error_rate("high", 256)


def test_short_scenario_returns_sane_fields():
    r = ns3rifl.run_rifl_link(ber=0.0, duration_us=10.0, warmup_us=15.0,
                              attributes={"ns3::RiflNetDevice::UserWordBytes": 128})
    assert r["line_rate_gbps"] == pytest.approx(112.0)
    assert r["frame_id_width"] == 6 and r["line_delay_slots"] == 5
    for d in ("a_to_b", "b_to_a"):
        assert r[d]["packets_delivered"] > 0
        assert r[d]["packets_corrupt"] == 0
        assert 0.9 < r[d]["line_share"] <= 1.01
        assert 0 < r[d]["goodput_gbps"] < 112
    assert r["counters_a"]["errorsDetected"] == 0
    assert math.isinf(r["mtbf_years_paper"])


def test_same_seed_same_results_other_seed_differs():
    kw = dict(ber=1e-6, duration_us=20.0, load=0.7)
    a = ns3rifl.run_rifl_link(rng_run=3, **kw)
    b = ns3rifl.run_rifl_link(rng_run=3, **kw)
    c = ns3rifl.run_rifl_link(rng_run=4, **kw)
    a.pop("wall_s"), b.pop("wall_s"), c.pop("wall_s")
    assert a == b
    assert a != c


def test_bad_scenario_arguments_raise():
    with pytest.raises(ValueError, match="ber"):
        ns3rifl.run_rifl_link(ber=-0.1)
    with pytest.raises(ValueError, match="duration_us"):
        ns3rifl.run_rifl_link(duration_us=0)
    with pytest.raises(TypeError):
        ns3rifl.run_rifl_link(no_such_argument=1)
    with pytest.raises(TypeError):
        ns3rifl.run_rifl_link(ber="x")
    with pytest.raises(ValueError, match="NoSuch"):
        ns3rifl.run_rifl_link(attributes={"ns3::RiflNetDevice::NoSuch": 1})
    with pytest.raises(ValueError, match="Lanes"):
        ns3rifl.run_rifl_link(attributes={"ns3::RiflNetDevice::Lanes": "many"})
    with pytest.raises(TypeError, match="attributes"):
        ns3rifl.run_rifl_link(attributes=[1, 2])
    with pytest.raises(ValueError, match="FrameSize"):
        ns3rifl.run_rifl_link(duration_us=1, attributes={"ns3::RiflNetDevice::FrameSize": 300})


def test_direct_link_pair_returns_sane_fields():
    r = ns3rifl.run_direct_link_pair(ber=0.0, duration_us=50.0, warmup_us=10.0)
    assert r["line_rate_gbps"] == pytest.approx(5.0)
    assert r["slot_ns"] == pytest.approx(38.4)
    assert r["responses"] > 0 and r["requests_issued"] >= r["responses"] - 16
    assert r["responses_bad"] == r["responses_errored"] == r["request_timeouts"] == 0
    assert r["retransmissions"] == r["crc_errors"] == r["shutdowns"] == 0
    assert r["messages_lost"] == r["undetected_errors"] == r["messages_held_open"] == 0
    assert r["response_bytes"] == 64 * r["responses"]
    assert 0 < r["latency_ns_p50"] <= r["latency_ns_p99"] <= r["latency_ns_p999"] <= r["latency_ns_max"]
    # Never faster than the line: both directions, 192-bit micro-packets.
    assert 0 < r["micro_packets_per_s"] <= 2 * 5e9 / 192 * 1.001
    assert r["p_undetected_per_micro_packet"] == 0 and math.isinf(r["mtbf_years"])
    assert r["events"] > 0 and r["wall_s"] > 0


def test_direct_link_pair_with_errors_retransmits_and_has_finite_mtbf():
    r = ns3rifl.run_direct_link_pair(ber=1e-5, duration_us=100.0)
    assert r["crc_errors"] > 0 and r["retransmissions"] > 0
    assert r["responses"] > 0 and r["responses_bad"] == 0
    assert 0 < r["mtbf_years"] < math.inf
    assert r["mtbf_years"] >= r["mtbf_years_full_line"]
    o = ns3rifl.run_direct_link_pair(mode="open_loop", request_rate=2e6, duration_us=100.0)
    assert o["mode"] == "open_loop" and 200 < o["responses"] < 600


def test_direct_link_pair_same_seed_same_results_other_seed_differs():
    kw = dict(ber=1e-5, duration_us=60.0)
    a = ns3rifl.run_direct_link_pair(rng_run=3, **kw)
    b = ns3rifl.run_direct_link_pair(rng_run=3, **kw)
    c = ns3rifl.run_direct_link_pair(rng_run=4, **kw)
    a.pop("wall_s"), b.pop("wall_s"), c.pop("wall_s")
    assert a == b
    assert a != c


def test_direct_link_pair_engines_agree():
    kw = dict(ber=1e-5, duration_us=60.0, rng_run=2)
    f = ns3rifl.run_direct_link_pair(attributes={"ns3::DirectLinkChannel::Engine": "Fast"}, **kw)
    r = ns3rifl.run_direct_link_pair(attributes={"ns3::DirectLinkChannel::Engine": "Reference"}, **kw)
    for k in ("wall_s", "events"):
        f.pop(k), r.pop(k)
    assert f == r


def test_direct_link_pair_bad_arguments_raise():
    with pytest.raises(ValueError, match="ber"):
        ns3rifl.run_direct_link_pair(ber=1.0)
    with pytest.raises(ValueError, match="request_bytes"):
        ns3rifl.run_direct_link_pair(request_bytes=4)
    with pytest.raises(ValueError, match="response_bytes"):
        ns3rifl.run_direct_link_pair(response_bytes=5000)
    with pytest.raises(ValueError, match="max_outstanding"):
        ns3rifl.run_direct_link_pair(max_outstanding=0)
    with pytest.raises(ValueError, match="request_rate"):
        ns3rifl.run_direct_link_pair(mode="open_loop", request_rate=0)
    with pytest.raises(ValueError, match="duration_us"):
        ns3rifl.run_direct_link_pair(duration_us=-1)
    with pytest.raises(ValueError, match="rng_run"):
        ns3rifl.run_direct_link_pair(rng_run=0)
    with pytest.raises(ValueError, match="mode"):
        ns3rifl.run_direct_link_pair(mode="sometimes")
    with pytest.raises(ValueError, match="ber"):
        ns3rifl.run_direct_link_pair(attributes={"ns3::DirectLinkChannel::Ber": 0.1})
    with pytest.raises(ValueError, match="NoSuch"):
        ns3rifl.run_direct_link_pair(attributes={"ns3::DirectLinkNetDevice::NoSuch": 1})
    with pytest.raises(TypeError):
        ns3rifl.run_direct_link_pair(no_such_argument=1)
    with pytest.raises(TypeError):
        ns3rifl.run_direct_link_pair(request_bytes="big")
    with pytest.raises(TypeError, match="attributes"):
        ns3rifl.run_direct_link_pair(attributes=[1])
    # The interpreter survives and the next run is normal.
    assert ns3rifl.run_direct_link_pair(duration_us=5.0)["responses"] > 0


def test_direct_link_pair_sweep_scenario():
    from ns3rifl.sweeps import SCENARIOS, run_point

    assert "direct_link_pair" in SCENARIOS
    row = run_point("direct_link_pair", {"ber": 0.0, "duration_us": 5.0, "seed": 1})
    assert row["scenario"] == "direct_link_pair" and row["responses"] > 0


def test_overlapping_runs_from_threads_are_refused_not_crashing():
    # ns-3's simulator and the attribute defaults are process-wide: a second run while
    # one is going (the runners release the GIL) raises RuntimeError; it used to crash
    # the interpreter (SIGSEGV or abort, found by a bad-input hunt on 2026-12-07).
    import threading

    errors = []
    results = []

    def run(seed):
        try:
            results.append(ns3rifl.run_rifl_link(duration_us=400.0, warmup_us=0.0, rng_run=seed))
        except RuntimeError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=run, args=(s,)) for s in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) + len(errors) == 3 and results
    for e in errors:
        assert "another simulation is running in this process" in e
    # One after another in threads is fine.
    t = threading.Thread(target=run, args=(4,))
    t.start()
    t.join()
    assert len(results) + len(errors) == 4 and len(errors) < 4


@pytest.mark.parametrize("value", [None, 0, 1, 0.5, "yes"])
def test_bool_arguments_take_only_bools(value):
    # pybind11 would have taken None as False and any object by its truth value.
    with pytest.raises(TypeError, match="bidirectional"):
        ns3rifl.run_rifl_link(duration_us=20.0, warmup_us=0.0, bidirectional=value)
    with pytest.raises(TypeError, match="split_remote_links"):
        ns3rifl.run_multiprocessor(topology="ring", n=3, duration_us=5.0,
                                   split_remote_links=value)
    with pytest.raises(TypeError, match="report"):
        ns3rifl.run_dcn(report=value)
    with pytest.raises(TypeError, match="progress"):
        ns3rifl.sweep("rifl_link", {"duration_us": [20.0]}, progress=value)
    assert ns3rifl.run_rifl_link(duration_us=20.0, warmup_us=0.0,
                                 bidirectional=np.bool_(True))["b_to_a"]


def test_attributes_the_scenario_sets_itself_are_refused():
    # They were overridden in silence: run_rifl_link ran at BER 0 with RiflChannel::Ber 1e-4.
    with pytest.raises(ValueError, match=r"ns3::RiflChannel::Ber is set by the parameter ber"):
        ns3rifl.run_rifl_link(duration_us=20.0, warmup_us=0.0,
                              attributes={"ns3::RiflChannel::Ber": 1e-4})
    with pytest.raises(ValueError, match=r"ns3::ExactBitErrorModel::Ber is set by the parameters "
                                         r"host_ber and fabric_ber"):
        ns3rifl.run_dcn(k=2, technology="ethernet",
                        attributes={"ns3::ExactBitErrorModel::Ber": 1e-4})

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
    with pytest.raises(ValueError, match="frameBits"):
        ns3rifl.rifl_framing_efficiency(100, 300)
    with pytest.raises(ValueError, match="cableLengthM"):
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
    with pytest.raises(ValueError, match="durationUs"):
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

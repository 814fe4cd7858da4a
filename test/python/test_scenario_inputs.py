"""Bad input to the scenario runners gets a clear error naming the parameter (in
Python's spelling) and the allowed range, before anything runs: total sizes beyond
the memory limits, attributes of classes a scenario does not use, keywords that do
not apply, times below 1 ns, negative or non-integer counts; NumPy integers are
taken. Long runs stop on Ctrl-C (KeyboardInterrupt) and leave the process ready
for the next run; the Ctrl-C checks change no result."""

import _thread
import threading
import time

import numpy as np
import pytest

import ns3rifl
from ns3rifl import _core


def test_fabric_and_window_beyond_the_memory_limit_are_refused_up_front():
    t0 = time.monotonic()
    with pytest.raises(ValueError, match=r"^leaves = 4096, hosts_per_leaf = 4096 give 16777216 "
                                         r"hosts, more than the limit of 65536"):
        ns3rifl.run_dcn(topology="leaf-spine", leaves=4096, spines=4096, hosts_per_leaf=4096)
    with pytest.raises(ValueError, match=r"^the fabric's 196608 links .* would take about .* GiB, "
                                         r"more than the limit of 16 GiB: a smaller fabric \(k, "
                                         r"or leaves, spines and hosts_per_leaf\), fewer "
                                         r"rifl_lanes"):
        ns3rifl.run_dcn(k=64)
    with pytest.raises(ValueError, match=r"the all-to-all pattern over 27648 hosts gives "
                                         r"764384256 flows, more than the limit of 4000000"):
        ns3rifl.run_dcn(k=48, pattern="all-to-all")
    with pytest.raises(ValueError, match=r"^duration_us = 1e\+09 would keep about .* GiB of latency "
                                         r"samples .* more than the limit of 16 GiB: at most "
                                         r"duration_us = \d+ here"):
        ns3rifl.run_rifl_link(duration_us=1e9)
    with pytest.raises(ValueError, match=r"^duration_us = 1e\+09 would keep up to about 388.051 "
                                         r"GiB of latency samples \(5 Gb/s line rate, closed "
                                         r"loop\), more than the limit of 16 GiB: at most "
                                         r"duration_us = 41231686 here"):
        ns3rifl.run_direct_link_pair(duration_us=1e9)
    with pytest.raises(ValueError, match=r"^requests_per_cpu = 10000000 on 256 CPUs gives "
                                         r"2560000000 requests, more than the limit of 1073741824"):
        ns3rifl.run_multiprocessor(n=256, requests_per_cpu=10_000_000)
    assert time.monotonic() - t0 < 10


LONG_RUNS = {
    "run_rifl_link": dict(duration_us=1e6),
    "run_direct_link_pair": dict(duration_us=1e6),
    "run_multiprocessor": dict(requests_per_cpu=10_000_000, max_duration_us=1e9),
    "run_dcn": dict(k=2, ber=0.01, flow_bytes=1000),
}
SHORT_RUNS = {
    "run_rifl_link": dict(duration_us=5.0, warmup_us=15.0),
    "run_direct_link_pair": dict(duration_us=5.0),
    "run_multiprocessor": dict(requests_per_cpu=5),
    "run_dcn": dict(k=2, flow_bytes=2000, report=False),
}


def _comparable(r):
    return {k: v for k, v in r.items() if k not in ("wall_s", "setup_s")}


@pytest.mark.parametrize("name", sorted(LONG_RUNS))
def test_ctrl_c_stops_a_long_run_and_the_next_run_is_unchanged(name):
    fn = getattr(ns3rifl, name)
    before = _comparable(fn(**SHORT_RUNS[name]))
    timer = threading.Timer(0.5, _thread.interrupt_main)  # as Ctrl-C: SIGINT's handler
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            fn(**LONG_RUNS[name])
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 5, "the interrupt took too long"
    # The process-wide run state was reset: the next run works, with the same result.
    assert _comparable(fn(**SHORT_RUNS[name])) == before


@pytest.mark.parametrize("name", sorted(SHORT_RUNS))
def test_signal_checks_change_no_result(name):
    fn = getattr(ns3rifl, name)
    kw = dict(SHORT_RUNS[name], ber=1e-5) if name != "run_dcn" else dict(SHORT_RUNS[name], ber=1e-6)
    with_checks = _comparable(fn(**kw))
    _core._set_signal_checks(False)
    try:
        without = _comparable(fn(**kw))
    finally:
        _core._set_signal_checks(True)
    assert with_checks == without


@pytest.mark.parametrize("call, attributes, words", [
    ("run_rifl_link", {"ns3::DirectLinkChannel::Ber": 1e-3},
     "run_rifl_link does not use ns3::DirectLinkChannel"),
    ("run_multiprocessor", {"ns3::RiflNetDevice::FrameSize": 512},
     'run_multiprocessor with link = "direct" does not use ns3::RiflNetDevice'),
    ("run_direct_link_pair", {"ns3::RiflChannel::Engine": "Reference"},
     "run_direct_link_pair does not use ns3::RiflChannel"),
    ("run_dcn", {"ns3::RiflNetDevice::FrameSize": 512},
     'run_dcn with technology = "ethernet" does not use ns3::RiflNetDevice'),
    ("run_rifl_link", {"ns3::TcpSocket::SegmentSize": 1000},
     "run_rifl_link does not use ns3::TcpSocket"),
])
def test_attributes_of_unused_classes_are_refused(call, attributes, words):
    kw = dict(technology="ethernet", k=2) if call == "run_dcn" else {}
    with pytest.raises(ValueError) as e:
        getattr(ns3rifl, call)(attributes=attributes, **kw)
    assert words in str(e.value) and list(attributes)[0] in str(e.value)


def test_attributes_of_used_classes_and_of_ns3_stack_classes_are_taken():
    ns3rifl.run_rifl_link(duration_us=1.0, warmup_us=15.0,
                          attributes={"ns3::GilbertElliottErrorProcess::MeanGoodBits": 1e6,
                                      "ns3::DropTailQueue<Packet>::MaxSize": "100p"})
    ns3rifl.run_dcn(k=2, flow_bytes=2000, report=False,
                    attributes={"ns3::TcpSocket::DelAckCount": 1,
                                "ns3::RiflChannel::Engine": "Reference"})
    ns3rifl.run_multiprocessor(link="rifl", requests_per_cpu=2,
                               attributes={"ns3::RiflNetDevice::FrameSize": 512})


@pytest.mark.parametrize("call, kw, words", [
    ("run_direct_link_pair", dict(request_rate=2e6), "request_rate does not apply to mode = "
                                                      "\"closed_loop\""),
    ("run_direct_link_pair", dict(mode="open_loop", max_outstanding=4),
     "max_outstanding does not apply to mode = \"open_loop\""),
    ("run_dcn", dict(topology="leaf-spine", k=4), "k does not apply here: topology = \"leaf-spine\""),
    ("run_dcn", dict(leaves=8), "leaves does not apply here: topology = \"fat-tree\""),
    ("run_dcn", dict(technology="ethernet", rifl_lanes=4), "rifl_lanes does not apply here"),
    ("run_dcn", dict(ber=1e-6, host_ber=1e-6), "host_ber does not apply here: ber sets"),
    ("run_dcn", dict(incast_senders=2), "incast_senders does not apply here: pattern = "
                                        "\"permutation\""),
    ("run_dcn", dict(load=0.5), "load does not apply here"),
    ("run_dcn", dict(transport="udp", tcp_min_rto_us=200.0), "tcp_min_rto_us does not apply"),
    ("run_dcn", dict(duration_us=100.0, timeout_us=10.0), "timeout_us does not apply"),
    ("run_dcn", dict(flow_bytes=1000, flow_size_cdf="web-search"), "flow_bytes does not apply"),
])
def test_keywords_that_do_not_apply_are_refused(call, kw, words):
    with pytest.raises(ValueError) as e:
        getattr(ns3rifl, call)(**kw)
    assert words in str(e.value)


def test_keywords_of_the_configuration_still_work():
    r = ns3rifl.run_direct_link_pair(mode="open_loop", request_rate=2e6, duration_us=5.0)
    assert r["requests_issued"] > 0
    r = ns3rifl.run_dcn(topology="leaf-spine", leaves=2, spines=1, hosts_per_leaf=1,
                        flow_bytes=2000, report=False)
    assert r["hosts"] == 2 and r["flows_completed"] == 2


@pytest.mark.parametrize("call, kw, words", [
    ("run_rifl_link", dict(duration_us=0.0004), "duration_us = 0.0004 is out of range [0.001, 1e9]"),
    ("run_rifl_link", dict(warmup_us=0.0001), "warmup_us = 0.0001 is out of range"),
    ("run_direct_link_pair", dict(duration_us=0.0009), "duration_us = 0.0009 is out of range"),
    ("run_multiprocessor", dict(start_us=0.0002), "start_us = 0.0002 is out of range"),
    ("run_dcn", dict(duration_us=0.0005), "duration_us = 0.0005 is out of range: 0 or [0.001, 1e9]"),
    ("run_dcn", dict(start_jitter_ns=0.4), "start_jitter_ns = 0.4 is outside [0, 1e+12] or below "
                                           "1 ns"),
])
def test_times_below_one_nanosecond_are_refused(call, kw, words):
    with pytest.raises(ValueError) as e:
        getattr(ns3rifl, call)(**kw)
    assert words in str(e.value)


@pytest.mark.parametrize("call, kw, exc, words", [
    ("run_rifl_link", dict(duration_us=-1), ValueError, "duration_us = -1 is out of range"),
    ("run_rifl_link", dict(min_packet_bytes=-1), ValueError,
     "min_packet_bytes = -1 is out of range [0, 4294967295]"),
    ("run_rifl_link", dict(min_packet_bytes=10, max_packet_bytes=5), ValueError,
     "min_packet_bytes = 10, max_packet_bytes = 5 must satisfy"),
    ("run_rifl_link", dict(rng_run=-1), ValueError, "rng_run = -1 is out of range [1, "),
    ("run_rifl_link", dict(min_packet_bytes=True), TypeError, "min_packet_bytes must be an int"),
    ("run_multiprocessor", dict(n=4.0), TypeError, "n must be an int in [0, 4294967295], not float"),
    ("run_direct_link_pair", dict(warmup_us=-3), ValueError, "warmup_us = -3 is out of range"),
    ("run_dcn", dict(leaves=-1, topology="leaf-spine"), ValueError, "leaves = -1 is out of range"),
    ("run_dcn", dict(timeout_us=0.0), ValueError, "timeout_us = 0 is out of range [0.001, 1e9]"),
])
def test_messages_use_python_names_and_ranges(call, kw, exc, words):
    with pytest.raises(exc) as e:
        getattr(ns3rifl, call)(**kw)
    msg = str(e.value)
    assert words in msg
    assert "incompatible function arguments" not in msg
    for cpp in ("durationUs", "rngRun", "minPacketBytes", "warmupUs", "timeoutUs", "Scenario"):
        assert cpp not in msg


def test_numpy_integers_are_taken():
    r = ns3rifl.run_multiprocessor(n=np.int64(2), requests_per_cpu=np.int32(3),
                                   rng_run=np.uint8(2))
    assert r["n_cpus"] == 2 and r["requests_issued"] == 6

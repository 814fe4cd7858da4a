"""Tests of ns3rifl.run_dcn (the data-center scenario): RIFL against the Ethernet
baseline under bit errors, per-flow records, determinism, no attribute leak
between runs, the sweep entry, and errors naming the bad keyword."""

import pandas as pd
import pytest

import ns3rifl
from ns3rifl import sweeps

# A QUICK-sized run: k = 4 fat-tree (16 hosts), a permutation of 100 kB TCP flows.
SMALL = dict(k=4, flow_bytes=100_000, report=False)


def test_rifl_repairs_what_ethernet_loses():
    eth = ns3rifl.run_dcn(technology="ethernet", ber=1e-6, **SMALL)
    rifl = ns3rifl.run_dcn(technology="rifl", ber=1e-6, **SMALL)
    assert eth["flows_total"] == rifl["flows_total"] == 16
    assert eth["packets_lost_to_corruption"] > 0
    assert eth["tcp_retransmissions"] > 0
    assert eth["fabric_tier"]["corruption_drops"] + eth["host_tier"]["corruption_drops"] == \
        eth["packets_lost_to_corruption"]
    assert rifl["packets_lost_to_corruption"] == 0
    assert rifl["tcp_retransmissions"] == 0 and rifl["tcp_timeouts"] == 0
    assert rifl["flows_completed"] == 16
    assert rifl["bytes_received"] == rifl["bytes_offered"] == 16 * 100_000
    assert rifl["host_tier"]["rifl_errors_detected"] + rifl["fabric_tier"]["rifl_errors_detected"] > 0
    # Same flows in both runs (the traffic's streams do not depend on the technology).
    assert eth["flows"]["dst_host"] == rifl["flows"]["dst_host"]
    assert rifl["fct_us_p99"] < eth["fct_us_p99"]


def test_flows_are_columnar_and_consistent():
    r = ns3rifl.run_dcn(pattern="incast", incast_receiver=5, incast_senders=4, flow_bytes=30_000,
                        transport="udp", **{k: v for k, v in SMALL.items() if k != "flow_bytes"})
    df = pd.DataFrame(r["flows"])
    assert len(df) == 4 and (df["dst_host"] == 5).all() and df["src_host"].nunique() == 4
    assert df["completed"].all()
    assert (df["fct_ns"] == df["end_ns"] - df["start_ns"]).all()
    assert r["fct_us_max"] == pytest.approx(df["fct_ns"].max() / 1e3)
    assert (df["bytes_received"] == 30_000).all()


def test_same_run_same_result_and_no_attribute_leak():
    a = ns3rifl.run_dcn(technology="ethernet", ber=1e-6, rng_run=7, **SMALL)
    # A run with a changed TCP default in between must not affect the next run.
    c = ns3rifl.run_dcn(technology="ethernet", ber=1e-6, rng_run=7,
                        attributes={"ns3::TcpSocket::InitialCwnd": 2}, **SMALL)
    b = ns3rifl.run_dcn(technology="ethernet", ber=1e-6, rng_run=7, **SMALL)
    assert a["flows"] == b["flows"]
    assert a["packets_lost_to_corruption"] == b["packets_lost_to_corruption"]
    assert c["flows"]["end_ns"] != a["flows"]["end_ns"]  # the attribute did apply to its run


def test_report_and_sweep_entry():
    r = ns3rifl.run_dcn(k=2, technology="rifl", ber=1e-6, flow_bytes=20_000)
    assert r["report"]["rifl_directions"] == 12  # 6 links x 2 directions
    assert r["report"]["network_mtbf_years"] > 0
    assert '"directions"' in r["report_json"]
    assert "dcn" in sweeps.SCENARIOS
    row = sweeps.run_point("dcn", {"k": 2, "flow_bytes": 20_000, "report": False, "seed": 1})
    assert row["scenario"] == "dcn" and row["hosts"] == 2 and row["flows_completed"] == 2
    assert row["host_tier.links"] == 2 and row["fabric_tier.links"] == 4
    assert "flows" not in row and "report_json" not in row


@pytest.mark.parametrize("kwargs, needle", [
    (dict(k=3), "k = 3 must be even"),
    (dict(host_ber=2.0), "host_ber = 2 is outside [0, 1)"),
    (dict(ber=1.5), "ber = 1.5 is outside [0, 1)"),
    (dict(technology="fddi"), 'technology = "fddi" must be "rifl", "ethernet" or "csma"'),
    (dict(pattern="ring"), 'pattern = "ring" must be'),
    (dict(transport="quic"), 'transport = "quic" must be "tcp" or "udp"'),
    (dict(ecmp="random"), 'ecmp = "random" must be'),
    (dict(load=0.0, pattern="random"), "load = 0 is outside (0, 1]"),
    (dict(incast_receiver=99, pattern="incast"), "incast_receiver = 99 is outside [0, 16)"),
    (dict(flow_size_cdf="no-such.cdf"), 'flow_size_cdf = "no-such.cdf" cannot be opened'),
    (dict(topology="leaf-spine", hosts_per_leaf=0), "hosts_per_leaf = 0 is outside [1, 4096]"),
    (dict(attributes={"ns3::TcpSocket::NoSuch": 1}), "ns3::TcpSocket has no attribute NoSuch"),
])
def test_bad_values_raise_value_error_naming_the_keyword(kwargs, needle):
    kw = {**SMALL, **kwargs}
    if kw.get("topology") == "leaf-spine":
        del kw["k"]  # k is a fat-tree keyword
    if "flow_size_cdf" in kw:
        del kw["flow_bytes"]  # the CDF draws the sizes
    with pytest.raises(ValueError) as e:
        ns3rifl.run_dcn(**kw)
    assert needle in str(e.value)


def test_split_ranks_equal_the_sequential_run():
    # The structure of a 2-rank MPI run in one process (RIFL links between the ranks
    # split into half engines): the same flows, byte for byte and nanosecond for nanosecond.
    base = dict(k=4, fabric_ber=1e-6, flow_bytes=30_000, duration_us=60, report=False)
    seq = ns3rifl.run_dcn(**base)
    split = ns3rifl.run_dcn(ranks=2, core_rank=1, split_remote_links=True, **base)
    assert seq["ranks"] == 1 and split["ranks"] == 2
    a, b = pd.DataFrame(seq["flows"]), pd.DataFrame(split["flows"])
    pd.testing.assert_frame_equal(a, b)
    assert seq["fabric_tier"] == split["fabric_tier"]


@pytest.mark.parametrize("kwargs, needle", [
    (dict(ranks=99), "ranks = 99 exceeds the 4 pods"),
    (dict(ranks=2, core_rank=2), "core_rank = 2 is outside [0, 1]"),
])
def test_bad_ranks_raise_value_error(kwargs, needle):
    with pytest.raises(ValueError) as e:
        ns3rifl.run_dcn(**{**SMALL, **kwargs})
    assert needle in str(e.value)


def test_malformed_cdf_names_file_and_line(tmp_path):
    f = tmp_path / "bad.cdf"
    f.write_text("# size cdf\n1000 0\n2000 0.7\n3000 0.6\n4000 1\n")
    with pytest.raises(ValueError, match=r"bad\.cdf:4: cdf 0\.6 is below the previous point's 0\.7"):
        ns3rifl.run_dcn(flow_size_cdf=str(f), k=4, report=False)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        ns3rifl.run_dcn(k="four")
    with pytest.raises(TypeError, match="attributes must be a dict"):
        ns3rifl.run_dcn(attributes=[1, 2])
    with pytest.raises(TypeError, match="flow_size_cdf must be a str"):
        ns3rifl.run_dcn(flow_size_cdf=3)
    with pytest.raises(TypeError, match="ber must be a float"):
        ns3rifl.run_dcn(ber="high")

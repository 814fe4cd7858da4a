"""The paper-reproduction job runs end to end (its smoke variant) and its
report lists every figure."""

import os
import subprocess
import sys


def test_reproduce_tiny_end_to_end(tmp_path):
    out = tmp_path / "repro"
    p = subprocess.run([sys.executable, "-m", "ns3rifl", "reproduce", "--tiny", "--out", str(out),
                        "--workers", "2", "--no-progress"],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    for name in ("fig9-bandwidth-latency.csv", "fig9.png", "table5-mtbf.csv", "table5-mtbf.png",
                 "fig8-efficiency.csv", "fig8.png", "report.md"):
        assert (out / name).exists(), name
        assert (out / name).stat().st_size > 0, name
    report = (out / "report.md").read_text()
    for figure in ("Fig. 9 bandwidth ratio", "Fig. 9 knee", "Fig. 9 mean latency below",
                   "Fig. 9 tail (p99) latency below", "latency starts to rise", "Point-to-point latency", "Table 5 MTBF",
                   "Buffer sizing", "Fig. 8 ranking"):
        assert figure in report, figure
    # 29 BER points in Fig. 9 and Table 5.
    assert len((out / "fig9-bandwidth-latency.csv").read_text().splitlines()) == 30
    assert len((out / "table5-mtbf.csv").read_text().splitlines()) == 30
    assert "Traffic simulated per BER point" in report


def test_full_mode_workers_fit_in_memory():
    from ns3rifl.reproduce import MODES, fig9_point_mb, memory_capped_workers

    full = MODES["full"]["fig9_us"]
    # A full-volume point keeps 800 ms x 1.6 MB/ms of latency samples, with vector growth.
    assert 1300 < fig9_point_mb(full) < 2700
    assert memory_capped_workers(None, full, 64 * 1024, cpus=32) == 20
    assert memory_capped_workers(8, full, 4 * 1024, cpus=32) == 1
    assert memory_capped_workers(8, full, 100, cpus=32) == 1  # never zero
    assert memory_capped_workers(2, full, None, cpus=32) == 2  # unknown memory: as asked
    assert memory_capped_workers(None, MODES["quick"]["fig9_us"], 4 * 1024, cpus=2) == 2

"""Sweep and command-line input: equal grid values are one point given twice, seeds
and workers take NumPy integers, a scheduler without runner = "dask" is refused,
a config named x.TOML is TOML, and the command line's errors (a bad reproduce
--out, an unreachable --scheduler) are one line with exit status 2."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ns3rifl
from ns3rifl import sweeps


def test_scheduler_without_dask_is_refused():
    with pytest.raises(ValueError, match=r"scheduler = 'tcp://127.0.0.1:1' does not apply to "
                                         r"runner = 'process'"):
        ns3rifl.sweep("rifl_link", {"ber": [0.0]}, scheduler="tcp://127.0.0.1:1")


def test_equal_sweep_values_are_one_point_given_twice():
    with pytest.raises(ValueError, match=r"grid\['ber'\] holds 0.0 twice \(as 0 and 0.0, equal "
                                         r"values\)"):
        sweeps.grid_points({"ber": [0, 0.0]}, [1])
    with pytest.raises(ValueError, match="twice"):
        sweeps.grid_points({"ber": [1e-6, np.float64(1e-6)]}, [1])
    assert len(sweeps.grid_points({"ber": [0, 1e-6]}, [1])) == 2


def test_sweep_seeds_and_workers_take_numpy_integers():
    assert [p["seed"] for p in sweeps.grid_points({"ber": [0.0]}, [np.int64(1), 2])] == [1, 2]
    with pytest.raises(TypeError, match=r"seeds must be integers >= 1, got 1.0 \(float\)"):
        sweeps.grid_points({"ber": [0.0]}, [1.0])
    with pytest.raises(ValueError, match=r"workers = 0 must be an integer >= 1"):
        ns3rifl.sweep("rifl_link", {"ber": [0.0]}, workers=np.int64(0))
    with pytest.raises(TypeError, match=r"workers = 1.5 \(float\) must be an integer"):
        ns3rifl.sweep("rifl_link", {"ber": [0.0]}, workers=1.5)


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "ns3rifl", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **(env or {})})


def test_reproduce_out_errors_are_one_line_with_status_2(tmp_path):
    f = tmp_path / "a-file"
    f.write_text("x")
    for out, words in ((f, "is a file, not a folder"), (f / "sub", "cannot be created")):
        p = _cli("reproduce", "--tiny", "--out", str(out), "--no-progress")
        assert p.returncode == 2, p.stderr
        assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr
        assert p.stderr.startswith("python3 -m ns3rifl reproduce: error: --out") and words in p.stderr


def test_unreachable_scheduler_is_one_line_with_status_2(tmp_path):
    cfg = tmp_path / "c.json"
    cfg.write_text(json.dumps({"scenario": "rifl_link", "grid": {"duration_us": [1.0]},
                               "output": str(tmp_path / "o.jsonl")}))
    p = _cli("sweep", str(cfg), "--scheduler", "tcp://127.0.0.1:9", "--no-progress",
             env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and p.stderr.count("\n") == 1, p.stderr
    assert "error: scheduler = 'tcp://127.0.0.1:9' cannot be reached" in p.stderr


def test_config_extension_is_case_insensitive_and_scheduler_needs_dask(tmp_path):
    cfg = tmp_path / "x.TOML"
    cfg.write_text('scenario = "no_such"\ngrid = {ber = [0.0]}\n')
    p = _cli("sweep", str(cfg))
    assert "scenario = 'no_such' is unknown" in p.stderr, p.stderr  # read as TOML, not JSON
    cfg.write_text('scenario = "rifl_link"\nscheduler = "tcp://127.0.0.1:9"\n'
                   'grid = {ber = [0.0]}\n')
    p = _cli("sweep", str(cfg))
    assert p.returncode != 0 and "does not apply to runner = 'process'" in p.stderr, p.stderr

"""Tests of ns3rifl.sweep: a small grid through the process pool and through
a real local Dask cluster, resume after an interrupted sweep, one row per
point x seed, deterministic results."""

import json
import os

import pytest

import ns3rifl.sweeps as sw

GRID = {"ber": [0.0, 1e-6], "duration_us": [5.0], "warmup_us": [15.0]}


def test_grid_points_and_keys():
    pts = sw.grid_points(GRID, seeds=[1, 2])
    assert len(pts) == 4
    assert pts[0] == {"ber": 0.0, "duration_us": 5.0, "warmup_us": 15.0, "seed": 1}
    keys = {sw.point_key("rifl_link", p) for p in pts}
    assert len(keys) == 4
    with pytest.raises(TypeError):
        sw.grid_points({"ber": 1e-6}, seeds=[1])
    with pytest.raises(ValueError):
        sw.grid_points({"ber": []}, seeds=[1])
    with pytest.raises(ValueError):
        sw.grid_points(GRID, seeds=[0])
    with pytest.raises(ValueError, match="scenario"):
        sw.sweep("no_such_scenario", GRID)
    with pytest.raises(ValueError, match="runner"):
        sw.sweep("rifl_link", GRID, runner="mpi")


def test_process_pool_sweep_and_resume(tmp_path):
    out = str(tmp_path / "runs.jsonl")
    rows = sw.sweep("rifl_link", GRID, seeds=[1, 2], workers=2, output=out, progress=False)
    assert len(rows) == 4
    with open(out) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    assert len(lines) == 4
    assert {r["key"] for r in rows} == {r["key"] for r in lines}
    assert all("a_to_b.goodput_gbps" in r for r in rows)
    # Interrupt: keep two finished points and a half-written line, then resume.
    with open(out, "w") as f:
        f.write(json.dumps(lines[0]) + "\n" + json.dumps(lines[1]) + "\n" + '{"key": "cut')
    again = sw.sweep("rifl_link", GRID, seeds=[1, 2], workers=2, output=out, progress=False)
    with open(out) as f:
        after = [x for x in f if x.strip()]
    # Two points reused, two re-run and appended (the cut line is ignored).
    assert len(after) == 5
    by_key = {r["key"]: r for r in rows}
    for r in again:
        a, b = dict(r), dict(by_key[r["key"]])
        a.pop("wall_s"), b.pop("wall_s")
        assert a == b, "re-running a point gives the same numbers"


def test_dask_sweep_on_a_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        rows = sw.sweep("rifl_link", GRID, seeds=[1], runner="dask",
                        scheduler=cluster.scheduler_address,
                        output=str(tmp_path / "dask.jsonl"), progress=False)
    assert len(rows) == 2
    local = sw.sweep("rifl_link", GRID, seeds=[1], workers=1, progress=False)
    for a, b in zip(rows, local):
        a, b = dict(a), dict(b)
        a.pop("wall_s"), b.pop("wall_s")
        assert a == b, "Dask and the process pool give the same numbers"


def test_cli_sweep_with_toml_config(tmp_path):
    import subprocess
    import sys

    cfg = tmp_path / "sweep.toml"
    out = tmp_path / "cli.jsonl"
    cfg.write_text(
        'scenario = "rifl_link"\nseeds = [1]\noutput = "%s"\n[grid]\nber = [0.0]\n'
        'duration_us = [5.0]\nwarmup_us = [15.0]\n' % out)
    env = dict(os.environ)
    p = subprocess.run([sys.executable, "-m", "ns3rifl", "sweep", str(cfg), "--no-progress"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert len([x for x in out.read_text().splitlines() if x.strip()]) == 1
    bad = tmp_path / "bad.toml"
    bad.write_text('scenario = "rifl_link"\ncolour = 3\n[grid]\nber=[0.0]\n')
    p = subprocess.run([sys.executable, "-m", "ns3rifl", "sweep", str(bad)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode != 0 and "colour" in p.stderr

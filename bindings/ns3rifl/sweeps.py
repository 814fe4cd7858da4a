"""Parameter sweeps over the module's scenarios.

``sweep(scenario, grid, seeds)`` runs the Cartesian product of ``grid`` (a
dict of parameter name -> list of values) times ``seeds``, every run in a
fresh worker process (ns-3's simulator is process-global), and appends each
result as one JSON line to ``output`` as soon as it finishes, so an
interrupted sweep resumes where it stopped: points already in the file are
skipped.  The run number of a point is derived from the point itself (a
stable hash of the scenario, its parameters and the seed), so re-running a
sweep gives the same numbers.

Runners: ``"process"`` (a local process pool, default all cores) and
``"dask"`` (an existing ``distributed`` scheduler, ``scheduler="tcp://HOST:PORT"``);
on Dask each task still runs its simulation in a child process of the worker.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import itertools
import json
import multiprocessing as mp
import os
import sys
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence

__all__ = ["SCENARIOS", "sweep", "grid_points", "point_key", "run_point", "flatten"]


def _run_rifl_link(**kwargs: Any) -> Dict[str, Any]:
    """run_rifl_link, plus ``packet_bytes=P`` for fixed-size packets (min = max = P)."""
    from . import _core

    if "packet_bytes" in kwargs:
        p = kwargs.pop("packet_bytes")
        if "min_packet_bytes" in kwargs or "max_packet_bytes" in kwargs:
            raise ValueError("packet_bytes excludes min_packet_bytes and max_packet_bytes")
        kwargs["min_packet_bytes"] = kwargs["max_packet_bytes"] = p
    return _core.run_rifl_link(**kwargs)


def _run_direct_link_pair(**kwargs: Any) -> Dict[str, Any]:
    """run_direct_link_pair (two CPUs, request/response traffic over one direct link)."""
    from . import _core

    return _core.run_direct_link_pair(**kwargs)


def _run_multiprocessor(**kwargs: Any) -> Dict[str, Any]:
    """run_multiprocessor (CPUs on direct links in a full mesh, ring, mesh, torus or hypercube)."""
    from . import _core

    return _core.run_multiprocessor(**kwargs)


#: Scenario name -> callable(**params) -> dict.
SCENARIOS: Dict[str, Callable[..., Dict[str, Any]]] = {
    "rifl_link": _run_rifl_link,
    "direct_link_pair": _run_direct_link_pair,
    "multiprocessor": _run_multiprocessor,
    "dcn": lambda **kw: __import__("ns3rifl._core", fromlist=["_core"]).run_dcn(
        **{"flows": False, "report_json": False, **kw}),
}


def _check_scenario(scenario: str) -> None:
    if not isinstance(scenario, str):
        raise TypeError(f"scenario must be a str, one of {sorted(SCENARIOS)}")
    if scenario not in SCENARIOS:
        raise ValueError(f"scenario = {scenario!r} is unknown; choose one of {sorted(SCENARIOS)}")


def grid_points(grid: Mapping[str, Sequence[Any]], seeds: Iterable[int]) -> List[Dict[str, Any]]:
    """The Cartesian product of the grid times the seeds, as parameter dicts.

    Each dict has the grid's parameters and ``seed``; the order is stable.
    """
    if not isinstance(grid, Mapping):
        raise TypeError("grid must be a dict of parameter name -> list of values")
    keys = list(grid.keys())
    for k in keys:
        if not isinstance(k, str):
            raise TypeError(f"grid keys must be str, got {k!r}")
        if isinstance(grid[k], (str, bytes)) or not isinstance(grid[k], Sequence):
            raise TypeError(f"grid[{k!r}] must be a list of values")
        if len(grid[k]) == 0:
            raise ValueError(f"grid[{k!r}] is empty")
    seeds = list(seeds)
    if not seeds:
        raise ValueError("seeds must hold at least one seed")
    for s in seeds:
        if not isinstance(s, int) or isinstance(s, bool) or s < 1:
            raise ValueError(f"seeds must be integers >= 1, got {s!r}")
    points = []
    for values in itertools.product(*(grid[k] for k in keys)):
        for s in seeds:
            p = dict(zip(keys, values))
            p["seed"] = s
            points.append(p)
    return points


def point_key(scenario: str, point: Mapping[str, Any]) -> str:
    """A stable identifier of a point (used to resume and to derive its run number)."""
    text = json.dumps({"scenario": scenario, "point": point}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _rng_run(key: str) -> int:
    return int(key[:8], 16) % 2_000_000_000 + 1


def run_point(scenario: str, point: Mapping[str, Any]) -> Dict[str, Any]:
    """Run one point in this process and return a flat result row."""
    _check_scenario(scenario)
    key = point_key(scenario, point)
    params = {k: v for k, v in point.items() if k != "seed"}
    params["rng_run"] = _rng_run(key)
    result = SCENARIOS[scenario](**params)
    row = {"scenario": scenario, "key": key}
    row.update({f"param.{k}": (json.dumps(v) if isinstance(v, (dict, list)) else v)
                for k, v in point.items()})
    row.update(flatten(result))
    return row


def _run_isolated(scenario: str, point: Mapping[str, Any]) -> Dict[str, Any]:
    """Run one point in a fresh child interpreter (used on Dask workers, whose
    daemonic processes may not fork multiprocessing children)."""
    import subprocess

    payload = json.dumps({"scenario": scenario, "point": dict(point)})
    env = dict(os.environ)
    pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = pkg_root + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-m", "ns3rifl", "_point"], input=payload,
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"point {dict(point)} failed: {p.stderr.strip()[-2000:]}")
    return json.loads(p.stdout)


def flatten(d: Mapping[str, Any], prefix: str = "") -> Dict[str, Any]:
    """Nested dicts to one level with dotted names."""
    out: Dict[str, Any] = {}
    for k, v in d.items():
        name = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten(v, name + "."))
        else:
            out[name] = v
    return out


def _read_done(output: Optional[str]) -> Dict[str, Dict[str, Any]]:
    done: Dict[str, Dict[str, Any]] = {}
    if not output or not os.path.exists(output):
        return done
    with open(output, "r", encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                # A line cut by an interruption: ignore it, the point runs again.
                print(f"ns3rifl.sweep: ignoring malformed line {lineno} of {output}",
                      file=sys.stderr)
                continue
            if isinstance(row, dict) and "key" in row:
                done[row["key"]] = row
    return done


def sweep(
    scenario: str,
    grid: Mapping[str, Sequence[Any]],
    seeds: Iterable[int] = (1,),
    runner: str = "process",
    workers: Optional[int] = None,
    output: Optional[str] = None,
    scheduler: Optional[str] = None,
    progress: bool = True,
) -> List[Dict[str, Any]]:
    """Run a sweep and return one flat dict per point and seed (grid order).

    Parameters
    ----------
    scenario: a name of ``SCENARIOS`` (e.g. ``"rifl_link"``).
    grid: parameter name -> list of values (keyword arguments of the scenario).
    seeds: seeds (>= 1); each point runs once per seed.
    runner: ``"process"`` or ``"dask"``.
    workers: process-pool size (default: all cores).
    output: a JSON-lines file; results are appended as they finish, and points
        already in it are skipped (resume).
    scheduler: the Dask scheduler address for ``runner="dask"``.
    progress: show a tqdm progress bar with ETA.
    """
    _check_scenario(scenario)
    if runner not in ("process", "dask"):
        raise ValueError(f"runner = {runner!r} must be 'process' or 'dask'")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers = {workers!r} must be an integer >= 1")
    if runner == "dask" and not scheduler:
        raise ValueError("runner = 'dask' needs scheduler = 'tcp://HOST:PORT'")
    points = grid_points(grid, seeds)
    keys = [point_key(scenario, p) for p in points]
    done = _read_done(output)
    pending = [(k, p) for k, p in zip(keys, points) if k not in done]
    results: Dict[str, Dict[str, Any]] = dict(done)

    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=len(points), initial=len(points) - len(pending), unit="run",
                       desc=f"sweep {scenario}")
        except ImportError:  # pragma: no cover - tqdm is a Debian package dependency
            bar = None
    out = None
    if output:
        # A line cut by an interruption has no newline: end it, so that the
        # appended rows start on lines of their own.
        if os.path.exists(output) and os.path.getsize(output) > 0:
            with open(output, "rb") as f:
                f.seek(-1, os.SEEK_END)
                cut = f.read(1) != b"\n"
        else:
            cut = False
        out = open(output, "a", encoding="utf-8")
        if cut:
            out.write("\n")
    try:
        def finish(row: Dict[str, Any]) -> None:
            results[row["key"]] = row
            if out:
                out.write(json.dumps(row, default=float) + "\n")
                out.flush()
            if bar:
                bar.update(1)

        if runner == "process":
            ctx = mp.get_context("spawn")
            n = workers or os.cpu_count() or 1
            with cf.ProcessPoolExecutor(max_workers=n, mp_context=ctx,
                                        max_tasks_per_child=1) as ex:
                futs = [ex.submit(run_point, scenario, p) for _, p in pending]
                for fut in cf.as_completed(futs):
                    finish(fut.result())
        else:
            from distributed import Client, as_completed

            with Client(scheduler) as client:
                futs = [client.submit(_run_isolated, scenario, p, pure=False) for _, p in pending]
                for fut in as_completed(futs):
                    finish(fut.result())
    finally:
        if out:
            out.close()
        if bar:
            bar.close()
    return [results[k] for k in keys]

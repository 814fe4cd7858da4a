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

import ast
import concurrent.futures as cf
import hashlib
import inspect
import itertools
import json
import multiprocessing as mp
import numbers
import os
import re
import sys
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence

__all__ = ["SCENARIOS", "SchedulerUnreachable", "sweep", "grid_points", "check_grid", "scenario_parameters", "point_key",
           "run_point", "flatten"]


class SchedulerUnreachable(ConnectionError):
    """The Dask scheduler of runner = "dask" could not be reached."""


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


def _run_dcn(**kwargs: Any) -> Dict[str, Any]:
    """run_dcn, without the per-flow list and the JSON report unless asked for."""
    from . import _core

    return _core.run_dcn(**{"flows": False, "report_json": False, **kwargs})


#: The built-in scenarios: name -> (callable, the _core function it wraps,
#: parameters it adds to that function's, as name -> type).
_BUILTIN: Dict[str, Any] = {
    "rifl_link": (_run_rifl_link, "run_rifl_link", {"packet_bytes": "int"}),
    "direct_link_pair": (_run_direct_link_pair, "run_direct_link_pair", {}),
    "multiprocessor": (_run_multiprocessor, "run_multiprocessor", {}),
    "dcn": (_run_dcn, "run_dcn", {}),
}

#: Scenario name -> callable(**params) -> dict (the built-in ones; more may be added).
SCENARIOS: Dict[str, Callable[..., Dict[str, Any]]] = {
    name: fn for name, (fn, _core_name, _added) in _BUILTIN.items()
}

#: Grid parameters the sweep sets itself.
_RESERVED = {
    "rng_run": "rng_run is set by the sweep itself (from each point's key, which includes "
               "its seed); leave it out of the grid and vary seeds instead",
    "seed": "the seed of a point comes from seeds, not from the grid",
}


def _check_scenario(scenario: str) -> None:
    if not isinstance(scenario, str):
        raise TypeError(f"scenario = {scenario!r:.80} must be a str, one of {sorted(SCENARIOS)}")
    if scenario not in SCENARIOS:
        raise ValueError(f"scenario = {scenario!r} is unknown; choose one of {sorted(SCENARIOS)}")


def _value_id(v: Any) -> str:
    """A value's identity in a grid list: equal numbers (0 and 0.0, 1e-6 and
    numpy.float64(1e-6)) have one id, so that a list cannot name one point twice."""
    if isinstance(v, numbers.Real) and not _is_bool(v):
        if isinstance(v, numbers.Integral):
            return str(int(v))
        f = float(v)
        return str(int(f)) if f.is_integer() else repr(f)
    return json.dumps(v, sort_keys=True, default=str)


def _integer(v: Any) -> Optional[int]:
    """An int for a Python or NumPy integer (not a bool), else None."""
    if isinstance(v, numbers.Integral) and not _is_bool(v):
        return int(v)
    return None


def grid_points(grid: Mapping[str, Sequence[Any]], seeds: Iterable[int]) -> List[Dict[str, Any]]:
    """The Cartesian product of the grid times the seeds, as parameter dicts.

    Each dict has the grid's parameters and ``seed``; the order is stable.
    A value given twice in a list (also as equal numbers such as 0 and 0.0),
    or a seed given twice, is an error: it would run the same point twice
    (the points' keys differ, so both would run).  Seeds may be Python or
    NumPy integers >= 1.
    """
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid must be a dict of parameter name -> list of values, "
                        f"got {type(grid).__name__} {grid!r:.80}")
    keys = list(grid.keys())
    for k in keys:
        if not isinstance(k, str):
            raise TypeError(f"grid keys must be str, got {k!r}")
        if isinstance(grid[k], (str, bytes)) or not isinstance(grid[k], Sequence):
            raise TypeError(f"grid[{k!r}] must be a list of values, "
                            f"got {type(grid[k]).__name__} {grid[k]!r:.80}")
        if len(grid[k]) == 0:
            raise ValueError(f"grid[{k!r}] is empty")
        seen: Dict[str, Any] = {}
        for v in grid[k]:
            if _value_id(v) in seen:
                first = seen[_value_id(v)]
                also = "" if repr(first) == repr(v) else f" (as {first!r} and {v!r}, equal values)"
                raise ValueError(f"grid[{k!r}] holds {v!r} twice{also}: the point would run twice")
            seen[_value_id(v)] = v
    if isinstance(seeds, (str, bytes, Mapping)) or not isinstance(seeds, Iterable):
        raise TypeError(f"seeds must be a list of integers >= 1, "
                        f"got {type(seeds).__name__} {seeds!r:.80}")
    given = list(seeds)
    if not given:
        raise ValueError("seeds must hold at least one seed")
    seeds = []
    for s in given:
        i = _integer(s)
        if i is None:
            raise TypeError(f"seeds must be integers >= 1, got {s!r} ({type(s).__name__})")
        if i < 1:
            raise ValueError(f"seeds must be integers >= 1, got {s!r}")
        seeds.append(i)
    if len(set(seeds)) != len(seeds):
        twice = next(s for i, s in enumerate(seeds) if s in seeds[:i])
        raise ValueError(f"seeds holds {twice!r} twice")
    points = []
    for values in itertools.product(*(grid[k] for k in keys)):
        for s in seeds:
            p = dict(zip(keys, values))
            p["seed"] = s
            points.append(p)
    return points


def _docstring_parameters(fn: Any) -> Optional[Dict[str, str]]:
    """Parameter name -> type name from the first line of a pybind11 docstring
    (``f(a: float = 0.0, b: int = 1) -> dict``); None if it cannot be read."""
    first = (getattr(fn, "__doc__", None) or "").strip().split("\n", 1)[0]
    m = re.match(r"^\w+\((.*)\)\s*->", first)
    if not m:
        return None
    try:
        args = ast.parse(f"def f({m.group(1)}): pass").body[0].args  # type: ignore[attr-defined]
    except SyntaxError:
        return None
    if args.vararg or args.kwarg:
        return None
    positional = args.posonlyargs + args.args
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]],
                        args.defaults))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})

    def kind(a: ast.arg) -> str:
        ann = a.annotation
        if isinstance(ann, ast.Name):
            name = ann.id
        elif (isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name)
              and ann.value.id == "Optional" and isinstance(ann.slice, ast.Name)):
            name = ann.slice.id + "|None"
        else:
            return "object"
        d = defaults.get(a.arg)
        # A keyword that defaults to None takes None (its configuration's default) too.
        if (isinstance(d, ast.Constant) and d.value is None and name != "object"
                and not name.endswith("|None")):
            name += "|None"
        return name

    return {a.arg: kind(a) for a in positional + args.kwonlyargs}


def scenario_parameters(scenario: str) -> Optional[Dict[str, str]]:
    """The keyword parameters a scenario accepts, as name -> type name
    (``float``, ``int``, ``bool``, ``str``, one of these with ``|None`` for a
    keyword that defaults to None, or ``object`` for anything else),
    read from the pybind11 signature of the C++ function behind it; None when
    they cannot be known (a callable added to SCENARIOS that takes ``**kwargs``).
    """
    _check_scenario(scenario)
    fn = SCENARIOS[scenario]
    if scenario in _BUILTIN and fn is _BUILTIN[scenario][0]:
        from . import _core

        params = _docstring_parameters(getattr(_core, _BUILTIN[scenario][1]))
        if params is None:
            return None
        params.update(_BUILTIN[scenario][2])
        return params
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
        return None
    return {name: (p.annotation.__name__ if p.annotation in (float, int, bool, str) else "object")
            for name, p in sig.parameters.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool) or getattr(getattr(v, "dtype", None), "kind", None) == "b"


def _fits(value: Any, kind: str) -> bool:
    """Whether a grid value has the type a parameter takes (bools are not numbers here;
    ``int|None``: an int or None)."""
    if kind.endswith("|None"):
        return value is None or _fits(value, kind[:-len("|None")])
    if kind == "float":
        return isinstance(value, numbers.Real) and not _is_bool(value)
    if kind == "int":
        return isinstance(value, numbers.Integral) and not _is_bool(value)
    if kind == "bool":
        return _is_bool(value)
    if kind == "str":
        return isinstance(value, str)
    return True


def check_grid(scenario: str, grid: Mapping[str, Sequence[Any]]) -> None:
    """Check a grid against the parameters of a scenario before anything runs.

    Raises ValueError for a parameter the scenario does not take (naming it and
    listing the ones it takes) or one the sweep sets itself (``rng_run``,
    ``seed``), TypeError for a value of the wrong type.  Ranges are checked by
    the scenario itself when a point runs.
    """
    _check_scenario(scenario)
    grid_points(grid, [1])
    for k in grid:
        if k in _RESERVED:
            raise ValueError(f"grid[{k!r}]: {_RESERVED[k]}")
    params = scenario_parameters(scenario)
    if params is None:
        return
    accepted = sorted(set(params) - set(_RESERVED))
    for k, values in grid.items():
        if k not in params:
            raise ValueError(f"grid[{k!r}]: scenario {scenario!r} has no parameter {k!r}; "
                             f"its parameters: {', '.join(accepted)}")
        for v in values:
            if not _fits(v, params[k]):
                raise TypeError(f"grid[{k!r}] holds {v!r} ({type(v).__name__}); "
                                f"scenario {scenario!r} takes {k}: {params[k]}")
    if scenario == "rifl_link" and "packet_bytes" in grid:
        both = [k for k in ("min_packet_bytes", "max_packet_bytes") if k in grid]
        if both:
            raise ValueError(f"grid['packet_bytes'] excludes grid[{both[0]!r}] "
                             f"(packet_bytes sets min_packet_bytes = max_packet_bytes)")


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
    if p.returncode == 2:
        # A bad argument: the child printed {"error": ..., "message": ...}.
        try:
            err = json.loads(p.stdout)
        except json.JSONDecodeError:
            err = {}
        if isinstance(err, dict) and err.get("error") in ("TypeError", "ValueError"):
            exc = TypeError if err["error"] == "TypeError" else ValueError
            raise exc(f"{scenario} point {dict(point)} failed: {err.get('message')}")
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
    try:
        with open(output, "r", encoding="utf-8") as f:
            lines = f.readlines()
    except UnicodeDecodeError as e:
        raise ValueError(f"output = {output!r} is not a JSON-lines file of results "
                         f"(not UTF-8 text: {e.reason})") from None
    except OSError as e:
        raise ValueError(f"output = {output!r} cannot be read: {e.strerror or e}") from None
    for lineno, line in enumerate(lines, 1):
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
        if isinstance(row, dict) and isinstance(row.get("key"), str):
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
        The names and the value types are checked against the scenario's
        parameters (``check_grid``) before anything runs.
    seeds: seeds (>= 1, each once); each point runs once per seed.
    runner: ``"process"`` or ``"dask"``.
    workers: process-pool size (default: all cores).
    output: a JSON-lines file; results are appended as they finish, and points
        already in it are skipped (resume).
    scheduler: the Dask scheduler address for ``runner="dask"``.
    progress: show a tqdm progress bar with ETA.

    Bad arguments raise ValueError or TypeError naming the argument (a grid
    value the scenario rejects when its point runs: naming the point); the
    sweep then stops, dropping the points not started yet.
    """
    _check_scenario(scenario)
    if not isinstance(runner, str) or runner not in ("process", "dask"):
        raise ValueError(f"runner = {runner!r} must be 'process' or 'dask'")
    if workers is not None:
        n_workers = _integer(workers)
        if n_workers is None:
            raise TypeError(f"workers = {workers!r} ({type(workers).__name__}) must be an "
                            f"integer >= 1 or None")
        if n_workers < 1:
            raise ValueError(f"workers = {workers!r} must be an integer >= 1")
        workers = n_workers
    if scheduler is not None and not isinstance(scheduler, str):
        raise TypeError(f"scheduler = {scheduler!r} must be a str 'tcp://HOST:PORT'")
    if runner == "dask" and not scheduler:
        raise ValueError("runner = 'dask' needs scheduler = 'tcp://HOST:PORT'")
    if runner != "dask" and scheduler:
        raise ValueError(f"scheduler = {scheduler!r} does not apply to runner = {runner!r} "
                         f"(it is the Dask scheduler of runner = 'dask'; the points would "
                         f"run locally)")
    if not isinstance(progress, bool):
        raise TypeError(f"progress = {progress!r} must be True or False")
    if output is not None:
        if isinstance(output, os.PathLike):
            output = os.fspath(output)
        if not isinstance(output, str) or not output:
            raise TypeError(f"output = {output!r} must be a non-empty str (a file name) or None")
        if "\0" in output:
            raise ValueError(f"output = {output!r} holds a NUL character")
        if os.path.isdir(output):
            raise ValueError(f"output = {output!r} is a directory, not a file")
    points = grid_points(grid, seeds)
    check_grid(scenario, grid)
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
        try:
            out = open(output, "a", encoding="utf-8")
        except (OSError, ValueError) as e:  # ValueError: a name the file system cannot encode
            raise ValueError(f"output = {output!r} cannot be written: "
                             f"{getattr(e, 'strerror', None) or e}") from None
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
                futs = {ex.submit(run_point, scenario, p): p for _, p in pending}
                try:
                    for fut in cf.as_completed(futs):
                        try:
                            row = fut.result()
                        except (TypeError, ValueError) as e:
                            # A bad value the scenario rejected: say which point.
                            exc = TypeError if isinstance(e, TypeError) else ValueError
                            raise exc(f"{scenario} point {dict(futs[fut])} failed: {e}") from e
                        finish(row)
                except BaseException:
                    # Stop at the first failure: the points not started yet are dropped.
                    ex.shutdown(wait=True, cancel_futures=True)
                    raise
        else:
            from distributed import Client, as_completed

            try:
                client = Client(scheduler)
            except (OSError, ValueError) as e:  # refused, timed out, or a malformed address
                raise SchedulerUnreachable(f"scheduler = {scheduler!r} cannot be reached: "
                                           f"{e}") from None
            with client:
                dfuts = [client.submit(_run_isolated, scenario, p, pure=False) for _, p in pending]
                try:
                    for fut in as_completed(dfuts):
                        finish(fut.result())
                except BaseException:
                    client.cancel(dfuts)
                    raise
    finally:
        if out:
            out.close()
        if bar:
            bar.close()
    return [results[k] for k in keys]

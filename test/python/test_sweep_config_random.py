"""Seeded random sweep configs (issue 8: every file the module reads is fuzzed).

libFuzzer cannot reach the Python side, so the configs of ``python3 -m ns3rifl
sweep CONFIG`` are tested here: valid base configs (TOML and JSON, scenario
rifl_link on a 2 us grid) are mutated by ``random.Random(seed)`` for fixed
seeds -- a key dropped, an unknown key added, a value replaced by one of
another type, values out of range, grid entries broken (not a list, empty,
unknown or reserved parameter names, values of the wrong type or out of
range), the text cut, bytes inserted or flipped, invalid UTF-8, an empty
file, an output file that is not a results file -- and each result is run
through the command line's ``main`` in this process.  The property: ``main``
either returns 0 and the output file holds one row per point and seed, or
raises SystemExit with a message that starts ``ns3rifl sweep:`` and names the
config file and (for a mutation of a key) that key.  Any other exception fails.

Targeted tests of each check follow the random one.
"""

from __future__ import annotations

import concurrent.futures as cf
import datetime
import json
import os
import random
import time
import tomllib
from typing import Any, Dict, List, Optional, Tuple

import pytest

import ns3rifl.__main__ as cli
import ns3rifl.sweeps as sw

#: Random cases per test run (seeds 0 .. CASES - 1).
CASES = 500
#: Upper bound on the cases that stay valid (each costs a worker process).
MAX_VALID = 60

GRID = {"duration_us": [2.0], "warmup_us": [15.0], "ber": [0.0]}
BASE = {"scenario": "rifl_link", "grid": GRID, "seeds": [1], "runner": "process",
        "workers": 1, "output": "out.jsonl"}

#: Values out of range (or otherwise refused) per top-level key.
BAD_TOP = {
    "workers": [0, -1, -2 ** 63],
    "seeds": [[0], [-3], [1.5], [True], [], [1, 1], ["1"], [[1]], [{"a": 1}]],
    "runner": ["", "Process", "thread", "dask"],
    "scenario": ["", "rifl", "RIFL_LINK", "rifl_link ", "dcn\n"],
    "output": ["", ".", "..", "no/such/dir/out.jsonl", "a\u0000b", "@config"],
    "scheduler": [0, 1.5, [], {"host": "x"}, True],
}

#: Values of the wrong type per grid parameter (refused before anything runs).
BAD_TYPE = {
    "ber": ["x", True, [0.0], {"a": 1}, "@null"],
    "duration_us": ["2", False, [2.0]],
    "warmup_us": ["15", True],
    "load": ["full", False],
    "bidirectional": [1, "yes", 0.0],
    "min_packet_bytes": [1.5, "1", True],
    "packet_bytes": [64.0, "64"],
}

#: Values of the right type the scenario refuses when its point runs.
BAD_RANGE = {
    "ber": [2.0, -0.1, 1.0, float("nan"), float("inf")],
    "duration_us": [-1.0, 0.0, float("inf")],
    "warmup_us": [-1.0],
    "load": [0.0, -1.0, 101.0],
    "min_packet_bytes": [0, -1, 9001],
    "max_packet_bytes": [0, 10 ** 12],
    "packet_bytes": [0, 100000],
    "attributes": [3, {"x": 1}, {"ns3::RiflNetDevice::NoSuchAttribute": 1}],
}

UNKNOWN_TOP = ["colour", "seed", "grid_", "Scenario", "outputs", "", "rng_run", "ber", "timeout"]
UNKNOWN_GRID = ["colour", "Ber", "duration", "seed", "rng_run", "packet_byte",
                "ns3::RiflNetDevice::UserWordBytes", "", "flows"]


def _random_value(rng: random.Random, fmt: str, exclude: Optional[str] = None) -> Any:
    """A random value of a random type other than ``exclude`` (TOML has
    datetimes and no null, JSON the other way round)."""
    kinds = ["int", "float", "str", "bool", "list", "table", "datetime" if fmt == "toml" else "null"]
    kind = rng.choice([k for k in kinds if k != exclude])
    return {
        "int": lambda: rng.choice([0, 1, 2, -1, 3, 2 ** 40]),
        "float": lambda: rng.choice([0.0, 1.0, 2.5, -1.0, 1e300]),
        "str": lambda: rng.choice(["", "1", "x", "rifl_link", "out.jsonl", "process"]),
        "bool": lambda: rng.choice([True, False]),
        "list": lambda: rng.choice([[], [1], ["x"], [[1]], [1, "x"]]),
        "table": lambda: rng.choice([{}, {"a": 1}, {"ber": [0.0]}]),
        "datetime": lambda: datetime.datetime(1979, 5, 27, 7, 32, tzinfo=datetime.timezone.utc),
        "null": lambda: None,
    }[kind]()


def _kind(v: Any) -> Optional[str]:
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list",
            dict: "table"}.get(type(v))


def _mutate_structure(rng: random.Random, cfg: Dict[str, Any], fmt: str,
                      config_path: str) -> List[str]:
    """Apply one structural mutation to cfg; return the key names it touched."""
    op = rng.choices(["drop", "add", "retype", "range", "grid"], weights=[2, 2, 4, 4, 8])[0]
    if op == "drop":
        key = rng.choice(sorted(cfg))
        del cfg[key]
        return [key]
    if op == "add":
        key = rng.choice(UNKNOWN_TOP)
        cfg[key] = _random_value(rng, fmt)
        return [key]
    if op == "retype":
        key = rng.choice(sorted(cfg) + ["scheduler"])
        cfg[key] = _random_value(rng, fmt, exclude=_kind(cfg.get(key, "")))
        return [key]
    if op == "range":
        key = rng.choice(sorted(BAD_TOP))
        value = rng.choice(BAD_TOP[key])
        if value == "@config":
            value = config_path
        cfg[key] = value
        return [key]
    grid = cfg.get("grid")
    if not isinstance(grid, dict):
        return []
    gop = rng.choices(["scalar", "empty", "unknown", "type", "range", "twice", "more"],
                      weights=[2, 2, 3, 4, 4, 1, 1])[0]
    if gop == "scalar":
        key = rng.choice(sorted(grid) or ["ber"])
        grid[key] = rng.choice([0.0, 2.0, "x", True, {"a": [1]}] + ([None] if fmt == "json" else []))
    elif gop == "empty":
        key = rng.choice(sorted(grid) or ["ber"])
        grid[key] = []
    elif gop == "unknown":
        key = rng.choice(UNKNOWN_GRID)
        grid[key] = [rng.choice([0, 1.0, "x", True])]
    elif gop == "type":
        key = rng.choice(sorted(BAD_TYPE))
        value = rng.choice(BAD_TYPE[key])
        if value == "@null":
            value = None if fmt == "json" else "null"
        grid[key] = [value]
    elif gop == "range":
        key = rng.choice(sorted(BAD_RANGE))
        grid[key] = [rng.choice(BAD_RANGE[key])]
    elif gop == "twice":
        key = rng.choice(sorted(grid) or ["ber"])
        v = grid[key][0] if isinstance(grid.get(key), list) and grid[key] else 0.0
        grid[key] = [v, v]
    else:  # a second value: still valid
        key = "ber"
        grid[key] = [0.0, 1e-9]
    return [key]


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return json.dumps(v)
    if isinstance(v, float):
        if v != v:
            return "nan"
        return repr(v) if abs(v) != float("inf") else ("inf" if v > 0 else "-inf")
    if isinstance(v, datetime.datetime):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {v!r}")


def _to_toml(cfg: Dict[str, Any]) -> str:
    """TOML text of a config: scalars and arrays first, tables as [sections]."""
    lines = [f"{json.dumps(k)} = {_toml_value(v)}" for k, v in cfg.items() if not isinstance(v, dict)]
    for k, v in cfg.items():
        if isinstance(v, dict):
            lines.append(f"\n[{json.dumps(k)}]")
            lines += [f"{json.dumps(kk)} = {_toml_value(vv)}" for kk, vv in v.items()]
    return "\n".join(lines) + "\n"


def _mutate_text(rng: random.Random, data: bytes) -> bytes:
    op = rng.choice(["truncate", "insert", "flip", "utf8", "empty", "junk", "array"])
    if op == "truncate":
        return data[:rng.randrange(len(data))]
    if op == "insert":
        at = rng.randrange(len(data) + 1)
        junk = bytes(rng.choice([rng.randrange(256), rng.choice(b"0123456789[]{}=,.\"' \n")])
                     for _ in range(rng.randint(1, 4)))
        return data[:at] + junk + data[at:]
    if op == "flip":
        b = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b)
    if op == "utf8":
        at = rng.randrange(len(data) + 1)
        bad = rng.choice([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"])
        return data[:at] + bad + data[at:]
    if op == "empty":
        return b""
    if op == "junk":
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    return b"[1, 2]\n"


def _make_case(seed: int, case_dir: str) -> Tuple[str, bytes, List[str], Optional[bytes]]:
    """(config path, config bytes, mutated keys, bytes of a pre-existing output file)."""
    rng = random.Random(seed)
    fmt = rng.choice(["toml", "json"])
    path = os.path.join(case_dir, "sweep." + fmt)
    cfg = json.loads(json.dumps(BASE))
    keys: List[str] = []
    old_output = None
    kind = rng.choices(["structure", "text", "output-file"], weights=[14, 5, 1])[0]
    if kind == "structure":
        for _ in range(rng.choices([1, 2, 3], weights=[6, 3, 1])[0]):
            keys += _mutate_structure(rng, cfg, fmt, path)
        if cfg.get("runner") == "dask" and isinstance(cfg.get("scheduler"), str):
            del cfg["scheduler"]  # never connect to a scheduler
    elif kind == "output-file":
        old_output = b"\xff" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
        keys = ["output"]
    if fmt == "toml":
        data = _to_toml(cfg).encode("utf-8")
    else:
        data = json.dumps(cfg, indent=1).encode("utf-8")
    if kind == "text":
        data = _mutate_text(rng, data)
    return path, data, keys, old_output


def _expected_rows(path: str, where: str) -> Tuple[str, int]:
    """(output file, rows) that a valid config must give, read independently of the CLI."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    cfg = tomllib.loads(text) if path.endswith(".toml") else json.loads(text)
    output = cfg.get("output", "sweep-results.jsonl")
    assert isinstance(output, str) and output, \
        f"accepted, but output = {output!r} is not a file name; {where}"
    return output, len(sw.grid_points(cfg["grid"], cfg.get("seeds", [1])))


def test_random_configs(tmp_path, monkeypatch, capsys):
    valid = rejected = 0
    for seed in range(CASES):
        case_dir = tmp_path / f"case{seed}"
        case_dir.mkdir()
        monkeypatch.chdir(case_dir)
        path, data, keys, old_output = _make_case(seed, str(case_dir))
        with open(path, "wb") as f:
            f.write(data)
        if old_output is not None:
            with open(os.path.join(case_dir, "out.jsonl"), "wb") as f:
                f.write(old_output)
        text = data.decode("utf-8", errors="backslashreplace")
        where = f"seed {seed}, mutated keys {keys}, config {path}:\n{text}"
        try:
            rc = cli.main(["sweep", path, "--no-progress"])
        except SystemExit as e:
            msg = str(e.code)
            assert msg.startswith("ns3rifl sweep:"), f"{where}\nmessage: {msg}"
            assert repr(path) in msg, f"message does not name the file; {where}\nmessage: {msg}"
            if keys:
                assert any(k in msg for k in keys), \
                    f"message names none of {keys}; {where}\nmessage: {msg}"
            rejected += 1
            continue
        except BaseException as e:  # noqa: BLE001 - anything else is a failure
            pytest.fail(f"{type(e).__name__}: {e}\n{where}", pytrace=True)
        assert rc == 0, where
        output, rows = _expected_rows(path, where)
        assert os.path.isfile(output), f"no output file {output!r}; {where}"
        with open(output, "r", encoding="utf-8") as f:
            lines = [json.loads(x) for x in f if x.strip()]
        assert len(lines) == rows, where
        assert len({r["key"] for r in lines}) == rows, where
        valid += 1
    capsys.readouterr()
    print(f"{CASES} random configs: {valid} valid, {rejected} rejected")
    assert valid + rejected == CASES
    assert 5 <= valid <= MAX_VALID, f"{valid} valid cases (the runtime budget allows {MAX_VALID})"


# --- targeted tests of each check -------------------------------------------------------

def _run(tmp_path, cfg: Any, name: str = "sweep.json") -> str:
    """Run the CLI on cfg (a dict written as JSON, or the text of the file) and
    return its SystemExit message, checked to start ``ns3rifl sweep:`` and name the file."""
    path = tmp_path / name
    path.write_text(cfg if isinstance(cfg, str) else json.dumps(cfg))
    with pytest.raises(SystemExit) as e:
        cli.main(["sweep", str(path), "--no-progress"])
    msg = str(e.value.code)
    assert msg.startswith("ns3rifl sweep:") and repr(str(path)) in msg, msg
    return msg


def _with(tmp_path, **changes: Any) -> Dict[str, Any]:
    cfg = json.loads(json.dumps(BASE))
    cfg["output"] = str(tmp_path / "out.jsonl")
    cfg.update(changes)
    return cfg


@pytest.mark.parametrize("seeds", [3, "12", {"a": 1}, [True], [0], [1.5], [], [1, 1]])
def test_seeds_must_be_a_list_of_distinct_integers(tmp_path, seeds):
    msg = _run(tmp_path, _with(tmp_path, seeds=seeds))
    assert "seeds" in msg
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("workers", [True, False, "2", 1.5, 0, -1, [1]])
def test_workers_must_be_an_integer_not_a_bool(tmp_path, workers):
    assert "workers" in _run(tmp_path, _with(tmp_path, workers=workers))


@pytest.mark.parametrize("output", [3, 0, "", [], {"a": 1}, True, ".", "no/such/dir/x.jsonl", "a\u0000b"])
def test_output_must_be_a_file_name(tmp_path, monkeypatch, output):
    monkeypatch.chdir(tmp_path)
    msg = _run(tmp_path, _with(tmp_path, output=output))
    assert "output" in msg


def test_output_must_not_be_the_config_or_a_binary_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    msg = _run(tmp_path, _with(tmp_path, output="sweep.json"))
    assert "output = 'sweep.json' is the config file itself" in msg
    (tmp_path / "junk.jsonl").write_bytes(b"\xff\x00junk")
    msg = _run(tmp_path, _with(tmp_path, output="junk.jsonl"))
    assert "output = 'junk.jsonl' is not a JSON-lines file" in msg
    assert (tmp_path / "junk.jsonl").read_bytes() == b"\xff\x00junk", "left as it was"


@pytest.mark.parametrize("key,value", [("scheduler", 3), ("scheduler", ["tcp://x"]),
                                       ("runner", ["process"]), ("runner", {"a": 1}),
                                       ("runner", 1), ("scenario", ["rifl_link"]),
                                       ("scenario", {"a": 1}), ("grid", [1]), ("grid", "ber")])
def test_top_level_values_of_the_wrong_type(tmp_path, key, value):
    assert key in _run(tmp_path, _with(tmp_path, **{key: value}))


def test_null_values_and_duplicate_keys_in_json(tmp_path):
    assert "output is null" in _run(tmp_path, _with(tmp_path, output=None))
    assert "scenario is null" in _run(tmp_path, _with(tmp_path, scenario=None))
    text = '{"scenario": "rifl_link", "grid": {"ber": [0.0]}, "seeds": [1], "seeds": [2]}'
    assert "duplicate key 'seeds'" in _run(tmp_path, text)


def test_unreadable_configs(tmp_path):
    msg = _run(tmp_path, "", name="empty.toml")
    assert "needs a 'scenario' entry" in msg
    assert "cannot parse" in _run(tmp_path, "", name="empty.json")
    assert "must hold a table" in _run(tmp_path, "[1, 2]")
    (tmp_path / "bad.toml").write_bytes(b'scenario = "rifl\xff"\n')
    with pytest.raises(SystemExit, match="ns3rifl sweep: cannot parse .*bad.toml"):
        cli.main(["sweep", str(tmp_path / "bad.toml")])
    with pytest.raises(SystemExit, match="ns3rifl sweep: config file .* is a directory"):
        cli.main(["sweep", str(tmp_path)])


@pytest.mark.parametrize("grid,words", [
    ({"ber": 0.0}, ["grid['ber']", "list"]),
    ({"ber": []}, ["grid['ber']", "empty"]),
    ({"ber": [0.0, 0.0]}, ["grid['ber']", "twice"]),
    ({"colour": [1], "ber": [0.0]}, ["'colour'", "its parameters: attributes, ber, bidirectional"]),
    ({"rng_run": [5]}, ["grid['rng_run']", "set by the sweep itself", "vary seeds"]),
    ({"seed": [5]}, ["grid['seed']", "seeds"]),
    ({"ber": ["x"]}, ["grid['ber']", "'x'", "ber: float"]),
    ({"ber": [True]}, ["grid['ber']", "ber: float"]),
    ({"min_packet_bytes": [1.5]}, ["grid['min_packet_bytes']", "min_packet_bytes: int"]),
    ({"bidirectional": [1]}, ["grid['bidirectional']", "bidirectional: bool"]),
    ({"packet_bytes": [64], "min_packet_bytes": [1]}, ["packet_bytes", "min_packet_bytes"]),
])
def test_grid_is_checked_before_anything_runs(tmp_path, grid, words):
    msg = _run(tmp_path, _with(tmp_path, grid=grid))
    for w in words:
        assert w in msg, msg
    assert not (tmp_path / "out.jsonl").exists(), "nothing ran"
    # The Python API raises the same errors.
    with pytest.raises((TypeError, ValueError)) as e:
        sw.sweep("rifl_link", grid, output=str(tmp_path / "api.jsonl"), progress=False)
    assert str(e.value) in msg
    assert not (tmp_path / "api.jsonl").exists()


def test_scenario_parameters_come_from_the_bindings():
    for name in sw.SCENARIOS:
        params = sw.scenario_parameters(name)
        assert params is not None, name
        assert {"rng_run", "attributes"} <= set(params), name
    rifl = sw.scenario_parameters("rifl_link")
    assert rifl["ber"] == "float" and rifl["min_packet_bytes"] == "int"
    assert rifl["bidirectional"] == "bool" and rifl["packet_bytes"] == "int"
    assert sw.scenario_parameters("dcn")["topology"] == "str"
    sw.check_grid("multiprocessor", {"n": [4, None], "topology": ["ring"]})  # n: int|None
    assert sw.scenario_parameters("multiprocessor")["n"] == "int|None"
    assert sw.scenario_parameters("dcn")["host_ber"] == "float|None"
    with pytest.raises(TypeError, match=r"grid\['n'\] holds 4.5 \(float\); scenario "
                                        r"'multiprocessor' takes n: int\|None"):
        sw.check_grid("multiprocessor", {"n": [4.5]})


def test_a_point_the_scenario_refuses_stops_the_sweep(tmp_path):
    # The first point has warmup_us = -1 (refused by the C++ check when it runs);
    # the nine after it are valid but are not all run.
    grid = {"warmup_us": [-1.0] + [15.0 + i for i in range(9)], "duration_us": [2.0]}
    msg = _run(tmp_path, _with(tmp_path, grid=grid))
    assert "warmup_us = -1 is out of range" in msg
    assert "rifl_link point {'warmup_us': -1.0, 'duration_us': 2.0, 'seed': 1} failed" in msg
    msg = _run(tmp_path, _with(tmp_path, grid={"ber": [2.0]}))
    assert "ber = 2 is out of range [0, 1)" in msg and "'ber': 2.0" in msg


def test_the_points_not_started_are_dropped_after_a_failure(tmp_path, monkeypatch):
    # The pool's bookkeeping, seen in this process: a thread pool stands in for
    # the process pool and a counting stand-in for run_point records the points started.
    started: List[Dict[str, Any]] = []

    def counting_run_point(scenario: str, point: Dict[str, Any]) -> Dict[str, Any]:
        started.append(dict(point))
        if point["warmup_us"] < 0:
            raise ValueError("warmup_us = -1 is out of range [0, 1e9]")
        time.sleep(0.05)
        return {"scenario": scenario, "key": sw.point_key(scenario, point)}

    class Pool(cf.ThreadPoolExecutor):
        def __init__(self, max_workers: int, mp_context: Any = None,
                     max_tasks_per_child: Any = None) -> None:
            super().__init__(max_workers)

    monkeypatch.setattr(sw, "run_point", counting_run_point)
    monkeypatch.setattr(cf, "ProcessPoolExecutor", Pool)
    grid = {"warmup_us": [-1.0] + [15.0 + i for i in range(20)]}
    with pytest.raises(ValueError, match=r"point \{'warmup_us': -1.0, 'seed': 1\} failed"):
        sw.sweep("rifl_link", grid, workers=1, output=str(tmp_path / "o.jsonl"), progress=False)
    assert len(started) <= 3, f"{len(started)} of 21 points started after the first failed"


def test_a_point_refused_in_a_child_interpreter_names_the_point():
    # The Dask runner's path: _run_isolated runs `python3 -m ns3rifl _point`.
    with pytest.raises(ValueError, match=r"rifl_link point \{'ber': 2.0.*ber = 2 is out of range"):
        sw._run_isolated("rifl_link", {"ber": 2.0, "duration_us": 2.0, "seed": 1})

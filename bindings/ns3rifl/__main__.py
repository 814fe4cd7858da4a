"""Command line of ns3rifl: ``python3 -m ns3rifl {sweep CONFIG | reproduce [...]}``."""

from __future__ import annotations

import argparse
import json
import os
import sys


_CONFIG_KEYS = {"scenario", "grid", "seeds", "runner", "workers", "output", "scheduler"}
_REQUIRED_KEYS = ("scenario", "grid")


def _json_object(pairs: list) -> dict:
    """object_pairs_hook of json.loads: a key given twice is an error, not "last one wins"."""
    obj: dict = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError(f"duplicate key {k!r}")
        obj[k] = v
    return obj


def _load_config(path: str) -> dict:
    """Read a sweep config (TOML if the name ends in .toml in any case, else JSON) and check
    its top-level keys; the values are checked by ``sweep``.  Any problem is a
    SystemExit whose message starts ``ns3rifl sweep:`` and names the file."""
    if not os.path.exists(path):
        raise SystemExit(f"ns3rifl sweep: config file {path!r} does not exist")
    if os.path.isdir(path):
        raise SystemExit(f"ns3rifl sweep: config file {path!r} is a directory, not a file")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SystemExit(f"ns3rifl sweep: cannot read config file {path!r}: {e.strerror or e}")
    try:
        if path.lower().endswith(".toml"):
            import tomllib

            cfg = tomllib.loads(data.decode("utf-8"))
        else:
            cfg = json.loads(data.decode("utf-8"), object_pairs_hook=_json_object)
    except Exception as e:  # noqa: BLE001 - report any parse error with the file name
        raise SystemExit(f"ns3rifl sweep: cannot parse {path!r}: {e}")
    if not isinstance(cfg, dict):
        raise SystemExit(f"ns3rifl sweep: {path!r} must hold a table/object")
    unknown = set(cfg) - _CONFIG_KEYS
    if unknown:
        raise SystemExit(f"ns3rifl sweep: unknown keys {sorted(unknown)} in {path!r}; "
                         f"allowed: {sorted(_CONFIG_KEYS)}")
    for key in _REQUIRED_KEYS:
        if key not in cfg:
            raise SystemExit(f"ns3rifl sweep: {path!r} needs a '{key}' entry")
    for key in sorted(cfg):
        if cfg[key] is None:
            hint = "" if key in _REQUIRED_KEYS else " (leave it out for the default)"
            raise SystemExit(f"ns3rifl sweep: {path!r}: {key} is null; give a value{hint}")
    return cfg


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python3 -m ns3rifl")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("sweep", help="run a parameter sweep from a TOML or JSON config")
    sp.add_argument("config")
    sp.add_argument("--scheduler", default=None, help="Dask scheduler tcp://HOST:PORT (runner dask)")
    sp.add_argument("--workers", type=int, default=None)
    sp.add_argument("--no-progress", action="store_true")
    sub.add_parser("reproduce", help="reproduce the RIFL paper's figures", add_help=False)
    if argv and argv[0] == "_point":
        # Internal: run one sweep point read as JSON from stdin, print its row.
        from .sweeps import run_point

        req = json.loads(sys.stdin.read())
        try:
            row = run_point(req["scenario"], req["point"])
        except (TypeError, ValueError) as e:
            print(f"{type(e).__name__}: {e}", file=sys.stderr)
            print(json.dumps({"error": type(e).__name__, "message": str(e)}))
            return 2
        print(json.dumps(row, default=float))
        return 0
    if argv and argv[0] == "reproduce":
        from .reproduce import main as reproduce_main

        return reproduce_main(argv[1:])
    args = ap.parse_args(argv)
    if args.cmd == "sweep":
        from .sweeps import SchedulerUnreachable, sweep

        path = args.config
        cfg = _load_config(path)
        runner = cfg.get("runner", "process")
        scheduler = args.scheduler or cfg.get("scheduler")
        if args.scheduler:
            runner = "dask"
        output = cfg.get("output", "sweep-results.jsonl")
        if isinstance(output, str) and output and os.path.exists(output) \
                and os.path.samefile(output, path):
            raise SystemExit(f"ns3rifl sweep: {path!r}: output = {output!r} is the config file itself")
        try:
            rows = sweep(cfg["scenario"], cfg["grid"], seeds=cfg.get("seeds", [1]), runner=runner,
                         workers=args.workers if args.workers is not None else cfg.get("workers"),
                         output=output, scheduler=scheduler, progress=not args.no_progress)
        except (TypeError, ValueError) as e:
            raise SystemExit(f"ns3rifl sweep: {path!r}: {e}")
        except SchedulerUnreachable as e:
            # One line and exit status 2, as argparse reports a bad argument.
            sp.exit(2, f"{sp.prog}: error: {e}\n")
        print(f"{len(rows)} runs; results in {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

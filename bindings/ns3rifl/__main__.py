"""Command line of ns3rifl: ``python3 -m ns3rifl {sweep CONFIG | reproduce [...]}``."""

from __future__ import annotations

import argparse
import json
import os
import sys


def _load_config(path: str) -> dict:
    if not os.path.exists(path):
        raise SystemExit(f"ns3rifl sweep: config file {path!r} does not exist")
    try:
        if path.endswith(".toml"):
            import tomllib

            with open(path, "rb") as f:
                cfg = tomllib.load(f)
        else:
            with open(path, "r", encoding="utf-8") as f:
                cfg = json.load(f)
    except Exception as e:  # noqa: BLE001 - report any parse error with the file name
        raise SystemExit(f"ns3rifl sweep: cannot parse {path!r}: {e}")
    if not isinstance(cfg, dict):
        raise SystemExit(f"ns3rifl sweep: {path!r} must hold a table/object")
    allowed = {"scenario", "grid", "seeds", "runner", "workers", "output", "scheduler"}
    unknown = set(cfg) - allowed
    if unknown:
        raise SystemExit(f"ns3rifl sweep: unknown keys {sorted(unknown)} in {path!r}; allowed: {sorted(allowed)}")
    for key in ("scenario", "grid"):
        if key not in cfg:
            raise SystemExit(f"ns3rifl sweep: {path!r} needs a '{key}' entry")
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
            return 2
        print(json.dumps(row, default=float))
        return 0
    if argv and argv[0] == "reproduce":
        from .reproduce import main as reproduce_main

        return reproduce_main(argv[1:])
    args = ap.parse_args(argv)
    if args.cmd == "sweep":
        from .sweeps import sweep

        cfg = _load_config(args.config)
        runner = cfg.get("runner", "process")
        scheduler = args.scheduler or cfg.get("scheduler")
        if args.scheduler:
            runner = "dask"
        try:
            rows = sweep(cfg["scenario"], cfg["grid"], seeds=cfg.get("seeds", [1]), runner=runner,
                         workers=args.workers or cfg.get("workers"),
                         output=cfg.get("output", "sweep-results.jsonl"), scheduler=scheduler,
                         progress=not args.no_progress)
        except (TypeError, ValueError) as e:
            raise SystemExit(f"ns3rifl sweep: {e}")
        print(f"{len(rows)} runs; results in {cfg.get('output', 'sweep-results.jsonl')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

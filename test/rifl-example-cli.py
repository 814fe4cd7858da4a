#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Bad command-line input of the example and benchmark programs gets a clear error.

    rifl-example-cli.py CASES_DIR EXAMPLES_DIR

CASES_DIR holds one file per program, <program>.txt, with one case per line:

    err <arguments> => <text>   exit status 1 (not a signal, not an abort), and
                                <text> in what the program printed
    ok  <arguments> => <text>   exit status 0 and <text> in what it printed
    fail <arguments> => <text>  exit status 2 (a run that completed and failed its own
                                checks, e.g. a soak) and <text> in what it printed

Arguments are split as a POSIX shell would (shlex); {tmp} in them is replaced by a
fresh temporary directory (removed afterwards). Lines starting with # and blank lines
are skipped. Each run has a 120 s limit. Standard library only.
"""

import os
import shlex
import subprocess
import sys
import tempfile


def run_case(exe, kind, args, expect, tmp):
    """Run one case; return an error text or None."""
    argv = [exe] + [a.replace("{tmp}", tmp) for a in shlex.split(args)]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp)
    except subprocess.TimeoutExpired:
        return "timed out after 120 s"
    out = p.stdout + p.stderr
    want = {"err": 1, "ok": 0, "fail": 2}[kind]
    if p.returncode != want:
        return "exit status %d, expected %d; output ends:\n%s" % (p.returncode, want, out[-1500:])
    if "terminate called" in out or "Aborted" in out:
        return "aborted; output ends:\n" + out[-1500:]
    if expect.replace("{tmp}", tmp) not in out:
        return "%r not in the output; output ends:\n%s" % (expect, out[-1500:])
    return None


def main():
    cases_dir, examples_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    failures = 0
    count = 0
    for name in sorted(os.listdir(cases_dir)):
        if not name.endswith(".txt"):
            continue
        program = name[: -len(".txt")]
        exe = os.path.join(examples_dir, program)
        if not os.path.exists(exe):
            print("FAIL %s: no program %s" % (name, exe))
            failures += 1
            continue
        with open(os.path.join(cases_dir, name), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                kind, _, rest = line.partition(" ")
                args, sep, expect = rest.partition("=>")
                if kind not in ("err", "ok", "fail") or not sep:
                    print("FAIL %s:%d: malformed case %r" % (name, lineno, line))
                    failures += 1
                    continue
                count += 1
                with tempfile.TemporaryDirectory() as tmp:
                    err = run_case(exe, kind, args.strip(), expect.strip(), tmp)
                if err:
                    failures += 1
                    print("FAIL %s:%d: %s %s\n  %s" % (name, lineno, program, args.strip(), err))
    print("%d cases, %d failed" % (count, failures))
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

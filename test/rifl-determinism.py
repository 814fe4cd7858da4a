#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Determinism of every example program (examples/, not examples/bench/).

    rifl-determinism.py SOURCE_DIR EXAMPLES_BINARY_DIR [--only NAME ...] [-v]

Each example is run three times, each in its own empty temporary working
directory, with small parameters:

  1. --RngRun=1
  2. --RngRun=1 again: every file it wrote and its stdout must be identical,
     byte for byte, to run 1 (lines matching the example's IGNORE patterns
     excepted; no example needs one today: examples print wall time only
     on request, e.g. direct-link-pair --wallTime);
  3. --RngRun=2: for an example with randomness at the chosen parameters,
     at least one output (a file or stdout) must differ from run 1; for an
     example without randomness everything must be identical again.

Every example must write at least one result file in its working directory
(conventions.md), except those listed in STDOUT_ONLY. The example list comes
from examples/CMakeLists.txt (build_lib_example NAME, sources outside
bench/); an example without an entry in EXAMPLES fails the test, so a new
example cannot skip it. Exit status 0 if all pass, 1 otherwise. Standard
library only.
"""

import difflib
import os
import re
import subprocess
import sys
import tempfile
import time

# name -> (arguments, random at these arguments)
EXAMPLES = {
    "rifl-reliability-tables": (["--stepsPerDecade=1"], False),
    "rifl-link": (["--simTime=20", "--ber=1e-6"], True),
    "direct-link-pair": (["--ber=1e-5", "--requests=200", "--simTime=100us"], True),
    "readme-rifl-udp": ([], True),
    "multiprocessor-direct-connect": (
        ["--topology=ring", "--n=4", "--requests=50", "--ber=1e-5"], True),
    "dcn-rifl-vs-ethernet": (
        ["--topology=leaf-spine", "--leaves=2", "--spines=1", "--hostsPerLeaf=2", "--flowBytes=30000", "--ber=1e-6"], True),
    "rifl-attribute-table": (["--output=rifl-attributes.rst"], False),
}

# Examples that only print (the README's listing is kept minimal on purpose).
STDOUT_ONLY = {"readme-rifl-udp"}

# name -> regular expressions of output lines excluded from the comparison
# (wall-clock figures, timestamps). Keep empty unless an example cannot avoid one.
IGNORE = {}

TIMEOUT_S = 60


def example_names(srcdir):
    """build_lib_example NAMEs of examples/CMakeLists.txt, without the benches."""
    text = open(os.path.join(srcdir, "examples", "CMakeLists.txt"), encoding="utf-8").read()
    text = re.sub(r"#[^\n]*", "", text)
    names = []
    for body in re.findall(r"build_lib_example\s*\((.*?)\)", text, re.S):
        m = re.search(r"NAME\s+(\S+)", body)
        src = re.search(r"SOURCE_FILES\s+(\S+)", body)
        if m and src and not src.group(1).startswith("bench/"):
            names.append(m.group(1))
    return names


def run(binary, args, rng_run):
    """Run once in a fresh directory; return ({file: bytes}, stdout bytes, seconds)."""
    with tempfile.TemporaryDirectory(prefix="rifl-det-") as wd:
        t0 = time.monotonic()
        p = subprocess.run([binary] + args + ["--RngRun=%d" % rng_run], cwd=wd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT_S)
        dt = time.monotonic() - t0
        if p.returncode != 0:
            raise RuntimeError("exit status %d\n%s" % (p.returncode,
                                                      p.stderr.decode(errors="replace")))
        files = {}
        for root, _, names in os.walk(wd):
            for n in names:
                path = os.path.join(root, n)
                files[os.path.relpath(path, wd)] = open(path, "rb").read()
        return files, p.stdout, dt


def filtered(name, data):
    """The bytes with the example's IGNORE lines removed."""
    pats = [re.compile(p.encode()) for p in IGNORE.get(name, [])]
    if not pats:
        return data
    return b"".join(l for l in data.splitlines(True) if not any(p.search(l) for p in pats))


def outputs(name, files, stdout):
    out = {f: filtered(name, b) for f, b in files.items()}
    out["<stdout>"] = filtered(name, stdout)
    return out


def first_diff(a, b):
    la = a.decode(errors="replace").splitlines()
    lb = b.decode(errors="replace").splitlines()
    d = list(difflib.unified_diff(la, lb, "run 1", "run 2", n=0, lineterm=""))
    return "\n".join(d[:8])


def main(argv):
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    only = []
    if "--only" in argv:
        i = argv.index("--only")
        only = argv[i + 1:]
        argv = argv[:i]
    if len(argv) != 3:
        print(__doc__)
        return 2
    srcdir, bindir = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    problems = []
    names = example_names(srcdir)
    for n in names:
        if n not in EXAMPLES:
            problems.append("%s: no entry in rifl-determinism.py EXAMPLES (add its small "
                            "arguments and whether it is random)" % n)
    total = 0.0
    for name in names:
        if name not in EXAMPLES or (only and name not in only):
            continue
        args, random = EXAMPLES[name]
        binary = os.path.join(bindir, name)
        if not os.path.exists(binary):
            problems.append("%s: %s not built" % (name, binary))
            continue
        try:
            f1, s1, t1 = run(binary, args, 1)
            f2, s2, t2 = run(binary, args, 1)
            f3, s3, t3 = run(binary, args, 2)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            problems.append("%s %s: %s" % (name, " ".join(args), e))
            continue
        total += t1 + t2 + t3
        if not f1 and name not in STDOUT_ONLY:
            problems.append("%s: wrote no result file in its working directory" % name)
        o1, o2, o3 = outputs(name, f1, s1), outputs(name, f2, s2), outputs(name, f3, s3)
        if sorted(o1) != sorted(o2):
            problems.append("%s: the same --RngRun wrote different files: %s vs %s"
                            % (name, sorted(o1), sorted(o2)))
        for k in sorted(o1):
            if k in o2 and o1[k] != o2[k]:
                problems.append("%s: %s differs between two runs with --RngRun=1:\n%s"
                                % (name, k, first_diff(o1[k], o2[k])))
        differ = sorted(k for k in set(o1) | set(o3) if o1.get(k) != o3.get(k))
        if random and not differ:
            problems.append("%s: --RngRun=2 gave outputs identical to --RngRun=1 (expected "
                            "them to differ at %s)" % (name, " ".join(args)))
        if not random and differ:
            problems.append("%s: has no randomness but --RngRun=2 changed %s"
                            % (name, ", ".join(differ)))
        if verbose:
            print("%-30s %5.2f s  files: %s; RngRun 2 changed: %s"
                  % (name, t1 + t2 + t3, ", ".join(sorted(f1)) or "-",
                     ", ".join(differ) or "nothing"))
    if verbose:
        print("total %.1f s" % total)
    for p in problems:
        print("FAIL:", p)
    if not problems:
        print("rifl-determinism: %d examples deterministic under --RngRun (%.1f s)"
              % (len([n for n in names if not only or n in only]), total))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

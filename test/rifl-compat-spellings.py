#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Keep the module's sources on the version-neutral spellings of
model/core/rifl-compat.h.

    rifl-compat-spellings.py SOURCE_DIR           check (exit 1 if a file needs a rewrite)
    rifl-compat-spellings.py SOURCE_DIR --write   rewrite the files in place
    rifl-compat-spellings.py SOURCE_DIR --diff    show what --write would change

Rewrites, in model/, helper/, examples/ and test/ (.cc and .h; rifl-compat.h
and the compat test suite excepted):

  TestCase::QUICK, TestCase::Duration::QUICK (EXTENSIVE, TAKES_FOREVER)
                                  -> RIFL_TEST_QUICK (...)
  TestSuite("name", UNIT), TestSuite::UNIT, TestSuite::Type::UNIT in a
  TestSuite constructor call       -> RIFL_TEST_UNIT (SYSTEM likewise)
  NS_TEST_..._MSG_EQ|NE(bool(<expr>), ...)
                                  -> NS_TEST_..._MSG_EQ|NE(RiflPtrValid(<expr>), ...)
  Callback<R, A...>(std::function<...>(...))
                                  -> RiflMakeCallback<R, A...>(std::function<...>(...))
  Simulator::Schedule(<delay>, std::function<void()>(...))
                                  -> RiflScheduleFunction(<delay>, std::function<void()>(...))
  <event>.IsRunning()             -> RiflEventPending(<event>)

and adds #include "ns3/rifl-compat.h" to a file that then needs it. Rewritten
files are passed through clang-format (the tree is clang-format clean, so only
the rewritten lines change). Idempotent: a second --write changes nothing.
Standard library only (clang-format from PATH, skipped if absent).
"""

import difflib
import os
import re
import shutil
import subprocess
import sys

DIRS = ("model", "helper", "examples", "test")
SKIP = {"model/core/rifl-compat.h", "test/rifl-compat-test-suite.cc"}
INCLUDE = '#include "ns3/rifl-compat.h"'
SHIM_USE = re.compile(r"\b(RIFL_TEST_[A-Z_]+|RiflPtrValid|RiflMakeCallback|RiflScheduleFunction"
                      r"|RiflEventPending)\b")


def balanced(text, open_at):
    """Index just past the parenthesis matching text[open_at] == '('."""
    depth = 0
    i = open_at
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "'":
            i += 1
            while i < len(text) and text[i] != "'":
                i += 2 if text[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def rewrite(text):
    out = text
    # Test durations.
    out = re.sub(r"\bTestCase::(?:Duration::|TestDuration::)?(QUICK|EXTENSIVE|TAKES_FOREVER)\b",
                 r"RIFL_TEST_\1", out)
    # Test-suite types in a TestSuite constructor call.
    out = re.sub(r'(\bTestSuite\s*\(\s*"[^"]*"\s*,\s*)(?:TestSuite::)?(?:Type::)?(UNIT|SYSTEM)\b',
                 r"\1RIFL_TEST_\2", out)
    # bool(<Ptr>) as the first argument of an equality test macro.
    pat = re.compile(r"\b(NS_TEST_(?:ASSERT|EXPECT)_MSG_(?:EQ|NE)\(\s*)bool\(")
    pos = 0
    while True:
        m = pat.search(out, pos)
        if not m:
            break
        open_at = m.end() - 1
        close = balanced(out, open_at)
        if close < 0:
            break
        inner = out[open_at + 1:close - 1] if out[close - 1] == ")" else out[open_at + 1:close]
        if re.search(r"==|!=|<=|>=|&&|\|\|", inner):
            # bool(a == b) and friends are not Ptr truthiness: leave them alone.
            pos = m.end()
            continue
        out = out[:m.start()] + m.group(1) + "RiflPtrValid(" + out[open_at + 1:]
        pos = m.start() + 1
    # Callbacks from std::function.
    out = re.sub(r"(?<![\w:])(?:ns3::)?Callback(<[^;{}()]*>)(\s*\(\s*std::function<)",
                 r"RiflMakeCallback\1\2", out)
    # std::function events.
    pos = 0
    pat = re.compile(r"(?<![\w:])(?:ns3::)?Simulator::Schedule\(")
    while True:
        m = pat.search(out, pos)
        if not m:
            break
        open_at = m.end() - 1
        close = balanced(out, open_at)
        if close < 0:
            break
        depth, i, comma = 0, open_at + 1, -1
        while i < close - 1:
            c = out[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            elif c == "," and depth == 0:
                comma = i
                break
            i += 1
        if comma > 0 and re.match(r"\s*std::function<void\(\)>\s*\(", out[comma + 1:]):
            out = out[:m.start()] + "RiflScheduleFunction(" + out[open_at + 1:]
        pos = m.start() + 1
    # EventId::IsRunning.
    out = re.sub(r"(?<![\w.>])([A-Za-z_]\w*(?:\[[^\]\n]*\])?(?:\.[A-Za-z_]\w*(?:\[[^\]\n]*\])?)*)"
                 r"\.IsRunning\(\)", r"RiflEventPending(\1)", out)
    if out != text and SHIM_USE.search(out) and INCLUDE not in out:
        out = add_include(out)
    return out


def add_include(text):
    """Insert the compat include into the file's "ns3/..." include block."""
    lines = text.split("\n")
    ns3 = [i for i, l in enumerate(lines) if l.startswith('#include "ns3/')]
    if ns3:
        at = ns3[-1] + 1
        for i in ns3:
            if lines[i] > INCLUDE:
                at = i
                break
    else:
        incs = [i for i, l in enumerate(lines) if l.startswith("#include ")]
        at = (incs[0] + 1) if incs else 0
    lines.insert(at, INCLUDE)
    return "\n".join(lines)


def clang_format(text, path):
    exe = shutil.which("clang-format")
    if not exe:
        return text
    r = subprocess.run([exe, "--assume-filename=" + path], input=text, text=True,
                       stdout=subprocess.PIPE, check=True, cwd=os.path.dirname(path) or ".")
    return r.stdout


def files(src):
    for d in DIRS:
        for root, _, names in os.walk(os.path.join(src, d)):
            if os.sep + "build" in root:
                continue
            for n in sorted(names):
                if n.endswith((".cc", ".h")):
                    path = os.path.join(root, n)
                    rel = os.path.relpath(path, src)
                    if rel not in SKIP:
                        yield rel, path


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    src = os.path.abspath(args[0])
    changed = []
    for rel, path in files(src):
        text = open(path, encoding="utf-8").read()
        new = rewrite(text)
        if new == text:
            continue
        new = clang_format(new, path)
        if new == text:
            continue
        changed.append(rel)
        if "--diff" in argv:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       "a/" + rel, "b/" + rel))
        if "--write" in argv:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(new)
    verb = "rewrote" if "--write" in argv else "needs the compat spellings:"
    for rel in changed:
        print("%s %s" % (verb, rel))
    if "--write" in argv or "--diff" in argv:
        print("%d file(s)" % len(changed))
        return 0
    if changed:
        print("FAIL %d file(s) use version-specific ns-3 spellings; run: %s %s --write"
              % (len(changed), argv[0], args[0]))
        return 1
    print("PASS every file uses the rifl-compat.h spellings")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run Doxygen on the rifl module and fail on any gap in its documentation.

    rifl-doxygen-check.py --doxygen EXE --doxyfile FILE --out DIR --source SRC

The Doxyfile (doc/doxygen/Doxyfile.in, configured by cmake/doxygen.cmake with
XML output) switches every warning on: undocumented classes and members
(private ones too), undocumented parameters and return values, documentation
errors. The check fails on

  * Doxygen exiting with an error;
  * any warning about a file of the module (under SRC, build trees excluded),
    or a warning naming no file at all (a configuration problem);
  * a class, struct, union, or a free function, enum, typedef or variable
    declared in one of the module's headers in namespace ns3, that belongs to
    no group, or a group that is not
    reachable from \\defgroup rifl.

Warnings about ns-3's own headers (read only so that overrides inherit their
documentation) are counted and reported, not failed on. Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def module_file(path, src):
    """True if path is one of the module's files (not a build tree's); relative
    paths (Doxygen's XML strips STRIP_FROM_PATH) are taken relative to src."""
    if not path:
        return False
    p = os.path.realpath(os.path.join(src, path))
    if not p.startswith(src + os.sep):
        return False
    rel = os.path.relpath(p, src)
    return not rel.split(os.sep)[0].startswith("build")


def read_warnings(log):
    """[(file or None, text)] with continuation lines joined to their warning."""
    out = []
    if not os.path.exists(log):
        return out
    for line in open(log, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        m = re.match(r"^(/[^:]+):(\d+): (.*)$", line)
        if m:
            out.append((m.group(1), "%s:%s: %s" % (m.group(1), m.group(2), m.group(3))))
        elif line.startswith(" ") and out:
            out[-1] = (out[-1][0], out[-1][1] + "\n" + line)
        else:
            out.append((None, line))
    return out


def check_groups(xmldir, src):
    """Return (problems, figures) from Doxygen's XML output."""
    problems = []
    index = ET.parse(os.path.join(xmldir, "index.xml")).getroot()
    groups = {}       # refid -> (name, set of inner group refids)
    grouped = set()   # refids of classes and members listed in some group
    for comp in index.findall("compound"):
        if comp.get("kind") != "group":
            continue
        root = ET.parse(os.path.join(xmldir, comp.get("refid") + ".xml")).getroot()
        cdef = root.find("compounddef")
        inner = {g.get("refid") for g in cdef.findall("innergroup")}
        groups[comp.get("refid")] = (cdef.findtext("compoundname"), inner)
        grouped.update(c.get("refid") for c in cdef.findall("innerclass"))
        grouped.update(m.get("id") for m in cdef.iter("memberdef"))

    classes = members = 0
    for comp in index.findall("compound"):
        kind = comp.get("kind")
        if kind not in ("class", "struct", "union", "namespace"):
            continue
        root = ET.parse(os.path.join(xmldir, comp.get("refid") + ".xml")).getroot()
        cdef = root.find("compounddef")
        name = cdef.findtext("compoundname")
        if kind != "namespace":
            loc = cdef.find("location")
            if loc is None or not module_file(loc.get("file", ""), src):
                continue
            classes += 1
            members += sum(1 for _ in cdef.iter("memberdef"))
            # Nested classes belong to their outer class's group.
            if "::" in name[len("ns3::"):] if name.startswith("ns3::") else "::" in name:
                continue
            if comp.get("refid") not in grouped:
                problems.append("%s:%s: %s %s is in no \\ingroup group"
                                % (loc.get("file"), loc.get("line"), kind, name))
            continue
        for m in cdef.iter("memberdef"):
            loc = m.find("location")
            if loc is None or not module_file(loc.get("file", ""), src):
                continue
            if m.get("kind") in ("define",):
                continue
            if not loc.get("file", "").endswith(".h"):
                continue    # names local to a .cc file are not API
            members += 1
            if m.get("id") not in grouped:
                problems.append("%s:%s: %s %s::%s is in no \\ingroup group"
                                % (loc.get("file"), loc.get("line"), m.get("kind"), name,
                                   m.findtext("name")))

    by_name = {n: r for r, (n, _) in groups.items()}
    if "rifl" not in by_name:
        problems.append("no \\defgroup rifl")
        reach = set()
    else:
        reach, stack = set(), [by_name["rifl"]]
        while stack:
            g = stack.pop()
            if g in reach or g not in groups:
                continue
            reach.add(g)
            stack.extend(groups[g][1])
    module_groups = sorted(n for n in by_name if n.startswith(("rifl", "direct-link")))
    for n in module_groups:
        if by_name[n] not in reach:
            problems.append("group %s is not below \\defgroup rifl" % n)
    return problems, {"classes": classes, "members": members, "groups": module_groups}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doxygen", required=True)
    ap.add_argument("--doxyfile", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    src = os.path.realpath(a.source)
    log = os.path.join(a.out, "doxygen-warnings.log")
    if os.path.exists(log):
        os.remove(log)

    r = subprocess.run([a.doxygen, a.doxyfile], cwd=src, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    failed = False
    if r.returncode != 0:
        print("FAIL doxygen exited with %d\n%s" % (r.returncode, r.stdout))
        return 1

    warnings = read_warnings(log)
    mine = [t for f, t in warnings if f is None or module_file(f, src)]
    others = len(warnings) - len(mine)
    if mine:
        failed = True
        print("FAIL %d Doxygen warning(s) about the module:" % len(mine))
        for t in mine:
            print("    " + t.replace("\n", "\n    "))
    else:
        print("PASS no Doxygen warning about the module's files "
              "(%d about ns-3's own base-class headers, ignored)" % others)

    problems, fig = check_groups(os.path.join(a.out, "xml"), src)
    if problems:
        failed = True
        print("FAIL %d gap(s) in the \\defgroup rifl tree:" % len(problems))
        for p in problems:
            print("    " + p)
    else:
        print("PASS every class and namespace-level member of the module is in a group "
              "below \\defgroup rifl")
    print("figures: %d classes/structs, %d documented members, groups: %s"
          % (fig["classes"], fig["members"], " ".join(fig["groups"])))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

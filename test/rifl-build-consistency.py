#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the waf build description (wscript-compat/) lists exactly the
files of the CMake build description, and that every listed file exists.

    rifl-build-consistency.py SOURCE_DIR            check (exit 1 on mismatch)
    rifl-build-consistency.py SOURCE_DIR --print    print up-to-date wscripts
    rifl-build-consistency.py SOURCE_DIR --write    rewrite wscript-compat/ files

CMake side: set(rifl_sources|rifl_headers|rifl_test_sources ...) (and any
list(APPEND <those> ...)) plus the module's LIBRARIES_TO_LINK in
CMakeLists.txt; build_lib_example(NAME ... SOURCE_FILES ... LIBRARIES_TO_LINK
...) in examples/CMakeLists.txt (following add_subdirectory()). waf side:
wscript-compat/wscript and wscript-compat/examples/wscript, read with the ast
module (bld.create_ns3_module, create_ns3_module_test_library,
bld(features='ns3header'), bld.create_ns3_program).

test/test-runner.cc is the standalone test runner (build_lib_example stand-in
in cmake/), not part of the module's test library; it is never listed.
Standard library only.
"""

import ast
import os
import re
import sys

MODULE = "rifl"
LIST_VARS = ("rifl_sources", "rifl_headers", "rifl_test_sources")


# ----------------------------------------------------------------- CMake side
def cmake_commands(text):
    """Yield (name, [args]) for each command invocation of a CMake file.
    Handles comments, quoted and bracket arguments and nested parentheses."""
    i, n = 0, len(text)
    ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    while i < n:
        c = text[i]
        if c == "#":
            if text.startswith("#[", i) and re.match(r"#\[=*\[", text[i:]):
                eq = re.match(r"#\[(=*)\[", text[i:]).group(1)
                end = text.find("]" + eq + "]", i)
                i = n if end < 0 else end + len(eq) + 2
            else:
                nl = text.find("\n", i)
                i = n if nl < 0 else nl + 1
            continue
        m = ident.match(text, i)
        if not m:
            i += 1
            continue
        name = m.group(0)
        j = m.end()
        while j < n and text[j] in " \t":
            j += 1
        if j >= n or text[j] != "(":
            i = m.end()
            continue
        args, depth, tok, k = [], 0, None, j + 1
        while k < n:
            c = text[k]
            if c == "#":
                nl = text.find("\n", k)
                k = n if nl < 0 else nl
                continue
            if c == '"':
                end = k + 1
                s = []
                while end < n and text[end] != '"':
                    if text[end] == "\\" and end + 1 < n:
                        s.append(text[end + 1])
                        end += 2
                        continue
                    s.append(text[end])
                    end += 1
                args.append("".join(s))
                k = end + 1
                continue
            if c == "(":
                depth += 1
                tok = (tok or "") + c
            elif c == ")":
                if depth == 0:
                    if tok is not None:
                        args.append(tok)
                    break
                depth -= 1
                tok = (tok or "") + c
            elif c in " \t\r\n":
                if tok is not None:
                    args.append(tok)
                    tok = None
            else:
                tok = (tok or "") + c
            k += 1
        yield name.lower(), args
        i = k + 1


def keyword_groups(args, keywords):
    """Split a build_lib()-style argument list into {KEYWORD: [values]}."""
    out, cur = {}, None
    for a in args:
        if a in keywords:
            cur = a
            out.setdefault(cur, [])
        elif cur is not None:
            out[cur].append(a)
    return out


def libs_to_modules(values):
    """['${libcore}', '${librifl}'] -> ['core', 'rifl'] (ns-3 module names)."""
    mods = []
    for v in values:
        m = re.fullmatch(r"\$\{lib([A-Za-z0-9_-]+)\}", v)
        mods.append(m.group(1) if m else v)
    return mods


def parse_cmake(srcdir, problems):
    path = os.path.join(srcdir, "CMakeLists.txt")
    text = open(path, encoding="utf-8").read()
    lists = {v: [] for v in LIST_VARS}
    deps = None
    # set(rifl_libraries ...): the module's unconditional dependencies (the list(APPEND)
    # of ${libmpi} under if(ENABLE_MPI) is an ns-3 CMake tree's MPI build only).
    base_libs = []
    for name, args in cmake_commands(text):
        if name == "set" and args and args[0] == "rifl_libraries":
            base_libs = list(args[1:])
        elif name == "set" and args and args[0] in lists:
            lists[args[0]] = list(args[1:])
        elif name == "list" and len(args) >= 2 and args[0] == "APPEND" and args[1] in lists:
            lists[args[1]].extend(args[2:])
        elif name == "build_lib":
            g = keyword_groups(args, ("LIBNAME", "SOURCE_FILES", "HEADER_FILES",
                                      "LIBRARIES_TO_LINK", "TEST_SOURCES",
                                      "DEPRECATED_HEADER_FILES", "MODULE_ENABLED_FEATURES"))
            libs = []
            for v in g.get("LIBRARIES_TO_LINK", []):
                libs.extend(base_libs if v == "${rifl_libraries}" else [v])
            deps = libs_to_modules(libs)
    for v, items in lists.items():
        if not items:
            problems.append("CMakeLists.txt: set(%s ...) not found or empty" % v)
        for it in items:
            if "$" in it:
                problems.append("CMakeLists.txt: %s holds a variable (%s); "
                                "waf lists need plain file names" % (v, it))
    examples = parse_cmake_examples(srcdir, "examples", problems)
    return {"sources": lists["rifl_sources"], "headers": lists["rifl_headers"],
            "tests": lists["rifl_test_sources"], "deps": deps or []}, examples


def parse_cmake_examples(srcdir, sub, problems, prefix=""):
    """{name: (sources relative to examples/, deps)} from examples/CMakeLists.txt."""
    path = os.path.join(srcdir, sub, "CMakeLists.txt")
    examples = {}
    if not os.path.exists(path):
        return examples
    text = open(path, encoding="utf-8").read()
    for name, args in cmake_commands(text):
        if name == "build_lib_example":
            g = keyword_groups(args, ("NAME", "SOURCE_FILES", "HEADER_FILES",
                                      "LIBRARIES_TO_LINK"))
            ename = (g.get("NAME") or ["?"])[0]
            srcs = [prefix + s for s in g.get("SOURCE_FILES", [])]
            examples[ename] = (srcs, libs_to_modules(g.get("LIBRARIES_TO_LINK", [])))
        elif name == "add_subdirectory" and args:
            d = args[0]
            examples.update(parse_cmake_examples(srcdir, os.path.join(sub, d), problems,
                                                 prefix + d + "/"))
    return examples


# ------------------------------------------------------------------- waf side
def _literal(node, where, problems):
    try:
        v = ast.literal_eval(node)
    except ValueError:
        problems.append("%s: line %d: not a literal list" % (where, node.lineno))
        return []
    return [v] if isinstance(v, str) else list(v)


def _call_name(node):
    """'bld.create_ns3_module' -> 'create_ns3_module'; 'bld(...)' -> 'bld'."""
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return None


def parse_wscript(path, problems):
    """Return {'module': (name, deps), 'sources', 'tests', 'headers',
    'programs': {name: (sources, deps)}} from a wscript's build()."""
    where = os.path.relpath(path)
    tree = ast.parse(open(path, encoding="utf-8").read(), filename=path)
    builds = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "build"]
    if not builds:
        problems.append("%s: no build(bld) function" % where)
        return {}
    assigns = [n for n in ast.walk(builds[0]) if isinstance(n, ast.Assign)]
    assigns.sort(key=lambda n: (n.lineno, n.col_offset))
    kinds = {}       # variable -> (kind, name)
    out = {"module": None, "sources": None, "tests": None, "headers": None, "programs": {}}
    for a in assigns:
        if len(a.targets) != 1:
            continue
        t, v = a.targets[0], a.value
        if isinstance(t, ast.Name) and isinstance(v, ast.Call):
            cn = _call_name(v)
            pos = [ast.literal_eval(x) for x in v.args]
            if cn == "create_ns3_module":
                kinds[t.id] = ("module", pos[0])
                out["module"] = (pos[0], list(pos[1]) if len(pos) > 1 else [])
            elif cn == "create_ns3_module_test_library":
                kinds[t.id] = ("tests", pos[0])
            elif cn == "create_ns3_program":
                kinds[t.id] = ("program", pos[0])
                out["programs"][pos[0]] = ([], list(pos[1]) if len(pos) > 1 else [])
            elif cn == "bld" and any(k.arg == "features" and ast.literal_eval(k.value) == "ns3header"
                                     for k in v.keywords):
                kinds[t.id] = ("headers", None)
        elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
            var, attr = t.value.id, t.attr
            kind, name = kinds.get(var, (None, None))
            if kind is None:
                continue
            if attr == "source":
                vals = _literal(v, where, problems)
                if kind == "module":
                    out["sources"] = vals
                elif kind == "tests":
                    out["tests"] = vals
                elif kind == "headers":
                    out["headers"] = vals
                elif kind == "program":
                    out["programs"][name] = (vals, out["programs"][name][1])
            elif attr == "module" and kind == "headers":
                if ast.literal_eval(v) != MODULE:
                    problems.append("%s: headers.module is %r, not %r"
                                    % (where, ast.literal_eval(v), MODULE))
    return out


# ---------------------------------------------------------------- comparison
class Report:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def check(self, ok, label, detail=""):
        if ok:
            self.passed += 1
            print("PASS %s" % label)
        else:
            self.failed += 1
            print("FAIL %s" % label)
            for line in detail.splitlines():
                print("    " + line)


def list_diff(cmake, waf, what_cmake, what_waf):
    lines = []
    for f in cmake:
        if f not in waf:
            lines.append("- %s  (in %s, missing from %s)" % (f, what_cmake, what_waf))
    for f in waf:
        if f not in cmake:
            lines.append("+ %s  (in %s, not in %s)" % (f, what_waf, what_cmake))
    dups = sorted({f for f in waf if waf.count(f) > 1})
    if dups:
        lines.append("duplicates in %s: %s" % (what_waf, " ".join(dups)))
    return "\n".join(lines)


def render_wscripts(cm, examples):
    def pylist(items, indent):
        pad = " " * indent
        return "[\n" + "".join("%s    '%s',\n" % (pad, x) for x in items) + pad + "]"

    deps = [d for d in cm["deps"] if d != MODULE]
    top = (
        "# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-\n"
        "#\n"
        "# waf build description of the rifl module for ns-3 <= 3.35 trees: copy to\n"
        "# contrib/rifl/wscript (see README.md). The lists are exactly those of\n"
        "# CMakeLists.txt; test/rifl-build-consistency.py checks it and prints\n"
        "# up-to-date lists with --print. test/test-runner.cc (the standalone\n"
        "# runner) is deliberately not part of the test library.\n"
        "\n\n"
        "def build(bld):\n"
        "    module = bld.create_ns3_module('%s', %r)\n"
        "    module.source = %s\n\n"
        "    module_test = bld.create_ns3_module_test_library('%s')\n"
        "    module_test.source = %s\n\n"
        "    headers = bld(features='ns3header')\n"
        "    headers.module = '%s'\n"
        "    headers.source = %s\n\n"
        "    if bld.env.ENABLE_EXAMPLES:\n"
        "        bld.recurse('examples')\n"
    ) % (MODULE, deps, pylist(cm["sources"], 4), MODULE, pylist(cm["tests"], 4),
         MODULE, pylist(cm["headers"], 4))
    ex = (
        "# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-\n"
        "#\n"
        "# Examples of the rifl module for waf-based ns-3 trees: copy to\n"
        "# contrib/rifl/examples/wscript. Same programs as examples/CMakeLists.txt.\n"
        "\n\n"
        "def build(bld):\n"
    )
    if not examples:
        ex += "    pass\n"
    for name, (srcs, edeps) in examples.items():
        ex += "    obj = bld.create_ns3_program('%s', %r)\n" % (name, edeps)
        ex += "    obj.source = %s\n\n" % pylist(srcs, 4)
    return top, ex.rstrip("\n") + "\n"


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print("usage: rifl-build-consistency.py SOURCE_DIR [--print|--write]", file=sys.stderr)
        return 2
    srcdir = os.path.abspath(args[0])
    problems = []
    cm, cm_examples = parse_cmake(srcdir, problems)

    if "--print" in argv:
        top, ex = render_wscripts(cm, cm_examples)
        print("##### wscript-compat/wscript\n" + top)
        print("##### wscript-compat/examples/wscript\n" + ex, end="")
        return 0
    if "--write" in argv:
        top, ex = render_wscripts(cm, cm_examples)
        os.makedirs(os.path.join(srcdir, "wscript-compat", "examples"), exist_ok=True)
        for rel, text in (("wscript", top), (os.path.join("examples", "wscript"), ex)):
            with open(os.path.join(srcdir, "wscript-compat", rel), "w", encoding="utf-8") as fh:
                fh.write(text)
            print("wrote wscript-compat/" + rel)
        return 0

    rep = Report()
    rep.check(not problems, "CMake lists parsed", "\n".join(problems))

    # Every file named by CMake exists; test-runner.cc is not in the test list.
    for key, base in (("sources", ""), ("headers", ""), ("tests", "")):
        missing = [f for f in cm[key] if not os.path.isfile(os.path.join(srcdir, base, f))]
        rep.check(not missing, "CMake %s exist (%d files)" % (key, len(cm[key])),
                  "\n".join("missing: " + f for f in missing))
    rep.check("test/test-runner.cc" not in cm["tests"],
              "test/test-runner.cc is not a test-library source")
    for name, (srcs, _) in sorted(cm_examples.items()):
        missing = [f for f in srcs if not os.path.isfile(os.path.join(srcdir, "examples", f))]
        rep.check(not missing, "example %s sources exist" % name,
                  "\n".join("missing: examples/" + f for f in missing))
    # Every .cc/.h under model/ and helper/ is built, and every suite file too.
    on_disk = []
    for top in ("model", "helper"):
        for root, _, files in os.walk(os.path.join(srcdir, top)):
            for f in files:
                if f.endswith((".cc", ".h")):
                    on_disk.append(os.path.relpath(os.path.join(root, f), srcdir))
    unlisted = sorted(f for f in on_disk if f not in cm["sources"] + cm["headers"])
    rep.check(not unlisted, "every model/ and helper/ file is listed in CMakeLists.txt",
              "\n".join("unlisted: " + f for f in unlisted))
    suites = sorted("test/" + f for f in os.listdir(os.path.join(srcdir, "test"))
                    if f.endswith("-test-suite.cc"))
    unlisted = [f for f in suites if f not in cm["tests"]]
    rep.check(not unlisted, "every test/*-test-suite.cc is in rifl_test_sources",
              "\n".join("unlisted: " + f for f in unlisted))

    wprob = []
    top_path = os.path.join(srcdir, "wscript-compat", "wscript")
    ex_path = os.path.join(srcdir, "wscript-compat", "examples", "wscript")
    w = parse_wscript(top_path, wprob) if os.path.exists(top_path) else {}
    we = parse_wscript(ex_path, wprob) if os.path.exists(ex_path) else {}
    if not w:
        wprob.append("wscript-compat/wscript missing or without build()")
    rep.check(not wprob, "wscripts parsed", "\n".join(wprob))
    if w:
        mod = w.get("module") or (None, [])
        rep.check(mod[0] == MODULE, "wscript module name is %r" % MODULE, "found %r" % (mod[0],))
        want = [d for d in cm["deps"] if d != MODULE]
        rep.check(sorted(mod[1]) == sorted(want), "wscript module dependencies",
                  "CMake LIBRARIES_TO_LINK: %s\nwscript: %s" % (want, mod[1]))
        for key, cname in (("sources", "rifl_sources"), ("headers", "rifl_headers"),
                           ("tests", "rifl_test_sources")):
            got = w.get(key) or []
            d = list_diff(cm[key], got, "CMakeLists.txt " + cname, "wscript")
            rep.check(not d, "wscript %s == CMake %s (%d files)" % (key, cname, len(cm[key])), d)
    wprogs = (we or {}).get("programs", {})
    d = list_diff(sorted(cm_examples), sorted(wprogs), "examples/CMakeLists.txt",
                  "examples/wscript")
    rep.check(not d, "example programs (%d)" % len(cm_examples), d)
    for name in sorted(set(cm_examples) & set(wprogs)):
        csrc, cdeps = cm_examples[name]
        wsrc, wdeps = wprogs[name]
        d = list_diff(csrc, wsrc, "examples/CMakeLists.txt", "examples/wscript")
        if sorted(cdeps) != sorted(wdeps):
            d += ("\n" if d else "") + "dependencies: CMake %s, wscript %s" % (cdeps, wdeps)
        rep.check(not d, "example %s sources and dependencies" % name, d)

    print("%d passed, %d failed" % (rep.passed, rep.failed))
    if rep.failed:
        print("(refresh the wscripts with: %s %s --write, or see --print)" % (argv[0], args[0]))
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

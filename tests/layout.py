#!/usr/bin/env python3
"""The layout rules of DESIGN.md, checked on the source tree and the objects
of a build (BUILD, default build):

- lib/ never prints and never exits: no printf, puts, perror, stdout,
  stderr, exit, abort or getenv in its code;
- lib/ includes nothing from cli/ or report/; report/ nothing from cli/;
- cli/ and report/ reach the library through its public header only
  (lib/storbench.h);
- cli/ opens no file or device for I/O: no open, openat, pread or pwrite
  in its code (the library opens targets; cli/ writes its own output files
  through lib/base/outfile.h and stdio);
- lib/ opens an existing file or device for writing only in the files of
  WRITE_OPENERS, each for the one reason it gives: a target the user named
  only through the write gate (lib/target/gate.c); an open whose flags are
  not spelled out (a variable) counts as one for writing;
- no cycles between files: neither between files that include each other
  (a .c and its .h counted as one) nor between objects that call each
  other (from the symbols nm lists);
- no cycles between the folders of lib/ (lib/device, lib/target ...), by
  #include or by a call, but for the known ones of KNOWN_FOLDER_EDGES,
  each ended by a branch still to land;
- no two files of the tree share a name, wherever they are;
- docs/layout.md draws the folders of lib/ as they are: between its
  markers, the drawing --graph prints (every dependency that no other
  path of dependencies already implies).

Prints one line per broken rule and exits 1, or exits 0 when all hold.
With --graph, prints the drawing of lib/'s folders (Mermaid) instead.
"""
import collections
import os
import re
import subprocess
import sys

TOP = os.environ.get("SB_TOP") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("SB_BUILD") or os.path.join(TOP, "build")
PUBLIC = "lib/storbench.h"

# identifiers lib/ must not use: printing, exiting, the environment
BANNED_LIB = ["printf", "vprintf", "puts", "putchar", "perror", "stdout", "stderr",
              "exit", "_exit", "_Exit", "abort", "getenv", "secure_getenv"]

# calls by which a file or device is opened or read and written for a test:
# the library's work, never cli/'s
CLI_IO = ["open", "open64", "openat", "openat2", "pread", "pread64", "preadv", "preadv2",
          "pwrite", "pwrite64", "pwritev", "pwritev2"]

# The files of lib/ that may open an existing file or device for writing
# (an open or openat with O_WRONLY or O_RDWR, or with flags in a variable,
# and not O_CREAT | O_EXCL), and why. Anything else that writes a target
# goes through the write gate's descriptors (lib/target/gate.h).
WRITE_OPENERS = {
    "lib/target/gate.c": (2, "the write gate: the files and devices the user named"),
    "lib/target/scratch.c": (2, "new test files (O_CREAT | O_EXCL), reopens of held "
                                "descriptors (never gaining write access)"),
    "lib/base/outfile.c": (1, "an output file that is a device node (/dev/null)"),
    "lib/target/cache.c": (1, "/proc/sys/vm/drop_caches"),
    "lib/target/rankdir.c": (1, "the marker of a rank's own directory"),
    "lib/meta/blockio.c": (1, "meta's own file, in its own run directory"),
    "lib/meta/seeks.c": (1, "meta's own file, in its own run directory"),
    "lib/run/fiolog.c": (1, "fio's log files, never through a symlink"),
    "lib/run/iolog_write.c": (1, "fio's write_iolog file, never through a symlink"),
    "lib/run/run.c": (1, "a name opened to read (a write only through a held descriptor)"),
    "lib/target/jobtarget.c": (1, "a name opened to read (a write only through a held "
                                  "descriptor)"),
    "lib/verify/job_verify.c": (1, "a name opened to read (a write only through the caller's)"),
    "lib/verify/verify_files.c": (2, "a name opened to read, or a file of an earlier verify "
                                     "run that carries storbench's mark, opened to hold it "
                                     "exclusively before it is removed"),
    "lib/spo/spo_write.c": (2, "the target opened to read for the check"),
}

# The dependencies of lib/results on a method's folder, which close
# folder cycles (results <-> pts, cliff, flash, and through cliff run;
# results <-> sweep, soak, verify, spo as each method's writer moves):
# lib/results is to be the bottom floor, the shared results model, and each
# method's JSON writer leaves it for the method's folder (issue 27, item 2)
# on the branch named, so that lib/results includes no method's header.
# Each is left out of the folder check until its branch lands; the check
# says when one is gone: delete its entry then.
KNOWN_FOLDER_EDGES = {}  # every method writes its own section now

problems = []


def sources(*folders):
    out = []
    for folder in folders:
        for root, _, files in os.walk(os.path.join(TOP, folder)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(root, f), TOP))
    return sorted(out)


def strip_code(text):
    """The text without comments, string and character literals (kept as
    empty quotes), line structure preserved."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def includes(path):
    with open(os.path.join(TOP, path), encoding="utf-8", errors="replace") as f:
        return re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M)


def check_lib_quiet():
    pat = re.compile(r"\b(" + "|".join(BANNED_LIB) + r")\b")
    for path in sources("lib"):
        if path == "lib/banned.h":
            continue
        with open(os.path.join(TOP, path), encoding="utf-8", errors="replace") as f:
            code = strip_code(f.read())
        for no, line in enumerate(code.split("\n"), 1):
            if line.lstrip().startswith("#"):
                continue
            for m in pat.finditer(line):
                # __attribute__((format(printf, ...))) names a format, not a call
                if m.group(1) == "printf" and re.search(r"format\s*\(\s*printf", line):
                    continue
                problems.append("%s:%d: lib/ must not use %s (it never prints, never exits, "
                                "reads no environment)" % (path, no, m.group(1)))


def check_cli_io():
    # a call, not a member (ops->open) nor a longer name (sb_lat_open, fopen)
    pat = re.compile(r"(?<![\w.>])(" + "|".join(CLI_IO) + r")\s*\(")
    for path in sources("cli"):
        with open(os.path.join(TOP, path), encoding="utf-8", errors="replace") as f:
            code = strip_code(f.read())
        for no, line in enumerate(code.split("\n"), 1):
            if line.lstrip().startswith("#"):
                continue
            for m in pat.finditer(line):
                problems.append("%s:%d: cli/ must not call %s (the library opens targets and "
                                "does their I/O)" % (path, no, m.group(1)))


def check_write_opens():
    pat = re.compile(r"(?<![\w.>])(open|open64|openat|openat2)\s*\(")
    for path in sources("lib"):
        with open(os.path.join(TOP, path), encoding="utf-8", errors="replace") as f:
            code = strip_code(f.read())
        found = []
        for m in pat.finditer(code):
            i, depth = m.end(), 1
            while i < len(code) and depth:
                depth += {"(": 1, ")": -1}.get(code[i], 0)
                i += 1
            args = code[m.end():i - 1]
            writes = re.search(r"\bO_(RDWR|WRONLY)\b", args)
            reads = re.search(r"\bO_(RDONLY|PATH)\b", args)
            new = "O_CREAT" in args and "O_EXCL" in args
            if (writes or not reads) and not new:
                found.append((code.count("\n", 0, m.start()) + 1, m.group(1)))
        allowed = WRITE_OPENERS.get(path, (0, ""))[0]
        for no, call in found[allowed:] if len(found) > allowed else []:
            problems.append("%s:%d: %s() opens an existing file for writing (or with flags in "
                            "a variable): a target is written only through the write gate "
                            "(lib/target/gate.c); add it to WRITE_OPENERS in tests/layout.py "
                            "with its reason if this file owns what it opens"
                            % (path, no, call))


def check_layers():
    for path in sources("lib", "report", "cli"):
        layer = path.split("/")[0]
        for inc in includes(path):
            top = inc.split("/")[0]
            if layer == "lib" and top in ("cli", "report"):
                problems.append("%s: lib/ includes %s" % (path, inc))
            if layer == "report" and top == "cli":
                problems.append("%s: report/ includes %s" % (path, inc))
            if layer in ("cli", "report") and top == "lib" and inc != PUBLIC:
                problems.append("%s: includes %s; cli/ and report/ see the library "
                                "through %s only" % (path, inc, PUBLIC))


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def module(path):
    """A .c and its .h are one: lib/verify/block for block.c and block.h."""
    return os.path.splitext(path)[0]


def folder(path):
    """The folder of lib/ a file is in (lib/device), or None: the files of
    lib/ itself are outside the folders (lib/sb.h beneath them all,
    lib/storbench.h gathering them all), as are report/ and cli/."""
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "lib" and len(parts) > 2 else None


def include_edges():
    """[(file, file it includes, why)] for lib/, report/ and cli/."""
    out = []
    for path in sources("lib", "report", "cli"):
        for inc in includes(path):
            if os.path.exists(os.path.join(TOP, inc)):
                out.append((path, inc, "%s includes %s" % (path, inc)))
    return out


def grouped(edges, key):
    """{a: {b: first why}} of the edges between the groups key() names,
    within none."""
    graph = collections.defaultdict(dict)
    for src, dst, why in edges:
        a, b = key(src), key(dst)
        if a and b and a != b:
            graph[a].setdefault(b, why)
    return graph


def cycle_text(comp, graph):
    """The dependencies inside one cycle, each with the first reason."""
    inside = set(comp)
    return "; ".join("%s -> %s (%s)" % (a, b, graph[a][b])
                     for a in comp for b in sorted(graph.get(a, {})) if b in inside)


def check_include_cycles(edges):
    graph = grouped(edges, module)
    for comp in cycles(graph):
        problems.append("files include each other (a .c and its .h as one): "
                        + cycle_text(comp, graph))


def nm(objs):
    """{object: (defined, undefined)} for every object, from one nm run: one
    process, not one per object (237 of them took over 300 s, the test's
    limit, on a loaded machine)."""
    r = subprocess.run(["nm"] + list(objs), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("nm: %s" % r.stderr.strip())
    out = {o: (set(), set()) for o in objs}
    cur = objs[0] if len(objs) == 1 else None
    for line in r.stdout.splitlines():
        if line.endswith(":") and line[:-1] in out:
            cur = line[:-1]
            continue
        p = line.split()
        if cur is None:
            continue
        defined, undefined = out[cur]
        if len(p) == 2 and p[0] == "U":
            undefined.add(p[1])
        elif len(p) == 3 and p[1] in "TDBRVWG":
            defined.add(p[2])
    return out


TWINS = {"lib/coord/coord_mpi.c": "lib/coord/coord_single.c",
         "lib/coord/coord_single.c": "lib/coord/coord_mpi.c"}


def call_edges():
    """[(file, file whose function or data it uses, why)] from the objects of
    BUILD (nm), or None when one is missing (a problem says which)."""
    objs = {}
    for path in sources("lib", "report", "cli"):
        if path.endswith(".c"):
            o = os.path.join(BUILD, path[:-2] + ".o")
            if not os.path.exists(o) and path in TWINS and os.path.exists(
                    os.path.join(BUILD, TWINS[path][:-2] + ".o")):
                continue  # a build has one twin of lib/coord: MPI's or the single process's
            if not os.path.exists(o):
                problems.append("%s: no object in %s (build first)" % (path, BUILD))
                return None
            objs[path] = o
    owner = {}
    syms = nm(list(objs.values()))
    for path, o in objs.items():
        for s in syms[o][0]:
            owner[s] = path
    out = []
    for path, o in objs.items():
        for s in sorted(syms[o][1]):
            if s in owner and owner[s] != path:
                out.append((path, owner[s], "%s calls %s of %s" % (path, s, owner[s])))
    return out


def check_call_cycles(edges):
    graph = grouped(edges, lambda p: p)
    for comp in cycles(graph):
        problems.append("files call each other (a cycle): " + " ".join(comp))


def check_folder_cycles(edges):
    graph = grouped(edges, folder)
    for (a, b), why in sorted(KNOWN_FOLDER_EDGES.items()):
        if b in graph.get(a, {}):
            del graph[a][b]
        elif all(os.path.isdir(os.path.join(TOP, f)) for f in (a, b)):
            problems.append("%s no longer depends on %s (%s): delete its entry from "
                            "KNOWN_FOLDER_EDGES in tests/layout.py" % (a, b, why))
    for comp in cycles(graph):
        problems.append("folders of lib/ depend on each other (a cycle): "
                        + cycle_text(comp, graph))


DOC = "docs/layout.md"
DOC_BEGIN = "<!-- folders of lib/: python3 tests/layout.py --graph -->"
DOC_END = "<!-- end of the folders -->"


def floors(graph):
    """{folder: its floor}: 0 for a folder that uses no other, else one more
    than the highest floor it uses (graph has no cycle)."""
    out = {}

    def floor(v):
        if v not in out:
            out[v] = 0
            out[v] = 1 + max((floor(w) for w in graph.get(v, ())), default=-1)
        return out[v]

    for v in list(graph):
        floor(v)
    return out


def folder_drawing(edges):
    """The folders of lib/ and their dependencies as a Mermaid flowchart,
    the highest floor first: a solid arrow for a dependency no other path
    implies, a dotted one for each of KNOWN_FOLDER_EDGES."""
    graph = grouped(edges, folder)
    nodes = set(graph) | {b for a in graph for b in graph[a]}
    nodes |= {"lib/" + d for d in os.listdir(os.path.join(TOP, "lib"))
              if os.path.isdir(os.path.join(TOP, "lib", d))}
    solid = {a: {b for b in graph.get(a, {}) if (a, b) not in KNOWN_FOLDER_EDGES}
             for a in nodes}

    def reached(a, without):
        seen, todo = set(), [w for w in solid[a] if w != without]
        while todo:
            v = todo.pop()
            if v not in seen:
                seen.add(v)
                todo.extend(solid[v])
        return seen

    floor = floors(solid)
    name = lambda f: f.split("/", 1)[1]
    lines = ["flowchart TD"]
    for a in sorted(nodes, key=lambda f: (-floor[f], f)):
        kept = sorted(b for b in solid[a] if b not in reached(a, b))
        known = sorted(b for b in graph.get(a, {}) if (a, b) in KNOWN_FOLDER_EDGES)
        if not kept and not known and not any(a in solid[v] for v in nodes):
            lines.append("  %s" % name(a))
        lines += ["  %s --> %s" % (name(a), name(b)) for b in kept]
        lines += ["  %s -.-> %s" % (name(a), name(b)) for b in known]
    return "```mermaid\n" + "\n".join(lines) + "\n```\n"


def check_doc_drawing(edges):
    path = os.path.join(TOP, DOC)
    text = open(path).read() if os.path.exists(path) else ""
    if DOC_BEGIN not in text:
        return  # a tree without the document (tests/cli/layout-cycles.sh)
    drawn = text.split(DOC_BEGIN, 1)[1].split(DOC_END, 1)[0].strip("\n") + "\n"
    if drawn != folder_drawing(edges):
        problems.append("%s: its drawing of lib/'s folders is not the tree's: replace it "
                        "with what python3 tests/layout.py --graph prints" % DOC)


def check_unique_names():
    seen = collections.defaultdict(list)
    r = subprocess.run(["git", "-C", TOP, "ls-files", "--cached", "--others", "--exclude-standard"],
                       capture_output=True, text=True)
    for path in sorted(set(r.stdout.split())):
        if path.startswith("tests/fuzz/corpus/") or not os.path.exists(os.path.join(TOP, path)):
            continue
        if path.endswith((".c", ".h", ".sh", ".py")):
            seen[os.path.basename(path)].append(path)
    for name, paths in sorted(seen.items()):
        if len(paths) > 1:
            problems.append("one name for two files: " + " ".join(sorted(paths)))


def main():
    if sys.argv[1:] == ["--graph"]:
        calls = call_edges()
        for p in problems:
            print(p, file=sys.stderr)
        if calls is None:
            return 1
        sys.stdout.write(folder_drawing(include_edges() + calls))
        return 0
    check_lib_quiet()
    check_cli_io()
    check_write_opens()
    check_layers()
    inc = include_edges()
    calls = call_edges()
    check_include_cycles(inc)
    if calls is not None:
        check_call_cycles(calls)
    check_folder_cycles(inc + (calls or []))
    if calls is not None and not any("a cycle" in p for p in problems):
        check_doc_drawing(inc + calls)
    check_unique_names()
    for p in problems:
        print(p)
    if problems:
        print("layout: %d problem(s)" % len(problems))
        return 1
    print("layout: lib/, report/ and cli/ keep their rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())

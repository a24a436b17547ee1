#!/usr/bin/env python3
"""The examples of the README and docs/ still print what the docs show.

An example is an indented code block holding `$ storbench ...` lines, each
followed by the output the doc shows for it. A comment just before the
block says how a test runs it:

    <!-- example
    setup: mkdir kk                      (shell, in the example's folder; repeatable)
    run: storbench soak --iterations=2 --size=2M --log=kk.jsonl kk
    optional: ^ *outliers at iteration   (a regex: doc lines it finds may not print)
    vary: (?<=verify ).*(?= firmware=)   (a regex: what it finds, in the doc and in
                                          the output, is this machine's and compares as *)
    -->

`run:` lines, in order, stand for the block's `$ storbench` lines (a
smaller size, a shorter time, a path of the test's own). The doc's own
line never runs: it may name a device (/dev/zram1 on the machine the
output came from), and a test touches only what it made. Every command
needs its `run:` line, which runs in the example's own folder ($T) and may
name no absolute path but $T's: an example without them fails. `exit: N` after a `run:` line is that command's exit
status (0 unless told). `$ cat FILE` followed by lines writes FILE
before the commands (a job file). `held: tests/cli/NAME.sh` says the
example needs what only that test sets up (a FUSE device, zram, mpirun):
that test runs the command and hands its output to `doc-examples.py
check FILE:ID OUTPUT`; the block's `id: WORD` names it. An example with
`skip: REASON` is not run (say why: the reason is printed).

Output is compared line by line with the figures masked: every number
(with its unit), absolute path, hex id, date and the `device:` line's
details are placeholders, spaces are collapsed, and the doc's lines must
appear in the output in order (the output may hold more: a warning of
this machine's); a doc line `...` stands for lines left out.

    doc-examples.py run --storbench PROG --tmp DIR FILE.md...
    doc-examples.py check FILE.md:ID OUTPUT
    doc-examples.py list FILE.md...

Exit 0 when every example matches, 1 with each difference named.
"""
import argparse, json, os, re, shlex, subprocess, sys

UNITS = r"(?:[KMGTP]i?B(?:/s)?|B/s|[kMGT]B(?:/s)?|B|ns|us|µs|ms|msec|usec|s|m|h|k|M|G|x|%)"
NUM = re.compile(r"[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?"
                 r"(?:\s?" + UNITS + r"(?![A-Za-z]))?")
HEX = re.compile(r"\b[0-9a-f]{8,}\b")
PATH = re.compile(r"(?<![\w.])(?:\.{0,2}/[\w.\-+]*)+")
DATE = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")


# Lines of what this machine is, optional in every example: the device
# beneath the target and its kernel counters (a tmpfs or overlay has none)
ANYWHERE = [re.compile(r"^\s*(device:|disk\s)")]


def mask(line):
    line = line.strip()
    if line.startswith("device:"):
        return "device: *"
    line = re.sub(r"^[\w-]+: ios=", "DEV: ios=", line)  # fio's disk stats
    line = re.sub(r"\(\s*[KMGT]i?B/s\)", "(U)", line)  # fio's bw (  KiB/s): unit by size
    line = DATE.sub("D", line)
    line = HEX.sub("#", line)
    line = PATH.sub("P", line)
    line = re.sub(r"\+{5}|\+{3}", "#", line)  # bonnie++'s "too fast to measure"
    line = NUM.sub("#", line)
    line = re.sub(r"#(?:[\s,./:+-]*#)+", "#", line)  # 1.00 GiB/2.00 GiB, ranges, lists
    line = re.sub(r"\s+", " ", line)
    return re.sub(r" ?([\[\]=(),:|]) ?", r"\1", line)


class Example:
    def __init__(self, path, line):
        self.path, self.line = path, line
        self.id = str(line)
        self.setup, self.runs, self.exits, self.optional = [], [], [], []
        self.vary = []
        self.held = self.skip = None
        self.files = {}      # name -> text, from `$ cat F`
        self.commands = []   # [doc command, [expected lines]]

    @property
    def name(self):
        return "%s:%s" % (os.path.basename(self.path), self.id)


def parse(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i, pending = [], 0, None
    while i < len(lines):
        l = lines[i]
        if l.strip().startswith("<!-- example"):
            pending = Example(path, i + 1)
            body = l.strip()[len("<!-- example"):]
            while "-->" not in body:
                i += 1
                body += "\n" + lines[i]
            for d in body.split("-->")[0].split("\n"):
                key, _, val = d.strip().partition(":")
                val = val.strip()
                if key == "setup":
                    pending.setup.append(val)
                elif key == "run":
                    pending.runs.append(val)
                    pending.exits.append(0)
                elif key == "exit":
                    pending.exits[-1] = int(val)
                elif key == "optional":
                    pending.optional.append(re.compile(val))
                elif key == "vary":
                    pending.vary.append(re.compile(val))
                elif key in ("held", "skip", "id"):
                    setattr(pending, key, val)
                elif d.strip():
                    raise SystemExit("%s:%d: unknown example directive %r" % (path, i + 1, d))
            i += 1
            continue
        if l.startswith("    $ "):
            ex = pending or Example(path, i + 1)
            pending = None
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            j = 0
            while j < len(block):
                b = block[j]
                if b.startswith("$ "):
                    cmd = b[2:]
                    while cmd.endswith("\\") and j + 1 < len(block):
                        j += 1
                        cmd = cmd[:-1] + " " + block[j].strip()
                    j += 1
                    got = []
                    while j < len(block) and not block[j].startswith("$ "):
                        got.append(block[j])
                        j += 1
                    m = re.match(r"cat (\S+)$", cmd.strip())
                    if m:
                        ex.files[m.group(1)] = "\n".join(got) + "\n"
                    else:
                        ex.commands.append([cmd, [g for g in got if g.strip()]])
                else:
                    j += 1
            if ex.commands:
                out.append(ex)
            continue
        i += 1
    return out


def compare(ex, k, output, errors=""):
    """The differences between command k's doc output and OUTPUT (stdout,
    whose lines must come in the doc's order) and ERRORS (stderr: the doc
    shows its lines where a terminal put them, so they may come anywhere)."""
    def m(line):
        for v in ex.vary:
            line = v.sub("*", line)
        return mask(line)
    want = [(w, m(w)) for w in ex.commands[k][1]]
    have = [m(h) for h in output.split("\n") if h.strip()]
    other = set(m(h) for h in errors.split("\n") if h.strip())
    bad, at = [], 0
    for raw, w in want:
        if w == "...":
            continue
        j = at
        while j < len(have) and have[j] != w:
            j += 1
        if j < len(have):
            at = j + 1
        elif w not in other and not any(o.search(raw) for o in ex.optional + ANYWHERE):
            bad.append("the doc shows %r; not printed (masked: %r)" % (raw.strip(), w))
    return bad


def outside(cmd):
    """The first path CMD names that may leave the example's folder: an
    absolute one, or one through '..' ($T/... is the folder itself)."""
    for w in shlex.split(cmd):
        for part in re.split(r"[=,:]", w):
            if part.startswith("/") or ".." in part.split("/"):
                return part
    return None


def find(name):
    path, _, ident = name.rpartition(":")
    for ex in parse(path):
        if ex.id == ident:
            return ex
    raise SystemExit("no example %s" % name)


def run_all(a):
    fails, ran, held = 0, 0, 0
    for path in a.files:
        for n, ex in enumerate(parse(path)):
            if ex.skip:
                print("skip %s: %s" % (ex.name, ex.skip))
                continue
            if ex.held:
                test = os.path.join(a.top, ex.held)
                src = open(test).read() if os.path.isfile(test) else ""
                if "doc-examples.py" not in src or ex.name.split(":")[1] not in src:
                    print("FAIL %s: held by %s, which does not check it" % (ex.name, ex.held))
                    fails += 1
                else:
                    held += 1
                continue
            d = os.path.join(a.tmp, "ex-%s-%d" % (os.path.basename(path), n))
            os.makedirs(d, exist_ok=True)
            for f, text in ex.files.items():
                with open(os.path.join(d, os.path.basename(f)), "w") as fh:
                    fh.write(text)
            env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(a.storbench)) + ":" +
                       os.environ["PATH"], T=d)
            # checked before anything of the example runs, setup included
            unsafe = [outside(r) for r in ex.runs + ex.setup if outside(r)]
            if len(ex.runs) != len(ex.commands) or unsafe:
                fails += 1
                print("FAIL %s (%s line %d): %s" % (ex.name, path, ex.line,
                      "a run: or setup: line names a path outside $T: %r" % unsafe[0] if unsafe
                      else "%d commands, %d run: lines (the doc's own lines never run)"
                      % (len(ex.commands), len(ex.runs))))
                continue
            bad = []
            for s in ex.setup:
                r = subprocess.run(s, shell=True, cwd=d, env=env, capture_output=True, text=True)
                if r.returncode:
                    bad.append("setup %r: exit %d %s" % (s, r.returncode, r.stderr.strip()))
            for k, (doc, _) in enumerate(ex.commands):
                cmd = ex.runs[k]
                want_rc = ex.exits[k] if k < len(ex.exits) else 0
                r = subprocess.run(cmd, shell=True, cwd=d, env=env, capture_output=True,
                                   text=True, timeout=300)
                if r.returncode != want_rc:
                    bad.append("%r: exit %d, expected %d: %s" % (cmd, r.returncode, want_rc,
                                                                 r.stderr.strip()[-300:]))
                diff = compare(ex, k, r.stdout, r.stderr)
                if diff:
                    diff.append("what %r printed:\n        %s" % (cmd, "\n        ".join(
                        (r.stdout.rstrip() + "\n" + r.stderr.rstrip()).split("\n")[:60])))
                bad += diff
            ran += 1
            if bad:
                fails += 1
                print("FAIL %s (%s line %d)" % (ex.name, path, ex.line))
                for b in bad:
                    print("    " + b)
            else:
                print("ok %s: %d command(s)" % (ex.name, len(ex.commands)))
    print("%d examples run, %d held by other tests, %d failed" % (ran, held, fails))
    return 1 if fails else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--storbench", required=True)
    r.add_argument("--tmp", required=True)
    r.add_argument("--top", default=".")
    r.add_argument("files", nargs="+")
    c = sub.add_parser("check")
    c.add_argument("name")
    c.add_argument("output")
    c.add_argument("--command", type=int, default=0, help="which $ line of the block")
    l = sub.add_parser("list")
    l.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.cmd == "run":
        return run_all(a)
    if a.cmd == "check":
        ex = find(a.name)
        text = open(a.output, errors="replace").read()
        bad = compare(ex, a.command, text, text)
        for b in bad:
            print("%s: %s" % (ex.name, b))
        return 1 if bad else 0
    for p in a.files:
        for ex in parse(p):
            print(json.dumps({"name": ex.name, "line": ex.line, "held": ex.held, "skip": ex.skip,
                              "runs": ex.runs, "files": list(ex.files),
                              "commands": [c[0] for c in ex.commands]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

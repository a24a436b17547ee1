#!/usr/bin/env python3
"""Runs storbench's tests, several at a time.

The unit test programs ($BUILD/tests/*), the layout check, and the CLI tests
(tests/cli/*.sh, or those CLI_TESTS lists) each run with a timeout; exit 0 is
a pass, 77 a skip (the reason is the last line the test printed), anything
else a failure. The last line printed is "N passed, N failed, N skipped";
the exit status is 1 when anything failed.

Each test declares what it needs in a line of its first comment:
    # needs: root loop zram        (a CLI test)
    /* needs: none */              (a unit test, in tests/unit/NAME.c)
The tags (TAGS below) decide how it is scheduled: tests run JOBS at a time,
a test of an exclusive kind (kmsg, mpi, qemu) never beside another of its
kind, and `serial` tests alone after all the others. A test without the
line, or with a tag not in TAGS, is an error: the runner says which.

Environment:
  BUILD         build folder [build]
  SB_BIN        the program [./storbench]
  TESTS         names: run only those
  SKIP_TAGS     tags: leave out the tests that carry one (the sanitizer
                stage leaves out io-only), counted as skipped
  CLI_TESTS     CLI test scripts to run instead of tests/cli/*.sh
  TEST_WRAPPER  runs each unit test program through it (qemu-aarch64-static)
  TEST_TIMEOUT  seconds per test [600]: a guard against a hang
  JOBS          tests at a time [2 x the CPUs, at least 2]
"""
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

TAGS = {
    "none": "needs nothing",
    "root": "skips without root",
    "loop": "makes loop devices",
    "zram": "makes its own zram device",
    "fuse": "mounts a FUSE fixture",
    "mpi": "runs mpirun: one at a time",
    "qemu": "boots a QEMU guest: one at a time",
    "kmsg": "writes /dev/kmsg lines: one at a time",
    "serial": "runs alone: it watches load or timing",
    "slow": "takes 20 s or more: started first",
    "io-only": "only times I/O: left out of the sanitizer stage",
}
EXCLUSIVE = ("qemu", "kmsg")

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = os.environ.get("BUILD", "build")
timeout = int(os.environ.get("TEST_TIMEOUT", "600"))
wrapper = shlex.split(os.environ.get("TEST_WRAPPER", ""))
wanted = set(os.environ.get("TESTS", "").split())
skip_tags = set(os.environ.get("SKIP_TAGS", "").split())
jobs = int(os.environ.get("JOBS", "0") or 0) or max(2, 2 * (os.cpu_count() or 1))
env = dict(os.environ)
env["SB_TOP"] = top
env["SB_BIN"] = os.environ.get("SB_BIN") or os.path.join(top, "storbench")
env["SB_BUILD"] = os.path.join(top, build)

NEEDS = re.compile(r"^\s*(?:#|/?\*|//)\s*needs:\s*([a-z\- ]+?)\s*(?:\*/)?\s*$")


def needs_of(path):
    """The tags of the needs line in the first 20 lines of path, or None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for _, line in zip(range(20), f):
                m = NEEDS.match(line)
                if m:
                    return m.group(1).split()
    except OSError:
        return None
    return None


class Test:
    def __init__(self, name, argv, source):
        self.name, self.argv, self.source = name, argv, source
        self.tags = needs_of(source) if source else ["none"]
        self.rc = None
        self.secs = 0.0
        self.log = ""


def collect():
    tests = []
    unit_dir = os.path.join(top, build, "tests")
    if os.path.isdir(unit_dir):
        for n in sorted(os.listdir(unit_dir)):
            p = os.path.join(unit_dir, n)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                src = os.path.join(top, "tests", "unit", n + ".c")
                tests.append(Test(n, wrapper + [p], src))
    cli_list = os.environ.get("CLI_TESTS", "").split()
    if not cli_list and not wrapper:
        # the layout rules of the source tree, on this build's objects
        tests.append(Test("layout", ["python3", os.path.join(top, "tests", "layout.py")], None))
    if not cli_list:
        d = os.path.join(top, "tests", "cli")
        cli_list = [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".sh")]
    for p in cli_list:
        if os.path.isfile(p):
            tests.append(Test(os.path.basename(p)[:-3], ["sh", p], p))
    return [t for t in tests if not wanted or t.name in wanted]


def check_tags(tests):
    bad = []
    for t in tests:
        if t.tags is None:
            bad.append(f"{t.source}: no '# needs:' line in its first comment (tags: {', '.join(TAGS)})")
        else:
            unknown = [x for x in t.tags if x not in TAGS]
            if unknown:
                bad.append(f"{t.source}: unknown tag {', '.join(unknown)} (tags: {', '.join(TAGS)})")
    return bad


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def run(t, logdir):
    start = time.monotonic()
    logpath = os.path.join(logdir, t.name + ".log")
    # a folder of its own as the current one: what a test leaves there
    # (a soak's default log) stays out of the tree and of other tests
    cwd = os.path.join(logdir, t.name + ".d")
    os.mkdir(cwd)
    with open(logpath, "wb") as log:
        p = subprocess.Popen(t.argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            t.rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            t.rc = 124
    t.secs = time.monotonic() - start
    with open(logpath, encoding="utf-8", errors="replace") as f:
        t.log = f.read()
    if t.rc == 124:
        t.log += f"(timed out after {timeout}s)\n"


def report(t, lock):
    with lock:
        if t.rc == 0:
            print(f"PASS {t.name:<40} {t.secs:4.0f}s", flush=True)
        elif t.rc == 77:
            print(f"SKIP {t.name:<40} {last_line(t.log)}", flush=True)
        else:
            print(f"FAIL {t.name:<40} exit {t.rc} after {t.secs:.0f}s", flush=True)
            for l in t.log.splitlines()[-40:]:
                print("    | " + l)
            sys.stdout.flush()


def schedule(tests, logdir):
    """JOBS at a time, one of each exclusive kind at a time; serial last."""
    lock = threading.Lock()
    cond = threading.Condition(lock)
    running = set()  # exclusive tags held
    active = [0]
    parallel = [t for t in tests if "serial" not in t.tags]
    serial = [t for t in tests if "serial" in t.tags]
    # the longest first: slow ones, then CLI tests, then the quick units
    parallel.sort(key=lambda t: ("slow" not in t.tags, not t.argv[0] == "sh"))
    pending = list(parallel)

    def worker(t, held):
        run(t, logdir)
        report(t, lock)
        with cond:
            running.difference_update(held)
            active[0] -= 1
            cond.notify_all()

    threads = []
    with cond:
        while pending:
            pick = None
            if active[0] < jobs:
                for t in pending:
                    if not any(x in running for x in t.tags if x in EXCLUSIVE):
                        pick = t
                        break
            if pick is None:
                cond.wait()
                continue
            pending.remove(pick)
            held = {x for x in pick.tags if x in EXCLUSIVE}
            running.update(held)
            active[0] += 1
            th = threading.Thread(target=worker, args=(pick, held))
            th.start()
            threads.append(th)
    for th in threads:
        th.join()
    for t in serial:
        run(t, logdir)
        report(t, lock)


def main():
    tests = collect()
    bad = check_tags(tests)
    if bad:
        for b in bad:
            print("run-tests: " + b, file=sys.stderr)
        return 2
    left_out = [t for t in tests if skip_tags & set(t.tags)]
    tests = [t for t in tests if t not in left_out]
    logdir = tempfile.mkdtemp(prefix="sb-tests.", dir=os.environ.get("TMPDIR", "/tmp"))
    start = time.monotonic()
    print(f"running {len(tests)} tests, {jobs} at a time", flush=True)
    schedule(tests, logdir)
    wall = time.monotonic() - start
    passed = [t for t in tests if t.rc == 0]
    failed = [t for t in tests if t.rc not in (0, 77)]
    skipped = [t for t in tests if t.rc == 77]
    if skipped or left_out:
        print("\nskipped:")
        for t in skipped:
            print(f"  {t.name}: {last_line(t.log)}")
        for t in left_out:
            print(f"  {t.name}: tagged {' '.join(sorted(skip_tags & set(t.tags)))} (SKIP_TAGS)")
    slowest = sorted(tests, key=lambda t: -t.secs)[:10]
    print(f"\nthe 10 slowest ({wall:.0f}s in all, {jobs} at a time):")
    for t in slowest:
        print(f"  {t.secs:5.0f}s {t.name} [{' '.join(t.tags)}]")
    if failed:
        print(f"\nfailed: {' '.join(t.name for t in failed)}\n(logs in {logdir})")
    else:
        subprocess.call(["rm", "-rf", logdir])
    print(f"\n{len(passed)} passed, {len(failed)} failed, {len(skipped) + len(left_out)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

# The live progress line, read off a terminal (script(1) gives the program a
# pty for stderr; stdout goes to a file): on steady I/O nearly every update
# after the first shows a rate that is not 0, the percent only grows, the
# ETA is there for work bound by time or by size, the line fits the
# terminal's width and is cleared at the end; jobs running together get
# figures of their own, quick says which test of how many, soak which
# iteration of how many. --quiet draws nothing, and neither does a run whose
# stderr is not a terminal and lasts under 10 s. Bounds are loose: the
# machine may be busy; the counts of updates depend on nothing but the
# wall clock passing.
# needs: slow io-only
. "$(dirname "$0")/../lib/cli.sh"

command -v script >/dev/null 2>&1 || skip "no script(1) (util-linux) to give the program a terminal"

# on_tty COLS NAME CMD...: CMD with stderr on a terminal COLS wide, its
# stdout in $T/NAME.out, what the terminal got in $T/NAME.tty
on_tty() {
	cols=$1 name=$2
	shift 2
	printf '%s ' "$@" >"$T/$name.cmd"
	script -qefc "stty cols $cols rows 24; $(cat "$T/$name.cmd") >'$T/$name.out'" \
		"$T/$name.tty" >/dev/null 2>&1 </dev/null
	rc=$?
	[ "$rc" = 0 ] || { cat "$T/$name.tty" "$T/$name.out"; fail "$name: '$*' exited $rc on a terminal"; }
}

# check NAME PYTHON: the updates of $T/NAME.tty (the text between carriage
# returns, escape sequences taken out) as the list u, checked by PYTHON;
# it prints what it found and exits non-zero with the reason
check() {
	python3 - "$T/$1.tty" "$2" <<'PY' || fail "$1: see above"
import re, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
u = [re.sub(r'\x1b\[K', '', s).strip('\n') for s in raw.split('\r')]
# progress updates only: a warning printed at the end may hold a percent too
u = [s for s in u if re.search(r'\d+%', s) and not s.startswith(('warning:', 'storbench:'))]
RATE = re.compile(r'(\d+(?:\.\d+)?) (B|KiB|MiB|GiB|TiB)/s')
def rate(s):
    m = RATE.search(s)
    return float(m.group(1)) if m else None
def pct(s):
    return int(re.search(r'(\d+)%', s).group(1))
def need(cond, why):
    if not cond:
        print('\n'.join(repr(s) for s in u))
        print('FAIL:', why)
        sys.exit(1)
print(len(u), 'updates; first', repr(u[0]) if u else None, 'last', repr(u[-1]) if u else None)
exec(sys.argv[2])
PY
}

# ---- run: bound by time, steady buffered reads of a file in the cache
on_tty 80 time "$SB" run --rw=randread --bs=4k --size=16M --runtime=3s --time-based \
	--direct=0 --engine=psync "$T/f.bin"
check time '
need(len(u) >= 5, "at least 5 updates in 3 s (4 a second are drawn)")
need(all(s.startswith("job: ") for s in u), "the line names the job")
zero = [s for s in u[1:] if not rate(s)]
need(len(zero) <= 1, "a rate that is not 0 in nearly every update after the first")
p = [pct(s) for s in u]
need(p == sorted(p) and p[-1] <= 100, "the percent only grows, to 100 at most")
need(p[-1] >= 60, "the percent reaches the end of the run")
need(all(re.search(r"ETA \d+s", s) for s in u), "an ETA in every update of a run bound by time")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
need(u[-1] + "\x1b[K\r\x1b[K" in raw, "the line is cleared at the end")
'
grep -q "read " "$T/time.out" || fail "the results went missing from stdout"
ok "run bound by time: a rate in nearly every update, percent growing, ETA, 80 columns, cleared"

# ---- run: bound by size (a rate cap makes it last 2 s)
on_tty 80 size "$SB" run --rw=write --bs=64k --size=16M --rate=8M --direct=0 --engine=psync \
	"$T/g.bin"
check size '
need(len(u) >= 4, "at least 4 updates in 2 s")
zero = [s for s in u[1:] if not rate(s)]
need(len(zero) <= 1, "a rate that is not 0 in nearly every update after the first")
p = [pct(s) for s in u]
need(p == sorted(p) and p[-1] <= 100, "the percent only grows")
need(p[-1] >= 60, "the percent reaches the end of the run")
need(all(re.search(r"ETA \d+s", s) for s in u[1:]), "an ETA in every update after the first")
need(all(3.0 <= rate(s) <= 20.0 and "MiB/s" in s for s in u[2:]), "about the capped 8 MiB/s")
'
ok "run bound by size: percent growing, an ETA, the rate near its cap"

# ---- two jobs together: a total and each job's figures
cat >"$T/two.fio" <<'JOB'
[global]
size=8M
bs=4k
rate=4m
runtime=2
time_based

[reader]
rw=randread

[writer]
rw=randwrite
JOB
mkdir "$T/d"
on_tty 80 jobs "$SB" run "$T/two.fio" "$T/d"
check jobs '
need(len(u) >= 4, "at least 4 updates in 2 s")
need(all(s.startswith("2 jobs: ") for s in u), "the total of 2 jobs first")
need(all("| reader " in s and "| writer " in s for s in u), "each job figures in every update")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
both = [s for s in u[1:] if re.search(r"\| reader \d.*/s \| writer \d.*/s", s)]
need(len(both) >= len(u) - 2, "a rate of its own for each job")
p = [pct(s) for s in u]
need(p == sorted(p), "the percent only grows")
'
ok "jobs together: the total, then each job with its rate"

# a narrow terminal: the least needed figures go, the line still fits
on_tty 45 narrow "$SB" run "$T/two.fio" "$T/d"
check narrow '
need(len(u) >= 4, "at least 4 updates")
need(all(len(s) <= 45 for s in u), "every update fits 45 columns")
need(all(re.search(r"^2 jobs: \d+% ", s) and rate(s) is not None for s in u[1:]), "percent and rate kept")
need(any("more" in s for s in u), "the jobs left out are counted")
'
ok "a narrow terminal: the line degrades to what fits"

# ---- quick: which test of how many, and the ETA of the whole
mkdir "$T/q"
on_tty 80 quick "$SB" quick --read-only --size=8M --runtime=500ms --repeat=1 "$T/q"
check quick '
steps = [int(m.group(1)) for m in (re.search(r"^quick test (\d+) of 4, ", s) for s in u) if m]
need(len(steps) == len(u) and len(u) >= 4, "every update says quick test i of 4")
need(steps == sorted(steps) and steps[-1] >= 3, "the tests counted up")
need(all(re.search(r"ETA \d+s", s) for s in u), "an ETA in every update")
eta = [int(re.search(r"ETA (\d+)s", s).group(1)) for s in u]
need(eta[0] >= 2 and eta[-1] <= 2, "the ETA of the whole, not of one run: it counts down")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
p = [pct(s) for s in u]
need(p == sorted(p) and p[-1] >= 75, "the percent of the whole quick, as its ETA: it only grows")
'
ok "quick: test i of N, the ETA and the percent of all of them"

# ---- run --repeat: the ETA is of every run, and so is the percent
on_tty 80 rep "$SB" run --rw=randread --bs=4k --size=8M --runtime=1s --time-based --repeat=3 \
	--direct=0 --engine=psync "$T/f.bin"
check rep '
p = [pct(s) for s in u]
need(len(p) >= 6, "updates over 3 runs of 1 s")
need(p == sorted(p) and p[-1] >= 75, "the percent of the three runs: it only grows")
'
ok "run --repeat: the percent of all the runs"

# ---- quick in a log: a line every 10 s, its percent and ETA of one whole:
# the percent is the time so far over the time so far and the ETA (the
# seconds shown are whole: a few points either way), and only grows
mkdir "$T/ql"
expect_exit 0 "$SB" quick --read-only --size=8M --runtime=3500ms --repeat=1 "$T/ql"
python3 - "$T/err" <<'PY' || fail "quick in a log: see above"
import re, sys
L = [l for l in open(sys.argv[1]) if l.startswith('quick test ')]
print(''.join(L), end='')
assert len(L) >= 2, 'a line every 10 s of 28 s'
f = [re.search(r': (\d+)% .*elapsed (\d+)s  ETA (\d+)s', l) for l in L]
assert all(f), 'percent, elapsed and ETA in every line'
p = [int(m.group(1)) for m in f]
assert p == sorted(p), 'the percent only grows'
for m in f:
    e, t = int(m.group(2)), int(m.group(3))
    assert abs(int(m.group(1)) - 100 * e / (e + t)) <= 8, 'the percent is of the time the ETA is of'
PY
ok "quick in a log: the percent of the whole command, as its ETA"

# ---- soak: the iteration of how many, bytes of the phase, the ETA
mkdir "$T/s"
on_tty 80 soak "$SB" soak --iterations=3 --size=12M --burst=1M,100ms --log="$T/soak.jsonl" "$T/s"
check soak '
its = [int(m.group(1)) for m in (re.search(r"^soak iteration (\d) of 3, (write|check): ", s) for s in u) if m]
need(len(its) == len(u) and len(u) >= 6, "every update says soak iteration i of 3")
need(its == sorted(its) and its[0] == 1 and its[-1] == 3, "iterations 1 to 3, in order")
need(all(re.search(r"\d+(\.\d+)? (KiB|MiB) of 12\.0 MiB", s) for s in u), "bytes done of the phase total")
need(sum(1 for s in u if re.search(r"ETA \d+s", s)) >= len(u) - 3, "an ETA in nearly every update")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
'
ok "soak: iteration i of N, bytes of the phase, the ETA"

# ---- soak --workload=iozone: the soak's line (its iteration, its elapsed
# time and ETA), never the inner sweep's "sweep cell i of N" that starts
# again with each iteration
mkdir "$T/z"
on_tty 120 zsoak "$SB" soak --workload=iozone --iterations=3 --idle=300ms --log="$T/z.jsonl" \
	-- -s16m -s32m -r4k -i0 -i1 -i2 -f "$T/z/tf"
check zsoak '
m = [re.search(r"^soak iteration (\d) of 3, cell (\d) of 2, (\w+) [0-9.]+ MiB/4\.00 KiB: .*elapsed (\d+)s", s) for s in u]
# how many updates land depends on the speed of the machine (the cells take
# milliseconds each; at load 24 only one was drawn): one is enough to check
need(len(u) >= 1 and all(m), "every update is the soak line: its iteration, the test, the cell")
its = [int(x.group(1)) for x in m]
need(its == sorted(its), "iterations counted up")
el = [int(x.group(4)) for x in m]
need(el == sorted(el), "the elapsed time is the soak'"'"'s: it never starts again")
need(not any(s.startswith("sweep") for s in u), "no line of the inner sweep")
'
ok "soak --workload=iozone: the soak's line, its iteration and time, not the sweep's"

# ---- sweep: the cell of how many, the percent of the whole by bytes
mkdir "$T/w"
on_tty 80 sweep "$SB" sweep --tests=write,read --file-sizes=4M,8M --record-sizes=64k \
	--burst=512k,60ms "$T/w"
check sweep '
cells = [int(m.group(1)) for m in (re.search(r"^sweep cell (\d) of 2, (write|read), ", s) for s in u) if m]
need(len(cells) == len(u) and len(u) >= 3, "every update says sweep cell i of 2 and the test")
need(cells == sorted(cells), "the cells counted up")
p = [pct(s) for s in u]
need(p == sorted(p) and p[-1] <= 100, "the percent of the whole only grows")
need(all(re.search(r"ETA \d+s", s) and rate(s) for s in u[1:]), "a rate and an ETA after the first update")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
'
ok "sweep: cell i of N, percent of the whole, rate and ETA"

# ---- meta: bonnie++'s message for each test, the live line in between
mkdir "$T/m"
on_tty 80 meta "$SB" meta --size=0 --files=6000 "$T/m"
check meta '
need(len(u) >= 1, "a live line in six file tests of 6000 files")
need(all(re.search(r"^meta test [1-6] of 6, (seq|rand)_(create|stat|delete): \d+%", s) for s in u),
     "every update says meta test i of 6 and its name")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
'
[ "$(grep -c 'meta: .* (\(seq\|rand\)_\(create\|stat\|delete\))' "$T/meta.tty")" = 6 ] ||
	fail "meta: bonnie++'s message for each of the 6 tests: $(cat -v "$T/meta.tty")"
ok "meta: a message per test, the live line between"

# ---- latency: dd's loop has a count, hdparm's the region's end (it may be
# over before the first update); ioping's own lines take the place of the
# live line
mkdir "$T/l"
on_tty 80 latdd "$SB" latency --preset=dd-sync --count=100 --interval=10ms "$T/l"
check latdd '
need(len(u) >= 1, "a live line during 100 writes 10 ms apart")
need(all(s.startswith("latency dd-sync: ") for s in u), "the line names the preset")
p = [pct(s) for s in u]
need(p == sorted(p) and p[-1] <= 100, "the percent of the 100 requests only grows")
need(all(re.search(r"ETA \d+s", s) for s in u[1:]), "an ETA after the first update")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
'
grep -q 'records out' "$T/latdd.out" || fail "latency dd-sync: dd's lines went missing from stdout"
on_tty 80 lathd "$SB" latency --preset=hdparm --size=64M "$T/l"
check lathd '
need(all(s.startswith("latency hdparm: ") for s in u), "the line names the preset")
p = [pct(s) for s in u]
need(p == sorted(p) and (not p or p[-1] <= 100), "the percent only grows")
need(all(len(s) <= 80 for s in u), "every update fits 80 columns")
'
on_tty 80 latio "$SB" latency --count=3 --interval=300ms "$T/l"
[ "$(grep -c 'request=' "$T/latio.out")" = 3 ] || fail "ioping: a line per request: $(cat "$T/latio.out")"
! tr '\r' '\n' <"$T/latio.tty" | sed 's/\x1b\[K//g' | grep -q '^latency ioping: ' ||
	fail "ioping: a live line among the request lines: $(cat -v "$T/latio.tty")"
ok "latency: a live line for dd's and hdparm's loops, none beside ioping's lines"

# ---- --quiet: nothing drawn; not a terminal, under 10 s: nothing either
on_tty 80 quiet "$SB" run --quiet --rw=randread --bs=4k --size=16M --runtime=1s --time-based \
	--direct=0 --engine=psync "$T/f.bin"
# (a warning may hold a percent, "a worker used 92% of a CPU core": not a progress line)
! tr '\r' '\n' <"$T/quiet.tty" | sed 's/\x1b\[K//g' | grep -v '^warning:\|^storbench:' | grep -q '%' ||
	fail "--quiet drew a progress line: $(cat -v "$T/quiet.tty")"
expect_exit 0 "$SB" run --rw=randread --bs=4k --size=16M --runtime=1s --time-based --direct=0 \
	--engine=psync "$T/f.bin"
! grep -q "$(printf '\r')" "$T/err" || fail "a line redrawn in place where stderr is no terminal"
! grep -q 'ETA' "$T/err" || fail "a progress line in a run under 10 s where stderr is no terminal"
ok "--quiet, and stderr not a terminal: no progress line"

# storbench soak under mpirun -n 3 (a build with make MPI=1): every rank
# soaks a directory of its own and keeps its own log (LOG.rank-N); rank 0
# writes LOG, whose every iteration is the All clients figures (bytes of
# the ranks over the span from the earliest start to the latest end,
# counts summed) with each rank's; the iterations start together; report
# reads LOG; a rank killed mid-way ends the job with a message naming it,
# and --resume goes on from the last iteration every log holds; one rank
# whose data comes back damaged fails the soak, named with its host.
# needs: fuse mpi
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 180 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

# the logs' iterations: every log holds 1..N once each, the aggregate's
# every iteration the sum of its ranks' (python; $1 the aggregate log)
check_logs() {
	python3 - "$1" "$2" <<'PY'
import json, sys
base, ranks = sys.argv[1], int(sys.argv[2])
def lines(p):
    return [json.loads(l) for l in open(p)]
agg = lines(base)
assert agg[0]["type"] == "config" and agg[0]["ranks"] == ranks and agg[0]["aggregate"], agg[0]
it = [r for r in agg if r["type"] == "iteration"]
n = len(it)
assert [r["iteration"] for r in it] == list(range(1, n + 1)), [r["iteration"] for r in it]
for k in range(ranks):
    own = lines("%s.rank-%d" % (base, k))
    assert own[0]["rank"] == k and own[0]["ranks"] == ranks, own[0]
    oi = [r for r in own if r["type"] == "iteration"]
    assert [r["iteration"] for r in oi] == list(range(1, n + 1)), (k, [r["iteration"] for r in oi])
for r in it:
    rs = r["ranks"]
    assert sorted(x["rank"] for x in rs) == list(range(ranks)), rs
    # counts: the ranks' summed
    v = r["verify"]
    assert v["blocks_checked"] == sum(x["verify"]["blocks_checked"] for x in rs), v
    assert v["intact"] == sum(x["verify"]["intact"] for x in rs), v
    assert r["io_errors"] == sum(x["io_errors"] for x in rs)
    # bandwidth: the bytes of all over the span of the phase
    for ph, key, b in (("write", "write_bw_bytes", "write_bytes"),
                       ("check", "read_bw_bytes", "checked_bytes")):
        t0 = min(x[ph + "_start_s"] for x in rs)
        t1 = max(x[ph + "_end_s"] for x in rs)
        # --burst: the pauses every rank shared are not timed
        if ph == "write":
            t1 -= r.get("write_shared_pause_s", 0)
        want = sum(x[b] for x in rs) / (t1 - t0)
        # the times in the log are rounded to the microsecond
        assert abs(r[key] - want) <= 1e-4 * want, (ph, r[key], want)
        assert sum(x[b] for x in rs) == ranks * (2 << 20), (ph, [x[b] for x in rs])
    # together: every rank started before any rank ended its iteration
    assert max(x["start_s"] for x in rs) < min(x["end_s"] for x in rs), rs
    assert max(x["write_start_s"] for x in rs) < min(x["write_end_s"] for x in rs), rs
print(n)
PY
}

# report_ranks RESULT: storbench report of a soak of many ranks in every
# format; each rank's figures in the CSV table soak_ranks and the XLSX sheet
# "Soak ranks" equal the result's (a row per iteration and rank), and its
# medians in the text and HTML (table and bar chart) are those of its
# iterations (python)
XLSX_SHEET="$(dirname "$0")/../tools/xlsx-sheet.py"
report_ranks() {
	"$SB" report "$1" >"$T/rt.txt" || fail "report text of $1"
	"$SB" report --format=html -o "$T/rt.html" "$1" || fail "report html of $1"
	"$SB" report --format=json -o "$T/rt.json" "$1" || fail "report json of $1"
	"$SB" report --format=csv --table=soak_ranks -o "$T/rt.csv" "$1" || fail "report csv of $1"
	xl=
	if "$SB" --version | grep -q "features:.* xlsx"; then
		"$SB" report --format=xlsx -o "$T/rt.xlsx" "$1" || fail "report xlsx of $1"
		python3 "$XLSX_SHEET" "$T/rt.xlsx" "Soak ranks" >"$T/rt-x.csv" || fail "no Soak ranks sheet"
		xl="$T/rt-x.csv"
	fi
	python3 - "$1" "$T/rt.txt" "$T/rt.html" "$T/rt.csv" "$xl" <<'PY'
import csv, html, json, re, statistics, sys
src, txt, page, table, xl = sys.argv[1:]
if src.endswith(".jsonl"):
    recs = [r for r in map(json.loads, open(src)) if r.get("type") == "iteration"]
else:
    recs = json.load(open(src))["storbench"]["soak"]["iteration_records"]
truth = [(r["iteration"], x) for r in recs for x in r["ranks"]]
assert truth, "no ranks in " + src
classes = ["corrupted", "misplaced", "stale", "foreign", "unreadable", "newer", "missing"]
def bad(x):
    return sum(x["verify"].get(c, 0) for c in classes)
def same(a, b):
    return abs(a - b) <= 1e-9 * abs(b)
rows = list(csv.DictReader(open(table, newline="")))
assert len(rows) == len(truth), (len(rows), len(truth))
for r, (it, x) in zip(rows, truth):
    assert (int(r["iteration"]), int(r["rank"]), r["host"]) == (it, x["rank"], x["host"]), (r, x)
    for col, key in (("write_bw_bytes_per_s", "write_bw_bytes"), ("read_bw_bytes_per_s", "read_bw_bytes"),
                     ("write_bytes", "write_bytes"), ("checked_bytes", "checked_bytes"),
                     ("start_s", "start_s"), ("end_s", "end_s"), ("io_errors", "io_errors")):
        assert same(float(r[col]), x[key]), (col, r[col], x[key])
    assert int(r["blocks_checked"]) == x["verify"]["blocks_checked"], r
    assert int(r["bad_blocks"]) == bad(x) and r["failed"] == str(int(x["failed"])), r
if xl:
    xr = list(csv.reader(open(xl, newline="")))
    head = xr[0]
    assert len(xr) - 1 == len(truth), (len(xr), len(truth))
    for r, (it, x) in zip(xr[1:], truth):
        v = dict(zip(head, r))
        assert (int(v["Iteration"]), int(v["Rank"]), v["Host"]) == (it, x["rank"], x["host"]), v
        assert same(float(v["Write (MiB/s)"]) * 2**20, x["write_bw_bytes"]), v
        assert same(float(v["Read (MiB/s)"]) * 2**20, x["read_bw_bytes"]), v
        assert int(v["Blocks not intact"]) == bad(x) and v["Failed"] == ("yes" if x["failed"] else "no"), v
# each rank's medians, as the text and the HTML show them (3 digits)
units = {"B/s": 1, "KiB/s": 2**10, "MiB/s": 2**20, "GiB/s": 2**30, "TiB/s": 2**40}
def rate(s):
    n, u = s.split()
    return float(n) * units[u]
def near(shown, want):
    return abs(rate(shown) - want) <= 0.006 * want
ranks = sorted({x["rank"] for _, x in truth})
med = {k: [statistics.median([x[key] for _, x in truth if x["rank"] == k])
           for key in ("write_bw_bytes", "read_bw_bytes")] for k in ranks}
fails = {k: sum(1 for _, x in truth if x["rank"] == k and x["failed"]) for k in ranks}
n = {k: sum(1 for _, x in truth if x["rank"] == k) for k in ranks}
t = open(txt).read()
t = t[t.index("each rank's own iterations (%d ranks)" % len(ranks)):]
got = re.findall(r"^(\d+) +(\S+) +(\d+) +(\d+) +([\d.]+ \S+/s) +([\d.]+ \S+/s)$", t, re.M)
assert [int(g[0]) for g in got] == ranks, got
for g in got:
    k = int(g[0])
    assert (int(g[2]), int(g[3])) == (n[k], fails[k]), (g, n[k], fails[k])
    assert near(g[4], med[k][0]) and near(g[5], med[k][1]), (g, med[k])
h = open(page).read()
assert 'id="soak-ranks-bw"' in h, "no bar chart of the ranks"
sec = h[h.rindex("<h3>Ranks</h3>"):]
bars = re.findall(r"<title>(\d+) \S+ (write|read): ([\d.]+ \S+/s) \(", sec)
assert len(bars) == 2 * len(ranks), bars
for k, d, v in bars:
    assert near(v, med[int(k)][d == "read"]), (k, d, v, med[int(k)])
cells = re.findall(r"<tr[^>]*><td>(\d+)</td><td>[^<]*</td><td class=\"n\">(\d+)</td>"
                   r"<td class=\"n\">(\d+)</td><td class=\"n\">([^<]+)</td>", sec)
assert [int(c[0]) for c in cells] == ranks, cells
for k, it, f, w in cells:
    assert (int(it), int(f)) == (n[int(k)], fails[int(k)]) and near(w, med[int(k)][0]), (k, it, f, w)
assert "slowest rank" in sec and "ended within" in sec, "no skew"
PY
}

# 1. three ranks, three iterations, a directory each
mkdir "$T/d"
expect_exit 0 $MPI -n 3 "$SB" soak --iterations=3 --size=2M --log="$T/s.jsonl" \
	--output="$T/s.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' directories were left: $(ls -A "$T/d")"
n=$(check_logs "$T/s.jsonl" 3) || fail "logs: $n"
[ "$n" = 3 ] || fail "$n iterations, expected 3"
grep -q "soak: 3 iterations, 0 failed: PASS" "$T/out" || fail "verdict: $(cat "$T/out")"
[ "$(grep -c "^       rank [0-2] on .*verify ok" "$T/out")" = 9 ] || fail "no line per rank: $(cat "$T/out")"
python3 - "$T/s.json" <<'PY' || fail "result"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["storbench"]["soak"]
it = s["iteration_records"]
assert len(it) == 3 and all(r["verify"]["blocks_checked"] == 3 * 512 for r in it), it
assert s["verdict"] == "pass", s["verdict"]
# each rank's own figures in every iteration, as the aggregate log has them
for r in it:
    rs = r["ranks"]
    assert sorted(x["rank"] for x in rs) == [0, 1, 2] and all(x["host"] for x in rs), rs
    assert sum(x["write_bytes"] for x in rs) == 3 * (2 << 20), rs
    assert sum(x["verify"]["blocks_checked"] for x in rs) == r["verify"]["blocks_checked"]
    assert all(x["write_bw_bytes"] > 0 and x["iteration"] == r["iteration"] for x in rs), rs
PY
expect_exit 0 "$SB" report "$T/s.jsonl"
grep -qi "3 iterations" "$T/out" || fail "report: $(cat "$T/out")"
grep -q "each rank's own iterations (3 ranks)" "$T/out" || fail "report, ranks: $(cat "$T/out")"
expect_exit 0 "$SB" report "$T/s.json"
[ "$(grep -Ec "^[0-2] +[^ ]+ +3 +0 " "$T/out")" = 3 ] || fail "report of -o, ranks: $(cat "$T/out")"
expect_exit 0 "$SB" report --format=html --output="$T/s.html" "$T/s.jsonl"
ok "3 ranks: a log each, the aggregate the sum of the ranks, started together, report reads it"
ok "the results (-o) hold each rank's figures of every iteration"
report_ranks "$T/s.json" || fail "report of the results, each rank"
report_ranks "$T/s.jsonl" || fail "report of the log, each rank"
ok "report: each rank's figures in text, HTML (table, bars, skew), CSV and XLSX as in the result and the log"

# 2. resume: each rank its own log, rank 0 the aggregate too
expect_exit 2 "$SB" soak --resume "$T/s.jsonl"
grep -q "mpirun -n 3" "$T/err" || fail "resumed alone: $(cat "$T/err")"
expect_exit 2 $MPI -n 2 "$SB" soak --resume "$T/s.jsonl"
expect_exit 0 $MPI -n 3 "$SB" soak --resume "$T/s.jsonl" --iterations=4
n=$(check_logs "$T/s.jsonl" 3) || fail "logs after resume: $n"
[ "$n" = 4 ] || fail "$n iterations after resume, expected 4"
grep -q "resuming after iteration 3" "$T/out" || fail "resume: $(cat "$T/out")"
ok "--resume goes on with every rank's log"

# 3. the logs disagree (rank 1's last iteration lost): all go on after the
# last iteration every log holds
python3 - "$T/s.jsonl.rank-1" <<'PY'
import sys
p = sys.argv[1]
ls = open(p).readlines()
last = max(i for i, l in enumerate(ls) if '"type":"iteration"' in l)
open(p, "w").writelines(ls[:last])
PY
expect_exit 0 $MPI -n 3 "$SB" soak --resume "$T/s.jsonl" --iterations=5
grep -q "resuming after iteration 3" "$T/out" || fail "not from the minimum: $(cat "$T/out")"
n=$(check_logs "$T/s.jsonl" 3) || fail "logs after an uneven resume: $n"
[ "$n" = 5 ] || fail "$n iterations, expected 5"
ok "--resume agrees on the last iteration all logs hold"

# 4. a rank killed mid-way ends the job with a message naming it, and the
# soak resumes
mkdir "$T/k"
$MPI -n 3 "$SB" soak --iterations=40 --idle=300ms --size=2M --log="$T/k.jsonl" "$T/k" \
	>"$T/kout" 2>"$T/kerr" &
job=$!
victim=
for _ in $(seq 300); do
	if [ -z "$victim" ]; then
		for p in $(pgrep -x storbench); do
			{ grep -q "$T/k" "/proc/$p/cmdline" &&
				tr '\0' '\n' <"/proc/$p/environ" | grep -qx "OMPI_COMM_WORLD_RANK=2" &&
				victim=$p; } 2>/dev/null
		done
	fi
	got=$(grep -c '"type":"iteration"' "$T/k.jsonl" 2>/dev/null)
	[ -n "$victim" ] && [ "${got:-0}" -ge 2 ] && break
	sleep 0.1
done
[ -n "$victim" ] || { kill $job; fail "rank 2 never started"; }
kill -9 "$victim"
wait $job
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] || fail "the job exited $rc after rank 2 was killed"
grep -qi "rank 2" "$T/kerr" "$T/kout" || fail "no message naming rank 2: $(cat "$T/kerr")"
last=$(grep -c '"type":"iteration"' "$T/k.jsonl")
expect_exit 0 $MPI -n 3 "$SB" soak --resume "$T/k.jsonl" --iterations=$((last + 2))
n=$(check_logs "$T/k.jsonl" 3) || fail "logs after the kill: $n"
[ "$n" = $((last + 2)) ] || fail "$n iterations after the resume, expected $((last + 2))"
ok "a killed rank ends soak with a message (exit $rc); --resume goes on"

# 4b. --burst: every pause ends when every rank's does, so each burst
# starts on all ranks together; each rank's figures are its own (its
# pauses not timed), the aggregate's write the ranks' bytes over the span
# from the earliest start to the latest end less the pauses all shared.
# $2: the least pause every rank must have shared (a rank sleeps IDLE at
# each pause, then waits for the others)
check_burst() {
	python3 - "$1" "$2" <<'PY'
import json, sys
agg = [json.loads(l) for l in open(sys.argv[1])]
least = float(sys.argv[2])
it = [r for r in agg if r["type"] == "iteration"]
assert it, agg
for r in it:
    rs = r["ranks"]
    assert sorted(x["rank"] for x in rs) == [0, 1, 2], rs
    shared = r["write_shared_pause_s"]
    assert shared >= least, (shared, least)
    # the rank that wrote to the last pause paused in every shared one
    assert max(x["write_pause_s"] for x in rs) >= shared - 1e-5, (rs, shared)
    for x in rs:
        # the rank's own: its bytes over its write less its pauses
        t = x["write_end_s"] - x["write_start_s"] - x["write_pause_s"]
        want = x["write_bytes"] / t
        # (its write is timed inside; the pauses, far longer, are not)
        assert want / 2 <= x["write_bw_bytes"] <= want * 2, (x["rank"], x["write_bw_bytes"], want)
    b = sum(x["write_bytes"] for x in rs)
    span = max(x["write_end_s"] for x in rs) - min(x["write_start_s"] for x in rs) - shared
    # the times in the log are rounded to the microsecond
    lo, hi = b / (span + 4e-6), b / (span - 4e-6)
    assert lo <= r["write_bw_bytes"] <= hi, (r["write_bw_bytes"], lo, hi)
print(len(it))
PY
}
mkdir "$T/b"
expect_exit 0 $MPI -n 3 "$SB" soak --iterations=2 --size=2M --bs=128k --burst=512k,200ms \
	--log="$T/b.jsonl" "$T/b"
grep -q "soak: 2 iterations, 0 failed: PASS" "$T/out" || fail "burst: $(cat "$T/out" "$T/err")"
[ "$(grep -c "^       rank [0-2] on .*verify ok" "$T/out")" = 6 ] || fail "burst: no line per rank: $(cat "$T/out")"
[ "$(grep -c '"type":"iteration"' "$T/b.jsonl.rank-2")" = 2 ] || fail "burst: rank 2's log"
n=$(check_burst "$T/b.jsonl" 0.6) || fail "burst: $n"
[ "$n" = 2 ] || fail "burst: $n iterations, expected 2"
ok "--burst: each burst on every rank together, a rank's figures its own, the aggregate the sum"

# a rank with fewer bursts (a smaller region, mpirun's MPMD form) answers
# the others' pauses until their writes are over
mkdir "$T/b2"
expect_exit 0 $MPI -n 2 "$SB" soak --iterations=1 --size=2M --bs=128k --burst=512k,100ms \
	--log="$T/b2.jsonl" "$T/b2" : -n 1 "$SB" soak --iterations=1 --size=1M \
	--bs=128k --burst=512k,100ms --log="$T/b2.jsonl" "$T/b2"
n=$(check_burst "$T/b2.jsonl" 0.15) || fail "burst, uneven: $n"
ok "--burst: a rank with fewer bursts waits for the others"

# 5. rank 2's data comes back damaged: the soak fails, naming rank 2 (last:
# without FUSE the test skips here)
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
ff_rules "flip * 12288 4096"
expect_exit 1 $MPI -n 2 "$SB" soak --iterations=2 --size=2M --direct=0 --log="$T/f.jsonl" "$T/d" \
	: -n 1 "$SB" soak --iterations=2 --size=2M --direct=0 --log="$T/f.jsonl" "$FF_MNT"
grep -q "soak: 2 iterations, 2 failed: FAIL" "$T/out" || fail "verdict: $(cat "$T/out")"
grep -q "^       rank 2 on [^ ]*: .*verify FAILED" "$T/out" || fail "rank 2 not named: $(cat "$T/out")"
grep -q "^  rank 2 on [^ ]*: 2 failed iterations" "$T/out" || fail "no rank in the verdict: $(cat "$T/out")"
! grep -q "^       rank [01] on .*FAILED" "$T/out" || fail "a good rank failed: $(cat "$T/out")"
report_ranks "$T/f.jsonl" || fail "report of the failed soak, each rank"
expect_exit 0 "$SB" report --format=csv --table=soak_ranks -o "$T/f.csv" "$T/f.jsonl"
python3 - "$T/f.csv" <<'PY' || fail "rank 2's failure in the CSV: $(cat "$T/f.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 6, rows
assert all((r["failed"] == "1") == (r["rank"] == "2") for r in rows), rows
assert all((int(r["bad_blocks"]) > 0) == (r["rank"] == "2") for r in rows), rows
PY
ok "a rank whose data is damaged fails the soak, named (and in the report)"

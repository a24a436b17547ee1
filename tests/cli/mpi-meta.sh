# storbench meta (and bonnie) under mpirun -n 3 (a build with make MPI=1):
# every rank runs the tests in a directory of its own, each test starts on
# every rank once all ended the one before (a barrier), and rank 0 writes
# one result: per test the All clients aggregate (operations summed over
# the time from the earliest start to the latest end, latency from the
# merged histograms) with every rank's own figures; one rank refusing its
# target stops every rank before anything is made.
# needs: fuse mpi
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 240 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"
META="meta --size=2 --char-size=0 --seeks=100 --files=200 --quiet"

# 1. three ranks, one directory: one result, every test the ranks' sum
mkdir "$T/d"
expect_exit 0 $MPI -n 3 "$SB" $META --output="$T/m.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' directories were left: $(ls -A "$T/d")"
grep -q "^meta: All clients, 3 ranks" "$T/out" || fail "no aggregate heading: $(cat "$T/out")"
grep -q "^per rank" "$T/out" || fail "no per-rank table: $(cat "$T/out")"
[ "$(grep -c '^seq_create .* files/s' "$T/out")" = 4 ] ||
	fail "not the aggregate and a row per rank for seq_create: $(cat "$T/out")"
python3 - "$T/m.json" "$T/d" <<'PY' || fail "meta aggregate check"
import json, sys
d = json.load(open(sys.argv[1]))
top = sys.argv[2]
assert d["storbench"]["mpi"]["ranks"] == 3
m = d["storbench"]["meta"]
ranks = m["ranks"]
assert sorted(r["rank"] for r in ranks) == [0, 1, 2]
for r in ranks:
    # each rank worked in its own directory, and removed its run directory
    assert r["run_directory"].startswith("%s/storbench-rank-%d/.storbench-meta-" % (top, r["rank"])), r
    assert r["run_directory_removed"] is True
tests = ["write", "rewrite", "read", "seeks", "seq_create", "seq_stat", "seq_delete",
         "rand_create", "rand_stat", "rand_delete"]
assert sorted(m["tests"]) == sorted(tests), sorted(m["tests"])
prev_end = None
for t in tests:
    a = m["tests"][t]
    rt = [r["tests"][t] for r in ranks]
    assert a["ops"] == sum(x["ops"] for x in rt), (t, a["ops"])
    if t.endswith(("create", "stat", "delete")):
        assert a["ops"] == 600, (t, a["ops"])
    if t in ("write", "rewrite", "read"):
        assert a["bytes"] == sum(x["bytes"] for x in rt) == 3 * 2 * 2**20, (t, a["bytes"])
    # the time: from the earliest start to the latest end of any rank
    span = max(x["end_s"] for x in rt) - min(x["start_s"] for x in rt)
    assert min(x["start_s"] for x in rt) == 0, t
    assert abs(a["elapsed_ns"] / 1e9 - span) < 3e-6, (t, a["elapsed_ns"], span)
    key = "bw_bytes" if t in ("write", "rewrite", "read") else \
        "seeks_per_s" if t == "seeks" else "files_per_s"
    n = a["bytes"] if key == "bw_bytes" else a["ops"]
    assert abs(a[key] - n / (a["elapsed_ns"] / 1e9)) <= 1e-6 * a[key] + 1e-3, (t, a[key])
    # merged latency: N and the extremes exact, percentiles within the ranks'
    l = a["lat_ns"]
    assert l["N"] == a["ops"], (t, l["N"])
    assert l["min"] == min(x["lat_ns"]["min"] for x in rt), t
    assert l["max"] == max(x["lat_ns"]["max"] for x in rt), t
    for p, k in (("50.000000", "p50"), ("99.000000", "p99")):
        v = l["percentile"][p]
        lo = min(x["lat_ns"][k] for x in rt)
        hi = max(x["lat_ns"][k] for x in rt)
        assert lo * 0.99 - 1 <= v <= hi * 1.01 + 1, (t, p, v, lo, hi)
    # each test starts on every rank after the one before ended on every
    # rank (the barrier): a consequence of the agreement, not a timing
    k = m["skew"][t]
    start = k["first_start_s"]
    if prev_end is not None:
        assert start >= prev_end - 2e-3, (t, start, prev_end)
    prev_end = start + span
    # started together (loosely: a loaded machine of 2 CPUs, 3 ranks)
    assert k["start_spread_s"] < 2.0, (t, k["start_spread_s"])
# bonnie++'s CSV line: of the aggregate, the ranks its concurrent copies
csv = m["bonnie_csv"].split(",")
assert csv[3] == "3", csv[:5]
PY
ok "3 ranks: each test the ranks' sum over the span, merged latency, tests one after another"

expect_exit 0 "$SB" report "$T/m.json"
grep -q "All clients" "$T/out" || fail "report shows no aggregate: $(cat "$T/out")"
[ "$(grep -c '^seq_stat .* files/s' "$T/out")" = 4 ] || fail "report shows no per-rank rows: $(cat "$T/out")"
grep -q "^skew" "$T/out" || fail "report shows no skew: $(cat "$T/out")"
expect_exit 0 "$SB" report --output="$T/m.html" "$T/m.json"
grep -q "<h3>Meta: All clients" "$T/m.html" || fail "HTML has no aggregate"
grep -q "<h3>Skew</h3>" "$T/m.html" || fail "HTML has no skew"
[ "$(grep -o '<tr><td>seq_stat</td>' "$T/m.html" | wc -l)" = 5 ] ||
	fail "HTML: not the aggregate, the skew and 3 ranks for seq_stat"
ok "report (text and HTML) shows the aggregate, each rank and the skew"
# every format: each rank's figures and the skew in the CSV tables
# meta_ranks and meta_skew and the XLSX sheets "Meta ranks" and "Meta
# skew" equal the result's; the HTML's bars are each rank's rate against
# the median rank
expect_exit 0 "$SB" report --format=json -o "$T/m-a.json" "$T/m.json"
expect_exit 0 "$SB" report --format=csv --table=meta_ranks -o "$T/mr.csv" "$T/m.json"
expect_exit 0 "$SB" report --format=csv --table=meta_skew -o "$T/ms.csv" "$T/m.json"
xr= xs=
if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" report --format=xlsx -o "$T/m.xlsx" "$T/m.json"
	python3 "$(dirname "$0")/../tools/xlsx-sheet.py" "$T/m.xlsx" "Meta ranks" >"$T/mr-x.csv" ||
		fail "no Meta ranks sheet"
	python3 "$(dirname "$0")/../tools/xlsx-sheet.py" "$T/m.xlsx" "Meta skew" >"$T/ms-x.csv" ||
		fail "no Meta skew sheet"
	xr="$T/mr-x.csv" xs="$T/ms-x.csv"
fi
python3 - "$T/m.json" "$T/mr.csv" "$T/ms.csv" "$T/m.html" "$xr" "$xs" <<'PY' || fail "report of each rank"
import csv, json, re, sys
src, mr, ms, page, xr, xs = sys.argv[1:]
m = json.load(open(src))["storbench"]["meta"]
order = ["putc", "write", "rewrite", "getc", "read", "seeks", "seq_create", "seq_stat",
         "seq_delete", "rand_create", "rand_stat", "rand_delete"]
tests = [t for t in order if t in m["tests"]]
def rate(x):
    for k, u in (("bw_bytes", "bytes/s"), ("seeks_per_s", "seeks/s"), ("files_per_s", "files/s")):
        if k in x:
            return x[k], u
def same(a, b):
    return abs(a - b) <= 1e-9 * abs(b)
truth = [(t, r, r["tests"][t]) for t in tests for r in m["ranks"]]
rows = list(csv.DictReader(open(mr, newline="")))
assert len(rows) == len(truth) == 3 * len(tests), (len(rows), len(truth))
for row, (t, r, x) in zip(rows, truth):
    assert (row["test"], int(row["rank"]), row["host"]) == (t, r["rank"], r["hostname"]), row
    for col in ("ops", "bytes", "elapsed_ns", "cpu_ns"):
        assert int(row[col]) == x[col], (t, col, row[col], x[col])
    v, u = rate(x)
    assert same(float(row["rate"]), v) and row["rate_unit"] == u, (row, v, u)
    for col, k in (("lat_min_ns", "min"), ("lat_p50_ns", "p50"), ("lat_p99_ns", "p99"), ("lat_max_ns", "max")):
        assert same(float(row[col]), x["lat_ns"][k]), (t, col)
    assert same(float(row["start_s"]), x["start_s"]) and same(float(row["end_s"]), x["end_s"]), row
rows = list(csv.DictReader(open(ms, newline="")))
assert [r["test"] for r in rows] == tests, rows
for row in rows:
    k = m["skew"][row["test"]]
    for col in ("first_start_s", "start_spread_s", "end_spread_s", "span_s", "median_rate",
                "slowest_vs_median", "fastest_vs_median"):
        assert same(float(row[col]), k[col]), (row["test"], col, row[col], k[col])
    assert (int(row["slowest_rank"]), int(row["fastest_rank"])) == (k["slowest_rank"], k["fastest_rank"])
if xr:
    x = list(csv.reader(open(xr, newline="")))
    head = x[0]
    assert len(x) - 1 == len(truth), len(x)
    for r, (t, rk, y) in zip(x[1:], truth):
        v = dict(zip(head, r))
        assert (v["Test"], int(v["Rank"]), v["Host"]) == (t, rk["rank"], rk["hostname"]), v
        assert int(v["Operations"]) == y["ops"] and same(float(v["Rate"]), rate(y)[0]), v
        assert same(float(v["p99 (µs)"]) * 1e3, y["lat_ns"]["p99"]), v
    x = list(csv.reader(open(xs, newline="")))
    assert [r[1] for r in x[1:]] == tests, x
    for r in x[1:]:
        v = dict(zip(x[0], r))
        assert same(float(v["Start spread (s)"]), m["skew"][v["Test"]]["start_spread_s"]), v
        assert int(v["Slowest rank"]) == m["skew"][v["Test"]]["slowest_rank"], v
h = open(page).read()
assert 'id="meta-ranks-rate"' in h, "no bar chart of the ranks"
bars = re.findall(r"<title>(\w+) rank (\d+) \S+: ([\d.]+) %</title>", h)
assert len(bars) == 3 * len(tests), bars
for t, k, p in bars:
    x = [r for r in m["ranks"] if r["rank"] == int(k)][0]["tests"][t]
    want = 100 * rate(x)[0] / m["skew"][t]["median_rate"]
    assert abs(float(p) - want) <= 0.006 * want + 0.05, (t, k, p, want)
PY
ok "report: each rank and the skew in CSV and XLSX as in the result, the HTML's bars each rank's rate"

# 2. --per-rank-dir=0: every rank's run directory in TARGET itself
expect_exit 0 $MPI -n 3 "$SB" meta --size=0 --files=100 --quiet --per-rank-dir=0 \
	--output="$T/s.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "run directories were left: $(ls -A "$T/d")"
[ "$(json "$T/s.json" "len(set(r['run_directory'].rsplit('/', 1)[0] for r in d['storbench']['meta']['ranks']))")" = 1 ] ||
	fail "not one directory for all: $(json "$T/s.json" "[r['run_directory'] for r in d['storbench']['meta']['ranks']]")"
[ "$(json "$T/s.json" "d['storbench']['meta']['tests']['seq_create']['ops']")" = 300 ] ||
	fail "not 3 x 100 files created"
ok "--per-rank-dir=0: every rank's run directory in TARGET, 3 x 100 files"

# 3. rank 1 is given a file, not a directory: every rank stops, none made anything
echo data >"$T/file"
expect_exit 2 $MPI -n 1 "$SB" $META "$T/d" : -n 1 "$SB" $META "$T/file" : -n 1 "$SB" $META "$T/d"
grep -q "rank 1 on .*meta needs a directory" "$T/err" || fail "rank 1 did not say why: $(cat "$T/err")"
grep -q "rank 1 refused" "$T/err" || fail "rank 0 did not name rank 1: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "a rank made something though rank 1 refused: $(ls -A "$T/d")"
[ "$(cat "$T/file")" = data ] || fail "the file was changed"
ok "one rank refusing its target stops every rank before anything is made"

# 4. the ranks would run different tests: refused before anything is made
expect_exit 2 $MPI -n 2 "$SB" $META "$T/d" : -n 1 "$SB" $META --size=0 "$T/d"
grep -q "different tests" "$T/err" || fail "no message for different tests: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "made something: $(ls -A "$T/d")"
ok "ranks with different tests refused"

# 5. bonnie under mpirun: one CSV line, of the aggregate
expect_exit 0 $MPI -n 3 "$SB" bonnie -d "$T/d" -s 0 -n 1:0:0:1 -q
[ "$(grep -c '^1\.98,' "$T/out")" = 1 ] || fail "not one CSV line: $(cat "$T/out")"
[ "$(cut -d, -f4 "$T/out")" = 3 ] || fail "concurrency is not the 3 ranks: $(cat "$T/out")"
[ -z "$(ls -A "$T/d")" ] || fail "bonnie left: $(ls -A "$T/d")"
ok "bonnie under mpirun: one CSV line of the 3 ranks"

# 6. alone, the MPI build runs meta as before: no ranks in the result
expect_exit 0 "$SB" meta --size=0 --files=50 --quiet --output="$T/a.json" "$T/d"
[ "$(json "$T/a.json" "'ranks' in d['storbench']['meta'] or 'mpi' in d['storbench']")" = False ] ||
	fail "a plain run has ranks"
grep -q "^meta: run directory" "$T/out" || fail "plain text changed: $(cat "$T/out")"
ok "alone: meta as before"

# 7. rank 1's file system fills up in the write test: every rank stops at
# the next test, rank 0 names rank 1, no result is written, every run
# directory is removed (last: without FUSE the test skips here)
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
ff_rules "enospc * 1048576 1048576"
expect_exit 3 $MPI -n 1 "$SB" $META --output="$T/f.json" "$T/d" : -n 1 "$SB" $META "$FF_MNT" \
	: -n 1 "$SB" $META "$T/d"
grep -q "rank 1 on .*write failed.*No space left" "$T/err" || fail "rank 1 did not say why: $(cat "$T/err")"
grep -q "rank 0 on .*meta: rank 1 failed" "$T/err" || fail "rank 0 did not name rank 1: $(cat "$T/err")"
[ ! -e "$T/f.json" ] || fail "a result was written though rank 1 failed"
[ -z "$(ls -A "$T/d")" ] || fail "left in TARGET: $(ls -A "$T/d")"
[ -z "$(ls -A "$FF_MNT")" ] || fail "left on rank 1: $(ls -A "$FF_MNT")"
ok "a rank failing a test stops every rank, named, with no result"

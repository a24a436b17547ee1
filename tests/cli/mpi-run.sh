# storbench run under mpirun -n 4 (a build with make MPI=1): one result
# whose All clients figures are the ranks' sums and their histograms merged
# exactly, phases that start together, --stonewall, one rank's refusal
# stopping every rank before any I/O, a killed rank ending the job. The
# plain build refuses to run as one of many ranks.
# needs: mpi
. "$(dirname "$0")/../lib/cli.sh"

# the ranks' options are checked in every build
expect_exit 2 "$SB" run --per-rank-dir=2 --rw=read --size=1M "$T"
grep -q -- "--per-rank-dir.*0 or 1" "$T/err" || fail "bad --per-rank-dir: $(cat "$T/err")"
expect_exit 0 "$SB" run --stonewall --per-rank-dir=0 --rw=read --size=1M --quiet "$T"
ok "--per-rank-dir and --stonewall are checked, and harmless alone"

if ! "$SB" --version | grep -q '^mpi:'; then
	# the plain build launched by mpirun would run N separate jobs: refused
	OMPI_COMM_WORLD_SIZE=4 expect_exit 3 "$SB" run --rw=read --size=1M --quiet "$T"
	grep -q "built without MPI" "$T/err" || fail "no word of the missing MPI: $(cat "$T/err")"
	ok "the plain build refuses to be one of many ranks"
	skip "storbench built without MPI (make MPI=1): the mpirun tests need it"
fi
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

# 1. four ranks, one directory: a subdirectory each, one aggregated result
mkdir "$T/d"
expect_exit 0 $MPI -n 4 "$SB" run --rw=randread --bs=4k --size=4M --runtime=1s --time-based \
	--quiet --output="$T/r.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' directories were left: $(ls -A "$T/d")"
grep -q "All clients: 4 ranks" "$T/out" || fail "no aggregate in the text: $(cat "$T/out")"
[ "$(grep -c '^ *[0-3]  ' "$T/out")" -ge 4 ] || fail "no per-rank table: $(cat "$T/out")"
python3 - "$T/r.json" <<'PY' || fail "aggregate check"
import json, math, sys
d = json.load(open(sys.argv[1]))
cs = d["client_stats"]
ranks = [c for c in cs if c["jobname"] != "All clients"]
agg = [c for c in cs if c["jobname"] == "All clients"]
assert len(ranks) == 4 and len(agg) == 1, (len(ranks), len(agg))
assert sorted(c["rank"] for c in ranks) == [0, 1, 2, 3]
assert all(c["hostname"] for c in ranks)
a = agg[0]
job = d["jobs"][0]
assert d["storbench"]["mpi"]["ranks"] == 4
for k in ("io_bytes", "total_ios"):
    s = sum(c["read"][k] for c in ranks)
    assert a["read"][k] == s == job["read"][k], (k, a["read"][k], s)
assert a["read"]["clat_ns"]["N"] == sum(c["read"]["clat_ns"]["N"] for c in ranks)
# time from the earliest start to the latest end; bandwidth over it
st = [c["storbench"]["start_s"] for c in ranks]
en = [c["storbench"]["end_s"] for c in ranks]
span = max(en) - min(st)
# (the stamps are written to the microsecond)
assert abs(a["storbench"]["runtime_ns"] / 1e9 - span) < 3e-6, (a["storbench"]["runtime_ns"], span)
bw = a["read"]["io_bytes"] / span
assert abs(a["read"]["bw_bytes"] - bw) <= 1e-5 * bw, (a["read"]["bw_bytes"], bw)
# phases start together: the spread is small against the phase (1 s)
sk = a["storbench"]["skew"]
assert abs(sk["start_spread_s"] - (max(st) - min(st))) < 3e-6, sk
assert 0 <= sk["start_spread_s"] < 0.5, sk
# the merge, exact: the aggregate's buckets are the ranks' summed
bins = {}
for c in ranks:
    for lo, hi, n in c["storbench"]["clat_bins"]["read"]:
        bins[(lo, hi)] = bins.get((lo, hi), 0) + n
mine = {(lo, hi): n for lo, hi, n in a["storbench"]["clat_bins"]["read"]}
assert bins == mine, "merged buckets differ"
total = sum(bins.values())
lo_v, hi_v = a["read"]["clat_ns"]["min"], a["read"]["clat_ns"]["max"]
for key, v in a["read"]["clat_ns"]["percentile"].items():
    p = float(key)
    vals = [c["read"]["clat_ns"]["percentile"][key] for c in ranks]
    # between the ranks' own, to the histogram's resolution: a percentile
    # is its bucket's midpoint (within 1/128 of any value in the bucket,
    # lib/stats/hist.c) unless it is the exact min or max, so a rank's
    # p99.99 can be its exact max while the merge's is the bucket's midpoint
    r = 1 / 128
    assert min(vals) * (1 - r) <= v <= max(vals) * (1 + r), (p, v, vals)
    # by hand: the bucket of the sample of rank ceil(p/100 * N)
    want = max(1, math.ceil(p / 100 * total))
    seen = 0
    for (blo, bhi) in sorted(bins):
        seen += bins[(blo, bhi)]
        if seen >= want:
            break
    assert max(blo, lo_v) <= v <= min(bhi, hi_v), (p, v, blo, bhi)
PY
ok "4 ranks: sums, span, skew and the exact merge of histograms"

# report and compare read the aggregated result (its jobs: All clients)
expect_exit 0 "$SB" report "$T/r.json"
agg=$(json "$T/r.json" "d['jobs'][0]['read']['total_ios']")
grep -q "^job  *read" "$T/out" || fail "report shows no job: $(cat "$T/out")"
expect_exit 0 "$SB" report --output="$T/r.html" "$T/r.json"
grep -q "<h3>Ranks</h3>" "$T/r.html" || fail "no per-rank table in the HTML report"
[ "$(sed -n '/<h3>Ranks/,/<\/table>/p' "$T/r.html" | grep -c '^<tr><td>job</td>')" = 4 ] ||
	fail "the HTML per-rank table has not 4 rows"
# the per-rank bar chart: a bar a rank, each the rank's bandwidth
python3 - "$T/r.html" "$T/r.json" <<'PY' || fail "per-rank bar chart"
import json, re, sys
h = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
svg = re.search(r'<svg[^>]*id="ranks-bw".*?</svg>', h, re.S)
assert svg, "no chart of the ranks"
ranks = [c for c in d["client_stats"] if c["jobname"] != "All clients"]
for c in ranks:
    assert ">%d %s<" % (c["rank"], c["hostname"]) in svg.group(0), c["rank"]
assert svg.group(0).count("<rect") >= len(ranks)
PY
expect_exit 0 "$SB" compare "$T/r.json" "$T/r.json"
[ "$agg" -gt 0 ] || fail "no requests in the aggregate"
ok "report and compare read the aggregated result"

# 2. --stonewall: rank 0 is done after 2 MiB, the others would run 100 s
expect_exit 0 $MPI -n 1 "$SB" run --rw=read --bs=64k --size=2M --quiet --stonewall \
	--output="$T/s.json" "$T/d" : -n 3 "$SB" run --rw=read --bs=64k --size=2M \
	--runtime=100s --time-based --quiet --stonewall "$T/d"
python3 - "$T/s.json" <<'PY' || fail "stonewall"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["storbench"]["mpi"]["stonewall"] is True
ranks = [c for c in d["client_stats"] if c["jobname"] != "All clients"]
for c in ranks:
    rt = c["storbench"]["runtime_ns"] / 1e9
    assert rt < 50, ("rank %d ran %.1f s: not stopped" % (c["rank"], rt))
    assert c["read"]["io_bytes"] > 0, c["rank"]  # what each rank did is kept
    assert not c["storbench"]["interrupted"], c["rank"]
    if c["rank"] > 0:
        assert c["storbench"]["stonewalled"] is True, c["rank"]
    else:
        assert c["read"]["io_bytes"] == 2 << 20 and "stonewalled" not in c["storbench"]
assert not d["storbench"]["interrupted"]
PY
ok "--stonewall ends every rank when the first is done"

# --repeat: every run is the ranks' aggregate, the summary of the aggregates
expect_exit 0 $MPI -n 2 "$SB" run --rw=randread --bs=4k --size=4M --runtime=300ms \
	--time-based --repeat=3 --quiet --output="$T/rep.json" "$T/d"
python3 - "$T/rep.json" <<'PY' || fail "--repeat under mpirun"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
assert len(jobs) == 3 and len(d["client_stats"]) == 9, (len(jobs), len(d["client_stats"]))
for i, j in enumerate(jobs):
    cs = d["client_stats"][i * 3:i * 3 + 2]
    assert j["read"]["io_bytes"] == sum(c["read"]["io_bytes"] for c in cs) > 0
s = d["storbench"]["summary"]
assert len(s) == 1 and s[0]["runs"] == 3, s
want = statistics.median(j["read"]["bw_bytes"] for j in jobs)
assert abs(s[0]["bw_bytes_median"] - want) <= 1e-6 * want + 1, (s[0], want)
PY
ok "--repeat: each run aggregated, the median of the aggregates"

# 3. rank 2's target is a file storbench did not create: every rank stops,
# nothing is written anywhere
head -c 1048576 /dev/urandom >"$T/theirs.bin"
sum=$(md5sum <"$T/theirs.bin")
expect_exit 2 $MPI -n 2 "$SB" run --rw=write --size=1M --quiet "$T/d" \
	: -n 1 "$SB" run --rw=write --size=1M --quiet "$T/theirs.bin" \
	: -n 1 "$SB" run --rw=write --size=1M --quiet "$T/d"
grep -q "rank 2 on .*storbench did not create" "$T/err" || fail "rank 2 not named: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "a rank wrote though rank 2 refused: $(ls -A "$T/d")"
[ "$(md5sum <"$T/theirs.bin")" = "$sum" ] || fail "the refused file was changed"
ok "one rank's refusal stops all before any I/O"

# 4. the commands that do not coordinate their ranks yet are refused
expect_exit 2 $MPI -n 2 "$SB" latency --quiet "$T/d"
grep -q "latency: not yet under mpirun" "$T/err" || fail "latency not refused: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "latency wrote under mpirun: $(ls -A "$T/d")"
ok "latency under mpirun is refused, not run once per rank"

# 5. a rank killed mid-run ends the job, with a message, within the timeout
$MPI -n 4 "$SB" run --rw=randread --size=4M --runtime=100s --time-based --quiet "$T/d" \
	>"$T/kout" 2>"$T/kerr" &
job=$!
victim=
for _ in $(seq 100); do
	# this job's rank 1 (other storbench processes may run beside it)
	for p in $(pgrep -x storbench); do
		{ grep -q "$T/d" "/proc/$p/cmdline" &&
			tr '\0' '\n' <"/proc/$p/environ" | grep -qx "OMPI_COMM_WORLD_RANK=1" &&
			victim=$p; } 2>/dev/null
	done
	[ -n "$victim" ] && break
	sleep 0.1
done
[ -n "$victim" ] || { kill $job; fail "rank 1 never started"; }
sleep 1
kill -9 "$victim"
wait $job
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] || fail "the job exited $rc after rank 1 was killed"
grep -qi "rank 1" "$T/kerr" "$T/kout" || fail "no message naming rank 1: $(cat "$T/kerr")"
ok "a killed rank ends the job with a message (exit $rc)"

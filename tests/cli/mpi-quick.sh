# storbench quick under mpirun -n 3 (a build with make MPI=1): every rank
# runs the matrix in a directory of its own, each measurement starts on all
# ranks together, rank 0 writes one result whose every run is the All
# clients aggregate (its ranks in client_stats) and whose summary is read
# from those aggregates; one rank that may not write turns every rank to
# the read tests; a rank killed mid-way ends the job with a message.
# needs: mpi slow
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 180 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

# 1. three ranks, one directory: one result, every run aggregated
mkdir "$T/d"
expect_exit 0 $MPI -n 3 "$SB" quick --size=4M --runtime=200ms --repeat=2 --quiet \
	--output="$T/q.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' directories were left: $(ls -A "$T/d")"
grep -q "^per rank, MiB/s" "$T/out" || fail "no per-rank table: $(cat "$T/out")"
grep -q "rank 0  *rank 1  *rank 2" "$T/out" || fail "not a column per rank: $(cat "$T/out")"
[ "$(grep -c '^SEQ1M Q8T1 ' "$T/out")" = 4 ] || fail "no SEQ1M Q8T1 rows: $(cat "$T/out")"
python3 - "$T/q.json" <<'PY' || fail "quick aggregate check"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
# 4 tests x read and write x 2 runs (the warm-ups are not kept)
assert len(jobs) == 16, len(jobs)
assert d["storbench"]["mpi"]["ranks"] == 3
for j in jobs:
    assert "All clients" not in j["jobname"]
cs = d["client_stats"]
# every job: its 3 ranks and its All clients entry
assert len(cs) == 16 * 4, len(cs)
bw = {}
for i, j in enumerate(jobs):
    mine = cs[i * 4:(i + 1) * 4]
    ranks = [c for c in mine if c["jobname"] != "All clients"]
    agg = [c for c in mine if c["jobname"] == "All clients"]
    assert sorted(c["rank"] for c in ranks) == [0, 1, 2], [c["rank"] for c in ranks]
    assert len(agg) == 1
    ddir = "write" if "write" in j["jobname"] else "read"
    s = sum(c[ddir]["io_bytes"] for c in ranks)
    assert s > 0 and j[ddir]["io_bytes"] == s == agg[0][ddir]["io_bytes"], (j["jobname"], s)
    # time from the earliest start to the latest end, the bandwidth over it
    st = [c["storbench"]["start_s"] for c in ranks]
    en = [c["storbench"]["end_s"] for c in ranks]
    span = max(en) - min(st)
    assert abs(j["storbench"]["runtime_ns"] / 1e9 - span) < 3e-6, (j["jobname"], span)
    test = j["jobname"].split(" (run")[0]
    bw.setdefault(test, []).append(j[ddir]["bw_bytes"])
# the summary: medians of the aggregated runs
summ = d["storbench"]["summary"]
assert len(summ) == 8, len(summ)
for s in summ:
    runs = bw[s["test"] + " " + s["direction"]]
    assert s["runs"] == 2 == len(runs)
    want = statistics.median(runs)
    assert abs(s["bw_bytes_median"] - want) <= 1e-6 * want + 1, (s, runs)
    assert abs(s["bw_bytes_min"] - min(runs)) <= 1e-6 * min(runs) + 1, (s, runs)
PY
ok "3 ranks: one result, each run the sum of the ranks, the summary of the aggregates"

# compare and report read it
expect_exit 0 "$SB" compare "$T/q.json" "$T/q.json"
expect_exit 0 "$SB" report "$T/q.json"
ok "compare and report read the aggregated quick result"

# 2. rank 1's target is a file storbench did not create: it may only read,
# so no rank writes; the file is unchanged
head -c 4194304 /dev/urandom >"$T/theirs.bin"
sum=$(md5sum <"$T/theirs.bin")
expect_exit 0 $MPI -n 1 "$SB" quick --size=4M --runtime=200ms --repeat=1 --quiet \
	--output="$T/r.json" "$T/d" : -n 1 "$SB" quick --size=4M --runtime=200ms --repeat=1 \
	"$T/theirs.bin" : -n 1 "$SB" quick --size=4M --runtime=200ms --repeat=1 \
	--quiet "$T/d"
grep -q "rank 1 on .*did not create: read tests only" "$T/err" ||
	fail "rank 1 did not say why: $(cat "$T/err")"
[ "$(md5sum <"$T/theirs.bin")" = "$sum" ] || fail "the file storbench did not create was changed"
[ "$(json "$T/r.json" "sorted(set(s['direction'] for s in d['storbench']['summary']))")" = "['read']" ] ||
	fail "write tests ran on some rank: $(json "$T/r.json" "d['storbench']['summary']")"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' directories were left: $(ls -A "$T/d")"
ok "one rank that may only read: every rank reads only"

# 3. two targets are refused under mpirun (one result per rank set)
expect_exit 2 $MPI -n 2 "$SB" quick --size=4M --quiet "$T/d" "$T/d"
grep -q "under mpirun quick measures one TARGET" "$T/err" || fail "two targets: $(cat "$T/err")"

# 4. a rank killed mid-way ends the job with a message, in bounded time
$MPI -n 3 "$SB" quick --size=4M --runtime=2s --repeat=5 --quiet "$T/d" >"$T/kout" 2>"$T/kerr" &
job=$!
victim=
for _ in $(seq 100); do
	for p in $(pgrep -x storbench); do
		{ grep -q "$T/d" "/proc/$p/cmdline" &&
			tr '\0' '\n' <"/proc/$p/environ" | grep -qx "OMPI_COMM_WORLD_RANK=2" &&
			victim=$p; } 2>/dev/null
	done
	[ -n "$victim" ] && break
	sleep 0.1
done
[ -n "$victim" ] || { kill $job; fail "rank 2 never started"; }
sleep 1
kill -9 "$victim"
wait $job
rc=$?
[ $rc != 0 ] && [ $rc != 124 ] || fail "the job exited $rc after rank 2 was killed"
grep -qi "rank 2" "$T/kerr" "$T/kout" || fail "no message naming rank 2: $(cat "$T/kerr")"
ok "a killed rank ends quick with a message (exit $rc)"

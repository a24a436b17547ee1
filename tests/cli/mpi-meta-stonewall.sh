# storbench meta under mpirun -n 3 (a build with make MPI=1): rank 0's
# progress line shows the operations of every rank together, and with
# --stonewall each test ends on every rank when the first rank ends it.
# Each rank works on a faultfs mount of its own (a FUSE server each, so
# their waits do not add up), whose data requests wait as a rule says:
# every file has 4 KiB of data, so a create (its write) and a stat (its
# read) each wait once, a delete never.
# needs: fuse mpi slow
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 240 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

. "$(dirname "$0")/../lib/fuse.sh"
MPI_PID=
mounts_cleanup() {
	[ -z "$MPI_PID" ] || kill "$MPI_PID" 2>/dev/null
	for k in 0 1 2; do fuse_unmount "$T/m$k" "$(cat "$T/fpid$k" 2>/dev/null)"; done
	cleanup
}
trap mounts_cleanup EXIT INT TERM
# USEC each data request of rank K's mount waits
mount_rank() {
	mkdir -p "$T/b$1"
	if [ "$2" -gt 0 ]; then echo "delay * 0 1099511627776 $2"; else echo "# none"; fi >"$T/r$1"
	fuse_mount faultfs "$T/m$1" "$T/b$1" "$T/r$1" -o allow_other
	echo "$FUSE_PID" >"$T/fpid$1"
}
set_delay() {
	echo "delay * 0 1099511627776 $2" >"$T/r$1.new" && mv "$T/r$1.new" "$T/r$1"
}
mount_rank 0 0
mount_rank 1 0
mount_rank 2 250000

# 1. --stonewall: rank 2's every create and stat waits 250 ms, so 40 of
# them take it at least 10 s, while ranks 0 and 1 wait for nothing. Rank 2
# is stonewalled in the creates and stats: fewer operations than its 40,
# marked so, and its creates finished untimed (the stats and deletes after
# them find every file: exit 0). Every test's aggregate is the ranks' sum.
A="meta --size=0 --files=40 --file-size=4k --quiet --stonewall"
expect_exit 0 $MPI -n 1 "$SB" $A --output="$T/s.json" "$T/m0" : -n 1 "$SB" $A "$T/m1" \
	: -n 1 "$SB" $A "$T/m2"
grep -q "^seq_create .* 2 .* stonewalled$" "$T/out" ||
	fail "rank 2's seq_create row is not marked stonewalled: $(cat "$T/out")"
python3 - "$T/s.json" <<'PY' || fail "the stonewalled result: $(cat "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["storbench"]["mpi"]["stonewall"] is True, d["storbench"]["mpi"]
m = d["storbench"]["meta"]
assert m["stonewall"] is True and m["interrupted"] is False
ranks = sorted(m["ranks"], key=lambda r: r["rank"])
assert [r["rank"] for r in ranks] == [0, 1, 2]
for t, a in m["tests"].items():
    rt = [r["tests"][t] for r in ranks]
    # the aggregate: what every rank did, over the span of the test
    assert a["ops"] == sum(x["ops"] for x in rt), (t, a["ops"], [x["ops"] for x in rt])
    assert a["lat_ns"]["N"] == a["ops"], t
    assert a["stonewalled"] == any(x["stonewalled"] for x in rt), t
    span = max(x["end_s"] for x in rt) - min(x["start_s"] for x in rt)
    assert abs(a["elapsed_ns"] / 1e9 - span) < 3e-6, (t, a["elapsed_ns"], span)
    rate = a["ops"] / (a["elapsed_ns"] / 1e9)
    assert abs(a["files_per_s"] - rate) <= 1e-6 * rate + 1e-3, (t, a["files_per_s"], rate)
    for r, x in zip(ranks, rt):
        # a rank not stonewalled did all of its files; none did more
        assert x["ops"] == 40 or (x["stonewalled"] and x["ops"] < 40), (t, r["rank"], x)
        assert not x["interrupted"], (t, r["rank"])
for t in ("seq_create", "seq_stat", "rand_create", "rand_stat"):
    rt = [r["tests"][t] for r in ranks]
    assert rt[2]["stonewalled"] and rt[2]["ops"] < 40, (t, rt[2])
    # fewer than either other rank (one of them may be stonewalled by the
    # other, with most of its 40 done)
    assert rt[2]["ops"] < min(rt[0]["ops"], rt[1]["ops"]), (t, [x["ops"] for x in rt])
    # rank 2's time ended when it learnt of the first end, not after its 40
    assert rt[2]["elapsed_ns"] < 40 * 0.25e9, (t, rt[2]["elapsed_ns"])
PY
for k in 0 1 2; do
	[ -z "$(ls -A "$T/m$k")" ] || fail "rank $k left files: $(ls -AR "$T/m$k")"
done
ok "--stonewall: the slowed rank stonewalled with fewer operations, the aggregate their sum"

# 2. progress: rank 0's every create waits 1 s (it alone never passes 1
# file/s), ranks 1 and 2 wait 20 ms (700 files: at least 14 s, as rank 0's
# 14). A line on a stderr that is not a terminal comes every 10 s: the
# first one falls in seq_create, while all three create, and must show
# more than rank 0's own rate. Then rank 0 gets a Ctrl-C and every rank
# stops after that test.
set_delay 0 1000000
set_delay 1 20000
set_delay 2 20000
B="meta --size=0 --file-size=4k"
$MPI -n 1 sh -c 'echo $$ >"$0"; exec "$@"' "$T/pid0" "$SB" $B --files=14 \
	--output="$T/p.json" "$T/m0" : -n 1 "$SB" $B --files=700 "$T/m1" \
	: -n 1 "$SB" $B --files=700 "$T/m2" >"$T/out" 2>"$T/err" &
MPI_PID=$!
i=0
while ! grep -q ", 3 ranks: " "$T/err" && [ $i -lt 600 ]; do
	kill -0 "$MPI_PID" 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
kill -INT "$(cat "$T/pid0")" 2>/dev/null
wait "$MPI_PID"
rc=$?
MPI_PID=
[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "mpirun timed out: $(cat "$T/err")"
lines=$(grep -c ", 3 ranks: " "$T/err")
[ "$lines" -ge 1 ] || fail "no progress line of the 3 ranks: $(cat "$T/err")"
grep -q "meta test 1 of 6, seq_create, 3 ranks: " "$T/err" ||
	fail "the line does not name the test: $(cat "$T/err")"
python3 - "$T/err" "$T/p.json" <<'PY' || fail "the line's rate is not the ranks' together: $(cat "$T/err")"
import json, re, sys
mult = {"": 1, "k": 1e3, "M": 1e6}
rates = []
for l in open(sys.argv[1]):
    if ", 3 ranks: " in l:
        m = re.search(r"([0-9.]+)(k|M)? files/s", l)
        assert m, l
        rates.append(float(m.group(1)) * mult[m.group(2) or ""])
assert rates
# rank 0 alone creates at most 1 file/s; the three together far more
assert max(rates) > 3, rates
# and the result agrees: rank 0 made at most one file a second
d = json.load(open(sys.argv[2]))
m = d["storbench"]["meta"]
assert m["interrupted"] is True
r0 = [r for r in m["ranks"] if r["rank"] == 0][0]["tests"]["seq_create"]
assert r0["files_per_s"] <= 1.05, r0
PY
ok "rank 0's line shows the operations of the 3 ranks together"

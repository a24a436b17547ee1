# storbench run under mpirun (a build with make MPI=1): rank 0's progress
# line shows the rate of every rank together, not its own. Rank 0 is capped
# at 1 MiB/s and ranks 1 and 2 at 4 MiB/s each (--rate): a line of rank 0's
# own rate could never pass 1 MiB/s, the aggregate is near 9. The line of a
# stderr that is not a terminal comes every 10 s, so the run lasts 12 s.
# The other ranks draw nothing.
# needs: fuse mpi slow
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

mkdir "$T/d"
args="--rw=read --bs=64k --size=4M --runtime=12s --time-based"
expect_exit 0 $MPI -n 1 "$SB" run $args --rate=1M --output="$T/p.json" "$T/d" \
	: -n 2 "$SB" run $args --rate=4M "$T/d"
lines=$(grep -c ", 3 ranks: " "$T/err")
[ "$lines" -ge 1 ] || fail "no progress line of the 3 ranks: $(cat "$T/err")"
[ "$lines" -le 2 ] || fail "more than rank 0 drew a line: $(cat "$T/err")"
python3 - "$T/err" "$T/p.json" <<'PY' || fail "the line's rate is not the ranks' together: $(cat "$T/err")"
import json, re, sys
unit = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
rates = []
for l in open(sys.argv[1]):
    if ", 3 ranks: " in l:
        m = re.search(r"([0-9.]+) (B|KiB|MiB|GiB)/s", l)
        assert m, l
        rates.append(float(m.group(1)) * unit[m.group(2)])
assert rates
# rank 0 alone is capped at 1 MiB/s; the three together at 9 MiB/s
for r in rates:
    assert 2.5 * (1 << 20) < r < 10 * (1 << 20), rates
# and the result agrees: rank 0 read at most its cap
d = json.load(open(sys.argv[2]))
r0 = [c for c in d["client_stats"] if c.get("rank") == 0][0]
assert r0["read"]["bw_bytes"] <= 1.05 * (1 << 20), r0["read"]["bw_bytes"]
PY
ok "rank 0's line shows the rate of the 3 ranks together"

# a job file of two groups (two jobs at once, then one after a stonewall),
# each job bound by its bytes: rank 0's line counts the bytes of the three
# ranks (3 x 2 x 1 MiB, then 3 x 1 MiB), where its own would say 2 MiB and
# 1 MiB. Ranks 1 and 2 read at 64 KiB/s (a group of 16 s: a plain line
# every 10 s falls in each), rank 0 four times as fast.
printf '[global]\ndirectory=%s\nrw=read\nbs=16k\nsize=1M\n[a]\n[b]\n[c]\nstonewall\n' \
	"$T/d" >"$T/two.fio"
expect_exit 0 $MPI -n 1 "$SB" run --rate=256k "$T/two.fio" : -n 2 "$SB" run --rate=64k "$T/two.fio"
grep -q "2 jobs, 3 ranks: .* of 6.00 MiB " "$T/err" ||
	fail "no line of the first group's bytes on 3 ranks: $(cat "$T/err")"
grep -q "run group 2 of 2, c, 3 ranks: .* of 3.00 MiB " "$T/err" ||
	fail "no line of the second group's bytes on 3 ranks: $(cat "$T/err")"
ok "a job file: rank 0's line counts the bytes of the 3 ranks, group by group"

# soak under mpirun: rank 0's line shows the bytes and the rate of the three
# ranks together. Each rank soaks its own faultfs mount whose every request
# waits 50 ms (a FUSE server each: their waits do not add up), so no rank
# passes 64 KiB / 50 ms = 1.25 MiB/s and the three run side by side: the
# line's rate is above 1.5 times rank 0's own (its log's), and not above
# the ranks' summed. 16 MiB each: a phase of about 13 s, a plain line
# every 10 s.
. "$(dirname "$0")/../lib/fuse.sh"
mounts_cleanup() {
	for k in 0 1 2; do fuse_unmount "$T/m$k" "$(cat "$T/pid$k" 2>/dev/null)"; done
	cleanup
}
trap mounts_cleanup EXIT INT TERM
for k in 0 1 2; do
	mkdir -p "$T/b$k"
	echo "delay * 0 1099511627776 50000" >"$T/r$k"
	fuse_mount faultfs "$T/m$k" "$T/b$k" "$T/r$k" -o allow_other
	echo "$FUSE_PID" >"$T/pid$k"
done
sargs="--iterations=1 --size=16M --bs=64k --iodepth=1 --direct=0 --log=$T/p.jsonl"
expect_exit 0 $MPI -n 1 "$SB" soak $sargs "$T/m0" : -n 1 "$SB" soak $sargs "$T/m1" \
	: -n 1 "$SB" soak $sargs "$T/m2"
grep -q "soak iteration 1 of 1, \(write\|check\), 3 ranks: " "$T/err" ||
	fail "no soak line of the 3 ranks: $(cat "$T/err")"
python3 - "$T/err" "$T/p.jsonl" <<'PY' || fail "the soak line is not the ranks' together: $(cat "$T/err")"
import json, re, sys
unit = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
it = [json.loads(l) for l in open(sys.argv[2]) if '"type":"iteration"' in l][0]
own = [r for r in it["ranks"] if r["rank"] == 0][0]
key = {"write": "write_bw_bytes", "check": "read_bw_bytes"}
seen = 0
for l in open(sys.argv[1]):
    m = re.search(r"soak iteration 1 of 1, (write|check), 3 ranks: .*? ([0-9.]+) (B|KiB|MiB|GiB)/s", l)
    if not m:
        continue
    rate = float(m.group(2)) * unit[m.group(3)]
    mine = own[key[m.group(1)]]
    total = sum(r[key[m.group(1)]] for r in it["ranks"])
    # the sizes of the three: the line counts 48 MiB
    assert " of 48.0 MiB " in l or " of 48 MiB " in l, l
    assert mine < 1.3 * (1 << 20), mine
    assert rate > 1.5 * mine, (l, mine)
    assert rate < 1.3 * total, (l, total)
    seen += 1
assert seen, "no line with a rate"
PY
ok "soak: rank 0's line shows the rate of the 3 ranks together"

# storbench verify on the same mounts: rank 0's line of each phase counts
# the 3 x 16 MiB of the three ranks
vargs="--size=16M --bs=64k --iodepth=1 --direct=0"
expect_exit 0 $MPI -n 1 "$SB" verify $vargs "$T/m0" : -n 1 "$SB" verify $vargs "$T/m1" \
	: -n 1 "$SB" verify $vargs "$T/m2"
grep -q "verify \(write\|check\), 3 ranks: .* of 48.0 MiB " "$T/err" ||
	fail "no verify line of the 3 ranks: $(cat "$T/err")"
ok "verify: rank 0's line counts the 3 ranks' bytes"

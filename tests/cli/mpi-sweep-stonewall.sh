# storbench sweep under mpirun -n 3 (a build with make MPI=1), each rank
# needs: fuse mpi slow
# slowed on purpose by a faultfs mount of its own whose requests wait (a
# FUSE server each, direct I/O: no page cache between the rank and the
# wait):
#
# 1. rank 0's progress line is every rank's together: it counts the sweep
#    of the three (96 MiB: 4 write tests of an 8 MiB file, 3 ranks) and,
#    once the three are past a third of it, more done than rank 0's whole
#    sweep (32 MiB), which rank 0 alone could never show. No rate or time
#    is compared: each rank's requests wait 50 ms only to make the sweep
#    long enough for the plain line of a stderr that is not a terminal,
#    which comes every 10 s: once the three are past a third (a third into
#    the second pass), 2 2/3 passes of 128 requests of 50 ms or more remain
#    (17 s), however loaded the machine.
# 2. --stonewall: ranks 0 and 1 on plain directories, rank 2 on a mount
#    whose requests wait 200 ms (its full pass: 32 x 200 ms = 6.4 s):
#    each pass ends on rank 2 when the first rank ends it, so rank 2 moves
#    fewer bytes than its share, marked stonewalled; the aggregate is the
#    sum of what the ranks moved over the span; its read after a write cut
#    short finds its file laid out anew (untimed) rather than short.
# 3. --stonewall given to some ranks only is refused.
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 180 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

. "$(dirname "$0")/../lib/fuse.sh"
mounts_cleanup() {
	for k in 0 1 2 s; do fuse_unmount "$T/m$k" "$(cat "$T/pid$k" 2>/dev/null)"; done
	cleanup
}
trap mounts_cleanup EXIT INT TERM
# mount NAME USEC: a faultfs mount $T/mNAME whose every request waits USEC
mount_slow() {
	mkdir -p "$T/b$1"
	echo "delay * 0 1099511627776 $2" >"$T/r$1"
	fuse_mount faultfs "$T/m$1" "$T/b$1" "$T/r$1" -o allow_other
	echo "$FUSE_PID" >"$T/pid$1"
}

# 3 first (cheap): --stonewall on rank 0 only
mkdir "$T/x"
expect_exit 2 $MPI -n 1 "$SB" sweep --file-sizes=64k --record-sizes=64k --tests=write \
	--stonewall --quiet "$T/x" : -n 1 "$SB" sweep --file-sizes=64k --record-sizes=64k \
	--tests=write --quiet "$T/x"
grep -q -- "--stonewall: given to some ranks only" "$T/err" || fail "not refused: $(cat "$T/err")"
[ -z "$(ls -A "$T/x")" ] || fail "a rank made something: $(ls -A "$T/x")"
ok "--stonewall on some ranks only is refused, nothing made"

# 1. the progress line of the three
for k in 0 1 2; do mount_slow "$k" 50000; done
pargs="--file-sizes=8M --record-sizes=64k --tests=write,rewrite,randwrite,recrewrite --no-flush"
expect_exit 0 $MPI -n 1 "$SB" sweep $pargs --output="$T/p.json" "$T/m0" \
	: -n 1 "$SB" sweep $pargs "$T/m1" : -n 1 "$SB" sweep $pargs "$T/m2"
lines=$(grep -c ", 3 ranks: " "$T/err")
[ "$lines" -ge 1 ] || fail "no progress line of the 3 ranks: $(cat "$T/err")"
python3 - "$T/err" "$T/p.json" <<'PY' || fail "the line is not the ranks' together: $(cat "$T/err")"
import json, re, sys
unit = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
size = lambda n, u: float(n) * unit[u]
d = json.load(open(sys.argv[2]))
assert d["storbench"]["mpi"]["ranks"] == 3
mine = 4 * (8 << 20)  # rank 0's whole sweep
over = 0
for l in open(sys.argv[1]):
    if ", 3 ranks: " not in l:
        continue
    assert l.startswith("sweep cell 1 of 1, "), l
    m = re.search(r"ranks: [0-9]+% ([0-9.]+) (B|KiB|MiB|GiB) of ([0-9.]+) (B|KiB|MiB|GiB) "
                  r"[0-9.]+ (B|KiB|MiB|GiB)/s  elapsed ", l)
    assert m, l
    done, total = size(m[1], m[2]), size(m[3], m[4])
    # the sweep of the three: 4 tests x 8 MiB x 3 ranks
    assert total == 3 * mine, l
    assert done <= total, l
    over += done > mine
assert over, "no line with more done than rank 0's whole sweep"
PY
ok "rank 0's line counts the bytes of the 3 ranks together, with their rate"
for k in 0 1 2; do fuse_unmount "$T/m$k" "$(cat "$T/pid$k")"; rm -f "$T/pid$k"; done

# 2. --stonewall with a slow rank 2
mount_slow s 200000
mkdir "$T/fast"
sargs="--file-sizes=2M --record-sizes=64k --tests=write,read --warm --no-flush --stonewall --quiet"
expect_exit 0 $MPI -n 2 "$SB" sweep $sargs --output="$T/s.json" "$T/fast" \
	: -n 1 "$SB" sweep $sargs "$T/ms"
[ -z "$(ls -A "$T/fast")" ] || fail "the ranks' directories were left: $(ls -A "$T/fast")"
grep -q "^All clients of 3 ranks: .*--stonewall: each pass ended on every rank" "$T/out" ||
	fail "no stonewall in the conditions: $(cat "$T/out")"
grep -q "^rank 2 on .*: 2 of 2 passes ended early by --stonewall" "$T/out" ||
	fail "rank 2's passes not said to end early: $(cat "$T/out")"
python3 - "$T/s.json" <<'PY' || fail "stonewalled sweep check: $(cat "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
sb = d["storbench"]
assert sb["mpi"]["ranks"] == 3 and sb["mpi"]["stonewall"] is True, sb["mpi"]
s = sb["sweep"]
assert s["stonewall"] is True
assert s["cells_done"] == s["cells_planned"] == 1
full = 2 << 20
ranks = s["ranks"]
assert [r["rank"] for r in ranks] == [0, 1, 2]
assert ranks[2]["stonewalled_passes"] == 2, ranks[2]["stonewalled_passes"]
for ti, t in enumerate(s["tests"]):
    mine = [r["tests"][ti] for r in ranks]
    b = [m["bytes"][0][0] for m in mine]
    early = [m["stonewalled"][0][0] for m in mine]
    # rank 2 ended early with fewer bytes than its share, whole records
    assert early[2] is True and b[2] < full, (t["test"], b, early)
    assert all(x % 65536 == 0 and x <= full for x in b), b
    # a rank marked stonewalled moved less than its share; the others all
    # of it, the first to finish among them
    assert all((x < full) == e for x, e in zip(b, early)), (b, early)
    assert not all(early), early
    # each rank's own figure: its bytes over its own time
    for m, x in zip(mine, b):
        ns = m["elapsed_ns"][0][0]
        assert m["kib_per_s"][0][0] == int(x * 1e9 / ns) >> 10, (m, x)
    # the aggregate: what the ranks did, summed, over the span
    assert t["bytes"][0][0] == sum(b), (t["bytes"][0][0], b)
    assert t["stonewalled"][0][0] is True
    st = [m["start_s"][0][0] for m in mine]
    en = [m["end_s"][0][0] for m in mine]
    ns = t["elapsed_ns"][0][0]
    assert abs(ns / 1e9 - (max(en) - min(st))) < 3e-6, (ns, st, en)
    assert t["kib_per_s"][0][0] == int(sum(b) * 1e9 / ns) >> 10
PY
ok "--stonewall: rank 2 ends each pass early with fewer bytes, the aggregate their sum"

# storbench verify under mpirun -n 3 (a build with make MPI=1): every rank
# fills and checks a directory of its own, rank 0 writes one result whose
# counts are the ranks' summed and which names each rank's part; blocks
# damaged on one rank's target between --phase=write and --phase=check are
# found on that rank alone; one rank refusing its target stops every rank
# before any write.
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

# 1. write and check on 3 ranks: 8 MiB each, 2048 blocks of 4 KiB
mkdir "$T/d"
expect_exit 0 $MPI -n 3 "$SB" verify --size=8M --quiet --output="$T/v.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' files were left: $(ls -A "$T/d")"
grep -q "result: all 6144 blocks intact" "$T/out" || fail "not the sum of 3 ranks: $(cat "$T/out")"
[ "$(grep -c "^  rank [0-2] on .*2048 blocks checked, 0 not intact" "$T/out")" = 3 ] ||
	fail "no line per rank: $(cat "$T/out")"
python3 - "$T/v.json" <<'PY' || fail "verify aggregate check"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["storbench"]["verify"] if "verify" in d["storbench"] else d["verify"]
rs = v["ranks"]
assert sorted(r["rank"] for r in rs) == [0, 1, 2]
assert len(set(r["path"] for r in rs)) == 3, [r["path"] for r in rs]  # a directory each
assert all(r["blocks_checked"] == 2048 and r["intact"] == 2048 for r in rs), rs
assert v["blocks_checked"] == 6144 == sum(r["blocks_checked"] for r in rs)
assert v["intact"] == 6144 and v["result"] == "pass", v["result"]
assert v["write"]["bytes"] == 3 * 8 << 20 == sum(r["bytes_written"] for r in rs)
# the phases as jobs: the All clients figures of the write and the check
names = [j["jobname"] for j in d["jobs"]]
assert names == ["verify write", "verify check"], names
cs = d["client_stats"]
assert len(cs) == 8, len(cs)
assert d["jobs"][0]["write"]["io_bytes"] == sum(c["write"]["io_bytes"] for c in cs[0:3])
assert d["jobs"][1]["read"]["io_bytes"] == sum(c["read"]["io_bytes"] for c in cs[4:7]) == 3 * 8 << 20
PY
ok "3 ranks: a directory each, the counts summed, a part per rank"

# 2. write, damage rank 1's data, check: only rank 1 finds bad blocks
expect_exit 0 $MPI -n 3 "$SB" verify --phase=write --size=8M --quiet "$T/d"
seed=$(sed -n 's/.*--seed=\([0-9]*\).*/\1/p' "$T/out")
[ -n "$seed" ] || fail "no seed to check with: $(cat "$T/out")"
f=$(find "$T/d/storbench-rank-1" -type f | head -n 1)
[ -n "$f" ] || fail "rank 1 wrote no file: $(find "$T/d")"
# 16 blocks of 4 KiB at 1 MiB: zeros
dd if=/dev/zero of="$f" bs=4096 seek=256 count=16 conv=notrunc status=none
expect_exit 1 $MPI -n 3 "$SB" verify --phase=check --seed="$seed" --size=8M --quiet \
	--output="$T/c.json" "$T/d"
grep -q "result: FAILED, 16 of 6144 blocks not intact" "$T/out" || fail "check: $(cat "$T/out")"
python3 - "$T/c.json" <<'PY' || fail "damaged rank check"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["storbench"]["verify"] if "verify" in d["storbench"] else d["verify"]
bad = {r["rank"]: r["blocks_checked"] - r["intact"] for r in v["ranks"]}
assert bad == {0: 0, 1: 16, 2: 0}, bad
r1 = [r for r in v["ranks"] if r["rank"] == 1][0]
assert len(r1["bad_ranges"]) == 1 and r1["bad_ranges"][0]["offset"] == 1 << 20, r1["bad_ranges"]
assert r1["bad_ranges"][0]["length"] == 16 * 4096
assert v["result"] == "fail"
PY
rm -rf "$T/d"/storbench-rank-*
ok "blocks damaged on rank 1 are found on rank 1 alone"

# 3. rank 2's target is a file storbench did not create: nobody writes
head -c 1048576 /dev/urandom >"$T/theirs.bin"
sum=$(md5sum <"$T/theirs.bin")
expect_exit 2 $MPI -n 2 "$SB" verify --size=1M --quiet "$T/d" \
	: -n 1 "$SB" verify --size=1M --quiet "$T/theirs.bin"
grep -q "rank 2 on " "$T/err" || fail "rank 2 not named: $(cat "$T/err")"
[ -z "$(find "$T/d" -type f)" ] || fail "a rank wrote though rank 2 refused: $(find "$T/d")"
[ "$(md5sum <"$T/theirs.bin")" = "$sum" ] || fail "the refused file was changed"
ok "one rank's refusal stops every rank before any write"

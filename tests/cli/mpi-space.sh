# Free space under mpirun -n 3 (a build with make MPI=1): three ranks on
# one host whose directories are on one small tmpfs. Each rank's files fit
# alone but not the three together: refused before any rank writes, with
# nothing made and a message naming the filesystem and the ranks; files
# that fit together run. run (the check every options run, quick and job
# file goes through), soak and meta each.
# needs: root mpi
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
[ "$(id -u)" = 0 ] || skip "needs root to mount a tmpfs"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 180 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

mkdir "$T/small" || fail "mkdir"
mount -t tmpfs -o size=8m tmpfs "$T/small" 2>/dev/null || skip "cannot mount a tmpfs"
trap 'unmount "$T/small"; cleanup' EXIT INT TERM

# refused CMD...: exit 3, the filesystem and the three ranks named, nothing
# left on it
refused() {
	expect_exit 3 $MPI -n 3 "$@"
	grep -q "not enough space on $T/small .*ranks 0, 1 and 2 need" "$T/err" ||
		fail "$1: no message naming the filesystem and the ranks: $(cat "$T/err")"
	[ -z "$(ls -A "$T/small")" ] || fail "$1: refused, yet it left: $(ls -A "$T/small")"
}

# 1. run: 3 MiB a rank (8 MiB free): each fits, the three do not
"$SB" run --rw=write --bs=1M --size=3M -o "$T/alone.json" "$T/small" >"$T/out" 2>&1 ||
	fail "one rank alone: $(cat "$T/out")"
refused "$SB" run --rw=write --bs=1M --size=3M -o "$T/r.json" "$T/small"
[ ! -e "$T/r.json" ] || fail "run: a result written"
ok "run: 3 ranks x 3 MiB on a tmpfs of 8 MiB refused, nothing written"
expect_exit 0 $MPI -n 3 "$SB" run --rw=write --bs=1M --size=2M -o "$T/r.json" "$T/small"
[ "$(json "$T/r.json" 'd["jobs"][0]["write"]["io_bytes"]')" = $((3 * 2 << 20)) ] ||
	fail "run: not the three ranks' bytes"
[ -z "$(ls -A "$T/small")" ] || fail "run: left $(ls -A "$T/small")"
ok "run: 3 ranks x 2 MiB fit together and run"

# 2. soak: the region of each rank's every iteration
refused "$SB" soak --iterations=1 --size=3M --log="$T/s.jsonl" "$T/small"
[ ! -e "$T/s.jsonl" ] && [ ! -e "$T/s.jsonl.rank-0" ] || fail "soak: a log written"
ok "soak: refused, nothing written"
expect_exit 0 $MPI -n 3 "$SB" soak --iterations=1 --size=2M --log="$T/s2.jsonl" "$T/small"
ok "soak: 2 MiB a rank runs"

# 3. meta: its file tests' file
refused "$SB" meta --size=3M --files=0 --quiet "$T/small"
ok "meta: refused, nothing written"

# 4. verify and sweep: each rank's file
refused "$SB" verify --size=3M --quiet "$T/small"
ok "verify: refused, nothing written"
refused "$SB" sweep --tests=write --file-sizes=3M --record-sizes=1M "$T/small"
ok "sweep: refused, nothing written"

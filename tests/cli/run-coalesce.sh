# Completion coalescing: io_uring on a target it hands to kernel workers
# (no non-blocking I/O: tmpfs, zram) waits for completions in batches of at
# most 30 us, says so, and still moves every byte once; asked for a batch
# size, or on a target that completes asynchronously (a loop device), it
# waits as told.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^engines:.*io_uring' || skip "io_uring not built in"
"$SB" run --engine=io_uring --rw=read --size=64k --quiet "$T/probe" 2>/dev/null ||
	skip "io_uring not usable here"

# cond FILE KEY: a field of the first job's conditions
cond() { json "$1" "d['jobs'][0]['storbench']['conditions']['$2']"; }

[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm (tmpfs)"
S=$(mktemp -d /dev/shm/sb-cli.XXXXXX) || skip "cannot create a directory in /dev/shm"
trap 'rm -rf "$S"; cleanup' EXIT INT TERM

expect_exit 0 "$SB" run --engine=io_uring --rw=randread --bs=4k --size=16M --iodepth=32 \
	--output="$T/auto.json" "$S/f"
[ "$(cond "$T/auto.json" completion_batch)" = auto ] || fail "auto not recorded"
[ "$(cond "$T/auto.json" completion_settle_ns)" = 30000 ] ||
	fail "tmpfs: no coalescing (settle $(cond "$T/auto.json" completion_settle_ns))"
[ "$(json "$T/auto.json" "d['jobs'][0]['read']['io_bytes']")" = 16777216 ] ||
	fail "coalesced: not every byte read once"
# tmpfs answers from memory: completions come far faster than one per 30 us
cpw=$(json "$T/auto.json" "d['jobs'][0]['storbench']['completions_per_wait']")
python3 -c "import sys; sys.exit(0 if 1 < float(sys.argv[1]) <= 32 else 1)" "$cpw" ||
	fail "completions per wait $cpw"
[ "$(json "$T/auto.json" "d['jobs'][0]['storbench']['batched_waits'] > 0")" = True ] ||
	fail "no wait asked for more than one completion"
grep -q "reaped in batches" "$T/err" || fail "no note of the batches on stderr"
json "$T/auto.json" "d['storbench']['warnings']" | grep -q "reaped in batches" ||
	fail "no note of the batches in the results"
ok "tmpfs: completions coalesced ($cpw per wait), every byte read once"

# writes too, and the queue drains at the end
expect_exit 0 "$SB" run --engine=io_uring --rw=randwrite --bs=4k --size=8M --iodepth=32 \
	--quiet --output="$T/w.json" "$S/w"
[ "$(json "$T/w.json" "d['jobs'][0]['write']['io_bytes']")" = 8388608 ] ||
	fail "coalesced writes: bytes"
ok "tmpfs: coalesced writes move every byte"

expect_exit 0 "$SB" run --engine=io_uring --rw=randread --bs=4k --size=16M --iodepth=32 \
	--iodepth-batch-complete=1 --output="$T/one.json" "$S/f"
[ "$(cond "$T/one.json" completion_batch)" = 1 ] || fail "batch 1 not recorded"
[ "$(cond "$T/one.json" completion_settle_ns)" = 0 ] || fail "batch 1 still coalesced"
[ "$(json "$T/one.json" "d['jobs'][0]['storbench']['batched_waits']")" = 0 ] ||
	fail "batch 1: waits for more than one"
grep -q "reaped in batches" "$T/err" && fail "batch 1: batches reported"
ok "--iodepth-batch-complete=1 turns coalescing off"

if [ "$(id -u)" = 0 ]; then
	dev=$(make_loop 32)
	expect_exit 0 "$SB" run --engine=io_uring --rw=randread --bs=4k --iodepth=32 \
		--quiet --output="$T/loop.json" "$dev"
	[ "$(cond "$T/loop.json" completion_settle_ns)" = 0 ] ||
		fail "loop device (non-blocking I/O) coalesced"
	[ "$(json "$T/loop.json" "d['jobs'][0]['read']['io_bytes']")" = 33554432 ] ||
		fail "loop device: bytes"
	ok "loop device: one completion per wait, as fio"
fi

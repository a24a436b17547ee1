# The benchmarks touch only devices they made (issue 29, item 14): no
# script of bench/ names a device node (nor a zram device's sysfs files)
# other than /dev/null, /dev/zero and /dev/urandom; a device comes from
# zram-control's hot_add and is reset and removed at exit.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

BENCH="$(cd "$(dirname "$0")/../.." && pwd)/bench"
[ -d "$BENCH" ] || skip "no bench/ beside tests/"
found=$(grep -nE '/dev/[a-z]|/sys/block/[a-z]' "$BENCH"/* 2>/dev/null |
	grep -vE '/dev/(null|zero|urandom)\b|/sys/block/%s/' || true)
[ -z "$found" ] || fail "bench/ names a device it did not make: $found"
grep -q 'hot_add' "$BENCH/vs-fio" || fail "bench/vs-fio makes no zram device of its own"
grep -q 'hot_remove' "$BENCH/vs-fio" || fail "bench/vs-fio does not remove its zram device"
ok "bench/ names no device it did not make"

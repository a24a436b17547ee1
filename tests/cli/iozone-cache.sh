# storbench iozone keeps the page cache as iozone does: its read tests read
# what the write test left in memory, so the device under the file system
# gives (almost) nothing to them, by its /sys/block/X/stat, as under the
# real iozone (where installed) on the same line; --drop-cache, before the
# iozone options, drops it before each read test: the first read comes from
# the device. -I bypasses the cache either way. No timing.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

z=$(make_zram 256M) || skip "no zram device"
n=${z#/dev/}
mkfs.ext4 -q -F "$z" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
mkdir "$T/m"
mount "$z" "$T/m" || skip "cannot mount ext4 on $z"
trap 'unmount "$T/m"; cleanup' EXIT INT TERM

sectors() { awk '{print $3}' "/sys/block/$n/stat"; }
# a 16 MiB file written then read twice: 32768 sectors a cold read
line="-s 16m -r 1m -i 0 -i 1 -f $T/m/iozone.tmp"
# sectors read by CMD... (its stdout in $T/out)
reads() {
	b=$(sectors)
	"$@" >"$T/out" 2>"$T/err" || { cat "$T/out" "$T/err"; fail "'$*' failed"; }
	echo $(($(sectors) - b))
}

# the fewest sectors of up to 3 runs of CMD...: another test's drop of the
# whole page cache (drop_caches, as root) between a write and a read may
# empty it once, not three times
fewest() {
	best=
	for i in 1 2 3; do
		n=$(reads "$@") || exit 1
		[ -z "$best" ] || [ "$n" -lt "$best" ] && best=$n
		[ "$best" -lt 8192 ] && break
	done
	echo "$best"
}
# shellcheck disable=SC2086 # the iozone line is words
ours=$(fewest "$SB" iozone $line) || fail "storbench iozone failed"
grep -q 'page cache kept as iozone keeps it' "$T/out" || { cat "$T/out"; fail "the header says the cache is kept"; }
[ "$ours" -lt 8192 ] ||
	fail "storbench iozone read $ours sectors from the device for reads of a 16 MiB file it just wrote (iozone reads them from the page cache)"
if command -v iozone >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	theirs=$(fewest iozone $line) || fail "iozone failed"
	[ "$theirs" -lt 8192 ] || fail "iozone itself read $theirs sectors: the premise does not hold here"
	echo "sectors read: storbench iozone $ours, iozone $theirs"
fi
ok "without --drop-cache, the read tests read the cache, as iozone's: $ours sectors from the device"

# shellcheck disable=SC2086
cold=$(reads "$SB" iozone --drop-cache --output="$T/c.json" $line)
[ "$cold" -ge 32768 ] || fail "--drop-cache: $cold sectors read from the device, a 16 MiB file is 32768"
grep -q 'page cache dropped before each read test (--drop-cache)' "$T/out" || { cat "$T/out"; fail "the header names --drop-cache"; }
json "$T/c.json" "d['storbench']['sweep']['cache']" | grep -q '^dropped' || fail "--drop-cache: the results say dropped"
ok "--drop-cache: the first read from the device ($cold sectors)"

expect_exit 2 "$SB" iozone --drop-cache=1 $line
grep -q -- '--drop-cache: takes no value' "$T/err" || fail "--drop-cache=1"
expect_exit 2 "$SB" iozone $line -U "$T/m"
grep -q -- '--drop-cache' "$T/err" || { cat "$T/err"; fail "-U's refusal names --drop-cache"; }
ok "--drop-cache takes no value; -U's refusal names it"

# storbench latency's hdparm presets measure what hdparm -t and -T measure,
# on a zram device of the test's own: the device's cache flushed before
# (BLKFLSBUF, the device's pages only: every byte timed comes from the
# device, by its /sys/block/X/stat), sync and hdparm's idle first, flushed
# again after (the next reader starts cold, as after hdparm), and hdparm's
# layout ("/dev/X:", " Timing buffered disk reads: ...") line for line with
# the real hdparm's, digits masked, where hdparm is installed. No timing.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

z=$(make_zram 64M) || skip "no zram device"
n=${z#/dev/}
dd if=/dev/urandom of="$z" bs=1M count=64 status=none || fail "fill $z"
sectors() { awk '{print $3}' "/sys/block/$n/stat"; }
warm() { dd if="$z" of=/dev/null bs=1M status=none; }

# the whole device in the page cache, then the preset: every 2 MiB it
# timed read from the device, and the cache flushed after it
warm
before=$(sectors)
expect_exit 0 "$SB" latency --preset=hdparm --settle=0 --output="$T/h.json" "$z"
read_now=$(($(sectors) - before))
reqs=$(json "$T/h.json" "d['storbench']['latency']['requests']")
[ "$reqs" -ge 1 ] && [ "$reqs" -le 32 ] || fail "hdparm -t on 64 MiB: $reqs reads of 2 MiB"
[ "$read_now" -ge $((reqs * 4096)) ] ||
	fail "cache not flushed before: $read_now sectors read from the device for $reqs reads of 2 MiB"
[ "$(json "$T/h.json" "d['storbench']['latency']['cache']")" = BLKFLSBUF ] ||
	fail "the device's own flush named: $(json "$T/h.json" "d['storbench']['latency']['cache']")"
[ "$(json "$T/h.json" "d['storbench']['latency']['hdparm']['cache_after']")" = BLKFLSBUF ] ||
	fail "the flush after named"
before=$(sectors)
warm
[ $(($(sectors) - before)) -ge 131072 ] || fail "cache left warm after the hdparm preset (hdparm flushes it)"
grep -q 'cache dropped before (BLKFLSBUF), cache dropped after (BLKFLSBUF)$' "$T/out" ||
	{ cat "$T/out"; fail "the conditions line names both flushes"; }
ok "hdparm -t: the device's cache flushed before and after, every byte from the device"

# -T: the first 2 MiB read once, flushed, then read from the cache
expect_exit 0 "$SB" latency --preset=hdparm-cache --settle=0 --runtime=100ms --output="$T/c.json" "$z"
[ "$(json "$T/c.json" "d['storbench']['latency']['cache']")" = BLKFLSBUF ] || fail "-T: BLKFLSBUF"
ok "hdparm -T: the device's own flush"

# the settle: sync and hdparm's 3 s (-t) and 1 s (-T) idle, in the results
[ "$(json "$T/h.json" "d['storbench']['latency']['hdparm']['settle_ns']")" = 0 ] || fail "--settle=0"
expect_exit 0 "$SB" latency --preset=hdparm --settle=10ms --output="$T/s.json" "$z"
[ "$(json "$T/s.json" "d['storbench']['latency']['hdparm']['settle_ns']")" = 10000000 ] || fail "--settle=10ms"
expect_exit 2 "$SB" latency --preset=hdparm --settle=soon "$z"
ok "--settle: hdparm's idle before the timing, in the results"

# hdparm's layout: a blank line, "DEV:", the Timing line with one space
# before it; -T's three spaces after the colon
mask() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +N/ N/g; s/kB\/sec/MB\/sec/'; }
expect_exit 0 "$SB" latency --preset=hdparm --settle=0 "$z"
head -3 "$T/out" >"$T/ours"
printf '\n%s:\n' "$z" >"$T/dev-line"
head -2 "$T/ours" | cmp -s - "$T/dev-line" || { cat -A "$T/ours"; fail "hdparm's device line"; }
grep -qx ' Timing buffered disk reads: [ 0-9]* MB in [ 0-9.]* seconds = [ 0-9.]* [Mk]B/sec' "$T/ours" ||
	{ cat -A "$T/ours"; fail "hdparm's Timing line"; }
expect_exit 0 "$SB" latency --preset=hdparm-cache --settle=0 --runtime=100ms "$z"
head -3 "$T/out" >"$T/ours-T"
grep -qx ' Timing cached reads:   [ 0-9]* MB in [ 0-9.]* seconds = [ 0-9.]* [Mk]B/sec' "$T/ours-T" ||
	{ cat -A "$T/ours-T"; fail "hdparm -T's Timing line"; }
if command -v hdparm >/dev/null 2>&1; then
	hdparm -t "$z" >"$T/theirs" 2>&1 || fail "hdparm -t $z"
	[ "$(mask <"$T/ours")" = "$(mask <"$T/theirs")" ] ||
		{ cat -A "$T/ours" "$T/theirs"; fail "hdparm -t's layout differs"; }
	hdparm -T "$z" >"$T/theirs-T" 2>&1 || fail "hdparm -T $z"
	[ "$(mask <"$T/ours-T")" = "$(mask <"$T/theirs-T")" ] ||
		{ cat -A "$T/ours-T" "$T/theirs-T"; fail "hdparm -T's layout differs"; }
	ok "hdparm's layout, digits masked, as hdparm 9.65 prints it"
else
	ok "hdparm's layout (hdparm not installed: its output not compared)"
fi

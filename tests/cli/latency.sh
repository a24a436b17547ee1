# storbench latency: ioping's probe on a directory (a test file created and
# removed), a file, /dev/zram0 (read only) and a loop device; --count and
# --flood; the dd-sync and hdparm presets with the write consent rules;
# Ctrl-C leaves valid partial results; bad options change nothing.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

d="$T/dir"
mkdir "$d"

# a directory: one line per request, the warm-up out of the statistics
expect_exit 0 "$SB" latency --count=5 --interval=10ms --output="$T/d.json" "$d"
[ "$(grep -c 'request=' "$T/out")" = 5 ] || { cat "$T/out"; fail "5 request lines"; }
grep -q 'request=1 .*(warmup)' "$T/out" || fail "warm-up not marked"
grep -q '^4 requests completed' "$T/out" || fail "ioping's completed line"
grep -q '^generated 5 requests' "$T/out" || fail "ioping's generated line"
grep -q '^min/avg/max/mdev = ' "$T/out" || fail "min/avg/max/mdev line"
[ -z "$(ls -A "$d")" ] || fail "test file left in the directory: $(ls -A "$d")"
[ "$(json "$T/d.json" "d['storbench']['latency']['requests']")" = 5 ] || fail "requests"
[ "$(json "$T/d.json" "d['storbench']['latency']['valid']")" = 4 ] || fail "valid"
[ "$(json "$T/d.json" "d['storbench']['latency']['log'][0]['warmup']")" = True ] || fail "log"
[ "$(json "$T/d.json" "d['jobs'][0]['read']['total_ios']")" = 4 ] || fail "total_ios"
[ "$(json "$T/d.json" "d['storbench']['latency']['region_size']")" = 1048576 ] || fail "1 MiB"
json "$T/d.json" "all(r['offset'] % 4096 == 0 and r['offset'] < 1048576 for r in d['storbench']['latency']['log'])" |
	grep -q True || fail "offsets not aligned inside the working set"
json "$T/d.json" "abs(d['storbench']['latency']['avg_ns'] * 4 - d['storbench']['latency']['time_ns']) < 4" |
	grep -q True || fail "avg is not time / valid"
ok "directory: --count, warm-up, statistics, test file removed"

# a file of ours is never changed by reads; --flood, --quiet, JSON on stdout
f="$T/user.bin"
dd if=/dev/urandom of="$f" bs=1M count=4 status=none
sum=$(md5sum <"$f")
"$SB" latency --flood --count=50 --bs=8k --quiet --format=json "$f" >"$T/f.json" 2>"$T/err" ||
	{ cat "$T/err"; fail "flood on a file"; }
[ "$(json "$T/f.json" "d['storbench']['latency']['valid']")" = 49 ] || fail "flood: valid"
[ "$(json "$T/f.json" "d['storbench']['latency']['interval_ns']")" = 0 ] || fail "flood: interval"
json "$T/f.json" "all(r['offset'] % 8192 == 0 and r['offset'] < 4194304 for r in d['storbench']['latency']['log'])" |
	grep -q True || fail "file offsets"
[ "$(md5sum <"$f")" = "$sum" ] || fail "reading changed the file"
ok "file: --flood --count=50 --bs=8k, JSON on stdout"

# writes: refused on a file storbench did not create, allowed with consent
"$SB" latency --write --count=3 --flood "$f" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "write to a user file not refused"
grep -q -- "--destroy-data" "$T/err" || fail "refusal does not name --destroy-data"
[ "$(md5sum <"$f")" = "$sum" ] || fail "refused write changed the file"
expect_exit 0 "$SB" latency --write --count=20 --flood --destroy-data --output="$T/w.json" "$f"
[ "$(json "$T/w.json" "d['storbench']['latency']['dsync']")" = True ] || fail "O_DSYNC"
[ "$(json "$T/w.json" "d['jobs'][0]['write']['total_ios']")" = 19 ] || fail "write ios"
[ "$(md5sum <"$f")" != "$sum" ] || fail "consented writes did not write"
ok "write consent on an existing file"

# dd-sync on a directory: dd's three lines, 512-byte direct dsync writes
expect_exit 0 "$SB" latency --preset=dd-sync --count=40 --output="$T/dd.json" "$d"
grep -q '^40+0 records out$' "$T/out" || { cat "$T/out"; fail "dd records line"; }
grep -q '^20480 bytes (20 kB, 20 KiB) copied, .* s, .*B/s$' "$T/out" || { cat "$T/out"; fail "dd summary line"; }
[ "$(json "$T/dd.json" "d['storbench']['latency']['request_size']")" = 512 ] || fail "dd bs"
[ "$(json "$T/dd.json" "d['storbench']['latency']['valid']")" = 40 ] || fail "dd: no warm-up"
[ "$(json "$T/dd.json" "d['storbench']['latency']['pattern']")" = sequential ] || fail "dd pattern"
[ -z "$(ls -A "$d")" ] || fail "dd-sync left a file"
"$SB" latency --preset=dd-sync --count=10 "$f" >/dev/null 2>&1
[ $? = 2 ] || fail "dd-sync on a user file not refused"
ok "dd-sync preset"

# zram: read only (other tests may read it too)
if [ "$(id -u)" = 0 ] && [ -b /dev/zram0 ] && [ "$(cat /sys/block/zram0/disksize 2>/dev/null)" != 0 ]; then
	expect_exit 0 "$SB" latency --count=4 --flood --output="$T/z.json" /dev/zram0
	[ "$(json "$T/z.json" "d['storbench']['target']['kind']")" = "block device" ] || fail "zram kind"
	[ "$(json "$T/z.json" "d['storbench']['latency']['valid']")" = 3 ] || fail "zram valid"
	grep -q '<<< /dev/zram0 (block device' "$T/out" || fail "zram request line"
	"$SB" latency --write --count=3 /dev/zram0 >/dev/null 2>"$T/err"
	[ $? = 2 ] || fail "write to zram without consent not refused"
	ok "/dev/zram0 read, write refused"
fi

# a loop device: reads, refused and consented writes inside the region
if [ "$(id -u)" = 0 ]; then
	loop=$(make_loop 16)
	dd if=/dev/urandom of="$loop" bs=1M count=16 oflag=direct status=none
	sum=$(md5sum <"$loop")
	expect_exit 0 "$SB" latency --count=6 --flood "$loop"
	"$SB" latency --write --count=3 --flood "$loop" >/dev/null 2>&1
	[ $? = 2 ] || fail "loop: write without --destroy-data not refused"
	[ "$(md5sum <"$loop")" = "$sum" ] || fail "loop changed without consent"
	head=$(dd if="$loop" bs=1M count=4 status=none | md5sum)
	tail=$(dd if="$loop" bs=1M skip=8 status=none | md5sum)
	expect_exit 0 "$SB" latency --write --flood --count=200 --offset=4M --size=4M --destroy-data "$loop"
	[ "$(dd if="$loop" bs=1M count=4 status=none | md5sum)" = "$head" ] || fail "wrote before --offset"
	[ "$(dd if="$loop" bs=1M skip=8 status=none | md5sum)" = "$tail" ] || fail "wrote past --size"
	ok "loop device: reads, write consent, region kept"

	expect_exit 0 "$SB" latency --preset=hdparm --settle=0 --output="$T/h.json" "$loop"
	grep -q '^ Timing buffered disk reads: .* MB in .* seconds = .*/sec$' "$T/out" || { cat "$T/out"; fail "hdparm line"; }
	n=$(json "$T/h.json" "d['storbench']['latency']['requests']")
	[ "$n" -ge 1 ] && [ "$n" -le 8 ] || fail "hdparm: $n reads of 2 MiB on 16 MiB"
	[ "$(json "$T/h.json" "d['storbench']['latency']['direct']")" = False ] || fail "hdparm buffered"
	expect_exit 0 "$SB" latency --preset=hdparm --settle=0 --direct "$loop"
	grep -q '^ Timing O_DIRECT disk reads: ' "$T/out" || fail "hdparm --direct line"
	expect_exit 0 "$SB" latency --preset=hdparm-cache --settle=0 --runtime=200ms "$loop"
	grep -q '^ Timing cached reads:   ' "$T/out" || fail "hdparm -T line"
	ok "hdparm presets on a loop device"
fi

# Ctrl-C: valid partial results, exit 130, no test file left
"$SB" latency --interval=20ms --output="$T/i.json" "$d" >"$T/iout" 2>&1 &
pid=$!
# once a request past the warmup has its line (each is flushed), not after
# a fixed sleep: a loaded machine may not have reached the first one by then
wait_until 60 sh -c "grep 'request=' \"\$1\" | grep -qv warmup" sh "$T/iout" ||
	{ kill $pid; cat "$T/iout"; fail "Ctrl-C: no request line in 60 s"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/iout"; fail "Ctrl-C exit $rc"; }
[ "$(json "$T/i.json" "d['storbench']['latency']['interrupted']")" = True ] || fail "not marked"
[ "$(json "$T/i.json" "d['storbench']['latency']['valid'] >= 1")" = True ] || fail "no requests"
grep -q 'ioping statistics' "$T/iout" || fail "no summary after Ctrl-C"
[ -z "$(ls -A "$d")" ] || fail "Ctrl-C left a file"
ok "Ctrl-C"

# bad options: exit 2, one line naming the option, nothing created
for args in "--bs=4q" "--bs=0" "--count=0" "--count=x" "--interval=soon" "--preset=nope" \
	"--flood --interval=1s" "--direct --buffered" "--preset=hdparm --write" \
	"--preset=hdparm-cache --write" "--warmup=-1" "--size=1k" "--offset=4k" "--format=xml" \
	"--runtime=0" "--nosuch" "--output="; do
	# shellcheck disable=SC2086
	"$SB" latency $args --count=2 "$d" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || { cat "$T/err"; fail "latency $args: exit $rc"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "latency $args: not one line"; }
	grep -q '^storbench: --' "$T/err" || { cat "$T/err"; fail "latency $args: does not name the option"; }
	[ -z "$(ls -A "$d")" ] || fail "latency $args created something"
done
expect_exit 2 "$SB" latency
expect_exit 2 "$SB" latency "$d" "$d"
expect_exit 2 "$SB" latency --count=2 /dev/null
expect_exit 3 "$SB" latency --count=2 "$T/missing-dir/x"
ok "bad options refused"

# a request size a preset chose is named as the preset's, not as a --bs
# the user never typed (issue 26, item 18)
head -c $((1 << 20)) /dev/zero >"$T/small.bin"
expect_exit 2 "$SB" latency --preset=hdparm "$T/small.bin"
grep -q -- "^storbench: --bs (2.00 MiB, from --preset=hdparm): a request (2.00 MiB) is larger than the region of the file it may use (1.00 MiB from offset 0 B)$" "$T/err" ||
	{ cat "$T/err"; fail "hdparm preset on a 1 MiB file"; }
ok "a preset's request size is named as the preset's"

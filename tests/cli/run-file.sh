# run on a new file: created at --size, every byte read once, removed after;
# --keep keeps it; JSON is fio-shaped.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

f="$T/new.bin"
expect_exit 0 "$SB" run --rw=randread --bs=4k --size=8M --quiet --output="$T/r.json" "$f"
[ -e "$f" ] && fail "created file was not removed"
[ "$(json "$T/r.json" "d['jobs'][0]['read']['io_bytes']")" = 8388608 ] || fail "read bytes != size"
[ "$(json "$T/r.json" "d['jobs'][0]['read']['total_ios']")" = 2048 ] || fail "ios != 2048"
[ "$(json "$T/r.json" "d['jobs'][0]['job options']['rw']")" = randread ] || fail "job options"
[ "$(json "$T/r.json" "d['jobs'][0]['read']['clat_ns']['N']")" = 2048 ] || fail "clat N"
json "$T/r.json" "d['jobs'][0]['read']['clat_ns']['percentile']['99.000000'] > 0" | grep -q True ||
	fail "p99 missing"
[ "$(json "$T/r.json" "d['storbench']['target']['created']")" = True ] || fail "created flag"
ok "randread of a new file"

expect_exit 0 "$SB" run --rw=write --bs=64k --size=4M --keep --quiet --end-fsync=1 \
	--output="$T/w.json" "$f"
[ -f "$f" ] || fail "--keep did not keep the file"
[ "$(stat -c %s "$f")" = 4194304 ] || fail "kept file has the wrong size"
[ "$(json "$T/w.json" "d['jobs'][0]['write']['io_bytes']")" = 4194304 ] || fail "write bytes"
[ "$(json "$T/w.json" "d['jobs'][0]['sync']['total_ios']")" = 1 ] || fail "end fsync not counted"
ok "write with --keep and --end-fsync"

# the kept file is ours: writing to it again needs no consent
expect_exit 0 "$SB" run --rw=randrw --rwmixread=70 --bs=4k --quiet --output="$T/m.json" "$f"
r=$(json "$T/m.json" "d['jobs'][0]['read']['io_bytes']")
w=$(json "$T/m.json" "d['jobs'][0]['write']['io_bytes']")
[ $((r + w)) = 4194304 ] || fail "randrw moved $r + $w bytes, expected 4 MiB"
within_pct "$r" $((4194304 * 70 / 100)) 10 || fail "rwmixread 70: read share off ($r)"
ok "randrw over our kept file"

# time based with a ramp: a time series with one entry per interval
expect_exit 0 "$SB" run --rw=randread --size=8M --runtime=2s --time-based --ramp=500ms \
	--log-interval=500ms --quiet --output="$T/t.json" "$T/tb.bin"
n=$(json "$T/t.json" "len(d['jobs'][0]['storbench']['series'])")
[ "$n" -ge 3 ] && [ "$n" -le 5 ] || fail "expected about 4 intervals, got $n"
rt=$(json "$T/t.json" "d['jobs'][0]['read']['runtime']")
[ "$rt" -ge 1900 ] && [ "$rt" -le 2600 ] || fail "runtime $rt ms, expected about 2000"
ok "time based run with ramp and series"

# a request larger than the region it may use: said so, not blamed on an
# --offset nobody gave (direct) or "cannot start job" (buffered)
head -c $((1 << 20)) /dev/zero >"$T/small.bin"
for d in 1 0; do
	expect_exit 2 "$SB" run --rw=read --bs=4M --direct=$d --destroy-data "$T/small.bin"
	grep -q -- "^storbench: --bs: a request (4.00 MiB) is larger than the region of the file it may use (1.00 MiB from offset 0 B)$" "$T/err" ||
		{ cat "$T/err"; fail "--bs=4M --direct=$d on a 1 MiB file"; }
done
expect_exit 2 "$SB" run --rw=read --bs=1M --offset=700k --destroy-data "$T/small.bin"
grep -q -- "--bs: a request (1.00 MiB) is larger than the region of the file it may use (324 KiB from offset 700 KiB)" "$T/err" ||
	{ cat "$T/err"; fail "--offset=700k --bs=1M"; }
ok "a request larger than its region is named as --bs, with the region"

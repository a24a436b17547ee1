# cliff on a RAM block device (a zram device of the test's own), which has
# no write cache: no drop is claimed, the report says "no drop over 128 MiB"
# (in the unit of every other size, not "0.12 GiB")
# over enough bins for the change-point analysis to have looked, and the
# fill ends where --size ends. --rate holds RAM to 64 MiB/s, so that the
# fill lasts 2 s or more: enough samples for the analysis to look at.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

zr=$(make_zram 256M) || skip "$(echo "$zr" | tail -n 1)"
expect_exit 0 "$SB" cliff --destroy-data --quiet --rate=64M --size=128M \
	--output="$T/z.json" "$zr"
c() { json "$T/z.json" "d['storbench']['cliff']$1"; }
[ "$(c "['found']")" = False ] || fail "a drop claimed on RAM: $(cat "$T/out")"
[ "$(c "['cache_bytes']")" = None ] || fail "cache_bytes without a drop"
grep -q "no drop over 128 MiB:" "$T/out" || fail "no 'no drop over 128 MiB' line: $(cat "$T/out")"
# the report says the size in the unit it prints every other size in
expect_exit 0 "$SB" report "$T/z.json"
grep -q "^  no drop over 128 MiB (" "$T/out" || fail "report: no 'no drop over 128 MiB': $(cat "$T/out")"
expect_exit 0 "$SB" report -o "$T/z.html" "$T/z.json"
grep -q "<td>no drop over 128 MiB</td>" "$T/z.html" || fail "HTML: no 'no drop over 128 MiB': $(grep -o 'no drop[^<]*' "$T/z.html")"
[ "$(c "['stop_reason']")" = "region end" ] || fail "stopped by $(c "['stop_reason']"), expected region end (--size bounds the region)"
[ "$(c "['bytes_written']")" = 134217728 ] || fail "wrote $(c "['bytes_written']") bytes, --size was 128M"
n=$(c "['series']['bw_bytes'].__len__()")
[ "$n" -ge 10 ] || fail "only $n bins: too few for the analysis to have looked"
ok "no drop over 128 MiB in $n bins"

# Ctrl-C: the fill stops, the results written so far say so, exit 130.
# The signal goes once the fill has written to the device (its sectors
# written, /sys/block/NAME/stat field 7), not after a fixed sleep: on a
# loaded machine storbench may not even have set its handler by then.
written() { awk '{ print $7 }' "/sys/block/${zr##*/}/stat"; }
w0=$(written)
"$SB" cliff --destroy-data --quiet --rate=16M --size=128M --output="$T/i.json" "$zr" \
	>"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ "$(written)" = "$w0" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(written)" != "$w0" ] || { kill $pid; cat "$T/err"; fail "the fill never wrote to $zr"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "interrupted cliff exited $rc: $(cat "$T/err")"
[ "$(json "$T/i.json" "d['storbench']['cliff']['stop_reason']")" = interrupted ] || fail "stop reason"
[ "$(json "$T/i.json" "d['storbench']['cliff']['interrupted']")" = True ] || fail "not marked interrupted"
ok "interrupted"

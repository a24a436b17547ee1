# verify through faultfs (tests/fixtures/faultfs.c): faults injected while
# writing (a dropped write, a misdirected write, a write whose old data
# keeps being read) and while reading (a flipped bit, EIO) are each named
# with their class at their offset; EIO on a write is reported with its
# offset and errno, counts no bytes as written and says what failed; a delay
# changes nothing. Skips where FUSE is not usable
# (verify-file.sh covers the same classes by damaging files directly).
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start

K=4096
M=$FF_MNT
F=data.bin
# what is left in the mount: a file removed while still open shows as
# .fuse_hidden* until FUSE has released it (a moment after the close)
left() { sleep 0.2; ls -A "$M" | grep -v '^\.fuse_hidden'; }
v() { json "$T/r.json" "d['storbench']['verify']$1"; }
range() { # INDEX OFFSET LENGTH CLASS
	got=$(v "['bad_ranges'][$1]")
	echo "$got" | grep -q "'offset': $2, 'length': $3, 'class': '$4'" || fail "range $1: $got"
}

expect_exit 0 "$SB" verify --phase=write --size=4M --seed=11 --quiet "$M/$F"
[ -f "$FF_BACK/$F" ] || fail "no file written through the mount"
ff_rules "drop $F $((16 * K)) $((2 * K))" \
	"misdirect $F $((256 * K)) $K $((-128 * K))" \
	"stale $F $((512 * K)) $K"
expect_exit 0 "$SB" verify --phase=write --size=4M --seed=11 --generation=2 --quiet "$M/$F"
ff_rules "stale $F $((512 * K)) $K" "flip $F $((100 * K + 7)) 1" \
	"eio $F $((300 * K)) $((3 * K)) read"
expect_exit 1 "$SB" verify --phase=check --size=4M --generation=2 --quiet --output="$T/r.json" "$M/$F"
range 0 $((16 * K)) $((2 * K)) stale
range 1 $((100 * K)) $K corrupted
range 2 $((128 * K)) $K misplaced
[ "$(v "['bad_ranges'][2]['expected_offset']")" = $((256 * K)) ] || fail "misplaced: where it belongs"
range 3 $((256 * K)) $K stale
range 4 $((300 * K)) $((3 * K)) unreadable
[ "$(v "['bad_ranges'][4]['errno']")" = 5 ] || fail "unreadable errno"
range 5 $((512 * K)) $K stale
[ "$(v "['bad_ranges'][5]['generation']")" = 1 ] || fail "stale generation"
for k in "intact 1015" "stale 4" "corrupted 1" "misplaced 1" "unreadable 3" "foreign 0"; do
	set -- $k
	[ "$(v "['$1']")" = "$2" ] || fail "$1: $(v "['$1']"), want $2"
done
ok "drop, misdirect, stale, flip and EIO each found at its offset"

# without the rules the read-side faults are gone; what the writes lost stays lost
ff_rules
expect_exit 1 "$SB" verify --phase=check --size=4M --generation=2 --quiet --output="$T/r.json" "$M/$F"
[ "$(v "['stale']")" = 3 ] && [ "$(v "['misplaced']")" = 1 ] && [ "$(v "['corrupted']")" = 0 ] ||
	fail "after the rules: $(v "")"
ok "lost writes stay lost, read faults go with their rules"

# EIO on a write: reported with its offset and errno, exit 1; the block is
# not counted as written, and the result says what failed
ff_rules "eio w.bin $((8 * K)) $K write"
expect_exit 1 "$SB" verify --phase=write --size=1M --seed=3 --output="$T/r.json" "$M/w.bin"
[ "$(v "['write']['errors']")" = 1 ] || fail "write errors: $(v "['write']")"
[ "$(v "['write']['first_error_offset']")" = $((8 * K)) ] || fail "write error offset"
[ "$(v "['write']['first_errno']")" = 5 ] || fail "write errno"
[ "$(v "['write']['bytes']")" = $((1024 * 1024 - K)) ] || fail "bytes written: $(v "['write']")"
grep -q "write errors: 1 block not written, the first at 32.0 KiB (32768).*Input/output error" \
	"$T/out" || fail "text: $(cat "$T/out")"
grep -q "result: FAILED, 1 block not written (the first at 32.0 KiB (32768): Input/output error)" \
	"$T/out" || fail "result line: $(cat "$T/out")"
ok "a write error is reported with offset and errno, and not as bytes written"

# delays slow requests down and change nothing else
rm -f "$M/$F" "$M/w.bin"
ff_rules "delay * 0 $((256 * K)) 2000"
expect_exit 0 "$SB" verify --size=2M --quiet "$M"
[ -z "$(left)" ] || fail "the file of --phase=both was left behind: $(left)"
ok "delayed requests: all intact"

# Ctrl-C: the phase stops, the results say so, the files of --phase=both go
ff_rules "delay * 0 1073741824 20000"
"$SB" verify --size=64M --quiet --output="$T/r.json" "$M" >"$T/out" 2>"$T/err" &
pid=$!
# once its file is in the mount (each request then takes 20 ms: 64M cannot
# end first), not after a fixed sleep
# (and has its handler set: it makes the file first)
wait_until 60 has_entries "$M" && wait_until 60 handles_int $pid ||
	{ kill $pid; cat "$T/err"; fail "Ctrl-C: verify made no file or set no handler in 60 s"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "Ctrl-C: exit $rc: $(cat "$T/err")"
[ "$(v "['result']")" = interrupted ] || fail "result: $(v "['result']")"
[ "$(json "$T/r.json" "d['storbench']['interrupted']")" = True ] || fail "interrupted flag"
[ -z "$(left)" ] || fail "the file of --phase=both was left behind after Ctrl-C: $(left)"
ok "Ctrl-C stops, reports and cleans up"

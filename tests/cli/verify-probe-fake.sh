# verify --probe on fake devices: a loop device over a faultfs file whose
# offsets wrap at 16 MiB is a wrap-around fake of 16 MiB; one over a file
# that drops writes past 24 MiB is a limbo fake of 24 MiB. Skips where FUSE
# cannot be used (verify-capacity.c emulates the same fakes in memory).
# needs: root fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"
[ "$(id -u)" = 0 ] || skip "needs root for loop devices"
p() { json "$T/r.json" "d['storbench']['verify']['probe']['$1']"; }
ff_start
truncate -s 64M "$FF_BACK/wrap.img"
ff_rules "wrap wrap.img 16777216"
dev=$(ff_loop "$FF_MNT/wrap.img") || skip "no loop device over a FUSE file here"
expect_exit 1 "$SB" verify --probe --destroy-data --output="$T/r.json" "$dev"
[ "$(p kind)" = wraparound ] || fail "wrap: kind $(p kind)"
[ "$(p usable_bytes)" = 16777216 ] && [ "$(p wrap_bytes)" = 16777216 ] ||
	fail "wrap: usable $(p usable_bytes), wraps at $(p wrap_bytes)"
[ "$(p announced_bytes)" = 67108864 ] || fail "announced"
grep -q "result: FAKE (wraparound): usable 16.0 MiB (16777216 bytes) of 64.0 MiB" "$T/out" ||
	fail "text: $(cat "$T/out")"
ok "wrap-around at 16 MiB found"

truncate -s 64M "$FF_BACK/limbo.img"
ff_rules "drop limbo.img 25165824 41943040"
dev=$(ff_loop "$FF_MNT/limbo.img") || skip "no loop device over a FUSE file here"
expect_exit 1 "$SB" verify --probe --destroy-data --output="$T/r.json" "$dev"
[ "$(p kind)" = limbo ] && [ "$(p usable_bytes)" = 25165824 ] ||
	fail "limbo: $(p kind) $(p usable_bytes)"
ok "writes lost past 24 MiB found"

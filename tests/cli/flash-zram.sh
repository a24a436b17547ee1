# storbench flash on a RAM block device (its own zram): reads show no
# boundary effect and storbench says so, naming no size; a block size below
# twice the 4 KiB logical block and a device too small are one-line errors;
# --open-au finds no effect on it and says so in both orders (no limit
# named), and refuses a mounted device even with --destroy-data.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"
Z=$(make_zram 256M) || skip "$(echo "$Z" | tail -n 1)"
[ -b "$Z" ] || skip "no zram device"

# written data, so the reads read pages zram holds (not its zero pages)
dd if=/dev/urandom of="$Z" bs=1M count=64 oflag=direct status=none || fail "cannot fill $Z"
expect_exit 0 "$SB" flash --quiet --bs=8k,16k --output="$T/z.json" "$Z"
grep -q '^boundaries: no boundary effect found$' "$T/out" || { cat "$T/out"; fail "zram: a boundary effect claimed"; }
grep -q 'no boundary effect found: reads do not show' "$T/out" || fail "zram: no plain meaning line"
python3 - "$T/z.json" <<'PY' || fail "zram JSON"
import json, sys
a = json.load(open(sys.argv[1]))["storbench"]["flash"]["align"]
assert a["boundary_effect"] is False and a["erase_block"] is None and a["page"] is None, a
assert [p["bs"] for p in a["profiles"]] == [8192, 16384]
# 256 MiB: every boundary from 32 MiB down to 2 x bs
assert [r["align"] for r in a["profiles"][0]["rows"]] == [32 << 20 >> i for i in range(12)]
PY
ok "zram: no boundary effect found, no size named"

# --open-au on the RAM disk: no open-AU limit to find, and storbench says so
# in both orders as --align does, naming no number of write streams (a
# stray slow write of a busy machine is no collapse); three runs, for the
# hiccups of a shared machine
for i in 1 2 3; do
	expect_exit 0 "$SB" flash --open-au --destroy-data --quiet --erase-size=1M --bs=16k --max-au=4 "$Z"
	for o in linear random; do
		grep -q "^open AUs, $o: no effect found (4 at once write as one does)$" "$T/out" ||
			{ cat "$T/out"; fail "zram --open-au $o (run $i): an effect named on a RAM disk"; }
	done
	! grep -q 'f2fs does not suit it\|keep at most' "$T/out" || { cat "$T/out"; fail "zram: a limit advised"; }
done
# one AU alone (--max-au=1) is compared with nothing: no effect claimed either
expect_exit 0 "$SB" flash --open-au --destroy-data --quiet --erase-size=1M --bs=64k --max-au=1 --order=linear "$Z"
grep -q '^open AUs, linear: one tried, nothing compared$' "$T/out" || { cat "$T/out"; fail "--max-au=1"; }
grep -q 'linear writes: one allocation unit tried' "$T/out" || { cat "$T/out"; fail "--max-au=1 meaning"; }
ok "zram --open-au: no effect found in either order, three runs; --max-au=1 compares nothing"

expect_exit 2 "$SB" flash --bs=4k "$Z"
grep -q -- "--bs: 4.00 KiB is below twice the logical block size of '$Z' (4.00 KiB)" "$T/err" || { cat "$T/err"; fail "bs 4k on a 4 KiB-block device"; }
[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one line"
S=$(make_zram 1M) || skip "$(echo "$S" | tail -n 1)"
expect_exit 2 "$SB" flash --bs=64k "$S"
grep -q "'$S' is too small: 1.00 MiB holds fewer than 32 blocks of 64.0 KiB" "$T/err" || { cat "$T/err"; fail "too small"; }
expect_exit 2 "$SB" flash --open-au --destroy-data --bs=8k "$S"
grep -q "too small: 1.00 MiB holds no allocation unit of 4.00 MiB after --offset 16.0 MiB$" "$T/err" || { cat "$T/err"; fail "too small for an AU"; }
ok "one-line errors: bs below 2 x the logical block, device too small"

M=$(make_zram 64M) || skip "$(echo "$M" | tail -n 1)"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
mkfs.ext4 -q -F "$M" || fail "mkfs.ext4"
mkdir "$T/m"
trap 'unmount "$T/m"; cleanup' EXIT INT TERM
mount "$M" "$T/m" || skip "cannot mount ext4 here"
expect_exit 3 "$SB" flash --open-au --destroy-data --erase-size=1M --offset=0 "$M"
umount "$T/m"
grep -q "refusing to write to '$M': .*mounted" "$T/err" || { cat "$T/err"; fail "mounted device not refused"; }
ok "--open-au refuses a mounted device"

# Without --destroy-data, every command that writes a device refuses it
# with one message, which names the signature the device holds: before,
# run and pts named a LUKS or LVM header, while verify, soak, cliff,
# latency, spo and flash only said "add --destroy-data" (issue 26, item
# 18). Nothing is written: the device's sha256 is the same after each.
# needs: root loop
. "$SB_TOP/tests/lib/cli.sh"

dev=$(make_loop 32)
# put BYTES OFFSET: a signature at an offset of the device, the rest zero
put() {
	dd if=/dev/zero of="$dev" bs=1M count=32 oflag=direct status=none || fail "zero"
	printf "$1" | dd of="$dev" bs=1 seek="$2" conv=notrunc status=none || fail "signature"
	sync
}
cmds="run --rw=write --size=1M
run --rw=read --size=1M --precondition=fill
run --rw=read --size=1M --discard-before
pts --round-time=0.1s --bs=4k --mix=0/100 --max-rounds=1
verify --size=1M
verify --probe
soak --iterations=1 --size=1M --log=$T/soak.jsonl
cliff --size=1M
latency --write --count=2
spo --journal=$T/journal --duration=1s
flash --open-au
flash --find-fat --erase-size=1M"
for sig in LUKS LVM2; do
	case $sig in
	LUKS) put 'LUKS\272\276\000\001' 0 ;;
	LVM2) put 'LABELONE\000\000\000\000\000\000\000\001\000\000\000\000\040\000\000\000LVM2 001' 512 ;;
	esac
	sum=$(sha256sum <"$dev")
	echo "$cmds" | while read -r line; do
		"$SB" $line "$dev" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$(sha256sum <"$dev")" = "$sum" ] || { cat "$T/err"; fail "$line: the device changed"; }
		[ $rc = 2 ] || { cat "$T/out" "$T/err"; fail "$line ($sig): exit $rc, expected 2"; }
		grep -q "^storbench: refusing to write to '$dev': it holds a .*$sig.* (add --destroy-data to overwrite it)$" "$T/err" ||
			{ cat "$T/err"; fail "$line: the refusal does not name the $sig signature"; }
	done || exit 1
	[ -e "$T/journal" ] && fail "spo made its journal before refusing"
	ok "$sig: 12 command lines refused, naming the signature, nothing written"
done

# a file storbench did not create: the write gate's refusal names what it
# holds too (an image of a LUKS volume here)
img="$T/luks.img"
head -c 4M /dev/zero >"$img"
printf 'LUKS\272\276\000\001' | dd of="$img" conv=notrunc status=none
sum=$(sha256sum <"$img")
for cmd in "run --rw=write --size=1M" "verify --size=1M" "latency --write --count=2 --buffered" \
	"sweep --file-sizes=1M --record-sizes=64k --tests=write"; do
	expect_exit 2 "$SB" $cmd --quiet "$img"
	grep -q "^storbench: refusing to overwrite '$img': storbench did not create it; it holds a LUKS encrypted volume (name a new file or a directory, or add --destroy-data)$" "$T/err" ||
		{ cat "$T/err"; fail "$cmd: the refusal does not name the LUKS header of the file"; }
	[ "$(sha256sum <"$img")" = "$sum" ] || fail "$cmd: the file changed"
done
ok "a file: run, verify, latency and sweep name its LUKS header"
exit 0

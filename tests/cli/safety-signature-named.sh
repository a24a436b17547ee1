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
exit 0

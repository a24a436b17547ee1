# --output never writes over a block device or into a directory: a typo such
# as --output=/dev/sdb would put the results over the start of a disk. The
# refusal comes before anything is measured, names the option, and the
# device keeps its bytes. Found by the second adversarial pass of issue 12;
# the device is a loop device over this test's own file.
# needs: root loop
. "$SB_TOP/tests/lib/cli.sh"

dev=$(make_loop 4)
printf 'KEEP' | dd of="$dev" conv=notrunc status=none || fail "mark the device"
"$SB" run --rw=read --size=1M --runtime=100ms --quiet --output="$T/r.json" "$T/f" >/dev/null 2>&1 ||
	fail "a first result"
for cmd in "run --rw=read --size=1M --runtime=100ms $T/g" "verify --size=1M $T/h" \
	"report $T/r.json --format=html" "compare $T/r.json $T/r.json"; do
	expect_exit 2 "$SB" $cmd --output="$dev"
	grep -q -- "--output: '$dev' is not valid (expected a file, not a block device)" "$T/err" ||
		{ cat "$T/err"; fail "$cmd: no refusal naming --output"; }
	[ ! -e "$T/g" ] && [ ! -e "$T/h" ] || fail "$cmd: measured before refusing its output"
	[ "$(head -c 4 "$dev")" = KEEP ] || fail "$cmd: wrote over the device"
done
expect_exit 2 "$SB" report "$T/r.json" --format=html --output="$T"
grep -q "expected a file, not a directory" "$T/err" || fail "a directory as --output"
ok "--output refuses block devices and directories before measuring; the device is unchanged"
exit 0

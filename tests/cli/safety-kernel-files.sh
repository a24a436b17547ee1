# A file of a kernel interface (sysfs, proc, efivarfs, debugfs ...) is not
# storage: a write there sets something. Every command that writes a file
# refuses one, --destroy-data or not; before, run and verify wrote 4 KiB of
# random data into a sysfs attribute (the kernel refused this one). The
# attribute is the read-ahead of the test's own loop device; reading it
# stays allowed.
# needs: root loop
. "$SB_TOP/tests/lib/cli.sh"

dev=$(make_loop 8)
attr=/sys/block/${dev#/dev/}/queue/read_ahead_kb
[ -f "$attr" ] || skip "no $attr"
before=$(cat "$attr")
for cmd in "run --rw=write --size=4k --bs=4k --direct=0" "verify --size=4k --block-size=4k --direct=0" \
	"latency --write --count=1 --size=4k --buffered" "cliff --size=4k --bs=4k" \
	"run --rw=read --size=4k --bs=4k --direct=0 --precondition=fill"; do
	expect_exit 2 "$SB" $cmd --destroy-data --quiet "$attr"
	grep -q "refusing to write to '$attr': it is on sysfs, a kernel interface, not storage" "$T/err" ||
		{ cat "$T/out" "$T/err"; fail "$cmd: not refused as a kernel interface"; }
	[ "$(cat "$attr")" = "$before" ] || fail "$cmd: $attr changed"
done
ok "a sysfs attribute is refused for writing by run, verify, latency, cliff and a precondition"
exit 0

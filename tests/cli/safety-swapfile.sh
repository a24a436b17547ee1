# An active swap file is refused as a TARGET to write, --destroy-data or
# not, by every command that writes a file (the kernel answers its writes
# with ETXTBSY: before, verify printed a rate for writes that all failed).
# Reading it stays allowed. The swap file is this test's own, made in $T
# and switched off at exit.
# needs: root
. "$SB_TOP/tests/lib/cli.sh"

[ "$(id -u)" = 0 ] || skip "needs root for swapon"
command -v mkswap >/dev/null && command -v swapon >/dev/null || skip "no mkswap/swapon"
sw="$T/swap.img"
dd if=/dev/zero of="$sw" bs=1M count=8 2>/dev/null && chmod 600 "$sw" || fail "swap file"
mkswap "$sw" >/dev/null 2>&1 || skip "mkswap failed"
swapon "$sw" 2>/dev/null || skip "swapon is not allowed here"
trap 'swapoff "$sw" 2>/dev/null; cleanup' EXIT INT TERM

for cmd in "verify --size=1M" "run --rw=write --size=1M" "sweep --file-sizes=1M --record-sizes=64k --tests=write --quiet" \
	"latency --write --count=2"; do
	expect_exit 3 "$SB" $cmd --destroy-data "$sw"
	grep -q "refusing to write to '.*swap.img': it is an active swap file" "$T/err" ||
		{ cat "$T/out" "$T/err"; fail "$cmd: not refused as a swap file"; }
done
grep -q "$sw" /proc/swaps || fail "the swap file is no longer active"
expect_exit 0 "$SB" run --rw=read --size=1M --runtime=100ms --quiet "$sw"
ok "an active swap file is refused for writing by verify, run, sweep and latency; read freely"
exit 0

# Every engine built in runs a queued random read and reports itself.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

engines=$("$SB" --version | sed -n 's/^engines: //p')
[ -n "$engines" ] || fail "no engines listed"
for e in $engines; do
	expect_exit 0 "$SB" run --engine="$e" --rw=randread --bs=4k --iodepth=16 --size=8M \
		--quiet --output="$T/$e.json" "$T/f-$e"
	[ "$(json "$T/$e.json" "d['jobs'][0]['job options']['ioengine']")" = "$e" ] ||
		fail "$e: engine not recorded"
	[ "$(json "$T/$e.json" "d['jobs'][0]['read']['io_bytes']")" = 8388608 ] ||
		fail "$e: bytes read != 8 MiB"
	[ -e "$T/f-$e" ] && fail "$e: file left"
	ok "$e"
done
# the null engine never touches the target
expect_exit 0 "$SB" run --engine=null --rw=randwrite --size=64M --quiet "$T/never"
[ -e "$T/never" ] && fail "null engine created its target"
ok "null engine touches nothing"

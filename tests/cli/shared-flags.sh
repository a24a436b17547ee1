# The flags commands share (--output, --format, --quiet, --keep,
# --destroy-data, --seed) are declared once and switched on per command in
# the command table: each command lists in its --help just those it takes,
# refuses the others, and checks their values with the same messages; the
# whole-number options of flash, latency and verify say the same too.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

cmds=$("$SB" --help | awk '/^commands:$/ { f = 1; next } f && /^  / { print $1 } f && /^$/ { exit }')
n=0
for c in $cmds; do
	"$SB" "$c" --help >"$T/h" || fail "$c --help"
	for flag in output format quiet keep destroy-data seed; do
		if grep -Eq "^  (-o, )?--$flag[= ]" "$T/h"; then
			n=$((n + 1))
			[ "$(grep -Ec "^  (-o, )?--$flag[= ]" "$T/h")" = 1 ] || fail "$c lists --$flag twice"
			case $flag in
			output)
				expect_exit 2 "$SB" "$c" --output= x
				grep -qx "storbench: --output: '' is not valid (expected a file name)" "$T/err" ||
					{ cat "$T/err"; fail "$c --output="; } ;;
			format)
				formats=$(sed -n 's/^  --format=\([a-z|+]*\) .*/\1/p' "$T/h")
				[ -n "$formats" ] || fail "$c: --format lists no formats"
				expect_exit 2 "$SB" "$c" --format=bogus x
				grep -q "^storbench: --format: 'bogus' is not valid (expected text" "$T/err" ||
					{ cat "$T/err"; fail "$c --format=bogus"; } ;;
			seed)
				expect_exit 2 "$SB" "$c" --seed=x1 x
				grep -q "^storbench: --seed: 'x1' is not valid" "$T/err" ||
					{ cat "$T/err"; fail "$c --seed=x1"; } ;;
			*)
				expect_exit 2 "$SB" "$c" "--$flag=1" x
				grep -qx "storbench: --$flag: takes no value" "$T/err" ||
					{ cat "$T/err"; fail "$c --$flag=1"; } ;;
			esac
		else
			case $c:$flag in run:seed) continue ;; esac # a workload option of run
			"$SB" "$c" "--$flag" x >"$T/out" 2>"$T/err"
			rc=$?
			case $c in
			fio | iozone | bonnie) # the peer's grammar and its words: refused all the same
				[ $rc = 2 ] || { cat "$T/err"; fail "$c takes --$flag without listing it"; } ;;
			*)
				grep -q "^storbench: --$flag: unknown option" "$T/err" ||
					{ cat "$T/err"; fail "$c takes --$flag without listing it"; } ;;
			esac
		fi
	done
done
[ "$n" -ge 30 ] || fail "only $n shared flags found"
ok "$n shared flags over $(echo $cmds | wc -w) commands: listed once, checked alike"

# a command's own formats: meta takes csv, report xlsx, compare html; run none
"$SB" meta --help | grep -q '^  --format=text|json|csv ' || fail "meta formats"
"$SB" report --help | grep -q '^  --format=text|html|csv|xlsx|json ' || fail "report formats"
expect_exit 2 "$SB" run --format=csv x
grep -q "expected text, json or json+" "$T/err" || fail "run --format=csv"
expect_exit 2 "$SB" meta --csv --format=json x
grep -q "^storbench: --csv: means --format=csv" "$T/err" || fail "meta --csv --format=json"
expect_exit 2 "$SB" meta --seed=0 x
grep -q "expected a number above 0" "$T/err" || fail "meta --seed=0"
ok "formats per command"

# a command's whole-number options: one parser (cli_opt_number), one message
for a in "flash --count=0:1 to 1000" "flash --max-au=x:1 to " "latency --count=-1:1 to 1000000000000" \
	"latency --warmup=1000001:0 to 1000000" "verify --iodepth=1025:1 to 1024" \
	"verify --max-ranges=1e3:0 to 100000" "verify --generation=18446744073709551616:0 to 18446744073709551615"; do
	opt=${a%%:*} cmd=${a%% *} o=${opt#* }
	expect_exit 2 "$SB" "$cmd" "$o" x
	grep -q "^storbench: ${o%%=*}: '${o#*=}' is not valid (expected a number from ${a#*:}" "$T/err" ||
		{ cat "$T/err"; fail "$opt"; }
done
ok "number options of flash, latency and verify: the same words"

# a command's size and count options: one parser (cli_opt_size), each
# option's range in its own words, as before the parser was shared
for a in "latency --bs=65M:a size from 1 to 64M, e.g. 512, 4k, 1M" \
	"latency --offset=1x:a size, e.g. 512, 4k, 1M" \
	"verify --block-size=513:a multiple of 512 from 512 to 16M" \
	"verify --bs=256:a size from 512 to 64M" "spo --offset=513:a multiple of 512 (e.g. 0, 1M)" \
	"spo --bs=1536k:a multiple of 512 from 512 to 1M" "spo --iodepth=0:a number from 1 to" \
	"meta --files=100000001:a number up to 100M, e.g. 1024, 16k" \
	"meta --chunk=257:a power of two from 256 to 1M, e.g. 8k" \
	"meta --size=1k:a whole number of MiB, e.g. 0, 64 (MiB), 64M, 4G" \
	"sweep --record-sizes=4k,,64k:a comma-separated list of at most" \
	"pts --precondition=17x:auto, none, or Nx with N from 1 to 16 (PTS: 2x)" \
	"pts --iodepth=1025:a number from 1 to 1024"; do
	opt=${a%%:*} cmd=${a%% *} o=${opt#* }
	expect_exit 2 "$SB" "$cmd" "$o" x
	grep -qF "storbench: ${o%%=*}: '${o#*=}' is not valid (expected ${a#*:}" "$T/err" ||
		{ cat "$T/err"; fail "$opt"; }
done
ok "size and count options of latency, verify, spo, meta, sweep and pts: their words"
exit 0

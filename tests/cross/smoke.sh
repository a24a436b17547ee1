# The CLI smoke test of a cross build, run under qemu-user (or natively for
# musl): --version, run on a file, quick on a directory, and where the
# command exists (storbench --help lists it): verify write and check, a soak
# of 2 iterations, info on a file. Other options come from the command's
# --help, so that the test follows a command as it grows.
# SB_EXPECT_TARGET (e.g. aarch64-linux-gnu) is the target --version must name.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

expect_exit 0 "$SB" --help
commands=$(awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }' "$T/out")
has_cmd() { echo "$commands" | grep -qx "$1"; }
# opt CMD OPTION...: the first OPTION (--name or --name=value) CMD's help lists
opt() {
	c=$1; shift
	"$SB" "$c" --help >"$T/help" 2>&1
	for o in "$@"; do
		grep -q -- "^  ${o%%=*}[= ]" "$T/help" && { echo "$o"; return; }
	done
}

# --version names the architecture, the C library, static linking, features
expect_exit 0 "$SB" --version
grep -q "^arch: .*, libc: .*, static$" "$T/out" || fail "version: $(cat "$T/out")"
[ -z "${SB_EXPECT_TARGET:-}" ] || grep -q "^arch: .*($SB_EXPECT_TARGET)" "$T/out" ||
	fail "version does not name $SB_EXPECT_TARGET: $(cat "$T/out")"
grep -q "^features: psync" "$T/out" || fail "no features line"
engines=$(sed -n 's/^engines: //p' "$T/out")
ok "version: $(head -n 2 "$T/out" | tail -n 1)"

# run on a new file: written, read back at a queue depth (whatever engine the
# default falls back to under emulation), removed
f="$T/file.bin"
expect_exit 0 "$SB" run --rw=write --bs=64k --size=8M --keep --end-fsync=1 --quiet \
	--output="$T/w.json" "$f"
[ "$(json "$T/w.json" "d['jobs'][0]['write']['io_bytes']")" = 8388608 ] || fail "write bytes"
[ "$(stat -c %s "$f")" = 8388608 ] || fail "file size"
expect_exit 0 "$SB" run --rw=randread --bs=4k --iodepth=8 --quiet --output="$T/r.json" "$f"
[ "$(json "$T/r.json" "d['jobs'][0]['read']['io_bytes']")" = 8388608 ] || fail "read bytes"
engine=$(json "$T/r.json" "d['jobs'][0]['job options']['ioengine']")
ok "run on a file: write, then random read with $engine"
expect_exit 0 "$SB" run --rw=randrw --bs=4k --size=4M --quiet --output="$T/m.json" "$T/new.bin"
[ -e "$T/new.bin" ] && fail "created file was not removed"
ok "run: randrw on a new file, removed after"
# an engine built in that this kernel (or qemu) lacks: one clear line, exit 2
for e in io_uring libaio; do
	case " $engines " in *" $e "*) ;; *) continue ;; esac
	"$SB" run --engine=$e --size=4M --quiet "$T/e.bin" >"$T/out" 2>"$T/err"
	rc=$?
	case $rc in
	0) ok "$e usable here" ;;
	2) [ "$(wc -l <"$T/err")" = 1 ] && grep -q "^storbench: --engine: $e cannot be used" "$T/err" ||
		fail "$e: $(cat "$T/err")"
	   ok "$e not usable here, refused: $(cat "$T/err")" ;;
	*) fail "run --engine=$e exited $rc: $(cat "$T/err")" ;;
	esac
done

# quick on a directory: the whole matrix, short
mkdir "$T/q"
expect_exit 0 "$SB" quick --size=8M --runtime=200ms --repeat=1 --quiet --output="$T/q.json" "$T/q"
[ "$(json "$T/q.json" "len(d['storbench']['summary'])")" = 8 ] || fail "quick: 8 rows expected"
[ -z "$(ls -A "$T/q")" ] || fail "quick left files"
ok "quick on a directory"

if has_cmd verify; then
	expect_exit 0 "$SB" verify $(opt verify --size=8M) $(opt verify --quiet) "$T/v.bin"
	ok "verify: write and check"
else
	echo "note: no verify command yet: skipped"
fi
if has_cmd soak; then
	n=$(opt soak --iterations=2 --loops=2 --count=2)
	[ -n "$n" ] || fail "soak lists no --iterations, --loops or --count"
	expect_exit 0 "$SB" soak $n $(opt soak --size=8M) $(opt soak --quiet) $(opt soak --log="$T/s.jsonl") "$T/s.bin"
	ok "soak of 2 iterations"
else
	echo "note: no soak command yet: skipped"
fi
if has_cmd info; then
	echo data >"$T/i"
	fmt=$(opt info --format=json)
	expect_exit 0 "$SB" info $fmt "$T/i"
	[ -z "$fmt" ] || python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" ||
		fail "info: not JSON"
	ok "info on a file"
else
	echo "note: no info command yet: skipped"
fi

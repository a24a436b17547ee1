# A kernel without io_uring (io_uring_setup fails with ENOSYS) or with it
# disabled (EPERM), made by a seccomp filter (tests/tools/deny-syscall.c):
# run and quick fall back to libaio, or psync when libaio fails too, and say
# so once; asking for io_uring explicitly is a usage error and creates nothing.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

DENY=$SB_BUILD/tools/deny-syscall
[ -x "$DENY" ] || skip "$DENY not built (make tests)"
"$DENY" ENOSYS io_uring_setup true >"$T/probe" 2>&1 || skip "$(tail -n 1 "$T/probe")"
engines=$("$SB" --version | sed -n 's/^engines: //p')
has() { case " $engines " in *" $1 "*) return 0 ;; esac; return 1; }
has io_uring || skip "io_uring not built in: nothing to fall back from"
RUN="run --rw=randread --bs=4k --iodepth=16 --size=8M --quiet"

engine_of() { json "$1" "d['jobs'][0]['job options']['ioengine']"; }
# the stderr of the last command: exactly one fallback line, naming why and what
said_once() { # STRERROR ENGINE
	n=$(grep -c "cannot be used here" "$T/err")
	[ "$n" = 1 ] || { cat "$T/err"; fail "$n fallback lines, expected 1"; }
	grep -q "^storbench: warning: io_uring cannot be used here ($1): using $2" "$T/err" ||
		{ cat "$T/err"; fail "fallback line does not say '$1' and '$2'"; }
	! grep -q "has no effect" "$T/err" || { cat "$T/err"; fail "iodepth warned twice"; }
}

# without the filter the default for a queue is io_uring (when this kernel has it)
expect_exit 0 "$SB" $RUN --output="$T/plain.json" "$T/f"
native=$(engine_of "$T/plain.json")
if [ "$native" = io_uring ]; then
	! grep -q "cannot be used here" "$T/err" || fail "fallback announced with io_uring usable"
	ok "io_uring by default"
fi

for e in ENOSYS EPERM; do
	case $e in ENOSYS) msg="Function not implemented" ;; EPERM) msg="Operation not permitted" ;; esac
	if has libaio; then
		expect_exit 0 "$DENY" $e io_uring_setup "$SB" $RUN --output="$T/a.json" "$T/f"
		[ "$(engine_of "$T/a.json")" = libaio ] || fail "$e: expected libaio"
		said_once "$msg" libaio
		ok "$e: run falls back to libaio"
	fi
	expect_exit 0 "$DENY" $e io_uring_setup,io_setup "$SB" $RUN --output="$T/p.json" "$T/f"
	[ "$(engine_of "$T/p.json")" = psync ] || fail "$e: expected psync"
	said_once "$msg" psync
	ok "$e: run falls back to psync"

	expect_exit 2 "$DENY" $e io_uring_setup "$SB" run --engine=io_uring --size=8M "$T/g"
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "$e: more than one error line"; }
	grep -q "^storbench: --engine: io_uring .*$msg" "$T/err" || { cat "$T/err"; fail "$e: error"; }
	[ -e "$T/g" ] && fail "$e: --engine=io_uring created its target"
	ok "$e: run --engine=io_uring is refused"

	mkdir "$T/q"
	expect_exit 0 "$DENY" $e io_uring_setup,io_setup "$SB" quick --size=8M --runtime=200ms \
		--repeat=1 --quiet --output="$T/q.json" "$T/q"
	said_once "$msg" psync
	[ "$(json "$T/q.json" "sorted(set(j['job options']['ioengine'] for j in d['jobs']))")" = \
		"['psync']" ] || fail "$e: quick did not use psync throughout"
	expect_exit 2 "$DENY" $e io_uring_setup "$SB" quick --engine=io_uring --size=8M \
		--runtime=200ms --repeat=1 --quiet "$T/q"
	grep -q "^storbench: --engine: io_uring .*$msg" "$T/err" || { cat "$T/err"; fail "$e: quick error"; }
	[ -z "$(ls -A "$T/q")" ] || fail "$e: quick left files"
	rmdir "$T/q"
	ok "$e: quick falls back to psync once, refuses --engine=io_uring"
done
[ "$native" = io_uring ] || echo "note: io_uring is not usable on this kernel ($native without the filter)"

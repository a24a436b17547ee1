# needs: fuse
# The exit status table (exit-codes.sh has 2 and 3): a failure the test
# finds is 1 in every command that tests a device (an I/O error injected
# by faultfs, tests/fixtures/faultfs.c), and an interrupted run is 130
# after Ctrl-C and 143 after SIGTERM (128 + the signal), in every command
# that runs long enough to be stopped (each made slow by faultfs's delay,
# and stopped once its handler is set).
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
cd "$T" || fail "cd"  # soak writes its log in the working directory
M=$FF_MNT

# a found failure: every request fails with EIO
ff_rules "eio * 0 0x100000000000 rw"
found() { # CMD...: exit 1, the error said
	rm -rf "${M:?}"/* "$T/j"
	expect_exit 1 "$SB" "$@"
	cat "$T/out" "$T/err" | grep -q "Input/output error\|I/O error" || { cat "$T/out" "$T/err"; fail "$*: the I/O error is not said"; }
}
ff_rules
"$SB" run --rw=write --size=2M --direct=0 --keep --quiet "$M/old.bin" >/dev/null 2>&1 || fail "setup"
cp "$M/old.bin" "$T/old.bin"
ff_rules "eio * 0 0x100000000000 rw"
for c in "run --rw=write --size=1M --direct=0" "quick --size=2M --runtime=1s" \
	"latency --count=2 --write --buffered" "meta --files=10 --size=0" \
	"sweep --file-sizes=64k --tests=write" "verify --size=1M" "soak --iterations=1 --size=1M" \
	"cliff --size=1M"; do
	found $c --quiet "$M"
done
found fio --name=x --rw=write --size=1M --directory="$M"
found bonnie -s 1 -n 1 -r 0 -d "$M"
found iozone -s 64k -i 0 -f "$M/x"
old() { # an existing file, written without faults
	ff_rules
	cp "$T/old.bin" "$M/old.bin" || fail "cp"
	ff_rules "$@"
}
for c in "spo --destroy-data --duration=1s --journal=$T/j" "flash"; do
	old "eio * 0 0x100000000000 rw"
	expect_exit 1 "$SB" $c "$M/old.bin"
	cat "$T/out" "$T/err" | grep -q "Input/output error\|I/O error" || { cat "$T/out" "$T/err"; fail "$c: the I/O error is not said"; }
done
ok "an I/O error the test meets: exit 1 in every command that tests a device"

# interrupted: every request waits 0.1 s
ff_rules "delay * 0 0x100000000000 100000"
stopped() { # SIGNAL CODE CMD...: stopped by SIGNAL once its handler is set: exit CODE
	sig=$1 code=$2
	shift 2
	rm -f "$T/j"
	"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_until 60 handles_int $pid || { kill $pid; cat "$T/err"; fail "$*: no handler"; }
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc = "$code" ] || { cat "$T/out" "$T/err"; fail "$*: SIG$sig: exit $rc, expected $code"; }
}
for c in "run --rw=read --size=64M --direct=0" "quick --size=64M --runtime=1s" \
	"latency --count=100 --size=64M --buffered" "meta --files=20000 --size=0" \
	"sweep --file-sizes=64M --tests=write" "verify --size=64M" "soak --iterations=10 --size=64M" \
	"cliff --size=64M"; do
	stopped INT 130 "$SB" $c --quiet "$M"
done
stopped INT 130 "$SB" fio --name=x --rw=read --size=64M --directory="$M"
stopped INT 130 "$SB" bonnie -s 64 -n 1 -r 0 -d "$M"
stopped INT 130 "$SB" iozone -s 64m -i 0 -f "$M/x"
old "delay * 0 0x100000000000 100000"
stopped INT 130 "$SB" spo --destroy-data --duration=60s --journal="$T/j" "$M/old.bin"
old "delay * 0 0x100000000000 100000"
stopped INT 130 "$SB" flash "$M/old.bin"
stopped TERM 143 "$SB" run --rw=read --size=64M --direct=0 --quiet "$M"
stopped TERM 143 "$SB" verify --size=64M --quiet "$M"
ok "interrupted: 130 after Ctrl-C, 143 after SIGTERM, in every command that runs"

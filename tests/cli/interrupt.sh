# Ctrl-C while a test file is laid out, and under a low --rate (issue 12,
# item 10): a first Ctrl-C stops at once and the file goes; a low rate
# still ends at --runtime; a second Ctrl-C in meta takes its run directory.
# The layout is made slow by the fault-injecting filesystem (every request
# waits), so what would take a minute must end in seconds.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"

# interrupt CMD...: runs CMD in the background, sends SIGINT once CMD has
# its handler set and the condition $WHEN holds (its test file made: the
# layout begun), not after a fixed sleep (on a loaded machine the signal
# could come before the handler, and kill it the default way, or before the
# layout, and test nothing); a second one after $SECOND s when set; waits;
# $rc and $secs are set
interrupt() {
	"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_until 60 handles_int $pid && wait_until 60 eval "$WHEN" ||
		{ kill $pid; cat "$T/err"; fail "$*: no handler or no test file in 60 s"; }
	start=$(date +%s)
	kill -INT $pid
	[ -n "${SECOND:-}" ] && { sleep "$SECOND"; kill -INT $pid 2>/dev/null; }
	wait $pid
	rc=$?
	secs=$(( $(date +%s) - start ))
}

# low rates: --runtime still ends the run, and a Ctrl-C ends it early
for e in psync io_uring; do
	start=$(date +%s)
	timeout -s KILL 30 "$SB" run --engine=$e --rw=randread --iodepth=4 --rate=1 --runtime=1s \
		--time-based --size=1M --direct=0 --quiet "$T/rate" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 0 ] || { cat "$T/err"; fail "--rate=1 --runtime=1s ($e): exit $rc"; }
	[ $(( $(date +%s) - start )) -lt 10 ] || fail "--rate=1 --runtime=1s ($e) ran past its runtime"
done
WHEN='[ -e "$T/rate" ]' interrupt "$SB" run --rw=read --rate=1k --size=1M --direct=0 --quiet "$T/rate"
[ $rc = 130 ] || { cat "$T/err"; fail "--rate=1k, Ctrl-C: exit $rc"; }
[ $secs -lt 5 ] || fail "--rate=1k: the first Ctrl-C took ${secs}s"
[ ! -e "$T/rate" ] || fail "--rate=1k: the test file was left"
ok "a low --rate keeps --runtime and the first Ctrl-C"

ff_start
ff_rules "delay * 0 0x100000000000 100000"
for cmd in "run --rw=read --size=256M --direct=0" "latency --count=5 --size=256M --buffered" \
	"quick --size=256M --runtime=1s --repeat=1" "run --verify --rw=write --size=256M --direct=0"; do
	WHEN='has_entries "$FF_MNT"' interrupt "$SB" $cmd --quiet "$FF_MNT"
	[ $rc = 130 ] || { cat "$T/err"; fail "$cmd: Ctrl-C during the layout: exit $rc"; }
	[ $secs -lt 10 ] || fail "$cmd: the first Ctrl-C during the layout took ${secs}s"
	[ -z "$(ls -A "$FF_MNT")" ] || fail "$cmd: left $(ls -A "$FF_MNT")"
done
ok "a first Ctrl-C stops the layout of a test file, and the file goes (run, run --verify, latency, quick)"

# meta, with a worker stuck in a slow write: the second Ctrl-C leaves nothing
ff_rules "delay * 0 0x100000000000 3000000"
WHEN='has_entries "$FF_MNT"' SECOND=0.3 interrupt "$SB" meta --size=0 --files=100 --file-size=4k --quiet "$FF_MNT"
[ $rc = 130 ] || { cat "$T/err"; fail "meta, two Ctrl-C: exit $rc"; }
[ -z "$(ls -A "$FF_MNT")" ] || fail "meta, two Ctrl-C: left $(ls -A "$FF_MNT")"
ok "a second Ctrl-C in meta removes its run directory"

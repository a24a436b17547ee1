# A Ctrl-C in the first round, phase or iteration of a command: it writes
# what it measured, marked interrupted (issue 26, item 13: pts interrupted
# in its first round wrote no JSON). Each command is started with
# --output, interrupted once its handler is set and its first phase is
# under way (a test file made, the device read or written: never after a
# fixed sleep), and must exit 130 with a results file whose
# storbench.interrupted is true. The same in the layout of a test file
# (made slow by faultfs: every request waits). The device commands (pts,
# cliff, flash) run on a loop device of the test's own.
# needs: root loop fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"

# interrupt NAME CMD...: runs CMD with --output=$T/NAME.json, sends one
# SIGINT once it has its handler and $WHEN holds; $rc is set
interrupt() {
	name=$1
	shift
	rm -f "$T/$name.json"
	"$@" --output="$T/$name.json" >"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
	wait_until 60 handles_int $pid && wait_until 60 eval "$WHEN" ||
		{ kill $pid; cat "$T/$name.err"; fail "$name: no handler or no I/O in 60 s"; }
	kill -INT $pid
	wait $pid
	rc=$?
}
# results NAME [EXPR]: exit 130, the file written, marked interrupted, and
# EXPR (over the document d) true
results() {
	[ $rc = 130 ] || { cat "$T/$1.out" "$T/$1.err"; fail "$1: exit $rc, expected 130"; }
	[ -s "$T/$1.json" ] || { cat "$T/$1.err"; fail "$1: interrupted in its first phase, no results file"; }
	[ "$(json "$T/$1.json" "d['storbench']['interrupted']")" = True ] ||
		fail "$1: results not marked interrupted"
	[ -z "${2:-}" ] || [ "$(json "$T/$1.json" "bool($2)")" = True ] ||
		fail "$1: $2 is not so: $(json "$T/$1.json" "d['storbench'].get('$1')")"
}

# bytes the process has written (/proc/PID/io): the file's layout is an
# fallocate, which writes none, so this is the job's own I/O under way
wrote() { [ "$(awk '/^write_bytes:/ { print $2 }' "/proc/$1/io" 2>/dev/null)" -gt 0 ] 2>/dev/null; }
WHEN='wrote $pid' interrupt run "$SB" run --rw=write --size=64M --runtime=60s --time-based \
	--direct=0 --quiet "$T/f"
results run "d['jobs']"
rm -f "$T/f"
WHEN='[ -s "$T/f" ]' interrupt latency "$SB" latency --count=100000 --interval=10ms --size=16M \
	--quiet "$T/f"
results latency
rm -f "$T/f"
WHEN='[ -s "$T/f" ]' interrupt quick "$SB" quick --size=64M --runtime=60s --repeat=1 --quiet "$T/f"
results quick
rm -f "$T/f"
mkdir "$T/s" "$T/m" "$T/v"
WHEN='has_entries "$T/s"' interrupt sweep "$SB" sweep --file-sizes=64M --record-sizes=4k \
	--tests=write --burst=1M,1s --quiet "$T/s"
results sweep
WHEN='has_entries "$T/m"' interrupt meta "$SB" meta --files=1000000 --size=0 --char-size=0 \
	--quiet "$T/m"
results meta
WHEN='has_entries "$T/v"' interrupt verify "$SB" verify --size=2G --quiet "$T/v"
results verify "d['storbench']['verify']['write']['interrupted']"
ok "run, latency, quick, sweep, meta, verify: interrupted in their first phase, results written"

# in the layout of the test file: nothing measured, the results say so
ff_start
ff_rules "delay * 0 0x100000000000 100000"
printf '[j]\nrw=read\nsize=256M\ndirect=0\nfilename=%s/jf\n' "$FF_MNT" >"$T/j.fio"
WHEN='has_entries "$FF_MNT"'
interrupt run-layout "$SB" run --rw=read --size=256M --direct=0 --quiet "$FF_MNT"
results run-layout
interrupt run-verify-layout "$SB" run --verify --rw=write --size=256M --direct=0 --quiet "$FF_MNT"
results run-verify-layout
interrupt jobfile-layout "$SB" run --quiet "$T/j.fio"
results jobfile-layout "d['storbench']['target']"
interrupt latency-layout "$SB" latency --count=5 --size=256M --buffered --quiet "$FF_MNT"
results latency-layout
interrupt quick-layout "$SB" quick --size=256M --runtime=1s --repeat=1 --quiet "$FF_MNT"
results quick-layout
interrupt fio-layout "$SB" fio --output-format=json --name=x --rw=read --size=256M \
	--filename="$FF_MNT/ff"
results fio-layout
[ -z "$(ls -A "$FF_MNT")" ] || fail "a layout left $(ls -A "$FF_MNT")"
ok "run, run --verify, a job file, latency, quick, fio: interrupted in the layout, results written"

dev=$(make_loop 64) || skip "no loop device"
# sectors written, read (/sys/block/DEV/stat): the run under way, not the
# probes before it, which only read a little
written() { awk '{ print $7 }' "/sys/block/${dev#/dev/}/stat"; }
read_() { awk '{ print $3 }' "/sys/block/${dev#/dev/}/stat"; }
base=$(written)
WHEN='[ "$(written)" -gt "$base" ]' interrupt pts "$SB" pts --destroy-data --round-time=30s \
	--bs=4k --mix=0/100 --precondition=none --purge=discard "$dev"
results pts "d['storbench']['pts']['tests'][0]['partial_round']['cells']"
grep -q "stopped before its first round ended" "$T/pts.err" || fail "pts: $(cat "$T/pts.err")"
base=$(written)
WHEN='[ "$(written)" -gt "$base" ]' interrupt cliff "$SB" cliff --destroy-data --rate=1M --quiet "$dev"
results cliff
base=$(read_)
WHEN='[ "$(read_)" -gt $((base + 4096)) ]' interrupt flash "$SB" flash --count=1000 --quiet "$dev"
results flash
ok "pts, cliff, flash: interrupted in their first round or phase, results written"

#!/bin/sh
# Runs every unit test program (build/tests/*) and CLI test (tests/cli/*.sh)
# with a per-test timeout. Exit status of a test: 0 pass, 77 skip (the reason
# is the last line it printed), anything else fail. Ends with the line
# "N passed, N failed, N skipped" and exits 1 when anything failed.
# TESTS="name ..." runs only those; TEST_TIMEOUT (s) bounds each test: a
# guard against a hang, not a speed limit (on a loaded 2-core machine
# bonnie-cli took 261 s and compare-verdicts 230 s; layout timed out at 300).
# TEST_WRAPPER runs each unit test program through a command (e.g.
# qemu-aarch64-static); CLI_TESTS lists the CLI scripts [tests/cli/*.sh].
BUILD=${BUILD:-build}
TEST_TIMEOUT=${TEST_TIMEOUT:-600}
top=$(cd "$(dirname "$0")/.." && pwd)
export SB_TOP="$top" SB_BIN="${SB_BIN:-$top/storbench}" SB_BUILD="$top/$BUILD"
logdir=$(mktemp -d "${TMPDIR:-/tmp}/sb-tests.XXXXXX")
pass=0 fail=0 skip=0 failed="" skipped=""

want() {
	[ -z "$TESTS" ] && return 0
	for t in $TESTS; do [ "$t" = "$1" ] && return 0; done
	return 1
}

run_one() { # name command...
	name=$1; shift
	want "$name" || return 0
	log="$logdir/$name.log"
	start=$(date +%s)
	timeout -k 10 "$TEST_TIMEOUT" "$@" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS %-40s %3ss\n' "$name" "$secs" ;;
	77) skip=$((skip + 1))
	    why=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1)
	    skipped="$skipped
  $name: $why"
	    printf 'SKIP %-40s %s\n' "$name" "$why" ;;
	*) fail=$((fail + 1)); failed="$failed $name"
	   [ $rc = 124 ] && echo "(timed out after ${TEST_TIMEOUT}s)" >>"$log"
	   printf 'FAIL %-40s exit %s\n' "$name" "$rc"
	   sed 's/^/    | /' "$log" | tail -n 40 ;;
	esac
}

for t in "$SB_BUILD"/tests/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	run_one "$(basename "$t")" $TEST_WRAPPER "$t"
done
# the layout rules of the source tree, on this build's objects (native runs)
[ -z "$CLI_TESTS" ] && [ -z "$TEST_WRAPPER" ] && run_one layout python3 "$top/tests/layout.py"
if [ -n "$CLI_TESTS" ]; then set -- $CLI_TESTS; else set -- "$top"/tests/cli/*.sh; fi
for t in "$@"; do
	[ -f "$t" ] || continue
	run_one "$(basename "$t" .sh)" sh "$t"
done

[ -n "$skipped" ] && printf '\nskipped:%s\n' "$skipped"
[ -n "$failed" ] && printf '\nfailed:%s\n(logs in %s)\n' "$failed" "$logdir"
[ -z "$failed" ] && rm -rf "$logdir"
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

# A Ctrl-C in quick: the table that follows says it was interrupted and
# what was measured (issue 30, item 6: the header said "5.00 s x 3 runs"
# and nothing more): the runs asked, how many of the tests were measured,
# a test short of its runs with how many it has, the run cut short, and a
# second target not reached. The numbers agree with the results file.
# The signal goes once quick's line in the log says a measured run is
# under way (a line every 10 s where stderr is not a terminal).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/a" "$T/b"
"$SB" quick --size=16M --runtime=6s --repeat=5 --output="$T/q.json" "$T/a" "$T/b" >"$T/q.out" 2>"$T/q.err" &
pid=$!
wait_until 60 handles_int $pid && wait_until 60 grep -q "(run [0-9] of 5)" "$T/q.err" ||
	{ kill $pid; cat "$T/q.err"; fail "no measured run under way in 60 s"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/q.out" "$T/q.err"; fail "exit $rc, expected 130"; }
cat "$T/q.out"
head -n 1 "$T/q.out" | grep -q "x 5 runs (after a warm-up) asked" ||
	fail "the header does not say the runs were asked"
python3 - "$T/q.out" "$T/q.json" <<'PY' || fail "what was measured: see above"
import json, re, sys
out = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))['storbench']
assert d['interrupted']
s = d['summary']
m = re.search(r'^\[A\] interrupted: (\d+) of 8 tests measured(.*); the figures cover what ran$', out, re.M)
assert m, 'no interrupted line for A'
assert int(m.group(1)) == len(s) >= 1, (m.group(1), len(s))
short = [r for r in s if r['runs'] < 5]
for r in short:
    assert '%s %s with %d of 5 runs' % (r['test'], r['direction'], r['runs']) in m.group(2), r
assert re.search(r'\(the last run cut short at [0-9.]+ (s|ms)\)', m.group(2)), m.group(2)
assert re.search(r"^\[B\] interrupted before '.*/b' was measured$", out, re.M), 'B not said'
PY
ok "quick interrupted: the table says so, and what of it was measured"

# quick's warnings, and its two targets in a report (issue 30, item 5):
# the short-run warning's advice is quick's own (--runtime=2s or more, not
# "use --runtime with --time-based"), and --time-based is taken (its runs
# are bound by time); with two targets each warning names its target, and
# a warning both raised in the same words is said once, naming both; the
# reports (HTML and text) say each warning once with how many runs raised
# it, results written before warning_lines too; two quick results in one
# HTML report get a section with both side by side: B/A per test and a
# chart of A and B per direction.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/a" "$T/b"
expect_exit 0 "$SB" quick --time-based --size=8M --runtime=200ms --repeat=2 --quiet \
	--output="$T/q.json" "$T/a" "$T/b"
cat "$T/err"
grep -q -- "--time-based" "$T/err" && fail "quick's warning points to --time-based"
# each target's line, or one naming both where both said the same
short="measured for only .* in 16 of 16 runs: runs under 2 s are noisy (use --runtime=2s or more)$"
if grep -q "^warning: \[A\] '$T/a' and \[B\] '$T/b': $short" "$T/err"; then
	[ "$(grep -c "measured for only" "$T/err")" = 1 ] || fail "short runs: said of both, and again"
else
	for k in A B; do
		d=$(echo $k | tr AB ab)
		grep -q "^warning: \[$k\] '$T/$d': $short" "$T/err" ||
			fail "[$k]: no short-run warning naming its target"
	done
	[ "$(grep -c "measured for only" "$T/err")" = 2 ] || fail "short runs: not one line a target"
fi
grep "^warning:" "$T/err" | grep -v "^warning: \[A\] \|^warning: \[B\] " &&
	fail "a warning of two targets that names neither"
ok "quick --time-based: taken; each warning once, naming its target, with quick's advice"

# the reports: each warning once, as stderr said it
expect_exit 0 "$SB" report "$T/q.json" "$T/q-2.json" -o "$T/q.html"
python3 - "$T/q.html" <<'PY' || fail "two quick results in HTML: see above"
import re, sys
h = open(sys.argv[1]).read()
w = re.findall(r'<li>(measured for only[^<]*)</li>', h)
print('\n'.join(w))
assert len(w) == 2 and all(' in 16 of 16 runs: ' in s for s in w), 'each result: its warning once'
m = re.search(r'<section id="pair">(.*?)</section>', h, re.S)
assert m, 'no section with A and B side by side'
p = m.group(1)
assert '<th class="n">B/A</th>' in p, 'no B/A column'
rows = re.findall(r'<tr><td>(SEQ1M|RND4K)[^<]*</td><td>(read|write)</td>(.*?)</tr>', p)
assert len(rows) == 8, len(rows)
assert all(re.search(r'<td class="n">\d+\.\d\dx</td>', r[2]) for r in rows), 'a ratio in every row'
assert p.count('<svg') == 2, 'a chart of A and B per direction'
assert h.index('id="pair"') < h.index('id="r1"'), 'the pair comes first'
PY
# at 1280 px (tests/tools/page-boxes.py, headless Chromium): A and B in
# the first screen, no text over text, nothing out of its chart or page
python3 "$SB_TOP/tests/tools/page-boxes.py" --overlaps --overflow \
	--first-screen 'A and B side by side' "$T/q.html" >"$T/pb.out"
case $? in
0) ;;
77) echo "not looked at in a browser: $(tail -n 1 "$T/pb.out")" ;;
*) cat "$T/pb.out"; fail "two quick results in HTML: text overlaps or overflows" ;;
esac
expect_exit 0 "$SB" report "$T/q.json"
[ "$(grep -c "measured for only" "$T/out")" = 1 ] || { cat "$T/out"; fail "text report: not once"; }
ok "report: each warning once; two quick results side by side with B/A and a chart"

# results without warning_lines (written before them): each warning once,
# the first run's sentence and how many more runs raised it
python3 - "$T/q.json" "$T/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d['storbench']['warning_lines']
json.dump(d, open(sys.argv[2], 'w'))
PY
expect_exit 0 "$SB" report "$T/old.json"
grep "measured for only" "$T/out"
[ "$(grep -c "measured for only" "$T/out")" = 1 ] || fail "old results: the warning not once"
grep -q "in 'SEQ1M Q8T1 read (run 1 of 2)' and 15 more runs: " "$T/out" ||
	fail "old results: not the first run's sentence with the runs after it"
ok "results before warning_lines: each warning once, with how many runs raised it"

# Verify results as a report: a file damaged with dd between
# verify --phase=write and --phase=check gives a map with the bad cells in
# their class's colour, the counts and the ranges in HTML, text and CSV;
# run --verify carries the same section; a clean run shows only intact; a
# section no storbench writes is refused, naming the key path.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

K=4096
F=$T/data.bin
expect_exit 0 "$SB" verify --phase=write --size=4M --seed=42 --quiet "$F"
dd if=/dev/zero of="$F" bs=$K seek=9 count=2 conv=notrunc status=none			# foreign
dd if="$F" of="$F" bs=$K skip=1 seek=300 count=3 conv=notrunc status=none		# misplaced
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/v.json" "$F"

expect_exit 0 "$SB" report "$T/v.json" -o "$T/v.html"
python3 - "$T/v.html" <<'PY' || fail "verify map"
import re, sys
h = open(sys.argv[1], encoding='utf-8').read()
grid = re.findall(r'<svg class="chart chart-grid".*?</svg>', h, re.S)
assert len(grid) == 1, "%d maps" % len(grid)
g = grid[0]
assert 'NaN' not in g and not re.search(r'\sd=""', g)
for name in ('intact', 'corrupted', 'misplaced', 'stale', 'foreign', 'unreadable'):
    assert '>%s</text>' % name in g, "legend lacks " + name
# 1024 blocks in cells of one block, 64 to a row: the foreign cells 9-10 in
# blue, the misplaced 300-302 in purple, the rest green
assert re.search(r'fill="#0072B2"><title>36 KiB to 44 KiB: foreign</title>', g), "foreign cell"
assert re.search(r'fill="#CC79A7"><title>1.17 MiB to 1.18 MiB: misplaced</title>', g), "misplaced cell"
assert g.count('fill="#009E73"') >= 16, "intact rows"
assert 'Row starts at' in g and 'Offset within the row' in g
assert '>misplaced</td><td class="n">3</td>' in h, "counts table"
assert '1.17 MiB (1228800)' in h and 'data written for 4.00 KiB (4096)' in h, "ranges table"
PY
ok "HTML: the map colours the damaged cells by class, with counts and ranges"

expect_exit 0 "$SB" report "$T/v.json"
grep -q "^verify: 1024 blocks of 4096 B checked, result fail" "$T/out" || fail "text header"
grep -q "^misplaced *3 *12.0 KiB" "$T/out" || fail "text counts: $(cat "$T/out")"
grep -q "^foreign *36.0 KiB (36864) *8.00 KiB (8192)" "$T/out" || fail "text ranges"
expect_exit 0 "$SB" report "$T/v.json" --table=verify -o "$T/c.csv"
expect_exit 0 "$SB" report "$T/v.json" --table=ranges -o "$T/r.csv"
python3 - "$T/c.csv" "$T/r.csv" <<'PY' || fail "CSV"
import csv, sys
c = list(csv.DictReader(open(sys.argv[1], newline='')))
assert [r['class'] for r in c] == ['intact', 'corrupted', 'misplaced', 'stale', 'foreign', 'unreadable', 'newer', 'missing'], [r['class'] for r in c]
assert c[2]['blocks'] == '3' and c[2]['bytes'] == '12288' and c[4]['blocks'] == '2'
r = list(csv.DictReader(open(sys.argv[2], newline='')))
assert len(r) == 2, r
assert (r[0]['class'], r[0]['offset_bytes'], r[0]['length_bytes']) == ('foreign', '36864', '8192')
assert (r[1]['class'], r[1]['expected_offset_bytes']) == ('misplaced', '4096')
PY
ok "text and CSV: the counts and the ranges"

expect_exit 0 "$SB" run --verify --rw=randwrite --size=2M --quiet --output="$T/run.json" "$T/run.dat"
expect_exit 0 "$SB" report "$T/run.json" -o "$T/run.html"
grep -q '<svg class="chart chart-grid"' "$T/run.html" || fail "run --verify: no map"

ok "run --verify: the same section, all intact"

# a result written before the newer and missing classes existed lists six
python3 - "$T/v.json" "$T/old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = d['storbench']['verify']
for k in ('newer', 'missing'):
    v.pop(k, None)
json.dump(d, open(sys.argv[2], 'w'))
PY
expect_exit 0 "$SB" report "$T/old.json" --table=verify -o "$T/old.csv"
[ "$(tail -n +2 "$T/old.csv" | wc -l)" = 6 ] || { cat "$T/old.csv"; fail "old result: not six classes"; }
expect_exit 0 "$SB" report "$T/old.json" -o "$T/old.html"
grep -q '>missing</text>' "$T/old.html" && fail "old result: missing in the legend"
grep -q ">missing</td>" "$T/v.html" || fail "new result: no missing class"
ok "classes a result does not list are not shown"

# the section is read through lib/verify's reader (sb_verify_read): what no
# storbench writes is refused with its key path, the same in every format
bad() { # WHAT PATTERN PYTHON: v (the verify section) changed as PYTHON says
	python3 - "$T/v.json" "$T/bad.json" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = d['storbench']['verify']
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], 'w'))
PY
	for fmt in text csv; do
		expect_exit 2 "$SB" report "$T/bad.json" --format=$fmt
		grep -q "^storbench: '.*/bad.json': storbench\.verify\.$2" "$T/err" ||
			{ cat "$T/err"; fail "$1 ($fmt)"; }
	done
}
bad "blocks_checked missing" "blocks_checked: expected a number from 0 to 1e18, found nothing" \
	"v.pop('blocks_checked')"
bad "a range without its class" "bad_ranges\[1\]\.class: expected a verify class .*, found nothing" \
	"v['bad_ranges'][1].pop('class')"
bad "a negative count" "misplaced: expected a number from 0 to 1e18, found -3" "v['misplaced'] = -3"
bad "ranks not a list" "ranks: expected an array of ranks, found 2" "v['ranks'] = 2"
bad "a phase of the wrong type" "phase: expected a string, found 1" "v['phase'] = 1"
ok "a verify section no storbench writes is refused by its key path"

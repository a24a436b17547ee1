# compare's verdicts on synthetic results with a known truth
# (tests/tools/synth-results.py, fixed seeds): runs drawn from the same
# distribution (5% noise) are called changed in at most 10% of the rows,
# with 5 runs a side and with 2; a 30% slowdown with 5 runs a side is
# called worse in at least 95% of the rows. Two runs a side, one run (old
# results, fio's) get "inconclusive" with the runs needed and the --repeat
# to use; text, JSON, CSV, HTML and XLSX carry the verdict, the difference
# and its interval.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

GEN="$SB_TOP/tests/tools/synth-results.py"
gen() { python3 "$GEN" "$@" || fail "synth-results.py $*"; }

# rate NAME RUNS FACTOR VERDICTS: 10 pairs of files of 40 tests (1600 rows,
# 800 independent figures: bandwidth, IOPS and mean latency move together),
# the share of rows whose verdict is in VERDICTS (a python set). Small files:
# the model's loader grows its job array one job at a time, which ASan's
# realloc copies every time.
rate() {
	name=$1 runs=$2 factor=$3 verdicts=$4
	gen --seed=$((runs * 10 + 1)) --count=10 --runs="$runs" --tests=40 -o "$T/$name-a{}.json"
	gen --seed=$((runs * 10 + 2)) --count=10 --runs="$runs" --tests=40 --factor="$factor" \
		-o "$T/$name-b{}.json"
	for i in 1 2 3 4 5 6 7 8 9 10; do
		expect_exit 0 "$SB" compare "$T/$name-a$i.json" "$T/$name-b$i.json" --format=json
		cp "$T/out" "$T/$name-c$i.json"
	done
	python3 - "$verdicts" "$T"/$name-c*.json <<'PY'
import json, sys
want = eval(sys.argv[1])
rows = [r for f in sys.argv[2:] for r in json.load(open(f))['comparisons']]
assert len(rows) == 1600, len(rows)
print('%.4f' % (sum(r['verdict'] in want for r in rows) / len(rows)))
PY
}

fp5=$(rate same5 5 1 "{'better', 'worse'}") || fail "same distribution, 5 runs"
fp2=$(rate same2 2 1 "{'better', 'worse'}") || fail "same distribution, 2 runs"
pw5=$(rate slow5 5 0.7 "{'worse'}") || fail "30% slower, 5 runs"
echo "same distribution, 5% noise: changed in $fp5 of the rows (5 runs), $fp2 (2 runs)"
echo "30% slower, 5% noise, 5 runs: worse in $pw5 of the rows"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 0.10 else 1)" "$fp5" ||
	fail "same distribution, 5 runs: $fp5 of the rows called changed (at most 0.10)"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 0.10 else 1)" "$fp2" ||
	fail "same distribution, 2 runs: $fp2 of the rows called changed (at most 0.10)"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.95 else 1)" "$pw5" ||
	fail "30% slower: only $pw5 of the rows called worse (at least 0.95)"
# the test does speak at 5 runs: some rows of the same distribution are
# called changed (about 3%: 2 * 4/252 per independent figure)
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$fp5" ||
	fail "same distribution, 5 runs: no row called changed at all (no test ran?)"
ok "false positives $fp5 (5 runs), $fp2 (2 runs); power $pw5 (30% slower, 5 runs)"

# the JSON of the slowdown: each row's difference inside its interval, the
# intervals holding the truth (-30% for throughput, +43% = 1/0.7 for
# latency) in about their confidence (96.8%) of the rows, the differences
# centred on it
python3 - "$T"/slow5-c*.json <<'PY' || fail "slowdown: JSON difference and interval"
import json, statistics, sys
rows = []
for f in sys.argv[1:]:
    c = json.load(open(f))
    assert c['method']['runs_needed'] == 4 and c['method']['runs_advised'] == 5
    assert c['advice'] is None
    rows += c['comparisons']
truth = lambda r: -30 if r['metric'] in ('bw_bytes', 'iops') else 100 * (1 / 0.7 - 1)
for r in rows:
    lo, hi = r['interval_pct']
    assert lo <= r['diff_pct'] <= hi, r
    assert 0.95 <= r['confidence'] < 1 and r['p_value'] <= 0.05, r
    assert r['A']['runs'] == 5 and len(r['A']['values']) == 5 and r['runs_needed'] == 4
    assert 'reason' not in r
covered = sum(r['interval_pct'][0] <= truth(r) <= r['interval_pct'][1] for r in rows) / len(rows)
print('intervals holding the truth: %.3f' % covered)
assert covered >= 0.93, covered
for m in ('bw_bytes', 'iops', 'lat_mean_ns', 'lat_p99_ns'):
    mid = statistics.median(r['diff_pct'] for r in rows if r['metric'] == m)
    assert abs(mid - truth({'metric': m})) < 2, (m, mid)
PY
ok "slowdown: difference and interval"

# two runs a side: no verdict, the runs needed, the --repeat to use
expect_exit 0 "$SB" compare "$T/same2-a1.json" "$T/slow5-b1.json"
grep -q "inconclusive: 2 and 5 runs, at least 4 needed$" "$T/out" ||
	{ cat "$T/out"; fail "2 against 5 runs: no inconclusive verdict"; }
expect_exit 0 "$SB" compare "$T/same2-a1.json" "$T/same2-b1.json"
[ "$(grep -c "inconclusive: 2 runs, at least 4 needed$" "$T/out")" = 160 ] ||
	{ head -20 "$T/out"; fail "2 runs: not every row inconclusive"; }
grep -q "^inconclusive: 160 of 160 comparisons have too few runs for the test (at least 4 a side; A has 2, B has 2): measure again with --repeat=5 or more (storbench quick --repeat=5)$" "$T/out" ||
	{ tail -5 "$T/out"; fail "2 runs: no advice on --repeat"; }
grep -q " better\| worse\|within noise" "$T/out" && fail "2 runs: a verdict"
ok "2 runs: inconclusive, with the --repeat to use"

# old results: one run (no "(run i of n)"), and fio's layout
gen --seed=7 --runs=1 --tests=3 -o "$T/old.json"
gen --seed=8 --runs=1 --tests=3 --factor=0.5 --fio -o "$T/fio.json"
expect_exit 0 "$SB" compare "$T/old.json" "$T/fio.json"
[ "$(grep -c "inconclusive: 1 run, at least 4 needed$" "$T/out")" = 12 ] ||
	{ cat "$T/out"; fail "one run: not inconclusive"; }
grep -q "bandwidth .* -[45][0-9]\.[0-9]%  *-  *inconclusive" "$T/out" ||
	{ cat "$T/out"; fail "one run: the difference of the two values is not shown"; }
grep -q "A has 1, B has 1" "$T/out" || fail "one run: the advice does not say how many"
expect_exit 0 "$SB" compare "$T/old.json" "$T/fio.json" --format=json
python3 - "$T/out" <<'PY' || fail "one run: JSON"
import json, sys
c = json.load(open(sys.argv[1]))
for r in c['comparisons']:
    assert r['verdict'] == 'inconclusive' and r['reason'] == '1 run, at least 4 needed', r
    assert r['p_value'] is None and r['interval_pct'] is None and r['confidence'] is None
    assert r['diff_pct'] is not None
assert '--repeat=5' in c['advice']
PY
ok "old results (one run, fio): inconclusive with the reason"

# CSV: one row per comparison, the verdict, difference and interval
expect_exit 0 "$SB" compare "$T/slow5-a1.json" "$T/slow5-b1.json" -o "$T/c.csv"
python3 - "$T/c.csv" <<'PY' || fail "CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
assert len(rows) == 160, len(rows)
for r in rows:
    assert r['verdict'] == 'worse' and r['other'] == 'B' and r['reason'] == '', r
    assert float(r['interval_low_pct']) <= float(r['diff_pct']) <= float(r['interval_high_pct'])
    assert float(r['p_value']) <= 0.05 and r['a_runs'] == '5', r
    assert r['unit'] == {'bw_bytes': 'bytes/s', 'iops': 'IO/s'}.get(r['metric'], 'ns'), r
PY
expect_exit 0 "$SB" compare "$T/old.json" "$T/fio.json" --format=csv
python3 - "$T/out" <<'PY' || fail "CSV, one run"
import csv, io, sys
rows = list(csv.DictReader(io.StringIO(open(sys.argv[1]).read())))
assert rows and all(r['verdict'] == 'inconclusive' and r['interval_low_pct'] == ''
                    and r['reason'] == '1 run, at least 4 needed' for r in rows), rows
PY
ok "CSV"

# HTML: the interval, the p-value and the verdict in every row
expect_exit 0 "$SB" compare "$T/slow5-a1.json" "$T/slow5-b1.json" -o "$T/c.html"
[ "$(grep -c '<td class="bad">worse</td>' "$T/c.html")" = 160 ] || fail "HTML: verdicts"
grep -q "<th[^>]*>95% interval</th>" "$T/c.html" || fail "HTML: no interval column"
grep -q 'NaN' "$T/c.html" && fail "HTML: NaN"
expect_exit 0 "$SB" compare "$T/same2-a1.json" "$T/same2-b1.json" -o "$T/c2.html"
grep -q '<ul class="warn"><li>inconclusive: 160 of 160 comparisons' "$T/c2.html" ||
	fail "HTML: no advice"
ok "HTML"

# XLSX, where built in: the sheet's strings hold the verdicts
if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" compare "$T/slow5-a1.json" "$T/slow5-b1.json" -o "$T/c.xlsx"
	python3 "$SB_TOP/tests/tools/xlsx-sheet.py" "$T/c.xlsx" Comparison >"$T/c-x.csv" || fail "XLSX: no Comparison sheet"
	python3 - "$T/c-x.csv" <<'PY' || fail "XLSX"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
# the table, then the medians of each side under it
full = [len(r) >= len(rows[0]) - 1 for r in rows] + [False]
table = rows[:full.index(False)]
head = table[0]
for s in ('verdict', 'interval_low_pct', 'diff_pct'):
    assert s in head, s
cells = {c for r in table for c in r}
for s in ('worse', 'MiB/s', 'T001 Q1T1'):
    assert s in cells, s
assert len(table) == 161, len(table)
PY
	# no hand formatting (issue 30): formats, widths, the medians' chart
	python3 "$SB_TOP/tests/tools/xlsx-sheet.py" --check --first=Comparison --verdict=worse --charts=1 \
		"$T/c.xlsx" || fail "XLSX: the workbook needs formatting by hand"
	expect_exit 2 "$SB" compare "$T/slow5-a1.json" "$T/slow5-b1.json" --format=xlsx
	grep -q "a workbook needs a file" "$T/err" || fail "XLSX to stdout"
	ok "XLSX"
fi

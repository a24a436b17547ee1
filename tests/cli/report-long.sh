# Reports of long results stream (issue 13): a 100,000-iteration soak log
# (a day of 1-second iterations, ~55 MB, made by tests/tools/gen-long.py
# with a known truth), a soak result holding them, and a run result with
# per-second intervals over 24 hours render in at most 64 MiB of memory
# (peak RSS, GNU time; not measured under a sanitizer, which adds its own
# and runs a fifth of the iterations),
# as an HTML page of at most 4 MiB whose long lines are drawn per pixel
# column, and which still shows every change point, every iteration with
# kernel messages or I/O errors and every ringed outlier the input holds;
# the text, CSV and XLSX outputs stream too. Timings are bench/report-long's.
# needs: slow
. "$(dirname "$0")/../lib/cli.sh"

GEN="$SB_TOP/tests/tools/gen-long.py"
N=100000
LIMIT_KIB=65536
HTML_MAX=$((4 * 1024 * 1024))
measure=1
[ -x /usr/bin/time ] || { measure=0; echo "no /usr/bin/time: memory not measured"; }
if ldd "$SB" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	measure=0
	N=20000 # what is shown is checked all the same, in the time a test has
	echo "a sanitizer build: memory not measured, $N iterations"
fi

# peak RSS of a report (KiB), and its exit status 0
report() { # OUT ARGS...
	out=$1
	shift
	if [ $measure = 1 ]; then
		/usr/bin/time -f %M -o "$T/rss" "$SB" report "$@" -o "$out" 2>"$T/err" ||
			{ cat "$T/err"; fail "report $*"; }
		rss=$(tail -n 1 "$T/rss")
		[ "$rss" -le $LIMIT_KIB ] || fail "report $* -o $(basename "$out"): peak RSS $rss KiB"
		echo "report $(basename "$1") -o $(basename "$out"): peak RSS $rss KiB"
	else
		"$SB" report "$@" -o "$out" 2>"$T/err" || { cat "$T/err"; fail "report $*"; }
	fi
}

small() { # HTML: no larger than HTML_MAX, no NaN, no empty path
	size=$(wc -c <"$1")
	[ "$size" -le $HTML_MAX ] || fail "$(basename "$1"): $size bytes"
	grep -q 'NaN\| d=""' "$1" && fail "$(basename "$1"): NaN or an empty path"
	echo "$(basename "$1"): $size bytes"
}

# what the page shows: every change point, outlier and event the truth has
# (or, analysed, that the JSON analysis found, which is the truth too); lines
# drawn per pixel column
shows() { # HTML TRUTH JSON
	python3 - "$@" <<'PY'
import json, re, sys
h = open(sys.argv[1], encoding='utf-8').read()
truth = json.load(open(sys.argv[2]))
an = json.load(open(sys.argv[3]))['inputs'][0]['soak']
tp = re.findall(r'<svg class="chart.*?</svg>', h, re.S)[0]
vl = re.findall(r'<line class="vline"[^>]*><title>(\w+) throughput changes at iteration (\d+):', tp)
want = {(k[:-3], c['iteration']) for k in ('write_bw', 'read_bw')
        for c in an[k]['change_points'] or []}
assert {(k, int(i)) for k, i in vl} == want, (vl, want)
# the truth, from the input's own verdict or from the analysis (lib/analysis
# finds each step within 5 iterations and every dip, issue 13's goals)
steps = sorted((k[:-3], at) for k, s in truth['steps'].items() for at, _ in s)
found = sorted(want)
assert len(found) == len(steps) and all(
    a[0] == b[0] and abs(a[1] - b[1]) <= 5 for a, b in zip(found, steps)), (found, steps)
assert an['write_bw']['outliers'] == truth['dips'], an['write_bw']['outliers']
rings = {int(i) for i in re.findall(r'stroke-width="2.5"><title>write at (\d+):', tp)}
assert rings == set(an['write_bw']['outliers'] or []), (rings, an['write_bw']['outliers'])
marks = re.findall(r'<path class="event" d="[^"]*"><title>([^<]*)</title>', tp)
named = {int(i) for m in marks for i in re.findall(r'iteration (\d+):', m)}
for k in ('kmsg', 'errors'):
    missing = set(truth[k]) - named
    assert not missing, (k, sorted(missing)[:5])
    rows = {int(i) for i in re.findall(r'<tr><td>(\d+)</td><td>', h)}
    assert set(truth[k]) <= rows, k
assert set(an['events']['kmsg']) == set(truth['kmsg'])
assert set(an['events']['io_errors']) == set(truth['errors'])
# per pixel column: at most 4 points per column of the plot (< 960 px)
for d in re.findall(r'<path class="series"[^>]* d="([^"]*)"', tp):
    assert d.count('L') + d.count('M') <= 4 * 960, len(d)
print("shown: %d change points, %d rings, %d events" % (len(vl), len(rings), len(named)))
PY
}

python3 "$GEN" soak $N "$T/soak.jsonl" --truth "$T/truth.json" --summary || fail "generator"
report "$T/soak.html" "$T/soak.jsonl"
small "$T/soak.html"
"$SB" report "$T/soak.jsonl" --format=json >"$T/soak.json" 2>"$T/err" || fail "json"
shows "$T/soak.html" "$T/truth.json" "$T/soak.json" || fail "the soak's verdict on the page"
ok "a day's soak log with its verdict: every change point, outlier and event on a small page"

# a killed soak (no summary line): the page shows the analysis the JSON tells
head -n $N "$T/soak.jsonl" >"$T/killed.jsonl" # config and N - 1 iterations
python3 - "$T/truth.json" $((N - 1)) <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
for k in ('kmsg', 'errors', 'dips'):
    t[k] = [i for i in t[k] if i <= n]
json.dump(t, open(sys.argv[1], 'w'))
PY
report "$T/killed.html" "$T/killed.jsonl"
small "$T/killed.html"
"$SB" report "$T/killed.jsonl" --format=json >"$T/killed.json" 2>"$T/err" || fail "json"
[ "$(json "$T/killed.json" "d['inputs'][0]['soak']['anomalies_from']")" = analysis ] ||
	fail "a log without a summary is analysed"
shows "$T/killed.html" "$T/truth.json" "$T/killed.json" || fail "the analysis on the page"
ok "a day's soak log without a verdict: the analysis on the page"

# the other outputs stream as well: text, and CSV and XLSX rows of every iteration
report "$T/soak.txt" "$T/killed.jsonl"
grep -q "^$((N - 1)) iterations, 120 failed: no verdict" "$T/soak.txt" || fail "text: $(cat "$T/soak.txt")"
report "$T/verify.csv" "$T/killed.jsonl" --table=verify
[ "$(grep -c ',corrupted,' "$T/verify.csv")" = $((N - 1)) ] || fail "verify CSV rows"
grep -q "^killed.jsonl,soak,$(json "$T/truth.json" "d['errors'][-1]"),corrupted,3," "$T/verify.csv" ||
	fail "verify CSV: the bad blocks of the last error"
rm -f "$T/verify.csv"
if "$SB" --version | grep -q "features:.* xlsx"; then
	report "$T/soak.xlsx" "$T/killed.jsonl"
	python3 - "$T/soak.xlsx" $((N - 1)) <<'PY' || fail "XLSX: every iteration"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = re.findall(r'<sheet name="([^"]+)" sheetId="(\d+)"', z.read('xl/workbook.xml').decode())
k = [i for n, i in names if n == 'Iterations'][0]
x = z.read('xl/worksheets/sheet%s.xml' % k).decode()
last = re.findall(r'<row r="(\d+)"', x)[-1]
assert int(last) == int(sys.argv[2]) + 1, last
PY
fi
ok "text, CSV and XLSX of a day's soak log"

# a soak result with the same iterations (storbench.soak.iteration_records)
mkdir "$T/d"
"$SB" soak --iterations=2 --size=1M --quiet --log="$T/s.jsonl" --output="$T/s.json" "$T/d" \
	>/dev/null 2>&1 || fail "a real soak"
python3 "$GEN" soak-result $N "$T/result.json" --template "$T/s.json" --truth "$T/truth.json" ||
	fail "generator"
report "$T/result.html" "$T/result.json"
small "$T/result.html"
"$SB" report "$T/result.json" --format=json >"$T/result.a.json" 2>"$T/err" || fail "json"
shows "$T/result.html" "$T/truth.json" "$T/result.a.json" || fail "the soak result's page"
report "$T/records.csv" "$T/result.json" --table=ranges
[ "$(wc -l <"$T/records.csv")" = 21 ] || fail "ranges CSV: the 20 bad ranges"
rm -f "$T/result.json" "$T/records.csv"
ok "a soak result of a day's iterations"

# a run result with per-second intervals over 24 hours
"$SB" run --rw=randrw --size=4M --runtime=1s --time-based --quiet --output="$T/run.json" \
	"$T/run.dat" >/dev/null 2>&1 || fail "a real run"
S=$((N * 864 / 1000)) # seconds: a day at N = 100000
python3 "$GEN" run $S "$T/run24.json" --template "$T/run.json" || fail "generator"
report "$T/run24.html" "$T/run24.json"
small "$T/run24.html"
python3 - "$T/run24.html" <<'PY' || fail "run: the charts over 24 hours"
import re, sys
h = open(sys.argv[1], encoding='utf-8').read()
svgs = re.findall(r'<svg class="chart chart-line.*?</svg>', h, re.S)
assert len(svgs) >= 2, len(svgs)
for s in svgs[:2]:  # bandwidth and IOPS over time: both directions, per pixel column
    paths = re.findall(r'<path class="series"[^>]* d="([^"]*)"', s)
    assert len(paths) == 2, len(paths)
    for d in paths:
        assert 1000 < d.count('L') <= 4 * 960, d.count('L')
PY
report "$T/intervals.csv" "$T/run24.json" --table=intervals
[ "$(wc -l <"$T/intervals.csv")" = $((2 * S + 1)) ] || fail "intervals CSV: a row per interval and direction"
rm -f "$T/intervals.csv"
report "$T/run24.txt" "$T/run24.json"
grep -q "^job  *read  *$S " "$T/run24.txt" || fail "text: $(grep -A3 'per interval' "$T/run24.txt")"
if "$SB" --version | grep -q "features:.* xlsx"; then
	report "$T/run24.xlsx" "$T/run24.json"
fi
ok "a run result with a day of per-second intervals"

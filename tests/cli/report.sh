# report renders results the real binary wrote: text, CSV tables with the
# right number of rows (computed from the JSON by Python), HTML that holds
# the expected charts and no NaN, and an XLSX workbook with its parts and
# charts (or, built without libxlsxwriter, a clear refusal).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

expect_exit 0 "$SB" run --rw=randrw --size=8M --runtime=1200ms --time-based --log-interval=200ms \
	--quiet --output="$T/run.json" "$T/run.dat"
mkdir "$T/q"
expect_exit 0 "$SB" quick --size=8M --runtime=150ms --repeat=2 --quiet --output="$T/quick.json" "$T/q"

# text: the tables of both
expect_exit 0 "$SB" report "$T/run.json" "$T/quick.json"
grep -q "^results (total latency)" "$T/out" || fail "text: no results table"
grep -q "^summary" "$T/out" || fail "text: no summary table of quick"
grep -q "RND4K Q32T1" "$T/out" || fail "text: quick's tests missing"
grep -q "MiB/s\|GiB/s\|KiB/s" "$T/out" || fail "text: no IEC rates"
ok "text report"

# CSV: parsed by Python's csv module, one row per measurement / interval / ...
csv_rows() { # FILE -> rows, after checking every row has the header's width
	python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
assert all(len(r) == len(rows[0]) for r in rows), "ragged rows"
print(len(rows) - 1)
PY
}
expected() { # TABLE: what the JSON says the table must hold
	python3 - "$1" "$T/run.json" "$T/quick.json" <<'PY'
import json, sys
table, docs = sys.argv[1], [json.load(open(p)) for p in sys.argv[2:]]
n = 0
for d in docs:
    for j in d['jobs']:
        used = [k for k in ('read', 'write', 'trim') if j[k]['total_ios'] > 0]
        if table == 'measurements':
            n += len(used)
        elif table == 'percentiles':
            n += sum(len(j[k]['lat_ns'].get('percentile', {})) for k in used)
        elif table == 'intervals':
            s = j['storbench']['series']
            iv = j['storbench']['log_interval_ns']
            # the stop leaves a last sliver of an interval, which reports leave out
            if len(s) > 1 and s[-1]['len_ns'] < iv / 4:
                s = s[:-1]
            n += len(s) * len(used)
    if table == 'summary':
        n += len(d['storbench']['summary'])
print(n)
PY
}
for t in measurements intervals summary percentiles; do
	expect_exit 0 "$SB" report "$T/run.json" "$T/quick.json" --table=$t -o "$T/$t.csv"
	got=$(csv_rows "$T/$t.csv") || fail "$t.csv does not parse"
	want=$(expected $t)
	[ "$got" = "$want" ] || fail "$t.csv: $got rows, expected $want"
	[ "$want" -gt 0 ] || fail "$t: nothing to check"
done
head -n 1 "$T/measurements.csv" | grep -q "bw_bytes_per_s,iops" || fail "units not in column names"
head -n 1 "$T/intervals.csv" | grep -q "t_start_s,t_end_s,bw_bytes_per_s" || fail "interval columns"
ok "CSV tables parse with the right number of rows"

# HTML: one file, the charts of a run (4) and of quick (2), nothing fetched
expect_exit 0 "$SB" report "$T/run.json" "$T/quick.json" -o "$T/r.html"
n=$(grep -o '<svg class="chart ' "$T/r.html" | wc -l)
[ "$n" = 6 ] || fail "HTML: $n charts, expected 6"
grep -q 'NaN\|Infinity\| d=""' "$T/r.html" && fail "HTML: NaN or an empty path"
grep -Eiq '(src|href)="(https?:)?//|<link |@import|url\(http' "$T/r.html" && fail "HTML fetches something"
grep -q "Bandwidth by test" "$T/r.html" || fail "HTML: no quick bar chart"
grep -q "Latency percentiles" "$T/r.html" || fail "HTML: no percentile curve"
ok "HTML report"

# a command's own section: sweep's matrices as heatmaps, one per test
mkdir "$T/sw"
expect_exit 0 "$SB" sweep --tests=write,read --file-sizes=64k,256k --record-sizes=4k,64k \
	--output="$T/sweep.json" "$T/sw"
expect_exit 0 "$SB" report "$T/sweep.json" -o "$T/sweep.html"
[ "$(grep -c '<svg class="chart chart-heatmap' "$T/sweep.html")" = 2 ] || fail "sweep: 2 heatmaps"
grep -q 'NaN\|Infinity' "$T/sweep.html" && fail "sweep HTML: NaN"
grep -q "Writer report (write)" "$T/sweep.html" || fail "sweep: matrix title"
ok "sweep's matrices as heatmaps"

# XLSX: a zip with the workbook and chart parts, every part well-formed XML
if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" report "$T/run.json" "$T/quick.json" -o "$T/r.xlsx"
	command -v unzip >/dev/null || skip "unzip is not installed"
	unzip -l "$T/r.xlsx" >"$T/parts" || fail "XLSX is not a zip"
	grep -q "xl/workbook.xml" "$T/parts" || fail "XLSX: no workbook part"
	grep -q "xl/charts/chart1.xml" "$T/parts" || fail "XLSX: no chart part"
	python3 - "$T/r.xlsx" <<'PY' || fail "XLSX: a part is not well-formed XML"
import sys, zipfile, xml.dom.minidom
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
for n in z.namelist():
    if n.endswith('.xml') or n.endswith('.rels'):
        xml.dom.minidom.parseString(z.read(n))
sheets = z.read('xl/workbook.xml').decode()
for s in ('Summary', 'Measurements', 'Intervals', 'Percentiles'):
    assert 'name="%s"' % s in sheets, s
PY
	ok "XLSX workbook"
else
	expect_exit 2 "$SB" report "$T/run.json" -o "$T/r.xlsx"
	grep -q "without XLSX support" "$T/err" || fail "no reason given for the missing XLSX"
	[ ! -e "$T/r.xlsx" ] || fail "a file was left behind"
	ok "XLSX refused: built without libxlsxwriter"
fi

# A soak log (JSON Lines: a configuration line, then one record per
# iteration) as a report: throughput per iteration with the outlier ringed
# and the step marked as a change point, errors and kernel messages on the
# same axis; a last line cut by a crash is left out with a note; an
# interrupted iteration is no outlier and too few iterations are said to be
# too few (the soak's own analysis), and the text's
# figures leave that iteration out as the soak does; the records as a long CSV table.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

python3 - "$T/soak.jsonl" <<'PY'
import json, sys
f = open(sys.argv[1], 'w')
f.write(json.dumps({"type": "config", "log_version": 1, "storbench": "0.1.0",
                    "target": "/mnt/card/soak", "device": "mmcblk0", "model": "SD64G"}) + '\n')
for i in range(1, 41):
    w = 40e6 if i <= 25 else 20e6            # the SLC cache runs out: a step down
    w *= 1 + 0.01 * ((i * 7) % 5 - 2)        # a little ripple
    if i == 12:
        w = 5e6                              # one bad iteration
    r = 90e6 * (1 + 0.01 * ((i * 3) % 5 - 2))
    kmsg = [{"time_us": 1, "category": "io", "text": "mmc0: timeout"}] if i == 12 else []
    f.write(json.dumps({"type": "iteration", "iteration": i, "write_bw_bytes": w,
                        "read_bw_bytes": r, "io_errors": 1 if i == 12 else 0,
                        "kmsg": kmsg, "kmsg_omitted": 0, "failed": i == 12}) + '\n')
f.write('{"type": "iteration", "iteration": 41, "write_bw_bytes": 2')
PY

expect_exit 0 "$SB" report "$T/soak.jsonl" -o "$T/soak.html"
grep -q "line 42 of .*soak.jsonl.* is cut short" "$T/soak.html" || fail "no note of the cut line"
[ "$(grep -o '<svg class="chart ' "$T/soak.html" | wc -l)" = 2 ] || fail "expected 2 charts"
grep -q 'NaN\| d=""' "$T/soak.html" && fail "NaN or an empty path"
grep -q ">1 outlier ringed; 1 change point dashed; 1 iteration with errors marked on the axis<" "$T/soak.html" ||
	{ grep -o 'outlier[^<]*' "$T/soak.html"; fail "outlier and change point"; }
[ "$(grep -c 'class="vline"' "$T/soak.html")" = 1 ] || fail "change point line"
grep -q 'stroke="#D55E00" stroke-width="2.5"><title>write at 12' "$T/soak.html" ||
	fail "iteration 12 not ringed"
ok "soak log: charts with the outlier and the change point"

# a killed soak (no summary line): the chart analyses as the soak does, so
# an interrupted iteration (a partial figure) is no outlier, and 9
# iterations are too few to tell a change of level (5 on each side): the
# chart says so instead of claiming none
python3 - "$T/short.jsonl" <<'PY'
import json, sys
f = open(sys.argv[1], 'w')
f.write(json.dumps({"type": "config", "log_version": 1, "storbench": "0.1.0", "target": "/x"}) + '\n')
for i in range(1, 10):
    f.write(json.dumps({"type": "iteration", "iteration": i, "write_bw_bytes": 40e6 if i <= 5 else 20e6,
                        "read_bw_bytes": 1e6 if i == 3 else 90e6, "interrupted": i == 3}) + '\n')
PY
expect_exit 0 "$SB" report "$T/short.jsonl" -o "$T/short.html"
grep -q ">0 outliers ringed; too few for change points (10 needed)<" "$T/short.html" ||
	{ grep -o '[0-9]* outlier[^<]*' "$T/short.html"; fail "short step and interrupted iteration"; }
# the text counts the same iterations as the soak: not the interrupted one
expect_exit 0 "$SB" report "$T/short.jsonl"
grep -Eq "^read  per iteration: median 85.8 MiB/s, 85.8 MiB/s .. 85.8 MiB/s, p5 85.8 MiB/s, p95 85.8 MiB/s, variation 0.0%(;.*)?$" "$T/out" ||
	{ cat "$T/out"; fail "text: an interrupted iteration's figure counted"; }
grep -q "^9 iterations (1 cut short), 0 failed: no verdict (no summary after the last iteration" "$T/out" || fail "text: iterations of the short log"
ok "soak log without a verdict: analysed as the soak does"

expect_exit 0 "$SB" report "$T/soak.jsonl" --table=records -o "$T/records.csv"
python3 - "$T/records.csv" <<'PY' || fail "records CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
its = {r['record'] for r in rows}
assert len(its) == 40, len(its)
w = [r for r in rows if r['key'] == 'write_bw_bytes']
assert len(w) == 40 and float(w[11]['value']) == 5e6
assert any(r['key'] == 'kmsg[0].text' and r['value'] == 'mmc0: timeout' for r in rows)
PY
expect_exit 0 "$SB" report "$T/soak.jsonl"
grep -q "^== soak: /mnt/card/soak" "$T/out" || fail "text: header"
grep -q "^40 log records" "$T/out" || fail "text: record count"
grep -q "^40 iterations, 1 failed: no verdict (" "$T/out" || fail "text: iterations"
grep -q "^write per iteration: median " "$T/out" || fail "text: write throughput"
ok "soak log as CSV and text"

if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" report "$T/soak.jsonl" -o "$T/soak.xlsx"
	python3 - "$T/soak.xlsx" <<'PY' || fail "soak XLSX: Iterations sheet and its chart"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert 'name="Iterations"' in z.read('xl/workbook.xml').decode()
assert 'xl/charts/chart1.xml' in z.namelist()
assert b'<c:scatterChart>' in z.read('xl/charts/chart1.xml')
PY
	ok "soak log as XLSX: the iterations with a line chart"
fi

# report and compare read the JSON that fio itself writes
# (fio --output-format=json), and render it as they render storbench's.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

command -v fio >/dev/null 2>&1 || skip "fio is not installed (apt-get install fio)"
fio --name=rr --filename="$T/fio.dat" --size=8M --rw=randrw --bs=4k --runtime=1 --time_based \
	--ioengine=psync --output-format=json --output="$T/fio.json" >"$T/fio.log" 2>&1 ||
	skip "fio could not run here: $(tail -n 1 "$T/fio.log")"
fio --name=two --filename="$T/fio2.dat" --size=4M --rw=read --bs=64k --numjobs=2 \
	--output-format=json --output="$T/fio2.json" >"$T/fio2.log" 2>&1 ||
	skip "fio could not run here: $(tail -n 1 "$T/fio2.log")"

expect_exit 0 "$SB" report "$T/fio.json"
grep -q "measured by fio-" "$T/out" || fail "fio's version not shown"
grep -q "^rr  *read " "$T/out" || fail "fio's job not in the table"
grep -q "completion latency" "$T/out" || fail "fio's latency kind not named"

# the figures are fio's own, exactly
expect_exit 0 "$SB" report "$T/fio.json" --table=measurements -o "$T/m.csv"
python3 - "$T/fio.json" "$T/m.csv" <<'PY' || fail "CSV figures differ from fio's"
import csv, json, sys
fio = json.load(open(sys.argv[1]))['jobs'][0]
rows = {r['direction']: r for r in csv.DictReader(open(sys.argv[2], newline=''))}
for k in ('read', 'write'):
    assert float(rows[k]['bw_bytes_per_s']) == fio[k]['bw_bytes'], k
    assert abs(float(rows[k]['iops']) - fio[k]['iops']) < 1e-6 * fio[k]['iops'], k
    assert float(rows[k]['lat_p99_ns']) == fio[k]['clat_ns']['percentile']['99.000000'], k
    assert rows[k]['bs_bytes'] == '4096' and rows[k]['rw'] == 'randrw'
PY
ok "fio's JSON as a text report and CSV"

# HTML: no time series in fio's JSON, so the latency charts only
expect_exit 0 "$SB" report "$T/fio.json" -o "$T/fio.html"
n=$(grep -o '<svg class="chart ' "$T/fio.html" | wc -l)
[ "$n" = 2 ] || fail "fio HTML: $n charts, expected 2"
grep -q 'NaN\| d=""' "$T/fio.html" && fail "fio HTML: NaN or an empty path"
ok "fio's JSON as HTML"

# fio's notes before the JSON are skipped, with a note
{ echo "note: both iodepth >= 1 and synchronous I/O engine are selected"; cat "$T/fio.json"; } \
	>"$T/noted.json"
expect_exit 0 "$SB" report "$T/noted.json"
grep -q "^storbench: note: text before the JSON document" "$T/err" || fail "skipped text not noted"
ok "messages before fio's JSON skipped"

# compare: the same file is within noise; clones of one job stay apart
expect_exit 0 "$SB" compare "$T/fio.json" "$T/fio.json"
grep -q "better\|worse" "$T/out" && fail "identical fio results differ"
expect_exit 0 "$SB" compare "$T/fio2.json" "$T/fio2.json"
grep -q "^two #2 " "$T/out" || fail "fio's numjobs clones merged"
ok "compare on fio's JSON"

# --output-format=normal,json: fio's notes, its JSON, then its normal text;
# two jobs of 1 s merged by group_reporting ran 1 s, not 2 (fio's
# job_runtime sums them); the percentile chart tells p99.95 from p99.99
fio --name=gr --filename="$T/gr.dat" --size=4M --rw=randread --bs=4k --runtime=1 --time_based \
	--numjobs=2 --group_reporting --ioengine=psync --output-format=normal,json \
	--output="$T/nj.out" >"$T/nj.log" 2>&1 || skip "fio could not run here: $(tail -n 1 "$T/nj.log")"
grep -q "^Run status group 0" "$T/nj.out" || fail "fio wrote no normal text (the test needs it)"
expect_exit 0 "$SB" report "$T/nj.out"
grep -q "^storbench: note: text after the JSON document" "$T/err" || fail "normal text not noted"
want=$(python3 - "$T/nj.out" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
job = json.JSONDecoder().raw_decode(t[t.index('\n{') + 1:])[0]['jobs'][0]
assert job['job_runtime'] > 1.5 * job['read']['runtime'], 'fio no longer sums job_runtime'
print('%.2f s' % (job['read']['runtime'] / 1000))
PY
) || fail "fio's JSON in the normal,json output unreadable"
grep -q "^gr  *randread .* $want$" "$T/out" || fail "run time not fio's read runtime $want: $(grep '^gr ' "$T/out" | tail -n 1)"
expect_exit 0 "$SB" report "$T/nj.out" -o "$T/nj.html"
for p in 99.9 99.95 99.99; do
	grep -q "<title>read at p$p: " "$T/nj.html" || fail "no point labelled p$p in the percentile chart"
done
grep -q "<title>read at 100.0" "$T/nj.html" && fail "a percentile labelled 100.0"
# text after storbench's own JSON is still an error
printf '{\n "x": 1\n}\ntrailing\n' >"$T/trail.json"
expect_exit 2 "$SB" report "$T/trail.json"
grep -q "unexpected data after the document" "$T/err" || fail "trailing text not refused: $(cat "$T/err")"
ok "fio's normal,json output: runtime of group_reporting, percentile labels"

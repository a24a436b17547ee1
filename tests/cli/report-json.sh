# report --format=json (or -o x.json): the analysis as data for scripts and
# CI (docs/reports.md). For a soak log: per metric its outliers by
# iteration, their total, and its change points with the levels either
# side and the step, the same the HTML page marks (the soak's own verdict
# when its summary covers the log, the same analysis otherwise); the
# iterations with I/O errors, bad blocks and kernel messages. For quick
# with --repeat and a run: every test's runs, each run's figure, and their
# median and range (quick's summary, lib/analysis/repeats).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# a soak log with a known truth: a step down at iteration 26, a dip at 12,
# errors and kernel messages at 12 and 30
python3 - "$T/soak.jsonl" <<'PY'
import json, sys
f = open(sys.argv[1], 'w')
f.write(json.dumps({"type": "config", "log_version": 1, "storbench": "0.1.0",
                    "target": "/mnt/card/soak"}) + '\n')
for i in range(1, 41):
    w = (40e6 if i <= 25 else 20e6) * (1 + 0.01 * ((i * 7) % 5 - 2))
    if i == 12:
        w = 5e6
    r = 90e6 * (1 + 0.01 * ((i * 3) % 5 - 2))
    kmsg = [{"time_us": 1, "category": "io", "text": "mmc0: timeout"}] if i in (12, 30) else []
    f.write(json.dumps({"type": "iteration", "iteration": i, "write_bw_bytes": w,
                        "read_bw_bytes": r, "io_errors": 1 if i == 12 else 0,
                        "verify": {"blocks_checked": 10, "intact": 10 - (i == 30),
                                   "corrupted": int(i == 30)},
                        "kmsg": kmsg, "kmsg_omitted": 0, "failed": i in (12, 30)}) + '\n')
PY
expect_exit 0 "$SB" report "$T/soak.jsonl" --format=json
cp "$T/out" "$T/soak.json"
expect_exit 0 "$SB" report "$T/soak.jsonl" -o "$T/soak2.json"
cmp -s "$T/soak.json" "$T/soak2.json" || fail "-o x.json and --format=json differ"
expect_exit 0 "$SB" report "$T/soak.jsonl" -o "$T/soak.html"
python3 - "$T/soak.json" "$T/soak.html" <<'PY' || fail "soak analysis as JSON"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d['storbench']['command'] == 'report' and d['storbench']['schema_version'] == 1
i = d['inputs'][0]
assert (i['kind'], i['command'], i['notes'], i['tests']) == ('log', 'soak', [], []), i
s = i['soak']
assert s['iterations'] == 40 and s['failed_iterations'] == 2, s
assert s['anomalies_from'] == 'analysis'
w = s['write_bw']
assert w['n'] == 40 and w['outliers'] == [12] and w['outliers_total'] == 1, w
cp = w['change_points']
assert len(cp) == 1 and cp[0]['iteration'] == 26, cp
assert abs(cp[0]['before'] - 40e6) < 1e6 and abs(cp[0]['after'] - 20e6) < 1e6, cp
assert abs(cp[0]['step'] - (cp[0]['after'] - cp[0]['before']) / cp[0]['before']) < 1e-6
assert s['read_bw']['outliers'] == [] and s['read_bw']['change_points'] == []
assert s['events'] == {'io_errors': [12], 'bad_blocks': [30], 'kmsg': [12, 30]}, s['events']
for k in ('median', 'p5', 'p95', 'mean', 'cv', 'min', 'max'):
    assert isinstance(w[k], float), k
# the page marks the same
h = open(sys.argv[2], encoding='utf-8').read()
rings = re.findall(r'stroke-width="2.5"><title>write at (\d+):', h)
assert rings == ['12'], rings
assert re.findall(r'write throughput changes at iteration (\d+):', h) == ['26']
PY
ok "a soak log analysed: outliers, change points, events"

# with the soak's own summary covering the log, its verdict is the one told
python3 - "$T/soak.jsonl" "$T/summary.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
m = lambda o, c: {"n": 40, "median": 4e7, "p5": 2e7, "p95": 4e7, "mean": 3e7, "cv": 0.3,
                  "min": 5e6, "max": 4.1e7, "outliers": o, "change_points": c}
s = {"type": "summary", "iterations": 40, "failed_iterations": 2,
     "stability": {"write_bw": m([5, 6], [{"iteration": 30, "before": 4e7, "after": 1e7}]),
                   "read_bw": m([], [])}}
s['stability']['write_bw']['outliers_total'] = 7
open(sys.argv[2], 'w').write('\n'.join(lines + [json.dumps(s)]) + '\n')
PY
expect_exit 0 "$SB" report "$T/summary.jsonl" --format=json
python3 - "$T/out" <<'PY' || fail "the soak's own verdict as JSON"
import json, sys
s = json.load(open(sys.argv[1]))['inputs'][0]['soak']
assert s['anomalies_from'] == 'summary'
w = s['write_bw']
assert w['outliers'] == [5, 6] and w['outliers_total'] == 7, w
assert w['change_points'] == [{"iteration": 30, "before": 4e7, "after": 1e7, "step": -0.75}], w
PY
ok "a soak log with its summary: the verdict written"

# quick with repeats, a run, fio's JSON: the repeat statistics per test
expect_exit 0 "$SB" quick --size=8M --runtime=150ms --repeat=2 --quiet --output="$T/quick.json" "$T/q"
expect_exit 0 "$SB" run --rw=randrw --size=4M --runtime=300ms --time-based --quiet \
	--output="$T/run.json" "$T/run.dat"
expect_exit 0 "$SB" report "$T/quick.json" "$T/run.json" --format=json
python3 - "$T/out" "$T/quick.json" "$T/run.json" <<'PY' || fail "repeat statistics"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
q, r = d['inputs']
assert q['kind'] == 'result' and q['command'] == 'quick' and 'soak' not in q
summary = {(s['test'], s['direction']): s for s in json.load(open(sys.argv[2]))['storbench']['summary']}
assert len(q['tests']) == len(summary), (len(q['tests']), len(summary))
for t in q['tests']:
    s = summary[(t['test'], t['direction'])]
    assert t['runs'] == 2 == s['runs'], t
    for m in ('bw_bytes', 'iops', 'lat_mean_ns', 'lat_p99_ns'):
        v = t[m]['values']
        assert len(v) == 2 and all(x > 0 for x in v), (t['test'], m, v)
        if m in ('lat_mean_ns', 'lat_p99_ns'):
            assert abs(t[m]['median'] - statistics.median(v)) <= 1e-6 * t[m]['median']
        assert t[m]['min'] <= t[m]['median'] <= t[m]['max']
    assert abs(t['bw_bytes']['median'] - s['bw_bytes_median']) <= 1e-6 * s['bw_bytes_median']
    assert abs(t['iops']['max'] - s['iops_max']) <= 1e-6 * s['iops_max']
rj = json.load(open(sys.argv[3]))['jobs'][0]
assert [(t['test'], t['direction'], t['runs']) for t in r['tests']] == \
    [('job', 'read', 1), ('job', 'write', 1)], r['tests']
t = r['tests'][0]
assert t['bw_bytes']['values'] == [rj['read']['bw_bytes']] == [t['bw_bytes']['median']]
PY
if command -v fio >/dev/null 2>&1; then
	fio --name=j --filename="$T/fio.dat" --size=4M --rw=randread --bs=4k --runtime=1 \
		--ioengine=psync --output-format=json --output="$T/fio.json" >/dev/null 2>&1 ||
		fail "fio"
	expect_exit 0 "$SB" report "$T/fio.json" --format=json
	[ "$(json "$T/out" "d['inputs'][0]['kind'] + ' ' + d['inputs'][0]['tests'][0]['direction']")" = "fio read" ] ||
		fail "fio's JSON"
fi
ok "quick, run and fio: the repeat statistics of every test"

# A soak log in the exact format soak writes (cli/soak_log.c: a config line
# with health_before, iteration lines, a summary line with health before,
# after and change) with a real step, an outlier, I/O errors and kernel
# messages: the throughput chart rings the outlier, draws the change point
# and marks the bad iterations on its axis; the errors are listed with
# their text; health before/after is a table; a device without health
# shows none. The chart marks the verdict the soak wrote when it covers the
# log. A real soak result (storbench.soak) renders the same charts.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

python3 - "$T/soak.jsonl" <<'PY'
import json, sys
f = open(sys.argv[1], 'w')
line = lambda o: f.write(json.dumps(o, separators=(',', ':')) + '\n')
def smart(used, wr, me, warn):
    return {"critical_warning": 0, "critical_warnings": warn, "temperature": 310, "temperature_c": 37,
            "avail_spare": 100, "spare_thresh": 10, "percent_used": used,
            "endurance_grp_critical_warning_summary": 0, "data_units_read": 1000,
            "data_units_written": wr // 512000, "data_read_bytes": 512000000, "data_written_bytes": wr,
            "host_read_commands": 1, "host_write_commands": 2, "controller_busy_time": 3,
            "power_cycles": 4, "power_on_hours": 100, "unsafe_shutdowns": 2, "media_errors": me,
            "num_err_log_entries": me, "warning_temp_time": 0, "critical_comp_time": 0}
before = {"kind": "nvme", "time": 1700000000, "smart": smart(3, 10 * 2**30, 0, [])}
after = {"kind": "nvme", "time": 1700003600, "smart": smart(4, 30 * 2**30, 2, ["spare"])}
line({"type": "config", "command": "soak", "log_version": 1, "storbench": "0.1.0",
      "started_ns": 1700000000000000000, "seed": 7, "target": "/mnt/nvme/soak",
      "argv": ["soak", "--iterations=40", "/mnt/nvme/soak"], "size": 1 << 30, "block_size": 4096,
      "request_size": 1 << 20, "engine": "io_uring", "direct": True, "region_mode": False,
      "device": "nvme0n1", "model": "ACME 990", "health_before": before})
t = 1700000000000000000
for i in range(1, 41):
    w = (400e6 if i <= 25 else 150e6) * (1 + 0.01 * ((i * 7) % 5 - 2))   # the SLC cache runs out
    if i == 12:
        w = 50e6                                                         # one bad iteration
    r = 900e6 * (1 + 0.01 * ((i * 3) % 5 - 2))
    bad = i == 30
    kmsg = [{"time_us": 123456, "category": "io",
             "text": "nvme0n1: I/O error, dev nvme0n1, sector 2048"}] if i in (12, 30) else []
    rec = {"type": "iteration", "iteration": i, "start_ns": t, "end_ns": t + 10**10,
           "write_bw_bytes": w, "read_bw_bytes": r,
           "write_lat": {"p50_ns": 100000, "p99_ns": 900000, "max_ns": 2000000},
           "read_lat": {"p50_ns": 80000, "p99_ns": 300000, "max_ns": 1000000},
           "verify": {"blocks_checked": 262144, "intact": 262144 - (3 if bad else 0),
                      "corrupted": 3 if bad else 0, "misplaced": 0, "stale": 0, "foreign": 0,
                      "unreadable": 0, "bad_ranges_omitted": 0,
                      "bad_ranges": [{"offset": 1048576, "length": 12288, "class": "corrupted"}] if bad else []},
           "io_errors": 2 if i == 12 else 0}
    if i == 12:
        rec.update({"first_errno": 5, "first_error_offset": 4096})
    rec.update({"cache": "direct", "kmsg": kmsg, "kmsg_omitted": 0, "interrupted": False,
                "failed": i in (12, 30)})
    line(rec)
    t += 10**10
line({"type": "summary", "iterations": 40, "failed_iterations": 2, "verify_bad_blocks": 3,
      "io_errors": 2, "kmsg_lines": 2, "kmsg_watched": True, "anomalies": [], "verdict": "fail",
      "health": {"before": before, "after": after,
                 "change": {"percent_used": 1, "data_read_bytes": 0, "data_written_bytes": 20 * 2**30,
                            "media_errors": 2, "unsafe_shutdowns": 0, "num_err_log_entries": 2,
                            "new_critical_warnings": 1}}})
PY

expect_exit 0 "$SB" report "$T/soak.jsonl" -o "$T/soak.html"
python3 - "$T/soak.html" <<'PY' || fail "soak section"
import re, sys
h = open(sys.argv[1], encoding='utf-8').read()
svgs = re.findall(r'<svg class="chart.*?</svg>', h, re.S)
assert len(svgs) == 2, len(svgs)
tp, tr = svgs
assert '>1 outlier ringed; 1 change point dashed; 2 iterations with errors marked on the axis<' in tp
assert tp.count('class="vline"') == 1
# the change point between iterations 25 and 26, the outlier at 12 ringed
assert re.search(r'stroke="#D55E00" stroke-width="2.5"><title>write at 12: ', tp)
marks = re.findall(r'<path class="event" d="[^"]*"><title>([^<]*)</title>', tp)
assert len(marks) == 2, marks
assert marks[0].startswith('iteration 12: 2 I/O errors (first errno 5 at 4.00 KiB); io: nvme0n1: I/O error'), marks[0]
assert marks[1].startswith('iteration 30: 3 bad blocks; io: nvme0n1'), marks[1]
assert re.search(r'<title>I/O errors at 12: 2 \(2 I/O errors', tr), "hover text on the errors chart"
assert '<h3>Errors and kernel messages</h3>' in h
assert re.search(r'<td>30</td><td>3 bad blocks; io: nvme0n1: I/O error', h)
assert '<h3>Health before and after</h3>' in h
assert re.search(r'<td>Data written</td><td class="n">10.0 GiB</td><td class="n">30.0 GiB</td>'
                 r'<td class="n">\+20.0 GiB</td>', h), "health table"
assert re.search(r'<td>Media errors</td><td class="n">0</td><td class="n">2</td><td class="n">\+2</td>', h)
assert '<h3>Log records</h3>' not in h, "soak records have their own section"
PY
ok "soak log: step, outlier, error markers with text, health before and after"

# the chart marks the verdict the soak wrote: a summary line with its
# stability (an outlier at 5, a change at 30) is drawn as written, not
# analysed again (that would find 12 and 26); with an iteration after it
# (a resumed soak, killed) it no longer covers the log, and the chart
# analyses the iterations as the soak does
python3 - "$T/soak.jsonl" "$T/verdict.jsonl" "$T/stale.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
s = json.loads(lines[-1])
m = lambda o, c: {"n": 40, "median": 4e8, "p5": 1.5e8, "p95": 4e8, "mean": 3e8, "cv": 0.4,
                  "min": 5e7, "max": 4.1e8, "outliers": o, "change_points": c}
s["stability"] = {"write_bw": m([5], [{"iteration": 30, "before": 4e8, "after": 1.5e8}]),
                  "read_bw": m([], [])}
last = json.loads(lines[-2])
last["iteration"] = 41
open(sys.argv[2], 'w').write('\n'.join(lines[:-1] + [json.dumps(s)]) + '\n')
open(sys.argv[3], 'w').write('\n'.join(lines[:-1] + [json.dumps(s), json.dumps(last)]) + '\n')
PY
marked() { # HTML RING CHANGE: the throughput chart rings write at RING only and
	   # dashes one change, halfway between CHANGE - 1 and CHANGE
	python3 - "$@" <<'PY'
import re, sys
tp = re.findall(r'<svg class="chart.*?</svg>', open(sys.argv[1], encoding='utf-8').read(), re.S)[0]
assert '>1 outlier ringed; 1 change point dashed;' in tp
rings = re.findall(r'stroke="#D55E00" stroke-width="2.5"><title>write at (\d+): ', tp)
assert rings == [sys.argv[2]], rings
cx = lambda n: float(re.search(r'<circle cx="([0-9.]+)"[^>]*><title>write at %d: ' % n, tp).group(1))
at = int(sys.argv[3])
x = float(re.search(r'<line class="vline" x1="([0-9.]+)"', tp).group(1))
assert abs(x - (cx(at - 1) + cx(at)) / 2) < 0.2, (x, cx(at - 1), cx(at))
PY
}
expect_exit 0 "$SB" report "$T/verdict.jsonl" -o "$T/verdict.html"
marked "$T/verdict.html" 5 30 || fail "chart of the written verdict"
expect_exit 0 "$SB" report "$T/stale.jsonl" -o "$T/stale.html"
marked "$T/stale.html" 12 26 || fail "chart of a log whose verdict is stale"
ok "soak log: the chart draws the verdict the soak wrote, or analyses as the soak does"

expect_exit 0 "$SB" report "$T/soak.jsonl" --table=ranges -o "$T/ranges.csv"
grep -q '^soak.jsonl,soak,30,corrupted,1048576,12288,' "$T/ranges.csv" || fail "ranges CSV"
ok "soak log: an iteration's bad ranges in the ranges CSV"

# a real soak on a small directory: its result file renders the same charts,
# and a device without health reports ("kind": "none") shows no health table
mkdir "$T/d"
expect_exit 0 "$SB" soak --iterations=3 --size=4M --quiet --log="$T/d.jsonl" --output="$T/d.json" "$T/d"
for r in d.json d.jsonl; do
	expect_exit 0 "$SB" report "$T/$r" -o "$T/$r.html"
	[ "$(grep -o '<svg class="chart ' "$T/$r.html" | wc -l)" = 2 ] || fail "$r: 2 charts"
	grep -q 'Health before and after' "$T/$r.html" && fail "$r: health of a device without any"
	grep -q 'NaN\| d=""' "$T/$r.html" && fail "$r: NaN or an empty path"
done
expect_exit 0 "$SB" report "$T/d.json"
grep -q "^3 iterations, 0 failed: PASS$" "$T/out" || fail "text of a soak result: $(cat "$T/out")"
ok "soak result and log of a real run: charts, no health table for kind none"

# a soak of two ranks (mpirun): its iterations carry each rank's own, and
# the text report has a row per rank with its own iterations' medians and
# failures (rank 0 writes 10, 20, 30 MiB/s: median 20; rank 1 fails one)
python3 - "$T/ranks.jsonl" <<'PY'
import json, sys
M = 1 << 20
f = open(sys.argv[1], 'w')
line = lambda o: f.write(json.dumps(o, separators=(',', ':')) + '\n')
line({"type": "config", "command": "soak", "log_version": 1, "storbench": "0.1.0",
      "started_ns": 1700000000000000000, "seed": 7, "target": "/shared/soak", "argv": ["soak"],
      "size": 1 << 20, "block_size": 4096, "request_size": 1 << 20, "engine": "psync",
      "direct": True, "region_mode": False, "ranks": 2, "aggregate": True})
w = [(10, 11), (20, 12), (30, 19)]
r = [(40, 15), (50, 17), (60, 16)]
for i in range(3):
    rk = [{"rank": k, "host": "node%d" % k, "iteration": i + 1, "write_bw_bytes": w[i][k] * M,
           "read_bw_bytes": r[i][k] * M, "io_errors": 0, "failed": k == 1 and i == 2}
          for k in range(2)]
    line({"type": "iteration", "iteration": i + 1, "write_bw_bytes": (w[i][0] + w[i][1]) * M,
          "read_bw_bytes": (r[i][0] + r[i][1]) * M, "io_errors": 0, "failed": i == 2,
          "start_spread_s": 0.001, "end_spread_s": 0.002, "ranks": rk})
PY
expect_exit 0 "$SB" report "$T/ranks.jsonl"
grep -q "^each rank's own iterations (2 ranks)" "$T/out" || fail "no rank table: $(cat "$T/out")"
grep -Eq "^0 +node0 +3 +0 +20.0 MiB/s +50.0 MiB/s" "$T/out" || fail "rank 0's row: $(cat "$T/out")"
grep -Eq "^1 +node1 +3 +1 +12.0 MiB/s +16.0 MiB/s" "$T/out" || fail "rank 1's row: $(cat "$T/out")"
ok "a soak of many ranks: a row per rank, its own medians and failures"

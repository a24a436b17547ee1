# A soak's report says its verdict and why first, in every format (issue
# 30): a failed soak's log (a step, an outlier, I/O errors, a kernel
# message longer than the room) and a real soak's result and log, each
# given to `storbench report`. HTML: the verdict, each failed iteration
# with what failed, the change of level and the outlier with iteration and
# size come before the settings, the statistics and then the charts, in
# the first screen at 1280x800 with no text over text and nothing wider
# than the page (tests/tools/page-boxes.py, when Chromium is here); a
# kernel message is cut at a word with an ellipsis. Text: which iteration
# failed and why, then the settings. JSON: the verdict and its reasons at
# the top level. XLSX: the first sheet is the verdict.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

boxes="$SB_TOP/tests/tools/page-boxes.py"
KMSG="EXT4-fs error (device nvme0n1p1): ext4_lookup:1855: inode #2: comm storbench: deleted inode referenced: 1234567 in directory lblock 0, block 8675309, offset 4096, name_len 255, rec_len 4096, size 65536, fake 1 (the filesystem is now read-only; mount -o remount to recover)"

python3 - "$T/fail.jsonl" "$KMSG" <<'PY'
import json, sys
f = open(sys.argv[1], 'w')
line = lambda o: f.write(json.dumps(o, separators=(',', ':')) + '\n')
line({"type": "config", "command": "soak", "log_version": 1, "storbench": "0.1.0",
      "started_ns": 1700000000000000000, "seed": 7, "target": "/mnt/nvme/soak",
      "argv": ["soak", "--iterations=40", "/mnt/nvme/soak"], "size": 1 << 30, "block_size": 4096,
      "request_size": 1 << 20, "iterations": 40, "duration_ns": 0, "idle_ns": 0,
      "engine": "io_uring", "direct": True, "region_mode": False, "device": "nvme0n1",
      "model": "ACME 990"})
t = 1700000000000000000
for i in range(1, 41):
    w = (400e6 if i <= 25 else 150e6) * (1 + 0.01 * ((i * 7) % 5 - 2))
    if i == 12:
        w = 50e6
    r = 900e6 * (1 + 0.01 * ((i * 3) % 5 - 2))
    # as an older storbench kept them: the first 239 bytes, cut in a word
    kmsg = [{"time_us": 1, "category": "fs", "device": "nvme0n1p1", "text": sys.argv[2][:239]},
            {"time_us": 2, "category": "fs", "device": "nvme0n1p1", "text": sys.argv[2][:239]},
            {"time_us": 3, "category": "io", "text": "nvme0n1: I/O error, dev nvme0n1, sector 2048"}] \
        if i == 12 else []
    line({"type": "iteration", "iteration": i, "start_ns": t, "end_ns": t + 10**10,
          "write_bw_bytes": w, "read_bw_bytes": r,
          "verify": {"blocks_checked": 262144, "intact": 262144 - (3 if i == 30 else 0),
                     "corrupted": 3 if i == 30 else 0, "misplaced": 0, "stale": 0, "foreign": 0,
                     "unreadable": 0, "bad_ranges_omitted": 0, "bad_ranges": []},
          "io_errors": 2 if i == 12 else 0, "cache": "direct", "kmsg": kmsg, "kmsg_omitted": 0,
          "interrupted": False, "failed": i in (12, 30)})
    t += 10**10
m = lambda o, c: {"n": 40, "median": 3.9e8, "p5": 1.5e8, "p95": 4.05e8, "mean": 3e8, "cv": 0.43,
                  "min": 5e7, "max": 4.1e8, "outliers": o, "outliers_total": len(o),
                  "change_points": c}
line({"type": "summary", "iterations": 40, "failed_iterations": 2, "verify_bad_blocks": 3,
      "io_errors": 2, "kmsg_lines": 2, "kmsg_watched": True, "anomalies": 2, "verdict": "fail",
      "settings": {"size": 1 << 30, "block_size": 4096, "request_size": 1 << 20, "iterations": 40,
                   "duration_ns": 0, "idle_ns": 0, "workload": "verify"},
      "stability": {"write_bw": m([12], [{"iteration": 26, "before": 4e8, "after": 1.5e8}]),
                    "read_bw": m([], [])}})
PY

# the HTML: verdict, why, settings, statistics, then the charts
expect_exit 0 "$SB" report "$T/fail.jsonl" -o "$T/fail.html"
python3 - "$T/fail.html" "$KMSG" <<'PY' || fail "HTML: the verdict first"
import html, re, sys
h = open(sys.argv[1], encoding='utf-8').read()
v = h.index('<div class="verdict fail" id="verdict"><b>FAIL</b>2 of 40 iterations failed</div>')
why = re.findall(r'<li class="(\w+)">([^<]*)</li>', h[v:h.index('</ul>', v)])
kinds = [k for k, _ in why]
assert kinds == ['failed', 'failed', 'change', 'outlier'], why
texts = [html.unescape(t) for _, t in why]
assert texts[0].startswith('iteration 12 failed: 2 I/O errors; fs: EXT4-fs error (device nvme0n1p1)'), texts[0]
assert texts[1] == 'iteration 30 failed: 3 bad blocks', texts[1]
assert texts[2] == 'write throughput fell 62% at iteration 26: 381 MiB/s to 143 MiB/s', texts[2]
assert texts[3] == 'write throughput outlier at iteration 12: 47.7 MiB/s, -87% from the median 372 MiB/s', texts[3]
# the long kernel message (cut in a word by an older writer): cut after a
# whole word, with an ellipsis; the line longer than its room likewise
k = sys.argv[2]
t = texts[0]
part = t[len('iteration 12 failed: 2 I/O errors; fs: '):].split('; fs: ')[0]
assert part.endswith('...') and len(part) < 240, part
assert k.startswith(part[:-3]) and k[len(part) - 3] in ' ,;:', (part[-20:], k[len(part) - 3:][:5])
assert t.endswith('...') and len(t) < 480, t
full = 'iteration 12 failed: 2 I/O errors; fs: ' + part + '; fs: ' + part + '; io: nvme0n1'
assert full.startswith(t[:-3]) and full[len(t) - 3] in ' ,;:', t[-20:]
s, st, c = h.index('<h3>Settings</h3>'), h.index('<h3>Summary statistics</h3>'), h.index('<svg class="chart')
assert v < s < st < h.index('<h3>Device and host</h3>') < c
kv = dict(re.findall(r'<tr><th>([^<]*)</th><td>([^<]*)</td></tr>', h[s:st]))
assert kv == {'Workload': 'verify', 'Size': '1.00 GiB', 'Block size': '4.00 KiB',
              'Request size': '1.00 MiB', 'Iterations': '40', 'Duration': 'no limit',
              'Ran for': '6 min 40 s'}, kv
row = re.search(r'<tr><td>write</td>((?:<td class="n">[^<]*</td>){5})</tr>', h[st:c]).group(1)
assert re.findall(r'>([^<]*)<', row)[::2] == ['372 MiB/s', '143 MiB/s', '386 MiB/s', '43.0%', '-82.5%'], row
PY
ok "HTML: FAIL, each failed iteration and what failed, the change and outlier, settings, statistics, then the charts"

if [ -x "$boxes" ] || [ -f "$boxes" ]; then
	python3 "$boxes" --first-screen '^FAIL$' --first-screen '^iteration 12 failed: 2 I/O errors' \
		--first-screen '^write throughput fell 62% at iteration 26' --overlaps --overflow \
		--json "$T/boxes.json" "$T/fail.html" >"$T/boxes.out" 2>&1
	rc=$?
	[ $rc = 77 ] && echo "page boxes skipped: $(tail -n 1 "$T/boxes.out")"
	[ $rc = 0 ] || [ $rc = 77 ] || { cat "$T/boxes.out"; fail "HTML: the first screen at 1280x800"; }
	[ $rc = 0 ] && ok "HTML at 1280x800: the verdict and why in the first screen, no overlap, no overflow"
fi

# the text: which iteration failed and why, first, then the settings
expect_exit 0 "$SB" report "$T/fail.jsonl"
python3 - "$T/out" <<'PY' || { cat "$T/out"; fail "text: the verdict and why"; }
import sys
out = open(sys.argv[1]).read().split('\n')
i = out.index('40 iterations, 2 failed: FAIL')
assert out[i + 1].startswith('iteration 12 failed: 2 I/O errors; fs: EXT4-fs error'), out[i + 1]
assert out[i + 1].endswith('...') and len(out[i + 1]) < 480, out[i + 1]
assert out[i + 2] == 'iteration 30 failed: 3 bad blocks', out[i + 2]
assert out[i + 3] == 'write throughput fell 62% at iteration 26: 381 MiB/s to 143 MiB/s', out[i + 3]
assert out[i + 5] == ('settings: workload verify, size 1.00 GiB, block size 4.00 KiB, request size '
                      '1.00 MiB, iterations 40, duration no limit, ran for 6 min 40 s'), out[i + 5]
assert out[i + 6].startswith('write per iteration: median 372 MiB/s, 47.7 MiB/s .. 391 MiB/s, '
                             'p5 143 MiB/s, p95 386 MiB/s, variation 43.0%, trend -82.5%;'), out[i + 6]
PY
ok "text: FAIL, then each failed iteration and why, the change, the settings"

# JSON: the verdict and its reasons at the top level
expect_exit 0 "$SB" report "$T/fail.jsonl" --format=json
python3 - "$T/out" <<'PY' || fail "JSON: the verdict at the top level"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d)[:3] == ['storbench', 'verdict', 'reasons'], list(d)
assert d['verdict'] == 'fail', d['verdict']
r = [(x['input'], x['kind'], x['iteration']) for x in d['reasons']]
assert r == [('fail.jsonl', 'failed', 12), ('fail.jsonl', 'failed', 30),
             ('fail.jsonl', 'change', 26), ('fail.jsonl', 'outlier', 12)], r
s = d['inputs'][0]['soak']
assert s['verdict'] == 'fail' and [x['kind'] for x in s['reasons']] == [k for _, k, _ in r], s
assert s['settings'] == {'size': 1 << 30, 'block_size': 4096, 'request_size': 1 << 20,
                         'iterations': 40, 'duration_ns': 0, 'idle_ns': 0, 'workload': 'verify'}, s
assert abs(s['trend']['write_bw'] + 0.825) < 0.001, s['trend']
PY
ok "JSON: verdict and reasons at the top level and in the soak's section"

# XLSX: the workbook opens on the verdict
if "$SB" report "$T/fail.jsonl" -o "$T/fail.xlsx" 2>"$T/x.err"; then
	python3 - "$T/fail.xlsx" <<'PY' || fail "XLSX: the first sheet"
import re, zipfile, sys
wb = zipfile.ZipFile(sys.argv[1]).read('xl/workbook.xml').decode()
assert re.findall(r'<sheet name="([^"]*)"', wb)[0] == 'Soak verdict', wb
PY
	python3 "$SB_TOP/tests/tools/xlsx-sheet.py" "$T/fail.xlsx" "Soak verdict" >"$T/sheet.csv" ||
		fail "XLSX: no verdict sheet"
	sed -n 2p "$T/sheet.csv" | grep -qx 'Verdict,FAIL,2 of 40 iterations failed' &&
		sed -n 3p "$T/sheet.csv" | grep -q '^Why,"iteration 12 failed: 2 I/O errors' &&
		grep -q '^Iterations,40$' "$T/sheet.csv" &&
		grep -q '^write,371.9' "$T/sheet.csv" || { cat "$T/sheet.csv"; fail "XLSX: the verdict sheet"; }
	ok "XLSX: the first sheet is the verdict, why, settings and statistics"
else
	grep -q "XLSX" "$T/x.err" || { cat "$T/x.err"; fail "XLSX: $(cat "$T/x.err")"; }
	echo "XLSX skipped: $(cat "$T/x.err")"
fi

# a real soak: its result (-o) and its log, each given to report, say the
# same verdict and settings first
mkdir "$T/d"
expect_exit 0 "$SB" soak --iterations=3 --size=4M --quiet --log="$T/r.jsonl" --output="$T/r.json" "$T/d"
for r in r.json r.jsonl; do
	expect_exit 0 "$SB" report "$T/$r"
	grep -A1 -x '3 iterations, 0 failed: PASS' "$T/out" | grep -qx 'every iteration verified, no I/O error, no kernel message about the device; too few iterations to look for outliers and changes of level' &&
		grep -q '^settings: workload verify, size 4.00 MiB, block size 4.00 KiB, request size 1.00 MiB, iterations 3, duration no limit, ran for ' "$T/out" ||
		{ cat "$T/out"; fail "$r: the text's verdict and settings"; }
	expect_exit 0 "$SB" report "$T/$r" -o "$T/$r.html"
	grep -q '<div class="verdict pass" id="verdict"><b>PASS</b>0 of 3 iterations failed</div>' "$T/$r.html" ||
		fail "$r: the HTML's verdict"
	expect_exit 0 "$SB" report "$T/$r" --format=json
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"] == "pass" and d["reasons"][0]["kind"] == "clean", d["reasons"]; assert d["inputs"][0]["soak"]["settings"]["iterations"] == 3' "$T/out" ||
		fail "$r: the JSON's verdict"
done
ok "a real soak's result and log: PASS and its settings first, in text, HTML and JSON"

# the same soak failed (an iteration's I/O errors in its result): the
# result given to report names the iteration and what failed
python3 - "$T/r.json" "$T/rf.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d['storbench']['soak']
it = s['iteration_records'][1]
it.update({"io_errors": 4, "first_errno": 5, "first_error_offset": 8192, "failed": True})
s.update({"verdict": "fail", "failed_iterations": 1, "io_errors": 4})
json.dump(d, open(sys.argv[2], 'w'))
PY
expect_exit 0 "$SB" report "$T/rf.json"
grep -A1 -x '3 iterations, 1 failed: FAIL' "$T/out" |
	grep -qx 'iteration 2 failed: 4 I/O errors (first errno 5 at 8.00 KiB)' ||
	{ cat "$T/out"; fail "a failed result: the text"; }
expect_exit 0 "$SB" report "$T/rf.json" --format=json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["verdict"] == "fail" and (d["reasons"][0]["kind"], d["reasons"][0]["iteration"]) == ("failed", 2), d["reasons"]' "$T/out" ||
	fail "a failed result: the JSON"
ok "a failed soak's result: the iteration and what failed, first"

# several soaks in one report: the HTML's table of contents says each one's
# verdict on the first screen; the JSON's top level the worst, with every
# soak's reasons named by its input
expect_exit 0 "$SB" report "$T/r.json" "$T/fail.jsonl" -o "$T/two.html"
grep -q '<li><a href="#r1">soak: r.json</a> &mdash; <b class="ok">PASS</b></li><li><a href="#r2">soak: fail.jsonl</a> &mdash; <b class="bad">FAIL</b></li>' "$T/two.html" ||
	fail "two soaks: the verdicts in the table of contents"
expect_exit 0 "$SB" report "$T/r.json" "$T/fail.jsonl" --format=json
python3 - "$T/out" <<'PY' || fail "two soaks: the JSON's top level"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['verdict'] == 'fail', d['verdict']
assert [(r['input'], r['kind']) for r in d['reasons']] == [
    ('r.json', 'clean'), ('fail.jsonl', 'failed'), ('fail.jsonl', 'failed'),
    ('fail.jsonl', 'change'), ('fail.jsonl', 'outlier')], d['reasons']
PY
ok "two soaks: each verdict in the contents, the worst at the JSON's top level"

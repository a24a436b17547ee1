# storbench fio --status-interval=N prints fio's whole output every N while
# the jobs run, as fio does: with --output-format=json a whole JSON object
# each time (the figures so far, growing), then the final one; in the
# normal layout the job list once, then each report's jobs and groups;
# with --output=FILE the reports are in the file, before the final one.
# Asserts no count of reports beyond "at least one before the end".
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

job="--name=a --ioengine=null --size=1g --rw=read --time_based --runtime=2s"

# every object of a stream of JSON objects: "N BYTES RUNTIME" a line
objects() {
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
dec, i = json.JSONDecoder(), 0
while True:
    while i < len(t) and t[i].isspace():
        i += 1
    if i >= len(t):
        break
    d, i = dec.raw_decode(t, i)
    r = d["jobs"][0]["read"]
    print(len(d["jobs"]), r["io_bytes"], r["runtime"])
PY
}

# shellcheck disable=SC2086
expect_exit 0 "$SB" fio --quiet --status-interval=500ms --output-format=json $job
objects "$T/out" >"$T/objs" || fail "not a stream of JSON objects: $(head -c 300 "$T/out")"
n=$(wc -l <"$T/objs")
[ "$n" -ge 2 ] || fail "--status-interval=500ms over 2 s: $n JSON object(s)"
# each a whole report of the one job; bytes and runtime never go back
awk 'NR > 1 && ($2 < b || $3 < r) { exit 1 } $1 != 1 { exit 1 } { b = $2; r = $3 }' "$T/objs" ||
	fail "the reports do not grow: $(cat "$T/objs")"
ok "--status-interval=500ms --output-format=json: $n whole objects, growing"

# the normal layout: the job list once, each report's job and group lines
# shellcheck disable=SC2086
expect_exit 0 "$SB" fio --quiet --status-interval=500ms $job
[ "$(grep -c '^Starting ' "$T/out")" = 1 ] || fail "'Starting' not once: $(grep -c '^Starting ' "$T/out")"
reps=$(grep -c '^Run status group 0 (all jobs):' "$T/out")
[ "$reps" -ge 2 ] || fail "the normal layout: $reps report(s)"
[ "$(grep -c '^a: (groupid=0, jobs=1)' "$T/out")" = "$reps" ] || fail "a job line per report"
ok "--status-interval=500ms: the job list once, $reps reports"

# --output=FILE: the reports go there, first, nothing on stdout
# shellcheck disable=SC2086
expect_exit 0 "$SB" fio --quiet --status-interval=1 --output-format=json --output="$T/s.json" $job
[ ! -s "$T/out" ] || fail "--output: stdout has $(head -c 200 "$T/out")"
objects "$T/s.json" >"$T/objs" || fail "--output: not a stream of JSON objects"
[ "$(wc -l <"$T/objs")" -ge 2 ] || fail "--output: $(wc -l <"$T/objs") object(s)"
ok "--status-interval with --output=FILE: the reports in the file"

# what fio refuses is refused (fio: at least 1 ms)
expect_exit 2 "$SB" fio --status-interval=0 --name=a --ioengine=null --size=1m
grep -q "status-interval: '0' is not valid" "$T/err" || fail "0: $(cat "$T/err")"
expect_exit 2 "$SB" fio --status-interval=soon --name=a --ioengine=null --size=1m
ok "--status-interval=0 and =soon are refused"

# two groups (stonewall): every report has both jobs, as fio's (one still
# to come is all zeros), on one clock over both groups
printf '[a]\nioengine=null\nsize=1g\nrw=read\ntime_based\nruntime=1s\n[b]\nstonewall\nioengine=null\nsize=1g\nrw=write\ntime_based\nruntime=1s\n' >"$T/g.fio"
expect_exit 0 "$SB" fio --quiet --status-interval=400ms --output-format=json "$T/g.fio"
objects "$T/out" >"$T/objs" || fail "two groups: not a stream of JSON objects"
[ "$(wc -l <"$T/objs")" -ge 2 ] || fail "two groups: $(wc -l <"$T/objs") object(s)"
awk '$1 != 2 { exit 1 }' "$T/objs" || fail "two groups: a report without both jobs: $(cat "$T/objs")"
ok "two groups: $(wc -l <"$T/objs") reports, each with both jobs"

# each report as fio writes it: its own timestamp (when it was written, to
# the millisecond), "time" that moment's, and each thread's figures so far
# (numjobs=2 without group_reporting: an entry a thread, each with its
# runtime so far, not 0)
expect_exit 0 "$SB" fio --quiet --status-interval=500ms --output-format=json --name=t \
	--ioengine=null --size=1g --rw=read --time_based --runtime=2s --numjobs=2
python3 - "$T/out" <<'PY' || fail "the reports' timestamps or runtimes are not fio's"
import json, sys, time
t = open(sys.argv[1]).read()
dec, i, objs = json.JSONDecoder(), 0, []
while True:
    while i < len(t) and t[i].isspace():
        i += 1
    if i >= len(t):
        break
    d, i = dec.raw_decode(t, i)
    objs.append(d)
assert len(objs) >= 3, len(objs)
ms = [d['timestamp_ms'] for d in objs]
assert all(a < b for a, b in zip(ms, ms[1:])), ms
for d in objs:
    assert d['timestamp'] == d['timestamp_ms'] // 1000, (d['timestamp'], d['timestamp_ms'])
    assert d['time'] == time.strftime('%a %b %e %H:%M:%S %Y', time.localtime(d['timestamp'])), d['time']
    assert len(d['jobs']) == 2, len(d['jobs'])
    for e in d['jobs']:
        if e['read']['io_bytes']:
            assert e['read']['runtime'] > 0 and e['job_runtime'] > 0, (e['read']['runtime'], e['job_runtime'])
PY
ok "each report: its own timestamp, to the ms, and each thread's runtime so far"

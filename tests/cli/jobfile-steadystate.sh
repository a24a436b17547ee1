# fio's steadystate (ss), ss_dur and ss_ramp in job files: a job (with
# group_reporting its report group) ends once its criterion holds over
# the last ss_dur one-second figures, long before its runtime, and its
# JSON entry has fio 3.33's steadystate object (the same keys as fio's
# on the same file: ss, duration, attained, criterion, max_deviation,
# slope, data with bw_mean, iops_mean and ss_dur figures each of iops and
# bw, the means their integer means) and the normal output fio's
# steadystate line; a job whose criterion never holds runs its runtime
# with attained 0, the window zero-padded when it never filled; ss_dur
# alone judges fio's default (iops_slope:0.01%); bad
# values, a report group whose jobs disagree, and numjobs without
# group_reporting are refused naming line and option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
mkdir "$T/sb" "$T/fio"

# paced to an even rate: the deviation from the mean stays small
cat >"$T/ss.fio" <<'JOB'
[global]
ioengine=null
time_based
runtime=60
size=64m
group_reporting
[steady]
rw=write
bs=4k
numjobs=2
rate_iops=2000
ss=iops:20%
ss_dur=2s
ss_ramp=1
[never]
new_group
stonewall
rw=randread
bs=4k
runtime=3
ss=iops_slope:0%
ss_dur=2
[unfilled]
new_group
stonewall
rw=read
bs=64k
runtime=2
ss=bw:1m
ss_dur=10s
JOB
(cd "$T/sb" && "$SB" fio --output-format=json,normal --output="$T/ss.out" "$T/ss.fio") \
	>"$T/err" 2>&1 || { cat "$T/err"; fail "steadystate refused or failed"; }
# the JSON document is the first part of json,normal's output
python3 - "$T/ss.out" "$T/ss.json" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d, end = json.JSONDecoder().raw_decode(t[t.index("{"):])
json.dump(d, open(sys.argv[2], "w"))
open(sys.argv[2] + ".txt", "w").write(t[t.index("{") + end:])
PY
check() { # JSON: the three entries' steadystate objects as fio writes them
	python3 - "$1" <<'PY' || fail "$1: steadystate objects"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
assert len(jobs) == 3, [j["jobname"] for j in jobs]
keys = ["ss", "duration", "attained", "criterion", "max_deviation", "slope", "data"]
for j in jobs:
    ss = j["steadystate"]
    assert sorted(ss) == sorted(keys), sorted(ss)
    assert sorted(ss["data"]) == ["bw", "bw_mean", "iops", "iops_mean"], sorted(ss["data"])
    n = ss["duration"]
    assert len(ss["data"]["iops"]) == n and len(ss["data"]["bw"]) == n, ss
    assert ss["data"]["bw_mean"] == sum(ss["data"]["bw"]) // n, ss
    assert ss["data"]["iops_mean"] == sum(ss["data"]["iops"]) // n, ss
s, nv, un = (j["steadystate"] for j in jobs)
# steady: attained, within 20% of the mean, long before its 60 s
assert s["ss"] == "iops:20.000000%" and s["duration"] == 2, s
assert s["attained"] == 1 and float(s["criterion"].rstrip("%")) < 20, s
mean = sum(s["data"]["iops"]) / 2
assert abs(100 * s["max_deviation"] / mean - float(s["criterion"][:-1])) < 1e-3, s
assert s["slope"] == 0, s
assert jobs[0]["write"]["runtime"] < 50000, jobs[0]["write"]["runtime"]
assert jobs[0]["error"] == 0, jobs[0]["error"]
# never: a slope of 0 is never below 0: its runtime, not attained
assert nv["ss"] == "iops_slope:0.000000%" and nv["attained"] == 0, nv
assert nv["criterion"].endswith("%") and nv["max_deviation"] == 0, nv
assert all(v > 0 for v in nv["data"]["iops"]), nv
# unfilled: 2 s of a 10 s window, zeros after, never judged
assert un["ss"] == "bw:1048576.000000" and un["duration"] == 10, un
assert un["attained"] == 0 and un["criterion"] == "0.000000", un
assert un["data"]["bw"][-1] == 0 and un["data"]["bw"][0] > 0, un
PY
}
check "$T/ss.json"
ok "steadystate: attained within 20% (ended early), never, unfilled; fio's keys"
grep -q "^  steadystate  : attained=yes, bw=[0-9.]*[KMG]iB/s ([0-9.]*[kMG]B/s), iops=[0-9.k]*, iops mean dev=[0-9.]*%$" "$T/ss.json.txt" ||
	fail "normal output's steadystate line: $(grep steadystate "$T/ss.json.txt")"
grep -q "^  steadystate  : attained=no, .*, iops slope=[-0-9.]*%$" "$T/ss.json.txt" ||
	fail "the slope's line: $(grep steadystate "$T/ss.json.txt")"
grep -q "^  steadystate  : attained=no, .*, bw mean dev=0.000$" "$T/ss.json.txt" ||
	fail "the absolute one's line: $(grep steadystate "$T/ss.json.txt")"
ok "steadystate: the normal output's lines as fio's"

if [ $have_fio = 1 ]; then
	(cd "$T/fio" && fio --output-format=json --output="$T/fio.json" "$T/ss.fio") >"$T/fio.err" 2>&1 ||
		fail "fio: $(cat "$T/fio.err")"
	check "$T/fio.json"
	ok "fio's JSON of the same file holds the same"
fi

# ss_dur alone: fio's default criterion, iops_slope:0.01%
printf '[d]\nioengine=null\nsize=1m\ntime_based\nruntime=2\nss_dur=1\n' >"$T/d.fio"
"$SB" fio --output-format=json --output="$T/d.json" "$T/d.fio" >"$T/err" 2>&1 || fail "ss_dur alone: $(cat "$T/err")"
[ "$(json "$T/d.json" "d['jobs'][0]['steadystate']['ss']")" = "iops_slope:0.010000%" ] ||
	fail "ss_dur alone: $(json "$T/d.json" "d['jobs'][0]['steadystate']")"
ok "ss_dur alone judges fio's default, iops_slope:0.01%"

bad() { # OPTION-LINES WHAT: refused, naming what
	printf '[b]\nioengine=null\nsize=1m\n%s\n' "$1" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "$2" "$T/err" || fail "$1: $(cat "$T/err")"
}
bad ss=lat:10% "line 4: ss: 'lat:10%' is not valid"
bad ss=iops "line 4: ss: 'iops' is not valid"
bad steadystate=iops:x% "line 4: steadystate: 'iops:x%' is not valid"
bad ss_dur=500ms "line 4: ss_dur: '500ms' is not valid"
bad "ss=iops:1%
ss_dur=2
numjobs=2" "steadystate with numjobs=2 without group_reporting"
printf '[a]\nioengine=null\nsize=1m\nss=iops:1%%\nss_dur=2\n[b]\nioengine=null\nsize=1m\n' >"$T/m.fio"
expect_exit 2 "$SB" fio "$T/m.fio"
grep -q "\[b\]: steadystate options must be consistent within reporting groups" "$T/err" ||
	fail "mixed group: $(cat "$T/err")"
ok "steadystate: bad values, a disagreeing group, numjobs alone refused"

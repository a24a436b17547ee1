# fio's latency_target, latency_window, latency_percentile in job files:
# the queue depth is searched from 1 up to iodepth as fio's lat_target_*
# search it (unit test stats-lat-target steps it), and once it settles
# the job measures one more window and ends, long before its runtime;
# the JSON's latency_depth, latency_target (ns), latency_window (us) and
# latency_percentile, and the normal output's latency line, carry the
# real values, as fio's on the same file; a target no request meets at
# depth 1 with percentile 100 ends the job with ETIMEDOUT (error 110,
# exit 1), as fio's "max latency exceeded"; bad values are refused
# naming line and option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
mkdir "$T/sb" "$T/fio"
# the null engine meets 100 ms at any depth: the search goes up to 16
cat >"$T/lt.fio" <<'JOB'
[lt]
ioengine=null
rw=randread
bs=4k
size=64m
iodepth=16
time_based
runtime=60
latency_target=100ms
latency_window=200000
latency_percentile=99
JOB
(cd "$T/sb" && "$SB" fio --output-format=json,normal --output="$T/lt.out" "$T/lt.fio") \
	>"$T/err" 2>&1 || { cat "$T/err"; fail "latency_target refused or failed"; }
figures() { # JSON-OR-OUTPUT: error depth target window percentile runtime
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.JSONDecoder().raw_decode(t[t.index("{"):])[0]
j = d["jobs"][0]
print(j["error"], j["latency_depth"], j["latency_target"], j["latency_window"],
      "%.2f" % j["latency_percentile"], j["read"]["runtime"])
PY
}
set -- $(figures "$T/lt.out")
[ "$1 $2 $3 $4 $5" = "0 16 100000000 200000 99.00" ] || fail "figures: $*"
[ "$6" -lt 50000 ] || fail "the search never settled: ran $6 ms of 60 s"
grep -q "^     latency   : target=100000000, window=200000, percentile=99.00%, depth=16$" "$T/lt.out" ||
	fail "normal output: $(grep 'latency   :' "$T/lt.out")"
ok "latency_target: depth 16 found, the job ended after $6 ms; the JSON and the latency line say so"
if [ $have_fio = 1 ]; then
	(cd "$T/fio" && fio --output-format=json --output="$T/fio.json" "$T/lt.fio") >"$T/fio.err" 2>&1 ||
		fail "fio: $(cat "$T/fio.err")"
	set -- $(figures "$T/fio.json")
	[ "$1 $2 $3 $4 $5" = "0 16 100000000 200000 99.00" ] || fail "fio's figures: $*"
	[ "$6" -lt 50000 ] || fail "fio's search never settled: $6 ms"
	ok "fio's figures on the same file are the same"
fi

# direct reads take more than a microsecond: 1ns (fio's 1 us) is never met
printf '[d]\nrw=randread\nbs=4k\nsize=1m\ndirect=1\nfilename=f\nlatency_target=1ns\n' >"$T/d.fio"
(cd "$T/sb" && "$SB" fio --output-format=json --output="$T/d.json" "$T/d.fio") >"$T/err" 2>&1
rc=$?
[ $rc = 1 ] || fail "an unmet target at depth 1: exit $rc: $(cat "$T/err")"
grep -q "latency of a request exceeds latency_target (1000 nsec) at depth 1" "$T/err" ||
	fail "message: $(cat "$T/err")"
set -- $(figures "$T/d.json")
[ "$1 $2 $3" = "110 1 1000" ] || fail "unmet target: $*"
ok "latency_target unmet at depth 1: ETIMEDOUT, exit 1"
if [ $have_fio = 1 ]; then
	(cd "$T/fio" && fio --output-format=json --output="$T/fd.json" "$T/d.fio") >/dev/null 2>&1
	[ "$(python3 -c "import json; print(json.load(open('$T/fd.json'))['jobs'][0]['error'])" 2>/dev/null)" = 110 ] ||
		fail "fio's error differs"
	ok "fio's error is the same (110)"
fi

bad() { # LINE WHAT
	printf '[b]\nioengine=null\nsize=1m\n%s\n' "$1" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "$2" "$T/err" || fail "$1: $(cat "$T/err")"
}
bad latency_percentile=0 "line 4: latency_percentile: '0' is not valid"
bad latency_percentile=101 "line 4: latency_percentile: '101' is not valid"
bad latency_target=x "line 4: latency_target: 'x' is not valid"
bad latency_run=2 "line 4: latency_run: '2' is not valid"
ok "bad latency values refused"

# storbench pts on a zram device of its own, with very short rounds and a
# small matrix: the steady-state window and its figures in the results
# must match a recomputation from the rounds in the same file
# (pts-check.py), the exit status must say whether steady state was
# reached, the purge must discard the whole device (zram's counter), and every
# shortening must be recorded as a deviation. Issue 14.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"
z=$(make_zram 64M) || skip "no zram device of our own"
check=$(dirname "$0")/pts-check.py
# pages zram let go of on a discard (io_stat's notify_free; zram counts no
# discards in its stat file)
discards() { awk '{ print $4 }' "/sys/block/${z#/dev/}/io_stat"; }

d0=$(discards)
"$SB" pts --destroy-data --quiet --round-time=0.1s --bs=4k,64k --mix=100/0,0/100 \
	--max-rounds=7 --seed=7 --output="$T/iops.json" "$z" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "iops: exit $rc"; }
python3 "$check" "$T/iops.json" >"$T/check" || { cat "$T/check"; fail "iops: the file disagrees with its rounds"; }
verdict=$(tail -1 "$T/check")
{ [ $rc = 0 ] && [ "$verdict" = steady ]; } || { [ $rc = 1 ] && [ "$verdict" = "not steady" ]; } ||
	fail "exit $rc but the rounds say '$verdict'"
if [ $rc = 1 ]; then
	grep -q "steady state NOT reached in 7 rounds" "$T/out" || { cat "$T/out"; fail "not reached: not said"; }
	grep -q "iops: steady state NOT reached" "$T/err" || { cat "$T/err"; fail "no warning"; }
fi
[ "$(discards)" -ge $((d0 + (64 << 20) / 4096)) ] || fail "the purge did not discard all of $z"
# the rest of the file's claims, read once (python starts slowly on a busy machine)
facts() { # FILE: one "key=value" line per fact
	python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["storbench"]["pts"]
t = p["tests"]
print("names=" + ",".join(x["name"] for x in t))
print("purge=" + ",".join(str(x["purge"]) for x in t))
print("precondition=" + ",".join(str(x["precondition_bytes"]) for x in t))
print("cells=" + ",".join(str(len(x["rounds"][0]["cells"])) for x in t))
print("tc_qd=" + ",".join("%d/%d" % (x["threads"], x["iodepth"]) for x in t))
print("mixes0=" + ",".join(str(c["read_pct"]) for c in t[0]["rounds"][0]["cells"]))
print("written=" + ",".join(str(x["bytes_written"]) for x in t))
print("pts_result=%s" % p["pts_result"])
for d in p["deviations"]:
    print("deviation=" + d)
PY
}
facts "$T/iops.json" >"$T/facts" || fail "cannot read $T/iops.json"
has() { grep -qxF "$1" "$T/facts" || { cat "$T/facts"; fail "expected $1"; }; }
has purge=discard
has precondition=$((2 * 64 << 20)) # 2x the 64 MiB device
has cells=4
has pts_result=False
for dev in "round time 100 ms instead of 60 s" "at most 7 rounds instead of 25" \
	"iops block sizes 64k,4k only" "iops R/W mixes restricted to 2 of 7" "purge by discard"; do
	grep -q "^deviation=$dev" "$T/facts" || { cat "$T/facts"; fail "deviation '$dev' not recorded"; }
	grep -q "$dev.*: not a PTS result" "$T/out" || { cat "$T/out"; fail "deviation '$dev' not printed"; }
done
ok "iops on zram: $(head -n -1 "$T/check" | tr "\n" " ")(exit $rc, as the rounds say)"

# throughput (its own purge and preconditioning per block size), latency
# (QD1 T1) and WSAT (no preconditioning; until 1x the device is written)
"$SB" pts --destroy-data --quiet --test=throughput,latency,wsat --round-time=0.1s \
	--bs=4k,128k --mix=0/100 --max-rounds=5 --wsat-capacity=1 --threads=2 --iodepth=4 \
	--output="$T/more.json" "$z" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "throughput,latency,wsat: exit $rc"; }
python3 "$check" "$T/more.json" >"$T/check" || { cat "$T/check"; fail "the file disagrees with its rounds"; }
facts "$T/more.json" >"$T/facts" || fail "cannot read $T/more.json"
has names=throughput-128k,latency,wsat
has tc_qd=2/4,1/1,2/4 # latency at 1 thread, QD 1; the others as asked
has mixes0=100,0      # throughput: 100% read, then 100% write
has precondition=$((2 * 64 << 20)),$((2 * 64 << 20)),0 # wsat: none
w=$(sed -n 's/^written=.*,//p' "$T/facts")
[ "$w" -ge $((64 << 20)) ] || fail "wsat stopped at $w bytes, before 1x the device"
grep -q "^\[wsat\]" "$T/out" || { cat "$T/out"; fail "no wsat section in the text"; }
ok "throughput, latency, wsat on zram: $(head -n -1 "$T/check" | tr "\n" " ")"

# PTS-C (METHODS.md 3.7): the random rounds confined to 2048 active-range
# segments. Purged (zram's discard leaves zeros) and not preconditioned, the
# device itself shows where the writes went: every written block must lie
# in a segment the results list (pts-check.py --device), and an amount
# other than 8 or 16 GiB is a deviation.
"$SB" pts --destroy-data --quiet --profile=client --purge=discard --precondition=none \
	--round-time=0.1s --bs=4k --mix=0/100 --max-rounds=5 --active-range-amount=8M --seed=3 \
	--output="$T/client.json" "$z" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "client: exit $rc"; }
python3 "$check" "$T/client.json" --device="$z" >"$T/check" || { cat "$T/check"; fail "client: the segments"; }
grep -q "^segments on $z: [1-9][0-9]* written blocks" "$T/check" || { cat "$T/check"; fail "client: no device check"; }
grep -q "^active-range segments: 2048 of 4.00 KiB (8.00 MiB addressed)" "$T/out" || { cat "$T/out"; fail "client: text"; }
facts "$T/client.json" >"$T/facts" || fail "cannot read $T/client.json"
has "deviation=active-range amount 8.00 MiB instead of 8 GiB or 16 GiB"
grep -q "PTS-C active-range segments" "$T/facts" && fail "client: the old deviation is still recorded"
python3 "$check" "$T/iops.json" >"$T/check2" || fail "enterprise: segments recorded"
"$SB" report --output="$T/client.html" "$T/client.json" 2>"$T/err" || { cat "$T/err"; fail "client: report"; }
grep -qF "Active-range segments</th><td>2048 of 4.00 KiB (8.00 MiB addressed)" "$T/client.html" ||
	{ grep -i segments "$T/client.html"; fail "client: the HTML report lacks the segments"; }
"$SB" report "$T/client.json" >"$T/client.txt" 2>"$T/err" || { cat "$T/err"; fail "client: text report"; }
grep -q "^  active range .*; 2048 segments of 4.00 KiB (8.00 MiB addressed)" "$T/client.txt" ||
	{ cat "$T/client.txt"; fail "client: the text report lacks the segments"; }
ok "client profile: $(grep '^segments' "$T/check" | tr "\n" " ")"

# the HTML report draws what PTS reports show, from the file alone
"$SB" report --output="$T/pts.html" "$T/iops.json" "$T/more.json" 2>"$T/err" || { cat "$T/err"; fail "report"; }
for s in "iops: steady-state convergence" "iops: measurement window, rounds" \
	"iops: window average by R/W mix and block size" "throughput-128k: steady-state convergence" \
	"latency: measurement window" "WSAT: IOPS against bytes written" "Deviations from PTS" \
	"round time 100 ms instead of 60 s: not a PTS result" "Least-squares fit"; do
	grep -qF "$s" "$T/pts.html" || fail "the HTML report lacks '$s'"
done
ok "HTML report: convergence, window, matrix, WSAT charts and the deviations"
# a negative intercept reads "a × R − b", never "+ -" (issue 30 item 11)
python3 - "$T/iops.json" "$T/neg.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        if 'intercept' in o and 'slope' in o:
            o['intercept'] = -54823.4
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(d['storbench']['pts'])
json.dump(d, open(sys.argv[2], 'w'))
PY
"$SB" report --output="$T/neg.html" "$T/neg.json" 2>"$T/err" || { cat "$T/err"; fail "report of a negative intercept"; }
grep -q "R + -" "$T/neg.html" && fail "the fit reads 'R + -': $(grep -o '[^>]*R + -[^<]*' "$T/neg.html" | head -1)"
grep -qF "&times; R &minus; 54823.4" "$T/neg.html" || fail "the fit of a negative intercept: $(grep -o 'Least-squares fit.\{0,60\}' "$T/neg.html" | head -1)"
ok "HTML report: a negative intercept as a minus"
"$SB" report "$T/iops.json" >"$T/text" 2>"$T/err" || { cat "$T/err"; fail "text report"; }
grep -q "^SNIA PTS, enterprise profile: NOT a PTS result" "$T/text" || { cat "$T/text"; fail "text report: header"; }
grep -q "^  steady state .*rounds [0-9]*\.\.[0-9]*: average" "$T/text" || { cat "$T/text"; fail "text report: steady state"; }
ok "text report: deviations, steady state and the window matrix"

# the report reads storbench.pts through its typed reader
# (lib/pts/pts_read.c): a value of the wrong type, out of range or missing
# is refused with exit 2 and its key path, where it was printed as NaN
refused() { # WHAT PYTHON MESSAGE: iops.json with PYTHON run on s (the section)
	python3 - "$T/iops.json" "$T/bad.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d['storbench']['pts']
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], 'w'))
PY
	expect_exit 2 "$SB" report "$T/bad.json"
	[ "$(cat "$T/err")" = "storbench: '$T/bad.json': storbench.pts.$3" ] || { cat "$T/err"; fail "$1: message"; }
}
refused "a string for a figure" "s['tests'][0]['rounds'][1]['tracking'] = 'many'" \
	"tests[0].rounds[1].tracking: expected a number from 0 to 1e18, found 'many'"
refused "a negative count" "s['conditions']['threads'] = -1" \
	"conditions.threads: expected a whole number from 0 to 1024, found -1"
refused "a missing key" "del s['tests'][0]['steady_state']" \
	"tests[0].steady_state: expected an object, found nothing"
ok "report: a bad pts section refused by its key path"

# XLSX: a sheet per test, each round's tracked figure and its cells, the
# window average under them
if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" report "$T/iops.json" --output="$T/pts.xlsx"
	python3 - "$T/pts.xlsx" "$T/iops.json" <<'PY' || fail "XLSX sheets"
import json, re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
t = json.load(open(sys.argv[2]))['storbench']['pts']['tests'][0]
names = dict(re.findall(r'<sheet name="([^"]+)" sheetId="(\d+)"', z.read('xl/workbook.xml').decode()))
x = z.read('xl/worksheets/sheet%s.xml' % names['pts iops']).decode()
def cell(ref):
    m = re.search(r'<c r="%s"[^>]*><v>([^<]+)</v>' % ref, x)
    assert m, ref
    return float(m.group(1))
n = len(t['rounds'])
for k, r in enumerate(t['rounds']):
    assert cell('A%d' % (k + 3)) == r['round']
    assert abs(cell('B%d' % (k + 3)) - r['tracking']) <= 1e-6 * r['tracking'], k
    assert abs(cell('C%d' % (k + 3)) - r['cells'][0]['iops']) <= 1e-6 * r['cells'][0]['iops'] + 1e-9
avg = t['steady_state']['average']
assert abs(cell('B%d' % (n + 3)) - avg) <= 1e-6 * avg, 'window average row'
PY
	# no hand formatting (issue 30): the result first, numbers with
	# formats, header frozen, columns wide enough, the convergence chart
	python3 "$SB_TOP/tests/tools/xlsx-sheet.py" --check --first=Result --verdict=STEADY --charts=1 "$T/pts.xlsx" ||
		fail "XLSX: the workbook needs formatting by hand"
	ok "XLSX: a sheet per test with its rounds and window average"
fi

# Ctrl-C after the first round: the rounds done are written, marked
# interrupted and not finished, and the exit status says SIGINT
"$SB" pts --destroy-data --round-time=0.3s --bs=4k --mix=0/100 --output="$T/int.json" "$z" \
	>"$T/out" 2>"$T/err" &
pid=$!
i=0
while ! grep -q "pts iops round 1:" "$T/err" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/err"; fail "interrupted: exit $rc, expected 130"; }
python3 - "$T/int.json" <<'PY' || fail "interrupted: the results"
import json, sys
d = json.load(open(sys.argv[1]))["storbench"]
t = d["pts"]["tests"][0]
assert d["interrupted"] is True
assert t["finished"] is False and len(t["rounds"]) >= 1
assert t["steady_state"]["reached"] is False
PY
grep -q "stopped early" "$T/err" || { cat "$T/err"; fail "interrupted: not said"; }
ok "Ctrl-C: the rounds done are kept, marked interrupted"

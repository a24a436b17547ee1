#!/bin/sh
# storbench spo --cycles, the controlling host's loop, run here on a plain
# file: a fake --cut-cmd kills the writer (its process group), a trivial
# --reconnect-cmd, the check after each cut. A clean device passes every
# cycle; a cut that also damages the file on one cycle gives "first failure
# at cycle 2 of 3" and exit 1; the log is one JSON record a line, and the
# same command resumes after its last complete cycle.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

truncate -s 1M "$T/t.img" || fail truncate
echo 0 >"$T/n"
# the cut: kill the writer; on the second cut also restore the blocks after
# the canary to zeros (acknowledged writes lost)
cat >"$T/cut.sh" <<CUT
#!/bin/sh
kill -KILL -\$SB_SPO_WRITER_PGID
n=\$((\$(cat "$T/n") + 1)); echo \$n >"$T/n"
[ \$n = 2 ] && dd if=/dev/zero of="$T/t.img" bs=64k seek=1 count=15 conv=notrunc status=none
exit 0
CUT
chmod +x "$T/cut.sh"
cycles() {
	"$SB" spo --cycles="$1" --cut-after=500ms-1s --cut-cmd="$T/cut.sh" --reconnect-cmd=true \
		--log="$T/c.log" --bs=4k --canary=64k --quiet "$T/t.img" >"$T/out" 2>"$T/err"
}
cycles 1
[ $? = 0 ] || { cat "$T/out" "$T/err"; fail "one clean cycle did not pass"; }
grep -q "all 1 cycles passed" "$T/out" || { cat "$T/out"; fail "no verdict"; }
ok "a clean cycle passes"

cycles 3
rc=$?
[ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "a damaging cut: exit $rc, expected 1"; }
grep -q "resuming" "$T/err" || { cat "$T/err"; fail "the second run did not resume"; }
grep -q "first failure at cycle 2 of 3 (1 failed)" "$T/out" || { cat "$T/out"; fail "verdict"; }
[ "$(cat "$T/n")" = 3 ] || fail "$(cat "$T/n") cuts, expected 3 (the first cycle not run again)"
python3 - "$T/c.log" <<'PY' || fail "the log"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert recs[0]["spo_cycles"] == 1 and recs[0]["cycles"] == 1, recs[0]
cyc = [r for r in recs if "cycle" in r]
assert [r["cycle"] for r in cyc] == [1, 2, 3], cyc
assert [r["pass"] for r in cyc] == [True, False, True], cyc
assert cyc[1]["classes"]["lost-acked"] > 0, cyc[1]
# the log keeps at most 100 ack-to-cut times a cycle (docs/spo.md); the
# cycle's check JSON has them all
assert len(cyc[1]["lost_ack_to_cut_ns"]) == min(100, cyc[1]["classes"]["lost-acked"]), cyc[1]
assert all(r["writes"] > 0 for r in cyc), cyc
PY
[ -s "$T/c.log.2.journal" ] || fail "no journal of cycle 2 beside the log"
ok "a damaging cut: first failure at cycle 2 of 3, resumed after cycle 1, log complete"

# storbench report reads the cycles log: the verdict, the classes summed
# over the cycles, the charts, the per-cycle rows of CSV and XLSX
expect_exit 0 "$SB" report "$T/c.log"
grep -q "^spo cycles: 3 of 3 run, first failure at cycle 2 (1 failed)$" "$T/out" ||
	{ cat "$T/out"; fail "report text: no verdict"; }
lost=$(python3 -c "import json,sys; print(sum(json.loads(l).get('classes',{}).get('lost-acked',0) for l in open(sys.argv[1])))" "$T/c.log")
grep -q "^lost-acked *$lost *1$" "$T/out" || { cat "$T/out"; fail "report text: lost-acked $lost in 1 cycle"; }
grep -q "^failed cycles: 2$" "$T/out" || fail "report text: failed cycles"
expect_exit 0 "$SB" report "$T/c.log" -o "$T/c.html"
grep -q "Damaged and lost blocks per cycle" "$T/c.html" || fail "report html: no chart per cycle"
grep -q "Lost acknowledged writes by time from acknowledgement to the cut" "$T/c.html" ||
	fail "report html: no histogram"
grep -q "first failure at cycle 2 (1 failed)" "$T/c.html" || fail "report html: no verdict"
expect_exit 0 "$SB" report "$T/c.log" --table=verify -o "$T/c.csv"
python3 - "$T/c.log" "$T/c.csv" <<'PY' || fail "report CSV: blocks per class and cycle"
import csv, json, sys
cyc = [json.loads(l) for l in open(sys.argv[1])][1:]
rows = list(csv.DictReader(open(sys.argv[2])))
got = {(int(r["iteration"]), r["class"]): int(r["blocks"]) for r in rows}
want = {(r["cycle"], k): v for r in cyc for k, v in r["classes"].items()}
assert got == want, (got, want)
# the bytes are blocks of --bs (4k)
assert all(float(r["bytes"]) == 4096 * int(r["blocks"]) for r in rows), rows[:3]
PY
if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" report "$T/c.log" -o "$T/c.xlsx"
	python3 - "$T/c.xlsx" <<'PY' || fail "report XLSX: SPO cycles sheet and its chart"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
w = z.read('xl/workbook.xml').decode()
assert 'name="SPO cycles"' in w and 'name="Classes"' in w, w
assert b'<c:scatterChart>' in z.read('xl/charts/chart1.xml')
PY
fi
ok "report of the cycles log: verdict, classes, charts, CSV and XLSX rows per cycle"

# a cycle's line is read by lib/spo's reader of the log: a line it refuses
# is left out with its key path, the others are reported
python3 - "$T/c.log" "$T/bad.log" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
recs[1]["classes"]["torn"] = -1
del recs[3]["pass"]
open(sys.argv[2], "w").write("".join(json.dumps(r) + "\n" for r in recs))
PY
expect_exit 0 "$SB" report "$T/bad.log"
grep -q "line 2 of 'bad.log' was left out: classes.torn: expected a whole number from 0 to 1e18, found -1" "$T/err" ||
	{ cat "$T/err"; fail "report: a cycle's negative class count not refused by its key path"; }
grep -q "line 4 of 'bad.log' was left out: pass: expected a boolean, found nothing" "$T/err" ||
	{ cat "$T/err"; fail "report: a cycle without its verdict not refused by its key path"; }
grep -q "^spo cycles: 1 of 3 run, first failure at cycle 2 (1 failed)$" "$T/out" ||
	{ cat "$T/out"; fail "report: the cycle left was not reported"; }
ok "report of a cycles log: a line the log's reader refuses is left out, named by key path"

# a torn last line of the log is cut off on resume
printf '{"cycle":4,"pa' >>"$T/c.log"
cycles 3
[ $? = 1 ] || { cat "$T/err"; fail "resume over a torn log line"; }
python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" "$T/c.log" ||
	fail "the torn line was not cut off"
ok "a torn last log line is cut off on resume"

# the writer dying before the cut is an error of the cycle, logged
"$SB" spo --cycles=1 --cut-after=5s-6s --cut-cmd=true --reconnect-cmd=true \
	--log="$T/d.log" --canary=2M --quiet "$T/t.img" >"$T/out" 2>"$T/err"
[ $? = 3 ] || { cat "$T/err"; fail "a writer that cannot run: exit $?, expected 3"; }
grep -q '"error":"the writer stopped before the cut"' "$T/d.log" || fail "error not logged"
ok "a writer that stops before the cut: the cycle's error logged, exit 3"

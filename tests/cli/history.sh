#!/bin/sh
# The results history (docs/history.md): quick, verify and soak record
# their results with --db and --label (and STORBENCH_DB), the result file
# written first; 8 processes recording at once lose no row; a database
# that is not ours, of a newer schema, a bad --label and an unknown figure
# are refused, naming them; queries on made-up results give the known
# medians, counts and verdicts (an A/A pair is "no difference", a shift of
# half the spread is found); a plan's db= records each step with the
# plan's labels; an NVMe's active firmware slot is recorded; fio 3.33's
# JSON is imported with fio's own figures.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 program"
"$SB" --version | grep -q sqlite || skip "a storbench built without SQLite"
unset STORBENCH_DB
H="$T/h.db"

# ---- recording from quick, verify and soak ----
expect_exit 0 "$SB" quick --size=2M --runtime=100ms --quiet --db="$H" --label board=rk3399 \
	--label chamber=85C -o "$T/q.json" "$T/q.dat"
expect_exit 0 "$SB" verify --size=2M --direct=0 --quiet -o "$T/v.json" --db="$H" \
	--label board=rk3399 "$T/v.dat"
STORBENCH_DB="$H" expect_exit 0 "$SB" soak --iterations=2 --size=2M --direct=0 --quiet \
	--log="$T/s.jsonl" -o "$T/s.json" "$T/s.dat"
expect_exit 0 "$SB" history --db="$H" --format=json
python3 - "$T/out" "$T" <<'PY' || fail "the recorded results"
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r['command'] for r in rows] == ['quick', 'verify', 'soak'], rows
assert rows[0]['labels'] == 'board=rk3399,chamber=85C', rows[0]
assert rows[1]['labels'] == 'board=rk3399' and rows[2]['labels'] == '', rows
for r, f in zip(rows, ['q', 'v', 's']):
    assert r['source'] == '%s/%s.json' % (sys.argv[2], f), r
    assert f + '.dat' in r['options'] and r['version'], r
PY
# the result itself is kept, as written
python3 - "$H" "$T/v.json" <<'PY' || fail "the stored verify result differs from its file"
import sqlite3, sys
r = sqlite3.connect(sys.argv[1]).execute("SELECT result FROM results WHERE command = 'verify'")
assert r.fetchone()[0] == open(sys.argv[2]).read()
PY
n=$(sqlite3 "$H" "SELECT count(*) FROM figures f JOIN results r ON r.id = f.result WHERE r.command = 'quick'")
[ "$n" = 64 ] || fail "quick: $n figures recorded, expected 64 (8 tests x 2 directions x 4)"
expect_exit 0 "$SB" history --db="$H" --figure=damaged_blocks
grep -q " verify .* 0  *board=rk3399$" "$T/out" || { cat "$T/out"; fail "verify's damaged_blocks"; }
expect_exit 0 "$SB" history --db="$H" --figure=verdict --command=soak
grep -q " soak .* pass " "$T/out" || { cat "$T/out"; fail "soak's verdict"; }
expect_exit 0 "$SB" history --db="$H" --label board=rk3399 --command=verify --format=csv
[ "$(wc -l <"$T/out")" = 2 ] || { cat "$T/out"; fail "a label and a command select one"; }
ok "quick, verify and soak recorded with labels, options, source and the result"

# no --output: the result is recorded all the same, from a file of its own
# in the current directory that the note names
mkdir "$T/cwd"
(cd "$T/cwd" && STORBENCH_DB="$H" "$SB" verify --size=1M --direct=0 "$T/v2.dat") >"$T/out" 2>"$T/err" ||
	{ cat "$T/err"; fail "verify without --output"; }
f=$(ls "$T/cwd"/storbench-verify-*.json 2>/dev/null)
[ -n "$f" ] && [ "$(echo "$f" | wc -l)" = 1 ] || { ls -la "$T/cwd"; fail "no result file without --output"; }
grep -qF "the result is in '$(basename "$f")'" "$T/err" || { cat "$T/err"; fail "the file not named"; }
n=$(sqlite3 "$H" "SELECT count(*) FROM results WHERE command = 'verify'")
[ "$n" = 2 ] || fail "verify without --output: $n verify records, expected 2"
expect_exit 0 "$SB" history --db="$H" --command=verify
[ -z "$(ls "$T"/storbench-history-* 2>/dev/null)" ] && [ "$(ls "$T/cwd" | wc -l)" = 1 ] ||
	fail "history itself wrote a result file"
ok "a result without --output is kept in a file and recorded"

# ---- 8 processes at once ----
C="$T/c.db"
for i in 1 2 3 4 5 6 7 8; do
	"$SB" verify --size=1M --direct=0 --quiet -o "$T/c$i.json" --db="$C" --label n="$i" \
		"$T/c$i.dat" >"$T/c$i.out" 2>&1 &
done
wait
for i in 1 2 3 4 5 6 7 8; do
	grep -q . "$T/c$i.json" || { cat "$T/c$i.out"; fail "process $i wrote no result"; }
done
n=$(sqlite3 "$C" "SELECT count(DISTINCT value) FROM labels WHERE key = 'n'")
[ "$n" = 8 ] || fail "8 processes recording at once: $n rows"
for i in 1 2 3 4 5 6 7 8; do
	"$SB" history --db="$C" --import --label batch="$i" "$T/c1.json" "$T/c2.json" \
		"$T/c3.json" "$T/c4.json" "$T/c5.json" >/dev/null 2>&1 &
done
wait
n=$(sqlite3 "$C" "SELECT count(*) FROM labels WHERE key = 'batch'")
[ "$n" = 40 ] || fail "8 imports of 5 at once: $n rows, expected 40"
ok "8 processes recording at once: no row lost (8 runs, then 40 imports)"

# ---- refusals ----
sqlite3 "$T/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES(1)"
expect_exit 2 "$SB" history --db="$T/other.db"
grep -q "'$T/other.db' is not a storbench history" "$T/err" || { cat "$T/err"; fail "not ours"; }
echo "hello" >"$T/text.db"
expect_exit 2 "$SB" history --db="$T/text.db"
grep -q "'$T/text.db' is not a storbench history" "$T/err" || { cat "$T/err"; fail "not a database"; }
[ "$(cat "$T/text.db")" = hello ] || fail "a file that is not ours was changed"
# a run's result is written first: the history that refuses loses nothing
expect_exit 3 "$SB" verify --size=1M --direct=0 --quiet -o "$T/kept.json" --db="$T/other.db" \
	"$T/kept.dat"
json "$T/kept.json" "d['storbench']['verify']['result']" | grep -qx pass || fail "result not written"
grep -q "history --db=$T/other.db --import $T/kept.json" "$T/err" || { cat "$T/err"; fail "no hint"; }
cp "$H" "$T/new.db"
sqlite3 "$T/new.db" "UPDATE storbench_schema SET version = 99"
expect_exit 2 "$SB" history --db="$T/new.db"
grep -q "'$T/new.db' is a history of schema 99, newer than this storbench's (1)" "$T/err" ||
	{ cat "$T/err"; fail "newer schema"; }
for bad in novalue "a b=c" "=x" "k=$(printf 'a\nb')"; do
	expect_exit 2 "$SB" verify --size=1M --direct=0 --quiet --db="$H" --label "$bad" "$T/l.dat"
	grep -q "is not valid (expected" "$T/err" && grep -q "^storbench: --label: " "$T/err" ||
		{ cat "$T/err"; fail "--label '$bad'"; }
done
expect_exit 2 "$SB" verify --size=1M --direct=0 --quiet --db="$H" --label a=1 --label a=2 "$T/l.dat"
grep -q "label 'a' given twice" "$T/err" || { cat "$T/err"; fail "a label given twice"; }
[ -e "$T/l.dat" ] && fail "a refused --label ran the command"
# a device that tells no firmware: its group is "(none)", and the text says
# where a firmware the user labelled is grouped (and only then)
expect_exit 0 "$SB" history --db="$H" --figure=RND4K-Q1T1.read.iops --group-by=firmware
none=$(grep -c "^(none) " "$T/out")
note=$(grep -c "^(none): results whose device told no firmware; a firmware named with --label firmware=VALUE is grouped by --group-by=label:firmware$" "$T/out")
[ "$none" = "$note" ] || { cat "$T/out"; fail "(none) group: $none, its note: $note"; }
expect_exit 0 "$SB" history --db="$H" --figure=RND4K-Q1T1.read.iops --group-by=label:board
grep -q "^rk3399 " "$T/out" && ! grep -q "^(none):" "$T/out" || { cat "$T/out"; fail "by label:board"; }
expect_exit 2 "$SB" history --db="$H" --figure=RND4K-Q1T1.read.iop --group-by=label:board
grep -q "no result in '$H' has a figure 'RND4K-Q1T1.read.iop' (nearest: RND4K-Q1T1.read.iops, " "$T/err" ||
	{ cat "$T/err"; fail "unknown figure"; }
expect_exit 2 "$SB" history
grep -q "history needs --db=PATH (or STORBENCH_DB)" "$T/err" || fail "no --db"
expect_exit 3 "$SB" history --db="$T/typo.db"
grep -q "cannot open the history '$T/typo.db': No such file or directory" "$T/err" || fail "typo"
[ -e "$T/typo.db" ] && fail "a query made a history"
expect_exit 2 "$SB" history --db="$H" --group-by=firmware
expect_exit 2 "$SB" history --db="$H" --figure=x --group-by=colour
expect_exit 2 "$SB" history --db="$H" --since=yesterday
echo '{"a": 1}' >"$T/neither.json"
expect_exit 2 "$SB" history --db="$H" --import "$T/neither.json"
grep -q "neither a storbench result nor fio's JSON output" "$T/err" || { cat "$T/err"; fail "import"; }
ok "refused: not ours (a table, a text file), a newer schema, bad labels, an unknown figure"

# ---- known answers: made-up results of three firmwares ----
python3 - "$T/q.json" "$T" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
def make(name, fw, day, iops):
    d = json.loads(json.dumps(base))
    d['timestamp'] = 1796000000 + day * 86400
    d['storbench']['device'] = {'model': 'SDINBDG4-8G', 'serial': '0x1234', 'firmware': fw,
                                'capacity': 7818182656}
    for row in d['storbench']['summary']:
        if row['test'] == 'RND4K Q1T1' and row['direction'] == 'read':
            row['iops_median'] = iops
    json.dump(d, open('%s/k-%s.json' % (sys.argv[2], name), 'w'))
for i in range(6):
    make('a%d' % i, '1.0', i, 1000 + 10 * i)      # 1000 .. 1050
    make('b%d' % i, '1.1', 10 + i, 1005 + 10 * i) # the same spread: A/A
    make('c%d' % i, '1.2', 20 + i, 1030 + 10 * i) # half the spread higher
PY
K="$T/k.db"
expect_exit 0 "$SB" history --db="$K" --import --label lab=x "$T"/k-*.json
[ "$(grep -c "^recorded '" "$T/out")" = 18 ] || { cat "$T/out"; fail "18 imports"; }
expect_exit 0 "$SB" history --db="$K" --figure=RND4K-Q1T1.read.iops --group-by=firmware --format=json
python3 - "$T/out" <<'PY' || fail "grouped query: the known answers"
import json, sys
g = json.load(open(sys.argv[1]))
assert g['baseline'] == '1.0' and g['unit'] == 'IOPS', g
rows = {r['group']: r for r in g['groups']}
assert [r['group'] for r in g['groups']] == ['1.0', '1.1', '1.2'], g
assert rows['1.0']['median'] == 1025 and rows['1.1']['median'] == 1030 and rows['1.2']['median'] == 1055, rows
assert all(r['count'] == 6 for r in rows.values()), rows
assert abs(rows['1.0']['p5'] - 1002.5) < 1e-9 and abs(rows['1.0']['p95'] - 1047.5) < 1e-9, rows['1.0']
assert rows['1.0']['verdict'] == 'baseline', rows
assert rows['1.1']['verdict'] == 'no difference', rows['1.1']
assert rows['1.2']['verdict'] == 'better' and rows['1.2']['p'] < 0.05, rows['1.2']
assert rows['1.2']['lo_pct'] >= 0 < rows['1.2']['hi_pct'], rows['1.2']
PY
expect_exit 0 "$SB" history --db="$K" --figure=RND4K-Q1T1.read.iops --group-by=firmware --baseline=1.1
grep -q "^1.0 .* no difference " "$T/out" || { cat "$T/out"; fail "A/A against 1.1"; }
expect_exit 0 "$SB" history --db="$K" --firmware=1.2 --since=1796000000 --until=2026-12-01 --format=csv
[ "$(wc -l <"$T/out")" = 1 ] || { cat "$T/out"; fail "a date range: $(($(wc -l <"$T/out") - 1)) rows"; }
expect_exit 0 "$SB" history --db="$K" --firmware=1.2 --since=2026-12-01 --format=csv
[ "$(wc -l <"$T/out")" = 7 ] || { cat "$T/out"; fail "since: $(($(wc -l <"$T/out") - 1)) rows"; }
expect_exit 0 "$SB" history --db="$K" --figure=RND4K-Q1T1.read.iops --group-by=day --model=SDINBDG4-8G
[ "$(grep -c "^20[0-9-]* *1 " "$T/out")" = 18 ] || { cat "$T/out"; fail "a group a day"; }
expect_exit 0 "$SB" history --db="$K" --figure=RND4K-Q1T1.read.iops --group-by=firmware -o "$T/t.html"
grep -q "<svg" "$T/t.html" && grep -q "no difference" "$T/t.html" || fail "html"
expect_exit 2 "$SB" history --db="$K" --figure=RND4K-Q1T1.read.iops --group-by=firmware --baseline=9
ok "grouped queries: medians, p5..p95, counts; an A/A pair is no difference, a shift is found"

# ---- a plan's db=: each step recorded with the plan's labels ----
mkdir "$T/p"
cat >"$T/p.ini" <<INI
[global]
name = hist
db = p.db
label = firmware=1.2b
label = chamber=85C

[blocks]
run = verify --size=1M --direct=0
expect = damaged_blocks == 0

[again]
run = verify --size=1M --direct=0
INI
(cd "$T" && "$SB" plan --quiet p.ini "$T/p/v.dat") >"$T/out" 2>&1 || { cat "$T/out"; fail "plan"; }
expect_exit 0 "$SB" history --db="$T/p.db" --format=csv --label firmware=1.2b
[ "$(grep -c ',verify,.*"chamber=85C,firmware=1.2b"$' "$T/out")" = 2 ] ||
	{ cat "$T/out"; fail "the plan's steps in its history"; }
# refused before the first step: a history that is not ours, a label it would refuse
sed "s|^db = p.db|db = other.db|" "$T/p.ini" >"$T/p-other.ini"
(cd "$T" && "$SB" plan --dir=po p-other.ini "$T/p/w.dat") >"$T/out" 2>&1 && fail "plan: not ours"
grep -q "p-other.ini: db='$T/other.db' is not a storbench history" "$T/out" ||
	{ cat "$T/out"; fail "plan: not ours"; }
sed "s|^label = chamber=85C|label = the chamber=85C|" "$T/p.ini" >"$T/p-label.ini"
(cd "$T" && "$SB" plan --dir=pl p-label.ini "$T/p/w.dat") >"$T/out" 2>&1 && fail "plan: label"
grep -q "p-label.ini: label='the chamber=85C' is not a label" "$T/out" || { cat "$T/out"; fail "label"; }
[ -e "$T/p/w.dat" ] && fail "a refused plan ran a step"
if ! "$SB" --version | grep -q postgresql; then
	printf '[global]\ndb = postgresql://lab/h\n[a]\nrun = verify\n' >"$T/pq.ini"
	expect_exit 2 "$SB" plan "$T/pq.ini" "$T/p/v.dat"
	grep -q "db=.*needs a storbench built with PostgreSQL" "$T/err" || { cat "$T/err"; fail "db= URL"; }
fi
ok "a plan's db=: each step recorded with the plan's labels"

# ---- an NVMe's active firmware slot, as its result's device section has it
python3 - "$T/q.json" "$T" <<'PY' || fail "the slot's results"
import json, sys
d = json.load(open(sys.argv[1]))
for name, active in (("slot", 2), ("badslot", 9)):
    d["storbench"]["device"]["nvme_firmware_slot"] = {
        "active": active, "next": None, "revisions": ["A1", "A2"] + [None] * 5}
    json.dump(d, open("%s/%s.json" % (sys.argv[2], name), "w"))
PY
expect_exit 0 "$SB" history --db="$T/slot.db" --import "$T/slot.json" "$T/q.json"
[ "$(sqlite3 "$T/slot.db" "SELECT group_concat(coalesce(fw_slot, '-')) FROM results")" = 2,- ] ||
	fail "fw_slot: $(sqlite3 "$T/slot.db" "SELECT fw_slot FROM results")"
expect_exit 2 "$SB" history --db="$T/slot.db" --import "$T/badslot.json"
grep -q "storbench.device.nvme_firmware_slot.active" "$T/err" || { cat "$T/err"; fail "slot 9"; }
ok "an NVMe's active firmware slot recorded; a slot 9 refused by key path"

# ---- fio's JSON ----
command -v fio >/dev/null || skip "no fio"
fio --name=j1 --filename="$T/fio.dat" --size=2M --rw=randrw --bs=4k --ioengine=psync \
	--output-format=json --output="$T/fio.json" >"$T/fio.out" 2>&1 || { cat "$T/fio.out"; fail "fio"; }
expect_exit 0 "$SB" history --db="$K" --import --label tool=fio "$T/fio.json"
grep -q "recorded '$T/fio.json': result 19, fio, 12 figures" "$T/out" || { cat "$T/out"; fail "fio"; }
expect_exit 0 "$SB" history --db="$K" --figure=j1.read.bw --command=fio --format=json
python3 - "$T/out" "$T/fio.json" <<'PY' || fail "fio's figures"
import json, sys
r = json.load(open(sys.argv[1]))
f = json.load(open(sys.argv[2]))
assert len(r) == 1 and r[0]['value'] == f['jobs'][0]['read']['bw_bytes'], (r, f['jobs'][0]['read'])
assert r[0]['version'] == f['fio version'] and r[0]['labels'] == 'tool=fio', r
PY
ok "fio's JSON imported: its jobs' figures as run's"

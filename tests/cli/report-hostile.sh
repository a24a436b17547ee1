#!/bin/sh
# Strings read from files (a result, a soak log, a plan's journal and its
# JSON, the history database) are anyone's bytes: an escape sequence in a
# job's name, a device's model, a label or a message must not reach the
# terminal (moving the cursor, clearing the screen, setting the title)
# nor a carriage return or a newline forge a line. Every string of real
# files is made hostile; report (text, CSV of every table, HTML, XLSX,
# JSON), compare, plan's report and history's listing write no raw ESC,
# CR, C1 control or other C0 control but the newline and the tab (text
# shows them as \x1b, \r, \n, \u009b); a CSV field that a spreadsheet
# would run as a formula (= + - @) is made text with a quote.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# every string of a JSON document (or of each line of a JSON Lines log)
# with EVIL after it, but the keys named (enums a reader checks) kept
cat >"$T/hostile.py" <<'PY'
import json, sys
EVIL = "\x1b]0;pwned\x07\x1b[2J\rFORGED\nline\u009b31m\x7f\x00cut"
keep = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else set()
def walk(v, key=None):
    if isinstance(v, dict):
        return {k: walk(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x, key) for x in v]
    return v + EVIL if isinstance(v, str) and key not in keep else v
src, dst = open(sys.argv[1]).read(), open(sys.argv[2], "w")
if sys.argv[1].endswith(".jsonl"):
    for line in src.splitlines():
        dst.write(json.dumps(walk(json.loads(line))) + "\n")
else:
    json.dump(walk(json.loads(src)), dst)
PY
# a file with no raw control byte but the newline and the tab (and CSV's
# CR LF: RFC 4180's line end)
clean() { # FILE WHAT [any: the hostile text need not be there]
	python3 - "$1" <<'PY' || fail "$2: a raw control byte"
import re, sys
b = open(sys.argv[1], "rb").read()
bad = re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)|\xc2[\x80-\x9f]", b)
if bad:
    print(repr(b[max(0, bad.start() - 60):bad.end() + 20]))
    sys.exit(1)
PY
	[ "${3:-}" = any ] || grep -q 'FORGED' "$1" || fail "$2: the hostile text is not shown at all"
}
hostile() { # SRC DST [KEYS KEPT]
	python3 "$T/hostile.py" "$@" || fail "cannot make $2"
}

expect_exit 0 "$SB" run --rw=randrw --size=4M --runtime=300ms --time-based --quiet \
	--name=job --output="$T/run.json" "$T/run.dat"
hostile "$T/run.json" "$T/evil.json"
expect_exit 0 "$SB" report "$T/evil.json"
cat "$T/out" "$T/err" >"$T/both"
clean "$T/both" "report, text"
grep -q '^job\\x1b\]0;pwned\\x07\\x1b\[2J\\rFORGED\\nline\\u009b31m\\x7f ' "$T/out" ||
	fail "the job's name is not shown escaped"
for f in html json xlsx; do
	expect_exit 0 "$SB" report "$T/evil.json" -o "$T/rep.$f"
	[ "$f" = xlsx ] || clean "$T/rep.$f" "report, $f"
done
python3 "$(dirname "$0")/../tools/xlsx-sheet.py" "$T/rep.xlsx" Measurements >"$T/sheet.csv" ||
	fail "the workbook cannot be read"
grep -q FORGED "$T/sheet.csv" || fail "xlsx: the job's name"
for t in measurements intervals percentiles; do
	expect_exit 0 "$SB" report "$T/evil.json" --table=$t --format=csv
	clean "$T/out" "report, csv --table=$t"
done
ok "report of a hostile result: text, html, json, xlsx, csv"

# every method's text: quick, verify, latency, meta, sweep, fio's JSON
# (the keys kept are those a reader checks against its list)
mkdir "$T/lat" "$T/met" "$T/sw"
expect_exit 0 "$SB" quick --size=2M --runtime=100ms --repeat=1 --quiet -o "$T/quick.json" "$T/q.dat"
expect_exit 0 "$SB" verify --size=2M --direct=0 --quiet -o "$T/verify.json" "$T/v.dat"
expect_exit 0 "$SB" latency --count=5 --interval=10ms --quiet -o "$T/latency.json" "$T/lat"
expect_exit 0 "$SB" meta --size=0 --files=50 --quiet -o "$T/meta.json" "$T/met"
expect_exit 0 "$SB" sweep --tests=write,read --file-sizes=64k --record-sizes=4k,64k --quiet \
	-o "$T/sweep.json" "$T/sw"
python3 "$(dirname "$0")/../tools/synth-results.py" --seed=1 --runs=1 --tests=3 --fio \
	-o "$T/fio.json" || fail "synth-results.py"
for r in quick verify latency meta sweep fio; do
	hostile "$T/$r.json" "$T/h-$r.json" command,size_rule,per_char,data,unit,test
	expect_exit 0 "$SB" report "$T/h-$r.json"
	cat "$T/out" "$T/err" >"$T/both"
	clean "$T/both" "report of $r, text"
	expect_exit 0 "$SB" report "$T/h-$r.json" -o "$T/h-$r.html"
	clean "$T/h-$r.html" "report of $r, html"
done
ok "report of every method's hostile result, text and html"

# CSV: a name that a spreadsheet runs as a formula is text
for name in '=HYPERLINK("http://x")' '+1+2' '-2+3' '@SUM(A1)'; do
	python3 - "$T/run.json" "$T/f.json" "$name" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    j["jobname"] = sys.argv[3]
json.dump(d, open(sys.argv[2], "w"))
PY
	expect_exit 0 "$SB" report "$T/f.json" --format=csv
	python3 - "$T/out" "$name" <<'PY' || fail "csv: the formula $name"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
names = [r[rows[0].index("job")] for r in rows[1:]]
assert names and all(n == "'" + sys.argv[2] for n in names), names
PY
done
ok "csv: formulas are text"

# compare, text and its other formats
expect_exit 0 "$SB" compare "$T/evil.json" "$T/evil.json"
cat "$T/out" "$T/err" >"$T/both"
clean "$T/both" "compare, text"
for f in html csv xlsx; do
	expect_exit 0 "$SB" compare "$T/evil.json" "$T/evil.json" -o "$T/cmp.$f"
	[ "$f" = xlsx ] || clean "$T/cmp.$f" "compare, $f"
done
ok "compare of hostile results"

# a soak's log: every record's strings, the kernel's messages among them
expect_exit 0 "$SB" soak --iterations=2 --size=2M --direct=0 --quiet \
	--log="$T/s.jsonl" -o "$T/s.json" "$T/s.dat"
hostile "$T/s.jsonl" "$T/evil.jsonl" type
expect_exit 0 "$SB" report "$T/evil.jsonl"
cat "$T/out" "$T/err" >"$T/both"
clean "$T/both" "report of a soak log, text"
expect_exit 0 "$SB" report "$T/evil.jsonl" -o "$T/soak.html"
clean "$T/soak.html" "report of a soak log, html"
expect_exit 0 "$SB" report "$T/evil.jsonl" --table=records -o "$T/soak.csv"
clean "$T/soak.csv" "report of a soak log, csv"
ok "report of a hostile soak log"

# a plan's journal alone and its JSON, with its steps' results
mkdir "$T/plan"
cp "$T/evil.json" "$T/plan/r.json"
python3 - "$T/plan/journal.json" <<'PY'
import json, sys
E = "\x1b]0;pwned\x07\x1b[2J\rFORGED\nline\u009b31m"
json.dump({"storbench_plan_journal": 1, "steps": [
    {"target": "/dev/t" + E, "step": "s" + E, "run": "quick", "result": "r.json", "status": 0},
    {"target": "/dev/t" + E, "step": "gone" + E, "run": "quick", "result": "no" + E, "status": 1}]},
    open(sys.argv[1], "w"))
PY
expect_exit 0 "$SB" report "$T/plan"
cat "$T/out" "$T/err" >"$T/both"
clean "$T/both" "report of a plan's journal, text"
for f in html; do
	expect_exit 0 "$SB" report "$T/plan" -o "$T/plan.$f"
	clean "$T/plan.$f" "report of a plan's journal, $f"
done
ok "report of a hostile plan's journal"

# a plan's JSON: its name, labels, steps, targets, criteria, why it stopped
cd "$T" || fail "cd"
printf '[global]\nname = h\nlabel = fw=1\n[integrity]\nrun = verify --size=2M --direct=0\nexpect = damaged_blocks == 0\n[bad]\nrun = run --rw=read --size=4M\ntarget = /proc/version\n' >"$T/h.ini"
mkdir "$T/d"
expect_exit 2 "$SB" plan --quiet "$T/h.ini" "$T/d"
hostile "$T/h-plan/plan.json" "$T/hplan.json" command,verdict,state,op,unit,result
cp "$T/hplan.json" "$T/h-plan/plan.json"
expect_exit 0 "$SB" report "$T/h-plan"
cat "$T/out" "$T/err" >"$T/both"
clean "$T/both" "report of a plan's JSON, text"
grep -q '^label: fw=1\\x1b' "$T/out" || fail "a plan's label"
for f in html xlsx; do
	expect_exit 0 "$SB" report "$T/h-plan" -o "$T/hplan.$f"
	[ "$f" = xlsx ] || clean "$T/hplan.$f" "report of a plan's JSON, $f"
done
ok "report of a hostile plan's JSON"

# the history: a hostile result imported (its command and job kept, so
# its figures are recorded), listed, grouped by a hostile label
if "$SB" --version | grep -q sqlite; then
	hostile "$T/run.json" "$T/hist.json" command,jobname,name,rw
	expect_exit 0 "$SB" history --db="$T/h.db" --import "$T/hist.json" "$T/evil.json" \
		--label "chamber=$(printf 'a\033[2Jb\rc')"
	cat "$T/out" "$T/err" >"$T/both"
	clean "$T/both" "history --import"
	expect_exit 0 "$SB" history --db="$T/h.db" --import "$T/run.json" --label chamber=x
	for f in text csv; do
		expect_exit 0 "$SB" history --db="$T/h.db" --format=$f
		cat "$T/out" "$T/err" >"$T/both"
		clean "$T/both" "history, $f"
	done
	expect_exit 0 "$SB" history --db="$T/h.db" --figure=job.read.bw --group-by=label:chamber
	grep -q '^a\\x1b\[2Jb\\rc  ' "$T/out" || { cat "$T/out"; fail "history: a group's name escaped"; }
	cat "$T/out" "$T/err" >"$T/both"
	clean "$T/both" "history --group-by, text" any
	expect_exit 0 "$SB" history --db="$T/h.db" --figure=job.read.bw --group-by=label:chamber \
		-o "$T/hist.html"
	clean "$T/hist.html" "history --group-by, html" any
	ok "history of a hostile result"
fi

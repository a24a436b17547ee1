# soak --workload=iozone: 3 iterations of a small iozone line log every
# cell it asks for (tests x file sizes x records), positive figures, with
# soak's verdict over each cell; the report shows them in text, HTML and
# CSV (a row per iteration and cell); --resume goes on from 3 to 5; bad
# iozone options exit 2 with iozone's message and create nothing; Ctrl-C
# ends it cleanly with a log whose every line parses, verdict interrupted;
# its stderr (not a terminal) has no sweep line per file size and
# iteration.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# the iozone line: -I where this filesystem takes O_DIRECT
mkdir "$T/d"
direct=-I
"$SB" iozone --quiet -I -s1m -r64k -i0 -f "$T/d/probe" >/dev/null 2>&1 || direct=
rm -f "$T/d/probe"
set -- -ec $direct -+n -s1m -s2m -r64k -i0 -i2 -f "$T/d/tf"
cells=6 # write, randread, randwrite (-+n: no rewrite) x 2 file sizes x 1 record

# cells LOG N: N iteration lines, each with every cell, all figures > 0
check_cells() {
	python3 - "$1" "$2" "$cells" <<'PY'
import json, sys
log, n, cells = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
its = [json.loads(l) for l in open(log)]
its = [r for r in its if r.get("type") == "iteration"]
assert [r["iteration"] for r in its] == list(range(1, n + 1)), [r["iteration"] for r in its]
want = {(t, f, 65536) for t in ("write", "randread", "randwrite") for f in (1 << 20, 2 << 20)}
for r in its:
    got = {(c["test"], c["file_size"], c["record_size"]) for c in r["cells"]}
    assert len(r["cells"]) == cells and got == want, r["cells"]
    assert all(c["kibps"] > 0 for c in r["cells"]), r["cells"]
    assert r["write_bw_bytes"] > 0 and r["read_bw_bytes"] > 0 and not r["failed"]
PY
}

expect_exit 0 "$SB" soak --workload=iozone --iterations=3 --idle=200ms --quiet \
	--log="$T/s.jsonl" --output="$T/s.json" -- "$@"
lines_parse "$T/s.jsonl" || fail "log does not parse"
check_cells "$T/s.jsonl" 3 || fail "iteration lines"
[ "$(sed -n 1p "$T/s.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["workload"])')" = iozone ] ||
	fail "configuration: workload"
python3 - "$T/s.jsonl" "$cells" <<'PY' || fail "summary: a stability per cell"
import json, sys
s = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert s["type"] == "summary" and s["verdict"] == "pass", s
c = s["stability"]["cells"]
assert len(c) == int(sys.argv[2]) and all(x["n"] == 3 and x["median"] > 0 for x in c), c
PY
[ "$(json "$T/s.json" "len(d['storbench']['soak']['stability']['cells'])")" = $cells ] ||
	fail "results: cells"
[ ! -e "$T/d/tf" ] || fail "the test file is left without -w"
grep -q "iozone cells:" "$T/out" && grep -q "PASS" "$T/out" || fail "text summary"
ok "3 iterations, $cells cells each"

# the report: text (a table per test), HTML (a chart per test), CSV rows
expect_exit 0 "$SB" report "$T/s.jsonl"
for t in "Writer report" "Random read report" "Random write report"; do
	grep -q "$t" "$T/out" || fail "text report: no $t table"
done
[ "$(grep -cE '^[123] +[0-9]+ +[0-9]+$' "$T/out")" = 9 ] || fail "text report: 3 tables of 3 iterations"
expect_exit 0 "$SB" report -o "$T/r.html" "$T/s.jsonl"
for t in write randread randwrite; do
	grep -q "iozone $t per iteration" "$T/r.html" || fail "HTML: no chart of $t"
done
expect_exit 0 "$SB" report --format=csv --table=iozone "$T/s.jsonl"
[ "$(sed 1d "$T/out" | wc -l)" = $((3 * cells)) ] || fail "CSV: 3 x $cells rows"
python3 - "$T/out" "$T/s.jsonl" <<'PY' || fail "CSV rows are the log's figures"
import csv, json, sys
rows = {(r["iteration"], r["test"], r["file_size_bytes"], r["record_size_bytes"]): float(r["kib_per_s"])
        for r in csv.DictReader(open(sys.argv[1], newline=""))}
for l in open(sys.argv[2]):
    r = json.loads(l)
    for c in r.get("cells", []):
        k = (str(r["iteration"]), c["test"], str(c["file_size"]), str(c["record_size"]))
        assert rows[k] == c["kibps"], (k, rows.get(k), c)
PY
if "$SB" report -o "$T/r.xlsx" "$T/s.jsonl" 2>"$T/err"; then
	python3 - "$T/r.xlsx" $((1 + 3 * cells)) <<'PY' || fail "XLSX: the sheet iozone cells"
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
rows = [len(re.findall(rb"<row ", z.read(n))) for n in z.namelist()
        if n.startswith("xl/worksheets/sheet") and b"record size (KiB)" in z.read(n)]
assert rows == [int(sys.argv[2])], rows
PY
else
	grep -q "built without XLSX" "$T/err" || fail "XLSX report"
fi
expect_exit 0 "$SB" report --format=csv --table=verify "$T/s.jsonl"
[ "$(wc -l <"$T/out")" = 1 ] || fail "CSV verify: an iozone iteration verifies nothing"
ok "report: text, HTML and CSV"

# --resume: 3 to 5, with the iozone line of the log
expect_exit 0 "$SB" soak --resume "$T/s.jsonl" --iterations=5 --quiet
lines_parse "$T/s.jsonl" || fail "resumed log does not parse"
check_cells "$T/s.jsonl" 5 || fail "resumed: iteration lines 1..5"
grep -q "resuming after iteration 3" "$T/out" || fail "resume message"
ok "--resume from 3 to 5"

# --iozone-output: iozone's rows each iteration, its columns in place
expect_exit 0 "$SB" soak --workload=iozone --iterations=2 --quiet --iozone-output \
	--log="$T/o.jsonl" -- "$@"
[ "$(grep -c '^ *1024  *64 ' "$T/out")" = 2 ] || fail "--iozone-output: a 1 MiB row per iteration"
python3 - "$T/out" "$T/o.jsonl" <<'PY' || fail "--iozone-output: the write column is the log's"
import json, sys
rows = [l for l in open(sys.argv[1]) if l.split()[:2] == ["2048", "64"]]
logged = [c["kibps"] for l in open(sys.argv[2]) for c in json.loads(l).get("cells", [])
          if c["test"] == "write" and c["file_size"] == 2 << 20]
assert [float(r[24:33]) for r in rows] == logged, (rows, logged)
PY
ok "--iozone-output"

# bad options: exit 2, iozone's message, nothing created
mkdir "$T/bad"
bad() { # WHAT MESSAGE ARGS...
	what=$1 msg=$2; shift 2
	(cd "$T/bad" && "$SB" soak --quiet "$@") >"$T/out" 2>"$T/err"
	[ $? = 2 ] || fail "$what: exit 2 expected"
	grep -q -- "$msg" "$T/err" || { cat "$T/err"; fail "$what: message"; }
	[ -z "$(ls -A "$T/bad")" ] || fail "$what: created $(ls -A "$T/bad")"
}
bad "-q without a value" "-q: needs a value" --workload=iozone -- -s1m -q
bad "an unknown iozone option" "-X" --workload=iozone -- -s1m -X -f tf
bad "a verify option" "--bs: not with --workload=iozone" --workload=iozone --bs=4k -- -s1m -f tf
bad "no iozone options" "give iozone's options" --workload=iozone
bad "a TARGET" "not a TARGET" --workload=iozone tf -- -s1m
bad "-b" "-b: not with soak" --workload=iozone -- -s1m -b x.xlsx -f tf
bad "--iozone-output alone" "only with --workload=iozone" --iozone-output "$T/bad"
bad "a bad workload" "--workload" --workload=fio -- -s1m
ok "bad options: exit 2, nothing created"

# Ctrl-C: a clean end, every line whole
"$SB" soak --workload=iozone --iterations=1000 --idle=100ms --quiet --log="$T/c.jsonl" -- "$@" \
	>"$T/c.out" 2>&1 &
pid=$!
i=0
while [ "$(cat "$T/c.jsonl" 2>/dev/null | grep -c '"type":"iteration"')" -lt 2 ] && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1))
done
n=$(grep -c '"type":"iteration"' "$T/c.jsonl")
[ "$n" -ge 2 ] || fail "no 2 iterations in 30 s"
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$T/c.out"; fail "SIGINT: exit $rc, 130 expected"; }
lines_parse "$T/c.jsonl" || fail "log after SIGINT does not parse"
[ "$(tail -n 1 "$T/c.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["type"])')" = summary ] ||
	fail "no summary line after SIGINT"
[ ! -e "$T/d/tf" ] || fail "SIGINT left the test file"
[ "$(grep -c '"type":"iteration"' "$T/c.jsonl")" -lt 1000 ] || fail "SIGINT did not stop the soak"
[ "$(tail -n 1 "$T/c.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')" = interrupted ] ||
	fail "SIGINT: the verdict is not interrupted"
ok "SIGINT ends cleanly, interrupted"

# not a terminal: no line per file size and iteration (docs/progress.md:
# at most a line every 10 s), only soak's line per iteration
expect_exit 0 "$SB" soak --workload=iozone --iterations=3 --log="$T/n.jsonl" -- "$@"
grep -q 'sweep: file size' "$T/err" && { cat "$T/err"; fail "sweep's notes in a soak's stderr"; }
[ "$(grep -c '^ *[0-9]*  iozone: ' "$T/out")" = 3 ] || { cat "$T/out"; fail "the iterations' lines"; }
ok "no sweep notes per iteration on stderr"

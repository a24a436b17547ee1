# storbench sweep on small files: the matrices in the text, the JSON and the
# CSV; only our file is created and removed; a new file path and an existing
# file; the trace of the access pattern end to end; Ctrl-C keeps what was
# measured.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
echo precious >"$T/d/keep.txt"
expect_exit 0 "$SB" sweep --file-sizes=64k,256k --record-sizes=4k,16k --warm --quiet \
	--output="$T/r.json" --csv="$T/r.csv" "$T/d"
[ "$(ls -A "$T/d")" = keep.txt ] || fail "left in the directory: $(ls -A "$T/d")"
[ "$(cat "$T/d/keep.txt")" = precious ] || fail "user's file changed"
[ -s "$T/err" ] && { cat "$T/err"; fail "--quiet printed on stderr"; }
for title in "Writer report" "Re-writer report" "Reader report" "Re-Reader report" \
	"Random read report" "Random write report" "Backward read report" \
	"Record rewrite report" "Stride read report" "Fwrite report" "Re-Fwrite report" \
	"Fread report" "Re-Fread report"; do
	grep -q "^$title: KiB/s" "$T/out" || fail "text lacks '$title'"
	grep -qx "\"$title\"" "$T/r.csv" || fail "CSV lacks '$title'"
done
grep -q '4 of 4 cells' "$T/out" || fail "text does not count the cells"
ok "all tests, text and CSV"

python3 - "$T/r.json" <<'PY' || fail "JSON matrices"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["storbench"]["sweep"]
assert d["storbench"]["command"] == "sweep"
assert s["unit"] == "KiB/s"
assert s["file_sizes"] == [65536, 262144], s["file_sizes"]
assert s["record_sizes"] == [4096, 16384]
assert s["shape"] == [[True, True], [True, True]]
assert s["cells_planned"] == 4 and s["cells_done"] == 4 and not s["interrupted"]
assert s["cache"] == "warm" and s["options"]["flush"] and s["options"]["close"]
assert s["options"]["stride"] == 17 and not s["options"]["direct"]
names = [t["test"] for t in s["tests"]]
assert names == ["write", "rewrite", "read", "reread", "randread", "randwrite", "bkwdread",
                 "recrewrite", "strideread", "fwrite", "frewrite", "fread", "freread"], names
for t in s["tests"]:
    for key in ("kib_per_s", "elapsed_ns"):
        m = t[key]
        assert len(m) == 2 and all(len(row) == 2 for row in m), (t["test"], m)
        assert all(isinstance(v, int) and v > 0 for row in m for v in row), (t["test"], m)
    # KiB/s = (bytes / seconds) >> 10, as iozone
    for i, f in enumerate(s["file_sizes"]):
        for j, r in enumerate(s["record_sizes"]):
            b = f // r * r
            assert t["kib_per_s"][i][j] == int(b * 1e9 / t["elapsed_ns"][i][j]) >> 10
PY
# the CSV is iozone -R's blocks as iozone prints them: space-separated
python3 - "$T/r.csv" <<'PY' || fail "CSV blocks"
import sys
rows = open(sys.argv[1]).read().split("\n")
blocks = [i for i, r in enumerate(rows) if r.startswith('"') and r.endswith(' report"')]
assert len(blocks) == 13, blocks
for b in blocks:
    assert rows[b - 1] == "", rows[b - 1]
    assert rows[b + 1] == '        "4"  "16"', repr(rows[b + 1])
    for k, size in ((2, "64"), (3, "256")):
        head, vals = rows[b + k].split("  ", 1)
        assert head == '"%s"' % size and rows[b + k].endswith(" "), repr(rows[b + k])
        assert len(vals.split()) == 2 and all(int(v) > 0 for v in vals.split())
PY
ok "JSON and CSV matrices"

# records larger than the file are not measured: null in JSON, left out of the CSV (as iozone)
expect_exit 0 "$SB" sweep --file-sizes=8k,32k --record-sizes=4k,16k --tests=read,fread \
	--no-retest --warm --quiet --format=json --csv="$T/s.csv" "$T/d"
python3 - "$T/out" <<'PY' || fail "shape with records larger than the file"
import json, sys
s = json.load(open(sys.argv[1]))["storbench"]["sweep"]
assert s["shape"] == [[True, False], [True, True]]
assert [t["test"] for t in s["tests"]] == ["read", "fread"]
for t in s["tests"]:
    assert t["kib_per_s"][0][1] is None and t["kib_per_s"][1][1] > 0
PY
grep -qx '"8"   [1-9][0-9]* ' "$T/s.csv" || { cat "$T/s.csv"; fail "CSV has a value for a cell not measured"; }
ok "records larger than the file skipped"

# --no-retest leaves out the second passes
expect_exit 0 "$SB" sweep --file-sizes=64k --record-sizes=64k --no-retest --warm --quiet \
	--format=json "$T/d"
[ "$(json "$T/out" "[t['test'] for t in d['storbench']['sweep']['tests']]")" = \
"['write', 'read', 'randread', 'randwrite', 'bkwdread', 'recrewrite', 'strideread', 'fwrite', 'fread']" ] ||
	fail "--no-retest tests"
ok "--no-retest"

# a new file path: created for each cell, removed at the end
expect_exit 0 "$SB" sweep --file-sizes=64k --record-sizes=16k --tests=write,bkwdread --quiet \
	--output="$T/n.json" "$T/new.bin"
[ -e "$T/new.bin" ] && fail "new file left behind"
[ "$(json "$T/n.json" "d['storbench']['target']['created']")" = True ] || fail "not marked created"
json "$T/n.json" "d['storbench']['sweep']['cache']" | grep -q '^dropped' || fail "cache not dropped"
ok "new file"

# an existing file: refused without consent, used and kept with it
echo precious >"$T/user.bin"
expect_exit 2 "$SB" sweep --file-sizes=64k --record-sizes=16k --quiet "$T/user.bin"
grep -q destroy-data "$T/err" || fail "refusal does not name --destroy-data"
[ "$(cat "$T/user.bin")" = precious ] || fail "user file changed"
expect_exit 0 "$SB" sweep --file-sizes=64k --record-sizes=16k --tests=write,read --warm \
	--quiet --destroy-data "$T/user.bin"
[ "$(stat -c %s "$T/user.bin")" = 65536 ] || fail "--destroy-data: file not rewritten and kept"
ok "existing file"

# the access pattern end to end, through the test-only trace
SB_SWEEP_TRACE="$T/trace" "$SB" sweep --file-sizes=128k --record-sizes=16k --warm --quiet \
	--tests=bkwdread,recrewrite,strideread --stride=3 "$T/d" >/dev/null || fail "traced run"
[ "$(awk '$1 == "bkwdread" && $2 == "read" { printf "%s ", $5 / 16384 }' "$T/trace")" = \
	"7 6 5 4 3 2 1 0 " ] || fail "backward read order"
[ "$(awk '$1 == "recrewrite" && $2 == "write" { printf "%s ", $5 }' "$T/trace")" = \
	"0 0 0 0 0 0 0 0 " ] || fail "record rewrite offsets"
[ "$(awk '$1 == "strideread" && $2 == "read" { printf "%s ", $5 / 16384 }' "$T/trace")" = \
	"0 3 1 4 2 5 3 4 " ] || fail "stride read order"
ok "trace"

# Ctrl-C in the second cell: the first is kept, the file removed, exit 130
"$SB" sweep --file-sizes=64k,4m --record-sizes=64k --tests=write --burst=64k,200ms \
	--warm --output="$T/i.json" "$T/d" >"$T/i.out" 2>"$T/i.err" &
pid=$!
n=0
until grep -q '(2 of 2)' "$T/i.err" 2>/dev/null; do
	n=$((n + 1))
	[ $n -gt 300 ] && { kill $pid; fail "second cell never started"; }
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
[ "$(ls -A "$T/d")" = keep.txt ] || fail "left after SIGINT: $(ls -A "$T/d")"
python3 - "$T/i.json" <<'PY' || fail "partial results"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["storbench"]["sweep"]
assert d["storbench"]["interrupted"] and s["interrupted"]
assert s["cells_done"] == 1
m = s["tests"][0]["kib_per_s"]
assert m[0][0] > 0 and m[1][0] is None, m
PY
grep -q 'interrupted' "$T/i.out" || fail "text does not say interrupted"
ok "SIGINT"

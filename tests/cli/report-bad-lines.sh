# Bad input that is still a result (issue 13): a soak log cut short in its
# last line, one with garbage lines among its iterations, results and logs
# of a newer schema or log version, and soak logs of 0 and 1 iterations.
# Each renders what can be analysed, in every format, with a note on
# stderr naming the file (and the line); nothing crashes, and nothing is
# judged that cannot be: with too few iterations the outliers and change
# points are said to be unjudged (null in JSON), not "none".
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
expect_exit 0 "$SB" soak --iterations=12 --size=1M --quiet --log="$T/soak.jsonl" \
	--output="$T/soak.json" "$T/d"
lines=$(wc -l <"$T/soak.jsonl") # config, 12 iterations, summary
[ "$lines" = 14 ] || fail "the soak's log has $lines lines"

renders() { # FILE: every format renders it, exit 0; the notes on stderr, one per line
	for f in html txt csv json; do
		expect_exit 0 "$SB" report "$1" -o "$T/r.$f"
		[ -s "$T/r.$f" ] || fail "$(basename "$1"): empty $f"
		cp "$T/err" "$T/err.$f"
	done
	if "$SB" --version | grep -q "features:.* xlsx"; then
		expect_exit 0 "$SB" report "$1" -o "$T/r.xlsx"
	fi
	grep -q 'NaN\| d=""' "$T/r.html" && fail "$(basename "$1"): NaN or an empty path"
	cmp -s "$T/err.html" "$T/err.json" || fail "$(basename "$1"): notes differ by format"
	cp "$T/err.json" "$T/err"
	"$SB" report "$1" --format=json >"$T/out.json" 2>/dev/null || fail "json to stdout"
}
note() { # PATTERN: on stderr, as a note
	grep -q "^storbench: note: $1" "$T/err" || { cat "$T/err"; fail "no note '$1'"; }
}
iterations() { json "$T/out.json" "d['inputs'][0]['soak']['iterations']"; }

# the last line cut by a crash: left out, the rest analysed as the soak would
head -n 13 "$T/soak.jsonl" >"$T/cut.jsonl"
tail -n 1 "$T/soak.jsonl" | head -c 100 >>"$T/cut.jsonl"
renders "$T/cut.jsonl"
note "line 14 of 'cut.jsonl' is cut short (100 bytes, at the end of the file) and was left out$"
[ "$(iterations)" = 12 ] || fail "cut: iterations"
[ "$(json "$T/out.json" "d['inputs'][0]['soak']['anomalies_from']")" = analysis ] ||
	fail "cut: a log without its summary line is analysed"
grep -q 'cut short' "$T/r.html" || fail "cut: the page has the note"
ok "a log with its last line cut short"

# garbage lines among the iterations: each left out with its line, the rest read
python3 - "$T/soak.jsonl" "$T/garbage.jsonl" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
bad = ['not json at all', '{"iteration": 3,,}', '[1, 2, 3]', '\x00\x01\x02',
       '{"type": "iteration", "iteration": -4}']
out = lines[:4] + bad + lines[4:]
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
PY
renders "$T/garbage.jsonl"
note "line 5 of 'garbage.jsonl' is not valid JSON (column 1: expected a value"
note "line 6 of 'garbage.jsonl' is not valid JSON (column 17: expected a member name"
note "line 7 of 'garbage.jsonl' is not a JSON object and was left out$"
note "line 8 of 'garbage.jsonl' is not valid JSON"
note "line 9 of 'garbage.jsonl' was left out: iteration: expected an iteration number from 1, found -4$"
[ "$(grep -c '^storbench: note: ' "$T/err")" = 5 ] || fail "garbage: one note per line"
[ "$(iterations)" = 12 ] || fail "garbage: iterations"
[ "$(json "$T/out.json" "d['inputs'][0]['soak']['anomalies_from']")" = summary ] ||
	fail "garbage: the soak's own verdict still covers its iterations"
python3 - "$T/r.csv" <<'PY' || fail "garbage: CSV of the lines read"
import csv, sys
assert list(csv.reader(open(sys.argv[1])))[0][0] == 'source'
PY
expect_exit 0 "$SB" report "$T/garbage.jsonl" --table=records -o "$T/rec.csv"
[ "$(cut -d, -f3 "$T/rec.csv" | sort -u | grep -c '^[0-9]')" = 13 ] || fail "records: 12 iterations and the summary"
ok "a log with garbage lines"

# a flood of garbage: the first 10 lines noted, the rest counted
python3 - "$T/soak.jsonl" "$T/flood.jsonl" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
open(sys.argv[2], 'w').write('\n'.join(lines[:2] + ['x'] * 500 + lines[2:]) + '\n')
PY
renders "$T/flood.jsonl"
[ "$(grep -c '^storbench: note: line .* is not valid JSON' "$T/err")" = 10 ] || fail "flood: 10 notes"
note "490 more lines of 'flood.jsonl' were left out$"
[ "$(iterations)" = 12 ] || fail "flood: iterations"
ok "a log with 500 garbage lines"

# a newer schema: read as far as this storbench knows it, with a note
python3 - "$T/soak.json" "$T/v9.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['storbench']['schema_version'] = 9
d['storbench']['something_new'] = {'of': ['a', 'newer', 'storbench']}
json.dump(d, open(sys.argv[2], 'w'), indent=2)
PY
renders "$T/v9.json"
note "'v9.json' has results schema version 9, newer than this storbench reads (1)"
[ "$(iterations)" = 12 ] || fail "v9: iterations"
grep -q 'has results schema version 9' "$T/r.html" || fail "v9: the page has the note"
python3 - "$T/soak.jsonl" "$T/lv9.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
c = json.loads(lines[0])
c['log_version'] = 9
open(sys.argv[2], 'w').write('\n'.join([json.dumps(c)] + lines[1:]) + '\n')
PY
renders "$T/lv9.jsonl"
note "'lv9.jsonl' is a log of version 9, newer than this storbench reads (1)"
[ "$(iterations)" = 12 ] || fail "lv9: iterations"
ok "a result and a log of a newer schema"

# 0 and 1 iterations: no chart of nothing, no verdict of too little
head -n 1 "$T/soak.jsonl" >"$T/none.jsonl"
renders "$T/none.jsonl"
[ ! -s "$T/err" ] || fail "none: a note for nothing wrong: $(cat "$T/err")"
[ "$(iterations)" = 0 ] || fail "none: iterations"
grep -q 'No iteration completed: nothing to chart' "$T/r.html" || fail "none: the page"
grep -q '<svg class="chart' "$T/r.html" && fail "none: a chart of nothing"
grep -q '^0 iterations, 0 failed: no verdict' "$T/r.txt" || fail "none: text"
head -n 2 "$T/soak.jsonl" >"$T/one.jsonl"
renders "$T/one.jsonl"
[ "$(iterations)" = 1 ] || fail "one: iterations"
python3 - "$T/out.json" "$T/r.html" <<'PY' || fail "one: nothing judged"
import json, sys
s = json.load(open(sys.argv[1]))['inputs'][0]['soak']
for k in ('write_bw', 'read_bw'):
    assert s[k]['n'] == 1
    assert s[k]['outliers'] is None and s[k]['outliers_total'] is None, s[k]
    assert s[k]['change_points'] is None, s[k]
h = open(sys.argv[2], encoding='utf-8').read()
assert 'too few iterations to look for outliers (5 needed); too few for change points (10 needed)' in h
assert 'outliers ringed' not in h and 'change points dashed' not in h
PY
grep -q "too few iterations to judge" "$T/r.txt" || fail "one: text"
ok "soak logs of 0 and 1 iterations"

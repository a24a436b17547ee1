# report refuses what is not a result with one clear line and exit 2, and
# creates no file then; a JSON Lines log whose last line was cut (a crash)
# still renders everything complete, with a note.
. "$(dirname "$0")/../lib/cli.sh"

expect_exit 0 "$SB" run --rw=read --size=4M --runtime=300ms --time-based --quiet \
	--output="$T/run.json" "$T/run.dat"

refused() { # WHAT FILE PATTERN: exit 2, the pattern on stderr, no output file left
	expect_exit 2 "$SB" report "$2" -o "$T/out.html"
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "$1: expected one line"; }
	grep -q "$3" "$T/err" || { cat "$T/err"; fail "$1: message"; }
	grep -q "^storbench: " "$T/err" || fail "$1: message prefix"
	[ -z "$(ls "$T" | grep out.html)" ] || fail "$1: an output file was created"
	ok "$1 refused"
}

echo '{"name": "not a result", "jobs_done": 3}' >"$T/other.json"
refused "JSON that is not a result" "$T/other.json" "is not a storbench or fio result"
printf 'hello\nworld\n' >"$T/text.txt"
refused "a text file" "$T/text.txt" "is not a result"
: >"$T/empty.json"
refused "an empty file" "$T/empty.json" "is empty"
head -c 2000 "$T/run.json" >"$T/cut.json"
refused "a truncated result" "$T/cut.json" "unexpected end of input (the file is cut short)"
python3 -c "
import json, sys
d = json.load(open('$T/run.json')); d['storbench']['schema_version'] = 99
json.dump(d, open('$T/v99.json', 'w'))"
refused "an unknown schema version" "$T/v99.json" "schema version 99 is not one this storbench reads"
python3 -c "print('{\"a\": ' * 100000)" >"$T/deep.json"
refused "nesting beyond the limit" "$T/deep.json" "nested too deeply"
refused "a missing file" "$T/missing.json" "cannot read"
refused "a directory" "$T" "cannot read"
printf '{"jobs": [1, 2,, 3]}' >"$T/syntax.json"
refused "a syntax error" "$T/syntax.json" "line 1 column 16: expected a value"

# a log: the result as its first line, records, and a last line cut short
python3 - "$T/run.json" "$T/log.jsonl" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
with open(sys.argv[2], 'w') as f:
    f.write(json.dumps(d) + '\n')
    for i in range(1, 4):
        f.write(json.dumps({"type": "iteration", "iteration": i, "write_bw_bytes": 1e7 * i,
                            "read_bw_bytes": 2e7, "failed": False}) + '\n')
    f.write('{"type": "iteration", "iteration": 4, "write_bw')
PY
expect_exit 0 "$SB" report "$T/log.jsonl"
grep -q "note: line 5 of 'log.jsonl' is cut short" "$T/out" || fail "no note of the cut line"
grep -q "^3 log records" "$T/out" || fail "the complete records are not all there"
grep -q "^results" "$T/out" || fail "the result in the log was not rendered"
expect_exit 0 "$SB" report "$T/log.jsonl" --table=records -o "$T/records.csv"
[ "$(grep -c ',iteration,' "$T/records.csv")" = 3 ] || fail "records.csv: 3 iterations expected"
expect_exit 0 "$SB" report "$T/log.jsonl" -o "$T/log.html"
grep -q "is cut short" "$T/log.html" || fail "HTML: no note of the cut line"
ok "a log with its last line cut renders what is complete"

# a log line broken in the middle (not cut) is an error with its line number
sed '2s/"iteration": 1/"iteration": 1,,/' "$T/log.jsonl" >"$T/bad.jsonl"
refused "a log with a corrupt line" "$T/bad.jsonl" "'.*bad.jsonl' line 2: not valid JSON"
printf '{"type": "config", "log_version": 7}\n{"type": "iteration"}\n' >"$T/v7.jsonl"
refused "a log of an unknown version" "$T/v7.jsonl" "log version 7 is not one this storbench reads"

# options: one line naming the option and what it accepts; nothing written
expect_exit 2 "$SB" report "$T/run.json" --format=pdf
grep -q "^storbench: --format: 'pdf' is not valid (expected text, html, csv or xlsx)$" "$T/err" ||
	fail "--format message"
expect_exit 2 "$SB" report "$T/run.json" --table=nope -o "$T/x.csv"
grep -q "^storbench: --table: 'nope' is not valid" "$T/err" || fail "--table message"
expect_exit 2 "$SB" report "$T/run.json" -o "$T/x.pdf"
grep -q "has no extension that names a format" "$T/err" || fail "extension message"
expect_exit 2 "$SB" report "$T/run.json" -o
grep -q "^storbench: --output: needs a value$" "$T/err" || fail "-o without a value"
expect_exit 2 "$SB" report
[ -z "$(ls "$T" | grep -E 'x\.(csv|pdf)|tmp-')" ] || fail "files left behind"
ok "bad options"

# wrong types and impossible figures are refused with their key path, not
# read as 0 or printed as 46 digits (issue 12 item 12)
python3 - "$T/run.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def variant(name, change):
    v = json.loads(json.dumps(d))
    change(v)
    json.dump(v, open('%s/%s.json' % (sys.argv[2], name), 'w'))
variant('jobs-str', lambda v: v.__setitem__('jobs', 'x'))
variant('bw-str', lambda v: v['jobs'][0]['read'].__setitem__('bw_bytes', 'fast'))
variant('bw-bool', lambda v: v['jobs'][0]['read'].__setitem__('bw_bytes', True))
variant('bw-neg', lambda v: v['jobs'][0]['read'].__setitem__('bw_bytes', -1e308))
variant('pct-str', lambda v: v['jobs'][0]['read']['clat_ns']['percentile'].__setitem__('99.000000', 'x'))
PY
refused "jobs as a string" "$T/jobs-str.json" "'.*jobs-str.json': jobs: expected an array of jobs, found a string"
refused "a rate as a string" "$T/bw-str.json" "jobs\[0\]\.read\.bw_bytes: expected a number from 0 to 1e18, found a string"
refused "a rate as a boolean" "$T/bw-bool.json" "jobs\[0\]\.read\.bw_bytes: .* found a boolean"
refused "a negative rate" "$T/bw-neg.json" "jobs\[0\]\.read\.bw_bytes: .* found -1e+308"
refused "a percentile as a string" "$T/pct-str.json" "clat_ns\.percentile\.99\.000000: expected a latency"
cfg='{"type": "config", "command": "soak", "log_version": 1, "storbench": "0", "target": "/x"}'
for it in -5 1e30 0 1.5; do
	printf '%s\n{"type": "iteration", "iteration": %s, "write_bw_bytes": 1, "read_bw_bytes": 1}\n' \
		"$cfg" "$it" >"$T/it.jsonl"
	refused "iteration $it" "$T/it.jsonl" "line 2: iteration: expected an iteration number from 1"
done
printf '%s\n{"type": "iteration", "iteration": 1, "verify": {"bad_ranges": [{"class": "bogus", "offset": 0, "length": 4096}]}}\n' \
	"$cfg" >"$T/cls.jsonl"
refused "a bad range of an unknown class" "$T/cls.jsonl" "verify\.bad_ranges\[0\]\.class: expected a verify class"

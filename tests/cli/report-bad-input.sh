# report refuses what is not a result with one clear line and exit 2, and
# creates no file then; a JSON Lines log whose last line was cut (a crash)
# still renders everything complete, with a note. What a result holds that
# this storbench cannot use (a broken log line, a newer schema) is left out
# with a note: tests/cli/report-bad-lines.sh.
# needs: none
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
for v in 0 '"1"' -1; do
	python3 -c "
import json, sys
d = json.load(open('$T/run.json')); d['storbench']['schema_version'] = json.loads(sys.argv[1])
json.dump(d, open('$T/v.json', 'w'))" "$v"
	refused "schema version $v" "$T/v.json" "schema version .* is not one this storbench reads"
done
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
grep -q "^storbench: note: line 5 of 'log.jsonl' is cut short" "$T/err" || fail "no note of the cut line"
grep -q "^3 log records" "$T/out" || fail "the complete records are not all there"
grep -q "^results" "$T/out" || fail "the result in the log was not rendered"
expect_exit 0 "$SB" report "$T/log.jsonl" --table=records -o "$T/records.csv"
[ "$(grep -c ',iteration,' "$T/records.csv")" = 3 ] || fail "records.csv: 3 iterations expected"
expect_exit 0 "$SB" report "$T/log.jsonl" -o "$T/log.html"
grep -q "is cut short" "$T/log.html" || fail "HTML: no note of the cut line"
ok "a log with its last line cut renders what is complete"

# a log whose header cannot be read is no log; a log version that is no
# version is refused
printf '{"type": "iteration", "iteration": 1}\n{"type": "iteration", "iteration": 2}\n' >"$T/nohead.jsonl"
refused "a log without a header line" "$T/nohead.jsonl" "is not a storbench log: no line carries"
printf '{"type": "config", "log_version": "x"}\n{"type": "iteration"}\n' >"$T/vx.jsonl"
refused "a log version that is no number" "$T/vx.jsonl" "log version of the wrong type is not one"

# options: one line naming the option and what it accepts; nothing written
expect_exit 2 "$SB" report "$T/run.json" --format=pdf
grep -q "^storbench: --format: 'pdf' is not valid (expected text, html, csv, xlsx or json)$" "$T/err" ||
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
# read as 0 or printed as 46 digits (issue 12 item 12): a document as a
# whole, a log's line by leaving it out with a note (the rest is rendered)
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
variant('slat-neg', lambda v: v['jobs'][0]['read']['slat_ns'].__setitem__('min', -1))
variant('sync-str', lambda v: v['jobs'][0]['sync'].__setitem__('total_ios', 'x'))
variant('fe-neg', lambda v: v['jobs'][0]['storbench'].__setitem__('first_error', {'offset': -5}))
PY
refused "jobs as a string" "$T/jobs-str.json" "'.*jobs-str.json': jobs: expected an array of jobs, found a string"
refused "a rate as a string" "$T/bw-str.json" "jobs\[0\]\.read\.bw_bytes: expected a number from 0 to 1e18, found a string"
refused "a rate as a boolean" "$T/bw-bool.json" "jobs\[0\]\.read\.bw_bytes: .* found a boolean"
refused "a negative rate" "$T/bw-neg.json" "jobs\[0\]\.read\.bw_bytes: .* found -1e+308"
refused "a percentile as a string" "$T/pct-str.json" "clat_ns\.percentile\.99\.000000: expected a latency"
# what a job holds beyond what is drawn is judged by the job's reader too
refused "a negative submission latency" "$T/slat-neg.json" "jobs\[0\]\.read\.slat_ns\.min: expected a number"
refused "a count of fsyncs as a string" "$T/sync-str.json" "jobs\[0\]\.sync\.total_ios: expected a number"
refused "a negative offset of the first error" "$T/fe-neg.json" \
	"jobs\[0\]\.storbench\.first_error\.offset: expected a number"
cfg='{"type": "config", "command": "soak", "log_version": 1, "storbench": "0", "target": "/x"}'
left_out() { # WHAT FILE PATTERN: exit 0, a note naming the line on stderr, 1 iteration read
	expect_exit 0 "$SB" report "$2" --format=json
	grep -q "^storbench: note: line 2 of '$(basename "$2")' was left out: $3" "$T/err" ||
		{ cat "$T/err"; fail "$1: note"; }
	[ "$(json "$T/out" "d['inputs'][0]['soak']['iterations']")" = 1 ] || fail "$1: the other line"
	ok "$1: the line left out with a note"
}
ok2='{"type": "iteration", "iteration": 2, "write_bw_bytes": 1, "read_bw_bytes": 1}'
for it in -5 1e30 0 1.5; do
	printf '%s\n{"type": "iteration", "iteration": %s, "write_bw_bytes": 1, "read_bw_bytes": 1}\n%s\n' \
		"$cfg" "$it" "$ok2" >"$T/it.jsonl"
	left_out "iteration $it" "$T/it.jsonl" "iteration: expected an iteration number from 1"
done
printf '%s\n{"type": "iteration", "iteration": 1, "verify": {"bad_ranges": [{"class": "bogus", "offset": 0, "length": 4096}]}}\n%s\n' \
	"$cfg" "$ok2" >"$T/cls.jsonl"
left_out "a bad range of an unknown class" "$T/cls.jsonl" "verify\.bad_ranges\[0\]\.class: expected a verify class"
# a long document's series and iterations are checked item by item, with
# their key path
python3 - "$T/run.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['jobs'][0]['storbench']['series'][0]['read'] = {'bw_bytes': 'fast'}
json.dump(d, open(sys.argv[2] + '/series-str.json', 'w'), indent=2)
PY
refused "an interval's rate as a string" "$T/series-str.json" \
	"jobs\[0\]\.storbench\.series\[0\]\.read\.bw_bytes: expected a number from 0 to 1e18, found a string"
# compare reads each job apart, its intervals judged there as report judges them
expect_exit 2 "$SB" compare "$T/series-str.json" "$T/series-str.json"
grep -q "jobs\[0\]\.storbench\.series\[0\]\.read\.bw_bytes: expected a number" "$T/err" ||
	{ cat "$T/err"; fail "compare: an interval's rate as a string"; }
ok "compare: an interval's rate as a string refused"

# soak --resume and storbench report go by one check of a soak log's lines
# (lib/soak/soak_check.h): a line with iteration -5, 2^63, 0, 1.5, a
# string, or one that skips or repeats a number is refused by both, named
# with its line and member in the same words; the refused resume runs
# nothing and leaves the log as it was, byte for byte.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

mkdir "$T/d"
expect_exit 0 "$SB" soak --iterations=2 --size=1M --log="$T/good.jsonl" "$T/d"
n=0
for v in -5 9223372036854775808 0 1.5 '"2"' 3 1; do
	n=$((n + 1))
	# the last iteration's number replaced, the summary dropped
	python3 - "$T/good.jsonl" "$T/bad$n.jsonl" "$v" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
lines = [l for l in lines if '"type":"summary"' not in l]
last = max(i for i, l in enumerate(lines) if '"type":"iteration"' in l)
d = json.loads(lines[last])
d['iteration'] = json.loads(sys.argv[3])
lines[last] = json.dumps(d, separators=(',', ':'))
open(sys.argv[2], 'w').write('\n'.join(lines) + '\n')
print(last + 1)
PY
	line=$(grep -n '"type":"iteration"' "$T/bad$n.jsonl" | tail -n 1 | cut -d: -f1)
	sum=$(sha256sum <"$T/bad$n.jsonl")
	expect_exit 2 "$SB" soak --resume="$T/bad$n.jsonl" --iterations=5
	why=$(sed -n "s/^storbench: --resume: '.*' line $line is not a soak log record (\(.*\)): not resuming from it$/\1/p" "$T/err")
	[ -n "$why" ] || { cat "$T/err"; fail "iteration $v: resume does not name line $line"; }
	grep -q "iteration" "$T/out" && fail "iteration $v: the refused resume ran"
	[ "$(sha256sum <"$T/bad$n.jsonl")" = "$sum" ] || fail "iteration $v: the log was changed"
	expect_exit 0 "$SB" report "$T/bad$n.jsonl"
	grep -qxF "storbench: note: line $line of 'bad$n.jsonl' was left out: $why" "$T/err" ||
		{ cat "$T/err"; fail "iteration $v: the report's words differ from resume's ($why)"; }
	echo "iteration $v: $why"
done
ok "$n bad iteration numbers: refused by resume and left out by report, in the same words"
exit 0

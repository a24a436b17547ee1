# soak --resume goes on with the options its log holds; the command line may
# say how long (--iterations: the total, --duration) and where the outputs
# go (and are recorded: --db, --label), and any other option is refused, not silently dropped. A new stop
# condition replaces the logged one, is said in the output and the results,
# and is logged, so that a later resume keeps it.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

mkdir "$T/d"
expect_exit 0 "$SB" soak --iterations=2 --size=1M --log="$T/l.jsonl" "$T/d"
for opt in --size=2M --bs=64k --destroy-data --idle=1s --seed=5 --iodepth=2; do
	expect_exit 2 "$SB" soak --resume="$T/l.jsonl" "$opt"
	grep -q "^storbench: ${opt%%=*}: not with --resume" "$T/err" || { cat "$T/err"; fail "$opt with --resume"; }
done
[ "$(grep -c '"type":"iteration"' "$T/l.jsonl")" = 2 ] || fail "a refused resume ran"
ok "options that would change the soak are refused with --resume"

expect_exit 0 "$SB" soak --resume "$T/l.jsonl" --iterations=4 --format=json --output="$T/r.json"
[ "$(grep -c '"type":"iteration"' "$T/l.jsonl")" = 4 ] || fail "--iterations=4 with --resume"
[ "$(json "$T/r.json" "d['storbench']['soak']['summary']['iterations'] if 'summary' in d['storbench']['soak'] else d['storbench']['soak']['iterations']")" = 4 ] ||
	fail "results of the resumed soak"
json "$T/out" "d['storbench']['soak']" >/dev/null || fail "--format=json with --resume: no JSON"
[ "$(json "$T/r.json" "d['storbench']['soak']['stop_change']")" = \
	"{'after_iteration': 2, 'iterations_before': 2, 'duration_ns_before': 0, 'iterations': 4, 'duration_ns': 0}" ] ||
	fail "results: stop_change $(json "$T/r.json" "d['storbench']['soak'].get('stop_change')")"
[ "$(grep -c '"type":"resume"' "$T/l.jsonl")" = 1 ] || fail "the new stop condition is not logged"
ok "--iterations, --format and --output apply to a resumed soak; the change is in the results and the log"

# a later resume without options keeps the logged change: 4 done, 4 wanted
expect_exit 0 "$SB" soak --resume "$T/l.jsonl"
[ "$(grep -c '"type":"iteration"' "$T/l.jsonl")" = 4 ] || fail "a second resume forgot --iterations=4"
grep -q "stop condition changed" "$T/out" && fail "a resume without options says the stop changed"
ok "a later resume keeps the new stop condition"

# the summary says what replaced what; --duration replaces --iterations
# (1 ms from the first start has passed for certain: 4 iterations ran)
expect_exit 0 "$SB" soak --resume "$T/l.jsonl" --duration=1ms
[ "$(grep -c '"type":"iteration"' "$T/l.jsonl")" = 4 ] || fail "--duration=1ms (long passed) ran more"
[ "$(grep -c "^ *resumed; stop condition changed from 4 iterations to 1 ms$" "$T/out")" = 2 ] ||
	{ cat "$T/out"; fail "text: not said at the start and in the summary"; }
expect_exit 0 "$SB" soak --resume "$T/l.jsonl" --iterations=5 --duration=1h
[ "$(grep -c '"type":"iteration"' "$T/l.jsonl")" = 5 ] || fail "--iterations=5 --duration=1h"
grep -q "^  resumed; stop condition changed from 1 ms to 5 iterations or 1 h, whichever comes first$" \
	"$T/out" || { cat "$T/out"; fail "text: both limits"; }
ok "the summary says 'resumed; stop condition changed from 4 iterations to 1 ms'"

# where the result is recorded is an output too: --db and --label (a plan
# with db= gives them to a soak step it resumes)
if "$SB" --version | grep -q sqlite; then
	expect_exit 0 "$SB" soak --resume "$T/l.jsonl" --iterations=6 --db="$T/h.db" --label fw=1.2 \
		--label chamber=85C
	n=$("$SB" history --db="$T/h.db" --label fw=1.2 --format=csv | grep -c soak)
	[ "$n" = 1 ] || { "$SB" history --db="$T/h.db"; fail "a resumed soak's record with its labels: $n"; }
	ok "--db and --label apply to a resumed soak"
fi
exit 0

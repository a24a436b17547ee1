# soak --resume goes on with the options its log holds; the command line may
# say how long (--iterations: the total, --duration) and where the outputs
# go, and any other option is refused, not silently dropped.
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
ok "--iterations, --format and --output apply to a resumed soak"
exit 0

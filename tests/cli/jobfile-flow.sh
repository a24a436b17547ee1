# fio's flow, flow_id and flow_sleep in job files: the jobs running
# together with one flow_id issue requests in proportion to their weights
# (one held back to 500 requests a second for 2 s holds the other, weight
# 8, capped at 20000 a second and running 1 s inside those 2, to at most
# 8 times the first's requests, where alone it would move 20 times: a
# count, not a time), with fio's number of job entries
# where fio is installed; jobs of another flow_id are not held; bad values
# and flow_watermark (not fio 3.33's) refused naming line and option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cat >"$T/f.fio" <<'JOB'
[global]
bs=4k
ioengine=null
size=100g
runtime=2
time_based
flow_id=1
flow_sleep=200
[slow]
flow=1
rate_iops=500
[fast]
flow=8
rate_iops=20000
runtime=1
[other]
flow_id=2
flow=1
number_ios=20000
JOB
expect_exit 0 "$SB" fio --output-format=json --output="$T/f.json" "$T/f.fio"
set -- $(json "$T/f.json" "' '.join(str(j['read']['total_ios']) for j in d['jobs'])")
[ $# = 3 ] || fail "entries: $*"
python3 -c "import sys; s, f = $1, $2; sys.exit(not (s > 0 and s <= f <= 8 * (s + 1)))" ||
	fail "slow $1, fast $2 requests: not held to 8 for 1"
[ "$3" = 20000 ] || fail "flow_id=2 alone: $3 requests"
ok "flow: weights 1 and 8 issue $1 and $2 requests; another flow_id is not held"
if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio --output-format=json --output="$T/fio.json" "$T/f.fio") ||
		fail "fio itself failed"
	[ "$(json "$T/fio.json" "len(d['jobs'])")" = 3 ] || fail "fio's entries differ"
	ok "flow: fio's job entries"
fi

for bad in flow=1001 flow=-1 flow_id=x flow_sleep=soon flow_watermark=10; do
	printf '[b]\nioengine=null\nsize=1m\n%s\n' "$bad" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "line 4: ${bad%%=*}" "$T/err" || fail "$bad: $(cat "$T/err")"
done
grep -q "fio 3.33 has no flow_watermark" "$T/err" || fail "flow_watermark: $(cat "$T/err")"
ok "flow: bad values and flow_watermark refused naming line and option"

# quick and compare work together: two quick results measured with the
# defaults (the repeats quick takes unless told) compare with a verdict.
# One loop device measured as it is, then again from inside a blkio cgroup
# that throttles it to a quarter of the fewest IO/s of any run of the first
# measurement: every bandwidth and IOPS row is called worse, none
# inconclusive, with no advice to measure again. The limit comes from the
# first measurement, not from a speed the machine is assumed to reach (a
# fixed 1000 IO/s was faster than a loaded machine's loop device): every
# run of the first is 4 times as fast as any of the throttled, whatever
# the machine's load, so the runs never overlap and the verdict is sure.
# needs: root loop slow
. "$(dirname "$0")/../lib/cli.sh"

dev=$(make_loop 64) || exit $?
# the defaults but for a short run: the repeats are quick's own
q() { "$SB" quick --size=16M --runtime=300ms --destroy-data --quiet "$@"; }
expect_exit 0 q --output="$T/fast.json" "$dev"
# the slowest run of any test, in IO/s: a quarter of it for every test
# (the bytes a second follow, each test's request size being fixed)
iops=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["storbench"]["summary"]
print(max(1, int(min(r["iops_min"] for r in s) / 4)))' "$T/fast.json") || fail "fast: no summary"
group=$(make_throttle "$dev" $((1 << 40)) "$iops") || exit $?
expect_exit 0 sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' - "$group" \
	"$SB" quick --size=16M --runtime=300ms --destroy-data --quiet --output="$T/slow.json" "$dev"

expect_exit 0 "$SB" compare "$T/fast.json" "$T/slow.json" --format=json
python3 - "$T/out" "$T/fast.json" "$T/slow.json" <<'PY' || fail "throttled: verdicts"
import json, sys
c = json.load(open(sys.argv[1]))
for p in sys.argv[2:]:
    s = json.load(open(p))['storbench']['summary']
    assert s and all(r['runs'] >= 4 for r in s), (p, [r['runs'] for r in s])
rows = c['comparisons']
assert len(rows) == 32, len(rows)
inc = [r for r in rows if r['verdict'] == 'inconclusive']
assert not inc, inc[:2]
rate = [r for r in rows if r['metric'] in ('bw_bytes', 'iops')]
assert len(rate) == 16 and all(r['verdict'] == 'worse' for r in rate), \
    [(r['test'], r['direction'], r['metric'], r['verdict'], r['diff_pct']) for r in rate]
assert 'advice' not in c or not c['advice'], c.get('advice')
PY
expect_exit 0 "$SB" compare "$T/fast.json" "$T/slow.json"
grep -q " inconclusive$" "$T/out" && { cat "$T/out"; fail "text: inconclusive rows"; }
grep -q " worse$" "$T/out" || { cat "$T/out"; fail "text: no row called worse"; }
ok "two quick results with the default repeats: a throttled device is called worse"

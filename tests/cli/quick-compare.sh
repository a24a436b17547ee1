# quick and compare work together: two quick results measured with the
# defaults (the repeats quick takes unless told) compare with a verdict.
# One loop device measured as it is, then again from inside a blkio cgroup
# that throttles every test to a quarter of its own slowest run in the
# first measurement: every bandwidth and IOPS row is called worse, none
# inconclusive, with no advice to measure again. The limits come from the
# first measurement, not from a speed the machine is assumed to reach (a
# fixed 16 MiB/s and 1000 IO/s was faster than a loaded machine's loop
# device): every run of the first is 4 times as fast as any throttled one
# whatever the load, so the runs never overlap and the verdict is sure.
# needs: root loop slow
. "$(dirname "$0")/../lib/cli.sh"

dev=$(make_loop 64) || exit $?
# the defaults but for a short run: the repeats are quick's own
q() { "$SB" quick --size=16M --runtime=300ms --destroy-data --quiet "$@"; }
expect_exit 0 q --output="$T/fast.json" "$dev"
# the limits: IO/s at a quarter of the slowest run of the 4 KiB tests,
# bytes/s at a quarter of the slowest run of the 1 MiB tests (a 1 MiB
# test is held by the bytes, a 4 KiB test by the requests: one limit of
# IO/s for both would make the 4 KiB tests crawl on a loaded machine)
limits=$(python3 -c '
import json, re, sys
s = json.load(open(sys.argv[1]))["storbench"]["summary"]
size = lambda r: int(re.match(r"[A-Z]+(\d+)K", r["test"].replace("1M", "1024K")).group(1)) << 10
big = max(size(r) for r in s)
iops = min(r["iops_min"] for r in s if size(r) < big) / 4
bps = min(r["iops_min"] * size(r) for r in s if size(r) == big) / 4
print(max(1, int(bps)), max(1, int(iops)))' "$T/fast.json") || fail "fast: no summary"
set -- $limits
group=$(make_throttle "$dev" "$1" "$2") || exit $?
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

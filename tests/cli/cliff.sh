# cliff on cachefs (tests/fixtures/cachefs.c), a file that writes its
# first 48 MiB at 40 MiB/s and the rest at 8 MiB/s, and refills its cache
# in 2 s of idle: the cache's size is found within 10% and the speed after
# it within 20% of those settings (the fixture's truth), the fill stops on
# its own once the slow level has held, and the cache comes back after
# idle, more after a longer idle. The report renders the section.
# Skips where FUSE is not usable.
# needs: fuse serial io-only
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/cachefs.sh"

MiB=1048576
CACHE=$((48 * MiB)) FAST=$((40 * MiB)) SLOW=$((8 * MiB))
cf_start 256M "$CACHE" "$FAST" "$SLOW" 2000

expect_exit 0 "$SB" cliff --destroy-data --quiet --recovery=1s,3s --output="$T/c.json" "$CF_MNT/disk"
# the docs show this run's output: it still prints every line they show
cat "$T/out" "$T/err" >"$T/doc.out"
for d in docs/examples.md docs/cliff.md; do
	python3 "$SB_TOP/tests/tools/doc-examples.py" check "$SB_TOP/$d:cliff-cachefs" "$T/doc.out" ||
		fail "$d's cliff example no longer matches what cliff prints"
done
# every figure in one reading (python starts slowly on a loaded machine)
vars() { # FILE PREFIX: PREFIX_key=value for the cliff section's figures
	python3 - "$1" "$2" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))['storbench']['cliff']
p = sys.argv[2]
for k in ('found', 'cache_bytes', 'after_bw_bytes', 'before_bw_bytes', 'stop_reason',
          'bytes_written', 'pattern'):
    print("%s_%s='%s'" % (p, k, c[k]))
print("%s_nsteps=%d" % (p, len(c['steps'])))
print("%s_nbins=%d" % (p, len(c['series']['bw_bytes'])))
r = c['recovery']
print("%s_nrec=%d" % (p, len(r)))
for i, x in enumerate(r):
    print("%s_r%d=%s %s_idle%d=%d" % (p, i, x['fraction'], p, i, x['idle_ns']))
PY
}
eval "$(vars "$T/c.json" c)"
grep -q "^  cache: " "$T/out" || fail "no cache line: $(cat "$T/out")"
[ "$c_found" = True ] || fail "no drop found: $(cat "$T/out")"
within_pct "$c_cache_bytes" "$CACHE" 10 || fail "cache $c_cache_bytes bytes, the fixture's is $CACHE"
within_pct "$c_after_bw_bytes" "$SLOW" 20 || fail "after the drop $c_after_bw_bytes B/s, the fixture's is $SLOW"
python3 -c "import sys; b=float(sys.argv[1]); sys.exit(0 if 2 * $SLOW < b <= 1.05 * $FAST else 1)" "$c_before_bw_bytes" ||
	fail "before the drop $c_before_bw_bytes B/s: not between twice the slow and the fast rate"
[ "$c_stop_reason" = stable ] || fail "stopped by $c_stop_reason, expected stable"
[ "$c_nsteps" = 0 ] || fail "$c_nsteps steps where the fixture has one drop"
[ "$c_bytes_written" -lt $((256 * MiB)) ] || fail "wrote the whole region ($c_bytes_written bytes): the stop rule did not stop it"
ok "cache $c_cache_bytes B, after $c_after_bw_bytes B/s, stopped after $c_bytes_written B"

# recovery: half the cache after 1 s of a 2 s refill, all of it after 3 s
[ "$c_nrec" = 2 ] || fail "$c_nrec recoveries, expected 2"
python3 -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(0 if 0.25 <= a <= 0.8 and b >= 0.85 and b > a else 1)" "$c_r0" "$c_r1" ||
	fail "recovered $c_r0 after 1 s and $c_r1 after 3 s (expected about 0.5 and 1)"
[ "$c_idle0" = 1000000000 ] || fail "idle of recovery 1: $c_idle0"
grep -q "recovery after 1s idle" "$T/out" || fail "no recovery line: $(cat "$T/out")"
ok "recovered $c_r0 after 1 s, $c_r1 after 3 s"

# the series the drop was found in: bins against bytes, bounded
[ "$c_nbins" -ge 10 ] && [ "$c_nbins" -le 4097 ] || fail "series of $c_nbins bins"

# the report: text and HTML with the chart and its drop marked
expect_exit 0 "$SB" report "$T/c.json"
grep -q "cache" "$T/out" || fail "text report without the cliff: $(cat "$T/out")"
expect_exit 0 "$SB" report --output="$T/c.html" "$T/c.json"
grep -q 'chart-line' "$T/c.html" || fail "no throughput chart in the HTML report"
grep -q 'class="vline"' "$T/c.html" || fail "the drop is not marked in the chart"
grep -q 'chart-bar' "$T/c.html" || fail "no recovery bars in the HTML report"
ok "report"

# random writes, and --max-time: the cache is the same bytes in any order
sleep 3 # the cache refills (2 s of idle empty it)
expect_exit 0 "$SB" cliff --destroy-data --quiet --rw=randwrite --max-time=4s --output="$T/r.json" "$CF_MNT/disk"
eval "$(vars "$T/r.json" r)"
[ "$r_pattern" = randwrite ] || fail "pattern $r_pattern"
[ "$r_stop_reason" = "max time" ] || fail "stopped by $r_stop_reason, expected max time"
[ "$r_found" = True ] || fail "no drop found with random writes: $(cat "$T/out")"
within_pct "$r_cache_bytes" "$CACHE" 10 || fail "random: cache $r_cache_bytes bytes, the fixture's is $CACHE"
ok "random writes: cache $r_cache_bytes B"

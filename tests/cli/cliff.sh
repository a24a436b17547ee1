# cliff on cachefs (tests/fixtures/cachefs.c), a file that writes its
# first 48 MiB at 40 MiB/s and the rest at 8 MiB/s, and refills its cache
# in 2 s of idle: the cache's size is found within 10% and the speed after
# it within 20% of those settings (the fixture's truth), the fill stops on
# its own once the slow level has held, and the cache comes back after
# idle, more after a longer idle. The report renders the section.
# Skips where FUSE is not usable.
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/cachefs.sh"

MiB=1048576
CACHE=$((48 * MiB)) FAST=$((40 * MiB)) SLOW=$((8 * MiB))
cf_start 256M "$CACHE" "$FAST" "$SLOW" 2000

expect_exit 0 "$SB" cliff --destroy-data --quiet --recovery=1s,3s --output="$T/c.json" "$CF_MNT/disk"
c() { json "$T/c.json" "d['storbench']['cliff']$1"; }
grep -q "^  cache: " "$T/out" || fail "no cache line: $(cat "$T/out")"
[ "$(c "['found']")" = True ] || fail "no drop found: $(cat "$T/out")"
within_pct "$(c "['cache_bytes']")" "$CACHE" 10 || fail "cache $(c "['cache_bytes']") bytes, the fixture's is $CACHE"
within_pct "$(c "['after_bw_bytes']")" "$SLOW" 20 || fail "after the drop $(c "['after_bw_bytes']") B/s, the fixture's is $SLOW"
before=$(c "['before_bw_bytes']")
python3 -c "import sys; b=float(sys.argv[1]); sys.exit(0 if 2 * $SLOW < b <= 1.05 * $FAST else 1)" "$before" ||
	fail "before the drop $before B/s: not between twice the slow and the fast rate"
[ "$(c "['stop_reason']")" = stable ] || fail "stopped by $(c "['stop_reason']"), expected stable"
[ "$(c "['steps']")" = "[]" ] || fail "steps where the fixture has one drop: $(c "['steps']")"
written=$(c "['bytes_written']")
[ "$written" -lt $((256 * MiB)) ] || fail "wrote the whole region ($written bytes): the stop rule did not stop it"
ok "cache $(c "['cache_bytes']") B, after $(c "['after_bw_bytes']") B/s, stopped after $written B"

# recovery: half the cache after 1 s of a 2 s refill, all of it after 3 s
r1=$(c "['recovery'][0]['fraction']") r3=$(c "['recovery'][1]['fraction']")
python3 -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(0 if 0.25 <= a <= 0.8 and b >= 0.85 and b > a else 1)" "$r1" "$r3" ||
	fail "recovered $r1 after 1 s and $r3 after 3 s (expected about 0.5 and 1)"
[ "$(c "['recovery'][0]['idle_ns']")" = 1000000000 ] || fail "idle of recovery 1"
grep -q "recovery after 1s idle" "$T/out" || fail "no recovery line: $(cat "$T/out")"
ok "recovered $r1 after 1 s, $r3 after 3 s"

# the series the drop was found in: bins against bytes, bounded
n=$(c "['series']['bw_bytes'].__len__()")
[ "$n" -ge 10 ] && [ "$n" -le 4097 ] || fail "series of $n bins"

# the report: text and HTML with the chart and its drop marked
expect_exit 0 "$SB" report "$T/c.json"
grep -q "cache" "$T/out" || fail "text report without the cliff: $(cat "$T/out")"
expect_exit 0 "$SB" report --output="$T/c.html" "$T/c.json"
grep -q 'chart-line' "$T/c.html" || fail "no throughput chart in the HTML report"
grep -q 'class="vline"' "$T/c.html" || fail "the drop is not marked in the chart"
grep -q 'chart-bar' "$T/c.html" || fail "no recovery bars in the HTML report"
ok "report"

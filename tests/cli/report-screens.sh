# The flash, sweep, cliff, pts and verify reports as Chromium lays them out at
# 1280 x 800 (tests/tools/page-boxes.py): no text drawn over other text
# (tick labels, axis titles, legends, a colour scale's labels), none out of
# its chart or the page. Each from a real run of its command, all five in
# one report so Chromium starts once. Issue 30 item 8: the flash chart's
# y-axis title lay over its tick labels; the verify map's last offset
# ('+512 KiB', centred on the grid's right edge) left its chart.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"
boxes=$(dirname "$0")/../tools/page-boxes.py
z=$(make_zram 64M) || skip "$(echo "$z" | tail -n 1)"

# flash: the diff per boundary, the open-AU rates (log sizes across, log
# rates up) and the scatter map
truncate -s 300M "$T/f.img"
expect_exit 0 "$SB" flash --align --open-au --scatter --scatter-order=5 --count=2 \
	--destroy-data --quiet --output="$T/flash.json" "$T/f.img"
# sweep: four heatmaps on one colour scale
mkdir "$T/s"
expect_exit 0 "$SB" sweep --file-sizes=64k,1m,16m --record-sizes=4k,64k,1m \
	--tests=write,rewrite,read,randread --quiet --output="$T/sweep.json" "$T/s"
# cliff: the throughput against the bytes written
expect_exit 0 "$SB" cliff --destroy-data --quiet --size=16M --output="$T/cliff.json" "$T/c.bin"
# pts: convergence, window, the matrix as a heatmap
"$SB" pts --destroy-data --quiet --round-time=0.1s --bs=4k,64k --mix=100/0,65/35,0/100 \
	--max-rounds=5 --seed=7 --output="$T/pts.json" "$z" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "pts: exit $rc"; }
# verify: the map of the checked region, its offsets under it
expect_exit 0 "$SB" verify --size=8M --quiet --output="$T/verify.json" "$T/v.bin"

# and the open-AU rates of a fast card, 95 MiB/s to 9.3 GiB/s (the issue's
# chart: the label of 1e9 B/s, "954 MiB/s", stood under the axis title)
python3 - "$T/flash.json" "$T/fast.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d['storbench']['flash']['open_au']['runs']:
    n = len(r['rows'])
    for k, row in enumerate(r['rows']):
        row['bw_bytes'] = 1e8 * 100 ** (k / max(n - 1, 1))
json.dump(d, open(sys.argv[2], 'w'))
PY
expect_exit 0 "$SB" report --output="$T/all.html" "$T/flash.json" "$T/fast.json" \
	"$T/sweep.json" "$T/cliff.json" "$T/pts.json" "$T/verify.json"
python3 "$boxes" --overlaps --overflow --json "$T/boxes.json" "$T/all.html" >"$T/pb" 2>&1
rc=$?
[ $rc = 77 ] && skip "$(tail -n 1 "$T/pb")"
[ $rc = 0 ] || { cat "$T/pb"; fail "text overlaps or leaves its chart"; }
# not vacuous: every chart was laid out, with its tick labels
python3 - "$T/boxes.json" "$T/all.html" >"$T/n" <<'PY' || { cat "$T/n"; fail "charts missing"; }
import json, re, sys
b = json.load(open(sys.argv[1]))
h = open(sys.argv[2], encoding='utf-8').read()
kinds = re.findall(r'<svg class="chart chart-(\w+)', h)
assert len(b['svgs']) == len(kinds) >= 13, (len(b['svgs']), kinds)
for k in ('line', 'scatter', 'heatmap'):
    assert k in kinds, k
ticks = [x for x in b['boxes'] if x['svg'] is not None and x['cls'] == 'tick']
charts = {x['svg'] for x in ticks}
assert len(charts) == len(kinds), (len(charts), len(kinds))
print(len(kinds), len(ticks))
PY
ok "flash, sweep, cliff, pts and verify at 1280 px: $(cut -d' ' -f1 "$T/n") charts, $(cut -d' ' -f2 "$T/n") tick labels, none over another or out of its chart"

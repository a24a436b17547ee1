# A sweep result as a report: one heatmap per test (file sizes down, record
# sizes across, the figure in each cell), one colour scale with its legend
# for all of them, and in XLSX one sheet per test laid out as iozone -Rb
# (file sizes in KiB down column A, record sizes in KiB across row 2,
# KiB/s in the cells).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
expect_exit 0 "$SB" sweep --file-sizes=64k,256k --record-sizes=4k,16k,64k --tests=write,read \
	--warm --quiet --output="$T/s.json" "$T/d"
expect_exit 0 "$SB" report "$T/s.json" -o "$T/s.html"
python3 - "$T/s.html" "$T/s.json" <<'PY' || fail "heatmaps"
import json, re, sys
h = open(sys.argv[1], encoding='utf-8').read()
sw = json.load(open(sys.argv[2]))['storbench']['sweep']
maps = re.findall(r'<svg class="chart chart-heatmap".*?</svg>', h, re.S)
assert len(maps) == len(sw['tests']) == 2, len(maps)
for m, t in zip(maps, sw['tests']):
    assert '(%s)</text>' % t['test'] in m
    rows = re.findall(r'text-anchor="end">([^<]*)</text>', m)
    assert rows[:2] == ['64 KiB', '256 KiB'], rows
    assert all(c in m for c in ('>4 KiB<', '>16 KiB<', '>64 KiB<')), "record sizes across"
    assert 'linearGradient' in m and '>File size<' in m and '>Record size<' in m and '>Bandwidth<' in m
    cells = re.findall(r'<title>([^<]*)</title>', m)
    assert len(cells) == 6, cells
    assert 'NaN' not in m
PY
ok "HTML: a heatmap per test with its scale"

# one colour scale for every heatmap of a report (issue 30 item 9): a
# colour means one speed in every chart and every file of it. Known
# figures: write 100..3200 KiB/s, read 10000..320000 KiB/s; the report's
# slowest cell alone is the scale's darkest, its fastest alone the
# brightest, and every chart's colour bar reads the same ticks, also with a
# second file of a faster device beside it.
python3 - "$T/s.json" "$T/k.json" "$T/k10.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d['storbench']['sweep']['tests']
t[0]['kib_per_s'] = [[100, 200, 400], [800, 1600, 3200]]
t[1]['kib_per_s'] = [[10000, 20000, 40000], [80000, 160000, 320000]]
json.dump(d, open(sys.argv[2], 'w'))
for x in t:
    x['kib_per_s'] = [[v * 10 for v in r] for r in x['kib_per_s']]
json.dump(d, open(sys.argv[3], 'w'))
PY
expect_exit 0 "$SB" report "$T/k.json" -o "$T/k.html"
expect_exit 0 "$SB" report "$T/k.json" "$T/k10.json" -o "$T/k2.html"
python3 - "$T/k.html" "$T/k2.html" <<'PY' || fail "one colour scale"
import re, sys
for path, lo, hi in ((sys.argv[1], '100 KiB/s', '312 MiB/s'), (sys.argv[2], '100 KiB/s', '3.05 GiB/s')):
    h = open(path, encoding='utf-8').read()
    maps = re.findall(r'<svg class="chart chart-heatmap".*?</svg>', h, re.S)
    assert len(maps) in (2, 4), len(maps)
    cells = [(v, c) for m in maps for c, v in re.findall(r'fill="(#[0-9a-f]{6})"><title>[^<]*: ([^<]*)</title>', m)]
    dark = sorted(v for v, c in cells if c == '#440154')
    bright = sorted(v for v, c in cells if c == '#fde725')
    assert dark == [lo], (path, 'darkest', dark)
    assert bright == [hi], (path, 'brightest', bright)
    bars = [re.sub(r'heat\d+', 'heat', re.search(r'<g class="colour-scale">.*?</g>', m, re.S).group(0)) for m in maps]
    assert all(b == bars[0] for b in bars), (path, 'the colour bars differ')
    ticks = re.findall(r'class="tick"[^>]*>([^<]*)</text>', bars[0])
    assert len(ticks) >= 2, ticks
PY
ok "HTML: one colour scale for every heatmap of a report, ticks $(grep -o 'colour-scale.*' "$T/k.html" | head -1 | grep -o 'class="tick"[^>]*>[^<]*' | sed 's/.*>//' | tr '\n' ' ')"

if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" report "$T/s.json" -o "$T/s.xlsx"
	python3 - "$T/s.xlsx" "$T/s.json" <<'PY' || fail "XLSX sheets"
import json, re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
sw = json.load(open(sys.argv[2]))['storbench']['sweep']
names = re.findall(r'<sheet name="([^"]+)" sheetId="(\d+)"', z.read('xl/workbook.xml').decode())
for t in sw['tests']:
    k = [i for n, i in names if n == t['test']]
    assert k, "no sheet for " + t['test']
    x = z.read('xl/worksheets/sheet%s.xml' % k[0]).decode()
    for ref, v in (('A3', 64), ('A4', 256), ('B2', 4), ('D2', 64),
                   ('B3', t['kib_per_s'][0][0]), ('D4', t['kib_per_s'][1][2])):
        assert re.search(r'<c r="%s"[^>]*><v>%s</v>' % (ref, v), x), (t['test'], ref, v)
PY
	ok "XLSX: a sheet per test, file sizes down and record sizes across"
else
	echo "skipped: the XLSX part (built without libxlsxwriter)"
fi

# a sweep section that is not one: refused with its key path, nothing
# written (storbench.sweep is read through lib/sweep's reader)
python3 - "$T" <<'PY'
import json, sys
T = sys.argv[1]
s = json.load(open(T + "/s.json"))
s["storbench"]["sweep"]["cells_done"] = "x"
json.dump(s, open(T + "/bad1.json", "w"))
s = json.load(open(T + "/s.json"))
s["storbench"]["sweep"]["tests"][1]["kib_per_s"][0][0] = -5
json.dump(s, open(T + "/bad2.json", "w"))
s = json.load(open(T + "/s.json"))
del s["storbench"]["sweep"]["record_sizes"]
json.dump(s, open(T + "/bad3.json", "w"))
PY
for f in bad1 bad2 bad3; do
	for fmt in text html; do
		expect_exit 2 "$SB" report --format=$fmt -o "$T/$f.$fmt" "$T/$f.json"
		[ ! -e "$T/$f.$fmt" ] || fail "$f: $fmt written"
	done
done
expect_exit 2 "$SB" report "$T/bad1.json"
grep -q "storbench.sweep.cells_done: expected a whole number from 0 to 6, found 'x'" "$T/err" ||
	fail "bad1: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad2.json"
grep -q "storbench.sweep.tests\[1\].kib_per_s\[0\]\[0\]: expected a whole number from 0 to 1e18, found -5" "$T/err" ||
	fail "bad2: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad3.json"
grep -q "storbench.sweep.record_sizes: expected an array, found nothing" "$T/err" ||
	fail "bad3: $(cat "$T/err")"
ok "a sweep section with a wrong type, a negative figure or a missing key is refused by key path"

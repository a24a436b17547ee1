# A sweep result as a report: one heatmap per test (file sizes down, record
# sizes across, a colour scale with its legend, the figure in each cell),
# and in XLSX one sheet per test laid out as iozone -Rb (file sizes in
# KiB down column A, record sizes in KiB across row 2, KiB/s in the cells).
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

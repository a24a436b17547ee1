#!/bin/sh
# storbench report of an spo check: the text names the classes, the
# verdict and the recommendation; the HTML draws the map of the region and
# the histogram of lost writes, with the lost range in its table.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

truncate -s 512k "$T/t.img" || fail truncate
"$SB" spo --destroy-data --quiet --bs=4k --canary=64k --duration=1s --journal="$T/j" \
	"$T/t.img" 2>"$T/err" || { cat "$T/err"; fail "writer"; }
dd if=/dev/zero of="$T/t.img" bs=64k seek=1 count=7 conv=notrunc status=none
expect_exit 1 "$SB" spo --check --journal="$T/j" --output="$T/r.json" "$T/t.img"
lost=$(json "$T/r.json" "d['storbench']['spo']['classes']['lost-acked']")
[ "$lost" -gt 0 ] || fail "no lost-acked block after zeroing the written region"

expect_exit 0 "$SB" report "$T/r.json"
grep -q "^spo: .* FAIL$" "$T/out" || { cat "$T/out"; fail "text: no verdict line"; }
grep -q "^lost-acked *$lost$" "$T/out" || { cat "$T/out"; fail "text: lost-acked count"; }
grep -q "^recommended: writes acknowledged with fdatasync were lost" "$T/out" ||
	fail "text: no recommendation"
ok "text report: classes, verdict, recommendation"

expect_exit 0 "$SB" report "$T/r.json" -o "$T/r.html"
grep -q "Map of the region after the cut" "$T/r.html" || fail "html: no map"
grep -q "Lost acknowledged writes by time from acknowledgement to the cut" "$T/r.html" ||
	fail "html: no histogram"
grep -q "chart-grid" "$T/r.html" || fail "html: the map is not a grid chart"
grep -q "<td>lost-acked</td>" "$T/r.html" || fail "html: no lost-acked range in the table"
ok "HTML report: map, histogram, ranges"

expect_exit 0 "$SB" report "$T/r.json" --table=verify -o "$T/v.csv"
expect_exit 0 "$SB" report "$T/r.json" --table=ranges -o "$T/g.csv"
python3 - "$T/r.json" "$T/v.csv" "$T/g.csv" <<'PY' || fail "CSV: classes and ranges"
import csv, json, sys
s = json.load(open(sys.argv[1]))["storbench"]["spo"]
v = {r["class"]: int(r["blocks"]) for r in csv.DictReader(open(sys.argv[2]))}
assert v == s["classes"], (v, s["classes"])
g = [(r["class"], int(r["offset_bytes"]), int(r["length_bytes"])) for r in csv.DictReader(open(sys.argv[3]))]
assert g == [(r["class"], r["offset"], r["length"]) for r in s["ranges"]], g
PY
ok "CSV: blocks per class and the ranges, as in the JSON"

# the spo section is read by its reader beside its writer: what is wrong in
# it is refused with its key path, in every format, nothing written
python3 - "$T/r.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["storbench"]["spo"]["ranges"][0]["class"] = "burnt"
json.dump(d, open(sys.argv[2] + "/bad1.json", "w"))
d = json.load(open(sys.argv[1]))
del d["storbench"]["spo"]["pass"]
json.dump(d, open(sys.argv[2] + "/bad2.json", "w"))
PY
for fmt in text html csv; do
	expect_exit 2 "$SB" report --format=$fmt -o "$T/bad1.$fmt" "$T/bad1.json"
	[ ! -e "$T/bad1.$fmt" ] || fail "bad1: $fmt written"
done
grep -q "storbench.spo.ranges\[0\].class: expected a class (ok, ok-unacked, lost-acked, ...), found 'burnt'" "$T/err" ||
	fail "bad1: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad2.json"
grep -q "storbench.spo.pass: expected a boolean, found nothing" "$T/err" || fail "bad2: $(cat "$T/err")"
ok "a bad spo section: refused with its key path"

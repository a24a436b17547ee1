# storbench report --table=ranks (CSV) and the XLSX "Ranks" sheet: a row
# per rank of a run under mpirun, job and direction that moved data, read
# from the result's client_stats. The ranks here are made by hand from a
# real result (known figures), so the plain build tests it too; then soak,
# meta and verify of many ranks the same way (each rank in every format),
# and ranks' entries that are not (refused, named).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

expect_exit 0 "$SB" run --rw=randrw --bs=4k --size=1M --quiet -o "$T/r.json" "$T/d"
python3 - "$T/r.json" "$T/m.json" <<'PY' || fail "making the ranks"
import copy, json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
cs = []
for k, (host, rb, wb, t0, t1, off) in enumerate([("node-a", 1000, 3000, 10.25, 12.5, 0.0),
                                                 ("node-b", 2000, 0, 10.0, 12.0, -0.5)]):
    c = copy.deepcopy(j)
    c["hostname"], c["rank"] = host, k
    c["read"]["io_bytes"], c["read"]["bw_bytes"], c["read"]["iops"] = rb, rb * 2, k + 0.5
    c["write"]["io_bytes"], c["write"]["bw_bytes"] = wb, wb * 2
    c["trim"]["io_bytes"] = 0
    c.setdefault("storbench", {}).update(start_s=t0, end_s=t1, clock_offset_s=off)
    cs.append(c)
a = copy.deepcopy(j)
a["jobname"], a["job"] = "All clients", j["jobname"]
cs.append(a)
d["client_stats"] = cs
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 0 "$SB" report --format=csv --table=ranks -o "$T/k.csv" "$T/m.json"
python3 - "$T/k.csv" <<'PY' || fail "ranks table: $(cat "$T/k.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
got = [(r["rank"], r["host"], r["direction"], r["io_bytes"], r["bw_bytes_per_s"], r["start_s"],
        r["end_s"], r["clock_offset_s"]) for r in rows]
want = [("0", "node-a", "read", "1000", "2000", "0.25", "2.5", "0"),
        ("0", "node-a", "write", "3000", "6000", "0.25", "2.5", "0"),
        ("1", "node-b", "read", "2000", "4000", "0", "2", "-0.5")]
assert got == want, got
assert rows[2]["iops"] == "1.5", rows[2]["iops"]
PY
# a result of one process has no ranks: the header alone
expect_exit 0 "$SB" report --format=csv --table=ranks -o "$T/one.csv" "$T/r.json"
[ "$(wc -l <"$T/one.csv")" = 1 ] || fail "rows without ranks: $(cat "$T/one.csv")"
ok "CSV: a row per rank and direction, times from the earliest start"

if "$SB" --version | grep -q xlsx && command -v unzip >/dev/null; then
	expect_exit 0 "$SB" report --format=xlsx -o "$T/k.xlsx" "$T/m.json"
	unzip -p "$T/k.xlsx" xl/workbook.xml | grep -q 'name="Ranks"' || fail "no Ranks sheet"
	unzip -p "$T/k.xlsx" 'xl/worksheets/*.xml' 'xl/sharedStrings.xml' 2>/dev/null | grep -q "node-b" ||
		fail "rank 1's host not in the workbook"
	ok "XLSX: a Ranks sheet"
fi

# soak, meta and verify of many ranks, made by hand from results of one
# process (known figures, so the plain build tests them too): each rank in
# the text, HTML, CSV and XLSX, and a ranks' entry that is not one refused
mkdir "$T/dd"
expect_exit 0 "$SB" soak --iterations=2 --size=1M --quiet --log="$T/s1.jsonl" -o "$T/s1.json" "$T/dd"
expect_exit 0 "$SB" meta --size=0 --files=20 --quiet -o "$T/m1.json" "$T/dd"
expect_exit 0 "$SB" verify --size=1M --quiet -o "$T/v1.json" "$T/dd"
python3 - "$T" <<'PY' || fail "making the ranks of soak, meta, verify"
import copy, json, sys
T = sys.argv[1]
s = json.load(open(T + "/s1.json"))
for it in s["storbench"]["soak"]["iteration_records"]:
    rs = []
    for k in range(2):
        r = copy.deepcopy(it)
        r.update(rank=k, host="node-%d" % k, write_bw_bytes=2**20 * (k + 1) * it["iteration"],
                 read_bw_bytes=3 * 2**20 * (k + 1), write_bytes=1048576, checked_bytes=1048576,
                 start_s=0.5 * k, end_s=1.0 + k, failed=k == 1 and it["iteration"] == 2)
        r["verify"]["corrupted"] = 2 if r["failed"] else 0
        rs.append(r)
    it["ranks"] = rs
json.dump(s, open(T + "/s.json", "w"))
m = json.load(open(T + "/m1.json"))
mm = m["storbench"]["meta"]
mm["ranks"], mm["skew"] = [], {}
for k in range(2):
    tests = {}
    for t, a in mm["tests"].items():
        tests[t] = {"ops": 10 + k, "bytes": 0, "elapsed_ns": 1000000 * (k + 1), "cpu_ns": 5,
                    "start_s": 0.25 * k, "end_s": 1.5, "files_per_s": 100.0 * (k + 1),
                    "lat_ns": {"min": 1, "p50": 2, "p99": 3 + k, "max": 4},
                    "stonewalled": k == 1}
    mm["ranks"].append({"rank": k, "hostname": "node-%d" % k, "tests": tests})
for t in mm["tests"]:
    mm["skew"][t] = {"first_start_s": 0, "start_spread_s": 0.25, "end_spread_s": 0,
                     "span_s": 1.5, "median_rate": 150.0, "slowest_rank": 0, "fastest_rank": 1,
                     "slowest_vs_median": -1 / 3, "fastest_vs_median": 1 / 3}
json.dump(m, open(T + "/m.json", "w"))
v = json.load(open(T + "/v1.json"))
vv = v["storbench"]["verify"]
vv["ranks"] = []
for k in range(2):
    r = {c: 0 for c in ("corrupted", "misplaced", "stale", "foreign", "unreadable", "newer", "missing")}
    r.update(rank=k, hostname="node-%d" % k, path="/x/storbench-rank-%d" % k, blocks_checked=256,
             intact=256 - 3 * k, failed=k == 1, bad_ranges_omitted=0, bad_ranges=[])
    if k:
        r["stale"] = 3
        r["bad_ranges"] = [{"class": "stale", "offset": 8192, "length": 12288, "generation": 1}]
    vv["ranks"].append(r)
json.dump(v, open(T + "/v.json", "w"))
PY
expect_exit 0 "$SB" report "$T/s.json"
grep -Eq "^1 +node-1 +2 +1 +3.00 MiB/s +6.00 MiB/s" "$T/out" || fail "soak text, rank 1: $(cat "$T/out")"
expect_exit 0 "$SB" report "$T/m.json"
grep -Eq "^seq_create +1 +node-1 .* yes$" "$T/out" || fail "meta text, rank 1 not stonewalled: $(cat "$T/out")"
grep -Eq "^seq_create +0 +node-0 .* -$" "$T/out" || fail "meta text, rank 0: $(cat "$T/out")"
expect_exit 0 "$SB" report "$T/v.json"
grep -Eq "^1 +node-1 +fail +256 +3 +stale 3" "$T/out" || fail "verify text, rank 1: $(cat "$T/out")"
grep -Eq "^1 +stale +8.00 KiB \(8192\) +12.0 KiB \(12288\) +generation 1" "$T/out" ||
	fail "verify text, rank 1's range: $(cat "$T/out")"
expect_exit 0 "$SB" report -o "$T/all.html" "$T/s.json" "$T/m.json" "$T/v.json"
for id in soak-ranks-bw meta-ranks-rate; do
	grep -q "id=\"$id\"" "$T/all.html" || fail "HTML: no chart $id"
done
grep -q "<title>1 node-1 write: 3 MiB/s (runs from 2 MiB/s to 4 MiB/s)" "$T/all.html" ||
	fail "HTML: rank 1's write bar: $(grep -o "<title>1 node-1[^<]*" "$T/all.html")"
grep -q "<title>seq_create rank 1 node-1: 133 %</title>" "$T/all.html" || fail "HTML: meta rank 1's bar"
grep -q "Verification of each rank" "$T/all.html" || fail "HTML: no verify ranks"
for t in soak_ranks meta_ranks meta_skew verify_ranks ranges; do
	expect_exit 0 "$SB" report --format=csv --table=$t -o "$T/$t.csv" "$T/s.json" "$T/m.json" "$T/v.json"
done
python3 - "$T" <<'PY' || fail "CSV of the ranks"
import csv, sys
T = sys.argv[1]
def rows(t):
    return list(csv.DictReader(open("%s/%s.csv" % (T, t), newline="")))
s = rows("soak_ranks")
assert [(r["iteration"], r["rank"], r["host"], r["write_bw_bytes_per_s"], r["bad_blocks"], r["failed"])
        for r in s] == [("1", "0", "node-0", "1048576", "0", "0"), ("1", "1", "node-1", "2097152", "0", "0"),
                        ("2", "0", "node-0", "2097152", "0", "0"), ("2", "1", "node-1", "4194304", "2", "1")], s
m = rows("meta_ranks")
assert len(m) % 2 == 0 and m and all(r["rate_unit"] == "files/s" for r in m), m
assert [(r["rank"], r["ops"], r["rate"], r["lat_p99_ns"], r["start_s"]) for r in m[:2]] == \
    [("0", "10", "100", "3", "0"), ("1", "11", "200", "4", "0.25")], m[:2]
k = rows("meta_skew")
assert k and all((r["median_rate"], r["slowest_rank"], r["fastest_rank"]) == ("150", "0", "1") for r in k), k
v = rows("verify_ranks")
assert [(r["rank"], r["host"], r["result"], r["not_intact"], r["stale"], r["path"]) for r in v] == \
    [("0", "node-0", "pass", "0", "0", "/x/storbench-rank-0"), ("1", "node-1", "fail", "3", "3", "/x/storbench-rank-1")], v
g = [r for r in rows("ranges") if r["rank"]]
assert [(r["rank"], r["host"], r["class"], r["offset_bytes"], r["length_bytes"]) for r in g] == \
    [("1", "node-1", "stale", "8192", "12288")], g
PY
if "$SB" --version | grep -q "features:.* xlsx"; then
	expect_exit 0 "$SB" report -o "$T/all.xlsx" "$T/s.json" "$T/m.json" "$T/v.json"
	for sh in "Soak ranks" "Meta ranks" "Meta skew" "Verify ranks"; do
		python3 "$(dirname "$0")/../tools/xlsx-sheet.py" "$T/all.xlsx" "$sh" >"$T/sheet.csv" ||
			fail "XLSX: no sheet $sh"
		grep -q "node-1" "$T/sheet.csv" || [ "$sh" = "Meta skew" ] || fail "XLSX: $sh has no rank 1"
	done
	python3 "$(dirname "$0")/../tools/xlsx-sheet.py" "$T/all.xlsx" "Soak ranks" >"$T/sheet.csv"
	grep -q "^s.json,2,1,node-1,4," "$T/sheet.csv" ||
		fail "XLSX: rank 1's write in MiB/s: $(cat "$T/sheet.csv")"
fi
ok "soak, meta and verify of many ranks: each rank in text, HTML, CSV and XLSX"

# a ranks' entry that is not one: refused with its key path, nothing drawn
python3 - "$T" <<'PY'
import json, sys
T = sys.argv[1]
m = json.load(open(T + "/m.json"))
del m["storbench"]["meta"]["ranks"][1]["rank"]
json.dump(m, open(T + "/bad1.json", "w"))
v = json.load(open(T + "/v.json"))
v["storbench"]["verify"]["ranks"][0]["hostname"] = 7
json.dump(v, open(T + "/bad2.json", "w"))
s = json.load(open(T + "/s.json"))
s["storbench"]["soak"]["iteration_records"][0]["ranks"][1]["write_bytes"] = -1
json.dump(s, open(T + "/bad3.json", "w"))
m = json.load(open(T + "/m.json"))
m["storbench"]["meta"]["skew"]["seq_create"]["slowest_rank"] = "x"
json.dump(m, open(T + "/bad4.json", "w"))
PY
for f in bad1 bad2 bad3 bad4; do
	for fmt in text html csv; do
		expect_exit 2 "$SB" report --format=$fmt -o "$T/$f.$fmt" "$T/$f.json"
		[ ! -e "$T/$f.$fmt" ] || fail "$f: $fmt written"
	done
done
grep -q "storbench.meta.skew.seq_create.slowest_rank: expected a rank number from 0" "$T/err" ||
	fail "bad4: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad1.json"
grep -q "storbench.meta.ranks\[1\]: a rank's entry without its 'rank'" "$T/err" || fail "bad1: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad2.json"
grep -q "storbench.verify.ranks\[0\].hostname: expected a string, found 7" "$T/err" || fail "bad2: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad3.json"
grep -q "iteration_records\[0\].ranks\[1\].write_bytes: expected a number from 0 to 1e18, found -1" "$T/err" ||
	fail "bad3: $(cat "$T/err")"
ok "a ranks' entry that is not one (no rank, a host not a string, a negative figure) refused, named"

# a meta section that is not one (read through lib/meta's reader):
# refused with its key path, nothing written
python3 - "$T" <<'PY'
import json, sys
T = sys.argv[1]
m = json.load(open(T + "/m.json"))
m["storbench"]["meta"]["tests"]["seq_create"]["ops"] = "x"
json.dump(m, open(T + "/bad5.json", "w"))
m = json.load(open(T + "/m.json"))
del m["storbench"]["meta"]["params"]
json.dump(m, open(T + "/bad6.json", "w"))
m = json.load(open(T + "/m.json"))
m["storbench"]["meta"]["ranks"][0]["tests"]["putc"] = m["storbench"]["meta"]["ranks"][0]["tests"]["seq_stat"]
json.dump(m, open(T + "/bad7.json", "w"))
PY
for f in bad5 bad6 bad7; do
	for fmt in text html csv; do
		expect_exit 2 "$SB" report --format=$fmt -o "$T/$f.$fmt" "$T/$f.json"
		[ ! -e "$T/$f.$fmt" ] || fail "$f: $fmt written"
	done
done
expect_exit 2 "$SB" report "$T/bad5.json"
grep -q "storbench.meta.tests.seq_create.ops: expected a whole number from 0 to 1e18, found 'x'" "$T/err" ||
	fail "bad5: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad6.json"
grep -q "storbench.meta.params: expected an object, found nothing" "$T/err" || fail "bad6: $(cat "$T/err")"
expect_exit 2 "$SB" report "$T/bad7.json"
grep -q "storbench.meta.ranks\[0\].tests.putc: expected the name of a test the section's tests have" "$T/err" ||
	fail "bad7: $(cat "$T/err")"
ok "a meta section with a wrong type, a missing key or a test it does not have is refused by key path"

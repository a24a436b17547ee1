# storbench report --table=ranks (CSV) and the XLSX "Ranks" sheet: a row
# per rank of a run under mpirun, job and direction that moved data, read
# from the result's client_stats. The ranks here are made by hand from a
# real result (known figures), so the plain build tests it too.
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

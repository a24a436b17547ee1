# storbench verify under mpirun -n 3 (a build with make MPI=1): every rank
# fills and checks a directory of its own, rank 0 writes one result whose
# counts are the ranks' summed and which names each rank's part; blocks
# damaged on one rank's target between --phase=write and --phase=check are
# found on that rank alone; one rank refusing its target stops every rank
# before any write.
# needs: mpi
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

# report_ranks RESULT: storbench report of a verify of many ranks in every
# format: each rank's verdict and blocks per class in the text, the HTML,
# the CSV table verify_ranks and the XLSX sheet "Verify ranks", and each
# rank's bad ranges in the text, the HTML and the CSV table ranges, as the
# result has them (python)
report_ranks() {
	"$SB" report "$1" >"$T/rt.txt" || fail "report text of $1"
	"$SB" report --format=html -o "$T/rt.html" "$1" || fail "report html of $1"
	"$SB" report --format=json -o "$T/rt.json" "$1" || fail "report json of $1"
	"$SB" report --format=csv --table=verify_ranks -o "$T/rt.csv" "$1" || fail "report csv of $1"
	"$SB" report --format=csv --table=ranges -o "$T/rg.csv" "$1" || fail "report csv of $1"
	xl=
	if "$SB" --version | grep -q "features:.* xlsx"; then
		"$SB" report --format=xlsx -o "$T/rt.xlsx" "$1" || fail "report xlsx of $1"
		python3 "$(dirname "$0")/../tools/xlsx-sheet.py" "$T/rt.xlsx" "Verify ranks" \
			>"$T/rt-x.csv" || fail "no Verify ranks sheet"
		xl="$T/rt-x.csv"
	fi
	python3 - "$1" "$T/rt.txt" "$T/rt.html" "$T/rt.csv" "$T/rg.csv" "$xl" <<'PY'
import csv, json, re, sys
src, txt, page, table, ranges, xl = sys.argv[1:]
v = json.load(open(src))["storbench"]["verify"]
ranks = v["ranks"]
classes = ["intact", "corrupted", "misplaced", "stale", "foreign", "unreadable", "newer", "missing"]
def verdict(r):
    if "result" in r:
        return r["result"]
    return "fail" if r["failed"] or r["blocks_checked"] != r["intact"] else "pass"
def bad(r):
    return sum(r[c] for c in classes[1:])
def named(r):
    return ", ".join("%s %d" % (c, r[c]) for c in classes[1:] if r[c]) or "-"
rows = list(csv.DictReader(open(table, newline="")))
assert len(rows) == len(ranks), rows
for row, r in zip(rows, ranks):
    assert (int(row["rank"]), row["host"], row["path"]) == (r["rank"], r["hostname"], r["path"]), row
    assert row["result"] == verdict(r) and int(row["not_intact"]) == bad(r), (row, r)
    for c in classes + ["blocks_checked", "bad_ranges_omitted"]:
        assert int(row[c]) == r[c], (c, row[c], r[c])
want = [(r["rank"], b) for r in ranks for b in r["bad_ranges"]]
got = [g for g in csv.DictReader(open(ranges, newline="")) if g["rank"]]
assert len(got) == len(want), (got, want)
for g, (k, b) in zip(got, want):
    assert (int(g["rank"]), g["class"], int(g["offset_bytes"]), int(g["length_bytes"])) == \
        (k, b["class"], b["offset"], b["length"]), (g, b)
if xl:
    x = list(csv.reader(open(xl, newline="")))
    assert len(x) - 1 == len(ranks), x
    for row, r in zip(x[1:], ranks):
        d = dict(zip(x[0], row))
        assert (int(d["Rank"]), d["Host"], d["Result"]) == (r["rank"], r["hostname"], verdict(r)), d
        assert all(int(d[c]) == r[c] for c in classes) and int(d["Not intact"]) == bad(r), d
t = open(txt).read()
failed = sum(verdict(r) == "fail" for r in ranks)
t = t[t.index("each rank's verify (%d ranks, %d failed)" % (len(ranks), failed)):]
got = re.findall(r"^(\d+) +(\S+) +(pass|fail|not checked|interrupted) +(\d+) +(\d+) +(.+)$", t, re.M)
assert [(int(g[0]), g[1], g[2], int(g[3]), int(g[4]), g[5].strip()) for g in got] == \
    [(r["rank"], r["hostname"], verdict(r), r["blocks_checked"], bad(r), named(r)) for r in ranks], got
for k, b in want:
    assert re.search(r"^%d +%s +.*\(%d\) +.*\(%d\)" % (k, b["class"], b["offset"], b["length"]), t, re.M), (k, b)
h = open(page).read()
h = h[h.index("<h3>Verification of each rank</h3>"):]
got = re.findall(r"<tr[^>]*><td>(\d+)</td><td>([^<]*)</td><td class=\"[a-z]*\">([a-z ]+)</td>"
                 r"<td class=\"n\">(\d+)</td><td class=\"n\">(\d+)</td>", h)
assert [(int(g[0]), g[1], g[2], int(g[3]), int(g[4])) for g in got] == \
    [(r["rank"], r["hostname"], verdict(r), r["blocks_checked"], bad(r)) for r in ranks], got
for k, b in want:
    assert re.search(r"<tr><td>%d</td><td>.*%s</td><td class=\"n\">[^<]*\(%d\)</td><td class=\"n\">[^<]*\(%d\)</td>"
                     % (k, b["class"], b["offset"], b["length"]), h), (k, b)
PY
}

# 1. write and check on 3 ranks: 8 MiB each, 2048 blocks of 4 KiB
mkdir "$T/d"
expect_exit 0 $MPI -n 3 "$SB" verify --size=8M --quiet --output="$T/v.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' files were left: $(ls -A "$T/d")"
grep -q "result: all 6144 blocks intact" "$T/out" || fail "not the sum of 3 ranks: $(cat "$T/out")"
[ "$(grep -c "^  rank [0-2] on .*2048 blocks checked, 0 not intact" "$T/out")" = 3 ] ||
	fail "no line per rank: $(cat "$T/out")"
python3 - "$T/v.json" <<'PY' || fail "verify aggregate check"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["storbench"]["verify"] if "verify" in d["storbench"] else d["verify"]
rs = v["ranks"]
assert sorted(r["rank"] for r in rs) == [0, 1, 2]
assert len(set(r["path"] for r in rs)) == 3, [r["path"] for r in rs]  # a directory each
assert all(r["blocks_checked"] == 2048 and r["intact"] == 2048 for r in rs), rs
assert v["blocks_checked"] == 6144 == sum(r["blocks_checked"] for r in rs)
assert v["intact"] == 6144 and v["result"] == "pass", v["result"]
assert v["write"]["bytes"] == 3 * 8 << 20 == sum(r["bytes_written"] for r in rs)
# the phases as jobs: the All clients figures of the write and the check
names = [j["jobname"] for j in d["jobs"]]
assert names == ["verify write", "verify check"], names
cs = d["client_stats"]
assert len(cs) == 8, len(cs)
assert d["jobs"][0]["write"]["io_bytes"] == sum(c["write"]["io_bytes"] for c in cs[0:3])
assert d["jobs"][1]["read"]["io_bytes"] == sum(c["read"]["io_bytes"] for c in cs[4:7]) == 3 * 8 << 20
PY
ok "3 ranks: a directory each, the counts summed, a part per rank"
report_ranks "$T/v.json" || fail "report of each rank"
ok "report: each rank's verdict and counts in text, HTML, CSV and XLSX"

# 2. write, damage rank 1's data, check: only rank 1 finds bad blocks
expect_exit 0 $MPI -n 3 "$SB" verify --phase=write --size=8M --quiet "$T/d"
seed=$(sed -n 's/.*--seed=\([0-9]*\).*/\1/p' "$T/out")
[ -n "$seed" ] || fail "no seed to check with: $(cat "$T/out")"
f=$(find "$T/d/storbench-rank-1" -type f -name ".storbench-verify-*" | head -n 1)
[ -n "$f" ] || fail "rank 1 wrote no file: $(find "$T/d")"
# 16 blocks of 4 KiB at 1 MiB: zeros
dd if=/dev/zero of="$f" bs=4096 seek=256 count=16 conv=notrunc status=none
expect_exit 1 $MPI -n 3 "$SB" verify --phase=check --seed="$seed" --size=8M --quiet \
	--output="$T/c.json" "$T/d"
grep -q "result: FAILED, 16 of 6144 blocks not intact" "$T/out" || fail "check: $(cat "$T/out")"
python3 - "$T/c.json" <<'PY' || fail "damaged rank check"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["storbench"]["verify"] if "verify" in d["storbench"] else d["verify"]
bad = {r["rank"]: r["blocks_checked"] - r["intact"] for r in v["ranks"]}
assert bad == {0: 0, 1: 16, 2: 0}, bad
r1 = [r for r in v["ranks"] if r["rank"] == 1][0]
assert len(r1["bad_ranges"]) == 1 and r1["bad_ranges"][0]["offset"] == 1 << 20, r1["bad_ranges"]
assert r1["bad_ranges"][0]["length"] == 16 * 4096
assert v["result"] == "fail"
PY
rm -rf "$T/d"/storbench-rank-*
ok "blocks damaged on rank 1 are found on rank 1 alone"
report_ranks "$T/c.json" || fail "report of the damaged rank"
grep -q "^1 .* fail .* 16 " "$T/rt.txt" || fail "rank 1 not failed in the text: $(cat "$T/rt.txt")"
ok "report: rank 1 failed, its bad range at its own offset, in every format"

# 2b. run --verify on 3 ranks: the report gives each rank's verdict too
expect_exit 0 $MPI -n 3 "$SB" run --verify --rw=randwrite --bs=4k --size=1M --quiet \
	--output="$T/rv.json" "$T/d"
[ "$(json "$T/rv.json" "len(d['storbench']['verify']['ranks'])")" = 3 ] || fail "run --verify: no ranks"
report_ranks "$T/rv.json" || fail "report of run --verify, each rank"
ok "report of run --verify: each rank's verdict and counts in every format"

# 3. rank 2's target is a file storbench did not create: nobody writes
head -c 1048576 /dev/urandom >"$T/theirs.bin"
sum=$(md5sum <"$T/theirs.bin")
expect_exit 2 $MPI -n 2 "$SB" verify --size=1M --quiet "$T/d" \
	: -n 1 "$SB" verify --size=1M --quiet "$T/theirs.bin"
grep -q "rank 2 on " "$T/err" || fail "rank 2 not named: $(cat "$T/err")"
[ -z "$(find "$T/d" -type f)" ] || fail "a rank wrote though rank 2 refused: $(find "$T/d")"
[ "$(md5sum <"$T/theirs.bin")" = "$sum" ] || fail "the refused file was changed"
ok "one rank's refusal stops every rank before any write"

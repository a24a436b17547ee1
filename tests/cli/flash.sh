# storbench flash on an emulated device of known geometry (geomfs: reads
# across a 4 MiB boundary cost 3 ms more, across a 16 KiB one 1 ms; writes
# run at 100 MiB/s, and one that opens a third allocation unit costs 40 ms
# more; writes under 64 KiB cost 2 ms more except from 1 MiB to 2 MiB, the
# "FAT area"): --align names 4 MiB and 16 KiB, --open-au names 2 in both
# orders, --find-fat with 1 MiB blocks names block 1, and every row is in
# the JSON.
# Then the refusals: writes without --destroy-data, block sizes that cannot
# be, options of the other mode. The emulated costs are milliseconds, and
# the decision rests on minima over 8 tries, so a loaded machine cannot
# hide them.
# needs: fuse serial
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/geomfs.sh"
gf_start size=256M,erase=4M,page=16k,erase_us=3000,page_us=1000,open=2,gc_us=40000,mib_us=10000,small_us=2000,fat=1M:1M
IMG=$GF_MNT/dev.img

expect_exit 0 "$SB" flash --quiet --output="$T/a.json" "$IMG"
# the docs show this run's output: it still prints every line they show
cat "$T/out" "$T/err" >"$T/doc.out"
for d in docs/examples.md docs/flash.md; do
	python3 "$SB_TOP/tests/tools/doc-examples.py" check "$SB_TOP/$d:flash-geomfs" "$T/doc.out" ||
		fail "$d's flash example no longer matches what flash prints"
done
grep -q '^erase block 4.00 MiB (confidence high)' "$T/out" || { cat "$T/out"; fail "--align did not name the 4 MiB erase block"; }
grep -q '^page        16.0 KiB (confidence high)' "$T/out" || { cat "$T/out"; fail "--align did not name the 16 KiB page"; }
grep -q 'align partitions and filesystem structures to 4.00 MiB' "$T/out" || fail "no alignment advice"
[ "$(json "$T/a.json" 'd["storbench"]["flash"]["align"]["erase_block"]["bytes"]')" = 4194304 ] || fail "JSON erase block"
[ "$(json "$T/a.json" 'd["storbench"]["flash"]["align"]["page"]["bytes"]')" = 16384 ] || fail "JSON page"
# every boundary from 32 MiB (256 MiB / 8) down to 8 KiB (2 x the 4 KiB default bs)
[ "$(json "$T/a.json" '[r["align"] for r in d["storbench"]["flash"]["align"]["profiles"][0]["rows"]] == [32<<20 >> i for i in range(13)]')" = True ] || fail "JSON rows are not every boundary from 32 MiB to 8 KiB"
[ "$(json "$T/a.json" 'd["storbench"]["flash"]["align"]["profiles"][0]["rows"][0]["diff_ns"] > 2e6')" = True ] || fail "the 32 MiB row does not show the 3 ms"
[ "$(json "$T/a.json" 'd["storbench"]["flash"]["align"]["erase_block"]["above_aligns"]')" = "[33554432, 16777216, 8388608, 4194304]" ] || fail "supporting rows"
ok "--align names the 4 MiB erase block and the 16 KiB page"

# a sweep of block sizes: each profile decided, the same sizes agreed on
expect_exit 0 "$SB" flash --quiet --bs=2k..8k --format=json "$IMG"
python3 - "$T/out" <<'PY' || fail "--bs sweep"
import json, sys
f = json.load(open(sys.argv[1]))["storbench"]["flash"]["align"]
assert [p["bs"] for p in f["profiles"]] == [2048, 4096, 8192], f["profiles"]
assert f["erase_block"]["bytes"] == 4 << 20 and f["erase_block"]["seen_at_block_sizes"] == 3
# bs 8 KiB reads down to 16 KiB only: no row below the page, so two of three
assert f["page"]["bytes"] == 16 << 10 and f["page"]["seen_at_block_sizes"] == 2, f["page"]
PY
ok "--bs=2k..8k: three profiles, the erase block at all three"

expect_exit 2 "$SB" flash --open-au "$IMG"
grep -q 'add --destroy-data' "$T/err" || fail "no --destroy-data hint"
expect_exit 0 "$SB" flash --open-au --destroy-data --quiet --bs=64k --output="$T/o.json" "$IMG"
cat "$T/out" "$T/err" >"$T/doc.out"
python3 "$SB_TOP/tests/tools/doc-examples.py" check "$SB_TOP/docs/flash.md:flash-open-au" "$T/doc.out" ||
	fail "docs/flash.md's --open-au example no longer matches what flash prints"
grep -q '^open AUs, linear: 2$' "$T/out" || { cat "$T/out"; fail "--open-au linear did not name 2"; }
grep -q '^open AUs, random: 2$' "$T/out" || { cat "$T/out"; fail "--open-au random did not name 2"; }
python3 - "$T/o.json" <<'PY' || fail "--open-au JSON"
import json, sys
o = json.load(open(sys.argv[1]))["storbench"]["flash"]["open_au"]
assert o["max_open_linear"] == 2 and o["max_open_random"] == 2
runs = [(r["open_au"], r["order"], r["collapsed"]) for r in o["runs"]]
assert runs == [(1, "linear", False), (2, "linear", False), (3, "linear", True),
                (1, "random", False), (2, "random", False), (3, "random", True)], runs
# N <= 2 swept every chunk from 4 MiB to 64 KiB; N = 3 stopped at its collapse
assert [r["chunk"] for r in o["runs"][1]["rows"]] == [4 << 20 >> i for i in range(7)]
assert o["runs"][2]["rows"][0]["collapsed"] is False and o["runs"][2]["rows"][-1]["collapsed"]
PY
ok "--open-au names 2 open allocation units, linear and random"

# the erase size --align found is the one --open-au uses
expect_exit 0 "$SB" flash --align --open-au --destroy-data --quiet --bs=64k --order=linear --format=json "$IMG"
[ "$(json "$T/out" 'd["storbench"]["flash"]["open_au"]["erase_size"]')" = 4194304 ] || fail "--open-au did not take --align's erase block"
cp "$T/out" "$T/both.json"

# the report: text and HTML read the section back (charts: diff per
# boundary with the findings marked, open-AU curves)
expect_exit 0 "$SB" report "$T/a.json"
grep -q '^  erase block 4.00 MiB (confidence high' "$T/out" || { cat "$T/out"; fail "report text: erase block"; }
grep -q '^  page        16.0 KiB (confidence high' "$T/out" || fail "report text: page"
grep -q '^32.0 MiB  ' "$T/out" || fail "report text: rows"
expect_exit 0 "$SB" report "$T/both.json" --output="$T/r.html"
grep -q '<h3>Flash geometry</h3>' "$T/r.html" || fail "report HTML: no flash section"
[ "$(grep -c '<svg' "$T/r.html")" = 2 ] || fail "report HTML: expected the diff and open-AU charts"
# the figure of that run, whatever it measured (the value is held above)
n=$(json "$T/both.json" 'd["storbench"]["flash"]["open_au"]["max_open_linear"]')
grep -q "<th>open AUs, linear</th><td>$n</td>" "$T/r.html" || fail "report HTML: open AUs (the run measured $n)"
ok "report: the flash section in text and HTML"

# --scatter: reads of two 16 KiB blocks at every 16 KiB step over 8 MiB all
# cross a page; the two that cross the 4 MiB and 8 MiB boundaries are slowest
expect_exit 0 "$SB" flash --scatter --scatter-span=2 --quiet --output="$T/s.json" "$IMG"
python3 - "$T/s.json" <<'PY' || fail "--scatter"
import json, sys
s = json.load(open(sys.argv[1]))["storbench"]["flash"]["scatter"]
assert [r[0] for r in s["rows"]] == [i << 14 for i in range(512)]
assert sorted(s["slowest_offsets"][:2]) == [(4 << 20) - (16 << 10), (8 << 20) - (16 << 10)], s["slowest_offsets"]
PY
grep -q '^slowest at: 3.98 MiB\|^slowest at: 7.98 MiB' "$T/out" || { cat "$T/out"; fail "--scatter text"; }
expect_exit 0 "$SB" report "$T/s.json" --output="$T/s.html"
grep -q 'Read time over the device' "$T/s.html" || fail "report HTML: no scatter map"
expect_exit 2 "$SB" flash --scatter --scatter-order=20 "$IMG"
grep -q "too small: 256 MiB holds no map of 2^20 reads" "$T/err" || { cat "$T/err"; fail "--scatter too small"; }
expect_exit 2 "$SB" flash --scatter-order=4 "$IMG"
ok "--scatter: the map's slowest reads are the two that cross an erase block"

# --find-fat: the first 6 blocks of 1 MiB, written whole in chunks down to
# 16 KiB; block 1 alone writes its small chunks fast
expect_exit 2 "$SB" flash --find-fat --erase-size=1M "$IMG"
grep -q 'find-fat overwrites the target (add --destroy-data)' "$T/err" || fail "--find-fat without --destroy-data"
expect_exit 0 "$SB" flash --find-fat --destroy-data --erase-size=1M --bs=16k --quiet --output="$T/f.json" "$IMG"
grep -q '^block 1 differs: faster at the smallest chunks$' "$T/out" || { cat "$T/out"; fail "--find-fat text"; }
python3 - "$T/f.json" <<'PY' || fail "--find-fat JSON"
import json, sys
f = json.load(open(sys.argv[1]))["storbench"]["flash"]["find_fat"]
assert [r["chunk"] for r in f["rows"]] == [1 << 20 >> i for i in range(7)]
assert all(len(r["bw_bytes"]) == 6 for r in f["rows"])
assert f["different"] == [{"block": 1, "offset": 1 << 20, "how": "faster"}], f["different"]
PY
expect_exit 2 "$SB" flash --fat-nr=4 "$IMG"
ok "--find-fat names erase block 1 (the emulated FAT area)"

expect_exit 2 "$SB" flash --bs=3k "$IMG"
grep -q -- "--bs: '3k'" "$T/err" || { cat "$T/err"; fail "a bs not a power of two"; }
expect_exit 2 "$SB" flash --bs=512 "$IMG"
grep -q -- '--bs: 512 B is below twice the logical block size' "$T/err" || { cat "$T/err"; fail "bs below 2 x the logical block"; }
[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one line for a bad bs"
expect_exit 2 "$SB" flash --bs=16M "$IMG"
grep -q "too small: 256 MiB holds fewer than 32 blocks of 16.0 MiB" "$T/err" || { cat "$T/err"; fail "too small"; }
expect_exit 2 "$SB" flash --max-au=3 "$IMG"
grep -q 'apply to --open-au only' "$T/err" || fail "--max-au without --open-au"
expect_exit 2 "$SB" flash --count=0 "$IMG"
expect_exit 2 "$SB" flash --open-au --destroy-data --erase-size=3M "$IMG"
ok "refusals: no --destroy-data, bad block sizes, too small, options of the other mode"

# storbench flash --open-au on a device without an open-AU limit whose
# writes now and then take far longer (geomfs open=0: no limit; every 40th
# write 40 ms more, a RAM disk's or a busy machine's stray slow write, 60
# times a 64 KiB write): no collapse is named, in either order, and the
# text says "no effect found" as --align says of reads without a boundary
# (no "keep at most 1 write stream", no "f2fs does not suit it"); the
# rows' medians are in the JSON. flash.sh holds the device with a limit
# (open=2: 2 named in both orders), flash-zram.sh a RAM disk.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/geomfs.sh"
gf_start size=256M,erase=1M,page=16k,open=0,hiccup_us=40000,hiccup_every=40
IMG=$GF_MNT/dev.img

expect_exit 0 "$SB" flash --open-au --destroy-data --quiet --bs=64k --erase-size=1M --max-au=4 \
	--output="$T/o.json" "$IMG"
for o in linear random; do
	grep -q "^open AUs, $o: no effect found (4 at once write as one does)$" "$T/out" ||
		{ cat "$T/out"; fail "$o: a collapse named where only stray writes were slow"; }
	grep -q "^  - $o writes: no effect found: 4 allocation units written at once run as fast as one" "$T/out" ||
		{ cat "$T/out"; fail "$o: no plain no-effect line"; }
done
! grep -q 'f2fs does not suit it\|keep at most' "$T/out" || { cat "$T/out"; fail "a limit advised"; }
python3 - "$T/o.json" <<'PY' || fail "--open-au JSON"
import json, sys
o = json.load(open(sys.argv[1]))["storbench"]["flash"]["open_au"]
assert o["max_open_linear"] == 4 and o["max_open_random"] == 4, o
assert o["max_open_linear_limited"] and o["max_open_random_limited"], o
runs = o["runs"]
assert len(runs) == 8 and not any(r["collapsed"] for r in runs), [(r["open_au"], r["order"], r["collapsed"]) for r in runs]
rows = [w for r in runs for w in r["rows"]]
assert all(w["median_ns"] > 0 and w["noise_ns"] >= 0 for w in rows)
# the stray writes are there: some row's mean is over twice its median
assert any(w["mean_ns"] > 2 * w["median_ns"] for w in rows), "no stray slow write seen"
PY
ok "stray slow writes: no effect found in either order, no limit named"

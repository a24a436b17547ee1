# cliff's state before the fill (--purge, --idle-before) and its rows in the
# CSV and XLSX reports. On cachefs (tests/fixtures/cachefs.c: a 48 MiB cache
# at 40 MiB/s, then 8 MiB/s, refilled in 2 s of idle): a cache filled just
# before is found whole again after --idle-before=3s, which is recorded; a
# purge the target refuses (cachefs cannot punch holes) is an error and
# nothing is written. On a file: --purge=discard punches the region and is
# recorded; secure-discard and sanitize are refused. On zram: --purge=auto discards the
# device. The CSV table cliff holds a row per bin of the series, the cache's
# drop and the recoveries, as the JSON says. Issue 14.
# needs: root zram fuse serial
. "$(dirname "$0")/../lib/cli.sh"

# a file: the region's hole punched, recorded
truncate -s 16M "$T/f.bin"
"$SB" run --rw=write --bs=1M --destroy-data --quiet "$T/f.bin" >/dev/null 2>&1 || fail "fill the file"
expect_exit 2 "$SB" cliff --destroy-data --quiet --purge=secure-discard "$T/f.bin"
grep -q -- "--purge=secure-discard: '.*' is not a block device" "$T/err" || { cat "$T/err"; fail "secure-discard on a file"; }
expect_exit 2 "$SB" cliff --destroy-data --quiet --purge=sanitize "$T/f.bin"
grep -q -- "--purge=sanitize: '.*' is not a block device" "$T/err" || { cat "$T/err"; fail "sanitize on a file"; }
expect_exit 2 "$SB" cliff --destroy-data --quiet --idle-before=soon "$T/f.bin"
grep -q -- "--idle-before: 'soon' is not valid" "$T/err" || { cat "$T/err"; fail "bad --idle-before"; }
expect_exit 2 "$SB" cliff --quiet --purge=discard "$T/f.bin"
[ "$(stat -c %b "$T/f.bin")" -ge $((16 * 2048)) ] || fail "a refused cliff punched the file"
expect_exit 0 "$SB" cliff --destroy-data --quiet --purge=discard --idle-before=200ms --size=4M \
	-o "$T/f.json" "$T/f.bin"
[ "$(json "$T/f.json" '[d["storbench"]["cliff"][k] for k in ("purge", "purge_method", "purge_bytes", "idle_before_ns")]')" = \
	"['discard', 'FALLOC_FL_PUNCH_HOLE', $((4 << 20)), 200000000]" ] || fail "file: $(json "$T/f.json" 'd["storbench"]["cliff"]')"
grep -q "^  before the fill: purge by discard (FALLOC_FL_PUNCH_HOLE over 4.00 MiB), idle 200 ms" "$T/out" ||
	{ cat "$T/out"; fail "file: the text does not say what was done"; }
ok "file: secure-discard and bad values refused; discard punched and recorded with the idle"

# zram: the device discarded whole
if z=$(make_zram 64M); then
	frees() { awk '{ print $4 }' "/sys/block/${z#/dev/}/io_stat"; }
	f0=$(frees)
	expect_exit 0 "$SB" cliff --destroy-data --quiet --purge=auto --size=8M -o "$T/z.json" "$z"
	[ "$(json "$T/z.json" '[d["storbench"]["cliff"][k] for k in ("purge", "purge_method", "purge_bytes")]')" = \
		"['discard', 'BLKDISCARD', $((64 << 20))]" ] || fail "zram: $(json "$T/z.json" 'd["storbench"]["cliff"]')"
	[ "$(frees)" -ge $((f0 + (64 << 20) / 4096)) ] || fail "zram: the purge did not discard the device"
	ok "zram: --purge=auto discarded the whole device and said so"
else
	echo "note: no zram device of our own: its check skipped"
fi

. "$(dirname "$0")/../lib/cachefs.sh"
MiB=1048576
CACHE=$((48 * MiB)) FAST=$((40 * MiB)) SLOW=$((8 * MiB))
cf_start 128M "$CACHE" "$FAST" "$SLOW" 2000

expect_exit 2 "$SB" cliff --destroy-data --quiet --purge=discard "$CF_MNT/disk"
grep -q -- "--purge=discard: '.*' cannot punch a hole in its region" "$T/err" || { cat "$T/err"; fail "cachefs: refusal"; }
[ ! -s "$T/out" ] || { cat "$T/out"; fail "cachefs: a refused purge still measured"; }

# the cache full, then a cliff after 3 s of idle finds it whole
"$SB" run --rw=write --bs=1M --size=64M --destroy-data --quiet "$CF_MNT/disk" >/dev/null 2>&1 || fail "filling the cache"
expect_exit 0 "$SB" cliff --destroy-data --quiet --idle-before=3s --size=96M -o "$T/c.json" "$CF_MNT/disk"
[ "$(json "$T/c.json" 'd["storbench"]["cliff"]["idle_before_ns"]')" = 3000000000 ] || fail "idle not recorded"
cache=$(json "$T/c.json" 'd["storbench"]["cliff"]["cache_bytes"]')
within_pct "$cache" "$CACHE" 10 || fail "after 3 s idle the cache is $cache bytes, the fixture's is $CACHE"
ok "cachefs: a purge it refuses is an error; after --idle-before=3s the whole cache ($cache B) is found"

# the CSV table cliff: as the JSON says
expect_exit 0 "$SB" report --table=cliff -o "$T/c.csv" "$T/c.json"
python3 - "$T/c.json" "$T/c.csv" <<'PY' || fail "the CSV table cliff disagrees with the JSON"
import csv, json, sys
c = json.load(open(sys.argv[1]))["storbench"]["cliff"]
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
series = [r for r in rows if r["row"] == "series"]
bw = c["series"]["bw_bytes"]
assert len(series) == len(bw), (len(series), len(bw))
for i, r in enumerate(series):
    assert abs(float(r["bw_bytes_per_s"]) - bw[i]) <= 1e-6 * max(1, bw[i]), i
    want = c["bytes_written"] if i == len(bw) - 1 else c["series"]["bin_bytes"] * (i + 1)
    assert int(r["bytes_written"]) == want, (i, r["bytes_written"], want)
cache = [r for r in rows if r["row"] == "cache"]
assert len(cache) == 1 and int(cache[0]["bytes_written"]) == c["cache_bytes"], cache
assert abs(float(cache[0]["after_bw_bytes_per_s"]) - c["after_bw_bytes"]) < 1
assert len([r for r in rows if r["row"] == "step"]) == len(c["steps"])
assert len([r for r in rows if r["row"] == "recovery"]) == len(c["recovery"])
PY
ok "CSV table cliff: a row per bin, the cache's drop, as in the JSON"
if "$SB" report -o "$T/c.xlsx" "$T/c.json" 2>"$T/err"; then
	python3 - "$T/c.xlsx" <<'PY' || fail "XLSX: no Cliff sheet with its chart"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
wb = z.read("xl/workbook.xml").decode()
assert 'name="Cliff"' in wb, wb
charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
assert any(b"Write throughput against data written" in z.read(n) for n in charts), charts
PY
	ok "XLSX: a Cliff sheet with the throughput chart"
else
	grep -q "without XLSX support" "$T/err" || { cat "$T/err"; fail "XLSX"; }
fi

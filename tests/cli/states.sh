# --precondition and --discard-before (quick, run, sweep; docs/states.md):
# the state is recorded in the results and shown in the headers, the bytes a
# fill writes are the region's (and land on the target: a file of zeros has
# no zero block left; zram's write counter grows by them), a discard punches
# holes in a file and frees zram's pages, and the refusals hold: no
# --destroy-data, a purge of a file, a mounted device, a job file on a
# directory (tests/cli/states-jobfile.sh: job files). compare
# puts two states side by side. Issue 14.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

short="--rw=randread --bs=4k --runtime=200ms --time-based --quiet"

# a new file: fill writes the whole region, the tail past the last 128 KiB too
"$SB" run $short --size=8200k --precondition=fill -o "$T/fill.json" "$T/new.bin" >"$T/out" 2>"$T/err" ||
	{ cat "$T/out" "$T/err"; fail "fill on a new file"; }
[ "$(json "$T/fill.json" 'd["storbench"]["state"]["written_bytes"]')" = $((8200 * 1024)) ] ||
	fail "fill wrote $(json "$T/fill.json" 'd["storbench"]["state"]')"
[ "$(json "$T/fill.json" 'd["storbench"]["state"]["name"]')" = full ] || fail "state not 'full'"
grep -q "^state: full (128 KiB sequential writes: 8.01 MiB written over 8.01 MiB" "$T/out" ||
	{ cat "$T/out"; fail "state not in the text header"; }
"$SB" report "$T/fill.json" | grep -q "^state: full (fill, 8.01 MiB written)" ||
	fail "state not in the report's header"
ok "fill of a new file: 8200 KiB written, recorded and shown"

# an existing file of zeros (ours to write only with --destroy-data)
truncate -s 4M "$T/zero.bin"
expect_exit 2 "$SB" run $short --precondition=fill "$T/zero.bin"
grep -q -- "--precondition=fill: destroys what .* holds in the region (add --destroy-data" "$T/err" ||
	{ cat "$T/err"; fail "no consent: refusal does not say why"; }
[ "$(tr -d '\0' <"$T/zero.bin" | wc -c)" = 0 ] || fail "refused fill wrote to the file"
"$SB" run $short --destroy-data --precondition=fill -o "$T/f2.json" "$T/zero.bin" >/dev/null 2>&1 ||
	fail "fill of an existing file with --destroy-data"
zeros=$(python3 -c "
import sys
b = open(sys.argv[1], 'rb').read()
print(sum(1 for i in range(0, len(b), 4096) if b[i:i + 4096] == bytes(4096)))" "$T/zero.bin")
[ "$zeros" = 0 ] || fail "fill left $zeros blocks of zeros in the file"
ok "existing file: refused without --destroy-data, filled with it (no zero block left)"

# fill-random: the amount asked for, in 4 KiB requests
"$SB" run $short --destroy-data --precondition=fill-random:2x -o "$T/fr.json" "$T/zero.bin" \
	>/dev/null 2>&1 || fail "fill-random:2x"
[ "$(json "$T/fr.json" '(d["storbench"]["state"]["written_bytes"], d["storbench"]["state"]["amount_bytes"], d["storbench"]["state"]["block_size"])')" = \
	"($((8 << 20)), $((8 << 20)), 4096)" ] || fail "fill-random:2x: $(json "$T/fr.json" 'd["storbench"]["state"]')"
"$SB" run $short --destroy-data --precondition=fill-random:1M -o "$T/fr1.json" "$T/zero.bin" \
	>/dev/null 2>&1 || fail "fill-random:1M"
[ "$(json "$T/fr1.json" 'd["storbench"]["state"]["written_bytes"]')" = $((1 << 20)) ] || fail "fill-random:1M"
expect_exit 2 "$SB" run $short --destroy-data --precondition=fill-random:0x "$T/zero.bin"
grep -q -- "--precondition: 'fill-random:0x' is not valid" "$T/err" || { cat "$T/err"; fail "0x accepted"; }
ok "fill-random: 2x and 1M written as asked; 0x refused"

# --discard-before on a file: holes punched, recorded
"$SB" run $short --destroy-data --discard-before -o "$T/d.json" "$T/zero.bin" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "--discard-before on a file"; }
[ "$(json "$T/d.json" '(d["storbench"]["state"]["name"], d["storbench"]["state"]["discard_method"], d["storbench"]["state"]["discard_bytes"])')" = \
	"('discarded', 'FALLOC_FL_PUNCH_HOLE', $((4 << 20)))" ] || fail "discard not recorded: $(json "$T/d.json" 'd["storbench"]["state"]')"
[ "$(stat -c %b "$T/zero.bin")" -lt 64 ] || fail "the file still has $(stat -c %b "$T/zero.bin") blocks after the discard"
[ "$(stat -c %s "$T/zero.bin")" = $((4 << 20)) ] || fail "the discard changed the file's size"
ok "--discard-before punches the file's region and is recorded"

# refusals that need no device
expect_exit 2 "$SB" run $short --size=4M --precondition=purge "$T/p.bin"
grep -q "is not a block device" "$T/err" || { cat "$T/err"; fail "purge of a file"; }
[ ! -e "$T/p.bin" ] || fail "a refused purge created the file"
printf '[j]\nrw=read\nsize=1M\n' >"$T/j.fio"
expect_exit 2 "$SB" run --precondition=fill "$T/j.fio" "$T"
grep -q "with a job file, only on an existing file or block device: '$T' is a directory" "$T/err" ||
	{ cat "$T/err"; fail "job file on a directory"; }
expect_exit 2 "$SB" sweep --precondition=fill --quiet "$T/sw-new.bin"
grep -q "precondition an existing file" "$T/err" || { cat "$T/err"; fail "sweep on a new file"; }
expect_exit 2 "$SB" quick --precondition=warm "$T"
grep -q -- "--precondition: 'warm' is not valid (expected purge, fill" "$T/err" || { cat "$T/err"; fail "bad state"; }
ok "purge of a file, a job file on a directory, sweep's new file and an unknown state refused"

# sweep: an existing file filled whole before the sweep
truncate -s 4M "$T/sw.bin"
"$SB" sweep --file-sizes=1M --record-sizes=64k --tests=write --destroy-data --precondition=fill \
	--quiet -o "$T/s.json" "$T/sw.bin" >"$T/out" 2>&1 || { cat "$T/out"; fail "sweep --precondition=fill"; }
[ "$(json "$T/s.json" 'd["storbench"]["state"]["written_bytes"]')" = $((4 << 20)) ] ||
	fail "sweep: $(json "$T/s.json" 'd["storbench"]["state"]')"
ok "sweep: an existing file filled (4 MiB) and the state recorded"

# compare: two states side by side
"$SB" run $short --size=4M -o "$T/fresh.json" "$T/c.bin" >/dev/null 2>&1 || fail "run without state"
"$SB" compare "$T/fill.json" "$T/fresh.json" >"$T/cmp" 2>&1
grep -qx "state: full | as found" "$T/cmp" || { cat "$T/cmp"; fail "compare: no state row"; }
grep -q "state: full (A) vs as found (B)" "$T/cmp" || { cat "$T/cmp"; fail "compare: state not a condition that differs"; }
ok "compare: state: full | as found"

# a zram device of our own
z=$(make_zram 64M) || skip "no zram device of our own (the file checks passed)"
zn=${z#/dev/}
writes() { awk '{ print $7 }' "/sys/block/$zn/stat"; } # sectors written
frees() { awk '{ print $4 }' "/sys/block/$zn/io_stat"; } # pages freed (discards)
expect_exit 2 "$SB" run $short --precondition=fill "$z"
grep -q -- "refusing to write to '$z': writing destroys what the device holds (add --destroy-data" "$T/err" ||
	{ cat "$T/err"; fail "zram: refusal without --destroy-data"; }
[ "$(writes)" = 0 ] || fail "zram written without consent"
w0=$(writes)
"$SB" run $short --destroy-data --precondition=fill -o "$T/z.json" "$z" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "zram fill"; }
[ $(($(writes) - w0)) = $(((64 << 20) / 512)) ] || fail "zram saw $(($(writes) - w0)) sectors written, not 64 MiB"
[ "$(json "$T/z.json" 'd["storbench"]["state"]["written_bytes"]')" = $((64 << 20)) ] || fail "zram: written_bytes"
f0=$(frees)
"$SB" run $short --destroy-data --precondition=purge --discard-before -o "$T/zp.json" "$z" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "zram purge"; }
[ "$(json "$T/zp.json" '(d["storbench"]["state"]["name"], d["storbench"]["state"]["purge"], d["storbench"]["state"]["discard_method"])')" = \
	"('purged, then discarded', 'discard', 'BLKDISCARD')" ] || fail "zram purge: $(json "$T/zp.json" 'd["storbench"]["state"]')"
[ "$(frees)" -ge $((f0 + (64 << 20) / 4096)) ] || fail "the purge did not discard all of $z"
ok "zram: refused without --destroy-data; fill wrote 64 MiB (zram's counter); purge + discard recorded"

# quick and sweep on the device
w0=$(writes)
"$SB" quick --size=8M --runtime=100ms --repeat=1 --read-only --destroy-data --precondition=fill \
	--quiet -o "$T/q.json" "$z" >"$T/out" 2>&1 || { cat "$T/out"; fail "quick --precondition=fill"; }
[ $(($(writes) - w0)) = $(((8 << 20) / 512)) ] || fail "quick: zram saw $(($(writes) - w0)) sectors written"
grep -q "^state: full" "$T/out" || { cat "$T/out"; fail "quick: no state line"; }
ok "quick: the device filled first and the state recorded"

# a mounted device is never preconditioned
command -v mkfs.ext4 >/dev/null && command -v unshare >/dev/null || skip "mkfs.ext4 or unshare missing (the rest passed)"
mkfs.ext4 -q -F "$z" || fail "mkfs.ext4"
sum=$(md5sum <"$z")
mkdir "$T/mnt"
unshare -m sh -c "
	mount -o ro,noload '$z' '$T/mnt' || exit 99
	'$SB' run $short --destroy-data --precondition=fill '$z' 2>'$T/err'
	[ \$? = 3 ] || exit 1
	'$SB' run $short --destroy-data --discard-before '$z' 2>>'$T/err'
	[ \$? = 3 ] || exit 2
	exit 0"
rc=$?
[ $rc = 99 ] && skip "cannot mount ext4 here (the rest passed)"
[ $rc = 0 ] || { cat "$T/err"; fail "mounted device: step $rc"; }
grep -q "is mounted on $T/mnt" "$T/err" || { cat "$T/err"; fail "mounted: refusal does not say where"; }
[ "$(md5sum <"$z")" = "$sum" ] || fail "mounted device changed"
ok "mounted device: fill and discard refused, nothing written"

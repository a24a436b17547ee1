# --purge=METHOD with --precondition=purge (quick, run, sweep, a job file;
# docs/states.md): bad values and --purge without --precondition=purge
# exit 2 naming the option; --purge=discard on a zram device of our own
# discards all of it (a pattern written before reads as zeros, zram's
# discard counter grows by every page) and the method asked and used are
# in the results, the text header, the report and compare; the same through
# a job file; --purge=sanitize on the emulated eMMC (tests/lib/devemu.sh)
# with an EXT_CSD whose ERASE_GROUP_DEF [175], ERASE_TIMEOUT_MULT [223] and
# HC_ERASE_GRP_SIZE [224] are known: ERASE goes out in chunks of whole
# erase groups, each with 300 ms x [223] per group and within the 10 min
# cap, that cover every sector once, and SANITIZE_START with the whole
# device's bound. Issue 14.
# needs: root loop zram fuse
. "$(dirname "$0")/../lib/cli.sh"

short="--rw=randread --bs=4k --runtime=200ms --time-based --quiet"

# refusals that need no device
expect_exit 2 "$SB" run $short --precondition=purge --purge=wipe "$T/x.bin"
grep -q -- "--purge: 'wipe' is not valid (expected auto, discard, secure-discard, sanitize, format, secure-erase or none)" \
	"$T/err" || { cat "$T/err"; fail "bad --purge value"; }
for cmd in run quick sweep; do
	expect_exit 2 "$SB" $cmd --purge=discard "$T/x.bin"
	grep -q -- "--purge=discard: needs --precondition=purge" "$T/err" || { cat "$T/err"; fail "$cmd: --purge alone"; }
	expect_exit 2 "$SB" $cmd --precondition=fill --purge=discard "$T/x.bin"
	grep -q -- "--purge=discard: needs --precondition=purge" "$T/err" || { cat "$T/err"; fail "$cmd: --purge with fill"; }
	"$SB" $cmd --help | grep -q -- "--purge=auto|discard|secure-discard|sanitize|format|secure-erase|none" ||
		fail "$cmd --help does not list the methods"
done
[ ! -e "$T/x.bin" ] || fail "a refused run created the file"
expect_exit 2 "$SB" cliff --purge=wipe "$T/x.bin"
grep -q -- "--purge: 'wipe' is not valid (expected auto, discard, secure-discard, sanitize, format, secure-erase or none)" \
	"$T/err" || { cat "$T/err"; fail "cliff: bad --purge value"; }
expect_exit 2 "$SB" pts --purge=wipe "$T/x.bin"
grep -q -- "--purge: 'wipe' is not valid (expected auto, discard" "$T/err" || { cat "$T/err"; fail "pts: bad --purge"; }
truncate -s 4M "$T/c.bin"
expect_exit 2 "$SB" cliff --purge=sanitize --destroy-data "$T/c.bin"
grep -q -- "--purge=sanitize: '$T/c.bin' is not a block device" "$T/err" || { cat "$T/err"; fail "cliff: sanitize of a file"; }
ok "bad methods (run, cliff, pts) and --purge without --precondition=purge (run, quick, sweep) exit 2"

# --purge=discard on a zram device of our own
z=$(make_zram 32M) || skip "no zram device of our own (the refusals passed)"
zn=${z#/dev/}
frees() { awk '{ print $4 }' "/sys/block/$zn/io_stat"; } # pages freed by discards
python3 -c "import sys; sys.stdout.buffer.write(b'\x5a' * (32 << 20))" >"$T/pattern"
dd if="$T/pattern" of="$z" bs=1M oflag=direct status=none || fail "dd"
f0=$(frees)
"$SB" run $short --destroy-data --precondition=purge --purge=discard -o "$T/d.json" "$z" >"$T/out" 2>"$T/err" ||
	{ cat "$T/out" "$T/err"; fail "run --purge=discard"; }
cmp -s -n $((32 << 20)) /dev/zero "$z" || fail "--purge=discard left data on $z"
[ "$(frees)" -ge $((f0 + (32 << 20) / 4096)) ] || fail "zram freed $(($(frees) - f0)) pages, not all 8192"
[ "$(json "$T/d.json" '(d["storbench"]["state"]["name"], d["storbench"]["state"]["purge"], d["storbench"]["state"]["purge_asked"])')" = \
	"('purged', 'discard', 'discard')" ] || fail "recorded: $(json "$T/d.json" 'd["storbench"]["state"]')"
grep -qx "state: purged (purge by discard)" "$T/out" || { cat "$T/out"; fail "text header"; }
"$SB" report "$T/d.json" | grep -q "^state: purged (purge by discard)" || fail "report header"
ok "run --purge=discard: the zram device reads zeros, all its pages discarded, recorded and shown"

# auto: the method it took and that it was auto
dd if="$T/pattern" of="$z" bs=1M oflag=direct status=none || fail "dd"
"$SB" quick --size=4M --runtime=100ms --repeat=1 --read-only --destroy-data --precondition=purge \
	--quiet -o "$T/a.json" "$z" >"$T/out" 2>&1 || { cat "$T/out"; fail "quick --precondition=purge"; }
cmp -s -n $((32 << 20)) /dev/zero "$z" || fail "auto left data on $z"
used=$(json "$T/a.json" 'd["storbench"]["state"]["purge"]')
[ "$(json "$T/a.json" 'd["storbench"]["state"]["purge_asked"]')" = auto ] || fail "auto not recorded as asked"
case $used in discard) ;; secure-discard) ;; *) fail "auto used '$used'" ;; esac
grep -qx "state: purged (purge by $used, --purge=auto)" "$T/out" || { cat "$T/out"; fail "quick: text header for auto"; }
# compare: the method beside the state
"$SB" run $short --destroy-data --precondition=purge --purge=none -o "$T/n.json" "$z" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "--purge=none"; }
[ "$(json "$T/n.json" '(d["storbench"]["state"]["purge"], d["storbench"]["state"]["purge_asked"])')" = "('none', 'none')" ] ||
	fail "--purge=none recorded: $(json "$T/n.json" 'd["storbench"]["state"]')"
"$SB" compare "$T/d.json" "$T/n.json" >"$T/cmp" 2>&1
grep -qx "state: purged (by discard) | purged (by none)" "$T/cmp" || { cat "$T/cmp"; fail "compare: methods side by side"; }
ok "auto took $used (recorded as asked auto); --purge=none recorded; compare shows the methods"

# a job file: the same option, the job file's target purged
dd if="$T/pattern" of="$z" bs=1M oflag=direct status=none || fail "dd"
printf '[j]\nfilename=%s\nrw=read\nbs=64k\nsize=1M\n' "$z" >"$T/j.fio"
"$SB" run --destroy-data --precondition=purge --purge=discard --quiet -o "$T/j.json" "$T/j.fio" \
	>"$T/out" 2>&1 || { cat "$T/out"; fail "job file --purge=discard"; }
cmp -s -n $((32 << 20)) /dev/zero "$z" || fail "job file: --purge=discard left data"
[ "$(json "$T/j.json" '(d["storbench"]["state"]["purge"], d["storbench"]["state"]["purge_asked"])')" = "('discard', 'discard')" ] ||
	fail "job file recorded: $(json "$T/j.json" 'd["storbench"]["state"]')"
ok "a job file: --purge=discard purged its target, recorded"

# --purge=sanitize on an emulated eMMC with known erase fields
. "$(dirname "$0")/../lib/devemu.sh"
d=$(make_loop 16) || skip "no loop device (the zram checks passed)"
{
	cat "$SB_TOP/tests/fixtures/emmc51-ext-csd.hex"
	echo "175: 01  # ERASE_GROUP_DEF: high-capacity erase group on"
	echo "223: ff  # ERASE_TIMEOUT_MULT: 255 x 300 ms = 76.5 s a group"
} >"$T/erase.hex"
devemu_start "$d" "$T/erase.hex"
dd if="$T/pattern" of="$d" bs=1M count=16 oflag=direct status=none || fail "dd"
emu "$SB" run $short --destroy-data --precondition=purge --purge=sanitize -o "$T/s.json" "$d" \
	>"$T/out" 2>"$T/err" || { cat "$T/out" "$T/err"; fail "run --purge=sanitize on the emulated eMMC"; }
cmp -s -n $((16 << 20)) /dev/zero "$d" || fail "--purge=sanitize left data on the emulated eMMC"
[ "$(json "$T/s.json" '(d["storbench"]["state"]["purge"], d["storbench"]["state"]["purge_asked"])')" = "('sanitize', 'sanitize')" ] ||
	fail "sanitize recorded: $(json "$T/s.json" 'd["storbench"]["state"]')"
# 16 MiB = 32768 sectors = 32 groups of 1024 (HC_ERASE_GRP_SIZE 1); 10 min
# holds 7 groups of 76.5 s: chunks of 7, 7, 7, 7, 4 groups
python3 - "$DEVEMU_LOG" <<'PY' || fail "erase commands: $(cat "$DEVEMU_LOG")"
import sys
lines = [l.split() for l in open(sys.argv[1]) if not l.startswith("send_ext_csd")]
erases = [l for l in lines if l[0] == "erase"]
want = [(0, 7), (7, 14), (14, 21), (21, 28), (28, 32)]
got = [(int(l[1]), int(l[2]), l[3], l[4]) for l in erases]
exp = [(a * 1024, b * 1024 - 1, "0x0", "timeout=%d" % ((b - a) * 76500)) for a, b in want]
if got != exp:
    sys.exit("got %s, expected %s" % (got, exp))
covered = [0] * 32768
for a, b, _, t in got:
    assert int(t.split("=")[1]) <= 600000
    for s in range(a, b + 1):
        covered[s] += 1
if set(covered) != {1}:
    sys.exit("sectors not erased exactly once")
if lines[-1] != ["switch", "165", "1", "timeout=%d" % (32 * 76500)]:
    sys.exit("sanitize: %s" % lines[-1])
PY
ok "--purge=sanitize on the emulated eMMC: 5 ERASE chunks of whole groups (76.5 s a group, <= 10 min), every sector once; SANITIZE_START with 32 x 76.5 s"

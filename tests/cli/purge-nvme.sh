# NVMe purge on a namespace emulated by tests/preload/nvmeemu.so over a
# loop device of the test's own (no NVMe here): storbench identifies it as
# NVMe; without --destroy-data nothing is sent; --purge=format sends Format
# NVM with user data erase and the LBA format, metadata and protection
# settings in use (FLBAS, DPS), --purge=sanitize a Sanitize (block erase,
# else crypto erase, else overwrite) and then reads the Sanitize Status
# log until it ends; auto takes sanitize, then format, then discard. A
# pattern written before reads as zeros after (the emulator erases through
# the device), the results record the method and the command. A device
# without the command, one that answers an error status, a sanitize that
# fails, a second namespace a sanitize would erase: errors naming the
# option and the command, the pattern intact. Issue 14.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/nvmeemu.sh"
d=$(make_loop 16) || skip "no loop device"
nvmeemu_start "$d"

python3 -c "import sys; sys.stdout.buffer.write(b'\xa5' * (16 << 20))" >"$T/pattern"
write_pattern() { dd if="$T/pattern" of="$d" bs=1M oflag=direct status=none || fail "dd"; }
is_pattern() { cmp -s "$T/pattern" "$d"; }
is_zero() { cmp -s -n $((16 << 20)) /dev/zero "$d"; }
# pts writes only the first half (--active-range=50): the second half shows the purge
half_zero() { cmp -s -i $((8 << 20)) -n $((8 << 20)) /dev/zero "$d"; }
cmds() { nvmeemu_cmds | tr '\n' ' '; }
ID="admin 0x06 nsid=0x0 cdw10=0x1 admin 0x06 nsid=0x1 cdw10=0x0"
NSLIST="admin 0x06 nsid=0x0 cdw10=0x2"
SANLOG="admin 0x02 nsid=0xffffffff cdw10=0x7f0081"

# the device is an NVMe to storbench
expect_exit 0 nvme "$SB" info --format=json "$d"
[ "$(json "$T/out" "(lambda v: (v['transport'], v['model']))(d['storbench']['info']['device'])")" = \
	"('nvme', 'storbench nvmeemu')" ] || fail "the emulator did not take: $(cat "$T/out")"
ok "info: an NVMe namespace (transport nvme, the controller's model)"

pts_purge() { # EXIT METHOD [VAR=VALUE...] (EXIT ran: 0 or 1, steady or not)
	want=$1 method=$2
	shift 2
	: >"$NVMEEMU_LOG"
	nvme env "$@" "$SB" pts --destroy-data --quiet --test=iops --round-time=0.1s --bs=4k \
		--mix=0/100 --max-rounds=3 --precondition=none --active-range=50 --seed=3 \
		--purge="$method" --output="$T/pp.json" "$d" >"$T/out" 2>"$T/err"
	got=$?
	case "$want:$got" in
	ran:0 | ran:1 | 2:2 | 3:3) ;;
	*) cat "$T/out" "$T/err"; fail "pts --purge=$method ($*) exited $got, expected $want" ;;
	esac
	drop_cache_probe
}
# pts (enterprise) first reads the volatile write cache (Identify Controller;
# VWC 0 here: nothing switched, tests/cli/devcache-nvme-ata.sh): checked,
# then left out of the log so the purge's own commands remain
drop_cache_probe() {
	nvmeemu_drop_logs
	[ "$(sed -n 2p "$NVMEEMU_LOG")" = "admin 0x06 nsid=0x0 cdw10=0x1" ] ||
		fail "pts did not probe the write cache first: $(cat "$NVMEEMU_LOG")"
	sed -i 2d "$NVMEEMU_LOG"
}
run_purge() { # EXIT [VAR=VALUE...]: run --precondition=purge (auto), then a read
	want=$1
	shift
	: >"$NVMEEMU_LOG"
	expect_exit "$want" nvme env "$@" "$SB" run --destroy-data --precondition=purge \
		--rw=read --bs=64k --size=1M --runtime=200ms --time-based --quiet \
		--output="$T/run.json" "$d"
}
pts_recorded() { json "$T/pp.json" "[(t['purge'], t['purge_method']) for t in d['storbench']['pts']['tests']]"; }
run_recorded() { json "$T/run.json" "(lambda s: (s['purge'], s['purge_method']))(d['storbench']['state'])"; }

# consent first: nothing reaches the device without --destroy-data
write_pattern
: >"$NVMEEMU_LOG"
expect_exit 2 nvme "$SB" pts --quiet --purge=format "$d"
grep -q -- "--destroy-data" "$T/err" || { cat "$T/err"; fail "no consent message"; }
[ ! -s "$NVMEEMU_LOG" ] || fail "refused, yet commands were sent: $(cat "$NVMEEMU_LOG")"
is_pattern || fail "refused, yet the device changed"
ok "without --destroy-data: exit 2, no command sent, the pattern intact"

# --purge=format: the LBA format in use kept (FLBAS 1 of 2: cdw10 0x201)
pts_purge ran format NVMEEMU_FLBAS=0x01
[ "$(cmds)" = "$ID admin 0x80 nsid=0x1 cdw10=0x201 " ] || fail "pts --purge=format sent: $(cmds)"
half_zero || fail "pts --purge=format left the pattern"
[ "$(pts_recorded)" = "[('format', 'NVMe Format NVM user data erase, SES 1, LBA format 1')]" ] ||
	fail "pts recorded: $(pts_recorded)"
grep -q "purge: format (NVMe Format NVM user data erase, SES 1, LBA format 1);" "$T/out" ||
	{ cat "$T/out"; fail "pts text"; }
ok "pts --purge=format: Identify, Format NVM SES 1 with LBAF 1 (FLBAS), zeros, recorded"

# metadata and protection kept: FLBAS 0x13 (format 3, extended LBA), DPS 9
# (type 1, first bytes) -> LBAF 3, MSET, PI 1, PIL, SES 1; above 16
# formats FLBAS bits 6:5 give the index's upper bits (LBAFU, cdw10 13:12)
for c in "0x13 3 0x09 0x333 3" "0x22 19 0 0x1202 18"; do
	set -- $c
	write_pattern
	pts_purge ran format NVMEEMU_FLBAS=$1 NVMEEMU_NLBAF=$2 NVMEEMU_DPS=$3
	[ "$(cmds)" = "$ID admin 0x80 nsid=0x1 cdw10=$4 " ] || fail "FLBAS $1 DPS $3: sent $(cmds)"
	half_zero || fail "FLBAS $1: the pattern stayed"
	pts_recorded | grep -q "LBA format $5'" || fail "FLBAS $1: recorded $(pts_recorded)"
done
ok "format keeps MSET, PI, PIL (cdw10 0x333) and a format index above 15 (0x1202)"

# --purge=sanitize: block erase (SANACT 2, AUSE: 0xa), then the log until done
write_pattern
pts_purge ran sanitize NVMEEMU_SANICAP=0x7 NVMEEMU_POLLS=3
[ "$(cmds)" = "$ID $NSLIST admin 0x84 nsid=0x0 cdw10=0xa $SANLOG $SANLOG $SANLOG $SANLOG " ] ||
	fail "pts --purge=sanitize sent: $(cmds)"
half_zero || fail "pts --purge=sanitize left the pattern"
[ "$(pts_recorded)" = "[('sanitize', 'NVMe Sanitize block erase, SANACT 2')]" ] ||
	fail "pts recorded: $(pts_recorded)"
"$SB" report "$T/pp.json" >"$T/text" 2>"$T/err" || { cat "$T/err"; fail "text report"; }
grep -q "^\[iops\] purge sanitize (NVMe Sanitize block erase, SANACT 2), [0-9]* rounds" "$T/text" ||
	{ cat "$T/text"; fail "text report: the purge"; }
"$SB" report --output="$T/pp.html" "$T/pp.json" 2>"$T/err" || { cat "$T/err"; fail "HTML report"; }
grep -qF "Purge: sanitize (NVMe Sanitize block erase, SANACT 2);" "$T/pp.html" || fail "HTML report: the purge"
ok "pts --purge=sanitize: block erase, the log read until it ended (in progress 3 times), zeros, recorded, reported"

# crypto erase without block erase; overwrite (1 pass: 0x1b) as the last resort
for c in "0x1 0xc crypto erase, SANACT 4" "0x4 0x1b overwrite, SANACT 3, 1 pass"; do
	set -- $c
	cap=$1 cdw=$2
	shift 2
	write_pattern
	pts_purge ran sanitize NVMEEMU_SANICAP=$cap
	[ "$(cmds)" = "$ID $NSLIST admin 0x84 nsid=0x0 cdw10=$cdw $SANLOG " ] || fail "SANICAP $cap: sent $(cmds)"
	half_zero || fail "SANICAP $cap: the pattern stayed"
	[ "$(pts_recorded)" = "[('sanitize', 'NVMe Sanitize $*')]" ] || fail "SANICAP $cap: recorded $(pts_recorded)"
done
ok "sanitize: crypto erase (SANACT 4) without block erase, overwrite (SANACT 3, 1 pass) without either"

# auto: sanitize by block erase, else crypto erase; format without them
write_pattern
run_purge 0 NVMEEMU_SANICAP=0x3
is_zero || fail "auto (sanitize) left data"
[ "$(cmds)" = "$ID $NSLIST admin 0x84 nsid=0x0 cdw10=0xa $SANLOG " ] || fail "auto sent: $(cmds)"
[ "$(run_recorded)" = "('sanitize', 'NVMe Sanitize block erase, SANACT 2')" ] || fail "run recorded: $(run_recorded)"
# a controller of one namespace at most (NN 1): no list to ask for
write_pattern
run_purge 0 NVMEEMU_NN=1
[ "$(cmds)" = "$ID admin 0x84 nsid=0x0 cdw10=0xa $SANLOG " ] || fail "auto, NN 1, sent: $(cmds)"
is_zero || fail "auto (sanitize, NN 1) left data"
write_pattern
run_purge 0 NVMEEMU_SANICAP=0x4
is_zero || fail "auto (format) left data"
[ "$(cmds)" = "$ID admin 0x80 nsid=0x1 cdw10=0x200 " ] || fail "auto without block/crypto erase sent: $(cmds)"
[ "$(run_recorded)" = "('format', 'NVMe Format NVM user data erase, SES 1, LBA format 0')" ] ||
	fail "run recorded: $(run_recorded)"
write_pattern
run_purge 0 NVMEEMU_SANICAP=0 NVMEEMU_OACS=0
purged=$(run_recorded)
case "$purged" in
"('discard', 'BLKDISCARD')" | "('secure-discard', 'BLKSECDISCARD')") ;;
*) fail "auto without sanitize and format: $purged" ;;
esac
[ "$(cmds)" = "$ID " ] || fail "auto without sanitize and format sent: $(cmds)"
ok "auto: sanitize (block erase) > format (no block/crypto erase) > $purged (neither), each recorded"

# cliff --purge=auto records the command too
expect_exit 0 nvme "$SB" cliff --destroy-data --quiet --purge=auto --size=8M -o "$T/c.json" "$d"
[ "$(json "$T/c.json" '[d["storbench"]["cliff"][k] for k in ("purge", "purge_method", "purge_bytes")]')" = \
	"['sanitize', 'NVMe Sanitize block erase, SANACT 2', 16777216]" ] ||
	fail "cliff recorded: $(json "$T/c.json" 'd["storbench"]["cliff"]')"
ok "cliff --purge=auto: sanitize recorded with its command"

# a device without the command: refused by name, nothing sent, exit 2
write_pattern
pts_purge 2 format NVMEEMU_OACS=0
grep -q -- "--purge=format: NVMe '$d' does not support Format NVM (Identify Controller OACS bit 1 clear" "$T/err" ||
	{ cat "$T/err"; fail "no format support"; }
pts_purge 2 sanitize NVMEEMU_SANICAP=0
grep -q -- "--purge=sanitize: NVMe '$d' does not support sanitize (Identify Controller SANICAP 0x0" "$T/err" ||
	{ cat "$T/err"; fail "no sanitize support"; }
grep -q "^admin 0x8[04]" "$NVMEEMU_LOG" && fail "a device without the command got it: $(cmds)"
is_pattern || fail "a refused purge changed the device"
ok "no Format NVM (OACS) or no sanitize (SANICAP): exit 2 naming the option, nothing sent, pattern intact"

# a device that answers an error status: exit 3, the command and the status named
for c in "format 0x2 Format NVM (CDW10 0x200): Invalid Field in Command (status 0x002)" \
	"format 0x4286 Format NVM (CDW10 0x200): Access Denied (status 0x286)" \
	"format 0x84 Format NVM (CDW10 0x200): Format In Progress (status 0x084)" \
	"sanitize 0x1d Sanitize (block erase, CDW10 0xa): Sanitize In Progress (status 0x01d)"; do
	set -- $c
	what=$1 st=$2
	shift 2
	pts_purge 3 "$what" NVMEEMU_REFUSE="$what" NVMEEMU_STATUS="$st"
	grep -qF -- "--purge=$what: '$d' refused $*" "$T/err" || { cat "$T/err"; fail "status $st"; }
	is_pattern || fail "status $st: the device changed"
done
run_purge 3 NVMEEMU_REFUSE=identify NVMEEMU_STATUS=0x2
grep -qF -- "--purge=auto: '$d' refused Identify Controller: Invalid Field in Command" "$T/err" ||
	{ cat "$T/err"; fail "auto: refused identify"; }
is_pattern || fail "a refused identify: the device changed"
ok "error statuses (Invalid Field, Access Denied, Format/Sanitize In Progress, on Identify too): exit 3, pattern intact"

# a sanitize that ends failed (SSTAT 3): an error
pts_purge 3 sanitize NVMEEMU_SANITIZE_FAIL=1 NVMEEMU_POLLS=2
grep -q -- "--purge=sanitize: the block erase sanitize of '$d' failed (Sanitize Status log: SSTAT 3" "$T/err" ||
	{ cat "$T/err"; fail "failed sanitize"; }
is_pattern || fail "a failed sanitize: the device changed"
[ "$(grep -c "^$SANLOG" "$NVMEEMU_LOG")" = 3 ] || fail "the log was read $(grep -c "^$SANLOG" "$NVMEEMU_LOG") times"
ok "a sanitize that fails (Sanitize Status log): exit 3"

# another namespace on the controller: no sanitize (it would erase it too);
# auto formats the target namespace only; an all-namespace format refused
pts_purge 2 sanitize NVMEEMU_NSLIST=1,2
grep -q -- "--purge=sanitize: a Sanitize erases every namespace.*has namespace 2 too: refused" "$T/err" ||
	{ cat "$T/err"; fail "sanitize with another namespace"; }
pts_purge 2 format NVMEEMU_NSLIST=1,2 NVMEEMU_FNA=0x1
grep -q -- "--purge=format: the device formats every namespace at once (Identify Controller FNA 0x01).*has namespace 2 too" "$T/err" ||
	{ cat "$T/err"; fail "format of all namespaces"; }
is_pattern || fail "a refused purge changed the device"
run_purge 0 NVMEEMU_NSLIST=1,2
[ "$(cmds)" = "$ID $NSLIST admin 0x80 nsid=0x1 cdw10=0x200 " ] || fail "auto with two namespaces sent: $(cmds)"
is_zero || fail "auto with two namespaces: the format left data"
ok "a second namespace: sanitize and an all-namespace format refused (exit 2); auto formats namespace 1"

# the node is a part of the namespace (a partition, a mapping: the
# namespace is twice the device here): format and sanitize refused, auto
# stays with the discards
write_pattern
for m in format sanitize; do
	pts_purge 2 $m NVMEEMU_NSZE=65536
	grep -q -- "--purge=$m: '$d' holds 16777216 bytes, its NVMe namespace 1 65536 LBAs of 512 bytes: a part of the namespace" "$T/err" ||
		{ cat "$T/err"; fail "$m of a part of the namespace"; }
done
grep -q "^admin 0x8[04]" "$NVMEEMU_LOG" && fail "a part of a namespace got: $(cmds)"
is_pattern || fail "a part of a namespace: the device changed"
run_purge 0 NVMEEMU_NSZE=65536
grep -q "^admin 0x8[04]" "$NVMEEMU_LOG" && fail "auto on a part of a namespace sent: $(cmds)"
case "$(run_recorded)" in
"('discard', 'BLKDISCARD')" | "('secure-discard', 'BLKSECDISCARD')") ;;
*) fail "auto on a part of a namespace: $(run_recorded)" ;;
esac
ok "a node smaller than its namespace: format and sanitize refused (exit 2), auto discards"

# the plain device, no preload: format is NVMe's
write_pattern
expect_exit 2 "$SB" pts --destroy-data --quiet --purge=format "$d"
grep -q -- "--purge=format: '$d' is no NVMe namespace" "$T/err" || { cat "$T/err"; fail "plain loop format"; }
is_pattern || fail "a refused format changed the plain device"
ok "format of a device that is no NVMe: refused by name (exit 2)"

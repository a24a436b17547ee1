# ATA purges on a drive emulated by tests/preload/ataemu.so over a loop
# device of the test's own (no ATA drive here): pts --purge=secure-erase
# sends IDENTIFY, SECURITY SET PASSWORD, ERASE PREPARE, ERASE UNIT
# (enhanced where the drive has it), IDENTIFY, and the drive ends with
# security disabled and reads zero; --purge=sanitize sends SANITIZE DEVICE
# BLOCK ERASE EXT (else CRYPTO SCRAMBLE EXT) with its key and polls SANITIZE
# STATUS EXT; auto (run --precondition=purge, cliff --purge=auto) takes
# sanitize > secure-erase > the block layer's discards; the results record
# the kind done. Refusals: without --destroy-data nothing is sent; a frozen,
# unsupported, password-protected drive is refused after IDENTIFY alone; a
# refused ERASE UNIT is an error after which DISABLE PASSWORD is tried and
# the message says the drive's state. Issue 14.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/ataemu.sh"
d=$(make_loop 16) || skip "no loop device"
ataemu_start "$d"

python3 -c "import sys; sys.stdout.buffer.write(b'\xa5' * (16 << 20))" >"$T/pattern"
write_pattern() { dd if="$T/pattern" of="$d" bs=1M oflag=direct status=none || fail "dd"; }
is_pattern() { cmp -s "$T/pattern" "$d"; }
is_zero() { cmp -s -n $((16 << 20)) /dev/zero "$d"; }
# pts writes only in its active range (the first 25%) and no
# preconditioning: the rest of the device holds what the purge left
short="--test=iops --round-time=0.1s --bs=4k --mix=0/100 --max-rounds=5 --precondition=none --active-range=25 --seed=3"
tail_zero() { cmp -s -i 0:$((4 << 20)) -n $((12 << 20)) /dev/zero "$d"; }
pts_purge() { # EXIT METHOD (EXIT ran: 0 or 1, steady or not)
	ata "$SB" pts --destroy-data --quiet $short --profile=enterprise \
		--purge="$2" --output="$T/pp.json" "$d" >"$T/out" 2>"$T/err"
	got=$?
	case "$1:$got" in
	ran:0 | ran:1 | 2:2 | 3:3) ;;
	*) cat "$T/out" "$T/err"; fail "pts --purge=$2 exited $got, expected $1" ;;
	esac
	drop_cache_probe
}
# pts enterprise first reads the write cache (IDENTIFY; these drives have
# none: nothing switched, tests/cli/devcache-nvme-ata.sh): checked, then
# left out of the log so the purge's own commands remain
drop_cache_probe() {
	case "$(head -n 1 "$ATAEMU_LOG")" in
	identify | "not-ata 0x85") ;; # the IDENTIFY, which a SCSI disk refuses
	*) fail "pts did not probe the write cache first: $(ataemu_log)" ;;
	esac
	sed -i 1d "$ATAEMU_LOG"
}
pts_used() { json "$T/pp.json" "[t['purge'] for t in d['storbench']['pts']['tests']]"; }
purge_run() { # EXIT: run --precondition=purge (auto), then a read job
	expect_exit "$1" ata "$SB" run --destroy-data --precondition=purge \
		--rw=read --bs=64k --size=1M --runtime=200ms --time-based --quiet \
		--output="$T/run.json" "$d"
}
sec_enabled() { [ $(($(ataemu_word 128) & 2)) != 0 ]; }
SEQ_ENH="identify,set-password user 'storbench',erase-prepare,erase-unit enhanced 'storbench',identify,"

# consent first: nothing is sent without --destroy-data
write_pattern
ataemu_drive security,enhanced
expect_exit 2 ata "$SB" pts --quiet $short --purge=secure-erase "$d"
grep -q -- "--destroy-data" "$T/err" || { cat "$T/err"; fail "no consent message"; }
[ -z "$(ataemu_log)" ] || fail "commands sent without consent: $(ataemu_log)"
is_pattern || fail "refused, yet the device changed"
ok "without --destroy-data: refused, no command sent, the pattern intact"

# secure-erase, enhanced
pts_purge ran secure-erase
[ "$(ataemu_log)" = "$SEQ_ENH" ] || fail "pts --purge=secure-erase sent: $(ataemu_log)"
tail_zero || fail "secure-erase left data on the drive"
[ "$(pts_used)" = "['secure-erase (ATA enhanced)']" ] || fail "recorded: $(pts_used)"
sec_enabled && fail "the drive ends with security enabled (word 128 $(ataemu_word 128))"
ok "pts --purge=secure-erase: $SEQ_ENH the drive reads zero, security disabled, recorded"

# auto on a drive with security only (normal erase): run --precondition=purge
write_pattern
ataemu_drive security
purge_run 0
[ "$(ataemu_log)" = "identify,set-password user 'storbench',erase-prepare,erase-unit normal 'storbench',identify," ] ||
	fail "auto sent: $(ataemu_log)"
is_zero || fail "auto (secure-erase normal) left data"
[ "$(json "$T/run.json" "d['storbench']['state']['purge']")" = "secure-erase (ATA normal)" ] ||
	fail "run recorded: $(json "$T/run.json" "d['storbench']['state']")"
sec_enabled && fail "security left enabled"
ok "auto on a drive with security only: normal SECURITY ERASE UNIT, zero, recorded"

# sanitize: block erase preferred, polled until done; crypto where alone
write_pattern
ataemu_drive security,enhanced,sanitize,block,crypto
pts_purge ran sanitize
[ "$(ataemu_log)" = "identify,sanitize 0x0012 0x426b4572,sanitize-status,sanitize-status," ] ||
	fail "pts --purge=sanitize sent: $(ataemu_log)"
tail_zero || fail "sanitize left data"
[ "$(pts_used)" = "['sanitize (ATA block erase)']" ] || fail "recorded: $(pts_used)"
write_pattern
ataemu_drive security,enhanced,sanitize,crypto
purge_run 0
[ "$(ataemu_log)" = "identify,sanitize 0x0011 0x43727970,sanitize-status,sanitize-status," ] ||
	fail "auto with crypto scramble only sent: $(ataemu_log)"
is_zero || fail "crypto scramble left data"
[ "$(json "$T/run.json" "d['storbench']['state']['purge']")" = "sanitize (ATA crypto scramble)" ] ||
	fail "run recorded: $(json "$T/run.json" "d['storbench']['state']")"
ok "sanitize: BLOCK ERASE EXT (key BkEr) before CRYPTO SCRAMBLE EXT (Cryp), status polled to done, zero, recorded"

# cliff --purge=auto takes the same and names the command
write_pattern
ataemu_drive security,enhanced
ata "$SB" cliff --destroy-data --quiet --purge=auto --size=4M -o "$T/cliff.json" "$d" \
	>"$T/out" 2>"$T/err" || { cat "$T/out" "$T/err"; fail "cliff --purge=auto exited $?"; }
[ "$(ataemu_log)" = "$SEQ_ENH" ] || fail "cliff --purge=auto sent: $(ataemu_log)"
c=$(json "$T/cliff.json" "(lambda p: (p['purge'], p['purge_method']))(d['storbench']['cliff'])")
[ "$c" = "('secure-erase (ATA enhanced)', 'SECURITY ERASE UNIT (enhanced)')" ] ||
	fail "cliff recorded: $c"
ok "cliff --purge=auto: secure-erase (enhanced), the command recorded"

# refusals before any command that changes the drive: IDENTIFY only
refused_first() { # CAPS METHOD EXIT TEXT
	write_pattern
	ataemu_drive "$1"
	pts_purge "$3" "$2"
	grep -q -- "$4" "$T/err" || { cat "$T/err"; fail "$1 --purge=$2: message"; }
	[ "$(ataemu_log)" = "identify," ] || fail "$1 --purge=$2 sent: $(ataemu_log)"
	is_pattern || fail "$1 --purge=$2 changed the device"
}
refused_first security,enhanced,frozen secure-erase 2 "'$d' has its security frozen.*the BIOS froze it; a suspend/resume usually unfreezes (nothing was sent)"
refused_first "" secure-erase 2 "'$d' does not support the ATA Security feature set"
refused_first security,enabled secure-erase 2 "already has security enabled with a password storbench does not know"
refused_first security,locked secure-erase 2 "'$d' is locked"
refused_first security,expired secure-erase 2 "password count expired"
refused_first security,enhanced sanitize 2 "'$d' is an ATA drive without SANITIZE BLOCK ERASE or CRYPTO SCRAMBLE"
ok "frozen, unsupported, password set, locked, expired, no sanitize: exit 2 after IDENTIFY alone, pattern intact"

# auto on a frozen drive: no ATA purge possible now, the block layer's discard
write_pattern
ataemu_drive security,enhanced,frozen
purge_run 0
[ "$(ataemu_log)" = "identify," ] || fail "auto on a frozen drive sent: $(ataemu_log)"
p=$(json "$T/run.json" "d['storbench']['state']['purge']")
[ "$p" = discard ] || [ "$p" = secure-discard ] || fail "auto on a frozen drive: $p"
ok "auto on a frozen drive: IDENTIFY only, then $p (recorded)"

# the drive refuses ERASE UNIT: DISABLE PASSWORD tried, the state said
write_pattern
ataemu_drive security,enhanced
export ATAEMU_REFUSE=erase-unit
pts_purge 3 secure-erase
[ "$(ataemu_log)" = "identify,set-password user 'storbench',erase-prepare,erase-unit enhanced 'storbench',disable-password 'storbench'," ] ||
	fail "refused erase unit: sent $(ataemu_log)"
grep -q -- "--purge=secure-erase: '$d' refused SECURITY ERASE UNIT (F4h, enhanced): ATA status 0x51, error 0x04 (ABRT.*SECURITY DISABLE PASSWORD (F6h) then took storbench's password off: security is disabled" "$T/err" ||
	{ cat "$T/err"; fail "refused erase unit: message"; }
sec_enabled && fail "security left enabled after DISABLE PASSWORD"
is_pattern || fail "a refused erase changed the device"
export ATAEMU_REFUSE=erase-unit,disable
pts_purge 3 secure-erase
grep -q "SECURITY DISABLE PASSWORD (F6h) failed too (ATA status 0x51, error 0x04.*left with security enabled and user password 'storbench', and locks at its next power-up" "$T/err" ||
	{ cat "$T/err"; fail "refused erase unit and disable: message"; }
sec_enabled || fail "the emulated drive should hold the password now"
ok "ERASE UNIT refused: exit 3 naming F4h and the error register; DISABLE PASSWORD sent; the message says the drive's state"

# sanitize refused, or failing while it runs
write_pattern
ataemu_drive sanitize,block
export ATAEMU_REFUSE=sanitize
pts_purge 3 sanitize
grep -q -- "'$d' refused SANITIZE DEVICE BLOCK ERASE EXT (B4h/0012h): ATA status 0x51, error 0x04" "$T/err" ||
	{ cat "$T/err"; fail "refused sanitize: message"; }
is_pattern || fail "a refused sanitize changed the device"
ataemu_drive sanitize,block
export ATAEMU_REFUSE=sanitize-status
pts_purge 3 sanitize
grep -q "SANITIZE STATUS EXT after SANITIZE DEVICE BLOCK ERASE EXT (B4h/0012h) says the sanitize failed: ATA status 0x51, error 0x04.*reason 0x01" "$T/err" ||
	{ cat "$T/err"; fail "failed sanitize: message"; }
export ATAEMU_REFUSE=
ok "a refused or failed sanitize: exit 3 naming the command and the error register"

# not an ATA drive: a SCSI disk (ILLEGAL REQUEST), a plain loop (no SG_IO)
write_pattern
ataemu_drive notata
pts_purge 2 secure-erase
grep -q -- "--purge=secure-erase: '$d' is no ATA drive (IDENTIFY DEVICE through SG_IO: SCSI sense key 0x5" "$T/err" ||
	{ cat "$T/err"; fail "not ATA: message"; }
purge_run 0
p=$(json "$T/run.json" "d['storbench']['state']['purge']")
[ "$p" = discard ] || [ "$p" = secure-discard ] || fail "auto on a SCSI disk: $p"
expect_exit 2 "$SB" pts --destroy-data --quiet $short --purge=secure-erase "$d"
grep -q -- "'$d' is no ATA drive" "$T/err" || { cat "$T/err"; fail "plain loop: message"; }
write_pattern
expect_exit 2 "$SB" pts --destroy-data --quiet $short --purge=sanitize "$d"
grep -q -- "'$d' is no eMMC (no EXT_CSD: .*), no NVMe namespace and no ATA drive" "$T/err" || { cat "$T/err"; fail "plain loop sanitize"; }
is_pattern || fail "a refused purge changed the plain device"
ok "no ATA drive: secure-erase refused by name (exit 2), auto takes the block layer's discard"

# a partition: SG_IO on its node would reach the whole drive (the emulator
# answers there, as a kernel would, and makes its sysfs entry say
# "partition"), so an ATA purge is refused with nothing sent, and auto takes
# the block layer's discard of the partition alone
write_pattern
ataemu_drive security,enhanced,sanitize,block,partition
for m in secure-erase sanitize; do
	pts_purge 2 $m
	grep -q -- "--purge=$m: '$d' is a partition, and a sanitize or a secure erase acts on the whole drive" "$T/err" ||
		{ cat "$T/err"; fail "partition --purge=$m: message"; }
done
is_pattern || fail "a refused purge of a partition changed the device"
purge_run 0
[ -z "$(ataemu_log)" ] || fail "commands sent to a partition: $(ataemu_log)"
p=$(json "$T/run.json" "d['storbench']['state']['purge']")
[ "$p" = discard ] || [ "$p" = secure-discard ] || fail "auto on a partition: $p"
ok "a partition: secure-erase and sanitize refused (exit 2), nothing sent; auto took $p"

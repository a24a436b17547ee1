# The volatile write cache of an NVMe controller and of an ATA drive,
# switched with their own commands, on devices emulated by
# tests/preload/nvmeemu.so and ataemu.so over a loop device of the test's
# own (no NVMe or ATA here): info --set-cache=off/on sends Set Features
# Volatile Write Cache (FID 06h, CDW11 WCE) / SET FEATURES 82h/02h and the
# state reads back; without --destroy-data nothing is sent; a device
# without a volatile write cache is refused with nothing sent; a refused
# command is an error (exit 3) that leaves the state. pts
# --profile=enterprise holds the cache off for the run and switches it back
# on after (the log shows off, then on; the results record before, during,
# restored, and no write-cache deviation); without a cache the deviation is
# recorded and nothing is switched. Issue 14.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/nvmeemu.sh"
. "$(dirname "$0")/../lib/ataemu.sh"
d=$(make_loop 16) || skip "no loop device"
nvmeemu_start "$d"
ataemu_start "$d"
# one emulator at a time: each run names its own
NV="NVMe Set Features Volatile Write Cache (FID 06h)"
AT="ATA SET FEATURES write cache (EFh 02h/82h)"
short="--test=iops --round-time=0.1s --bs=4k --mix=0/100 --max-rounds=3 --precondition=none --seed=3"
wc_json() { json "$1" "(lambda w: (w['changed'], w['command'], w['before'], w['during'], w['restored']))(d['storbench']['pts']['conditions']['write_cache'])"; }
cache_dev() { json "$1" "[x for x in d['storbench']['pts']['deviations'] if 'cache' in x]"; }
pts_run() { # WRAPPER [VAR=VALUE...]: pts enterprise, 0 or 1 (steady or not)
	w=$1
	shift
	$w env "$@" "$SB" pts --destroy-data --quiet $short --profile=enterprise --purge=none \
		--output="$T/pts.json" "$d" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "pts ($w $*): exit $rc"; }
}

# ---- NVMe ----
wce() { cat "$NVMEEMU_STATE/vwc" 2>/dev/null || echo unset; }
sets() { grep "^admin 0x09" "$NVMEEMU_LOG" | tr '\n' ,; }
export NVMEEMU_VWC=1
: >"$NVMEEMU_LOG"
expect_exit 2 nvme "$SB" info --set-cache=off "$d"
grep -q "add --destroy-data" "$T/err" || { cat "$T/err"; fail "NVMe: no consent message"; }
[ -z "$(sets)" ] || fail "NVMe: refused, yet sent $(sets)"
[ "$(wce)" = unset ] || fail "NVMe: refused, yet the state is $(wce)"
ok "NVMe --set-cache without --destroy-data: refused, no Set Features"

: >"$NVMEEMU_LOG"
expect_exit 0 nvme "$SB" info --set-cache=off --destroy-data --output="$T/s.json" "$d"
[ "$(wce)" = 0 ] || fail "NVMe: WCE is $(wce) after --set-cache=off"
[ "$(sets)" = "admin 0x09 nsid=0x0 cdw10=0x6 cdw11=0x0," ] || fail "NVMe off sent: $(sets)"
[ "$(nvmeemu_cmds | tr '\n' ,)" = "admin 0x06 nsid=0x0 cdw10=0x1,admin 0x0a nsid=0x0 cdw10=0x6,admin 0x09 nsid=0x0 cdw10=0x6 cdw11=0x0,admin 0x06 nsid=0x0 cdw10=0x1,admin 0x0a nsid=0x0 cdw10=0x6," ] ||
	fail "NVMe off: commands $(nvmeemu_cmds | tr '\n' ,)"
grep -q "^cache set off (it was on) by $NV" "$T/out" || { cat "$T/out"; fail "NVMe: no cache line"; }
[ "$(json "$T/s.json" "(lambda s: (s['state'], s['before'], s['command']))(d['storbench']['info']['set_cache'])")" = "('off', 'on', '$NV')" ] ||
	fail "NVMe set_cache: $(json "$T/s.json" "d['storbench']['info'].get('set_cache')")"
ok "NVMe --set-cache=off: Identify, Get Features, Set Features FID 06h WCE 0, read back, recorded"

: >"$NVMEEMU_LOG"
expect_exit 0 nvme "$SB" info --set-cache=off --destroy-data "$d"
[ -z "$(sets)" ] || fail "NVMe: already off, yet sent $(sets)"
expect_exit 3 nvme env NVMEEMU_REFUSE=setfeatures "$SB" info --set-cache=on --destroy-data "$d"
grep -q "'$d' refused NVMe Set Features Volatile Write Cache (FID 06h) WCE=1: .*(the cache stays off)" "$T/err" ||
	{ cat "$T/err"; fail "NVMe refused"; }
[ "$(wce)" = 0 ] || fail "NVMe: a refused Set Features changed WCE to $(wce)"
: >"$NVMEEMU_LOG"
expect_exit 0 nvme "$SB" info --set-cache=on --destroy-data "$d"
[ "$(wce)" = 1 ] || fail "NVMe: WCE is $(wce) after --set-cache=on"
[ "$(sets)" = "admin 0x09 nsid=0x0 cdw10=0x6 cdw11=0x1," ] || fail "NVMe on sent: $(sets)"
ok "NVMe: already off sends nothing; a refused Set Features is exit 3, state kept; --set-cache=on WCE 1"

: >"$NVMEEMU_LOG"
pts_run nvme
[ "$(sets)" = "admin 0x09 nsid=0x0 cdw10=0x6 cdw11=0x0,admin 0x09 nsid=0x0 cdw10=0x6 cdw11=0x1," ] ||
	fail "NVMe pts sent $(sets) (expected off, then on)"
[ "$(wce)" = 1 ] || fail "NVMe: pts left WCE $(wce)"
[ "$(wc_json "$T/pts.json")" = "(True, '$NV', 'on', 'off', True)" ] || fail "NVMe pts write_cache: $(wc_json "$T/pts.json")"
[ "$(cache_dev "$T/pts.json")" = "[]" ] || fail "NVMe pts: a deviation $(cache_dev "$T/pts.json")"
grep -q "^device cache: switched off by $NV for the run, switched back on after it" "$T/out" ||
	{ cat "$T/out"; fail "NVMe pts text"; }
ok "NVMe pts enterprise: Set Features WCE 0 for the run, WCE 1 after; results and text say it, no deviation"

: >"$NVMEEMU_LOG"
rm -f "$NVMEEMU_STATE/vwc"
expect_exit 2 nvme env NVMEEMU_VWC=0 "$SB" info --set-cache=off --destroy-data "$d"
grep -q "'$d' reports no volatile write cache (NVMe Identify Controller VWC bit 0 clear)" "$T/err" ||
	{ cat "$T/err"; fail "NVMe without VWC"; }
pts_run nvme NVMEEMU_VWC=0
[ -z "$(grep "^admin 0x0[9a]" "$NVMEEMU_LOG")" ] || fail "NVMe without VWC got $(grep "^admin 0x0[9a]" "$NVMEEMU_LOG")"
[ "$(json "$T/pts.json" "d['storbench']['pts']['conditions']['write_cache']['command']")" = None ] ||
	fail "NVMe without VWC: a command recorded"
[ "$(cache_dev "$T/pts.json")" != "[]" ] || fail "NVMe without VWC: no deviation recorded (kernel says write back)"
ok "NVMe without a volatile write cache: --set-cache refused (exit 2), pts sends nothing and records the deviation"

# a refused Set Features at the start of pts: an error, as on an eMMC
: >"$NVMEEMU_LOG"
expect_exit 3 nvme env NVMEEMU_REFUSE=setfeatures "$SB" pts --destroy-data --quiet $short --profile=enterprise --purge=none "$d"
grep -q "'$d' refused NVMe Set Features Volatile Write Cache (FID 06h) WCE=0" "$T/err" || { cat "$T/err"; fail "NVMe pts refused"; }
[ "$(wce)" = unset ] || [ "$(wce)" = 1 ] || fail "NVMe: refused, yet WCE $(wce)"
ok "NVMe pts whose Set Features is refused: exit 3 naming the command, the cache left on"
unset NVMEEMU_VWC

# ---- ATA ----
word85() { echo $(($(ataemu_word 85) & 32)); }
feats() { grep "^set-features" "$ATAEMU_LOG" | tr '\n' ,; }
ataemu_drive wcache,wcache-on
expect_exit 2 ata "$SB" info --set-cache=off "$d"
grep -q "add --destroy-data" "$T/err" || { cat "$T/err"; fail "ATA: no consent message"; }
[ -z "$(feats)" ] || fail "ATA: refused, yet sent $(feats)"
ok "ATA --set-cache without --destroy-data: refused, no SET FEATURES"

: >"$ATAEMU_LOG"
expect_exit 0 ata "$SB" info --set-cache=off --destroy-data --output="$T/s.json" "$d"
[ "$(word85)" = 0 ] || fail "ATA: word 85 bit 5 still set after --set-cache=off"
[ "$(ataemu_log)" = "identify,set-features 0x82,identify," ] || fail "ATA off sent: $(ataemu_log)"
grep -q "^cache set off (it was on) by $AT" "$T/out" || { cat "$T/out"; fail "ATA: no cache line"; }
[ "$(json "$T/s.json" "(lambda s: (s['state'], s['before'], s['command']))(d['storbench']['info']['set_cache'])")" = "('off', 'on', '$AT')" ] ||
	fail "ATA set_cache: $(json "$T/s.json" "d['storbench']['info'].get('set_cache')")"
ok "ATA --set-cache=off: IDENTIFY, SET FEATURES 82h, IDENTIFY (word 85 bit 5 clear), recorded"

: >"$ATAEMU_LOG"
expect_exit 3 ata env ATAEMU_REFUSE=set-features "$SB" info --set-cache=on --destroy-data "$d"
grep -q "'$d' refused ATA SET FEATURES enable write cache (EFh 02h): ATA status 0x51, error 0x04.*(the cache stays off)" "$T/err" ||
	{ cat "$T/err"; fail "ATA refused"; }
[ "$(word85)" = 0 ] || fail "ATA: a refused SET FEATURES changed word 85"
: >"$ATAEMU_LOG"
expect_exit 0 ata "$SB" info --set-cache=on --destroy-data "$d"
[ "$(word85)" = 32 ] || fail "ATA: word 85 bit 5 clear after --set-cache=on"
[ "$(ataemu_log)" = "identify,set-features 0x02,identify," ] || fail "ATA on sent: $(ataemu_log)"
ok "ATA: a refused SET FEATURES is exit 3, state kept; --set-cache=on: SET FEATURES 02h, word 85 bit 5 set"

: >"$ATAEMU_LOG"
pts_run ata
[ "$(feats)" = "set-features 0x82,set-features 0x02," ] || fail "ATA pts sent $(feats) (expected off, then on)"
[ "$(word85)" = 32 ] || fail "ATA: pts left the cache off"
[ "$(wc_json "$T/pts.json")" = "(True, '$AT', 'on', 'off', True)" ] || fail "ATA pts write_cache: $(wc_json "$T/pts.json")"
[ "$(cache_dev "$T/pts.json")" = "[]" ] || fail "ATA pts: a deviation $(cache_dev "$T/pts.json")"
grep -q "^device cache: switched off by $AT for the run, switched back on after it" "$T/out" ||
	{ cat "$T/out"; fail "ATA pts text"; }
ok "ATA pts enterprise: SET FEATURES 82h for the run, 02h after; results and text say it, no deviation"

ataemu_drive security
expect_exit 2 ata "$SB" info --set-cache=off --destroy-data "$d"
grep -q "'$d' reports no volatile write cache (ATA IDENTIFY word 82 bit 5 clear)" "$T/err" ||
	{ cat "$T/err"; fail "ATA without a write cache"; }
pts_run ata
[ -z "$(feats)" ] || fail "ATA without a write cache got $(feats)"
[ "$(cache_dev "$T/pts.json")" != "[]" ] || fail "ATA without a write cache: no deviation recorded"
ok "ATA without a write cache: --set-cache refused (exit 2), pts sends nothing and records the deviation"

# neither: the plain loop device
expect_exit 2 "$SB" info --set-cache=off --destroy-data "$d"
grep -q "'$d' is no eMMC, NVMe or ATA device.*storbench switches the cache of an eMMC, NVMe or ATA device only" "$T/err" ||
	{ cat "$T/err"; fail "plain device"; }
ok "a device that is none of them: refused, the message names the kinds"

#!/bin/sh
# storbench spo against a device with a volatile write cache (volfs): the
# writer and the device are killed mid-run (SIGKILL: the power cut), the
# device comes back with what it persisted, and --check must find
#  - honest flushes: no acknowledged write lost (exit 0);
#  - flushes ignored for one range: lost-acked blocks, all of them inside
#    that range, and every slot there whose last write was acknowledged.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/volfs.sh"

MB=1048576
# slots the journal acknowledged a write to inside [lo, hi): the truth
acked_slots_in() {
	python3 - "$1" "$2" "$3" <<'PY'
import sys
lo, hi = int(sys.argv[2]), int(sys.argv[3])
off, acked = {}, set()
for line in open(sys.argv[1]):
    f = line.split()
    if not line.endswith("\n"): break
    if f[0] == "I": off[f[1]] = int(f[2])
    if f[0] == "A": acked.add(off[f[1]])
print(sum(1 for o in acked if lo <= o < hi))
PY
}

acks() { cat "$1" 2>/dev/null | grep -c '^A'; }

# run MODE IODEPTH NAME: write until the cut, remount honest, check
run() {
	vf_start "$1"
	truncate -s $((4 * MB)) "$VF_BACK/disk.img" || fail "truncate"
	"$SB" spo --destroy-data --quiet --iodepth="$2" --journal="$T/$3.j" "$VF_MNT/disk.img" \
		2>"$T/$3.err" &
	W=$!
	# the cut comes once the run is well under way
	i=0
	while [ "$(acks "$T/$3.j")" -lt 150 ] && [ $i -lt 600 ]; do
		kill -0 $W 2>/dev/null || { cat "$T/$3.err"; fail "$3: the writer stopped by itself"; }
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 $W
	vf_cut
	wait $W 2>/dev/null
	[ "$(acks "$T/$3.j")" -ge 150 ] || fail "$3: too few writes before the cut"
	vf_start honest
	"$SB" spo --check --journal="$T/$3.j" --output="$T/$3.json" "$VF_MNT/disk.img" \
		>"$T/$3.out" 2>&1
	RC=$?
	fusermount3 -u "$VF_MNT"
	wait "$VF_PID" 2>/dev/null
	VF_PID=
	rm -rf "$VF_BACK"
}

run honest 1 honest
[ $RC = 0 ] || { cat "$T/honest.out"; fail "honest device: check exited $RC"; }
[ "$(json "$T/honest.json" "d['storbench']['spo']['classes']['lost-acked']")" = 0 ] ||
	fail "honest device: lost-acked blocks"
[ "$(json "$T/honest.json" "d['storbench']['spo']['classes']['ok']")" -gt 64 ] ||
	fail "honest device: no ok block beyond the canary"
grep -q "verdict: pass" "$T/honest.out" || fail "honest: no pass verdict"
ok "honest flushes: every acknowledged write read back after the cut"

run honest 4 honest4
[ $RC = 0 ] || { cat "$T/honest4.out"; fail "honest device, iodepth 4: check exited $RC"; }
ok "honest flushes, 4 writers: every acknowledged write read back"

LO=$MB HI=$((2 * MB))
run "lying:$LO:$MB" 1 lying
[ $RC = 1 ] || { cat "$T/lying.out"; fail "lying device: check exited $RC, expected 1"; }
want=$(acked_slots_in "$T/lying.j" $LO $HI)
got=$(json "$T/lying.json" "d['storbench']['spo']['classes']['lost-acked']")
[ "$want" -gt 0 ] || fail "lying: no acknowledged write landed in the lying range"
[ "$got" = "$want" ] || fail "lying: $got lost-acked blocks, expected $want (acknowledged slots in the range)"
outside=$(json "$T/lying.json" "sum(1 for r in d['storbench']['spo']['ranges'] if r['class'] == 'lost-acked' and not ($LO <= r['offset'] and r['offset'] + r['length'] <= $HI))")
[ "$outside" = 0 ] || fail "lying: lost-acked ranges outside the range that lied"
lost_out=$(json "$T/lying.json" "sum(1 for l in d['storbench']['spo']['lost_acked'] if not $LO <= l['offset'] < $HI)")
[ "$lost_out" = 0 ] || fail "lying: lost writes listed outside the range"
grep -q "ignores flush" "$T/lying.out" || fail "lying: no recommendation about ignored flushes"
ok "lying flushes: $got lost-acked blocks, all in the range that lied, none elsewhere"

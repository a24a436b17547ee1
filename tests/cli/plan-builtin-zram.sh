#!/bin/sh
# The built-in plans for whole devices on a zram device of the test's own,
# each by name with --destroy-data, scaled down with --set (sizes, run
# times, rounds, the idle wait): sd-card (fake capacity, geometry, speed,
# cliff) passes; ssd-pts runs its three PTS tests and judges their steady
# state; tlc-states measures every state, its cache steps (optional)
# skipped on a device that has no cache to switch, the verdict PASS;
# emmc-stability on ext4 on a second zram device of its own.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/emmc-plan.sh"

cd "$T" || fail "cd"
dev=$(make_zram 64M)

expect_exit 0 "$SB" plan --quiet --destroy-data sd-card "$dev" -o "$T/sd.json" \
	--set speed.size=16M --set speed.runtime=200ms --set speed.repeat=1 \
	--set cliff.recovery=100ms --set geometry.erase-size=1M --set geometry.offset=4M \
	--set geometry.max-au=2 --set geometry.count=2
head -1 "$T/out" | grep -q "^PASS: sd-card (10 of 10 criteria passed)$" || { cat "$T/out"; fail "sd-card"; }
grep -q "^capacity  *result  *pass  *== pass  *pass$" "$T/out" || { cat "$T/out"; fail "sd-card: the capacity probe"; }
grep -q "^speed  *SEQ1M-Q8T1.write.bw  .*>= 10MB/s  *pass$" "$T/out" || { cat "$T/out"; fail "sd-card: speed class"; }
ok "sd-card on zram"

"$SB" plan --quiet --destroy-data ssd-pts "$dev" -o "$T/pts.json" \
	--set pts.round-time=100ms --set pts.max-rounds=5 --set pts.iodepth=4 \
	--set pts.precondition=none --set pts.bs=4k,1024k >"$T/out" 2>"$T/err"
rc=$?
# steady state in 5 rounds of 100 ms is zram's to reach or not: 0 or 1
[ $rc = 0 ] || [ $rc = 1 ] || { cat "$T/out" "$T/err"; fail "ssd-pts exited $rc"; }
for s in iops throughput latency; do
	grep -q "^$s  *status  *\(pass\|fail\)  *== pass  *\(pass\|FAIL\)$" "$T/out" || { cat "$T/out"; fail "ssd-pts: $s did not run"; }
done
grep -q "^iops  *iops.steady_state.reached  *\(true\|false\)  *== true" "$T/out" || { cat "$T/out"; fail "ssd-pts: iops steady state"; }
json "$T/pts.json" "[s['state'] for s in d['plan']['steps']] == ['done'] * 3" | grep -q True || fail "ssd-pts: steps in JSON"
ok "ssd-pts on zram"

expect_exit 0 "$SB" plan --quiet --destroy-data tlc-states "$dev" -o "$T/tlc.json" \
	--set quick.size=16M --set quick.runtime=100ms --set quick.repeat=1 --set after-idle.wait=50ms
head -1 "$T/out" | grep -q "^PASS: tlc-states (10 of 12 criteria passed, 2 skipped: optional steps that could not run)$" || { cat "$T/out"; fail "tlc-states"; }
grep -q "^\[cache-off\] skipped (optional): its command ended with exit code 2: " "$T/out" || { cat "$T/out"; fail "tlc-states: the cache step skipped"; }
json "$T/tlc.json" "[s['state'] for s in d['plan']['steps']] == ['done'] * 3 + ['skipped', 'done', 'skipped', 'done'] and d['plan']['criteria_skipped'] == 2" | grep -q True || fail "tlc-states: JSON"
for s in fresh full discarded; do
	[ -s "$T/tlc-states-plan/$s.json" ] || fail "tlc-states: no $s result"
done
json "$T/tlc-states-plan/full.json" "d['storbench']['state']['name']" >"$T/state"
grep -qx "full" "$T/state" || { cat "$T/state"; fail "tlc-states: the full state in its result"; }
ok "tlc-states on zram"

# emmc-stability on a file system of a zram device of its own (ext4, the
# test's mount): the iozone matrix before and after, the dd loop between
fs=$(make_zram 128M)
mkfs.ext4 -q -F "$fs" || fail "mkfs.ext4 $fs"
mkdir "$T/mnt"
trap 'unmount "$T/mnt"; cleanup' EXIT INT TERM
mount "$fs" "$T/mnt" || fail "mount $fs"
mkdir "$T/mnt/card"
emmc_stability "$T/mnt/card"
unmount "$T/mnt"
ok "emmc-stability on ext4 on zram"

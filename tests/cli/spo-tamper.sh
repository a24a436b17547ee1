#!/bin/sh
# storbench spo --check on a plain file tampered with after a clean run,
# each change a known truth: the region restored to its content before the
# run -> lost-acked there and nowhere else; blocks of another run (or of
# this one) at addresses they were not written for -> misdirected; another
# run's block at its own address -> old content, lost-acked; flipped bits ->
# corrupt; one write half old, half new -> torn (passes with --allow-torn
# of half the write); the canary changed -> collateral; the file cut short
# -> lost-acked past its end (collateral in the canary), and a file of
# another run cut short refused as another target.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

K=1024
BS=4096
SIZE=$((512 * K))

# slots FILE.j: "offset seq acked" of each slot's last write, by offset
slots() {
	awk '$1 == "I" { last[$3] = $2 } $1 == "A" { ack[$2] = 1 }
	     END { for (o in last) print o, last[o], (last[o] in ack) ? 1 : 0 }' "$1" | sort -n
}
# copy_block FILE1 OFF1 FILE2 OFF2 LEN (offsets and LEN multiples of 512)
copy_block() {
	dd if="$1" of="$3" bs=512 skip=$(($2 / 512)) seek=$(($4 / 512)) count=$(($5 / 512)) \
		conv=notrunc status=none || fail "dd"
}
zero() { copy_block /dev/zero 0 "$1" "$2" "$3"; }
# flip FILE OFF: one bit of the byte at OFF
flip() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((b ^ 16)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
cls() { json "$1" "d['storbench']['spo']['classes']['$2']"; }
# check NAME FILE JOURNAL WANT_RC [options]: --check into NAME.json
check() {
	n=$1 f=$2 j=$3 rc=$4
	shift 4
	"$SB" spo --check --journal="$j" --output="$T/$n.json" "$@" "$f" >"$T/$n.out" 2>&1
	got=$?
	[ $got = "$rc" ] || { cat "$T/$n.out"; fail "$n: check exited $got, expected $rc"; }
}
# only NAME CLASS N [ALSO]: CLASS has N blocks, every other class but ok
# (and ALSO) none
only() {
	got=$(json "$T/$1.json" "(d['storbench']['spo']['classes']['$2'], sorted(k for k, v in d['storbench']['spo']['classes'].items() if v and k not in ('ok', '$2', '${4:-ok}')))")
	[ "$got" = "($3, [])" ] || { cat "$T/$1.out"; fail "$1: found (count of $2, other classes) $got, expected $3 $2 only"; }
}

write_run() { # FILE JOURNAL SEED [options]
	f=$1 j=$2 s=$3
	shift 3
	truncate -s $SIZE "$f" || fail truncate
	"$SB" spo --destroy-data --quiet --seed="$s" --bs=$BS --canary=$((64 * K)) --rw=randwrite \
		--duration=2s --journal="$j" "$@" "$f" 2>"$T/write.err" ||
		{ cat "$T/write.err"; fail "the writer failed"; }
}

write_run "$T/a.img" "$T/a.j" 1
slots "$T/a.j" >"$T/a.slots"
[ "$(wc -l <"$T/a.slots")" -ge 8 ] || fail "too few slots written: $(wc -l <"$T/a.slots")"
[ "$(awk '$3 == 0' "$T/a.slots" | wc -l)" = 0 ] || fail "a clean end left writes unacknowledged"
check clean "$T/a.img" "$T/a.j" 0
only clean ok "$(json "$T/clean.json" "d['storbench']['spo']['blocks']")"
ok "untouched: every block ok"

# the region [256K, 384K) back to what it held before the run (zeros)
cp "$T/a.img" "$T/r.img"
zero "$T/r.img" $((256 * K)) $((128 * K))
want=$(awk -v lo=$((256 * K)) -v hi=$((384 * K)) '$1 >= lo && $1 < hi' "$T/a.slots" | wc -l)
[ "$want" -gt 0 ] || fail "no slot written in the restored region"
check restored "$T/r.img" "$T/a.j" 1
only restored lost-acked "$want"
outside=$(json "$T/restored.json" "sum(1 for r in d['storbench']['spo']['ranges'] if not ($((256 * K)) <= r['offset'] and r['offset'] + r['length'] <= $((384 * K))))")
[ "$outside" = 0 ] || fail "restored: ranges outside the restored region"
ok "region restored to its old content: $want lost-acked blocks, all inside it"

# another run's blocks
write_run "$T/b.img" "$T/b.j" 2
slots "$T/b.j" >"$T/b.slots"
Y=$(awk 'NR == 1 { print $1 }' "$T/a.slots")
X=$(awk -v y="$Y" '$1 != y { print $1; exit }' "$T/b.slots")
cp "$T/a.img" "$T/m.img"
copy_block "$T/b.img" "$X" "$T/m.img" "$Y" $BS
check foreign "$T/m.img" "$T/a.j" 1
only foreign misdirected 1
[ "$(json "$T/foreign.json" "d['storbench']['spo']['ranges'][0]['offset']")" = "$Y" ] || fail "foreign: misdirected at the wrong offset"
ok "another run's block at another address: misdirected at $Y"

# this run's block copied to another slot
Y2=$(awk 'NR == 2 { print $1 }' "$T/a.slots")
cp "$T/a.img" "$T/m2.img"
copy_block "$T/a.img" "$Y" "$T/m2.img" "$Y2" $BS
check moved "$T/m2.img" "$T/a.j" 1
only moved misdirected 1
ok "this run's block at another address: misdirected"

# another run's block at its own address: the content before this run
Z=$(awk 'NR == FNR { b[$1] = 1; next } ($1 in b) { print $1; exit }' "$T/b.slots" "$T/a.slots")
if [ -n "$Z" ]; then
	cp "$T/a.img" "$T/o.img"
	copy_block "$T/b.img" "$Z" "$T/o.img" "$Z" $BS
	check oldrun "$T/o.img" "$T/a.j" 1
	only oldrun lost-acked 1
	ok "another run's block at its own address: old content, lost-acked"
fi

# bits flipped in a payload
cp "$T/a.img" "$T/c.img"
flip "$T/c.img" $((Y + 1000))
check flipped "$T/c.img" "$T/a.j" 1
only flipped corrupt 1
ok "a flipped bit: corrupt"

# the canary changed
cp "$T/a.img" "$T/k.img"
flip "$T/k.img" 5000
check canary "$T/k.img" "$T/a.j" 1
only canary collateral 1
grep -q "canary region" "$T/canary.out" || fail "canary: no recommendation"
ok "the canary changed: collateral"

# half of an acknowledged write back to old content: lost, not torn
cp "$T/a.img" "$T/h.img"
zero "$T/h.img" $((Y + 2048)) 2048
check halfacked "$T/h.img" "$T/a.j" 1
only halfacked lost-acked 1
ok "half of an acknowledged write old: lost-acked"

# torn: with --sync=none nothing is acknowledged, so old and new are both
# fine for every slot, but not half and half within one write
write_run "$T/n.img" "$T/n.j" 3 --sync=none
slots "$T/n.j" >"$T/n.slots"
W=$(awk 'NR == 1 { print $1 }' "$T/n.slots")
check none "$T/n.img" "$T/n.j" 0
zero "$T/n.img" $((W + 2048)) 2048
check torn "$T/n.img" "$T/n.j" 1
only torn torn 1 ok-unacked
grep -q "allow-torn" "$T/torn.out" || fail "torn: no recommendation"
check torn-allowed "$T/n.img" "$T/n.j" 0 --allow-torn=2048
[ "$(json "$T/torn-allowed.json" "d['storbench']['spo']['torn_allowed']")" = 1 ] || fail "torn-allowed: not counted"
check torn-4k "$T/n.img" "$T/n.j" 1 --allow-torn=4096
ok "a write half old, half new: torn; passes with --allow-torn=2048, not 4096"

# the file lost its tail (its size did not survive): checked as far as it
# goes, what was past its end is old content, so every acknowledged write
# there is lost-acked, range by range, and the rest is ok
cp "$T/a.img" "$T/t.img"
truncate -s $((384 * K)) "$T/t.img"
want=$(awk -v lo=$((384 * K)) '$1 >= lo' "$T/a.slots" | wc -l)
[ "$want" -gt 0 ] || fail "no slot written past 384 KiB"
check truncated "$T/t.img" "$T/a.j" 1
only truncated lost-acked "$want"
[ "$(json "$T/truncated.json" "d['storbench']['spo']['target_size']")" = $((384 * K)) ] ||
	fail "truncated: target_size $(json "$T/truncated.json" "d['storbench']['spo']['target_size']")"
[ "$(json "$T/truncated.json" "d['storbench']['spo']['missing_blocks']")" = "$want" ] ||
	fail "truncated: missing_blocks"
inside=$(json "$T/truncated.json" "sum(1 for r in d['storbench']['spo']['ranges'] if r['offset'] >= $((384 * K)))")
[ "$inside" = "$(json "$T/truncated.json" "len(d['storbench']['spo']['ranges'])")" ] ||
	fail "truncated: a range before the end"
grep -q "^target: ends at $((384 * K))" "$T/truncated.out" || fail "truncated: $(cat "$T/truncated.out")"
grep -q "ignores flush" "$T/truncated.out" && fail "truncated: blamed the flush for the lost tail"
ok "a file cut at 384 KiB: its $want slots past the end lost-acked, the rest ok"

# cut inside the canary: the canary's lost half is collateral
cp "$T/a.img" "$T/t2.img"
truncate -s $((32 * K)) "$T/t2.img"
check truncated2 "$T/t2.img" "$T/a.j" 1
[ "$(cls "$T/truncated2.json" collateral)" = 8 ] || fail "canary cut: $(cls "$T/truncated2.json" collateral) collateral"
[ "$(cls "$T/truncated2.json" lost-acked)" = "$(wc -l <"$T/a.slots")" ] || fail "canary cut: lost-acked"
ok "a file cut inside the canary: the rest of the canary collateral, every slot lost-acked"

# another run's target cut short holds no block of this run: refused
cp "$T/b.img" "$T/t3.img"
truncate -s $((384 * K)) "$T/t3.img"
check other "$T/t3.img" "$T/a.j" 2
grep -q "holds blocks of run 0000000000000002" "$T/other.out" || fail "other: $(cat "$T/other.out")"
ok "another run's file cut short is refused as another target"

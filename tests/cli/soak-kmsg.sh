# Kernel messages fail a soak only when they are about the target's own
# devices: a line about another loop device (one this test made) is listed
# as "other devices" in the text, the log, the results (-o) and the report,
# and the soak passes; a line about the soak's own loop device (and an
# ext4 error of a filesystem on it) fails it. Only lines naming the
# devices this test made are sent, so soaks running beside it are not
# disturbed, and lines about theirs do not disturb it.
# needs: root loop kmsg
. "$SB_TOP/tests/lib/cli.sh"

[ "$(id -u)" = 0 ] || skip "needs root for loop devices and to write /dev/kmsg"
[ -w /dev/kmsg ] && [ -r /dev/kmsg ] || skip "/dev/kmsg cannot be written and read here"

loop_over() { # NAME SIZE_MB: a loop device over a new file in $T
	truncate -s "${2}M" "$T/$1.img" || fail "truncate"
	lo=$(losetup -f --show "$T/$1.img" 2>/dev/null) || skip "no loop device available"
	echo "$lo" >>"$T/.loops"
	echo "$lo"
}
mine=$(loop_over mine 16)
other=$(loop_over other 4)
m=${mine#/dev/}
o=${other#/dev/}

# soak LOG LINE...: a soak of $mine; once its first iteration is logged,
# each LINE goes to the kernel's log, during the pause before the next
soak() {
	log=$1
	shift
	"$SB" soak --iterations=3 --idle=1s --destroy-data --log="$T/$log.jsonl" \
		--output="$T/$log.json" "$mine" >"$T/$log.out" 2>"$T/$log.err" &
	pid=$!
	wait_until 60 grep -q '"type":"iteration"' "$T/$log.jsonl" ||
		{ kill $pid; cat "$T/$log.out" "$T/$log.err"; fail "$log: no iteration in 60 s"; }
	for l in "$@"; do
		echo "storbench-test: $l" >/dev/kmsg
	done
	wait $pid
}

soak other "blk_update_request: I/O error, dev $o, sector 8 op 0x1:(WRITE) flags 0x0" \
	"EXT4-fs error (device $o): ext4_lookup:1707: inode #2: comm du: bad extra_isize"
rc=$?
[ $rc = 0 ] || { cat "$T/other.out" "$T/other.err"; fail "another device's lines: exit $rc, expected 0"; }
grep -q '^soak: 3 iterations, 0 failed: PASS$' "$T/other.out" || { cat "$T/other.out"; fail "other: verdict"; }
grep -q "^  2 kernel messages about other devices (not the target's: not counted):$" "$T/other.out" &&
	grep -q "^    $o: 2, first: storbench-test: blk_update_request: I/O error, dev $o," "$T/other.out" ||
	{ cat "$T/other.out"; fail "other: the text does not list them"; }
python3 - "$T/other.jsonl" "$T/other.json" "$o" <<'PY' || fail "other: log and results"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
its = [l for l in lines if l['type'] == 'iteration']
assert all(not i['kmsg'] and not i['failed'] for i in its), its
other = [k for i in its for k in i.get('kmsg_other', [])]
assert len(other) == 2 and all(k['device'] == sys.argv[3] for k in other), other
s = lines[-1]
assert s['verdict'] == 'pass' and s['kmsg_lines'] == 0 and s['kmsg_other_lines'] == 2, s
assert s['kmsg_other_devices'][0]['device'] == sys.argv[3], s
r = json.load(open(sys.argv[2]))['storbench']['soak']
assert r['verdict'] == 'pass' and r['kmsg_other_lines'] == 2, r
assert r['kmsg_other_devices'][0]['lines'] == 2, r
PY
expect_exit 0 "$SB" report "$T/other.jsonl"
grep -q '^3 iterations, 0 failed: PASS$' "$T/out" &&
	grep -q "^2 kernel messages about other devices (not the target's: not counted)$" "$T/out" ||
	{ cat "$T/out"; fail "other: the report"; }
ok "lines about another loop device ($o): listed, not counted, PASS"

soak mine "blk_update_request: I/O error, dev $o, sector 8" \
	"blk_update_request: I/O error, dev $m, sector 16 op 0x1:(WRITE) flags 0x0"
rc=$?
[ $rc = 1 ] || { cat "$T/mine.out" "$T/mine.err"; fail "the soak's own device: exit $rc, expected 1"; }
grep -q '^soak: 3 iterations, 1 failed: FAIL$' "$T/mine.out" || { cat "$T/mine.out"; fail "mine: verdict"; }
# the end says which iteration failed and why, not only how many
grep -A1 '^soak: 3 iterations, 1 failed: FAIL$' "$T/mine.out" |
	grep -Eq "^  iteration [23] failed: [a-z-]+: storbench-test: blk_update_request: I/O error, dev $m, sector 16" ||
	{ cat "$T/mine.out"; fail "mine: the failed iteration and why"; }
python3 - "$T/mine.jsonl" "$m" "$o" <<'PY' || fail "mine: the log"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
its = [l for l in lines if l['type'] == 'iteration']
bad = [i for i in its if i['failed']]
assert len(bad) == 1 and [k['device'] for k in bad[0]['kmsg']] == [sys.argv[2]], bad
assert [k['device'] for i in its for k in i.get('kmsg_other', [])] == [sys.argv[3]], its
assert lines[-1]['verdict'] == 'fail' and lines[-1]['kmsg_lines'] == 1, lines[-1]
PY
ok "a line about the soak's own loop device ($m) fails it; the other's is still not counted"

# a filesystem error of the target's own (ext4 on it names the device),
# longer than a record keeps: cut after a whole word, with an ellipsis
long="EXT4-fs error (device $m): ext4_find_entry:1455: inode #2: comm ls: reading directory lblock 0"
long="$long, then a long tail of words that goes past the room a record keeps for a kernel line, so that the soak has to cut it somewhere, which must be after a whole word and never inside one"
soak fs "$long"
rc=$?
[ $rc = 1 ] || { cat "$T/fs.out" "$T/fs.err"; fail "the soak's own filesystem error: exit $rc, expected 1"; }
python3 - "$T/fs.jsonl" "storbench-test: $long" <<'PY' || fail "fs: the long line in the log"
import json, sys
full = sys.argv[2]
k = [k['text'] for l in open(sys.argv[1]) for k in json.loads(l).get('kmsg', [])]
k = [t for t in k if 'storbench-test: EXT4-fs error' in t]
assert len(k) == 1, k
t = k[0]
assert t.endswith('...') and len(t.encode()) < 240, t
body = t[:-3]
at = full.index('storbench-test: ')
assert full[at:].startswith(body) and full[at + len(body)] in ' ,;:', (body[-20:], full[at + len(body):][:5])
PY
ok "an EXT4-fs error naming the soak's device fails it; its long line cut at a word"
exit 0

# A soak killed (SIGKILL) in the middle of an iteration, then resumed:
# - the killed iteration is written anew with a generation no write used
#   before, so on a target that stores nothing (faultfs drops every write)
#   the check finds the killed attempt's data stale, never intact: FAIL,
#   not PASS;
# - the files the killed iteration made in a directory are removed by the
#   resume (the log lists them before they are made), but only when they
#   prove to be the soak's: a file planted under the same name (with
#   storbench's xattr, even) and a symlink under it stay, byte for byte,
#   with a warning naming them.
# faultfs delays the first block of every request for 1.5 s, so the test
# waits until the write reached the data it looks for, and kills then.
# needs: fuse slow
. "$SB_TOP/tests/lib/cli.sh"
. "$SB_TOP/tests/lib/faultfs.sh"
ff_start

# a request on a file's first block waits this long (µs): the window in which
# the test sees iteration 2's data and kills it; 3 s holds on a loaded
# machine (1.5 s was once too short with four tests running)
DELAY=3000000
gen() { # FILE OFFSET: the generation of the verify block there ("" none)
	python3 - "$1" "$2" <<'PY'
import struct, sys
try:
    with open(sys.argv[1], 'rb') as f:
        f.seek(int(sys.argv[2]))
        h = f.read(64)
except OSError:
    sys.exit(0)
if len(h) == 64 and h[:8] == b'SBVERIFY':
    print(struct.unpack_from('<Q', h, 32)[0])
PY
}
all_gen() { # FILE SIZE GEN: every 4 KiB block of the file carries GEN
	python3 - "$@" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
size, g = int(sys.argv[2]), int(sys.argv[3])
ok = len(data) >= size and all(data[o:o + 8] == b'SBVERIFY' and
        struct.unpack_from('<Q', data, o + 32)[0] == g for o in range(0, size, 4096))
sys.exit(0 if ok else 1)
PY
}
count() { grep -c "\"type\":\"$2\"" "$1" 2>/dev/null; }
is_gen() { [ "$(gen "$1" 0)" = "$2" ]; } # FILE GEN: its first block's
logged() { [ "$(count "$1" iteration)" = "$2" ]; } # LOG N: iterations logged
made_gen() { # DIR GEN: a verify file in DIR starts with GEN
	for f in "$1"/.storbench-verify-*.tmp; do is_gen "$f" "$2" && return 0; done
	return 1
}

# ---- a device that stores nothing after the kill: the old data is stale
truncate -s 4M "$FF_BACK/disk.img"
ff_rules "delay disk.img 0 4096 $DELAY"
"$SB" soak --iterations=3 --size=4M --destroy-data --log="$T/r.jsonl" "$FF_MNT/disk.img" \
	>"$T/r.out" 2>&1 &
pid=$!
# iteration 2 has written all of its data (generation 2) and is checking
wait_until 60 logged "$T/r.jsonl" 1 &&
	wait_until 30 all_gen "$FF_BACK/disk.img" 4194304 2 ||
	{ kill -9 $pid; cat "$T/r.out"; fail "iteration 2 did not write in time"; }
kill -9 $pid
wait $pid 2>/dev/null
[ "$(count "$T/r.jsonl" iteration)" = 1 ] || fail "killed too late: iteration 2 was logged"
ff_rules "drop disk.img 0 4194304"
expect_exit 1 "$SB" soak --resume="$T/r.jsonl"
grep -q '^    2  .*verify FAILED (1024 of 1024 blocks)' "$T/out" || { cat "$T/out"; fail "iteration 2 passed"; }
grep -q '^soak: 3 iterations, 2 failed: FAIL$' "$T/out" || { cat "$T/out"; fail "verdict"; }
python3 - "$T/r.jsonl" <<'PY' || fail "the log"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
start = [l for l in lines if l['type'] == 'start']
assert len(start) == 1 and start[0]['iteration'] == 2 and start[0]['generation'] == 3, start
it = {l['iteration']: l for l in lines if l['type'] == 'iteration'}
assert it[2]['generation'] == 3 and it[2]['verify']['stale'] == 1024, it[2]
assert it[2]['verify']['intact'] == 0, it[2]
assert it[3]['generation'] == 4 and it[3]['verify']['stale'] == 1024, it[3]
PY
ok "after SIGKILL in iteration 2, the resumed write (generation 3) finds generation 2 stale on a target that drops writes"
ff_rules

# ---- a directory: the killed iteration's file is removed by the resume
# kill_in_2 DIR LOG: start a soak of $FF_MNT/SOAK, kill it in iteration 2 once
# its file holds generation 2; the file's name in $left
kill_in_2() {
	mkdir -p "$FF_BACK/$1"
	ff_rules "delay * 0 4096 $DELAY"
	"$SB" soak --iterations=3 --size=1M --log="$T/$2.jsonl" "$FF_MNT/$1" >"$T/$2.out" 2>&1 &
	pid=$!
	wait_until 60 logged "$T/$2.jsonl" 1 ||
		{ kill -9 $pid; cat "$T/$2.out"; fail "$1: no iteration 1"; }
	wait_until 30 made_gen "$FF_BACK/$1" 2 ||
		{ kill -9 $pid; cat "$T/$2.out"; fail "$1: iteration 2 wrote nothing"; }
	back=$(ls "$FF_BACK/$1"/.storbench-verify-*.tmp)
	left=$FF_MNT/$1/$(basename "$back")
	kill -9 $pid
	wait $pid 2>/dev/null
	ff_rules
	[ "$(count "$T/$2.jsonl" iteration)" = 1 ] || fail "$1: killed too late"
	[ -f "$back" ] || fail "$1: the killed iteration left no file"
}

kill_in_2 d a
expect_exit 0 "$SB" soak --resume="$T/a.jsonl"
grep -q "^storbench: note: removed '$left', which the soak made before it was stopped$" "$T/err" ||
	{ cat "$T/err"; fail "the removal is not said"; }
# (FUSE renames a file removed while open to .fuse_hidden* until it is closed)
empty() { [ -z "$(ls -A "$1")" ]; }
wait_until 10 empty "$FF_BACK/d" || { ls -la "$FF_BACK/d"; fail "files left"; }
[ "$(count "$T/a.jsonl" iteration)" = 3 ] || fail "the resumed soak did not finish"
ok "the file the killed iteration made is removed by the resume"

# a file of the user's under the name the log lists: its content proves
# nothing of ours, the xattr notwithstanding; it stays, byte for byte
kill_in_2 e b
rm "$back"
head -c 1048576 /dev/urandom >"$back"
python3 -c "import os, sys; os.setxattr(sys.argv[1], 'user.storbench', b'1')" "$back" || fail "xattr"
sum=$(sha256sum <"$back")
expect_exit 0 "$SB" soak --resume="$T/b.jsonl"
grep -q "^storbench: warning: left '$left', a name the soak's log lists: its first block is no verify block" "$T/err" ||
	{ cat "$T/err"; fail "planted file: no warning"; }
[ "$(sha256sum <"$back")" = "$sum" ] || fail "the planted file was changed"
ok "a file planted under the listed name stays, with a warning"

# a symlink under the name, to a copy of the soak's own data: not followed
kill_in_2 f c
cp "$back" "$T/copy"
sum=$(sha256sum <"$T/copy")
rm "$back"
ln -s "$T/copy" "$back"
expect_exit 0 "$SB" soak --resume="$T/c.jsonl"
grep -q "^storbench: warning: left '$left', a name the soak's log lists: it is a symbolic link" "$T/err" ||
	{ cat "$T/err"; fail "symlink: no warning"; }
[ -L "$back" ] && [ "$(sha256sum <"$T/copy")" = "$sum" ] || fail "the symlink or its target was touched"
ok "a symlink under the listed name stays, and what it points to"
exit 0

# Two verify runs on one directory: each writes and checks files of its
# own, so both find a healthy disk healthy. Where they would collide, a
# lock decides: a fill (which takes all the free space) waits for no one
# and is refused while another run writes there; a check leaves alone the
# files of a run still writing, and a fill does not remove them.
# needs: root
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
"$SB" verify --size=96M --quiet --output="$T/a.json" "$T/d" >"$T/a.out" 2>&1 &
a=$!
"$SB" verify --size=96M --quiet --output="$T/b.json" "$T/d" >"$T/b.out" 2>&1 &
b=$!
wait $a; ra=$?
wait $b; rb=$?
[ $ra = 0 ] && [ $rb = 0 ] || fail "two runs at once: exit $ra and $rb: $(cat "$T/a.out" "$T/b.out")"
for r in a b; do
	[ "$(json "$T/$r.json" "d['storbench']['verify']['intact']")" = 24576 ] || fail "run $r: $(cat "$T/$r.out")"
done
[ -z "$(ls -A "$T/d")" ] || fail "files left: $(ls -A "$T/d")"
ok "two runs at once in one directory both pass"

command -v flock >/dev/null || skip "no flock(1) to stand in for a run that fills"
[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs to fill"
S=$T/tmpfs
mkdir "$S"
mount -t tmpfs -o size=96m tmpfs "$S" 2>/dev/null || skip "cannot mount tmpfs"
holder=
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; unmount "$S"; cleanup' EXIT INT TERM

# a run writing in the directory (its lock, taken here on descriptor 8):
# a fill is refused, a run of a given size goes ahead
exec 8<"$S"
flock -s 8
expect_exit 3 "$SB" verify --phase=write "$S"
grep -q "another storbench verify is writing there" "$T/err" || fail "refusal: $(cat "$T/err")"
[ -z "$(ls -A "$S")" ] || fail "the refused fill left files: $(ls -A "$S")"
expect_exit 0 "$SB" verify --size=1M --quiet "$S"
exec 8<&-
ok "a fill is refused while another run writes in the directory"

# a check takes the newest run nobody is writing; a fill leaves that one
expect_exit 0 "$SB" verify --phase=write --size=1M --seed=21 --quiet "$S"
expect_exit 0 "$SB" verify --phase=write --size=2M --seed=22 --quiet "$S"
set -- $(ls -t "$S"/.storbench-verify-*-0.tmp)
newest=$1 older=$2
# a writer's hold (lib/target/hold.h: an OFD lock at 2^62), held by a
# stand-in until it is killed
python3 - "$newest" "$T/held" <<'PY' &
import fcntl, os, struct, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhxxxxqqixxxx", fcntl.F_WRLCK, 0, 1 << 62, 1, 0))
open(sys.argv[2], "w").close()
time.sleep(600)
PY
holder=$!
wait_until 30 [ -e "$T/held" ] || fail "the stand-in never held the file"
expect_exit 0 "$SB" verify --phase=check --quiet --output="$T/r.json" "$S"
[ "$(json "$T/r.json" "d['storbench']['verify']['seed']")" = 21 ] || fail "checked the run being written"
grep -q "other verify run" "$T/err" || fail "no word of the other run: $(cat "$T/err")"
expect_exit 0 "$SB" verify --phase=write --quiet "$S"
[ -e "$newest" ] || fail "a fill removed the file of a run in progress"
[ -e "$older" ] && fail "a fill left an earlier run's file"
kill $holder && wait $holder 2>/dev/null
holder=
ok "a check and a fill leave a run being written alone"

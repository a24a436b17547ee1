# Two runs on one file or device (issue 26, item 10): every run holds each
# file and device it uses for its life (an open file description lock,
# lib/target/hold.h), so a second storbench refuses (exit 3) naming the
# first's pid, whatever the command, and the first passes with its data
# intact. The first is stopped (SIGSTOP) once it holds its file and has
# written some of it, the others are tried, then it goes on (SIGCONT).
# On the test's disk, tmpfs, ramfs, FUSE (faultfs) and a loop device.
# needs: root loop fuse slow
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"
other=
trap 'kill -CONT $first 2>/dev/null; [ -n "$other" ] && kill $other 2>/dev/null; unmount "$T/tmpfs" "$T/ramfs"; ff_cleanup' EXIT INT TERM
first=

locked() { grep -q ":$(stat -Lc %i "$1" 2>/dev/null) " /proc/locks; }
# hold CMD...: the first run, started and stopped (SIGSTOP) as soon as it
# holds $F and has laid it out ($F may be a glob: a directory's files);
# watched closely, as a run on tmpfs is over in a tenth of a second
hold() {
	rm -f "$T/go"
	mkfifo "$T/go"
	# the run starts (exec: the same pid) once the watcher is watching
	sh -c 'read -r go <"$0"; exec "$@"' "$T/go" "$@" >"$T/first.out" 2>&1 &
	first=$!
	python3 - "$first" "$F" "$T/go" <<'PY' || fail "the first run never started: $(cat "$T/first.out")"
import glob, os, signal, stat, sys, time
pid, pattern = int(sys.argv[1]), sys.argv[2]
with open(sys.argv[3], "w") as go:
    go.write("go\n")
end = time.monotonic() + 30
while time.monotonic() < end:
    for f in glob.glob(pattern):
        try:
            st = os.stat(f)
        except OSError:
            continue
        if not (st.st_size or stat.S_ISBLK(st.st_mode)):
            continue
        me = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
        if any(me in l.split() for l in open("/proc/locks")):
            os.kill(pid, signal.SIGSTOP)
            sys.exit(0)
    time.sleep(0.0002)
sys.exit(1)
PY
}
go_on() {
	kill -CONT $first
	wait $first || fail "the first run failed: $(cat "$T/first.out")"
}
# refused CMD...: exit 3, the first run named by its pid
refused() {
	expect_exit 3 "$@"
	grep -q "another storbench run (pid $first) is using it" "$T/err" ||
		fail "$*: the refusal does not name pid $first: $(cat "$T/err")"
	n=$((n + 1))
}
intact() { # JSON BLOCKS: the first run's verdict
	[ "$(json "$1" "d['storbench']['verify']['intact']")" = "$2" ] ||
		fail "the first run's blocks: $(cat "$T/first.out")"
}

# 1. verify writing a new file: every command that writes or reads it
mkdir "$T/d"
F=$T/d/f.bin
hold "$SB" verify --size=256M --direct=0 --quiet --output="$T/first.json" "$F"
n=0
refused "$SB" verify --size=8M --direct=0 --quiet "$F"
refused "$SB" verify --phase=write --destroy-data --direct=0 --quiet "$F"
refused "$SB" verify --phase=check --direct=0 --quiet "$F"
refused "$SB" run --rw=randwrite --size=1M --direct=0 --quiet "$F"
refused "$SB" run --rw=randread --size=1M --direct=0 --quiet "$F"
refused "$SB" run --rw=write --size=1M --direct=0 --destroy-data --quiet "$F"
refused "$SB" quick --size=2M --runtime=100ms --repeat=1 --quiet "$F"
refused "$SB" fio --name=x --filename="$F" --size=1M --rw=randwrite --direct=0
refused "$SB" soak --iterations=1 --direct=0 --quiet --log="$T/s.jsonl" "$F"
refused "$SB" sweep --file-sizes=64k --record-sizes=16k --tests=write --quiet "$F"
refused "$SB" iozone -i 0 -s 64k -r 16k -f "$F"
refused "$SB" latency --count=2 --write --buffered --quiet "$F"
refused "$SB" cliff --destroy-data --size=1M --quiet "$F"
refused "$SB" spo --destroy-data --size=64k --journal="$T/j" --quiet "$F"
go_on
intact "$T/first.json" 65536
[ ! -e "$F" ] && [ ! -e "$T/j" ] && [ ! -e "$T/s.jsonl" ] || fail "left: $(ls -A "$T/d" "$T")"
ok "$n commands refused a file a verify run was writing, naming its pid; the run passed"

# 2. run writing a new file at random: another run on the path refuses
hold "$SB" run --rw=randwrite --bs=4k --size=64M --rate=8M --direct=0 --quiet "$F"
n=0
refused "$SB" run --rw=randwrite --bs=4k --size=64M --direct=0 --quiet "$F"
refused "$SB" verify --size=4M --direct=0 --quiet "$F"
go_on
ok "a second run of one new path refuses ($n), the first passes"

# 3. a file being checked: others read it too, none writes it
expect_exit 0 "$SB" verify --phase=write --size=256M --direct=0 --quiet "$F"
sum=$(sha256sum <"$F")
hold "$SB" verify --phase=check --direct=0 --quiet "$F"
n=0
refused "$SB" verify --phase=write --direct=0 --quiet "$F"
refused "$SB" run --rw=randwrite --size=1M --direct=0 --quiet "$F"
expect_exit 0 "$SB" run --rw=read --size=64k --direct=0 --quiet "$F"
expect_exit 0 "$SB" verify --phase=check --direct=0 --quiet "$F"
go_on
[ "$(sha256sum <"$F")" = "$sum" ] || fail "the checked file changed"
rm -f "$F"
ok "a file being checked is read by others, written by none ($n refused)"

# 3b. another program's lock over all of a file (a database's): a reader
# measures it, a writer (--destroy-data) is refused
head -c 4M /dev/urandom >"$T/db"
python3 - "$T/db" "$T/db.held" <<'PY' &
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(600)
PY
other=$!
wait_until 30 [ -e "$T/db.held" ] || fail "the other program never locked its file"
sum=$(sha256sum <"$T/db")
expect_exit 0 "$SB" run --rw=randread --size=1M --direct=0 --quiet "$T/db"
expect_exit 3 "$SB" run --rw=randwrite --size=1M --direct=0 --destroy-data --quiet "$T/db"
grep -q "another program or run holds a lock on it" "$T/err" || fail "lock: $(cat "$T/err")"
kill $other && other=
[ "$(sha256sum <"$T/db")" = "$sum" ] || fail "the locked file changed"
ok "another program's whole-file lock: read, not written"

# 4. a directory: verify's files are held; a check or fill leaves them
F="$T/d/.storbench-verify-*-0.tmp"
hold "$SB" verify --size=256M --direct=0 --quiet --output="$T/first.json" "$T/d"
F=$(ls $F)
n=0
refused "$SB" verify --phase=write --destroy-data --direct=0 --quiet "$F"
refused "$SB" run --rw=randread --size=1M --direct=0 --quiet "$F"
expect_exit 3 "$SB" verify --phase=check --quiet "$T/d"
go_on
intact "$T/first.json" 65536
ok "the files of a verify run in a directory are held ($n refused)"

# 4b. names a run does not draw at random: fio's JOB.N.F in a directory,
# and a sweep's file, made anew for each cell under the same name (the
# next swapped in before the last goes: the name is never free)
printf '[j]\nrw=randwrite\nsize=64M\nnrfiles=2\nbs=4k\n' >"$T/j.fio"
F="$T/d/j.0.1"
hold "$SB" run --quiet "$T/j.fio" "$T/d"
n=0
refused "$SB" run --quiet "$T/j.fio" "$T/d"
go_on
F=$T/d/s.bin
hold "$SB" sweep --file-sizes=64M,32M,16M --record-sizes=64k,16k --tests=write,read --quiet "$F"
refused "$SB" sweep --file-sizes=1M --record-sizes=64k --tests=write --quiet "$F"
refused "$SB" iozone -i 0 -s 1m -r 64k -f "$F"
go_on
[ ! -e "$F" ] || fail "the sweep's file was left"
ok "fio's file names and a sweep's file, made anew each cell, are held ($n refused)"

# 4c. a soak on a new file path makes its file anew each iteration, the
# next swapped in before the last goes
F=$T/d/soak.bin
hold "$SB" soak --iterations=6 --size=32M --direct=0 --quiet --log="$T/soak.jsonl" "$F"
n=0
refused "$SB" verify --size=1M --direct=0 --quiet "$F"
refused "$SB" run --rw=randwrite --size=1M --direct=0 --quiet "$F"
go_on
grep -q "PASS" "$T/first.out" || fail "the soak: $(cat "$T/first.out")"
[ ! -e "$F" ] || fail "the soak's file was left"
ok "a soak's file, made anew each iteration, is held ($n refused)"

# 5. the same on tmpfs, ramfs and FUSE (faultfs, locks kept by the kernel)
mkdir "$T/tmpfs" "$T/ramfs"
mount -t tmpfs -o size=160m tmpfs "$T/tmpfs" || skip "cannot mount tmpfs"
mount -t ramfs ramfs "$T/ramfs" || skip "cannot mount ramfs"
ff_start
for fs in "$T/tmpfs" "$T/ramfs" "$FF_MNT"; do
	F=$fs/f.bin
	hold "$SB" verify --size=128M --direct=0 --quiet --output="$T/first.json" "$F"
	n=0
	refused "$SB" verify --size=8M --direct=0 --quiet "$F"
	refused "$SB" run --rw=randwrite --size=1M --direct=0 --destroy-data --quiet "$F"
	go_on
	intact "$T/first.json" 32768
	ok "$(stat -fc %T "$fs"): a second run refused ($n), the first passed"
done

# 6. a block device: the first holds it with O_EXCL, and its hold names it
dev=$(make_loop 64)
F=$dev
hold "$SB" verify --destroy-data --direct=0 --quiet --output="$T/dev.json" "$dev"
n=0
refused "$SB" verify --destroy-data --quiet "$dev"
refused "$SB" run --rw=randwrite --destroy-data --size=1M --quiet "$dev"
refused "$SB" run --rw=randread --size=1M --quiet "$dev"
refused "$SB" verify --phase=check --quiet "$dev"
go_on
intact "$T/dev.json" 16384
ok "a block device being written is refused to $n other runs, naming the first"

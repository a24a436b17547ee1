# The files a job file's new options write or cut pass the write gate as
# filename= does. write_iolog= (and write_bw_log='s files) is never written
# over a block device (mounted, holding an ext4 signature, a second loop
# device over a mounted image, or a plain one), a fifo, a directory, a
# character device, a symbolic link or the backing file of a mounted
# image; a user's file with data only with --destroy-data; a log of its
# own (its mark) or an empty file is written again. Before, write_iolog=
# opened its name O_TRUNC: it wrote the log over a mounted loop device,
# cut the mounted image to the log's size and a user's file too, and a
# fifo hung the run. replay_redirect= to a device, trimwrite and trim on
# one, and the ftruncate and falloc engines on a user's file are refused
# too. Byte for byte: the sha256 of every image, device and file the test
# offered is the same after every refusal. Everything here is the test's.
# needs: root loop
. "$SB_TOP/tests/lib/cli.sh"

[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (e2fsprogs)"
loop() { # FILE: a loop device over it, detached at exit
	l=$(losetup -f --show "$1" 2>/dev/null) || skip "no loop device available"
	echo "$l" >>"$T/.loops"
	echo "$l"
}
detach_all() {
	unmount "$T/mnt"
	cleanup
}
trap detach_all EXIT INT TERM

truncate -s 32M "$T/fs.img" "$T/sig.img" "$T/plain.img"
# no lazy initialisation: nothing writes the mounted image in the background
for i in fs sig; do
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$T/$i.img" >/dev/null 2>&1 ||
		fail "mkfs.ext4"
done
mounted=$(loop "$T/fs.img")
second=$(loop "$T/fs.img") # a second loop device over the mounted image
sig=$(loop "$T/sig.img")
plain=$(loop "$T/plain.img")
mkdir "$T/mnt" && mount "$mounted" "$T/mnt" || skip "cannot mount ext4 on a loop device"
echo precious >"$T/mnt/data" && sync
head -c 1M /dev/urandom >"$T/user.dat"
ln -s user.dat "$T/link"
mkfifo "$T/fifo"
printf 'fio version 2 iolog\ndata add\ndata open\ndata write 0 4096\ndata close\n' >"$T/w.log"

sums() { # the mounted image by its file (its devices' reads go through the mount's cache)
	sync
	sha256sum "$T/fs.img" "$T/sig.img" "$T/plain.img" "$T/user.dat" "$sig" "$plain"
}
sums >"$T/before"
n=0
# refused CODE WORDS -- JOB LINES...: the job refused with CODE, its
# message holding WORDS, nothing offered changed
refused() {
	code=$1 words=$2 dd=
	shift 2
	[ "$1" = --destroy-data ] && dd=--destroy-data && shift
	printf '%s\n' "[j]" "$@" >"$T/j.fio"
	(cd "$T" && timeout 120 "$SB" fio $dd --output="$T/o.txt" "$T/j.fio") >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" = "$code" ] || { cat "$T/out" "$T/err"; fail "$* $dd: exit $got, expected $code"; }
	grep -q -- "$words" "$T/err" || { cat "$T/err"; fail "$* $dd: no '$words'"; }
	sums | cmp -s - "$T/before" || { sums | diff - "$T/before"; fail "$* $dd: changed"; }
	n=$((n + 1))
}

for dev in "$mounted" "$second" "$sig" "$plain"; do
	for dd in "" --destroy-data; do
		refused 2 "refusing to write to '$dev': it is a block device" $dd \
			"filename=$T/s.$n" size=64k rw=write "write_iolog=$dev"
	done
done
for what in "fifo:a fifo" "mnt:a directory"; do
	refused 2 "refusing to write to '$T/${what%%:*}': it is ${what#*:}" \
		"filename=$T/s.$n" size=64k rw=write "write_iolog=$T/${what%%:*}"
done
refused 2 "it is a character device" "filename=$T/s.$n" size=64k rw=write write_iolog=/dev/null
refused 2 "it is a symbolic link" --destroy-data "filename=$T/s.$n" size=64k rw=write \
	"write_iolog=$T/link"
refused 3 "it is the backing file of /dev/loop" --destroy-data "filename=$T/s.$n" size=64k \
	rw=write "write_iolog=$T/fs.img"
refused 2 "refusing to overwrite '$T/user.dat': storbench did not create it" \
	"filename=$T/s.$n" size=64k rw=write "write_iolog=$T/user.dat"
# fio's bandwidth log is PREFIX_bw.N.log: a fifo under that name
mkfifo "$T/p_bw.1.log"
refused 2 "refusing to write to '$T/p_bw.1.log': it is a fifo" "filename=$T/s.$n" size=64k \
	rw=write "write_bw_log=$T/p"
# replay_redirect=, trimwrite and trim name a device as filename= does
refused 3 "refusing to write to '$mounted': $mounted is mounted" "read_iolog=$T/w.log" \
	"replay_redirect=$mounted"
refused 3 "is over the same file as $second" --destroy-data "read_iolog=$T/w.log" \
	"replay_redirect=$second"
refused 2 "it holds a ext4 filesystem" "read_iolog=$T/w.log" "replay_redirect=$sig"
refused 3 "it is the backing file of /dev/loop" --destroy-data "read_iolog=$T/w.log" \
	"replay_redirect=$T/fs.img"
for rw in trimwrite randtrimwrite trim; do
	refused 2 "it holds a ext4 filesystem" "filename=$sig" size=1m "rw=$rw"
	refused 3 "is over the same file as $second" --destroy-data "filename=$second" size=1m \
		"rw=$rw"
done
for eng in ftruncate falloc filedelete; do
	refused 2 "the $eng engine works on the files it lays out" --destroy-data \
		"ioengine=$eng" "filename=$T/user.dat" size=64k rw=write
done
ok "$n refusals, every image, device and file unchanged"

# a new log is made and marked; written again; an empty file is written
printf '%s\n' "[j]" "filename=$T/s.new" size=64k rw=write "write_iolog=$T/new.log" >"$T/j.fio"
expect_exit 0 "$SB" fio --output="$T/o.txt" "$T/j.fio"
[ "$(head -1 "$T/new.log")" = "fio version 3 iolog" ] || fail "new.log: $(head -1 "$T/new.log")"
if python3 -c 'import os,sys; os.getxattr(sys.argv[1], "user.storbench")' "$T/new.log" 2>/dev/null
then
	rm -f "$T/s.new"
	expect_exit 0 "$SB" fio --output="$T/o.txt" "$T/j.fio"
	ok "a log of its own written again"
fi
: >"$T/empty.log"
printf '%s\n' "[j]" "filename=$T/s.e" size=64k rw=write "write_iolog=$T/empty.log" >"$T/j.fio"
expect_exit 0 "$SB" fio --output="$T/o.txt" "$T/j.fio"
grep -q "write 0 4096" "$T/empty.log" || fail "empty.log not written"
# with --destroy-data a user's file is the user's to name
printf '%s\n' "[j]" "filename=$T/s.u" size=64k rw=write "write_iolog=$T/user.dat" >"$T/j.fio"
expect_exit 0 "$SB" fio --destroy-data --output="$T/o.txt" "$T/j.fio"
[ "$(head -1 "$T/user.dat")" = "fio version 3 iolog" ] || fail "user.dat not the log"
head -3 "$T/before" >"$T/before3"
sums | head -3 | cmp -s - "$T/before3" || fail "an image changed"
ok "new, own, empty and consented logs written"

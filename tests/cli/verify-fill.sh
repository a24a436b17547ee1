# A fill (verify of a directory without --size) covers the filesystem's
# free space to within its real limit, as f3write's files do (they are
# written until ENOSPC), and says how much it covered: a fake card's wrap
# hides in what is not written. On a fresh ext4 on a loop device: at least
# 97% of what df shows free, in the text and the JSON; as much as f3write
# covers on the same fresh image (when f3 is installed); and a second fill
# after a run that kept its files takes their space too. The space of a
# run is free again when it ends. Other filesystems made here: tmpfs and
# faultfs (FUSE) over a tmpfs at least 97% too, exFAT through exfat-fuse
# when installed; ramfs, which says nothing of its free space, is refused.
# needs: root loop fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"

command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
dev=$(make_loop 230) || skip "no loop device"
M=$T/m
mkdir "$M"
fresh() {
	unmount "$M"
	# a busy unmount is lazy (tests/lib/cli.sh): the filesystem lives on,
	# holding the device, until its last file is let go
	wait_until 30 sh -c 'mkfs.ext4 -q -F "$1" >/dev/null 2>&1' sh "$dev" || fail "mkfs.ext4 $dev"
	mount "$dev" "$M" 2>/dev/null || skip "cannot mount ext4 on $dev"
}
P=$T/tmpfs R=$T/ramfs X=$T/exfat
trap 'unmount "$M" "$X" "$R"; fuse_unmount "$FF_MNT" "$FF_PID"; unmount "$P"; cleanup' EXIT INT TERM
avail() { df -B1 --output=avail "$M" | tail -1 | tr -d ' '; }
at_least() { # A B PCT: A >= PCT% of B
	python3 -c "import sys; a,b,p=map(float,sys.argv[1:]); sys.exit(0 if a >= p/100*b else 1)" "$@"
}
cov() { json "$T/r.json" "d['storbench']['verify']['coverage']$1"; }
written() { json "$T/r.json" "d['storbench']['verify']['write']['bytes']"; }

fresh
free=$(avail)
expect_exit 0 "$SB" verify --output="$T/r.json" "$M"
bytes=$(written)
at_least "$bytes" "$free" 97 || fail "the fill covered $bytes bytes of $free free: $(cat "$T/out")"
[ "$(cov "['bytes']")" = "$bytes" ] || fail "coverage bytes $(cov "['bytes']"), written $bytes"
[ "$(cov "['free_before']")" = "$free" ] || fail "free_before $(cov "['free_before']"), df says $free"
[ "$(cov "['fill']")" = True ] || fail "not called a fill: $(cov "")"
within_pct "$(cov "['percent']")" "$(python3 -c "print(100*$bytes/$free)")" 0.01 ||
	fail "percent $(cov "['percent']") for $bytes of $free"
[ "$(json "$T/r.json" "d['storbench']['verify']['intact']")" = $((bytes / 4096)) ] ||
	fail "not every block written was checked: $(cat "$T/out")"
grep -q "^covered: .*% of the .* free before (a fill" "$T/out" || fail "text: $(cat "$T/out")"
"$SB" report "$T/r.json" | grep -q "^covered: .*% of the .* free before (a fill)" ||
	fail "report: $("$SB" report "$T/r.json")"
[ -z "$(ls -A "$M" | grep -v lost+found)" ] || fail "files left: $(ls -A "$M")"
# the space is free again when the run ends (io_uring's ring let go of the
# files it held before they were removed, not in its teardown afterwards)
[ "$(avail)" = "$free" ] || fail "$(avail) bytes free after the run, $free before"
ok "a fill covers $bytes bytes, $(cov "['percent']")% of the $free df shows free"

# a run that kept its files, then a fill: it removes them and takes their
# space (the first run's ring let go of its files: none is still held)
expect_exit 0 "$SB" verify --phase=write --size=64M --quiet "$M"
expect_exit 0 "$SB" verify --phase=write --quiet --output="$T/r.json" "$M"
at_least "$(written)" "$free" 97 ||
	fail "a fill after a kept run covered $(written) bytes of $free: $(cat "$T/out")"
expect_exit 0 "$SB" verify --phase=check --quiet "$M"
ok "a fill after a run that kept its files covers as much"

# fill DIR NAME: a fill of DIR covers at least 97% of what df shows free
fill() {
	free=$(avail_of "$1")
	expect_exit 0 "$SB" verify --quiet --output="$T/r.json" "$1"
	at_least "$(written)" "$free" 97 || fail "$2: the fill covered $(written) bytes of $free free"
	echo "$2: $(written) bytes of $free free ($(cov "['percent']")%)"
}
avail_of() { df -B1 --output=avail "$1" | tail -1 | tr -d ' '; }
mkdir "$P" "$R"
mount -t tmpfs -o size=64m tmpfs "$P" || fail "cannot mount tmpfs"
fill "$P" tmpfs
mkdir "$P/back"
FF_BACK=$P/back
ff_start
fill "$FF_MNT" "faultfs over tmpfs"
mount -t ramfs none "$R" || fail "cannot mount ramfs"
expect_exit 3 "$SB" verify --quiet "$R"
grep -q "not enough free space in '$R' to fill (0 B free); give --size" "$T/err" ||
	fail "ramfs: $(cat "$T/err")"
ok "tmpfs and faultfs filled to at least 97%, ramfs (no free space said) refused"

if command -v mkfs.exfat >/dev/null && command -v mount.exfat-fuse >/dev/null; then
	unmount "$M"
	mkdir "$X"
	mkfs.exfat "$dev" >/dev/null 2>&1 || fail "mkfs.exfat"
	mount.exfat-fuse "$dev" "$X" >/dev/null 2>&1 || fail "mount.exfat-fuse"
	fill "$X" "exFAT (exfat-fuse)"
	unmount "$X"
	ok "exFAT through exfat-fuse filled to at least 97%"
else
	echo "no mkfs.exfat or exfat-fuse: exFAT not tried"
fi

command -v f3write >/dev/null || skip "no f3write (apt-get install f3) to compare with"
fresh
f3write "$M" >"$T/f3.out" 2>&1 || fail "f3write: $(cat "$T/f3.out")"
f3=$(stat -c %s "$M"/*.h2w | awk '{ s += $1 } END { print s }')
fresh
expect_exit 0 "$SB" verify --quiet --output="$T/r.json" "$M"
at_least "$(written)" "$f3" 99 ||
	fail "storbench covered $(written) bytes, f3write $f3 on the same fresh image"
ok "storbench covers $(written) bytes, f3write $f3 on the same fresh image"

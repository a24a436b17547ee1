# Mounting a FUSE fixture (tests/fixtures/NAME.c) for the CLI tests; sourced
# by the fixtures' own helpers (faultfs.sh, cachefs.sh, geomfs.sh, volfs.sh)
# after cli.sh.
#   fuse_mount NAME MNT ARG...  runs $SB_BUILD/fixtures/NAME ARG... MNT -f -s
#                     in the background (its stderr appended to $T/NAME.log)
#                     and waits up to 5 s for the mount; FUSE_PID is its
#                     process. Skips (77) with the reason when the fixture is
#                     not built or FUSE cannot be used here.
#   fuse_unmount MNT PID  unmounts MNT and waits for PID (nothing when PID is
#                     empty)
fuse_mount() {
	name=$1 mnt=$2
	shift 2
	bin=${SB_BUILD:-build}/fixtures/$name
	[ -x "$bin" ] || skip "$name not built (needs libfuse3-dev at build time)"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	command -v fusermount3 >/dev/null || skip "fusermount3 is not installed"
	mkdir -p "$mnt"
	"$bin" "$@" "$mnt" -f -s 2>>"$T/$name.log" &
	FUSE_PID=$!
	i=0
	while ! mountpoint -q "$mnt" && [ $i -lt 50 ]; do
		kill -0 "$FUSE_PID" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	mountpoint -q "$mnt" || { FUSE_PID=; skip "FUSE is not usable here: $(tail -n 1 "$T/$name.log")"; }
}

fuse_unmount() {
	[ -n "$2" ] || return 0
	fusermount3 -u "$1" 2>/dev/null || umount -l "$1" 2>/dev/null
	wait "$2" 2>/dev/null
}

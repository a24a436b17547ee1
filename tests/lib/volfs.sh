# The volatile-write-cache FUSE file system for the spo tests (sourced
# after cli.sh): tests/fixtures/volfs.c.
#   vf_start MODE     mounts $VF_MNT over $VF_BACK (honest, lying,
#                     lying:OFF:LEN); skips (77) when FUSE cannot be used
#   vf_cut            the power cut: SIGKILL to volfs (what it held in memory
#                     is gone), the dead mount taken away
# At exit: the mount unmounted, then cli.sh's cleanup.
VOLFS=${SB_BUILD:-build}/fixtures/volfs
VF_MNT=$T/mnt VF_BACK=$T/back VF_PID=

vf_cleanup() {
	if [ -n "$VF_PID" ]; then
		fusermount3 -u "$VF_MNT" 2>/dev/null || umount -l "$VF_MNT" 2>/dev/null
		wait "$VF_PID" 2>/dev/null
	fi
	cleanup
}
trap vf_cleanup EXIT INT TERM

vf_start() {
	[ -x "$VOLFS" ] || skip "volfs not built (needs libfuse3-dev at build time)"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	command -v fusermount3 >/dev/null || skip "fusermount3 is not installed"
	mkdir -p "$VF_MNT" "$VF_BACK"
	"$VOLFS" "$VF_BACK" "$1" "$VF_MNT" -f -s 2>>"$T/volfs.log" &
	VF_PID=$!
	i=0
	while ! mountpoint -q "$VF_MNT" && [ $i -lt 50 ]; do
		kill -0 "$VF_PID" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	mountpoint -q "$VF_MNT" || { VF_PID=; skip "FUSE is not usable here: $(tail -n 1 "$T/volfs.log")"; }
}

vf_cut() {
	kill -9 "$VF_PID" 2>/dev/null
	wait "$VF_PID" 2>/dev/null
	fusermount3 -u -z "$VF_MNT" 2>/dev/null || umount -l "$VF_MNT" 2>/dev/null
	VF_PID=
}

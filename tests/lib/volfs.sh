# The volatile-write-cache FUSE file system for the spo tests (sourced
# after cli.sh): tests/fixtures/volfs.c.
#   vf_start MODE     mounts $VF_MNT over $VF_BACK (honest, lying,
#                     lying:OFF:LEN); skips (77) when FUSE cannot be used
#   vf_cut            the power cut: SIGKILL to volfs (what it held in memory
#                     is gone), the dead mount taken away
# At exit: the mount unmounted, then cli.sh's cleanup.
. "$(dirname "$0")/../lib/fuse.sh"
VF_MNT=$T/mnt VF_BACK=$T/back VF_PID=

vf_cleanup() {
	fuse_unmount "$VF_MNT" "$VF_PID"
	cleanup
}
trap vf_cleanup EXIT INT TERM

vf_start() {
	mkdir -p "$VF_MNT" "$VF_BACK"
	fuse_mount volfs "$VF_MNT" "$VF_BACK" "$1"
	VF_PID=$FUSE_PID
}

vf_cut() {
	kill -9 "$VF_PID" 2>/dev/null
	wait "$VF_PID" 2>/dev/null
	fusermount3 -u -z "$VF_MNT" 2>/dev/null || umount -l "$VF_MNT" 2>/dev/null
	VF_PID=
}

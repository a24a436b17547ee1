# The write-cache emulating FUSE file system for CLI tests (sourced after
# cli.sh).
#   cf_start SIZE CACHE FAST SLOW REFILL_MS
#                     mounts $SB_BUILD/fixtures/cachefs on $CF_MNT: one file,
#                     $CF_MNT/disk, of SIZE bytes whose first CACHE bytes
#                     (after idle: what refilled) write at FAST bytes/s, the
#                     rest at SLOW (tests/fixtures/cachefs.c); skips (77)
#                     with the reason when FUSE cannot be used here
# At exit: the mount unmounted, then cli.sh's cleanup.
. "$(dirname "$0")/../lib/fuse.sh"
CF_MNT=$T/mnt CF_PID=

cf_cleanup() {
	fuse_unmount "$CF_MNT" "$CF_PID"
	cleanup
}
trap cf_cleanup EXIT INT TERM

cf_start() {
	mkdir -p "$CF_MNT"
	fuse_mount cachefs "$CF_MNT" "$@"
	CF_PID=$FUSE_PID
}

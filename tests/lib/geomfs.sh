# The flash-geometry FUSE fixture for CLI tests (sourced after cli.sh).
#   gf_start GEOMETRY  mounts $SB_BUILD/fixtures/geomfs on $GF_MNT: one file,
#                      $GF_MNT/dev.img (tests/fixtures/geomfs.c says what
#                      GEOMETRY holds); skips (77) with the reason when FUSE
#                      cannot be used here
# At exit: the mount unmounted, then cli.sh's cleanup.
. "$(dirname "$0")/../lib/fuse.sh"
GF_MNT=$T/gmnt GF_PID=

gf_cleanup() {
	fuse_unmount "$GF_MNT" "$GF_PID"
	cleanup
}
trap gf_cleanup EXIT INT TERM

gf_start() {
	mkdir -p "$GF_MNT"
	fuse_mount geomfs "$GF_MNT" "$1"
	GF_PID=$FUSE_PID
}

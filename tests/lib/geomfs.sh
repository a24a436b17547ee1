# The flash-geometry FUSE fixture for CLI tests (sourced after cli.sh).
#   gf_start GEOMETRY  mounts $SB_BUILD/fixtures/geomfs on $GF_MNT: one file,
#                      $GF_MNT/dev.img (tests/fixtures/geomfs.c says what
#                      GEOMETRY holds); skips (77) with the reason when FUSE
#                      cannot be used here
# At exit: the mount unmounted, then cli.sh's cleanup.
GEOMFS=${SB_BUILD:-build}/fixtures/geomfs
GF_MNT=$T/gmnt GF_PID=

gf_cleanup() {
	if [ -n "$GF_PID" ]; then
		fusermount3 -u "$GF_MNT" 2>/dev/null || umount -l "$GF_MNT" 2>/dev/null
		wait "$GF_PID" 2>/dev/null
	fi
	cleanup
}
trap gf_cleanup EXIT INT TERM

gf_start() {
	[ -x "$GEOMFS" ] || skip "geomfs not built (needs libfuse3-dev at build time)"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	command -v fusermount3 >/dev/null || skip "fusermount3 is not installed"
	mkdir -p "$GF_MNT"
	"$GEOMFS" "$1" "$GF_MNT" -f -s 2>"$T/geomfs.log" &
	GF_PID=$!
	i=0
	while ! mountpoint -q "$GF_MNT" && [ $i -lt 50 ]; do
		kill -0 "$GF_PID" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	mountpoint -q "$GF_MNT" || { GF_PID=; skip "FUSE is not usable here: $(tail -n 1 "$T/geomfs.log")"; }
}

# The write-cache emulating FUSE file system for CLI tests (sourced after
# cli.sh).
#   cf_start SIZE CACHE FAST SLOW REFILL_MS
#                     mounts $SB_BUILD/fixtures/cachefs on $CF_MNT: one file,
#                     $CF_MNT/disk, of SIZE bytes whose first CACHE bytes
#                     (after idle: what refilled) write at FAST bytes/s, the
#                     rest at SLOW (tests/fixtures/cachefs.c); skips (77)
#                     with the reason when FUSE cannot be used here
# At exit: the mount unmounted, then cli.sh's cleanup.
CACHEFS=${SB_BUILD:-build}/fixtures/cachefs
CF_MNT=$T/mnt CF_PID=

cf_cleanup() {
	if [ -n "$CF_PID" ]; then
		fusermount3 -u "$CF_MNT" 2>/dev/null || umount -l "$CF_MNT" 2>/dev/null
		wait "$CF_PID" 2>/dev/null
	fi
	cleanup
}
trap cf_cleanup EXIT INT TERM

cf_start() {
	[ -x "$CACHEFS" ] || skip "cachefs not built (needs libfuse3-dev at build time)"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	command -v fusermount3 >/dev/null || skip "fusermount3 is not installed"
	mkdir -p "$CF_MNT"
	"$CACHEFS" "$@" "$CF_MNT" -f -s 2>"$T/cachefs.log" &
	CF_PID=$!
	i=0
	while ! mountpoint -q "$CF_MNT" && [ $i -lt 50 ]; do
		kill -0 "$CF_PID" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	mountpoint -q "$CF_MNT" || { CF_PID=; skip "FUSE is not usable here: $(tail -n 1 "$T/cachefs.log")"; }
}

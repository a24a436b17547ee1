# The fault-injecting FUSE file system for CLI tests (sourced after cli.sh).
#   ff_start          mounts $SB_BUILD/fixtures/faultfs: $FF_MNT over $FF_BACK,
#                     rules in $FF_RULES; skips (77) with the reason when FUSE
#                     cannot be used here
#   ff_rules LINE...  replaces the rules (faultfs reads them at the next request)
#   ff_loop FILE      a loop device over a file in the mount (root only); in
#                     $(...) its skip ends only the subshell: add || skip
# At exit: loop devices detached, the mount unmounted, then cli.sh's cleanup.
FAULTFS=${SB_BUILD:-build}/fixtures/faultfs
FF_MNT=$T/mnt FF_BACK=$T/back FF_RULES=$T/rules FF_PID=

ff_cleanup() {
	[ -f "$T/.loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/.loops"
	rm -f "$T/.loops"
	if [ -n "$FF_PID" ]; then
		fusermount3 -u "$FF_MNT" 2>/dev/null || umount -l "$FF_MNT" 2>/dev/null
		wait "$FF_PID" 2>/dev/null
	fi
	cleanup
}
trap ff_cleanup EXIT INT TERM

ff_start() {
	[ -x "$FAULTFS" ] || skip "faultfs not built (needs libfuse3-dev at build time)"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	command -v fusermount3 >/dev/null || skip "fusermount3 is not installed"
	mkdir -p "$FF_MNT" "$FF_BACK"
	: >"$FF_RULES"
	"$FAULTFS" "$FF_BACK" "$FF_RULES" "$FF_MNT" -f -s -o allow_other 2>"$T/faultfs.log" &
	FF_PID=$!
	i=0
	while ! mountpoint -q "$FF_MNT" && [ $i -lt 50 ]; do
		kill -0 "$FF_PID" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	mountpoint -q "$FF_MNT" || { FF_PID=; skip "FUSE is not usable here: $(tail -n 1 "$T/faultfs.log")"; }
}

ff_rules() {
	printf '%s\n' "$@" >"$FF_RULES.new" && mv "$FF_RULES.new" "$FF_RULES"
}

ff_loop() {
	[ "$(id -u)" = 0 ] || skip "needs root for a loop device"
	dev=$(losetup -f --show "$1" 2>/dev/null) || skip "no loop device over a FUSE file here"
	echo "$dev" >>"$T/.loops"
	echo "$dev"
}

# The fault-injecting FUSE file system for CLI tests (sourced after cli.sh).
#   ff_start          mounts $SB_BUILD/fixtures/faultfs: $FF_MNT over $FF_BACK,
#                     rules in $FF_RULES; skips (77) with the reason when FUSE
#                     cannot be used here
#   ff_rules LINE...  replaces the rules (faultfs reads them at the next request)
#   ff_loop FILE      a loop device over a file in the mount (root only); in
#                     $(...) its skip ends only the subshell: add || skip
# At exit: loop devices detached, the mount unmounted, then cli.sh's cleanup.
. "$(dirname "$0")/../lib/fuse.sh"
FF_MNT=$T/mnt FF_BACK=$T/back FF_RULES=$T/rules FF_PID=

ff_cleanup() {
	[ -f "$T/.loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/.loops"
	rm -f "$T/.loops"
	fuse_unmount "$FF_MNT" "$FF_PID"
	cleanup
}
trap ff_cleanup EXIT INT TERM

ff_start() {
	mkdir -p "$FF_MNT" "$FF_BACK"
	: >"$FF_RULES"
	fuse_mount faultfs "$FF_MNT" "$FF_BACK" "$FF_RULES" -o allow_other
	FF_PID=$FUSE_PID
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

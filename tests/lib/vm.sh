# QEMU guests for the tests of real kernel drivers (sourced after cli.sh):
# Debian's kernel (tests/vm/fetch-guest), an initramfs of busybox, a static
# storbench and the tools (tests/vm/mkinitramfs), one boot that runs a batch
# of checks (tests/vm/checks-*) and hands their outputs back as a tar
# archive on a disk of its own. Every disk is an image file in $T: no host
# device ever reaches QEMU. docs/testing.md, "Real drivers".

# vm_static_storbench [CROSS_COMPILE]: the static storbench for the guest,
# built (or brought up to date) in a build folder of its own, away from the
# normal build: build-static, or the cross build's folder
# (build-arm-linux-gnueabihf) for a CROSS_COMPILE prefix; make check has
# built it already (the Makefile's vm-static). Optional libraries without
# a static archive (libxlsxwriter) are left out by the Makefile's link
# test. Prints its path; skips when it cannot be built (no static libc, no
# cross compiler).
vm_static_storbench() {
	if [ -n "${1:-}" ]; then
		command -v "${1}gcc" >/dev/null 2>&1 || skip "no ${1}gcc (scripts/install-deps --cross)"
		vs_build=build-$("${1}gcc" -dumpmachine)
		vs_args="CROSS_COMPILE=$1"
	else
		vs_build=build-static
		vs_args=
	fi
	# a make of its own: not the knobs of a make check that runs this test
	# (SANITIZE=1 cannot link statically), not its jobserver, not the BUILD
	# the test runner exports (its objects are the native build's); WERROR
	# as the make check's, which built it first (the Makefile's vm-static)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD make -s -j2 -C "$SB_TOP" --no-print-directory \
		STATIC=1 $vs_args BUILD="$vs_build" PROG="$vs_build/storbench" "$vs_build/storbench" \
		>"$T/static-build.log" 2>&1 ||
		{ tail -n 5 "$T/static-build.log"; skip "cannot build a static storbench ($vs_args)"; }
	echo "$SB_TOP/$vs_build/storbench"
}

# vm_kernel ARCH MODULE...: the cached kernel's folder; skips with the
# reason when Debian's kernel package cannot be had here
vm_kernel() {
	"$SB_TOP/tests/vm/fetch-guest" "$@" 2>"$T/fetch.err" ||
		skip "$(tail -n 1 "$T/fetch.err")"
}

# vm_run LIMIT VIRTIO_BLK QEMU ARGS...: boots the guest, whose watchdogs
# end it after LIMIT seconds; QEMU itself is killed 30 s later. The
# results disk (serial sbout) is added here as a VIRTIO_BLK device
# (virtio-blk-pci, virtio-blk-device on a board's virtio-mmio); the kernel
# and the initramfs are among the ARGS. The console goes to
# $T/console.log, the checks' outputs to $T/res/.
vm_run() {
	vr_limit=$1 vr_blk=$2
	shift 2
	# the guest's own timer and watchdog end a storbench that hangs; only a
	# guest whose kernel stopped (seen once in 10 boots of the TCG board)
	# reaches the host's timeout: that one boot is tried once more, said so
	for vr_try in 1 2; do
		rm -f "$T/out.img" && truncate -s 64M "$T/out.img"
		timeout -k 5 $((vr_limit + 30)) "$@" -nodefaults -display none -no-reboot \
			-serial "file:$T/console.log" \
			-drive "file=$T/out.img,if=none,id=out,format=raw" \
			-device "$vr_blk,drive=out,serial=sbout"
		vr_rc=$?
		[ $vr_rc = 124 ] || [ $vr_rc = 137 ] || break
		[ $vr_try = 1 ] && echo "the guest stopped answering (QEMU killed after $((vr_limit + 30)) s): booting it once more" &&
			tail -n 5 "$T/console.log"
	done
	grep 'storbench-vm:' "$T/console.log"
	mkdir -p "$T/res"
	tar -C "$T/res" -xf "$T/out.img" 2>/dev/null
	# SB_VM_KEEP=DIR: what the guest wrote, and its console, kept there
	[ -n "${SB_VM_KEEP:-}" ] && mkdir -p "$SB_VM_KEEP" && cp -r "$T/res/." "$T/console.log" "$SB_VM_KEEP/"
	if [ $vr_rc != 0 ] || [ ! -f "$T/res/uptime" ] || [ -f "$T/res/watchdog" ]; then
		tail -n 20 "$T/console.log"
		tail -n 20 "$T/res/dmesg.txt" 2>/dev/null
		[ $vr_rc = 0 ] || fail "QEMU exited $vr_rc (124: killed after $((vr_limit + 30)) s)"
		[ -f "$T/res/watchdog" ] && fail "the guest's watchdog ended it: $(cat "$T/res/watchdog")"
		fail "the guest wrote no results"
	fi
	return 0
}

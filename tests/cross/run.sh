#!/bin/sh
# tests/cross/run.sh TARGET...: runs the unit tests and the CLI smoke test
# (tests/cross/smoke.sh, and the CLI tests named in CROSS_CLI_TESTS) of each
# cross build in build-TARGET, under qemu-user when TARGET is another
# machine (aarch64-linux-gnu, arm-linux-gnueabihf), natively otherwise
# (x86_64-linux-musl). make check-cross builds them first. Ends with
# "cross: N passed, N failed, N skipped", the sum over the targets.
CROSS_CLI_TESTS=${CROSS_CLI_TESTS-bad-options run-file}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sb-cross.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0 skip=0

qemu_for() { # TARGET: the qemu-user binary that runs it, empty for this machine
	arch=${1%%-*}
	case $arch in
	"$(uname -m)") ;;
	aarch64) echo qemu-aarch64-static ;;
	arm*) echo qemu-arm-static ;;
	*) echo "qemu-$arch-static" ;;
	esac
}

for t in "$@"; do
	build=build-$t
	bin=$top/$build/storbench
	qemu=$(qemu_for "$t")
	echo "== $t${qemu:+ under $qemu}"
	if [ ! -x "$bin" ]; then
		echo "FAIL $t: $bin not built (make check-cross builds it)"
		fail=$((fail + 1))
		continue
	fi
	if [ -n "$qemu" ] && ! command -v "$qemu" >/dev/null 2>&1; then
		echo "FAIL $t: $qemu not found (scripts/install-deps --cross)"
		fail=$((fail + 1))
		continue
	fi
	sb=$bin
	if [ -n "$qemu" ]; then
		# the CLI tests run "$SB_BIN": a script that runs the binary under qemu
		sb=$tmp/storbench-$t
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$qemu" "$bin" >"$sb"
		chmod +x "$sb"
	fi
	[ -d "$top/$build/tests" ] ||
		echo "(no unit tests: no libcmocka for $t)"
	clis="$top/tests/cross/smoke.sh"
	for c in $CROSS_CLI_TESTS; do clis="$clis $top/tests/cli/$c.sh"; done
	# under emulation the fuzz corpora are walked at every 8th position
	# (tests/lib/sbtest.c: the native and ASan stages walk them whole)
	thin=1
	[ -n "$qemu" ] && thin=8
	BUILD=$build SB_BIN=$sb TEST_WRAPPER=$qemu CLI_TESTS=$clis SB_EXPECT_TARGET=$t \
		SB_CORPUS_THIN=$thin "$top/tests/run-tests.py" | tee "$tmp/log"
	# its last line: N passed, N failed, N skipped
	counts=$(tail -n 1 "$tmp/log" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
	if [ -z "$counts" ]; then
		echo "FAIL $t: the test runner ended early"
		fail=$((fail + 1))
		continue
	fi
	read -r p f s <<-END
	$counts
	END
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done
# the sizes of the static binaries, stripped (the small ones are already)
echo
printf '%-44s %8s\n' "static binary" "KiB stripped"
for t in "$@"; do
	for b in "build-$t/storbench" "build-$t-small/storbench"; do
		[ -x "$top/$b" ] || continue
		# binutils for the machine: a musl target's are those of its glibc one
		for strip in "$t-strip" "$(echo "$t" | sed 's/-musl/-gnu/')-strip" strip; do
			"$strip" -o "$tmp/s" "$top/$b" 2>/dev/null && break
		done || cp "$top/$b" "$tmp/s"
		printf '%-44s %8s\n' "$b" $(( $(stat -c %s "$tmp/s") / 1024 ))
	done
done
echo
echo "cross: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

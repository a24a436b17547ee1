# Shared by the CLI tests (sourced). Each test runs the real binary ($SB_BIN)
# on files and devices it creates under a temporary directory, removed at
# exit. Exit 0 pass, 1 fail, 77 skip (last line says why).
set -u
SB=${SB_BIN:?SB_BIN not set (run through make check)}
T=$(mktemp -d "${TMPDIR:-/tmp}/sb-cli.XXXXXX")
cleanup() {
	# make_swapfile's swap files: switched off before their loops go
	[ -f "$T/.swaps" ] && while read -r s; do swapoff "$s" 2>/dev/null; done <"$T/.swaps"
	# make_loop runs in a command substitution: its devices are listed in a file
	[ -f "$T/.loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/.loops"
	# make_zram's devices: reset and handed back to the kernel
	[ -f "$T/.zrams" ] && while read -r z; do
		echo 1 >"/sys/block/$z/reset" 2>/dev/null
		echo "${z#zram}" >/sys/class/zram-control/hot_remove 2>/dev/null
	done <"$T/.zrams"
	# make_throttle's cgroups: empty once the test's processes ended
	[ -f "$T/.cgroups" ] && while read -r g; do rmdir "$g" 2>/dev/null; done <"$T/.cgroups"
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

# unmount DIR...: each mount the test made taken away at exit. A process
# the test ran may still be letting go of the file system (the umount then
# says busy, and the mount was left behind): tried again for up to 5 s,
# then detached (umount -l).
unmount() {
	for m in "$@"; do
		i=0
		while mountpoint -q "$m" 2>/dev/null && ! umount "$m" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		mountpoint -q "$m" 2>/dev/null && umount -l "$m" 2>/dev/null
	done
	return 0
}

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }
ok() { echo "ok: $*"; }

# json FILE EXPR: evaluates a python expression over the document d
json() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(v)
PY
}

lines_parse() { # LOG: every line is a JSON object (JSON Lines logs)
	python3 - "$1" <<'PY'
import json, sys
for n, l in enumerate(open(sys.argv[1]), 1):
    json.loads(l)
PY
}

# expect_exit CODE CMD...: runs CMD, checks its exit status
expect_exit() {
	want=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	[ "$got" = "$want" ] || { cat "$T/out" "$T/err"; fail "'$*' exited $got, expected $want"; }
}

# make_loop SIZE_MB: a loop device over a fresh file in $T (root only)
make_loop() {
	[ "$(id -u)" = 0 ] || skip "needs root for a loop device"
	truncate -s "${1}M" "$T/loop.img" || fail "truncate"
	dev=$(losetup -f --show "$T/loop.img" 2>/dev/null) || skip "no loop device available"
	echo "$dev" >>"$T/.loops"
	echo "$dev"
}

# make_throttle DEV BYTES_PER_S IOPS: a cgroup v1 blkio group of the test's
# own that throttles reads and writes of DEV (a device the test made);
# prints its directory: run a command in it with
#   sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' - "$group" CMD...
# (root only; removed at exit)
make_throttle() {
	[ "$(id -u)" = 0 ] || skip "needs root for a blkio cgroup"
	b=/sys/fs/cgroup/blkio
	[ -f "$b/blkio.throttle.read_bps_device" ] || skip "no cgroup v1 blkio throttling"
	g="$b/sb-test-$$-$(basename "$T")"
	mkdir "$g" || skip "cannot make a blkio cgroup"
	echo "$g" >>"$T/.cgroups"
	mm=$(lsblk -dno MAJ:MIN "$1" | tr -d ' ')
	for f in read_bps_device write_bps_device; do
		echo "$mm $2" >"$g/blkio.throttle.$f" || skip "blkio throttling refused"
	done
	for f in read_iops_device write_iops_device; do
		echo "$mm $3" >"$g/blkio.throttle.$f" || skip "blkio throttling refused"
	done
	echo "$g"
}

# make_swapfile SIZE_MB: an active swap file in $T, switched off at exit
# (root only); prints its path. In $(...) its skip ends only the subshell:
# add || skip
make_swapfile() {
	[ "$(id -u)" = 0 ] || skip "needs root for swapon"
	command -v mkswap >/dev/null && command -v swapon >/dev/null || skip "no mkswap/swapon"
	sf=$(mktemp "$T/swap.XXXXXX")
	dd if=/dev/zero of="$sf" bs=1M count="$1" status=none && chmod 600 "$sf" || fail "swap file"
	mkswap "$sf" >/dev/null 2>&1 || skip "mkswap failed"
	swapon "$sf" 2>/dev/null || skip "swapon is not allowed here"
	echo "$sf" >>"$T/.swaps"
	echo "$sf"
}

# within_pct A B PCT: |A-B| <= PCT% of B
within_pct() {
	python3 -c "import sys; a,b,p=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= p/100*b else 1)" "$@"
}

# make_zram SIZE: a zram device of its own (SIZE as /sys takes it: 256M),
# never /dev/zram0, which other tests share read-only; prints its path. Root
# and /sys/class/zram-control only; in $(...) its skip ends only the
# subshell: add || skip
make_zram() {
	[ "$(id -u)" = 0 ] || skip "needs root for a zram device"
	[ -w /sys/class/zram-control/hot_add ] || skip "no zram-control (zram module not loaded)"
	n=$(cat /sys/class/zram-control/hot_add 2>/dev/null) || skip "zram hot_add failed"
	echo "zram$n" >>"$T/.zrams"
	echo "$1" >"/sys/block/zram$n/disksize" || fail "zram$n: cannot set disksize $1"
	i=0
	while [ ! -b "/dev/zram$n" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b "/dev/zram$n" ] || fail "/dev/zram$n did not appear"
	echo "/dev/zram$n"
}

# wait_until SECONDS CMD...: runs CMD every 0.1 s until it succeeds, for
# at most about SECONDS (longer on a loaded machine: the sleeps count, not
# the clock); returns 0 once CMD succeeded, 1 if it never did. What a test
# waits for before it acts (a file made, a line written), never a sleep.
wait_until() {
	wu_left=$(($1 * 10))
	shift
	until "$@"; do
		[ $wu_left -gt 0 ] || return 1
		sleep 0.1
		wu_left=$((wu_left - 1))
	done
}

# has_entries DIR: DIR holds something (a test file a command made)
has_entries() { [ -n "$(ls -A "$1" 2>/dev/null)" ]; }

# handles_int PID: PID has set its own SIGINT handler (SigCgt in
# /proc/PID/status, bit 1): a Ctrl-C sent now is the program's to handle,
# where one sent earlier would have killed it the default way. PID must be
# the program already, not the shell's child before its exec: that child
# still has the shell's trap handler, and a signal it takes is lost (the
# program then runs to its end, exit 0)
handles_int() {
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" != "$(readlink "/proc/$$/exe")" ] || return 1
	hi_mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$hi_mask" ] && [ $((0x$hi_mask & 2)) != 0 ]
}

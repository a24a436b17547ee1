# Shared by the CLI tests (sourced). Each test runs the real binary ($SB_BIN)
# on files and devices it creates under a temporary directory, removed at
# exit. Exit 0 pass, 1 fail, 77 skip (last line says why).
set -u
SB=${SB_BIN:?SB_BIN not set (run through make check)}
T=$(mktemp -d "${TMPDIR:-/tmp}/sb-cli.XXXXXX")
cleanup() {
	# make_loop runs in a command substitution: its devices are listed in a file
	[ -f "$T/.loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$T/.loops"
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

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

# within_pct A B PCT: |A-B| <= PCT% of B
within_pct() {
	python3 -c "import sys; a,b,p=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= p/100*b else 1)" "$@"
}

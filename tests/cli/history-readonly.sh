#!/bin/sh
# The results history where it cannot be written (docs/history.md): a
# history in a read-only directory, one on a file system remounted
# read-only, one on a full file system. The run's result file is written
# first and kept whole; the command says why the history refused and
# exits 3; the history is not damaged (its rows read back).
# needs: root
. "$(dirname "$0")/../lib/cli.sh"
"$SB" --version | grep -q sqlite || skip "a storbench built without SQLite"
[ "$(id -u)" = 0 ] || skip "needs root to mount a tmpfs"
unset STORBENCH_DB
mkdir "$T/ro" "$T/full"
mount -t tmpfs -o size=4m,ro tmpfs "$T/ro" || skip "cannot mount a tmpfs"
trap 'unmount "$T/ro" "$T/full"; cleanup' EXIT INT TERM
mount -t tmpfs -o size=1m tmpfs "$T/full" || skip "cannot mount a tmpfs"

# kept RESULT: the result file is whole, and verify's verdict in it
kept() {
	json "$1" "d['storbench']['verify']['result']" | grep -qx pass || fail "'$1' not kept"
}

# a new history in a read-only directory
expect_exit 3 "$SB" verify --size=1M --direct=0 --quiet -o "$T/a.json" --db="$T/ro/h.db" "$T/a.dat"
kept "$T/a.json"
grep -q "^storbench: history '$T/ro/h.db': cannot open: .*Read-only file system" "$T/err" ||
	{ cat "$T/err"; fail "a read-only directory"; }
ok "a read-only directory: the result kept, exit 3, the reason said"

# a history on a file system remounted read-only
mount -o remount,rw "$T/ro" || skip "cannot remount"
expect_exit 0 "$SB" verify --size=1M --direct=0 --quiet -o "$T/b.json" --db="$T/ro/h.db" "$T/b.dat"
mount -o remount,ro "$T/ro" || skip "cannot remount read-only"
expect_exit 3 "$SB" verify --size=1M --direct=0 --quiet -o "$T/c.json" --db="$T/ro/h.db" "$T/c.dat"
kept "$T/c.json"
grep -q "^storbench: history '$T/ro/h.db': " "$T/err" || { cat "$T/err"; fail "read-only history"; }
grep -q "record it later with: storbench history --db=$T/ro/h.db --import $T/c.json" "$T/err" ||
	{ cat "$T/err"; fail "no hint"; }
mount -o remount,rw "$T/ro"
expect_exit 0 "$SB" history --db="$T/ro/h.db" --format=csv
[ "$(wc -l <"$T/out")" = 2 ] || { cat "$T/out"; fail "the history after a refusal"; }
ok "a history on a read-only file system: the result kept, exit 3, the history whole"

# a full file system: the history's growth fails
expect_exit 0 "$SB" verify --size=1M --direct=0 --quiet -o "$T/d.json" --db="$T/full/h.db" "$T/d.dat"
dd if=/dev/zero of="$T/full/fill" bs=4k status=none 2>/dev/null
python3 - "$T/d.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['storbench']['padding'] = 'x' * (2 << 20)  # larger than the file system
json.dump(d, open(sys.argv[2] + '/big.json', 'w'))
PY
expect_exit 3 "$SB" history --db="$T/full/h.db" --import "$T/big.json"
grep -q "^storbench: history '$T/full/h.db': .*No space left on device" "$T/err" ||
	{ cat "$T/err"; fail "a full file system"; }
rm -f "$T/full/fill"
expect_exit 0 "$SB" history --db="$T/full/h.db" --format=csv
[ "$(wc -l <"$T/out")" = 2 ] || { cat "$T/out"; fail "the history after a full disk"; }
ok "a full file system: refused with the reason, exit 3, the history whole"

#!/bin/sh
# A result recorded in a SQLite history survives a power cut once the
# command has ended, and recording costs the command two flushes, not
# five (docs/history.md "What it costs"): the record's commit flushes
# the write-ahead log after its last write to it (synchronous=FULL), the
# log is not checkpointed into the file by the recording command (its
# -wal stays, with the row), a copy of the file and its log as the disk
# holds them (no -shm: SQLite rebuilds its index from the log, as after
# a power cut) reads the row back, the log stays under 700 kB over 30
# records (checkpointed and truncated past 128 pages), and storbench
# history checkpoints the log into the file on closing (the file alone
# then holds every row).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
"$SB" --version | grep -q sqlite || skip "a storbench built without SQLite"
command -v strace >/dev/null || skip "no strace"
unset STORBENCH_DB
cd "$T" || fail "cd"
mkdir "$T/h"
H="$T/h/h.db"

expect_exit 0 "$SB" verify --size=1M --direct=0 --quiet -o "$T/a.json" --db="$H" "$T/a.dat"
# the second record, traced: its writes and flushes, each fd with its path
# (LeakSanitizer cannot run under ptrace: off for an ASan build)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -y -o "$T/trace" -e trace=pwrite64,write,fsync,fdatasync \
	"$SB" verify --size=1M --direct=0 --quiet -o "$T/b.json" --db="$H" --label run=2 "$T/b.dat" \
	>/dev/null 2>"$T/err" || { cat "$T/err"; fail "verify --db under strace"; }
python3 - "$T/trace" "$T/h" <<'PY' || fail "the record's flushes"
import re, sys
d = sys.argv[2]
ev = []
for line in open(sys.argv[1]):
    m = re.search(r'\b(pwrite64|write|fsync|fdatasync)\((\d+)<([^>]*)>', line)
    if m and m.group(3).startswith(d):
        ev.append((m.group(1), m.group(3)))
wal = d + '/h.db-wal'
writes = [i for i, (c, p) in enumerate(ev) if p == wal and 'write' in c]
syncs = [i for i, (c, p) in enumerate(ev) if 'sync' in c]
assert writes, 'no write to the log: %s' % ev
# durable: the log flushed after its last write
assert any(i > writes[-1] and ev[i][1] == wal for i in syncs), ev
# cheap: the commit's flush (and SQLite's of the directory, once a process)
assert len(syncs) <= 2, 'flushes: %s' % [ev[i] for i in syncs]
assert not any(p == d + '/h.db' and 'write' in c for c, p in ev), 'checkpointed: %s' % ev
PY
[ -s "$H-wal" ] || fail "the recording command checkpointed the log"

# what a power cut leaves: the file and its log as flushed, no index
mkdir "$T/cut"
cp "$H" "$H-wal" "$T/cut/"
python3 - "$T/cut/h.db" <<'PY' || fail "the row after a cut"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = db.execute('SELECT count(*) FROM results').fetchone()[0]
l = db.execute("SELECT count(*) FROM labels WHERE key = 'run' AND value = '2'").fetchone()[0]
assert (n, l) == (2, 1), (n, l)
PY

# the log does not grow without end: a commit that takes it past 128
# pages checkpoints and truncates it (a process rebuilding its index reads
# it whole)
i=3
while [ $i -le 30 ]; do
	expect_exit 0 "$SB" verify --size=1M --direct=0 --quiet -o "$T/c.json" --db="$H" "$T/c.dat"
	[ "$(stat -c %s "$H-wal")" -lt 700000 ] || fail "record $i: the log is $(stat -c %s "$H-wal") bytes"
	i=$((i + 1))
done

# storbench history checkpoints the log: the file alone holds every row
expect_exit 0 "$SB" history --db="$H" --format=csv
[ "$(wc -l <"$T/out")" = 31 ] || { cat "$T/out"; fail "30 rows"; }
[ -e "$H-wal" ] && fail "storbench history left the log beside the file"
mkdir "$T/alone"
cp "$H" "$T/alone/"
python3 -c "import sqlite3,sys; assert sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM results').fetchone()[0] == 30" \
	"$T/alone/h.db" || fail "the file alone after storbench history"
ok "recorded durably with two flushes; storbench history checkpoints"

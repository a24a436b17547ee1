# fio's offset_increment in job files: numjobs clone k works on
# [offset + k * offset_increment, + size), as fio (the blocks each clone
# wrote into a file of zeros, compared with the real fio where it is
# installed); a new file is made long enough for the last clone; a
# percentage and nrfiles above 1 with it are refused, naming the line.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# written FILE: the 64 KiB blocks of FILE not all zero, and its size
written() {
	python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
print(len(b), *[i // 65536 for i in range(0, len(b), 65536) if b[i:i + 65536].count(0) != 65536])
PY
}
expect="2490368 2 3 4 5 18 19 20 21 34 35 36 37"

# 1. an existing file of zeros: three clones, 1 MiB apart from 128 KiB
job() { # FILE
	printf '[w]\nfilename=%s\nrw=write\nbs=64k\nsize=256k\noffset=128k\noffset_increment=1m\nnumjobs=3\n' "$1"
}
truncate -s 2490368 "$T/z"
job "$T/z" >"$T/z.fio"
expect_exit 0 "$SB" fio --destroy-data --output-format=json --output="$T/z.json" "$T/z.fio"
[ "$(written "$T/z")" = "$expect" ] || fail "existing file: $(written "$T/z")"
[ "$(json "$T/z.json" "[j['write']['io_bytes'] for j in d['jobs']]")" = "[262144, 262144, 262144]" ] ||
	fail "entries: $(json "$T/z.json" "[j['write']['io_bytes'] for j in d['jobs']]")"
if command -v fio >/dev/null 2>&1; then
	truncate -s 2490368 "$T/zf"
	job "$T/zf" >"$T/zf.fio"
	fio --output=/dev/null "$T/zf.fio" || fail "fio itself failed"
	[ "$(written "$T/zf")" = "$expect" ] || fail "fio wrote: $(written "$T/zf")"
	ok "each clone at offset + k * offset_increment, as fio $(fio --version) writes"
else
	echo "note: fio not installed: not compared with the real fio"
fi
ok "offset_increment: each clone its own region of an existing file"

# 2. a new file: made offset + 2 * offset_increment + size long, as fio
job "$T/new" >"$T/new.fio"
expect_exit 0 "$SB" run --quiet --keep --output="$T/new.json" "$T/new.fio" "$T/new"
[ "$(written "$T/new")" = "$expect" ] || fail "new file: $(written "$T/new")"
ok "offset_increment: a new file long enough for the last clone"

# 3. a directory: each clone's own file, at its own offset
mkdir "$T/d"
printf '[w]\nrw=write\nbs=64k\nsize=256k\noffset=128k\noffset_increment=1m\nnumjobs=3\n' >"$T/d.fio"
expect_exit 0 "$SB" run --quiet --keep --output="$T/d.json" "$T/d.fio" "$T/d"
got=$(for f in "$T"/d/* "$T"/d/.[!.]*; do [ -f "$f" ] && written "$f" | cut -d' ' -f2-; done | sort -n | tr '\n' ' ')
[ "$got" = "2 3 4 5 18 19 20 21 34 35 36 37 " ] || fail "directory: $got"
ok "offset_increment: in a directory each clone's file at its own offset"

# 4. refused: a percentage, nrfiles above 1, naming the line
printf '[w]\nrw=write\nsize=1m\nnumjobs=2\noffset_increment=10%%\n' >"$T/r.fio"
expect_exit 2 "$SB" run --quiet "$T/r.fio" "$T/d"
grep -q "line 5: offset_increment=10%: a percentage" "$T/err" || fail "percent: $(cat "$T/err")"
printf '[w]\nrw=write\nsize=1m\nnumjobs=2\nnrfiles=2\noffset_increment=1m\n' >"$T/r.fio"
expect_exit 2 "$SB" run --quiet "$T/r.fio" "$T/d"
grep -q "line 6: offset_increment: with nrfiles above 1" "$T/err" || fail "nrfiles: $(cat "$T/err")"
ok "offset_increment: a percentage and nrfiles above 1 refused with their line"

# 5. the clones do not fit in the whole of an existing file: refused, untouched
truncate -s 1M "$T/small"
printf '[w]\nrw=write\nbs=64k\noffset_increment=1m\nnumjobs=3\n' >"$T/s.fio"
expect_exit 2 "$SB" run --quiet --destroy-data "$T/s.fio" "$T/small"
grep -q "offset_increment: 3 clones 1048576 bytes apart do not fit" "$T/err" || fail "fit: $(cat "$T/err")"
[ "$(written "$T/small")" = 1048576 ] || fail "small file written"
ok "offset_increment: clones that do not fit refused, the file untouched"

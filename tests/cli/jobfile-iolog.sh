# fio's I/O logs: write_iolog= writes fio 3.33's format (version 3: the
# microseconds, the file, its add, open and close, each request's
# direction, offset and length as it is issued, syncs too), the same
# lines fio writes for the same job (t/jobs/t0007: rw=read:512k bs=1m),
# and fio replays it (read_iolog=) moving the same bytes at the same
# offsets. numjobs above 1 with one log is refused (fio's clones write
# over each other's).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
mkdir "$T/sb" "$T/fio"

acts() { # LOG: its lines without the times
	sed 1d "$1" | cut -d' ' -f2-
}

# 1. a sequential read with holes and a random write with fsync
cat >"$T/w.fio" <<'EOF'
[holes]
filename=data
size=8m
rw=read:512k
bs=1m
write_iolog=holes.log
[rw]
stonewall
filename=data
size=256k
bs=16k
rw=randwrite
fsync=4
write_iolog=rw.log
EOF
(cd "$T/sb" && "$SB" fio --quiet --output-format=json --output="$T/w.json" "$T/w.fio") \
	>"$T/err" 2>&1 || { cat "$T/err"; fail "storbench write_iolog"; }
[ "$(head -1 "$T/sb/holes.log")" = "fio version 3 iolog" ] || fail "header: $(head -1 "$T/sb/holes.log")"
want="data add
data open
data read 0 1048576
data read 1572864 1048576
data read 3145728 1048576
data read 4718592 1048576
data read 6291456 1048576
data close"
[ "$(acts "$T/sb/holes.log")" = "$want" ] || fail "holes.log: $(acts "$T/sb/holes.log")"
# the times: microseconds, never going back
awk 'NR > 1 { if ($1 < last) exit 1; last = $1 }' "$T/sb/holes.log" || fail "times go back"
python3 - "$T/sb/rw.log" <<'PY' || fail "rw.log: not 16 writes of 16k covering 256k, a sync after every 4"
import sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
io = [r for r in rows if r[2] in ("write", "sync")]
writes = [r for r in io if r[2] == "write"]
assert sorted(int(r[3]) for r in writes) == list(range(0, 256 << 10, 16 << 10))
assert all(r[4] == "16384" for r in writes)
assert [r[2] for r in io] == (["write"] * 4 + ["sync"]) * 4, [r[2] for r in io]
assert all(r[3:] == ["0", "0"] for r in io if r[2] == "sync")
PY
ok "write_iolog: fio's version 3 lines, t0007's offsets, a sync line after every fsync=4 writes"

if [ $have_fio = 1 ]; then
	# fio's own log of the same jobs: the same lines but the times
	(cd "$T/fio" && fio --output-format=json --output="$T/fw.json" "$T/w.fio") >"$T/ferr" 2>&1 ||
		{ cat "$T/ferr"; fail "fio w.fio"; }
	[ "$(acts "$T/fio/holes.log")" = "$(acts "$T/sb/holes.log")" ] ||
		fail "fio's holes.log differs: $(acts "$T/fio/holes.log")"
	ok "fio writes the same lines for the same job"

	# fio replays storbench's log: the same bytes at the same offsets

	(cd "$T/sb" && fio --name=replay --read_iolog=rw.log --ioengine=psync --write_iops_log=rp \
		--log_offset=1 --output-format=json --output="$T/rp.json") >"$T/ferr" 2>&1 ||
		{ cat "$T/ferr"; fail "fio read_iolog"; }
	[ "$(json "$T/rp.json" "d['jobs'][0]['write']['io_bytes']")" = 262144 ] || fail "fio's replay moved other bytes"
	got=$(awk -F, '{ printf "%d ", $5 }' "$T/sb"/rp_iops.*.log)
	want=$(awk '$3 == "write" { printf "%d ", $4 }' "$T/sb/rw.log")
	[ "$got" = "$want" ] || fail "fio replayed at $got, the log says $want"
	ok "fio replays storbench's log: 256 KiB at the log's offsets, in its order"
fi

# 2. numjobs above 1 with one log: refused, naming the job's line
printf '[a]\nioengine=null\nsize=1m\nnumjobs=2\nwrite_iolog=x.log\n' >"$T/nj.fio"
expect_exit 2 "$SB" fio --quiet "$T/nj.fio"
grep -q "line 1: \[a\]: write_iolog with numjobs=2 is not supported" "$T/err" || fail "numjobs: $(cat "$T/err")"
ok "write_iolog with numjobs=2 is refused, naming the job's line"

# fio's I/O logs: write_iolog= writes fio 3.33's format (version 3: the
# microseconds, the file, its add, open and close, each request's
# direction, offset and length as it is issued, syncs too), the same
# lines fio writes for the same job (t/jobs/t0007: rw=read:512k bs=1m),
# and fio replays it (read_iolog=) moving the same bytes at the same
# offsets. read_iolog= replays fio's logs, versions 2 and 3: the
# requests of a log fio wrote, in its order (our own write_iolog of the
# replay has the same lines), version 3 at the logged pace (never
# sooner; replay_no_stall=1 without it), replay_redirect= to another
# file. numjobs above 1 with one log is refused (fio's clones write over
# each other's), and a log that is not fio's, names two files, or
# another file than filename= is refused naming it.
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
printf '[a]\nsize=1m\nfilename=%s\nwrite_iolog=%s\n' "$T/own" "$T/own" >"$T/own.fio"
expect_exit 2 "$SB" fio --quiet "$T/own.fio"
grep -q "line 1: \[a\]: write_iolog=$T/own names the job's own file" "$T/err" || fail "own file: $(cat "$T/err")"
[ ! -e "$T/own" ] || fail "the job's file was made"
ok "write_iolog with numjobs=2, or naming the job's own file, is refused, naming the job's line"

# 3. replay: a log fio wrote (else one written here as fio writes it)
if [ $have_fio = 1 ]; then
	(cd "$T/fio" && fio --name=x --filename=f1 --size=256k --bssplit=4k/50:16k/50 --rw=randrw \
		--ioengine=psync --write_iolog=fio.log --output=/dev/null) >"$T/ferr" 2>&1 ||
		{ cat "$T/ferr"; fail "fio write_iolog"; }
	cp "$T/fio/fio.log" "$T/sb/in.log"
else
	printf 'fio version 3 iolog\n10 f1 add\n60 f1 open\n70 f1 write 0 16384\n90 f1 read 0 4096\n95 f1 trim 16384 4096\n99 f1 sync 0 0\n120 f1 write 20480 4096\n130 f1 close\n' >"$T/sb/in.log"
fi
printf '[r]\nread_iolog=in.log\nwrite_iolog=out.log\n' >"$T/r.fio"
(cd "$T/sb" && "$SB" fio --quiet --destroy-data --output-format=json --output="$T/r.json" "$T/r.fio") \
	>"$T/err" 2>&1 || { cat "$T/err"; fail "storbench read_iolog"; }
[ "$(acts "$T/sb/out.log")" = "$(acts "$T/sb/in.log")" ] || fail "the replay's log differs from the log replayed"
want=$(awk '$3 == "read" { r += $5 } $3 == "write" { w += $5 } END { printf "%d %d", r, w }' "$T/sb/in.log")
got="$(json "$T/r.json" "d['jobs'][0]['read']['io_bytes']") $(json "$T/r.json" "d['jobs'][0]['write']['io_bytes']")"
[ "$got" = "$want" ] || fail "replay moved $got (read write), the log $want"
ok "read_iolog replays $(sed 1d "$T/sb/in.log" | grep -c -v 'add$\|open$\|close$') requests of fio's log in its order: $got bytes"

# version 3's pace: a request logged 300 ms after the first is not
# issued sooner (never later is not asserted); replay_no_stall=1 and
# replay_redirect= to another file
printf 'fio version 3 iolog\n1 p add\n2 p open\n100 p write 0 4096\n300100 p write 4096 4096\n300200 p close\n' >"$T/sb/pace.log"
printf '[p]\nread_iolog=pace.log\nwrite_iolog=pout.log\n' >"$T/p.fio"
(cd "$T/sb" && "$SB" fio --quiet --output=/dev/null "$T/p.fio") >"$T/err" 2>&1 || { cat "$T/err"; fail "pace"; }
awk '$3 == "write" { t[n++] = $1 } END { exit !(n == 2 && t[1] - t[0] >= 300000) }' "$T/sb/pout.log" ||
	fail "the second write came sooner than logged: $(cat "$T/sb/pout.log")"
printf '[p]\nread_iolog=pace.log\nreplay_no_stall=1\nreplay_redirect=other\nsize=8k\n' >"$T/ns.fio"
(cd "$T/sb" && "$SB" fio --quiet --output-format=json --output="$T/ns.json" "$T/ns.fio") >"$T/err" 2>&1 ||
	{ cat "$T/err"; fail "replay_no_stall"; }
[ -f "$T/sb/other" ] || [ "$(json "$T/ns.json" "d['jobs'][0]['write']['io_bytes']")" = 8192 ] ||
	fail "replay_redirect: not 8 KiB written to 'other'"
ok "version 3 at the logged pace (300 ms apart, not sooner); replay_no_stall and replay_redirect taken"

# version 2, with a wait; what is not a log of fio's is refused
printf 'fio version 2 iolog\nv add\nv open\nv write 0 8192\nv wait 1 0\nv read 0 8192\nv close\n' >"$T/sb/v2.log"
printf '[v]\nread_iolog=v2.log\n' >"$T/v2.fio"
(cd "$T/sb" && "$SB" fio --quiet --output-format=json --output="$T/v2.json" "$T/v2.fio") >"$T/err" 2>&1 ||
	{ cat "$T/err"; fail "version 2"; }
[ "$(json "$T/v2.json" "d['jobs'][0]['read']['io_bytes']")" = 8192 ] || fail "version 2: not 8 KiB read"
printf 'fio version 1 iolog\n' >"$T/sb/v1.log"
printf '[v]\nread_iolog=v1.log\n' >"$T/v1.fio"
(cd "$T/sb" && "$SB" fio --quiet "$T/v1.fio") >"$T/err" 2>&1 && fail "a version 1 log was taken"
grep -q "read_iolog=v1.log: line 1: not fio's iolog version 2 or 3" "$T/err" || fail "v1: $(cat "$T/err")"
printf 'fio version 2 iolog\na write 0 4096\nb write 0 4096\n' >"$T/sb/two.log"
printf '[v]\nread_iolog=two.log\n' >"$T/two.fio"
(cd "$T/sb" && "$SB" fio --quiet "$T/two.fio") >"$T/err" 2>&1 && fail "a log of two files was taken"
grep -q "two.log: line 3: a second file ('b' after 'a')" "$T/err" || fail "two files: $(cat "$T/err")"
printf '[v]\nread_iolog=v2.log\nfilename=w\n' >"$T/fn.fio"
(cd "$T/sb" && "$SB" fio --quiet "$T/fn.fio") >"$T/err" 2>&1 && fail "filename= against the log was taken"
grep -q "the log replays on 'v', filename= names 'w' (name it with replay_redirect=)" "$T/err" ||
	fail "filename: $(cat "$T/err")"
ok "version 2 with a wait replayed; version 1, two files, another filename= refused, naming why"

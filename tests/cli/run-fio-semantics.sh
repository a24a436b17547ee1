# fio job-file options with fio's meaning: bssplit random passes move every
# byte once and exactly size bytes, loops/io_size/number_ios bound the work,
# startdelay waits, invalidate drops the file's cache (run's default too,
# and a buffered read from the cache is said so), and job files fio
# would refuse are refused before anything is created, naming file and line.
# Runs alone: it looks at the page cache, which any test dropping caches empties.
# needs: serial
. "$(dirname "$0")/../lib/cli.sh"

# a file of zeros: after a write pass, a 4 KiB block still all zeros was
# never written (the data written is random)
zero_blocks() {
	python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
z = bytes(4096)
print(sum(d[i:i + 4096] == z for i in range(0, len(d), 4096)))" "$1"
}

f="$T/z.bin"
for rw in randwrite write; do
	rm -f "$f"
	truncate -s 16M "$f"
	printf '[b]\nrw=%s\nbssplit=4k/50:64k/50\nsize=16M\nfilename=%s\n' "$rw" "$f" >"$T/bs.fio"
	expect_exit 0 "$SB" run --quiet --destroy-data --output="$T/bs.json" "$T/bs.fio"
	bytes=$(json "$T/bs.json" "d['jobs'][0]['write']['io_bytes']")
	ios=$(json "$T/bs.json" "d['jobs'][0]['write']['total_ios']")
	[ "$bytes" = 16777216 ] || fail "$rw bssplit moved $bytes bytes, not size=16M"
	z=$(zero_blocks "$f")
	# 16 MiB moved and no block left unwritten: each block written once
	[ "$z" = 0 ] || fail "$rw bssplit left $z blocks of 4096 unwritten"
	# both sizes were used: the mean lies strictly between them
	python3 -c "import sys; m=int(sys.argv[1])/int(sys.argv[2]); sys.exit(0 if 4096 < m < 65536 else 1)" \
		"$bytes" "$ios" || fail "$rw bssplit: mean request $bytes/$ios is not a mix"
	ok "$rw bssplit=4k/50:64k/50: 16777216 bytes in $ios requests, every block once"
done
# fio moves exactly the same bytes for the same job file
if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio --output-format=json --output="$T/fio-bs.json" "$T/bs.fio" >/dev/null 2>&1) ||
		fail "fio could not run the bssplit job file"
	[ "$(json "$T/fio-bs.json" "d['jobs'][0]['write']['io_bytes']")" = 16777216 ] ||
		fail "fio moved other bytes than storbench"
	ok "fio moves the same 16777216 bytes"
fi

# size=50% and offset=25% of an existing file: the written region is
# [4M, 12M) of the 16M file, nothing outside it
rm -f "$f"
truncate -s 16M "$f"
printf '[p]\nrw=write\nbs=64k\nsize=50%%\noffset=25%%\nfilename=%s\n' "$f" >"$T/pct.fio"
expect_exit 0 "$SB" run --quiet --destroy-data --output="$T/pct.json" "$T/pct.fio"
[ "$(json "$T/pct.json" "d['jobs'][0]['write']['io_bytes']")" = $((8 << 20)) ] ||
	fail "size=50% of 16M did not move 8M"
python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
z = bytes(4096)
zero = [d[i:i + 4096] == z for i in range(0, len(d), 4096)]
sys.exit(0 if all(zero[:1024]) and not any(zero[1024:3072]) and all(zero[3072:]) else 1)" "$f" ||
	fail "size=50% offset=25% did not write exactly [4M, 12M)"
ok "size=50% and offset=25% are shares of the file"

# offset= on a new file: fio makes it offset + size long
printf '[n]\nrw=write\nbs=64k\nsize=1M\noffset=3M\n' >"$T/newoff.fio"
expect_exit 0 "$SB" run --quiet --keep --output="$T/newoff.json" "$T/newoff.fio" "$T/new.bin"
[ "$(stat -c %s "$T/new.bin")" = $((4 << 20)) ] || fail "offset=3M size=1M: not a 4M file"
[ "$(json "$T/newoff.json" "d['jobs'][0]['write']['io_bytes']")" = $((1 << 20)) ] ||
	fail "offset=3M size=1M: not 1M written"
rm -f "$T/new.bin"
printf '[n]\nrw=write\nsize=10%%\n' >"$T/newpct.fio"
expect_exit 2 "$SB" run --quiet "$T/newpct.fio" "$T/new.bin"
[ ! -e "$T/new.bin" ] || fail "size=10% on a new file created it"
ok "offset=3M size=1M on a new file makes it 4M; a percentage of a new file is refused"

# loops, io_size, number_ios: the work a size-bound job does
cat >"$T/lim.fio" <<JOB
[global]
filename=$f
bs=64k
size=4M
[loops]
rw=randread
loops=3
[iosize]
stonewall
rw=read
io_size=10M
[nios]
stonewall
rw=randread
bs=4k
number_ios=100
JOB
expect_exit 0 "$SB" run --quiet --output="$T/lim.json" "$T/lim.fio"
[ "$(json "$T/lim.json" "d['jobs'][0]['read']['io_bytes']")" = $((3 * 4 << 20)) ] ||
	fail "loops=3 over 4M did not move 12M"
[ "$(json "$T/lim.json" "d['jobs'][1]['read']['io_bytes']")" = $((10 << 20)) ] ||
	fail "io_size=10M over a 4M region did not move 10M"
[ "$(json "$T/lim.json" "d['jobs'][2]['read']['total_ios']")" = 100 ] ||
	fail "number_ios=100 did not stop at 100 requests"
ok "loops=3, io_size=10M and number_ios=100 move what fio moves"

# rate=READ,WRITE caps each direction alone, as fio: the writes of a
# randrw job go past the read cap, neither passes its own
printf '[r]\nrw=randrw\nbs=4k\nsize=16M\nrate=1M,4M\nruntime=2\ntime_based\nfilename=%s\n' \
	"$f" >"$T/rate.fio"
expect_exit 0 "$SB" run --quiet --destroy-data --output="$T/rate.json" "$T/rate.fio"
python3 - "$T/rate.json" <<'PY' || fail "rate=1M,4M"
import json, sys
j = json.load(open(sys.argv[1]))['jobs'][0]
r, w = j['read']['bw_bytes'], j['write']['bw_bytes']
assert r <= 1.1 * 2**20, f"reads {r} B/s past their 1M cap"
assert w <= 1.1 * 4 * 2**20, f"writes {w} B/s past their 4M cap"
assert w > 1.1 * 2**20, f"writes {w} B/s held to the read cap"
assert j['storbench']['options']['rate'] == '1048576,4194304'
PY
ok "rate=1M,4M caps reads and writes each alone"

# startdelay: the job waits first (a sleep's lower bound, not a timing)
printf '[d]\nrw=read\nsize=1M\nstartdelay=1\nfilename=%s\n' "$f" >"$T/delay.fio"
t0=$(date +%s%N)
expect_exit 0 "$SB" run --quiet "$T/delay.fio"
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -ge 1000 ] || fail "startdelay=1 did not wait a second"
ok "startdelay=1 waits before the job"

# invalidate: the file's pages in the page cache are dropped before the
# job (fio's default); invalidate=0 leaves them
if command -v fincore >/dev/null 2>&1; then
	resident() { fincore --bytes --noheadings --output RES "$f" | tr -d ' '; }
	# written back first: dropping the cache leaves dirty pages, as in fio
	sync "$f"
	cat "$f" >/dev/null
	[ "$(resident)" -ge $((15 << 20)) ] || skip "the page cache does not keep the file here"
	printf '[i]\nrw=read\nsize=16M\nnumber_ios=1\ninvalidate=0\nfilename=%s\n' "$f" >"$T/inv0.fio"
	# another program dropping the caches meanwhile (any root test of a
	# machine's other work does) looks the same: it must hold 3 times
	# running to be storbench's doing
	kept=0
	for try in 1 2 3; do
		cat "$f" >/dev/null
		expect_exit 0 "$SB" run --quiet "$T/inv0.fio"
		[ "$(resident)" -ge $((15 << 20)) ] && kept=1 && break
	done
	[ $kept = 1 ] || fail "invalidate=0 dropped the cache (3 times)"
	sed 's/^invalidate=0$//' "$T/inv0.fio" >"$T/inv1.fio"
	expect_exit 0 "$SB" run --quiet "$T/inv1.fio"
	r=$(resident)
	# what one 4 KiB read and its readahead bring back, no more
	[ "$r" -le $((4 << 20)) ] || fail "invalidate (fio's default) left $r bytes cached"
	ok "invalidate drops the file's cache before the job ($r bytes cached after)"

	# run's own options: invalidate=1 by default too (a buffered read of a
	# file just read reads the device), and a buffered read that began
	# from the page cache says so, measured
	cat "$f" >/dev/null
	expect_exit 0 "$SB" run --direct=0 --rw=randread --size=16M --number-ios=1 "$f"
	r=$(resident)
	[ "$r" -le $((4 << 20)) ] || fail "run --direct=0 left $r bytes cached (invalidate=1 is fio's default)"
	grep -q "buffered reads began with" "$T/err" && fail "run: cache warning after the drop: $(cat "$T/err")"
	said=0
	for try in 1 2 3; do
		cat "$f" >/dev/null
		expect_exit 0 "$SB" run --direct=0 --rw=randread --size=16M --number-ios=1 --invalidate=0 "$f"
		grep -q "buffered reads began with 100% of what they read in the page cache" "$T/err" &&
			said=1 && break
	done
	[ $said = 1 ] || fail "run --invalidate=0 from the page cache: not said: $(cat "$T/err")"
	grep -q "invalidate=0 kept them" "$T/err" || fail "the warning does not name invalidate=0"
	ok "run drops the cache by default; a buffered read from the cache is said so"
fi

# refusals, before anything is created, with file and line
mkdir "$T/d"
printf '[a]\nrw=write\n' >"$T/nosize.fio"
expect_exit 2 "$SB" run "$T/nosize.fio" "$T/d/new.bin"
grep -q "nosize.fio: line 1: job 'a' has no size" "$T/err" || fail "no size: $(cat "$T/err")"
printf '[a]\nrw=write\nsize=0\n' >"$T/size0.fio"
expect_exit 2 "$SB" run "$T/size0.fio" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "a refused job file created files"
printf '[a]\nrw=write\nsize=1M\n[b]\nrw=read\nsize=1M\nfrobnicate=1\n' >"$T/unk.fio"
expect_exit 2 "$SB" run "$T/unk.fio" "$T/d"
grep -q "unk.fio: line 7: 'frobnicate': unknown option" "$T/err" || fail "unknown: $(cat "$T/err")"
printf '[a]\nsize=1M\n\ngtod_cpu=0\n' >"$T/real.fio"
expect_exit 2 "$SB" run "$T/real.fio" "$T/d"
grep -q "real.fio: line 4: gtod_cpu: fio option not supported by storbench" "$T/err" ||
	fail "real option: $(cat "$T/err")"
printf '[a]\nsize=1M\nioengine=dev-dax\n' >"$T/eng.fio"
expect_exit 2 "$SB" run "$T/eng.fio" "$T/d"
grep -q "eng.fio: line 3: ioengine=dev-dax: fio engine not supported by storbench" "$T/err" ||
	fail "engine: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "a refused job file created files"
ok "refusals name the file and line, nothing created"

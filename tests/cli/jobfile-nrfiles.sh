# fio's nrfiles, filesize, file_service_type and blockalign in job files:
# the files fio would make (names and sizes, compared with the real fio
# where it is installed), each written whole; filesize ranges repeat with
# randseed; which file serves each request (read back from the blocks a
# randwrite wrote into files laid out as zeros); random offsets on
# blockalign's multiples; bad values refused naming file, line and option;
# a file of the same name already there is never written.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# blocks DIR: "NAME SIZE WRITTEN" per file, WRITTEN the 4 KiB blocks not all
# zero; ODD=1 in the environment adds the written blocks not at an 8 KiB
# multiple
blocks() {
	python3 - "$1" <<'PY'
import os, sys
d = sys.argv[1]
for n in sorted(os.listdir(d)):
    b = open(os.path.join(d, n), 'rb').read()
    w = [i for i in range(0, len(b), 4096) if b[i:i + 4096].count(0) != len(b[i:i + 4096])]
    extra = ' %d' % sum(1 for i in w if i % 8192) if os.environ.get('ODD') else ''
    print(n, len(b), len(w), extra, sep=' ', end='\n')
PY
}
listing() { (cd "$1" && for f in *; do echo "$f $(stat -c %s "$f")"; done); }

# 1. nrfiles=4, size=16m: fio's four files of 4 MiB, each written whole
mkdir "$T/sb" "$T/fio"
cat >"$T/w.fio" <<'JOB'
[global]
rw=write
bs=4k
[job1]
nrfiles=4
size=16m
[odd]
stonewall
nrfiles=3
size=10m
numjobs=2
JOB
expect_exit 0 "$SB" run --quiet --keep "$T/w.fio" "$T/sb"
[ "$(listing "$T/sb")" = "job1.0.0 4194304
job1.0.1 4194304
job1.0.2 4194304
job1.0.3 4194304
odd.0.0 3495253
odd.0.1 3495253
odd.0.2 3495253
odd.1.0 3495253
odd.1.1 3495253
odd.1.2 3495253" ] || fail "files: $(listing "$T/sb")"
blocks "$T/sb" | while read -r n size w _; do
	# a file's tail shorter than a block is not written, as in fio
	[ "$w" = $((size / 4096)) ] || fail "$n: $w of $((size / 4096)) blocks written"
done || exit 1
ok "nrfiles: fio's names and sizes (size split, the odd split too), every block written"
if command -v fio >/dev/null 2>&1; then
	(cd "$T/fio" && fio --output=/dev/null "$T/w.fio") || fail "fio itself failed"
	[ "$(listing "$T/sb")" = "$(listing "$T/fio")" ] ||
		fail "fio made: $(listing "$T/fio"), storbench: $(listing "$T/sb")"
	ok "the same files as fio $(fio --version) makes"
else
	echo "note: fio not installed: listing not compared with the real fio"
fi
rm -f "$T/sb"/*
expect_exit 0 "$SB" run --quiet "$T/w.fio" "$T/sb"
[ -z "$(ls -A "$T/sb")" ] || fail "files left without --keep: $(ls -A "$T/sb")"
ok "without --keep the files are removed"

# 2. filesize=1m-3m: sizes in range, multiples of bs, repeated by randseed
sizes() { # SEED: the sizes of five files
	rm -rf "$T/fs" && mkdir "$T/fs"
	printf '[f]\nrw=write\nnrfiles=5\nfilesize=1m-3m\nrandseed=%s\n' "$1" >"$T/fs.fio"
	"$SB" run --quiet --keep "$T/fs.fio" "$T/fs" >/dev/null 2>&1 || fail "filesize run"
	listing "$T/fs" | awk '{ printf "%s ", $2 }'
}
a=$(sizes 11)
for s in $a; do
	[ "$s" -ge 1048576 ] && [ "$s" -le 3145728 ] && [ $((s % 4096)) = 0 ] ||
		fail "size $s out of 1m-3m or not a multiple of 4k"
done
[ "$(sizes 11)" = "$a" ] || fail "randseed=11 gave $a, then $(sizes 11)"
[ "$(sizes 12)" != "$a" ] || fail "randseed=12 gave the sizes of 11: $a"
[ "$(echo "$a" | tr ' ' '\n' | sort -u | grep -c .)" -gt 1 ] || fail "all one size: $a"
ok "filesize=1m-3m: $a(the same again for the same randseed)"

# 3. file_service_type: the blocks each file got from 40 random writes
served() { # TYPE NUMBER_IOS FILESIZE: written blocks per file, in order
	rm -rf "$T/s" && mkdir "$T/s"
	printf '[s]\nrw=randwrite\nnrfiles=4\nfilesize=%s\nnumber_ios=%s\n%s\n' "$3" "$2" \
		"${1:+file_service_type=$1}" >"$T/s.fio"
	"$SB" run --quiet --keep "$T/s.fio" "$T/s" >/dev/null 2>&1 || fail "$1 run"
	blocks "$T/s" | awk '{ printf "%s ", $3 }'
}
[ "$(served "" 40 1m)" = "10 10 10 10 " ] || fail "default (roundrobin): $(served "" 40 1m)"
[ "$(served roundrobin 40 1m)" = "10 10 10 10 " ] || fail "roundrobin"
[ "$(served roundrobin:5 15 1m)" = "5 5 5 0 " ] || fail "roundrobin:5: $(served roundrobin:5 15 1m)"
[ "$(served sequential 40 64k)" = "16 16 8 0 " ] || fail "sequential: $(served sequential 40 64k)"
r=$(served random 40 1m)
[ "$(echo "$r" | awk '{ print $1 + $2 + $3 + $4 }')" = 40 ] || fail "random: $r"
[ "$(echo "$r" | tr ' ' '\n' | grep -c '^[1-9]')" -ge 2 ] || fail "random served one file: $r"
ok "file_service_type: roundrobin (default) 10 each, roundrobin:5 5 5 5 0, sequential one file after another, random $r"

# 4. blockalign=8k (and ba=8k) with bs=4k: written blocks start at 8 KiB multiples
for opt in "" blockalign=8k ba=8k; do
	rm -rf "$T/a" && mkdir "$T/a"
	printf '[a]\nrw=randwrite\nbs=4k\nsize=2m\nnrfiles=2\nnumber_ios=200\nrandseed=3\n%s\n' \
		"$opt" >"$T/a.fio"
	expect_exit 0 "$SB" run --quiet --keep "$T/a.fio" "$T/a"
	res=$(ODD=1 blocks "$T/a" | awk '{ w += $3; odd += $4 } END { print w, odd }')
	if [ -z "$opt" ]; then
		[ "${res#* }" -gt 0 ] || fail "without blockalign no write at an odd 4k: $res"
	else
		[ "$res" = "200 0" ] || fail "$opt: written blocks, at odd 4k: $res"
	fi
done
ok "blockalign=8k and ba=8k: 200 distinct 4k writes, all at 8k multiples"

# 5. bad values: exit 2, naming the file, the line and the option
mkdir "$T/bad"
for v in "nrfiles=0" "filesize=3m-1m" "file_service_type=foo" "blockalign=0" \
	"file_service_type=zipf:1.1" "nrfiles=4
openfiles=2"; do
	printf '[b]\nrw=write\nsize=1m\n%s\n' "$v" >"$T/b.fio"
	expect_exit 2 "$SB" run --quiet "$T/b.fio" "$T/bad"
	key=$(echo "$v" | tail -n 1 | cut -d= -f1)
	grep -q "$T/b.fio: line [45]: $key" "$T/err" || fail "$v: $(cat "$T/err")"
	[ -z "$(ls -A "$T/bad")" ] || fail "$v: files created"
done
ok "bad nrfiles, filesize, file_service_type, blockalign, openfiles: exit 2 with file, line and option"

# 6. a file of one of fio's names already there: refused, left as it was
echo precious >"$T/bad/k.0.1"
printf '[k]\nrw=write\nnrfiles=3\nsize=3m\n' >"$T/k.fio"
"$SB" run --quiet "$T/k.fio" "$T/bad" >/dev/null 2>"$T/err" && fail "wrote over k.0.1"
grep -q "k.0.1" "$T/err" || fail "message: $(cat "$T/err")"
[ "$(cat "$T/bad/k.0.1")" = precious ] || fail "k.0.1 changed"
[ "$(ls -A "$T/bad")" = k.0.1 ] || fail "files left: $(ls -A "$T/bad")"
ok "an existing k.0.1 is refused and left alone; the files made before it are removed"

# 7. storbench fio: the command line's --nrfiles makes the same files
mkdir "$T/cl"
expect_exit 0 "$SB" fio --name=x --directory="$T/cl" --rw=randread --nrfiles=3 --size=3m \
	--file_service_type=random --blockalign=8k
grep -q "x: (groupid=0" "$T/out" || fail "no fio layout: $(cat "$T/out")"
ok "storbench fio --nrfiles=3 --file_service_type=random --blockalign=8k runs"

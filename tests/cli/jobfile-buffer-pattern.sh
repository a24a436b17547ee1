# fio's buffer_pattern in job files (and run --buffer-pattern): every
# written block holds the pattern repeated from its start, byte for byte
# as fio writes it (compared with the real fio where it is installed);
# reads between writes do not spoil it; the null engine moves fio's bytes;
# verify= still verifies (its blocks win, as in fio); patterns fio refuses
# and ones storbench does not take are refused naming line and option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# blocks FILE BS HEX: how many BS blocks are the pattern repeated, zeros, other
blocks() {
	python3 - "$@" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
bs, pat = int(sys.argv[2]), bytes.fromhex(sys.argv[3])
want = (pat * (bs // len(pat) + 1))[:bs]
n = [0, 0, 0]
for i in range(0, len(b), bs):
    blk = b[i:i + bs]
    n[0 if blk == want else 1 if blk.count(0) == len(blk) else 2] += 1
print(*n)
PY
}

# 1. fio's own example of the syntax: "abcd", -12 (4 bytes, least
# significant first), 0xdeadface, repeated from each 8 KiB buffer's start
cat >"$T/w.fio" <<'JOB'
[w]
filename=pf
size=64k
bs=8k
rw=write
buffer_pattern="abcd"-120xdeadface
JOB
mkdir "$T/sb" "$T/fio"
(cd "$T/sb" && expect_exit 0 "$SB" run --quiet --keep "$T/w.fio") || exit 1
[ "$(blocks "$T/sb/pf" 8192 61626364f4ffffffdeadface)" = "8 0 0" ] ||
	fail "blocks: $(blocks "$T/sb/pf" 8192 61626364f4ffffffdeadface)"
ok "buffer_pattern: each written block is the pattern repeated"
if command -v fio >/dev/null 2>&1; then
	(cd "$T/fio" && fio --output=/dev/null "$T/w.fio") || fail "fio itself failed"
	cmp "$T/sb/pf" "$T/fio/pf" || fail "the file differs from fio's"
	ok "buffer_pattern: the file is byte for byte fio's"
fi

# 2. reads into the same buffers between writes: each written block is
# still the pattern (a file of 0x77 bytes: a block read keeps them, and a
# buffer a read spoiled would write them back)
cat >"$T/rw.fio" <<'JOB'
[rw]
filename=rwf
size=256k
bs=4k
rw=rw
iodepth=4
ioengine=io_uring
buffer_pattern=0x0102030405
JOB
python3 -c 'import sys; sys.stdout.buffer.write(b"\x77" * 262144)' >"$T/sb/rwf"
(cd "$T/sb" && expect_exit 0 "$SB" fio --destroy-data --output-format=json --output="$T/rw.json" \
	"$T/rw.fio") || exit 1
w=$(json "$T/rw.json" "d['jobs'][0]['write']['total_ios']")
set -- $(blocks "$T/sb/rwf" 4096 0102030405)
[ "$1" = "$w" ] && [ "$w" -gt 0 ] || fail "rw: $w writes, blocks (pattern, zero, other): $*"
ok "buffer_pattern: rw with reads between writes writes the pattern ($w blocks)"

# 3. the null engine: fio's t0028 moves 16 KiB of writes, one job entry
cat >"$T/n.fio" <<'JOB'
[test]
size=16k
readwrite=write
buffer_pattern="abcd"-120xdeadface
ioengine=null
JOB
expect_exit 0 "$SB" fio --output-format=json --output="$T/n.json" "$T/n.fio"
[ "$(json "$T/n.json" "len(d['jobs']), d['jobs'][0]['write']['io_bytes']")" = "(1, 16384)" ] ||
	fail "null: $(json "$T/n.json" "len(d['jobs']), d['jobs'][0]['write']['io_bytes']")"
ok "buffer_pattern: the null engine moves fio's bytes"

# 4. on run's command line, and with verify (its blocks win, as fio's)
expect_exit 0 "$SB" run --quiet --keep --rw=write --bs=4k --size=32k --buffer-pattern=66 \
	"$T/sb/cl"
[ "$(blocks "$T/sb/cl" 4096 42)" = "8 0 0" ] || fail "run: $(blocks "$T/sb/cl" 4096 42)"
printf '[v]\nfilename=vf\nsize=64k\nbs=4k\nrw=randwrite\nverify=crc32c\nbuffer_pattern=0xff\n' \
	>"$T/v.fio"
(cd "$T/sb" && expect_exit 0 "$SB" run --quiet "$T/v.fio") || exit 1
ok "buffer_pattern: run --buffer-pattern, and verify= still verifies"

# 5. refused: what fio refuses (a format, an empty string, a number out of
# range, past 512 bytes) and a file (storbench reads none)
long=$(python3 -c 'print("0x" + "ab" * 513)')
for bad in "'pat.bin'" "%o" '""' '"abc' 0x 4294967296 zz "$long"; do
	printf '[b]\nfilename=bf\nsize=64k\nrw=write\nbuffer_pattern=%s\n' "$bad" >"$T/b.fio"
	expect_exit 2 "$SB" run --quiet "$T/b.fio" "$T/sb"
	grep -q "line 5: buffer_pattern: .* is not valid (expected \"TEXT\", 0xHEX" "$T/err" ||
		fail "$bad: $(cat "$T/err")"
done
printf '[b]\nfilename=bf\nsize=64k\nrw=write\nbuffer_pattern=0xaa\nbuffer_compress_percentage=50\n' \
	>"$T/b.fio"
expect_exit 2 "$SB" run --quiet "$T/b.fio" "$T/sb"
grep -q "buffer-pattern: not with --buffer-compress" "$T/err" || fail "compress: $(cat "$T/err")"
ok "buffer_pattern: bad patterns refused naming line and option"

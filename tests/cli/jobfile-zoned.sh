# random_distribution=zoned and zoned_abs reach the job: a write job whose
# zones hold all accesses in the first 10% (or the first 1 MiB) of a new
# sparse file leaves data there and nowhere else (SEEK_DATA), and its JSON
# records the zones.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

# the extents holding data of a file: "START END" lines
extents() {
	python3 - "$1" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
size, off = os.fstat(fd).st_size, 0
while off < size:
    try:
        d = os.lseek(fd, off, os.SEEK_DATA)
    except OSError:
        break
    off = os.lseek(fd, d, os.SEEK_HOLE)
    print(d, off)
PY
}
printf 'x' >"$T/probe" && truncate -s 1M "$T/probe"
[ "$(extents "$T/probe" | tail -1 | cut -d' ' -f2)" = 4096 ] ||
	skip "the filesystem of $T does not report holes (SEEK_DATA)"

check() { # SPEC RECORDED LO HI: all data of a 16 MiB randwrite job in [LO, HI)
	printf '[z]\nrw=randwrite\nbs=4k\nsize=16M\nrandom_distribution=%s\nnumber_ios=1000\n' "$1" >"$T/z.fio"
	rm -f "$T/z.bin"
	expect_exit 0 "$SB" run --quiet --keep --output="$T/z.json" "$T/z.fio" "$T/z.bin"
	[ "$(json "$T/z.json" "d['jobs'][0]['storbench']['options']['random_distribution']")" = "$2" ] ||
		fail "$1: recorded as $(json "$T/z.json" "d['jobs'][0]['storbench']['options']['random_distribution']")"
	extents "$T/z.bin" >"$T/ext"
	[ -s "$T/ext" ] || fail "$1: no data written"
	start=$(head -1 "$T/ext" | cut -d' ' -f1) end=$(tail -1 "$T/ext" | cut -d' ' -f2)
	# extents are whole pages: the zone's edges rounded out to 4 KiB
	[ "$start" -ge $(($3 / 4096 * 4096)) ] && [ "$end" -le $((($4 + 4095) / 4096 * 4096)) ] ||
		fail "$1: data in [$start, $end), outside [$3, $4)"
	# 1000 random 4 KiB writes into at most 410 blocks touch most of them
	bytes=$(awk '{ n += $2 - $1 } END { print n }' "$T/ext")
	[ "$bytes" -ge $((($4 - $3) / 2)) ] || fail "$1: only $bytes bytes written in the zone"
}
check "zoned:100/10" "zoned:100/10" 0 1677721
check "zoned:0/90:100/10" "zoned:0/90:100/10" 15099494 16777216
check "zoned_abs:0/1M:100/1M" "zoned_abs:0/1048576:100/1048576" 1048576 2097152
ok "zoned accesses stay in their zones"

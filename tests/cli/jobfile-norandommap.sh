# fio's norandommap in job files: random offsets drawn afresh (by the
# random_distribution when one is given) and the last request of a pass
# whole, so with several block sizes a job moves
# from size= up to a block less than size= + its largest block, as fio's
# do_io (t/jobs/t0023's bsrange_no_rm moves 2099200 bytes of 2097152 in
# fio); with one block size exactly size=; with verify each block is
# still written once (checked as before). Compared with the real fio
# where it is installed.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# moved TOOL SEED: the write bytes of a randwrite bsrange job on null
job() { # SEED [extra option]
	printf '[j]\nioengine=null\nrw=randwrite\nsize=1m\nbsrange=512-4k\nnorandommap\nrandseed=%s\n%s\n' "$1" "${2:-}"
}
moved() { # TOOL FILE
	"$@" --output-format=json 2>/dev/null | python3 -c '
import json, sys; t = sys.stdin.read(); d = json.loads(t[t.find("{"):])
print(sum(j["write"]["io_bytes"] for j in d["jobs"]))'
}
# range_check NAME EXTRA TOOL...: the bytes of 6 seeds, each within
# [1 MiB, 1 MiB + 4 KiB), one at least above 1 MiB
range_check() {
	name=$1
	extra=$2
	shift 2
	over=0
	for seed in 1 2 3 4 5 6; do
		job "$seed" "$extra" >"$T/j$seed.fio"
		b=$(moved "$@" "$T/j$seed.fio") || fail "$name: seed $seed did not run"
		[ "$b" -ge 1048576 ] && [ "$b" -lt $((1048576 + 4096)) ] ||
			fail "$name: seed $seed moved $b bytes, not within a block of 1 MiB"
		[ "$b" -gt 1048576 ] && over=$((over + 1))
	done
	[ "$over" -gt 0 ] || fail "$name: 6 seeds moved exactly 1 MiB: the last request was cut"
	ok "$name: norandommap moves size= up to a block more ($over of 6 seeds over)"
}
zoned=random_distribution=zoned:50/5:30/15:20/80
range_check storbench "" "$SB" fio
range_check "storbench, zoned" "$zoned" "$SB" fio
if command -v fio >/dev/null 2>&1; then
	range_check "fio $(fio --version)" "" fio
	range_check "fio $(fio --version), zoned" "$zoned" fio
else
	echo "note: fio not installed: not compared with the real fio"
fi

# one block size: exactly size=
printf '[j]\nioengine=null\nrw=randwrite\nsize=1m\nbs=4k\nnorandommap\n' >"$T/one.fio"
[ "$(moved "$SB" fio "$T/one.fio")" = 1048576 ] || fail "bs=4k norandommap: $(moved "$SB" fio "$T/one.fio")"
ok "one block size: exactly size="

# with verify every block is still written once and checked
printf '[v]\nfilename=%s\nrw=randwrite\nsize=256k\nbsrange=512-4k\nnorandommap\nverify=crc32c\n' \
	"$T/v" >"$T/v.fio"
expect_exit 0 "$SB" fio --output-format=json --output="$T/v.json" "$T/v.fio"
[ "$(json "$T/v.json" "d['jobs'][0]['write']['io_bytes']")" = 262144 ] ||
	fail "verify: $(json "$T/v.json" "d['jobs'][0]['write']['io_bytes']")"
ok "with verify: each block once, verified"

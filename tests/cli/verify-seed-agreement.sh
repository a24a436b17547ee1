# What a check learns from the data, it learns by agreement: another run's
# block at the start of the region does not make the whole region
# "foreign". A newer generation than the one asked for is "newer" (not
# "stale", which means a lost write). And when the write phase failed, the
# result says what failed instead of "0 of 0 blocks not intact".
# needs: root
. "$(dirname "$0")/../lib/cli.sh"

K=4096
F=$T/f.bin
v() { json "$T/r.json" "d['storbench']['verify']$1"; }

expect_exit 0 "$SB" verify --phase=write --size=1M --seed=31 --quiet "$F"
expect_exit 0 "$SB" verify --phase=write --size=64k --seed=32 --quiet "$T/other.bin"
dd if="$T/other.bin" of="$F" bs=$K count=1 conv=notrunc status=none
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/r.json" "$F"
[ "$(v "['seed']")" = 31 ] || fail "seed learned from the first block: $(cat "$T/out")"
[ "$(v "['foreign']")" = 1 ] && [ "$(v "['intact']")" = 255 ] || fail "counts: $(cat "$T/out")"
ok "another run's block at the start: the seed of the rest"

expect_exit 0 "$SB" verify --phase=write --seed=31 --generation=2 --quiet "$F"
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/r.json" "$F"
[ "$(v "['newer']")" = 256 ] && [ "$(v "['stale']")" = 0 ] || fail "newer: $(cat "$T/out")"
[ "$(v "['bad_ranges'][0]['generation']")" = 2 ] || fail "generation: $(v "['bad_ranges']")"
grep -q "newer      at 0 B (0), 1.00 MiB: generation 2, expected 1" "$T/out" || fail "text: $(cat "$T/out")"
ok "a newer generation is newer, not stale"

[ "$(id -u)" = 0 ] || skip "needs root to mount a small tmpfs to fill up"
S=$T/tmpfs
mkdir "$S"
mount -t tmpfs -o size=1m tmpfs "$S" 2>/dev/null || skip "cannot mount tmpfs"
trap 'unmount "$S"; cleanup' EXIT INT TERM
truncate -s 4M "$S/sparse.bin"
expect_exit 1 "$SB" verify --phase=write --destroy-data --quiet --output="$T/r.json" "$S/sparse.bin"
grep -q "result: FAILED, [0-9]* blocks not written (the first at .*: No space left on device)" \
	"$T/out" || fail "result: $(cat "$T/out")"
grep -q "0 of 0" "$T/out" && fail "0 of 0: $(cat "$T/out")"
[ "$(v "['result']")" = fail ] || fail "JSON result: $(v "['result']")"
ok "a failed write says what failed"

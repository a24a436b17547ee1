# verify on files and directories: write+check in one run and in separate
# runs (the seed read back from the data), every class produced by damaging
# the file with dd between the runs and found at its offset in the text and
# the JSON, exit codes, regions, refusals and bad options.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

K=4096
F=$T/data.bin

# flip BYTE-OFFSET: xor the byte with 1, in place
flip() {
	b=$(dd if="$F" bs=1 skip="$1" count=1 status=none | od -An -tu1 | tr -d ' ')
	printf "\\$(printf '%03o' $((b ^ 1)))" | dd of="$F" bs=1 seek="$1" conv=notrunc status=none
}
# v FILE EXPR: a field of the verify section
v() { json "$1" "d['storbench']['verify']$2"; }

# both phases on a new file: created, all intact, removed
expect_exit 0 "$SB" verify --size=8M --quiet --output="$T/r.json" "$F"
[ -e "$F" ] && fail "the file of --phase=both was left behind"
[ "$(v "$T/r.json" "['blocks_checked']")" = 2048 ] || fail "blocks_checked"
[ "$(v "$T/r.json" "['intact']")" = 2048 ] || fail "intact"
[ "$(v "$T/r.json" "['bad_ranges']")" = "[]" ] || fail "bad_ranges"
[ "$(v "$T/r.json" "['result']")" = pass ] || fail "result"
[ "$(json "$T/r.json" "d['jobs'][1]['read']['io_bytes']")" = 8388608 ] || fail "check job bytes"
grep -q "result: all 2048 blocks intact" "$T/out" || fail "text: $(cat "$T/out")"
ok "both phases on a new file"

# a directory: files created in it and removed
mkdir "$T/d"
expect_exit 0 "$SB" verify --size=3M --block-size=8k --bs=64k --iodepth=2 --quiet "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "files left in the directory: $(ls -A "$T/d")"
grep -q "blocks: 384 checked, 384 intact" "$T/out" || fail "dir text: $(cat "$T/out")"
ok "both phases on a directory"

# separate runs: generation 1, keep block 5 of it, then generation 2
expect_exit 0 "$SB" verify --phase=write --size=4M --seed=42 --quiet "$F"
dd if="$F" of="$T/old" bs=$K skip=5 count=1 status=none
expect_exit 0 "$SB" verify --phase=write --seed=42 --generation=2 --quiet "$F"
expect_exit 0 "$SB" verify --phase=check --generation=2 --quiet --output="$T/r.json" "$F"
[ "$(v "$T/r.json" "['seed']")" = 42 ] || fail "seed not read from the data"
[ "$(v "$T/r.json" "['seed_from_data']")" = True ] || fail "seed_from_data"
ok "write and check in separate runs, seed read from the data"

flip $((3 * K + 100))							# corrupted
dd if="$F" of="$F" bs=$K skip=1 seek=7 count=1 conv=notrunc status=none	# misplaced
dd if="$T/old" of="$F" bs=$K seek=5 count=1 conv=notrunc status=none	# stale
dd if=/dev/zero of="$F" bs=$K seek=9 count=2 conv=notrunc status=none	# foreign
flip $((12 * K + 2))							# the magic: corrupted
expect_exit 1 "$SB" verify --phase=check --generation=2 --quiet --output="$T/r.json" "$F"
for k in "intact 1018" "corrupted 2" "misplaced 1" "stale 1" "foreign 2" "unreadable 0"; do
	set -- $k
	[ "$(v "$T/r.json" "['$1']")" = "$2" ] || fail "$1: $(v "$T/r.json" "['$1']"), want $2"
done
r() { v "$T/r.json" "['bad_ranges'][$1]$2"; }
[ "$(r 0 "['offset']")" = $((3 * K)) ] && [ "$(r 0 "['class']")" = corrupted ] || fail "range 0"
[ "$(r 1 "['offset']")" = $((5 * K)) ] && [ "$(r 1 "['class']")" = stale ] || fail "range 1"
[ "$(r 1 "['generation']")" = 1 ] || fail "stale generation"
[ "$(r 2 "['offset']")" = $((7 * K)) ] && [ "$(r 2 "['class']")" = misplaced ] || fail "range 2"
[ "$(r 2 "['expected_offset']")" = $K ] || fail "misplaced expected_offset"
[ "$(r 3 "['offset']")" = $((9 * K)) ] && [ "$(r 3 "['length']")" = $((2 * K)) ] || fail "range 3"
[ "$(r 3 "['class']")" = foreign ] || fail "range 3 class"
[ "$(r 4 "['offset']")" = $((12 * K)) ] && [ "$(r 4 "['class']")" = corrupted ] || fail "range 4"
[ "$(v "$T/r.json" "['bad_ranges_omitted']")" = 0 ] || fail "omitted"
[ "$(v "$T/r.json" "['result']")" = fail ] || fail "result"
ok "every class at its offset in the JSON"

"$SB" verify --phase=check --generation=2 --quiet "$F" >"$T/out" 2>&1
grep -q "misplaced  at 28.0 KiB (28672), 4.00 KiB: data written for 4.00 KiB (4096)" "$T/out" ||
	fail "text misplaced: $(cat "$T/out")"
grep -q "stale      at 20.0 KiB (20480), 4.00 KiB: generation 1, expected 2" "$T/out" ||
	fail "text stale"
grep -q "result: FAILED, 6 of 1024 blocks not intact" "$T/out" || fail "text result"
# the cap: one range listed, the rest counted
expect_exit 1 "$SB" verify --phase=check --generation=2 --max-ranges=1 --output="$T/r.json" "$F"
[ "$(v "$T/r.json" "['bad_ranges_omitted']")" = 4 ] || fail "omitted with --max-ranges=1"
grep -q "and 4 more ranges" "$T/out" || fail "text omitted: $(cat "$T/out")"
ok "text names the ranges in human units; the list is capped"

# the wrong generation or seed
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/r.json" "$F"
[ "$(v "$T/r.json" "['newer']")" = 1018 ] || fail "generation 1 expected: newer"
[ "$(v "$T/r.json" "['stale']")" = 0 ] || fail "generation 1 expected: none stale"
expect_exit 1 "$SB" verify --phase=check --generation=3 --quiet --output="$T/r.json" "$F"
[ "$(v "$T/r.json" "['stale']")" = 1019 ] || fail "generation 3 expected: stale"
expect_exit 1 "$SB" verify --phase=check --seed=43 --generation=2 --output="$T/r.json" "$F"
[ "$(v "$T/r.json" "['foreign']")" = 1024 ] || fail "another seed: foreign"
ok "a newer generation than asked for is newer, an older one stale, another seed foreign"

# a region of an existing file: nothing outside it changes
head -c 1M /dev/urandom >"$T/before"
dd if="$T/before" of="$F" bs=1M count=1 conv=notrunc status=none
expect_exit 0 "$SB" verify --offset=1M --size=2M --quiet --output="$T/r.json" "$F"
dd if="$F" of="$T/after" bs=1M count=1 status=none
cmp -s "$T/before" "$T/after" || fail "the first MiB changed"
[ "$(v "$T/r.json" "['offset']")" = 1048576 ] && [ "$(v "$T/r.json" "['size']")" = 2097152 ] ||
	fail "region in JSON"
[ -f "$F" ] || fail "an existing file was removed"
ok "--offset/--size region"

# a file storbench did not create is only read
head -c 1M /dev/urandom >"$T/user.bin"
sum=$(md5sum <"$T/user.bin")
expect_exit 2 "$SB" verify --phase=write "$T/user.bin"
grep -q "refusing to overwrite" "$T/err" || fail "refusal: $(cat "$T/err")"
expect_exit 1 "$SB" verify --phase=check --quiet "$T/user.bin"
grep -q "no block written by storbench" "$T/err" || fail "no-seed warning: $(cat "$T/err")"
grep -q "256 foreign" "$T/out" || fail "user data is foreign: $(cat "$T/out")"
[ "$(md5sum <"$T/user.bin")" = "$sum" ] || fail "the user's file changed"
ok "a file that is not ours is refused for writing and reads as foreign"

# a directory: separate runs, a file cut short is missing its end
mkdir "$T/e"
expect_exit 0 "$SB" verify --phase=write --size=2M --seed=7 --quiet "$T/e"
set -- "$T"/e/.storbench-verify-*-0.tmp
[ -f "$1" ] || fail "no file kept in the directory"
truncate -s $((2048 * 1024 - 3 * K)) "$1"
expect_exit 1 "$SB" verify --phase=check --size=2M --quiet --output="$T/r.json" "$T/e"
[ "$(v "$T/r.json" "['missing']")" = 3 ] || fail "missing count"
[ "$(v "$T/r.json" "['unreadable']")" = 0 ] || fail "unreadable count"
[ "$(v "$T/r.json" "['bad_ranges'][0]['offset']")" = $((2048 * 1024 - 3 * K)) ] || fail "offset"
[ "$(v "$T/r.json" "['bad_ranges'][0]['class']")" = missing ] || fail "class"
expect_exit 2 "$SB" verify --phase=check "$T/d"
grep -q "nothing to check" "$T/err" || fail "empty directory: $(cat "$T/err")"
# a smaller write over it leaves nothing of the larger one to check
expect_exit 0 "$SB" verify --phase=write --size=1M --seed=8 --quiet "$T/e"
expect_exit 0 "$SB" verify --phase=check --quiet "$T/e"
grep -q "blocks: 256 checked, 256 intact" "$T/out" || fail "after a smaller write: $(cat "$T/out")"
ok "directory in separate runs; a short file is missing its end"

# bad options: one line naming the option, nothing created
for o in --phase=twice --block-size=1000 --block-size=0 --bs=6k --iodepth=0 --direct=2 \
	--generation=x --max-ranges=-1 --size=5000; do
	expect_exit 2 "$SB" verify "$o" "$T/new.bin"
	[ "$(wc -l <"$T/err")" = 1 ] || fail "$o: $(cat "$T/err")"
	[ -e "$T/new.bin" ] && fail "$o created the file"
done
expect_exit 3 "$SB" verify --phase=check "$T/missing.bin"
expect_exit 2 "$SB" verify --probe "$F"
ok "bad options"

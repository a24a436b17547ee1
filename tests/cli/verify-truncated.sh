# Data that is gone does not pass: every block records where the written
# region ends, so a check finds a file cut short (by a block, or by part of
# one) and a directory's deleted or shortened file as missing blocks, with
# their ranges, whether or not it is given the write's --size.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

K=4096
F=$T/f.bin
v() { json "$T/r.json" "d['storbench']['verify']$1"; }

expect_exit 0 "$SB" verify --phase=write --size=1M --quiet "$F"
truncate -s $((1024 * 1024 - K)) "$F"
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/r.json" "$F"
[ "$(v "['missing']")" = 1 ] && [ "$(v "['intact']")" = 255 ] || fail "a block cut off: $(cat "$T/out")"
[ "$(v "['bad_ranges'][0]['offset']")" = $((1024 * 1024 - K)) ] || fail "range: $(v "['bad_ranges']")"
[ "$(v "['bad_ranges'][0]['class']")" = missing ] || fail "class: $(v "['bad_ranges']")"
grep -q "missing    at 1020 KiB (1044480), 4.00 KiB" "$T/out" || fail "text: $(cat "$T/out")"
truncate -s $((1024 * 1024 - K - 2048)) "$F"
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/r.json" "$F"
[ "$(v "['missing']")" = 2 ] || fail "2 KiB more cut off: $(cat "$T/out")"
expect_exit 1 "$SB" verify --phase=check --size=1M --quiet --output="$T/r.json" "$F"
[ "$(v "['missing']")" = 2 ] || fail "with the write's --size: $(cat "$T/out" "$T/err")"
ok "a file cut short is missing its end"

# a directory: a file shortened, and the last file deleted
mkdir "$T/d"
expect_exit 0 "$SB" verify --phase=write --size=1M --quiet "$T/d"
set -- "$T"/d/.storbench-verify-*-0.tmp
truncate -s $((1024 * 1024 - 3 * K)) "$1"
expect_exit 1 "$SB" verify --phase=check --quiet --output="$T/r.json" "$T/d"
[ "$(v "['missing']")" = 3 ] || fail "a directory's file cut short: $(cat "$T/out")"
rm -f "$T"/d/.storbench-verify-*
# the region runs into a second file (a file holds 1 GiB)
expect_exit 0 "$SB" verify --phase=write --size=1025M --bs=4M --quiet "$T/d"
rm -f "$T"/d/.storbench-verify-*-1.tmp
expect_exit 1 "$SB" verify --phase=check --bs=4M --quiet --output="$T/r.json" "$T/d"
[ "$(v "['missing']")" = 256 ] || fail "the last file deleted: $(cat "$T/out")"
[ "$(v "['bad_ranges'][0]['offset']")" = $((1 << 30)) ] || fail "range: $(v "['bad_ranges']")"
[ "$(v "['bad_ranges'][0]['length']")" = $((1 << 20)) ] || fail "length: $(v "['bad_ranges']")"
ok "a directory's file cut short or deleted is missing"

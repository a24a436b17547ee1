# quick on a directory: every test in both directions, repeats summarised,
# the test file removed; two targets side by side.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/a" "$T/b"
expect_exit 0 "$SB" quick --size=16M --runtime=200ms --repeat=2 --quiet \
	--output="$T/q.json" "$T/a"
[ -z "$(ls -A "$T/a")" ] || fail "test file left behind"
[ "$(json "$T/q.json" "len(d['storbench']['summary'])")" = 8 ] || fail "expected 8 summary rows"
[ "$(json "$T/q.json" "len(d['jobs'])")" = 16 ] || fail "expected 16 measured runs"
json "$T/q.json" "all(r['runs'] == 2 and r['bw_bytes_min'] <= r['bw_bytes_median'] <= r['bw_bytes_max'] for r in d['storbench']['summary'])" |
	grep -q True || fail "summary rows inconsistent"
json "$T/q.json" "sorted(set(r['test'] for r in d['storbench']['summary']))" |
	grep -q "RND4K Q32T1" || fail "test names"
grep -q "SEQ1M Q8T1" "$T/out" || fail "table missing"
ok "quick on a directory"

expect_exit 0 "$SB" quick --size=8M --runtime=200ms --repeat=1 --read-only --quiet \
	--output="$T/ab.json" "$T/a" "$T/b"
[ -f "$T/ab.json" ] && [ -f "$T/ab-2.json" ] || fail "two result files expected"
grep -q "B/A" "$T/out" || fail "no ratio line"
[ "$(json "$T/ab.json" "len(d['storbench']['summary'])")" = 4 ] || fail "read-only: 4 rows"
ok "quick with two targets"

# an existing file storbench did not create: the write tests are left out,
# and that is said, with how to get them, with --quiet too and in the
# results (issue 26, item 18)
head -c $((4 << 20)) /dev/urandom >"$T/user.bin"
sum=$(sha256sum <"$T/user.bin")
expect_exit 0 "$SB" quick --size=2M --runtime=100ms --quiet --output="$T/u.json" "$T/user.bin"
grep -q "'$T/user.bin' is a file storbench did not create: read tests only (the write tests need --destroy-data, and overwrite it, or a new file or a directory to make one in)" "$T/err" ||
	{ cat "$T/err"; fail "--quiet: the write tests left out without a word"; }
json "$T/u.json" "d['storbench']['warnings']" | grep -q "read tests only" || fail "the results do not say the write tests were left out"
[ "$(sha256sum <"$T/user.bin")" = "$sum" ] || fail "the user's file changed"
ok "a file storbench did not create: read tests only, said with --quiet and in the results"

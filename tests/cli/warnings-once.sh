# A warning that many runs raise is printed once, with the runs it applies
# to ("measured for only 1.00 s in 8 of 8 runs"), where it was printed once
# per run; the JSON keeps one sentence per run, naming it.
# needs: slow
. "$(dirname "$0")/../lib/cli.sh"

# count_lines PATTERN: how many lines of stderr match
count_lines() { grep -c "$1" "$T/err"; }

# quick: 4 read tests x 2 runs, every run 1 s
mkdir "$T/d"
expect_exit 0 "$SB" quick --read-only --size=16M --runtime=1s --repeat=2 --quiet \
	--output="$T/q.json" "$T/d"
[ "$(count_lines 'measured for only')" = 1 ] || { cat "$T/err"; fail "short runs: not one line"; }
grep -q "^warning: measured for only [0-9.]*\(\.\.[0-9.]*\)\? s in 8 of 8 runs: runs under 2 s" \
	"$T/err" || { cat "$T/err"; fail "short runs: not 'in 8 of 8 runs'"; }
[ "$(json "$T/q.json" "sum('measured for only' in w for w in d['storbench']['warnings'])")" = 8 ] ||
	fail "the JSON does not keep one sentence per run"
json "$T/q.json" "d['storbench']['warnings']" | grep -q "in 'RND4K Q1T1 read (run 2 of 2)'" ||
	fail "the JSON does not name the run"
ok "quick: $(grep 'measured for only' "$T/err")"

# run --repeat: the same
expect_exit 0 "$SB" run --rw=randread --size=8M --runtime=1s --time-based --repeat=3 --quiet \
	"$T/f.bin"
[ "$(count_lines 'measured for only')" = 1 ] || { cat "$T/err"; fail "run --repeat: not one line"; }
grep -q "measured for only .* in 3 of 3 runs: " "$T/err" || fail "run --repeat: not 'in 3 of 3 runs'"
ok "run --repeat=3: one line"

# one run: its own sentence, naming it
expect_exit 0 "$SB" run --rw=randread --size=8M --runtime=1s --time-based --quiet "$T/f.bin"
grep -q "^warning: measured for only .* in 'job': runs under 2 s" "$T/err" ||
	{ cat "$T/err"; fail "one run: its own sentence"; }
ok "one run: $(grep 'measured for only' "$T/err")"

# some runs: how many of all, and which
cat >"$T/three.fio" <<'JOB'
[global]
size=8M
rw=randread
time_based=1
[a]
runtime=1
[b]
runtime=1
[c]
runtime=3
JOB
expect_exit 0 "$SB" run --quiet "$T/three.fio" "$T/d"
[ "$(count_lines 'measured for only')" = 1 ] || { cat "$T/err"; fail "job file: not one line"; }
grep -q "measured for only .* in 2 of 3 runs (a, b): " "$T/err" ||
	{ cat "$T/err"; fail "job file: not 'in 2 of 3 runs (a, b)'"; }
ok "two jobs of three: $(grep 'measured for only' "$T/err")"

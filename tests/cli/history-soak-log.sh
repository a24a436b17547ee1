#!/bin/sh
# history --import of a soak's JSON Lines log (docs/history.md): a soak
# that finished is recorded with the figures of its result file, name for
# name and value for value; a soak interrupted (SIGINT), killed (SIGKILL)
# or cut short (the log ends without its summary) is recorded
# "interrupted", never "pass" (a failed iteration stays "fail"); a
# resumed soak with its last summary, over all its iterations; a torn last
# line is left out; a line the soak's reader refuses is named, and
# the other files are still recorded; a log of a later version is said so.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 program"
"$SB" --version | grep -q sqlite || skip "a storbench built without SQLite"
unset STORBENCH_DB
H="$T/h.db"

iterations() { grep -c '"type":"iteration"' "$1" 2>/dev/null; }
logged() { [ "$(iterations "$1")" -ge "$2" ] 2>/dev/null; } # LOG N: N iterations
fig() { # ID NAME: the figure as stored (its word, or its value)
	sqlite3 "$H" "SELECT coalesce(nullif(word, ''), value) FROM figures WHERE result = $1 AND name = '$2'"
}
imported() { # FILE: the id the last import gave it
	sed -n "s/^recorded '$(basename "$1")': result \([0-9]*\), .*/\1/p" "$T/out"
}

# ---- a soak that finished: the log gives its result file's figures
expect_exit 0 "$SB" soak --iterations=3 --size=2M --direct=0 --quiet --log="$T/s.jsonl" \
	-o "$T/s.json" "$T/s.dat"
cd "$T" || fail "cd"
expect_exit 0 "$SB" history --db="$H" --import --label kind=log s.jsonl s.json
grep -q "^recorded 's.jsonl': result 1, soak, 21 figures$" "$T/out" || { cat "$T/out"; fail "the log"; }
[ "$(fig 1 verdict)" = pass ] && [ "$(fig 1 iterations)" = 3.0 ] || fail "the log's verdict"
d=$(sqlite3 "$H" "SELECT count(*) FROM figures a JOIN figures b ON a.name = b.name
	WHERE a.result = 1 AND b.result = 2 AND a.value IS b.value AND a.word IS b.word")
[ "$d" = 21 ] || fail "the log's figures and its result file's: $d of 21 alike"
sqlite3 "$H" "SELECT command, version, started > 0 FROM results WHERE id = 1" >"$T/r"
[ "$(cat "$T/r")" = "soak|$("$SB" --version | sed -n 's/^storbench \([^ ]*\).*/\1/p;q')|1" ] ||
	{ cat "$T/r"; fail "the log's command, version and start"; }
python3 - "$H" "$T/s.jsonl" <<'PY' || fail "the stored log differs from its file"
import sqlite3, sys
r = sqlite3.connect(sys.argv[1]).execute("SELECT result FROM results WHERE id = 1")
assert r.fetchone()[0] == open(sys.argv[2]).read()
PY
ok "a finished soak's log recorded with its result file's 21 figures"

# ---- the same log cut before its summary (a soak killed): interrupted
head -n 3 "$T/s.jsonl" >"$T/cut.jsonl"
# and one whose second iteration failed, cut likewise: a fail stays a fail
python3 - "$T/s.jsonl" "$T/failed.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()[:3]
it = json.loads(lines[2])
it['failed'] = True
it['io_errors'] = 1
lines[2] = json.dumps(it, separators=(',', ':'))
open(sys.argv[2], 'w').write('\n'.join(lines) + '\n')
PY
# a torn last line (a power cut in the middle of a write) is left out
{ cat "$T/cut.jsonl"; printf '{"type":"iteration","iter'; } >"$T/torn.jsonl"
expect_exit 0 "$SB" history --db="$H" --import cut.jsonl failed.jsonl torn.jsonl
for f in cut torn; do
	id=$(imported $f.jsonl)
	[ "$(fig "$id" verdict)" = interrupted ] && [ "$(fig "$id" iterations)" = 2.0 ] ||
		fail "$f.jsonl: $(fig "$id" verdict) after $(fig "$id" iterations) iterations"
done
id=$(imported failed.jsonl)
[ "$(fig "$id" verdict)" = fail ] && [ "$(fig "$id" failed_iterations)" = 1.0 ] ||
	fail "failed.jsonl: $(fig "$id" verdict), $(fig "$id" failed_iterations) failed"
ok "a log without its summary recorded interrupted (torn line left out), a failure as fail"

# stopped NAME SIGNAL: a soak of its own stopped by SIGNAL once it logged 2
# iterations, its log NAME.jsonl imported
stopped() {
	"$SB" soak --iterations=100000 --size=8M --direct=0 --quiet --log="$T/$1.jsonl" \
		"$T/$1.dat" >"$T/$1.out" 2>&1 &
	pid=$!
	wait_until 60 logged "$T/$1.jsonl" 2 || { kill $pid; fail "$1: no iteration logged"; }
	kill -"$2" $pid
	wait $pid
	expect_exit 0 "$SB" history --db="$H" --import "$1.jsonl"
}

# ---- a soak interrupted for real (SIGINT), then resumed
stopped i INT
id=$(imported i.jsonl)
[ "$(fig "$id" verdict)" = interrupted ] || fail "interrupted soak: $(fig "$id" verdict)"
n=$(($(iterations "$T/i.jsonl") + 2))
expect_exit 0 "$SB" soak --resume="$T/i.jsonl" --iterations=$n --quiet
expect_exit 0 "$SB" history --db="$H" --import i.jsonl
id=$(imported i.jsonl)
# every iteration logged, before and after the resume (one the signal cut
# short too: --iterations counts whole ones)
n=$(iterations "$T/i.jsonl")
[ "$(fig "$id" verdict)" = pass ] && [ "$(fig "$id" iterations)" = "$n.0" ] ||
	fail "resumed soak: $(fig "$id" verdict) after $(fig "$id" iterations), expected $n"
ok "an interrupted soak recorded interrupted, then pass over all $n iterations once resumed"

# ---- a soak killed (SIGKILL): no summary, interrupted
stopped k KILL
id=$(imported k.jsonl)
[ "$(fig "$id" verdict)" = interrupted ] || fail "killed soak: $(fig "$id" verdict)"
ok "a killed soak recorded interrupted"

# ---- a line the soak's reader refuses: named; the others recorded
sed '2s/"generation":[0-9]*/"generation":"x"/' "$T/s.jsonl" >"$T/bad.jsonl"
expect_exit 2 "$SB" history --db="$H" --import bad.jsonl s.jsonl
grep -q "'bad.jsonl': a soak log whose line 2 is refused: generation" "$T/err" ||
	{ cat "$T/err"; fail "the bad line"; }
grep -q "^recorded 's.jsonl'" "$T/out" || fail "the good log after the bad one"
ok "a refused line named by number and key; the other log recorded"

# ---- a log of a later storbench's version: said so, not "not JSON"
sed '1s/"log_version":1/"log_version":2/' "$T/s.jsonl" >"$T/v2.jsonl"
expect_exit 2 "$SB" history --db="$H" --import v2.jsonl
grep -q "'v2.jsonl': a soak log of version 2: this storbench reads version 1" "$T/err" ||
	{ cat "$T/err"; fail "the log's version"; }
ok "a soak log of version 2 refused as such"

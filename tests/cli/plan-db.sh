#!/bin/sh
# plan --db=PATH and --label KEY=VALUE on the command line: every step
# records its result in that history with the plan's labels (its label=
# lines and --label's), one row per step (storbench history lists them);
# --db replaces the plan's db=; a --label that is not KEY=VALUE is
# refused before anything runs.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q sqlite || skip "a storbench built without SQLite"
cd "$T" || fail "cd"
mkdir "$T/d"
cat >"$T/p.ini" <<INI
[global]
name = h
label = chamber=85C
db = $T/not-this.db
[one]
run = verify --size=1M
[two]
run = verify --size=2M
INI

expect_exit 0 "$SB" plan --quiet --db="$T/h.db" --label firmware=2.0b --label board=rk "$T/p.ini" "$T/d"
grep -qx "label: firmware=2.0b" "$T/out" || { cat "$T/out"; fail "--label not the plan's"; }
[ -e "$T/not-this.db" ] && fail "db= used, not --db"
expect_exit 0 "$SB" history --db="$T/h.db" --label firmware=2.0b --label board=rk --format=csv
[ "$(grep -c ',verify,.*"board=rk,chamber=85C,firmware=2.0b"$' "$T/out")" = 2 ] ||
	{ cat "$T/out"; fail "not one row per step with the labels"; }
ok "--db and --label: one row per step, with the plan's labels"

expect_exit 2 "$SB" plan --db="$T/h.db" --label firmware "$T/p.ini" "$T/d"
grep -qF -- "--label: 'firmware' is not valid (expected KEY=VALUE)" "$T/err" || { cat "$T/err"; fail "a bad --label"; }
expect_exit 0 "$SB" history --db="$T/h.db" --format=csv
[ "$(grep -c ',verify,' "$T/out")" = 2 ] || { cat "$T/out"; fail "a refused plan recorded something"; }
ok "a bad --label refused, nothing recorded"

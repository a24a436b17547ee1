#!/bin/sh
# The results history on a PostgreSQL server (--db=postgresql://...,
# docs/history.md): a throwaway cluster of the test's own (initdb and
# pg_ctl as the user nobody, its socket and data under $T, no TCP port),
# the same made-up results imported there and into SQLite give the same
# answers (listing, a figure, groups with their verdicts); 8 processes
# recording at once lose no row; a database of something else and a newer
# schema are refused; a server that went away is named, the result kept.
# Skips where PostgreSQL's server or a build with libpq is missing.
# needs: root
. "$(dirname "$0")/../lib/cli.sh"
"$SB" --version | grep -q postgresql || skip "a storbench built without libpq (HAVE_PQ)"
"$SB" --version | grep -q sqlite || skip "a storbench built without SQLite"
[ "$(id -u)" = 0 ] || skip "needs root to run the server as nobody"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)
[ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] || skip "no PostgreSQL server (Debian: postgresql)"
command -v runuser >/dev/null || skip "no runuser"
unset STORBENCH_DB
chmod 755 "$T"
mkdir "$T/pg" "$T/sock" && chown nobody "$T/pg" "$T/sock" || fail "mkdir"
as_pg() { runuser -u nobody -- "$@"; }
as_pg "$bin/initdb" -D "$T/pg/data" -U storbench -A trust >"$T/initdb.log" 2>&1 ||
	{ cat "$T/initdb.log"; skip "initdb failed"; }
as_pg "$bin/pg_ctl" -D "$T/pg/data" -l "$T/pg/log" -w -t 60 \
	-o "-k $T/sock -c listen_addresses= -c fsync=off" start >"$T/pgctl.log" 2>&1 ||
	{ cat "$T/pgctl.log" "$T/pg/log"; skip "the server did not start"; }
trap 'as_pg "$bin/pg_ctl" -D "$T/pg/data" -m immediate stop >/dev/null 2>&1; cleanup' EXIT INT TERM
url() { echo "postgresql://storbench@/$1?host=$T/sock"; }
"$bin/createdb" -h "$T/sock" -U storbench lab || fail "createdb"
"$bin/createdb" -h "$T/sock" -U storbench other || fail "createdb"
P=$(url lab)

# ---- the same answers as SQLite ----
expect_exit 0 "$SB" verify --size=1M --direct=0 --quiet -o "$T/v.json" "$T/v.dat"
python3 - "$T/v.json" "$T" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
for k, (fw, shift) in enumerate([('1.0', 0), ('1.1', 5), ('1.2', 300)]):
    for i in range(6):
        d = json.loads(json.dumps(base))
        d['timestamp'] = 1796000000 + (10 * k + i) * 86400
        d['storbench']['device'] = {'model': 'M', 'serial': 'S', 'firmware': fw, 'capacity': 1}
        w = d['storbench']['verify']['write']  # write.bw: bytes over ns
        w['ns'] = int(w['bytes'] * 1e9 / (1000 + 10 * i + shift))
        json.dump(d, open('%s/k-%d-%d.json' % (sys.argv[2], k, i), 'w'))
PY
for db in "$P" "$T/s.db"; do
	expect_exit 0 "$SB" history --db="$db" --import --label lab=x "$T"/k-*.json
done
for q in "--format=json" "--figure=write.bw --format=json" \
	"--figure=write.bw --group-by=firmware --format=json" \
	"--figure=write.bw --group-by=day --firmware=1.2" "--label lab=x --since=2026-12-05 --format=csv" \
	"--figure=damaged_blocks --group-by=label:lab"; do
	# shellcheck disable=SC2086
	"$SB" history --db="$P" $q >"$T/pg.out" 2>&1 || { cat "$T/pg.out"; fail "postgresql: $q"; }
	# shellcheck disable=SC2086
	"$SB" history --db="$T/s.db" $q >"$T/sq.out" 2>&1 || { cat "$T/sq.out"; fail "sqlite: $q"; }
	sed -i 's/"recorded" : [0-9]*/"recorded"/' "$T/pg.out" "$T/sq.out"
	cmp -s "$T/pg.out" "$T/sq.out" || { diff "$T/sq.out" "$T/pg.out"; fail "answers differ: $q"; }
done
"$SB" history --db="$P" --figure=write.bw --group-by=firmware >"$T/out"
grep -q "^1.1 .* no difference " "$T/out" && grep -q "^1.2 .* better: " "$T/out" ||
	{ cat "$T/out"; fail "verdicts"; }
ok "PostgreSQL and SQLite give the same answers (6 queries)"

# ---- 8 processes at once, the schema made once ----
C=$(url other)
for i in 1 2 3 4 5 6 7 8; do
	"$SB" verify --size=1M --direct=0 --quiet -o "$T/c$i.json" --db="$C" --label n="$i" \
		"$T/c$i.dat" >"$T/c$i.out" 2>&1 &
done
wait
n=$("$SB" history --db="$C" --format=csv | grep -c ',verify,')
[ "$n" = 8 ] || { cat "$T"/c*.out; fail "8 processes at once: $n rows"; }
ok "8 processes recording at once in one server: 8 rows"

# ---- refusals ----
"$bin/createdb" -h "$T/sock" -U storbench theirs || fail "createdb"
"$bin/psql" -q -h "$T/sock" -U storbench -d theirs -c "CREATE TABLE t(x int)" || fail "psql"
expect_exit 2 "$SB" history --db="$(url theirs)"
grep -q "is not a storbench history" "$T/err" || { cat "$T/err"; fail "not ours"; }
"$bin/psql" -q -h "$T/sock" -U storbench -d other -c "UPDATE storbench_schema SET version = 7"
expect_exit 2 "$SB" history --db="$C"
grep -q "is a history of schema 7, newer than this storbench's (1)" "$T/err" ||
	{ cat "$T/err"; fail "newer"; }
expect_exit 3 "$SB" history --db="postgresql://storbench:secret@/lab?host=$T/sock&port=1"
grep -q "cannot connect" "$T/err" && ! grep -q secret "$T/err" || { cat "$T/err"; fail "no server"; }
as_pg "$bin/pg_ctl" -D "$T/pg/data" -m immediate stop >/dev/null 2>&1
expect_exit 3 "$SB" verify --size=1M --direct=0 --quiet -o "$T/gone.json" --db="$P" "$T/g.dat"
json "$T/gone.json" "d['storbench']['verify']['result']" | grep -qx pass || fail "result lost"
grep -q "record it later with" "$T/err" || { cat "$T/err"; fail "a server gone"; }
ok "refused: a database of something else, a newer schema, no server (password not shown), a server gone"

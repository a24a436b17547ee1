# --format=json: stdout is exactly one JSON document; diagnostics on stderr.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

"$SB" run --rw=randread --size=4M --format=json "$T/f" >"$T/out" 2>"$T/err" ||
	fail "run failed: $(cat "$T/err")"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" || fail "stdout is not JSON"
[ "$(json "$T/out" "d['storbench']['schema_version']")" = 1 ] || fail "schema_version"
[ "$(json "$T/out" "len(d['jobs'])")" = 1 ] || fail "jobs"
grep -q '{' "$T/err" && fail "JSON on stderr"
# warnings (a short run) go to stderr and into the document
grep -q 'warning:' "$T/err" || fail "expected a short-run warning on stderr"
json "$T/out" "len(d['storbench']['warnings']) > 0" | grep -q True || fail "warnings not in JSON"
ok "json on stdout only"

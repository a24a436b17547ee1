# Bad options exit 2 with one line that names the option, and nothing is
# created or written.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
check() { # OPTION-NAME-IN-MESSAGE ARGS...
	name=$1; shift
	"$SB" run "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = "${RC:-2}" ] || { cat "$T/err"; fail "'$*' exited $rc, expected ${RC:-2}"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "'$*': expected one line"; }
	grep -q -- "$name" "$T/err" || { cat "$T/err"; fail "'$*': message does not name $name"; }
	grep -q '^storbench: ' "$T/err" || fail "'$*': message lacks the program name"
	[ -z "$(ls -A "$T/d")" ] || fail "'$*' created $(ls -A "$T/d")"
	[ -s "$T/out" ] && fail "'$*' printed to stdout"
	return 0
}
check --bs --bs=4q "$T/d"
check --bs --bs=0 "$T/d"
check --size --size=-1 "$T/d"
check --size --size=1k --bs=4k "$T/d"
check --iodepth --iodepth=0 "$T/d"
check --numjobs --numjobs=0 "$T/d"
check --rw --rw=readwrite "$T/d"
check --engine --engine=nope "$T/d"
check --runtime --runtime=5x "$T/d"
check --rwmixread --rwmixread=101 "$T/d"
check --bssplit --bssplit=4k/60:64k/30 "$T/d"
check --random-distribution --random-distribution=zipf:1 --rw=randread "$T/d"
check --random-distribution --random-distribution=zipf:1.2 --rw=read "$T/d"
check --direct --direct=2 "$T/d"
check --format --format=xml "$T/d"
check --time-based --time-based=1 "$T/d"
check --nonsense --nonsense=1 "$T/d"
check --bs --bs "$T/d"
check TARGET
RC=3 check "$T/missing/dir" "$T/missing/dir/file" # the target cannot be used: 3
check /dev/null /dev/null
check --repeat --repeat=0 "$T/d"
check --offset --offset=4k "$T/d"
check --iodepth-batch-complete --iodepth-batch-complete=0 "$T/d"
check --iodepth-batch-complete --iodepth=4 --iodepth-batch-complete=8 "$T/d"
check --iodepth-batch-complete --iodepth-batch-complete=sometimes "$T/d"
ok "run rejects bad options"

"$SB" quick --runtime=1x "$T/d" 2>"$T/err"; [ $? = 2 ] || fail "quick --runtime=1x"
grep -q -- --runtime "$T/err" || fail "quick message"
"$SB" quick --preset=fast "$T/d" 2>"$T/err"; [ $? = 2 ] || fail "quick --preset"
"$SB" nosuchcommand 2>"$T/err"; [ $? = 2 ] || fail "unknown command"
[ -z "$(ls -A "$T/d")" ] || fail "quick created files"
ok "quick and main reject bad input"

# an existing file we did not create is not overwritten without consent
echo precious > "$T/user.bin"
"$SB" run --rw=write --bs=4k --direct=0 "$T/user.bin" 2>"$T/err"; [ $? = 2 ] || fail "overwrote"
grep -q destroy-data "$T/err" || fail "refusal does not name --destroy-data"
[ "$(cat "$T/user.bin")" = precious ] || fail "user file changed"
ok "existing file refused without --destroy-data"

"$SB" --help | grep -q quick || fail "--help"
"$SB" run --help | grep -q -- --iodepth || fail "run --help"
"$SB" quick --help | grep -q -- --preset || fail "quick --help"
"$SB" --version | grep -q features || fail "--version"
ok "help and version"

# -o FILE is --output for every command that writes one (quick's own help
# example uses it); any other short option is refused, naming it
expect_exit 0 "$SB" run --size=1M --runtime=0.1 --quiet -o "$T/o.json" "$T/o.bin"
[ "$(json "$T/o.json" "d['storbench']['command']")" = run ] || fail "-o did not write the JSON results"
expect_exit 2 "$SB" run -o
grep -q -- '--output: needs a value' "$T/err" || fail "-o without a value: $(cat "$T/err")"
expect_exit 2 "$SB" run -x "$T/o.bin"
grep -q "'-x': options are long" "$T/err" || fail "-x: $(cat "$T/err")"
"$SB" run --help | grep -q -- '-o, --output=FILE' || fail "run --help does not show -o"
ok "-o FILE is --output; other short options refused"

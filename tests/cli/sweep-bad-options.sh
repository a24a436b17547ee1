# storbench sweep: a bad option exits 2 with one line that names it, and
# nothing is created or written.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
check() { # NAME-IN-MESSAGE ARGS...
	name=$1; shift
	"$SB" sweep "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = "${RC:-2}" ] || { cat "$T/err"; fail "'$*' exited $rc, expected ${RC:-2}"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "'$*': expected one line"; }
	grep -q -- "$name" "$T/err" || { cat "$T/err"; fail "'$*': message does not name $name"; }
	grep -q '^storbench: ' "$T/err" || fail "'$*': message lacks the program name"
	[ -z "$(ls -A "$T/d")" ] || fail "'$*' created $(ls -A "$T/d")"
	[ -s "$T/out" ] && fail "'$*' printed to stdout"
	return 0
}
check --tests --tests=write,bogus "$T/d"
check --tests --tests= "$T/d"
check --tests --tests=, "$T/d"
check --file-sizes --file-sizes=64q "$T/d"
check --file-sizes --file-sizes=0 "$T/d"
check --file-sizes --file-sizes=64k,,1m,x "$T/d"
check --file-sizes --file-sizes=64k, "$T/d"
check --file-sizes --file-sizes=,64k "$T/d"
check --tests --tests=write,,read "$T/d"
check --file-sizes "--file-sizes=$(seq -s, 41 | sed 's/[0-9]*/&k/g')" "$T/d"
check --record-sizes --record-sizes=32m "$T/d"
check --record-sizes --record-sizes=100 "$T/d"
check --record-sizes --record-sizes=4k,-1 "$T/d"
check --record-sizes --file-sizes=8k --record-sizes=16k "$T/d"
check --stride --stride=0 "$T/d"
check --stride --stride=x "$T/d"
check --burst --burst=1M "$T/d"
check --burst --burst=0,10ms "$T/d"
check --burst --burst=1M,forever "$T/d"
check --burst --burst=1M,2h "$T/d"
check --format --format=xml "$T/d"
check --output --output= "$T/d"
check --csv --csv= "$T/d"
check --no-retest --no-retest --tests=write,rewrite "$T/d"
check --direct --direct=1 "$T/d"
check --warm --warm=yes "$T/d"
check --nonsense --nonsense "$T/d"
check --stride --stride "$T/d"
check TARGET --quiet
check unexpected "$T/d" "$T/d"
RC=3 check "$T/missing/dir" "$T/missing/dir/file" # the target cannot be used: 3
check /dev/null /dev/null
ok "bad options refused"

if [ -b /dev/zram0 ]; then
	check /dev/zram0 /dev/zram0
	ok "block device refused"
fi

echo precious >"$T/user.bin"
"$SB" sweep --file-sizes=64k "$T/user.bin" >"$T/out" 2>"$T/err"
[ $? = 2 ] || fail "existing file: expected exit 2"
grep -q destroy-data "$T/err" || fail "refusal does not name --destroy-data"
[ "$(cat "$T/user.bin")" = precious ] || fail "user file changed"
ok "existing file refused"

"$SB" sweep --help >"$T/out" || fail "--help"
for o in --tests --file-sizes --record-sizes --all-records --flush --close --direct \
	--no-retest --burst --warm --stride --csv; do
	grep -q -- "$o" "$T/out" || fail "--help lacks $o"
done
"$SB" --help | grep -q sweep || fail "storbench --help lacks sweep"
ok "help"

# docs/fio-compat.md is the output of `run --list-fio-options`, generated
# from the job file reader's own table, so the table cannot drift from what
# the reader does; and what it says holds for a sample of each kind.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

expect_exit 0 "$SB" run --list-fio-options
diff -u "$SB_TOP/docs/fio-compat.md" "$T/out" >"$T/diff" ||
	fail "docs/fio-compat.md differs from run --list-fio-options (regenerate it): $(head -20 "$T/diff")"
ok "docs/fio-compat.md is the generated table"

# every option the table lists, written in a job file with a value fio
# takes, gets the treatment the table says
kind() { awk -F' \\| ' -v o="\`$1\`" '$1 == "| " o { print $2 }' "$T/out"; }
try() { # OPTION VALUE: exit status of reading a one-job file with it
	printf '[j]\nrw=write\nsize=1M\n%s=%s\n' "$1" "$2" >"$T/k.fio"
	"$SB" run --engine=null --quiet "$T/k.fio" "$T/d" >/dev/null 2>"$T/kerr"
	echo $?
}
mkdir "$T/d"
for o in bs:64k direct:1 loops:2 random_distribution:random verify:crc32c group_reporting:1 \
	thread:1 thinktime:0 zonemode:strided flow:1 blockalign:4k; do
	name=${o%%:*} value=${o#*:}
	k=$(kind "$name")
	rc=$(try "$name" "$value")
	case $k in
	refused)
		[ "$rc" = 2 ] || fail "$name: refused in the table, exit $rc"
		grep -q "line 4: $name: fio option not supported by storbench" "$T/kerr" ||
			fail "$name: message: $(cat "$T/kerr")" ;;
	ignored)
		[ "$rc" = 0 ] || fail "$name: ignored in the table, exit $rc: $(cat "$T/kerr")"
		grep -q "note: .*line 4: $name" "$T/kerr" || fail "$name: no note" ;;
	honoured | mapped | "no-op values only")
		[ "$rc" = 0 ] || [ "$name" = verify ] || fail "$name ($k): exit $rc: $(cat "$T/kerr")" ;;
	*) fail "$name: not in the table ('$k')" ;;
	esac
done
[ "$(kind thinktime_spin)" = "no-op values only" ] || fail "thinktime_spin"
[ "$(try thinktime_spin 10)" = 2 ] || fail "thinktime_spin=10 taken"
[ "$(try nosuchopt 1)" = 2 ] && grep -q "line 4: 'nosuchopt': unknown option" "$T/kerr" ||
	fail "unknown option: $(cat "$T/kerr")"
[ -z "$(ls -A "$T/d")" ] || fail "files left"
ok "sampled options behave as the table says"

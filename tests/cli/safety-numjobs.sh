# --numjobs past the 256 test files a directory target holds is refused
# before anything is made: on the command line and in a job file (it wrote
# past the table of paths and crashed; issue 12, item 9). 256 still run.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
for n in 257 300 4096; do
	"$SB" run --rw=read --size=4k --numjobs=$n --direct=0 --quiet "$T/d" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || { cat "$T/err"; fail "--numjobs=$n: exit $rc, expected 2"; }
	grep -q -- "--numjobs: at most 256 jobs for a directory target" "$T/err" ||
		fail "--numjobs=$n: message: $(cat "$T/err")"
done
printf '[global]\nrw=read\nsize=4k\ndirect=0\n[many]\nnumjobs=300\n' >"$T/many.fio"
"$SB" run --quiet "$T/many.fio" "$T/d" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || { cat "$T/err"; fail "job file numjobs=300: exit $rc, expected 2"; }
grep -q -- "at most 256 jobs" "$T/err" || fail "job file: message: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "files left: $(ls -A "$T/d")"
ok "257, 300, 4096 jobs on a directory refused, on the command line and in a job file"

expect_exit 0 "$SB" run --rw=read --size=4k --numjobs=256 --direct=0 --quiet \
	--output="$T/a.json" "$T/d"
[ "$(json "$T/a.json" "d['jobs'][0]['job options']['numjobs']")" = 256 ] || fail "numjobs"
[ -z "$(ls -A "$T/d")" ] || fail "files left after 256 jobs"
ok "256 jobs run, one file each, all removed"

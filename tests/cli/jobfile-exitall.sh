# fio's exitall and exit_what in job files: when the first thread of a job
# ends, the jobs running in its reporting group stop (exit_what=group, the
# default), or every job running (stonewall, all), as fio; not an
# interruption (exit 0, error 0). Without exitall each job runs to its
# end. Counts, not times: the stopped job would need 2 s at its cap, the
# one that ends first 0.25 s. exit_what=all before a stonewall group and
# bad values refused naming line and option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# $1: exitall line, $2: [short]'s exit_what line
jobs() {
	cat <<JOB
[global]
ioengine=null
bs=4k
$1
[short]
size=1m
rate=4m
$2
[long]
size=8m
rate=4m
[other]
new_group
size=8m
rate=4m
[later]
stonewall
size=1m
[later2]
new_group
size=1m
JOB
}
# figures: each entry's read bytes
run() {
	expect_exit 0 "$SB" fio --output-format=json --output="$T/x.json" "$T/x.fio"
	json "$T/x.json" "' '.join('%d:%d' % (j['error'], j['read']['io_bytes']) for j in d['jobs'])"
}
jobs "" "" >"$T/x.fio"
[ "$(run)" = "0:1048576 0:8388608 0:8388608 0:1048576 0:1048576" ] ||
	fail "without exitall: $(cat "$T/x.json" | head -c 300)"
ok "no exitall: every job runs to its end"

jobs exitall "" >"$T/x.fio"
set -- $(run)
[ "$1" = 0:1048576 ] || fail "group: short $1"
case $2 in 0:8388608 | 0:*[!0-9]*) fail "group: long not stopped: $2" ;; esac
[ "$3" = 0:8388608 ] || fail "group: other (its own group) stopped: $3"
[ "$4 $5" = "0:1048576 0:1048576" ] || fail "group: later ones: $4 $5"
ok "exitall: short's end stops long (its group, $2), not other; later groups run"

jobs exitall exit_what=stonewall >"$T/x.fio"
set -- $(run)
case $2 in 0:8388608) fail "stonewall: long not stopped: $2" ;; esac
case $3 in 0:8388608) fail "stonewall: other not stopped: $3" ;; esac
[ "$4 $5" = "0:1048576 0:1048576" ] || fail "stonewall: later ones: $4 $5"
ok "exit_what=stonewall: every job running stops ($2, $3); the next stonewall group runs"
if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio --output-format=json --output="$T/fio.json" "$T/x.fio") ||
		fail "fio itself failed"
	[ "$(json "$T/fio.json" "' '.join(str(j['read']['io_bytes']) for j in d['jobs'][3:])")" = \
		"1048576 1048576" ] || fail "fio's later entries differ"
	[ "$(json "$T/fio.json" "len(d['jobs'])")" = 5 ] || fail "fio's entries differ"
	ok "exit_what=stonewall: fio's entries"
fi

jobs exitall exit_what=all >"$T/x.fio"
expect_exit 2 "$SB" fio "$T/x.fio"
grep -q "line 5: \[short\]: exit_what=all with exitall, before the stonewall of \[later\]" \
	"$T/err" || fail "exit_what=all before a stonewall: $(cat "$T/err")"
printf '[a]\nioengine=null\nsize=1m\nexitall\nexit_what=most\n' >"$T/b.fio"
expect_exit 2 "$SB" fio "$T/b.fio"
grep -q "line 5: exit_what: 'most' is not valid (expected group, stonewall or all)" "$T/err" ||
	fail "exit_what=most: $(cat "$T/err")"
printf '[a]\nioengine=null\nsize=1m\nexitall\nexit_what=all\n[b]\nioengine=null\nsize=1m\n' \
	>"$T/b.fio"
expect_exit 0 "$SB" fio "$T/b.fio"
ok "exit_what: all before a stonewall and bad values refused; all alone taken"

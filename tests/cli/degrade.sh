# Small and odd systems degrade with a note, never a crash: a filesystem
# without O_DIRECT (ramfs) is measured buffered when direct I/O was only the
# default, and refused when it was asked for.
# needs: root
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root to mount ramfs"
command -v unshare >/dev/null || skip "unshare missing (util-linux)"
mkdir "$T/ram"
unshare -m sh -c "
	mount -t ramfs ramfs '$T/ram' || exit 99
	'$SB' run --size=4M --quiet --output='$T/r.json' '$T/ram' >/dev/null 2>'$T/err1' || exit 1
	'$SB' quick --size=8M --runtime=100ms --repeat=1 --quiet --output='$T/q.json' '$T/ram' \
		>/dev/null 2>'$T/err2' || exit 2
	'$SB' run --size=4M --direct=1 --quiet '$T/ram' 2>'$T/err3'
	[ \$? = 2 ] || exit 3
	[ -z \"\$(ls -A '$T/ram')\" ] || exit 4
	exit 0"
rc=$?
[ $rc = 99 ] && skip "cannot mount ramfs here"
[ $rc = 0 ] || { cat "$T"/err* 2>/dev/null; fail "step $rc"; }
[ "$(json "$T/r.json" "d['jobs'][0]['job options']['direct']")" = 0 ] || fail "run not buffered"
json "$T/r.json" "any('does not support direct I/O' in w for w in d['storbench']['warnings'])" |
	grep -q True || fail "no note in the results"
[ "$(grep -c 'does not support direct I/O' "$T/err1")" = 1 ] || fail "note not said exactly once"
json "$T/q.json" "all(j['job options']['direct'] == '0' for j in d['jobs'])" | grep -q True ||
	fail "quick not buffered"
grep -q -- "--direct=0" "$T/err3" || fail "explicit --direct=1: message $(cat "$T/err3")"
ok "no O_DIRECT: degraded with a note; refused when asked for"

# Output nobody reads (issue 12's data-loss pass): a closed pipe stops the
# run as a Ctrl-C would and exits 141, as the signal would have, with the
# run's files gone; a full disk behind a redirection of the standard output
# is an error (3) with a message, not a success.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# closed CMD...: runs CMD with stdout and stderr into a pipe whose reader
# has exited; its exit status in $rc
closed() {
	{ "$@" 2>&1; echo $? >"$T/rc"; } | true
	rc=$(cat "$T/rc")
}

# meta's progress lines meet the closed pipe at once: the run stops, its run
# directory and files go (before: killed by SIGPIPE, the run directory left)
mkdir "$T/m"
closed "$SB" meta --size=8M --char-size=1M --files=200 "$T/m"
[ "$rc" = 141 ] || fail "meta into a closed pipe: exit $rc, expected 141"
[ -z "$(ls -A "$T/m")" ] || { ls -la "$T/m"; fail "meta into a closed pipe left files"; }
ok "meta into a closed pipe: 141, nothing left"

# quick: its scratch file goes too
mkdir "$T/q"
closed "$SB" quick --size=4M --runtime=0.2 "$T/q"
[ "$rc" = 141 ] || fail "quick into a closed pipe: exit $rc, expected 141"
[ -z "$(ls -A "$T/q")" ] || { ls -la "$T/q"; fail "quick into a closed pipe left files"; }
ok "quick into a closed pipe: 141, nothing left"

# a full disk behind stdout: the result was lost, so no success
if [ -c /dev/full ]; then
	"$SB" run --size=1M --runtime=0.1 --quiet "$T/f" >/dev/full 2>"$T/err"
	rc=$?
	[ "$rc" = 3 ] || fail "stdout on /dev/full: exit $rc, expected 3"
	grep -q 'could not write the standard output' "$T/err" || { cat "$T/err"; fail "no message for the lost output"; }
	[ ! -e "$T/f" ] || fail "run left its scratch file"
	ok "stdout on a full disk: exit 3 with a message"
fi

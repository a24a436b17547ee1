# The manual page (scripts/gen-man) holds every command and every option of
# the program's own help, and renders without troff errors.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

"$SB_TOP/scripts/gen-man" "$SB" 0.0-test >"$T/sb.1" || fail "gen-man failed"
grep -q '^\.TH STORBENCH 1 ' "$T/sb.1" || fail "no .TH line"
cmds=$("$SB" --help | awk '/^commands:$/ { f = 1; next } f && /^  / { print $1 } f && /^$/ { exit }')
[ -n "$cmds" ] || fail "no commands in --help"
n=0
for c in $cmds; do
	grep -q "^\.SS \"storbench $c\"$" "$T/sb.1" || fail "no section for $c"
	# every option of the command's help, as roff spells it (\- for -)
	for o in $("$SB" "$c" --help | grep -o '^  --[a-z0-9-]*' | sed 's/^ *//'); do
		r=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q "^\\\\fB$r" "$T/sb.1" || fail "$c: $o missing from the page"
		n=$((n + 1))
	done
done
ok "$(echo $cmds | wc -w) commands, $n options in the page"
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$T/sb.1" 2>"$T/warn" || fail "groff failed"
	grep -v 'cannot adjust line\|cannot break line' "$T/warn" | grep . && fail "troff warnings"
	ok "renders without troff errors"
fi
exit 0

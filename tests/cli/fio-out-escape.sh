# storbench fio's normal output shows the job file's names and
# description, never obeys them: a C1 control (U+009B, a terminal's CSI)
# in a job's name and an escape sequence (ESC ] ... BEL: a terminal's
# title) in its description are written visibly (\u009b, \x1b, \x07) on
# every line that names the job (the job list, "Laying out IO file", the
# job's report); a plain name (UTF-8 too) prints as it is, as fio prints
# it. Before, the bytes reached the terminal as they were.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

printf '[global]\ndirectory=%s\nsize=64k\nrw=read\n[x\302\2332Jy]\ndescription=d\033]0;title\007e\n[caf\303\251]\n' \
	"$T" >"$T/esc.fio"
expect_exit 0 "$SB" fio --output="$T/o.txt" "$T/esc.fio"
LC_ALL=C grep -q "$(printf '[\033\007]\|\302\233')" "$T/o.txt" && {
	cat -A "$T/o.txt"
	fail "a control character of the job file reached the output"
}
for want in 'x\\u009b2Jy: (g=0): rw=read' 'x\\u009b2Jy: Laying out IO file' \
	'x\\u009b2Jy: (groupid=0, jobs=1)' 'Description  : \[d\\x1b\]0;title\\x07e\]' \
	"$(printf 'caf\303\251'): (g=0): rw=read" "$(printf 'caf\303\251'): (groupid=0, jobs=1)"; do
	grep -q "$want" "$T/o.txt" || { cat "$T/o.txt"; fail "no line '$want'"; }
done
ok "names and description written visibly, a plain name as it is"

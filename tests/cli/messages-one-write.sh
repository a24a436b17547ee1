# Every message line goes to stderr in one write(2): stderr is unbuffered,
# and under mpirun the ranks' stderr is one stream, where a line written a
# character at a time (as rep_vis_put wrote it, 63 writes for one refusal)
# interleaved with another rank's and mpi-meta's grep for "rank 1 on ...
# meta needs a directory" failed once. Counted with strace: as many writes
# to fd 2 as lines, each ending in a newline.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

command -v strace >/dev/null || skip "no strace"
strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace not permitted)"
# a refusal quoting a name with a control character (written visibly)
strace -f -qq -s 4096 -e trace=write -o "$T/tr" "$SB" run --size=1M "$T/no$(printf '\033')dir/x" \
	>"$T/out" 2>"$T/err"
[ -s "$T/err" ] || fail "no message"
lines=$(wc -l <"$T/err")
writes=$(grep -c '^[0-9]* *write(2, ' "$T/tr")
[ "$writes" = "$lines" ] || { cat "$T/tr"; fail "$lines line(s) in $writes writes"; }
grep '^[0-9]* *write(2, ' "$T/tr" | grep -qv '\\n"' && { cat "$T/tr"; fail "a write without its newline"; }
grep -q 'no\\x1bdir' "$T/err" || fail "the name not written visibly: $(cat "$T/err")"
ok "each of $lines message line(s) in one write"

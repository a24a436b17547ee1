#!/bin/sh
# The spo journal as the outside input it is: written to standard output
# (ssh board storbench spo ... > journal) and read back from a file or
# standard input; a last line torn by the cut is read up to it (and said);
# anything else malformed is refused with the line's number, exit 2.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

truncate -s 1M "$T/t.img" || fail truncate
"$SB" spo --destroy-data --quiet --bs=4k --canary=64k --duration=1s --journal=- "$T/t.img" \
	>"$T/j" 2>"$T/err" || { cat "$T/err"; fail "writer with --journal=- failed"; }
head -n 1 "$T/j" | grep -q '^storbench-spo-journal 1 run=' || fail "no header on stdout"
grep -q '^I 1 ' "$T/j" || fail "no intent on stdout"
grep -q '^A 1 ' "$T/j" || fail "no acknowledgement on stdout"
grep -q '^E ' "$T/j" || fail "no end record after --duration"
grep -qv '^[IACE] \|^storbench-spo-journal' "$T/j" && fail "something else than records on stdout"
ok "journal on standard output: records only"

expect_exit 0 "$SB" spo --check --journal="$T/j" "$T/t.img"
expect_exit 0 "$SB" spo --check --journal=- "$T/t.img" <"$T/j"
grep -q "verdict: pass" "$T/out" || fail "no verdict from a journal on stdin"
ok "the check reads the journal from a file and from standard input"

# the cut tore the last line: it is left out, with a note
head -c -3 "$T/j" >"$T/torn"
expect_exit 0 "$SB" spo --check --journal="$T/torn" "$T/t.img"
grep -q "torn" "$T/err" || { cat "$T/err"; fail "no note about the torn line"; }
# and a tail of zeros (a filesystem's unwritten end) is no record either
cp "$T/torn" "$T/zeros" && head -c 700 /dev/zero >>"$T/zeros"
expect_exit 0 "$SB" spo --check --journal="$T/zeros" "$T/t.img"
ok "a torn last line is read up to"

# bad journals: exit 2, one line naming the line number
bad() { # WHAT-IN-MESSAGE FILE
	"$SB" spo --check --journal="$2" "$T/t.img" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || { cat "$T/err"; fail "journal '$1': exited $rc, expected 2"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "journal '$1': expected one line"; }
	grep -q -- "$1" "$T/err" || { cat "$T/err"; fail "message does not say '$1'"; }
}
H=$(head -n 1 "$T/j")
printf '' >"$T/b0"; bad "no complete header" "$T/b0"
printf 'hello\n' >"$T/b1"; bad "line 1" "$T/b1"
printf '%s\nI 2 65536 5\n' "$H" >"$T/b2"; bad "line 2: intent out of order" "$T/b2"
printf '%s\nI 1 65537 5\n' "$H" >"$T/b3"; bad "line 2: intent offset" "$T/b3"
printf '%s\nI 1 0 5\n' "$H" >"$T/b4"; bad "line 2: intent offset" "$T/b4"
printf '%s\nA 1 5\n' "$H" >"$T/b5"; bad "no intent" "$T/b5"
printf '%s\nI 1 65536 5\nA 1 6\nA 1 7\n' "$H" >"$T/b6"; bad "line 4: second ack" "$T/b6"
printf '%s\nI 1 65536 5\nA 1 4\n' "$H" >"$T/b7"; bad "line 3: time goes back" "$T/b7"
printf '%s\nI 1 65536 99999999999999999999\n' "$H" >"$T/b8"; bad "line 2: malformed" "$T/b8"
printf '%s\nI 1 65536 5 \n' "$H" >"$T/b9"; bad "line 2: malformed" "$T/b9"
printf '%s\nX 1\nI 1 65536 5\n' "$H" >"$T/b10"; bad "line 2: not a record" "$T/b10"
echo "$H" | sed 's/bs=4096/bs=4000/' >"$T/b11"; bad "line 1: header values" "$T/b11"
echo "$H" | sed 's/sync=fdatasync/sync=maybe/' >"$T/b12"; bad "line 1: header values" "$T/b12"
printf '%s\nC 5\nC 6\n' "$H" >"$T/b13"; bad "line 3: second cut" "$T/b13"
printf '%s\nI 1 65536 5\n\0\0I 2 65536 6\n' "$H" >"$T/b14"; bad "line 3" "$T/b14"
expect_exit 2 "$SB" spo --check --journal="$T/missing" "$T/t.img"
grep -q "cannot read the journal" "$T/err" || fail "missing journal: message"
ok "malformed journals refused with the line and what is wrong"

# a journal of a region beyond the target's end
truncate -s 64k "$T/small.img"
expect_exit 2 "$SB" spo --check --journal="$T/j" "$T/small.img"
grep -q "another target" "$T/err" || { cat "$T/err"; fail "region beyond the end: message"; }
ok "a journal for a bigger target is refused"

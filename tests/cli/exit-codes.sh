# needs: root
# The exit status table (cli/exit_status.c, docs/promises.md) holds for
# every command (issue 26, item 19): a usage error is 2, a target that
# cannot be used (a missing directory; a read-only filesystem) is 3, where
# quick and soak said 2 for a read-only one. Each command's --help prints
# the one table, and the manual page's EXIT STATUS is the same (gen-man).
# A found failure (1) and an interruption (130, 143) are in
# exit-codes-faultfs.sh, which needs FUSE.
. "$(dirname "$0")/../lib/cli.sh"
[ "$(id -u)" = 0 ] || skip "needs root for a read-only mount"
cd "$T" || fail "cd" # soak writes its log in the working directory

cmds=$("$SB" --help | awk '/^commands:$/ { f = 1; next } f && /^  / { print $1 } f && /^$/ { exit }')
[ "$(echo $cmds | wc -w)" -ge 17 ] || fail "commands: $cmds"

# one table: each command's --help has the same codes, its own words for 0 and 1
table() { awk '/^exit status:$/ { f = 1; next } f && /^  [0-9]/ { print $1 }' | tr '\n' ,; }
want=$("$SB" --help | table)
[ "$want" = "0,1,2,3,130," ] || fail "storbench --help's table: $want"
for c in $cmds; do
	[ "$("$SB" $c --help | table)" = "$want" ] || fail "$c --help: $("$SB" $c --help | table)"
done
"$SB_TOP/scripts/gen-man" "$SB" 0 | awk '/^\.SH EXIT STATUS/ { f = 1; next } /^\.SH/ { f = 0 } f && /^\.TP/ { getline; print }' |
	tr '\n' , | grep -qx "$want" || fail "the manual page's EXIT STATUS is not the help's"
ok "$(echo $cmds | wc -w) commands print the one exit status table in --help, and the man page has it"

# usage: an option no command takes
for c in $cmds; do
	expect_exit 2 "$SB" $c --no-such-option
done
expect_exit 2 "$SB" iozone -s 64k -r 4k -t 2
expect_exit 2 "$SB" bonnie -d "$T" -Z
ok "a bad option: exit 2 in every command"

# a target that cannot be used: a missing directory, a read-only filesystem
mkdir "$T/ro" "$T/rw" && mount -t tmpfs -o size=16m none "$T/ro" || skip "cannot mount a tmpfs"
trap 'unmount "$T/ro"; cleanup' EXIT INT TERM
python3 -c "import sys; sys.stdout.buffer.write(b'\x5a' * (4 << 20))" >"$T/ro/old.bin"
mount -o remount,ro "$T/ro" || fail "cannot make the tmpfs read-only"
m=$T/missing/dir
"$SB" run --rw=read --size=64k --quiet --output="$T/r.json" "$T/rw" >/dev/null 2>&1 || fail "no results to report"
unusable() { # WHERE CMD...: exit 3, one line naming WHERE
	where=$1
	shift
	expect_exit 3 "$SB" "$@"
	grep -qF "$where" "$T/err" || { cat "$T/err"; fail "$*: does not name '$where'"; }
}
for t in "$m" "$T/ro"; do
	unusable "$t" quick --size=2M "$t"
	unusable "$t" run --rw=write --size=1M "$t"
	unusable "$t" fio --name=x --rw=write --size=1M --directory="$t"
	unusable "$t" latency --count=2 --write "$t"
	unusable "$t" meta --files=10 --size=1M "$t"
	unusable "$t" bonnie -s 1 -n 1 -r 0 -d "$t"
	unusable "$t" sweep --file-sizes=64k "$t"
	unusable "$t" iozone -s 64k -i 0 -f "$t/x"
	unusable "$t" verify --size=1M "$t"
	unusable "$t" soak --iterations=1 --size=1M "$t"
	unusable "$t" cliff --size=1M "$t"
	unusable "$t" spo --destroy-data --duration=1s --journal="$T/j" "$t/t.bin"
	unusable "$t" report -o "$t/r.txt" "$T/r.json"
	unusable "$t" compare -o "$t/c.txt" "$T/r.json" \
		"$T/r.json"
done
for c in info flash pts; do
	unusable "$m" $c "$m"
done
unusable "$T/ro/old.bin" run --destroy-data --rw=write --size=1M "$T/ro/old.bin"
unusable "$T/ro/old.bin" verify --destroy-data --size=1M "$T/ro/old.bin"
unusable "$T/ro/old.bin" soak --destroy-data --iterations=1 --size=1M "$T/ro/old.bin"
unusable "$T/ro/old.bin" quick --destroy-data --size=2M "$T/ro/old.bin"
unusable "$T/ro/old.bin" spo --destroy-data --duration=1s --journal="$T/j2" "$T/ro/old.bin"
unusable "$T/missing.bin" verify --phase=check "$T/missing.bin"
ok "a missing directory, a read-only filesystem or file: exit 3 naming it, in every command"

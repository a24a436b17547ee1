# storbench meta's block test file: bonnie++'s twice the RAM is needed only
# where the page cache cannot be dropped. Where it can (root), the default
# is the smaller of twice the RAM and 1 GiB, and the output says why; the
# "smaller than twice the RAM" warning fires neither on the default nor
# where the whole cache was dropped, and never blames a permission that was
# not needed. The default runs are stopped by Ctrl-C as soon as the size is
# chosen: the partial results hold it.
# needs: root
. "$(dirname "$0")/../lib/cli.sh"

"$SB" meta --help >"$T/help" || fail "--help"
grep -q "smaller of twice" "$T/help" || fail "--help does not say how the size is chosen"

# twice_ram: bonnie++'s size here, as lib/meta computes it
twice_ram=$(python3 -c "
m = int(open('/proc/meminfo').read().split('MemTotal:')[1].split()[0]) // 1024 * 2
print((m + 1024 - m % 1024 if m % 1024 > 512 else m) << 20)")

# start_default NAME [RUNNER...]: a default meta in $T/NAME, stopped as soon
# as it has said how big its file is; exit status in $T/NAME.rc. exec keeps
# $! the meta's own process, and a file size limit of 256 MiB or less stops
# it (SIGXFSZ) should the Ctrl-C go astray.
start_default() {
	name=$1; shift
	mkdir -p "$T/$name"
	chmod 777 "$T/$name"
	(
		ulimit -f 524288
		exec "$@" "$SB" meta --files=0 --output="$T/$name/r.json" "$T/$name" \
			>"$T/$name.out" 2>"$T/$name.err"
	) &
	pid=$!
	i=0
	while ! grep -q "^meta: block test file" "$T/$name.err" && kill -0 $pid 2>/dev/null &&
		[ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT $pid 2>/dev/null
	wait $pid
	echo $? >"$T/$name.rc"
}

if [ -w /proc/sys/vm/drop_caches ]; then
	want=$(python3 -c "print(min($twice_ram, 1 << 30))")
	start_default root
	[ "$(cat "$T/root.rc")" = 130 ] || { cat "$T/root.err"; fail "default run: exit $(cat "$T/root.rc")"; }
	[ "$(json "$T/root/r.json" "d['storbench']['meta']['params']['size']")" = "$want" ] ||
		fail "root: default size $(json "$T/root/r.json" "d['storbench']['meta']['params']['size']"), expected $want"
	[ "$(json "$T/root/r.json" "d['storbench']['meta']['params']['size_rule']")" = cold_cache ] ||
		fail "root: size rule"
	grep -q "needed only where the page cache cannot be dropped; here it is dropped before each reading test" \
		"$T/root.err" || { cat "$T/root.err"; fail "root: the output does not say why"; }
	grep -q "twice the RAM (.*) is needed" "$T/root.err" || fail "root: twice the RAM not named"
	grep -q "smaller than twice\|permission" "$T/root.err" && fail "root: warned about its own default"
	ok "as root the default is $want bytes (twice the RAM: $twice_ram), and says why"

	# a small file with the cache dropped whole: nothing to warn about
	mkdir "$T/small"
	expect_exit 0 "$SB" meta --files=0 --size=4M --char-size=1M --per-char=putc --seeks=100 --quiet \
		--output="$T/small.json" "$T/small"
	[ "$(json "$T/small.json" "d['storbench']['meta']['cache']")" = drop_caches ] ||
		fail "root: the cache was not dropped with drop_caches"
	grep -q "twice the RAM" "$T/err" && { cat "$T/err"; fail "root: warned about a 4 MiB file"; }
	[ "$(json "$T/small.json" "d['storbench']['meta']['params']['size_rule']")" = given ] ||
		fail "--size: size rule"
	ok "as root a 4 MiB file draws no warning (the whole cache was dropped)"
else
	echo "skip: root's default (drop_caches is not writable here)"
fi

# as another user the cache cannot be dropped whole: twice the RAM
nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
chmod 711 "$T" # the other user works in directories of its own in $T
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && $nobody "$SB" --version >/dev/null 2>&1; then
	start_default user $nobody
	if grep -q "not enough space" "$T/user.err"; then
		grep -q -- "--size" "$T/user.err" || fail "user: not enough space, without naming --size"
		echo "skip: twice the RAM does not fit here: $(cat "$T/user.err")"
	else
		[ "$(cat "$T/user.rc")" = 130 ] || { cat "$T/user.err"; fail "user: exit $(cat "$T/user.rc")"; }
		[ "$(json "$T/user/r.json" "d['storbench']['meta']['params']['size']")" = "$twice_ram" ] ||
			fail "user: default size is not twice the RAM ($twice_ram)"
		[ "$(json "$T/user/r.json" "d['storbench']['meta']['params']['size_rule']")" = twice_ram ] ||
			fail "user: size rule"
		grep -q "twice the RAM, as bonnie++, since the whole page cache cannot be dropped" \
			"$T/user.err" || { cat "$T/user.err"; fail "user: the output does not say why"; }
		grep -q "smaller than twice" "$T/user.err" && fail "user: warned about its own default"
		ok "as another user the default is twice the RAM ($twice_ram bytes)"
	fi

	mkdir "$T/usmall"
	chmod 777 "$T/usmall"
	$nobody "$SB" meta --files=0 --size=4M --char-size=1M --per-char=putc --seeks=100 --quiet \
		--output="$T/usmall/r.json" "$T/usmall" >"$T/out" 2>"$T/err" || fail "user: small run"
	grep -q "warning: the block test file (4.00 MiB) is smaller than twice the RAM" "$T/err" ||
		{ cat "$T/err"; fail "user: no warning about a 4 MiB file"; }
	grep -q "only the file's own pages were dropped" "$T/err" || fail "user: how the cache was dropped"
	grep -q "permission" "$T/err" && fail "user: blames a permission"
	ok "as another user a 4 MiB file draws the warning, saying how the cache was dropped"
else
	echo "skip: the other user's default (needs root and setpriv)"
fi

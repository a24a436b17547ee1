# The README's and docs/' examples still print what the docs show: each
# runs (smaller and shorter, in $T, as its <!-- example --> comment says)
# and must print every line its doc shows, figures masked
# (tests/tools/doc-examples.py); an example that needs a fixture is held by
# the test that sets the fixture up, which checks its output the same way.
# needs: kmsg
# (kmsg: its soaks read the kernel log; another test's injected lines would show in their iteration lines)
. "$(dirname "$0")/../lib/cli.sh"
cd "$SB_TOP" || fail "no tree at $SB_TOP"
python3 tests/tools/doc-examples.py run --storbench "$SB" --tmp "$T" --top "$SB_TOP" \
	README.md docs/*.md || fail "an example no longer prints what its doc shows (above)"

# the tool's own safety: an example without run: lines, or whose run: or
# setup: names a path that may leave $T, fails before any of it runs
mkdir "$T/bad"
cat >"$T/bad/x.md" <<'MD'
<!-- example
setup: touch ran-setup-1
run: storbench info /dev/zram1
-->
    $ storbench info /dev/zram1
    device: zram1

<!-- example
setup: touch ran-setup-2 ../escaped
run: storbench --version
-->
    $ storbench --version

A block with no example comment:

    $ storbench pts --destroy-data /dev/zram1
    storbench pts on /dev/zram1
MD
python3 tests/tools/doc-examples.py run --storbench "$SB" --tmp "$T/bad" --top "$SB_TOP" \
	"$T/bad/x.md" >"$T/bad.out" 2>&1 && { cat "$T/bad.out"; fail "unsafe examples passed"; }
grep -q "names a path outside \$T: '/dev/zram1'" "$T/bad.out" &&
	grep -q "names a path outside \$T: '../escaped'" "$T/bad.out" &&
	grep -q "1 commands, 0 run: lines (the doc's own lines never run)" "$T/bad.out" ||
	{ cat "$T/bad.out"; fail "the unsafe examples were not named"; }
[ -z "$(find "$T/bad" -name 'ran-setup-*')" ] && [ ! -e "$T/escaped" ] ||
	fail "an unsafe example's setup ran"
ok "examples naming a path outside \$T, or with no run: line, fail before they run"

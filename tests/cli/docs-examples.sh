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

# report reads the device methods' sections (cliff, ...) through their
# typed readers (lib/cliff/cliff_read.c, ...): a section with a value of the
# wrong type, out of range or missing is refused with exit 2 and one line
# naming its key path, where it was printed as zeros or NaN; the sections
# as written still render.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

refused() { # WHAT FILE MESSAGE: exit 2, exactly MESSAGE on stderr
	expect_exit 2 "$SB" report "$2"
	[ "$(cat "$T/err")" = "storbench: $3" ] || { cat "$T/err"; fail "$1: message"; }
	ok "$1 refused"
}
# alter FILE OUT PYTHON: OUT is FILE's document with PYTHON run on s (the
# section) and d (the document)
alter() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d['storbench'][d['storbench']['command']]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], 'w'))
PY
}

# cliff
expect_exit 0 "$SB" cliff --destroy-data --quiet --size=4M --output="$T/cliff.json" "$T/c.bin"
expect_exit 0 "$SB" report "$T/cliff.json"
grep -q "^write cache (cliff): 4.00 MiB written" "$T/out" || { cat "$T/out"; fail "cliff: no section"; }
alter "$T/cliff.json" "$T/b.json" "s['iodepth'] = '4'"
refused "cliff: a string for a count" "$T/b.json" \
	"'$T/b.json': storbench.cliff.iodepth: expected a whole number from 0 to 1024, found '4'"
alter "$T/cliff.json" "$T/b.json" "s['recovery'] = [dict(idle_ns=1, burst_bytes=-5)]"
refused "cliff: a negative count" "$T/b.json" \
	"'$T/b.json': storbench.cliff.recovery[0].burst_bytes: expected a whole number from 0 to 1e18, found -5"
alter "$T/cliff.json" "$T/b.json" "del s['series']"
refused "cliff: a missing key" "$T/b.json" \
	"'$T/b.json': storbench.cliff.series: expected an object, found nothing"

# flash
dd if=/dev/urandom of="$T/f.img" bs=1M count=8 status=none
expect_exit 0 "$SB" flash --quiet --count=2 --align --scatter --scatter-order=5 --output="$T/flash.json" "$T/f.img"
expect_exit 0 "$SB" report "$T/flash.json"
grep -q "^flash geometry$" "$T/out" || { cat "$T/out"; fail "flash: no section"; }
grep -q "^  scatter: 32 reads" "$T/out" || { cat "$T/out"; fail "flash: no scatter"; }
alter "$T/flash.json" "$T/b.json" "s['align']['profiles'][0]['rows'][2]['on_ns'] = 'fast'"
refused "flash: a string for a time" "$T/b.json" \
	"'$T/b.json': storbench.flash.align.profiles[0].rows[2].on_ns: expected a number from 0 to 1e18, found 'fast'"
alter "$T/flash.json" "$T/b.json" "s['scatter']['count'] = -2"
refused "flash: a negative count" "$T/b.json" \
	"'$T/b.json': storbench.flash.scatter.count: expected a whole number from 0 to 1000000, found -2"
alter "$T/flash.json" "$T/b.json" "del s['interrupted']"
refused "flash: a missing key" "$T/b.json" \
	"'$T/b.json': storbench.flash.interrupted: expected a boolean, found nothing"

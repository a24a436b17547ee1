# cliff's refusals and bad values: a file or a block device is written only
# with --destroy-data (nothing written without it); every bad option value
# exits 2 with a message naming the option; --recovery takes a list of
# short times too. A directory gets a new test file, removed afterwards.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

# a file not made by storbench: refused, left as it was
head -c 4194304 /dev/urandom >"$T/f.img"
sum=$(md5sum <"$T/f.img")
expect_exit 2 "$SB" cliff --quiet "$T/f.img"
grep -q -- "--destroy-data" "$T/err" || fail "refusal does not name --destroy-data: $(cat "$T/err")"
[ "$(md5sum <"$T/f.img")" = "$sum" ] || fail "the refused file was written"
ok "file refused without --destroy-data"

bad() { # OPTION-ARG... : exit 2 and the option named
	opt=$1
	expect_exit 2 "$SB" cliff --destroy-data --quiet "$@" "$T/f.img"
	name=${opt%%=*}
	grep -q -- "$name" "$T/err" || fail "'$opt': message does not name $name: $(cat "$T/err")"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "'$opt': not one line: $(cat "$T/err")"
}
bad --bs=1000
bad --bs=0
bad --bs=128M
bad --iodepth=0
bad --iodepth=many
bad --rw=read
bad --rw=randrw
bad --size=0
bad --size=lots
bad --offset=-1
bad --max-time=0
bad --max-time=soon
bad --recovery=0s
bad --recovery=
bad --recovery=1m,,5m
bad --recovery=1m,
bad --recovery=,1m
bad --recovery=abc
bad --recovery=1s,2s,3s,4s,5s,6s,7s,8s,9s
bad --engine=nosuch
bad --rate=0
bad --rate=fast
[ "$(md5sum <"$T/f.img")" = "$sum" ] || fail "a rejected command wrote the file"
ok "bad values"

expect_exit 0 "$SB" cliff --help
grep -q -- "--recovery" "$T/out" || fail "--help without --recovery"

# a block device of our own: refused without consent
if zr=$(make_zram 64M); then
	head -c 1048576 /dev/urandom >"$T/head"
	dd if="$T/head" of="$zr" bs=1M count=1 oflag=direct 2>/dev/null
	expect_exit 2 "$SB" cliff --quiet "$zr"
	grep -q -- "--destroy-data" "$T/err" || fail "device refusal: $(cat "$T/err")"
	cmp -s -n 1048576 "$T/head" "$zr" || fail "the refused device was written"
	ok "device refused without --destroy-data"
fi

# short recovery times are accepted (run on a directory: a new file, then gone)
mkdir "$T/dir"
expect_exit 0 "$SB" cliff --quiet --size=8M --recovery=1s,3s --output="$T/d.json" "$T/dir"
[ -z "$(ls -A "$T/dir")" ] || fail "test file left in the directory: $(ls -A "$T/dir")"
json "$T/d.json" "d['storbench']['cliff']['region_size']" | grep -qx 8388608 || fail "region size"
ok "directory"

# a results file whose cliff section is damaged: the report says what it
# can, never crashes (exit 0, or 2 with a message)
python3 - "$T/d.json" "$T/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d['storbench']['cliff']
c.update(found=True, cache_bytes="x", before_bw_bytes=None, after_bw_bytes=-1, steps=5,
         series={'bin_bytes': -1, 'last_bin_bytes': "y", 'bw_bytes': ["a", None, 1e308, -5]},
         recovery=[{'idle_ns': "x"}, 3, {'idle_ns': 1e30, 'fraction': 1e300}])
json.dump(d, open(sys.argv[2], 'w'))
c.update(series={'bin_bytes': 1048576, 'bw_bytes': [1e308, 0, -1, 5]}, steps=[{}, 1])
json.dump(d, open(sys.argv[2] + '2', 'w'))
PY
for f in "$T/bad.json" "$T/bad.json2"; do
	for fmt in txt html; do
		"$SB" report --output="$T/r.$fmt" "$f" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc = 0 ] || [ $rc = 2 ] || fail "report of a damaged cliff section ($fmt) exited $rc: $(cat "$T/err")"
	done
done
ok "damaged results"

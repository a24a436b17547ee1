# I/O errors: reported with offset, length, direction and errno; the run
# stops at the first one unless --continue-on-error covers its direction;
# the count is in the results and the exit status is 1.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
ff_rules "eio * 8192 4096 read"

"$SB" run --rw=read --bs=4k --size=1M --direct=0 --quiet --output="$T/a.json" "$FF_MNT" \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || { cat "$T/err"; fail "exit $rc, expected 1"; }
grep -q "read error at offset 8192 (8.00 KiB), length 4096: Input/output error" "$T/err" ||
	fail "message: $(cat "$T/err")"
[ "$(json "$T/a.json" "d['jobs'][0]['storbench']['first_error']['offset']")" = 8192 ] || fail "offset"
[ "$(json "$T/a.json" "d['jobs'][0]['storbench']['first_error']['errno']")" = 5 ] || fail "errno"
[ "$(json "$T/a.json" "d['jobs'][0]['read']['total_ios'] < 256")" = True ] || fail "did not stop"
ok "stops at the first error, with offset and errno"

"$SB" run --rw=read --bs=4k --size=1M --direct=0 --continue-on-error=read --quiet \
	--output="$T/b.json" "$FF_MNT" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] || fail "continue: exit $rc, expected 1"
[ "$(json "$T/b.json" "d['jobs'][0]['storbench']['errors']")" = 1 ] || fail "one error counted"
[ "$(json "$T/b.json" "d['jobs'][0]['read']['total_ios']")" = 255 ] || fail "the other 255 reads done"
[ "$(json "$T/b.json" "d['jobs'][0]['job options']['continue_on_error']")" = read ] || fail "option recorded"
ok "--continue-on-error=read goes on, counts, exits 1"

"$SB" run --rw=read --bs=4k --size=1M --direct=0 --continue-on-error=write --quiet \
	--output="$T/c.json" "$FF_MNT" >"$T/out" 2>"$T/err"
[ $? = 1 ] || fail "continue=write on reads: exit"
[ "$(json "$T/c.json" "d['jobs'][0]['read']['total_ios'] < 256")" = True ] ||
	fail "--continue-on-error=write must not cover reads"
"$SB" run --continue-on-error=some "$T" 2>"$T/err"; [ $? = 2 ] || fail "bad value accepted"
[ -z "$(ls -A "$FF_MNT")" ] || fail "files left: $(ls -A "$FF_MNT")"
ok "only the named direction continues"

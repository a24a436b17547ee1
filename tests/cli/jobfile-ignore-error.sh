# fio's ignore_error in job files: a failed request whose errno is in its
# direction's list is survived (counted, the job goes on, exit 1 as
# continue_on_error), one with another errno ends the job even with
# continue_on_error for its direction (the list replaces the default, as
# fio); error_dump=0 taken; a verify list and bad names refused naming
# line and option.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start

job() { # IGNORE_ERROR-LINE [MORE]
	printf '[w]\ndirectory=%s\nfilename=f\nrw=write\nbs=4k\nsize=1m\nerror_dump=0\n%s\n%s\n' \
		"$FF_MNT" "$1" "${2:-}" >"$T/w.fio"
}
writes() { json "$T/w.json" "d['jobs'][0]['write']['total_ios']"; }

ff_rules "enospc * 8192 4096"
job "ignore_error=,ENOSPC:EDQUOT"
expect_exit 1 "$SB" fio --output-format=json --output="$T/w.json" "$T/w.fio"
[ "$(writes)" = 255 ] || fail "ENOSPC listed: $(writes) writes, $(cat "$T/err")"
[ "$(json "$T/w.json" "d['jobs'][0]['error']")" = 28 ] || fail "first error not ENOSPC"
ok "ignore_error=,ENOSPC: the ENOSPC write is survived, the other 255 done"

ff_rules "eio * 8192 4096 write"
job "ignore_error=,ENOSPC" continue_on_error=write
expect_exit 1 "$SB" fio --output-format=json --output="$T/w.json" "$T/w.fio"
[ "$(json "$T/w.json" "d['jobs'][0]['write']['total_ios'] < 255")" = True ] ||
	fail "EIO not listed: the job went on"
grep -q "write error at offset 8192 (8.00 KiB), length 4096: Input/output error" "$T/err" ||
	fail "EIO message: $(cat "$T/err")"
job "ignore_error=,28:5"
expect_exit 1 "$SB" fio --output-format=json --output="$T/w.json" "$T/w.fio"
[ "$(writes)" = 255 ] || fail "5 listed by number: $(writes) writes"
ok "ignore_error: an errno not listed ends the job; numbers taken"

bad() { # LINE WHAT
	job "$1"
	expect_exit 2 "$SB" fio "$T/w.fio"
	grep -q "$2" "$T/err" || fail "$1: $(cat "$T/err")"
}
bad ignore_error=EFOO "line 8: ignore_error: 'EFOO' is not valid"
bad ignore_error=,,EILSEQ "line 8: ignore_error: ',,EILSEQ': a verify list is not supported"
bad ignore_error=EIO,EIO,,EIO "line 8: ignore_error: 'EIO,EIO,,EIO' is not valid"
bad ignore_error=1:2:3:4:5:6:7:8:9 "line 8: ignore_error: '1:2:3:4:5:6:7:8:9' is not valid"
bad error_dump=1 "line 8: error_dump=1: fio option not supported"
ok "ignore_error: unknown names, a verify list, too many refused; error_dump=1 refused"

# fio's rate_min (ratemin), rate_iops_min and rate_cycle in job files: a
# job whose rate over a cycle falls below its floor once it has run 2 s
# ends with EIO, as fio's check_min_rate (fio's message on stderr, error 5
# in the JSON, exit 1), while the job beside it runs to its end; a job
# above its floor is not stopped; a trim rate is refused only in a job
# that trims (exitwhat.fio's rate=300,300,300 on randrw runs); a floor
# above the cap and bad values are refused naming line and option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# slow: 4 KiB every 500 ms (8 KiB/s) under a 1 MiB/s floor; its 1 MiB
# would take 128 s, runtime bounds it should the floor not hold
cat >"$T/r.fio" <<'JOB'
[global]
ioengine=null
bs=4k
rw=read
[slow]
size=1m
runtime=60
thinktime=500ms
ratemin=1m
[writes]
rw=write
size=1m
runtime=60
thinktime=500ms
rate_iops_min=,100
ratecycle=500
[ok]
size=12m
rate=4m,4m,4m
rate_min=4k
JOB
expect_exit 1 "$SB" fio --output-format=json --output="$T/r.json" "$T/r.fio"
grep -q "slow: rate_min=1048576B/s not met, got [0-9]*B/s" "$T/err" ||
	fail "slow's message: $(cat "$T/err")"
grep -q "writes: rate_iops_min=100 not met, got [0-9]* IOPS" "$T/err" ||
	fail "writes' message: $(cat "$T/err")"
set -- $(json "$T/r.json" "' '.join('%d:%d:%d' % (j['error'], j['read']['io_bytes'], j['write']['io_bytes']) for j in d['jobs'])")
[ $# = 3 ] || fail "entries: $*"
case $1 in 5:*:0) ;; *) fail "slow: $1" ;; esac
[ "${1#5:}" != "1048576:0" ] || fail "slow ran to its end: $1"
case $2 in 5:0:*) ;; *) fail "writes: $2" ;; esac
[ "$3" = "0:12582912:0" ] || fail "ok, above its floor: $3"
ok "rate_min, rate_iops_min: the jobs below end with EIO; the one above runs its 12 MiB"
if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio --output-format=json --output="$T/fio.json" "$T/r.fio") 2>"$T/fio.err"
	[ "$(json "$T/fio.json" "' '.join(str(j['error']) for j in d['jobs'])")" = "5 5 0" ] ||
		fail "fio's errors differ: $(cat "$T/fio.err")"
	ok "rate_min: fio's errors are the same"
fi

bad() { # LINE4 WHAT: refused, naming what
	printf '[b]\nioengine=null\nsize=1m\n%s\n' "$1" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "$2" "$T/err" || fail "$1: $(cat "$T/err")"
}
bad ratecycle=0 "line 4: ratecycle: '0' is not valid"
bad rate_iops_min=x "line 4: rate_iops_min: 'x' is not valid"
bad ratemin=1m,1m,1m,1m "line 4: ratemin: '1m,1m,1m,1m' is not valid"
bad "$(printf 'rate=1m\nratemin=2m')" "\[b\]: the reads' minimum rate exceeds their rate"
bad "$(printf 'rate_iops=10,10\nrate_iops_min=,20')" "the writes' minimum rate exceeds"
bad "$(printf 'rate=1m,1m,1m\nrw=randtrim')" "line 4: rate: '1m,1m,1m': a cap on trims"
ok "rate_min: bad values, a floor above the cap and a trim cap in a trimming job refused"

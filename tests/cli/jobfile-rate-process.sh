# fio's rate_process in job files: poisson issues the requests a rate
# caps at the arrivals of a Poisson process of the same mean rate, so the
# gaps between them (write_iolog's issue times) vary as exponential gaps
# do (coefficient of variation near 1, where linear's even pace is near
# 0), the job still moves its bytes; fio's does the same on the same
# file; another value is refused naming line and option. The gap
# generator's mean and spread are the unit test stats-gap's.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/sb" "$T/fio"
cat >"$T/p.fio" <<'JOB'
[p]
ioengine=null
rw=randread
bs=4k
size=1200k
rate_iops=2000
rate_process=poisson
write_iolog=p.log
JOB
(cd "$T/sb" && "$SB" fio --output-format=json --output="$T/p.json" "$T/p.fio") >"$T/err" 2>&1 ||
	{ cat "$T/err"; fail "rate_process=poisson refused or failed"; }
[ "$(json "$T/p.json" "d['jobs'][0]['read']['io_bytes']")" = 1228800 ] ||
	fail "bytes: $(json "$T/p.json" "d['jobs'][0]['read']['io_bytes']")"

# the issue times' gaps: their count and coefficient of variation
cv() { # LOG
	python3 - "$1" <<'PY'
import statistics, sys
t = [int(l.split()[0]) for l in open(sys.argv[1]) if l.split()[2:3] == ["read"]]
g = [b - a for a, b in zip(t, t[1:])]
print(len(t), "%.3f" % (statistics.pstdev(g) / statistics.mean(g)))
PY
}
set -- $(cv "$T/sb/p.log")
[ "$1" = 300 ] || fail "requests logged: $1"
# an exponential's is 1, the even pace's near 0; a loaded machine bunches
# the requests it delays (more variation, never less): generous bounds
python3 -c "import sys; sys.exit(not 0.5 < $2 < 20)" || fail "poisson gaps' variation: $2"
ok "rate_process=poisson: 300 requests, their gaps' coefficient of variation $2"

if command -v fio >/dev/null 2>&1; then
	(cd "$T/fio" && fio --output-format=json --output="$T/fio.json" "$T/p.fio") >"$T/fio.err" 2>&1 ||
		fail "fio: $(cat "$T/fio.err")"
	set -- $(cv "$T/fio/p.log")
	[ "$1" = 300 ] || fail "fio's requests logged: $1"
	python3 -c "import sys; sys.exit(not 0.5 < $2 < 20)" || fail "fio's gaps' variation: $2"
	ok "fio's poisson on the same file: 300 requests, variation $2"
fi

printf '[b]\nioengine=null\nsize=1m\nrate_iops=10\nrate_process=gauss\n' >"$T/b.fio"
expect_exit 2 "$SB" fio "$T/b.fio"
grep -q "line 5: rate_process: 'gauss' is not valid" "$T/err" || fail "gauss: $(cat "$T/err")"
ok "rate_process=gauss refused, naming line and option"

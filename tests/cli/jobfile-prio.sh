# fio's I/O priorities in job files, on a loop device of the test's own:
# prio and prioclass set each thread's priority (ionice of the running
# threads shows it); cmdprio_percentage sends that share of the requests
# with cmdprio_class/cmdprio (io_uring's sqe ioprio, libaio's
# IOCB_FLAG_IOPRIO), which the kernel takes (no request fails), the counts
# of each priority in fio 3.33's JSON "prios" (clat of each) near the
# share asked and equal to the priorities in the clat log (log_prio: the
# ioprio in hex; without: 1 for an RT request); fio on the same file
# writes the same keys and priorities. cmdprio_bssplit gives each block
# size's requests their priorities, as fio's examples/cmdprio-bssplit.fio.
# cmdprio with psync and bad values are refused naming line and option.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

dev=$(make_loop 64)
job() { # ENGINE OPTIONS...
	printf '[global]\nfilename=%s\ndirect=1\n[randread]\nrw=randread\nbs=4k\nsize=16m\n' "$dev"
	printf 'ioengine=%s\niodepth=8\n' "$1"
	shift
	for l in "$@"; do printf '%s\n' "$l"; done
}
# PROG JSON LOG: "CLASS/LEVEL=N ..." of the JSON's read prios, checked
# against total_ios and the clat log's fifth column (hex with log_prio)
prios() {
	python3 - "$1" "$2" <<'PY'
import json, sys, collections
r = json.load(open(sys.argv[1]))['jobs'][0]['read']
p = r.get('prios', [])
keys = list(r)
assert keys.index('prios') == keys.index('lat_ns') + 1, keys
assert sum(x['clat_ns']['N'] for x in p) == r['total_ios'], (p, r['total_ios'])
col = collections.Counter(l.split(',')[4].strip() for l in open(sys.argv[2]))
for x in p:
    v = x['prioclass'] << 13 | x['prio']
    hexed = '0x%04x' % v
    n = col[hexed] if hexed in col else None
    assert n == x['clat_ns']['N'], (hexed, n, x['clat_ns']['N'], col)
print(' '.join('%d/%d=%d' % (x['prioclass'], x['prio'], x['clat_ns']['N']) for x in p))
PY
}
for eng in libaio io_uring; do
	job $eng prioclass=3 cmdprio_percentage=20 cmdprio_class=1 log_prio=1 \
		"write_lat_log=$T/$eng" >"$T/$eng.fio"
	expect_exit 0 "$SB" fio --output-format=json --output="$T/$eng.json" "$T/$eng.fio"
	got=$(prios "$T/$eng.json" "$T/${eng}_clat.1.log") || fail "$eng: $got"
	case $got in "3/0="*" 1/0="*) ;; *) fail "$eng: prios $got" ;; esac
	rt=${got##*=} all=4096
	[ "$rt" -ge $((all / 10)) ] && [ "$rt" -le $((all * 3 / 10)) ] ||
		fail "$eng: $rt of $all requests RT, asked 20%"
	ok "$eng: cmdprio_percentage=20: prios $got, the clat log's priorities the same"
done

# fio's normal output: each priority's clat line and percentiles
labels() { sed -n 's/^    \(clat prio [0-9]\/[0-9]\) .*/\1/p' "$1" | tr '\n' ' '; }
expect_exit 0 "$SB" fio --output="$T/normal.txt" "$T/libaio.fio"
got=$(labels "$T/normal.txt")
[ "$got" = "clat prio 3/0 clat prio 1/0 clat prio 3/0 clat prio 1/0 " ] ||
	fail "normal output: $got"
grep -Eq '^    clat prio 1/0 \([0-9]+\.[0-9]{2}% of IOs\) percentiles \((n|u|m)sec\):$' \
	"$T/normal.txt" || fail "normal output: $(cat "$T/normal.txt")"
if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio --output="$T/fnormal.txt" "$T/libaio.fio") || fail "fio normal"
	[ "$(labels "$T/fnormal.txt")" = "$got" ] || fail "fio's: $(labels "$T/fnormal.txt")"
fi
ok "normal output: clat prio 3/0 and 1/0 lines and percentiles, as fio's"

# log_prio=0: the fifth column is 1 for an RT request, as fio
job io_uring cmdprio_percentage=50 "write_lat_log=$T/flag" >"$T/flag.fio"
expect_exit 0 "$SB" fio --output-format=json --output="$T/flag.json" "$T/flag.fio"
ones=$(awk -F', ' '$5 == 1' "$T/flag_clat.1.log" | wc -l)
zeros=$(awk -F', ' '$5 == 0' "$T/flag_clat.1.log" | wc -l)
rt=$(json "$T/flag.json" "[p['clat_ns']['N'] for p in d['jobs'][0]['read']['prios'] if p['prioclass'] == 1][0]")
[ "$ones" = "$rt" ] && [ $((ones + zeros)) = 4096 ] || fail "log_prio=0: $ones ones, $zeros zeros, $rt RT"
ok "log_prio=0: $ones requests flagged RT in the log, as many as the JSON's"

if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio --output-format=json --output="$T/fio.json" "$T/libaio.fio") || fail "fio"
	fgot=$(prios "$T/fio.json" "$T/libaio_clat.1.log") || fail "fio: $fgot"
	case $fgot in "3/0="*" 1/0="*) ;; *) fail "fio: prios $fgot" ;; esac
	python3 - "$T/fio.json" "$T/libaio.json" <<'PY' || fail "the read keys differ from fio's"
import json, sys
a, b = (json.load(open(f))['jobs'][0]['read'] for f in sys.argv[1:])
assert list(a) == list(b), (list(a), list(b))
assert list(a['prios'][0]) == list(b['prios'][0])
PY
	ok "fio 3.33 on the same file: prios $fgot, the same keys"
else
	ok "fio is not installed: not compared"
fi

# cmdprio_bssplit (fio's examples/cmdprio-bssplit.fio, one split for
# reads): the 64 KiB reads 25% RT 1/1 and 75% idle 3/2, 1 MiB ones the
# job's own, counted in the clat log by block size; the prios in fio's order
bss() { # DEFAULT-PRIO-LINES...
	printf '[global]\nfilename=%s\ndirect=1\nrw=randread\nioengine=libaio\niodepth=16\n' "$dev"
	printf 'bssplit=64k/40:1024k/60\nsize=16m\nruntime=2\ntime_based\nlog_prio=1\n'
	printf 'write_lat_log=%s\n[adv]\n' "$T/bss"
	printf 'cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0,1024k/0\n'
	for l in "$@"; do printf '%s\n' "$l"; done
}
for def in "" "prioclass=2|prio=7"; do
	# shellcheck disable=SC2046
	bss $(printf '%s' "$def" | tr '|' ' ') >"$T/bss.fio"
	expect_exit 0 "$SB" fio --output-format=json --output="$T/bss.json" "$T/bss.fio"
	got=$(prios "$T/bss.json" "$T/bss_clat.1.log") || fail "cmdprio_bssplit: $got"
	d=0/0
	[ -n "$def" ] && d=2/7
	case $got in "$d="*" 1/1="*" 3/2="*) ;; *) fail "cmdprio_bssplit $def: prios $got" ;; esac
	python3 - "$T/bss_clat.1.log" "$d" <<'PY' || fail "cmdprio_bssplit $def: shares"
import sys, collections
c = collections.Counter((int(l.split(',')[3]), l.split(',')[4].strip()) for l in open(sys.argv[1]))
cls, lvl = map(int, sys.argv[2].split('/'))
own = '0x%04x' % ((cls << 13 | lvl) if cls else 0)
small = sum(n for (bs, p), n in c.items() if bs == 65536)
assert set(p for (bs, p) in c if bs == 1048576) == {own}, c
assert 0.15 <= c[(65536, '0x2001')] / small <= 0.35, c
assert 0.65 <= c[(65536, '0x6002')] / small <= 0.85, c
PY
	ok "cmdprio_bssplit ${def:-without prio}: prios $got; of the 64 KiB reads a quarter 1/1"
	if command -v fio >/dev/null 2>&1; then
		(cd "$T" && fio --output-format=json --output="$T/fbss.json" "$T/bss.fio") ||
			fail "fio bss"
		fgot=$(prios "$T/fbss.json" "$T/bss_clat.1.log") || fail "fio bss: $fgot"
		case $fgot in "$d="*" 1/1="*" 3/2="*) ;; *) fail "fio bss $def: prios $fgot" ;; esac
		ok "fio 3.33 on the same file: prios $fgot"
	fi
done

# prio and prioclass: the threads' own priority while they run
class_of() { for t in /proc/"$1"/task/*; do ionice -p "${t##*/}" 2>/dev/null; done; }
has_class() { class_of "$1" | grep -qx "$2"; }
for want in "idle|prioclass=3" "best-effort: prio 5|prioclass=2|prio=5" \
	"best-effort: prio 6|prio=6"; do
	class=${want%%|*}
	opts=$(printf '%s' "${want#*|}" | tr '|' ' ')
	# shellcheck disable=SC2086
	job psync $opts runtime=3 time_based >"$T/p.fio"
	"$SB" fio --output="$T/p.txt" "$T/p.fio" 2>"$T/err" &
	pid=$!
	wait_until 20 has_class $pid "$class" ||
		{ kill $pid; fail "$opts: no thread '$class': $(class_of $pid | sort -u)"; }
	wait $pid || fail "$opts: $(cat "$T/err")"
done
ok "prioclass=3, prioclass=2 prio=5, prio=6: the threads' I/O priority as ionice shows it"

job libaio cmdprio_percentage=10 cmdprio_bssplit=4k/10 >"$T/p.fio"
expect_exit 2 "$SB" fio "$T/p.fio"
grep -q "cmdprio_bssplit: not with cmdprio_percentage" "$T/err" || fail "both: $(cat "$T/err")"
job psync cmdprio_percentage=10 >"$T/p.fio"
expect_exit 2 "$SB" fio "$T/p.fio"
grep -q "cmdprio_percentage: fio's libaio and io_uring option, not ioengine=psync's" "$T/err" ||
	fail "cmdprio with psync: $(cat "$T/err")"
for bad in prio=8 prioclass=4 prio=x cmdprio_class=0 cmdprio_class=4 cmdprio_percentage=101 \
	cmdprio=8 cmdprio=1,2,3 cmdprio_percentage=-1 cmdprio_bssplit=64k/50/1 \
	cmdprio_bssplit=64k/60:64k/50 cmdprio_bssplit=1M/10/2/0/1/5 cmdprio_bssplit=x/10; do
	job libaio "$bad" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "line 10: ${bad%%=*}: '${bad#*=}' is not valid" "$T/err" || fail "$bad: $(cat "$T/err")"
done
ok "cmdprio with psync and bad values refused naming line and option"

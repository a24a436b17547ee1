# needs: root
# fio's bssplit=READ,WRITE in job files, on a file of the test's own: each
# request's size comes from its direction's split (the clat log's third
# and fourth columns), randrw (each block once a pass), rw and
# norandommap alike, and every byte of the file moved once by randrw;
# cmdprio_bssplit's advanced form gives each direction's sizes their
# priorities (log_prio: the fifth column), its fifth field (later fio's
# hint) read and left out as fio 3.33 does. Bad values refused naming the
# option and line. Root: class 1 (RT) request priorities need it.
. "$(dirname "$0")/../lib/cli.sh"

job() { # RW OPTIONS...
	printf '[global]\nfilename=%s\nsize=128m\nioengine=libaio\niodepth=8\n' "$T/data"
	printf 'write_lat_log=%s\nlog_prio=1\n[j]\nrw=%s\n' "$T/lat" "$1"
	shift
	for l in "$@"; do printf '%s\n' "$l"; done
}
# LOG: "DIR/BS/PRIO=N ..." of the clat log, checked against the rules
# given as python (c: a Counter of (dir, bs, prio); r, w: counts)
sizes() {
	python3 - "$1" "$2" <<'PY'
import sys, collections
c = collections.Counter()
for l in open(sys.argv[1]):
    f = [x.strip() for x in l.split(',')]
    c[('rwt'[int(f[2])], int(f[3]) >> 10, f[4])] += 1
r = sum(n for k, n in c.items() if k[0] == 'r')
w = sum(n for k, n in c.items() if k[0] == 'w')
print(' '.join('%s/%dk/%s=%d' % (k + (n,)) for k, n in sorted(c.items())))
assert eval('(' + sys.argv[2] + ')'), 'rule: ' + sys.argv[2]
PY
}

split=bssplit=4k/50:16k/50,64k/100
for rw in randrw rw "randrw|norandommap"; do
	# shellcheck disable=SC2046
	job $(printf '%s' "$rw" | tr '|' ' ') "$split" >"$T/j.fio"
	expect_exit 0 "$SB" fio --output-format=json --output="$T/j.json" "$T/j.fio"
	got=$(sizes "$T/lat_clat.1.log" "
set((d, b) for d, b, p in c) == {('r', 4), ('r', 16), ('w', 64)}
and 0.35 <= r / (r + w) <= 0.65
and 0.3 <= sum(n for k, n in c.items() if k[:2] == ('r', 4)) / r <= 0.7") ||
		fail "$rw: $got"
	ok "$rw $split: reads of 4k and 16k, writes of 64k: $got"
done
# randrw covers the file once: its bytes are the file's, as fio's random map
job randrw "$split" >"$T/j.fio"
expect_exit 0 "$SB" fio --output-format=json --output="$T/j.json" "$T/j.fio"
got=$(json "$T/j.json" "d['jobs'][0]['read']['io_bytes'] + d['jobs'][0]['write']['io_bytes']")
[ "$got" = $((128 << 20)) ] || fail "randrw moved $got bytes of $((128 << 20))"
ok "randrw: the file's $got bytes moved once"

# cmdprio_bssplit per direction, the advanced form: the 4k reads a quarter
# 1/1 and the rest 3/2, the 16k reads the job's own, the 64k writes half
# 2/5; a fifth field changes nothing (fio 3.33's sscanf stops before it)
job randrw "$split" prioclass=2 prio=7 \
	cmdprio_bssplit=4k/25/1/1:4k/75/3/2/1:16k/0,64k/50/2/5/3 >"$T/p.fio"
expect_exit 0 "$SB" fio --output-format=json --output="$T/p.json" "$T/p.fio"
got=$(sizes "$T/lat_clat.1.log" "
set(c) <= {('r', 4, '0x2001'), ('r', 4, '0x6002'), ('r', 16, '0x4007'),
           ('w', 64, '0x4005'), ('w', 64, '0x4007')}
and 0.1 <= c[('r', 4, '0x2001')] / (c[('r', 4, '0x2001')] + c[('r', 4, '0x6002')]) <= 0.4
and 0.35 <= c[('w', 64, '0x4005')] / w <= 0.65") || fail "cmdprio_bssplit: $got"
n=$(json "$T/p.json" "len(d['jobs'][0]['read']['prios'])")
[ "$n" = 3 ] || fail "cmdprio_bssplit: $n read prios in the JSON, not 3"
ok "cmdprio_bssplit per direction: $got, 3 read prios in the JSON"

for bad in "bssplit: '4k,8k,16k,32k' is not valid|randrw|bssplit=4k,8k,16k,32k" \
	"bssplit: '4k/60:8k/60,8k' is not valid|randrw|bssplit=4k/60:8k/60,8k" \
	"bssplit: a split for trims of their own|trimwrite|bssplit=4k,8k,16k" \
	"cmdprio_bssplit: '4k/10/2/0/1/5' is not valid|randrw|cmdprio_bssplit=4k/10/2/0/1/5" \
	"cmdprio_bssplit: '4k/10/2' is not valid|randrw|cmdprio_bssplit=4k/10/2"; do
	says=${bad%%|*} rest=${bad#*|}
	job "${rest%%|*}" "${rest#*|}" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "line 10: $says" "$T/err" || fail "${rest#*|}: $(cat "$T/err")"
done
job randrw "$split" random_distribution=zipf:1.2 >"$T/b.fio"
expect_exit 2 "$SB" fio "$T/b.fio"
grep -q "bssplit: a split for each direction is supported with random_distribution=random" \
	"$T/err" || fail "zipf: $(cat "$T/err")"
ok "bad splits refused naming the option and line"

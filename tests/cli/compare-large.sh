# compare of two results of 6000 jobs each (22 MB apiece, made here from
# one real run's job by python, B 0..6% faster job by job): it reads each
# document a job at a time for its figures alone, so it runs in at most
# 128 MiB of memory (it took 300 MB, and said "out of memory" where the
# address space was limited to 300 MB), and matches the jobs in linear time.
# Every job is matched and every figure compared. Peak RSS by GNU time; not
# measured under a sanitizer, which adds its own.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

N=6000
LIMIT_KIB=131072
measure=1
[ -x /usr/bin/time ] || { measure=0; echo "no /usr/bin/time: memory not measured"; }
if ldd "$SB" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	measure=0
	echo "a sanitizer build: memory not measured"
fi

expect_exit 0 "$SB" run --rw=randread --size=1M --bs=4k --runtime=0.1s --time-based --direct=0 \
	--quiet --output="$T/one.json" "$T/f"
python3 - "$T/one.json" "$T" $N <<'PY' || fail "synthesis"
import json, sys
d = json.load(open(sys.argv[1]))
job, n = d['jobs'][0], int(sys.argv[3])
bw = job['read']['bw_bytes']
job['jobname'], job['read']['bw_bytes'] = '@NAME@', '@BW@'
text = json.dumps(job, separators=(',', ':'))
d['jobs'] = '@JOBS@'
doc = json.dumps(d, separators=(',', ':'))
for side, f in (('a', 1.0), ('b', 1.01)):
    jobs = ','.join(text.replace('"@NAME@"', '"job%d"' % i).replace('"@BW@"', repr(bw * f ** (i % 7)))
                    for i in range(n))
    open('%s/%s.json' % (sys.argv[2], side), 'w').write(doc.replace('"@JOBS@"', '[' + jobs + ']'))
PY

if [ $measure = 1 ]; then
	/usr/bin/time -f %M -o "$T/rss" "$SB" compare "$T/a.json" "$T/b.json" --format=json \
		>"$T/c.json" 2>"$T/err" || { cat "$T/err"; fail "compare of $N jobs a side"; }
	rss=$(tail -n 1 "$T/rss")
	echo "compare of $N jobs a side ($(($(stat -c %s "$T/a.json") >> 20)) MiB): peak RSS $rss KiB"
	[ "$rss" -le $LIMIT_KIB ] || fail "compare of $N jobs a side: peak RSS $rss KiB"
else
	"$SB" compare "$T/a.json" "$T/b.json" --format=json >"$T/c.json" 2>"$T/err" ||
		{ cat "$T/err"; fail "compare of $N jobs a side"; }
fi
python3 - "$T/c.json" $N <<'PY' || fail "the comparison of $N jobs a side"
import json, sys
c, n = json.load(open(sys.argv[1])), int(sys.argv[2])
rows = c['comparisons']
tests = {r['test'] for r in rows}
assert len(tests) == n, len(tests)
bw = {r['test']: r for r in rows if r['metric'] == 'bw_bytes'}
assert len(bw) == n, len(bw)
for i in (0, 1, 6, 7, n - 1):
    want = 100 * (1.01 ** (i % 7) - 1)
    got = bw['job%d' % i]['diff_pct']
    assert abs(got - want) < 1e-6, (i, got, want)
assert not c['not_compared'], c['not_compared'][:3]
PY
ok "compare of $N jobs a side: every job matched, every difference right"

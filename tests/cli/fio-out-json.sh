#!/bin/sh
# storbench fio's JSON has fio's entries and fio's keys: numjobs=4 without
# group_reporting is 4 job entries, group_reporting over two jobs is 1,
# the verify pass's reads are counted in read.io_bytes, a group's bw and
# iops statistics are over every job's samples, and every key fio 3.33
# writes in a job entry is there (checked against live fio when it is
# installed). storbench's own run JSON keeps one entry per job.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

sbjson() { # OUT ARGS...: storbench fio's JSON into OUT
	out=$1
	shift
	expect_exit 0 "$SB" fio --quiet --output-format=json --output="$out" "$@"
}

# numjobs=4 without group_reporting: fio's 4 entries, each its own size
sbjson "$T/four.json" --name=four --filename="$T/four.bin" --size=2m --bs=64k --numjobs=4
python3 - "$T/four.json" <<'PY' || fail "numjobs=4: not 4 entries of 2 MiB"
import json, sys
d = json.load(open(sys.argv[1]))
j = d['jobs']
assert len(j) == 4, len(j)
assert all(e['jobname'] == 'four' and e['read']['io_bytes'] == 2 << 20 for e in j), j
PY
ok "numjobs=4: 4 job entries of 2 MiB each"

# group_reporting with two jobs: one entry, named for the first, both's bytes
sbjson "$T/gr.json" --group_reporting --filename="$T/gr.bin" --size=2m --name=a --rw=read \
	--name=b --rw=write
python3 - "$T/gr.json" <<'PY' || fail "group_reporting: not one entry"
import json, sys
d = json.load(open(sys.argv[1]))
j = d['jobs']
assert len(j) == 1, len(j)
e = j[0]
assert e['jobname'] == 'a' and e['read']['io_bytes'] == 2 << 20 and e['write']['io_bytes'] == 2 << 20, e['jobname']
PY
ok "group_reporting over two jobs: one entry"

# stonewall: two groups, their groupids
sbjson "$T/sw.json" --filename="$T/sw.bin" --size=1m --name=a --name=b --stonewall
python3 -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs']; sys.exit(0 if [e['groupid'] for e in j]==[0,1] else 1)" \
	"$T/sw.json" || fail "stonewall: groupids are not 0, 1"
ok "stonewall: groupid 0 then 1"

# the verify pass: fio counts its reads in read.io_bytes (4 MiB written, 4 read)
sbjson "$T/v.json" --name=v --filename="$T/v.bin" --rw=write --bs=64k --size=4m --verify=crc32c
python3 - "$T/v.json" <<'PY' || fail "verify: read.io_bytes is not the pass's 4 MiB"
import json, sys
e = json.load(open(sys.argv[1]))['jobs'][0]
assert e['write']['io_bytes'] == 4 << 20 and e['read']['io_bytes'] == 4 << 20, (e['read']['io_bytes'])
assert e['read']['total_ios'] == 64, e['read']['total_ios']
PY
ok "verify=crc32c: the verify pass is 4 MiB of reads, 64 requests, as fio's"

# a group's bw/iops statistics: every thread's samples (fio's sum_stat):
# 4 threads of 3 s have at least 2 whole 1 s intervals each
sbjson "$T/s.json" --name=s --filename="$T/s.bin" --size=2m --bs=4k --rw=randread --numjobs=4 \
	--group_reporting --runtime=3 --time_based
python3 - "$T/s.json" <<'PY' || fail "group_reporting: bw samples are not every thread's"
import json, sys
e = json.load(open(sys.argv[1]))['jobs'][0]
r = e['read']
assert len(json.load(open(sys.argv[1]))['jobs']) == 1
assert r['bw_samples'] >= 8 and r['iops_samples'] >= 8, (r['bw_samples'], r['iops_samples'])
# fio's pure sum: the group's mean is the sum of the threads' means, so
# about the group's bandwidth (not one thread's)
assert abs(r['bw_mean'] - r['bw']) <= 0.25 * r['bw'], (r['bw_mean'], r['bw'])
PY
ok "group_reporting: bw and iops samples over all 4 threads"

# fio's samples: a bw sample every bwavgtime, an iops one every iopsavgtime
# (500 ms by default) while the thread runs: a 3 s job has 5 of 500 ms
# (6 when fio's helper wakes before the job ends), 11 or 12 of 250 ms, 2 or
# 3 of 1 s; each of numjobs=2's threads its own. A window starts at the
# sample before, so a loaded machine's late samples may cost one or two
# (the 1 s series before gave 2 or 3 of each)
sbjson "$T/smp.json" --name=smp --filename="$T/smp.bin" --size=1m --bs=4k --rw=randread \
	--numjobs=2 --runtime=3 --time_based --bwavgtime=250
sbjson "$T/smp2.json" --name=smp --filename="$T/smp2.bin" --size=1m --bs=4k --rw=randread \
	--runtime=3 --time_based --iopsavgtime=1000
python3 - "$T/smp.json" "$T/smp2.json" <<'PY' || fail "bw and iops samples are not fio's"
import json, sys
a, b = (json.load(open(p))['jobs'] for p in sys.argv[1:])
assert len(a) == 2, len(a)
for e in a:
    r = e['read']
    assert 8 <= r['bw_samples'] <= 12 and 4 <= r['iops_samples'] <= 6, (r['bw_samples'], r['iops_samples'])
    assert r['bw_min'] <= r['bw_mean'] <= r['bw_max'] and r['bw_dev'] > 0, r
r = b[0]['read']
assert 4 <= r['bw_samples'] <= 6 and 1 <= r['iops_samples'] <= 3, (r['bw_samples'], r['iops_samples'])
PY
ok "bwavgtime=250, iopsavgtime=1000 and 500 ms: fio's samples of a 3 s job"
# a bw log of every request (log_avg_msec=0): a sample per request, as fio
sbjson "$T/pu.json" --name=pu --filename="$T/pu.bin" --size=1m --bs=64k --rw=write \
	--write_bw_log="$T/pu" --write_iops_log="$T/pu"
python3 -c "import json,sys; w=json.load(open(sys.argv[1]))['jobs'][0]['write']; sys.exit(0 if w['bw_samples']==w['iops_samples']==16 else 1)" \
	"$T/pu.json" || fail "a per-request log: not a sample per request"
ok "write_bw_log without log_avg_msec: 16 requests, 16 samples, as fio"
expect_exit 2 "$SB" fio --name=z --filename="$T/z.bin" --size=1m --bwavgtime=0
grep -q "bwavgtime" "$T/err" || fail "bwavgtime=0: the refusal does not name it"
ok "bwavgtime=0 refused"

# fio's runtime of each direction: a group's reads that ended long before
# its writes have their own runtime (fio's runtime[ddir], the longest of the
# group's threads that moved that way), in the JSON and the run= lines
mkdir "$T/rt"
sbjson "$T/rt.json" --group_reporting --directory="$T/rt" --name=a --rw=read --size=1m \
	--name=b --rw=write --size=4m --rate=4m
expect_exit 0 "$SB" fio --quiet --group_reporting --directory="$T/rt" --name=a --rw=read \
	--size=1m --name=b --rw=write --size=4m --rate=4m
python3 - "$T/rt.json" "$T/out" <<'PY' || fail "a group's directions: not each its own runtime"
import json, re, sys
e = json.load(open(sys.argv[1]))['jobs'][0]
r, w = e['read'], e['write']
assert w['runtime'] >= 900 and r['runtime'] * 2 < w['runtime'], (r['runtime'], w['runtime'])
# the reads' bw over the reads' runtime (rounded to the ms: within half)
rt = r['runtime']
kib = r['io_bytes'] / 1024
assert kib * 1000 / (rt + 0.5) - 1 <= r['bw'] <= kib * 1000 / max(rt - 0.5, 0.01) + 1, (r['bw'], rt)
t = open(sys.argv[2]).read()
rd = re.search(r'READ: .*run=(\d+)-(\d+)msec', t)
wr = re.search(r'WRITE: .*run=(\d+)-(\d+)msec', t)
assert rd and wr and int(rd.group(2)) * 2 < int(wr.group(1)), t
PY
ok "group_reporting: the reads' runtime is the reads', the writes' the writes'"

# submit and complete maps at a depth above 1, as fio counts them: a
# submission of 8 (iodepth_batch_submit=8) in "8" (5 to 8), each reap by
# the requests it took (it waits for 8: iodepth_batch_complete=8), the
# maps' shares of the submissions and the reaps
sbjson "$T/sub.json" --name=sub --filename="$T/sub.bin" --size=4m --bs=4k --rw=randread \
	--ioengine=libaio --iodepth=32 --iodepth_batch_submit=8 --iodepth_batch_complete=8
python3 - "$T/sub.json" <<'PY' || fail "iodepth_submit and iodepth_complete are not fio's counts"
import json, sys
e = json.load(open(sys.argv[1]))['jobs'][0]
s, c = e['iodepth_submit'], e['iodepth_complete']
assert abs(sum(s.values()) - 100) < 0.1 and abs(sum(c.values()) - 100) < 0.1, (s, c)
assert s['8'] >= 90, s
assert c['0'] + c['4'] <= 10, c
PY
ok "libaio at iodepth=32: submissions of 8, reaps of 8 or more, as counted"

# storbench's own run JSON: one entry for the job, as before
printf '[j]\nrw=read\nsize=2m\nnumjobs=4\n' >"$T/own.fio"
mkdir "$T/own"
expect_exit 0 "$SB" run --quiet --format=json --output="$T/own.json" "$T/own.fio" "$T/own"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); j=d['jobs']; sys.exit(0 if len(j)==1 and 'eta' not in j[0] and 'bw_agg' not in j[0]['read'] else 1)" \
	"$T/own.json" || fail "run JOB.fio's JSON changed"
ok "run JOB.fio: one entry per job, without fio's extra keys"
# report still reads storbench fio's JSON
expect_exit 0 "$SB" report "$T/four.json"
grep -q four "$T/out" || fail "report does not name the job of storbench fio's JSON"
ok "report reads storbench fio's JSON"

# fio's fio_jsonplus_clat2csv writes a CSV per entry: one per thread, as of fio's
if command -v fio_jsonplus_clat2csv >/dev/null && python3 -c "import six" 2>/dev/null; then
	mkdir "$T/jp"
	sbjson "$T/jp/jp.json" --name=jp --filename="$T/jp.bin" --size=2m --numjobs=2 \
		--output-format=json+
	(cd "$T/jp" && fio_jsonplus_clat2csv jp.json jp.csv) >"$T/jp.out" 2>&1 ||
		fail "fio_jsonplus_clat2csv: $(tail -n 3 "$T/jp.out")"
	[ "$(wc -l <"$T/jp/jp_job0.csv")" -gt 2 ] && [ "$(wc -l <"$T/jp/jp_job1.csv")" -gt 2 ] ||
		fail "fio_jsonplus_clat2csv: not a CSV with rows per thread: $(ls "$T/jp")"
	ok "fio_jsonplus_clat2csv: a CSV for each of numjobs=2's entries"
else
	ok "fio_jsonplus_clat2csv (Debian's fio, python3-six) missing: not run"
fi

# every key fio writes in a job entry (the percentile lists aside) is ours
if command -v fio >/dev/null 2>&1; then
	fio --name=k --filename="$T/fk.bin" --size=1m --bs=4k --rw=randrw --numjobs=2 \
		--description=words --output-format=json --output="$T/fk.json" >/dev/null 2>&1 ||
		fail "fio failed"
	sbjson "$T/sk.json" --name=k --filename="$T/sk.bin" --size=1m --bs=4k --rw=randrw \
		--numjobs=2 --description=words
	python3 - "$T/fk.json" "$T/sk.json" <<'PY' || fail "keys fio writes are missing"
import json, sys
f, s = (json.load(open(p)) for p in sys.argv[1:])
def keys(d, p=''):
    out = set()
    for k, v in d.items():
        if p.endswith(('percentile.', 'bins.')) or k == 'job options':
            continue
        out.add(p + k)
        if isinstance(v, dict):
            out |= keys(v, p + k + '.')
    return out
assert len(f['jobs']) == len(s['jobs']) == 2, (len(f['jobs']), len(s['jobs']))
missing = keys(f['jobs'][0]) - keys(s['jobs'][0])
assert not missing, sorted(missing)
missing = set(f) - set(s)
assert not missing, sorted(missing)
for k in ('iodepth_submit', 'iodepth_complete', 'latency_depth', 'latency_target',
          'latency_percentile', 'latency_window', 'eta', 'desc'):
    assert k in s['jobs'][0], k
assert s['jobs'][0]['desc'] == 'words'
assert 'bw_agg' in s['jobs'][0]['read']
PY
	ok "every key of fio's job entries is in storbench fio's"
else
	ok "fio is not installed: its keys not compared"
fi

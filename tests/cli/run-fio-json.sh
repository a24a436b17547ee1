# storbench's results JSON read by fio's consumers: the keys they read are
# there with fio's types and key sets (checked against fio's own JSON of the
# same job when fio is installed), --format=json+ carries clat_ns.bins in
# fio's buckets, which fio's own fio_jsonplus_clat2csv (Debian's fio
# package) turns into a CSV whose percentiles are ours to a bucket, and
# fio-plot's JSON import runs on it when its source is given (FIO_PLOT_DIR:
# a fio-plot checkout's fio_plot folder; not part of this tree).
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

eng=psync
"$SB" --version | grep -q io_uring && eng=io_uring
expect_exit 0 "$SB" run --quiet --rw=randread --bs=4k --size=8M \
	--engine=$eng --iodepth=4 --format=json+ --output="$T/plus.json" "$T/d.bin"
cp "$T/out" "$T/stdout.json"
python3 - "$T/plus.json" "$T/stdout.json" <<'PY' || fail "fio's keys"
import json, sys
d = json.load(open(sys.argv[1]))
assert d == json.load(open(sys.argv[2])), '--output and stdout differ'
assert d['fio version'].startswith('fio-3.') and '(storbench ' in d['fio version'], d['fio version']
j = d['jobs'][0]
for k in ('ctx', 'majf', 'minf'):
    assert isinstance(j[k], int), k
# fio's key sets (stat.c show_thread_status_json)
assert list(j['iodepth_level']) == ['1', '2', '4', '8', '16', '32', '>=64']
assert abs(sum(j['iodepth_level'].values()) - 100) < 1e-3
assert j['iodepth_level']['>=64'] == 0 and j['iodepth_level']['8'] == 0  # at most 4 in flight
ten = ['2', '4', '10', '20', '50', '100', '250', '500', '750', '1000']
assert list(j['latency_ns']) == ten and list(j['latency_us']) == ten
assert list(j['latency_ms']) == ten + ['2000', '>=2000']
total = sum(sum(j[u].values()) for u in ('latency_ns', 'latency_us', 'latency_ms'))
assert abs(total - 100) < 0.2, total  # fio shows a share under 0.01 as 0.01
c = j['read']['clat_ns']
bins = {int(k): v for k, v in c['bins'].items()}
assert sum(bins.values()) == c['N'] == j["read"]["total_ios"] == 2048  # 8 MiB in 4 KiB
# fio's plat_idx_to_val: bucket midpoints of its 64-per-octave scheme
def fio_val(idx):
    if idx < 128:
        return idx
    e = (idx >> 6) - 1
    return (1 << (e + 6)) + int((idx % 64 + 0.5) * (1 << e))
vals = {fio_val(i) for i in range(29 * 64)}
assert set(bins) <= vals, sorted(set(bins) - vals)[:5]
# latency_* from the bins: each share within the buckets at its edges
def share(lo, hi):
    return 100 * sum(n for v, n in bins.items() if lo <= v < hi) / c['N']
def edge_slack(x):
    return 100 * sum(n for v, n in bins.items() if abs(v - x) <= x / 64 + 1) / c['N']
for u, scale in (('latency_us', 1000), ('latency_ms', 10**6)):
    lo = scale
    for k, pct in j[u].items():
        hi = int(k) * scale if k[0] != '>' else 1 << 62
        want = share(lo, hi)
        assert abs(pct - want) <= edge_slack(lo) + edge_slack(hi) + 0.011, (u, k, pct, want)
        lo = hi
# KDiskMark (src/benchmark.cpp:146-170): jobs[].error as an int, read.bw
# as an int (KiB/s), read.iops, read.clat_ns.mean
assert j['error'] == 0 and isinstance(j['read']['bw'], int)
assert j['read']['iops'] > 0 and c['mean'] > 0
PY
ok "fio's keys: fio version, ctx/majf/minf, iodepth_level, latency_ns/us/ms, json+ bins"

# the same keys and key sets as fio's own JSON of the same job
if command -v fio >/dev/null 2>&1 &&
	fio --name=job --filename="$T/d.bin" --size=8M --rw=randread --bs=4k --number_ios=2000 \
		--ioengine=psync --output-format=json+ --output="$T/fio.json" >"$T/fio.log" 2>&1; then
	python3 - "$T/fio.json" "$T/plus.json" <<'PY' || fail "keys differ from fio's"
import json, sys
f, s = (json.load(open(p)) for p in sys.argv[1:])
fj, sj = f['jobs'][0], s['jobs'][0]
for k in ('ctx', 'majf', 'minf', 'iodepth_level', 'latency_ns', 'latency_us', 'latency_ms',
          'job options', 'usr_cpu', 'sys_cpu', 'error', 'jobname'):
    assert k in fj and k in sj, k
    assert type(fj[k]) is type(sj[k]), k
    if isinstance(fj[k], dict) and k != 'job options':
        assert list(fj[k]) == list(sj[k]), k
for k in ('fio version', 'jobs'):  # fio writes 'global options' only with a [global]
    assert k in f and k in s, k
for k in ('bins', 'percentile', 'mean', 'N'):
    assert k in fj['read']['clat_ns'] and k in sj['read']['clat_ns'], k
PY
	ok "the keys of fio's own JSON of the job"
fi

# fio's fio_jsonplus_clat2csv (Debian: fio) on our json+: a CSV that checks
# against the JSON (--validate) and whose percentiles are ours to a bucket
if command -v fio_jsonplus_clat2csv >/dev/null 2>&1 && python3 -c 'import six' 2>/dev/null; then
	# --validate reads back the CSV a run without it wrote
	(cd "$T" && fio_jsonplus_clat2csv plus.json clat.csv &&
		fio_jsonplus_clat2csv --validate plus.json clat.csv) >"$T/c2c.log" 2>&1 ||
		fail "fio_jsonplus_clat2csv: $(tail -n 3 "$T/c2c.log")"
	python3 - "$T/plus.json" "$T/clat_job0.csv" <<'PY' || fail "CSV percentiles"
import csv, json, sys
c = json.load(open(sys.argv[1]))['jobs'][0]['read']['clat_ns']
rows = list(csv.reader(open(sys.argv[2]), skipinitialspace=True))
head = rows[0]
ns, pc = head.index('nsec'), head.index('read_clat_ns_percentile')
pts = [(int(r[ns]), float(r[pc])) for r in rows[1:] if r[pc].strip()]
assert len(pts) > 10, 'CSV nearly empty'
for key, ours in c['percentile'].items():
    p = float(key) / 100
    csv_v = next(v for v, q in pts if q >= p - 1e-12)
    # both lie in the bucket of the sample of rank ceil(p*N): its midpoint
    # against our estimate, clamped to min/max: within a bucket's width
    assert abs(csv_v - ours) <= ours / 64 + 1, (key, ours, csv_v)
PY
	ok "fio_jsonplus_clat2csv on json+: percentiles agree to a bucket"
else
	echo "note: fio_jsonplus_clat2csv (apt-get install fio python3-six) absent: not run"
fi

# fio-plot's JSON import (fio_plot/fiolib/jsonimport.py, jsonparsing.py,
# jsonparsing_support.py; they need no matplotlib) on our file. Without its
# source the keys it reads are checked: jsonimport.py:10 (two of "fio
# version", "global options", "client_stats", "jobs"), :59-60
# (int(job options iodepth/numjobs)), jsonparsing.py:75 ("fio version"),
# jsonparsing_support.py:95-110 (job options rw/bs/iodepth/numjobs,
# read.bw/iops/iops_stddev, lat_ns mean/stddev, latency_ms/us/ns,
# usr_cpu/sys_cpu)
mkdir "$T/plot"
cp "$T/plus.json" "$T/plot/"
python3 - "$T/plot" "${FIO_PLOT_DIR:-}" <<'PY' >"$T/plot.log" 2>&1 || fail "fio-plot: $(tail -n 5 "$T/plot.log")"
import json, os, shutil, sys
d, src = sys.argv[1], sys.argv[2]
s = json.load(open(os.path.join(d, 'plus.json')))
j = s['jobs'][0]
want = (j['read']['iops'], j['read']['bw'], j['read']['lat_ns']['mean'])
if src:
    lib = os.path.join(sys.argv[1], '..', 'fiolib')
    shutil.copytree(os.path.join(src, 'fiolib'), lib)
    sys.path.insert(0, os.path.dirname(lib))
    from fiolib import jsonimport, jsonparsing
    settings = {'input_directory': [d], 'rw': 'randread', 'iodepth': [4], 'numjobs': [1],
                'filter': ['read', 'write'], 'include_hosts': None, 'exclude_hosts': None,
                'compare_graph': False}
    ds = jsonimport.list_json_files(settings)
    ds = jsonimport.import_json_dataset(settings, ds)
    ds = jsonparsing.parse_json_data(settings, ds)
    row = ds[0]['data'][0]
    got = (row['iops'], row['bw'], row['lat'])
    assert got == want, (got, want)
    assert row['fio_version'] == s['fio version'] and row['latency_ms'] == [j['latency_ms']]
    print('fio-plot read it')
else:
    assert sum(k in s for k in ('fio version', 'global options', 'client_stats', 'jobs')) >= 2
    o = j['job options']
    assert int(o['iodepth']) == 4 and int(o['numjobs']) == 1 and o['rw'] == 'randread' and o['bs']
    for k in ('bw', 'iops', 'iops_stddev'):
        assert k in j['read'], k
    for k in ('mean', 'stddev'):
        assert k in j['read']['lat_ns'], k
    for k in ('latency_ms', 'latency_us', 'latency_ns', 'usr_cpu', 'sys_cpu'):
        assert k in j, k
    print('keys only')
PY
ok "fio-plot's JSON import: $(tail -n 1 "$T/plot.log")"

# fio's log files from a job file (write_bw_log, write_iops_log,
# write_lat_log, write_hist_log): the names real fio gives them (fio run on
# the same jobs when installed, else the names fio's HOWTO gives), fio
# 3.33's columns, one line per request without log_avg_msec, windows with
# it, one shared file with per_job_logs=0; and fio's own log tools from
# Debian's fio package (fiologparser.py, fiologparser_hist.py) read them
# to figures that agree with storbench's JSON.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

eng=psync
"$SB" --version | grep -q libaio && eng=libaio
mkdir "$T/sb" "$T/fio"

# names: what each tool made in its own folder, the data file left out
names() { (cd "$1" && ls | grep '\.log$' | sort | tr '\n' ' '); }
run_both() { # JOBFILE: storbench (JSON into sb/NAME.json), then fio when installed
	job=$1 base=$(basename "$1" .fio)
	(cd "$T/sb" && "$SB" run --quiet --output="$T/$base.json" "$job") >"$T/err" 2>&1 ||
		{ cat "$T/err"; fail "storbench run $base"; }
	if command -v fio >/dev/null 2>&1; then
		mkdir "$T/fio/$base"
		(cd "$T/fio/$base" && fio --output=/dev/null "$job") >"$T/ferr" 2>&1 ||
			{ cat "$T/ferr"; fail "fio $base"; }
	fi
}

# 1. every request logged, two clones, offsets on
cat >"$T/each.fio" <<EOF
[global]
ioengine=$eng
iodepth=4
rw=randrw
bs=4k
size=2M
write_bw_log
write_iops_log
write_lat_log=lat
write_hist_log
log_offset=1
filename=each.dat
[each]
numjobs=2
[other]
rw=read
write_bw_log=obw
EOF
run_both "$T/each.fio"
want="each_bw.1.log each_bw.2.log each_clat_hist.1.log each_clat_hist.2.log each_iops.1.log each_iops.2.log lat_clat.1.log lat_clat.2.log lat_clat.3.log lat_lat.1.log lat_lat.2.log lat_lat.3.log lat_slat.1.log lat_slat.2.log lat_slat.3.log obw_bw.3.log other_clat_hist.3.log other_iops.3.log "
got=$(names "$T/sb")
[ "$got" = "$want" ] || fail "file names: '$got', want (fio's HOWTO) '$want'"
if [ -d "$T/fio/each" ]; then
	fgot=$(names "$T/fio/each")
	[ "$got" = "$fgot" ] || fail "file names: '$got', real fio made '$fgot'"
	ok "file names as real fio's: $got"
else
	ok "file names as fio's HOWTO gives them (fio not installed)"
fi

python3 - "$T/sb" "$T/each.json" "$eng" "${T}/fio/each" <<'PY' || fail "per-request logs"
import json, os, sys
d, res, eng, fiodir = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
jobs = {j['jobname']: j for j in res['jobs']}
def rows(name):
    with open(os.path.join(d, name)) as f:
        return [[int(x) for x in l.rstrip('\n').split(', ')] for l in f]
def check(name, cols, n_ios, rw_dirs, ms_max, size):
    r = rows(name)
    assert len(r) == n_ios, (name, len(r), n_ios)
    assert all(len(x) == cols for x in r), name
    t = [x[0] for x in r]
    assert t == sorted(t) and t[-1] <= ms_max, (name, t[-1], ms_max)
    assert {x[2] for x in r} <= rw_dirs and len({x[2] for x in r}) == len(rw_dirs), name
    assert all(x[3] == 4096 for x in r), name
    if cols == 6:
        assert all(0 <= x[4] < size and x[4] % 4096 == 0 for x in r), name
    assert all(x[-1] == 0 for x in r), name
    return r
size = 2 << 20
for job, n, first, dirs in (('each', 2, 1, {0, 1}), ('other', 1, 3, {0})):
    j = jobs[job]
    ios = j['read']['total_ios'] + j['write']['total_ios']
    assert ios == n * size // 4096, (job, ios)
    ms = j['job_runtime'] + 50
    each = ios // n
    for k in range(first, first + n):
        bw = check('%s_bw.%d.log' % ('each' if job == 'each' else 'obw', k), 6, each, dirs, ms, size)
        iops = check('%s_iops.%d.log' % (job, k), 6, each, dirs, ms, size)
        assert all(x[1] == 1 for x in iops)
        lat = check('lat_lat.%d.log' % k, 6, each, dirs, ms, size)
        clat = check('lat_clat.%d.log' % k, 6, each, dirs, ms, size)
        # lat holds clat (and slat): request by request, same order
        assert all(a[1] >= b[1] and a[4] == b[4] for a, b in zip(lat, clat))
        # fio's bw of a request: bytes * 10^6 / clat ns
        assert all(b[1] == 4096 * 10**6 // c[1] for b, c in zip(bw, clat) if c[1])
        slat = rows('lat_slat.%d.log' % k)
        if eng == 'psync':
            assert not slat  # fio logs no slat for a synchronous engine
        else:
            assert len(slat) == each
        assert os.path.getsize(os.path.join(d, '%s_clat_hist.%d.log' % (job, k))) == 0
# fio's own logs of the same job, when it ran: the same columns
if os.path.isdir(fiodir):
    for name in ('each_bw.1.log', 'lat_clat.3.log', 'each_iops.2.log'):
        with open(os.path.join(fiodir, name)) as f:
            l = f.readline()
        assert len(l.split(', ')) == 6, (name, l)
PY
ok "per-request logs: one line per request, fio's columns, bs, offsets, directions, time"

# 2. log_avg_msec: windows of 100 ms, at a capped rate so the figure is known
cat >"$T/avg.fio" <<EOF
[avg]
filename=avg.dat
ioengine=$eng
rw=randrw
bs=4k
size=8M
time_based
runtime=2s
rate=1M
log_avg_msec=100
write_bw_log
write_iops_log
write_lat_log
EOF
rm -f "$T/sb"/*.log
run_both "$T/avg.fio"
python3 - "$T/sb" "$T/avg.json" <<'PY' || fail "log_avg_msec"
import json, os, sys
d, j = sys.argv[1], json.load(open(sys.argv[2]))['jobs'][0]
def rows(name):
    with open(os.path.join(d, name)) as f:
        return [[int(x) for x in l.rstrip('\n').split(', ')] for l in f]
for kind in ('bw', 'iops', 'lat', 'clat', 'slat'):
    r = rows('avg_%s.1.log' % kind)
    if kind == 'slat' and not r:
        continue
    assert all(len(x) == 5 and x[3] == 0 and x[4] == 0 for x in r), kind
    for dd in (0, 1):
        t = [x[0] for x in r if x[2] == dd]
        # about one a window (runtime / 100 ms), in order, in the run
        assert 10 <= len(t) <= 22, (kind, dd, len(t))
        assert t == sorted(t) and t[-1] <= j['job_runtime'] + 150, (kind, t)
for dd, key in ((0, 'read'), (1, 'write')):
    v = [x[1] for x in rows('avg_bw.1.log') if x[2] == dd]
    mean = sum(v) / len(v)
    # the windows' mean against the run's bandwidth (KiB/s)
    assert 0.5 * j[key]['bw'] <= mean <= 1.5 * j[key]['bw'], (key, mean, j[key]['bw'])
PY
ok "log_avg_msec=100: a line per window and direction, the bw windows' mean near the run's"

# fio's fiologparser.py (Debian's fio package): its sum of the bw logs over
# the run is the run's bandwidth. fio 3.33's logs have a fifth column the
# tool does not read (it fails on fio's own logs just as on ours): it gets
# the first four
parser=/usr/share/doc/fio/fiologparser.py.gz
if [ -f "$parser" ]; then
	gunzip -c "$parser" >"$T/fiologparser.py"
	# and it reads a file as one direction's series: one file each
	awk -F', ' '$3 == 0 { print $1 ", " $2 ", " $3 ", " $4 }' "$T/sb/avg_bw.1.log" >"$T/bw_r.log"
	awk -F', ' '$3 == 1 { print $1 ", " $2 ", " $3 ", " $4 }' "$T/sb/avg_bw.1.log" >"$T/bw_w.log"
	python3 "$T/fiologparser.py" "$T/bw_r.log" "$T/bw_w.log" >"$T/lp.out" 2>&1 ||
		fail "fiologparser.py: $(tail -n 2 "$T/lp.out")"
	bw=$(json "$T/avg.json" "d['jobs'][0]['read']['bw'] + d['jobs'][0]['write']['bw']")
	within_pct "$(tail -n 1 "$T/lp.out")" "$bw" 40 ||
		fail "fiologparser.py: $(tail -n 1 "$T/lp.out") KiB/s, the run: $bw KiB/s"
	ok "fiologparser.py on the bw log: $(tail -n 1 "$T/lp.out") KiB/s, the run $bw KiB/s"
else
	echo "note: $parser (apt-get install fio) absent: not run"
fi

# 3. per_job_logs=0: one file per name, no number, both clones' lines in it
cat >"$T/shared.fio" <<EOF
[shared]
filename=shared.dat
ioengine=psync
rw=write
bs=4k
size=1M
numjobs=2
per_job_logs=0
write_iops_log
write_lat_log
EOF
rm -f "$T/sb"/*.log
run_both "$T/shared.fio"
got=$(names "$T/sb")
want="shared_clat.log shared_iops.log shared_lat.log shared_slat.log "
[ "$got" = "$want" ] || fail "per_job_logs=0: '$got', want '$want'"
[ ! -d "$T/fio/shared" ] || [ "$(names "$T/fio/shared")" = "$want" ] ||
	fail "per_job_logs=0: real fio made '$(names "$T/fio/shared")'"
[ "$(wc -l <"$T/sb/shared_iops.log")" = 512 ] || fail "per_job_logs=0: $(wc -l <"$T/sb/shared_iops.log") lines, want 2 x 256"
ok "per_job_logs=0: $got, both jobs' lines"

# storbench fio: fio's command line, read by the same reader
rm -f "$T/sb"/*.log
(cd "$T/sb" && "$SB" fio --name=cl --filename=cl.dat --size=256k --rw=write --write_iops_log \
	--write_lat_log=zz) >"$T/err" 2>&1 || { cat "$T/err"; fail "storbench fio with logs"; }
got=$(names "$T/sb")
[ "$got" = "cl_iops.1.log zz_clat.1.log zz_lat.1.log zz_slat.1.log " ] ||
	fail "storbench fio: '$got'"
[ "$(wc -l <"$T/sb/cl_iops.1.log")" = 64 ] || fail "storbench fio: iops lines"
ok "storbench fio --write_iops_log --write_lat_log=zz: $got"

# 4. histograms: at 100 requests a second and 5 ms windows every request
# closes a window, so the lines hold every request's clat in fio's bins
cat >"$T/hist.fio" <<EOF
[hist]
filename=hist.dat
ioengine=psync
rw=randread
bs=4k
size=400k
rate=400k
write_hist_log=h
log_hist_msec=5
EOF
rm -f "$T/sb"/*.log
(cd "$T/sb" && "$SB" run --quiet --format=json+ --output="$T/hist.json" "$T/hist.fio") >"$T/err" 2>&1 ||
	{ cat "$T/err"; fail "storbench run hist"; }
python3 - "$T/sb/h_clat_hist.1.log" "$T/hist.json" <<'PY' || fail "histogram log"
import json, sys
c = json.load(open(sys.argv[2]))['jobs'][0]['read']['clat_ns']
rows = [[int(x) for x in l.split(', ')] for l in open(sys.argv[1])]
assert rows and all(len(r) == 3 + 1856 and r[1] == 0 and r[2] == 4096 for r in rows)
t = [r[0] for r in rows]
assert t == sorted(t)
tot = [sum(r[3 + i] for r in rows) for i in range(1856)]
# json+ names a bin by its value, fio's plat_idx_to_val
def fio_val(idx):
    if idx < 128:
        return idx
    e = (idx >> 6) - 1
    return (1 << (e + 6)) + int((idx % 64 + 0.5) * (1 << e))
idx = {fio_val(i): i for i in range(1856)}
bins = {idx[int(k)]: v for k, v in c['bins'].items()}
# each bin's count at most the run's, and all but the last window's in
assert all(tot[i] <= bins.get(i, 0) for i in range(1856)), 'bins'
assert c['N'] - 3 <= sum(tot) <= c['N'], (sum(tot), c['N'])
PY
ok "histogram log: fio's 1856 bins per line, the run's clat bins summed"

hparser=/usr/share/doc/fio/fiologparser_hist.py.gz
# Debian's python3 has Debian's numpy and pandas; another one first in PATH may not
py=python3
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy, pandas' 2>/dev/null && py=/usr/bin/python3
if [ ! -f "$hparser" ]; then
	echo "note: $hparser (apt-get install fio) absent: not run"
elif ! $py -c 'import numpy, pandas' 2>/dev/null; then
	skip "fiologparser_hist.py needs python3-numpy and python3-pandas (scripts/install-deps --test)"
else
	gunzip -c "$hparser" >"$T/fiologparser_hist.py"
	$py "$T/fiologparser_hist.py" --noweight --percentiles 50:90 -i 100000 "$T/sb/h_clat_hist.1.log" \
		>"$T/hp.out" 2>&1 || fail "fiologparser_hist.py: $(tail -n 3 "$T/hp.out")"
	$py - "$T/hp.out" "$T/hist.json" <<'PY' || fail "fiologparser_hist.py: $(cat "$T/hp.out")"
import json, sys
c = json.load(open(sys.argv[2]))['jobs'][0]['read']['clat_ns']
lines = [l for l in open(sys.argv[1]) if l.strip()]
head = [x.strip() for x in lines[0].split(',')]
row = dict(zip(head, (float(x) for x in lines[1].split(','))))
assert int(row['samples']) == c['N'], (row, c['N'])
# the tool's figure (np.interp over a CDF of its bin values, each
# bin at the middle of its weight) from the JSON's bins: the log and the
# JSON hold the same requests in the same bins
import numpy as np
def fio_val(idx, edge=0.5):
    if idx < 128:
        return idx
    e = (idx >> 6) - 1
    return (1 << (e + 6)) + (idx % 64 + edge) * (1 << e)
at = {int(fio_val(i)): i for i in range(1856)}
ws = np.zeros(1856)
for k, v in c['bins'].items():
    ws[at[int(k)]] = v
# the tool's bin value: plat_idx_to_val_coarse, from the bin's low edge to
# the next one's high edge
vs = np.array([fio_val(i, 0.0) + (fio_val(i + 1, 1.0) - fio_val(i, 0.0)) / 2 for i in range(1856)])
cdf = 100 * (ws.cumsum() - ws / 2.0) / ws.sum()
pc = c['percentile']
for p, lo, hi in ((50, 40, 60), (90, 80, 95)):
    theirs = row['median' if p == 50 else '%d%%' % p]
    want = float(np.interp([p], cdf, vs)[0])
    assert abs(theirs - want) <= 0.005 * want + 1, (p, theirs, want)
    # and between the JSON's neighbouring percentiles, a bucket either side
    assert pc['%.6f' % lo] * 63 / 64 <= theirs <= pc['%.6f' % hi] * 65 / 64, (p, theirs, pc)
PY
	ok "fiologparser_hist.py on the histogram log: the JSON's requests, its percentiles from the JSON's bins"
fi

# a symlink planted under a log's name is never followed: the log would
# truncate whatever it points to (issue 26: every write of storbench's
# passes a gate, its logs too)
mkdir "$T/shared"
printf 'precious\n' >"$T/victim"
ln -s "$T/victim" "$T/shared/x_bw.1.log"
printf '[x]\nrw=write\nsize=64k\nbs=4k\nwrite_bw_log=%s\nfilename=%s\n' "$T/shared/x" "$T/shared/data" >"$T/planted.fio"
"$SB" run --quiet "$T/planted.fio" >"$T/out" 2>"$T/err" && fail "a log written through a planted symlink"
grep -q "refusing to write to .$T/shared/x_bw.1.log.: it is a symbolic link" "$T/err" || { cat "$T/err"; fail "planted symlink: message"; }
[ "$(cat "$T/victim")" = precious ] || fail "the symlink's target was written"
ok "a symlink planted under a log's name is refused, its target intact"
exit 0

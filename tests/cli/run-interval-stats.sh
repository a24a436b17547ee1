# bw_* and iops_* in the results are taken over whole intervals only, as
# fio's: a rate-limited write of 257 blocks at 128 blocks a second (the
# limiter lets the first block go at once) issues its last block at 2 s, so
# the run ends a fraction of a millisecond into a third interval with no
# completion in it. Counted as a sample, that tail made bw_min 0; now the
# samples are the two whole seconds and bw_min is close to the rate.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

rate=8388608
expect_exit 0 "$SB" run --rw=write --bs=64k --size=16448k --rate=8M --quiet \
	--output="$T/r.json" "$T/f.bin"

# one python for all the checks: the number of whole intervals is read
# from the series itself; a tail with no completion gave a bw_min of 0, one
# with a completion in a fraction of a millisecond hundreds of MiB/s
python3 - "$T/r.json" $rate <<'PY' || fail "interval statistics"
import json, sys
d = json.load(open(sys.argv[1]))
rate = int(sys.argv[2])
j = d['jobs'][0]
iv = j['storbench']['log_interval_ns']
series = j['storbench']['series']
whole = sum(1 for s in series if s['len_ns'] + iv // 1000 >= iv)
w, r = j['write'], j['read']
def check(cond, why):
    if not cond:
        print(why, {k: v for k, v in w.items() if k.startswith(('bw', 'iops'))})
        sys.exit(1)
check(whole >= 1, 'no whole interval in a 2 s run')
check(w['bw_samples'] == whole, f"bw_samples {w['bw_samples']}, {whole} whole of {len(series)}")
check(w['iops_samples'] == whole, f"iops_samples {w['iops_samples']}, {whole} whole")
check(w['bw_min'] * 1024 >= rate / 2, f'bw_min at a rate of {rate} B/s')
check(w['bw_max'] * 1024 <= rate * 4, f'bw_max at a rate of {rate} B/s')
check(w['iops_min'] >= 64, 'iops_min under half of 128')
check(w['bw_min'] <= w['bw_mean'] <= w['bw_max'], 'bw_mean outside min..max')
# a direction the job never used has no samples (fio writes 0 there)
check((r['bw_samples'], r['iops_samples'], r['bw_min'], r['bw_mean']) == (0, 0, 0, 0),
      'read of a write job has samples')
print(f"ok: rate-limited write: {whole} samples of {len(series)} intervals, "
      f"bw_min {w['bw_min'] * 1024} B/s at {rate} B/s; none for reads")
PY

# shorter than one interval: no whole interval, no samples
expect_exit 0 "$SB" run --rw=read --bs=64k --size=2M --rate=8M --quiet --output="$T/s.json" \
	"$T/f.bin"
[ "$(json "$T/s.json" "(len(d['jobs'][0]['storbench']['series']),
	d['jobs'][0]['read']['bw_samples'])")" = "(1, 0)" ] ||
	fail "a 0.25 s run: not one interval without samples"
ok "a run shorter than one interval has no samples"

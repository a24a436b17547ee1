# slat, clat and lat as fio defines them, on a file whose every request
# takes 5 ms (faultfs delay): with psync clat is the system call (at least
# the delay) and there is no slat; with io_uring slat is the submission
# (it returns long before the delay), clat from its return to the
# completion (at least most of the delay), and slat + clat = lat request by
# request, so their means add up. Invariants of a known delay, no timings
# against absolute figures.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/faultfs.sh"

# a real file with O_DIRECT (where the filesystem has it): every request
# reaches the device, so none completes in under a microsecond, and slat +
# clat = lat with io_uring
dd if=/dev/urandom of="$T/r.bin" bs=1M count=16 status=none
if "$SB" run --quiet --rw=randread --bs=4k --size=16M --number-ios=2000 --engine=psync \
	--direct=1 --output="$T/rp.json" "$T/r.bin" >/dev/null 2>&1; then
	python3 - "$T/rp.json" <<'PY' || fail "psync O_DIRECT latencies"
import json, sys
r = json.load(open(sys.argv[1]))['jobs'][0]['read']
assert r['total_ios'] == 2000 and r['slat_ns']['N'] == 0
assert r['clat_ns']['min'] >= 1000, f"clat min {r['clat_ns']['min']} ns for a direct read"
assert r['lat_ns']['min'] >= r['clat_ns']['min']
PY
	if "$SB" --version | grep -q io_uring; then
		expect_exit 0 "$SB" run --quiet --rw=randread --bs=4k --size=16M --number-ios=4000 \
			--engine=io_uring --iodepth=8 --direct=1 --output="$T/ru.json" "$T/r.bin"
		python3 - "$T/ru.json" <<'PY' || fail "io_uring O_DIRECT latencies"
import json, sys
r = json.load(open(sys.argv[1]))['jobs'][0]['read']
s, c, l = r['slat_ns'], r['clat_ns'], r['lat_ns']
assert s['N'] == c['N'] == l['N'] == r['total_ios'] == 4000
assert abs(s['mean'] + c['mean'] - l['mean']) <= 0.01 * l['mean'], (s['mean'], c['mean'], l['mean'])
assert c['percentile']['1.000000'] >= 1000, f"clat p1 {c['percentile']['1.000000']} ns"
PY
	fi
	ok "O_DIRECT on a real file: psync clat at least 1 us, io_uring slat + clat = lat"
fi

DELAY_US=5000
ff_start
dd if=/dev/urandom of="$FF_BACK/f.bin" bs=64k count=16 status=none
ff_rules "delay * 0 1048576 $DELAY_US"

# stat FILE DIR KIND FIELD
st() { json "$1" "d['jobs'][0]['read']['$2']['$3']"; }

expect_exit 0 "$SB" run --quiet --rw=randread --bs=4k --size=64k --engine=psync --direct=0 \
	--output="$T/p.json" "$FF_MNT/f.bin"
[ "$(st "$T/p.json" slat_ns N)" = 0 ] || fail "psync has a slat"
python3 - "$T/p.json" "$DELAY_US" <<'PY' || fail "psync latencies"
import json, sys
r = json.load(open(sys.argv[1]))['jobs'][0]['read']
d = int(sys.argv[2]) * 1000
c, l = r['clat_ns'], r['lat_ns']
assert c['N'] == l['N'] == r['total_ios'] == 16, (c['N'], l['N'])
assert c['min'] >= d, f"clat min {c['min']} below the {d} ns the call takes"
assert l['min'] >= c['min'] and l['mean'] >= c['mean'], (l, c)
PY
ok "psync: clat is the system call (at least ${DELAY_US} us), no slat"

"$SB" --version | grep -q io_uring || skip "built without io_uring"
for batch in 1 4; do
	expect_exit 0 "$SB" run --quiet --rw=randread --bs=4k --size=128k --engine=io_uring \
		--iodepth=4 --iodepth-batch-submit=$batch --direct=0 --output="$T/u.json" \
		"$FF_MNT/f.bin"
	python3 - "$T/u.json" "$DELAY_US" <<'PY' || fail "io_uring latencies, batch $batch"
import json, sys
r = json.load(open(sys.argv[1]))['jobs'][0]['read']
d = int(sys.argv[2]) * 1000
s, c, l = r['slat_ns'], r['clat_ns'], r['lat_ns']
assert s['N'] == c['N'] == l['N'] == r['total_ios'] == 32, (s['N'], c['N'], l['N'])
# slat + clat = lat for every request: the means add up
assert abs(s['mean'] + c['mean'] - l['mean']) <= 0.01 * l['mean'], (s['mean'], c['mean'], l['mean'])
# the submission returned before the request was served: it is no part of clat
assert s['percentile']['50.000000'] < d / 2, f"slat p50 {s['percentile']['50.000000']}"
assert c['min'] >= d / 2, f"clat min {c['min']}: the completion stamped before the delay"
assert l['min'] >= c['min']
PY
	ok "io_uring, iodepth-batch-submit=$batch: slat + clat = lat, slat before the ${DELAY_US} us"
done

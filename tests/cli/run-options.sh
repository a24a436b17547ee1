# Workload options do what they say: trim punches holes, --fsync counts,
# --rate caps bandwidth, bssplit mixes sizes, --repeat summarises, zipf runs,
# a Ctrl-C leaves results marked interrupted and no test file.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

f="$T/f.bin"
expect_exit 0 "$SB" run --rw=write --bs=1M --size=16M --keep --quiet "$f"
used=$(du -k "$f" | cut -f1)
[ "$used" -ge 16000 ] || fail "file not allocated ($used KiB)"
expect_exit 0 "$SB" run --rw=trim --bs=1M --quiet --output="$T/t.json" "$f"
[ "$(json "$T/t.json" "d['jobs'][0]['trim']['io_bytes']")" = 16777216 ] || fail "trim bytes"
used=$(du -k "$f" | cut -f1)
[ "$used" -le 1024 ] || fail "trim left $used KiB allocated"
ok "trim punches holes over the region"

expect_exit 0 "$SB" run --rw=randwrite --bs=4k --size=1M --fsync=16 --direct=0 --quiet \
	--output="$T/s.json" "$f"
[ "$(json "$T/s.json" "d['jobs'][0]['sync']['total_ios']")" = 16 ] || fail "256 writes / 16 != syncs"
ok "--fsync=16"

expect_exit 0 "$SB" run --rw=read --bs=64k --size=16M --rate=4M --runtime=2s --time-based \
	--quiet --output="$T/r.json" "$f"
bw=$(json "$T/r.json" "d['jobs'][0]['read']['bw_bytes']")
python3 -c "import sys; b=int(sys.argv[1]); sys.exit(0 if 2**21 <= b <= 1.1*4*2**20 else 1)" "$bw" ||
	fail "--rate=4M gave $bw B/s"
ok "--rate=4M: $bw B/s"

# bssplit's shares are of requests: a random pass cuts each 64k chunk
# into one 64k or sixteen 4k requests, 64k with chance 16/17 (50% x 64k
# against 50% x 4k), so half the requests are 4k on average. Over 1024
# chunks the 4k share of requests is 0.50 with a standard deviation of
# 0.03; the bounds are 5 of those (16 MiB's 256 chunks are too few: a
# 2-sigma bound failed one run in 40).
expect_exit 0 "$SB" run --rw=write --bs=1M --size=64M --keep --quiet "$T/b.bin"
expect_exit 0 "$SB" run --rw=randread --bssplit=4k/50:64k/50 --size=64M --quiet \
	--output="$T/b.json" "$T/b.bin"
ios=$(json "$T/b.json" "d['jobs'][0]['read']['total_ios']")
bytes=$(json "$T/b.json" "d['jobs'][0]['read']['io_bytes']")
python3 -c "
import sys
i, b = map(int, sys.argv[1:])
units = b // 4096
n64, r = divmod(units - i, 15)
sys.exit(0 if b == 64 << 20 and r == 0 and 0.35 <= (i - n64) / i <= 0.65 else 1)" "$ios" "$bytes" ||
	fail "bssplit 4k/50:64k/50: $ios requests for $bytes bytes"
rm -f "$T/b.bin"
ok "bssplit mixes sizes"

expect_exit 0 "$SB" run --rw=randread --random-distribution=zipf:1.2 --size=16M --runtime=1s \
	--time-based --repeat=3 --quiet --output="$T/z.json" "$f"
[ "$(json "$T/z.json" "len(d['jobs'])")" = 3 ] || fail "repeat: 3 jobs expected"
[ "$(json "$T/z.json" "d['storbench']['summary'][0]['runs']")" = 3 ] || fail "repeat summary"
[ "$(json "$T/z.json" "d['jobs'][0]['job options']['random_distribution']")" = zipf:1.2 ] ||
	fail "distribution not recorded"
ok "zipf with --repeat=3"

# waiting for completions in batches moves every byte once and says so
expect_exit 0 "$SB" run --rw=randread --bs=4k --size=8M --iodepth=16 --iodepth-batch-complete=4 \
	--quiet --output="$T/bc.json" "$f"
[ "$(json "$T/bc.json" "d['jobs'][0]['read']['io_bytes']")" = 8388608 ] || fail "batch complete: bytes"
[ "$(json "$T/bc.json" "d['jobs'][0]['job options']['iodepth_batch_complete_min']")" = 4 ] ||
	fail "batch complete: not recorded"
ok "--iodepth-batch-complete=4"

# Ctrl-C: partial results marked interrupted, exit 130, created file removed
mkdir "$T/d"
"$SB" run --rw=randread --size=16M --runtime=30s --time-based --quiet --output="$T/i.json" "$T/d" &
pid=$!
# not before the handler and the test file (an early signal kills the
# default way: no i.json), nor before the reads (none to report): the
# layout has written all 16M, and the first read since moved the atime
# past the layout's mtime (relatime); where the mount never moves it, on
# after 10 s (the run lasts 30 s)
wait_until 60 has_entries "$T/d" && wait_until 60 handles_int $pid ||
	{ kill $pid; fail "run made no test file or set no handler in 60 s"; }
read_since_layout() {
	set -- "$T/d/$(ls -A "$T/d")"
	[ "$(stat -c %s "$1")" = 16777216 ] && stat -c '%.9X %.9Y' "$1" | awk '{ exit !($1 > $2) }'
}
wait_until 10 read_since_layout
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after SIGINT, expected 130"
[ "$(json "$T/i.json" "d['storbench']['interrupted']")" = True ] || fail "not marked interrupted"
json "$T/i.json" "d['jobs'][0]['read']['total_ios'] > 0" | grep -q True || fail "no partial results"
[ -z "$(ls -A "$T/d")" ] || fail "test file left after SIGINT"
ok "SIGINT"

# a second Ctrl-C exits at once, even while the test file is being laid out,
# and leaves neither the half-made file nor a half-written result
mkdir "$T/d2"
"$SB" run --rw=read --size=4G --direct=0 --quiet --output="$T/i2.json" "$T/d2" 2>/dev/null &
pid=$!
# while the layout runs: the file made, the handler set (not a fixed sleep)
wait_until 60 has_entries "$T/d2" && wait_until 60 handles_int $pid ||
	{ kill $pid; fail "run made no test file or set no handler in 60 s"; }
kill -INT $pid
sleep 0.2
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ $rc = 130 ] || fail "exit $rc after two SIGINTs, expected 130"
[ -z "$(ls -A "$T/d2")" ] || fail "left behind: $(ls -A "$T/d2")"
if [ -e "$T/i2.json" ]; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/i2.json" || fail "invalid result"
fi
ls "$T" | grep -q 'i2.json.tmp' && fail "temporary result left"
ok "second SIGINT"

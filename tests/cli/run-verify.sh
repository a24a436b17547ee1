# run --verify: a write workload of any pattern leaves every block intact
# and says so; a fault in the data is found at its offset and fails the run;
# workloads that cannot be verified are refused.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
expect_exit 0 "$SB" run --rw=randwrite --bs=4k --size=8M --verify --quiet --output="$T/a.json" "$T/d"
[ "$(json "$T/a.json" "d['storbench']['verify']['intact']")" = 2048 ] || fail "8 MiB: 2048 blocks intact"
grep -q "0 not intact" "$T/out" || fail "text verdict"
expect_exit 0 "$SB" run --rw=randrw --bssplit=4k/50:64k/50 --random-distribution=zipf:1.1 \
	--numjobs=2 --size=8M --runtime=1s --time-based --verify --quiet --output="$T/b.json" "$T/d"
[ "$(json "$T/b.json" "d['storbench']['verify']['blocks_checked']")" = 4096 ] || fail "2 files x 2048"
[ "$(json "$T/b.json" "d['storbench']['verify']['intact']")" = 4096 ] || fail "mixed workload"
# three sizes over a region with a tail shorter than a chunk: each random
# pass moves every byte once (pieces numbered per pass, lib/run/pieces.h),
# exactly --size bytes, and many passes leave every block intact
expect_exit 0 "$SB" run --rw=randwrite --bssplit=4k/50:64k/30:1m/20 --size=9284k --verify \
	--quiet --output="$T/s.json" "$T/d"
[ "$(json "$T/s.json" "d['jobs'][0]['write']['io_bytes']")" = 9506816 ] || fail "bssplit: not 9284k moved"
[ "$(json "$T/s.json" "d['storbench']['verify']['intact']")" = 2321 ] || fail "bssplit: 2321 blocks intact"
expect_exit 0 "$SB" run --rw=randwrite --bssplit=4k/50:64k/30:1m/20 --size=9284k --numjobs=2 \
	--iodepth=4 --runtime=1s --time-based --verify --quiet --output="$T/t.json" "$T/d"
[ "$(json "$T/t.json" "d['storbench']['verify']['intact']")" = 4642 ] || fail "bssplit: passes"
expect_exit 0 "$SB" run --rw=write --bs=1536 --direct=0 --size=3M --verify --quiet \
	--output="$T/c.json" "$T/d"
[ "$(json "$T/c.json" "d['storbench']['verify']['block_size']")" = 512 ] || fail "512 B blocks for 1536 B writes"
[ -z "$(ls -A "$T/d")" ] || fail "files left"
ok "verified workloads"

for bad in "--rw=read" "--rw=trim" "--engine=null --rw=write" "--rw=write --bs=1000 --direct=0"; do
	"$SB" run $bad --size=1M --verify --quiet "$T/d" 2>"$T/err"
	[ $? = 2 ] || fail "run $bad --verify: not refused"
	grep -q -- "--verify" "$T/err" || fail "run $bad --verify: message: $(cat "$T/err")"
done
[ -z "$(ls -A "$T/d")" ] || fail "refused runs left files"
ok "unverifiable workloads refused"

. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
ff_rules "flip * 8192 4096"
"$SB" run --rw=randwrite --bs=4k --size=1M --direct=0 --verify --quiet --output="$T/f.json" \
	"$FF_MNT" >"$T/f.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$T/f.out"; fail "fault: exit $rc, expected 1"; }
json "$T/f.json" "d['storbench']['verify']['bad_ranges'][0]['offset']" | grep -qx 8192 ||
	fail "fault not at 8192"
[ "$(json "$T/f.json" "d['storbench']['verify']['corrupted']")" = 1 ] || fail "one corrupted block"
ok "a flipped bit fails the run at its offset"

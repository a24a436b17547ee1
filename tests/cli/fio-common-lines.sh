#!/bin/sh
# fio's common lines from scripts and wikis run as fio runs them (issue 29,
# item 2): the etcd disk check (fdatasync=1: an fdatasync every write,
# in the JSON's sync lat_ns and not its total_ios, as fio 3.33), the Arch
# wiki's posixaio (runs as io_uring), rate_iops (a cap on requests per
# second), gtod_reduce=1 (no latency kept: fio's text shows the bw and
# iops lines and none of latency). Compared with fio itself when it is installed.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

command -v fio >/dev/null && have_fio=1 || have_fio=

# The etcd check, smaller: 1 MiB in 2300-byte writes is 455 writes of
# 1046500 bytes, each followed by an fdatasync.
mkdir "$T/etcd" || fail "mkdir"
expect_exit 0 "$SB" fio --rw=write --ioengine=sync --fdatasync=1 --directory="$T/etcd" \
	--size=1m --bs=2300 --name=etcd --output-format=json --output="$T/etcd.json"
etcd() {
	json "$1" "(d['jobs'][0]['write']['io_bytes'], d['jobs'][0]['write']['total_ios'], \
d['jobs'][0]['sync']['total_ios'], d['jobs'][0]['sync']['lat_ns']['N'], len(d['jobs']))"
}
sb=$(etcd "$T/etcd.json")
[ "$sb" = "(1046500, 455, 0, 455, 1)" ] || fail "etcd line: bytes, writes, sync total_ios, sync N, jobs: $sb"
if [ -n "$have_fio" ]; then
	mkdir "$T/etcd-fio" || fail "mkdir"
	fio --rw=write --ioengine=sync --fdatasync=1 --directory="$T/etcd-fio" --size=1m --bs=2300 \
		--name=etcd --output-format=json --output="$T/etcd-fio.json" >/dev/null 2>&1 ||
		fail "fio refused the etcd line"
	want=$(etcd "$T/etcd-fio.json")
	[ "$sb" = "$want" ] || fail "etcd line: storbench $sb, fio $want"
fi
# the text says it: fio's sync block
expect_exit 0 "$SB" fio --rw=write --ioengine=sync --fdatasync=4 --directory="$T/etcd" \
	--size=64k --bs=4k --name=etcd4
grep -q '^  fsync/fdatasync/sync_file_range:$' "$T/out" || { cat "$T/out"; fail "no sync block"; }
expect_exit 0 "$SB" fio --rw=write --fdatasync=4 --directory="$T/etcd" --size=64k --bs=4k \
	--name=etcd4 --output-format=json --output="$T/etcd4.json"
[ "$(json "$T/etcd4.json" "d['jobs'][0]['sync']['lat_ns']['N']")" = 4 ] ||
	fail "fdatasync=4 over 16 writes: not 4 fdatasyncs"
[ -z "$(ls "$T/etcd")" ] || fail "files left in the directory: $(ls "$T/etcd")"
ok "the etcd disk check runs as fio runs it ($sb)"

# posixaio runs as io_uring, said once; the job options keep fio's name
if "$SB" --version | grep -q '^engines:.* io_uring'; then
	expect_exit 0 "$SB" fio --name=arch --ioengine=posixaio --rw=randwrite --bs=4k --size=4m \
		--iodepth=4 --filename="$T/arch.bin" --output-format=json --output="$T/arch.json"
	grep -q "ioengine=posixaio runs as io_uring" "$T/err" || fail "posixaio: no note: $(cat "$T/err")"
	[ "$(json "$T/arch.json" "d['jobs'][0]['write']['io_bytes']")" = 4194304 ] ||
		fail "posixaio: not 4 MiB written"
	[ "$(json "$T/arch.json" "d['jobs'][0]['job options']['ioengine']")" = posixaio ] ||
		fail "posixaio: fio's name not kept in the job options"
	ok "ioengine=posixaio runs as io_uring"
fi

# rate_iops=200: 100 requests take at least 99/200 s, so never more than
# 200 per second over the job (a cap cannot be beaten, however slow the host)
expect_exit 0 "$SB" fio --name=cap --rw=randread --bs=4k --size=400k --rate_iops=200 \
	--filename="$T/cap.bin" --output-format=json --output="$T/cap.json"
iops=$(json "$T/cap.json" "round(d['jobs'][0]['read']['total_ios'] * 1000 / max(d['jobs'][0]['job_runtime'], 1))")
[ "$(json "$T/cap.json" "d['jobs'][0]['read']['total_ios']")" = 100 ] || fail "rate_iops: not 100 requests"
[ "$iops" -le 204 ] || fail "rate_iops=200: $iops requests per second"
[ "$(json "$T/cap.json" "d['jobs'][0]['job options']['rate_iops']")" = 200 ] || fail "rate_iops not recorded"
printf '[w]\nrw=randrw\nbs=4k\nsize=400k\nrate_iops=,100\nfilename=%s\n' "$T/cap2.bin" >"$T/cap2.fio"
expect_exit 0 "$SB" run --quiet --output="$T/cap2.json" "$T/cap2.fio"
w=$(json "$T/cap2.json" "round(d['jobs'][0]['write']['total_ios'] * 1000 / max(d['jobs'][0]['job_runtime'], 1))")
[ "$w" -le 103 ] || fail "rate_iops=,100: $w writes per second"
printf '[w]\nrw=randtrim\nrate_iops=1,1,1\nsize=1m\n' >"$T/cap3.fio"
expect_exit 2 "$SB" run "$T/cap3.fio" "$T/cap3.bin"
grep -q "line 3: rate_iops: '1,1,1': a cap on trims is not supported" "$T/err" ||
	fail "rate_iops with a trim cap: $(cat "$T/err")"
ok "rate_iops caps requests per second ($iops, writes alone $w)"

# gtod_reduce=1: fio's text has the IOPS and BW line (and the bw and iops
# lines of a run long enough for samples) and no latency line; the JSON
# keeps no latency
gtod() {
	grep -c '^    clat\|^     lat (\|^    slat\|^  lat (\|percentiles\|fsync' "$1"
}
expect_exit 0 "$SB" fio --name=g --rw=randread --bs=4k --size=4m --runtime=1100ms --time_based \
	--filename="$T/g.bin" --gtod_reduce=1
cp "$T/out" "$T/g.txt"
grep -q '^  read: IOPS=' "$T/g.txt" || { cat "$T/g.txt"; fail "gtod_reduce: no IOPS line"; }
[ "$(gtod "$T/g.txt")" = 0 ] || { cat "$T/g.txt"; fail "gtod_reduce=1: latency lines printed"; }
if [ -n "$have_fio" ]; then
	fio --name=g --rw=randread --bs=4k --size=4m --runtime=1100ms --time_based \
		--filename="$T/g-fio.bin" --gtod_reduce=1 >"$T/g-fio.txt" 2>&1 || fail "fio: gtod_reduce"
	[ "$(gtod "$T/g-fio.txt")" = 0 ] || fail "fio prints latency lines with gtod_reduce=1 (the test's premise)"
fi
expect_exit 0 "$SB" fio --name=g --rw=randread --bs=4k --size=1m --filename="$T/g.bin" \
	--gtod_reduce=1 --output-format=json --output="$T/g.json"
[ "$(json "$T/g.json" "[d['jobs'][0]['read'][k]['N'] for k in ('slat_ns', 'clat_ns', 'lat_ns')]")" = "[0, 0, 0]" ] ||
	fail "gtod_reduce=1: latency kept in the JSON"
expect_exit 0 "$SB" fio --name=g --rw=randread --bs=4k --size=1m --filename="$T/g.bin"
[ "$(gtod "$T/out")" -gt 0 ] || fail "without gtod_reduce: no latency lines"
ok "gtod_reduce=1 prints bw and iops, no latency, as fio"

# fio job-file options that fio's examples and t/jobs use, run as fio
# defines them: bsrange= draws the multiples of LOW up to HIGH and moves
# size bytes (t/jobs/t0001: 19456 bytes of size=20000 in 1k..4k requests),
# bs= after it is one size again and bssplit= chooses over it
# (t/jobs/t0002); wait_for= naming the job before is a stonewall
# (examples/waitfor.fio); threads= (the tiobench profile's) and
# io_submit_mode=offload change nothing moved (examples/fixed-rate-
# submission.fio); experimental_verify= verifies as verify= does
# (t/jobs/t0025). What cannot be done so is refused, naming the line.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

run_fio() { # NAME: runs $T/NAME.fio, JSON into $T/NAME.json
	expect_exit 0 "$SB" fio --quiet --output-format=json --output="$T/$1.json" "$T/$1.fio"
}
bytes() { # NAME JOB DIR
	json "$T/$1.json" "d['jobs'][$2]['$3']['io_bytes']"
}
ios() {
	json "$T/$1.json" "d['jobs'][$2]['$3']['total_ios']"
}

# ---- bsrange ----
printf '[foo]\nsize=20000\nbsrange=1k-4k\nrw=randread\nioengine=null\n' >"$T/t0001.fio"
run_fio t0001
[ "$(bytes t0001 0 read)" = 19456 ] || fail "bsrange=1k-4k size=20000: $(bytes t0001 0 read) bytes, fio 19456"
ok "t0001: bsrange=1k-4k on size=20000 moves 19456 bytes, as fio"

printf '[r]\nsize=4m\nbsrange=1k-4k\nrw=randread\nioengine=null\nrandseed=7\n' >"$T/br.fio"
run_fio br
b=$(bytes br 0 read) n=$(ios br 0 read)
[ "$b" = $((4 << 20)) ] || fail "bsrange=1k-4k size=4m moved $b bytes"
# a mix of the sizes (fio's mean is below 2.5k too: where the random
# map has only small holes left, the small sizes fit)
python3 -c "import sys; m = int(sys.argv[1]) / int(sys.argv[2]); sys.exit(0 if 1024 < m < 4096 else 1)" \
	"$b" "$n" || fail "bsrange=1k-4k: mean request $b/$n is not a mix"
ok "bsrange=1k-4k: 4 MiB in $n requests (mean $((b / n)) bytes)"

# LOW-LOW is bs=LOW; bs= after bsrange= is one size again
printf '[a]\nsize=1m\nbsrange=4k-4k\nrw=read\nioengine=null\n[b]\nsize=1m\nbsrange=1k-4k\nbs=8k\nrw=read\nioengine=null\n' >"$T/bs1.fio"
run_fio bs1
[ "$(ios bs1 0 read)" = 256 ] || fail "bsrange=4k-4k: $(ios bs1 0 read) requests for 1 MiB, not 256"
[ "$(ios bs1 1 read)" = 128 ] || fail "bs=8k after bsrange: $(ios bs1 1 read) requests for 1 MiB, not 128"
ok "bsrange=4k-4k is bs=4k; bs=8k after bsrange=1k-4k is 8k requests"

# bssplit= chooses the sizes even with bsrange= after it (t/jobs/t0002)
printf '[global]\nbssplit=4k/50:64k/50\nioengine=null\nrw=read\nsize=16m\n[j]\nbsrange=512:1M\n' >"$T/bss.fio"
run_fio bss
python3 -c "import sys; m = int(sys.argv[1]) / int(sys.argv[2]); sys.exit(0 if 4096 < m < 65536 else 1)" \
	"$(bytes bss 0 read)" "$(ios bss 0 read)" || fail "bssplit with bsrange: not bssplit's sizes"
ok "bssplit= with bsrange=512:1M after it: bssplit's sizes, as fio"

# a range of more sizes than storbench draws from is refused, naming it
printf '[j]\nioengine=null\nsize=1m\nbsrange=512-1M\n' >"$T/wide.fio"
expect_exit 2 "$SB" fio --quiet "$T/wide.fio"
grep -q "line 4: bsrange=512-1M: 2048 block sizes" "$T/err" || fail "wide bsrange: $(cat "$T/err")"
printf '[j]\nioengine=null\nsize=1m\nbsrange=4k-6k\n' >"$T/odd.fio"
expect_exit 2 "$SB" fio --quiet "$T/odd.fio"
grep -q "line 4: bsrange: '4k-6k' is not valid" "$T/err" || fail "4k-6k: $(cat "$T/err")"
ok "bsrange=512-1M (2048 sizes) and 4k-6k (not a multiple) are refused, naming the line"

# ---- wait_for, threads, io_submit_mode ----
cat >"$T/wf.fio" <<EOF
[global]
threads=1
ioengine=null
size=2m
group_reporting
[writers]
rw=write
numjobs=2
[readers]
new_group
wait_for=writers
rw=randread
io_submit_mode=offload
[writers2]
new_group
wait_for=readers
rw=randwrite
EOF
run_fio wf
[ "$(json "$T/wf.json" "len(d['jobs'])")" = 3 ] || fail "waitfor: $(json "$T/wf.json" "len(d['jobs'])") job entries"
expect_exit 0 "$SB" fio --quiet "$T/wf.fio"
[ "$(grep -o 'groupid=[0-9]' "$T/out" | tr '\n' ' ')" = "groupid=0 groupid=1 groupid=2 " ] ||
	fail "waitfor: groups $(grep -o 'groupid=[0-9]' "$T/out")"
[ "$(bytes wf 1 read)" = $((2 << 20)) ] || fail "readers (io_submit_mode=offload): $(bytes wf 1 read) bytes"
[ "$(bytes wf 2 write)" = $((2 << 20)) ] || fail "writers2: $(bytes wf 2 write) bytes"
ok "wait_for= the job before: three groups one after another, size bytes each"

# wait_for without new_group: fio's groupid does not change (the job
# still starts after the one it waits for): one group, as fio reports it
printf '[a]\nioengine=null\nsize=1m\n[b]\nioengine=null\nsize=1m\nrw=write\nwait_for=a\n' >"$T/wfg.fio"
expect_exit 0 "$SB" fio --quiet --output-format=json --output="$T/wfg.json" "$T/wfg.fio"
[ "$(json "$T/wfg.json" "[e['groupid'] for e in d['jobs']]")" = "[0, 0]" ] ||
	fail "wait_for alone: groupids $(json "$T/wfg.json" "[e['groupid'] for e in d['jobs']]")"
expect_exit 0 "$SB" fio --quiet "$T/wfg.fio"
[ "$(grep -c '^Run status group' "$T/out")" = 1 ] || fail "wait_for alone: not one run status group"
if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio --output-format=json --output="$T/wfg-fio.json" "$T/wfg.fio" >/dev/null 2>&1) ||
		fail "fio could not run wfg.fio"
	[ "$(json "$T/wfg-fio.json" "[e['groupid'] for e in d['jobs']]")" = "[0, 0]" ] ||
		fail "fio's groupids: $(json "$T/wfg-fio.json" "[e['groupid'] for e in d['jobs']]")"
fi
ok "wait_for without new_group: one reporting group, as fio's"

# a job after one that waits would start at once in fio: refused
printf '[a]\nioengine=null\nsize=1m\n[b]\nioengine=null\nsize=1m\nwait_for=a\n[c]\nioengine=null\nsize=1m\n' >"$T/wf2.fio"
expect_exit 2 "$SB" fio --quiet "$T/wf2.fio"
grep -q "line 8: \[c\]: fio starts it at once" "$T/err" || fail "wf2: $(cat "$T/err")"
# waiting for a job that is not the one before
printf '[a]\nioengine=null\nsize=1m\n[b]\nioengine=null\nsize=1m\n[c]\nioengine=null\nsize=1m\nwait_for=a\n' >"$T/wf3.fio"
expect_exit 2 "$SB" fio --quiet "$T/wf3.fio"
grep -q "line 10: wait_for=a: storbench waits only for the job just before (\[b\])" "$T/err" ||
	fail "wf3: $(cat "$T/err")"
# the job before started with others: waiting for it alone is not a stonewall
printf '[a]\nioengine=null\nsize=1m\n[b]\nioengine=null\nsize=1m\n[c]\nioengine=null\nsize=1m\nwait_for=b\n' >"$T/wf4.fio"
expect_exit 2 "$SB" fio --quiet "$T/wf4.fio"
grep -q "line 10: wait_for=b: \[b\] starts with the jobs before it" "$T/err" || fail "wf4: $(cat "$T/err")"
ok "wait_for= that a stonewall cannot say is refused, naming the line"

# ---- experimental_verify ----
printf '[v]\nrw=randwrite\nsize=256k\nbs=4k\nverify=crc32c\nexperimental_verify=1\nfilename=%s\n' \
	"$T/v.bin" >"$T/ev.fio"
run_fio ev
[ "$(bytes ev 0 write)" = 262144 ] || fail "experimental_verify: $(bytes ev 0 write) bytes written"
grep -q "experimental_verify" "$T/err" || fail "experimental_verify: no note"
ok "experimental_verify=1: the job is verified as verify= does (note said)"

# ---- filesize on one file: size= capped at it, or taken from it ----
# (t/jobs/t0019..t0022 give filesize= alone; size=16M filesize=1M moves
# 1 MiB in fio)
printf '[j]\nrw=write\nsize=16M\nfilesize=1M\n[t]\nioengine=null\nfilesize=1M\n[s]\nrw=write\nsize=512k\nfilesize=1M\n' >"$T/fs.fio"
(cd "$T" && "$SB" fio --quiet --output-format=json --output="$T/fs.json" "$T/fs.fio") >"$T/out" 2>"$T/err" ||
	fail "filesize: $(cat "$T/err")"
[ "$(bytes fs 0 write)" = 1048576 ] || fail "size=16M filesize=1M: $(bytes fs 0 write) bytes, fio 1048576"
[ "$(bytes fs 1 read)" = 1048576 ] || fail "filesize=1M alone: $(bytes fs 1 read) bytes, fio 1048576"
[ "$(bytes fs 2 write)" = 524288 ] || fail "size=512k filesize=1M: $(bytes fs 2 write) bytes, fio 524288"
ok "filesize=1M on one file: size=16M moves 1 MiB, no size= 1 MiB, size=512k 512 KiB (fio's)"

# ---- rw modifiers: rw=read:-8k reads backwards, rw=write:12k leaves holes ----
# (examples/backwards-read.fio; fio 3.33's offsets, from its iops log:
# 0 14 13 ... 1 0 in 4k blocks of 64k)
printf '[b]\nbs=4k\nrw=read:-8k\nfilename=%s\nsize=64k\nwrite_iops_log=%s\nlog_offset=1\n' \
	"$T/back.bin" "$T/x" >"$T/back.fio"
run_fio back
[ "$(bytes back 0 read)" = 65536 ] || fail "rw=read:-8k: $(bytes back 0 read) bytes"
offs=$(awk -F, '{ printf "%d ", $5 / 4096 }' "$T/x_iops.1.log")
[ "$offs" = "0 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0 " ] || fail "rw=read:-8k offsets: $offs"
ok "rw=read:-8k: 64 KiB read backwards, fio's offsets ($offs)"

printf '[h]\nbs=4k\nrw=write:12k\nfilename=%s\nsize=1m\n' "$T/h.bin" >"$T/holes.fio"
expect_exit 0 "$SB" fio --quiet --keep --output-format=json --output="$T/holes.json" "$T/holes.fio"
[ "$(bytes holes 0 write)" = 1048576 ] || fail "rw=write:12k: $(bytes holes 0 write) bytes"
# fio writes blocks 0, 4, 8, ... and again from the start: 64 of 256 blocks
python3 - "$T/h.bin" <<'PY' || fail "rw=write:12k did not write every 4th block only"
import sys
d = open(sys.argv[1], "rb").read()
z = bytes(4096)
written = [i // 4096 for i in range(0, len(d), 4096) if d[i:i + 4096] != z]
sys.exit(0 if written == list(range(0, 256, 4)) else 1)
PY
ok "rw=write:12k: 1 MiB in 4k writes 12k apart, every 4th block (fio's)"

# a request past the file's end ends it (t/jobs/t0007: 85 of 128 MiB):
# reads at 0, 1.5m, ... 6m, then 7.5m + 1m does not fit in 8m; fio 3.33
# reads 5 MiB, not 8 from the start again
printf '[t7]\nsize=8m\nrw=read:512k\nbs=1m\nfilename=%s\n' "$T/t7.bin" >"$T/t7.fio"
run_fio t7
[ "$(bytes t7 0 read)" = 5242880 ] || fail "rw=read:512k bs=1m size=8m: $(bytes t7 0 read) bytes, fio 5242880"
ok "rw=read:512k: a request past the end ends the job (5 MiB of 8, as fio)"

printf '[r]\nrw=randread:8\nioengine=null\nsize=1m\n' >"$T/rn.fio"
expect_exit 2 "$SB" fio --quiet "$T/rn.fio"
grep -q "line 2: rw=randread:8: a new random offset every N requests is not supported" "$T/err" ||
	fail "randread:8: $(cat "$T/err")"
ok "rw=randread:8 is refused, naming the line"

# ---- zonemode=strided: zonesize of every zonesize + zoneskip ----
# (examples/disk-zone-profile.fio; fio 3.33's offsets: MiB 0-3, 16-19,
# 32-35, 48-51, then from the start again until size= bytes are read)
printf '[z]\nbs=64k\nrw=read\nzonemode=strided\nzonesize=4m\nzoneskip=12m\nfilename=%s\nsize=64m\nwrite_iops_log=%s\nlog_offset=1\n' \
	"$T/z.bin" "$T/zl" >"$T/zone.fio"
run_fio zone
[ "$(bytes zone 0 read)" = $((64 << 20)) ] || fail "strided: $(bytes zone 0 read) bytes"
mibs=$(awk -F, '{ print int($5 / 1048576) }' "$T/zl_iops.1.log" | uniq | tr '\n' ' ')
one="0 1 2 3 16 17 18 19 32 33 34 35 48 49 50 51 "
[ "$mibs" = "$one$one$one$one" ] || fail "strided: MiB read in order: $mibs"
ok "zonemode=strided zonesize=4m zoneskip=12m: 64 MiB over MiB $one(4 times, as fio)"

printf '[z]\nrw=randread\nioengine=null\nsize=64m\nzonemode=strided\nzonesize=4m\nzoneskip=12m\n' >"$T/zr.fio"
expect_exit 2 "$SB" fio --quiet "$T/zr.fio"
grep -q "line 5: zonemode=strided: random I/O in zones is not supported (\[z\])" "$T/err" ||
	fail "random strided: $(cat "$T/err")"
printf '[z]\nrw=write\nioengine=null\nsize=64m\nzonemode=zbd\n' >"$T/zbd.fio"
expect_exit 2 "$SB" fio --quiet "$T/zbd.fio"
grep -q "line 5: zonemode=zbd: zonesize= is required" "$T/err" || fail "zbd: $(cat "$T/err")"
ok "zonemode=strided with random I/O, and zonemode=zbd without zonesize, are refused naming the line"

# ---- serialize_overlap, unlink, create_on_open; the reasons of refusals ----
# (t/jobs/t0013: serialize_overlap=1 with iodepth=1 and numjobs=8)
printf '[test]\nioengine=null\nthread=1\nsize=4K\nblocksize=4K\nio_submit_mode=offload\niodepth=1\nserialize_overlap=1\nnumjobs=8\nloops=100\nunlink=1\ncreate_on_open=1\n' >"$T/ser.fio"
run_fio ser
[ "$(json "$T/ser.json" "sum(j['read']['io_bytes'] for j in d['jobs'])")" = $((8 * 4096 * 100)) ] ||
	fail "t0013-like: $(json "$T/ser.json" "sum(j['read']['io_bytes'] for j in d['jobs'])") bytes"
ok "serialize_overlap=1 (iodepth=1), unlink=1, create_on_open=1: 8 x 100 loops of 4k, as fio"
printf '[s]\nioengine=libaio\nsize=1m\niodepth=4\nserialize_overlap=1\n' >"$T/ser4.fio"
expect_exit 2 "$SB" fio --quiet "$T/ser4.fio"
grep -q "line 5: serialize_overlap=1: with iodepth=4 storbench does not keep overlapping" "$T/err" ||
	fail "serialize_overlap iodepth=4: $(cat "$T/err")"
printf '[f]\nioengine=null\nsize=1m\nflow_watermark=1\n' >"$T/flow.fio"
expect_exit 2 "$SB" fio --quiet "$T/flow.fio"
grep -q "line 4: flow_watermark: fio option not supported by storbench: fio 3.33 has no" "$T/err" ||
	fail "flow_watermark: $(cat "$T/err")"
printf '[f]\nioengine=null\nsize=1m\nss_interval=1s\n' >"$T/ss.fio"
expect_exit 2 "$SB" fio --quiet "$T/ss.fio"
grep -q "line 4: ss_interval: fio option not supported by storbench: fio 3.33 has no steadystate_check_interval" "$T/err" ||
	fail "ss_interval: $(cat "$T/err")"
ok "serialize_overlap with iodepth=4, flow_watermark and ss_interval are refused with the reason"

# ---- thinktime: a stall after every thinktime_blocks requests ----
# size-bound: the bytes are size=; time-bound: a stall of 100 ms after
# each request leaves at most 11 requests in 1 s (fio: 10), however
# loaded the machine (a stall is never shorter)
printf '[t]\nioengine=null\nsize=80k\nbs=4k\nthinktime=2ms\nthinktime_blocks=10\n' >"$T/think.fio"
run_fio think
[ "$(bytes think 0 read)" = 81920 ] || fail "thinktime: $(bytes think 0 read) bytes"
printf '[t]\nioengine=null\nsize=1g\nbs=4k\nthinktime=100ms\ntime_based\nruntime=1s\n' >"$T/think2.fio"
run_fio think2
n=$(ios think2 0 read)
[ "$n" -ge 1 ] && [ "$n" -le 11 ] || fail "thinktime=100ms over 1 s: $n requests"
ok "thinktime: size= bytes with stalls; 100 ms after each request: $n requests in 1 s (fio 10)"

#!/bin/sh
# storbench fio: fio's command line runs, means what the same options mean
# in a job file, prints fio's normal layout (the lines scripts grep, in
# fio's order, with figures the same sed/awk read), and refuses bad input
# naming the option, before anything is created.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

# The seed's line, shortened, on a scratch file; time_based so that both
# fio and storbench take interval samples (the bw and iops lines).
expect_exit 0 "$SB" fio -filename="$T/seed.bin" -direct=1 -iodepth 1 -thread -rw=read \
	-ioengine=psync -bs=16k -numjobs=30 -runtime=2 -time_based -group_reporting \
	-name="IORTest" -size=4m --quiet
cp "$T/out" "$T/seed.txt"
grep -q '^IORTest: (groupid=0, jobs=30): err= 0: pid=[0-9]*: ' "$T/seed.txt" ||
	{ cat "$T/seed.txt"; fail "no fio job header line"; }
grep -q '^  read: IOPS=[0-9.]*k\?, BW=[0-9.]*[KMG]iB/s ([0-9.]*[kMG]B/s)([0-9.]*[KMG]iB/[0-9]*msec)$' \
	"$T/seed.txt" || { cat "$T/seed.txt"; fail "no fio read line"; }
grep -q '^    clat percentiles (\(n\|u\|m\)sec):$' "$T/seed.txt" || fail "no clat percentiles"
grep -q '^   READ: bw=.*, io=.*, run=[0-9]*-[0-9]*msec$' "$T/seed.txt" || fail "no READ line"
[ ! -e "$T/seed.bin" ] || fail "the scratch file storbench created was left behind"
ok "the seed's fio line runs and prints fio's lines"

# Size-bound: each of numjobs reads size, as in fio: io= is exact.
expect_exit 0 "$SB" fio --name=sz --filename="$T/sz.bin" --size=8m --bs=64k --numjobs=2 --quiet
grep -q '^   READ: .*, io=16.0MiB (16.8MB), ' "$T/out" || { cat "$T/out"; fail "io= of 2 x 8 MiB"; }
ok "io= is numjobs x size"

# A script's sed/awk reads the same figures from both: IOPS, BW, the
# percentile rows, the group's bw and io. Then BW = IOPS x bs (1%).
figures() {
	iops=$(sed -n 's/^  read: IOPS=\([0-9.]*k\?\),.*/\1/p' "$1")
	bw=$(sed -n 's/^  read: IOPS=[^,]*, BW=\([0-9.]*\)\([KMG]\)iB\/s.*/\1 \2/p' "$1")
	p50=$(awk -F'[][]' '/50.00th=/{for(i=1;i<=NF;i++) if($i ~ /50.00th=$/) print $(i+1)+0}' "$1")
	grp=$(awk '/^   READ:/{sub(/bw=/,"",$2); sub(/,$/,"",$2); print $2}' "$1")
	[ -n "$iops" ] && [ -n "$bw" ] && [ -n "$p50" ] && [ -n "$grp" ] ||
		{ cat "$1"; fail "$2: a script's sed/awk found no figure (iops '$iops' bw '$bw' p50 '$p50' group '$grp')"; }
	python3 - "$iops" "$bw" 16384 "$2" <<'PY' || fail "$2: BW is not IOPS x bs"
import sys
iops, bw, bs, who = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), sys.argv[4]
i = float(iops.rstrip('k')) * (1000 if iops.endswith('k') else 1)
b = float(bw[0]) * {'K': 1024, 'M': 1024**2, 'G': 1024**3}[bw[1]]
# IOPS has 3-4 significant figures: 1% covers its rounding
sys.exit(0 if abs(i * bs - b) <= 0.01 * b else 1)
PY
}
figures "$T/seed.txt" storbench

# The layout line by line against real fio's on the same command: the
# prefixes of the lines storbench prints, in the same order (Disk stats
# aside: whether fio finds the disk beneath a file depends on the machine;
# the zram case below checks that section).
shape() {
	python3 - "$1" <<'PY'
import re, sys
keep = re.compile(r'^(\S.*: \(groupid=|  (read|write): IOPS=|    (slat|clat| lat) \(|'
                  r'    clat percentiles|     \||   bw \(|   iops  |  lat \(|Run status group|'
                  r'   (READ|WRITE): )')
out = []
for line in open(sys.argv[1]):
    if not keep.match(line):
        continue
    k = re.sub(r'\((nsec|usec|msec)\)', '(UNIT)', line.split('=')[0])
    k = re.sub(r'\(\s*(KiB|MiB)/s\)', '(UNIT/s)', k)
    k = re.sub(r'^\S.*: \(groupid', 'JOB: (groupid', k)
    k = re.sub(r'^  lat \(UNIT\)   : .*', '  lat (UNIT)', k)
    if not out or out[-1] != k:
        out.append(k)
print('\n'.join(out))
PY
}
if command -v fio >/dev/null 2>&1; then
	fio -filename="$T/fio.bin" -direct=1 -iodepth 1 -thread -rw=read -ioengine=psync -bs=16k \
		-numjobs=30 -runtime=2 -time_based -group_reporting -name="IORTest" -size=4m \
		>"$T/fio.txt" 2>&1 ||
		{ cat "$T/fio.txt"; fail "real fio failed"; }
	figures "$T/fio.txt" fio
	shape "$T/fio.txt" >"$T/fio.shape"
	shape "$T/seed.txt" >"$T/sb.shape"
	diff "$T/fio.shape" "$T/sb.shape" >"$T/shape.diff" ||
		{ cat "$T/shape.diff"; fail "storbench's line layout differs from fio's"; }
	grep -E 'IOPS=|READ:|WRITE:|clat percentiles' "$T/fio.txt" | sed 's/[=:].*//' >"$T/fio.grep"
	grep -E 'IOPS=|READ:|WRITE:|clat percentiles' "$T/seed.txt" | sed 's/[=:].*//' >"$T/sb.grep"
	cmp -s "$T/fio.grep" "$T/sb.grep" || { diff "$T/fio.grep" "$T/sb.grep"; fail "grep'd lines differ"; }
	ok "fio's and storbench's outputs have the same lines in the same order ($(wc -l <"$T/sb.shape") kinds)"
else
	ok "fio is not installed: layout not compared with real fio"
fi

# The command line and the job file it amounts to: the same job.
cat >"$T/eq.fio" <<EOF
[global]
filename=$T/eq.bin
size=4m
bs=8k
ioengine=psync
[eq]
rw=randread
iodepth=1
numjobs=2
EOF
expect_exit 0 "$SB" fio -filename "$T/eq.bin" --size=4m -bs 8k -ioengine=psync --name=eq \
	-rw=randread --iodepth=1 -numjobs 2 --output-format=json --output="$T/cl.json" --quiet
expect_exit 0 "$SB" run "$T/eq.fio" --format=json --output="$T/jf.json" --quiet
python3 - "$T/cl.json" "$T/jf.json" <<'PY' || fail "command line and job file differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ja, jb = a['jobs'][0]['storbench']['options'], b['jobs'][0]['storbench']['options']
for j in (ja, jb):
    j.pop('randseed', None)
if ja != jb:
    print(ja, jb)
    sys.exit(1)
assert ja['rw'] == 'randread' and ja['bs'] == '8192' and ja['numjobs'] == '2', ja
# fio's JSON has an entry per thread of numjobs (no group_reporting), run's one job
assert len(a['jobs']) == 2 and len(b['jobs']) == 1, (len(a['jobs']), len(b['jobs']))
assert sum(j['read']['io_bytes'] for j in a['jobs']) == b['jobs'][0]['read']['io_bytes'] == 2 * 4 * 2**20
PY
ok "the command line and its job file give the same job"

# A job file given on the command line, its [global] after the line's.
printf '[jf]\nrw=read\n' >"$T/mixed.fio"
expect_exit 0 "$SB" fio -filename="$T/mixed.bin" -size=2m -bs=32k "$T/mixed.fio" \
	--output-format=json --quiet
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); o=d['jobs'][0]['storbench']['options']; \
sys.exit(0 if o['bs']=='32768' and d['jobs'][0]['jobname']=='jf' else 1)" "$T/out" ||
	fail "command-line [global] options did not reach the job file's job"
ok "a job file mixed in takes the command line's global options"

# Bad input: exit 2, the option as written, nothing created.
bad() {
	msgre=$1
	shift
	expect_exit 2 "$SB" fio --name=bad --filename="$T/new.bin" --size=1m --output="$T/o.txt" "$@"
	grep -q -- "$msgre" "$T/err" || { cat "$T/err"; fail "'$*': message does not say '$msgre'"; }
	[ ! -e "$T/new.bin" ] && [ ! -e "$T/o.txt" ] || fail "'$*' created a file"
}
bad '^storbench: -foo: unknown fio option$' -foo=1
bad '^storbench: --bogus: unknown fio option$' --bogus
bad '^storbench: -bs: needs a value' -bs
bad "^storbench: -bs: '4q' is not valid" -bs 4q
bad "^storbench: --rw: 'sideways' is not valid" --rw=sideways
bad '^storbench: -zonemode: zonemode=zbd: zonesize= is required' -zonemode=zbd
bad "^storbench: -ss_interval: fio option not supported by storbench: fio 3.33 has no" -ss_interval=1s
bad '^storbench: --section: fio option not supported by storbench' --section=x
bad "^storbench: --output-format: 'yaml' is not valid" --output-format=yaml
bad "^storbench: cannot read job file '$T/none.fio'" "$T/none.fio"
# storbench's own checks name the option as fio's line has it (issue 26, item 18)
bad "^storbench: --name=bad: -bs: block size 2.00 MiB is larger than -size 1.00 MiB" -size=1m -bs=2m
bad "^storbench: --name=bad: -bs: block size 2.00 MiB is larger than --size 1.00 MiB" --bs=4k -bs=2m
bad "^storbench: --name=bad: --bs: block size 2.00 MiB is larger than --size 1.00 MiB" --bs=2m
bad "^storbench: --name=bad: --iodepth_batch_complete: 4 is more than --iodepth=2" \
	--iodepth=2 --iodepth_batch_complete=4
bad "^storbench: -é: unknown fio option" -é
ok "bad input exits 2 naming the option, creating nothing"

# Safety as storbench run: an existing file storbench did not create is
# written only with --destroy-data (given in fio's style, one dash).
dd if=/dev/zero of="$T/mine.bin" bs=1M count=2 2>/dev/null
expect_exit 2 "$SB" fio --name=w --filename="$T/mine.bin" --rw=write --size=2m --quiet
grep -q -- '--destroy-data' "$T/err" || { cat "$T/err"; fail "no word of --destroy-data"; }
expect_exit 0 "$SB" fio --name=w --filename="$T/mine.bin" --rw=write --size=2m --quiet \
	-destroy-data
grep -q '^  write: IOPS=' "$T/out" || fail "no write line"
grep -q '^  WRITE: bw=' "$T/out" || fail "no WRITE line"
ok "writes to a file storbench did not create need --destroy-data"

# directory= names a directory: a missing one (or a file) is refused, on
# the command line and in a job file, never made a file of that name
# (issue 26, item 14: fio --directory=/nonexistent made, wrote and removed
# a file /nonexistent, exit 0).
printf '[d]\ndirectory=%s\nsize=1M\nrw=write\n' "$T/nodir" >"$T/dir.fio"
for cmd in "fio --directory=$T/nodir --name=x --size=1M --rw=write" "fio $T/dir.fio" "run $T/dir.fio"; do
	expect_exit 3 "$SB" $cmd # missing: the target cannot be used (the exit status table)
	grep -q "job '.*': directory=$T/nodir: No such file or directory (directory= names an existing directory" "$T/err" ||
		{ cat "$T/err"; fail "$cmd: message"; }
	[ -e "$T/nodir" ] && fail "$cmd: made $T/nodir"
done
expect_exit 2 "$SB" fio --directory="$T/mine.bin" --name=x --size=1M --rw=write
grep -q "directory=$T/mine.bin: Not a directory" "$T/err" || { cat "$T/err"; fail "a file as directory="; }
mkdir "$T/dir"
expect_exit 0 "$SB" fio --directory="$T/dir" --name=x --size=1M --rw=write --quiet
[ -z "$(ls -A "$T/dir")" ] || fail "directory=: the test file stayed"
ok "directory=: a missing directory or a file is refused; an existing one is used"

# --parse-only runs nothing; --readonly refuses writes.
expect_exit 0 "$SB" fio --name=p --filename="$T/p.bin" --size=1m --parse-only
[ ! -e "$T/p.bin" ] && [ ! -s "$T/out" ] || fail "--parse-only ran the job"
expect_exit 2 "$SB" fio --readonly --name=p --filename="$T/p.bin" --size=1m --rw=randwrite
grep -q "^storbench: --readonly: job 'p' (--name=p) writes" "$T/err" || fail "--readonly"
ok "--parse-only and --readonly"

# A block device of its own: fio's "Disk stats" section.
if [ "$(id -u)" = 0 ] && [ -w /sys/class/zram-control/hot_add ]; then
	Z=$(make_zram 64M) || skip "no zram: $Z"
	expect_exit 0 "$SB" fio --name=z --filename="$Z" --rw=read --bs=64k --size=16m --direct=1 \
		--quiet
	grep -q '^Disk stats (read/write):$' "$T/out" || { cat "$T/out"; fail "no Disk stats"; }
	grep -q "^  ${Z#/dev/}: ios=[0-9]*/[0-9]*, merge=.*, util=[0-9.]*%$" "$T/out" ||
		{ cat "$T/out"; fail "no disk line for $Z"; }
	ok "Disk stats on a block device"
fi

# --output-format=json+: fio's latency bins, which fio's own json+ reader takes
expect_exit 0 "$SB" fio -filename="$T/jp.bin" -rw=read -bs=4k -size=4m -name=jp \
	--output-format=json+ --output="$T/jp.json" --quiet
python3 - "$T/jp.json" <<'PY' || fail "json+: no clat_ns.bins"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]["read"]
bins = j["clat_ns"]["bins"]
assert bins and sum(bins.values()) == j["total_ios"], (len(bins), j["total_ios"])
PY
if command -v fio_jsonplus_clat2csv >/dev/null && python3 -c "import six" 2>/dev/null; then
	(cd "$T" && fio_jsonplus_clat2csv jp.json jp.csv >/dev/null 2>&1) || fail "fio_jsonplus_clat2csv"
	[ "$(wc -l <"$T/jp_job0.csv")" -gt 2 ] || fail "fio_jsonplus_clat2csv wrote no rows"
fi
ok "json+: clat_ns.bins as fio's, read by fio_jsonplus_clat2csv"

# verify=: the job is checked after it wrote, the verdict on stderr (stdout
# keeps fio's layout)
expect_exit 0 "$SB" fio -filename="$T/v.bin" -rw=write -bs=4k -size=4m -verify=crc32c -name=v \
	--quiet
grep -q "^verify: 1024 blocks of 4096 B checked, 0 not intact" "$T/err" ||
	{ cat "$T/err"; fail "verify=: no verdict"; }
grep -q "^verify:" "$T/out" && fail "verify=: the verdict went to stdout"
ok "verify=: checked, the verdict on stderr"

# fio job files: jobs run with fio's defaults, one after another or together
# (without stonewall), command-line options override them, the target comes
# from the command line or the file, bad files are refused with the line
# named, and size-bound jobs move exactly the bytes fio moves for the file.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
cat >"$T/two.fio" <<'JOB'
; two jobs, the second after the first
[global]
size=8M
bs=4k
group_reporting

[seqwrite]
rw=write
end_fsync=1

[randread]
stonewall
rw=randread
iodepth=1   ; fio's default engine is psync
JOB
expect_exit 0 "$SB" run --quiet --output="$T/two.json" "$T/two.fio" "$T/d"
[ "$(json "$T/two.json" "[j['jobname'] for j in d['jobs']]")" = "['seqwrite', 'randread']" ] ||
	fail "job names: $(json "$T/two.json" "[j['jobname'] for j in d['jobs']]")"
[ "$(json "$T/two.json" "[j['storbench']['options']['rw'] for j in d['jobs']]")" = "['write', 'randread']" ] ||
	fail "rw per job"
[ "$(json "$T/two.json" "d['jobs'][0]['write']['io_bytes']")" = 8388608 ] || fail "seqwrite bytes"
[ "$(json "$T/two.json" "d['jobs'][1]['read']['io_bytes']")" = 8388608 ] || fail "randread bytes"
[ "$(json "$T/two.json" "[j['storbench']['options']['ioengine'] for j in d['jobs']]")" = "['psync', 'psync']" ] ||
	fail "fio's default engine is psync"
[ "$(json "$T/two.json" "[j['storbench']['options']['direct'] for j in d['jobs']]")" = "['0', '0']" ] ||
	fail "fio's default is buffered I/O"
grep -q "note: .*group_reporting" "$T/err" || fail "ignored option not named in a note"
[ -z "$(ls -A "$T/d")" ] || fail "test files left in the directory: $(ls -A "$T/d")"
ok "two jobs one after another, fio's defaults, files removed"

# command-line options override every job's
expect_exit 0 "$SB" run --quiet --bs=64k --direct=1 --output="$T/ov.json" "$T/two.fio" "$T/d"
[ "$(json "$T/ov.json" "[j['storbench']['options']['bs'] for j in d['jobs']]")" = "['65536', '65536']" ] ||
	fail "--bs=64k did not override the job file"
[ "$(json "$T/ov.json" "[j['storbench']['options']['direct'] for j in d['jobs']]")" = "['1', '1']" ] ||
	fail "--direct=1 did not override the job file"
ok "command-line options override the job file"

# the target from the file, through ${VAR}
cat >"$T/fname.fio" <<'JOB'
[w]
filename=${SBTEST_DIR}/f.bin
rw=randwrite
size=4M
JOB
SBTEST_DIR="$T" expect_exit 0 "$SB" run --quiet --output="$T/fn.json" "$T/fname.fio"
[ "$(json "$T/fn.json" "d['jobs'][0]['write']['io_bytes']")" = 4194304 ] || fail "filename= bytes"
json "$T/fn.json" "d['storbench']['target']['path']" | grep -q "/f.bin$" ||
	fail "target not the file's filename= ($(json "$T/fn.json" "d['storbench']['target']['path']"))"
[ -e "$T/f.bin" ] && fail "created file left"
expect_exit 2 env -u SBTEST_DIR "$SB" run --quiet "$T/fname.fio"
grep -q 'SBTEST_DIR' "$T/err" || fail "unset variable not named"
ok "filename= with \${VAR}; an unset variable is refused"

# jobs without stonewall between them run at the same time, each on its own
# files in the directory
printf '[a]\nrw=randread\nsize=8M\n[b]\nrw=write\nsize=4M\nbs=64k\n[c]\nstonewall\nrw=read\nsize=2M\n' \
	>"$T/conc.fio"
expect_exit 0 "$SB" run --quiet --output="$T/conc.json" "$T/conc.fio" "$T/d"
[ "$(json "$T/conc.json" "[j['jobname'] for j in d['jobs']]")" = "['a', 'b', 'c']" ] ||
	fail "concurrent: job names"
[ "$(json "$T/conc.json" "d['jobs'][0]['read']['io_bytes'], d['jobs'][1]['write']['io_bytes'], d['jobs'][2]['read']['io_bytes']")" = "(8388608, 4194304, 2097152)" ] ||
	fail "concurrent: bytes per job"
# a and b started together; c only after both had ended
json "$T/conc.json" "[(j['job_start'], j['job_runtime']) for j in d['jobs']]" >"$T/times"
python3 - "$T/times" <<'PY' || fail "concurrent: start times $(cat "$T/times")"
import ast, sys
(a, ra), (b, rb), (c, rc) = ast.literal_eval(open(sys.argv[1]).read())
sys.exit(0 if a == b and c >= max(a + ra, b + rb) else 1)
PY
[ -z "$(ls -A "$T/d")" ] || fail "concurrent: files left: $(ls -A "$T/d")"
ok "jobs without stonewall run together, each on its own files"

# on one new file the jobs share it: created once at the largest size,
# each job in its own region of it, removed afterwards
expect_exit 0 "$SB" run --quiet --output="$T/one.json" "$T/conc.fio" "$T/one-file.bin"
[ "$(json "$T/one.json" "d['jobs'][0]['read']['io_bytes'], d['jobs'][1]['write']['io_bytes'], d['jobs'][2]['read']['io_bytes']")" = "(8388608, 4194304, 2097152)" ] ||
	fail "concurrent jobs on one file: bytes per job"
[ -e "$T/one-file.bin" ] && fail "the shared test file was left"
ok "jobs running together share one new file"

# on a device, each job in its own region (writes need --destroy-data)
if [ "$(id -u)" = 0 ]; then
	dev=$(make_loop 32)
	printf '[r]\nrw=randread\nsize=8M\n[w]\nrw=write\noffset=16M\nsize=4M\nbs=64k\n' >"$T/dev.fio"
	expect_exit 2 "$SB" run "$T/dev.fio" "$dev"
	grep -q -- "--destroy-data" "$T/err" || fail "device writes without consent: $(cat "$T/err")"
	expect_exit 0 "$SB" run --quiet --destroy-data --output="$T/dev.json" "$T/dev.fio" "$dev"
	[ "$(json "$T/dev.json" "d['jobs'][0]['read']['io_bytes'], d['jobs'][1]['write']['io_bytes']")" = "(8388608, 4194304)" ] ||
		fail "concurrent jobs on a device: bytes per job"
	ok "jobs running together on a device, each in its region"
fi

# refused: --repeat with concurrent jobs, unknown options, bad values, missing file
expect_exit 2 "$SB" run --name=x "$T/conc.fio" "$T/d"
grep -q -- "--name" "$T/err" || fail "--name with a job file: $(cat "$T/err")"
expect_exit 2 "$SB" run --repeat=2 "$T/conc.fio" "$T/d"
grep -q -- "--repeat" "$T/err" || fail "--repeat with concurrent jobs: $(cat "$T/err")"
printf '[a]\nrw=read\nzonemode=zbd\n' >"$T/unk.fio"
expect_exit 2 "$SB" run "$T/unk.fio" "$T/d"
grep -q "line 3" "$T/err" && grep -q "zonemode" "$T/err" || fail "unknown option: $(cat "$T/err")"
printf '[a]\nbs=4q\n' >"$T/bad.fio"
expect_exit 2 "$SB" run "$T/bad.fio" "$T/d"
grep -q "line 2" "$T/err" && grep -q "bs" "$T/err" || fail "bad value: $(cat "$T/err")"
expect_exit 2 "$SB" run "$T/missing.fio" "$T/d"
printf '[a]\nfilename=%s/x\n[b]\nfilename=%s/y\n' "$T" "$T" >"$T/two-targets.fio"
expect_exit 2 "$SB" run "$T/two-targets.fio"
grep -q "different targets" "$T/err" || fail "two targets: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "a refused job file created files"
ok "bad job files refused with the line named, nothing created"

# the same size-bound job file through fio moves the same bytes
if command -v fio >/dev/null 2>&1; then
	mkdir "$T/fio"
	cat >"$T/same.fio" <<'JOB'
[global]
size=4M
bs=16k
[mixed]
rw=randrw
rwmixread=70
[alongside]
rw=write
size=2M
bs=8k
JOB
	(cd "$T/fio" && fio --output-format=json --output="$T/fio.json" "$T/same.fio" >/dev/null 2>&1) ||
		fail "fio could not run the job file"
	expect_exit 0 "$SB" run --quiet --output="$T/same.json" "$T/same.fio" "$T/d"
	# (the read/write split of randrw is random: the totals must agree)
	k="[(j['jobname'], j['read']['io_bytes'] + j['write']['io_bytes'], j['read']['total_ios'] + j['write']['total_ios']) for j in d['jobs']]"
	a=$(json "$T/fio.json" "$k")
	b=$(json "$T/same.json" "$k")
	[ "$a" = "$b" ] || fail "fio: $a, storbench: $b"
	ok "the same job file (two jobs at once) moves the same bytes and requests as fio: $a"
fi

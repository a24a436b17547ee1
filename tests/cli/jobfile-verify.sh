# fio job files' verify=: a writing job is verified with storbench's own
# blocks (the checksum name recorded), a flipped bit is found at its offset
# and fails the run, do_verify=0, verify=0 and verify=null verify nothing,
# and jobs storbench cannot verify are refused, naming the line, before
# anything is created.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
cat >"$T/v.fio" <<'JOB'
[global]
verify_fatal=1
verify_backlog=16
verify_pattern=0xaa55
[vw]
rw=randwrite
bs=4k
size=4M
verify=crc32c
JOB
expect_exit 0 "$SB" run --quiet --output="$T/v.json" "$T/v.fio" "$T/d"
[ "$(json "$T/v.json" "d['storbench']['verify']['intact']")" = 1024 ] || fail "1024 blocks intact"
[ "$(json "$T/v.json" "d['jobs'][0]['storbench']['options']['verify']")" = crc32c ] || fail "checksum name not recorded"
grep -q "0 not intact" "$T/out" || fail "text verdict: $(cat "$T/out")"
grep -q "verify=crc32c: verified with storbench's own block format" "$T/err" || fail "no note on the format"
grep -q "line 3: verify_backlog" "$T/err" || fail "verify_backlog note"
[ -z "$(ls -A "$T/d")" ] || fail "files left"
ok "verify=crc32c: every block checked, name recorded"

for v in "verify=0" "verify=null" "verify=md5
do_verify=0"; do
	printf '[w]\nrw=write\nsize=1M\n%s\n' "$v" >"$T/n.fio"
	expect_exit 0 "$SB" run --quiet --output="$T/n.json" "$T/n.fio" "$T/d"
	[ "$(json "$T/n.json" "'verify' in d['storbench']")" = False ] || fail "$v verified"
	[ "$(json "$T/n.json" "'verify' in d['jobs'][0]['storbench']['options']")" = False ] || fail "$v recorded"
done
ok "verify=0, verify=null and do_verify=0 verify nothing"

# the job after the verifying one is not checked against its blocks
printf '[w]\nrw=randwrite\nbs=4k\nsize=1M\nverify=crc32c\n[r]\nstonewall\nrw=read\nsize=1M\n' >"$T/then.fio"
expect_exit 0 "$SB" run --quiet --output="$T/then.json" "$T/then.fio" "$T/d"
grep -qx "verify: 256 blocks of 4096 B checked, 0 not intact" "$T/out" || fail "then: $(cat "$T/out")"
[ "$(json "$T/then.json" "d['storbench']['verify']['blocks_checked']")" = 256 ] || fail "then: blocks"
ok "a job after the verify= job is not checked again"

# the verify pass's reads are the job's reads, as fio counts them: one
# read of each written request's size, each timed (clat and lat), so
# read.clat_ns.N is the number of requests verified
printf '[w]\nrw=write\nbs=8k\nsize=1M\nverify=crc32c\n' >"$T/c.fio"
(cd "$T/d" && "$SB" fio --output-format=json --output="$T/c.json" "$T/c.fio") >/dev/null 2>&1 ||
	fail "fio personality failed"
readn() { # JSON: read io_bytes, total_ios, clat N, lat N
	json "$1" "' '.join(str(x) for x in (d['jobs'][0]['read']['io_bytes'], d['jobs'][0]['read']['total_ios'], d['jobs'][0]['read']['clat_ns']['N'], d['jobs'][0]['read']['lat_ns']['N']))"
}
[ "$(readn "$T/c.json")" = "1048576 128 128 128" ] || fail "verify reads: $(readn "$T/c.json")"
if command -v fio >/dev/null 2>&1; then
	mkdir "$T/fd"
	(cd "$T/fd" && fio --output-format=json --output="$T/cf.json" "$T/c.fio") || fail "fio failed"
	[ "$(readn "$T/c.json")" = "$(readn "$T/cf.json")" ] ||
		fail "fio: $(readn "$T/cf.json"), storbench: $(readn "$T/c.json")"
fi
rm -rf "$T/d"/* "$T/fd"
ok "the verify pass's reads timed as fio's: read clat N = requests verified"

# bssplit: each write read back as one request of its own size, as fio
printf '[b]\nrw=write\nbssplit=4k/50:64k/50\nsize=4m\nverify=md5\n' >"$T/b.fio"
(cd "$T/d" && "$SB" fio --output-format=json --output="$T/b.json" "$T/b.fio") >/dev/null 2>&1 ||
	fail "bssplit job failed"
w=$(json "$T/b.json" "d['jobs'][0]['write']['total_ios']")
[ "$(readn "$T/b.json")" = "4194304 $w $w $w" ] || fail "bssplit: writes $w, reads $(readn "$T/b.json")"
rm -rf "$T/d"/*
ok "bssplit: a verify read per write, of its size"

# verify_async=N, verify_async_cpus=LIST (fio's t/jobs/t0009): checked,
# taken with a note, the check as without them: reads as fio's with them
printf '[a]\nrw=randwrite\nbs=4k\nsize=1m\nverify=crc32c\nverify_async=2\nverify_async_cpus=0-1\n' >"$T/as.fio"
(cd "$T/d" && "$SB" fio --output-format=json --output="$T/as.json" "$T/as.fio") >"$T/as.out" 2>&1 ||
	fail "verify_async: $(cat "$T/as.out")"
grep -q "line 7: verify_async_cpus: the CPUs of fio's verify threads" "$T/as.out" || fail "verify_async_cpus: no note"
[ "$(readn "$T/as.json")" = "1048576 256 256 256" ] || fail "verify_async reads: $(readn "$T/as.json")"
if command -v fio >/dev/null 2>&1; then
	mkdir "$T/fd"
	(cd "$T/fd" && fio --output-format=json --output="$T/asf.json" "$T/as.fio") || fail "fio failed"
	[ "$(readn "$T/as.json")" = "$(readn "$T/asf.json")" ] ||
		fail "verify_async: fio $(readn "$T/asf.json"), storbench $(readn "$T/as.json")"
fi
for bad in "verify_async=x" "verify_async=-1" "verify_async_cpus=0-x" "verify_async_cpus=3-1"; do
	printf '[a]\nrw=write\nsize=1m\nverify=md5\n%s\n' "$bad" >"$T/as2.fio"
	"$SB" run --quiet "$T/as2.fio" "$T/d" >/dev/null 2>"$T/err"
	[ $? = 2 ] || fail "$bad: not refused"
	grep -q "line 5: verify_async" "$T/err" || fail "$bad: $(cat "$T/err")"
done
rm -rf "$T/d"/* "$T/fd"
# with the null engine (t0009): nothing to check, no verify reads, as fio's time_based job
printf '[global]\nioengine=null\nrw=randwrite\nsize=1m\ntime_based\nruntime=1\nverify=crc32c\nverify_async=2\n[a]\n[b]\n' >"$T/nl.fio"
(cd "$T/d" && "$SB" fio --output-format=json --output="$T/nl.json" "$T/nl.fio") >"$T/nl.out" 2>&1 ||
	fail "null engine: $(cat "$T/nl.out")"
grep -q "\[a\]: verify=crc32c with ioengine=null: nothing to check" "$T/nl.out" || fail "null: no note"
[ "$(json "$T/nl.json" "[j['read']['io_bytes'] for j in d['jobs']]")" = "[0, 0]" ] || fail "null: reads counted"
[ "$(json "$T/nl.json" "'verify' in d['storbench']")" = False ] || fail "null: verified"
rm -rf "$T/d"/*
ok "verify_async and verify_async_cpus taken with a note, reads as fio's, bad values refused"

# a mixed job (fio's t/jobs/t0008): fio verifies the blocks the job wrote,
# not those it read, so the reads and the verify reads together are the
# region once (8 MiB: fio's "reads 16+16MB" of a 32 MiB readwrite);
# storbench's own check still reads every block of the region
printf '[m]\nrw=readwrite\nbs=4k\nsize=8m\nverify=crc32c\nverify_backlog=1\n' >"$T/m.fio"
(cd "$T/d" && "$SB" fio --output-format=json --output="$T/m.json" "$T/m.fio") >"$T/m.out" 2>&1 ||
	fail "mixed job failed: $(cat "$T/m.out")"
[ "$(readn "$T/m.json")" = "8388608 2048 2048 2048" ] || fail "mixed: $(readn "$T/m.json")"
grep -q "verify: 2048 blocks of 4096 B checked, 0 not intact" "$T/m.out" || fail "mixed: $(cat "$T/m.out")"
if command -v fio >/dev/null 2>&1; then
	mkdir "$T/fd"
	(cd "$T/fd" && fio --output-format=json --output="$T/mf.json" "$T/m.fio") || fail "fio failed"
	[ "$(readn "$T/m.json")" = "$(readn "$T/mf.json")" ] ||
		fail "mixed: fio $(readn "$T/mf.json"), storbench $(readn "$T/m.json")"
fi
rm -rf "$T/d"/* "$T/fd"
ok "a mixed job's verify reads are the blocks it wrote, as fio's"

. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
ff_rules "flip * 8192 4096"
printf '[vw]\nrw=randwrite\nbs=4k\nsize=1M\nverify=md5\n' >"$T/f.fio"
"$SB" run --quiet --output="$T/f.json" "$T/f.fio" "$FF_MNT" >"$T/f.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$T/f.out"; fail "fault: exit $rc, expected 1"; }
json "$T/f.json" "d['storbench']['verify']['bad_ranges'][0]['offset']" | grep -qx 8192 ||
	fail "fault not at 8192"
[ "$(json "$T/f.json" "d['storbench']['verify']['corrupted']")" = 1 ] || fail "one corrupted block"
ok "a flipped bit fails the verify= job at its offset"

# nrfiles: each of the job's files verified (fio names them n.0.0 ..
# n.0.3), a bit flipped in the third found there alone
ff_rules "flip n.0.2 8192 4096"
printf '[n]\nrw=randwrite\nbs=4k\nsize=1m\nnrfiles=4\nverify=crc32c\n' >"$T/nf.fio"
"$SB" run --quiet --output="$T/nf.json" "$T/nf.fio" "$FF_MNT" >"$T/nf.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$T/nf.out"; fail "nrfiles fault: exit $rc, expected 1"; }
[ "$(json "$T/nf.json" "d['storbench']['verify']['blocks_checked']")" = 256 ] || fail "nrfiles: blocks"
[ "$(json "$T/nf.json" "[(r['file'], r['offset']) for r in d['storbench']['verify']['bad_ranges']]")" = "[(2, 8192)]" ] ||
	fail "nrfiles: $(json "$T/nf.json" "d['storbench']['verify']['bad_ranges']")"
ff_rules ""
(cd "$T/d" && "$SB" fio --output-format=json --output="$T/nf2.json" "$T/nf.fio") >/dev/null 2>&1 ||
	fail "nrfiles: intact run failed"
[ "$(readn "$T/nf2.json")" = "1048576 256 256 256" ] || fail "nrfiles reads: $(readn "$T/nf2.json")"
if command -v fio >/dev/null 2>&1; then
	mkdir "$T/fd"
	(cd "$T/fd" && fio --output-format=json --output="$T/nf3.json" "$T/nf.fio") || fail "fio failed"
	[ "$(readn "$T/nf3.json")" = "1048576 256 256 256" ] || fail "fio nrfiles: $(readn "$T/nf3.json")"
	rm -rf "$T/fd"
fi
rm -rf "$T/d"/*
ok "verify= with nrfiles: every file checked, a flipped bit found in its file, reads as fio's"

refuse() { # NAME PATTERN: the job file $T/r.fio is refused with PATTERN, nothing created
	"$SB" run --quiet "$T/r.fio" "$T/d" >/dev/null 2>"$T/err"
	[ $? = 2 ] || fail "$1: not refused"
	grep -q -- "$2" "$T/err" || fail "$1: message: $(cat "$T/err")"
	[ -z "$(ls -A "$T/d")" ] || fail "$1: files created"
}
printf '[r]\nrw=randread\nsize=1M\nverify=crc32c\n' >"$T/r.fio"
refuse "read job" "line 1: job 'r': verify=crc32c with rw=randread checks what an earlier job wrote"
printf '[w]\nfilename=a\nrw=write\nsize=1M\nverify=md5\n[r]\nstonewall\nfilename=b\nrw=read\nsize=1M\nverify=md5\n' >"$T/r.fio"
refuse "read job, other file" "line 6: job 'r': verify=md5 with rw=read checks what an earlier job"
printf '[r]\nfilename=a\nrw=read\nsize=1M\nverify=md5\n[w]\nstonewall\nfilename=a\nrw=write\nsize=1M\nverify=md5\n' >"$T/r.fio"
refuse "read job before the writer" "line 1: job 'r': verify=md5 with rw=read"
printf '[global]\nfilename=a\nsize=1M\nverify=md5\n[t]\nrw=trim\n' >"$T/r.fio"
refuse "trim job" "job 't': verify=md5 needs a job that writes or reads, not rw=trim"
printf '[global]\nsize=1M\nrw=write\n[a]\nverify=crc32c\n[b]\n' >"$T/r.fio"
refuse "together" "line 4: job 'a' verifies (verify=crc32c) while job 'b' runs at the same time on the same bytes"
printf '[a]\nsize=1M\nrw=write\nverify=crc99\n' >"$T/r.fio"
refuse "bad checksum" "line 4: verify: 'crc99' is not valid"
printf '[a]\nsize=1M\nrw=write\nverify_only\n' >"$T/r.fio"
refuse "verify_only" "line 4: verify_only: fio option not supported by storbench: .*storbench verify --phase=check"
ok "unverifiable verify= jobs refused with their line, nothing created"

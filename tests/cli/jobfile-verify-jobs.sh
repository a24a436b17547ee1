# A job file's verify= jobs one after another (fio's t/jobs/t0026 and
# t0029): each verifying job checked, one verdict of them all; a job that
# only reads checks the blocks an earlier verify= job wrote on the same
# filename= (do_verify=0: written, not checked), its damage found by the
# reader; what cannot be checked refused. Entries and bytes as fio's.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"

# JSON: each entry's name, read and write io_bytes
entries() {
	json "$1" "' '.join('%s:%d:%d' % (j['jobname'], j['read']['io_bytes'], j['write']['io_bytes']) for j in d['jobs'])"
}
# FILE.fio in $T/NAME: storbench's JSON $T/NAME.json (its exit status
# returned), and when fio is there, fio's $T/NAME-fio.json
both() {
	mkdir "$T/$1" "$T/$1-fio"
	(cd "$T/$1" && "$SB" fio --output-format=json --output="$T/$1.json" "$T/$1.fio") \
		>"$T/$1.out" 2>&1
	rc=$?
	if command -v fio >/dev/null 2>&1; then
		(cd "$T/$1-fio" && fio --output-format=json --output="$T/$1-fio.json" "$T/$1.fio") \
			>/dev/null 2>&1 || fail "$1: fio failed"
	fi
	return $rc
}

cat >"$T/two.fio" <<'JOB'
[global]
filename=f
size=1M
verify=md5
[a]
rw=randwrite
[b]
stonewall
rw=write
bs=8k
JOB
both two || fail "two verify jobs: $(cat "$T/two.out")"
[ "$(json "$T/two.json" "d['storbench']['verify']['blocks_checked']")" = 512 ] ||
	fail "two: blocks $(json "$T/two.json" "d['storbench']['verify']")"
grep -qx "verify: 512 blocks of 4096 B checked, 0 not intact" "$T/two.out" || fail "two: $(cat "$T/two.out")"
[ "$(entries "$T/two.json")" = "a:1048576:1048576 b:1048576:1048576" ] || fail "two: $(entries "$T/two.json")"
[ ! -f "$T/two-fio.json" ] || [ "$(entries "$T/two.json")" = "$(entries "$T/two-fio.json")" ] ||
	fail "two: fio $(entries "$T/two-fio.json"), storbench $(entries "$T/two.json")"
[ -z "$(ls -A "$T/two")" ] || fail "two: files left: $(ls "$T/two")"
ok "two verify= jobs: each checked, one verdict, entries and bytes as fio's"

cat >"$T/rd.fio" <<'JOB'
[global]
filename=f
size=1M
verify=md5
[write]
rw=write
do_verify=0
[read]
stonewall
rw=read
loops=2
JOB
both rd || fail "reader: $(cat "$T/rd.out")"
[ "$(json "$T/rd.json" "d['storbench']['verify']['intact']")" = 256 ] ||
	fail "reader: $(json "$T/rd.json" "d['storbench']['verify']")"
# fio's read job with verify= reads the size once, loops=2 or not
[ "$(entries "$T/rd.json")" = "write:0:1048576 read:1048576:0" ] || fail "reader: $(entries "$T/rd.json")"
[ ! -f "$T/rd-fio.json" ] || [ "$(entries "$T/rd.json")" = "$(entries "$T/rd-fio.json")" ] ||
	fail "reader: fio $(entries "$T/rd-fio.json"), storbench $(entries "$T/rd.json")"
[ -z "$(ls -A "$T/rd")" ] || fail "reader: files left: $(ls "$T/rd")"
ok "a read job checks what a do_verify=0 writer wrote, bytes as fio's"

# a part of the writer's region: its blocks only
printf '[global]\nfilename=f\nverify=crc32c\n[w]\nrw=randwrite\nsize=1M\ndo_verify=0\n[r]\nstonewall\nrw=randread\noffset=512k\nsize=256k\n' >"$T/part.fio"
both part || fail "part: $(cat "$T/part.out")"
[ "$(json "$T/part.json" "d['storbench']['verify']['blocks_checked']")" = 64 ] ||
	fail "part: $(json "$T/part.json" "d['storbench']['verify']")"
ok "a read job checks its own part of what was written"

# past the writer's region: refused before it reads, its files removed
printf '[global]\nfilename=f\nverify=md5\n[w]\nrw=write\nsize=1M\n[r]\nstonewall\nrw=read\nsize=2M\n' >"$T/past.fio"
mkdir "$T/past"
(cd "$T/past" && "$SB" fio --output="$T/past.txt" "$T/past.fio") >"$T/past.out" 2>&1
rc=$?
[ $rc = 2 ] || fail "past: exit $rc: $(cat "$T/past.out")"
grep -q "verify=md5: this job reads past what the verify= job before it wrote on '.*f'" "$T/past.out" ||
	fail "past: $(cat "$T/past.out")"
[ -z "$(ls -A "$T/past")" ] || fail "past: files left: $(ls "$T/past")"
printf '[global]\nfilename=f\nverify=md5\nsize=1M\n[w]\nrw=write\n[r]\nstonewall\nrw=read\ndirect=1\n' >"$T/dir.fio"
mkdir "$T/dir"
(cd "$T/dir" && "$SB" fio --output="$T/dir.txt" "$T/dir.fio") >"$T/dir.out" 2>&1
rc=$?
[ $rc = 2 ] || fail "direct: exit $rc: $(cat "$T/dir.out")"
grep -q "give it direct=0 as that job" "$T/dir.out" || fail "direct: $(cat "$T/dir.out")"
[ -z "$(ls -A "$T/dir")" ] || fail "direct: files left: $(ls "$T/dir")"
ok "a read job past the writer's region or opening otherwise refused, files removed"

# numjobs clones without group_reporting: each clone's verify reads in
# its own entry (a file each in a directory, nrfiles files each, or an
# offset_increment each of one file), as fio's; with group_reporting one
# entry of them all
printf '[c]\nrw=write\nbs=4k\nsize=1m\nnumjobs=3\nverify=md5\n' >"$T/cl1.fio"
printf '[c]\nfilename=f\nrw=write\nbs=4k\nsize=256k\nnumjobs=3\noffset_increment=256k\nverify=md5\n' >"$T/cl2.fio"
printf '[c]\nrw=randwrite\nbs=4k\nsize=256k\nnumjobs=2\nnrfiles=2\nverify=crc32c\n' >"$T/cl3.fio"
printf '[c]\nrw=write\nbs=4k\nsize=1m\nnumjobs=3\nverify=md5\ngroup_reporting\n' >"$T/cl4.fio"
for x in "cl1 c:1048576:1048576 c:1048576:1048576 c:1048576:1048576" \
	"cl2 c:262144:262144 c:262144:262144 c:262144:262144" \
	"cl3 c:262144:262144 c:262144:262144" \
	"cl4 c:3145728:3145728"; do
	n=${x%% *}
	both "$n" || fail "$n: $(cat "$T/$n.out")"
	[ "$(entries "$T/$n.json")" = "${x#* }" ] || fail "$n: $(entries "$T/$n.json")"
	# fio's JSON may follow a warning line (clones writing one file)
	[ ! -f "$T/$n-fio.json" ] || sed -i '/^fio: /d' "$T/$n-fio.json"
	[ ! -f "$T/$n-fio.json" ] || [ "$(entries "$T/$n.json")" = "$(entries "$T/$n-fio.json")" ] ||
		fail "$n: fio $(entries "$T/$n-fio.json"), storbench $(entries "$T/$n.json")"
done
ok "each clone's verify reads in its own entry, as fio's"

. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
# the writer's lost write (do_verify=0: it checks nothing) found by the reader
ff_rules "drop f 8192 4096"
sed 's/size=1M/size=64k/' "$T/rd.fio" >"$T/lost.fio"
(cd "$FF_MNT" && "$SB" fio --output-format=json --output="$T/lost.json" "$T/lost.fio") \
	>"$T/lost.out" 2>&1
rc=$?
[ $rc = 1 ] || fail "lost write: exit $rc: $(cat "$T/lost.out")"
[ "$(json "$T/lost.json" "[(r['offset'], r['class']) for r in d['storbench']['verify']['bad_ranges']]")" = "[(8192, 'foreign')]" ] ||
	fail "lost write: $(json "$T/lost.json" "d['storbench']['verify']")"
# both writers' damage in the one verdict
ff_rules "flip f 8192 4096"
sed 's/size=1M/size=64k/' "$T/two.fio" >"$T/two2.fio"
(cd "$FF_MNT" && "$SB" fio --output-format=json --output="$T/two2.json" "$T/two2.fio") \
	>"$T/two2.out" 2>&1
rc=$?
[ $rc = 1 ] || fail "two damaged: exit $rc: $(cat "$T/two2.out")"
[ "$(json "$T/two2.json" "(d['storbench']['verify']['blocks_checked'], d['storbench']['verify']['corrupted'])")" = "(32, 2)" ] ||
	fail "two damaged: $(json "$T/two2.json" "d['storbench']['verify']")"
ff_rules ""
[ -z "$(ls -A "$FF_MNT")" ] || fail "faultfs: files left: $(ls "$FF_MNT")"
ok "damage found by the job that checks: a lost write by the reader, each writer's in one verdict"

# Verify readers as fio runs them: a read job with verify= and no size
# takes the size of its file as it is when it starts, after the writer
# before it made it (fio's examples/surface-scan.fio: its bytes the
# file's, its blocks checked, a damaged block found); verify= jobs that
# run together on regions apart each check their own blocks (fio's
# t/jobs/t0002 post file: a reader of what an earlier run wrote beside a
# mixed job), damage in one region failing only the job of that region;
# jobs together on the same bytes refused, naming them.
# needs: fuse
. "$(dirname "$0")/../lib/cli.sh"

# JSON: each entry's name, read and write io_bytes
entries() {
	json "$1" "' '.join('%s:%d:%d' % (j['jobname'], j['read']['io_bytes'], j['write']['io_bytes']) for j in d['jobs'])"
}
verdict() {
	json "$1" "'%d %d %s' % (d['storbench']['verify']['blocks_checked'], d['storbench']['verify']['intact'], [(r['offset'], r['class']) for r in d['storbench']['verify']['bad_ranges']])"
}
# sb DIR NAME [ARGS]: storbench runs $T/NAME.fio in DIR, JSON in $T/NAME.json
sb() {
	d=$1 n=$2
	shift 2
	(cd "$d" && "$SB" fio --output-format=json --output="$T/$n.json" "$@" "$T/$n.fio") \
		>"$T/$n.out" 2>&1
}

cat >"$T/scan.fio" <<'JOB'
[global]
filename=f
bs=64k
verify=meta
[w]
rw=write
size=1M
do_verify=0
[r]
stonewall
rw=read
do_verify=1
JOB
mkdir "$T/scan"
sb "$T/scan" scan || fail "no size: exit $?: $(cat "$T/scan.out")"
[ "$(entries "$T/scan.json")" = "w:0:1048576 r:1048576:0" ] || fail "no size: $(entries "$T/scan.json")"
[ "$(verdict "$T/scan.json")" = "256 256 []" ] || fail "no size: $(verdict "$T/scan.json")"
if command -v fio >/dev/null 2>&1; then
	mkdir "$T/scan-fio"
	(cd "$T/scan-fio" && fio --output-format=json --output="$T/scan-fio.json" "$T/scan.fio") \
		>/dev/null 2>&1 || fail "no size: fio failed"
	[ "$(entries "$T/scan.json")" = "$(entries "$T/scan-fio.json")" ] ||
		fail "no size: fio $(entries "$T/scan-fio.json"), storbench $(entries "$T/scan.json")"
fi
[ -z "$(ls -A "$T/scan")" ] || fail "no size: files left: $(ls "$T/scan")"
ok "a read job with no size reads and checks the file its writer made, bytes as fio's"

# a size-less job whose file nothing makes: refused before anything runs
printf '[r]\nfilename=f\nrw=read\n' >"$T/nf.fio"
mkdir "$T/nf"
sb "$T/nf" nf
rc=$?
[ $rc = 2 ] || fail "no file: exit $rc: $(cat "$T/nf.out")"
grep -q "job 'r' has no size" "$T/nf.out" || fail "no file: $(cat "$T/nf.out")"
[ -z "$(ls -A "$T/nf")" ] || fail "no file: files made: $(ls "$T/nf")"
ok "a job with no size on a file nothing makes refused"

# two regions apart: written by one run, read and rewritten by the next
cat >"$T/pre.fio" <<'JOB'
[global]
filename=f
size=256k
bs=4k
verify=crc32c
do_verify=0
[a]
rw=write
[b]
offset=1M
rw=randwrite
JOB
cat >"$T/post.fio" <<'JOB'
[global]
filename=f
size=256k
bs=4k
verify=crc32c
[a]
rw=read
[b]
offset=1M
rw=randrw
JOB
mkdir "$T/two"
sb "$T/two" pre --keep || fail "pre: exit $?: $(cat "$T/pre.out")"
sb "$T/two" post || fail "together: exit $?: $(cat "$T/post.out")"
[ "$(verdict "$T/post.json")" = "128 128 []" ] || fail "together: $(verdict "$T/post.json")"
[ "$(json "$T/post.json" "d['jobs'][0]['read']['io_bytes']")" = 262144 ] ||
	fail "together: $(entries "$T/post.json")"
ok "verify= jobs together on regions apart: each checks its own blocks"

# damage in one region fails the job of that region only
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
for x in "a 8192" "b $((1048576 + 8192))"; do
	job=${x% *} off=${x#* }
	rm -f "$FF_MNT/f"
	ff_rules ""
	sb "$FF_MNT" pre --keep || fail "pre on faultfs: exit $?: $(cat "$T/pre.out")"
	ff_rules "flip f $off 1"
	sb "$FF_MNT" post
	rc=$?
	[ $rc = 1 ] || fail "damaged $job: exit $rc: $(cat "$T/post.out")"
	[ "$(verdict "$T/post.json")" = "128 127 [($off, 'corrupted')]" ] ||
		fail "damaged $job: $(verdict "$T/post.json")"
	grep -q "verify: job '$job': 1 of 64 blocks not intact" "$T/post.out" ||
		fail "damaged $job: $(cat "$T/post.out")"
	[ "$(grep -c "verify: job '.*' blocks not intact\|verify: job '.*': " "$T/post.out")" = 1 ] ||
		fail "damaged $job: another job failed too: $(cat "$T/post.out")"
done
ff_rules ""
rm -f "$FF_MNT/f"
ok "a damaged block fails only the job whose region holds it"

# the size-less reader finds a block damaged after its writer wrote it
ff_rules "flip f 131072 1"
sb "$FF_MNT" scan
rc=$?
[ $rc = 1 ] || fail "no size, damaged: exit $rc: $(cat "$T/scan.out")"
[ "$(verdict "$T/scan.json")" = "256 255 [(131072, 'corrupted')]" ] ||
	fail "no size, damaged: $(verdict "$T/scan.json")"
ff_rules ""
[ -z "$(ls -A "$FF_MNT")" ] || fail "faultfs: files left: $(ls "$FF_MNT")"
ok "the read job with no size finds the damaged block"

# together on the same bytes: refused, the file left as it was
printf '[global]\nfilename=f\nsize=256k\nverify=crc32c\n[a]\nrw=read\n[b]\noffset=128k\nrw=read\n' \
	>"$T/ov.fio"
sb "$T/two" ov
rc=$?
[ $rc = 2 ] || fail "overlap: exit $rc: $(cat "$T/ov.out")"
grep -q "job 'a' verifies (verify=crc32c) while job 'b' runs at the same time on the same bytes: storbench checks each job's own blocks and cannot judge blocks two jobs share" "$T/ov.out" ||
	fail "overlap: $(cat "$T/ov.out")"
sb "$T/two" post || fail "after the refusal: $(cat "$T/post.out")"
ok "verify= jobs together on the same bytes refused, naming both"

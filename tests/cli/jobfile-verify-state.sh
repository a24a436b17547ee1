# fio's verify_state_save and verify_state_load (t/jobs/t0036-pre and
# -post): the writer leaves local-JOB-N-verify.state beside its file (in
# storbench's own text) and keeps the file; a later run's read job checks
# what the state says was written, and only that; a state file is never
# written over a file that is not one, nor read from one; entries and
# bytes as fio's.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

entries() {
	json "$1" "' '.join('%s:%d:%d' % (j['jobname'], j['read']['io_bytes'], j['write']['io_bytes']) for j in d['jobs'])"
}
printf '[global]\nfilename=vf\nverify=md5\nsize=512k\n[job]\nrw=write\nverify_state_save=1\n' >"$T/pre.fio"
printf '[global]\nfilename=vf\nverify=md5\nsize=512k\n[job]\nrw=read\nverify_state_load=1\n' >"$T/post.fio"
sbf() { # DIR NAME: storbench fio NAME.fio in DIR, JSON $T/DIR-NAME.json, output $T/out
	(cd "$T/$1" && "$SB" fio --output-format=json --output="$T/$1-$2.json" "$T/$2.fio") >"$T/out" 2>&1
}

mkdir "$T/a"
sbf a pre || fail "pre: $(cat "$T/out")"
[ -f "$T/a/vf" ] || fail "pre: its file not kept"
head -1 "$T/a/local-job-0-verify.state" | grep -qx "storbench verify state 1" || fail "pre: no state file: $(ls "$T/a")"
grep -qx "done 524288" "$T/a/local-job-0-verify.state" || fail "pre: state $(cat "$T/a/local-job-0-verify.state")"
sbf a post || fail "post: $(cat "$T/out")"
[ "$(json "$T/a-post.json" "d['storbench']['verify']['intact']")" = 128 ] || fail "post: $(json "$T/a-post.json" "d['storbench']['verify']")"
[ "$(entries "$T/a-pre.json") $(entries "$T/a-post.json")" = "job:524288:524288 job:524288:0" ] ||
	fail "entries: $(entries "$T/a-pre.json") $(entries "$T/a-post.json")"
if command -v fio >/dev/null 2>&1; then
	mkdir "$T/f"
	(cd "$T/f" && fio --output-format=json --output="$T/f-pre.json" "$T/pre.fio" &&
		fio --output-format=json --output="$T/f-post.json" "$T/post.fio") >/dev/null 2>&1 ||
		fail "fio failed"
	[ "$(entries "$T/a-pre.json") $(entries "$T/a-post.json")" = "$(entries "$T/f-pre.json") $(entries "$T/f-post.json")" ] ||
		fail "fio: $(entries "$T/f-pre.json") $(entries "$T/f-post.json")"
	# fio's binary state is not read as ours
	(cd "$T/f" && "$SB" fio --output="$T/x.txt" "$T/post.fio") >"$T/out" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "fio's state: exit $rc: $(cat "$T/out")"
	grep -q "verify_state_load: '.*local-job-0-verify.state': not a storbench verify state file" "$T/out" ||
		fail "fio's state: $(cat "$T/out")"
fi
ok "verify_state_save then verify_state_load: the file kept, checked in a later run, entries as fio's"

# a damaged block the state covers fails the check, at its offset
printf '\377' | dd of="$T/a/vf" bs=1 seek=$((65536 + 100)) conv=notrunc 2>/dev/null
sbf a post
rc=$?
[ $rc = 1 ] || fail "damage: exit $rc: $(cat "$T/out")"
[ "$(json "$T/a-post.json" "[(r['offset'], r['class']) for r in d['storbench']['verify']['bad_ranges']]")" = "[(65536, 'corrupted')]" ] ||
	fail "damage: $(json "$T/a-post.json" "d['storbench']['verify']")"
# only what the state says was written is checked: a writer stopped
# before its fill ended (done 0), or part of the region (done 64k)
sed -i 's/^done .*/done 65536/' "$T/a/local-job-0-verify.state"
sbf a post || fail "done 64k: $(cat "$T/out")"
[ "$(json "$T/a-post.json" "d['storbench']['verify']['blocks_checked']")" = 16 ] ||
	fail "done 64k: $(json "$T/a-post.json" "d['storbench']['verify']")"
sed -i 's/^done .*/done 0/' "$T/a/local-job-0-verify.state"
sbf a post || fail "done 0: $(cat "$T/out")"
[ "$(json "$T/a-post.json" "d['storbench']['verify']['blocks_checked']")" = 0 ] ||
	fail "done 0: $(json "$T/a-post.json" "d['storbench']['verify']")"
ok "the check covers what the state says was written, and a damaged block there fails it"

# the read job never writes: its file's bytes unchanged by the checks
sum=$(sha256sum <"$T/a/vf")
sed -i 's/^done .*/done 524288/' "$T/a/local-job-0-verify.state"
sbf a post
[ "$(sha256sum <"$T/a/vf")" = "$sum" ] || fail "the read job changed its file"
ok "a verify_state_load job leaves its file as it was"

refused() { # NAME DIR JOB PATTERN: exit 2 with PATTERN
	sbf "$2" "$3"
	rc=$?
	[ $rc = 2 ] || fail "$1: exit $rc: $(cat "$T/out")"
	grep -q -- "$4" "$T/out" || fail "$1: $(cat "$T/out")"
}
# a file that is not a state file, or a symlink, is never written over
mkdir "$T/b" "$T/c"
echo "precious" >"$T/b/local-job-0-verify.state"
sum=$(sha256sum <"$T/b/local-job-0-verify.state")
refused "other file" b pre "verify_state_save: '.*local-job-0-verify.state' is there and is no storbench verify state file"
[ "$(sha256sum <"$T/b/local-job-0-verify.state")" = "$sum" ] || fail "other file: written over"
[ ! -e "$T/b/vf" ] || fail "other file: the job's file was made"
ln -s "$T/c/target" "$T/b/l"
mv "$T/b/l" "$T/b/local-job-0-verify.state"
refused "symlink" b pre "is no storbench verify state file"
[ ! -e "$T/c/target" ] && [ -L "$T/b/local-job-0-verify.state" ] || fail "symlink followed"
# no state, a broken one, the file gone, a state of another file
mkdir "$T/d"
dd if=/dev/zero of="$T/d/vf" bs=64k count=8 2>/dev/null
refused "no state" d post "verify_state_load: cannot read '.*local-job-0-verify.state'"
[ "$(ls -A "$T/d")" = vf ] || fail "no state: files left: $(ls "$T/d")"
cp "$T/a/local-job-0-verify.state" "$T/d/"
sed -i 's/^block_size .*/block_size 1000/' "$T/d/local-job-0-verify.state"
refused "bad state" d post "block_size 1000"
cp "$T/a/local-job-0-verify.state" "$T/d/"
sed -i 's/^file .*/file other/' "$T/d/local-job-0-verify.state"
refused "other file's state" d post "is the state of 'other', not of"
rm "$T/d/vf"
refused "file gone" d post "verify_state_load: '.*vf' is not there"
[ "$(ls -A "$T/d")" = local-job-0-verify.state ] || fail "file gone: files left: $(ls "$T/d")"
printf '[global]\nfilename=vf\nverify=md5\nsize=512k\n[job]\nrw=write\nnumjobs=2\nverify_state_save=1\n' >"$T/nj.fio"
refused "numjobs" d nj "verify_state_save with numjobs above 1 is not supported"
printf '[global]\nverify=md5\nsize=512k\n[job]\nrw=write\nverify_state_save=1\n' >"$T/nd.fio"
refused "directory" d nd "verify_state_save: needs a job whose filename= names a file"
ok "state files: never over another file or through a symlink; missing, broken or other states refused"

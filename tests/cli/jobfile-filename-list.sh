# fio's filename=a:b:c (t/jobs/t0037-pre and -post): a job's files named
# in a list, as nrfiles, the size split evenly over them; verify= with
# loops checks every file; verify_state_save lists every file in the
# state (a file line each) and verify_state_load checks them all in a
# later run, a damaged block named by its file. Each name passes the
# checks a single one does: a file holding a filesystem is refused for
# that name and nothing of the list is written. Bad lists are refused
# with the option named.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

entries() {
	json "$1" "' '.join('%s:%d:%d' % (j['jobname'], j['read']['io_bytes'], j['write']['io_bytes']) for j in d['jobs'])"
}
sbf() { # DIR NAME: storbench fio NAME.fio in DIR, JSON $T/DIR-NAME.json, output $T/out
	(cd "$T/$1" && "$SB" fio --output-format=json --output="$T/$1-$2.json" "$T/$2.fio") >"$T/out" 2>&1
}
vsec() { json "$T/$1.json" "d['storbench']['verify']['$2']"; }

# ---- verify with loops across the files ----
mkdir "$T/l"
printf '[job]\nfilename=a:b:c\nrw=randwrite\nbs=4k\nsize=96k\nloops=2\nverify=md5\n' >"$T/loops.fio"
sbf l loops || fail "loops: $(cat "$T/out")"
[ "$(vsec l-loops blocks_checked) $(vsec l-loops intact)" = "24 24" ] ||
	fail "loops: $(json "$T/l-loops.json" "d['storbench']['verify']")"
[ "$(json "$T/l-loops.json" "d['jobs'][0]['write']['io_bytes']")" = 196608 ] ||
	fail "loops: $(entries "$T/l-loops.json")"
ok "filename=a:b:c, verify=md5, loops=2: the three files written twice, every block checked"

# ---- verify_state_save and _load across the files ----
mkdir "$T/s"
printf '[global]\nfilename=a:b:c\nverify=md5\nsize=96k\n[job]\nrw=write\nverify_state_save=1\n' >"$T/pre.fio"
printf '[global]\nfilename=a:b:c\nverify=md5\nsize=96k\n[job]\nrw=read\nverify_state_load=1\n' >"$T/post.fio"
sbf s pre || fail "pre: $(cat "$T/out")"
for f in a b c; do
	[ "$(stat -c %s "$T/s/$f")" = 32768 ] || fail "pre: '$f' is not 32 KiB: $(ls -l "$T/s")"
done
[ "$(grep -c '^file ' "$T/s/local-job-0-verify.state")" = 3 ] ||
	fail "pre: state $(cat "$T/s/local-job-0-verify.state")"
sbf s post || fail "post: $(cat "$T/out")"
[ "$(vsec s-post intact)" = 24 ] || fail "post: $(json "$T/s-post.json" "d['storbench']['verify']")"
[ "$(entries "$T/s-pre.json") $(entries "$T/s-post.json")" = "job:98304:98304 job:98304:0" ] ||
	fail "entries: $(entries "$T/s-pre.json") $(entries "$T/s-post.json")"
ok "verify_state_save over three files, checked whole by verify_state_load in a later run"

# a damaged block in the second file: exit 1, the file and offset named
printf '\377' | dd of="$T/s/b" bs=1 seek=$((8192 + 100)) conv=notrunc 2>/dev/null
sbf s post
rc=$?
[ $rc = 1 ] || fail "damage: exit $rc: $(cat "$T/out")"
[ "$(json "$T/s-post.json" "[(r['file'], r['offset'], r['class']) for r in d['storbench']['verify']['bad_ranges']]")" = "[(1, 8192, 'corrupted')]" ] ||
	fail "damage: $(json "$T/s-post.json" "d['storbench']['verify']")"
grep -q "b: corrupted at 8.00 KiB" "$T/out" || fail "damage: $(cat "$T/out")"
ok "a damaged block of the second file is found there"

# the state of other files is not taken for this list
printf '[global]\nfilename=a:c:b\nverify=md5\nsize=96k\n[job]\nrw=read\nverify_state_load=1\n' >"$T/post2.fio"
sbf s post2
rc=$?
[ $rc = 2 ] || fail "other list: exit $rc: $(cat "$T/out")"
grep -q "verify_state_load: .*is the state of 'b' as file 2, not of 'c'" "$T/out" || fail "other list: $(cat "$T/out")"
printf '[global]\nfilename=a:b\nverify=md5\nsize=64k\n[job]\nrw=read\nverify_state_load=1\n' >"$T/post3.fio"
sbf s post3
rc=$?
[ $rc = 2 ] || fail "fewer files: exit $rc: $(cat "$T/out")"
grep -q "verify_state_load: .*is the state of 3 files, the job has 2" "$T/out" || fail "fewer files: $(cat "$T/out")"
ok "a state of other files (or of more) is refused, naming the file"

# ---- the checks of each name ----
mkdir "$T/g"
if command -v mkfs.ext4 >/dev/null 2>&1; then
	head -c 2097152 /dev/zero >"$T/g/img"
	mkfs.ext4 -q -F "$T/g/img" >/dev/null 2>&1 || fail "mkfs.ext4"
	cp "$T/g/img" "$T/g/img.copy"
	printf '[job]\nfilename=new1:img:new2\nrw=write\nsize=96k\n' >"$T/sig.fio"
	(cd "$T/g" && "$SB" fio --output="$T/sig.txt" "$T/sig.fio") >"$T/out" 2>&1
	rc=$?
	[ $rc != 0 ] || fail "signature: exit 0"
	grep -q "refusing to overwrite 'img'.*holds a .*filesystem" "$T/out" || fail "signature: $(cat "$T/out")"
	cmp -s "$T/g/img" "$T/g/img.copy" || fail "signature: the file system image was written"
	[ ! -e "$T/g/new1" ] && [ ! -e "$T/g/new2" ] || fail "signature: $(ls "$T/g")"
	ok "a name holding a file system is refused (exit $rc), nothing of the list written"
else
	echo "note: no mkfs.ext4: the signature case not run"
fi
# an existing file not storbench's, without --destroy-data: refused for it
printf 'precious\n' >"$T/g/keep"
printf '[job]\nfilename=new1:keep\nrw=write\nsize=64k\n' >"$T/own.fio"
(cd "$T/g" && "$SB" fio --output="$T/own.txt" "$T/own.fio") >"$T/out" 2>&1
rc=$?
[ $rc != 0 ] || fail "not ours: exit 0"
grep -q "keep" "$T/out" || fail "not ours: $(cat "$T/out")"
[ "$(cat "$T/g/keep")" = precious ] && [ ! -e "$T/g/new1" ] || fail "not ours: written"
ok "a file of the list that is not storbench's is not written without consent (exit $rc)"

# ---- bad lists ----
bad() { # VALUE EXPECTED
	printf '[job]\nfilename=%s\nrw=read\nsize=64k\n' "$1" >"$T/bad.fio"
	(cd "$T/g" && "$SB" fio --parse-only "$T/bad.fio") >"$T/out" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "filename=$1: exit $rc: $(cat "$T/out")"
	grep -q "filename: .*$2" "$T/out" || fail "filename=$1: $(cat "$T/out")"
}
bad 'a::b' 'name 2 of the list is empty'
bad 'a:' 'name 2 of the list is empty'
bad ':a' 'name 1 of the list is empty'
printf '[job]\nfilename=x1:x2\nrw=write\nsize=64k\nnumjobs=2\n' >"$T/nj.fio"
(cd "$T/g" && "$SB" fio --output="$T/nj.txt" "$T/nj.fio") >"$T/out" 2>&1
rc=$?
[ $rc = 2 ] || fail "numjobs: exit $rc: $(cat "$T/out")"
grep -q "filename: a list of files with numjobs=2" "$T/out" || fail "numjobs: $(cat "$T/out")"
ok "empty names and a list with numjobs=2 refused, the option named"

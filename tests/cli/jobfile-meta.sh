# fio's file-operation engines in job files (filestat, filedelete,
# ftruncate): as fio runs them, each file is laid out, then one stat (lstat, statx) or
# unlink of its name a file is the timed I/O, counted with the block's
# bytes; the same job entries, io_bytes, total_ios and clat samples as
# fio's where fio is installed; filestat leaves the files, filedelete
# removes every one; nothing is read (no page-cache warning); a bad
# stat_type refused naming line and option; filedelete refuses a file
# the user named (left byte for byte), as does ftruncate; ftruncate cuts
# the file to each write's offset, a read an error, counted as fio;
# falloc allocates (write, read) or punches (trim) each request's range,
# counted as fio, and refuses a file the user named; filecreate makes
# each of more than 256 files a job new as its timed request (fio's
# example: openfiles=1, create_on_open), counted as fio, its files
# removed unless --keep, a name that exists (a symlink planted) a refusal
# with nothing followed, a file the user named refused; filestat and
# filedelete past 256 files a job (1000) as fio counts them, the files
# gone after filedelete; --parse-only refuses the file counts the run
# refuses, and only those.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

. "$(dirname "$0")/../lib/fiocmp.sh"

for eng in filestat filedelete; do
	cat >"$T/$eng.fio" <<JOB
[global]
ioengine=$eng
filesize=4k
nrfiles=50
unlink=0
[t0]
[t1]
rw=write
nrfiles=20
filesize=16k
JOB
	figs="t0 204800 50 50
t1 327680 80 20"
	as_fio $eng
	mkdir "$T/keep-$eng"
	expect_exit 0 "$SB" run --quiet --keep "$T/$eng.fio" "$T/keep-$eng"
	n=$(ls "$T/keep-$eng" | wc -l)
	case $eng in
	filestat) [ "$n" = 70 ] || fail "filestat: $n files left, not 70" ;;
	filedelete) [ "$n" = 0 ] || fail "filedelete: $n files left: $(ls "$T/keep-$eng" | head -3)" ;;
	esac
	ok "$eng: $n files left after the run"
	if command -v fio >/dev/null 2>&1; then
		[ "$(ls "$T/fio-$eng" | wc -l)" = "$n" ] ||
			fail "$eng: fio left $(ls "$T/fio-$eng" | wc -l) files, storbench $n"
		ok "$eng: fio leaves the same files"
	fi
done

# more than 256 files a job (fio's filestat and filedelete examples at
# their scale): laid out by name before the job, none held open, one
# timed stat or unlink a file, counted as fio; with --keep filestat
# leaves them all, filedelete none
for eng in filestat filedelete; do
	printf '[global]\nioengine=%s\nfilesize=4k\nnrfiles=1000\nunlink=0\n[m]\n' "$eng" >"$T/m$eng.fio"
	figs="m 4096000 1000 1000"
	as_fio "m$eng"
	[ -z "$(ls -A "$T/sb-m$eng")" ] || fail "$eng: files left without --keep"
	mkdir "$T/mkeep-$eng"
	expect_exit 0 "$SB" run --quiet --keep "$T/m$eng.fio" "$T/mkeep-$eng"
	n=$(ls "$T/mkeep-$eng" | wc -l)
	case $eng in
	filestat) [ "$n" = 1000 ] && [ -f "$T/mkeep-$eng/m.0.999" ] || fail "filestat --keep: $n files" ;;
	filedelete) [ "$n" = 0 ] || fail "filedelete: $n files left: $(ls "$T/mkeep-$eng" | head -3)" ;;
	esac
	ok "$eng: 1000 files, $n left with --keep"
done

# stat_type: lstat and statx time the same count; another value refused
for st in lstat statx; do
	printf '[s]\nioengine=filestat\nstat_type=%s\nfilesize=4k\nnrfiles=10\n' "$st" >"$T/st.fio"
	mkdir "$T/st-$st"
	(cd "$T/st-$st" && "$SB" fio --output-format=json --output="$T/st.json" "$T/st.fio" \
		2>/dev/null) || fail "stat_type=$st failed"
	[ "$(figures "$T/st.json")" = "s 40960 10 10" ] || fail "stat_type=$st: $(figures "$T/st.json")"
done
ok "stat_type: lstat and statx"
printf '[s]\nioengine=filestat\nstat_type=fstat\nfilesize=4k\n' >"$T/bad.fio"
expect_exit 2 "$SB" fio --parse-only "$T/bad.fio"
"$SB" fio --parse-only "$T/bad.fio" 2>&1 | grep -q "line 3: stat_type" ||
	fail "bad stat_type: $("$SB" fio --parse-only "$T/bad.fio" 2>&1)"
ok "stat_type=fstat refused naming the line"

# filedelete on a file the user named: refused, the file left whole
head -c 8192 /dev/urandom >"$T/mine"
sum=$(sha256sum <"$T/mine")
expect_exit 2 "$SB" run --quiet --engine=filedelete --size=4k "$T/mine"
[ "$(sha256sum <"$T/mine")" = "$sum" ] || fail "filedelete touched a file it did not lay out"
ok "filedelete refuses a file it did not lay out"

# ftruncate: each write truncates the file to its offset, counted as fio's
printf '[global]\nioengine=ftruncate\nsize=1m\nbs=4k\nfilename=truncate\n[grow]\nrw=write\n[rand]\nstonewall\nrw=randwrite\n' >"$T/ft.fio"
figs="grow 1048576 256 256
rand 1048576 256 256"
as_fio ft
printf '[r]\nioengine=ftruncate\nsize=16k\nrw=read\n' >"$T/ftr.fio"
mkdir "$T/ftr"
(cd "$T/ftr" && "$SB" fio --output-format=json --output="$T/ftr.json" "$T/ftr.fio" >/dev/null 2>&1)
[ "$(json "$T/ftr.json" "d['jobs'][0]['error']")" != 0 ] || fail "ftruncate read: no error"
ok "ftruncate: a read is an error, as fio's"
expect_exit 2 "$SB" run --quiet --engine=ftruncate --rw=write --size=4k --destroy-data "$T/mine"
[ "$(sha256sum <"$T/mine")" = "$sum" ] || fail "ftruncate touched a file it did not lay out"
ok "ftruncate refuses a file it did not lay out"

# falloc: each request an fallocate of its range, counted as fio's; a
# randtrim punches the whole file out; a read job allocates (needs write
# access to its own file) and is no error
printf '[global]\nioengine=falloc\nsize=1m\nbs=4k\nfilename=frag\n[alloc]\nrw=write\n[punch]\nstonewall\nrw=randtrim\nnumjobs=2\n[keep]\nstonewall\nrw=read\nbs=64k\n' >"$T/fa.fio"
figs="alloc 1048576 256 256
punch 1048576 256 256
punch 1048576 256 256
keep 1048576 16 16"
as_fio fa
mkdir "$T/keep-fa"
printf '[punch]\nioengine=falloc\nsize=1m\nbs=4k\nrw=randtrim\n' >"$T/fp.fio"
expect_exit 0 "$SB" run --quiet --keep "$T/fp.fio" "$T/keep-fa"
left=$(find "$T/keep-fa" -type f -exec stat -c '%s %b' {} +)
[ "$left" = "1048576 0" ] || fail "falloc randtrim left: $left"
ok "falloc: a randtrim punched every block out"
expect_exit 2 "$SB" run --quiet --engine=falloc --rw=read --size=4k "$T/mine"
[ "$(sha256sum <"$T/mine")" = "$sum" ] || fail "falloc touched a file it did not lay out"
ok "falloc refuses a file it did not lay out"

# filecreate: fio's example at 300 files a job (over 256), two jobs, two
# loops; a filename= job makes that one file
cat >"$T/fc.fio" <<JOB
[global]
create_on_open=1
nrfiles=300
ioengine=filecreate
fallocate=none
filesize=4k
openfiles=1
[t0]
[t1]
loops=2
numjobs=2
JOB
figs="t0 1228800 300 300
t1 2457600 600 600
t1 2457600 600 600"
as_fio fc
[ "$(ls "$T/sb-fc" | wc -l)" = 0 ] || fail "filecreate left $(ls "$T/sb-fc" | wc -l) files"
ok "filecreate: its files removed after the run"
if command -v fio >/dev/null 2>&1; then
	[ "$(ls "$T/fio-fc" | wc -l)" = 900 ] || fail "fio's filecreate made $(ls "$T/fio-fc" | wc -l)"
fi
mkdir "$T/keep-fc"
expect_exit 0 "$SB" run --quiet --keep "$T/fc.fio" "$T/keep-fc"
[ "$(ls "$T/keep-fc" | wc -l)" = 900 ] || fail "filecreate --keep: $(ls "$T/keep-fc" | wc -l) files"
[ "$(find "$T/keep-fc" -type f -size 0 | wc -l)" = 900 ] || fail "filecreate: files not empty"
ok "filecreate --keep: fio's 900 files, as fio names them"
# run again there: the names exist, a refusal, nothing removed
expect_exit 3 "$SB" run --quiet "$T/fc.fio" "$T/keep-fc"
[ "$(ls "$T/keep-fc" | wc -l)" = 900 ] || fail "filecreate refused removed files"
ok "filecreate: names that exist are a refusal, left as they were"
# a symlink planted at one of the names: refused, never followed
mkdir "$T/plant"
ln -s "$T/mine" "$T/plant/t0.0.7"
expect_exit 3 "$SB" run --quiet "$T/fc.fio" "$T/plant"
[ "$(sha256sum <"$T/mine")" = "$sum" ] || fail "filecreate wrote through a symlink"
[ "$(ls "$T/plant")" = t0.0.7 ] || fail "filecreate left: $(ls "$T/plant" | head -3)"
ok "filecreate: a planted symlink refused, its target left whole"
printf '[job1]\nioengine=filecreate\nsize=4k\nfilename=t0035file1\n' >"$T/fcn.fio"
figs="job1 4096 1 1"
as_fio fcn
expect_exit 2 "$SB" run --quiet --engine=filecreate --size=4k "$T/mine"
[ "$(sha256sum <"$T/mine")" = "$sum" ] || fail "filecreate touched a file the user named"
ok "filecreate refuses a file the user named"
# more than 256 files: filecreate's alone; psync's refused before anything is made
printf '[j]\nnrfiles=257\nsize=2m\n' >"$T/many.fio"
mkdir "$T/many"
expect_exit 2 "$SB" run --quiet "$T/many.fio" "$T/many"
grep -q "nrfiles: at most 256 files" "$T/err" || fail "nrfiles=257: $(cat "$T/err")"
[ -z "$(ls -A "$T/many")" ] || fail "nrfiles=257 refused made files"
ok "nrfiles=257 with psync refused, nothing made"
# --parse-only refuses what the run refuses: nrfiles past 256, or 256
# files in all past the clones of a job holding its files open
printf '[j]\nnrfiles=100\nnumjobs=3\nsize=2m\n' >"$T/many3.fio"
for f in many many3; do
	expect_exit 2 "$SB" fio --parse-only "$T/$f.fio"
	grep -q "line 2: nrfiles: " "$T/err" || fail "$f --parse-only: $(cat "$T/err")"
	rc=0
	(cd "$T/many" && "$SB" fio "$T/$f.fio" >/dev/null 2>&1) || rc=$?
	[ "$rc" = 2 ] || fail "$f: the run exited $rc, not 2"
	[ -z "$(ls -A "$T/many")" ] || fail "$f refused made files"
done
printf '[j]\nioengine=filedelete\nnrfiles=100000\nnumjobs=3\nfilesize=4k\n' >"$T/many4.fio"
expect_exit 0 "$SB" fio --parse-only "$T/many4.fio"
ok "--parse-only and the run agree on nrfiles"

# fio's filename_format in job files: the job's files in its directory are
# named as fio's make_filename names them ($jobname the section's,
# $jobnum the numjobs clone, $filenum the file, matched in any case,
# $clientuid nothing), with nrfiles and without, compared with the names
# the real fio makes where it is installed; a format whose name is not a
# file inside the directory ('/', '.', '..', empty) is refused before
# anything is written, and nothing outside the directory appears (nor with
# a job's name such as [../esc] in fio's default names); a file of the
# same name already there is never written.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/sb" "$T/fio" "$T/o"
cat >"$T/f.fio" <<'JOB'
[global]
rw=write
bs=4k
size=64k
[sec]
filename_format=f.$jobname.$JOBNUM.$filenum$clientuid
numjobs=2
nrfiles=2
[one]
filename_format=$jobname-$jobnum.dat
[plain]
nrfiles=2
JOB
expect_exit 0 "$SB" run --quiet --keep "$T/f.fio" "$T/sb"
# "NAME SIZE" of each file in DIR
listing() { (cd "$1" && for f in *; do printf '%s %s,' "$f" "$(stat -c %s "$f")"; done); }
names=$(listing "$T/sb")
want="f.sec.0.0 32768,f.sec.0.1 32768,f.sec.1.0 32768,f.sec.1.1 32768,one-0.dat 65536,"
want="${want}plain.0.0 32768,plain.0.1 32768,"
[ "$names" = "$want" ] || fail "names: $names, not $want"
ok "filename_format: $names"

if command -v fio >/dev/null 2>&1; then
	(cd "$T/fio" && fio --directory="$T/fio" --output=/dev/null "$T/f.fio") || fail "fio"
	fnames=$(listing "$T/fio")
	[ "$fnames" = "$names" ] || fail "fio named $fnames, storbench $names"
	ok "fio 3.33 made the same names"
else
	ok "fio is not installed: not compared"
fi

# the name of a file already there: refused, the file untouched
mkdir "$T/busy"
echo mine >"$T/busy/one-0.dat"
sum=$(sha256sum <"$T/busy/one-0.dat")
expect_exit 2 "$SB" run --quiet "$T/f.fio" "$T/busy"
[ "$(sha256sum <"$T/busy/one-0.dat")" = "$sum" ] || fail "a file already there was written"
ok "a file already under the name is not written ($(head -c 120 "$T/err"))"

# names outside the directory: refused, nothing written anywhere
for bad in '../x' '/tmp/x.$jobnum' 'a/$filenum' '.' '..' '$jobname/..' '$clientuid'; do
	printf '[j]\nrw=write\nsize=64k\nfilename_format=%s\n' "$bad" >"$T/b.fio"
	expect_exit 2 "$SB" run --quiet "$T/b.fio" "$T/o"
	grep -qF "filename_format: '$bad' names no file inside the job's directory" "$T/err" ||
		fail "$bad: $(cat "$T/err")"
done
[ -z "$(ls -A "$T/o")" ] || fail "files made: $(ls -A "$T/o")"
[ "$(ls -A "$T" | grep -c '^x')" = 0 ] || fail "a file outside the directory"
long=$(printf 'n%.0s' $(seq 300))
printf '[j]\nrw=write\nsize=64k\nfilename_format=%s\n' "$long" >"$T/b.fio"
expect_exit 2 "$SB" run --quiet "$T/b.fio" "$T/o"
grep -q "filename_format: 'nnnn.*' is not valid (expected a name of at most 255 bytes)" "$T/err" ||
	fail "a long format: $(cat "$T/err")"
ok "names outside the directory and too long refused, nothing written"

# a job's name with a '/' in fio's default names (nrfiles): refused, where
# it once wrote outside the directory
printf '[global]\nrw=write\nsize=64k\nnrfiles=2\n[../esc]\n' >"$T/esc.fio"
expect_exit 2 "$SB" run --quiet --keep "$T/esc.fio" "$T/o"
grep -qF "job '../esc': the names of its files ('\$jobname.\$jobnum.\$filenum') are not files inside" \
	"$T/err" || fail "[../esc]: $(cat "$T/err")"
[ -z "$(ls -A "$T/o")" ] && ! ls "$T"/esc.0.* >/dev/null 2>&1 || fail "[../esc] wrote: $(ls -A "$T")"
ok "a section [../esc] with nrfiles=2: refused, nothing written in or beside the directory"

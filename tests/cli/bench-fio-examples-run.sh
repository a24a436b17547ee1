# bench/fio-examples-run --scale: a job file naming a device, an absolute
# file and directory, 1 GiB and a 900 s runtime is rewritten into the
# run's own temporary directory (the line says so, with the factor) and
# compared with fio; a NAME-pre.fio runs first in the same directory; a
# rewritten file still naming an absolute path is not run; jobs making
# more files than --max-files have nrfiles and openfiles divided by the
# factor that brings them within it (said in the line, as fio's
# filecreate, filestat and filedelete examples), and a sequential
# rw=write:HOLE has its hole scaled with the offsets, so that jobs
# verifying stripes of one file (cross-stripe-verify) do not overwrite
# each other; nothing outside the temporary directories is touched (the
# absolute names the files give do not exist afterwards, the directory
# it runs from stays empty). Needs the real fio.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
command -v fio >/dev/null 2>&1 || skip "fio is not installed"
BENCH=$(dirname "$0")/../../bench/fio-examples-run
dev=/dev/sb-fioex-$$
abs=/tmp/sb-fioex-$$
mkdir -p "$T/ex/examples" "$T/work"
printf '[w]\nfilename=%s\nrw=randwrite\nbs=4k\nverify=crc32c\n' "$dev" >"$T/ex/examples/dev.fio"
printf '[global]\ndirectory=%s\nsize=1g\nbs=64k\n[a]\nrw=write\n[b]\nstonewall\nrw=read\n' \
	"$abs.d" >"$T/ex/examples/big.fio"
printf '[t]\nfilename=%s\nsize=8m\nrw=randread\ntime_based\nruntime=900\n' "$abs.f" \
	>"$T/ex/examples/long.fio"
printf '[p]\nfilename=pp\nsize=1m\nrw=write\n' >"$T/ex/examples/pair-pre.fio"
printf '[q]\nfilename=pp\nrw=read\n' >"$T/ex/examples/pair.fio"
printf '[l]\nfilename=ll\nsize=1m\nrw=write\nwrite_iolog=%s.log\n' "$abs" >"$T/ex/examples/left.fio"
for eng in filecreate filestat filedelete; do
	printf '[global]\nioengine=%s\nnrfiles=1000\nfilesize=4k\nopenfiles=1000\nunlink=0\n[a]\n[b]\n' \
		"$eng" >"$T/ex/examples/$eng.fio"
done
printf '[global]\nbs=16k\nrw=write:112k\nverify=crc32c\nfilename=%s\nverify_backlog=1\n' "$dev.s" \
	>"$T/ex/examples/stripes.fio"
printf 'offset_increment=124g\nio_size=120g\noffset=120k\n[v]\nnumjobs=8\n' >>"$T/ex/examples/stripes.fio"
mkdir "$T/cwd"
(cd "$T/cwd" && TMPDIR=$T/work SB_BIN=$SB python3 "$BENCH" -v --max-bytes 16m --max-files 256 \
	"$T/ex/examples") >"$T/out" 2>&1 || { cat "$T/out"; fail "the bench failed"; }
cat "$T/out"
line() { grep "^examples/$1 " "$T/out"; }
line dev.fio | grep -q "same .*rewritten: .*$dev as a 8 MiB file" || fail "dev.fio: $(line dev.fio)"
line big.fio | grep -q "same .*rewritten: sizes /128" || fail "big.fio: $(line big.fio)"
line long.fio | grep -q "same .*rewritten: .*runtime 2s" || fail "long.fio: $(line long.fio)"
line pair.fio | grep -q "same" || fail "pair.fio (its pre first): $(line pair.fio)"
line left.fio | grep -q "too big .*absolute path left: write_iolog=$abs.log" || fail "left.fio: $(line left.fio)"
for eng in filecreate filestat filedelete; do
	line $eng.fio | grep -q "same .*rewritten: sizes /8, nrfiles /8" || fail "$eng.fio: $(line $eng.fio)"
done
line stripes.fio | grep -q "same .*rewritten: sizes /.*rw holes /" || fail "stripes.fio: $(line stripes.fio)"
tail -1 "$T/out" | grep -q "^9 same, 0 differ, 0 refused, 0 failed, 1 too big, 0 fio fails (7 of them rewritten)$" ||
	fail "last line: $(tail -1 "$T/out")"
ok "device, absolute paths, sizes, file counts, holes and runtimes rewritten; a pre runs first; an absolute path left is not run"
has_entries "$T/cwd" && fail "files made where the bench ran: $(ls "$T/cwd" | head -3)"
for p in "$dev" "$dev.s" "$abs.d" "$abs.f" "$abs.log"; do
	[ ! -e "$p" ] || fail "$p was made"
done
has_entries "$T/work" && fail "temporary directories left: $(ls "$T/work")"
ok "nothing outside the temporary directories touched, and they are gone"

# fio's data engines mmap, vsync and splice in job files: the same job entries,
# io_bytes, total_ios and clat samples as fio's (where fio is installed)
# for write, read and randrw, buffered and direct (fio's mmap: not really
# direct), vsync merging adjacent requests at iodepth 8; what mmap wrote
# checked by verify (every block intact); a read-only job never maps the
# file to write.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/fiocmp.sh"

# buffered reads of a small file: the page-cache warning is expected
cache_warned=1
direct_ok=1
probe=$(mktemp "$T/probe.XXXXXX")
dd if=/dev/zero of="$probe" bs=4k count=1 oflag=direct 2>/dev/null || direct_ok=0
for eng in mmap vsync splice; do
	cat >"$T/$eng.fio" <<JOB
[global]
ioengine=$eng
size=1m
bs=4k
filename=data
[w]
rw=write
verify=crc32c
[r]
stonewall
rw=read
[rw]
stonewall
rw=randrw
[deep]
stonewall
rw=write
iodepth=8
iodepth_batch=8
JOB
	figs="w 2097152 512 512
r 1048576 256 256
rw 1048576 256 256
deep 1048576 256 256"
	if [ $direct_ok = 1 ]; then
		printf '[d]\nstonewall\nrw=randread\ndirect=1\nbs=64k\n[dw]\nstonewall\nrw=randwrite\ndirect=1\n' >>"$T/$eng.fio"
		figs="$figs
d 1048576 16 16
dw 1048576 256 256"
	fi
	as_fio $eng
	grep -q "256 blocks of 4096 B checked, 0 not intact" "$T/$eng.err" ||
		fail "$eng: verify: $(grep verify "$T/$eng.err")"
	ok "$eng: what it wrote verified intact"
done
[ $direct_ok = 1 ] || echo "note: no O_DIRECT under $T: direct jobs left out"

# a read job on a file the user named: mapped to read only, left whole
head -c 1048576 /dev/urandom >"$T/mine"
sum=$(sha256sum <"$T/mine")
expect_exit 0 "$SB" run --quiet --engine=mmap --rw=randread --size=1m "$T/mine"
[ "$(sha256sum <"$T/mine")" = "$sum" ] || fail "mmap read changed the file"
ok "mmap: a read job leaves the file byte for byte"

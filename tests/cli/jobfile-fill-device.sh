# fio's fill_device (fill_fs) in job files: a write job on a file writes
# until the file system is full, and the full file system (ENOSPC) ends
# it as done, not as an error (exit 0, error 0 in the JSON), as fio: a
# new file without size= gets the space free (on an 8 MiB tmpfs of its
# own, 8 MiB in 128 writes of 64 KiB, fio's total_ios counting the 129th
# that found no space, as fio's does), one with a size above the space
# writes what fits, one with a smaller size its size; fio on a tmpfs of
# its own moves the same bytes in as many requests. Without fill_device
# a job that fills the file system is still an error (exit 1).
# needs: root
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/m" "$T/f"
mount -t tmpfs -o size=8m none "$T/m" || skip "cannot mount a tmpfs"
trap 'unmount "$T/m" "$T/f"; cleanup' EXIT INT TERM
have_fio=0
command -v fio >/dev/null 2>&1 && mount -t tmpfs -o size=8m none "$T/f" && have_fio=1

run() { # NAME SIZE-LINE: storbench (and fio) fill an empty tmpfs
	printf '[%s]\nbs=64k\nioengine=psync\nfilename=datafile.tmp\nrw=write\nfill_device=1\n%s\n' \
		"$1" "$2" >"$T/$1.fio"
	rm -f "$T/m/"*
	(cd "$T/m" && "$SB" fio --output-format=json --output="$T/$1.json" "$T/$1.fio") \
		>"$T/err" 2>&1 || { cat "$T/err"; fail "$1: fill_device refused or failed"; }
	json "$T/$1.json" "'%d %d %d' % (d['jobs'][0]['error'], d['jobs'][0]['write']['io_bytes'], d['jobs'][0]['write']['total_ios'])"
	if [ $have_fio = 1 ]; then
		rm -f "$T/f/"*
		(cd "$T/f" && fio --output-format=json --output="$T/$1.fio.json" "$T/$1.fio") >/dev/null 2>&1
		json "$T/$1.fio.json" "'%d %d %d' % (d['jobs'][0]['error'], d['jobs'][0]['write']['io_bytes'], d['jobs'][0]['write']['total_ios'])"
	fi
}
set -- $(run nosize "")
[ "$1 $2 $3" = "0 8388608 129" ] || fail "no size: $1 $2 $3"
[ $have_fio = 0 ] || [ "$4 $5 $6" = "0 8388608 129" ] || fail "fio, no size: $4 $5 $6"
ok "fill_device, no size: the 8 MiB free written, the full file system no error${4:+ (fio the same)}"
set -- $(run above size=16m)
[ "$1 $2 $3" = "0 8388608 129" ] || fail "size above the space: $1 $2 $3"
[ $have_fio = 0 ] || [ "$4 $5 $6" = "0 8388608 129" ] || fail "fio, size above: $4 $5 $6"
ok "fill_device, size=16m on 8 MiB: what fits written, no error${4:+ (fio the same)}"
set -- $(run below size=2m)
[ "$1 $2 $3" = "0 2097152 32" ] || fail "size below the space: $1 $2 $3"
[ $have_fio = 0 ] || [ "$4 $5 $6" = "0 2097152 32" ] || fail "fio, size below: $4 $5 $6"
ok "fill_device, size=2m: its size${4:+ (fio the same)}"

# without fill_device, the full file system is an error, as in fio
printf '[w]\nbs=64k\nfilename=datafile.tmp\nrw=write\nsize=4m\n' >"$T/w.fio"
rm -f "$T/m/"*
python3 -c "open('$T/m/big', 'wb').write(b'x' * (6 << 20))"
(cd "$T/m" && "$SB" fio --output-format=json --output="$T/w.json" "$T/w.fio") >"$T/err" 2>&1
rc=$?
[ $rc = 1 ] || [ $rc = 3 ] || fail "without fill_device, a full file system: exit $rc: $(cat "$T/err")"
ok "without fill_device, no room: exit $rc"
printf '[b]\nioengine=null\nsize=1m\nfill_device=2\n' >"$T/b.fio"
expect_exit 2 "$SB" fio "$T/b.fio"
grep -q "line 4: fill_device: '2' is not valid" "$T/err" || fail "fill_device=2: $(cat "$T/err")"
ok "fill_device=2 refused, naming line and option"

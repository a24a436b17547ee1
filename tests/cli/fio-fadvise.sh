#!/bin/sh
# fio's fadvise_hint (1 by default): a job's files are advised as they open,
# POSIX_FADV_SEQUENTIAL for a sequential job (the kernel's readahead twice
# as large), RANDOM for a random one (no readahead: a request is a read of
# the device). Counted in the device's reads (/sys/block/X/stat) of buffered
# jobs on an ext4 file system on a zram device of the test's own, against
# live fio where installed; fadvise_hint=0 gives none, random gives random's
# on a sequential job. No timing.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

z=$(make_zram 128M) || skip "no zram device"
n=${z#/dev/}
echo 128 >"/sys/block/$n/queue/read_ahead_kb" 2>/dev/null
mkfs.ext4 -q -F "$z" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
mkdir "$T/m"
mount "$z" "$T/m" || skip "cannot mount ext4 on $z"
trap 'unmount "$T/m"; cleanup' EXIT INT TERM
dd if=/dev/urandom of="$T/m/f" bs=1M count=32 status=none && sync || fail "the file"

# the device's read requests while CMD... runs (each job drops the file's
# cache first: fio's invalidate)
reads() {
	b=$(awk '{print $1}' "/sys/block/$n/stat")
	# in $(...): what failed said on stderr
	"$@" >"$T/out" 2>"$T/err" || { cat "$T/out" "$T/err" >&2 && fail "'$*' failed" >&2; }
	echo $(($(awk '{print $1}' "/sys/block/$n/stat") - b))
}
job="--name=j --filename=$T/m/f --bs=4k --size=32m"

# sequential: 32 MiB in readahead's 256 KiB (SEQUENTIAL's doubled window),
# about 128 reads; without the advice 128 KiB, about 256
# shellcheck disable=SC2086 # the job's words
seq=$(reads "$SB" fio $job --rw=read) || exit 1
# shellcheck disable=SC2086
none=$(reads "$SB" fio $job --rw=read --fadvise_hint=0) || exit 1
[ $((seq * 3 / 2)) -lt "$none" ] ||
	fail "a sequential job is not advised SEQUENTIAL: $seq device reads, $none without the hint"
ok "rw=read: $seq device reads, $none with fadvise_hint=0"

# random: every 4 KiB request a read of its own (8192), no readahead
# shellcheck disable=SC2086
rnd=$(reads "$SB" fio $job --rw=randread) || exit 1
[ "$rnd" -ge 8192 ] || fail "a random job is not advised RANDOM: $rnd device reads for 8192 requests"
ok "rw=randread: $rnd device reads for 8192 requests"

# fadvise_hint=random on a sequential job: random's advice, no readahead
# shellcheck disable=SC2086
forced=$(reads "$SB" fio $job --rw=read --fadvise_hint=random) || exit 1
[ "$forced" -ge 8192 ] || fail "fadvise_hint=random: $forced device reads, not one a request"
ok "fadvise_hint=random on rw=read: $forced device reads"

expect_exit 2 "$SB" fio --name=j --filename="$T/m/f" --size=1m --fadvise_hint=normal
grep -q "fadvise_hint" "$T/err" || fail "fadvise_hint=normal: the refusal does not name it"
ok "fadvise_hint=normal refused, as fio 3.33"

# fio on the same jobs: the same counts, within a tenth
if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	fseq=$(reads fio $job --rw=read) || exit 1
	# shellcheck disable=SC2086
	frnd=$(reads fio $job --rw=randread) || exit 1
	within_pct "$seq" "$fseq" 10 && within_pct "$rnd" "$frnd" 10 ||
		fail "fio: $fseq and $frnd device reads; storbench $seq and $rnd"
	ok "fio 3.33 on the same jobs: $fseq and $frnd device reads"
else
	ok "fio is not installed: not compared"
fi

# fio's dedupe_percentage, dedupe_mode (repeat, working_set),
# dedupe_working_set_percentage and dedupe_global in job files: the files
# written hold the share of duplicate 4 KiB blocks asked (counted with a
# small script), near what fio's own files hold on the same job file where
# fio is installed; a duplicate buffer is a whole request's (bs=16k: four
# blocks at once); dedupe_global makes the jobs' files repeat each other's
# blocks (fio's examples/dedupe-global.fio, smaller); 100 makes every
# buffer the same; fio's refusals and bad values are refused naming line
# and option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# DIR: "DUPSHARE SHARED" of the files in DIR: the share of 4 KiB blocks
# that repeat one before them (all files together), and how many distinct
# blocks of the first file are also in another
dups() {
	python3 - "$1" <<'PY'
import os, sys, collections
d = sys.argv[1]
names = sorted(os.listdir(d))
files = [open(os.path.join(d, n), 'rb').read() for n in names]
seen, total, dup = set(), 0, 0
for b in files:
    for i in range(0, len(b), 4096):
        blk = b[i:i + 4096]
        total += 1
        dup += blk in seen
        seen.add(blk)
first = {files[0][i:i + 4096] for i in range(0, len(files[0]), 4096)}
rest = {f[i:i + 4096] for f in files[1:] for i in range(0, len(f), 4096)}
print('%.3f %d' % (dup / total, len(first & rest)))
PY
}
# JOB: runs the job file in a directory of its own, prints dups of it
sb_dups() {
	rm -rf "$T/d" && mkdir "$T/d"
	"$SB" run --quiet --keep "$1" "$T/d" >/dev/null 2>"$T/err" || fail "$1: $(cat "$T/err")"
	dups "$T/d"
}
fio_dups() {
	rm -rf "$T/f" && mkdir "$T/f"
	(cd "$T/f" && fio --directory="$T/f" --output=/dev/null "$1") || fail "fio $1"
	dups "$T/f"
}
job() { # OPTIONS...
	printf '[global]\nrw=write\nsize=8m\nbs=4k\n'
	for l in "$@"; do printf '%s\n' "$l"; done
	printf '[w]\n'
}
# share LO HI: the first word of $got between LO and HI
within() { python3 -c "import sys; v = float('$got'.split()[0]); sys.exit(not $1 <= v <= $2)"; }
close_to() { python3 -c "import sys; sys.exit(abs(float('$1'.split()[0]) - float('$2'.split()[0])) > $3)"; }

havefio=0
command -v fio >/dev/null 2>&1 && havefio=1
i=0
for opts in "dedupe_percentage=30" \
	"dedupe_percentage=30|dedupe_mode=working_set|dedupe_working_set_percentage=10" \
	"dedupe_percentage=30|buffer_compress_percentage=50" "dedupe_percentage=60|bs=16k"; do
	i=$((i + 1))
	# shellcheck disable=SC2046
	job $(printf '%s' "$opts" | tr '|' ' ') >"$T/j$i.fio"
	want=${opts#dedupe_percentage=}
	want=${want%%|*}
	got=$(sb_dups "$T/j$i.fio") || fail "$got"
	within "$(python3 -c "print($want / 100 - 0.06)")" "$(python3 -c "print($want / 100 + 0.06)")" ||
		fail "$opts: $got of the blocks repeat, asked $want%"
	if [ $havefio = 1 ]; then
		fgot=$(fio_dups "$T/j$i.fio") || fail "$fgot"
		close_to "$got" "$fgot" 0.05 || fail "$opts: $got repeat, fio's file $fgot"
		ok "$opts: $got of the blocks repeat, fio's $fgot"
	else
		ok "$opts: $got of the blocks repeat"
	fi
done

# bs=16k: a duplicate buffer is four duplicate blocks, never one alone
job dedupe_percentage=50 bs=16k >"$T/b16.fio"
rm -rf "$T/d" && mkdir "$T/d"
"$SB" run --quiet --keep "$T/b16.fio" "$T/d" >/dev/null 2>"$T/err" || fail "bs=16k: $(cat "$T/err")"
python3 - "$T/d" <<'PY' || fail "bs=16k: a duplicate block alone"
import os, sys
d = sys.argv[1]
b = open(os.path.join(d, os.listdir(d)[0]), 'rb').read()
seen, runs = set(), []
for i in range(0, len(b), 4096):
    runs.append(b[i:i + 4096] in seen)
    seen.add(b[i:i + 4096])
for k in range(0, len(runs), 4):
    assert len(set(runs[k:k + 4])) == 1, (k, runs[k:k + 4])
PY
ok "bs=16k: duplicates come four blocks at a time"

job dedupe_percentage=100 >"$T/all.fio"
got=$(sb_dups "$T/all.fio") || fail "$got"
within 0.999 1 || fail "dedupe_percentage=100: $got"
ok "dedupe_percentage=100: every buffer the same ($got)"

# fio's examples/dedupe-global.fio, 8 MiB per job
cat >"$T/global.fio" <<'JOB'
[global]
ioengine=libaio
iodepth=256
size=8m
dedupe_mode=working_set
dedupe_global=1
dedupe_percentage=50
blocksize=4k
rw=write
buffer_compress_percentage=50
dedupe_working_set_percentage=50
[a]
[b]
JOB
got=$(sb_dups "$T/global.fio") || fail "$got"
shared=${got#* }
within 0.35 0.56 && [ "$shared" -gt 100 ] || fail "dedupe_global: $got"
if [ $havefio = 1 ]; then
	fgot=$(fio_dups "$T/global.fio") || fail "$fgot"
	close_to "$got" "$fgot" 0.1 || fail "dedupe_global: $got, fio's files $fgot"
	ok "dedupe_global: $got (share, blocks of a also in b), fio's $fgot"
else
	ok "dedupe_global: $got (share, blocks of a also in b)"
fi

for bad in "dedupe_percentage=101|is not valid" "dedupe_mode=once|is not valid" \
	"dedupe_working_set_percentage=x|is not valid" "dedupe_global=2|is not valid"; do
	job "${bad%%|*}" >"$T/b.fio"
	expect_exit 2 "$SB" run --quiet "$T/b.fio" "$T/d"
	grep -q "line 5: ${bad%%=*}: .* ${bad#*|}" "$T/err" || fail "$bad: $(cat "$T/err")"
done
for bad in "dedupe_percentage=60|dedupe_mode=working_set|dedupe_working_set_percentage=50#is more than 100%" \
	"dedupe_percentage=30|verify=md5#dedupe_percentage: not with verify=" \
	"dedupe_percentage=30|dedupe_mode=working_set|nrfiles=2#one file per job, not nrfiles=2"; do
	# shellcheck disable=SC2046
	job $(printf '%s' "${bad%#*}" | tr '|' ' ') >"$T/b.fio"
	expect_exit 2 "$SB" run --quiet "$T/b.fio" "$T/d"
	grep -qF "${bad#*#}" "$T/err" || fail "$bad: $(cat "$T/err")"
done
ok "bad values and what fio refuses (a working set and duplicates over 100%, nrfiles) refused"

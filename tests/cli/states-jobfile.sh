# --precondition with a job file (docs/states.md): the jobs' one target is
# brought to the state before the first job, over the span of the jobs'
# regions and nowhere else (a file of a known pattern keeps it outside the
# span, has none of it left inside), and the state is recorded as for a
# single workload. Refusals (a purge of a file, no --destroy-data, a
# directory, jobs on different targets) change nothing and write no
# results. Issue 14.
# needs: root zram
. "$(dirname "$0")/../lib/cli.sh"

f="$T/target.bin"
python3 -c "import os,sys; sys.stdout.buffer.write(os.urandom(16 << 20))" >"$T/pattern"
cp "$T/pattern" "$f" || fail "cp"
sum=$(md5sum <"$f")
# two jobs one after the other: [4M, 6M) and [8M, 12M); their span is [4M, 12M)
cat >"$T/two.fio" <<FIO
[global]
filename=$f
rw=randread
bs=4k
time_based
runtime=200ms

[a]
offset=4M
size=2M

[b]
stonewall
offset=8M
size=4M
FIO
unchanged() { [ "$(md5sum <"$f")" = "$sum" ] || fail "$1: the file was changed"; }

# refusals first: nothing written, no results file
expect_exit 2 "$SB" run --precondition=fill -o "$T/no.json" "$T/two.fio"
grep -q -- "--precondition=fill: destroys what '$f' holds in the region (add --destroy-data" "$T/err" ||
	{ cat "$T/err"; fail "no consent: message"; }
unchanged "without --destroy-data"
[ ! -e "$T/no.json" ] || fail "a refusal wrote results"
expect_exit 2 "$SB" run --destroy-data --precondition=purge -o "$T/no.json" "$T/two.fio"
grep -q -- "--precondition=purge: '$f' is not a block device" "$T/err" || { cat "$T/err"; fail "purge of a file: message"; }
unchanged "purge of a file"
[ ! -e "$T/no.json" ] || fail "a refused purge wrote results"
mkdir "$T/dir"
printf '[j]\nrw=read\nsize=1M\n' >"$T/dir.fio"
expect_exit 2 "$SB" run --destroy-data --precondition=fill "$T/dir.fio" "$T/dir"
grep -q -- "--precondition: with a job file, only on an existing file or block device: '$T/dir' is a directory" "$T/err" ||
	{ cat "$T/err"; fail "directory: message"; }
[ -z "$(ls "$T/dir")" ] || fail "a refused fill made files in the directory"
expect_exit 2 "$SB" run --destroy-data --precondition=fill "$T/dir.fio" "$T/new.bin"
grep -q "is not there yet" "$T/err" || { cat "$T/err"; fail "new file: message"; }
[ ! -e "$T/new.bin" ] || fail "a refused fill created the file"
printf '[a]\nfilename=%s\nrw=read\nsize=1M\n[b]\nfilename=%s\nrw=read\nsize=1M\n' "$f" "$T/pattern" >"$T/twot.fio"
expect_exit 2 "$SB" run --destroy-data --precondition=fill "$T/twot.fio"
grep -q "different targets" "$T/err" || { cat "$T/err"; fail "two targets: message"; }
unchanged "two targets"
ok "refused without --destroy-data, purge of a file, a directory, a new file, two targets: nothing written"

# fill: exactly the span, before the jobs, recorded
"$SB" run --destroy-data --precondition=fill -o "$T/fill.json" "$T/two.fio" >"$T/out" 2>"$T/err" ||
	{ cat "$T/out" "$T/err"; fail "fill with a job file"; }
python3 - "$T/pattern" "$f" <<'PY' || fail "the fill did not write exactly [4M, 12M)"
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
M = 1 << 20
assert len(a) == len(b) == 16 * M
assert a[:4 * M] == b[:4 * M] and a[12 * M:] == b[12 * M:], "changed outside the span"
same = [o for o in range(4 * M, 12 * M, 4096) if a[o:o + 4096] == b[o:o + 4096]]
assert not same, "%d blocks of the span not written (first at %d)" % (len(same), same[0])
PY
[ "$(json "$T/fill.json" '[d["storbench"]["state"][k] for k in ("name", "precondition", "region_offset", "region_bytes", "written_bytes")]')" = \
	"['full', 'fill', $((4 << 20)), $((8 << 20)), $((8 << 20))]" ] || fail "state: $(json "$T/fill.json" 'd["storbench"]["state"]')"
[ "$(json "$T/fill.json" '[j["jobname"] for j in d["jobs"]]')" = "['a', 'b']" ] || fail "the jobs did not run"
grep -q "^state: full (128 KiB sequential writes: 8.00 MiB written over 8.00 MiB" "$T/out" ||
	{ cat "$T/out"; fail "state not in the text header"; }
ok "fill: [4M, 12M) written before the jobs, the rest untouched, state 'full' recorded"

# fill-random and --discard-before take the same way
"$SB" run --destroy-data --precondition=fill-random:1M --discard-before -o "$T/fr.json" "$T/two.fio" \
	>"$T/out" 2>"$T/err" || { cat "$T/out" "$T/err"; fail "fill-random with a job file"; }
[ "$(json "$T/fr.json" '[d["storbench"]["state"][k] for k in ("name", "written_bytes", "discard_bytes")]')" = \
	"['full (random), then discarded', $((1 << 20)), $((8 << 20))]" ] || fail "fill-random: $(json "$T/fr.json" 'd["storbench"]["state"]')"
ok "fill-random:1M and --discard-before with a job file: recorded"

# a zram device of our own: the whole device when a job has no size
z=$(make_zram 32M) || skip "no zram device of our own (the file checks passed)"
writes() { awk '{ print $7 }' "/sys/block/${z#/dev/}/stat"; } # sectors written
printf '[r]\nfilename=%s\nrw=randread\nbs=4k\ndirect=1\ntime_based\nruntime=200ms\n' "$z" >"$T/z.fio"
w0=$(writes)
"$SB" run --destroy-data --precondition=fill -o "$T/z.json" "$T/z.fio" >"$T/out" 2>"$T/err" ||
	{ cat "$T/out" "$T/err"; fail "zram fill with a job file"; }
[ $(($(writes) - w0)) = $(((32 << 20) / 512)) ] || fail "zram saw $(($(writes) - w0)) sectors written, not 32 MiB"
[ "$(json "$T/z.json" 'd["storbench"]["state"]["name"]')" = full ] || fail "zram: state"
expect_exit 0 "$SB" run --destroy-data --precondition=purge -o "$T/zp.json" "$T/z.fio"
[ "$(json "$T/zp.json" '(d["storbench"]["state"]["name"], d["storbench"]["state"]["purge"])')" = "('purged', 'discard')" ] ||
	fail "zram purge: $(json "$T/zp.json" 'd["storbench"]["state"]')"
ok "zram: fill (32 MiB, zram's counter) and purge with a job file, recorded"

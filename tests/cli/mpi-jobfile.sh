# storbench run JOB.fio, run --verify and storbench fio under mpirun -n 3 (a
# build with make MPI=1): every rank runs the job file on its own target (a
# directory of its own under the job file's directory=, removed after),
# each stonewall group starting on every rank together and after the group
# before it ended on every rank; rank 0's result has each rank's figures per
# job in client_stats and the All clients aggregate, bytes the ranks' sum
# and the latency buckets merged exactly; one rank refusing its target stops
# every rank before any write; --verify and a job's verify= check each
# rank's own data, and one rank's damaged data (faultfs) fails the job,
# naming the rank; --precondition=fill fills every rank's own file before
# the measurement, each rank's state in the result, and one rank's
# refusal or failed fill stops all, named.
# needs: fuse mpi slow
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader"

# 1. three jobs: two at once (one of them numjobs=2), then one after a
# stonewall; each timed 1 s, so that the ranks' starts lie well within it
mkdir "$T/d"
cat >"$T/two.fio" <<JOB
[global]
directory=$T/d
size=2M
bs=4k
runtime=1
time_based

[wseq]
rw=write

[rrand]
rw=randread
numjobs=2

[later]
stonewall
rw=read
JOB
expect_exit 0 $MPI -n 3 "$SB" run --quiet --output="$T/r.json" "$T/two.fio"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' files were left: $(ls -A "$T/d")"
grep -q "^wseq (All clients: 3 ranks)" "$T/out" || fail "no aggregate in the text: $(cat "$T/out")"
python3 - "$T/r.json" <<'PY' || fail "aggregate check"
import json, sys
d = json.load(open(sys.argv[1]))
names = [j["jobname"] for j in d["jobs"]]
assert names == ["wseq", "rrand", "later"], names
cs = d["client_stats"]
assert len(cs) == 3 * 4, len(cs)
per = {}
for k, name in enumerate(names):
    part = cs[4 * k:4 * k + 4]
    assert [c["jobname"] for c in part] == [name] * 3 + ["All clients"], part
    assert sorted(c["rank"] for c in part[:3]) == [0, 1, 2]
    job = d["jobs"][k]
    for dd in ("read", "write"):
        total = sum(c[dd]["io_bytes"] for c in part[:3])
        assert job[dd]["io_bytes"] == total == part[3][dd]["io_bytes"], (name, dd)
        assert job[dd]["total_ios"] == sum(c[dd]["total_ios"] for c in part[:3])
    moved = "write" if name == "wseq" else "read"
    assert all(c[moved]["io_bytes"] > 0 for c in part[:3]), (name, "a rank moved nothing")
    # the buckets of the aggregate are the ranks' summed
    merged = {}
    for c in part[:3]:
        for lo, hi, n in c["storbench"]["clat_bins"][moved]:
            merged[(lo, hi)] = merged.get((lo, hi), 0) + n
    mine = {(lo, hi): n for lo, hi, n in part[3]["storbench"]["clat_bins"][moved]}
    assert mine == merged, name
    per[name] = [(c["storbench"]["start_s"], c["storbench"]["end_s"]) for c in part[:3]]
# a group starts on every rank before it ends on any (its jobs 1 s each)
g1 = per["wseq"] + per["rrand"]
assert max(s for s, e in g1) < min(e for s, e in g1), g1
assert max(s for s, e in per["later"]) < min(e for s, e in per["later"]), per["later"]
# the stonewall: the second group starts after the first ended on every rank
assert min(s for s, e in per["later"]) > max(e for s, e in g1), (per["later"], g1)
PY
ok "3 ranks, 2 groups: every job the ranks' sum, groups together and in order, files removed"

# 2. --keep: each rank's files are in a directory of its own, and only there
expect_exit 0 $MPI -n 3 "$SB" run --quiet --keep --runtime=200ms "$T/two.fio"
[ "$(ls -A "$T/d" | tr '\n' ' ')" = "storbench-rank-0 storbench-rank-1 storbench-rank-2 " ] ||
	fail "not a directory a rank: $(ls -A "$T/d")"
for r in 0 1 2; do
	# wseq's file, rrand's two (numjobs=2) and later's
	[ "$(find "$T/d/storbench-rank-$r" -type f ! -name .storbench-rank | wc -l)" = 4 ] ||
		fail "rank $r's files: $(find "$T/d/storbench-rank-$r")"
	# its marker says the files were kept, so no later run takes them
	[ "$(tail -n 1 "$T/d/storbench-rank-$r/.storbench-rank")" = kept ] ||
		fail "rank $r's marker does not say kept: $(cat "$T/d/storbench-rank-$r/.storbench-rank")"
done
rm -rf "$T/d"/storbench-rank-*
ok "--keep: the ranks' files each in the rank's directory"

# 3. rank 2's target is a file storbench did not create: nobody writes
head -c 1048576 /dev/urandom >"$T/theirs.bin"
sum=$(md5sum <"$T/theirs.bin")
printf '[w]\nrw=write\nsize=1M\n' >"$T/one.fio"
expect_exit 2 $MPI -n 2 "$SB" run --quiet "$T/one.fio" "$T/d" \
	: -n 1 "$SB" run --quiet "$T/one.fio" "$T/theirs.bin"
grep -q "rank 2 on [^ ]*: refusing to overwrite" "$T/err" || fail "rank 2 not named: $(cat "$T/err")"
grep -q "rank 2 refused or failed: no rank goes on" "$T/err" || fail "no stop: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "a rank wrote though rank 2 refused: $(ls -A "$T/d")"
[ "$(md5sum <"$T/theirs.bin")" = "$sum" ] || fail "the refused file was changed"
# jobs that run together: the same refusal from their shared target, and a
# file on some ranks against a directory on others is refused as such
# (three ranks of one host check one file: a rank that finds another
# holding it while it checks refuses with 3, the target in use, else 2)
$MPI -n 3 "$SB" run --quiet --size=512k "$T/two.fio" "$T/theirs.bin" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || [ $rc = 3 ] || fail "group on a file: exit $rc: $(cat "$T/err")"
grep -q "refusing to overwrite\|another storbench run .* is using it" "$T/err" ||
	fail "group on a file: $(cat "$T/err")"
expect_exit 2 $MPI -n 2 "$SB" run --quiet "$T/two.fio" \
	: -n 1 "$SB" run --quiet "$T/two.fio" "$T/theirs.bin"
grep -q "the ranks' targets differ" "$T/err" || fail "mixed kinds: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "a rank wrote: $(ls -A "$T/d")"
[ "$(md5sum <"$T/theirs.bin")" = "$sum" ] || fail "the refused file was changed"
# a new file named by filename= is every rank's same path on one host:
# the ranks that find it made by another stop all, and it is removed
printf '[w]\nfilename=%s\nrw=write\nsize=1M\n' "$T/new.bin" >"$T/new.fio"
$MPI -n 3 "$SB" run --quiet "$T/new.fio" >"$T/out" 2>"$T/err" && fail "three ranks made one file"
grep -q "rank [12] on [^ ]*: cannot create .$T/new.bin.: another rank made it first" "$T/err" ||
	fail "no rank named: $(cat "$T/err")"
[ ! -e "$T/new.bin" ] || fail "the file was left"
ok "one rank's refusal stops every rank before any write"

# 4. a bad job file on every rank: refused once per rank, nothing run
printf '[w]\nrw=write\nsize=1M\nbogus_option=1\n' >"$T/bad.fio"
expect_exit 2 $MPI -n 3 "$SB" run --quiet "$T/bad.fio" "$T/d"
grep -q "bogus_option" "$T/err" || fail "bad job file: $(cat "$T/err")"
[ -z "$(ls -A "$T/d")" ] || fail "a rank wrote: $(ls -A "$T/d")"
ok "a bad job file stops every rank"

# 5. run --verify: each rank checks its own target; a job's verify= too,
# and the read job after it is not checked again
expect_exit 0 $MPI -n 3 "$SB" run --verify --rw=randwrite --bs=4k --size=2M --quiet \
	--output="$T/v.json" "$T/d"
grep -q "^verify: 1536 blocks of 4096 B checked, 0 not intact, every rank's" "$T/out" ||
	fail "verify text: $(cat "$T/out")"
[ "$(grep -c "^  rank [0-2] on .*512 blocks checked, 0 not intact" "$T/out")" = 3 ] ||
	fail "no line per rank: $(cat "$T/out")"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' files were left: $(ls -A "$T/d")"
python3 - "$T/v.json" <<'PY' || fail "verify aggregate"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["storbench"]["verify"]
assert sorted(r["rank"] for r in v["ranks"]) == [0, 1, 2]
assert len(set(r["path"] for r in v["ranks"])) == 3
assert all(r["result"] == "pass" and r["blocks_checked"] == r["intact"] == 512 for r in v["ranks"])
assert v["blocks_checked"] == v["intact"] == 1536 and v["result"] == "pass"
PY
printf '[global]\ndirectory=%s\n[w]\nrw=randwrite\nsize=2M\nverify=crc32c\n[r]\nstonewall\nrw=read\nsize=2M\n' \
	"$T/d" >"$T/ver.fio"
expect_exit 0 $MPI -n 3 "$SB" run --quiet --output="$T/vj.json" "$T/ver.fio"
grep -q "^verify: 1536 blocks of 4096 B checked, 0 not intact, every rank's" "$T/out" ||
	fail "verify= text: $(cat "$T/out")"
[ "$(json "$T/vj.json" "[r['result'] for r in d['storbench']['verify']['ranks']]")" = "['pass', 'pass', 'pass']" ] ||
	fail "verify= ranks"
ok "run --verify and verify= check each rank's own data"

# 6. storbench fio: fio's command line runs the same way
expect_exit 0 $MPI -n 3 "$SB" fio --name=f --directory="$T/d" --size=1M --rw=write --bs=64k \
	--output-format=json --output="$T/f.json"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' files were left: $(ls -A "$T/d")"
[ "$(json "$T/f.json" "[(c['jobname'], c['write']['io_bytes']) for c in d['client_stats']]")" = \
	"[('f', 1048576), ('f', 1048576), ('f', 1048576), ('All clients', 3145728)]" ] ||
	fail "fio: $(json "$T/f.json" "d['client_stats']")"
[ "$(json "$T/f.json" "d['jobs'][0]['write']['io_bytes']")" = 3145728 ] || fail "fio aggregate"
# its normal layout: each rank's job, then All clients, as fio's client/server
expect_exit 0 $MPI -n 3 "$SB" fio --name=f --directory="$T/d" --size=1M --rw=write --bs=64k
[ "$(grep -c "^[^ ]* rank [0-2] f: (groupid=0, jobs=1): err= 0" "$T/out")" = 3 ] ||
	fail "fio: no job a rank: $(cat "$T/out")"
grep -q "^All clients: (groupid=0, jobs=1)" "$T/out" || fail "fio: no All clients: $(cat "$T/out")"
grep -q "^  WRITE: .*io=3072KiB" "$T/out" || fail "fio: group line not the sum: $(cat "$T/out")"
ok "storbench fio: one aggregated result"
# numjobs=2: the All clients job stays one entry (rank 0's own threads
# are not entries of it), its bytes every rank's threads'
expect_exit 0 $MPI -n 3 "$SB" fio --name=f --directory="$T/d" --size=1M --rw=write --bs=64k \
	--numjobs=2 --output-format=json --output="$T/f2.json"
[ "$(json "$T/f2.json" "[(j['jobname'], j['write']['io_bytes']) for j in d['jobs']]")" = \
	"[('f', 6291456)]" ] || fail "fio numjobs=2: $(json "$T/f2.json" "[j['jobname'] for j in d['jobs']]")"
ok "storbench fio numjobs=2 under mpirun: one All clients entry"

# 6b. --precondition=fill with a job file: every rank fills its own file
# (MPMD: a file each) before the measurement, which reads only, and the
# result records each rank's state
printf '[global]\nsize=1M\nbs=64k\nrw=read\n[a]\n[b]\nstonewall\n' >"$T/pre.fio"
for r in 0 1 2; do head -c 1048576 /dev/zero >"$T/pre$r.bin"; done
PRE="run --quiet --destroy-data --precondition=fill"
expect_exit 0 $MPI -n 1 "$SB" $PRE --output="$T/pre.json" "$T/pre.fio" "$T/pre0.bin" \
	: -n 1 "$SB" $PRE "$T/pre.fio" "$T/pre1.bin" : -n 1 "$SB" $PRE "$T/pre.fio" "$T/pre2.bin"
for r in 0 1 2; do
	# random data over the whole file: no 64 KiB block of it left zero
	python3 - "$T/pre$r.bin" <<'PY' || fail "rank $r's file was not filled"
import sys
b = open(sys.argv[1], "rb").read()
assert len(b) == 1 << 20, len(b)
assert all(any(b[i:i + 65536]) for i in range(0, len(b), 65536))
PY
done
python3 - "$T/pre.json" "$T" <<'PY' || fail "the ranks' states: $(json "$T/pre.json" "d['storbench']['state']")"
import json, sys
d = json.load(open(sys.argv[1]))
st = d["storbench"]["state"]
assert st["name"] == "full" and st["precondition"] == "fill", st
ranks = st["ranks"]
assert [r["rank"] for r in ranks] == [0, 1, 2], ranks
for r in ranks:
    assert r["path"] == "%s/pre%d.bin" % (sys.argv[2], r["rank"]), r
    assert r["name"] == "full" and r["written_bytes"] == r["region_bytes"] == 1 << 20, r
# the measurement read every rank's file after every rank filled it
assert [j["jobname"] for j in d["jobs"]] == ["a", "b"]
assert all(j["read"]["io_bytes"] == 3 << 20 for j in d["jobs"]), d["jobs"]
PY
# one rank's target cannot be brought to the state: every rank stops,
# that rank named, nothing written on the others
for r in 0 1; do head -c 1048576 /dev/zero >"$T/pre$r.bin"; done
expect_exit 2 $MPI -n 1 "$SB" $PRE "$T/pre.fio" "$T/pre0.bin" \
	: -n 1 "$SB" $PRE "$T/pre.fio" "$T/pre1.bin" : -n 1 "$SB" $PRE "$T/pre.fio" "$T/d"
grep -q "rank 2 on [^ ]*: --precondition: with a job file, only on an existing file" "$T/err" ||
	fail "rank 2 not named: $(cat "$T/err")"
grep -q "rank 2 refused or failed: no rank goes on" "$T/err" || fail "no stop: $(cat "$T/err")"
for r in 0 1; do
	cmp -s "$T/pre$r.bin" /dev/zero -n 1048576 || fail "rank $r filled though rank 2 refused"
done
ok "--precondition=fill with a job file: each rank's own file filled, every state recorded"

# 6c. the same with the workload as options: every rank fills its own file,
# then reads it
for r in 0 1 2; do head -c 1048576 /dev/zero >"$T/pre$r.bin"; done
OPT="run --quiet --destroy-data --precondition=fill --rw=read --bs=64k --size=1M"
expect_exit 0 $MPI -n 1 "$SB" $OPT --output="$T/preo.json" "$T/pre0.bin" \
	: -n 1 "$SB" $OPT "$T/pre1.bin" : -n 1 "$SB" $OPT "$T/pre2.bin"
for r in 0 1 2; do
	cmp -s "$T/pre$r.bin" /dev/zero -n 1048576 && fail "options: rank $r's file was not filled"
done
python3 - "$T/preo.json" "$T" <<'PY' || fail "options: the ranks' states: $(json "$T/preo.json" "d['storbench']['state']")"
import json, sys
d = json.load(open(sys.argv[1]))
ranks = d["storbench"]["state"]["ranks"]
assert [r["rank"] for r in ranks] == [0, 1, 2], ranks
for r in ranks:
    assert r["path"] == "%s/pre%d.bin" % (sys.argv[2], r["rank"]), r
    assert r["name"] == "full" and r["written_bytes"] == 1 << 20, r
assert d["jobs"][0]["read"]["io_bytes"] == 3 << 20, d["jobs"][0]["read"]
PY
ok "--precondition=fill with the workload as options: each rank's own file filled"

# 7. rank 2's data comes back damaged: --verify fails, naming rank 2 (last:
# without FUSE the test skips here)
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
ff_rules "flip * 12288 4096"
expect_exit 1 $MPI -n 2 "$SB" run --verify --rw=randwrite --bs=4k --size=1M --direct=0 --quiet \
	--output="$T/bad.json" "$T/d" \
	: -n 1 "$SB" run --verify --rw=randwrite --bs=4k --size=1M --direct=0 --quiet "$FF_MNT"
grep -q "^verify: FAILED on 1 of 3 ranks: rank 2 on " "$T/out" || fail "rank 2 not named: $(cat "$T/out")"
grep -q "^  rank 2 on .*256 blocks checked, 1 not intact: corrupted at 12.0 KiB" "$T/out" ||
	fail "rank 2's range: $(cat "$T/out")"
python3 - "$T/bad.json" <<'PY' || fail "damaged rank"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["storbench"]["verify"]
res = {r["rank"]: r["result"] for r in v["ranks"]}
assert res == {0: "pass", 1: "pass", 2: "fail"}, res
r2 = [r for r in v["ranks"] if r["rank"] == 2][0]
assert [(g["offset"], g["length"], g["class"]) for g in r2["bad_ranges"]] == [(12288, 4096, "corrupted")]
assert v["result"] == "fail" and v["corrupted"] == 1 and v["bad_ranges"] == []
PY
ok "one rank's damaged data fails the job, naming the rank"

# 8. rank 2's preconditioning fails (its writes fail, faultfs): every rank
# stops before the measurement, rank 2 named
head -c 1048576 /dev/zero >"$FF_MNT/pre.bin"
ff_rules "eio pre.bin 65536 4096 write"
for r in 0 1; do head -c 1048576 /dev/zero >"$T/pre$r.bin"; done
expect_exit 1 $MPI -n 1 "$SB" $PRE --direct=0 --output="$T/pf.json" "$T/pre.fio" "$T/pre0.bin" \
	: -n 1 "$SB" $PRE --direct=0 "$T/pre.fio" "$T/pre1.bin" \
	: -n 1 "$SB" $PRE --direct=0 "$T/pre.fio" "$FF_MNT/pre.bin"
grep -q "rank 2 on [^ ]*: --precondition=fill on .$FF_MNT/pre.bin. failed" "$T/err" ||
	fail "rank 2's failure not named: $(cat "$T/err")"
grep -q "rank 2 refused or failed: no rank goes on" "$T/err" || fail "no stop: $(cat "$T/err")"
[ "$(json "$T/pf.json" "len(d['jobs'])")" = 0 ] || fail "a rank measured: $(json "$T/pf.json" "d['jobs']")"
ok "one rank's failed preconditioning stops every rank, named"

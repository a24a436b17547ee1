# storbench sweep under mpirun -n 3 (a build with make MPI=1): every rank
# runs the matrix in a directory of its own, each timed pass starts on all
# ranks together (none starts a test before every rank ended the one
# before), rank 0 writes one result whose every cell is the All clients
# aggregate (the ranks' bytes over the time from the earliest start to the
# latest end) with each rank's matrices beside it; one rank refusing its
# target stops all before any write; one rank failing mid-way stops all at
# the next test; iozone is refused under mpirun.
# needs: mpi
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 180 mpirun --oversubscribe --allow-run-as-root"
BTL="--mca btl self,vader"
ARGS="--file-sizes=64k,1M,4M --record-sizes=64k,1M --tests=write,read,randread --warm --quiet"

# 1. three ranks, one directory: one result, every cell aggregated
mkdir "$T/d"
expect_exit 0 $MPI $BTL -n 3 "$SB" sweep $ARGS --output="$T/s.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "the ranks' directories were left: $(ls -A "$T/d")"
grep -q "^All clients of 3 ranks" "$T/out" || fail "no aggregate line: $(cat "$T/out")"
grep -q "^test  *rank 0  *rank 1  *rank 2  *start spread  *end spread" "$T/out" ||
	fail "no per-rank table: $(cat "$T/out")"
[ "$(grep -c '^Writer report' "$T/out")" = 1 ] || fail "not one matrix a test: $(cat "$T/out")"
python3 - "$T/s.json" <<'PY' || fail "sweep aggregate check"
import json, sys
d = json.load(open(sys.argv[1]))
sb = d["storbench"]
assert sb["mpi"]["ranks"] == 3, sb["mpi"]
s = sb["sweep"]
assert s["cells_done"] == s["cells_planned"] == 5, (s["cells_done"], s["cells_planned"])
ranks = s["ranks"]
assert [r["rank"] for r in ranks] == [0, 1, 2]
assert all(r["hostname"] for r in ranks)
fs, rs = s["file_sizes"], s["record_sizes"]
passes = []  # every rank's (start, end) of each timed pass, in the order run
for fi, f in enumerate(fs):
    for ri, rec in enumerate(rs):
        for ti, t in enumerate(s["tests"]):
            if rec > f:
                assert t["kib_per_s"][fi][ri] is None
                continue
            mine = [r["tests"][ti] for r in ranks]
            assert [m["test"] for m in mine] == [t["test"]] * 3
            b = [m["bytes"][fi][ri] for m in mine]
            assert b == [f // rec * rec] * 3, b
            assert t["bytes"][fi][ri] == sum(b), (t["bytes"][fi][ri], b)
            st = [m["start_s"][fi][ri] for m in mine]
            en = [m["end_s"][fi][ri] for m in mine]
            for a, e, m in zip(st, en, mine):
                ns = m["elapsed_ns"][fi][ri]
                # each rank's own figure: its bytes over its timed pass
                assert m["kib_per_s"][fi][ri] == int(f // rec * rec * 1e9 / ns) >> 10
                assert abs((e - a) * 1e9 - ns) < 3e3 + 1e-6 * ns, (a, e, ns)
            # the aggregate: the bytes summed over the earliest start to the latest end
            span = max(en) - min(st)
            ns = t["elapsed_ns"][fi][ri]
            assert abs(ns / 1e9 - span) < 3e-6, (ns, span)
            assert t["kib_per_s"][fi][ri] == int(sum(b) * 1e9 / ns) >> 10, (t["kib_per_s"][fi][ri], sum(b), ns)
            assert abs(t["start_spread_s"][fi][ri] - (max(st) - min(st))) < 3e-6
            assert abs(t["end_spread_s"][fi][ri] - (max(en) - min(en))) < 3e-6
            # loosely: the ranks start a pass together, not one after another
            assert max(st) - min(st) < 2.0, st
            passes.append((t["test"], f, rec, st, en))
assert len(passes) == 15, len(passes)
assert min(passes[0][3]) == 0, passes[0]  # stamps from the earliest start
# the barrier: no rank starts a pass before every rank ended the one before
# (on rank 0's clock; 1 ms for the measured clock offsets)
for p, q in zip(passes, passes[1:]):
    assert min(q[3]) >= max(p[4]) - 1e-3, ("started early", p, q)
PY
ok "3 ranks: one result, each cell the ranks' bytes over the span, passes started together"

# --units=si: each rank's line in MB/s, its bytes over its time / 10^6
mkdir "$T/u"
expect_exit 0 $MPI $BTL -n 2 "$SB" sweep --file-sizes=1M --record-sizes=64k --tests=write --warm --quiet \
	--units=si --output="$T/u.json" "$T/u"
grep -q "^Each rank: MB/s of the test's cells" "$T/out" || fail "--units=si: rank lines not in MB/s: $(cat "$T/out")"
python3 - "$T/out" "$T/u.json" <<'PY' || fail "--units=si: a rank's rate is not in MB/s"
import json, re, sys
line = [l for l in open(sys.argv[1]) if re.match(r"write +[0-9.]+ +[0-9.]+ ", l)][0].split()
ranks = json.load(open(sys.argv[2]))["storbench"]["sweep"]["ranks"]
for k, r in enumerate(ranks):
    t = r["tests"][0]
    want = t["bytes"][0][0] / t["elapsed_ns"][0][0] * 1e3
    assert abs(float(line[1 + k]) - want) <= 0.051 + 1e-4 * want, (k, line, want)
PY
ok "--units=si: each rank's rate in MB/s"

# 3. rank 2's target is a file storbench did not create: every rank stops
# before any writes; nothing is made, the file is unchanged
mkdir "$T/e"
head -c 65536 /dev/urandom >"$T/theirs.bin"
sum=$(md5sum <"$T/theirs.bin")
expect_exit 2 $MPI $BTL -n 2 "$SB" sweep $ARGS --output="$T/r.json" "$T/e" : \
	-n 1 "$SB" sweep $ARGS "$T/theirs.bin"
grep -q "rank 2 on .*refusing to overwrite .*storbench did not create it" "$T/err" ||
	fail "rank 2 did not say why: $(cat "$T/err")"
grep -q "rank 2 refused or failed: no rank goes on" "$T/err" || fail "not every rank stopped: $(cat "$T/err")"
[ "$(md5sum <"$T/theirs.bin")" = "$sum" ] || fail "the file storbench did not create was changed"
[ -z "$(ls -A "$T/e")" ] || fail "a rank made something: $(ls -A "$T/e")"
[ ! -e "$T/r.json" ] || fail "a result was written"
ok "one rank refusing its target stops every rank before any write"

# 4. rank 2 cannot write past 1 MiB (RLIMIT_FSIZE, SIGXFSZ ignored): it
# fails in the 4M cell's write; the others stop at the next pass, rank 0
# writes the cells every rank measured, every directory is removed. (TCP
# between the ranks: the limit would stop Open MPI's shared memory file.)
mkdir "$T/f"
expect_exit 1 $MPI --mca btl self,tcp -n 2 "$SB" sweep $ARGS --output="$T/f.json" "$T/f" : \
	-n 1 bash -c "trap '' XFSZ; ulimit -f 1024; exec \"$SB\" sweep $ARGS \"$T/f\""
grep -q "rank 2 on .*write failed in the write test (file 4.00 MiB" "$T/err" ||
	fail "rank 2 did not say where it failed: $(cat "$T/err")"
[ -z "$(ls -A "$T/f")" ] || fail "the ranks' directories were left: $(ls -A "$T/f")"
[ "$(json "$T/f.json" "d['storbench']['sweep']['cells_done']")" = 3 ] ||
	fail "not the cells before the failure: $(json "$T/f.json" "d['storbench']['sweep']['cells_done']")"
[ "$(json "$T/f.json" "d['storbench']['sweep']['tests'][0]['kib_per_s'][2]")" = "[None, None]" ] ||
	fail "the failed cell has a figure"
ok "one rank failing mid-way stops every rank at the next pass; the cells before are kept"

# 5. report reads it: the aggregate's matrices and a table of the ranks
expect_exit 0 "$SB" report "$T/s.json"
grep -q "All clients of 3 ranks" "$T/out" || fail "report: not the aggregate: $(cat "$T/out")"
grep -q "^Writer report (write), KiB/s" "$T/out" || fail "report: no matrix: $(cat "$T/out")"
[ "$(grep -c "^[012]  *[^ ]*  *\(write\|read\|randread\)  " "$T/out")" = 9 ] ||
	fail "report: not a row per rank and test: $(cat "$T/out")"
expect_exit 0 "$SB" report --format=html -o "$T/s.html" "$T/s.json"
grep -q "<h3>Ranks</h3>" "$T/s.html" || fail "report: no ranks table in the HTML"
ok "report shows the aggregate and each rank"

# 6. iozone under mpirun: refused, pointing at sweep
expect_exit 2 $MPI $BTL -n 2 "$SB" iozone -a -s 64k -r 64k -f "$T/iozone.tmp"
grep -q "iozone: not under mpirun .*storbench sweep" "$T/err" || fail "iozone: $(cat "$T/err")"
[ ! -e "$T/iozone.tmp" ] || fail "iozone wrote its file"
ok "iozone refused under mpirun, pointing at sweep"

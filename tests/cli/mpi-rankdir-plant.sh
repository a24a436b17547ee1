# Under mpirun a directory TARGET gets TARGET/storbench-rank-N for each
# rank; what already has that name and is not a storbench run's is never
# taken, by any command (issue 26, items 3 and 4): a user's file is not
# written (verify --destroy-data included: the directory was offered, not
# that file), a user's empty directory is neither used nor removed, a
# symlink is neither followed nor removed. Every rank refuses, naming rank
# 1's reason; the planted thing is byte for byte as it was, and nothing
# of the run is left in TARGET.
# needs: mpi
. "$(dirname "$0")/../lib/cli.sh"

"$SB" --version | grep -q '^mpi:' || skip "storbench built without MPI (make MPI=1)"
command -v mpirun >/dev/null || skip "no mpirun (scripts/install-deps --mpi)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="timeout -k 5 120 mpirun --oversubscribe --allow-run-as-root --mca btl self,vader -n 3"

D=$T/d
P=$D/storbench-rank-1
mkdir "$D"
head -c 1M /dev/urandom >"$T/victim"
vsum=$(sha256sum <"$T/victim")

# plant KIND: what rank 1's directory's name holds before the run
plant() {
	rm -rf "$P"
	case $1 in
	file) cp "$T/victim" "$P" ;;
	emptydir) mkdir "$P" ;;
	symlink) mkdir -p "$T/elsewhere" && ln -s "$T/elsewhere" "$P" ;;
	esac
}
# intact KIND: the planted thing as it was, and nothing else in TARGET
intact() {
	case $1 in
	file) [ -f "$P" ] && [ "$(sha256sum <"$P")" = "$vsum" ] || fail "$2: the file changed" ;;
	emptydir) [ -d "$P" ] && [ ! -L "$P" ] && [ -z "$(ls -A "$P")" ] ||
		fail "$2: the empty directory was removed or used: $(ls -la "$D")" ;;
	symlink) [ -L "$P" ] && [ -z "$(ls -A "$T/elsewhere")" ] ||
		fail "$2: the symlink was removed or followed: $(ls -la "$D" "$T/elsewhere")" ;;
	esac
	[ "$(ls -A "$D")" = storbench-rank-1 ] || fail "$2: left in TARGET: $(ls -A "$D")"
	[ "$(sha256sum <"$T/victim")" = "$vsum" ] || fail "$2: the file elsewhere changed"
}

n=0
for kind in file emptydir symlink; do
	for cmd in "run --rw=randwrite --bs=4k --size=1M --quiet" \
		"quick --size=2M --runtime=100ms --repeat=1 --quiet" \
		"verify --destroy-data --size=1M --quiet" \
		"verify --phase=write --size=1M --quiet" \
		"soak --iterations=1 --size=1M --quiet --log=$T/soak-$kind.jsonl" \
		"sweep --file-sizes=64k --record-sizes=16k --tests=write --quiet" \
		"meta --size=0 --files=10 --quiet"; do
		plant $kind
		expect_exit 2 $MPI "$SB" $cmd "$D"
		grep -q "rank 1 .*storbench-rank-1' exists and" "$T/err" ||
			fail "$cmd ($kind): $(cat "$T/err")"
		intact $kind "$cmd ($kind)"
		n=$((n + 1))
	done
	plant $kind
	expect_exit 2 $MPI "$SB" fio --name=w --directory="$D" --size=1M --rw=write --bs=64k
	intact $kind "fio ($kind)"
	plant $kind
	expect_exit 2 $MPI "$SB" bonnie -d "$D" -s 0 -n 1:0:0:1 -q
	intact $kind "bonnie ($kind)"
	n=$((n + 2))
done
ok "$n runs: a planted file, empty directory or symlink of a rank's name is refused by every command, untouched"

# a reader (verify --phase=check) reads a rank's directory as it is, and
# takes nothing: a user's directory there stays
plant emptydir
expect_exit 3 $MPI "$SB" verify --phase=check --quiet "$D"
intact emptydir "verify --phase=check"
ok "verify --phase=check leaves a user's directory of a rank's name alone"

# the run's own directories: made, removed at the end (written files kept
# by --phase=write, marked so; a later write there is refused)
rm -rf "$P" "$T/elsewhere"
expect_exit 0 $MPI "$SB" verify --size=1M --quiet "$D"
[ -z "$(ls -A "$D")" ] || fail "verify left: $(ls -A "$D")"
expect_exit 0 $MPI "$SB" soak --iterations=2 --size=1M --quiet --log="$T/s.jsonl" "$D"
[ -z "$(ls -A "$D")" ] || fail "soak left: $(ls -A "$D")"
expect_exit 0 $MPI "$SB" verify --phase=write --size=1M --quiet "$D"
grep -qx kept "$P/.storbench-rank" || fail "the marker of kept files: $(cat "$P/.storbench-rank")"
expect_exit 0 $MPI "$SB" verify --phase=check --size=1M --quiet "$D"
expect_exit 2 $MPI "$SB" verify --size=1M --quiet "$D"
grep -q "holds the files run .* kept" "$T/err" || fail "kept: $(cat "$T/err")"
ok "verify and soak make their ranks' directories, remove them, and mark kept files"

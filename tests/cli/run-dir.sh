# run on a directory: one file per job, all removed afterwards.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
expect_exit 0 "$SB" run --rw=write --bs=128k --size=4M --numjobs=3 --quiet \
	--output="$T/r.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "files left behind: $(ls -A "$T/d")"
[ "$(json "$T/r.json" "d['jobs'][0]['write']['io_bytes']")" = $((3 * 4194304)) ] ||
	fail "3 jobs x 4 MiB not written"
ok "directory with 3 jobs"

# a file in the directory that is not ours is never touched
echo precious > "$T/d/keep.txt"
expect_exit 0 "$SB" run --rw=randwrite --size=1M --quiet "$T/d"
[ "$(cat "$T/d/keep.txt")" = precious ] || fail "user's file changed"
[ "$(ls -A "$T/d")" = keep.txt ] || fail "leftovers: $(ls -A "$T/d")"
ok "user files untouched"

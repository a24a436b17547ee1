# soak: iterations on a directory and on a loop device, one JSON line each;
# SIGKILL leaves a log whose every line parses and --resume continues it; a
# fault is reported in its iteration and fails the soak; bad options.
# (Kernel messages: soak-kmsg.)
# needs: root loop fuse
. "$(dirname "$0")/../lib/cli.sh"

mkdir "$T/d"
expect_exit 0 "$SB" soak --iterations=3 --size=8M --log="$T/d.jsonl" --output="$T/d.json" "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "files left behind: $(ls -A "$T/d")"
lines_parse "$T/d.jsonl" || fail "log does not parse"
[ "$(sed -n 1p "$T/d.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["type"])')" = config ] ||
	fail "line 1 is not the configuration"
[ "$(grep -c '"type":"iteration"' "$T/d.jsonl")" = 3 ] || fail "3 iteration records expected"
[ "$(tail -n 1 "$T/d.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["verdict"])')" = pass ] ||
	fail "summary line"
[ "$(json "$T/d.json" "d['storbench']['soak']['iterations']")" = 3 ] || fail "results: iterations"
[ "$(json "$T/d.json" "d['storbench']['soak']['iteration_records'][2]['verify']['intact']")" = 2048 ] ||
	fail "results: 8 MiB of 4 KiB blocks intact"
grep -q "PASS" "$T/out" || fail "no verdict in the text"
ok "3 iterations on a directory"

if [ "$(id -u)" = 0 ]; then
	dev=$(make_loop 16)
	"$SB" soak --iterations=1 --quiet --log="$T/x.jsonl" "$dev" 2>"$T/err"
	[ $? = 2 ] || fail "device soak without --destroy-data"
	expect_exit 0 "$SB" soak --iterations=3 --destroy-data --log="$T/l.jsonl" \
		--output="$T/l.json" "$dev"
	[ "$(json "$T/l.json" "d['storbench']['soak']['iteration_records'][2]['verify']['intact']")" = 4096 ] ||
		fail "16 MiB device: 4096 blocks intact"
	ok "3 iterations on a loop device (region mode)"
fi

# SIGKILL in the middle, then --resume
mkdir "$T/k"
"$SB" soak --iterations=6 --size=8M --idle=300ms --log="$T/k.jsonl" "$T/k" >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(cat "$T/k.jsonl" 2>/dev/null | grep -c '"type":"iteration"')" -lt 2 ] && [ $i -lt 600 ]; do
	sleep 0.1; i=$((i + 1))
done
kill -9 $pid; wait $pid 2>/dev/null
lines_parse "$T/k.jsonl" || fail "log after SIGKILL does not parse"
done_before=$(grep -c '"type":"iteration"' "$T/k.jsonl")
[ "$done_before" -ge 2 ] && [ "$done_before" -lt 6 ] || fail "killed after $done_before iterations"
printf '{"type":"iteration","itera' >>"$T/k.jsonl" # a torn line, as a power cut leaves
expect_exit 0 "$SB" soak --resume "$T/k.jsonl"
lines_parse "$T/k.jsonl" || fail "resumed log does not parse"
[ "$(grep -c '"type":"iteration"' "$T/k.jsonl")" = 6 ] || fail "resume did not finish 6 iterations"
python3 - "$T/k.jsonl" <<'PY' || fail "iterations not numbered 1..6"
import json, sys
its = [json.loads(l)["iteration"] for l in open(sys.argv[1]) if '"type":"iteration"' in l]
sys.exit(0 if its == [1, 2, 3, 4, 5, 6] else 1)
PY
[ "$(grep -c '"type":"config"' "$T/k.jsonl")" = 1 ] || fail "config written twice"
[ -z "$(ls -A "$T/k")" ] || fail "files left after the resumed soak"
grep -q "resuming after iteration $done_before" "$T/out" || fail "resume not announced"
ok "SIGKILL after $done_before iterations, resumed to 6"

# bad options
for bad in "--iterations=0" "--burst=64M" "--duration=0" "--resume=$T/nothing.jsonl" "--idle=x"; do
	"$SB" soak $bad "$T/d" 2>"$T/err"
	[ $? = 2 ] || fail "soak $bad: not refused"
done
"$SB" soak --resume "$T/k.jsonl" "$T/d" 2>"$T/err"; [ $? = 2 ] || fail "--resume with a target"
echo "not a log" >"$T/bad.jsonl"
"$SB" soak --resume "$T/bad.jsonl" 2>"$T/err"; [ $? = 2 ] || fail "--resume of a non-log"
ok "bad options"

# a fault in the data: found in the iteration, exit 1 (last: without FUSE
# the test skips here, after everything above passed)
. "$(dirname "$0")/../lib/faultfs.sh"
ff_start
ff_rules "flip * 12288 4096"
"$SB" soak --iterations=2 --size=4M --direct=0 --stop-on-error --log="$T/f.jsonl" \
	--output="$T/f.json" "$FF_MNT" >"$T/f.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$T/f.out"; fail "fault: exit $rc, expected 1"; }
[ "$(grep -c '"type":"iteration"' "$T/f.jsonl")" = 1 ] || fail "--stop-on-error did not stop"
json "$T/f.json" "d['storbench']['soak']['iteration_records'][0]['verify']['bad_ranges'][0]['offset']" |
	grep -qx 12288 || fail "fault not at offset 12288"
json "$T/f.json" "d['storbench']['soak']['iteration_records'][0]['verify']['bad_ranges'][0]['class']" |
	grep -qx corrupted || fail "fault not classed corrupted"
ok "bit flip found at its offset in iteration 1, soak failed"

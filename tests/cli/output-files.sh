# Output files are whole or absent: on a full filesystem --output, report -o
# and sweep --csv fail with "No space left on device" (not an I/O error),
# leave neither a half nor an empty file nor a temporary; a device node
# (/dev/null) stays a device (a file used to be renamed over it); a report
# stopped by SIGTERM while writing leaves no temporary.
# needs: root
. "$SB_TOP/tests/lib/cli.sh"

no_temps() { # DIR: no storbench temporary left
	ls -a "$1" | grep -q '\.tmp-' && { ls -la "$1"; fail "a temporary is left in $1"; }
	return 0
}

# a result to render
expect_exit 0 "$SB" run --size=1M --runtime=200ms --time-based --quiet --output="$T/r.json" "$T/r.dat"

# ---- a device node as the output (as /dev/null) is written, never renamed
# over; a node of our own, so a regression cannot replace the system's
if [ "$(id -u)" = 0 ] && mknod -m 666 "$T/null" c 1 3 2>/dev/null; then
	expect_exit 0 "$SB" report "$T/r.json" -o "$T/null" --format=html
	[ -c "$T/null" ] || fail "the device node was replaced by a file"
	expect_exit 0 "$SB" info --output="$T/null" "$T"
	[ -c "$T/null" ] || fail "the device node was replaced by a file (--output)"
	ok "a device node as the output (/dev/null) is written in place"
fi

# ---- a full filesystem
if [ "$(id -u)" = 0 ] && mkdir "$T/full" && mount -t tmpfs -o size=64k tmpfs "$T/full" 2>/dev/null; then
	dd if=/dev/zero of="$T/full/fill" bs=1k 2>/dev/null # until it is full
	check_full() { # WHAT FILE: failed with ENOSPC, FILE absent, no temporary
		grep -q "No space left on device" "$T/err" || { cat "$T/err"; umount "$T/full"; fail "$1: not ENOSPC"; }
		grep -q "Input/output error" "$T/err" && { umount "$T/full"; fail "$1: said I/O error"; }
		[ -e "$2" ] && { umount "$T/full"; fail "$1: '$2' was left"; }
		no_temps "$T/full"
	}
	"$SB" report "$T/r.json" -o "$T/full/r.html" >"$T/out" 2>"$T/err"; rc=$?
	check_full "report -o" "$T/full/r.html"
	[ $rc = 3 ] || { umount "$T/full"; fail "report -o: exit $rc"; }
	"$SB" info --output="$T/full/i.json" "$T" >"$T/out" 2>"$T/err"; rc=$?
	check_full "--output" "$T/full/i.json"
	[ $rc = 3 ] || { umount "$T/full"; fail "--output: exit $rc"; }
	"$SB" sweep --file-sizes=64k --record-sizes=4k --tests=write --quiet --csv="$T/full/s.csv" \
		"$T/sw" >"$T/out" 2>"$T/err"; rc=$?
	check_full "sweep --csv" "$T/full/s.csv"
	[ $rc != 0 ] || { umount "$T/full"; fail "sweep --csv: exit 0"; }
	umount "$T/full"
	ok "a full filesystem: ENOSPC named, nothing left behind"
fi

# ---- SIGTERM while report writes: no temporary left
python3 - "$T/big.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], 'w') as f:
    f.write(json.dumps({"type": "config", "command": "soak", "log_version": 1, "storbench": "0",
                        "started_ns": 1, "seed": 1, "target": "/x", "argv": [], "size": 4096,
                        "block_size": 4096, "request_size": 4096, "engine": "psync",
                        "direct": True, "region_mode": False}) + "\n")
    for i in range(1, 40001):
        f.write(json.dumps({"type": "iteration", "iteration": i, "start_ns": i, "end_ns": i + 1,
                            "write_bw_bytes": 1e8 + (i % 7) * 1e6, "read_bw_bytes": 2e8,
                            "write_lat": {"p50_ns": 1, "p99_ns": 2, "max_ns": 3},
                            "read_lat": {"p50_ns": 1, "p99_ns": 2, "max_ns": 3},
                            "verify": {"blocks_checked": 1, "intact": 1, "bad_ranges": [],
                                       "bad_ranges_omitted": 0},
                            "io_errors": 0, "cache": "direct", "kmsg": [], "kmsg_omitted": 0,
                            "interrupted": False, "failed": False}) + "\n")
PY
mkdir "$T/o"
"$SB" report "$T/big.jsonl" -o "$T/o/big.html" >/dev/null 2>&1 &
pid=$!
seen=0 i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 3000 ]; do
	if ls -a "$T/o" | grep -q '\.tmp-'; then seen=1; kill -TERM $pid; break; fi
	sleep 0.01; i=$((i + 1))
done
wait $pid; rc=$?
no_temps "$T/o"
if [ $seen = 1 ]; then
	[ $rc = 143 ] || fail "report killed while writing: exit $rc, expected 143"
	# the signal can land after the rename that completes the page (the
	# test saw the temporary just before): then the page is whole; a page
	# cut short must never be left
	if [ -e "$T/o/big.html" ]; then
		tail -c 64 "$T/o/big.html" | grep -q "</html>" ||
			fail "report killed while writing: a partial page was left"
	fi
	ok "SIGTERM while report writes: no temporary, no partial page"
else
	ok "report wrote before it could be stopped: no temporary either"
fi
exit 0

# Every workbook storbench writes needs no formatting by hand (issue 30
# item 2): one of each kind (report of quick, run, sweep, soak, cliff,
# flash, spo and meta; compare; iozone -Rb) held by tests/tools/xlsx-sheet.py
# --check to: the first sheet says what the result is (a soak's verdict;
# cliff's, flash's, spo's and pts's result with its figures and meaning),
# no sheet is empty or a header alone, every number has a number format,
# headers are frozen, columns are as wide as what they hold, the charts
# are there (sweep and compare too), and with --units=si no rate is in
# MiB/s. The soak's settings are numbers and its Iterations sheet has the
# start and the kernel's messages. (pts: tests/cli/pts.sh.)
# needs: none
. "$(dirname "$0")/../lib/cli.sh"
"$SB" --version | grep -q "features:.* xlsx" || skip "built without libxlsxwriter"
X="$SB_TOP/tests/tools/xlsx-sheet.py"
check() { # BOOK ARGS...: the checks, each fault printed
	python3 "$X" --check "$@" >"$T/faults" || { cat "$T/faults"; fail "$1: $(head -1 "$T/faults")"; }
}

mkdir "$T/q" "$T/d"
expect_exit 0 "$SB" quick --size=8M --runtime=150ms --repeat=2 --quiet --output="$T/quick.json" "$T/q"
expect_exit 0 "$SB" run --rw=randrw --size=8M --runtime=600ms --time-based --log-interval=200ms \
	--quiet --output="$T/run.json" "$T/run.dat"
expect_exit 0 "$SB" sweep --file-sizes=64k,256k --record-sizes=4k,16k,64k --tests=write,read \
	--warm --quiet --output="$T/sweep.json" "$T/d"
truncate -s 16M "$T/c.bin"
expect_exit 0 "$SB" cliff --destroy-data --quiet --size=8M -o "$T/cliff.json" "$T/c.bin"
truncate -s 64M "$T/f.img"
expect_exit 0 "$SB" flash --quiet --output="$T/flash.json" "$T/f.img"
truncate -s 512k "$T/t.img"
expect_exit 0 "$SB" spo --destroy-data --quiet --bs=4k --canary=64k --duration=300ms --journal="$T/j" "$T/t.img"
dd if=/dev/zero of="$T/t.img" bs=64k seek=1 count=7 conv=notrunc status=none
expect_exit 1 "$SB" spo --check --journal="$T/j" --output="$T/spo.json" "$T/t.img"
mkdir "$T/m"
expect_exit 0 "$SB" meta --quiet --files=16 --size=1M --output="$T/meta.json" "$T/m"
GEN="$SB_TOP/tests/tools/synth-results.py"
python3 "$GEN" --seed=1 --runs=5 --tests=4 --cv=0.05 --factor=1 -o "$T/a.json" || fail "synth a"
python3 "$GEN" --seed=2 --runs=5 --tests=4 --cv=0.05 --factor=0.7 -o "$T/b.json" || fail "synth b"
# a failed soak's log: a kernel message in iteration 12, bad blocks in 30
python3 - "$T/soak.jsonl" <<'PY'
import json, sys
f = open(sys.argv[1], 'w')
line = lambda o: f.write(json.dumps(o) + '\n')
line({"type": "config", "command": "soak", "log_version": 1, "storbench": "0.1.0",
      "started_ns": 1700000000000000000, "seed": 7, "target": "/mnt/nvme/soak",
      "size": 1 << 30, "block_size": 4096, "request_size": 1 << 20, "iterations": 40,
      "duration_ns": 0, "idle_ns": 0, "engine": "io_uring", "direct": True,
      "region_mode": False, "device": "nvme0n1"})
t = 1700000000000000000
for i in range(1, 41):
    kmsg = [{"time_us": 1, "category": "io", "text": "nvme0n1: I/O error, dev nvme0n1, sector 2048"}] \
        if i == 12 else []
    line({"type": "iteration", "iteration": i, "start_ns": t, "end_ns": t + 10**10,
          "write_bw_bytes": 50e6 if i == 12 else 400e6 + i * 1e6, "read_bw_bytes": 900e6,
          "verify": {"blocks_checked": 262144, "intact": 262144 - (3 if i == 30 else 0),
                     "corrupted": 3 if i == 30 else 0, "misplaced": 0, "stale": 0, "foreign": 0,
                     "unreadable": 0, "bad_ranges_omitted": 0, "bad_ranges": []},
          "io_errors": 2 if i == 12 else 0, "cache": "direct", "kmsg": kmsg, "kmsg_omitted": 0,
          "interrupted": False, "failed": i in (12, 30)})
    t += 10**10
m = lambda o: {"n": 40, "median": 4.2e8, "p5": 4e8, "p95": 4.4e8, "mean": 4.1e8, "cv": 0.1,
               "min": 5e7, "max": 4.4e8, "outliers": o, "outliers_total": len(o), "change_points": []}
line({"type": "summary", "iterations": 40, "failed_iterations": 2, "verify_bad_blocks": 3,
      "io_errors": 2, "kmsg_lines": 1, "kmsg_watched": True, "anomalies": 1, "verdict": "fail",
      "settings": {"size": 1 << 30, "block_size": 4096, "request_size": 1 << 20, "iterations": 40,
                   "duration_ns": 0, "idle_ns": 0, "workload": "verify"},
      "stability": {"write_bw": m([12]), "read_bw": m([])}})
PY

for u in iec si; do
	for k in quick run sweep cliff flash spo meta; do
		expect_exit 0 "$SB" report "$T/$k.json" --units=$u -o "$T/$k-$u.xlsx"
	done
	expect_exit 0 "$SB" report "$T/soak.jsonl" --units=$u -o "$T/soak-$u.xlsx"
	expect_exit 0 "$SB" compare "$T/a.json" "$T/b.json" --units=$u -o "$T/compare-$u.xlsx"
	check "$T/quick-$u.xlsx" --units=$u --first=Summary --charts=2
	check "$T/run-$u.xlsx" --units=$u --first=Measurements --charts=1
	check "$T/sweep-$u.xlsx" --units=$u --first=write --charts=2
	check "$T/cliff-$u.xlsx" --units=$u --first=Result --verdict=cliff --charts=2
	check "$T/flash-$u.xlsx" --units=$u --first=Result --verdict=flash --charts=1
	check "$T/spo-$u.xlsx" --units=$u --first=Result --verdict=FAIL
	check "$T/meta-$u.xlsx" --units=$u --first=Meta
	check "$T/soak-$u.xlsx" --units=$u --first="Soak verdict" --verdict=FAIL --charts=1
	check "$T/compare-$u.xlsx" --units=$u --first=Comparison --verdict=worse --charts=1
done
(cd "$T/d" && "$SB" iozone --quiet -a -s 256k -y 4k -q 64k -+n -i 0 -i 1 -f F -Rb "$T/iozone.xlsx" >/dev/null 2>&1) ||
	fail "iozone -Rb"
check "$T/iozone.xlsx" --first=write --charts=2
ok "eleven kinds of workbook: first sheet, formats, frozen headers, widths, charts, units"

# cliff's and flash's result in a word on the first sheet
for k in cliff flash; do
	python3 "$X" "$T/$k-iec.xlsx" Result >"$T/result.csv" || fail "$k: no Result sheet"
	grep -Eq '^Result,(CACHE FOUND|NO DROP|BOUNDARIES FOUND|NO BOUNDARY EFFECT|NO DECISION)' "$T/result.csv" ||
		{ cat "$T/result.csv"; fail "$k: no result word"; }
done
python3 "$X" "$T/spo-iec.xlsx" Result | grep -Eq '^lost-acked,[1-9][0-9]*,blocks$' || fail "spo: lost-acked blocks not a number"

# no sheet of a header row alone: a soak and a sweep have no measurements
for b in soak-iec sweep-iec; do
	unzip -p "$T/$b.xlsx" xl/workbook.xml | grep -q 'name="Measurements"\|name="Percentiles"' &&
		fail "$b: a Measurements or Percentiles sheet"
done
# the soak's settings as numbers with their unit; each iteration's start
# and the kernel's message beside its figures
python3 "$X" "$T/soak-iec.xlsx" "Soak verdict" >"$T/verdict.csv" || fail "no Soak verdict sheet"
grep -q '^Size,1073741824,bytes' "$T/verdict.csv" || { cat "$T/verdict.csv"; fail "the size is not a number"; }
grep -q '^Block size,4096,bytes' "$T/verdict.csv" || fail "the block size is not a number"
grep -q '^Iterations,40' "$T/verdict.csv" || fail "the iterations are not a number"
python3 "$X" "$T/soak-iec.xlsx" Iterations >"$T/it.csv" || fail "no Iterations sheet"
python3 - "$T/it.csv" <<'PY' || fail "Iterations: start and kernel messages"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
assert h[2] == "start (UTC)" and "kernel messages" in h[-1], h
r12 = rows[12]
assert r12[1] == "12" and abs(float(r12[2]) - (1700000110 / 86400 + 25569)) < 1e-6, r12[:3]
assert "nvme0n1: I/O error, dev nvme0n1, sector 2048" in r12[-1], r12
PY
# --units=si: quick's summary in MB/s, each figure divided by 10^6
python3 "$X" "$T/quick-si.xlsx" Summary >"$T/si.csv" || fail "no Summary in MB/s"
python3 "$X" "$T/quick-iec.xlsx" Summary >"$T/iec.csv" || fail "no Summary in MiB/s"
python3 - "$T/si.csv" "$T/iec.csv" <<'PY' || fail "--units=si: the rates are not in MB/s"
import csv, sys
si, iec = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
assert "bandwidth median (MB/s)" in si[0] and "bandwidth median (MiB/s)" in iec[0]
a, b = float(si[0]["bandwidth median (MB/s)"]), float(iec[0]["bandwidth median (MiB/s)"])
assert abs(a - b * 1.048576) < 1e-6 * a, (a, b)
PY
ok "the soak's settings are numbers, its iterations have a start and the kernel's messages; MB/s with --units=si"

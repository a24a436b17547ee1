# --units=si (issue 30 item 10): rates in MB/s and GB/s (powers of 1000, as
# fio's second figure, CrystalDiskMark and datasheets print them) in the
# text of the measuring commands and in the report's text and HTML; MiB/s
# stays the default, the JSON keeps bytes, sizes stay in KiB and MiB.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

expect_exit 0 "$SB" run --units=si --rw=write --size=8M --quiet --output="$T/r.json" "$T/r.dat"
cp "$T/out" "$T/run.txt"
grep -q "^  write [0-9.]* [kMG]B/s, " "$T/run.txt" || { cat "$T/run.txt"; fail "run: no MB/s"; }
! grep -q "iB/s" "$T/run.txt" || { cat "$T/run.txt"; fail "run --units=si: a binary rate"; }
grep -q "8.00 MiB in" "$T/run.txt" || { cat "$T/run.txt"; fail "run --units=si: sizes left binary units"; }
# the figure is the JSON's bytes over 10^6 (or 10^9), and the JSON says no unit
python3 - "$T/r.json" "$T/run.txt" <<'PY' || fail "run: MB/s is not bytes / 10^6"
import json, re, sys
raw = open(sys.argv[1]).read()
assert 'MB/s' not in raw and 'GB/s' not in raw, "a unit in the JSON"
bw = json.loads(raw)['jobs'][0]['write']['bw_bytes']
assert isinstance(bw, int), bw
v, u = re.search(r'^  write ([0-9.]+) ([kMG])B/s', open(sys.argv[2]).read(), re.M).groups()
got = float(v) * {'k': 1e3, 'M': 1e6, 'G': 1e9}[u]
assert abs(got - bw) <= 0.006 * bw, (got, bw)
PY
expect_exit 0 "$SB" run --rw=write --size=8M --quiet "$T/r.dat"
grep -q "^  write [0-9.]* [KMG]iB/s, " "$T/out" || { cat "$T/out"; fail "run: MiB/s is no longer the default"; }
ok "run: MB/s with --units=si, bytes / 10^6, MiB/s by default"

expect_exit 0 "$SB" report --units=si "$T/r.json"
grep -q " [0-9.]* [kMG]B/s " "$T/out" && ! grep -q "iB/s" "$T/out" || { cat "$T/out"; fail "report --units=si: text"; }
expect_exit 0 "$SB" report --units=si -o "$T/si.html" "$T/r.json"
expect_exit 0 "$SB" report -o "$T/iec.html" "$T/r.json"
python3 - "$T/si.html" "$T/iec.html" <<'PY' || fail "report --units=si: HTML"
import re, sys
si, iec = (open(p, encoding='utf-8').read() for p in sys.argv[1:])
assert re.search(r'Bandwidth \((k|M|G)B/s\)', si), "no axis in MB/s"
assert not re.search(r'[KMG]iB/s', si), re.search(r'.{40}[KMG]iB/s', si).group(0)
assert 'powers of 1000 bytes a second' in si, "the footer does not say what MB/s is"
assert re.search(r'Bandwidth \((Ki|Mi|Gi)B/s\)', iec) and not re.search(r'[kMG]B/s', iec), "the default changed"
PY
ok "report: text and HTML in MB/s with --units=si, MiB/s without"

# flash's open-AU table and cliff's figures, on files of the test's own
truncate -s 80M "$T/f.img"
expect_exit 0 "$SB" flash --units=si --open-au --destroy-data --max-au=2 --quiet "$T/f.img"
grep -q "^    1 linear  *[0-9.]* [kMG]B/s" "$T/out" && ! grep -q "iB/s" "$T/out" ||
	{ cat "$T/out"; fail "flash --units=si"; }
expect_exit 0 "$SB" cliff --units=si --destroy-data --quiet --size=4M "$T/c.bin"
grep -q "[0-9] [kMG]B/s" "$T/out" && ! grep -q "iB/s" "$T/out" || { cat "$T/out"; fail "cliff --units=si"; }
ok "flash and cliff: MB/s with --units=si"

expect_exit 2 "$SB" report --units=mb "$T/r.json"
grep -q "^storbench: --units: 'mb' is not valid (expected iec or si)$" "$T/err" || { cat "$T/err"; fail "a bad --units"; }
ok "a bad --units: exit 2, the values named"

# quick's table: its unit column and figures follow --units too
mkdir "$T/q"
expect_exit 0 "$SB" quick --units=si --size=8M --runtime=100ms --repeat=1 --quiet \
	--output="$T/q.json" "$T/q"
grep -q '^READ  *MB/s  *min\.\.max' "$T/out" || { cat "$T/out"; fail "quick --units=si: the table's unit"; }
! grep -q 'MiB/s' "$T/out" || { cat "$T/out"; fail "quick --units=si: a binary rate"; }
python3 - "$T/q.json" "$T/out" <<'PY' || fail "quick --units=si: SEQ1M Q1T1 read is not its bytes / 10^6"
import json, re, sys
d = json.load(open(sys.argv[1]))
row = [s for s in d['storbench']['summary'] if s['test'] == 'SEQ1M Q1T1' and s['direction'] == 'read'][0]
got = float(re.search(r'^SEQ1M Q1T1 +([0-9.]+)', open(sys.argv[2]).read(), re.M).group(1))
assert abs(got - row['bw_bytes_median'] / 1e6) <= 0.06, (got, row['bw_bytes_median'])
PY
ok "quick: its table in MB/s with --units=si"

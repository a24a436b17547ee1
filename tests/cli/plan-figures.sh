#!/bin/sh
# A plan's criteria on the figures of flash (a file of the test's own),
# latency, meta, sweep and info (a temporary directory): each read from the
# step's result through the method's reader and judged; `plan --figures`
# lists them; a misspelt one refused with the nearest names; a figure the
# result does not hold (flash's erase block where none was found) missing
# and failed.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
mkdir "$T/d"
truncate -s 64M "$T/f.img" || fail "truncate"

for c in flash latency meta sweep info; do
	expect_exit 0 "$SB" plan --figures "$c"
	grep -q "^status  *word" "$T/out" || fail "$c: --figures has no status"
done
"$SB" plan --figures meta | grep -q "^seq_create.rate  */s " || fail "meta's seq_create.rate in --figures"
"$SB" plan --figures sweep | grep -q "^TEST.bw_median  *B/s " || fail "sweep's TEST.bw_median in --figures"

cat >"$T/m.ini" <<'INI'
[lat]
run = latency --flood --count=40 --size=1M
expect = requests == 40
expect = iops > 0
expect = lat_p99 < 10s
expect = lat_p99.9 >= 0
expect = interrupted == false

[bonnie]
run = meta --files=64 --size=4 --char-size=1 --seeks=64 --seekers=1
expect = write.bw > 0
expect = seeks.rate > 0
expect = seq_create.rate > 0
expect = rand_delete.lat_max < 10s
expect = read.cpu <= 100%
expect = interrupted == false

[iozone]
run = sweep --file-sizes=64k,256k --record-sizes=4k,64k --tests=write,read
expect = write.bw > 1k/s
expect = read.bw_min > 0
expect = read.bw_median >= 0
expect = write.bw_max > 0
expect = write.cells == 4
expect = cells_done == 4
expect = interrupted == false

[about]
run = info

[geometry]
run = flash --align --count=2 --scatter --scatter-order=4 --open-au --erase-size=1M --max-au=2 --offset=4M --destroy-data
target = $T/f.img
expect = interrupted == false
expect = scatter.max >= 0
expect = open_au.linear >= 1
expect = boundary_effect != maybe
INI
sed -i "s|\$T|$T|" "$T/m.ini"
expect_exit 0 "$SB" plan --quiet "$T/m.ini" "$T/d" -o "$T/m.json"
head -1 "$T/out" | grep -q "^PASS: .*m.ini (27 of 27 criteria passed)$" || { cat "$T/out"; fail "figures of flash, latency, meta, sweep"; }
grep -q "^bonnie  *seq_create.rate  *[0-9.]*k*/s  *> 0  *pass$" "$T/out" || { cat "$T/out"; fail "a rate per second in the table"; }
json "$T/m.json" "[c['unit'] for s in d['plan']['steps'] for c in s['criteria'] if c['figure'] == 'write.bw'] == ['B/s', 'B/s']" | grep -q True || fail "units in JSON"
json "$T/m.json" "[c['measured'] for s in d['plan']['steps'] for c in s['criteria'] if c['figure'] == 'requests'] == [40]" | grep -q True || fail "latency's requests in JSON"
ok "figures of flash, latency, meta, sweep"

# a figure misspelt: the nearest names, nothing run
printf '[b]\nrun = meta --files=64 --size=0 --char-size=0\nexpect = seq_create.rte > 0\n' >"$T/typo.ini"
expect_exit 2 "$SB" plan --quiet "$T/typo.ini" "$T/d"
grep -q "typo.ini:3: expect: 'seq_create.rte' is not a figure of meta (nearest: seq_create.rate" "$T/err" || { cat "$T/err"; fail "nearest meta figure"; }
printf '[s]\nrun = sweep --file-sizes=64k --record-sizes=4k --tests=write\nexpect = wirte.bw > 0\n' >"$T/typo2.ini"
expect_exit 2 "$SB" plan --quiet "$T/typo2.ini" "$T/d"
grep -q "'wirte.bw' is not a figure of sweep" "$T/err" || { cat "$T/err"; fail "a sweep test misspelt"; }
[ ! -e "$T/typo-plan/journal.json" ] || fail "a refused plan ran"
ok "figures misspelt"

# no erase block found in a file: the figure missing, the criterion failed
printf '[g]\nrun = flash --align --count=2\nexpect = erase_block >= 1M\n' >"$T/g.ini"
"$SB" plan --quiet "$T/g.ini" "$T/f.img" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 1 ] && grep -q "erase_block.*missing  *>= 1M  *FAIL$" "$T/out"; then
	ok "a figure missing fails"
elif [ $rc = 0 ] && grep -q "erase_block .* pass$" "$T/out"; then
	ok "an erase block found in a file (a boundary effect of the host)"
else
	cat "$T/out"
	fail "erase_block not judged"
fi

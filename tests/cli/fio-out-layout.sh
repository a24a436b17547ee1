#!/bin/sh
# storbench fio's normal output against real fio's, line by line, on the
# same command with the same options: the seed's line and ten more. Each
# output is masked (a figure with its unit prefix -> N, nsec/usec/msec and
# KiB/MiB -> UNIT, the percentile rows and the lat distribution lines,
# whose number follows the figures, one line each, the version line) and
# the two must then be the same: the differences are only in the figures.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

command -v fio >/dev/null 2>&1 || skip "fio is not installed: nothing to compare with"

mask() {
	python3 - "$1" <<'PY'
import re, sys
out = []
for line in open(sys.argv[1]):
    line = line.rstrip('\n')
    if re.match(r'^(fio-[0-9.]+|storbench-[0-9.]+.*)$', line):
        line = 'VERSION'
    # the disk beneath: its name is the machine's
    line = re.sub(r'^  [a-z0-9]+: ios=', '  DEV: ios=', line)
    line = re.sub(r'\((nsec|usec|msec)\)', '(UNIT)', line)
    line = re.sub(r'\(\s*(KiB|MiB)/s\)', '(UNIT/s)', line)
    line = re.sub(r'\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +', 'DATE ', line)
    line = re.sub(r'[0-9]+(\.[0-9]+)?([kKMGTPE]i?)?', 'N', line)
    line = re.sub(r'N(?=(B|B/s)?\b)', 'N', line)
    line = re.sub(r'= +N', '=N', line)
    line = re.sub(r'\[ *N\]', '[N]', line)
    if line.startswith('     |'):
        line = '     | PERCENTILES'
    if re.match(r'^  lat \(UNIT\) +: ', line):
        line = '  lat (UNIT) : DIST'
    if out and out[-1] == line and line in ('     | PERCENTILES', '  lat (UNIT) : DIST'):
        continue
    out.append(line)
print('\n'.join(out))
PY
}

# One command per line; @ is the file or directory of that run. Short
# runs (the seed's 2 s): the layout, not the figures, is compared; the bw
# and iops lines, which need a whole sampling interval, only in the seed's.
cat >"$T/cmds" <<'EOF'
-filename=@ -direct=1 -iodepth 1 -thread -rw=read -ioengine=psync -bs=16k -numjobs=30 -runtime=2 -time_based -group_reporting -name=IORTest -size=4m
--name=plain --filename=@ --size=4m --rw=read --bs=64k --description=a_plain_read
--name=four --filename=@ --size=2m --rw=read --bs=16k --numjobs=4
--name=w --filename=@ --size=4m --rw=write --bs=64k --end_fsync=1
--name=rw --filename=@ --size=4m --rw=randrw --rwmixread=70 --bs=4k --fsync=16
--name=q --filename=@ --size=8m --rw=randread --bs=4k --ioengine=libaio --iodepth=8 --direct=1
--filename=@ --size=2m --rw=read --bs=8k --name=a --name=b --stonewall
--directory=@D --name=d --size=2m --rw=write --bs=32k --numjobs=2 --thread
--name=n --ioengine=null --size=16m --bs=4k --rw=randread
--filename=@ --size=2m --group_reporting --name=x --rw=read --name=y --rw=write
--name=tb --filename=@ --size=4m --rw=randread --bs=4k --runtime=1 --time_based
EOF
n=0
while IFS= read -r line; do
	n=$((n + 1))
	for who in fio sb; do
		mkdir -p "$T/$who$n.d"
		args=$(printf '%s' "$line" | sed "s#@D#$T/$who$n.d#g; s#@#$T/$who$n.bin#g")
		if [ "$who" = fio ]; then
			# shellcheck disable=SC2086
			(cd "$T/$who$n.d" && fio $args) >"$T/$who$n.txt" 2>"$T/$who$n.err" ||
				fail "command $n: fio failed: $(cat "$T/$who$n.err")"
		else
			# shellcheck disable=SC2086
			(cd "$T/$who$n.d" && "$SB" fio --quiet $args) >"$T/$who$n.txt" 2>"$T/$who$n.err" ||
				fail "command $n: storbench failed: $(cat "$T/$who$n.err")"
		fi
		mask "$T/$who$n.txt" >"$T/$who$n.mask"
	done
	# the bw and iops lines need a whole interval (fio's 500 ms, storbench's
	# 1 s): the seed's 2 s has them in both, a short run perhaps in one
	if [ "$n" != 1 ]; then
		sed -i '/^   bw (UNIT\/s): /d; /^   iops        : /d' "$T/fio$n.mask" "$T/sb$n.mask"
	else
		[ "$(grep -c '^   bw (UNIT/s): ' "$T/sb$n.mask")" = 1 ] ||
			fail "the seed's command: no bw line: $(cat "$T/sb$n.txt")"
	fi
	# fio finds the disk beneath a file on some machines and not others:
	# the Disk stats section is compared where both print it
	if ! grep -q '^Disk stats' "$T/fio$n.mask" || ! grep -q '^Disk stats' "$T/sb$n.mask"; then
		for who in fio sb; do
			sed -i '/^Disk stats/,$d' "$T/$who$n.mask"
			sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$T/$who$n.mask"
		done
	fi
	diff -u "$T/fio$n.mask" "$T/sb$n.mask" >"$T/d$n" ||
		fail "command $n ($line): the layout differs from fio's (- fio, + storbench): $(cat "$T/d$n")"
done <"$T/cmds"
[ "$n" = 11 ] || fail "ran $n commands, not 11"
ok "11 commands: storbench fio's output is fio's line for line, but for the figures"

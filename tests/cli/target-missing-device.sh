# A path under /dev that does not exist is a device that is not there (a
# card not inserted, a typo), never a file to create: before, 'soak
# --destroy-data /dev/mmcblk1' created a file on devtmpfs, soaked RAM and
# printed PASS, and verify and quick measured it (issue 26, item 6). Every
# command refuses it with exit 3 (the machine's state, as a busy device),
# naming the block devices there are, and the path still does not exist
# afterwards. A target in RAM (tmpfs, ramfs) is named so in the text and
# the JSON of every command.
# needs: root
. "$SB_TOP/tests/lib/cli.sh"

M=/dev/sbtest-missing-$$
[ -e "$M" ] && skip "$M exists"
# a block device that holds something, and its size as the listing says it
first=
for d in /sys/class/block/*; do
	[ "$(cat "$d/size" 2>/dev/null || echo 0)" != 0 ] && { first=$(basename "$d"); break; }
done
cmds="run --rw=write --size=1M M
run --rw=read --size=1M M
quick --size=2M --runtime=100ms --repeat=1 M
verify --size=1M M
verify --phase=check M
soak --iterations=2 --size=16M --destroy-data --log=$T/x.jsonl M
latency --count=2 M
latency --write --count=2 --destroy-data M
cliff --size=4M --destroy-data M
flash M
spo --destroy-data --journal=$T/j --duration=1s M
pts --destroy-data M
fio --name=x --size=1M --rw=write --filename=M
sweep --file-sizes=1M --record-sizes=64k --tests=write M
meta --files=16 M
iozone -i 0 -s 1m -r 64k -f M
bonnie -s 0 -n 1 -d M
info M"
echo "$cmds" | while read -r line; do
	line=$(echo "$line" | sed "s|M\$|$M|; s|=M |=$M |")
	"$SB" $line >"$T/out" 2>"$T/err"
	rc=$?
	[ -e "$M" ] && { rm -f "$M"; fail "$line: created $M"; }
	[ $rc = 3 ] || { cat "$T/out" "$T/err"; fail "$line: exit $rc, expected 3"; }
	grep -q "^storbench: cannot use '$M': no such device (a missing path under /dev is a device that is not there, never a file to create); block devices here: " "$T/err" ||
		{ cat "$T/err"; fail "$line: message"; }
	[ -z "$first" ] || grep -q "here: .*$first ([0-9.]* [KMGT]*i*B)" "$T/err" ||
		{ cat "$T/err"; fail "$line: $first not listed with its size"; }
done || exit 1
[ -e "$T/j" ] && fail "spo made its journal"
ok "18 command lines refused a missing /dev path, listing the block devices; nothing created"

# /dev itself is a directory of device nodes, not a place for test files
devfs=$(awk '$5 == "/dev" { for (i = 7; i <= NF; i++) if ($i == "-") print $(i + 1) }' /proc/self/mountinfo | tail -n 1)
if [ "$devfs" = devtmpfs ]; then
	for cmd in "run --rw=write --size=1M" "verify --size=1M" "meta --files=16" "quick --size=2M --repeat=1"; do
		expect_exit 2 "$SB" $cmd /dev
		grep -q "^storbench: cannot use '/dev': it is a directory of device nodes (devtmpfs, in RAM), not storage: name a device; block devices here: " "$T/err" ||
			{ cat "$T/err"; fail "$cmd /dev: message"; }
	done
	ls -a /dev | grep -q storbench && fail "a storbench file in /dev"
	ok "/dev as a directory target is refused"
fi

# a target in RAM: named so by every command, text and JSON
for fs in tmpfs ramfs; do
	mkdir "$T/$fs"
	mount -t $fs -o size=64M $fs "$T/$fs" 2>/dev/null || skip "cannot mount $fs here"
	trap 'unmount "$T/tmpfs" "$T/ramfs"; cleanup' EXIT INT TERM
	d=$T/$fs
	warn="warning: the target is in RAM ($fs on $d): the figures are the memory's, not a storage device's"
	echo "run --rw=write --size=1M --direct=0
quick --size=2M --runtime=100ms --repeat=1
verify --size=1M --direct=0
soak --iterations=1 --size=1M --direct=0 --log=$T/s.jsonl
latency --count=2 --buffered
cliff --size=4M
meta --files=16 --size=0
sweep --file-sizes=1M --record-sizes=64k --tests=write" | while read -r line; do
		rm -f "$T/r.json" "$T/s.jsonl"
		"$SB" $line --output="$T/r.json" "$d" >"$T/out" 2>"$T/err" ||
			{ cat "$T/out" "$T/err"; fail "$fs: $line failed"; }
		grep -qF "$warn" "$T/err" || { cat "$T/out" "$T/err"; fail "$fs: $line: no RAM warning"; }
		[ "$(json "$T/r.json" "d['storbench']['target']['in_ram']")" = True ] ||
			fail "$fs: $line: target.in_ram is not true"
		[ "$(json "$T/r.json" "any(w.startswith('the target is in RAM ($fs on $d)') for w in d['storbench']['warnings'])")" = True ] ||
			fail "$fs: $line: the JSON warnings do not name RAM"
	done || exit 1
	# the commands with output of their own: the warning in their text
	head -c 16M /dev/zero >"$d/img"
	echo "fio --name=x --size=1M --rw=write --filename=$d/fio.bin
iozone -i 0 -s 1m -r 64k -f $d/iz.bin
bonnie -s 0 -n 1 -d $d
spo --destroy-data --journal=$T/j.$fs --duration=1s --quiet $d/img
spo --check --journal=$T/j.$fs $d/img
flash --quiet $d/img" | while read -r line; do
		# flash times the device: no O_DIRECT (ramfs) is refused before it measures
		[ $fs = ramfs ] && [ "${line%% *}" = flash ] && continue
		"$SB" $line >"$T/out" 2>&1
		grep -q "warning: the target is in RAM ($fs on $d)" "$T/out" ||
			{ cat "$T/out"; fail "$fs: $line: no RAM warning"; }
	done || exit 1
	rm -f "$d/img"
	"$SB" info "$d" >"$T/out" 2>&1 || fail "$fs: info"
	grep -q "device        none (the filesystem is in RAM: $fs)" "$T/out" || { cat "$T/out"; fail "$fs: info text"; }
	"$SB" soak --iterations=1 --size=1M --direct=0 --log="$T/s2.jsonl" "$d/f" >"$T/out" 2>&1 ||
		fail "$fs: soak"
	grep -qx "target: $d/f (created for the test)" "$T/out" || { cat "$T/out"; fail "$fs: soak: target line"; }
	grep -qx "filesystem: $fs on $d (in RAM, no block device beneath)" "$T/out" || { cat "$T/out"; fail "$fs: soak: RAM"; }
	rm -f "$T/s2.jsonl"
	"$SB" report --format=text "$T/r.json" >"$T/out" 2>&1 || fail "$fs: report"
	grep -q "filesystem: $fs on $d (in RAM)" "$T/out" || { cat "$T/out"; fail "$fs: report text"; }
done
ok "tmpfs and ramfs: every command names RAM in its text and JSON"
exit 0

# fio's e4defrag engine on an ext4 filesystem of the test's own (a loop
# device over a file in its folder): each write moves the file's blocks
# into the donor (EXT4_IOC_MOVE_EXT), so the data stays byte for byte, its
# blocks are new ones (filefrag), and the donor is the region's size
# (inplace=0: allocated before the moves) or left empty (inplace=1); the JSON's
# bytes are fio's (measured with fio 3.33); on tmpfs the message names the
# engine and the filesystem; bad values name the option; a donor that is
# not storbench's is refused; time_based without runtime runs bound by its
# size, as fio.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
command -v filefrag >/dev/null || skip "no filefrag (e2fsprogs)"
dev=$(make_loop 96)
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
mkdir -p "$T/m" "$T/tm"
mount "$dev" "$T/m" || skip "cannot mount ext4 on $dev"
trap 'unmount "$T/m" "$T/tm"; cleanup' EXIT INT TERM

# the first extent's physical start of FILE
phys() { filefrag -v "$1" | awk '$1 == "0:" { print $4 }'; }
job() { # NAME INPLACE [MORE]: a job file in the ext4 mount
	printf '[%s]\nioengine=e4defrag\nfilename=f1\ndonorname=f1.def\nsize=4m\nbs=32k\nrw=write\ninplace=%s\n%b' \
		"$1" "$2" "${3:-}" >"$T/m/$1.fio"
}

for inplace in 0 1; do
	rm -f "$T/m/f1" "$T/m/f1.def"
	head -c 4194304 /dev/urandom >"$T/m/f1"
	sync
	sum=$(sha256sum <"$T/m/f1")
	before=$(phys "$T/m/f1")
	job "ip$inplace" $inplace
	(cd "$T/m" && "$SB" fio --destroy-data --output-format=json "ip$inplace.fio" \
		>"$T/ip$inplace.json" 2>"$T/ip$inplace.err") ||
		{ cat "$T/ip$inplace.err"; fail "inplace=$inplace: the job failed"; }
	got=$(python3 -c "import json; d=json.load(open('$T/ip$inplace.json')); j=d['jobs'][0]; print(j['error'], j['write']['io_bytes'], j['write']['total_ios'], j['read']['io_bytes'])")
	[ "$got" = "0 4194304 128 0" ] || fail "inplace=$inplace: error, write bytes, ios, read bytes: $got (fio: 0 4194304 128 0)"
	[ "$(sha256sum <"$T/m/f1")" = "$sum" ] || fail "inplace=$inplace: the file's data changed"
	after=$(phys "$T/m/f1")
	[ -n "$before" ] && [ "$before" != "$after" ] ||
		fail "inplace=$inplace: the file's blocks did not move ($before, $after)"
	[ -f "$T/m/f1.def" ] || fail "inplace=$inplace: no donor file"
	if [ $inplace = 0 ]; then
		[ "$(stat -c %s "$T/m/f1.def")" = 4194304 ] ||
			fail "inplace=0: the donor is not the region's 4 MiB"
	else
		[ "$(stat -c %s "$T/m/f1.def")" = 0 ] || fail "inplace=1: the donor is not empty"
	fi
	ok "inplace=$inplace: 4 MiB moved ($before -> $after), data intact, donor as fio leaves it"
done

# a donor of someone else's is never used without --destroy-data
echo keep >"$T/m/theirs"
job theirs 0
sed -i 's/^donorname=.*/donorname=theirs/' "$T/m/theirs.fio"
rm -f "$T/m/f1"
(cd "$T/m" && "$SB" fio theirs.fio >"$T/out" 2>"$T/err")
[ $? = 2 ] || { cat "$T/err"; fail "a donor not storbench's: not refused"; }
grep -q "refusing to overwrite 'theirs'" "$T/err" || fail "refusal: $(cat "$T/err")"
[ "$(cat "$T/m/theirs")" = keep ] || fail "the donor not ours was changed"
ok "a donor storbench did not make is refused"

# time_based with no runtime: fio runs it bound by its size
job tb 1 "time_based\n"
(cd "$T/m" && "$SB" fio --output-format=json tb.fio >"$T/tb.json" 2>"$T/err") ||
	{ cat "$T/err"; fail "time_based without runtime refused"; }
[ "$(json "$T/tb.json" "d['jobs'][0]['write']['io_bytes']")" = 4194304 ] ||
	fail "time_based without runtime: not bound by its size"
grep -q "time_based without runtime" "$T/err" || fail "no note: $(cat "$T/err")"
ok "time_based without runtime: bound by its size, as fio"

# on tmpfs the ioctl cannot work: the message names the engine and the filesystem
mount -t tmpfs -o size=16m tmpfs "$T/tm" || skip "cannot mount tmpfs"
job tm 0
cp "$T/m/tm.fio" "$T/tm/"
(cd "$T/tm" && "$SB" fio tm.fio >"$T/out" 2>"$T/err")
rc=$?
[ $rc = 1 ] || { cat "$T/err"; fail "on tmpfs: exit $rc, expected 1"; }
grep -q "ioengine=e4defrag needs ext4, the file is on tmpfs" "$T/err" ||
	fail "on tmpfs: $(cat "$T/err")"
ok "on tmpfs: $(grep e4defrag "$T/err")"

# bad values name the option
for bad in "donorname=../x|donorname: '../x' is not valid" \
	"donorname=/tmp/x|donorname: '/tmp/x' is not valid" \
	"inplace=2|inplace: '2' is not valid (expected 0 or 1)"; do
	job bad 0 "${bad%%|*}\n"
	expect_exit 2 "$SB" fio --parse-only "$T/m/bad.fio"
	grep -qF "${bad#*|}" "$T/err" || fail "${bad%%|*}: $(cat "$T/err")"
done
job nodonor 0
sed -i '/^donorname=/d' "$T/m/nodonor.fio"
(cd "$T/m" && "$SB" fio nodonor.fio >"$T/out" 2>"$T/err")
[ $? = 2 ] || fail "no donorname: not refused"
grep -q "donorname: ioengine=e4defrag needs a donor file" "$T/err" || fail "no donorname: $(cat "$T/err")"
ok "bad donorname= and inplace= refused naming the option"

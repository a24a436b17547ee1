#!/bin/sh
# storbench spo refuses what it must not do and bad option values: exit 2
# with one line naming the option; without --destroy-data nothing is
# written; a mounted device is never written; the journal is never
# overwritten nor kept on the device under test.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

truncate -s 1M "$T/t.img" || fail truncate
sum=$(md5sum <"$T/t.img")
check() { # NAME-IN-MESSAGE ARGS...
	name=$1; shift
	"$SB" spo "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || { cat "$T/err"; fail "'$*' exited $rc, expected 2"; }
	[ "$(wc -l <"$T/err")" = 1 ] || { cat "$T/err"; fail "'$*': expected one line"; }
	grep -q -- "$name" "$T/err" || { cat "$T/err"; fail "'$*': message does not name $name"; }
	[ -e "$T/j" ] && fail "'$*' created the journal"
	[ "$(md5sum <"$T/t.img")" = "$sum" ] || fail "'$*' wrote the target"
	return 0
}
J=--journal="$T/j"
check --destroy-data "$J" "$T/t.img"
check --journal --destroy-data "$T/t.img"
check --bs --destroy-data "$J" --bs=1000 "$T/t.img"
check --bs --destroy-data "$J" --bs=2M "$T/t.img"
check --iodepth --destroy-data "$J" --iodepth=0 "$T/t.img"
check --iodepth --destroy-data "$J" --iodepth=65 "$T/t.img"
check --rw --destroy-data "$J" --rw=read "$T/t.img"
check --sync --destroy-data "$J" --sync=sometimes "$T/t.img"
check --flush-every --destroy-data "$J" --flush-every=0 "$T/t.img"
check --flush-interval --destroy-data "$J" --flush-interval=0 "$T/t.img"
check --flush-every --destroy-data "$J" --sync=dsync --flush-every=4 "$T/t.img"
check --flush-every --destroy-data "$J" --sync=none --flush-every=4 "$T/t.img"
check --duration --destroy-data "$J" --duration=5x "$T/t.img"
check --cut-after --destroy-data "$J" --cut-after=30s-5s --cut-cmd=true "$T/t.img"
check --cut-after --destroy-data "$J" --cut-after=5s "$T/t.img"
check --cut-after --destroy-data "$J" --cut-cmd=true "$T/t.img"
check --canary --destroy-data "$J" --canary=1000 "$T/t.img"
check --offset --destroy-data "$J" --offset=100 "$T/t.img"
check --size --destroy-data "$J" --size=2M "$T/t.img"
check --allow-torn --check "$J" --allow-torn=100 "$T/t.img"
check --cycles --destroy-data "$J" --cycles=0 "$T/t.img"
check --cycles --cycles=3 --cut-cmd=true "$T/t.img"
check --check --check "$J" --cut-cmd=true --cut-after=1s-2s "$T/t.img"
check --reconnect-cmd --destroy-data "$J" --reconnect-cmd=true "$T/t.img"
check "too small" --destroy-data "$J" --canary=1M "$T/t.img"
check "both want standard output" --destroy-data --journal=- --format=json "$T/t.img"
ok "bad values and combinations refused, nothing written"

mkdir "$T/d"
check "not a block device or a file" --destroy-data "$J" "$T/d"
: >"$T/j"
"$SB" spo --destroy-data --journal="$T/j" --duration=1s "$T/t.img" 2>"$T/err"
[ $? = 2 ] || fail "an existing journal was not refused"
grep -q "never overwritten" "$T/err" || { cat "$T/err"; fail "existing journal: message"; }
rm -f "$T/j"
[ "$(md5sum <"$T/t.img")" = "$sum" ] || fail "target written after a journal refusal"
ok "directories and existing journals refused"

# the journal on the target itself
"$SB" spo --destroy-data --journal=- --duration=1s "$T/t.img" >>"$T/t.img" 2>"$T/err"
[ $? = 2 ] || { cat "$T/err"; fail "a journal onto the target was not refused"; }
grep -q "device under test" "$T/err" || { cat "$T/err"; fail "journal on target: message"; }
ok "a journal onto the target itself is refused"

# a mounted device is never written, with or without --destroy-data
[ "$(id -u)" = 0 ] || skip "needs root for the mounted-device refusal"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing (e2fsprogs)"
command -v unshare >/dev/null || skip "unshare missing (util-linux)"
dev=$(make_loop 16) || skip "no loop device"
mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4"
dsum=$(md5sum <"$dev")
"$SB" spo --journal="$T/j2" --duration=1s "$dev" 2>"$T/err"
[ $? = 2 ] || fail "a device without --destroy-data was not refused"
mkdir "$T/mnt"
unshare -m sh -c "
	mount -o ro,noload '$dev' '$T/mnt' || exit 99
	'$SB' spo --destroy-data --journal='$T/j3' --duration=1s '$dev' 2>'$T/err'
	[ \$? = 3 ] || exit 1
	exit 0"
rc=$?
[ $rc = 99 ] && skip "cannot mount ext4 here"
[ $rc = 0 ] || { cat "$T/err"; fail "mounted device: not refused"; }
grep -q "mounted" "$T/err" || { cat "$T/err"; fail "mounted device: message"; }
[ "$(md5sum <"$dev")" = "$dsum" ] || fail "the mounted device changed"
[ -e "$T/j3" ] && fail "a journal was made for a refused device"
ok "a mounted device is refused even with --destroy-data"

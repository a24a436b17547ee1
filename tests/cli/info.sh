# storbench info: a file, a directory, zram0 and a loop device (with ext4,
# then mounted) described in text and JSON that parses, checked against
# findmnt and sysfs; bad targets (missing, a character device, no
# permission) get one clear line and exit 2 or 3. Reads only.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

info_cleanup() {
	mountpoint -q "$T/mnt" 2>/dev/null && umount "$T/mnt"
	cleanup
}
trap info_cleanup EXIT INT TERM

echo data >"$T/file"

# a file: text with the filesystem and the device beneath
expect_exit 0 "$SB" info "$T/file"
grep -q "^target .*$T/file (file, 5 B)" "$T/out" || fail "target line: $(cat "$T/out")"
grep -q "^filesystem " "$T/out" || fail "no filesystem line"
[ -s "$T/err" ] && fail "stderr not empty: $(cat "$T/err")"
ok "file: text"

# a directory, JSON on stdout alone, checked against findmnt
expect_exit 0 "$SB" info --format=json "$T"
cp "$T/out" "$T/dir.json"
[ "$(json "$T/dir.json" "d['storbench']['command']")" = info ] || fail "command"
[ "$(json "$T/dir.json" "d['storbench']['target']['kind']")" = directory ] || fail "kind"
fs=$(json "$T/dir.json" "d['storbench']['info']['filesystem']['type']")
mnt=$(json "$T/dir.json" "d['storbench']['info']['filesystem']['mountpoint']")
if command -v findmnt >/dev/null; then
	[ "$fs" = "$(findmnt -n -o FSTYPE --target "$T" | tail -n 1)" ] || fail "fstype $fs"
	[ "$mnt" = "$(findmnt -n -o TARGET --target "$T" | tail -n 1)" ] || fail "mountpoint $mnt"
	opts=$(json "$T/dir.json" "d['storbench']['info']['filesystem']['options']")
	for o in $(findmnt -n -o VFS-OPTIONS --target "$T" | tail -n 1 | tr , ' '); do
		case ",$opts," in *",$o,"*) ;; *) fail "option $o missing from '$opts'" ;; esac
	done
fi
ok "directory: json ($fs on $mnt)"

# --output writes the same document; text still goes to stdout
expect_exit 0 "$SB" info --output="$T/o.json" "$T"
grep -q "^target " "$T/out" || fail "text with --output"
[ "$(json "$T/o.json" "d['storbench']['info']['filesystem']['type']")" = "$fs" ] || fail "--output"
ok "--output"

# zram0 (read only; others may read it too)
if [ -b /dev/zram0 ] && [ "$(cat /sys/block/zram0/disksize 2>/dev/null)" != 0 ]; then
	expect_exit 0 "$SB" info --format=json /dev/zram0
	cp "$T/out" "$T/z.json"
	dev="d['storbench']['info']['device']"
	[ "$(json "$T/z.json" "$dev['transport']")" = zram ] || fail "zram transport"
	[ "$(json "$T/z.json" "$dev['capacity']")" = "$(cat /sys/block/zram0/disksize)" ] ||
		fail "zram capacity"
	[ "$(json "$T/z.json" "$dev['logical_block_size']")" = \
		"$(cat /sys/block/zram0/queue/logical_block_size)" ] || fail "zram block size"
	[ "$(json "$T/z.json" "d['storbench']['info']['health']['kind']")" = none ] ||
		fail "zram health"
	ok "zram0"
	# without privilege everything sysfs tells still shows
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$SB" --version >/dev/null 2>&1; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$SB" info /dev/zram0 \
			>"$T/out" 2>"$T/err" || fail "zram0 as nobody: $(cat "$T/err")"
		grep -q "transport *zram" "$T/out" || fail "zram0 as nobody: $(cat "$T/out")"
		ok "zram0 as nobody"
	fi
fi

# bad targets: one line, exit 2 (bad input) or 3 (environment)
expect_exit 3 "$SB" info "$T/missing"
grep -q "cannot access '$T/missing': No such file or directory" "$T/err" || fail "$(cat "$T/err")"
[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one line"
expect_exit 2 "$SB" info /dev/null
grep -q "'/dev/null' is a character device" "$T/err" || fail "$(cat "$T/err")"
expect_exit 2 "$SB" info
expect_exit 2 "$SB" info "$T/file" "$T"
expect_exit 2 "$SB" info --format=xml "$T"
grep -q -- "--format" "$T/err" || fail "$(cat "$T/err")"
[ -e "$T/o2.json" ] && fail "created"
ok "bad targets and options"

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$SB" --version >/dev/null 2>&1; then
	mkdir -m 700 "$T/locked" && echo x >"$T/locked/f"
	chmod 755 "$T"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$SB" info "$T/locked/f" \
		>"$T/out" 2>"$T/err"
	rc=$?
	chmod 700 "$T"
	[ $rc = 3 ] || fail "no permission: exit $rc, $(cat "$T/err")"
	grep -q "cannot access '$T/locked/f': Permission denied" "$T/err" || fail "$(cat "$T/err")"
	ok "no permission"
fi

# a loop device over a temporary file: ext4 found, then mounted
[ "$(id -u)" = 0 ] || skip "needs root for a loop device (the rest passed)"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4 (the rest passed)"
loop=$(make_loop 64)
expect_exit 0 "$SB" info --format=json "$loop"
cp "$T/out" "$T/l.json"
i="d['storbench']['info']"
[ "$(json "$T/l.json" "$i['device']['transport']")" = loop ] || fail "loop transport"
[ "$(json "$T/l.json" "$i['device']['backing_file']")" = "$(realpath "$T/loop.img")" ] ||
	fail "backing file"
[ "$(json "$T/l.json" "$i['device']['capacity']")" = 67108864 ] || fail "loop capacity"
[ "$(json "$T/l.json" "$i['has_signature']")" = False ] || fail "empty loop has a signature"
[ "$(json "$T/l.json" "$i['in_use']")" = False ] || fail "loop in use"
mkfs.ext4 -q "$loop" || fail "mkfs"
expect_exit 0 "$SB" info "$loop"
grep -q "signature *ext4" "$T/out" || fail "no ext4 signature: $(cat "$T/out")"
grep -q "in use *no" "$T/out" || fail "in use: $(cat "$T/out")"
mkdir "$T/mnt" && mount "$loop" "$T/mnt" || fail "mount"
expect_exit 0 "$SB" info --format=json "$loop"
cp "$T/out" "$T/m.json"
[ "$(json "$T/m.json" "$i['in_use']")" = True ] || fail "mounted loop not in use"
json "$T/m.json" "$i['in_use_where']" | grep -q "$T/mnt" || fail "where: $(cat "$T/m.json")"
expect_exit 0 "$SB" info --format=json "$T/mnt"
cp "$T/out" "$T/d.json"
[ "$(json "$T/d.json" "$i['filesystem']['source']")" = "$loop" ] || fail "source"
[ "$(json "$T/d.json" "$i['device']['disk']")" = "$(basename "$loop")" ] || fail "disk"
ok "loop: signature, mounted"

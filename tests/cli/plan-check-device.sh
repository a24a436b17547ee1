#!/bin/sh
# A plan on a block device is checked against it before its first step:
# a step that writes it without --destroy-data (the plan's or its own) is
# refused as the step itself would refuse it, a device in use (held
# O_EXCL by another process) refused even with it, a region past the device's end
# refused; nothing runs, no directory is made, the device is left byte for
# byte. A step that only reads (flash --align) needs no consent.
# needs: root loop
. "$(dirname "$0")/../lib/cli.sh"

cd "$T" || fail "cd"
dev=$(make_loop 32)
head -c 1048576 /dev/urandom >"$T/seed.bin"
dd if="$T/seed.bin" of="$dev" bs=1M count=1 conv=notrunc,fsync 2>/dev/null || fail "seed the device"
before=$(sha256sum <"$dev")

cat >"$T/w.ini" <<'INI'
[look]
run = flash --align --count=2
[speed]
run = quick --size=8M --runtime=100ms --repeat=1
INI
expect_exit 2 "$SB" plan --quiet --dir="$T/w-dir" "$T/w.ini" "$dev"
grep -qF "storbench: [speed] on '$dev': refusing to write to '$dev'" "$T/err" || { cat "$T/err"; fail "no consent"; }
grep -qF "(plan --destroy-data gives it to every step)" "$T/err" || { cat "$T/err"; fail "the way to consent"; }
[ ! -e "$T/w-dir" ] || fail "a refused plan made its directory"
[ "$(sha256sum <"$dev")" = "$before" ] || fail "the device changed"
ok "a device written without --destroy-data refused before the first step"

# the device in use: another process holds it open O_EXCL (as a mount would)
python3 -c '
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_EXCL)
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
' "$dev" "$T/held" "$T/release" &
holder=$!
wait_until 20 test -e "$T/held" || { kill $holder; fail "the holder did not start"; }
"$SB" plan --quiet --destroy-data --dir="$T/u-dir" "$T/w.ini" "$dev" >"$T/out" 2>"$T/err"
rc=$?
touch "$T/release"
wait $holder
[ $rc = 3 ] || { cat "$T/out" "$T/err"; fail "a device in use: exit $rc, expected 3"; }
grep -q "storbench: \[speed\] on '$dev': .*" "$T/err" || { cat "$T/err"; fail "a device in use"; }
[ ! -e "$T/u-dir" ] || fail "a refused plan made its directory"
[ "$(sha256sum <"$dev")" = "$before" ] || fail "the device changed"
ok "a device in use refused before the first step"

printf '[look]\nrun = flash --align --count=2\n[v]\nrun = verify --size=64M --destroy-data\n' >"$T/big.ini"
expect_exit 2 "$SB" plan --quiet --dir="$T/b-dir" "$T/big.ini" "$dev"
grep -qF "storbench: [v] on '$dev': --size: 64.0 MiB from offset 0 B goes past the end of the device (32.0 MiB)" "$T/err" || { cat "$T/err"; fail "a region past the end"; }
[ ! -e "$T/b-dir" ] || fail "a refused plan made its directory"
[ "$(sha256sum <"$dev")" = "$before" ] || fail "the device changed"
ok "a region past the device's end refused before the first step"

printf '[look]\nrun = flash --align --count=2\n' >"$T/r.ini"
expect_exit 0 "$SB" plan --quiet --dir="$T/r-dir" "$T/r.ini" "$dev"
[ "$(sha256sum <"$dev")" = "$before" ] || fail "a read-only plan changed the device"
ok "a step that only reads needs no consent"

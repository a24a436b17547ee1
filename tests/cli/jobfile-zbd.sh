# fio's zonemode=zbd on a regular file, zones emulated as fio 3.33 does:
# a randwrite job's writes (write_iolog) go at each zone's write pointer,
# sequential from the zone's start, and it moves its size; a later
# read_beyond_wp=0 job reads only what was written (fio 3.33 reads the
# same bytes: 2 MiB of the 8 MiB region); offset and size in zones
# (2z); max_open_zones=2 keeps at most 2 zones half written; bad values
# are refused naming the option.
# needs: none
. "$SB_TOP/tests/lib/cli.sh"

cd "$T" || fail "no $T"

# every write of LOG (zones of ZS bytes) at its zone's write pointer,
# from the zone's start (a full zone's again from its start: reset); at
# most MAXOPEN zones partly written at once;
# prints the bytes written
writes_ok() { # LOG ZS MAXOPEN
	python3 - "$@" <<'PY'
import sys
log, zs, maxopen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wp, total = {}, 0
for line in open(log):
    p = line.split()
    if len(p) == 5 and p[2] == "write":
        off, n = int(p[3]), int(p[4])
        z = off // zs
        if off == z * zs and wp.get(z) == (z + 1) * zs:
            wp[z] = off  # a full zone written again: reset first, as fio
        if wp.get(z, z * zs) != off:
            sys.exit("write at %d: zone %d has its write pointer at %d" % (off, z, wp.get(z, z * zs)))
        if off + n > (z + 1) * zs:
            sys.exit("write at %d of %d crosses its zone end" % (off, n))
        wp[z] = off + n
        partial = [k for k, v in wp.items() if v % zs]
        if len(partial) > maxopen:
            sys.exit("%d zones partly written at once" % len(partial))
        total += n
print(total)
PY
}

io_bytes() { # JSON JOB DIR
	json "$1" "[j for j in d['jobs'] if j['jobname'] == '$2'][0]['$3']['io_bytes']"
}

# randwrite on a new file: each zone written whole, from its start
cat >rw.fio <<'EOF'
[z]
filename=rw.bin
zonemode=zbd
zonesize=1M
rw=randwrite
bs=64k
size=8M
write_iolog=rw.log
EOF
expect_exit 0 "$SB" fio --output-format=json --output=rw.json rw.fio
got=$(writes_ok rw.log 1048576 8) || fail "randwrite: $got"
[ "$got" = 8388608 ] || fail "randwrite wrote $got bytes, not 8388608"
[ "$(io_bytes rw.json z write)" = 8388608 ] || fail "randwrite: io_bytes $(io_bytes rw.json z write)"
ok "randwrite under zonemode=zbd writes each zone from its start"

# a write of a quarter of the region, then reads that stop at the write
# pointers (fio 3.33 on the same file: w 2097152, r 2097152, rr 4194304)
cat >wr.fio <<'EOF'
[global]
filename=wr.bin
zonemode=zbd
zonesize=1M
bs=64k

[w]
rw=randwrite
size=8M
io_size=2M
write_iolog=w.log

[r]
stonewall
rw=read
size=8M
read_beyond_wp=0
write_iolog=r.log

[rr]
stonewall
rw=randread
size=8M
io_size=4M
EOF
expect_exit 0 "$SB" fio --output-format=json --output=wr.json wr.fio
for want in "w write 2097152" "r read 2097152" "rr read 4194304"; do
	set -- $want
	[ "$(io_bytes wr.json "$1" "$2")" = "$3" ] ||
		fail "job $1 moved $(io_bytes wr.json "$1" "$2") bytes, fio 3.33 moves $3"
done
# every read below the write pointers the writes left
python3 - w.log r.log <<'PY' || fail "a read passed a write pointer"
import sys
zs, wp = 1 << 20, {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 5 and p[2] == "write":
        wp[int(p[3]) // zs] = int(p[3]) + int(p[4])
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) == 5 and p[2] == "read":
        off, n = int(p[3]), int(p[4])
        z = off // zs
        if off + n > wp.get(z, z * zs):
            sys.exit("read at %d past the write pointer %d" % (off, wp.get(z, z * zs)))
PY
# read_beyond_wp=1 reads the region whole
sed 's/read_beyond_wp=0/read_beyond_wp=1/' wr.fio >wr1.fio
expect_exit 0 "$SB" fio --output-format=json --output=wr1.json wr1.fio
[ "$(io_bytes wr1.json r read)" = 8388608 ] || fail "read_beyond_wp=1 read $(io_bytes wr1.json r read)"
ok "read_beyond_wp=0 reads only below the write pointers"

# offset and size in zones, two zones open at most
cat >oz.fio <<'EOF'
[z]
filename=oz.bin
zonemode=zbd
zonesize=1M
max_open_zones=2
rw=randwrite
bs=64k
offset=2z
size=4z
write_iolog=oz.log
EOF
expect_exit 0 "$SB" fio --output-format=json --output=oz.json oz.fio
got=$(writes_ok oz.log 1048576 2) || fail "offset=2z: $got"
python3 - oz.log <<'PY' || fail "offset=2z size=4z: a write outside [2 MiB, 6 MiB)"
import sys
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 5 and p[2] == "write" and not (2 << 20 <= int(p[3]) and int(p[3]) + int(p[4]) <= 6 << 20):
        sys.exit(1)
PY
[ "$(io_bytes oz.json z write)" = 4194304 ] || fail "size=4z moved $(io_bytes oz.json z write)"
ok "offset=2z size=4z max_open_zones=2"

# bad values, each refused naming its option
bad() { # OPTION-LINE WORD
	printf '[b]\nfilename=b.bin\nrw=randwrite\nbs=64k\nsize=8M\nzonemode=zbd\nzonesize=1M\n%s\n' "$1" >b.fio
	expect_exit 2 "$SB" fio --parse-only b.fio
	grep -q "$2" err || { cat err; fail "'$1': the message does not name $2"; }
}
bad "zonemode=zns" "zonemode"
bad "zonesize=256" "zonesize"
bad "zonecapacity=2M" "zonecapacity"
bad "max_open_zones=5000" "max_open_zones"
bad "max_open_zones=x" "max_open_zones"
bad "job_max_open_zones=2" "job_max_open_zones"
bad "zone_reset_threshold=1.5" "zone_reset_threshold"
bad "zone_reset_frequency=-1" "zone_reset_frequency"
bad "read_beyond_wp=2" "read_beyond_wp"
bad "ignore_zone_limits=yes" "ignore_zone_limits"
bad "size=xz" "size"
bad "bs=2M" "zonesize"
bad "rw=randtrim" "trim"
bad "rw=trimwrite" "trimwrite"
printf '[b]\nfilename=b.bin\nrw=randwrite\nsize=8M\nzonemode=zbd\n' >b.fio
expect_exit 2 "$SB" fio --parse-only b.fio
grep -q "zonesize" err || { cat err; fail "zonemode=zbd without zonesize: $(cat err)"; }
printf '[b]\nfilename=b.bin\nrw=randwrite\nsize=8z\n' >b.fio
expect_exit 2 "$SB" fio --parse-only b.fio
grep -q "zonesize" err || { cat err; fail "size=8z without zonesize: $(cat err)"; }
ok "bad zone options refused"

#!/bin/sh
# storbench fio's terse output (--minimal, --output-format=terse, versions 2
# to 5): fio's layout field for field (the count, the constant fields, the
# kind of every field), figures that agree with storbench's own JSON of
# the same run, and `cut -d';' -f7,8` (read bw and iops, per fio's HOWTO)
# working on both. Real fio's lines are the reference when fio is
# installed; without it, storbench's are checked against the layout alone.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

have_fio=0
command -v fio >/dev/null 2>&1 && fio --version 2>/dev/null | grep -q '^fio-3' && have_fio=1
job() { # the same small job for both: 2 MiB read at random in 4 KiB
	printf '%s\n' --name=t --filename="$T/$1.bin" --size=2m --bs=4k --rw=randread \
		--ioengine=psync
}

# fio's fields per version (HOWTO "Terse output", stat.c): the header, 41
# per direction (+6 in v5), read and write (v3) or with trim too (2, 4, 5),
# CPU 5, IO depths 7, latency 10 + 12, then 9 per disk (not in v2)
layout_ok() { # FILE VERSION: each line has the field count of that version
	python3 - "$1" "$2" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
v = int(sys.argv[2])
head = 4 if v == 2 else 5
dirs = 2 if v == 3 else 3
per = 47 if v == 5 else 41
base = head + dirs * per + 34
assert lines, 'no line'
for l in lines:
    n = len(l.split(';'))
    disk = n - base
    assert disk in ((0,) if v == 2 else (0, 9)), (v, n, base, l[:80])
print(base)
PY
}

# 1. --minimal: fio's line, field for field
expect_exit 0 "$SB" fio --minimal $(job sb) --quiet
cp "$T/out" "$T/sb.txt"
[ "$(wc -l <"$T/sb.txt")" = 1 ] || { cat "$T/sb.txt"; fail "--minimal: not one line"; }
layout_ok "$T/sb.txt" 3 >/dev/null || fail "--minimal: not fio's terse v3 layout"
ok "--minimal: one line in fio's terse v3 layout"

kinds() { # FILE: each field's kind, so that fio's and ours compare position by position
	python3 - "$1" <<'PY'
import re, sys
l = open(sys.argv[1]).readline().rstrip('\n').split(';')
def kind(i, f):
    if i == 1:
        return 'version:' + ('fio-3' if re.match(r'^fio-3\.[0-9]+', f) else f)
    if i in (0, 2, 3, 4):
        return 'const:' + f  # terse version, job name, groupid, error
    if re.fullmatch(r'[0-9]+\.[0-9]{6}%=[0-9]+', f):
        return 'pct:' + f.split('=')[0]
    if f == '0%=0':
        return 'pct:none'
    for k, r in (('int', r'[0-9]+'), ('f6', r'-?[0-9]+\.[0-9]{6}'),
                 ('f6%', r'[0-9]+\.[0-9]{6}%'), ('f1%', r'[0-9]+\.[0-9]%'),
                 ('f2%', r'[0-9]+\.[0-9]{2}%'), ('name', r'[a-zA-Z][a-zA-Z0-9_.-]*')):
        if re.fullmatch(r, f):
            return k
    return '?' + f
print('\n'.join(kind(i, f) for i, f in enumerate(l)))
PY
}

if [ $have_fio = 1 ]; then
	fio --minimal $(job fio) >"$T/fio.txt" 2>"$T/fio.err" || { cat "$T/fio.err"; fail "fio itself failed"; }
	kinds "$T/fio.txt" >"$T/fio.kinds"
	kinds "$T/sb.txt" >"$T/sb.kinds"
	# fio names the disk beneath the file and storbench too where it finds
	# one; a side that found none has 9 fields fewer, which says so
	diff "$T/fio.kinds" "$T/sb.kinds" >"$T/kinds.diff" ||
		{ cat "$T/kinds.diff"; fail "--minimal: fields differ in kind from fio's"; }
	ok "--minimal: $(wc -l <"$T/sb.kinds") fields, of the kinds fio's has, constants equal ($(cut -d';' -f1-5 "$T/sb.txt"))"
else
	echo "note: fio not installed: storbench's terse lines checked against fio's layout only"
fi

# 2. a script's cut: read KiB, bw, iops from both (HOWTO fields 6, 7, 8)
both=sb
[ $have_fio = 1 ] && both="sb fio"
for f in $both; do
	kib=$(cut -d';' -f6 "$T/$f.txt")
	bwiops=$(cut -d';' -f7,8 "$T/$f.txt")
	[ "$kib" = 2048 ] || fail "$f: field 6 (read KiB) is '$kib', not 2048 (2 MiB read)"
	echo "$bwiops" | grep -qx '[1-9][0-9]*;[1-9][0-9]*' || fail "$f: cut -f7,8 gave '$bwiops'"
done
ok "cut -d';' -f6,7,8: read KiB 2048, bw and iops as whole numbers, from both"

# 3. the figures are those of storbench's own JSON of the same run:
# --output-format=json,terse writes both, the terse line first (as fio)
expect_exit 0 "$SB" fio --output-format=json,terse $(job js) --quiet
python3 - "$T/out" <<'PY' || fail "terse figures differ from the JSON's"
import json, sys
text = open(sys.argv[1]).read()
line, rest = text.split('\n', 1)
assert line.startswith('3;fio-3.'), line[:40]
d = json.loads(rest)
j = d['jobs'][0]
f = line.split(';')
assert f[2] == j['jobname'] == 't' and int(f[3]) == j['groupid'] and int(f[4]) == j['error']
def ddir(base, r):
    run = r['runtime']
    assert int(f[base]) == r['io_bytes'] >> 10, ('io KiB', f[base])
    bw = (1000 * r['io_bytes'] // run) // 1024 if run else 0
    iops = 1000 * r['total_ios'] // run if run else 0
    assert int(f[base + 1]) == bw, ('bw', f[base + 1], bw)
    assert int(f[base + 2]) == iops, ('iops', f[base + 2], iops)
    assert int(f[base + 3]) == run, ('runtime', f[base + 3], run)
    for off, key in ((4, 'slat_ns'), (8, 'clat_ns'), (32, 'lat_ns')):
        h = r[key]
        assert int(f[base + off]) == h['min'] // 1000, (key, 'min')
        assert int(f[base + off + 1]) == h['max'] // 1000, (key, 'max')
        assert abs(float(f[base + off + 2]) - h['mean'] / 1000) < 1e-5, (key, 'mean')
        assert abs(float(f[base + off + 3]) - h['stddev'] / 1000) < 1e-5, (key, 'stddev')
    pct = r['clat_ns'].get('percentile', {})
    for i in range(20):
        k, v = f[base + 12 + i].split('%=')
        if k == '0':
            assert i >= len(pct) and v == '0'
            continue
        want = pct.get(k, 0) // 1000
        assert int(v) == want, ('percentile', k, v, want)
    assert int(f[base + 36]) == r['bw_min'] and int(f[base + 37]) == r['bw_max']
    assert abs(float(f[base + 39]) - r['bw_mean']) < 1e-5, 'bw mean'
ddir(5, j['read'])
ddir(46, j['write'])
assert j['read']['io_bytes'] == 2 * 2**20 and j['write']['io_bytes'] == 0
cpu = 87
assert abs(float(f[cpu].rstrip('%')) - j['usr_cpu']) < 1e-5
assert abs(float(f[cpu + 1].rstrip('%')) - j['sys_cpu']) < 1e-5
assert [int(x) for x in f[cpu + 2:cpu + 5]] == [j['ctx'], j['majf'], j['minf']]
depth = [float(x.rstrip('%')) for x in f[cpu + 5:cpu + 12]]
for a, b in zip(depth, j['iodepth_level'].values()):
    assert abs(a - b) <= 0.05, ('iodepth', a, b)
us = [float(x.rstrip('%')) for x in f[cpu + 12:cpu + 22]]
ms = [float(x.rstrip('%')) for x in f[cpu + 22:cpu + 34]]
ns_sum = sum(j['latency_ns'].values())
want_us = list(j['latency_us'].values())
want_us[0] += ns_sum  # fio adds the nsec buckets to the first usec one
for a, b in zip(us + ms, want_us + list(j['latency_ms'].values())):
    # %3.2f; the first usec field also carries the nsec shares, which the
    # JSON shows each at least 0.01 when not 0
    assert abs(a - b) <= 0.0051 + 0.01 * len(j['latency_ns']), ('latency', a, b)
if len(f) > 121:
    du = d['disk_util'][0]
    assert f[121] == du['name'], (f[121], du['name'])
    assert [int(x) for x in f[122:129]] == [du[k] for k in (
        'read_ios', 'write_ios', 'read_merges', 'write_merges', 'read_ticks', 'write_ticks',
        'in_queue')], 'disk'
PY
ok "json,terse: the terse line first, every figure the JSON's (bytes, bw, iops, runtime, lat, percentiles, cpu, depths, latency shares, disk)"

# 4. every terse version: fio's field count (its own when installed)
for v in 2 3 4 5; do
	expect_exit 0 "$SB" fio --minimal --terse-version=$v $(job v$v) --quiet
	cp "$T/out" "$T/v$v.txt"
	base=$(layout_ok "$T/v$v.txt" $v) || fail "--terse-version=$v: not fio's layout"
	head -c 2 "$T/v$v.txt" | grep -qx "$v;" || fail "--terse-version=$v: first field"
	if [ $have_fio = 1 ]; then
		fio --minimal --terse-version=$v $(job fv$v) >"$T/fv$v.txt" 2>/dev/null ||
			fail "fio --terse-version=$v failed"
		a=$(awk -F';' '{print NF}' "$T/fv$v.txt")
		b=$(awk -F';' '{print NF}' "$T/v$v.txt")
		[ "$a" = "$b" ] || fail "--terse-version=$v: $b fields, fio's $a"
	fi
done
ok "--terse-version=2..5: fio's field counts (against fio's own: $([ $have_fio = 1 ] && echo yes || echo 'no fio'))"

# 5. normal,terse: fio's job list, then the terse line, then the figures
expect_exit 0 "$SB" fio --output-format=normal,terse $(job nt) --quiet
awk '/^Starting /{s=NR} /^3;fio-3/{t=NR} /^t: \(groupid=0/{g=NR} END{exit !(s && t && g && s < t && t < g)}' \
	"$T/out" || { cat "$T/out"; fail "normal,terse: not in fio's order"; }
expect_exit 0 "$SB" fio --append-terse $(job at) --quiet
grep -q '^3;fio-3' "$T/out" && grep -q '^t: (groupid=0' "$T/out" ||
	fail "--append-terse: not the normal output and the terse line"
ok "normal,terse and --append-terse: both outputs, in fio's order"

# 6. group_reporting: one line for the group, as fio
expect_exit 0 "$SB" fio --minimal $(job gr) --numjobs=2 --group_reporting --quiet
[ "$(wc -l <"$T/out")" = 1 ] && [ "$(cut -d';' -f6 "$T/out")" = 4096 ] ||
	{ cat "$T/out"; fail "numjobs=2 with group_reporting: not one line of 2 x 2 MiB"; }
ok "numjobs=2 with group_reporting: one line, both jobs' KiB"
expect_exit 0 "$SB" fio --minimal $(job nogr) --numjobs=2 --quiet
[ "$(wc -l <"$T/out")" = 2 ] || { cat "$T/out"; fail "numjobs=2: not a line per thread, as fio"; }
ok "numjobs=2 without group_reporting: a line per thread, as fio"

# 6b. description=: fio appends it (version 2: on a line of its own)
for v in 2 3; do
	expect_exit 0 "$SB" fio --minimal --terse-version=$v $(job d$v) --description=some_words --quiet
	[ "$(tail -n 1 "$T/out" | awk -F';' '{print $NF}')" = some_words ] ||
		{ cat "$T/out"; fail "--terse-version=$v: description not the last field"; }
	if [ $have_fio = 1 ]; then
		fio --minimal --terse-version=$v $(job fd$v) --description=some_words >"$T/fd.txt" 2>/dev/null ||
			fail "fio --description failed"
		[ "$(awk -F';' '{print NF}' "$T/fd.txt")" = "$(awk -F';' '{print NF}' "$T/out")" ] ||
			fail "--terse-version=$v with description: fields differ from fio's"
	fi
done
ok "description=: the last terse field, as fio's"

# 7. bad input: exit 2, the option named
expect_exit 2 "$SB" fio --minimal --terse-version=6 $(job bad) --quiet
grep -q "^storbench: --terse-version: '6' is not valid (expected 2, 3, 4 or 5)$" "$T/err" ||
	{ cat "$T/err"; fail "--terse-version=6: message"; }
expect_exit 2 "$SB" fio --output-format=terse,xml $(job bad) --quiet
grep -q "^storbench: --output-format: 'terse,xml' is not valid" "$T/err" ||
	{ cat "$T/err"; fail "--output-format=terse,xml: message"; }
[ ! -e "$T/bad.bin" ] || fail "bad input created the file"
ok "bad terse options: exit 2, the option named, nothing created"

#!/bin/sh
# fio's "global options" and "job options" in the JSON of a job file's run
# (run JOB.fio, storbench fio): the options as the file wrote them, as fio
# prints them (its own name for an alias, the value as written after '=',
# a key given twice twice, a bare flag not at all, no object when there is
# none), compared pair by pair with real fio's JSON of the same file when
# fio is installed, else with the file's own words; storbench's own
# reading of each job under storbench.options, which the report reads.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

cat >"$T/k.fio" <<EOF
[global]
bs = 4k
ioengine=psync
size=1m
filename=$T/k.bin
thread
[a]
rw=randread
bs=8k
bs=16k
[b]
readwrite=write
iodepth=2
thread
blocksize=1k
name=bee
EOF
# the pairs, in order, as fio 3.33 prints them for this file
cat >"$T/want.json" <<EOF
{"global": [["bs", " 4k"], ["ioengine", "psync"], ["size", "1m"], ["filename", "$T/k.bin"]],
 "jobs": [[["rw", "randread"], ["bs", "8k"], ["bs", "16k"]],
          [["rw", "write"], ["iodepth", "2"], ["bs", "1k"], ["name", "bee"]]]}
EOF

pairs() { # FILE: global options and each job's options as ordered pairs (JSON)
	python3 - "$1" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index('{'):], object_pairs_hook=lambda p: p)  # fio's notes come first
d = dict(d)
g = dict(d).get('global options', [])
print(json.dumps({'global': g, 'jobs': [dict(j).get('job options', []) for j in d['jobs']]}))
PY
}
same() { # A B WHAT
	python3 - "$1" "$2" "$3" <<'PY' || fail "$3"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
if a != b:
    print('got ', a)
    print('want', b)
    sys.exit(1)
PY
}

expect_exit 0 "$SB" run "$T/k.fio" --format=json --output="$T/run.json" --quiet --destroy-data
pairs "$T/run.json" >"$T/run.pairs"
same "$T/run.pairs" "$T/want.json" "run JOB.fio: global/job options are not the file's words"
expect_exit 0 "$SB" fio --output-format=json --output="$T/fio-sb.json" --quiet --destroy-data "$T/k.fio"
pairs "$T/fio-sb.json" >"$T/fio-sb.pairs"
same "$T/fio-sb.pairs" "$T/want.json" "storbench fio JOB.fio: global/job options are not the file's words"
ok "run JOB.fio and storbench fio JOB.fio: [global] and each job's options as written"

if command -v fio >/dev/null 2>&1 && fio --version 2>/dev/null | grep -q '^fio-3'; then
	fio --output-format=json "$T/k.fio" >"$T/real.json" 2>"$T/real.err" ||
		{ cat "$T/real.err"; fail "fio itself failed"; }
	pairs "$T/real.json" >"$T/real.pairs"
	# fio adds no key of its own to either object (3.33); a newer fio that
	# does would show here, named
	same "$T/run.pairs" "$T/real.pairs" "job file: not real fio's global/job options"
	ok "job file: the same pairs as real fio's JSON ($(fio --version))"

	# fio's command line: options before --name are global, --name is a job option
	set -- --size=1m --name=x --filename="$T/c.bin" --bs 4k -thread --rw=randread
	fio --output-format=json "$@" >"$T/real-c.json" 2>"$T/real.err" ||
		{ cat "$T/real.err"; fail "fio itself failed"; }
	expect_exit 0 "$SB" fio --output-format=json --output="$T/sb-c.json" --quiet "$@"
	pairs "$T/real-c.json" >"$T/real-c.pairs"
	pairs "$T/sb-c.json" >"$T/sb-c.pairs"
	same "$T/sb-c.pairs" "$T/real-c.pairs" "command line: not real fio's global/job options"
	ok "command line: the same pairs as real fio's ($(cat "$T/sb-c.pairs"))"
else
	echo "note: fio not installed: compared with the file's own words only"
fi

# storbench's own reading of each job, and what consumers read
python3 - "$T/run.json" <<'PY' || fail "consumers"
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d['jobs']
assert a['storbench']['options']['bs'] == '16384' and a['storbench']['options']['rw'] == 'randread'
assert b['storbench']['options']['bs'] == '1024' and b['storbench']['options']['iodepth'] == '2'
# fio-plot (jsonimport.py): job options updated with global options
o = dict(b['job options'])
o.update(d['global options'])
assert o['rw'] == 'write' and int(o['iodepth']) == 2
PY
expect_exit 0 "$SB" report "$T/run.json" --format=text
grep -q ' 16.0 KiB ' "$T/out" && grep -q ' 1.00 KiB ' "$T/out" ||
	{ cat "$T/out"; fail "report: the jobs' block sizes"; }
ok "storbench.options holds storbench's reading; fio-plot's merge and the report read it"

# a run without a job file keeps storbench's own options (and filename)
expect_exit 0 "$SB" run --rw=read --bs=8k --size=1m --format=json --output="$T/plain.json" \
	--quiet "$T/p.bin"
[ "$(json "$T/plain.json" "d['jobs'][0]['job options']['bs']")" = 8192 ] &&
	[ "$(json "$T/plain.json" "d['global options']['filename']")" = "$T/p.bin" ] ||
	fail "run without a job file: job options changed"
ok "run without a job file: storbench's options as before"

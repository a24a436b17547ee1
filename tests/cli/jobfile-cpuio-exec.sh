# fio's cpuio and exec engines in job files: cpuio burns about cpuload
# percent of a CPU (its CPU time bounded from above, its bursts counted as
# reads of 0 bytes), exec runs the test's own program with %r and %n
# replaced, its stdout and stderr in JOB.stdout and JOB.stderr, ends it at
# the runtime with SIGTERM (SIGKILL after grace_time when it ignores it);
# a program that cannot be run leaves the job running, error 0, as fio
# 3.33; exit_on_io_done ends cpuio with the group's I/O job; bad values are
# refused naming the option.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

# cpu_of OUT CMD...: runs CMD, writes the CPU seconds its processes used
cpu_of() {
	out=$1
	shift
	python3 - "$out" "$@" <<'PY'
import resource, subprocess, sys
rc = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.3f\n" % (r.ru_utime + r.ru_stime))
sys.exit(rc)
PY
}

# cpuio: 100 ms bursts at 50 percent over 1 s, noop then qsort
for mode in noop qsort; do
	cat >"$T/cpu-$mode.fio" <<JOB
[burn]
ioengine=cpuio
cpuload=50
cpuchunks=100000
cpumode=$mode
runtime=1
JOB
	(cd "$T" && cpu_of "$T/cpu-$mode.s" "$SB" fio --output-format=json \
		--output="$T/cpu-$mode.json" "$T/cpu-$mode.fio") || fail "cpuio $mode failed"
	f="$T/cpu-$mode.json"
	[ "$(json "$f" "len(d['jobs'])")" = 1 ] || fail "cpuio $mode: not one job entry"
	[ "$(json "$f" "sum(d['jobs'][0][k]['io_bytes'] for k in ('read', 'write', 'trim'))")" = 0 ] ||
		fail "cpuio $mode: bytes moved"
	ios=$(json "$f" "d['jobs'][0]['read']['total_ios']")
	[ "$(json "$f" "d['jobs'][0]['read']['clat_ns']['N']")" = "$ios" ] ||
		fail "cpuio $mode: clat samples are not the bursts"
	[ "$(json "$f" "d['jobs'][0]['error']")" = 0 ] || fail "cpuio $mode: an error"
	# noop: a burst of 100 ms and a pause of 100 ms, 6 at most in 1 s
	[ "$ios" -ge 1 ] || fail "cpuio $mode: no burst counted"
	[ $mode = qsort ] || [ "$ios" -le 6 ] || fail "cpuio noop: $ios bursts in 1 s"
	# noop: half of one CPU for 1 s, never near a whole one (a loaded
	# machine gives less, never more); qsort's one burst may outlast the
	# second on a slow build, and it is paced by it: some CPU used
	max=0.85
	[ $mode = noop ] || max=1000
	python3 -c "import sys; s = float(open(sys.argv[1]).read()); sys.exit(not 0 < s < $max)" \
		"$T/cpu-$mode.s" || fail "cpuio $mode: used $(cat "$T/cpu-$mode.s") s of CPU in 1 s at 50%"
	ok "cpuio $mode: $ios bursts of 0 bytes, $(cat "$T/cpu-$mode.s") s of CPU in 1 s"
done

# exec: the test's own programs, in a directory of their own
mkdir "$T/ex"
cat >"$T/ex/prog.sh" <<'EOF'
#!/bin/sh
echo $$ >pid
printf '%s\n' "$@" >argv
trap 'echo term >>signals; exit 0' TERM
echo out-line
echo err-line >&2
while :; do sleep 0.1; done
EOF
cat >"$T/ex/deaf.sh" <<'EOF'
#!/bin/sh
echo $$ >pid2
trap '' TERM
while :; do sleep 0.1; done
EOF
chmod +x "$T/ex/prog.sh" "$T/ex/deaf.sh"
cat >"$T/ex/e.fio" <<JOB
[global]
ioengine=exec
runtime=1

[mon]
program=$T/ex/prog.sh
arguments=-x  %r %n two%r
[deaf]
stonewall
program=$T/ex/deaf.sh
grace_time=0
std_redirect=0
[missing]
stonewall
program=$T/ex/nothere
JOB
(cd "$T/ex" && "$SB" fio --output-format=json --output="$T/e.json" e.fio 2>"$T/e.err") ||
	fail "exec: $(cat "$T/e.err")"
[ "$(json "$T/e.json" "[j['jobname'] for j in d['jobs']]")" = "['mon', 'deaf', 'missing']" ] ||
	fail "exec: entries $(json "$T/e.json" "[j['jobname'] for j in d['jobs']]")"
[ "$(json "$T/e.json" "sum(j['error'] + j['read']['io_bytes'] for j in d['jobs'])")" = 0 ] ||
	fail "exec: an error or bytes"
[ "$(tr '\n' ' ' <"$T/ex/argv")" = "-x 1 mon two1 " ] || fail "exec: argv $(cat "$T/ex/argv")"
ok "exec: the program run with %r and %n replaced"
[ "$(cat "$T/ex/mon.stdout")" = out-line ] && [ "$(cat "$T/ex/mon.stderr")" = err-line ] ||
	fail "exec: std_redirect files"
[ ! -e "$T/ex/deaf.stdout" ] || fail "exec: std_redirect=0 made files"
ok "exec: stdout and stderr in JOB.stdout and JOB.stderr"
[ "$(cat "$T/ex/signals")" = term ] || fail "exec: no SIGTERM at the end"
for p in "$T/ex/pid" "$T/ex/pid2"; do
	! kill -0 "$(cat "$p")" 2>/dev/null || fail "exec: $(basename "$p") still runs"
done
ok "exec: SIGTERM at the runtime's end, SIGKILL for one that ignores it"
grep -q "cannot run '$T/ex/nothere': No such file or directory" "$T/ex/missing.stderr" ||
	fail "exec: missing program: $(cat "$T/ex/missing.stderr")"
ok "exec: a program that cannot be run: the job runs, error 0, why in JOB.stderr"

# a symlink in a std_redirect file's place is not written through
rm "$T/ex/mon.stdout"
ln -s "$T/victim" "$T/ex/mon.stdout"
(cd "$T/ex" && "$SB" fio --output-format=json --output="$T/e2.json" e.fio >/dev/null 2>&1)
[ ! -e "$T/victim" ] || fail "exec: wrote through a symlink"
ok "exec: never through a symlink"

# exit_on_io_done: the cpuio job ends with the group's I/O job
cat >"$T/done.fio" <<JOB
[io]
rw=write
size=256k
filename=$T/data
[burn]
ioengine=cpuio
cpuload=10
exit_on_io_done=1
runtime=60
JOB
(cd "$T" && "$SB" fio --output-format=json --output="$T/done.json" "$T/done.fio" 2>"$T/done.err") ||
	fail "exit_on_io_done: $(cat "$T/done.err")"
[ "$(json "$T/done.json" "d['jobs'][1]['job_runtime'] < 30000")" = True ] ||
	fail "exit_on_io_done: cpuio ran $(json "$T/done.json" "d['jobs'][1]['job_runtime']") ms"
ok "exit_on_io_done: cpuio ends with the I/O job"

# bad values, refused naming the option
bad() { # WHAT OPTION-NAMED LINES...
	what=$1 named=$2
	shift 2
	printf '%s\n' "[j]" "$@" >"$T/bad.fio"
	expect_exit 2 "$SB" fio --parse-only "$T/bad.fio"
	grep -q -- "$named" "$T/err" || fail "$what: $(cat "$T/err")"
}
bad "cpuload=0" "cpuload: '0'" ioengine=cpuio runtime=1 cpuload=0
bad "cpuload=101" "cpuload: '101'" ioengine=cpuio runtime=1 cpuload=101
bad "cpumode=foo" "cpumode: 'foo' is not valid (expected noop or qsort)" ioengine=cpuio \
	runtime=1 cpuload=5 cpumode=foo
bad "cpuchunks=0" "cpuchunks: '0'" ioengine=cpuio runtime=1 cpuload=5 cpuchunks=0
bad "no cpuload" "ioengine=cpuio needs cpuload=" ioengine=cpuio runtime=1
bad "no program" "ioengine=exec needs program=" ioengine=exec runtime=1
bad "empty program" "program: ''" ioengine=exec runtime=1 program=
bad "no runtime" "ioengine=exec needs runtime=" ioengine=exec program=/bin/true
bad "grace_time=-1" "grace_time: '-1'" ioengine=exec runtime=1 program=/bin/true grace_time=-1
bad "std_redirect=2" "std_redirect: '2'" ioengine=exec runtime=1 program=/bin/true std_redirect=2
expect_exit 2 "$SB" run --engine=cpuio --runtime=1s "$T"
grep -q "cpuio needs cpuload=" "$T/err" || fail "run --engine=cpuio: $(cat "$T/err")"
ok "bad values refused, naming the option"

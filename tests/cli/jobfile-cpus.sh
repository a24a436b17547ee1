# fio's cpus_allowed, cpumask and cpus_allowed_policy in job files: each
# thread of the job runs on the CPUs named (its /proc status while it
# runs), with policy=split each on one of them in turn, as fio; a CPU the
# machine does not have is refused before anything runs, naming line and
# option; bad values refused.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

ncpu=$(getconf _NPROCESSORS_CONF)
# the CPUs each thread of storbench PID may run on, one line a thread
allowed() {
	for s in /proc/"$1"/task/*/status; do
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$s" 2>/dev/null
	done
}
has_cpu() { allowed "$1" | grep -qx "$2"; }
# runs F (3 s) in the background: its workers pinned as WANT says
pinned() { # F WANT...
	f=$1
	shift
	"$SB" fio --output="$T/o.txt" "$f" 2>"$T/err" &
	pid=$!
	for want in "$@"; do
		wait_until 20 has_cpu $pid "$want" ||
			{ kill $pid; fail "$f: no thread on $want: $(allowed $pid | sort -u)"; }
	done
	wait $pid || fail "$f: $(cat "$T/err")"
}
job() { # CPU-OPTIONS...
	printf '[global]\nioengine=null\nsize=1g\nbs=4k\nruntime=3\ntime_based\n'
	for l in "$@"; do printf '%s\n' "$l"; done
	printf '[a]\nnumjobs=2\n'
}
job cpus_allowed=0 >"$T/one.fio"
pinned "$T/one.fio" 0
job cpumask=0x1 >"$T/mask.fio"
pinned "$T/mask.fio" 0
ok "cpus_allowed=0, cpumask=0x1: the threads run on CPU 0"
if [ "$ncpu" -ge 2 ]; then
	job cpus_allowed=0-1 cpus_allowed_policy=split >"$T/split.fio"
	pinned "$T/split.fio" 0 1
	job cpus_allowed=0-1 cpus_allowed_policy=shared >"$T/shared.fio"
	pinned "$T/shared.fio" 0-1
	ok "cpus_allowed_policy: split puts each thread on one CPU, shared on both"
fi

job cpus_allowed=$ncpu >"$T/none.fio"
expect_exit 2 "$SB" fio "$T/none.fio"
grep -q "cpus_allowed: CPU $ncpu is not present (this machine has CPUs 0-$((ncpu - 1)))" \
	"$T/err" || fail "a missing CPU: $(cat "$T/err")"
for bad in cpus_allowed=x cpus_allowed=3-1 cpus_allowed=1024 cpumask=0 cpumask=zz \
	cpus_allowed_policy=half; do
	job "$bad" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "line 7: ${bad%%=*}: '${bad#*=}' is not valid" "$T/err" || fail "$bad: $(cat "$T/err")"
done
ok "cpus_allowed: a missing CPU and bad values refused naming line and option"

# fio's numa_cpu_nodes and numa_mem_policy in job files, without libnuma:
# the job's threads run on the CPUs of the nodes named (sysfs's cpulist),
# in place of cpus_allowed, as fio's numa_run_on_node_mask; the memory
# policy shows on the threads' mappings (/proc's numa_maps), bind, prefer,
# interleave and local as fio's; a node the machine does not have is
# refused naming the nodes it has; bad values refused naming line and
# option. fio on the same file, where installed, shows the same policy.
# needs: none
. "$(dirname "$0")/../lib/cli.sh"

nodes=$(cat /sys/devices/system/node/online 2>/dev/null || echo 0)
cpus0=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null) || skip "no NUMA node 0 in sysfs"
# the CPUs each thread of PID may run on, one line a thread
allowed() {
	for s in /proc/"$1"/task/*/status; do
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$s" 2>/dev/null
	done
}
has_cpus() { allowed "$1" | grep -qx "$2"; }
# the memory policies the threads of PID show on their mappings
has_policy() { cat /proc/"$1"/task/*/numa_maps 2>/dev/null | grep -q " $2 "; }
job() { # OPTIONS...
	printf '[global]\nioengine=null\nsize=1g\nbs=1m\niodepth=4\nruntime=3\ntime_based\nthread\n'
	for l in "$@"; do printf '%s\n' "$l"; done
	printf '[a]\nnumjobs=2\n'
}
# runs PROG F (3 s) in the background: a mapping with POLICY, then a
# thread on CPUS and none on NOT (a CPU list, "-": any)
bound() { # CPUS NOT POLICY PROG...
	want=$1 not=$2 pol=$3
	shift 3
	"$@" >"$T/o.txt" 2>"$T/err" &
	pid=$!
	wait_until 20 has_policy $pid "$pol" ||
		{ kill $pid; fail "$*: no mapping with $pol"; }
	wait_until 20 has_cpus $pid "$want" ||
		{ kill $pid; fail "$*: no thread on $want: $(allowed $pid | sort -u)"; }
	! has_cpus $pid "$not" || { kill $pid; fail "$*: a thread on $not"; }
	wait $pid || fail "$*: $(cat "$T/err")"
}

# cpus_allowed=0 alone puts every worker on CPU 0: numa_cpu_nodes replaces it
not=-
[ "$cpus0" != 0 ] && not=0
job cpus_allowed=0 numa_cpu_nodes=0 numa_mem_policy=bind:0 >"$T/bind.fio"
bound "$cpus0" "$not" bind:0 "$SB" fio "$T/bind.fio"
ok "numa_cpu_nodes=0 in place of cpus_allowed=0: threads on node 0's CPUs $cpus0, bind:0"
job numa_cpu_nodes=all numa_mem_policy=interleave:0 >"$T/il.fio"
bound "$cpus0" - interleave:0 "$SB" fio "$T/il.fio"
job numa_mem_policy=prefer:0 >"$T/pref.fio"
bound "$cpus0" - prefer:0 "$SB" fio "$T/pref.fio"
job numa_mem_policy=local >"$T/local.fio"
bound "$cpus0" - local "$SB" fio "$T/local.fio"
ok "numa_mem_policy: interleave:0, prefer:0 and local on the threads' mappings"

if command -v fio >/dev/null 2>&1; then
	bound "$cpus0" "$not" bind:0 fio "$T/bind.fio"
	ok "fio 3.33 on the same file: threads on $cpus0, bind:0"
else
	ok "fio is not installed: not compared"
fi

missing=0
while printf '%s\n' "$nodes" | tr ',' '\n' | grep -qx "$missing"; do missing=$((missing + 1)); done
job numa_cpu_nodes=$missing >"$T/none.fio"
expect_exit 2 "$SB" fio "$T/none.fio"
grep -q "line 9: numa_cpu_nodes: node $missing does not exist (this machine has nodes\? $nodes)" \
	"$T/err" || fail "a missing node: $(cat "$T/err")"
job numa_mem_policy=bind:0,$missing >"$T/none.fio"
expect_exit 2 "$SB" fio "$T/none.fio"
grep -q "line 9: numa_mem_policy: node $missing does not exist" "$T/err" ||
	fail "a missing node: $(cat "$T/err")"
ok "node $missing, which this machine does not have, refused naming node(s) $nodes"

for bad in numa_cpu_nodes=x numa_cpu_nodes=1-0 numa_cpu_nodes=64 numa_mem_policy=bind \
	numa_mem_policy=local:0 numa_mem_policy=prefer:0-1 numa_mem_policy=near:0 \
	numa_mem_policy=interleave:; do
	job "$bad" >"$T/b.fio"
	expect_exit 2 "$SB" fio "$T/b.fio"
	grep -q "line 9: ${bad%%=*}: '${bad#*=}' is not valid" "$T/err" || fail "$bad: $(cat "$T/err")"
done
ok "numa_cpu_nodes, numa_mem_policy: bad values refused naming line and option"

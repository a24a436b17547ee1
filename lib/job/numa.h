/*
 * NUMA nodes as fio's numa_cpu_nodes and numa_mem_policy name them, read
 * from sysfs without libnuma: the nodes this machine has, their CPUs, and
 * lists of CPUs or nodes ("0-3,6") as the kernel and fio write them.
 */
#ifndef SB_NUMA_H
#define SB_NUMA_H

#include "lib/sb.h"

#define SB_NUMA_NODES_MAX 64 /* nodes numa_cpu_nodes and numa_mem_policy can name */

/* fio's numa_mem_policy modes; the kernel's MPOL_* is the value - 1 */
enum sb_mpol {
	SB_MPOL_NONE,
	SB_MPOL_DEFAULT,
	SB_MPOL_PREFER,
	SB_MPOL_BIND,
	SB_MPOL_INTERLEAVE,
	SB_MPOL_LOCAL,
};

/* "0-3,6" into the bits of set (max bits; set is max / 64 words, zeroed
 * first); "all" sets all of them. 0, or -EINVAL for anything else or a
 * number of max or more. */
int sb_numa_list_parse(const char *s, uint64_t *set, unsigned max);

/* The nodes this machine has (sysfs's node/online, of the tree at sys:
 * "/sys", tests give their own), as bits of *nodes; 0 or -errno. */
int sb_numa_online(const char *sys, uint64_t *nodes);

/* The CPUs of the nodes' bits into cpus (SB_CPUS_MAX bits, zeroed first),
 * from each node's cpulist; 0 or -errno. */
int sb_numa_cpus(const char *sys, uint64_t nodes, uint64_t *cpus);

/* "0" or "0-1,3": the nodes' bits written as a list into buf. */
void sb_numa_list_fmt(uint64_t nodes, char *buf, size_t len);

/* The calling thread's memory policy (mode: enum sb_mpol, over nodes),
 * set_mempolicy(2) by syscall; SB_MPOL_NONE does nothing. 0 or -errno. */
int sb_numa_set_policy(unsigned mode, uint64_t nodes);

/* The policy of [addr, addr + len) (page-aligned), mbind(2) with its
 * pages moved; SB_MPOL_NONE does nothing. 0 or -errno. */
int sb_numa_bind(void *addr, size_t len, unsigned mode, uint64_t nodes);
#endif

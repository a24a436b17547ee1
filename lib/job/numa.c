/*
 * NUMA nodes from sysfs, as libnuma reads them, for fio's numa_cpu_nodes
 * and numa_mem_policy: storbench links no libnuma.
 */
#include "lib/job/numa.h"
#include "lib/job/job.h"

#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>

/* the kernel's (linux/mempolicy.h) */
#define MPOL_MF_MOVE (1 << 1)

int sb_numa_list_parse(const char *s, uint64_t *set, unsigned max)
{
	char *end;
	memset(set, 0, max / 64 * sizeof(*set));
	if (!strcmp(s, "all")) {
		memset(set, 0xff, max / 64 * sizeof(*set));
		return 0;
	}
	for (const char *p = s;;) {
		unsigned long lo, hi;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-' && end[1] >= '0' && end[1] <= '9')
			hi = strtoul(end + 1, &end, 10);
		if (errno || hi < lo || hi >= max || (*end && *end != ',' && *end != '\n'))
			return -EINVAL;
		for (unsigned long i = lo; i <= hi; i++)
			set[i / 64] |= 1ull << (i % 64);
		if (*end != ',')
			return *end && end[1] ? -EINVAL : 0;
		p = end + 1;
	}
}

/* A sysfs file's first line, NUL-terminated; 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	const ssize_t n = read(fd, buf, len - 1);
	const int e = n < 0 ? -errno : 0;
	close(fd);
	if (e)
		return e;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int sb_numa_online(const char *sys, uint64_t *nodes)
{
	char path[256], line[512];
	snprintf(path, sizeof(path), "%s/devices/system/node/online", sys);
	int e = read_line(path, line, sizeof(line));
	if (e == -ENOENT) { /* a kernel without NUMA: node 0 alone */
		*nodes = 1;
		return 0;
	}
	if (e < 0)
		return e;
	return sb_numa_list_parse(line, nodes, SB_NUMA_NODES_MAX);
}

int sb_numa_cpus(const char *sys, uint64_t nodes, uint64_t *cpus)
{
	uint64_t one[SB_CPUS_MAX / 64];
	char path[256], line[4096];
	memset(cpus, 0, sizeof(one));
	for (unsigned n = 0; n < SB_NUMA_NODES_MAX; n++) {
		if (!(nodes >> n & 1))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/node/node%u/cpulist", sys, n);
		int e = read_line(path, line, sizeof(line));
		if (e < 0)
			return e;
		if (!line[0]) /* a node with memory and no CPU */
			continue;
		if ((e = sb_numa_list_parse(line, one, SB_CPUS_MAX)) < 0)
			return e;
		for (unsigned i = 0; i < SB_ARRAY_SIZE(one); i++)
			cpus[i] |= one[i];
	}
	return 0;
}

void sb_numa_list_fmt(uint64_t nodes, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < SB_NUMA_NODES_MAX && n < len; i++) {
		if (!(nodes >> i & 1) || (i && nodes >> (i - 1) & 1))
			continue;
		unsigned j = i;
		while (j + 1 < SB_NUMA_NODES_MAX && nodes >> (j + 1) & 1)
			j++;
		int w = j > i ? snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", i, j)
			      : snprintf(buf + n, len - n, "%s%u", n ? "," : "", i);
		n += w > 0 ? (size_t)w : 0;
	}
}

int sb_numa_set_policy(unsigned mode, uint64_t nodes)
{
	unsigned long mask = (unsigned long)nodes;
	const int has = mode == SB_MPOL_PREFER || mode == SB_MPOL_BIND ||
			mode == SB_MPOL_INTERLEAVE;
	if (mode == SB_MPOL_NONE)
		return 0;
	return syscall(SYS_set_mempolicy, (int)mode - 1, has ? &mask : NULL,
		       has ? SB_NUMA_NODES_MAX + 1 : 0) < 0
		       ? -errno
		       : 0;
}

int sb_numa_bind(void *addr, size_t len, unsigned mode, uint64_t nodes)
{
	unsigned long mask = (unsigned long)nodes;
	const int has = mode == SB_MPOL_PREFER || mode == SB_MPOL_BIND ||
			mode == SB_MPOL_INTERLEAVE;
	if (mode == SB_MPOL_NONE)
		return 0;
	return syscall(SYS_mbind, addr, len, (int)mode - 1, has ? &mask : NULL,
		       has ? SB_NUMA_NODES_MAX + 1 : 0, MPOL_MF_MOVE) < 0
		       ? -errno
		       : 0;
}

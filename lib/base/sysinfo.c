/*
 * The host a result was measured on, and CPU time used while measuring.
 */
#include "lib/base/sysinfo.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

static void copy_trunc(char *dst, size_t size, const char *src)
{
	size_t i;
	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/* The value of "key : value" lines; buf untouched when absent. Only the
 * first occurrence counts (cpuinfo repeats per CPU). */
static int proc_field(const char *file, const char *key, char *buf, size_t size)
{
	FILE *f = fopen(file, "re");
	char line[512];
	const size_t klen = strlen(key);
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) != 0 || !strchr(" \t:", line[klen]))
			continue;
		char *v = strchr(line + klen, ':');
		if (!v)
			continue;
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, size, "%s", v);
		found = 1;
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* "MemTotal:  24683656 kB" -> bytes */
static uint64_t meminfo_bytes(const char *key)
{
	char buf[64];
	if (proc_field("/proc/meminfo", key, buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10) * 1024;
}

/* x86 has "model name"; ARM kernels give "Hardware" on some boards and the
 * implementer and part numbers everywhere. */
static void cpu_model(char *buf, size_t size)
{
	char impl[32] = "", part[32] = "";

	if (proc_field("/proc/cpuinfo", "model name", buf, size) == 0 && buf[0])
		return;
	if (proc_field("/proc/cpuinfo", "Hardware", buf, size) == 0 && buf[0])
		return;
	if (proc_field("/proc/cpuinfo", "CPU implementer", impl, sizeof(impl)) == 0) {
		proc_field("/proc/cpuinfo", "CPU part", part, sizeof(part));
		snprintf(buf, size, "implementer %s part %s", impl, part[0] ? part : "?");
	}
}

int sb_host_info(struct sb_host *out)
{
	struct utsname u;

	memset(out, 0, sizeof(*out));
	if (gethostname(out->hostname, sizeof(out->hostname) - 1) != 0)
		return -errno;
	if (uname(&u) != 0)
		return -errno;
	copy_trunc(out->kernel, sizeof(out->kernel), u.release);
	copy_trunc(out->machine, sizeof(out->machine), u.machine);
	cpu_model(out->cpu_model, sizeof(out->cpu_model));
	const long n = sysconf(_SC_NPROCESSORS_ONLN);
	out->ncpus = n > 0 ? (unsigned)n : 1;
	out->mem_total = meminfo_bytes("MemTotal");
	out->mem_available = meminfo_bytes("MemAvailable");
	return 0;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

static int cpu_usage(int who, uint64_t *usr_ns, uint64_t *sys_ns)
{
	struct rusage ru;

	if (getrusage(who, &ru) != 0)
		return -errno;
	*usr_ns = tv_ns(ru.ru_utime);
	*sys_ns = tv_ns(ru.ru_stime);
	return 0;
}

/* RUSAGE_SELF counts every thread of the process, io_uring's iou-wrk
 * workers included: they belong to it. */
int sb_cpu_process(uint64_t *usr_ns, uint64_t *sys_ns)
{
	return cpu_usage(RUSAGE_SELF, usr_ns, sys_ns);
}

int sb_cpu_thread(uint64_t *usr_ns, uint64_t *sys_ns)
{
	return cpu_usage(RUSAGE_THREAD, usr_ns, sys_ns);
}

int sb_rusage_counts(uint64_t *ctx, uint64_t *majf, uint64_t *minf)
{
	struct rusage ru;
	*ctx = *majf = *minf = 0;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -errno;
	*ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
	*majf = (uint64_t)ru.ru_majflt;
	*minf = (uint64_t)ru.ru_minflt;
	return 0;
}

int sb_count_iou_workers(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int count = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char path[300], comm[32];
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		const int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue; /* the thread has exited */
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (n < 0)
			continue;
		comm[n] = '\0';
		if (strncmp(comm, "iou-wrk", 7) == 0)
			count++;
	}
	closedir(d);
	return count;
}

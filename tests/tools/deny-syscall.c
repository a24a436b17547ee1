/*
 * deny-syscall ERRNO NAME[,NAME...] COMMAND [ARG...]
 *
 * Runs COMMAND with the named system calls failing with ERRNO (ENOSYS, EPERM
 * or EACCES), as on a kernel built without io_uring or with it disabled by
 * policy. A seccomp filter: it holds for every thread and across exec, and
 * needs no privilege. A test helper: exit 77 where seccomp is not available
 * (qemu-user, old kernels), 2 on bad arguments.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_AARCH64
#elif defined(__arm__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_ARM
#elif defined(__i386__)
#define AUDIT_ARCH_HERE AUDIT_ARCH_I386
#endif
/* the same number on every architecture; older headers lack it */
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#define __NR_io_uring_enter 426
#define __NR_io_uring_register 427
#endif

static const struct {
	const char *name;
	int nr;
} calls[] = {
	{ "io_uring_setup", __NR_io_uring_setup },
	{ "io_uring_enter", __NR_io_uring_enter },
	{ "io_uring_register", __NR_io_uring_register },
	{ "io_setup", __NR_io_setup },
	{ "io_submit", __NR_io_submit },
};

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "ENOSYS", ENOSYS },
	{ "EPERM", EPERM },
	{ "EACCES", EACCES },
};

static int lookup_call(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strlen(calls[i].name) == len && !strncmp(calls[i].name, name, len))
			return calls[i].nr;
	return -1;
}

static int lookup_errno(const char *name)
{
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(errnos[i].name, name))
			return errnos[i].err;
	return -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: deny-syscall ENOSYS|EPERM|EACCES NAME[,NAME...] COMMAND [ARG...]\n"
			"  NAME: io_uring_setup, io_uring_enter, io_uring_register, io_setup, "
			"io_submit\n");
	return 2;
}

#ifdef AUDIT_ARCH_HERE
/* The filter: another architecture's calls pass; each named call returns
 * the errno; everything else is allowed. */
static int deny(const int *nrs, size_t n, int err)
{
	struct sock_filter f[4 + 2 * 8];
	size_t k = 0;

	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_HERE, 0,
					      (unsigned char)(2 * n + 1));
	f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < n; i++) {
		f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nrs[i],
						      0, 1);
		f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | (unsigned)err);
	}
	f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { (unsigned short)k, f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		printf("deny-syscall: no seccomp filters here: %s\n", strerror(errno));
		return 77;
	}
	return 0;
}
#else
static int deny(const int *nrs, size_t n, int err)
{
	printf("deny-syscall: no seccomp filter for this architecture\n");
	return 77;
}
#endif

int main(int argc, char **argv)
{
	int nrs[8];
	size_t n = 0;

	if (argc < 4)
		return usage();
	const int err = lookup_errno(argv[1]);
	if (err < 0)
		return usage();
	for (const char *p = argv[2]; *p;) {
		const size_t len = strcspn(p, ",");
		if (n == sizeof(nrs) / sizeof(nrs[0]) || (nrs[n++] = lookup_call(p, len)) < 0)
			return usage();
		p += len + (p[len] == ',');
	}
	const int rc = deny(nrs, n, err);
	if (rc)
		return rc;
	execvp(argv[3], argv + 3);
	fprintf(stderr, "deny-syscall: cannot run '%s': %s\n", argv[3], strerror(errno));
	return 127;
}

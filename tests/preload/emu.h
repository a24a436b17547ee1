/*
 * What the LD_PRELOAD device emulators (devemu.c, nvmeemu.c, ataemu.c)
 * share: one block device of the test's own, named by PREFIX_DEV, with its
 * state in the directory PREFIX_STATE; a command log in PREFIX_LOG; comma
 * lists in the environment; and, with EMU_WRAP_PATHS defined, the path
 * calls (open, fopen, realpath, ...) passed through the emulator's own
 * redirect(), so its sysfs entry is the fake tree the test built.
 *
 * Each emulator is one translation unit: it defines EMU_PREFIX ("DEVEMU")
 * and includes this file once.
 */
#ifndef SB_TESTS_PRELOAD_EMU_H
#define SB_TESTS_PRELOAD_EMU_H

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef EMU_PREFIX
#error "define EMU_PREFIX before including emu.h"
#endif

static struct {
	int on;
	dev_t rdev;
	char dev[256];
	char state[PATH_MAX - 256];
	char sys_prefix[512];	 /* "/sys/class/block/NAME" */
	char sys_fake[PATH_MAX]; /* "$PREFIX_STATE/sys/block/NAME" */
} emu;

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/*
 * A signal handler of the program (pts's second Ctrl-C switching the cache
 * back on) comes in through open and ioctl at any moment, perhaps inside
 * malloc: what it reaches here must be async-signal-safe. So the next
 * open, open64 and ioctl are looked up once, at load (dlsym may lock and
 * allocate), and the log is written without stdio.
 */
static void *real_open, *real_open64, *real_ioctl;
static void *next_of(void **slot, const char *name)
{
	if (!*slot)
		*slot = dlsym(RTLD_NEXT, name);
	return *slot;
}
#define NEXT(name) ((__typeof__(&name))next_of(&real_##name, #name))

/* One line in PREFIX_LOG, when it is set: one write of O_APPEND, so lines
 * stay whole whichever process writes. */
static void say(const char *fmt, ...)
{
	const char *log = getenv(EMU_PREFIX "_LOG");
	char line[256];
	if (!log)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	const int fd = NEXT(open)(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n) {
		/* nothing to do: the test reads what the log holds */
	}
	close(fd);
}

/* Whether the comma list in the environment variable var names what. */
static int listed(const char *var, const char *what)
{
	const char *list = getenv(var);
	const size_t n = strlen(what);
	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (!strncmp(p, what, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Commands the device answers with an error: PREFIX_REFUSE. */
static inline int refused(const char *what)
{
	return listed(EMU_PREFIX "_REFUSE", what);
}

__attribute__((constructor)) static void emu_init(void)
{
	NEXT(open);
	NEXT(open64);
	NEXT(ioctl);
	const char *dev = getenv(EMU_PREFIX "_DEV"), *state = getenv(EMU_PREFIX "_STATE");
	struct stat st;
	if (!dev || !state || stat(dev, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	const char *base = strrchr(dev, '/');
	base = base ? base + 1 : dev;
	snprintf(emu.dev, sizeof(emu.dev), "%s", dev);
	snprintf(emu.state, sizeof(emu.state), "%s", state);
	snprintf(emu.sys_prefix, sizeof(emu.sys_prefix), "/sys/class/block/%s", base);
	snprintf(emu.sys_fake, sizeof(emu.sys_fake), "%s/sys/block/%s", state, base);
	emu.rdev = st.st_rdev;
	emu.on = 1;
}

/* Whether fd is the emulated device. */
static int is_ours(int fd)
{
	struct stat st;
	return emu.on && fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == emu.rdev;
}

/* The device's sysfs entry, and only it, read from the fake tree: path
 * itself, or the fake one written in buf. */
static inline const char *emu_sysfs(const char *path, char *buf, size_t len)
{
	if (!emu.on || !path)
		return path;
	const size_t n = strlen(emu.sys_prefix);
	if (strncmp(path, emu.sys_prefix, n) || (path[n] != '/' && path[n] != '\0'))
		return path;
	snprintf(buf, len, "%s%s", emu.sys_fake, path + n);
	return buf;
}

#ifdef EMU_WRAP_PATHS
/* the emulator's: the path to use for path (buf holds a rewritten one) */
static const char *redirect(const char *path, char *buf, size_t len);

int open(const char *path, int flags, ...)
{
	char b[PATH_MAX];
	va_list ap;
	va_start(ap, flags);
	const mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return NEXT(open)(redirect(path, b, sizeof(b)), flags, mode);
}

int open64(const char *path, int flags, ...)
{
	char b[PATH_MAX];
	va_list ap;
	va_start(ap, flags);
	const mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return NEXT(open64)(redirect(path, b, sizeof(b)), flags, mode);
}

int openat(int dir, const char *path, int flags, ...)
{
	char b[PATH_MAX];
	va_list ap;
	va_start(ap, flags);
	const mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return REAL(openat)(dir, redirect(path, b, sizeof(b)), flags, mode);
}

int openat64(int dir, const char *path, int flags, ...)
{
	char b[PATH_MAX];
	va_list ap;
	va_start(ap, flags);
	const mode_t mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return REAL(openat64)(dir, redirect(path, b, sizeof(b)), flags, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	char b[PATH_MAX];
	return REAL(fopen)(redirect(path, b, sizeof(b)), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	char b[PATH_MAX];
	return REAL(fopen64)(redirect(path, b, sizeof(b)), mode);
}

char *realpath(const char *path, char *out)
{
	char b[PATH_MAX];
	return REAL(realpath)(redirect(path, b, sizeof(b)), out);
}

int access(const char *path, int mode)
{
	char b[PATH_MAX];
	return REAL(access)(redirect(path, b, sizeof(b)), mode);
}

ssize_t readlink(const char *path, char *out, size_t len)
{
	char b[PATH_MAX];
	return REAL(readlink)(redirect(path, b, sizeof(b)), out, len);
}

DIR *opendir(const char *path)
{
	char b[PATH_MAX];
	return REAL(opendir)(redirect(path, b, sizeof(b)));
}
#endif

#endif

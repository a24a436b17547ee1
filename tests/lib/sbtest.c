#include "tests/lib/sbtest.h"

#include <stdarg.h>
#include <unistd.h>

static char tmpdir[256];

_Noreturn void sbt_skip(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("skip: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	exit(77);
}

static void rm_tmpdir(void)
{
	char cmd[512];
	if (!tmpdir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", tmpdir);
}

const char *sbt_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(tmpdir, sizeof(tmpdir), "%s/sbt.XXXXXX", base ? base : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(1);
		}
		atexit(rm_tmpdir);
	}
	return tmpdir;
}

const char *sbt_path(const char *name)
{
	static char bufs[8][512];
	static unsigned next;
	char *b = bufs[next++ % 8];
	snprintf(b, sizeof(bufs[0]), "%s/%s", sbt_tmpdir(), name);
	return b;
}

int sbt_is_root(void)
{
	return geteuid() == 0;
}

#include "tests/lib/sbtest.h"

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
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

void sbt_mkdirs(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		fail_msg("cannot make '%s': %s", path, strerror(errno));
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0;
	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		size_t n = fread(buf + *len, 1, cap - *len, f);
		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	return buf;
}

/* SB_CORPUS_THIN=N: every Nth prefix and position only. tests/cross/run.sh
 * sets it under qemu-user, where a corpus walked whole takes minutes (the
 * native and the ASan stages walk every one). */
static size_t thin(void)
{
	const char *v = getenv("SB_CORPUS_THIN");
	const long n = v ? strtol(v, NULL, 10) : 1;
	return n > 1 && n < 1000 ? (size_t)n : 1;
}

static void run_mutations(int (*target)(const uint8_t *, size_t), const uint8_t *data, size_t len,
			  const uint8_t *subst, size_t nsubst)
{
	uint8_t *m = malloc(len ? len : 1);
	assert_non_null(m);
	memcpy(m, data, len);
	size_t stride = (len / 1500 + 1) * thin();
	for (size_t i = 0; i < len; i += stride) {
		for (size_t k = 0; k < nsubst; k++) {
			m[i] = subst[k];
			target(m, len);
		}
		m[i] = data[i];
	}
	free(m);
}

unsigned sbt_fuzz_corpus(int (*target)(const uint8_t *data, size_t size), const char *name,
			 const uint8_t *subst, size_t nsubst)
{
	const char *top = getenv("SB_TOP");
	char dir[4096], path[8192];
	snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", top ? top : ".", name);
	DIR *d = opendir(dir);
	if (!d)
		sbt_skip("no corpus at '%s'", dir);
	unsigned files = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		size_t len;
		uint8_t *buf = slurp(path, &len);
		assert_non_null(buf);
		target(buf, len);
		size_t stride = (len / 3000 + 1) * thin();
		for (size_t n = 0; n < len; n += stride)
			target(buf, n);
		run_mutations(target, buf, len, subst, nsubst);
		free(buf);
		files++;
	}
	closedir(d);
	printf("%u corpus files\n", files);
	return files;
}

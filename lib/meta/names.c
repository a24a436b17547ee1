/* Test names and file names of storbench meta (bonnie++'s naming). */
#include "lib/meta/meta.h"
#include "lib/base/rng.h"

static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
#define RAND_EXTRA_MAX 12 /* bonnie++'s RandExtraLen */

const char *sb_meta_test_name(enum sb_meta_test t)
{
	static const char *const names[] = { "putc",	    "write",	 "rewrite",
					     "getc",	    "read",	 "seeks",
					     "seq_create",  "seq_stat",	 "seq_delete",
					     "rand_create", "rand_stat", "rand_delete" };
	return (unsigned)t < SB_ARRAY_SIZE(names) ? names[t] : "?";
}

/* The name is a function of (seed, i): nothing is stored per file, and
 * every thread computes the same name. */
void sb_meta_file_name(uint64_t seed, uint64_t i, int random_first, char *buf)
{
	uint64_t x = seed ^ (i * 0x9e3779b97f4a7c15ull) ^ (random_first ? 0x5bd1e995ull : 0);
	char extra[RAND_EXTRA_MAX + 1];
	unsigned len = (unsigned)(sb_splitmix64(&x) % (RAND_EXTRA_MAX + 1));
	for (unsigned k = 0; k < len; k++)
		extra[k] = alnum[sb_splitmix64(&x) % (sizeof(alnum) - 1)];
	extra[len] = '\0';
	/* ten hex digits hold 2^40 files, more than any directory takes */
	if (random_first)
		snprintf(buf, SB_META_NAME_MAX, "%s%010llx", extra, (unsigned long long)i);
	else
		snprintf(buf, SB_META_NAME_MAX, "%010llx%s", (unsigned long long)i, extra);
}

int sb_meta_is_file_name(const char *name)
{
	size_t n = 0;
	for (; name[n]; n++) {
		const char c = name[n];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
			return 0;
	}
	return n >= 10 && n <= 10 + RAND_EXTRA_MAX;
}

/*
 * The fuzz target of the fio job-file reader (tests/fuzz/jobfile.c) without
 * libFuzzer: run over every file of its corpus, every prefix of each file
 * (truncation anywhere) and byte substitutions at evenly spread positions.
 * The target aborts on a crash, a refusal without a line, an option out of
 * range or a CRLF copy read differently; make fuzz runs the same target
 * under libFuzzer with ASan.
 */
#include "tests/lib/sbtest.h"
#include "tests/fuzz/jobfile.c"

#include <dirent.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 4096;
			char *nb = realloc(buf, cap);
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

static void run_mutations(const uint8_t *data, size_t len)
{
	static const uint8_t subst[] = { '[', ']', '=', '\n', '\r', ' ', ';', '#', '$', '{',
					 '}', ',', ':', '%', '0', 0, 0xff };
	uint8_t *m = malloc(len ? len : 1);
	assert_non_null(m);
	memcpy(m, data, len);
	size_t stride = len / 1500 + 1;
	for (size_t i = 0; i < len; i += stride) {
		for (size_t k = 0; k < sizeof(subst); k++) {
			m[i] = subst[k];
			LLVMFuzzerTestOneInput(m, len);
		}
		m[i] = data[i];
	}
	free(m);
}

static void test_corpus(void **state)
{
	(void)state;
	const char *top = getenv("SB_TOP");
	char dir[4096], path[8192];
	snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/jobfile", top ? top : ".");
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
		char *buf = slurp(path, &len);
		assert_non_null(buf);
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
		size_t stride = len / 3000 + 1;
		for (size_t n = 0; n < len; n += stride)
			LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
		run_mutations((const uint8_t *)buf, len);
		free(buf);
		files++;
	}
	closedir(d);
	printf("%u corpus files\n", files);
	assert_true(files >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Loading the recorded register and log page fixtures of tests/fixtures:
 * lines "OFFSET: XX XX ...  # comment", OFFSET decimal, bytes hex; '#'
 * starts a comment; bytes not listed are zero. Found under $SB_TOP (set by
 * the test runner), else relative to the current directory.
 */
#ifndef SB_TEST_HEXFIX_H
#define SB_TEST_HEXFIX_H

#include "tests/lib/sbtest.h"

#include <ctype.h>
#include <limits.h>

/* Fills buf (size bytes) from the fixture named name; fails the test on a
 * missing file, a malformed line or a byte past the end. */
static inline void hexfix_load(const char *name, uint8_t *buf, size_t size)
{
	char path[PATH_MAX], line[1024];
	const char *top = getenv("SB_TOP");

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", top ? top : ".", name);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open fixture %s", path);
	memset(buf, 0, size);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "#\n")] = '\0';
		char *p = line, *end;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			continue;
		unsigned long off = strtoul(p, &end, 10);
		if (end == p || *end != ':')
			fail_msg("%s: malformed line '%s'", name, line);
		for (p = end + 1;; off++) {
			while (isspace((unsigned char)*p))
				p++;
			if (!*p)
				break;
			const unsigned long b = strtoul(p, &end, 16);
			if (end == p || b > 0xff || off >= size)
				fail_msg("%s: bad byte at offset %lu", name, off);
			buf[off] = (uint8_t)b;
			p = end;
		}
	}
	fclose(f);
}

#endif

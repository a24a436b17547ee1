/*
 * How many of a directory's fio job files storbench accepts: each *.fio
 * parsed as `storbench run` reads it (sb_jobfile_parse, ${NAME} from the
 * environment) and each of its jobs checked as a whole (sb_job_check).
 * Prints one line per refused file (the reason) with -v, then
 * "ACCEPTED of TOTAL accepted". Built and run by bench/fio-examples.
 */
#include "lib/sb.h"
#include "lib/job/jobfile.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v ? v : "1"; /* examples use ${FILENAME} and the like */
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	const char *dir = argv[1 + verbose];
	if (!dir) {
		fprintf(stderr, "usage: fio-examples [-v] DIR\n");
		return 2;
	}
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		return 2;
	}
	char *names[1024];
	unsigned n = 0, ok = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 1024) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".fio"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	static char text[1 << 20];
	for (unsigned i = 0; i < n; i++) {
		char path[4096], msg[512] = "";
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "rb");
		size_t len = f ? fread(text, 1, sizeof(text), f) : 0;
		if (f)
			fclose(f);
		struct sb_jobfile *jf = NULL;
		int r = sb_jobfile_parse(text, len, env, &jf, msg, sizeof(msg));
		for (unsigned k = 0; !r && k < jf->njobs; k++) {
			if (sb_job_check(&jf->jobs[k].opts, msg, sizeof(msg)) < 0)
				r = -1;
		}
		sb_jobfile_free(jf);
		if (!r)
			ok++;
		else if (verbose)
			printf("%s: %s\n", names[i], msg);
		free(names[i]);
	}
	printf("%u of %u accepted\n", ok, n);
	return 0;
}

/*
 * How many of a directory's fio job files storbench accepts: each *.fio
 * parsed as `storbench run` reads it (sb_jobfile_parse, ${NAME} from the
 * environment) and each of its jobs checked as a whole (sb_job_check).
 * Prints one line per refused file (the reason) with -v, then
 * "ACCEPTED of TOTAL accepted". With -a, every refusal of a file, not
 * only its first: the refused line is commented out and the file read
 * again, and a table counts the files each option (or engine) alone
 * keeps out, which is the order to implement them in. Built and run by
 * bench/fio-examples.
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

/* 0 when every job of text is accepted, else -1 with msg */
static int check(const char *text, size_t len, char *msg, size_t msglen)
{
	struct sb_jobfile *jf = NULL;
	int r = sb_jobfile_parse(text, len, env, &jf, msg, msglen);
	for (unsigned k = 0; !r && k < jf->njobs; k++) {
		if (sb_job_check(&jf->jobs[k].opts, msg, msglen) < 0)
			r = -1;
	}
	sb_jobfile_free(jf);
	return r ? -1 : 0;
}

/* The option a message names: "line N: KEY..." up to '=', ':' or ' ' */
static void msg_key(const char *msg, char *key, size_t keylen)
{
	const char *p = strstr(msg, ": ");
	p = p && !strncmp(msg, "line ", 5) ? p + 2 : msg;
	if (*p == '\'')
		p++;
	size_t n = strcspn(p, "=:' ");
	if (!strncmp(p, "ioengine", 8) && p[8] == '=')
		n += 1 + strcspn(p + 9, ":' ");
	snprintf(key, keylen, "%.*s", (int)(n < keylen ? n : keylen - 1), p);
}

/* Comments out line number line (from 1) of text; 0, or -1 if none */
static int comment_line(char *text, size_t len, unsigned line)
{
	size_t i = 0;
	for (unsigned l = 1; l < line && i < len; i++) {
		if (text[i] == '\n')
			l++;
	}
	if (i >= len)
		return -1;
	text[i] = ';';
	return 0;
}

#define MAX_KEYS 256
static char keys[MAX_KEYS][64];
static unsigned key_files[MAX_KEYS], key_alone[MAX_KEYS], nkeys;

static unsigned key_index(const char *k)
{
	for (unsigned i = 0; i < nkeys; i++) {
		if (!strcmp(keys[i], k))
			return i;
	}
	if (nkeys == MAX_KEYS)
		return MAX_KEYS - 1;
	snprintf(keys[nkeys], sizeof(keys[0]), "%s", k);
	return nkeys++;
}

/* Every refusal of one file: prints them with -v, counts them in keys */
static void all_refusals(char *text, size_t len, const char *name, int verbose)
{
	char msg[512], seen[16][64];
	unsigned nseen = 0;
	for (int round = 0; round < 64 && check(text, len, msg, sizeof(msg)) < 0; round++) {
		unsigned line = 0;
		char key[64];
		msg_key(msg, key, sizeof(key));
		if (verbose)
			printf("%s: %s\n", name, msg);
		if (nseen < 16) {
			int dup = 0;
			for (unsigned i = 0; i < nseen; i++)
				dup |= !strcmp(seen[i], key);
			if (!dup)
				snprintf(seen[nseen++], sizeof(seen[0]), "%s", key);
		}
		if (sscanf(msg, "line %u:", &line) != 1 || comment_line(text, len, line) < 0)
			break; /* a refusal of a whole job: no line to take out */
	}
	for (unsigned i = 0; i < nseen; i++) {
		unsigned k = key_index(seen[i]);
		key_files[k]++;
		key_alone[k] += nseen == 1;
	}
}

int main(int argc, char **argv)
{
	int verbose = 0, all = 0, a = 1;
	for (; a < argc && argv[a][0] == '-'; a++) {
		verbose |= !!strchr(argv[a], 'v');
		all |= !!strchr(argv[a], 'a');
	}
	const char *dir = argv[a];
	if (!dir) {
		fprintf(stderr, "usage: fio-examples [-v] [-a] DIR\n");
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
		int r = check(text, len, msg, sizeof(msg));
		if (!r)
			ok++;
		else if (all)
			all_refusals(text, len, names[i], verbose);
		else if (verbose)
			printf("%s: %s\n", names[i], msg);
		free(names[i]);
	}
	if (all) {
		printf("files refused for each option (alone: the only reason):\n");
		for (unsigned max = n; max > 0; max--) {
			for (unsigned k = 0; k < nkeys; k++) {
				if (key_files[k] == max)
					printf("%5u %5u  %s\n", key_files[k], key_alone[k],
					       keys[k]);
			}
		}
	}
	printf("%u of %u accepted\n", ok, n);
	return 0;
}

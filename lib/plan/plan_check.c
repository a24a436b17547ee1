/*
 * What a step asks of its target, read from its words (plan.h): whether
 * it writes, the region it names, the bytes a new file of its takes. The
 * plan checks these against each target before its first step.
 */
#include "lib/plan/plan.h"

#include "lib/base/units.h"

/* The value of --key (as --key=V or --key V), NULL when not given; "" for
 * --key alone. */
static const char *word_value(const struct sb_plan_step *st, const char *key)
{
	size_t kl = strlen(key);
	for (int a = 1; a < st->argc; a++) {
		const char *w = st->argv[a];
		if (strncmp(w, "--", 2) || strncmp(w + 2, key, kl))
			continue;
		if (w[2 + kl] == '=')
			return w + 3 + kl;
		if (w[2 + kl])
			continue;
		return a + 1 < st->argc && st->argv[a + 1][0] != '-' ? st->argv[a + 1] : "";
	}
	return NULL;
}

static int has(const struct sb_plan_step *st, const char *key)
{
	return word_value(st, key) != NULL;
}

/* A size as storbench reads one; 0 for none or one it cannot tell here (a
 * percentage). */
static uint64_t size_of(const char *v)
{
	uint64_t x;
	if (!v || !*v || strchr(v, '%') || sb_parse_size(v, &x) < 0)
		return 0;
	return x;
}

/* The largest size of a list (64k,1M,1G). */
static uint64_t largest(const char *v)
{
	char buf[512];
	uint64_t m = 0;
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *s = strtok(buf, ","); s; s = strtok(NULL, ","))
		m = SB_MAX(m, size_of(s));
	return m;
}

static int run_writes(const struct sb_plan_step *st)
{
	const char *rw = word_value(st, "rw");
	if (!rw)
		rw = word_value(st, "readwrite");
	return rw && (strstr(rw, "write") || strstr(rw, "trim") || !strcmp(rw, "rw") ||
		      !strcmp(rw, "randrw"));
}

int sb_plan_step_need(const struct sb_plan_step *st, struct sb_plan_need *out)
{
	const char *c = st->argv[0];
	memset(out, 0, sizeof(*out));
	if (!strcmp(c, "quick"))
		out->writes = !has(st, "read-only");
	else if (!strcmp(c, "run"))
		out->writes = run_writes(st);
	else if (!strcmp(c, "verify")) {
		const char *ph = word_value(st, "phase");
		out->writes = has(st, "probe") || !ph || strcmp(ph, "check");
	} else if (!strcmp(c, "soak") || !strcmp(c, "pts") || !strcmp(c, "cliff") ||
		   !strcmp(c, "sweep") || !strcmp(c, "meta"))
		out->writes = 1;
	else if (!strcmp(c, "spo"))
		out->writes = !has(st, "check");
	else if (!strcmp(c, "flash"))
		out->writes = has(st, "open-au") || has(st, "find-fat");
	else if (!strcmp(c, "latency"))
		out->writes = has(st, "write");
	else if (!strcmp(c, "info"))
		out->writes = has(st, "set-cache");
	/* the region: meta's --size is in MiB, and its own */
	if (strcmp(c, "meta") && strcmp(c, "sweep") && strcmp(c, "pts")) {
		out->size = size_of(word_value(st, "size"));
		out->offset = size_of(word_value(st, "offset"));
		out->region = strcmp(c, "run") != 0; /* run extends a file as fio does */
	}
	/* a new file in a directory: its size, or the command's own default */
	if (!strcmp(c, "quick") || !strcmp(c, "run") || !strcmp(c, "soak") || !strcmp(c, "cliff"))
		out->new_size = out->size ? out->size : 1ull << 30;
	else if (!strcmp(c, "latency"))
		out->new_size = out->size ? out->size : 1ull << 20;
	else if (!strcmp(c, "verify"))
		out->new_size = out->size; /* none: the free space, whatever it is */
	else if (!strcmp(c, "sweep")) {
		const char *fs = word_value(st, "file-sizes");
		out->new_size = fs ? largest(fs) : 512ull << 20;
	}
	return 0;
}

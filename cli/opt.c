/* One option parser for every command: a table per command, units known
 * to the job model, --opt=value and --opt value. */
#include "cli/cli.h"

static const struct cli_opt *find(const struct cli_opt *t, const char *name, size_t len)
{
	for (; t && t->name; t++)
		if (strlen(t->name) == len && !strncmp(t->name, name, len))
			return t;
	return NULL;
}

/* 0 not a job option, 1 takes a value, 2 a 0|1 switch (bare means 1). */
static int job_opt_kind(const char *name, size_t len)
{
	const struct sb_job_optdef *d;
	for (unsigned i = 0; (d = sb_job_optdef(i)); i++)
		if (strlen(d->name) == len && !strncmp(d->name, name, len))
			return strcmp(d->arg, "0|1") ? 1 : 2;
	return 0;
}

static int set_one(const struct cli_cmd_opts *c, const struct cli_opt *o, const char *name,
		   const char *value)
{
	char hint[256] = "";
	int r;
	if (o)
		r = c->set(c->ctx, o->id, value, hint, sizeof(hint));
	else
		r = sb_job_set(c->job, name, value, hint, sizeof(hint));
	if (r < 0) {
		if (hint[0])
			sb_err("--%s: '%s' is not valid (expected %s)", name, value ? value : "", hint);
		else
			sb_err("--%s: '%s' is not valid", name, value ? value : "");
		return -1;
	}
	return 0;
}

int cli_parse(int argc, char **argv, const struct cli_cmd_opts *c, char **pos,
	      int maxpos, int *npos)
{
	int only_pos = 0;
	*npos = 0;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (only_pos || a[0] != '-' || !a[1]) {
			if (*npos >= maxpos) {
				sb_err("unexpected argument '%s' (see --help)", a);
				return -1;
			}
			pos[(*npos)++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (a[1] != '-') {
			sb_err("'%s': options are long, like --bs=4k (see --help)", a);
			return -1;
		}
		char *name = a + 2, *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		char namebuf[64];
		snprintf(namebuf, sizeof(namebuf), "%.*s", (int)SB_MIN(len, 63), name);
		const struct cli_opt *o = find(c->opts, name, len);
		int job = !o && c->job_options ? job_opt_kind(name, len) : 0;
		if (!o && !job) {
			sb_err("--%s: unknown option (see storbench %s --help)", namebuf, argv[0]);
			return -1;
		}
		const char *value = eq ? eq + 1 : NULL;
		int has_arg = o ? o->has_arg : OPT_ARG;
		if (has_arg == OPT_NOARG && value) {
			sb_err("--%s: takes no value", namebuf);
			return -1;
		}
		if (job == 2 && !value)
			value = "1";
		if (has_arg == OPT_ARG && !value) {
			if (i + 1 >= argc) {
				sb_err("--%s: needs a value", namebuf);
				return -1;
			}
			value = argv[++i];
		}
		if (set_one(c, o, namebuf, value) < 0)
			return -1;
	}
	return 0;
}

static int ignore_opt(void *ctx, int id, const char *value, char *hint, size_t hintlen)
{
	(void)ctx, (void)id, (void)value, (void)hint, (void)hintlen;
	return 0;
}

int cli_apply_job_opts(int argc, char **argv, const struct cli_cmd_opts *c,
		       struct sb_job_opts *job)
{
	struct cli_cmd_opts only = *c;
	char *pos[8];
	int npos;
	only.set = ignore_opt;
	only.job = job;
	return cli_parse(argc, argv, &only, pos, 8, &npos) ? -1 : 0;
}

void cli_print_opts(FILE *f, const struct cli_cmd_opts *c)
{
	char left[96];
	for (const struct cli_opt *o = c->opts; o && o->name; o++) {
		snprintf(left, sizeof(left), "--%s%s%s", o->name, o->arg ? "=" : "",
			 o->arg ? o->arg : "");
		fprintf(f, "  %-30s %s\n", left, o->help);
	}
	if (!c->job_options)
		return;
	fprintf(f, "\nworkload options:\n");
	const struct sb_job_optdef *d;
	for (unsigned i = 0; (d = sb_job_optdef(i)); i++) {
		snprintf(left, sizeof(left), "--%s=%s", d->name, d->arg);
		if (strlen(left) > 30)
			fprintf(f, "  %s\n  %-30s %s", left, "", d->help);
		else
			fprintf(f, "  %-30s %s", left, d->help);
		if (d->dflt)
			fprintf(f, " [%s]", d->dflt);
		fputc('\n', f);
	}
}

int cli_set_output(const char **out, const char *v, char *hint, size_t hintlen)
{
	if (!*v) {
		snprintf(hint, hintlen, "a file name");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cli_set_format_json(int *json, const char *v, char *hint, size_t hintlen)
{
	if (strcmp(v, "text") && strcmp(v, "json")) {
		snprintf(hint, hintlen, "text or json");
		return -EINVAL;
	}
	*json = !strcmp(v, "json");
	return 0;
}

int cli_parse_target(int argc, char **argv, const struct cli_cmd_opts *c,
		     void (*help)(const struct cli_cmd_opts *), const char *what, char **target)
{
	char *pos[1];
	int npos;
	int p = cli_parse(argc, argv, c, pos, 1, &npos);
	if (p == 1) {
		help(c);
		return -1;
	}
	if (p < 0)
		return SB_EXIT_USAGE;
	if (npos != 1) {
		sb_err("%s needs one TARGET: %s (see --help)", argv[0], what);
		return SB_EXIT_USAGE;
	}
	*target = pos[0];
	return 0;
}

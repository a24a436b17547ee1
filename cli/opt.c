/* One option parser for every command: a table per command, units known
 * to the job model, --opt=value and --opt value. */
#include "cli/cli.h"
#include "report/report.h"

#include <unistd.h>

#include <strings.h>
#include <sys/stat.h>

/* The shared flags, declared once; a command takes those its row names. */
static const struct cli_opt shared_opts[CLI_S_N] = {
	[CLI_S_OUTPUT] = { "output", OPT_ARG, CLI_S_OUTPUT, "FILE",
			   "write the JSON results to FILE" },
	[CLI_S_FORMAT] = { "format", OPT_ARG, CLI_S_FORMAT, NULL, "what goes to stdout [text]" },
	[CLI_S_QUIET] = { "quiet", OPT_NOARG, CLI_S_QUIET, NULL, "no progress line" },
	[CLI_S_KEEP] = { "keep", OPT_NOARG, CLI_S_KEEP, NULL,
			 "keep the test files storbench created" },
	[CLI_S_DESTROY] = { "destroy-data", OPT_NOARG, CLI_S_DESTROY, NULL,
			    "allow writing to a device or a file storbench did not create" },
	[CLI_S_SEED] = { "seed", OPT_ARG, CLI_S_SEED, "N", "seed of the data [random]" },
	[CLI_S_STONEWALL] = { "stonewall", OPT_NOARG, CLI_S_STONEWALL, NULL,
			      "under mpirun: every rank stops when the first one finishes" },
	[CLI_S_RANKDIR] = { "per-rank-dir", OPT_ARG, CLI_S_RANKDIR, "0|1",
			    "under mpirun: each rank in a directory of its own under a "
			    "directory TARGET [1]" },
	[CLI_S_PRECOND] = { "precondition", OPT_ARG, CLI_S_PRECOND, "STATE",
			    "bring the target to a state first: purge, fill, fill-random[:AMOUNT] "
			    "(needs --destroy-data; docs/states.md)" },
	[CLI_S_DISCARD] = { "discard-before", OPT_NOARG, CLI_S_DISCARD, NULL,
			    "discard the region (BLKDISCARD; a hole punched in a file) before "
			    "the run (needs --destroy-data)" },
	[CLI_S_PURGE] = { "purge", OPT_ARG, CLI_S_PURGE, cli_purge_methods,
			  "with --precondition=purge: how the device is purged (auto: the "
			  "strongest it takes; docs/states.md) [auto]" },
	[CLI_S_UNITS] = { "units", OPT_ARG, CLI_S_UNITS, "iec|si",
			  "rates in MiB/s, GiB/s (iec: powers of 1024) or in MB/s, GB/s (si: "
			  "powers of 1000, as datasheets and CrystalDiskMark); sizes stay "
			  "in KiB, MiB; the JSON keeps bytes [iec]" },
	[CLI_S_DB] = { "db", OPT_ARG, CLI_S_DB, "PATH",
		       "record the result in the results history PATH, a SQLite file "
		       "(docs/history.md) [$STORBENCH_DB]" },
	[CLI_S_LABEL] = { "label", OPT_ARG, CLI_S_LABEL, "KEY=VALUE",
			  "a label of the result in the history, for what the device cannot "
			  "tell (repeatable: --label firmware=1.2b --label chamber=85C)" },
};

char cli_purge_methods[160];

static const struct cli_opt *find_shared(const struct cli_cmd_opts *c, const char *name, size_t len)
{
	if (!c->cmd || !c->shared)
		return NULL;
	for (int i = 0; i < CLI_S_N; i++)
		if (c->cmd->shared & (1u << i) && strlen(shared_opts[i].name) == len &&
		    !strncmp(shared_opts[i].name, name, len))
			return &shared_opts[i];
	return NULL;
}

/* "a or b", "a, b or c" from "a|b|c" */
static void list_words(const char *bars, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (const char *p = bars; *p && n < len; p++) {
		const char *sep = strchr(p, '|') ? (strchr(strchr(p, '|') + 1, '|') ? ", " : " or ")
						 : "";
		size_t w = strcspn(p, "|");
		n += (size_t)snprintf(out + n, len - n, "%.*s%s", (int)w, p, sep);
		p += w;
		if (!*p)
			break;
	}
}

/* formats holds v as one of its '|'-separated words */
static int is_format(const char *formats, const char *v)
{
	size_t n = strlen(v);
	for (const char *p = formats; n && *p;) {
		size_t w = strcspn(p, "|");
		if (w == n && !strncmp(p, v, n))
			return 1;
		p += w + (p[w] == '|');
	}
	return 0;
}

static int set_shared(const struct cli_cmd_opts *c, int id, const char *v, char *hint, size_t hl)
{
	struct cli_shared *s = c->shared;
	switch (id) {
	case CLI_S_OUTPUT:
		if (!*v)
			return snprintf(hint, hl, "a file name"), -EINVAL;
		struct stat st;
		if (stat(v, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)))
			return snprintf(hint, hl, "a file, not a %s",
					S_ISBLK(st.st_mode) ? "block device" : "directory"),
			       -EINVAL;
		s->output = v;
		return 0;
	case CLI_S_FORMAT:
		if (!is_format(c->cmd->words->formats, v))
			return list_words(c->cmd->words->formats, hint, hl), -EINVAL;
		s->format = v;
		return 0;
	case CLI_S_QUIET: s->quiet = 1; return 0;
	case CLI_S_KEEP: s->keep = 1; return 0;
	case CLI_S_DESTROY: s->destroy_data = 1; return 0;
	case CLI_S_SEED:
		if (sb_parse_u64(v, &s->seed) < 0)
			return snprintf(hint, hl, "a number"), -EINVAL;
		s->seed_given = 1;
		return 0;
	case CLI_S_STONEWALL: cli_ranks_set_stonewall(); return 0;
	case CLI_S_RANKDIR:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return snprintf(hint, hl, "0 or 1"), -EINVAL;
		cli_ranks_set_per_rank_dir(v[0] == '1');
		return 0;
	case CLI_S_PRECOND: {
		const int d = s->state.discard_before;
		const enum sb_purge_method m = s->state.purge;
		const int r = sb_precond_parse(v, &s->state, hint, hl);
		s->state.discard_before = d;
		if (s->purge_given)
			s->state.purge = m;
		return r;
	}
	case CLI_S_DISCARD: s->state.discard_before = 1; return 0;
	case CLI_S_PURGE:
		if (cli_purge_parse(v, &s->state.purge, hint, hl) < 0)
			return -EINVAL;
		s->purge_given = v;
		return 0;
	case CLI_S_UNITS:
		if (strcmp(v, "iec") && strcmp(v, "si"))
			return snprintf(hint, hl, "iec or si"), -EINVAL;
		rep_set_units_si(!strcmp(v, "si"));
		return 0;
	case CLI_S_DB: return cli_history_db(v, hint, hl);
	case CLI_S_LABEL: return cli_history_label(v, hint, hl);
	}
	return -EINVAL;
}

static const char *purge_arg(void)
{
	size_t n = 0;
	if (cli_purge_methods[0])
		return cli_purge_methods;
	for (int i = 0; i < SB_PURGE_NMETHODS; i++)
		if (i != SB_PURGE_NONE)
			n += (size_t)snprintf(cli_purge_methods + n, sizeof(cli_purge_methods) - n,
					      "%s|", sb_purge_name((enum sb_purge_method)i));
	snprintf(cli_purge_methods + n, sizeof(cli_purge_methods) - n, "%s",
		 sb_purge_name(SB_PURGE_NONE));
	return cli_purge_methods;
}

int cli_purge_parse(const char *v, enum sb_purge_method *m, char *hint, size_t hl)
{
	const int r = sb_purge_by_name(v);
	if (r < 0) {
		list_words(purge_arg(), hint, hl);
		return -EINVAL;
	}
	*m = (enum sb_purge_method)r;
	return 0;
}

int cli_format_is(const struct cli_command *cmd, const struct cli_shared *s, const char *name)
{
	if (s->format)
		return !strcmp(s->format, name);
	size_t n = strcspn(cmd->words->formats, "|");
	return strlen(name) == n && !strncmp(cmd->words->formats, name, n);
}

const char *cli_format_of_path(const char *path)
{
	static const char *const ext[][2] = {
		{ ".html", "html" }, { ".htm", "html" },  { ".json", "json" },
		{ ".csv", "csv" },   { ".xlsx", "xlsx" }, { ".txt", "text" },
	};
	const char *dot = path ? strrchr(path, '.') : NULL;
	for (size_t i = 0; dot && !strchr(dot, '/') && i < SB_ARRAY_SIZE(ext); i++)
		if (!strcasecmp(dot, ext[i][0]))
			return ext[i][1];
	return NULL;
}

int cli_opt_number(const char *v, uint64_t *out, uint64_t lo, uint64_t hi, char *hint, size_t hl)
{
	if (sb_parse_u64(v, out) < 0 || *out < lo || *out > hi)
		return snprintf(hint, hl, "a number from %llu to %llu", (unsigned long long)lo,
				(unsigned long long)hi),
		       -EINVAL;
	return 0;
}

int cli_opt_size(const char *v, uint64_t *out, uint64_t lo, uint64_t hi, uint64_t mult,
		 const char *what, char *hint, size_t hl)
{
	if (sb_parse_size(v, out) < 0 || *out < lo || *out > hi || (mult && *out % mult)) {
		if (what)
			snprintf(hint, hl, "%s", what);
		return -EINVAL;
	}
	return 0;
}

int cli_bad_value(const char *name, const char *v, const char *what)
{
	sb_err("--%s: '%s' is not valid (expected %s)", name, v, what);
	return SB_EXIT_USAGE;
}

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
	if (o && o >= shared_opts && o < shared_opts + CLI_S_N)
		r = set_shared(c, o->id, value, hint, sizeof(hint));
	else if (o)
		r = c->set(c->ctx, o->id, value, hint, sizeof(hint));
	else
		r = sb_job_set(c->job, name, value, hint, sizeof(hint));
	if (r < 0) {
		if (hint[0])
			sb_err("--%s: '%s' is not valid (expected %s)", name, value ? value : "",
			       hint);
		else
			sb_err("--%s: '%s' is not valid", name, value ? value : "");
		return -1;
	}
	return 0;
}

int cli_parse_check_only;

static const struct cli_command *cmd_table;
static size_t cmd_n;

void cli_commands_set(const struct cli_command *table, size_t n)
{
	cmd_table = table;
	cmd_n = n;
}

const struct cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cmd_n; i++)
		if (!strcmp(cmd_table[i].name, name))
			return &cmd_table[i];
	return NULL;
}

int cli_parse(int argc, char **argv, const struct cli_cmd_opts *c, char **pos, int maxpos,
	      int *npos)
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
		/* "-o FILE", the one short option, where the command writes --output */
		int short_o = !strcmp(a, "-o") && find_shared(c, "output", 6);
		if (a[1] != '-' && !short_o) {
			sb_err("'%s': options are long, like --bs=4k (see --help)", a);
			return -1;
		}
		char *name = short_o ? "output" : a + 2, *eq = short_o ? NULL : strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		char namebuf[64];
		snprintf(namebuf, sizeof(namebuf), "%.*s", (int)SB_MIN(len, 63), name);
		const struct cli_opt *o = find_shared(c, name, len);
		if (!o)
			o = find(c->opts, name, len);
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
	if (c->shared && c->shared->purge_given && c->shared->state.precond != SB_PRECOND_PURGE) {
		sb_err("--purge=%s: needs --precondition=purge (it says how the device is purged)",
		       c->shared->purge_given);
		return -1;
	}
	/* a result to record and no --output: kept in a file all the same */
	if (c->shared && c->cmd && (c->cmd->shared & CLI_DB) && (c->cmd->shared & CLI_OUTPUT) &&
	    strcmp(c->cmd->name, "history") && !c->shared->output && cli_history_where())
		c->shared->output = cli_history_output(c->cmd->name);
	if (cli_parse_check_only)
		_exit(SB_EXIT_OK); /* a plan's check of a step: its options are good */
	return 0;
}

static int ignore_opt(void *ctx, int id, const char *value, char *hint, size_t hintlen)
{
	(void)ctx, (void)id, (void)value, (void)hint, (void)hintlen;
	return 0;
}

int cli_apply_job_opts(int argc, char **argv, const struct cli_cmd_opts *c, struct sb_job_opts *job)
{
	struct cli_cmd_opts only = *c;
	char *pos[8];
	int npos;
	only.set = ignore_opt;
	only.job = job;
	return cli_parse(argc, argv, &only, pos, 8, &npos) ? -1 : 0;
}

static void print_opt(FILE *f, const char *name, const char *arg, const char *help)
{
	char left[96];
	snprintf(left, sizeof(left), "%s--%s%s%s", strcmp(name, "output") ? "" : "-o, ", name,
		 arg ? "=" : "", arg ? arg : "");
	fprintf(f, "  %-30s %s\n", left, help);
}

void cli_print_opts(FILE *f, const struct cli_cmd_opts *c)
{
	/* the command's own options, then the shared ones in one order */
	purge_arg();
	for (const struct cli_opt *o = c->opts; o && o->name; o++)
		print_opt(f, o->name, o->arg, o->help);
	for (int i = 0; c->cmd && i < CLI_S_N; i++) {
		const struct cli_opt *o = &shared_opts[i];
		if (c->cmd->shared & (1u << i))
			print_opt(f, o->name, i == CLI_S_FORMAT ? c->cmd->words->formats : o->arg,
				  c->cmd->words->help[i] ? c->cmd->words->help[i] : o->help);
	}
	if (!c->job_options)
		return;
	fprintf(f, "\nworkload options:\n");
	char left[192]; /* --engine's list of every engine is long */
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

/*
 * A plan judged before it runs (plan.h): what a step asks of its target,
 * read from its words (whether it writes, the region it names, the bytes
 * a new file of its takes), which the plan checks against each target
 * before its first step; each step's command and words, its options by
 * its command's own parser (a hook: the program's); the program's --db
 * and --label given to the plan.
 */
#include "lib/plan/plan.h"

#include "lib/base/units.h"
#include "lib/target/gate.h"
#include "lib/target/target.h"

#include <libgen.h>
#include <limits.h>
#include <unistd.h>

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

/* ---- a plan judged before it runs ---- */

int sb_plan_step_has(const struct sb_plan_step *st, const char *opt)
{
	const size_t n = strlen(opt);
	for (int a = 1; a < st->argc; a++)
		if (!strncmp(st->argv[a], opt, n) && (!st->argv[a][n] || st->argv[a][n] == '='))
			return 1;
	return 0;
}

const struct sb_plan_command *sb_plan_command_find(const struct sb_plan_command *cmds,
						   const char *name)
{
	for (; cmds && cmds->name; cmds++)
		if (!strcmp(cmds->name, name))
			return cmds;
	return NULL;
}

/* The step's words its plan may not set: the plan names the result. */
static int step_words(const char *file, const struct sb_plan_step *st, struct sb_error *err)
{
	for (int a = 1; a < st->argc; a++) {
		const char *w = st->argv[a];
		if (!strcmp(w, "-o") || !strncmp(w, "--output", 8))
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "%s:%u: [%s] run: %s: the plan names each step's "
					    "result (in its directory, --dir)",
					    file, st->run_line, st->name, w);
		if (!strcmp(w, "-h") || !strcmp(w, "--help"))
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "%s:%u: [%s] run: %s: a step runs its command", file,
					    st->run_line, st->name, w);
	}
	return 0;
}

/* The command's own parser on the step's words, with --destroy-data
 * when it gets it and a target that is not there: nothing is touched
 * should the command ever go past its parse. */
static int check_step(const char *file, const struct sb_plan_step *st,
		      const struct sb_plan_command *cmd, int destroy,
		      const struct sb_plan_check_hooks *h, struct sb_error *err)
{
	char said[2048];
	char **argv = calloc((size_t)st->argc + 3, sizeof(*argv));
	int k = 0;
	if (!argv)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "cannot check the steps: %s",
				    strerror(ENOMEM));
	for (int a = 0; a < st->argc; a++)
		argv[k++] = st->argv[a];
	if (destroy && cmd->destroys)
		argv[k++] = "--destroy-data";
	argv[k++] = SB_PLAN_CHECK_TARGET;
	said[0] = 0;
	const int rc = h->parse(h->ctx, cmd, k, argv, said, sizeof(said));
	free(argv);
	if (rc < 0)
		return sb_error_set(err, rc, SB_ERR_ENV, "cannot check the steps: %s",
				    strerror(-rc));
	if (!rc)
		return 0;
	/* its first line, without the program's name */
	char *line = said;
	line[strcspn(line, "\n")] = 0;
	if (!strncmp(line, "storbench: ", 11))
		line += 11;
	if (strstr(line, "unexpected argument '" SB_PLAN_CHECK_TARGET "'"))
		/* the step's own words named a target: the check's came extra */
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "%s:%u: [%s] run: %s: run= is a command without its target "
				    "(name the target with target= or after the plan's file)",
				    file, st->run_line, st->name, st->run);
	if (rc == SB_PLAN_UNCHECKED)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "%s:%u: [%s] run: %s: its options could not be checked", file,
				    st->run_line, st->name, st->run);
	return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s:%u: [%s] run: %s", file, st->run_line,
			    st->name, *line ? line : "its options are refused");
}

int sb_plan_check(const struct sb_plan *pl, const char *file, const struct sb_plan_command *cmds,
		  int destroy, const struct sb_plan_check_hooks *h, struct sb_error *err)
{
	for (size_t i = 0; i < pl->nsteps; i++) {
		const struct sb_plan_step *st = &pl->steps[i];
		const struct sb_plan_command *cmd = sb_plan_command_find(cmds, st->argv[0]);
		if (!cmd) {
			char list[256];
			size_t at = 0;
			for (size_t k = 0; cmds[k].name && at < sizeof(list); k++)
				at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
						       k ? ", " : "", cmds[k].name);
			return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
					    "%s:%u: [%s] run: '%s' is not a command a step runs (%s)",
					    file, st->run_line, st->name, st->argv[0], list);
		}
		int e = step_words(file, st, err);
		if (!e && h && h->parse)
			e = check_step(file, st, cmd, destroy, h, err);
		if (e)
			return e;
	}
	return 0;
}

int sb_plan_given_history(struct sb_plan *pl, const char *db, const char *const *labels, size_t n)
{
	if (db) {
		free(pl->db);
		if (!(pl->db = strdup(db)))
			return -ENOMEM;
	}
	if (!n)
		return 0;
	char **l = realloc(pl->labels, (pl->nlabels + n) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	pl->labels = l;
	for (size_t i = 0; i < n; i++)
		if (!(pl->labels[pl->nlabels++] = strdup(labels[i])))
			return pl->nlabels--, -ENOMEM;
	return 0;
}

/* A step's own --destroy-data, or the plan's. */
static int step_consents(const struct sb_plan_step *st, int destroy)
{
	for (int a = 1; a < st->argc; a++)
		if (!strcmp(st->argv[a], "--destroy-data"))
			return 1;
	return destroy;
}

int sb_plan_check_target(const struct sb_plan_step *st, const char *path, int destroy,
			 struct sb_error *err)
{
	struct sb_target_info in;
	struct sb_plan_need nd;
	struct sb_error er;
	char a[32], b[32], c[32];
	int e = sb_target_probe(path, &in);
	if (e < 0)
		return sb_error_set(err, e, sb_errno_class(e), "[%s] on '%s': cannot use it: %s",
				    st->name, path, strerror(-e));
	sb_plan_step_need(st, &nd);
	static const char *const existing[] = { "pts", "spo", "flash", "info", "meta" };
	for (size_t i = 0; in.kind == SB_TARGET_NONE && i < SB_ARRAY_SIZE(existing); i++)
		if (!strcmp(st->argv[0], existing[i]))
			return sb_error_set(err, -ENOENT, SB_ERR_INPUT,
					    "[%s] on '%s': cannot use it: %s (%s makes no file: "
					    "name an existing one)",
					    st->name, path, strerror(ENOENT), existing[i]);
	if (in.kind == SB_TARGET_BLOCK && nd.writes) {
		const int fd = sb_gate_device(path, step_consents(st, destroy), &er);
		if (fd < 0)
			return sb_error_set(err, fd,
					    er.cls == SB_ERR_ENV ? SB_ERR_ENV : SB_ERR_INPUT,
					    "[%s] on '%s': %s%s", st->name, path, er.msg,
					    fd == -EPERM
						    ? " (plan --destroy-data gives it to every "
						      "step)"
						    : "");
		close(fd);
	}
	if ((in.kind == SB_TARGET_BLOCK || in.kind == SB_TARGET_FILE) && nd.region && nd.size &&
	    (nd.offset >= in.file_size || nd.size > in.file_size - nd.offset))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "[%s] on '%s': --size: %s from offset %s goes past the end of "
				    "the %s (%s)",
				    st->name, path, sb_fmt_size(nd.size, a, sizeof(a)),
				    sb_fmt_size(nd.offset, b, sizeof(b)),
				    in.kind == SB_TARGET_BLOCK ? "device" : "file",
				    sb_fmt_size(in.file_size, c, sizeof(c)));
	if ((in.kind == SB_TARGET_DIR || in.kind == SB_TARGET_NONE) && nd.new_size &&
	    nd.new_size > in.fs_free)
		return sb_error_set(err, -ENOSPC, SB_ERR_ENV,
				    "[%s] on '%s': its file of %s does not fit: the filesystem has "
				    "%s free",
				    st->name, path, sb_fmt_size(nd.new_size, a, sizeof(a)),
				    sb_fmt_size(in.fs_free, b, sizeof(b)));
	return 0;
}

void sb_plan_dir_name(const char *file, const struct sb_plan *pl, char *out, size_t len)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", file);
	const char *b = pl->name ? pl->name : basename(buf);
	snprintf(out, len, "%s", b);
	if (!pl->name) {
		char *dot = strrchr(out, '.');
		if (dot && dot != out)
			*dot = 0;
	}
	for (char *c = out; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
}

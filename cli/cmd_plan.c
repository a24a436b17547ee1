/*
 * storbench plan: a qualification plan (lib/plan/plan.h, docs/plans.md)
 * checked whole, then run step by step on each target, each step as the
 * storbench program itself with the step's options and --output= a
 * result file in the plan's directory; each finished step recorded in
 * the journal there, so that the same plan run again resumes at the
 * first unfinished step; each criterion judged on the figures of its
 * step's result. The verdict first, then the criteria, as text or JSON,
 * and JUnit XML (--junit) for CI.
 */
#include "cli/cli.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/plan_builtin.h"
#include "cli/report_files.h"
#include "report/report.h"

enum { O_FIGURES, O_DIR, O_JUNIT, O_LIST, O_SET, O_DESTROY, O_PARALLEL, O_DB, O_LABEL, O_HTML };

static const struct cli_opt plan_opts[] = {
	{ "figures", OPT_ARG, O_FIGURES, "COMMAND",
	  "list the figures of COMMAND's results a criterion may name, with their units" },
	{ "dir", OPT_ARG, O_DIR, "DIR",
	  "the plan's directory: its journal, each step's result and output [NAME-plan, NAME "
	  "the plan's name= or its file's]" },
	{ "junit", OPT_ARG, O_JUNIT, "FILE", "write JUnit XML: each criterion a test case" },
	{ "html", OPT_NOARG, O_HTML, NULL,
	  "write the plan's report as HTML in its directory (report.html, or [global]'s "
	  "html=NAME.html: storbench report DIR)" },
	{ "list", OPT_NOARG, O_LIST, NULL, "list the built-in plans, each with what it does" },
	{ "set", OPT_ARG, O_SET, "STEP.KEY=VALUE",
	  "change a step: KEY an option of its command (--set speed.size=16M), run, wait or "
	  "optional; STEP a step's name, a command's (every step running it: quick.size=16M) or "
	  "'*' (every step that has it); repeatable" },
	{ "destroy-data", OPT_NOARG, O_DESTROY, NULL,
	  "pass --destroy-data to every step whose command takes it (a device is refused "
	  "without)" },
	{ "parallel", OPT_NOARG, O_PARALLEL, NULL,
	  "with several TARGETs, each target's steps at once, a process each: its lines "
	  "prefixed with the target, and kept in target-N.log in the plan's directory" },
	{ "db", OPT_ARG, O_DB, "PATH",
	  "each step records its result in this results history, with the labels (instead of "
	  "the plan's db=)" },
	{ "label", OPT_ARG, O_LABEL, "KEY=VALUE",
	  "a label of the plan, beside its label= lines: printed, in its JSON, and given to "
	  "each step's record in the history (repeatable)" },
	{ NULL, 0, 0, NULL, NULL },
};

/* The commands a step may run: each writes a result (--output) and reads
 * its options through cli_parse, which a check ends (cli_parse_check_only). */
static const char *const step_commands[] = { "quick", "run",   "verify", "soak",    "pts",
					     "cliff", "flash", "spo",	 "latency", "meta",
					     "sweep", "info",  NULL };

#define MAX_SETS 64

struct plan_ctx {
	const char *figures, *dir, *junit, *db;
	int list, destroy, parallel, html;
	const char *set[MAX_SETS], *label[MAX_SETS];
	size_t nset, nlabel;
};

static int plan_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct plan_ctx *c = vc;
	switch (id) {
	case O_FIGURES: c->figures = v; return 0;
	case O_DIR: c->dir = v; return 0;
	case O_JUNIT: c->junit = v; return 0;
	case O_HTML: c->html = 1; return 0;
	case O_LIST: c->list = 1; return 0;
	case O_DESTROY: c->destroy = 1; return 0;
	case O_PARALLEL: c->parallel = 1; return 0;
	case O_DB: c->db = v; return 0;
	case O_LABEL:
		if (c->nlabel == MAX_SETS) {
			snprintf(hint, hl, "at most %d of them", MAX_SETS);
			return -EINVAL;
		}
		if (!strchr(v, '=') || *v == '=') {
			snprintf(hint, hl, "KEY=VALUE");
			return -EINVAL;
		}
		c->label[c->nlabel++] = v;
		return 0;
	case O_SET:
		if (c->nset == MAX_SETS) {
			snprintf(hint, hl, "at most %d of them", MAX_SETS);
			return -EINVAL;
		}
		c->set[c->nset++] = v;
		return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench plan [options] PLAN [TARGET...]\n"
	       "       storbench plan --list\n"
	       "       storbench plan --figures COMMAND\n\n"
	       "Runs a qualification plan: an INI file whose [global] section may set name=,\n"
	       "target= and label=KEY=VALUE, and whose every other section is a step run in\n"
	       "file order: run= a storbench command line without its target (quick\n"
	       "--repeat=5, verify --size=1G, soak --iterations=100), optional target=, and\n"
	       "expect=FIGURE OP VALUE lines, OP one of >= <= > < == !=, VALUE a number with\n"
	       "storbench's units (40MiB/s, 2k, 5ms, 10%%) or a word (pass). A step with no\n"
	       "criterion on status expects status == pass (its command's own verdict).\n"
	       "The whole plan is checked before the first step: its keys, each criterion's\n"
	       "figure (an unknown one is refused with the nearest names), each step's options\n"
	       "(by the command's own parser) and the targets. Each step runs as storbench\n"
	       "itself on each TARGET (else the plan's target=) in turn (--parallel: each\n"
	       "TARGET's steps at once, a verdict per target), its result and output\n"
	       "in the plan's directory (--dir), recorded in its journal when it ends: the\n"
	       "same plan run again on the same target resumes at the first unfinished step.\n"
	       "A step that cannot run stops the plan and the report says which never ran.\n"
	       "db=PATH in [global] (or --db): each step records its result in that results\n"
	       "history, with the plan's labels and --label's (storbench history,\n"
	       "docs/history.md). html=NAME.html in [global]: the plan's HTML report is\n"
	       "written to that file of its directory when the plan ends (as --html).\n"
	       "The verdict comes first: PASS only when every criterion passed.\n"
	       "PLAN may name a built-in plan (--list): emmc-stability, sd-card, ssd-pts,\n"
	       "tlc-states; --set scales a plan's steps down or up. docs/plans.md lists the\n"
	       "figures of each command and describes the built-in plans.\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench plan --figures quick\n"
	       "  storbench plan --destroy-data sd-card /dev/mmcblk0\n"
	       "  storbench plan emmc-stability /mnt/emmc --set dd-loop.duration=72h\n"
	       "  storbench plan qualify.ini /mnt/sample1\n"
	       "  storbench plan qualify.ini /mnt/a /mnt/b --junit=plan.xml -o plan.json\n"
	       "  storbench plan --parallel qualify.ini /mnt/a /mnt/b /mnt/c\n");
	cli_print_exit_status(stdout, co->cmd);
}

static int list_figures(const char *command)
{
	if (rep_plan_figures_text(stdout, command) < 0) {
		char list[256];
		size_t at = 0;
		for (size_t i = 0; sb_figure_commands[i] && at < sizeof(list); i++)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "",
					       sb_figure_commands[i]);
		return cli_bad_value("figures", command, list);
	}
	return SB_EXIT_OK;
}

static const struct plan_builtin *builtin(const char *name)
{
	for (const struct plan_builtin *b = plan_builtins; b->name; b++)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

static int list_builtins(void)
{
	for (const struct plan_builtin *b = plan_builtins; b->name; b++) {
		struct sb_plan pl;
		struct sb_error err;
		int e = sb_plan_parse(b->text, strlen(b->text), b->name, &pl, &err);
		printf("%-16s %s\n", b->name,
		       e < 0		? err.msg
		       : pl.description ? pl.description
					: "");
		sb_plan_free(&pl);
	}
	return SB_EXIT_OK;
}

static int read_text(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	const struct plan_builtin *b = !f && errno == ENOENT && !strchr(path, '/') ? builtin(path)
										   : NULL;
	if (b) { /* a built-in plan, by name */
		*len = strlen(b->text);
		*out = strdup(b->text);
		if (*out)
			return 0;
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	if (!f) {
		int e = errno;
		if (e == ENOENT && !strchr(path, '/'))
			sb_err("cannot open '%s': %s (nor is it a built-in plan: storbench plan "
			       "--list)",
			       path, strerror(e));
		else
			sb_err("cannot open '%s': %s", path, strerror(e));
		return e == ENOENT ? SB_EXIT_USAGE : cli_exit_of_errno(-e);
	}
	const int e = sb_read_stream(f, 1u << 20, out, len);
	fclose(f);
	if (e == -EFBIG)
		sb_err("'%s': a plan of more than 1 MiB", path);
	else if (e)
		sb_err("cannot read '%s': %s", path, e == -ENOMEM ? "out of memory" : "read error");
	return e == -EFBIG ? SB_EXIT_USAGE : e ? SB_EXIT_ENV : 0;
}

/* The command's own parser on a step's words (lib/plan's check), in a
 * child that ends at the end of the parse (cli_parse_check_only) with
 * nothing run: its exit code, what it said on stderr into said. */
static int parse_step(void *ctx, const struct sb_plan_command *pc, int argc, char **argv,
		      char *said, size_t len)
{
	const struct cli_command *cmd = cli_command_find(pc->name);
	int p[2];
	(void)ctx;
	if (pipe(p) < 0)
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		const int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		FILE *null = fopen("/dev/null", "r+");
		close(p[0]);
		if (null)
			dup2(fileno(null), 1), dup2(fileno(null), 0);
		dup2(p[1], 2);
		alarm(30);
		cli_parse_check_only = 1;
		int rc = cmd->fn(cmd, argc, argv);
		fflush(NULL);
		_exit(rc ? rc : SB_PLAN_UNCHECKED);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while ((r = read(p[0], said + n, len - 1 - n)) > 0 || (r < 0 && errno == EINTR))
		n += r > 0 ? (size_t)r : 0;
	close(p[0]);
	said[n] = 0;
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		return SB_EXIT_SIGNAL + WTERMSIG(status);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : WEXITSTATUS(status);
}

/* The commands a step may run, from the program's table (lib/plan's
 * check): whether each takes --destroy-data. */
static void step_table(struct sb_plan_command *t)
{
	size_t k = 0;
	for (; step_commands[k]; k++) {
		const struct cli_command *cmd = cli_command_find(step_commands[k]);
		t[k] = (struct sb_plan_command){ step_commands[k],
						 cmd && (cmd->shared & CLI_DESTROY) };
	}
	t[k].name = NULL;
}

/* What the program keeps of a plan's run: what its steps are given, and
 * where its lines go. */
struct plan_cli {
	const struct sb_plan *pl;
	int quiet, destroy, parallel;
	size_t ntargets;
	char (*targets)[PATH_MAX + 256];
	char (*step_targets)[PATH_MAX + 256]; /* [target][step] */
	char dir[PATH_MAX];
	char db[PATH_MAX]; /* db=, absolute (a URL as written); "": none */
	/* --parallel, in a target's process: its lines on the terminal
	 * prefixed with its target, and all of them in its log */
	const char *prefix;
	int log;
};

/* A piece of a line on stderr, prefixed with the target when it begins one. */
static void prefixed(void *ctx, const char *p, size_t n, int starts)
{
	const struct plan_cli *c = ctx;
	char line[1200];
	int k = snprintf(line, sizeof(line), "%s%s%.*s", starts ? c->prefix : "",
			 starts ? ": " : "", (int)n, p);
	if (write(2, line, (size_t)SB_MIN(k, (int)sizeof(line) - 1)) < 0) {
		/* ours is gone */
	}
}

/* Lines for people, from a step or the plan: on stderr as they are
 * (prefixed with the target in a target's process), and in its log. */
static void emit(void *ctx, const char *buf, size_t n)
{
	const struct plan_cli *c = ctx;
	static int midline; /* the last byte on stderr ended no line */
	if (c->log > 0 && write(c->log, buf, n) < 0) {
		/* the log is lost: the terminal still has it */
	}
	if (c->prefix)
		sb_plan_lines_cut(&midline, buf, n, prefixed, ctx);
	else if (write(2, buf, n) < 0) {
		/* ours is gone */
	}
}

static void say(const struct plan_cli *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct plan_cli *c, const char *fmt, ...)
{
	char buf[10240];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		emit((void *)c, buf, (size_t)SB_MIN(n, (int)sizeof(buf) - 1));
}

/* ---- Ctrl-C, SIGTERM, SIGHUP during a plan ----
 * The running step is in a process group of its own (the terminal's
 * Ctrl-C reaches the plan alone): each signal the plan gets is passed on
 * to it, so the first stops it as its own Ctrl-C would (its result marked
 * interrupted) and a second ends it at once; the plan then writes its
 * report, marked INTERRUPTED, and ends. The step is not in the journal:
 * the plan run again runs it again from its start. With --parallel each
 * target's process (a process group of its own too) gets the signal from
 * the plan and passes it on to its step. */
static struct sb_plan_children kids;

static void on_plan_signal(int sig)
{
	sb_plan_children_signal(&kids, sig);
}

static const int plan_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void plan_signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_plan_signal;
	for (size_t i = 0; i < SB_ARRAY_SIZE(plan_signals); i++)
		sigaddset(&sa.sa_mask, plan_signals[i]);
	for (size_t i = 0; i < SB_ARRAY_SIZE(plan_signals); i++)
		sigaction(plan_signals[i], &sa, NULL);
}

static void plan_signals_block(int on, sigset_t *old)
{
	sigset_t s;
	sigemptyset(&s);
	for (size_t i = 0; i < SB_ARRAY_SIZE(plan_signals); i++)
		sigaddset(&s, plan_signals[i]);
	sigprocmask(on ? SIG_BLOCK : SIG_SETMASK, on ? &s : old, on ? old : NULL);
}

static int stop_asked(void *ctx)
{
	(void)ctx;
	return kids.signal;
}

/* Runs a step: /proc/self/exe COMMAND [--quiet] --output=RESULT OPTIONS
 * TARGET, in the plan's directory, its stdout to c->out, its stderr passed
 * on (its last line into said). The exit code the step ended with
 * (128+N for a signal); -errno when it could not start. */
static int run_step(void *ctx, const struct sb_plan_call *call, char *said, size_t saidlen)
{
	const struct plan_cli *r = ctx;
	const struct cli_command *cmd = cli_command_find(call->st->argv[0]);
	const unsigned takes = cmd ? cmd->shared : 0;
	const struct sb_plan_argv_opts ao = { r->quiet && (takes & CLI_QUIET),
					      r->db[0] && (takes & CLI_DB),
					      r->destroy && (takes & CLI_DESTROY) };
	struct sb_plan_argv a;
	int p[2];
	if (sb_plan_step_argv(r->pl, call, &ao, &a) < 0)
		return -ENOMEM;
	if (pipe(p) < 0) {
		const int e = errno;
		sb_plan_argv_free(&a);
		return -e;
	}
	fflush(stdout);
	fflush(stderr);
	sigset_t old;
	plan_signals_block(1, &old);
	const pid_t pid = kids.signal ? -1 : fork(); /* none when asked to stop before */
	if (pid < 0) {
		const int e = kids.signal ? SB_EXIT_SIGNAL + kids.signal : -errno;
		plan_signals_block(0, &old);
		sb_plan_argv_free(&a);
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		FILE *o = fopen(call->out, "w");
		FILE *in = fopen("/dev/null", "r");
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		for (size_t i = 0; i < SB_ARRAY_SIZE(plan_signals); i++)
			sigaction(plan_signals[i], &dfl, NULL);
		plan_signals_block(0, &old);
		setpgid(0, 0); /* the terminal's Ctrl-C is the plan's to pass on */
		close(p[0]);
		if (!o || !in || dup2(fileno(o), 1) < 0 || dup2(p[1], 2) < 0 ||
		    dup2(fileno(in), 0) < 0 || chdir(r->dir) < 0 ||
		    (r->db[0] && setenv("STORBENCH_DB", r->db, 1) < 0))
			_exit(127);
		execv("/proc/self/exe", a.argv);
		_exit(127);
	}
	kids.step = pid;
	plan_signals_block(0, &old);
	sb_plan_argv_free(&a);
	close(p[1]);
	sb_plan_relay(p[0], emit, (void *)r, said, saidlen);
	close(p[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			kids.step = 0;
			return -errno;
		}
	kids.step = 0;
	return sb_plan_step_status(status);
}

/* What the run tells: a line each, but with --quiet. */
static void on_event(void *ctx, const struct sb_plan_event *ev)
{
	const struct plan_cli *c = ctx;
	char w[32];
	if (c->quiet)
		return;
	say(c, "storbench: step %zu of %zu [%s] on '%s': ", ev->step_index + 1, ev->nsteps,
	    ev->st->name, ev->target);
	switch (ev->kind) {
	case SB_PLAN_EV_RERUN: say(c, "%s: it runs again\n", ev->why); break;
	case SB_PLAN_EV_RESUMED: say(c, "done before (the journal)\n"); break;
	case SB_PLAN_EV_WAIT:
		say(c, "the target idle for %s first (wait=)\n",
		    sb_fmt_ns((double)ev->wait_ns, w, sizeof(w)));
		break;
	case SB_PLAN_EV_START: say(c, "%s\n", ev->st->run); break;
	case SB_PLAN_EV_SKIPPED: say(c, "skipped (optional): %s\n", ev->why); break;
	}
}

/* --parallel: body(arg) in a process of the target's own, in a process
 * group of its own (the plan passes its signals on), ended should the
 * plan be, its lines prefixed with its target and kept in its log
 * (target-N.log in the plan's directory). */
static pid_t spawn_target(void *ctx, size_t ti, int (*body)(void *arg), void *arg)
{
	struct plan_cli *c = ctx;
	sigset_t old;
	fflush(stdout);
	fflush(stderr);
	plan_signals_block(1, &old);
	const pid_t pid = fork();
	if (pid < 0) {
		const int e = errno;
		plan_signals_block(0, &old);
		return -e;
	}
	if (pid == 0) {
		char log[PATH_MAX + 32];
		kids.ntargets = 0;
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		snprintf(log, sizeof(log), "%s/target-%zu.log", c->dir, ti + 1);
		FILE *lf = fopen(log, "ae"); /* the process's to its end */
		c->log = lf ? fileno(lf) : -1;
		c->prefix = c->targets[ti];
		plan_signals_block(0, &old);
		if (c->log < 0)
			sb_err("cannot write '%s': %s", log, strerror(errno));
		const int rc = body(arg);
		fflush(NULL);
		_exit(rc);
	}
	kids.targets[kids.ntargets++] = pid;
	plan_signals_block(0, &old);
	return pid;
}

static int prepare(struct plan_cli *r, const char *file, const struct plan_ctx *c, char **pos,
		   int npos)
{
	r->ntargets = npos > 1 ? (size_t)npos - 1 : r->pl->target ? 1 : 0;
	if (!r->ntargets) {
		sb_err("%s: no target: give TARGET, or target= in [global]", file);
		return SB_EXIT_USAGE;
	}
	r->targets = calloc(r->ntargets, sizeof(*r->targets));
	r->step_targets = calloc(r->ntargets * r->pl->nsteps, sizeof(*r->step_targets));
	if (!r->targets || !r->step_targets) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	struct sb_error err = { 0 };
	if (sb_plan_targets(r->pl, npos > 1 ? (const char *const *)pos + 1 : NULL, r->ntargets,
			    r->destroy, r->targets, r->step_targets, &err) < 0)
		return cli_error(&err);
	if (r->pl->db) {
		if (!sb_history_backend(r->pl->db, &err)) {
			sb_err("%s: db=%s", file, err.msg);
			return SB_EXIT_USAGE;
		}
		if (strstr(r->pl->db, "://"))
			snprintf(r->db, sizeof(r->db), "%s", r->pl->db);
		else if (sb_plan_path(r->pl->db, r->db, sizeof(r->db), &err) < 0)
			return cli_error(&err);
		/* before the first step: the history takes results, the labels
		 * are the history's */
		if (sb_history_check(r->db, (const char *const *)r->pl->labels, r->pl->nlabels,
				     &err) < 0) {
			sb_err("%s: %s", file, err.msg);
			return cli_error_told(&err);
		}
	}
	return sb_plan_dir_make(file, r->pl, c->dir, r->dir, sizeof(r->dir), &err) < 0
		       ? cli_error(&err)
		       : 0;
}

static void cli_free(struct plan_cli *r)
{
	free(r->targets);
	free(r->step_targets);
}

static int write_json(FILE *f, const void *ctx)
{
	return rep_plan_run_json(f, ctx);
}

static int write_junit(FILE *f, const void *ctx)
{
	return rep_plan_run_junit(f, ctx);
}

/* The verdict, the criteria table (text, or JSON on stdout: json_stdout), the JSON
 * result to output (NULL: none), beside the steps in the plan's directory,
 * and JUnit XML to junit (NULL: none); the exit code: 0 every criterion
 * passed, 1 one failed, a step's that could not run (2, 3, 128+N), or that
 * of an output that could not be written. */
static int report(const struct sb_plan_result *r, int json_stdout, const char *output,
		  const char *junit)
{
	int rc = 0;
	if (json_stdout)
		rc = cli_write_file(NULL, write_json, r);
	else
		rep_plan_run_text(stdout, r);
	if (!rc && output)
		rc = cli_write_file(output, write_json, r);
	if (!rc) { /* beside its steps: storbench report DIR reads it */
		char path[PATH_MAX + 16];
		snprintf(path, sizeof(path), "%s/plan.json", r->dir);
		rc = cli_write_file(path, write_json, r);
	}
	if (!rc && junit)
		rc = cli_write_file(junit, write_junit, r);
	if (rc)
		return rc;
	if (r->stopped)
		return r->stopped >= SB_EXIT_SIGNAL || r->stopped == SB_EXIT_USAGE ? r->stopped
										   : SB_EXIT_ENV;
	return r->tally.failed ? SB_EXIT_FAIL : SB_EXIT_OK;
}

/* The plan run (sb_plan_run) with the program's hooks, and its report:
 * the exit code. */
static int run(struct plan_cli *r, const char *file, const struct cli_command *cmd,
	       const struct cli_shared *sh, const char *junit)
{
	const char **targets = calloc(r->ntargets, sizeof(*targets));
	const char **step_targets = calloc(r->ntargets * r->pl->nsteps, sizeof(*step_targets));
	struct sb_plan_result res = { 0 };
	struct sb_error err;
	int rc;
	kids.targets = calloc(r->ntargets, sizeof(*kids.targets));
	if (!targets || !step_targets || !kids.targets) {
		free(targets);
		free(step_targets);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	for (size_t i = 0; i < r->ntargets; i++)
		targets[i] = r->targets[i];
	for (size_t i = 0; i < r->ntargets * r->pl->nsteps; i++)
		step_targets[i] = r->step_targets[i];
	const struct sb_plan_run_opts o = { r->pl,	  file,	  targets,    r->ntargets,
					    step_targets, r->dir, r->parallel };
	const struct sb_plan_hooks h = { r, run_step, stop_asked, on_event, spawn_target };
	plan_signals_install();
	if (sb_plan_run(&o, &h, &res, &err) < 0)
		rc = cli_error(&err);
	else
		rc = report(&res, cli_format_is(cmd, sh, "json"), sh->output, junit);
	sb_plan_result_free(&res);
	kids.ntargets = 0;
	free(kids.targets);
	kids.targets = NULL;
	free(targets);
	free(step_targets);
	return rc;
}

int cmd_plan(const struct cli_command *cmd, int argc, char **argv)
{
	struct plan_ctx c = { 0 };
	struct cli_shared sh = { 0 };
	struct cli_cmd_opts co = { plan_opts, plan_set, 0, NULL, &c, cmd, &sh };
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc;
	if (!pos) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	int p = cli_parse(argc, argv, &co, pos, argc, &npos);
	if (p == 1) {
		help(&co);
		free(pos);
		return SB_EXIT_OK;
	}
	if (p < 0) {
		free(pos);
		return SB_EXIT_USAGE;
	}
	if (c.list) {
		free(pos);
		if (npos || c.figures) {
			sb_err("--list: lists the built-in plans; nothing with it");
			return SB_EXIT_USAGE;
		}
		return list_builtins();
	}
	if (c.figures) {
		free(pos);
		if (npos) {
			sb_err("--figures: lists the figures of a command; no PLAN with it");
			return SB_EXIT_USAGE;
		}
		return list_figures(c.figures);
	}
	if (npos < 1) {
		free(pos);
		sb_err("plan needs a PLAN file (see storbench plan --help)");
		return SB_EXIT_USAGE;
	}
	const char *file = pos[0];
	char *text = NULL;
	size_t len = 0;
	struct sb_plan pl;
	struct sb_error err;
	if ((rc = read_text(file, &text, &len))) {
		free(pos);
		return rc;
	}
	int e = sb_plan_parse(text, len, file, &pl, &err);
	free(text);
	for (size_t i = 0; e >= 0 && i < c.nset; i++)
		e = sb_plan_set(&pl, c.set[i], &err);
	if (e >= 0 && (e = sb_plan_given_history(&pl, c.db, c.label, c.nlabel)) < 0)
		sb_error_set(&err, e, SB_ERR_ENV, "out of memory");
	struct sb_plan_command table[SB_ARRAY_SIZE(step_commands)];
	const struct sb_plan_check_hooks ch = { NULL, parse_step };
	step_table(table);
	if (e >= 0)
		e = sb_plan_check(&pl, file, table, c.destroy, &ch, &err);
	struct plan_cli r;
	memset(&r, 0, sizeof(r));
	r.pl = &pl;
	r.quiet = sh.quiet;
	r.destroy = c.destroy;
	r.parallel = c.parallel;
	r.log = -1;
	rc = e < 0 ? cli_error(&err) : 0;
	if (!rc)
		rc = prepare(&r, file, &c, pos, npos);
	free(pos);
	if (!rc) {
		rc = run(&r, file, cmd, &sh, c.junit);
		char html[2 * PATH_MAX]; /* --html or html=: storbench report DIR */
		snprintf(html, sizeof(html), "%s/%s", r.dir, pl.html ? pl.html : "report.html");
		int hr = c.html || pl.html ? cli_report_plan_html(r.dir, html) : 0;
		rc = hr && rc <= SB_EXIT_FAIL ? hr : rc;
	}
	cli_free(&r);
	sb_plan_free(&pl);
	return rc;
}

/*
 * storbench spo --cycles as one call (spo.h, sb_spo_cycles_run): the
 * controlling host's loop. Each cycle starts the writer's command (its
 * standard output the cycle's journal, beside the log), has the cut hook
 * cut the power after a random time in [cut_min_ns, cut_max_ns], waits
 * for the board (the reconnect command until it succeeds), runs the
 * check's command with the journal on its standard input and its JSON
 * results on its standard output, and appends one record to the JSON
 * Lines log, flushed and fsync'd: a crash of this host loses at most the
 * cycle in progress, and the same options resume after the last complete
 * record.
 */
#include "lib/spo/spo.h"
#include "lib/json/json_read.h"
#include "lib/json/json_write.h"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WRITER_GRACE_NS 30000000000ull

struct cycles {
	const struct sb_spo_cycles_opts *o;
	const struct sb_spo_cycles_hooks *h;
	struct sb_spo_cycles_result *out;
	struct sb_error *err;
	FILE *log;
};

static int stopped(const struct cycles *c)
{
	return c->h->stop && c->h->stop(c->h->ctx);
}

static void tell_error(const struct cycles *c, const char *msg)
{
	if (c->h->error)
		c->h->error(c->h->ctx, msg);
}

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The record j holds ended, written and made durable: 0 or -errno. */
static int commit(struct cycles *c, struct sb_json *j)
{
	sb_json_obj_close(j); /* the compact writer ends the line */
	int e = sb_json_end(j);
	if (!e && fsync(fileno(c->log)) < 0)
		e = -errno;
	return e;
}

static int commit_failed(struct cycles *c, int e)
{
	return sb_error_set(c->err, e, SB_ERR_ENV, "--log: cannot write: %s", strerror(-e));
}

/* An existing log read for the cycles done (a torn last line cut off): 1
 * when it is a cycles log of this target, its good length in *good. */
static int read_log(struct cycles *c, FILE *f, size_t *good)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int header = 0;
	while ((n = getline(&line, &cap, f)) > 0 && line[n - 1] == '\n') {
		struct sb_jdoc *d = NULL;
		if (sb_json_parse(line, (size_t)n, NULL, &d, NULL)) {
			sb_jdoc_free(d);
			break;
		}
		/* a line its reader refuses is none of the cycles done */
		struct sb_spo_cycles_line l;
		const int bad = sb_spo_cycles_read(sb_jdoc_root(d), &l, NULL) < 0;
		if (!header && !bad && l.kind == SB_SPO_LINE_HEADER &&
		    !strcmp(l.h.target, c->o->target)) {
			header = 1;
		} else if (header && !bad && l.kind == SB_SPO_LINE_CYCLE &&
			   l.cy.n == c->out->done + 1) {
			c->out->done = l.cy.n;
			if (!l.cy.pass) {
				c->out->failed++;
				if (!c->out->first_fail)
					c->out->first_fail = l.cy.n;
			}
		} else if (!header) {
			sb_jdoc_free(d);
			break;
		}
		sb_jdoc_free(d);
		*good += (size_t)n;
	}
	free(line);
	return header;
}

/* The log: a new one gets its header; an existing one is read for the
 * cycles done and must be of this target. (What went wrong before the log
 * is open for appending is SB_ERR_INPUT, as the program has always
 * answered it: exit 2.) */
static int open_log(struct cycles *c)
{
	const struct sb_spo_cycles_opts *o = c->o;
	struct sb_json j;
	FILE *f = fopen(o->log, "r");
	size_t good = 0;
	int header = 0;

	if (f) {
		header = read_log(c, f, &good);
		fclose(f);
		if (!header)
			return sb_error_set(c->err, -EINVAL, SB_ERR_INPUT,
					    "--log: '%s' exists and is not a cycles log of '%s'",
					    o->log, o->target);
		if (truncate(o->log, (off_t)good) < 0)
			return sb_error_set(c->err, -errno, SB_ERR_INPUT, "--log: %s",
					    strerror(errno));
	}
	c->log = fopen(o->log, "a");
	if (!c->log)
		return sb_error_set(c->err, -errno, SB_ERR_INPUT, "--log: cannot open '%s': %s",
				    o->log, strerror(errno));
	c->out->resumed = c->out->done;
	if (header) {
		char msg[4200];
		snprintf(msg, sizeof(msg), "resuming '%s' after cycle %llu", o->log,
			 (unsigned long long)c->out->done);
		if (c->h->note)
			c->h->note(c->h->ctx, msg);
		return 0;
	}
	const struct sb_spo_cycles_header h = {
		.log_version = 1,
		.storbench = sb_version(),
		.target = o->target,
		.cycles = o->cycles,
		.bs = o->bs,
		.writer = o->writer_cmd,
		.check = o->check_cmd,
		.cut_cmd = o->cut_cmd,
		.cut_min_ns = o->cut_min_ns,
		.cut_max_ns = o->cut_max_ns,
		.started_unix_ns = wall_ns(),
	};
	sb_json_begin(&j, c->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_spo_cycles_header_json(&j, &h);
	const int e = commit(c, &j);
	return e ? commit_failed(c, e) : 0;
}

/* 1 when pid ended (its status in *st), 0 when it still runs */
static int reaped(pid_t pid, int *st)
{
	return waitpid(pid, st, WNOHANG) == pid;
}

/* The writer's whole group gone, not only the shell that started it: the
 * storbench writer under it lets go of the target (its hold) only when
 * it has exited, which a kill does not wait for; the check must not find
 * it still held. At most 10 s. */
static void group_gone(pid_t pgid)
{
	const uint64_t end = sb_now_ns() + 10000000000ull;
	while (kill(-pgid, 0) == 0 && sb_now_ns() < end)
		usleep(5000);
}

/* One cycle's error: logged, told, and the loop stops. */
static int cycle_error(struct cycles *c, uint64_t n, const char *why)
{
	struct sb_json j;
	sb_json_begin(&j, c->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_spo_cycle_error_json(&j, n, why);
	const int e = commit(c, &j);
	if (e) {
		char msg[64];
		snprintf(msg, sizeof(msg), "--log: cannot write: %s", strerror(-e));
		tell_error(c, msg);
	}
	c->out->error_cycle = n;
	return sb_error_set(c->err, -EIO, SB_ERR_ENV, "cycle %llu: %s", (unsigned long long)n, why);
}

static int interrupted(struct cycles *c)
{
	c->out->interrupted = 1;
	return sb_error_set(c->err, -EINTR, SB_ERR_STOPPED, "%s", "");
}

/* The reconnect command until it succeeds: 0, or -1 (the timeout, a stop) */
static int wait_board(struct cycles *c)
{
	const uint64_t until = sb_now_ns() + c->o->reconnect_timeout_ns;
	for (;;) {
		if (sb_spo_shell(c->o->reconnect_cmd, -1, 2) == 0)
			return 0;
		if (sb_now_ns() >= until || stopped(c))
			return -1;
		sleep(1);
	}
}

/* 'arg' for sh, with ' inside closed, escaped and reopened, appended to buf */
void sb_spo_sh_quote(char *buf, size_t len, const char *arg)
{
	size_t n = strlen(buf);
	if (n + 1 < len)
		buf[n++] = '\'';
	for (const char *p = arg; *p && n + 5 < len; p++) {
		if (*p == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *p;
		}
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	buf[n] = 0;
}

/* The check run, its JSON read from its standard output (its text beside
 * it) by the reader of the section; the cycle's record logged. */
static int run_check(struct cycles *c, uint64_t n, const char *jpath, uint64_t cut_after)
{
	const struct sb_spo_cycles_opts *o = c->o;
	char out[4200], txt[4200];
	snprintf(out, sizeof(out), "%s.%llu.check.json", o->log, (unsigned long long)n);
	snprintf(txt, sizeof(txt), "%s.%llu.check.txt", o->log, (unsigned long long)n);
	FILE *inf = fopen(jpath, "re"), *outf = fopen(out, "we");
	const int in = inf ? fileno(inf) : -1, of = outf ? fileno(outf) : -1;
	char cmd[SB_SPO_CMD_LEN + 4300];
	snprintf(cmd, sizeof(cmd), "%s 2>", o->check_cmd);
	sb_spo_sh_quote(cmd, sizeof(cmd), txt);
	const int rc = in < 0 || of < 0 ? -EIO : sb_spo_shell(cmd, in, of);
	struct sb_jdoc *d = NULL;
	struct sb_spo_doc doc = { 0 };
	if (inf)
		fclose(inf);
	if (outf)
		fclose(outf);
	if (rc != 0 && rc != 1)
		return cycle_error(c, n, "the check did not run (exit status not 0 or 1)");
	const int bad = sb_json_parse_file(out, NULL, &d, NULL) ||
			sb_spo_read(sb_jv_get(sb_jv_get(sb_jdoc_root(d), "storbench"), "spo"), &doc,
				    NULL);
	sb_jdoc_free(d);
	if (bad) {
		sb_spo_doc_free(&doc);
		return cycle_error(c, n, "the check's output is not its JSON results");
	}
	struct sb_spo_cycle_rec r;
	struct sb_json j;
	sb_spo_cycle_rec_of(&r, n, o->cycles, wall_ns(), cut_after, rc == 0, &doc.c);
	sb_json_begin(&j, c->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_spo_cycle_json(&j, &r);
	const int e = commit(c, &j);
	if (e) {
		sb_spo_doc_free(&doc);
		return commit_failed(c, e);
	}
	c->out->done = n;
	if (rc) {
		c->out->failed++;
		if (!c->out->first_fail)
			c->out->first_fail = n;
	}
	const struct sb_spo_cycle ev = {
		.n = n, .of = o->cycles, .pass = rc == 0, .cut_after_ns = cut_after, .check = &doc.c
	};
	if (c->h->cycle)
		c->h->cycle(c->h->ctx, &ev);
	sb_spo_doc_free(&doc);
	return 0;
}

/* The writer started, in its own process group, its output the journal */
static int start_writer(struct cycles *c, const char *jpath, pid_t *w)
{
	FILE *jf = fopen(jpath, "we");
	if (!jf)
		return sb_error_set(c->err, -errno, SB_ERR_ENV, "cannot create '%s': %s", jpath,
				    strerror(errno));
	const int e = sb_spo_spawn(c->o->writer_cmd, -1, fileno(jf), 1, w);
	fclose(jf);
	if (e)
		return sb_error_set(c->err, e, SB_ERR_ENV, "cannot start the writer: %s",
				    strerror(-e));
	return 0;
}

/* The cut's delay after the writer's start, in [min, max) */
static uint64_t cut_delay(const struct sb_spo_cycles_opts *o, uint64_t n)
{
	const uint64_t x = sb_now_ns() ^ (n * 0x9e3779b97f4a7c15ull);
	const uint64_t span = o->cut_max_ns - o->cut_min_ns;
	return o->cut_min_ns + (span ? (x * 0xd1b54a32d192ed03ull >> 7) % span : 0);
}

static int one_cycle(struct cycles *c, uint64_t n)
{
	const struct sb_spo_cycles_opts *o = c->o;
	char jpath[4200];
	pid_t w;
	int st = 0;

	snprintf(jpath, sizeof(jpath), "%s.%llu.journal", o->log, (unsigned long long)n);
	int e = start_writer(c, jpath, &w);
	if (e)
		return e;
	const uint64_t delay = cut_delay(o, n);
	const uint64_t t0 = sb_now_ns();
	int ended = 0;
	while (!ended && sb_now_ns() < t0 + delay && !stopped(c)) {
		ended = reaped(w, &st);
		usleep(20000);
	}
	if (stopped(c) || ended) {
		if (!ended)
			kill(-w, SIGKILL), waitpid(w, &st, 0);
		return stopped(c) ? interrupted(c)
				  : cycle_error(c, n, "the writer stopped before the cut");
	}
	if (c->h->cut)
		c->h->cut(c->h->ctx, (int)w);
	/* the writer (or the ssh carrying it) ends with the board */
	const uint64_t grace = sb_now_ns() + WRITER_GRACE_NS;
	while (!reaped(w, &st)) {
		if (sb_now_ns() > grace) {
			kill(-w, SIGKILL);
			waitpid(w, &st, 0);
			break;
		}
		usleep(20000);
	}
	group_gone(w);
	if (wait_board(c))
		return stopped(c) ? interrupted(c)
				  : cycle_error(c, n,
						"the board did not come back "
						"(--reconnect-cmd kept failing)");
	return run_check(c, n, jpath, delay);
}

int sb_spo_cycles_run(const struct sb_spo_cycles_opts *o, const struct sb_spo_cycles_hooks *h,
		      struct sb_coord *coord, struct sb_spo_cycles_result *out,
		      struct sb_error *err)
{
	static const struct sb_spo_cycles_hooks none;
	struct sb_error quiet;
	struct cycles c = { .o = o, .h = h ? h : &none, .out = out, .err = err ? err : &quiet };
	(void)coord;
	memset(c.err, 0, sizeof(*c.err));
	memset(out, 0, sizeof(*out));
	if (!o->log || !o->target || !o->writer_cmd || !o->check_cmd || !o->reconnect_cmd ||
	    !o->cycles || o->cut_max_ns < o->cut_min_ns)
		return sb_error_set(c.err, -EINVAL, SB_ERR_INPUT,
				    "spo cycles: needs a log, a target, the writer's, the "
				    "check's and the reconnect command, cycles and a cut's time");
	int e = open_log(&c);
	if (e) {
		if (c.log)
			fclose(c.log);
		memset(out, 0, sizeof(*out)); /* no cycle ran */
		return e;
	}
	if (c.h->started)
		c.h->started(c.h->ctx);
	for (uint64_t n = out->done + 1; !e && n <= o->cycles; n++)
		e = one_cycle(&c, n);
	fclose(c.log);
	return e;
}

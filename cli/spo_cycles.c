/*
 * storbench spo --cycles: the controlling host's loop. Each cycle starts
 * the writer on the board (through --remote, or here), cuts the power
 * after a random time in --cut-after (--cut-cmd), waits for the board
 * (--reconnect-cmd until it succeeds), runs the check there with the
 * journal on its standard input, and appends one record to the JSON Lines
 * log (--log), flushed and fsync'd: a crash of this host loses at most the
 * cycle in progress, and the same command line resumes after the last
 * complete record. The verdict: the first failing cycle of N.
 */
#include "cli/spo_cmd.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CMD_LEN 8192
#define DEFAULT_CUT_MIN 5000000000ull
#define DEFAULT_CUT_MAX 30000000000ull
#define WRITER_GRACE_NS 30000000000ull

struct cycles {
	struct spo_opts *o;
	const char *target;
	char writer[CMD_LEN], check[CMD_LEN];
	FILE *log;
	uint64_t done;	     /* complete cycles in the log */
	uint64_t first_fail; /* 0: none */
	uint64_t failed;
};

/* 'arg' for sh, with ' inside closed, escaped and reopened */
static void quote(char *buf, size_t len, const char *arg)
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

/* " '--NAME=VUNIT'" */
static void add(char *buf, size_t len, const char *name, unsigned long long v, const char *unit)
{
	char a[96];
	snprintf(a, sizeof(a), "--%s=%llu%s", name, v, unit);
	strncat(buf, " ", len - strlen(buf) - 1);
	quote(buf, len, a);
}

/* The writer's and the check's command lines, from the options given. */
static int build(struct cycles *c)
{
	const struct spo_opts *o = c->o;
	char self[4096] = "storbench", inner[CMD_LEN];

	if (!o->remote) {
		const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			return sb_err("--cycles: cannot find this program: %s", strerror(errno)),
			       -1;
		self[n] = 0;
	}
	for (int check = 0; check < 2; check++) {
		inner[0] = 0;
		quote(inner, sizeof(inner), self);
		strncat(inner,
			check ? " spo --check --journal=- --format=json"
			      : " spo --destroy-data --quiet --journal=-",
			sizeof(inner) - strlen(inner) - 1);
		if (check) {
			if (o->allow_torn)
				add(inner, sizeof(inner), "allow-torn", o->allow_torn, "");
		} else {
			add(inner, sizeof(inner), "bs", o->bs, "");
			add(inner, sizeof(inner), "iodepth", o->iodepth, "");
			strncat(inner,
				o->rw == SB_SPO_RANDWRITE  ? " --rw=randwrite"
				: o->rw == SB_SPO_SEQWRITE ? " --rw=write"
							   : " --rw=mixed",
				sizeof(inner) - strlen(inner) - 1);
			strncat(inner, " --sync=", sizeof(inner) - strlen(inner) - 1);
			strncat(inner, sb_spo_sync_name(o->sync),
				sizeof(inner) - strlen(inner) - 1);
			if (o->flush_writes_given)
				add(inner, sizeof(inner), "flush-every", o->flush_writes, "");
			if (o->flush_ns_given)
				add(inner, sizeof(inner), "flush-interval", o->flush_ns, "ns");
			add(inner, sizeof(inner), "canary", o->canary, "");
			add(inner, sizeof(inner), "offset", o->offset, "");
			if (o->size_given)
				add(inner, sizeof(inner), "size", o->size, "");
		}
		strncat(inner, " ", sizeof(inner) - strlen(inner) - 1);
		quote(inner, sizeof(inner), c->target);
		char *out = check ? c->check : c->writer;
		out[0] = 0;
		if (o->remote) {
			snprintf(out, CMD_LEN, "%s ", o->remote);
			quote(out, CMD_LEN, inner); /* the remote shell gets one argument */
		} else {
			snprintf(out, CMD_LEN, "%s", inner);
		}
		if (strlen(out) >= CMD_LEN - 8)
			return sb_err("--cycles: the command line is too long"), -1;
	}
	return 0;
}

static int commit(struct cycles *c, struct sb_json *j)
{
	sb_json_obj_close(j); /* the compact writer ends the line */
	int e = sb_json_end(j);
	if (!e && fsync(fileno(c->log)) < 0)
		e = -errno;
	if (e)
		sb_err("--log: cannot write: %s", strerror(-e));
	return e;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The log: a new one gets its header; an existing one is read for the
 * cycles done (a torn last line cut off) and must be of this target. */
static int open_log(struct cycles *c)
{
	struct sb_json j;
	FILE *f = fopen(c->o->log, "r");
	char *line = NULL;
	size_t cap = 0, good = 0;
	ssize_t n;
	int header = 0;

	if (f) {
		while ((n = getline(&line, &cap, f)) > 0 && line[n - 1] == '\n') {
			struct sb_jdoc *d = NULL;
			if (sb_json_parse(line, (size_t)n, NULL, &d, NULL)) {
				sb_jdoc_free(d);
				break;
			}
			const struct sb_jv *r = sb_jdoc_root(d);
			const char *t = sb_jv_str(sb_jv_get(r, "target"));
			uint64_t cyc;
			if (!header && t && !strcmp(t, c->target)) {
				header = 1;
			} else if (header && !sb_jv_u64(sb_jv_get(r, "cycle"), &cyc) &&
				   cyc == c->done + 1 && sb_jv_get(r, "pass")) {
				c->done = cyc;
				if (!sb_jv_bool(sb_jv_get(r, "pass"), 0)) {
					c->failed++;
					if (!c->first_fail)
						c->first_fail = cyc;
				}
			} else if (!header) {
				sb_jdoc_free(d);
				break;
			}
			sb_jdoc_free(d);
			good += (size_t)n;
		}
		free(line);
		fclose(f);
		if (!header)
			return sb_err("--log: '%s' exists and is not a cycles log of '%s'",
				      c->o->log, c->target),
			       SB_EXIT_USAGE;
		if (truncate(c->o->log, (off_t)good) < 0)
			return sb_err("--log: %s", strerror(errno)), SB_EXIT_ENV;
	}
	c->log = fopen(c->o->log, "a");
	if (!c->log)
		return sb_err("--log: cannot open '%s': %s", c->o->log, strerror(errno)),
		       SB_EXIT_ENV;
	if (header) {
		sb_note("resuming '%s' after cycle %llu", c->o->log, (unsigned long long)c->done);
		return 0;
	}
	sb_json_begin(&j, c->log, 1);
	sb_json_obj_open(&j, NULL);
	/* also a log's configuration line, as soak's, for storbench report */
	sb_json_str(&j, "type", "config");
	sb_json_str(&j, "command", "spo-cycles");
	sb_json_u64(&j, "log_version", 1);
	sb_json_str(&j, "storbench", sb_version());
	sb_json_u64(&j, "spo_cycles", 1);
	sb_json_str(&j, "target", c->target);
	sb_json_u64(&j, "cycles", c->o->cycles);
	sb_json_u64(&j, "bs", c->o->bs);
	sb_json_str(&j, "writer", c->writer);
	sb_json_str(&j, "check", c->check);
	sb_json_str(&j, "cut_cmd", c->o->cut_cmd);
	sb_json_u64(&j, "cut_min_ns", c->o->cut_min_ns);
	sb_json_u64(&j, "cut_max_ns", c->o->cut_max_ns);
	sb_json_u64(&j, "started_unix_ns", wall_ns());
	return commit(c, &j) ? SB_EXIT_ENV : 0;
}

static pid_t spawn(const char *cmd, int out_fd)
{
	const pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0); /* its own group: a fake cut can kill it whole */
		dup2(out_fd, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
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

/* One cycle's error: logged, and the loop stops. */
static int cycle_error(struct cycles *c, uint64_t n, const char *why)
{
	struct sb_json j;
	sb_json_begin(&j, c->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_json_u64(&j, "cycle_error", n);
	sb_json_str(&j, "error", why);
	commit(c, &j);
	sb_err("cycle %llu: %s", (unsigned long long)n, why);
	return SB_EXIT_ENV;
}

static void record_check(struct sb_json *j, const struct sb_jv *spo)
{
	const struct sb_jv *cls = sb_jv_get(spo, "classes");
	const struct sb_jv *lost = sb_jv_get(spo, "lost_acked");
	const struct sb_jv *jn = sb_jv_get(spo, "journal");
	uint64_t v;

	if (!sb_jv_u64(sb_jv_get(jn, "writes"), &v))
		sb_json_u64(j, "writes", v);
	if (!sb_jv_u64(sb_jv_get(jn, "acknowledged"), &v))
		sb_json_u64(j, "acknowledged", v);
	sb_json_obj_open(j, "classes");
	for (int i = 0; i < SB_SPO_NCLASS; i++)
		if (!sb_jv_u64(sb_jv_get(cls, sb_spo_class_name(i)), &v))
			sb_json_u64(j, sb_spo_class_name(i), v);
	sb_json_obj_close(j);
	/* every lost write's bucket, where the list below keeps 100 */
	const struct sb_jv *h = sb_jv_get(spo, "ack_to_cut_histogram");
	sb_json_arr_open(j, "ack_to_cut_histogram");
	for (size_t i = 0; i < sb_jv_len(h) && i < SB_SPO_HIST_N; i++)
		sb_json_u64(j, NULL, sb_jv_u64(sb_jv_get(sb_jv_at(h, i), "count"), &v) ? 0 : v);
	sb_json_arr_close(j);
	sb_json_arr_open(j, "lost_ack_to_cut_ns");
	for (size_t i = 0; i < sb_jv_len(lost) && i < 100; i++)
		if (!sb_jv_u64(sb_jv_get(sb_jv_at(lost, i), "ack_to_cut_ns"), &v))
			sb_json_u64(j, NULL, v);
	sb_json_arr_close(j);
}

static int wait_board(struct cycles *c)
{
	const uint64_t until = sb_now_ns() + c->o->reconnect_timeout_ns;
	for (;;) {
		if (spo_shell(c->o->reconnect_cmd, -1, 2) == 0)
			return 0;
		if (sb_now_ns() >= until || cli_interrupted())
			return -1;
		sleep(1);
	}
}

/* The check, its JSON read from its standard output. */
static int run_check(struct cycles *c, uint64_t n, const char *jpath, uint64_t cut_after)
{
	char out[4200], txt[4200];
	snprintf(out, sizeof(out), "%s.%llu.check.json", c->o->log, (unsigned long long)n);
	snprintf(txt, sizeof(txt), "%s.%llu.check.txt", c->o->log, (unsigned long long)n);
	FILE *inf = fopen(jpath, "re"), *outf = fopen(out, "we");
	const int in = inf ? fileno(inf) : -1, of = outf ? fileno(outf) : -1;
	char cmd[CMD_LEN + 4300];
	/* its text goes next to its JSON */
	snprintf(cmd, sizeof(cmd), "%s 2>", c->check);
	quote(cmd, sizeof(cmd), txt);
	const int rc = in < 0 || of < 0 ? -EIO : spo_shell(cmd, in, of);
	struct sb_jdoc *d = NULL;
	if (inf)
		fclose(inf);
	if (outf)
		fclose(outf);
	if (rc != 0 && rc != 1)
		return cycle_error(c, n, "the check did not run (exit status not 0 or 1)");
	if (sb_json_parse_file(out, NULL, &d, NULL)) {
		sb_jdoc_free(d);
		return cycle_error(c, n, "the check's output is not its JSON results");
	}
	const struct sb_jv *spo = sb_jv_get(sb_jv_get(sb_jdoc_root(d), "storbench"), "spo");
	struct sb_json j;
	sb_json_begin(&j, c->log, 1);
	sb_json_obj_open(&j, NULL);
	sb_json_u64(&j, "cycle", n);
	sb_json_u64(&j, "of", c->o->cycles); /* a resumed log may ask for more */
	sb_json_u64(&j, "unix_ns", wall_ns());
	sb_json_u64(&j, "cut_after_ns", cut_after);
	sb_json_bool(&j, "pass", rc == 0);
	record_check(&j, spo);
	sb_jdoc_free(d);
	if (commit(c, &j))
		return SB_EXIT_ENV;
	if (rc) {
		c->failed++;
		if (!c->first_fail)
			c->first_fail = n;
	}
	if (!c->o->quiet)
		fprintf(stderr, "spo cycle %llu of %llu: %s\n", (unsigned long long)n,
			(unsigned long long)c->o->cycles, rc ? "FAIL" : "pass");
	return 0;
}

static int one_cycle(struct cycles *c, uint64_t n)
{
	const struct spo_opts *o = c->o;
	char jpath[4200];
	int st = 0;

	snprintf(jpath, sizeof(jpath), "%s.%llu.journal", o->log, (unsigned long long)n);
	FILE *jf = fopen(jpath, "we");
	if (!jf)
		return sb_err("cannot create '%s': %s", jpath, strerror(errno)), SB_EXIT_ENV;
	const pid_t w = spawn(c->writer, fileno(jf));
	fclose(jf);
	if (w < 0)
		return sb_err("cannot start the writer: %s", strerror(errno)), SB_EXIT_ENV;
	setpgid(w, w);
	uint64_t x = sb_now_ns() ^ (n * 0x9e3779b97f4a7c15ull);
	const uint64_t span = o->cut_max_ns - o->cut_min_ns;
	const uint64_t delay = o->cut_min_ns + (span ? (x * 0xd1b54a32d192ed03ull >> 7) % span : 0);
	const uint64_t t0 = sb_now_ns();
	int ended = 0;
	while (!ended && sb_now_ns() < t0 + delay && !cli_interrupted()) {
		ended = reaped(w, &st);
		usleep(20000);
	}
	if (cli_interrupted() || ended) {
		if (!ended)
			kill(-w, SIGKILL), waitpid(w, &st, 0);
		return cli_interrupted() ? SB_EXIT_SIGINT
					 : cycle_error(c, n, "the writer stopped before the cut");
	}
	char pg[32];
	snprintf(pg, sizeof(pg), "%d", (int)w);
	setenv("SB_SPO_WRITER_PGID", pg, 1);
	spo_shell(o->cut_cmd, -1, 2);
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
		return cli_interrupted() ? SB_EXIT_SIGINT
					 : cycle_error(c, n,
						       "the board did not come back "
						       "(--reconnect-cmd kept failing)");
	return run_check(c, n, jpath, delay);
}

int spo_cycles(struct spo_opts *o, const char *target)
{
	struct cycles c = { .o = o, .target = target };
	int rc;

	if (!o->cut_max_ns) {
		o->cut_min_ns = DEFAULT_CUT_MIN;
		o->cut_max_ns = DEFAULT_CUT_MAX;
	}
	if (build(&c) || (rc = open_log(&c)))
		return c.log ? (fclose(c.log), SB_EXIT_ENV) : SB_EXIT_USAGE;
	cli_signals_install();
	rc = 0;
	for (uint64_t n = c.done + 1; !rc && n <= o->cycles; n++)
		rc = one_cycle(&c, n);
	fclose(c.log);
	const uint64_t done = rc ? 0 : o->cycles;
	if (rc && !c.first_fail)
		return rc;
	if (c.first_fail)
		printf("spo cycles: first failure at cycle %llu of %llu (%llu failed)\n",
		       (unsigned long long)c.first_fail, (unsigned long long)o->cycles,
		       (unsigned long long)c.failed);
	else
		printf("spo cycles: all %llu cycles passed\n", (unsigned long long)done);
	return rc ? rc : c.first_fail ? SB_EXIT_FAIL : SB_EXIT_OK;
}

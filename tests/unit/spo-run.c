/* needs: none */
/*
 * storbench spo as library calls, without the program, on files in a
 * temporary directory, with hooks that record what they are told.
 *
 * The writer (sb_spo_write_run): it writes until its duration with
 * progress told as the counts grow, and the journal reads back with the
 * writes it counted; a stop ends it interrupted; at the cut the C record
 * is in the journal before the cut hook runs, the hook runs once and the
 * writer is stopped, the note said; a bad option is refused before
 * anything is written; the journal it makes itself is never one that
 * exists, nor the target.
 *
 * The check (sb_spo_check_run): the journal is read before the target
 * hook opens the target (a torn last line noted first); a clean target
 * passes with the journal's writes; blocks zeroed after the canary are
 * lost-acked; a bad journal is refused by its name without the target
 * opened; the hook's refusal and a device shorter than the region end it.
 *
 * --cycles' command lines (sb_spo_commands), quoted for sh and --remote.
 *
 * The cycles (sb_spo_cycles_run), with a writer that only sleeps, a cut
 * hook that kills its process group (damage simulated on the second cut,
 * as tests/cli/spo-cycles.sh does) and a check that prints the results a
 * real check wrote: the events come in order (started, then a cut and a
 * record per cycle), the result and the log hold the first failure at
 * cycle 2 of 3; the same options resume after cycle 3; a stop kills the
 * writer and ends it interrupted; a writer that ends before the cut is
 * the cycle's error, logged; another file as the log is refused.
 */
#include "tests/lib/sbtest.h"
#include "lib/spo/spo.h"

#include "lib/results/results.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

struct rec {
	unsigned progress, cuts, notes;
	uint64_t last_writes;
	int monotonic;
	uint64_t stop_after; /* writes; 0: never */
	const char *journal;
	int cut_recorded; /* the journal had the C record when the cut came */
	char note[256];
};

static int on_stop(void *ctx)
{
	const struct rec *r = ctx;
	return r->stop_after && __atomic_load_n(&r->last_writes, __ATOMIC_RELAXED) >= r->stop_after;
}

static void on_progress(void *ctx, const struct sb_spo_counts *c)
{
	struct rec *r = ctx;
	if (c->writes < r->last_writes || c->acked > c->writes)
		r->monotonic = 0;
	__atomic_store_n(&r->last_writes, c->writes, __ATOMIC_RELAXED);
	r->progress++;
}

static int on_cut(void *ctx)
{
	struct rec *r = ctx;
	struct sb_spo_journal jn;
	char msg[256];
	r->cuts++;
	if (!sb_spo_journal_read(r->journal, &jn, msg, sizeof(msg)))
		r->cut_recorded = jn.cut_known;
	sb_spo_journal_free(&jn);
	return 7;
}

static void on_note(void *ctx, const char *msg)
{
	struct rec *r = ctx;
	r->notes++;
	snprintf(r->note, sizeof(r->note), "%s", msg);
}

/* A 1 MiB target and a new journal; o set up to write it. */
static void setup(struct sb_spo_opts *o, const char *name, int *fd, int *jfd)
{
	char t[64], j[64];
	snprintf(t, sizeof(t), "%s.img", name);
	snprintf(j, sizeof(j), "%s.journal", name);
	*fd = open(sbt_path(t), O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(*fd >= 0);
	assert_int_equal(ftruncate(*fd, 1 << 20), 0);
	*jfd = open(sbt_path(j), O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(*jfd >= 0);
	memset(o, 0, sizeof(*o));
	o->fd = *fd;
	o->journal_fd = *jfd;
	o->journal_sync = 1;
	o->run_id = 0x5eed;
	o->bs = 4096;
	o->size = 1 << 20;
	o->canary = 64 << 10;
	o->sync = SB_SPO_FDATASYNC;
	o->rw = SB_SPO_RANDWRITE;
	o->iodepth = 2;
	o->flush_writes = 1;
}

static const char *journal_of(const char *name)
{
	static char j[64];
	snprintf(j, sizeof(j), "%s.journal", name);
	return sbt_path(j);
}

static void until_duration(void **state)
{
	struct rec r = { .monotonic = 1 };
	struct sb_spo_opts o;
	struct sb_spo_result res;
	struct sb_spo_journal jn;
	struct sb_error err;
	char msg[256];
	int fd, jfd;
	(void)state;
	setup(&o, "dur", &fd, &jfd);
	o.duration_ns = 300000000ull;
	const struct sb_spo_hooks h = { .ctx = &r, .stop = on_stop, .progress = on_progress };
	assert_int_equal(sb_spo_write_run(&o, &h, NULL, &res, &err), 0);
	assert_true(res.started);
	assert_int_equal(res.cut_rc, -1);
	assert_false(res.interrupted);
	assert_true(res.c.writes > 0);
	assert_true(res.c.acked <= res.c.writes);
	assert_true(r.progress > 0);
	assert_true(r.monotonic);
	assert_true(r.last_writes <= res.c.writes);
	assert_int_equal(sb_spo_journal_read(journal_of("dur"), &jn, msg, sizeof(msg)), 0);
	assert_int_equal(jn.nw, res.c.writes);
	assert_int_equal(jn.nacked, res.c.acked);
	assert_true(jn.ended);
	assert_false(jn.cut_known);
	sb_spo_journal_free(&jn);
	close(fd);
	close(jfd);
}

static void stop_interrupts(void **state)
{
	struct rec r = { .monotonic = 1, .stop_after = 20 };
	struct sb_spo_opts o;
	struct sb_spo_result res;
	struct sb_error err;
	int fd, jfd;
	(void)state;
	setup(&o, "stop", &fd, &jfd);
	const struct sb_spo_hooks h = { .ctx = &r, .stop = on_stop, .progress = on_progress };
	assert_int_equal(sb_spo_write_run(&o, &h, NULL, &res, &err),
			 0); /* no duration: until stopped */
	assert_true(res.interrupted);
	assert_true(res.c.writes >= 20);
	close(fd);
	close(jfd);
}

static void cut_once(void **state)
{
	struct rec r = { .monotonic = 1, .journal = journal_of("cut") };
	struct sb_spo_opts o;
	struct sb_spo_result res;
	struct sb_spo_journal jn;
	struct sb_error err;
	char msg[256];
	int fd, jfd;
	(void)state;
	setup(&o, "cut", &fd, &jfd);
	o.cut_min_ns = 100000000ull;
	o.cut_max_ns = 150000000ull;
	const struct sb_spo_hooks h = {
		.ctx = &r, .progress = on_progress, .cut = on_cut, .note = on_note
	};
	assert_int_equal(sb_spo_write_run(&o, &h, NULL, &res, &err), 0);
	assert_int_equal(r.cuts, 1);
	assert_true(r.cut_recorded);
	assert_int_equal(res.cut_rc, 7);
	assert_false(res.interrupted);
	assert_int_equal(r.notes, 1);
	assert_string_equal(r.note, "the cut command returned (status 7) and the writer still "
				    "runs: stopping it");
	assert_int_equal(sb_spo_journal_read(journal_of("cut"), &jn, msg, sizeof(msg)), 0);
	assert_true(jn.cut_known);
	assert_true(jn.t_cut >= o.cut_min_ns && jn.t_cut < 10 * o.cut_max_ns);
	sb_spo_journal_free(&jn);
	close(fd);
	close(jfd);
}

static void refused(void **state)
{
	struct sb_spo_opts o;
	struct sb_spo_result res;
	struct sb_error err;
	struct stat st;
	int fd, jfd;
	(void)state;
	setup(&o, "bad", &fd, &jfd);
	o.bs = 1000; /* not a multiple of 512 */
	assert_int_equal(sb_spo_write_run(&o, NULL, NULL, &res, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_true(err.msg[0]);
	assert_false(res.started);
	assert_int_equal(fstat(jfd, &st), 0);
	assert_int_equal(st.st_size, 0); /* nothing journaled */
	close(fd);
	close(jfd);
}

static void journal_made(void **state)
{
	struct sb_spo_opts o;
	struct sb_spo_result res;
	struct sb_error err;
	char j[256];
	int fd, jfd;
	(void)state;
	setup(&o, "made", &fd, &jfd);
	close(jfd);
	o.journal_fd = -1;
	o.duration_ns = 100000000ull;
	snprintf(j, sizeof(j), "%s", sbt_path("made.new"));
	o.journal = j;
	assert_int_equal(sb_spo_write_run(&o, NULL, NULL, &res, &err), 0);
	assert_true(res.started && res.c.writes > 0);
	struct sb_spo_journal jn;
	char msg[256];
	assert_int_equal(sb_spo_journal_read(j, &jn, msg, sizeof(msg)), 0);
	assert_int_equal(jn.nw, res.c.writes);
	sb_spo_journal_free(&jn);
	/* never overwritten */
	assert_int_equal(sb_spo_write_run(&o, NULL, NULL, &res, &err), -EEXIST);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_non_null(strstr(err.msg, "never overwritten"));
	assert_false(res.started);
	/* never the target */
	snprintf(j, sizeof(j), "%s", sbt_path("made.img"));
	o.journal = NULL;
	o.journal_fd = open(j, O_WRONLY | O_APPEND);
	assert_true(o.journal_fd >= 0);
	assert_int_equal(sb_spo_write_run(&o, NULL, NULL, &res, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_non_null(strstr(err.msg, "on the device under test"));
	close(o.journal_fd);
	close(fd);
}

/* ---- the check ---- */

struct crec {
	char seq[16]; /* n: a note, t: the target opened */
	const char *img;
	int refuse, device;
	uint64_t size;
	int fd;
};

static int on_target(void *ctx, struct sb_spo_target *t)
{
	struct crec *r = ctx;
	strncat(r->seq, "t", sizeof(r->seq) - strlen(r->seq) - 1);
	if (r->refuse)
		return r->refuse;
	r->fd = t->fd = sb_spo_open(r->img);
	assert_true(t->fd >= 0);
	t->device = r->device;
	t->size = r->size;
	return 0;
}

static void on_cnote(void *ctx, const char *msg)
{
	struct crec *r = ctx;
	(void)msg;
	strncat(r->seq, "n", sizeof(r->seq) - strlen(r->seq) - 1);
}

/* A run of the writer on NAME.img until its duration, its journal
 * NAME.journal: what it counted. */
static struct sb_spo_counts written(const char *name)
{
	struct sb_spo_opts o;
	struct sb_spo_result res;
	struct sb_error err;
	int fd, jfd;
	setup(&o, name, &fd, &jfd);
	o.duration_ns = 200000000ull;
	assert_int_equal(sb_spo_write_run(&o, NULL, NULL, &res, &err), 0);
	close(fd);
	close(jfd);
	return res.c;
}

static int check(const char *name, struct crec *r, struct sb_spo_check *c, struct sb_error *err)
{
	char img[256], j[256];
	snprintf(img, sizeof(img), "%s", sbt_path(name));
	strncat(img, ".img", sizeof(img) - strlen(img) - 1);
	snprintf(j, sizeof(j), "%s", journal_of(name));
	r->img = img;
	r->fd = -1;
	const struct sb_spo_check_opts o = { .journal = j, .target = img, .max_ranges = 100 };
	const struct sb_spo_check_hooks h = { .ctx = r, .target = on_target, .note = on_cnote };
	const int e = sb_spo_check_run(&o, &h, NULL, c, err);
	if (r->fd >= 0)
		close(r->fd);
	return e;
}

/* NAME.img's blocks after its 64k canary zeroed, to the end of its
 * first MiB: acknowledged writes lost */
static void damage(const char *name)
{
	static const char buf[64 << 10];
	char img[64];
	snprintf(img, sizeof(img), "%s.img", name);
	const int fd = open(sbt_path(img), O_WRONLY);
	assert_true(fd >= 0);
	for (int i = 1; i < 16; i++)
		assert_int_equal(pwrite(fd, buf, sizeof(buf), (off_t)i << 16),
				 (ssize_t)sizeof(buf));
	close(fd);
}

static void check_clean_and_damaged(void **state)
{
	struct crec r = { 0 };
	struct sb_spo_check c;
	struct sb_error err;
	(void)state;
	const struct sb_spo_counts w = written("chk");
	assert_int_equal(check("chk", &r, &c, &err), 0);
	assert_string_equal(r.seq, "t");
	assert_true(c.pass);
	assert_int_equal(c.writes, w.writes);
	assert_int_equal(c.acked, w.acked);
	assert_int_equal(c.canary_blocks, 16); /* 64k of 4k blocks */
	assert_true(c.blocks > c.canary_blocks);
	assert_int_equal(c.count[SB_SPO_LOST_ACKED], 0);
	sb_spo_check_free(&c);

	/* the blocks after the canary zeroed: acknowledged writes lost; a
	 * torn last journal line noted before the target is opened */
	damage("chk");
	const int fd = open(journal_of("chk"), O_WRONLY | O_APPEND);
	assert_int_equal(write(fd, "I 9", 3), 3);
	close(fd);
	memset(&r, 0, sizeof(r));
	assert_int_equal(check("chk", &r, &c, &err), 0);
	assert_string_equal(r.seq, "nt");
	assert_true(c.torn_tail);
	assert_false(c.pass);
	assert_true(c.count[SB_SPO_LOST_ACKED] > 0);
	assert_true(c.nlost > 0);
	sb_spo_check_free(&c);
}

static void check_refused(void **state)
{
	struct crec r = { 0 };
	struct sb_spo_check c;
	struct sb_error err;
	(void)state;
	written("ref");
	/* the target hook's refusal: nothing more said */
	r.refuse = 3;
	assert_int_equal(check("ref", &r, &c, &err), -ECANCELED);
	assert_string_equal(r.seq, "t");
	assert_string_equal(err.msg, "");
	/* a device shorter than the region */
	memset(&r, 0, sizeof(r));
	r.device = 1;
	r.size = 4096;
	assert_int_equal(check("ref", &r, &c, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_non_null(strstr(err.msg, "another target?"));
	/* a journal that is not one: the target never opened */
	int fd = open(journal_of("bad2"), O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_int_equal(write(fd, "garbage\n", 8), 8);
	close(fd);
	memset(&r, 0, sizeof(r));
	assert_int_equal(check("bad2", &r, &c, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_string_equal(r.seq, "");
	assert_memory_equal(err.msg, journal_of("bad2"), strlen(journal_of("bad2")));
}

/* ---- the cycles ---- */

struct yrec {
	char seq[64]; /* s: started, c: a cut, y: a cycle, n: a note */
	unsigned cuts;
	uint64_t n[8];
	int pass[8];
	unsigned ncycles;
	uint64_t stop_after; /* cycles told; 0: never */
	int pgid_ok;
	char note[512];
};

static void y_add(struct yrec *r, const char *c)
{
	strncat(r->seq, c, sizeof(r->seq) - strlen(r->seq) - 1);
}

static int y_stop(void *ctx)
{
	const struct yrec *r = ctx;
	return r->stop_after && r->ncycles >= r->stop_after;
}

static void y_started(void *ctx)
{
	y_add(ctx, "s");
}

/* The cut: the writer's group killed; the second cut also damages (the
 * check then prints a failing result) */
static void y_cut(void *ctx, int pgid)
{
	struct yrec *r = ctx;
	char out[64];
	struct stat sb;
	y_add(r, "c");
	r->pgid_ok = pgid > 0 && kill(-pgid, 0) == 0;
	/* the cut after the writer said its line: a machine loaded enough
	 * (qemu-user, tests in parallel) may not have run the echo within
	 * the 50-100 ms before the cut */
	snprintf(out, sizeof(out), "/proc/%d/fd/1", pgid);
	for (int i = 0; i < 3000 && stat(out, &sb) == 0 && sb.st_size == 0; i++)
		usleep(10000);
	kill(-pgid, SIGKILL);
	if (++r->cuts == 2)
		close(open(sbt_path("damaged"), O_WRONLY | O_CREAT, 0600));
}

static void y_cycle(void *ctx, const struct sb_spo_cycle *cy)
{
	struct yrec *r = ctx;
	y_add(r, "y");
	assert_non_null(cy->check);
	assert_int_equal(cy->pass, !cy->check->count[SB_SPO_LOST_ACKED]);
	if (r->ncycles < 8) {
		r->n[r->ncycles] = cy->n;
		r->pass[r->ncycles] = cy->pass;
	}
	r->ncycles++;
}

static void y_note(void *ctx, const char *msg)
{
	struct yrec *r = ctx;
	y_add(r, "n");
	snprintf(r->note, sizeof(r->note), "%s", msg);
}

/* The results of a check of NAME, as the program writes them, to OUT */
static void check_json(const char *name, const char *out)
{
	struct crec r = { 0 };
	struct sb_spo_check c;
	struct sb_error err;
	assert_int_equal(check(name, &r, &c, &err), 0);
	struct sb_results *res = sb_results_create("spo");
	assert_non_null(res);
	sb_results_spo(res, &c);
	FILE *f = fopen(out, "w");
	assert_non_null(f);
	assert_int_equal(sb_results_write_json(res, f), 0);
	fclose(f);
	sb_results_free(res);
	sb_spo_check_free(&c);
}

static char pass_json[256], fail_json[256], ylog[256], ycheck[1200], ytarget[256];

static int ysetup(void **state)
{
	(void)state;
	written("cyc");
	snprintf(pass_json, sizeof(pass_json), "%s", sbt_path("pass.json"));
	check_json("cyc", pass_json);
	damage("cyc");
	snprintf(fail_json, sizeof(fail_json), "%s", sbt_path("fail.json"));
	check_json("cyc", fail_json);
	snprintf(ylog, sizeof(ylog), "%s", sbt_path("c.log"));
	snprintf(ytarget, sizeof(ytarget), "%s", sbt_path("cyc.img"));
	/* the check: its journal on its standard input; the damaged cycle's
	 * results fail */
	char dmg[256];
	snprintf(dmg, sizeof(dmg), "%s", sbt_path("damaged"));
	snprintf(ycheck, sizeof(ycheck),
		 "cat >/dev/null; if [ -e '%s' ]; then rm '%s'; cat '%s'; exit 1; fi; cat '%s'",
		 dmg, dmg, fail_json, pass_json);
	return 0;
}

static struct sb_spo_cycles_opts yopts(uint64_t cycles)
{
	return (struct sb_spo_cycles_opts){
		.log = ylog,
		.target = ytarget,
		.writer_cmd = "echo storbench-spo-journal; exec sleep 60",
		.check_cmd = ycheck,
		.reconnect_cmd = "true",
		.cut_cmd = "(the hook)",
		.cycles = cycles,
		.bs = 4096,
		.cut_min_ns = 50000000ull,
		.cut_max_ns = 100000000ull,
		.reconnect_timeout_ns = 10000000000ull,
	};
}

static struct sb_spo_cycles_hooks yhooks(struct yrec *r)
{
	return (struct sb_spo_cycles_hooks){ .ctx = r,
					     .stop = y_stop,
					     .started = y_started,
					     .cut = y_cut,
					     .cycle = y_cycle,
					     .note = y_note };
}

static void cycles_first_failure(void **state)
{
	struct yrec r = { 0 };
	struct sb_spo_cycles_result res;
	struct sb_error err;
	(void)state;
	const struct sb_spo_cycles_opts o = yopts(3);
	const struct sb_spo_cycles_hooks h = yhooks(&r);
	assert_int_equal(sb_spo_cycles_run(&o, &h, NULL, &res, &err), 0);
	assert_string_equal(r.seq, "scycycy");
	assert_true(r.pgid_ok);
	assert_int_equal(r.ncycles, 3);
	assert_int_equal(r.n[0], 1);
	assert_int_equal(r.n[2], 3);
	assert_true(r.pass[0] && !r.pass[1] && r.pass[2]);
	assert_int_equal(res.done, 3);
	assert_int_equal(res.resumed, 0);
	assert_int_equal(res.failed, 1);
	assert_int_equal(res.first_fail, 2);
	assert_false(res.interrupted);
	/* the writer's output is the cycle's journal, beside the log */
	char j[300], line[64] = { 0 };
	snprintf(j, sizeof(j), "%s.2.journal", ylog);
	FILE *f = fopen(j, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_string_equal(line, "storbench-spo-journal\n");
	/* the log: its header and a record a cycle */
	f = fopen(ylog, "r");
	assert_non_null(f);
	unsigned lines = 0;
	char rec[4096];
	while (fgets(rec, sizeof(rec), f))
		if (lines++ == 2)
			assert_non_null(strstr(rec, "\"cycle\":2,\"of\":3,"));
	fclose(f);
	assert_int_equal(lines, 4);
	assert_non_null(strstr(rec, "\"pass\":true"));

	/* the same options, one more cycle: resumed after cycle 3 */
	struct yrec r2 = { 0 };
	const struct sb_spo_cycles_opts o2 = yopts(4);
	const struct sb_spo_cycles_hooks h2 = yhooks(&r2);
	assert_int_equal(sb_spo_cycles_run(&o2, &h2, NULL, &res, &err), 0);
	assert_string_equal(r2.seq, "nscy");
	assert_non_null(strstr(r2.note, "after cycle 3"));
	assert_int_equal(r2.n[0], 4);
	assert_int_equal(res.resumed, 3);
	assert_int_equal(res.done, 4);
	assert_int_equal(res.first_fail, 2);
	assert_int_equal(res.failed, 1);
}

static void cycles_stop_and_errors(void **state)
{
	struct yrec r = { .stop_after = 1 };
	struct sb_spo_cycles_result res;
	struct sb_error err;
	(void)state;
	struct sb_spo_cycles_opts o = yopts(3);
	char slog[256], elog[256];
	snprintf(slog, sizeof(slog), "%s", sbt_path("s.log"));
	snprintf(elog, sizeof(elog), "%s", sbt_path("e.log"));
	o.log = slog;
	o.cut_min_ns = o.cut_max_ns = 500000000ull;
	struct sb_spo_cycles_hooks h = yhooks(&r);
	/* stopped while the second cycle's writer runs: killed, no cut */
	assert_int_equal(sb_spo_cycles_run(&o, &h, NULL, &res, &err), -EINTR);
	assert_int_equal(err.cls, SB_ERR_STOPPED);
	assert_true(res.interrupted);
	assert_string_equal(r.seq, "scy");
	assert_int_equal(res.done, 1);

	/* a writer that ends before the cut: the cycle's error, logged */
	struct yrec r2 = { 0 };
	o.log = elog;
	o.writer_cmd = "true";
	h = yhooks(&r2);
	assert_int_equal(sb_spo_cycles_run(&o, &h, NULL, &res, &err), -EIO);
	assert_int_equal(err.cls, SB_ERR_ENV);
	assert_string_equal(err.msg, "cycle 1: the writer stopped before the cut");
	assert_int_equal(res.error_cycle, 1);
	assert_string_equal(r2.seq, "s");
	FILE *f = fopen(o.log, "r");
	char rec[4096], last[4096] = "";
	assert_non_null(f);
	while (fgets(rec, sizeof(rec), f))
		snprintf(last, sizeof(last), "%s", rec);
	fclose(f);
	assert_string_equal(last, "{\"cycle_error\":1,\"error\":\"the writer stopped before the "
				  "cut\"}\n");

	/* another file as the log */
	struct yrec r3 = { 0 };
	o.log = pass_json;
	h = yhooks(&r3);
	assert_int_equal(sb_spo_cycles_run(&o, &h, NULL, &res, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	assert_non_null(strstr(err.msg, "is not a cycles log"));
	assert_string_equal(r3.seq, "");
}

/* --cycles' command lines (sb_spo_commands): the writer's options as
 * given, each quoted for sh; through --remote the whole command one
 * argument of the prefix; a line too long refused. */
static void commands(void **state)
{
	char w[SB_SPO_CMD_LEN], c[SB_SPO_CMD_LEN], big[SB_SPO_CMD_LEN], want[SB_SPO_CMD_LEN];
	struct sb_error err;
	struct sb_spo_cmd_args a = { .self = "/opt/sb",
				     .target = "/dev/it's",
				     .bs = 4096,
				     .iodepth = 4,
				     .rw = SB_SPO_SEQWRITE,
				     .canary = 7,
				     .flush_ns = 5000,
				     .flush_ns_given = 1,
				     .allow_torn = 2 };
	(void)state;
	assert_int_equal(sb_spo_commands(&a, w, c, &err), 0);
	snprintf(want, sizeof(want),
		 "'/opt/sb' spo --destroy-data --quiet --journal=- '--bs=4096' '--iodepth=4' "
		 "--rw=write --sync=%s '--flush-interval=5000ns' '--canary=7' '--offset=0' "
		 "'/dev/it'\\''s'",
		 sb_spo_sync_name(0));
	assert_string_equal(w, want);
	const char *check = "'/opt/sb' spo --check --journal=- --format=json '--allow-torn=2' "
			    "'/dev/it'\\''s'";
	assert_string_equal(c, check);
	a.remote = "ssh box";
	assert_int_equal(sb_spo_commands(&a, w, c, &err), 0);
	snprintf(want, sizeof(want), "ssh box ");
	sb_spo_sh_quote(want, sizeof(want), check); /* the remote shell gets one argument */
	assert_string_equal(c, want);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	a.target = big;
	assert_int_equal(sb_spo_commands(&a, w, c, &err), -E2BIG);
	assert_string_equal(err.msg, "--cycles: the command line is too long");
	assert_int_equal(err.cls, SB_ERR_INPUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(until_duration),
		cmocka_unit_test(stop_interrupts),
		cmocka_unit_test(cut_once),
		cmocka_unit_test(refused),
		cmocka_unit_test(journal_made),
		cmocka_unit_test(check_clean_and_damaged),
		cmocka_unit_test(check_refused),
		cmocka_unit_test(cycles_first_failure),
		cmocka_unit_test(cycles_stop_and_errors),
		cmocka_unit_test(commands),
	};
	return cmocka_run_group_tests(tests, ysetup, NULL);
}

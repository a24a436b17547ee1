/* needs: none */
/*
 * storbench spo's writer as a library call, without the program:
 * sb_spo_write_run on a file in a temporary directory with its journal beside
 * it, and hooks that record what they are told. It writes until its
 * duration with progress told as the counts grow, and the journal reads
 * back with the writes it counted; a stop ends it interrupted; at the cut
 * the C record is in the journal before the cut hook runs, the hook runs
 * once and the writer is stopped, the note said; a bad option is refused
 * before anything is written.
 */
#include "tests/lib/sbtest.h"
#include "lib/spo/spo.h"

#include <fcntl.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(until_duration),
		cmocka_unit_test(stop_interrupts),
		cmocka_unit_test(cut_once),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* needs: none */
/*
 * storbench verify as a library call (lib/verify/verify.h), without the
 * program: sb_verify_run writes and checks a new temporary file and a
 * temporary directory with hooks that record what they are told (the
 * phases begin and end in order, the progress of each grows within the
 * phase, the files made are told); a stop asked during the write ends the
 * run interrupted, with no check; a block flipped between a write and a
 * later check is found corrupted at its offset. The section the run
 * writes reads back through sb_verify_read field by field, and sections
 * with a wrong type, a negative count or a missing key are refused by
 * their key path.
 */
#include "tests/lib/sbtest.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define BS 4096u
#define REQ (64u << 10)
#define SIZE (4u << 20)
#define SEED 4242

/* What the hooks were told. */
struct record {
	char events[16][16]; /* "write+", "write-", "check+", ... */
	unsigned nevents;
	const char *phase; /* the phase running, NULL between */
	unsigned progress[2];
	uint64_t last_done;
	int progress_wrong; /* done fell back, or past the total, or another phase's */
	unsigned created;
	char created_path[512];
	unsigned errors;
	unsigned requests;   /* polls of stop */
	unsigned stop_after; /* ask to stop at this poll of the write (0: never) */
	int stopped;	     /* asked, and asked from then on (a Ctrl-C stays) */
};

static int on_stop(void *ctx)
{
	struct record *r = ctx;
	/* a request takes its time: the progress is told (every 50 ms) */
	const struct timespec nap = { 0, 3000000 };
	nanosleep(&nap, NULL);
	r->requests++;
	if (r->stop_after && r->phase && !strcmp(r->phase, "write") && r->requests >= r->stop_after)
		r->stopped = 1;
	return r->stopped;
}

static void on_progress(void *ctx, const struct sb_verify_progress *p)
{
	struct record *r = ctx;
	if (!r->phase || strcmp(p->phase, r->phase) || p->done < r->last_done ||
	    p->done > p->total || p->total != SIZE || p->ranks != 1 ||
	    p->write != !strcmp(r->phase, "write"))
		r->progress_wrong = 1;
	r->last_done = p->done;
	r->progress[p->write]++;
}

static void on_phase(void *ctx, const char *phase, int begin)
{
	struct record *r = ctx;
	assert_true(r->nevents < 16);
	snprintf(r->events[r->nevents++], 16, "%s%c", phase, begin ? '+' : '-');
	r->phase = begin ? phase : NULL;
	r->last_done = 0;
}

static void on_created(void *ctx, const char *path, int fd)
{
	struct record *r = ctx;
	assert_true(fd >= 0);
	r->created++;
	snprintf(r->created_path, sizeof(r->created_path), "%s", path);
}

static void on_error(void *ctx, const char *msg)
{
	struct record *r = ctx;
	(void)msg;
	r->errors++;
}

static struct sb_verify_hooks hooks_of(struct record *r)
{
	memset(r, 0, sizeof(*r));
	return (struct sb_verify_hooks){ r, on_stop, on_progress, on_phase, on_created, on_error };
}

/* A target resolved as the program resolves it (nothing made yet). */
struct target {
	struct sb_target_info info;
	struct sb_vtarget vt;
	struct sb_verify_opts o;
};

static void resolve(struct target *t, const char *path, int phase, uint64_t size)
{
	char msg[512];
	memset(t, 0, sizeof(*t));
	t->o = (struct sb_verify_opts){
		.path = path,
		.info = &t->info,
		.vt = &t->vt,
		.vto = { .phase = phase,
			 .size = size,
			 .block_size = BS,
			 .seed = SEED,
			 .seed_given = 1,
			 .direct = 0 },
		.ops = sb_engine_find("psync"),
		.phase = phase,
		.block_size = BS,
		.request_size = REQ,
		.iodepth = 2,
		.seed = SEED,
		.generation = 1,
		.max_ranges = 100,
	};
	assert_non_null(t->o.ops);
	assert_int_equal(sb_target_probe(path, &t->info), 0);
	assert_int_equal(sb_vtarget_resolve(&t->vt, path, &t->info, &t->o.vto, msg, sizeof(msg)),
			 0);
}

static void done_with(struct target *t, int remove)
{
	for (unsigned i = 0; remove && i < t->vt.nseg; i++)
		assert_int_equal(sb_vtarget_remove(&t->vt, i), 0);
	sb_vtarget_free(&t->vt);
}

static void expect_events(const struct record *r, const char *const *want, unsigned n)
{
	assert_int_equal(r->nevents, n);
	for (unsigned i = 0; i < n; i++)
		assert_string_equal(r->events[i], want[i]);
}

/* Write and check: the phases in order, the progress of each growing, the
 * blocks all intact, and the results holding both phases as jobs. */
static void both(const char *path, unsigned files)
{
	static const char *const order[] = { "write+", "write-", "check+", "check-" };
	struct target t;
	struct record rec;
	struct sb_verify_result v;
	struct sb_error er;
	const struct sb_verify_hooks h = hooks_of(&rec);

	resolve(&t, path, SB_VPHASE_BOTH, SIZE);
	assert_int_equal(sb_verify_run(&t.o, &h, NULL, &v, &er), 0);
	expect_events(&rec, order, 4);
	assert_false(rec.progress_wrong);
	assert_true(rec.progress[1] > 0 && rec.progress[0] > 0);
	assert_int_equal(rec.created, files);
	assert_int_equal(rec.errors, 0);
	assert_true(v.rep.wrote && v.rep.checked);
	assert_int_equal(v.rep.wr.bytes, SIZE);
	assert_int_equal(v.rep.rd.bytes, SIZE);
	assert_int_equal(v.rep.acc.blocks, SIZE / BS);
	assert_int_equal(v.rep.acc.count[SB_VERIFY_INTACT], SIZE / BS);
	assert_int_equal(sb_verify_acc_bad(&v.rep.acc), 0);
	assert_false(v.interrupted || v.phase_failed || v.stopped || v.lost);
	assert_non_null(v.res);
	assert_int_equal(v.res->njobs, 2);
	assert_string_equal(v.res->jobs[0]->name, "verify write");
	assert_string_equal(v.res->jobs[1]->name, "verify check");
	assert_true(v.res->jobs[0]->rank_end_s >= v.res->jobs[0]->rank_start_s);
	assert_true(v.res->jobs[1]->rank_start_s >= v.res->jobs[0]->rank_end_s);
	assert_int_equal(v.res->target_created, 1);
	assert_false(v.res->interrupted);
	sb_verify_result_free(&v);
	done_with(&t, 1);
}

static void test_file(void **state)
{
	(void)state;
	both(sbt_path("run.dat"), 1);
	assert_int_equal(access(sbt_path("run.dat"), F_OK), -1); /* removed by the caller */
}

static void test_dir(void **state)
{
	const char *dir = sbt_path("dir");
	(void)state;
	sbt_mkdirs(dir);
	both(dir, 1);
}

/* A stop asked in the write: the result is interrupted, nothing checked. */
static void test_stop(void **state)
{
	static const char *const order[] = { "write+", "write-" };
	struct target t;
	struct record rec;
	struct sb_verify_result v;
	struct sb_error er;
	const struct sb_verify_hooks h = hooks_of(&rec);
	(void)state;

	rec.stop_after = 5;
	resolve(&t, sbt_path("stop.dat"), SB_VPHASE_BOTH, SIZE);
	assert_int_equal(sb_verify_run(&t.o, &h, NULL, &v, &er), 0);
	expect_events(&rec, order, 2);
	assert_true(v.interrupted);
	assert_true(v.res->interrupted);
	assert_true(v.rep.wr.interrupted);
	assert_true(v.rep.wr.bytes < SIZE);
	assert_false(v.rep.checked);
	assert_int_equal(v.res->njobs, 1);
	assert_true(v.res->jobs[0]->interrupted);
	sb_verify_result_free(&v);
	done_with(&t, 1);
}

/* One block changed between the write and a later check: found corrupted
 * at its offset, and only it. */
static void test_flip(void **state)
{
	const char *path = sbt_path("flip.dat");
	struct target t;
	struct record rec;
	struct sb_verify_result v;
	struct sb_error er;
	const struct sb_verify_hooks h = hooks_of(&rec);
	unsigned char junk[64];
	(void)state;

	resolve(&t, path, SB_VPHASE_WRITE, SIZE);
	assert_int_equal(sb_verify_run(&t.o, &h, NULL, &v, &er), 0);
	assert_true(v.rep.wrote && !v.rep.checked);
	sb_verify_result_free(&v);
	done_with(&t, 0);

	const int fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	memset(junk, 0x5a, sizeof(junk));
	assert_int_equal(pwrite(fd, junk, sizeof(junk), 37 * BS + 100), (ssize_t)sizeof(junk));
	close(fd);

	resolve(&t, path, SB_VPHASE_CHECK, 0);
	assert_int_equal(sb_verify_run(&t.o, &h, NULL, &v, &er), 0);
	assert_int_equal(v.rep.acc.blocks, SIZE / BS);
	assert_int_equal(v.rep.acc.count[SB_VERIFY_CORRUPTED], 1);
	assert_int_equal(sb_verify_acc_bad(&v.rep.acc), 1);
	assert_int_equal(v.rep.acc.nranges, 1);
	assert_int_equal(v.rep.acc.ranges[0].cls, SB_VERIFY_CORRUPTED);
	assert_int_equal(v.rep.acc.ranges[0].offset, 37 * BS);
	assert_int_equal(v.rep.acc.ranges[0].length, BS);
	sb_verify_result_free(&v);
	done_with(&t, 0);
	unlink(path);
}

/* What cannot run is refused before anything is made. */
static void test_refused(void **state)
{
	struct target t;
	struct record rec;
	struct sb_verify_result v;
	struct sb_error er;
	const struct sb_verify_hooks h = hooks_of(&rec);
	(void)state;

	resolve(&t, sbt_path("refused.dat"), SB_VPHASE_BOTH, SIZE);
	t.o.request_size = BS + 512; /* not whole blocks */
	assert_int_equal(sb_verify_run(&t.o, &h, NULL, &v, &er), -EINVAL);
	assert_int_equal(er.cls, SB_ERR_INPUT);
	assert_int_equal(rec.errors, 1);
	assert_int_equal(rec.nevents, 0);
	assert_int_equal(access(sbt_path("refused.dat"), F_OK), -1);
	sb_verify_result_free(&v);
	done_with(&t, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file),	cmocka_unit_test(test_dir),
		cmocka_unit_test(test_stop),	cmocka_unit_test(test_flip),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* needs: none */
/*
 * storbench verify as a library call (lib/verify/verify.h), without the
 * program: sb_verify_run writes and checks a new temporary file and a
 * temporary directory with hooks that record what they are told (the
 * phases begin and end in order, the progress of each grows within the
 * phase, the files made are told); a stop asked during the write ends the
 * run interrupted, with no check; a block flipped between a write and a
 * later check is found corrupted at its offset. The section the run
 * writes reads back through sb_verify_read field by field (and the probe's
 * and run --verify's), a member given twice is the last one's, and
 * sections with a wrong type, a negative count or a missing key are
 * refused by their key path. Under mpirun the phases' times are the
 * gathered jobs' (sb_verify_ranks_times).
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

/* ---- the section read back ---- */

/* fn's section, as the results write it, read back into d (the tree in
 * *tree, freed by the caller). */
static void round_trip(void (*fn)(struct sb_json *, const void *), const void *ctx,
		       struct sb_jdoc **tree, struct sb_verify_doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	struct sb_json j;
	struct sb_error er;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	sb_json_begin(&j, f, 1);
	sb_json_obj_open(&j, NULL);
	fn(&j, ctx);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	fclose(f);
	assert_int_equal(sb_json_parse(buf, len, NULL, tree, NULL), 0);
	free(buf);
	if (sb_verify_read(sb_jdoc_root(*tree), d, &er))
		fail_msg("read back: %s", er.msg);
}

static void same_pass(const struct sb_verify_doc_pass *d, const struct sb_verify_pass_result *p)
{
	assert_int_equal(d->bytes, p->bytes);
	assert_int_equal(d->ns, p->ns);
	assert_int_equal(d->errors, p->errors);
	assert_int_equal(d->first_errno, p->first_error);
	assert_int_equal(d->first_error_offset, p->first_error ? p->first_error_offset : 0);
	assert_int_equal(d->interrupted, p->interrupted);
}

static void same_range(const struct sb_verify_doc_range *d, const struct sb_verify_range *g)
{
	assert_int_equal(d->g.cls, g->cls);
	assert_int_equal(d->g.offset, g->offset);
	assert_int_equal(d->g.length, g->length);
	assert_int_equal(d->g.expected_offset,
			 g->cls == SB_VERIFY_MISPLACED ? g->expected_offset : 0);
	assert_int_equal(d->g.err, g->cls == SB_VERIFY_UNREADABLE ? g->err : 0);
	assert_int_equal(d->file, -1);
}

static void same_counts(const struct sb_verify_doc_blocks *b, uint64_t blocks,
			const uint64_t *count)
{
	assert_int_equal(b->blocks, blocks);
	assert_int_equal(b->classes, (1u << SB_VERIFY_NCLASS) - 1);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		assert_int_equal(b->count[c], count[c]);
}

/* What a run wrote (a check that found a bad block; then the same with
 * ranks and a failed phase) reads back field by field. */
static void test_read_back(void **state)
{
	const char *path = sbt_path("back.dat");
	struct target t;
	struct record rec;
	struct sb_verify_result v;
	struct sb_error er;
	struct sb_jdoc *tree;
	struct sb_verify_doc d;
	const struct sb_verify_hooks h = hooks_of(&rec);
	unsigned char junk[16] = { 0 };
	(void)state;

	resolve(&t, path, SB_VPHASE_BOTH, SIZE);
	t.o.vto.phase = t.o.phase = SB_VPHASE_WRITE;
	assert_int_equal(sb_verify_run(&t.o, &h, NULL, &v, &er), 0);
	sb_verify_result_free(&v);
	done_with(&t, 0);
	const int fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, junk, sizeof(junk), 9 * BS), (ssize_t)sizeof(junk));
	close(fd);
	resolve(&t, path, SB_VPHASE_CHECK, 0);
	t.o.seed = 0; /* read from the data */
	t.o.vto.seed_given = 0;
	sb_vtarget_free(&t.vt);
	char msg[256];
	assert_int_equal(sb_vtarget_resolve(&t.vt, path, &t.info, &t.o.vto, msg, sizeof(msg)), 0);
	t.o.seed = t.o.vto.seed;
	assert_int_equal(sb_verify_run(&t.o, &h, NULL, &v, &er), 0);
	const struct sb_verify_report *r = &v.rep;
	assert_int_equal(r->acc.nranges, 1);

	round_trip(sb_verify_json, r, &tree, &d);
	assert_int_equal(d.kind, SB_VDOC_VERIFY);
	assert_int_equal(d.phase, SB_VPHASE_CHECK);
	assert_int_equal(d.offset, r->t->offset);
	assert_int_equal(d.size, r->t->size);
	assert_int_equal(d.block_size, BS);
	assert_int_equal(d.seed, SEED);
	assert_int_equal(d.seed_from_data, 1);
	assert_int_equal(d.generation, 1);
	assert_string_equal(d.engine, "psync");
	assert_int_equal(d.request_size, REQ);
	assert_int_equal(d.iodepth, 2);
	assert_int_equal(d.direct, r->t->direct);
	assert_false(d.wrote);
	assert_true(d.checked);
	same_pass(&d.rd, &r->rd);
	assert_true(d.has_blocks);
	same_counts(&d.b, r->acc.blocks, r->acc.count);
	assert_int_equal(d.b.nranges, 1);
	same_range(&d.b.ranges[0], &r->acc.ranges[0]);
	assert_int_equal(d.b.omitted, 0);
	assert_string_equal(d.result, "fail");
	assert_int_equal(d.nranks, 0);
	assert_int_equal(sb_verify_doc_bad(&d.b), 1);
	sb_verify_doc_free(&d);
	sb_jdoc_free(tree);

	/* many ranks (rank 0's view), a write that stopped */
	struct sb_verify_report many = *r;
	struct sb_verify_rank parts[2];
	memset(parts, 0, sizeof(parts));
	for (int k = 0; k < 2; k++) {
		parts[k].rank = k;
		snprintf(parts[k].host, sizeof(parts[k].host), "node-%d", k);
		snprintf(parts[k].path, sizeof(parts[k].path), "/d/storbench-rank-%d", k);
		parts[k].bytes_written = 1000 + k;
		parts[k].blocks = 256;
		parts[k].count[SB_VERIFY_INTACT] = 256 - k;
		parts[k].count[SB_VERIFY_STALE] = k;
		parts[k].write_errors = 3 * k;
		parts[k].missing_blocks = 7 * k;
		parts[k].failed = k;
		parts[k].interrupted = !k;
		parts[k].omitted = 11 * k;
	}
	parts[1].nranges = 1;
	parts[1].ranges[0] = (struct sb_verify_range){
		.offset = 8192, .length = 4096, .cls = SB_VERIFY_STALE, .generation = 3
	};
	many.ranks = parts;
	many.nranks = 2;
	many.wrote = 1;
	many.wr = (struct sb_verify_pass_result){ .bytes = 5,
						  .ns = 6,
						  .errors = 1,
						  .first_error_offset = 4096,
						  .first_error = EIO,
						  .interrupted = 1 };
	many.failed = -EIO;
	snprintf(many.failure, sizeof(many.failure), "rank 1 on node-1 failed");
	round_trip(sb_verify_json, &many, &tree, &d);
	assert_true(d.wrote);
	same_pass(&d.wr, &many.wr);
	assert_string_equal(d.checksum, sb_verify_csum_name(many.fmt.csum));
	assert_string_equal(d.error, "rank 1 on node-1 failed");
	assert_string_equal(d.result, "interrupted");
	assert_int_equal(d.nranks, 2);
	for (int k = 0; k < 2; k++) {
		const struct sb_verify_doc_rank *x = &d.ranks[k];
		assert_int_equal(x->rank, k);
		assert_string_equal(x->host, parts[k].host);
		assert_string_equal(x->path, parts[k].path);
		assert_int_equal(x->bytes_written, parts[k].bytes_written);
		assert_int_equal(x->bytes_checked, parts[k].bytes_checked);
		assert_int_equal(x->write_errors, parts[k].write_errors);
		assert_int_equal(x->missing_blocks, parts[k].missing_blocks);
		assert_int_equal(x->failed, parts[k].failed);
		assert_int_equal(x->interrupted, parts[k].interrupted);
		same_counts(&x->b, parts[k].blocks, parts[k].count);
		assert_int_equal(x->b.nranges, parts[k].nranges);
		assert_int_equal(x->b.omitted, parts[k].omitted);
	}
	assert_int_equal(d.ranks[1].b.ranges[0].g.generation, 3);
	same_range(&d.ranks[1].b.ranges[0], &parts[1].ranges[0]);
	sb_verify_doc_free(&d);
	sb_jdoc_free(tree);
	sb_verify_result_free(&v);
	done_with(&t, 0);
	unlink(path);
}

/* The probe's section and run --verify's read back. */
static void test_read_probe_job(void **state)
{
	struct sb_jdoc *tree;
	struct sb_verify_doc d;
	(void)state;

	const struct sb_capacity_report p = {
		.res = { .kind = SB_CAPACITY_LIMBO,
			 .announced_blocks = 1000,
			 .usable_blocks = 600,
			 .wrap_order = 0,
			 .cache_blocks = 8,
			 .blocks_written = 900,
			 .blocks_read = 800,
			 .io_errors = 2 },
		.block_size = 512,
		.seed = 99,
		.ns = 12345,
	};
	round_trip(sb_capacity_json, &p, &tree, &d);
	assert_int_equal(d.kind, SB_VDOC_PROBE);
	assert_false(d.has_blocks);
	assert_string_equal(d.probe.kind, sb_capacity_kind_name(SB_CAPACITY_LIMBO));
	assert_int_equal(d.probe.block_size, 512);
	assert_int_equal(d.probe.announced_bytes, 1000 * 512);
	assert_int_equal(d.probe.usable_bytes, 600 * 512);
	assert_int_equal(d.probe.wrap_bytes, 0);
	assert_int_equal(d.probe.cache_bytes, 8 * 512);
	assert_int_equal(d.probe.blocks_written, 900);
	assert_int_equal(d.probe.blocks_read, 800);
	assert_int_equal(d.probe.io_errors, 2);
	assert_int_equal(d.probe.seed, 99);
	assert_int_equal(d.probe.ns, 12345);
	assert_int_equal(d.probe.has, 0x3ff);
	assert_string_equal(d.result, "fail");
	sb_verify_doc_free(&d);
	sb_jdoc_free(tree);

	struct sb_job_verify jv;
	memset(&jv, 0, sizeof(jv));
	sb_verify_fmt_init(&jv.fmt, 77, 1, 512);
	jv.nacc = 2;
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(sb_verify_acc_init(&jv.acc[i], 512, 4), 0);
		const struct sb_verify_finding ok = { SB_VERIFY_INTACT, 0, 0, 0 };
		const struct sb_verify_finding bad = { .cls = SB_VERIFY_MISPLACED,
						       .expected_offset = 4096 * (i + 1),
						       .generation = 1 };
		sb_verify_acc_add(&jv.acc[i], 0, 10, &ok);
		sb_verify_acc_add(&jv.acc[i], 10 * 512, 1, &bad);
		sb_verify_acc_finish(&jv.acc[i]);
		jv.blocks += jv.acc[i].blocks;
	}
	jv.checked = 1;
	round_trip(sb_job_verify_json, &jv, &tree, &d);
	assert_int_equal(d.kind, SB_VDOC_JOB);
	assert_int_equal(d.block_size, 512);
	assert_int_equal(d.seed, 77);
	assert_int_equal(d.b.blocks, 22);
	assert_int_equal(d.b.count[SB_VERIFY_MISPLACED], 2);
	assert_int_equal(d.b.nranges, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(d.b.ranges[i].file, (int)i);
		assert_int_equal(d.b.ranges[i].g.cls, SB_VERIFY_MISPLACED);
		assert_int_equal(d.b.ranges[i].g.offset, 10 * 512);
		assert_int_equal(d.b.ranges[i].g.length, 512);
		assert_int_equal(d.b.ranges[i].g.expected_offset, 4096 * (i + 1));
		assert_int_equal(d.b.ranges[i].g.generation, 1);
	}
	sb_verify_doc_free(&d);
	sb_jdoc_free(tree);
	for (unsigned i = 0; i < 2; i++)
		sb_verify_acc_free(&jv.acc[i]);
}

/* A member given twice (no writer does): the last one's. */
static void test_read_twice(void **state)
{
	static const char json[] =
		"{\"blocks_checked\": 3, \"bad_ranges\": [{\"offset\": 0, \"length\": 1, "
		"\"class\": \"stale\"}, {\"offset\": 9, \"length\": 1, \"class\": \"stale\"}], "
		"\"ranks\": [{\"rank\": 0}, {\"rank\": 1}], \"bad_ranges\": [{\"offset\": 5, "
		"\"length\": 2, \"class\": \"foreign\"}], \"ranks\": [{\"rank\": 4, "
		"\"bad_ranges\": [], \"bad_ranges\": [{\"offset\": 1, \"length\": 1, "
		"\"class\": \"newer\"}]}]}";
	struct sb_jdoc *tree;
	struct sb_verify_doc d;
	struct sb_error er;
	(void)state;
	assert_int_equal(sb_json_parse(json, strlen(json), NULL, &tree, NULL), 0);
	assert_int_equal(sb_verify_read(sb_jdoc_root(tree), &d, &er), 0);
	assert_int_equal(d.b.nranges, 1);
	assert_int_equal(d.b.ranges[0].g.offset, 5);
	assert_int_equal(d.b.ranges[0].g.cls, SB_VERIFY_FOREIGN);
	assert_int_equal(d.nranks, 1);
	assert_int_equal(d.ranks[0].rank, 4);
	assert_int_equal(d.ranks[0].b.nranges, 1);
	assert_int_equal(d.ranks[0].b.ranges[0].g.cls, SB_VERIFY_NEWER);
	sb_verify_doc_free(&d);
	sb_jdoc_free(tree);
}

/* Sections no storbench writes are refused, naming the key path. */
static void test_read_bad(void **state)
{
	static const struct {
		const char *json, *msg;
	} cases[] = {
		{ "{\"blocks_checked\": 5, \"intact\": -1}",
		  "intact: expected a number from 0 to 1e18, found -1" },
		{ "{\"blocks_checked\": \"5\"}",
		  "blocks_checked: expected a number from 0 to 1e18, found a string" },
		{ "{\"intact\": 1}",
		  "blocks_checked: expected a number from 0 to 1e18, found nothing" },
		{ "{\"blocks_checked\": 1, \"bad_ranges\": {}}",
		  "bad_ranges: expected an array of ranges, found an object" },
		{ "{\"blocks_checked\": 1, \"bad_ranges\": [{\"offset\": 0, \"length\": 1, "
		  "\"class\": \"bogus\"}]}",
		  "bad_ranges[0].class: expected a verify class (intact, corrupted, misplaced, stale, "
		  "foreign, unreadable, newer, missing), found a string" },
		{ "{\"blocks_checked\": 1, \"ranks\": [{\"rank\": 0, \"bad_ranges\": [{\"offset\": 0, "
		  "\"length\": 4096}]}]}",
		  "ranks[0].bad_ranges[0].class: expected a verify class (intact, corrupted, "
		  "misplaced, stale, foreign, unreadable, newer, missing), found nothing" },
		{ "{\"blocks_checked\": 1, \"ranks\": [{\"rank\": 0}, {\"hostname\": \"x\"}]}",
		  "ranks[1]: a rank's entry without its 'rank'" },
		{ "{\"blocks_checked\": 1, \"ranks\": [{\"rank\": -2}]}",
		  "ranks[0].rank: expected a rank number from 0, found -2" },
		{ "{\"blocks_checked\": 1, \"ranks\": [{\"rank\": 1, \"hostname\": 3}]}",
		  "ranks[0].hostname: expected a string, found 3" },
		{ "{\"blocks_checked\": 1, \"ranks\": [{\"rank\": 1, \"corrupted\": -4}]}",
		  "ranks[0].corrupted: expected a number from 0 to 1e18, found -4" },
		{ "{\"blocks_checked\": 1, \"write\": {\"bytes\": 1, \"interrupted\": 1}}",
		  "write.interrupted: expected a boolean, found 1" },
		{ "{\"blocks_checked\": 1, \"check\": {\"bytes\": 1e19}}",
		  "check.bytes: expected a number from 0 to 1e18, found 1e+19" },
		{ "{\"phase\": \"probe\"}",
		  "probe: expected an object of the probe's findings, found nothing" },
		{ "{\"phase\": \"probe\", \"probe\": {\"kind\": 1}}",
		  "probe.kind: expected a string, found 1" },
		{ "[]", "verify: expected an object of verify's results, found an array" },
	};
	(void)state;
	for (size_t i = 0; i < SB_ARRAY_SIZE(cases); i++) {
		struct sb_jdoc *tree;
		struct sb_verify_doc d;
		struct sb_error er;
		assert_int_equal(sb_json_parse(cases[i].json, strlen(cases[i].json), NULL, &tree,
					       NULL),
				 0);
		const int e = sb_verify_read(sb_jdoc_root(tree), &d, &er);
		if (e != -EINVAL || strcmp(er.msg, cases[i].msg))
			fail_msg("case %zu '%s': got %d '%s', expected '%s'", i, cases[i].json, e,
				 er.msg, cases[i].msg);
		assert_int_equal(er.cls, SB_ERR_INPUT);
		sb_verify_doc_free(&d);
		sb_jdoc_free(tree);
	}
}

/* Many ranks: the phases' times are the gathered jobs' (from the earliest
 * start to the latest end), the write's first when it wrote. */
static void test_ranks_times(void **state)
{
	struct sb_verify_result r;
	(void)state;
	memset(&r, 0, sizeof(r));
	sb_verify_ranks_times(&r); /* no results: nothing */
	assert_non_null(r.res = sb_results_create("verify"));
	for (int i = 0; i < 2; i++) {
		struct sb_job_result *j = sb_job_result_create();
		assert_non_null(j);
		j->runtime_ns = 1000u * (uint64_t)(i + 1);
		assert_int_equal(sb_results_add_job(r.res, j), 0);
	}
	r.rep.wrote = 1;
	r.rep.wr.ns = r.rep.rd.ns = 7;
	sb_verify_ranks_times(&r);
	assert_int_equal(r.rep.wr.ns, 1000);
	assert_int_equal(r.rep.rd.ns, 2000);
	r.rep.wrote = 0; /* the check alone: every job is the check's */
	r.rep.wr.ns = 7;
	sb_verify_ranks_times(&r);
	assert_int_equal(r.rep.wr.ns, 7);
	assert_int_equal(r.rep.rd.ns, 2000); /* the last one's, as before */
	sb_verify_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file),	       cmocka_unit_test(test_dir),
		cmocka_unit_test(test_stop),	       cmocka_unit_test(test_flip),
		cmocka_unit_test(test_refused),	       cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_read_probe_job), cmocka_unit_test(test_read_twice),
		cmocka_unit_test(test_read_bad),       cmocka_unit_test(test_ranks_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* needs: none */
/*
 * storbench flash as a library call, without the program: sb_flash_run on
 * an image file in a temporary directory, with hooks that record what they
 * are told. The probes come in their order (--align per block size, then
 * --open-au, --find-fat, --scatter), each begun with its step; a stop ends
 * the sequence where it is, the result marked interrupted; sizes the
 * device cannot take and a failed request are refused in words. The
 * section written reads back (sb_flash_read) as the run filled it, and a
 * section with a wrong type, a negative count or a missing key is refused
 * by key path.
 */
#include "tests/unit/section-json.h"
#include "lib/flash/flash.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#define KIB 1024u
#define MIB (1024ull * 1024)

struct rec {
	char steps[8][48];
	unsigned nsteps;
	uint64_t progress;   /* calls */
	int bad_total;	     /* done above total */
	uint64_t stop_after; /* progress calls in the step stop_in (0: never) */
	unsigned stop_in;    /* 1 + step */
	uint64_t in_step;    /* progress calls in the current step */
};

static int on_stop(void *ctx)
{
	const struct rec *r = ctx;
	return r->stop_after && r->nsteps == r->stop_in && r->in_step >= r->stop_after;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct rec *r = ctx;
	r->progress++;
	r->in_step++;
	r->bad_total |= done > total;
	assert_true(r->nsteps > 0); /* only inside a step */
}

static void on_step(void *ctx, const char *what)
{
	struct rec *r = ctx;
	assert_true(r->nsteps < 8);
	snprintf(r->steps[r->nsteps++], sizeof(r->steps[0]), "%s", what);
	r->in_step = 0;
}

struct image {
	struct sb_flash_dev dev;
	struct sb_flash_opts o;
	char path[4096];
};

/* A file of size bytes (random data), open for the probes. */
static void image(struct image *x, const char *name, uint64_t size, int flags)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->path, sizeof(x->path), "%s", sbt_path(name));
	FILE *f = fopen(x->path, "w");
	assert_non_null(f);
	for (uint64_t i = 0; i < size; i += 8)
		fwrite(&i, sizeof(i), 1, f);
	assert_int_equal(fclose(f), 0);
	int fd = open(x->path, flags | O_DIRECT);
	if (fd < 0)
		fd = open(x->path, flags); /* no O_DIRECT here */
	assert_true(fd >= 0);
	x->dev = (struct sb_flash_dev){ fd, size, 512 };
	x->o = (struct sb_flash_opts){ .dev = &x->dev,
				       .path = x->path,
				       .count = 2,
				       .erase = 64 * KIB,
				       .offset_set = 1,
				       .max_au = 2,
				       .orders = 3,
				       .fat_nr = 3,
				       .sc_order = 6,
				       .sc_span = 1 };
}

static int run(struct image *x, struct rec *rec, struct sb_flash_result *r, struct sb_error *err)
{
	const struct sb_flash_hooks h = { on_stop, on_progress, rec, on_step };
	memset(err, 0, sizeof(*err));
	return sb_flash_run(&x->o, &h, NULL, r, err);
}

static struct sb_flash_result res;

static void probes_in_order(void **state)
{
	struct image *x = calloc(1, sizeof(*x));
	struct rec rec = { 0 };
	struct sb_error err;
	(void)state;
	image(x, "all.img", 8 * MIB, O_RDWR);
	x->o.align = x->o.open_au = x->o.find_fat = x->o.scatter = 1;
	x->o.bs[0] = 4 * KIB;
	x->o.bs[1] = 8 * KIB;
	x->o.nbs = 2;
	assert_int_equal(run(x, &rec, &res, &err), 0);
	assert_int_equal(rec.nsteps, 5);
	assert_string_equal(rec.steps[0], "align, bs 4.00 KiB");
	assert_string_equal(rec.steps[1], "align, bs 8.00 KiB");
	assert_string_equal(rec.steps[2], "open-au");
	assert_string_equal(rec.steps[3], "find-fat");
	assert_string_equal(rec.steps[4], "scatter");
	assert_true(rec.progress > 5);
	assert_false(rec.bad_total);
	/* what ran */
	assert_false(res.interrupted);
	assert_true(res.align && res.open_au && res.find_fat && res.scatter);
	assert_int_equal(res.nprofiles, 2);
	assert_int_equal(res.profiles[0].bs, 4 * KIB);
	assert_int_equal(res.profiles[0].maxalign, 1 * MIB); /* 8 x it within the file */
	assert_int_equal(res.profiles[0].nrows, 8);	     /* 1 MiB .. 8 KiB */
	assert_int_equal(res.count, 2);
	assert_true(res.priority[0]);
	assert_int_equal(res.au.p.erase, 64 * KIB);
	assert_int_equal(res.au.p.bs, 4 * KIB);
	assert_int_equal(res.au.p.offset, 0);
	assert_true(res.au.nruns >= 2);
	assert_int_equal(res.fat.nblocks, 3);
	assert_int_equal(res.fat.erase, 64 * KIB);
	assert_int_equal(res.sc.n, 64);
	for (uint32_t i = 0; i < res.sc.n; i++)
		assert_true(isfinite(res.sc.ns[i]));
	close(x->dev.fd);
	free(x);
}

static void stop_ends_the_sequence(void **state)
{
	struct image *x = calloc(1, sizeof(*x));
	struct rec rec = { .stop_after = 3, .stop_in = 2 }; /* in --open-au */
	struct sb_flash_result *r = calloc(1, sizeof(*r));
	struct sb_error err;
	(void)state;
	image(x, "stop.img", 8 * MIB, O_RDWR);
	x->o.align = x->o.open_au = x->o.scatter = 1;
	x->o.bs[0] = 4 * KIB;
	x->o.nbs = 1;
	assert_int_equal(run(x, &rec, r, &err), 0);
	assert_true(r->interrupted);
	assert_int_equal(rec.nsteps, 2); /* no scatter after the stop */
	assert_string_equal(rec.steps[1], "open-au");
	assert_true(r->open_au && !r->scatter);
	assert_int_equal(r->nprofiles, 1);
	assert_false(r->align_partial);
	/* a stop in --align: the profile cut short decides nothing */
	struct rec rec2 = { .stop_after = 2, .stop_in = 1 };
	assert_int_equal(run(x, &rec2, r, &err), 0);
	assert_true(r->interrupted && r->align_partial);
	assert_int_equal(r->decisions[0].erase, -1);
	assert_int_equal(r->erase_from, -1);
	assert_int_equal(rec2.nsteps, 1);
	sb_flash_result_free(r);
	close(x->dev.fd);
	free(r);
	free(x);
}

static void refusals(void **state)
{
	struct image *x = calloc(1, sizeof(*x));
	struct sb_flash_result *r = calloc(1, sizeof(*r));
	struct rec rec = { 0 };
	struct sb_error err;
	char want[8192];
	(void)state;
	image(x, "small.img", 1 * MIB, O_RDONLY);
	x->o.align = 1;
	x->o.bs[0] = 64 * KIB;
	x->o.nbs = 1;
	assert_int_equal(run(x, &rec, r, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	snprintf(want, sizeof(want),
		 "'%s' is too small: 1.00 MiB holds fewer than 32 blocks of 64.0 KiB (--bs)",
		 x->path);
	assert_string_equal(err.msg, want);
	assert_int_equal(rec.nsteps, 0);
	/* the AU and the offset named each as itself */
	x->o.align = 0;
	x->o.open_au = 1;
	x->o.erase = 0;
	x->o.offset_set = 0;
	x->o.bs[0] = 8 * KIB;
	assert_int_equal(run(x, &rec, r, &err), -EINVAL);
	snprintf(want, sizeof(want),
		 "'%s' is too small: 1.00 MiB holds no allocation unit of 4.00 MiB after "
		 "--offset 16.0 MiB",
		 x->path);
	assert_string_equal(err.msg, want);
	/* a write that fails (the file open to read) */
	x->o.erase = 64 * KIB;
	x->o.offset_set = 1;
	assert_int_equal(run(x, &rec, r, &err), -EBADF);
	assert_int_equal(err.cls, SB_ERR_ENV);
	snprintf(want, sizeof(want), "write error at offset 0 (0 B) of '%s': %s", x->path,
		 strerror(EBADF));
	assert_string_equal(err.msg, want);
	sb_flash_result_free(r);
	close(x->dev.fd);
	free(r);
	free(x);
}

static void same(double a, double b)
{
	if (!isfinite(b))
		assert_false(isfinite(a));
	else
		assert_true(fabs(a - b) <= 1e-6 * fabs(b) + 1e-6);
}

/* res (from probes_in_order) with a decision whose steps name an erase
 * block and a page, as a device with a boundary effect gives */
static void with_findings(struct sb_flash_result *r)
{
	struct sb_flash_decision *d = &r->decisions[0];
	d->nsteps = 2;
	d->steps[0] = (struct sb_flash_step){ 256 * KIB, 2, 40000, 900, 3.5, SB_FLASH_CONF_HIGH };
	d->steps[1] = (struct sb_flash_step){ 16 * KIB, 6, 900, -20, 1.25, SB_FLASH_CONF_LOW };
	d->erase = 0;
	d->page = 1;
	r->erase_from = r->page_from = 0;
	r->erase_agree = 2;
	r->page_agree = 1;
}

static void reads_back(void **state)
{
	struct sb_flash_doc *d = calloc(1, sizeof(*d));
	struct sb_error err;
	(void)state;
	with_findings(&res);
	char *text = SJ_SECTION("flash", sb_results_flash, &res);
	struct sb_jdoc *jd = sj_parse(text);
	assert_int_equal(sb_flash_read(sb_jdoc_root(jd), d, &err), 0);
	const struct sb_flash_result *r = &d->r;
	assert_true(r->align && r->open_au && r->find_fat && r->scatter);
	assert_int_equal(r->interrupted, res.interrupted);
	assert_string_equal(r->priority, res.priority);
	assert_int_equal(!r->priority_err, !res.priority_err);
	assert_int_equal(r->nprofiles, res.nprofiles);
	for (unsigned i = 0; i < r->nprofiles; i++) {
		const struct sb_flash_profile *a = &r->profiles[i], *b = &res.profiles[i];
		assert_int_equal(a->bs, b->bs);
		assert_int_equal(a->count, b->count);
		assert_int_equal(a->maxalign, b->maxalign);
		assert_int_equal(a->nrows, b->nrows);
		for (unsigned k = 0; k < a->nrows; k++) {
			assert_int_equal(a->rows[k].align, b->rows[k].align);
			same(a->rows[k].pre_ns, b->rows[k].pre_ns);
			same(a->rows[k].on_ns, b->rows[k].on_ns);
			same(a->rows[k].post_ns, b->rows[k].post_ns);
			same(a->rows[k].diff_ns, b->rows[k].diff_ns);
			same(a->rows[k].pre_post_spread_ns, b->rows[k].pre_post_spread_ns);
		}
		const struct sb_flash_decision *x = &r->decisions[i], *y = &res.decisions[i];
		same(x->base_ns, y->base_ns);
		same(x->noise_ns, y->noise_ns);
		same(x->threshold_ns, y->threshold_ns);
		assert_int_equal(x->nsteps, y->nsteps);
		assert_int_equal(x->erase, y->erase);
		assert_int_equal(x->page, y->page);
		for (unsigned k = 0; k < x->nsteps; k++) {
			assert_int_equal(x->steps[k].align, y->steps[k].align);
			same(x->steps[k].above_ns, y->steps[k].above_ns);
			same(x->steps[k].below_ns, y->steps[k].below_ns);
			same(x->steps[k].margin, y->steps[k].margin);
			assert_int_equal(x->steps[k].conf, y->steps[k].conf);
		}
	}
	assert_int_equal(r->align_partial, res.align_partial);
	assert_int_equal(d->boundary_effect, 1);
	assert_true(d->erase.found && d->page.found);
	assert_int_equal(d->erase.bytes, 256 * KIB);
	assert_int_equal(d->erase.conf, SB_FLASH_CONF_HIGH);
	same(d->erase.margin, 3.5);
	assert_int_equal(d->erase.bs, 4 * KIB);
	assert_int_equal(d->erase.agree, 2);
	assert_int_equal(d->page.bytes, 16 * KIB);
	assert_int_equal(d->page.agree, 1);
	const struct sb_flash_au_result *a = &r->au, *b = &res.au;
	assert_int_equal(a->p.erase, b->p.erase);
	assert_int_equal(a->p.bs, b->p.bs);
	assert_int_equal(a->p.offset, b->p.offset);
	assert_int_equal(a->p.max_au, b->p.max_au);
	assert_int_equal(a->p.orders, b->p.orders);
	assert_int_equal(a->fits, b->fits);
	assert_int_equal(a->nruns, b->nruns);
	for (unsigned i = 0; i < a->nruns; i++) {
		assert_int_equal(a->runs[i].nau, b->runs[i].nau);
		assert_int_equal(a->runs[i].random, b->runs[i].random);
		assert_int_equal(a->runs[i].collapsed, b->runs[i].collapsed);
		assert_int_equal(a->runs[i].nrows, b->runs[i].nrows);
		for (unsigned k = 0; k < a->runs[i].nrows; k++) {
			assert_int_equal(a->runs[i].rows[k].chunk, b->runs[i].rows[k].chunk);
			assert_int_equal(a->runs[i].rows[k].writes, b->runs[i].rows[k].writes);
			same(a->runs[i].rows[k].mean_ns, b->runs[i].rows[k].mean_ns);
			same(a->runs[i].rows[k].bps, b->runs[i].rows[k].bps);
			assert_int_equal(a->runs[i].rows[k].collapsed,
					 b->runs[i].rows[k].collapsed);
		}
	}
	for (int o = 0; o < 2; o++) {
		assert_int_equal(a->best[o], b->best[o]);
		assert_int_equal(a->limited[o], b->limited[o]);
	}
	assert_int_equal(r->fat.erase, res.fat.erase);
	assert_int_equal(r->fat.bs, res.fat.bs);
	assert_int_equal(r->fat.nblocks, res.fat.nblocks);
	assert_int_equal(r->fat.nrows, res.fat.nrows);
	for (unsigned i = 0; i < r->fat.nrows; i++) {
		assert_int_equal(r->fat.rows[i].chunk, res.fat.rows[i].chunk);
		for (unsigned k = 0; k < r->fat.nblocks; k++)
			same(r->fat.rows[i].bps[k], res.fat.rows[i].bps[k]);
	}
	for (unsigned k = 0; k < r->fat.nblocks; k++)
		assert_int_equal(r->fat.differs[k], res.fat.differs[k]);
	assert_int_equal(r->sc.p.bs, res.sc.p.bs);
	assert_int_equal(r->sc.p.order, res.sc.p.order);
	assert_int_equal(r->sc.p.span, res.sc.p.span);
	assert_int_equal(r->sc.p.count, res.sc.p.count);
	assert_int_equal(r->sc.n, res.sc.n);
	for (uint32_t i = 0; i < r->sc.n; i++) {
		assert_int_equal(r->sc.off[i], res.sc.off[i]);
		same(r->sc.ns[i], res.sc.ns[i]);
	}
	struct sb_flash_scatter_sum sum;
	sb_flash_scatter_sum(&res.sc, &sum);
	same(d->sc_min_ns, sum.min_ns);
	same(d->sc_median_ns, sum.median_ns);
	same(d->sc_max_ns, sum.max_ns);
	assert_int_equal(d->nslowest, sum.nslowest);
	for (unsigned i = 0; i < d->nslowest; i++)
		assert_int_equal(d->slowest[i], res.sc.off[sum.slowest[i]]);
	assert_true(d->nmeaning > 0);
	sb_flash_doc_free(d);
	sb_jdoc_free(jd);
	free(text);
	free(d);
}

static void bad_sections_refused(void **state)
{
	struct sb_flash_doc *d = calloc(1, sizeof(*d));
	(void)state;
	char *text = SJ_SECTION("flash", sb_results_flash, &res);
	SJ_REFUSED(sb_flash_read, sb_flash_doc_free, d, text, "\"count\":2", "\"count\":\"2\"",
		   "align.profiles[0].count: expected a whole number from 0 to 1000000, found "
		   "'2'");
	SJ_REFUSED(sb_flash_read, sb_flash_doc_free, d, text, "\"blocks\":3", "\"blocks\":-3",
		   "find_fat.blocks: expected a whole number from 0 to 16, found -3");
	SJ_REFUSED(sb_flash_read, sb_flash_doc_free, d, text, "\"maxalign\"", "\"maxalign_\"",
		   "align.profiles[0].maxalign: expected a whole number from 0 to 1e18, found "
		   "nothing");
	SJ_REFUSED(sb_flash_read, sb_flash_doc_free, d, text, "\"confidence\":\"high\"",
		   "\"confidence\":\"sure\"",
		   "align.profiles[0].steps[0].confidence: expected low, medium or high, found "
		   "'sure'");
	SJ_REFUSED(sb_flash_read, sb_flash_doc_free, d, text, "\"order\":\"linear\"", "\"order\":7",
		   "open_au.runs[0].order: expected a string, found 7");
	sb_flash_result_free(&res);
	free(text);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probes_in_order),
		cmocka_unit_test(stop_ends_the_sequence),
		cmocka_unit_test(refusals),
		cmocka_unit_test(reads_back),
		cmocka_unit_test(bad_sections_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

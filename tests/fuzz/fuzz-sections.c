/*
 * Fuzz target of the device methods' typed readers (libFuzzer: make
 * fuzz): a JSON document read as a "cliff", a "flash" and a "pts" section
 * (lib/cliff/cliff_read.c, lib/flash/flash_read.c, lib/pts/pts_read.c),
 * as report/ reads a result's. Any input must be read or refused without
 * a crash, a leak or undefined behaviour; a refusal names the key path
 * (or, at the top, what was expected); what a reader keeps is within its
 * bounds.
 */
#include "lib/cliff/cliff.h"
#include "lib/flash/flash.h"
#include "lib/pts/pts.h"
#include "lib/json/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static void refused_well(int e, const struct sb_error *err)
{
	CHECK(e == 0 || e == -ENOMEM || e == -EINVAL);
	CHECK(e != -EINVAL || strchr(err->msg, ':') || !strncmp(err->msg, "expected ", 9));
}

static void pts(const struct sb_jv *v)
{
	static struct sb_pts_doc d;
	struct sb_error err;
	const int e = sb_pts_read(v, &d, &err);
	refused_well(e, &err);
	CHECK(d.r.nparts <= SB_PTS_MAX_PARTS && d.r.ndeviations <= SB_PTS_MAX_DEVIATIONS);
	for (unsigned i = 0; !e && i < d.r.nparts; i++) {
		const struct sb_pts_part *p = &d.r.parts[i];
		CHECK(p->ncells == p->nmix * p->nbs && p->ncells <= SB_PTS_MAX_CELLS);
		CHECK(p->track_cell < p->ncells && p->partial_cells <= p->ncells);
		CHECK(p->ss.last <= p->nrounds);
		/* every figure the renderers take is there */
		volatile double sum = 0;
		for (size_t c = 0; c < (size_t)p->nrounds * p->ncells + p->partial_cells; c++)
			sum += p->fig[c].iops;
		for (unsigned k = 0; k < p->nrounds; k++)
			sum += p->tracked[k] + (double)d.parts[i].written_total[k];
		for (unsigned c = 0; d.parts[i].avg && c < p->ncells; c++)
			sum += d.parts[i].avg[c].iops;
		(void)sum;
	}
	sb_pts_doc_free(&d);
}

static void cliff(const struct sb_jv *v)
{
	static struct sb_cliff_doc d;
	struct sb_error err;
	const int e = sb_cliff_read(v, &d, &err);
	refused_well(e, &err);
	CHECK(d.r.find.nsteps <= SB_CLIFF_MAX_STEPS && d.r.nrecovery <= SB_CLIFF_MAX_RECOVERY);
	sb_cliff_doc_free(&d);
}

static void flash(const struct sb_jv *v)
{
	static struct sb_flash_doc d;
	struct sb_error err;
	const int e = sb_flash_read(v, &d, &err);
	refused_well(e, &err);
	sb_flash_doc_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_json_limits lim = { 1u << 20, 48 };
	struct sb_json_error jerr;
	struct sb_jdoc *doc;
	if (sb_json_parse((const char *)data, size, &lim, &doc, &jerr) < 0)
		return 0;
	const struct sb_jv *root = sb_jdoc_root(doc);
	/* a whole result: its storbench section's method, else the root */
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	const struct sb_jv *s = sb ? sb : root;
	pts(sb_jv_get(s, "pts") ? sb_jv_get(s, "pts") : s);
	cliff(sb_jv_get(s, "cliff") ? sb_jv_get(s, "cliff") : s);
	flash(sb_jv_get(s, "flash") ? sb_jv_get(s, "flash") : s);
	sb_jdoc_free(doc);
	return 0;
}

/*
 * The results' "verify" sections (lib/verify/verify_json.h): storbench
 * verify's settings, phases, counts per class and bad ranges; its --probe;
 * run --verify's counts over the job's files.
 */
#include "lib/verify/verify_json.h"
#include "lib/verify/verify_range_json.h"

static const char *phase_name(int phase)
{
	return phase == SB_VPHASE_WRITE ? "write" : phase == SB_VPHASE_CHECK ? "check" : "both";
}

static void pass_json(struct sb_json *j, const char *key, const struct sb_verify_pass_result *p)
{
	sb_json_obj_open(j, key);
	sb_json_u64(j, "bytes", p->bytes);
	sb_json_u64(j, "ns", p->ns);
	sb_json_double(j, "bw_bytes", p->ns ? (double)p->bytes * 1e9 / (double)p->ns : 0);
	sb_json_u64(j, "errors", p->errors);
	if (p->first_error) {
		sb_json_u64(j, "first_error_offset", p->first_error_offset);
		sb_json_u64(j, "first_errno", (uint64_t)p->first_error);
		sb_json_str(j, "first_error", strerror(p->first_error));
	}
	sb_json_bool(j, "interrupted", p->interrupted);
	sb_json_obj_close(j);
}

static void settings_json(struct sb_json *j, const struct sb_verify_report *r)
{
	sb_json_str(j, "phase", phase_name(r->phase));
	sb_json_u64(j, "offset", r->t->offset);
	sb_json_u64(j, "size", r->t->size);
	sb_json_u64(j, "block_size", r->fmt.block_size);
	sb_json_u64(j, "seed", r->fmt.seed);
	sb_json_bool(j, "seed_from_data", r->t->learned);
	sb_json_u64(j, "generation", r->fmt.generation);
	if (r->wrote)
		sb_json_str(j, "checksum", sb_verify_csum_name(r->fmt.csum));
	sb_json_str(j, "engine", r->engine);
	sb_json_u64(j, "request_size", r->request_size);
	sb_json_u64(j, "iodepth", r->iodepth);
	sb_json_bool(j, "direct", r->t->direct);
}

static void counts_json(struct sb_json *j, const uint64_t *count)
{
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_json_u64(j, sb_verify_class_name(c), count[c]);
}

/* Many ranks: each one's part, its bad ranges in its own target. */
static void ranks_json(struct sb_json *j, const struct sb_verify_report *r)
{
	sb_json_arr_open(j, "ranks");
	for (unsigned i = 0; i < r->nranks; i++) {
		const struct sb_verify_rank *k = &r->ranks[i];
		sb_json_obj_open(j, NULL);
		sb_json_i64(j, "rank", k->rank);
		sb_json_str(j, "hostname", k->host);
		sb_json_str(j, "path", k->path);
		if (r->wrote)
			sb_json_u64(j, "bytes_written", k->bytes_written);
		if (r->checked)
			sb_json_u64(j, "bytes_checked", k->bytes_checked);
		sb_json_u64(j, "write_errors", k->write_errors);
		sb_json_u64(j, "blocks_checked", k->blocks);
		counts_json(j, k->count);
		sb_json_u64(j, "missing_blocks", k->missing_blocks);
		sb_json_arr_open(j, "bad_ranges");
		for (unsigned g = 0; g < k->nranges; g++)
			sb_verify_range_json(j, &k->ranges[g], -1);
		sb_json_arr_close(j);
		sb_json_u64(j, "bad_ranges_omitted", k->omitted);
		sb_json_bool(j, "failed", k->failed);
		sb_json_bool(j, "interrupted", k->interrupted);
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
}

/* A directory written: how much of its free space the write covered (a
 * fill: all the filesystem gave, as f3write's files take). */
static void coverage_json(struct sb_json *j, const struct sb_verify_report *r)
{
	const uint64_t free_ = r->t->free_before;
	sb_json_obj_open(j, "coverage");
	sb_json_u64(j, "bytes", r->wr.bytes);
	sb_json_u64(j, "free_before", free_);
	sb_json_bool(j, "fill", r->t->fill);
	if (free_)
		sb_json_double(j, "percent", 100.0 * (double)r->wr.bytes / (double)free_);
	else
		sb_json_null(j, "percent");
	sb_json_obj_close(j);
}

void sb_verify_json(struct sb_json *j, const void *ctx)
{
	const struct sb_verify_report *r = ctx;
	const struct sb_verify_acc *a = &r->acc;

	settings_json(j, r);
	if (r->wrote)
		pass_json(j, "write", &r->wr);
	if (r->checked)
		pass_json(j, "check", &r->rd);
	if (r->wrote && r->t->is_dir && !r->nranks)
		coverage_json(j, r);
	sb_json_u64(j, "blocks_checked", a->blocks);
	counts_json(j, a->count);
	sb_json_arr_open(j, "bad_ranges");
	for (size_t i = 0; i < a->nranges; i++)
		sb_verify_range_json(j, &a->ranges[i], -1);
	sb_json_arr_close(j);
	sb_json_u64(j, "bad_ranges_omitted", a->omitted);
	if (r->failed)
		sb_json_str(j, "error", r->failure);
	if (r->nranks)
		ranks_json(j, r);
	const int fail = sb_verify_acc_bad(a) || r->wr.errors || r->failed;
	sb_json_str(j, "result",
		    r->wr.interrupted || r->rd.interrupted ? "interrupted"
		    : fail				   ? "fail"
		    : r->checked			   ? "pass"
							   : "written");
}

/* A phase as a job, so that fio-shaped readers see its bandwidth. */
static void add_job(struct sb_results *res, const struct sb_verify_report *r, int write)
{
	const struct sb_verify_pass_result *p = write ? &r->wr : &r->rd;
	struct sb_job_result *jr = sb_job_result_create();
	const int d = write ? SB_DDIR_WRITE : SB_DDIR_READ;

	if (!jr || sb_results_add_job(res, jr) < 0) {
		sb_job_result_free(jr);
		return;
	}
	const char *name = write ? "verify write" : "verify check";
	snprintf(jr->name, sizeof(jr->name), "%s", name);
	sb_job_opts_default(&jr->opts);
	snprintf(jr->opts.name, sizeof(jr->opts.name), "%s", name);
	jr->opts.rw = write ? SB_RW_WRITE : SB_RW_READ;
	jr->opts.bs = r->request_size;
	jr->opts.iodepth = r->iodepth;
	jr->opts.direct = r->t->direct;
	jr->opts.size = r->t->size;
	jr->opts.offset = r->t->offset;
	jr->opts.seed = r->fmt.seed;
	snprintf(jr->opts.engine, sizeof(jr->opts.engine), "%s", r->engine);
	snprintf(jr->engine, sizeof(jr->engine), "%s", r->engine);
	jr->runtime_ns = p->ns;
	jr->dir[d].bytes = p->bytes;
	jr->dir[d].ios = p->ios;
	jr->dir[d].lat = p->lat;
	jr->dir[d].clat = p->lat;
	jr->errors = write ? p->errors : r->acc.count[SB_VERIFY_UNREADABLE];
	jr->interrupted = p->interrupted;
}

void sb_verify_add_jobs(struct sb_results *res, const struct sb_verify_report *r)
{
	if (r->wrote)
		add_job(res, r, 1);
	if (r->checked)
		add_job(res, r, 0);
}

void sb_capacity_json(struct sb_json *j, const void *ctx)
{
	const struct sb_capacity_report *p = ctx;
	const struct sb_capacity_result *r = &p->res;
	const uint32_t bs = p->block_size;

	sb_json_str(j, "phase", "probe");
	sb_json_obj_open(j, "probe");
	sb_json_str(j, "kind", r->interrupted ? "interrupted" : sb_capacity_kind_name(r->kind));
	sb_json_u64(j, "block_size", bs);
	sb_json_u64(j, "announced_bytes", r->announced_blocks * bs);
	sb_json_u64(j, "usable_bytes", r->usable_blocks * bs);
	sb_json_u64(j, "wrap_bytes", r->wrap_order ? 1ull << r->wrap_order : 0);
	sb_json_u64(j, "cache_bytes", r->cache_blocks * bs);
	sb_json_u64(j, "blocks_written", r->blocks_written);
	sb_json_u64(j, "blocks_read", r->blocks_read);
	sb_json_u64(j, "io_errors", r->io_errors);
	sb_json_u64(j, "seed", p->seed);
	sb_json_u64(j, "ns", p->ns);
	sb_json_obj_close(j);
	sb_json_str(j, "result",
		    r->interrupted		  ? "interrupted"
		    : r->kind == SB_CAPACITY_GOOD ? "pass"
						  : "fail");
}

/* Many ranks: each one's verdict, its bad ranges in its own files; the
 * counts above are every rank's summed and the verdict any rank's. */
static void job_ranks_json(struct sb_json *j, const struct sb_job_verify *v)
{
	int fail = 0;
	sb_json_arr_open(j, "ranks");
	for (unsigned i = 0; i < v->nranks; i++) {
		const struct sb_job_verify_rank *k = &v->ranks[i];
		const int bad = sb_job_verify_rank_failed(k);
		fail |= bad;
		sb_json_obj_open(j, NULL);
		sb_json_i64(j, "rank", k->rank);
		sb_json_str(j, "hostname", k->host);
		sb_json_str(j, "path", k->path);
		sb_json_u64(j, "files", k->nfiles);
		sb_json_u64(j, "seed", k->seed);
		sb_json_u64(j, "blocks_checked", k->blocks);
		counts_json(j, k->count);
		sb_json_arr_open(j, "bad_ranges");
		for (unsigned g = 0; g < k->nranges; g++)
			sb_verify_range_json(j, &k->ranges[g], (int)k->file[g]);
		sb_json_arr_close(j);
		sb_json_u64(j, "bad_ranges_omitted", k->omitted);
		sb_json_str(j, "result", !k->checked ? "not checked" : bad ? "fail" : "pass");
		sb_json_obj_close(j);
	}
	sb_json_arr_close(j);
	sb_json_str(j, "result", fail ? "fail" : "pass");
}

void sb_job_verify_json(struct sb_json *j, const void *ctx)
{
	const struct sb_job_verify *v = ctx;
	uint64_t count[SB_VERIFY_NCLASS] = { 0 }, omitted = 0;
	for (unsigned i = 0; i < v->nacc && !v->nranks; i++) {
		for (int c = 0; c < SB_VERIFY_NCLASS; c++)
			count[c] += v->acc[i].count[c];
		omitted += v->acc[i].omitted;
	}
	for (unsigned k = 0; k < v->nranks; k++) {
		for (int c = 0; c < SB_VERIFY_NCLASS; c++)
			count[c] += v->ranks[k].count[c];
		omitted += v->ranks[k].nranges + v->ranks[k].omitted;
	}
	sb_json_u64(j, "block_size", v->fmt.block_size);
	sb_json_u64(j, "seed", v->fmt.seed);
	sb_json_u64(j, "blocks_checked", v->blocks);
	counts_json(j, count);
	/* of many ranks, the ranges are each rank's (offsets in its own files) */
	sb_json_arr_open(j, "bad_ranges");
	for (unsigned i = 0; i < v->nacc && !v->nranks; i++)
		for (size_t r = 0; r < v->acc[i].nranges; r++)
			sb_verify_range_json(j, &v->acc[i].ranges[r], (int)i);
	sb_json_arr_close(j);
	sb_json_u64(j, "bad_ranges_omitted", omitted);
	if (v->nranks)
		job_ranks_json(j, v);
}

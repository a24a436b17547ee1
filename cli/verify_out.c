/* storbench verify: the text summary, the "verify" JSON section and the
 * phases as fio-shaped jobs. */
#include "cli/verify.h"
#include "lib/storbench.h"

static const char *csum_name(unsigned csum)
{
	return csum == SB_VERIFY_CSUM_XXH3 ? "xxh3" : "crc32c";
}

static const char *phase_name(int phase)
{
	return phase == VPHASE_WRITE ? "write" : phase == VPHASE_CHECK ? "check" : "both";
}

static void pass_text(FILE *f, const char *what, const struct sb_verify_pass_result *p)
{
	char a[32], b[32], c[32];
	const double s = p->ns ? (double)p->ns / 1e9 : 0;
	fprintf(f, "%s: %s in %s, %s%s\n", what, sb_fmt_size(p->bytes, a, sizeof(a)),
		sb_fmt_ns((double)p->ns, b, sizeof(b)),
		sb_fmt_rate(s > 0 ? (double)p->bytes / s : 0, c, sizeof(c)),
		p->interrupted ? " (interrupted)" : "");
}

/* "12.0 MiB (12582912)", and the file for a directory's offsets */
static const char *where(const struct verify_report *r, uint64_t off, char *buf, size_t len)
{
	char a[32], b[32];
	int n = snprintf(buf, len, "%s (%llu)", sb_fmt_size(off, a, sizeof(a)),
			 (unsigned long long)off);
	if (r->t->is_dir && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " in .storbench-verify-%u.tmp at %s",
			 (unsigned)(off / VFILE_SPAN), sb_fmt_size(off % VFILE_SPAN, b, sizeof(b)));
	return buf;
}

static void range_text(FILE *f, const struct verify_report *r, const struct sb_verify_range *g)
{
	char at[160], len[32], exp[160];
	fprintf(f, "  %-10s at %s, %s", sb_verify_class_name(g->cls),
		where(r, g->offset, at, sizeof(at)), sb_fmt_size(g->length, len, sizeof(len)));
	if (g->cls == SB_VERIFY_MISPLACED)
		fprintf(f, ": data written for %s", where(r, g->expected_offset, exp, sizeof(exp)));
	else if (g->cls == SB_VERIFY_STALE)
		fprintf(f, ": generation %llu, expected %llu", (unsigned long long)g->generation,
			(unsigned long long)r->fmt.generation);
	else if (g->cls == SB_VERIFY_UNREADABLE)
		fprintf(f, ": %s", strerror(g->err));
	fputc('\n', f);
}

static void blocks_text(FILE *f, const struct verify_report *r)
{
	const struct sb_verify_acc *a = &r->acc;
	fprintf(f, "blocks: %llu checked, %llu intact", (unsigned long long)a->blocks,
		(unsigned long long)a->count[SB_VERIFY_INTACT]);
	for (int c = SB_VERIFY_INTACT + 1; c < SB_VERIFY_NCLASS; c++)
		if (a->count[c])
			fprintf(f, ", %llu %s", (unsigned long long)a->count[c],
				sb_verify_class_name(c));
	fputc('\n', f);
	if (a->nranges)
		fprintf(f, "bad ranges:\n");
	for (size_t i = 0; i < a->nranges; i++)
		range_text(f, r, &a->ranges[i]);
	if (a->omitted)
		fprintf(f, "  and %llu more range%s (raise --max-ranges to list them)\n",
			(unsigned long long)a->omitted, a->omitted > 1 ? "s" : "");
}

void verify_render_text(FILE *f, const struct verify_report *r)
{
	const struct verify_opts *o = r->o;
	char a[32], b[32], c[32], at[160];

	fprintf(f, "verify '%s': %s", r->t->path, sb_fmt_size(r->t->size, a, sizeof(a)));
	if (r->t->offset)
		fprintf(f, " from offset %s", sb_fmt_size(r->t->offset, b, sizeof(b)));
	fprintf(f, ", blocks of %s, seed %llu%s, generation %llu\n",
		sb_fmt_size(o->block_size, c, sizeof(c)), (unsigned long long)o->seed,
		r->t->learned ? " (read from the data)" : "", (unsigned long long)o->generation);
	fprintf(f, "  %s, requests of %s, depth %u, %s", r->engine,
		sb_fmt_size(o->request_size, a, sizeof(a)), o->iodepth,
		r->t->direct ? "direct" : "buffered");
	if (r->wrote) /* a check reads whichever checksum each block names */
		fprintf(f, ", %s checksums", csum_name(r->fmt.csum));
	fputc('\n', f);
	if (r->wrote)
		pass_text(f, "write", &r->wr);
	if (r->wr.errors)
		fprintf(f, "write errors: %llu block%s not written, the first at %s: %s\n",
			(unsigned long long)r->wr.errors, r->wr.errors > 1 ? "s" : "",
			where(r, r->wr.first_error_offset, at, sizeof(at)),
			strerror(r->wr.first_error));
	if (r->checked) {
		pass_text(f, "check", &r->rd);
		blocks_text(f, r);
	}
	const uint64_t bad = sb_verify_acc_bad(&r->acc);
	if (r->wr.interrupted || r->rd.interrupted)
		fprintf(f, "result: interrupted\n");
	else if (bad || r->wr.errors)
		fprintf(f, "result: FAILED, %llu of %llu blocks not intact%s\n",
			(unsigned long long)bad, (unsigned long long)r->acc.blocks,
			r->wr.errors ? ", and writes failed" : "");
	else if (r->checked)
		fprintf(f, "result: all %llu blocks intact\n", (unsigned long long)r->acc.blocks);
	else if (r->wrote)
		fprintf(f, "result: written; check with --phase=check --seed=%llu --generation=%llu\n",
			(unsigned long long)o->seed, (unsigned long long)o->generation);
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

void verify_range_json(struct sb_json *j, const struct sb_verify_range *g, int file)
{
	sb_json_obj_open(j, NULL);
	if (file >= 0)
		sb_json_u64(j, "file", (uint64_t)file);
	sb_json_u64(j, "offset", g->offset);
	sb_json_u64(j, "length", g->length);
	sb_json_str(j, "class", sb_verify_class_name(g->cls));
	if (g->cls == SB_VERIFY_MISPLACED)
		sb_json_u64(j, "expected_offset", g->expected_offset);
	if (g->cls == SB_VERIFY_MISPLACED || g->cls == SB_VERIFY_STALE)
		sb_json_u64(j, "generation", g->generation);
	if (g->cls == SB_VERIFY_UNREADABLE) {
		sb_json_u64(j, "errno", (uint64_t)g->err);
		sb_json_str(j, "error", strerror(g->err));
	}
	sb_json_obj_close(j);
}

static void settings_json(struct sb_json *j, const struct verify_report *r)
{
	const struct verify_opts *o = r->o;
	sb_json_str(j, "phase", phase_name(o->phase));
	sb_json_u64(j, "offset", r->t->offset);
	sb_json_u64(j, "size", r->t->size);
	sb_json_u64(j, "block_size", o->block_size);
	sb_json_u64(j, "seed", o->seed);
	sb_json_bool(j, "seed_from_data", r->t->learned);
	sb_json_u64(j, "generation", o->generation);
	if (r->wrote)
		sb_json_str(j, "checksum", csum_name(r->fmt.csum));
	sb_json_str(j, "engine", r->engine);
	sb_json_u64(j, "request_size", o->request_size);
	sb_json_u64(j, "iodepth", o->iodepth);
	sb_json_bool(j, "direct", r->t->direct);
}

void verify_json(struct sb_json *j, const void *ctx)
{
	const struct verify_report *r = ctx;
	const struct sb_verify_acc *a = &r->acc;

	settings_json(j, r);
	if (r->wrote)
		pass_json(j, "write", &r->wr);
	if (r->checked)
		pass_json(j, "check", &r->rd);
	sb_json_u64(j, "blocks_checked", a->blocks);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_json_u64(j, sb_verify_class_name(c), a->count[c]);
	sb_json_arr_open(j, "bad_ranges");
	for (size_t i = 0; i < a->nranges; i++)
		verify_range_json(j, &a->ranges[i], -1);
	sb_json_arr_close(j);
	sb_json_u64(j, "bad_ranges_omitted", a->omitted);
	const int fail = sb_verify_acc_bad(a) || r->wr.errors;
	sb_json_str(j, "result", r->wr.interrupted || r->rd.interrupted ? "interrupted"
				 : fail				  ? "fail"
				 : r->checked			  ? "pass"
								  : "written");
}

/* A phase as a job, so that fio-shaped readers see its bandwidth. */
static void add_job(struct sb_results *res, const struct verify_report *r, int write)
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
	jr->opts.bs = r->o->request_size;
	jr->opts.iodepth = r->o->iodepth;
	jr->opts.direct = r->t->direct;
	jr->opts.size = r->t->size;
	jr->opts.offset = r->t->offset;
	jr->opts.seed = r->o->seed;
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

void verify_add_jobs(struct sb_results *res, const struct verify_report *r)
{
	if (r->wrote)
		add_job(res, r, 1);
	if (r->checked)
		add_job(res, r, 0);
}

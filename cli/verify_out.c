/* storbench verify: the progress line of its phases, the
 * text summary (the JSON section is the library's, lib/verify/verify_json.c)
 * and the results written. */
#include "cli/verify_cli.h"
#include "lib/storbench.h"
#include "report/report.h"

static void pass_text(FILE *f, const char *what, const struct sb_verify_pass_result *p)
{
	char a[32], b[32], c[32];
	const double s = p->ns ? (double)p->ns / 1e9 : 0;
	fprintf(f, "%s: %s in %s, %s%s\n", what, sb_fmt_size(p->bytes, a, sizeof(a)),
		sb_fmt_ns((double)p->ns, b, sizeof(b)),
		rep_fmt_rate(s > 0 ? (double)p->bytes / s : 0, c, sizeof(c)),
		p->interrupted ? " (interrupted)" : "");
}

/* "12.0 MiB (12582912)", and the file for a directory's offsets */
static const char *where(const struct sb_verify_report *r, uint64_t off, char *buf, size_t len)
{
	const struct sb_vtarget *t = r->t;
	const uint64_t k = off / SB_VFILE_SPAN;
	char a[32], b[32];
	int n = snprintf(buf, len, "%s (%llu)", sb_fmt_size(off, a, sizeof(a)),
			 (unsigned long long)off);
	if (t->is_dir && k < t->nseg && n > 0 && (size_t)n < len) {
		const char *name = strrchr(t->seg[k].path, '/');
		snprintf(buf + n, len - (size_t)n, " in %s at %s", name ? name + 1 : t->seg[k].path,
			 sb_fmt_size(off % SB_VFILE_SPAN, b, sizeof(b)));
	}
	return buf;
}

static void range_text(FILE *f, const struct sb_verify_report *r, const struct sb_verify_range *g)
{
	char at[160], len[32], exp[160];
	fprintf(f, "  %-10s at %s, %s", sb_verify_class_name(g->cls),
		where(r, g->offset, at, sizeof(at)), sb_fmt_size(g->length, len, sizeof(len)));
	if (g->cls == SB_VERIFY_MISPLACED)
		fprintf(f, ": data written for %s", where(r, g->expected_offset, exp, sizeof(exp)));
	else if (g->cls == SB_VERIFY_STALE || g->cls == SB_VERIFY_NEWER)
		fprintf(f, ": generation %llu, expected %llu", (unsigned long long)g->generation,
			(unsigned long long)r->fmt.generation);
	else if (g->cls == SB_VERIFY_UNREADABLE)
		fprintf(f, ": %s", strerror(g->err));
	fputc('\n', f);
}

static void blocks_text(FILE *f, const struct sb_verify_report *r)
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

/* "covered: 205 MiB, 106% of the 194 MiB free before (a fill)" */
static void coverage_text(FILE *f, const struct sb_verify_report *r)
{
	const struct sb_vtarget *t = r->t;
	const uint64_t done = r->wr.bytes;
	char a[32], b[32];
	if (!t->is_dir || r->nranks)
		return;
	fprintf(f, "covered: %s", sb_fmt_size(done, a, sizeof(a)));
	if (t->free_before)
		fprintf(f, ", %.1f%% of the %s free before",
			100.0 * (double)done / (double)t->free_before,
			sb_fmt_size(t->free_before, b, sizeof(b)));
	fprintf(f, "%s\n",
		!t->fill ? ""
		: done > t->free_before
			? " (a fill: as root, also the blocks the filesystem keeps for root)"
			: " (a fill: as far as the filesystem let the files grow)");
}

static void render_text(FILE *f, const struct verify_opts *o, const struct sb_verify_report *res)
{
	const struct sb_verify_report *r = res;
	const struct sb_vtarget *t = res->t;
	char a[32], b[32], c[32], at[160];

	fprintf(f, "verify '%s': %s", t->path, sb_fmt_size(t->size, a, sizeof(a)));
	if (t->offset)
		fprintf(f, " from offset %s", sb_fmt_size(t->offset, b, sizeof(b)));
	fprintf(f, ", blocks of %s, seed %llu%s, generation %llu\n",
		sb_fmt_size(o->block_size, c, sizeof(c)), (unsigned long long)o->seed,
		t->learned ? " (read from the data)" : "", (unsigned long long)o->generation);
	fprintf(f, "  %s, requests of %s, depth %u, %s", res->engine,
		sb_fmt_size(o->request_size, a, sizeof(a)), o->iodepth,
		t->direct ? "direct" : "buffered");
	if (res->wrote) /* a check reads whichever checksum each block names */
		fprintf(f, ", %s checksums", sb_verify_csum_name(res->fmt.csum));
	fputc('\n', f);
	if (res->wrote) {
		pass_text(f, "write", &res->wr);
		coverage_text(f, r);
	}
	if (res->wr.errors)
		fprintf(f, "write errors: %llu block%s not written, the first at %s: %s\n",
			(unsigned long long)res->wr.errors, res->wr.errors > 1 ? "s" : "",
			where(r, res->wr.first_error_offset, at, sizeof(at)),
			strerror(res->wr.first_error));
	if (res->checked) {
		pass_text(f, "check", &res->rd);
		blocks_text(f, r);
	}
	const uint64_t bad = sb_verify_acc_bad(&res->acc);
	if (res->wr.interrupted || res->rd.interrupted)
		fprintf(f, "result: interrupted\n");
	else if (res->failed)
		fprintf(f, "result: FAILED, the %s stopped: %s\n", res->checked ? "check" : "write",
			res->failure);
	else if (res->wr.errors && !res->checked)
		fprintf(f, "result: FAILED, %llu block%s not written (the first at %s: %s)\n",
			(unsigned long long)res->wr.errors, res->wr.errors > 1 ? "s" : "",
			where(r, res->wr.first_error_offset, at, sizeof(at)),
			strerror(res->wr.first_error));
	else if (bad || res->wr.errors)
		fprintf(f, "result: FAILED, %llu of %llu blocks not intact%s\n",
			(unsigned long long)bad, (unsigned long long)res->acc.blocks,
			res->wr.errors ? ", and writes failed" : "");
	else if (res->checked)
		fprintf(f, "result: all %llu blocks intact\n", (unsigned long long)res->acc.blocks);
	else if (res->wrote)
		fprintf(f,
			"result: written; check with --phase=check --seed=%llu --generation=%llu\n",
			(unsigned long long)o->seed, (unsigned long long)o->generation);
}

/* The ranks' part of the text: a line each. */
static void ranks_text(FILE *f, const struct sb_verify_report *v)
{
	if (!v->nranks)
		return;
	fprintf(f, "ranks:\n");
	for (unsigned i = 0; i < v->nranks; i++) {
		const struct sb_verify_rank *k = &v->ranks[i];
		uint64_t bad = 0;
		for (int c = SB_VERIFY_INTACT + 1; c < SB_VERIFY_NCLASS; c++)
			bad += k->count[c];
		fprintf(f, "  rank %d on %s, '%s': ", k->rank, k->host, k->path);
		if (v->checked)
			fprintf(f, "%llu blocks checked, %llu not intact",
				(unsigned long long)k->blocks, (unsigned long long)bad);
		else
			fprintf(f, "%llu bytes written", (unsigned long long)k->bytes_written);
		if (k->write_errors)
			fprintf(f, ", %llu write errors", (unsigned long long)k->write_errors);
		for (unsigned g = 0; g < k->nranges; g++)
			fprintf(f, "%s%s at %llu, %llu bytes", g ? "; " : ": ",
				sb_verify_class_name(k->ranges[g].cls),
				(unsigned long long)k->ranges[g].offset,
				(unsigned long long)k->ranges[g].length);
		if (k->omitted)
			fprintf(f, " and %llu more range%s", (unsigned long long)k->omitted,
				k->omitted > 1 ? "s" : "");
		fputc('\n', f);
	}
}

int verify_output(const struct verify_opts *o, struct sb_verify_result *v, int *code)
{
	struct sb_results *res = v->res;
	int rc = 0;
	if (cli_ranks() > 1) {
		if (cli_ranks_collect(res, code))
			return 1;
		/* the phases' time: from the earliest start to the latest end */
		for (size_t i = 0; i < res->njobs && i < 2; i++)
			(v->rep.wrote && i == 0 ? &v->rep.wr : &v->rep.rd)->ns =
				res->jobs[i]->runtime_ns;
	}
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout) {
		if (cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
	} else {
		render_text(stdout, o, &v->rep);
		ranks_text(stdout, &v->rep);
		for (size_t i = 0; i < res->njobs; i++) {
			if (res->jobs[i]->nclients)
				printf("%s, per rank:\n", res->jobs[i]->name);
			rep_ranks_text(stdout, res->jobs[i]);
		}
	}
	/* what the figures may not be (a target in RAM) */
	render_warnings_text(stderr, res);
	return rc;
}

/* ---- the progress line ---- */

static int line_stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void line_error(void *ctx, const char *msg)
{
	(void)ctx;
	sb_err("%s", msg);
}

static void line_created(void *ctx, const char *path, int fd)
{
	const struct verify_line *l = ctx;
	verify_track_created(path, fd, l->o);
}

/* A phase begins: the line from now (many ranks: rank 0's alone); ends:
 * the line cleared. */
static void line_phase(void *ctx, const char *phase, int begin)
{
	struct verify_line *l = ctx;
	(void)phase;
	if (begin)
		cli_progress_init(&l->pg, l->o->quiet || cli_rank() != 0);
	else
		cli_progress_clear(&l->pg);
}

/* "verify write: 42% 1.20 GiB of 3.00 GiB 512 MiB/s  elapsed 3s ETA 4s"
 * (the ETA of the phase). */
static void line_progress(void *ctx, const struct sb_verify_progress *p)
{
	struct verify_line *l = ctx;
	const uint64_t now = sb_now_ns();
	if (!cli_progress_due(&l->pg, now))
		return;
	struct cli_line ln = {
		.label = "verify",
		.what = p->phase,
		.pct = p->pct,
		.done = p->done,
		.total = p->total,
		.bps = p->bps,
		.ops = -1,
		.elapsed_ns = p->elapsed_ns,
		.eta_ns = p->eta_ns,
	};
	if (p->ranks > 1) {
		snprintf(l->what, sizeof(l->what), "%s, %u ranks", p->phase, p->ranks);
		ln.what = l->what;
	}
	cli_progress_draw(&l->pg, &ln, now);
}

void verify_hooks(struct sb_verify_hooks *h, struct verify_line *l, const struct verify_opts *o)
{
	memset(l, 0, sizeof(*l));
	l->o = o;
	*h = (struct sb_verify_hooks){ l,	   line_stop,	 line_progress,
				       line_phase, line_created, line_error };
}

/* ---- the probe ---- */

void verify_probe_text(FILE *f, const char *path, const struct sb_capacity_report *p)
{
	const struct sb_capacity_result *r = &p->res;
	const uint32_t bs = p->block_size;
	char a[32], b[32], c[32];
	const uint64_t usable = r->usable_blocks * bs;

	fprintf(f, "probe '%s': %s announced, blocks of %s, seed %llu\n", path,
		sb_fmt_size(r->announced_blocks * bs, a, sizeof(a)), sb_fmt_size(bs, b, sizeof(b)),
		(unsigned long long)p->seed);
	fprintf(f, "  %llu blocks written, %llu read in %s%s\n",
		(unsigned long long)r->blocks_written, (unsigned long long)r->blocks_read,
		sb_fmt_ns((double)p->ns, c, sizeof(c)),
		r->io_errors ? " (some failed: counted as lost)" : "");
	if (r->interrupted) {
		fprintf(f, "result: interrupted, no finding\n");
		return;
	}
	if (r->wrap_order)
		fprintf(f, "  addresses wrap at %s (2^%d bytes)\n",
			sb_fmt_size(1ull << r->wrap_order, a, sizeof(a)), r->wrap_order);
	if (r->cache_blocks)
		fprintf(f, "  a cache of about %s in front of the medium\n",
			sb_fmt_size(r->cache_blocks * bs, a, sizeof(a)));
	if (r->kind == SB_CAPACITY_GOOD) {
		fprintf(f, "result: good, all %s usable\n", sb_fmt_size(usable, a, sizeof(a)));
		return;
	}
	fprintf(f, "result: FAKE (%s): usable %s (%llu bytes) of %s announced\n",
		sb_capacity_kind_name(r->kind), sb_fmt_size(usable, a, sizeof(a)),
		(unsigned long long)usable, sb_fmt_size(r->announced_blocks * bs, b, sizeof(b)));
	if (usable >= 512)
		fprintf(f,
			"  only sectors 0 to %llu (512 bytes) keep data: partition within them\n",
			(unsigned long long)(usable / 512 - 1));
}

/*
 * storbench verify's text as its run ends (report.h, rep_verify_run_text):
 * what was written and checked, the blocks by class and their ranges, the
 * result; each rank's line under mpirun; the fake-capacity probe's
 * finding. From the run's struct sb_verify_report, which report/ reads
 * back from a result (sb_verify_read) for its verify sections.
 */
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

void rep_verify_run_text(FILE *f, const struct rep_verify_settings *o,
			 const struct sb_verify_report *res)
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
void rep_verify_ranks_text(FILE *f, const struct sb_verify_report *v)
{
	if (!v->nranks)
		return;
	fprintf(f, "ranks:\n");
	for (unsigned i = 0; i < v->nranks; i++) {
		const struct sb_verify_rank *k = &v->ranks[i];
		uint64_t bad = 0;
		for (int c = SB_VERIFY_INTACT + 1; c < SB_VERIFY_NCLASS; c++)
			bad += k->count[c];
		struct rep_vis_ring vb = { .k = 0 };
		fprintf(f, "  rank %d on %s, '%s': ", k->rank, rep_vs(&vb, k->host),
			rep_vs(&vb, k->path));
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

/* ---- the probe ---- */

void rep_verify_probe_text(FILE *f, const char *path, const struct sb_capacity_report *p)
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

void rep_verify_jobs_ranks_text(FILE *f, const struct sb_results *res)
{
	for (size_t i = 0; i < res->njobs; i++) {
		if (res->jobs[i]->nclients)
			fprintf(f, "%s, per rank:\n", res->jobs[i]->name);
		rep_ranks_text(f, res->jobs[i]);
	}
}

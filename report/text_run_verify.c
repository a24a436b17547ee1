/*
 * run --verify's text: the counts and the bad ranges the library's check
 * found (lib/run/jobverify.c), of many ranks a line a rank.
 */
#include "report/report.h"

/* A line a rank, then which failed. */
static void ranks_text(FILE *f, const struct sb_job_verify *v)
{
	char a[32], b[32];
	unsigned failed = 0;
	for (unsigned i = 0; i < v->nranks; i++) {
		const struct sb_job_verify_rank *k = &v->ranks[i];
		failed += !!sb_job_verify_rank_failed(k);
		fprintf(f, "  rank %d on %s, '%s': ", k->rank, k->host, k->path);
		if (!k->checked) {
			fprintf(f, "not checked\n");
			continue;
		}
		fprintf(f, "%llu blocks checked, %llu not intact", (unsigned long long)k->blocks,
			(unsigned long long)(k->blocks - k->count[SB_VERIFY_INTACT]));
		for (unsigned g = 0; g < k->nranges; g++)
			fprintf(f, "%s%s at %s, %s", g ? "; " : ": ",
				sb_verify_class_name(k->ranges[g].cls),
				sb_fmt_size(k->ranges[g].offset, a, sizeof(a)),
				sb_fmt_size(k->ranges[g].length, b, sizeof(b)));
		if (k->omitted)
			fprintf(f, " and %llu more range%s", (unsigned long long)k->omitted,
				k->omitted > 1 ? "s" : "");
		fputc('\n', f);
	}
	if (!failed)
		return;
	fprintf(f, "verify: FAILED on %u of %u ranks:", failed, v->nranks);
	for (unsigned i = 0, n = 0; i < v->nranks; i++)
		if (sb_job_verify_rank_failed(&v->ranks[i]))
			fprintf(f, "%s rank %d on %s", n++ ? "," : "", v->ranks[i].rank,
				v->ranks[i].host);
	fputc('\n', f);
}

void rep_run_verify_text(FILE *f, const struct sb_job_verify *v, char *const *paths,
			 unsigned npaths)
{
	char a[32], b[32];
	if (!v->checked && !v->nranks)
		return;
	fprintf(f, "verify: %llu blocks of %u B checked, %llu not intact%s\n",
		(unsigned long long)v->blocks, v->fmt.block_size, (unsigned long long)v->bad,
		v->nranks ? ", every rank's" : "");
	if (v->nranks) {
		ranks_text(f, v);
		return;
	}
	for (unsigned i = 0; i < v->nacc; i++)
		for (size_t r = 0; r < v->acc[i].nranges; r++) {
			const struct sb_verify_range *g = &v->acc[i].ranges[r];
			fprintf(f, "  %s: %s at %s, %s\n", i < npaths ? paths[i] : "?",
				sb_verify_class_name(g->cls), sb_fmt_size(g->offset, a, sizeof(a)),
				sb_fmt_size(g->length, b, sizeof(b)));
		}
}

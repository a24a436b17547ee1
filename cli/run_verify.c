/*
 * run --verify: which workloads can be verified, and the messages and text
 * around the library's fill and check (lib/verify/job_verify.h).
 */
#include "cli/run_verify.h"

#include "lib/storbench.h"

/* 4 KiB verify blocks when every request size allows, 512 B otherwise. */
static uint32_t pick_block_size(const struct sb_job_opts *job)
{
	for (unsigned i = 0; i < (job->nbssplit ? job->nbssplit : 1); i++)
		if ((job->nbssplit ? job->bssplit[i].bs : job->bs) % 4096)
			return 512;
	return 4096;
}

int run_verify_check_opts(const struct sb_job_opts *job, const struct sb_jobtarget *t)
{
	uint32_t vb = pick_block_size(job);
	if (!sb_rw_writes(job->rw) || job->rw == SB_RW_TRIM || job->rw == SB_RW_RANDTRIM) {
		sb_err("--verify: needs a workload that writes (write, randwrite, rw, randrw), "
		       "not --rw=%s",
		       sb_rw_name(job->rw));
		return SB_EXIT_USAGE;
	}
	for (unsigned i = 0; i < (job->nbssplit ? job->nbssplit : 1); i++) {
		uint32_t bs = job->nbssplit ? job->bssplit[i].bs : job->bs;
		if (bs % 512) {
			sb_err("--verify: block sizes must be multiples of 512 bytes (%u is not)",
			       bs);
			return SB_EXIT_USAGE;
		}
	}
	if (t->region_offset % vb) {
		sb_err("--verify: --offset must be a multiple of %u bytes", vb);
		return SB_EXIT_USAGE;
	}
	return 0;
}

/* A first Ctrl-C ends a pass (the layout of a large file takes a while). */
static int stop_asked(void *ctx, uint64_t bytes_done)
{
	(void)ctx;
	(void)bytes_done;
	return cli_interrupted();
}

static int open_held(void *ctx, unsigned i, int flags)
{
	return sb_jobtarget_open(ctx, i, flags);
}

static struct sb_job_verify_files files_of(const struct sb_jobtarget *t)
{
	return (struct sb_job_verify_files){ t->paths,	     t->npaths,	     t->region_offset,
					     t->region_size, t->is_blockdev, open_held,
					     stop_asked,     (void *)t };
}

int run_verify_prepare(struct sb_job_verify *v, const struct sb_job_opts *job,
		       const struct sb_jobtarget *t)
{
	const struct sb_job_verify_files f = files_of(t);
	char msg[4352];
	if (sb_job_verify_fill(v, &f, job->seed, pick_block_size(job), job->direct, msg,
			       sizeof(msg)) < 0) {
		sb_err("--verify: %s", msg);
		return SB_EXIT_ENV;
	}
	return 0;
}

int run_verify_check(struct sb_job_verify *v, const struct sb_jobtarget *t)
{
	const struct sb_job_verify_files f = files_of(t);
	char msg[4352];
	if (sb_job_verify_check(v, &f, msg, sizeof(msg)) < 0) {
		if (msg[0])
			sb_err("--verify: %s", msg);
		else
			sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	return 0;
}

/* Many ranks: each rank's verdict to rank 0 (docs/mpi.md). */
void run_verify_ranks(struct sb_job_verify *v, const struct sb_jobtarget *t)
{
	struct sb_error er;
	if (sb_job_verify_gather(v, cli_ranks_coord(), t->npaths ? t->paths[0] : "", &er) < 0) {
		sb_err("%s", er.msg);
		cli_ranks_abort(SB_EXIT_ENV);
	}
}

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

void run_verify_text(FILE *f, const struct sb_job_verify *v, const struct sb_jobtarget *t)
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
			fprintf(f, "  %s: %s at %s, %s\n", t->paths[i],
				sb_verify_class_name(g->cls), sb_fmt_size(g->offset, a, sizeof(a)),
				sb_fmt_size(g->length, b, sizeof(b)));
		}
}

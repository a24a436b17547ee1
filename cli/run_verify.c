/*
 * run --verify: prove that a write workload's data came back. The region
 * is first filled with verify blocks (unmeasured), the workload then writes
 * verify blocks too (the same ones a block always gets: seed, offset and
 * generation 1), and afterwards every block of the region is read back and
 * classified. Any pattern, distribution or mix works, because every block
 * is valid before the workload starts and stays valid if written right.
 */
#include "cli/run_verify.h"
#include "cli/verify.h"

#include <fcntl.h>
#include <unistd.h>

#include "lib/storbench.h"

#define REQUEST (1u << 20)
#define MAX_RANGES 100

/* 4 KiB verify blocks when every request size allows, 512 B otherwise. */
static uint32_t pick_block_size(const struct sb_job_opts *job)
{
	for (unsigned i = 0; i < (job->nbssplit ? job->nbssplit : 1); i++)
		if ((job->nbssplit ? job->bssplit[i].bs : job->bs) % 4096)
			return 512;
	return 4096;
}

int run_verify_check_opts(const struct sb_job_opts *job, const struct cli_target *t)
{
	uint32_t vb = pick_block_size(job);
	if (!sb_rw_writes(job->rw) || job->rw == SB_RW_TRIM || job->rw == SB_RW_RANDTRIM) {
		sb_err("--verify: needs a workload that writes (write, randwrite, rw, randrw), "
		       "not --rw=%s", sb_rw_name(job->rw));
		return SB_EXIT_USAGE;
	}
	for (unsigned i = 0; i < (job->nbssplit ? job->nbssplit : 1); i++) {
		uint32_t bs = job->nbssplit ? job->bssplit[i].bs : job->bs;
		if (bs % 512) {
			sb_err("--verify: block sizes must be multiples of 512 bytes (%u is not)", bs);
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

static int pass(const struct cli_target *t, unsigned i, struct run_verify *v, int write,
		struct sb_verify_acc *acc, struct sb_verify_pass_result *res)
{
	int fl = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | (v->direct ? O_DIRECT : 0);
	int fd = cli_target_open(t, i, fl);
	if (fd < 0)
		return fd;
	if (!write)
		sb_cache_drop(fd);
	const struct sb_verify_pass p = {
		.fd = fd, .engine = sb_engine_find("psync"), .depth = 1,
		.request_size = REQUEST / v->fmt.block_size * v->fmt.block_size,
		.is_blockdev = t->is_blockdev, .offset = t->region_offset,
		.size = t->region_size / v->fmt.block_size * v->fmt.block_size, .base = 0,
		.fmt = &v->fmt, .write = write, .progress = stop_asked,
	};
	int e = sb_verify_pass_run(&p, acc, res);
	close(fd);
	return e;
}

int run_verify_prepare(struct run_verify *v, const struct sb_job_opts *job,
		       const struct cli_target *t)
{
	struct sb_verify_pass_result res;
	memset(v, 0, sizeof(*v));
	v->direct = job->direct;
	v->npaths = t->npaths;
	sb_verify_fmt_init(&v->fmt, job->seed, 1, pick_block_size(job));
	for (unsigned i = 0; i < t->npaths; i++) {
		int e = pass(t, i, v, 1, NULL, &res);
		if (e < 0 || res.errors) {
			sb_err("--verify: cannot lay out '%s': %s", t->paths[i],
			       strerror(e < 0 ? -e : res.first_error));
			return SB_EXIT_ENV;
		}
	}
	return 0;
}

int run_verify_check(struct run_verify *v, const struct cli_target *t)
{
	struct sb_verify_pass_result res;
	for (unsigned i = 0; i < t->npaths && i < RUN_VERIFY_MAX_FILES; i++) {
		if (sb_verify_acc_init(&v->acc[i], v->fmt.block_size, MAX_RANGES) < 0) {
			sb_err("out of memory");
			return SB_EXIT_ENV;
		}
		v->nacc = i + 1;
		int e = pass(t, i, v, 0, &v->acc[i], &res);
		if (e < 0) {
			sb_err("--verify: cannot check '%s': %s", t->paths[i], strerror(-e));
			return SB_EXIT_ENV;
		}
		sb_verify_acc_finish(&v->acc[i]);
		v->bad += sb_verify_acc_bad(&v->acc[i]);
		v->blocks += v->acc[i].blocks;
	}
	v->checked = 1;
	return 0;
}

void run_verify_free(struct run_verify *v)
{
	for (unsigned i = 0; i < v->nacc; i++)
		sb_verify_acc_free(&v->acc[i]);
	v->nacc = 0;
}

void run_verify_text(FILE *f, const struct run_verify *v, const struct cli_target *t)
{
	char a[32], b[32];
	if (!v->checked)
		return;
	fprintf(f, "verify: %llu blocks of %u B checked, %llu not intact\n",
		(unsigned long long)v->blocks, v->fmt.block_size, (unsigned long long)v->bad);
	for (unsigned i = 0; i < v->nacc; i++)
		for (size_t r = 0; r < v->acc[i].nranges; r++) {
			const struct sb_verify_range *g = &v->acc[i].ranges[r];
			fprintf(f, "  %s: %s at %s, %s\n", t->paths[i], sb_verify_class_name(g->cls),
				sb_fmt_size(g->offset, a, sizeof(a)),
				sb_fmt_size(g->length, b, sizeof(b)));
		}
}

/* The results' "verify" section (an extra_json hook). */
void run_verify_json(struct sb_json *j, const void *ctx)
{
	const struct run_verify *v = ctx;
	uint64_t count[SB_VERIFY_NCLASS] = { 0 }, omitted = 0;
	for (unsigned i = 0; i < v->nacc; i++) {
		for (int c = 0; c < SB_VERIFY_NCLASS; c++)
			count[c] += v->acc[i].count[c];
		omitted += v->acc[i].omitted;
	}
	sb_json_u64(j, "block_size", v->fmt.block_size);
	sb_json_u64(j, "seed", v->fmt.seed);
	sb_json_u64(j, "blocks_checked", v->blocks);
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		sb_json_u64(j, sb_verify_class_name(c), count[c]);
	sb_json_arr_open(j, "bad_ranges");
	for (unsigned i = 0; i < v->nacc; i++)
		for (size_t r = 0; r < v->acc[i].nranges; r++)
			verify_range_json(j, &v->acc[i].ranges[r], (int)i);
	sb_json_arr_close(j);
	sb_json_u64(j, "bad_ranges_omitted", omitted);
}

/* run --verify: the fill before the workload and the check after it
 * (lib/verify/job_verify.h), one sequential pass per file. */
#include "lib/verify/job_verify.h"
#include "lib/engine/engine.h"
#include "lib/verify/verify_ranks.h"
#include "lib/target/cache.h"
#include "lib/verify/seqpass.h"

#include <fcntl.h>
#include <unistd.h>

#define REQUEST (1u << 20)
#define MAX_RANGES 100

/* The pass over [off, off + size) of file i (off from the start of its
 * region when write is 0 and the map is kept: the bit of off's block). */
static int pass_part(const struct sb_job_verify_files *f, unsigned i, struct sb_job_verify *v,
		     int write, struct sb_verify_acc *acc, uint64_t off, uint64_t size,
		     struct sb_verify_pass_result *res)
{
	int fl = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | (v->direct ? O_DIRECT : 0);
	/* a write goes through the caller's (the write gate's), never a name */
	if (!f->open && write)
		return -EPERM;
	int fd = f->open ? f->open(f->ctx, i, fl) : open(f->paths[i], fl);
	if (fd < 0)
		return f->open ? fd : -errno;
	if (!write)
		sb_cache_drop(fd);
	const uint64_t start = f->sizes ? 0 : f->offset;
	const struct sb_verify_pass p = {
		.fd = fd,
		.engine = sb_engine_find("psync"),
		.depth = 1,
		.request_size = v->read_size ? v->read_size
					     : REQUEST / v->fmt.block_size * v->fmt.block_size,
		.is_blockdev = f->is_blockdev,
		.offset = start + off,
		.size = size / v->fmt.block_size * v->fmt.block_size,
		.base = 0,
		.fmt = &v->fmt,
		.write = write,
		.written = write ? NULL : v->written[i],
		.written_first = off / v->fmt.block_size,
		.progress = f->stop,
		.ctx = f->ctx,
	};
	int e = sb_verify_pass_run(&p, acc, res);
	close(fd);
	return e;
}

static int pass(const struct sb_job_verify_files *f, unsigned i, struct sb_job_verify *v, int write,
		struct sb_verify_acc *acc, struct sb_verify_pass_result *res)
{
	return pass_part(f, i, v, write, acc, 0, f->sizes ? f->sizes[i] : f->size, res);
}

/* A check pass's timed reads, to the whole and to clone c's part. */
static void timed_add(struct sb_job_verify *v, unsigned c, const struct sb_verify_pass_result *res)
{
	sb_hist_merge(&v->lat, &res->lat);
	v->timed_bytes += res->timed_bytes;
	if (c < v->nparts) {
		sb_hist_merge(&v->parts[c].lat, &res->lat);
		v->parts[c].timed_bytes += res->timed_bytes;
		v->parts[c].ns += res->ns;
	}
}

/* File i checked into v->acc[i]: whole (its clone's part, several files),
 * or clone by clone (one file, part_span). */
static int check_file(struct sb_job_verify *v, const struct sb_job_verify_files *f, unsigned i)
{
	struct sb_verify_pass_result res;
	const uint64_t size = f->sizes ? f->sizes[i] : f->size;
	const uint64_t span = f->part_span / v->fmt.block_size * v->fmt.block_size;
	if (v->nparts < 2 || f->npaths > 1 || !span) {
		const int e = pass(f, i, v, 0, &v->acc[i], &res);
		if (!e)
			timed_add(v, v->nparts ? i / SB_MAX(f->npaths / v->nparts, 1u) : 0, &res);
		return e;
	}
	for (unsigned c = 0; c < v->nparts; c++) {
		const uint64_t off = c * span;
		if (off >= size)
			break;
		const uint64_t len = c + 1 == v->nparts ? size - off : SB_MIN(span, size - off);
		const int e = pass_part(f, i, v, 0, &v->acc[i], off, len, &res);
		if (e)
			return e;
		timed_add(v, c, &res);
	}
	return 0;
}

int sb_job_verify_fill(struct sb_job_verify *v, const struct sb_job_verify_files *f, uint64_t seed,
		       uint32_t block_size, int direct, char *msg, size_t ml)
{
	struct sb_verify_pass_result res;
	memset(v, 0, sizeof(*v));
	v->direct = direct;
	sb_hist_init(&v->lat);
	sb_verify_fmt_init(&v->fmt, seed, 1, block_size);
	for (unsigned i = 0; i < f->npaths; i++) {
		int e = pass(f, i, v, 1, NULL, &res);
		if (e < 0 || res.errors) {
			e = e < 0 ? e : res.first_error ? -res.first_error : -EIO;
			snprintf(msg, ml, "cannot lay out '%s': %s", f->paths[i], strerror(-e));
			return e;
		}
	}
	return 0;
}

void sb_job_verify_expect(struct sb_job_verify *v, const struct sb_verify_fmt *fmt, int direct)
{
	memset(v, 0, sizeof(*v));
	v->direct = direct;
	sb_hist_init(&v->lat);
	v->fmt = *fmt;
}

/* A rank's part: k += x (its ranges while there is room). */
static void rank_absorb(struct sb_job_verify_rank *k, const struct sb_job_verify_rank *x)
{
	k->blocks += x->blocks;
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		k->count[c] += x->count[c];
	k->checked &= x->checked;
	k->nfiles = SB_MAX(k->nfiles, x->nfiles);
	k->seed = x->seed;
	k->omitted += x->omitted;
	for (unsigned g = 0; g < x->nranges; g++) {
		if (k->nranges == SB_JOB_VERIFY_RANK_RANGES) {
			k->omitted += x->nranges - g;
			break;
		}
		k->ranges[k->nranges] = x->ranges[g];
		k->file[k->nranges++] = x->file[g];
	}
}

int sb_job_verify_absorb(struct sb_job_verify *dst, struct sb_job_verify *src)
{
	int e = 0;
	for (unsigned i = 0; i < src->nacc; i++) {
		if (i >= dst->nacc) { /* a file dst did not have: src's accumulator */
			dst->acc[i] = src->acc[i];
			memset(&src->acc[i], 0, sizeof(src->acc[i]));
			dst->nacc = i + 1;
		} else if (sb_verify_acc_merge(&dst->acc[i], &src->acc[i]) < 0) {
			e = -ENOMEM;
			dst->acc[i].blocks += src->acc[i].blocks;
			for (int c = 0; c < SB_VERIFY_NCLASS; c++)
				dst->acc[i].count[c] += src->acc[i].count[c];
			dst->acc[i].omitted += src->acc[i].nranges + src->acc[i].omitted;
		}
	}
	for (unsigned k = 0; k < src->nranks && k < dst->nranks; k++)
		rank_absorb(&dst->ranks[k], &src->ranks[k]);
	dst->blocks += src->blocks;
	dst->bad += src->bad;
	dst->checked &= src->checked;
	dst->fmt = src->fmt;
	sb_job_verify_free(src);
	return e;
}

int sb_job_verify_check(struct sb_job_verify *v, const struct sb_job_verify_files *f, char *msg,
			size_t ml)
{
	if (f->nparts > 1 && !v->parts) {
		if (!(v->parts = calloc(f->nparts, sizeof(*v->parts)))) {
			if (ml)
				msg[0] = 0;
			return -ENOMEM;
		}
		v->nparts = f->nparts;
		for (unsigned c = 0; c < v->nparts; c++)
			sb_hist_init(&v->parts[c].lat);
	}
	for (unsigned i = 0; i < f->npaths && i < SB_JOB_VERIFY_MAX_FILES; i++) {
		if (sb_verify_acc_init(&v->acc[i], v->fmt.block_size, MAX_RANGES) < 0) {
			if (ml)
				msg[0] = 0;
			return -ENOMEM;
		}
		v->nacc = i + 1;
		int e = check_file(v, f, i);
		if (e < 0) {
			snprintf(msg, ml, "cannot check '%s': %s", f->paths[i], strerror(-e));
			return e;
		}
		sb_verify_acc_finish(&v->acc[i]);
		v->bad += sb_verify_acc_bad(&v->acc[i]);
		v->blocks += v->acc[i].blocks;
	}
	v->checked = 1;
	return 0;
}

int sb_job_verify_track(struct sb_job_verify *v, const struct sb_job_verify_files *f)
{
	for (unsigned i = 0; i < f->npaths && i < SB_JOB_VERIFY_MAX_FILES; i++) {
		const uint64_t size = f->sizes ? f->sizes[i] : f->size;
		const uint64_t words = (size / v->fmt.block_size + 63) / 64;
		if (!(v->written[i] = calloc(words ? words : 1, sizeof(uint64_t))))
			return -ENOMEM;
	}
	return 0;
}

void sb_job_verify_free(struct sb_job_verify *v)
{
	for (unsigned i = 0; i < SB_JOB_VERIFY_MAX_FILES; i++) {
		free(v->written[i]);
		v->written[i] = NULL;
	}
	for (unsigned i = 0; i < v->nacc; i++)
		sb_verify_acc_free(&v->acc[i]);
	v->nacc = 0;
	free(v->ranks);
	v->ranks = NULL;
	v->nranks = 0;
	free(v->parts);
	v->parts = NULL;
	v->nparts = 0;
}

void sb_job_verify_rank_of(const struct sb_job_verify *v, struct sb_job_verify_rank *out)
{
	memset(out, 0, sizeof(*out));
	out->nfiles = v->nacc;
	out->seed = v->fmt.seed;
	out->blocks = v->blocks;
	out->checked = v->checked;
	for (unsigned i = 0; i < v->nacc; i++) {
		const struct sb_verify_acc *a = &v->acc[i];
		for (int c = 0; c < SB_VERIFY_NCLASS; c++)
			out->count[c] += a->count[c];
		out->omitted += a->omitted;
		for (size_t r = 0; r < a->nranges; r++) {
			if (out->nranges == SB_JOB_VERIFY_RANK_RANGES) {
				out->omitted++;
				continue;
			}
			out->file[out->nranges] = i;
			out->ranges[out->nranges++] = a->ranges[r];
		}
	}
}

int sb_job_verify_rank_failed(const struct sb_job_verify_rank *k)
{
	return !k->checked || k->count[SB_VERIFY_INTACT] < k->blocks;
}

void sb_job_verify_set_ranks(struct sb_job_verify *v, struct sb_job_verify_rank *all, unsigned n)
{
	free(v->ranks);
	v->ranks = all;
	v->nranks = n;
	v->blocks = v->bad = 0;
	v->checked = n > 0;
	for (unsigned k = 0; k < n; k++) {
		v->blocks += all[k].blocks;
		v->bad += all[k].blocks - all[k].count[SB_VERIFY_INTACT];
		v->checked &= !!all[k].checked;
	}
}

int sb_job_verify_gather(struct sb_job_verify *v, struct sb_coord *c, const char *path,
			 struct sb_error *err)
{
	const int n = sb_coord_size(c);
	struct sb_job_verify_rank mine, *all;
	if (n < 2)
		return 0;
	sb_job_verify_rank_of(v, &mine);
	mine.rank = sb_coord_rank(c);
	snprintf(mine.host, sizeof(mine.host), "%s", sb_coord_host(c));
	snprintf(mine.path, sizeof(mine.path), "%s", path);
	const int e = sb_vranks_gather_parts(c, &mine, sizeof(mine), (void **)&all, err);
	if (!e && all)
		sb_job_verify_set_ranks(v, all, (unsigned)n);
	return e;
}

/* What a verify run asks of the ranks (verify_ranks.h). */
#include "lib/verify/verify_ranks.h"

int sb_vranks_worst(struct sb_coord *c, long *v, struct sb_error *err)
{
	const int e = sb_coord_size(c) > 1 ? sb_coord_max(c, v, 1, SB_VRANKS_TIMEOUT_S) : 0;
	return e ? sb_coord_lost(err, "agreeing", e) : 0;
}

/* This rank's part of r. */
static void part_of(struct sb_coord *c, const struct sb_verify_report *v, struct sb_verify_rank *k)
{
	memset(k, 0, sizeof(*k));
	k->rank = sb_coord_rank(c);
	snprintf(k->host, sizeof(k->host), "%s", sb_coord_host(c));
	snprintf(k->path, sizeof(k->path), "%s", v->t->path);
	k->bytes_written = v->wr.bytes;
	k->bytes_checked = v->rd.bytes;
	k->blocks = v->acc.blocks;
	memcpy(k->count, v->acc.count, sizeof(k->count));
	k->write_errors = v->wr.errors;
	k->missing_blocks = v->missing_blocks;
	k->failed = v->failed != 0;
	k->interrupted = v->wr.interrupted || v->rd.interrupted;
	k->nranges = (unsigned)SB_MIN(v->acc.nranges, (size_t)SB_VERIFY_RANK_RANGES);
	memcpy(k->ranges, v->acc.ranges, k->nranges * sizeof(k->ranges[0]));
	k->omitted = v->acc.omitted + (v->acc.nranges - k->nranges);
}

/* Rank 0: the sums; its own ranges are in its part. */
static void sum_parts(struct sb_verify_report *v, const struct sb_verify_rank *all, int n)
{
	memset(v->acc.count, 0, sizeof(v->acc.count));
	v->acc.blocks = v->missing_blocks = 0;
	v->acc.nranges = 0;
	v->acc.omitted = 0;
	for (int k = 0; k < n; k++) {
		const struct sb_verify_rank *p = &all[k];
		for (int c = 0; c < SB_VERIFY_NCLASS; c++)
			v->acc.count[c] += p->count[c];
		v->acc.blocks += p->blocks;
		v->acc.omitted += p->nranges + p->omitted;
		v->missing_blocks += p->missing_blocks;
		if (!k)
			continue;
		v->wr.bytes += p->bytes_written;
		v->rd.bytes += p->bytes_checked;
		v->wr.errors += p->write_errors;
		v->wr.interrupted |= p->interrupted;
		if (p->failed && !v->failed) {
			v->failed = -EIO;
			snprintf(v->failure, sizeof(v->failure), "rank %d on %s failed", p->rank,
				 p->host);
		}
	}
	v->ranks = all;
	v->nranks = (unsigned)n;
}

int sb_vranks_gather_parts(struct sb_coord *c, const void *mine, size_t len, void **all,
			   struct sb_error *err)
{
	const int n = sb_coord_size(c);
	*all = NULL;
	if (sb_coord_rank(c) == 0 && !(*all = calloc((size_t)n, len)))
		return sb_coord_lost(err, "gathering the results", -ENOMEM);
	const int e = n > 1 ? sb_coord_gather(c, mine, len, *all, SB_VRANKS_TIMEOUT_S) : 0;
	if (!e) {
		if (n < 2)
			memcpy(*all, mine, len);
		return 0;
	}
	free(*all);
	*all = NULL;
	return sb_coord_lost(err, "gathering the results", e);
}

int sb_vranks_gather(struct sb_coord *c, struct sb_verify_report *r, struct sb_error *err)
{
	struct sb_verify_rank mine;
	void *all;
	if (sb_coord_size(c) < 2)
		return 0;
	part_of(c, r, &mine);
	const int e = sb_vranks_gather_parts(c, &mine, sizeof(mine), &all, err);
	if (!e && all)
		sum_parts(r, all, sb_coord_size(c));
	return e;
}

/* Verify results: checking blocks read into an accumulator, and merging the
 * bad ones into a capped list of ranges. */
#include "lib/verify/ranges.h"

int sb_verify_acc_init(struct sb_verify_acc *a, uint32_t block_size, size_t max_ranges)
{
	memset(a, 0, sizeof(*a));
	a->block_size = block_size;
	a->max_ranges = max_ranges;
	if (max_ranges) {
		a->ranges = calloc(max_ranges, sizeof(*a->ranges));
		if (!a->ranges)
			return -ENOMEM;
	}
	return 0;
}

void sb_verify_acc_free(struct sb_verify_acc *a)
{
	if (!a)
		return;
	free(a->ranges);
	a->ranges = NULL;
	a->nranges = 0;
}

/* May b follow a in one range? */
static int joins(const struct sb_verify_range *a, const struct sb_verify_range *b)
{
	if (a->cls != b->cls || b->offset != a->offset + a->length)
		return 0;
	switch (a->cls) {
	case SB_VERIFY_MISPLACED:
		return b->expected_offset == a->expected_offset + a->length &&
		       b->generation == a->generation;
	case SB_VERIFY_STALE:
	case SB_VERIFY_NEWER: return b->generation == a->generation;
	case SB_VERIFY_UNREADABLE: return b->err == a->err;
	default: return 1;
	}
}

static void keep(struct sb_verify_acc *a, const struct sb_verify_range *r)
{
	if (a->nranges < a->max_ranges)
		a->ranges[a->nranges++] = *r;
	else
		a->omitted++;
}

void sb_verify_acc_add_bad(struct sb_verify_acc *a, uint64_t offset, uint64_t nblocks,
			   const struct sb_verify_finding *f)
{
	const struct sb_verify_range r = {
		.offset = offset,
		.length = nblocks * a->block_size,
		.expected_offset = f->cls == SB_VERIFY_MISPLACED ? f->expected_offset : 0,
		.generation = f->cls == SB_VERIFY_MISPLACED || f->cls == SB_VERIFY_STALE ||
					      f->cls == SB_VERIFY_NEWER
				      ? f->generation
				      : 0,
		.cls = f->cls,
		.err = f->cls == SB_VERIFY_UNREADABLE ? f->err : 0,
	};

	if (a->have_open && joins(&a->open, &r)) {
		a->open.length += r.length;
		return;
	}
	if (a->have_open)
		keep(a, &a->open);
	a->open = r;
	a->have_open = 1;
}

void sb_verify_acc_finish(struct sb_verify_acc *a)
{
	if (a->have_open)
		keep(a, &a->open);
	a->have_open = 0;
}

uint64_t sb_verify_acc_bad(const struct sb_verify_acc *a)
{
	return a->blocks - a->count[SB_VERIFY_INTACT];
}

static int by_offset(const void *x, const void *y)
{
	const struct sb_verify_range *a = x, *b = y;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

int sb_verify_acc_merge(struct sb_verify_acc *dst, struct sb_verify_acc *src)
{
	struct sb_verify_range *all = NULL;
	size_t n;

	sb_verify_acc_finish(dst);
	sb_verify_acc_finish(src);
	n = dst->nranges + src->nranges;
	if (n && !(all = malloc(n * sizeof(*all))))
		return -ENOMEM;
	if (dst->nranges)
		memcpy(all, dst->ranges, dst->nranges * sizeof(*all));
	if (src->nranges)
		memcpy(all + dst->nranges, src->ranges, src->nranges * sizeof(*all));
	if (n) /* no ranges: no list (qsort of NULL is undefined) */
		qsort(all, n, sizeof(*all), by_offset);
	dst->blocks += src->blocks;
	for (int c = 0; c < SB_VERIFY_NCLASS; c++)
		dst->count[c] += src->count[c];
	dst->omitted += src->omitted;
	dst->nranges = 0;
	/* the open-range machinery merges neighbours; omitted ranges were
	 * never listed and stay counted */
	for (size_t i = 0; i < n; i++) {
		if (dst->have_open && joins(&dst->open, &all[i])) {
			dst->open.length += all[i].length;
			continue;
		}
		if (dst->have_open)
			keep(dst, &dst->open);
		dst->open = all[i];
		dst->have_open = 1;
	}
	sb_verify_acc_finish(dst);
	free(all);
	return 0;
}

uint64_t sb_verify_check(const struct sb_verify_fmt *f, const void *buf, size_t len,
			 uint64_t offset, struct sb_verify_acc *acc)
{
	const unsigned char *p = buf;
	const uint32_t bs = f->block_size;
	uint64_t bad = 0;

	for (size_t i = 0; i + bs <= len; i += bs) {
		struct sb_verify_finding fd;

		if (sb_verify_check_block(f, p + i, offset + i, &fd) != SB_VERIFY_INTACT)
			bad++;
		sb_verify_acc_add(acc, offset + i, 1, &fd);
	}
	return bad;
}

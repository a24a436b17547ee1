/* A soak iteration's record: what makes it a failure, and the array of
 * them that a soak and a resumed log keep. */
#include "lib/soak/soak_record.h"

uint64_t sb_soak_iter_bad(const struct sb_soak_iter *it)
{
	uint64_t bad = 0;
	for (int c = 1; c < SB_VERIFY_NCLASS; c++)
		bad += it->count[c];
	return bad;
}

int sb_soak_iter_failed(const struct sb_soak_iter *it)
{
	return sb_soak_iter_bad(it) || it->io_errors || it->nkmsg || it->kmsg_omitted;
}

int sb_soak_iter_append(struct sb_soak_iter **v, size_t *n, size_t *cap,
			const struct sb_soak_iter *it)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct sb_soak_iter *nv = realloc(*v, c * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = *it;
	return 0;
}

void sb_soak_iters_free(struct sb_soak_iter *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].cells);
	free(v);
}

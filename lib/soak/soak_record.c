/* A soak iteration's record: what makes it a failure, and the array of
 * them that a soak and a resumed log keep. */
#include "lib/soak/soak_record.h"

void sb_soak_cut_text(char *dst, size_t len, const char *src)
{
	static const char dots[] = "...";
	size_t n = strlen(src), at;
	if (!len)
		return;
	if (n < len) {
		memcpy(dst, src, n + 1);
		return;
	}
	if (len < sizeof(dots)) {
		dst[0] = 0;
		return;
	}
	at = len - sizeof(dots); /* room for the dots and the end */
	/* back to a space that ends a word, unless the only word is longer
	 * than the room: then at a character's first byte */
	size_t sp = at;
	while (sp > 0 && src[sp] != ' ')
		sp--;
	if (sp > 0)
		at = sp;
	else
		while (at > 0 && ((unsigned char)src[at] & 0xC0) == 0x80)
			at--;
	while (at > 0 && (src[at - 1] == ' ' || src[at - 1] == ',' || src[at - 1] == ':' ||
			  src[at - 1] == ';'))
		at--;
	memcpy(dst, src, at);
	memcpy(dst + at, dots, sizeof(dots));
}

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

void sb_soak_iter_release(struct sb_soak_iter *it)
{
	free(it->cells);
	free(it->kother);
	it->cells = NULL;
	it->kother = NULL;
	it->ncells = it->nkother = 0;
}

void sb_soak_iters_free(struct sb_soak_iter *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		sb_soak_iter_release(&v[i]);
	free(v);
}

void sb_soak_iter_add_other(struct sb_soak_iter *it, const struct sb_soak_kline *l)
{
	if (!it->kother && !(it->kother = calloc(SB_SOAK_MAX_KMSG, sizeof(*it->kother)))) {
		it->kother_omitted++;
		return;
	}
	if (it->nkother == SB_SOAK_MAX_KMSG) {
		it->kother_omitted++;
		return;
	}
	it->kother[it->nkother++] = *l;
}

static void lat3(const struct sb_hist *h, uint64_t out[3])
{
	if (!h || !h->count)
		return;
	out[0] = sb_hist_percentile(h, 50);
	out[1] = sb_hist_percentile(h, 99);
	out[2] = h->max;
}

/* bytes over the span of the phase on every rank that ran it */
static double phase_bw(const struct sb_soak_rank *r, unsigned n, int write)
{
	double t0 = 0, t1 = 0, bytes = 0, shared = 0;
	int any = 0;
	for (unsigned i = 0; i < n; i++) {
		const double a = write ? r[i].wstart_s : r[i].rstart_s;
		const double b = write ? r[i].wend_s : r[i].rend_s;
		if (b <= a)
			continue;
		t0 = any && t0 < a ? t0 : a;
		t1 = any && t1 > b ? t1 : b;
		any = 1;
		bytes += (double)(write ? r[i].write_bytes : r[i].read_bytes);
		if (write)
			shared = SB_MAX(shared, r[i].wshared_s);
	}
	/* --burst: the pauses of all ranks are not timed, as a rank's own */
	if (any && shared > 0 && t1 - t0 > shared)
		t1 -= shared;
	return any && t1 > t0 ? bytes / (t1 - t0) : 0;
}

void sb_soak_iter_aggregate(struct sb_soak_iter *out, const struct sb_soak_rank *r, unsigned n,
			    const struct sb_hist *wh, const struct sb_hist *rh)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	double t0 = r[0].start_s, t1 = r[0].end_s;
	out->n = r[0].it.n;
	out->cache = r[0].it.cache;
	for (unsigned i = 0; i < n; i++) {
		const struct sb_soak_iter *it = &r[i].it;
		t0 = SB_MIN(t0, r[i].start_s);
		t1 = SB_MAX(t1, r[i].end_s);
		out->blocks += it->blocks;
		for (int c = 0; c < SB_VERIFY_NCLASS; c++)
			out->count[c] += it->count[c];
		out->ranges_omitted += it->nranges + it->ranges_omitted;
		out->io_errors += it->io_errors;
		out->unwritten += it->unwritten;
		if (it->first_errno && !out->first_errno) {
			out->first_errno = it->first_errno;
			out->first_error_offset = it->first_error_offset;
		}
		for (size_t k = 0; k < it->nkmsg; k++) {
			if (out->nkmsg == SB_SOAK_MAX_KMSG) {
				out->kmsg_omitted++;
				continue;
			}
			struct sb_soak_kline *l = &out->kmsg[out->nkmsg++];
			*l = it->kmsg[k];
			char t[sizeof(l->text) + 32];
			snprintf(t, sizeof(t), "rank %d: %s", r[i].rank, it->kmsg[k].text);
			sb_soak_cut_text(l->text, sizeof(l->text), t);
		}
		out->kmsg_omitted += it->kmsg_omitted;
		/* the lines about other devices stay in each rank's own log */
		out->kother_omitted += it->nkother + it->kother_omitted;
		out->interrupted |= it->interrupted;
	}
	const double base = (double)r[0].it.start_ns;
	out->start_ns = (uint64_t)(base + (t0 - r[0].start_s) * 1e9);
	out->end_ns = (uint64_t)(base + (t1 - r[0].start_s) * 1e9);
	out->write_bw = phase_bw(r, n, 1);
	out->read_bw = phase_bw(r, n, 0);
	lat3(wh, out->wlat);
	lat3(rh, out->rlat);
}

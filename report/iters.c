/*
 * A soak's iterations as the report keeps them: per iteration only the
 * figures the charts and the analysis take (throughput, I/O errors, kernel
 * lines, bad blocks, whether it was interrupted or failed), each in an
 * array of its own, and for the iterations where something went wrong
 * what it was, in words, for the first REP_EVENT_TEXTS of them.
 */
#include "report/report.h"

#include <math.h>

#define TEXT_LEN REP_LEAD_LEN

/* Made whole in a buffer of its own, then cut at a word with an
 * ellipsis (sb_soak_cut_text) when longer than len. */
void rep_trouble_text(const struct sb_soak_iter *it, char *out, size_t len)
{
	const double errs = (double)it->io_errors, bad = (double)sb_soak_iter_bad(it);
	char a[32], buf[4096];
	size_t at = 0;
	const size_t blen = sizeof(buf);
	buf[0] = 0;
#define ADD(...) (at < blen ? (at += (size_t)snprintf(buf + at, blen - at, __VA_ARGS__)) : 0)
	if (errs > 0) {
		ADD("%.0f I/O error%s", errs, errs == 1 ? "" : "s");
		if (it->first_errno)
			ADD(" (first errno %d at %s)", it->first_errno,
			    sb_fmt_size(it->first_error_offset, a, sizeof(a)));
	}
	if (bad > 0)
		ADD("%s%.0f bad block%s", at ? "; " : "", bad, bad == 1 ? "" : "s");
	for (size_t i = 0; i < it->nkmsg; i++)
		ADD("%s%s: %s", at ? "; " : "", rep_or(it->kmsg[i].category, "?"),
		    it->kmsg[i].text);
	if (it->kmsg_omitted)
		ADD("%s%zu more kernel messages", at ? "; " : "", it->kmsg_omitted);
	if (!at && it->failed)
		ADD("failed");
#undef ADD
	sb_soak_cut_text(out, len, buf);
}

const char *rep_event_text(const struct rep_iters *it, const struct rep_event *e, char *buf,
			   size_t len)
{
	if (e->text != SIZE_MAX)
		return it->text + e->text;
	size_t i = e->i, at = 0;
	buf[0] = 0;
#define ADD(...) (at < len ? (at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__)) : 0)
	if (it->errors[i] > 0)
		ADD("%.0f I/O error%s", it->errors[i], it->errors[i] == 1 ? "" : "s");
	if (it->bad[i] > 0)
		ADD("%s%.0f bad block%s", at ? "; " : "", it->bad[i], it->bad[i] == 1 ? "" : "s");
	if (it->kmsg[i] > 0)
		ADD("%s%.0f kernel message%s", at ? "; " : "", it->kmsg[i],
		    it->kmsg[i] == 1 ? "" : "s");
	if (!at)
		ADD("failed");
#undef ADD
	return buf;
}

double rep_finite_median(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));
	size_t m = 0;
	if (!c)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			c[m++] = v[i];
	const double r = m ? sb_median_inplace(c, m) : NAN;
	free(c);
	return r;
}

int rep_grow(void **p, size_t size, size_t cap)
{
	void *v = realloc(*p, size * cap);
	if (!v)
		return -ENOMEM;
	*p = v;
	return 0;
}

static int room(struct rep_iters *it)
{
	if (it->n < it->cap)
		return 0;
	size_t cap = it->cap ? it->cap * 2 : 1024;
	double **arrays[] = { &it->x,	 &it->bw[0], &it->bw[1], &it->errors,
			      &it->kmsg, &it->bad,   &it->start };
	for (size_t i = 0; i < SB_ARRAY_SIZE(arrays); i++)
		if (rep_grow((void **)arrays[i], sizeof(double), cap) < 0)
			return -ENOMEM;
	if (rep_grow((void **)&it->flags, 1, cap) < 0)
		return -ENOMEM;
	for (size_t j = 0; j < it->ncs; j++)
		if (rep_grow((void **)&it->cs[j].v, sizeof(double), cap) < 0)
			return -ENOMEM;
	it->cap = cap;
	return 0;
}

/* The series of cell (test, file size, record size), made (NaN before this
 * iteration) when new; hint: where it is when cells come in the same
 * order as before. NULL: out of memory. */
static struct rep_cellser *cell_series(struct rep_iters *it, int test, double fs, double rs,
				       size_t hint)
{
	for (size_t j = hint; j < it->ncs + hint; j++) {
		struct rep_cellser *c = &it->cs[j % it->ncs];
		if (c->test == test && c->file_size == fs && c->record_size == rs)
			return c;
	}
	if (it->ncs == it->capcs) {
		size_t cap = it->capcs ? it->capcs * 2 : 16;
		if (rep_grow((void **)&it->cs, sizeof(*it->cs), cap) < 0)
			return NULL;
		it->capcs = cap;
	}
	struct rep_cellser *c = &it->cs[it->ncs];
	*c = (struct rep_cellser){ test, fs, rs, malloc(it->cap * sizeof(double)) };
	if (!c->v)
		return NULL;
	for (size_t i = 0; i < it->cap; i++)
		c->v[i] = NAN;
	it->ncs++;
	return c;
}

/* An iteration's cells (soak --workload=iozone) into the series. 0 or
 * -ENOMEM. */
static int take_cells(struct rep_iters *it, size_t i, const struct sb_soak_iter *r)
{
	for (size_t k = 0; k < r->ncells; k++) {
		const struct sb_soak_cell *c = &r->cells[k];
		struct rep_cellser *s = cell_series(it, c->test, (double)c->file_size,
						    (double)c->record_size,
						    it->ncs ? k % it->ncs : 0);
		if (!s)
			return -ENOMEM;
		s->v[i] = c->kibps;
	}
	return 0;
}

static int add_event(struct rep_iters *it, const struct sb_soak_iter *r)
{
	char text[TEXT_LEN];
	struct rep_event e = { it->n, SIZE_MAX };
	if (it->nev == it->capev) {
		size_t cap = it->capev ? it->capev * 2 : 64;
		if (rep_grow((void **)&it->ev, sizeof(*it->ev), cap) < 0)
			return -ENOMEM;
		it->capev = cap;
	}
	if (it->nev < REP_EVENT_TEXTS) {
		rep_trouble_text(r, text, sizeof(text));
		size_t len = strlen(text) + 1;
		if (it->ntext + len > it->captext) {
			size_t cap = it->captext ? it->captext * 2 : 4096;
			while (cap < it->ntext + len)
				cap *= 2;
			if (rep_grow((void **)&it->text, 1, cap) < 0)
				return -ENOMEM;
			it->captext = cap;
		}
		memcpy(it->text + it->ntext, text, len);
		e.text = it->ntext;
		it->ntext += len;
	}
	it->ev[it->nev++] = e;
	return 0;
}

/* A soak of many ranks: each rank's own iteration, appended to its series. */
static int take_ranks(struct rep_iters *it, const struct sb_soak_record *rec)
{
	for (unsigned i = 0; i < rec->nranks; i++) {
		const struct sb_soak_rank *e = &rec->ranks[i];
		struct rep_rankser *r = NULL;
		for (size_t k = 0; k < it->nrk && !r; k++)
			if (it->rk[k].rank == e->rank)
				r = &it->rk[k];
		if (!r) {
			struct rep_rankser *v = realloc(it->rk, (it->nrk + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			it->rk = v;
			r = &v[it->nrk++];
			memset(r, 0, sizeof(*r));
			r->rank = e->rank;
			snprintf(r->host, sizeof(r->host), "%s", e->host);
		}
		if (r->n == r->cap) {
			const size_t cap = r->cap ? 2 * r->cap : 64;
			for (int k = 0; k < 2; k++) {
				double *v = realloc(r->bw[k], cap * sizeof(*v));
				if (!v)
					return -ENOMEM;
				r->bw[k] = v;
			}
			r->cap = cap;
		}
		r->bw[0][r->n] = e->it.write_bw;
		r->bw[1][r->n] = e->it.read_bw;
		r->n++;
		r->failed += e->it.failed;
		r->bad += (double)sb_soak_iter_bad(&e->it);
		r->errors += (double)e->it.io_errors;
	}
	return 0;
}

/* Many ranks: how far apart they started and ended the iteration. */
static void take_spread(struct rep_iters *it, int end, double x)
{
	if (!(x >= 0))
		return;
	it->spread_sum[end] += x;
	it->spread_max[end] = fmax(it->spread_max[end], x);
	it->nspread[end]++;
}

/* The figures of a record read (sb_soak_read_record) into the arrays. */
static int take(struct rep_iters *it, const struct sb_soak_record *rec)
{
	const struct sb_soak_iter *r = &rec->it;
	if (room(it) < 0)
		return -ENOMEM;
	const size_t i = it->n;
	for (size_t j = 0; j < it->ncs; j++)
		it->cs[j].v[i] = NAN;
	it->x[i] = (double)r->n;
	it->bw[0][i] = r->write_bw;
	it->bw[1][i] = r->read_bw;
	it->errors[i] = (double)r->io_errors;
	it->bad[i] = (double)sb_soak_iter_bad(r);
	it->kmsg[i] = (double)(r->nkmsg + r->kmsg_omitted);
	it->start[i] = r->start_ns ? (double)r->start_ns : NAN;
	it->kother += (double)(r->nkother + r->kother_omitted);
	if (r->start_ns && (!it->t0 || (double)r->start_ns < it->t0))
		it->t0 = (double)r->start_ns;
	if (r->end_ns && (double)r->end_ns > it->t1)
		it->t1 = (double)r->end_ns;
	it->flags[i] = (r->interrupted ? REP_IT_INTERRUPTED : 0) | (r->failed ? REP_IT_FAILED : 0);
	if (take_cells(it, i, r) < 0 || take_ranks(it, rec) < 0)
		return -ENOMEM;
	take_spread(it, 0, rec->start_spread_s);
	take_spread(it, 1, rec->end_spread_s);
	it->failed += r->failed;
	it->cut_short += !!r->interrupted;
	if ((r->io_errors || it->bad[i] > 0 || it->kmsg[i] > 0 || r->failed) &&
	    add_event(it, r) < 0)
		return -ENOMEM;
	it->n++;
	return 0;
}

int rep_iters_add(struct rep_doc *d, const struct sb_jv *r, struct sb_error *err)
{
	struct sb_soak_record rec;
	int e = sb_soak_read_record(r, &rec, err);
	if (e)
		return e;
	e = take(&d->iters, &rec);
	sb_soak_record_release(&rec);
	return e;
}

void rep_iters_free(struct rep_iters *it)
{
	free(it->x);
	free(it->bw[0]);
	free(it->bw[1]);
	free(it->errors);
	free(it->kmsg);
	free(it->start);
	free(it->bad);
	free(it->flags);
	for (size_t j = 0; j < it->ncs; j++)
		free(it->cs[j].v);
	free(it->cs);
	free(it->ev);
	free(it->text);
	for (size_t k = 0; k < it->nrk; k++) {
		free(it->rk[k].bw[0]);
		free(it->rk[k].bw[1]);
	}
	free(it->rk);
	memset(it, 0, sizeof(*it));
}

/*
 * A soak's iterations as the report keeps them: per iteration only the
 * figures the charts and the analysis take (throughput, I/O errors, kernel
 * lines, bad blocks, whether it was interrupted or failed), each in an
 * array of its own, and for the iterations where something went wrong
 * what it was, in words, for the first REP_EVENT_TEXTS of them.
 */
#include "report/report.h"

#include <math.h>

#define TEXT_LEN 240

void rep_trouble_text(const struct sb_jv *r, char *buf, size_t len)
{
	const struct sb_jv *v = sb_jv_get(r, "verify"), *k = sb_jv_get(r, "kmsg");
	double errs = sb_jv_num(sb_jv_get(r, "io_errors"), 0), bad = 0;
	char a[32];
	size_t at = 0;
	buf[0] = 0;
	for (int c = 1; c < REP_VCLASS_N; c++)
		bad += sb_jv_num(sb_jv_get(v, sb_verify_class_name(c)), 0);
#define ADD(...) (at < len ? (at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__)) : 0)
	if (errs > 0) {
		ADD("%.0f I/O error%s", errs, errs == 1 ? "" : "s");
		if (sb_jv_get(r, "first_errno"))
			ADD(" (first errno %.0f at %s)",
			    fabs(sb_jv_num(sb_jv_get(r, "first_errno"), 0)),
			    sb_fmt_size((uint64_t)sb_jv_num(sb_jv_get(r, "first_error_offset"), 0),
					a, sizeof(a)));
	}
	if (bad > 0)
		ADD("%s%.0f bad block%s", at ? "; " : "", bad, bad == 1 ? "" : "s");
	for (size_t i = 0; i < sb_jv_len(k); i++)
		ADD("%s%s: %s", at ? "; " : "",
		    rep_or(sb_jv_str(sb_jv_get(sb_jv_at(k, i), "category")), "?"),
		    rep_or(sb_jv_str(sb_jv_get(sb_jv_at(k, i), "text")), ""));
	if (sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0) > 0)
		ADD("%s%.0f more kernel messages", at ? "; " : "",
		    sb_jv_num(sb_jv_get(r, "kmsg_omitted"), 0));
	if (!at && sb_jv_bool(sb_jv_get(r, "failed"), 0) == 1)
		ADD("failed");
#undef ADD
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
	double **arrays[] = { &it->x, &it->bw[0], &it->bw[1], &it->errors, &it->kmsg, &it->bad };
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

/* An iteration's "cells" (soak --workload=iozone) into the series; cells
 * without a known test or sizes are left out. 0 or -ENOMEM. */
static int take_cells(struct rep_iters *it, size_t i, const struct sb_jv *a)
{
	for (size_t k = 0; k < sb_jv_len(a); k++) {
		const struct sb_jv *c = sb_jv_at(a, k);
		const char *t = sb_jv_str(sb_jv_get(c, "test"));
		const int test = t ? sb_sweep_test_by_name(t) : -1;
		const double fs = sb_jv_num(sb_jv_get(c, "file_size"), NAN);
		const double rs = sb_jv_num(sb_jv_get(c, "record_size"), NAN);
		if (test < 0 || !(fs > 0) || !(rs > 0))
			continue;
		struct rep_cellser *s = cell_series(it, test, fs, rs, it->ncs ? k % it->ncs : 0);
		if (!s)
			return -ENOMEM;
		s->v[i] = sb_jv_num(sb_jv_get(c, "kibps"), NAN);
	}
	return 0;
}

static int add_event(struct rep_iters *it, const struct sb_jv *r)
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

static int named(const struct sb_jmember *m, const char *name, size_t len)
{
	return m->keylen == len && !memcmp(m->key, name, len);
}
#define NAMED(m, s) named(m, s, sizeof(s) - 1)

/* A soak of many ranks: each rank's own iteration, appended to its series. */
static int take_ranks(struct rep_iters *it, const struct sb_jv *a)
{
	for (size_t i = 0; i < sb_jv_len(a); i++) {
		const struct sb_jv *e = sb_jv_at(a, i);
		const double rank = sb_jv_num(sb_jv_get(e, "rank"), NAN);
		if (!isfinite(rank))
			continue;
		struct rep_rankser *r = NULL;
		for (size_t k = 0; k < it->nrk && !r; k++)
			if (it->rk[k].rank == rank)
				r = &it->rk[k];
		if (!r) {
			struct rep_rankser *v = realloc(it->rk, (it->nrk + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			it->rk = v;
			r = &v[it->nrk++];
			memset(r, 0, sizeof(*r));
			r->rank = rank;
			const char *h = sb_jv_str(sb_jv_get(e, "host"));
			snprintf(r->host, sizeof(r->host), "%s", h ? h : "");
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
		r->bw[0][r->n] = sb_jv_num(sb_jv_get(e, "write_bw_bytes"), NAN);
		r->bw[1][r->n] = sb_jv_num(sb_jv_get(e, "read_bw_bytes"), NAN);
		r->n++;
		r->failed += sb_jv_bool(sb_jv_get(e, "failed"), 0) == 1;
		r->bad += rep_verify_bad(sb_jv_get(e, "verify"));
		r->errors += sb_jv_num(sb_jv_get(e, "io_errors"), 0);
	}
	return 0;
}

/* One pass over the record's members: a day's log has 86400 of them. */
int rep_iters_add(struct rep_doc *d, const struct sb_jv *r)
{
	struct rep_iters *it = &d->iters;
	double kmsg = 0, omitted = 0;
	if (room(it) < 0)
		return -ENOMEM;
	size_t i = it->n;
	it->x[i] = (double)i + 1;
	it->bw[0][i] = it->bw[1][i] = NAN;
	it->errors[i] = it->bad[i] = 0;
	it->flags[i] = 0;
	for (size_t j = 0; j < it->ncs; j++)
		it->cs[j].v[i] = NAN;
	for (size_t k = 0; k < r->obj.n; k++) {
		const struct sb_jmember *m = &r->obj.m[k];
		const struct sb_jv *v = &m->val;
		if (NAMED(m, "iteration"))
			it->x[i] = sb_jv_num(v, it->x[i]);
		else if (NAMED(m, "write_bw_bytes"))
			it->bw[0][i] = sb_jv_num(v, NAN);
		else if (NAMED(m, "read_bw_bytes"))
			it->bw[1][i] = sb_jv_num(v, NAN);
		else if (NAMED(m, "io_errors"))
			it->errors[i] = sb_jv_num(v, 0);
		else if (NAMED(m, "kmsg"))
			kmsg = (double)sb_jv_len(v);
		else if (NAMED(m, "kmsg_omitted"))
			omitted = sb_jv_num(v, 0);
		else if (NAMED(m, "kmsg_other"))
			it->kother += (double)sb_jv_len(v);
		else if (NAMED(m, "kmsg_other_omitted"))
			it->kother += sb_jv_num(v, 0);
		else if (NAMED(m, "verify"))
			it->bad[i] = rep_verify_bad(v);
		else if (NAMED(m, "interrupted") && sb_jv_bool(v, 0) == 1)
			it->flags[i] |= REP_IT_INTERRUPTED;
		else if (NAMED(m, "failed") && sb_jv_bool(v, 0) == 1)
			it->flags[i] |= REP_IT_FAILED;
		else if (NAMED(m, "cells") && take_cells(it, i, v) < 0)
			return -ENOMEM;
		else if (NAMED(m, "ranks") && take_ranks(it, v) < 0)
			return -ENOMEM;
		else if (NAMED(m, "start_spread_s") || NAMED(m, "end_spread_s")) {
			const int end = NAMED(m, "end_spread_s");
			const double x = sb_jv_num(v, NAN);
			if (x >= 0) {
				it->spread_sum[end] += x;
				it->spread_max[end] = fmax(it->spread_max[end], x);
				it->nspread[end]++;
			}
		}
	}
	it->kmsg[i] = kmsg + omitted;
	it->failed += (it->flags[i] & REP_IT_FAILED) != 0;
	it->cut_short += (it->flags[i] & REP_IT_INTERRUPTED) != 0;
	if ((it->errors[i] > 0 || it->bad[i] > 0 || it->kmsg[i] > 0 ||
	     (it->flags[i] & REP_IT_FAILED)) &&
	    add_event(it, r) < 0)
		return -ENOMEM;
	it->n++;
	return 0;
}

void rep_iters_free(struct rep_iters *it)
{
	free(it->x);
	free(it->bw[0]);
	free(it->bw[1]);
	free(it->errors);
	free(it->kmsg);
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

/*
 * spo --cycles's log read back (spo.h, struct sb_spo_cycles_line): a line
 * as spo_cycles_json.c writes it, each value's type and range checked and
 * what is wrong named by its key path. The log's resumption
 * (spo_cycles.c) and storbench report read it through this. A log from
 * before a member was written (the cycle's "of", its "writes" and
 * "acknowledged", its histogram) reads without it.
 */
#include "lib/spo/spo.h"
#include "lib/json/json_take.h"

#define FIGURE_MAX 1000000000000000000ull /* 1e18: counts, times in ns */

/* A string member, null as the writer writes an absent one, or absent. */
static void text(struct sb_jtake *t, const struct sb_jv *o, const char *key, const char **out)
{
	const struct sb_jv *v = sb_jv_get(o, key);
	if (!sb_jv_is(v, SB_JV_NULL))
		sb_jtake_str(t, o, key, SB_JTAKE_OPTIONAL, out);
}

static int header(struct sb_jtake *t, const struct sb_jv *l, struct sb_spo_cycles_header *h)
{
	uint64_t one = 0;
	if (!sb_jtake_u64(t, l, "spo_cycles", 0, 1, &one) && one != 1)
		return sb_jtake_bad(t, "spo_cycles", "1", sb_jv_get(l, "spo_cycles"));
	sb_jtake_u64(t, l, "log_version", SB_JTAKE_OPTIONAL, UINT32_MAX, &h->log_version);
	text(t, l, "storbench", &h->storbench);
	sb_jtake_str(t, l, "target", 0, &h->target);
	sb_jtake_u64(t, l, "cycles", 0, FIGURE_MAX, &h->cycles);
	sb_jtake_u64(t, l, "bs", SB_JTAKE_OPTIONAL, SB_SPO_MAX_BS, &h->bs);
	text(t, l, "writer", &h->writer);
	text(t, l, "check", &h->check);
	text(t, l, "cut_cmd", &h->cut_cmd);
	sb_jtake_u64(t, l, "cut_min_ns", SB_JTAKE_OPTIONAL, FIGURE_MAX, &h->cut_min_ns);
	sb_jtake_u64(t, l, "cut_max_ns", SB_JTAKE_OPTIONAL, FIGURE_MAX, &h->cut_max_ns);
	if (!t->e && h->cut_max_ns < h->cut_min_ns)
		return sb_jtake_bad(t, "cut_max_ns", "a time from cut_min_ns",
				    sb_jv_get(l, "cut_max_ns"));
	sb_jtake_u64(t, l, "started_unix_ns", SB_JTAKE_OPTIONAL, UINT64_MAX, &h->started_unix_ns);
	return t->e;
}

/* An array member of whole numbers up to max: at most cap of them into
 * out (*n), each checked; 1 when absent. */
static int numbers(struct sb_jtake *t, const struct sb_jv *o, const char *key, uint64_t max,
		   uint64_t *out, size_t cap, size_t *n, const char *what_len)
{
	const struct sb_jv *a = sb_jtake_arr(t, o, key, SB_JTAKE_OPTIONAL);
	if (!a)
		return t->e ? t->e : 1;
	if (a->arr.n > cap)
		return sb_jtake_bad(t, key, what_len, a);
	const size_t at = sb_jtake_down(t, key);
	for (size_t i = 0; !t->e && i < a->arr.n; i++) {
		const size_t it = sb_jtake_item(t, i);
		const struct sb_jv *x = sb_jv_at(a, i);
		if (sb_jv_u64(x, &out[i]) < 0 || out[i] > max)
			sb_jtake_bad(t, NULL, "a whole number from 0 to 1e18", x);
		sb_jtake_up(t, it);
	}
	sb_jtake_up(t, at);
	*n = a->arr.n;
	return t->e;
}

static int cycle(struct sb_jtake *t, const struct sb_jv *l, struct sb_spo_cycle_rec *r)
{
	size_t nh = 0;
	if (!sb_jtake_u64(t, l, "cycle", 0, FIGURE_MAX, &r->n) && !r->n)
		return sb_jtake_bad(t, "cycle", "a cycle number from 1", sb_jv_get(l, "cycle"));
	sb_jtake_u64(t, l, "of", SB_JTAKE_OPTIONAL, FIGURE_MAX, &r->of);
	sb_jtake_u64(t, l, "unix_ns", SB_JTAKE_OPTIONAL, UINT64_MAX, &r->unix_ns);
	sb_jtake_u64(t, l, "cut_after_ns", 0, FIGURE_MAX, &r->cut_after_ns);
	sb_jtake_bool(t, l, "pass", 0, &r->pass);
	r->has_counts = !sb_jtake_u64(t, l, "writes", SB_JTAKE_OPTIONAL, FIGURE_MAX, &r->writes);
	if (r->has_counts)
		sb_jtake_u64(t, l, "acknowledged", 0, r->writes, &r->acked);
	const struct sb_jv *cl = sb_jtake_obj(t, l, "classes", 0);
	if (cl) {
		const size_t at = sb_jtake_down(t, "classes");
		for (int i = 0; i < SB_SPO_NCLASS; i++)
			sb_jtake_u64(t, cl, sb_spo_class_name(i), SB_JTAKE_OPTIONAL, FIGURE_MAX,
				     &r->count[i]);
		sb_jtake_up(t, at);
	}
	const int hist = numbers(t, l, "ack_to_cut_histogram", FIGURE_MAX, r->hist, SB_SPO_HIST_N,
				 &nh, "6 buckets");
	if (!hist && nh != SB_SPO_HIST_N)
		return sb_jtake_bad(t, "ack_to_cut_histogram", "6 buckets",
				    sb_jv_get(l, "ack_to_cut_histogram"));
	r->has_hist = !hist;
	numbers(t, l, "lost_ack_to_cut_ns", FIGURE_MAX, r->lost_ns, SB_SPO_CYCLE_LOST_MAX,
		&r->nlost, "at most 100 times");
	return t->e;
}

int sb_spo_cycles_read(const struct sb_jv *line, struct sb_spo_cycles_line *out,
		       struct sb_error *err)
{
	struct sb_error quiet;
	struct sb_jtake t;
	memset(out, 0, sizeof(*out));
	sb_jtake_init(&t, err ? err : &quiet);
	if (!sb_jv_is(line, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object", line);
	if (sb_jv_get(line, "spo_cycles")) {
		out->kind = SB_SPO_LINE_HEADER;
		return header(&t, line, &out->h);
	}
	if (sb_jv_get(line, "cycle_error")) {
		out->kind = SB_SPO_LINE_ERROR;
		if (!sb_jtake_u64(&t, line, "cycle_error", 0, FIGURE_MAX, &out->error_cycle) &&
		    !out->error_cycle)
			return sb_jtake_bad(&t, "cycle_error", "a cycle number from 1",
					    sb_jv_get(line, "cycle_error"));
		sb_jtake_str(&t, line, "error", 0, &out->error);
		return t.e;
	}
	if (sb_jv_get(line, "cycle")) {
		out->kind = SB_SPO_LINE_CYCLE;
		return cycle(&t, line, &out->cy);
	}
	return 0;
}

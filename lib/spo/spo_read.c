/*
 * The results' "spo" section read back (spo.h, struct sb_spo_doc): what
 * spo_json.c writes, each value's type and range checked, and what is
 * wrong named by its key path. docs/spo.md describes the keys.
 */
#include "lib/spo/spo.h"
#include "lib/json/json_take.h"

#define FIGURE_MAX 1000000000000000000ull /* 1e18: bytes, counts, sequence numbers, spans */

static const char *sync_name(int i)
{
	return sb_spo_sync_name(i);
}

static const char *rw_name(int i)
{
	return sb_spo_rw_name(i);
}

static const char *class_name(int i)
{
	return sb_spo_class_name(i);
}

/* "run_id": the run's id as 16 hex digits. */
static int run_id(struct sb_jtake *t, const struct sb_jv *sec, uint64_t *out)
{
	const char *v, *what = "16 hexadecimal digits";
	char *end;
	if (sb_jtake_str(t, sec, "run_id", 0, &v))
		return t->e;
	errno = 0;
	const unsigned long long n = strtoull(v, &end, 16);
	if (strlen(v) != 16 || *end || errno || v[0] == '-' || v[0] == '+' || v[0] == ' ')
		return sb_jtake_bad(t, "run_id", what, sb_jv_get(sec, "run_id"));
	*out = n;
	return 0;
}

static int header(struct sb_jtake *t, const struct sb_jv *sec, struct sb_spo_header *h)
{
	uint64_t bs = 0, depth = 0;
	run_id(t, sec, &h->run_id);
	sb_jtake_u64(t, sec, "bs", 0, SB_SPO_MAX_BS, &bs);
	sb_jtake_u64(t, sec, "offset", 0, FIGURE_MAX, &h->offset);
	sb_jtake_u64(t, sec, "size", 0, FIGURE_MAX, &h->size);
	sb_jtake_u64(t, sec, "canary", 0, FIGURE_MAX, &h->canary);
	sb_jtake_word(t, sec, "sync", 0, sync_name, 4, "fdatasync, fsync, dsync or none", &h->sync);
	sb_jtake_word(t, sec, "rw", 0, rw_name, 3, "randwrite, write or mixed", &h->rw);
	sb_jtake_u64(t, sec, "iodepth", 0, SB_SPO_MAX_DEPTH, &depth);
	sb_jtake_u64(t, sec, "start_unix_ns", 0, UINT64_MAX, &h->start_unix_ns);
	h->bs = (uint32_t)bs;
	h->iodepth = (unsigned)depth;
	return t->e;
}

static int journal(struct sb_jtake *t, const struct sb_jv *sec, struct sb_spo_check *c)
{
	const struct sb_jv *j = sb_jtake_obj(t, sec, "journal", 0);
	if (!j)
		return t->e;
	const size_t at = sb_jtake_down(t, "journal");
	sb_jtake_u64(t, j, "writes", 0, FIGURE_MAX, &c->writes);
	sb_jtake_u64(t, j, "acknowledged", 0, c->writes, &c->acked);
	sb_jtake_bool(t, j, "cut_recorded", 0, &c->cut_known);
	sb_jtake_u64(t, j, "cut_ns", 0, UINT64_MAX, &c->t_cut);
	sb_jtake_bool(t, j, "torn_last_line", 0, &c->torn_tail);
	sb_jtake_up(t, at);
	return t->e;
}

/* The blocks and their classes. */
static int blocks(struct sb_jtake *t, const struct sb_jv *sec, struct sb_spo_check *c)
{
	uint64_t torn = 0;
	sb_jtake_u64(t, sec, "blocks", 0, FIGURE_MAX, &c->blocks);
	sb_jtake_u64(t, sec, "canary_blocks", 0, c->blocks, &c->canary_blocks);
	const struct sb_jv *ts = sb_jv_get(sec, "target_size");
	if (!t->e && ts && !sb_jv_is(ts, SB_JV_NULL))
		c->short_target = !sb_jtake_u64(t, sec, "target_size", 0, FIGURE_MAX,
						&c->target_size);
	sb_jtake_u64(t, sec, "missing_blocks", SB_JTAKE_OPTIONAL, c->blocks, &c->missing_blocks);
	const struct sb_jv *cl = sb_jtake_obj(t, sec, "classes", 0);
	if (cl) {
		const size_t at = sb_jtake_down(t, "classes");
		for (int i = 0; i < SB_SPO_NCLASS; i++)
			sb_jtake_u64(t, cl, sb_spo_class_name(i), 0, c->blocks, &c->count[i]);
		sb_jtake_up(t, at);
	}
	sb_jtake_u64(t, sec, "allow_torn", 0, SB_SPO_MAX_BS, &torn);
	sb_jtake_u64(t, sec, "torn_allowed", 0, c->blocks, &c->torn_allowed);
	c->allow_torn = (uint32_t)torn;
	return t->e;
}

/* The array key of sec, and room for its *n items of size bytes in *out
 * (NULL: absent, or a problem said). */
static const struct sb_jv *items(struct sb_jtake *t, const struct sb_jv *sec, const char *key,
				 size_t size, void **out, size_t *n)
{
	const struct sb_jv *a = sb_jtake_arr(t, sec, key, 0);
	*n = 0;
	if (!a || !a->arr.n)
		return a;
	if (!(*out = calloc(a->arr.n, size))) {
		t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
		return NULL;
	}
	*n = a->arr.n;
	return a;
}

static int range(struct sb_jtake *t, const struct sb_jv *x, struct sb_spo_range *r)
{
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a range", x);
	sb_jtake_u64(t, x, "offset", 0, FIGURE_MAX, &r->offset);
	sb_jtake_u64(t, x, "length", 0, FIGURE_MAX, &r->length);
	return sb_jtake_word(t, x, "class", 0, class_name, SB_SPO_NCLASS,
			     "a class (ok, ok-unacked, lost-acked, ...)", &r->cls);
}

static int lost(struct sb_jtake *t, const struct sb_jv *x, struct sb_spo_lost *l)
{
	if (!sb_jv_is(x, SB_JV_OBJ))
		return sb_jtake_bad(t, NULL, "an object of a lost write", x);
	sb_jtake_u64(t, x, "offset", 0, FIGURE_MAX, &l->offset);
	sb_jtake_u64(t, x, "acked_seq", 0, FIGURE_MAX, &l->seq);
	sb_jtake_u64(t, x, "found_seq", 0, FIGURE_MAX, &l->found_seq);
	return sb_jtake_u64(t, x, "ack_to_cut_ns", 0, FIGURE_MAX, &l->ack_to_cut_ns);
}

static int lists(struct sb_jtake *t, const struct sb_jv *sec, struct sb_spo_check *c)
{
	const struct sb_jv *a = items(t, sec, "ranges", sizeof(*c->ranges), (void **)&c->ranges,
				      &c->nranges);
	c->max_ranges = c->nranges;
	size_t at = sb_jtake_down(t, "ranges");
	for (size_t i = 0; a && !t->e && i < c->nranges; i++) {
		const size_t it = sb_jtake_item(t, i);
		range(t, sb_jv_at(a, i), &c->ranges[i]);
		sb_jtake_up(t, it);
	}
	sb_jtake_up(t, at);
	sb_jtake_u64(t, sec, "ranges_omitted", 0, FIGURE_MAX, &c->ranges_omitted);
	a = items(t, sec, "lost_acked", sizeof(*c->lost), (void **)&c->lost, &c->nlost);
	c->max_lost = c->nlost;
	at = sb_jtake_down(t, "lost_acked");
	for (size_t i = 0; a && !t->e && i < c->nlost; i++) {
		const size_t it = sb_jtake_item(t, i);
		lost(t, sb_jv_at(a, i), &c->lost[i]);
		sb_jtake_up(t, it);
	}
	sb_jtake_up(t, at);
	return t->e;
}

/* The ack-to-cut histogram: its buckets in order, each with its count. */
static int histogram(struct sb_jtake *t, const struct sb_jv *sec, struct sb_spo_check *c)
{
	const struct sb_jv *h = sb_jtake_arr(t, sec, "ack_to_cut_histogram", 0);
	if (!h)
		return t->e;
	if (h->arr.n != SB_SPO_HIST_N)
		return sb_jtake_bad(t, "ack_to_cut_histogram", "6 buckets", h);
	const size_t at = sb_jtake_down(t, "ack_to_cut_histogram");
	for (size_t i = 0; !t->e && i < SB_SPO_HIST_N; i++) {
		const struct sb_jv *x = sb_jv_at(h, i);
		const char *b;
		const size_t it = sb_jtake_item(t, i);
		if (!sb_jv_is(x, SB_JV_OBJ))
			sb_jtake_bad(t, NULL, "an object of a bucket", x);
		else if (!sb_jtake_str(t, x, "bucket", 0, &b) && strcmp(b, sb_spo_hist_label[i]))
			sb_jtake_bad(t, "bucket", sb_spo_hist_label[i], sb_jv_get(x, "bucket"));
		else
			sb_jtake_u64(t, x, "count", 0, c->blocks, &c->hist[i]);
		sb_jtake_up(t, it);
	}
	sb_jtake_up(t, at);
	return t->e;
}

static int recommendations(struct sb_jtake *t, const struct sb_jv *sec, struct sb_spo_doc *d)
{
	const struct sb_jv *a = sb_jtake_arr(t, sec, "recommendations", 0);
	if (!a)
		return t->e;
	if (a->arr.n > SB_SPO_REC_MAX)
		return sb_jtake_bad(t, "recommendations", "at most 12 recommendations", a);
	const size_t at = sb_jtake_down(t, "recommendations");
	for (size_t i = 0; !t->e && i < a->arr.n; i++) {
		const struct sb_jv *x = sb_jv_at(a, i);
		const size_t it = sb_jtake_item(t, i);
		if (!sb_jv_is(x, SB_JV_STR))
			sb_jtake_bad(t, NULL, "a string", x);
		else if (!(d->rec_text[i] = strdup(x->str.s)))
			t->e = sb_error_set(t->err, -ENOMEM, SB_ERR_ENV, "out of memory");
		else
			d->c.rec[d->c.nrec++] = d->rec_text[i];
		sb_jtake_up(t, it);
	}
	sb_jtake_up(t, at);
	return t->e;
}

int sb_spo_read(const struct sb_jv *section, struct sb_spo_doc *out, struct sb_error *err)
{
	struct sb_error quiet;
	struct sb_jtake t;
	const char *phase;
	memset(out, 0, sizeof(*out));
	sb_jtake_init(&t, err ? err : &quiet);
	if (!sb_jv_is(section, SB_JV_OBJ))
		return sb_jtake_bad(&t, NULL, "an object", section);
	if (!sb_jtake_str(&t, section, "phase", 0, &phase) && strcmp(phase, "check"))
		return sb_jtake_bad(&t, "phase", "check", sb_jv_get(section, "phase"));
	header(&t, section, &out->c.h);
	journal(&t, section, &out->c);
	blocks(&t, section, &out->c);
	lists(&t, section, &out->c);
	histogram(&t, section, &out->c);
	sb_jtake_bool(&t, section, "pass", 0, &out->c.pass);
	recommendations(&t, section, out);
	return t.e;
}

void sb_spo_doc_free(struct sb_spo_doc *d)
{
	if (!d)
		return;
	sb_spo_check_free(&d->c);
	for (unsigned i = 0; i < SB_SPO_REC_MAX; i++) {
		free(d->rec_text[i]);
		d->rec_text[i] = NULL;
	}
	d->c.nrec = 0;
}

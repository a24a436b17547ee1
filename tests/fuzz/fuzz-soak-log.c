/*
 * Fuzz target of a soak log's reading (libFuzzer: make fuzz): the line
 * check that --resume and the report share (lib/soak/soak_check.h), the
 * typed readers they take the figures through (lib/soak/soak_read.c: a
 * record, a summary, a results section) and the kernel line parser that
 * tells which device a line is about (lib/device/kmsg.h). Any input must
 * be checked or refused without a crash, a leak or undefined behaviour;
 * what is taken is consistent: iterations follow each other, a refusal
 * says which member, what a reader keeps is within its bounds, a device
 * name fits and is one the line holds.
 */
#include "lib/soak/soak_check.h"
#include "lib/soak/soak_json.h"
#include "lib/device/kmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static void kernel_line(const char *s, size_t n)
{
	char line[1024], names[8][SB_KMSG_NAME_LEN], dev[SB_KMSG_NAME_LEN];
	struct sb_kmsg_stack st = { .n = 0 };
	snprintf(line, sizeof(line), "%.*s", (int)SB_MIN(n, sizeof(line) - 1), s);
	const size_t k = sb_kmsg_names(line, names, 8);
	CHECK(k <= 8);
	for (size_t i = 0; i < k; i++) {
		CHECK(names[i][0] && strlen(names[i]) < SB_KMSG_NAME_LEN);
		sb_kmsg_stack_add(&st, names[i]);
	}
	const enum sb_kmsg_about a = sb_kmsg_attribute(line, &st, dev, sizeof(dev));
	CHECK(k ? a == SB_KMSG_OURS && sb_kmsg_stack_has(&st, dev) : a == SB_KMSG_UNNAMED);
}

/* A line through each typed reader: read within bounds, or refused by
 * key path. */
static void readers(const struct sb_jv *v)
{
	struct sb_soak_record rec;
	struct sb_soak_result r;
	struct sb_soak_doc doc;
	struct sb_soak_line line;
	struct sb_error err;
	sb_soak_line_read(v, &line);
	CHECK(!line.is_iteration || sb_jv_is(v, SB_JV_OBJ));
	int e = sb_soak_read_record(v, &rec, &err);
	CHECK(e == 0 || ((e == -EINVAL && strchr(err.msg, ':')) || e == -ENOMEM));
	if (!e) {
		CHECK(rec.it.n >= 1 && rec.it.nranges <= SB_SOAK_MAX_RANGES);
		CHECK(rec.it.nkmsg <= SB_SOAK_MAX_KMSG && rec.it.nkother <= SB_SOAK_MAX_KMSG);
		for (unsigned k = 0; k < rec.nranks; k++)
			CHECK(rec.ranks[k].it.n >= 1);
		sb_soak_record_release(&rec);
	}
	e = sb_soak_read_summary(v, &r, &err);
	CHECK(e == 0 || e == -ENOENT || e == -ENOMEM || (e == -EINVAL && strchr(err.msg, ':')));
	if (!e)
		sb_soak_result_free(&r);
	memset(&doc, 0, sizeof(doc));
	e = sb_soak_read(v, &doc, &err);
	CHECK(e == 0 || e == -ENOENT || e == -ENOMEM || (e == -EINVAL && strchr(err.msg, ':')));
	for (size_t i = 1; !e && i < doc.r.nit; i++)
		CHECK(doc.r.it[i].n > doc.r.it[i - 1].n);
	sb_soak_doc_free(&doc);
}

/* A text cut to its room: whole, or a prefix of it with "..." after it,
 * always within the room (sb_soak_cut_text). */
static void cut_text(const char *s, size_t n)
{
	char src[600], out[300];
	snprintf(src, sizeof(src), "%.*s", (int)SB_MIN(n, sizeof(src) - 1), s);
	const size_t len = strlen(src);
	for (size_t room = 1; room <= sizeof(out); room += 37) {
		sb_soak_cut_text(out, room, src);
		const size_t k = strlen(out);
		CHECK(k < room);
		if (len < room)
			CHECK(!strcmp(out, src));
		else if (k >= 3)
			CHECK(!strcmp(out + k - 3, "...") && !memcmp(out, src, k - 3));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_soak_check c;
	const char *text = (const char *)data;
	sb_soak_check_init(&c);
	for (size_t at = 0; at < size;) {
		const char *nl = memchr(text + at, '\n', size - at);
		const size_t n = nl ? (size_t)(nl - (text + at)) : size - at;
		struct sb_jdoc *d = NULL;
		char msg[512];
		kernel_line(text + at, n);
		cut_text(text + at, n);
		if (sb_json_parse(text + at, n, NULL, &d, NULL) == 0) {
			const uint64_t before = c.last_iteration;
			const int e = sb_soak_check_line(&c, sb_jdoc_root(d), msg, sizeof(msg));
			CHECK(e == 0 || (e == -EINVAL && strchr(msg, ':')));
			const char *type = sb_jv_str(sb_jv_get(sb_jdoc_root(d), "type"));
			if (!e && type && !strcmp(type, "iteration") && before)
				CHECK(c.last_iteration == before + 1 || c.lost == 0);
			readers(sb_jdoc_root(d));
			sb_jdoc_free(d);
		}
		at += n + 1;
	}
	return 0;
}

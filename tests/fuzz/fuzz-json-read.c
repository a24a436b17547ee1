/*
 * Fuzz target of the JSON reader (libFuzzer: make fuzz). Any input must be
 * parsed or refused without a crash, a leak or undefined behaviour; what
 * parses must survive a round trip: the tree written back as JSON parses
 * to an equal tree. tests/unit/json-read-corpus.c runs this same function
 * over the corpus and its mutations in make check, without clang.
 */
#include "lib/json/json_read.h"

#include <stdarg.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static void emit_str(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Depth is bounded by the parser's limit, so recursion is safe here. */
static void emit(FILE *f, const struct sb_jv *v)
{
	switch (v->type) {
	case SB_JV_NULL: fputs("null", f); break;
	case SB_JV_BOOL: fputs(v->boolean ? "true" : "false", f); break;
	case SB_JV_NUM:
		if (v->flags & SB_JV_U64)
			fprintf(f, "%llu", (unsigned long long)v->num.u);
		else if (v->flags & SB_JV_I64)
			fprintf(f, "%lld", (long long)v->num.i);
		else
			fprintf(f, "%.17g", v->num.d);
		break;
	case SB_JV_STR: emit_str(f, v->str.s, v->str.len); break;
	case SB_JV_ARR:
		fputc('[', f);
		for (size_t i = 0; i < v->arr.n; i++) {
			if (i)
				fputc(',', f);
			emit(f, &v->arr.v[i]);
		}
		fputc(']', f);
		break;
	case SB_JV_OBJ:
		fputc('{', f);
		for (size_t i = 0; i < v->obj.n; i++) {
			if (i)
				fputc(',', f);
			emit_str(f, v->obj.m[i].key, v->obj.m[i].keylen);
			fputc(':', f);
			emit(f, &v->obj.m[i].val);
		}
		fputc('}', f);
		break;
	default: abort();
	}
}

static int same(const struct sb_jv *a, const struct sb_jv *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case SB_JV_BOOL: return a->boolean == b->boolean;
	case SB_JV_NUM:
		if ((a->flags & SB_JV_U64) && (b->flags & SB_JV_U64))
			return a->num.u == b->num.u;
		return a->num.d == b->num.d;
	case SB_JV_STR: return a->str.len == b->str.len && !memcmp(a->str.s, b->str.s, a->str.len);
	case SB_JV_ARR:
		if (a->arr.n != b->arr.n)
			return 0;
		for (size_t i = 0; i < a->arr.n; i++)
			if (!same(&a->arr.v[i], &b->arr.v[i]))
				return 0;
		return 1;
	case SB_JV_OBJ:
		if (a->obj.n != b->obj.n)
			return 0;
		for (size_t i = 0; i < a->obj.n; i++)
			if (a->obj.m[i].keylen != b->obj.m[i].keylen ||
			    memcmp(a->obj.m[i].key, b->obj.m[i].key, a->obj.m[i].keylen) ||
			    !same(&a->obj.m[i].val, &b->obj.m[i].val))
				return 0;
		return 1;
	}
	return 1;
}

/* The accessors on whatever the tree holds must not misbehave. */
static void walk_accessors(const struct sb_jv *v)
{
	uint64_t u;
	CHECK(sb_jv_len(v) == (v->type == SB_JV_ARR   ? v->arr.n
			       : v->type == SB_JV_OBJ ? v->obj.n
						      : 0));
	(void)sb_jv_num(v, 0);
	(void)sb_jv_bool(v, 0);
	if (sb_jv_u64(v, &u) == 0)
		CHECK(v->type == SB_JV_NUM && (double)u == v->num.d);
	if (v->type == SB_JV_STR)
		CHECK(sb_jv_str(v) && v->str.s[v->str.len] == 0);
	if (v->type == SB_JV_OBJ && v->obj.n)
		CHECK(sb_jv_get(v, v->obj.m[0].key) != NULL);
	CHECK(sb_jv_at(v, sb_jv_len(v)) == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_json_limits lim = { 1u << 20, 48 };
	struct sb_json_error err;
	struct sb_jdoc *doc, *again;
	int rc = sb_json_parse((const char *)data, size, &lim, &doc, &err);
	if (rc < 0) {
		CHECK(doc == NULL && err.msg[0]);
		CHECK(rc == -EBADMSG || rc == -E2BIG || rc == -EFBIG || rc == -ENOMEM);
		CHECK(rc != -EBADMSG || (err.line >= 1 && err.offset <= size));
		return 0;
	}
	const struct sb_jv *root = sb_jdoc_root(doc);
	walk_accessors(root);
	for (size_t i = 0; i < sb_jv_len(root); i++)
		walk_accessors(root->type == SB_JV_ARR ? sb_jv_at(root, i) : &root->obj.m[i].val);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	emit(f, root);
	CHECK(fclose(f) == 0);
	lim.max_size = len + 1;
	CHECK(sb_json_parse(buf, len, &lim, &again, &err) == 0);
	CHECK(same(root, sb_jdoc_root(again)));
	sb_jdoc_free(again);
	free(buf);
	sb_jdoc_free(doc);
	return 0;
}

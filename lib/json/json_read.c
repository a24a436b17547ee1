/*
 * The JSON reader. One pass over the text with an explicit stack instead of
 * recursion, so a hostile "[[[[..." costs a bounded frame each and stops at
 * max_depth. Finished values wait on a work vector; when a container
 * closes, its children are copied from there into the arena as one
 * contiguous array, so the tree needs no per-node allocation and no links.
 */
#include "lib/json/json_read.h"

#include <math.h>

/* ---- arena: blocks that live as long as the document ---- */
struct block {
	struct block *next;
	size_t used, size;
	max_align_t data[];
};

struct sb_jdoc {
	struct block *blocks;
	struct sb_jv root;
};

static void *arena_alloc(struct sb_jdoc *d, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	struct block *b = d->blocks;
	if (!b || b->size - b->used < n) {
		size_t size = n > 65536 ? n : 65536;
		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = d->blocks;
		d->blocks = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

void sb_jdoc_free(struct sb_jdoc *d)
{
	if (!d)
		return;
	for (struct block *b = d->blocks, *n; b; b = n) {
		n = b->next;
		free(b);
	}
	free(d);
}

const struct sb_jv *sb_jdoc_root(const struct sb_jdoc *d)
{
	return d ? &d->root : NULL;
}

/* ---- parser state ---- */
struct frame {
	size_t start;	 /* first child in work */
	const char *key; /* the container's own member name, if any */
	size_t keylen;
	unsigned char is_obj;
};

struct parser {
	const unsigned char *s, *end, *p;
	struct sb_jdoc *doc;
	struct frame *stack;
	unsigned depth, max_depth;
	struct sb_jmember *work; /* children of the open containers */
	size_t nwork, capwork;
	const char *key; /* pending member key */
	size_t keylen;
	struct sb_json_error *err;
	int rc;
};

static int fail_at(struct parser *ps, const unsigned char *at, int rc, const char *what)
{
	struct sb_json_error *e = ps->err;
	ps->rc = rc;
	if (!e)
		return rc;
	unsigned line = 1, col = 1;
	for (const unsigned char *q = ps->s; q < at; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	e->line = line;
	e->column = col;
	e->offset = (size_t)(at - ps->s);
	e->at_end = at >= ps->end;
	snprintf(e->msg, sizeof(e->msg), "line %u column %u: %s", line, col, what);
	return rc;
}

static int fail(struct parser *ps, const char *what)
{
	return fail_at(ps, ps->p, -EBADMSG, ps->p >= ps->end ? "unexpected end of input" : what);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

/* ---- strings ---- */
static int hex4(const unsigned char *p, const unsigned char *end, unsigned *out)
{
	unsigned v = 0;
	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		unsigned c = p[i], x;
		if (c >= '0' && c <= '9')
			x = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			x = (c | 0x20) - 'a' + 10;
		else
			return -1;
		v = v << 4 | x;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Length of the valid UTF-8 sequence at p (lead byte >= 0x80), 0 if invalid:
 * no overlong forms, no encoded surrogates, nothing above U+10FFFF. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], n, cp, min;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* An escape after the backslash at *pp; writes UTF-8 to o, returns bytes
 * written or -1 after reporting. */
static int escape(struct parser *ps, const unsigned char **pp, char *o)
{
	const unsigned char *p = *pp + 1; /* after '\', before the closing quote */
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k = *p ? strchr(from, *p) : NULL;
	if (k) {
		*o = to[k - from];
		*pp = p + 1;
		return 1;
	}
	unsigned cp, lo;
	if (*p != 'u')
		return fail_at(ps, p, -EBADMSG, "unknown escape in a string"), -1;
	if (hex4(p + 1, ps->end, &cp) < 0)
		return fail_at(ps, p, -EBADMSG, "\\u needs four hex digits"), -1;
	p += 5;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail_at(ps, p - 6, -EBADMSG, "unpaired low surrogate in a string"), -1;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->end - p >= 6 && p[0] == '\\' && p[1] == 'u' && !hex4(p + 2, ps->end, &lo) &&
		    lo >= 0xdc00 && lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p += 6;
		} else {
			return fail_at(ps, p - 6, -EBADMSG, "unpaired high surrogate in a string"),
			       -1;
		}
	}
	*pp = p;
	return (int)put_utf8(o, cp);
}

/* The string starting at the opening quote; decoded into the arena. */
static int string(struct parser *ps, const char **out, size_t *outlen)
{
	const unsigned char *p = ps->p + 1, *q = p;
	/* find the closing quote first: the decoded text is never longer */
	while (q < ps->end && *q != '"')
		q += *q == '\\' && q + 1 < ps->end ? 2 : 1;
	if (q >= ps->end)
		return fail_at(ps, ps->end, -EBADMSG, "unexpected end of input");
	char *o = arena_alloc(ps->doc, (size_t)(q - p) + 1), *w = o;
	if (!o)
		return fail_at(ps, p, -ENOMEM, "out of memory");
	while (p < q) {
		if (*p == '\\') {
			int n = escape(ps, &p, w);
			if (n < 0)
				return ps->rc;
			w += n;
		} else if (*p < 0x20) {
			return fail_at(ps, p, -EBADMSG,
				       "control character in a string (escape it)");
		} else if (*p < 0x80) {
			*w++ = (char)*p++;
		} else {
			size_t n = utf8_len(p, q);
			if (!n)
				return fail_at(ps, p, -EBADMSG, "invalid UTF-8 in a string");
			memcpy(w, p, n);
			w += n;
			p += n;
		}
	}
	*w = 0;
	*out = o;
	*outlen = (size_t)(w - o);
	ps->p = q + 1;
	return 0;
}

/* ---- numbers ---- */
static const unsigned char *digits(const unsigned char *p, const unsigned char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

static void exact_int(struct sb_jv *v, const unsigned char *p, const unsigned char *e, int neg)
{
	uint64_t u = 0;
	for (; p < e; p++) {
		unsigned dg = *p - '0';
		if (u > (UINT64_MAX - dg) / 10)
			return; /* beyond 64 bits: the double alone */
		u = u * 10 + dg;
	}
	if (!neg) {
		v->num.u = u;
		v->flags = SB_JV_U64 | (u <= INT64_MAX ? SB_JV_I64 : 0);
	} else if (u <= (uint64_t)INT64_MAX + 1) {
		v->num.i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
		v->flags = SB_JV_I64 | (u == 0 ? SB_JV_U64 : 0);
	}
}

/*
 * The value of a number of at most 15 significant digits and a decimal
 * exponent within 22 (nearly every figure a result holds) without strtod:
 * the digits as an integer below 2^53 and a power of ten up to 10^22 are
 * both exact doubles, so one multiplication or division, rounded by the
 * hardware, gives the correctly rounded value, as strtod does (Clinger's
 * fast path). 0 when the number needs strtod. p..end: the number's text.
 */
static int fast_number(const unsigned char *p, const unsigned char *end, double *out)
{
	static const double p10[] = { 1e0,  1e1,  1e2,	1e3,  1e4,  1e5,  1e6,	1e7,
				      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	uint64_t m = 0;
	int neg = *p == '-', ndig = 0, frac = 0, e = 0, eneg = 0, edig = 0;
	p += neg;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		if ((m = m * 10 + (unsigned)(*p - '0')) && ++ndig > 15)
			return 0;
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, frac++)
			if ((m = m * 10 + (unsigned)(*p - '0')) && ++ndig > 15)
				return 0;
	if (p < end && (*p | 0x20) == 'e') {
		p++;
		eneg = p < end && *p == '-';
		p += p < end && (*p == '-' || *p == '+');
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (++edig > 3)
				return 0;
			else
				e = e * 10 + (*p - '0');
	}
	e = (eneg ? -e : e) - frac;
	if (e < -22 || e > 22)
		return 0;
	double d = (double)m; /* exact: fewer than 16 digits */
	d = e < 0 ? d / p10[-e] : d * p10[e];
	*out = neg ? -d : d;
	return 1;
}

static int number(struct parser *ps, struct sb_jv *v)
{
	const unsigned char *p = ps->p, *start = p, *int_start, *int_end;
	int neg = *p == '-', integral = 1;
	p += neg;
	int_start = p;
	if (p < ps->end && *p == '0')
		p++;
	else if (p < ps->end && *p >= '1' && *p <= '9')
		p = digits(p, ps->end);
	else
		return ps->p = p, fail(ps, "expected a digit");
	int_end = p;
	if (p < ps->end && *p == '.') {
		integral = 0;
		if (digits(p + 1, ps->end) == p + 1)
			return ps->p = p + 1, fail(ps, "expected a digit after '.'");
		p = digits(p + 1, ps->end);
	}
	if (p < ps->end && (*p | 0x20) == 'e') {
		integral = 0;
		p++;
		if (p < ps->end && (*p == '+' || *p == '-'))
			p++;
		if (digits(p, ps->end) == p)
			return ps->p = p, fail(ps, "expected a digit in the exponent");
		p = digits(p, ps->end);
	}
	double d;
	if (!fast_number(start, p, &d)) {
		char small[64], *buf = small;
		size_t n = (size_t)(p - start);
		if (n >= sizeof(small) && !(buf = malloc(n + 1)))
			return fail_at(ps, start, -ENOMEM, "out of memory");
		memcpy(buf, start, n);
		buf[n] = 0;
		d = strtod(buf, NULL);
		if (buf != small)
			free(buf);
	}
	if (!isfinite(d))
		return fail_at(ps, start, -EBADMSG, "number out of range");
	v->type = SB_JV_NUM;
	v->flags = 0;
	v->num.d = d;
	if (integral)
		exact_int(v, int_start, int_end, neg);
	else if (d == floor(d) && fabs(d) <= 9007199254740992.0) { /* 2^53: exact */
		v->num.i = (int64_t)d;
		v->flags = SB_JV_I64 | (d >= 0 ? SB_JV_U64 : 0);
	}
	ps->p = p;
	return 0;
}

/* ---- scalars and containers ---- */
static int literal(struct parser *ps, struct sb_jv *v)
{
	static const struct {
		const char *w;
		unsigned char type;
		int b;
	} lits[] = {
		{ "true", SB_JV_BOOL, 1 },
		{ "false", SB_JV_BOOL, 0 },
		{ "null", SB_JV_NULL, 0 },
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(lits); i++) {
		size_t n = strlen(lits[i].w);
		if (*ps->p != (unsigned char)lits[i].w[0])
			continue;
		size_t have = (size_t)(ps->end - ps->p);
		if (have < n && !memcmp(ps->p, lits[i].w, have))
			return fail_at(ps, ps->end, -EBADMSG, "unexpected end of input");
		if (have < n || memcmp(ps->p, lits[i].w, n))
			break;
		memset(v, 0, sizeof(*v));
		v->type = lits[i].type;
		v->boolean = lits[i].b;
		ps->p += n;
		return 0;
	}
	return fail(ps, "expected a value (object, array, string, number, true, false or null)");
}

static int push_child(struct parser *ps, const struct sb_jv *v)
{
	if (ps->nwork == ps->capwork) {
		size_t cap = ps->capwork ? ps->capwork * 2 : 64;
		struct sb_jmember *w = realloc(ps->work, cap * sizeof(*w));
		if (!w)
			return fail_at(ps, ps->p, -ENOMEM, "out of memory");
		ps->work = w;
		ps->capwork = cap;
	}
	struct sb_jmember *m = &ps->work[ps->nwork++];
	m->key = ps->key;
	m->keylen = ps->keylen;
	m->val = *v;
	ps->key = NULL;
	return 0;
}

/* Closes the innermost container into *v. */
static int close_frame(struct parser *ps, struct sb_jv *v)
{
	const struct frame *f = &ps->stack[--ps->depth];
	size_t n = ps->nwork - f->start;
	memset(v, 0, sizeof(*v));
	v->type = f->is_obj ? SB_JV_OBJ : SB_JV_ARR;
	if (n) {
		const struct sb_jmember *kids = ps->work + f->start;
		size_t sz = f->is_obj ? sizeof(struct sb_jmember) : sizeof(struct sb_jv);
		void *dst = arena_alloc(ps->doc, n * sz);
		if (!dst)
			return fail_at(ps, ps->p, -ENOMEM, "out of memory");
		if (f->is_obj)
			memcpy(dst, kids, n * sz);
		else
			for (size_t i = 0; i < n; i++)
				((struct sb_jv *)dst)[i] = kids[i].val;
		if (f->is_obj)
			v->obj.m = dst;
		else
			v->arr.v = dst;
	}
	if (f->is_obj)
		v->obj.n = n;
	else
		v->arr.n = n;
	ps->nwork = f->start;
	ps->key = f->key; /* the container is now its parent's pending member */
	ps->keylen = f->keylen;
	ps->p++;
	return 0;
}

static int key_colon(struct parser *ps)
{
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != '"')
		return fail(ps, "expected a member name in double quotes");
	if (string(ps, &ps->key, &ps->keylen) < 0)
		return ps->rc;
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != ':')
		return fail(ps, "expected ':' after a member name");
	ps->p++;
	return 0;
}

/* Opens a container; 1 when it closed at once (empty, *v set). */
static int open_frame(struct parser *ps, struct sb_jv *v)
{
	int is_obj = *ps->p == '{';
	if (ps->depth >= ps->max_depth)
		return fail_at(ps, ps->p, -E2BIG, "nested too deeply");
	struct frame *f = &ps->stack[ps->depth];
	f->start = ps->nwork;
	f->key = ps->key;
	f->keylen = ps->keylen;
	f->is_obj = (unsigned char)is_obj;
	ps->key = NULL;
	ps->depth++;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == (is_obj ? '}' : ']'))
		return close_frame(ps, v) < 0 ? ps->rc : 1;
	return is_obj ? key_colon(ps) : 0;
}

/* A scalar, or an opened container (returns 1: a value follows). */
static int value(struct parser *ps, struct sb_jv *v)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "");
	switch (*ps->p) {
	case '{':
	case '[': {
		int r = open_frame(ps, v);
		return r < 0 ? r : !r;
	}
	case '"':
		memset(v, 0, sizeof(*v));
		v->type = SB_JV_STR;
		return string(ps, &v->str.s, &v->str.len);
	case '-': return number(ps, v);
	default:
		if (*ps->p >= '0' && *ps->p <= '9')
			return number(ps, v);
		return literal(ps, v);
	}
}

/* After a complete value inside a container: ',' or the close. Returns 1
 * when another value follows, 0 when *v holds a closed container. */
static int next(struct parser *ps, struct sb_jv *v)
{
	int is_obj = ps->stack[ps->depth - 1].is_obj;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ',') {
		ps->p++;
		return is_obj ? (key_colon(ps) < 0 ? ps->rc : 1) : 1;
	}
	if (ps->p < ps->end && *ps->p == (is_obj ? '}' : ']'))
		return close_frame(ps, v) < 0 ? ps->rc : 0;
	return fail(ps, is_obj ? "expected ',' or '}' after a member"
			       : "expected ',' or ']' after an item");
}

static int parse(struct parser *ps)
{
	struct sb_jv v;
	for (;;) {
		int r = value(ps, &v);
		if (r < 0)
			return r;
		if (r == 1)
			continue; /* a container opened: its first value */
		for (;;) {
			if (!ps->depth) {
				ps->doc->root = v;
				skip_ws(ps);
				return ps->p < ps->end
					       ? fail(ps, "unexpected data after the document")
					       : 0;
			}
			if (push_child(ps, &v) < 0)
				return ps->rc;
			r = next(ps, &v);
			if (r < 0)
				return r;
			if (r == 1)
				break;
		}
	}
}

int sb_json_parse(const char *text, size_t len, const struct sb_json_limits *lim,
		  struct sb_jdoc **doc, struct sb_json_error *err)
{
	struct parser ps;
	memset(&ps, 0, sizeof(ps));
	if (err)
		memset(err, 0, sizeof(*err));
	*doc = NULL;
	size_t max_size = lim && lim->max_size ? lim->max_size : SB_JSON_READ_MAX_SIZE;
	ps.max_depth = lim && lim->max_depth ? lim->max_depth : SB_JSON_READ_MAX_DEPTH;
	if (len > max_size) {
		if (err)
			snprintf(err->msg, sizeof(err->msg), "larger than the limit of %zu bytes",
				 max_size);
		return -EFBIG;
	}
	ps.s = ps.p = (const unsigned char *)(text ? text : "");
	ps.end = ps.s + (text ? len : 0);
	ps.err = err;
	if (ps.end - ps.p >= 3 && !memcmp(ps.p, "\xef\xbb\xbf", 3))
		ps.p += 3;
	ps.doc = calloc(1, sizeof(*ps.doc));
	ps.stack = malloc(ps.max_depth * sizeof(*ps.stack));
	int rc = ps.doc && ps.stack ? parse(&ps) : -ENOMEM;
	if (rc == -ENOMEM && err && !err->msg[0])
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	free(ps.stack);
	free(ps.work);
	if (rc < 0) {
		sb_jdoc_free(ps.doc);
		return rc;
	}
	*doc = ps.doc;
	return 0;
}

/*
 * Reading a document in pieces (json_split.h). A scanner follows the
 * structure of the text (strings, nesting, member names) byte by byte as it
 * is read; the items of a named array are cut out into a buffer of their
 * own and parsed one by one, everything else goes to the rest, which is
 * parsed at the end. The scanner judges only what the strict parser cannot
 * see once the pieces are apart (the commas between items); anything else
 * wrong in the text fails the strict parse of the piece that holds it.
 */
#include "lib/json/json_split.h"

#define CHUNK 65536
#define KEY_MAX 64
#define PATH_LEN 512
#define NO_PATH ((size_t)-1)

struct buf {
	char *p;
	size_t len, cap, max;
};

/* object states: waiting for a member name, inside it, after it, waiting
 * for its value, in or after the value; an array waits for an item
 * (K_VALUE) or is in or after one (K_DONE) */
enum { K_WANT, K_IN, K_AFTER, K_VALUE, K_DONE };

struct level {
	unsigned char obj, st;
	size_t index;	/* array: the item being read */
	size_t pathlen; /* this container's path: sp->path[0..pathlen), NO_PATH none */
	size_t keylen;	/* the member being read; NO_PATH: one no path names */
	char key[KEY_MAX];
};

/* Where the rest resumes after the items of an array were cut out. */
struct cut {
	size_t rest_off, off;
	unsigned line, col;
};

struct splitter {
	const struct sb_json_split *s;
	struct sb_json_error *err;
	struct level *lv;
	unsigned depth, max_depth;
	char path[PATH_LEN];
	int in_str, esc, key, done;
	unsigned line, col; /* of the byte being read */
	size_t off;
	/* an array whose items are handed over */
	int streaming, in_item, comma;
	size_t spath, souter, items;
	unsigned idepth, iline, icol;
	size_t ioff;
	struct buf rest, item;
	struct cut *cuts;
	size_t ncuts, capcuts;
};

static const char *const value_msg =
	"expected a value (object, array, string, number, true, false or null)";

static int fail_pos(struct splitter *sp, int rc, unsigned line, unsigned col, size_t off,
		    int at_end, const char *what)
{
	struct sb_json_error *e = sp->err;
	if (e) {
		e->line = line;
		e->column = col;
		e->offset = off;
		e->at_end = at_end;
		snprintf(e->msg, sizeof(e->msg), "line %u column %u: %.150s", line, col, what);
	}
	return rc;
}

static int fail_plain(struct splitter *sp, int rc, const char *what)
{
	if (sp->err) {
		memset(sp->err, 0, sizeof(*sp->err));
		snprintf(sp->err->msg, sizeof(sp->err->msg), "%s", what);
	}
	return rc;
}

static int buf_grow(struct buf *b, size_t n)
{
	if (n > b->max - b->len)
		return -EFBIG;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap = cap > b->max / 2 ? b->max : cap * 2;
	char *p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

static inline int buf_put(struct buf *b, unsigned char c)
{
	if (b->len == b->cap) {
		int e = buf_grow(b, 1);
		if (e < 0)
			return e;
	}
	b->p[b->len++] = (char)c;
	return 0;
}

/* ---- the strict parse of a piece, its positions moved to the stream's ---- */

/* The what of "line L column C: what". */
static const char *what_of(const char *msg)
{
	unsigned l, c;
	int at = -1;
	if (sscanf(msg, "line %u column %u: %n", &l, &c, &at) == 2 && at > 0)
		return msg + at;
	return msg;
}

static int parse_item(struct splitter *sp, struct sb_jdoc **d, struct sb_json_error *e)
{
	unsigned room = sp->max_depth > sp->depth ? sp->max_depth - sp->depth : 1;
	const struct sb_json_limits lim = { sp->item.max, room };
	if (sp->item.len >= 3 && !memcmp(sp->item.p, "\xef\xbb\xbf", 3)) {
		/* the parser skips a byte order mark at the start of its text,
		 * which is the document's start only */
		*d = NULL;
		memset(e, 0, sizeof(*e));
		snprintf(e->msg, sizeof(e->msg), "line 1 column 1: %s", value_msg);
		e->line = e->column = 1;
		return -EBADMSG;
	}
	return sb_json_parse(sp->item.p, sp->item.len, &lim, d, e);
}

static int item_fail(struct splitter *sp, int rc, const struct sb_json_error *e)
{
	unsigned line = sp->iline + e->line - 1;
	unsigned col = e->line > 1 ? e->column : sp->icol + e->column - 1;
	return fail_pos(sp, rc, line, col, sp->ioff + e->offset, 0, what_of(e->msg));
}

static int rest_fail(struct splitter *sp, int rc, const struct sb_json_error *e)
{
	unsigned line = e->line + sp->s->line0 - (sp->s->line0 ? 1 : 0), col = e->column;
	size_t off = e->offset;
	const struct cut *c = NULL;
	for (size_t i = 0; i < sp->ncuts && sp->cuts[i].rest_off <= e->offset; i++)
		c = &sp->cuts[i];
	if (c) { /* the text after the cut, as it stands in the stream */
		size_t nl = 0, last = 0;
		for (size_t k = c->rest_off; k < e->offset; k++)
			if (sp->rest.p[k] == '\n')
				nl++, last = k;
		line = c->line + (unsigned)nl;
		col = nl ? (unsigned)(e->offset - last)
			 : c->col + (unsigned)(e->offset - c->rest_off);
		off = c->off + (e->offset - c->rest_off);
	}
	return fail_pos(sp, rc, line, col, off, e->at_end, what_of(e->msg));
}

/* A fault the scanner finds may follow one the strict parser would have
 * stopped at first: the text read so far, rest then item, is parsed for
 * an earlier fault (one not at its end). 0 when there is none. */
static int earlier_fault(struct splitter *sp)
{
	const struct sb_json_limits lim = { sp->rest.max, sp->max_depth };
	struct sb_json_error e;
	struct sb_jdoc *d;
	int rc = sb_json_parse(sp->rest.p, sp->rest.len, &lim, &d, &e);
	sb_jdoc_free(d);
	if ((rc == -EBADMSG && !e.at_end) || rc == -E2BIG)
		return rest_fail(sp, rc, &e);
	if (!sp->in_item)
		return 0;
	rc = parse_item(sp, &d, &e);
	sb_jdoc_free(d);
	if ((rc == -EBADMSG && !e.at_end) || rc == -E2BIG)
		return item_fail(sp, rc, &e);
	return 0;
}

/* A fault of the text the scanner found at the byte being read (at_end:
 * the stream ended there), unless an earlier one stands before it. */
static int fault(struct splitter *sp, int rc, int at_end, const char *what)
{
	int e = earlier_fault(sp);
	return e ? e : fail_pos(sp, rc, sp->line, sp->col, sp->off, at_end, what);
}

static int too_big(struct splitter *sp, int e, const char *what, size_t max)
{
	char msg[128];
	if (e == -ENOMEM)
		return fail_plain(sp, e, "out of memory");
	snprintf(msg, sizeof(msg), "%s larger than the limit of %zu bytes", what, max);
	return fault(sp, e, 0, msg);
}

/* The item ended at c (',' or ']'). */
static int item_done(struct splitter *sp, unsigned char c)
{
	struct sb_json_error e;
	struct sb_jdoc *d;
	int rc = parse_item(sp, &d, &e);
	if (rc == -EBADMSG && e.at_end && buf_put(&sp->item, c) == 0) {
		/* cut short by its end ("n" of "n,"): the whole parser sees
		 * the ',' and stops where that makes it stop */
		rc = parse_item(sp, &d, &e);
		sp->item.len--;
		if (rc == 0) { /* cannot be: c is no part of a value */
			sb_jdoc_free(d);
			rc = -EBADMSG;
		}
	}
	if (rc == -ENOMEM)
		return fail_plain(sp, rc, "out of memory");
	if (rc < 0) {
		int first = earlier_fault(sp);
		return first ? first : item_fail(sp, rc, &e);
	}
	rc = sp->s->item(sp->s->ctx, sp->spath, sp->souter, sb_jdoc_root(d));
	sb_jdoc_free(d);
	sp->item.len = 0;
	sp->items++;
	if (rc < 0 && sp->err)
		memset(sp->err, 0, sizeof(*sp->err));
	return rc;
}

static int rest_done(struct splitter *sp, struct sb_jdoc **out)
{
	const struct sb_json_limits lim = { sp->rest.max, sp->max_depth };
	struct sb_json_error e;
	int rc = sb_json_parse(sp->rest.p, sp->rest.len, &lim, out, &e);
	if (rc == 0)
		return 0;
	if (rc == -ENOMEM || rc == -EFBIG)
		return fail_plain(sp, rc, rc == -ENOMEM ? "out of memory" : e.msg);
	return rest_fail(sp, rc, &e);
}

/* ---- the scanner ---- */
static int is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Starts handing over the items of the array just opened when its path is named. */
static void maybe_stream(struct splitter *sp, size_t pathlen)
{
	for (size_t k = 0; k < sp->s->npaths; k++) {
		const char *p = sp->s->paths[k];
		if (strlen(p) != pathlen || memcmp(p, sp->path, pathlen))
			continue;
		sp->streaming = 1;
		sp->spath = k;
		sp->souter = 0;
		sp->items = 0;
		sp->comma = 0;
		for (unsigned i = 0; i + 1 < sp->depth; i++)
			if (!sp->lv[i].obj) {
				sp->souter = sp->lv[i].index;
				break;
			}
		return;
	}
}

static int push(struct splitter *sp, int obj)
{
	if (sp->depth >= sp->max_depth)
		return fault(sp, -E2BIG, 0, "nested too deeply");
	const struct level *up = sp->depth ? &sp->lv[sp->depth - 1] : NULL;
	struct level *l = &sp->lv[sp->depth];
	size_t at = up ? up->pathlen : 0;
	l->obj = (unsigned char)obj;
	l->st = obj ? K_WANT : K_VALUE;
	l->index = 0;
	l->keylen = 0;
	if (up && at != NO_PATH) {
		const char *name = up->obj ? up->key : "[]";
		size_t n = up->obj ? up->keylen : 2, dot = up->obj && at;
		if (up->st != K_VALUE || n == NO_PATH)
			at = NO_PATH;
		else if (at + dot + n >= sizeof(sp->path))
			at = NO_PATH;
		else {
			if (dot)
				sp->path[at] = '.';
			memcpy(sp->path + at + dot, name, n);
			at += dot + n;
		}
	}
	l->pathlen = at;
	if (up)
		sp->lv[sp->depth - 1].st = K_DONE;
	sp->depth++;
	if (!obj && at != NO_PATH)
		maybe_stream(sp, at);
	return 0;
}

/* A byte outside the arrays whose items are handed over. */
static int rest_byte(struct splitter *sp, unsigned char c)
{
	struct level *top = sp->depth ? &sp->lv[sp->depth - 1] : NULL;
	int e = buf_put(&sp->rest, c);
	if (e < 0)
		return too_big(sp, e, "the document without its items is", sp->rest.max);
	if (sp->in_str) {
		if (sp->esc) {
			sp->esc = 0;
		} else if (c == '\\') {
			sp->esc = 1;
			if (sp->key)
				top->keylen = NO_PATH; /* an escaped name matches no path */
		} else if (c == '"') {
			sp->in_str = 0;
			if (sp->key)
				top->st = K_AFTER;
			sp->key = 0;
		} else if (sp->key && top->keylen != NO_PATH) {
			if (top->keylen + 1 < KEY_MAX)
				top->key[top->keylen++] = (char)c;
			else
				top->keylen = NO_PATH;
		}
		return 0;
	}
	if (top && top->st == K_VALUE && !is_ws(c) && c != '{' && c != '[')
		top->st = K_DONE; /* a scalar value (push marks a container) */
	switch (c) {
	case '"':
		sp->in_str = 1;
		if (top && top->obj && top->st == K_WANT) {
			sp->key = 1;
			top->st = K_IN;
			top->keylen = 0;
		}
		return 0;
	case ':':
		if (top && top->obj && top->st == K_AFTER)
			top->st = K_VALUE;
		return 0;
	case ',':
		if (top && top->obj) {
			top->st = K_WANT;
		} else if (top) {
			top->st = K_VALUE;
			top->index++;
		}
		return 0;
	case '{':
	case '[': return push(sp, c == '{');
	case '}':
	case ']':
		if (sp->depth && !--sp->depth)
			sp->done = 1; /* the root value closed */
		return 0;
	}
	return 0;
}

static int between_items(struct splitter *sp, unsigned char c);

/* A byte of an item of an array handed over. */
static int item_byte(struct splitter *sp, unsigned char c)
{
	if (!sp->in_str && !sp->idepth && (c == ',' || c == ']')) {
		sp->in_item = 0;
		int e = item_done(sp, c);
		return e < 0 ? e : between_items(sp, c);
	}
	int e = buf_put(&sp->item, c);
	if (e < 0)
		return too_big(sp, e, "an item is", sp->item.max);
	if (sp->in_str) {
		if (sp->esc)
			sp->esc = 0;
		else if (c == '\\')
			sp->esc = 1;
		else if (c == '"')
			sp->in_str = 0;
	} else if (c == '"') {
		sp->in_str = 1;
	} else if (c == '{' || c == '[') {
		if (sp->depth + ++sp->idepth > sp->max_depth)
			return fault(sp, -E2BIG, 0, "nested too deeply");
	} else if ((c == '}' || c == ']') && sp->idepth) {
		sp->idepth--;
	}
	return 0;
}

/* A byte of an array handed over, outside its items: a comma, the end,
 * space, or the start of the next item. */
static int between_items(struct splitter *sp, unsigned char c)
{
	if (is_ws(c))
		return 0;
	if (c == ',') {
		if (!sp->items || sp->comma)
			return fault(sp, -EBADMSG, 0, value_msg);
		sp->comma = 1;
		return 0;
	}
	if (c == ']') {
		if (sp->comma)
			return fault(sp, -EBADMSG, 0, value_msg);
		if (sp->ncuts == sp->capcuts) {
			size_t cap = sp->capcuts ? 2 * sp->capcuts : 16;
			struct cut *v = realloc(sp->cuts, cap * sizeof(*v));
			if (!v)
				return fail_plain(sp, -ENOMEM, "out of memory");
			sp->cuts = v;
			sp->capcuts = cap;
		}
		sp->cuts[sp->ncuts++] = (struct cut){ sp->rest.len, sp->off, sp->line, sp->col };
		sp->streaming = 0;
		return rest_byte(sp, c);
	}
	if (sp->items && !sp->comma) /* cannot happen: an item ends only at ',' or ']' */
		return fault(sp, -EBADMSG, 0, "expected ',' or ']' after an item");
	sp->comma = 0;
	sp->in_item = 1;
	sp->idepth = 0;
	sp->iline = sp->line;
	sp->icol = sp->col;
	sp->ioff = sp->off;
	return item_byte(sp, c);
}

static int scan(struct splitter *sp, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int e = sp->in_item	? item_byte(sp, p[i])
			: sp->streaming ? between_items(sp, p[i])
					: rest_byte(sp, p[i]);
		if (e < 0)
			return e;
		if (p[i] == '\n')
			sp->line++, sp->col = 1;
		else
			sp->col++;
		sp->off++;
		if (sp->done && sp->s->doc_end)
			return 1;
	}
	return 0;
}

int sb_json_split_read(FILE *f, const struct sb_json_split *s, struct sb_jdoc **rest,
		       struct sb_json_error *err)
{
	struct splitter sp;
	unsigned char *chunk = malloc(CHUNK);
	int rc = 0;
	memset(&sp, 0, sizeof(sp));
	*rest = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	sp.s = s;
	sp.err = err;
	sp.max_depth = s->max_depth ? s->max_depth : SB_JSON_READ_MAX_DEPTH;
	sp.line = s->line0 ? s->line0 : 1;
	sp.col = 1;
	sp.rest.max = s->max_rest ? s->max_rest : SB_JSON_READ_MAX_SIZE;
	sp.item.max = s->max_item ? s->max_item : SB_JSON_READ_MAX_SIZE;
	sp.lv = malloc(sp.max_depth * sizeof(*sp.lv));
	if (!chunk || !sp.lv)
		rc = fail_plain(&sp, -ENOMEM, "out of memory");
	while (!rc) {
		size_t n = fread(chunk, 1, CHUNK, f);
		if (n)
			rc = scan(&sp, chunk, n);
		if (rc > 0) {
			*s->doc_end = sp.off;
			rc = 0;
			break;
		}
		if (n < CHUNK && !rc) {
			if (ferror(f))
				rc = fail_plain(&sp, -EIO, "read error");
			break;
		}
	}
	if (!rc && (sp.streaming || sp.in_item))
		rc = fault(&sp, -EBADMSG, 1, "unexpected end of input");
	if (!rc)
		rc = rest_done(&sp, rest);
	free(chunk);
	free(sp.lv);
	free(sp.rest.p);
	free(sp.item.p);
	free(sp.cuts);
	return rc;
}

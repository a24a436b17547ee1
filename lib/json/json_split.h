/*
 * A JSON document read from a stream in pieces, for documents too long to
 * hold: the items of the arrays named are parsed one at a time (as strictly
 * as sb_json_parse does) and handed to a callback, then freed; the rest of
 * the document, with those arrays left empty, is parsed into a tree at the
 * end. A results file with a day of per-second intervals is read in memory
 * for one interval and the rest, not for the file.
 *
 *   static const char *const paths[] = { "jobs[].storbench.series" };
 *   struct sb_json_split s = { paths, 1, on_item, ctx };
 *   rc = sb_json_split_read(f, &s, &rest, &err);
 *
 * A path names an array from the root: member names joined with '.', and
 * "[]" for the items of an array on the way ("jobs[].storbench.series" is
 * the series of every job). A member name with an escape in it matches no
 * path. Arrays inside an item are the item's, never handed over apart.
 * Errors carry the line and column in the stream, as sb_json_parse's do.
 */
#ifndef SB_JSON_SPLIT_H
#define SB_JSON_SPLIT_H

#include "lib/json/json_read.h"

struct sb_json_split {
	const char *const *paths;
	size_t npaths;
	/* Each item of an array of paths[path], in order. outer: the index of
	 * the item of the first array the path passes through ("jobs[]": which
	 * job), 0 when it passes through none. v lives until the call returns.
	 * A negative return stops the reading and is returned. */
	int (*item)(void *ctx, size_t path, size_t outer, const struct sb_jv *v);
	void *ctx;
	size_t max_item;    /* bytes of one item; 0: SB_JSON_READ_MAX_SIZE */
	size_t max_rest;    /* bytes of the rest; 0: SB_JSON_READ_MAX_SIZE */
	unsigned max_depth; /* 0: SB_JSON_READ_MAX_DEPTH */
	unsigned line0;	    /* the line of the stream's first byte (0: 1) */
	/* Not NULL: the reading stops after the root value and *doc_end gets
	 * the bytes read up to there; what follows is left to the caller
	 * (fio's --output-format=normal,json puts its text after the JSON).
	 * NULL: anything but white space after the root value is an error. */
	size_t *doc_end;
};

/* Reads one document from f to its end: 0 and *rest, or a negative errno
 * with err filled as sb_json_parse's (-EBADMSG, -E2BIG, -EFBIG for an item
 * or a rest over its limit, -ENOMEM), the callback's own return, or -EIO
 * when f cannot be read. Items handed over before a failure were items of
 * a document that is not valid after all: the caller drops what it took. */
int sb_json_split_read(FILE *f, const struct sb_json_split *s, struct sb_jdoc **rest,
		       struct sb_json_error *err);

#endif

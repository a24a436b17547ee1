/*
 * Text from files shown on a terminal (report.h, rep_vis): a result's,
 * a log's, a journal's or the history's strings are anyone's bytes, and
 * an escape sequence in a job's name could move the cursor, clear the
 * screen or set the window's title, a carriage return or a newline forge
 * a line. They are written visibly as git and ls -b do: \n and \r as C
 * escapes, the other C0 controls but the tab, DEL and bytes that are not UTF-8 as
 * \xHH, the C1 controls (U+0080..U+009F, which some terminals obey) as
 * \uHHHH; valid UTF-8 text is left as it is.
 */
#include "report/report.h"

size_t rep_vis_char(const char *str, char out[8], size_t *used)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char c = s[0];
	size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 1;
	/* the second byte's range: no overlong form, no surrogate, nothing past U+10FFFF */
	const unsigned char lo = c == 0xe0   ? 0xa0
				 : c == 0xf0 ? 0x90
					     : 0x80,
			    hi = c == 0xed   ? 0x9f
				 : c == 0xf4 ? 0x8f
					     : 0xbf;
	*used = 1;
	if ((c >= 0x20 && c < 0x7f) || c == '\t') { /* a tab moves no further than text */
		out[0] = (char)c, out[1] = 0;
		return 1;
	}
	const char *esc = c == '\n' ? "\\n" : c == '\r' ? "\\r" : NULL;
	if (esc)
		return (size_t)snprintf(out, 8, "%s", esc);
	if (c < 0x80 || n == 1 || s[1] < lo || s[1] > hi)
		return (size_t)snprintf(out, 8, "\\x%02x", c);
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return (size_t)snprintf(out, 8, "\\x%02x", c);
	*used = n;
	if (c == 0xc2 && s[1] < 0xa0)
		return (size_t)snprintf(out, 8, "\\u%04x", s[1]);
	memcpy(out, s, n);
	out[n] = 0;
	return n;
}

const char *rep_vis(const char *s, char *buf, size_t len)
{
	size_t at = 0, used;
	char one[8];
	if (!s)
		return NULL;
	const unsigned char *u = (const unsigned char *)s;
	while (*u && rep_vis_char((const char *)u, one, &used) == used && !memcmp(one, u, used))
		u += used;
	if (!*u)
		return s; /* nothing to show otherwise: no copy, no limit */
	for (u = (const unsigned char *)s; *u && len; u += used) {
		const size_t n = rep_vis_char((const char *)u, one, &used);
		if (at + n + 1 > len)
			break;
		memcpy(buf + at, one, n);
		at += n;
	}
	if (len)
		buf[at] = 0;
	return buf;
}

void rep_vis_put(FILE *f, const char *s)
{
	char one[8];
	size_t used;
	for (const unsigned char *u = (const unsigned char *)s; u && *u; u += used)
		fputs((rep_vis_char((const char *)u, one, &used), one), f);
}

const char *rep_vs(struct rep_vis_ring *v, const char *s)
{
	return rep_vis(s, v->b[v->k++ % SB_ARRAY_SIZE(v->b)], REP_VIS);
}

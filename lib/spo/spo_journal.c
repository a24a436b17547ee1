/*
 * The SPO acknowledgement journal, read back: a strict parser of the text
 * the writer streams (lib/spo/spo.h has the format). The journal comes
 * from outside (another host, a serial console's capture), so every field
 * is checked: a record must be one of the five kinds, numbers plain
 * decimal, sequence numbers in order, offsets inside the region and
 * aligned, times never going back. Only the last line may be torn: the
 * power cut can interrupt it; it is left out and said.
 */
#include "lib/spo/spo.h"

#include <fcntl.h>
#include <unistd.h>

#define LINE_MAX_LEN 512

static const char *const sync_names[] = { "fdatasync", "fsync", "dsync", "none" };
static const char *const rw_names[] = { "randwrite", "write", "mixed" };

const char *sb_spo_sync_name(int s)
{
	return s >= 0 && s < (int)SB_ARRAY_SIZE(sync_names) ? sync_names[s] : "?";
}

int sb_spo_sync_parse(const char *s)
{
	for (int i = 0; i < (int)SB_ARRAY_SIZE(sync_names); i++)
		if (!strcmp(s, sync_names[i]))
			return i;
	return -1;
}

const char *sb_spo_rw_name(int rw)
{
	return rw >= 0 && rw < (int)SB_ARRAY_SIZE(rw_names) ? rw_names[rw] : "?";
}

int sb_spo_rw_parse(const char *s)
{
	for (int i = 0; i < (int)SB_ARRAY_SIZE(rw_names); i++)
		if (!strcmp(s, rw_names[i]))
			return i;
	return -1;
}

/* A plain decimal number (digits only, no sign, no overflow) ending at a
 * space or the end of the line; *p moves past it and one space. */
static int num(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (s < end && *s != ' ')
		return -1;
	*p = s < end ? s + 1 : s;
	*out = v;
	return 0;
}

/* "key=" then what follows up to a space: a token of the header. */
static int key(const char **p, const char *end, const char *k)
{
	const size_t n = strlen(k);
	if ((size_t)(end - *p) <= n || memcmp(*p, k, n) || (*p)[n] != '=')
		return -1;
	*p += n + 1;
	return 0;
}

static int word(const char **p, const char *end, char *out, size_t len)
{
	size_t n = 0;
	while (*p < end && **p != ' ' && n + 1 < len)
		out[n++] = *(*p)++;
	out[n] = 0;
	if (*p < end && **p != ' ')
		return -1;
	if (*p < end)
		(*p)++;
	return n ? 0 : -1;
}

static int hex16(const char **p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	int i;
	for (i = 0; i < 16 && *p < end; i++, (*p)++) {
		const char c = **p;
		const int d = c >= '0' && c <= '9'   ? c - '0'
			      : c >= 'a' && c <= 'f' ? c - 'a' + 10
						     : -1;
		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (i != 16 || (*p < end && **p != ' '))
		return -1;
	if (*p < end)
		(*p)++;
	*out = v;
	return 0;
}

static int header_fields(const char *s, const char *end, struct sb_spo_header *h)
{
	const size_t ml = strlen(SB_SPO_JOURNAL_MAGIC);
	uint64_t v, bs, depth;
	char sync[16], rw[16];

	if ((size_t)(end - s) < ml + 1 || memcmp(s, SB_SPO_JOURNAL_MAGIC, ml) || s[ml] != ' ')
		return -1;
	s += ml + 1;
	if (num(&s, end, &v) || v != 1 || key(&s, end, "run") || hex16(&s, end, &h->run_id) ||
	    key(&s, end, "bs") || num(&s, end, &bs) || key(&s, end, "offset") ||
	    num(&s, end, &h->offset) || key(&s, end, "size") || num(&s, end, &h->size) ||
	    key(&s, end, "canary") || num(&s, end, &h->canary) || key(&s, end, "sync") ||
	    word(&s, end, sync, sizeof(sync)) || key(&s, end, "rw") ||
	    word(&s, end, rw, sizeof(rw)) || key(&s, end, "iodepth") || num(&s, end, &depth) ||
	    key(&s, end, "start") || num(&s, end, &h->start_unix_ns) || s != end)
		return -1;
	h->sync = sb_spo_sync_parse(sync);
	h->rw = sb_spo_rw_parse(rw);
	if (h->sync < 0 || h->rw < 0 || bs < SB_SPO_SECTOR || bs > SB_SPO_MAX_BS ||
	    bs % SB_SPO_SECTOR || depth < 1 || depth > SB_SPO_MAX_DEPTH ||
	    h->offset % SB_SPO_SECTOR || h->size % bs || h->canary % bs || h->canary >= h->size ||
	    h->offset > UINT64_MAX - h->size)
		return -2;
	h->bs = (uint32_t)bs;
	h->iodepth = (unsigned)depth;
	return 0;
}

static int add_write(struct sb_spo_journal *jn, size_t *cap, uint64_t off, uint64_t t)
{
	if (jn->nw == *cap) {
		const size_t n = *cap ? *cap * 2 : 1024;
		struct sb_spo_write *w = realloc(jn->w, n * sizeof(*w));
		if (!w)
			return -ENOMEM;
		jn->w = w;
		*cap = n;
	}
	jn->w[jn->nw] = (struct sb_spo_write){ jn->nw + 1, off, t, UINT64_MAX };
	jn->nw++;
	return 0;
}

/* One record after the header; 0, -1 malformed (why set), -ENOMEM. */
static int record(struct sb_spo_journal *jn, const char *s, const char *end, size_t *cap,
		  const char **why)
{
	const struct sb_spo_header *h = &jn->h;
	uint64_t a, b, t;
	const char kind = *s;

	*why = "not a record (I, A, C or E)";
	if (end - s < 3 || s[1] != ' ')
		return -1;
	s += 2;
	*why = "malformed numbers";
	switch (kind) {
	case 'I':
		if (num(&s, end, &a) || num(&s, end, &b) || num(&s, end, &t) || s != end)
			return -1;
		*why = "intent out of order (sequence numbers go 1, 2, 3, ...)";
		if (a != jn->nw + 1)
			return -1;
		*why = "intent offset outside the region or not aligned to bs";
		if (b < h->offset + h->canary || b > h->offset + h->size - h->bs ||
		    (b - h->offset) % h->bs)
			return -1;
		break;
	case 'A':
		if (num(&s, end, &a) || num(&s, end, &t) || s != end)
			return -1;
		*why = "acknowledgement of a write with no intent before it";
		if (a < 1 || a > jn->nw)
			return -1;
		*why = "second acknowledgement of one write";
		if (jn->w[a - 1].t_ack != UINT64_MAX)
			return -1;
		break;
	case 'C':
	case 'E':
		if (num(&s, end, &t) || s != end)
			return -1;
		*why = kind == 'C' ? "second cut record" : "second end record";
		if (kind == 'C' ? jn->cut_known : jn->ended)
			return -1;
		break;
	default: *why = "not a record (I, A, C or E)"; return -1;
	}
	*why = "time goes back";
	if (t < jn->t_last)
		return -1;
	jn->t_last = t;
	if (kind == 'I')
		return add_write(jn, cap, b, t);
	if (kind == 'A') {
		jn->w[a - 1].t_ack = t;
		jn->nacked++;
	} else if (kind == 'C') {
		jn->cut_known = 1;
		jn->t_cut = t;
	} else {
		jn->ended = 1;
	}
	return 0;
}

int sb_spo_journal_parse(const char *buf, size_t len, struct sb_spo_journal *jn, char *msg,
			 size_t msglen)
{
	size_t cap = 0, pos = 0;
	const char *why;

	memset(jn, 0, sizeof(*jn));
	/* a tail of zeros: a filesystem's unwritten end after the cut */
	while (len && !buf[len - 1])
		len--;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		if (!nl) {
			jn->torn_tail = 1; /* the cut interrupted the last line */
			break;
		}
		const char *s = buf + pos, *end = nl;
		jn->lines++;
		pos = (size_t)(nl - buf) + 1;
		if (end - s > LINE_MAX_LEN || memchr(s, 0, (size_t)(end - s))) {
			why = "line too long or not text";
		} else if (end > s && end[-1] == ' ') {
			why = "malformed (a space at the end)";
		} else if (jn->lines == 1) {
			const int e = header_fields(s, end, &jn->h);
			if (!e)
				continue;
			why = e == -1 ? "not a storbench spo journal header (" SB_SPO_JOURNAL_MAGIC
					" 1 run=... )"
				      : "header values out of range";
		} else {
			const int e = record(jn, s, end, &cap, &why);
			if (!e)
				continue;
			if (e == -ENOMEM)
				return snprintf(msg, msglen, "out of memory"), -ENOMEM;
		}
		snprintf(msg, msglen, "journal line %zu: %s", jn->lines, why);
		return -EINVAL;
	}
	if (jn->lines == 0) {
		snprintf(msg, msglen, "journal: no complete header line (empty or torn)");
		return -EINVAL;
	}
	return 0;
}

int sb_spo_journal_read(const char *path, struct sb_spo_journal *jn, char *msg, size_t msglen)
{
	const int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	int e = 0;

	memset(jn, 0, sizeof(*jn));
	if (fd < 0 || !buf) {
		e = fd < 0 ? -errno : -ENOMEM;
		free(buf);
		snprintf(msg, msglen, "cannot read the journal '%s': %s", path, strerror(-e));
		return e;
	}
	for (;;) {
		if (len == cap) {
			/* at most 16 GiB, and never past what doubling a size_t can hold */
			char *n = cap < (SIZE_MAX / 2 < (1ull << 34) ? SIZE_MAX / 2 : (1ull << 34))
					  ? realloc(buf, cap * 2)
					  : NULL;
			if (!n) {
				e = -ENOMEM;
				break;
			}
			buf = n;
			cap *= 2;
		}
		const ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? -errno : 0;
			break;
		}
		len += (size_t)r;
	}
	if (fd > 0)
		close(fd);
	if (e) {
		free(buf);
		snprintf(msg, msglen, "cannot read the journal '%s': %s", path, strerror(-e));
		return e;
	}
	e = sb_spo_journal_parse(buf, len, jn, msg, msglen);
	free(buf);
	return e;
}

void sb_spo_journal_free(struct sb_spo_journal *jn)
{
	free(jn->w);
	jn->w = NULL;
	jn->nw = 0;
}

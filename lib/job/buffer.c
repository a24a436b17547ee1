/*
 * Write buffers. Random data comes 8 bytes per generator call; the
 * compressible share is zeros at the end of each 4 KiB segment, which is
 * what a block compressor (zram, a flash controller) sees per page.
 */
#include "lib/job/buffer.h"

#include <assert.h>

#define SEGMENT 4096
#define SECTOR 512

void *sb_buf_alloc(size_t len, size_t align)
{
	void *p;
	int err;

	if (align < sizeof(void *))
		align = sizeof(void *); /* posix_memalign's minimum */
	err = posix_memalign(&p, align, len ? len : 1);
	if (err) {
		errno = err;
		return NULL;
	}
	return p;
}

static void fill_random(unsigned char *p, size_t len, struct sb_rng *rng)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		const uint64_t r = sb_rng_next(rng);
		memcpy(p + i, &r, 8);
	}
	if (i < len) {
		const uint64_t r = sb_rng_next(rng);
		memcpy(p + i, &r, len - i);
	}
}

void sb_buf_fill(void *buf, size_t len, struct sb_rng *rng, unsigned compress_pct)
{
	unsigned char *p = buf;

	assert(buf || !len);
	if (compress_pct > 100)
		compress_pct = 100;
	for (size_t off = 0; off < len; off += SEGMENT) {
		const size_t seg = SB_MIN(len - off, (size_t)SEGMENT);
		const size_t zeros = seg * compress_pct / 100;

		fill_random(p + off, seg - zeros, rng);
		memset(p + off + seg - zeros, 0, zeros);
	}
}

void sb_buf_scramble(void *buf, size_t len, uint64_t r)
{
	unsigned char *p = buf;

	for (size_t off = 0; off < len; off += SECTOR) {
		const size_t n = SB_MIN(len - off, sizeof(r));
		uint64_t v = 0;

		memcpy(&v, p + off, n);
		v ^= r;
		memcpy(p + off, &v, n);
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int starts_hex(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hexval(s[2]) >= 0;
}

/* 0xHEX at s: the digits up to the next 0x (fio's "0xff0x14" is ff, 14). */
static int parse_hex(const char **sp, uint8_t *out, size_t cap, size_t *n)
{
	const char *d = *sp + 2;
	size_t nd = 0;
	while (hexval(d[nd]) >= 0)
		nd++;
	if (d[nd] && nd > 1 && (d[nd] == 'x' || d[nd] == 'X') && d[nd - 1] == '0')
		nd--;
	for (size_t i = 0; i < nd;) {
		size_t take = (nd - i) % 2 ? 1 : 2; /* an odd count: the first alone */
		int v = 0;
		for (size_t k = 0; k < take; k++)
			v = v * 16 + hexval(d[i + k]);
		if (*n >= cap)
			return -EINVAL;
		out[(*n)++] = (uint8_t)v;
		i += take;
	}
	*sp = d + nd;
	return 0;
}

/* A decimal at s, up to the next 0x anywhere after it (as fio looks ahead). */
static int parse_decimal(const char **sp, uint8_t *out, size_t cap, size_t *n)
{
	const char *s = *sp, *stop = s + strlen(s);
	for (const char *p = s; *p; p++)
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			stop = p;
			break;
		}
	const char *p = s;
	int neg = 0;
	if (p < stop && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (p >= stop || *p < '0' || *p > '9')
		return -EINVAL;
	int64_t v = 0;
	while (p < stop && *p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (v > (int64_t)INT32_MAX + 1)
			return -EINVAL;
	}
	if (neg)
		v = -v;
	if (v > INT32_MAX || v < INT32_MIN)
		return -EINVAL;
	uint32_t u = (uint32_t)(int32_t)v;
	do {
		if (*n >= cap)
			return -EINVAL;
		out[(*n)++] = (uint8_t)(u & 0xff);
		u >>= 8;
	} while (u);
	*sp = p;
	return 0;
}

int sb_buf_parse_pattern(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		int r;
		if (*s == '"') {
			const char *end = strchr(s + 1, '"');
			if (!end || end == s + 1 || (size_t)(end - s - 1) > cap - n)
				return -EINVAL;
			memcpy(out + n, s + 1, (size_t)(end - s - 1));
			n += (size_t)(end - s - 1);
			s = end + 1;
			continue;
		}
		if (starts_hex(s))
			r = parse_hex(&s, out, cap, &n);
		else
			r = parse_decimal(&s, out, cap, &n);
		if (r < 0)
			return r;
	}
	return n ? (int)n : -EINVAL;
}

void sb_buf_fill_pattern(void *buf, size_t len, const uint8_t *pat, size_t plen)
{
	uint8_t *b = buf;
	size_t done = SB_MIN(plen, len);
	memcpy(b, pat, done);
	while (done < len) { /* double what is there */
		size_t k = SB_MIN(done, len - done);
		memcpy(b + done, b, k);
		done += k;
	}
}

/*
 * Units: parsing of sizes (512, 4k, 1M, 2G, 1T; k = 1024 as in fio, with
 * optional "iB"/"B" suffix), durations (500ms, 30s, 5m, 2h, 10us, 100ns;
 * a bare number means seconds), percentages (50 or 50%), block size splits
 * (4k/60:64k/40) and formatting in IEC units for humans.
 */
#ifndef SB_UNITS_H
#define SB_UNITS_H

#include "lib/sb.h"

/* Parsers return 0, or -EINVAL for malformed input, -ERANGE on overflow. */
int sb_parse_size(const char *s, uint64_t *out);
int sb_parse_duration_ns(const char *s, uint64_t *out);
int sb_parse_percent(const char *s, unsigned *out); /* 0..100 */
int sb_parse_u64(const char *s, uint64_t *out);	    /* plain decimal */
/* The bytes of the character that starts at s, as typed: 2 to 4 for a
 * UTF-8 sequence whose continuation bytes are all there, else 1 (ASCII, a
 * stray byte), 0 at the end. So a message names "-\u00e9", never half of it. */
size_t sb_utf8_char_len(const char *s);
/* The Levenshtein distance of a and b, each cut to 96 characters: how a
 * misspelt name is matched to the nearest known ones (a plan's figures,
 * a history's stored figures). */
unsigned sb_edit_distance(const char *a, const char *b);
int sb_parse_double(const char *s, double *out); /* finite only */
/* A count from lo to hi (hi at most UINT_MAX), with x_ok also "Nx" (N
 * times): 0 or -EINVAL. */
int sb_parse_count(const char *s, uint64_t lo, uint64_t hi, int x_ok, unsigned *out);
/* A date, UTC: 2026-12-01, 2026-12-01T08:00[:00] (or a space for the T),
 * or seconds since 1970 (a number above 99999999), as seconds since 1970.
 * 0 or -EINVAL. */
int sb_parse_date(const char *s, int64_t *out);
/* "a,b,c": each item of s in turn to item(ctx, item); the first non-zero
 * return ends it and is returned. -EINVAL for an empty s, an empty item
 * ("a,,b", a comma first or last) or s of max characters or more (max at
 * most 1024). */
int sb_parse_list(const char *s, size_t max, int (*item)(void *ctx, const char *w), void *ctx);

struct sb_bssplit {
	uint32_t bs;
	uint32_t pct;
};
#define SB_BSSPLIT_MAX 16
/* "4k/60:64k/40". Percentages must sum to 100; an entry without "/pct"
 * takes an equal share of what the others leave. *n gets the count. */
int sb_parse_bssplit(const char *s, struct sb_bssplit *out, unsigned max, unsigned *n);

/* Human formatting; return buf. "1.50 GiB", "512 B", "123 MiB/s", "12.3 us". */
char *sb_fmt_size(uint64_t bytes, char *buf, size_t len);
char *sb_fmt_rate(double bytes_per_s, char *buf, size_t len);
/* In decimal (SI) units, as fio's second figure, CrystalDiskMark and
 * datasheets print them: "1.23 GB/s", "950 MB/s" (1 MB = 10^6 bytes). */
char *sb_fmt_rate_si(double bytes_per_s, char *buf, size_t len);
char *sb_fmt_ns(double ns, char *buf, size_t len);
char *sb_fmt_count(double n, char *buf, size_t len); /* 12.3k, 1.20M */

#endif

/*
 * Units: parsing sizes, durations, percentages and block size splits, and
 * formatting numbers for humans with three significant digits.
 *
 * Numbers are parsed by hand rather than with strtoull/strtod: those accept
 * leading blanks, signs, hex and locale-dependent decimal points, none of
 * which belong in "4k" or "1.5s", and a fraction times a binary multiplier
 * must be checked for exactness ("0.3k" is not a whole number of bytes),
 * which floating point cannot do.
 */
#include "lib/base/units.h"
#include "lib/base/u128.h"

#include <math.h>
#include <time.h>

/* A non-negative decimal ip.frac, frac = frac_num / frac_den exactly. */
struct decimal {
	uint64_t ip;
	uint64_t frac_num;
	uint64_t frac_den; /* 10^digits kept, at most 10^19 */
	int inexact;	   /* nonzero digits beyond what frac_num keeps */
};

#define FRAC_DEN_MAX 10000000000000000000ull /* 10^19 */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* [0-9]+ at *sp into *out; advances *sp. */
static int parse_digits(const char **sp, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;
	int err = 0;

	if (!is_digit(*s))
		return -EINVAL;
	for (; is_digit(*s); s++) {
		const unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			err = -ERANGE; /* keep going: junk after it is still junk */
		else
			v = v * 10 + d;
	}
	*sp = s;
	*out = v;
	return err;
}

/* [0-9]+(\.[0-9]+)? at *sp; advances *sp past it. */
static int parse_decimal(const char **sp, struct decimal *d)
{
	const char *s = *sp;
	int err = parse_digits(&s, &d->ip);

	d->frac_num = 0;
	d->frac_den = 1;
	d->inexact = 0;
	if (err == -EINVAL)
		return err;
	if (*s == '.') {
		if (!is_digit(*++s))
			return -EINVAL;
		for (; is_digit(*s); s++) {
			const unsigned digit = (unsigned)(*s - '0');
			if (d->frac_den < FRAC_DEN_MAX) {
				d->frac_num = d->frac_num * 10 + digit;
				d->frac_den *= 10;
			} else if (digit) {
				d->inexact = 1;
			}
		}
		while (d->frac_den > 1 && d->frac_num % 10 == 0) {
			d->frac_num /= 10;
			d->frac_den /= 10;
		}
	}
	*sp = s;
	return err;
}

/*
 * d * mult into *out. With exact set, a result that is not a whole number is
 * -EINVAL; otherwise it is rounded to the nearest integer.
 */
static int scale_decimal(const struct decimal *d, uint64_t mult, int exact, uint64_t *out)
{
	uint64_t rem;
	const sb_u128 whole = sb_u128_mul(d->ip, mult);
	sb_u128 q = sb_u128_div(sb_u128_mul(d->frac_num, mult), d->frac_den, &rem);

	if (exact && (rem || d->inexact))
		return -EINVAL;
	if (!exact && rem >= d->frac_den - rem) /* rem * 2 >= den, without overflow */
		q = sb_u128_add(q, sb_u128_from(1));
	q = sb_u128_add(whole, q);
	if (sb_u128_hi(q))
		return -ERANGE;
	*out = sb_u128_lo(q);
	return 0;
}

static int lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int sb_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v;
	int err = parse_digits(&s, &v);

	if (err == -EINVAL || *s)
		return -EINVAL;
	if (err)
		return err;
	*out = v;
	return 0;
}

int sb_parse_count(const char *s, uint64_t lo, uint64_t hi, int x_ok, unsigned *out)
{
	char buf[32];
	uint64_t n;
	const size_t len = strlen(s);
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len + 1);
	if (x_ok && (buf[len - 1] == 'x' || buf[len - 1] == 'X'))
		buf[len - 1] = '\0';
	if (sb_parse_u64(buf, &n) < 0 || n < lo || n > hi)
		return -EINVAL;
	*out = (unsigned)n;
	return 0;
}

int sb_parse_date(const char *s, int64_t *out)
{
	struct tm tm = { 0 };
	const char *end;
	uint64_t n;
	if (sb_parse_u64(s, &n) == 0 && n > 99999999 && n < INT64_MAX)
		return *out = (int64_t)n, 0;
	if (!(end = strptime(s, "%Y-%m-%d", &tm)))
		return -EINVAL;
	if (*end == 'T' || *end == ' ') {
		const char *e2 = strptime(end + 1, "%H:%M:%S", &tm);
		end = e2 ? e2 : strptime(end + 1, "%H:%M", &tm);
		if (!end)
			return -EINVAL;
	}
	if (*end)
		return -EINVAL;
	*out = (int64_t)timegm(&tm);
	return 0;
}

int sb_parse_list(const char *s, size_t max, int (*item)(void *ctx, const char *w), void *ctx)
{
	char buf[1024], *save = NULL;
	const size_t len = strlen(s);
	if (!len || len >= max || len >= sizeof(buf) || *s == ',' || s[len - 1] == ',' ||
	    strstr(s, ",,"))
		return -EINVAL;
	memcpy(buf, s, len + 1);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		const int rc = item(ctx, w);
		if (rc)
			return rc;
	}
	return 0;
}

int sb_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	/* strtod would also skip blanks and take "nan", "inf" and hex */
	if (!*s || s[strspn(s, "0123456789+-.eE")])
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || isnan(v))
		return -EINVAL;
	if (isinf(v) || (errno == ERANGE && fabs(v) >= 1.0))
		return -ERANGE;
	*out = v;
	return 0;
}

/* Binary multiplier for a size suffix letter, 0 if none matches. */
static uint64_t size_mult(char c)
{
	static const char letters[] = "kmgtpe";
	const char *p = c ? strchr(letters, lower(c)) : NULL;

	return p ? 1ull << (10 * (p - letters + 1)) : 0;
}

int sb_parse_size(const char *s, uint64_t *out)
{
	struct decimal d;
	uint64_t mult = 1;
	int err = parse_decimal(&s, &d);

	if (err == -EINVAL)
		return err;
	if (size_mult(*s)) {
		mult = size_mult(*s++);
		if (lower(*s) == 'i')
			s++;
	}
	if (lower(*s) == 'b')
		s++;
	if (*s)
		return -EINVAL;
	if (err)
		return err;
	return scale_decimal(&d, mult, 1, out);
}

static const struct {
	const char *suffix;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "\xc2\xb5s", 1000 }, /* U+00B5 micro sign */
	{ "\xce\xbcs", 1000 }, /* U+03BC greek small letter mu */
	{ "ms", 1000000 },
	{ "", 1000000000 },
	{ "s", 1000000000 },
	{ "m", 60 * 1000000000ull },
	{ "h", 3600 * 1000000000ull },
	{ "d", 86400 * 1000000000ull },
};

int sb_parse_duration_ns(const char *s, uint64_t *out)
{
	struct decimal d;
	int err = parse_decimal(&s, &d);

	if (err == -EINVAL)
		return err;
	for (size_t i = 0; i < SB_ARRAY_SIZE(duration_units); i++) {
		if (strcmp(s, duration_units[i].suffix))
			continue;
		if (err)
			return err;
		return scale_decimal(&d, duration_units[i].ns, 0, out);
	}
	return -EINVAL;
}

int sb_parse_percent(const char *s, unsigned *out)
{
	uint64_t v;
	int err = parse_digits(&s, &v);

	if (err == -EINVAL)
		return err;
	if (*s == '%')
		s++;
	if (*s)
		return -EINVAL;
	if (err || v > 100)
		return -ERANGE;
	*out = (unsigned)v;
	return 0;
}

/* One "size[/pct]" entry of len bytes at s; pct -1 when not given. */
static int parse_bssplit_entry(const char *s, size_t len, uint32_t *bs, int *pct)
{
	char tmp[64];
	char *slash;
	uint64_t size;
	unsigned p;
	int err;

	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*pct = -1;
	slash = strchr(tmp, '/');
	if (slash && !slash[1]) /* fio's "1k/": no share given, as "1k" */
		*slash = '\0';
	else if (slash) {
		*slash = '\0';
		err = sb_parse_percent(slash + 1, &p);
		if (err)
			return err;
		*pct = (int)p;
	}
	err = sb_parse_size(tmp, &size);
	if (err)
		return err;
	if (size == 0)
		return -EINVAL;
	if (size > UINT32_MAX)
		return -ERANGE;
	*bs = (uint32_t)size;
	return 0;
}

/* Give the entries without a percentage equal shares of what is left. */
static int fill_bssplit_blanks(struct sb_bssplit *out, const int *pct, unsigned n)
{
	unsigned sum = 0, blanks = 0;

	for (unsigned i = 0; i < n; i++) {
		if (pct[i] < 0)
			blanks++;
		else
			sum += (unsigned)pct[i];
	}
	if (sum > 100 || (blanks == 0 && sum != 100))
		return -EINVAL;
	if (blanks && 100 - sum < blanks)
		return -EINVAL; /* a listed size that would never be used */
	for (unsigned i = 0, left = 100 - sum; i < n; i++) {
		if (pct[i] >= 0) {
			out[i].pct = (uint32_t)pct[i];
			continue;
		}
		/* the first blanks take the remainder, so the sum is exact */
		out[i].pct = left / blanks + (left % blanks ? 1 : 0);
		left -= out[i].pct;
		blanks--;
	}
	return 0;
}

int sb_parse_bssplit(const char *s, struct sb_bssplit *out, unsigned max, unsigned *n)
{
	int pct[SB_BSSPLIT_MAX];
	unsigned count = 0;
	int err;

	if (max > SB_BSSPLIT_MAX)
		max = SB_BSSPLIT_MAX;
	for (;;) {
		const char *colon = strchr(s, ':');
		const size_t len = colon ? (size_t)(colon - s) : strlen(s);

		if (count == max)
			return -EINVAL;
		err = parse_bssplit_entry(s, len, &out[count].bs, &pct[count]);
		if (err)
			return err;
		count++;
		if (!colon)
			break;
		s = colon + 1;
	}
	err = fill_bssplit_blanks(out, pct, count);
	if (err)
		return err;
	*n = count;
	return 0;
}

/*
 * v in the largest unit that keeps it below base, with three significant
 * digits ("1.50", "12.3", "123"); whole numbers in the first unit print
 * without decimals ("512 B", "950").
 */
static char *fmt3(char *buf, size_t len, double v, double base, const char *const *units,
		  size_t nunits, const char *sep, const char *suffix)
{
	const char *sign = "";
	size_t i = 0;
	int prec;

	if (len == 0)
		return buf;
	if (v < 0) {
		sign = "-";
		v = -v;
	}
	if (!isfinite(v)) {
		snprintf(buf, len, "%s%g%s%s%s", sign, v, sep, units[0], suffix);
		return buf;
	}
	while (i + 1 < nunits && v >= base) {
		v /= base;
		i++;
	}
	prec = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
	if (prec == 0 && v >= base - 0.5 && i + 1 < nunits) {
		v /= base; /* 1023.7 KiB would round to "1024 KiB" */
		i++;
		prec = 2;
	}
	if (i == 0 && v == floor(v))
		prec = 0;
	snprintf(buf, len, "%s%.*f%s%s%s", sign, prec, v, sep, units[i], suffix);
	return buf;
}

static const char *const iec_units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

char *sb_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	return fmt3(buf, len, (double)bytes, 1024, iec_units, SB_ARRAY_SIZE(iec_units), " ", "");
}

char *sb_fmt_rate(double bytes_per_s, char *buf, size_t len)
{
	return fmt3(buf, len, bytes_per_s, 1024, iec_units, SB_ARRAY_SIZE(iec_units), " ", "/s");
}

char *sb_fmt_rate_si(double bytes_per_s, char *buf, size_t len)
{
	static const char *const si_units[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };

	return fmt3(buf, len, bytes_per_s, 1000, si_units, SB_ARRAY_SIZE(si_units), " ", "/s");
}

char *sb_fmt_ns(double ns, char *buf, size_t len)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };

	return fmt3(buf, len, ns, 1000, units, SB_ARRAY_SIZE(units), " ", "");
}

char *sb_fmt_count(double n, char *buf, size_t len)
{
	static const char *const units[] = { "", "k", "M", "G", "T", "P", "E" };

	return fmt3(buf, len, n, 1000, units, SB_ARRAY_SIZE(units), "", "");
}

size_t sb_utf8_char_len(const char *s)
{
	const unsigned char c = (unsigned char)*s;
	const size_t n = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	if (!c)
		return 0;
	if (c >= 0xf8)
		return 1;
	for (size_t i = 1; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

unsigned sb_edit_distance(const char *a, const char *b)
{
	unsigned row[97], la = (unsigned)SB_MIN(strlen(a), 96),
			  lb = (unsigned)SB_MIN(strlen(b), 96);
	for (unsigned j = 0; j <= lb; j++)
		row[j] = j;
	for (unsigned i = 1; i <= la; i++) {
		unsigned diag = row[0];
		row[0] = i;
		for (unsigned j = 1; j <= lb; j++) {
			unsigned up = row[j], c = diag + (a[i - 1] != b[j - 1]);
			c = SB_MIN(c, up + 1);
			row[j] = SB_MIN(c, row[j - 1] + 1);
			diag = up;
		}
	}
	return row[lb];
}

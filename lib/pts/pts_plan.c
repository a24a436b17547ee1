/*
 * The PTS test matrices (METHODS.md 3.2 to 3.5) and what the options change
 * in them: every departure from the specification becomes a deviation the
 * results carry and the report prints.
 */
#include "lib/pts/pts.h"
#include "lib/base/units.h"

#include <stdarg.h>

static const unsigned iops_mix[] = { 100, 95, 65, 50, 35, 5, 0 };
static const uint32_t iops_bs[] = { 1u << 20,  128u << 10, 64u << 10, 32u << 10,
				    16u << 10, 8u << 10,   4u << 10,  512 };
static const uint32_t tp_bs[] = { 1u << 20, 128u << 10 };
static const unsigned lat_mix[] = { 100, 65, 0 };
static const uint32_t lat_bs[] = { 8u << 10, 4u << 10, 512 };

static const char *const test_names[SB_PTS_NTESTS] = { "iops", "throughput", "latency", "wsat" };

void sb_pts_opts_default(struct sb_pts_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tests = 1u << SB_PTS_IOPS;
	o->profile = SB_PTS_ENTERPRISE;
	o->round_ns = SB_PTS_ROUND_NS;
	o->max_rounds = SB_PTS_MAX_ROUNDS;
	o->active_pct = 100;
	o->purge = SB_PURGE_AUTO;
	o->precondition = SB_PTS_PRECONDITION_PASSES;
	o->threads = 1;
	o->iodepth = 32;
	o->wsat_capacity = 4;
}

const char *sb_pts_test_name(enum sb_pts_test t)
{
	return (unsigned)t < SB_PTS_NTESTS ? test_names[t] : "?";
}

int sb_pts_test_by_name(const char *name)
{
	for (int i = 0; i < SB_PTS_NTESTS; i++)
		if (!strcmp(name, test_names[i]))
			return i;
	return -EINVAL;
}

static int one_test(void *ctx, const char *w)
{
	unsigned *mask = ctx;
	const int t = sb_pts_test_by_name(w);
	if (!strcmp(w, "all"))
		*mask |= (1u << SB_PTS_NTESTS) - 1;
	else if (t < 0)
		return -EINVAL;
	else
		*mask |= 1u << t;
	return 0;
}

int sb_pts_parse_tests(const char *v, unsigned *mask)
{
	*mask = 0;
	return sb_parse_list(v, 256, one_test, mask);
}

/* a PTS block size: 0.5k, or a power of two from 4k to 1024k but 256k, 512k */
static int one_bs(void *ctx, const char *w)
{
	struct sb_pts_opts *o = ctx;
	uint64_t b;
	if (!strcmp(w, "0.5k"))
		b = 512;
	else if (sb_parse_size(w, &b) < 0)
		return -EINVAL;
	if (b != 512 && (b < 4096 || b > (1u << 20) || (b & (b - 1)) || b == (256u << 10) ||
			 b == (512u << 10) || b == (2u << 10)))
		return -EINVAL;
	if (o->nbs >= SB_PTS_MAX_BS)
		return -EINVAL;
	o->bs[o->nbs++] = (uint32_t)b;
	return 0;
}

int sb_pts_parse_bs(struct sb_pts_opts *o, const char *v)
{
	o->nbs = 0;
	return sb_parse_list(v, 256, one_bs, o);
}

static int one_mix(void *ctx, const char *w)
{
	struct sb_pts_opts *o = ctx;
	unsigned r, wr, found = 0;
	char end;
	if (sscanf(w, "%u/%u%c", &r, &wr, &end) != 2 || r + wr != 100)
		return -EINVAL;
	for (unsigned i = 0; i < SB_ARRAY_SIZE(iops_mix); i++)
		found |= iops_mix[i] == r;
	if (!found || o->nmix >= SB_PTS_MAX_MIX)
		return -EINVAL;
	o->mix[o->nmix++] = r;
	return 0;
}

int sb_pts_parse_mix(struct sb_pts_opts *o, const char *v)
{
	o->nmix = 0;
	return sb_parse_list(v, 256, one_mix, o);
}

const char *sb_pts_profile_name(enum sb_pts_profile p)
{
	return p == SB_PTS_CLIENT ? "client" : "enterprise";
}

void sb_pts_deviation(struct sb_pts_result *r, const char *fmt, ...)
{
	va_list ap;
	if (r->ndeviations >= SB_PTS_MAX_DEVIATIONS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->deviations[r->ndeviations++], sizeof(r->deviations[0]), fmt, ap);
	va_end(ap);
}

/* "0.5k", "4k", "1024k": block sizes as PTS writes them */
static void bs_text(uint32_t bs, char *buf, size_t len)
{
	if (bs % 1024)
		snprintf(buf, len, "%gk", bs / 1024.0);
	else
		snprintf(buf, len, "%uk", bs / 1024);
}

static int has_u32(const uint32_t *v, unsigned n, uint32_t x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static int has_uint(const unsigned *v, unsigned n, unsigned x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* The spec's block sizes, those --bs keeps (in the spec's order), and
 * not 0.5k on a device of larger logical blocks. */
static unsigned pick_bs(const struct sb_pts_opts *o, const uint32_t *spec, unsigned n,
			uint32_t logical_bs, uint32_t *out)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		if ((!o->nbs || has_u32(o->bs, o->nbs, spec[i])) && spec[i] >= logical_bs)
			out[k++] = spec[i];
	return k;
}

static unsigned pick_mix(const struct sb_pts_opts *o, const unsigned *spec, unsigned n,
			 unsigned *out)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		if (!o->nmix || has_uint(o->mix, o->nmix, spec[i]))
			out[k++] = spec[i];
	return k;
}

static void list_text(const struct sb_pts_part *p, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < p->nbs && n < len; i++) {
		char b[16];
		bs_text(p->bss[i], b, sizeof(b));
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", b);
	}
}

static void cells_of(struct sb_pts_part *p)
{
	p->ncells = 0;
	for (unsigned m = 0; m < p->nmix; m++)
		for (unsigned b = 0; b < p->nbs; b++) {
			p->cells[p->ncells].read_pct = p->mixes[m];
			p->cells[p->ncells].bs = p->bss[b];
			if (p->mixes[m] == 0 && p->bss[b] == (4u << 10))
				p->track_cell = p->ncells;
			p->ncells++;
		}
}

static struct sb_pts_part *add_part(struct sb_pts_result *r, enum sb_pts_test t)
{
	struct sb_pts_part *p = &r->parts[r->nparts++];
	memset(p, 0, sizeof(*p));
	p->test = t;
	snprintf(p->name, sizeof(p->name), "%s", test_names[t]);
	p->random = t != SB_PTS_THROUGHPUT;
	p->threads = r->o.threads;
	p->iodepth = r->o.iodepth;
	p->max_rounds = t == SB_PTS_WSAT ? SB_PTS_WSAT_MAX_ROUNDS : r->o.max_rounds;
	return p;
}

#define FAIL(...) (snprintf(msg, msglen, __VA_ARGS__), -EINVAL)

/* IOPS or latency: the matrix, which must hold 0/100 at 4k (tracked). */
static int plan_matrix(struct sb_pts_result *r, enum sb_pts_test t, uint32_t logical_bs, char *msg,
		       size_t msglen)
{
	const int lat = t == SB_PTS_LATENCY;
	struct sb_pts_part *p = add_part(r, t);
	p->nbs = lat ? pick_bs(&r->o, lat_bs, 3, logical_bs, p->bss)
		     : pick_bs(&r->o, iops_bs, 8, logical_bs, p->bss);
	p->nmix = lat ? pick_mix(&r->o, lat_mix, 3, p->mixes)
		      : pick_mix(&r->o, iops_mix, 7, p->mixes);
	if (!has_u32(p->bss, p->nbs, 4u << 10))
		return FAIL("--bs: the %s test tracks 4k (PTS's tracking variable); include 4k",
			    test_names[t]);
	if (!has_uint(p->mixes, p->nmix, 0))
		return FAIL("--mix: the %s test tracks 0/100 (PTS's tracking variable); include "
			    "0/100",
			    test_names[t]);
	if (lat)
		p->threads = p->iodepth = 1; /* PTS fixes TC 1, QD 1 */
	p->track = lat ? SB_PTS_M_LAT_MEAN : SB_PTS_M_IOPS;
	cells_of(p);
	char l[160];
	list_text(p, l, sizeof(l));
	uint32_t all[SB_PTS_MAX_BS];
	const struct sb_pts_opts every = { .nbs = 0 };
	if (p->nbs < (lat ? pick_bs(&every, lat_bs, 3, logical_bs, all)
			  : pick_bs(&every, iops_bs, 8, logical_bs, all)))
		sb_pts_deviation(r, "%s block sizes %s only", test_names[t], l);
	if (p->nmix < (lat ? 3u : 7u))
		sb_pts_deviation(r, "%s R/W mixes restricted to %u of %u", test_names[t], p->nmix,
				 lat ? 3u : 7u);
	return 0;
}

static int plan_throughput(struct sb_pts_result *r, uint32_t logical_bs, char *msg, size_t msglen)
{
	uint32_t bs[2];
	const unsigned n = pick_bs(&r->o, tp_bs, 2, logical_bs, bs);
	if (!n)
		return FAIL("--bs: the throughput test runs 1024k and 128k; include one of them");
	for (unsigned i = 0; i < n; i++) {
		struct sb_pts_part *p = add_part(r, SB_PTS_THROUGHPUT);
		char b[16];
		bs_text(bs[i], b, sizeof(b));
		snprintf(p->name, sizeof(p->name), "throughput-%s", b);
		p->bss[0] = bs[i];
		p->nbs = 1;
		p->mixes[0] = 100; /* METHODS 3.3: SEQ 100% read, then 100% write */
		p->mixes[1] = 0;
		p->nmix = 2;
		cells_of(p);
		p->track_cell = 1;
		p->track = SB_PTS_M_WRITE_BW;
	}
	if (n < 2)
		sb_pts_deviation(r, "throughput at one block size only");
	return 0;
}

static void plan_wsat(struct sb_pts_result *r)
{
	struct sb_pts_part *p = add_part(r, SB_PTS_WSAT);
	p->bss[0] = 4u << 10;
	p->nbs = 1;
	p->mixes[0] = 0;
	p->nmix = 1;
	cells_of(p);
	p->track = SB_PTS_M_IOPS;
}

static void option_deviations(struct sb_pts_result *r, const char *write_cache)
{
	const struct sb_pts_opts *o = &r->o;
	char a[32];
	if (o->round_ns != SB_PTS_ROUND_NS)
		sb_pts_deviation(r, "round time %s instead of 60 s",
				 sb_fmt_ns((double)o->round_ns, a, sizeof(a)));
	if (o->max_rounds != SB_PTS_MAX_ROUNDS && o->tests != 1u << SB_PTS_WSAT)
		sb_pts_deviation(r, "at most %u rounds instead of 25", o->max_rounds);
	if (o->active_pct != 100 && !(o->profile == SB_PTS_CLIENT && o->active_pct == 75))
		sb_pts_deviation(r, "active range %u%% instead of 100%%%s", o->active_pct,
				 o->profile == SB_PTS_CLIENT ? " or 75%" : "");
	if (o->precondition != SB_PTS_PRECONDITION_PASSES && o->tests != 1u << SB_PTS_WSAT) {
		if (o->precondition)
			sb_pts_deviation(r, "preconditioning %ux the active range instead of 2x",
					 o->precondition);
		else
			sb_pts_deviation(r, "no workload-independent preconditioning");
	}
	if (o->purge == SB_PURGE_NONE)
		sb_pts_deviation(r, "no purge");
	if ((o->tests & (1u << SB_PTS_WSAT)) && o->wsat_capacity != 4)
		sb_pts_deviation(r, "WSAT ends after %ux the active range instead of 4x",
				 o->wsat_capacity);
	if (o->profile == SB_PTS_ENTERPRISE && !o->cache_off_by_command &&
	    strcmp(write_cache, "write through") != 0)
		sb_pts_deviation(r,
				 "volatile write cache %s, not disabled as PTS-E asks (storbench "
				 "cannot switch it on this device)",
				 write_cache[0] ? write_cache : "state unknown");
	const uint64_t amount = r->segs.n ? sb_segments_bytes(&r->segs) : 0;
	if (amount && amount != SB_PTS_AR_AMOUNT && amount != 2 * SB_PTS_AR_AMOUNT)
		sb_pts_deviation(r, "active-range amount %s instead of 8 GiB or 16 GiB",
				 sb_fmt_size(amount, a, sizeof(a)));
}

/* PTS-C (METHODS.md 3.7): the random tests with rounds (IOPS, latency)
 * confined to 2048 segments of amount / 2048 bytes, at random in the
 * active range, aligned to the largest block size they use and never
 * touching. Throughput is sequential and WSAT has no rounds to
 * precondition: both cover the whole active range. */
static int plan_segments(struct sb_pts_result *r, uint32_t logical_bs, char *msg, size_t msglen)
{
	const struct sb_pts_opts *o = &r->o;
	uint64_t align = SB_MAX(4096u, logical_bs);
	unsigned n = 0;
	char a[32], b[32], c[32];
	for (unsigned i = 0; i < r->nparts; i++) {
		struct sb_pts_part *p = &r->parts[i];
		if (p->test != SB_PTS_IOPS && p->test != SB_PTS_LATENCY)
			continue;
		p->segmented = 1;
		n++;
		for (unsigned k = 0; k < p->nbs; k++)
			align = SB_MAX(align, p->bss[k]);
	}
	if (!n)
		return 0;
	uint64_t amount = o->ar_amount ? o->ar_amount : SB_PTS_AR_AMOUNT;
	const uint64_t units = r->region_bytes / align;
	if (!o->ar_amount &&
	    (uint64_t)SB_PTS_SEGMENTS * (amount / SB_PTS_SEGMENTS / align + 1) - 1 > units) {
		/* a device too small for 8 GiB of segments (an SD card, a test
		 * device): half its active range, recorded as a deviation */
		const uint64_t seg_units = units / 2 / SB_PTS_SEGMENTS;
		if (!seg_units)
			return FAIL("--profile=client: the active range (%s) is too small for %u "
				    "segments of %s (the largest block size); use "
				    "--profile=enterprise or smaller block sizes (--bs)",
				    sb_fmt_size(r->region_bytes, a, sizeof(a)), SB_PTS_SEGMENTS,
				    sb_fmt_size(align, b, sizeof(b)));
		amount = seg_units * align * SB_PTS_SEGMENTS;
	}
	const uint64_t seg = amount / SB_PTS_SEGMENTS;
	if (amount % SB_PTS_SEGMENTS || !seg || seg % align)
		return FAIL("--active-range-amount: %s in %u segments is not a whole multiple of "
			    "%s (the largest block size) per segment; give a multiple of %s",
			    sb_fmt_size(amount, a, sizeof(a)), SB_PTS_SEGMENTS,
			    sb_fmt_size(align, b, sizeof(b)),
			    sb_fmt_size(align * SB_PTS_SEGMENTS, c, sizeof(c)));
	const int e = sb_segments_place(&r->segs, r->region_bytes, SB_PTS_SEGMENTS, seg, align,
					o->seed ^ 0x5345474d454e5453ull);
	if (e == -ENOMEM)
		return snprintf(msg, msglen, "out of memory"), -ENOMEM;
	if (e)
		return FAIL("--active-range-amount: %u segments of %s, at least %s apart, do not "
			    "fit in the active range (%s); give a smaller amount",
			    SB_PTS_SEGMENTS, sb_fmt_size(seg, a, sizeof(a)),
			    sb_fmt_size(align, b, sizeof(b)),
			    sb_fmt_size(r->region_bytes, c, sizeof(c)));
	return 0;
}

int sb_pts_plan(struct sb_pts_result *r, const struct sb_pts_opts *o, uint64_t device_bytes,
		uint32_t logical_bs, const char *write_cache, char *msg, size_t msglen)
{
	int e = 0;
	memset(r, 0, sizeof(*r));
	r->o = *o;
	r->device_bytes = device_bytes;
	snprintf(r->write_cache, sizeof(r->write_cache), "%s", write_cache ? write_cache : "");
	r->region_bytes = (uint64_t)((double)device_bytes * o->active_pct / 100) >> 20 << 20;
	if (r->region_bytes < (1u << 20))
		return FAIL("--active-range: %u%% of the device is less than 1 MiB", o->active_pct);
	if (!e && (o->tests & (1u << SB_PTS_IOPS)))
		e = plan_matrix(r, SB_PTS_IOPS, logical_bs, msg, msglen);
	if (!e && (o->tests & (1u << SB_PTS_THROUGHPUT)))
		e = plan_throughput(r, logical_bs, msg, msglen);
	if (!e && (o->tests & (1u << SB_PTS_LATENCY)))
		e = plan_matrix(r, SB_PTS_LATENCY, logical_bs, msg, msglen);
	if (!e && (o->tests & (1u << SB_PTS_WSAT)))
		plan_wsat(r);
	if (!e && o->profile == SB_PTS_CLIENT)
		e = plan_segments(r, logical_bs, msg, msglen);
	else if (!e && o->ar_amount)
		e = FAIL("--active-range-amount: PTS-C's (--profile=client) only");
	if (e)
		return e;
	if (logical_bs > 512 && (o->tests & ((1u << SB_PTS_IOPS) | (1u << SB_PTS_LATENCY))) &&
	    (!o->nbs || has_u32(o->bs, o->nbs, 512)))
		sb_pts_deviation(r, "0.5k left out: the device's logical block is %u bytes",
				 logical_bs);
	option_deviations(r, r->write_cache);
	return 0;
}

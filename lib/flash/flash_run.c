/* storbench flash as one call (flash.h): the sizes checked against the
 * device, then the probes in their order, each told to the step hook. */
#include "lib/flash/flash.h"
#include "lib/base/units.h"
#include "lib/coord/coord.h"

#include <stdarg.h>

struct run {
	const struct sb_flash_opts *o;
	const struct sb_flash_hooks *h;
	struct sb_flash_result *r;
	struct sb_error *err;
};

static int too_small(struct run *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int too_small(struct run *x, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return sb_error_set(x->err, -EINVAL, SB_ERR_INPUT, "'%s' is too small: %s", x->o->path,
			    why);
}

/* as the program says of an option's value (cli_bad_value) */
static int bad_value(struct run *x, const char *name, const char *value, const char *what)
{
	return sb_error_set(x->err, -EINVAL, SB_ERR_INPUT, "--%s: '%s' is not valid (expected %s)",
			    name, value, what);
}

static int io_error(struct run *x, const char *what, uint64_t off, int e)
{
	char a[32];
	return sb_error_set(x->err, e, e == -EIO ? SB_ERR_FAIL : SB_ERR_ENV,
			    "%s error at offset %llu (%s) of '%s': %s", what,
			    (unsigned long long)off, sb_fmt_size(off, a, sizeof(a)), x->o->path,
			    strerror(-e));
}

/* the block sizes against the device: the first that cannot be */
static int check_sizes(struct run *x, uint32_t *bs, unsigned nbs)
{
	const struct sb_flash_opts *o = x->o;
	const struct sb_flash_dev *dev = o->dev;
	char a[32], b[32], n[32];
	for (unsigned i = 0; i < nbs; i++) {
		if (sb_flash_bs_ok(bs[i], dev->lbs))
			return sb_error_set(x->err, -EINVAL, SB_ERR_INPUT,
					    "--bs: %s is below twice the logical block size of "
					    "'%s' (%s): the read straddling a boundary would not "
					    "be aligned",
					    sb_fmt_size(bs[i], a, sizeof(a)), o->path,
					    sb_fmt_size(dev->lbs, b, sizeof(b)));
		if (o->align && !sb_flash_maxalign(dev->size, bs[i]))
			return too_small(x, "%s holds fewer than 32 blocks of %s (--bs)",
					 sb_fmt_size(dev->size, a, sizeof(a)),
					 sb_fmt_size(bs[i], b, sizeof(b)));
	}
	const uint64_t need = ((1ull << o->sc_order) - 1 + o->sc_span) * bs[0];
	if (o->scatter && need > dev->size)
		return too_small(x, "%s holds no map of 2^%u reads of %u blocks of %s (needs %s)",
				 sb_fmt_size(dev->size, a, sizeof(a)), o->sc_order, o->sc_span,
				 sb_fmt_size(bs[0], b, sizeof(b)), sb_fmt_size(need, n, sizeof(n)));
	return 0;
}

static void step(struct run *x, const char *what)
{
	if (x->h->step)
		x->h->step(x->h->ctx, what);
}

/* The erase block of --open-au and --find-fat, and their smallest chunk. */
static uint64_t erase_of(const struct run *x)
{
	const uint64_t found = sb_flash_erase_size(x->r);
	return x->o->erase ? x->o->erase : found ? found : SB_FLASH_DEFAULT_ERASE;
}

static uint32_t smallest_bs(const struct sb_flash_opts *o)
{
	uint32_t bs = o->bs[0];
	for (unsigned i = 1; i < o->nbs; i++)
		bs = SB_MIN(bs, o->bs[i]);
	return bs;
}

static int chunk_fits(struct run *x, uint32_t bs, uint64_t erase)
{
	char a[32];
	if (bs > erase)
		return bad_value(x, "bs", sb_fmt_size(bs, a, sizeof(a)),
				 "at most the erase size (--erase-size)");
	return 0;
}

static int run_align(struct run *x)
{
	const struct sb_flash_opts *o = x->o;
	struct sb_flash_result *r = x->r;
	for (unsigned i = 0; i < o->nbs; i++) {
		char a[32], what[48];
		snprintf(what, sizeof(what), "align, bs %s", sb_fmt_size(o->bs[i], a, sizeof(a)));
		step(x, what);
		uint64_t off = 0;
		const int e = sb_flash_align(o->dev, o->bs[i], o->count, x->h, &r->profiles[i],
					     &off);
		if (e == -EINTR) {
			/* a profile cut short decides nothing: its lower rows,
			 * which tell an erase block from a page, are missing */
			r->interrupted = r->align_partial = 1;
			r->decisions[i] = (struct sb_flash_decision){ .erase = -1, .page = -1 };
			r->nprofiles = i + 1;
			break;
		}
		if (!e && r->profiles[i].nrows >= 3) {
			sb_flash_decide(&r->profiles[i], &r->decisions[i]);
			r->nprofiles = i + 1;
		}
		if (e)
			return io_error(x, "read", off, e);
	}
	sb_flash_overall(r);
	return 0;
}

static int au_params(struct run *x, struct sb_flash_au_params *p)
{
	const struct sb_flash_opts *o = x->o;
	const struct sb_flash_dev *dev = o->dev;
	char a[32], b[32], c[32];
	p->erase = erase_of(x);
	p->bs = smallest_bs(o);
	p->offset = o->offset_set ? o->offset : sb_flash_au_offset(p->erase);
	p->max_au = o->max_au;
	p->orders = o->orders;
	int e = chunk_fits(x, p->bs, p->erase);
	if (e)
		return e;
	if (p->offset % dev->lbs)
		return bad_value(x, "offset", sb_fmt_size(p->offset, a, sizeof(a)),
				 "a multiple of the logical block size");
	if (p->offset > dev->size || dev->size - p->offset < p->erase)
		return too_small(x, "%s holds no allocation unit of %s after --offset %s",
				 sb_fmt_size(dev->size, a, sizeof(a)),
				 sb_fmt_size(p->erase, b, sizeof(b)),
				 sb_fmt_size(p->offset, c, sizeof(c)));
	return 0;
}

static int run_open_au(struct run *x)
{
	struct sb_flash_result *r = x->r;
	struct sb_flash_au_params p;
	int e = au_params(x, &p);
	if (e)
		return e;
	step(x, "open-au");
	uint64_t off = 0;
	r->open_au = 1;
	e = sb_flash_open_au(x->o->dev, &p, x->h, &r->au, &off);
	if (e == -EINTR)
		r->interrupted = 1;
	else if (e == -EINVAL)
		return sb_error_set(x->err, e, SB_ERR_INPUT,
				    "--open-au: cannot measure with these sizes on '%s' (erase "
				    "size, block size and offset)",
				    x->o->path);
	else if (e)
		return io_error(x, "write", off, e);
	return 0;
}

static int run_find_fat(struct run *x)
{
	const struct sb_flash_opts *o = x->o;
	struct sb_flash_result *r = x->r;
	char a[32], b[32];
	const uint64_t erase = erase_of(x);
	const uint32_t bs = smallest_bs(o);
	int e = chunk_fits(x, bs, erase);
	if (e)
		return e;
	if (o->dev->size / erase < o->fat_nr)
		return too_small(x, "%s holds fewer than %u erase blocks of %s (--fat-nr)",
				 sb_fmt_size(o->dev->size, a, sizeof(a)), o->fat_nr,
				 sb_fmt_size(erase, b, sizeof(b)));
	step(x, "find-fat");
	uint64_t off = 0;
	r->find_fat = 1;
	e = sb_flash_find_fat(o->dev, erase, bs, o->fat_nr, x->h, &r->fat, &off);
	if (e == -EINTR)
		r->interrupted = 1;
	else if (e)
		return io_error(x, "write", off, e);
	return 0;
}

static int run_scatter(struct run *x)
{
	const struct sb_flash_opts *o = x->o;
	struct sb_flash_result *r = x->r;
	const struct sb_flash_scatter_params p = { o->bs[0], o->sc_order, o->sc_span, o->count, 0 };
	step(x, "scatter");
	uint64_t off = 0;
	r->scatter = 1;
	const int e = sb_flash_scatter(o->dev, &p, x->h, &r->sc, &off);
	if (e == -EINTR)
		r->interrupted = 1;
	else if (e)
		return io_error(x, "read", off, e);
	return 0;
}

int sb_flash_run(const struct sb_flash_opts *o, const struct sb_flash_hooks *h,
		 struct sb_coord *coord, struct sb_flash_result *out, struct sb_error *err)
{
	static const struct sb_flash_hooks none;
	struct sb_flash_opts oo = *o;
	struct run x = { &oo, h ? h : &none, out, err };
	memset(out, 0, sizeof(*out));
	out->erase_from = out->page_from = -1;
	if (coord && sb_coord_size(coord) > 1)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "flash runs alone, not under mpirun");
	if (!oo.nbs) {
		oo.bs[0] = SB_MAX(oo.align ? SB_FLASH_DEFAULT_BS : 16u << 10, 2 * oo.dev->lbs);
		oo.nbs = 1;
	}
	int e = check_sizes(&x, oo.bs, oo.nbs);
	if (e)
		return e;
	out->count = oo.count;
	out->align = oo.align;
	out->priority_err = -sb_flash_raise_priority(oo.realtime, out->priority,
						     sizeof(out->priority));
	if (oo.align)
		e = run_align(&x);
	if (!e && oo.open_au && !out->interrupted)
		e = run_open_au(&x);
	if (!e && oo.find_fat && !out->interrupted)
		e = run_find_fat(&x);
	if (!e && oo.scatter && !out->interrupted)
		e = run_scatter(&x);
	return e;
}

void sb_flash_result_free(struct sb_flash_result *r)
{
	if (r)
		sb_flash_scatter_free(&r->sc);
}

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int bs_add(uint32_t *bs, unsigned *nbs, uint64_t v)
{
	if (*nbs == SB_FLASH_MAX_BS)
		return -E2BIG;
	bs[(*nbs)++] = (uint32_t)v;
	return 0;
}

int sb_flash_parse_bs(const char *v, uint32_t *bs, unsigned *nbs)
{
	char buf[256], *save = NULL;
	uint64_t a, b;
	const char *dots = strstr(v, "..");
	*nbs = 0;
	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	if (dots) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(dots - v), v);
		if (sb_parse_size(buf, &a) < 0 || sb_parse_size(dots + 2, &b) < 0 || !pow2(a) ||
		    !pow2(b) || a > b || a < 512 || b > (64u << 20))
			return -EINVAL;
		for (; a <= b; a *= 2)
			if (bs_add(bs, nbs, a))
				return -E2BIG;
		return 0;
	}
	/* a list: strtok_r takes "4k,,8k" as 4k,8k, as before */
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (sb_parse_size(s, &a) < 0 || !pow2(a) || a < 512 || a > (64u << 20))
			return -EINVAL;
		if (bs_add(bs, nbs, a))
			return -E2BIG;
	}
	return *nbs ? 0 : -EINVAL;
}

static int refuse(char *msg, size_t ml, const char *what)
{
	snprintf(msg, ml, "%s", what);
	return -EINVAL;
}

int sb_flash_opts_check(struct sb_flash_opts *o, int scatter_set, int erase_set, char *msg,
			size_t ml)
{
	if (!o->align && !o->open_au && !o->scatter && !o->find_fat)
		o->align = 1;
	if (o->fat_nr && !o->find_fat)
		return refuse(msg, ml, "--fat-nr applies to --find-fat only");
	if (!o->fat_nr)
		o->fat_nr = 6;
	if (!o->scatter && scatter_set)
		return refuse(msg, ml,
			      "--scatter-order and --scatter-span apply to --scatter only");
	if (!o->sc_order)
		o->sc_order = 9;
	if (!o->sc_span)
		o->sc_span = 1;
	if (!o->count)
		o->count = 8;
	if (!o->max_au)
		o->max_au = 8;
	if (!o->orders)
		o->orders = 3;
	if (!o->open_au && (o->offset_set || o->max_au != 8 || o->orders != 3))
		return refuse(msg, ml, "--offset, --max-au and --order apply to --open-au only");
	if (!o->open_au && !o->find_fat && erase_set)
		return refuse(msg, ml, "--erase-size applies to --open-au and --find-fat only");
	return 0;
}

/*
 * From findings to advice: the decision across block sizes, and a plain
 * sentence per finding (METHODS.md 1.8: align to the allocation unit, make
 * blocks at least a page, write to no more AUs at once than stay open).
 */
#include "lib/flash/flash_int.h"
#include "lib/base/units.h"

/* the profile with the widest margin for step kind (0 erase, 1 page) */
static int pick(const struct sb_flash_result *r, int page, unsigned *agree)
{
	int best = -1;
	double margin = 0;
	for (unsigned i = 0; i < r->nprofiles; i++) {
		const struct sb_flash_decision *d = &r->decisions[i];
		const int k = page ? d->page : d->erase;
		if (k >= 0 && d->steps[k].margin > margin) {
			margin = d->steps[k].margin;
			best = (int)i;
		}
	}
	*agree = 0;
	if (best < 0)
		return -1;
	const struct sb_flash_decision *b = &r->decisions[best];
	const uint64_t size = b->steps[page ? b->page : b->erase].align;
	for (unsigned i = 0; i < r->nprofiles; i++) {
		const struct sb_flash_decision *d = &r->decisions[i];
		const int k = page ? d->page : d->erase;
		*agree += k >= 0 && d->steps[k].align == size;
	}
	return best;
}

void sb_flash_overall(struct sb_flash_result *r)
{
	r->erase_from = pick(r, 0, &r->erase_agree);
	r->page_from = pick(r, 1, &r->page_agree);
}

uint64_t sb_flash_erase_size(const struct sb_flash_result *r)
{
	if (r->erase_from < 0)
		return 0;
	const struct sb_flash_decision *d = &r->decisions[r->erase_from];
	return d->steps[d->erase].align;
}

uint64_t sb_flash_page_size(const struct sb_flash_result *r)
{
	if (r->page_from < 0)
		return 0;
	const struct sb_flash_decision *d = &r->decisions[r->page_from];
	return d->steps[d->page].align;
}

static void align_meaning(const struct sb_flash_result *r, void (*fn)(const char *, void *),
			  void *ctx)
{
	char line[320], a[32], b[32];
	const uint64_t e = sb_flash_erase_size(r), p = sb_flash_page_size(r);
	if (!e && !p && r->align_partial) {
		fn("--align was interrupted before every boundary was read: no decision", ctx);
		return;
	}
	if (!e && !p) {
		fn("no boundary effect found: reads do not show this device's geometry (usual for "
		   "SSDs and RAM disks); align partitions to 4 MiB, which suits most flash, or try "
		   "other --bs sizes",
		   ctx);
		return;
	}
	if (e) {
		snprintf(line, sizeof(line),
			 "align partitions and filesystem structures to %s: start sectors a "
			 "multiple of %llu (512-byte sectors)",
			 sb_fmt_size(e, a, sizeof(a)), (unsigned long long)(e / 512));
		fn(line, ctx);
		if (e >= (2u << 20) && e % (2u << 20) == 0)
			snprintf(line, sizeof(line),
				 "f2fs fits it: a section of %llu segments (mkfs.f2fs -s %llu) "
				 "is one allocation unit",
				 (unsigned long long)(e >> 21), (unsigned long long)(e >> 21));
		else
			snprintf(line, sizeof(line),
				 "f2fs's 2 MiB segments do not map onto a %s allocation unit",
				 sb_fmt_size(e, a, sizeof(a)));
		fn(line, ctx);
	}
	if (p) {
		snprintf(line, sizeof(line),
			 "make filesystem blocks (or clusters) at least %s and write in multiples "
			 "of it: a smaller write costs a whole %s page",
			 sb_fmt_size(p, a, sizeof(a)), sb_fmt_size(p, b, sizeof(b)));
		fn(line, ctx);
	}
}

static void au_meaning(const struct sb_flash_au_result *au, void (*fn)(const char *, void *),
		       void *ctx)
{
	static const char *const order[] = { "linear", "random" };
	char line[320];
	for (int o = 0; o < 2; o++) {
		if (!(au->p.orders & (1 << o)))
			continue;
		const unsigned n = au->best[o];
		if (!n)
			snprintf(line, sizeof(line), "%s writes: not measured (interrupted)",
				 order[o]);
		else if (au->limited[o] && n == 1)
			snprintf(line, sizeof(line),
				 "%s writes: one allocation unit tried (--max-au, or all the device "
				 "holds at 12 erase blocks apart): nothing to compare it with",
				 order[o]);
		else if (au->limited[o]) /* no collapse: nothing to name, as --align */
			snprintf(line, sizeof(line),
				 "%s writes: no effect found: %u allocation unit%s written at once "
				 "run%s as fast as one (usual for SSDs and RAM disks); no limit to "
				 "keep to within %u (a larger --max-au tries more)",
				 order[o], n, n == 1 ? "" : "s", n == 1 ? "s" : "", n);
		else
			snprintf(line, sizeof(line),
				 "%s writes: keep at most %u write stream%s at once (a journal, "
				 "data and metadata count separately)%s",
				 order[o], n, n == 1 ? "" : "s",
				 n >= 6	  ? "; f2fs with its default 6 logs suits it"
				 : n >= 4 ? "; f2fs with mount -o active_logs=4"
				 : n >= 2 ? "; f2fs only with mount -o active_logs=2"
					  : "; f2fs does not suit it");
		fn(line, ctx);
	}
}

static void fat_meaning(const struct sb_flash_fat *f, void (*fn)(const char *, void *), void *ctx)
{
	char line[256], a[32];
	size_t n = 0;
	for (unsigned b = 0; b < f->nblocks && n < sizeof(line); b++)
		if (f->differs[b])
			n += (size_t)snprintf(line + n, sizeof(line) - SB_MIN(n, sizeof(line)),
					      "%s%u (%s)", n ? ", " : "", b,
					      f->differs[b] > 0 ? "faster" : "slower");
	if (!n) {
		fn("find-fat: the first erase blocks all write alike: no FAT area handled apart",
		   ctx);
		return;
	}
	char head[640];
	snprintf(head, sizeof(head),
		 "find-fat: erase block%s %s of %s behave%s differently at small writes (the "
		 "factory FAT area): keep the factory partition layout so that the most often "
		 "rewritten structures stay there",
		 strchr(line, ',') ? "s" : "", line, sb_fmt_size(f->erase, a, sizeof(a)),
		 strchr(line, ',') ? "" : "s");
	fn(head, ctx);
}

void sb_flash_meaning(const struct sb_flash_result *r, void (*fn)(const char *line, void *ctx),
		      void *ctx)
{
	if (r->align)
		align_meaning(r, fn, ctx);
	if (r->open_au)
		au_meaning(&r->au, fn, ctx);
	if (r->find_fat)
		fat_meaning(&r->fat, fn, ctx);
}

/*
 * The methods' own sections of a result (storbench.sweep, ...) read
 * through their readers (lib/sweep/sweep_read.c, ...), once, when the
 * document is loaded: what is wrong in one is refused with its key path,
 * and the renderers read the typed documents, never the keys.
 */
#include "report/report.h"

/* 'FILE': storbench.SECTION.PATH: expected ... (at the top: SECTION:) */
static int refused(const struct rep_doc *d, char **why, const char *section,
		   const struct sb_error *er)
{
	const int top = !strncmp(er->msg, "expected ", 9);
	return rep_fail(why, -REP_EINPUT, "'%s': storbench.%s%s%s", d->path, section,
			top ? ": " : ".", er->msg);
}

int rep_section_verdict(const struct rep_doc *d, char **why, const char *section, int e,
			const struct sb_error *er)
{
	if (e == -ENOMEM)
		return rep_fail(why, e, "out of memory");
	return e ? refused(d, why, section, er) : 0;
}

int rep_methods_read(struct rep_doc *d, const struct sb_jv *sb, char **why)
{
	struct sb_error er;
	const struct sb_jv *sw = sb_results_section(sb, SB_SECTION_SWEEP);
	const struct sb_jv *me = sb_results_section(sb, SB_SECTION_META);
	const struct sb_jv *sp = sb_results_section(sb, SB_SECTION_SPO);
	int e = 0;
	if (sw && !(d->sweep = calloc(1, sizeof(*d->sweep))))
		return rep_fail(why, -ENOMEM, "out of memory");
	if (sw && (e = rep_section_verdict(d, why, "sweep", sb_sweep_read(sw, d->sweep, &er), &er)))
		return e;
	if (me && !(d->meta = calloc(1, sizeof(*d->meta))))
		return rep_fail(why, -ENOMEM, "out of memory");
	if (me && (e = rep_section_verdict(d, why, "meta", sb_meta_read(me, d->meta, &er), &er)))
		return e;
	if (sp && !(d->spo = calloc(1, sizeof(*d->spo))))
		return rep_fail(why, -ENOMEM, "out of memory");
	if (sp && (e = rep_section_verdict(d, why, "spo", sb_spo_read(sp, d->spo, &er), &er)))
		return e;
	return 0;
}

void rep_methods_free(struct rep_doc *d)
{
	sb_sweep_doc_free(d->sweep);
	free(d->sweep);
	d->sweep = NULL;
	sb_meta_doc_free(d->meta);
	free(d->meta);
	d->meta = NULL;
	sb_spo_doc_free(d->spo);
	free(d->spo);
	d->spo = NULL;
}

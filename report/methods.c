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

int rep_methods_read(struct rep_doc *d, const struct sb_jv *sb, char **why)
{
	struct sb_error er;
	const struct sb_jv *sw = sb_jv_get(sb, "sweep");
	if (!sw)
		return 0;
	if (!(d->sweep = calloc(1, sizeof(*d->sweep))))
		return rep_fail(why, -ENOMEM, "out of memory");
	const int e = sb_sweep_read(sw, d->sweep, &er);
	if (e == -ENOMEM)
		return rep_fail(why, e, "out of memory");
	if (e)
		return refused(d, why, "sweep", &er);
	return 0;
}

void rep_methods_free(struct rep_doc *d)
{
	sb_sweep_doc_free(d->sweep);
	free(d->sweep);
	d->sweep = NULL;
}

/*
 * The device methods' own sections of a result (storbench.cliff, ...)
 * read through their readers (lib/cliff/cliff_read.c, lib/pts/pts_read.c, ...), once, when the
 * document is loaded: what is wrong in one is refused with its key path,
 * and the renderers read the typed documents, never the keys.
 */
#include "report/report.h"

static int cliff(struct rep_doc *d, const struct sb_jv *s, char **why)
{
	struct sb_error er;
	if (!(d->cliff = calloc(1, sizeof(*d->cliff))))
		return rep_fail(why, -ENOMEM, "out of memory");
	return rep_section_verdict(d, why, "cliff", sb_cliff_read(s, d->cliff, &er), &er);
}

static int flash(struct rep_doc *d, const struct sb_jv *s, char **why)
{
	struct sb_error er;
	if (!(d->flash = calloc(1, sizeof(*d->flash))))
		return rep_fail(why, -ENOMEM, "out of memory");
	return rep_section_verdict(d, why, "flash", sb_flash_read(s, d->flash, &er), &er);
}

static int pts(struct rep_doc *d, const struct sb_jv *s, char **why)
{
	struct sb_error er;
	if (!(d->pts = calloc(1, sizeof(*d->pts))))
		return rep_fail(why, -ENOMEM, "out of memory");
	return rep_section_verdict(d, why, "pts", sb_pts_read(s, d->pts, &er), &er);
}

int rep_dev_methods_read(struct rep_doc *d, const struct sb_jv *sb, char **why)
{
	static const struct {
		enum sb_section key;
		int (*read)(struct rep_doc *d, const struct sb_jv *s, char **why);
	} sections[] = {
		{ SB_SECTION_CLIFF, cliff },
		{ SB_SECTION_FLASH, flash },
		{ SB_SECTION_PTS, pts },
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(sections); i++) {
		const struct sb_jv *s = sb_results_section(sb, sections[i].key);
		const int e = s ? sections[i].read(d, s, why) : 0;
		if (e)
			return e;
	}
	return 0;
}

void rep_dev_methods_free(struct rep_doc *d)
{
	sb_cliff_doc_free(d->cliff);
	free(d->cliff);
	d->cliff = NULL;
	sb_flash_doc_free(d->flash);
	free(d->flash);
	d->flash = NULL;
	sb_pts_doc_free(d->pts);
	free(d->pts);
	d->pts = NULL;
}

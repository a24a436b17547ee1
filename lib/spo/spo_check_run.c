/*
 * storbench spo --check as one call (spo.h, sb_spo_check_run): the
 * journal read strictly (spo_journal.c), the target the caller's hook
 * opens, the blocks read back and classified (spo_check.c).
 */
#include "lib/spo/spo.h"

#define MSG_LEN 512

int sb_spo_check_run(const struct sb_spo_check_opts *o, const struct sb_spo_check_hooks *h,
		     struct sb_coord *coord, struct sb_spo_check *out, struct sb_error *err)
{
	struct sb_spo_journal jn;
	struct sb_spo_target t = { .fd = -1 };
	struct sb_error quiet;
	char msg[MSG_LEN];
	(void)coord;
	err = err ? err : &quiet;
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	if (!h || !h->target)
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "spo check: no target hook");
	int e = sb_spo_journal_read(o->journal, &jn, msg, sizeof(msg));
	if (e) {
		sb_spo_journal_free(&jn);
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s: %s", o->journal, msg);
	}
	if (jn.torn_tail && h->note)
		h->note(h->ctx, "the journal's last line is torn (cut short by the power cut): "
				"read up to it");
	if (h->target(h->ctx, &t)) {
		e = sb_error_set(err, -ECANCELED, SB_ERR_ENV, "%s", "");
	} else if (t.device && jn.h.offset + jn.h.size > t.size) {
		/* a file may have lost its tail (checked as far as it goes); a
		 * device does not shrink */
		e = sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				 "the journal's region ends at %llu, beyond the end of '%s' "
				 "(%llu): another target?",
				 (unsigned long long)(jn.h.offset + jn.h.size), o->target,
				 (unsigned long long)t.size);
	} else if ((e = sb_spo_classify(t.fd, &jn, o->allow_torn, o->max_ranges, out, msg,
					sizeof(msg)))) {
		sb_spo_check_free(out);
		sb_error_set(err, e, e == -EINVAL ? SB_ERR_INPUT : SB_ERR_ENV, "%s", msg);
	}
	sb_spo_journal_free(&jn);
	return e;
}

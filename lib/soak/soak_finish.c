/* storbench soak: the end of a log (summary, verdict), which a stop
 * reaches too; under mpirun each rank's own, then rank 0's LOG
 * (soak_ranks.c). */
#include "lib/soak/soak_int.h"

/* A word a shell takes as it is, or in single quotes. */
static void shell_word(const char *w, char *buf, size_t len)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_./=+-:,@%") == strlen(w)) {
		snprintf(buf, len, "%s", w);
		return;
	}
	size_t n = 0;
	buf[n++] = '\'';
	for (; *w && n + 5 < len; w++) {
		if (*w == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *w;
		}
	}
	buf[n++] = '\'';
	buf[n] = 0;
}

/* The command line that goes on with the soak (of LOG under mpirun, not
 * a rank's own), as this one was started. */
static void resume_command(const struct soak *s, char *buf, size_t len)
{
	char log[4200], prog[4200], mpi[32] = "";
	if (s->nranks > 1)
		snprintf(mpi, sizeof(mpi), "mpirun -n %d ", s->nranks);
	shell_word(s->nranks > 1 ? s->base : s->logname, log, sizeof(log));
	shell_word(s->o->prog && *s->o->prog ? s->o->prog : "storbench", prog, sizeof(prog));
	const int w = snprintf(buf, len, "%s%s soak --resume=%s", mpi, prog, log);
	if (w < 0 || (size_t)w >= len) /* a name longer than a line: said, not cut */
		snprintf(buf, len, "%ssoak --resume with the log's name", mpi);
}

int soak_finish(struct soak *s, FILE *log, const char *logname, struct sb_soak_iter *it, size_t n,
		struct sb_soak_result *r)
{
	const int fail_on_anomaly = s->o->fail_on_anomaly;
	memset(r, 0, sizeof(*r));
	if (sb_soak_summarize(it, n, fail_on_anomaly, &r->sum) < 0 ||
	    sb_soak_summarize_cells(it, n, fail_on_anomaly, &r->sum, &r->cells, &r->ncells) < 0)
		return soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory");
	if (s->stopped || s->abort_reason[0]) {
		char resume[1024];
		resume_command(s, resume, sizeof(resume));
		sb_soak_stop(&r->sum, s->stopped ? s->stopped : SB_SOAK_ABORTED, s->abort_reason,
			     resume);
	}
	soak_settings(s, &r->sum.set);
	r->stop_changed = s->stop_changed;
	r->stop_change = s->stop_change;
	r->kmsg_watched = s->kmsg_ok;
	memcpy(r->health_ok, s->health_ok, sizeof(r->health_ok));
	memcpy(r->health, s->health, sizeof(r->health));
	r->it = it;
	r->nit = n;
	r->ran = 1;
	r->iozone = s->iozone;
	snprintf(r->log, sizeof(r->log), "%s", logname);
	const int e = soak_log_summary(s, log, r);
	/* what stopped it and how it ended, for the program's exit */
	r->end = soak_stop_asked(s)		     ? SB_SOAK_END_STOPPED
		 : e				     ? SB_SOAK_END_ENV
		 : s->stopped == SB_SOAK_INTERRUPTED ? SB_SOAK_END_STOPPED
		 : r->sum.pass			     ? SB_SOAK_END_PASS
						     : SB_SOAK_END_FAIL;
	return e;
}

/* The hooks called safely, and the steps every rank agrees on
 * (jobs_int.h). */
#include "lib/run/jobs_int.h"

#include <stdarg.h>

int sb_run_ranks(const struct sb_coord *c)
{
	return c ? sb_coord_size(c) : 1;
}

int sb_run_rank(const struct sb_coord *c)
{
	return c ? sb_coord_rank(c) : 0;
}

double sb_run_coord_time(const struct sb_coord *c)
{
	return c ? sb_coord_time(c) : (double)sb_now_ns() / 1e9;
}

int sb_run_hook_stop(const struct sb_run_hooks *h)
{
	return h && h->stop && h->stop(h->ctx);
}

void sb_run_say(const struct sb_run_hooks *h, enum sb_say kind, const char *fmt, ...)
{
	char msg[sizeof(((struct sb_error *)0)->msg) + 128];
	va_list ap;
	if (!h || !h->say)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	h->say(h->ctx, kind, msg);
}

void sb_run_say_error(const struct sb_run_hooks *h, struct sb_error *err)
{
	if (err->msg[0])
		sb_run_say(h, SB_SAY_ERROR, "%s", err->msg);
	err->msg[0] = '\0';
}

int sb_run_lost(const struct sb_run_hooks *h, const char *what, int e)
{
	if (h && h->lost)
		h->lost(h->ctx, what, e);
	return e;
}

static void relay(void *ctx, int rank, const char *msg)
{
	(void)rank;
	sb_run_say(ctx, SB_SAY_RELAYED, "%s", msg);
}

/* Rank 0: the first failing rank stopped every rank. */
static void say_who(const struct sb_run_hooks *h, struct sb_coord *c, int who)
{
	if (who >= 0 && sb_run_rank(c) == 0)
		sb_run_say(h, SB_SAY_RELAYED,
			   "rank %d refused or failed: no rank goes on (every rank stops before "
			   "its I/O)",
			   who);
}

int sb_run_agree_quiet(const struct sb_run_hooks *h, struct sb_coord *c, int failed)
{
	int code = !!failed, who;
	if (sb_run_ranks(c) < 2)
		return code;
	const int e = sb_coord_agree_said(c, &code, &who, NULL, NULL, NULL, SB_RUN_SETUP_TIMEOUT_S);
	if (e)
		return sb_run_lost(h, "waiting for every rank to be ready", e);
	say_who(h, c, who);
	return !!code;
}

int sb_run_agree(const struct sb_run_hooks *h, struct sb_coord *c, int e, struct sb_error *err)
{
	char msg[sizeof(err->msg) + 160];
	int code = e ? (int)err->cls + 1 : 0, who;
	if (sb_run_ranks(c) < 2)
		return e;
	msg[0] = '\0';
	if (e && err->msg[0]) {
		char prefix[128];
		sb_coord_prefix(c, prefix, sizeof(prefix));
		snprintf(msg, sizeof(msg), "%s%s", prefix, err->msg);
	}
	/* printed once, by rank 0, with the rank's name: a message only this
	 * rank printed would be lost in the others' or never seen on another
	 * host */
	const int a = sb_coord_agree_said(c, &code, &who, msg, relay, (void *)h,
					  SB_RUN_SETUP_TIMEOUT_S);
	if (a)
		return sb_run_lost(h, "waiting for every rank to be ready", a);
	say_who(h, c, who);
	if (!code)
		return 0;
	if (!e)
		e = -ECANCELED; /* another rank failed, and said so */
	sb_error_set(err, e, (enum sb_errclass)(code - 1), "%s", "");
	return e;
}

long sb_run_worst_within(const struct sb_run_hooks *h, struct sb_coord *c, long v, double timeout_s)
{
	if (sb_run_ranks(c) < 2)
		return v;
	const int e = sb_coord_max(c, &v, 1, timeout_s);
	return e ? sb_run_lost(h, "agreeing", e) : v;
}

long sb_run_worst(const struct sb_run_hooks *h, struct sb_coord *c, long v)
{
	return sb_run_worst_within(h, c, v, SB_RUN_SETUP_TIMEOUT_S);
}

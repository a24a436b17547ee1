/* What sb_soak_run's files share: what the hooks are told, the stop
 * asked, the ranks' agreement, the iterations kept. */
#include "lib/soak/soak_int.h"

#include <stdarg.h>

uint64_t soak_wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int soak_fail(struct soak *s, int e, enum sb_errclass cls, const char *fmt, ...)
{
	char msg[sizeof(s->err->msg)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->h->error)
		s->h->error(s->h->ctx, msg);
	if (!s->err->err)
		sb_error_set(s->err, e, cls, "%s", msg);
	return e;
}

/* A message for fn (NULL: nobody listens). */
static void say(const struct soak *s, void (*fn)(void *, const char *), const char *fmt, va_list ap)
{
	char msg[4352];
	if (!fn)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fn(s->h->ctx, msg);
}

void soak_warn(struct soak *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(s, s->h->warn, fmt, ap);
	va_end(ap);
}

void soak_note(struct soak *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(s, s->h->note, fmt, ap);
	va_end(ap);
}

int soak_coord_failed(struct soak *s, const char *what, int e)
{
	if (s->coord_e)
		return s->coord_e;
	struct sb_error lost;
	s->coord_e = e;
	sb_coord_lost(&lost, what, e);
	return soak_fail(s, e, SB_ERR_ENV, "%s", lost.msg);
}

int soak_stop_asked(struct soak *s)
{
	const int v = s->h->stop ? s->h->stop(s->h->ctx) : 0;
	if (v)
		s->signal = v;
	return v;
}

uint64_t soak_last_planned(const struct soak *s)
{
	/* --iterations counts whole ones: one a stop cut short is done again */
	return s->iterations ? s->iterations + s->ncut : 0;
}

/*
 * The ETA of the whole soak for the progress line, from the phase's own:
 * what is left of this iteration (in the write phase, the check to come
 * as long as the last one, or as the write), then the iterations left as
 * long as the ones this process ran (pauses included) or as this one; a
 * --duration ends it sooner (after the iteration then running).
 */
double soak_eta(const struct soak *s, int write, double phase_elapsed, double phase_eta,
		uint64_t now, uint64_t *elapsed_ns)
{
	*elapsed_ns = s->prior_ns + (now - s->mono_start_ns);
	if (phase_eta < 0)
		return -1;
	double rest = phase_eta;
	if (write)
		rest += s->check_ns ? (double)s->check_ns : phase_elapsed + phase_eta;
	double left = -1;
	const uint64_t last = soak_last_planned(s);
	if (last) {
		const uint64_t ran = s->cur_n - s->first_n;
		const double per = ran ? (double)(s->it_mono_ns - s->mono_start_ns) / (double)ran
				       : (double)(now - s->it_mono_ns) + rest +
						   (double)s->o->idle_ns;
		left = rest + per * (double)(last > s->cur_n ? last - s->cur_n : 0);
	}
	if (s->duration_ns) {
		double d = s->duration_ns > *elapsed_ns ? (double)(s->duration_ns - *elapsed_ns)
							: 0;
		d = SB_MAX(d, rest);
		left = left < 0 || d < left ? d : left;
	}
	return left;
}

int soak_add(struct soak *s, const struct sb_soak_iter *it)
{
	const int e = sb_soak_iter_append(&s->it, &s->nit, &s->capit, it);
	if (!e)
		s->ncut += !!it->interrupted;
	return e;
}

int soak_agree(struct soak *s, int e, enum sb_errclass cls)
{
	if (e && s->err->err) /* the class of what this rank met */
		cls = s->err->cls;
	int code = e ? (int)cls + 1 + 8 * -e : 0, who;
	if (s->nranks < 2)
		return e;
	if (s->coord_e)
		return s->coord_e;
	const int c = sb_coord_agree(s->co, &code, &who, SOAK_WAIT_S);
	if (c)
		return soak_coord_failed(s, "waiting for every rank to be ready", c);
	if (!code)
		return 0;
	if (s->rank == 0)
		soak_fail(s, -(code / 8), (enum sb_errclass)(code % 8 - 1),
			  "rank %d refused or failed: no rank goes on (every rank stops before its "
			  "I/O)",
			  who);
	else if (!s->err->err)
		s->err->err = -(code / 8), s->err->cls = (enum sb_errclass)(code % 8 - 1);
	return -(code / 8);
}

/*
 * A sweep under mpirun (docs/mpi.md): every rank runs the same matrix on
 * its own target (a directory of its own, TARGET/storbench-rank-N, under a
 * directory TARGET; a file as given on its host). Each timed pass (a test
 * of a cell) starts on every rank together, after the untimed preparation
 * (layout, cache drop) of all; rank 0 gathers every rank's matrices and
 * stamps into one result: each cell the All clients aggregate (the ranks'
 * bytes over the time from the earliest start to the latest end,
 * sweep_agg.c) with every rank's own beside it.
 *
 * The agreement before each timed pass is also how a failure travels: a
 * rank whose sweep failed (or was interrupted) answers the next agreement
 * once with its code instead of going on, the others stop there, and all
 * meet again at the gathering. A rank that finished answers it with 0.
 *
 * During each timed pass the ranks run non-blocking rounds (one at most
 * every 50 ms, polled from the record loop, never waited for there): each
 * sums the ranks' bytes to rank 0, whose progress shows them all, and
 * says whether any rank ended the pass (--stonewall: the others end
 * theirs at their next record). A rank whose pass ended (or failed) goes
 * on answering the rounds until one says every rank's did, so that every
 * rank has run the same rounds before the next agreement.
 *
 * Nothing here waits forever: a rank that does not answer within the
 * deadline stops the run (out->ranks_lost), and the program ends the job.
 */
#include "lib/sweep/sweep_int.h"

#include <time.h>

#define ROUND_EVERY_NS 50000000ull /* from a round's end to the next one's start */
#define TEST_EVERY_NS 1000000ull   /* a round in flight looked at, at most */
#define LOOK_BYTES (64u << 10)	   /* records between two looks at the clock */
#define SPIN_MAX_NS 2000000ull
#define WAIT_S 600.0 /* a setup's deadline: a rank may be in a long record or fsync */

struct sweep_ranks {
	int rank, size;
	struct sb_sweep_rank mine; /* this rank's stamps (its matrices at the end) */
	int stopped;		   /* an agreement said another rank stopped */
	long worst;		   /* that agreement's code */
	int lost;		   /* a rank did not answer: no more coordination */
	char lost_what[64];
	int lost_err;
	/* the rounds of the timed pass in progress */
	int in_pass, in_round, end_pass; /* end_pass: another rank ended it */
	unsigned recs, look_every;	 /* records since the last look, between looks */
	uint64_t round_ns, tested_ns, last_round_ns, look_ns;
};

/* A coordination call failed: the run stops, nothing more is asked of the
 * ranks. */
static int lost(struct sweep_ranks *k, const char *what, int e)
{
	if (!k->lost) {
		k->lost = 1;
		k->lost_err = e;
		snprintf(k->lost_what, sizeof(k->lost_what), "%s", what);
	}
	return e;
}

/* Everything that decides how many timed passes there are, in order: the
 * ranks must agree on it, or their agreements would pair wrongly. */
static long plan_hash(const struct sb_sweep_result *r, uint32_t tests)
{
	uint64_t h = 1469598103934665603ull;
	const unsigned char *p[] = { (const unsigned char *)r->file_sizes,
				     (const unsigned char *)r->record_sizes,
				     (const unsigned char *)r->state };
	const size_t len[] = { sizeof(r->file_sizes), sizeof(r->record_sizes), sizeof(r->state) };
	for (size_t k = 0; k < SB_ARRAY_SIZE(p); k++)
		for (size_t i = 0; i < len[k]; i++)
			h = (h ^ p[k][i]) * 1099511628211ull;
	h ^= (uint64_t)tests * 0x9e3779b97f4a7c15ull;
	return (long)(h >> 2); /* >= 0: its negation fits */
}

static int coord_failed(struct sb_error *err, const char *what, int e)
{
	return sb_error_set(err, e, SB_ERR_ENV,
			    "%s: %s: ending the job (a rank died, hangs or never got there)", what,
			    e == -ETIMEDOUT ? "no answer from every rank in time" : strerror(-e));
}

int sb_sweep_agree(struct sb_coord *coord, const struct sb_sweep_result *planned,
		   const struct sb_sweep_opts *o, struct sb_error *err)
{
	const long h = plan_hash(planned, o->tests), w = !!o->stonewall;
	long v[4] = { h, -h, w, -w };
	if (!coord || sb_coord_size(coord) < 2)
		return 0;
	const int e = sb_coord_max(coord, v, 4, WAIT_S);
	if (e)
		return coord_failed(err, "agreeing", e);
	const int r0 = sb_coord_rank(coord) == 0;
	if (v[0] != -v[1])
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s",
				    r0 ? "the ranks were given different sweeps (tests, file or "
					 "record sizes): give every rank the same options"
				       : "");
	if (v[2] != -v[3])
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s",
				    r0 ? "--stonewall: given to some ranks only: give it to every "
					 "rank or none"
				       : "");
	return 0;
}

int sb_sweep_ranks_start(struct sweep_run *s)
{
	if (!s->co || sb_coord_size(s->co) < 2)
		return 0;
	struct sweep_ranks *k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->rank = sb_coord_rank(s->co);
	k->size = sb_coord_size(s->co);
	s->rk = k;
	s->nranks = (unsigned)k->size;
	return 0;
}

/* One look at the round in flight (a new one started when due, or at
 * once when this rank's pass is over) with this rank's bytes of the sweep
 * done: 1 once a round ended with every rank's pass over. */
static int look(struct sweep_run *s, uint64_t now, int over)
{
	struct sweep_ranks *k = s->rk;
	int any, all;
	uint64_t v[SB_COORD_SUMS] = { s->m.moved, sb_sweep_meter_done(&s->m) };
	if (k->lost)
		return 1;
	/* a round needs a few exchanges, each made while every rank looks:
	 * a rank whose records are slow looks a little longer (2% of the
	 * time since its last look, 2 ms at most), or a round would take
	 * several of its records */
	const uint64_t since = k->look_ns && now > k->look_ns ? now - k->look_ns : 0;
	const uint64_t until = now + (over ? 0 : SB_MIN(since / 50, SPIN_MAX_NS));
	k->look_ns = now;
	if (!k->in_round) {
		if (!over && now - k->last_round_ns < ROUND_EVERY_NS)
			return 0;
		if (sb_coord_poll_start(s->co, over, v) < 0)
			return lost(k, "while measuring", -EIO), 1;
		k->in_round = 1;
		k->round_ns = now;
	} else if (!over && now - k->tested_ns < TEST_EVERY_NS) {
		return 0;
	}
	k->tested_ns = now;
	/* a rank may be in a long record or its fsync: a setup's deadline */
	int e;
	while ((e = sb_coord_poll_test(s->co, &any, &all, v, WAIT_S)) != 1) {
		if (e < 0)
			return lost(k, "while measuring", e), 1;
		if (sb_now_ns() >= until)
			return 0;
	}
	k->in_round = 0;
	k->last_round_ns = now;
	if (any && !over && s->o->stonewall)
		k->end_pass = 1;
	if (k->rank == 0) {
		sb_rate_add(&s->all, k->round_ns, v[0], 0);
		s->all_done = v[1];
		s->have_all = 1;
		if (s->h->progress)
			sb_sweep_told(s, SB_SWEEP_TELL_ROUND, sb_now_ns());
	}
	return all;
}

int sb_sweep_poll(struct sweep_run *s)
{
	uint64_t now; /* a record of the test running counted, the clock read once a MiB */
	if (sb_sweep_meter_record(&s->m, &now) && s->h->progress)
		sb_sweep_told(s, SB_SWEEP_TELL_MIB, now);
	if (s->h->stop) {
		const int a = s->h->stop(s->h->ctx);
		if (a)
			return a;
	}
	return sb_sweep_ranks_poll(s);
}

int sb_sweep_ranks_poll(struct sweep_run *s)
{
	struct sweep_ranks *k = s->rk;
	if (!k || !k->in_pass)
		return 0;
	if (k->lost)
		return 1;
	if (++k->recs >= k->look_every) { /* the clock read once in 64 KiB */
		k->recs = 0;
		look(s, sb_now_ns(), 0);
	}
	return k->lost ? 1 : k->end_pass ? SB_SWEEP_END_PASS : 0;
}

void sb_sweep_ranks_end(struct sweep_run *s, int test, unsigned fi, unsigned ri, int end)
{
	struct sweep_ranks *k = s->rk;
	const struct timespec nap = { 0, 1000000 };
	if (!k)
		return;
	if (end > 0)
		k->mine.end_s[test][fi][ri] = k->mine.start_s[test][fi][ri] +
					      (double)s->r->elapsed_ns[test][fi][ri] / 1e9;
	/* every rank runs the same rounds before the next agreement, rank
	 * 0's line going on meanwhile */
	while (!look(s, sb_now_ns(), 1)) {
		if (s->h->progress)
			sb_sweep_told(s, SB_SWEEP_TELL_WAIT, sb_now_ns());
		nanosleep(&nap, NULL);
	}
	k->in_pass = 0;
	k->end_pass = 0;
}

int sb_sweep_ranks_begin(struct sweep_run *s, int test, unsigned fi, unsigned ri)
{
	struct sweep_ranks *k = s->rk;
	long w = 0;
	if (!k)
		return 0;
	if (k->lost)
		return -EINTR;
	/* every rank here, none failed: go together */
	const int e = sb_coord_max(s->co, &w, 1, WAIT_S);
	if (e) {
		lost(k, "agreeing", e);
		return -EINTR;
	}
	if (w) {
		k->stopped = 1;
		k->worst = w;
		return -EINTR;
	}
	const uint64_t rec = s->r->record_sizes[ri];
	k->in_pass = 1;
	k->end_pass = 0;
	k->recs = 0;
	k->look_every = rec >= LOOK_BYTES ? 1 : (unsigned)(LOOK_BYTES / rec);
	k->last_round_ns = 0; /* the first round at the first look */
	k->look_ns = 0;
	k->mine.start_s[test][fi][ri] = sb_coord_time(s->co);
	return 0;
}

/* On rank 0: the aggregate of every rank's, into s->r. */
static void aggregate(struct sweep_run *s, struct sb_sweep_rank *all)
{
	const unsigned n = (unsigned)s->rk->size;
	for (unsigned k = 0; k < n; k++) {
		struct sb_sweep_rank *rk = &all[k];
		const double off = sb_coord_clock_offset(s->co, k);
		rk->clock_offset_s = off;
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < rk->r.nfile; fi++)
				for (unsigned ri = 0; ri < rk->r.nrec; ri++) {
					rk->start_s[t][fi][ri] -= off;
					rk->end_s[t][fi][ri] -= off;
				}
	}
	if (sb_sweep_aggregate(s->r, all, n) < 0) {
		if (s->h->error)
			s->h->error(s->h->ctx, "the ranks' matrices differ in shape: no aggregate");
		free(all);
		return;
	}
	s->r->stonewall = !!s->o->stonewall;
}

/* The run's end: the code this rank gives, what it was told. */
static long my_code(const struct sweep_ranks *k, int e, const struct sb_error *err)
{
	return e && e != -ECANCELED && !(e == -EINTR && k->stopped) ? sb_errclass_code(err->cls)
								    : 0;
}

int sb_sweep_ranks_finish(struct sweep_run *s, int e, struct sb_error *err)
{
	struct sweep_ranks *k = s->rk;
	if (!k)
		return e;
	if (k->lost) {
		s->r->ranks_lost = 1;
		return coord_failed(err, k->lost_what, k->lost_err);
	}
	/* the failing rank's code travels to the others' next agreement; a
	 * rank told to stop there is not answered again */
	long w = my_code(k, e, err);
	if (k->stopped) {
		w = SB_MAX(w, k->worst);
	} else {
		const int c = sb_coord_max(s->co, &w, 1, WAIT_S);
		if (c) {
			s->r->ranks_lost = 1;
			return coord_failed(err, "agreeing", c);
		}
	}
	if (w) {
		err->cls = sb_errclass_of(w);
		if (!e) {
			e = -ECANCELED;
			err->err = e;
		}
	}
	k->mine.rank = k->rank;
	snprintf(k->mine.host, sizeof(k->mine.host), "%s", sb_coord_host(s->co));
	k->mine.r = *s->r;
	k->mine.r.opts = NULL;
	k->mine.r.ranks = NULL;
	/* every rank gathers: they agreed on the targets before any ran */
	struct sb_sweep_rank *all = NULL;
	if (k->rank == 0 && !(all = calloc((size_t)k->size, sizeof(*all)))) {
		s->r->ranks_lost = 1;
		return coord_failed(err, "gathering the results", -ENOMEM);
	}
	const int c = sb_coord_gather(s->co, &k->mine, sizeof(k->mine), all, WAIT_S);
	if (c) {
		free(all);
		s->r->ranks_lost = 1;
		return coord_failed(err, "gathering the results", c);
	}
	if (k->rank == 0)
		aggregate(s, all);
	return e;
}

void sb_sweep_ranks_free(struct sweep_run *s)
{
	free(s->rk);
	s->rk = NULL;
}

/*
 * storbench meta (and bonnie) under mpirun, as mdtest runs (docs/mpi.md):
 * every rank runs the tests in a directory of its own, each test starts on
 * every rank together (an agreement before it, which also tells each rank
 * whether another failed or was stopped), and rank 0 gathers every rank's
 * figures of each test into the All clients aggregate (operations summed
 * over the time from the earliest start to the latest end, latency from
 * the histograms merged; sb_meta_aggregate) with each rank's own figures
 * and the skew. Alone every call is a no-op.
 *
 * Nothing here waits forever: a rank that does not answer within the
 * deadline stops the run (out->ranks_lost), and the program ends the job.
 */
#include "lib/meta/meta_int.h"
#include "lib/coord/coord.h"

/* A test may take long on a slow rank: the others wait for it at the next
 * agreement 10 minutes plus 20 times what their own test took before
 * taking it as hung (then the job ends with a message). */
#define WAIT_BASE_S 600.0
#define WAIT_FACTOR 20.0
#define SETUP_WAIT_S 600.0 /* a setup's, and a round's: a rank may be in a long operation */

enum { ST_FAILED = 0, ST_DONE = 1, ST_GO = 2 };

struct meta_ranks {
	int rank, size;
	atomic_int stopped; /* another rank failed or stopped: this one stops */
	/* the rounds of the test running (active: agreed, not yet drained) */
	int active;
	struct sb_coord_round round;
	atomic_int wall;  /* --stonewall: another rank ended this test */
	int over;	  /* the last agreement was made (stopped or all done) */
	long mismatch[2]; /* the tests two ranks were at, when they differed */
	int mismatched;
	double last_s;			/* coordination clock when the last test began */
	double coord_s[SB_META_NTESTS]; /* the clocks when test t began */
	uint64_t mono_ns[SB_META_NTESTS];
	/* a coordination call that failed: nothing more is asked of the ranks */
	const char *lost_what;
	int lost;
};

static int lose(struct meta_ranks *k, const char *what, int e)
{
	if (!k->lost) {
		k->lost = e;
		k->lost_what = what;
		atomic_store(&k->stopped, 1);
	}
	return e;
}

int sb_meta_ranks_lost(const struct meta_state *s, const char **what)
{
	if (!s->rk || !s->rk->lost)
		return 0;
	*what = s->rk->lost_what;
	return s->rk->lost;
}

int sb_meta_ranks_start(struct meta_state *s)
{
	if (!s->co || sb_coord_size(s->co) < 2)
		return 0;
	struct meta_ranks *k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->rank = sb_coord_rank(s->co);
	k->size = sb_coord_size(s->co);
	s->rk = k;
	return 0;
}

void sb_meta_ranks_free(struct meta_state *s)
{
	free(s->rk);
	s->rk = NULL;
}

int sb_meta_ranks_stopped(const struct meta_state *s)
{
	return s->rk && atomic_load(&s->rk->stopped);
}

int sb_meta_ranks_walled(const struct meta_state *s)
{
	return s->rk && atomic_load_explicit(&s->rk->wall, memory_order_relaxed);
}

int sb_meta_ranks_ready(struct meta_state *s, int code, int *first, int *who)
{
	*first = code;
	*who = -1;
	if (!s->rk)
		return 0;
	const int e = sb_coord_agree(s->co, first, who, SETUP_WAIT_S);
	return e ? lose(s->rk, "waiting for every rank to be ready", e) : 0;
}

/* One look at the round in flight, a new one started when due (over: this
 * rank's test ended, at once); 1 once a round ended with every rank's test
 * ended. Every rank starts rounds until such a round, so all start as many
 * (they are collective). */
static int look(struct meta_state *s, int over, uint64_t now)
{
	struct meta_ranks *k = s->rk;
	int any = 0, all = 1;
	uint64_t sum[2] = { 0, 0 };
	const uint64_t ops = atomic_load_explicit(&s->ops, memory_order_relaxed) - s->ops0;
	const uint64_t total = sb_meta_test_ops(s->m, (enum sb_meta_test)s->test);
	if (k->lost)
		return 1;
	const int e = sb_coord_round_look(s->co, &k->round, over, ops, total, now, &any, &all, sum,
					  SETUP_WAIT_S);
	if (e < 0)
		return lose(k, "while measuring", e), 1;
	if (e != 1)
		return 0;
	if (k->rank == 0 && s->h->progress) {
		const struct sb_meta_progress p = {
			.test = (enum sb_meta_test)s->test,
			.step = s->step,
			.nsteps = s->nsteps,
			.ops = ops,
			.total = total,
			.now_ns = now,
			.nranks = (unsigned)k->size,
			.all_ops = sum[0],
			.all_total = sum[1],
			.all_ns = k->round.started_ns,
		};
		s->h->progress(s->h->ctx, &p);
	}
	if (any && !over && s->o->stonewall)
		atomic_store_explicit(&k->wall, 1, memory_order_relaxed);
	return all;
}

void sb_meta_ranks_tick(struct meta_state *s, uint64_t now)
{
	if (!s->rk || !s->rk->active || s->test < 0)
		return;
	if (now < s->next_tick_ns)
		return;
	s->next_tick_ns = now + 5000000ull;
	look(s, 0, now);
}

/* This rank's test ended: the rounds go on until every rank's has. */
static void drain(struct meta_state *s)
{
	const struct timespec nap = { 0, 1000000 };
	if (!s->rk->active)
		return;
	while (!look(s, 1, sb_now_ns()))
		nanosleep(&nap, NULL);
	s->rk->active = 0;
}

/* One agreement: every rank's state and test; 1 when this rank stops. */
static int agree(struct meta_state *s, int state, int t)
{
	struct meta_ranks *k = s->rk;
	long v[3] = { -state, t, -t };
	if (k->lost)
		return k->over = 1;
	const double now = sb_coord_time(s->co);
	const double wait = k->last_s > 0 ? WAIT_BASE_S + WAIT_FACTOR * (now - k->last_s)
					  : WAIT_BASE_S;
	const int e = sb_coord_max(s->co, v, 3, wait);
	if (e) {
		lose(k, "waiting for every rank", e);
		return k->over = 1;
	}
	const int all = (int)-v[0];
	if (all == ST_GO && v[1] == -v[2])
		return 0;
	k->over = 1;
	if (all == ST_GO) { /* every rank goes on, but not to the same test */
		k->mismatched = 1;
		k->mismatch[0] = v[1];
		k->mismatch[1] = -v[2];
	}
	/* all done together: nothing to stop; else one failed or was stopped */
	if (all != ST_DONE || v[1] != -v[2])
		atomic_store(&k->stopped, 1);
	return 1;
}

int sb_meta_ranks_phase(struct meta_state *s, enum sb_meta_test t)
{
	struct meta_ranks *k = s->rk;
	if (!k)
		return 0;
	drain(s);
	if (k->over || agree(s, ST_GO, (int)t))
		return 1;
	k->last_s = k->coord_s[t] = sb_coord_time(s->co);
	k->mono_ns[t] = sb_now_ns();
	/* the rounds of test t, from nothing done */
	k->active = 1;
	memset(&k->round, 0, sizeof(k->round));
	atomic_store(&k->wall, 0);
	return 0;
}

int sb_meta_ranks_mismatch(const struct meta_state *s, char *msg, size_t len)
{
	const struct meta_ranks *k = s->rk;
	if (!k || !k->mismatched || k->rank != 0)
		return 0;
	snprintf(msg, len,
		 "meta: the ranks are not at the same test (%s and %s): give every rank the same "
		 "options",
		 sb_meta_test_name((enum sb_meta_test)k->mismatch[0]),
		 sb_meta_test_name((enum sb_meta_test)k->mismatch[1]));
	return 1;
}

int sb_meta_agree(struct sb_coord *coord, unsigned mask, struct sb_error *err)
{
	long v[2] = { mask, -(long)mask };
	if (!coord || sb_coord_size(coord) < 2)
		return 0;
	const int e = sb_coord_max(coord, v, 2, SETUP_WAIT_S);
	if (e)
		return sb_error_set(err, e, SB_ERR_ENV,
				    "agreeing: %s: ending the job (a rank died, hangs or never got "
				    "there)",
				    e == -ETIMEDOUT ? "no answer from every rank in time"
						    : strerror(-e));
	if (v[0] == -v[1])
		return 0;
	return sb_error_set(
		err, -EINVAL, SB_ERR_INPUT, "%s",
		sb_coord_rank(coord) == 0
			? "meta: the ranks would run different tests (--size, --char-size, "
			  "--seeks or --files=0 differ): give every rank the same ones"
			: "");
}

int sb_meta_ranks_end(struct meta_state *s, long code, long *worst, int *failed)
{
	struct meta_ranks *k = s->rk;
	const int own = code && code != sb_errclass_code(SB_ERR_STOPPED);
	*failed = -1;
	*worst = code;
	if (!k)
		return 0;
	drain(s);
	if (!k->over)
		agree(s, own ? ST_FAILED : ST_DONE, SB_META_NTESTS);
	if (k->lost)
		return k->lost;
	/* the first rank that failed (not one stopped by another) */
	long v[3] = { own ? code : 0, own ? -k->rank : -(1l << 30),
		      k->mismatched ? sb_errclass_code(SB_ERR_INPUT) : code };
	const int e = sb_coord_max(s->co, v, 3, SETUP_WAIT_S);
	if (e)
		return lose(k, "agreeing", e);
	if (v[0])
		*failed = (int)-v[1];
	*worst = v[0] ? v[0] : v[2];
	return 0;
}

/* ---- rank 0's result ---- */

struct head {
	int rank, kept, interrupted;
	char host[64];
	char rundir[4096];
};

struct packet {
	double start_s; /* when the test's timing began, on this rank's clock */
	struct sb_meta_result res;
};

/* Test t of every rank to rank 0, whose m gets the aggregate and rk[i]
 * each rank's. */
static int test_of(struct meta_state *s, struct sb_meta_rank *rk, enum sb_meta_test t)
{
	struct meta_ranks *k = s->rk;
	struct sb_meta_run *m = s->m;
	struct packet *mine = calloc(1, sizeof(*mine)), *all = NULL;
	if (!mine || (k->rank == 0 && !(all = calloc((size_t)k->size, sizeof(*all))))) {
		free(mine);
		return lose(k, "gathering the results", -ENOMEM);
	}
	mine->res = m->res[t];
	if (m->res[t].ran && k->mono_ns[t])
		mine->start_s = k->coord_s[t] +
				((double)m->res[t].start_ns - (double)k->mono_ns[t]) / 1e9;
	const int e = sb_coord_gather(s->co, mine, sizeof(*mine), all, SETUP_WAIT_S);
	free(mine);
	if (e) {
		free(all);
		return lose(k, "gathering the results", e);
	}
	if (!all)
		return 0;
	const unsigned n = (unsigned)k->size;
	struct sb_meta_result *r = malloc(n * sizeof(*r));
	struct sb_meta_rank_test *kt = malloc(n * sizeof(*kt));
	double *start = malloc(n * sizeof(*start));
	int rc = r && kt && start ? 0 : -ENOMEM;
	for (unsigned i = 0; !rc && i < n; i++) {
		r[i] = all[i].res;
		start[i] = all[i].start_s - sb_coord_clock_offset(s->co, (int)i);
	}
	if (!rc && sb_meta_aggregate(t, r, start, n, &m->res[t], kt, &m->skew[t]) < 0)
		rc = -ENOMEM;
	for (unsigned i = 0; !rc && i < n; i++)
		rk[i].t[t] = kt[i];
	free(r);
	free(kt);
	free(start);
	free(all);
	return rc ? lose(k, "gathering the results", rc) : 0;
}

int sb_meta_ranks_collect(struct meta_state *s, unsigned mask)
{
	struct meta_ranks *k = s->rk;
	struct sb_meta_run *m = s->m;
	struct head h = { k->rank, m->kept, m->interrupted, "", "" }, *heads = NULL;
	snprintf(h.host, sizeof(h.host), "%s", sb_coord_host(s->co));
	snprintf(h.rundir, sizeof(h.rundir), "%s", m->rundir);
	const unsigned n = (unsigned)k->size;
	if (k->rank == 0 && !(heads = calloc(n, sizeof(*heads))))
		return lose(k, "gathering the results", -ENOMEM);
	int e = sb_coord_gather(s->co, &h, sizeof(h), heads, SETUP_WAIT_S);
	struct sb_meta_rank *rk = NULL;
	if (e) {
		free(heads);
		return lose(k, "gathering the results", e);
	}
	if (heads && !(rk = calloc(n, sizeof(*rk)))) {
		free(heads);
		return lose(k, "gathering the results", -ENOMEM);
	}
	for (unsigned i = 0; rk && i < n; i++) {
		rk[i].rank = heads[i].rank;
		snprintf(rk[i].host, sizeof(rk[i].host), "%s", heads[i].host);
		snprintf(rk[i].rundir, sizeof(rk[i].rundir), "%s", heads[i].rundir);
		rk[i].kept = heads[i].kept;
		rk[i].interrupted = heads[i].interrupted;
		rk[i].clock_offset_s = sb_coord_clock_offset(s->co, (int)i);
		m->interrupted |= heads[i].interrupted;
	}
	free(heads);
	for (int t = 0; !e && t < SB_META_NTESTS; t++)
		if (mask & (1u << t))
			e = test_of(s, rk ? rk : NULL, (enum sb_meta_test)t);
	if (e || !rk) {
		free(rk);
		return e ? e : 1;
	}
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (!(mask & (1u << t)))
			m->res[t].ran = 0;
	m->ranks = rk;
	m->nranks = n;
	m->stonewall = !!s->o->stonewall;
	return 0;
}

/*
 * storbench meta (and bonnie) under mpirun, as mdtest runs (docs/mpi.md):
 * every rank runs the tests in a directory of its own, each test starts on
 * every rank together (an agreement before it, which also tells each rank
 * whether another failed or was stopped), and rank 0 gathers every rank's
 * figures of each test into the All clients aggregate (operations summed
 * over the time from the earliest start to the latest end, latency from
 * the histograms merged; lib's sb_meta_aggregate) and writes one result
 * with each rank's own figures and the skew. Alone every call is a no-op.
 */
#include "cli/cmd_meta.h"

#include <stdatomic.h>
#include <time.h>

/* A test may take long on a slow rank: the others wait for it at the next
 * agreement 10 minutes plus 20 times what their own test took before
 * taking it as hung (then the job ends with a message). */
#define WAIT_BASE_S 600.0
#define WAIT_FACTOR 20.0

enum { ST_FAILED = 0, ST_DONE = 1, ST_GO = 2 };

static struct {
	atomic_int stopped; /* another rank failed or stopped: this one stops */
	/* the rounds of the test running (active: agreed, not yet drained) */
	int active, fresh;
	struct sb_coord_round round;
	atomic_int wall; /* --stonewall: another rank ended this test */
	uint64_t ops, total;
	uint64_t all_ns, all_ops, all_total; /* rank 0: the last round's sums */
	int over;	    /* the last agreement was made (stopped or all done) */
	int mismatch;
	double last_s;			/* coordination clock when the last test began */
	double coord_s[SB_META_NTESTS]; /* the clocks when test t began */
	uint64_t mono_ns[SB_META_NTESTS];
} S;

static int many(void)
{
	return cli_ranks() > 1;
}

void meta_ranks_begin(void)
{
	atomic_store(&S.stopped, 0);
	atomic_store(&S.wall, 0);
	S.active = S.fresh = 0;
	memset(&S.round, 0, sizeof(S.round));
	S.over = S.mismatch = 0;
	S.last_s = 0;
	memset(S.coord_s, 0, sizeof(S.coord_s));
	memset(S.mono_ns, 0, sizeof(S.mono_ns));
}

int meta_ranks_stopped(void)
{
	return atomic_load(&S.stopped);
}

int meta_ranks_walled(void)
{
	return atomic_load_explicit(&S.wall, memory_order_relaxed);
}

/* One look at the round in flight, a new one started when due (over: this
 * rank's test ended, at once); 1 once a round ended with every rank's test
 * ended. Every rank starts rounds until such a round, so all start as many
 * (they are collective). */
static int look(int over, uint64_t now)
{
	int any, all;
	uint64_t sum[2];
	/* a rank may be in a long operation or its sync, not dead: the look's
	 * bound is the slow round's */
	if (cli_ranks_round_look(&S.round, over, S.ops, S.total, now, &any, &all, sum) != 1)
		return 0;
	if (cli_rank() == 0) {
		S.all_ns = S.round.started_ns;
		S.all_ops = sum[0];
		S.all_total = sum[1];
		S.fresh = 1;
	}
	if (any && !over && cli_ranks_stonewall())
		atomic_store_explicit(&S.wall, 1, memory_order_relaxed);
	return all;
}

void meta_ranks_tick(uint64_t ops, uint64_t total, uint64_t now)
{
	if (!S.active)
		return;
	S.ops = ops;
	S.total = total;
	look(0, now);
}

int meta_ranks_sums(uint64_t *t_ns, uint64_t *ops, uint64_t *total)
{
	if (!S.fresh)
		return 0;
	S.fresh = 0;
	*t_ns = S.all_ns;
	*ops = S.all_ops;
	*total = S.all_total;
	return 1;
}

/* This rank's test ended: the rounds go on until every rank's has. */
static void drain(void)
{
	const struct timespec nap = { 0, 1000000 };
	if (!S.active)
		return;
	while (!look(1, sb_now_ns()))
		nanosleep(&nap, NULL);
	S.active = 0;
}

/* One agreement: every rank's state and test; 1 when this rank stops. */
static int agree(int state, int t)
{
	long v[3] = { -state, t, -t };
	const double now = cli_ranks_time();
	const double wait = S.last_s > 0 ? WAIT_BASE_S + WAIT_FACTOR * (now - S.last_s)
					 : WAIT_BASE_S;
	cli_ranks_max_within(v, 3, wait);
	const int all = (int)-v[0];
	if (all == ST_GO && v[1] == -v[2])
		return 0;
	S.over = 1;
	if (all == ST_GO) { /* every rank goes on, but not to the same test */
		S.mismatch = 1;
		if (cli_rank() == 0)
			sb_err("meta: the ranks are not at the same test (%s and %s): give every "
			       "rank the same options",
			       sb_meta_test_name((enum sb_meta_test)v[1]),
			       sb_meta_test_name((enum sb_meta_test) - v[2]));
	}
	/* all done together: nothing to stop; else one failed or was stopped */
	if (all != ST_DONE || v[1] != -v[2])
		atomic_store(&S.stopped, 1);
	return 1;
}

int meta_ranks_phase(enum sb_meta_test t)
{
	if (!many())
		return 0;
	drain();
	if (S.over || agree(ST_GO, t))
		return 1;
	S.last_s = S.coord_s[t] = cli_ranks_time();
	S.mono_ns[t] = sb_now_ns();
	/* the rounds of test t, from nothing done */
	S.active = 1;
	S.fresh = 0;
	memset(&S.round, 0, sizeof(S.round));
	S.ops = S.total = 0;
	atomic_store(&S.wall, 0);
	return 0;
}

/* The set of tests a run of c's options makes, the same on every rank. */
int meta_ranks_same_tests(unsigned mask)
{
	long v[2] = { mask, -(long)mask };
	if (!many())
		return 0;
	cli_ranks_max(v, 2);
	if (v[0] == -v[1])
		return 0;
	if (cli_rank() == 0)
		sb_err("meta: the ranks would run different tests (--size, --char-size, --seeks "
		       "or --files=0 differ): give every rank the same ones");
	return SB_EXIT_USAGE;
}

int meta_ranks_end(int rc, int interrupted, int *failed)
{
	*failed = 0;
	if (!many())
		return rc;
	drain();
	if (!S.over)
		agree(rc && !interrupted ? ST_FAILED : ST_DONE, SB_META_NTESTS);
	/* the first rank that failed (not one stopped by another) */
	long v[3] = { rc && !interrupted ? rc : 0, rc && !interrupted ? -cli_rank() : -(1l << 30),
		      S.mismatch ? SB_EXIT_USAGE : rc };
	cli_ranks_max(v, 3);
	if (v[0] && cli_rank() == 0)
		sb_err("meta: rank %ld failed (its message above): every rank stopped, no result "
		       "written",
		       -v[1]);
	*failed = v[0] != 0;
	return v[0] ? (int)v[0] : (int)v[2];
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

static void test_of(struct sb_meta_run *m, struct sb_meta_rank *rk, enum sb_meta_test t)
{
	struct packet *mine = calloc(1, sizeof(*mine));
	if (!mine) {
		sb_err("out of memory");
		exit(SB_EXIT_ENV);
	}
	mine->res = m->res[t];
	if (m->res[t].ran && S.mono_ns[t])
		mine->start_s = S.coord_s[t] +
				((double)m->res[t].start_ns - (double)S.mono_ns[t]) / 1e9;
	struct packet *all = cli_ranks_gather(mine, sizeof(*mine));
	free(mine);
	if (!all)
		return;
	const unsigned n = (unsigned)cli_ranks();
	struct sb_meta_result *r = malloc(n * sizeof(*r));
	struct sb_meta_rank_test *k = malloc(n * sizeof(*k));
	double *start = malloc(n * sizeof(*start));
	if (!r || !k || !start) {
		sb_err("out of memory");
		exit(SB_EXIT_ENV);
	}
	for (unsigned i = 0; i < n; i++) {
		r[i] = all[i].res;
		start[i] = all[i].start_s - cli_ranks_clock_offset((int)i);
	}
	if (sb_meta_aggregate(t, r, start, n, &m->res[t], k, &m->skew[t]) < 0) {
		sb_err("out of memory");
		exit(SB_EXIT_ENV);
	}
	for (unsigned i = 0; i < n; i++)
		rk[i].t[t] = k[i];
	free(r);
	free(k);
	free(start);
	free(all);
}

int meta_ranks_collect(struct sb_meta_run *m, unsigned mask)
{
	struct head h = { cli_rank(), m->kept, m->interrupted, "", "" };
	if (!many())
		return 0;
	snprintf(h.host, sizeof(h.host), "%s", cli_ranks_host());
	snprintf(h.rundir, sizeof(h.rundir), "%s", m->rundir);
	struct head *heads = cli_ranks_gather(&h, sizeof(h));
	const unsigned n = (unsigned)cli_ranks();
	struct sb_meta_rank *rk = NULL;
	if (heads && !(rk = calloc(n, sizeof(*rk)))) {
		sb_err("out of memory");
		exit(SB_EXIT_ENV);
	}
	for (unsigned i = 0; rk && i < n; i++) {
		rk[i].rank = heads[i].rank;
		snprintf(rk[i].host, sizeof(rk[i].host), "%s", heads[i].host);
		snprintf(rk[i].rundir, sizeof(rk[i].rundir), "%s", heads[i].rundir);
		rk[i].kept = heads[i].kept;
		rk[i].interrupted = heads[i].interrupted;
		rk[i].clock_offset_s = cli_ranks_clock_offset((int)i);
		m->interrupted |= heads[i].interrupted;
	}
	free(heads);
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (mask & (1u << t))
			test_of(m, rk, (enum sb_meta_test)t);
	if (!rk)
		return 1;
	for (int t = 0; t < SB_META_NTESTS; t++)
		if (!(mask & (1u << t)))
			m->res[t].ran = 0;
	m->ranks = rk;
	m->nranks = n;
	m->stonewall = cli_ranks_stonewall();
	return 0;
}

void meta_ranks_results(struct sb_results *res, const struct sb_meta_run *m)
{
	if (!m->nranks)
		return;
	res->nranks = m->nranks;
	res->stonewall = m->stonewall;
	snprintf(res->mpi_library, sizeof(res->mpi_library), "%s", cli_ranks_library());
}

void meta_ranks_free(struct sb_meta_run *m)
{
	free((void *)m->ranks);
	m->ranks = NULL;
	m->nranks = 0;
}

/* ---- text ---- */

static void rate_str(enum sb_meta_test t, double v, char *buf, size_t len)
{
	char n[32];
	if (sb_meta_is_io(t)) {
		sb_fmt_rate(v, buf, len);
		return;
	}
	sb_fmt_count(v, n, sizeof(n));
	snprintf(buf, len, "%s %s/s", n, t == SB_META_SEEKS ? "seeks" : "files");
}

void meta_ranks_print_text(FILE *f, const struct sb_meta_run *m)
{
	char a[48], b[32], c[32], d[32];
	if (!m->nranks)
		return;
	fprintf(f, "\nper rank (start and end from the earliest start of the test on any rank%s):\n",
		m->stonewall ? "; --stonewall: a stonewalled rank's figures end where the first "
			       "rank ended the test"
			     : "");
	fprintf(f, "%-12s %5s %-16s %14s %10s %9s %9s %9s\n", "test", "rank", "host", "rate", "ops",
		"p99", "start", "end");
	for (int t = 0; t < SB_META_NTESTS; t++) {
		if (!m->res[t].ran)
			continue;
		double t0 = m->ranks[0].t[t].start_s;
		for (unsigned i = 0; i < m->nranks; i++)
			t0 = SB_MIN(t0, m->ranks[i].t[t].start_s);
		for (unsigned i = 0; i < m->nranks; i++) {
			const struct sb_meta_rank_test *k = &m->ranks[i].t[t];
			rate_str((enum sb_meta_test)t, k->rate, a, sizeof(a));
			fprintf(f, "%-12s %5d %-16.16s %14s %10llu %9s %9s %9s%s\n",
				sb_meta_test_name((enum sb_meta_test)t), m->ranks[i].rank,
				m->ranks[i].host, a, (unsigned long long)k->ops,
				sb_fmt_ns((double)k->lat_p99, b, sizeof(b)),
				sb_fmt_ns((k->start_s - t0) * 1e9, c, sizeof(c)),
				sb_fmt_ns((k->end_s - t0) * 1e9, d, sizeof(d)),
				k->stonewalled ? " stonewalled" : "");
		}
	}
	fprintf(f, "\nskew (spread of the starts and of the ends; slowest and fastest rank "
		   "against the median):\n");
	for (int t = 0; t < SB_META_NTESTS; t++) {
		const struct sb_meta_skew *k = &m->skew[t];
		if (!m->res[t].ran)
			continue;
		fprintf(f, "%-12s start %s, end %s; rank %d %+.0f%%, rank %d %+.0f%%\n",
			sb_meta_test_name((enum sb_meta_test)t),
			sb_fmt_ns(k->start_spread_s * 1e9, a, sizeof(a)),
			sb_fmt_ns(k->end_spread_s * 1e9, b, sizeof(b)),
			m->ranks[k->slowest_rank].rank, 100 * k->slowest_vs_median,
			m->ranks[k->fastest_rank].rank, 100 * k->fastest_vs_median);
	}
}

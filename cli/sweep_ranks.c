/*
 * storbench sweep under mpirun (docs/mpi.md): every rank runs the same
 * matrix on its own target (a directory of its own, TARGET/storbench-rank-N,
 * under a directory TARGET; a file as given on its host). The checks of
 * every rank are agreed before any rank writes; each timed pass (a test of
 * a cell) starts on every rank together, after the untimed preparation
 * (layout, cache drop) of all; rank 0 gathers every rank's matrices and
 * stamps and writes one result: each cell the All clients aggregate (the
 * ranks' bytes over the time from the earliest start to the latest end,
 * lib/sweep/sweep_agg.c) with every rank's own beside it.
 *
 * The agreement before each timed pass is also how a failure travels: a
 * rank whose sweep failed (or was interrupted) answers the next agreement
 * once with its exit code instead of going on, the others stop there, and
 * all meet again at the gathering. A rank that finished answers it with 0.
 *
 * During each timed pass the ranks run the non-blocking rounds of
 * cli_ranks_round_start (one at most every 50 ms, polled from the record
 * loop, never waited for there): each sums the ranks' bytes to rank 0,
 * whose progress line shows them all, and says whether any rank ended the
 * pass (--stonewall: the others end theirs at their next record). A rank
 * whose pass ended (or failed) goes on answering the rounds until one says
 * every rank's did, so that every rank has run the same rounds before the
 * next agreement.
 */
#include "cli/cmd_sweep.h"

#define ROUND_EVERY_NS 50000000ull /* from a round's end to the next one's start */
#define TEST_EVERY_NS 1000000ull   /* a round in flight looked at, at most */
#define LOOK_BYTES (64u << 10)	   /* records between two looks at the clock */
#define SPIN_MAX_NS 2000000ull

struct sweep_ranks {
	struct sb_sweep_rank mine; /* this rank's stamps (its matrices at the end) */
	int stopped;		   /* an agreement said another rank stopped */
	int worst;		   /* that agreement's code */
	/* the rounds of the timed pass in progress */
	int in_pass, in_round, end_pass; /* end_pass: another rank ended it */
	unsigned recs, look_every;	 /* records since the last look, between looks */
	uint64_t round_ns, tested_ns, last_round_ns, look_ns;
	/* rank 0: every rank's bytes moved and of the sweep done, summed, as
	 * they were when the last round began */
	struct sb_rate all;
	uint64_t all_done;
	int have_all, fresh; /* fresh: a round ended at this look */
};

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

int sweep_ranks_plan(struct sweep_cli *c)
{
	const long h = plan_hash(c->r, c->o.tests), w = cli_ranks_stonewall();
	long v[4] = { h, -h, w, -w };
	cli_ranks_max(v, 4);
	if (v[0] != -v[1]) {
		if (cli_rank() == 0)
			sb_err("the ranks were given different sweeps (tests, file or record "
			       "sizes): give every rank the same options");
		return SB_EXIT_USAGE;
	}
	if (v[2] != -v[3]) {
		if (cli_rank() == 0)
			sb_err("--stonewall: given to some ranks only: give it to every rank or "
			       "none");
		return SB_EXIT_USAGE;
	}
	c->ranks = calloc(1, sizeof(*c->ranks));
	if (!c->ranks)
		sb_err("out of memory");
	if (cli_rank() != 0)
		c->sh.quiet = 1; /* rank 0's progress line alone */
	return cli_ranks_worst(c->ranks ? 0 : SB_EXIT_ENV);
}

int sweep_ranks_target(struct sweep_cli *c, struct sb_jobtarget *t, const char **path,
		       struct sb_sweep_file *f)
{
	struct sb_error er;
	int rc = cli_ranks_agree(cli_target_probe(t, *path), NULL);
	if (rc)
		return rc;
	/* every rank's checks, nothing created or removed yet */
	int e = sb_sweep_file_check(*path, &t->info, c->r, &c->o, c->sh.destroy_data, &er);
	if ((rc = cli_ranks_agree_error(e, &er)))
		return rc;
	/* each rank's test file fits: and those of the ranks on one filesystem? */
	if ((rc = cli_ranks_space_agree(*path,
					t->info.kind == SB_TARGET_FILE
						? 0
						: c->r->file_sizes[c->r->nfile - 1],
					t->info.fs_free, t->info.mountpoint)))
		return rc;
	const char *mine = *path;
	if ((rc = cli_ranks_dir(*path, t->info.kind == SB_TARGET_DIR, 1, &mine)))
		return rc;
	if (mine != *path) {
		memset(t, 0, sizeof(*t)); /* its own directory, probed anew */
		if ((rc = cli_ranks_agree(cli_target_probe(t, mine), NULL)))
			return rc;
	}
	e = sb_sweep_file_open(f, mine, &t->info, c->r, &c->o, c->sh.destroy_data, &er);
	if ((rc = cli_ranks_agree_error(e, &er)))
		return rc;
	*path = mine;
	return 0;
}

/* One look at the round in flight (a new one started when due, or at
 * once when this rank's pass is over) with this rank's bytes of the sweep
 * done: 1 once a round ended with every rank's pass over. */
static int look(struct sweep_cli *c, uint64_t now, int over, uint64_t mine)
{
	struct sweep_ranks *s = c->ranks;
	int any, all;
	uint64_t moved, done;
	/* a round needs a few exchanges, each made while every rank looks:
	 * a rank whose records are slow looks a little longer (2% of the
	 * time since its last look, 2 ms at most), or a round would take
	 * several of its records */
	const uint64_t since = s->look_ns && now > s->look_ns ? now - s->look_ns : 0;
	const uint64_t until = now + (over ? 0 : SB_MIN(since / 50, SPIN_MAX_NS));
	s->look_ns = now;
	if (!s->in_round) {
		if (!over && now - s->last_round_ns < ROUND_EVERY_NS)
			return 0;
		cli_ranks_round_start(over, c->m.moved, mine);
		s->in_round = 1;
		s->round_ns = now;
	} else if (!over && now - s->tested_ns < TEST_EVERY_NS) {
		return 0;
	}
	s->tested_ns = now;
	/* a rank may be in a long record or its fsync: a setup's deadline */
	while (cli_ranks_round_test_slow(&any, &all, &moved, &done) != 1)
		if (sb_now_ns() >= until)
			return 0;
	s->in_round = 0;
	s->last_round_ns = now;
	if (any && !over && cli_ranks_stonewall())
		s->end_pass = 1;
	if (cli_rank() == 0) {
		sb_rate_add(&s->all, s->round_ns, moved, 0);
		s->all_done = done;
		s->have_all = 1;
		s->fresh = 1;
	}
	return all;
}

int sweep_ranks_poll(struct sweep_cli *c, uint64_t mine, int *fresh)
{
	struct sweep_ranks *s = c->ranks;
	*fresh = 0;
	if (!s || !s->in_pass)
		return 0;
	if (++s->recs >= s->look_every) { /* the clock read once in 64 KiB */
		s->recs = 0;
		s->fresh = 0;
		look(c, sb_now_ns(), 0, mine);
		*fresh = s->fresh;
	}
	return s->end_pass ? SB_SWEEP_END_PASS : 0;
}

int sweep_ranks_figures(const struct sweep_cli *c, uint64_t *done, double *bps)
{
	const struct sweep_ranks *s = c->ranks;
	if (!s || !s->have_all)
		return -1;
	const unsigned h = (s->all.head + SB_RATE_SLOTS - 1) % SB_RATE_SLOTS;
	*done = s->all_done;
	if (sb_rate_get(&s->all, s->all.t[h], s->all.bytes[h], 0, bps, NULL) < 0)
		*bps = -1;
	return 0;
}

int sweep_ranks_pass_over(struct sweep_cli *c, uint64_t mine)
{
	struct sweep_ranks *s = c->ranks;
	if (!look(c, sb_now_ns(), 1, mine))
		return 0;
	s->in_pass = 0;
	s->end_pass = 0;
	return 1;
}

int sweep_ranks_timed(struct sweep_cli *c, int test, unsigned fi, unsigned ri, int end)
{
	struct sweep_ranks *s = c->ranks;
	if (end) {
		if (end > 0)
			s->mine.end_s[test][fi][ri] = s->mine.start_s[test][fi][ri] +
						      (double)c->r->elapsed_ns[test][fi][ri] / 1e9;
		return 0;
	}
	/* every rank here, none failed: go together */
	const int w = cli_ranks_worst(0);
	if (w) {
		s->stopped = 1;
		s->worst = w;
		return -EINTR;
	}
	const uint64_t rec = c->r->record_sizes[ri];
	s->in_pass = 1;
	s->end_pass = 0;
	s->recs = 0;
	s->look_every = rec >= LOOK_BYTES ? 1 : (unsigned)(LOOK_BYTES / rec);
	s->last_round_ns = 0; /* the first round at the first look */
	s->look_ns = 0;
	s->mine.start_s[test][fi][ri] = cli_ranks_time();
	return 0;
}

/* On rank 0: the aggregate of every rank's, into c->r. */
static void aggregate(struct sweep_cli *c, struct sb_sweep_rank *all, struct sb_results *res)
{
	for (int k = 0; k < cli_ranks(); k++) {
		struct sb_sweep_rank *rk = &all[k];
		const double off = cli_ranks_clock_offset(k);
		rk->clock_offset_s = off;
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < rk->r.nfile; fi++)
				for (unsigned ri = 0; ri < rk->r.nrec; ri++) {
					rk->start_s[t][fi][ri] -= off;
					rk->end_s[t][fi][ri] -= off;
				}
	}
	if (sb_sweep_aggregate(c->r, all, (unsigned)cli_ranks()) < 0) {
		sb_err("the ranks' matrices differ in shape: no aggregate");
		return;
	}
	res->nranks = (unsigned)cli_ranks();
	snprintf(res->mpi_library, sizeof(res->mpi_library), "%s", sb_coord_library());
	res->stonewall = c->r->stonewall = cli_ranks_stonewall();
}

int sweep_ranks_finish(struct sweep_cli *c, int rc, struct sb_results *res, int *out_rc)
{
	struct sweep_ranks *s = c->ranks;
	/* the failing rank's code travels to the others' next agreement; a
	 * rank told to stop there is not answered again */
	if (s->stopped)
		rc = rc == SB_EXIT_SIGINT || !rc ? s->worst : SB_MAX(rc, s->worst);
	else
		rc = cli_ranks_worst(rc);
	*out_rc = rc;
	s->mine.rank = cli_rank();
	snprintf(s->mine.host, sizeof(s->mine.host), "%s", cli_ranks_host());
	s->mine.r = *c->r;
	s->mine.r.opts = NULL;
	s->mine.r.ranks = NULL;
	/* every rank must have run to gather: ran is the same on all (they
	 * agreed on the targets before any ran) */
	struct sb_sweep_rank *all = cli_ranks_gather(&s->mine, sizeof(s->mine));
	if (cli_rank() != 0)
		return 1;
	c->all = all;
	aggregate(c, all, res);
	return 0;
}

void sweep_ranks_free(struct sweep_cli *c)
{
	free(c->ranks);
	free(c->all);
	c->ranks = NULL;
	c->all = NULL;
}

#define PRINT_RANKS 8 /* columns; more are in the JSON */

void sweep_ranks_print(FILE *f, const struct sweep_cli *c)
{
	const struct sb_sweep_result *r = c->r;
	const unsigned n = SB_MIN(r->nranks, PRINT_RANKS);
	char buf[32];
	if (!r->nranks)
		return;
	fprintf(f, "\nEach rank: MiB/s of the test's cells (its bytes over its time)%s\n",
		r->nranks > n ? "; the first 8 ranks, every one in the JSON" : "");
	fprintf(f, "%-10s", "test");
	for (unsigned k = 0; k < n; k++) {
		snprintf(buf, sizeof(buf), "rank %d", r->ranks[k].rank);
		fprintf(f, " %10s", buf);
	}
	fprintf(f, " %13s %13s\n", "start spread", "end spread");
	for (int t = 0; t < SB_SWEEP_NTESTS; t++) {
		if (!(c->o.tests & (1u << t)))
			continue;
		fprintf(f, "%-10s", sb_sweep_test_name(t));
		for (unsigned k = 0; k < n; k++) {
			const struct sb_sweep_result *m = &r->ranks[k].r;
			double bytes = 0, ns = 0;
			for (unsigned fi = 0; fi < m->nfile; fi++)
				for (unsigned ri = 0; ri < m->nrec; ri++)
					if (m->state[t][fi][ri] == SB_SWEEP_CELL_DONE) {
						bytes += (double)sb_sweep_pass_bytes(m, t, fi, ri);
						ns += (double)m->elapsed_ns[t][fi][ri];
					}
			if (ns > 0)
				fprintf(f, " %10.1f", bytes / ns * 1e9 / 1048576);
			else
				fprintf(f, " %10s", "-");
		}
		/* the widest spread of the test's cells */
		double sw = 0, ew = 0;
		for (unsigned fi = 0; fi < r->nfile; fi++)
			for (unsigned ri = 0; ri < r->nrec; ri++) {
				double s, e;
				sb_sweep_spread(r, t, fi, ri, &s, &e);
				sw = SB_MAX(sw, s);
				ew = SB_MAX(ew, e);
			}
		fprintf(f, " %10.3f ms %10.3f ms\n", sw * 1e3, ew * 1e3);
	}
	for (unsigned k = 0; k < r->nranks; k++) {
		const struct sb_sweep_result *m = &r->ranks[k].r;
		unsigned early = 0, passes = 0;
		for (int t = 0; t < SB_SWEEP_NTESTS; t++)
			for (unsigned fi = 0; fi < m->nfile; fi++)
				for (unsigned ri = 0; ri < m->nrec; ri++)
					if (m->state[t][fi][ri] == SB_SWEEP_CELL_DONE) {
						passes++;
						early += m->ended_early[t][fi][ri];
					}
		fprintf(f, "rank %d on %s", r->ranks[k].rank, r->ranks[k].host);
		if (r->stonewall)
			fprintf(f, ": %u of %u passes ended early by --stonewall", early, passes);
		fprintf(f, "%s\n", m->interrupted ? " (stopped before the end)" : "");
	}
}

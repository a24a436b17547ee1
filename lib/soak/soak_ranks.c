/*
 * storbench soak under mpirun (docs/mpi.md): every rank soaks its own
 * target and keeps its own log, LOG.rank-N; the iterations start together
 * on every rank, and after each one rank 0 gathers every rank's figures
 * and writes LOG: the All clients iteration (bytes summed over the time
 * from the earliest start to the latest end, latencies from the merged
 * histograms, counts summed) with each rank's own in "ranks". The verdict
 * is LOG's: one rank failing an iteration fails it, and the program names
 * the rank and its host. A resume of LOG: each rank resumes LOG.rank-N,
 * rank 0 LOG too, after the last iteration every one of them holds.
 * Alone, only the end is here: the one log's.
 */
#include "lib/soak/soak_int.h"

void soak_ranks_log_name(const struct soak *s, const char *base, char *mine, size_t len)
{
	snprintf(mine, len, "%s.rank-%d", base, s->rank);
}

static int coord(struct soak *s, int e, const char *what)
{
	return e ? soak_coord_failed(s, what, e) : 0;
}

int soak_ranks_open(struct soak *s, int append)
{
	int e = 0;
	/* rank 0's name on every rank */
	snprintf(s->base, sizeof(s->base), "%s", s->o->log);
	if ((e = coord(s, sb_coord_bcast(s->co, s->base, sizeof(s->base), SOAK_WAIT_S),
		       "agreeing")))
		return e;
	soak_ranks_log_name(s, s->base, s->logname, sizeof(s->logname));
	if (s->rank == 0) {
		e = soak_log_open(s, &s->agg_log, s->base, append);
		s->rank_host = calloc((size_t)s->nranks, sizeof(*s->rank_host));
		s->rank_failed = calloc((size_t)s->nranks, sizeof(*s->rank_failed));
		if (!e && (!s->rank_host || !s->rank_failed))
			e = soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory");
	}
	return soak_agree(s, e, SB_ERR_ENV);
}

int soak_ranks_begin(struct soak *s, int resumed)
{
	int e = 0;
	/* rank 0: LOG's first line, the configuration of rank 0 with the
	 * number of ranks; and a resume's stop change */
	if (s->rank == 0) {
		if (!resumed)
			e = soak_log_config(s, s->agg_log, 1);
		if (!e && s->stop_changed)
			e = soak_log_stop_change(s, s->agg_log);
	}
	return soak_agree(s, e, SB_ERR_ENV);
}

/* ---- resume ---- */

static uint64_t last_n(const struct sb_soak_iter *it, size_t n)
{
	return n ? it[n - 1].n : 0;
}

static int cut_to(struct soak *s, const char *path, struct sb_soak_iter *it, size_t *n,
		  uint64_t keep, uint64_t used)
{
	if (last_n(it, *n) <= keep)
		return 0;
	while (*n && it[*n - 1].n > keep)
		sb_soak_iter_release(&it[--*n]);
	if (soak_log_cut(path, keep, used) < 0)
		return soak_fail(s, -EIO, SB_ERR_ENV,
				 "--resume: cannot cut '%s' after iteration %llu", path,
				 (unsigned long long)keep);
	return 0;
}

/* Rank 0: LOG's All clients iterations into st. */
static int read_aggregate(struct soak *s, const char *base, struct sb_soak_resume_state *st)
{
	struct sb_soak_resume a;
	struct sb_soak_resume_state ast;
	memset(&a, 0, sizeof(a));
	memset(&ast, 0, sizeof(ast));
	a.st = &ast;
	int e = soak_log_read(s, base, &a);
	if (!e && (!ast.aggregate || ast.ranks != (unsigned)s->nranks))
		e = soak_fail(s, -EINVAL, SB_ERR_INPUT,
			      "--resume: '%s' is not the aggregate log of %d ranks", base,
			      s->nranks);
	for (int i = 0; a.argv && i < a.argc; i++)
		free(a.argv[i]);
	free(a.argv);
	for (size_t i = 0; i < ast.nleft; i++) /* the aggregate makes no files */
		free(ast.left[i].path);
	free(ast.left);
	st->agg = ast.it;
	st->nagg = ast.nit;
	st->capagg = ast.capit;
	return e;
}

int soak_ranks_resume(struct soak *s, struct sb_soak_resume *r)
{
	struct sb_soak_resume_state *st = r->st;
	char mine[4200];
	int e = 0;
	soak_ranks_log_name(s, r->log, mine, sizeof(mine));
	if (st->ranks != (unsigned)s->nranks || st->rank != s->rank || st->aggregate)
		e = soak_fail(s, -EINVAL, SB_ERR_INPUT,
			      "--resume: '%s' is not the log of rank %d of %d (it says %s%u ranks): "
			      "resume with as many ranks as the soak started with",
			      mine, s->rank, s->nranks, st->aggregate ? "the aggregate of " : "",
			      st->ranks);
	if (!e && s->rank == 0)
		e = read_aggregate(s, r->log, st);
	if ((e = soak_agree(s, e, s->err->cls)))
		return e;
	/* a rank killed between its log and rank 0's: every log goes on from
	 * the last iteration all of them hold */
	uint64_t last = last_n(st->it, st->nit);
	if (s->rank == 0)
		last = SB_MIN(last, last_n(st->agg, st->nagg));
	long v = -(long)last;
	if ((e = coord(s, sb_coord_max(s->co, &v, 1, SOAK_WAIT_S), "agreeing")))
		return e;
	const uint64_t keep = (uint64_t)-v;
	e = cut_to(s, mine, st->it, &st->nit, keep, st->generation);
	if (!e && s->rank == 0)
		e = cut_to(s, r->log, st->agg, &st->nagg, keep, 0);
	return soak_agree(s, e, SB_ERR_ENV);
}

/* ---- each iteration ---- */

struct packet {
	struct sb_soak_rank r;
	struct sb_hist wh, rh;
	int e, cls; /* the iteration could not run: its -errno, the class */
};

struct decision {
	int stop; /* 0 go on, 1 stop, < 0 an error (-errno) of class cls */
	int cls;
	int cut; /* stop: a stop cut a rank's iteration short */
	char reason[768];
};

/* Rank 0: the ranks of the All clients iteration just appended, kept for
 * the results (those of iterations resumed from the log: none). */
static int keep_ranks(struct soak *s, struct sb_soak_rank *r)
{
	if (s->nagg_ranks < s->nagg) {
		struct sb_soak_rank **v = realloc(s->agg_ranks, s->capagg * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + s->nagg_ranks, 0, (s->capagg - s->nagg_ranks) * sizeof(*v));
		s->agg_ranks = v;
		s->nagg_ranks = s->capagg;
	}
	s->agg_ranks[s->nagg - 1] = r;
	return 0;
}

static void stop_with(struct decision *d, int e, int cls)
{
	d->stop = e;
	d->cls = cls;
}

/* Rank 0: each rank's figures, on rank 0's clock; the first rank whose
 * iteration could not run stops every one. */
static void take_packets(struct soak *s, struct packet *all, struct sb_soak_rank *r,
			 struct sb_hist *wh, struct sb_hist *rh, struct decision *d)
{
	for (int k = 0; k < s->nranks; k++) {
		const double off = sb_coord_clock_offset(s->co, k);
		r[k] = all[k].r;
		r[k].start_s -= off;
		r[k].end_s -= off;
		r[k].wstart_s -= off;
		r[k].wend_s -= off;
		r[k].rstart_s -= off;
		r[k].rend_s -= off;
		sb_hist_merge(wh, &all[k].wh);
		sb_hist_merge(rh, &all[k].rh);
		snprintf(s->rank_host[k], sizeof(s->rank_host[k]), "%s", r[k].host);
		if (all[k].e && !d->stop) {
			stop_with(d, all[k].e, all[k].cls);
			snprintf(d->reason, sizeof(d->reason),
				 "iteration %llu could not run on rank %d on %s (see its message)",
				 (unsigned long long)r[0].it.n, k, r[k].host);
		}
	}
}

/* Rank 0: what the All clients iteration means for all: a full target
 * on a rank stops them, as a stop or (--stop-on-error) a failure does. */
static void judge(struct soak *s, const struct sb_soak_iter *it, const struct sb_soak_rank *r,
		  struct decision *d)
{
	for (int k = 0; k < s->nranks && !d->stop; k++)
		if (r[k].it.unwritten) {
			stop_with(d, -ENOSPC, SB_ERR_ENV);
			snprintf(d->reason, sizeof(d->reason),
				 "%s on rank %d on %s: %llu blocks of iteration %llu could not be "
				 "written, from offset %llu",
				 strerror(ENOSPC), k, r[k].host,
				 (unsigned long long)r[k].it.unwritten, (unsigned long long)it->n,
				 (unsigned long long)r[k].it.first_error_offset);
		}
	if (!d->stop && (it->interrupted || (s->o->stop_on_error && sb_soak_iter_failed(it))))
		d->stop = 1;
	d->cut = d->stop == 1 && it->interrupted;
}

/* Rank 0: the All clients iteration from every rank's packet, logged and
 * told; what all ranks do next. */
static void aggregate(struct soak *s, struct packet *all, struct decision *d)
{
	struct sb_soak_rank *r = calloc((size_t)s->nranks, sizeof(*r));
	struct sb_hist *wh = malloc(sizeof(*wh)), *rh = malloc(sizeof(*rh));
	struct sb_soak_iter it;
	int kept = 0; /* r, in s->agg_ranks */
	if (!r || !wh || !rh) {
		stop_with(d, soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory"), SB_ERR_ENV);
		goto out;
	}
	sb_hist_init(wh);
	sb_hist_init(rh);
	take_packets(s, all, r, wh, rh, d);
	if (d->stop)
		goto out;
	sb_soak_iter_aggregate(&it, r, (unsigned)s->nranks, wh, rh);
	for (int k = 0; k < s->nranks; k++)
		if (sb_soak_iter_failed(&r[k].it))
			s->rank_failed[k]++;
	if (sb_soak_iter_append(&s->agg, &s->nagg, &s->capagg, &it) < 0 || keep_ranks(s, r) < 0) {
		stop_with(d, soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory"), SB_ERR_ENV);
		goto out;
	}
	kept = 1;
	struct sb_json j;
	sb_json_begin(&j, s->agg_log, 1);
	sb_soak_iter_record_ranks(&j, &it, r, (unsigned)s->nranks);
	const int e = soak_log_commit(s, s->agg_log, &j);
	if (e < 0) {
		stop_with(d, e, SB_ERR_ENV);
		snprintf(d->reason, sizeof(d->reason), "the aggregate log could not be written");
		goto out;
	}
	const struct sb_soak_event ev = { &it, r, (unsigned)s->nranks, NULL };
	if (s->h->iteration)
		s->h->iteration(s->h->ctx, &ev);
	judge(s, &it, r, d);
out:
	if (!kept)
		free(r);
	free(wh);
	free(rh);
}

/* This rank's iteration as rank 0 gathers it. */
static void pack(const struct soak *s, const struct sb_soak_iter *it, int e, struct packet *p)
{
	p->e = e;
	p->cls = e ? (int)s->err->cls : 0;
	p->r.rank = s->rank;
	snprintf(p->r.host, sizeof(p->r.host), "%s", sb_coord_host(s->co));
	p->r.start_s = s->ph_start;
	p->r.end_s = s->ph_end;
	p->r.wstart_s = s->ph[0];
	p->r.wend_s = s->ph[1];
	p->r.rstart_s = s->ph[2];
	p->r.rend_s = s->ph[3];
	p->r.wshared_s = s->wshared_s;
	p->r.wpause_s = s->wpause_s;
	p->r.write_bytes = s->wbytes;
	p->r.read_bytes = s->rbytes;
	p->r.it = *it;
	/* what it points to stays here: the other devices' lines are counted,
	 * their text is in this rank's own log */
	p->r.it.kother_omitted += p->r.it.nkother;
	p->r.it.nkother = 0;
	p->r.it.kother = NULL;
	p->r.it.cells = NULL;
	p->r.it.ncells = 0;
	p->wh = s->wh;
	p->rh = s->rh;
}

int soak_ranks_iteration(struct soak *s, const struct sb_soak_iter *it, int e, int *stop)
{
	struct packet *mine = calloc(1, sizeof(*mine)), *all = NULL;
	struct decision d;
	memset(&d, 0, sizeof(d));
	if (!mine || (s->rank == 0 && !(all = calloc((size_t)s->nranks, sizeof(*all))))) {
		free(mine);
		return soak_coord_failed(s, "gathering the results", -ENOMEM);
	}
	pack(s, it, e, mine);
	int c = coord(s, sb_coord_gather(s->co, mine, sizeof(*mine), all, SOAK_WAIT_S),
		      "gathering the results");
	free(mine);
	if (!c && all)
		aggregate(s, all, &d);
	free(all);
	if (!c)
		c = coord(s, sb_coord_bcast(s->co, &d, sizeof(d), SOAK_WAIT_S), "agreeing");
	if (c)
		return c;
	if (d.stop < 0 && !s->abort_reason[0])
		snprintf(s->abort_reason, sizeof(s->abort_reason), "%s", d.reason);
	if (d.stop < 0 && !s->err->err) { /* another rank's: said there */
		s->err->err = d.stop;
		s->err->cls = (enum sb_errclass)d.cls;
	}
	*stop = d.stop;
	s->ranks_cut = d.cut;
	return 0;
}

/* ---- the end ---- */

/* Alone: the one log's end. Many ranks: every rank's own log gets its
 * summary, then rank 0's LOG, the one result; the end is every rank's
 * worst. */
int soak_ranks_finish(struct soak *s)
{
	struct sb_soak_result own;
	if (s->nranks < 2) {
		const int e = soak_finish(s, s->log, s->logname, s->it, s->nit, s->out);
		s->it = NULL;
		s->nit = 0;
		return e < 0 && !s->out->ran ? e : 0;
	}
	int e = soak_finish(s, s->log, s->logname, s->it, s->nit, &own);
	long end = own.ran ? own.end : SB_SOAK_END_ENV;
	if (s->rank == 0) {
		free(own.cells);
		const int f = soak_finish(s, s->agg_log, s->base, s->agg, s->nagg, s->out);
		s->agg = NULL;
		s->nagg = 0;
		s->out->iter_ranks = s->nagg_ranks >= s->out->nit ? s->agg_ranks : NULL;
		s->out->nranks = (unsigned)s->nranks;
		if (s->out->iter_ranks) {
			s->agg_ranks = NULL;
			s->nagg_ranks = 0;
		}
		s->out->rank_host = s->rank_host;
		s->out->rank_failed = s->rank_failed;
		s->rank_host = NULL;
		s->rank_failed = NULL;
		end = SB_MAX(end, s->out->ran ? (long)s->out->end : SB_SOAK_END_ENV);
		e = e < 0 && !own.ran ? e : f < 0 && !s->out->ran ? f : 0;
	} else {
		*s->out = own;
		s->it = NULL;
		s->nit = 0;
		e = e < 0 && !own.ran ? e : 0;
	}
	const int c = coord(s, sb_coord_max(s->co, &end, 1, SOAK_WAIT_S), "agreeing");
	s->out->end = (enum sb_soak_end)end;
	return c ? c : e;
}

void soak_ranks_free(struct soak *s)
{
	if (s->agg_log)
		fclose(s->agg_log);
	s->agg_log = NULL;
	sb_soak_iters_free(s->agg, s->nagg);
	free(s->rank_host);
	free(s->rank_failed);
	for (size_t i = 0; i < s->nagg_ranks; i++)
		free(s->agg_ranks[i]);
	free(s->agg_ranks);
	s->agg_ranks = NULL;
	s->nagg_ranks = 0;
	s->agg = NULL;
	s->rank_host = NULL;
	s->rank_failed = NULL;
}

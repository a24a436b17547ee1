/*
 * storbench soak under mpirun (docs/mpi.md): every rank soaks its own
 * target (TARGET as given on its host, or a directory of its own under a
 * directory TARGET) and keeps its own log, LOG.rank-N; the iterations
 * start together on every rank (a barrier), and after each one rank 0
 * gathers every rank's figures and writes LOG: the All clients iteration
 * (bytes summed over the time from the earliest start to the latest end,
 * latencies from the merged histograms, counts summed) with each rank's
 * own in "ranks". The verdict is LOG's: one rank failing an iteration
 * fails it, and the text names the rank and its host. --resume LOG:
 * each rank resumes LOG.rank-N, rank 0 LOG too, after the last iteration
 * every one of them holds.
 */
#include "cli/soak.h"

#include <sys/stat.h>
#include <unistd.h>

int soak_ranks_target(struct soak_state *s, const char **target)
{
	int rc = cli_ranks_agree(cli_target_probe(&s->t.ct, *target), NULL);
	if (rc)
		return rc;
	/* the directory a killed soak left is taken over (its files were each
	 * iteration's, made anew by the next): where --resume goes on */
	const char *mine = *target;
	if ((rc = cli_ranks_dir(*target, s->t.ct.info.kind == SB_TARGET_DIR, 1, &mine)) ||
	    mine == *target)
		return rc;
	memset(&s->t.ct, 0, sizeof(s->t.ct)); /* its own directory, probed anew */
	*target = mine;
	return 0;
}

void soak_ranks_log_names(const char *base, char *mine, size_t len)
{
	snprintf(mine, len, "%s.rank-%d", base, cli_rank());
}

int soak_ranks_open_aggregate(struct soak_state *s, const char *base, int append)
{
	int e = 0;
	if (cli_rank() == 0) {
		s->agg_log = fopen(base, append ? "a" : "wx");
		if (s->agg_log)
			setvbuf(s->agg_log, NULL, _IOFBF, 1 << 16);
		else
			sb_err("cannot write the log '%s': %s%s", base, strerror(errno),
			       errno == EEXIST ? " (it exists: name a new one, or --resume it)"
					       : "");
		e = !s->agg_log;
		const int n = cli_ranks();
		s->rank_host = calloc((size_t)n, sizeof(*s->rank_host));
		s->rank_failed = calloc((size_t)n, sizeof(*s->rank_failed));
		if (!e && (!s->rank_host || !s->rank_failed)) {
			sb_err("out of memory");
			e = 1;
		}
	}
	return cli_ranks_agree(e ? SB_EXIT_ENV : 0, NULL);
}

/* Rank 0: the aggregate log's first line, the configuration of rank 0
 * with the number of ranks; and a resume's stop change. */
static int agg_config(struct soak_state *s, const char *target)
{
	const struct sb_target_info *ti = &s->t.ct.info;
	const struct sb_soak_config c = {
		.started_ns = s->started_ns,
		.seed = s->seed,
		.target = target,
		.argc = s->o->argc,
		.argv = s->o->argv,
		.size = s->t.v.size,
		.block_size = s->o->v.block_size,
		.request_size = s->o->v.request_size,
		.engine = s->ops->name,
		.direct = s->t.v.direct,
		.region_mode = s->region_mode,
		.device = ti->devname[0] ? ti->devname : NULL,
		.model = ti->model[0] ? ti->model : NULL,
		.ranks = (unsigned)cli_ranks(),
		.aggregate = 1,
	};
	struct sb_json j;
	sb_json_begin(&j, s->agg_log, 1);
	sb_soak_config_record(&j, &c);
	return soak_log_commit(s->agg_log, &j);
}

int soak_ranks_aggregate_start(struct soak_state *s, const char *target, int resumed)
{
	int e = 0;
	if (cli_rank() == 0) {
		if (!resumed)
			e = agg_config(s, target);
		if (!e && s->stop_changed) {
			struct sb_json j;
			sb_json_begin(&j, s->agg_log, 1);
			sb_soak_resume_record(&j, &s->stop_change);
			e = soak_log_commit(s->agg_log, &j);
		}
	}
	return cli_ranks_agree(e ? SB_EXIT_ENV : 0, NULL);
}

/* ---- resume ---- */

static uint64_t last_n(const struct sb_soak_iter *it, size_t n)
{
	return n ? it[n - 1].n : 0;
}

static int cut_to(const char *path, struct sb_soak_iter *it, size_t *n, uint64_t keep,
		  uint64_t used)
{
	if (last_n(it, *n) <= keep)
		return 0;
	while (*n && it[*n - 1].n > keep)
		sb_soak_iter_release(&it[--*n]);
	if (soak_log_cut(path, keep, used) < 0) {
		sb_err("--resume: cannot cut '%s' after iteration %llu", path,
		       (unsigned long long)keep);
		return SB_EXIT_ENV;
	}
	return 0;
}

int soak_ranks_resume(struct soak_state *s, const char *base)
{
	char mine[4096];
	int e = 0;
	soak_ranks_log_names(base, mine, sizeof(mine));
	if (s->log_ranks != (unsigned)cli_ranks() || s->log_rank != cli_rank() ||
	    s->log_aggregate) {
		sb_err("--resume: '%s' is not the log of rank %d of %d (it says %s%u ranks): "
		       "resume with as many ranks as the soak started with",
		       mine, cli_rank(), cli_ranks(), s->log_aggregate ? "the aggregate of " : "",
		       s->log_ranks);
		e = SB_EXIT_USAGE;
	}
	/* rank 0: the All clients iterations */
	struct soak_state a;
	memset(&a, 0, sizeof(a));
	char **av = NULL;
	int ac = 0;
	if (!e && cli_rank() == 0) {
		e = soak_log_resume(base, &a, &av, &ac);
		if (!e && (!a.log_aggregate || a.log_ranks != (unsigned)cli_ranks())) {
			sb_err("--resume: '%s' is not the aggregate log of %d ranks", base,
			       cli_ranks());
			e = SB_EXIT_USAGE;
		}
		for (int i = 0; av && i < ac; i++)
			free(av[i]);
		free(av);
		soak_log_free_left(&a); /* the aggregate makes no files */
	}
	if ((e = cli_ranks_agree(e, NULL))) {
		sb_soak_iters_free(a.it, a.nit);
		return e;
	}
	s->agg = a.it;
	s->nagg = a.nit;
	s->capagg = a.capit;
	/* a rank killed between its log and rank 0's: every log goes on from
	 * the last iteration all of them hold */
	uint64_t last = last_n(s->it, s->nit);
	if (cli_rank() == 0)
		last = SB_MIN(last, last_n(s->agg, s->nagg));
	long v = -(long)last;
	cli_ranks_max(&v, 1);
	const uint64_t keep = (uint64_t)-v;
	e = cut_to(mine, s->it, &s->nit, keep, s->gen_base - 1);
	if (!e && cli_rank() == 0)
		e = cut_to(base, s->agg, &s->nagg, keep, 0);
	return cli_ranks_agree(e, NULL);
}

/* ---- each iteration ---- */

struct packet {
	struct sb_soak_rank r;
	struct sb_hist wh, rh;
	int rc;
};

struct decision {
	int stop; /* 0 go on, 1 stop, else an exit code */
	int cut;  /* stop: a signal cut a rank's iteration short */
	char reason[768];
};

static void rank_line(FILE *f, const struct sb_soak_rank *k)
{
	char w[32], rd[32];
	const uint64_t bad = sb_soak_iter_bad(&k->it);
	fprintf(f, "       rank %d on %s: write %s  read %s  verify %s", k->rank, k->host,
		sb_fmt_rate(k->it.write_bw, w, sizeof(w)),
		sb_fmt_rate(k->it.read_bw, rd, sizeof(rd)),
		sb_soak_iter_failed(&k->it) ? "FAILED" : "ok");
	if (bad)
		fprintf(f, " (%llu of %llu blocks)", (unsigned long long)bad,
			(unsigned long long)k->it.blocks);
	if (k->it.io_errors)
		fprintf(f, "  errors %llu", (unsigned long long)k->it.io_errors);
	for (size_t i = 0; i < k->it.nranges && i < 2; i++) {
		char o[32], l[32];
		fprintf(f, "; %s at %s, %s", sb_verify_class_name(k->it.ranges[i].cls),
			sb_fmt_size(k->it.ranges[i].offset, o, sizeof(o)),
			sb_fmt_size(k->it.ranges[i].length, l, sizeof(l)));
	}
	fputc('\n', f);
}

/* Rank 0: the ranks of the All clients iteration just appended, kept for
 * the results (those of iterations resumed from the log: none). */
static int keep_ranks(struct soak_state *s, struct sb_soak_rank *r)
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

/* Rank 0: the All clients iteration from every rank's packet; what all
 * ranks do next. */
static void aggregate(struct soak_state *s, struct packet *all, struct decision *d)
{
	const int n = cli_ranks();
	struct sb_soak_rank *r = calloc((size_t)n, sizeof(*r));
	struct sb_hist *wh = malloc(sizeof(*wh)), *rh = malloc(sizeof(*rh));
	struct sb_soak_iter it;
	int kept = 0; /* r, in s->agg_ranks */
	if (!r || !wh || !rh) {
		sb_err("out of memory");
		d->stop = SB_EXIT_ENV;
		goto out;
	}
	sb_hist_init(wh);
	sb_hist_init(rh);
	for (int k = 0; k < n; k++) {
		const double off = cli_ranks_clock_offset(k);
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
		if (all[k].rc && !d->stop) {
			d->stop = all[k].rc;
			snprintf(d->reason, sizeof(d->reason),
				 "iteration %llu could not run on rank %d on %s (see its message)",
				 (unsigned long long)r[0].it.n, k, r[k].host);
		}
	}
	if (d->stop)
		goto out;
	sb_soak_iter_aggregate(&it, r, (unsigned)n, wh, rh);
	for (int k = 0; k < n; k++)
		if (sb_soak_iter_failed(&r[k].it))
			s->rank_failed[k]++;
	if (sb_soak_iter_append(&s->agg, &s->nagg, &s->capagg, &it) < 0 || keep_ranks(s, r) < 0) {
		sb_err("out of memory");
		d->stop = SB_EXIT_ENV;
		goto out;
	}
	kept = 1;
	struct sb_json j;
	sb_json_begin(&j, s->agg_log, 1);
	sb_soak_iter_record_ranks(&j, &it, r, (unsigned)n);
	if (soak_log_commit(s->agg_log, &j) < 0) {
		d->stop = SB_EXIT_ENV;
		snprintf(d->reason, sizeof(d->reason), "the aggregate log could not be written");
		goto out;
	}
	if (!s->o->v.json_stdout) {
		soak_print_iteration(stdout, &it, 0);
		for (int k = 0; k < n; k++)
			rank_line(stdout, &r[k]);
		fflush(stdout);
	}
	for (int k = 0; k < n && !d->stop; k++)
		if (r[k].it.unwritten) {
			d->stop = SB_EXIT_ENV;
			snprintf(d->reason, sizeof(d->reason),
				 "%s on rank %d on %s: %llu blocks of iteration %llu could not be "
				 "written, from offset %llu",
				 strerror(ENOSPC), k, r[k].host,
				 (unsigned long long)r[k].it.unwritten, (unsigned long long)it.n,
				 (unsigned long long)r[k].it.first_error_offset);
		}
	if (!d->stop && (it.interrupted || (s->o->stop_on_error && sb_soak_iter_failed(&it))))
		d->stop = 1;
	d->cut = d->stop == 1 && it.interrupted;
out:
	if (!kept)
		free(r);
	free(wh);
	free(rh);
}

int soak_ranks_iteration(struct soak_state *s, const struct sb_soak_iter *it, int rc, int *stop)
{
	struct packet *mine = calloc(1, sizeof(*mine));
	struct decision d;
	memset(&d, 0, sizeof(d));
	if (!mine) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	mine->rc = rc;
	mine->r.rank = cli_rank();
	snprintf(mine->r.host, sizeof(mine->r.host), "%s", cli_ranks_host());
	mine->r.start_s = s->ph_start;
	mine->r.end_s = s->ph_end;
	mine->r.wstart_s = s->ph[0];
	mine->r.wend_s = s->ph[1];
	mine->r.rstart_s = s->ph[2];
	mine->r.rend_s = s->ph[3];
	mine->r.wshared_s = s->wshared_s;
	mine->r.wpause_s = s->wpause_s;
	mine->r.write_bytes = s->wbytes;
	mine->r.read_bytes = s->rbytes;
	mine->r.it = *it;
	/* what it points to stays here: the other devices' lines are counted,
	 * their text is in this rank's own log */
	mine->r.it.kother_omitted += mine->r.it.nkother;
	mine->r.it.nkother = 0;
	mine->r.it.kother = NULL;
	mine->r.it.cells = NULL;
	mine->r.it.ncells = 0;
	mine->wh = s->wh;
	mine->rh = s->rh;
	struct packet *all = cli_ranks_gather(mine, sizeof(*mine));
	free(mine);
	if (all)
		aggregate(s, all, &d);
	free(all);
	cli_ranks_bcast(&d, sizeof(d));
	if (d.stop > 1 && !s->abort_reason[0])
		snprintf(s->abort_reason, sizeof(s->abort_reason), "%s", d.reason);
	*stop = d.stop;
	s->ranks_cut = d.cut;
	return 0;
}

/* ---- the end ---- */

int soak_ranks_finish(struct soak_state *s, const char *logname)
{
	/* every rank's own log gets its summary */
	int rc = soak_finish_log(s, logname, 1);
	if (cli_rank() == 0) {
		/* then rank 0's aggregate, the one result */
		char base[4096];
		snprintf(base, sizeof(base), "%.*s", (int)(strlen(logname) - strlen(".rank-0")),
			 logname);
		struct sb_soak_iter *it = s->it;
		size_t nit = s->nit;
		FILE *log = s->log;
		s->it = s->agg;
		s->nit = s->nagg;
		s->log = s->agg_log;
		s->fin_ranks = s->nagg_ranks >= s->nagg
				       ? (const struct sb_soak_rank *const *)s->agg_ranks
				       : NULL;
		s->fin_nranks = (unsigned)cli_ranks();
		const int code = soak_finish_log(s, base, 0);
		s->fin_ranks = NULL;
		s->agg = s->it;
		s->it = it;
		s->nit = nit;
		s->log = log;
		if (!s->o->v.json_stdout) {
			for (int k = 0; k < cli_ranks(); k++)
				if (s->rank_failed[k])
					printf("  rank %d on %s: %llu failed iteration%s\n", k,
					       s->rank_host[k],
					       (unsigned long long)s->rank_failed[k],
					       s->rank_failed[k] > 1 ? "s" : "");
			printf("each rank's own log: %s.rank-N\n", base);
		}
		rc = SB_MAX(rc, code);
	}
	return cli_ranks_worst(rc);
}

void soak_ranks_free(struct soak_state *s)
{
	if (s->agg_log)
		fclose(s->agg_log);
	s->agg_log = NULL;
	free(s->agg);
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

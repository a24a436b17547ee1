/*
 * Many ranks, after the measurements (fio's client/server shape): every
 * rank's figures of each job to rank 0, whose result holds them per rank
 * (client_stats) beside the "All clients" aggregate, each rank's phase
 * put on rank 0's clock by the offset measured at the start.
 */
#include "lib/run/jobs.h"
#include "lib/run/jobs_int.h"

struct packet {
	int rank;
	char host[64];
	double start_s, end_s;
	struct sb_job_result job; /* pointers cleared */
};

/* This rank's figures of jr, with nothing a pointer holds. */
static void pack(struct packet *p, struct sb_coord *c, const struct sb_job_result *jr)
{
	p->rank = sb_coord_rank(c);
	snprintf(p->host, sizeof(p->host), "%s", sb_coord_host(c));
	p->start_s = jr->rank_start_s;
	p->end_s = jr->rank_end_s;
	p->job = *jr;
	memset(&p->job.series, 0, sizeof(p->job.series));
	p->job.clients = NULL;
	p->job.nclients = 0;
	p->job.skew = NULL;
	p->job.ss = NULL;
	p->job.threads = NULL; /* rank 0 reports a rank's job whole */
	p->job.nthreads = 0;
	p->job.fio_opts = (struct sb_fio_rawopts){ NULL, 0 }; /* a job file's: rank 0's */
}

/* Rank 0: rank r's client of job jr from its packet. 0 or -ENOMEM. */
static int client_of(struct sb_client *cl, const struct packet *p, struct sb_coord *c, int r,
		     const struct sb_job_result *jr)
{
	cl->job = sb_job_result_create();
	if (!cl->job)
		return -ENOMEM;
	struct sb_series keep = cl->job->series;
	*cl->job = p->job;
	cl->job->series = keep;
	if (sb_job_result_set_fio_opts(cl->job, &jr->fio_opts) < 0)
		return -ENOMEM;
	const double off = sb_coord_clock_offset(c, r);
	cl->rank = p->rank;
	snprintf(cl->host, sizeof(cl->host), "%s", p->host);
	cl->clock_offset_s = off;
	cl->clock_rtt_s = sb_coord_clock_rtt(c, r);
	cl->start_s = p->start_s - off;
	cl->end_s = p->end_s - off;
	return 0;
}

/* Job i of every rank to rank 0 (the others give theirs, get nothing). */
static int collect_job(struct sb_coord *c, struct sb_results *res, size_t i)
{
	const int n = sb_coord_size(c);
	struct sb_job_result *jr = res->jobs[i];
	struct packet *mine = calloc(1, sizeof(*mine)), *all = NULL;
	struct sb_client *cl = NULL;
	if (!mine)
		return -ENOMEM;
	pack(mine, c, jr);
	if (sb_coord_rank(c) == 0 &&
	    (!(all = calloc((size_t)n, sizeof(*all))) || !(cl = calloc((size_t)n, sizeof(*cl))))) {
		free(all);
		free(mine);
		return -ENOMEM;
	}
	int e = sb_coord_gather(c, mine, sizeof(*mine), all, SB_RUN_SETUP_TIMEOUT_S);
	free(mine);
	for (int r = 0; !e && all && r < n; r++)
		e = client_of(&cl[r], &all[r], c, r, jr);
	free(all);
	if (!e && cl && sb_job_aggregate(jr, cl, (unsigned)n) < 0)
		e = -ENOMEM;
	if (!e && cl)
		sb_results_skew_warn(res, jr);
	else if (cl)
		for (int r = 0; r < n; r++)
			sb_job_result_free(cl[r].job);
	if (e)
		free(cl);
	return e;
}

int sb_run_collect(struct sb_coord *c, struct sb_results *res, int stonewall, long *worst,
		   struct sb_error *err)
{
	if (sb_run_ranks(c) < 2)
		return 0;
	long n[3] = { (long)res->njobs, -(long)res->njobs, *worst };
	int e = sb_coord_max(c, n, 3, SB_RUN_SETUP_TIMEOUT_S);
	if (e)
		return sb_error_set(err, e, SB_ERR_ENV, "gathering the results");
	*worst = n[2];
	if (n[0] != -n[1] && sb_coord_rank(c))
		return sb_error_set(err, -EPROTO, SB_ERR_FAIL, "%s", "");
	if (n[0] != -n[1])
		return sb_error_set(err, -EPROTO, SB_ERR_FAIL,
				    "the ranks measured %ld to %ld jobs (one was stopped?): no "
				    "aggregate written",
				    -n[1], n[0]);
	for (size_t i = 0; i < res->njobs && !e; i++)
		e = collect_job(c, res, i);
	if (e)
		return sb_error_set(err, e, SB_ERR_ENV, "gathering the results");
	if (sb_coord_rank(c) != 0)
		return 1;
	res->nranks = (unsigned)sb_coord_size(c);
	snprintf(res->mpi_library, sizeof(res->mpi_library), "%s", sb_coord_library());
	res->stonewall = stonewall;
	return 0;
}

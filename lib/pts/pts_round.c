/*
 * PTS rounds: each cell's job, its figures, the tracked value of each
 * round and when a test is done (METHODS.md 3.1: steady state over rounds
 * x-4..x, checked from round 5, at most 25 rounds; WSAT: until its bytes).
 */
#include "lib/pts/pts.h"
#include "lib/target/precond.h"

void sb_pts_precondition_job(const struct sb_pts_result *r, struct sb_job_opts *j)
{
	/* the same pass as --precondition=fill of every command */
	sb_precond_fill_job(j, 0, r->region_bytes, r->o.iodepth, r->o.seed);
}

void sb_pts_cell_job(const struct sb_pts_result *r, const struct sb_pts_part *p, unsigned cell,
		     struct sb_job_opts *j)
{
	const struct sb_pts_cell *c = &p->cells[cell];
	sb_job_opts_default(j);
	if (c->bs % 1024 == 0)
		snprintf(j->name, sizeof(j->name), "%s %u/%u %uk", p->name, c->read_pct,
			 100 - c->read_pct, c->bs >> 10);
	else
		snprintf(j->name, sizeof(j->name), "%s %u/%u 0.5k", p->name, c->read_pct,
			 100 - c->read_pct);
	if (p->random)
		j->rw = c->read_pct == 100 ? SB_RW_RANDREAD
			: c->read_pct == 0 ? SB_RW_RANDWRITE
					   : SB_RW_RANDRW;
	else
		j->rw = c->read_pct == 100 ? SB_RW_READ : c->read_pct == 0 ? SB_RW_WRITE : SB_RW_RW;
	j->rwmixread = c->read_pct;
	j->bs = c->bs;
	j->iodepth = p->iodepth;
	j->numjobs = p->threads;
	j->runtime_ns = r->o.round_ns;
	j->time_based = 1;
	j->direct = 1;
	j->size = r->region_bytes;
	if (p->segmented)
		j->segments = &r->segs;
	j->seed = r->o.seed + 1000003ull * (p->nrounds + 1) + cell;
}

void sb_pts_figures(const struct sb_job_result *jr, struct sb_pts_fig *f)
{
	const struct sb_hist *rl = &jr->dir[SB_DDIR_READ].lat, *wl = &jr->dir[SB_DDIR_WRITE].lat;
	memset(f, 0, sizeof(*f));
	f->read_iops = sb_dir_iops(jr, SB_DDIR_READ);
	f->write_iops = sb_dir_iops(jr, SB_DDIR_WRITE);
	f->iops = f->read_iops + f->write_iops;
	f->read_bw = sb_dir_bw(jr, SB_DDIR_READ);
	f->write_bw = sb_dir_bw(jr, SB_DDIR_WRITE);
	f->bw = f->read_bw + f->write_bw;
	const uint64_t n = rl->count + wl->count;
	if (n)
		f->lat_mean_ns = (sb_hist_mean(rl) * (double)rl->count +
				  sb_hist_mean(wl) * (double)wl->count) /
				 (double)n;
	f->lat_max_ns = (double)SB_MAX(rl->count ? rl->max : 0, wl->count ? wl->max : 0);
	f->bytes_written = jr->dir[SB_DDIR_WRITE].bytes;
}

double sb_pts_tracked(enum sb_pts_metric m, const struct sb_pts_fig *f)
{
	switch (m) {
	case SB_PTS_M_WRITE_BW: return f->write_bw;
	case SB_PTS_M_LAT_MEAN: return f->lat_mean_ns;
	case SB_PTS_M_IOPS: break;
	}
	return f->iops;
}

const char *sb_pts_metric_name(enum sb_pts_metric m)
{
	switch (m) {
	case SB_PTS_M_WRITE_BW: return "write_bw_bytes";
	case SB_PTS_M_LAT_MEAN: return "lat_mean_ns";
	case SB_PTS_M_IOPS: break;
	}
	return "iops";
}

struct sb_pts_fig *sb_pts_round_begin(struct sb_pts_part *p)
{
	const size_t n = (size_t)(p->nrounds + 1);
	struct sb_pts_fig *f = realloc(p->fig, n * p->ncells * sizeof(*f));
	if (!f)
		return NULL;
	p->fig = f;
	double *t = realloc(p->tracked, n * sizeof(*t));
	if (!t)
		return NULL;
	p->tracked = t;
	p->started = 1;
	memset(&f[p->nrounds * p->ncells], 0, p->ncells * sizeof(*f));
	return &f[p->nrounds * p->ncells];
}

int sb_pts_round_end(struct sb_pts_result *r, struct sb_pts_part *p)
{
	const struct sb_pts_fig *row = &p->fig[(size_t)p->nrounds * p->ncells];
	p->tracked[p->nrounds] = sb_pts_tracked(p->track, &row[p->track_cell]);
	for (unsigned c = 0; c < p->ncells; c++)
		p->written += row[c].bytes_written;
	p->nrounds++;
	if (p->nrounds >= p->max_rounds)
		return p->finished = 1;
	if (p->test == SB_PTS_WSAT)
		return p->finished = p->written >= (uint64_t)r->o.wsat_capacity * r->region_bytes;
	if (p->nrounds < SB_SS_WINDOW)
		return 0;
	struct sb_steady s;
	sb_steady_window(p->tracked, p->nrounds - SB_SS_WINDOW + 1, SB_SS_WINDOW, &s);
	return p->finished = s.reached;
}

void sb_pts_part_close(struct sb_pts_part *p)
{
	memset(&p->ss, 0, sizeof(p->ss));
	if (!p->nrounds)
		return;
	if (p->test == SB_PTS_WSAT) {
		sb_steady_window(p->tracked, 1, p->nrounds, &p->ss);
		p->ss.reached = 0; /* WSAT has no steady state */
	} else
		sb_steady_find(p->tracked, p->nrounds, &p->ss);
}

void sb_pts_window_average(const struct sb_pts_part *p, unsigned cell, struct sb_pts_fig *avg)
{
	memset(avg, 0, sizeof(*avg));
	if (!p->nrounds || !p->ss.first)
		return;
	const unsigned n = p->ss.last - p->ss.first + 1;
	for (unsigned k = p->ss.first - 1; k < p->ss.last; k++) {
		const struct sb_pts_fig *f = &p->fig[(size_t)k * p->ncells + cell];
		avg->iops += f->iops / n;
		avg->read_iops += f->read_iops / n;
		avg->write_iops += f->write_iops / n;
		avg->bw += f->bw / n;
		avg->read_bw += f->read_bw / n;
		avg->write_bw += f->write_bw / n;
		avg->lat_mean_ns += f->lat_mean_ns / n;
		avg->lat_max_ns += f->lat_max_ns / n;
		avg->bytes_written += f->bytes_written / n;
	}
}

void sb_pts_result_free(struct sb_pts_result *r)
{
	if (r)
		sb_segments_free(&r->segs);
	for (unsigned i = 0; r && i < r->nparts; i++) {
		free(r->parts[i].fig);
		free(r->parts[i].tracked);
		r->parts[i].fig = NULL;
		r->parts[i].tracked = NULL;
	}
}

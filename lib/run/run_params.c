/* A run's parameters from a job and its prepared target (run.h). */
#include "lib/run/run.h"
#include "lib/target/jobtarget.h"

void sb_run_params_of(struct sb_run_params *p, const struct sb_job_opts *job,
		      const struct sb_engine_ops *ops, const struct sb_jobtarget *t)
{
	memset(p, 0, sizeof(*p));
	p->job = *job;
	p->engine = ops;
	p->paths = (const char *const *)t->paths;
	p->npaths = t->npaths;
	p->held = t->fd;
	p->is_blockdev = t->is_blockdev;
	p->region_offset = t->region_offset;
	p->region_size = t->region_size;
	p->align = t->align;
	p->destroy_data = t->destroy_data;
	p->mk_nfiles = t->mk_nfiles;
	p->mk_span = t->mk_span;
	p->mk_end = t->mk_end;
	p->mk_ino = t->mk_ino;
}

/* The jobs of a fio job file that run together, as fio runs them. */
#include "lib/job/jobfile.h"

/* A group is a job and the ones after it up to the next with stonewall
 * (or wait_for_previous): those start at once; a stonewall waits for every
 * job before it. */
void sb_jobfile_report_groups(const struct sb_jobfile *jf, unsigned *group, size_t n)
{
	unsigned g = 0;
	for (size_t i = 0; i < n && i < jf->njobs; i++)
		group[i] = g += i && jf->jobs[i].new_group;
}

unsigned sb_jobfile_groups(const struct sb_jobfile *jf, struct sb_jobfile_group *groups)
{
	unsigned n = 0;
	for (unsigned i = 0; i < jf->njobs; n++) {
		unsigned e = i + 1;
		while (e < jf->njobs && !jf->jobs[e].stonewall)
			e++;
		groups[n] = (struct sb_jobfile_group){ i, e - i };
		i = e;
	}
	return n;
}

/* fio's flow (flow=, flow_id=): the workers of one flow_id issue requests
 * in proportion to their weights (worker.c's flow_gate). */
#ifndef SB_RUN_FLOW_H
#define SB_RUN_FLOW_H

#include <stdatomic.h>

#include "lib/sb.h"

/* fio's flow: requests issued by the workers of one flow_id (starting
 * at 1, as fio's) and their weights added up; shared by the runs of a
 * group (sb_run_group), which outlives them. */
struct sb_flow {
	_Atomic uint64_t issued;
	_Atomic uint64_t weight;
};

/* A worker joins its flow before any worker of the group issues (as
 * fio's threads join before the start they all wait for), or, with a
 * startdelay, once it starts. */
static inline void sb_flow_join(struct sb_flow *f, unsigned weight)
{
	atomic_fetch_add_explicit(&f->weight, weight, memory_order_relaxed);
}

#endif

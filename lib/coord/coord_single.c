/* The coordination of ranks in a build without MPI (coord.h): one process,
 * rank 0 of 1; every exchange is a copy or nothing. */
#include "lib/coord/coord.h"

#include <sys/utsname.h>

struct sb_coord {
	char host[256];
	int done; /* the state of the poll round */
	uint64_t sum[SB_COORD_SUMS];
};

int sb_coord_init(struct sb_coord **out, int mpi, int *argc, char ***argv)
{
	(void)mpi;
	(void)argc;
	(void)argv;
	struct sb_coord *c = calloc(1, sizeof(*c));
	struct utsname u;
	if (!c)
		return -ENOMEM;
	if (uname(&u) == 0)
		snprintf(c->host, sizeof(c->host), "%s", u.nodename);
	*out = c;
	return 0;
}

void sb_coord_finish(struct sb_coord *c)
{
	free(c);
}

int sb_coord_rank(const struct sb_coord *c)
{
	(void)c;
	return 0;
}

int sb_coord_size(const struct sb_coord *c)
{
	(void)c;
	return 1;
}

const char *sb_coord_host(const struct sb_coord *c)
{
	return c ? c->host : "";
}

const char *sb_coord_library(void)
{
	return NULL;
}

double sb_coord_time(const struct sb_coord *c)
{
	(void)c;
	return (double)sb_now_ns() / 1e9;
}

int sb_coord_barrier(struct sb_coord *c, double timeout_s)
{
	(void)c;
	(void)timeout_s;
	return 0;
}

int sb_coord_gather(struct sb_coord *c, const void *in, size_t len, void *out, double timeout_s)
{
	(void)c;
	(void)timeout_s;
	if (out)
		memcpy(out, in, len);
	return 0;
}

int sb_coord_bcast(struct sb_coord *c, void *buf, size_t len, double timeout_s)
{
	(void)c;
	(void)buf;
	(void)len;
	(void)timeout_s;
	return 0;
}

int sb_coord_max(struct sb_coord *c, long *v, unsigned n, double timeout_s)
{
	(void)c;
	(void)v;
	(void)n;
	(void)timeout_s;
	return 0;
}

int sb_coord_clock_offsets(struct sb_coord *c, double *offset, double *rtt, double timeout_s)
{
	(void)c;
	(void)timeout_s;
	if (offset)
		offset[0] = 0;
	if (rtt)
		rtt[0] = 0;
	return 0;
}

double sb_coord_clock_offset(const struct sb_coord *c, int r)
{
	(void)c;
	(void)r;
	return 0;
}

int sb_coord_poll_start(struct sb_coord *c, int done, const uint64_t *counters)
{
	c->done = done;
	memcpy(c->sum, counters, sizeof(c->sum));
	return 0;
}

int sb_coord_poll_test(struct sb_coord *c, int *any, int *all, uint64_t *sum, double timeout_s)
{
	(void)timeout_s;
	*any = *all = c->done; /* alone: the round ends at once, with this rank's state */
	if (sum)
		memcpy(sum, c->sum, sizeof(c->sum));
	return 1;
}

int sb_coord_failed(const struct sb_coord *c)
{
	(void)c;
	return 0;
}

void sb_coord_abort(struct sb_coord *c, int code)
{
	(void)c;
	(void)code;
}

/* The coordination of ranks on Open MPI (coord.h), built with make MPI=1.
 * Every collective is the non-blocking one, tested until it ends or its
 * deadline passes, so that a dead or hung rank never holds the others in
 * a barrier forever. Only the main thread calls MPI (MPI_THREAD_FUNNELED). */
#include "lib/coord/coord.h"

#include <mpi.h>
#include <sys/utsname.h>

#define STR_(x) #x
#define STR(x) STR_(x)

struct sb_coord {
	int mpi; /* MPI_Init was called here */
	int rank, size;
	char host[MPI_MAX_PROCESSOR_NAME + 1];
	/* the poll round in flight (MPI_REQUEST_NULL none): the states, and
	 * the counters summed to rank 0 */
	MPI_Request poll[2];
	int poll_in[2], poll_out[2];
	unsigned long long sum_in[SB_COORD_SUMS], sum_out[SB_COORD_SUMS];
	double poll_t0;
	double *offset; /* rank 0: each rank's clock offset, as measured last */
	int failed;	/* a call that failed (-errno): every later one fails so */
};

/* Keeps the first failure: the job is ending, no other exchange waits. */
static int fail(struct sb_coord *c, int e)
{
	if (e < 0 && !c->failed)
		c->failed = e;
	return e;
}

int sb_coord_failed(const struct sb_coord *c)
{
	return c ? c->failed : 0;
}

int sb_coord_init(struct sb_coord **out, int mpi, int *argc, char ***argv)
{
	struct sb_coord *c = calloc(1, sizeof(*c));
	struct utsname u;
	if (!c)
		return -ENOMEM;
	c->size = 1;
	c->poll[0] = c->poll[1] = MPI_REQUEST_NULL;
	if (uname(&u) == 0)
		snprintf(c->host, sizeof(c->host), "%s", u.nodename);
	if (mpi) {
		int provided, len = 0;
		if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
			free(c);
			return -EIO;
		}
		c->mpi = 1;
		MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
		MPI_Comm_size(MPI_COMM_WORLD, &c->size);
		if (MPI_Get_processor_name(c->host, &len) != MPI_SUCCESS || len <= 0)
			snprintf(c->host, sizeof(c->host), "%s", u.nodename);
	}
	*out = c;
	return 0;
}

void sb_coord_finish(struct sb_coord *c)
{
	if (c && c->mpi)
		MPI_Finalize();
	if (c)
		free(c->offset);
	free(c);
}

int sb_coord_rank(const struct sb_coord *c)
{
	return c ? c->rank : 0;
}

int sb_coord_size(const struct sb_coord *c)
{
	return c ? c->size : 1;
}

const char *sb_coord_host(const struct sb_coord *c)
{
	return c ? c->host : "";
}

const char *sb_coord_library(void)
{
#ifdef OMPI_MAJOR_VERSION
	return "Open MPI " STR(OMPI_MAJOR_VERSION) "." STR(OMPI_MINOR_VERSION) "." STR(
		OMPI_RELEASE_VERSION) " (MPI " STR(MPI_VERSION) "." STR(MPI_SUBVERSION) ")";
#else
	return "MPI " STR(MPI_VERSION) "." STR(MPI_SUBVERSION);
#endif
}

double sb_coord_time(const struct sb_coord *c)
{
	return c && c->mpi ? MPI_Wtime() : (double)sb_now_ns() / 1e9;
}

/* Test req until it ends or timeout_s passes (then it is left behind:
 * the caller aborts the job). */
static int wait_for(MPI_Request *req, double timeout_s)
{
	const double end = MPI_Wtime() + timeout_s;
	const struct timespec nap = { 0, 200000 };
	for (;;) {
		int done = 0;
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (done)
			return 0;
		if (MPI_Wtime() > end)
			return -ETIMEDOUT;
		nanosleep(&nap, NULL);
	}
}

int sb_coord_barrier(struct sb_coord *c, double timeout_s)
{
	if (c->failed)
		return c->failed;
	MPI_Request r;
	if (!c->mpi || c->size < 2)
		return 0;
	if (MPI_Ibarrier(MPI_COMM_WORLD, &r) != MPI_SUCCESS)
		return fail(c, -EIO);
	return fail(c, wait_for(&r, timeout_s));
}

int sb_coord_gather(struct sb_coord *c, const void *in, size_t len, void *out, double timeout_s)
{
	if (c->failed)
		return c->failed;
	MPI_Request r;
	if (!c->mpi || c->size < 2) {
		if (out)
			memcpy(out, in, len);
		return 0;
	}
	if (len > INT32_MAX)
		return fail(c, -EINVAL);
	if (MPI_Igather(in, (int)len, MPI_BYTE, out, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &r) !=
	    MPI_SUCCESS)
		return fail(c, -EIO);
	return fail(c, wait_for(&r, timeout_s));
}

int sb_coord_bcast(struct sb_coord *c, void *buf, size_t len, double timeout_s)
{
	if (c->failed)
		return c->failed;
	MPI_Request r;
	if (!c->mpi || c->size < 2)
		return 0;
	if (len > INT32_MAX)
		return fail(c, -EINVAL);
	if (MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &r) != MPI_SUCCESS)
		return fail(c, -EIO);
	return fail(c, wait_for(&r, timeout_s));
}

int sb_coord_max(struct sb_coord *c, long *v, unsigned n, double timeout_s)
{
	if (c->failed)
		return c->failed;
	MPI_Request r;
	if (!c->mpi || c->size < 2)
		return 0;
	if (MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &r) !=
	    MPI_SUCCESS)
		return fail(c, -EIO);
	return fail(c, wait_for(&r, timeout_s));
}

#define TAG_CLOCK 71
#define CLOCK_TRIES 8

/* Rank 0: rank r's offset kept for sb_coord_clock_offset (not kept
 * without memory: 0 then, as alone). */
static void keep_offset(struct sb_coord *c, int r, double off)
{
	if (!c->offset)
		c->offset = calloc((size_t)c->size, sizeof(*c->offset));
	if (c->offset)
		c->offset[r] = off;
}

double sb_coord_clock_offset(const struct sb_coord *c, int r)
{
	return c && c->offset && r >= 0 && r < c->size ? c->offset[r] : 0;
}

/* Rank 0 sends, rank r answers with its time: the offset is r's time
 * less the middle of the round trip, from the shortest of the tries. */
int sb_coord_clock_offsets(struct sb_coord *c, double *offset, double *rtt, double timeout_s)
{
	if (c->failed)
		return c->failed;
	if (c->rank == 0) {
		offset[0] = rtt[0] = 0;
	}
	if (!c->mpi || c->size < 2)
		return 0;
	for (int r = 1; r < c->size; r++) {
		for (int k = 0; k < CLOCK_TRIES; k++) {
			MPI_Request q[2];
			double t0, t1, tr = 0, dummy = 0;
			int e;
			if (c->rank == 0) {
				t0 = MPI_Wtime();
				MPI_Isend(&t0, 1, MPI_DOUBLE, r, TAG_CLOCK, MPI_COMM_WORLD, &q[0]);
				MPI_Irecv(&tr, 1, MPI_DOUBLE, r, TAG_CLOCK, MPI_COMM_WORLD, &q[1]);
				if ((e = wait_for(&q[0], timeout_s)) ||
				    (e = wait_for(&q[1], timeout_s)))
					return fail(c, e);
				t1 = MPI_Wtime();
				if (k == 0 || t1 - t0 < rtt[r]) {
					rtt[r] = t1 - t0;
					offset[r] = tr - (t0 + t1) / 2;
				}
				if (k == CLOCK_TRIES - 1)
					keep_offset(c, r, offset[r]);
			} else if (c->rank == r) {
				MPI_Irecv(&dummy, 1, MPI_DOUBLE, 0, TAG_CLOCK, MPI_COMM_WORLD,
					  &q[0]);
				if ((e = wait_for(&q[0], timeout_s)))
					return fail(c, e);
				tr = MPI_Wtime();
				MPI_Isend(&tr, 1, MPI_DOUBLE, 0, TAG_CLOCK, MPI_COMM_WORLD, &q[1]);
				if ((e = wait_for(&q[1], timeout_s)))
					return fail(c, e);
			}
		}
	}
	return 0;
}

int sb_coord_poll_start(struct sb_coord *c, int done, const uint64_t *counters)
{
	if (c->failed)
		return c->failed;
	c->poll_in[0] = !!done; /* max: anyone done */
	c->poll_in[1] = !done;	/* max: anyone not done */
	for (int i = 0; i < SB_COORD_SUMS; i++)
		c->sum_in[i] = c->sum_out[i] = counters[i];
	c->poll_t0 = sb_coord_time(c);
	if (!c->mpi || c->size < 2) {
		c->poll_out[0] = c->poll_in[0];
		c->poll_out[1] = c->poll_in[1];
		return 0;
	}
	/* two small non-blocking collectives a round, a few a second: the
	 * measurement's threads never wait for them */
	if (MPI_Iallreduce(c->poll_in, c->poll_out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD,
			   &c->poll[0]) != MPI_SUCCESS ||
	    MPI_Ireduce(c->sum_in, c->sum_out, SB_COORD_SUMS, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
			MPI_COMM_WORLD, &c->poll[1]) != MPI_SUCCESS)
		return fail(c, -EIO);
	return 0;
}

int sb_coord_poll_test(struct sb_coord *c, int *any, int *all, uint64_t *sum, double timeout_s)
{
	if (c->failed)
		return c->failed;
	int done = 1;
	if (MPI_Testall(2, c->poll, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
		return fail(c, -EIO);
	if (!done)
		return sb_coord_time(c) - c->poll_t0 > timeout_s ? fail(c, -ETIMEDOUT) : 0;
	*any = c->poll_out[0];
	*all = !c->poll_out[1];
	for (int i = 0; sum && i < SB_COORD_SUMS; i++)
		sum[i] = c->sum_out[i];
	return 1;
}

void sb_coord_abort(struct sb_coord *c, int code)
{
	if (c && c->mpi)
		MPI_Abort(MPI_COMM_WORLD, code);
}

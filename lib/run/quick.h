/*
 * storbench quick as a library call: CrystalDiskMark's matrix measured
 * properly on one target (direct I/O, random data laid out once, a
 * discarded warm-up, then repeats summarized as median and min..max),
 * read and write where it may write; under mpirun on every rank's own
 * target, rank 0 with every rank's figures (lib/run/jobs.h).
 */
#ifndef SB_RUN_QUICK_H
#define SB_RUN_QUICK_H

#include "lib/run/jobs.h"

#define SB_QUICK_TESTS 4

struct sb_quick_test {
	const char *name; /* "SEQ1M Q8T1" */
	int random;
	uint32_t bs;
	unsigned qd, threads;
};
/* The matrices: CrystalDiskMark's default, and its NVMe one. */
extern const struct sb_quick_test sb_quick_default[SB_QUICK_TESTS];
extern const struct sb_quick_test sb_quick_nvme[SB_QUICK_TESTS];

struct sb_quick_opts {
	const char *target;
	const struct sb_quick_test *tests; /* SB_QUICK_TESTS of them */
	uint64_t size;			   /* of the test file (or of an existing one, at most) */
	int size_set;	     /* given: an existing file or device is not measured whole */
	uint64_t runtime_ns; /* each measurement */
	uint64_t idle_ns;    /* between tests */
	unsigned repeat;     /* runs a test after its warm-up */
	const char *engine;  /* NULL or "": the default */
	int read_only, destroy_data, keep;
	struct sb_state_opts state; /* --precondition, --discard-before */
	int stonewall;
	/* the progress of a command of several targets: the tests run
	 * before this target's, and those after it (counted in full) */
	unsigned tests_before, tests_after;
};

struct sb_quick_span {
	size_t first; /* the runs of a test in one direction: jobs[first .. first + n) */
	unsigned n;
	const char *test;
};

struct sb_quick_result {
	struct sb_results *res; /* NULL: out of memory before anything */
	int write;		/* this rank writes the results (rank 0, alone) */
	enum sb_run_status status;
	int writes;	     /* the write tests ran */
	unsigned tests_done; /* tests_before and this target's */
	/* many ranks: each test's runs (after gathering, on rank 0) */
	struct sb_quick_span spans[2 * SB_QUICK_TESTS];
	unsigned nspans;
	int interrupted;
};

/* The tests on o->target, read then write, each after o->idle_ns: the
 * target's file laid out once (or its existing file or device: writes
 * only with destroy_data, or when storbench made it; the results' warnings
 * say so), brought to the state asked, each test's warm-up and repeats
 * measured and summarized (res->summary); stopped, the results hold what
 * was measured, marked interrupted. Returns 0 once it ran (out->status
 * says how), or -errno with err (its message "" when said through say). */
int sb_quick_run(const struct sb_quick_opts *o, const struct sb_run_hooks *h, struct sb_coord *c,
		 struct sb_quick_result *out, struct sb_error *err);
void sb_quick_result_free(struct sb_quick_result *r);

#endif

/* needs: none */
/*
 * The ranks' steps (lib/coord/coord_ranks.h) on the single-process coord,
 * without the program: alone every agreement gives back the caller's code
 * and nobody is named, a gather is a copy, the space check refuses
 * nothing; a rank's directory (as a rank of two would have
 * it: the state says two ranks, the coord is alone) is made with its
 * marker, a file noted there, removed at the end unless kept; a killed
 * run's directory is taken over after the claim with a warning told
 * through the hooks, a user's directory is refused with the refusal's code
 * and left as it was; and --per-rank-dir=0 works on the directory itself.
 * A job's target (sb_ranks_jobtarget_prepare): alone its file is made
 * where named; as a rank of two under a directory TARGET, in the rank's
 * own directory; a target that refuses gives the refusal's code and makes
 * nothing; a probe's refusal is told as the rank's own error, and a
 * probed directory leads to the rank's own.
 */
#include "tests/lib/sbtest.h"
#include "lib/coord/coord_ranks.h"
#include "lib/target/jobtarget.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct heard {
	int said, errors, warnings;
	char last[8192];
};

static void on_said(void *ctx, int rank, const char *msg)
{
	struct heard *h = ctx;
	(void)rank;
	h->said++;
	snprintf(h->last, sizeof(h->last), "%s", msg);
}

static void on_error(void *ctx, const char *msg)
{
	struct heard *h = ctx;
	h->errors++;
	snprintf(h->last, sizeof(h->last), "%s", msg);
}

static void on_warning(void *ctx, const char *msg)
{
	struct heard *h = ctx;
	h->warnings++;
	snprintf(h->last, sizeof(h->last), "%s", msg);
}

static void join(struct sb_ranks *r, struct heard *h)
{
	const struct sb_ranks_hooks hooks = {
		.ctx = h, .said = on_said, .error = on_error, .warning = on_warning
	};
	int argc = 0;
	char **argv = NULL;
	*r = (struct sb_ranks)SB_RANKS_INIT;
	memset(h, 0, sizeof(*h));
	assert_int_equal(sb_ranks_join(r, 0, &argc, &argv, &hooks), 0);
	assert_int_equal(r->size, 1);
	assert_int_equal(r->rank, 0);
	assert_non_null(r->c);
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void put(const char *path)
{
	const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "data", 4), 4);
	close(fd);
}

static int code_of(const struct sb_error *er)
{
	return er->cls == SB_ERR_INPUT ? 2 : 3;
}

static void alone(void **state)
{
	struct sb_ranks r;
	struct heard h;
	struct sb_error err;
	int code = 3, who = 7;
	(void)state;
	join(&r, &h);
	assert_int_equal(sb_ranks_start(&r, "ident", 1, 2, &err), 0);
	/* an agreement gives back the code and names nobody */
	assert_int_equal(sb_ranks_agree(&r, &code, &who, "why", &err), 0);
	assert_int_equal(code, 3);
	assert_int_equal(who, -1);
	long v[2] = { 4, -9 };
	assert_int_equal(sb_ranks_max(&r, v, 2, 1.0, "agreeing", &err), 0);
	assert_int_equal(v[0], 4);
	assert_int_equal(v[1], -9);
	/* a gather: a copy of this rank's bytes */
	const int mine = 42;
	void *got;
	assert_int_equal(sb_ranks_gather(&r, &mine, sizeof(mine), &got, &err), 0);
	assert_non_null(got);
	assert_int_equal(*(int *)got, 42);
	free(got);
	int buf = 9;
	assert_int_equal(sb_ranks_bcast(&r, &buf, sizeof(buf), &err), 0);
	assert_int_equal(buf, 9);
	/* space: nothing to refuse alone, however much is needed */
	assert_int_equal(sb_ranks_space_agree(&r, sbt_tmpdir(), UINT64_MAX, 1, NULL, 3, &code, &who,
					      &err),
			 0);
	assert_int_equal(code, 0);
	assert_int_equal(who, -1);
	/* a directory target alone: the directory itself, nothing made */
	struct sb_ranks_agreed a = { .code_of = code_of };
	const char *where;
	assert_int_equal(sb_ranks_dir(&r, sbt_tmpdir(), 1, 1, &where, &a, &err), 0);
	assert_ptr_equal(where, sbt_tmpdir());
	assert_int_equal(a.code, 0);
	assert_int_equal(a.who, -1);
	assert_int_equal(h.said + h.errors + h.warnings, 0);
	sb_ranks_finish(&r);
	assert_null(r.c);
}

/* As rank 0 of two would see its directory (the coord stays alone) */
static void as_two(struct sb_ranks *r, const char *run)
{
	r->size = 2;
	snprintf(r->run_id, sizeof(r->run_id), "%s", run);
}

static void own_dir(void **state)
{
	struct sb_ranks r;
	struct heard h;
	struct sb_error err;
	struct sb_ranks_agreed a = { .code_of = code_of };
	const char *where, *top = sbt_path("own");
	char dir[4400], file[4500];
	(void)state;
	sbt_mkdirs(top);
	snprintf(dir, sizeof(dir), "%s/storbench-rank-0", top);
	snprintf(file, sizeof(file), "%s/f", dir);
	join(&r, &h);
	as_two(&r, "run-1");
	/* a file target: no directory of its own */
	assert_int_equal(sb_ranks_dir(&r, top, 0, 1, &where, &a, &err), 0);
	assert_ptr_equal(where, top);
	assert_false(exists(dir));
	/* a reader takes nothing */
	assert_int_equal(sb_ranks_dir(&r, top, 1, 0, &where, &a, &err), 0);
	assert_string_equal(where, dir);
	assert_false(exists(dir));
	/* a writer's is made with its marker, and goes at the end */
	assert_int_equal(sb_ranks_dir(&r, top, 1, 1, &where, &a, &err), 0);
	assert_int_equal(a.code, 0);
	assert_string_equal(where, dir);
	assert_true(exists(dir));
	char marker[4500];
	snprintf(marker, sizeof(marker), "%s/%s", dir, SB_RANKDIR_MARKER);
	assert_true(exists(marker));
	/* made again by the same run: nothing happens */
	assert_int_equal(sb_ranks_make_dir(&r, &err), 0);
	sb_ranks_remove_dir(&r, 0);
	assert_false(exists(dir));
	assert_string_equal(r.dir, "");
	/* kept files: directory and marker stay, noted as kept */
	assert_int_equal(sb_ranks_dir(&r, top, 1, 1, &where, &a, &err), 0);
	put(file);
	sb_ranks_note_file(&r, file);
	assert_int_equal(r.noted, 1);
	sb_ranks_remove_dir(&r, 1);
	assert_true(exists(file));
	assert_true(exists(marker));
	assert_int_equal(h.warnings, 0);
	/* not removed (a file left without keep): a warning says so */
	assert_int_equal(unlink(file), 0);
	assert_int_equal(unlink(marker), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(sb_ranks_dir(&r, top, 1, 1, &where, &a, &err), 0);
	put(file);
	sb_ranks_remove_dir(&r, 0);
	assert_int_equal(h.warnings, 1);
	assert_non_null(strstr(h.last, "could not remove"));
	assert_non_null(strstr(h.last, "it holds files storbench did not remove"));
	/* --per-rank-dir=0: the directory itself */
	r.per_rank_dir = 0;
	assert_ptr_equal(sb_ranks_target(&r, top, 1), top);
	sb_ranks_finish(&r);
}

static void users_dir_refused(void **state)
{
	struct sb_ranks r;
	struct heard h;
	struct sb_error err;
	struct sb_ranks_agreed a = { .code_of = code_of };
	const char *where, *top = sbt_path("user");
	char dir[4400], file[4500];
	(void)state;
	snprintf(dir, sizeof(dir), "%s/storbench-rank-0", top);
	snprintf(file, sizeof(file), "%s/mine", dir);
	sbt_mkdirs(dir);
	put(file);
	join(&r, &h);
	as_two(&r, "run-2");
	/* not this run's, nor a dead storbench run's: refused, untouched */
	assert_int_equal(sb_ranks_dir(&r, top, 1, 1, &where, &a, &err), 0);
	assert_int_equal(a.code, 2);
	assert_int_equal(a.who, 0);
	assert_true(exists(file));
	assert_string_equal(r.dir, "");
	assert_int_equal(r.rd_open, 0);
	sb_ranks_finish(&r);
}

static void killed_run_claimed(void **state)
{
	struct sb_ranks r;
	struct heard h;
	struct sb_error err;
	struct sb_ranks_agreed a = { .code_of = code_of };
	const char *where, *top = sbt_path("killed");
	char dir[4400], file[4500];
	(void)state;
	sbt_mkdirs(top);
	snprintf(dir, sizeof(dir), "%s/storbench-rank-0", top);
	snprintf(file, sizeof(file), "%s/a", dir);
	/* a run that made its directory and a file, then died */
	const pid_t c = fork();
	assert_true(c >= 0);
	if (!c) {
		struct sb_ranks k;
		struct heard kh;
		join(&k, &kh);
		as_two(&k, "run-old");
		if (sb_ranks_dir(&k, top, 1, 1, &where, &a, &err) || a.code)
			_exit(1);
		put(file);
		sb_ranks_note_file(&k, file);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(exists(file));
	join(&r, &h);
	as_two(&r, "run-new");
	assert_int_equal(sb_ranks_dir(&r, top, 1, 1, &where, &a, &err), 0);
	assert_int_equal(a.code, 0);
	assert_false(exists(file));
	assert_true(exists(dir));
	assert_int_equal(h.warnings, 1);
	assert_non_null(strstr(h.last, "left by run run-old"));
	assert_non_null(strstr(h.last, "removed the 1 file it made there"));
	sb_ranks_remove_dir(&r, 0);
	assert_false(exists(dir));
	sb_ranks_finish(&r);
}

static void job_of(struct sb_jobtarget *t, struct sb_job_opts *job)
{
	memset(t, 0, sizeof(*t));
	sb_job_opts_default(job);
	job->rw = SB_RW_WRITE;
	job->size = 64 << 10;
	job->direct = 0;
}

static void jobtarget(void **state)
{
	struct sb_ranks r;
	struct heard h;
	struct sb_error err;
	struct sb_jobtarget t;
	struct sb_job_opts job;
	struct sb_ranks_agreed a = { .code_of = code_of };
	int own;
	const char *top = sbt_path("jobs");
	char dir[4400];
	(void)state;
	sbt_mkdirs(top);
	snprintf(dir, sizeof(dir), "%s/storbench-rank-0", top);
	join(&r, &h);
	/* alone: the directory as named */
	job_of(&t, &job);
	assert_int_equal(sb_ranks_jobtarget_prepare(&r, &t, top, &job, 0, 0, &own, &a, &err), 0);
	assert_int_equal(a.code, 0);
	assert_int_equal(own, 0);
	assert_int_equal(t.npaths, 1);
	assert_non_null(strstr(t.paths[0], top));
	assert_null(strstr(t.paths[0], "storbench-rank-0"));
	sb_jobtarget_cleanup(&t, 0);
	assert_false(exists(dir));
	/* a rank of two: its own directory, made with its marker */
	as_two(&r, "run-jobs");
	job_of(&t, &job);
	assert_int_equal(sb_ranks_jobtarget_prepare(&r, &t, top, &job, 0, 0, &own, &a, &err), 0);
	assert_int_equal(a.code, 0);
	assert_int_equal(own, 1);
	assert_int_equal(t.npaths, 1);
	assert_non_null(strstr(t.paths[0], dir));
	assert_true(exists(t.paths[0]));
	sb_jobtarget_cleanup(&t, 0);
	sb_ranks_remove_dir(&r, 0);
	assert_false(exists(dir));
	/* a target that refuses (not a storbench file): its code, nothing made */
	char theirs[4400];
	snprintf(theirs, sizeof(theirs), "%s/theirs", top);
	put(theirs);
	job_of(&t, &job);
	assert_int_equal(sb_ranks_jobtarget_prepare(&r, &t, theirs, &job, 0, 0, &own, &a, &err), 0);
	assert_int_equal(a.code, 2);
	assert_int_equal(own, 0);
	sb_jobtarget_cleanup(&t, 0);
	assert_true(exists(theirs));
	assert_false(exists(dir));
	assert_int_equal(h.said + h.errors + h.warnings, 0);
	sb_ranks_finish(&r);
}

static void probe(void **state)
{
	struct sb_ranks r;
	struct heard h;
	struct sb_error err;
	struct sb_jobtarget t = { 0 };
	struct sb_ranks_agreed a = { .code_of = code_of };
	const char *top = sbt_path("probed");
	char dir[4400];
	(void)state;
	sbt_mkdirs(top);
	snprintf(dir, sizeof(dir), "%s/storbench-rank-0", top);
	join(&r, &h);
	as_two(&r, "run-probe");
	/* a path that cannot be: this rank's refusal told as its own error */
	assert_int_equal(sb_ranks_probe(&r, &t, "/nonexistent-dir/x/y", &a, &err), 0);
	assert_int_not_equal(a.code, 0);
	assert_int_equal(h.errors, 1);
	assert_non_null(strstr(h.last, "/nonexistent-dir/x"));
	/* a directory: probed, then the rank's own under it, to be probed anew */
	const char *path = top;
	memset(&t, 0, sizeof(t));
	assert_int_equal(sb_ranks_probe_dir(&r, &t, &path, 1, &a, &err), 0);
	assert_int_equal(a.code, 0);
	assert_string_equal(path, dir);
	assert_true(exists(dir));
	assert_int_equal(t.probed, 0);
	sb_ranks_remove_dir(&r, 0);
	assert_false(exists(dir));
	/* a reader: the name, nothing made */
	path = top;
	assert_int_equal(sb_ranks_probe_dir(&r, &t, &path, 0, &a, &err), 0);
	assert_string_equal(path, dir);
	assert_false(exists(dir));
	sb_ranks_finish(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alone),
		cmocka_unit_test(own_dir),
		cmocka_unit_test(users_dir_refused),
		cmocka_unit_test(killed_run_claimed),
		cmocka_unit_test(jobtarget),
		cmocka_unit_test(probe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

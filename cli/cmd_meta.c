/*
 * storbench meta: bonnie++'s tests in a directory: block and seek tests on
 * one file, then create/stat/delete of many small files, in a run
 * directory storbench creates, marks and removes (only what it made).
 */
#include "cli/cmd_meta.h"
#include "report/report.h"

#define DEFAULT_FILES 16384 /* bonnie++: -n 16 (x 1024) */
#define DEFAULT_CHUNK 8192
#define DEFAULT_CHAR_SIZE (20ull << 20) /* bonnie++ 2.00a: -f 20 (MiB) */

enum {
	M_FILES,
	M_FILE_SIZE,
	M_DIRS,
	M_THREADS,
	M_SIZE,
	M_CHAR_SIZE,
	M_CHUNK,
	M_FILE_CHUNK,
	M_SEEKS,
	M_SEEKERS,
	M_FSYNC,
	M_DIRECT,
	M_PER_CHAR,
	M_DATA,
	M_NAME,
	M_CSV
};

static const struct cli_opt meta_opts[] = {
	{ "files", OPT_ARG, M_FILES, "N", "files to create/stat/delete, 0: none [16k]" },
	{ "file-size", OPT_ARG, M_FILE_SIZE, "SIZE|MIN:MAX",
	  "bytes per file, random in MIN..MAX [0]" },
	{ "dirs", OPT_ARG, M_DIRS, "N", "directories for the files [1 per thread]" },
	{ "threads", OPT_ARG, M_THREADS, "N", "file-test threads, own directories each [1]" },
	{ "size", OPT_ARG, M_SIZE, "SIZE",
	  "block test file, a plain number in MiB, 0: none [1G or 2 x RAM, below]" },
	{ "char-size", OPT_ARG, M_CHAR_SIZE, "SIZE",
	  "per-character test size, a plain number in MiB, 0: none [20M]" },
	{ "chunk", OPT_ARG, M_CHUNK, "SIZE", "block size, 256 to 1M [8k]" },
	{ "file-chunk", OPT_ARG, M_FILE_CHUNK, "SIZE", "write/read size of file data [8k]" },
	{ "seeks", OPT_ARG, M_SEEKS, "N", "random seeks [8192]" },
	{ "seekers", OPT_ARG, M_SEEKERS, "N", "threads doing the seeks [5]" },
	{ "fsync", OPT_NOARG, M_FSYNC, NULL, "fsync files, dirs, seek rewrites (bonnie++ -b)" },
	{ "direct", OPT_NOARG, M_DIRECT, NULL, "O_DIRECT for block and seek tests (-D)" },
	{ "per-char", OPT_ARG, M_PER_CHAR, "putc|syscall",
	  "1-byte read/write syscalls (bonnie++), or stdio putc/getc [syscall]" },
	{ "data", OPT_ARG, M_DATA, "random|bonnie", "random, or bonnie++'s zero blocks [random]" },
	{ "name", OPT_ARG, M_NAME, "NAME", "machine name in the CSV line [host name]" },
	{ "csv", OPT_NOARG, M_CSV, NULL, "bonnie++'s CSV line (format 1.98) on stdout" },
	{ NULL, 0, 0, NULL, NULL },
};

enum { FMT_TEXT, FMT_JSON, FMT_CSV };

struct meta_ctx {
	uint64_t files, size_min, size_max, dirs, threads, size, char_size, chunk, file_chunk;
	uint64_t seeks, seekers;
	int dirs_set, size_set, fsync, direct, syscall, bonnie_data, format, csv;
	enum sb_meta_size_rule size_rule;
	uint64_t twice_ram; /* bonnie++'s size here */
	const char *name;
	const struct cli_bonnie_out *bo; /* storbench bonnie; NULL: meta */
	struct cli_shared sh;		 /* --output, --format, --quiet, --seed */
};

static int hint(char *h, size_t hl, const char *what)
{
	snprintf(h, hl, "%s", what);
	return -EINVAL;
}

static int set_word(int *out, const char *v, const char *a, const char *b)
{
	if (!strcmp(v, a) || !strcmp(v, b)) {
		*out = !strcmp(v, b);
		return 0;
	}
	return -EINVAL;
}

static int meta_set(void *vc, int id, const char *v, char *h, size_t hl)
{
	struct meta_ctx *c = vc;
	switch (id) {
	case M_FILES:
		return cli_opt_size(v, &c->files, 0, 100000000, 0,
				    "a number up to 100M, e.g. 1024, 16k", h, hl);
	case M_FILE_SIZE:
		return sb_meta_parse_file_size(v, &c->size_min, &c->size_max)
			       ? hint(h, hl, "a size up to 1G, or MIN:MAX, e.g. 0, 4k, 1k:64k")
			       : 0;
	case M_DIRS:
		c->dirs_set = 1;
		return cli_opt_size(v, &c->dirs, 1, 99999, 0, "a number from 1 to 99999", h, hl);
	case M_THREADS:
		return cli_opt_size(v, &c->threads, 1, 256, 0, "a number from 1 to 256", h, hl);
	case M_SIZE:
		c->size_set = 1;
		if (sb_meta_parse_mib(v, &c->size))
			return hint(h, hl, "a whole number of MiB, e.g. 0, 64 (MiB), 64M, 4G");
		return 0;
	case M_CHAR_SIZE:
		if (sb_meta_parse_mib(v, &c->char_size))
			return hint(h, hl, "a whole number of MiB, e.g. 0, 3 (MiB), 20M");
		return 0;
	case M_CHUNK:
		return sb_meta_parse_pow2(v, &c->chunk)
			       ? hint(h, hl, "a power of two from 256 to 1M, e.g. 8k")
			       : 0;
	case M_FILE_CHUNK:
		return sb_meta_parse_pow2(v, &c->file_chunk)
			       ? hint(h, hl, "a power of two from 256 to 1M, e.g. 8k")
			       : 0;
	case M_SEEKS:
		return cli_opt_size(v, &c->seeks, 0, 100000000, 0, "a number up to 100M", h, hl);
	case M_SEEKERS:
		return cli_opt_size(v, &c->seekers, 1, 256, 0, "a number from 1 to 256", h, hl);
	case M_PER_CHAR:
		return set_word(&c->syscall, v, "putc", "syscall") ? hint(h, hl, "putc or syscall")
								   : 0;
	case M_DATA:
		return set_word(&c->bonnie_data, v, "random", "bonnie")
			       ? hint(h, hl, "random or bonnie")
			       : 0;
	case M_NAME:
		if (!*v || strlen(v) > 63 || strchr(v, ',') || strchr(v, '\n'))
			return hint(h, hl, "1 to 63 characters without commas");
		c->name = v;
		return 0;
	case M_CSV: c->csv = 1; return 0;
	case M_FSYNC: c->fsync = 1; return 0;
	case M_DIRECT: c->direct = 1; return 0;
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench meta [options] DIR\n\n"
	       "bonnie++'s tests in DIR. Block and seek tests on one file: per-character write\n"
	       "and read, block write, rewrite and read (each timed to after fsync and close),\n"
	       "and random seeks by 5 threads (every 10th also a rewrite). Then the file tests:\n"
	       "create, stat and delete of --files files, in sequential and in random order,\n"
	       "across --dirs directories by --threads threads: files/s and latency\n"
	       "percentiles per operation. Everything happens in a directory storbench creates\n"
	       "in DIR and removes afterwards; nothing else in DIR is touched.\n\n"
	       "bonnie++ makes the block test file twice the RAM so that the page cache cannot\n"
	       "hold it. That is needed only where the cache cannot be dropped: as root it is\n"
	       "dropped before each reading test, and --size defaults to the smaller of twice\n"
	       "the RAM and 1G; otherwise to twice the RAM.\n\n"
	       "Under mpirun (a build with make MPI=1) every rank runs the tests in a\n"
	       "directory of its own, each test starting on all ranks together, and rank 0\n"
	       "writes one result: per test the ranks' operations summed over the time from\n"
	       "the earliest start to the latest end, and each rank's figures; rank 0's\n"
	       "progress line counts every rank's. --stonewall ends each test on every rank\n"
	       "when the first rank ends it (mdtest's stonewalling; docs/mpi.md).\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench meta --size=0 /mnt/sd                  (file tests only)\n"
	       "  storbench meta --files=0 --size=4G /mnt/ssd      (block and seek tests only)\n"
	       "  storbench meta --files=100k --file-size=1k:16k --dirs=64 --threads=4 /srv\n"
	       "  storbench meta --csv --quiet /mnt/hdd | bon_csv2html > report.html\n"
	       "  mpirun -n 8 --hostfile hosts storbench meta --size=0 --files=100k /shared\n");
	cli_print_exit_status(stdout, co->cmd);
}

static int check(struct meta_ctx *c)
{
	char msg[256];
	sb_meta_size_here(c->size_set, &c->size, &c->twice_ram, &c->size_rule);
	if (sb_meta_check_counts(c->files, c->size, c->dirs_set, &c->dirs, c->threads, msg,
				 sizeof(msg))) {
		sb_err("%s", msg);
		return SB_EXIT_USAGE;
	}
	c->char_size = SB_MIN(c->char_size, c->size); /* as bonnie++ */
	return 0;
}

static int check_target(const struct meta_ctx *c, struct sb_jobtarget *t, const char *dir)
{
	char msg[512];
	int rc = cli_target_probe(t, dir);
	if (rc || (rc = cli_target_missing(t->info.kind, dir)))
		return rc;
	const int e = sb_meta_check_dir(&t->info, dir, c->direct, c->chunk,
					c->size + c->files * c->size_max, msg, sizeof(msg));
	if (e)
		sb_err("%s", msg);
	return !e ? 0 : e == -ENOSPC ? SB_EXIT_ENV : SB_EXIT_USAGE;
}

/* The run's options from the command's. */
static void run_opts(const struct meta_ctx *c, const char *dir, struct sb_meta_opts *o, char *name,
		     size_t nl)
{
	memset(o, 0, sizeof(*o));
	o->parent = dir;
	o->seed = c->sh.seed; /* 0: sb_meta_runs draws one for each run */
	o->files = (struct sb_meta_files){
		NULL,	     c->files,	  (unsigned)c->dirs,	   (unsigned)c->threads,
		c->size_min, c->size_max, (uint32_t)c->file_chunk, c->fsync,
		0,	     -1
	};
	o->io = (struct sb_meta_io){ NULL,
				     c->size,
				     c->char_size,
				     (uint32_t)c->chunk,
				     (unsigned)c->seeks,
				     (unsigned)c->seekers,
				     c->direct,
				     c->fsync,
				     c->syscall,
				     c->bonnie_data,
				     1,
				     0,
				     -1 };
	o->size_rule = c->size_rule;
	o->twice_ram = c->twice_ram;
	sb_meta_machine_name(c->name, name, nl);
	o->name = name;
	o->stonewall = cli_ranks_stonewall();
}

static int stop_requested(void *ctx)
{
	(void)ctx;
	return cli_interrupted() != 0;
}

static void on_leftover(void *ctx, const char *path)
{
	(void)ctx;
	sb_warn("'%s' was left by an interrupted run of storbench meta (remove it with: "
		"rm -r '%s')",
		path, path);
}

/* The run directory while it is the run's: a second Ctrl-C removes it
 * (in the signal handler); the command's options for the words about it. */
static struct {
	const char *path;
	int dirfd;
	const struct meta_ctx *c;
} made;

static void remove_rundir_now(void *ctx)
{
	(void)ctx;
	sb_meta_rundir_remove_fd(made.dirfd, made.path);
}

/* The run directory exists (on every rank): a second Ctrl-C removes it;
 * rank 0 says why the block test file has its size. Or it is about to be
 * removed by the run. */
static void on_track(void *ctx, const char *path, int dirfd, int on)
{
	const struct meta_progress *pg = ctx;
	const struct meta_ctx *c = made.c;
	made.path = path;
	made.dirfd = dirfd;
	cli_signals_on_exit(on ? remove_rundir_now : NULL, NULL);
	if (on && !c->sh.quiet && cli_rank() == 0 && pg->m->io.size &&
	    pg->m->size_rule != SB_META_SIZE_GIVEN) {
		char why[256];
		rep_meta_size_why(pg->m, why, sizeof(why));
		fprintf(stderr, "meta: %s\n", why);
	}
}

/* The run directory that could not be removed, said. */
static void removal_said(const struct sb_meta_run *m)
{
	const int e = m->remove_err;
	if (e == -ENOTEMPTY)
		sb_warn("kept '%s': it holds files storbench did not create", m->rundir);
	else if (e == -ESTALE)
		sb_warn("did not remove '%s': it no longer names the run directory storbench "
			"created",
			m->rundir);
	else if (e < 0)
		sb_warn("could not remove '%s': %s (remove it with: rm -r '%s')", m->rundir,
			strerror(-e), m->rundir);
}

static int finish(const struct meta_ctx *c, struct sb_meta_run *m, struct sb_results *res, int rc)
{
	char line[2048];
	sb_results_meta(res, m);
	if (c->bo) {
		sb_meta_run_csv(m, line, sizeof(line));
		if (c->bo->reps <= 1) {
			rep_bonnie_run_text(c->bo->quiet ? stderr : stdout, m);
			rep_meta_run_ranks_text(c->bo->quiet ? stderr : stdout, m);
		}
		fputs(line, stdout);
		fflush(stdout);
	} else if (c->format == FMT_TEXT) {
		rep_meta_run_text(stdout, m);
		rep_meta_run_ranks_text(stdout, m);
	}
	if (!c->bo && c->format == FMT_CSV) {
		sb_meta_run_csv(m, line, sizeof(line));
		fputs(line, stdout);
	}
	if (c->sh.output && cli_write_json(res, c->sh.output) < 0 && !rc)
		rc = SB_EXIT_ENV;
	if (c->format == FMT_JSON && cli_write_json(res, "-") < 0 && !rc)
		rc = SB_EXIT_ENV;
	rep_warnings_text(stderr, res);
	if (cli_interrupted())
		rc = cli_interrupt_status();
	return rc;
}

/* The runs (bonnie++'s -x): each one's results, and its progress (first:
 * the hooks' ctx is the progress's too). */
struct meta_runs {
	struct meta_progress pg;
	const struct meta_ctx *c;
	struct sb_jobtarget *t;
	const char *dir;
	struct sb_results *res;
};

static int run_begin(void *ctx, unsigned i)
{
	struct meta_runs *r = ctx;
	(void)i;
	if (!(r->res = sb_results_create("meta"))) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(r->res, r->t, r->dir);
	cli_signals_install();
	meta_progress_init(&r->pg, r->pg.m, r->pg.pg.quiet);
	return 0;
}

/* One run ended: its words as it ended, then the results (rank 0's under
 * mpirun, none when a rank failed). An exit code. */
static int run_end(void *ctx, struct sb_meta_run *m, int e, const struct sb_error *err)
{
	struct meta_runs *r = ctx;
	struct sb_error er = *err;
	const int many = cli_ranks() > 1;
	struct sb_results *res = r->res;
	meta_progress_end(&r->pg);
	/* alone, a stop is said by the exit status of the command */
	int rc = e && (e != -EINTR || many) ? cli_error(&er) : 0;
	cli_ranks_end_if_lost(m->ranks_lost, rc);
	if (m->refused_rank >= 0 && many && cli_rank() == 0)
		cli_ranks_said_refused(m->refused_rank);
	if (m->failed_rank >= 0 && cli_rank() == 0)
		sb_err("meta: rank %d failed (its message above): every rank stopped, no result "
		       "written",
		       m->failed_rank);
	removal_said(m);
	/* many ranks: rank 0 writes the All clients result, the others nothing;
	 * none when a rank failed or the run did not begin */
	if (m->refused_rank < 0 && !(many && (m->failed_rank >= 0 || cli_rank() != 0)))
		rc = finish(r->c, m, res, rc);
	sb_results_free(res);
	sb_meta_result_free(m);
	return rc;
}

/* The runs, one after another: 0 or an exit code. */
static int measure(const struct meta_ctx *c, struct sb_meta_run *m, struct sb_jobtarget *t,
		   const char *dir, unsigned reps)
{
	struct sb_meta_opts o;
	struct sb_error er;
	char name[64];
	struct meta_runs r = { .c = c, .t = t, .dir = dir };
	run_opts(c, dir, &o, name, sizeof(name));
	o.runs = reps;
	meta_progress_init(&r.pg, m, c->sh.quiet || cli_rank() != 0); /* rank 0's alone */
	const struct sb_meta_hooks h = { .ctx = &r,
					 .stop = stop_requested,
					 .phase = meta_progress_phase,
					 .progress = r.pg.pg.quiet ? NULL : meta_progress_tell,
					 .track = on_track,
					 .run_begin = run_begin,
					 .run_end = run_end };
	made.c = c;
	const int v = sb_meta_runs(&o, &h, cli_ranks_coord(), m, &er);
	if (v < 0)
		cli_ranks_lost(SB_EXIT_ENV, &er);
	return v;
}

/* Under mpirun: every rank runs the same tests. 0 or an exit code. */
static int same_tests(const struct meta_ctx *c)
{
	struct sb_error er;
	const struct sb_meta_io io = { .size = c->size,
				       .char_size = c->char_size,
				       .chunk = (uint32_t)c->chunk,
				       .seeks = (unsigned)c->seeks,
				       .seekers = (unsigned)c->seekers };
	if (!sb_meta_agree(cli_ranks_coord(), sb_meta_tests(&io, c->files), &er))
		return 0;
	const int rc = cli_error(&er);
	cli_ranks_end_if_lost(er.cls != SB_ERR_INPUT, rc); /* a rank did not answer */
	return rc;
}

/* --format and its shorthand --csv; --seed's own rule. 0 or an exit code. */
static int shared_values(const struct cli_command *cmd, struct meta_ctx *c)
{
	c->format = cli_format_is(cmd, &c->sh, "json")		  ? FMT_JSON
		    : cli_format_is(cmd, &c->sh, "csv") || c->csv ? FMT_CSV
								  : FMT_TEXT;
	if (c->csv && c->sh.format && strcmp(c->sh.format, "csv")) {
		sb_err("--csv: means --format=csv, not --format=%s", c->sh.format);
		return SB_EXIT_USAGE;
	}
	if (c->sh.seed_given && !c->sh.seed)
		return cli_bad_value("seed", "0", "a number above 0");
	return 0;
}

int cmd_meta(const struct cli_command *cmd, int argc, char **argv)
{
	return cli_meta_main(cmd, argc, argv, NULL);
}

int cli_meta_main(const struct cli_command *cmd, int argc, char **argv,
		  const struct cli_bonnie_out *bo)
{
	struct meta_ctx c = { .files = DEFAULT_FILES,
			      .threads = 1,
			      .chunk = DEFAULT_CHUNK,
			      .file_chunk = DEFAULT_CHUNK,
			      .char_size = DEFAULT_CHAR_SIZE,
			      .seeks = 8192,
			      .seekers = 5,
			      .syscall = 1, /* bonnie++ 1.97+: a syscall per byte */
			      .bo = bo };
	struct sb_jobtarget t;
	char *pos[1];
	memset(&t, 0, sizeof(t));
	struct cli_cmd_opts co = { meta_opts, meta_set, 0, NULL, &c, cmd, &c.sh };
	int p = cli_parse_target(argc, argv, &co, help, "the directory to work in", &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	int rc = shared_values(cmd, &c);
	if (!rc)
		rc = check(&c);
	if (!rc)
		rc = check_target(&c, &t, pos[0]);
	/* many ranks: every one checked before any creates anything */
	if ((rc = cli_ranks_agree(rc, NULL)) || (rc = same_tests(&c)))
		return rc;
	/* each rank's files fit: and those of the ranks on one filesystem? */
	if ((rc = cli_ranks_space_agree(pos[0], c.size + c.files * c.size_max, t.info.fs_free,
					t.info.mountpoint)))
		return rc;
	const char *dir = pos[0];
	if ((rc = cli_ranks_dir(pos[0], 1, 1, &dir)))
		return rc;
	if (dir == pos[0] && sb_meta_leftovers(pos[0], on_leftover, NULL) < 0)
		sb_warn("cannot look for leftovers in '%s'", pos[0]);
	struct sb_meta_run *m = calloc(1, sizeof(*m));
	if (!m) {
		sb_err("out of memory");
		cli_ranks_remove_dir(0);
		return SB_EXIT_ENV;
	}
	const unsigned reps = bo && bo->reps > 1 ? bo->reps : 1;
	if (reps > 1 && cli_rank() == 0)
		printf("%s\n", rep_bonnie_csv_header);
	rc = measure(&c, m, &t, dir, reps);
	free(m);
	cli_ranks_remove_dir(0);
	return rc;
}

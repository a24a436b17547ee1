/*
 * storbench soak --workload=iozone: each iteration runs iozone's command
 * line once, as storbench iozone maps it (lib/sweep/iozone_args.c), and
 * its cells (test x file size x record size, KiB/s) become the
 * iteration's figures: what a shell loop of iozone and a spreadsheet of
 * its columns did, with soak's log, verdict, drift analysis and --resume.
 */
#include "cli/iozone_cli.h"
#include "cli/soak.h"

/* The sweep of one iteration, set up as storbench iozone sets it up. */
static void sweep_setup(const struct soak_state *s, struct sweep_cli *c)
{
	const struct soak_opts *o = s->o;
	memset(c, 0, sizeof(*c));
	c->o = o->za.o;
	c->o.seed = s->seed; /* the data, and the random tests' order */
	c->o.keep = o->za.keep;
	c->tests_given = c->o.tests;
	c->r = s->zr;
	c->sh.quiet = o->v.quiet;
	c->sh.destroy_data = o->v.destroy;
	/* the soak says each iteration in a line: 72 hours of a sweep's line
	 * per file size would bury it */
	c->no_notes = 1;
}

int soak_iozone_prepare(struct soak_state *s, const char *target)
{
	struct sweep_cli c;
	struct sb_sweep_file f;
	struct sb_error er;
	if (!(s->zr = calloc(1, sizeof(*s->zr)))) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	iozone_name_options();
	sweep_setup(s, &c);
	c.o.tests = c.tests_given;
	if (sb_sweep_plan(s->zr, &c.o) < 0) {
		sb_err("-r: no record size fits in any file size (records are never larger "
		       "than the file)");
		return SB_EXIT_USAGE;
	}
	int rc = cli_target_probe(&s->t.ct, target);
	if (rc)
		return rc;
	/* what storbench iozone refuses (a file it did not make, no room, no
	 * O_DIRECT) is refused before the log exists */
	f.fd = -1;
	if (sb_sweep_file_open(&f, target, &s->t.ct.info, s->zr, &c.o, c.sh.destroy_data, &er)) {
		sb_sweep_file_close(&f);
		return cli_error(&er);
	}
	sb_sweep_file_close(&f);
	return 0;
}

int soak_iozone_iteration(struct soak_state *s, struct sb_soak_iter *it)
{
	struct sweep_cli c;
	struct sb_results *res = sb_results_create("sweep");
	if (!res) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	sweep_setup(s, &c);
	it->iozone = 1;
	int rc = sweep_execute(&c, s->o->za.file, res);
	sb_results_free(res);
	if (c.ran) {
		if (sb_soak_cells_from_sweep(it, s->zr) < 0) {
			sb_err("out of memory");
			return SB_EXIT_ENV;
		}
		it->cache = s->zr->cache_method;
		it->interrupted = s->zr->interrupted || !!cli_interrupted();
	}
	if (rc == SB_EXIT_FAIL && c.ran) {
		/* a test's read, write or fsync failed: this iteration failed */
		it->io_errors = 1;
		it->first_errno = s->zr->fail_errno;
		it->first_error_offset = s->zr->fail_offset;
		return 0;
	}
	if (rc)
		snprintf(s->t.why, sizeof(s->t.why), "the iozone sweep of '%s' could not run",
			 s->o->za.file);
	return rc;
}

void soak_iozone_print(FILE *f, const struct soak_state *s, const struct sb_soak_iter *it)
{
	const struct sb_iozone_args *a = &s->o->za;
	char w[32], r[32];
	if (s->o->iozone_output && it->ncells) {
		const uint32_t asked = a->tests ? a->tests : SB_SWEEP_ALL_TESTS;
		iozone_print_columns(f);
		iozone_print_rows(f, s->zr, asked, a->ops, 0);
		if (a->excel)
			iozone_print_excel(f, s->zr, asked, a->ops);
		fputc('\n', f);
	}
	fprintf(f, "%5llu  iozone: %zu figure%s, write tests %s, read tests %s  errors %llu",
		(unsigned long long)it->n, it->ncells, it->ncells == 1 ? "" : "s",
		sb_fmt_rate(it->write_bw, w, sizeof(w)), sb_fmt_rate(it->read_bw, r, sizeof(r)),
		(unsigned long long)it->io_errors);
	if (it->first_errno)
		fprintf(f, " (%s)", strerror(it->first_errno));
	if (it->nkmsg)
		fprintf(f, "  kernel: %s", it->kmsg[0].text);
	soak_print_other(f, it);
	if (it->interrupted)
		fprintf(f, "  (interrupted)");
	fputc('\n', f);
}

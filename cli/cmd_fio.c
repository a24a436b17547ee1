/* storbench fio: fio's command line, read as fio reads it, written down as
 * a job file (lib/job/fio_cmdline.c) and run as `storbench run JOB.fio`
 * runs one; the results in fio's normal output layout or as JSON. */
#include "cli/cli.h"
#include "report/fio_text.h"
#include "report/report.h"
#include "cli/run_jobs.h"
#include "lib/storbench.h"


static void help(const struct cli_command *cmd)
{
	printf("usage: storbench fio [fio options] [--name=JOB [job options]]... [JOB.fio]...\n\n"
	       "Runs fio's command line as fio would: one or two dashes, -opt=value or -opt value,\n"
	       "bare flags (-thread, -group_reporting, --direct), options before the first --name\n"
	       "are [global], --name=X starts job X, other arguments are job files. Each option\n"
	       "means what it means in a job file (docs/jobfiles.md lists those storbench takes);\n"
	       "an option storbench cannot honour is refused, naming it, before anything is\n"
	       "created. Results are printed in fio's normal layout (docs/fio-cli.md says which\n"
	       "lines and how they differ).\n\n"
	       "fio's own options:\n"
	       "  --output=FILE         write the output to FILE instead of the standard output\n"
	       "  --output-format=LIST  normal, json or json+ (storbench's results JSON; json+ adds\n"
	       "                        fio's latency bins), terse (fio's ';' lines, also minimal\n"
	       "                        or csv), or a comma list (normal,json)\n"
	       "  --minimal             terse output only (--output-format=terse)\n"
	       "  --append-terse        terse output as well as the others\n"
	       "  --terse-version=N     the terse layout: 2, 3 (fio's default), 4 or 5\n"
	       "  --parse-only          check the command line and the job files, run nothing\n"
	       "  --readonly            refuse any job that writes\n"
	       "  --status-interval=T   fio's whole output every T (seconds, or 500ms, 1m) while\n"
	       "                        the jobs run: the figures so far; with --output, in the file\n"
	       "  --eta, --eta-newline, --eta-interval, --alloc-size, --max-jobs, --warnings-fatal\n"
	       "                        accepted, no effect (storbench's progress line is on stderr)\n"
	       "  --help, --version\n\n"
	       "storbench's own options (one or two dashes too):\n"
	       "  --destroy-data        allow writing to a block device or a file storbench did not\n"
	       "                        create (as storbench run)\n"
	       "  --keep                keep the test files storbench created\n"
	       "  --quiet               no progress line\n\n"
	       "examples:\n"
	       "  storbench fio -filename=/dev/mmcblk0 -direct=1 -iodepth 1 -thread -rw=read \\\n"
	       "      -ioengine=psync -bs=16k -numjobs=30 -runtime=60 -group_reporting -name=IORTest\n"
	       "  storbench fio --name=w --filename=/mnt/t.bin --size=1g --rw=write --bs=1m "
	       "--end_fsync=1\n"
	       "  storbench fio --output-format=json --output=r.json seq-then-rand.fio\n");
	cli_print_exit_status(stdout, cmd);
}

static const char *env_lookup(const char *name)
{
	return getenv(name);
}

static const char *where(const void *ctx, unsigned line, char *buf, size_t len)
{
	return sb_fio_cmdline_where(ctx, line, buf, len);
}

/* The job files, whole, into texts[i]/lens[i]. 0 or an exit code. */
static int read_files(const struct sb_fio_cmdline *cl, char **texts, size_t *lens)
{
	for (unsigned i = 0; i < cl->nfiles; i++) {
		const int rc = cli_read_jobfile(cl->files[i], &texts[i], &lens[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* The command line and its job files into *jf, every value checked. */
static int load_jobs(struct sb_fio_cmdline *cl, struct sb_jobfile **jf)
{
	char **texts = calloc(cl->nfiles + 1, sizeof(*texts));
	size_t *lens = calloc(cl->nfiles + 1, sizeof(*lens));
	char msg[768];
	int rc = !texts || !lens ? SB_EXIT_ENV : read_files(cl, texts, lens);
	if (!rc && sb_fio_cmdline_jobs(cl, (const char *const *)texts, lens, env_lookup, jf, msg,
				       sizeof(msg)) < 0) {
		sb_err("%s", msg);
		rc = SB_EXIT_USAGE;
	} else if (!rc && !cl->parse_only && /* read_iolog=: read, as fio, to run */
		   sb_jobfile_iologs(*jf, msg, sizeof(msg)) < 0) {
		sb_err("%s", msg);
		sb_jobfile_free(*jf);
		*jf = NULL;
		rc = SB_EXIT_USAGE;
	}
	for (unsigned i = 0; texts && i < cl->nfiles; i++)
		free(texts[i]);
	free(texts);
	free(lens);
	return rc;
}

/* --readonly: fio refuses to write; so does this. */
static int readonly_ok(const struct sb_fio_cmdline *cl, const struct sb_jobfile *jf)
{
	char w[512];
	for (unsigned i = 0; cl->readonly && i < jf->njobs; i++)
		if (sb_rw_writes(jf->jobs[i].opts.rw)) {
			sb_err("--readonly: job '%s' (%s) writes (rw=%s)", jf->jobs[i].name,
			       sb_fio_cmdline_where(cl, jf->jobs[i].line, w, sizeof(w)),
			       sb_rw_name(jf->jobs[i].opts.rw));
			return SB_EXIT_USAGE;
		}
	return 0;
}

struct out_ctx {
	struct rep_fio_in text;
	unsigned formats;
	int terse_version;
	/* --status-interval's reports so far, when they go to a file (they
	 * come first in it), and whether the normal layout's job list was
	 * printed with the first of them */
	const char *before;
	size_t before_len;
	int preamble_said;
};

/* In fio's order: the normal layout's job list (fio prints it before the
 * jobs run), then the terse lines, the JSON, the rest of the normal layout. */
static int write_out(FILE *f, const void *vctx)
{
	const struct out_ctx *o = vctx;
	int r = 0;
	if (o->before_len && fwrite(o->before, 1, o->before_len, f) != o->before_len)
		return -EIO;
	if ((o->formats & SB_FIO_OUT_NORMAL) && !o->preamble_said)
		rep_fio_text_preamble(f, &o->text);
	if (o->formats & SB_FIO_OUT_TERSE)
		r = rep_fio_terse_write(f, &o->text, o->terse_version);
	if (!r && (o->formats & (SB_FIO_OUT_JSON | SB_FIO_OUT_JSONPLUS)))
		r = rep_fio_json_write(f, &o->text);
	if (!r && (o->formats & SB_FIO_OUT_NORMAL))
		r = rep_fio_text_body(f, &o->text);
	return r;
}

/* Each job's group (stonewall) for fio's layout; NULL without memory. */
static unsigned *groups_of(const struct sb_jobfile *jf, size_t njobs)
{
	unsigned *group = calloc(njobs + 1, sizeof(*group));
	if (group) /* fio's groupid: stonewall and new_group start one */
		sb_jobfile_report_groups(jf, group, njobs);
	return group;
}

/* --status-interval: fio prints its whole output each interval (the
 * normal layout's job list once, before the first), on the standard
 * output as it goes, or kept for the file --output names, which is
 * written whole at the end. */
struct status_ctx {
	const struct sb_fio_cmdline *cl;
	const struct sb_jobfile *jf;
	FILE *mem; /* --output: the reports so far, into buf */
	char *buf;
	size_t len;
	int kept; /* mem closed: buf holds them */
	int preamble_said;
};

/* so_far with the jobs still to come as fio shows them, all zeros; the
 * caller frees what *all holds beyond so_far's (sb_job_result_free). */
static int with_later(const struct sb_results *so_far, const struct sb_jobfile *jf,
		      struct sb_results *all)
{
	*all = *so_far;
	if (so_far->njobs >= jf->njobs)
		return 0;
	if (!(all->jobs = calloc(jf->njobs, sizeof(*all->jobs))))
		return -ENOMEM;
	memcpy(all->jobs, so_far->jobs, so_far->njobs * sizeof(*all->jobs));
	for (all->njobs = so_far->njobs; all->njobs < jf->njobs; all->njobs++) {
		struct sb_job_result *jr = sb_job_result_create();
		if (!jr)
			return -ENOMEM;
		snprintf(jr->name, sizeof(jr->name), "%s", jf->jobs[all->njobs].name);
		jr->opts = jf->jobs[all->njobs].opts;
		all->jobs[all->njobs] = jr;
	}
	return 0;
}

static void with_later_free(const struct sb_results *so_far, struct sb_results *all)
{
	if (all->jobs == so_far->jobs)
		return;
	for (size_t i = so_far->njobs; i < all->njobs; i++)
		sb_job_result_free(all->jobs[i]);
	free(all->jobs);
}

static void on_status(void *vctx, const struct sb_results *so_far)
{
	struct status_ctx *s = vctx;
	FILE *f = s->cl->output ? s->mem : stdout;
	struct sb_results all;
	const int e = with_later(so_far, s->jf, &all);
	unsigned *group = groups_of(s->jf, all.njobs);
	if (!f || !group || e || cli_rank()) {
		free(group);
		with_later_free(so_far, &all);
		return;
	}
	const struct out_ctx o = { .text = { &all, group },
				   .formats = s->cl->formats,
				   .terse_version = s->cl->terse_version,
				   .preamble_said = s->preamble_said };
	write_out(f, &o);
	s->preamble_said = 1;
	fflush(f);
	free(group);
	with_later_free(so_far, &all);
}

/* The output of the jobs that ran: fio's text and/or the JSON. */
static int output(const struct sb_fio_cmdline *cl, const struct sb_jobfile *jf,
		  struct sb_results *res, int rc, const struct status_ctx *st)
{
	unsigned *group = groups_of(jf, res->njobs);
	if (!group) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	/* the jobs came from a command line, not a file a reader could open */
	snprintf(res->job_file, sizeof(res->job_file), "%s", cl->nfiles == 1 ? cl->files[0] : "");
	struct out_ctx o = { .text = { res, group },
			     .formats = cl->formats,
			     .terse_version = cl->terse_version,
			     .preamble_said = st->preamble_said };
	if (st->kept) {
		o.preamble_said = 0; /* in the file, the kept reports come first */
		o.before = st->buf;
		o.before_len = st->len;
	}
	if (cli_write_file(cl->output ? cl->output : "-", write_out, &o) && !rc)
		rc = SB_EXIT_ENV;
	rep_warnings_text(stderr, res);
	free(group);
	return rc;
}

/* Messages name an option as its word on the line: "-bs" where fio's line
 * said -bs (storbench's checks say "--bs"), "--iodepth_batch_complete"
 * for storbench's "--iodepth-batch-complete". */
static void typed_names(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		const size_t dashes = w[0] == '-' ? 1 + (w[1] == '-') : 0;
		const size_t n = strcspn(w + dashes, "=");
		char ours[48], typed[64];
		if (!dashes || !n || n + 2 >= sizeof(ours))
			continue;
		snprintf(typed, sizeof(typed), "%.*s", (int)(dashes + n), w);
		snprintf(ours, sizeof(ours), "--%.*s", (int)n, w + dashes);
		cli_msg_alias(ours, typed);
		for (char *c = ours; *c; c++)
			*c = *c == '_' ? '-' : *c;
		cli_msg_alias(ours, typed);
	}
}

int cmd_fio(const struct cli_command *cmd, int argc, char **argv)
{
	struct sb_fio_cmdline *cl = NULL;
	struct sb_jobfile *jf = NULL;
	char msg[512];

	typed_names(argc, argv);
	int r = sb_fio_cmdline_parse(argc - 1, argv + 1, &cl, msg, sizeof(msg));
	if (r < 0) {
		sb_err("%s", msg);
		return r == -ENOMEM ? SB_EXIT_ENV : SB_EXIT_USAGE;
	}
	int rc = 0;
	if (cl->help || cl->version) {
		if (cl->help)
			help(cmd);
		else
			printf("storbench-%s (fio's command line)\n", sb_version());
		sb_fio_cmdline_free(cl);
		return SB_EXIT_OK;
	}
	rc = load_jobs(cl, &jf);
	if (!rc)
		rc = readonly_ok(cl, jf);
	for (unsigned i = 0; !rc && i < jf->nnotes && !cli_rank(); i++)
		fprintf(stderr, "note: %s\n", jf->notes[i]);
	/* many ranks: where the others would go on to run the jobs, they stop */
	if (rc && !cl->parse_only)
		rc = cli_ranks_agree(rc, NULL);
	if (!rc && !cl->parse_only) {
		struct status_ctx st = { .cl = cl, .jf = jf };
		struct cli_run_jobs a = { .source = "command line",
					  .sh = { .destroy_data = cl->destroy_data,
						  .keep = cl->keep,
						  .quiet = cl->quiet },
					  .where = where,
					  .where_ctx = cl,
					  .status_ns = cl->status_ns,
					  .status = on_status,
					  .status_ctx = &st };
		if (cl->status_ns && cl->output && !(st.mem = open_memstream(&st.buf, &st.len))) {
			sb_err("out of memory");
			rc = SB_EXIT_ENV;
		}
		if (!rc)
			rc = cli_run_jobs(&a, jf);
		if (st.mem) {
			st.kept = fclose(st.mem) == 0;
			st.mem = NULL;
		}
		/* many ranks: rank 0 writes the aggregate, the others nothing */
		struct sb_results *out = a.result.write ? a.result.res : NULL;
		if (out && (cl->formats & SB_FIO_OUT_JSONPLUS))
			out->json_plus = 1; /* clat_ns.bins, as fio's json+ */
		if (out)
			rc = output(cl, jf, out, rc, &st);
		if (cli_interrupted())
			rc = cli_interrupt_status();
		cli_run_jobs_free(&a);
		free(st.buf);
	}
	sb_jobfile_free(jf);
	sb_fio_cmdline_free(cl);
	return rc;
}

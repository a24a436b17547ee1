/* storbench flash: flashbench's geometry probes (--align, --open-au), with
 * a decision instead of a table to read (lib/flash, docs/flash.md). */
#include "cli/cli.h"
#include "report/report.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <unistd.h>

enum {
	F_ALIGN,
	F_OPEN_AU,
	F_FIND_FAT,
	F_FAT_NR,
	F_SCATTER,
	F_SC_ORDER,
	F_SC_SPAN,
	F_BS,
	F_COUNT,
	F_ERASE,
	F_OFFSET,
	F_MAX_AU,
	F_ORDER,
	F_REALTIME
};

static const struct cli_opt flash_opts[] = {
	{ "align", OPT_NOARG, F_ALIGN, NULL,
	  "read timing across power-of-two boundaries: erase block and page [default]" },
	{ "open-au", OPT_NOARG, F_OPEN_AU, NULL,
	  "how many allocation units stay open for writing (writes: --destroy-data)" },
	{ "find-fat", OPT_NOARG, F_FIND_FAT, NULL,
	  "write the first erase blocks whole in every chunk size; name those that differ "
	  "(writes: --destroy-data)" },
	{ "fat-nr", OPT_ARG, F_FAT_NR, "N", "--find-fat: erase blocks from the start [6]" },
	{ "scatter", OPT_NOARG, F_SCATTER, NULL,
	  "read-time map: 2^order reads at bs steps in LFSR order, the fastest of --count" },
	{ "scatter-order", OPT_ARG, F_SC_ORDER, "N", "--scatter: 2^N positions [9]" },
	{ "scatter-span", OPT_ARG, F_SC_SPAN, "N", "--scatter: blocks a read [1]" },
	{ "bs", OPT_ARG, F_BS, "SIZES",
	  "block size(s): 4k, a list 2k,8k or a range 1k..64k [--align: 4k or twice the logical "
	  "block; --open-au, --scatter: 16k]" },
	{ "count", OPT_ARG, F_COUNT, "N", "--align: tries per read, the fastest kept [8]" },
	{ "erase-size", OPT_ARG, F_ERASE, "SIZE",
	  "--open-au, --find-fat: the erase block [what --align found in this run, else 4M]" },
	{ "offset", OPT_ARG, F_OFFSET, "SIZE", "--open-au: the first AU [16M rounded up to one]" },
	{ "max-au", OPT_ARG, F_MAX_AU, "N", "--open-au: the most AUs to open at once [8]" },
	{ "order", OPT_ARG, F_ORDER, "WHICH", "--open-au: linear, random or both [both]" },
	{ "realtime", OPT_NOARG, F_REALTIME, NULL,
	  "run as SCHED_FIFO 10 as flashbench (root) [nice -10]" },
	{ NULL, 0, 0, NULL, NULL },
};

struct flash_ctx {
	int align, open_au, scatter, find_fat, realtime, json_stdout;
	uint64_t fat_nr;
	uint64_t sc_order, sc_span;
	int sc_order_set, sc_span_set;
	uint32_t bs[SB_FLASH_MAX_BS];
	unsigned nbs;
	uint64_t count, erase, offset, max_au;
	int erase_set, offset_set, orders;
	struct cli_shared sh;
};

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int flash_set(void *vc, int id, const char *v, char *hint, size_t hl)
{
	struct flash_ctx *c = vc;
	int e;
	switch (id) {
	case F_ALIGN: c->align = 1; return 0;
	case F_OPEN_AU: c->open_au = 1; return 0;
	case F_SCATTER: c->scatter = 1; return 0;
	case F_FIND_FAT: c->find_fat = 1; return 0;
	case F_FAT_NR: return cli_opt_number(v, &c->fat_nr, 3, SB_FLASH_MAX_FAT, hint, hl);
	case F_SC_ORDER:
		c->sc_order_set = 1;
		return cli_opt_number(v, &c->sc_order, 1, 20, hint, hl);
	case F_SC_SPAN: c->sc_span_set = 1; return cli_opt_number(v, &c->sc_span, 1, 64, hint, hl);
	case F_REALTIME: c->realtime = 1; return 0;
	case F_BS:
		e = sb_flash_parse_bs(v, c->bs, &c->nbs);
		if (e == -E2BIG)
			return snprintf(hint, hl, "at most %d block sizes", SB_FLASH_MAX_BS),
			       -EINVAL;
		if (e)
			return snprintf(hint, hl,
					"a power of two from 512 to 64M, a list (2k,8k) or a "
					"range (1k..64k)"),
			       -EINVAL;
		return 0;
	case F_COUNT: return cli_opt_number(v, &c->count, 1, 1000, hint, hl);
	case F_MAX_AU: return cli_opt_number(v, &c->max_au, 1, SB_FLASH_MAX_AU, hint, hl);
	case F_ERASE:
		c->erase_set = 1;
		if (sb_parse_size(v, &c->erase) < 0 || !pow2(c->erase) || c->erase < 4096 ||
		    c->erase > (1ull << 30))
			return snprintf(hint, hl, "a power of two from 4k to 1G, e.g. 4M"), -EINVAL;
		return 0;
	case F_OFFSET:
		c->offset_set = 1;
		if (sb_parse_size(v, &c->offset) < 0)
			return snprintf(hint, hl, "a size, e.g. 0, 16M"), -EINVAL;
		return 0;
	case F_ORDER:
		c->orders = !strcmp(v, "linear")   ? 1
			    : !strcmp(v, "random") ? 2
			    : !strcmp(v, "both")   ? 3
						   : 0;
		return c->orders ? 0 : (snprintf(hint, hl, "linear, random or both"), -EINVAL);
	}
	return -EINVAL;
}

static void help(const struct cli_cmd_opts *co)
{
	printf("usage: storbench flash [--align] [--open-au --destroy-data] [options] TARGET\n\n"
	       "flashbench's methods on a block device (or an image file): --align times\n"
	       "reads that straddle every power-of-two boundary against reads beside it and\n"
	       "names the erase block (allocation unit) and page sizes when the difference\n"
	       "shows them, with a confidence, or says that no boundary effect was found.\n"
	       "--open-au writes chunks from the erase size down to the block size into 1,\n"
	       "2, 3 ... allocation units at once, in linear and random order, until the\n"
	       "rate collapses, and names the most that stay fast. Direct I/O throughout;\n"
	       "--align only reads, --open-au overwrites the device (--destroy-data; never\n"
	       "a mounted one). With both, --open-au uses the erase block --align found.\n"
	       "--find-fat writes the first --fat-nr erase blocks whole in every chunk size\n"
	       "and names those that write small chunks differently (the FAT area).\n"
	       "--scatter maps the read time of 2^order blocks from the start (the fastest\n"
	       "of --count tries each, in LFSR order).\n\n"
	       "options:\n");
	cli_print_opts(stdout, co);
	printf("\nexamples:\n"
	       "  storbench flash /dev/mmcblk0\n"
	       "  storbench flash --align --bs=1k..16k /dev/sdb\n"
	       "  storbench flash --open-au --destroy-data --erase-size=4M /dev/sdb\n"
	       "  storbench flash --scatter --scatter-order=12 --bs=64k /dev/sdb\n");
	cli_print_exit_status(stdout, co->cmd);
}

/* The probes' options, everything known before the target is opened
 * checked (lib/flash's rules). */
static int check_options(const struct flash_ctx *c, struct sb_flash_opts *o)
{
	char msg[128];
	*o = (struct sb_flash_opts){ .align = c->align,
				     .open_au = c->open_au,
				     .find_fat = c->find_fat,
				     .scatter = c->scatter,
				     .realtime = c->realtime,
				     .nbs = c->nbs,
				     .count = (unsigned)c->count,
				     .erase = c->erase_set ? c->erase : 0,
				     .offset = c->offset,
				     .offset_set = c->offset_set,
				     .max_au = (unsigned)c->max_au,
				     .orders = c->orders,
				     .fat_nr = (unsigned)c->fat_nr,
				     .sc_order = (unsigned)c->sc_order,
				     .sc_span = (unsigned)c->sc_span };
	memcpy(o->bs, c->bs, sizeof(o->bs));
	if (!sb_flash_opts_check(o, c->sc_order_set || c->sc_span_set, c->erase_set, msg,
				 sizeof(msg)))
		return 0;
	sb_err("%s", msg);
	return SB_EXIT_USAGE;
}

/* --open-au and --find-fat overwrite the target: only with --destroy-data
 * (a device's refusal is the write gate's, naming what it holds). */
static int consent(const struct flash_ctx *c, const struct sb_jobtarget *t, const char *path)
{
	if (!(c->open_au || c->find_fat) || c->sh.destroy_data)
		return 0;
	if (t->info.kind == SB_TARGET_BLOCK)
		return cli_refuse_device(path);
	sb_err("refusing to write: --%s overwrites the target (add --destroy-data)",
	       c->open_au ? "open-au" : "find-fat");
	return SB_EXIT_USAGE;
}

static int open_target(const struct flash_ctx *c, struct sb_jobtarget *t, const char *path,
		       struct sb_flash_dev *dev)
{
	int rc = cli_target_probe(t, path);
	if (rc)
		return rc;
	if ((rc = cli_target_missing(t->info.kind, path)))
		return rc;
	if (t->info.kind != SB_TARGET_BLOCK && t->info.kind != SB_TARGET_FILE) {
		sb_err("'%s' is not a block device or an image file: flash needs the device "
		       "itself",
		       path);
		return SB_EXIT_USAGE;
	}
	if ((rc = consent(c, t, path)))
		return rc;
	if (t->info.direct_ok == 0) {
		sb_err("cannot use direct I/O on '%s': flash times the device, not the page cache",
		       path);
		return SB_EXIT_USAGE;
	}
	struct sb_job_opts job;
	sb_job_opts_default(&job);
	job.direct = 1;
	job.bs = (uint32_t)SB_MAX(t->info.logical_bs, 512u);
	const int writes = c->open_au || c->find_fat;
	job.rw = writes ? SB_RW_WRITE : SB_RW_READ;
	t->destroy_data = c->sh.destroy_data;
	if ((rc = cli_target_prepare(t, path, &job, 0, 0)))
		return rc;
	const int fd = sb_jobtarget_open(t, 0, (writes ? O_RDWR : O_RDONLY) | O_DIRECT);
	if (fd < 0) {
		sb_err("cannot open '%s': %s", path, strerror(-fd));
		return cli_exit_of_errno(fd);
	}
	dev->fd = fd;
	dev->size = t->region_size;
	dev->lbs = t->info.logical_bs ? t->info.logical_bs : 512;
	return 0;
}

/* The progress line while the probes run, fed by the run's hooks. */
struct cli_flash_live {
	struct cli_progress pg;
	struct sb_flash_hooks hooks;
	char what[48]; /* the step: "align, bs 4 KiB", "open-au" */
};

static int stop(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void step(void *ctx, const char *what)
{
	struct cli_flash_live *l = ctx;
	snprintf(l->what, sizeof(l->what), "%s", what);
}

static void progress(void *ctx, uint64_t done, uint64_t total)
{
	struct cli_flash_live *l = ctx;
	const uint64_t now = sb_now_ns();
	if (!cli_progress_due(&l->pg, now))
		return;
	struct cli_line line = {
		.label = "flash",
		.what = l->what,
		.pct = total ? 100.0 * (double)SB_MIN(done, total) / (double)total : -1,
		.bps = -1,
		.ops = -1,
		.elapsed_ns = now - l->pg.start_ns,
		.eta_ns = -1,
	};
	cli_progress_draw(&l->pg, &line, now);
}

static void live_init(struct cli_flash_live *l, int quiet)
{
	memset(l, 0, sizeof(*l));
	cli_progress_init(&l->pg, quiet);
	l->hooks = (struct sb_flash_hooks){ stop, progress, l, step };
}

static int measure(struct flash_ctx *c, struct sb_jobtarget *t, struct sb_flash_opts *o,
		   const struct sb_flash_dev *dev, const char *path)
{
	o->dev = dev;
	o->path = path;
	struct sb_flash_result *r = calloc(1, sizeof(*r));
	struct sb_results *res = sb_results_create("flash");
	struct cli_flash_live live;
	struct sb_error er;
	int rc = 0;
	if (!r || !res) {
		free(r);
		sb_results_free(res);
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	live_init(&live, c->sh.quiet);
	if (sb_flash_run(o, &live.hooks, NULL, r, &er))
		rc = cli_error(&er);
	cli_progress_clear(&live.pg);
	if (!rc) {
		cli_results_describe(res, t, path);
		if (sb_results_flash(res, r) < 0) {
			sb_err("out of memory");
			rc = SB_EXIT_ENV;
		}
	}
	if (!rc) {
		if (!c->json_stdout)
			rep_flash_run_text(stdout, r);
		if (c->sh.output && cli_write_json(res, c->sh.output) < 0)
			rc = SB_EXIT_ENV;
		if (c->json_stdout && cli_write_json(res, "-") < 0)
			rc = SB_EXIT_ENV;
		rep_warnings_text(stderr, res);
	}
	if (!rc && cli_interrupted())
		rc = cli_interrupt_status();
	sb_results_free(res);
	sb_flash_result_free(r);
	free(r);
	return rc;
}

int cmd_flash(const struct cli_command *cmd, int argc, char **argv)
{
	struct flash_ctx c;
	struct sb_jobtarget t;
	struct sb_flash_dev dev = { -1, 0, 512 };
	char *pos[1];

	memset(&c, 0, sizeof(c));
	memset(&t, 0, sizeof(t));
	struct cli_cmd_opts co = { flash_opts, flash_set, 0, NULL, &c, cmd, &c.sh };
	int p = cli_parse_target(argc, argv, &co, help, "a block device or an image file", &pos[0]);
	if (p)
		return p < 0 ? SB_EXIT_OK : p;
	c.json_stdout = cli_format_is(cmd, &c.sh, "json");
	struct sb_flash_opts o;
	int rc = check_options(&c, &o);
	if (rc)
		return rc;
	cli_signals_install();
	rc = open_target(&c, &t, pos[0], &dev);
	if (!rc)
		rc = measure(&c, &t, &o, &dev, pos[0]);
	if (dev.fd >= 0)
		close(dev.fd);
	cli_target_cleanup(&t, 1);
	return rc;
}

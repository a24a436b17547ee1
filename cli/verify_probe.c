/*
 * storbench verify --probe: the fake-capacity probe (lib/verify/capacity.h)
 * on a whole block device, reported in text and JSON.
 */
#include "cli/verify.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <unistd.h>

static int stop_cb(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void probe_text(FILE *f, const char *path, const struct sb_capacity_report *p)
{
	const struct sb_capacity_result *r = &p->res;
	const uint32_t bs = p->block_size;
	char a[32], b[32], c[32];
	const uint64_t usable = r->usable_blocks * bs;

	fprintf(f, "probe '%s': %s announced, blocks of %s, seed %llu\n", path,
		sb_fmt_size(r->announced_blocks * bs, a, sizeof(a)), sb_fmt_size(bs, b, sizeof(b)),
		(unsigned long long)p->seed);
	fprintf(f, "  %llu blocks written, %llu read in %s%s\n",
		(unsigned long long)r->blocks_written, (unsigned long long)r->blocks_read,
		sb_fmt_ns((double)p->ns, c, sizeof(c)),
		r->io_errors ? " (some failed: counted as lost)" : "");
	if (r->interrupted) {
		fprintf(f, "result: interrupted, no finding\n");
		return;
	}
	if (r->wrap_order)
		fprintf(f, "  addresses wrap at %s (2^%d bytes)\n",
			sb_fmt_size(1ull << r->wrap_order, a, sizeof(a)), r->wrap_order);
	if (r->cache_blocks)
		fprintf(f, "  a cache of about %s in front of the medium\n",
			sb_fmt_size(r->cache_blocks * bs, a, sizeof(a)));
	if (r->kind == SB_CAPACITY_GOOD) {
		fprintf(f, "result: good, all %s usable\n", sb_fmt_size(usable, a, sizeof(a)));
		return;
	}
	fprintf(f, "result: FAKE (%s): usable %s (%llu bytes) of %s announced\n",
		sb_capacity_kind_name(r->kind), sb_fmt_size(usable, a, sizeof(a)),
		(unsigned long long)usable, sb_fmt_size(r->announced_blocks * bs, b, sizeof(b)));
	if (usable >= 512)
		fprintf(f,
			"  only sectors 0 to %llu (512 bytes) keep data: partition within them\n",
			(unsigned long long)(usable / 512 - 1));
}

static int report(const struct verify_opts *o, struct sb_jobtarget *ct, const char *path,
		  struct sb_capacity_report *p)
{
	struct sb_results *res = sb_results_create("verify");
	int rc = 0;
	if (!res) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, ct, path);
	res->interrupted = p->res.interrupted;
	res->extra_key = "verify";
	res->extra_json = sb_capacity_json;
	res->extra_ctx = p;
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout && cli_write_json(res, "-") < 0)
		rc = SB_EXIT_ENV;
	if (!o->json_stdout)
		probe_text(stdout, path, p);
	sb_results_free(res);
	if (rc)
		return rc;
	if (p->res.interrupted)
		return cli_interrupt_status();
	return p->res.kind == SB_CAPACITY_GOOD ? SB_EXIT_OK : SB_EXIT_FAIL;
}

/* May the probe have the device? An exit code when not. */
static int consent(const struct verify_opts *o, struct sb_jobtarget *ct, const char *path)
{
	int e = cli_target_probe(ct, path);
	if (e)
		return e;
	if (ct->info.kind != SB_TARGET_BLOCK) {
		sb_err("--probe: '%s' is not a block device (the probe tests a whole device)",
		       path);
		return SB_EXIT_USAGE;
	}
	if (!o->destroy)
		return cli_refuse_device(path);
	ct->destroy_data = 1;
	return cli_device_consent(ct, path);
}

int verify_probe(const struct verify_opts *o, const char *path)
{
	struct sb_capacity_blockdev *d = NULL;
	struct sb_jobtarget ct;
	struct sb_capacity_report p;
	char msg[4352];

	memset(&ct, 0, sizeof(ct));
	memset(&p, 0, sizeof(p));
	int rc = consent(o, &ct, path);
	if (rc)
		goto out;
	p.block_size = ct.info.logical_bs ? ct.info.logical_bs : 512;
	p.seed = o->seed_given ? o->seed : sb_now_ns() ^ ((uint64_t)getpid() << 32);
	/* written through what the write gate gave, never the name again */
	const int fd = sb_jobtarget_open(&ct, 0, O_RDWR | O_DIRECT);
	if (fd < 0) {
		sb_err("cannot open '%s': %s", path, strerror(-fd));
		rc = SB_EXIT_ENV;
		goto out;
	}
	if (sb_capacity_blockdev_open(&d, fd, path, ct.info.capacity, p.block_size, msg,
				      sizeof(msg)) < 0) {
		sb_err("%s", msg);
		rc = SB_EXIT_ENV;
		goto out;
	}
	cli_signals_install();
	const uint64_t t0 = sb_now_ns();
	int e = sb_capacity_blockdev_run(d, p.seed, stop_cb, NULL, &p.res);
	p.ns = sb_now_ns() - t0;
	sb_capacity_blockdev_close(d);
	if (e == -EINVAL) {
		sb_err("cannot probe '%s': too small (the probe needs 2 MiB at least)", path);
		rc = SB_EXIT_USAGE;
	} else if (e < 0) {
		sb_err("cannot probe '%s': %s", path, strerror(-e));
		rc = SB_EXIT_ENV;
	} else {
		rc = report(o, &ct, path, &p);
	}
out:
	cli_target_cleanup(&ct, 1);
	return rc;
}

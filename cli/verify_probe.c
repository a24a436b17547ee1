/*
 * storbench verify --probe: the fake-capacity probe (lib/verify/capacity.h)
 * on a whole block device, through the psync engine with writes bounded to
 * the device past its first MiB, reported in text and JSON.
 */
#include "cli/verify.h"
#include "lib/storbench.h"

#include <fcntl.h>
#include <unistd.h>

struct pdev {
	struct sb_engine eng;
	uint32_t bs;
};

struct probe_report {
	const char *path;
	struct sb_capacity_result res;
	uint32_t bs;
	uint64_t seed, ns;
};

static int pio(struct pdev *d, uint64_t pos, void *buf, uint32_t n, int write)
{
	struct sb_io io = { .buf = buf, .offset = pos * d->bs, .len = n * d->bs,
			    .ddir = write ? SB_DDIR_WRITE : SB_DDIR_READ };
	int r = sb_engine_queue(&d->eng, &io);
	if (r < 0)
		return r;
	return io.res == (int64_t)io.len ? 0 : io.res < 0 ? (int)io.res : -EIO;
}

static int pread_cb(void *ctx, uint64_t pos, void *buf, uint32_t n)
{
	return pio(ctx, pos, buf, n, 0);
}

static int pwrite_cb(void *ctx, uint64_t pos, const void *buf, uint32_t n)
{
	return pio(ctx, pos, (void *)buf, n, 1);
}

static int stop_cb(void *ctx)
{
	(void)ctx;
	return cli_interrupted();
}

static void probe_text(FILE *f, const struct probe_report *p)
{
	const struct sb_capacity_result *r = &p->res;
	char a[32], b[32], c[32];
	const uint64_t usable = r->usable_blocks * p->bs;

	fprintf(f, "probe '%s': %s announced, blocks of %s, seed %llu\n", p->path,
		sb_fmt_size(r->announced_blocks * p->bs, a, sizeof(a)), sb_fmt_size(p->bs, b, sizeof(b)),
		(unsigned long long)p->seed);
	fprintf(f, "  %llu blocks written, %llu read in %s%s\n", (unsigned long long)r->blocks_written,
		(unsigned long long)r->blocks_read, sb_fmt_ns((double)p->ns, c, sizeof(c)),
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
			sb_fmt_size(r->cache_blocks * p->bs, a, sizeof(a)));
	if (r->kind == SB_CAPACITY_GOOD) {
		fprintf(f, "result: good, all %s usable\n", sb_fmt_size(usable, a, sizeof(a)));
		return;
	}
	fprintf(f, "result: FAKE (%s): usable %s (%llu bytes) of %s announced\n",
		sb_capacity_kind_name(r->kind), sb_fmt_size(usable, a, sizeof(a)),
		(unsigned long long)usable, sb_fmt_size(r->announced_blocks * p->bs, b, sizeof(b)));
	if (usable >= 512)
		fprintf(f, "  only sectors 0 to %llu (512 bytes) keep data: partition within them\n",
			(unsigned long long)(usable / 512 - 1));
}

static void probe_json(struct sb_json *j, const void *ctx)
{
	const struct probe_report *p = ctx;
	const struct sb_capacity_result *r = &p->res;

	sb_json_str(j, "phase", "probe");
	sb_json_obj_open(j, "probe");
	sb_json_str(j, "kind", r->interrupted ? "interrupted" : sb_capacity_kind_name(r->kind));
	sb_json_u64(j, "block_size", p->bs);
	sb_json_u64(j, "announced_bytes", r->announced_blocks * p->bs);
	sb_json_u64(j, "usable_bytes", r->usable_blocks * p->bs);
	sb_json_u64(j, "wrap_bytes", r->wrap_order ? 1ull << r->wrap_order : 0);
	sb_json_u64(j, "cache_bytes", r->cache_blocks * p->bs);
	sb_json_u64(j, "blocks_written", r->blocks_written);
	sb_json_u64(j, "blocks_read", r->blocks_read);
	sb_json_u64(j, "io_errors", r->io_errors);
	sb_json_u64(j, "seed", p->seed);
	sb_json_u64(j, "ns", p->ns);
	sb_json_obj_close(j);
	sb_json_str(j, "result", r->interrupted ? "interrupted"
				 : r->kind == SB_CAPACITY_GOOD ? "pass" : "fail");
}

static int report(const struct verify_opts *o, struct cli_target *ct, struct probe_report *p)
{
	struct sb_results *res = sb_results_create("verify");
	int rc = 0;
	if (!res) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	cli_results_describe(res, ct, p->path);
	res->interrupted = p->res.interrupted;
	res->extra_key = "verify";
	res->extra_json = probe_json;
	res->extra_ctx = p;
	if (o->output && cli_write_json(res, o->output) < 0)
		rc = SB_EXIT_ENV;
	if (o->json_stdout && cli_write_json(res, "-") < 0)
		rc = SB_EXIT_ENV;
	if (!o->json_stdout)
		probe_text(stdout, p);
	sb_results_free(res);
	if (rc)
		return rc;
	if (p->res.interrupted)
		return cli_interrupted() == 15 ? SB_EXIT_SIGTERM : SB_EXIT_SIGINT;
	return p->res.kind == SB_CAPACITY_GOOD ? SB_EXIT_OK : SB_EXIT_FAIL;
}

/* The device, held and opened for the probe: an exit code on failure. */
static int open_device(const struct verify_opts *o, struct cli_target *ct, const char *path,
		       int *fd)
{
	int e = cli_target_probe(ct, path);
	if (e)
		return e;
	if (ct->info.kind != SB_TARGET_BLOCK) {
		sb_err("--probe: '%s' is not a block device (the probe tests a whole device)", path);
		return SB_EXIT_USAGE;
	}
	if (!o->destroy) {
		sb_err("refusing to probe '%s': the probe writes all over the device (add "
		       "--destroy-data)", path);
		return SB_EXIT_USAGE;
	}
	ct->destroy_data = 1;
	if ((e = cli_device_consent(ct, path)))
		return e;
	*fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (*fd < 0) {
		sb_err("cannot open '%s': %s", path, strerror(errno));
		return SB_EXIT_ENV;
	}
	return 0;
}

int verify_probe(const struct verify_opts *o, const char *path)
{
	struct cli_target ct;
	struct probe_report p;
	struct pdev d;
	int fd = -1;

	memset(&ct, 0, sizeof(ct));
	memset(&p, 0, sizeof(p));
	int rc = open_device(o, &ct, path, &fd);
	if (rc)
		goto out;
	p.path = path;
	p.bs = d.bs = ct.info.logical_bs ? ct.info.logical_bs : 512;
	p.seed = o->seed_given ? o->seed : sb_now_ns() ^ ((uint64_t)getpid() << 32);
	const struct sb_capacity_dev dev = { ct.info.capacity / d.bs, d.bs, pread_cb, pwrite_cb, &d,
					     stop_cb };
	if ((rc = sb_engine_init(&d.eng, sb_engine_find("psync"), fd, 1, 1)) < 0) {
		sb_err("cannot use '%s': %s", path, strerror(-rc));
		rc = SB_EXIT_ENV;
		goto out;
	}
	/* the probe leaves the first MiB (the partition table) alone */
	sb_engine_set_write_bounds(&d.eng, sb_capacity_first_block(d.bs) * d.bs, ct.info.capacity);
	cli_signals_install();
	const uint64_t t0 = sb_now_ns();
	int e = sb_capacity_run(&dev, p.seed, &p.res);
	p.ns = sb_now_ns() - t0;
	sb_engine_cleanup(&d.eng);
	if (e == -EINVAL) {
		sb_err("cannot probe '%s': too small (the probe needs 2 MiB at least)", path);
		rc = SB_EXIT_USAGE;
	} else if (e < 0) {
		sb_err("cannot probe '%s': %s", path, strerror(-e));
		rc = SB_EXIT_ENV;
	} else {
		rc = report(o, &ct, &p);
	}
out:
	if (fd >= 0)
		close(fd);
	cli_target_cleanup(&ct, 1);
	return rc;
}

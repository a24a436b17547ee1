/*
 * storbench verify: one phase (write, or read and check) over every file of
 * a target, one sequential pass per file, the figures summed over them.
 */
#include "lib/verify/verify_target.h"
#include "lib/target/target.h"

#include <unistd.h>

/* The caller's progress sees the phase's bytes, not the file's. */
struct span {
	const struct sb_vphase *p;
	uint64_t before; /* bytes done in earlier files */
};

static int file_progress(void *ctx, uint64_t bytes)
{
	const struct span *s = ctx;
	return s->p->progress ? s->p->progress(s->p->ctx, s->before + bytes) : 0;
}

static void add_result(struct sb_verify_pass_result *sum, const struct sb_verify_pass_result *one)
{
	sum->bytes += one->bytes;
	sum->ios += one->ios;
	sum->ns += one->ns;
	sum->errors += one->errors;
	sb_hist_merge(&sum->lat, &one->lat);
	if (!sum->first_error && one->first_error) {
		sum->first_error = one->first_error;
		sum->first_error_offset = one->first_error_offset;
	}
	sum->interrupted |= one->interrupted;
}

/* The blocks of a file that is not there (missing) or cannot be opened. */
static void unreadable(struct sb_verify_report *r, const struct sb_vseg *s, int err)
{
	const struct sb_verify_finding f = { s->missing ? SB_VERIFY_MISSING : SB_VERIFY_UNREADABLE,
					     0, 0, s->missing ? 0 : err };
	const uint64_t n = s->size / r->fmt.block_size;
	sb_verify_acc_add(&r->acc, s->base + s->offset, n, &f);
	r->missing_blocks += n;
}

static int one_file(struct sb_verify_report *r, const struct sb_vphase *p, unsigned i,
		    struct span *sp, char *msg, size_t ml)
{
	const struct sb_vtarget *t = p->t;
	const struct sb_vseg *s = &t->seg[i];
	struct sb_verify_pass_result one;
	int fd = s->missing ? -ENOENT : sb_vtarget_open(t, i, p->write);

	if (fd < 0 && p->write) {
		snprintf(msg, ml, "cannot open '%s': %s", s->path, strerror(-fd));
		return fd;
	}
	if (fd < 0)
		return unreadable(r, s, -fd), 0;
	if (!p->write && !t->direct)
		sb_drop_file_cache(fd); /* read the device, not what we wrote */
	const struct sb_verify_pass pass = {
		.fd = fd,
		.engine = p->ops,
		.depth = r->iodepth,
		.request_size = r->request_size,
		.is_blockdev = t->is_blockdev,
		.offset = s->offset,
		.size = s->size,
		.base = s->base,
		.fmt = &r->fmt,
		.write = p->write,
		.progress = file_progress,
		.ctx = sp,
	};
	int e = sb_verify_pass_run(&pass, p->write ? NULL : &r->acc, &one);
	close(fd);
	if (e < 0) {
		snprintf(msg, ml, "cannot %s '%s': %s", p->write ? "write" : "check", s->path,
			 strerror(-e));
		return e;
	}
	add_result(p->write ? &r->wr : &r->rd, &one);
	sp->before += one.bytes;
	return 0;
}

int sb_verify_phase(struct sb_verify_report *r, const struct sb_vphase *p, char *msg, size_t ml)
{
	struct sb_verify_pass_result *sum = p->write ? &r->wr : &r->rd;
	struct span sp = { p, 0 };
	int e = 0;

	memset(sum, 0, sizeof(*sum));
	sb_hist_init(&sum->lat);
	if (p->write) /* every block says where the region ends: a check sees a shortfall */
		r->fmt.region_end = p->t->offset + p->t->size;
	for (unsigned i = 0; i < p->t->nseg && !e; i++) {
		if (p->stop && p->stop(p->ctx)) {
			sum->interrupted = 1;
			break;
		}
		e = one_file(r, p, i, &sp, msg, ml);
	}
	if (p->write)
		r->wrote = 1;
	else
		r->checked = 1;
	if (e && !r->failed) {
		r->failed = e;
		snprintf(r->failure, sizeof(r->failure), "%s", msg);
	}
	return e;
}

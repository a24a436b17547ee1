/*
 * Which run wrote the data of a target: its seed, block size and the end of
 * the region it wrote, learned by the agreement of blocks read at several
 * places. A window of data votes for the run most of its valid blocks
 * belong to; the run most windows vote for wins (ties: the one with more
 * blocks). So a block of another run at the start of the region (or a
 * file of another run among a directory's) does not make every block
 * "foreign", as taking the first valid block did.
 */
#include "lib/verify/verify_int.h"
#include "lib/verify/verify_target.h"
#include "lib/verify/job_verify.h"
#include "lib/job/buffer.h"
#include "lib/target/target.h"

#include <fcntl.h>
#include <unistd.h>

#define LEARN_LEN (1u << 20) /* bytes read per place */
#define LEARN_FILES 4	     /* files sampled: the first, the last, two between */
#define MAX_RUNS 16	     /* distinct runs kept track of */

struct vrun_vote {
	uint64_t seed, region_end;
	uint32_t block_size;
	unsigned windows;
	uint64_t blocks;
};

struct tally {
	struct vrun_vote v[MAX_RUNS];
	unsigned n;
};

static struct vrun_vote *find(struct tally *t, const struct sb_verify_header *h)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->v[i].seed == h->seed && t->v[i].block_size == h->block_size &&
		    t->v[i].region_end == h->region_end)
			return &t->v[i];
	if (t->n == MAX_RUNS)
		return NULL;
	struct vrun_vote *v = &t->v[t->n++];
	memset(v, 0, sizeof(*v));
	v->seed = h->seed;
	v->block_size = h->block_size;
	v->region_end = h->region_end;
	return v;
}

static int wanted(const struct sb_verify_header *h, const struct sb_vtarget_opts *o)
{
	return (!o->seed_given || h->seed == o->seed) &&
	       (!o->block_size_given || h->block_size == o->block_size);
}

/* The valid blocks in n bytes: each counted for its run in w. */
static void count_window(const unsigned char *buf, ssize_t n, const struct sb_vtarget_opts *o,
			 struct tally *w)
{
	struct sb_verify_header h;
	for (ssize_t k = 0; k + (ssize_t)SB_VERIFY_MIN_BS <= n;) {
		if (!sb_verify_block_valid(buf + k, (size_t)(n - k), &h)) {
			k += 512;
			continue;
		}
		struct vrun_vote *v = wanted(&h, o) ? find(w, &h) : NULL;
		if (v)
			v->blocks++;
		k += h.block_size;
	}
}

/* The window of len bytes at off of the file open as fd votes into all. */
static void vote(int fd, uint64_t off, size_t len, unsigned char *buf,
		 const struct sb_vtarget_opts *o, struct tally *all)
{
	struct tally w = { .n = 0 };
	const ssize_t n = pread(fd, buf, len, (off_t)off);
	count_window(buf, n, o, &w);
	struct vrun_vote *best = NULL;
	for (unsigned i = 0; i < w.n; i++)
		if (!best || w.v[i].blocks > best->blocks)
			best = &w.v[i];
	struct sb_verify_header h = { .seed = 0 };
	if (!best)
		return;
	h.seed = best->seed;
	h.block_size = best->block_size;
	h.region_end = best->region_end;
	struct vrun_vote *v = find(all, &h);
	if (v) {
		v->windows++;
		v->blocks += best->blocks;
	}
}

/* The start, the middle and the end of a file (or the device). */
static void vote_file(const struct sb_vtarget *t, const struct sb_vseg *s, unsigned char *buf,
		      const struct sb_vtarget_opts *o, struct tally *all)
{
	const uint64_t span = s->size > LEARN_LEN ? s->size - LEARN_LEN : 0;
	const int fd = s->fd >= 0	? s->fd
		       : t->is_blockdev ? open(s->path, O_RDONLY | O_CLOEXEC)
					: -1;
	if (fd < 0)
		return;
	sb_drop_file_cache(fd); /* the device's data, not the page cache's */
	vote(fd, s->offset, LEARN_LEN, buf, o, all);
	if (span) {
		vote(fd, (s->offset + span / 2) & ~4095ull, LEARN_LEN, buf, o, all);
		vote(fd, (s->offset + span) & ~4095ull, LEARN_LEN, buf, o, all);
	}
	if (fd != s->fd)
		close(fd);
}

/* The run most windows vote for (ties: the one with more blocks). */
static const struct vrun_vote *winner(const struct tally *all)
{
	const struct vrun_vote *win = NULL;
	for (unsigned i = 0; i < all->n; i++)
		if (!win || all->v[i].windows > win->windows ||
		    (all->v[i].windows == win->windows && all->v[i].blocks > win->blocks))
			win = &all->v[i];
	return win;
}

/* File i of f's region: the start, the middle and the end of it vote. */
static void vote_region(const struct sb_job_verify_files *f, unsigned i, unsigned char *buf,
			struct tally *all)
{
	const struct sb_vtarget_opts any = { .seed_given = 0 };
	const uint64_t off = f->sizes ? 0 : f->offset, size = f->sizes ? f->sizes[i] : f->size;
	const int fd = f->open ? f->open(f->ctx, i, O_RDONLY)
			       : open(f->paths[i], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	sb_drop_file_cache(fd); /* the device's data, not the page cache's */
	const size_t len = (size_t)SB_MIN(size, (uint64_t)LEARN_LEN);
	const uint64_t last = size - len;
	vote(fd, off, len, buf, &any, all);
	if (last) {
		vote(fd, off + last / 2 / SB_VERIFY_MIN_BS * SB_VERIFY_MIN_BS, len, buf, &any, all);
		vote(fd, off + last / SB_VERIFY_MIN_BS * SB_VERIFY_MIN_BS, len, buf, &any, all);
	}
	close(fd);
}

int sb_job_verify_learn(const struct sb_job_verify_files *f, struct sb_verify_fmt *fmt)
{
	struct tally all = { .n = 0 };
	unsigned char *buf = sb_buf_alloc(LEARN_LEN, 4096);
	unsigned last = f->npaths;
	if (!buf)
		return -ENOMEM;
	for (unsigned n = 0; n < LEARN_FILES && f->npaths; n++) {
		const unsigned i = (unsigned)((uint64_t)n * (f->npaths - 1) / (LEARN_FILES - 1));
		if (i != last)
			vote_region(f, i, buf, &all);
		last = i;
	}
	free(buf);
	const struct vrun_vote *win = winner(&all);
	if (!win)
		return -ENOENT;
	return sb_verify_fmt_init(fmt, win->seed, 1, win->block_size);
}

int sb_vtarget_learn(struct sb_vtarget *t, const struct sb_vtarget_opts *o)
{
	struct tally all = { .n = 0 };
	unsigned char *buf = sb_buf_alloc(LEARN_LEN, 4096);
	unsigned last = t->nseg;

	if (!buf)
		return -ENOMEM;
	for (unsigned n = 0; n < LEARN_FILES && t->nseg; n++) {
		const unsigned i = (unsigned)((uint64_t)n * (t->nseg - 1) / (LEARN_FILES - 1));
		if (i != last)
			vote_file(t, &t->seg[i], buf, o, &all);
		last = i;
	}
	free(buf);
	const struct vrun_vote *win = winner(&all);
	if (!win)
		return -ENOENT;
	t->seed = win->seed;
	t->block_size = win->block_size;
	t->region_end = win->region_end;
	return 0;
}

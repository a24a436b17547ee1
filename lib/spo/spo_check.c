/*
 * The SPO check (METHODS.md section 9): every slot the journal mentions and
 * the canary, read back and classified. A slot's acceptable contents are
 * its last acknowledged generation A and any generation written after A
 * that was never acknowledged (in flight at the cut); before any
 * acknowledgement, also what the slot held before the run. Each 512-byte
 * sector is judged alone first (a generation of this run, old content,
 * misdirected, corrupt), then the slot: damage first (corrupt, then
 * misdirected), then loss (a sector older than A), then whether its
 * sectors agree (torn when they do not, unless only between units of
 * --allow-torn).
 *
 * Old content is what a sector holds that is no block of this run written
 * for this address: zeros, erased flash, a block another run wrote for this
 * very address (indistinguishable from what was there before). A block of
 * any run written for another address is misdirected.
 */
#include "lib/spo/spo.h"
#include "lib/verify/block.h"

#include <sys/stat.h>
#include <unistd.h>

#define MAX_LOST 1000

const char *const sb_spo_hist_label[SB_SPO_HIST_N] = { "<1ms",	 "1-10ms", "10-100ms",
						       "0.1-1s", "1-10s",  ">=10s" };

const char *sb_spo_class_name(int cls)
{
	static const char *const n[] = { "ok",		"ok-unacked", "lost-acked", "torn",
					 "misdirected", "corrupt",    "unreadable", "collateral" };
	return cls >= 0 && cls < SB_SPO_NCLASS ? n[cls] : "?";
}

enum sstate { S_GEN, S_OLD, S_MISDIRECTED, S_CORRUPT };

struct sector {
	enum sstate st;
	uint64_t gen;
	uint64_t run; /* the run whose block it is; 0: no block of any run */
};

/* One sector read at off; gen_hint: the generation a damaged header is
 * compared against (the payload still says "ours"). */
static struct sector judge(const struct sb_spo_header *h, const unsigned char *p, uint64_t off,
			   uint64_t gen_hint)
{
	struct sb_verify_fmt f;
	struct sb_verify_finding fd;
	struct sb_verify_header vh;

	sb_verify_fmt_init(&f, h->run_id, gen_hint, SB_SPO_SECTOR);
	switch (sb_verify_check_block(&f, p, off, &fd)) {
	case SB_VERIFY_INTACT: return (struct sector){ S_GEN, gen_hint, h->run_id };
	case SB_VERIFY_STALE:
	case SB_VERIFY_NEWER: return (struct sector){ S_GEN, fd.generation, h->run_id };
	case SB_VERIFY_MISPLACED: return (struct sector){ S_MISDIRECTED, 0, h->run_id };
	case SB_VERIFY_CORRUPTED: return (struct sector){ S_CORRUPT, 0, h->run_id };
	default: break;
	}
	/* another run's block: old content at its own address, misdirected
	 * anywhere else */
	if (!sb_verify_block_valid(p, SB_SPO_SECTOR, &vh))
		return (struct sector){ S_OLD, 0, 0 };
	return (struct sector){ vh.offset != off ? S_MISDIRECTED : S_OLD, 0, vh.seed };
}

/* The writes of one slot, in seq order: w[0..n). */
struct slot {
	uint64_t offset;
	const struct sb_spo_write *const *w;
	size_t n;
	const struct sb_spo_write *acked; /* the last acknowledged, NULL none */
};

/* Is a sector acceptable for the slot; *lost: it is older than A. */
static int acceptable(const struct slot *s, const struct sector *x, int *lost, int *unknown)
{
	const uint64_t a = s->acked ? s->acked->seq : 0;

	if (x->st == S_OLD) /* and past the end of a target cut short */
		return a ? (*lost = 1, 0) : 1;
	for (size_t i = 0; i < s->n; i++) {
		if (s->w[i]->seq != x->gen)
			continue;
		if (x->gen < a)
			return *lost = 1, 0;
		return 1; /* A itself, or written after A */
	}
	*unknown = 1; /* a generation the journal never announced here */
	return 0;
}

static int same(const struct sector *a, const struct sector *b)
{
	return a->st == b->st && a->gen == b->gen;
}

/* Sectors agree within every unit of `unit` sectors. */
static int uniform(const struct sector *x, unsigned n, unsigned unit)
{
	for (unsigned i = 1; i < n; i++)
		if (i % unit && !same(&x[i], &x[i - 1]))
			return 0;
	return 1;
}

static void add_range(struct sb_spo_check *c, uint64_t off, uint64_t len, int cls)
{
	if (c->nranges) {
		struct sb_spo_range *l = &c->ranges[c->nranges - 1];
		if (l->cls == cls && l->offset + l->length == off) {
			l->length += len;
			return;
		}
	}
	if (c->nranges < c->max_ranges)
		c->ranges[c->nranges++] = (struct sb_spo_range){ off, len, cls };
	else
		c->ranges_omitted++;
}

unsigned sb_spo_hist_bucket(uint64_t ns)
{
	unsigned b = 0;
	for (uint64_t lim = 1000000; b + 1 < SB_SPO_HIST_N && ns >= lim; lim *= 10)
		b++;
	return b;
}

static void count(struct sb_spo_check *c, uint64_t off, int cls)
{
	c->count[cls]++;
	c->blocks++;
	if (cls != SB_SPO_OK && cls != SB_SPO_OK_UNACKED)
		add_range(c, off, c->h.bs, cls);
}

static void lost(struct sb_spo_check *c, const struct slot *s, const struct sector *x, unsigned n)
{
	const uint64_t t_ack = s->acked->t_ack;
	const uint64_t d = c->t_cut > t_ack ? c->t_cut - t_ack : 0;
	uint64_t found = 0;

	for (unsigned i = 0; i < n; i++)
		if (x[i].st == S_GEN && x[i].gen < s->acked->seq)
			found = x[i].gen;
	c->hist[sb_spo_hist_bucket(d)]++;
	if (c->nlost < c->max_lost)
		c->lost[c->nlost++] = (struct sb_spo_lost){ s->offset, s->acked->seq, found, d };
}

/* Whose blocks the target holds: the sectors of the journal's run are
 * counted, of another run the first one seen is kept. */
static void note_runs(struct sb_spo_check *c, const struct sector *x, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (x[i].run == c->h.run_id)
			c->own_sectors++;
		else if (x[i].run && !c->other_run)
			c->other_run = x[i].run;
	}
}

/* A slot read back: its first `have` sectors are there, the rest are past
 * the end of a target cut short (old content: what is not there). */
static int classify_slot(struct sb_spo_check *c, const struct slot *s, struct sector *x,
			 const unsigned char *buf, unsigned n, unsigned have)
{
	int corrupt = 0, mis = 0, bad = 0, lostf = 0, unknown = 0;
	const uint64_t hint = s->acked ? s->acked->seq : s->w[s->n - 1]->seq;

	for (unsigned i = 0; i < n; i++) {
		x[i] = i < have ? judge(&c->h, buf + (size_t)i * SB_SPO_SECTOR,
					s->offset + (uint64_t)i * SB_SPO_SECTOR, hint)
				: (struct sector){ S_OLD, 0, 0 };
		corrupt |= x[i].st == S_CORRUPT;
		mis |= x[i].st == S_MISDIRECTED;
		if (x[i].st == S_GEN || x[i].st == S_OLD)
			bad |= !acceptable(s, &x[i], &lostf, &unknown);
	}
	note_runs(c, x, have);
	if (have < n)
		c->missing_blocks++;
	if (corrupt || unknown)
		return SB_SPO_CORRUPT;
	if (mis)
		return SB_SPO_MISDIRECTED;
	if (lostf) {
		c->lost_missing += have < n;
		lost(c, s, x, n);
		return SB_SPO_LOST_ACKED;
	}
	(void)bad;
	if (uniform(x, n, n))
		return s->acked && x[0].st == S_GEN && x[0].gen == s->acked->seq
			       ? SB_SPO_OK
			       : SB_SPO_OK_UNACKED;
	if (c->allow_torn && uniform(x, n, c->allow_torn / SB_SPO_SECTOR)) {
		c->torn_allowed++;
		return SB_SPO_OK_UNACKED;
	}
	return SB_SPO_TORN;
}

/* The whole sectors of n bytes at off that are there (fewer past the end
 * of a file), or -errno. */
static int read_block(int fd, unsigned char *buf, size_t n, uint64_t off)
{
	size_t done = 0;
	while (done < n) {
		const ssize_t r = pread(fd, buf + done, n - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		done += (size_t)r;
	}
	return (int)(done / SB_SPO_SECTOR);
}

static void check_canary(struct sb_spo_check *c, int fd, unsigned char *buf)
{
	struct sb_verify_fmt f;
	sb_verify_fmt_init(&f, c->h.run_id, 0, SB_SPO_SECTOR);
	for (uint64_t o = 0; o < c->h.canary; o += c->h.bs) {
		const uint64_t off = c->h.offset + o;
		const int have = read_block(fd, buf, c->h.bs, off);
		int cls = have < 0 ? SB_SPO_UNREADABLE : SB_SPO_OK;
		for (uint32_t i = 0; have >= 0 && i < c->h.bs; i += SB_SPO_SECTOR) {
			struct sb_verify_finding fd2;
			/* past the end of a target cut short: gone */
			if (i / SB_SPO_SECTOR >= (uint32_t)have) {
				cls = SB_SPO_COLLATERAL;
				continue;
			}
			if (sb_verify_check_block(&f, buf + i, off + i, &fd2) != SB_VERIFY_INTACT)
				cls = SB_SPO_COLLATERAL;
			if (fd2.cls != SB_VERIFY_FOREIGN)
				c->own_sectors++;
		}
		if (have >= 0 && (uint32_t)have < c->h.bs / SB_SPO_SECTOR)
			c->missing_blocks++;
		c->canary_blocks++;
		count(c, off, cls);
	}
}

static int by_offset(const void *a, const void *b)
{
	const struct sb_spo_write *x = *(const struct sb_spo_write *const *)a;
	const struct sb_spo_write *y = *(const struct sb_spo_write *const *)b;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void recommend(struct sb_spo_check *c)
{
	const uint64_t *n = c->count;
#define REC(s)                                   \
	do {                                     \
		if (c->nrec < SB_SPO_REC_MAX)    \
			c->rec[c->nrec++] = (s); \
	} while (0)
	/* lost where the target still is: not its lost tail */
	if (n[SB_SPO_LOST_ACKED] > c->lost_missing) {
		if (c->h.sync == SB_SPO_DSYNC)
			REC("writes acknowledged with O_DSYNC were lost: the device or its driver "
			    "ignores FUA/write-through (check the write cache setting in "
			    "`storbench info`)");
		else
			REC(c->h.sync == SB_SPO_FSYNC
				    ? "writes acknowledged with fsync were lost: the device or its "
				      "driver ignores flush (check the write cache setting in "
				      "`storbench info`)"
				    : "writes acknowledged with fdatasync were lost: the device or "
				      "its driver ignores flush (check the write cache setting in "
				      "`storbench info`)");
		if (c->hist[0] + c->hist[1] + c->hist[2] < n[SB_SPO_LOST_ACKED])
			REC("some lost writes were acknowledged 100 ms or more before the cut: "
			    "not a race with the cut, the flush did not reach the medium");
	}
	if (n[SB_SPO_TORN])
		REC("writes in flight at the cut came back torn (old and new sectors in one "
		    "write): the device writes atomically less than --bs; name the unit it "
		    "promises (eMMC reliable write, NVMe AWUPF) with --allow-torn");
	if (n[SB_SPO_MISDIRECTED])
		REC("blocks were found at addresses they were not written for: the device's "
		    "mapping was damaged by the cut");
	if (n[SB_SPO_CORRUPT])
		REC("blocks read back with bad checksums: an interrupted program, or damage the "
		    "cut caused");
	if (n[SB_SPO_UNREADABLE])
		REC("blocks could not be read after the cut: the device lost them");
	if (n[SB_SPO_COLLATERAL])
		REC("the canary region written before the run changed: data at rest was damaged "
		    "by the cut (paired-page damage of MLC/TLC programming)");
	if (c->short_target)
		REC("the target ends before the journal's region: what was past its end is gone "
		    "(lost-acked where a write was acknowledged); a file that lost its tail kept "
		    "neither the data nor the size it was given");
	if (c->h.sync == SB_SPO_NONE)
		REC("with --sync=none nothing was acknowledged: only damage was looked for");
	if (c->pass && n[SB_SPO_OK_UNACKED])
		REC("only in-flight writes changed: behaves as specified");
	else if (c->pass)
		REC("every acknowledged write read back");
#undef REC
}

static int fail(struct sb_spo_check *c, const char *what, char *msg, size_t ml)
{
	snprintf(msg, ml, "%s", what);
	sb_spo_check_free(c);
	return -ENOMEM;
}

/* Does the target end before the journal's region (a file cut short)? */
static int short_target(int fd, struct sb_spo_check *c)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size >= c->h.offset + c->h.size)
		return 0;
	c->short_target = 1;
	c->target_size = (uint64_t)st.st_size;
	return 1;
}

/* A target cut short with no block of the journal's run in what is left:
 * nothing says it is the target the journal was written on. */
static int not_this_target(struct sb_spo_check *c, char *msg, size_t ml)
{
	char other[64] = "";
	if (c->other_run)
		snprintf(other, sizeof(other), " (it holds blocks of run %016llx)",
			 (unsigned long long)c->other_run);
	snprintf(msg, ml,
		 "the target ends at %llu, before the journal's region ends (%llu), and holds no "
		 "block of the journal's run %016llx%s: another target?",
		 (unsigned long long)c->target_size, (unsigned long long)(c->h.offset + c->h.size),
		 (unsigned long long)c->h.run_id, other);
	sb_spo_check_free(c);
	return -EINVAL;
}

int sb_spo_classify(int fd, const struct sb_spo_journal *jn, uint32_t allow_torn,
		    size_t max_ranges, struct sb_spo_check *c, char *msg, size_t msglen)
{
	const unsigned nsec = jn->h.bs / SB_SPO_SECTOR;
	const struct sb_spo_write **byoff = NULL;
	unsigned char *buf = NULL;
	struct sector *x = NULL;

	memset(c, 0, sizeof(*c));
	c->h = jn->h;
	if (allow_torn && (allow_torn % SB_SPO_SECTOR || jn->h.bs % allow_torn))
		return snprintf(msg, msglen,
				"--allow-torn: a multiple of 512 that divides the journal's bs (%u)",
				jn->h.bs),
		       -EINVAL;
	c->allow_torn = allow_torn;
	c->writes = jn->nw;
	c->acked = jn->nacked;
	c->cut_known = jn->cut_known;
	c->t_cut = jn->cut_known ? jn->t_cut : jn->t_last;
	c->torn_tail = jn->torn_tail;
	c->max_ranges = max_ranges;
	c->max_lost = MAX_LOST;
	c->ranges = calloc(max_ranges ? max_ranges : 1, sizeof(*c->ranges));
	c->lost = calloc(MAX_LOST, sizeof(*c->lost));
	byoff = calloc(jn->nw ? jn->nw : 1, sizeof(*byoff));
	x = calloc(nsec, sizeof(*x));
	if (!c->ranges || !c->lost || !byoff || !x ||
	    posix_memalign((void **)&buf, 4096, jn->h.bs)) {
		free(byoff);
		free(x);
		return fail(c, "out of memory", msg, msglen);
	}
	check_canary(c, fd, buf);
	for (size_t i = 0; i < jn->nw; i++)
		byoff[i] = &jn->w[i];
	qsort(byoff, jn->nw, sizeof(*byoff), by_offset);
	for (size_t i = 0; i < jn->nw;) {
		struct slot s = { byoff[i]->offset, &byoff[i], 0, NULL };
		while (i + s.n < jn->nw && byoff[i + s.n]->offset == s.offset)
			s.n++;
		for (size_t k = 0; k < s.n; k++)
			if (s.w[k]->t_ack != UINT64_MAX)
				s.acked = s.w[k];
		i += s.n;
		const int have = read_block(fd, buf, jn->h.bs, s.offset);
		count(c, s.offset,
		      have < 0 ? SB_SPO_UNREADABLE
			       : classify_slot(c, &s, x, buf, nsec, (unsigned)have));
	}
	free(byoff);
	free(x);
	free(buf);
	if (short_target(fd, c) && !c->own_sectors)
		return not_this_target(c, msg, msglen);
	c->pass = !c->count[SB_SPO_LOST_ACKED] && !c->count[SB_SPO_TORN] &&
		  !c->count[SB_SPO_MISDIRECTED] && !c->count[SB_SPO_CORRUPT] &&
		  !c->count[SB_SPO_UNREADABLE] && !c->count[SB_SPO_COLLATERAL];
	recommend(c);
	return 0;
}

void sb_spo_check_free(struct sb_spo_check *c)
{
	free(c->ranges);
	free(c->lost);
	c->ranges = NULL;
	c->lost = NULL;
}

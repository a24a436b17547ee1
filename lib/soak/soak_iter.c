/*
 * One soak iteration: write the region with verify blocks of this
 * iteration's generation (fsync included in the timing), drop the caches,
 * read it back and check every block, remove the files (file mode) or keep
 * the data (region mode: the next iteration's write must replace all of it,
 * and a lost write shows as stale), then collect the kernel's messages.
 * With --burst=SIZE,IDLE the write stops after every SIZE bytes for IDLE
 * (sync first, pause not timed), as iozone -+b; under mpirun each pause
 * ends when every rank's does, so each burst starts on all ranks together.
 */
#include "lib/soak/soak_int.h"
#include "lib/target/cache.h"

#include <unistd.h>

/* How often the progress hook is told, at most. */
#define TELL_EVERY_NS 50000000ull

static double soak_time(const struct soak *s)
{
	return s->co ? sb_coord_time(s->co) : (double)sb_now_ns() / 1e9;
}

struct burst {
	struct soak *s;
	uint64_t next; /* bytes at which the next pause comes */
	uint64_t slept_ns;
	/* many ranks: every pause ends in an agreement of all ranks, so that
	 * each burst starts on every rank together; a rank whose write is
	 * over goes on answering them until every rank's is. idle_s: how long
	 * this rank did not write in the round before (its pause, or its
	 * wait once done), reduced in the next round to the minimum: the
	 * pause every rank shared, which shared_s sums (the All clients
	 * write time leaves it out, as a rank's own leaves out its pauses) */
	int ranks, rounds;
	double since, idle_s, shared_s;
};

/* Many ranks: one round of the bursts' agreement (writing 0: this
 * rank's write is over); returns whether any rank still writes (0 when
 * the ranks could not agree: s->coord_e). Every round but the last has a
 * rank that writes after it, so the pause all shared in it (reduced in
 * the next round) lies within the write's span. Bounded as every other
 * wait, plus the pause. */
static int burst_agree(struct burst *b, int writing)
{
	struct soak *s = b->s;
	long v[2] = { writing, b->rounds ? -(long)(b->idle_s * 1e6) : 0 };
	if (s->coord_e)
		return 0;
	const int e = sb_coord_max(s->co, v, 2, SOAK_WAIT_S + (double)s->o->burst_idle_ns / 1e9);
	if (e) {
		soak_coord_failed(s, "waiting for every rank", e);
		return 0;
	}
	const double now = soak_time(s);
	if (b->rounds)
		b->shared_s += (double)-v[1] / 1e6;
	b->rounds++;
	b->idle_s = now - b->since;
	b->since = now;
	return v[0] != 0;
}

/* Many ranks, after this rank's write: the rounds go on until every
 * rank's write is over. */
static void burst_finish(struct burst *b)
{
	if (!b->ranks)
		return;
	b->since = soak_time(b->s);
	while (burst_agree(b, 0))
		;
}

/* After every request: a pause once a burst is written (the check's
 * bytes never reach the next one: the write's end is past them); non-zero
 * when the ranks could not agree (the phase stops). */
static int burst_step(struct burst *b, uint64_t bytes)
{
	struct soak *s = b->s;
	const uint64_t burst = s->o->burst_bytes;
	if (!burst || bytes < b->next)
		return 0;
	b->next = (bytes / burst + 1) * burst;
	uint64_t t0 = sb_now_ns();
	b->since = soak_time(s);
	sync();
	for (uint64_t left = s->o->burst_idle_ns; left && !soak_stop_asked(s);) {
		uint64_t step = SB_MIN(left, 100000000ull);
		struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
		left -= step;
	}
	if (b->ranks)
		burst_agree(b, 1);
	b->slept_ns += sb_now_ns() - t0;
	return s->coord_e != 0;
}

/* A phase's progress in flight. */
struct phase {
	struct soak *s;
	struct burst *b;
	const char *label;
	uint64_t total; /* bytes of the phase */
	int write;
	int stopped; /* the stop hook asked */
};

/* Many ranks, every one in this phase: one look at the round in flight (a
 * new one started when due, or when this rank's phase is over); 1 once a
 * round ended with every rank done (or the ranks could not agree). */
static int ranks_look(struct phase *p, uint64_t done, int over, uint64_t now)
{
	struct soak *s = p->s;
	if (s->coord_e)
		return 1;
	const int e = sb_coord_sum_look(s->co, &s->all, done, p->total, over, now, SOAK_WAIT_S);
	if (e < 0)
		return soak_coord_failed(s, "while measuring", e), 1;
	return e == 1;
}

/* What the progress hook is told: "soak iteration 3 of 10, write: ...",
 * the bytes and rate of every rank together where all run the phase. */
static void tell(struct phase *p, uint64_t done, uint64_t now)
{
	struct soak *s = p->s;
	const double elapsed = (double)(now - s->phase_ns);
	struct sb_soak_progress g = {
		.iteration = s->cur_n,
		.last = soak_last_planned(s),
		.phase = p->label,
		.done = done,
		.total = p->total,
		.pct = p->total ? 100.0 * (double)done / (double)p->total : 100.0,
		.eta_ns = -1,
	};
	if (sb_rate_get(&s->rate, now, done, 0, &g.bps, NULL) < 0)
		g.bps = -1;
	if (s->all_ranks) { /* every rank's together, at most a round behind */
		done = s->all.done;
		g.ranks = (unsigned)s->nranks;
		g.done = done;
		g.total = s->all.total;
		g.pct = g.total ? 100.0 * (double)done / (double)g.total : 0;
		g.bps = sb_coord_sum_rate(&s->all);
	}
	if (g.bps > 0)
		g.eta_ns = done < g.total ? (double)(g.total - done) / g.bps * 1e9 : 0;
	g.eta_ns = soak_eta(s, p->write, elapsed, g.eta_ns, now, &g.elapsed_ns);
	s->h->progress(s->h->ctx, &g);
	s->told_ns = now;
}

static int phase_progress(void *ctx, uint64_t done)
{
	struct phase *p = ctx;
	struct soak *s = p->s;
	if (soak_stop_asked(s))
		return p->stopped = 1;
	if (burst_step(p->b, done))
		return 1;
	const uint64_t now = sb_now_ns();
	sb_rate_add(&s->rate, now, done, 0);
	if (s->all_ranks && ranks_look(p, done, 0, now) && s->coord_e)
		return 1;
	/* only rank 0 of many tells */
	if (s->h->progress && s->rank == 0 && now - s->told_ns >= TELL_EVERY_NS)
		tell(p, done, now);
	return 0;
}

static int phase_stop(void *ctx)
{
	struct phase *p = ctx;
	return p->stopped = soak_stop_asked(p->s) != 0;
}

/* One phase over every file of the target (write and fsync, or read and
 * check into r->acc): 0, or -errno when it could not run (said). */
static int run_phase(struct soak *s, struct sb_verify_report *r, struct burst *b, int write)
{
	struct phase p = { s, b, write ? "write" : "check", s->vt->size, write, 0 };
	const struct sb_vphase vp = { s->vt, s->o->ops, write, phase_progress, phase_stop, &p };
	char msg[8448];
	s->phase_ns = s->told_ns = sb_now_ns();
	sb_rate_reset(&s->rate);
	sb_rate_add(&s->rate, s->phase_ns, 0, 0);
	memset(&s->all, 0, sizeof(s->all));
	r->t = s->vt;
	r->engine = s->o->ops->name;
	r->request_size = s->o->request_size;
	r->iodepth = s->o->iodepth;
	/* the phase begins: a line of its own from here */
	if (s->h->progress && s->rank == 0)
		tell(&p, 0, s->phase_ns);
	const int e = sb_verify_phase(r, &vp, msg, sizeof(msg));
	/* many ranks: the rounds go on until every rank's phase is over */
	if (s->all_ranks) {
		const uint64_t done = write ? r->wr.bytes : r->rd.bytes;
		const struct timespec nap = { 0, 1000000 };
		while (!ranks_look(&p, done, 1, sb_now_ns()))
			nanosleep(&nap, NULL);
	}
	if (s->coord_e)
		return s->coord_e;
	return e ? soak_fail(s, e, SB_ERR_ENV, "%s", msg) : 0;
}

static void latencies(const struct sb_hist *h, uint64_t out[3])
{
	out[0] = sb_hist_percentile(h, 50);
	out[1] = sb_hist_percentile(h, 99);
	out[2] = h->count ? h->max : 0;
}

void soak_collect_kmsg(struct soak *s, struct sb_soak_iter *it)
{
	char line[1024];
	uint64_t t;
	if (!s->kmsg_ok)
		return;
	/* lines about the target's own devices (or naming none) go with the
	 * iteration and fail it, those about other devices are kept apart */
	while (sb_kmsg_read(&s->kmsg, line, sizeof(line), &t) == 1) {
		const char *cat = sb_kmsg_storage_trouble(line);
		struct sb_soak_kline k;
		if (!cat)
			continue;
		memset(&k, 0, sizeof(k));
		const enum sb_kmsg_about about = sb_kmsg_attribute(line, &s->kstack, k.device,
								   sizeof(k.device));
		k.time_us = t;
		snprintf(k.category, sizeof(k.category), "%s", cat);
		sb_soak_cut_text(k.text, sizeof(k.text), line);
		if (about == SB_KMSG_OTHER)
			sb_soak_iter_add_other(it, &k);
		else if (it->nkmsg == SB_SOAK_MAX_KMSG)
			it->kmsg_omitted++;
		else
			it->kmsg[it->nkmsg++] = k;
	}
}

/* Drop the page cache between the write and the check; what was used. */
static int drop(const struct soak *s)
{
	int fd = s->vt->nseg ? sb_vtarget_open(s->vt, 0, 0) : -1;
	int m = sb_cache_drop(fd < 0 ? -1 : fd);
	if (fd >= 0)
		close(fd);
	return m;
}

static void take_results(struct soak *s, struct sb_soak_iter *it, const struct sb_verify_report *r,
			 uint64_t slept)
{
	uint64_t wns = r->wr.ns > slept ? r->wr.ns - slept : r->wr.ns;
	it->write_bw = wns ? (double)r->wr.bytes * 1e9 / (double)wns : 0;
	it->read_bw = r->rd.ns ? (double)r->rd.bytes * 1e9 / (double)r->rd.ns : 0;
	latencies(&r->wr.lat, it->wlat);
	latencies(&r->rd.lat, it->rlat);
	it->blocks = r->acc.blocks;
	memcpy(it->count, r->acc.count, sizeof(it->count));
	it->nranges = SB_MIN(r->acc.nranges, (size_t)SB_SOAK_MAX_RANGES);
	memcpy(it->ranges, r->acc.ranges, it->nranges * sizeof(it->ranges[0]));
	it->ranges_omitted = r->acc.omitted + (r->acc.nranges - it->nranges);
	it->io_errors = r->wr.errors + r->acc.count[SB_VERIFY_UNREADABLE];
	if (r->wr.first_error == ENOSPC) {
		/* no room is the target's state, not a failure of the device */
		it->unwritten = r->wr.errors;
		it->io_errors -= r->wr.errors;
	}
	it->first_errno = r->wr.first_error ? r->wr.first_error : r->rd.first_error;
	it->first_error_offset = r->wr.first_error ? r->wr.first_error_offset
						   : r->rd.first_error_offset;
	it->interrupted = r->wr.interrupted || r->rd.interrupted || !!soak_stop_asked(s);
}

/* What failed to be created: the user's doing, or the environment's. */
/* File mode: this iteration's files (a second Ctrl-C removes them). */
static int create(struct soak *s)
{
	char msg[8448];
	const int e = sb_vtarget_create(s->vt, &s->o->vto, msg, sizeof(msg));
	for (unsigned i = 0; i < s->vt->nseg && s->h->track; i++)
		if (s->vt->seg[i].created)
			s->h->track(s->h->ctx, s->vt->seg[i].path, s->vt->seg[i].fd, 1);
	if (!e)
		return 0;
	snprintf(s->why, sizeof(s->why), "%.*s", (int)sizeof(s->why) - 1, msg);
	return soak_fail(s, e, sb_errno_class(e), "%s", msg);
}

static void remove_files(struct soak *s)
{
	char msg[8448];
	for (unsigned i = 0; i < s->vt->nseg; i++)
		/* a file at the user's name stays held until the next iteration
		 * swaps a new one in: the name never stands free */
		if (sb_vtarget_retire_said(s->vt, i, msg, sizeof(msg)) < 0 && msg[0])
			soak_warn(s, "%s", msg);
}

/* Many ranks, after the write: every one has written before any checks,
 * and none checks when one could not write at all; every rank's bytes
 * are told when every one checks. 0, or -errno of the coordination. */
static int agree_check(struct soak *s, int e, int *check)
{
	long v[2] = { e ? 1 : 0, !*check };
	s->all_ranks = 0;
	if (s->nranks < 2)
		return 0;
	if (s->coord_e)
		return s->coord_e;
	const int c = sb_coord_max(s->co, v, 2, SOAK_WAIT_S);
	if (c)
		return soak_coord_failed(s, "agreeing", c);
	if (v[0])
		*check = 0;
	s->all_ranks = !v[0] && !v[1];
	return 0;
}

/* Many ranks: whether every rank could make its files (the line shows
 * them all then, not with --burst: the pauses' agreements are the ranks'
 * rounds then, and the line is rank 0's own). */
static int agree_made(struct soak *s, int made, int bursts)
{
	long v = !made;
	s->all_ranks = 0;
	if (s->nranks < 2 || s->coord_e)
		return s->coord_e;
	const int c = sb_coord_max(s->co, &v, 1, SOAK_WAIT_S);
	if (c)
		return soak_coord_failed(s, "agreeing", c);
	s->all_ranks = !v && !bursts;
	return 0;
}

static int verify_iteration(struct soak *s, struct sb_soak_iter *it)
{
	struct sb_verify_report r;
	struct burst b = { .s = s, .next = s->o->burst_bytes };
	int e = 0;
	memset(&r, 0, sizeof(r));
	/* a generation no write of this soak used before (after a resume
	 * too: the run starts above any a killed iteration may have used): a
	 * block the device failed to write still carries an older one and is
	 * found stale, never intact */
	it->generation = s->gen_base + (it->n - s->gen_first);
	sb_verify_fmt_init(&r.fmt, s->seed, it->generation, s->o->block_size);
	if (sb_verify_acc_init(&r.acc, s->o->block_size, SB_SOAK_MAX_RANGES * 4) < 0)
		return soak_fail(s, -ENOMEM, SB_ERR_ENV, "out of memory");
	/* many ranks: the phases' times on the coordination clock, and what
	 * rank 0 needs for the All clients figures */
	s->ph[0] = s->ph[1] = s->ph[2] = s->ph[3] = s->ph_start = soak_time(s);
	s->wbytes = s->rbytes = 0;
	const int made = s->region_mode || !(e = create(s));
	b.ranks = s->nranks > 1 && s->o->burst_bytes;
	int c = agree_made(s, made, b.ranks);
	if (made && !c) {
		s->ph[0] = soak_time(s);
		e = run_phase(s, &r, &b, 1);
		s->ph[1] = s->ph[2] = s->ph[3] = soak_time(s);
	}
	if (!c)
		burst_finish(&b);
	s->wshared_s = b.shared_s;
	s->wpause_s = (double)b.slept_ns / 1e9;
	/* a full target: what was not written is not checked (it would read as
	 * foreign); the loop stops there */
	const int full = r.wr.errors && r.wr.first_error == ENOSPC;
	int check = made && !e && !full && !soak_stop_asked(s);
	if (!c && !s->coord_e)
		c = agree_check(s, e, &check);
	if (check && !c) {
		it->cache = drop(s);
		const uint64_t t0 = sb_now_ns();
		s->ph[2] = soak_time(s);
		e = run_phase(s, &r, &b, 0);
		s->ph[3] = soak_time(s);
		s->check_ns = sb_now_ns() - t0;
	}
	s->all_ranks = 0;
	if (made) {
		sb_verify_acc_finish(&r.acc);
		take_results(s, it, &r, b.slept_ns);
		s->wbytes = r.wr.bytes;
		s->rbytes = r.rd.bytes;
		s->wh = r.wr.lat;
		s->rh = r.rd.lat;
		if (!s->region_mode)
			remove_files(s);
	}
	sb_verify_acc_free(&r.acc);
	return s->coord_e ? s->coord_e : e;
}

int soak_iteration(struct soak *s, struct sb_soak_iter *it)
{
	s->cur_n = it->n;
	s->it_mono_ns = sb_now_ns();
	it->start_ns = soak_wall_ns();
	s->why[0] = '\0';
	const int e = s->iozone ? soak_iozone_iteration(s, it) : verify_iteration(s, it);
	it->end_ns = soak_wall_ns();
	s->ph_end = soak_time(s);
	soak_collect_kmsg(s, it);
	return e;
}

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
#include "cli/soak.h"

#include <unistd.h>

uint64_t soak_wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct burst {
	const struct soak_opts *o;
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
 * rank's write is over); returns whether any rank still writes. Every
 * round but the last has a rank that writes after it, so the pause all
 * shared in it (reduced in the next round) lies within the write's span.
 * Bounded as every other wait (600 s), plus the pause. */
static int burst_agree(struct burst *b, int writing)
{
	long v[2] = { writing, b->rounds ? -(long)(b->idle_s * 1e6) : 0 };
	cli_ranks_max_within(v, 2, 600.0 + (double)b->o->burst_idle_ns / 1e9);
	const double now = cli_ranks_time();
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
	b->since = cli_ranks_time();
	while (burst_agree(b, 0))
		;
}

static int burst_hook(void *ctx, uint64_t bytes)
{
	struct burst *b = ctx;
	if (!b->o->burst_bytes || bytes < b->next)
		return 0;
	b->next = (bytes / b->o->burst_bytes + 1) * b->o->burst_bytes;
	uint64_t t0 = sb_now_ns();
	b->since = cli_ranks_time();
	sync();
	for (uint64_t left = b->o->burst_idle_ns; left && !cli_interrupted();) {
		uint64_t step = SB_MIN(left, 100000000ull);
		struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
		left -= step;
	}
	if (b->ranks)
		burst_agree(b, 1);
	b->slept_ns += sb_now_ns() - t0;
	return 0;
}

static void latencies(const struct sb_hist *h, uint64_t out[3])
{
	out[0] = sb_hist_percentile(h, 50);
	out[1] = sb_hist_percentile(h, 99);
	out[2] = h->count ? h->max : 0;
}

/* The kernel's storage trouble since the last look: lines about the
 * target's own devices (or naming none) go with the iteration and fail
 * it, those about other devices are kept apart, for information. */
static void collect_kmsg(struct soak_state *s, struct sb_soak_iter *it)
{
	char line[1024];
	uint64_t t;
	if (!s->kmsg_ok)
		return;
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
		snprintf(k.text, sizeof(k.text), "%.*s", (int)sizeof(k.text) - 1, line);
		if (about == SB_KMSG_OTHER)
			sb_soak_iter_add_other(it, &k);
		else if (it->nkmsg == SB_SOAK_MAX_KMSG)
			it->kmsg_omitted++;
		else
			it->kmsg[it->nkmsg++] = k;
	}
}

/* Drop the page cache between the write and the check; what was used. */
static int drop(const struct soak_state *s)
{
	int fd = s->t.v.nseg ? sb_vtarget_open(&s->t.v, 0, 0) : -1;
	int m = sb_cache_drop(fd < 0 ? -1 : fd);
	if (fd >= 0)
		close(fd);
	return m;
}

static void take_results(struct sb_soak_iter *it, const struct sb_verify_report *r, uint64_t slept)
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
	it->interrupted = r->wr.interrupted || r->rd.interrupted || !!cli_interrupted();
}

/*
 * The ETA of the whole soak for the progress line, from the phase's own:
 * what is left of this iteration (in the write phase, the check to come
 * as long as the last one, or as the write), then the iterations left as
 * long as the ones this process ran (pauses included) or as this one; a
 * --duration ends it sooner (after the iteration then running).
 */
static double soak_eta(void *ctx, int write, double phase_elapsed, double phase_eta,
		       uint64_t *elapsed_ns)
{
	const struct soak_state *s = ctx;
	const struct soak_opts *o = s->o;
	const uint64_t now = sb_now_ns();
	*elapsed_ns = s->prior_ns + (now - s->mono_start_ns);
	if (phase_eta < 0)
		return -1;
	double rest = phase_eta;
	if (write)
		rest += s->check_ns ? (double)s->check_ns : phase_elapsed + phase_eta;
	double left = -1;
	const uint64_t last = soak_last_planned(s);
	if (last) {
		const uint64_t ran = s->cur_n - s->first_n;
		const double per = ran ? (double)(s->it_mono_ns - s->mono_start_ns) / (double)ran
				       : (double)(now - s->it_mono_ns) + rest + (double)o->idle_ns;
		left = rest + per * (double)(last > s->cur_n ? last - s->cur_n : 0);
	}
	if (o->duration_ns) {
		double d = o->duration_ns > *elapsed_ns ? (double)(o->duration_ns - *elapsed_ns)
							: 0;
		d = SB_MAX(d, rest);
		left = left < 0 || d < left ? d : left;
	}
	return left;
}

int soak_iteration(struct soak_state *s, struct sb_soak_iter *it)
{
	struct verify_report r;
	struct burst b = { .o = s->o, .next = s->o->burst_bytes };
	int rc = 0;

	if (s->o->iozone) {
		s->cur_n = it->n;
		s->it_mono_ns = sb_now_ns();
		it->start_ns = soak_wall_ns();
		rc = soak_iozone_iteration(s, it);
		it->end_ns = soak_wall_ns();
		collect_kmsg(s, it);
		return rc;
	}
	memset(&r, 0, sizeof(r));
	r.o = &s->o->v;
	r.t = &s->t;
	r.hook = burst_hook;
	r.hook_ctx = &b;
	r.command = "soak";
	r.step = it->n;
	r.nsteps = soak_last_planned(s);
	r.eta = soak_eta;
	r.eta_ctx = s;
	s->cur_n = it->n;
	s->it_mono_ns = sb_now_ns();
	it->start_ns = soak_wall_ns();
	/* a generation no write of this soak used before (after a resume
	 * too: the run starts above any a killed iteration may have used): a
	 * block the device failed to write still carries an older one and is
	 * found stale, never intact */
	it->generation = s->gen_base + (it->n - s->gen_first);
	sb_verify_fmt_init(&r.res.fmt, s->seed, it->generation, s->o->v.block_size);
	if (sb_verify_acc_init(&r.res.acc, s->o->v.block_size, SB_SOAK_MAX_RANGES * 4) < 0) {
		sb_err("out of memory");
		return SB_EXIT_ENV;
	}
	/* many ranks: the phases' times on the coordination clock, and what
	 * rank 0 needs for the All clients figures */
	s->ph[0] = s->ph[1] = s->ph[2] = s->ph[3] = s->ph_start = cli_ranks_time();
	s->wbytes = s->rbytes = 0;
	const int made = s->region_mode || !(rc = verify_target_create(&s->t, &s->o->v));
	/* many ranks: when every one writes, rank 0's line shows them all
	 * (not with --burst: the pauses' agreements are the ranks' rounds
	 * then, and the line is rank 0's own) */
	b.ranks = cli_ranks() > 1 && s->o->burst_bytes;
	r.all_ranks = cli_ranks() > 1 && !cli_ranks_worst(!made) && !b.ranks;
	if (made) {
		s->ph[0] = cli_ranks_time();
		rc = verify_phase(&r, &s->t, s->ops, 1, "write");
		s->ph[1] = s->ph[2] = s->ph[3] = cli_ranks_time();
	}
	burst_finish(&b);
	s->wshared_s = b.shared_s;
	s->wpause_s = (double)b.slept_ns / 1e9;
	/* a full target: what was not written is not checked (it would read as
	 * foreign); the loop stops there */
	const int full = r.res.wr.errors && r.res.wr.first_error == ENOSPC;
	int check = made && !rc && !full && !cli_interrupted();
	/* many ranks: every one has written before any checks, and none
	 * checks when one could not write at all; the line shows them all
	 * when every one checks */
	r.all_ranks = 0;
	if (cli_ranks() > 1) {
		long v[2] = { rc ? 1 : 0, !check };
		cli_ranks_max(v, 2);
		if (v[0])
			check = 0;
		r.all_ranks = !v[0] && !v[1];
	}
	if (check) {
		it->cache = drop(s);
		const uint64_t t0 = sb_now_ns();
		s->ph[2] = cli_ranks_time();
		rc = verify_phase(&r, &s->t, s->ops, 0, "check");
		s->ph[3] = cli_ranks_time();
		s->check_ns = sb_now_ns() - t0;
	}
	if (!made)
		goto out;
	sb_verify_acc_finish(&r.res.acc);
	take_results(it, &r.res, b.slept_ns);
	s->wbytes = r.res.wr.bytes;
	s->rbytes = r.res.rd.bytes;
	s->wh = r.res.wr.lat;
	s->rh = r.res.rd.lat;
	if (!s->region_mode)
		verify_target_remove_created(&s->t);
out:
	it->end_ns = soak_wall_ns();
	s->ph_end = cli_ranks_time();
	collect_kmsg(s, it);
	sb_verify_acc_free(&r.res.acc);
	return rc;
}

void soak_print_iteration(FILE *f, const struct sb_soak_iter *it, int tty)
{
	char w[32], rd[32];
	const uint64_t bad = sb_soak_iter_bad(it);
	/* an iteration cut short checked part of its blocks, or none */
	fprintf(f, "%s%5llu  write %12s  read %12s  verify %s", tty ? "\r\033[K" : "",
		(unsigned long long)it->n, sb_fmt_rate(it->write_bw, w, sizeof(w)),
		sb_fmt_rate(it->read_bw, rd, sizeof(rd)),
		bad		  ? "FAILED"
		: it->interrupted ? "cut short"
				  : "ok");
	if (bad)
		fprintf(f, " (%llu of %llu blocks)", (unsigned long long)bad,
			(unsigned long long)it->blocks);
	fprintf(f, "  errors %llu", (unsigned long long)it->io_errors);
	if (it->nkmsg)
		fprintf(f, "  kernel: %s", it->kmsg[0].text);
	soak_print_other(f, it);
	if (it->unwritten)
		fprintf(f, "  %s: %llu blocks not written", strerror(ENOSPC),
			(unsigned long long)it->unwritten);
	if (it->interrupted)
		fprintf(f, "  (interrupted)");
	fputc('\n', f);
	for (size_t i = 0; i < it->nranges; i++) {
		char o[32], l[32];
		fprintf(f, "       %s at %s, %s\n", sb_verify_class_name(it->ranges[i].cls),
			sb_fmt_size(it->ranges[i].offset, o, sizeof(o)),
			sb_fmt_size(it->ranges[i].length, l, sizeof(l)));
	}
}

/*
 * A plan's run (plan_run.h): each target's steps in turn, or each target
 * in a process of its own (parallel), the journal consulted and added to,
 * the criteria judged.
 */
#include "lib/plan/plan_run.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "lib/json/json_read.h"

struct run {
	const struct sb_plan_run_opts *o;
	const struct sb_plan_hooks *h;
	struct sb_plan_result *res;
	char journal_path[PATH_MAX + 16];
	struct sb_plan_journal journal;
	size_t ti; /* parallel: the target of this process */
};

const char *sb_plan_signal_name(int sig)
{
	if (sig == SIGINT)
		return "SIGINT (Ctrl-C)";
	if (sig == SIGTERM)
		return "SIGTERM";
	if (sig == SIGHUP)
		return "SIGHUP";
	return "a signal";
}

static int stop_asked(const struct run *r)
{
	return r->h->stop ? r->h->stop(r->h->ctx) : 0;
}

static void tell(const struct run *r, enum sb_plan_event_kind kind, size_t ti, size_t si,
		 const char *why, uint64_t wait_ns)
{
	struct sb_plan_event ev = {
		kind,
		ti,
		si,
		r->o->pl->nsteps,
		&r->o->pl->steps[si],
		r->res->out[ti * r->o->pl->nsteps + si].target,
		why,
		wait_ns,
	};
	if (r->h->event)
		r->h->event(r->h->ctx, &ev);
}

/* The figures of a step's result file into f (its status set): 0, or -1
 * with why. */
static int step_figures(const char *result, int status, struct sb_figures *f, char *why, size_t wl)
{
	struct sb_jdoc *doc = NULL;
	struct sb_json_error je;
	struct sb_json_limits lim = { 256u << 20, 0 };
	struct sb_error err;
	int e = sb_json_parse_file(result, &lim, &doc, &je);
	if (e < 0) {
		snprintf(why, wl, "its result '%s' cannot be read: %s", result,
			 e == -EBADMSG ? je.msg : strerror(-e));
		return -1;
	}
	e = sb_figures_read(sb_jdoc_root(doc), f, &err);
	sb_jdoc_free(doc);
	if (e < 0 || sb_figures_set_status(f, status) < 0) {
		snprintf(why, wl, "its result '%.4200s': %.3000s", result,
			 e < 0 ? err.msg : "out of memory");
		return -1;
	}
	return 0;
}

/* The target left idle for ns before a step (wait=), a stop asked ending
 * it sooner. */
static void idle(const struct run *r, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !stop_asked(r))
		;
}

/* The journal's finished step, its figures read into so: 1; 0 when it
 * runs (not in the journal, or its result cannot be read). */
static int resumed(struct run *r, size_t ti, size_t si, struct sb_plan_outcome *so)
{
	const struct sb_plan_step *st = &r->o->pl->steps[si];
	const struct sb_plan_done *d = sb_plan_journal_find(&r->journal, so->target, st->name,
							    st->run);
	struct stat sb;
	if (!d || strcmp(d->result, so->result) || stat(d->result, &sb) < 0)
		return 0;
	if (step_figures(d->result, d->status, &so->figures, so->why, sizeof(so->why)) < 0) {
		/* a result that cannot be read is no result: the step runs again */
		tell(r, SB_PLAN_EV_RERUN, ti, si, so->why, 0);
		sb_figures_free(&so->figures);
		so->why[0] = 0;
		return 0;
	}
	so->status = d->status;
	so->resumed = 1;
	tell(r, SB_PLAN_EV_RESUMED, ti, si, NULL, 0);
	return 1;
}

/* The step run now: 0 with so->status (0 or 1), 1 skipped (optional), or
 * the exit code that stops the plan (so->why says why). */
static int run_now(struct run *r, size_t ti, size_t si, struct sb_plan_outcome *so)
{
	const struct sb_plan_step *st = &r->o->pl->steps[si];
	char out[PATH_MAX + 256], said[1024];
	int sig;
	snprintf(out, sizeof(out), "%.*s.txt", (int)(strlen(so->result) - 5), so->result);
	if (st->wait_ns && !stop_asked(r)) {
		tell(r, SB_PLAN_EV_WAIT, ti, si, NULL, st->wait_ns);
		idle(r, st->wait_ns);
	}
	tell(r, SB_PLAN_EV_START, ti, si, NULL, 0);
	const struct sb_plan_call c = { st, ti, so->target, so->result, out };
	said[0] = 0;
	sig = stop_asked(r);
	int status = sig ? SB_PLAN_STEP_SIGNAL + sig
			 : r->h->run_step(r->h->ctx, &c, said, sizeof(said));
	if ((sig = stop_asked(r))) {
		/* stopped: not in the journal, it runs again */
		so->interrupted = 1;
		r->res->interrupted = sig;
		r->res->interrupted_by = sb_plan_signal_name(sig);
		snprintf(so->why, sizeof(so->why),
			 "interrupted by %s: the plan run again resumes at it",
			 r->res->interrupted_by);
		return so->stopped = SB_PLAN_STEP_SIGNAL + sig;
	}
	if (status == 0 || status == 1) {
		so->status = status;
		return 0;
	}
	const char *m = said;
	if (!strncmp(m, "storbench: ", 11))
		m += 11;
	if (status < 0)
		snprintf(so->why, sizeof(so->why), "its command could not be started: %s",
			 strerror(-status));
	else
		snprintf(so->why, sizeof(so->why), "its command ended with exit code %d%s%s",
			 status, *m ? ": " : "", m);
	if (st->optional && status < SB_PLAN_STEP_SIGNAL) {
		/* optional: skipped, the plan goes on */
		so->skipped = 1;
		tell(r, SB_PLAN_EV_SKIPPED, ti, si, so->why, 0);
		return 1;
	}
	return so->stopped = status < 0 ? SB_PLAN_STEP_ENV : status;
}

/* One target's steps: each finished one (journal) judged, each other run
 * and judged in turn; the first that cannot run stops the target's plan:
 * its exit code, or 0. */
static int run_target(struct run *r, size_t ti)
{
	const struct sb_plan *pl = r->o->pl;
	for (size_t si = 0; si < pl->nsteps; si++) {
		const struct sb_plan_step *st = &pl->steps[si];
		struct sb_plan_outcome *so = &r->res->out[ti * pl->nsteps + si];
		if (r->res->ntargets > 1 && !st->target)
			snprintf(so->result, sizeof(so->result), "%s/%s-%zu.json", r->res->dir,
				 st->name, ti + 1);
		else
			snprintf(so->result, sizeof(so->result), "%s/%s.json", r->res->dir,
				 st->name);
		if (!resumed(r, ti, si, so)) {
			int rc = run_now(r, ti, si, so);
			if (rc == 1)
				continue;
			if (rc)
				return rc;
			if (step_figures(so->result, so->status, &so->figures, so->why,
					 sizeof(so->why)) < 0)
				return so->stopped = SB_PLAN_STEP_ENV;
		}
		so->ran = 1;
		if (!so->resumed) {
			struct sb_plan_done dn = { so->target, (char *)st->name, st->run,
						   so->result, so->status };
			struct sb_error err;
			if (sb_plan_journal_add(r->journal_path, &r->journal, &dn, &err) < 0) {
				snprintf(so->why, sizeof(so->why), "%s", err.msg);
				return so->stopped = SB_PLAN_STEP_ENV;
			}
		}
	}
	return 0;
}

/* ---- parallel: a process per target, its outcomes in shared memory ---- */
struct shared {
	int stopped, interrupted;
};

static int target_body(void *arg)
{
	struct run *r = arg;
	struct shared *sh = (struct shared *)(r->res->out + r->res->ntargets * r->o->pl->nsteps);
	sh[r->ti].stopped = run_target(r, r->ti);
	sh[r->ti].interrupted = r->res->interrupted;
	return 0;
}

static int run_parallel(struct run *r, struct sb_error *err)
{
	struct sb_plan_result *res = r->res;
	const size_t n = res->ntargets * r->o->pl->nsteps;
	const size_t bytes = n * sizeof(*res->out) + res->ntargets * sizeof(struct shared);
	struct sb_plan_outcome *mine = res->out;
	struct sb_plan_outcome *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
					   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t *pids = calloc(res->ntargets, sizeof(*pids));
	int e = 0;
	if (map == MAP_FAILED || !pids) {
		free(pids);
		if (map != MAP_FAILED)
			munmap(map, bytes);
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	}
	memcpy(map, mine, n * sizeof(*map));
	memset(map + n, 0, res->ntargets * sizeof(struct shared));
	res->out = map;
	for (size_t ti = 0; ti < res->ntargets; ti++) {
		r->ti = ti;
		pids[ti] = r->h->spawn(r->h->ctx, ti, target_body, r);
		if (pids[ti] < 0) {
			struct sb_plan_outcome *so = &map[ti * r->o->pl->nsteps];
			snprintf(so->why, sizeof(so->why), "its process could not be started: %s",
				 strerror((int)-pids[ti]));
			so->stopped = SB_PLAN_STEP_ENV;
			((struct shared *)(map + n))[ti].stopped = SB_PLAN_STEP_ENV;
		}
	}
	for (size_t ti = 0; ti < res->ntargets; ti++) {
		int status;
		while (pids[ti] > 0 && waitpid(pids[ti], &status, 0) < 0 && errno == EINTR)
			;
		if (pids[ti] > 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			/* the target's process ended before it said how */
			struct shared *sh = (struct shared *)(map + n);
			struct sb_plan_outcome *so = &map[ti * r->o->pl->nsteps];
			for (size_t si = 0; si < r->o->pl->nsteps; si++, so++)
				if (!so->ran && !so->skipped)
					break;
			if (so < &map[(ti + 1) * r->o->pl->nsteps] && !sh[ti].stopped) {
				snprintf(so->why, sizeof(so->why),
					 "the target's process ended by %s",
					 WIFSIGNALED(status) ? sb_plan_signal_name(WTERMSIG(status))
							     : "an error");
				sh[ti].stopped = so->stopped = SB_PLAN_STEP_ENV;
			}
		}
	}
	/* back to our memory; the figures are ours to read again */
	struct shared *sh = (struct shared *)(map + n);
	for (size_t i = 0; i < n && !e; i++) {
		mine[i] = map[i];
		memset(&mine[i].figures, 0, sizeof(mine[i].figures));
		if (mine[i].ran && step_figures(mine[i].result, mine[i].status, &mine[i].figures,
						mine[i].why, sizeof(mine[i].why)) < 0) {
			mine[i].ran = 0;
			mine[i].stopped = SB_PLAN_STEP_ENV;
		}
	}
	for (size_t ti = 0; ti < res->ntargets; ti++) {
		if (!res->stopped && sh[ti].stopped)
			res->stopped = sh[ti].stopped;
		if (sh[ti].interrupted && !res->interrupted) {
			res->interrupted = sh[ti].interrupted;
			res->interrupted_by = sb_plan_signal_name(sh[ti].interrupted);
		}
	}
	res->out = mine;
	munmap(map, bytes);
	free(pids);
	return e;
}

/* ---- criteria ---- */
static void tally_add(struct sb_plan_tally *t, const struct sb_plan_step *st,
		      const struct sb_plan_outcome *so)
{
	for (size_t k = 0; k < st->nex; k++) {
		struct sb_plan_judged j;
		if (so->skipped) {
			t->skipped++;
			continue;
		}
		if (!so->ran) {
			t->not_run++;
			continue;
		}
		sb_plan_judge(&st->ex[k], &so->figures, &j);
		j.pass ? t->passed++ : t->failed++;
	}
}

const char *sb_plan_tally_verdict(const struct sb_plan_tally *t, int interrupted, int stopped)
{
	return interrupted ? "INTERRUPTED" : stopped ? "INCOMPLETE" : t->failed ? "FAIL" : "PASS";
}

static void judge(struct sb_plan_result *res)
{
	const struct sb_plan *pl = res->pl;
	for (size_t ti = 0; ti < res->ntargets; ti++) {
		struct sb_plan_tally *t = &res->targets_tally[ti];
		int interrupted = 0, stopped = 0;
		for (size_t si = 0; si < pl->nsteps; si++) {
			const struct sb_plan_outcome *so = &res->out[ti * pl->nsteps + si];
			tally_add(t, &pl->steps[si], so);
			tally_add(&res->tally, &pl->steps[si], so);
			interrupted |= so->interrupted;
			stopped |= so->stopped;
		}
		t->verdict = sb_plan_tally_verdict(t, interrupted, stopped);
	}
	res->tally.verdict = sb_plan_tally_verdict(&res->tally, res->interrupted, res->stopped);
}

static int result_init(const struct sb_plan_run_opts *o, struct sb_plan_result *res,
		       struct sb_error *err)
{
	const size_t n = o->ntargets * o->pl->nsteps;
	memset(res, 0, sizeof(*res));
	res->pl = o->pl;
	res->file = o->file;
	res->ntargets = o->ntargets;
	res->targets = calloc(o->ntargets ? o->ntargets : 1, sizeof(*res->targets));
	res->targets_tally = calloc(o->ntargets ? o->ntargets : 1, sizeof(*res->targets_tally));
	res->out = calloc(n ? n : 1, sizeof(*res->out));
	if (!res->targets || !res->targets_tally || !res->out)
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	snprintf(res->dir, sizeof(res->dir), "%s", o->dir);
	for (size_t ti = 0; ti < o->ntargets; ti++) {
		snprintf(res->targets[ti], sizeof(res->targets[ti]), "%s", o->targets[ti]);
		for (size_t si = 0; si < o->pl->nsteps; si++) {
			const size_t i = ti * o->pl->nsteps + si;
			snprintf(res->out[i].target, sizeof(res->out[i].target), "%s",
				 o->step_targets ? o->step_targets[i] : o->targets[ti]);
		}
	}
	return 0;
}

int sb_plan_run(const struct sb_plan_run_opts *o, const struct sb_plan_hooks *h,
		struct sb_plan_result *out, struct sb_error *err)
{
	struct run r = { o, h, out, "", { 0 }, 0 };
	int e = result_init(o, out, err);
	if (e < 0)
		return e;
	if (!h || !h->run_step || (o->parallel && !h->spawn))
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "a plan's run needs a step runner (and a spawner in parallel)");
	snprintf(r.journal_path, sizeof(r.journal_path), "%s/journal.json", o->dir);
	if ((e = sb_plan_journal_read(r.journal_path, &r.journal, err)) < 0)
		return e;
	if (o->parallel && o->ntargets > 1)
		e = run_parallel(&r, err);
	else
		for (size_t ti = 0; ti < o->ntargets && !out->stopped; ti++)
			out->stopped = run_target(&r, ti);
	sb_plan_journal_free(&r.journal);
	if (e == 0)
		judge(out);
	return e;
}

void sb_plan_result_free(struct sb_plan_result *r)
{
	if (!r)
		return;
	if (r->out)
		for (size_t i = 0; i < r->ntargets * r->pl->nsteps; i++)
			sb_figures_free(&r->out[i].figures);
	free(r->out);
	free(r->targets);
	free(r->targets_tally);
	memset(r, 0, sizeof(*r));
}

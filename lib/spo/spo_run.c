/*
 * storbench spo's writer as one call (spo.h, sb_spo_write_run): the
 * journal made (a new file, never on the device under test), the writer of
 * spo_write.c run in a thread while this one tells the progress hook what
 * it did and, at the cut's moment, records the cut in the journal and has
 * the cut hook cut the power.
 */
#include "lib/spo/spo.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#define MSG_LEN 512
#define TICK_US 20000

struct writer {
	struct sb_spo_run *run;
	const struct sb_spo_hooks *h;
	int stop; /* the cut hook returned: the writer is stopped */
	int err;
	char msg[MSG_LEN];
	int done;
};

static int stop_asked(void *ctx)
{
	const struct writer *w = ctx;
	return (w->h->stop && w->h->stop(w->h->ctx)) || __atomic_load_n(&w->stop, __ATOMIC_RELAXED);
}

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	w->err = sb_spo_run_go(w->run, w->msg, sizeof(w->msg));
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The cut's delay after the start: in [min, max], from the seed and the
 * clock. */
static uint64_t cut_delay(const struct sb_spo_opts *o)
{
	uint64_t x = o->run_id ^ sb_now_ns();
	const uint64_t span = o->cut_max_ns - o->cut_min_ns;
	return o->cut_min_ns + (span ? (x * 0x9e3779b97f4a7c15ull >> 11) % (span + 1) : 0);
}

/* Until the writer ends: the progress told, the cut made when due. The
 * cut hook's status, -1 when no cut ran. */
static int supervise(struct writer *w, uint64_t cut_at)
{
	const struct sb_spo_hooks *h = w->h;
	int cut_rc = -1;
	while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
		const uint64_t now = sb_now_ns();
		if (cut_at && now >= cut_at && cut_rc < 0) {
			char msg[128];
			sb_spo_run_mark_cut(w->run);
			cut_rc = h->cut ? h->cut(h->ctx) : 0;
			/* still alive: a software reset still on its way, or a fake cut */
			snprintf(msg, sizeof(msg),
				 "the cut command returned (status %d) and the writer still runs: "
				 "stopping it",
				 cut_rc);
			if (h->note)
				h->note(h->ctx, msg);
			__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
		}
		if (h->progress) {
			struct sb_spo_counts c;
			sb_spo_run_counts(w->run, &c);
			h->progress(h->ctx, &c);
		}
		usleep(TICK_US);
	}
	return cut_rc;
}

/* The journal: o->journal a new file (never overwritten) or "-" (standard
 * output), or NULL: o->journal_fd as given; never the target itself nor a
 * file on it. *fd the journal, *made 1 when it was created here; lo's
 * journal_fd and journal_sync set. 0 or -errno with err. */
static int open_journal(const struct sb_spo_opts *o, struct sb_spo_opts *lo, int *made,
			struct sb_error *err)
{
	struct stat js, ts;
	const char *name = o->journal ? o->journal : "-";
	*made = 0;
	if (o->journal && strcmp(o->journal, "-")) {
		lo->journal_fd = open(o->journal, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (lo->journal_fd < 0)
			return sb_error_set(err, -errno,
					    errno == EEXIST ? SB_ERR_INPUT : SB_ERR_ENV,
					    "--journal: cannot create '%s': %s%s", o->journal,
					    strerror(errno),
					    errno == EEXIST ? " (a journal is never overwritten)"
							    : "");
		*made = 1;
	} else if (o->journal) {
		lo->journal_fd = 1;
	}
	if (fstat(lo->journal_fd, &js) || fstat(o->fd, &ts))
		return sb_error_set(err, -errno, SB_ERR_ENV, "--journal: cannot stat: %s",
				    strerror(errno));
	if ((S_ISBLK(ts.st_mode) && (js.st_dev == ts.st_rdev || js.st_rdev == ts.st_rdev)) ||
	    (S_ISREG(ts.st_mode) && js.st_dev == ts.st_dev && js.st_ino == ts.st_ino)) {
		if (*made) {
			close(lo->journal_fd);
			unlink(o->journal);
			*made = 0;
		}
		return sb_error_set(err, -EINVAL, SB_ERR_INPUT,
				    "--journal: '%s' is on the device under test: keep it on "
				    "another device",
				    name);
	}
	/* a file or a device is flushed per record; a pipe has nothing to flush */
	lo->journal_sync = S_ISREG(js.st_mode) || S_ISBLK(js.st_mode);
	return 0;
}

/* The writer until it ends (the journal open) */
static int write_run(const struct sb_spo_opts *o, struct sb_spo_opts *lo, struct writer *w,
		     struct sb_spo_result *out, struct sb_error *err)
{
	pthread_t th;
	lo->stop = stop_asked;
	lo->stop_ctx = w;
	int e = sb_spo_run_create(&w->run, lo, w->msg, sizeof(w->msg));
	if (e)
		return sb_error_set(err, e, e == -EINVAL ? SB_ERR_INPUT : sb_errno_class(e), "%s",
				    w->msg);
	const uint64_t cut_at = o->cut_max_ns ? sb_now_ns() + cut_delay(o) : 0;
	if (pthread_create(&th, NULL, writer_thread, w)) {
		sb_spo_run_free(w->run);
		return sb_error_set(err, -EAGAIN, SB_ERR_ENV, "cannot start the writer");
	}
	out->started = 1;
	out->cut_rc = supervise(w, cut_at);
	pthread_join(th, NULL);
	sb_spo_run_counts(w->run, &out->c);
	sb_spo_run_free(w->run);
	out->interrupted = w->h->stop && w->h->stop(w->h->ctx);
	/* after a cut the writer's failure is the cut's doing */
	if (w->err && out->cut_rc < 0)
		return sb_error_set(err, w->err, SB_ERR_FAIL, "%s", w->msg);
	return 0;
}

int sb_spo_write_run(const struct sb_spo_opts *o, const struct sb_spo_hooks *h,
		     struct sb_coord *coord, struct sb_spo_result *out, struct sb_error *err)
{
	static const struct sb_spo_hooks none;
	struct writer w = { .h = h ? h : &none };
	struct sb_error quiet;
	struct sb_spo_opts lo = *o;
	int made;
	(void)coord;
	err = err ? err : &quiet;
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	out->cut_rc = -1;
	int e = open_journal(o, &lo, &made, err);
	if (!e)
		e = write_run(o, &lo, &w, out, err);
	if (made && close(lo.journal_fd) && !e && !out->interrupted)
		e = sb_error_set(err, -errno, SB_ERR_ENV, "--journal: %s", strerror(errno));
	return e;
}

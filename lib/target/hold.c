/*
 * A run's hold on what it uses (hold.h): open file description locks past
 * any data, one to exclude, one to name the holder.
 */
#include "lib/target/hold.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define HOLD_AT ((off_t)1 << 62)   /* the hold: one byte */
#define NAME_AT (HOLD_AT + 1)	   /* + pid: the holder's name */
#define NAME_SPAN ((off_t)1 << 32) /* every pid */
#define NEW_TRIES 200		   /* sb_hold_new: 200 x 5 ms */
#define NAME_TRIES 100		   /* a holder names itself just after: 100 x 1 ms */

static int lock(int fd, int cmd, short type, off_t at, off_t len, struct flock *out)
{
	struct flock l = { .l_type = type, .l_whence = SEEK_SET, .l_start = at, .l_len = len };
	const int r = fcntl(fd, cmd, &l);
	if (out)
		*out = l;
	return r < 0 ? -errno : 0;
}

static void pause_ms(long ms)
{
	const struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* A name in [at, at + len) of another descriptor than fd's: its pid, 0
 * none, -1 a lock that is no name (another program's, over all the file). */
static long name_in(int fd, off_t at, off_t len)
{
	struct flock l;
	if (len <= 0 || lock(fd, F_OFD_GETLK, F_WRLCK, at, len, &l) < 0 || l.l_type == F_UNLCK)
		return 0;
	return l.l_len == 1 && l.l_start >= NAME_AT ? (long)(l.l_start - NAME_AT) : -1;
}

/* The pid a conflicting holder named itself with, 0 not known: another
 * process's first (this process may hold the file through another
 * descriptor too: a job file's jobs on one file), else this one's. A
 * holder takes its hold, then names itself: a moment may pass between. */
static long holder_of(int fd)
{
	const off_t me = getpid();
	for (int i = 0; i < NAME_TRIES; i++) {
		long who = name_in(fd, NAME_AT, me);
		if (!who)
			who = name_in(fd, NAME_AT + me + 1, NAME_SPAN - me - 1);
		if (!who)
			who = name_in(fd, NAME_AT + me, 1);
		if (who)
			return who < 0 ? 0 : who;
		pause_ms(1);
	}
	return 0;
}

/* No locks on this filesystem, or none of this kind: nothing to hold. */
static int no_locks(int e)
{
	return e == -ENOLCK || e == -EINVAL || e == -EOPNOTSUPP || e == -ENOSYS;
}

int sb_hold(int fd, int write, long *holder)
{
	*holder = 0;
	int e = lock(fd, F_OFD_SETLK, write ? F_WRLCK : F_RDLCK, HOLD_AT, 1, NULL);
	if (e == -EAGAIN || e == -EACCES) {
		*holder = holder_of(fd);
		/* this process holds it already (another of its descriptors):
		 * the run's own, as jobs of one job file share a file; a lock
		 * of another program over all the file keeps no reader off
		 * (a database's file may be measured), only a writer */
		return *holder == (long)getpid() || (!write && !*holder) ? 0 : -EBUSY;
	}
	if (e)
		return no_locks(e) ? 0 : e;
	/* shared: every reader names itself too; a failure leaves it unnamed */
	lock(fd, F_OFD_SETLK, F_RDLCK, NAME_AT + getpid(), 1, NULL);
	return 0;
}

int sb_hold_new(int fd, long *holder)
{
	int e = -EBUSY;
	for (int i = 0; i < NEW_TRIES && e == -EBUSY; i++) {
		if (i)
			pause_ms(5);
		e = sb_hold(fd, 1, holder);
	}
	return e;
}

int sb_hold_held(int fd, int write, long *holder)
{
	struct flock l;
	*holder = 0;
	if (lock(fd, F_OFD_GETLK, write ? F_WRLCK : F_RDLCK, HOLD_AT, 1, &l) < 0 ||
	    l.l_type == F_UNLCK)
		return 0;
	*holder = holder_of(fd);
	return *holder != (long)getpid();
}

long sb_hold_path(const char *path)
{
	long who = 0;
	const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		sb_hold_held(fd, 1, &who);
		close(fd);
	}
	return who;
}

void sb_hold_why(char *msg, size_t len, const char *path, long holder)
{
	if (holder > 0)
		snprintf(msg, len, "cannot use '%s': another storbench run (pid %ld) is using it",
			 path, holder);
	else
		snprintf(msg, len, "cannot use '%s': another program or run holds a lock on it",
			 path);
}

int sb_hold_refusal(struct sb_error *er, const char *path, long holder)
{
	char msg[sizeof(er->msg)];
	sb_hold_why(msg, sizeof(msg), path, holder);
	return sb_error_set(er, -EBUSY, SB_ERR_ENV, "%s", msg);
}

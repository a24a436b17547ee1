/*
 * A job file's read_iolog= logs: each read (relative to the current
 * directory, as fio reads it) and parsed (iolog.c), and its job made to
 * replay it: the file the log names (or replay_redirect=), a size that
 * holds every request, the directions it has, a block as long as its
 * longest request.
 */
#include "lib/job/iolog.h"
#include "lib/job/jobfile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define IOLOG_MAX (256u << 20) /* bytes of a log read whole */

static int read_all(const char *path, char **text, size_t *len)
{
	struct stat st;
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int e = fstat(fd, &st) < 0		   ? -errno
		: !S_ISREG(st.st_mode)		   ? -EINVAL
		: (uint64_t)st.st_size > IOLOG_MAX ? -EFBIG
						   : 0;
	char *buf = e ? NULL : malloc((size_t)st.st_size + 1);
	size_t got = 0;
	if (!e && !buf)
		e = -ENOMEM;
	while (!e && got < (size_t)st.st_size) {
		const ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* shorter than it was: what there is */
		got += (size_t)n;
	}
	close(fd);
	if (e) {
		free(buf);
		return e;
	}
	*text = buf;
	*len = got;
	return 0;
}

/* The job made to replay l. 0, or -EINVAL with why in msg. */
static int apply(struct sb_jobfile_job *j, const struct sb_iolog *l, char *msg, size_t msglen)
{
	struct sb_job_opts *o = &j->opts;
	const char *file = o->replay_redirect[0] ? o->replay_redirect : l->file;
	if (o->numjobs > 1 || o->loops > 1 || o->time_based || o->offset || o->offset_pct ||
	    o->size_pct || o->nrfiles > 1) {
		snprintf(msg, msglen,
			 "replayed as logged only: numjobs, loops, time_based, offset, nrfiles "
			 "and a size in percent are not supported with it");
		return -EINVAL;
	}
	if (j->filename[0] && strcmp(j->filename, file)) {
		snprintf(msg, msglen,
			 "the log replays on '%.200s', filename= names '%.200s' (name it with "
			 "replay_redirect=)",
			 file, j->filename);
		return -EINVAL;
	}
	if (o->size && o->size < l->end) {
		snprintf(msg, msglen, "the log reaches %llu bytes into the file, past size=%llu",
			 (unsigned long long)l->end, (unsigned long long)o->size);
		return -EINVAL;
	}
	if (!j->filename[0]) {
		const int rel = file[0] != '/' && j->directory[0];
		const int n = snprintf(j->filename, sizeof(j->filename), "%s%s%s",
				       rel ? j->directory : "", rel ? "/" : "", file);
		if (n < 0 || (size_t)n >= sizeof(j->filename)) {
			snprintf(msg, msglen, "the file's name is too long");
			return -EINVAL;
		}
		j->directory[0] = 0;
	}
	const int w = l->writes || l->trims;
	o->rw = l->reads && w	  ? SB_RW_RW
		: w && !l->writes ? SB_RW_TRIM
		: w		  ? SB_RW_WRITE
				  : SB_RW_READ;
	if (!o->size)
		o->size = l->end;
	o->nbssplit = o->nwbssplit = 0;
	o->bs = l->max_len ? l->max_len : (uint32_t)SB_MIN(l->end, 4096u);
	o->seq_add = 0;
	o->zone_size = 0;
	return 0;
}

int sb_jobfile_iologs(struct sb_jobfile *jf, char *msg, size_t msglen)
{
	for (unsigned i = 0; i < jf->njobs; i++) {
		struct sb_jobfile_job *j = &jf->jobs[i];
		struct sb_job_opts *o = &j->opts;
		char why[1024];
		char *text = NULL;
		size_t len = 0;
		if (!o->read_iolog[0])
			continue;
		if (!jf->iologs && !(jf->iologs = calloc(jf->njobs, sizeof(*jf->iologs))))
			return -ENOMEM;
		struct sb_iolog *l = &jf->iologs[i];
		int e = read_all(o->read_iolog, &text, &len);
		if (e < 0) {
			snprintf(msg, msglen, "job '%s': read_iolog=%s: %s", j->name, o->read_iolog,
				 strerror(-e));
			return e;
		}
		e = sb_iolog_parse(text, len, !o->replay_redirect[0], o->replay_scale,
				   o->replay_align, l, why, sizeof(why));
		free(text);
		if (e == -ENOMEM)
			return e;
		if (e < 0) {
			snprintf(msg, msglen, "job '%s': read_iolog=%s: %s", j->name, o->read_iolog,
				 why);
			return e;
		}
		l->no_stall = o->replay_no_stall;
		l->time_scale = o->replay_time_scale ? o->replay_time_scale : 100;
		if ((e = apply(j, l, why, sizeof(why))) < 0) {
			snprintf(msg, msglen, "job '%s' (line %u): read_iolog=%s: %s", j->name,
				 j->line, o->read_iolog, why);
			return e;
		}
		o->replay = l;
	}
	return 0;
}

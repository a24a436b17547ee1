/*
 * Fuzz target of the fio job-file reader (libFuzzer: make fuzz). Any input
 * must be read or refused without a crash, a leak or undefined behaviour;
 * a refusal says why, on a line of the input; what is read holds jobs
 * whose options are in range. Two inputs that mean the same must give the
 * same jobs: the same text with CRLF line ends, and the same text read
 * again with a message buffer too small for the message.
 * tests/unit/jobfile-corpus.c runs this same function over the corpus and
 * its mutations in make check, without clang.
 */
#include "lib/job/jobfile.h"
#include "lib/engine/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static const char *fuzz_env(const char *name)
{
	static char long_value[5000];
	if (!strcmp(name, "BS"))
		return "8k";
	if (!strcmp(name, "EMPTY"))
		return "";
	if (!strcmp(name, "LONG")) {
		if (!long_value[0])
			memset(long_value, 'v', sizeof(long_value) - 1);
		return long_value;
	}
	return NULL;
}

static int terminated(const char *s, size_t size)
{
	return memchr(s, 0, size) != NULL;
}

static void check_job(const struct sb_jobfile_job *j)
{
	const struct sb_job_opts *o = &j->opts;
	CHECK(terminated(j->name, sizeof(j->name)) && j->name[0]);
	CHECK(terminated(o->name, sizeof(o->name)) && o->name[0]);
	CHECK(terminated(o->engine, sizeof(o->engine)));
	CHECK(terminated(j->filename, sizeof(j->filename)));
	CHECK(terminated(j->directory, sizeof(j->directory)));
	CHECK(!j->filename[0] || !j->directory[0]);
	CHECK(j->line >= 1);
	CHECK(j->stonewall == 0 || j->stonewall == 1);
	CHECK((unsigned)o->rw <= SB_RW_RANDTRIMWRITE);
	CHECK(o->rwmixread <= 100 && o->buffer_compress <= 100);
	CHECK(o->bs >= 1 && o->iodepth >= 1 && o->numjobs >= 1);
	CHECK(o->nbssplit <= SB_BSSPLIT_MAX);
	/* a split for writes of their own: with the reads', reads and writes */
	CHECK(o->nwbssplit <= SB_BSSPLIT_MAX);
	CHECK(!o->nwbssplit || (o->nbssplit && (o->rw == SB_RW_RW || o->rw == SB_RW_RANDRW)));
	CHECK(o->direct_given && (o->direct == 0 || o->direct == 1));
	CHECK(o->log_interval_ns >= 1000000);
	CHECK(o->fiolog.on < 1u << SB_FIOLOG_KINDS && o->fiolog.hist_coarse <= 6);
	for (int k = 0; k < SB_FIOLOG_KINDS; k++)
		CHECK(terminated(o->fiolog.prefix[k], sizeof(o->fiolog.prefix[k])));
	CHECK(o->fiolog.jobnum >= 1);
	/* one of the registry's own names (fio's others run as one) */
	CHECK(sb_engine_is_known(o->engine));
	CHECK(o->stat_type <= SB_STAT_STATX);
	char msg[160] = "";
	CHECK(sb_job_check(o, msg, sizeof(msg)) == 0 || msg[0]);
}

static int same_opts(const struct sb_job_opts *a, const struct sb_job_opts *b)
{
	return !strcmp(a->name, b->name) && a->rw == b->rw && a->rwmixread == b->rwmixread &&
	       a->bs == b->bs && a->nbssplit == b->nbssplit &&
	       !memcmp(a->bssplit, b->bssplit, a->nbssplit * sizeof(a->bssplit[0])) &&
	       a->size == b->size && a->offset == b->offset && a->iodepth == b->iodepth &&
	       a->batch_complete == b->batch_complete && a->numjobs == b->numjobs &&
	       !strcmp(a->engine, b->engine) && a->direct == b->direct &&
	       a->runtime_ns == b->runtime_ns && a->time_based == b->time_based &&
	       a->ramp_ns == b->ramp_ns && a->fsync_every == b->fsync_every &&
	       a->end_fsync == b->end_fsync && a->sync == b->sync && a->seed == b->seed &&
	       a->rate_bps == b->rate_bps && a->dist == b->dist && a->dist_param == b->dist_param &&
	       a->buffer_compress == b->buffer_compress &&
	       a->continue_on_error == b->continue_on_error &&
	       a->log_interval_ns == b->log_interval_ns;
}

static int same_file(const struct sb_jobfile *a, const struct sb_jobfile *b)
{
	if (a->njobs != b->njobs || a->nnotes != b->nnotes)
		return 0;
	for (unsigned i = 0; i < a->njobs; i++) {
		const struct sb_jobfile_job *x = &a->jobs[i], *y = &b->jobs[i];
		if (strcmp(x->name, y->name) || x->line != y->line ||
		    strcmp(x->filename, y->filename) || strcmp(x->directory, y->directory) ||
		    x->stonewall != y->stonewall || !same_opts(&x->opts, &y->opts))
			return 0;
	}
	for (unsigned i = 0; i < a->nnotes; i++)
		if (strcmp(a->notes[i], b->notes[i]))
			return 0;
	return 1;
}

/* The input with "\r\n" for "\n", when no line grows past the limit. */
static char *with_crlf(const char *s, size_t size, size_t *outlen)
{
	size_t n = 0, linelen = 0;
	for (size_t i = 0; i < size; i++) {
		if (s[i] == '\n') {
			if (linelen >= 4096)
				return NULL;
			linelen = 0;
			n++;
		} else {
			linelen++;
		}
	}
	char *out = malloc(size + n + 1);
	CHECK(out != NULL);
	size_t o = 0;
	for (size_t i = 0; i < size; i++) {
		if (s[i] == '\n')
			out[o++] = '\r';
		out[o++] = s[i];
	}
	*outlen = o;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct sb_jobfile *jf = NULL, *again = NULL;
	char msg[256], small[16];

	int rc = sb_jobfile_parse(text, size, fuzz_env, &jf, msg, sizeof(msg));
	int rc2 = sb_jobfile_parse(text, size, fuzz_env, &again, small, sizeof(small));
	CHECK(rc == rc2);
	if (rc < 0) {
		CHECK(rc == -EINVAL && jf == NULL && again == NULL);
		CHECK(msg[0] && terminated(msg, sizeof(msg)));
		CHECK(!strncmp(msg, "line ", 5) || !strncmp(msg, "no job section", 14));
		CHECK(!strncmp(msg, small, strlen(small)));
		return 0;
	}
	CHECK(jf != NULL && again != NULL);
	CHECK(jf->njobs >= 1 && jf->njobs <= SB_JOBFILE_MAX_JOBS);
	CHECK(jf->nnotes <= SB_JOBFILE_MAX_NOTES);
	for (unsigned i = 0; i < jf->nnotes; i++)
		CHECK(terminated(jf->notes[i], sizeof(jf->notes[i])) &&
		      !strncmp(jf->notes[i], "line ", 5));
	for (unsigned i = 0; i < jf->njobs; i++)
		check_job(&jf->jobs[i]);
	CHECK(same_file(jf, again));
	sb_jobfile_free(again);

	size_t crlf_len;
	char *crlf = with_crlf(text, size, &crlf_len);
	if (crlf) {
		again = NULL;
		CHECK(sb_jobfile_parse(crlf, crlf_len, fuzz_env, &again, msg, sizeof(msg)) == 0);
		CHECK(same_file(jf, again));
		sb_jobfile_free(again);
		free(crlf);
	}
	sb_jobfile_free(jf);
	return 0;
}

/* --resume: a soak's log read back for the run that goes on with it
 * (soak.h); under mpirun every rank's, cut to what all of them hold. */
#include "lib/soak/soak_int.h"

int sb_soak_resume_args_ok(int argc, char **argv, char *msg, size_t ml)
{
	/* --db and --label say where its result is recorded, as --output */
	static const char *const ok[] = { "resume", "iterations", "duration", "output",
					  "format", "quiet",	  "db",	      "label" };
	/* iozone's options (a resumed soak's come from its log) */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		if (strncmp(a, "--", 2))
			continue;
		size_t n = strcspn(a + 2, "=");
		unsigned k = 0;
		while (k < SB_ARRAY_SIZE(ok) && (strlen(ok[k]) != n || strncmp(ok[k], a + 2, n)))
			k++;
		if (k == SB_ARRAY_SIZE(ok))
			return snprintf(msg, ml,
					"--%.*s: not with --resume: the soak goes on with the "
					"options it started with (only --iterations, --duration, "
					"--output, --format, --quiet, --db and --label may be given)",
					(int)n, a + 2),
			       -EINVAL;
		if (!a[2 + n] && strcmp(ok[k], "quiet"))
			i++; /* its value follows */
	}
	return 0;
}

void sb_soak_resume_free(struct sb_soak_resume *r)
{
	if (!r)
		return;
	for (int i = 0; r->argv && i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	if (r->st) {
		sb_soak_iters_free(r->st->it, r->st->nit);
		sb_soak_iters_free(r->st->agg, r->st->nagg);
		for (size_t i = 0; i < r->st->nleft; i++)
			free(r->st->left[i].path);
		free(r->st->left);
		free(r->st);
	}
	free(r->log);
	free(r);
}

int sb_soak_resume(const char *log, const struct sb_soak_hooks *h, struct sb_coord *coord,
		   struct sb_soak_resume **out, struct sb_error *err)
{
	static const struct sb_soak_hooks none;
	struct soak *s = calloc(1, sizeof(*s));
	struct sb_soak_resume *r = calloc(1, sizeof(*r));
	char mine[4200];
	int e = 0;
	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (!s || !r || !(r->st = calloc(1, sizeof(*r->st))) || !(r->log = strdup(log))) {
		free(s);
		sb_soak_resume_free(r);
		return sb_error_set(err, -ENOMEM, SB_ERR_ENV, "out of memory");
	}
	s->h = h ? h : &none;
	s->co = coord;
	s->err = err;
	s->nranks = coord ? sb_coord_size(coord) : 1;
	s->rank = coord ? sb_coord_rank(coord) : 0;
	/* many ranks: each resumes its own log, from where all can */
	if (s->nranks > 1)
		soak_ranks_log_name(s, log, mine, sizeof(mine));
	e = soak_log_read(s, s->nranks > 1 ? mine : log, r);
	if (!e && s->nranks < 2 && r->st->ranks)
		e = soak_fail(s, -EINVAL, SB_ERR_INPUT,
			      "--resume: '%s' is a log of a soak of %u ranks: resume it under "
			      "mpirun -n %u with the name it started with",
			      log, r->st->ranks, r->st->ranks);
	if (!(e = soak_agree(s, e, err->cls)) && s->nranks > 1)
		e = soak_ranks_resume(s, r);
	free(s);
	if (e) {
		sb_soak_resume_free(r);
		return e;
	}
	*out = r;
	return 0;
}

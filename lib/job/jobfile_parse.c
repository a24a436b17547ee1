/*
 * fio job files: the line reader (sections, comments, include, ${NAME}),
 * which hands each key=value to its setter in the table of
 * jobfile_opts.c. [global] and the job being read are each a struct
 * state; a job section starts as a copy of [global] as it stands, which is
 * fio's def_thread.
 */
#include "lib/job/jobfile_int.h"
#include "lib/stats/fio_ss.h"
#include "lib/engine/engine.h"
#include "lib/job/fio_names.h"
#include "lib/job/iolog.h"

#include <assert.h>
#include <inttypes.h>

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

static char *trim(char *s)
{
	while (is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n && is_blank(s[n - 1]))
		s[--n] = 0;
	return s;
}

/* A line whose first non-blank is ';' or '#' is all comment; elsewhere a
 * comment starts at a blank followed by ';' or '#'. */
static void strip_comment(char *s)
{
	while (is_blank(*s))
		s++;
	if (*s == ';' || *s == '#') {
		*s = 0;
		return;
	}
	for (size_t i = 1; s[i]; i++) {
		if ((s[i] == ';' || s[i] == '#') && is_blank(s[i - 1])) {
			s[i] = 0;
			return;
		}
	}
}

/* Not recursive: a value holding "${" stays as it is. */
static int expand(struct ctx *c, const char *in, char *out)
{
	size_t o = 0;
	while (*in) {
		if (in[0] != '$' || in[1] != '{') {
			if (o == MAX_LINE)
				return sb_jf_fail(c, "longer than %d bytes once ${...} is replaced",
						  MAX_LINE);
			out[o++] = *in++;
			continue;
		}
		const char *close = strchr(in + 2, '}');
		if (!close)
			return sb_jf_fail(c, "'${' without a closing '}'");
		size_t nlen = (size_t)(close - (in + 2));
		char name[MAX_ENV_NAME + 1];
		if (nlen > MAX_ENV_NAME)
			return sb_jf_fail(c, "${%.32s...}: longer than %d bytes", in + 2,
					  MAX_ENV_NAME);
		memcpy(name, in + 2, nlen);
		name[nlen] = 0;
		const char *v = c->env ? c->env(name) : NULL;
		if (!v)
			return sb_jf_fail(c, "${%s} is not set", name);
		size_t vlen = strlen(v);
		if (vlen > MAX_LINE - o)
			return sb_jf_fail(c, "longer than %d bytes once ${%s} is replaced",
					  MAX_LINE, name);
		memcpy(out + o, v, vlen);
		o += vlen;
		in = close + 1;
	}
	out[o] = 0;
	return 0;
}

/* zonemode=strided: what storbench's sequential step can do as fio.
 * 0, or -EINVAL naming the zonemode line. */
static int zones_ok(struct ctx *c, const struct state *s)
{
	const struct sb_job_opts *o = &s->opts;
	const char *why = sb_rw_is_random(o->rw) ? "random I/O in zones is not supported"
			  : o->nbssplit		 ? "one block size (bs=), not bssplit or bsrange"
			  : o->seq_add		 ? "not with rw's :SIZE steps"
			  : o->nrfiles > 1	 ? "one file (nrfiles=1)"
			  : s->zonesize % o->bs	 ? "zonesize a multiple of bs"
			  : s->zonesize > UINT32_MAX ? "zonesize at most 4g"
						     : NULL;
	if (!why)
		return 0;
	c->line = s->zone_line;
	return sb_jf_fail(c, "zonemode=strided: %s ([%s])", why, c->sec_name);
}

/* The directions rw uses: reads, writes (randtrimwrite's take their
 * trim's size), trims. */
static void dirs_used(enum sb_rw rw, int use[3])
{
	use[0] = sb_rw_reads(rw);
	use[1] = rw == SB_RW_TRIMWRITE || (sb_rw_writes(rw) && !sb_rw_trims(rw));
	use[2] = sb_rw_trims(rw);
}

/* Sizes in zones (fio's size=Nz, offset=Nz) in bytes, and zonemode=zbd
 * checked and taken as fio 3.33 takes it on a target without zones: a
 * job that writes, trims or reads at random works on whole zones (its
 * offset rounded up to a zone's start, its size down to a zone's end).
 * 0, or -EINVAL naming the line. */
static int zbd_of(struct ctx *c, const struct state *s, struct sb_job_opts *jo)
{
	const uint64_t zs = s->zonesize;
	if ((s->size_nz || s->offset_nz) && !zs) {
		c->line = s->size_nz ? s->size_nz_line : s->offset_nz_line;
		return sb_jf_fail(c, "%s: a number of zones needs zonesize= ([%s])",
				  s->size_nz ? "size" : "offset", c->sec_name);
	}
	if (s->size_nz) {
		if (s->size_nz > UINT64_MAX / 4 / zs) {
			c->line = s->size_nz_line;
			return sb_jf_fail(c, "size: %" PRIu64 " zones of %" PRIu64 " bytes is too large",
					  s->size_nz, zs);
		}
		jo->size = s->size_nz * zs;
	}
	if (s->offset_nz) {
		if (s->offset_nz > UINT64_MAX / 4 / zs) {
			c->line = s->offset_nz_line;
			return sb_jf_fail(c,
					  "offset: %" PRIu64 " zones of %" PRIu64 " bytes is too large",
					  s->offset_nz, zs);
		}
		jo->offset = s->offset_nz * zs;
	}
	if (!s->zbd)
		return 0;
	c->line = s->zone_line;
	const char *why = !zs			      ? "zonesize= is required"
			  : zs < 512		      ? "zonesize must be at least 512"
			  : s->zonecap > zs	      ? "zonecapacity above zonesize"
			  : sb_job_max_bs(jo) > zs    ? "a block size above zonesize"
			  : jo->fio_verify[0]	      ? "verify= is not supported with it"
			  : jo->replay		      ? "read_iolog= is not supported with it"
			  : jo->nrfiles > 1	      ? "one file (nrfiles=1)"
			  : jo->rw == SB_RW_TRIMWRITE || jo->rw == SB_RW_RANDTRIMWRITE
				  ? "rw=trimwrite and randtrimwrite are not supported with it"
			  : jo->size_pct || jo->offset_pct ? "give offset and size in bytes or zones, "
							     "not percent"
			  : jo->zbd.job_max_open && !jo->zbd.max_open
				  ? "job_max_open_zones needs max_open_zones"
				  : NULL;
	if (!why && sb_rw_trims(jo->rw) && (jo->nbssplit || jo->bs != zs))
		why = "a trim's block size must be zonesize (a trim resets a zone)";
	if (why)
		return sb_jf_fail(c, "zonemode=zbd: %s ([%s])", why, c->sec_name);
	/* fio's zbd_zone_align_file_sizes: all but a sequential read job */
	if (jo->rw != SB_RW_READ) {
		const uint64_t up = (jo->offset + zs - 1) / zs * zs;
		if (jo->size && (jo->size <= up - jo->offset || (jo->size - (up - jo->offset)) < zs))
			return sb_jf_fail(c, "zonemode=zbd: [%s]'s size must be at least one zone",
					  c->sec_name);
		if (jo->size)
			jo->size = (jo->size - (up - jo->offset)) / zs * zs;
		jo->offset = up;
	}
	jo->zbd.on = 1;
	jo->zbd.zone_size = zs;
	jo->zbd.zone_cap = s->zonecap;
	return 0;
}

/* fio's bs=READ,WRITE,TRIM: the one size of the directions the job's rw
 * uses (randtrimwrite's writes take their trim's size; trimwrite's have
 * their own in fio, so they must agree), into *bs; 0 when they differ. */
static int bs_of_dirs(const struct state *s, uint32_t *bs)
{
	const enum sb_rw rw = s->opts.rw;
	int use[3];
	dirs_used(rw, use);
	*bs = 0;
	for (int d = 0; d < 3; d++) {
		if (!use[d])
			continue;
		if (*bs && *bs != s->bsdir[d])
			return 0;
		*bs = s->bsdir[d];
	}
	return 1;
}

/* fio's cpuio and exec: what each needs, and a job bound by its runtime
 * alone (its requests move nothing, so no size ever ends it) */
static int timed_job(struct ctx *c, struct sb_job_opts *jo, const struct sb_engine_ops *eng)
{
	c->line = c->sec_line;
	if (!strcmp(eng->name, "cpuio") && !jo->cpuio.load)
		return sb_jf_fail(c,
				  "[%s]: ioengine=cpuio needs cpuload= (a percent of a CPU, 1 "
				  "to 100)",
				  c->sec_name);
	if (!strcmp(eng->name, "exec") && !jo->exec.program[0])
		return sb_jf_fail(c, "[%s]: ioengine=exec needs program= (the program to run)",
				  c->sec_name);
	if (!jo->runtime_ns)
		return sb_jf_fail(c,
				  "[%s]: ioengine=%s needs runtime= (its requests move no data: "
				  "fio's job runs until it is stopped)",
				  c->sec_name, eng->name);
	jo->time_based = 1;
	return 0;
}

static int same_split(const struct sb_bssplit *a, unsigned na, const struct sb_bssplit *b,
		      unsigned nb)
{
	return na == nb && !memcmp(a, b, na * sizeof(*a));
}

/* fio's bssplit=READ,WRITE,TRIM for the directions the job's rw uses,
 * each its member's split or (empty) its bs as one entry: one split into
 * jo when they agree, else the reads' and the writes' (fio draws each
 * request's size from its direction's); trims of a split of their own are
 * refused. 0 or -EINVAL. */
static int splits_of_dirs(struct ctx *c, const struct state *s, struct sb_job_opts *jo)
{
	struct sb_bssplit own[3];
	const struct sb_bssplit *sp[3];
	unsigned n[3], first = 3;
	int use[3], differ = 0;
	dirs_used(s->opts.rw, use);
	for (unsigned d = 0; d < 3; d++) {
		sp[d] = s->dsplit[d];
		n[d] = s->ndsplit[d];
		if (!n[d]) { /* the direction's bs */
			own[d].bs = s->bsdir_line ? s->bsdir[d] : s->opts.bs;
			own[d].pct = 100;
			sp[d] = &own[d];
			n[d] = 1;
		}
		if (!use[d])
			continue;
		if (first == 3)
			first = d;
		else if (!same_split(sp[first], n[first], sp[d], n[d]))
			differ = 1;
	}
	if (first == 3)
		return 0;
	if (differ && use[2]) {
		c->line = s->dsplit_line;
		return sb_jf_fail(c,
				  "bssplit: a split for trims of their own is not supported "
				  "(rw=%s in [%s]: give its directions one split)",
				  sb_rw_name(s->opts.rw), c->sec_name);
	}
	jo->nwbssplit = 0;
	if (!s->ndsplit[first] && !differ) { /* bs alone */
		jo->nbssplit = 0;
		jo->bs = sp[first]->bs;
		return 0;
	}
	memcpy(jo->bssplit, sp[first], n[first] * sizeof(*sp[first]));
	jo->nbssplit = n[first];
	if (differ) {
		memcpy(jo->wbssplit, sp[1], n[1] * sizeof(*sp[1]));
		jo->nwbssplit = n[1];
	}
	return 0;
}

/* A filename= list with directory=: each relative name inside it, as fio
 * puts a single one. 0, or -EINVAL naming the section. */
static int list_in_directory(struct ctx *c, const struct state *s, struct sb_job_opts *o)
{
	char out[sizeof(o->filenames)];
	size_t n = 0, dl = strlen(s->directory);
	const char *sep = s->directory[dl - 1] == '/' ? "" : "/";
	for (unsigned i = 0; i < o->nfilenames; i++) {
		const char *name = sb_job_filename_at(o->filenames, i);
		const int w = snprintf(out + n, sizeof(out) - n, "%s%s%s",
				       name[0] == '/' ? "" : s->directory,
				       name[0] == '/' ? "" : sep, name);
		if (w < 0 || (size_t)w >= sizeof(out) - n) {
			c->line = c->sec_line;
			return sb_jf_fail(c,
					  "[%s]: directory and the filename= list together are longer "
					  "than %zu bytes",
					  c->sec_name, sizeof(out) - 1);
		}
		n += (size_t)w + 1;
	}
	memcpy(o->filenames, out, n);
	return 0;
}

/* The job section that ends here, into the file's list. */
static int end_section(struct ctx *c)
{
	struct sb_jobfile *jf = c->jf;
	const struct state *s = &c->job;

	if (c->sec != SEC_JOB)
		return 0;
	c->sec = SEC_NONE;
	assert(jf->njobs < SB_JOBFILE_MAX_JOBS);
	if (jf->njobs == c->jobcap) {
		unsigned cap = c->jobcap ? c->jobcap * 2 : 4;
		struct sb_jobfile_job *nj = realloc(jf->jobs, cap * sizeof(*nj));
		if (!nj)
			return -ENOMEM;
		jf->jobs = nj;
		c->jobcap = cap;
	}
	const unsigned nrfiles = s->opts.nrfiles ? s->opts.nrfiles : 1;
	/* an engine that works on its files by name holds none open */
	const struct sb_engine_ops *mk = sb_engine_find(s->opts.engine);
	if (s->openfiles && s->openfiles < nrfiles && !(mk && (mk->flags & SB_ENGINE_MKFILES))) {
		c->line = s->openfiles_line;
		return sb_jf_fail(c,
				  "openfiles: %u of nrfiles=%u open at a time is not supported "
				  "(storbench keeps every file of a job open: 0, or at least %u)",
				  s->openfiles, nrfiles, nrfiles);
	}
	/* as many files as the run takes (in a directory unless filename=) */
	char why[160];
	if (s->nrfiles_line && sb_job_nrfiles_check(&s->opts, !s->filename[0], why, sizeof(why))) {
		c->line = s->nrfiles_line;
		return sb_jf_fail(c, "%s ([%s])", why, c->sec_name);
	}
	/* after a job that waits for one job, fio starts a job without
	 * stonewall or wait_for at once: groups cannot say that */
	if (c->last_wait_for && !s->stonewall) {
		c->line = c->sec_line;
		return sb_jf_fail(c,
				  "[%s]: fio starts it at once, while the job before waits "
				  "(wait_for=): give it stonewall or wait_for, or move it before",
				  c->sec_name);
	}
	c->last_wait_for = s->wait_for;
	if (s->strided && s->zonesize) {
		int r = zones_ok(c, s);
		if (r)
			return r;
	}
	if (s->trim_rate_line && sb_rw_trims(s->opts.rw)) {
		c->line = s->trim_rate_line;
		return sb_jf_fail(c,
				  "%s: a cap on trims is not supported (storbench caps reads and "
				  "writes; [%s] trims)",
				  s->trim_rate, c->sec_name);
	}
	for (int d = 0; d < 2; d++) {
		const struct sb_job_opts *o = &s->opts;
		const uint64_t cap = o->rate_dir_bps[d] ? o->rate_dir_bps[d] : o->rate_bps;
		const uint64_t icap = o->rate_iops_dir[d] ? o->rate_iops_dir[d] : o->rate_iops;
		if ((cap && cap < o->ratemin_bps[d]) || (icap && icap < o->ratemin_iops[d])) {
			c->line = c->sec_line;
			return sb_jf_fail(c,
					  "[%s]: the %s' minimum rate exceeds their rate, as fio "
					  "says it (rate_min above rate, or rate_iops_min above "
					  "rate_iops)",
					  c->sec_name, d ? "writes" : "reads");
		}
	}
	uint32_t bs = 0;
	if (s->bsdir_line && !s->dsplit_line && !bs_of_dirs(s, &bs)) {
		c->line = s->bsdir_line;
		return sb_jf_fail(c,
				  "bs: a size for each direction (%u,%u,%u) is not supported: "
				  "storbench takes one for the directions rw=%s uses ([%s])",
				  s->bsdir[0], s->bsdir[1], s->bsdir[2], sb_rw_name(s->opts.rw),
				  c->sec_name);
	}
	if (s->opts.write_iolog[0] && !strcmp(s->opts.write_iolog, s->filename)) {
		c->line = c->sec_line;
		return sb_jf_fail(c, "[%s]: write_iolog=%s names the job's own file", c->sec_name,
				  s->opts.write_iolog);
	}
	if (s->opts.write_iolog[0] && s->opts.numjobs > 1) {
		c->line = c->sec_line;
		return sb_jf_fail(c,
				  "[%s]: write_iolog with numjobs=%u is not supported (fio's clones "
				  "each write over the one log): give each its own job",
				  c->sec_name, s->opts.numjobs);
	}
	if ((s->opts.verify_state_save || s->opts.verify_state_load) &&
	    (s->opts.numjobs > 1 || (s->opts.nrfiles > 1 && s->opts.nfilenames < 2))) {
		c->line = c->sec_line;
		return sb_jf_fail(c,
				  "[%s]: verify_state_%s with %s above 1 is not supported (storbench "
				  "keeps the state of one file per job)",
				  c->sec_name, s->opts.verify_state_save ? "save" : "load",
				  s->opts.numjobs > 1 ? "numjobs" : "nrfiles");
	}
	if (s->opts.verify_state_load && sb_rw_writes(s->opts.rw)) {
		c->line = c->sec_line;
		return sb_jf_fail(c,
				  "[%s]: verify_state_load with rw=%s: the state is checked by a job "
				  "that only reads (fio's verify_only is not supported)",
				  c->sec_name, sb_rw_name(s->opts.rw));
	}
	if (s->serialize_line && s->opts.iodepth > 1) {
		c->line = s->serialize_line;
		return sb_jf_fail(c,
				  "serialize_overlap=1: with iodepth=%u storbench does not keep "
				  "overlapping requests apart ([%s]; taken with iodepth=1)",
				  s->opts.iodepth, c->sec_name);
	}
	struct sb_jobfile_job *j = &jf->jobs[jf->njobs];
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", c->sec_name);
	j->line = c->sec_line;
	j->opts = s->opts;
	/* a filename= list: its names are the job's files, as many as nrfiles */
	if (j->opts.nfilenames > 1)
		j->opts.nrfiles = j->opts.nfilenames;
	if (bs)
		j->opts.bs = bs;
	if (s->dsplit_line) {
		int r = splits_of_dirs(c, s, &j->opts);
		if (r)
			return r;
	}
	j->stonewall = s->stonewall;
	j->new_group = s->new_group;
	/* fio numbers its threads 1, 2, ... across the jobs, numjobs each */
	j->opts.fiolog.jobnum = c->threads + 1;
	c->threads += s->opts.numjobs;
	/* filesize= of one file: the file is that long, and fio moves no more
	 * than the files hold (filesetup.c: size capped at their total) */
	struct sb_job_opts *jo = &j->opts;
	int zr = zbd_of(c, s, jo);
	if (zr)
		return zr;
	if (jo->nrfiles <= 1 && jo->filesize_lo && jo->filesize_lo == jo->filesize_hi &&
	    !jo->size_pct && (!jo->size || jo->size > jo->filesize_lo))
		jo->size = jo->filesize_lo;
	/* time_based without runtime: fio 3.33 says so and runs the job
	 * bound by its size (init.c clears time_based) */
	if (jo->time_based && !jo->runtime_ns) {
		c->line = c->sec_line;
		sb_jf_note(c, "[%s]: time_based without runtime: bound by its size, as fio",
			   c->sec_name);
		jo->time_based = 0;
	}
	/* offset_increment: size becomes the span of the clones' regions */
	if (jo->offset_increment && jo->numjobs > 1) {
		const uint64_t more = jo->offset_increment * (jo->numjobs - 1);
		if (jo->nrfiles > 1 || jo->size_pct || jo->size > UINT64_MAX / 4 - more)
			c->line = s->offset_inc_line;
		if (jo->nrfiles > 1 || jo->size_pct)
			return sb_jf_fail(c,
					  "offset_increment: with %s is not supported by storbench "
					  "([%s])",
					  jo->nrfiles > 1 ? "nrfiles above 1" : "a size in percent",
					  c->sec_name);
		if (jo->size > UINT64_MAX / 4 - more)
			return sb_jf_fail(c,
					  "offset_increment: the clones' span is too large ([%s])",
					  c->sec_name);
		if (jo->size)
			jo->size += more;
	}
	if (s->strided && s->zonesize) {
		jo->zone_size = s->zonesize;
		jo->zone_skip = s->zoneskip;
	}
	/* do_verify=0: fio writes its verify headers and checks nothing (a
	 * job that only reads then verifies nothing at all) */
	if (!s->do_verify && !sb_rw_writes(j->opts.rw))
		j->opts.fio_verify[0] = 0;
	/* an engine that moves no data (null): nothing to check; fio checks
	 * nothing either (t/jobs/t0009), and counts no verify reads of a
	 * time_based job (of a job bound by size it counts them) */
	const struct sb_engine_ops *eng = sb_engine_find(j->opts.engine);
	if (j->opts.fio_verify[0] && eng && (eng->flags & SB_ENGINE_NOIO)) {
		c->line = c->sec_line;
		sb_jf_note(c,
			   "[%s]: verify=%s with ioengine=%s: nothing to check (no verify reads "
			   "counted, as fio's time_based job)",
			   c->sec_name, j->opts.fio_verify, eng->name);
		j->opts.fio_verify[0] = 0;
	}
	const int timed = eng && (eng->flags & SB_ENGINE_TIMED) ? timed_job(c, &j->opts, eng) : 0;
	if (timed < 0)
		return timed;
	j->opts.fio_verify_nocheck = !s->do_verify && j->opts.fio_verify[0];
	/* fio ends a job that only reads with verify= after its first pass
	 * (its reads are the check: measured in fio 3.33, loops=3 reads the
	 * size once) */
	if (j->opts.fio_verify[0] && !sb_rw_writes(j->opts.rw))
		j->opts.loops = 1;
	if (s->filename[0] && s->directory[0] && s->filename[0] != '/') {
		size_t dl = strlen(s->directory);
		const char *sep = s->directory[dl - 1] == '/' ? "" : "/";
		int n = snprintf(j->filename, sizeof(j->filename), "%s%s%s", s->directory, sep,
				 s->filename);
		if (n < 0 || (size_t)n >= sizeof(j->filename)) {
			c->line = c->sec_line;
			return sb_jf_fail(c,
					  "[%s]: directory and filename together are longer than "
					  "%zu bytes",
					  c->sec_name, sizeof(j->filename) - 1);
		}
	} else if (s->filename[0]) {
		memcpy(j->filename, s->filename, sizeof(j->filename));
	} else {
		memcpy(j->directory, s->directory, sizeof(j->directory));
	}
	if (j->opts.nfilenames > 1 && s->directory[0] && list_in_directory(c, s, &j->opts) < 0)
		return -EINVAL;
	j->raw = c->jobraw;
	memset(&c->jobraw, 0, sizeof(c->jobraw));
	jf->njobs++;
	return 0;
}

/* "[name]", already trimmed. fio takes any section whose name begins with
 * "global" as [global]. */
static int section(struct ctx *c, char *l)
{
	size_t n = strlen(l);
	if (n < 2 || l[n - 1] != ']')
		return sb_jf_fail(c, "'%.*s' is not a section header (expected [name])", QUOTE_MAX,
				  l);
	l[n - 1] = 0;
	char *name = trim(l + 1);
	if (!*name || strpbrk(name, "[]"))
		return sb_jf_fail(c, "'%.*s]' is not a section header (expected [name])", QUOTE_MAX,
				  l);
	if (strlen(name) >= sizeof(c->sec_name))
		return sb_jf_fail(c, "section name '%.*s...' is longer than %zu characters", 32,
				  name, sizeof(c->sec_name) - 1);
	int r = end_section(c);
	if (r < 0)
		return r;
	if (!strncmp(name, "global", 6)) {
		c->sec = SEC_GLOBAL;
		c->cur = &c->global;
		return 0;
	}
	if (c->jf->njobs == SB_JOBFILE_MAX_JOBS)
		return sb_jf_fail(c, "more than %d job sections", SB_JOBFILE_MAX_JOBS);
	c->sec = SEC_JOB;
	c->sec_line = c->line;
	snprintf(c->sec_name, sizeof(c->sec_name), "%s", name);
	c->job = c->global;
	/* fio names the job after its section even when [global] has name= */
	snprintf(c->job.opts.name, sizeof(c->job.opts.name), "%s", name);
	c->cur = &c->job;
	return 0;
}

/* fio's options.c: an alias is printed under its option's name */
static const char *fio_canonical(const char *key)
{
	static const char *const alias[][2] = {
		{ "readwrite", "rw" },
		{ "iodepth_batch_submit", "iodepth_batch" },
		{ "iodepth_batch_complete", "iodepth_batch_complete_min" },
		{ "io_limit", "io_size" },
		{ "fill_fs", "fill_device" },
		{ "fileoffset", "offset" },
		{ "blocksize", "bs" },
		{ "blockalign", "ba" },
		{ "blocksize_range", "bsrange" },
		{ "blocksize_unaligned", "bs_unaligned" },
		{ "nr_files", "nrfiles" },
		{ "timeout", "runtime" },
		{ "iomem", "mem" },
		{ "mem_align", "iomem_align" },
		{ "ratemin", "rate_min" },
		{ "ratecycle", "rate_cycle" },
		{ "wait_for_previous", "stonewall" },
		{ "disable_bw", "disable_bw_measurement" },
		{ "ss", "steadystate" },
		{ "ss_dur", "steadystate_duration" },
		{ "ss_ramp", "steadystate_ramp_time" },
	};
	for (size_t i = 0; i < SB_ARRAY_SIZE(alias); i++)
		if (!strcmp(alias[i][0], key))
			return alias[i][1];
	return key;
}

int sb_fio_rawopts_add(struct sb_fio_rawopts *o, const char *key, const char *value)
{
	const size_t kl = strlen(key) + 1, vl = strlen(value) + 1;
	char *kv = realloc(o->kv, o->len + kl + vl);
	if (!kv)
		return -ENOMEM;
	memcpy(kv + o->len, key, kl);
	memcpy(kv + o->len + kl, value, vl);
	o->kv = kv;
	o->len += kl + vl;
	return 0;
}

int sb_fio_rawopts_next(const struct sb_fio_rawopts *o, size_t *pos, const char **key,
			const char **value)
{
	if (!o->kv || *pos >= o->len)
		return 0;
	*key = o->kv + *pos;
	*pos += strlen(*key) + 1;
	assert(*pos < o->len);
	*value = o->kv + *pos;
	*pos += strlen(*value) + 1;
	return 1;
}

/* "key", "key=value", with ${NAME} replaced. */
static int option(struct ctx *c, char *l)
{
	char *eq = strchr(l, '=');
	const char *value = NULL, *as_written = NULL;
	if (eq) {
		*eq = 0;
		as_written = eq + 1; /* its end trimmed with the line */
		value = trim(eq + 1);
	}
	const char *key = trim(l);
	if (!*key)
		return sb_jf_fail(c, "'=%.*s' names no option (expected key=value)", QUOTE_MAX,
				  value ? value : "");
	const struct fio_opt *o = sb_jf_option(key);
	if (!o && sb_fio_option_known(key)) {
		const char *why = sb_jf_refused_why(key);
		if (why)
			return sb_jf_fail(c, "%s: fio option not supported by storbench: %s", key,
					  why);
		return sb_jf_fail(c,
				  "%s: fio option not supported by storbench "
				  "(docs/fio-compat.md lists those it takes)",
				  key);
	}
	if (!o)
		return sb_jf_fail(c, "'%.*s': unknown option", QUOTE_MAX, key);
	if (!value) {
		if (!o->flag)
			return sb_jf_fail(c, "%s: needs a value (%s=VALUE)", key, key);
		value = o->flag == 2 ? "" : "1"; /* 2: a bare key means an empty value */
	}
	int r = o->set(c, o, value);
	if (r || !as_written)
		return r;
	return sb_fio_rawopts_add(c->sec == SEC_GLOBAL ? &c->jf->global_raw : &c->jobraw,
				  fio_canonical(key), as_written);
}

static int is_include(const char *l)
{
	return !strncmp(l, "include", 7) && (!l[7] || is_blank(l[7]));
}

static int read_line(struct ctx *c, const char *s, size_t n)
{
	if (n > MAX_LINE)
		return sb_jf_fail(c, "longer than %d bytes", MAX_LINE);
	if (memchr(s, 0, n))
		return sb_jf_fail(c, "a NUL byte: not a text file");
	memcpy(c->raw, s, n);
	c->raw[n] = 0;
	strip_comment(c->raw);
	char *l = trim(c->raw);
	if (!*l)
		return 0;
	if (*l == '[')
		return section(c, l);
	if (is_include(l))
		return sb_jf_fail(c,
				  "include is not supported (copy the options it reads into this "
				  "file)");
	if (c->sec == SEC_NONE)
		return sb_jf_fail(c, "'%.*s' comes before any section (a [global] or [name] line)",
				  QUOTE_MAX, l);
	int r = expand(c, l, c->text);
	return r < 0 ? r : option(c, c->text);
}

/* fio's defaults where they differ from storbench's. */
static void fio_defaults(struct state *s)
{
	memset(s, 0, sizeof(*s));
	sb_job_opts_default(&s->opts);
	s->opts.direct = 0;
	s->opts.direct_given = 1;
	snprintf(s->opts.engine, sizeof(s->opts.engine), "%s", sb_engine_plain()->name);
	s->opts.iodepth = 1;
	s->opts.rw = SB_RW_READ;
	s->opts.bs = 4096;
	s->opts.invalidate = 1;
	s->opts.fadvise = SB_FADV_TYPE;
	s->opts.fio_new_file = 1;
	/* fio's steadystate default (off until ss_dur is given) */
	s->opts.ss_flags = SB_SS_IOPS | SB_SS_SLOPE | SB_SS_PCT;
	s->opts.ss_limit = 0.01;
	s->opts.dedupe_ws_pct = 5; /* fio's dedupe_working_set_percentage */
	s->do_verify = 1;
}

static int parse(struct ctx *c, const char *text, size_t len)
{
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		c->line++;
		int r = read_line(c, text + pos, end - pos);
		if (r < 0)
			return r;
		pos = end + 1;
	}
	int r = end_section(c);
	if (r < 0)
		return r;
	if (!c->jf->njobs) {
		if (c->msg && c->msglen)
			snprintf(c->msg, c->msglen,
				 "no job section (a [name] line followed by options)");
		return -EINVAL;
	}
	return 0;
}

/* fio's exitall, wherever given, for every job, exit_what's group by
 * default; each job's report group (fio's groupid). exit_what=all stops
 * what runs; a stonewall group after it, which fio would not start, is
 * refused. */
static int exit_what(struct ctx *c)
{
	struct sb_jobfile *jf = c->jf;
	unsigned g = 0;
	for (unsigned i = 0; i < jf->njobs; i++) {
		struct sb_job_opts *o = &jf->jobs[i].opts;
		o->exit_group = g += i && jf->jobs[i].new_group;
		if (!c->exitall)
			o->exit_what = SB_EXIT_NONE;
		else if (!o->exit_what)
			o->exit_what = SB_EXIT_GROUP;
	}
	for (unsigned i = 0; i < jf->njobs; i++) {
		if (jf->jobs[i].opts.exit_what != SB_EXIT_ALL)
			continue;
		for (unsigned k = i + 1; k < jf->njobs; k++)
			if (jf->jobs[k].stonewall) {
				c->line = jf->jobs[i].line;
				return sb_jf_fail(c,
						  "[%s]: exit_what=all with exitall, before the "
						  "stonewall of [%s]: storbench would start the jobs "
						  "fio skips (give exit_what=stonewall)",
						  jf->jobs[i].name, jf->jobs[k].name);
			}
	}
	return 0;
}

static int ss_same(const struct sb_job_opts *a, const struct sb_job_opts *b)
{
	return a->ss_dur_s == b->ss_dur_s && a->ss_flags == b->ss_flags &&
	       a->ss_limit == b->ss_limit && a->ss_ramp_ns == b->ss_ramp_ns;
}

/* fio's steadystate: the jobs of a report group agree on it (fio rejects
 * the job otherwise); without group_reporting fio judges each numjobs
 * clone alone, which storbench does not. */
static int steady_groups(struct ctx *c)
{
	const struct sb_jobfile *jf = c->jf;
	for (unsigned i = 0; i < jf->njobs; i++) {
		const struct sb_job_opts *o = &jf->jobs[i].opts;
		c->line = jf->jobs[i].line;
		for (unsigned k = 0; k < i; k++)
			if (jf->jobs[k].opts.exit_group == o->exit_group &&
			    !ss_same(&jf->jobs[k].opts, o))
				return sb_jf_fail(c,
						  "[%s]: steadystate options must be consistent "
						  "within reporting groups ([%s]'s differ), as fio "
						  "rejects the job",
						  jf->jobs[i].name, jf->jobs[k].name);
		if (o->ss_dur_s && o->numjobs > 1 && !o->group_reporting)
			return sb_jf_fail(c,
					  "[%s]: steadystate with numjobs=%u without group_reporting: "
					  "fio judges each clone alone, storbench does not (give "
					  "group_reporting)",
					  jf->jobs[i].name, o->numjobs);
	}
	return 0;
}

int sb_jobfile_parse(const char *text, size_t len, const char *(*env)(const char *name),
		     struct sb_jobfile **out, char *msg, size_t msglen)
{
	assert(out);
	*out = NULL;
	if (msg && msglen)
		msg[0] = 0;
	struct ctx *c = calloc(1, sizeof(*c));
	struct sb_jobfile *jf = calloc(1, sizeof(*jf));
	if (!c || !jf) {
		free(c);
		free(jf);
		if (msg && msglen)
			snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	c->jf = jf;
	c->env = env;
	c->msg = msg;
	c->msglen = msglen;
	fio_defaults(&c->global);
	c->cur = &c->global;
	/* a UTF-8 byte order mark (editors on Windows write one) is no part of
	 * the first line */
	if (text && len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		text += 3;
		len -= 3;
	}
	int r = parse(c, text ? text : "", text ? len : 0);
	if (!r)
		r = exit_what(c);
	if (!r)
		r = steady_groups(c);
	for (unsigned i = 0; !r && i < jf->njobs; i++) /* dedupe_global's rotation */
		jf->jobs[i].opts.dedupe_threads = c->threads;
	if (r == -ENOMEM && msg && msglen)
		snprintf(msg, msglen, "out of memory");
	free(c->jobraw.kv);
	free(c);
	if (r < 0) {
		sb_jobfile_free(jf);
		return r;
	}
	*out = jf;
	return 0;
}

void sb_jobfile_free(struct sb_jobfile *jf)
{
	if (!jf)
		return;
	for (unsigned i = 0; i < jf->njobs; i++)
		free(jf->jobs[i].raw.kv);
	free(jf->global_raw.kv);
	for (unsigned i = 0; jf->iologs && i < jf->njobs; i++)
		sb_iolog_free(&jf->iologs[i]);
	free(jf->iologs);
	free(jf->jobs);
	free(jf);
}

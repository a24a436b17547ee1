/*
 * fio job files: one table from fio's option names to setters. The setters
 * refuse what storbench cannot do the way fio does and hand values to
 * sb_job_set, so that a bad value in a job file is explained in the words
 * of the command line; the table also says, option by option, how
 * storbench takes each (sb_fio_option_support, docs/fio-compat.md). The
 * reader of the lines is jobfile_parse.c.
 */
#include "lib/job/jobfile_int.h"
#include "lib/stats/fio_ss.h"
#include "lib/engine/engine.h"
#include "lib/job/fio_names.h"
#include "lib/job/numa.h"

#include <assert.h>
#include <stdarg.h>

/* "line N: ..." into msg; returns -EINVAL. */
int sb_jf_fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;
	if (!c->msg || !c->msglen)
		return -EINVAL;
	int n = snprintf(c->msg, c->msglen, "line %u: ", c->line);
	if (n >= 0 && (size_t)n < c->msglen) {
		va_start(ap, fmt);
		vsnprintf(c->msg + n, c->msglen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* "line N: KEY: 'VALUE' is not valid (expected WHAT)", as cli/opt.c says it. */
static int bad_value(struct ctx *c, const char *key, const char *v, const char *what)
{
	size_t len = strlen(v);
	int shown = len > QUOTE_MAX ? QUOTE_MAX - 3 : (int)len;
	return sb_jf_fail(c, "%s: '%.*s%s' is not valid (expected %s)", key, shown, v,
			  len > QUOTE_MAX ? "..." : "", what);
}

/* Notes are kept once per text, whichever line said it first. */
void sb_jf_note(struct ctx *c, const char *fmt, ...)
{
	struct sb_jobfile *jf = c->jf;
	char body[sizeof(jf->notes[0]) - sizeof("line 4294967295: ") + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	for (unsigned i = 0; i < jf->nnotes; i++) {
		const char *old = strstr(jf->notes[i], ": ");
		if (old && !strcmp(old + 2, body))
			return;
	}
	if (jf->nnotes < SB_JOBFILE_MAX_NOTES)
		snprintf(jf->notes[jf->nnotes++], sizeof(jf->notes[0]), "line %u: %s", c->line,
			 body);
}

/* Through sb_job_set under storbench's name, reported under fio's. */
static int set_in(struct ctx *c, struct sb_job_opts *opts, const char *key, const char *sb,
		  const char *v)
{
	char hint[160] = "";
	int r = sb_job_set(opts, sb, v, hint, sizeof(hint));
	assert(r != -ENOENT);
	return r < 0 ? bad_value(c, key, v, hint[0] ? hint : "another value") : 0;
}

static int set_as(struct ctx *c, const char *key, const char *sb, const char *v)
{
	return set_in(c, &c->cur->opts, key, sb, v);
}

static int set_plain(struct ctx *c, const struct fio_opt *o, const char *v)
{
	return set_as(c, o->name, o->sb, v);
}

/* fio takes "READ,WRITE[,TRIM]"; storbench one value for all. bs= after
 * bsrange= sets one size again, as in fio; bssplit= replaces it. */
static int set_bs_list(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint32_t bs[3] = { 4096, 4096, 4096 }; /* fio's default for an empty one */
	const char *p = v;
	unsigned n = 0;
	for (;; n++) {
		const char *comma = strchr(p, ',');
		const size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char one[64];
		uint64_t b;
		if (n == 3 || len >= sizeof(one))
			return bad_value(c, o->name, v, "READ,WRITE,TRIM block sizes");
		memcpy(one, p, len);
		one[len] = 0;
		if (len && (sb_parse_size(one, &b) < 0 || !b || b > 1u << 30))
			return bad_value(c, o->name, v, "READ,WRITE,TRIM block sizes");
		if (len)
			bs[n] = (uint32_t)b;
		if (!comma)
			break;
		p = comma + 1;
	}
	for (unsigned i = n + 1; i < 3; i++) /* fio: the last one given goes on */
		bs[i] = bs[n];
	struct state *s = c->cur;
	memcpy(s->bsdir, bs, sizeof(bs));
	s->bsdir_line = c->line;
	s->opts.bs = bs[0];
	s->opts.nbssplit = 0;
	s->dsplit_line = 0;
	s->bsrange = 0;
	return 0;
}

static int set_single(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (strchr(v, ',') && !strcmp(o->sb, "bs"))
		return set_bs_list(c, o, v);
	if (strchr(v, ','))
		return bad_value(c, o->name, v, o->why);
	int r = set_plain(c, o, v);
	if (!r && !strcmp(o->sb, "bs"))
		c->cur->bsdir_line = 0;
	if (!r && c->cur->bsrange) {
		c->cur->bsrange = 0;
		if (!strcmp(o->sb, "bs"))
			c->cur->opts.nbssplit = 0;
	}
	return r;
}

/* fio's bssplit=READ[,WRITE[,TRIM]]: one split for every direction
 * without a comma; with one, each direction's (an empty member leaves its
 * direction to bs=, the last member given goes on to the trims), as fio's
 * str_split_parse, resolved for the job's rw at its end (jobfile_parse.c).
 * Until then the first split given stands for the job's (bsrange= after
 * it only bounds it, as fio). */
static int set_bssplit(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char accepts[] =
		"one split, or READ,WRITE[,TRIM] splits: SIZE/PCT entries joined by ':' "
		"with shares adding up to 100 (example: 64k/40:1m/60,1m/100)";
	struct state *s = c->cur;
	if (!strchr(v, ',')) {
		int r = set_plain(c, o, v);
		if (!r)
			s->dsplit_line = s->bsrange = 0;
		return r;
	}
	char one[1024];
	const char *p = v;
	unsigned n = 0, given = 3;
	for (;; n++) {
		const char *comma = strchr(p, ',');
		const size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (n == 3 || len >= sizeof(one))
			return bad_value(c, o->name, v, accepts);
		memcpy(one, p, len);
		one[len] = 0;
		s->ndsplit[n] = 0;
		if (len && sb_parse_bssplit(one, s->dsplit[n], SB_BSSPLIT_MAX, &s->ndsplit[n]) < 0)
			return bad_value(c, o->name, v, accepts);
		if (s->ndsplit[n] && given == 3)
			given = n;
		if (!len && s->bsrange)
			return sb_jf_fail(c,
					  "%s=%.*s: an empty member (the direction's bs) after "
					  "bsrange= is not supported (give each direction a split)",
					  o->name, QUOTE_MAX, v);
		if (!comma)
			break;
		p = comma + 1;
	}
	for (unsigned d = n + 1; d < 3; d++) { /* fio: the last one goes on */
		memcpy(s->dsplit[d], s->dsplit[n], sizeof(s->dsplit[d]));
		s->ndsplit[d] = s->ndsplit[n];
	}
	s->dsplit_line = c->line;
	s->bsrange = 0;
	s->opts.nbssplit = given < 3 ? s->ndsplit[given] : 0;
	if (given < 3)
		memcpy(s->opts.bssplit, s->dsplit[given], sizeof(s->opts.bssplit));
	return 0;
}

/* fio's bsrange=LOW-HIGH (or LOW:HIGH): each request's size drawn
 * evenly from the multiples of LOW up to HIGH (fio's get_next_buflen:
 * LOW + HIGH x a uniform draw, rounded down to LOW, at most HIGH). Taken
 * as a bssplit of those sizes in equal shares, so at most SB_BSSPLIT_MAX
 * of them; bssplit= given too chooses the sizes, as in fio. */
static int set_bsrange(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char accepts[] = "LOW-HIGH block sizes, HIGH a multiple of LOW, one range "
				      "for reads and writes (examples: 4k-4k, 1k-4k)";
	struct sb_job_opts *opts = &c->cur->opts;
	const char *sep = strpbrk(v, "-:");
	char lo[64];
	uint64_t a, b;
	const size_t n = sep ? (size_t)(sep - v) : 0;
	if (!sep || n >= sizeof(lo) || strchr(v, ','))
		return bad_value(c, o->name, v, accepts);
	memcpy(lo, v, n);
	lo[n] = 0;
	if (sb_parse_size(lo, &a) < 0 || sb_parse_size(sep + 1, &b) < 0 || !a || b < a ||
	    b > 1 << 30 || b % a)
		return bad_value(c, o->name, v, accepts);
	const struct state *st = c->cur;
	if (st->dsplit_line && (!st->ndsplit[0] || !st->ndsplit[1] || !st->ndsplit[2]))
		return sb_jf_fail(c,
				  "%s=%.*s: after bssplit= with an empty member (the direction's "
				  "bs) is not supported (give each direction a split)",
				  o->name, QUOTE_MAX, v);
	if (opts->nbssplit && !c->cur->bsrange)
		return 0; /* bssplit= chooses; fio's bsrange only bounds it */
	if (b / a > SB_BSSPLIT_MAX)
		return sb_jf_fail(c,
				  "%s=%.*s: %llu block sizes; storbench draws from at most %d "
				  "(give bssplit= or a narrower range)",
				  o->name, QUOTE_MAX, v, (unsigned long long)(b / a),
				  SB_BSSPLIT_MAX);
	const unsigned k = (unsigned)(b / a);
	opts->bs = (uint32_t)a;
	opts->nbssplit = k == 1 ? 0 : k;
	for (unsigned i = 0; i < k && k > 1; i++) {
		opts->bssplit[i].bs = (uint32_t)(a * (i + 1));
		opts->bssplit[i].pct = 100 / k + (i < 100 % k);
	}
	c->cur->bsrange = k > 1;
	if (100 % k)
		sb_jf_note(c,
			   "%s: %u sizes in whole percent shares (%u%% or %u%%), fio's are equal",
			   o->name, k, 100 / k + 1, 100 / k);
	return 0;
}

/* fio's READ[,WRITE[,TRIM]] list of a rate (rate=, rate_iops=,
 * rate_min=, rate_iops_min=): each value through storbench's option sb
 * ("rate" or "rate-iops") into cap[], an empty or 0 one none; one value
 * is both directions'. A trim's is kept to be refused if the job trims.
 * 0, or -EINVAL said. */
static int rate_list(struct ctx *c, const struct fio_opt *o, const char *v, const char *sb,
		     uint64_t cap[2])
{
	const int iops = !strcmp(sb, "rate-iops");
	const char *accepts =
		iops ? "requests per second, or READ,WRITE ones, each for its direction "
		       "alone (examples: 500, 100,500, ,500)"
		     : "a bandwidth, or READ,WRITE bandwidths, each for its direction alone "
		       "(examples: 10M, 5M,20M, ,20M)";
	uint64_t got[3] = { 0, 0, 0 };
	unsigned n = 0;
	const char *p = v;
	for (;; n++) {
		const char *comma = strchr(p, ',');
		const size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char one[64];
		if (n == 3 || len >= sizeof(one))
			return bad_value(c, o->name, v, accepts);
		memcpy(one, p, len);
		one[len] = 0;
		if (len && strcmp(one, "0")) {
			struct sb_job_opts tmp = c->cur->opts;
			char hint[160] = "";
			if (sb_job_set(&tmp, sb, one, hint, sizeof(hint)) < 0)
				return bad_value(c, o->name, v, accepts);
			got[n] = iops ? tmp.rate_iops : tmp.rate_bps;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	/* a trim's rate: nothing to a job that does not trim (end_section) */
	if (n == 2 && got[2] && !c->cur->trim_rate_line) {
		c->cur->trim_rate_line = c->line;
		snprintf(c->cur->trim_rate, sizeof(c->cur->trim_rate), "%s: '%.*s'", o->name,
			 QUOTE_MAX, v);
	}
	cap[0] = got[0];
	cap[1] = n ? got[1] : got[0];
	return 0;
}

/* fio's rate=READ[,WRITE[,TRIM]] and rate_iops=: a cap on reads and one
 * on writes, each alone. o->sb is storbench's option for one value
 * ("rate", "rate-iops"). */
static int set_rate(struct ctx *c, const struct fio_opt *o, const char *v)
{
	const int iops = !strcmp(o->sb, "rate-iops");
	struct sb_job_opts *opts = &c->cur->opts;
	uint64_t cap[2];
	int r = rate_list(c, o, v, o->sb, cap);
	if (r)
		return r;
	uint64_t *dir = iops ? opts->rate_iops_dir : opts->rate_dir_bps;
	if (iops)
		opts->rate_iops = 0;
	else
		opts->rate_bps = 0;
	dir[0] = cap[0];
	dir[1] = cap[1];
	return 0;
}

/* fio's rate_min= (ratemin) and rate_iops_min=: each direction's floor,
 * READ[,WRITE]; a job below it over a ratecycle ends with EIO. */
static int set_ratemin(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *opts = &c->cur->opts;
	const int iops = !strcmp(o->sb, "rate-iops");
	return rate_list(c, o, v, o->sb, iops ? opts->ratemin_iops : opts->ratemin_bps);
}

/* fio's steadystate=CRITERION:LIMIT (ss): iops, iops_slope, bw,
 * bw_slope; the limit in percent (10%), or absolute: requests per second
 * (a number) or bytes per second (a size, k = 1024), as fio 3.33 */
static int set_steadystate(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char *const accepts =
		"iops, iops_slope, bw or bw_slope, a colon and a limit: a percent of the "
		"mean (iops:10%), requests or bytes per second (iops:50, bw_slope:1m)";
	static const struct {
		const char *name;
		unsigned flags;
	} crit[] = {
		{ "iops", SB_SS_IOPS },
		{ "iops_slope", SB_SS_IOPS | SB_SS_SLOPE },
		{ "bw", 0 },
		{ "bw_slope", SB_SS_SLOPE },
	};
	const char *colon = strchr(v, ':');
	struct sb_job_opts *jo = &c->cur->opts;
	unsigned k = 0;
	while (colon && k < SB_ARRAY_SIZE(crit) &&
	       (strlen(crit[k].name) != (size_t)(colon - v) ||
		strncmp(v, crit[k].name, (size_t)(colon - v))))
		k++;
	if (!colon || k == SB_ARRAY_SIZE(crit))
		return bad_value(c, o->name, v, accepts);
	char lim[64];
	const char *pct = strchr(colon + 1, '%');
	const size_t len = pct ? (size_t)(pct - colon - 1) : strlen(colon + 1);
	if (len >= sizeof(lim) || (pct && pct[1]))
		return bad_value(c, o->name, v, accepts);
	memcpy(lim, colon + 1, len);
	lim[len] = 0;
	for (size_t n = len; n && lim[n - 1] == ' ';) /* "bw:  %" leaves "" */
		lim[--n] = 0;
	double limit;
	uint64_t bytes;
	if (pct || (crit[k].flags & SB_SS_IOPS)) {
		if (sb_parse_double(lim, &limit) < 0 || limit < 0)
			return bad_value(c, o->name, v, accepts);
	} else if (sb_parse_size(lim, &bytes) == 0) {
		limit = (double)bytes;
	} else {
		return bad_value(c, o->name, v, accepts);
	}
	jo->ss_flags = crit[k].flags | (pct ? SB_SS_PCT : 0);
	jo->ss_limit = limit;
	return 0;
}

/* fio's ss_dur (steadystate_duration) and ss_ramp (steadystate_ramp_time):
 * seconds, or a time with a unit; the window in whole seconds, as fio */
static int set_ss_time(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	const int dur = !strcmp(o->sb, "dur");
	uint64_t n;
	if (sb_parse_u64(v, &n) == 0)
		n = n > UINT64_MAX / 1000000000ull ? UINT64_MAX : n * 1000000000ull;
	else if (sb_parse_duration_ns(v, &n) < 0)
		return bad_value(c, o->name, v, "seconds, or a time with a unit (30s, 1m)");
	if (!dur) {
		jo->ss_ramp_ns = n;
		return 0;
	}
	/* fio keeps whole seconds: 0 is none, below 1 s a window of nothing */
	if (n && (n < 1000000000ull || n / 1000000000ull > 86400))
		return bad_value(c, o->name, v, "0 (none), or 1 s to 24 h");
	jo->ss_dur_s = (unsigned)(n / 1000000000ull);
	return 0;
}

/* fio's rate_process=linear|poisson */
static int set_rate_process(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (strcmp(v, "linear") && strcmp(v, "poisson"))
		return bad_value(c, o->name, v, "linear or poisson");
	c->cur->opts.rate_poisson = !strcmp(v, "poisson");
	return 0;
}

/* fio's rate_cycle= (ratecycle): milliseconds over which rate_min holds */
static int set_ratecycle(struct ctx *c, const struct fio_opt *o, const char *v)
{
	char *end;
	errno = 0;
	const unsigned long ms = strtoul(v, &end, 10);
	if (errno || end == v || *end || ms == 0 || ms > 3600000 || *v == '-')
		return bad_value(c, o->name, v, "milliseconds, 1 to 3600000");
	c->cur->opts.ratecycle_ms = (unsigned)ms;
	return 0;
}

/* fio's exitall: one job's end stops others (exit_what says which), for
 * every job of the file wherever it is given, as fio's */
static int set_exitall(struct ctx *c, const struct fio_opt *o, const char *v)
{
	(void)o;
	c->exitall = strcmp(v, "0") != 0;
	return 0;
}

static int set_exit_what(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char *const names[] = { "group", "stonewall", "all" };
	for (unsigned i = 0; i < SB_ARRAY_SIZE(names); i++)
		if (!strcmp(v, names[i])) {
			c->cur->opts.exit_what = SB_EXIT_GROUP + i;
			return 0;
		}
	return bad_value(c, o->name, v, "group, stonewall or all");
}

/* fio's cpus_allowed=LIST (0-3,5) and cpumask=MASK (0xf, or decimal):
 * the CPUs the job's threads run on, a CPU below SB_CPUS_MAX each (one
 * this machine has: sb_job_check) */
static int cpu_set(struct ctx *c, const struct fio_opt *o, const char *v,
		   uint64_t set[SB_CPUS_MAX / 64])
{
	char *end;
	if (!strcmp(o->name, "cpumask")) {
		errno = 0;
		const unsigned long long m = strtoull(v, &end, 0);
		if (errno || end == v || *end || *v == '-' || !m)
			return bad_value(c, o->name, v, "a mask of CPUs, as 0x3 or 3 for CPUs 0 and 1");
		set[0] = m;
	}
	for (const char *p = v; strcmp(o->name, "cpumask");) {
		unsigned long lo, hi;
		errno = 0;
		lo = hi = strtoul(p, &end, 10);
		if (end != p && *end == '-' && end[1] >= '0' && end[1] <= '9')
			hi = strtoul(end + 1, &end, 10);
		if (errno || end == p || *p < '0' || *p > '9' || hi < lo || hi >= SB_CPUS_MAX ||
		    (*end && *end != ','))
			return bad_value(c, o->name, v,
					 "CPU numbers and ranges below 1024, as 0-3,6");
		for (unsigned long i = lo; i <= hi; i++)
			set[i / 64] |= 1ull << (i % 64);
		if (!*end)
			break;
		p = end + 1;
	}
	return 0;
}

static int set_cpus(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t set[SB_CPUS_MAX / 64] = { 0 };
	const int e = cpu_set(c, o, v, set);
	if (!e)
		memcpy(c->cur->opts.cpus, set, sizeof(set));
	return e;
}

/* fio's verify_async=N and verify_async_cpus=LIST: fio's N threads check
 * what the job's reads brought back; storbench checks after the job, the
 * same blocks read and counted, so both are checked and taken with a
 * note. */
static int set_verify_async(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t set[SB_CPUS_MAX / 64] = { 0 }, n;
	if (!strcmp(o->name, "verify_async_cpus")) {
		const int e = cpu_set(c, o, v, set);
		if (!e)
			sb_jf_note(c, "%s: %s", o->name, o->why);
		return e;
	}
	if (sb_parse_u64(v, &n) < 0 || n > 1024)
		return bad_value(c, o->name, v, "a number of threads, 0 to 1024");
	if (n)
		sb_jf_note(c, "%s: %s", o->name, o->why);
	return 0;
}

static int set_cpus_policy(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (strcmp(v, "shared") && strcmp(v, "split"))
		return bad_value(c, o->name, v, "shared or split");
	c->cur->opts.cpus_split = !strcmp(v, "split");
	return 0;
}

/* The nodes of a numa_* list that this machine does not have refused,
 * naming those it has; 0 or -EINVAL. */
static int numa_present(struct ctx *c, const struct fio_opt *o, uint64_t nodes)
{
	uint64_t have;
	char list[128];
	if (sb_numa_online("/sys", &have) < 0)
		have = 1;
	if (!(nodes & ~have))
		return 0;
	sb_numa_list_fmt(have, list, sizeof(list));
	return sb_jf_fail(c, "%s: node %d does not exist (this machine has node%s %s)", o->name,
			  __builtin_ctzll(nodes & ~have), strpbrk(list, ",-") ? "s" : "", list);
}

/* fio's numa_cpu_nodes=LIST (0-1, all): the job's threads on those
 * nodes' CPUs, as fio's numa_run_on_node_mask */
static int set_numa_cpus(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t nodes, have;
	if (sb_numa_list_parse(v, &nodes, SB_NUMA_NODES_MAX) < 0)
		return bad_value(c, o->name, v, "node numbers and ranges, as 0-1,3, or all");
	if (!strcmp(v, "all") && sb_numa_online("/sys", &have) == 0)
		nodes = have;
	int r = numa_present(c, o, nodes);
	if (!r)
		c->cur->opts.numa_cpu_nodes = nodes;
	return r;
}

/* fio's numa_mem_policy=MODE[:NODES]: default and local take no nodes,
 * prefer one, bind and interleave a list, as fio's str_numa_mpol_cb */
static int set_numa_mem(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char *const modes[] = { "default", "prefer", "bind", "interleave", "local" };
	static const char accepts[] = "default, local, prefer:NODE, bind:NODES or interleave:NODES";
	const char *colon = strchr(v, ':');
	const size_t len = colon ? (size_t)(colon - v) : strlen(v);
	unsigned mode = 0;
	uint64_t nodes = 0, have;
	for (unsigned i = 0; i < SB_ARRAY_SIZE(modes) && !mode; i++)
		if (strlen(modes[i]) == len && !strncmp(v, modes[i], len))
			mode = SB_MPOL_DEFAULT + i;
	const int wants = mode == SB_MPOL_PREFER || mode == SB_MPOL_BIND ||
			  mode == SB_MPOL_INTERLEAVE;
	if (!mode || wants != !!colon ||
	    (colon && sb_numa_list_parse(colon + 1, &nodes, SB_NUMA_NODES_MAX) < 0) ||
	    (mode == SB_MPOL_PREFER && (nodes & (nodes - 1))))
		return bad_value(c, o->name, v, accepts);
	if (colon && !strcmp(colon + 1, "all") && sb_numa_online("/sys", &have) == 0)
		nodes = have;
	int r = numa_present(c, o, nodes);
	if (!r) {
		c->cur->opts.numa_mem_mode = mode;
		c->cur->opts.numa_mem_nodes = nodes;
	}
	return r;
}

/* fio's prio (0-7) and prioclass (0-3): the job's I/O priority */
static int set_prio(struct ctx *c, const struct fio_opt *o, const char *v)
{
	const int cls = !strcmp(o->name, "prioclass");
	char *end;
	errno = 0;
	const unsigned long n = strtoul(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || n > (cls ? 3u : 7u))
		return bad_value(c, o->name, v, cls ? "0 to 3" : "0 to 7");
	*(cls ? &c->cur->opts.prioclass : &c->cur->opts.prio) = (unsigned)n;
	c->cur->opts.prio_given = 1;
	return 0;
}

/* fio's cmdprio_percentage (0-100), cmdprio_class (1-3) and cmdprio
 * (0-7): READ[,WRITE], one value for both, as fio's off1/off2 options */
static int set_cmdprio(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *opts = &c->cur->opts;
	const unsigned lo = !strcmp(o->name, "cmdprio_class");
	const unsigned hi = !strcmp(o->name, "cmdprio_percentage") ? 100 : lo ? 3 : 7;
	unsigned *dst = !strcmp(o->name, "cmdprio_percentage") ? opts->cmdprio_pct
			: lo				       ? opts->cmdprio_class
							       : opts->cmdprio;
	unsigned val[2] = { 0, 0 };
	const char *p = v;
	for (int d = 0; d < 2; d++) {
		char *end;
		errno = 0;
		const unsigned long n = strtoul(p, &end, 10);
		if (errno || end == p || *p == '-' || n < lo || n > hi || (*end && *end != ',') ||
		    (d && *end))
			return bad_value(c, o->name, v,
					 lo	   ? "READ[,WRITE] classes, 1 to 3"
					 : hi == 7 ? "READ[,WRITE] levels, 0 to 7"
						   : "READ[,WRITE] percentages, 0 to 100");
		val[d] = val[1] = (unsigned)n;
		if (!*end)
			break;
		p = end + 1;
	}
	dst[0] = val[0];
	dst[1] = val[1];
	return 0;
}

/* One direction's cmdprio_bssplit: BS or BS/ (skipped), BS/PCT
 * (cmdprio_class and cmdprio's priority), BS/PCT/CLASS/LEVEL, joined by
 * ':', sorted by block size and each size's shares at most 100, as fio's
 * split_parse_prio_ddir and fio_cmdprio_fill_bsprio. A fifth field, the
 * priority hint of later fio's BS/PCT/CLASS/LEVEL/HINT, is read and left
 * out, as fio 3.33 (its sscanf stops after LEVEL) sends no hint.
 * 0 or -EINVAL. */
static int cmdprio_split_dir(const char *v, size_t len, struct sb_cmdprio_split *out, unsigned *n)
{
	char one[64];
	*n = 0;
	for (size_t a = 0; a < len;) {
		const char *colon = memchr(v + a, ':', len - a);
		const size_t el = colon ? (size_t)(colon - (v + a)) : len - a;
		unsigned f[4] = { 0, 0, 0, 0 }, nf = 0;
		uint64_t bs;
		if (!el || el >= sizeof(one))
			return -EINVAL;
		memcpy(one, v + a, el);
		one[el] = 0;
		a += el + 1;
		char *p = strchr(one, '/');
		if (p)
			*p++ = 0;
		else
			p = one + el;  /* BS alone: fio's BS/ */
		while (*p && nf < 4) { /* PCT[/CLASS/LEVEL[/HINT]], each digits */
			char *end;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			f[nf++] = (unsigned)SB_MIN(strtoul(p, &end, 10), 1000ul);
			p = *end == '/' && end[1] ? end + 1 : end;
			if (*end && *end != '/')
				return -EINVAL;
		}
		if (*p || nf == 2 || sb_parse_size(one, &bs) < 0 || !bs || bs > 1u << 30)
			return -EINVAL;
		if (!f[0])
			continue;
		if (*n == SB_CMDPRIO_SPLIT_MAX)
			return -EINVAL;
		out[*n].bs = (uint32_t)bs;
		out[*n].pct = SB_MIN(f[0], 100u);
		out[*n].prio = nf >= 3 ? sb_ioprio_value(SB_MIN(f[1], 3u), SB_MIN(f[2], 7u))
				       : SB_CMDPRIO_IMPLICIT;
		(*n)++;
	}
	for (unsigned i = 1; i < *n; i++) /* stable, by block size */
		for (unsigned k = i; k && out[k - 1].bs > out[k].bs; k--) {
			const struct sb_cmdprio_split t = out[k];
			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	for (unsigned i = 0, sum = 0; i < *n; i++) {
		sum = (i && out[i - 1].bs == out[i].bs ? sum : 0) + out[i].pct;
		if (sum > 100)
			return -EINVAL;
	}
	return 0;
}

/* fio's cmdprio_bssplit=READ[,WRITE[,TRIM]]: one list for all without a
 * comma, as fio's str_split_parse; the trims' list is not used */
static int set_cmdprio_bssplit(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *opts = &c->cur->opts;
	const char *comma = strchr(v, ',');
	const char *w = comma ? comma + 1 : v;
	const char *wend = strchr(w, ',');
	if (cmdprio_split_dir(v, comma ? (size_t)(comma - v) : strlen(v), opts->cmdprio_split[0],
			      &opts->ncmdprio_split[0]) < 0 ||
	    cmdprio_split_dir(w, wend ? (size_t)(wend - w) : strlen(w), opts->cmdprio_split[1],
			      &opts->ncmdprio_split[1]) < 0)
		return bad_value(c, o->name, v,
				 "READ,WRITE lists of BS/PERCENT[/CLASS/LEVEL[/HINT]] joined by "
				 "':', at most 100% for each size");
	return 0;
}

/* size= and offset=; fio's size=0 is its default, the whole target;
 * fio's Nz is N zones (of zonesize, resolved at the job's end). */
static int set_size(struct ctx *c, const struct fio_opt *o, const char *v)
{
	const int is_size = !strcmp(o->sb, "size");
	uint64_t *nz = is_size ? &c->cur->size_nz : &c->cur->offset_nz;
	const size_t len = strlen(v);
	*nz = 0;
	if (len > 1 && (v[len - 1] == 'z' || v[len - 1] == 'Z')) {
		char num[32];
		uint64_t n;
		if (len - 1 >= sizeof(num))
			return bad_value(c, o->name, v, "a size, N% or a number of zones (524z)");
		memcpy(num, v, len - 1);
		num[len - 1] = 0;
		if (sb_parse_u64(num, &n) < 0 || (is_size && !n) || n > UINT32_MAX)
			return bad_value(c, o->name, v,
					 "a size, N% or a number of zones (524z), at most 4294967295");
		*nz = n;
		*(is_size ? &c->cur->size_nz_line : &c->cur->offset_nz_line) = c->line;
		if (is_size)
			c->cur->opts.size_pct = 0;
		return 0;
	}
	if (is_size && !strcmp(v, "0")) {
		c->cur->opts.size = 0;
		c->cur->opts.size_pct = 0;
		return 0;
	}
	return set_plain(c, o, v);
}

/* fio's name for the value and storbench's. */
struct alias {
	const char *fio, *sb;
};

static const char *lookup(const struct alias *a, size_t n, const char *v)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(a[i].fio, v))
			return a[i].sb;
	return NULL;
}

static int set_rw(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const struct alias rw[] = {
		{ "read", "read" },
		{ "write", "write" },
		{ "randread", "randread" },
		{ "randwrite", "randwrite" },
		{ "rw", "rw" },
		{ "readwrite", "rw" },
		{ "randrw", "randrw" },
		{ "trim", "trim" },
		{ "randtrim", "randtrim" },
		{ "trimwrite", "trimwrite" },
		{ "randtrimwrite", "randtrimwrite" },
	};
	static const char accepts[] = "read, write, randread, randwrite, rw, readwrite, randrw, "
				      "trim, randtrim, trimwrite or randtrimwrite, a sequential "
				      "one with :SIZE or :-SIZE";
	char base[16];
	const char *colon = strchr(v, ':');
	const size_t n = colon ? (size_t)(colon - v) : strlen(v);
	if (n >= sizeof(base))
		return bad_value(c, o->name, v, accepts);
	memcpy(base, v, n);
	base[n] = 0;
	const char *sb = lookup(rw, SB_ARRAY_SIZE(rw), base);
	if (!sb)
		return bad_value(c, o->name, v, accepts);
	int r = set_as(c, o->name, "rw", sb);
	c->cur->opts.seq_add = 0;
	if (r || !colon)
		return r;
	/* fio's rw=read:SIZE adds SIZE after each sequential request (a
	 * negative one steps back); rw=randread:N takes a new random offset
	 * every N requests, sequential between */
	if (sb_rw_is_random(c->cur->opts.rw))
		return sb_jf_fail(c,
				  "%s=%.*s: a new random offset every N requests is not supported "
				  "(storbench draws one for each)",
				  o->name, QUOTE_MAX, v);
	const int neg = colon[1] == '-';
	uint64_t add;
	if (sb_parse_size(colon + 1 + neg, &add) < 0 || add > INT64_MAX)
		return bad_value(c, o->name, v, accepts);
	c->cur->opts.seq_add = neg ? -(int64_t)add : (int64_t)add;
	return 0;
}

/* rwmixwrite and buffered: storbench's option, inverted. */
static int set_rwmixwrite(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts tmp = c->cur->opts;
	int r = set_in(c, &tmp, o->name, "rwmixread", v);
	if (!r)
		c->cur->opts.rwmixread = 100 - tmp.rwmixread;
	return r;
}

static int set_buffered(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts tmp = c->cur->opts;
	int r = set_in(c, &tmp, o->name, "direct", v);
	if (!r) {
		c->cur->opts.direct = !tmp.direct;
		c->cur->opts.direct_given = 1;
	}
	return r;
}

/* fio's iodepth_batch_complete_min: 0 and 1 both wait for one. */
static int set_batch(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t n;
	if (sb_parse_u64(v, &n) < 0)
		return bad_value(c, o->name, v, "a number from 0 to 65536");
	return set_as(c, o->name, "iodepth-batch-complete", n ? v : "1");
}

/* The ioengine names the registry takes: "psync, sync, ... or null". */
static void fio_engine_names(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; sb_engine_fio_name(i) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      !i			  ? ""
				      : sb_engine_fio_name(i + 1) ? ", "
								  : " or ",
				      sb_engine_fio_name(i));
}

static int set_engine(struct ctx *c, const struct fio_opt *o, const char *v)
{
	char names[320];
	const char *sb = sb_engine_from_fio(v);
	if (!sb) {
		fio_engine_names(names, sizeof(names));
		if (sb_fio_engine_known(v))
			return sb_jf_fail(c,
					  "%s=%.*s: fio engine not supported by storbench (use %s)",
					  o->name, QUOTE_MAX, v, names);
		return bad_value(c, o->name, v, names);
	}
	if (strcmp(sb, v))
		sb_jf_note(c, "%s=%s runs as %s", o->name, v, sb);
	return set_as(c, o->name, "engine", sb);
}

static int set_sync(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const struct alias sync[] = {
		{ "0", "none" },    { "none", "none" },	  { "1", "sync" },
		{ "sync", "sync" }, { "dsync", "dsync" },
	};
	const char *sb = lookup(sync, SB_ARRAY_SIZE(sync), v);
	if (!sb)
		return bad_value(c, o->name, v, "0, 1, none, sync or dsync");
	return set_as(c, o->name, "sync", sb);
}

static int set_dist(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char accepts[] =
		"random, zipf:THETA (THETA > 0, not 1), pareto:H (0 < H < 1), "
		"zoned:ACCESS/SIZE%:... or zoned_abs:ACCESS/SIZE:... (accesses adding up to 100, "
		"at most 64 zones)";
	char hint[160];
	if (!strncmp(v, "normal", 6) || !strncmp(v, "gauss", 5) || !strncmp(v, "sequence", 8))
		return sb_jf_fail(c,
				  "%s=%.*s: fio distribution not supported by storbench (use random, "
				  "zipf, pareto, zoned or zoned_abs)",
				  o->name, QUOTE_MAX, v);
	if ((!strncmp(v, "zoned:", 6) || !strncmp(v, "zoned_abs:", 10)) && strchr(v, ','))
		return sb_jf_fail(c,
				  "%s=%.*s: zones per direction (',') are not supported: one set of "
				  "zones for reads and writes",
				  o->name, QUOTE_MAX, v);
	if ((!strncmp(v, "zipf:", 5) || !strncmp(v, "pareto:", 7)) &&
	    strchr(strchr(v, ':') + 1, ':'))
		return sb_jf_fail(c,
				  "%s=%.*s: a centre for the distribution (a second ':') is not "
				  "supported",
				  o->name, QUOTE_MAX, v);
	if (!strcmp(v, "random"))
		v = "uniform";
	else if (strncmp(v, "zipf:", 5) && strncmp(v, "pareto:", 7) && strncmp(v, "zoned:", 6) &&
		 strncmp(v, "zoned_abs:", 10))
		return bad_value(c, o->name, v, accepts);
	if (sb_job_set(&c->cur->opts, "random-distribution", v, hint, sizeof(hint)) < 0)
		return bad_value(c, o->name, v, accepts);
	return 0;
}

static int set_continue(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const struct alias cont[] = {
		{ "none", "none" }, { "0", "none" },  { "read", "read" }, { "write", "write" },
		{ "io", "all" },    { "all", "all" }, { "1", "all" },
	};
	const char *sb = lookup(cont, SB_ARRAY_SIZE(cont), v);
	if (!sb)
		return bad_value(c, o->name, v, "none, read, write, io or all");
	return set_as(c, o->name, "continue-on-error", sb);
}

/* fio's ignore_error=READ,WRITE[,VERIFY]: each a ':' list of errno
 * names (ENOSPC) or numbers that a failed request of that direction
 * survives, only those, as fio (continue_on_error for the direction is
 * set, as fio sets it). A verify list is refused: storbench's check
 * reports every bad block. */
static int set_ignore_error(struct ctx *c, const struct fio_opt *o, const char *v)
{
#define E(n) { #n, n }
	static const struct {
		const char *name;
		int err;
	} names[] = {
		E(EPERM),     E(ENOENT),    E(EINTR),	    E(EIO),	 E(ENXIO),     E(EBADF),
		E(EAGAIN),    E(ENOMEM),    E(EACCES),	    E(EFAULT),	 E(EBUSY),     E(EEXIST),
		E(ENODEV),    E(EINVAL),    E(EFBIG),	    E(ENOSPC),	 E(EROFS),     E(EPIPE),
		E(ERANGE),    E(ENOSYS),    E(ENODATA),	    E(ETIME),	 E(ENOLINK),   E(EPROTO),
		E(EBADMSG),   E(EOVERFLOW), E(EILSEQ),	    E(EOPNOTSUPP), E(ENOBUFS), E(ETIMEDOUT),
		E(ESTALE),    E(EUCLEAN),   E(EREMOTEIO),   E(EDQUOT),	 E(ENOMEDIUM), E(ECANCELED),
		E(EMEDIUMTYPE), E(EWOULDBLOCK), E(EHWPOISON), E(ENOTSUP), E(ECONNRESET), E(ENOTCONN),
	};
#undef E
	static const char accepts[] = "READ,WRITE lists of errno names or numbers joined by ':' "
				      "(example: ,ENOSPC:EDQUOT)";
	struct sb_job_opts *opts = &c->cur->opts;
	int err[2][SB_IGNORE_MAX];
	unsigned n[2] = { 0, 0 }, list = 0;
	for (const char *p = v;; list++) {
		const size_t len = strcspn(p, ":,");
		char one[32];
		if (list > 2 || len >= sizeof(one))
			return bad_value(c, o->name, v, accepts);
		memcpy(one, p, len);
		one[len] = 0;
		if (len && list == 2)
			return sb_jf_fail(c,
					  "%s: '%.*s': a verify list is not supported (storbench's "
					  "check reports every block that is not intact)",
					  o->name, QUOTE_MAX, v);
		if (len) {
			int e = 0;
			char *end;
			for (size_t i = 0; i < SB_ARRAY_SIZE(names) && !e; i++)
				if (!strcmp(names[i].name, one))
					e = names[i].err;
			if (!e && one[0] >= '0' && one[0] <= '9') {
				const long x = strtol(one, &end, 0);
				e = *end || x <= 0 || x > 4095 ? 0 : (int)x;
			}
			if (!e || n[list] == SB_IGNORE_MAX)
				return bad_value(c, o->name, v, accepts);
			err[list][n[list]++] = e;
		}
		p += len;
		if (!*p)
			break;
		if (*p++ == ',')
			continue;
		list--; /* ':' : the same list */
	}
	for (int d = 0; d < 2; d++) {
		if (!n[d])
			continue;
		memcpy(opts->ignore_err[d], err[d], sizeof(err[d]));
		opts->nignore[d] = n[d];
		const enum sb_continue add = d ? SB_CONTINUE_WRITE : SB_CONTINUE_READ;
		if (opts->continue_on_error == SB_CONTINUE_NONE)
			opts->continue_on_error = add;
		else if (opts->continue_on_error != add)
			opts->continue_on_error = SB_CONTINUE_ALL;
	}
	return 0;
}

/* fio's 0 logs every I/O; storbench keeps its interval then. */
static int set_log_avg(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t ms;
	char ns[32];
	if (sb_parse_u64(v, &ms) < 0)
		return bad_value(c, o->name, v, "a whole number of milliseconds");
	if (ms > UINT32_MAX)
		return bad_value(c, o->name, v, "a whole number of milliseconds");
	c->cur->opts.fiolog.avg_ms = (unsigned)ms;
	if (!ms)
		return 0;
	snprintf(ns, sizeof(ns), "%llums", (unsigned long long)ms);
	return set_as(c, o->name, "log-interval", ns);
}

/* fio's fadvise_hint: 0, 1, random, sequential (noreuse, of newer fio) */
static int set_fadvise(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char *const names[] = { "0", "1", "random", "sequential", "noreuse" };
	for (unsigned i = 0; i < SB_ARRAY_SIZE(names); i++)
		if (!strcmp(v, names[i])) {
			c->cur->opts.fadvise = (enum sb_fadvise)i;
			return 0;
		}
	return bad_value(c, o->name, v, "0, 1, random, sequential or noreuse");
}

/* fio's stat_type of filestat: the call each file's operation is */
static int set_stat_type(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char *const names[] = {
		[SB_STAT_STAT] = "stat", [SB_STAT_LSTAT] = "lstat", [SB_STAT_STATX] = "statx"
	};
	for (unsigned i = 0; i < SB_ARRAY_SIZE(names); i++)
		if (!strcmp(v, names[i])) {
			c->cur->opts.stat_type = i;
			return 0;
		}
	return bad_value(c, o->name, v, "stat, lstat or statx");
}

/* fio's donorname= of its e4defrag engine: a file beside the job's (in
 * its directory), by a plain name, never a path out of it */
static int set_donorname(struct ctx *c, const struct fio_opt *o, const char *v)
{
	char *dst = c->cur->opts.donorname;
	const size_t len = sizeof(c->cur->opts.donorname);
	if (!*v || !strcmp(v, ".") || !strcmp(v, "..") || strchr(v, '/') || strlen(v) >= len)
		return bad_value(c, o->name, v,
				 "a file name in the job's directory: no '/', not '.' or '..', "
				 "at most 255 bytes");
	snprintf(dst, len, "%s", v);
	return 0;
}

/* fio's inplace= of e4defrag: 0 or 1 */
static int set_inplace(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return bad_value(c, o->name, v, "0 or 1");
	c->cur->opts.inplace = v[0] == '1';
	return 0;
}

/* bwavgtime, iopsavgtime: o->sb "0" bw's, "1" iops' window, in ms */
static int set_avg_time(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t ms;
	if (sb_parse_u64(v, &ms) < 0 || !ms || ms > UINT32_MAX)
		return bad_value(c, o->name, v, "a whole number of milliseconds, at least 1");
	if (o->sb[0] == '0')
		c->cur->opts.fiolog.bw_avg_ms = (unsigned)ms;
	else
		c->cur->opts.fiolog.iops_avg_ms = (unsigned)ms;
	return 0;
}

/* write_bw_log[=NAME] and the like: o->sb is the kind ("0" bw, "1" iops,
 * "2" lat, "3" hist); NAME prefixes the files, the job's name when empty. */
static int set_log(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_fiolog_opts *l = &c->cur->opts.fiolog;
	const unsigned k = (unsigned)(o->sb[0] - '0');
	assert(k < SB_FIOLOG_KINDS);
	if (strlen(v) >= sizeof(l->prefix[k]))
		return bad_value(c, o->name, v, "a file name prefix of at most 255 bytes");
	snprintf(l->prefix[k], sizeof(l->prefix[k]), "%s", v);
	l->on |= 1u << k;
	return 0;
}

static int parse_bool(struct ctx *c, const struct fio_opt *o, const char *v, int *dst)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return bad_value(c, o->name, v, "0 or 1");
	*dst = v[0] == '1';
	return 0;
}

/* fio's cpuio engine: cpuload (percent, 1 to 100), cpuchunks (a burst in
 * microseconds), cpumode (noop, qsort), exit_on_io_done (a bool) */
static int set_cpuio(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_cpuio_opts *co = &c->cur->opts.cpuio;
	uint64_t n;
	if (!strcmp(o->name, "exit_on_io_done"))
		return parse_bool(c, o, v, &co->exit_io_done);
	if (!strcmp(o->name, "cpumode")) {
		if (strcmp(v, "noop") && strcmp(v, "qsort"))
			return bad_value(c, o->name, v, "noop or qsort");
		co->mode = v[0] == 'q' ? SB_CPU_QSORT : SB_CPU_NOOP;
		return 0;
	}
	if (!strcmp(o->name, "cpuload")) {
		if (sb_parse_u64(v, &n) < 0 || n < 1 || n > 100)
			return bad_value(c, o->name, v, "a percent of a CPU, 1 to 100");
		co->load = (unsigned)n;
		return 0;
	}
	if (sb_parse_u64(v, &n) < 0 || n < 1 || n > 60000000)
		return bad_value(c, o->name, v, "microseconds, 1 to 60000000");
	co->chunk_us = (unsigned)n;
	return 0;
}

/* fio's exec engine: program, arguments (kept whole: split and expanded
 * as the program starts), grace_time (seconds), std_redirect (a bool) */
static int set_exec(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_exec_opts *eo = &c->cur->opts.exec;
	uint64_t n;
	if (!strcmp(o->name, "std_redirect"))
		return parse_bool(c, o, v, &eo->std_redirect);
	if (!strcmp(o->name, "grace_time")) {
		if (sb_parse_u64(v, &n) < 0 || n > 3600)
			return bad_value(c, o->name, v, "whole seconds, 0 to 3600");
		eo->grace_s = (unsigned)n;
		return 0;
	}
	const int prog = !strcmp(o->name, "program");
	char *dst = prog ? eo->program : eo->arguments;
	const size_t cap = prog ? sizeof(eo->program) : sizeof(eo->arguments);
	if (strlen(v) >= cap || (prog && !*v))
		return bad_value(c, o->name, v,
				 prog ? "a program's path or name, shorter than 256 bytes"
				      : "arguments shorter than 1024 bytes");
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* fio's latency_target and latency_window (microseconds, or a time with
 * a unit), latency_percentile (0 to 100), latency_run (0 or 1) */
static int set_latency(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	uint64_t n;
	double p;
	if (!strcmp(o->name, "latency_run"))
		return parse_bool(c, o, v, &jo->latency_run);
	if (!strcmp(o->name, "latency_percentile")) {
		if (sb_parse_double(v, &p) < 0 || p <= 0 || p > 100)
			return bad_value(c, o->name, v, "a percent above 0, at most 100");
		jo->latency_percentile = p;
		return 0;
	}
	if (sb_parse_u64(v, &n) == 0)
		n = n > UINT64_MAX / 1000 ? UINT64_MAX : n * 1000;
	else if (sb_parse_duration_ns(v, &n) < 0)
		return bad_value(c, o->name, v, "microseconds, or a time with a unit (500ms, 5s)");
	/* fio keeps microseconds: a part of one counts as one (1ns is 1000) */
	n = n > UINT64_MAX - 999 ? UINT64_MAX / 1000 * 1000 : (n + 999) / 1000 * 1000;
	if (!strcmp(o->name, "latency_target"))
		jo->latency_target_ns = n;
	else
		jo->latency_window_us = n / 1000;
	return 0;
}

/* fio's fill_device=BOOL (fill_fs) */
static int set_fill_device(struct ctx *c, const struct fio_opt *o, const char *v)
{
	return parse_bool(c, o, v, &c->cur->opts.fill_device);
}

/* log_offset, log_max_value, per_job_logs, disable_lat/clat/slat */
static int set_log_flag(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_fiolog_opts *l = &c->cur->opts.fiolog;
	int b = 0, r = parse_bool(c, o, v, &b);
	if (r < 0)
		return r;
	if (!strcmp(o->name, "log_offset"))
		l->offset = b;
	else if (!strcmp(o->name, "log_max_value"))
		l->max = b;
	else if (!strcmp(o->name, "per_job_logs"))
		l->shared = !b;
	else if (!strcmp(o->name, "log_prio"))
		l->prio = b;
	else if (!strcmp(o->name, "disable_lat"))
		l->no_lat = b;
	else if (!strcmp(o->name, "disable_clat"))
		l->no_clat = b;
	else
		l->no_slat = b;
	return 0;
}

/* log_hist_msec and log_hist_coarseness */
static int set_log_hist(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_fiolog_opts *l = &c->cur->opts.fiolog;
	uint64_t n;
	const int coarse = !strcmp(o->name, "log_hist_coarseness");
	if (sb_parse_u64(v, &n) < 0 || n > (coarse ? 6 : UINT32_MAX))
		return bad_value(c, o->name, v,
				 coarse ? "0 to 6" : "a whole number of milliseconds");
	if (coarse)
		l->hist_coarse = (unsigned)n;
	else
		l->hist_ms = (unsigned)n;
	return 0;
}

static int set_name(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (!*v || strlen(v) >= sizeof(c->cur->opts.name))
		return bad_value(c, o->name, v, "1 to 63 characters");
	snprintf(c->cur->opts.name, sizeof(c->cur->opts.name), "%s", v);
	return 0;
}

/* filename= and directory=: one path each (fio joins several with ':';
 * a ':' inside a name, as in /dev/disk/by-path names, is written '\:'). */
static int set_path(struct ctx *c, const struct fio_opt *o, const char *v, char *dst, size_t dstlen)
{
	size_t n = 0;
	if (!*v)
		return bad_value(c, o->name, v, "a path");
	for (const char *p = v; *p; p++) {
		if (*p == ':')
			return bad_value(c, o->name, v, o->why);
		if (p[0] == '\\' && p[1] == ':')
			p++;
		if (n + 1 >= dstlen)
			return bad_value(c, o->name, v, "a shorter path");
		dst[n++] = *p;
	}
	dst[n] = 0;
	return 0;
}

/* filename=a:b:c: the job's files, as nrfiles (a ':' inside a name
 * written '\:'); the list as written stays the job's filename=, what
 * tells its target from another job's */
static int set_filename(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	char msg[128], what[192];
	const int n = sb_job_filename_list(v, jo->filenames, sizeof(jo->filenames), msg,
					   sizeof(msg));
	if (n < 0) {
		snprintf(what, sizeof(what), "a path, or paths separated by ':' (%s)", msg);
		return bad_value(c, o->name, v, what);
	}
	jo->nfilenames = 0;
	if (n == 1)
		return set_path(c, o, v, c->cur->filename, sizeof(c->cur->filename));
	if (strlen(v) >= sizeof(c->cur->filename))
		return bad_value(c, o->name, v, "a shorter list");
	snprintf(c->cur->filename, sizeof(c->cur->filename), "%s", v);
	jo->nfilenames = (unsigned)n;
	return 0;
}

static int set_directory(struct ctx *c, const struct fio_opt *o, const char *v)
{
	return set_path(c, o, v, c->cur->directory, sizeof(c->cur->directory));
}

/* fio's filename_format: the names of the job's files in its directory,
 * each one a file inside it (checked once the job's name is known) */
static int set_filename_format(struct ctx *c, const struct fio_opt *o, const char *v)
{
	char *dst = c->cur->opts.filename_format;
	const size_t len = sizeof(c->cur->opts.filename_format);
	if (strlen(v) >= len)
		return bad_value(c, o->name, v, "a name of at most 255 bytes");
	snprintf(dst, len, "%s", v);
	return 0;
}

/* fio's dedupe_percentage and dedupe_working_set_percentage (0-100),
 * dedupe_mode (repeat, working_set) and dedupe_global (a bool) */
static int set_dedupe(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *opts = &c->cur->opts;
	if (!strcmp(o->name, "dedupe_global"))
		return parse_bool(c, o, v, &opts->dedupe_global);
	if (!strcmp(o->name, "dedupe_mode")) {
		if (strcmp(v, "repeat") && strcmp(v, "working_set"))
			return bad_value(c, o->name, v, "repeat or working_set");
		opts->dedupe_ws = !strcmp(v, "working_set");
		return 0;
	}
	char *end;
	errno = 0;
	const unsigned long n = strtoul(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || n > 100)
		return bad_value(c, o->name, v, "a percentage, 0 to 100");
	*(strcmp(o->name, "dedupe_percentage") ? &opts->dedupe_ws_pct
					       : &opts->dedupe_pct) = (unsigned)n;
	return 0;
}

static int set_gtod_reduce(struct ctx *c, const struct fio_opt *o, const char *v)
{
	return parse_bool(c, o, v, &c->cur->opts.gtod_reduce);
}

/* fio's reporting options: what storbench fio prints (report/fio_text.c);
 * storbench run's report is its own, which the note says */
static int set_group_reporting(struct ctx *c, const struct fio_opt *o, const char *v)
{
	sb_jf_note(c,
		   "group_reporting: storbench fio reports the group as one, as fio; storbench run "
		   "reports each job");
	return parse_bool(c, o, v, &c->cur->opts.group_reporting);
}

static int set_thread(struct ctx *c, const struct fio_opt *o, const char *v)
{
	sb_jf_note(c, "thread: storbench's jobs are always threads");
	return parse_bool(c, o, v, &c->cur->opts.thread);
}

/* description=: kept as written (the results' job options), printed by
 * storbench fio as fio prints it */
static int set_description(struct ctx *c, const struct fio_opt *o, const char *v)
{
	(void)c;
	(void)o;
	(void)v;
	return 0;
}

static int set_stonewall(struct ctx *c, const struct fio_opt *o, const char *v)
{
	int r = parse_bool(c, o, v, &c->cur->stonewall);
	if (!r && c->cur->stonewall)
		c->cur->new_group = 1;
	return r;
}

/* fio's new_group: its groupid starts anew here (reports only) */
static int set_new_group(struct ctx *c, const struct fio_opt *o, const char *v)
{
	return parse_bool(c, o, v, &c->cur->new_group);
}

/* fio's wait_for=NAME: this job starts when job NAME is done. Taken
 * when NAME is the job just before and it started alone (the first job,
 * or one that waited itself): then it is a stonewall. */
static int set_wait_for(struct ctx *c, const struct fio_opt *o, const char *v)
{
	const struct sb_jobfile *jf = c->jf;
	const struct sb_jobfile_job *prev = jf->njobs ? &jf->jobs[jf->njobs - 1] : NULL;
	if (c->sec != SEC_JOB)
		return sb_jf_fail(c,
				  "%s: in [global] is not supported (give it in the job that "
				  "waits)",
				  o->name);
	if (!prev || strcmp(prev->name, v))
		return sb_jf_fail(c,
				  "%s=%.*s: storbench waits only for the job just before (%s%s%s)",
				  o->name, QUOTE_MAX, v, prev ? "[" : "none here",
				  prev ? prev->name : "", prev ? "]" : "");
	if (jf->njobs > 1 && !prev->stonewall)
		return sb_jf_fail(c,
				  "%s=%.*s: [%s] starts with the jobs before it; storbench waits "
				  "for all of them (use stonewall)",
				  o->name, QUOTE_MAX, v, prev->name);
	c->cur->stonewall = 1;
	c->cur->wait_for = 1;
	return 0;
}

/* fio's io_submit_mode: inline (its default) submits from the job's
 * thread, as storbench always does; offload hands each request to a
 * pool of submitter threads, which changes who calls the engine, not
 * the requests made or their rate. */
static int set_submit_mode(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (strcmp(v, "inline") && strcmp(v, "offload"))
		return bad_value(c, o->name, v, "inline or offload");
	if (!strcmp(v, "offload"))
		sb_jf_note(c,
			   "%s=offload: storbench submits from the job's own thread (the same "
			   "requests, at the same rate)",
			   o->name);
	return 0;
}

/* fio's serialize_overlap=1: no two of a job's requests in flight
 * overlap. Taken where a job has one request in flight at a time
 * (iodepth=1), which the section's end checks. */
static int set_serialize(struct ctx *c, const struct fio_opt *o, const char *v)
{
	int b = 0, r = parse_bool(c, o, v, &b);
	if (!r)
		c->cur->serialize_line = b ? c->line : 0;
	return r;
}

/* fio's thinktime (microseconds, or with a unit) and thinktime_blocks */
static int set_thinktime(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	uint64_t n;
	if (!strcmp(o->name, "thinktime_blocks")) {
		if (sb_parse_u64(v, &n) < 0 || !n || n > UINT32_MAX)
			return bad_value(c, o->name, v, "a number of requests, at least 1");
		jo->thinktime_blocks = (unsigned)n;
		return 0;
	}
	/* fio's time unit here is the microsecond */
	if (sb_parse_u64(v, &n) == 0)
		n = n > UINT64_MAX / 1000 ? UINT64_MAX : n * 1000;
	else if (sb_parse_duration_ns(v, &n) < 0)
		return bad_value(c, o->name, v, "microseconds, or a time with a unit (2ms, 1s)");
	jo->thinktime_ns = n;
	return 0;
}

/* fio's flow (a weight from 0 to 1000), flow_id and flow_sleep
 * (microseconds, or a time with a unit) */
static int set_flow(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	uint64_t n;
	if (!strcmp(o->name, "flow_sleep")) {
		if (sb_parse_u64(v, &n) == 0)
			n = n > UINT64_MAX / 1000 ? UINT64_MAX : n * 1000;
		else if (sb_parse_duration_ns(v, &n) < 0)
			return bad_value(c, o->name, v,
					 "microseconds, or a time with a unit (2ms, 1s)");
		jo->flow_sleep_ns = n;
		return 0;
	}
	const int weight = !strcmp(o->name, "flow");
	if (sb_parse_u64(v, &n) < 0 || n > (weight ? 1000 : UINT32_MAX))
		return bad_value(c, o->name, v,
				 weight ? "a weight from 0 to 1000" : "a flow number from 0");
	*(weight ? &jo->flow : &jo->flow_id) = (unsigned)n;
	return 0;
}

/* fio's zonemode: none, strided (zonesize bytes moved of every zonesize
 * + zoneskip) or zbd (zones with write pointers, emulated: lib/run/zbd.h). */
static int set_zonemode(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (strcmp(v, "none") && strcmp(v, "strided") && strcmp(v, "zbd"))
		return bad_value(c, o->name, v, "none, strided or zbd");
	c->cur->strided = !strcmp(v, "strided");
	c->cur->zbd = !strcmp(v, "zbd");
	c->cur->zone_line = c->line;
	return 0;
}

static int set_zone_size(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t n;
	if (sb_parse_size(v, &n) < 0)
		return bad_value(c, o->name, v, "a size (examples: 256m, 0)");
	if (!strcmp(o->name, "zonesize"))
		c->cur->zonesize = n;
	else if (!strcmp(o->name, "zonecapacity"))
		c->cur->zonecap = n;
	else
		c->cur->zoneskip = n;
	return 0;
}

/* zonemode=zbd's limits and policies (lib/run/zbd.h) */
static int set_zbd_opt(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_zbd_opts *z = &c->cur->opts.zbd;
	uint64_t n;
	double d;
	int b;
	if (!strcmp(o->name, "read_beyond_wp"))
		return parse_bool(c, o, v, &z->read_beyond_wp);
	if (!strcmp(o->name, "ignore_zone_limits"))
		return parse_bool(c, o, v, &b); /* no zone limits on a target without zones */
	if (!strncmp(o->name, "zone_reset_", 11)) {
		if (sb_parse_double(v, &d) < 0 || d < 0 || d > 1)
			return bad_value(c, o->name, v, "a number from 0 to 1 (examples: 0.7, 0.125)");
		*(o->name[11] == 't' ? &z->reset_threshold : &z->reset_frequency) = d;
		return 0;
	}
	if (sb_parse_u64(v, &n) < 0 || n > 4096)
		return bad_value(c, o->name, v, "a number of zones from 0 (no limit) to 4096");
	*(o->name[0] == 'j' ? &z->job_max_open : &z->max_open) = (unsigned)n;
	return 0;
}

/* fio's offset_increment: each numjobs clone's region starts that much
 * after the one before (a size; fio's percentage of the file is refused) */
static int set_offset_inc(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t n;
	if (strchr(v, '%'))
		return sb_jf_fail(c,
				  "%s=%s: a percentage of the file is not supported by storbench "
				  "(give a size)",
				  o->name, v);
	if (sb_parse_size(v, &n) < 0 || n > UINT64_MAX / 8192)
		return bad_value(c, o->name, v, "a size (examples: 1m, 124g)");
	c->cur->opts.offset_increment = n;
	c->cur->offset_inc_line = c->line;
	return 0;
}

/* fio's nrfiles (alias nr_files): the job's files, in a directory named
 * as fio names them, size= split evenly unless filesize= is given. */
static int set_nrfiles(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t n;
	char what[64];
	snprintf(what, sizeof(what), "a number of files from 1 to %u", SB_JOB_MAX_NRFILES_MADE);
	if (sb_parse_u64(v, &n) < 0 || !n || n > SB_JOB_MAX_NRFILES_MADE)
		return bad_value(c, o->name, v, what);
	c->cur->opts.nrfiles = (unsigned)n;
	c->cur->nrfiles_line = c->line;
	return 0;
}

/* fio's filesize=SIZE or LOW-HIGH (also LOW:HIGH): each file's size, a
 * range giving each file a size drawn from it (seeded by randseed). */
static int set_filesize(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char accepts[] = "a size, or LOW-HIGH sizes with LOW <= HIGH (examples: "
				      "1m, 1m-3m)";
	char lo[64];
	const char *sep = strpbrk(v, "-:");
	const size_t n = sep ? (size_t)(sep - v) : strlen(v);
	uint64_t a, b;
	if (n >= sizeof(lo))
		return bad_value(c, o->name, v, accepts);
	memcpy(lo, v, n);
	lo[n] = 0;
	if (sb_parse_size(lo, &a) < 0 || !a || sb_parse_size(sep ? sep + 1 : lo, &b) < 0 || b < a)
		return bad_value(c, o->name, v, accepts);
	c->cur->opts.filesize_lo = a;
	c->cur->opts.filesize_hi = b;
	return 0;
}

/* fio's file_service_type=random|roundrobin|sequential[:N]. */
static int set_fservice(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char accepts[] = "random, roundrobin or sequential, each with an optional "
				      ":N (switch files after N requests)";
	static const struct {
		const char *name;
		enum sb_fservice type;
	} types[] = {
		{ "roundrobin", SB_FSERVICE_RR },
		{ "sequential", SB_FSERVICE_SEQ },
		{ "random", SB_FSERVICE_RANDOM },
	};
	const char *colon = strchr(v, ':');
	const size_t n = colon ? (size_t)(colon - v) : strlen(v);
	uint64_t nr = 1;
	if (!strncmp(v, "zipf", 4) || !strncmp(v, "pareto", 6) || !strncmp(v, "normal", 6) ||
	    !strncmp(v, "gauss", 5))
		return sb_jf_fail(c,
				  "%s=%.*s: fio's skewed file choice is not supported by storbench "
				  "(use random, roundrobin or sequential)",
				  o->name, QUOTE_MAX, v);
	if (colon && (sb_parse_u64(colon + 1, &nr) < 0 || !nr || nr > UINT32_MAX))
		return bad_value(c, o->name, v, accepts);
	for (size_t i = 0; i < SB_ARRAY_SIZE(types); i++)
		if (strlen(types[i].name) == n && !strncmp(types[i].name, v, n)) {
			c->cur->opts.file_service = types[i].type;
			c->cur->opts.file_service_nr = (unsigned)nr;
			return 0;
		}
	return bad_value(c, o->name, v, accepts);
}

/* fio's blockalign (ba): random offsets on multiples of this, not of bs;
 * one value for reads and writes. */
static int set_blockalign(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char accepts[] = "a size above 0, one for reads and writes (examples: 4k, "
				      "8k)";
	uint64_t ba;
	if (strchr(v, ',') || sb_parse_size(v, &ba) < 0 || !ba || ba > UINT32_MAX)
		return bad_value(c, o->name, v, accepts);
	c->cur->opts.blockalign = (uint32_t)ba;
	return 0;
}

/* fio's write_iolog=FILE: the job's requests logged as fio logs them */
static int set_write_iolog(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	if (!*v || strlen(v) >= sizeof(jo->write_iolog))
		return bad_value(c, o->name, v, "a file name of at most 255 bytes");
	snprintf(jo->write_iolog, sizeof(jo->write_iolog), "%s", v);
	return 0;
}

/* fio's read_iolog=FILE and replay_redirect=FILE: names kept, the log
 * read once the file is (sb_jobfile_iologs) */
static int set_iolog_path(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	char *dst = !strcmp(o->name, "read_iolog") ? jo->read_iolog : jo->replay_redirect;
	if (!*v || strlen(v) >= sizeof(jo->read_iolog))
		return bad_value(c, o->name, v, "a file name of at most 255 bytes");
	if (!strcmp(v, "-"))
		return sb_jf_fail(c, "%s=-: a log on standard input is not supported (name a file)",
				  o->name);
	snprintf(dst, sizeof(jo->read_iolog), "%s", v);
	return 0;
}

/* replay_no_stall, replay_time_scale, replay_scale, replay_align */
static int set_replay(struct ctx *c, const struct fio_opt *o, const char *v)
{
	struct sb_job_opts *jo = &c->cur->opts;
	uint64_t n;
	if (!strcmp(o->name, "replay_no_stall"))
		return parse_bool(c, o, v, &jo->replay_no_stall);
	if (!strcmp(o->name, "replay_time_scale")) {
		if (sb_parse_u64(v, &n) < 0 || !n || n > 1000000)
			return bad_value(c, o->name, v,
					 "a percentage of the logged pace, at least 1");
		jo->replay_time_scale = (unsigned)n;
		return 0;
	}
	if (sb_parse_size(v, &n) < 0)
		return bad_value(c, o->name, v, "a number of bytes");
	*(!strcmp(o->name, "replay_scale") ? &jo->replay_scale : &jo->replay_align) = n;
	return 0;
}

/* fio's openfiles: how many of the job's files are open at once.
 * storbench keeps every file open, which is fio's default (0: all); a
 * smaller number is refused once the section's nrfiles is known. */
static int set_openfiles(struct ctx *c, const struct fio_opt *o, const char *v)
{
	uint64_t n;
	if (sb_parse_u64(v, &n) < 0 || n > UINT32_MAX)
		return bad_value(c, o->name, v, "a number of files (0: all)");
	c->cur->openfiles = (unsigned)n;
	c->cur->openfiles_line = c->line;
	return 0;
}

/* fio's verify=: its checksums, "meta" and "pattern" all become
 * storbench's own verify blocks (a checksum, the block's address, the
 * run's seed), the name recorded; 0 and null verify nothing. */
static int set_verify(struct ctx *c, const struct fio_opt *o, const char *v)
{
	static const char *const names[] = {
		"md5",	    "crc64",	"crc32",  "crc32c", "crc32c-intel", "crc16",
		"crc7",	    "sha1",	"sha256", "sha512", "sha3-224",	    "sha3-256",
		"sha3-384", "sha3-512", "xxhash", "meta",   "pattern",
	};
	char *dst = c->cur->opts.fio_verify;
	if (!strcmp(v, "0") || !strcmp(v, "null")) {
		dst[0] = 0;
		return 0;
	}
	for (size_t i = 0; i < SB_ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], v)) {
			snprintf(dst, sizeof(c->cur->opts.fio_verify), "%s", v);
			sb_jf_note(c,
				   "%s=%s: verified with storbench's own block format (checksum, "
				   "address, seed: docs/verify.md), fio's %s not used",
				   o->name, v, v);
			return 0;
		}
	return bad_value(c, o->name, v,
			 "0, null, md5, crc64, crc32, crc32c, crc32c-intel, crc16, crc7, sha1, "
			 "sha256, sha512, sha3-224/256/384/512, xxhash, meta or pattern");
}

static int set_do_verify(struct ctx *c, const struct fio_opt *o, const char *v)
{
	return parse_bool(c, o, v, &c->cur->do_verify);
}

static int set_verify_state(struct ctx *c, const struct fio_opt *o, const char *v)
{
	return parse_bool(c, o, v,
			  strcmp(o->name, "verify_state_load") ? &c->cur->opts.verify_state_save
							       : &c->cur->opts.verify_state_load);
}

/* Verify options that storbench's verification answers its own way: any
 * value that fio takes is accepted, with a note saying how. */
static int set_verify_note(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (!*v)
		return bad_value(c, o->name, v, "a value");
	if (strcmp(v, "0"))
		sb_jf_note(c, "%s: %s", o->name, o->why);
	return 0;
}

/* A real fio option storbench does not have, taken with the values that
 * make it do nothing (o->sb: "0" or "0|null"), so job files that spell
 * out fio's defaults run. */
static int set_noop(struct ctx *c, const struct fio_opt *o, const char *v)
{
	const char *p = o->sb;
	const size_t n = strlen(v);
	while (*p) {
		const char *bar = strchr(p, '|');
		const size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && !strncmp(p, v, n))
			return 0;
		p += len + !!bar;
	}
	return sb_jf_fail(c,
			  "%s=%.*s: fio option not supported by storbench (%s=%s, which does "
			  "nothing, is taken)",
			  o->name, QUOTE_MAX, v, o->name, o->sb);
}

#define NOOP(n, values)                      \
	{                                    \
		n, set_noop, values, NULL, 0 \
	}

static int set_ignored(struct ctx *c, const struct fio_opt *o, const char *v)
{
	if (o->why)
		sb_jf_note(c, "%s: %s: ignored", o->name, o->why);
	else
		sb_jf_note(c, "%s only changes fio's own reporting or bookkeeping: ignored",
			   o->name);
	return 0;
}

#define IGNORED(n)                            \
	{                                     \
		n, set_ignored, NULL, NULL, 1 \
	}

static const struct fio_opt fio_opts[] = {
	{ "rw", set_rw, NULL, NULL, 0 },
	{ "readwrite", set_rw, NULL, NULL, 0 },
	{ "rwmixread", set_plain, "rwmixread", NULL, 0 },
	{ "rwmixwrite", set_rwmixwrite, NULL, NULL, 0 },
	{ "bs", set_single, "bs", "one block size for reads and writes", 0 },
	{ "blocksize", set_single, "bs", "one block size for reads and writes", 0 },
	{ "bssplit", set_bssplit, "bssplit", NULL, 0 },
	{ "bsrange", set_bsrange, NULL, NULL, 0 },
	{ "blocksize_range", set_bsrange, NULL, NULL, 0 },
	{ "size", set_size, "size", NULL, 0 },
	{ "offset", set_size, "offset", NULL, 0 },
	{ "offset_increment", set_offset_inc, NULL, NULL, 0 },
	{ "iodepth", set_plain, "iodepth", NULL, 0 },
	{ "iodepth_batch_complete_min", set_batch, NULL, NULL, 0 },
	{ "iodepth_batch_complete", set_batch, NULL, NULL, 0 },
	{ "numjobs", set_plain, "numjobs", NULL, 0 },
	{ "ioengine", set_engine, NULL, NULL, 0 },
	{ "stat_type", set_stat_type, NULL, NULL, 0 },
	{ "cpuload", set_cpuio, NULL, NULL, 0 },
	{ "cpuchunks", set_cpuio, NULL, NULL, 0 },
	{ "cpumode", set_cpuio, NULL, NULL, 0 },
	{ "exit_on_io_done", set_cpuio, NULL, NULL, 1 },
	{ "program", set_exec, NULL, NULL, 0 },
	{ "arguments", set_exec, NULL, NULL, 0 },
	{ "grace_time", set_exec, NULL, NULL, 0 },
	{ "std_redirect", set_exec, NULL, NULL, 1 },
	{ "donorname", set_donorname, NULL, NULL, 0 },
	{ "inplace", set_inplace, NULL, NULL, 0 },
	{ "direct", set_plain, "direct", NULL, 1 },
	{ "buffered", set_buffered, NULL, NULL, 1 },
	{ "runtime", set_plain, "runtime", NULL, 0 },
	{ "timeout", set_plain, "runtime", NULL, 0 },
	{ "time_based", set_plain, "time-based", NULL, 1 },
	{ "ramp_time", set_plain, "ramp", NULL, 0 },
	{ "fsync", set_plain, "fsync", NULL, 0 },
	{ "end_fsync", set_plain, "end-fsync", NULL, 1 },
	{ "fdatasync", set_plain, "fdatasync", NULL, 0 },
	{ "sync", set_sync, NULL, NULL, 1 },
	{ "randseed", set_plain, "seed", NULL, 0 },
	{ "rate", set_rate, "rate", NULL, 0 },
	{ "rate_iops", set_rate, "rate-iops", NULL, 0 },
	{ "random_distribution", set_dist, NULL, NULL, 0 },
	{ "buffer_compress_percentage", set_plain, "buffer-compress", NULL, 0 },
	{ "buffer_pattern", set_plain, "buffer-pattern", NULL, 0 },
	{ "dedupe_percentage", set_dedupe, NULL, NULL, 0 },
	{ "dedupe_mode", set_dedupe, NULL, NULL, 0 },
	{ "dedupe_working_set_percentage", set_dedupe, NULL, NULL, 0 },
	{ "dedupe_global", set_dedupe, NULL, NULL, 1 },
	{ "continue_on_error", set_continue, NULL, NULL, 0 },
	{ "ignore_error", set_ignore_error, NULL, NULL, 0 },
	NOOP("error_dump", "0"),
	{ "log_avg_msec", set_log_avg, NULL, NULL, 0 },
	{ "bwavgtime", set_avg_time, "0", NULL, 0 },
	{ "fadvise_hint", set_fadvise, NULL, NULL, 0 },
	{ "iopsavgtime", set_avg_time, "1", NULL, 0 },
	{ "write_bw_log", set_log, "0", NULL, 2 },
	{ "write_iops_log", set_log, "1", NULL, 2 },
	{ "write_lat_log", set_log, "2", NULL, 2 },
	{ "write_hist_log", set_log, "3", NULL, 2 },
	{ "log_hist_msec", set_log_hist, NULL, NULL, 0 },
	{ "log_hist_coarseness", set_log_hist, NULL, NULL, 0 },
	{ "log_offset", set_log_flag, NULL, NULL, 1 },
	{ "log_max_value", set_log_flag, NULL, NULL, 1 },
	{ "log_prio", set_log_flag, NULL, NULL, 1 },
	{ "per_job_logs", set_log_flag, NULL, NULL, 1 },
	{ "disable_lat", set_log_flag, NULL, NULL, 1 },
	{ "disable_clat", set_log_flag, NULL, NULL, 1 },
	{ "disable_slat", set_log_flag, NULL, NULL, 1 },
	{ "name", set_name, NULL, NULL, 0 },
	{ "filename", set_filename, NULL, NULL, 0 },
	{ "directory", set_directory, NULL, "one directory per job", 0 },
	{ "filename_format", set_filename_format, NULL, NULL, 0 },
	{ "stonewall", set_stonewall, NULL, NULL, 1 },
	{ "wait_for_previous", set_stonewall, NULL, NULL, 1 },
	{ "nrfiles", set_nrfiles, NULL, NULL, 0 },
	{ "norandommap", set_plain, "norandommap", NULL, 1 },
	{ "random_generator", set_ignored, NULL,
	  "storbench's own generator covers each block once per pass", 0 },
	{ "iodepth_batch", set_plain, "iodepth-batch-submit", NULL, 0 },
	{ "iodepth_batch_submit", set_plain, "iodepth-batch-submit", NULL, 0 },
	{ "loops", set_plain, "loops", NULL, 0 },
	{ "io_size", set_plain, "io-size", NULL, 0 },
	{ "io_limit", set_plain, "io-size", NULL, 0 },
	{ "number_ios", set_plain, "number-ios", NULL, 0 },
	{ "startdelay", set_plain, "startdelay", NULL, 0 },
	{ "invalidate", set_plain, "invalidate", NULL, 1 },
	{ "registerfiles", set_ignored, NULL, "storbench registers the file itself where it can",
	  1 },
	{ "fixedbufs", set_ignored, NULL, "storbench registers its buffers with io_uring itself",
	  1 },
	{ "file_service_type", set_fservice, NULL, NULL, 0 },
	{ "thinktime", set_thinktime, NULL, NULL, 0 },
	{ "flow", set_flow, NULL, NULL, 0 },
	{ "flow_id", set_flow, NULL, NULL, 0 },
	{ "flow_sleep", set_flow, NULL, NULL, 0 },
	NOOP("thinktime_spin", "0"),
	{ "thinktime_blocks", set_thinktime, NULL, NULL, 0 },
	NOOP("thinktime_iotime", "0"),
	{ "verify", set_verify, NULL, NULL, 0 },
	{ "do_verify", set_do_verify, NULL, NULL, 1 },
	{ "verify_state_save", set_verify_state, NULL, NULL, 0 },
	{ "verify_state_load", set_verify_state, NULL, NULL, 0 },
	{ "verify_fatal", set_verify_note, NULL,
	  "storbench checks every block and exits 1 when any is not intact", 1 },
	{ "verify_backlog", set_verify_note, NULL,
	  "storbench checks every block once the job is done, not during it", 0 },
	{ "verify_pattern", set_verify_note, NULL,
	  "storbench writes its own block format, not this pattern", 0 },
	{ "verify_interval", set_verify_note, NULL,
	  "storbench's verify blocks are 4 KiB (512 B for smaller requests)", 0 },
	{ "verify_async", set_verify_async, NULL,
	  "storbench checks after the job in one pass per file, the same blocks read and "
	  "counted as fio's threads check",
	  0 },
	{ "verify_async_cpus", set_verify_async, NULL,
	  "the CPUs of fio's verify threads: storbench has none (it checks after the job)", 0 },
	{ "experimental_verify", set_verify_note, NULL,
	  "storbench checks every block it wrote, as verify= does", 1 },
	NOOP("verify_dump", "0|1"),
	{ "rate_min", set_ratemin, "rate", NULL, 0 },
	{ "ratemin", set_ratemin, "rate", NULL, 0 },
	{ "rate_iops_min", set_ratemin, "rate-iops", NULL, 0 },
	{ "rate_cycle", set_ratecycle, NULL, NULL, 0 },
	{ "rate_process", set_rate_process, NULL, NULL, 0 },
	{ "latency_target", set_latency, NULL, NULL, 0 },
	{ "latency_window", set_latency, NULL, NULL, 0 },
	{ "latency_percentile", set_latency, NULL, NULL, 0 },
	{ "latency_run", set_latency, NULL, NULL, 1 },
	{ "steadystate", set_steadystate, NULL, NULL, 0 },
	{ "ss", set_steadystate, NULL, NULL, 0 },
	{ "steadystate_duration", set_ss_time, "dur", NULL, 0 },
	{ "ss_dur", set_ss_time, "dur", NULL, 0 },
	{ "steadystate_ramp_time", set_ss_time, "ramp", NULL, 0 },
	{ "ss_ramp", set_ss_time, "ramp", NULL, 0 },
	{ "ratecycle", set_ratecycle, NULL, NULL, 0 },
	NOOP("nice", "0"),
	NOOP("zero_buffers", "0"),
	{ "fill_device", set_fill_device, NULL, NULL, 1 },
	{ "fill_fs", set_fill_device, NULL, NULL, 1 },
	NOOP("exitall_on_error", "0"),
	NOOP("fsync_on_close", "0"),
	NOOP("stats", "1"),
	{ "group_reporting", set_group_reporting, NULL, NULL, 1 },
	{ "thread", set_thread, NULL, NULL, 1 },
	{ "description", set_description, NULL, NULL, 0 },
	{ "threads", set_ignored, NULL,
	  "the tiobench profile's thread count, nothing without profile=tiobench", 0 },
	{ "wait_for", set_wait_for, NULL, NULL, 0 },
	{ "new_group", set_new_group, NULL, NULL, 1 },
	{ "zonemode", set_zonemode, NULL, NULL, 0 },
	{ "serialize_overlap", set_serialize, NULL, NULL, 1 },
	{ "unlink", set_ignored, NULL,
	  "storbench removes the files it created after the run (--keep keeps them)", 1 },
	{ "create_serialize", set_ignored, NULL,
	  "storbench creates a job's files before the jobs start, one after another", 1 },
	{ "create_on_open", set_ignored, NULL,
	  "storbench creates a job's files before the jobs start, not when it opens them "
	  "(ioengine=filecreate creates each as it opens it, as fio)",
	  1 },
	{ "zonesize", set_zone_size, NULL, NULL, 0 },
	{ "zoneskip", set_zone_size, NULL, NULL, 0 },
	{ "zonecapacity", set_zone_size, NULL, NULL, 0 },
	{ "max_open_zones", set_zbd_opt, NULL, NULL, 0 },
	{ "job_max_open_zones", set_zbd_opt, NULL, NULL, 0 },
	{ "zone_reset_threshold", set_zbd_opt, NULL, NULL, 0 },
	{ "zone_reset_frequency", set_zbd_opt, NULL, NULL, 0 },
	{ "read_beyond_wp", set_zbd_opt, NULL, NULL, 1 },
	{ "ignore_zone_limits", set_zbd_opt, NULL, NULL, 1 },
	{ "io_submit_mode", set_submit_mode, NULL, NULL, 0 },
	IGNORED("randrepeat"),
	IGNORED("unit_base"),
	IGNORED("kb_base"),
	IGNORED("percentile_list"),
	IGNORED("clat_percentiles"),
	IGNORED("lat_percentiles"),
	IGNORED("slat_percentiles"),
	IGNORED("disable_bw_measurement"),
	IGNORED("allow_file_create"),
	IGNORED("refill_buffers"),
	IGNORED("scramble_buffers"),
	{ "exitall", set_exitall, NULL, NULL, 1 },
	{ "cpus_allowed", set_cpus, NULL, NULL, 0 },
	{ "cpumask", set_cpus, NULL, NULL, 0 },
	{ "cpus_allowed_policy", set_cpus_policy, NULL, NULL, 0 },
	{ "numa_cpu_nodes", set_numa_cpus, NULL, NULL, 0 },
	{ "prio", set_prio, NULL, NULL, 0 },
	{ "prioclass", set_prio, NULL, NULL, 0 },
	{ "cmdprio_percentage", set_cmdprio, NULL, NULL, 0 },
	{ "cmdprio_class", set_cmdprio, NULL, NULL, 0 },
	{ "cmdprio", set_cmdprio, NULL, NULL, 0 },
	{ "cmdprio_bssplit", set_cmdprio_bssplit, NULL, NULL, 0 },
	{ "numa_mem_policy", set_numa_mem, NULL, NULL, 0 },
	{ "exit_what", set_exit_what, NULL, NULL, 0 },
	IGNORED("fallocate"),
	{ "gtod_reduce", set_gtod_reduce, NULL, NULL, 1 },
	{ "openfiles", set_openfiles, NULL, NULL, 0 },
	{ "nr_files", set_nrfiles, NULL, NULL, 0 },
	{ "filesize", set_filesize, NULL, NULL, 0 },
	{ "blockalign", set_blockalign, NULL, NULL, 0 },
	{ "ba", set_blockalign, NULL, NULL, 0 },
	{ "write_iolog", set_write_iolog, NULL, NULL, 0 },
	{ "read_iolog", set_iolog_path, NULL, NULL, 0 },
	{ "replay_redirect", set_iolog_path, NULL, NULL, 0 },
	{ "replay_no_stall", set_replay, NULL, NULL, 1 },
	{ "replay_time_scale", set_replay, NULL, NULL, 0 },
	{ "replay_scale", set_replay, NULL, NULL, 0 },
	{ "replay_align", set_replay, NULL, NULL, 0 },
	{ "read_iolog_chunked", set_ignored, NULL,
	  "storbench reads the whole log before the job starts", 1 },
};

/* What the table above means for each of fio's options, for the
 * compatibility table: the setter says the kind, the note what is taken. */
static const struct {
	const char *name, *note;
} docs[] = {
	{ "rw", "read, write, randread, randwrite, rw, readwrite, randrw, trim, randtrim, "
		"trimwrite, randtrimwrite (each block trimmed, then written at its offset and "
		"length: size bytes of each, as fio); a sequential one with :SIZE (holes of SIZE "
		"after each request, from the start again past the end; a request crossing the "
		"end ends the job, as fio, unless time_based or io_size) or :-SIZE (back, from the "
		"end again), as fio; a random one's :N (a new offset every N requests) is "
		"refused" },
	{ "norandommap", "random offsets drawn afresh each time, a pass ending once its bytes are "
			 "moved, its last request whole (up to a block more than size=, as fio); "
			 "with verify or nrfiles above 1 each block once" },
	{ "readwrite", "as rw" },
	{ "bs", "one size, or READ,WRITE,TRIM where the directions the job's rw uses "
		"agree (a write job's write size; randtrimwrite's trim size, its writes taking "
		"it, as fio with norandommap); sizes that differ are refused" },
	{ "blocksize", "as bs" },
	{ "bssplit", "one split, or READ,WRITE,TRIM splits (an empty one: the direction's bs; "
		     "the last one given goes on), each request's size from its direction's, "
		     "as fio; trims of a split of their own refused; each block once per "
		     "random pass; a size without a share (4k or 4k/) gets an equal part of "
		     "the rest, as fio" },
	{ "buffer_pattern", "every write buffer holds it repeated from its start, as fio "
			    "(\"TEXT\", 0xHEX, DECIMAL joined, at most 512 bytes); with verify= "
			    "the verify blocks are written, as fio's; a 'FILE' part and %o are "
			    "refused, as is buffer_compress_percentage with it" },
	{ "bsrange", "LOW-HIGH: the multiples of LOW up to HIGH in equal shares, as fio draws "
		     "them (at most 16 sizes, one range for reads and writes); with bssplit, "
		     "bssplit chooses, as fio" },
	{ "blocksize_range", "as bsrange" },
	{ "size", "also N% of the file or device; 0 is the whole file" },
	{ "offset", "also N%; on a new file, the file is made offset + size long, as fio" },
	{ "iodepth_batch_complete_min", "0 and 1 both wait for one completion" },
	{ "iodepth_batch_complete", "as iodepth_batch_complete_min" },
	{ "ioengine", "the engines below (fio's default, psync, when not given)" },
	{ "stat_type", "stat (fio's default), lstat or statx: the call ioengine=filestat times "
		       "on each file (statx by the name as given, without fio's realpath)" },
	{ "cpuload", "ioengine=cpuio: the percent of a CPU each thread uses, 1 to 100 (fio "
		     "takes above 100 as 100), required" },
	{ "cpuchunks", "ioengine=cpuio: a noop burst, microseconds (50000); each followed by "
		       "a pause that makes it cpuload percent" },
	{ "cpumode", "ioengine=cpuio: noop (a busy loop, fio's default) or qsort (sorts of "
		     "256 Ki numbers, the pause sized from the last one)" },
	{ "exit_on_io_done", "ioengine=cpuio: the job ends once the other jobs of its "
			     "stonewall group that do I/O have ended (fio also waits for I/O "
			     "jobs of later groups, which cannot start before it ends)" },
	{ "program", "ioengine=exec: the program run (no shell), found in PATH without a "
		     "'/'; required; one that cannot be run leaves the job running to its "
		     "runtime, error 0, as fio 3.33" },
	{ "arguments", "ioengine=exec: split at spaces; %r the runtime in whole seconds, %n "
		       "the job's name, as fio" },
	{ "grace_time", "ioengine=exec: seconds from SIGTERM, at the end of the runtime, to "
			"SIGKILL (1)" },
	{ "std_redirect", "ioengine=exec: 1 (the default) sends the program's stdout and "
			  "stderr to JOB.stdout and JOB.stderr in the working directory, fio's "
			  "names, through the write gate as fio's logs (a new file, one "
			  "storbench made, or with --destroy-data any regular file)" },
	{ "donorname", "ioengine=e4defrag's donor file (needed with it), made beside the job's "
			"file in its directory (a plain name, no '/': fio also takes a path); "
			"an existing one is used only when it is storbench's or with "
			"--destroy-data; it stays after the run, as fio's" },
	{ "inplace", "ioengine=e4defrag's: 0 the donor's range allocated once before the "
		     "moves, 1 each move allocates its range in the donor and truncates the "
		     "donor after, as fio" },
	{ "thread", "storbench's jobs are always threads; storbench fio's output says "
		    "\"Starting N threads\" with it and \"N processes\" without, as fio" },
	{ "group_reporting", "a stonewall group's jobs and their numjobs clones are reported "
			     "as one (normal, terse and JSON output); without it each clone "
			     "is an entry of its own, as in fio" },
	{ "openfiles", "0 or at least nrfiles: storbench keeps every file of a job open for the "
		       "whole job; fewer is refused, but for ioengine=filecreate, filestat and "
		       "filedelete, which hold none open (filecreate its last file) and take "
		       "any" },
	{ "randrepeat", "offsets repeat from one run to the next only when randseed is given" },
	{ "exitall", "when the first thread of a job ends, the jobs exit_what names stop "
		     "(those running in its reporting group by default), as fio; given in any "
		     "section, for every job" },
	{ "exit_what", "group (by default): the jobs running of the ended one's reporting "
		       "group stop; stonewall: every job running; all: as stonewall, refused "
		       "when a stonewall group follows (storbench starts it)" },
	{ "fallocate", "storbench lays a new file out by writing it" },
	{ "allow_file_create", "storbench creates the files it needs (and removes them)" },
	{ "refill_buffers", "storbench's write data is its own (buffer_compress_percentage "
			    "sets how much compresses)" },
	{ "scramble_buffers", "as refill_buffers" },
	{ "timeout", "as runtime" },
	{ "fdatasync", "an fdatasync after every N writes, timed as fio's sync latency; counted in "
		       "the JSON's sync lat_ns, not its total_ios, as fio 3.33" },
	{ "sync", "0, 1, none, sync, dsync" },
	{ "rate", "READ,WRITE caps each direction alone; a trim cap is refused in a job that "
		  "trims (one that does not, as fio, has nothing to cap)" },
	{ "rate_iops", "requests per second; READ,WRITE caps each direction alone; a trim cap "
		       "as rate's" },
	{ "rate_min", "READ,WRITE floors, each direction's alone: once the job has measured 2 s, "
		      "each ratecycle's rate of a direction that moved below its floor ends the "
		      "job with EIO (the error in fio's JSON, exit 1), as fio's check_min_rate; "
		      "the others go on; a trim floor as rate's trim cap" },
	{ "ratemin", "as rate_min" },
	{ "rate_iops_min", "as rate_min, in requests per second" },
	{ "rate_cycle", "milliseconds each rate_min check spans (1000 by default), as fio" },
	{ "ratecycle", "as rate_cycle" },
	{ "random_distribution",
	  "random, zipf:THETA, pareto:H, zoned, zoned_abs (one set of zones for all "
	  "directions); normal, gauss, sequence and a centre value are refused" },
	{ "continue_on_error", "none, 0, read, write, io, all, 1" },
	{ "log_avg_msec", "the write_*_log files' window, as fio; also storbench's time series "
			  "interval (0 keeps its 1 s)" },
	{ "fadvise_hint", "1 by default, as fio: POSIX_FADV_RANDOM on a random job's region, "
			  "SEQUENTIAL on a sequential one's, as its files open (buffered or "
			  "direct); 0 none; random, sequential, noreuse that one" },
	{ "bwavgtime", "milliseconds between the bw samples of fio's output (bw_min, bw_max, "
		       "bw_mean, bw_dev, bw_samples), 500 by default, as fio (log_avg_msec with "
		       "write_bw_log, each request's with log_avg_msec=0)" },
	{ "iopsavgtime", "as bwavgtime, for the iops samples (with write_iops_log)" },
	{ "write_bw_log", "NAME_bw.N.log in fio's format (docs/jobfiles.md, Log files)" },
	{ "write_iops_log", "NAME_iops.N.log in fio's format" },
	{ "write_lat_log", "NAME_lat.N.log, NAME_clat.N.log, NAME_slat.N.log in fio's format" },
	{ "write_hist_log", "NAME_clat_hist.N.log in fio's format (lines with log_hist_msec)" },
	{ "per_job_logs", "0: one file per NAME, appended to, as fio" },
	{ "disable_lat", "1: no NAME_lat log; storbench's results still report lat" },
	{ "disable_clat", "1: no NAME_clat log; storbench's results still report clat" },
	{ "disable_slat", "1: no NAME_slat log; storbench's results still report slat" },
	{ "filename", "a path, or several separated by ':' (a ':' inside a name escaped with a "
		      "backslash): the job's files, as nrfiles, size split evenly over them, each "
		      "name passing the checks a single one passes; files (new or existing) or "
		      "devices, not mixed, not directories; numjobs=1, the job alone in its group" },
	{ "directory", "one directory per job" },
	{ "filename_format", "the names of the job's files in its directory: $jobname (the "
			     "section's), $jobnum (the numjobs clone, from 0), $filenum (from 0) "
			     "replaced in any case, $clientuid by nothing (no client/server), as "
			     "fio; a name that is not a file inside the directory ('/', '.', "
			     "'..') is refused; with filename= not used, as fio" },
	{ "wait_for_previous", "as stonewall" },
	{ "nrfiles", "files per job in a directory, named JOB.JOBNUM.FILENUM as fio names them, "
		     "size split evenly unless filesize is given; with filename= one file, as "
		     "fio; at most 256 (16777216 with ioengine=filecreate, filestat and "
		     "filedelete), every clone's together; --parse-only refuses more" },
	{ "nr_files", "as nrfiles" },
	{ "filesize", "SIZE, or LOW-HIGH (or LOW:HIGH): each file a size drawn from the range "
		      "(randseed repeats it), rounded down to bs, as fio; a LOW above HIGH is "
		      "refused (fio swaps them). One file of SIZE: the job moves at most SIZE "
		      "(size= capped, SIZE without size=), as fio" },
	{ "file_service_type", "roundrobin (fio's default), sequential, random, each with "
			       ":N; zipf, pareto, normal and gauss are refused" },
	{ "blockalign", "one alignment for reads and writes (not a READ,WRITE list); random "
			"offsets on its multiples, not bs's" },
	{ "ba", "as blockalign" },
	{ "io_limit", "as io_size" },
	{ "iodepth_batch", "as iodepth_batch_submit" },
	{ "invalidate", "1 by default, as fio: the region's page cache dropped before each loop" },
	{ "verify",
	  "md5, crc32c, sha256, ..., meta, pattern: storbench's own blocks (checksum, address, "
	  "seed), fio's checksum not used, its name recorded; 0 and null verify nothing. Every "
	  "block of the region checked; the reads of what the job wrote, one per write of its "
	  "size, are the job's reads as fio's, each block once (fio reads it per write of it). "
	  "Verifying jobs run alone, or together on regions apart; one that only reads (one "
	  "loop, as fio) checks what the last verify= job before it wrote on its filename= "
	  "(no size: the file's, when it starts), or with none the blocks an earlier run left "
	  "on a file that is there; all add to one verdict" },
	{ "do_verify", "0: the job writes verify blocks (a later job's verify= checks them) and "
		       "checks nothing; a job that only reads verifies nothing" },
	{ "wait_for", "the job just before, when it started alone (the first job, or one with "
		      "stonewall or wait_for): it starts when that one ended, reported in its "
		      "group as fio reports it (a group of its own with new_group or "
		      "stonewall); another job is refused" },
	{ "new_group", "a reporting group of its own from this job on (fio's groupid), the "
		       "jobs still starting together" },
	{ "thinktime", "microseconds (or with a unit): a stall after every thinktime_blocks "
		       "requests, those in flight reaped first; thinktime_spin (a busy part) is "
		       "refused but 0" },
	{ "thinktime_blocks", "requests between stalls (1 by default), counted as issued" },
	{ "zonemode", "none; strided with a sequential rw: of every zonesize + zoneskip bytes "
		      "the first zonesize, from the region's start again at its end, as fio; "
		      "zbd: zones of zonesize emulated on a file or a device without zones, as "
		      "fio (writes at each zone's write pointer); a zoned block device is refused" },
	{ "zonesize", "with zonemode=strided: a multiple of bs (one bs, not bssplit or bsrange); "
		      "with zbd: required, at least 512, at least bs (trims: bs equal to it)" },
	{ "zoneskip", "with zonemode=strided: the bytes skipped after each zone" },
	{ "zonecapacity", "with zonemode=zbd: each zone's writable bytes, at most zonesize" },
	{ "max_open_zones", "with zonemode=zbd: zones written at once in the file, 0 to 4096 "
			    "(0: no limit)" },
	{ "job_max_open_zones", "with zonemode=zbd: zones this job writes at once (needs "
				"max_open_zones)" },
	{ "zone_reset_threshold", "with zonemode=zbd: 0 to 1, the share of the region written "
				  "from which zone_reset_frequency resets zones" },
	{ "zone_reset_frequency", "with zonemode=zbd: F from 0 to 1, a zone reset every 1/F writes "
				  "past zone_reset_threshold" },
	{ "read_beyond_wp", "with zonemode=zbd: 0 (fio's default) reads only what is below the "
			    "write pointers (none: the job ends), 1 reads anywhere" },
	{ "ignore_zone_limits", "0 or 1: no effect, an emulated target has no zone limits" },
	{ "serialize_overlap", "1 with iodepth=1 (a job has one request in flight, so none "
			       "overlap); with a deeper queue it is refused" },
	{ "flow", "a weight from 0 to 1000: the jobs running together with the same flow_id "
		  "issue requests in proportion to their weights, as fio's (a job held back "
		  "reaps what it has in flight, then stalls flow_sleep microseconds or yields)" },
	{ "flow_watermark", "fio 3.33 has no flow_watermark" },
	{ "fill_device", "1: the job writes until the file system is full (ENOSPC or EDQUOT "
			 "ends it as done, not as an error: exit 0, error 0 in the JSON), a "
			 "new file without size= as large as the space free when it starts, "
			 "as fio; on a device, to its end" },
	{ "fill_fs", "as fill_device" },
	{ "steadystate", "iops, iops_slope, bw, bw_slope with a limit (in percent of the "
			 "window's mean, or absolute): the job (with group_reporting its "
			 "reporting group, whose jobs must agree, as fio) ends once the largest "
			 "deviation from the mean, or the least squares slope, of its last "
			 "ss_dur one-second figures is below it, as fio 3.33's steadystate_check "
			 "(storbench's own PTS rule is storbench pts); the JSON's steadystate "
			 "object and the normal output's steadystate line as fio's; numjobs "
			 "above 1 without group_reporting is refused (fio judges each clone)" },
	{ "ss", "as steadystate" },
	{ "ss_dur", "as steadystate_duration" },
	{ "ss_ramp", "as steadystate_ramp_time" },
	{ "steadystate_duration", "the window, in whole seconds (0: no steady state), as fio" },
	{ "steadystate_ramp_time", "the time before the first figure is taken (which is 1 s "
				   "after it), as fio" },
	{ "steadystate_check_interval", "fio 3.33 has no steadystate_check_interval (it "
					"judges once a second)" },
	{ "ss_interval", "as steadystate_check_interval" },
	{ "read_iolog", "fio's version 2 and 3 logs (what write_iolog writes), replayed on one "
			"file in the log's order (the log's file, or replay_redirect's), version "
			"3 at the logged pace; the job's size is the log's reach unless given, "
			"its directions and block the log's; numjobs, loops, time_based, offset "
			"and nrfiles with it are refused, as are blktrace logs and '-'" },
	{ "replay_no_stall", "1: the requests one after another, not at the logged pace" },
	{ "replay_time_scale", "the pace in percent of the logged one, as fio" },
	{ "replay_redirect", "the file the log's requests go to, whatever files it names" },
	{ "replay_scale", "offsets divided by it, as fio" },
	{ "replay_align", "offsets rounded down to its multiple, as fio" },
	{ "write_iolog", "every request as it is issued (and each file's add, open and close), "
			 "in fio 3.33's I/O log format (version 3: microseconds since the job "
			 "began, file, read/write/trim/sync/datasync, offset, length), which fio "
			 "replays; with numjobs above 1 refused (fio's clones write over one "
			 "log), as is the job's own file" },
	{ "verify_state_save",
	  "1 (given; fio saves by default): a verify= job that writes leaves fio's "
	  "local-JOB-N-verify.state beside its file, in storbench's own text (docs/jobfiles.md; "
	  "fio does not read it, nor storbench fio's binary one), saying which blocks are valid "
	  "(its region once the fill before the workload ended), and its file is kept; never "
	  "over a file that is no state file. One file per job (not numjobs or nrfiles > 1)" },
	{ "verify_state_load",
	  "1: a verify= job that only reads checks what the saved state says was written (the "
	  "writer's seed, block size and region; nothing when its fill had not ended), in a "
	  "later run; its file must be the writer's" },
	{ "verify_only", "storbench checks what a job of the same run wrote, in its own block "
			 "format: data another run wrote is checked by storbench verify "
			 "--phase=check, on a region storbench verify --phase=write filled" },
	{ "latency_target", "microseconds (or a time with a unit): the queue depth is searched "
			    "from 1 up to iodepth, doubled after each latency_window in which "
			    "latency_percentile of the requests completed within it, bisected "
			    "once a depth failed, and once it settles the job measures one more "
			    "window at that depth and ends, as fio 3.33's lat_target_*; the "
			    "depth found is the JSON's latency_depth (storbench cliff finds a "
			    "device's limit its own way)" },
	{ "latency_window", "microseconds (or a time with a unit) each depth is tried for" },
	{ "latency_percentile", "the percent of a window's requests that must meet the "
				"target (100 by default: one request over it lowers the depth)" },
	{ "latency_run", "1: the search never settles, the job runs on at the depths it "
			 "finds, as fio" },
	{ "rate_process", "linear (fio's default: evenly) or poisson: the requests a rate or "
			  "rate_iops caps at the arrivals of a Poisson process of the same mean "
			  "rate (exponential gaps, drawn from randseed), as fio" },
	{ "cpus_allowed", "CPU numbers and ranges (0-3,6): every thread of the job runs on "
			  "them (sched_setaffinity), as fio; a CPU the machine does not have "
			  "is refused before anything runs" },
	{ "cpumask", "a mask (0x3: CPUs 0 and 1), as cpus_allowed" },
	{ "cpus_allowed_policy", "shared (all the CPUs for each thread), split (each thread "
				 "one of them in turn, by fio's thread number), as fio" },
	{ "numa_cpu_nodes", "node numbers and ranges (0-1), or all: every thread of the job runs "
			    "on those nodes' CPUs (from sysfs, sched_setaffinity, without "
			    "libnuma), in place of cpus_allowed, as fio; a node the machine does "
			    "not have is refused, naming those it has" },
	{ "numa_mem_policy", "default, local, prefer:NODE, bind:NODES, interleave:NODES: the "
			     "policy of each thread of the job (set_mempolicy) and of its I/O "
			     "buffers (mbind), as fio; a node the machine does not have is "
			     "refused" },
	{ "ignore_error", "READ,WRITE lists of errnos (ENOSPC:EDQUOT, or numbers): a failed "
			  "request of that direction with one of them is survived, only those, "
			  "as fio (continue_on_error for the direction set); counted in the "
			  "errors, exit 1 as continue_on_error; a VERIFY list is refused" },
	{ "dedupe_percentage", "that share of the write buffers, drawn one by one, repeats one "
			       "made before (each 4 KiB block of it as compressible as "
			       "buffer_compress_percentage says), as fio; 100: every buffer the "
			       "same; not with buffer_pattern or verify=" },
	{ "dedupe_mode", "repeat (the last unique buffer again) or working_set (one of the "
			 "first unique buffers, dedupe_working_set_percentage of size), as fio; "
			 "working_set needs size=, one file, and the two percentages at most 100 "
			 "together, as fio" },
	{ "dedupe_working_set_percentage", "5 by default, as fio" },
	{ "dedupe_global", "1 with working_set: the working set spread over every thread of "
			   "the file, so the jobs' buffers repeat each other's, as fio" },
	{ "prio", "0 to 7: the level of the job's I/O priority, each thread's (ioprio_set) and "
		  "every request's that cmdprio does not choose, as fio; its latencies kept "
		  "apart in the JSON's prios when two priorities were used" },
	{ "prioclass", "0 to 3 (0: best effort), as prio" },
	{ "cmdprio_percentage", "READ,WRITE: the share of the requests sent with cmdprio_class "
				"and cmdprio (io_uring's sqe ioprio, libaio's IOCB_FLAG_IOPRIO), "
				"drawn per request as fio; the JSON's prios keep each priority's "
				"clat, as fio 3.33; with another engine refused, as fio" },
	{ "cmdprio_class", "READ,WRITE: 1 to 3 (1, RT, by default), as fio" },
	{ "cmdprio", "READ,WRITE: 0 to 7 (0 by default), as fio" },
	{ "cmdprio_bssplit", "READ,WRITE lists of BS/PERCENT (cmdprio_class and cmdprio's "
			     "priority) or BS/PERCENT/CLASS/LEVEL joined by ':': that share of "
			     "the requests of that size go with it, as fio 3.33; a fifth field "
			     "(later fio's hint) is read and no hint sent, as 3.33; at most 4 "
			     "priorities a direction with the job's own" },
	{ "log_prio", "1: the logs' fifth column is the request's ioprio (0x6000), as fio; 0: 1 "
		      "for an RT class request, else 0" },
	{ "io_submit_mode", "inline, as fio; offload runs inline: storbench submits from the job's "
			    "own thread (the same requests at the same rate)" },
	{ "offset_increment", "numjobs clone k starts at offset + k * offset_increment and "
			      "moves size (or io_size) bytes there, as fio; a new file is made "
			      "long enough for the last clone (in a directory every clone's file "
			      "is); a percentage, and nrfiles above 1 with it, are refused" },
	{ "gtod_reduce", "1: no latency is kept (slat, clat, lat and sync empty, as fio's JSON); "
			 "fio's text shows bw and iops, no latency line" },
};

static const char *doc_of(const char *name)
{
	for (size_t i = 0; i < SB_ARRAY_SIZE(docs); i++)
		if (!strcmp(docs[i].name, name))
			return docs[i].note;
	return NULL;
}

const char *sb_fio_support_name(enum sb_fio_support s)
{
	switch (s) {
	case SB_FIO_HONOURED: return "honoured";
	case SB_FIO_MAPPED: return "mapped";
	case SB_FIO_NOOP: return "no-op values only";
	case SB_FIO_IGNORED: return "ignored";
	case SB_FIO_REFUSED: return "refused";
	}
	return "?";
}

int sb_fio_option_support(unsigned i, struct sb_fio_support_info *out)
{
	const char *name = sb_fio_option_name(i);
	const struct fio_opt *o = NULL;
	if (!name)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->name = name;
	for (size_t k = 0; k < SB_ARRAY_SIZE(fio_opts) && !o; k++)
		if (!strcmp(fio_opts[k].name, name))
			o = &fio_opts[k];
	const char *doc = doc_of(name);
	if (!o) {
		out->support = SB_FIO_REFUSED;
	} else if (o->set == set_noop) {
		out->support = SB_FIO_NOOP;
		size_t n = (size_t)snprintf(out->note, sizeof(out->note), "taken: ");
		for (const char *p = o->sb; *p && n + 2 < sizeof(out->note); p++) {
			if (*p == '|')
				n += (size_t)snprintf(out->note + n, sizeof(out->note) - n, ", ");
			else
				out->note[n++] = *p;
		}
		out->note[n] = 0;
	} else if (o->set == set_ignored) {
		out->support = SB_FIO_IGNORED;
		snprintf(out->note, sizeof(out->note), "%s",
			 o->why ? o->why : "only changes fio's own reporting or bookkeeping");
	} else if (o->set == set_verify || o->set == set_verify_note || o->set == set_do_verify ||
		   o->set == set_verify_async || o->set == set_verify_state ||
		   o->set == set_submit_mode) {
		out->support = SB_FIO_MAPPED;
		if (o->why)
			snprintf(out->note, sizeof(out->note), "%s", o->why);
	} else {
		out->support = SB_FIO_HONOURED;
	}
	if (doc)
		snprintf(out->note, sizeof(out->note), "%s", doc);
	return 0;
}

/* What an engine does that its name alone does not say. */
static const struct {
	const char *name, *note;
} engine_docs[] = {
	{ "posixaio", "runs as io_uring: POSIX AIO (glibc's threads) and io_uring both keep "
		      "iodepth requests in flight, buffered or direct (io_uring's buffered ones "
		      "in its kernel workers)" },
	{ "filestat", "as fio's: each file (JOB.N.F in the directory, nrfiles up to 16777216, "
		      "or filename='s new file) laid out new first, none held open, then a "
		      "stat of its name per file and loop is timed (clat and lat) and counted "
		      "with bs's bytes; the file's other requests are counted, not timed; "
		      "nothing is read; with filesize=LOW-HIGH every clone's files have the "
		      "first clone's sizes" },
	{ "filedelete", "as fio's: laid out as filestat's, then an unlink of its name per "
			"file is timed and counted as filestat's stat; a name that is no longer "
			"the regular file storbench made there (its inode) is not unlinked (an "
			"error)" },
	{ "ftruncate", "as fio's: each write truncates the file to its offset (its bytes "
		       "counted, none written), a read is an error; only on files storbench lays "
		       "out" },
	{ "falloc", "as fio's: each request an fallocate of its range (write: mode 0, read: "
		    "KEEP_SIZE, trim: PUNCH_HOLE), no data moved; only on files storbench lays "
		    "out" },
	{ "filecreate", "as fio's: nothing laid out; each file (JOB.N.F in the directory, "
			"nrfiles up to 16777216, or filename='s) is created by its first request "
			"of a loop, the open timed (clat and lat) and counted with bs's bytes, "
			"its other requests counted, not timed; a later loop opens it again. "
			"Files are made new (never through a symlink, never outside the "
			"directory): one that exists before the run is a refusal, and the files "
			"are removed after unless --keep (fio leaves them)" },
	{ "mmap", "as fio's: the file mapped shared (a 64 MiB window at a time), each read or "
		  "write a memcpy; fsync= and fdatasync= an msync of the window, then fsync "
		  "(fdatasync) for what earlier windows left; direct=1 as fio's, not really "
		  "direct: each request msync'ed and its pages dropped after the copy" },
	{ "vsync", "as fio's: requests that each start where the last ended go as one "
		   "preadv or pwritev at commit (iodepth_batch), each counted on its own" },
	{ "splice", "as fio's: a read splices the range into a pipe and reads it out, a write "
		    "vmsplices the buffer in and splices it to the file, 64 KiB at a time" },
	{ "e4defrag", "as fio's: each write moves its range's blocks into the donor file "
		      "(donorname=, inplace=) with EXT4_IOC_MOVE_EXT, the data unchanged; a "
		      "read or trim fails with EINVAL; a short move asked again for the rest "
		      "(fio requeues it: its total_ios may count one more); on a filesystem "
		      "other than ext4 the requests fail and the message names it; a file "
		      "the user named needs --destroy-data, as a write's" },
	{ "dircreate", "newer than fio 3.33 (which refuses it too): not implemented" },
	{ "dirstat", "newer than fio 3.33 (which refuses it too): not implemented" },
	{ "dirdelete", "newer than fio 3.33 (which refuses it too): not implemented" },
	{ "cpuio", "as fio's: no target and no size; each thread burns cpuload percent of "
		   "a CPU (cpumode, cpuchunks) for the runtime, which it needs; each burst is "
		   "counted as a read of 0 bytes (total_ios, clat), as fio 3.33 does" },
	{ "exec", "as fio's: no target and no size; the job runs program= for the runtime, "
		  "which it needs, checking it every 50 ms; each look is counted as a read of "
		  "0 bytes, as fio 3.33 does" },
	{ "null", "as fio's null: above iodepth=1 a submission completes at once and nothing "
		  "more is queued until it is reaped, so iodepth_batch_submit (1 by default) "
		  "requests are in flight, up to iodepth" },
};

int sb_fio_engine_support(unsigned i, struct sb_fio_support_info *out)
{
	const char *name = sb_fio_engine_name(i);
	if (!name)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->name = name;
	const char *sb = sb_engine_from_fio(name);
	if (!sb)
		out->support = SB_FIO_REFUSED;
	else if (strcmp(sb, name)) {
		out->support = SB_FIO_MAPPED;
		snprintf(out->note, sizeof(out->note), "runs as %s", sb);
	} else {
		out->support = SB_FIO_HONOURED;
	}
	for (size_t k = 0; k < SB_ARRAY_SIZE(engine_docs); k++)
		if (!strcmp(engine_docs[k].name, name))
			snprintf(out->note, sizeof(out->note), "%s", engine_docs[k].note);
	return 0;
}

const char *sb_jf_refused_why(const char *key)
{
	const char *why = sb_jf_option(key) ? NULL : doc_of(key);
	/* "as flow": flow's reason */
	const char *of = why && !strncmp(why, "as ", 3) ? doc_of(why + 3) : NULL;
	return of ? of : why;
}

const struct fio_opt *sb_jf_option(const char *key)
{
	for (size_t i = 0; i < SB_ARRAY_SIZE(fio_opts); i++)
		if (!strcmp(fio_opts[i].name, key))
			return &fio_opts[i];
	return NULL;
}

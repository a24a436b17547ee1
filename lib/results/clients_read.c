/*
 * The ranks' entries of a run of many ranks read back (results_read.h,
 * sb_ranks_check): the rules every "ranks" array and "skew" object obeys,
 * whichever section holds them (meta's, sweep's, the state's, a soak
 * iteration's; verify's reader has its own, worded the same). Each entry
 * is an object naming its rank; a rank named by a figure (rank,
 * slowest_rank, fastest_rank) is a whole number from 0 (a skew with none
 * measured names -1); a host or a path is a string; counts, sizes, rates
 * and times (from the earliest start) are finite, from 0, below 1e18.
 * Moved from report/check.c, which walked every document for them: the
 * messages are its ("meta.ranks[1]: a rank's entry without its 'rank'").
 * What other readers judge below an entry (a verify object, jobs, a
 * summary's rows, percentiles, options as given) is left to them.
 */
#include "lib/results/results_read.h"

#include <math.h>

#include "lib/json/json_walk.h"

#define K(s) SB_JKEY(s)
/* Figures of a rank's entry or a skew object: never negative. The same
 * names elsewhere (a job's start_s on a rank's clock) are not judged. */
static const struct sb_jkey rank_nonneg[] = {
	K("write_bytes"),   K("checked_bytes"), K("ops"),	    K("bytes"),
	K("elapsed_ns"),    K("cpu_ns"),	K("files_per_s"),   K("seeks_per_s"),
	K("files"),	    K("io_errors"),	K("p50"),	    K("p99"),
	K("start_s"),	    K("end_s"),		K("write_start_s"), K("write_end_s"),
	K("check_start_s"), K("check_end_s"),	K("first_start_s"), K("start_spread_s"),
	K("end_spread_s"),  K("span_s"),	K("median_rate"),
};
/* Ranks named by a figure: whole numbers from 0 */
static const struct sb_jkey rank_ids[] = { K("rank"), K("slowest_rank"), K("fastest_rank") };
#define RANK_MAX 16777216.0
#define FIGURE_MAX 1e18
#define IN_RANKS 1u /* a rank's entry, a skew object */
#define IS(m, s) sb_jkey_is(m, &(const struct sb_jkey)K(s))

static int member(struct sb_jwalk *w, const struct sb_jmember *m, unsigned in);

/* The entries of a "ranks" array: objects, each naming its rank; then
 * their figures. */
static int ranks(struct sb_jwalk *w, const struct sb_jv *v, unsigned in)
{
	unsigned at = w->depth;
	if (at >= SB_JWALK_DEPTH)
		return 0;
	w->depth++;
	w->at[at].key = NULL;
	for (size_t i = 0; i < v->arr.n; i++) {
		const struct sb_jv *e = &v->arr.v[i];
		w->at[at].index = i;
		if (!sb_jv_is(e, SB_JV_OBJ))
			return sb_jwalk_bad(w, "an object of a rank's figures", e);
		if (!sb_jv_get(e, "rank")) {
			char path[256];
			sb_jwalk_path(w, path, sizeof(path));
			snprintf(w->msg, sizeof(w->msg), "%s: a rank's entry without its 'rank'",
				 path);
			return -EINVAL;
		}
		if (sb_jwalk(w, e, in | IN_RANKS, member) < 0)
			return -EINVAL;
	}
	w->depth = at;
	return 0;
}

/* Below an entry what another reader judges is not walked (as
 * report/check.c leaves it to them): a verify object, jobs, a summary's
 * rows, percentiles, options as given, an iteration's number. */
static int others(const struct sb_jmember *m)
{
	const struct sb_jv *v = &m->val;
	return (IS(m, "verify") && sb_jv_is(v, SB_JV_OBJ)) ||
	       ((IS(m, "jobs") || IS(m, "client_stats") || IS(m, "summary")) &&
		sb_jv_is(v, SB_JV_ARR)) ||
	       IS(m, "jobs") || IS(m, "percentile") || IS(m, "job options") ||
	       IS(m, "global options") || IS(m, "options") || IS(m, "argv") ||
	       (IS(m, "iteration") && !sb_jv_is(v, SB_JV_OBJ));
}

static int member(struct sb_jwalk *w, const struct sb_jmember *m, unsigned in)
{
	const struct sb_jv *v = &m->val;
	if ((in & IN_RANKS) && sb_jkey_in(m, rank_ids, SB_ARRAY_SIZE(rank_ids))) {
		uint64_t n;
		/* a skew without a slowest rank (none measured) names -1 */
		if (!IS(m, "rank") && sb_jv_is(v, SB_JV_NUM) && v->num.d == -1)
			return 0;
		if (sb_jv_u64(v, &n) < 0 || (double)n >= RANK_MAX)
			return sb_jwalk_bad(w, "a rank number from 0", v);
		return 0;
	}
	if ((in & IN_RANKS) && (IS(m, "host") || IS(m, "hostname") || IS(m, "path")) &&
	    !sb_jv_is(v, SB_JV_STR))
		return sb_jwalk_bad(w, "a string", v);
	if (IS(m, "ranks") && sb_jv_is(v, SB_JV_ARR))
		return ranks(w, v, in);
	if (others(m))
		return 0;
	if (IS(m, "skew") && sb_jv_is(v, SB_JV_OBJ))
		return sb_jwalk(w, v, in | IN_RANKS, member);
	if ((in & IN_RANKS) && sb_jkey_in(m, rank_nonneg, SB_ARRAY_SIZE(rank_nonneg)) &&
	    !sb_jv_is(v, SB_JV_NULL) && !sb_jv_is(v, SB_JV_OBJ) && !sb_jv_is(v, SB_JV_ARR)) {
		/* null: written for a figure there is none of */
		if (!sb_jv_is(v, SB_JV_NUM) || !isfinite(v->num.d) || v->num.d < 0 ||
		    v->num.d > FIGURE_MAX)
			return sb_jwalk_bad(w, "a number from 0 to 1e18", v);
		return 0;
	}
	return sb_jwalk(w, v, in, member);
}

int sb_ranks_check(const struct sb_jv *v, const char *at, struct sb_error *err)
{
	struct sb_jwalk w;
	w.prefix = at ? at : "";
	w.depth = 0;
	if (sb_jwalk(&w, v, 0, member) == 0)
		return 0;
	return sb_error_set(err, -EINVAL, SB_ERR_INPUT, "%s", w.msg);
}

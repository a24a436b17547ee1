/*
 * Fuzz target of the reader of a result (lib/results/results_read.c: its
 * jobs and its own section; libFuzzer: make fuzz). Any document must be
 * read or refused without a crash, a leak or undefined behaviour; what is
 * read holds what the reader promises (a job's name, figures finite and
 * from 0, percentiles increasing within (0, 100), warnings strings), and a
 * refusal names a key path under the part read; the same of a device's
 * health (lib/device/health_read.c: "health", a log's "health_before",
 * a soak's storbench.soak.health). tests/unit/
 * results-read-corpus.c runs this same function over the corpus and its
 * mutations in make check, without clang.
 */
#include "lib/results/results_read.h"
#include "lib/device/devinfo.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) ((c) ? (void)0 : abort())

static void check_lat(const struct sb_lat_doc *l)
{
	CHECK(l->npct <= SB_LAT_DOC_PCT);
	CHECK(isfinite(l->min) && l->min >= 0 && isfinite(l->max) && l->max >= 0);
	for (unsigned i = 0; i < l->npct; i++) {
		CHECK(l->pct[i] > 0 && l->pct[i] < 100 && l->val[i] >= 0);
		CHECK(!i || l->pct[i - 1] <= l->pct[i]);
	}
}

static void check_job(const struct sb_jv *job, const struct sb_jv *global, const char *where)
{
	struct sb_job_doc x;
	struct sb_error er;
	if (sb_job_read(job, global, where, &x, &er) < 0) {
		CHECK(er.cls == SB_ERR_INPUT && !strncmp(er.msg, where, strlen(where)));
		return;
	}
	CHECK(x.name && x.rank >= -1 && x.direct >= -1 && x.direct <= 1);
	for (int d = 0; d < SB_DDIR_N; d++) {
		const struct sb_dir_doc *o = &x.dir[d];
		CHECK(isnan(o->bw_bytes) || (o->bw_bytes >= 0 && o->bw_bytes <= 1e18));
		CHECK(isnan(o->iops) || o->iops >= 0);
		CHECK(isnan(o->iops_min) || (o->iops_min >= 0 && o->iops_min <= 1e18));
		CHECK(isnan(o->iops_max) || (o->iops_max >= 0 && o->iops_max <= 1e18));
		check_lat(&o->lat);
		check_lat(&o->clat);
		check_lat(&o->slat);
	}
	check_lat(&x.mixed.lat);
	check_lat(&x.sync_lat);
	CHECK(x.first_error.ddir >= -1 && x.first_error.ddir < SB_DDIR_N);
	CHECK(x.first_error.present || (!x.first_error.offset && !x.first_error.error));
	for (size_t i = 0; i < sb_jv_len(x.series); i++) {
		struct sb_interval_doc iv;
		if (sb_interval_read(sb_jv_at(x.series, i), "s", &iv, &er) < 0) {
			CHECK(er.msg[0] == 's');
			continue;
		}
		for (int d = 0; d < SB_DDIR_N; d++)
			CHECK(iv.bw[d] >= 0 && iv.iops[d] >= 0);
	}
}

static void check_health(const struct sb_health_doc *h)
{
	for (int f = 0; f < SB_HF_N; f++) {
		const struct sb_health_val *v = &h->f[f];
		CHECK(v->has <= SB_HV_LIST);
		CHECK(v->has != SB_HV_NUM || isfinite(v->num));
		CHECK(v->has != SB_HV_STR || v->str);
		for (size_t i = 0; v->has == SB_HV_LIST && i < sb_jv_len(v->list); i++)
			CHECK(sb_jv_str(sb_jv_at(v->list, i)));
	}
}

static void check_health_of(const struct sb_jv *root)
{
	struct sb_health_pair_doc p;
	struct sb_health_doc h;
	struct sb_error er;
	const struct sb_jv *pairs[] = {
		sb_jv_get(root, "health"),
		sb_jv_get(sb_jv_get(sb_jv_get(root, "storbench"), "soak"), "health"),
	};
	for (size_t i = 0; i < 2; i++) {
		if (sb_health_pair_read(pairs[i], "h", &p, &er) < 0) {
			CHECK(er.msg[0] == 'h');
			continue;
		}
		check_health(&p.before);
		check_health(&p.after);
	}
	if (sb_health_doc_read(sb_jv_get(root, "health_before"), "h", &h, &er) == 0)
		check_health(&h);
	else
		CHECK(er.msg[0] == 'h');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_jdoc *doc = NULL;
	if (sb_json_parse((const char *)data, size, NULL, &doc, NULL) < 0)
		return 0;
	const struct sb_jv *root = sb_jdoc_root(doc), *global = sb_jv_get(root, "global options");
	static const char *const arrays[] = { "jobs", "client_stats" };
	for (size_t a = 0; a < 2; a++) {
		const struct sb_jv *jobs = sb_jv_get(root, arrays[a]);
		for (size_t i = 0; i < sb_jv_len(jobs); i++) {
			char where[48];
			snprintf(where, sizeof(where), "%s[%zu]", arrays[a], i);
			check_job(sb_jv_at(jobs, i), a ? NULL : global, where);
		}
	}
	check_job(root, NULL, "line"); /* a log line that is a job */
	struct sb_results_doc h;
	struct sb_error er;
	if (sb_results_head_read(sb_jv_get(root, "storbench"), "storbench", &h, &er) == 0) {
		CHECK(h.target.rotational >= -1 && h.target.rotational <= 1);
		for (size_t i = 0; i < sb_jv_len(h.warnings); i++)
			CHECK(sb_jv_str(sb_jv_at(h.warnings, i)));
		for (size_t i = 0; i < sb_jv_len(h.summary); i++) {
			struct sb_summary_doc row;
			if (sb_summary_read(sb_jv_at(h.summary, i), "r", &row, &er) == 0)
				CHECK(row.ddir >= -1 && row.ddir < SB_DDIR_N &&
				      (isnan(row.bw_median) || row.bw_median >= 0));
			else
				CHECK(er.msg[0] == 'r');
		}
	} else {
		CHECK(!strncmp(er.msg, "storbench", 9));
	}
	check_health_of(root);
	/* the schema version and the methods' sections as report/ finds them */
	const struct sb_jv *sb = sb_jv_get(root, "storbench");
	uint64_t n;
	double found;
	const int sv = sb_results_schema_read(sb, &n, &found);
	CHECK(sv == 0 ? n >= 1
		      : sv == -ENOENT ||
				(sv == -EINVAL && (isnan(found) || found < 1 ||
						   found != floor(found) || found >= 0x1p64)));
	for (int s = 0; s < SB_SECTION_N; s++)
		CHECK(sb_results_section(sb, (enum sb_section)s) ==
		      (sb_jv_is(sb, SB_JV_OBJ) ? sb_jv_get(sb, sb_section_name((enum sb_section)s))
					       : NULL));
	sb_jdoc_free(doc);
	return 0;
}

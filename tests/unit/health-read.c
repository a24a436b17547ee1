/* needs: none */
/*
 * A device's health read back (lib/device/health_read.c): a pair of
 * NVMe SMART pages (the recorded healthy and worn ones) and a pair of eMMC
 * life time estimates, written by sb_health_pair_json and read by
 * sb_health_pair_read, field by field; what could not be read (SMART,
 * EXT_CSD) reads as absent or null as written; a wrong type is refused
 * by its key path.
 */
#include "tests/lib/sbtest.h"
#include "tests/unit/hexfix.h"
#include "lib/storbench.h"
#include "lib/json/json_write.h"

static struct sb_jdoc *written(const struct sb_health *a, const struct sb_health *b)
{
	char *buf = NULL;
	size_t len = 0;
	struct sb_json j;
	struct sb_jdoc *d = NULL;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	sb_json_begin(&j, f, 1);
	sb_json_obj_open(&j, NULL);
	sb_health_pair_json(&j, "health", a, b);
	sb_json_obj_close(&j);
	assert_int_equal(sb_json_end(&j), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(sb_json_parse(buf, len, NULL, &d, NULL), 0);
	free(buf);
	return d;
}

static struct sb_health_pair_doc read_back(struct sb_jdoc *d)
{
	struct sb_health_pair_doc p;
	struct sb_error err;
	if (sb_health_pair_read(sb_jv_get(sb_jdoc_root(d), "health"), "health", &p, &err) < 0)
		fail_msg("%s", err.msg);
	return p;
}

static void num(const struct sb_health_val *v, double want)
{
	assert_int_equal(v->has, SB_HV_NUM);
	assert_true(v->num == want);
}

static void smart(const struct sb_health_doc *d, const struct sb_nvme_smart *s)
{
	char all[256];
	assert_string_equal(d->kind, "nvme");
	num(&d->f[SB_HF_PERCENT_USED], s->percent_used);
	num(&d->f[SB_HF_AVAIL_SPARE], s->avail_spare);
	num(&d->f[SB_HF_DATA_WRITTEN], (double)sb_nvme_units_bytes(s->data_units_written));
	num(&d->f[SB_HF_DATA_READ], (double)sb_nvme_units_bytes(s->data_units_read));
	num(&d->f[SB_HF_MEDIA_ERRORS], (double)s->media_errors);
	num(&d->f[SB_HF_ERR_LOG_ENTRIES], (double)s->error_log_entries);
	num(&d->f[SB_HF_UNSAFE_SHUTDOWNS], (double)s->unsafe_shutdowns);
	num(&d->f[SB_HF_TEMPERATURE_C], s->temperature_c);
	num(&d->f[SB_HF_POWER_ON_HOURS], (double)s->power_on_hours);
	/* the names of the warnings, as the writer's text lists them */
	const struct sb_health_val *w = &d->f[SB_HF_CRITICAL_WARNINGS];
	assert_int_equal(w->has, SB_HV_LIST);
	char joined[256] = "";
	for (size_t i = 0; i < sb_jv_len(w->list); i++)
		snprintf(joined + strlen(joined), sizeof(joined) - strlen(joined), "%s%s",
			 i ? ", " : "", sb_jv_str(sb_jv_at(w->list, i)));
	if (s->critical_warning)
		assert_string_equal(joined,
				    sb_nvme_warning_text(s->critical_warning, all, sizeof(all)));
	else
		assert_int_equal(sb_jv_len(w->list), 0);
	for (int f = SB_HF_LIFE_A; f < SB_HF_N; f++)
		assert_int_equal(d->f[f].has, SB_HV_ABSENT);
}

static void nvme_pair(void **state)
{
	(void)state;
	uint8_t log[SB_NVME_LOG_SIZE];
	struct sb_health a = { .kind = SB_HEALTH_NVME }, b = { .kind = SB_HEALTH_NVME };
	hexfix_load("nvme-smart-healthy.hex", log, sizeof(log));
	assert_int_equal(sb_nvme_smart_decode(log, &a.smart), 0);
	hexfix_load("nvme-smart-worn.hex", log, sizeof(log));
	assert_int_equal(sb_nvme_smart_decode(log, &b.smart), 0);
	struct sb_jdoc *d = written(&a, &b);
	struct sb_health_pair_doc p = read_back(d);
	assert_true(p.have_before && p.have_after);
	smart(&p.before, &a.smart);
	smart(&p.after, &b.smart);
	const struct sb_nvme_smart *x = &a.smart, *y = &b.smart;
	num(&p.c[SB_HF_PERCENT_USED], (double)y->percent_used - x->percent_used);
	num(&p.c[SB_HF_DATA_WRITTEN],
	    (double)(int64_t)(sb_nvme_units_bytes(y->data_units_written) -
			      sb_nvme_units_bytes(x->data_units_written)));
	num(&p.c[SB_HF_MEDIA_ERRORS], (double)(int64_t)(y->media_errors - x->media_errors));
	num(&p.c[SB_HF_UNSAFE_SHUTDOWNS],
	    (double)(int64_t)(y->unsafe_shutdowns - x->unsafe_shutdowns));
	num(&p.c[SB_HF_CRITICAL_WARNINGS], y->critical_warning & ~x->critical_warning);
	assert_int_equal(p.c[SB_HF_AVAIL_SPARE].has, SB_HV_ABSENT); /* no change written */
	sb_jdoc_free(d);
	/* SMART that could not be read: written null, read as absent */
	b.smart_err = -EACCES;
	d = written(&a, &b);
	p = read_back(d);
	assert_string_equal(p.after.kind, "nvme");
	for (int f = 0; f < SB_HF_N; f++)
		assert_int_equal(p.after.f[f].has, SB_HV_ABSENT);
	assert_int_equal(p.c[SB_HF_PERCENT_USED].has, SB_HV_ABSENT);
	sb_jdoc_free(d);
}

static void emmc_pair(void **state)
{
	(void)state;
	struct sb_health a = { .kind = SB_HEALTH_MMC, .have_life = 1, .life_source = "ext_csd" };
	a.life_a = 1;
	a.life_b = 2;
	a.pre_eol = 1;
	snprintf(a.ext.fw_text, sizeof(a.ext.fw_text), "0x0100");
	struct sb_health b = a;
	b.life_a = 3;
	b.pre_eol = 2;
	struct sb_jdoc *d = written(&a, &b);
	struct sb_health_pair_doc p = read_back(d);
	const struct sb_health *h[2] = { &a, &b };
	const struct sb_health_doc *r[2] = { &p.before, &p.after };
	for (int i = 0; i < 2; i++) {
		assert_string_equal(r[i]->kind, "emmc");
		assert_string_equal(r[i]->f[SB_HF_LIFE_A].str, sb_mmc_life_text(h[i]->life_a));
		assert_string_equal(r[i]->f[SB_HF_LIFE_B].str, sb_mmc_life_text(h[i]->life_b));
		assert_string_equal(r[i]->f[SB_HF_PRE_EOL].str, sb_mmc_pre_eol_text(h[i]->pre_eol));
		assert_string_equal(r[i]->f[SB_HF_FIRMWARE].str, "0x0100");
		assert_int_equal(r[i]->f[SB_HF_PERCENT_USED].has, SB_HV_ABSENT);
	}
	num(&p.c[SB_HF_LIFE_A], 2);
	num(&p.c[SB_HF_LIFE_B], 0);
	num(&p.c[SB_HF_PRE_EOL], 1);
	sb_jdoc_free(d);
	/* EXT_CSD that could not be read: no firmware; an empty one is null */
	b.ext_csd_err = -EACCES;
	a.ext.fw_text[0] = '\0';
	d = written(&a, &b);
	p = read_back(d);
	assert_int_equal(p.after.f[SB_HF_FIRMWARE].has, SB_HV_ABSENT);
	assert_int_equal(p.before.f[SB_HF_FIRMWARE].has, SB_HV_NULL);
	sb_jdoc_free(d);
}

/* text (a pair's JSON) refused, naming path */
static void refused(const char *text, const char *path)
{
	struct sb_jdoc *d = NULL;
	struct sb_health_pair_doc p;
	struct sb_error err;
	assert_int_equal(sb_json_parse(text, strlen(text), NULL, &d, NULL), 0);
	assert_int_equal(sb_health_pair_read(sb_jdoc_root(d), "health", &p, &err), -EINVAL);
	assert_int_equal(err.cls, SB_ERR_INPUT);
	if (strncmp(err.msg, path, strlen(path)) || err.msg[strlen(path)] != ':')
		fail_msg("'%s' does not name %s", err.msg, path);
	sb_jdoc_free(d);
}

static void bad_pairs(void **state)
{
	(void)state;
	refused("[]", "health");
	refused("{\"before\": 3}", "health.before");
	refused("{\"before\": {\"kind\": 5}}", "health.before.kind");
	refused("{\"after\": {\"kind\": \"nvme\", \"smart\": 4}}", "health.after.smart");
	refused("{\"before\": {\"smart\": {\"percent_used\": \"x\"}}}",
		"health.before.smart.percent_used");
	refused("{\"before\": {\"smart\": {\"critical_warnings\": [\"a\", 1]}}}",
		"health.before.smart.critical_warnings[1]");
	refused("{\"before\": {\"life_time_a_used\": 7}}", "health.before.life_time_a_used");
	refused("{\"change\": []}", "health.change");
	refused("{\"change\": {\"media_errors\": \"x\"}}", "health.change.media_errors");
	/* a health object alone (a log's health_before) */
	struct sb_jdoc *d = NULL;
	struct sb_health_doc h;
	struct sb_error err;
	const char *t = "{\"kind\": \"nvme\", \"smart\": {\"temperature_c\": -5}}";
	assert_int_equal(sb_json_parse(t, strlen(t), NULL, &d, NULL), 0);
	assert_int_equal(sb_health_doc_read(sb_jdoc_root(d), "health_before", &h, &err), 0);
	num(&h.f[SB_HF_TEMPERATURE_C], -5);
	assert_int_equal(h.f[SB_HF_MEDIA_ERRORS].has, SB_HV_ABSENT);
	sb_jdoc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvme_pair),
		cmocka_unit_test(emmc_pair),
		cmocka_unit_test(bad_pairs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Health before and after a soak: the device's wear and error counters as
 * read at the start and the end (NVMe SMART, eMMC life time estimates), and
 * what changed, from the log's configuration line (health_before) and its
 * summary, or storbench.soak.health of a result (lib/device/devinfo_json.c
 * writes both). A device that reports nothing ("kind": "none") shows
 * nothing.
 */
#include "report/html.h"

#include <math.h>

enum hunit { H_NUM, H_BYTES, H_PCT, H_TEXT, H_LIST, H_CELSIUS };

struct hrow {
	const char *label;
	enum sb_health_field field;
	enum hunit unit;
};

static const struct hrow nvme[] = {
	{ "Percentage used", SB_HF_PERCENT_USED, H_PCT },
	{ "Available spare", SB_HF_AVAIL_SPARE, H_PCT },
	{ "Data written", SB_HF_DATA_WRITTEN, H_BYTES },
	{ "Data read", SB_HF_DATA_READ, H_BYTES },
	{ "Media errors", SB_HF_MEDIA_ERRORS, H_NUM },
	{ "Error log entries", SB_HF_ERR_LOG_ENTRIES, H_NUM },
	{ "Unsafe shutdowns", SB_HF_UNSAFE_SHUTDOWNS, H_NUM },
	{ "Critical warnings", SB_HF_CRITICAL_WARNINGS, H_LIST },
	{ "Temperature", SB_HF_TEMPERATURE_C, H_CELSIUS },
	{ "Power-on hours", SB_HF_POWER_ON_HOURS, H_NUM },
};

static const struct hrow emmc[] = {
	{ "Life time used (type A)", SB_HF_LIFE_A, H_TEXT },
	{ "Life time used (type B)", SB_HF_LIFE_B, H_TEXT },
	{ "Pre-EOL state", SB_HF_PRE_EOL, H_TEXT },
	{ "Firmware", SB_HF_FIRMWARE, H_TEXT },
};

static void value(FILE *f, const struct sb_health_val *v, enum hunit u, int delta)
{
	char a[64];
	const double x = v->num;
	if (v->has == SB_HV_ABSENT || v->has == SB_HV_NULL) {
		snprintf(a, sizeof(a), "-");
	} else if (u == H_LIST && v->has == SB_HV_LIST) {
		fputs("<td>", f);
		for (size_t i = 0; i < sb_jv_len(v->list); i++) {
			fputs(i ? ", " : "", f);
			rep_html_esc(f, sb_jv_str(sb_jv_at(v->list, i)));
		}
		fputs(sb_jv_len(v->list) ? "</td>" : "none</td>", f);
		return;
	} else if (v->has == SB_HV_STR) {
		snprintf(a, sizeof(a), "%s", v->str);
	} else if (u == H_BYTES) {
		char b[48];
		snprintf(a, sizeof(a), "%s%s",
			 !delta	 ? ""
			 : x < 0 ? "-"
				 : "+",
			 sb_fmt_size((uint64_t)fabs(x), b, sizeof(b)));
	} else {
		snprintf(a, sizeof(a), delta ? "%+.0f%s" : "%.0f%s", x,
			 u == H_PCT	  ? "%"
			 : u == H_CELSIUS ? " °C"
					  : "");
	}
	html_cell(f, a, v->has != SB_HV_ABSENT && v->has != SB_HV_STR);
}

static void table(FILE *f, const struct sb_health_pair_doc *p, const struct hrow *rows, size_t n)
{
	static const char *const cols[] = { "Health", "Before", "After", "Change" };
	html_head_row(f, cols, p->have_after ? 4 : 2, 1);
	for (size_t i = 0; i < n; i++) {
		const struct sb_health_val *b = &p->before.f[rows[i].field],
					   *a = &p->after.f[rows[i].field];
		if (b->has == SB_HV_ABSENT && a->has == SB_HV_ABSENT)
			continue;
		fputs("<tr>", f);
		html_cell(f, rows[i].label, 0);
		value(f, b, rows[i].unit, 0);
		if (p->have_after) {
			value(f, a, rows[i].unit, 0);
			value(f, &p->c[rows[i].field],
			      rows[i].unit == H_LIST ? H_NUM : rows[i].unit, 1);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The pair of a result or of a log's last summary line (the soak's
 * "health"), else the log's configuration line's health_before; a pair
 * its reader refuses shows nothing. */
static int pair(const struct rep_doc *d, struct sb_health_pair_doc *p)
{
	struct sb_error err;
	struct sb_soak_line l;
	sb_soak_line_read(d->soak_summary, &l);
	if (l.health)
		return sb_health_pair_read(l.health, "health", p, &err);
	memset(p, 0, sizeof(*p));
	sb_soak_line_read(d->root, &l);
	p->have_before = l.health_before != NULL;
	return sb_health_doc_read(l.health_before, "health_before", &p->before, &err);
}

void html_health(FILE *f, const struct rep_doc *d)
{
	struct sb_health_pair_doc p;
	if (pair(d, &p) < 0)
		return;
	const char *kind = p.before.kind ? p.before.kind : p.after.kind;
	if (!kind || !strcmp(kind, "none"))
		return;
	fprintf(f,
		"<h3>Health before and after</h3>\n<p class=\"meta\">%s, as the device reports "
		"it%s.</p>\n",
		!strcmp(kind, "nvme")	? "NVMe SMART"
		: !strcmp(kind, "emmc") ? "eMMC health (EXT_CSD)"
					: "Device health",
		p.have_after ? "" : " (read at the start only)");
	if (!strcmp(kind, "nvme"))
		table(f, &p, nvme, SB_ARRAY_SIZE(nvme));
	else if (!strcmp(kind, "emmc"))
		table(f, &p, emmc, SB_ARRAY_SIZE(emmc));
}

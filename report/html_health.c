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
	const char *label, *key, *change; /* key in the health object ("smart.x"); change key */
	enum hunit unit;
};

static const struct hrow nvme[] = {
	{ "Percentage used", "smart.percent_used", "percent_used", H_PCT },
	{ "Available spare", "smart.avail_spare", NULL, H_PCT },
	{ "Data written", "smart.data_written_bytes", "data_written_bytes", H_BYTES },
	{ "Data read", "smart.data_read_bytes", "data_read_bytes", H_BYTES },
	{ "Media errors", "smart.media_errors", "media_errors", H_NUM },
	{ "Error log entries", "smart.num_err_log_entries", "num_err_log_entries", H_NUM },
	{ "Unsafe shutdowns", "smart.unsafe_shutdowns", "unsafe_shutdowns", H_NUM },
	{ "Critical warnings", "smart.critical_warnings", "new_critical_warnings", H_LIST },
	{ "Temperature", "smart.temperature_c", NULL, H_CELSIUS },
	{ "Power-on hours", "smart.power_on_hours", NULL, H_NUM },
};

static const struct hrow emmc[] = {
	{ "Life time used (type A)", "life_time_a_used", "life_time_a", H_TEXT },
	{ "Life time used (type B)", "life_time_b_used", "life_time_b", H_TEXT },
	{ "Pre-EOL state", "pre_eol_state", "pre_eol", H_TEXT },
	{ "Firmware", "ext_csd.firmware_version", NULL, H_TEXT },
};

static const struct sb_jv *path(const struct sb_jv *v, const char *key)
{
	const char *dot = strchr(key, '.');
	char head[32];
	if (!dot)
		return sb_jv_get(v, key);
	snprintf(head, sizeof(head), "%.*s", (int)(dot - key), key);
	return sb_jv_get(sb_jv_get(v, head), dot + 1);
}

static void value(FILE *f, const struct sb_jv *v, enum hunit u, int delta)
{
	char a[64];
	double x = sb_jv_num(v, NAN);
	if (!v || v->type == SB_JV_NULL) {
		snprintf(a, sizeof(a), "-");
	} else if (u == H_LIST && v->type == SB_JV_ARR) {
		fputs("<td>", f);
		for (size_t i = 0; i < sb_jv_len(v); i++) {
			fputs(i ? ", " : "", f);
			rep_html_esc(f, sb_jv_str(sb_jv_at(v, i)));
		}
		fputs(sb_jv_len(v) ? "</td>" : "none</td>", f);
		return;
	} else if (v->type == SB_JV_STR) {
		snprintf(a, sizeof(a), "%s", v->str.s);
	} else if (u == H_BYTES) {
		char b[48];
		snprintf(a, sizeof(a), "%s%s",
			 !delta	 ? ""
			 : x < 0 ? "-"
				 : "+",
			 sb_fmt_size(isfinite(x) ? (uint64_t)fabs(x) : 0, b, sizeof(b)));
	} else {
		snprintf(a, sizeof(a), delta ? "%+.0f%s" : "%.0f%s", x,
			 u == H_PCT	  ? "%"
			 : u == H_CELSIUS ? " °C"
					  : "");
	}
	html_cell(f, a, v && v->type != SB_JV_STR);
}

static void table(FILE *f, const struct sb_jv *before, const struct sb_jv *after,
		  const struct sb_jv *change, const struct hrow *rows, size_t n)
{
	static const char *const cols[] = { "Health", "Before", "After", "Change" };
	html_head_row(f, cols, after ? 4 : 2, 1);
	for (size_t i = 0; i < n; i++) {
		const struct sb_jv *b = path(before, rows[i].key), *a = path(after, rows[i].key);
		if (!b && !a)
			continue;
		fputs("<tr>", f);
		html_cell(f, rows[i].label, 0);
		value(f, b, rows[i].unit, 0);
		if (after) {
			value(f, a, rows[i].unit, 0);
			value(f, rows[i].change ? sb_jv_get(change, rows[i].change) : NULL,
			      rows[i].unit == H_LIST ? H_NUM : rows[i].unit, 1);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The pair of a result, or of a log's last summary line. */
static const struct sb_jv *pair(const struct rep_doc *d)
{
	return sb_jv_get(d->soak_summary, "health");
}

void html_health(FILE *f, const struct rep_doc *d)
{
	const struct sb_jv *p = pair(d);
	const struct sb_jv *before = p ? sb_jv_get(p, "before")
				       : sb_jv_get(d->root, "health_before");
	const struct sb_jv *after = sb_jv_get(p, "after");
	const char *kind = sb_jv_str(sb_jv_get(before, "kind"));
	if (!kind)
		kind = sb_jv_str(sb_jv_get(after, "kind"));
	if (!kind || !strcmp(kind, "none"))
		return;
	fprintf(f,
		"<h3>Health before and after</h3>\n<p class=\"meta\">%s, as the device reports "
		"it%s.</p>\n",
		!strcmp(kind, "nvme")	? "NVMe SMART"
		: !strcmp(kind, "emmc") ? "eMMC health (EXT_CSD)"
					: "Device health",
		after ? "" : " (read at the start only)");
	if (!strcmp(kind, "nvme"))
		table(f, before, after, sb_jv_get(p, "change"), nvme, SB_ARRAY_SIZE(nvme));
	else if (!strcmp(kind, "emmc"))
		table(f, before, after, sb_jv_get(p, "change"), emmc, SB_ARRAY_SIZE(emmc));
}

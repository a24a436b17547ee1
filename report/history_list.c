/*
 * storbench history's listing (report/history_groups.h, rep_hist_list):
 * a row per result the query answers, as a table, CSV or a JSON array,
 * or with --group-by each row added to its group (rep_history_add).
 */
#include "report/history_groups.h"
#include "report/report.h"

#include <time.h>

static void when(int64_t t, char *buf, size_t len)
{
	struct tm tm;
	time_t tt = (time_t)t;
	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

int rep_history_list_row(void *ctx, const struct sb_history_row *r)
{
	struct rep_hist_list *l = ctx;
	char t[32], v[64] = "";
	if (l->groups)
		return rep_history_add(l->groups, r);
	when(r->started, t, sizeof(t));
	if (l->q->figure)
		sb_plan_fmt(r->unit ? r->unit : "", r->value, r->word, v, sizeof(v));
	if (!strcmp(l->fmt, "json")) {
		struct sb_json *j = &l->j;
		sb_json_obj_open(j, NULL);
		sb_json_i64(j, "id", r->id);
		sb_json_i64(j, "started", r->started);
		sb_json_i64(j, "recorded", r->recorded);
		sb_json_str(j, "command", r->command);
		sb_json_str(j, "options", r->options);
		sb_json_str(j, "host", r->host);
		sb_json_str(j, "version", r->version);
		sb_json_str(j, "model", r->model);
		sb_json_str(j, "serial", r->serial);
		sb_json_str(j, "firmware", r->firmware);
		sb_json_str(j, "labels", r->labels);
		sb_json_str(j, "source", r->source);
		if (l->q->figure) {
			sb_json_str(j, "figure", l->q->figure);
			if (r->word && *r->word)
				sb_json_str(j, "value", r->word);
			else
				sb_json_double(j, "value", r->value);
			sb_json_str(j, "unit", r->unit);
		}
		sb_json_obj_close(j);
	} else if (!strcmp(l->fmt, "csv")) {
		fprintf(l->f, "%lld,%s,", (long long)r->id, t);
		const char *cols[] = { r->command, r->model,   r->serial, r->firmware,
				       r->host,	   r->version, r->labels };
		for (size_t i = 0; i < SB_ARRAY_SIZE(cols); i++) {
			rep_csv_field(l->f, cols[i] ? cols[i] : "", 1);
			if (i + 1 < SB_ARRAY_SIZE(cols))
				fputc(',', l->f);
		}
		if (l->q->figure) {
			fputc(',', l->f);
			if (r->word && *r->word)
				rep_csv_field(l->f, r->word, 1);
			else
				fprintf(l->f, "%.17g", r->value);
			fputc(',', l->f);
			rep_csv_field(l->f, r->unit ? r->unit : "", 1);
		}
		fputc('\n', l->f);
	} else {
		if (!l->n)
			fprintf(l->f, "%6s  %-16s  %-7s  %-20s  %-14s  %-10s  %-12s  %s\n", "id",
				"started (UTC)", "command", "model", "serial", "firmware",
				l->q->figure ? "value" : "host", "labels");
		struct rep_vis_ring vb = { .k = 0 };
		fprintf(l->f, "%6lld  %-16s  %-7s  %-20s  %-14s  %-10s  %-12s  %s\n",
			(long long)r->id, t, rep_vs(&vb, or_dash(r->command)),
			rep_vs(&vb, or_dash(r->model)), rep_vs(&vb, or_dash(r->serial)),
			rep_vs(&vb, or_dash(r->firmware)),
			rep_vs(&vb, l->q->figure ? v : or_dash(r->host)),
			rep_vs(&vb, or_dash(r->labels)));
	}
	l->n++;
	return 0;
}

void rep_history_list_begin(struct rep_hist_list *l, FILE *f)
{
	l->f = f;
	if (!strcmp(l->fmt, "json")) {
		sb_json_begin(&l->j, f, 0);
		sb_json_arr_open(&l->j, NULL);
	} else if (!strcmp(l->fmt, "csv")) {
		fprintf(f, "id,started,command,model,serial,firmware,host,version,labels%s\n",
			l->q->figure ? ",value,unit" : "");
	}
}

int rep_history_list_end(struct rep_hist_list *l)
{
	if (!strcmp(l->fmt, "json")) {
		sb_json_arr_close(&l->j);
		fputc('\n', l->f);
		return sb_json_end(&l->j);
	}
	return ferror(l->f) ? -EIO : 0;
}

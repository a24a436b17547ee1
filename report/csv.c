/*
 * CSV reports: long-format tables (one row per measurement, interval,
 * summary line, percentile or log record), a header line with the unit in
 * every column name, RFC 4180 quoting, plain numbers in base units (bytes,
 * seconds, nanoseconds) and an empty field for a figure that is absent.
 * One table per file, chosen with --table; pandas and spreadsheets read it.
 * verify and ranges hold the blocks per class and the bad ranges of every
 * verify (verify, run --verify, each soak iteration). The rows come from
 * report/rows.c, which the XLSX sheets read too.
 */
#include "report/rows.h"

#include <math.h>

/* Whether a spreadsheet would run s as a formula: it begins with = + -
 * @, a tab or a carriage return, and is neither a number nor operators
 * alone (a criterion's "==", a "-" for a figure that is absent) (OWASP's
 * CSV injection: a quote before it makes it text). */
static int formula(const char *s)
{
	char *end;
	if (!*s || !strchr("=+-@\t\r", *s) || !s[strspn(s, "=+-<>!")])
		return 0;
	strtod(s, &end);
	return end == s || *end;
}

/* One field, RFC 4180 quoted when it must be; NULL is an empty field. A
 * string from a file may hold anything: its control characters are
 * written visibly (rep_vis: a record is a line, and nothing moves a
 * terminal's cursor) and a formula is made text. */
void rep_csv_field(FILE *f, const char *s, int first)
{
	char one[8];
	size_t used;
	if (!first)
		fputc(',', f);
	s = s ? s : "";
	const int quote = s[strcspn(s, ",\"\r\n")] || *s == ' ', prefix = formula(s);
	fputs(quote ? "\"" : "", f);
	fputs(prefix ? "'" : "", f);
	for (; *s; s += used) {
		fputs(*s == '"' ? "\"" : "", f);
		fputs((rep_vis_char(s, one, &used), one), f);
	}
	fputs(quote ? "\"" : "", f);
}

static void cell(FILE *f, const struct rep_cell *c, int first)
{
	if (c->kind == REP_CELL_STR) {
		rep_csv_field(f, c->s, first);
		return;
	}
	if (!first)
		fputc(',', f);
	if (c->kind == REP_CELL_NUM && isfinite(c->d))
		fprintf(f, "%.15g", c->d);
	else if (c->kind == REP_CELL_INT)
		fprintf(f, "%llu", (unsigned long long)c->u);
	else if (c->kind == REP_CELL_WHOLE)
		fprintf(f, "%.0f", c->d);
	else if (c->kind == REP_CELL_FLAG && c->flag >= 0)
		fprintf(f, "%d", c->flag);
}

static void row(void *ctx, const struct rep_row *r)
{
	FILE *f = ctx;
	for (size_t i = 0; i < rep_columns[r->table].ncsv; i++)
		cell(f, &r->cell[i], i == 0);
	fputs("\r\n", f);
}

int rep_csv(FILE *f, struct rep_doc *const *docs, size_t n, enum rep_table t)
{
	const struct rep_columns *cols = &rep_columns[t];
	for (size_t i = 0; i < cols->ncsv; i++)
		fprintf(f, "%s%s", i ? "," : "", cols->names[i]);
	fputs("\r\n", f);
	long rc = rep_rows(t, docs, n, 0, row, f);
	return fflush(f) || ferror(f) || rc < 0 ? -EIO : 0;
}

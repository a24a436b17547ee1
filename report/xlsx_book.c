/*
 * The formats, widths, frozen headers and charts every storbench workbook
 * shares (report/xlsx_book.h).
 */
#include "report/xlsx_book.h"

#ifdef HAVE_XLSX
#include <math.h>

const lxw_color_t xb_colors[8] = { 0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7,
				   0x56B4E9, 0xD55E00, 0x000000, 0xF0E442 };

/* Each kind's number format and its decimals (for the width it shows). */
static const struct {
	const char *code;
	int dec, sep;
} kinds[XB_NFMT] = {
	[XB_TEXT] = { NULL, 0, 0 },	  [XB_RATE] = { "#,##0.0", 1, 1 },
	[XB_IOPS] = { "#,##0", 0, 1 },	  [XB_US] = { "#,##0.0", 1, 1 },
	[XB_COUNT] = { "#,##0", 0, 1 },	  [XB_SEC] = { "#,##0.000", 3, 1 },
	[XB_BYTES] = { "#,##0", 0, 1 },	  [XB_KIB] = { "#,##0", 0, 1 },
	[XB_MIB] = { "#,##0.0", 1, 1 },	  [XB_GIB] = { "#,##0.000", 3, 1 },
	[XB_PCT] = { "0.0", 1, 0 },	  [XB_PCTL] = { "0.00#", 3, 0 },
	[XB_SHARE] = { "0.0%", 1, 0 },	  [XB_RATIO] = { "0.000", 3, 0 },
	[XB_NUM] = { "#,##0.0", 1, 1 },	  [XB_TIME] = { "yyyy-mm-dd hh:mm:ss", 0, 0 },
	[XB_DUR] = { "[h]:mm:ss.0", 0, 0 },
};

double xb_div(enum xb_fmt k)
{
	switch (k) {
	case XB_RATE: return rep_rate_div();
	case XB_US: return 1e3;
	case XB_KIB: return 1024;
	case XB_MIB: return XB_MIBYTES;
	case XB_GIB: return XB_MIBYTES * 1024;
	case XB_TIME: return 86400e9; /* ns to days (and 25569 days from 1900 to 1970) */
	case XB_DUR: return 86400;    /* seconds to days */
	default: return 1;
	}
}

const char *xb_title(const char *t, char *buf, size_t len)
{
	const char *m = t ? strstr(t, "MiB/s") : NULL;
	if (!m || !rep_units_si())
		return t;
	snprintf(buf, len, "%.*s%s%s", (int)(m - t), t, rep_rate_unit(), m + 5);
	return buf;
}

int xb_open(struct xb_book *b, const char *path)
{
	memset(b, 0, sizeof(*b));
	lxw_workbook_options opt = { .constant_memory = LXW_TRUE };
	b->wb = workbook_new_opt(path, &opt);
	if (!b->wb)
		return -EIO;
	b->bold = workbook_add_format(b->wb);
	format_set_bold(b->bold);
	for (int k = 0; k < XB_NFMT; k++) {
		b->fmt[k] = kinds[k].code ? workbook_add_format(b->wb) : NULL;
		b->head[k] = kinds[k].code ? workbook_add_format(b->wb) : b->bold;
		if (b->fmt[k])
			format_set_num_format(b->fmt[k], kinds[k].code);
		if (kinds[k].code && b->head[k]) {
			format_set_num_format(b->head[k], kinds[k].code);
			format_set_bold(b->head[k]);
		}
	}
	return 0;
}

/* The current sheet's columns as wide as their widest cell. */
static void widths(struct xb_book *b)
{
	for (size_t c = 0; b->sheet && c < XB_MAXCOLS; c++)
		if (b->width[c] > 0)
			worksheet_set_column(b->sheet, (lxw_col_t)c, (lxw_col_t)c,
					     SB_MIN(b->width[c] + 2, 90.0), NULL);
	memset(b->width, 0, sizeof(b->width));
}

lxw_error xb_close(struct xb_book *b)
{
	widths(b);
	return workbook_close(b->wb);
}

lxw_worksheet *xb_sheet(struct xb_book *b, const char *name, const char *const *titles, size_t n,
			lxw_row_t freeze, lxw_col_t freeze_col)
{
	widths(b);
	b->sheet = workbook_add_worksheet(b->wb, name);
	b->sheet_name = name;
	b->row = titles ? 1 : 0;
	if (!b->sheet)
		return NULL;
	for (size_t i = 0; titles && i < n; i++)
		xb_str(b, 0, (lxw_col_t)i, titles[i], 1);
	if (freeze || freeze_col)
		worksheet_freeze_panes(b->sheet, freeze, freeze_col);
	return b->sheet;
}

static void widen(struct xb_book *b, lxw_col_t c, double w)
{
	if (c < XB_MAXCOLS && w > b->width[c])
		b->width[c] = w;
}

/* Characters of UTF-8 text (µ is one). */
static size_t chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

void xb_str(struct xb_book *b, lxw_row_t r, lxw_col_t c, const char *s, int bold)
{
	char buf[256];
	s = xb_title(s ? s : "", buf, sizeof(buf));
	worksheet_write_string(b->sheet, r, c, s, bold ? b->bold : NULL);
	widen(b, c, (double)chars(s) * (bold ? 1.15 : 1.0));
}

/* Characters v shows in format k. */
static double shown(double v, enum xb_fmt k)
{
	char buf[64];
	if (k == XB_TIME)
		return 19;
	if (k == XB_DUR)
		return fabs(v) * 24 >= 100 ? 12 : 10;
	if (k == XB_SHARE)
		v *= 100;
	int n = snprintf(buf, sizeof(buf), "%.*f", kinds[k].dec, v);
	const char *dot = strchr(buf, '.');
	const int digits = (int)(dot ? dot - buf : n) - (v < 0);
	if (kinds[k].sep && digits > 3)
		n += (digits - 1) / 3;
	return n + (k == XB_SHARE);
}

void xb_num(struct xb_book *b, lxw_row_t r, lxw_col_t c, double v, enum xb_fmt k, int bold)
{
	if (!isfinite(v))
		return;
	if (k == XB_TIME)
		v += 25569; /* days from 1899-12-30, Excel's day 0, to 1970-01-01 */
	worksheet_write_number(b->sheet, r, c, v, bold ? b->head[k] : b->fmt[k]);
	widen(b, c, shown(k == XB_TIME ? 0 : v, k) * (bold ? 1.15 : 1.0));
}

void xb_base(struct xb_book *b, lxw_row_t r, lxw_col_t c, double v, enum xb_fmt k)
{
	xb_num(b, r, c, v / xb_div(k), k, 0);
}

lxw_chart *xb_chart(struct xb_book *b, uint8_t type, const char *title, const char *x,
		    const char *y)
{
	char t[3][200];
	lxw_chart *ch = workbook_add_chart(b->wb, type);
	if (!ch)
		return NULL;
	chart_title_set_name(ch, xb_title(title, t[0], sizeof(t[0])));
	chart_axis_set_name(ch->x_axis, xb_title(x, t[1], sizeof(t[1])));
	chart_axis_set_name(ch->y_axis, xb_title(y, t[2], sizeof(t[2])));
	return ch;
}

void xb_place(struct xb_book *b, lxw_row_t row, lxw_col_t col, lxw_chart *ch)
{
	lxw_chart_options o = { .x_scale = 1.6, .y_scale = 1.4 };
	worksheet_insert_chart_opt(b->sheet, row, col, ch, &o);
}
#endif

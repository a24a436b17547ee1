/*
 * The frame of an HTML page (head with the inline CSS, footer) and the
 * small pieces every section writes (key/value rows, cells, table heads),
 * shared by the report's files and compare's page.
 */
#include "report/html.h"

static const char css[] =
	":root{--fg:#1d1d1f;--muted:#5f6368;--line:#dcdfe3;--accent:#0072B2}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',"
	"'DejaVu Sans',sans-serif;color:var(--fg);background:#f3f4f6}\n"
	"main{max-width:1100px;margin:0 auto;padding:24px 40px 56px;background:#fff;min-height:100vh}\n"
	"h1{font-size:26px;margin:6px 0 2px}h2{font-size:21px;margin:40px 0 4px;padding-top:14px;"
	"border-top:3px solid var(--accent)}h3{font-size:16px;margin:26px 0 8px;color:#333}\n"
	".meta{color:var(--muted);margin:0 0 10px}\n"
	"table{border-collapse:collapse;margin:6px 0 14px;font-size:14px;"
	"font-variant-numeric:tabular-nums}\n"
	"th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}\n"
	"thead th{background:#f1f3f5;font-weight:600;white-space:nowrap}\n"
	"td.n,th.n{text-align:right;white-space:nowrap}td:first-child{white-space:nowrap}\n"
	"table.kv th{font-weight:600;color:#444;width:10em;background:none}\n"
	".cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(380px,1fr));gap:0 36px}\n"
	"ul.warn,ul.notes{padding:0;margin:8px 0}\n"
	"ul.warn li,ul.notes li{list-style:none;padding:4px 12px;margin:3px 0;border-radius:3px;"
	"font-size:14px}\n"
	"ul.warn li{background:#fff5e6;border-left:4px solid #E69F00}\n"
	"ul.notes li{background:#eef5fb;border-left:4px solid #56B4E9}\n"
	".ok{color:#009E73;font-weight:600}.bad{color:#D55E00;font-weight:600}\n"
	"nav.toc ol{margin:6px 0 0 0;padding-left:22px}\n"
	"figure{margin:12px 0 26px}figcaption{color:var(--muted);font-size:13px}\n"
	"svg.chart{display:block;width:100%;max-width:960px;height:auto;background:#fff}\n"
	"svg.chart text{font-family:inherit;fill:#222}\n"
	"svg.chart .title{font-size:17px;font-weight:600}svg.chart .note{font-size:12.5px;fill:#666}\n"
	"svg.chart .tick{font-size:12.5px;fill:#444}svg.chart .axis-title{font-size:13.5px}\n"
	"svg.chart .value{font-size:11.5px;fill:#333}svg.chart .legend text{font-size:13px}\n"
	"svg.chart .grid{stroke:#e4e6e9;stroke-width:1}svg.chart .minor{stroke:#f2f3f5}\n"
	"svg.chart .axis{fill:none;stroke:#555;stroke-width:1.2}\n"
	"svg.chart .errbar{fill:none;stroke:#222;stroke-width:1.5}\n"
	".swatch{display:inline-block;width:12px;height:12px;margin-right:7px;border-radius:2px;"
	"vertical-align:-1px}\n"
	"div.wide{overflow-x:auto}\n"
	".verdict{font-size:19px;margin:10px 0 4px;padding:8px 14px;border-radius:4px;"
	"border-left:6px solid #888;background:#f1f3f5}\n"
	".verdict b{font-size:22px;margin-right:10px}\n"
	".verdict.pass{border-color:#009E73;background:#e9f7f2}.verdict.pass b{color:#00795a}\n"
	".verdict.fail{border-color:#D55E00;background:#fdf0e8}.verdict.fail b{color:#b34e00}\n"
	"ul.why{margin:6px 0 10px;padding-left:22px;font-size:14px}ul.why li{margin:2px 0;"
	"overflow-wrap:anywhere}\n"
	"svg.chart .vline{stroke:#CC79A7;stroke-width:1.5;stroke-dasharray:5 4}\n"
	"svg.chart .nodata{font-size:15px;fill:#888}\n"
	"svg.chart circle:hover,svg.chart rect:hover{stroke:#000;stroke-width:1.5}\n"
	"footer{margin-top:40px;color:var(--muted);font-size:13px}\n"
	"@media print{body{background:#fff;font-size:10.5pt}main{max-width:none;padding:0}"
	"nav.toc{display:none}h2{break-before:page}section:first-of-type h2{break-before:auto}"
	"figure,table,ul.warn{break-inside:avoid}svg.chart{max-width:100%}}\n"
	"@page{size:A4;margin:14mm}\n";

void rep_html_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	rep_html_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", css);
}

void rep_html_end(FILE *f)
{
	fprintf(f,
		"<footer>Made by storbench %s. Units: KiB, MiB, GiB are powers of 1024; "
		"µs and ms are powers of 1000 of a second.</footer>\n</main>\n</body>\n</html>\n",
		sb_version());
}

/* ---- small pieces ---- */
/* "12.3 us" -> "12.3 µs": the text report keeps ASCII, a page can do better. */
char *html_fmt_ns(double ns, char *buf, size_t len)
{
	rep_fmt_ns(ns, buf, len);
	size_t n = strlen(buf);
	if (n >= 3 && !strcmp(buf + n - 3, " us") && n + 2 < len)
		snprintf(buf + n - 2, len - (n - 2), "µs");
	return buf;
}

void html_kv(FILE *f, const char *key, const char *val)
{
	if (!val || !*val)
		return;
	fputs("<tr><th>", f);
	rep_html_esc(f, key);
	fputs("</th><td>", f);
	rep_html_esc(f, val);
	fputs("</td></tr>\n", f);
}

void html_cell(FILE *f, const char *s, int numeric)
{
	fputs(numeric ? "<td class=\"n\">" : "<td>", f);
	rep_html_esc(f, s && *s ? s : "-");
	fputs("</td>", f);
}

void html_head_row(FILE *f, const char *const *cols, size_t n, unsigned numeric_from)
{
	fputs("<table>\n<thead><tr>", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i >= numeric_from ? "<th class=\"n\">" : "<th>", f);
		rep_html_esc(f, cols[i]);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

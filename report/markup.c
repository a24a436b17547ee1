/* Escaping text for HTML and SVG (report/markup.h). */
#include "report/markup.h"
#include "report/report.h"

void rep_html_esc(FILE *f, const char *s)
{
	char one[8];
	size_t used;
	for (; s && *s; s += used) {
		used = 1;
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\n': fputc('\n', f); break; /* white space in HTML */
		default: /* a control character shown as text (report.h, rep_vis) */
			fputs((rep_vis_char(s, one, &used), one), f);
		}
	}
}

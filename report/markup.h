/* Text inside HTML and SVG markup: one escaper for the pages and the charts. */
#ifndef SB_MARKUP_H
#define SB_MARKUP_H

#include "lib/storbench.h"

/* Writes s (NULL: nothing) with & < > " ' as entities, so it is safe in
 * element text and in attribute values alike, and control characters but
 * the newline and the tab as text (\x1b, \r: rep_vis), so that the page
 * printed on a terminal is as harmless as in a browser. */
void rep_html_esc(FILE *f, const char *s);

#endif

/* Text inside HTML and SVG markup: one escaper for the pages and the charts. */
#ifndef SB_MARKUP_H
#define SB_MARKUP_H

#include "lib/storbench.h"

/* Writes s (NULL: nothing) with & < > " ' as entities, so it is safe in
 * element text and in attribute values alike. */
void rep_html_esc(FILE *f, const char *s);

#endif

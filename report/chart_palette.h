/*
 * The palette every chart draws from (report/chart_palette.c): Okabe and
 * Ito's colours, safe for colour-blind readers.
 */
#ifndef SB_CHART_PALETTE_H
#define SB_CHART_PALETTE_H

/* The palette colour of index i ("#0072B2" ...). */
const char *chart_color(int i);

#endif

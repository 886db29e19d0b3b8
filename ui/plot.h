/* plot: charts drawn into a rect of a screen (plot.c): the coverage growth
 * curves and horizontal bars.  A widget: it knows nothing of the app or the
 * panes (see widget.h). */
#ifndef KPATH_UI_PLOT_H
#define KPATH_UI_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/compare.h"
#include "workspace/growth.h"
#include "screen.h"

/* Horizontal bars: label i, then a bar of value[i] out of max (eighths of a
 * cell in UTF-8, '#' in ASCII) in style[i], then the value as written in
 * text[i]; one row each from r.y.  Returns the rows drawn. */
int plot_bars(struct screen *s, struct rect r, const char *const *label, const double *value,
              const char *const *text, const int *style, size_t n, double max);
/* Draw the coverage growth chart into r; `selected` inputs are marked. */
void plot_growth(struct screen *s, struct rect r, const struct coverage_growth *g, size_t selected);
/* Random against k-path generation (compare.h) on the same axes, coverage
 * against bytes written (0 .. c->span) or, by_input, against inputs (0 ..
 * c->n): the curve of each strategy, its mark ('r', 'k') at its right end
 * and in the header, which names the axis and reads both at its end. */
void plot_compare(struct screen *s, struct rect r, const struct gen_compare *c, bool by_input);
/* The style of the curve of k. */
int plot_curve_style(uint32_t k);

#endif

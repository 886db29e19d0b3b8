/* plot: the coverage growth chart (growth.h) drawn into a rect.
 *
 * One curve per k: coverage (0 to 100%) against the number of inputs (0 to
 * n).  In a UTF-8 locale the curves are drawn in braille, 2x4 dots per cell;
 * in ASCII each cell is one point and shows the digit of its k.  Colour
 * alone never tells the curves apart: the digit of each curve's k stands at
 * its right end, and the header names each k next to its value.  The
 * selected input (the inputs list's cursor) is marked on the x axis and the
 * header reads the curves there.  Only this file knows the chart's layout.
 *
 * A widget (see widget.h): it draws into a screen and knows nothing of the
 * app or the panes; the inputs pane and the runs view give it the data. */
#include <math.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "base/number.h"
#include "widget.h"
#include "base/xalloc.h"

/* A curve's style: k = 1, 2, ... take these in turn. */
static const int curve_styles[] = {EL_BAR, EL_MARKED, EL_BACKEDGE, EL_COVERED, EL_SAMPLE};
#define NCURVE_STYLES (sizeof curve_styles / sizeof curve_styles[0])

int plot_curve_style(uint32_t k)
{
    return curve_styles[(k - 1) % NCURVE_STYLES];
}

/* The dot row (0 = bottom) of a fraction on a canvas `height` dots high: the
 * top row only at full coverage, as the percentages round down. */
static int dot_row(double f, int height)
{
    if (f >= 1.0)
        return height - 1;
    int y = (int)floor(f * (height - 1));
    if (y > height - 2 && height > 1)
        y = height - 2;
    return y < 0 ? 0 : y;
}

/* The input count a dot column stands for (column 0: none, the last: n). */
static size_t column_input(int x, int width, size_t n)
{
    if (width <= 1)
        return n;
    return (size_t)((double)x * (double)n / (double)(width - 1) + 0.5);
}

static const uint8_t braille_bits[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

/* The value of curve c after i inputs, a fraction in [0, 1]. */
typedef double (*curve_fn)(const void *ctx, int c, size_t i);

/* The axes of a chart of n inputs below a header row of r; the canvas's
 * top-left cell and size in *x0, *y0, *cw, *ch.  False (and a word on what
 * to do) when r is too small for one. */
static bool draw_axes(struct screen *s, struct rect r, size_t n, const char *unit, int *x0,
                      int *y0, int *cw, int *ch)
{
    const int label_w = 5; /* "100%" and the axis */
    *cw = r.w - label_w - 4;
    *ch = r.h - 2;
    if (*cw < 4 || *ch < 2) {
        if (r.h > 1)
            screen_puts(s, r.x, r.y + 1, r.w, "(too small for the plot: z zooms)", EL_DIM);
        return false;
    }
    *x0 = r.x + label_w;
    *y0 = r.y + 1;
    screen_puts(s, r.x, *y0, label_w - 1, "100%", EL_DIM);
    if (*ch >= 5)
        screen_puts(s, r.x, *y0 + (*ch - 1) / 2, label_w - 1, " 50%", EL_DIM);
    screen_puts(s, r.x, *y0 + *ch - 1, label_w - 1, "  0%", EL_DIM);
    for (int y = 0; y < *ch; y++)
        screen_fill(s, *x0 - 1, *y0 + y, 1, s->ascii ? '|' : 0x2502, EL_BORDER);
    int ay = *y0 + *ch;
    screen_fill(s, *x0 - 1, ay, 1, s->ascii ? '+' : 0x2514, EL_BORDER);
    screen_fill(s, *x0, ay, *cw, s->ascii ? '-' : 0x2500, EL_BORDER);
    char num[32];
    int nw = snprintf(num, sizeof num, "%zu", n);
    screen_puts(s, *x0, ay, 1, "0", EL_DIM);
    if (*cw > nw + 2)
        screen_puts(s, *x0 + *cw - nw, ay, nw, num, EL_DIM);
    int uw = (int)strlen(unit);
    if (*cw > nw + uw + 6)
        screen_puts(s, *x0 + (*cw - uw) / 2, ay, uw, unit, EL_DIM);
    return true;
}

/* The curves on a canvas of dots (braille in UTF-8, one point per cell in
 * ASCII showing the curve's mark); a cell takes the style of the last curve
 * drawn in it.  Each curve's mark stands at its right end; curves that end
 * on the same row share it ("12"). */
static void draw_curves(struct screen *s, int x0, int y0, int cw, int ch, size_t n, int ncurves,
                        curve_fn f, const void *ctx, const int *styles, const char *marks)
{
    bool braille = !s->ascii;
    int dx = braille ? 2 : 1, dy = braille ? 4 : 1;
    int pw = cw * dx, ph = ch * dy;
    uint8_t *bits = xcalloc((size_t)cw * (size_t)ch, 1);
    int *style = xcalloc((size_t)cw * (size_t)ch, sizeof *style);
    uint32_t *digit = xcalloc((size_t)cw * (size_t)ch, sizeof *digit);
    for (int k = 0; k < ncurves; k++) {
        int prev = -1;
        for (int x = 0; x < pw; x++) {
            int y = dot_row(f(ctx, k, column_input(x, pw, n)), ph);
            int lo = prev < 0 ? y : (prev < y ? prev + 1 : y);
            int hi = prev < 0 ? y : (prev > y ? prev - 1 : y);
            if (lo > hi)
                lo = hi = y;
            for (int yy = lo; yy <= hi; yy++) {
                int row = ph - 1 - yy; /* from the top */
                size_t c = (size_t)(row / dy) * (size_t)cw + (size_t)(x / dx);
                bits[c] |= braille ? braille_bits[row % 4][x % 2] : 1;
                style[c] = styles[k];
                digit[c] = (uint8_t)marks[k];
            }
            prev = y;
        }
    }
    for (int y = 0; y < ch; y++)
        for (int x = 0; x < cw; x++) {
            size_t c = (size_t)y * (size_t)cw + (size_t)x;
            if (!bits[c])
                continue;
            screen_fill(s, x0 + x, y0 + y, 1, braille ? 0x2800u + bits[c] : digit[c], style[c]);
        }
    char (*labels)[4] = xcalloc((size_t)ch, sizeof *labels);
    int *label_style = xcalloc((size_t)ch, sizeof *label_style);
    for (int k = 0; k < ncurves; k++) {
        int row = (ph - 1 - dot_row(f(ctx, k, n), ph)) / dy;
        size_t len = strlen(labels[row]);
        if (len < 2)
            labels[row][len] = marks[k];
        else
            labels[row][2] = '+';
        if (len == 0)
            label_style[row] = styles[k];
    }
    for (int y = 0; y < ch; y++)
        if (labels[y][0])
            screen_puts(s, x0 + cw + 1, y0 + y, 3, labels[y], label_style[y]);
    free(label_style);
    free(labels);
    free(digit);
    free(style);
    free(bits);
}

/* The selected input on the x axis. */
static void mark_selected(struct screen *s, int x0, int ay, int cw, size_t n, size_t selected)
{
    if (n == 0)
        return;
    int dx = s->ascii ? 1 : 2, pw = cw * dx;
    int sx = (int)((double)selected * (double)(pw - 1) / (double)n + 0.5) / dx;
    screen_fill(s, x0 + sx, ay, 1, s->ascii ? '^' : 0x2534, EL_HEADER);
}

static double growth_curve(const void *ctx, int c, size_t i)
{
    return growth_fraction(ctx, (uint32_t)c + 1, i);
}

void plot_growth(struct screen *s, struct rect r, const struct coverage_growth *g, size_t selected)
{
    struct strbuf tmp = STRBUF_INIT;
    size_t n = g->ninputs;
    if (selected > n)
        selected = n;
    /* header: the curves' values after the selected input */
    strbuf_addf(&tmp, "after %zu of %zu input%s:", selected, n, n == 1 ? "" : "s");
    int used = screen_puts(s, r.x, r.y, r.w, strbuf_str(&tmp), EL_HEADER);
    for (uint32_t k = 1; k <= g->kmax && used < r.w; k++) {
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, " k=%u ", k);
        if (g->total[k - 1] == UINT64_MAX)
            strbuf_addstr(&tmp, "0.0");
        else
            number_add_percent(&tmp, growth_covered(g, k, selected), g->total[k - 1]);
        strbuf_addch(&tmp, '%');
        used += screen_puts(s, r.x + used, r.y, r.w - used, strbuf_str(&tmp), plot_curve_style(k));
    }
    /* expansion coverage (fuzzingbook's) after the same inputs, shown only
     * whole: a cut count would mislead */
    for (int label = 0; label < 2; label++) {
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, " %s %" PRIu64 "/%" PRIu64, label ? "exp" : "expansions",
                    g->expansions[selected], g->expansions_total);
        if ((int)tmp.len <= r.w - used) {
            used += screen_puts(s, r.x + used, r.y, r.w - used, strbuf_str(&tmp), EL_DIM);
            break;
        }
    }
    strbuf_free(&tmp);
    int x0, y0, cw, ch;
    if (!draw_axes(s, r, n, "inputs", &x0, &y0, &cw, &ch))
        return;
    int ncurves = (int)g->kmax;
    int *styles = xcalloc((size_t)ncurves + 1, sizeof *styles);
    char *marks = xcalloc((size_t)ncurves + 1, 1);
    for (int k = 0; k < ncurves; k++) {
        styles[k] = plot_curve_style((uint32_t)k + 1);
        marks[k] = (char)('0' + (k + 1) % 10);
    }
    draw_curves(s, x0, y0, cw, ch, n, ncurves, growth_curve, g, styles, marks);
    mark_selected(s, x0, y0 + ch, cw, n, selected);
    free(marks);
    free(styles);
}

/* ---- random against k-path ----------------------------------------------------------- */

struct compare_ctx {
    const struct gen_compare *c;
    bool by_input;
};

static double compare_curve(const void *ctx, int c, size_t i)
{
    const struct compare_ctx *cc = ctx;
    const struct gen_compare *cmp = cc->c;
    uint64_t covered = cc->by_input ? gen_compare_at_input(cmp, c, i)
                                    : gen_compare_at_bytes(cmp, c, (uint64_t)i);
    if (cmp->total == 0 || covered >= cmp->total)
        return 1.0;
    return (double)covered / (double)cmp->total;
}

void plot_compare(struct screen *s, struct rect r, const struct gen_compare *c, bool by_input)
{
    static const int styles[COMPARE_NSTRATEGIES] = {EL_MARKED, EL_COVERED};
    static const char marks[COMPARE_NSTRATEGIES] = {'r', 'k'};
    /* the x axis: 0 .. n inputs, or 0 .. span bytes */
    size_t n = by_input ? c->n : (size_t)c->span;
    struct strbuf tmp = STRBUF_INIT;
    if (by_input)
        strbuf_addf(&tmp, "%u-paths after %zu inputs:", c->k, n);
    else
        strbuf_addf(&tmp, "%u-paths after %zu bytes:", c->k, n);
    int used = screen_puts(s, r.x, r.y, r.w, strbuf_str(&tmp), EL_HEADER);
    for (int k = 0; k < COMPARE_NSTRATEGIES && used < r.w; k++) {
        uint64_t at = by_input ? gen_compare_at_input(c, k, n) : gen_compare_at_bytes(c, k, n);
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, " %c %s %" PRIu64 "/", marks[k], gen_compare_name(k), at);
        if (c->total == UINT64_MAX)
            strbuf_addstr(&tmp, "2^64+");
        else
            strbuf_addf(&tmp, "%" PRIu64, c->total);
        used += screen_puts(s, r.x + used, r.y, r.w - used, strbuf_str(&tmp), styles[k]);
    }
    strbuf_free(&tmp);
    int x0, y0, cw, ch;
    if (!draw_axes(s, r, n, by_input ? "inputs" : "bytes", &x0, &y0, &cw, &ch))
        return;
    struct compare_ctx ctx = {c, by_input};
    draw_curves(s, x0, y0, cw, ch, n, COMPARE_NSTRATEGIES, compare_curve, &ctx, styles, marks);
}

/* ---- bars ---------------------------------------------------------------------------- */

int plot_bars(struct screen *s, struct rect r, const char *const *label, const double *value,
              const char *const *text, const int *style, size_t n, double max)
{
    int label_w = 0, text_w = 0;
    for (size_t i = 0; i < n; i++) {
        int lw = (int)strlen(label[i]), tw = (int)strlen(text[i]);
        label_w = lw > label_w ? lw : label_w;
        text_w = tw > text_w ? tw : text_w;
    }
    /* label, a blank, the bar, a blank, the value */
    int bar_w = r.w - label_w - text_w - 3;
    int rows = 0;
    for (size_t i = 0; i < n && rows < r.h; i++, rows++) {
        int y = r.y + rows;
        screen_puts(s, r.x, y, label_w, label[i], EL_DIM);
        int x = r.x + label_w + 1;
        int filled = 0;
        if (bar_w > 0 && max > 0 && value[i] > 0) {
            double f = value[i] >= max ? 1.0 : value[i] / max;
            /* in eighths of a cell (UTF-8) or whole cells (ASCII), rounded
             * down: a bar is full only at max */
            int unit = s->ascii ? 1 : 8;
            long eighths = (long)floor(f * bar_w * unit);
            if (eighths == 0)
                eighths = 1; /* a value above 0 shows */
            int whole = (int)(eighths / unit), part = (int)(eighths % unit);
            screen_fill(s, x, y, whole, s->ascii ? '#' : 0x2588, style[i]);
            filled = whole;
            if (part) {
                /* U+258F one eighth ... U+2589 seven eighths */
                screen_fill(s, x + whole, y, 1, 0x2590u - (uint32_t)part, style[i]);
                filled++;
            }
        }
        int tx = x + (bar_w > 0 ? filled : 0) + 1;
        screen_puts(s, tx, y, r.x + r.w - tx, text[i], EL_NORMAL);
    }
    return rows;
}

/* widget: the bottom layer of the explorer's drawing, under every pane.
 *
 * Contract: small pieces any pane (or the app's frame) draws with, and
 * nothing else: list scrolling (struct list_state), the selection style, the
 * UTF-8 or ASCII glyphs, the marks and styles that say coverage, and text
 * helpers (escaping, percentages, case-blind search).  It draws into a
 * struct screen (screen.h) in a theme's elements (theme.h) and reads the
 * core's workspace (node_style); it knows nothing of the app, the panes or
 * the front ends: it never includes ui.h or app.h (tests/layers.sh checks).
 * The charts of plot.c are widgets too (plot.h). */
#ifndef KPATH_UI_WIDGET_H
#define KPATH_UI_WIDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "screen.h"
#include "base/strbuf.h"
#include "theme.h"
#include "workspace/workspace.h"

/* A scrolled list: the selected row, the first row shown, and where it was
 * drawn last (for the mouse and for paging). */
struct list_state {
    uint64_t cursor, top;
    int height;  /* visible rows at the last draw */
    int first_y; /* screen row of the first visible row at the last draw */
};

/* Keep the cursor on a row (and top above it) of a list of `rows` rows. */
void list_clamp(struct list_state *l, uint64_t rows);
/* The same, then scroll so that the cursor is shown and the list fills its
 * height when it is long enough. */
void list_scroll_into_view(struct list_state *l, uint64_t rows);
/* Draw the selection style over row y of r (focused or not). */
void draw_selected(struct screen *s, struct rect r, int y, bool focused);

/* Glyph strings: utf8, or ascii in a non-UTF-8 locale. */
const char *glyph(bool ascii, const char *utf8, const char *ascii_text);
/* The mark that says a coverage style without colour: covered, partly,
 * uncovered (the k-path list and the graph use the same marks). */
const char *coverage_mark(bool ascii, int style);
/* The coverage style (EL_COVERED, EL_PARTLY, EL_UNCOVERED, or EL_DIM outside
 * every pin) of a symbolic node of the workspace's graph. */
int node_style(const struct workspace *ws, uint32_t node);

/* Escape an input for one-line display as base/escape.h does (\n, \t, \r,
 * \xHH for C0 controls, DEL and bytes that are not UTF-8, \u{HHHH} for C1
 * controls and invisible formatting characters), except that a backslash
 * stays one backslash (the text as written).  Stops once out holds `max`
 * bytes. */
void escape_text(const char *text, size_t len, size_t max, struct strbuf *out);
/* Word wrap, one line at a time: the length in bytes of the first line of
 * text[0..len) in at most `width` columns (one per code point, as the screen
 * draws them; width 1 at least).  A newline ends a line; a line that must be
 * broken is broken at its last blank that fits (the blanks there dropped),
 * and only a word longer than the width is cut inside.  *next is where the
 * following line starts.  Linear in the line, so a long log wraps in time
 * proportional to its size. */
size_t text_wrap_line(const char *text, size_t len, int width, size_t *next);
/* Does hay contain needle, ignoring ASCII case? */
bool text_contains_nocase(const char *hay, const char *needle);
/* Seconds on the monotonic clock (jobs' time slices; never shown). */
double ui_now(void);

#endif

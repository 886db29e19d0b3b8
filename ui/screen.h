/* screen: the frame the panes draw into, one cell per terminal column.
 *
 * Panes never talk to curses: they write cells (a character and a style)
 * here, and a back end shows the frame: the terminal (term.c), a text dump
 * (:dump, the script-mode tests) or an SVG picture (:svg, the screenshots).
 *
 * A cell's style is a theme element (theme.h) in the low six bits plus the
 * STYLE_SELECTED / STYLE_SELECTED_BLUR flags for the selected row of a
 * focused or unfocused pane.  Every character takes one column: control
 * characters, and characters that a terminal shows wider or narrower than
 * one column, are drawn as a replacement, so a frame lines up whatever an
 * input contains.  In ASCII mode (a non-UTF-8 locale) everything outside
 * ASCII is replaced too. */
#ifndef KPATH_UI_SCREEN_H
#define KPATH_UI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

#define STYLE_ELEMENT_MASK 0x3f
#define STYLE_SELECTED 0x80
#define STYLE_SELECTED_BLUR 0x40

struct cell {
    uint32_t ch;
    uint8_t style;
};

struct screen {
    int w, h;
    struct cell *cells; /* owned; w * h */
    bool ascii;
};

struct rect {
    int x, y, w, h;
};

void screen_resize(struct screen *s, int w, int h);
void screen_free(struct screen *s);
void screen_clear(struct screen *s, int style);
/* Draw UTF-8 text at (x, y), at most maxw columns; returns the columns used.
 * Tabs and newlines show as one replacement each. */
int screen_put(struct screen *s, int x, int y, int maxw, const char *text, size_t len, int style);
/* The same, but text that does not fit ends in an ellipsis. */
int screen_put_fit(struct screen *s, int x, int y, int maxw, const char *text, size_t len,
                   int style);
int screen_puts(struct screen *s, int x, int y, int maxw, const char *text, int style);
void screen_fill(struct screen *s, int x, int y, int w, uint32_t ch, int style);
/* Change the style of w cells (flags are or-ed in when `or_flags`). */
void screen_restyle(struct screen *s, int x, int y, int w, int style, bool or_flags);
/* Columns UTF-8 text takes (one per code point). */
int text_columns(const char *text, size_t len);
/* The character a cell shows for code point cp. */
uint32_t screen_displayable(const struct screen *s, uint32_t cp);
/* The frame as text: one line per row, trailing blanks removed. */
void screen_dump(const struct screen *s, struct strbuf *out);

#endif

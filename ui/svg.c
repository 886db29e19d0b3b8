/* svg: a frame as an SVG picture in the theme's colours, for the
 * screenshots (`:svg FILE`, `make screenshots`).  Written by hand: a
 * background rectangle per run of cells with one background, a text element
 * per run of cells with one style. */
#include <stdio.h>
#include <string.h>

#include "svg.h"

#define CELL_W 9
#define CELL_H 18
#define FONT_SIZE 15

struct look {
    uint32_t fg, bg;
    unsigned attrs;
};

static struct look look_of(const struct theme *t, uint8_t style)
{
    const struct theme_style *normal = &t->el[EL_NORMAL];
    uint32_t dfg = theme_rgb(&normal->fg, 0xd0d0d0), dbg = theme_rgb(&normal->bg, 0x1c1c1c);
    const struct theme_style *e = &t->el[style & STYLE_ELEMENT_MASK];
    struct look l = {theme_rgb(&e->fg, dfg), theme_rgb(&e->bg, dbg), e->attrs};
    if (l.attrs & ATTR_REVERSE) {
        uint32_t x = l.fg;
        l.fg = l.bg;
        l.bg = x;
    }
    if (style & STYLE_SELECTED) {
        uint32_t x = l.fg;
        l.fg = l.bg;
        l.bg = x;
    }
    if (style & STYLE_SELECTED_BLUR)
        l.attrs |= ATTR_UNDERLINE;
    return l;
}

static void add_escaped(struct strbuf *out, uint32_t ch)
{
    switch (ch) {
    case '<': strbuf_addstr(out, "&lt;"); break;
    case '>': strbuf_addstr(out, "&gt;"); break;
    case '&': strbuf_addstr(out, "&amp;"); break;
    case '"': strbuf_addstr(out, "&quot;"); break;
    default: strbuf_add_utf8(out, ch);
    }
}

void svg_render(const struct screen *s, const struct theme *t, struct strbuf *out)
{
    int W = s->w * CELL_W, H = s->h * CELL_H;
    struct look base = look_of(t, EL_NORMAL);
    strbuf_addf(out,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" "
                "font-size=\"%d\">\n",
                W, H, W, H, FONT_SIZE);
    strbuf_addf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#%06x\"/>\n", W, H, base.bg);
    for (int y = 0; y < s->h; y++) {
        const struct cell *row = s->cells + (size_t)y * (size_t)s->w;
        for (int x = 0; x < s->w;) {
            struct look l = look_of(t, row[x].style);
            int end = x + 1;
            while (end < s->w && look_of(t, row[end].style).bg == l.bg)
                end++;
            if (l.bg != base.bg)
                strbuf_addf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#%06x\"/>\n",
                            x * CELL_W, y * CELL_H, (end - x) * CELL_W, CELL_H, l.bg);
            x = end;
        }
        for (int x = 0; x < s->w;) {
            uint8_t style = row[x].style;
            int end = x + 1;
            while (end < s->w && row[end].style == style)
                end++;
            bool blank = true;
            for (int i = x; i < end; i++)
                blank &= row[i].ch == ' ';
            if (!blank) {
                struct look l = look_of(t, style);
                strbuf_addf(out, "<text x=\"%d\" y=\"%d\" fill=\"#%06x\" textLength=\"%d\" "
                                 "lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\"",
                            x * CELL_W, y * CELL_H + CELL_H - 5, l.fg, (end - x) * CELL_W);
                if (l.attrs & ATTR_BOLD)
                    strbuf_addstr(out, " font-weight=\"bold\"");
                if (l.attrs & ATTR_ITALIC)
                    strbuf_addstr(out, " font-style=\"italic\"");
                if (l.attrs & ATTR_UNDERLINE)
                    strbuf_addstr(out, " text-decoration=\"underline\"");
                if (l.attrs & ATTR_DIM)
                    strbuf_addstr(out, " opacity=\"0.6\"");
                strbuf_addch(out, '>');
                for (int i = x; i < end; i++)
                    add_escaped(out, row[i].ch);
                strbuf_addstr(out, "</text>\n");
            }
            x = end;
        }
    }
    strbuf_addstr(out, "</svg>\n");
}

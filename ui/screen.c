/* screen: see screen.h. */
#include "screen.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"

void screen_resize(struct screen *s, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    if (w != s->w || h != s->h) {
        free(s->cells);
        s->cells = xcalloc((size_t)w * (size_t)h, sizeof *s->cells);
        s->w = w;
        s->h = h;
    }
}

void screen_free(struct screen *s)
{
    free(s->cells);
    s->cells = NULL;
    s->w = s->h = 0;
}

void screen_clear(struct screen *s, int style)
{
    size_t n = (size_t)s->w * (size_t)s->h;
    for (size_t i = 0; i < n; i++)
        s->cells[i] = (struct cell){' ', (uint8_t)style};
}

/* Characters a terminal does not show in exactly one column: combining
 * marks, zero-width characters, and the wide East Asian and emoji blocks. */
static bool one_column(uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
        return false;
    if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) ||
        (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
        (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xd800 && cp <= 0xdfff))
        return false;
    if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
        (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
        (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
        (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f000 && cp <= 0x1faff) ||
        (cp >= 0x20000 && cp <= 0x3fffd) || cp > 0x10ffff)
        return false;
    return true;
}

uint32_t screen_displayable(const struct screen *s, uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 0x20 && cp != 0x7f ? cp : '?';
    if (s->ascii)
        return '?';
    return one_column(cp) ? cp : 0xfffd;
}

static struct cell *at(struct screen *s, int x, int y)
{
    return &s->cells[(size_t)y * (size_t)s->w + (size_t)x];
}

int screen_put(struct screen *s, int x, int y, int maxw, const char *text, size_t len, int style)
{
    if (y < 0 || y >= s->h || x >= s->w || maxw <= 0)
        return 0;
    if (x + maxw > s->w)
        maxw = s->w - x;
    int used = 0;
    size_t i = 0;
    while (i < len && used < maxw) {
        uint32_t cp;
        size_t n = utf8_decode(text + i, len - i, &cp);
        if (n == 0) {
            cp = 0xfffd;
            n = 1;
        }
        i += n;
        if (x + used >= 0)
            *at(s, x + used, y) = (struct cell){screen_displayable(s, cp), (uint8_t)style};
        used++;
    }
    return used;
}

int screen_put_fit(struct screen *s, int x, int y, int maxw, const char *text, size_t len,
                   int style)
{
    if (maxw <= 0)
        return 0;
    if (text_columns(text, len) <= maxw)
        return screen_put(s, x, y, maxw, text, len, style);
    int used = screen_put(s, x, y, maxw - 1, text, len, style);
    screen_fill(s, x + used, y, 1, s->ascii ? '~' : 0x2026, style);
    return used + 1;
}

int screen_puts(struct screen *s, int x, int y, int maxw, const char *text, int style)
{
    return screen_put(s, x, y, maxw, text, strlen(text), style);
}

void screen_fill(struct screen *s, int x, int y, int w, uint32_t ch, int style)
{
    if (y < 0 || y >= s->h)
        return;
    for (int i = 0; i < w && x + i < s->w; i++)
        if (x + i >= 0)
            *at(s, x + i, y) = (struct cell){screen_displayable(s, ch), (uint8_t)style};
}

void screen_restyle(struct screen *s, int x, int y, int w, int style, bool or_flags)
{
    if (y < 0 || y >= s->h)
        return;
    for (int i = 0; i < w && x + i < s->w; i++) {
        if (x + i < 0)
            continue;
        struct cell *c = at(s, x + i, y);
        c->style = or_flags ? (uint8_t)(c->style | style) : (uint8_t)style;
    }
}

int text_columns(const char *text, size_t len)
{
    return (int)utf8_length(text, len);
}

void screen_dump(const struct screen *s, struct strbuf *out)
{
    for (int y = 0; y < s->h; y++) {
        size_t start = out->len;
        size_t keep = start;
        for (int x = 0; x < s->w; x++) {
            uint32_t ch = s->cells[(size_t)y * (size_t)s->w + (size_t)x].ch;
            strbuf_add_utf8(out, ch);
            if (ch != ' ')
                keep = out->len;
        }
        out->len = keep;
        if (out->data)
            out->data[out->len] = '\0';
        strbuf_addch(out, '\n');
    }
}

/* widget: see widget.h. */
#include "widget.h"

#include <ctype.h>
#include <string.h>
#include <time.h>

#include "base/escape.h"
#include "base/utf8.h"

double ui_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *glyph(bool ascii, const char *utf8, const char *ascii_text)
{
    return ascii ? ascii_text : utf8;
}

void list_clamp(struct list_state *l, uint64_t rows)
{
    if (rows == 0) {
        l->cursor = l->top = 0;
        return;
    }
    if (l->cursor >= rows)
        l->cursor = rows - 1;
    if (l->top > l->cursor)
        l->top = l->cursor;
}

void list_scroll_into_view(struct list_state *l, uint64_t rows)
{
    list_clamp(l, rows);
    uint64_t h = l->height > 0 ? (uint64_t)l->height : 1;
    if (l->cursor < l->top)
        l->top = l->cursor;
    if (l->cursor >= l->top + h)
        l->top = l->cursor - h + 1;
    /* no empty space below the last row when the list is long enough */
    if (rows > h && l->top > rows - h)
        l->top = rows - h;
    if (rows <= h)
        l->top = 0;
}

void draw_selected(struct screen *s, struct rect r, int y, bool focused)
{
    screen_restyle(s, r.x, y, r.w, focused ? STYLE_SELECTED : STYLE_SELECTED_BLUR, true);
}

void escape_text(const char *text, size_t len, size_t max, struct strbuf *out)
{
    for (size_t i = 0; i < len && out->len < max;) {
        uint32_t cp;
        size_t n = utf8_decode(text + i, len - i, &cp);
        if (n == 0) { /* not UTF-8: the byte */
            strbuf_addf(out, "\\x%02X", (unsigned)(unsigned char)text[i]);
            i++;
            continue;
        }
        escape_add_code_point(out, cp); /* a backslash as it is */
        i += n;
    }
}

const char *coverage_mark(bool ascii, int style)
{
    switch (style) {
    case EL_COVERED: return glyph(ascii, "\xe2\x9c\x93", "+");   /* ✓ */
    case EL_PARTLY: return glyph(ascii, "\xe2\x97\x90", "~");    /* ◐ */
    case EL_UNCOVERED: return glyph(ascii, "\xc2\xb7", "-");      /* · */
    default: return " ";                                        /* outside the pins */
    }
}

int node_style(const struct workspace *ws, uint32_t node)
{
    if (ws->pins.len && !ws->pins.below[node])
        return EL_DIM; /* outside every pin */
    uint64_t total = workspace_node_total(ws, node);
    uint64_t covered = workspace_node_covered(ws, node);
    if (total == 0) /* no k-path starts here (a leaf, for k > 1): does it occur at all? */
        return workspace_node_seen(ws, node) ? EL_COVERED : EL_UNCOVERED;
    if (covered == 0)
        return EL_UNCOVERED;
    return covered >= total ? EL_COVERED : EL_PARTLY;
}

size_t text_wrap_line(const char *text, size_t len, int width, size_t *next)
{
    int w = width > 1 ? width : 1;
    size_t end = 0, blank = 0; /* blank: after the last run of blanks that fits */
    bool any_blank = false;
    for (int cols = 0; end < len && text[end] != '\n' && cols < w; cols++) {
        if (text[end] == ' ') {
            blank = end;
            any_blank = true;
        }
        end++;
        while (end < len && ((unsigned char)text[end] & 0xc0) == 0x80)
            end++;
    }
    if (end >= len || text[end] == '\n') {
        *next = end < len ? end + 1 : len;
        return end;
    }
    /* the text goes on: break at a blank, the one just after the line if
     * it is one, else the last within it */
    size_t cut = end, after = end;
    if (text[end] != ' ') {
        if (!any_blank || blank == 0) {
            *next = end; /* one word longer than the line */
            return end;
        }
        cut = blank;
        after = blank;
    }
    while (cut > 0 && text[cut - 1] == ' ')
        cut--;
    while (after < len && text[after] == ' ')
        after++;
    if (cut == 0) { /* only blanks before: keep them rather than an empty line */
        *next = end;
        return end;
    }
    *next = after;
    return cut;
}

bool text_contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return true;
    for (const char *h = hay; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] &&
               tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* overlays: the help and the message log, drawn over the panes (and the
 * generalization's overlay, whose lines generalize_view.c gives), each
 * through struct overlay_ops; what the overlays hold, drawn, and searched
 * (/ while one is open).  Part of the app layer: the help lists every
 * pane's keys (pane_ops) and the commands (command_table.h). */
#include <stdlib.h>
#include <string.h>

#include "command_table.h"
#include "generalize_view.h"
#include "messages.h"
#include "session.h"
#include "overlays.h"
#include "base/xalloc.h"

/* The message log's lines (markers as struct overlay_ops says), wrapped to
 * `width` so every message can be read in full. */
static void messages_lines(struct ui *ui, int width, struct strbuf *lines)
{
    if (ui->nlog == 0)
        strbuf_addstr(lines, "\x05(no messages yet)\n");
    int w = width > 10 ? width : 10;
    for (size_t i = 0; i < ui->nlog; i++) {
        const char *t = ui->log[i].text;
        char mark = ui->log[i].error ? '\x04' : '\x05';
        /* lines at newlines, wrapped at w columns between words; the
         * continuations of a line indented, so each message stands out */
        size_t len = strlen(t), pos = 0;
        bool first = true;
        while (pos < len) {
            size_t next;
            size_t take = text_wrap_line(t + pos, len - pos, first ? w : w - 2, &next);
            strbuf_addch(lines, mark);
            if (!first)
                strbuf_addstr(lines, "  ");
            strbuf_add(lines, t + pos, take);
            strbuf_addch(lines, '\n');
            first = pos + take < len && t[pos + take] == '\n';
            pos += next;
        }
    }
}

/* Help: the focused pane's keys first (those of the view it shows, when it
 * names them: struct view_keys), then every pane's, the commands and the
 * mouse. */
static void help_lines(struct ui *ui, int width, struct strbuf *lines)
{
    enum key_context first = pane_ops[ui->focus]->context;
    const struct view_keys *view = ui_focused_keys(ui);
    enum key_context order[NCONTEXTS];
    int n = 0;
    if (view) {
        strbuf_addf(lines, "\x01%s (the focused pane)\n", view->title);
        for (const struct footer_key *f = view->keys; f->action != ACT_NONE; f++) {
            const struct key_binding *b = keys_binding(f->action);
            strbuf_addf(lines, "\x02%s\x03%s\n", b->keys, b->help);
        }
    } else {
        order[n++] = first;
    }
    order[n++] = CTX_LIST;
    order[n++] = CTX_GLOBAL;
    for (int c = 0; c < NCONTEXTS; c++)
        if (((enum key_context)c != first || view) && c != CTX_LIST && c != CTX_GLOBAL)
            order[n++] = (enum key_context)c;
    for (int o = 0; o < n; o++) {
        enum key_context c = order[o];
        bool any = false;
        for (size_t i = 0; i < key_table_len; i++)
            any |= key_table[i].context == c;
        if (!any)
            continue;
        strbuf_addf(lines, "\x01%s%s\n", key_context_titles[c],
                    c != first ? ""
                    : view     ? " (every view)"
                    : o == 0 && c != CTX_LIST && c != CTX_GLOBAL ? " (the focused pane)"
                                                                 : "");
        for (size_t i = 0; i < key_table_len; i++)
            if (key_table[i].context == c)
                strbuf_addf(lines, "\x02%s\x03%s\n", key_table[i].keys, key_table[i].help);
    }
    strbuf_addstr(lines, "\x01" "Commands (type : first)\n");
    commands_help(lines, width);
    strbuf_addstr(lines, "\x01" "Mouse\n\x02" "click\x03" "focus a pane and select a row\n"
                         "\x02" "wheel\x03" "scroll\n");
}

static const struct overlay_ops help_overlay_ops = {
    " Help: keys and commands (j/k scroll, / searches, Esc closes)", help_lines, NULL, NULL,
};
static const struct overlay_ops messages_overlay_ops = {
    " Messages of this session (j/k scroll, / searches, Esc closes)", messages_lines, NULL, NULL,
};

const struct overlay_ops *overlay_current(const struct ui *ui)
{
    switch (ui->overlay) {
    case OVERLAY_NONE: return NULL;
    case OVERLAY_HELP: return &help_overlay_ops;
    case OVERLAY_MESSAGES: return &messages_overlay_ops;
    case OVERLAY_GENERALIZE: return &generalize_overlay_ops;
    case OVERLAY_COMPARE: return &compare_overlay_ops;
    }
    return NULL;
}

/* The key column: it fits the longest keys (a command with its
 * arguments), up to half the width of the overlay (`w` columns). */
static int key_width(const struct strbuf *lines, int w)
{
    int kw = 12;
    for (const char *q = lines->data; q && *q;) {
        const char *nl = strchr(q, '\n');
        const char *mid = *q == '\x02' ? memchr(q, '\x03', (size_t)(nl - q)) : NULL;
        if (mid && text_columns(q + 1, (size_t)(mid - q - 1)) + 2 > kw)
            kw = text_columns(q + 1, (size_t)(mid - q - 1)) + 2;
        q = nl + 1;
    }
    return kw > w / 2 ? w / 2 : kw;
}

/* The overlay's lines for a width; a key's text longer than its column
 * goes on under it (lines with no key), so no entry ends cut off. */
static void overlay_lines(struct ui *ui, int width, struct strbuf *lines)
{
    struct strbuf raw = STRBUF_INIT;
    overlay_current(ui)->lines(ui, width, &raw);
    int room = width + 2 - key_width(&raw, width + 2) - 4;
    for (const char *p = raw.data; p && *p;) {
        const char *nl = strchr(p, '\n');
        const char *mid = *p == '\x02' ? memchr(p, '\x03', (size_t)(nl - p)) : NULL;
        if (!mid || room < 10 || text_columns(mid + 1, (size_t)(nl - mid - 1)) <= room) {
            strbuf_add(lines, p, (size_t)(nl - p) + 1);
            p = nl + 1;
            continue;
        }
        strbuf_add(lines, p, (size_t)(mid - p) + 1); /* the key */
        const char *t = mid + 1;
        size_t len = (size_t)(nl - t);
        bool first = true;
        while (len) {
            size_t next, take = text_wrap_line(t, len, room, &next);
            if (!first)
                strbuf_addstr(lines, "\x02\x03");
            strbuf_add(lines, t, take);
            strbuf_addch(lines, '\n');
            first = false;
            if (!next)
                break;
            t += next;
            len -= next;
        }
        p = nl + 1;
    }
    strbuf_free(&raw);
}

void overlay_draw(struct ui *ui, struct rect body)
{
    struct screen *s = &ui->scr;
    struct rect r = body;
    for (int y = r.y; y < r.y + r.h; y++)
        screen_fill(s, r.x, y, r.w, ' ', EL_NORMAL);
    screen_fill(s, r.x, r.y, r.w, ' ', EL_TITLE_FOCUS);
    const char *title = overlay_current(ui)->title;
    screen_put_fit(s, r.x, r.y, r.w, title, strlen(title), EL_TITLE_FOCUS);
    if (overlay_current(ui)->draw) {
        ui->help_height = r.h - 1;
        overlay_current(ui)->draw(ui, (struct rect){r.x + 1, r.y + 1, r.w - 2, r.h - 1});
        return;
    }
    struct strbuf lines = STRBUF_INIT;
    overlay_lines(ui, r.w - 2, &lines);
    uint64_t total = 0;
    for (size_t i = 0; i < lines.len; i++)
        total += lines.data[i] == '\n';
    int h = r.h - 1;
    ui->help_height = h;
    if (total > (uint64_t)h && ui->help_top > total - (uint64_t)h)
        ui->help_top = total - (uint64_t)h;
    if (total <= (uint64_t)h)
        ui->help_top = 0;
    int kw = key_width(&lines, r.w);
    uint64_t row = 0;
    int y = r.y + 1;
    const char *p = lines.data;
    while (p && *p && y < r.y + r.h) {
        const char *nl = strchr(p, '\n');
        if (row++ >= ui->help_top) {
            if (*p == '\x01') {
                screen_put(s, r.x + 1, y, r.w - 2, p + 1, (size_t)(nl - p - 1), EL_HEADER);
            } else if (*p == '\x02') {
                const char *mid = memchr(p, '\x03', (size_t)(nl - p));
                screen_put_fit(s, r.x + 3, y, kw - 1, p + 1, (size_t)(mid - p - 1), EL_HELP_KEY);
                screen_put_fit(s, r.x + 3 + kw, y, r.w - kw - 4, mid + 1, (size_t)(nl - mid - 1),
                               EL_NORMAL);
            } else {
                screen_put(s, r.x + 1, y, r.w - 2, p + 1, (size_t)(nl - p - 1),
                           *p == '\x04' ? EL_ERROR : EL_NORMAL);
            }
            if (ui->overlay_match == row)
                screen_restyle(s, r.x, y, r.w, EL_SEARCH, false);
            y++;
        }
        p = nl + 1;
    }
    strbuf_free(&lines);
}

void overlay_search(struct ui *ui, bool backward)
{
    struct strbuf lines = STRBUF_INIT;
    overlay_lines(ui, ui->scr.w - 2, &lines);
    size_t nlines = 0;
    for (size_t i = 0; i < lines.len; i++)
        nlines += lines.data[i] == '\n';
    char **line = xcalloc(nlines + 1, sizeof *line);
    size_t k = 0;
    for (char *p = lines.data; p && *p; k++) {
        char *nl = strchr(p, '\n');
        *nl = '\0';
        for (char *q = p; *q; q++)
            if (*q >= 1 && *q <= 5)
                *q = ' ';
        line[k] = p;
        p = nl + 1;
    }
    uint64_t from = ui->overlay_match ? ui->overlay_match - 1 : ui->help_top;
    bool found = false;
    for (size_t i = 1; i <= nlines && nlines; i++) {
        size_t at = backward ? (size_t)((from + nlines * 2 - i) % nlines)
                             : (size_t)((from + i - (ui->overlay_match ? 0 : 1)) % nlines);
        if (text_contains_nocase(line[at], ui->search)) {
            ui->overlay_match = at + 1;
            uint64_t h = ui->help_height > 2 ? (uint64_t)ui->help_height : 1;
            if (at < ui->help_top || at >= ui->help_top + h)
                ui->help_top = at > h / 3 ? at - h / 3 : 0;
            found = true;
            break;
        }
    }
    free(line);
    strbuf_free(&lines);
    if (found)
        ui_message(ui, "/%s", ui->search);
    else
        ui_error(ui, "not found: %s", ui->search);
}

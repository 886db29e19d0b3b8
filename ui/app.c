/* app: the explorer's frame (tabs, panes, status bar, message line,
 * overlays, footer), layout and focus, key dispatch, jobs and search, and
 * what the panes ask for (ui_request).  The app layer (see ui.h): it calls
 * the panes through their ops and the widgets, never a front end; the front
 * ends call it through app.h.  No curses here. */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "formats/grammar_write.h"
#include "lesson.h"
#include "base/number.h"
#include "app.h"
#include "base/samples.h"
#include "base/xalloc.h"
#include "workspace/workspace_file.h"

const struct pane_ops *const pane_ops[NPANES] = {
    &graph_pane_ops, &kpaths_pane_ops, &probs_pane_ops,
    &stepper_pane_ops, &inputs_pane_ops, &detail_pane_ops,
};

/* ---- layout --------------------------------------------------------------------- */

static void layout(struct ui *ui, struct rect body)
{
    struct rect *pr = ui->pane_rect;
    memset(pr, 0, sizeof ui->pane_rect);
    if (ui->zoom) {
        pr[ui->focus] = body;
        return;
    }
    if (body.w >= 150 && body.h >= 20) {
        int w1 = body.w * 3 / 10, w2 = body.w * 4 / 10;
        int w3 = body.w - w1 - w2 - 2;
        int top = body.h * 3 / 5;
        int x2 = body.x + w1 + 1, x3 = x2 + w2 + 1;
        pr[PANE_GRAPH] = (struct rect){body.x, body.y, w1, top};
        pr[PANE_PROBS] = (struct rect){body.x, body.y + top, w1, body.h - top};
        pr[PANE_KPATHS] = (struct rect){x2, body.y, w2, top};
        pr[PANE_DETAIL] = (struct rect){x2, body.y + top, w2, body.h - top};
        pr[PANE_STEPPER] = (struct rect){x3, body.y, w3, top};
        pr[PANE_INPUTS] = (struct rect){x3, body.y + top, w3, body.h - top};
        return;
    }
    if (body.w >= 96 && body.h >= 22) {
        int w1 = body.w * 9 / 20;
        int w2 = body.w - w1 - 1;
        int top = body.h * 3 / 5;
        pr[PANE_GRAPH] = (struct rect){body.x, body.y, w1, top};
        pr[ui->slot_c] = (struct rect){body.x, body.y + top, w1, body.h - top};
        pr[ui->slot_b] = (struct rect){body.x + w1 + 1, body.y, w2, top};
        pr[PANE_DETAIL] = (struct rect){body.x + w1 + 1, body.y + top, w2, body.h - top};
        return;
    }
    /* Narrow: the focused pane over the detail pane. */
    enum pane_id topp = ui->focus == PANE_DETAIL ? ui->detail_of : ui->focus;
    int top = body.h * 3 / 5;
    pr[topp] = (struct rect){body.x, body.y, body.w, top};
    pr[PANE_DETAIL] = (struct rect){body.x, body.y + top, body.w, body.h - top};
}

/* ---- drawing ----------------------------------------------------------------------- */

/* The tab bar: the panes by number, the focused one highlighted (it is the
 * pane the keys go to), and at the right, always, the way to help and the
 * way out.  Narrow terminals get shorter names, then numbers only for the
 * panes not focused. */
static void draw_tabs(struct ui *ui)
{
    struct screen *s = &ui->scr;
    static const char *const full[NPANES] = {"Graph", "k-paths", "Probabilities",
                                             "Stepper", "Inputs", "Detail"};
    static const char *const brief[NPANES] = {"Graph", "k-paths", "Probs",
                                              "Stepper", "Inputs", "Detail"};
    const char *right = " ? help  q quit ";
    int rw = (int)strlen(right);
    /* the first level that fits: 0 full names and the program's name;
     * 1 short names; 2 no gaps between the tabs; 3 numbers only for the
     * panes not focused */
    int level = 0;
    for (; level < 3; level++) {
        int w = level == 0 ? 7 : 0;
        for (int p = 0; p < NPANES; p++)
            w += (level < 2) + 4 + (int)strlen((level ? brief : full)[p]);
        if (w + rw <= s->w)
            break;
    }
    screen_fill(s, 0, 0, s->w, ' ', EL_TABS);
    int x = level == 0 ? screen_puts(s, 0, 0, s->w, " kpath ", EL_TAB_ACTIVE) : 0;
    int gap = level < 2;
    for (int p = 0; p < NPANES; p++) {
        char label[40];
        bool focused = (enum pane_id)p == ui->focus;
        if (level < 3 || focused)
            snprintf(label, sizeof label, " %d %s ", p + 1, (level ? brief : full)[p]);
        else
            snprintf(label, sizeof label, " %d ", p + 1);
        int style = focused ? EL_TAB_ACTIVE : EL_TABS;
        ui->tab_x[p] = x + gap;
        x += screen_puts(s, x + gap, 0, s->w - rw - x - gap, label, style) + gap;
        ui->tab_x[p + 1] = x;
    }
    screen_puts(s, s->w - rw > x ? s->w - rw : x, 0, rw, right, EL_TABS);
}

struct status_part {
    char text[160];
    int priority; /* 0: always shown; larger: dropped first when narrow */
};

static void draw_status(struct ui *ui, int y)
{
    struct screen *s = &ui->scr;
    struct workspace *ws = ui->ws;
    const char *sep = glyph(ui->ascii, " \xe2\x94\x82 ", " | ");
    struct status_part parts[8];
    int n = 0;
    struct strbuf sb = STRBUF_INIT;
#define PART(prio)                                                                  \
    do {                                                                            \
        snprintf(parts[n].text, sizeof parts[n].text, "%s", strbuf_str(&sb));      \
        parts[n++].priority = (prio);                                               \
        strbuf_reset(&sb);                                                          \
    } while (0)
    const char *base = strrchr(ws->grammar_path, '/');
    strbuf_addf(&sb, "%s", base ? base + 1 : ws->grammar_path);
    if (ws->ndups)
        strbuf_addf(&sb, " (+%zu dup)", ws->ndups);
    if (ws->dirty)
        strbuf_addstr(&sb, glyph(ui->ascii, " \xe2\x97\x8f", " *"));
    PART(0);
    strbuf_addf(&sb, "k=%u", ws->k);
    PART(0);
    if (ws->space.saturated) {
        strbuf_addf(&sb, "%" PRIu64 " covered of more than 2^64", ws->covered.size);
    } else {
        uint64_t all = workspace_count(ws, WS_ALL);
        strbuf_addf(&sb, "%" PRIu64 "/%" PRIu64 " ", ws->covered.size, all);
        number_add_percent(&sb, ws->covered.size, all);
        strbuf_addch(&sb, '%');
        if (ws->pins.len)
            strbuf_addstr(&sb, " pinned");
    }
    PART(0);
    size_t marked = workspace_marked(ws);
    strbuf_addf(&sb, "%zu input%s", ws->ninputs, ws->ninputs == 1 ? "" : "s");
    if (marked)
        strbuf_addf(&sb, " (%zu marked)", marked);
    PART(1);
    const struct gen_options *o = &ws->gen_opts;
    strbuf_addstr(&sb, gen_strategy_name(o->strategy));
    if (o->strategy == GEN_KPATH)
        strbuf_addf(&sb, "/%s", gen_closeoff_name(o->closeoff));
    PART(2);
    if (ws->pins.len) {
        strbuf_addstr(&sb, "pin ");
        pin_format(ws->graph, &ws->pins.pins[0], &sb);
        if (ws->pins.len > 1)
            strbuf_addf(&sb, " +%zu", ws->pins.len - 1);
        PART(2);
    }
    strbuf_addf(&sb, "seed %" PRIu64, o->seed);
    PART(3);
    strbuf_addf(&sb, "depth %u", o->max_depth);
    PART(3);
#undef PART
    /* drop the least important parts until the line fits */
    int sepw = text_columns(sep, strlen(sep));
    for (int drop = 4; drop > 0; drop--) {
        int w = 1;
        for (int i = 0, shown = 0; i < n; i++)
            if (parts[i].priority < drop)
                w += (shown++ ? sepw : 0) + text_columns(parts[i].text, strlen(parts[i].text));
        if (w <= s->w || drop == 1) {
            strbuf_addch(&sb, ' ');
            for (int i = 0, shown = 0; i < n; i++)
                if (parts[i].priority < drop) {
                    if (shown++)
                        strbuf_addstr(&sb, sep);
                    strbuf_addstr(&sb, parts[i].text);
                }
            break;
        }
    }
    screen_fill(s, 0, y, s->w, ' ', EL_STATUS);
    screen_put_fit(s, 0, y, s->w, sb.data ? sb.data : "", sb.len, EL_STATUS);
    strbuf_free(&sb);
}

static void draw_bottom_line(struct ui *ui, int y)
{
    struct screen *s = &ui->scr;
    screen_fill(s, 0, y, s->w, ' ', EL_MESSAGE);
    ui->cursor_x = ui->cursor_y = -1;
    if (ui->cmdline) {
        const char *prompt = ui->cmd_prompt ? ui->cmd_prompt : ":";
        const char *text = ui->cmd_text ? ui->cmd_text : "";
        int pw = text_columns(prompt, strlen(prompt));
        int before = text_columns(text, (size_t)ui->cmd_point);
        int avail = s->w - pw - 1;
        /* scroll horizontally so the cursor stays visible */
        int skip = before > avail ? before - avail : 0;
        const char *t = text;
        for (int i = 0; i < skip && *t; i++) {
            t++;
            while ((*t & 0xc0) == 0x80)
                t++;
        }
        screen_puts(s, 0, y, s->w, prompt, EL_COMMAND);
        screen_puts(s, pw, y, s->w - pw, t, EL_COMMAND);
        ui->cursor_x = pw + before - skip;
        ui->cursor_y = y;
        if (ui->cmd_hint && y > 0) {
            screen_fill(s, 0, y - 1, s->w, ' ', EL_STATUS);
            screen_puts(s, 1, y - 1, s->w - 1, ui->cmd_hint, EL_STATUS);
        }
        return;
    }
    if (ui->question) {
        /* the answer keys stay visible however long the question is */
        const char *q = ui->question, *yn = " (y/n)";
        size_t len = strlen(q), ynl = strlen(yn);
        if (text_columns(q, len) > s->w && len > ynl && strcmp(q + len - ynl, yn) == 0) {
            int used = screen_put_fit(s, 0, y, s->w - (int)ynl, q, len - ynl, EL_HELP_KEY);
            screen_puts(s, used, y, s->w - used, yn, EL_HELP_KEY);
        } else {
            screen_put_fit(s, 0, y, s->w, q, len, EL_HELP_KEY);
        }
        return;
    }
    struct strbuf status = STRBUF_INIT;
    int status_style;
    if (ui_job_status(ui, s->w, &status, &status_style)) {
        screen_puts(s, 0, y, s->w, strbuf_str(&status), status_style);
        strbuf_free(&status);
        return;
    }
    if (ui->message) {
        /* a message longer than the line, or with more in the log, ends in
         * a pointer to the log, where all of it can be read */
        const char *more = " (M: all of it)";
        int mw = (int)strlen(more);
        size_t len = strlen(ui->message);
        bool cut = text_columns(ui->message, len) > s->w;
        int style = ui->message_error ? EL_ERROR : EL_MESSAGE;
        if ((cut || ui->message_more) && s->w > 2 * mw) {
            int used = screen_put_fit(s, 0, y, s->w - mw, ui->message, len, style);
            screen_puts(s, used, y, mw, more, EL_DIM);
        } else {
            screen_put_fit(s, 0, y, s->w, ui->message, len, style);
        }
    }
}

static void draw_pane(struct ui *ui, enum pane_id p)
{
    struct rect r = ui->pane_rect[p];
    if (r.w <= 0 || r.h <= 0)
        return;
    struct screen *s = &ui->scr;
    bool focused = p == ui->focus;
    int style = focused ? EL_TITLE_FOCUS : EL_TITLE;
    screen_fill(s, r.x, r.y, r.w, ' ', style);
    struct strbuf title = STRBUF_INIT;
    strbuf_addf(&title, " %d %s", (int)p + 1, pane_ops[p]->title);
    if (ui->zoom && focused)
        strbuf_addstr(&title, " [zoom]");
    int used = screen_puts(s, r.x, r.y, r.w, strbuf_str(&title), style);
    if (pane_ops[p]->summary) {
        strbuf_reset(&title);
        pane_ops[p]->summary(ui, &title);
        int tw = text_columns(title.data ? title.data : "", title.len);
        int x = r.x + r.w - tw - 1;
        if (x < r.x + used + 2)
            x = r.x + used + 2;
        screen_puts(s, x, r.y, r.x + r.w - x, strbuf_str(&title), style);
    }
    strbuf_free(&title);
    struct rect body = {r.x, r.y + 1, r.w, r.h - 1};
    if (body.h > 0)
        pane_ops[p]->draw(ui, body, focused);
}

/* ---- overlays: help and the message log ------------------------------------------ */

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

/* The keys of the focused pane's view (NULL: its context's bindings). */
static const struct view_keys *focused_view_keys(struct ui *ui)
{
    const struct pane_ops *ops = pane_ops[ui->focus];
    return ops->keys ? ops->keys(ui) : NULL;
}

/* The key table's binding of action a. */
static const struct key_binding *binding_of(enum action a)
{
    for (size_t i = 0; i < key_table_len; i++)
        if (key_table[i].action == a)
            return &key_table[i];
    return NULL;
}

/* Help: the focused pane's keys first (those of the view it shows, when it
 * names them: struct view_keys), then every pane's, the commands and the
 * mouse. */
static void help_lines(struct ui *ui, int width, struct strbuf *lines)
{
    enum key_context first = pane_ops[ui->focus]->context;
    const struct view_keys *view = focused_view_keys(ui);
    enum key_context order[NCONTEXTS];
    int n = 0;
    if (view) {
        strbuf_addf(lines, "\x01%s (the focused pane)\n", view->title);
        for (const struct footer_key *f = view->keys; f->action != ACT_NONE; f++) {
            const struct key_binding *b = binding_of(f->action);
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
    " Help: keys and commands (j/k scroll, / searches, Esc closes)", help_lines, NULL,
};
static const struct overlay_ops messages_overlay_ops = {
    " Messages of this session (j/k scroll, / searches, Esc closes)", messages_lines, NULL,
};

/* The open overlay's ops (NULL: none). */
static const struct overlay_ops *overlay_ops(const struct ui *ui)
{
    switch (ui->overlay) {
    case OVERLAY_NONE: return NULL;
    case OVERLAY_HELP: return &help_overlay_ops;
    case OVERLAY_MESSAGES: return &messages_overlay_ops;
    case OVERLAY_GENERALIZE: return &generalize_overlay_ops;
    }
    return NULL;
}

static void overlay_lines(struct ui *ui, int width, struct strbuf *lines)
{
    overlay_ops(ui)->lines(ui, width, lines);
}

/* One key of the footer at x: the key as the table names it (the first of
 * the binding's keys), then its word; false when it does not fit. */
static bool footer_key(struct screen *s, int *x, int y, const char *keys, const char *word)
{
    const char *end = strchr(keys, ' ');
    int kl = end ? (int)(end - keys) : (int)strlen(keys);
    int need = kl + 1 + (int)strlen(word) + 2;
    if (*x + need > s->w)
        return false;
    *x += screen_put(s, *x, y, kl, keys, (size_t)kl, EL_HELP_KEY);
    *x += screen_puts(s, *x, y, s->w - *x, " ", EL_NORMAL);
    *x += screen_puts(s, *x, y, s->w - *x, word, EL_DIM);
    *x += 2;
    return true;
}

/* The footer: the keys of what the keys go to, as many as fit (htop,
 * nano): an overlay's own keys when it names them (struct overlay_ops);
 * else the keys of the focused pane's view (struct view_keys, or its
 * context's bindings when it names none), then the global ones; :footer
 * hides it. */
static void draw_footer(struct ui *ui, int y)
{
    struct screen *s = &ui->scr;
    screen_fill(s, 0, y, s->w, ' ', EL_NORMAL);
    int x = 0;
    const struct overlay_ops *ov = overlay_ops(ui);
    const struct footer_key *own = ov ? ov->footer : NULL;
    bool then_global = !own;
    if (!own) {
        const struct view_keys *view = focused_view_keys(ui);
        own = view ? view->keys : NULL;
    }
    if (own) {
        for (const struct footer_key *f = own; f->action != ACT_NONE; f++)
            if (*f->word && !footer_key(s, &x, y, binding_of(f->action)->keys, f->word))
                return;
    } else {
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (b->context == pane_ops[ui->focus]->context && *b->footer &&
                !footer_key(s, &x, y, b->keys, b->footer))
                return;
        }
    }
    for (size_t i = 0; then_global && i < key_table_len; i++) {
        const struct key_binding *b = &key_table[i];
        if (b->context == CTX_GLOBAL && *b->footer && !footer_key(s, &x, y, b->keys, b->footer))
            return;
    }
}

static void draw_overlay(struct ui *ui, struct rect body)
{
    struct screen *s = &ui->scr;
    struct rect r = body;
    for (int y = r.y; y < r.y + r.h; y++)
        screen_fill(s, r.x, y, r.w, ' ', EL_NORMAL);
    screen_fill(s, r.x, r.y, r.w, ' ', EL_TITLE_FOCUS);
    const char *title = overlay_ops(ui)->title;
    screen_put_fit(s, r.x, r.y, r.w, title, strlen(title), EL_TITLE_FOCUS);
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
    /* the key column fits the longest keys (a command with its arguments),
     * up to half the width */
    int kw = 12;
    for (const char *q = lines.data; q && *q;) {
        const char *nl = strchr(q, '\n');
        const char *mid = *q == '\x02' ? memchr(q, '\x03', (size_t)(nl - q)) : NULL;
        if (mid && text_columns(q + 1, (size_t)(mid - q - 1)) + 2 > kw)
            kw = text_columns(q + 1, (size_t)(mid - q - 1)) + 2;
        q = nl + 1;
    }
    if (kw > r.w / 2)
        kw = r.w / 2;
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

/* Search the overlay's lines from the line after the last match (or the
 * first shown line), wrapping around. */
static void overlay_search(struct ui *ui, bool backward)
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

/* ---- lessons ------------------------------------------------------------------------ */

/* Wrap text at w columns (text_wrap_line), drawing the lines when s is
 * given; returns how many there are, at most maxlines. */
static int wrap_lines(const char *text, int w, struct screen *s, int x, int y, int maxlines, int style)
{
    int lines = 0;
    size_t len = strlen(text), pos = 0, next;
    while (pos < len && lines < maxlines) {
        size_t take = text_wrap_line(text + pos, len - pos, w, &next);
        if (s)
            screen_put_fit(s, x, y + lines, w, text + pos, take, style);
        lines++;
        pos += next;
    }
    return lines;
}

static int lesson_caption_height(struct ui *ui)
{
    const struct lesson_step *st = &ui->lesson->steps[ui->lesson_step];
    int text = wrap_lines(st->caption, ui->scr.w - 2, NULL, 0, 0, 6, 0);
    int h = 1 + text;
    int most = ui->scr.h / 3; /* the panes keep two thirds */
    return h > most ? most : h;
}

static void draw_caption(struct ui *ui, int y, int h)
{
    struct screen *s = &ui->scr;
    const struct lesson *l = ui->lesson;
    const struct lesson_step *st = &l->steps[ui->lesson_step];
    for (int i = 0; i < h; i++)
        screen_fill(s, 0, y + i, s->w, ' ', EL_NORMAL);
    screen_fill(s, 0, y, s->w, ' ', EL_TITLE);
    struct strbuf t = STRBUF_INIT;
    strbuf_addf(&t, " %s: step %zu/%zu, %s", l->title, ui->lesson_step + 1, l->nsteps, st->title);
    const char *keys = "  < > steps ";
    int kw = (int)strlen(keys);
    int used = screen_put_fit(s, 0, y, s->w - kw, t.data, t.len, EL_TITLE);
    screen_puts(s, s->w - kw > used ? s->w - kw : used, y, kw, keys, EL_TITLE);
    strbuf_free(&t);
    wrap_lines(st->caption, s->w - 2, s, 1, y + 1, h - 1, EL_NORMAL);
}

char *ui_lessons_dir(const struct ui *ui)
{
    struct strbuf p = STRBUF_INIT;
    const char *tries[] = {"%s/../lessons", "%s/../../lessons"};
    for (size_t i = 0; ui->exe_dir && i < 2; i++) {
        strbuf_reset(&p);
        strbuf_addf(&p, tries[i], ui->exe_dir);
        char real[PATH_MAX];
        if (realpath(strbuf_str(&p), real)) {
            strbuf_free(&p);
            return xstrdup(real);
        }
    }
    strbuf_reset(&p);
    strbuf_addf(&p, "%s/lessons", KPATH_DATADIR);
    if (access(strbuf_str(&p), R_OK) == 0)
        return strbuf_detach(&p, NULL);
    strbuf_free(&p);
    return NULL;
}

bool ui_lesson_open(struct ui *ui, const char *name)
{
    char *dir = ui_lessons_dir(ui);
    struct strbuf path = STRBUF_INIT;
    if (strchr(name, '/') || !dir)
        strbuf_addstr(&path, name);
    else
        strbuf_addf(&path, "%s/%s.lesson", dir, name);
    /* {data}: the directory above lessons/, where grammars/ is */
    struct strbuf data = STRBUF_INIT;
    const char *slash = strrchr(strbuf_str(&path), '/');
    if (slash)
        strbuf_add(&data, path.data, (size_t)(slash - path.data));
    else
        strbuf_addstr(&data, ".");
    strbuf_addstr(&data, "/..");
    char real[PATH_MAX];
    struct diag_list d = DIAG_LIST_INIT;
    struct lesson *l = lesson_load(strbuf_str(&path),
                                   realpath(strbuf_str(&data), real) ? real : strbuf_str(&data), &d);
    strbuf_free(&path);
    strbuf_free(&data);
    free(dir);
    if (!l) {
        ui_diags(ui, &d);
        return false;
    }
    diag_list_free(&d);
    lesson_free(ui->lesson);
    ui->lesson = l;
    ui_lesson_goto(ui, 0);
    return true;
}

void ui_lesson_goto(struct ui *ui, size_t i)
{
    struct lesson *l = ui->lesson;
    if (!l || i >= l->nsteps)
        return;
    ui->lesson = NULL; /* the setup lines run as typed, with no caption */
    /* from the view a fresh start has, so toggles (z, p) replay the same */
    ui->zoom = false;
    ui->show_patterns = false;
    ui->text_view = false;
    ui->filter = WS_UNCOVERED;
    ui->overlay = OVERLAY_NONE;
    ui->search_highlight = false;
    ui->slot_b = PANE_KPATHS;
    ui->slot_c = PANE_PROBS;
    ui_focus(ui, PANE_KPATHS);
    bool ok = true;
    for (size_t s = 0; s <= i && ok; s++)
        for (size_t j = 0; j < l->steps[s].nsetup && ok; j++) {
            char where[4200];
            snprintf(where, sizeof where, "%s:%u", l->path, l->steps[s].setup[j].number);
            ok = ui_script_line(ui, l->steps[s].setup[j].text, where);
        }
    if (ui->lesson) /* a setup line opened another lesson */
        lesson_free(ui->lesson);
    ui->lesson = l;
    ui->lesson_step = i;
    free(ui->message);
    ui->message = NULL;
    if (!ok)
        ui_error(ui, "the lesson's step %zu has a line that is not a key (M shows it)", i + 1);
}

void ui_draw(struct ui *ui)
{
    struct screen *s = &ui->scr;
    screen_clear(s, EL_NORMAL);
    if (s->w < UI_MIN_W || s->h < UI_MIN_H) {
        char line[96];
        snprintf(line, sizeof line, "Terminal too small (%dx%d)", s->w, s->h);
        screen_puts(s, 0, s->h / 2 - 1, s->w, line, EL_ERROR);
        snprintf(line, sizeof line, "kpath needs %dx%d; enlarge it (q quits)", UI_MIN_W, UI_MIN_H);
        screen_puts(s, 0, s->h / 2, s->w, line, EL_NORMAL);
        ui->cursor_x = ui->cursor_y = -1;
        return;
    }
    draw_tabs(ui);
    bool footer = !ui->footer_hidden;
    int caption = ui->lesson ? lesson_caption_height(ui) : 0;
    struct rect body = {0, 1, s->w, s->h - 3 - footer - caption};
    layout(ui, body);
    /* column separators: wherever no pane was drawn inside the body */
    for (int p = 0; p < NPANES; p++)
        draw_pane(ui, (enum pane_id)p);
    if (!ui->zoom) {
        for (int p = 0; p < NPANES; p++) {
            struct rect r = ui->pane_rect[p];
            if (r.w > 0 && r.x + r.w < s->w)
                for (int y = r.y; y < r.y + r.h; y++)
                    screen_fill(s, r.x + r.w, y, 1, ui->ascii ? '|' : 0x2502, EL_BORDER);
        }
    }
    if (ui->overlay)
        draw_overlay(ui, body);
    if (caption)
        draw_caption(ui, s->h - 2 - footer - caption, caption);
    if (footer)
        draw_footer(ui, s->h - 3);
    draw_status(ui, s->h - 2);
    draw_bottom_line(ui, s->h - 1);
}

/* ---- search ----------------------------------------------------------------------------- */

static bool kpath_row_matches(struct ui *ui, uint64_t row, struct strbuf *tmp, uint32_t *path)
{
    struct workspace *ws = ui->ws;
    uint64_t rank = kpaths_rank(ui, row);
    kpath_unrank(&ws->space, rank, path);
    if (ui->search_node_match) {
        for (uint32_t i = 0; i < ws->k; i++)
            if (ui->search_node_match[path[i]])
                return true;
        return false;
    }
    strbuf_reset(tmp);
    workspace_path_name(ws, path, ws->k, " -> ", tmp);
    if (text_contains_nocase(strbuf_str(tmp), ui->search))
        return true;
    strbuf_reset(tmp);
    workspace_path_name(ws, path, ws->k, " \xe2\x86\x92 ", tmp);
    return text_contains_nocase(strbuf_str(tmp), ui->search);
}

static bool row_matches(struct ui *ui, enum pane_id p, uint64_t row, struct strbuf *tmp,
                        uint32_t *path)
{
    if (p == PANE_KPATHS)
        return kpath_row_matches(ui, row, tmp, path);
    strbuf_reset(tmp);
    pane_ops[p]->row_text(ui, row, tmp);
    return text_contains_nocase(strbuf_str(tmp), ui->search);
}

/* What the counted matches belong to: the same search in the same list of
 * the same workspace state needs no new count. */
static void search_count_key(struct ui *ui, uint64_t key[6])
{
    key[0] = ui->search_pane;
    key[1] = ui->ws->changes;
    key[2] = ui->filter;
    key[3] = ui->ws->k;
    key[4] = (uint64_t)(uintptr_t)ui->ws;
    key[5] = ui->text_view;
}

/* "match 3 of 40": the found row's place among every match of the list. */
static void search_report(struct ui *ui)
{
    uint64_t row = ui->list[ui->search_pane].cursor, before = 0;
    size_t lo = 0, hi = ui->search_nmatches;
    while (lo < hi) { /* matches before the row: the rows are sorted */
        size_t mid = lo + (hi - lo) / 2;
        if (ui->search_matches[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    before = lo;
    ui_message(ui, "/%s: match %" PRIu64 " of %" PRIu64 "%s", ui->search, before + 1,
               ui->search_total, ui->search_total > ui->search_nmatches ? " (counted up to here)" : "");
}

/* Scan from search_pos for the next match, then count every match of the
 * list once (kept until the list or the text changes); true while there is
 * more to do. */
static bool search_slice(struct ui *ui, double deadline)
{
    enum pane_id p = ui->search_pane;
    uint64_t rows = pane_ops[p]->rows(ui);
    if (rows == 0) {
        ui_error(ui, "not found: %s", ui->search);
        return false;
    }
    struct strbuf tmp = STRBUF_INIT;
    uint32_t *path = xmalloc((ui->ws->k + 1) * sizeof *path);
    bool more = true;
    while (more && !ui->search_counting) {
        for (int i = 0; i < 4096; i++) {
            if (ui->search_done >= rows) {
                ui_error(ui, "not found: %s", ui->search);
                more = false;
                break;
            }
            uint64_t row = ui->search_pos % rows;
            bool match = row_matches(ui, p, row, &tmp, path);
            ui->search_done++;
            if (match) {
                ui->list[p].cursor = row;
                list_scroll_into_view(&ui->list[p], rows);
                ui_message(ui, "/%s", ui->search);
                uint64_t key[6];
                search_count_key(ui, key);
                if (ui->search_counted && memcmp(key, ui->search_key, sizeof key) == 0) {
                    search_report(ui);
                    more = false;
                } else { /* count them, from the top */
                    ui->search_counting = true;
                    ui->search_counted = false;
                    memcpy(ui->search_key, key, sizeof key);
                    ui->search_nmatches = 0;
                    ui->search_total = 0;
                    ui->search_count_pos = 0;
                }
                break;
            }
            ui->search_pos = ui->search_scan_backward ? (ui->search_pos + rows - 1) % rows
                                                      : (ui->search_pos + 1) % rows;
        }
        if (more && ui_now() >= deadline)
            break;
    }
    while (more && ui->search_counting) {
        for (int i = 0; i < 4096 && ui->search_count_pos < rows; i++, ui->search_count_pos++) {
            if (!row_matches(ui, p, ui->search_count_pos, &tmp, path))
                continue;
            if (ui->search_total++ < UI_SEARCH_MATCHES_MAX) {
                ui->search_matches = xgrow(ui->search_matches, &ui->search_matches_cap,
                                           ui->search_nmatches + 1, sizeof *ui->search_matches);
                ui->search_matches[ui->search_nmatches++] = ui->search_count_pos;
            }
        }
        if (ui->search_count_pos >= rows) {
            ui->search_counting = false;
            ui->search_counted = true;
            search_report(ui);
            more = false;
        } else if (ui_now() >= deadline) {
            break;
        }
    }
    free(path);
    strbuf_free(&tmp);
    return more;
}

static void search_stop(struct ui *ui, const char *why)
{
    if (ui->search_counting) {
        ui->search_counting = false; /* found; the count was not finished */
        ui_message(ui, "/%s", ui->search);
    } else {
        ui_message(ui, "search stopped%s%s", why ? ": " : "", why ? why : "");
    }
}

const struct job_ops search_job_ops = {.slice = search_slice, .stop = search_stop};

static void search_begin(struct ui *ui, bool backward)
{
    enum pane_id p = ui->focus;
    if (!pane_ops[p]->row_text && p != PANE_KPATHS)
        p = PANE_KPATHS;
    if (p == PANE_KPATHS && !workspace_listable(ui->ws)) {
        ui_error(ui, "too many k-paths to search");
        return;
    }
    ui->search_pane = p;
    ui->search_counting = false;
    uint64_t rows = pane_ops[p]->rows(ui);
    uint64_t cur = ui->list[p].cursor;
    ui->search_scan_backward = backward;
    ui->search_pos = rows ? (backward ? (cur + rows - 1) % rows : (cur + 1) % rows) : 0;
    ui->search_done = 0;
    /* A query without blanks or arrows matches node names: a k-path
     * matches when one of its nodes does, which is fast to test. */
    free(ui->search_node_match);
    ui->search_node_match = NULL;
    /* (also for the other panes: the graph and the k-path list highlight
     * the nodes that match) */
    ui->search_highlight = true;
    if (!strpbrk(ui->search, " \t>") && !strstr(ui->search, "\xe2\x86\x92")) {
        const struct graph *g = ui->ws->graph;
        ui->search_node_match = xcalloc((size_t)g->nnodes + 1, sizeof *ui->search_node_match);
        struct strbuf name = STRBUF_INIT;
        for (uint32_t n = 0; n < g->nnodes; n++) {
            strbuf_reset(&name);
            graph_node_name(g, n, &name);
            ui->search_node_match[n] = text_contains_nocase(strbuf_str(&name), ui->search);
        }
        strbuf_free(&name);
    }
    ui->job = JOB_SEARCH;
    ui_job_slice(ui, 0.03);
}

void ui_search(struct ui *ui, const char *text, bool backward)
{
    if (!*text) {
        if (!ui->search) {
            ui_error(ui, "no previous search");
            return;
        }
    } else {
        free(ui->search);
        ui->search = xstrdup(text);
        ui->search_backward = backward; /* n keeps this direction, N goes against it */
        ui->overlay_match = 0;
        ui->search_counted = false; /* a new text: count its matches again */
    }
    if (ui->overlay)
        overlay_search(ui, backward);
    else
        search_begin(ui, backward);
}

/* ---- keys ------------------------------------------------------------------------------------ */

static void list_action(struct ui *ui, enum pane_id p, enum action a)
{
    struct list_state *l = &ui->list[p];
    uint64_t rows = pane_ops[p]->rows(ui);
    uint64_t h = l->height > 0 ? (uint64_t)l->height : 1;
    uint64_t half = h / 2 ? h / 2 : 1;
    switch (a) {
    case ACT_DOWN: l->cursor++; break;
    case ACT_UP: l->cursor = l->cursor ? l->cursor - 1 : 0; break;
    case ACT_HALF_DOWN: l->cursor += half; l->top += half; break;
    case ACT_HALF_UP:
        l->cursor = l->cursor > half ? l->cursor - half : 0;
        l->top = l->top > half ? l->top - half : 0;
        break;
    case ACT_PAGE_DOWN: l->cursor += h; l->top += h; break;
    case ACT_PAGE_UP:
        l->cursor = l->cursor > h ? l->cursor - h : 0;
        l->top = l->top > h ? l->top - h : 0;
        break;
    case ACT_TOP: l->cursor = 0; break;
    case ACT_BOTTOM: l->cursor = rows ? rows - 1 : 0; break;
    default: break;
    }
    if (rows && l->cursor >= rows)
        l->cursor = rows - 1;
    if (rows > h && l->top > rows - h)
        l->top = rows - h;
    list_scroll_into_view(l, rows);
}

static void export_prompt(struct ui *ui)
{
    if (!ui_cmdline_open(ui, ":", "export "))
        ui_message(ui, "type :export DIR");
}

/* P: pin what is selected: the graph's node when the graph (or the detail
 * pane showing its node) is focused, else the selected k-path. */
static void pin_selection(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    struct strbuf text = STRBUF_INIT;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    if (ui->focus == PANE_GRAPH || (ui->focus == PANE_DETAIL && ui->detail_of == PANE_GRAPH)) {
        uint32_t n = graph_selected_node(ui);
        if (n != NODE_NONE)
            graph_node_name(ws->graph, n, &text);
    } else if (kpaths_selected(ui, path, NULL)) {
        workspace_path_name(ws, path, ws->k, " ", &text);
    }
    free(path);
    if (text.len) {
        struct strbuf cmd = STRBUF_INIT;
        strbuf_addf(&cmd, "pin %s", strbuf_str(&text));
        ui_command(ui, strbuf_str(&cmd));
        strbuf_free(&cmd);
    } else {
        ui_error(ui, "nothing selected to pin");
    }
    strbuf_free(&text);
}

static void global_action(struct ui *ui, enum action a, int key)
{
    struct workspace *ws = ui->ws;
    switch (a) {
    case ACT_HELP: ui_overlay(ui, OVERLAY_HELP); break;
    case ACT_QUIT: ui_request_quit(ui, false); break;
    case ACT_INTERRUPT: ui_request_quit(ui, false); break;
    case ACT_COMMAND:
    case ACT_SEARCH:
        if (!ui_cmdline_open(ui, a == ACT_COMMAND ? ":" : "/", ""))
            ui_error(ui, "the command line needs a terminal; scripts use :COMMAND and /TEXT lines");
        break;
    case ACT_SEARCH_NEXT: ui_search(ui, "", ui->search_backward); break;
    /* N goes against the search's direction without changing it (vim, less) */
    case ACT_SEARCH_PREV: ui_search(ui, "", !ui->search_backward); break;
    case ACT_NEXT_PANE:
    case ACT_PREV_PANE: {
        /* every pane in turn, also those the layout does not show now:
         * focusing a pane puts it on screen (ui_focus) */
        int step = a == ACT_NEXT_PANE ? 1 : NPANES - 1;
        ui_focus(ui, (enum pane_id)(((int)ui->focus + step) % NPANES));
        break;
    }
    case ACT_PANE1: case ACT_PANE2: case ACT_PANE3:
    case ACT_PANE4: case ACT_PANE5: case ACT_PANE6:
        ui_focus(ui, (enum pane_id)(a - ACT_PANE1));
        break;
    case ACT_ZOOM: ui->zoom = !ui->zoom; break;
    case ACT_K_MORE:
    case ACT_K_LESS: {
        char cmd[32];
        uint32_t k = a == ACT_K_MORE ? ws->k + 1 : ws->k - 1;
        if (k < 1) {
            ui_error(ui, "k is at least 1");
            break;
        }
        snprintf(cmd, sizeof cmd, "k %u", k);
        ui_command(ui, cmd);
        break;
    }
    case ACT_STEP:
        /* the stepper shows what the step did: on screen and focused at
         * every size, so the keys that follow go where the eyes are */
        ui_focus(ui, PANE_STEPPER);
        if (!workspace_gen_step(ws) && ws->gen_error)
            ui_error(ui, "%s", ws->gen_error);
        else if (ws->gen && ws->gen->phase == GEN_PHASE_DONE)
            ui_message(ui, "generation is over: R resets, r runs again");
        break;
    case ACT_FINISH_TREE: {
        ui_focus(ui, PANE_STEPPER);
        bool more = true;
        do
            more = workspace_gen_step(ws);
        while (more && !(ws->gen->events & GEN_EVENT_TREE_FINISHED));
        if (!more && ws->gen_error)
            ui_error(ui, "%s", ws->gen_error);
        break;
    }
    case ACT_RUN: ui_focus(ui, PANE_STEPPER); ui_start_run(ui); break;
    case ACT_RESET: {
        size_t before = ws->ninputs;
        bool had = ws->gen != NULL;
        workspace_gen_reset(ws, true);
        ui_workspace_changed(ui);
        if (had)
            ui_message(ui, "generator reset; %zu input%s of its run removed", before - ws->ninputs,
                       before - ws->ninputs == 1 ? "" : "s");
        else
            ui_message(ui, "no generator to reset");
        break;
    }
    case ACT_EXPORT: export_prompt(ui); break;
    case ACT_COVER: {
        uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
        if (ui->focus != PANE_GRAPH && ui->focus != PANE_INPUTS &&
            !(ui->focus == PANE_DETAIL && ui->detail_of != PANE_KPATHS) &&
            kpaths_selected(ui, path, NULL))
            ui_cover_path(ui, path);
        else
            ui_error(ui, "C covers the k-path selected in pane 2 (k-paths) or shown in pane 6");
        free(path);
        break;
    }
    case ACT_PIN: pin_selection(ui); break;
    case ACT_MESSAGES: ui_overlay(ui, OVERLAY_MESSAGES); break;
    case ACT_GENERALIZE_VIEW: generalize_view_show(ui); break;
    case ACT_LESSON_NEXT:
    case ACT_LESSON_PREV:
        if (!ui->lesson) {
            ui_error(ui, "no lesson open: :lesson lists them, :lesson NAME opens one");
        } else if (a == ACT_LESSON_NEXT ? ui->lesson_step + 1 >= ui->lesson->nsteps
                                        : ui->lesson_step == 0) {
            ui_message(ui, "%s step of the lesson", a == ACT_LESSON_NEXT ? "the last" : "the first");
        } else {
            ui_lesson_goto(ui, a == ACT_LESSON_NEXT ? ui->lesson_step + 1 : ui->lesson_step - 1);
        }
        break;
    case ACT_CANCEL:
        free(ui->message);
        ui->message = NULL;
        ui->zoom = false;
        ui->search_highlight = false;
        break;
    case ACT_REDRAW: ui->redraw_all = true; break;
    default: {
        struct strbuf name = STRBUF_INIT;
        keys_name(key, &name);
        ui_error(ui, "%s does nothing here; ? lists the keys", strbuf_str(&name));
        strbuf_free(&name);
    }
    }
}

static void mouse_event(struct ui *ui)
{
    for (int p = 0; p < NPANES; p++) {
        struct rect r = ui->pane_rect[p];
        if (r.w == 0 || ui->mouse.x < r.x || ui->mouse.x >= r.x + r.w || ui->mouse.y < r.y ||
            ui->mouse.y >= r.y + r.h)
            continue;
        struct list_state *l = &ui->list[p];
        uint64_t rows = pane_ops[p]->rows(ui);
        if (ui->mouse.kind == MOUSE_WHEEL_UP || ui->mouse.kind == MOUSE_WHEEL_DOWN) {
            for (int i = 0; i < 3; i++)
                list_action(ui, (enum pane_id)p, ui->mouse.kind == MOUSE_WHEEL_UP ? ACT_UP : ACT_DOWN);
            return;
        }
        ui_focus(ui, (enum pane_id)p);
        int row = ui->mouse.y - l->first_y;
        if (row >= 0 && row < l->height && l->top + (uint64_t)row < rows) {
            l->cursor = l->top + (uint64_t)row;
            if (pane_ops[p]->clicked)
                pane_ops[p]->clicked(ui);
        }
        return;
    }
    if (ui->mouse.y == 0) {
        for (int p = 0; p < NPANES; p++)
            if (ui->mouse.x >= ui->tab_x[p] && ui->mouse.x < ui->tab_x[p + 1]) {
                ui_focus(ui, (enum pane_id)p);
                return;
            }
    }
}

static void overlay_key(struct ui *ui, int key)
{
    enum action a = keys_lookup(key, CTX_LIST, true);
    uint64_t h = ui->help_height > 0 ? (uint64_t)ui->help_height : 1;
    switch (a) {
    case ACT_DOWN: ui->help_top++; break;
    case ACT_UP: ui->help_top = ui->help_top ? ui->help_top - 1 : 0; break;
    case ACT_PAGE_DOWN: case ACT_HALF_DOWN: ui->help_top += h / 2; break;
    case ACT_PAGE_UP: case ACT_HALF_UP: ui->help_top = ui->help_top > h / 2 ? ui->help_top - h / 2 : 0; break;
    case ACT_TOP: ui->help_top = 0; break;
    case ACT_BOTTOM: ui->help_top = UINT64_MAX / 2; break;
    case ACT_SEARCH:
        if (!ui_cmdline_open(ui, "/", ""))
            ui_error(ui, "scripts search with /TEXT lines");
        break;
    case ACT_SEARCH_NEXT: ui_search(ui, "", ui->search_backward); break;
    case ACT_SEARCH_PREV: ui_search(ui, "", !ui->search_backward); break;
    case ACT_HELP: ui_overlay(ui, ui->overlay == OVERLAY_HELP ? OVERLAY_NONE : OVERLAY_HELP); break;
    case ACT_MESSAGES:
        ui_overlay(ui, ui->overlay == OVERLAY_MESSAGES ? OVERLAY_NONE : OVERLAY_MESSAGES);
        break;
    case ACT_GENERALIZE_VIEW:
        if (ui->overlay == OVERLAY_GENERALIZE)
            ui->overlay = OVERLAY_NONE;
        else
            generalize_view_show(ui);
        break;
    case ACT_CANCEL: case ACT_QUIT: case ACT_INTERRUPT: ui->overlay = OVERLAY_NONE; break;
    default: break;
    }
}

void ui_key(struct ui *ui, int key)
{
    if (key == K_RESIZE) {
        ui->redraw_all = true;
        return;
    }
    if (ui->question) {
        /* y and n answer; Ctrl-C after a question about quitting leaves at
         * once (twice in a row); Esc, Enter and Ctrl-C put the question away
         * unanswered; any other key does too and then does what it does, so
         * keys typed after the question are not lost. */
        char *q = ui->question;
        void (*yes)(struct ui *) = ui->on_yes, (*no)(struct ui *) = ui->on_no;
        ui->question = NULL;
        free(q);
        if (key == 'y' || key == 'Y' || (key == 3 && yes == ui_quit_yes)) {
            if (yes)
                yes(ui);
            return;
        }
        if (key == 'n' || key == 'N') {
            if (no)
                no(ui);
            else
                ui_message(ui, "cancelled");
            return;
        }
        ui_message(ui, "cancelled");
        if (key == K_ESC || key == K_ENTER || key == 3 || key == K_RESIZE)
            return;
    }
    if (ui->job == JOB_RESTORE) {
        /* q or Ctrl-C: out, with the autosave left as it was (a clean quit
         * would remove it, and the session was never restored).  Any other
         * key would land on a half-restored session: it does nothing, and
         * the restore's line counts it, between two of its slices. */
        if (key == 'q' || key == 3) {
            ui_job_stop(ui, NULL);
            ui->keep_autosave = true;
            ui->quit = true;
            return;
        }
        ui->restore_keys_ignored++;
        return;
    }
    /* A message is about what the last key did: the next key takes it
     * away, so no stale line stays (the log keeps it: M). */
    if (key != K_MOUSE) {
        free(ui->message);
        ui->message = NULL;
        ui->message_more = false;
    }
    if (ui->job == JOB_WHY) {
        ui->job = JOB_NONE; /* not worth waiting for: the selection moves on */
    } else if (ui->job) {
        ui_job_stop(ui, NULL);
        return;
    }
    if (ui->overlay) {
        overlay_key(ui, key);
        return;
    }
    if (key == K_MOUSE) {
        mouse_event(ui);
        return;
    }
    if (ui->scr.w < UI_MIN_W || ui->scr.h < UI_MIN_H) {
        if (key == 'q' || key == 3)
            ui_request_quit(ui, false);
        return;
    }
    enum pane_id p = ui->focus;
    const struct pane_ops *ops = pane_ops[p];
    enum action a = keys_lookup(key, ops->context, true);
    if (a == ACT_NONE) {
        global_action(ui, ACT_NONE, key);
        return;
    }
    for (size_t i = 0; i < key_table_len; i++) {
        if (key_table[i].action != a)
            continue;
        enum key_context c = key_table[i].context;
        if (c == CTX_GLOBAL)
            global_action(ui, a, key);
        else if (c == CTX_LIST)
            list_action(ui, p, a);
        else if (!ops->action || !ui_request(ui, ops->action(ui, a)))
            global_action(ui, ACT_NONE, key);
        break;
    }
}

void ui_cover_path(struct ui *ui, const uint32_t *path)
{
    struct workspace *ws = ui->ws;
    struct diag_list d = DIAG_LIST_INIT;
    if (!workspace_cover_path(ws, path, &d)) {
        ui_diags(ui, &d);
        return;
    }
    diag_list_free(&d);
    const struct ws_input *in = &ws->inputs[ws->ninputs - 1];
    struct strbuf t = STRBUF_INIT;
    escape_text(in->text, in->len, 60, &t);
    ui_message(ui, "input %zu covers it: %s (%" PRIu64 " new k-path%s)", ws->ninputs,
               strbuf_str(&t), in->nnew, in->nnew == 1 ? "" : "s");
    strbuf_free(&t);
    ui->list[PANE_INPUTS].cursor = ws->ninputs - 1;
}

/* ---- the front ends' requests -------------------------------------------------------- */

bool ui_cmdline_open(struct ui *ui, const char *prompt, const char *initial)
{
    if (ui->script_mode || !ui->front_cmdline)
        return false;
    free(ui->cmdline_want_prompt);
    free(ui->cmdline_want_text);
    ui->cmdline_want_prompt = xstrdup(prompt);
    ui->cmdline_want_text = xstrdup(initial ? initial : "");
    return true;
}

void ui_narrow(struct ui *ui, const char *text)
{
    ui_request(ui, kpaths_narrow(ui, text));
}

/* ---- one line as a script (or a lesson) gives it ------------------------------------ */

static void finish_jobs(struct ui *ui)
{
    while (ui->job)
        ui_job_slice(ui, 1.0);
}

static bool mouse_token(struct ui *ui, const char *tok, size_t len)
{
    char buf[64];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char name[16];
    int x, y;
    char close;
    if (sscanf(buf, "<%15s %d %d%c", name, &x, &y, &close) != 4 || close != '>')
        return false;
    if (strcmp(name, "Click") == 0)
        ui->mouse.kind = MOUSE_CLICK;
    else if (strcmp(name, "WheelUp") == 0)
        ui->mouse.kind = MOUSE_WHEEL_UP;
    else if (strcmp(name, "WheelDown") == 0)
        ui->mouse.kind = MOUSE_WHEEL_DOWN;
    else
        return false;
    ui->mouse.x = x;
    ui->mouse.y = y;
    return true;
}

bool ui_script_line(struct ui *ui, const char *line, const char *where)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == '#')
        return true;
    finish_jobs(ui);
    if (*p == ':' && p[1]) {
        ui_command(ui, p + 1);
    } else if (*p == '/' && p[1]) {
        ui_search(ui, p + 1, false);
    } else {
        /* keys, blank-separated; <...> may hold blanks (mouse) */
        while (*p) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            const char *end = p + 1;
            if (*p == '<' && strchr(p, '>'))
                end = strchr(p, '>') + 1;
            else
                while (*end && ((unsigned char)*end & 0xc0) == 0x80)
                    end++;
            int key;
            if (mouse_token(ui, p, (size_t)(end - p))) {
                ui_draw(ui); /* clicks land where the last frame put things */
                ui_key(ui, K_MOUSE);
            } else if (keys_parse(p, (size_t)(end - p), &key)) {
                ui_key(ui, key);
            } else {
                if (ui->script_mode) {
                    fprintf(stderr, "%s: not a key: '%.*s'\n", where, (int)(end - p), p);
                } else { /* the terminal belongs to curses: say it in the log */
                    struct strbuf sb = STRBUF_INIT;
                    strbuf_addf(&sb, "%s: not a key: '%.*s'", where, (int)(end - p), p);
                    ui_log(ui, true, strbuf_str(&sb));
                    strbuf_free(&sb);
                }
                return false;
            }
            finish_jobs(ui);
            ui_draw(ui);
            p = end;
        }
    }
    finish_jobs(ui);
    ui_draw(ui);
    return true;
}

/* ---- what the panes ask for ------------------------------------------------------------- */

/* A pane's action that only the app can carry out (REQ_ACTION). */
static void pane_action(struct ui *ui, enum action a)
{
    if (a == ACT_TARGET)
        features_target(ui);
}

bool ui_request(struct ui *ui, struct pane_request r)
{
    if (r.changed)
        ui_workspace_changed(ui);
    for (size_t i = 0; i < r.nlog; i++)
        ui_log(ui, r.log[i].error, r.log[i].text);
    switch (r.kind) {
    case REQ_NOT_MINE: pane_request_free(&r); return false;
    case REQ_DONE: break;
    case REQ_MESSAGE: ui_message(ui, "%s", r.text); break;
    case REQ_ERROR: ui_error(ui, "%s", r.text); break;
    case REQ_FOCUS:
        ui_focus(ui, (enum pane_id)r.pane);
        if (r.text)
            ui_message(ui, "%s", r.text);
        break;
    case REQ_CMDLINE:
        if (!ui_cmdline_open(ui, ":", r.text))
            ui_message(ui, "%s", r.fallback);
        break;
    case REQ_COMMAND: ui_command(ui, r.text); break;
    case REQ_ACTION: pane_action(ui, r.action); break;
    case REQ_SELECT_PATH:
        graph_reveal(ui, r.path[r.npath - 1]);
        ui_message(ui, "%s", kpaths_select_path(ui, r.path, r.npath) ? r.text : r.fallback);
        break;
    }
    pane_request_free(&r);
    return true;
}

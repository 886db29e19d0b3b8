/* draw: the explorer's frame drawn into ui->scr (ui_draw, draw.h): the tab
 * bar, the panes where the layout puts them, the open overlay (overlays.h),
 * the lesson's caption (lessons.h), the footer of keys, the status bar and
 * the message line.  Below the commands, which draw a frame for :dump and
 * :svg, and the key dispatch, which reads where the last frame put things
 * (clicks); it reads struct ui and changes only what drawing records (the
 * pane rectangles, the tab positions, the overlay's height, the cursor).
 * No curses here. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "draw.h"
#include "job.h"
#include "lessons.h"
#include "overlays.h"
#include "session.h"

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

/* The bytes of text (len bytes) that fit in `width` columns, cut after
 * the last space that fits when there is one. */
static size_t wrap_at(const char *t, size_t len, int width)
{
    size_t i = 0, after_space = 0;
    for (int cols = 0; i < len && cols < width; cols++) {
        if (t[i] == ' ')
            after_space = i + 1;
        i++;
        while (i < len && (t[i] & 0xc0) == 0x80)
            i++;
    }
    return i >= len ? len : after_space ? after_space : i;
}

/* A message or question on the bottom line, and on the row above it (over
 * the status bar, until it is answered or the next key) when one row is too
 * short, so that no question is cut and a message keeps its end.
 * `tail` ends the last row and is never cut: always when `always` (a
 * question's "(y/n)", a message with more in the log), and when the text
 * does not fit even two rows (then cut with an ellipsis, the log has all of
 * it). */
static void message_rows(struct screen *s, int y, const char *text, size_t len, int style,
                         const char *tail, int tail_style, bool always)
{
    int w = s->w, cols = text_columns(text, len);
    int tw = tail ? text_columns(tail, strlen(tail)) : 0;
    const char *last = text; /* what the bottom row shows */
    size_t last_len = len;
    if (cols > w - (always ? tw : 0) && y > 0 && w > 2 * tw) {
        size_t first = wrap_at(text, len, w), keep = first;
        while (keep && text[keep - 1] == ' ')
            keep--;
        screen_fill(s, 0, y - 1, w, ' ', EL_MESSAGE);
        screen_put(s, 0, y - 1, w, text, keep, style);
        last = text + first;
        last_len = len - first;
        while (last_len && *last == ' ')
            last++, last_len--;
    }
    bool show_tail = tail && (always || text_columns(last, last_len) > w);
    int used = screen_put_fit(s, 0, y, show_tail ? w - tw : w, last, last_len, style);
    if (show_tail)
        screen_puts(s, used, y, w - used, tail, tail_style);
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
        bool ends_yn = len > ynl && strcmp(q + len - ynl, yn) == 0;
        message_rows(s, y, q, ends_yn ? len - ynl : len, EL_HELP_KEY, ends_yn ? yn : NULL,
                     EL_HELP_KEY, ends_yn);
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
        /* a message longer than one row wraps into the row above; one
         * longer than the two rows, or with more in the log, ends in a
         * pointer to the log, where all of it can be read */
        message_rows(s, y, ui->message, strlen(ui->message),
                     ui->message_error ? EL_ERROR : EL_MESSAGE, " (M: all of it)", EL_DIM,
                     ui->message_more);
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
/* The global keys a pane's footer names right after its own, before the
 * rest (/ search, s step, r run): what is done to its selection there. */
static const struct {
    enum action action;
    const char *word;
} footer_first[NCONTEXTS][5] = {
    [CTX_GRAPH] = {{ACT_COVER, "cover"}, {ACT_PIN, "pin"}, {ACT_DUP, "dup"}},
    [CTX_KPATHS] = {{ACT_COVER, "cover"}, {ACT_PIN, "pin"}},
    [CTX_DETAIL] = {{ACT_COVER, "cover"}, {ACT_PIN, "pin"}},
    [CTX_STEPPER] = {{ACT_STEP, "step"}, {ACT_STEP_BACK, "back"}, {ACT_FINISH_TREE, "finish"},
                     {ACT_RUN, "run"}, {ACT_RESET, "reset"}},
    [CTX_INPUTS] = {{ACT_EXPORT, "export"}},
};

static void draw_footer(struct ui *ui, int y)
{
    struct screen *s = &ui->scr;
    screen_fill(s, 0, y, s->w, ' ', EL_NORMAL);
    int x = 0;
    const struct overlay_ops *ov = overlay_current(ui);
    const struct footer_key *own = ov ? ov->footer : NULL;
    bool then_global = !own;
    if (!own) {
        const struct view_keys *view = ui_focused_keys(ui);
        own = view ? view->keys : NULL;
    }
    if (own) {
        for (const struct footer_key *f = own; f->action != ACT_NONE; f++)
            if (*f->word && !footer_key(s, &x, y, keys_binding(f->action)->keys, f->word))
                return;
    } else {
        for (size_t i = 0; i < key_table_len; i++) {
            const struct key_binding *b = &key_table[i];
            if (b->context == pane_ops[ui->focus]->context && *b->footer &&
                !footer_key(s, &x, y, b->keys, b->footer))
                return;
        }
    }
    if (!then_global)
        return;
    enum key_context ctx = pane_ops[ui->focus]->context;
    int nfirst = 0;
    while (nfirst < 5 && footer_first[ctx][nfirst].word)
        nfirst++;
    for (int i = 0; i < nfirst; i++)
        if (!footer_key(s, &x, y, keys_binding(footer_first[ctx][i].action)->keys,
                        footer_first[ctx][i].word))
            return;
    for (size_t i = 0; i < key_table_len; i++) {
        const struct key_binding *b = &key_table[i];
        bool shown = false;
        for (int f = 0; f < nfirst; f++)
            shown |= footer_first[ctx][f].action == b->action;
        if (b->context == CTX_GLOBAL && *b->footer && !shown && !footer_key(s, &x, y, b->keys, b->footer))
            return;
    }
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
    int caption = ui->lesson ? lessons_caption_height(ui) : 0;
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
        overlay_draw(ui, body);
    if (caption)
        lessons_draw_caption(ui, s->h - 2 - footer - caption, caption);
    if (footer)
        draw_footer(ui, s->h - 3);
    draw_status(ui, s->h - 2);
    draw_bottom_line(ui, s->h - 1);
}

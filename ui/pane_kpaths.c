/* pane_kpaths: the k-paths of the current k, filtered (uncovered, covered,
 * all), each row unranked on the fly: drawing costs the visible rows only,
 * whatever the number of k-paths. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "graph/pattern.h"
#include "ui.h"
#include "base/xalloc.h"

/* ---- narrowing: the list as you type (nnn, lazygit) ----
 * The narrowed list is the positions, in the filter's list, of the k-paths
 * whose names contain the text; it is made again when the list changes
 * (workspace, k, filter), from the top, at most UI_SEARCH_MATCHES_MAX
 * k-paths (longer lists are searched with / instead). */

static void narrow_key(struct ui *ui, uint64_t key[6])
{
    key[0] = (uint64_t)(uintptr_t)ui->ws;
    key[1] = ui->ws->changes;
    key[2] = ui->ws->k;
    key[3] = ui->filter;
    key[4] = ui->ws->pins.len;
    key[5] = ui->show_skip;
}

/* The k-paths through _skip are left out (see ui.h); false when there are
 * none, they are shown, or the list is too long to leave them out of. */
static bool skip_hiding(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    if (ui->skip_graph != ws->graph) {
        skip_paths_free(&ui->skip);
        skip_paths_init(&ui->skip, ws->graph);
        ui->skip_graph = ws->graph;
    }
    return !ui->show_skip && ui->skip.nhidden &&
           workspace_count(ws, ui->filter) <= UI_SEARCH_MATCHES_MAX;
}

static bool kpath_name_matches(struct ui *ui, uint32_t *path, const char *text, struct strbuf *tmp)
{
    struct workspace *ws = ui->ws;
    strbuf_reset(tmp);
    workspace_path_name(ws, path, ws->k, " -> ", tmp);
    if (text_contains_nocase(strbuf_str(tmp), text))
        return true;
    strbuf_reset(tmp);
    workspace_path_name(ws, path, ws->k, " \xe2\x86\x92 ", tmp);
    return text_contains_nocase(strbuf_str(tmp), text);
}

/* Make the narrowed list current; false when there is no narrowing. */
static bool narrow_current(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    if (!workspace_listable(ws))
        return false;
    bool hiding = skip_hiding(ui);
    if (!ui->narrow && !hiding) {
        ui->skip_hidden = 0;
        ui->narrow_valid = false; /* the count above is gone with it */
        return false;
    }
    uint64_t key[6];
    narrow_key(ui, key);
    if (ui->narrow_valid && memcmp(key, ui->narrow_key, sizeof key) == 0)
        return true;
    uint64_t n = workspace_count(ws, ui->filter);
    if (n > UI_SEARCH_MATCHES_MAX)
        n = UI_SEARCH_MATCHES_MAX;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    struct strbuf tmp = STRBUF_INIT;
    ui->nnarrow = 0;
    ui->skip_hidden = 0;
    for (uint64_t i = 0; i < n; i++) {
        kpath_unrank(&ws->space, workspace_nth(ws, ui->filter, i), path);
        if (hiding && skip_paths_hides(&ui->skip, path, ws->k)) {
            ui->skip_hidden++;
            continue;
        }
        if (ui->narrow && !kpath_name_matches(ui, path, ui->narrow, &tmp))
            continue;
        ui->narrow_pos = xgrow(ui->narrow_pos, &ui->narrow_cap, ui->nnarrow + 1, sizeof *ui->narrow_pos);
        ui->narrow_pos[ui->nnarrow++] = i;
    }
    strbuf_free(&tmp);
    free(path);
    memcpy(ui->narrow_key, key, sizeof key);
    ui->narrow_valid = true;
    return true;
}

uint64_t kpaths_count(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    if (!workspace_listable(ws))
        return 0;
    return narrow_current(ui) ? ui->nnarrow : workspace_count(ws, ui->filter);
}

uint64_t kpaths_rank(struct ui *ui, uint64_t row)
{
    if (narrow_current(ui))
        row = ui->narrow_pos[row];
    return workspace_nth(ui->ws, ui->filter, row);
}

uint64_t kpaths_row_from(struct ui *ui, uint64_t rank)
{
    uint64_t pos = workspace_position_from(ui->ws, ui->filter, rank);
    if (!narrow_current(ui))
        return pos;
    size_t lo = 0, hi = ui->nnarrow;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ui->narrow_pos[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool kpaths_selected(struct ui *ui, uint32_t *path, uint64_t *rank)
{
    struct workspace *ws = ui->ws;
    if (!workspace_listable(ws))
        return false;
    uint64_t rows = kpaths_count(ui);
    struct list_state *l = &ui->list[PANE_KPATHS];
    list_clamp(l, rows);
    if (rows == 0)
        return false;
    uint64_t r = kpaths_rank(ui, l->cursor);
    kpath_unrank(&ws->space, r, path);
    if (rank)
        *rank = r;
    return true;
}

bool kpaths_select_path(struct ui *ui, const uint32_t *path, uint32_t n)
{
    struct workspace *ws = ui->ws;
    uint64_t rank;
    if (n != ws->k || !workspace_listable(ws) || !kpath_rank(&ws->space, path, &rank))
        return false;
    if (workspace_position(ws, ui->filter, rank) == UINT64_MAX) {
        ui->filter = WS_ALL;
        kpaths_narrow(ui, NULL);
    }
    uint64_t pos = kpaths_row_from(ui, rank);
    if (pos < kpaths_count(ui) && kpaths_rank(ui, pos) == rank) {
        ui->list[PANE_KPATHS].cursor = pos;
        list_scroll_into_view(&ui->list[PANE_KPATHS], kpaths_count(ui));
    }
    return true;
}

struct pane_request kpaths_narrow(struct ui *ui, const char *text)
{
    struct workspace *ws = ui->ws;
    uint64_t rank = 0;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    bool had = kpaths_selected(ui, path, &rank);
    free(path);
    free(ui->narrow);
    ui->narrow = NULL;
    ui->narrow_valid = false;
    if (text && *text) {
        if (!workspace_listable(ws) || workspace_count(ws, ui->filter) > UI_SEARCH_MATCHES_MAX) {
            return req_error("too many k-paths to narrow as you type: / searches them");
        }
        ui->narrow = xstrdup(text);
    }
    /* keep the selected k-path, or the one after it, selected */
    struct list_state *l = &ui->list[PANE_KPATHS];
    l->cursor = had ? kpaths_row_from(ui, rank) : 0;
    list_clamp(l, kpaths_count(ui));
    return REQ_HANDLED;
}

static uint64_t kpaths_rows(struct ui *ui)
{
    return kpaths_count(ui);
}

static void kpaths_summary(struct ui *ui, struct strbuf *out)
{
    struct workspace *ws = ui->ws;
    strbuf_addf(out, "k=%u %s", ws->k, ws_filter_name(ui->filter));
    if (ui->narrow)
        strbuf_addf(out, " containing \"%s\"", ui->narrow);
}

/* Draw one path; returns the columns used. */
static int draw_path(struct ui *ui, int x, int y, int maxw, const uint32_t *path, uint32_t k,
                     struct strbuf *tmp)
{
    const struct graph *g = ui->ws->graph;
    const char *arrow = glyph(ui->ascii, " \xe2\x86\x92 ", " -> ");
    int used = 0;
    for (uint32_t i = 0; i < k && used < maxw; i++) {
        if (i)
            used += screen_puts(&ui->scr, x + used, y, maxw - used, arrow, EL_DIM);
        strbuf_reset(tmp);
        graph_node_name(g, path[i], tmp);
        used += screen_puts(&ui->scr, x + used, y, maxw - used, strbuf_str(tmp),
                            node_highlighted(ui, path[i]) ? EL_SEARCH : EL_NORMAL);
    }
    return used;
}

static void kpaths_draw(struct ui *ui, struct rect r, bool focused)
{
    struct workspace *ws = ui->ws;
    struct screen *s = &ui->scr;
    struct strbuf tmp = STRBUF_INIT;
    /* header: the coverage */
    if (ws->space.saturated) {
        strbuf_addf(&tmp, "more than 2^64 %u-paths; %" PRIu64 " covered: too many to list",
                    ws->k, ws->covered.size);
        screen_puts(s, r.x, r.y, r.w, strbuf_str(&tmp), EL_HEADER);
        strbuf_free(&tmp);
        ui->list[PANE_KPATHS].height = 0;
        return;
    }
    uint64_t rows = kpaths_count(ui);
    uint64_t all = workspace_count(ws, WS_ALL);
    strbuf_addf(&tmp, "covered %" PRIu64 "/%" PRIu64 " (", ws->covered.size, all);
    number_add_percent(&tmp, ws->covered.size, all);
    strbuf_addf(&tmp, "%%)  %s: %" PRIu64, ws_filter_name(ui->filter), rows);
    if (ui->narrow)
        strbuf_addf(&tmp, " containing \"%s\"", ui->narrow);
    if (ws->pins.len)
        strbuf_addf(&tmp, "  (under the pins; %" PRIu64 " in all)", ws->space.total);
    if (ui->skip_hidden)
        strbuf_addf(&tmp, "  (%" PRIu64 " through _skip hidden: _ shows)", ui->skip_hidden);
    screen_puts(s, r.x, r.y, r.w, strbuf_str(&tmp), EL_HEADER);
    struct list_state *l = &ui->list[PANE_KPATHS];
    l->height = r.h - 1;
    l->first_y = r.y + 1;
    list_scroll_into_view(l, rows);
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    struct strbuf pat = STRBUF_INIT;
    for (int y = 0; y < l->height && l->top + (uint64_t)y < rows; y++) {
        uint64_t i = l->top + (uint64_t)y;
        uint64_t rank = kpaths_rank(ui, i);
        kpath_unrank(&ws->space, rank, path);
        bool covered = ui->filter == WS_COVERED ||
                       (ui->filter == WS_ALL && workspace_rank_covered(ws, rank));
        int yy = r.y + 1 + y;
        int style = covered ? EL_COVERED : EL_UNCOVERED;
        screen_puts(s, r.x, yy, 2, coverage_mark(ui->ascii, style), style);
        int used = 2 + draw_path(ui, r.x + 2, yy, r.w - 2, path, ws->k, &tmp);
        if (ui->show_patterns && used + 3 < r.w) {
            strbuf_reset(&pat);
            /* marked: the path's own nodes in brackets, so that two rows
             * never read alike (AddExpr_0 -> AddExpr_5, -> MultExpr_7) */
            struct pattern_options marked = {.mark = true, .hide_skip = !ui->show_skip};
            pattern_render(ws->graph, path, ws->k, &marked, &pat, NULL);
            int col = used + 2;
            screen_puts(s, r.x + col, yy, r.w - col, strbuf_str(&pat), EL_PATTERN);
        }
        if (i == l->cursor)
            draw_selected(&ui->scr, r, yy, focused);
    }
    if (rows == 0) {
        const char *msg = ui->narrow ? "no k-path here contains the text (F changes it)"
                          : ui->filter == WS_UNCOVERED ? "every k-path is covered"
                          : ui->filter == WS_COVERED ? "no k-path is covered yet: s steps, r runs"
                                                     : "no k-paths";
        screen_puts(s, r.x + 2, r.y + 1, r.w - 2, msg, EL_DIM);
    }
    free(path);
    strbuf_free(&pat);
    strbuf_free(&tmp);
}

/* Keep the selected k-path selected when the filter changes, if it is in the
 * new list. */
static struct pane_request set_filter(struct ui *ui, enum ws_filter f)
{
    struct workspace *ws = ui->ws;
    uint64_t rank = 0;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    bool had = kpaths_selected(ui, path, &rank);
    free(path);
    ui->filter = f;
    struct list_state *l = &ui->list[PANE_KPATHS];
    if (had)
        l->cursor = kpaths_row_from(ui, rank);
    list_scroll_into_view(l, kpaths_rows(ui));
    return req_message("showing %s k-paths", ws_filter_name(f));
}

static struct pane_request kpaths_action(struct ui *ui, enum action a)
{
    switch (a) {
    case ACT_FILTER:
        return set_filter(ui, ui->filter == WS_UNCOVERED ? WS_COVERED
                              : ui->filter == WS_COVERED ? WS_ALL
                                                         : WS_UNCOVERED);
    case ACT_FILTER_UNCOVERED: return set_filter(ui, WS_UNCOVERED);
    case ACT_FILTER_COVERED: return set_filter(ui, WS_COVERED);
    case ACT_FILTER_ALL: return set_filter(ui, WS_ALL);
    case ACT_PATTERNS:
        ui->show_patterns = !ui->show_patterns;
        return req_message("patterns %s", ui->show_patterns ? "shown" : "hidden");
    case ACT_SKIP_PATHS: {
        uint64_t rank = 0;
        uint32_t *path = xmalloc((ui->ws->k + 1) * sizeof *path);
        bool had = kpaths_selected(ui, path, &rank);
        bool was_hidden = had && ui->skip.nhidden && skip_paths_hides(&ui->skip, path, ui->ws->k);
        free(path);
        ui->show_skip = !ui->show_skip;
        struct list_state *l = &ui->list[PANE_KPATHS];
        if (had && !was_hidden)
            l->cursor = kpaths_row_from(ui, rank);
        list_scroll_into_view(l, kpaths_rows(ui));
        skip_hiding(ui);
        if (!ui->skip.nhidden)
            return req_message("no k-paths through _skip: the grammar has no _skip rule "
                               "(an ANTLR import adds one)");
        return req_message("k-paths through _skip %s", ui->show_skip ? "shown" : "hidden");
    }
    case ACT_NARROW: {
        struct strbuf init = STRBUF_INIT;
        strbuf_addf(&init, "narrow %s", ui->narrow ? ui->narrow : "");
        struct pane_request r = req_cmdline(strbuf_str(&init), "type :narrow TEXT");
        strbuf_free(&init);
        return r;
    }
    case ACT_KPATH_OPEN: ui->detail_of = PANE_KPATHS; return req_focus(PANE_DETAIL);
    default: return REQ_NONE_OF_MINE;
    }
}

static void kpaths_clicked(struct ui *ui)
{
    ui->detail_of = PANE_KPATHS;
}

static void kpaths_row_text(struct ui *ui, uint64_t row, struct strbuf *out)
{
    struct workspace *ws = ui->ws;
    uint32_t *path = xmalloc((ws->k + 1) * sizeof *path);
    kpath_unrank(&ws->space, kpaths_rank(ui, row), path);
    workspace_path_name(ws, path, ws->k, " -> ", out);
    free(path);
}

const struct pane_ops kpaths_pane_ops = {
    "k-paths", CTX_KPATHS, kpaths_rows, kpaths_draw, kpaths_action, kpaths_clicked,
    kpaths_row_text, kpaths_summary, NULL,
};

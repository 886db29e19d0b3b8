/* search: / in the focused list (or the k-paths), as a job a key stops,
 * or in the open overlay (overlays.h); n and N repeat it (search.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "messages.h"
#include "overlays.h"
#include "search.h"
#include "base/xalloc.h"

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

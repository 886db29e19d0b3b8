/* pane_inputs: generated inputs and loaded samples, one per line with size
 * and the k-paths each added, marks for export, and the selected input's
 * derivation tree below the list.  Three other views: the coverage growth
 * plot (v, plot.c), the runs of :run (b, runs.c) and the behaviour features
 * learned from them (w, features.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workspace/reduce_marks.h"
#include "ui.h"
#include "base/utf8.h"
#include "base/xalloc.h"

static uint64_t list_rows(struct ui *ui)
{
    return ui->ws->ninputs;
}

static void plot_summary(struct ui *ui, struct strbuf *out)
{
    strbuf_addf(out, "coverage growth, k=1..%u", ui->ws->k);
}

static void list_summary(struct ui *ui, struct strbuf *out)
{
    struct workspace *ws = ui->ws;
    size_t samples = 0;
    for (size_t i = 0; i < ws->ninputs; i++)
        samples += ws->inputs[i].sample != NULL;
    strbuf_addf(out, "%zu generated, %zu sample%s, %zu marked", ws->ninputs - samples, samples,
                samples == 1 ? "" : "s", workspace_marked(ws));
}

/* The growth curve of the inputs at k = 1 .. the current k, computed again
 * only when the workspace changed. */
static const struct coverage_growth *current_growth(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    uint64_t key[4] = {(uint64_t)(uintptr_t)ws, ws->changes, ws->ninputs, ws->k};
    if (ui->growth_valid && memcmp(key, ui->growth_key, sizeof key) == 0)
        return &ui->growth;
    if (ui->growth_valid)
        growth_free(&ui->growth);
    growth_compute(ws, ws->k, &ui->growth);
    memcpy(ui->growth_key, key, sizeof key);
    ui->growth_valid = true;
    return &ui->growth;
}

static void plot_draw(struct ui *ui, struct rect r, bool focused)
{
    (void)focused;
    struct workspace *ws = ui->ws;
    struct list_state *pl = &ui->list[PANE_INPUTS];
    list_clamp(pl, ws->ninputs);
    pl->height = 0;
    if (ws->ninputs == 0)
        screen_puts(&ui->scr, r.x + 1, r.y + 1, r.w - 1,
                    "no inputs yet: the curve starts with the first (s/r generate)", EL_DIM);
    else
        plot_growth(&ui->scr, r, current_growth(ui), (size_t)pl->cursor + 1);
}

/* ---- where the selected k-path occurs ---------------------------------------
 * The k-path selected in pane 2, found in the input under the cursor: its
 * first occurrence (k symbolic instances, each the nearest symbolic
 * ancestor of the next, as derivation_foreach_kpath reads them), and the
 * bytes of the text the top one's subtree produces. */
struct occurrence {
    bool *hl;           /* owned; per instance: on the occurrence (NULL: none) */
    uint32_t top;       /* its first instance */
    size_t from, to;    /* the bytes of the input its first instance produced */
};

static uint32_t symbolic_up(const struct derivation *t, uint32_t i)
{
    const struct graph *g = t->graph;
    for (uint32_t p = t->insts[i].parent; p != DTREE_NONE; p = t->insts[p].parent)
        if (node_kind_is_symbolic(g->nodes[t->insts[p].node].kind))
            return p;
    return DTREE_NONE;
}

/* The text offsets of instance top's subtree: a pre-order walk, counting
 * the bytes of the leaves before it and inside it. */
static void occurrence_span(const struct derivation *t, struct occurrence *o)
{
    const struct graph *g = t->graph;
    uint32_t *stack = xmalloc(sizeof *stack), *depth = xmalloc(sizeof *depth);
    size_t len = 1, cap = 1, dcap = 1, at = 0;
    uint32_t top_depth = UINT32_MAX;
    stack[0] = 0;
    depth[0] = 0;
    bool inside = false;
    o->from = o->to = 0;
    while (len) {
        len--;
        uint32_t inst = stack[len], d = depth[len];
        const struct derivation_inst *in = &t->insts[inst];
        if (inside && d <= top_depth)
            break; /* left the subtree */
        if (inst == o->top) {
            inside = true;
            top_depth = d;
            o->from = at;
        }
        if (!in->open) {
            const struct graph_node *n = &g->nodes[in->node];
            if (n->kind == NODE_LIT)
                at += n->expr->u.lit.len;
            else if (n->kind == NODE_CLASS) {
                char buf[4];
                at += utf8_encode(in->ch, buf);
            }
        }
        if (inside)
            o->to = at;
        stack = xgrow(stack, &cap, len + in->nchildren, sizeof *stack);
        depth = xgrow(depth, &dcap, len + in->nchildren, sizeof *depth);
        for (uint32_t c = in->nchildren; c-- > 0;) {
            stack[len] = derivation_children(t, inst)[c];
            depth[len++] = d + 1;
        }
    }
    free(stack);
    free(depth);
}

static bool find_occurrence(struct ui *ui, const struct derivation *t, struct occurrence *o)
{
    struct workspace *ws = ui->ws;
    uint32_t k = ws->k;
    o->hl = NULL;
    if (!t->len || !k)
        return false;
    uint32_t *path = xmalloc((k + 1) * sizeof *path), *insts = xmalloc(k * sizeof *insts);
    bool found = false;
    if (kpaths_selected(ui, path, NULL)) {
        const struct graph *g = t->graph;
        for (size_t i = 0; i < t->len && !found; i++) {
            uint32_t at = (uint32_t)i, j = k;
            if (!node_kind_is_symbolic(g->nodes[t->insts[i].node].kind))
                continue;
            while (j > 0 && at != DTREE_NONE && t->insts[at].node == path[j - 1]) {
                insts[--j] = at;
                if (j)
                    at = symbolic_up(t, at);
            }
            found = j == 0;
        }
    }
    if (found) {
        o->hl = xcalloc(t->len, sizeof *o->hl);
        for (uint32_t j = 0; j < k; j++)
            o->hl[insts[j]] = true;
        o->top = insts[0];
        occurrence_span(t, o);
    }
    free(path);
    free(insts);
    return found;
}

static void list_draw(struct ui *ui, struct rect r, bool focused)
{
    struct workspace *ws = ui->ws;
    struct screen *s = &ui->scr;
    struct list_state *l = &ui->list[PANE_INPUTS];
    struct strbuf tmp = STRBUF_INIT;
    struct occurrence occ = {NULL, 0, 0, 0};
    if (ws->ninputs && l->cursor < ws->ninputs && ws->inputs[l->cursor].has_tree)
        find_occurrence(ui, &ws->inputs[l->cursor].tree, &occ);
    int list_h = ws->ninputs ? (r.h - 1) * 2 / 5 : r.h - 1;
    if (list_h < 2)
        list_h = r.h > 3 ? 2 : r.h - 1;
    screen_puts(s, r.x, r.y, r.w, "    #  kind   size   new  text", EL_DIM);
    l->height = list_h;
    l->first_y = r.y + 1;
    list_scroll_into_view(l, ws->ninputs);
    if (ws->ninputs == 0) {
        screen_puts(s, r.x + 1, r.y + 1, r.w - 1,
                    "no inputs yet: s/r generate, :samples FILE|DIR loads samples", EL_DIM);
    }
    for (int y = 0; y < list_h && l->top + (uint64_t)y < ws->ninputs; y++) {
        size_t i = (size_t)(l->top + (uint64_t)y);
        const struct ws_input *in = &ws->inputs[i];
        int yy = r.y + 1 + y;
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, "%s%4zu  %-6s %5zu %5" PRIu64 "  ",
                    in->marked ? glyph(ui->ascii, "\xe2\x97\x8f", "*") : " ", i + 1,
                    in->sample ? "sample" : "gen", in->len, in->nnew);
        int used = screen_puts(s, r.x, yy, r.w, strbuf_str(&tmp), in->sample ? EL_SAMPLE : EL_NORMAL);
        if (in->marked)
            screen_restyle(s, r.x, yy, 1, EL_MARKED, false);
        strbuf_reset(&tmp);
        escape_text(in->text, in->len, (size_t)r.w * 4, &tmp);
        screen_puts(s, r.x + used, yy, r.w - used, strbuf_str(&tmp), EL_NORMAL);
        if (i == l->cursor)
            draw_selected(&ui->scr, r, yy, focused);
        if (i == l->cursor && occ.hl) {
            /* the selected k-path's text, highlighted where it shows */
            strbuf_reset(&tmp);
            escape_text(in->text, occ.from, (size_t)r.w * 4, &tmp);
            int a = text_columns(strbuf_str(&tmp), tmp.len);
            strbuf_reset(&tmp);
            escape_text(in->text, occ.to, (size_t)r.w * 4, &tmp);
            int b = text_columns(strbuf_str(&tmp), tmp.len);
            if (b == a && b < r.w - used)
                b++; /* an empty text: the place between two characters */
            if (a < r.w - used)
                screen_restyle(s, r.x + used + a, yy, (b < r.w - used ? b : r.w - used) - a,
                               EL_REACHED, false);
        }
    }
    /* the preview */
    int py = r.y + 1 + list_h;
    if (ws->ninputs && py < r.y + r.h) {
        const struct ws_input *in = &ws->inputs[l->cursor];
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, " input %zu: depth %u", (size_t)l->cursor + 1, in->depth);
        if (occ.hl) /* before the sample's path, which may be long */
            strbuf_addf(&tmp, ", k-path at bytes %zu-%zu", occ.from + 1, occ.to);
        if (in->sample)
            strbuf_addf(&tmp, ", from %s", in->sample);
        if (in->ambiguous)
            strbuf_addstr(&tmp, ", ambiguous: its first tree");
        screen_fill(s, r.x, py, r.w, ui->ascii ? '-' : 0x2500, EL_BORDER);
        screen_puts(s, r.x + 1, py, r.w - 1, strbuf_str(&tmp), EL_DIM);
        py++;
        struct rect tr = {r.x, py, r.w, r.y + r.h - py};
        ui->preview_height = tr.h;
        if (tr.h > 0 && in->has_tree) {
            uint64_t hl_row = 0;
            uint64_t rows = draw_tree(ui, &in->tree, (struct rect){0, 0, 0, 0}, UINT64_MAX,
                                      DTREE_NONE, NULL, occ.hl, &hl_row);
            /* a newly found occurrence scrolls into view, once (J/K scroll on) */
            uint64_t sig = occ.hl ? (l->cursor + 1) * 1000003u ^ (uint64_t)occ.top << 32 ^ occ.from : 0;
            if (sig != ui->preview_hl_sig) {
                ui->preview_hl_sig = sig;
                if (occ.hl && (hl_row < ui->preview_top || hl_row >= ui->preview_top + (uint64_t)tr.h))
                    ui->preview_top = hl_row;
            }
            if (rows > (uint64_t)tr.h && ui->preview_top > rows - (uint64_t)tr.h)
                ui->preview_top = rows - (uint64_t)tr.h;
            if (rows <= (uint64_t)tr.h)
                ui->preview_top = 0;
            draw_tree(ui, &in->tree, tr, ui->preview_top, DTREE_NONE, NULL, occ.hl, NULL);
        } else if (tr.h > 0) {
            screen_puts(s, r.x + 1, tr.y, r.w - 1, "(no derivation tree: the forest is cyclic)", EL_DIM);
        }
    }
    free(occ.hl);
    strbuf_free(&tmp);
}

static struct pane_request inputs_action(struct ui *ui, enum action a)
{
    struct workspace *ws = ui->ws;
    struct list_state *l = &ui->list[PANE_INPUTS];
    if (a == ACT_INPUTS_FEATURES) {
        features_toggle(ui, ui->inputs_view != INPUTS_FEATURES);
        return req_message("%s", ui->inputs_view == INPUTS_FEATURES
                                     ? "behaviour features of the runs and their rules: Enter selects "
                                       "a rule's k-path, T generates and runs inputs, w shows the inputs"
                                     : "showing the inputs");
    }
    if (ui->inputs_view == INPUTS_FEATURES) {
        struct pane_request r = features_action(ui, a);
        if (r.kind != REQ_NOT_MINE)
            return r;
        if (a == ACT_INPUTS_PLOT || a == ACT_INPUTS_RUNS)
            features_toggle(ui, false); /* and on to that view */
    } else if (a == ACT_FEATURE_OPEN && ui->inputs_view == INPUTS_LIST) {
        /* an input opens in the detail pane: how it was made, its whole text
         * (its tree is the one under the list) */
        if (inputs_selected(ui) == SIZE_MAX)
            return req_error("no input selected");
        ui->detail_of = PANE_INPUTS;
        return req_focus(PANE_DETAIL);
    } else if (a == ACT_FEATURE_OPEN || a == ACT_TARGET) {
        return req_error("%s works in the behaviour features view (w)", a == ACT_TARGET ? "T" : "Enter");
    }
    if (a == ACT_INPUTS_RUNS) {
        runs_toggle(ui, ui->inputs_view != INPUTS_RUNS);
        return req_message("%s", ui->inputs_view == INPUTS_RUNS ? "the runs of :run, failures first: b shows the inputs"
                                                  : "showing the inputs");
    }
    if (ui->inputs_view == INPUTS_RUNS) {
        /* the rows are runs: m marks the selected run's input; the rest
         * of the keys work on the list of inputs */
        size_t in = inputs_selected(ui);
        if (a == ACT_MARK && in != SIZE_MAX) {
            ws->inputs[in].marked = !ws->inputs[in].marked;
            ui->marks_exported = false;
            uint64_t rows = runs_rows(ui);
            if (l->cursor + 1 < rows)
                l->cursor++;
            list_scroll_into_view(l, rows);
            return REQ_HANDLED;
        }
        if (a == ACT_MARK)
            return REQ_HANDLED;
        if (a == ACT_SHRINK) /* a job of the app's */
            return req_action(ACT_SHRINK);
        if (a == ACT_INPUTS_PLOT) {
            ui->runs_report_plot = !ui->runs_report_plot;
            return req_message("%s", ui->runs_report_plot ? "the report as a plot: v shows the table"
                                                           : "the report as a table: v shows the plot");
        } else if (a == ACT_DELETE_INPUT) {
            return req_error("inputs are removed in the list of inputs (b shows it)");
        } else if (a == ACT_PREVIEW_DOWN || a == ACT_PREVIEW_UP) {
            return REQ_HANDLED;
        }
    }
    list_clamp(l, ws->ninputs);
    switch (a) {
    case ACT_MARK:
        if (!ws->ninputs)
            return REQ_HANDLED;
        ws->inputs[l->cursor].marked = !ws->inputs[l->cursor].marked;
        ui->marks_exported = false;
        if (l->cursor + 1 < ws->ninputs)
            l->cursor++;
        list_scroll_into_view(l, ws->ninputs);
        return REQ_HANDLED;
    case ACT_MARK_ALL:
        for (size_t i = 0; i < ws->ninputs; i++)
            ws->inputs[i].marked = true;
        ui->marks_exported = false;
        return req_message("%zu input%s marked", ws->ninputs, ws->ninputs == 1 ? "" : "s");
    case ACT_MARK_INVERT:
        for (size_t i = 0; i < ws->ninputs; i++)
            ws->inputs[i].marked = !ws->inputs[i].marked;
        ui->marks_exported = false;
        return req_message("%zu input%s marked", workspace_marked(ws),
                           workspace_marked(ws) == 1 ? "" : "s");
    case ACT_MARK_REDUCED: {
        if (!ws->ninputs)
            return REQ_HANDLED;
        struct reduce_marks_report rep;
        reduce_marks(ws, ws->k, &rep);
        ui->marks_exported = false;
        struct strbuf msg = STRBUF_INIT;
        strbuf_addf(&msg, "marked %zu of %zu inputs that keep the coverage (%" PRIu64 " of %" PRIu64
                          " bytes, %s):", rep.marked, rep.inputs, rep.marked_bytes, rep.bytes,
                    rep.optimal ? "optimal" : "greedy");
        for (uint32_t j = 1; j <= rep.k; j++)
            strbuf_addf(&msg, " k=%u %" PRIu64, j, rep.covered[j]);
        if (rep.unparsed)
            strbuf_addf(&msg, "; %zu that do not parse left unmarked", rep.unparsed);
        reduce_marks_report_free(&rep);
        return (struct pane_request){.kind = REQ_MESSAGE, .text = strbuf_detach(&msg, NULL)};
    }
    case ACT_DELETE_INPUT: {
        if (!ws->ninputs)
            return REQ_HANDLED;
        bool *keep = xmalloc(ws->ninputs * sizeof *keep);
        for (size_t i = 0; i < ws->ninputs; i++)
            keep[i] = i != l->cursor;
        size_t removed = (size_t)l->cursor + 1;
        workspace_remove_inputs(ws, keep);
        free(keep);
        struct pane_request r = req_message("input %zu removed", removed);
        r.changed = true; /* the app rebuilds what it derived from the inputs first */
        return r;
    }
    case ACT_INPUTS_PLOT: /* from the list or the plot: the others left above */
        ui->inputs_view = ui->inputs_view == INPUTS_PLOT ? INPUTS_LIST : INPUTS_PLOT;
        return req_message("%s", ui->inputs_view == INPUTS_PLOT
                                     ? "coverage growth: j/k move along the inputs, v shows the list"
                                     : "showing the inputs");
    case ACT_PREVIEW_DOWN: ui->preview_top += 3; return REQ_HANDLED;
    case ACT_PREVIEW_UP: ui->preview_top = ui->preview_top > 3 ? ui->preview_top - 3 : 0; return REQ_HANDLED;
    default: return REQ_NONE_OF_MINE;
    }
}

/* The keys of each view of the pane, for the footer and help: the list
 * and the growth plot here (inputs_action), the runs (runs.c) and the
 * behaviour features (features.c). */
static const struct footer_key list_keys[] = {
    {ACT_FEATURE_OPEN, "open"}, {ACT_MARK, "mark"}, {ACT_MARK_ALL, "all"}, {ACT_DELETE_INPUT, "delete"},
    {ACT_INPUTS_PLOT, "plot"}, {ACT_INPUTS_RUNS, "runs"}, {ACT_INPUTS_FEATURES, "features"},
    {ACT_MARK_INVERT, ""}, {ACT_MARK_REDUCED, ""}, {ACT_PREVIEW_DOWN, ""}, {ACT_PREVIEW_UP, ""},
    {ACT_NONE, NULL},
};
static const struct footer_key plot_keys[] = {
    {ACT_DOWN, "move"}, {ACT_INPUTS_PLOT, "list"}, {ACT_MARK, "mark"}, {ACT_MARK_ALL, "all"},
    {ACT_DELETE_INPUT, "delete"}, {ACT_INPUTS_RUNS, "runs"}, {ACT_INPUTS_FEATURES, "features"},
    {ACT_MARK_INVERT, ""}, {ACT_MARK_REDUCED, ""}, {ACT_NONE, NULL},
};

static const struct view_keys *list_view_keys(struct ui *ui)
{
    (void)ui;
    static const struct view_keys list = {"5 Inputs: the list of inputs", list_keys};
    return &list;
}

static const struct view_keys *plot_view_keys(struct ui *ui)
{
    (void)ui;
    static const struct view_keys plot = {"5 Inputs: the coverage growth plot (v)", plot_keys};
    return &plot;
}

static const struct view_keys *features_keys(struct ui *ui)
{
    (void)ui;
    return &features_view_keys;
}

static void inputs_clicked(struct ui *ui)
{
    ui->preview_top = 0;
}

static void list_row_text(struct ui *ui, uint64_t row, struct strbuf *out)
{
    const struct ws_input *in = &ui->ws->inputs[row];
    strbuf_add(out, in->text, in->len);
}

/* What each view of the pane does for the pane's operations, so that the
 * pane asks the table rather than testing which view shows; the keys each
 * view takes stay in inputs_action, where they fall through from a view to
 * the list. */
static const struct inputs_view_ops {
    uint64_t (*rows)(struct ui *ui);
    void (*draw)(struct ui *ui, struct rect r, bool focused);
    void (*summary)(struct ui *ui, struct strbuf *out);
    void (*row_text)(struct ui *ui, uint64_t row, struct strbuf *out);
    const struct view_keys *(*keys)(struct ui *ui);
} views[NINPUTS_VIEWS] = {
    [INPUTS_LIST] = {list_rows, list_draw, list_summary, list_row_text, list_view_keys},
    [INPUTS_PLOT] = {list_rows, plot_draw, plot_summary, list_row_text, plot_view_keys},
    [INPUTS_RUNS] = {runs_rows, runs_draw, runs_summary, runs_row_text, runs_view_keys},
    [INPUTS_FEATURES] = {features_rows, features_draw, features_summary, features_row_text,
                         features_keys},
};

static uint64_t inputs_rows(struct ui *ui)
{
    return views[ui->inputs_view].rows(ui);
}

static void inputs_draw(struct ui *ui, struct rect r, bool focused)
{
    views[ui->inputs_view].draw(ui, r, focused);
}

static void inputs_summary(struct ui *ui, struct strbuf *out)
{
    views[ui->inputs_view].summary(ui, out);
}

static void inputs_row_text(struct ui *ui, uint64_t row, struct strbuf *out)
{
    views[ui->inputs_view].row_text(ui, row, out);
}

static const struct view_keys *inputs_keys(struct ui *ui)
{
    return views[ui->inputs_view].keys(ui);
}

const struct pane_ops inputs_pane_ops = {
    "Inputs", CTX_INPUTS, inputs_rows, inputs_draw, inputs_action, inputs_clicked,
    inputs_row_text, inputs_summary, inputs_keys,
};

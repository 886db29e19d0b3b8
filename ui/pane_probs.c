/* pane_probs: the probability of every alternative, grouped by rule, with a
 * bar and where it comes from; + and - edit, L and I toggle learned and
 * inverted.  Generation (strategy prob) uses exactly this table. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "base/xalloc.h"

static void add_row(struct ui *ui, int kind, uint32_t rule, uint32_t node, uint32_t index)
{
    ui->prows = xgrow(ui->prows, &ui->prows_cap, ui->nprows + 1, sizeof *ui->prows);
    struct prob_row *r = &ui->prows[ui->nprows++];
    r->kind = kind;
    r->rule = rule;
    r->node = node;
    r->index = index;
}

/* Stable sort of node ids by their rule (insertion sort: the list is short,
 * quantifiers with learned probabilities only). */
static void qsort_r_by_rule(uint32_t *v, size_t n, const struct graph *g)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t x = v[i];
        size_t j = i;
        while (j > 0 && g->nodes[v[j - 1]].rule > g->nodes[x].rule) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

void probs_rebuild(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    const struct graph *g = ws->graph;
    const struct grammar *gr = ws->grammar;
    ui->nprows = 0;
    /* quantifiers with a learned probability, by rule (one pass, then merged) */
    uint32_t *quants = xmalloc(((size_t)g->nnodes + 1) * sizeof *quants);
    size_t nquants = 0, q = 0;
    for (uint32_t n = 0; n < g->nnodes; n++)
        if (g->nodes[n].kind == NODE_QUANT && ws->probs[g->nodes[n].first_child] >= 0.0)
            quants[nquants++] = n;
    qsort_r_by_rule(quants, nquants, g);
    for (uint32_t r = 0; r < gr->nrules; r++) {
        if (g->rule_node[r] == NODE_NONE)
            continue;
        uint32_t nalts = 0;
        while (workspace_rule_alt_node(ws, r, nalts + 1) != NODE_NONE)
            nalts++;
        bool header = false;
        for (uint32_t a = 1; a <= nalts; a++) {
            uint32_t node = workspace_rule_alt_node(ws, r, a);
            if (!header) {
                add_row(ui, PROB_RULE, r, nalts == 1 ? node : NODE_NONE, 0);
                header = true;
            }
            if (nalts > 1)
                add_row(ui, PROB_ALT_HEADER, r, node, a);
            for (uint32_t i = 0; i < g->nodes[node].nchildren; i++)
                add_row(ui, PROB_ALTERNATIVE, r, node, i);
        }
        for (; q < nquants && g->nodes[quants[q]].rule == r; q++) {
            if (!header) {
                add_row(ui, PROB_RULE, r, NODE_NONE, 0);
                header = true;
            }
            add_row(ui, PROB_REPEAT, r, quants[q], 0);
        }
    }
    free(quants);
    ui->prows_stale = false;
}

static void ensure(struct ui *ui)
{
    if (ui->prows_stale)
        probs_rebuild(ui);
}

static uint64_t probs_rows(struct ui *ui)
{
    ensure(ui);
    return ui->nprows;
}

static void source_text(struct ui *ui, uint32_t node, struct strbuf *out)
{
    struct workspace *ws = ui->ws;
    enum ws_prob_source src = ws->prob_source[node];
    strbuf_addstr(out, ws_prob_source_name(src));
    if ((src == WS_PROB_LEARNED || src == WS_PROB_INVERTED) && ws->learned_valid)
        strbuf_addf(out, " (%" PRIu64 " use%s)", ws->learned.node_count[node],
                    ws->learned.node_count[node] == 1 ? "" : "s");
}

static void draw_bar(struct ui *ui, int x, int y, int w, double p)
{
    int filled = (int)lround(p * w);
    if (filled < 0)
        filled = 0;
    if (filled > w)
        filled = w;
    for (int i = 0; i < w; i++)
        screen_puts(&ui->scr, x + i, y, 1,
                    i < filled ? glyph(ui->ascii, "\xe2\x96\x88", "#") : glyph(ui->ascii, "\xe2\x96\x91", "."),
                    i < filled ? EL_BAR : EL_BAR_EMPTY);
}

static void probs_draw(struct ui *ui, struct rect r, bool focused)
{
    ensure(ui);
    struct workspace *ws = ui->ws;
    const struct graph *g = ws->graph;
    struct screen *s = &ui->scr;
    struct list_state *l = &ui->list[PANE_PROBS];
    l->height = r.h;
    l->first_y = r.y;
    list_scroll_into_view(l, ui->nprows);
    if (ui->nprows == 0)
        screen_puts(s, r.x + 1, r.y, r.w - 1, "no alternations: every choice is fixed", EL_DIM);
    struct strbuf tmp = STRBUF_INIT;
    struct text_token *tokens = NULL;
    size_t ntokens = 0, tcap = 0;
    int barw = r.w >= 60 ? 12 : r.w >= 44 ? 8 : 5;
    int srcw = r.w >= 60 ? 16 : 0;
    for (int y = 0; y < r.h && l->top + (uint64_t)y < ui->nprows; y++) {
        const struct prob_row *row = &ui->prows[l->top + (uint64_t)y];
        int yy = r.y + y;
        strbuf_reset(&tmp);
        switch (row->kind) {
        case PROB_RULE:
            screen_puts(s, r.x, yy, r.w, ws->grammar->rules[row->rule].name, EL_HEADER);
            if (row->node != NODE_NONE) {
                source_text(ui, row->node, &tmp);
                int tw = text_columns(tmp.data, tmp.len);
                screen_puts(s, r.x + r.w - tw, yy, tw, strbuf_str(&tmp), EL_DIM);
            }
            break;
        case PROB_ALT_HEADER: {
            strbuf_addf(&tmp, "  alternation %u (", row->index);
            graph_node_name(g, row->node, &tmp);
            strbuf_addstr(&tmp, ")");
            screen_puts(s, r.x, yy, r.w, strbuf_str(&tmp), EL_DIM);
            strbuf_reset(&tmp);
            source_text(ui, row->node, &tmp);
            int tw = text_columns(tmp.data, tmp.len);
            screen_puts(s, r.x + r.w - tw, yy, tw, strbuf_str(&tmp), EL_DIM);
            break;
        }
        case PROB_ALTERNATIVE: {
            const struct graph_node *n = &g->nodes[row->node];
            double p = ws->probs[n->first_child + row->index];
            int right = 7 + barw + 1 + (srcw ? srcw + 1 : 0);
            int labelw = r.w - 4 - right;
            /* the alternative as the grammar writes it */
            struct strbuf label = STRBUF_INIT;
            ntokens = 0;
            expr_tokens(g, graph_children(g, row->node)[row->index], &label, &tokens, &ntokens, &tcap);
            strbuf_addf(&tmp, "%3u ", row->index + 1);
            screen_puts(s, r.x, yy, 4, strbuf_str(&tmp), EL_DIM);
            screen_put_fit(s, r.x + 4, yy, labelw - 1, strbuf_str(&label), label.len,
                           p > 0 ? EL_NORMAL : EL_DIM);
            strbuf_free(&label);
            int x = r.x + r.w - right;
            strbuf_reset(&tmp);
            strbuf_addf(&tmp, "%5.1f%% ", p * 100.0);
            screen_puts(s, x, yy, 7, strbuf_str(&tmp), EL_NORMAL);
            draw_bar(ui, x + 7, yy, barw, p);
            if (srcw) {
                strbuf_reset(&tmp);
                enum ws_prob_source src = ws->prob_source[row->node];
                if ((src == WS_PROB_LEARNED || src == WS_PROB_INVERTED) && ws->learned_valid)
                    strbuf_addf(&tmp, "%" PRIu64 " of %" PRIu64,
                                ws->learned.edge_count[n->first_child + row->index],
                                ws->learned.node_count[row->node]);
                screen_puts(s, x + 7 + barw + 1, yy, srcw, strbuf_str(&tmp), EL_DIM);
            }
            break;
        }
        case PROB_REPEAT: {
            const struct graph_node *n = &g->nodes[row->node];
            double q = ws->probs[n->first_child];
            strbuf_addstr(&tmp, "    ");
            graph_node_name(g, row->node, &tmp);
            strbuf_addstr(&tmp, ": one more repetition");
            int right = 7 + barw + 1 + (srcw ? srcw + 1 : 0);
            screen_puts(s, r.x, yy, r.w - right, strbuf_str(&tmp), EL_NORMAL);
            int x = r.x + r.w - right;
            strbuf_reset(&tmp);
            strbuf_addf(&tmp, "%5.1f%% ", q * 100.0);
            screen_puts(s, x, yy, 7, strbuf_str(&tmp), EL_NORMAL);
            draw_bar(ui, x + 7, yy, barw, q);
            break;
        }
        }
        if (l->top + (uint64_t)y == l->cursor)
            draw_selected(&ui->scr, r, yy, focused);
    }
    free(tokens);
    strbuf_free(&tmp);
}

static const struct prob_row *selected(struct ui *ui)
{
    ensure(ui);
    if (!ui->nprows)
        return NULL;
    list_clamp(&ui->list[PANE_PROBS], ui->nprows);
    return &ui->prows[ui->list[PANE_PROBS].cursor];
}

static bool any_source(struct ui *ui, enum ws_prob_source a, enum ws_prob_source b)
{
    const struct graph *g = ui->ws->graph;
    for (uint32_t n = 0; n < g->nnodes; n++)
        if (g->nodes[n].kind == NODE_ALT &&
            (ui->ws->prob_source[n] == a || ui->ws->prob_source[n] == b))
            return true;
    return false;
}

bool probs_invertible(const struct workspace *ws)
{
    const struct graph *g = ws->graph;
    for (uint32_t n = 0; n < g->nnodes; n++) {
        enum node_kind kind = g->nodes[n].kind;
        uint8_t src = ws->prob_source[n];
        if ((kind == NODE_ALT || kind == NODE_QUANT) &&
            (src == WS_PROB_LEARNED || src == WS_PROB_ANNOTATED || src == WS_PROB_EDITED ||
             src == WS_PROB_INVERTED))
            return true;
    }
    return false;
}

static struct pane_request learn_or_error(struct ui *ui)
{
    if (workspace_probs_learn(ui->ws))
        return req_message("probabilities learned from %zu sample%s", ui->ws->learned.samples,
                           ui->ws->learned.samples == 1 ? "" : "s");
    return req_error("no samples to learn from: :samples FILE|DIR loads some");
}

static struct pane_request probs_action(struct ui *ui, enum action a)
{
    struct workspace *ws = ui->ws;
    const struct prob_row *row = selected(ui);
    switch (a) {
    case ACT_PROB_MORE:
    case ACT_PROB_LESS: {
        if (!row || row->kind != PROB_ALTERNATIVE) {
            return req_error("select an alternative first");
        }
        double *v = ws->probs + ws->graph->nodes[row->node].first_child;
        /* steps of 5 points, landing on multiples of 5 */
        double p = v[row->index] * 100.0;
        p = a == ACT_PROB_MORE ? floor(p / 5.0 + 1e-9) * 5.0 + 5.0 : ceil(p / 5.0 - 1e-9) * 5.0 - 5.0;
        if (p < 0.0)
            p = 0.0;
        if (p > 100.0)
            p = 100.0;
        workspace_probs_set(ws, row->node, row->index, p / 100.0);
        return req_message("alternative %u: %.1f%%", row->index + 1, p);
    }
    case ACT_PROB_TYPE: {
        if (!row || row->kind != PROB_ALTERNATIVE) {
            return req_error("select an alternative first");
        }
        uint32_t which = 1;
        while (workspace_rule_alt_node(ws, row->rule, which) != row->node)
            which++;
        char initial[512];
        if (which == 1)
            snprintf(initial, sizeof initial, "prob %s %u ", ws->grammar->rules[row->rule].name,
                     row->index + 1);
        else
            snprintf(initial, sizeof initial, "prob %s %u.%u ",
                     ws->grammar->rules[row->rule].name, which, row->index + 1);
        char fallback[600];
        snprintf(fallback, sizeof fallback, "type :%sVALUE", initial);
        return req_cmdline(initial, fallback);
    }
    case ACT_PROB_LEARN:
        ui->prows_stale = true;
        if (any_source(ui, WS_PROB_LEARNED, WS_PROB_INVERTED) || any_source(ui, WS_PROB_UNSEEN, WS_PROB_UNSEEN)) {
            workspace_probs_reset(ws);
            return req_message("probabilities: the grammar's own");
        }
        return learn_or_error(ui);
    case ACT_PROB_INVERT:
        ui->prows_stale = true;
        if (any_source(ui, WS_PROB_INVERTED, WS_PROB_INVERTED))
            return learn_or_error(ui);
        if (!probs_invertible(ws))
            return req_error(PROBS_NOTHING_TO_INVERT);
        workspace_probs_invert(ws);
        return req_message("probabilities inverted");
    case ACT_PROB_STRATEGY:
        ws->gen_opts.strategy = GEN_PROB;
        workspace_gen_reset(ws, false);
        return req_message("strategy prob: generation draws alternatives by these probabilities");
    default: return REQ_NONE_OF_MINE;
    }
}

static void probs_row_text(struct ui *ui, uint64_t i, struct strbuf *out)
{
    const struct prob_row *row = &ui->prows[i];
    const struct graph *g = ui->ws->graph;
    if (row->kind == PROB_RULE) {
        strbuf_addstr(out, ui->ws->grammar->rules[row->rule].name);
    } else if (row->kind == PROB_ALTERNATIVE) {
        struct text_token *tokens = NULL;
        size_t n = 0, cap = 0;
        expr_tokens(g, graph_children(g, row->node)[row->index], out, &tokens, &n, &cap);
        free(tokens);
    }
}

static void probs_summary(struct ui *ui, struct strbuf *out)
{
    strbuf_addstr(out, ui->ws->gen_opts.strategy == GEN_PROB ? "used by: prob" : "U: use them");
}

const struct pane_ops probs_pane_ops = {
    "Probabilities", CTX_PROBS, probs_rows, probs_draw, probs_action, NULL,
    probs_row_text, probs_summary, NULL,
};

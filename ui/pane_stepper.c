/* pane_stepper: the generator, one decision at a time: the target k-path
 * with the part already in the tree highlighted, what the last step did and
 * why, the events, and the partial derivation tree with the slot just
 * filled marked.  Also the derivation-tree drawing the inputs pane uses. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "base/utf8.h"
#include "base/xalloc.h"

/* ---- derivation trees ------------------------------------------------------ */

static void tree_row_label(struct ui *ui, const struct derivation *t, uint32_t inst, struct strbuf *out)
{
    const struct graph *g = t->graph;
    const struct derivation_inst *in = &t->insts[inst];
    enum node_kind kind = g->nodes[in->node].kind;
    if (!node_kind_is_symbolic(kind) && !ui->ascii)
        strbuf_addstr(out, kind == NODE_ALT ? "\xe2\x97\x87 " : kind == NODE_CAT ? "\xe2\x88\x98 " : "\xe2\x86\xbb ");
    graph_node_name(g, in->node, out);
    if (kind == NODE_CLASS && !in->open) {
        strbuf_addstr(out, " '");
        char buf[4];
        size_t n = utf8_encode(in->ch, buf);
        escape_text(buf, n, 16, out);
        strbuf_addch(out, '\'');
    }
}

uint64_t draw_tree(struct ui *ui, const struct derivation *t, struct rect r, uint64_t top,
                   uint32_t mark, uint64_t *mark_row, const bool *hl, uint64_t *hl_row)
{
    bool hl_seen = false;
    const struct graph *g = t->graph;
    uint32_t *stack = NULL, *depth = NULL;
    size_t len = 0, cap = 0, dcap = 0;
    if (t->len) {
        stack = xgrow(stack, &cap, 1, sizeof *stack);
        depth = xgrow(depth, &dcap, 1, sizeof *depth);
        stack[0] = 0;
        depth[0] = 0;
        len = 1;
    }
    uint64_t row = 0;
    struct strbuf label = STRBUF_INIT;
    while (len) {
        len--;
        uint32_t inst = stack[len], d = depth[len];
        const struct derivation_inst *in = &t->insts[inst];
        if (inst == mark && mark_row)
            *mark_row = row;
        if (hl && hl[inst] && !hl_seen) {
            hl_seen = true;
            if (hl_row)
                *hl_row = row;
        }
        if (row >= top && row < top + (uint64_t)r.h) {
            int y = r.y + (int)(row - top);
            int indent = (int)d * 2;
            if (indent > r.w / 2)
                indent = r.w / 2;
            strbuf_reset(&label);
            tree_row_label(ui, t, inst, &label);
            int style = node_kind_is_symbolic(g->nodes[in->node].kind) ? EL_NORMAL : EL_SYNTHETIC;
            if (in->open) {
                strbuf_addstr(&label, glyph(ui->ascii, " \xe2\x80\xa6 open", " ... open"));
                style = EL_SLOT_OPEN;
            }
            if (inst == mark) {
                strbuf_addstr(&label, glyph(ui->ascii, "  \xe2\x97\x80 just filled", "  <- just filled"));
                style = EL_SLOT_LAST;
            } else if (hl && hl[inst]) {
                strbuf_addstr(&label, glyph(ui->ascii, "  \xe2\x97\x80 k-path", "  <- k-path"));
                style = EL_REACHED;
            }
            screen_puts(&ui->scr, r.x + indent, y, r.w - indent, strbuf_str(&label), style);
        }
        row++;
        stack = xgrow(stack, &cap, len + in->nchildren, sizeof *stack);
        depth = xgrow(depth, &dcap, len + in->nchildren, sizeof *depth);
        for (uint32_t c = in->nchildren; c-- > 0;) {
            stack[len] = derivation_children(t, inst)[c];
            depth[len++] = d + 1;
        }
    }
    strbuf_free(&label);
    free(stack);
    free(depth);
    return row;
}

/* ---- the stepper -------------------------------------------------------------- */

static void node_name(const struct graph *g, uint32_t n, struct strbuf *out)
{
    graph_node_name(g, n, out);
}

static void decision_text(const struct generator *gen, struct strbuf *out)
{
    const struct graph *g = gen->graph;
    const struct gen_decision *d = &gen->last;
    const struct graph_node *n = &g->nodes[d->node];
    switch (n->kind) {
    case NODE_ALT: node_name(g, graph_children(g, d->node)[d->decision], out); break;
    case NODE_QUANT: strbuf_addf(out, "%u repetition%s", d->decision, d->decision == 1 ? "" : "s"); break;
    case NODE_CLASS: {
        char buf[4];
        size_t len = utf8_encode(d->decision, buf);
        strbuf_addch(out, '\'');
        escape_text(buf, len, 16, out);
        strbuf_addch(out, '\'');
        break;
    }
    case NODE_REF: strbuf_addstr(out, "its rule"); break;
    case NODE_CAT: strbuf_addstr(out, "its items"); break;
    default: strbuf_addstr(out, "the text"); break;
    }
}

static void why_text(struct ui *ui, const struct generator *gen, struct strbuf *out)
{
    const struct graph *g = gen->graph;
    const struct gen_decision *d = &gen->last;
    const char *inf = glyph(ui->ascii, "\xe2\x88\x9e", "inf");
    if (d->inst == DTREE_NONE) {
        if (gen->opts.strategy == GEN_KPATH)
            strbuf_addf(out, "new tree: next target from the agenda (%" PRIu64 " left)",
                        gen_agenda_left(gen));
        else
            strbuf_addstr(out, "new tree");
        return;
    }
    strbuf_addstr(out, "slot ");
    node_name(g, d->node, out);
    if (d->toward_target) {
        if (derivation_needs_decision(g, d->node)) {
            strbuf_addstr(out, ": chose ");
            decision_text(gen, out);
        } else {
            strbuf_addstr(out, ": expanded");
        }
        /* the candidate walked into: the followed child's node */
        const struct gen_candidate *chosen = NULL;
        uint32_t fnode = NODE_NONE;
        if (d->followed != DTREE_NONE && d->followed < gen->tree.len)
            fnode = gen->tree.insts[d->followed].node;
        else if (g->nodes[d->node].kind == NODE_ALT)
            fnode = graph_children(g, d->node)[d->decision];
        for (uint32_t i = 0; i < d->ncandidates && !chosen; i++)
            if (d->candidates[i].node == fnode)
                chosen = &d->candidates[i];
        if (chosen) {
            strbuf_addstr(out, ", distance ");
            if (chosen->distance == UINT32_MAX)
                strbuf_addstr(out, inf);
            else
                strbuf_addf(out, "%u", chosen->distance);
        }
        strbuf_addstr(out, " to ");
        node_name(g, d->target_node, out);
        /* Walking to the target's first node along the smallest way, the
         * generator measures the way it takes only (the others are
         * UINT32_MAX, "not on it"); an alternative off the way may still
         * lead there, so it gets the fewest steps from it to the target's
         * node, and only one that cannot lead there at all shows inf. */
        uint32_t *fewest = NULL;
        bool off_way = chosen && chosen->distance != UINT32_MAX && gen->target &&
                       d->target_node == gen->target[0];
        for (uint32_t i = 0; i < d->ncandidates && off_way; i++)
            off_way = &d->candidates[i] == chosen || d->candidates[i].distance == UINT32_MAX;
        if (off_way && d->ncandidates > 1) {
            fewest = xmalloc(g->nnodes * sizeof *fewest);
            graph_distances_to(g, d->target_node, fewest);
        }
        uint32_t shown = 0;
        for (uint32_t i = 0; i < d->ncandidates && shown < 4; i++) {
            if (&d->candidates[i] == chosen)
                continue;
            strbuf_addstr(out, shown ? ", " : "; other: ");
            node_name(g, d->candidates[i].node, out);
            strbuf_addch(out, ' ');
            uint32_t dist = fewest ? fewest[d->candidates[i].node] : d->candidates[i].distance;
            if (dist == UINT32_MAX)
                strbuf_addstr(out, inf);
            else
                strbuf_addf(out, "%u", dist);
            shown++;
        }
        free(fewest);
    } else {
        if (gen->opts.strategy == GEN_KPATH)
            strbuf_addf(out, " (close-off %s): ", gen_closeoff_name(gen->opts.closeoff));
        else
            strbuf_addf(out, " (%s): ", gen_strategy_name(gen->opts.strategy));
        decision_text(gen, out);
    }
}

static void events_text(struct ui *ui, const struct generator *gen, struct strbuf *out)
{
    struct workspace *ws = ui->ws;
    unsigned e = gen->events;
    const char *sep = "";
#define EVENT(text)                    \
    do {                               \
        strbuf_addstr(out, sep);       \
        strbuf_addstr(out, text);      \
        sep = "; ";                    \
    } while (0)
    if (e & GEN_EVENT_TREE_STARTED)
        EVENT("tree started");
    if (e & GEN_EVENT_TARGET_ADVANCED)
        EVENT("a target node is in the tree");
    if (e & GEN_EVENT_TARGET_REACHED)
        EVENT("the whole target is in the tree");
    if (e & GEN_EVENT_CLOSEOFF_STARTED)
        EVENT("close-off fills the open slots");
    if (e & GEN_EVENT_TARGET_SKIPPED)
        EVENT("a target needs more depth than the limit: skipped");
    if ((e & GEN_EVENT_TREE_FINISHED) && ws->ninputs) {
        const struct ws_input *in = &ws->inputs[ws->ninputs - 1];
        strbuf_addstr(out, sep);
        strbuf_addf(out, "tree finished: input %zu, %" PRIu64 " new k-path%s", ws->ninputs,
                    in->nnew, in->nnew == 1 ? "" : "s");
        if (in->target)
            strbuf_addf(out, " (%s + %" PRIu64 " by accident)",
                        in->target_covered ? "the target" : "not the target",
                        in->nnew - (in->target_covered ? 1 : 0));
        sep = "; ";
    }
    if (e & GEN_EVENT_DONE)
        EVENT("generation is over");
#undef EVENT
}

/* The partial input: the text of the tree so far, each open slot as its
 * node's name in angle quotes (what is still to come there). */
static void partial_text(struct ui *ui, const struct derivation *t, struct strbuf *out)
{
    const struct graph *g = t->graph;
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    if (t->len) {
        stack = xgrow(stack, &cap, 1, sizeof *stack);
        stack[depth++] = 0;
    }
    /* two rows of a pane show far less than this */
    const size_t limit = out->len + 2048;
    while (depth && out->len < limit) {
        uint32_t inst = stack[--depth];
        const struct derivation_inst *in = &t->insts[inst];
        const struct graph_node *n = &g->nodes[in->node];
        if (in->open) {
            strbuf_addstr(out, glyph(ui->ascii, "\xe2\x80\xb9", "<"));
            graph_node_name(g, in->node, out);
            strbuf_addstr(out, glyph(ui->ascii, "\xe2\x80\xba", ">"));
            continue;
        }
        if (n->kind == NODE_LIT)
            escape_text(n->expr->u.lit.text, n->expr->u.lit.len, limit, out);
        else if (n->kind == NODE_CLASS) {
            char buf[4];
            escape_text(buf, utf8_encode(in->ch, buf), limit, out);
        }
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(t, inst)[c];
    }
    free(stack);
}

static uint64_t stepper_tree_rows(struct ui *ui)
{
    struct workspace *ws = ui->ws;
    if (!ws->gen || ws->gen->tree.len == 0)
        return 0;
    /* rows = instances (every instance is one row) */
    return ws->gen->tree.len;
}

static void wrap_line(struct ui *ui, struct rect r, int *y, const char *label, const char *text,
                      int style, int max_lines)
{
    int lw = (int)strlen(label);
    screen_puts(&ui->scr, r.x, *y, lw, label, EL_DIM);
    size_t len = strlen(text);
    size_t pos = 0;
    for (int line = 0; line < max_lines && *y < r.y + r.h; line++) {
        int w = r.w - lw;
        if (w <= 0)
            break;
        size_t next, take = text_wrap_line(text + pos, len - pos, w, &next);
        screen_put(&ui->scr, r.x + lw, *y, w, text + pos, take, style);
        (*y)++;
        pos += next;
        if (pos >= len)
            break;
    }
}

static void stepper_draw(struct ui *ui, struct rect r, bool focused)
{
    struct workspace *ws = ui->ws;
    struct screen *s = &ui->scr;
    const struct gen_options *o = &ws->gen_opts;
    struct strbuf tmp = STRBUF_INIT;
    struct list_state *l = &ui->list[PANE_STEPPER];
    int y = r.y;
    const struct generator *gen = ws->gen;
    if (!gen) {
        strbuf_addf(&tmp, "%s", gen_strategy_name(o->strategy));
        if (o->strategy == GEN_KPATH)
            strbuf_addf(&tmp, ", close-off %s", gen_closeoff_name(o->closeoff));
        strbuf_addf(&tmp, ", k=%u, seed %" PRIu64 ", max depth %u", ws->k, o->seed, o->max_depth);
        screen_puts(s, r.x, y++, r.w, strbuf_str(&tmp), EL_DIM);
        screen_puts(s, r.x, y++, r.w, "No generation in progress.", EL_NORMAL);
        screen_puts(s, r.x, y++, r.w, "s: one step   S: finish the tree   r: run to full coverage",
                    EL_NORMAL);
        screen_puts(s, r.x, y++, r.w, "R: reset   :strategy, :seed, :depth change how", EL_NORMAL);
        l->height = 0;
        strbuf_free(&tmp);
        return;
    }
    /* target, with the part already in the tree highlighted */
    if (gen->target && gen->opts.strategy == GEN_KPATH && gen->phase != GEN_PHASE_DONE) {
        int x = r.x;
        x += screen_puts(s, x, y, r.w, "target ", EL_DIM);
        for (uint32_t i = 0; i < gen->opts.k && x < r.x + r.w; i++) {
            if (i)
                x += screen_puts(s, x, y, r.x + r.w - x, glyph(ui->ascii, " \xe2\x86\x92 ", " -> "), EL_DIM);
            strbuf_reset(&tmp);
            graph_node_name(gen->graph, gen->target[i], &tmp);
            x += screen_puts(s, x, y, r.x + r.w - x, strbuf_str(&tmp),
                             i < gen->target_reached ? EL_REACHED : EL_PENDING);
        }
        y++;
    } else {
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, "%s strategy", gen_strategy_name(gen->opts.strategy));
        if (gen->phase == GEN_PHASE_DONE)
            strbuf_addstr(&tmp, ": done (R resets)");
        screen_puts(s, r.x, y++, r.w, strbuf_str(&tmp), EL_DIM);
    }
    strbuf_reset(&tmp);
    why_text(ui, gen, &tmp);
    wrap_line(ui, r, &y, "why   ", strbuf_str(&tmp), EL_NORMAL, 2);
    strbuf_reset(&tmp);
    events_text(ui, gen, &tmp);
    if (tmp.len)
        wrap_line(ui, r, &y, "event ", strbuf_str(&tmp), EL_HEADER, 2);
    if (gen->tree.len && gen->phase != GEN_PHASE_IDLE && gen->phase != GEN_PHASE_DONE) {
        strbuf_reset(&tmp);
        partial_text(ui, &gen->tree, &tmp);
        wrap_line(ui, r, &y, "text  ", strbuf_str(&tmp), EL_NORMAL, 2);
    }
    if (y < r.y + r.h) {
        strbuf_reset(&tmp);
        strbuf_addf(&tmp, "tree %zu, %zu instance%s, %zu open", gen->ninputs + (gen->phase == GEN_PHASE_IDLE ? 0 : 1),
                    gen->tree.len, gen->tree.len == 1 ? "" : "s", gen->tree.open);
        screen_fill(s, r.x, y, r.w, ui->ascii ? '-' : 0x2500, EL_BORDER);
        screen_puts(s, r.x + 2, y, r.w - 2, strbuf_str(&tmp), EL_DIM);
        y++;
    }
    struct rect tr = {r.x, y, r.w, r.y + r.h - y};
    l->height = tr.h > 0 ? tr.h : 0;
    l->first_y = tr.y;
    if (tr.h > 0) {
        uint64_t rows = stepper_tree_rows(ui);
        /* follow the slot just filled after every step */
        uint64_t sig = (uint64_t)gen->tree.len * 1315423911u ^ gen->last.inst ^ (uint64_t)gen->ninputs << 40;
        uint64_t mark_row = 0;
        if (sig != ui->stepper_sig) {
            ui->stepper_sig = sig;
            draw_tree(ui, &gen->tree, (struct rect){0, 0, 0, 0}, UINT64_MAX, gen->last.inst, &mark_row,
                      NULL, NULL);
            l->cursor = mark_row;
            if (l->cursor < l->top || l->cursor >= l->top + (uint64_t)tr.h)
                l->top = l->cursor > (uint64_t)tr.h / 2 ? l->cursor - (uint64_t)tr.h / 2 : 0;
        }
        list_clamp(l, rows);
        if (rows <= (uint64_t)tr.h)
            l->top = 0;
        else if (l->top > rows - (uint64_t)tr.h)
            l->top = rows - (uint64_t)tr.h;
        if (l->cursor < l->top)
            l->top = l->cursor;
        if (l->cursor >= l->top + (uint64_t)tr.h)
            l->top = l->cursor - (uint64_t)tr.h + 1;
        draw_tree(ui, &gen->tree, tr, l->top, gen->last.inst, NULL, NULL, NULL);
        if (focused && rows && l->cursor >= l->top && l->cursor < l->top + (uint64_t)tr.h)
            draw_selected(&ui->scr, tr, tr.y + (int)(l->cursor - l->top), true);
    }
    strbuf_free(&tmp);
}

static void stepper_summary(struct ui *ui, struct strbuf *out)
{
    const struct generator *gen = ui->ws->gen;
    if (!gen)
        strbuf_addstr(out, "idle");
    else if (gen->phase == GEN_PHASE_DONE)
        strbuf_addstr(out, "done");
    else if (gen->phase == GEN_PHASE_CLOSEOFF)
        strbuf_addstr(out, "close-off");
    else if (gen->phase == GEN_PHASE_TARGET)
        strbuf_addf(out, "towards the target (%u/%u)", gen->target_reached, gen->opts.k);
    else
        strbuf_addstr(out, "stepping");
}

const struct pane_ops stepper_pane_ops = {
    "Stepper", CTX_STEPPER, stepper_tree_rows, stepper_draw, NULL, NULL, NULL, stepper_summary,
    NULL,
};

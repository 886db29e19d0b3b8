/* pane_graph: the grammar graph as an expandable tree (like a file browser),
 * as a picture of that tree laid out in layers like the k-path paper's
 * Figure 1 (V), and as the grammar's text (t); all coloured by coverage.
 *
 * The tree is the graph's spanning tree of breadth-first ids: a node's
 * parent is the node that created it (ui->owner), so every node appears
 * exactly once, and every other reference to a rule is a back edge that
 * Enter follows.  Rows are rebuilt with an explicit stack, never recursion. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "base/xalloc.h"
#include "base/utf8.h"
#include "graph/layout.h"

static bool is_tree_child(const struct ui *ui, uint32_t parent, uint32_t child)
{
    return ui->owner[child] == parent;
}

static bool has_children(const struct ui *ui, uint32_t n)
{
    const struct graph *g = ui->ws->graph;
    const uint32_t *kids = graph_children(g, n);
    for (uint32_t i = 0; i < g->nodes[n].nchildren; i++)
        if (is_tree_child(ui, n, kids[i]))
            return true;
    return false;
}

/* The row a back edge leads to: the reference that shows the rule (or the
 * root); NODE_NONE when n is not a back edge. */
static uint32_t backedge_target(const struct ui *ui, uint32_t n)
{
    const struct graph *g = ui->ws->graph;
    if (g->nodes[n].kind != NODE_REF || g->nodes[n].nchildren == 0)
        return NODE_NONE;
    uint32_t rule_node = graph_children(g, n)[0];
    if (is_tree_child(ui, n, rule_node))
        return NODE_NONE;
    return ui->owner[rule_node] == NODE_NONE ? rule_node : ui->owner[rule_node];
}

void graph_rebuild(struct ui *ui)
{
    const struct graph *g = ui->ws->graph;
    ui->ngrows = 0;
    uint32_t *stack = NULL, *depth = NULL;
    size_t len = 0, cap = 0, dcap = 0;
    if (g->nnodes) {
        stack = xgrow(stack, &cap, 1, sizeof *stack);
        depth = xgrow(depth, &dcap, 1, sizeof *depth);
        stack[0] = 0;
        depth[0] = 0;
        len = 1;
    }
    while (len) {
        len--;
        uint32_t n = stack[len], d = depth[len];
        ui->grows = xgrow(ui->grows, &ui->grows_cap, ui->ngrows + 1, sizeof *ui->grows);
        ui->grows[ui->ngrows++] = (struct graph_row){n, d};
        if (!ui->expanded[n])
            continue;
        const uint32_t *kids = graph_children(g, n);
        uint32_t nk = g->nodes[n].nchildren;
        stack = xgrow(stack, &cap, len + nk, sizeof *stack);
        depth = xgrow(depth, &dcap, len + nk, sizeof *depth);
        for (uint32_t i = nk; i-- > 0;)
            if (is_tree_child(ui, n, kids[i])) {
                stack[len] = kids[i];
                depth[len++] = d + 1;
            }
    }
    free(stack);
    free(depth);
    ui->grows_stale = false;
}

static void ensure_rows(struct ui *ui)
{
    if (ui->grows_stale)
        graph_rebuild(ui);
}

/* ---- the text view ------------------------------------------------------------ */

struct print_item {
    uint32_t node;   /* NODE_NONE: print `lit` */
    const char *lit;
    bool parens;
    bool label_only; /* a quantifier's label, printed after its atom */
};

static void emit(struct strbuf *buf, struct text_token **tokens, size_t *ntokens, size_t *cap,
                 const char *text, size_t len, uint32_t node)
{
    *tokens = xgrow(*tokens, cap, *ntokens + 1, sizeof **tokens);
    (*tokens)[(*ntokens)++] = (struct text_token){(uint32_t)buf->len, (uint32_t)len, node};
    strbuf_add(buf, text, len);
}

void expr_tokens(const struct graph *g, uint32_t node, struct strbuf *buf,
                 struct text_token **tokens, size_t *ntokens, size_t *cap)
{
    struct print_item *stack = NULL;
    size_t len = 0, scap = 0;
    stack = xgrow(stack, &scap, 1, sizeof *stack);
    stack[len++] = (struct print_item){node, NULL, false, false};
    struct strbuf label = STRBUF_INIT;
    while (len) {
        struct print_item it = stack[--len];
        if (it.node == NODE_NONE) {
            emit(buf, tokens, ntokens, cap, it.lit, strlen(it.lit), NODE_NONE);
            continue;
        }
        if (it.label_only) {
            strbuf_reset(&label);
            graph_node_label(g, it.node, &label);
            emit(buf, tokens, ntokens, cap, label.data, label.len, it.node);
            continue;
        }
        const struct graph_node *n = &g->nodes[it.node];
        const uint32_t *kids = graph_children(g, it.node);
        switch (n->kind) {
        case NODE_REF:
        case NODE_LIT:
        case NODE_CLASS:
            strbuf_reset(&label);
            graph_node_label(g, it.node, &label);
            emit(buf, tokens, ntokens, cap, label.data, label.len, it.node);
            break;
        case NODE_ALT:
        case NODE_CAT: {
            /* pushed in reverse: ")" children-and-separators "(" */
            stack = xgrow(stack, &scap, len + 3 * (size_t)n->nchildren + 2, sizeof *stack);
            if (it.parens)
                stack[len++] = (struct print_item){NODE_NONE, ")", false, false};
            for (uint32_t i = n->nchildren; i-- > 0;) {
                enum node_kind ck = g->nodes[kids[i]].kind;
                bool paren = ck == NODE_ALT;
                stack[len++] = (struct print_item){kids[i], NULL, paren, false};
                if (i && n->kind == NODE_ALT) {
                    /* two tokens, so a wrapped line starts with "| " */
                    stack[len++] = (struct print_item){NODE_NONE, "| ", false, false};
                    stack[len++] = (struct print_item){NODE_NONE, " ", false, false};
                } else if (i) {
                    stack[len++] = (struct print_item){NODE_NONE, " ", false, false};
                }
            }
            if (it.parens)
                stack[len++] = (struct print_item){NODE_NONE, "(", false, false};
            break;
        }
        case NODE_QUANT: {
            stack = xgrow(stack, &scap, len + 2, sizeof *stack);
            /* the quantifier is printed after the atom: push it first */
            stack[len++] = (struct print_item){it.node, NULL, false, true};
            enum node_kind ck = g->nodes[kids[0]].kind;
            stack[len++] = (struct print_item){kids[0], NULL,
                                               ck == NODE_ALT || ck == NODE_CAT || ck == NODE_QUANT,
                                               false};
            break;
        }
        }
    }
    strbuf_free(&label);
    free(stack);
}

static void build_text(struct ui *ui, int width)
{
    const struct graph *g = ui->ws->graph;
    const struct grammar *gr = ui->ws->grammar;
    strbuf_reset(&ui->text.buf);
    ui->text.ntokens = 0;
    ui->text.nlines = 0;
    for (uint32_t r = 0; r < gr->nrules; r++) {
        uint32_t node = g->rule_node[r];
        if (node == NODE_NONE)
            continue;
        size_t first = ui->text.ntokens;
        emit(&ui->text.buf, &ui->text.tokens, &ui->text.ntokens, &ui->text.tokens_cap,
             gr->rules[r].name, strlen(gr->rules[r].name), NODE_NONE);
        emit(&ui->text.buf, &ui->text.tokens, &ui->text.ntokens, &ui->text.tokens_cap, " := ", 4,
             NODE_NONE);
        expr_tokens(g, node, &ui->text.buf, &ui->text.tokens, &ui->text.ntokens,
                    &ui->text.tokens_cap);
        emit(&ui->text.buf, &ui->text.tokens, &ui->text.ntokens, &ui->text.tokens_cap, ";", 1,
             NODE_NONE);
        /* wrap greedily at token boundaries; continuation lines indented */
        size_t line_start = first;
        int col = 0;
        uint32_t indent = 0;
        for (size_t t = first; t <= ui->text.ntokens; t++) {
            int tw = t < ui->text.ntokens
                         ? text_columns(ui->text.buf.data + ui->text.tokens[t].start,
                                        ui->text.tokens[t].len)
                         : 0;
            bool end = t == ui->text.ntokens;
            /* "| " stays with the alternative after it */
            int need = tw;
            if (!end && t + 1 < ui->text.ntokens && ui->text.tokens[t].len == 2 &&
                memcmp(ui->text.buf.data + ui->text.tokens[t].start, "| ", 2) == 0)
                need += text_columns(ui->text.buf.data + ui->text.tokens[t + 1].start,
                                     ui->text.tokens[t + 1].len);
            if (end || (col + need > width && t > line_start)) {
                ui->text.lines = xgrow(ui->text.lines, &ui->text.lines_cap, ui->text.nlines + 1,
                                       sizeof *ui->text.lines);
                ui->text.lines[ui->text.nlines++] =
                    (struct text_line){(uint32_t)line_start, (uint32_t)(t - line_start), indent};
                if (end)
                    break;
                line_start = t;
                indent = 4;
                col = (int)indent;
                /* a line does not start with the blank between tokens */
                if (ui->text.tokens[t].len == 1 && ui->text.buf.data[ui->text.tokens[t].start] == ' ') {
                    line_start = t + 1;
                    continue;
                }
            }
            col += tw;
        }
    }
    ui->text.width = width;
    ui->text.graph = g;
}

static void ensure_text(struct ui *ui, int width)
{
    if (width < 10)
        width = 10;
    if (ui->text.graph != ui->ws->graph || ui->text.width != width)
        build_text(ui, width);
}

/* ---- pane ops --------------------------------------------------------------------- */

static uint64_t graph_rows(struct ui *ui)
{
    if (ui->text_view) {
        ensure_text(ui, ui->text.width ? ui->text.width : 40);
        return ui->text.nlines;
    }
    ensure_rows(ui);
    return ui->ngrows;
}

uint32_t graph_selected_node(struct ui *ui)
{
    ensure_rows(ui);
    if (ui->text_view || ui->ngrows == 0)
        return ui->text_view ? NODE_NONE : 0;
    list_clamp(&ui->list[PANE_GRAPH], ui->ngrows);
    return ui->grows[ui->list[PANE_GRAPH].cursor].node;
}

static void draw_node_label(struct ui *ui, int x, int y, int maxw, uint32_t n, struct strbuf *tmp)
{
    const struct graph *g = ui->ws->graph;
    enum node_kind kind = g->nodes[n].kind;
    strbuf_reset(tmp);
    if (!node_kind_is_symbolic(kind) && !ui->ascii)
        strbuf_addstr(tmp, kind == NODE_ALT ? "\xe2\x97\x87 " : kind == NODE_CAT ? "\xe2\x88\x98 " : "\xe2\x86\xbb ");
    graph_node_name(g, n, tmp);
    int style = node_kind_is_symbolic(kind) ? node_style(ui->ws, n) : EL_SYNTHETIC;
    if (node_highlighted(ui, n))
        style = EL_SEARCH;
    int used = screen_put_fit(&ui->scr, x, y, maxw, tmp->data, tmp->len, style);
    uint32_t target = backedge_target(ui, n);
    if (target != NODE_NONE && used < maxw) {
        strbuf_reset(tmp);
        strbuf_addstr(tmp, glyph(ui->ascii, " \xe2\xa4\xb4 ", " ^ "));
        graph_node_name(g, target, tmp);
        screen_put_fit(&ui->scr, x + used, y, maxw - used, tmp->data, tmp->len, EL_BACKEDGE);
    }
}

static void draw_tree_view(struct ui *ui, struct rect r, bool focused)
{
    ensure_rows(ui);
    struct workspace *ws = ui->ws;
    struct list_state *l = &ui->list[PANE_GRAPH];
    l->height = r.h;
    l->first_y = r.y;
    list_scroll_into_view(l, ui->ngrows);
    struct strbuf tmp = STRBUF_INIT;
    for (int y = 0; y < r.h && l->top + (uint64_t)y < ui->ngrows; y++) {
        const struct graph_row *row = &ui->grows[l->top + (uint64_t)y];
        uint32_t n = row->node;
        int indent = (int)(row->depth * 2);
        if (indent > r.w / 2)
            indent = r.w / 2;
        int x = r.x + indent;
        const char *marker = " ";
        if (has_children(ui, n))
            marker = ui->expanded[n] ? glyph(ui->ascii, "\xe2\x96\xbe", "-") : glyph(ui->ascii, "\xe2\x96\xb8", "+");
        screen_puts(&ui->scr, x, r.y + y, r.w - indent, marker, EL_SYNTHETIC);
        /* coverage at the right, for symbolic nodes: a mark that says it
         * without colour (colour-blind viewers, mono terminals), then the
         * figure */
        int right = 0;
        if (node_kind_is_symbolic(ws->graph->nodes[n].kind)) {
            strbuf_reset(&tmp);
            strbuf_addstr(&tmp, coverage_mark(ui->ascii, node_style(ui->ws, n)));
            if (workspace_node_total(ws, n))
                strbuf_addf(&tmp, " %" PRIu64 "/%" PRIu64, workspace_node_covered(ws, n),
                            workspace_node_total(ws, n));
            right = text_columns(tmp.data, tmp.len) + 1;
            if (r.w - indent - 2 > right + 8) {
                screen_puts(&ui->scr, r.x + r.w - right, r.y + y, right, strbuf_str(&tmp), EL_DIM);
                screen_restyle(&ui->scr, r.x + r.w - right, r.y + y, 1, node_style(ui->ws, n), false);
            }
            else
                right = 0;
        }
        draw_node_label(ui, x + 2, r.y + y, r.w - indent - 2 - right - (right ? 1 : 0), n, &tmp);
        if (l->top + (uint64_t)y == l->cursor)
            draw_selected(&ui->scr, r, r.y + y, focused);
    }
    strbuf_free(&tmp);
}

static void draw_text_view(struct ui *ui, struct rect r, bool focused)
{
    ensure_text(ui, r.w - 1);
    struct list_state *l = &ui->list[PANE_GRAPH];
    l->height = r.h;
    l->first_y = r.y;
    list_scroll_into_view(l, ui->text.nlines);
    const struct graph *g = ui->ws->graph;
    for (int y = 0; y < r.h && l->top + (uint64_t)y < ui->text.nlines; y++) {
        const struct text_line *line = &ui->text.lines[l->top + (uint64_t)y];
        int x = r.x + (int)line->indent;
        for (uint32_t t = 0; t < line->ntokens; t++) {
            const struct text_token *tok = &ui->text.tokens[line->first_token + t];
            int style = EL_SYNTHETIC;
            if (tok->node != NODE_NONE)
                style = node_kind_is_symbolic(g->nodes[tok->node].kind) ? node_style(ui->ws, tok->node)
                                                                       : EL_SYNTHETIC;
            else if (t == 0 && line->indent == 0)
                style = EL_HEADER;
            x += screen_put(&ui->scr, x, r.y + y, r.x + r.w - x, ui->text.buf.data + tok->start,
                            tok->len, style);
        }
        if (l->top + (uint64_t)y == l->cursor)
            draw_selected(&ui->scr, r, r.y + y, focused);
    }
}

/* ---- the picture ------------------------------------------------------------------ */

/* A node's label in the picture: its name; a reference whose rule is drawn
 * elsewhere adds a back edge mark and the id of the node it leads to
 * (UnaryExpr_28⤴8), a collapsed node with children a mark that more is
 * below. */
static void picture_label(struct ui *ui, uint32_t n, struct strbuf *out)
{
    graph_node_name(ui->ws->graph, n, out);
    uint32_t target = backedge_target(ui, n);
    if (target != NODE_NONE)
        strbuf_addf(out, "%s%u", glyph(ui->ascii, "\xe2\xa4\xb4", "^"), target);
    else if (has_children(ui, n) && !ui->expanded[n])
        strbuf_addstr(out, glyph(ui->ascii, "\xe2\x96\xb8", "+"));
}

enum { LINK_UP = 1, LINK_DOWN = 2, LINK_LEFT = 4, LINK_RIGHT = 8 };

static uint32_t link_glyph(bool ascii, unsigned bits)
{
    bool vert = bits & (LINK_UP | LINK_DOWN), horiz = bits & (LINK_LEFT | LINK_RIGHT);
    if (ascii)
        return vert && horiz ? '+' : vert ? '|' : '-';
    switch (bits) {
    case LINK_LEFT | LINK_RIGHT: return 0x2500;                        /* ─ */
    case LINK_UP | LINK_LEFT | LINK_RIGHT: return 0x2534;              /* ┴ */
    case LINK_DOWN | LINK_LEFT | LINK_RIGHT: return 0x252c;            /* ┬ */
    case LINK_UP | LINK_DOWN | LINK_LEFT | LINK_RIGHT: return 0x253c;  /* ┼ */
    case LINK_DOWN | LINK_RIGHT: return 0x250c;                        /* ┌ */
    case LINK_DOWN | LINK_LEFT: return 0x2510;                         /* ┐ */
    case LINK_UP | LINK_RIGHT: return 0x2514;                          /* └ */
    case LINK_UP | LINK_LEFT: return 0x2518;                           /* ┘ */
    case LINK_UP | LINK_DOWN | LINK_RIGHT: return 0x251c;              /* ├ */
    case LINK_UP | LINK_DOWN | LINK_LEFT: return 0x2524;               /* ┤ */
    default: return 0x2502;                                            /* │ */
    }
}

/* The picture of the tree view: nodes on even rows (row 2 * layer), the
 * links from a parent to its children on the odd row below.  The part of it
 * shown is the one around the selected node, which is centred when the
 * picture is larger than the pane. */
static void draw_picture_view(struct ui *ui, struct rect r, bool focused)
{
    ensure_rows(ui);
    const struct graph *g = ui->ws->graph;
    struct list_state *l = &ui->list[PANE_GRAPH];
    l->height = r.h;
    /* the picture's rows are not the list's: a click focuses the pane but
     * selects no row (app.c maps a click to a row from first_y) */
    l->first_y = -(1 << 20);
    list_clamp(l, ui->ngrows);
    if (g->nnodes == 0 || r.w <= 0 || r.h <= 0)
        return;
    uint32_t sel = graph_selected_node(ui);
    struct strbuf tmp = STRBUF_INIT;
    uint32_t *widths = xcalloc(g->nnodes, sizeof *widths);
    for (uint32_t n = 0; n < g->nnodes; n++) {
        strbuf_reset(&tmp);
        picture_label(ui, n, &tmp);
        widths[n] = (uint32_t)text_columns(tmp.data, tmp.len);
    }
    struct graph_layout lay;
    layout_compute(g, widths, ui->expanded, 2, &lay);
    int64_t pw = lay.width, ph = 2 * (int64_t)lay.nlayers - 1;
    /* the window: the selected node in the middle, within the picture */
    int64_t ox = (int64_t)layout_center(&lay, sel) - r.w / 2;
    int64_t oy = 2 * (int64_t)lay.layer[sel] - r.h / 2;
    if (ox > pw - r.w)
        ox = pw - r.w;
    if (oy > ph - r.h)
        oy = ph - r.h;
    if (ox < 0)
        ox = 0;
    if (oy < 0)
        oy = 0;
    /* the links, as direction bits per cell of the window */
    uint8_t *bits = xcalloc((size_t)r.w * (size_t)r.h, 1);
    for (uint32_t n = 0; n < g->nnodes; n++) {
        if (!lay.shown[n] || !ui->expanded[n])
            continue;
        int64_t y = 2 * (int64_t)lay.layer[n] + 1 - oy;
        if (y < 0 || y >= r.h)
            continue;
        int64_t pc = layout_center(&lay, n), lo = pc, hi = pc;
        bool any = false;
        int64_t kid = 0, nkids = 0;
        const uint32_t *kids = graph_children(g, n);
        for (uint32_t i = 0; i < g->nodes[n].nchildren; i++) {
            uint32_t c = kids[i];
            if (!lay.shown[c] || layout_tree_parent(g, c) != n)
                continue;
            int64_t cc = layout_center(&lay, c);
            any = true;
            kid = cc;
            nkids++;
            lo = cc < lo ? cc : lo;
            hi = cc > hi ? cc : hi;
            if (cc - ox >= 0 && cc - ox < r.w)
                bits[(size_t)y * (size_t)r.w + (size_t)(cc - ox)] |= LINK_DOWN;
        }
        if (!any)
            continue;
        /* one child a column off (the halves of odd and even widths): the
         * line goes straight down into it */
        if (nkids == 1 && (pc == kid + 1 || pc + 1 == kid))
            pc = lo = hi = kid;
        if (pc - ox >= 0 && pc - ox < r.w)
            bits[(size_t)y * (size_t)r.w + (size_t)(pc - ox)] |= LINK_UP;
        for (int64_t x = lo; x <= hi; x++) {
            if (x - ox < 0 || x - ox >= r.w)
                continue;
            uint8_t *b = &bits[(size_t)y * (size_t)r.w + (size_t)(x - ox)];
            if (x > lo)
                *b |= LINK_LEFT;
            if (x < hi)
                *b |= LINK_RIGHT;
        }
    }
    for (int y = 0; y < r.h; y++)
        for (int x = 0; x < r.w; x++)
            if (bits[(size_t)y * (size_t)r.w + (size_t)x])
                screen_fill(&ui->scr, r.x + x, r.y + y, 1,
                            link_glyph(ui->ascii, bits[(size_t)y * (size_t)r.w + (size_t)x]),
                            EL_BORDER);
    /* the nodes, each cut at the window's edges */
    for (uint32_t n = 0; n < g->nnodes; n++) {
        if (!lay.shown[n])
            continue;
        int64_t y = 2 * (int64_t)lay.layer[n] - oy, x = (int64_t)lay.x[n] - ox;
        if (y < 0 || y >= r.h || x >= r.w || x + lay.w[n] <= 0)
            continue;
        strbuf_reset(&tmp);
        picture_label(ui, n, &tmp);
        int style = node_kind_is_symbolic(g->nodes[n].kind) ? node_style(ui->ws, n) : EL_SYNTHETIC;
        if (node_highlighted(ui, n))
            style = EL_SEARCH;
        if (n == sel)
            style |= focused ? STYLE_SELECTED : STYLE_SELECTED_BLUR;
        const char *p = tmp.data, *end = tmp.data + tmp.len;
        for (; p < end && x < r.w; x++) {
            uint32_t cp;
            size_t len = utf8_decode(p, (size_t)(end - p), &cp);
            p += len ? len : 1;
            if (x >= 0)
                screen_fill(&ui->scr, r.x + (int)x, r.y + (int)y, 1, cp, style);
        }
    }
    free(bits);
    layout_free(&lay);
    free(widths);
    strbuf_free(&tmp);
}

static void graph_draw(struct ui *ui, struct rect r, bool focused)
{
    if (ui->text_view)
        draw_text_view(ui, r, focused);
    else if (ui->picture_view)
        draw_picture_view(ui, r, focused);
    else
        draw_tree_view(ui, r, focused);
}

void graph_reveal(struct ui *ui, uint32_t node)
{
    for (uint32_t a = ui->owner[node]; a != NODE_NONE; a = ui->owner[a])
        ui->expanded[a] = true;
    graph_rebuild(ui);
    for (size_t i = 0; i < ui->ngrows; i++)
        if (ui->grows[i].node == node) {
            ui->list[PANE_GRAPH].cursor = i;
            list_scroll_into_view(&ui->list[PANE_GRAPH], ui->ngrows);
            return;
        }
}

static void set_expanded_below(struct ui *ui, uint32_t root, bool value)
{
    const struct graph *g = ui->ws->graph;
    uint32_t *stack = NULL;
    size_t len = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[len++] = root;
    while (len) {
        uint32_t n = stack[--len];
        ui->expanded[n] = value;
        const uint32_t *kids = graph_children(g, n);
        stack = xgrow(stack, &cap, len + g->nodes[n].nchildren, sizeof *stack);
        for (uint32_t i = 0; i < g->nodes[n].nchildren; i++)
            if (is_tree_child(ui, n, kids[i]))
                stack[len++] = kids[i];
    }
    free(stack);
}

static struct pane_request open_row(struct ui *ui)
{
    uint32_t n = graph_selected_node(ui);
    if (n == NODE_NONE)
        return REQ_HANDLED;
    uint32_t target = backedge_target(ui, n);
    if (target != NODE_NONE) {
        graph_reveal(ui, target);
        struct strbuf name = STRBUF_INIT;
        graph_node_name(ui->ws->graph, target, &name);
        struct pane_request r = req_message("back edge: went to %s", strbuf_str(&name));
        strbuf_free(&name);
        return r;
    }
    if (has_children(ui, n)) {
        ui->expanded[n] = !ui->expanded[n];
        graph_rebuild(ui);
    }
    return REQ_HANDLED;
}

static struct pane_request graph_action(struct ui *ui, enum action a)
{
    if (ui->text_view && a != ACT_GRAPH_VIEW)
        return REQ_NONE_OF_MINE;
    uint32_t n = graph_selected_node(ui);
    struct list_state *l = &ui->list[PANE_GRAPH];
    switch (a) {
    case ACT_GRAPH_OPEN: return open_row(ui);
    case ACT_GRAPH_EXPAND:
        if (has_children(ui, n) && !ui->expanded[n]) {
            ui->expanded[n] = true;
            graph_rebuild(ui);
        } else if (has_children(ui, n) && l->cursor + 1 < ui->ngrows) {
            l->cursor++;
        } else if (backedge_target(ui, n) != NODE_NONE) {
            return open_row(ui);
        }
        return REQ_HANDLED;
    case ACT_GRAPH_COLLAPSE:
        if (has_children(ui, n) && ui->expanded[n]) {
            ui->expanded[n] = false;
            graph_rebuild(ui);
        } else if (ui->owner[n] != NODE_NONE) {
            graph_reveal(ui, ui->owner[n]);
        }
        return REQ_HANDLED;
    case ACT_GRAPH_EXPAND_ALL:
        set_expanded_below(ui, n, true);
        graph_rebuild(ui);
        graph_reveal(ui, n);
        return REQ_HANDLED;
    case ACT_GRAPH_COLLAPSE_ALL:
        memset(ui->expanded, 0, ui->ws->graph->nnodes * sizeof *ui->expanded);
        ui->expanded[0] = true;
        graph_rebuild(ui);
        graph_reveal(ui, n);
        return REQ_HANDLED;
    case ACT_GRAPH_PICTURE:
        /* the same rows, the same selection: only the drawing changes */
        ui->picture_view = !ui->picture_view;
        return req_message(ui->picture_view ? "picture: j/k h/l as in the tree; "
                                               ":graph FILE.svg (or .dot) writes it"
                                             : "the tree");
    case ACT_GRAPH_VIEW:
        /* back to the tree: on the node selected when it was left */
        if (!ui->text_view)
            ui->text_view_node = n;
        ui->text_view = !ui->text_view;
        ui->list[PANE_GRAPH].cursor = 0;
        ui->list[PANE_GRAPH].top = 0;
        if (!ui->text_view)
            graph_reveal(ui, ui->text_view_node < ui->ws->graph->nnodes ? ui->text_view_node : 0);
        return REQ_HANDLED;
    case ACT_GRAPH_PATHS: {
        struct workspace *ws = ui->ws;
        const struct graph_node *node = &ws->graph->nodes[n];
        if (!node_kind_is_symbolic(node->kind) || !workspace_listable(ws)) {
            return req_error("k-paths start at symbolic nodes (references, literals, classes)");
        }
        uint64_t start = ws->space.start_prefix[node->symbolic_index];
        uint64_t pos = kpaths_row_from(ui, start);
        uint64_t rows = kpaths_count(ui);
        if (pos >= rows || kpaths_rank(ui, pos) >=
                               start + kpath_count_from(&ws->space, n, ws->k)) {
            return req_message("no %s k-path starts here", ws_filter_name(ui->filter));
        }
        ui->list[PANE_KPATHS].cursor = pos;
        ui->list[PANE_KPATHS].top = pos;
        return req_focus(PANE_KPATHS);
    }
    default: return REQ_NONE_OF_MINE;
    }
}

static void graph_clicked(struct ui *ui)
{
    if (!ui->text_view)
        ui->detail_of = PANE_GRAPH;
}

static void graph_row_text(struct ui *ui, uint64_t row, struct strbuf *out)
{
    if (ui->text_view) {
        const struct text_line *line = &ui->text.lines[row];
        for (uint32_t t = 0; t < line->ntokens; t++) {
            const struct text_token *tok = &ui->text.tokens[line->first_token + t];
            strbuf_add(out, ui->text.buf.data + tok->start, tok->len);
        }
        return;
    }
    graph_node_name(ui->ws->graph, ui->grows[row].node, out);
}

static void graph_summary(struct ui *ui, struct strbuf *out)
{
    const struct graph *g = ui->ws->graph;
    strbuf_addf(out, "%s, %u nodes",
                ui->text_view ? "text" : ui->picture_view ? "picture" : "tree", g->nnodes);
}

const struct pane_ops graph_pane_ops = {
    "Grammar graph", CTX_GRAPH, graph_rows, graph_draw, graph_action, graph_clicked,
    graph_row_text, graph_summary, NULL,
};

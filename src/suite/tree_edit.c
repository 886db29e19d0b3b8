#include "suite/tree_edit.h"

#include <stdlib.h>
#include <string.h>

#include "base/saturate.h"
#include "base/xalloc.h"
#include "grammar/grammar.h"

/* A slot of the tree being built: a new instance, the old instance it copies
 * (DTREE_NONE: fill it in the smallest way), and the depth left for it
 * (reference nodes, its own included). */
struct tree_edit_slot {
    uint32_t inst, old, depth;
    uint32_t route;  /* < the route's length: this slot is route[route], built along it */
    bool donor; /* old is an instance of the edit's donor tree */
};

void tree_editor_init(struct tree_editor *ed, const struct graph *g,
                      const struct size_table *sizes, uint32_t max_depth)
{
    memset(ed, 0, sizeof *ed);
    ed->g = g;
    ed->sizes = sizes;
    ed->max_depth = max_depth;
    ed->route_source = NODE_NONE;
}

void tree_editor_free(struct tree_editor *ed)
{
    free(ed->preorder);
    free(ed->subtree);
    free(ed->refs_above);
    free(ed->weight);
    free(ed->offset);
    free(ed->slots);
    free(ed->stack);
    free(ed->route_parent);
    free(ed->route);
    free(ed->queue);
    free(ed->kept);
    memset(ed, 0, sizeof *ed);
}

static bool is_ref(const struct graph *g, uint32_t n)
{
    return g->nodes[n].kind == NODE_REF;
}

uint64_t tree_edit_smallest_weight(const struct tree_editor *ed, uint32_t n, uint32_t d)
{
    return ed->sizes ? size_table_weight(ed->sizes, n, d) : ed->g->nodes[n].min_weight;
}

/* The alternative of alt node n whose smallest subtree within depth d is the
 * lightest (the first of equals); UINT32_MAX when none fits. */
static uint32_t smallest_alternative(const struct tree_editor *ed, uint32_t n, uint32_t d)
{
    uint32_t best = UINT32_MAX;
    uint64_t best_w = METRIC_INFINITE;
    for (uint32_t i = 0; i < ed->g->nodes[n].nchildren; i++) {
        uint64_t w = tree_edit_smallest_weight(ed, graph_children(ed->g, n)[i], d);
        if (w < best_w)
            best = i, best_w = w;
    }
    return best;
}

/* Can the edge from x to its child number i stand on a unit route? */
static bool unit_edge(const struct graph *g, uint32_t x, uint32_t i)
{
    const struct graph_node *node = &g->nodes[x];
    switch (node->kind) {
    case NODE_REF:
    case NODE_ALT:
        return true;
    case NODE_CAT:
        for (uint32_t j = 0; j < node->nchildren; j++)
            if (j != i && g->nodes[graph_children(g, x)[j]].min_length)
                return false;
        return true;
    case NODE_QUANT:
        return node->expr->u.quant.max >= 1 &&
               (node->expr->u.quant.min <= 1 || !g->nodes[graph_children(g, x)[0]].min_length);
    default:
        return false;
    }
}

/* Breadth-first from n over unit edges, into route_parent (cached). */
static void unit_routes_from(struct tree_editor *ed, uint32_t n)
{
    const struct graph *g = ed->g;
    if (ed->route_source == n)
        return;
    if (!ed->route_parent) {
        ed->route_parent = xmalloc((size_t)g->nnodes * sizeof *ed->route_parent);
        ed->route = xmalloc(((size_t)g->nnodes + 1) * sizeof *ed->route);
        ed->queue = xmalloc((size_t)g->nnodes * sizeof *ed->queue);
    }
    for (uint32_t m = 0; m < g->nnodes; m++)
        ed->route_parent[m] = NODE_NONE;
    size_t head = 0, tail = 0;
    ed->route_parent[n] = n;
    ed->queue[tail++] = n;
    while (head < tail) {
        uint32_t x = ed->queue[head++];
        for (uint32_t i = 0; i < g->nodes[x].nchildren; i++) {
            uint32_t y = graph_children(g, x)[i];
            if (ed->route_parent[y] != NODE_NONE || !unit_edge(g, x, i))
                continue;
            ed->route_parent[y] = x;
            ed->queue[tail++] = y;
        }
    }
    ed->route_source = n;
}

bool tree_edit_unit_route(struct tree_editor *ed, uint32_t n, uint32_t m)
{
    unit_routes_from(ed, n);
    return ed->route_parent[m] != NODE_NONE;
}

/* The route from n down to m into ed->route (n first); its length in
 * edges, or UINT32_MAX when there is none. */
static uint32_t unit_route(struct tree_editor *ed, uint32_t n, uint32_t m)
{
    if (!tree_edit_unit_route(ed, n, m))
        return UINT32_MAX;
    uint32_t len = 0;
    for (uint32_t x = m; x != n; x = ed->route_parent[x])
        ed->route[len++] = x;
    ed->route[len++] = n;
    for (uint32_t a = 0, b = len - 1; a < b; a++, b--) {
        uint32_t t = ed->route[a];
        ed->route[a] = ed->route[b];
        ed->route[b] = t;
    }
    return len - 1;
}

/* keep_classes: the class instances of t's subtree at `at`, in pre-order,
 * into kept. */
static void collect_classes(struct tree_editor *ed, const struct derivation *t, uint32_t at)
{
    size_t cap = 0, top = 0;
    uint32_t *stack = NULL;
    ed->nkept = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[top++] = at;
    while (top) {
        uint32_t i = stack[--top];
        const struct derivation_inst *in = &t->insts[i];
        if (ed->g->nodes[in->node].kind == NODE_CLASS) {
            ed->kept = xgrow(ed->kept, &ed->kept_cap, ed->nkept + 1, sizeof *ed->kept);
            ed->kept[ed->nkept++] = (struct tree_edit_kept){in->node, derivation_decision(t, i)};
        }
        stack = xgrow(stack, &cap, top + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[top++] = derivation_children(t, i)[c];
    }
    free(stack);
}

/* The character of a new instance of class node n in a smallest fill: the
 * first kept one of n not taken yet, else the class's first character. */
static uint32_t fill_class_char(struct tree_editor *ed, uint32_t n)
{
    for (size_t j = 0; j < ed->nkept; j++) {
        if (ed->kept[j].node != n)
            continue;
        ed->kept[j].node = NODE_NONE;
        return ed->kept[j].c;
    }
    return grammar_class_default_char(ed->g->nodes[n].expr);
}

/* The index of child y among x's children. */
static uint32_t child_index(const struct graph *g, uint32_t x, uint32_t y)
{
    for (uint32_t i = 0; i < g->nodes[x].nchildren; i++)
        if (graph_children(g, x)[i] == y)
            return i;
    return UINT32_MAX;
}

bool tree_edit_apply(struct tree_editor *ed, const struct derivation *t,
                     const struct tree_edit *edit, struct derivation *out)
{
    const struct graph *g = ed->g;
    uint32_t count = edit->count ? edit->count : 1;
    uint32_t route_len = UINT32_MAX;
    derivation_init(out, g, t->insts[0].node);
    ed->nkept = 0;
    if (edit->kind == TREE_EDIT_SMALLEST && ed->keep_classes)
        collect_classes(ed, t, edit->at);
    if (edit->kind == TREE_EDIT_HOIST) {
        uint32_t n = t->insts[edit->at].node, m = t->insts[edit->arg].node;
        route_len = n == m ? 0 : unit_route(ed, n, m);
        if (route_len == UINT32_MAX)
            return false;
    }
    size_t top = 0;
    ed->slots = xgrow(ed->slots, &ed->slots_cap, 1, sizeof *ed->slots);
    ed->slots[top++] = (struct tree_edit_slot){0, 0, ed->max_depth, UINT32_MAX, false};
    while (top) {
        struct tree_edit_slot sl = ed->slots[--top];
        uint32_t n = out->insts[sl.inst].node;
        const struct graph_node *node = &g->nodes[n];
        bool drop = false;
        if (!sl.donor && sl.old == edit->at && sl.route == UINT32_MAX && route_len) {
            if (edit->kind == TREE_EDIT_HOIST) {
                /* Along the route: this slot is its first node. */
                sl.route = 0;
                sl.old = DTREE_NONE;
            }
        }
        if (sl.route != UINT32_MAX) {
            /* A node of the route: the way to the next one, the rest smallest. */
            uint32_t next = ed->route[sl.route + 1], decision = 0, on = 0;
            if (node->kind == NODE_ALT) {
                decision = child_index(g, n, next);
            } else if (node->kind == NODE_QUANT) {
                decision = node->expr->u.quant.min > 1 ? node->expr->u.quant.min : 1;
            } else if (node->kind == NODE_CAT) {
                on = child_index(g, n, next);
            }
            if (is_ref(g, n) && sl.depth == 0)
                return false;
            if (!derivation_expand(out, sl.inst, decision))
                return false;
            uint32_t nkids = out->insts[sl.inst].nchildren;
            uint32_t child_depth = sl.depth - is_ref(g, n);
            ed->slots = xgrow(ed->slots, &ed->slots_cap, top + nkids, sizeof *ed->slots);
            for (uint32_t c = nkids; c-- > 0;) {
                struct tree_edit_slot ch = {derivation_children(out, sl.inst)[c], DTREE_NONE,
                                            child_depth, UINT32_MAX, false};
                if (c == on) {
                    if (sl.route + 1 == route_len)
                        ch.old = edit->arg; /* the route's end: the hoisted subtree */
                    else
                        ch.route = sl.route + 1;
                }
                ed->slots[top++] = ch;
            }
            continue;
        }
        if (!sl.donor && sl.old == edit->at) {
            if (edit->kind == TREE_EDIT_SMALLEST) {
                sl.old = DTREE_NONE;
            } else if (edit->kind == TREE_EDIT_HOIST) {
                sl.old = edit->arg;
            } else if (edit->kind == TREE_EDIT_GRAFT) {
                sl.old = edit->arg;
                sl.donor = true;
            } else {
                drop = true;
            }
        }
        const struct derivation *src = sl.donor ? edit->donor : t;
        uint32_t decision = 0;
        if (sl.old != DTREE_NONE) {
            decision = derivation_decision(src, sl.old);
            if (drop) {
                if (decision < count || edit->arg > decision - count)
                    return false;
                decision -= count;
            }
        } else if (node->kind == NODE_ALT) {
            decision = smallest_alternative(ed, n, sl.depth);
            if (decision == UINT32_MAX)
                return false;
        } else if (node->kind == NODE_QUANT) {
            decision = node->expr->u.quant.min;
        } else if (node->kind == NODE_CLASS) {
            decision = fill_class_char(ed, n);
        }
        if (is_ref(g, n) && sl.depth == 0)
            return false;
        if (!derivation_expand(out, sl.inst, decision))
            return false;
        uint32_t nkids = out->insts[sl.inst].nchildren;
        uint32_t child_depth = sl.depth - is_ref(g, n);
        ed->slots = xgrow(ed->slots, &ed->slots_cap, top + nkids, sizeof *ed->slots);
        /* Children go on the stack last first, so the first is built next. */
        for (uint32_t c = nkids; c-- > 0;) {
            uint32_t old = DTREE_NONE;
            if (sl.old != DTREE_NONE)
                old = derivation_children(src, sl.old)[drop && c >= edit->arg ? c + count : c];
            ed->slots[top++] = (struct tree_edit_slot){derivation_children(out, sl.inst)[c], old,
                                                       child_depth, UINT32_MAX, sl.donor};
        }
    }
    return true;
}

void tree_edit_measure(struct tree_editor *ed, const struct derivation *t)
{
    const struct graph *g = ed->g;
    size_t len = t->len;
    if (len > ed->inst_cap) {
        ed->inst_cap = len * 2;
        ed->preorder = xrealloc(ed->preorder, ed->inst_cap * sizeof *ed->preorder);
        ed->subtree = xrealloc(ed->subtree, ed->inst_cap * sizeof *ed->subtree);
        ed->refs_above = xrealloc(ed->refs_above, ed->inst_cap * sizeof *ed->refs_above);
        ed->weight = xrealloc(ed->weight, ed->inst_cap * sizeof *ed->weight);
        ed->offset = xrealloc(ed->offset, ed->inst_cap * sizeof *ed->offset);
    }
    ed->measured = len;
    size_t top = 0, at = 0;
    ed->stack = xgrow(ed->stack, &ed->stack_cap, 1, sizeof *ed->stack);
    ed->stack[top++] = 0;
    while (top) {
        uint32_t i = ed->stack[--top];
        ed->preorder[at++] = i;
        const struct derivation_inst *in = &t->insts[i];
        ed->stack = xgrow(ed->stack, &ed->stack_cap, top + in->nchildren, sizeof *ed->stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            ed->stack[top++] = derivation_children(t, i)[c];
    }
    /* Parents come before their children in the array. */
    for (size_t i = 0; i < len; i++) {
        uint32_t p = t->insts[i].parent;
        ed->refs_above[i] = p == DTREE_NONE ? 0 : ed->refs_above[p] + is_ref(g, t->insts[p].node);
    }
    for (size_t i = len; i-- > 0;) {
        const struct derivation_inst *in = &t->insts[i];
        const struct graph_node *node = &g->nodes[in->node];
        uint64_t w = node->kind == NODE_LIT || node->kind == NODE_CLASS ? node->min_weight : 1;
        uint32_t size = 1;
        for (uint32_t c = 0; c < in->nchildren; c++) {
            uint32_t ch = derivation_children(t, (uint32_t)i)[c];
            w = sat_add(w, ed->weight[ch]);
            size += ed->subtree[ch];
        }
        ed->weight[i] = w;
        ed->subtree[i] = size;
    }
    /* Offsets: parents first, each child after its elder siblings' text. */
    if (len)
        ed->offset[0] = 0;
    for (size_t i = 0; i < len; i++) {
        uint64_t from = ed->offset[i];
        for (uint32_t c = 0; c < t->insts[i].nchildren; c++) {
            uint32_t ch = derivation_children(t, (uint32_t)i)[c];
            ed->offset[ch] = from;
            from += ed->weight[ch] >> 32;
        }
    }
}

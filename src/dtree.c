#include "dtree.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "xalloc.h"

static uint32_t new_inst(struct dtree *t, uint32_t node, uint32_t parent)
{
    t->insts = xgrow(t->insts, &t->cap, t->len + 1, sizeof *t->insts);
    uint32_t i = (uint32_t)t->len++;
    struct dtree_inst *in = &t->insts[i];
    in->node = node;
    in->parent = parent;
    in->first_child = 0;
    in->nchildren = 0;
    in->ch = 0;
    in->open = true;
    t->open++;
    return i;
}

void dtree_init(struct dtree *t, const struct graph *g, uint32_t node)
{
    memset(t, 0, sizeof *t);
    t->graph = g;
    new_inst(t, node, DTREE_NONE);
}

void dtree_free(struct dtree *t)
{
    free(t->insts);
    free(t->kids);
    memset(t, 0, sizeof *t);
}

void dtree_copy(struct dtree *dst, const struct dtree *src)
{
    *dst = *src;
    dst->insts = xmemdup(src->insts, src->len * sizeof *src->insts);
    dst->cap = src->len;
    dst->kids = xmemdup(src->kids, src->nkids * sizeof *src->kids);
    dst->kids_cap = src->nkids;
}

bool dtree_needs_decision(const struct graph *g, uint32_t node)
{
    enum node_kind k = g->nodes[node].kind;
    return k == NODE_ALT || k == NODE_QUANT || k == NODE_CLASS;
}

bool dtree_expand(struct dtree *t, uint32_t inst, uint32_t decision)
{
    const struct graph *g = t->graph;
    if (inst >= t->len || !t->insts[inst].open)
        return false;
    uint32_t node = t->insts[inst].node;
    const struct graph_node *n = &g->nodes[node];
    const uint32_t *kids = graph_children(g, node);
    uint32_t count = 0;     /* children to create */
    bool repeat = false;    /* all children are instances of kids[0] */
    switch (n->kind) {
    case NODE_LIT:
        break;
    case NODE_CLASS:
        if (!grammar_class_matches(n->expr, decision))
            return false;
        t->insts[inst].ch = decision;
        break;
    case NODE_REF:
    case NODE_CAT:
        count = n->nchildren;
        break;
    case NODE_ALT:
        if (decision >= n->nchildren)
            return false;
        count = 1;
        kids += decision;
        break;
    case NODE_QUANT:
        if (decision < n->expr->u.quant.min || decision > n->expr->u.quant.max)
            return false;
        count = decision;
        repeat = true;
        break;
    }
    t->kids = xgrow(t->kids, &t->kids_cap, t->nkids + count, sizeof *t->kids);
    uint32_t first = (uint32_t)t->nkids;
    for (uint32_t c = 0; c < count; c++)
        t->kids[t->nkids++] = new_inst(t, repeat ? kids[0] : kids[c], inst);
    struct dtree_inst *in = &t->insts[inst];
    in->first_child = first;
    in->nchildren = count;
    in->open = false;
    t->open--;
    return true;
}

long dtree_replay(struct dtree *t, const uint32_t *decisions, size_t n, size_t *bad_at)
{
    /* Pre-order: a stack of instances still to visit, rightmost at the bottom. */
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0, used = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = 0;
    long result = 0;
    while (depth && t->open) {
        uint32_t inst = stack[--depth];
        if (t->insts[inst].open) {
            uint32_t decision = 0;
            if (dtree_needs_decision(t->graph, t->insts[inst].node)) {
                if (used == n)
                    break;
                decision = decisions[used++];
            }
            if (!dtree_expand(t, inst, decision)) {
                if (bad_at)
                    *bad_at = used - 1;
                result = -1;
                break;
            }
        }
        const struct dtree_inst *in = &t->insts[inst];
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = dtree_children(t, inst)[c];
    }
    free(stack);
    return result < 0 ? -1 : (long)used;
}

uint32_t dtree_decision(const struct dtree *t, uint32_t inst)
{
    const struct graph *g = t->graph;
    const struct dtree_inst *in = &t->insts[inst];
    const struct graph_node *n = &g->nodes[in->node];
    if (n->kind == NODE_ALT && !in->open) {
        uint32_t chosen = t->insts[dtree_children(t, inst)[0]].node;
        for (uint32_t a = 0; a < n->nchildren; a++)
            if (graph_children(g, in->node)[a] == chosen)
                return a;
    }
    if (n->kind == NODE_QUANT)
        return in->nchildren;
    if (n->kind == NODE_CLASS)
        return in->ch;
    return 0;
}

uint32_t *dtree_decisions(const struct dtree *t, size_t *n)
{
    uint32_t *out = NULL, *stack = NULL;
    size_t count = 0, out_cap = 0, depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        const struct dtree_inst *in = &t->insts[inst];
        if (in->open)
            continue;
        if (dtree_needs_decision(t->graph, in->node)) {
            out = xgrow(out, &out_cap, count + 1, sizeof *out);
            out[count++] = dtree_decision(t, inst);
        }
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = dtree_children(t, inst)[c];
    }
    free(stack);
    *n = count;
    return out ? out : xmalloc(sizeof *out);
}

void dtree_text(const struct dtree *t, struct strbuf *out)
{
    const struct graph *g = t->graph;
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        const struct dtree_inst *in = &t->insts[inst];
        if (in->open)
            continue;
        const struct graph_node *n = &g->nodes[in->node];
        if (n->kind == NODE_LIT)
            strbuf_add(out, n->expr->u.lit.text, n->expr->u.lit.len);
        else if (n->kind == NODE_CLASS)
            strbuf_add_utf8(out, in->ch);
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = dtree_children(t, inst)[c];
    }
    free(stack);
}

uint32_t dtree_depth(const struct dtree *t)
{
    /* Parents come before children, so one forward pass counts the
     * references on the path from the root to every instance. */
    uint32_t *refs = xmalloc((t->len + 1) * sizeof *refs);
    uint32_t deepest = 0;
    for (size_t i = 0; i < t->len; i++) {
        const struct dtree_inst *in = &t->insts[i];
        uint32_t above = in->parent == DTREE_NONE ? 0 : refs[in->parent];
        refs[i] = above + (t->graph->nodes[in->node].kind == NODE_REF);
        if (refs[i] > deepest)
            deepest = refs[i];
    }
    free(refs);
    return deepest;
}

void dtree_foreach_kpath(const struct dtree *t, uint32_t k,
                         void (*fn)(const uint32_t *path, void *ctx), void *ctx)
{
    const struct graph *g = t->graph;
    /* up[i]: the nearest symbolic proper ancestor of instance i. */
    uint32_t *up = xmalloc((t->len + 1) * sizeof *up);
    uint32_t *path = xmalloc(k * sizeof *path);
    for (size_t i = 0; i < t->len; i++) {
        uint32_t p = t->insts[i].parent;
        if (p == DTREE_NONE)
            up[i] = DTREE_NONE;
        else
            up[i] = node_kind_is_symbolic(g->nodes[t->insts[p].node].kind) ? p : up[p];
        if (!node_kind_is_symbolic(g->nodes[t->insts[i].node].kind))
            continue;
        uint32_t at = (uint32_t)i, j = k;
        while (j > 0 && at != DTREE_NONE) {
            path[--j] = t->insts[at].node;
            if (j)
                at = up[at];
        }
        if (j == 0)
            fn(path, ctx);
    }
    free(up);
    free(path);
}

struct add_ctx {
    struct kpath_set *set;
    uint64_t added;
};

static void add_one(const uint32_t *path, void *ctx)
{
    struct add_ctx *a = ctx;
    a->added += kpath_set_add(a->set, path);
}

uint64_t dtree_add_kpaths(const struct dtree *t, struct kpath_set *set)
{
    struct add_ctx a = {set, 0};
    dtree_foreach_kpath(t, set->sp->k, add_one, &a);
    return a.added;
}

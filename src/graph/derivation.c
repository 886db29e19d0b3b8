#include "graph/derivation.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/leb128.h"
#include "base/utf8.h"
#include "base/xalloc.h"

static uint32_t new_inst(struct derivation *t, uint32_t node, uint32_t parent)
{
    t->insts = xgrow(t->insts, &t->cap, t->len + 1, sizeof *t->insts);
    uint32_t i = (uint32_t)t->len++;
    struct derivation_inst *in = &t->insts[i];
    in->node = node;
    in->parent = parent;
    in->first_child = 0;
    in->nchildren = 0;
    in->ch = 0;
    in->open = true;
    t->open++;
    return i;
}

void derivation_init(struct derivation *t, const struct graph *g, uint32_t node)
{
    memset(t, 0, sizeof *t);
    t->graph = g;
    new_inst(t, node, DTREE_NONE);
}

void derivation_free(struct derivation *t)
{
    free(t->insts);
    free(t->kids);
    memset(t, 0, sizeof *t);
}

void derivation_copy(struct derivation *dst, const struct derivation *src)
{
    *dst = *src;
    dst->insts = xmemdup(src->insts, src->len * sizeof *src->insts);
    dst->cap = src->len;
    dst->kids = xmemdup(src->kids, src->nkids * sizeof *src->kids);
    dst->kids_cap = src->nkids;
}

bool derivation_needs_decision(const struct graph *g, uint32_t node)
{
    enum node_kind k = g->nodes[node].kind;
    return k == NODE_ALT || k == NODE_QUANT || k == NODE_CLASS;
}

bool derivation_expand(struct derivation *t, uint32_t inst, uint32_t decision)
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
    struct derivation_inst *in = &t->insts[inst];
    in->first_child = first;
    in->nchildren = count;
    in->open = false;
    t->open--;
    return true;
}

long derivation_replay(struct derivation *t, const uint32_t *decisions, size_t n, size_t *bad_at)
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
            if (derivation_needs_decision(t->graph, t->insts[inst].node)) {
                if (used == n)
                    break;
                decision = decisions[used++];
            }
            if (!derivation_expand(t, inst, decision)) {
                if (bad_at)
                    *bad_at = used - 1;
                result = -1;
                break;
            }
        }
        const struct derivation_inst *in = &t->insts[inst];
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(t, inst)[c];
    }
    free(stack);
    return result < 0 ? -1 : (long)used;
}

uint32_t derivation_decision(const struct derivation *t, uint32_t inst)
{
    const struct graph *g = t->graph;
    const struct derivation_inst *in = &t->insts[inst];
    const struct graph_node *n = &g->nodes[in->node];
    if (n->kind == NODE_ALT && !in->open) {
        uint32_t chosen = t->insts[derivation_children(t, inst)[0]].node;
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

uint32_t *derivation_decisions(const struct derivation *t, size_t *n)
{
    uint32_t *out = NULL, *stack = NULL;
    size_t count = 0, out_cap = 0, depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        const struct derivation_inst *in = &t->insts[inst];
        if (in->open)
            continue;
        if (derivation_needs_decision(t->graph, in->node)) {
            out = xgrow(out, &out_cap, count + 1, sizeof *out);
            out[count++] = derivation_decision(t, inst);
        }
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(t, inst)[c];
    }
    free(stack);
    *n = count;
    return out ? out : xmalloc(sizeof *out);
}

void derivation_text(const struct derivation *t, struct strbuf *out)
{
    const struct graph *g = t->graph;
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = 0;
    while (depth) {
        uint32_t inst = stack[--depth];
        const struct derivation_inst *in = &t->insts[inst];
        if (in->open)
            continue;
        const struct graph_node *n = &g->nodes[in->node];
        if (n->kind == NODE_LIT)
            strbuf_add(out, n->expr->u.lit.text, n->expr->u.lit.len);
        else if (n->kind == NODE_CLASS)
            strbuf_add_utf8(out, in->ch);
        stack = xgrow(stack, &cap, depth + in->nchildren, sizeof *stack);
        for (uint32_t c = in->nchildren; c-- > 0;)
            stack[depth++] = derivation_children(t, inst)[c];
    }
    free(stack);
}

uint32_t derivation_depth(const struct derivation *t)
{
    /* Parents come before children, so one forward pass counts the
     * references on the path from the root to every instance. */
    uint32_t *refs = xmalloc((t->len + 1) * sizeof *refs);
    uint32_t deepest = 0;
    for (size_t i = 0; i < t->len; i++) {
        const struct derivation_inst *in = &t->insts[i];
        uint32_t above = in->parent == DTREE_NONE ? 0 : refs[in->parent];
        refs[i] = above + (t->graph->nodes[in->node].kind == NODE_REF);
        if (refs[i] > deepest)
            deepest = refs[i];
    }
    free(refs);
    return deepest;
}

void derivation_foreach_kpath(const struct derivation *t, uint32_t k,
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

uint64_t derivation_add_kpaths(const struct derivation *t, struct kpath_set *set)
{
    struct add_ctx a = {set, 0};
    derivation_foreach_kpath(t, set->sp->k, add_one, &a);
    return a.added;
}

/* ---- packed trees ---------------------------------------------------------
 *
 * derivation_expand appends an instance's children to `kids` and creates them as
 * new instances in that order, so the arrays of a tree are fixed by the
 * order in which the instances with children were expanded (each one's
 * children are a segment of `kids`, in expansion order) and by each
 * instance's decision; instances without children (literals, classes, empty
 * repetitions) add nothing to the arrays, so their order does not matter.
 * The packed form: the root's node, the number of instances, the number of
 * segments and each segment's parent (as the difference to the one before,
 * zigzag-coded), then the decision of every instance that takes one, in
 * instance order; all as LEB128 numbers. */

static void put_number(struct strbuf *out, uint64_t v)
{
    leb128_put(out, v);
}

static uint64_t get_number(const struct derivation_packed *p, size_t *at)
{
    return leb128_get(p->bytes, p->len, at);
}

void derivation_pack(const struct derivation *t, struct derivation_packed *out)
{
    struct strbuf sb = STRBUF_INIT;
    put_number(&sb, t->insts[0].node);
    put_number(&sb, t->len);
    size_t segments = 0;
    for (size_t j = 0; j < t->nkids; j += t->insts[t->insts[t->kids[j]].parent].nchildren)
        segments++;
    put_number(&sb, segments);
    int64_t previous = 0;
    for (size_t j = 0; j < t->nkids; j += t->insts[t->insts[t->kids[j]].parent].nchildren) {
        int64_t parent = t->insts[t->kids[j]].parent, delta = parent - previous;
        put_number(&sb, delta >= 0 ? (uint64_t)delta << 1 : ((uint64_t)-delta << 1) - 1);
        previous = parent;
    }
    for (size_t i = 0; i < t->len; i++)
        if (derivation_needs_decision(t->graph, t->insts[i].node))
            put_number(&sb, derivation_decision(t, (uint32_t)i));
    size_t len;
    char *bytes = strbuf_detach(&sb, &len);
    out->bytes = xmemdup(bytes, len ? len : 1); /* exactly its size: many are kept */
    out->len = len;
    free(bytes);
}

/* Unpacking: a new instance reads its decision at once (decisions are
 * packed in instance order, which is the order instances are created in).
 * One without children to come (a literal, a class, an empty repetition) is
 * closed then and there; the others keep the decision in first_child until
 * their segment expands them. */
static void unpack_create(struct derivation *t, const struct derivation_packed *p, size_t *at,
                          uint32_t node, uint32_t parent)
{
    const struct graph_node *n = &t->graph->nodes[node];
    uint32_t i = (uint32_t)t->len++;
    uint32_t decision = n->kind == NODE_ALT || n->kind == NODE_QUANT || n->kind == NODE_CLASS
                            ? (uint32_t)get_number(p, at) : 0;
    bool leaf = n->kind == NODE_LIT || n->kind == NODE_CLASS ||
                (n->kind == NODE_QUANT && decision == 0);
    t->insts[i] = (struct derivation_inst){node, parent, leaf ? (uint32_t)t->nkids : decision, 0,
                                      n->kind == NODE_CLASS ? decision : 0, !leaf};
    t->open += !leaf;
}

/* derivation_expand without its checks and growth: the arrays have room for the
 * whole tree (`room` instances), and the decisions were valid when packed. */
static void unpack_expand(struct derivation *t, const struct derivation_packed *p, size_t *at, size_t room,
                          uint32_t inst)
{
    const struct graph *g = t->graph;
    struct derivation_inst *in = &t->insts[inst];
    const struct graph_node *n = &g->nodes[in->node];
    const uint32_t *kids = graph_children(g, in->node);
    uint32_t decision = in->first_child, count = 0;
    bool repeat = false;
    switch (n->kind) {
    case NODE_LIT:
    case NODE_CLASS: break;
    case NODE_REF:
    case NODE_CAT: count = n->nchildren; break;
    case NODE_ALT: count = 1, kids += decision < n->nchildren ? decision : 0; break;
    case NODE_QUANT: count = decision, repeat = true; break;
    }
    if (count > room - t->len)
        count = (uint32_t)(room - t->len); /* a damaged packing: stop, do not overrun */
    in->first_child = (uint32_t)t->nkids;
    in->nchildren = count;
    in->open = false;
    t->open--;
    for (uint32_t c = 0; c < count; c++) {
        t->kids[t->nkids++] = (uint32_t)t->len;
        unpack_create(t, p, at, repeat ? kids[0] : kids[c], inst);
    }
}

static atomic_uint_fast64_t unpacks;

uint64_t derivation_unpack_count(void)
{
    return atomic_load_explicit(&unpacks, memory_order_relaxed);
}

void derivation_unpack(const struct derivation_packed *p, const struct graph *g, struct derivation *out)
{
    atomic_fetch_add_explicit(&unpacks, 1, memory_order_relaxed);
    size_t at = 0;
    uint32_t root = (uint32_t)get_number(p, &at);
    size_t len = (size_t)get_number(p, &at), segments = (size_t)get_number(p, &at);
    if (len < 1)
        len = 1;
    memset(out, 0, sizeof *out);
    out->graph = g;
    /* Every instance but the root is a child: the arrays' sizes are known. */
    out->insts = xmalloc(len * sizeof *out->insts);
    out->cap = len;
    out->kids = xmalloc(len * sizeof *out->kids);
    out->kids_cap = len;
    /* The segments' parents come first, the decisions after them. */
    size_t parents_at = at;
    for (size_t s = 0; s < segments; s++)
        get_number(p, &at);
    unpack_create(out, p, &at, root, DTREE_NONE);
    int64_t parent = 0;
    for (size_t s = 0; s < segments; s++) {
        uint64_t z = get_number(p, &parents_at);
        parent += z & 1 ? -(int64_t)((z + 1) >> 1) : (int64_t)(z >> 1);
        if (parent >= 0 && (size_t)parent < out->len && out->insts[parent].open)
            unpack_expand(out, p, &at, len, (uint32_t)parent);
    }
    for (size_t i = 0; out->open && i < out->len; i++) /* only if damaged */
        if (out->insts[i].open)
            unpack_expand(out, p, &at, len, (uint32_t)i);
}

void derivation_packed_free(struct derivation_packed *p)
{
    free(p->bytes);
    p->bytes = NULL;
    p->len = 0;
}

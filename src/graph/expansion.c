#include "graph/expansion.h"

#include <stdlib.h>

#include "base/xalloc.h"

bool expansion_is_single(const struct graph *g, uint32_t n)
{
    const struct graph_node *node = &g->nodes[n];
    return node->kind != NODE_ALT && g->rule_node[node->rule] == n;
}

uint64_t expansion_total(const struct graph *g)
{
    uint64_t total = 0;
    for (uint32_t n = 0; n < g->nnodes; n++)
        total += g->nodes[n].kind == NODE_ALT ? g->nodes[n].nchildren
                                              : expansion_is_single(g, n);
    return total;
}

void expansion_set_init(struct expansion_set *s, const struct graph *g)
{
    s->graph = g;
    s->edge = xcalloc(graph_edge_count(g) + 1, sizeof *s->edge);
    s->node = xcalloc((size_t)g->nnodes + 1, sizeof *s->node);
    s->count = 0;
}

void expansion_set_free(struct expansion_set *s)
{
    free(s->edge);
    free(s->node);
    s->edge = s->node = NULL;
    s->count = 0;
}

static bool *flag(const struct expansion_set *s, uint32_t n, uint32_t decision)
{
    const struct graph *g = s->graph;
    if (g->nodes[n].kind == NODE_ALT)
        return decision < g->nodes[n].nchildren ? &s->edge[g->nodes[n].first_child + decision]
                                                : NULL;
    return expansion_is_single(g, n) ? &s->node[n] : NULL;
}

bool expansion_add(struct expansion_set *s, uint32_t n, uint32_t decision)
{
    bool *f = flag(s, n, decision);
    if (!f || *f)
        return false;
    *f = true;
    s->count++;
    return true;
}

uint32_t expansion_id(const struct graph *g, uint32_t n, uint32_t decision)
{
    const struct graph_node *node = &g->nodes[n];
    if (node->kind == NODE_ALT)
        return decision < node->nchildren ? node->first_child + decision : EXPANSION_NONE;
    return expansion_is_single(g, n) ? (uint32_t)graph_edge_count(g) + n : EXPANSION_NONE;
}

bool expansion_add_id(struct expansion_set *s, uint32_t id)
{
    size_t edges = graph_edge_count(s->graph);
    bool *f = id < edges ? &s->edge[id] : &s->node[id - edges];
    if (*f)
        return false;
    *f = true;
    s->count++;
    return true;
}

bool expansion_has(const struct expansion_set *s, uint32_t n, uint32_t decision)
{
    bool *f = flag(s, n, decision);
    return f && *f;
}

void expansion_set_union(struct expansion_set *into, const struct expansion_set *from)
{
    const struct graph *g = into->graph;
    size_t edges = graph_edge_count(g);
    for (size_t e = 0; e < edges; e++)
        if (from->edge[e] && !into->edge[e]) {
            into->edge[e] = true;
            into->count++;
        }
    for (uint32_t n = 0; n < g->nnodes; n++)
        if (from->node[n] && !into->node[n]) {
            into->node[n] = true;
            into->count++;
        }
}

void expansion_add_tree(struct expansion_set *s, const struct derivation *t)
{
    const struct graph *g = s->graph;
    for (size_t i = 0; i < t->len; i++) {
        const struct derivation_inst *in = &t->insts[i];
        uint32_t decision = 0;
        if (g->nodes[in->node].kind == NODE_ALT) {
            if (in->open || in->nchildren != 1)
                continue;
            /* Alternatives are distinct nodes: the chosen one by its node. */
            uint32_t chosen = t->insts[derivation_children(t, (uint32_t)i)[0]].node;
            const uint32_t *kids = graph_children(g, in->node);
            while (decision < g->nodes[in->node].nchildren && kids[decision] != chosen)
                decision++;
        }
        expansion_add(s, in->node, decision);
    }
}

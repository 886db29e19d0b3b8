/* layout: see layout.h. */
#include "graph/layout.h"

#include <stdlib.h>

#include "base/xalloc.h"

uint32_t layout_tree_parent(const struct graph *g, uint32_t n)
{
    /* parents are sorted by id: the first is the smallest; it is smaller
     * than n for every node but the root */
    if (n == 0 || g->nodes[n].nparents == 0 || graph_parents(g, n)[0] >= n)
        return NODE_NONE;
    return graph_parents(g, n)[0];
}

bool layout_is_back_edge(const struct graph *g, uint32_t parent, uint32_t child)
{
    return layout_tree_parent(g, child) != parent;
}

void layout_compute(const struct graph *g, const uint32_t *width, const bool *expanded,
                    uint32_t gap, struct graph_layout *out)
{
    uint32_t n = g->nnodes;
    out->nnodes = n;
    out->shown = xcalloc(n ? n : 1, sizeof *out->shown);
    out->layer = xcalloc(n ? n : 1, sizeof *out->layer);
    out->x = xcalloc(n ? n : 1, sizeof *out->x);
    out->w = xcalloc(n ? n : 1, sizeof *out->w);
    out->width = 0;
    out->nlayers = 0;
    out->nshown = 0;
    if (n == 0)
        return;
    /* which nodes show, and their layers: parents come before children */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = layout_tree_parent(g, i);
        out->w[i] = width[i] ? width[i] : 1;
        if (i == 0)
            out->shown[i] = true;
        else if (p != NODE_NONE && out->shown[p] && (!expanded || expanded[p])) {
            out->shown[i] = true;
            out->layer[i] = out->layer[p] + 1;
        }
        if (out->shown[i]) {
            out->nshown++;
            if (out->layer[i] + 1 > out->nlayers)
                out->nlayers = out->layer[i] + 1;
        }
    }
    /* subtree widths, children before parents: the sum of the shown
     * children's subtrees and the gaps between them, or the node's own
     * width when that is wider */
    uint64_t *sub = xcalloc(n, sizeof *sub);  /* the subtree's width */
    uint64_t *kids = xcalloc(n, sizeof *kids); /* the children's row, gaps included */
    for (uint32_t i = n; i-- > 0;) {
        if (!out->shown[i])
            continue;
        if (kids[i] > 0)
            kids[i] -= gap; /* no gap after the last child */
        sub[i] = kids[i] > out->w[i] ? kids[i] : out->w[i];
        uint32_t p = layout_tree_parent(g, i);
        if (p != NODE_NONE)
            kids[p] += sub[i] + gap;
    }
    /* positions, parents before children: a node centred in its span, its
     * children's row centred below it; `next` is where the next child of a
     * parent starts */
    uint64_t *left = xcalloc(n, sizeof *left);
    uint64_t *next = xcalloc(n, sizeof *next);
    for (uint32_t i = 0; i < n; i++) {
        if (!out->shown[i])
            continue;
        uint32_t p = layout_tree_parent(g, i);
        if (i != 0 && p != NODE_NONE) {
            left[i] = next[p];
            next[p] += sub[i] + gap;
        }
        out->x[i] = (uint32_t)(left[i] + (sub[i] - out->w[i]) / 2);
        next[i] = left[i] + (sub[i] - kids[i]) / 2;
    }
    out->width = (uint32_t)sub[0];
    free(next);
    free(left);
    free(kids);
    free(sub);
}

uint32_t layout_center(const struct graph_layout *l, uint32_t id)
{
    return l->x[id] + l->w[id] / 2;
}

void layout_free(struct graph_layout *l)
{
    free(l->shown);
    free(l->layer);
    free(l->x);
    free(l->w);
    l->shown = NULL;
    l->layer = l->x = l->w = NULL;
    l->nnodes = l->nshown = l->width = l->nlayers = 0;
}

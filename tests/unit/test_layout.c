/* Unit tests of the layered layout (graph/layout.h): positions worked out by
 * hand on tests/grammars/ok/picture.ebnf, a collapsed node, and on
 * expr.ebnf the properties the picture needs: no two nodes of a layer
 * overlap, every child one layer below its tree parent, a parent's centre
 * between its first and last child's. */
#include <stdlib.h>

#include "graph/layout.h"
#include "harness.h"
#include "workspace/workspace.h"

static struct workspace *load(const char *path)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct workspace *ws = workspace_new(harness_path(path), NULL, &d);
    CHECK_INT(d.errors, 0);
    diag_list_free(&d);
    return ws;
}

TEST(layout_by_hand)
{
    struct workspace *ws = load("tests/grammars/ok/picture.ebnf");
    if (!ws)
        return;
    const struct graph *g = ws->graph;
    CHECK_INT(g->nnodes, 7);
    /* widths as `kpath graph --svg` gives them (see tests/cli/cases/graph.t) */
    const uint32_t w[7] = {4, 4, 3, 3, 5, 3, 5};
    struct graph_layout l;
    layout_compute(g, w, NULL, 2, &l);
    /* subtrees: ~_1 3+2+5+2+3 = 15, T_2 max(3, 5) = 5, |_0 15+2+5 = 22 */
    CHECK_INT(l.width, 22);
    CHECK_INT(l.nlayers, 3);
    CHECK_INT(l.nshown, 7);
    const uint32_t x[7] = {9, 5, 18, 0, 5, 12, 17}, layer[7] = {0, 1, 1, 2, 2, 2, 2};
    for (uint32_t i = 0; i < 7; i++) {
        CHECK_INT(l.x[i], x[i]);
        CHECK_INT(l.layer[i], layer[i]);
        CHECK(l.shown[i]);
    }
    const uint32_t parent[7] = {NODE_NONE, 0, 0, 1, 1, 1, 2};
    for (uint32_t i = 0; i < 7; i++)
        CHECK_INT(layout_tree_parent(g, i), parent[i]);
    CHECK(layout_is_back_edge(g, 3, 6));
    CHECK(layout_is_back_edge(g, 5, 0));
    CHECK(!layout_is_back_edge(g, 2, 6));
    layout_free(&l);

    /* ~_1 collapsed: its children go, T_2's subtree stays */
    bool expanded[7] = {true, false, true, true, true, true, true};
    layout_compute(g, w, expanded, 2, &l);
    CHECK_INT(l.nshown, 4);
    CHECK(!l.shown[3] && !l.shown[4] && !l.shown[5]);
    CHECK(l.shown[6]);
    /* ~_1 4, T_2 5: the row 4+2+5 = 11; |_0 at (11-4)/2 = 3; T_2 from 6, its
     * label at 6+(5-3)/2 = 7, "x"_6 at 6 */
    CHECK_INT(l.width, 11);
    CHECK_INT(l.x[0], 3);
    CHECK_INT(l.x[1], 0);
    CHECK_INT(l.x[2], 7);
    CHECK_INT(l.x[6], 6);
    layout_free(&l);
    workspace_free(ws);
}

TEST(layout_expr_properties)
{
    struct workspace *ws = load("grammars/expr.ebnf");
    if (!ws)
        return;
    const struct graph *g = ws->graph;
    uint32_t *w = calloc(g->nnodes, sizeof *w);
    for (uint32_t i = 0; i < g->nnodes; i++)
        w[i] = 1 + i % 7; /* any widths */
    struct graph_layout l;
    layout_compute(g, w, NULL, 1, &l);
    CHECK_INT(l.nshown, g->nnodes);
    for (uint32_t a = 0; a < g->nnodes; a++) {
        CHECK(l.x[a] + l.w[a] <= l.width);
        uint32_t p = layout_tree_parent(g, a);
        if (a)
            CHECK(p != NODE_NONE && l.layer[a] == l.layer[p] + 1);
        for (uint32_t b = a + 1; b < g->nnodes; b++)
            if (l.layer[a] == l.layer[b])
                CHECK(l.x[a] + l.w[a] < l.x[b] + 1 || l.x[b] + l.w[b] < l.x[a] + 1);
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t c = 0; c < g->nodes[a].nchildren; c++) {
            uint32_t k = graph_children(g, a)[c];
            if (layout_tree_parent(g, k) != a)
                continue;
            uint32_t cc = layout_center(&l, k);
            lo = cc < lo ? cc : lo;
            hi = cc > hi ? cc : hi;
        }
        if (lo != UINT32_MAX)
            CHECK(lo <= layout_center(&l, a) + 1 && layout_center(&l, a) <= hi + 1);
    }
    layout_free(&l);
    free(w);
    workspace_free(ws);
}

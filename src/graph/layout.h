/* layout: a layered drawing of the grammar graph, as the k-path paper's
 * Figure 1 draws it: the root on top, each node one layer below the node that
 * created it in the breadth-first walk (its tree parent: its first parent, as
 * parents are listed in increasing id order), children left to right in id
 * order, every parent centred over its children.  Every other edge into a
 * node is a back edge (to a shared rule node, or to the root); a drawing
 * shows it apart (dashed, or as a mark beside the reference).
 *
 * Contract: pure layout in abstract units, nothing of a screen or a picture
 * format.  The caller gives each node's width in units (the columns of its
 * label) and, optionally, which nodes are expanded: a node is laid out when
 * its tree parent is laid out and expanded (the root always), so a view that
 * hides a subtree leaves it out.  A subtree is as wide as its widest layer
 * needs, siblings are `gap` units apart, and no two laid-out nodes of one
 * layer overlap.  O(nodes + edges), no recursion (a tree parent's id is
 * always smaller than its child's, so one pass up and one pass down do).
 *
 * Ownership: a graph_layout owns its arrays; free with layout_free. */
#ifndef KPATH_GRAPH_LAYOUT_H
#define KPATH_GRAPH_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/graph.h"

struct graph_layout {
    uint32_t nnodes;  /* the graph's node count: the arrays' length */
    bool *shown;      /* owned; [id]: laid out */
    uint32_t *layer;  /* owned; [id]: 0 for the root, tree parent's + 1 */
    uint32_t *x;      /* owned; [id]: the node's left edge */
    uint32_t *w;      /* owned; [id]: its width, as given */
    uint32_t width;   /* the drawing's width: the root's subtree */
    uint32_t nlayers; /* the deepest laid-out layer + 1 (0 for no nodes) */
    uint32_t nshown;
};

/* The node that created n in the breadth-first walk, NODE_NONE for the root. */
uint32_t layout_tree_parent(const struct graph *g, uint32_t n);
/* Is the edge parent -> child a back edge (not in the spanning tree)? */
bool layout_is_back_edge(const struct graph *g, uint32_t parent, uint32_t child);

/* Lay out g.  width[id] is node id's width (0 is taken as 1); expanded may be
 * NULL (everything shown).  `gap` units separate sibling subtrees. */
void layout_compute(const struct graph *g, const uint32_t *width, const bool *expanded,
                    uint32_t gap, struct graph_layout *out);
/* The centre of node id (x + w / 2, rounded down). */
uint32_t layout_center(const struct graph_layout *l, uint32_t id);
void layout_free(struct graph_layout *l);

#endif

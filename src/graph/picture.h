/* picture: the grammar graph (or the part a view shows) as a picture file,
 * DOT or SVG, in the style of the k-path paper's Figure 1.
 *
 * Contract: text out, nothing read or written elsewhere.  Symbolic nodes are
 * labelled Name_id as graph_node_name writes them; synthetic nodes are small
 * circles holding their label (|, ~, the quantifier) with the id beside.
 * Tree edges (layout.h) are solid, back edges dashed.  `shown` (NULL: every
 * node) limits the picture to a view: a node shows when shown[id], an edge
 * when both its ends show.  DOT leaves the placement to whoever draws it;
 * SVG places the nodes where a graph_layout put them (one unit = one
 * character of a label).  Both are linear in the nodes and edges drawn. */
#ifndef KPATH_GRAPH_PICTURE_H
#define KPATH_GRAPH_PICTURE_H

#include <stdbool.h>

#include "base/strbuf.h"
#include "graph/graph.h"
#include "graph/layout.h"

/* The widths picture_svg expects: per node, the columns of its name (for a
 * synthetic node, of its id with a circle before it).  widths has nnodes. */
void picture_widths(const struct graph *g, uint32_t *widths);
void picture_dot(const struct graph *g, const bool *shown, struct strbuf *out);
void picture_svg(const struct graph *g, const struct graph_layout *l, struct strbuf *out);

#endif

/* graph: the grammar graph, as docs/design/definitions.md defines it.
 *
 * Every element of a reachable rule's right-hand side is a node; a reference
 * node's single child is the node of the referenced rule's right-hand side,
 * which exists once per rule and is shared.  Ids are given breadth-first from
 * the root (the start rule's right-hand side, id 0), children numbered left to
 * right as their parent is taken from the queue.
 *
 * Beside the plain graph it holds what the rest of kpath consults in O(1):
 * parents, the symbolic successors of each symbolic node (the symbolic nodes
 * reached through synthetic nodes only; sorted by id, shared by all references
 * to one rule), and per node the minimal depth, size and length of a complete
 * derivation subtree.  Depth counts reference nodes on the longest root-to-leaf
 * path; size counts tree nodes; length counts characters of the text.
 *
 * Ownership: the graph owns its arrays and borrows the grammar, which must
 * outlive it.  Building is linear in the grammar and never recurses. */
#ifndef KPATH_GRAPH_H
#define KPATH_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "grammar/grammar.h"
#include "base/strbuf.h"

#define NODE_NONE UINT32_MAX
#define METRIC_INFINITE UINT64_MAX

enum node_kind { NODE_REF, NODE_LIT, NODE_CLASS, NODE_ALT, NODE_CAT, NODE_QUANT };

struct graph_node {
    enum node_kind kind;
    const struct expr *expr;  /* the element; for NODE_REF the reference */
    uint32_t rule;            /* the rule whose right-hand side holds it */
    uint32_t first_child, nchildren;  /* into graph.children */
    uint32_t first_parent, nparents;  /* into graph.parents */
    uint32_t first_succ, nsucc;       /* into graph.successors (symbolic nodes) */
    uint32_t symbolic_index;  /* position among symbolic nodes, or NODE_NONE */
    uint32_t min_depth;       /* reference nodes on the longest path */
    uint64_t min_size;        /* tree nodes (saturating) */
    uint64_t min_length;      /* characters of text (saturating) */
    /* The smallest subtree by characters, then tree nodes, as one integer:
     * (characters << 32) + nodes, saturating.  Sums of weights order trees
     * the same way while the nodes stay below 2^32 (any --max-size). */
    uint64_t min_weight;
};

/* Something a module keeps with a graph, built on first use and freed by
 * graph_free through `free` (graph.written: graph/written.h). */
struct graph_cache {
    void (*free)(struct graph_cache *self);
};

struct graph {
    const struct grammar *grammar; /* borrowed */
    struct graph_node *nodes;      /* owned; index = id */
    uint32_t nnodes;
    uint32_t *children;            /* owned; CSR */
    uint32_t *parents;             /* owned; CSR */
    uint32_t *successors;          /* owned; CSR, sorted by id */
    uint32_t nsuccessor_entries;
    uint32_t *rule_node;           /* owned; per rule, its node or NODE_NONE */
    uint32_t *symbolic;            /* owned; ids of the symbolic nodes, increasing */
    uint32_t nsymbolic;
    _Atomic(struct graph_cache *) written; /* owned; NULL until graph/written needs it */
};

struct graph *graph_build(const struct grammar *grammar);
void graph_free(struct graph *g);

bool node_kind_is_symbolic(enum node_kind kind);
/* "ref", "lit", "class", "alt", "cat", "quant" */
const char *node_kind_name(enum node_kind kind);

/* The label: the rule name for a reference, the literal in double quotes, the
 * class as written, "|" for alt, "~" for cat, the quantifier for quant. */
void graph_node_label(const struct graph *g, uint32_t id, struct strbuf *out);
/* Label and id, as the k-path literature writes nodes: AddExpr_0, "+"_10. */
void graph_node_name(const struct graph *g, uint32_t id, struct strbuf *out);
/* The node named by "Label_id" (as graph_node_name writes it) or by a plain
 * id; NODE_NONE when there is no such node or the label does not match. */
uint32_t graph_parse_node_name(const struct graph *g, const char *name);

/* Node names separated by blanks (and "->", so a line of `kpath paths` can be
 * pasted), each as graph_parse_node_name reads it; a name may hold blanks in
 * quotes ("a b"_3) or brackets ([ ]_4).  Returns the ids (malloc'd, *n of
 * them), or NULL after a diagnostic naming the first unknown node, or for
 * text without any name. */
uint32_t *graph_parse_path(const struct graph *g, const char *text, uint32_t *n,
                           struct diag_list *diags);

/* Why node n is in no derivation at all (its k-paths "need depth
 * UINT32_MAX"): "in no input: " and the nearest element above or below it
 * that shuts every way through it (a class that matches no character, a
 * quantifier {0}).  O(nodes + edges). */
void graph_why_in_no_input(const struct graph *g, uint32_t n, struct strbuf *out);

/* The number of child edges (entries of graph.children). */
static inline size_t graph_edge_count(const struct graph *g)
{
    uint32_t n = g->nnodes;
    return n ? (size_t)g->nodes[n - 1].first_child + g->nodes[n - 1].nchildren : 0;
}
static inline const uint32_t *graph_children(const struct graph *g, uint32_t id)
{
    return g->children + g->nodes[id].first_child;
}
static inline const uint32_t *graph_parents(const struct graph *g, uint32_t id)
{
    return g->parents + g->nodes[id].first_parent;
}
static inline const uint32_t *graph_successors(const struct graph *g, uint32_t id)
{
    return g->successors + g->nodes[id].first_succ;
}

/* dist[n] = the fewest edges from n down to `target` (0 for the target
 * itself), UINT32_MAX where the target cannot be reached.  dist has nnodes
 * entries.  One reverse breadth-first search: O(nodes + edges). */
void graph_distances_to(const struct graph *g, uint32_t target, uint32_t *dist);

#endif

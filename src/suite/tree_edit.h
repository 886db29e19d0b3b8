/* tree_edit: the edits of a derivation tree that make it smaller, shared by
 * the searches that shrink inputs: suite_shrink (a suite keeping its
 * k-paths) and input_shrink (one input keeping a behaviour of a program).
 *
 * An edit names an instance `at` of the tree and what takes its subtree's
 * place:
 *  - smallest: the smallest subtree of at's graph node (fewest characters,
 *    then tree nodes: graph.h's min_weight measure) within the depth left
 *    there: size_table's W(node, d) with a table, the smallest overall
 *    (graph min_weight) without one; its class instances take each class's
 *    first character, or with keep_classes the characters of the replaced
 *    subtree's instances of the same class node, in pre-order, while it has
 *    any left (a suite keeps its varied characters: 1.23e-45 made smallest
 *    keeps a non-integral 0.2e-4 rather than 0.0e0);
 *  - hoist: the subtree of `arg`, a descendant instance of the same graph
 *    node (a recursion made shorter; a rule's right-hand side node is
 *    shared by its references, so this lifts a subtree of the same rule
 *    into its ancestor's place), or of a node that at's node derives
 *    through a unit route: the fewest graph edges down from at's node to
 *    arg's, each a reference, an alternative, an item of a sequence whose
 *    other items can be empty (they are filled in the smallest way) or a
 *    repetition (max(min, 1) of them, the others smallest, when those can
 *    be empty) — so the edit adds no text beside arg's (Expr := Term | ...
 *    lets a Term deep inside an Expr take the Expr's place);
 *  - drop: `count` repetitions (at least one) of the quantifier instance
 *    `at`, from its child number `arg` on, left out (the caller keeps the
 *    repetitions at or above the quantifier's minimum);
 *  - graft: the subtree of instance `arg` of another tree, `donor`, of the
 *    same graph node.
 * tree_edit_apply builds the edited tree afresh (the original is never
 * changed), every instance outside the edit copied with its decision.
 *
 * tree_edit_measure gives, per instance of a tree: its position in
 * pre-order, its subtree's size in instances, the references above it, its
 * weight (the min_weight measure of its subtree: characters << 32 plus
 * instances) and the offset of its text in the tree's, for choosing edits.
 *
 * Nothing recurses: trees are built and walked with explicit stacks.
 * Ownership: an editor borrows the graph and the table and owns its
 * scratch arrays; the measured arrays are valid until the next measure. */
#ifndef KPATH_TREE_EDIT_H
#define KPATH_TREE_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/size_table.h"
#include "graph/derivation.h"

enum tree_edit_kind { TREE_EDIT_SMALLEST, TREE_EDIT_HOIST, TREE_EDIT_DROP, TREE_EDIT_GRAFT };

struct tree_edit {
    enum tree_edit_kind kind;
    uint32_t at, arg;
    uint32_t count;                   /* drop: repetitions left out; 0 reads as 1 */
    const struct derivation *donor;   /* graft only; borrowed */
};

/* A slot of a tree being built (internal to tree_edit.c). */
struct tree_edit_slot;

struct tree_editor {
    const struct graph *g;            /* borrowed */
    const struct size_table *sizes;   /* borrowed; NULL: no depth limit */
    uint32_t max_depth;               /* references on any path; UINT32_MAX: none */
    bool keep_classes;                /* smallest keeps the replaced class characters */
    /* Per instance of the measured tree. */
    uint32_t *preorder, *subtree, *refs_above;
    uint64_t *weight, *offset;
    size_t measured;                  /* instances measured */
    /* Scratch. */
    struct tree_edit_slot *slots;
    size_t slots_cap, inst_cap;
    uint32_t *stack;
    size_t stack_cap;
    /* Unit routes from one source node (breadth-first, cached). */
    uint32_t route_source;            /* NODE_NONE: none computed */
    uint32_t *route_parent;           /* per graph node: the node before it, NODE_NONE */
    uint32_t *route, *queue;          /* scratch */
    /* keep_classes: the replaced subtree's class instances (graph node,
     * character), in pre-order; node NODE_NONE once taken. */
    struct tree_edit_kept {
        uint32_t node, c;
    } *kept;
    size_t nkept, kept_cap;
};

void tree_editor_init(struct tree_editor *ed, const struct graph *g,
                      const struct size_table *sizes, uint32_t max_depth);
void tree_editor_free(struct tree_editor *ed);

/* The weight of the smallest subtree of node n within d references (the
 * table's W(n, d); without a table, min_weight whatever d). */
uint64_t tree_edit_smallest_weight(const struct tree_editor *ed, uint32_t n, uint32_t d);

/* Does node n derive node m through a unit route (see hoist above; n = m
 * counts)? */
bool tree_edit_unit_route(struct tree_editor *ed, uint32_t n, uint32_t m);

/* Build into *out (initialized here, to be freed by the caller either way)
 * the tree t with the edit applied.  False when the edited tree does not fit
 * the depth limit or an edit names something impossible (a drop below the
 * quantifier's range). */
bool tree_edit_apply(struct tree_editor *ed, const struct derivation *t,
                     const struct tree_edit *edit, struct derivation *out);

/* Fill the per-instance arrays above for tree t. */
void tree_edit_measure(struct tree_editor *ed, const struct derivation *t);

#endif

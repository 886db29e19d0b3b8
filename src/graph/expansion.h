/* expansion: expansion coverage, fuzzingbook's expansion_coverage() and
 * max_expansion_coverage() over kpath's grammar graph.
 *
 * An expansion is one alternative of an alternation: a child edge of an alt
 * node (the alternatives of a rule, and those of a parenthesized group), and,
 * for a rule whose right-hand side is not an alternation, that right-hand
 * side (the rule's only expansion, as fuzzingbook counts it).  A derivation
 * tree uses the edge of each alt instance's chosen child and the only
 * expansion of each such rule it instantiates.  Quantifiers add none.
 *
 * Ownership: a set borrows the graph and owns its flags. */
#ifndef KPATH_EXPANSION_H
#define KPATH_EXPANSION_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/derivation.h"
#include "graph/graph.h"

struct expansion_set {
    const struct graph *graph; /* borrowed */
    bool *edge;                /* owned; per child edge (graph.children index) */
    bool *node;                /* owned; per node: a rule node's only expansion */
    uint64_t count;            /* expansions in the set */
};

/* Every expansion of the grammar. */
uint64_t expansion_total(const struct graph *g);
/* Is n the right-hand side of its rule without alternatives (an expansion of
 * its own)? */
bool expansion_is_single(const struct graph *g, uint32_t n);

void expansion_set_init(struct expansion_set *s, const struct graph *g);
void expansion_set_free(struct expansion_set *s);
/* Add what an instance of node n with `decision` (derivation_expand's: the
 * alternative of an alt) uses; true when that was new. */
bool expansion_add(struct expansion_set *s, uint32_t n, uint32_t decision);
/* Is the expansion of node n (alternative `decision` of an alt) in the set? */
bool expansion_has(const struct expansion_set *s, uint32_t n, uint32_t decision);
/* Expansions as dense ids, for code that carries them around as numbers (the
 * parser's summaries): alternative `decision` of an alt node is its child
 * edge's index, a rule node without alternatives is the number of edges plus
 * its id.  EXPANSION_NONE when (n, decision) uses no expansion. */
#define EXPANSION_NONE UINT32_MAX
uint32_t expansion_id(const struct graph *g, uint32_t n, uint32_t decision);
/* Add the expansion with that id; true when it was new. */
bool expansion_add_id(struct expansion_set *s, uint32_t id);
/* Add every expansion of `from` (a set over the same graph) to `into`. */
void expansion_set_union(struct expansion_set *into, const struct expansion_set *from);
/* Add every expansion the tree uses (its open slots use none). */
void expansion_add_tree(struct expansion_set *s, const struct derivation *t);

#endif

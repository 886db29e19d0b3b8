/* size_table: the smallest trees within a depth limit, exactly.
 *
 * The generator's smallest way (gen.h) is exact without a depth limit: the
 * smallest context of a target's first node, the smallest subtree below.
 * Under a limit that the smallest tree exceeds, the smallest tree within it
 * may go neither the smallest nor the shallowest way, and a smallest subtree
 * may be too deep where a slightly larger one fits.  This module answers both
 * exactly, at a bounded cost:
 *
 *  - W(n, d), size_table_weight: the weight (graph.h's min_weight measure:
 *    characters << 32 plus tree nodes) of the smallest complete subtree of
 *    node n whose depth (reference nodes on its longest root-to-leaf path,
 *    n's own included) is at most d; METRIC_INFINITE when there is none.
 *    Built bottom-up for d = 0 .. D, no recursion: a reference reads level
 *    d - 1, every other node its children on level d, which inside a
 *    right-hand side have larger ids, so one pass per level in decreasing id
 *    order.
 *  - size_table_smallest_way: the smallest tree holding a k-path within depth
 *    D, in a pinned context when pins are given.  A forward table over states
 *    (node, r), r the references from the root to the node, its own
 *    included: the weight of the smallest tree part above an instance of the
 *    node at r (every node on the way with its other children closed in the
 *    smallest way within what depth is left: W), layer by layer in r (a
 *    reference reads layer r - 1, every other node its parents in layer r:
 *    references first, then the rest in increasing id order).  The future of
 *    a state depends on (node, r) alone, so the table is exact.  With pins,
 *    a second table is seeded at each pin's last node from the first one's
 *    values at its first node, carried along the pin's chain (the product of
 *    the way and the pinned context).  Neither table depends on the target
 *    (only the tail read off at its first node does), so they are computed
 *    once per table and pins, and each target then costs (D + 1) x its tail.
 *
 * Both measure trees as the k-path walk builds them: a quantifier on the way
 * is taken max(min, 1) times, its first repetition on the way, and closing
 * takes the fewest repetitions (see gen.c).
 *
 * Cost: (D + 1) * nodes entries of 8 bytes for W, plus 12 per entry (twice
 * with pins) for the searches, kept for reuse.  size_table_new refuses, with
 * NULL, above SIZE_TABLE_MAX_ENTRIES entries (a grammar of about 120,000
 * nodes at the default depth 16, or a depth limit in the millions): the
 * caller keeps its own way and says that it is not proven the smallest.
 *
 * Ownership: a table borrows the graph (and the pins passed to a search) and
 * owns its arrays. */
#ifndef KPATH_SIZE_TABLE_H
#define KPATH_SIZE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "graph/pin.h"

#define SIZE_TABLE_MAX_ENTRIES (UINT64_C(1) << 21)
/* A test seam: the bound size_table_new applies (SIZE_TABLE_MAX_ENTRIES);
 * tests lower it to see what callers do without a table. */
extern uint64_t size_table_max_entries;

struct size_table;

/* NULL when (max_depth + 1) * nodes is above size_table_max_entries. */
struct size_table *size_table_new(const struct graph *g, uint32_t max_depth);
void size_table_free(struct size_table *t);

/* W(n, d); d above the table's depth reads as its depth. */
uint64_t size_table_weight(const struct size_table *t, uint32_t n, uint32_t d);

/* The weight of the smallest tree along `route` within the table's depth:
 * graph nodes, each a child of the one before, route[0] at r0 references
 * (its own included); each node with its other children closed in the
 * smallest way that fits and the smallest subtree that fits below the last.
 * METRIC_INFINITE when no such tree fits. */
uint64_t size_table_route_weight(const struct size_table *t, const uint32_t *route, size_t len,
                                 uint32_t r0);

/* The smallest tree within the depth that holds the way `tail` (graph nodes
 * from the target's first node on, each a child of the one before), reached
 * from the root, through a pin of `pins` when it is given and not empty.
 * Writes the way from the root to tail[0] (both included) into *way (grown
 * with xgrow, capacity *cap), its length in *len, and the whole tree's
 * weight in *weight.  False when no tree within the depth holds it. */
bool size_table_smallest_way(struct size_table *t, const uint32_t *tail, size_t ntail,
                             const struct pin_set *pins, uint32_t **way, size_t *len,
                             size_t *cap, uint64_t *weight);

#endif

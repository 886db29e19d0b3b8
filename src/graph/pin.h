/* pin: contexts to focus on.
 *
 * A pin is a path of symbolic nodes of the grammar graph, valid as a path
 * (each node a symbolic successor of the one before), or a single node:
 * `UnaryExpr_15 AddExpr_36` is a parenthesized sum as the right operand of a
 * multiplication in expr.ebnf.
 *  - The k-paths *under* a pin start at its last node or at any symbolic node
 *    reachable below it.
 *  - A k-path is *covered in the pin's context* when it occurs inside a
 *    derivation subtree rooted at an occurrence of the pin's last node whose
 *    nearest symbolic ancestors spell the rest of the pin: every node of the
 *    k-path is that occurrence or below it.
 * With several pins, a k-path is under (covered in) the pins when it is
 * under (covered in) any of them.
 *
 * Ownership: a pin_set owns its pins; nothing here keeps the graph. */
#ifndef KPATH_PIN_H
#define KPATH_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/derivation.h"
#include "graph/graph.h"
#include "graph/kpath.h"

struct pin {
    uint32_t *nodes; /* owned */
    uint32_t len;
    bool *below;     /* owned; per node: the last node or reachable below it */
};

struct pin_set {
    struct pin *pins; /* owned */
    size_t len, cap;
    bool *below;      /* owned; per node: under some pin (symbolic nodes only) */
};

#define PIN_SET_INIT {NULL, 0, 0, NULL}

/* Parse "A_1 B_2" (names as graph_node_name writes them, or plain ids,
 * separated by blanks or "->") and add it; false with a diagnostic naming
 * the problem (unknown node, not symbolic, not a path). */
bool pin_set_add(struct pin_set *set, const struct graph *g, const char *text,
                 struct diag_list *diags);
void pin_set_free(struct pin_set *set);
/* Remove pin `index` (0-based, in the order they were added), the others
 * keeping their order; false when there is no such pin.  O(pins * nodes). */
bool pin_set_remove(struct pin_set *set, const struct graph *g, size_t index);
/* "A_1 B_2": the pin as pin_set_add reads it. */
void pin_format(const struct graph *g, const struct pin *pin, struct strbuf *out);

/* Is the k-path (its first node) under some pin?  True when there are no pins. */
bool pin_set_covers_path(const struct pin_set *set, const uint32_t *path);

/* How many k-paths of the space are under the pins (all without pins):
 * the sum of the DP counts of the symbolic nodes under them, O(nodes). */
uint64_t pin_count_under(const struct pin_set *set, const struct kpath_space *sp);

/* Like derivation_foreach_kpath, but only the k-paths occurring in a pinned
 * context (all of them when the set is empty). */
void pin_foreach_kpath(const struct pin_set *set, const struct derivation *t, uint32_t k,
                       void (*fn)(const uint32_t *path, void *ctx), void *ctx);
/* Add those to `set`; returns how many were new. */
uint64_t pin_add_kpaths(const struct pin_set *pins, const struct derivation *t, struct kpath_set *set);

#endif

/* skip_paths: the k-paths an ANTLR import's skip rules add, to hide them.
 *
 * The ANTLR importer puts a reference to a rule `_skip` (or `_skip_M` for a
 * lexer mode M) after every token, for whitespace and comments; in grammars
 * such as SQLite's and JSON5's, 39-40% of all 2-paths then run through those
 * references.  A node is *hidden* when it is such a reference or when every
 * way to it from the root goes through one (the skip tokens' own nodes); a
 * k-path is hidden when any of its nodes is.  Coverage stays defined over all
 * k-paths: hiding only leaves them out of lists and their counts.
 *
 * Ownership: a skip_paths owns its array; it does not keep the graph. */
#ifndef KPATH_SKIP_PATHS_H
#define KPATH_SKIP_PATHS_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/graph.h"
#include "graph/kpath.h"

struct skip_paths {
    bool *hidden;     /* owned; per node */
    uint32_t nhidden; /* hidden nodes; 0 for a grammar without skip rules */
};

/* One breadth-first search from the root that does not enter skip
 * references: O(nodes + edges). */
void skip_paths_init(struct skip_paths *sp, const struct graph *g);
void skip_paths_free(struct skip_paths *sp);
/* Is the rule name one of the importer's skip rules ("_skip", "_skip_M")? */
bool skip_paths_is_skip_rule(const char *name);
/* Does the k-path path[0..k) run through a hidden node? */
bool skip_paths_hides(const struct skip_paths *sp, const uint32_t *path, uint32_t k);
/* The k-paths of the space that are not hidden and whose first node has
 * first_ok set (every node when first_ok is NULL), by dynamic programming
 * over the symbolic successors: O(k * edges), saturating at UINT64_MAX. */
uint64_t skip_paths_count_shown(const struct skip_paths *sp, const struct kpath_space *space,
                                const bool *first_ok);

#endif

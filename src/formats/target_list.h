/* target_list: a list of k-paths read from a file, the targets of
 * `kpath cover --target FILE` (subset targeting, the k-path paper's
 * Section 4.4.1).
 *
 * The file holds one k-path per line, written as `kpath paths` prints it and
 * graph_parse_path reads it ("AddExpr_0 -> MultExpr_2", or ids); blank lines
 * and lines whose first non-blank character is '#' are skipped.  Every path
 * has the same length k.  Errors are diagnostics FILE:LINE:COL (the column
 * of the line's first non-blank character), every bad line reported.
 *
 * Ownership: the list owns its ids. */
#ifndef KPATH_TARGET_LIST_H
#define KPATH_TARGET_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "graph/graph.h"

struct target_list {
    uint32_t k;        /* nodes per path */
    uint32_t *paths;   /* owned; len paths of k ids, in file order (duplicates kept) */
    size_t len;
};

#define TARGET_LIST_INIT {0, NULL, 0}

/* Read the k-paths of `path`.  want_k 0: the first path's length sets k.
 * False after diagnostics (unreadable file, unknown node, not a k-path, a
 * length other than k, no k-path at all); the list is then empty. */
bool target_list_read(const struct graph *g, const char *path, uint32_t want_k,
                      struct target_list *out, struct diag_list *diags);
void target_list_free(struct target_list *list);

#endif

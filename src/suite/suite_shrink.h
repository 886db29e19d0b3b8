/* suite_shrink: make a suite's inputs smaller (suite_shrink) and fewer
 * (suite_graft, below) while the suite keeps every k-path it holds.
 *
 * A local search on derivation trees, one input at a time (longest first,
 * then suite order), each tried in pre-order of its tree, with three edits
 * of the subtree at an instance e (tree_edit.h builds them; input_shrink
 * uses the same edits to shrink a failing input):
 *  - smallest: the smallest subtree of e's graph node within the depth left
 *    there (size_table's W(node, d): fewest characters, then tree nodes),
 *    tried only when e's subtree is heavier than that;
 *  - hoist: e's subtree replaced by the subtree of a descendant instance of
 *    the same graph node (a recursion made shorter), the nearest
 *    SUITE_SHRINK_MAX_HOISTS of them in pre-order;
 *  - fewer copies: one repetition of a quantifier above its minimum left
 *    out (each, from the last).
 * An edit is kept only when the tree gets smaller (fewer bytes, then fewer
 * tree nodes), stays within --max-depth and within --max-size (or its own
 * size), and every k-path the input stops holding is held by another input
 * of the suite (a count of holders per k-path, in a pinned context when the
 * generator has pins; every k-path counts, not only targets, so what the
 * summary reports as covered stays true).  After a kept `smallest` edit the
 * search goes on past that subtree; after the others it retries at e.
 *
 * Deterministic: no random choice, the order above.  Bounded: each trial
 * rebuilds one tree and lists its k-paths; the work (tree instances built,
 * times k + 1) stops at `budget` for the whole call (SUITE_SHRINK_BUDGET,
 * 2^26: about a second; expr with k = 5, 1,189 inputs, needs about half of
 * it), leaving the inputs not reached yet as they were.
 * Nothing recurses: trees are built and walked with explicit stacks.  The
 * smallest edit needs the size table; without one (size_table_new refused
 * the grammar and depth) only hoists and fewer copies are tried.
 *
 * Ownership: suite_shrink changes inputs[i] in place (tree, text, len,
 * depth, derivation_depth; new_paths are left for the caller to recount);
 * it borrows the generator (graph, options, k-path space) and the table. */
#ifndef KPATH_SUITE_SHRINK_H
#define KPATH_SUITE_SHRINK_H

#include <stddef.h>
#include <stdint.h>

#include "gen/gen.h"
#include "gen/size_table.h"

#define SUITE_SHRINK_BUDGET (UINT64_C(1) << 26)
#define SUITE_SHRINK_MAX_HOISTS 8u
#define SUITE_GRAFT_TOP 16u

struct suite_shrink_stats {
    uint64_t work;        /* tree instances built and walked, times k + 1 */
    uint64_t trials;      /* edits tried */
    uint64_t kept;        /* edits kept */
    bool budget_spent;    /* stopped at the budget */
};

/* Shrink inputs[0 .. n) against each other (see above).  `sizes` may be
 * NULL; it must be built for gen's graph and gen->opts.max_depth. */
void suite_shrink(const struct generator *gen, const struct size_table *sizes,
                  struct gen_input *inputs, size_t n, uint64_t budget,
                  struct suite_shrink_stats *stats);

/* Fewer inputs: graft a whole input (its subtree at one of its first
 * SUITE_GRAFT_TOP instances in pre-order) into another input in place of a
 * subtree of the same graph node (one of the first SUITE_SHRINK_MAX_HOISTS
 * of that node in pre-order), dropping the donor, when the host stays
 * within --max-depth and --max-size and the suite without the donor still
 * holds every k-path it held.  The total bytes never grow (the graft is
 * part of the donor, and it replaces a subtree).  Donors shortest first,
 * hosts longest first; the same work bound as suite_shrink.  Dropped
 * inputs are freed and the array compacted (*n shrinks); stats->kept
 * counts the grafts. */
void suite_graft(const struct generator *gen, struct gen_input *inputs, size_t *n,
                 uint64_t budget, struct suite_shrink_stats *stats);

#endif

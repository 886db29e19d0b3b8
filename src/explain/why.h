/* why: why a k-path stays uncovered, in plain words.
 *
 * why_explain checks every reason that applies to a k-path:
 *  - depth: the smallest depth a tree containing it needs (as the k-path
 *    generator computes it), against the depth limit;
 *  - probability: alternatives on its way that have probability 0 under the
 *    active probability table (those between its nodes, which every tree
 *    containing it takes, and whether its first node can be reached from the
 *    root without any), so the prob strategy never produces it;
 *  - pins: it lies outside every active pin;
 *  - inputs: whether an input covers it, else the longest prefix and the
 *    longest suffix of it that some input covers, and which input;
 * and builds a smallest input containing it (the k-path generator with
 * shortest close-off, within the depth limit; if it needs more, at the depth
 * it needs, said as such).
 *
 * What "smallest" guarantees.  The generator's input is the smallest
 * containing the path within the depth limit (fewest characters, then tree
 * nodes; with pins, in a pinned context) whenever its exact size table is
 * affordable (size_table.h: (limit + 1) * graph nodes up to 2^21): the
 * smallest way within the depth, even where that is neither the smallest
 * nor the shallowest way, and the smallest subtrees within the depth left.
 * Above that size, the generator tries only each leg's smallest or
 * shallowest way, which is the smallest when the unlimited smallest input
 * fits the limit; why_explain therefore also builds the unlimited one:
 * example_smallest says the example is proven the smallest (exact, or the
 * unlimited smallest fits), and otherwise smallest_len is a lower bound on
 * the bytes of any input within the limit containing the path.
 *
 * Ownership: the report owns its arrays and example text. */
#ifndef KPATH_WHY_H
#define KPATH_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "graph/kpath.h"
#include "graph/pin.h"

/* What an input covers: sets[j - 1] holds its j-paths, j = 1..k. */
struct why_input {
    const char *name;
    struct kpath_set *sets;
};

struct why_options {
    uint32_t max_depth;
    const double *probabilities; /* a table (learn.h), or NULL: the grammar's weights */
    const struct pin_set *pins;  /* or NULL */
    const struct why_input *inputs;
    size_t ninputs;
};

struct why_zero {
    uint32_t alt;   /* the alt node */
    uint32_t index; /* its alternative with probability 0 */
};

struct why_report {
    uint32_t needed_depth;     /* UINT32_MAX: no tree can contain it */
    bool too_deep;             /* needed_depth > max_depth */
    struct why_zero *zeros;    /* owned: zero alternatives between its nodes */
    size_t nzeros;
    bool start_needs_zero;     /* its first node is reached only through zeros */
    bool outside_pins;
    size_t covered_by;         /* an input covering it, or SIZE_MAX */
    uint32_t prefix, suffix;   /* longest covered prefix / suffix lengths (0: none) */
    size_t prefix_input, suffix_input;
    char *example;             /* owned: a smallest input containing it, or NULL */
    size_t example_len;
    uint32_t example_depth;
    uint32_t example_derivation_depth; /* tree nodes on its longest path (the paper's) */
    bool example_within_limit; /* built within max_depth (else at needed_depth) */
    /* The smallest input containing it with no depth limit (see above). */
    bool example_smallest;     /* the example is it: proven the smallest */
    size_t smallest_len;       /* its bytes: a lower bound for the example's */
    uint32_t smallest_depth;   /* its depth (more than the limit unless example_smallest) */
};

/* The depth limit of "no depth limit" (the largest --max-depth). */
#define WHY_NO_DEPTH_LIMIT (UINT32_MAX - 1)

/* path[0..k) must be a k-path of g (see pattern_check_path). */
void why_explain(const struct graph *g, const uint32_t *path, uint32_t k,
                 const struct why_options *opts, struct why_report *report);
void why_report_free(struct why_report *report);

#endif

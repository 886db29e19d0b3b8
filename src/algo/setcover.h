/* setcover: choose the fewest candidates, then the cheapest, that together
 * cover every element any candidate covers.
 *
 * An instance is `ncandidates` candidates (inputs of a suite), each with a cost
 * (its bytes) and the sorted, distinct ids (< nelements) of the elements it
 * covers (k-paths, behaviour features).  The objective is lexicographic: the
 * number of chosen candidates first, then their total cost.  Set cover is
 * NP-hard, so setcover_solve combines:
 *   1. essential candidates: the only one covering some element; always chosen;
 *   2. greedy: repeatedly the candidate covering the most uncovered elements
 *      (ties: the cheaper, then the earlier), the classic ln(n)-approximation;
 *   3. redundancy removal: a chosen candidate whose every element another
 *      chosen one also covers is dropped, costliest first, so the result is
 *      irredundant (every chosen candidate covers something only it covers);
 *      then a chosen candidate is swapped for the cheapest unchosen one that
 *      covers what only it covers, while one is cheaper (and what became
 *      redundant is dropped again);
 *   4. exact branch and bound when at most `exact_limit` candidates are still
 *      in play after (1) and after dropping candidates dominated by another
 *      (covering a subset of what it covers at no lower cost), within
 *      `node_limit` search nodes; `optimal` says whether it finished.
 * lower_bound is a bound on the number of candidates every cover needs: the
 * larger of a packing bound (elements no two of which share a candidate each
 * need their own) and ceil(elements left / largest candidate) after the
 * essential ones.  It equals nchosen when optimal is set; when nchosen meets
 * it without a search, the number is minimal but the bytes may not be.
 *
 * With `initial` (a cover of every element any candidate covers, such as a
 * suite made by another method), that cover also goes through step 3 and
 * the better of the two, by the same objective, is the incumbent of step 4:
 * the result is never worse than `initial`.
 *
 * Nothing recurses deeper than exact_limit (at most SETCOVER_MAX_EXACT_LIMIT).
 * Ownership: the instance is borrowed; a result owns its `chosen` array. */
#ifndef KPATH_SETCOVER_H
#define KPATH_SETCOVER_H

#include <stdbool.h>
#include <stdint.h>

#define SETCOVER_DEFAULT_EXACT_LIMIT 40u
#define SETCOVER_MAX_EXACT_LIMIT 256u
#define SETCOVER_DEFAULT_NODE_LIMIT 1000000u

struct setcover_instance {
    uint32_t ncandidates;
    uint32_t nelements;
    const uint64_t *cost;           /* per candidate */
    const uint32_t *const *elements; /* per candidate: sorted distinct element ids */
    const uint32_t *nelems;          /* per candidate: how many */
};

struct setcover_options {
    uint32_t exact_limit; /* 0: never solve exactly */
    uint64_t node_limit;
    const uint32_t *initial; /* NULL, or ninitial distinct candidates covering everything */
    uint32_t ninitial;
};

struct setcover_result {
    uint32_t *chosen;        /* owned; candidate indices, increasing */
    uint32_t nchosen;
    uint64_t cost;
    uint32_t essential;      /* candidates that alone cover some element */
    uint32_t greedy_count;   /* after step 2 */
    uint64_t greedy_cost;
    uint32_t pruned_count;   /* after step 3 (redundancy removal and swaps) */
    uint64_t pruned_cost;
    bool from_initial;       /* step 3 kept the (pruned) initial cover: it was better */
    uint32_t in_play;        /* candidates left for the exact search */
    bool exact_tried;        /* step 4 ran */
    bool optimal;            /* proven optimal (exact search finished) */
    uint64_t nodes;          /* search nodes used */
    uint32_t lower_bound;
};

void setcover_options_default(struct setcover_options *o);
void setcover_solve(const struct setcover_instance *in, const struct setcover_options *o,
                    struct setcover_result *res);
void setcover_result_free(struct setcover_result *res);

/* For each element, how many candidates of subset[0..n) cover it (counts has
 * nelements entries and is overwritten). */
void setcover_count(const struct setcover_instance *in, const uint32_t *subset, uint32_t n,
                    uint32_t *counts);

#endif

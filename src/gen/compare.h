/* compare: the k-path paper's central comparison, coverage against inputs
 * for the random and the k-path strategy on the same axes, and the same
 * against bytes written (how make bench judges suites: random inputs of
 * the same total size).
 *
 * Contract: from one set of generator options (its seed, depth, size and
 * packing limits, close-off, k), make n inputs with the random strategy and
 * n with the k-path strategy (keeping every input, as `kpath gen
 * --keep-redundant` does: no input is dropped or chosen afterwards), and
 * count after each one the k-paths of length k that it and the inputs
 * before it cover, as `kpath coverage` counts them: every k-path of every
 * parse tree of the input's text (the generator's own tree is one of them;
 * it alone counts when the text cannot be parsed within the default
 * limits).  The k-path strategy may finish before n inputs (every reachable
 * k-path covered): its curve then stays at its last value.
 *
 * The bytes axis runs from 0 to `span`, the larger of the two strategies'
 * total bytes after their n inputs; the strategy with fewer bytes goes on
 * making inputs (the same generator, so its first n are the same) until its
 * bytes reach span, it is done (k-path), or it made 100 x n inputs.  A
 * strategy's coverage at b bytes is that of its first inputs whose bytes
 * add up to at most b.  The same options give the same curves.  Memory: two
 * generators, two k-path sets and one tree at a time.
 *
 * Ownership: a gen_compare owns its arrays; free with gen_compare_free. */
#ifndef KPATH_GEN_COMPARE_H
#define KPATH_GEN_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "gen/gen.h"

enum { COMPARE_RANDOM, COMPARE_KPATH, COMPARE_NSTRATEGIES };

struct gen_compare {
    uint32_t k;
    size_t n;                   /* inputs asked of each strategy */
    size_t made[COMPARE_NSTRATEGIES]; /* inputs each made (kpath: may be fewer than n;
                                         more to reach span) */
    uint64_t total;             /* k-paths of the grammar (UINT64_MAX: saturated) */
    /* owned; [i] for i = 0 .. the larger of n and made: the k-paths and the
     * bytes of the first i inputs (past made, the values at made) */
    uint64_t *covered[COMPARE_NSTRATEGIES];
    uint64_t *bytes[COMPARE_NSTRATEGIES];
    uint64_t span;              /* the bytes axis: 0 .. span */
};

/* Returns false with *error (malloc'd) when a generator cannot start. */
bool gen_compare_run(const struct graph *g, const struct gen_options *opts, size_t n,
                     struct gen_compare *out, char **error);
void gen_compare_free(struct gen_compare *c);
const char *gen_compare_name(int strategy); /* "random", "kpath" */
/* k-paths the first i inputs (i <= n) of a strategy cover. */
uint64_t gen_compare_at_input(const struct gen_compare *c, int strategy, size_t i);
/* k-paths the first inputs of a strategy whose bytes add up to at most b cover. */
uint64_t gen_compare_at_bytes(const struct gen_compare *c, int strategy, uint64_t b);

#endif

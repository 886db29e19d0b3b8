/* compare: the k-path paper's central comparison, coverage against inputs
 * for the random and the k-path strategy on the same axes.
 *
 * Contract: from one set of generator options (its seed, depth and size
 * limits, close-off, k), make n inputs with the random strategy and n with
 * the k-path strategy (keeping every input, as `kpath gen --keep-redundant`
 * does: no input is dropped or chosen afterwards), and count after each one
 * the k-paths of length k that it and the inputs before it cover, as `kpath
 * coverage` counts them: every k-path of every parse tree of the input's
 * text (the generator's own tree is one of them; it alone counts when the
 * text cannot be parsed within the default limits).  The k-path strategy may finish before n inputs (every
 * reachable k-path covered): its curve then stays at its last value.  The
 * same options give the same curves.  Memory: two k-path sets and one tree
 * at a time besides the generators.
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
    size_t made[COMPARE_NSTRATEGIES]; /* inputs each made (kpath: may be fewer) */
    uint64_t total;             /* k-paths of the grammar (UINT64_MAX: saturated) */
    uint64_t *covered[COMPARE_NSTRATEGIES]; /* owned; [i], i = 0 .. n */
};

/* Returns false with *error (malloc'd) when a generator cannot start. */
bool gen_compare_run(const struct graph *g, const struct gen_options *opts, size_t n,
                     struct gen_compare *out, char **error);
void gen_compare_free(struct gen_compare *c);
const char *gen_compare_name(int strategy); /* "random", "kpath" */

#endif

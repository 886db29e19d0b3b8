/* growth: the coverage growth curve of a workspace's inputs.
 *
 * For k = 1 .. K and i = 0 .. n (n the number of inputs, in their order), the
 * number of k-paths the first i inputs cover, and the number of k-paths of
 * the grammar, and the same for expansions (expansion.h): the curve a tester reads to see whether more inputs still buy
 * coverage (the TUI plots it, `kpath coverage --growth` prints it).  A sample
 * counts every k-path of every tree of its forest, as coverage does
 * everywhere.  Pins are left aside: the curve is of the whole grammar, so it
 * does not change shape when a pin is set.
 *
 * The computation takes one pass over the inputs with one k-path set per k;
 * its memory is that of K coverage sets.
 *
 * Ownership: a coverage_growth owns its arrays; free with growth_free. */
#ifndef KPATH_GROWTH_H
#define KPATH_GROWTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workspace/workspace.h"

struct coverage_growth {
    uint32_t kmax;
    size_t ninputs;
    uint64_t *total;   /* owned; [k-1]: k-paths of the grammar, UINT64_MAX when
                          there are 2^64 or more (saturated) */
    uint64_t *covered; /* owned; [(k-1) * (ninputs + 1) + i]: k-paths the
                          first i inputs cover */
    uint64_t *expansions;     /* owned; [i]: expansions the first i inputs use */
    uint64_t expansions_total; /* the grammar's */
};

/* The curve of ws's inputs for k = 1 .. kmax (1 <= kmax <= KPATH_MAX_K). */
void growth_compute(const struct workspace *ws, uint32_t kmax, struct coverage_growth *out);
void growth_free(struct coverage_growth *g);
/* k-paths (k in 1 .. kmax) covered by the first i inputs (i <= ninputs). */
uint64_t growth_covered(const struct coverage_growth *g, uint32_t k, size_t i);
/* The same as a fraction in [0, 1]: 1 only when every k-path is covered,
 * and 1 when the grammar has no k-paths at all (nothing is left to cover). */
double growth_fraction(const struct coverage_growth *g, uint32_t k, size_t i);

#endif

/* rng: kpath's one source of randomness.
 *
 * Contract: xoshiro256** seeded through splitmix64; the same seed gives the
 * same sequence on every machine (only fixed-width integer arithmetic, no
 * floating point in the draws, no platform RNG).  Uniform draws below n use
 * rejection, so they are unbiased. */
#ifndef KPATH_RNG_H
#define KPATH_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform in [0, 1), 53 bits. */
double rng_uniform(struct rng *r);
/* Index i with probability weights[i] / sum(weights) (weights >= 0, sum > 0),
 * drawn with 53-bit resolution. */
uint32_t rng_weighted(struct rng *r, const double *weights, uint32_t n);

#endif

#include "base/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
    /* Reject the top partial block so every residue is equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = rng_next(r);
    } while (x >= limit);
    return x % n;
}

double rng_uniform(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint32_t rng_weighted(struct rng *r, const double *weights, uint32_t n)
{
    double total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += weights[i];
    double x = rng_uniform(r) * total;
    uint32_t last = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (weights[i] <= 0)
            continue;
        last = i;
        if (x < weights[i])
            return i;
        x -= weights[i];
    }
    return last; /* rounding left x at the very top */
}

/* saturate: 64-bit arithmetic that sticks at UINT64_MAX instead of wrapping.
 *
 * Contract: sat_add and sat_mul return the exact result when it fits in 64
 * bits and UINT64_MAX otherwise.  kpath reads UINT64_MAX as "infinite" in
 * graph metrics (METRIC_INFINITE) and as "more than 2^64" in counts (trees,
 * k-paths), so a saturated value keeps its meaning through further sums. */
#ifndef KPATH_SATURATE_H
#define KPATH_SATURATE_H

#include <stdint.h>

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

#endif

/* kpath: the space of k-paths of a grammar graph.
 *
 * A k-path is a sequence of k symbolic nodes, each a symbolic successor of the
 * one before (reached through synthetic nodes only); it may start anywhere.
 * k-paths are ordered lexicographically by their ids.  The space counts them by
 * dynamic programming (c_1(n) = 1, c_j(n) = sum of c_(j-1) over successors),
 * never by enumeration, and the same counts give a bijection between k-paths
 * and 0 .. total-1 (rank/unrank), so a set of k-paths is one bit per k-path.
 *
 * Counts are exact 64-bit integers that saturate at UINT64_MAX; `saturated`
 * says so, and then ranks do not exist and sets fall back to hashing paths.
 *
 * Ownership: a space borrows its graph; a set and an iterator borrow their
 * space.  Borrowed things must outlive the borrower. */
#ifndef KPATH_KPATH_H
#define KPATH_KPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/graph.h"

#define KPATH_MAX_K 1000u

struct kpath_space {
    const struct graph *graph;  /* borrowed */
    uint32_t k;
    uint64_t total;             /* |paths_k(G)|, saturated at UINT64_MAX */
    bool saturated;
    /* count[(j-1) * nsymbolic + s]: j-paths starting at symbolic node s, j = 1..k */
    uint64_t *count;
    /* start_prefix[s]: k-paths starting at symbolic nodes before s (rank base) */
    uint64_t *start_prefix;
    /* succ_prefix[(j-1) * nsuccessor_entries + e]: j-paths starting at the
     * successors listed before entry e in the same successor list */
    uint64_t *succ_prefix;
};

/* k from 1 to KPATH_MAX_K; returns false (and leaves sp empty) otherwise. */
bool kpath_space_init(struct kpath_space *sp, const struct graph *g, uint32_t k);
void kpath_space_free(struct kpath_space *sp);
/* Number of j-paths (1 <= j <= k) starting at symbolic node `id`. */
uint64_t kpath_count_from(const struct kpath_space *sp, uint32_t id, uint32_t j);

/* Is path[0..k) a k-path of the graph? */
bool kpath_is_valid(const struct graph *g, const uint32_t *path, uint32_t k);
/* The rank of a valid k-path; false for an invalid path or a saturated space. */
bool kpath_rank(const struct kpath_space *sp, const uint32_t *path, uint64_t *rank);
/* Ranking the k-paths that share their first k - 1 nodes (k >= 2) without
 * a search per path: kpath_rank_stem validates stem[0..k-1) and gives its
 * part of the rank (false as kpath_rank, or for k = 1); then the k-path
 * stem + graph_successors(g, stem[k-2])[j] has the rank
 * kpath_rank_extend(sp, part, stem[k-2], j).  The greedy close-off scores
 * every successor of a reference this way. */
bool kpath_rank_stem(const struct kpath_space *sp, const uint32_t *stem, uint64_t *part);
static inline uint64_t kpath_rank_extend(const struct kpath_space *sp, uint64_t part,
                                         uint32_t last, uint32_t j)
{
    return part + sp->succ_prefix[sp->graph->nodes[last].first_succ + j];
}
/* The k-path of rank r < total (not saturated) into path[0..k). */
void kpath_unrank(const struct kpath_space *sp, uint64_t r, uint32_t *path);

/* Streaming enumeration in lexicographic order; memory O(k).
 *   struct kpath_iter it; kpath_iter_init(&it, &sp);
 *   while (kpath_iter_next(&it)) use(it.path);
 *   kpath_iter_free(&it); */
struct kpath_iter {
    const struct kpath_space *sp;
    uint32_t *path;        /* owned; the current path, k ids */
    const uint32_t **list; /* owned; per level, the candidates */
    uint32_t *len;         /* owned; per level, how many */
    uint32_t *pos;         /* owned; per level, the current candidate */
    bool started, done;
    const bool *starts;    /* borrowed, optional: per node, may a path start there */
};

void kpath_iter_init(struct kpath_iter *it, const struct kpath_space *sp);
/* Only the k-paths whose first node n has starts[n] (set before iterating). */
static inline void kpath_iter_restrict(struct kpath_iter *it, const bool *starts)
{
    it->starts = starts;
}
bool kpath_iter_next(struct kpath_iter *it);
void kpath_iter_free(struct kpath_iter *it);

/* A set of k-paths of one space: a bitset indexed by rank when the space has at
 * most KPATH_SET_DENSE_LIMIT paths, a hash set of paths otherwise. */
#define KPATH_SET_DENSE_LIMIT (UINT64_C(1) << 30)

struct kpath_set_entry;

struct kpath_set {
    const struct kpath_space *sp;     /* borrowed */
    uint64_t *bits;                   /* owned; dense representation */
    struct kpath_set_entry *hash;     /* owned; sparse representation (uthash) */
    uint64_t size;                    /* number of k-paths in the set */
};

void kpath_set_init(struct kpath_set *set, const struct kpath_space *sp);
void kpath_set_free(struct kpath_set *set);
void kpath_set_clear(struct kpath_set *set);
/* Add a valid k-path; true when it was not in the set yet. */
bool kpath_set_add(struct kpath_set *set, const uint32_t *path);
bool kpath_set_contains(const struct kpath_set *set, const uint32_t *path);
/* Remove a k-path; true when it was in the set. */
bool kpath_set_remove(struct kpath_set *set, const uint32_t *path);
/* Membership by rank; only for dense sets (set->bits != NULL). */
static inline bool kpath_set_contains_rank(const struct kpath_set *set, uint64_t rank)
{
    return (set->bits[rank / 64] >> (rank % 64)) & 1;
}
/* dst |= src (same space). */
void kpath_set_union(struct kpath_set *dst, const struct kpath_set *src);
/* Call fn for each k-path in lexicographic order; stop early when fn returns false. */
void kpath_set_foreach(const struct kpath_set *set,
                       bool (*fn)(const uint32_t *path, void *ctx), void *ctx);
/* size / total, in [0, 1]; 1 for an empty space. */
double kpath_set_coverage(const struct kpath_set *set);

#endif

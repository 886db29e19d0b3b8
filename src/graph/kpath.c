#include "graph/kpath.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "base/saturate.h"
#include "base/xalloc.h"

static inline uint64_t count_at(const struct kpath_space *sp, uint32_t id, uint32_t j)
{
    const struct graph *g = sp->graph;
    return sp->count[(size_t)(j - 1) * g->nsymbolic + g->nodes[id].symbolic_index];
}

uint64_t kpath_count_from(const struct kpath_space *sp, uint32_t id, uint32_t j)
{
    return count_at(sp, id, j);
}

bool kpath_space_init(struct kpath_space *sp, const struct graph *g, uint32_t k)
{
    memset(sp, 0, sizeof *sp);
    if (k < 1 || k > KPATH_MAX_K)
        return false;
    sp->graph = g;
    sp->k = k;
    size_t S = g->nsymbolic, E = g->nsuccessor_entries;
    sp->count = xmalloc((k * S + 1) * sizeof *sp->count);
    sp->succ_prefix = xmalloc((k * E + 1) * sizeof *sp->succ_prefix);
    sp->start_prefix = xmalloc((S + 1) * sizeof *sp->start_prefix);

    /* Successor lists are shared between references to one rule; mark where
     * each list begins so prefix sums restart there. */
    bool *list_start = xcalloc(E + 1, sizeof *list_start);
    for (uint32_t i = 0; i < g->nnodes; i++)
        if (g->nodes[i].nsucc)
            list_start[g->nodes[i].first_succ] = true;

    for (size_t s = 0; s < S; s++)
        sp->count[s] = 1;
    for (uint32_t j = 1; j <= k; j++) {
        uint64_t *prefix = sp->succ_prefix + (size_t)(j - 1) * E;
        uint64_t run = 0;
        for (size_t e = 0; e < E; e++) {
            if (list_start[e])
                run = 0;
            prefix[e] = run;
            run = sat_add(run, count_at(sp, g->successors[e], j));
        }
        if (j == k)
            break;
        uint64_t *next = sp->count + (size_t)j * S;
        for (size_t s = 0; s < S; s++) {
            const struct graph_node *n = &g->nodes[g->symbolic[s]];
            if (!n->nsucc) {
                next[s] = 0;
                continue;
            }
            uint32_t last = n->first_succ + n->nsucc - 1;
            next[s] = sat_add(prefix[last], count_at(sp, g->successors[last], j));
        }
    }
    free(list_start);

    uint64_t total = 0;
    const uint64_t *top = sp->count + (size_t)(k - 1) * S;
    for (size_t s = 0; s < S; s++) {
        sp->start_prefix[s] = total;
        total = sat_add(total, top[s]);
    }
    sp->total = total;
    sp->saturated = total == UINT64_MAX;
    if (!sp->saturated) {
        /* A saturated partial count can hide inside an unsaturated total
         * only if some count saturated; check them all. */
        for (size_t i = 0; i < k * S; i++)
            if (sp->count[i] == UINT64_MAX)
                sp->saturated = true;
    }
    return true;
}

void kpath_space_free(struct kpath_space *sp)
{
    free(sp->count);
    free(sp->succ_prefix);
    free(sp->start_prefix);
    memset(sp, 0, sizeof *sp);
}

/* Position of `id` in the sorted successor list of `from`, or UINT32_MAX. */
static uint32_t successor_position(const struct graph *g, uint32_t from, uint32_t id)
{
    const struct graph_node *n = &g->nodes[from];
    const uint32_t *list = g->successors + n->first_succ;
    uint32_t lo = 0, hi = n->nsucc;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (list[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n->nsucc && list[lo] == id ? n->first_succ + lo : UINT32_MAX;
}

bool kpath_is_valid(const struct graph *g, const uint32_t *path, uint32_t k)
{
    if (k < 1)
        return false;
    for (uint32_t i = 0; i < k; i++)
        if (path[i] >= g->nnodes || !node_kind_is_symbolic(g->nodes[path[i]].kind))
            return false;
    for (uint32_t i = 1; i < k; i++)
        if (successor_position(g, path[i - 1], path[i]) == UINT32_MAX)
            return false;
    return true;
}

bool kpath_rank(const struct kpath_space *sp, const uint32_t *path, uint64_t *rank)
{
    const struct graph *g = sp->graph;
    if (sp->saturated || path[0] >= g->nnodes || !node_kind_is_symbolic(g->nodes[path[0]].kind))
        return false;
    /* Validate and rank in one pass: each step's position in the sorted
     * successor list is both the check and the rank's term. */
    uint64_t r = sp->start_prefix[g->nodes[path[0]].symbolic_index];
    size_t E = g->nsuccessor_entries;
    for (uint32_t i = 1; i < sp->k; i++) {
        uint32_t e = successor_position(g, path[i - 1], path[i]);
        if (e == UINT32_MAX)
            return false;
        r += sp->succ_prefix[(size_t)(sp->k - i - 1) * E + e];
    }
    *rank = r;
    return true;
}

bool kpath_rank_stem(const struct kpath_space *sp, const uint32_t *stem, uint64_t *part)
{
    const struct graph *g = sp->graph;
    if (sp->saturated || sp->k < 2 || stem[0] >= g->nnodes ||
        !node_kind_is_symbolic(g->nodes[stem[0]].kind))
        return false;
    /* kpath_rank's sum without its last term, which kpath_rank_extend adds
     * from succ_prefix's first row (1-paths: one per successor). */
    uint64_t r = sp->start_prefix[g->nodes[stem[0]].symbolic_index];
    size_t E = g->nsuccessor_entries;
    for (uint32_t i = 1; i + 1 < sp->k; i++) {
        uint32_t e = successor_position(g, stem[i - 1], stem[i]);
        if (e == UINT32_MAX)
            return false;
        r += sp->succ_prefix[(size_t)(sp->k - i - 1) * E + e];
    }
    *part = r;
    return true;
}

/* Largest index i in [0, n) with prefix[i] <= r. */
static uint32_t last_at_most(const uint64_t *prefix, uint32_t n, uint64_t r)
{
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (prefix[mid] <= r)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void kpath_unrank(const struct kpath_space *sp, uint64_t r, uint32_t *path)
{
    const struct graph *g = sp->graph;
    size_t E = g->nsuccessor_entries;
    uint32_t s = last_at_most(sp->start_prefix, g->nsymbolic, r);
    r -= sp->start_prefix[s];
    path[0] = g->symbolic[s];
    for (uint32_t i = 1; i < sp->k; i++) {
        uint32_t j = sp->k - i;
        const struct graph_node *n = &g->nodes[path[i - 1]];
        const uint64_t *prefix = sp->succ_prefix + (size_t)(j - 1) * E + n->first_succ;
        uint32_t e = last_at_most(prefix, n->nsucc, r);
        r -= prefix[e];
        path[i] = g->successors[n->first_succ + e];
    }
}

/* ---- enumeration --------------------------------------------------------- */

void kpath_iter_init(struct kpath_iter *it, const struct kpath_space *sp)
{
    uint32_t k = sp->k;
    it->sp = sp;
    it->path = xcalloc(k, sizeof *it->path);
    it->list = xcalloc(k, sizeof *it->list);
    it->len = xcalloc(k, sizeof *it->len);
    it->pos = xcalloc(k, sizeof *it->pos);
    it->list[0] = sp->graph->symbolic;
    it->len[0] = sp->graph->nsymbolic;
    it->pos[0] = UINT32_MAX; /* "before the first"; ++ wraps to 0 */
    it->started = false;
    it->done = sp->total == 0;
    it->starts = NULL;
}

bool kpath_iter_next(struct kpath_iter *it)
{
    if (it->done)
        return false;
    const struct kpath_space *sp = it->sp;
    const struct graph *g = sp->graph;
    uint32_t k = sp->k;
    uint32_t level = it->started ? k - 1 : 0;
    it->started = true;
    for (;;) {
        uint32_t remaining = k - level;
        uint32_t p = it->pos[level] + 1;
        /* Skip candidates that start no path of the remaining length, so the
         * walk never enters a dead end. */
        while (p < it->len[level] && (count_at(sp, it->list[level][p], remaining) == 0 ||
                                      (level == 0 && it->starts && !it->starts[it->list[0][p]])))
            p++;
        if (p >= it->len[level]) {
            if (level == 0) {
                it->done = true;
                return false;
            }
            level--;
            continue;
        }
        it->pos[level] = p;
        uint32_t id = it->list[level][p];
        it->path[level] = id;
        if (level == k - 1)
            return true;
        level++;
        it->list[level] = graph_successors(g, id);
        it->len[level] = g->nodes[id].nsucc;
        it->pos[level] = UINT32_MAX;
    }
}

void kpath_iter_free(struct kpath_iter *it)
{
    free(it->path);
    free(it->list);
    free(it->len);
    free(it->pos);
    memset(it, 0, sizeof *it);
}

/* ---- sets ---------------------------------------------------------------- */

struct kpath_set_entry {
    UT_hash_handle hh;
    uint32_t k;
    uint32_t path[]; /* k ids; the hash key */
};

static bool is_dense(const struct kpath_space *sp)
{
    return !sp->saturated && sp->total <= KPATH_SET_DENSE_LIMIT;
}

void kpath_set_init(struct kpath_set *set, const struct kpath_space *sp)
{
    memset(set, 0, sizeof *set);
    set->sp = sp;
    if (is_dense(sp))
        set->bits = xcalloc((size_t)(sp->total / 64 + 1), sizeof *set->bits);
}

void kpath_set_clear(struct kpath_set *set)
{
    if (set->bits)
        memset(set->bits, 0, (size_t)(set->sp->total / 64 + 1) * sizeof *set->bits);
    struct kpath_set_entry *e, *tmp;
    HASH_ITER(hh, set->hash, e, tmp) {
        HASH_DEL(set->hash, e);
        free(e);
    }
    set->size = 0;
}

void kpath_set_free(struct kpath_set *set)
{
    kpath_set_clear(set);
    free(set->bits);
    memset(set, 0, sizeof *set);
}

bool kpath_set_add(struct kpath_set *set, const uint32_t *path)
{
    const struct kpath_space *sp = set->sp;
    if (set->bits) {
        uint64_t r;
        if (!kpath_rank(sp, path, &r))
            return false;
        uint64_t mask = UINT64_C(1) << (r % 64);
        if (set->bits[r / 64] & mask)
            return false;
        set->bits[r / 64] |= mask;
        set->size++;
        return true;
    }
    size_t keylen = sp->k * sizeof(uint32_t);
    struct kpath_set_entry *found;
    HASH_FIND(hh, set->hash, path, keylen, found);
    if (found)
        return false;
    struct kpath_set_entry *e = xmalloc(sizeof *e + keylen);
    e->k = sp->k;
    memcpy(e->path, path, keylen);
    HASH_ADD(hh, set->hash, path, keylen, e);
    set->size++;
    return true;
}

bool kpath_set_contains(const struct kpath_set *set, const uint32_t *path)
{
    const struct kpath_space *sp = set->sp;
    if (set->bits) {
        uint64_t r;
        return kpath_rank(sp, path, &r) && (set->bits[r / 64] >> (r % 64)) & 1;
    }
    struct kpath_set_entry *found;
    HASH_FIND(hh, set->hash, path, sp->k * sizeof(uint32_t), found);
    return found != NULL;
}

bool kpath_set_remove(struct kpath_set *set, const uint32_t *path)
{
    const struct kpath_space *sp = set->sp;
    if (set->bits) {
        uint64_t r;
        if (!kpath_rank(sp, path, &r) || !((set->bits[r / 64] >> (r % 64)) & 1))
            return false;
        set->bits[r / 64] &= ~(UINT64_C(1) << (r % 64));
        set->size--;
        return true;
    }
    struct kpath_set_entry *found;
    HASH_FIND(hh, set->hash, path, sp->k * sizeof(uint32_t), found);
    if (!found)
        return false;
    HASH_DEL(set->hash, found);
    free(found);
    set->size--;
    return true;
}

static unsigned popcount64(uint64_t x)
{
    return (unsigned)__builtin_popcountll(x);
}

void kpath_set_union(struct kpath_set *dst, const struct kpath_set *src)
{
    if (dst->bits && src->bits) {
        size_t words = (size_t)(dst->sp->total / 64 + 1);
        uint64_t size = 0;
        for (size_t w = 0; w < words; w++) {
            dst->bits[w] |= src->bits[w];
            size += popcount64(dst->bits[w]);
        }
        dst->size = size;
        return;
    }
    struct kpath_set_entry *e, *tmp;
    HASH_ITER(hh, src->hash, e, tmp) {
        kpath_set_add(dst, e->path);
    }
}

static int compare_paths(const void *a, const void *b)
{
    const struct kpath_set_entry *ea = *(struct kpath_set_entry *const *)a;
    const uint32_t *x = ea->path;
    const uint32_t *y = (*(struct kpath_set_entry *const *)b)->path;
    for (uint32_t i = 0; i < ea->k; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

void kpath_set_foreach(const struct kpath_set *set,
                       bool (*fn)(const uint32_t *path, void *ctx), void *ctx)
{
    const struct kpath_space *sp = set->sp;
    if (set->bits) {
        uint32_t *path = xmalloc(sp->k * sizeof *path);
        size_t words = (size_t)(sp->total / 64 + 1);
        for (size_t w = 0; w < words; w++) {
            uint64_t bits = set->bits[w];
            while (bits) {
                unsigned b = (unsigned)__builtin_ctzll(bits);
                bits &= bits - 1;
                kpath_unrank(sp, (uint64_t)w * 64 + b, path);
                if (!fn(path, ctx)) {
                    free(path);
                    return;
                }
            }
        }
        free(path);
        return;
    }
    size_t n = HASH_COUNT(set->hash), i = 0;
    struct kpath_set_entry **all = xmalloc((n + 1) * sizeof *all);
    struct kpath_set_entry *e, *tmp;
    HASH_ITER(hh, set->hash, e, tmp) {
        all[i++] = e;
    }
    qsort(all, n, sizeof *all, compare_paths);
    for (i = 0; i < n; i++)
        if (!fn(all[i]->path, ctx))
            break;
    free(all);
}

double kpath_set_coverage(const struct kpath_set *set)
{
    if (set->sp->total == 0)
        return 1.0;
    return (double)set->size / (double)set->sp->total;
}

#include "algo/setcover.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* Above this many candidates in play, dominance (a quadratic pass) is skipped. */
#define DOMINANCE_LIMIT 2048u
/* Swaps for cheaper candidates: at most this many (each lowers the cost). */
#define SWAP_PASS_LIMIT 10000u

void setcover_options_default(struct setcover_options *o)
{
    o->exact_limit = SETCOVER_DEFAULT_EXACT_LIMIT;
    o->node_limit = SETCOVER_DEFAULT_NODE_LIMIT;
    o->initial = NULL;
    o->ninitial = 0;
}

void setcover_result_free(struct setcover_result *res)
{
    free(res->chosen);
    res->chosen = NULL;
    res->nchosen = 0;
}

void setcover_count(const struct setcover_instance *in, const uint32_t *subset, uint32_t n,
                    uint32_t *counts)
{
    memset(counts, 0, (size_t)in->nelements * sizeof *counts);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = subset[i];
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            counts[in->elements[c][j]]++;
    }
}

/* Element -> the candidates covering it, as compressed rows. */
struct by_element {
    uint32_t *start; /* nelements + 1 */
    uint32_t *cand;
};

static void by_element_build(const struct setcover_instance *in, struct by_element *be)
{
    be->start = xcalloc((size_t)in->nelements + 1, sizeof *be->start);
    for (uint32_t c = 0; c < in->ncandidates; c++)
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            be->start[in->elements[c][j] + 1]++;
    for (uint32_t e = 0; e < in->nelements; e++)
        be->start[e + 1] += be->start[e];
    be->cand = xmalloc(((size_t)be->start[in->nelements] + 1) * sizeof *be->cand);
    uint32_t *fill = xmalloc(((size_t)in->nelements + 1) * sizeof *fill);
    memcpy(fill, be->start, (size_t)in->nelements * sizeof *fill);
    for (uint32_t c = 0; c < in->ncandidates; c++)
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            be->cand[fill[in->elements[c][j]]++] = c;
    free(fill);
}

static void by_element_free(struct by_element *be)
{
    free(be->start);
    free(be->cand);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- lower bound ----------------------------------------------------------- */


static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Elements pairwise without a common candidate, taken rarest first: each
 * needs its own candidate in any cover. */
static uint32_t packing_bound(const struct setcover_instance *in, const struct by_element *be)
{
    /* (number of candidates << 32 | element): rarest first, then by id */
    uint64_t *order = xmalloc(((size_t)in->nelements + 1) * sizeof *order);
    uint32_t n = 0;
    for (uint32_t e = 0; e < in->nelements; e++)
        if (be->start[e + 1] > be->start[e])
            order[n++] = (uint64_t)(be->start[e + 1] - be->start[e]) << 32 | e;
    qsort(order, n, sizeof *order, cmp_u64);
    bool *used = xcalloc((size_t)in->ncandidates + 1, sizeof *used);
    uint32_t bound = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t e = (uint32_t)order[i];
        bool free_of_used = true;
        for (uint32_t j = be->start[e]; j < be->start[e + 1] && free_of_used; j++)
            free_of_used = !used[be->cand[j]];
        if (!free_of_used)
            continue;
        bound++;
        for (uint32_t j = be->start[e]; j < be->start[e + 1]; j++)
            used[be->cand[j]] = true;
    }
    free(used);
    free(order);
    return bound;
}

/* ---- greedy and redundancy removal ----------------------------------------- */

/* The greedy step's queue: candidates by (gain, descending; cost,
 * ascending; index, ascending), a binary max-heap.  Gains only fall as
 * elements get covered, so greedy is lazy: the top's gain is recounted when
 * it is taken, and it is picked when it still beats the next one, else put
 * back with its new gain.  That picks exactly what recounting every
 * candidate each round would (the same order decides ties), but a round
 * costs the candidates whose gain changed, not all of them: near-linear in
 * the candidates' element lists instead of rounds x lists. */
struct gain_heap {
    uint32_t *cand;
    uint32_t *gain; /* per candidate: its gain when it was last pushed */
    uint32_t len;
    const uint64_t *cost;
};

static bool ranks_before(const struct gain_heap *h, uint32_t a, uint32_t b)
{
    if (h->gain[a] != h->gain[b])
        return h->gain[a] > h->gain[b];
    if (h->cost[a] != h->cost[b])
        return h->cost[a] < h->cost[b];
    return a < b;
}

static void gain_heap_push(struct gain_heap *h, uint32_t c)
{
    uint32_t i = h->len++;
    while (i > 0 && ranks_before(h, c, h->cand[(i - 1) / 2])) {
        h->cand[i] = h->cand[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->cand[i] = c;
}

static uint32_t gain_heap_pop(struct gain_heap *h)
{
    uint32_t top = h->cand[0], last = h->cand[--h->len], i = 0;
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= h->len)
            break;
        if (child + 1 < h->len && ranks_before(h, h->cand[child + 1], h->cand[child]))
            child++;
        if (!ranks_before(h, h->cand[child], last))
            break;
        h->cand[i] = h->cand[child];
        i = child;
    }
    if (h->len)
        h->cand[i] = last;
    return top;
}

/* Greedy from the candidates already in chosen[0..*n): appends picks, each
 * the candidate covering the most uncovered elements (ties: the cheaper,
 * then the earlier). */
static void greedy(const struct setcover_instance *in, uint32_t *chosen, uint32_t *n)
{
    bool *covered = xcalloc((size_t)in->nelements + 1, sizeof *covered);
    bool *taken = xcalloc((size_t)in->ncandidates + 1, sizeof *taken);
    for (uint32_t i = 0; i < *n; i++) {
        uint32_t c = chosen[i];
        taken[c] = true;
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            covered[in->elements[c][j]] = true;
    }
    struct gain_heap h = {
        .cand = xmalloc(((size_t)in->ncandidates + 1) * sizeof *h.cand),
        .gain = xcalloc((size_t)in->ncandidates + 1, sizeof *h.gain),
        .cost = in->cost,
    };
    for (uint32_t c = 0; c < in->ncandidates; c++) {
        if (taken[c])
            continue;
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            h.gain[c] += !covered[in->elements[c][j]];
        if (h.gain[c])
            gain_heap_push(&h, c);
    }
    while (h.len) {
        uint32_t c = gain_heap_pop(&h), gain = 0;
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            gain += !covered[in->elements[c][j]];
        if (gain != h.gain[c]) {
            h.gain[c] = gain; /* fell: back into the queue at its place */
            if (gain)
                gain_heap_push(&h, c);
            continue;
        }
        taken[c] = true;
        chosen[(*n)++] = c;
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            covered[in->elements[c][j]] = true;
    }
    free(h.cand);
    free(h.gain);
    free(taken);
    free(covered);
}

struct by_cost {
    uint64_t cost;
    uint32_t cand;
};

/* Costliest first; on equal cost the later first, so earlier inputs stay. */
static int cmp_cost_desc(const void *a, const void *b)
{
    const struct by_cost *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->cand > y->cand ? -1 : x->cand < y->cand;
}

/* Drop chosen candidates all of whose elements another chosen one covers,
 * costliest first. */
static void remove_redundant(const struct setcover_instance *in, uint32_t *chosen, uint32_t *n)
{
    uint32_t *counts = xmalloc(((size_t)in->nelements + 1) * sizeof *counts);
    setcover_count(in, chosen, *n, counts);
    struct by_cost *order = xmalloc(((size_t)*n + 1) * sizeof *order);
    for (uint32_t i = 0; i < *n; i++)
        order[i] = (struct by_cost){in->cost[chosen[i]], chosen[i]};
    qsort(order, *n, sizeof *order, cmp_cost_desc);
    bool *dropped = xcalloc((size_t)in->ncandidates + 1, sizeof *dropped);
    for (uint32_t i = 0; i < *n; i++) {
        uint32_t c = order[i].cand;
        bool redundant = true;
        for (uint32_t j = 0; j < in->nelems[c] && redundant; j++)
            redundant = counts[in->elements[c][j]] >= 2;
        if (!redundant)
            continue;
        dropped[c] = true;
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            counts[in->elements[c][j]]--;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < *n; i++)
        if (!dropped[chosen[i]])
            chosen[m++] = chosen[i];
    *n = m;
    free(dropped);
    free(order);
    free(counts);
}

/* Does candidate d cover every element of c that `counts` (over the chosen
 * candidates) says only c covers? */
static bool covers_unique(const struct setcover_instance *in, const uint32_t *counts, uint32_t c,
                          uint32_t d)
{
    const uint32_t *x = in->elements[c], *y = in->elements[d];
    uint32_t j = 0, ny = in->nelems[d];
    for (uint32_t i = 0; i < in->nelems[c]; i++) {
        if (counts[x[i]] != 1)
            continue;
        while (j < ny && y[j] < x[i])
            j++;
        if (j == ny || y[j] != x[i])
            return false;
    }
    return true;
}

/* Replace a chosen candidate by a cheaper one that covers what only it
 * covers, the cheapest such, in one pass over the chosen ones (counts kept
 * up to date swap by swap), and pass again while a pass swapped; then drop
 * what became redundant.  The total cost falls with every swap, so this
 * ends.  Only candidates holding one element that only c covers can
 * replace c: the search looks at those alone (by_element), so a pass costs
 * the chosen candidates' neighbourhoods, not chosen x all candidates. */
static void swap_cheaper(const struct setcover_instance *in, const struct by_element *be,
                         uint32_t *chosen, uint32_t *n)
{
    uint32_t *counts = xmalloc(((size_t)in->nelements + 1) * sizeof *counts);
    bool *is_chosen = xcalloc((size_t)in->ncandidates + 1, sizeof *is_chosen);
    bool swapped = true;
    for (uint32_t pass = 0; swapped && pass < SWAP_PASS_LIMIT; pass++) {
        swapped = false;
        setcover_count(in, chosen, *n, counts);
        memset(is_chosen, 0, (size_t)in->ncandidates * sizeof *is_chosen);
        for (uint32_t i = 0; i < *n; i++)
            is_chosen[chosen[i]] = true;
        for (uint32_t i = 0; i < *n; i++) {
            uint32_t c = chosen[i], best = UINT32_MAX, unique = UINT32_MAX;
            for (uint32_t j = 0; j < in->nelems[c] && unique == UINT32_MAX; j++)
                if (counts[in->elements[c][j]] == 1)
                    unique = in->elements[c][j];
            if (unique == UINT32_MAX)
                continue; /* redundant: remove_redundant drops it */
            for (uint32_t j = be->start[unique]; j < be->start[unique + 1]; j++) {
                uint32_t d = be->cand[j];
                if (is_chosen[d] || in->cost[d] >= in->cost[c] ||
                    (best != UINT32_MAX && (in->cost[d] > in->cost[best] ||
                                            (in->cost[d] == in->cost[best] && d > best))))
                    continue;
                if (covers_unique(in, counts, c, d))
                    best = d;
            }
            if (best == UINT32_MAX)
                continue;
            for (uint32_t j = 0; j < in->nelems[c]; j++)
                counts[in->elements[c][j]]--;
            for (uint32_t j = 0; j < in->nelems[best]; j++)
                counts[in->elements[best][j]]++;
            is_chosen[c] = false;
            is_chosen[best] = true;
            chosen[i] = best;
            swapped = true;
        }
        if (swapped)
            remove_redundant(in, chosen, n);
    }
    free(is_chosen);
    free(counts);
}

static uint64_t total_cost(const struct setcover_instance *in, const uint32_t *chosen, uint32_t n)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += in->cost[chosen[i]];
    return sum;
}

/* ---- exact branch and bound ------------------------------------------------ */

struct search {
    const struct setcover_instance *in;
    const struct by_element *be;
    const bool *in_play;      /* per candidate */
    uint32_t *cover_count;    /* per element: picked candidates covering it */
    const bool *needed;       /* per element: must be covered by the search */
    uint32_t uncovered;
    bool *blocked;            /* per candidate: picked, or excluded on this branch */
    uint32_t *picked;
    uint32_t npicked;
    uint64_t picked_cost;
    uint32_t *best;
    uint32_t nbest;
    uint64_t best_cost;
    uint64_t nodes, node_limit;
    bool aborted;
};

static uint32_t gain_of(const struct search *s, uint32_t c)
{
    uint32_t gain = 0;
    for (uint32_t j = 0; j < s->in->nelems[c]; j++) {
        uint32_t e = s->in->elements[c][j];
        gain += s->needed[e] && s->cover_count[e] == 0;
    }
    return gain;
}

static void pick(struct search *s, uint32_t c, int delta)
{
    for (uint32_t j = 0; j < s->in->nelems[c]; j++) {
        uint32_t e = s->in->elements[c][j];
        if (!s->needed[e])
            continue;
        if (delta > 0 && s->cover_count[e]++ == 0)
            s->uncovered--;
        else if (delta < 0 && --s->cover_count[e] == 0)
            s->uncovered++;
    }
}

/* Depth is at most the number of candidates in play (<= exact_limit). */
static void search_node(struct search *s)
{
    if (s->aborted)
        return;
    if (++s->nodes > s->node_limit) {
        s->aborted = true;
        return;
    }
    if (s->uncovered == 0) {
        if (s->npicked < s->nbest || (s->npicked == s->nbest && s->picked_cost < s->best_cost)) {
            memcpy(s->best, s->picked, (size_t)s->npicked * sizeof *s->best);
            s->nbest = s->npicked;
            s->best_cost = s->picked_cost;
        }
        return;
    }
    uint32_t max_gain = 0;
    for (uint32_t c = 0; c < s->in->ncandidates; c++)
        if (s->in_play[c] && !s->blocked[c]) {
            uint32_t g = gain_of(s, c);
            if (g > max_gain)
                max_gain = g;
        }
    if (max_gain == 0)
        return; /* the excluded candidates were the only way */
    uint32_t bound = s->npicked + (s->uncovered + max_gain - 1) / max_gain;
    if (bound > s->nbest || (bound == s->nbest && s->picked_cost >= s->best_cost))
        return;
    /* Branch on the uncovered element with the fewest open candidates. */
    uint32_t branch = UINT32_MAX, fewest = UINT32_MAX;
    for (uint32_t e = 0; e < s->in->nelements && fewest > 1; e++) {
        if (!s->needed[e] || s->cover_count[e])
            continue;
        uint32_t open = 0;
        for (uint32_t j = s->be->start[e]; j < s->be->start[e + 1]; j++) {
            uint32_t c = s->be->cand[j];
            open += s->in_play[c] && !s->blocked[c];
        }
        if (open < fewest) {
            fewest = open;
            branch = e;
        }
    }
    if (fewest == 0)
        return;
    /* Each candidate of the element in turn; on later branches the earlier
     * ones are excluded, so no subset is searched twice. */
    uint32_t first = s->be->start[branch], end = s->be->start[branch + 1];
    for (uint32_t j = first; j < end && !s->aborted; j++) {
        uint32_t c = s->be->cand[j];
        if (!s->in_play[c] || s->blocked[c])
            continue;
        s->blocked[c] = true;
        s->picked[s->npicked++] = c;
        s->picked_cost += s->in->cost[c];
        pick(s, c, +1);
        search_node(s);
        pick(s, c, -1);
        s->picked_cost -= s->in->cost[c];
        s->npicked--;
        /* stays blocked (excluded) for the remaining siblings */
    }
    for (uint32_t j = first; j < end; j++)
        if (s->in_play[s->be->cand[j]])
            s->blocked[s->be->cand[j]] = false;
}

/* Is every needed element of a also one of b? (sorted lists) */
static bool needed_subset(const struct setcover_instance *in, const bool *needed, uint32_t a,
                          uint32_t b)
{
    const uint32_t *x = in->elements[a], *y = in->elements[b];
    uint32_t i = 0, j = 0, nx = in->nelems[a], ny = in->nelems[b];
    for (; i < nx; i++) {
        if (!needed[x[i]])
            continue;
        while (j < ny && y[j] < x[i])
            j++;
        if (j == ny || y[j] != x[i])
            return false;
    }
    return true;
}

/* ---- the whole solve ------------------------------------------------------- */

void setcover_solve(const struct setcover_instance *in, const struct setcover_options *o,
                    struct setcover_result *res)
{
    memset(res, 0, sizeof *res);
    struct by_element be;
    by_element_build(in, &be);
    uint32_t *chosen = xmalloc(((size_t)in->ncandidates + 1) * sizeof *chosen);
    uint32_t n = 0;

    /* 1. essential candidates */
    bool *essential = xcalloc((size_t)in->ncandidates + 1, sizeof *essential);
    for (uint32_t e = 0; e < in->nelements; e++)
        if (be.start[e + 1] - be.start[e] == 1)
            essential[be.cand[be.start[e]]] = true;
    for (uint32_t c = 0; c < in->ncandidates; c++)
        if (essential[c])
            chosen[n++] = c;
    res->essential = n;

    /* 2. greedy, 3. redundancy removal */
    greedy(in, chosen, &n);
    res->greedy_count = n;
    res->greedy_cost = total_cost(in, chosen, n);
    remove_redundant(in, chosen, &n);
    swap_cheaper(in, &be, chosen, &n);
    if (o->initial && o->ninitial) {
        uint32_t *from = xmalloc(((size_t)o->ninitial + 1) * sizeof *from);
        memcpy(from, o->initial, (size_t)o->ninitial * sizeof *from);
        uint32_t m = o->ninitial;
        remove_redundant(in, from, &m);
        swap_cheaper(in, &be, from, &m);
        if (m < n || (m == n && total_cost(in, from, m) < total_cost(in, chosen, n))) {
            memcpy(chosen, from, (size_t)m * sizeof *chosen);
            n = m;
            res->from_initial = true;
        }
        free(from);
    }
    res->pruned_count = n;
    res->pruned_cost = total_cost(in, chosen, n);

    /* The lower bound: packing, or what is left after the essential ones
     * divided by the largest candidate. */
    bool *needed = xcalloc((size_t)in->nelements + 1, sizeof *needed);
    uint32_t *counts = xmalloc(((size_t)in->nelements + 1) * sizeof *counts);
    uint32_t *ess_list = xmalloc(((size_t)in->ncandidates + 1) * sizeof *ess_list);
    uint32_t ness = 0;
    for (uint32_t c = 0; c < in->ncandidates; c++)
        if (essential[c])
            ess_list[ness++] = c;
    setcover_count(in, ess_list, ness, counts);
    uint32_t left = 0;
    for (uint32_t e = 0; e < in->nelements; e++) {
        needed[e] = counts[e] == 0 && be.start[e + 1] > be.start[e];
        left += needed[e];
    }
    bool *in_play = xcalloc((size_t)in->ncandidates + 1, sizeof *in_play);
    uint32_t *left_of = xcalloc((size_t)in->ncandidates + 1, sizeof *left_of);
    uint32_t max_left = 0;
    for (uint32_t c = 0; c < in->ncandidates; c++) {
        if (essential[c])
            continue;
        uint32_t g = 0;
        for (uint32_t j = 0; j < in->nelems[c]; j++)
            g += needed[in->elements[c][j]];
        if (g > max_left)
            max_left = g;
        in_play[c] = g > 0;
        left_of[c] = g;
        res->in_play += in_play[c];
    }
    uint32_t simple = ness + (max_left ? (left + max_left - 1) / max_left : 0);
    uint32_t packing = packing_bound(in, &be);
    res->lower_bound = packing > simple ? packing : simple;

    /* 4. exact search on what is left, after dominance */
    if (res->in_play <= DOMINANCE_LIMIT && res->in_play > 0) {
        for (uint32_t a = 0; a < in->ncandidates; a++) {
            if (!in_play[a])
                continue;
            for (uint32_t b = 0; b < in->ncandidates && in_play[a]; b++) {
                if (b == a || !in_play[b] || in->cost[b] > in->cost[a] ||
                    left_of[b] < left_of[a])
                    continue;
                if (!needed_subset(in, needed, a, b))
                    continue;
                /* b covers all a does at no more cost; on a tie of both,
                 * the earlier stays */
                bool same = left_of[b] == left_of[a] && in->cost[b] == in->cost[a];
                if (!same || b < a) {
                    in_play[a] = false;
                    res->in_play--;
                }
            }
        }
    }
    if (res->in_play > 0 && o->exact_limit > 0 &&
        res->in_play <= o->exact_limit && o->exact_limit <= SETCOVER_MAX_EXACT_LIMIT) {
        res->exact_tried = true;
        struct search s = {
            .in = in, .be = &be, .in_play = in_play, .needed = needed, .uncovered = left,
            .node_limit = o->node_limit,
        };
        s.cover_count = xcalloc((size_t)in->nelements + 1, sizeof *s.cover_count);
        s.blocked = xcalloc((size_t)in->ncandidates + 1, sizeof *s.blocked);
        s.picked = xmalloc(((size_t)in->ncandidates + 1) * sizeof *s.picked);
        s.best = xmalloc(((size_t)in->ncandidates + 1) * sizeof *s.best);
        /* The incumbent: the pruned cover (greedy's or the initial one) without
         * its essential part (every cover holds them all). */
        s.nbest = n - ness;
        s.best_cost = res->pruned_cost - total_cost(in, ess_list, ness);
        uint32_t before = s.nbest;
        uint64_t before_cost = s.best_cost;
        search_node(&s);
        res->nodes = s.nodes;
        res->optimal = !s.aborted;
        if (s.nbest < before || (s.nbest == before && s.best_cost < before_cost)) {
            memcpy(chosen, ess_list, (size_t)ness * sizeof *chosen);
            memcpy(chosen + ness, s.best, (size_t)s.nbest * sizeof *chosen);
            n = ness + s.nbest;
        }
        if (res->optimal)
            res->lower_bound = n;
        free(s.cover_count);
        free(s.blocked);
        free(s.picked);
        free(s.best);
    } else if (res->in_play == 0) {
        res->optimal = true; /* the essential candidates cover everything */
    }
    qsort(chosen, n, sizeof *chosen, cmp_u32);
    res->chosen = chosen;
    res->nchosen = n;
    res->cost = total_cost(in, chosen, n);
    free(in_play);
    free(left_of);
    free(ess_list);
    free(counts);
    free(needed);
    free(essential);
    by_element_free(&be);
}

/* setcover: greedy is beaten where it is known to be suboptimal, the result
 * always covers everything and is irredundant, and the exact search agrees
 * with brute force over every subset of small random instances. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/rng.h"
#include "algo/setcover.h"

struct inst {
    struct setcover_instance in;
    uint32_t *lists[16];
    uint32_t lens[16];
    uint64_t costs[16];
};

/* Candidate c covers the elements whose bit is set in masks[c]. */
static void inst_make(struct inst *t, uint32_t n, uint32_t nelements, const uint32_t *masks,
                      const uint64_t *costs)
{
    for (uint32_t c = 0; c < n; c++) {
        t->lists[c] = malloc(32 * sizeof(uint32_t));
        t->lens[c] = 0;
        for (uint32_t e = 0; e < nelements; e++)
            if (masks[c] >> e & 1)
                t->lists[c][t->lens[c]++] = e;
        t->costs[c] = costs ? costs[c] : 1;
    }
    t->in = (struct setcover_instance){n, nelements, t->costs,
                                       (const uint32_t *const *)t->lists, t->lens};
}

static void inst_free(struct inst *t)
{
    for (uint32_t c = 0; c < t->in.ncandidates; c++)
        free(t->lists[c]);
}

static uint32_t mask_of(const struct inst *t, const uint32_t *chosen, uint32_t n,
                        const uint32_t *masks)
{
    (void)t;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        m |= masks[chosen[i]];
    return m;
}

static bool irredundant(const uint32_t *chosen, uint32_t n, const uint32_t *masks)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t others = 0;
        for (uint32_t j = 0; j < n; j++)
            if (j != i)
                others |= masks[chosen[j]];
        if ((masks[chosen[i]] & ~others) == 0)
            return false;
    }
    return true;
}

/* Elements 0..6 form T1, 7..13 T2 (the optimum: 2).  S1 = {0..3, 7..10}
 * is larger than either, so greedy takes it, then S2 = {4,5,11,12}, then
 * S3 = {6,13}: three, none redundant. */
TEST(setcover_exact_beats_greedy_on_the_classic_instance)
{
    const uint32_t masks[] = {
        0x7fu,                               /* T1 */
        0x7fu << 7,                          /* T2 */
        0x0fu | 0x0fu << 7,                  /* S1 */
        0x30u | 0x30u << 7,                  /* S2 */
        0x40u | 0x40u << 7,                  /* S3 */
    };
    struct inst t;
    inst_make(&t, 5, 14, masks, NULL);
    struct setcover_options o;
    setcover_options_default(&o);
    struct setcover_result r;
    setcover_solve(&t.in, &o, &r);
    CHECK_INT(r.essential, 0);
    CHECK_INT(r.greedy_count, 3);
    CHECK_INT(r.pruned_count, 3); /* greedy's picks are not redundant here */
    CHECK(r.exact_tried);
    CHECK(r.optimal);
    CHECK_INT(r.nchosen, 2);
    CHECK_INT(r.chosen[0], 0);
    CHECK_INT(r.chosen[1], 1);
    CHECK_INT(r.lower_bound, 2);
    setcover_result_free(&r);

    /* Without the exact search: greedy's three, and a lower bound of 2
     * (elements 0 and 13 share no candidate). */
    o.exact_limit = 0;
    setcover_solve(&t.in, &o, &r);
    CHECK_INT(r.nchosen, 3);
    CHECK(!r.optimal);
    CHECK_INT(r.lower_bound, 2);
    setcover_result_free(&r);
    inst_free(&t);
}

/* An initial cover (issue 10.4: suite_min hands over greedy's suite) is a
 * floor: on the classic instance without the exact search, setcover's own
 * greedy takes S1, S2, S3 (three), but starting from {T1, T2} the result is
 * those two.  A worse initial cover is pruned first and loses to greedy's. */
TEST(setcover_initial_cover_is_never_beaten_by_its_own_greedy)
{
    const uint32_t masks[] = {
        0x7fu, 0x7fu << 7, 0x0fu | 0x0fu << 7, 0x30u | 0x30u << 7, 0x40u | 0x40u << 7,
    };
    struct inst t;
    inst_make(&t, 5, 14, masks, NULL);
    struct setcover_options o;
    setcover_options_default(&o);
    o.exact_limit = 0;
    const uint32_t best[] = {0, 1};
    o.initial = best;
    o.ninitial = 2;
    struct setcover_result r;
    setcover_solve(&t.in, &o, &r);
    CHECK(r.from_initial);
    CHECK_INT(r.greedy_count, 3);
    CHECK_INT(r.nchosen, 2);
    CHECK_INT(r.chosen[0], 0);
    CHECK_INT(r.chosen[1], 1);
    setcover_result_free(&r);

    /* {T1, S1, S2, S3}: S1, S2, S3 cover all of T1, and each alone covers
     * part of T2, so pruning drops T1 only: three, as many as greedy's
     * three at the same cost, so greedy's cover stays (a tie keeps it). */
    const uint32_t worse[] = {0, 2, 3, 4};
    o.initial = worse;
    o.ninitial = 4;
    setcover_solve(&t.in, &o, &r);
    CHECK(!r.from_initial);
    CHECK_INT(r.nchosen, 3);
    CHECK_INT(mask_of(&t, r.chosen, r.nchosen, masks), 0x3fffu);
    CHECK(irredundant(r.chosen, r.nchosen, masks));
    setcover_result_free(&r);
    inst_free(&t);
}

TEST(setcover_takes_essentials_drops_redundant_and_prefers_fewer_bytes)
{
    /* A = {0,1} is the only cover of 0: essential.  Element 2 is left, and
     * B = {1,2}, C = {1,2} and D = {2} each cover it: a tie on count that
     * D, the fewest bytes, wins (B and C are dominated by D). */
    const uint32_t masks[] = {0x3u, 0x6u, 0x6u, 0x4u};
    const uint64_t costs[] = {5, 9, 4, 1};
    struct inst t;
    inst_make(&t, 4, 3, masks, costs);
    struct setcover_options o;
    setcover_options_default(&o);
    struct setcover_result r;
    setcover_solve(&t.in, &o, &r);
    CHECK_INT(r.essential, 1);
    CHECK_INT(r.nchosen, 2);
    CHECK_INT(r.chosen[0], 0);
    /* {A, D} is two inputs and 6 bytes: fewer bytes than {A, C} (9). */
    CHECK_INT(r.chosen[1], 3);
    CHECK_INT(r.cost, 6);
    CHECK(r.optimal);
    setcover_result_free(&r);
    inst_free(&t);
}

/* Greedy takes A = {0,1,2,3} (100 bytes, the most elements), then
 * C = {3,4} (F = {4} ties with it; the earlier wins); A is not redundant,
 * but D = {0,1,2} (5 bytes) covers what only A covers: the swap gives
 * {C, D}, 6 bytes, without an exact search. */
TEST(setcover_swaps_for_cheaper_candidates)
{
    const uint32_t masks[] = {0x0fu, 0x07u, 0x18u, 0x07u, 0x10u};
    const uint64_t costs[] = {100, 9, 1, 5, 1};
    struct inst t;
    inst_make(&t, 5, 5, masks, costs);
    struct setcover_options o;
    setcover_options_default(&o);
    o.exact_limit = 0;
    struct setcover_result r;
    setcover_solve(&t.in, &o, &r);
    CHECK_INT(r.essential, 0);
    CHECK_INT(r.greedy_count, 2);
    CHECK_INT(r.greedy_cost, 101);
    CHECK_INT(r.nchosen, 2);
    CHECK_INT(r.chosen[0], 2);
    CHECK_INT(r.chosen[1], 3);
    CHECK_INT(r.cost, 6);
    setcover_result_free(&r);
    inst_free(&t);
}

TEST(setcover_empty_and_identical_candidates)
{
    const uint32_t masks[] = {0, 0x5u, 0x5u, 0};
    const uint64_t costs[] = {1, 3, 3, 1};
    struct inst t;
    inst_make(&t, 4, 3, masks, costs);
    struct setcover_options o;
    setcover_options_default(&o);
    struct setcover_result r;
    setcover_solve(&t.in, &o, &r);
    CHECK_INT(r.nchosen, 1);
    CHECK_INT(r.chosen[0], 1); /* of two identical inputs, the first */
    CHECK(r.optimal);
    setcover_result_free(&r);
    inst_free(&t);

    inst_make(&t, 1, 0, masks, costs);
    setcover_solve(&t.in, &o, &r);
    CHECK_INT(r.nchosen, 0);
    setcover_result_free(&r);
    inst_free(&t);
}

/* Brute force: the lexicographically best (count, cost) over all subsets. */
TEST(setcover_exact_agrees_with_brute_force)
{
    struct rng g;
    rng_seed(&g, 15);
    for (int round = 0; round < 300; round++) {
        uint32_t n = 1 + (uint32_t)rng_below(&g, 10), ne = 1 + (uint32_t)rng_below(&g, 12);
        uint32_t masks[16];
        uint64_t costs[16];
        for (uint32_t c = 0; c < n; c++) {
            masks[c] = (uint32_t)rng_below(&g, (uint64_t)1 << ne);
            if (rng_below(&g, 3) == 0) /* sparse ones too */
                masks[c] &= (uint32_t)rng_below(&g, (uint64_t)1 << ne);
            costs[c] = 1 + rng_below(&g, 20);
        }
        uint32_t all = 0;
        for (uint32_t c = 0; c < n; c++)
            all |= masks[c];
        uint32_t best_n = UINT32_MAX;
        uint64_t best_cost = UINT64_MAX;
        for (uint32_t sub = 0; sub < (1u << n); sub++) {
            uint32_t m = 0, cnt = 0;
            uint64_t cost = 0;
            for (uint32_t c = 0; c < n; c++)
                if (sub >> c & 1)
                    m |= masks[c], cnt++, cost += costs[c];
            if (m == all && (cnt < best_n || (cnt == best_n && cost < best_cost)))
                best_n = cnt, best_cost = cost;
        }
        struct inst t;
        inst_make(&t, n, ne, masks, costs);
        struct setcover_options o;
        setcover_options_default(&o);
        struct setcover_result r;
        setcover_solve(&t.in, &o, &r);
        CHECK(mask_of(&t, r.chosen, r.nchosen, masks) == all);
        CHECK(irredundant(r.chosen, r.nchosen, masks));
        CHECK(r.optimal);
        CHECK_INT(r.nchosen, best_n);
        CHECK_INT(r.cost, best_cost);
        CHECK(r.lower_bound <= best_n);
        setcover_result_free(&r);

        /* Greedy alone: still a cover, irredundant, and not below the bound. */
        o.exact_limit = 0;
        setcover_solve(&t.in, &o, &r);
        CHECK(mask_of(&t, r.chosen, r.nchosen, masks) == all);
        CHECK(irredundant(r.chosen, r.nchosen, masks));
        CHECK(r.nchosen >= best_n && r.lower_bound <= best_n);
        setcover_result_free(&r);
        inst_free(&t);
    }
}

/* chain_sets: a set is stored as a sorted list of member numbers or as a
 * bitset, whichever takes fewer words; equal sets must get equal ids however
 * they were built (order of unions, the form of the parts, memo or not, after
 * a collection).  Marks make members in the order they are first asked for,
 * so mark(LABEL(i)) is member i below.  (What the sets mean, the chains, is
 * tested through the parser: test_parse_kpaths compares with the forest.) */
#include <stdlib.h>

#include "parse/chain_sets.h"
#include "harness.h"

#define LABEL(i) (1000u + (i))

struct labels {
    uint32_t v[128];
    size_t n;
};

static void note_label(uint32_t label, void *context)
{
    struct labels *l = context;
    if (l->n < 128)
        l->v[l->n++] = label;
}

/* The set of the marks LABEL(i) for the i in `members`, added in that order. */
static uint32_t set_of(struct chain_sets *cs, const uint32_t *members, size_t n)
{
    chain_sets_acc_start(cs);
    for (size_t i = 0; i < n; i++)
        chain_sets_acc_add(cs, chain_sets_mark(cs, LABEL(members[i])));
    return chain_sets_acc_take(cs);
}

static uint32_t union_of(struct chain_sets *cs, uint32_t a, uint32_t b)
{
    chain_sets_acc_start(cs);
    chain_sets_acc_add(cs, a);
    chain_sets_acc_add(cs, b);
    return chain_sets_acc_take(cs);
}

/* The marks of `set` are exactly LABEL(i) for the n members given in
 * increasing order. */
static bool marks_are(const struct chain_sets *cs, uint32_t set, const uint32_t *members, size_t n)
{
    struct labels l = {.n = 0};
    chain_sets_each_mark(cs, set, note_label, &l);
    if (l.n != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (l.v[i] != LABEL(members[i]))
            return false;
    return true;
}

TEST(chain_sets_equal_sets_get_equal_ids_in_either_form)
{
    struct chain_sets *cs = chain_sets_new(2);
    uint32_t all[100];
    for (uint32_t i = 0; i < 100; i++) {
        all[i] = i;
        chain_sets_mark(cs, LABEL(i)); /* member i */
    }
    /* Two far apart members: a list (a bitset would need 3 words). */
    uint32_t far[] = {5, 70}, far_rev[] = {70, 5};
    uint32_t s_far = set_of(cs, far, 2);
    CHECK(s_far != CHAIN_SET_EMPTY);
    CHECK_INT(set_of(cs, far_rev, 2), s_far);
    CHECK_INT(union_of(cs, chain_sets_mark(cs, LABEL(70)), chain_sets_mark(cs, LABEL(5))), s_far);
    CHECK(marks_are(cs, s_far, far, 2));
    /* The boundary: {0, 63} fits 2 words (a bitset), {0, 64} needs 3 (a list). */
    uint32_t b2[] = {0, 63}, b3[] = {0, 64};
    uint32_t s_b2 = set_of(cs, b2, 2), s_b3 = set_of(cs, b3, 2);
    CHECK(s_b2 != s_b3);
    CHECK_INT(union_of(cs, chain_sets_mark(cs, LABEL(63)), chain_sets_mark(cs, LABEL(0))), s_b2);
    CHECK_INT(union_of(cs, chain_sets_mark(cs, LABEL(64)), chain_sets_mark(cs, LABEL(0))), s_b3);
    CHECK(marks_are(cs, s_b2, b2, 2));
    CHECK(marks_are(cs, s_b3, b3, 2));
    /* A dense set, built up, built down, and as a union of a bitset
     * (members 0 .. 31) and a list (32 .. 40, each far from 0). */
    uint32_t down[41];
    for (uint32_t i = 0; i < 41; i++)
        down[i] = 40 - i;
    uint32_t s_up = set_of(cs, all, 41);
    CHECK_INT(set_of(cs, down, 41), s_up);
    uint32_t low = set_of(cs, all, 32), high = set_of(cs, all + 32, 9);
    CHECK_INT(union_of(cs, high, low), s_up);
    CHECK_INT(union_of(cs, low, high), s_up); /* memoized */
    CHECK_INT(union_of(cs, s_up, low), s_up);
    CHECK_INT(union_of(cs, s_up, CHAIN_SET_EMPTY), s_up);
    CHECK(marks_are(cs, s_up, all, 41));
    /* A dense part and a far member: still the same set both ways. */
    uint32_t with_far[33];
    for (uint32_t i = 0; i < 32; i++)
        with_far[i] = i;
    with_far[32] = 99;
    uint32_t s_wf = union_of(cs, low, chain_sets_mark(cs, LABEL(99)));
    CHECK_INT(set_of(cs, with_far, 33), s_wf);
    CHECK(marks_are(cs, s_wf, with_far, 33));
    CHECK_INT(set_of(cs, NULL, 0), CHAIN_SET_EMPTY);

    /* Extensions keep marks and are memoized: the same id again. */
    chain_sets_acc_start(cs);
    chain_sets_acc_add(cs, s_far);
    chain_sets_acc_extend(cs, 3);
    uint32_t e1 = chain_sets_acc_take(cs);
    chain_sets_acc_start(cs);
    chain_sets_acc_add(cs, chain_sets_mark(cs, LABEL(70)));
    chain_sets_acc_add(cs, chain_sets_mark(cs, LABEL(5)));
    chain_sets_acc_extend(cs, 3);
    CHECK_INT(chain_sets_acc_take(cs), e1);
    CHECK(e1 != s_far);
    CHECK(marks_are(cs, e1, far, 2));

    /* After a collection the kept sets are renumbered and found again. */
    uint32_t kept[] = {s_far, s_up, e1};
    chain_sets_collect(cs, kept, 3);
    CHECK_INT(set_of(cs, far_rev, 2), kept[0]);
    CHECK_INT(set_of(cs, down, 41), kept[1]);
    uint32_t again = set_of(cs, far, 2);
    chain_sets_acc_start(cs);
    chain_sets_acc_add(cs, again);
    chain_sets_acc_extend(cs, 3);
    CHECK_INT(chain_sets_acc_take(cs), kept[2]);
    CHECK(marks_are(cs, kept[1], all, 41));
    chain_sets_free(cs);
}

/* The memos of unions and extensions are caches of a few thousand places:
 * with many more pairs than that, results get forgotten and made again, and
 * must come out as the same ids (the sets are interned) and the same
 * members, also after a collection. */
TEST(chain_sets_unions_and_extensions_survive_forgetting)
{
    enum { N = 200 }; /* N singletons: N * (N - 1) / 2 = 19900 pairs */
    struct chain_sets *cs = chain_sets_new(2);
    uint32_t single[N];
    for (uint32_t i = 0; i < N; i++)
        single[i] = set_of(cs, &i, 1);
    uint32_t *pair = malloc(sizeof(uint32_t) * N * N);
    uint32_t *ext = malloc(sizeof(uint32_t) * N * N);
    for (int pass = 0; pass < 2; pass++) {
        bool ok = true;
        for (uint32_t i = 0; i < N; i++)
            for (uint32_t j = i + 1; j < N; j++) {
                uint32_t u = union_of(cs, single[j], single[i]);
                chain_sets_acc_start(cs);
                chain_sets_acc_add(cs, u);
                chain_sets_acc_extend(cs, 1 + (i + j) % 7);
                uint32_t e = chain_sets_acc_take(cs);
                uint32_t members[2] = {i, j};
                if (pass == 0) {
                    ok = ok && marks_are(cs, u, members, 2) && marks_are(cs, e, members, 2) &&
                         u != e;
                    pair[i * N + j] = u, ext[i * N + j] = e;
                } else {
                    ok = ok && u == pair[i * N + j] && e == ext[i * N + j];
                }
            }
        CHECK(ok);
    }
    /* Keep a few of them; made again, they are found under their new ids. */
    uint32_t kept[3] = {pair[0 * N + 1], ext[3 * N + 150], pair[198 * N + 199]};
    chain_sets_collect(cs, kept, 3);
    uint32_t s0 = set_of(cs, (uint32_t[]){0}, 1), s1 = set_of(cs, (uint32_t[]){1}, 1);
    CHECK_INT(union_of(cs, s1, s0), kept[0]);
    uint32_t s3 = set_of(cs, (uint32_t[]){3}, 1), s150 = set_of(cs, (uint32_t[]){150}, 1);
    uint32_t u = union_of(cs, s3, s150);
    chain_sets_acc_start(cs);
    chain_sets_acc_add(cs, u);
    chain_sets_acc_extend(cs, 1 + (3 + 150) % 7);
    CHECK_INT(chain_sets_acc_take(cs), kept[1]);
    CHECK(marks_are(cs, kept[2], (uint32_t[]){198, 199}, 2));
    free(pair);
    free(ext);
    chain_sets_free(cs);
}

struct mark_count {
    size_t n;
    uint32_t first, last;
    bool increasing;
};

static void count_label(uint32_t label, void *context)
{
    struct mark_count *c = context;
    if (c->n == 0)
        c->first = label;
    else if (label <= c->last)
        c->increasing = false;
    c->last = label;
    c->n++;
}

static uint32_t extension_of(struct chain_sets *cs, uint32_t set, uint32_t node)
{
    chain_sets_acc_start(cs);
    chain_sets_acc_add(cs, set);
    chain_sets_acc_extend(cs, node);
    return chain_sets_acc_take(cs);
}

/* Members far beyond the first 2,048 (the accumulator takes its first 64
 * words as a whole and lists the words it touches beyond them): sets
 * across that boundary, built in any order and form, are the same sets;
 * and an extension replaces a top chain whose member is beyond it.  Run
 * with the chains' members below the boundary (few marks made first) and
 * beyond it (3,000 marks first). */
TEST(chain_sets_members_beyond_the_first_words)
{
    for (int far = 0; far < 2; far++) {
        uint32_t nmarks = far ? 3000 : 40;
        struct chain_sets *cs = chain_sets_new(2);
        for (uint32_t i = 0; i < nmarks; i++)
            chain_sets_mark(cs, LABEL(i)); /* member i */
        if (far) {
            /* Around the boundary, in two orders and as a union. */
            uint32_t a[] = {1, 2047, 2048, 2999}, b[] = {2999, 2048, 1, 2047};
            uint32_t sa = set_of(cs, a, 4);
            CHECK_INT(set_of(cs, b, 4), sa);
            CHECK_INT(union_of(cs, set_of(cs, a + 2, 2), set_of(cs, a, 2)), sa);
            CHECK(marks_are(cs, sa, a, 4));
            CHECK(sa != set_of(cs, a, 3));
            /* A dense set across it (a bitset of 66 words), up, down and
             * as the union of its halves. */
            uint32_t *up = malloc(sizeof *up * 2101), *down = malloc(sizeof *down * 2101);
            for (uint32_t i = 0; i < 2101; i++)
                up[i] = i, down[i] = 2100 - i;
            uint32_t s_up = set_of(cs, up, 2101);
            CHECK_INT(set_of(cs, down, 2101), s_up);
            CHECK_INT(union_of(cs, set_of(cs, up + 1024, 1077), set_of(cs, up, 1024)), s_up);
            struct mark_count c = {0, 0, 0, true};
            chain_sets_each_mark(cs, s_up, count_label, &c);
            CHECK_INT(c.n, 2101);
            CHECK(c.increasing);
            CHECK_INT(c.first, LABEL(0));
            CHECK_INT(c.last, LABEL(2100));
            free(up);
            free(down);
        }
        /* x = {mark 1, mark nmarks - 1}; e7 = x under node 7, e87 = that
         * under node 8: [7]'s top chain gives way to [8 7], so e87 does not
         * hold it and a union with e7 (which does) is a bigger set. */
        uint32_t xm[] = {1, nmarks - 1}, xm_rev[] = {nmarks - 1, 1};
        uint32_t x = set_of(cs, xm, 2);
        uint32_t e7 = extension_of(cs, x, 7), e87 = extension_of(cs, e7, 8);
        CHECK(e7 != x);
        CHECK(e87 != e7);
        CHECK(union_of(cs, e87, e7) != e87);
        CHECK(marks_are(cs, e87, xm, 2));
        /* Made again from scratch, through the bits (a union not memoized
         * yet), the same ids. */
        chain_sets_acc_start(cs);
        chain_sets_acc_add(cs, chain_sets_mark(cs, LABEL(xm_rev[0])));
        chain_sets_acc_add(cs, chain_sets_mark(cs, LABEL(xm_rev[1])));
        chain_sets_acc_extend(cs, 7);
        chain_sets_acc_extend(cs, 8);
        CHECK_INT(chain_sets_acc_take(cs), e87);
        /* Under 8 then 7 is another set; under 7 twice holds [7 7]. */
        CHECK(extension_of(cs, extension_of(cs, x, 8), 7) != e87);
        CHECK(extension_of(cs, e7, 7) != e7);
        chain_sets_free(cs);
    }
}

/* chain_sets_memory (asked after every Earley set, so kept as a running
 * total): it grows as sets are made, comes down when a collection gives
 * their room back, and a second collection keeping the same sets gives the
 * same figure. */
TEST(chain_sets_memory_follows_growth_and_collection)
{
    struct chain_sets *cs = chain_sets_new(2);
    size_t fresh = chain_sets_memory(cs);
    CHECK(fresh > 0);
    uint32_t *pair = malloc(sizeof *pair * 5000);
    for (uint32_t i = 0; i < 5000; i++)
        pair[i] = set_of(cs, (uint32_t[]){i % 100, 100 + i}, 2);
    size_t grown = chain_sets_memory(cs);
    CHECK(grown > fresh + 5000 * 8); /* two 4-byte words a set, at least */
    uint32_t kept[2] = {pair[0], pair[4999]};
    chain_sets_collect(cs, kept, 2);
    size_t after = chain_sets_memory(cs);
    CHECK(after < grown);
    chain_sets_collect(cs, kept, 2);
    CHECK_INT(chain_sets_memory(cs), after);
    CHECK(marks_are(cs, kept[1], (uint32_t[]){99, 5099}, 2));
    free(pair);
    chain_sets_free(cs);
}

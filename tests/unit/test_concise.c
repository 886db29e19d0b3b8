/* reduce and bonsai: items interned once, "only it covers" and coverage of a
 * subset; the lattice order and that every kept bonsai input fits its point
 * and adds coverage, recomputed here by parsing the texts. */
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "suite/bonsai.h"
#include "harness.h"
#include "parse/input_kpaths.h"
#include "suite/reduce.h"

TEST(reduce_interns_items_and_finds_what_only_an_input_covers)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct kpath_space sp1;
    kpath_space_init(&sp1, l.graph, 1);
    struct kpath_set a, b;
    kpath_set_init(&a, &sp1);
    kpath_set_init(&b, &sp1);
    const uint32_t n0[] = {0}, n2[] = {2}, n5[] = {5}; /* AddExpr_0, MultExpr_2, AddExpr_5 */
    kpath_set_add(&a, n0);
    kpath_set_add(&a, n2);
    kpath_set_add(&b, n2);
    kpath_set_add(&b, n5);
    struct reduce r;
    reduce_init(&r, 1);
    const struct kpath_set *sa[] = {&a}, *sb[] = {&b};
    const uint32_t fa[] = {3, 3, 1}, fb[] = {1};
    CHECK_INT(reduce_add_input(&r, "a", 10, sa, fa, 3), 0);
    CHECK_INT(reduce_add_input(&r, "b", 4, sb, fb, 1), 1);
    /* items: 3 1-paths (0, 2, 5) and 2 features (3, 1) */
    CHECK_INT(r.nitems, 5);
    CHECK_INT(r.inputs[0].nitems, 4);
    CHECK_INT(r.inputs[1].nitems, 3);
    uint32_t n;
    uint32_t *only = reduce_only(&r, NULL, 0, 0, &n);
    CHECK_INT(n, 2); /* 1-path AddExpr_0 and feature 3 */
    for (uint32_t i = 0; i < n; i++) {
        const struct reduce_item *it = &r.items[only[i]];
        CHECK((it->k == 1 && reduce_item_path(&r, only[i])[0] == 0) ||
              (it->k == 0 && it->ref == 3));
    }
    free(only);
    const uint32_t just_b[] = {1};
    only = reduce_only(&r, just_b, 1, 1, &n);
    CHECK_INT(n, 3); /* alone, b covers all of its own */
    free(only);
    uint64_t per[2];
    reduce_coverage(&r, just_b, 1, per);
    CHECK_INT(per[0], 1);
    CHECK_INT(per[1], 2);
    reduce_coverage(&r, NULL, 0, per);
    CHECK_INT(per[0], 2);
    CHECK_INT(per[1], 3);
    struct setcover_options o;
    setcover_options_default(&o);
    struct setcover_result res;
    reduce_solve(&r, &o, &res);
    CHECK_INT(res.nchosen, 2); /* each covers something alone */
    setcover_result_free(&res);
    reduce_free(&r);
    kpath_set_free(&a);
    kpath_set_free(&b);
    kpath_space_free(&sp1);
    test_unload(&l);
}

TEST(bonsai_visits_points_upwards_and_keeps_only_what_adds_coverage)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct bonsai_options o;
    bonsai_options_default(&o);
    o.k = 2;
    o.max_depth = 6;
    o.max_repetitions = 2;
    o.max_bytes = 64; /* sizes 16, 32, 64 */
    char *error = NULL;
    struct bonsai *b = bonsai_new(l.graph, &o, &error);
    if (!CHECK(b)) {
        free(error);
        test_unload(&l);
        return;
    }
    CHECK_INT(b->npoints, 6 * 2 * 3);
    CHECK_INT(b->points[0].depth, 1);
    CHECK_INT(b->points[0].repetitions, 1);
    CHECK_INT(b->points[0].max_bytes, 16);
    /* No point comes before one below it. */
    bool ordered = true;
    for (uint32_t i = 0; i < b->npoints; i++)
        for (uint32_t j = i + 1; j < b->npoints; j++) {
            const struct bonsai_point *p = &b->points[i], *q = &b->points[j];
            if (q->depth <= p->depth && q->repetitions <= p->repetitions &&
                q->size_level <= p->size_level)
                ordered = false;
        }
    CHECK(ordered);
    while (bonsai_step(b))
        ;
    CHECK(!b->error);
    CHECK_INT(b->next, b->npoints);
    CHECK(b->ninputs > 0);
    /* Recompute: each input, in order, fits its point and adds j-paths. */
    struct kpath_space sp[2];
    struct kpath_set seen[2];
    for (uint32_t j = 0; j < 2; j++) {
        kpath_space_init(&sp[j], l.graph, j + 1);
        kpath_set_init(&seen[j], &sp[j]);
    }
    size_t bad = 0;
    for (size_t i = 0; i < b->ninputs; i++) {
        const struct bonsai_input *in = &b->inputs[i];
        const struct bonsai_point *p = &b->points[in->point];
        uint64_t before = seen[0].size + seen[1].size;
        struct kpath_set *ptrs[2] = {&seen[0], &seen[1]};
        struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
        struct diag_list d = DIAG_LIST_INIT;
        bad += !input_kpaths_text(l.graph, "in", in->text, in->len, &po, ptrs, 2, NULL, NULL, &d);
        diag_list_free(&d);
        uint64_t added = seen[0].size + seen[1].size - before;
        bad += added == 0 || added != in->new_paths || in->len > p->max_bytes ||
               derivation_depth(&in->tree) > p->depth;
        if (i && in->point < b->inputs[i - 1].point)
            bad++;
    }
    CHECK_INT(bad, 0);
    CHECK_INT(seen[0].size, b->covered[0].size);
    CHECK_INT(seen[1].size, b->covered[1].size);
    /* json's 1- and 2-paths all fit in depth 6 and 64 bytes (kpath cover
     * -k 2 --max-depth 6 covers them all). */
    CHECK_INT(b->covered[0].size, sp[0].total);
    CHECK_INT(b->covered[1].size, sp[1].total);
    for (uint32_t j = 0; j < 2; j++) {
        kpath_set_free(&seen[j]);
        kpath_space_free(&sp[j]);
    }
    bonsai_free(b);
    test_unload(&l);
}

TEST(bonsai_refuses_bad_options)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct bonsai_options o;
    bonsai_options_default(&o);
    o.max_depth = 0;
    char *error = NULL;
    CHECK(!bonsai_new(l.graph, &o, &error));
    CHECK(error != NULL);
    free(error);
    test_unload(&l);
}

/* Mutants of seeds are derivations of the grammar (their texts parse and are
 * their trees' texts) and come only from kept inputs of points below; a
 * behaviour feature makes bonsai keep an input that adds no k-path: with one
 * feature per text length, the lengths kept are exactly the lengths of the
 * candidates that could be kept. */
TEST(bonsai_mutates_seeds_and_keeps_inputs_for_new_features)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct bonsai_options o;
    bonsai_options_default(&o);
    o.k = 1;
    o.max_depth = 5;
    o.max_repetitions = 2;
    o.max_bytes = 32;
    char *error = NULL;
    struct bonsai *b = bonsai_new(l.graph, &o, &error);
    if (!CHECK(b)) {
        free(error);
        test_unload(&l);
        return;
    }
    bool fit_len[33] = {false};
    size_t mutants = 0, bad = 0;
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 1);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    while (bonsai_begin_point(b)) {
        for (size_t i = 0; i < b->ncands; i++) {
            struct bonsai_candidate *c = &b->cands[i];
            if (c->origin == BONSAI_MUTANT) {
                mutants++;
                struct strbuf t = STRBUF_INIT;
                derivation_text(&c->tree, &t);
                bad += t.len != c->len || memcmp(strbuf_str(&t), c->text, c->len) != 0;
                strbuf_free(&t);
                struct kpath_set *ptrs[1] = {&set};
                struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
                struct diag_list d = DIAG_LIST_INIT;
                bad += !input_kpaths_text(l.graph, "mutant", c->text, c->len, &po, ptrs, 1, NULL,
                                          NULL, &d);
                diag_list_free(&d);
            }
            if (c->fits) {
                uint32_t f = (uint32_t)c->len;
                bad += c->len > 32;
                if (c->len <= 32)
                    fit_len[c->len] = true;
                bonsai_set_features(b, i, &f, 1);
            }
        }
        if (!bonsai_end_point(b))
            break;
    }
    CHECK(!b->error);
    CHECK(mutants > 0);
    CHECK_INT(bad, 0);
    bool kept_len[33] = {false};
    for (size_t i = 0; i < b->ninputs; i++)
        if (b->inputs[i].len <= 32)
            kept_len[b->inputs[i].len] = true;
    size_t differ = 0, lengths = 0;
    for (int n = 0; n <= 32; n++) {
        differ += fit_len[n] != kept_len[n];
        lengths += fit_len[n];
    }
    CHECK_INT(differ, 0);
    CHECK_INT(b->features, lengths);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    bonsai_free(b);
    test_unload(&l);
}

/* features_only and bonsai_prune: two features, 0 for every text and 1 for
 * texts of 5 bytes or more.  Of all the candidates that could be kept, the
 * shortest of each feature is known here (computed from the candidates,
 * json has texts under 5 bytes, e.g. "1").  Before pruning the corpus
 * holds both; pruning, longest first, keeps the shortest with feature 1 (it
 * alone has it once the longer ones are gone), and then the shortest of all
 * goes too, its feature 0 covered by that one: exactly one input, of the
 * shortest length with feature 1. */
TEST(bonsai_features_only_keeps_the_shortest_per_feature_and_prunes)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct bonsai_options o;
    bonsai_options_default(&o);
    o.k = 1;
    o.max_depth = 5;
    o.max_repetitions = 2;
    o.max_bytes = 32;
    o.features_only = true;
    char *error = NULL;
    struct bonsai *b = bonsai_new(l.graph, &o, &error);
    if (!CHECK(b)) {
        free(error);
        test_unload(&l);
        return;
    }
    size_t shortest[2] = {SIZE_MAX, SIZE_MAX};
    while (bonsai_begin_point(b)) {
        for (size_t i = 0; i < b->ncands; i++) {
            struct bonsai_candidate *c = &b->cands[i];
            if (!c->fits)
                continue;
            uint32_t f[2] = {0, 1};
            uint32_t n = c->len >= 5 ? 2 : 1;
            bonsai_set_features(b, i, f, n);
            for (uint32_t j = 0; j < n; j++)
                if (c->len < shortest[j])
                    shortest[j] = c->len;
        }
        if (!bonsai_end_point(b))
            break;
    }
    CHECK(!b->error);
    CHECK(shortest[0] < 5 && shortest[1] >= 5 && shortest[1] != SIZE_MAX);
    /* Before pruning: every input was, when kept, the shortest so far of a
     * feature, so at least one per feature; lengths never below the minima. */
    CHECK(b->ninputs >= 2);
    size_t below = 0;
    for (size_t i = 0; i < b->ninputs; i++)
        below += b->inputs[i].len < shortest[0];
    CHECK_INT(below, 0);
    size_t has[2] = {0, 0};
    for (size_t i = 0; i < b->ninputs; i++) {
        has[0] += b->inputs[i].len == shortest[0];
        has[1] += b->inputs[i].len == shortest[1];
    }
    CHECK(has[0] >= 1 && has[1] >= 1);
    CHECK(bonsai_prune(b));
    CHECK_INT(b->ninputs, 1);
    if (b->ninputs == 1)
        CHECK_INT(b->inputs[0].len, shortest[1]);
    CHECK_INT(b->features, 2);
    CHECK_INT(b->total_bytes, shortest[1]);
    bonsai_free(b);
    test_unload(&l);
}

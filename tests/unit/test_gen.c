/* Generation: full k-path coverage on every bundled grammar (checked from the
 * produced trees, independently of the generator's bookkeeping), the
 * examples of the generation issue, determinism and the step API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "../support/random_grammar.h"
#include "base/strbuf.h"
#include "gen/gen.h"
#include "harness.h"

static const char *const bundled[] = {
    "grammars/expr.ebnf", "grammars/digits.ebnf", "grammars/fsm.ebnf",
    "grammars/config.ebnf", "grammars/arith.ebnf", "grammars/json.ebnf",
    "grammars/csv.ebnf", "grammars/url.ebnf", "grammars/ini.ebnf",
};

static struct generator *run(const struct graph *g, enum gen_strategy s, uint32_t k,
                             uint32_t count, uint64_t seed, enum gen_closeoff c)
{
    struct gen_options o;
    gen_options_default(&o);
    o.strategy = s;
    o.k = k;
    o.count = count;
    o.seed = seed;
    o.closeoff = c;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    CHECK(gen != NULL);
    free(error);
    if (gen)
        gen_run(gen);
    return gen;
}

/* The tree of gen->inputs[i], rebuilt from its packed form; valid until the
 * next call (one tree is kept for the whole run, so nothing leaks). */
static const struct derivation *input_tree(const struct generator *gen, size_t i)
{
    static struct derivation tree;
    derivation_free(&tree);
    gen_input_tree(gen, i, &tree);
    return &tree;
}

/* Coverage of the inputs' trees, computed afresh. */
static uint64_t covered_by_trees(const struct generator *gen, const struct kpath_space *sp)
{
    struct kpath_set set;
    kpath_set_init(&set, sp);
    for (size_t i = 0; i < gen->ninputs; i++)
        derivation_add_kpaths(input_tree(gen, i), &set);
    uint64_t n = set.size;
    kpath_set_free(&set);
    return n;
}

TEST(gen_cover_reaches_full_coverage_on_every_bundled_grammar)
{
    for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(bundled[i], &l)))
            continue;
        for (uint32_t k = 1; k <= 4; k++) {
            for (int c = 0; c < 3; c++) {
                struct generator *gen = run(l.graph, GEN_KPATH, k, 0, 1, (enum gen_closeoff)c);
                if (!gen)
                    continue;
                struct kpath_space sp;
                kpath_space_init(&sp, l.graph, k);
                bool ok = CHECK_INT(covered_by_trees(gen, &sp), sp.total);
                CHECK_INT(gen->nunreachable, 0);
                CHECK(gen->error == NULL);
                for (size_t j = 0; j < gen->ninputs; j++) {
                    CHECK(derivation_complete(input_tree(gen, j)));
                    CHECK(gen->inputs[j].depth <= GEN_DEFAULT_MAX_DEPTH);
                    /* Every input was made for a target that it covers. */
                    CHECK(gen->inputs[j].target_covered);
                }
                if (!ok)
                    fprintf(stderr, "  %s k=%u close-off %d\n", bundled[i], k, c);
                kpath_space_free(&sp);
                gen_free(gen);
            }
        }
        test_unload(&l);
    }
}

TEST(gen_config_k3_produces_all_24_combinations)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/config.ebnf", &l)))
        return;
    struct generator *gen = run(l.graph, GEN_KPATH, 3, 0, 1, GEN_CLOSE_SHORTEST);
    static const char *const os[] = {"windows-", "linux-", "macos-"};
    static const char *const cpu[] = {"arm-", "intel-"};
    static const char *const browser[] = {"chrome", "edge", "firefox", "safari"};
    int found = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 4; c++) {
                char want[64];
                snprintf(want, sizeof want, "%s%s%s", os[a], cpu[b], browser[c]);
                for (size_t i = 0; i < gen->ninputs; i++)
                    if (strcmp(gen->inputs[i].text, want) == 0) {
                        found++;
                        break;
                    }
            }
    CHECK_INT(found, 24);
    /* And nothing else: 24 inputs, all distinct. */
    CHECK_INT(gen->ninputs, 24);
    gen_free(gen);
    test_unload(&l);
}

static unsigned digits_seen(const struct generator *gen)
{
    unsigned seen = 0;
    for (size_t i = 0; i < gen->ninputs; i++)
        for (const char *p = gen->inputs[i].text; *p; p++)
            if (*p >= '0' && *p <= '9')
                seen |= 1u << (*p - '0');
    return seen;
}

TEST(gen_digits_k1_produces_every_digit_and_random_does_not)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/digits.ebnf", &l)))
        return;
    struct generator *gen = run(l.graph, GEN_KPATH, 1, 0, 1, GEN_CLOSE_SHORTEST);
    CHECK_INT(digits_seen(gen), 0x3FF);
    uint32_t n = (uint32_t)gen->ninputs;
    gen_free(gen);
    /* Random reaches "9" with probability 1/512 per input; with the same
     * number of inputs and seeds 1..20, it never gets all ten digits. */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        gen = run(l.graph, GEN_RANDOM, 1, n, seed, GEN_CLOSE_SHORTEST);
        CHECK_INT(gen->ninputs, n);
        CHECK(digits_seen(gen) != 0x3FF);
        gen_free(gen);
    }
    test_unload(&l);
}

static bool same_suite(const struct generator *a, const struct generator *b)
{
    if (a->ninputs != b->ninputs)
        return false;
    for (size_t i = 0; i < a->ninputs; i++)
        if (a->inputs[i].len != b->inputs[i].len ||
            memcmp(a->inputs[i].text, b->inputs[i].text, a->inputs[i].len) != 0)
            return false;
    return true;
}

TEST(gen_same_seed_same_inputs_other_seed_other_inputs)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    for (int s = GEN_KPATH; s <= GEN_PROB; s++) {
        enum gen_closeoff c = s == GEN_KPATH ? GEN_CLOSE_RANDOM : GEN_CLOSE_SHORTEST;
        struct generator *a = run(l.graph, (enum gen_strategy)s, 2, 20, 7, c);
        struct generator *b = run(l.graph, (enum gen_strategy)s, 2, 20, 7, c);
        struct generator *d = run(l.graph, (enum gen_strategy)s, 2, 20, 8, c);
        CHECK(same_suite(a, b));
        CHECK(!same_suite(a, d));
        gen_free(a);
        gen_free(b);
        gen_free(d);
    }
    test_unload(&l);
}

TEST(gen_stepping_gives_the_same_suite_as_running)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct generator *whole = run(l.graph, GEN_KPATH, 3, 0, 3, GEN_CLOSE_RANDOM);
    struct gen_options o;
    gen_options_default(&o);
    o.k = 3;
    o.seed = 3;
    o.closeoff = GEN_CLOSE_RANDOM;
    char *error;
    struct generator *stepped = gen_new(l.graph, &o, &error);
    /* Step by step, looking at the state after every step as a UI would. */
    size_t steps = 0, started = 0, finished = 0, reached = 0;
    while (gen_step(stepped)) {
        steps++;
        if (stepped->events & GEN_EVENT_TREE_STARTED) {
            started++;
            CHECK_INT(stepped->target_reached, stepped->tree.insts[0].node == stepped->target[0]);
        }
        if (stepped->events & GEN_EVENT_TARGET_REACHED) {
            reached++;
            CHECK(stepped->events & GEN_EVENT_CLOSEOFF_STARTED);
        }
        if (stepped->events & GEN_EVENT_TREE_FINISHED)
            finished++;
        if (stepped->phase == GEN_PHASE_TARGET)
            CHECK(stepped->last.inst == DTREE_NONE || stepped->last.toward_target);
    }
    CHECK(same_suite(whole, stepped));
    CHECK_INT(started, stepped->ninputs);
    CHECK_INT(finished, stepped->ninputs);
    CHECK_INT(reached, stepped->ninputs);
    CHECK(steps > stepped->ninputs * 3);
    gen_free(whole);
    gen_free(stepped);
    test_unload(&l);
}

TEST(gen_first_step_walks_by_derivation_distance)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct gen_options o;
    gen_options_default(&o);
    o.k = 2;
    char *error;
    struct generator *gen = gen_new(l.graph, &o, &error);
    CHECK(gen_step(gen));
    CHECK(gen->events & GEN_EVENT_TREE_STARTED);
    CHECK_INT(gen->phase, GEN_PHASE_TARGET);
    /* Whatever the target, every walk step names a candidate it followed
     * with the smallest distance among the candidates. */
    while (gen->phase == GEN_PHASE_TARGET && gen_step(gen)) {
        uint32_t followed_node = gen->tree.insts[gen->last.followed].node;
        uint32_t best = UINT32_MAX, chosen = UINT32_MAX;
        for (uint32_t i = 0; i < gen->last.ncandidates; i++) {
            if (gen->last.candidates[i].distance < best)
                best = gen->last.candidates[i].distance;
            if (gen->last.candidates[i].node == followed_node)
                chosen = gen->last.candidates[i].distance;
        }
        CHECK_INT(chosen, best);
    }
    gen_free(gen);
    test_unload(&l);
}

TEST(gen_reports_paths_that_need_more_depth)
{
    /* A chain S := A; A := B; B := C; C := "c" | "d" D; D := "x".  Every tree
     * has the references A, B and C on its way down: depth 3 at least. */
    struct loaded l;
    if (!CHECK(test_load_string("S := A;\nA := B;\nB := C;\nC := \"c\" | \"d\" D;\nD := \"x\";\n", &l)))
        return;
    /* Graph: 0 ref A, 1 ref B, 2 ref C, 3 alt, 4 "c", 5 cat, 6 "d", 7 ref D, 8 "x". */
    struct gen_options o;
    gen_options_default(&o);
    o.k = 2;
    o.max_depth = 3;
    char *error;
    struct generator *gen = gen_new(l.graph, &o, &error);
    gen_run(gen);
    /* The 2-paths: A_0->B_1, B_1->C_2, C_2->"c"_4, C_2->"d"_6, C_2->D_7,
     * D_7->"x"_8.  The last three need the reference D below C (the "d"
     * shares its sequence with D): depth 4 > 3.  The first three fit. */
    CHECK_INT(gen->nunreachable, 3);
    for (size_t i = 0; i < gen->nunreachable; i++) {
        CHECK_INT(gen->unreachable[i].needed_depth, 4);
        uint32_t second = gen->unreachable[i].path[1];
        CHECK(second == 6 || second == 7 || second == 8);
    }
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    CHECK_INT(sp.total, 6);
    CHECK_INT(covered_by_trees(gen, &sp), 3);
    CHECK_INT(gen_agenda_left(gen), 0);
    kpath_space_free(&sp);
    gen_free(gen);
    test_unload(&l);
}

/* Every target reported out of depth, checked against the target's own
 * search (gen_needed_depth, the backward search the shared depth layers
 * replace in generation): the same depth, past the limit; and every k-path
 * is either in an input's tree or reported. */
static void check_needed_depths(const struct graph *g, uint32_t k, uint32_t max_depth)
{
    struct gen_options o;
    gen_options_default(&o);
    o.k = k;
    o.max_depth = max_depth;
    o.max_size = 100000;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    if (g->nodes[0].min_depth > max_depth) {
        /* no input within the limit at all: refused, naming the depth */
        CHECK(gen == NULL);
        char want[128];
        snprintf(want, sizeof want, "the smallest input needs depth %u,", g->nodes[0].min_depth);
        CHECK(error && strncmp(error, want, strlen(want)) == 0);
        free(error);
        gen_free(gen);
        return;
    }
    free(error);
    if (!CHECK(gen != NULL))
        return;
    gen_run(gen);
    for (size_t i = 0; i < gen->nunreachable; i++) {
        if (gen->unreachable[i].empty_repetition)
            continue; /* no depth to check: no parse holds it (test_gen_parse_agree.c) */
        uint32_t needed = gen->unreachable[i].needed_depth;
        CHECK(needed > max_depth);
        CHECK_INT(needed, gen_needed_depth(gen, gen->unreachable[i].path));
    }
    struct kpath_space sp;
    kpath_space_init(&sp, g, k);
    CHECK_INT(covered_by_trees(gen, &sp) + gen->nunreachable, sp.total);
    kpath_space_free(&sp);
    gen_free(gen);
}

TEST(gen_needed_depths_agree_with_each_targets_own_search)
{
    for (uint64_t seed = 1; seed <= 30; seed++) {
        char *text = random_grammar(seed, 20 + (uint32_t)(seed * 7 % 120));
        struct loaded l;
        if (CHECK(test_load_string(text, &l))) {
            for (uint32_t d = 1; d <= 4; d++)
                check_needed_depths(l.graph, 1 + (uint32_t)(seed % 3), d);
            test_unload(&l);
        }
        free(text);
    }
}

/* The backward search tables are reused, target after target, resetting only
 * the entries the last search touched: every answer of one long-lived
 * generator equals that of a fresh one, whose tables were never used. */
TEST(gen_reused_search_tables_answer_as_fresh_ones)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        char *text = random_grammar(seed, 40 + (uint32_t)(seed * 13 % 60));
        struct loaded l;
        if (CHECK(test_load_string(text, &l))) {
            struct gen_options o;
            gen_options_default(&o);
            o.k = 2;
            o.max_depth = 3 + (uint32_t)(seed % 3);
            char *error = NULL;
            struct generator *reused = gen_new(l.graph, &o, &error);
            free(error);
            struct kpath_space sp;
            kpath_space_init(&sp, l.graph, 2);
            struct kpath_iter it;
            kpath_iter_init(&it, &sp);
            /* More distinct targets than tables kept, so tables get reused. */
            for (uint32_t i = 0; reused && kpath_iter_next(&it) && i < 120; i++) {
                uint32_t got = gen_needed_depth(reused, it.path);
                struct generator *fresh = gen_new(l.graph, &o, &error);
                free(error);
                if (CHECK(fresh != NULL))
                    CHECK_INT(got, gen_needed_depth(fresh, it.path));
                gen_free(fresh);
            }
            kpath_iter_free(&it);
            kpath_space_free(&sp);
            gen_free(reused);
            test_unload(&l);
        }
        free(text);
    }
}

TEST(gen_needed_depths_past_the_kept_depth_layers)
{
    /* R0 := R1 | "a"; Ri := R(i+1) | "a"; R99 := "b".  Reaching the
     * reference to R(i+1) takes i + 1 references, so the 2-paths need every
     * depth from 1 to 99: with --max-depth 1 all but R1 -> "a" (depth 1) are
     * out of depth, most of them past the 64 depth layers kept. */
    struct strbuf sb = STRBUF_INIT;
    for (int i = 0; i < 99; i++)
        strbuf_addf(&sb, "R%d := R%d | \"a\";\n", i, i + 1);
    strbuf_addstr(&sb, "R99 := \"b\";\n");
    struct loaded l;
    if (CHECK(test_load_string(strbuf_str(&sb), &l))) {
        check_needed_depths(l.graph, 2, 1);
        struct gen_options o;
        gen_options_default(&o);
        o.k = 2;
        o.max_depth = 1;
        char *error = NULL;
        struct generator *gen = gen_new(l.graph, &o, &error);
        free(error);
        if (CHECK(gen != NULL)) {
            gen_run(gen);
            /* 98 paths R_i -> R_(i+1), 98 paths R_i -> "a", R99 -> "b". */
            CHECK_INT(gen->nunreachable, 196);
            uint32_t lo = UINT32_MAX, hi = 0;
            for (size_t i = 0; i < gen->nunreachable; i++) {
                uint32_t d = gen->unreachable[i].needed_depth;
                lo = d < lo ? d : lo;
                hi = d > hi ? d : hi;
            }
            CHECK_INT(lo, 2);
            CHECK_INT(hi, 99);
            gen_free(gen);
        }
        test_unload(&l);
    }
    strbuf_free(&sb);
}

TEST(gen_count_limits_the_kpath_strategy)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    struct generator *gen = run(l.graph, GEN_KPATH, 2, 2, 1, GEN_CLOSE_SHORTEST);
    CHECK_INT(gen->ninputs, 2);
    CHECK(gen_agenda_left(gen) > 0);
    gen_free(gen);
    test_unload(&l);
}

TEST(gen_random_strategies_respect_the_size_budget)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    for (int s = GEN_RANDOM; s <= GEN_PROB; s++) {
        struct generator *gen = run(l.graph, (enum gen_strategy)s, 2, 30, 1, GEN_CLOSE_SHORTEST);
        CHECK_INT(gen->ninputs, 30);
        for (size_t i = 0; i < gen->ninputs; i++) {
            CHECK(derivation_complete(input_tree(gen, i)));
            /* Past the budget only the fastest closing choices are made, so
             * a tree ends within a bounded margin of it. */
            CHECK(input_tree(gen, i)->len < 4 * GEN_DEFAULT_MAX_SIZE);
        }
        gen_free(gen);
    }
    test_unload(&l);
}

TEST(gen_every_strategy_stays_within_the_depth_limit)
{
    /* expr.ebnf needs depth 4 for its shortest input; with a limit of 6 every
     * strategy must keep every tree at depth 6 or less. */
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    for (int s = GEN_KPATH; s <= GEN_PROB; s++) {
        struct gen_options o;
        gen_options_default(&o);
        o.strategy = (enum gen_strategy)s;
        o.max_depth = 6;
        o.count = s == GEN_KPATH ? 0 : 200;
        char *error;
        struct generator *gen = gen_new(l.graph, &o, &error);
        gen_run(gen);
        uint32_t deepest = 0;
        for (size_t i = 0; i < gen->ninputs; i++)
            if (gen->inputs[i].depth > deepest)
                deepest = gen->inputs[i].depth;
        CHECK(deepest <= 6);
        CHECK(deepest >= 4);
        gen_free(gen);
    }
    test_unload(&l);
}

TEST(gen_mark_covered_leaves_only_the_rest_on_the_agenda)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    for (int c = GEN_CLOSE_SHORTEST; c <= GEN_CLOSE_GREEDY; c++) {
        struct gen_options o;
        gen_options_default(&o);
        o.closeoff = (enum gen_closeoff)c;
        char *error;
        struct generator *gen = gen_new(l.graph, &o, &error);
        /* Everything but AddExpr_0 -> "-"_11 is covered elsewhere. */
        uint32_t last[] = {0, 11};
        struct kpath_iter it;
        kpath_iter_init(&it, &gen->space);
        while (kpath_iter_next(&it))
            if (memcmp(it.path, last, sizeof last) != 0)
                CHECK(gen_mark_covered(gen, it.path));
        kpath_iter_free(&it);
        CHECK(!gen_mark_covered(gen, (uint32_t[]){0, 5})); /* already */
        CHECK_INT(gen_agenda_left(gen), 1);
        gen_run(gen);
        CHECK_INT(gen->ninputs, 1);
        CHECK(gen->ninputs == 1 && gen->inputs[0].target_covered);
        CHECK(strchr(gen->inputs[0].text, '-') != NULL);
        CHECK_INT(gen->covered.size, gen->space.total);
        gen_free(gen);
    }
    test_unload(&l);
}

/* Issue 10.2 and 17.2: the size budget holds in every strategy and every
 * close-off.  The grammar explodes when followed freely: a tree chooses the
 * branching alternative 90% of the time (prob), half the time (random), and
 * up to 100 repetitions multiply it.  The smallest tree is S's alt and "x":
 * 2 nodes, within every budget.  k-paths whose smallest tree exceeds the
 * budget are left unreachable rather than built. */
TEST(gen_size_budget_holds_in_every_strategy_and_close_off)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := 10% \"x\" | 90% \"(\" S \")\" S L;\n"
                                "L := (\",\" S)*;\n", &l)))
        return;
    static const uint32_t budgets[] = {5, 20, 60, 300};
    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
        for (int s = GEN_KPATH; s <= GEN_PROB + 2; s++) {
            struct gen_options o;
            gen_options_default(&o);
            /* kpath with the random and the greedy close-off, then the three
             * strategies without a target */
            o.strategy = s <= GEN_KPATH + 1 ? GEN_KPATH : (enum gen_strategy)(s - 1);
            o.closeoff = s == GEN_KPATH ? GEN_CLOSE_RANDOM : GEN_CLOSE_GREEDY;
            o.k = 1;
            o.max_repetitions = 100;
            o.max_size = budgets[b];
            o.count = 40;
            char *error = NULL;
            struct generator *gen = gen_new(l.graph, &o, &error);
            if (!CHECK(gen != NULL)) {
                free(error);
                continue;
            }
            gen_run(gen);
            CHECK(gen->ninputs > 0);
            for (size_t i = 0; i < gen->ninputs; i++) {
                CHECK(derivation_complete(input_tree(gen, i)));
                if (!CHECK(input_tree(gen, i)->len <= budgets[b]))
                    fprintf(stderr, "  budget %u, strategy %d: %zu nodes\n", budgets[b], s,
                            input_tree(gen, i)->len);
            }
            gen_free(gen);
        }
    }
    test_unload(&l);
}

/* Issue 10.2: with the branching alternative drawn 90% of the time, prob
 * inputs are short and varied under a small budget, not all alike at the
 * depth limit: the budget decides their size. */
TEST(gen_prob_inputs_grow_with_the_size_budget)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := 10% \"x\" | 90% \"(\" S \")\" S;\n", &l)))
        return;
    size_t total[2] = {0, 0};
    static const uint32_t budgets[] = {30, 3000};
    for (int b = 0; b < 2; b++) {
        struct gen_options o;
        gen_options_default(&o);
        o.strategy = GEN_PROB;
        o.max_size = budgets[b];
        o.count = 20;
        char *error = NULL;
        struct generator *gen = gen_new(l.graph, &o, &error);
        if (!CHECK(gen != NULL))
            return;
        gen_run(gen);
        for (size_t i = 0; i < gen->ninputs; i++) {
            CHECK(input_tree(gen, i)->len <= budgets[b]);
            total[b] += gen->inputs[i].len;
        }
        gen_free(gen);
    }
    CHECK(total[0] < total[1]);
    test_unload(&l);
}

/* Issue 17.1: a smallest input beyond the size budget is refused before
 * anything is built, naming the rule and the size it needs. */
TEST(gen_refuses_a_grammar_whose_smallest_input_exceeds_the_budget)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := \"<\" Body \">\";\nBody := \"a\"{4294967294};\n", &l)))
        return;
    for (int s = GEN_KPATH; s <= GEN_PROB; s++) {
        struct gen_options o;
        gen_options_default(&o);
        o.strategy = (enum gen_strategy)s;
        o.k = 1;
        char *error = NULL;
        struct generator *gen = gen_new(l.graph, &o, &error);
        CHECK(gen == NULL);
        /* Body: its quant and 4294967294 leaves; the input adds S's cat,
         * "<", the reference and ">". */
        CHECK(error && strstr(error, "rule Body: its smallest derivation has 4294967295 tree "
                                     "nodes"));
        CHECK(error && strstr(error, "needs --max-size 4294967299"));
        free(error);
        gen_free(gen);
    }
    test_unload(&l);
}

/* Issue 10.4: dropping redundant inputs keeps full coverage, makes fewer
 * inputs, and leaves every kept input with a k-path no other one has
 * (checked from the trees, not from the generator's bookkeeping). */
TEST(gen_drop_redundant_keeps_coverage_and_only_needed_inputs)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    size_t made[2] = {0, 0};
    for (int drop = 0; drop < 2; drop++) {
        struct gen_options o;
        gen_options_default(&o);
        o.closeoff = GEN_CLOSE_SHORTEST; /* one small input per target: many redundant */
        o.k = 2;
        o.drop_redundant = drop;
        char *error = NULL;
        struct generator *gen = gen_new(l.graph, &o, &error);
        if (!CHECK(gen != NULL))
            break;
        gen_run(gen);
        made[drop] = gen->ninputs;
        CHECK_INT(covered_by_trees(gen, &sp), sp.total);
        uint64_t newly = 0;
        for (size_t i = 0; i < gen->ninputs; i++)
            newly += gen->inputs[i].nnew;
        CHECK_INT(newly, sp.total);
        if (drop) {
            for (size_t i = 0; i < gen->ninputs; i++) {
                struct kpath_set others, own;
                kpath_set_init(&others, &sp);
                kpath_set_init(&own, &sp);
                for (size_t j = 0; j < gen->ninputs; j++)
                    if (j != i)
                        derivation_add_kpaths(input_tree(gen, j), &others);
                derivation_add_kpaths(input_tree(gen, i), &own);
                uint64_t before = others.size;
                derivation_add_kpaths(input_tree(gen, i), &others);
                CHECK(others.size > before); /* input i has a k-path of its own */
                CHECK(gen->inputs[i].target_covered);
                kpath_set_free(&others);
                kpath_set_free(&own);
            }
        }
        gen_free(gen);
    }
    CHECK(made[1] < made[0]);
    kpath_space_free(&sp);
    test_unload(&l);
}

/* How two trees differ ("" when they are the same): every field of every
 * instance in order, and the children lists (first_child only where there
 * are children: an instance without any has no list). */
static void tree_difference(const struct derivation *a, const struct derivation *b, char *out, size_t size)
{
    out[0] = '\0';
    if (a->len != b->len || a->nkids != b->nkids || a->open != b->open) {
        snprintf(out, size, "%zu/%zu instances, %zu/%zu children, %zu/%zu open", a->len, b->len,
                 a->nkids, b->nkids, a->open, b->open);
        return;
    }
    for (size_t i = 0; i < a->len; i++) {
        const struct derivation_inst *x = &a->insts[i], *y = &b->insts[i];
        if (x->node != y->node || x->parent != y->parent || x->nchildren != y->nchildren ||
            x->ch != y->ch || x->open != y->open ||
            (x->nchildren && x->first_child != y->first_child)) {
            snprintf(out, size, "instance %zu: node %u/%u parent %u/%u children %u/%u at %u/%u "
                     "ch %u/%u", i, x->node, y->node, x->parent, y->parent, x->nchildren,
                     y->nchildren, x->first_child, y->first_child, x->ch, y->ch);
            return;
        }
    }
    if (a->nkids && memcmp(a->kids, b->kids, a->nkids * sizeof *a->kids) != 0)
        snprintf(out, size, "children lists differ");
}

/* Issue 17.3: finished inputs keep their trees packed (derivation_pack); what
 * gen_input_tree rebuilds must be the very tree the generator made, in the
 * same instance order (bonsai draws instances by index, the k-path walks go
 * in index order), for every strategy and close-off on every bundled grammar,
 * with pins and in the recurrent mode, and on big random grammars. */
TEST(gen_packed_trees_rebuild_exactly)
{
    char *random_text = random_grammar(7, 300);
    size_t checked = 0, bad = 0, packed_bytes = 0, tree_bytes = 0;
    for (size_t i = 0; i <= sizeof bundled / sizeof bundled[0]; i++) {
        struct loaded l;
        bool loaded = i < sizeof bundled / sizeof bundled[0] ? test_load_file(bundled[i], &l)
                                                             : test_load_string(random_text, &l);
        if (!CHECK(loaded))
            continue;
        for (int variant = 0; variant < 7; variant++) {
            struct gen_options o;
            gen_options_default(&o);
            o.k = 2;
            o.seed = (uint64_t)variant + 3;
            o.strategy = variant < 3 ? GEN_KPATH : (enum gen_strategy)(variant - 2);
            if (variant < 3)
                o.closeoff = (enum gen_closeoff)variant;
            if (variant == 6) { /* recurrent, random close-off, repetitions galore */
                o.strategy = GEN_KPATH;
                o.recurrent = true;
                o.max_repetitions = 40;
            }
            o.count = variant >= 3 ? 40 : 0;
            char *error = NULL;
            struct generator *gen = gen_new(l.graph, &o, &error);
            free(error);
            if (!CHECK(gen != NULL))
                continue;
            while (gen_step(gen)) {
                if (!(gen->events & GEN_EVENT_TREE_FINISHED))
                    continue;
                size_t last = gen->ninputs - 1;
                struct derivation rebuilt;
                gen_input_tree(gen, last, &rebuilt);
                char why[256];
                tree_difference(&gen->tree, &rebuilt, why, sizeof why);
                if (why[0] && bad++ < 3)
                    fprintf(stderr, "  grammar %zu variant %d input %zu: %s\n", i, variant, last,
                            why);
                checked++;
                packed_bytes += gen->inputs[last].tree.len;
                tree_bytes += gen->tree.len * sizeof *gen->tree.insts +
                              gen->tree.nkids * sizeof *gen->tree.kids;
                derivation_free(&rebuilt);
            }
            gen_free(gen);
        }
        test_unload(&l);
    }
    free(random_text);
    CHECK_INT(bad, 0);
    CHECK(checked > 1000);
    /* The point of packing: a small fraction of the tree's own arrays. */
    CHECK(packed_bytes * 8 < tree_bytes);
}

/* A tree expanded out of pre-order (as the walk to a target does it), with
 * characters and repetition counts that take several bytes, packs and
 * rebuilds to the same instances in the same order. */
TEST(gen_packed_tree_keeps_the_expansion_order)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := A B A;\nA := [a-z\\u{4e00}-\\u{9fff}]{0,300};\nB := \"b\" | A;\n",
                                &l)))
        return;
    struct derivation t, rebuilt;
    derivation_init(&t, l.graph, 0);
    CHECK(derivation_expand(&t, 0, 0));                      /* S: cat of A B A, instances 1..3 */
    const uint32_t *kids = derivation_children(&t, 0);
    uint32_t a1 = kids[0], b = kids[1], a2 = kids[2];
    /* The last A first, then B, then the first A: not pre-order. */
    CHECK(derivation_expand(&t, a2, 0));
    uint32_t q2 = derivation_children(&t, a2)[0];
    CHECK(derivation_expand(&t, q2, 300));
    CHECK(derivation_expand(&t, b, 1));
    uint32_t b_a = derivation_children(&t, b)[0];
    CHECK(derivation_expand(&t, a1, 0));
    CHECK(derivation_expand(&t, b_a, 0));
    uint32_t q1 = derivation_children(&t, a1)[0], q3 = derivation_children(&t, b_a)[0];
    CHECK(derivation_expand(&t, q3, 0));
    CHECK(derivation_expand(&t, q1, 2));
    for (size_t i = t.len; i-- > 0;) /* classes, last to first */
        if (t.insts[i].open)
            CHECK(derivation_expand(&t, (uint32_t)i, i % 2 ? 0x9fa5 : 'q'));
    CHECK(derivation_complete(&t));
    struct derivation_packed p;
    derivation_pack(&t, &p);
    derivation_unpack(&p, l.graph, &rebuilt);
    char why[256];
    tree_difference(&t, &rebuilt, why, sizeof why);
    CHECK_STR(why, "");
    struct strbuf a = STRBUF_INIT, c = STRBUF_INIT;
    derivation_text(&t, &a);
    derivation_text(&rebuilt, &c);
    CHECK_STR(strbuf_str(&c), strbuf_str(&a));
    strbuf_free(&a);
    strbuf_free(&c);
    derivation_packed_free(&p);
    derivation_free(&rebuilt);
    derivation_free(&t);
    test_unload(&l);
}

/* ---- issue 17.3: drop_redundant from the kept k-path ranks -------------- */

struct rank_collect {
    const struct kpath_space *sp;
    uint64_t *ranks;
    size_t len, cap;
};

static void add_rank(const uint32_t *path, void *ctx)
{
    struct rank_collect *c = ctx;
    uint64_t r;
    if (!kpath_rank(c->sp, path, &r))
        return;
    for (size_t i = 0; i < c->len; i++)
        if (c->ranks[i] == r)
            return;
    if (c->len == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->ranks = realloc(c->ranks, c->cap * sizeof *c->ranks);
    }
    c->ranks[c->len++] = r;
}

/* The suite drop_redundant must leave, worked out here from the rebuilt trees
 * of a run that keeps every input, as gen.h defines it: newest first, drop an
 * input when every target it holds is held by at least one other input still
 * there (counts of holders saturate at 255 and are then never lowered, as
 * gen.c documents); then each kept input newly covers what no kept input
 * before it holds.  Compares the kept texts and new k-paths with `dropped`. */
static void check_drop_against_trees(const struct generator *all, const struct generator *dropped,
                                     const struct kpath_space *sp, const struct kpath_set *targets,
                                     const char *what, size_t *removed)
{
    size_t n = all->ninputs;
    struct rank_collect *per = calloc(n + 1, sizeof *per);
    /* Exact counts: an input goes only when every target it holds has
     * another holder still there. */
    uint32_t *count = calloc((size_t)sp->total + 1, sizeof *count);
    for (size_t i = 0; i < n; i++) {
        per[i].sp = sp;
        derivation_foreach_kpath(input_tree(all, i), sp->k, add_rank, &per[i]);
        for (size_t j = 0; j < per[i].len; j++)
            if (!targets || kpath_set_contains_rank(targets, per[i].ranks[j]))
                count[per[i].ranks[j]]++;
    }
    bool *gone = calloc(n + 1, sizeof *gone);
    for (size_t i = n; i-- > 0;) {
        bool redundant = true;
        for (size_t j = 0; j < per[i].len && redundant; j++)
            if (!targets || kpath_set_contains_rank(targets, per[i].ranks[j]))
                redundant = count[per[i].ranks[j]] >= 2;
        if (!redundant)
            continue;
        gone[i] = true;
        for (size_t j = 0; j < per[i].len; j++)
            if (!targets || kpath_set_contains_rank(targets, per[i].ranks[j]))
                count[per[i].ranks[j]]--;
    }
    memset(count, 0, ((size_t)sp->total + 1) * sizeof *count);
    size_t kept = 0, bad = 0;
    uint32_t *path = malloc(sp->k * sizeof *path);
    for (size_t i = 0; i < n; i++) {
        if (gone[i])
            continue;
        if (kept >= dropped->ninputs) {
            kept++;
            continue;
        }
        const struct gen_input *in = &dropped->inputs[kept++];
        const struct gen_input *want = &all->inputs[i];
        if (in->len != want->len || memcmp(in->text, want->text, in->len) != 0)
            bad++;
        uint32_t nnew = 0;
        for (size_t j = 0; j < per[i].len; j++)
            if (!count[per[i].ranks[j]]) {
                count[per[i].ranks[j]] = 1;
                nnew++;
                kpath_unrank(sp, per[i].ranks[j], path);
                bool listed = false;
                for (uint32_t m = 0; m < in->nnew && !listed; m++)
                    listed = memcmp(in->new_paths + (size_t)m * sp->k, path,
                                    sp->k * sizeof *path) == 0;
                bad += !listed;
            }
        bad += in->nnew != nnew;
    }
    if (!CHECK_INT(dropped->ninputs, kept) || !CHECK_INT(bad, 0))
        fprintf(stderr, "  %s: %zu of %zu inputs kept here, %zu by the generator\n", what,
                kept, n, dropped->ninputs);
    *removed += n - kept;
    free(path);
    for (size_t i = 0; i < n; i++)
        free(per[i].ranks);
    free(per);
    free(gone);
    free(count);
}

/* drop_redundant decides from the k-path ranks each input's tree had when it
 * finished, so the whole run rebuilds no packed tree (before, it rebuilt
 * every tree twice at the end); its result is the one worked out from the
 * trees, on the bundled grammars, a random one and with a target subset. */
/* Both ways the generator keeps holder counts: a byte each below 255 (the
 * bundled grammars' suites never reach it), and, with the seam lowered to
 * 2, in the map from 2 holders on (where a count that stopped at its limit
 * and never fell again would drop every holder of a common k-path). */
TEST(gen_drop_redundant_rebuilds_no_tree_and_matches_the_trees)
{
    char *random_text = random_grammar(11, 200);
    size_t removed = 0, removed_with_targets = 0;
    size_t nbundled = sizeof bundled / sizeof bundled[0];
    unsigned in_map = gen_holders_in_map;
    for (size_t round = 0; round < 2 * (nbundled + 2); round++) {
        size_t i = round % (nbundled + 2);
        gen_holders_in_map = round < nbundled + 2 ? in_map : 2;
        struct loaded l;
        bool loaded = i < nbundled ? test_load_file(bundled[i], &l)
                                   : test_load_string(random_text, &l);
        if (!CHECK(loaded))
            continue;
        for (int variant = 0; variant < 4; variant++) {
            struct gen_options o;
            gen_options_default(&o);
            o.k = variant < 2 ? 2 : 3;
            o.closeoff = variant % 2 ? GEN_CLOSE_GREEDY : GEN_CLOSE_SHORTEST;
            struct kpath_space sp;
            kpath_space_init(&sp, l.graph, o.k);
            /* The last round: every other k-path a target (subset targeting). */
            struct kpath_set target_set;
            kpath_set_init(&target_set, &sp);
            uint32_t *targets = NULL;
            if (i == nbundled + 1) {
                targets = malloc((size_t)sp.total * o.k * sizeof *targets);
                for (uint64_t r = 0; r < sp.total; r += 2) {
                    kpath_unrank(&sp, r, targets + o.ntargets * o.k);
                    kpath_set_add(&target_set, targets + o.ntargets * o.k);
                    o.ntargets++;
                }
                o.targets = targets;
            }
            char *error = NULL;
            struct generator *all = gen_new(l.graph, &o, &error);
            free(error);
            o.drop_redundant = true;
            error = NULL;
            struct generator *dropped = gen_new(l.graph, &o, &error);
            free(error);
            if (CHECK(all != NULL) && CHECK(dropped != NULL)) {
                gen_run(all);
                uint64_t unpacks = derivation_unpack_count();
                gen_run(dropped);
                CHECK_INT(derivation_unpack_count() - unpacks, 0);
                char what[128];
                snprintf(what, sizeof what, "grammar %zu, k=%u, %s, map from %u", i, o.k,
                         gen_closeoff_name(o.closeoff), gen_holders_in_map);
                check_drop_against_trees(all, dropped, &sp, targets ? &target_set : NULL, what,
                                         targets ? &removed_with_targets : &removed);
            }
            gen_free(all);
            gen_free(dropped);
            free(targets);
            kpath_set_free(&target_set);
            kpath_space_free(&sp);
        }
        test_unload(&l);
    }
    gen_holders_in_map = in_map;
    free(random_text);
    /* The comparisons saw inputs dropped, with and without targets. */
    CHECK(removed > 100);
    CHECK(removed_with_targets > 10);
}

/* Issue 10, point 2: the greedy close-off must not fix a repetition count
 * on the way to a target.  start := S; S := "s" I*; I := "a" | "b" J;
 * J := "c" | "d".  1-paths: S "s" I "a" "b" J "c" "d".  The deepest
 * targets come first: "c" (S I J).  The walk passes through I*: one
 * repetition would make "sbc", then "sbd" and "sa", three inputs.  With
 * the greedy count there, one repetition of I adds I and I's successors
 * "a", "b", J: 4 new 1-paths, capped at 3 repetitions.  The first follows
 * the way ("bc"); closing the second, "a" and "b" J each add one ("a";
 * "d" below J), the shorter "a" wins; the third adds "d": "sbcabd", one
 * input of 6 bytes covering all 8. */
TEST(gen_greedy_repeats_a_quantifier_on_the_way_for_other_targets)
{
    struct loaded l;
    if (!CHECK(test_load_string("start := S;\nS := \"s\" I*;\nI := \"a\" | \"b\" J;\n"
                                "J := \"c\" | \"d\";\n",
                                &l)))
        return;
    struct generator *gen = run(l.graph, GEN_KPATH, 1, 0, 1, GEN_CLOSE_GREEDY);
    if (gen && CHECK_INT(gen->ninputs, 1))
        CHECK_STR(gen->inputs[0].text, "sbcabd");
    if (gen)
        CHECK_INT(gen->covered.size, 8);
    gen_free(gen);
    /* The shortest close-off keeps one repetition: an input per target. */
    gen = run(l.graph, GEN_KPATH, 1, 0, 1, GEN_CLOSE_SHORTEST);
    if (gen)
        CHECK(gen->ninputs > 1);
    gen_free(gen);
    test_unload(&l);
}

/* The generator and the parser agree on what a tree holds: the k-paths the
 * generator claims for its inputs (gen->covered, what cover reports) are
 * exactly those a parse of the inputs' text finds (what coverage reports),
 * on the examples of issue 38 (item 3: an empty repetition past a
 * quantifier's minimum, which no parse counts) and on random grammars and
 * mutants of them with nullable items ("" literals, optional groups). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "../support/random_grammar.h"
#include "base/strbuf.h"
#include "gen/gen.h"
#include "formats/grammar_load.h"
#include "grammar/grammar.h"
#include "harness.h"
#include "parse/parse.h"

/* Run the kpath strategy to the end and compare its claim with a parse of
 * every input.  Returns the number of k-paths the parse found; *claimed gets
 * the generator's. */
static uint64_t claimed_and_parsed(const struct graph *g, uint32_t k, enum gen_closeoff c,
                                   uint64_t seed, uint64_t *claimed, bool *same, bool *subset)
{
    struct gen_options o;
    gen_options_default(&o);
    o.k = k;
    o.closeoff = c;
    o.seed = seed;
    o.max_depth = 6;
    o.max_size = 120;
    char *error = NULL;
    struct generator *gen = gen_new(g, &o, &error);
    free(error);
    *claimed = 0;
    *same = *subset = true;
    if (!gen)
        return 0;
    gen_run(gen);
    struct kpath_set parsed;
    kpath_set_init(&parsed, &gen->space);
    struct kpath_set *sets[1] = {&parsed};
    for (size_t i = 0; i < gen->ninputs; i++) {
        struct diag_list d = DIAG_LIST_INIT;
        uint64_t trees = 0;
        bool infinite = false;
        bool ok = parse_kpaths(g, "input", gen->inputs[i].text, gen->inputs[i].len, NULL, sets, 1,
                               NULL, &trees, &infinite, &d);
        if (!CHECK(ok))
            fprintf(stderr, "  input %zu '%.*s' does not parse\n", i, (int)gen->inputs[i].len,
                    gen->inputs[i].text);
        diag_list_free(&d);
    }
    *claimed = gen->covered.size;
    /* Every claimed k-path is found by the parse, and the parse finds no
     * other: then the sizes are equal too. */
    struct kpath_iter it;
    kpath_iter_init(&it, &gen->space);
    while (kpath_iter_next(&it)) {
        bool in_claim = kpath_set_contains(&gen->covered, it.path);
        bool in_parse = kpath_set_contains(&parsed, it.path);
        *same &= in_claim == in_parse;
        *subset &= !in_claim || in_parse;
    }
    kpath_iter_free(&it);
    uint64_t n = parsed.size;
    kpath_set_free(&parsed);
    gen_free(gen);
    return n;
}

static void check_agree(const char *text, uint32_t k, uint64_t want)
{
    struct loaded l;
    if (!CHECK(test_load_string(text, &l)))
        return;
    for (int c = 0; c < 3; c++) {
        uint64_t claimed;
        bool same, subset;
        uint64_t parsed =
            claimed_and_parsed(l.graph, k, (enum gen_closeoff)c, 1, &claimed, &same, &subset);
        if (!CHECK(same && claimed == parsed))
            fprintf(stderr, "  %s (close-off %d): claimed %llu, parsed %llu\n", text, c,
                    (unsigned long long)claimed, (unsigned long long)parsed);
        CHECK_INT(parsed, want);
    }
    test_unload(&l);
}

/* "[]" has two trees by the letter of a quantifier (E? with none or with
 * one empty E), but a repetition past the minimum that produces no text is
 * in no tree kpath counts: V_5 -> ""_7 is in no input, of 3 2-paths
 * E_4 V_5, V_5 ""_7, V_5 "a"_8.  Before, cover claimed 3 of 3. */
TEST(gen_parse_agree_optional_empty_item)
{
    check_agree("S := \"[\" E? \"]\";\nE := V;\nV := \"\" | \"a\";\n", 2, 2);
}

TEST(gen_parse_agree_starred_empty_item)
{
    check_agree("S := \"[\" E* \"]\";\nE := V;\nV := \"\" | \"a\";\n", 2, 2);
}

/* T := T?: the only text is "", whose one counted tree is T with no
 * repetition: T_1 -> T_1 is never covered. */
TEST(gen_parse_agree_self_optional)
{
    check_agree("T := T?;\n", 2, 0);
    check_agree("T := T?;\n", 1, 0);
}

/* The empty ANTLR alternative makes the same grammar as V := "" | "a". */
TEST(gen_parse_agree_empty_antlr_alternative)
{
    static const char text[] = "grammar G;\ns : '[' e? ']' ;\ne : v ;\nv : | 'a' ;\n";
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *gm = grammar_open_string("g.g4", text, sizeof text - 1, GRAMMAR_FORMAT_G4,
                                             NULL, &d);
    diag_list_free(&d);
    if (!CHECK(gm != NULL))
        return;
    struct graph *g = graph_build(gm);
    uint64_t claimed;
    bool same, subset;
    uint64_t parsed = claimed_and_parsed(g, 2, GEN_CLOSE_GREEDY, 1, &claimed, &same, &subset);
    CHECK(same);
    CHECK_INT(claimed, 2);
    CHECK_INT(parsed, 2);
    graph_free(g);
    grammar_free(gm);
}

/* A mutant: every third literal made "" and, by the seed, some items made
 * optional groups, so that repeated items can produce no text. */
static char *mutate(const char *text, uint64_t seed)
{
    struct strbuf out = STRBUF_INIT;
    uint32_t lits = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '"' && p[1] && p[2] == '"') {
            if (++lits % 3 == seed % 3) {
                strbuf_addstr(&out, (seed & 4) ? "(\"\" | \"" : "\"\"");
                if (seed & 4) {
                    strbuf_addch(&out, p[1]);
                    strbuf_addstr(&out, "\")");
                }
            } else {
                strbuf_add(&out, p, 3);
            }
            p += 2;
            continue;
        }
        strbuf_addch(&out, *p);
    }
    return strbuf_detach(&out, NULL);
}

TEST(gen_parse_agree_on_random_grammars_and_mutants)
{
    /* An ambiguous input may hold more k-paths than the tree it was made
     * from (every tree counts); the generator must claim none that no tree
     * holds. */
    unsigned compared = 0, disagreed = 0, ambiguous = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        char *base = random_grammar(seed, 3 + (uint32_t)(seed % 5));
        for (int m = 0; m < 2; m++) {
            char *text = m ? mutate(base, seed) : strdup(base);
            struct loaded l;
            if (CHECK(test_load_string(text, &l))) {
                for (uint32_t k = 1; k <= 2 + (seed % 2); k++) {
                    uint64_t claimed;
                    bool same, subset;
                    claimed_and_parsed(l.graph, k, (enum gen_closeoff)(seed % 3), seed, &claimed,
                                       &same, &subset);
                    compared++;
                    if (getenv("KPATH_TEST_VERBOSE"))
                        fprintf(stderr, "seed %llu m %d k %u\n", (unsigned long long)seed, m, k);
                    ambiguous += !same && subset;
                    if (!subset) {
                        disagreed++;
                        if (disagreed <= 5)
                            fprintf(stderr, "  k=%u seed %llu mutant %d:\n%s\n", k,
                                    (unsigned long long)seed, m, text);
                    }
                }
                test_unload(&l);
            }
            free(text);
        }
        free(base);
    }
    CHECK_INT(disagreed, 0);
    CHECK(compared >= 150);
    if (getenv("KPATH_TEST_VERBOSE"))
        fprintf(stderr, "  %u runs, %u with more k-paths parsed than claimed (ambiguity)\n",
                compared, ambiguous);
}

/* Parsing samples: round trips with generated inputs on every bundled
 * grammar, errors at the right place with the right expectations, ambiguity,
 * left recursion, epsilon and very deep inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "gen/gen.h"
#include "harness.h"
#include "parse/parse.h"

static const char *const bundled[] = {
    "grammars/expr.ebnf", "grammars/digits.ebnf", "grammars/fsm.ebnf",
    "grammars/config.ebnf", "grammars/arith.ebnf", "grammars/json.ebnf",
    "grammars/csv.ebnf", "grammars/url.ebnf", "grammars/ini.ebnf",
};

static struct forest *parse(const struct graph *g, const char *text, struct diag_list *d)
{
    return parse_text(g, "sample", text, strlen(text), NULL, d);
}

/* Every k-path (k = 1..3) of the generated tree is in the parse forest. */
static bool round_trip(const struct graph *g, const struct generator *gen, size_t i)
{
    const struct gen_input *in = &gen->inputs[i];
    struct derivation tree;
    gen_input_tree(gen, i, &tree);
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse_text(g, "generated", in->text, in->len, NULL, &d);
    bool ok = f != NULL;
    if (!f)
        fprintf(stderr, "  does not parse: \"%s\": %s\n", in->text, d.len ? d.items[0].message : "");
    for (uint32_t k = 1; ok && k <= 3; k++) {
        struct kpath_space sp;
        kpath_space_init(&sp, g, k);
        struct kpath_set from_tree, from_forest;
        kpath_set_init(&from_tree, &sp);
        kpath_set_init(&from_forest, &sp);
        derivation_add_kpaths(&tree, &from_tree);
        forest_add_kpaths(f, &from_forest);
        uint64_t before = from_forest.size;
        kpath_set_union(&from_forest, &from_tree);
        if (from_forest.size != before) {
            fprintf(stderr, "  \"%s\": the forest lacks %llu of the tree's %u-paths\n", in->text,
                    (unsigned long long)(from_forest.size - before), k);
            ok = false;
        }
        kpath_set_free(&from_tree);
        kpath_set_free(&from_forest);
        kpath_space_free(&sp);
    }
    forest_free(f);
    diag_list_free(&d);
    derivation_free(&tree);
    return ok;
}

TEST(parse_round_trips_generated_inputs_on_every_bundled_grammar)
{
    for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(bundled[i], &l)))
            continue;
        for (int strategy = GEN_KPATH; strategy <= GEN_RANDOM; strategy++) {
            struct gen_options o;
            gen_options_default(&o);
            o.strategy = (enum gen_strategy)strategy;
            o.k = 3;
            o.closeoff = GEN_CLOSE_GREEDY;
            o.count = strategy == GEN_KPATH ? 0 : 50;
            char *error;
            struct generator *gen = gen_new(l.graph, &o, &error);
            gen_run(gen);
            size_t failures = 0;
            for (size_t j = 0; j < gen->ninputs; j++)
                failures += !round_trip(l.graph, gen, j);
            if (!CHECK_INT(failures, 0))
                fprintf(stderr, "  in %s\n", bundled[i]);
            gen_free(gen);
        }
        test_unload(&l);
    }
}

static void check_error(const struct graph *g, const char *text, const char *expected)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse(g, text, &d);
    CHECK(f == NULL);
    if (CHECK_INT(d.len, 1)) {
        struct strbuf sb = STRBUF_INIT;
        diag_format(&d.items[0], &sb);
        CHECK_STR(strbuf_str(&sb), expected);
        strbuf_free(&sb);
    }
    forest_free(f);
    diag_list_free(&d);
}

TEST(parse_errors_point_at_the_furthest_position_with_what_was_expected)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    /* After "x+4" a digit, an operator or the end may come; not ")". */
    check_error(l.graph, "x+4)", "sample:1:4: error: no parse: unexpected ')'; expected one of "
                "'%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', "
                "end of input");
    /* An operand is missing at the end: every way a UnaryExpr starts. */
    check_error(l.graph, "(x*", "sample:1:4: error: no parse: unexpected end of input; expected "
                "one of '(', '+', '++', '-', '--', '0', '1', '2', '3', '4', '5', '6', '7', '8', "
                "'9', 'x', 'y', 'z'");
    /* A line break at the very end (editors add one) gets a hint; after
     * "x" only an operator or the end may come. */
    check_error(l.graph, "x\n", "sample:1:2: error: no parse: unexpected '\\n'; expected one of "
                "'%', '*', '+', '-', '/', end of input (the sample ends with a line break, which "
                "the grammar does not allow: remove it, or allow trailing whitespace in the "
                "grammar)");
    check_error(l.graph, "x\r\n", "sample:1:2: error: no parse: unexpected '\\r'; expected one "
                "of '%', '*', '+', '-', '/', end of input (the sample ends with a line break, "
                "which the grammar does not allow: remove it, or allow trailing whitespace in the "
                "grammar)");
    /* Not when more than line breaks follows. */
    check_error(l.graph, "x\ny\n", "sample:1:2: error: no parse: unexpected '\\n'; expected one "
                "of '%', '*', '+', '-', '/', end of input");
    test_unload(&l);

    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    /* In an object after a member only "," or "}" (or whitespace) may come. */
    check_error(l.graph, "{\"a\": 1 \"b\": 2}", "sample:1:9: error: no parse: unexpected '\"'; "
                "expected one of '\\t', '\\n', '\\r', ' ', ',', '}'");
    check_error(l.graph, "[01]", "sample:1:3: error: no parse: unexpected '1'; expected one of "
                "'\\t', '\\n', '\\r', ' ', ',', '.', 'E', ']', 'e'");
    /* Lines and columns count characters (the é is one); expectations are
     * ordered by character, classes by their first character. */
    check_error(l.graph, "[\"é\",\n é]", "sample:2:2: error: no parse: unexpected 'é'; expected "
                "one of '\\t', '\\n', '\\r', ' ', '\"', '-', '0', [1-9], '[', 'false', 'null', 'true', '{'");
    test_unload(&l);
}

TEST(parse_errors_say_where_a_longer_literal_stops_matching)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := \"abc\" | \"abd\" | \"z\" ;\n", &l)))
        return;
    /* "ab" matches two characters of 'abc' and 'abd', stops at the x
     * (column 3); the first of equals is named. */
    check_error(l.graph, "abx", "sample:1:1: error: no parse: unexpected 'a'; expected one of "
                "'abc', 'abd', 'z' ('abc' stops matching at 1:3: 'x')");
    /* At the end of the input. */
    check_error(l.graph, "ab", "sample:1:1: error: no parse: unexpected 'a'; expected one of "
                "'abc', 'abd', 'z' ('abc' stops matching at 1:3: end of input)");
    /* No literal beginning with the character: nothing added. */
    check_error(l.graph, "q", "sample:1:1: error: no parse: unexpected 'q'; expected one of "
                "'abc', 'abd', 'z'");
    test_unload(&l);
    /* Across a line break, the position is the stop's own. */
    if (!CHECK(test_load_string("S := \"x\\nyz\" ;\n", &l)))
        return;
    check_error(l.graph, "x\nyq", "sample:1:1: error: no parse: unexpected 'x'; expected "
                "'x\\nyz' ('x\\nyz' stops matching at 2:2: 'q')");
    test_unload(&l);
}

TEST(parse_rejects_invalid_utf8_and_oversized_inputs)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(parse(l.graph, "[\"a\xff\"]", &d) == NULL);
    if (CHECK_INT(d.len, 1)) {
        CHECK_STR(d.items[0].message, "invalid UTF-8 byte 0xFF");
        CHECK_INT(d.items[0].col, 4);
    }
    diag_list_free(&d);
    /* A memory budget: the parse stops where it ran out, said as such. */
    struct parse_options tight = {.max_memory = 4096};
    CHECK(parse_text(l.graph, "long", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]", 55,
                     &tight, &d) == NULL);
    if (CHECK_INT(d.len, 1)) {
        CHECK(strstr(d.items[0].message, "parsing stopped here: it needs more than 4 KiB of memory") != NULL);
        CHECK(d.items[0].col > 1 && d.items[0].col < 55);
    }
    diag_list_free(&d);
    struct parse_options small = {.max_input_size = 4};
    CHECK(parse_text(l.graph, "big", "[1,2]", 5, &small, &d) == NULL);
    if (CHECK_INT(d.len, 1))
        CHECK_STR(d.items[0].message, "input is 5 bytes, more than the limit of 4 (--max-input-size)");
    diag_list_free(&d);
    test_unload(&l);
}

/* should_stop: true at its `stop_at`-th question. */
struct stopper {
    int asked, stop_at;
};

static bool stop_when_told(void *ctx)
{
    struct stopper *s = ctx;
    return ++s->asked == s->stop_at;
}

TEST(parse_stops_when_asked)
{
    /* S := "a"*, on ten a's: the parser asks after each Earley set but the
     * last, sets 0, 1, 2, ...; told to stop at the third question, it stops
     * after set 2, at column 3 (the position set 2 stands for). */
    struct loaded l;
    if (!CHECK(test_load_string("S := \"a\"*;", &l)))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    struct stopper st = {0, 3};
    struct parse_options po = {.should_stop = stop_when_told, .should_stop_ctx = &st};
    CHECK(parse_text(l.graph, "t", "aaaaaaaaaa", 10, &po, &d) == NULL);
    CHECK_INT(st.asked, 3);
    if (CHECK_INT(d.len, 1)) {
        CHECK_STR(d.items[0].message, "parsing stopped here, as asked");
        CHECK_INT(d.items[0].line, 1);
        CHECK_INT(d.items[0].col, 3);
    }
    diag_list_free(&d);
    /* Without a forest (every command that counts k-paths) the same, but
     * only the sets it builds ask (its fast path may stand for many at
     * once): told to stop at the first question, it stops after set 0. */
    st = (struct stopper){0, 1};
    uint64_t trees;
    bool infinite;
    CHECK(!parse_kpaths(l.graph, "t", "aaaaaaaaaa", 10, &po, NULL, 0, NULL, &trees, &infinite, &d));
    if (CHECK_INT(d.len, 1)) {
        CHECK_STR(d.items[0].message, "parsing stopped here, as asked");
        CHECK_INT(d.items[0].col, 1);
    }
    diag_list_free(&d);
    /* Never told to stop: asked once per set but the last, and it parses. */
    st = (struct stopper){0, -1};
    struct forest *f = parse_text(l.graph, "t", "aaaaaaaaaa", 10, &po, &d);
    CHECK(f != NULL);
    CHECK_INT(st.asked, 10);
    CHECK_INT(d.len, 0);
    forest_free(f);
    diag_list_free(&d);
    test_unload(&l);
}

static bool add_path(const uint32_t *path, void *ctx)
{
    strbuf_addf(ctx, "%u>%u ", path[0], path[1]);
    return true;
}

TEST(parse_ambiguous_inputs_count_trees_and_cover_from_all_of_them)
{
    /* Nodes: 0 alt, 1 A, 2 B, 3 "x" (A's), 4 "x" (B's).  "x" has two trees,
     * one with A_1 -> "x"_3, one with B_2 -> "x"_4: both 2-paths count. */
    struct loaded l;
    if (!CHECK(test_load_string("S := A | B;\nA := \"x\";\nB := \"x\";\n", &l)))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse(l.graph, "x", &d);
    if (CHECK(f != NULL)) {
        bool infinite;
        CHECK_INT(forest_count_trees(f, &infinite), 2);
        CHECK(!infinite);
        struct kpath_space sp;
        kpath_space_init(&sp, l.graph, 2);
        struct kpath_set set;
        kpath_set_init(&set, &sp);
        CHECK_INT(forest_add_kpaths(f, &set), 2);
        struct strbuf got = STRBUF_INIT;
        kpath_set_foreach(&set, add_path, &got);
        CHECK_STR(strbuf_str(&got), "1>3 2>4 ");
        strbuf_free(&got);
        kpath_set_free(&set);
        kpath_space_free(&sp);
    }
    forest_free(f);
    test_unload(&l);

    /* E := E "+" E | "x": the trees of x+x+...+x (n operands) are counted by
     * the Catalan numbers: 1, 1, 2, 5, 14, 42. */
    if (!CHECK(test_load_string("E := E \"+\" E | \"x\";", &l)))
        return;
    static const char *const inputs[] = {"x", "x+x", "x+x+x", "x+x+x+x", "x+x+x+x+x", "x+x+x+x+x+x"};
    static const uint64_t catalan[] = {1, 1, 2, 5, 14, 42};
    for (int i = 0; i < 6; i++) {
        f = parse(l.graph, inputs[i], &d);
        bool infinite;
        if (CHECK(f != NULL))
            CHECK_INT(forest_count_trees(f, &infinite), catalan[i]);
        forest_free(f);
    }
    diag_list_free(&d);
    test_unload(&l);
}

TEST(parse_left_recursion_epsilon_and_cycles)
{
    struct loaded l;
    struct diag_list d = DIAG_LIST_INIT;
    bool infinite;
    /* Left recursion with an empty base: exactly one tree per input. */
    if (CHECK(test_load_string("L := L \"a\" | \"\";", &l))) {
        static const char *const inputs[] = {"", "a", "aaaa"};
        for (int i = 0; i < 3; i++) {
            struct forest *f = parse(l.graph, inputs[i], &d);
            if (CHECK(f != NULL))
                CHECK_INT(forest_count_trees(f, &infinite), 1);
            forest_free(f);
        }
        test_unload(&l);
    }
    /* Nullable items in sequence and under a quantifier: (A B)* with A, B
     * optional.  "ab" has two trees: one repetition (a, b), or two, (a, "")
     * then ("", b).  Wholly empty repetitions are left out, or there would be
     * infinitely many. */
    if (CHECK(test_load_string("S := (A B)*;\nA := \"a\"?;\nB := \"b\"?;\n", &l))) {
        struct forest *f = parse(l.graph, "ab", &d);
        if (CHECK(f != NULL))
            CHECK_INT(forest_count_trees(f, &infinite), 2);
        forest_free(f);
        f = parse(l.graph, "ba", &d);
        if (CHECK(f != NULL)) /* "" then "b", then "a" then "": as (A B)(A B) */
            CHECK_INT(forest_count_trees(f, &infinite), 1);
        forest_free(f);
        test_unload(&l);
    }
    /* A unit cycle: S derives S.  Infinitely many trees, flagged. */
    if (CHECK(test_load_string("S := T | \"x\";\nT := S;\n", &l))) {
        struct forest *f = parse(l.graph, "x", &d);
        if (CHECK(f != NULL)) {
            CHECK_INT(forest_count_trees(f, &infinite), (long long)UINT64_MAX);
            CHECK(infinite);
            struct derivation t;
            CHECK(forest_first_tree(f, &t));
            struct strbuf text = STRBUF_INIT;
            derivation_text(&t, &text);
            CHECK_STR(strbuf_str(&text), "x");
            strbuf_free(&text);
            derivation_free(&t);
        }
        forest_free(f);
        test_unload(&l);
    }
    diag_list_free(&d);
}

TEST(parse_first_tree_rebuilds_the_input)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    const char *doc = "{\"a\": [1, -2.5e+3, true, null, \"\\u00e9\\n\"], \"b\": {}}";
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse(l.graph, doc, &d);
    if (CHECK(f != NULL)) {
        struct derivation t;
        CHECK(forest_first_tree(f, &t));
        struct strbuf text = STRBUF_INIT;
        derivation_text(&t, &text);
        CHECK_STR(strbuf_str(&text), doc);
        bool infinite;
        CHECK_INT(forest_count_trees(f, &infinite), 1);
        /* The tree's k-paths are the forest's when there is one tree. */
        struct kpath_space sp;
        kpath_space_init(&sp, l.graph, 3);
        struct kpath_set a, b;
        kpath_set_init(&a, &sp);
        kpath_set_init(&b, &sp);
        derivation_add_kpaths(&t, &a);
        forest_add_kpaths(f, &b);
        CHECK_INT(a.size, b.size);
        kpath_set_union(&a, &b);
        CHECK_INT(a.size, b.size);
        kpath_set_free(&a);
        kpath_set_free(&b);
        kpath_space_free(&sp);
        strbuf_free(&text);
        derivation_free(&t);
    }
    forest_free(f);
    diag_list_free(&d);
    test_unload(&l);
}

TEST(parse_deeply_nested_inputs_do_not_overflow_the_stack)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    enum { DEPTH = 100000 };
    char *doc = malloc(2 * DEPTH + 2);
    memset(doc, '[', DEPTH);
    memset(doc + DEPTH, ']', DEPTH);
    doc[2 * DEPTH] = '\0';
    struct diag_list d = DIAG_LIST_INIT;
    struct parse_options o = {0};
    struct forest *f = parse_text(l.graph, "deep", doc, 2 * DEPTH, &o, &d);
    if (CHECK(f != NULL)) {
        bool infinite;
        CHECK_INT(forest_count_trees(f, &infinite), 1);
        struct kpath_space sp;
        kpath_space_init(&sp, l.graph, 2);
        struct kpath_set set;
        kpath_set_init(&set, &sp);
        CHECK(forest_add_kpaths(f, &set) > 0);
        struct derivation t;
        CHECK(forest_first_tree(f, &t));
        CHECK_INT(t.len > DEPTH, 1);
        derivation_free(&t);
        kpath_set_free(&set);
        kpath_space_free(&sp);
    }
    forest_free(f);
    diag_list_free(&d);
    free(doc);
    test_unload(&l);
}

static size_t items_for(const struct graph *g, const char *text)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse_text(g, "n", text, strlen(text), NULL, &d);
    size_t n = f ? forest_item_count(f) : 0;
    forest_free(f);
    diag_list_free(&d);
    return n;
}

TEST(parse_right_recursion_stays_linear)
{
    /* arith's Int := Digit Int | Digit is right-recursive: without pruning by
     * what can follow, every open Int completes at every digit and the items
     * grow with the square of the length.  Counted, not timed. */
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    enum { N = 20000 };
    char *digits = malloc(2 * N + 1);
    memset(digits, '7', 2 * N);
    digits[N] = '\0';
    size_t one = items_for(l.graph, digits);
    digits[N] = '7';
    digits[2 * N] = '\0';
    size_t two = items_for(l.graph, digits);
    CHECK(one > 0 && two > 0);
    CHECK(two < 3 * one); /* quadratic growth would make it about 4x */
    CHECK(one < 20 * (size_t)N);
    free(digits);
    test_unload(&l);
}

/* An invalid sample costs what the same sample made valid costs.  With
 * N := "0" N | "0", "(" and 4,000 zeros and no ")" stops at the end of input
 * (1:4002), where ")" or another "0" may come.  The error pass used to parse
 * again without lookahead, where right recursion completes every open N at
 * every zero: items growing with the square of the length (600 MB), where
 * the valid sample makes a few per zero; and under a budget of 100 MB, an
 * error at a zero in the middle that named '0' both unexpected and
 * expected.  Counted, not timed. */
TEST(parse_invalid_right_recursion_costs_what_valid_costs)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := \"(\" N \")\";\nN := \"0\" N | \"0\";\n", &l)))
        return;
    enum { N = 4000 };
    char *text = malloc(N + 3);
    text[0] = '(';
    memset(text + 1, '0', N);
    text[N + 1] = ')';
    text[N + 2] = '\0';
    const char *want = "sample:1:4002: error: no parse: unexpected end of input; expected one "
                       "of ')', '0'";
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    size_t items[2] = {0, 0}; /* valid, invalid */
    for (int invalid = 0; invalid <= 1; invalid++) {
        struct parse_stats st;
        struct parse_options po = {.max_memory = (size_t)100 << 20, .stats = &st};
        struct kpath_set set;
        kpath_set_init(&set, &sp);
        struct kpath_set *sets[1] = {&set};
        struct diag_list d = DIAG_LIST_INIT;
        bool ok = parse_kpaths(l.graph, "sample", text, N + 2 - (size_t)invalid, &po, sets, 1,
                               NULL, NULL, NULL, &d);
        CHECK(ok == !invalid);
        items[invalid] = st.items_made;
        if (invalid && CHECK_INT(d.len, 1)) {
            struct strbuf sb = STRBUF_INIT;
            diag_format(&d.items[0], &sb);
            CHECK_STR(strbuf_str(&sb), want);
            strbuf_free(&sb);
        }
        diag_list_free(&d);
        kpath_set_free(&set);
        /* The forest too, under the same budget. */
        struct forest *f = parse_text(l.graph, "sample", text, N + 2 - (size_t)invalid, &po, &d);
        CHECK((f != NULL) == !invalid);
        if (invalid && CHECK_INT(d.len, 1)) {
            struct strbuf sb = STRBUF_INIT;
            diag_format(&d.items[0], &sb);
            CHECK_STR(strbuf_str(&sb), want);
            strbuf_free(&sb);
        }
        forest_free(f);
        diag_list_free(&d);
    }
    /* The valid parse makes about 4 items per zero; the invalid one as many
     * (its last two sets in full: the open Ns completed once). */
    CHECK(items[0] > 0 && items[0] < 8 * (size_t)N);
    if (!CHECK(items[1] <= items[0] + 4 * (size_t)N))
        fprintf(stderr, "  %zu items for the invalid sample, %zu for the valid one\n", items[1],
                items[0]);
    kpath_space_free(&sp);
    free(text);
    test_unload(&l);
}

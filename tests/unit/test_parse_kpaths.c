/* parse_kpaths (k-paths while parsing, no forest) against the forest it
 * replaces: parse_text, then forest_add_kpaths_many, forest_add_expansions
 * and forest_count_trees.  Both must give exactly the same k-path sets for
 * k = 1 .. 4, the same expansions, the same tree count and cycle flag, and
 * the same diagnostic when there is no parse: on
 * every sample in tests/samples, on generated inputs (and mutations of them)
 * of every bundled grammar and of random grammars, and on ambiguous, cyclic
 * and nullable grammars.  The forest's k-path walk is the independent
 * computation here: it propagates ancestor contexts top-down over the whole
 * forest, where parse_kpaths unites chain summaries bottom-up per set. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "../support/random_grammar.h"
#include "formats/grammar_load.h"
#include "gen/gen.h"
#include "grammar/grammar.h"
#include "harness.h"
#include "parse/parse.h"
#include "base/rng.h"
#include "base/samples.h"
#include "base/strbuf.h"

#define MAX_K 4

/* Same outcome both ways?  *parsed tells whether the input parsed; stats,
 * when not NULL, get parse_kpaths' statistics. */
static bool same_both_ways_stats(const struct graph *g, const char *text, size_t len,
                                 bool *parsed, struct parse_stats *stats)
{
    struct parse_stats local;
    struct parse_options po = {.stats = stats ? stats : &local};
    struct kpath_space sp[MAX_K];
    struct kpath_set from_forest[MAX_K], while_parsing[MAX_K];
    struct kpath_set *forest_sets[MAX_K], *parse_sets[MAX_K];
    for (uint32_t k = 1; k <= MAX_K; k++) {
        kpath_space_init(&sp[k - 1], g, k);
        kpath_set_init(&from_forest[k - 1], &sp[k - 1]);
        kpath_set_init(&while_parsing[k - 1], &sp[k - 1]);
        forest_sets[k - 1] = &from_forest[k - 1];
        parse_sets[MAX_K - k] = &while_parsing[k - 1]; /* any order */
    }
    struct expansion_set forest_exp, while_parsing_exp;
    expansion_set_init(&forest_exp, g);
    expansion_set_init(&while_parsing_exp, g);
    struct diag_list d1 = DIAG_LIST_INIT, d2 = DIAG_LIST_INIT;
    bool ok = true;
    struct forest *f = parse_text(g, "input", text, len, NULL, &d1);
    uint64_t trees = 0, forest_trees = 0;
    bool infinite = false, forest_infinite = false;
    if (f) {
        forest_trees = forest_count_trees(f, &forest_infinite);
        forest_add_kpaths_many(f, forest_sets, MAX_K);
        forest_add_expansions(f, &forest_exp);
    }
    bool got = parse_kpaths(g, "input", text, len, &po, parse_sets, MAX_K, &while_parsing_exp,
                            &trees, &infinite, &d2);
    *parsed = f != NULL;
    if (got != (f != NULL)) {
        fprintf(stderr, "  parse_text %s, parse_kpaths %s\n", f ? "parsed" : "failed",
                got ? "parsed" : "failed");
        ok = false;
    } else if (!got) {
        ok = d1.len == d2.len && d1.len && d1.items[0].line == d2.items[0].line &&
             d1.items[0].col == d2.items[0].col &&
             strcmp(d1.items[0].message, d2.items[0].message) == 0;
        if (!ok)
            fprintf(stderr, "  different diagnostics\n");
    } else {
        /* The same items made (the collector only forgets them). */
        if (po.stats->items_made != forest_item_count(f)) {
            fprintf(stderr, "  %zu items made while parsing, %zu in the forest\n",
                    po.stats->items_made, forest_item_count(f));
            ok = false;
        }
        if (trees != forest_trees || infinite != forest_infinite) {
            fprintf(stderr, "  trees %llu%s, forest: %llu%s\n", (unsigned long long)trees,
                    infinite ? " (infinite)" : "", (unsigned long long)forest_trees,
                    forest_infinite ? " (infinite)" : "");
            ok = false;
        }
        for (uint32_t k = 1; k <= MAX_K; k++) {
            uint64_t n = from_forest[k - 1].size;
            kpath_set_union(&from_forest[k - 1], &while_parsing[k - 1]);
            if (while_parsing[k - 1].size != n || from_forest[k - 1].size != n) {
                fprintf(stderr, "  %u-paths: %llu while parsing, %llu from the forest\n", k,
                        (unsigned long long)while_parsing[k - 1].size, (unsigned long long)n);
                ok = false;
            }
        }
        /* The same expansions: as many, and each of them. */
        bool same = forest_exp.count == while_parsing_exp.count;
        for (uint32_t n = 0; same && n < g->nnodes; n++) {
            uint32_t alternatives = g->nodes[n].kind == NODE_ALT ? g->nodes[n].nchildren : 1;
            for (uint32_t i = 0; same && i < alternatives; i++)
                same = expansion_has(&forest_exp, n, i) == expansion_has(&while_parsing_exp, n, i);
        }
        if (!same) {
            fprintf(stderr, "  expansions: %llu while parsing, %llu from the forest%s\n",
                    (unsigned long long)while_parsing_exp.count,
                    (unsigned long long)forest_exp.count,
                    forest_exp.count == while_parsing_exp.count ? ", not the same" : "");
            ok = false;
        }
        /* Parsed inputs use some expansion (the start rule's), so equal
         * counts of zero would say nothing. */
        if (forest_exp.count == 0) {
            fprintf(stderr, "  no expansions from the forest\n");
            ok = false;
        }
    }
    if (!ok)
        fprintf(stderr, "  on \"%.*s\"\n", len > 200 ? 200 : (int)len, text);
    forest_free(f);
    expansion_set_free(&forest_exp);
    expansion_set_free(&while_parsing_exp);
    diag_list_free(&d1);
    diag_list_free(&d2);
    for (uint32_t k = 1; k <= MAX_K; k++) {
        kpath_set_free(&from_forest[k - 1]);
        kpath_set_free(&while_parsing[k - 1]);
        kpath_space_free(&sp[k - 1]);
    }
    return ok;
}

static bool same_both_ways(const struct graph *g, const char *text, size_t len, bool *parsed)
{
    return same_both_ways_stats(g, text, len, parsed, NULL);
}

static bool same_text(const struct graph *g, const char *text)
{
    bool parsed;
    return same_both_ways(g, text, strlen(text), &parsed);
}

/* Every file of directory `dir` (and of its valid/ and invalid/). */
static size_t check_dir(const struct graph *g, const char *dir, size_t *files, size_t *parsed_files)
{
    size_t failures = 0;
    char path[4096];
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".ebnf"))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, "valid") == 0 || strcmp(e->d_name, "invalid") == 0) {
            failures += check_dir(g, path, files, parsed_files);
            continue;
        }
        struct strbuf text = STRBUF_INIT;
        struct diag_list diags = DIAG_LIST_INIT;
        if (samples_read(path, PARSE_DEFAULT_MAX_INPUT, &text, &diags)) {
            bool parsed;
            if (!same_both_ways(g, strbuf_str(&text), text.len, &parsed)) {
                fprintf(stderr, "  in %s\n", path);
                failures++;
            }
            ++*files;
            *parsed_files += parsed;
        }
        strbuf_free(&text);
        diag_list_free(&diags);
    }
    closedir(d);
    return failures;
}

TEST(parse_kpaths_equals_the_forest_on_every_sample)
{
    static const char *const pairs[][2] = {
        {"grammars/json.ebnf", "tests/samples/json"},
        {"grammars/expr.ebnf", "tests/samples/expr"},
        {"grammars/arith.ebnf", "tests/samples/arith"},
        {"grammars/csv.ebnf", "tests/samples/csv"},
        {"grammars/url.ebnf", "tests/samples/url"},
        {"grammars/arith.ebnf", "tests/samples/learn"},
        {"tests/samples/ambiguous/catalan.ebnf", "tests/samples/ambiguous"},
        {"tests/samples/ambiguous/cyclic.ebnf", "tests/samples/ambiguous"},
        {"grammars/expr.ebnf", "tests/samples/contexts"},
    };
    size_t files = 0, parsed = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(pairs[i][0], &l)))
            continue;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", harness_path(pairs[i][1]));
        CHECK_INT(check_dir(l.graph, dir, &files, &parsed), 0);
        test_unload(&l);
    }
    /* The samples are there, and both kinds were compared. */
    CHECK(files >= 40);
    CHECK(parsed >= 20);
    CHECK(files - parsed >= 10);
}

/* Generated inputs of a grammar, and a mutation of each (a character
 * dropped, doubled or replaced by one from elsewhere in the input). */
static size_t check_generated(const struct graph *g, uint64_t seed, size_t max_len,
                              size_t *parsed_inputs)
{
    size_t failures = 0;
    struct rng r;
    rng_seed(&r, seed);
    for (int strategy = GEN_KPATH; strategy <= GEN_RANDOM; strategy++) {
        struct gen_options o;
        gen_options_default(&o);
        o.strategy = (enum gen_strategy)strategy;
        o.k = 3;
        o.seed = seed;
        o.closeoff = GEN_CLOSE_GREEDY;
        o.count = strategy == GEN_KPATH ? 0 : 30;
        char *error = NULL;
        struct generator *gen = gen_new(g, &o, &error);
        if (!gen) {
            free(error);
            continue;
        }
        gen_run(gen);
        for (size_t j = 0; j < gen->ninputs; j++) {
            const struct gen_input *in = &gen->inputs[j];
            if (in->len > max_len)
                continue; /* the forest's k-path walk is slow on long ambiguous inputs */
            bool parsed;
            failures += !same_both_ways(g, in->text, in->len, &parsed);
            *parsed_inputs += parsed;
            if (!in->len)
                continue;
            char *m = malloc(in->len + 2);
            size_t at = (size_t)rng_below(&r, in->len), n = 0;
            uint64_t how = rng_below(&r, 3);
            for (size_t i = 0; i < in->len; i++) {
                if (i == at && how == 0)
                    continue;
                m[n++] = i == at && how == 2 ? in->text[rng_below(&r, in->len)] : in->text[i];
                if (i == at && how == 1)
                    m[n++] = in->text[i];
            }
            failures += !same_both_ways(g, m, n, &parsed);
            free(m);
        }
        gen_free(gen);
    }
    return failures;
}

TEST(parse_kpaths_equals_the_forest_on_generated_inputs)
{
    static const char *const bundled[] = {
        "grammars/expr.ebnf", "grammars/digits.ebnf", "grammars/fsm.ebnf",
        "grammars/config.ebnf", "grammars/arith.ebnf", "grammars/json.ebnf",
        "grammars/csv.ebnf", "grammars/url.ebnf", "grammars/ini.ebnf",
    };
    size_t parsed = 0;
    for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
        struct loaded l;
        if (!CHECK(test_load_file(bundled[i], &l)))
            continue;
        if (!CHECK_INT(check_generated(l.graph, 7 + i, SIZE_MAX, &parsed), 0))
            fprintf(stderr, "  in %s\n", bundled[i]);
        test_unload(&l);
    }
    if (!CHECK(parsed >= 300))
        fprintf(stderr, "  %zu parsed\n", parsed);
    /* Random grammars: ambiguity, nullable rules and recursion of every kind. */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        char *text = random_grammar(seed, 4 + (uint32_t)(seed % 9));
        struct loaded l;
        if (CHECK(test_load_string(text, &l))) {
            size_t unused = 0;
            if (!CHECK_INT(check_generated(l.graph, seed, 30, &unused), 0))
                fprintf(stderr, "  in random grammar %llu:\n%s\n", (unsigned long long)seed, text);
            test_unload(&l);
        }
        free(text);
    }
}

TEST(parse_kpaths_equals_the_forest_on_ambiguous_and_cyclic_grammars)
{
    static const char *const grammars[] = {
        "S := S S | \"a\";",
        "E := E \"+\" E | \"x\";",
        "S := A | B;\nA := \"x\";\nB := \"x\";\n",
        "S := T | \"x\";\nT := S;\n",
        "S := (A B)*;\nA := \"a\"?;\nB := \"b\"?;\n",
        "L := L \"a\" | \"\";",
        "S := A S | \"\";\nA := \"a\" | \"\" | B;\nB := A;\n",
        "S := S S | S | \"a\" | \"\";",
        "S := (\"a\" | \"aa\" | S)+;",
        "S := X \"b\" | \"a\" Y;\nX := \"a\" | \"aa\" \"b\"?;\nY := \"b\" | \"ab\"?;\n",
    };
    static const char *const inputs[] = {"", "a", "aa", "aaa", "aaaaaaa", "x", "x+x",
                                         "x+x+x+x+x", "ab", "ba", "aab", "abab", "aaaab"};
    for (size_t i = 0; i < sizeof grammars / sizeof grammars[0]; i++) {
        struct loaded l;
        if (!CHECK(test_load_string(grammars[i], &l)))
            continue;
        for (size_t j = 0; j < sizeof inputs / sizeof inputs[0]; j++)
            if (!CHECK(same_text(l.graph, inputs[j])))
                fprintf(stderr, "  grammar %s\n", grammars[i]);
        test_unload(&l);
    }
    /* S := S S | "a" on 30 characters: Catalan(29) = 1,002,242,216,651,368
     * trees, and on 60 more than 2^64: both counted as the forest does. */
    struct loaded l;
    if (CHECK(test_load_string("S := S S | \"a\";", &l))) {
        char text[61];
        memset(text, 'a', 60);
        text[60] = 0;
        struct kpath_space sp;
        kpath_space_init(&sp, l.graph, 2);
        struct kpath_set set;
        kpath_set_init(&set, &sp);
        struct kpath_set *sets[] = {&set};
        struct diag_list d = DIAG_LIST_INIT;
        uint64_t trees = 0;
        bool infinite = true;
        CHECK(parse_kpaths(l.graph, "a", text, 30, NULL, sets, 1, NULL, &trees, &infinite, &d));
        CHECK(trees == UINT64_C(1002242216651368));
        CHECK(!infinite);
        CHECK(parse_kpaths(l.graph, "a", text, 60, NULL, sets, 1, NULL, &trees, &infinite, &d));
        CHECK(trees == FOREST_TREES_SATURATED);
        CHECK(!infinite);
        CHECK(same_text(l.graph, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
        kpath_set_free(&set);
        kpath_space_free(&sp);
        diag_list_free(&d);
        test_unload(&l);
    }
}

/* ASCII text is read as it is (its bytes are its code points), text with
 * code points below 256 decoded into a byte per byte and 1 more, other
 * text into 4 bytes per byte and 4 more: the same outcome every way,
 * diagnostics included, as parse_text (which always decodes). */
TEST(parse_kpaths_reads_narrow_text_narrow)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    static const struct {
        const char *text;
        bool parses;
        size_t text_bytes;
    } cases[] = {
        {"[1, 2, {\"a\": \"b\"}]", true, 0},
        {"[1, 2,\n 3 4]", false, 0}, /* no parse at 2:4 */
        /* "é" (U+00E9): 5 characters, 6 bytes; 11 characters, 12 bytes */
        {"[\"\xc3\xa9\"]", true, 6 + 1},
        {"[\"\xc3\xa9\",\n 3 4]", false, 12 + 1},
        /* "€" (U+20AC): 10 characters, 13 bytes; 11 characters, 13 bytes */
        {"[\"\xe2\x82\xac\", \"\xc3\xa9\"]", true, 4 * (13 + 1)},
        {"[\"\xe2\x82\xac\",\n 3 4]", false, 4 * (13 + 1)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct parse_stats st;
        bool parsed;
        CHECK(same_both_ways_stats(l.graph, cases[i].text, strlen(cases[i].text), &parsed, &st));
        CHECK(parsed == cases[i].parses);
        CHECK_INT(st.text_bytes, cases[i].text_bytes);
    }
    test_unload(&l);
}

TEST(parse_kpaths_stops_at_the_memory_budget)
{
    /* S := S S | "a" on 300 characters: its items alone (about 3 per span)
     * take more than 512 KiB; the parse stops with the forest's message. */
    struct loaded l;
    if (!CHECK(test_load_string("S := S S | \"a\";", &l)))
        return;
    char text[300];
    memset(text, 'a', sizeof text);
    struct kpath_space sp;
    kpath_space_init(&sp, l.graph, 2);
    struct kpath_set set;
    kpath_set_init(&set, &sp);
    struct kpath_set *sets[] = {&set};
    struct parse_options po = {.max_memory = 512 << 10};
    struct diag_list d = DIAG_LIST_INIT;
    uint64_t trees;
    bool infinite;
    CHECK(!parse_kpaths(l.graph, "a", text, sizeof text, &po, sets, 1, NULL, &trees, &infinite, &d));
    CHECK_INT(set.size, 0);
    if (CHECK_INT(d.len, 1)) {
        CHECK(strstr(d.items[0].message, "parsing stopped here: it needs more than 512 KiB of "
                                         "memory (--max-memory)") != NULL);
        CHECK_INT(d.items[0].line, 1);
        CHECK(d.items[0].col > 1 && d.items[0].col < 300);
    }
    diag_list_free(&d);
    po.max_memory = 0; /* the default */
    CHECK(parse_kpaths(l.graph, "a", text, sizeof text, &po, sets, 1, NULL, &trees, &infinite, &d));
    /* All six 2-paths, S_3 and S_4 being the first and the second S of S S:
     * S_3 -> "a"_2, S_3 -> S_3, S_3 -> S_4, and the same from S_4. */
    CHECK_INT(set.size, 6);
    kpath_set_free(&set);
    kpath_space_free(&sp);
    diag_list_free(&d);
    test_unload(&l);
}

/* Long inputs, where parse_kpaths collects the items of finished sets and
 * the chain sets nothing refers to any more (they move: indices in waiter
 * lists, pending advances, tree counts and summaries are rewritten), still
 * give what the forest gives. */
TEST(parse_kpaths_equals_the_forest_across_collections)
{
    struct loaded l;
    if (CHECK(test_load_file("grammars/json.ebnf", &l))) {
        /* An array of generated JSON texts, minified and pretty. */
        struct gen_options o;
        gen_options_default(&o);
        o.strategy = GEN_RANDOM;
        o.count = 6000;
        o.seed = 12;
        char *error = NULL;
        struct generator *gen = gen_new(l.graph, &o, &error);
        if (CHECK(gen)) {
            gen_run(gen);
            struct strbuf text = STRBUF_INIT;
            strbuf_addch(&text, '[');
            for (size_t i = 0; i < gen->ninputs; i++) {
                if (i)
                    strbuf_addstr(&text, i % 7 ? "," : ",\n  ");
                strbuf_add(&text, gen->inputs[i].text, gen->inputs[i].len);
            }
            strbuf_addch(&text, ']');
            struct parse_stats st;
            bool parsed;
            CHECK(same_both_ways_stats(l.graph, strbuf_str(&text), text.len, &parsed, &st));
            CHECK(parsed);
            if (!CHECK(st.item_collections >= 3 && st.set_collections >= 1))
                fprintf(stderr, "  %zu bytes, %zu items, collections: %zu, %zu\n", text.len,
                        st.items_made, st.item_collections, st.set_collections);
            strbuf_free(&text);
            gen_free(gen);
        }
        free(error);
        test_unload(&l);
    }
    /* Local ambiguity: each "a" is an A or a B, so 2^40 trees for 40 of them
     * among 200,000 characters; the counts of the kept items move with them. */
    if (CHECK(test_load_string("S := (A | B | \"b\")*;\nA := \"a\";\nB := \"a\";\n", &l))) {
        size_t n = 200000;
        char *text = malloc(n);
        memset(text, 'b', n);
        for (size_t i = 0; i < 40; i++)
            text[(i * 7919 * 13) % n] = 'a';
        struct parse_stats st;
        bool parsed;
        CHECK(same_both_ways_stats(l.graph, text, n, &parsed, &st));
        if (!CHECK(st.item_collections >= 2))
            fprintf(stderr, "  %zu items, %zu collections\n", st.items_made, st.item_collections);
        uint64_t trees = 0;
        bool infinite = true;
        struct diag_list d = DIAG_LIST_INIT;
        CHECK(parse_kpaths(l.graph, "a", text, n, NULL, NULL, 0, NULL, &trees, &infinite, &d));
        CHECK(trees == UINT64_C(1) << 40);
        CHECK(!infinite);
        diag_list_free(&d);
        free(text);
        test_unload(&l);
    }
    /* A cycle (T derives itself through U): infinitely many trees, and
     * several waiters per prediction (links that move). */
    if (CHECK(test_load_string("S := (T | \"b\")*;\nT := U | \"a\" | T;\nU := T;\n", &l))) {
        size_t n = 40000;
        char *text = malloc(n);
        for (size_t i = 0; i < n; i++)
            text[i] = i % 3 ? 'b' : 'a';
        struct parse_stats st;
        bool parsed;
        CHECK(same_both_ways_stats(l.graph, text, n, &parsed, &st));
        CHECK(parsed);
        if (!CHECK(st.item_collections >= 2))
            fprintf(stderr, "  %zu items, %zu collections\n", st.items_made, st.item_collections);
        free(text);
        test_unload(&l);
    }
}

/* The items held stay bounded by what is open, not by the length: a flat
 * array of 200,000 numbers makes millions of items, and the most held at
 * once is within what the collector's schedule allows (it collects when
 * the items have doubled since the last time, and at 65,536 items at first;
 * what it keeps here is a handful of open items). */
TEST(parse_kpaths_holds_items_by_nesting_not_length)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    size_t n = 200000;
    struct strbuf text = STRBUF_INIT;
    strbuf_addch(&text, '[');
    for (size_t i = 0; i < n; i++)
        strbuf_addstr(&text, i ? ",1" : "1");
    strbuf_addch(&text, ']');
    struct parse_stats st;
    struct parse_options po = {.stats = &st};
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(parse_kpaths(l.graph, "a", strbuf_str(&text), text.len, &po, NULL, 0, NULL, NULL, NULL,
                       &d));
    CHECK(st.items_made >= 4 * n);
    if (!CHECK(st.items_peak <= 65536 + 64))
        fprintf(stderr, "  %zu items held at most\n", st.items_peak);
    CHECK(st.item_collections >= st.items_made / 65536 - 1);
    diag_list_free(&d);
    strbuf_free(&text);
    test_unload(&l);
}

/* JSONTestSuite-style cases, written for json.ebnf (RFC 8259): texts that
 * must parse (y), must not (n), and the corners a parser may take either
 * way that the RFC settles (lone surrogates escaped, big numbers: they
 * parse).  Each is compared alone, and again at the end of an array of 60
 * records, where the replays of parse_kpaths (parse_replay.c) are engaged
 * when it is reached, so an error is found after sets were replayed. */
static const char *const json_yes[] = {
    "[]", "{}", "[[]]", "[{}]", "{\"\":{}}", " [ ] ", "\t\n\r[1]\n", "0", "-0", "-0.0e-0",
    "1E+2", "1e-2", "123456789012345678901234567890", "0.000001", "-1.5E9", "true", "null",
    "\"\"", "\"\\u0000\"", "\"\\uD800\"", "\"\\uDFFF\\uD800\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", "\"\x7f\"", "[1,2,3]", "[1 ,2 , 3 ]",
    "{\"a\":1,\"a\":2}", "{\"a\" : [true, false, null] , \"b\":{\"c\":\"d\"}}",
    "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]", "[\"\\u00e9\", -12.5e+3, {}]",
};
static const char *const json_no[] = {
    "", " ", "[", "]", "[1,]", "[,1]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{a:1}",
    "{\"a\":1,}", "{,}", "['a']", "[01]", "[-]", "[1.]", "[.5]", "[+1]", "[1e]", "[1e+]",
    "[0x10]", "[NaN]", "[Infinity]", "[tru]", "[nul]", "[True]", "\"abc", "\"\\x\"",
    "\"\\u12\"", "\"\\u12G4\"", "\"a\tb\"", "\"a\nb\"", "[1]]", "[1] x", "{\"a\":1}}",
    "[1,\n", "/* c */ []", "[1] // c", "[\"a\",\"b\"", "{\"a\":[}", "\xef\xbb\xbf[]",
};

static size_t check_json_case(const struct graph *g, const char *text, bool want_parse,
                              size_t *replayed)
{
    size_t failures = 0;
    bool parsed;
    failures += !same_both_ways(g, text, strlen(text), &parsed);
    if (parsed != want_parse) {
        fprintf(stderr, "  %s: %s\n", want_parse ? "does not parse" : "parses", text);
        failures++;
    }
    /* At the end of an array of records: [r, r, ..., r, text] for a value,
     * or the records and then text itself (a broken tail) for a failure. */
    struct strbuf doc = STRBUF_INIT;
    strbuf_addstr(&doc, "[\n");
    for (int i = 0; i < 60; i++)
        strbuf_addf(&doc, "  {\"id\": %d, \"name\": \"n%d\", \"tags\": [\"a\", \"b\"], \"ok\": %s},\n",
                    i, i % 7, i % 3 ? "true" : "null");
    strbuf_addstr(&doc, "  ");
    strbuf_addstr(&doc, text);
    strbuf_addstr(&doc, "\n]\n");
    struct parse_stats st;
    bool doc_parsed;
    failures += !same_both_ways_stats(g, strbuf_str(&doc), doc.len, &doc_parsed, &st);
    *replayed += st.sets_replayed + st.sets_computed;
    strbuf_free(&doc);
    return failures;
}

TEST(parse_kpaths_equals_the_forest_on_json_test_suite_style_inputs)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    size_t replayed = 0;
    for (size_t i = 0; i < sizeof json_yes / sizeof json_yes[0]; i++)
        CHECK_INT(check_json_case(l.graph, json_yes[i], true, &replayed), 0);
    for (size_t i = 0; i < sizeof json_no / sizeof json_no[0]; i++)
        CHECK_INT(check_json_case(l.graph, json_no[i], false, &replayed), 0);
    /* Each case's array replays sets (60 records are the same states). */
    size_t cases = sizeof json_yes / sizeof json_yes[0] + sizeof json_no / sizeof json_no[0];
    if (!CHECK(replayed >= 100 * cases))
        fprintf(stderr, "  %zu sets replayed\n", replayed);
    test_unload(&l);
}

/* Seeded random damage to a document whose sets are mostly replayed: one
 * character dropped, doubled or replaced (by one of the document's, or by
 * a byte from 0x00 to 0x7f) at a random place, 200 times; parse_kpaths
 * must say what the forest says, the same error where it fails. */
TEST(parse_kpaths_equals_the_forest_on_damaged_documents)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    struct strbuf doc = STRBUF_INIT;
    strbuf_addstr(&doc, "{\"items\": [\n");
    for (int i = 0; i < 40; i++)
        strbuf_addf(&doc, "  {\"id\": %d, \"v\": [%d.5e-%d, \"s\\u00e9%d\", false, {}]}%s\n", i,
                    i * 37, i % 4, i, i < 39 ? "," : "");
    strbuf_addstr(&doc, "], \"n\": null}\n");
    struct rng r;
    rng_seed(&r, 37);
    size_t failures = 0, parsed_count = 0;
    char *m = malloc(doc.len + 2);
    for (int t = 0; t < 200; t++) {
        size_t at = (size_t)rng_below(&r, doc.len), n = 0;
        uint64_t how = rng_below(&r, 4);
        for (size_t i = 0; i < doc.len; i++) {
            if (i == at && how == 0)
                continue;
            char c = doc.data[i];
            if (i == at && how == 2)
                c = doc.data[rng_below(&r, doc.len)];
            if (i == at && how == 3)
                c = (char)rng_below(&r, 0x80);
            m[n++] = c;
            if (i == at && how == 1)
                m[n++] = c;
        }
        bool parsed;
        failures += !same_both_ways(l.graph, m, n, &parsed);
        parsed_count += parsed;
    }
    CHECK_INT(failures, 0);
    /* Some damage leaves valid JSON (a digit for a digit, a space doubled),
     * most does not. */
    if (!CHECK(parsed_count >= 10 && parsed_count <= 190))
        fprintf(stderr, "  %zu of 200 parsed\n", parsed_count);
    free(m);
    strbuf_free(&doc);
    test_unload(&l);
}

/* A replayed set's walk up the stack finds its first level (the pending
 * leaf, the next character and the item waiting on it) in an array by leaf
 * and character, as it finds each level below a known state, without a
 * hash: over the second half of a periodic text, whose states were all met
 * in the first half, the first levels remembered grow by one per set
 * replayed. */
TEST(parse_replays_find_their_first_level_by_array_lookup)
{
    struct loaded l;
    if (!CHECK(test_load_string("E := T ((\"+\" | \"-\") T)*;\nT := F ((\"*\" | \"/\") F)*;\n"
                                "F := N | \"(\" E \")\";\nN := [0-9]+;\n",
                                &l)))
        return;
    struct parse_stats st[2];
    for (int half = 0; half < 2; half++) {
        struct strbuf text = STRBUF_INIT;
        for (int i = 0; i < 200 * (half + 1); i++)
            strbuf_addstr(&text, "12+3*(45-6)/7-");
        strbuf_addch(&text, '1');
        bool parsed;
        CHECK(same_both_ways_stats(l.graph, strbuf_str(&text), text.len, &parsed, &st[half]));
        CHECK(parsed);
        strbuf_free(&text);
    }
    size_t replays = st[1].sets_replayed + st[1].sets_computed -
                     (st[0].sets_replayed + st[0].sets_computed);
    size_t remembered = st[1].roots_remembered - st[0].roots_remembered;
    CHECK(replays >= 200);
    if (!CHECK(remembered >= replays))
        fprintf(stderr, "  %zu more sets replayed, %zu more first levels remembered\n", replays,
                remembered);
    test_unload(&l);
}

/* After a replayed set the fast path is asked only while its transition
 * has not shown a shape the fast path cannot stand for.  S := ("a" "b"
 * [0-9]+ ";")* on "ab12;" repeated: per period five sets, before a, b, 1,
 * 2 and ";".  The set before 2 is stood for by the fast path (the digits'
 * quantifier, entered from the set before 1); the other four are replayed
 * once their states are known.  After the sets before a, b and ";" the
 * leaf pending is waited on by the sequence (no quantifier item above a
 * unit chain): the fast path cannot stand for anything after them, so in
 * the steady state it is not asked after 3 of the 4 sets per period; after
 * the set before 1 it is asked and stands for one set.  Over periods 21 to
 * 40: 60 sets unasked, 20 sets stood for, and the same k-paths, trees and
 * expansions as the forest's. */
TEST(parse_fast_path_not_asked_after_a_transition_of_the_wrong_shape)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" \"b\" [0-9]+ \";\")*;\n", &l)))
        return;
    struct parse_stats st[2];
    for (int half = 0; half < 2; half++) {
        struct strbuf text = STRBUF_INIT;
        for (int i = 0; i < 20 * (half + 1); i++)
            strbuf_addstr(&text, "ab12;");
        bool parsed;
        CHECK(same_both_ways_stats(l.graph, strbuf_str(&text), text.len, &parsed, &st[half]));
        CHECK(parsed);
        strbuf_free(&text);
    }
    size_t unasked = st[1].fast_path_unasked - st[0].fast_path_unasked;
    size_t skipped = st[1].sets_skipped - st[0].sets_skipped;
    if (!CHECK(unasked == 60 && skipped == 20))
        fprintf(stderr, "  over 20 periods: %zu sets unasked, %zu stood for\n", unasked, skipped);
    test_unload(&l);
}

/* Text read narrow, its ASCII runs 8 bytes at a time: a Latin-1 letter (2
 * bytes of UTF-8) at every offset from an 8-byte boundary, two in a row, at
 * the start and at the end, and a character above U+00FF (then the text is
 * read wide), the same k-paths, trees and expansions as the forest's; the
 * narrow copy is one byte per character (text_bytes, counted by hand: the
 * characters and a terminator). */
TEST(parse_kpaths_reads_ascii_runs_of_every_alignment)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    for (size_t at = 0; at < 20; at++) {
        for (int variant = 0; variant < 3; variant++) {
            /* ["aaaa...é..."]: `at` letters a, then é (or éé, or €), then 9 b */
            struct strbuf text = STRBUF_INIT;
            strbuf_addstr(&text, "[\"");
            for (size_t i = 0; i < at; i++)
                strbuf_addch(&text, 'a');
            strbuf_addstr(&text, variant == 0   ? "\xc3\xa9"
                                 : variant == 1 ? "\xc3\xa9\xc3\xa9"
                                                : "\xe2\x82\xac");
            strbuf_addstr(&text, "bbbbbbbbb\"]");
            struct parse_stats st;
            bool parsed;
            CHECK(same_both_ways_stats(l.graph, strbuf_str(&text), text.len, &parsed, &st));
            CHECK(parsed);
            size_t want = variant == 2 ? 4 * (text.len + 1) : text.len + 1;
            CHECK_INT(st.text_bytes, want);
            strbuf_free(&text);
        }
    }
    /* Latin-1 letters first and last (a value of the grammar's string). */
    static const char *const edges[] = {"\"\xc3\xa9xxxxxxxxxxxxxxx\"", "\"xxxxxxxxxxxxxxx\xc3\xa9\"",
                                        "\"\xc3\xa9\"", "\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\""};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        CHECK(same_text(l.graph, edges[i]));
    test_unload(&l);
}

/* fast_forward's steps by ASCII character past a quantifier's minimum come
 * from an array per chain: quantifiers with a minimum and a maximum, runs
 * that stop below the minimum, at it, between, at the maximum and past it,
 * quantifiers over the same characters (the array is the quantifier's),
 * a character that can both repeat the quantifier and follow it (D's z: the
 * set is built), and non-ASCII characters
 * (the steps without the array): the same outcome as the forest's. */
TEST(parse_kpaths_fast_steps_equal_the_forest)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (A | B | C | D)*;\nA := \"<\" L{3,6} \">\";\n"
                                "B := \"[\" L{2,} \"]\";\nC := \"(\" (L | \"-\")* \")\";\n"
                                "D := \"{\" L{2,} \"z\" \"}\";\n"
                                "L := [a-z\\xE0-\\xFF];\n",
                                &l)))
        return;
    static const char *const texts[] = {
        "<ab>", "<abc>", "<abcd>", "<abcdef>", "<abcdefg>", "[a]", "[ab]", "[abcdefghijklmnop]",
        "(a-b-c)", "(abc--def)", "()", "<abc>[defgh](ij-kl)<mnopqr>",
        "<\xc3\xa0\xc3\xa1\xc3\xa2>", "[ab\xc3\xa9\xc3\xa9xyz]", "(\xc3\xa9-a)",
        "<abc>[abc](abc)<abcdef>[abcdef](abcdef)<abc>[abc](abc)", "[abc", "<abcdefgh", "(ab]",
        "{abz}", "{az}", "{abzz}", "{zzzzzz}", "{azbzcz}", "{abcdefz}[ab]{zz}"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        CHECK(same_text(l.graph, texts[i]));
    /* Long runs, again and again (rows worked out once, then reused). */
    struct strbuf text = STRBUF_INIT;
    for (int i = 0; i < 300; i++) {
        strbuf_addstr(&text, i % 3 == 0 ? "<abcdef>" : i % 3 == 1 ? "[abcdefghijklmnopqrstuvwxyz]"
                                                                   : "(ab-cd-ef-gh)");
    }
    bool parsed;
    struct parse_stats st;
    CHECK(same_both_ways_stats(l.graph, strbuf_str(&text), text.len, &parsed, &st));
    CHECK(parsed);
    CHECK(st.sets_skipped > 0);
    strbuf_free(&text);
    test_unload(&l);
}

/* A sample of an ANTLR grammar: its tokens constrain the token and skip
 * nodes (token_bounds.h), and a replayed set asks the token table the
 * questions the set it was recorded from asked.  In "ab c;" the lexer
 * reads the keyword AB, in "abc;" one identifier; the set at the 'a' is in
 * the same state both times (the same pending leaf, character and stack),
 * but only in the first may the literal 'ab' span two characters there.
 * Alternating them, with sets replayed in both (counted), the same k-paths,
 * trees, expansions and items as the forest's, which asks the table for
 * every set; and a text the tokens reject ("abc" where the grammar wants
 * the keyword) the same error. */
TEST(parse_kpaths_replays_ask_the_token_table_again)
{
    static const char g4[] = "grammar T;\n"
                             "s : (w ';')* EOF ;\n"
                             "w : 'ab' ID | ID ;\n"
                             "ID : [a-z]+ ;\n"
                             "WS : [ \\n]+ -> skip ;\n";
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *gm =
        grammar_open_string("t.g4", g4, sizeof g4 - 1, GRAMMAR_FORMAT_G4, NULL, &d);
    diag_list_free(&d);
    if (!CHECK(gm != NULL))
        return;
    struct graph *g = graph_build(gm);
    struct strbuf text = STRBUF_INIT;
    for (int i = 0; i < 300; i++)
        strbuf_addstr(&text, i % 3 == 1 ? "abc; " : i % 3 ? "ab c;\n" : "ab xy; abd;\n");
    struct parse_stats st;
    bool parsed;
    CHECK(same_both_ways_stats(g, strbuf_str(&text), text.len, &parsed, &st));
    CHECK(parsed);
    if (!CHECK(st.sets_replayed + st.sets_computed >= 300))
        fprintf(stderr, "  %zu sets replayed\n", st.sets_replayed + st.sets_computed);
    /* The same, then "ab" alone: the keyword without its identifier. */
    strbuf_addstr(&text, "ab ;");
    CHECK(same_both_ways_stats(g, strbuf_str(&text), text.len, &parsed, &st));
    CHECK(!parsed);
    strbuf_free(&text);
    graph_free(g);
    grammar_free(gm);
}

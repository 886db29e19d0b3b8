/* Unit tests of k-path patterns, every expected pattern worked out by hand
 * from the definition: paths from the root and from inside rules, ending in
 * literals, references and classes, through quantifiers and nested groups,
 * with and without quotes; invalid paths; very deep nesting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "harness.h"
#include "graph/kpath.h"
#include "graph/pattern.h"
#include "base/strbuf.h"

/* The pattern of a path written as space-separated node names; caller frees.
 * On an invalid path, the diagnostic prefixed with "ERROR ". */
static char *render(const struct graph *g, const char *names, bool quoted)
{
    uint32_t path[64];
    uint32_t k = 0;
    char *copy = strdup(names);
    for (char *tok = strtok(copy, " "); tok && k < 64; tok = strtok(NULL, " "))
        path[k++] = graph_parse_node_name(g, tok);
    free(copy);
    struct strbuf out = STRBUF_INIT;
    struct diag_list d = DIAG_LIST_INIT;
    struct pattern_options o = {.quoted = quoted};
    if (!pattern_render(g, path, k, &o, &out, &d)) {
        CHECK_INT(out.len, 0);
        strbuf_addstr(&out, "ERROR ");
        if (d.len)
            diag_format(&d.items[0], &out);
    }
    diag_list_free(&d);
    return strbuf_detach(&out, NULL);
}

static void check_pattern_at(const struct graph *g, const char *names, bool quoted,
                             const char *want, const char *file, int line)
{
    char *got = render(g, names, quoted);
    harness_check_str(got, want, names, want, file, line);
    free(got);
}

#define CHECK_PATTERN(g, names, want) check_pattern_at((g), (names), false, (want), __FILE__, __LINE__)
#define CHECK_QUOTED(g, names, want) check_pattern_at((g), (names), true, (want), __FILE__, __LINE__)

TEST(pattern_expr_examples)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    /* The example: Expr's AddExpr becomes AddExpr's second
     * alternative with its group narrowed to "+". */
    CHECK_PATTERN(g, "AddExpr_0 \"+\"_10", "AddExpr + MultExpr");
    CHECK_QUOTED(g, "AddExpr_0 \"+\"_10", "AddExpr \"+\" MultExpr");
    /* The root alone: the start rule's right-hand side. */
    CHECK_PATTERN(g, "AddExpr_0", "AddExpr");
    /* Ending in a reference: it stays a placeholder; groups off the way stay. */
    CHECK_PATTERN(g, "AddExpr_0 MultExpr_7", "AddExpr (+ | -) MultExpr");
    CHECK_PATTERN(g, "AddExpr_0 MultExpr_2", "MultExpr");
    /* Starting inside a rule: the alternative that holds the first node. */
    CHECK_PATTERN(g, "\"+\"_27", "+ UnaryExpr");
    CHECK_PATTERN(g, "MultExpr_13 \"%\"_25", "MultExpr % UnaryExpr (* | / | %) UnaryExpr");
    /* The same alternative at two steps: first its AddExpr is replaced, then
     * (in the copy that replaced it) the group is narrowed. */
    CHECK_PATTERN(g, "AddExpr_0 AddExpr_5 \"-\"_11", "AddExpr - MultExpr (+ | -) MultExpr");
    /* Through a quantifier: one DecDigit of DecDigit+ replaced by "4", the
     * others anything (issue 36: "4+" read as if every digit were 4). */
    CHECK_PATTERN(g, "UnaryExpr_8 DecDigits_22 DecDigit_42 \"4\"_48", "DecDigit* 4 DecDigit*");
    CHECK_PATTERN(g, "UnaryExpr_15 DecDigits_22 DecDigit_42", "MultExpr (* | / | %) DecDigit+");
    /* A long path from the root, where quotes tell literal parentheses
     * from groups. */
    CHECK_PATTERN(g, "AddExpr_0 AddExpr_5 MultExpr_2 UnaryExpr_8 \"(\"_35",
                  "( AddExpr ) (+ | -) MultExpr");
    CHECK_QUOTED(g, "AddExpr_0 AddExpr_5 MultExpr_2 UnaryExpr_8 \"(\"_35",
                 "\"(\" AddExpr \")\" (\"+\" | \"-\") MultExpr");
    CHECK_PATTERN(g, "UnaryExpr_8 AddExpr_36 MultExpr_7 UnaryExpr_15 Identifier_16 \"x\"_39",
                  "( AddExpr (+ | -) MultExpr (* | / | %) x )");
    test_unload(&l);
}

TEST(pattern_nested_groups_quantifiers_and_classes)
{
    struct loaded l;
    if (!CHECK(test_load_file("tests/grammars/contexts/groups.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    /* S := "a" (B | "c" ("d" | E)*)? ";"; B := "b" | "bb";
     * E := ("e" | "f") "g"{2} | [0-9]; */
    CHECK_PATTERN(g, "\"a\"_1", "a (B | c (d | E)*)? ;");
    /* The quantifiers on the way to the element repeat at least once: the
     * outer (...)? is dropped (issue: a rule that lacks "d" read as lacking
     * every "a ... ;"); ("d" | E)* holds one "d", among other repetitions
     * as written (issue 36: not d+, as if every one were "d"). */
    CHECK_PATTERN(g, "\"d\"_13", "a c (d | E)* d (d | E)* ;");
    CHECK_PATTERN(g, "E_14", "a c (d | E)* E (d | E)* ;");
    CHECK_PATTERN(g, "B_5 \"bb\"_11", "a bb ;");
    /* A sequence put under a quantifier gets parentheses; "g"{2} is off the
     * way to "e" and on the way to "g", with a minimum of 2 either way. */
    CHECK_PATTERN(g, "E_14 \"e\"_20", "a c (d | E)* e g{2} (d | E)* ;");
    CHECK_QUOTED(g, "E_14 \"e\"_20",
                 "\"a\" \"c\" (\"d\" | E)* \"e\" \"g\"{2} (\"d\" | E)* \";\"");
    CHECK_PATTERN(g, "E_14 \"g\"_22", "a c (d | E)* (e | f) g{2} (d | E)* ;");
    CHECK_PATTERN(g, "E_14 [0-9]_17", "a c (d | E)* [0-9] (d | E)* ;");
    CHECK_PATTERN(g, "[0-9]_17", "[0-9]");
    CHECK_PATTERN(g, "\"g\"_22", "(e | f) g{2}");
    test_unload(&l);
}

/* A quantifier that holds the element repeats at least once: x? is printed
 * as x, x* as x+, x{,3} as x{1,3}; quantifiers off the way stay as written.
 * Without it the patterns of frac_44, exp_45 and "-"_42 in json.ebnf's
 * number := "-"? int frac? exp? were all "-? int frac? exp?", so explain's
 * "lacks -? int frac? exp?" read as "lacks a number" (QA finding). */
TEST(pattern_quantifiers_on_the_way_repeat_at_least_once)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := \"a\" (\"b\"?)? (\"c\" \"d\"){,3} (\"e\"?)*;\n", &l)))
        return;
    CHECK_PATTERN(l.graph, "\"a\"_1", "a (b?)? (c d){,3} (e?)*");
    CHECK_PATTERN(l.graph, "\"b\"_8", "a b (c d){,3} (e?)*");
    CHECK_PATTERN(l.graph, "\"d\"_10", "a (b?)? (c d){1,3} (e?)*");
    /* (e?)* on the way to "e": the * needs e once at least, the ? is gone,
     * and so are its parentheses. */
    CHECK_PATTERN(l.graph, "\"e\"_11", "a (b?)? (c d){,3} e+");
    test_unload(&l);
    if (!CHECK(test_load_string("S := \"a\" (((\"x\" \"y\")?)?)*;\n", &l)))
        return;
    /* The sequence keeps the parentheses the + needs, through two dropped ?. */
    CHECK_PATTERN(l.graph, "\"x\"_6", "a (x y)+");
    CHECK_PATTERN(l.graph, "\"a\"_1", "a (((x y)?)?)*");
    test_unload(&l);
    if (!CHECK(test_load_file("grammars/json.ebnf", &l)))
        return;
    CHECK_PATTERN(l.graph, "frac_44", "-? int frac exp?");
    CHECK_PATTERN(l.graph, "exp_45", "-? int frac? exp");
    CHECK_PATTERN(l.graph, "\"-\"_42", "- int frac? exp?");
    CHECK_PATTERN(l.graph, "int_34", "-? int frac? exp?");
    test_unload(&l);
}

/* A quantifier whose body is narrowed or replaced on the way holds one such
 * repetition among others as written: x* on both sides when the others may
 * be any number, else the narrowed one first and the rest of the count. */
TEST(pattern_narrowed_repetition_among_others)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := (\"a\" | \"b\"){2,4} (\"c\" | \"d\" \"e\")+ (\"f\" | \"g\"){3};\n",
                                &l)))
        return;
    /* Ids: the cat 0; the quantifiers 1 2 3; their alternations 4 5 6;
     * "a"_7 "b"_8 "c"_9, the cat 10, "f"_11 "g"_12, "d"_13 "e"_14.
     * {2,4} holding "a": one "a" and 1 to 3 others. */
    CHECK_PATTERN(l.graph, "\"a\"_7", "a (a | b){1,3} (c | d e)+ (f | g){3}");
    /* + holding "d": the narrowed sequence among any number of others. */
    CHECK_PATTERN(l.graph, "\"d\"_13", "(a | b){2,4} (c | d e)* d e (c | d e)* (f | g){3}");
    /* {3} holding "g": one "g" and exactly 2 others. */
    CHECK_PATTERN(l.graph, "\"g\"_12", "(a | b){2,4} (c | d e)+ g (f | g){2}");
    test_unload(&l);
}

/* Marked: each of the path's k nodes in brackets, around the text it stands
 * for, so that two k-paths never read alike (issue 36: AddExpr_0 ->
 * AddExpr_5 and AddExpr_0 -> MultExpr_7 were both "AddExpr (+ | -)
 * MultExpr"). */
static void check_marked_at(const struct graph *g, const char *names, const char *want,
                            const char *file, int line)
{
    uint32_t path[16];
    uint32_t k = 0;
    char *copy = strdup(names);
    for (char *tok = strtok(copy, " "); tok && k < 16; tok = strtok(NULL, " "))
        path[k++] = graph_parse_node_name(g, tok);
    free(copy);
    struct strbuf out = STRBUF_INIT;
    struct pattern_options o = {.mark = true};
    CHECK(pattern_render(g, path, k, &o, &out, NULL));
    harness_check_str(out.data ? out.data : "", want, names, want, file, line);
    strbuf_free(&out);
}
#define CHECK_MARKED(g, names, want) check_marked_at((g), (names), (want), __FILE__, __LINE__)

TEST(pattern_marks_the_path_nodes)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    /* AddExpr_0 is Expr's right-hand side (all of it: no brackets);
     * AddExpr_5 the first item of the alternative that replaces it,
     * MultExpr_7 the last. */
    CHECK_MARKED(g, "AddExpr_0 AddExpr_5", "[AddExpr] (+ | -) MultExpr");
    CHECK_MARKED(g, "AddExpr_0 MultExpr_7", "AddExpr (+ | -) [MultExpr]");
    CHECK_MARKED(g, "AddExpr_0 \"+\"_10", "AddExpr [+] MultExpr");
    /* One node, inside AddExpr's second alternative, and one alone in
     * UnaryExpr's last alternative (all of it). */
    CHECK_MARKED(g, "MultExpr_7", "AddExpr (+ | -) [MultExpr]");
    CHECK_MARKED(g, "DecDigits_22", "DecDigits");
    /* Starting inside a rule: the first node is marked too. */
    CHECK_MARKED(g, "MultExpr_13 \"%\"_25", "[MultExpr [%] UnaryExpr] (* | / | %) UnaryExpr");
    /* The "4" of 42: DecDigits_22 is UnaryExpr's last alternative, all of
     * it (no brackets); DecDigit_42 one repetition of DecDigit+, narrowed to "4"_48. */
    CHECK_MARKED(g, "DecDigits_22 DecDigit_42 \"4\"_48", "DecDigit* [[4]] DecDigit*");
    /* Not narrowed: the element is the quantified item itself. */
    CHECK_MARKED(g, "DecDigits_22 DecDigit_42", "[DecDigit]+");
    /* Nodes whose text is the same span nest: AddExpr_5 is replaced by
     * AddExpr's MultExpr alternative, MultExpr_2, replaced by UnaryExpr_8,
     * replaced by its ( AddExpr ) alternative. */
    CHECK_MARKED(g, "AddExpr_0 AddExpr_5 MultExpr_2 UnaryExpr_8 \"(\"_35",
                 "[[[[(] AddExpr )]]] (+ | -) MultExpr");
    test_unload(&l);
}

TEST(pattern_literals_unquoted_keep_their_text)
{
    struct loaded l;
    if (!CHECK(test_load_string("S := \"a b\" \"\" \"\\t\\n\" \"\\\"\" ('x' | \"é\");\n", &l)))
        return;
    /* "a b" keeps its quotes: unquoted it would read as two items (issue 13) */
    CHECK_PATTERN(l.graph, "\"é\"_7", "\"a b\" \"\" \\t\\n \" é");
    CHECK_QUOTED(l.graph, "\"é\"_7", "\"a b\" \"\" \"\\t\\n\" \"\\\"\" \"é\"");
    test_unload(&l);
}

TEST(pattern_invalid_paths_are_reported)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/expr.ebnf", &l)))
        return;
    const struct graph *g = l.graph;
    CHECK_PATTERN(g, "", "ERROR error: not a k-path: the path is empty");
    CHECK_PATTERN(g, "AddExpr_0 1",
                  "ERROR error: not a k-path: node |_1 is an alt node; a k-path has only "
                  "references, literals and classes");
    CHECK_PATTERN(g, "\"+\"_10 \"-\"_11",
                  "ERROR error: not a k-path: \"+\"_10 is a literal, so nothing follows it, not "
                  "even \"-\"_11");
    CHECK_PATTERN(g, "AddExpr_0 \"*\"_23",
                  "ERROR error: not a k-path: \"*\"_23 does not follow AddExpr_0 (it is not "
                  "reached from it through alternations, sequences and quantifiers only)");
    uint32_t path[2] = {0, 999};
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(!pattern_check_path(g, path, 2, &d));
    struct strbuf msg = STRBUF_INIT;
    if (CHECK_INT(d.len, 1))
        diag_format(&d.items[0], &msg);
    CHECK_STR(msg.data, "error: not a k-path: there is no node 999 (the graph has 54 nodes)");
    strbuf_free(&msg);
    diag_list_free(&d);
    test_unload(&l);
}

/* Every k-path of the bundled grammars renders (k = 1..3), without a
 * diagnostic, and deep nesting costs no C stack. */
TEST(pattern_every_path_renders)
{
    static const char *const files[] = {"grammars/expr.ebnf", "grammars/json.ebnf",
                                        "grammars/url.ebnf", "tests/grammars/ok/deep-nesting.ebnf",
                                        "tests/grammars/contexts/numbers.ebnf"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        struct loaded l;
        if (!CHECK(test_load_file(files[f], &l)))
            continue;
        for (uint32_t k = 1; k <= 3; k++) {
            struct kpath_space sp;
            kpath_space_init(&sp, l.graph, k);
            struct kpath_iter it;
            kpath_iter_init(&it, &sp);
            struct strbuf out = STRBUF_INIT;
            uint64_t n = 0, ok = 0;
            while (kpath_iter_next(&it) && n < 20000) {
                strbuf_reset(&out);
                struct diag_list d = DIAG_LIST_INIT;
                ok += pattern_render(l.graph, it.path, k, NULL, &out, &d) && out.len > 0 &&
                      d.len == 0;
                diag_list_free(&d);
                n++;
            }
            CHECK_INT(ok, n);
            strbuf_free(&out);
            kpath_iter_free(&it);
            kpath_space_free(&sp);
        }
        test_unload(&l);
    }
}

TEST(pattern_deep_nesting)
{
    struct loaded l;
    if (!CHECK(test_load_file("tests/grammars/ok/deep-nesting.ebnf", &l)))
        return;
    /* Quants := ((("y")?)?...)?: every ? holds "y", so every one is dropped
     * (y is there), with its parentheses, however deep. */
    uint32_t y = NODE_NONE;
    for (uint32_t i = 0; i < l.graph->nnodes; i++) {
        struct strbuf label = STRBUF_INIT;
        graph_node_label(l.graph, i, &label);
        if (strcmp(label.data, "\"y\"") == 0)
            y = i;
        strbuf_free(&label);
    }
    if (CHECK(y != NODE_NONE)) {
        struct strbuf out = STRBUF_INIT;
        CHECK(pattern_render(l.graph, &y, 1, NULL, &out, NULL));
        size_t open = 0, close = 0, quest = 0;
        for (size_t i = 0; i < out.len; i++) {
            open += out.data[i] == '(';
            close += out.data[i] == ')';
            quest += out.data[i] == '?';
        }
        CHECK_INT(open, 0);
        CHECK_INT(close, 0);
        CHECK_INT(quest, 0);
        CHECK_STR(out.data, "y");
        strbuf_free(&out);
    }
    test_unload(&l);
}

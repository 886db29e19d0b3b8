/* Unit tests of rule duplication: the worked example of the issue (with and
 * without a depth), ancestors, first free suffixes, removal of rules no longer
 * reachable, placement, errors, limits, deep chains, and that the result in
 * memory has the graph, ids and k-path counts of its written text loaded
 * afresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "../support/random_grammar.h"
#include "grammar/dup.h"
#include "formats/grammar_write.h"
#include "harness.h"
#include "graph/kpath.h"
#include "base/strbuf.h"

static const char *const NUMBERS =
    "<start> ::= <expr>;\n"
    "<expr> ::= <term> \" + \" <expr> | <term> \" - \" <expr> | <term>;\n"
    "<term> ::= <factor> \" * \" <term> | <factor> \" / \" <term> | <factor>;\n"
    "<factor> ::= \"+\" <factor> | \"-\" <factor> | \"(\" <expr> \")\" | <integer> \".\" <integer>"
    " | <integer>;\n"
    "<integer> ::= <digit> <integer> | <digit>;\n"
    "<digit> ::= \"0\" | \"1\" | \"2\" | \"3\" | \"4\" | \"5\" | \"6\" | \"7\" | \"8\" | \"9\";\n";

#define DIGITS "\"0\" | \"1\" | \"2\" | \"3\" | \"4\" | \"5\" | \"6\" | \"7\" | \"8\" | \"9\";"

static struct grammar *load_text(const char *text)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_string("t.ebnf", text, strlen(text), NULL, &d);
    diag_list_free(&d);
    return g;
}

static char *text_of(const struct grammar *g)
{
    struct strbuf sb = STRBUF_INIT;
    grammar_write(g, NULL, &sb);
    return strbuf_detach(&sb, NULL);
}

static char *diag_text(struct diag_list *d)
{
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < d->len; i++) {
        if (i)
            strbuf_addch(&sb, '\n');
        diag_format(&d->items[i], &sb);
    }
    return strbuf_detach(&sb, NULL);
}

/* The written text loads without errors (warnings about unreachable rules
 * are the original's) and with the same start rule, to the same graph (ids,
 * labels, children) and the same k-path counts as the grammar in memory. */
static void check_reloads_equal_at(const struct grammar *g, const char *file, int line)
{
    char *text = text_of(g);
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *back = grammar_load_string("back.ebnf", text, strlen(text), NULL, &d);
    char *diags = diag_text(&d);
    if (!harness_check(back != NULL, "written grammar loads", file, line)) {
        fprintf(stderr, "%s\n%s\n", diags, text);
        goto out;
    }
    harness_check_int(back->nrules, g->nrules, "rules", "rules", file, line);
    harness_check_int(back->start, g->start, "start", "start", file, line);
    struct graph *a = graph_build(g), *b = graph_build(back);
    bool same = harness_check_int(a->nnodes, b->nnodes, "nodes", "nodes", file, line);
    struct strbuf la = STRBUF_INIT, lb = STRBUF_INIT;
    for (uint32_t i = 0; same && i < a->nnodes; i++) {
        strbuf_reset(&la);
        strbuf_reset(&lb);
        graph_node_name(a, i, &la);
        graph_node_name(b, i, &lb);
        same = harness_check_str(la.data, lb.data, "node", "node", file, line) &&
               harness_check_int(a->nodes[i].nchildren, b->nodes[i].nchildren, "children",
                                 "children", file, line);
        for (uint32_t c = 0; same && c < a->nodes[i].nchildren; c++)
            same = harness_check_int(graph_children(a, i)[c], graph_children(b, i)[c], "child",
                                     "child", file, line);
    }
    for (uint32_t k = 1; same && k <= 4; k++) {
        struct kpath_space sa, sb;
        kpath_space_init(&sa, a, k);
        kpath_space_init(&sb, b, k);
        same = harness_check_int(sa.total, sb.total, "k-paths", "k-paths", file, line);
        kpath_space_free(&sa);
        kpath_space_free(&sb);
    }
    strbuf_free(&la);
    strbuf_free(&lb);
    graph_free(a);
    graph_free(b);
out:
    grammar_free(back);
    free(diags);
    free(text);
    diag_list_free(&d);
}

#define CHECK_RELOADS_EQUAL(g) check_reloads_equal_at((g), __FILE__, __LINE__)

/* Load, duplicate (expecting DUP_OK) and compare the whole written text. */
static void check_dup_at(const char *text, const char *rule, struct dup_options o,
                         const char *want, const char *file, int line)
{
    struct grammar *g = load_text(text);
    if (!harness_check(g != NULL, "grammar loads", file, line))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    enum dup_status st = dup_rule(g, rule, &o, NULL, &d);
    harness_check_int(st, DUP_OK, "status", "DUP_OK", file, line);
    char *diags = diag_text(&d);
    harness_check_str(diags, "", "diagnostics", "\"\"", file, line);
    char *got = text_of(g);
    harness_check_str(got, want, "written", "want", file, line);
    check_reloads_equal_at(g, file, line);
    free(got);
    free(diags);
    diag_list_free(&d);
    grammar_free(g);
}

#define CHECK_DUP(text, rule, opts, want) check_dup_at((text), (rule), (opts), (want), __FILE__, __LINE__)

/* ---- the worked example ------------------------------------------------- */

TEST(dup_factor_decimal_makes_five_digit_contexts)
{
    struct grammar *g = load_text(NUMBERS);
    if (!CHECK(g))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    struct dup_result res;
    struct dup_options o = {.alternative = 4};
    CHECK_INT(dup_rule(g, "<factor>", &o, &res, &d), DUP_OK);
    CHECK_INT(d.len, 0);
    CHECK_INT(res.copies, 6);
    CHECK_INT(res.removed, 0);
    static const char *const names[] = {"<start>", "<expr>", "<term>", "<factor>",
                                        "<integer>", "<integer-1>", "<integer-2>", "<digit>",
                                        "<digit-1>", "<digit-2>", "<digit-3>", "<digit-4>"};
    CHECK_INT(g->nrules, 12);
    for (uint32_t r = 0; r < 12 && r < g->nrules; r++)
        CHECK_STR(g->rules[r].name, names[r]);
    char *text = text_of(g);
    CHECK_STR(text,
              "<start> ::= <expr>;\n"
              "<expr> ::= <term> \" + \" <expr> | <term> \" - \" <expr> | <term>;\n"
              "<term> ::= <factor> \" * \" <term> | <factor> \" / \" <term> | <factor>;\n"
              "<factor> ::= \"+\" <factor>\n"
              "           | \"-\" <factor>\n"
              "           | \"(\" <expr> \")\"\n"
              "           | <integer-1> \".\" <integer-2>\n"
              "           | <integer>;\n"
              "<integer> ::= <digit> <integer> | <digit>;\n"
              "<integer-1> ::= <digit-1> <integer-1> | <digit-2>;\n"
              "<integer-2> ::= <digit-3> <integer-2> | <digit-4>;\n"
              "<digit> ::= " DIGITS "\n"
              "<digit-1> ::= " DIGITS "\n"
              "<digit-2> ::= " DIGITS "\n"
              "<digit-3> ::= " DIGITS "\n"
              "<digit-4> ::= " DIGITS "\n");
    free(text);
    /* Five digit contexts: every digit rule has its own node. */
    struct graph *gr = graph_build(g);
    int digit_nodes = 0;
    for (uint32_t r = 0; r < g->nrules; r++)
        digit_nodes += strncmp(g->rules[r].name, "<digit", 6) == 0 && gr->rule_node[r] != NODE_NONE;
    CHECK_INT(digit_nodes, 5);
    graph_free(gr);
    CHECK_RELOADS_EQUAL(g);
    /* The written grammar loads without a warning either. */
    char *again = text_of(g);
    struct grammar *back = grammar_load_string("back.ebnf", again, strlen(again), NULL, &d);
    CHECK(back && d.len == 0);
    grammar_free(back);
    free(again);
    diag_list_free(&d);
    grammar_free(g);
}

TEST(dup_depth_one_copies_one_level)
{
    struct dup_options o = {.alternative = 4, .depth = 1};
    CHECK_DUP(NUMBERS, "<factor>", o,
              "<start> ::= <expr>;\n"
              "<expr> ::= <term> \" + \" <expr> | <term> \" - \" <expr> | <term>;\n"
              "<term> ::= <factor> \" * \" <term> | <factor> \" / \" <term> | <factor>;\n"
              "<factor> ::= \"+\" <factor>\n"
              "           | \"-\" <factor>\n"
              "           | \"(\" <expr> \")\"\n"
              "           | <integer-1> \".\" <integer-2>\n"
              "           | <integer>;\n"
              "<integer> ::= <digit> <integer> | <digit>;\n"
              "<integer-1> ::= <digit> <integer-1> | <digit>;\n"
              "<integer-2> ::= <digit> <integer-2> | <digit>;\n"
              "<digit> ::= " DIGITS "\n");
}

TEST(dup_recursion_through_ancestors_ends)
{
    /* Inside <expr-1>, <expr> names <expr-1>; <term-1>'s <factor> gets a
     * copy of its own, whose <expr> again names the ancestor <expr-1>. */
    const char *text = "S := \"(\" E \")\";\n"
                       "E := T | T \"+\" E;\n"
                       "T := \"x\" | \"(\" E \")\";\n";
    struct dup_options o = {.alternative = 1};
    CHECK_DUP(text, "S", o,
              "S := \"(\" E-1 \")\";\n"
              "E-1 := T-1 | T-2 \"+\" E-1;\n"
              "T-1 := \"x\" | \"(\" E-1 \")\";\n"
              "T-2 := \"x\" | \"(\" E-1 \")\";\n");
}

TEST(dup_every_alternative_and_self_reference)
{
    /* R itself is not a copy: its own reference gets a fresh copy, inside
     * which the self-reference names that copy.  Copies are numbered depth
     * first: I-1's digits come before the second alternative's. */
    const char *text = "S := I;\nI := D I | D;\nD := \"0\" | \"1\";\n";
    struct dup_options all = {0};
    CHECK_DUP(text, "I", all,
              "S := I;\n"
              "I := D-1 I-1 | D-4;\n"
              "I-1 := D-2 I-1 | D-3;\n"
              "D-1 := \"0\" | \"1\";\n"
              "D-2 := \"0\" | \"1\";\n"
              "D-3 := \"0\" | \"1\";\n"
              "D-4 := \"0\" | \"1\";\n");
}

/* ---- names, placement, removal ------------------------------------------ */

TEST(dup_takes_the_first_free_suffix)
{
    const char *text = "S := A A-1 <b>;\nA := \"a\";\nA-1 := \"c\";\nA-2 := \"d\";\n<b> := \"b\";\n"
                       "<b-1> := \"e\";\nU := A-2 <b-1>;\n";
    struct dup_options all = {0};
    CHECK_DUP(text, "S", all,
              "S := A-3 A-1-1 <b-2>;\n"
              "A-3 := \"a\";\n"
              "A-1-1 := \"c\";\n"
              "A-2 := \"d\";\n"
              "<b-2> := \"b\";\n"
              "<b-1> := \"e\";\n"
              "U := A-2 <b-1>;\n");
}

TEST(dup_removes_rules_no_longer_reachable_and_keeps_comments)
{
    /* A is only used by S's alternative: after duplication nothing refers
     * to it, so it goes (with the blank line before it); its copies stay
     * where it was.  U was unreachable before and keeps what it refers to:
     * B, which S no longer reaches. */
    const char *text = "# S\nS := A A | C;\n\n# A\nA := B;\n# B\nB := \"b\" | C; // after B\n"
                       "\nC := \"c\";\n# U\nU := B;\n# end\n";
    struct grammar *g = load_text(text);
    if (!CHECK(g))
        return;
    struct diag_list d = DIAG_LIST_INIT;
    struct dup_result res;
    struct dup_options o = {.alternative = 1};
    CHECK_INT(dup_rule(g, "S", &o, &res, &d), DUP_OK);
    CHECK_INT(res.copies, 6);
    CHECK_INT(res.removed, 1);
    char *got = text_of(g);
    CHECK_STR(got, "# S\nS := A-1 A-2 | C;\n"
                   "A-1 := B-1;\nA-2 := B-2;\n"
                   "# B\nB := \"b\" | C; // after B\n"
                   "B-1 := \"b\" | C-1;\nB-2 := \"b\" | C-2;\n"
                   "\nC := \"c\";\nC-1 := \"c\";\nC-2 := \"c\";\n# U\nU := B;\n# end\n");
    CHECK(!g->rules[grammar_find_rule(g, "U")].reachable);
    CHECK(!g->rules[grammar_find_rule(g, "B")].reachable);
    CHECK_RELOADS_EQUAL(g);
    free(got);
    diag_list_free(&d);
    grammar_free(g);
}

TEST(dup_copies_weights_and_quantifiers)
{
    const char *text = "S := (X \",\")* X?;\nX := 70% \"a\" | 30% (\"b\" | Y){2,3};\nY := \"y\";\n";
    struct dup_options all = {0};
    CHECK_DUP(text, "S", all,
              "S := (X-1 \",\")* X-2?;\n"
              "X-1 := 70% \"a\" | 30% (\"b\" | Y-1){2,3};\n"
              "X-2 := 70% \"a\" | 30% (\"b\" | Y-2){2,3};\n"
              "Y-1 := \"y\";\n"
              "Y-2 := \"y\";\n");
}

/* ---- errors and limits -------------------------------------------------- */

static void check_error_at(const char *text, const char *rule, uint32_t alternative,
                           enum dup_status want_status, const char *want, const char *file,
                           int line)
{
    struct grammar *g = load_text(text);
    if (!harness_check(g != NULL, "grammar loads", file, line))
        return;
    char *before = text_of(g);
    struct diag_list d = DIAG_LIST_INIT;
    struct dup_options o = {.alternative = alternative, .max_new_rules = 50};
    harness_check_int(dup_rule(g, rule, &o, NULL, &d), want_status, "status", "want", file, line);
    char *got = diag_text(&d);
    harness_check_str(got, want, "diagnostic", "want", file, line);
    char *after = text_of(g);
    harness_check_str(after, before, "grammar after", "before", file, line);
    free(after);
    free(got);
    free(before);
    diag_list_free(&d);
    grammar_free(g);
}

#define CHECK_ERROR(text, rule, alt, status, want) \
    check_error_at((text), (rule), (alt), (status), (want), __FILE__, __LINE__)

TEST(dup_errors_say_why_and_change_nothing)
{
    CHECK_ERROR(NUMBERS, "<number>", 1, DUP_NO_RULE, "t.ebnf: error: no rule '<number>' in the grammar");
    CHECK_ERROR(NUMBERS, "<factor>", 6, DUP_NO_ALTERNATIVE,
                "t.ebnf:4:1: error: rule '<factor>' has 5 alternatives; there is no alternative 6");
    CHECK_ERROR(NUMBERS, "<start>", 2, DUP_NO_ALTERNATIVE,
                "t.ebnf:1:1: error: rule '<start>' has 1 alternative; there is no alternative 2");
    CHECK_ERROR(NUMBERS, "<digit>", 3, DUP_NOTHING,
                "t.ebnf:6:25: error: alternative 3 of rule '<digit>' has no references: nothing "
                "to duplicate");
    CHECK_ERROR(NUMBERS, "<digit>", 0, DUP_NOTHING,
                "t.ebnf:6:1: error: rule '<digit>' has no references: nothing to duplicate");
    /* Each level doubles: 2 + 4 + 8 + 16 + 32 copies is more than 50. */
    CHECK_ERROR("S := A;\nA := B B;\nB := C C;\nC := D D;\nD := E E;\nE := F F;\nF := \"f\";\n",
                "A", 1, DUP_TOO_MANY,
                "t.ebnf:2:1: error: duplicating rule 'A' would make more than 50 copies; limit "
                "the levels of copies with a depth");
}

TEST(dup_long_chains_do_not_recurse)
{
    enum { N = 20000 };
    struct strbuf text = STRBUF_INIT;
    strbuf_addstr(&text, "S := R0;\n");
    for (int i = 0; i < N; i++)
        strbuf_addf(&text, "R%d := \"x\" R%d | \"y\";\n", i, i + 1);
    strbuf_addf(&text, "R%d := \"z\";\n", N);
    struct grammar *g = load_text(text.data);
    if (CHECK(g)) {
        struct diag_list d = DIAG_LIST_INIT;
        struct dup_result res;
        CHECK_INT(dup_rule(g, "S", NULL, &res, &d), DUP_OK);
        CHECK_INT(res.copies, N + 1);
        CHECK_INT(res.removed, N + 1);
        CHECK_INT(g->nrules, N + 2);
        CHECK_STR(g->rules[1].name, "R0-1");
        CHECK_STR(g->rules[N + 1].name, "R20000-1");
        CHECK_RELOADS_EQUAL(g);
        diag_list_free(&d);
        grammar_free(g);
    }
    strbuf_free(&text);
}

TEST(dup_random_grammars_reload_equal)
{
    for (uint64_t seed = 1; seed <= 40; seed++) {
        char *text = random_grammar(seed, 4 + (uint32_t)(seed % 9));
        struct grammar *g = load_text(text);
        if (!CHECK(g)) {
            free(text);
            continue;
        }
        /* A rule and alternative picked from the seed; depth 1 to 3 or none. */
        uint32_t r = (uint32_t)(seed * 7 % g->nrules);
        const struct expr *rhs = g->rules[r].rhs;
        uint32_t nalts = rhs->kind == EXPR_ALT ? rhs->nchildren : 1;
        struct dup_options o = {.alternative = (uint32_t)(seed % (nalts + 1)),
                                .depth = (uint32_t)(seed % 4),
                                .max_new_rules = 2000};
        struct diag_list d = DIAG_LIST_INIT;
        enum dup_status st = dup_rule(g, g->rules[r].name, &o, NULL, &d);
        CHECK(st == DUP_OK || st == DUP_NOTHING || st == DUP_TOO_MANY);
        if (st == DUP_OK)
            CHECK_RELOADS_EQUAL(g);
        diag_list_free(&d);
        grammar_free(g);
        free(text);
    }
}

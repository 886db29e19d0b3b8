/* input_shrink (issue 33, item 2): inputs reduced while a predicate holds,
 * against minima worked out by hand, and the result 1-minimal with respect
 * to the tree edits, checked by trying every single edit afresh.
 *
 * The predicate `negated_group` is a model of subjects/calc.c's crash: calc
 * writes through a null pointer when a unary minus stands directly before
 * "(" (negate_group), after parse_group has read the whole group.  In
 * arith.ebnf's inputs a "-" is unary exactly when it starts the input or
 * follows an operator or "(".  The smallest such input, by hand: a unary
 * minus needs Factor := "-" Factor, the group Factor := "(" Expr ")", and the
 * Expr inside at least one character, Expr -> Term -> Factor -> Int -> Digit
 * -> "0": Expr -> Term -> Factor -> "-" Factor -> "-" "(" Expr ")" ->
 * "-(0)", 4 bytes; no 3-byte input has "-(" and a closed group after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/load.h"
#include "harness.h"
#include "parse/parse.h"
#include "suite/input_shrink.h"
#include "suite/tree_edit.h"

static const struct graph *arith;

static bool parses(const char *text, size_t len)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct forest *f = parse_text(arith, "t", text, len, &po, &diags);
    diag_list_free(&diags);
    forest_free(f);
    return f != NULL;
}

static bool negated_group(const char *text, size_t len, void *ctx)
{
    (void)ctx;
    if (!parses(text, len))
        return false;
    for (size_t i = 0; i + 1 < len; i++)
        if (text[i] == '-' && text[i + 1] == '(' && (i == 0 || strchr("+-*/(", text[i - 1])))
            return true;
    return false;
}

/* Both letters x and y somewhere. */
static bool x_and_y(const char *text, size_t len, void *ctx)
{
    (void)ctx;
    return memchr(text, 'x', len) && memchr(text, 'y', len);
}

typedef bool (*predicate)(const char *, size_t, void *);

/* Every text asked, to check that none is asked twice. */
struct asked {
    char **texts;
    size_t n;
};

static bool seen(const struct asked *a, const char *text, size_t len)
{
    for (size_t i = 0; i < a->n; i++)
        if (strlen(a->texts[i]) == len && memcmp(a->texts[i], text, len) == 0)
            return true;
    return false;
}

/* Shrink `text` under p; returns the result (malloc'd). */
static char *shrink(const struct graph *g, const char *text, predicate p, bool chars,
                    struct input_shrink_stats *stats)
{
    struct input_shrink *s = input_shrink_new(g, NULL, text, strlen(text), chars);
    struct asked a = {calloc(1, sizeof(char *)), 0};
    a.texts[a.n++] = strdup(text);
    const char *t;
    size_t len;
    while (input_shrink_next(s, &t, &len)) {
        CHECK(!seen(&a, t, len));
        a.texts = realloc(a.texts, (a.n + 1) * sizeof *a.texts);
        a.texts[a.n] = malloc(len + 1);
        memcpy(a.texts[a.n], t, len);
        a.texts[a.n++][len] = '\0';
        input_shrink_answer(s, p(t, len, NULL));
    }
    input_shrink_get_stats(s, stats);
    CHECK_INT(stats->asked, a.n - 1);
    for (size_t i = 0; i < a.n; i++)
        free(a.texts[i]);
    free(a.texts);
    const char *r = input_shrink_result(s, &len);
    char *out = malloc(len + 1);
    memcpy(out, r, len);
    out[len] = '\0';
    input_shrink_free(s);
    return out;
}

/* Is there a single tree edit of text's tree (its first parse) that makes
 * it shorter and keeps p?  Every smallest, every hoist (to each descendant:
 * tree_edit_apply builds those with a unit route) and one-repetition drop. */
static bool one_edit_keeps(const struct graph *g, const char *text, predicate p)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct parse_options po = {.max_input_size = PARSE_DEFAULT_MAX_INPUT};
    struct forest *f = parse_text(g, "t", text, strlen(text), &po, &diags);
    diag_list_free(&diags);
    if (!CHECK(f != NULL))
        return true;
    struct derivation t;
    CHECK(forest_first_tree(f, &t));
    forest_free(f);
    struct tree_editor ed;
    tree_editor_init(&ed, g, NULL, UINT32_MAX);
    tree_edit_measure(&ed, &t);
    bool found = false;
    struct strbuf sb = STRBUF_INIT;
    for (uint32_t e = 0; e < t.len && !found; e++) {
        /* Every edit at e: smallest, a hoist to each descendant f, a drop of each child. */
        for (uint32_t x = 0; x < 1 + t.len + t.insts[e].nchildren && !found; x++) {
            struct tree_edit edit = {.at = e, .count = 1};
            if (x == 0) {
                edit.kind = TREE_EDIT_SMALLEST;
            } else if (x <= t.len) {
                uint32_t h = x - 1, up = h;
                while (up != DTREE_NONE && up != e)
                    up = t.insts[up].parent;
                if (h == e || up != e)
                    continue; /* tree_edit_apply refuses a descendant without a unit route */
                edit.kind = TREE_EDIT_HOIST;
                edit.arg = h;
            } else {
                const struct graph_node *n = &g->nodes[t.insts[e].node];
                if (n->kind != NODE_QUANT || t.insts[e].nchildren <= n->expr->u.quant.min)
                    continue;
                edit.kind = TREE_EDIT_DROP;
                edit.arg = x - 1 - (uint32_t)t.len;
            }
            struct derivation out;
            if (tree_edit_apply(&ed, &t, &edit, &out)) {
                strbuf_reset(&sb);
                derivation_text(&out, &sb);
                found = sb.len < strlen(text) && p(strbuf_str(&sb), sb.len, NULL);
            }
            derivation_free(&out);
        }
    }
    strbuf_free(&sb);
    derivation_free(&t);
    tree_editor_free(&ed);
    return found;
}

static bool is_negated_digit_group(const char *r)
{
    return strlen(r) == 4 && r[0] == '-' && r[1] == '(' && r[2] >= '0' && r[2] <= '9' &&
           r[3] == ')';
}

TEST(input_shrink_calc_crash_to_the_smallest)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    arith = l.graph;
    const char *crashes[] = {"12+3*-(4+5)/6", "((1))--(22*3)", "-(-(7))", "8*(9-(1+-(2*3)))",
                             "-(1)", "1+2+3+4+5+6+7+8+9+-(0+1+2+3+4+5)+1+2+3"};
    for (size_t i = 0; i < sizeof crashes / sizeof *crashes; i++) {
        CHECK(negated_group(crashes[i], strlen(crashes[i]), NULL));
        struct input_shrink_stats st;
        char *r = shrink(l.graph, crashes[i], negated_group, false, &st);
        if (!CHECK(is_negated_digit_group(r)))
            fprintf(stderr, "  %s shrank to %s\n", crashes[i], r);
        CHECK(st.parsed && !st.chars);
        CHECK(!one_edit_keeps(l.graph, r, negated_group));
        free(r);
    }
    test_unload(&l);
}

/* Text the grammar does not parse goes through ddmin: x and y stay, every
 * other character goes (1-minimal: neither alone keeps the predicate). */
TEST(input_shrink_ddmin_when_not_parsed)
{
    struct loaded l;
    if (!CHECK(test_load_file("grammars/arith.ebnf", &l)))
        return;
    arith = l.graph;
    struct input_shrink_stats st;
    char *r = shrink(l.graph, "ab x cd ef gh y ij", x_and_y, false, &st);
    CHECK_STR(r, "xy");
    CHECK(st.chars && !st.parsed);
    free(r);
    /* Characters only, without a grammar. */
    r = shrink(NULL, "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqyqqqqqqqqqqqqqqqqqxq", x_and_y, true, &st);
    CHECK_STR(r, "yx");
    free(r);
    /* Not parsed at first (a blank and a '!'), parsed once ddmin is done: the
     * tree search follows and ends at a smallest crash. */
    r = shrink(l.graph, "-(12) !", negated_group, false, &st);
    CHECK(is_negated_digit_group(r));
    CHECK(st.chars);
    free(r);
    test_unload(&l);
}

static bool has_x(const char *text, size_t len, void *ctx)
{
    (void)ctx;
    return memchr(text, 'x', len) != NULL;
}

/* Repetitions dropped in runs: of List := Item* with one x among 12 items,
 * the smallest input with an x is "x" (an Item must hold it, the other 11
 * go); with Item+ the same; with Item{3,} three items must stay, the x and
 * two others: 3 bytes. */
TEST(input_shrink_drops_repetitions)
{
    const char *grammars[] = {"List := Item* ; Item := \"a\" | \"b\" | \"x\" ;",
                              "List := Item+ ; Item := \"a\" | \"b\" | \"x\" ;",
                              "List := Item{3,} ; Item := \"a\" | \"b\" | \"x\" ;"};
    size_t want[] = {1, 1, 3};
    for (size_t i = 0; i < 3; i++) {
        struct loaded l;
        if (!CHECK(test_load_string(grammars[i], &l)))
            continue;
        struct input_shrink_stats st;
        char *r = shrink(l.graph, "abbabaxbbaab", has_x, false, &st);
        CHECK_INT(strlen(r), want[i]);
        CHECK(strchr(r, 'x') != NULL);
        CHECK(st.parsed);
        CHECK(!one_edit_keeps(l.graph, r, has_x));
        free(r);
        test_unload(&l);
    }
}

/* Unit tests of rule_names (src/infer/rule_names.h): names worked out by
 * hand from the contract, collisions with a person's names and between new
 * names, a second pass changing nothing, the written grammar reading back
 * with the new names and nothing else changed, and a deep right-hand side
 * (no recursion on its depth). */
#include <stdlib.h>
#include <string.h>

#include "formats/grammar_write.h"
#include "harness.h"
#include "infer/rule_names.h"
#include "base/strbuf.h"

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

TEST(rule_names_by_hand)
{
    /* sample1 is "{" ... "}", an object, but a person's rule has that name:
     * object_2; sample2 holds ":" between items: pair; n9 := "x" is a word,
     * named only right before ":": key; d1 and d2 are digits (in rule
     * order: digits, digits_2); keep1 holds a repetition of references,
     * none of the shapes: kept, as S (the start) and object are. */
    struct grammar *g = load_text("S := sample1 | sample2 | object | keep1;\n"
                                  "sample1 := \"{\" n9 \":\" d1 \"}\";\n"
                                  "sample2 := n9 \":\" d2 \" \" d1;\n"
                                  "object := \"{\" \"}\";\n"
                                  "keep1 := (d1 d2)+;\n"
                                  "n9 := \"x\";\n"
                                  "d1 := \"12\";\n"
                                  "d2 := [0-9]+;\n");
    CHECK(g != NULL);
    if (!g)
        return;
    struct rule_names r;
    rule_names_apply(g, &r);
    CHECK_INT(r.renamed, 5);
    char *text = text_of(g);
    CHECK_STR(text, "S := object_2 | pair | object | keep1;\n"
                    "object_2 := \"{\" key \":\" digits \"}\";\n"
                    "pair := key \":\" digits_2 \" \" digits;\n"
                    "object := \"{\" \"}\";\n"
                    "keep1 := (digits digits_2)+;\n"
                    "key := \"x\";\n"
                    "digits := \"12\";\n"
                    "digits_2 := [0-9]+;\n");
    CHECK(r.was[0] == NULL);
    CHECK_STR(r.was[1], "sample1");
    CHECK(r.was[3] == NULL && r.was[4] == NULL);
    CHECK_INT(grammar_find_rule(g, "key"), 5);
    CHECK_INT(grammar_find_rule(g, "n9"), RULE_NONE);
    struct strbuf note = STRBUF_INIT;
    rule_names_note(&r, g, 1, &note);
    CHECK_STR(strbuf_str(&note), "named object_2 from what it holds (was sample1)");
    strbuf_free(&note);
    rule_names_free(&r);
    /* a second pass changes nothing */
    rule_names_apply(g, &r);
    CHECK_INT(r.renamed, 0);
    char *again = text_of(g);
    CHECK_STR(again, text);
    rule_names_free(&r);
    /* the text reads back as the same grammar */
    struct grammar *back = load_text(text);
    CHECK(back != NULL);
    if (back) {
        char *text2 = text_of(back);
        CHECK_STR(text2, text);
        free(text2);
        grammar_free(back);
    }
    free(again);
    free(text);
    grammar_free(g);
}

TEST(rule_names_characters)
{
    struct grammar *g = load_text("S := a1 b1 c1 d1 e1 f1 g1 h1;\n"
                                  "a1 := [0-9];\n"
                                  "b1 := \"-\"? [0-9]+ (\".\" [0-9]+)?;\n"
                                  "c1 := [a-z]+;\n"
                                  "d1 := [A-Za-z]+;\n"
                                  "e1 := [a-z0-9]+;\n"
                                  "f1 := [a-z_] [a-z0-9_\\-]*;\n"
                                  "g1 := \"true\" | \"false\";\n"
                                  "h1 := [^\\n]+;\n");
    CHECK(g != NULL);
    if (!g)
        return;
    struct rule_names r;
    rule_names_apply(g, &r);
    const char *want[] = {"S", "digit", "number", "word", "letters", "alnum", "name", "keyword",
                          "text"};
    for (uint32_t i = 0; i < 9; i++)
        CHECK_STR(g->rules[i].name, want[i]);
    rule_names_free(&r);
    grammar_free(g);
}

TEST(rule_names_deep)
{
    /* 20,000 nested optional groups around a "{" ... "}": walked without
     * recursion, and an object */
    enum { DEPTH = 20000 };
    struct strbuf sb = STRBUF_INIT;
    strbuf_addstr(&sb, "S := r1;\nr1 := \"{\" ");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addstr(&sb, "(\"a\" ");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addstr(&sb, ")?");
    strbuf_addstr(&sb, " \"}\";\n");
    struct grammar *g = load_text(strbuf_str(&sb));
    strbuf_free(&sb);
    CHECK(g != NULL);
    if (!g)
        return;
    struct rule_names r;
    rule_names_apply(g, &r);
    CHECK_STR(g->rules[1].name, "object");
    rule_names_free(&r);
    grammar_free(g);
}

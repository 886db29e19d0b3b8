/* structure (then generalize): with oracles written here in C whose
 * languages are known exactly, the grammar learned from one sample must be
 * that language: compared with the oracle on every string up to a length
 * over a small alphabet (an independent check, no golden text).  Also the
 * structure alone, before generalize: which merges it must find, worked out
 * by hand from the algorithm in structure.h. */
#include <stdlib.h>
#include <string.h>

#include "formats/grammar_load.h"
#include "formats/grammar_write.h"
#include "grammar/grammar.h"
#include "graph/graph.h"
#include "harness.h"
#include "../support/same_language.h"
#include "infer/generalize.h"
#include "infer/lattice.h"
#include "infer/structure.h"
#include "parse/parse.h"
#include "base/strbuf.h"


struct cursor {
    const char *s;
    size_t n, i;
};

static bool eat(struct cursor *c, char ch)
{
    if (c->i < c->n && c->s[c->i] == ch) {
        c->i++;
        return true;
    }
    return false;
}

static bool digits(struct cursor *c)
{
    size_t from = c->i;
    while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9')
        c->i++;
    return c->i > from;
}

/* L = "[" (L ("," L)*)? "]" | [0-9]+ (depth bounded by the input's length) */
static bool nested(struct cursor *c, int depth)
{
    if (depth > 64)
        return false;
    if (!eat(c, '['))
        return digits(c);
    if (eat(c, ']'))
        return true;
    do {
        if (!nested(c, depth + 1))
            return false;
    } while (eat(c, ','));
    return eat(c, ']');
}

static bool lang_nested(const char *s, size_t n)
{
    struct cursor c = {s, n, 0};
    return nested(&c, 0) && c.i == n;
}

/* [a-z]+ ("." [a-z]+)* */
static bool lang_dotted(const char *s, size_t n)
{
    size_t i = 0;
    for (;;) {
        size_t from = i;
        while (i < n && s[i] >= 'a' && s[i] <= 'z')
            i++;
        if (i == from)
            return false;
        if (i == n)
            return true;
        if (s[i++] != '.')
            return false;
    }
}

static bool word(struct cursor *c, const char *w)
{
    size_t n = strlen(w);
    if (c->n - c->i < n || memcmp(c->s + c->i, w, n) != 0)
        return false;
    c->i += n;
    return true;
}

static bool jstring(struct cursor *c)
{
    if (!eat(c, '"'))
        return false;
    while (c->i < c->n && c->s[c->i] >= 'a' && c->s[c->i] <= 'z')
        c->i++;
    return eat(c, '"');
}

/* V = "{" (S ":" V ("," S ":" V)*)? "}" | "[" (V ("," V)*)? "]" | S | [0-9]+
 *   | "true" | "null", S = "\"" [a-z]* "\"" (tests/subjects/lang.c jsonlite) */
static bool jvalue(struct cursor *c, int depth)
{
    if (depth > 64)
        return false;
    if (eat(c, '{')) {
        if (eat(c, '}'))
            return true;
        do {
            if (!jstring(c) || !eat(c, ':') || !jvalue(c, depth + 1))
                return false;
        } while (eat(c, ','));
        return eat(c, '}');
    }
    if (eat(c, '[')) {
        if (eat(c, ']'))
            return true;
        do {
            if (!jvalue(c, depth + 1))
                return false;
        } while (eat(c, ','));
        return eat(c, ']');
    }
    if (c->i < c->n && c->s[c->i] == '"')
        return jstring(c);
    return digits(c) || word(c, "true") || word(c, "null");
}

static bool lang_jsonlite(const char *s, size_t n)
{
    struct cursor c = {s, n, 0};
    return jvalue(&c, 0) && c.i == n;
}

static bool ask(void *ctx, const char *const *inputs, const size_t *lens, size_t n,
                enum membership_answer *answers, struct diag_list *diags)
{
    (void)diags;
    language_fn lang = *(language_fn *)ctx;
    for (size_t i = 0; i < n; i++)
        answers[i] = lang(inputs[i], lens[i]) ? MEMBERSHIP_YES : MEMBERSHIP_NO;
    return true;
}

static struct grammar *learn(const char *sample, language_fn lang, bool then_generalize,
                             struct strbuf *text, struct structure_result *sres)
{
    struct diag_list diags = DIAG_LIST_INIT;
    struct structure_options so;
    structure_options_default(&so);
    so.ask = ask;
    so.ask_ctx = &lang;
    struct generalize_sample s = {"s.txt", sample, strlen(sample)};
    struct grammar *g = structure_learn("g.ebnf", &s, 1, &so, sres, &diags);
    CHECK(g != NULL);
    CHECK_INT(diags.errors, 0);
    if (g && then_generalize) {
        struct lattice lattice;
        CHECK(lattice_load(harness_path("lattices/default.ebnf"), &lattice, &diags));
        struct generalize_options o;
        generalize_options_default(&o);
        o.lattice = &lattice;
        o.ask = ask;
        o.ask_ctx = &lang;
        struct generalize_result res = {0};
        CHECK(generalize_run(g, &s, 1, &o, &res, &diags));
        generalize_result_free(&res);
        lattice_free(&lattice);
    }
    if (g) {
        struct grammar_write_options wo = {.reprint = true};
        grammar_write(g, &wo, text);
    }
    diag_list_free(&diags);
    return g;
}

TEST(structure_nested_arrays_from_one_sample)
{
    struct strbuf text = STRBUF_INIT;
    struct structure_result sres;
    struct grammar *g = learn("[1,[2]]", lang_nested, false, &text, &sres);
    /* By hand: "2" and "1" replace each other (one class); the sample is in
     * it (1 alone is valid, and [1,[2]] in place of 1 or 2 is still an
     * array); [2] is in it too; "1," is written twice and three times
     * ("[1,2,[2]]" is "1," then "2,").  Nothing else: "1,[2]" cannot be a
     * whole input, "[1" and "2]" cannot replace a number. */
    CHECK_STR(text.data, "input := value;\n"
                         "value := \"1\" | \"2\" | \"[\" (value \",\")+ value \"]\" | \"[\" value \"]\";\n");
    CHECK_INT(sres.classes, 1);
    CHECK_INT(sres.recursions, 2);
    CHECK_INT(sres.repetitions, 1);
    structure_result_free(&sres);
    grammar_free(g);
    strbuf_free(&text);
    /* then generalize: exactly the language on every string of up to 6
     * characters over [ ] , 1 2 (5^6 strings) */
    strbuf_reset(&text);
    g = learn("[1,[2]]", lang_nested, true, &text, &sres);
    if (g)
        CHECK(same_language(g, lang_nested, "[],12", 6));
    structure_result_free(&sres);
    grammar_free(g);
    strbuf_free(&text);
}

TEST(structure_dotted_labels_repeat)
{
    struct strbuf text = STRBUF_INIT;
    struct structure_result sres;
    struct grammar *g = learn("ab.cd.ef", lang_dotted, true, &text, &sres);
    if (g)
        CHECK(same_language(g, lang_dotted, "a.bz", 6));
    structure_result_free(&sres);
    grammar_free(g);
    strbuf_free(&text);
}

TEST(structure_json_strings_are_values)
{
    /* A string is one token; the class of strings stands where a value
     * does (up to 5 values given "bc", "a"...), so it is one of value's
     * alternatives, and "bc" in the array stands for a value ("[1,1,true]"
     * and "[1,{"e":null},true]"), while the keys stay strings ("{1:...}" is
     * rejected).  Then generalize widens the strings' contents: exactly the
     * language on every string of up to 6 characters over [ ] { } " : , 1 */
    struct strbuf text = STRBUF_INIT;
    struct structure_result sres;
    struct grammar *g = learn("{\"a\":[1,\"bc\",true],\"d\":{\"e\":null}}", lang_jsonlite,
                              true, &text, &sres);
    if (g)
        CHECK(same_language(g, lang_jsonlite, "[]{}\":,1", 6));
    CHECK(strstr(text.data, "| string;") != NULL);
    structure_result_free(&sres);
    grammar_free(g);
    strbuf_free(&text);
}

static bool lang_yes(const char *s, size_t n)
{
    (void)s;
    (void)n;
    return true;
}

TEST(structure_query_limit_keeps_the_samples)
{
    /* Everything is valid, so every attempt is taken until the limit; the
     * grammar then still derives the sample. */
    struct diag_list diags = DIAG_LIST_INIT;
    struct structure_options so;
    structure_options_default(&so);
    language_fn lang = lang_yes;
    so.ask = ask;
    so.ask_ctx = &lang;
    so.max_queries = 3;
    struct generalize_sample s = {"s.txt", "a+b*(c)", 7};
    struct structure_result sres;
    struct grammar *g = structure_learn("g.ebnf", &s, 1, &so, &sres, &diags);
    CHECK(g != NULL);
    CHECK(sres.limit_reached);
    CHECK(sres.queries <= 3);
    if (g) {
        struct graph *graph = graph_build(g);
        struct parse_options po = {.max_input_size = 1024, .max_memory = (size_t)64 << 20};
        struct forest *f = parse_text(graph, "s", s.text, s.len, &po, &diags);
        CHECK(f != NULL);
        forest_free(f);
        graph_free(graph);
    }
    structure_result_free(&sres);
    grammar_free(g);
    diag_list_free(&diags);
}

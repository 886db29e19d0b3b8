/* Unit tests of the grammar loader: syntax tree shapes, escapes, classes,
 * weights, start rule, every diagnostic, and deep or big inputs. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grammar/grammar.h"
#include "harness.h"
#include "base/strbuf.h"
#include "grammar/grammar_file.h"

/* ---- helpers ------------------------------------------------------------ */

static struct grammar *load_opts(const char *text, const struct grammar_options *opts,
                                 struct diag_list *d)
{
    return grammar_load_string("t.ebnf", text, strlen(text), opts, d);
}

static struct grammar *load(const char *text, struct diag_list *d)
{
    return load_opts(text, NULL, d);
}

/* The diagnostics sorted as the CLI prints them, one per line; caller frees. */
static char *diags_text(struct diag_list *d)
{
    struct strbuf sb = STRBUF_INIT;
    diag_sort(d);
    for (size_t i = 0; i < d->len; i++) {
        if (i)
            strbuf_addch(&sb, '\n');
        diag_format(&d->items[i], &sb);
    }
    return strbuf_detach(&sb, NULL);
}

/* Load `text` and compare all its diagnostics with `want`; the grammar must be
 * NULL exactly when `want` contains an error. */
static void check_diags_at(const char *text, const struct grammar_options *opts,
                           const char *want, const char *file, int line)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = load_opts(text, opts, &d);
    char *got = diags_text(&d);
    harness_check_str(got, want, "diagnostics", want, file, line);
    bool has_error = strstr(want, ": error: ") != NULL;
    harness_check(has_error == (g == NULL), "grammar is NULL exactly on error", file, line);
    free(got);
    grammar_free(g);
    diag_list_free(&d);
}

#define CHECK_DIAGS(text, want) check_diags_at((text), NULL, (want), __FILE__, __LINE__)
#define CHECK_DIAGS_OPTS(text, opts, want) check_diags_at((text), (opts), (want), __FILE__, __LINE__)

/* Load text that must be valid and free of diagnostics. */
static struct grammar *load_ok_at(const char *text, const char *file, int line)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = load(text, &d);
    char *got = diags_text(&d);
    harness_check_str(got, "", "diagnostics", "\"\"", file, line);
    harness_check(g != NULL, "grammar loaded", file, line);
    free(got);
    diag_list_free(&d);
    return g;
}

#define LOAD_OK(text) load_ok_at((text), __FILE__, __LINE__)

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-12;
}

static const struct expr *rhs_of(const struct grammar *g, const char *name)
{
    uint32_t r = grammar_find_rule(g, name);
    return r == RULE_NONE ? NULL : g->rules[r].rhs;
}

/* ---- shapes ------------------------------------------------------------- */

TEST(grammar_group_of_one_is_the_atom)
{
    struct grammar *g = LOAD_OK("A := (\"x\");");
    if (!g)
        return;
    CHECK_INT(g->nrules, 1);
    const struct expr *e = g->rules[0].rhs;
    CHECK_INT(e->kind, EXPR_LIT);
    CHECK_STR(e->u.lit.text, "x");
    CHECK_INT(e->u.lit.len, 1);
    CHECK(e->parent == NULL);
    CHECK_INT(e->rule, 0);
    CHECK_INT(e->pos.line, 1);
    CHECK_INT(e->pos.col, 7);
    CHECK_INT(e->end.col, 10);
    CHECK_INT(g->start, 0);
    CHECK(g->rules[0].reachable);
    grammar_free(g);
}

TEST(grammar_group_in_sequence)
{
    /*            1234567890123456789012 */
    struct grammar *g = LOAD_OK("A := (\"a\" | \"b\") \"c\";");
    if (!g)
        return;
    const struct expr *cat = g->rules[0].rhs;
    CHECK_INT(cat->kind, EXPR_CAT);
    CHECK_INT(cat->nchildren, 2);
    CHECK_INT(cat->pos.col, 6); /* the '(' */
    CHECK_INT(cat->end.col, 21);
    const struct expr *alt = cat->children[0];
    CHECK_INT(alt->kind, EXPR_ALT);
    CHECK_INT(alt->nchildren, 2);
    CHECK(alt->parent == cat);
    CHECK(alt->u.alt.weights == NULL);
    CHECK_INT(alt->pos.col, 7);
    CHECK_INT(alt->end.col, 16);
    CHECK_STR(alt->children[0]->u.lit.text, "a");
    CHECK_STR(alt->children[1]->u.lit.text, "b");
    CHECK(alt->children[1]->parent == alt);
    CHECK_INT(cat->children[1]->kind, EXPR_LIT);
    CHECK_STR(cat->children[1]->u.lit.text, "c");
    CHECK_INT(cat->children[1]->pos.col, 18);
    CHECK(cat->children[1]->parent == cat);
    grammar_free(g);
}

TEST(grammar_quantified_group)
{
    struct grammar *g = LOAD_OK("A := (\"a\" \"b\")*;");
    if (!g)
        return;
    const struct expr *q = g->rules[0].rhs;
    CHECK_INT(q->kind, EXPR_QUANT);
    CHECK_INT(q->u.quant.min, 0);
    CHECK_INT(q->u.quant.max, QUANT_INFINITE);
    CHECK_INT(q->nchildren, 1);
    CHECK_INT(q->pos.col, 6);
    CHECK_INT(q->end.col, 16);
    const struct expr *cat = q->children[0];
    CHECK_INT(cat->kind, EXPR_CAT);
    CHECK(cat->parent == q);
    CHECK_INT(cat->nchildren, 2);
    CHECK_INT(cat->pos.col, 7);
    CHECK_INT(cat->end.col, 14);
    grammar_free(g);
}

TEST(grammar_nested_alternation_is_not_flattened)
{
    struct grammar *g = LOAD_OK("A := \"a\" | (\"b\" | \"c\");");
    if (!g)
        return;
    const struct expr *alt = g->rules[0].rhs;
    CHECK_INT(alt->kind, EXPR_ALT);
    CHECK_INT(alt->nchildren, 2);
    CHECK_INT(alt->children[0]->kind, EXPR_LIT);
    const struct expr *inner = alt->children[1];
    CHECK_INT(inner->kind, EXPR_ALT);
    CHECK_INT(inner->nchildren, 2);
    CHECK(inner->parent == alt);
    CHECK_STR(inner->children[1]->u.lit.text, "c");
    grammar_free(g);
}

TEST(grammar_quantifiers_and_labels)
{
    struct grammar *g =
        LOAD_OK("A := \"a\"? \"b\"* \"c\"+ \"d\"{2} \"e\"{2,} \"f\"{,3} \"g\"{1, 4} \"h\"{0,1}"
                " \"i\"{4294967294};");
    if (!g)
        return;
    const struct expr *cat = g->rules[0].rhs;
    CHECK_INT(cat->kind, EXPR_CAT);
    CHECK_INT(cat->nchildren, 9);
    static const uint32_t want[][2] = {
        {0, 1}, {0, QUANT_INFINITE}, {1, QUANT_INFINITE}, {2, 2}, {2, QUANT_INFINITE},
        {0, 3}, {1, 4}, {0, 1}, {4294967294u, 4294967294u},
    };
    static const char *labels[] = {"?", "*", "+", "{2}", "{2,}", "{,3}", "{1,4}", "?",
                                   "{4294967294}"};
    for (uint32_t i = 0; i < cat->nchildren && i < 9; i++) {
        const struct expr *q = cat->children[i];
        CHECK_INT(q->kind, EXPR_QUANT);
        CHECK_INT(q->u.quant.min, want[i][0]);
        CHECK_INT(q->u.quant.max, want[i][1]);
        CHECK_INT(q->children[0]->kind, EXPR_LIT);
        struct strbuf sb = STRBUF_INIT;
        grammar_quant_label(q, &sb);
        CHECK_STR(strbuf_str(&sb), labels[i]);
        strbuf_free(&sb);
    }
    grammar_free(g);
}

TEST(grammar_names_defines_and_references)
{
    struct grammar *g = LOAD_OK("S ::= <int> x.y-z_1;\n"
                                "<int> = \"1\";\n"
                                "x.y-z_1 := \"q\";");
    if (!g)
        return;
    CHECK_INT(g->nrules, 3);
    CHECK_STR(g->rules[1].name, "<int>");
    CHECK_INT(g->rules[1].pos.line, 2);
    CHECK_INT(g->rules[1].pos.col, 1);
    CHECK_INT(grammar_find_rule(g, "<int>"), 1);
    CHECK_INT(grammar_find_rule(g, "x.y-z_1"), 2);
    CHECK_INT(grammar_find_rule(g, "int"), RULE_NONE);
    const struct expr *cat = g->rules[0].rhs;
    CHECK_INT(cat->kind, EXPR_CAT);
    CHECK_INT(cat->children[0]->kind, EXPR_REF);
    CHECK_STR(cat->children[0]->u.ref.name, "<int>");
    CHECK_INT(cat->children[0]->u.ref.target, 1);
    CHECK_INT(cat->children[1]->u.ref.target, 2);
    CHECK_INT(cat->children[1]->rule, 0);
    CHECK_INT(g->rules[2].rhs->rule, 2);
    CHECK_INT(g->start, 0);
    CHECK_STR(g->file, "t.ebnf");
    grammar_free(g);
}

TEST(grammar_comments)
{
    struct grammar *g = LOAD_OK("# a comment\n"
                                "A := \"a\" // another\n"
                                "   | /* a long\n"
                                "  one */ \"b\"; /**/ #\n");
    if (!g)
        return;
    const struct expr *alt = g->rules[0].rhs;
    CHECK_INT(alt->kind, EXPR_ALT);
    CHECK_INT(alt->nchildren, 2);
    CHECK_INT(alt->pos.line, 2);
    CHECK_INT(alt->children[1]->pos.line, 4);
    CHECK_INT(alt->children[1]->pos.col, 10);
    CHECK_INT(alt->end.line, 4);
    CHECK_INT(alt->end.col, 13);
    grammar_free(g);
}

TEST(grammar_expr_file)
{
    const char *path = harness_path("grammars/expr.ebnf");
    FILE *f = fopen(path, "r");
    if (!f)
        return; /* not written yet */
    fclose(f);
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_file(path, NULL, &d);
    CHECK_INT(d.len, 0);
    CHECK(g != NULL);
    if (!g) {
        diag_list_free(&d);
        return;
    }
    CHECK_INT(g->nrules, 7);
    CHECK_STR(g->rules[g->start].name, "Expr");
    for (uint32_t r = 0; r < g->nrules; r++)
        CHECK(g->rules[r].reachable);
    const struct expr *add = rhs_of(g, "AddExpr");
    CHECK_INT(add->kind, EXPR_ALT);
    CHECK_INT(add->nchildren, 2);
    CHECK_INT(add->children[0]->kind, EXPR_REF);
    CHECK_INT(add->children[0]->u.ref.target, grammar_find_rule(g, "MultExpr"));
    const struct expr *cat = add->children[1];
    CHECK_INT(cat->kind, EXPR_CAT);
    CHECK_INT(cat->nchildren, 3);
    CHECK_INT(cat->children[0]->u.ref.target, grammar_find_rule(g, "AddExpr"));
    CHECK_INT(cat->children[1]->kind, EXPR_ALT);
    CHECK_INT(cat->children[1]->nchildren, 2);
    CHECK_STR(cat->children[1]->children[1]->u.lit.text, "-");
    CHECK_INT(rhs_of(g, "UnaryExpr")->nchildren, 7);
    CHECK_INT(rhs_of(g, "UnaryExpr")->children[6]->kind, EXPR_REF);
    CHECK_INT(rhs_of(g, "UnaryExpr")->children[6]->pos.line, 
              rhs_of(g, "UnaryExpr")->pos.line + 1);
    const struct expr *digits = rhs_of(g, "DecDigits");
    CHECK_INT(digits->kind, EXPR_QUANT);
    CHECK_INT(digits->u.quant.min, 1);
    CHECK_INT(digits->u.quant.max, QUANT_INFINITE);
    CHECK_STR(digits->children[0]->u.ref.name, "DecDigit");
    CHECK_INT(rhs_of(g, "DecDigit")->nchildren, 10);
    grammar_free(g);
    diag_list_free(&d);
}

TEST(grammar_bundled_files_load)
{
    static const char *files[] = {"arith", "config", "csv", "digits", "expr",
                                  "fsm", "ini", "json", "url"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "grammars/%s.ebnf", files[i]);
        const char *path = harness_path(rel);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        fclose(f);
        struct diag_list d = DIAG_LIST_INIT;
        struct grammar *g = grammar_load_file(path, NULL, &d);
        char *got = diags_text(&d);
        if (!CHECK(g != NULL))
            fprintf(stderr, "  %s\n", got);
        free(got);
        grammar_free(g);
        diag_list_free(&d);
    }
}

/* Every file in tests/grammars/ok loads without errors; every file in
 * tests/grammars/bad fails to load. */
static int load_dir(const char *rel, bool want_ok)
{
    DIR *dir = opendir(harness_path(rel));
    if (!dir)
        return 0;
    char dir_path[4096];
    snprintf(dir_path, sizeof dir_path, "%s", harness_path(rel));
    int count = 0;
    struct dirent *ent;
    while ((ent = readdir(dir))) {
        size_t n = strlen(ent->d_name);
        if (n < 5 || strcmp(ent->d_name + n - 5, ".ebnf") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir_path, ent->d_name);
        struct diag_list d = DIAG_LIST_INIT;
        struct grammar *g = grammar_load_file(path, NULL, &d);
        if (!CHECK((g != NULL) == want_ok))
            fprintf(stderr, "  %s\n", path);
        if (!want_ok)
            CHECK(d.errors > 0);
        grammar_free(g);
        diag_list_free(&d);
        count++;
    }
    closedir(dir);
    return count;
}

TEST(grammar_test_files)
{
    CHECK(load_dir("tests/grammars/ok", true) >= 10);
    CHECK(load_dir("tests/grammars/bad", false) >= 27);
}

/* ---- strings and classes ------------------------------------------------ */

TEST(grammar_string_escapes)
{
    struct grammar *g = LOAD_OK("A := \"\\u{1F600}\" '\\x41' \"\\n\\r\\t\\\\\\\"\\'\" '\"' \"'\""
                                " \"\\xE9\" \"a\\x00b\" \"\" 'é' \"\\u{7}\";");
    if (!g)
        return;
    const struct expr *cat = g->rules[0].rhs;
    CHECK_INT(cat->nchildren, 10);
    if (cat->nchildren != 10) {
        grammar_free(g);
        return;
    }
    CHECK_INT(cat->children[0]->u.lit.len, 4);
    CHECK_STR(cat->children[0]->u.lit.text, "\xF0\x9F\x98\x80");
    CHECK_STR(cat->children[1]->u.lit.text, "A");
    CHECK_STR(cat->children[2]->u.lit.text, "\n\r\t\\\"'");
    CHECK_STR(cat->children[3]->u.lit.text, "\"");
    CHECK_STR(cat->children[4]->u.lit.text, "'");
    CHECK_STR(cat->children[5]->u.lit.text, "\xC3\xA9");
    CHECK_INT(cat->children[6]->u.lit.len, 3);
    CHECK(memcmp(cat->children[6]->u.lit.text, "a\0b", 4) == 0);
    CHECK_INT(cat->children[7]->u.lit.len, 0);
    CHECK_STR(cat->children[7]->u.lit.text, "");
    CHECK_STR(cat->children[8]->u.lit.text, "é");
    CHECK_STR(cat->children[9]->u.lit.text, "\a");
    grammar_free(g);
}

TEST(grammar_lit_labels)
{
    struct strbuf sb = STRBUF_INIT;
    grammar_lit_label("a\"b\n", 4, &sb);
    CHECK_STR(strbuf_str(&sb), "\"a\\\"b\\n\"");
    strbuf_reset(&sb);
    grammar_lit_label("\\\t\r\x01\x7F", 5, &sb);
    CHECK_STR(strbuf_str(&sb), "\"\\\\\\t\\r\\x01\\x7F\"");
    strbuf_reset(&sb);
    grammar_lit_label("\0é\xC2\x85", 5, &sb);
    CHECK_STR(strbuf_str(&sb), "\"\\x00é\\u{85}\"");
    strbuf_reset(&sb);
    grammar_lit_label("", 0, &sb);
    CHECK_STR(strbuf_str(&sb), "\"\"");
    strbuf_free(&sb);
}

TEST(grammar_class_ranges)
{
    struct grammar *g = LOAD_OK("A := [a-z0-9_] [^\"\\\\] [z-za-c\\x41] [a-cb-fg] "
                                "[\\]\\[\\-\\^] [-a-] [α-γ] [ ];");
    if (!g)
        return;
    const struct expr *cat = g->rules[0].rhs;
    CHECK_INT(cat->nchildren, 8);
    if (cat->nchildren != 8) {
        grammar_free(g);
        return;
    }
    const struct expr *c = cat->children[0];
    CHECK_INT(c->kind, EXPR_CLASS);
    CHECK_STR(c->u.cls.source, "[a-z0-9_]");
    CHECK(!c->u.cls.negated);
    CHECK_INT(c->u.cls.nranges, 3);
    CHECK_INT(c->u.cls.ranges[0].lo, '0');
    CHECK_INT(c->u.cls.ranges[0].hi, '9');
    CHECK_INT(c->u.cls.ranges[1].lo, '_');
    CHECK_INT(c->u.cls.ranges[1].hi, '_');
    CHECK_INT(c->u.cls.ranges[2].lo, 'a');
    CHECK_INT(c->u.cls.ranges[2].hi, 'z');
    CHECK_INT(grammar_class_size(c), 37);
    CHECK_INT(grammar_class_nth(c, 0), '0');
    CHECK_INT(grammar_class_nth(c, 10), '_');
    CHECK_INT(grammar_class_nth(c, 11), 'a');
    CHECK_INT(grammar_class_nth(c, 36), 'z');
    CHECK_INT(grammar_class_nth(c, 37), UINT32_MAX);
    CHECK(grammar_class_matches(c, 'm'));
    CHECK(grammar_class_matches(c, '_'));
    CHECK(!grammar_class_matches(c, 'A'));
    CHECK(!grammar_class_matches(c, '{'));
    CHECK_INT(grammar_class_default_char(c), '0');

    c = cat->children[1];
    CHECK_STR(c->u.cls.source, "[^\"\\\\]");
    CHECK(c->u.cls.negated);
    CHECK_INT(c->u.cls.nranges, 2);
    CHECK_INT(c->u.cls.ranges[0].lo, '"');
    CHECK_INT(c->u.cls.ranges[1].lo, '\\');
    CHECK_INT(grammar_class_default_char(c), '!');
    CHECK_INT(grammar_class_size(c), 1112062);
    CHECK_INT(grammar_class_nth(c, 0), 0);
    CHECK_INT(grammar_class_nth(c, 33), 0x21);
    CHECK_INT(grammar_class_nth(c, 34), 0x23);
    CHECK_INT(grammar_class_nth(c, 1112061), 0x10FFFF);
    CHECK_INT(grammar_class_nth(c, 1112062), UINT32_MAX);
    CHECK(!grammar_class_matches(c, '"'));
    CHECK(!grammar_class_matches(c, '\\'));
    CHECK(grammar_class_matches(c, 'a'));
    CHECK(grammar_class_matches(c, 0x10FFFF));
    CHECK(!grammar_class_matches(c, 0xD800));
    CHECK(!grammar_class_matches(c, 0x110000));

    c = cat->children[2];
    CHECK_INT(c->u.cls.nranges, 3);
    CHECK_INT(c->u.cls.ranges[0].lo, 'A');
    CHECK_INT(c->u.cls.ranges[0].hi, 'A');
    CHECK_INT(c->u.cls.ranges[1].lo, 'a');
    CHECK_INT(c->u.cls.ranges[1].hi, 'c');
    CHECK_INT(c->u.cls.ranges[2].lo, 'z');
    CHECK_INT(c->u.cls.ranges[2].hi, 'z');

    c = cat->children[3]; /* merged into a-g */
    CHECK_INT(c->u.cls.nranges, 1);
    CHECK_INT(c->u.cls.ranges[0].lo, 'a');
    CHECK_INT(c->u.cls.ranges[0].hi, 'g');
    CHECK_STR(c->u.cls.source, "[a-cb-fg]");

    c = cat->children[4];
    CHECK_INT(c->u.cls.nranges, 3);
    CHECK_INT(c->u.cls.ranges[0].lo, '-');
    CHECK_INT(c->u.cls.ranges[1].lo, '[');
    CHECK_INT(c->u.cls.ranges[2].lo, ']');
    CHECK_INT(c->u.cls.ranges[2].hi, '^');
    CHECK(!c->u.cls.negated);

    c = cat->children[5];
    CHECK_INT(c->u.cls.nranges, 2);
    CHECK_INT(c->u.cls.ranges[0].lo, '-');
    CHECK_INT(c->u.cls.ranges[1].lo, 'a');

    c = cat->children[6];
    CHECK_INT(grammar_class_size(c), 3);
    CHECK_INT(grammar_class_default_char(c), 0x3B1);
    CHECK_INT(grammar_class_nth(c, 2), 0x3B3);

    c = cat->children[7];
    CHECK_INT(grammar_class_default_char(c), ' ');
    grammar_free(g);
}

TEST(grammar_class_surrogates)
{
    struct grammar *g = LOAD_OK("A := [\\u{D7FF}-\\u{E000}] [^\\x00-\\u{D7FF}] [^\\x00-\\x7F];");
    if (!g)
        return;
    const struct expr *cat = g->rules[0].rhs;
    const struct expr *c = cat->children[0];
    CHECK_INT(grammar_class_size(c), 2);
    CHECK_INT(grammar_class_nth(c, 0), 0xD7FF);
    CHECK_INT(grammar_class_nth(c, 1), 0xE000);
    CHECK_INT(grammar_class_default_char(c), 0xD7FF);
    c = cat->children[1];
    CHECK_INT(grammar_class_size(c), 1056768);
    CHECK_INT(grammar_class_nth(c, 0), 0xE000);
    CHECK_INT(grammar_class_default_char(c), 0xE000);
    c = cat->children[2];
    CHECK_INT(grammar_class_size(c), 1112064 - 128);
    CHECK_INT(grammar_class_default_char(c), 0x80);
    CHECK_INT(grammar_class_nth(c, 0xD800 - 0x80), 0xE000);
    grammar_free(g);
}

/* ---- weights ------------------------------------------------------------ */

TEST(grammar_weights_prefix)
{
    struct grammar *g = LOAD_OK("A := 40% \"a\" | \"b\" | \"c\";");
    if (!g)
        return;
    const struct expr *alt = g->rules[0].rhs;
    CHECK_INT(alt->kind, EXPR_ALT);
    CHECK(alt->u.alt.weights != NULL);
    CHECK(near(alt->u.alt.weights[0], 0.4));
    CHECK(alt->u.alt.weights[1] < 0);
    CHECK(alt->u.alt.weights[2] < 0);
    CHECK(near(grammar_alt_probability(alt, 0), 0.4));
    CHECK(near(grammar_alt_probability(alt, 1), 0.3));
    CHECK(near(grammar_alt_probability(alt, 2), 0.3));
    CHECK_INT(alt->pos.col, 6); /* the weight belongs to the alternation's text */
    CHECK_INT(alt->children[0]->pos.col, 10);
    grammar_free(g);
}

TEST(grammar_weights_suffix_and_more)
{
    struct grammar *g = LOAD_OK("A := \"a\" @@ 0.5 | \"b\";\n"
                                "B := 12.5% \"a\" | 87.5% \"b\";\n"
                                "C := \"a\" | \"b\" | \"c\" | \"d\";\n"
                                "D := 100% \"a\" | \"b\" | (\"c\" @@ .25 | \"d\");\n"
                                "E := 33.3333333333% \"a\" | 33.3333333333% \"b\" "
                                "| 33.3333333334% \"c\";\n"
                                "S := A B C D E;");
    if (!g)
        return;
    const struct expr *a = rhs_of(g, "A");
    CHECK(near(a->u.alt.weights[0], 0.5));
    CHECK(near(grammar_alt_probability(a, 0), 0.5));
    CHECK(near(grammar_alt_probability(a, 1), 0.5));
    CHECK_INT(a->end.col, 22);
    const struct expr *b = rhs_of(g, "B");
    /* all annotated: returned as annotated (short of 100% is an error) */
    CHECK(near(grammar_alt_probability(b, 0), 0.125));
    CHECK(near(grammar_alt_probability(b, 1), 0.875));
    const struct expr *c = rhs_of(g, "C");
    CHECK(c->u.alt.weights == NULL);
    CHECK(near(grammar_alt_probability(c, 3), 0.25));
    const struct expr *d = rhs_of(g, "D");
    CHECK(near(grammar_alt_probability(d, 0), 1.0));
    CHECK(near(grammar_alt_probability(d, 1), 0.0));
    CHECK(near(grammar_alt_probability(d, 2), 0.0));
    const struct expr *inner = d->children[2];
    CHECK_INT(inner->kind, EXPR_ALT);
    CHECK(near(grammar_alt_probability(inner, 0), 0.25));
    CHECK(near(grammar_alt_probability(inner, 1), 0.75));
    CHECK(rhs_of(g, "E")->u.alt.weights != NULL);
    CHECK_STR(g->rules[g->start].name, "S");
    grammar_free(g);
}

TEST(grammar_weight_errors)
{
    CHECK_DIAGS("A := 150% \"a\" | \"b\";",
                "t.ebnf:1:6: error: weight 150% is outside 0-100%");
    CHECK_DIAGS("A := \"a\" @@ 1.5 | \"b\";",
                "t.ebnf:1:10: error: weight @@ 1.5 is outside 0-1");
    CHECK_DIAGS("A := 60% \"a\" | 50% \"b\";",
                "t.ebnf:1:6: error: weights of this alternation add up to 110%, more than 100%");
    /* Issue 10.6: every weight given and short of 100% is no longer
     * rescaled silently; learn's rounded 5-digit weights still load. */
    CHECK_DIAGS("A := 12.5% \"a\" | 12.5% \"b\";",
                "t.ebnf:1:6: error: weights of this alternation add up to 25%, less than 100%; "
                "make them add up to 100%, or leave one alternative without a weight to take "
                "the rest");
    CHECK_DIAGS("A := 33.333% \"a\" | 33.333% \"b\" | 33.333% \"c\";", "");
    CHECK_DIAGS("A := \"a\" | 0.6% \"b\" @@ 0.1 | \"c\" @@ 0.5;",
                "t.ebnf:1:21: error: alternative has both a prefix weight and an '@@' weight");
    CHECK_DIAGS("A := 50% \"x\";",
                "t.ebnf:1:6: error: weight on a single alternative; weights choose between "
                "two or more alternatives");
    CHECK_DIAGS("A := \"y\" (50% \"x\") | \"z\";",
                "t.ebnf:1:11: error: weight on a single alternative; weights choose between "
                "two or more alternatives");
    CHECK_DIAGS("A := \"x\" @@ 0.5;",
                "t.ebnf:1:10: error: weight on a single alternative; weights choose between "
                "two or more alternatives");
    CHECK_DIAGS("A := 40 \"a\" | \"b\";",
                "t.ebnf:1:9: error: expected '%' after the weight '40', found string \"a\"");
    CHECK_DIAGS("A := \"a\" @@ | \"b\";",
                "t.ebnf:1:13: error: expected a number after '@@', found '|'");
    CHECK_DIAGS("A := \"a\" @@ 0.5 \"c\" | \"b\";",
                "t.ebnf:1:17: error: expected '|' or ';' after the weight, found string \"c\"");
    /* weight errors do not stop the other checks */
    CHECK_DIAGS("A := 150% \"a\" A | \"b\" A;",
                "t.ebnf:1:1: error: rule 'A' is unproductive: it can never derive a finite string\n"
                "t.ebnf:1:6: error: weight 150% is outside 0-100%");
}

/* ---- start rule --------------------------------------------------------- */

TEST(grammar_start_rule)
{
    struct grammar *g = LOAD_OK("A := \"a\";\nS := A;");
    if (g) {
        CHECK_INT(g->start, 1);
        CHECK(g->rules[0].reachable && g->rules[1].reachable);
        grammar_free(g);
    }
    CHECK_DIAGS("A := B;\nB := \"b\";\nC := \"c\";",
                "t.ebnf:1:1: warning: several rules are unreferenced (A, C); using the first "
                "rule 'A' as start\n"
                "t.ebnf:3:1: warning: rule 'C' is unreachable from the start rule 'A'");
    /* every rule referenced: the first is the start, without a warning (a
     * recursive start rule is the textbook case, grammars/arith.ebnf) */
    {
        struct grammar *self = LOAD_OK("A := \"a\" A | \"b\";");
        if (self)
            grammar_free(self);
        struct grammar *rec = LOAD_OK("E := T | E \"+\" T;\nT := \"x\" | \"(\" E \")\";");
        if (rec) {
            CHECK_INT(rec->start, 0);
            grammar_free(rec);
        }
    }
    CHECK_DIAGS("S := \"s\";\nX := Y;\nY := X | \"y\";",
                "t.ebnf:2:1: warning: rule 'X' is unreachable from the start rule 'S'\n"
                "t.ebnf:3:1: warning: rule 'Y' is unreachable from the start rule 'S'");
    /* a rule referenced only by itself counts as referenced */
    CHECK_DIAGS("S := \"s\";\nL := L \"x\" | \"y\";",
                "t.ebnf:2:1: warning: rule 'L' is unreachable from the start rule 'S'");
    CHECK_DIAGS("B := \"b\"; R0 := \"0\"; R1 := \"1\"; R2 := \"2\"; R3 := \"3\"; R4 := \"4\";"
                " R5 := \"5\"; R6 := \"6\"; R7 := \"7\"; R8 := \"8\"; R9 := \"9\"; A := B;",
                "t.ebnf:1:1: warning: several rules are unreferenced (R0, R1, R2, R3, R4, R5, "
                "R6, R7, R8, R9 and 1 more); using the first rule 'B' as start\n"
                "t.ebnf:1:11: warning: rule 'R0' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:22: warning: rule 'R1' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:33: warning: rule 'R2' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:44: warning: rule 'R3' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:55: warning: rule 'R4' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:66: warning: rule 'R5' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:77: warning: rule 'R6' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:88: warning: rule 'R7' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:99: warning: rule 'R8' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:110: warning: rule 'R9' is unreachable from the start rule 'B'\n"
                "t.ebnf:1:121: warning: rule 'A' is unreachable from the start rule 'B'");
}

TEST(grammar_start_option)
{
    struct grammar_options opts = {.start = "A"};
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = load_opts("S := A | B;\nA := \"a\";\nB := \"b\";", &opts, &d);
    CHECK(g != NULL);
    if (g) {
        CHECK_INT(g->start, 1);
        CHECK(!g->rules[0].reachable);
        CHECK(g->rules[1].reachable);
        CHECK(!g->rules[2].reachable);
    }
    char *got = diags_text(&d);
    CHECK_STR(got, "t.ebnf:1:1: warning: rule 'S' is unreachable from the start rule 'A'\n"
                   "t.ebnf:3:1: warning: rule 'B' is unreachable from the start rule 'A'");
    free(got);
    grammar_free(g);
    diag_list_free(&d);

    struct grammar_options bad = {.start = "Nope"};
    CHECK_DIAGS_OPTS("S := \"s\";", &bad, "t.ebnf: error: start rule 'Nope' is not defined");
    struct grammar_options none = {.start = NULL};
    CHECK_DIAGS_OPTS("S := \"s\";", &none, "");
}

/* ---- diagnostics -------------------------------------------------------- */

TEST(grammar_diag_unexpected_character)
{
    CHECK_DIAGS("A := \"a\" $ \"b\";", "t.ebnf:1:10: error: unexpected character '$'");
    CHECK_DIAGS("A := \"é\" $;", "t.ebnf:1:10: error: unexpected character '$'");
    CHECK_DIAGS("A\t:=\t$;", "t.ebnf:1:6: error: unexpected character '$'");
    CHECK_DIAGS("A := \xE2\x80\x9C" "a\xE2\x80\x9D;",
                "t.ebnf:1:6: error: unexpected character '\xE2\x80\x9C' (U+201C)\n"
                "t.ebnf:1:8: error: unexpected character '\xE2\x80\x9D' (U+201D)");
    CHECK_DIAGS("A := \"a\" \x01;", "t.ebnf:1:10: error: unexpected character U+0001");
    CHECK_DIAGS("A : \"a\";", "t.ebnf:1:3: error: unexpected character ':'");
    CHECK_DIAGS("A := \"a\" @ 1;", "t.ebnf:1:10: error: unexpected character '@'");
    CHECK_DIAGS("\xEF\xBB\xBF" "A := $;", "t.ebnf:1:6: error: unexpected character '$'");
    CHECK_DIAGS("S := B;\r\nB := $;\r\n", "t.ebnf:2:6: error: unexpected character '$'");
}

TEST(grammar_diag_unexpected_token)
{
    CHECK_DIAGS("A := \"a\" | * \"b\";", "t.ebnf:1:12: error: expected an item, found '*'");
    CHECK_DIAGS("A \"x\";",
                "t.ebnf:1:3: error: expected ':=', '::=' or '=' after the rule name 'A', "
                "found string \"x\"");
    CHECK_DIAGS(":= \"x\";", "t.ebnf:1:1: error: expected a rule name, found ':='");
    CHECK_DIAGS("A := \"a\";;", "t.ebnf:1:10: error: expected a rule name, found ';'");
    CHECK_DIAGS("A := \"a\" %;", "t.ebnf:1:10: error: expected an item, '|' or ';', found '%'");
    CHECK_DIAGS("A := [a-z] 12;",
                "t.ebnf:1:12: error: expected an item, '|' or ';', found '12'");
    CHECK_DIAGS("A := \"a\");", "t.ebnf:1:9: error: unmatched ')'");
    CHECK_DIAGS("A := (\"a\";",
                "t.ebnf:1:10: error: expected ')' to close the '(' at 1:6, found ';'");
    CHECK_DIAGS("A := (\"a\" \"b\"\nB := \"b\";",
                "t.ebnf:1:14: error: missing ')' to close the '(' at 1:6");
    CHECK_DIAGS("A := \"a\" [a-z] \"this is a very long string that gets cut short\" ]",
                "t.ebnf:1:65: error: unexpected character ']'");
    CHECK_DIAGS("A := \"a\" (\"b\" 40%);",
                "t.ebnf:1:15: error: expected ')' to close the '(' at 1:10, found '40'");
    CHECK_DIAGS("A := (\"a\" | \"b\" \"c\"] ;",
                "t.ebnf:1:20: error: unexpected character ']'");
    /* the message names a long token by its start */
    CHECK_DIAGS("A \"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\";",
                "t.ebnf:1:3: error: expected ':=', '::=' or '=' after the rule name 'A', "
                "found string \"abcdefghijklmnopqrstuvwxyzabcdefghij...");
}

TEST(grammar_diag_unterminated)
{
    CHECK_DIAGS("A := \"abc;\nB := \"b\";", "t.ebnf:1:6: error: unterminated string");
    CHECK_DIAGS("A := 'abc\\';\nB := \"b\";", "t.ebnf:1:6: error: unterminated string");
    CHECK_DIAGS("A := \"abc\\", "t.ebnf:1:6: error: unterminated string");
    CHECK_DIAGS("A := [a-z;\nB := \"b\";", "t.ebnf:1:6: error: unterminated class");
    CHECK_DIAGS("A := [a\\]\nB := \"b\";", "t.ebnf:1:6: error: unterminated class");
    CHECK_DIAGS("A := \"a\"; /* hi\nB := \"b\";", "t.ebnf:1:11: error: unterminated comment");
    CHECK_DIAGS("A := \"a\" /* hi *", "t.ebnf:1:10: error: unterminated comment");
    CHECK_DIAGS("A := <foo bar>;",
                "t.ebnf:1:6: error: unterminated name: '<' needs a closing '>' before any "
                "whitespace\n"
                "t.ebnf:1:14: error: unexpected character '>'");
    CHECK_DIAGS("A := <>;", "t.ebnf:1:6: error: empty name '<>'");
}

TEST(grammar_diag_escapes_and_classes)
{
    CHECK_DIAGS("A := \"\\q\";", "t.ebnf:1:7: error: unknown escape '\\q'");
    CHECK_DIAGS("A := \"a\\]\";", "t.ebnf:1:8: error: unknown escape '\\]'");
    CHECK_DIAGS("A := \"\\x4\";",
                "t.ebnf:1:7: error: invalid escape '\\x': write two hex digits, as in \\x41");
    CHECK_DIAGS("A := \"\\u{110000}\" \"\\u{D800}\";",
                "t.ebnf:1:7: error: invalid code point U+110000 in escape\n"
                "t.ebnf:1:20: error: invalid code point U+D800 in escape");
    CHECK_DIAGS("A := \"\\u{}\" \"\\u{1234567}\" \"\\u41\";",
                "t.ebnf:1:7: error: invalid escape '\\u': write 1 to 6 hex digits in braces, "
                "as in \\u{1F600}\n"
                "t.ebnf:1:14: error: invalid escape '\\u': write 1 to 6 hex digits in braces, "
                "as in \\u{1F600}\n"
                "t.ebnf:1:28: error: invalid escape '\\u': write 1 to 6 hex digits in braces, "
                "as in \\u{1F600}");
    CHECK_DIAGS("A := [];", "t.ebnf:1:6: error: empty class '[]'");
    CHECK_DIAGS("A := [^];", "t.ebnf:1:6: error: empty class '[^]'");
    CHECK_DIAGS("A := [a-cz-a];", "t.ebnf:1:10: error: inverted range 'z-a' in class");
    CHECK_DIAGS("A := [\\q];", "t.ebnf:1:7: error: unknown escape '\\q'");
}

TEST(grammar_diag_missing_semicolon)
{
    CHECK_DIAGS("A := \"a\" B\nB := \"b\";",
                "t.ebnf:1:11: error: missing ';' at the end of rule 'A'");
    CHECK_DIAGS("A := \"a\" B := \"b\";",
                "t.ebnf:1:9: error: missing ';' at the end of rule 'A'");
    CHECK_DIAGS("A := \"a\"  # end\n", "t.ebnf:1:9: error: missing ';' at the end of rule 'A'");
    CHECK_DIAGS("A := \"a\" |\n\nB := \"b\";",
                "t.ebnf:1:11: error: missing ';' at the end of rule 'A'");
    CHECK_DIAGS("A :=", "t.ebnf:1:5: error: missing ';' at the end of rule 'A'");
    /* the rule ended there, so the other rules are checked normally */
    CHECK_DIAGS("S := A B\nA := \"a\";\nB := C;",
                "t.ebnf:1:9: error: missing ';' at the end of rule 'S'\n"
                "t.ebnf:3:6: error: undefined rule 'C'");
}

TEST(grammar_diag_quantifiers)
{
    CHECK_DIAGS("A := \"a\"{3,1};",
                "t.ebnf:1:9: error: inverted quantifier bounds {3,1}: the minimum is larger "
                "than the maximum");
    CHECK_DIAGS("A := \"a\"{};",
                "t.ebnf:1:9: error: empty quantifier; write {n}, {n,}, {,m} or {n,m}");
    CHECK_DIAGS("A := \"a\"{,};",
                "t.ebnf:1:9: error: empty quantifier; write {n}, {n,}, {,m} or {n,m}");
    CHECK_DIAGS("A := \"a\"{4294967295};",
                "t.ebnf:1:9: error: quantifier bound '4294967295' is too large (the limit is "
                "4294967294)");
    CHECK_DIAGS("A := \"a\"{1,99999999999999999999999};",
                "t.ebnf:1:9: error: quantifier bound '99999999999999999999999' is too large "
                "(the limit is 4294967294)");
    CHECK_DIAGS("A := \"a\"{1.5};",
                "t.ebnf:1:9: error: quantifier bound '1.5' is not a whole number");
    CHECK_DIAGS("A := \"a\"{x};",
                "t.ebnf:1:10: error: expected a number, ',' or '}' in the quantifier, found 'x'");
    CHECK_DIAGS("A := \"a\"{2;",
                "t.ebnf:1:11: error: expected ',' or '}' in the quantifier, found ';'");
    CHECK_DIAGS("A := \"a\"{2,3;",
                "t.ebnf:1:13: error: expected '}' to end the quantifier, found ';'");
    CHECK_DIAGS("A := \"a\"*+;",
                "t.ebnf:1:10: error: stacked quantifier; use parentheses to repeat a quantified "
                "item, as in (x*)+");
    CHECK_DIAGS("A := \"a\"??{2} \"b\";",
                "t.ebnf:1:10: error: stacked quantifier; use parentheses to repeat a quantified "
                "item, as in (x*)+");
    CHECK_DIAGS("A := (\"a\")?{2,3}*;",
                "t.ebnf:1:12: error: stacked quantifier; use parentheses to repeat a quantified "
                "item, as in (x*)+");
    CHECK_DIAGS("A := ?;", "t.ebnf:1:6: error: expected an item, found '?'");
}

TEST(grammar_diag_empty_alternative)
{
    CHECK_DIAGS("A := \"a\" | ;",
                "t.ebnf:1:12: error: empty alternative; write \"\" for the empty string");
    CHECK_DIAGS("A := ;", "t.ebnf:1:6: error: empty alternative; write \"\" for the empty string");
    CHECK_DIAGS("A := ( );",
                "t.ebnf:1:8: error: empty alternative; write \"\" for the empty string");
    CHECK_DIAGS("A := \"a\" | | \"b\" | 20% ;",
                "t.ebnf:1:12: error: empty alternative; write \"\" for the empty string\n"
                "t.ebnf:1:24: error: empty alternative; write \"\" for the empty string");
    CHECK_DIAGS("A := (| \"a\")* B;",
                "t.ebnf:1:7: error: empty alternative; write \"\" for the empty string\n"
                "t.ebnf:1:15: error: undefined rule 'B'");
    /* "" is the way to say it */
    struct grammar *g = LOAD_OK("A := \"a\" | \"\";");
    if (g) {
        CHECK_INT(g->rules[0].rhs->children[1]->u.lit.len, 0);
        grammar_free(g);
    }
}

TEST(grammar_diag_undefined_and_twice)
{
    CHECK_DIAGS("A := Foo \"x\" Foo;",
                "t.ebnf:1:6: error: undefined rule 'Foo'\n"
                "t.ebnf:1:14: error: undefined rule 'Foo'");
    CHECK_DIAGS("A := \"a\";\nA := \"b\";\nA := \"c\";",
                "t.ebnf:2:1: error: rule 'A' is defined twice (first at 1:1)\n"
                "t.ebnf:3:1: error: rule 'A' is defined twice (first at 1:1)");
    /* references inside a second definition are checked too */
    CHECK_DIAGS("S := A;\nA := \"a\";\n  A := Zed;",
                "t.ebnf:3:3: error: rule 'A' is defined twice (first at 2:1)\n"
                "t.ebnf:3:8: error: undefined rule 'Zed'");
    /* a rule whose definition is broken still counts as defined */
    CHECK_DIAGS("S := A;\nA := $;", "t.ebnf:2:6: error: unexpected character '$'");
    CHECK_DIAGS("S := A;\nA \"a\";",
                "t.ebnf:2:3: error: expected ':=', '::=' or '=' after the rule name 'A', found "
                "string \"a\"");
}

TEST(grammar_diag_unproductive)
{
    CHECK_DIAGS("S := A | \"s\";\nA := \"a\" B;\nB := A \"b\";",
                "t.ebnf:2:1: error: rule 'A' is unproductive: it can never derive a finite string\n"
                "t.ebnf:3:1: error: rule 'B' is unproductive: it can never derive a finite string");
    /* a class of no character says where it is */
    CHECK_DIAGS("S := A;\nA := [^\\x00-\\u{10FFFF}];",
                "t.ebnf:1:1: error: rule 'S' is unproductive: it can never derive a finite string\n"
                "t.ebnf:2:1: error: rule 'A' is unproductive: it can never derive a finite string\n"
                "t.ebnf:2:6: warning: class [^\\x00-\\u{10FFFF}] in rule 'A' matches no "
                "character: nothing that holds it can be derived");
    CHECK_DIAGS("S := A* \"s\" | A{0,3};\nA := \"a\" A+;",
                "t.ebnf:2:1: error: rule 'A' is unproductive: it can never derive a finite string");
    /* unreachable rules are checked too */
    CHECK_DIAGS("S := \"s\";\nX := X;",
                "t.ebnf:2:1: warning: rule 'X' is unreachable from the start rule 'S'\n"
                "t.ebnf:2:1: error: rule 'X' is unproductive: it can never derive a finite string");
    /* not reported after syntax or undefined errors */
    CHECK_DIAGS("A := \"a\" A; B := $;", "t.ebnf:1:18: error: unexpected character '$'");
    CHECK_DIAGS("S := A U;\nA := \"a\" A;", "t.ebnf:1:8: error: undefined rule 'U'");
    /* productive through alternatives, sequences and quantifiers */
    struct grammar *g = LOAD_OK("S := (A | B) C{2};\nA := A \"a\" | B;\nB := C+ \"b\";\n"
                                "C := \"c\" C?;");
    grammar_free(g);
}

TEST(grammar_diag_invalid_utf8_and_unreadable)
{
    CHECK_DIAGS("A := \"\xFF\";", "t.ebnf:1:7: error: invalid UTF-8 byte 0xFF");
    CHECK_DIAGS("A := \"\xC3\";\nB := 'é\xE9\xE9';\nC := \"\xED\xA0\x80\";",
                "t.ebnf:1:7: error: invalid UTF-8 byte 0xC3\n"
                "t.ebnf:2:8: error: invalid UTF-8 byte 0xE9\n"
                "t.ebnf:3:7: error: invalid UTF-8 byte 0xED");
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = grammar_load_file("/nonexistent/dir/x.ebnf", NULL, &d);
    CHECK(g == NULL);
    char *got = diags_text(&d);
    CHECK_STR(got, "/nonexistent/dir/x.ebnf: error: cannot read: No such file or directory");
    free(got);
    diag_list_free(&d);
    g = grammar_load_file(harness_path("tests"), NULL, &d);
    CHECK(g == NULL);
    CHECK_INT(d.len, 1);
    if (d.len)
        CHECK(strstr(d.items[0].message, "cannot read: ") == d.items[0].message);
    diag_list_free(&d);
}

/* Grammar files: regular files only unless any_file (--any-file), and at
 * most max_size bytes (checked before reading a regular file, read no
 * further on a pipe). */
TEST(grammar_file_kind_and_size_are_bounded)
{
    struct diag_list d = DIAG_LIST_INIT;
    CHECK(grammar_load_file("/dev/zero", NULL, &d) == NULL);
    char *got = diags_text(&d);
    CHECK_STR(got, "/dev/zero: error: cannot read: a character device, not a regular file "
                   "(--any-file reads it)");
    free(got);
    diag_list_free(&d);

    /* Asked for: any file, still bounded. */
    struct grammar_options any = {.any_file = true, .max_size = 1000};
    CHECK(grammar_load_file("/dev/zero", &any, &d) == NULL);
    got = diags_text(&d);
    CHECK_STR(got, "/dev/zero: error: input is more than 1000 bytes, the limit for a grammar file");
    free(got);
    diag_list_free(&d);

    /* A regular file over the limit is refused by its size. */
    struct grammar_options small = {.max_size = 10};
    const char *expr = harness_path("grammars/expr.ebnf");
    struct stat st;
    CHECK(stat(expr, &st) == 0 && st.st_size > 10);
    CHECK(grammar_load_file(expr, &small, &d) == NULL);
    if (CHECK_INT(d.len, 1)) {
        char want[128];
        snprintf(want, sizeof want, "input is %lld bytes, more than the limit of 10 for a grammar file",
                 (long long)st.st_size);
        CHECK_STR(d.items[0].message, want);
    }
    diag_list_free(&d);
    /* The default limit is far above any real grammar. */
    struct grammar *g = grammar_load_file(expr, NULL, &d);
    CHECK(g != NULL && d.errors == 0);
    grammar_free(g);
    diag_list_free(&d);

    /* A pipe is refused, then read when asked for. */
    int fds[2];
    if (CHECK(pipe(fds) == 0)) {
        const char *text = "S := \"a\" S?;\n";
        CHECK(write(fds[1], text, strlen(text)) == (ssize_t)strlen(text));
        close(fds[1]);
        char name[64], want[160];
        snprintf(name, sizeof name, "/dev/fd/%d", fds[0]);
        CHECK(grammar_load_file(name, NULL, &d) == NULL);
        got = diags_text(&d);
        snprintf(want, sizeof want,
                 "%s: error: cannot read: a pipe, not a regular file (--any-file reads it)", name);
        CHECK_STR(got, want);
        free(got);
        diag_list_free(&d);
        g = grammar_load_file(name, &any, &d);
        CHECK(g != NULL && g->nrules == 1);
        grammar_free(g);
        close(fds[0]);
        diag_list_free(&d);
    }
}

TEST(grammar_diag_no_rules)
{
    /* At the end of the file, where a rule was still awaited. */
    CHECK_DIAGS("", "t.ebnf:1:1: error: the grammar defines no rules");
    CHECK_DIAGS("# nothing\n/* at all */\n", "t.ebnf:3:1: error: the grammar defines no rules");
    CHECK_DIAGS("  # nothing", "t.ebnf:1:12: error: the grammar defines no rules");
    CHECK_DIAGS("# nothing\r\n\r\n", "t.ebnf:3:1: error: the grammar defines no rules");
}

/* CR alone, CRLF and LF are all line breaks: a '#' comment ends at any of
 * them, and positions count lines the same way.  Line 3 is "B := x;" after
 * a CR-only comment line, a CRLF line and an LF line. */
TEST(grammar_cr_only_line_endings_are_line_breaks)
{
    CHECK_DIAGS("# comment\rS := \"a\" | B;\r\nB := x;\n",
                "t.ebnf:3:6: error: undefined rule 'x'");
    CHECK_DIAGS("# one\r# two\r\r", "t.ebnf:4:1: error: the grammar defines no rules");
    /* A string ends at a lone CR as at LF. */
    CHECK_DIAGS("S := \"a\rb\";\r",
                "t.ebnf:1:6: error: unterminated string\n"
                "t.ebnf:2:2: error: unterminated string");
    struct grammar *g = LOAD_OK("# old Mac file\rS := \"a\" T;\r# T is a digit\rT := [0-9];\r");
    if (g) {
        CHECK_INT(g->nrules, 2);
        CHECK_STR(g->rules[1].name, "T");
        CHECK_INT(g->rules[1].pos.line, 4);
        /* The source is kept as it was, CRs and all. */
        CHECK(g->source_len == 54 && memchr(g->source, '\n', g->source_len) == NULL);
        grammar_free(g);
    }
}

TEST(grammar_diag_several_in_one_file)
{
    CHECK_DIAGS("A := \"a\" $;\n"
                "B := \"b\" | ;\n"
                "C := Undef;\n"
                "D := \"d\"{3,1};\n"
                "E := \"e\"\n"
                "F := (\"f\";\n"
                "G := \"g\" \"\\q\" (\"h\" \"i\"\n",
                "t.ebnf:1:10: error: unexpected character '$'\n"
                "t.ebnf:2:12: error: empty alternative; write \"\" for the empty string\n"
                "t.ebnf:3:6: error: undefined rule 'Undef'\n"
                "t.ebnf:4:9: error: inverted quantifier bounds {3,1}: the minimum is larger than "
                "the maximum\n"
                "t.ebnf:5:9: error: missing ';' at the end of rule 'E'\n"
                "t.ebnf:6:10: error: expected ')' to close the '(' at 6:6, found ';'\n"
                "t.ebnf:7:11: error: unknown escape '\\q'\n"
                "t.ebnf:7:23: error: missing ')' to close the '(' at 7:15");
}

/* ---- deep and big inputs ------------------------------------------------ */

TEST(grammar_deep_parentheses)
{
    enum { DEPTH = 100000 };
    struct strbuf sb = STRBUF_INIT;
    strbuf_addstr(&sb, "A := ");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addch(&sb, '(');
    strbuf_addstr(&sb, "\"x\"");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addch(&sb, ')');
    strbuf_addstr(&sb, ";\n");
    struct grammar *g = LOAD_OK(strbuf_str(&sb));
    if (g) {
        const struct expr *e = g->rules[0].rhs;
        CHECK_INT(e->kind, EXPR_LIT);
        CHECK(e->parent == NULL);
        CHECK_INT(e->pos.col, 6 + DEPTH);
        grammar_free(g);
    }
    /* the same, unclosed: one error */
    strbuf_reset(&sb);
    strbuf_addstr(&sb, "A := ");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addch(&sb, '(');
    strbuf_addstr(&sb, "\"x\"");
    char want[128];
    snprintf(want, sizeof want, "t.ebnf:1:%d: error: missing ')' to close the '(' at 1:%d",
             DEPTH + 9, DEPTH + 5);
    CHECK_DIAGS(strbuf_str(&sb), want);
    strbuf_free(&sb);
}

TEST(grammar_deep_quantified_groups)
{
    enum { DEPTH = 100000 };
    struct strbuf sb = STRBUF_INIT;
    strbuf_addstr(&sb, "A := ");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addch(&sb, '(');
    strbuf_addstr(&sb, "\"x\"");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addstr(&sb, ")?");
    strbuf_addstr(&sb, ";\n");
    struct grammar *g = LOAD_OK(strbuf_str(&sb));
    if (g) {
        const struct expr *e = g->rules[0].rhs;
        int quants = 0;
        while (e->kind == EXPR_QUANT) {
            quants++;
            e = e->children[0];
        }
        CHECK_INT(quants, DEPTH);
        CHECK_INT(e->kind, EXPR_LIT);
        grammar_free(g);
    }
    strbuf_free(&sb);
}

TEST(grammar_deep_alternations)
{
    enum { DEPTH = 100000 };
    struct strbuf sb = STRBUF_INIT;
    strbuf_addstr(&sb, "A := ");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addstr(&sb, "(\"a\" | ");
    strbuf_addstr(&sb, "\"b\"");
    for (int i = 0; i < DEPTH; i++)
        strbuf_addch(&sb, ')');
    strbuf_addstr(&sb, ";\n");
    struct grammar *g = LOAD_OK(strbuf_str(&sb));
    if (g) {
        const struct expr *e = g->rules[0].rhs;
        const struct expr *parent = NULL;
        int alts = 0;
        while (e->kind == EXPR_ALT) {
            CHECK(e->parent == parent);
            alts++;
            parent = e;
            e = e->children[1];
        }
        CHECK_INT(alts, DEPTH);
        CHECK_INT(e->kind, EXPR_LIT);
        CHECK_STR(e->u.lit.text, "b");
        grammar_free(g);
    }
    strbuf_free(&sb);
}

TEST(grammar_big_chain)
{
    enum { RULES = 50000 };
    struct strbuf sb = STRBUF_INIT;
    for (int i = 0; i < RULES - 1; i++)
        strbuf_addf(&sb, "R%d := \"a\" R%d | \"b\";\n", i, i + 1);
    strbuf_addf(&sb, "R%d := \"b\";\n", RULES - 1);
    struct grammar *g = LOAD_OK(strbuf_str(&sb));
    if (g) {
        CHECK_INT(g->nrules, RULES);
        CHECK_INT(g->start, 0);
        CHECK(g->rules[RULES - 1].reachable);
        CHECK_INT(grammar_find_rule(g, "R12345"), 12345);
        CHECK_INT(g->rules[7].rhs->children[0]->children[1]->u.ref.target, 8);
        grammar_free(g);
    }
    /* productivity has to travel up the whole chain, from the last rule */
    strbuf_reset(&sb);
    for (int i = 0; i < RULES - 1; i++)
        strbuf_addf(&sb, "R%d := \"a\" R%d;\n", i, i + 1);
    strbuf_addf(&sb, "R%d := \"b\";\n", RULES - 1);
    g = LOAD_OK(strbuf_str(&sb));
    grammar_free(g);
    /* and a cycle without exit: every rule is unproductive */
    strbuf_reset(&sb);
    strbuf_addstr(&sb, "S := R0 | \"s\";\n");
    for (int i = 0; i < RULES - 1; i++)
        strbuf_addf(&sb, "R%d := \"a\" R%d;\n", i, i + 1);
    strbuf_addf(&sb, "R%d := R0 \"b\";\n", RULES - 1);
    struct diag_list d = DIAG_LIST_INIT;
    g = load(strbuf_str(&sb), &d);
    CHECK(g == NULL);
    CHECK_INT(d.len, RULES);
    CHECK_INT(d.errors, RULES);
    if (d.len == RULES) {
        CHECK_INT(d.items[0].line, 2);
        CHECK_STR(d.items[RULES - 1].message,
                  "rule 'R49999' is unproductive: it can never derive a finite string");
    }
    diag_list_free(&d);
    strbuf_free(&sb);
}

TEST(grammar_free_null)
{
    grammar_free(NULL);
}

/* generalize, lattice, grammar_from: with oracles written here in C whose
 * languages are known exactly, each generalization must find what it must:
 * a string becomes digits and not more, an optional part, a repetition.
 * Beyond the grammar text (worked out by hand from the algorithm in
 * generalize.h), the learned language is compared with the oracle's on every
 * string up to a length over a small alphabet: an independent check. */
#include <stdlib.h>
#include <string.h>

#include "infer/generalize.h"
#include "grammar/grammar.h"
#include "infer/grammar_from.h"
#include "formats/grammar_write.h"
#include "graph/graph.h"
#include "harness.h"
#include "../support/same_language.h"
#include "infer/lattice.h"
#include "parse/parse.h"
#include "base/strbuf.h"


static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* "n=" [0-9]+ */
static bool lang_digits(const char *s, size_t n)
{
    if (n < 3 || s[0] != 'n' || s[1] != '=')
        return false;
    for (size_t i = 2; i < n; i++)
        if (!is_digit(s[i]))
            return false;
    return true;
}

/* "a" "b"? "c" */
static bool lang_optional(const char *s, size_t n)
{
    return (n == 2 && memcmp(s, "ac", 2) == 0) || (n == 3 && memcmp(s, "abc", 3) == 0);
}

/* "x" ("," "x")* */
/* "a" ("b" | "c" | "bc"): "b" and "c" may each be left out, not both */
static bool lang_either(const char *s, size_t n)
{
    return (n == 2 && s[0] == 'a' && (s[1] == 'b' || s[1] == 'c')) ||
           (n == 3 && memcmp(s, "abc", 3) == 0);
}

/* [a-z]+ "==1" | "k" "="+ "1": more or fewer "=" only after "k" */
static bool lang_k_equals(const char *s, size_t n)
{
    size_t i = 0, eq = 0;
    while (i < n && s[i] >= 'a' && s[i] <= 'z')
        i++;
    bool k = i == 1 && s[0] == 'k';
    if (i == 0)
        return false;
    while (i < n && s[i] == '=')
        i++, eq++;
    return i + 1 == n && s[i] == '1' && (eq == 2 || (k && eq >= 1));
}

static bool lang_list(const char *s, size_t n)
{
    if (n % 2 == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] != (i % 2 ? ',' : 'x'))
            return false;
    return true;
}

/* "k=" [a-z]+ */
static bool lang_lower(const char *s, size_t n)
{
    if (n < 3 || s[0] != 'k' || s[1] != '=')
        return false;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 'a' || s[i] > 'z')
            return false;
    return true;
}

/* "v=" and a number as JSON writes it */
static bool lang_number(const char *s, size_t n)
{
    if (n < 3 || s[0] != 'v' || s[1] != '=')
        return false;
    size_t i = 2;
    if (s[i] == '-')
        i++;
    if (i < n && s[i] == '0')
        i++;
    else if (i < n && s[i] >= '1' && s[i] <= '9')
        while (i < n && is_digit(s[i]))
            i++;
    else
        return false;
    if (i < n && s[i] == '.') {
        size_t from = ++i;
        while (i < n && is_digit(s[i]))
            i++;
        if (i == from)
            return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t from = i;
        while (i < n && is_digit(s[i]))
            i++;
        if (i == from)
            return false;
    }
    return i == n;
}

/* "t=" and text: any bytes but control characters other than tab and line
 * ends (non-ASCII bytes included) */
static bool lang_text(const char *s, size_t n)
{
    if (n < 3 || s[0] != 't' || s[1] != '=')
        return false;
    for (size_t i = 2; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return false;
    }
    return true;
}

/* "k=" ([a-z]+ | [0-9a-f]+) */
static bool lang_lower_or_hex(const char *s, size_t n)
{
    if (n < 3 || s[0] != 'k' || s[1] != '=')
        return false;
    bool lower = true, hex = true;
    for (size_t i = 2; i < n; i++) {
        lower = lower && s[i] >= 'a' && s[i] <= 'z';
        hex = hex && (is_digit(s[i]) || (s[i] >= 'a' && s[i] <= 'f'));
    }
    return lower || hex;
}

struct oracle {
    language_fn lang;
    size_t calls; /* inputs answered */
};

static bool ask(void *ctx, const char *const *inputs, const size_t *lens, size_t n,
                enum membership_answer *answers, struct diag_list *diags)
{
    (void)diags;
    struct oracle *o = ctx;
    for (size_t i = 0; i < n; i++)
        answers[i] = o->lang(inputs[i], lens[i]) ? MEMBERSHIP_YES : MEMBERSHIP_NO;
    o->calls += n;
    return true;
}

static void collect_log(void *ctx, const char *text, size_t len)
{
    strbuf_add(ctx, text, len);
}

static void note_of_result(void *ctx, const struct grammar *g, uint32_t rule, struct strbuf *out)
{
    const struct generalize_result *res = ctx;
    (void)g;
    if (rule < res->nnotes && res->notes[rule].len)
        strbuf_add(out, res->notes[rule].data, res->notes[rule].len);
}

/* How a test generalizes: by generalize_run, or by stepping (each batch
 * answered through the same oracle) and, with stop_after > 0, finishing
 * early once that many queries were answered (a cancel). */
struct how {
    size_t max_queries;    /* 0: the default */
    bool stepwise;
    size_t stop_after;
    bool notes;            /* text with the #: notes, else reprinted without */
};

struct learned {
    struct grammar *g;
    struct generalize_result res;
    struct strbuf log;
    struct strbuf text;    /* the grammar written (see how.notes) */
    struct diag_list diags;
    size_t calls;          /* inputs the oracle answered */
    size_t steps, asks, max_batch; /* stepping: steps, batches asked, largest */
    bool ok;
};

static void learn_how(const char *grammar_text, const char *sample, language_fn lang,
                      const struct how *how, struct learned *out)
{
    memset(out, 0, sizeof *out);
    struct lattice lattice;
    CHECK(lattice_load(harness_path("lattices/default.ebnf"), &lattice, &out->diags));
    out->g = grammar_load_string("g.ebnf", grammar_text, strlen(grammar_text), NULL, &out->diags);
    CHECK(out->g != NULL);
    struct oracle o = {lang, 0};
    struct generalize_options opts;
    generalize_options_default(&opts);
    opts.lattice = &lattice;
    opts.ask = ask;
    opts.ask_ctx = &o;
    opts.log = collect_log;
    opts.log_ctx = &out->log;
    if (how->max_queries)
        opts.max_queries = how->max_queries;
    struct generalize_sample s = {"sample.txt", sample, strlen(sample)};
    if (!how->stepwise) {
        out->ok = generalize_run(out->g, &s, 1, &opts, &out->res, &out->diags);
    } else {
        opts.ask = NULL; /* the steps never call it */
        struct generalize *z = generalize_begin(out->g, &s, 1, &opts, &out->res, &out->diags);
        enum generalize_state st;
        while ((st = generalize_step(z)) != GENERALIZE_DONE) {
            out->steps++;
            struct generalize_progress p;
            generalize_progress(z, &p);
            if (how->stop_after && p.queries >= how->stop_after)
                break;
            if (st != GENERALIZE_ASK)
                continue;
            const char *const *texts = NULL;
            const size_t *lens = NULL;
            enum membership_answer *answers = NULL;
            size_t n = generalize_questions(z, &texts, &lens, &answers);
            CHECK(n > 0); /* asked for answers: there are inputs to answer */
            CHECK_INT(p.asking, n);
            CHECK(p.attempt != NULL);
            out->asks++;
            if (n > out->max_batch)
                out->max_batch = n;
            for (size_t i = 0; i < n; i++)
                answers[i] = lang(texts[i], lens[i]) ? MEMBERSHIP_YES : MEMBERSHIP_NO;
            o.calls += n;
            /* stepping again before the answers are in changes nothing */
            CHECK_INT(generalize_step(z), GENERALIZE_ASK);
            generalize_answered(z, true);
        }
        out->ok = generalize_finish(z);
    }
    out->calls = o.calls;
    struct grammar_write_options wo = {.reprint = true};
    if (how->notes)
        wo = (struct grammar_write_options){.note = note_of_result, .ctx = &out->res};
    grammar_write(out->g, &wo, &out->text);
    lattice_free(&lattice);
}

/* Generalized to the end without a word: the grammar without notes. */
static void learn(const char *grammar_text, const char *sample, language_fn lang,
                  struct learned *out)
{
    learn_how(grammar_text, sample, lang, &(struct how){0}, out);
    CHECK(out->ok);
    CHECK_INT(out->diags.len, 0);
}

static void learned_free(struct learned *l)
{
    generalize_result_free(&l->res);
    strbuf_free(&l->log);
    strbuf_free(&l->text);
    diag_list_free(&l->diags);
    grammar_free(l->g);
}

TEST(generalize_string_becomes_digits_and_not_more)
{
    struct learned l;
    learn("S := \"n=\" \"42\";\n", "n=42", lang_digits, &l);
    /* "42": posint ("1", "42", "987") accepted; from it digits ("0", "007",
     * "1234567890") accepted and number ("0", "-7", ...) rejected; from
     * digits hex ("0", "9f", "beef") and uppernum ("A1", ...) rejected; no
     * other item generalizes an accepted one: digits.  "n=" is in printable
     * (whose " " is rejected) and text, which is not asked (printable,
     * below it, holds "n=" and was rejected).  No part can be omitted. */
    CHECK_STR(l.text.data, "S := \"n=\" digits;\ndigits := [0-9]+;\n");
    /* By hand: the sample 1; "n=" with printable's 5 examples; posint 3 (one
     * is the sample again: 2 new), digits 3, number 5 ("0" again: 4 new),
     * hex 3 ("0" again: 2 new), uppernum 3; omitting all, "n=" and digits:
     * 3, and "n=" also where digits is another of its examples ("n=0",
     * asked before, and "0", new).  1 + 5 + 2 + 3 + 4 + 2 + 3 + 3 + 1 = 24
     * runs, 28 asked. */
    CHECK_INT(l.res.queries, 24);
    CHECK_INT(l.res.asked, 28);
    CHECK_INT(l.calls, 24);
    CHECK_INT(l.res.changes, 1);
    CHECK(strstr(l.log.data, "  => \"42\" becomes digits\n") != NULL);
    CHECK(strstr(l.log.data, "#12   no   \"n=-7\"") != NULL);
    CHECK(strstr(l.log.data, "#16   no   \"n=9f\"") != NULL);
    CHECK(strstr(l.res.notes[0].data, "string \"42\" -> digits (posint accepted, digits "
                                      "accepted, number rejected, hex rejected, uppernum "
                                      "rejected): queries accepted #1, #7-#11; rejected "
                                      "#12-#20") != NULL);
    CHECK(same_language(l.g, lang_digits, "n=0a", 5));
    learned_free(&l);
}

TEST(generalize_finds_an_optional_part)
{
    struct learned l;
    learn("S := \"a\" \"b\" \"c\";\n", "abc", lang_optional, &l);
    CHECK_STR(l.text.data, "S := \"a\" \"b\"? \"c\";\n");
    /* Each letter tries lower ("a", "z", "hello") and hex ("0", "9f",
     * "beef"), the most specific items holding it, both rejected: 6 queries
     * a letter, #2-#18 (the sample counts once), then the single letters, parts
     * delimited by literals, first: "bc" #19, "ac" #20. */
    CHECK(strstr(l.log.data, "S: omit \"b\" (g.ebnf:1:10)\n    #20   yes  \"ac\"\n"
                             "  => \"b\"?\n") != NULL);
    CHECK(same_language(l.g, lang_optional, "abc", 4));
    learned_free(&l);
}

TEST(generalize_finds_a_repetition)
{
    struct learned l;
    learn("S := \"x\" \",\" \"x\" \",\" \"x\";\n", "x,x,x", lang_list, &l);
    /* ("x" ",") twice in a row and an "x" after them: the run is read
     * from the first ",", ("," "x") twice; 1..5 times all accepted, then
     * the repetition can be omitted. */
    CHECK_STR(l.text.data, "S := \"x\" (\",\" \"x\")*;\n");
    CHECK(strstr(l.log.data, "repetition of \",\" \"x\"") != NULL);
    CHECK(strstr(l.log.data, "  => (\",\" \"x\")+\n") != NULL);
    CHECK(same_language(l.g, lang_list, "x,", 7));
    learned_free(&l);
}

TEST(generalize_log_is_deterministic)
{
    struct learned a, b;
    learn("S := \"x\" \",\" \"x\" \",\" \"x\";\n", "x,x,x", lang_list, &a);
    learn("S := \"x\" \",\" \"x\" \",\" \"x\";\n", "x,x,x", lang_list, &b);
    CHECK_STR(a.log.data, b.log.data);
    CHECK_STR(a.text.data, b.text.data);
    learned_free(&a);
    learned_free(&b);
}

TEST(generalize_rejected_sample_is_an_error)
{
    struct learned l;
    learn_how("S := \"n=\" \"x\";\n", "n=x", lang_digits, &(struct how){0}, &l);
    CHECK(!l.ok);
    CHECK_INT(l.diags.errors, 1);
    if (l.diags.len) {
        CHECK_STR(l.diags.items[0].file, "sample.txt");
        CHECK(strstr(l.diags.items[0].message, "rejects this sample") != NULL);
    }
    learned_free(&l);
}

TEST(generalize_stops_at_the_query_limit)
{
    struct learned l;
    /* the sample, then "n=" needs 5 more */
    learn_how("S := \"n=\" \"42\";\n", "n=42", lang_digits, &(struct how){.max_queries = 4}, &l);
    CHECK(l.ok);
    CHECK(l.res.limit_reached);
    CHECK_INT(l.res.queries, 1);
    CHECK_INT(l.calls, 1);
    CHECK_INT(l.diags.len, 1); /* the warning */
    learned_free(&l);
}

TEST(grammar_from_merges_samples_of_one_shape)
{
    struct grammar_from_sample s[] = {
        {"a.txt", "a=1", 3}, {"b.txt", "bb=22", 5}, {"c.txt", "a:1 x", 5}, {"d.txt", "a=1", 3}};
    struct diag_list diags = DIAG_LIST_INIT;
    struct grammar_from_notes notes;
    struct grammar *g = grammar_from_samples("f.ebnf", s, 4, &notes, &diags);
    CHECK(g != NULL);
    struct strbuf out = STRBUF_INIT;
    if (g)
        grammar_write(g, NULL, &out);
    CHECK_STR(out.data, "input := sample1 | sample3;\n"
                        "sample1 := (\"a\" | \"bb\") \"=\" (\"1\" | \"22\");\n"
                        "sample3 := \"a\" \":\" \"1\" \" \" \"x\";\n");
    CHECK(notes.n >= 2 && notes.notes[1] && strcmp(notes.notes[1], "from a.txt, b.txt, d.txt") == 0);
    strbuf_free(&out);
    grammar_from_notes_free(&notes);
    grammar_free(g);
    diag_list_free(&diags);
}

TEST(grammar_from_rejects_invalid_utf8_with_its_position)
{
    struct grammar_from_sample s[] = {{"bad.txt", "ab\ncd\xff", 6}};
    struct diag_list diags = DIAG_LIST_INIT;
    CHECK(grammar_from_samples("f.ebnf", s, 1, NULL, &diags) == NULL);
    CHECK_INT(diags.errors, 1);
    if (diags.len) {
        CHECK_STR(diags.items[0].file, "bad.txt");
        CHECK_INT(diags.items[0].line, 2);
        CHECK_INT(diags.items[0].col, 3);
    }
    diag_list_free(&diags);
}

/* "x" ("," "x")* ";"? : a repetition, then optional parts around it */
static bool lang_list_semicolon(const char *s, size_t n)
{
    if (n && s[n - 1] == ';')
        n--;
    return lang_list(s, n);
}

TEST(generalize_stepping_to_the_end_is_generalize_run)
{
    static const struct {
        const char *grammar, *sample;
        language_fn lang;
        size_t max_queries;
    } cases[] = {
        {"S := \"n=\" \"42\";\n", "n=42", lang_digits, 0},
        {"S := \"a\" \"b\" \"c\";\n", "abc", lang_optional, 0},
        {"S := \"x\" \",\" \"x\" \",\" \"x\";\n", "x,x,x", lang_list, 0},
        {"S := L \";\";\nL := \"x\" \",\" \"x\" \",\" \"x\";\n", "x,x,x;", lang_list_semicolon, 0},
        {"S := \"n=\" \"42\";\n", "n=42", lang_digits, 9}, /* stops at the limit */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct learned run, step;
        struct how how = {.max_queries = cases[c].max_queries, .notes = true};
        learn_how(cases[c].grammar, cases[c].sample, cases[c].lang, &how, &run);
        how.stepwise = true;
        learn_how(cases[c].grammar, cases[c].sample, cases[c].lang, &how, &step);
        CHECK(run.ok);
        CHECK_INT(step.ok, run.ok);
        CHECK_STR(strbuf_str(&step.log), strbuf_str(&run.log));
        CHECK_STR(strbuf_str(&step.text), strbuf_str(&run.text));
        CHECK_INT(step.res.queries, run.res.queries);
        CHECK_INT(step.res.asked, run.res.asked);
        CHECK_INT(step.res.accepted, run.res.accepted);
        CHECK_INT(step.res.changes, run.res.changes);
        CHECK_INT(step.res.limit_reached, run.res.limit_reached);
        CHECK(step.asks >= 2); /* the samples, then at least one attempt */
        /* a step asks one attempt's inputs at most: here the 5 examples of
         * a lattice item or 5 repetitions of one occurrence */
        CHECK(step.max_batch <= 5);
        learned_free(&run);
        learned_free(&step);
    }
}

TEST(generalize_finished_early_keeps_the_changes_so_far)
{
    /* x,x,x with "x" ("," "x")*: after the sample (#1) nothing changed
     * yet; the strings of the rule go first and stay (each "x" tries lower,
     * 3 queries, each "," urilower, 5: #2-#20), then the repetition is
     * asked (#21-#24, 2 times is the sample) and made; stopped at 24 it is
     * kept, though the optional parts are not tried yet. */
    struct learned early, later;
    learn_how("S := \"x\" \",\" \"x\" \",\" \"x\";\n", "x,x,x", lang_list,
              &(struct how){.stepwise = true, .stop_after = 1, .notes = true}, &early);
    CHECK(!early.ok);
    CHECK_INT(early.res.changes, 0);
    CHECK_STR(strbuf_str(&early.text), "S := \"x\" \",\" \"x\" \",\" \"x\";\n");
    learn_how("S := \"x\" \",\" \"x\" \",\" \"x\";\n", "x,x,x", lang_list,
              &(struct how){.stepwise = true, .stop_after = 24, .notes = true}, &later);
    CHECK(!later.ok);
    CHECK_INT(later.res.changes, 1);
    CHECK(strstr(strbuf_str(&later.text), "S := \"x\" (\",\" \"x\")+;") != NULL);
    /* what was learned so far is a grammar that still parses the sample */
    struct graph *graph = graph_build(later.g);
    struct parse_options po = {.max_input_size = 1024, .max_memory = (size_t)64 << 20};
    struct diag_list d = DIAG_LIST_INIT;
    struct forest *f = parse_text(graph, "s", "x,x,x", 5, &po, &d);
    CHECK(f != NULL);
    forest_free(f);
    diag_list_free(&d);
    graph_free(graph);
    learned_free(&early);
    learned_free(&later);
}

TEST(generalize_lattice_finds_lower_case_letters)
{
    struct learned l;
    learn("S := \"k=\" \"www\";\n", "k=www", lang_lower, &l);
    /* "www": lower ("a", "z", "hello") accepted; from it lowernum ("a1")
     * and letters ("Z") rejected; alnum and ident are not asked (what they
     * generalize was rejected): lower. */
    CHECK_STR(l.text.data, "S := \"k=\" lower;\nlower := [a-z]+;\n");
    CHECK(strstr(l.log.data, "  => \"www\" becomes lower\n") != NULL);
    CHECK(same_language(l.g, lang_lower, "k=aZ1", 5));
    learned_free(&l);
}

TEST(generalize_lattice_finds_json_numbers)
{
    struct learned l;
    learn("S := \"v=\" \"42\";\n", "v=42", lang_number, &l);
    /* "42": posint accepted; digits ("007") rejected; number, which
     * generalizes posint too, accepted; token ("a.b") rejected: number. */
    CHECK(strstr(l.text.data, "S := \"v=\" number;\n") != NULL);
    CHECK(strstr(l.log.data, "  => \"42\" becomes number\n") != NULL);
    CHECK(same_language(l.g, lang_number, "v=0-.e1", 5));
    learned_free(&l);
}

TEST(generalize_lattice_reaches_line_ends_and_non_ascii)
{
    struct learned l;
    learn("S := \"t=\" \"h\\u{e9}llo\\nworld\";\n", "t=h\xc3\xa9llo\nworld", lang_text, &l);
    /* Only text holds "h\\u{e9}llo\\nworld": its examples (a line end,
     * non-ASCII letters) are all accepted. */
    CHECK(strstr(l.text.data, "S := \"t=\" text;\n") != NULL);
    CHECK(strstr(l.log.data, "becomes text\n") != NULL);
    learned_free(&l);
}

TEST(generalize_lattice_goes_on_from_every_accepted_item)
{
    struct learned l;
    learn("S := \"k=\" \"abc\";\n", "k=abc", lang_lower_or_hex, &l);
    /* "abc" is in lower and in hex, both among the most specific items
     * that hold it: both accepted ("a", "z", "hello"; "0", "9f", "beef");
     * lowernum, above both, rejected ("9z"), letters ("Z") too: the
     * literal becomes either item. */
    CHECK_STR(l.text.data, "S := \"k=\" (lower | hex);\nlower := [a-z]+;\nhex := [0-9a-f]+;\n");
    CHECK(strstr(l.log.data, "  => \"abc\" becomes lower | hex\n") != NULL);
    CHECK(same_language(l.g, lang_lower_or_hex, "k=az09", 5));
    learned_free(&l);
}

TEST(generalize_asks_optional_parts_together)
{
    /* "b" may be left out ("ac" #20) and so may "c" ("ab" #21), but not
     * both: "a" (#22) is rejected.
     * Each alone made optional gave "a" "b"? "c"?, which derives "a"; asked
     * together, "c" is optional only where "b" is there: the grammar says
     * exactly {ab, ac, abc}.  By hand: the sample #1, each letter with
     * lower's and hex's examples (17 new: "abc" is the sample), then the
     * parts delimited by literals (one letter each): "bc", "ac", "ab" with
     * "a"; then the others: "" (23 runs; "c" and "a" for the omissions of
     * "a" "b" and "b" "c" are no longer asked, the grammar has changed). */
    struct learned l;
    learn("S := \"a\" \"b\" \"c\";\n", "abc", lang_either, &l);
    CHECK_STR(l.text.data, "S := \"a\" (\"b\" \"c\"? | \"c\");\n");
    CHECK(strstr(l.log.data, "S: omit \"c\" (g.ebnf:1:14)\n    #21   yes  \"ab\"\n"
                             "    #22   no   \"a\"\n") != NULL);
    CHECK_INT(l.res.queries, 23);
    CHECK(strstr(l.res.notes[0].data, "optional, but not with \"b\"? omitted too: (\"b\" "
                                      "\"c\"? | \"c\"): queries accepted #21; rejected #22") !=
          NULL);
    CHECK(same_language(l.g, lang_either, "abc", 4));
    learned_free(&l);
}

TEST(generalize_asks_repetitions_where_the_items_hold_other_examples)
{
    /* From "k==1": "k" becomes lower ("a==1", "z==1", "hello==1" are
     * accepted).  "=" "=" repeated 1 to 5 times after "k" is accepted, but
     * lower derives "a" too, and "a=1" is rejected: not a repetition, and
     * "=" is not optional either ("k=1" yes, "a=1" no, "a==1" yes).  The
     * repetition asked only where "k" is would give "="+, whose "a=1" is
     * not in the language. */
    struct learned l;
    learn("S := \"k\" \"=\" \"=\" \"1\";\n", "k==1", lang_k_equals, &l);
    CHECK_STR(l.text.data, "S := lower \"=\" \"=\" \"1\";\nlower := [a-z]+;\n");
    CHECK(strstr(l.log.data, "    #") != NULL);
    CHECK(strstr(l.log.data, "no   \"a=1\"") != NULL);
    CHECK(strstr(l.log.data, "  => not a repetition\n") != NULL);
    learned_free(&l);
}

/* Unit tests of the importers (src/formats/import_*.c) and of kpath convert's writers
 * (src/formats/grammar_export.c).  Every grammar here was written for these tests.
 * The expected trees are written in .ebnf, worked out by hand from the
 * construction documented in src/formats/import_antlr.c; the .ebnf writer prints an
 * imported grammar from its syntax tree, so equal text means equal trees. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar.h"
#include "grammar/grammar_build.h"
#include "grammar/lexer.h"
#include "formats/grammar_export.h"
#include "formats/grammar_load.h"
#include "formats/grammar_write.h"
#include "graph/graph.h"
#include "harness.h"
#include "base/strbuf.h"

static char *diags_text(struct diag_list *d)
{
    struct strbuf sb = STRBUF_INIT;
    diag_sort(d);
    for (size_t i = 0; i < d->len; i++) {
        if (i)
            strbuf_addch(&sb, '\n');
        diag_format(&d->items[i], &sb);
    }
    char *s = strbuf_detach(&sb, NULL);
    return s ? s : calloc(1, 1);
}

static struct grammar *open_text(const char *name, const char *text, const char *start,
                                 struct diag_list *d)
{
    struct grammar_options o = {.start = start};
    return grammar_open_string(name, text, strlen(text), GRAMMAR_FORMAT_AUTO, &o, d);
}

static char *as_ebnf(const struct grammar *g)
{
    struct strbuf sb = STRBUF_INIT;
    struct grammar_write_options o = {.reprint = true};
    grammar_write(g, &o, &sb);
    return strbuf_detach(&sb, NULL);
}

/* Import `text` as `name`; its .ebnf form must be `want` and its
 * diagnostics `want_diags`. */
static void check_import(const char *name, const char *text, const char *want,
                         const char *want_diags)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text(name, text, NULL, &d);
    char *got_diags = diags_text(&d);
    CHECK_STR(got_diags, want_diags);
    CHECK(g != NULL);
    if (g) {
        char *got = as_ebnf(g);
        CHECK_STR(got, want);
        free(got);
    }
    free(got_diags);
    diag_list_free(&d);
    grammar_free(g);
}

static void check_error(const char *name, const char *text, const char *want_diags)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text(name, text, NULL, &d);
    CHECK(g == NULL);
    char *got = diags_text(&d);
    CHECK_STR(got, want_diags);
    free(got);
    diag_list_free(&d);
    grammar_free(g);
}

/* ---- ANTLR -------------------------------------------------------------- */

TEST(antlr_skip_tokens_between_parser_tokens)
{
    /* s is referenced by a, so the leading _skip goes into a wrapper. */
    check_import("t.g4",
                 "grammar T;\n"
                 "s : a (',' a)* EOF ;\n"
                 "a : ID | '(' s ')' ;\n"
                 "ID : [a-z]+ ;\n"
                 "WS : [ \\t]+ -> skip ;\n"
                 "COMMENT : '#' ~[\\n]* -> channel(HIDDEN) ;\n",
                 "_start := _skip s;\n"
                 "s := a (\",\" _skip a)*;\n"
                 "a := ID _skip | \"(\" _skip s \")\" _skip;\n"
                 "ID := [a-z]+;\n"
                 "WS := [\\t ];\n"
                 "COMMENT := \"#\" [^\\n]*;\n"
                 "_skip := (WS | COMMENT)*;\n",
                 "");
    /* An unreferenced start rule begins with _skip itself; a token alone in
     * an alternative or under a quantifier gets a sequence with _skip. */
    check_import("t.g4",
                 "grammar T;\n"
                 "list : '[' (NUM | NAME)* ']' ;\n"
                 "NUM : [0-9]+ ;\n"
                 "NAME : [a-z]+ ;\n"
                 "SPACE : ' '+ -> skip ;\n"
                 "UNUSED : '!' ;\n",
                 "list := _skip \"[\" _skip (NUM _skip | NAME _skip)* \"]\" _skip;\n"
                 "NUM := [0-9]+;\n"
                 "NAME := [a-z]+;\n"
                 "SPACE := \" \";\n"
                 "_skip := SPACE*;\n",
                 "");
}

TEST(antlr_subrule_with_an_empty_options_colon)
{
    /* ANTLR reads `( : alt )` as `( options {} : alt )`: the group alone
     * (vhdl, pascal and stacktrace in grammars-v4 write it). */
    check_import("P.g4",
                 "grammar P;\n"
                 "s : 'a' (: 'b' | 'c')* ;\n",
                 "s := \"a\" (\"b\" | \"c\")*;\n",
                 "");
}

TEST(antlr_elements_and_ignored_parts)
{
    check_import("t.g4",
                 "/* a grammar of every element */\n"
                 "grammar E;\n"
                 "options { language = Java; }\n"
                 "tokens { EXTRA }\n"
                 "@header { import java.util.*; }\n"
                 "r[int x] returns [int y] locals [int z]\n"
                 "@init { y = 0; }\n"
                 "  : v+=item*? # Many\n"
                 "  | {p()}? k=KW { act(); } item?? # One\n"
                 "  ;\n"
                 "item : <assoc=right> NUM ;\n"
                 "KW : 'kw' ;\n"
                 "NUM : ('0'..'9')+? D ;\n"
                 "fragment D : ~('a' | 'b' | [x-z]) . ;\n",
                 "r := item* | KW item?;\n"
                 "item := NUM;\n"
                 "KW := \"kw\";\n"
                 "NUM := [0-9]+ D;\n"
                 "D := [^abx-z] [\\u{0}-\\u{10FFFF}];\n",
                 /* Where each is, by hand: the predicate {p()}? at 9:5; the actions
                  * @header's { at 5:9, @init's at 7:7, { act(); } at 9:17. */
                 "t.g4:5:9: warning: 3 actions and 1 semantic predicate ignored (kpath reads "
                 "the grammar without running code; a predicate can make the language "
                 "smaller); predicates at 9:5; actions at 5:9, 7:7, 9:17");
}

TEST(antlr_any_token_in_parser_rules)
{
    /* '.' is any token; '~' leaves out the tokens named, a literal naming
     * the token rule of exactly that literal; fragments are no tokens. */
    check_import("t.g4",
                 "grammar T;\n"
                 "s : '(' ~(B | ')')* ')' . ;\n"
                 "A : 'a' ;\n"
                 "B : 'b' ;\n"
                 "R : ')' ;\n"
                 "fragment F : 'f' ;\n",
                 "s := \"(\" A* \")\" (A | B | R);\n"
                 "A := \"a\";\n"
                 "B := \"b\";\n"
                 "R := \")\";\n",
                 "");
}

TEST(antlr_case_insensitive_and_escapes)
{
    check_import("t.g4",
                 "grammar C;\n"
                 "options { caseInsensitive = true; }\n"
                 "stmt : 'select' ID ;\n"
                 "ID : [a-c] '\\u00e9\\n\\'' ;\n",
                 "stmt := ([Ss] [Ee] [Ll] [Ee] [Cc] [Tt]) ID;\n"
                 "ID := [A-Ca-c] \"é\\n'\";\n",
                 "");
}

/* ---- ANTLR's lexer (grammar/lexer.h) --------------------------------------
 * The token sequences below are worked out by hand from ANTLR's rules:
 * longest match, the first rule on a tie (implicit tokens first), modes,
 * more, type, skip and channels, non-greedy loops, EOF. */

/* The tokens of `input` under the lexer of grammar `g4` (named `name`), as
 * RULE"text" separated by blanks, ~ before a hidden one, RULE>TYPE for a
 * type(TYPE) token; " !N" at the end when no token forms at byte N. */
static char *lex_text(const char *name, const char *g4, const char *input)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text(name, g4, NULL, &d);
    struct strbuf sb = STRBUF_INIT;
    if (!g || !g->lexer) {
        strbuf_addstr(&sb, "no grammar or lexer");
    } else {
        struct lexer *lx = lexer_compile(g, g->lexer, name, &d);
        if (!lx) {
            strbuf_addstr(&sb, "lexer does not compile");
        } else {
            struct lexer_token *t = NULL;
            size_t n = 0, err = 0;
            bool ok = lexer_run(lx, input, strlen(input), &t, &n, &err);
            const struct lexer_spec *spec = lexer_spec_of(lx);
            for (size_t i = 0; i < n; i++) {
                if (i)
                    strbuf_addch(&sb, ' ');
                if (t[i].hidden)
                    strbuf_addch(&sb, '~');
                strbuf_addstr(&sb, spec->rules[t[i].rule].name);
                if (t[i].type != t[i].rule)
                    strbuf_addf(&sb, ">%s", t[i].type == RULE_NONE ? "?" : spec->rules[t[i].type].name);
                strbuf_addf(&sb, "\"%.*s\"", (int)(t[i].end - t[i].start), input + t[i].start);
            }
            if (!ok)
                strbuf_addf(&sb, " !%zu", err);
            free(t);
            lexer_free(lx);
        }
    }
    grammar_free(g);
    diag_list_free(&d);
    return strbuf_detach(&sb, NULL);
}

static void check_lex(const char *name, const char *g4, const char *input, const char *want)
{
    char *got = lex_text(name, g4, input);
    CHECK_STR(got, want);
    free(got);
}

TEST(antlr_commands_with_a_capital_first_letter)
{
    /* ANTLR finds a lexer command by its name with the first letter
     * capitalized, so rego's `-> Channel(X)` hides the token as
     * `channel(X)` does: blanks and comments may come between tokens, with
     * no warning; `-> PushMode(M)` enters M (where only Q is a token). */
    check_import("R.g4",
                 "grammar R;\n"
                 "s : A A EOF ;\n"
                 "A : 'a' ;\n"
                 "WS : [ \\t] -> Channel(OFF) ;\n"
                 "C : '#' ~[\\n]* -> Skip ;\n",
                 "s := _skip A _skip A _skip;\n"
                 "A := \"a\";\n"
                 "WS := [\\t ];\n"
                 "C := \"#\" [^\\n]*;\n"
                 "_skip := (WS | C)*;\n",
                 "");
    const char *g4 = "lexer grammar P;\n"
                     "A : 'a' -> PushMode(M) ;\n"
                     "mode M;\n"
                     "Q : 'a' -> PopMode ;\n";
    check_lex("P.g4", g4, "aaa", "A\"a\" Q\"a\" A\"a\"");
}

TEST(antlr_lexer_reads_a_recursive_fragment_to_a_bound)
{
    /* Lua's long brackets: [[..]], [=[..]=], ... a fragment that refers to
     * itself.  Read to 8 levels: "[==[x]==]" is one LONG, and "]=]" inside
     * it does not end it (non-greedy, but the levels must match). */
    const char *g4 = "lexer grammar L;\n"
                     "LONG : '[' NESTED ']' ;\n"
                     "fragment NESTED : '=' NESTED '=' | '[' .*? ']' ;\n"
                     "X : 'x' ;\n";
    check_lex("L.g4", g4, "[[x]]x[==[x]=]x]==]", "LONG\"[[x]]\" X\"x\" LONG\"[==[x]=]x]==]\"");
    /* NESTED inlined 8 times: 7 '=' around the innermost '[' .*? ']' are
     * read, 8 are not (no token at the first '['). */
    check_lex("L.g4", g4, "[=======[x]=======]", "LONG\"[=======[x]=======]\"");
    check_lex("L.g4", g4, "[========[x]========]", " !0");
}

TEST(antlr_lexer_longest_match_and_rule_order)
{
    /* 'if', '-' and '--' are implicit tokens, defined before ID: "if" is
     * 'if' (a tie, the first rule), "iffy" an ID (longer); "---" is '--'
     * then '-'; "12x" is INT then ID. */
    const char *g4 = "grammar T;\n"
                     "s : ('if' | ID | '-' | '--' | INT)* EOF ;\n"
                     "ID : [a-z]+ ;\n"
                     "INT : [0-9]+ ;\n"
                     "WS : [ ]+ -> skip ;\n";
    check_lex("T.g4", g4, "if iffy - -- --- 12x",
              "if\"if\" ~WS\" \" ID\"iffy\" ~WS\" \" -\"-\" ~WS\" \" --\"--\" ~WS\" \" "
              "--\"--\" -\"-\" ~WS\" \" INT\"12\" ID\"x\"");
    /* '#' is no token: an error at its byte, after the tokens before it. */
    check_lex("T.g4", g4, "a #", "ID\"a\" ~WS\" \" !2");
    /* A lexer rule that spells a literal is its token: no implicit one, so
     * rule order decides between A and ID (ANTLR's classic trap: with ID
     * first, 'a' never forms). */
    check_lex("U.g4",
              "grammar U;\n"
              "s : 'a' ID ;\n"
              "ID : [a-z]+ ;\n"
              "A : 'a' ;\n",
              "a ab", "ID\"a\" !1");
    check_lex("U.g4",
              "grammar U;\n"
              "s : 'a' ID ;\n"
              "A : 'a' ;\n"
              "ID : [a-z]+ ;\n",
              "a", "A\"a\"");
}

TEST(antlr_lexer_non_greedy_eof_and_channels)
{
    /* STR stops at its first closing quote ("a" and "b" are two strings,
     * the greedy reading would make one); LINE ends at a newline or at the
     * end of the text, never elsewhere; COMMENT stops at the first end. */
    const char *g4 = "lexer grammar C;\n"
                     "COMMENT : '/*' .*? '*/' -> skip ;\n"
                     "LINE : '//' .*? ('\\n' | EOF) -> channel(HIDDEN) ;\n"
                     "STR : '\"' .*? '\"' ;\n"
                     "X : 'x' ;\n"
                     "SP : ' ' -> skip ;\n";
    check_lex("C.g4", g4, "x/* a */ x/**/*/ \"a\" \"b\"// c\nx// end",
              "X\"x\" ~COMMENT\"/* a */\" ~SP\" \" X\"x\" ~COMMENT\"/**/\" !14");
    check_lex("C.g4", g4, "\"a\" \"b\"// c\nx// end",
              "STR\"\"a\"\" ~SP\" \" STR\"\"b\"\" ~LINE\"// c\n\" X\"x\" ~LINE\"// end\"");
    /* EOF: "//" alone at the end is a LINE; an unclosed comment no token. */
    check_lex("C.g4", g4, "x//", "X\"x\" ~LINE\"//\"");
    check_lex("C.g4", g4, "x /* open", "X\"x\" ~SP\" \" !2");
}

TEST(antlr_lexer_non_greedy_is_per_path_not_per_rule)
{
    /* ANTLR's lexer (LexerATNSimulator) drops, once a path of a rule
     * reaches the rule's end, only the paths of that rule that come after
     * it in priority order and went through a non-greedy loop; a path with
     * no such loop, or one of higher priority, goes on.  In C, the second
     * alternative has no non-greedy loop: on "--[[a]]x" it reads on to the
     * line end (8 bytes, longer than the first alternative's "--[[a]]");
     * on "--[[a\nb]]" it stops at the newline and the first alternative,
     * which crosses it, is the longer.  (Stopping the whole rule at its
     * first end would give C"--" and no token at "[".) */
    const char *g4 = "lexer grammar N;\n"
                     "C : ( '--[[' .*? ']]' | '--' ~'\\n'* ) ;\n"
                     "X : 'x' ;\n"
                     "NL : '\\n' ;\n";
    check_lex("N.g4", g4, "--[[a]]x\n--[[a\nb]]x",
              "C\"--[[a]]x\" NL\"\n\" C\"--[[a\nb]]\" X\"x\"");
    /* T on "acd": after "ac" the second alternative ends; the first one's
     * paths come before it in priority, so they go on and "acd" is one
     * token (the second alternative's loop, after its end, is dropped). */
    check_lex("T.g4",
              "lexer grammar T;\n"
              "T : ( 'a' .*? 'c' 'd' | 'a' .*? 'c' ) ;\n"
              "D : 'd' ;\n",
              "acd", "T\"acd\"");
    /* Python's strings: SHORT ends after `""` (an empty string) while
     * LONG's path, not yet in its loop, goes on; in the next step SHORT
     * is dead, so LONG's loop runs to the first `"""`. */
    check_lex("P.g4",
              "lexer grammar P;\n"
              "STR : ( SHORT | LONG ) ;\n"
              "fragment SHORT : '\"' ~[\"\\n]* '\"' ;\n"
              "fragment LONG : '\"\"\"' .*? '\"\"\"' ;\n"
              "ID : [a-z]+ ;\n",
              "\"\"\"a\"b\"\"\"c\"\"", "STR\"\"\"\"a\"b\"\"\"\" ID\"c\" STR\"\"\"\"");
    /* .+? reads one character before its loop: "<>>" is one Q, "<>" none. */
    check_lex("Q.g4",
              "lexer grammar Q;\n"
              "Q : '<' .+? '>' ;\n"
              "G : '>' ;\n",
              "<>><x>", "Q\"<>>\" Q\"<x>\"");
}

TEST(antlr_lexer_modes_more_and_type)
{
    /* "hi " is TEXT; '<' enters TAG; the string is QUOTE (more, enters
     * STRMODE), BODY (more) and STRING (popMode back to TAG, type NAME): one
     * token from the first quote to the last; '>' pops to the default mode. */
    const char *g4 = "lexer grammar M;\n"
                     "OPEN : '<' -> pushMode(TAG) ;\n"
                     "TEXT : ~[<]+ ;\n"
                     "mode TAG;\n"
                     "NAME : [a-z]+ ;\n"
                     "CLOSE : '>' -> popMode ;\n"
                     "TAGSP : ' ' -> skip ;\n"
                     "QUOTE : '\"' -> more, pushMode(STRMODE) ;\n"
                     "mode STRMODE;\n"
                     "STRING : '\"' -> popMode, type(NAME) ;\n"
                     "BODY : ~[\"]+ -> more ;\n";
    check_lex("M.g4", g4, "hi <a \"x y\">z",
              "TEXT\"hi \" OPEN\"<\" NAME\"a\" ~TAGSP\" \" STRING>NAME\"\"x y\"\" CLOSE\">\" "
              "TEXT\"z\"");
    /* In TAG, "hi" is a NAME, not TEXT; a text that ends inside a `more`
     * token is an error at its start. */
    check_lex("M.g4", g4, "<hi \"open", "OPEN\"<\" NAME\"hi\" ~TAGSP\" \" !4");
}

/* lexer_separate on `text` made of tokens `spans` (by rule name). */
static char *separated(const char *g4, const char *text, const char *const *names,
                       const size_t *bounds, size_t n)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text("S.g4", g4, NULL, &d);
    struct lexer *lx = g && g->lexer ? lexer_compile(g, g->lexer, "S.g4", &d) : NULL;
    struct strbuf sb = STRBUF_INIT;
    if (lx) {
        struct lexer_span spans[8];
        for (size_t i = 0; i < n; i++)
            spans[i] = (struct lexer_span){bounds[i], bounds[i + 1], lexer_rule_index(lx, names[i])};
        if (!lexer_separate(lx, text, strlen(text), spans, n, &sb))
            strbuf_addstr(&sb, " (not mended)");
    }
    lexer_free(lx);
    grammar_free(g);
    diag_list_free(&d);
    char *s = strbuf_detach(&sb, NULL);
    return s ? s : calloc(1, 1);
}

TEST(antlr_lexer_separates_generated_tokens)
{
    /* Worked out from ANTLR's rules: "ifab" is one ID, so KW "if" and ID
     * "ab" need a blank; "--" is one token, so '-' '-' need one too; after
     * the comment "#c" a blank is swallowed, a newline ends it; "if" "ab"
     * with a blank already between them stays as it is. */
    const char *g4 = "grammar S;\n"
                     "s : (KW | ID | '-' | '--')+ EOF ;\n"
                     "KW : 'if' ;\n"
                     "ID : [a-z]+ ;\n"
                     "WS : ' ' -> skip ;\n"
                     "LC : '#' ~[\\n]* -> skip ;\n"
                     "NL : '\\n' -> skip ;\n";
    const char *kw_id[] = {"KW", "ID"};
    size_t b1[] = {0, 2, 4};
    char *got = separated(g4, "ifab", kw_id, b1, 2);
    CHECK_STR(got, "if ab");
    free(got);
    const char *kw_ws_id[] = {"KW", "WS", "ID"};
    size_t b2[] = {0, 2, 3, 5};
    got = separated(g4, "if ab", kw_ws_id, b2, 3);
    CHECK_STR(got, "if ab");
    free(got);
    const char *lc_id[] = {"LC", "ID"};
    size_t b3[] = {0, 2, 3};
    got = separated(g4, "#cx", lc_id, b3, 2);
    CHECK_STR(got, "#c\nx");
    free(got);
    /* The implicit token '-' twice: "--" would be the token '--'. */
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text("S.g4", g4, NULL, &d);
    struct lexer *lx = lexer_compile(g, g->lexer, "S.g4", &d);
    uint32_t minus = RULE_NONE;
    for (uint32_t r = 0; r < g->lexer->nrules; r++)
        if (g->lexer->rules[r].implicit && strcmp(g->lexer->rules[r].name, "-") == 0)
            minus = r;
    CHECK(minus != RULE_NONE);
    struct lexer_span spans[2] = {{0, 1, minus}, {1, 2, minus}};
    struct strbuf sb = STRBUF_INIT;
    CHECK(lexer_separate(lx, "--", 2, spans, 2, &sb));
    CHECK_STR(strbuf_str(&sb), "- -");
    strbuf_free(&sb);
    lexer_free(lx);
    grammar_free(g);
    diag_list_free(&d);
}

TEST(antlr_lexer_separates_with_the_blank_of_the_mode)
{
    /* XML-like: a blank is text in the default mode and skipped only inside
     * a tag (mode TAG), so two NAMEs "a" "b" in a tag get a blank there,
     * and a TEXT token after the tag needs none ("x" is TEXT anyway). */
    const char *g4 = "lexer grammar X;\n"
                     "OPEN : '<' -> pushMode(TAG) ;\n"
                     "TEXT : ~[<]+ ;\n"
                     "mode TAG;\n"
                     "CLOSE : '>' -> popMode ;\n"
                     "NAME : [a-z]+ ;\n"
                     "SP : ' ' -> skip ;\n";
    const char *names[] = {"OPEN", "NAME", "NAME", "CLOSE", "TEXT"};
    size_t b[] = {0, 1, 2, 3, 4, 5};
    char *got = separated(g4, "<ab>x", names, b, 5);
    CHECK_STR(got, "<a b>x");
    free(got);
}

TEST(antlr_lexer_only_commands_and_modes)
{
    /* A lexer grammar starts at its first token; tokens it never uses are
     * left out; unsupported commands and modes are warned about. */
    check_import("L.g4",
                 "lexer grammar L;\n"
                 "A : 'a' B? -> type(X) ;\n"
                 "fragment B : 'b' ;\n"
                 "C : 'c' ;\n"
                 "mode M;\n"
                 "D : 'd' -> popMode ;\n",
                 "A := \"a\" B?;\n"
                 "B := \"b\";\n",
                 "L.g4:2:15: warning: lexer command 'type' of rule 'A' is not supported and is "
                 "ignored (kpath reads one character-level grammar, without modes or token "
                 "types)\n"
                 "L.g4:5:1: warning: lexer mode 'M': its tokens are read like the others (each "
                 "a rule the parser rules name, whatever the mode there); between two tokens the "
                 "skip tokens of the mode after the first are allowed; `more` is joined to the "
                 "token it leads to");
}

TEST(antlr_more_joins_tokens_across_modes)
{
    /* OPEN is `more` and enters STR, the only way in: STRING, a token of
     * STR, starts with it, then any of STR's `more` tokens that stay.  ITEM
     * (default mode, no `more` token there) is unchanged; `more` tokens are
     * no tokens of their own for the parser.  (Modes belong in a lexer
     * grammar; a combined one keeps the test in one string.) */
    check_import("M.g4",
                 "grammar M;\n"
                 "s : (ITEM | STRING)+ ;\n"
                 "ITEM : 'x' ;\n"
                 "OPEN : '\"' -> more, pushMode(STR) ;\n"
                 "WS : ' ' -> skip ;\n"
                 "mode STR;\n"
                 "TEXT : ~[\"\\\\]+ -> more ;\n"
                 "ESC : '\\\\' . -> more ;\n"
                 "STRING : '\"' -> popMode ;\n",
                 "s := _skip (ITEM _skip | STRING _skip)+;\n"
                 "ITEM := \"x\";\n"
                 "OPEN := \"\\\"\";\n"
                 "WS := \" \";\n"
                 "TEXT := [^\\\"\\\\]+;\n"
                 "ESC := \"\\\\\" [\\u{0}-\\u{10FFFF}];\n"
                 "STRING := OPEN (TEXT | ESC)* \"\\\"\";\n"
                 "_skip := WS*;\n",
                 "M.g4:6:1: warning: lexer mode 'STR': its tokens are read like the others (each "
                 "a rule the parser rules name, whatever the mode there); between two tokens the "
                 "skip tokens of the mode after the first are allowed; `more` is joined to the "
                 "token it leads to");
}

TEST(antlr_skip_tokens_per_lexer_mode)
{
    /* Two modes with their own skip tokens: ' ' in the default mode, '\t'
     * in TAG (ANTLR's lexer fails on a ' ' in TAG and on a '\t' outside).
     * Worked out by hand: after WORD (default mode) _skip; after OPEN
     * (pushMode(TAG)) and NAME (mode TAG) _skip_TAG; after CLOSE (popMode,
     * back to the default mode, which pushed TAG) _skip again; the input
     * begins in the default mode.  '\t' outside a tag is the token TAB. */
    const char *tags = "grammar P;\n"
                       "doc : (WORD | TAB | tag)* ;\n"
                       "tag : OPEN NAME* CLOSE ;\n"
                       "WORD : [a-z]+ ;\n"
                       "TAB : '\\t' ;\n"
                       "OPEN : '<' -> pushMode(TAG) ;\n"
                       "WS : ' ' -> skip ;\n"
                       "mode TAG;\n"
                       "NAME : [a-z]+ ;\n"
                       "CLOSE : '>' -> popMode ;\n"
                       "TAG_WS : [\\t] -> skip ;\n";
    check_import("P.g4", tags,
                 "doc := _skip (WORD _skip | TAB _skip | tag)*;\n"
                 "tag := OPEN _skip_TAG (NAME _skip_TAG)* CLOSE _skip;\n"
                 "WORD := [a-z]+;\n"
                 "TAB := \"\\t\";\n"
                 "OPEN := \"<\";\n"
                 "WS := \" \";\n"
                 "NAME := [a-z]+;\n"
                 "CLOSE := \">\";\n"
                 "TAG_WS := [\\t];\n"
                 "_skip := WS*;\n"
                 "_skip_TAG := TAG_WS*;\n",
                 "P.g4:8:1: warning: lexer mode 'TAG': its tokens are read like the others (each "
                 "a rule the parser rules name, whatever the mode there); between two tokens the "
                 "skip tokens of the mode after the first are allowed; `more` is joined to the "
                 "token it leads to");
    /* A literal of a parser rule is the token rule of that literal ('<' is
     * LT); popMode into a mode pushed from two modes cannot be followed:
     * the skip tokens of both, with one warning naming the rules (GT and
     * RB alike); a skip token that changes the mode is warned about too. */
    check_import("Q.g4",
                 "grammar Q;\n"
                 "s : '<' X '>' A '[' X ']' ;\n"
                 "A : 'a' ;\n"
                 "LT : '<' -> pushMode(IN) ;\n"
                 "SP : ' ' -> skip ;\n"
                 "CMT : '#' -> skip, pushMode(IN) ;\n"
                 "mode OTHER;\n"
                 "LB : '[' -> pushMode(IN) ;\n"
                 "NL : '\\n' -> skip ;\n"
                 "mode IN;\n"
                 "X : 'x' ;\n"
                 "GT : '>' -> popMode ;\n"
                 "RB : ']' -> popMode ;\n"
                 "IN_WS : '\\t' -> skip ;\n",
                 "s := _skip \"<\" _skip_IN X _skip_IN \">\" _skip_DEFAULT_MODE_OTHER A _skip \"[\" "
                 "_skip_IN X _skip_IN \"]\" _skip_DEFAULT_MODE_OTHER;\n"
                 "A := \"a\";\n"
                 "SP := \" \";\n"
                 "CMT := \"#\";\n"
                 "NL := \"\\n\";\n"
                 "X := \"x\";\n"
                 "IN_WS := \"\\t\";\n"
                 "_skip := (SP | CMT)*;\n"
                 "_skip_IN := IN_WS*;\n"
                 "_skip_DEFAULT_MODE_OTHER := (SP | CMT | NL)*;\n",
                 "Q.g4:6:1: warning: skip token 'CMT' changes the lexer mode (IN) with no way back by "
                 "skip tokens: kpath allows "
                 "it between tokens like the other skip tokens of its mode, and does not follow "
                 "the change\n"
                 "Q.g4:7:1: warning: 2 lexer modes, whose tokens are read like the others "
                 "(each a rule the parser rules name, whatever the mode there); between two "
                 "tokens the skip tokens of the mode after the first are allowed; `more` is "
                 "joined to the token it leads to: OTHER, IN (the first is here)\n"
                 "Q.g4:12:1: warning: 2 tokens pop the lexer mode back to 'DEFAULT_MODE' or "
                 "'OTHER', whichever pushed 'IN' (it depends on the input before them, which a "
                 "context-free grammar cannot follow here): kpath allows the skip tokens of all "
                 "of those modes after them: GT, RB (the first is here)");
}

TEST(antlr_not_rule_that_is_a_set)
{
    /* ~(Q | NL | [x]): Q is '"', NL is [\r\n] or EOL, EOL is U+2028 (through
     * a reference to a rule defined after the use): the complement of all
     * of them, one class. */
    check_import("L.g4",
                 "lexer grammar L;\n"
                 "S : Q ~(Q | NL | [x])* Q ;\n"
                 "fragment Q : '\"' ;\n"
                 "fragment NL : [\\r\\n] | EOL ;\n"
                 "fragment EOL : '\\u2028' ;\n",
                 /* the writer keeps U+2028 as it is, and escapes '"' */
                 "S := Q [^\\n\\r\\\"x\xe2\x80\xa8]* Q;\n"
                 "Q := \"\\\"\";\n",
                 "");
}

TEST(antlr_errors_point_into_the_file)
{
    check_error("t.g4", "grammar T;\ns : A ;\n", "t.g4:2:5: error: undefined rule 'A'");
    check_error("t.g4", "grammar T;\ns : 'a\n;\n", "t.g4:2:5: error: unterminated literal");
    check_error("t.g4", "grammar T;\ns : 'a' . ;\n",
                "t.g4:2:9: error: no token is left for this '~' or '.' to stand for");
    check_error("t.g4", "grammar T;\ns : ~( A | ;\nA : 'a' ;\n",
                "t.g4:2:12: error: expected a token name or literal after '~' in a parser "
                "rule, found ';'");
    check_error("t.g4", "grammar T;\nA : ~B ;\nB : 'bc' ;\n",
                "t.g4:2:5: error: '~B': rule 'B' is not a set of single characters, so its "
                "complement cannot be expressed");
    check_error("t.g4", "grammar T;\nA : ~(B | 'x') ;\n",
                "t.g4:2:5: error: '~B': there is no rule 'B'");
    check_error("t.g4", "grammar T;\ns : ('a' | 'b' ;\n",
                "t.g4:2:16: error: expected ')' to close the '(' at 2:5, found ';'");
    check_error("t.g4", "grammar T;\ns : 'a' ;\ns : 'b' ;\n",
                "t.g4:3:1: error: rule 's' is defined twice (first at 2:1)");
    check_error("t.g4", "s : 'a' ;\n",
                "t.g4:1:1: error: expected 'grammar NAME;' (an ANTLR 4 grammar starts with it), "
                "found 's'");
    check_error("t.g4", "grammar T;\nA : 'z'..'a' ;\n",
                "t.g4:2:5: error: inverted range 'z'..'a'");
    check_error("t.g4", "grammar T;\nA : [a-\n",
                "t.g4:2:5: error: unterminated set");
    check_error("t.g4", "grammar T;\ns : A s ;\nA : 'a' ;\n",
                "t.g4:2:1: error: rule 's' is unproductive: it can never derive a finite string");
    /* A token of tokens {} that no rule defines (Python's INDENT, emitted by
     * an action): said what it is, where it is declared (2:10 and 3:3), once,
     * at the first reference (4:8 and 4:17). */
    check_error("t.g4", "grammar T;\ntokens { INDENT,\n  DEDENT, A }\n"
                "s : A (INDENT s DEDENT)? INDENT ;\nA : 'a' ;\n",
                "t.g4:4:8: error: token 'INDENT' is declared in tokens { } (t.g4:2:10) and no "
                "lexer rule defines it: the grammar's actions emit it, which kpath does not run; "
                "define it in a lexer rule of your own to read this grammar\n"
                "t.g4:4:17: error: token 'DEDENT' is declared in tokens { } (t.g4:3:3) and no "
                "lexer rule defines it: the grammar's actions emit it, which kpath does not run; "
                "define it in a lexer rule of your own to read this grammar");
}

TEST(antlr_start_option)
{
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text("t.g4", "grammar T;\na : b 'x' ;\nb : 'y' ;\n", "b", &d);
    CHECK(g != NULL);
    if (g)
        CHECK_STR(g->rules[g->start].name, "b");
    grammar_free(g);
    diag_list_free(&d);
    g = open_text("t.g4", "grammar T;\na : 'x' ;\n", "nope", &d);
    CHECK(g == NULL);
    char *got = diags_text(&d);
    CHECK_STR(got, "t.g4: error: start rule 'nope' is not defined");
    free(got);
    diag_list_free(&d);
}

/* ---- round trips --------------------------------------------------------- */

/* How graph_text writes labels: as `kpath graph` does; reference names
 * without angle brackets; or canonical, for writers that rename and
 * rewrite classes (Fandango): names also with every character but ASCII
 * letters, digits and '_' as '_', classes from their ranges (so [a-zA-Z]
 * and [A-Za-z] are one label); or that with no reference names at all (the
 * children ids still say which rule each reference names). */
enum labels { LABELS_AS_IS, LABELS_NO_BRACKETS, LABELS_CANONICAL, LABELS_NO_NAMES };

/* The graph as text: one line per node, as `kpath graph` prints it. */
static char *graph_text(const struct grammar *g, enum labels labels)
{
    struct graph *gr = graph_build(g);
    struct strbuf sb = STRBUF_INIT;
    for (uint32_t n = 0; n < gr->nnodes; n++) {
        strbuf_addf(&sb, "%u ", n);
        size_t at = sb.len;
        const struct expr *e = gr->nodes[n].expr;
        if (labels == LABELS_NO_NAMES && gr->nodes[n].kind == NODE_REF)
            strbuf_addstr(&sb, "ref");
        else if (labels >= LABELS_CANONICAL && gr->nodes[n].kind == NODE_CLASS)
            gb_class_source(e->u.cls.ranges, e->u.cls.nranges, e->u.cls.negated, &sb);
        else
            graph_node_label(gr, n, &sb);
        if (labels != LABELS_AS_IS && gr->nodes[n].kind == NODE_REF) {
            size_t w = at;
            for (size_t r = at; r < sb.len; r++) {
                char c = sb.data[r];
                if (c == '<' || c == '>')
                    continue;
                bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_';
                sb.data[w++] = ok || labels == LABELS_NO_BRACKETS ? c : '_';
            }
            sb.len = w;
            sb.data[w] = '\0';
        }
        for (uint32_t c = 0; c < gr->nodes[n].nchildren; c++)
            strbuf_addf(&sb, " %u", gr->children[gr->nodes[n].first_child + c]);
        strbuf_addch(&sb, '\n');
    }
    graph_free(gr);
    return strbuf_detach(&sb, NULL);
}

/* Load, write in `format`, load again: the same graph (and names, except
 * for the angle brackets fuzzingbook's names need). */
static void check_round_trip(const char *name, const char *text, enum grammar_format format,
                             const char *ext)
{
    enum labels labels = format == GRAMMAR_FORMAT_FUZZINGBOOK || format == GRAMMAR_FORMAT_TRIBBLE
                             ? LABELS_NO_BRACKETS
                             : LABELS_AS_IS;
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text(name, text, NULL, &d);
    CHECK(g != NULL);
    if (!g) {
        diag_list_free(&d);
        return;
    }
    struct strbuf out = STRBUF_INIT;
    CHECK(grammar_export(g, format, &out, &d));
    char back_name[32];
    snprintf(back_name, sizeof back_name, "back.%s", ext);
    struct grammar *back = grammar_open_string(back_name, strbuf_str(&out), out.len,
                                               GRAMMAR_FORMAT_AUTO, NULL, &d);
    CHECK(back != NULL);
    char *msgs = diags_text(&d);
    CHECK_STR(msgs, "");
    if (back) {
        char *a = graph_text(g, labels), *b = graph_text(back, labels);
        CHECK_STR(b, a);
        free(a);
        free(b);
    }
    free(msgs);
    strbuf_free(&out);
    grammar_free(back);
    grammar_free(g);
    diag_list_free(&d);
}

static const char *const round_trip_g4 =
    "grammar R;\n"
    "doc : item (';' item)* EOF ;\n"
    "item : KEY '=' value | '[' KEY ']' | ;\n"
    "value : NUM | STR | '(' value+ ')' ;\n"
    "KEY : [a-zA-Z_] [a-zA-Z_0-9]* ;\n"
    "NUM : '-'? DIGIT+ ('.' DIGIT+)? ;\n"
    "STR : '\"' (~[\"\\\\\\n] | '\\\\' .)* '\"' ;\n"
    "fragment DIGIT : [0-9] ;\n"
    "WS : [ \\t\\r\\n]+ -> skip ;\n"
    "LINE_COMMENT : '//' ~[\\n]* -> skip ;\n";

TEST(round_trip_antlr_through_every_format)
{
    check_round_trip("r.g4", round_trip_g4, GRAMMAR_FORMAT_G4, "g4");
    check_round_trip("r.g4", round_trip_g4, GRAMMAR_FORMAT_EBNF, "ebnf");
    /* A start rule that is referenced gets the _start wrapper, which the g4
     * writer turns back into the start rule. */
    /* An alternation as an alternative keeps its parentheses. */
    check_round_trip("a.g4", "grammar A;\ns : ~B | '(' s ')' ;\nA : 'a' ;\nB : 'b' ;\nC : 'c' ;\n",
                     GRAMMAR_FORMAT_G4, "g4");
    check_round_trip("w.g4",
                     "grammar W;\ne : t ('+' e)? ;\nt : N | '(' e ')' ;\nN : [0-9]+ ;\n"
                     "S : ' ' -> skip ;\n",
                     GRAMMAR_FORMAT_G4, "g4");
}

TEST(round_trip_ebnf_through_every_format)
{
    /* Names a g4 writer keeps: capitals for rules with classes. */
    const char *text = "list := \"[\" (Item (\",\" Item)*)? \"]\";\n"
                       "Item := Digit+ | \"x\" | \"\";\n"
                       "Digit := [0-9];\n";
    check_round_trip("e.ebnf", text, GRAMMAR_FORMAT_EBNF, "ebnf");
    check_round_trip("e.ebnf", text, GRAMMAR_FORMAT_G4, "g4");
}

/* ---- fuzzingbook --------------------------------------------------------- */

TEST(fuzzingbook_expansions_shorthands_and_probabilities)
{
    check_import("f.json",
                 "{\"<start>\": [\"<expr>\"],\n"
                 " \"<expr>\": [[\"<term> + <expr>\", {\"prob\": 0.25}], \"<term>\"],\n"
                 " \"<term>\": [\"<sign>?<digit>+(.<digit>|e<digit>*)?\", \"(<expr>)\"],\n"
                 " \"<sign>\": [\"-\", \"\"],\n"
                 " \"<digit>\": [\"0\", \"1\"]}\n",
                 "<start> := <expr>;\n"
                 "<expr> := 25% <term> \" + \" <expr> | <term>;\n"
                 "<term> := <sign>? <digit>+ (\".\" <digit> | \"e\" <digit>*)? | \"(\" <expr> \")\";\n"
                 "<sign> := \"-\" | \"\";\n"
                 "<digit> := \"0\" | \"1\";\n",
                 "");
}

TEST(fuzzingbook_errors_point_into_the_file)
{
    check_error("f.json", "{\"<start>\": [\"<a>\"]}", "f.json:1:15: error: undefined rule '<a>'");
    check_error("f.json", "{\"<start>\": [\"x\", 3]}",
                "f.json:1:19: error: an expansion of '<start>' must be a string, not a number");
    check_error("f.json", "{\"<start>\": []}",
                "f.json:1:13: error: the expansions of '<start>' must be a non-empty list of "
                "strings, not an empty list");
    check_error("f.json", "[1]",
                "f.json:1:1: error: a fuzzingbook grammar is an object of \"<name>\": "
                "[expansions], not an array");
    check_error("f.json", "{\"<start>\": [[\"x\", {\"prob\": 2}]]}",
                "f.json:1:29: error: \"prob\" must be a number from 0 to 1");
}

TEST(round_trip_fuzzingbook)
{
    const char *text = "{\"<start>\": [\"<list>\"],\n"
                       " \"<list>\": [\"[<item>(, <item>)*]\", \"[]\"],\n"
                       " \"<item>\": [[\"<digit>+\", {\"prob\": 0.5}], \"x<item>?\"],\n"
                       " \"<digit>\": [\"0\", \"1\", \"2\"]}\n";
    check_round_trip("f.json", text, GRAMMAR_FORMAT_FUZZINGBOOK, "json");
    check_round_trip("f.json", text, GRAMMAR_FORMAT_EBNF, "ebnf");
    /* From ANTLR to fuzzingbook: the same graph as long as there is no
     * class (a class becomes a helper rule). */
    check_round_trip("n.g4", "grammar N;\ns : 'a' s? 'b' | N ;\nN : 'n'+ ;\n",
                     GRAMMAR_FORMAT_FUZZINGBOOK, "json");
}

/* ---- TRIBBLE ------------------------------------------------------------- */

static const char *const tribble_calc =
    "// a calculator, written for these tests\n"
    "/* outer /* nested */ still a comment */\n"
    "calc = line (\"\\n\" line)* ;\n"
    "line = expr @@0.75 | \"\" @@ 0x1p-2 ;\n"
    "expr = term (/[a-c]/ term){,3} | \"-\"+ expr ;\n"
    "term = /[0-9]{2}|x(yz)?|\\\"q\\\"/ | \"\\\"\\\\\\t\" | ( \"(\" expr \")\" ) ;\n";

TEST(tribble_rules_literals_regexes_and_weights)
{
    /* The root is calc, the one rule no other names.  The regex of term is
     * brics's [0-9]{2} | x(yz)? | "q" (a string): an alternation nested in
     * term's, so it keeps its parentheses; plain characters merge into one
     * literal ("yz"); 0x1p-2 is 0.25. */
    check_import("t.tribble", tribble_calc,
                 "calc := line (\"\\n\" line)*;\n"
                 "line := 75% expr | 25% \"\";\n"
                 "expr := term ([a-c] term){,3} | \"-\"+ expr;\n"
                 "term := ([0-9]{2} | \"x\" \"yz\"? | \"q\") | \"\\\"\\\\\\t\" | \"(\" expr \")\";\n",
                 "");
}

TEST(tribble_brics_escapes_and_complement)
{
    /* \\ in TRIBBLE is one backslash for brics, which takes the next
     * character as it is: \\x20 is "x20", \\- is '-', with one warning.
     * ~[ab] is every string but "a" and "b": "" | [^ab] | .{2,}. */
    check_import("t.tribble", "s = /\\\\x2/ /[+\\\\-]/ /~[ab]/ ;\n",
                 "s := \"x2\" [+\\-] (\"\" | [^ab] | [\\u{0}-\\u{10FFFF}]{2,});\n",
                 "t.tribble:1:6: warning: in a regex a backslash takes the next character as "
                 "it is (dk.brics has no escapes like \\x20 or \\d), so here (1 place in the "
                 "file) it means the letter or digit itself, as in TRIBBLE\n"
                 "t.tribble:1:22: warning: '~' in a regex is every string but the ones it "
                 "names (dk.brics), which kpath writes as \"\" | [^...] | .{2,} (1 place in the "
                 "file); for one character other than those, write [^...]");
}

TEST(tribble_start_rule)
{
    /* No rule that nobody names: TRIBBLE would refuse; kpath starts at the
     * first rule and says so. */
    check_import("t.tribble", "a = b ;\nb = a | \"x\" ;\n", "a := b;\nb := a | \"x\";\n",
                 "t.tribble: warning: every rule is named by another rule, so TRIBBLE would "
                 "not know where to start; kpath starts at the first rule, 'a' (--start NAME "
                 "chooses another)");
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text("t.tribble", "x = y ;\ny = \"q\" ;\nz = y ;\n", "z", &d);
    CHECK(g != NULL);
    if (g)
        CHECK_STR(g->rules[g->start].name, "z");
    grammar_free(g);
    diag_list_free(&d);
}

TEST(tribble_errors_point_into_the_file)
{
    check_error("t.tribble", "s = \"a\" ;\ns = \"b\" ;\n",
                "t.tribble:2:1: error: rule 's' is defined twice (first at 1:1)");
    /* Two errors in one file: the reader goes on after the first rule. */
    check_error("t.tribble", "s = \"a\\q\" ;\nt = /a&b/ ;\n",
                "t.tribble:1:7: error: unknown escape in a literal (TRIBBLE has \\\" \\\\ \\n "
                "\\r \\t only)\n"
                "t.tribble:2:7: error: '&' (intersection) in a regex cannot be expressed in a "
                "context-free grammar; write \\& for the character");
    check_error("t.tribble", "s = \"a\" {1} ;\n",
                "t.tribble:1:9: error: repetition {1}: TRIBBLE takes {n} for n of 2 or more");
    check_error("t.tribble", "s = \"a\" @@1.5 ;\n",
                "t.tribble:1:9: error: '@@' needs a probability from 0 to 1, found '1.5'");
    check_error("t.tribble", "s = (\"a\" | \"b\" ;\n",
                "t.tribble:1:16: error: expected ')' to close the '(' at 1:5, found ';'");
    check_error("t.tribble", "s = /[a-/ ;\n",
                "t.tribble:1:6: error: unterminated class '[' in a regex");
    check_error("t.tribble", "s = /~(ab|c)/ ;\n",
                "t.tribble:1:6: error: '~' (complement) in a regex is supported only for a set "
                "of single characters; the complement of a longer string cannot be written "
                "without its automaton");
    check_error("t.tribble", "s = t ;\n", "t.tribble:1:5: error: undefined rule 't'");
    check_error("t.tribble", "/* open\n", "t.tribble:1:1: error: unterminated comment");
    check_error("t.tribble", "s = \"a\"\n", "t.tribble:2:1: error: expected '|' or ';' to end "
                                           "the rule, found the end of the file");
    check_error("t.tribble", "s = /a/\"b\" # ;\n",
                "t.tribble:1:12: error: unexpected character '#'");
}

TEST(round_trip_tribble)
{
    check_round_trip("t.tribble", tribble_calc, GRAMMAR_FORMAT_TRIBBLE, "tribble");
    check_round_trip("t.tribble", tribble_calc, GRAMMAR_FORMAT_EBNF, "ebnf");
    /* Classes with characters brics and TRIBBLE both quote. */
    check_round_trip("q.tribble", "s = /[\\\\]\\\\-\\\\^\\\\\\\\\\/\\\"\\n&~]/ s? | /./ ;\n",
                     GRAMMAR_FORMAT_TRIBBLE, "tribble");
    /* From ANTLR: the _skip rule and names. */
    check_round_trip("r.g4", round_trip_g4, GRAMMAR_FORMAT_TRIBBLE, "tribble");
}

/* ---- Fandango ------------------------------------------------------------ */

static const char *const fandango_items =
    "# a comment\n"
    "<start> ::= <item>+ \";\"? <rest> ;\n"
    "<item>  ::= ( \"a\" | 'b\\x41' ) <digit>{2} | r\"[x-z]\\d?\" | b\"\\x41\" | [\"pq\"]\n"
    "<rest> ::= <party:item> := make()\n"
    "def make():\n"
    "    return \"a\"\n"
    "\n"
    "where len(str(<start>)) > 1\n";

TEST(fandango_productions_strings_regexes_and_skipped_python)
{
    /* <party:item> stands for <item>; r"..." is a Python regex ([x-z] then
     * \d, ASCII, optional); b"\x41" is "A"; ["pq"] a class; <digit> comes
     * from the standard library, added after the file's rules. */
    check_import("f.fan", fandango_items,
                 "<start> := <item>+ \";\"? <rest>;\n"
                 "<item> := (\"a\" | \"bA\") <digit>{2} | [x-z] [0-9]? | \"A\" | [pq];\n"
                 "<rest> := <item>;\n"
                 "<digit> := [0-9];\n",
                 "f.fan:4:25: warning: 1 generator is ignored: kpath reads the grammar only\n"
                 "f.fan:5:1: warning: 1 Python statement is ignored: kpath reads the grammar "
                 "only\n"
                 "f.fan:8:1: warning: 1 constraint is ignored: kpath reads the grammar only");
    /* Python's escapes of the quote and the backslash drop the backslash;
     * counts as large as kpath's own grammars take. */
    check_import("f.fan", "<start> ::= \"a\\\"b\" 'c\\'d' \"e\\\\f\" \"g\"{4294967294} \"h\"{100000,}\n",
                 "<start> := \"a\\\"b\" \"c'd\" \"e\\\\f\" \"g\"{4294967294} \"h\"{100000,};\n", "");
    check_import("f.fan", "<start> ::= <a>\n<a> ::= \"x\"\n<a> ::= \"y\"\n",
                 "<start> := <a>;\n<a> := \"y\";\n",
                 "f.fan:3:1: warning: rule '<a>' is defined again: this definition replaces "
                 "the one at 2:1, as in Fandango");
}

TEST(fandango_errors_name_the_construct)
{
    check_error("f.fan", "<start> ::= \"a\" | \n",
                "f.fan:1:19: error: empty alternative (write \"\" for the empty string)");
    check_error("f.fan", "<start> ::= <a>{n}\n<a> ::= \"x\"\n",
                "f.fan:1:16: error: a repetition {...} with a Python expression is not "
                "supported; kpath takes whole numbers {n}, {n,}, {,m}, {n,m}");
    check_error("f.fan", "<start> ::= \"a\"{4294967295}\n",
                "f.fan:1:16: error: repetition count too large (the limit is 4294967294)");
    check_error("f.fan", "<start> ::= \"a\"{99999999999999999999}\n",
                "f.fan:1:16: error: repetition count too large (the limit is 4294967294)");
    check_error("f.fan", "<start> ::= \"a\"{3,2}\n",
                "f.fan:1:16: error: repetition {3,2}: the maximum is below the minimum");
    check_error("f.fan", "<start> ::= gen()\n",
                "f.fan:1:13: error: the generator call 'gen' in a grammar is not supported "
                "(it is a Python expression)");
    check_error("f.fan", "<start> ::= 0 1\n",
                "f.fan:1:13: error: bits (0 and 1) are not supported: kpath reads characters");
    check_error("f.fan", "<start> ::= [[ \"a\" \"b\" ]]\n",
                "f.fan:1:13: error: permutations [[...]] are not supported");
    check_error("f.fan", "<start> ::= r\"(?=a)b\"\n",
                "f.fan:1:15: error: '(?' in a regex (look-around, flags, conditionals) is not "
                "supported; only (?:...) and (?P<name>...) groups are");
    check_error("f.fan", "<start> ::= \"abc\n", "f.fan:1:13: error: unterminated string");
    /* include() reads the file from f.fan's directory (here: none). */
    check_error("f.fan", "include(\"x.fan\")\n<start> ::= \"a\"\n",
                "f.fan:1:1: note: included here\n"
                "x.fan: error: cannot read: No such file or directory");
    check_error("f.fan", "include(x)\n<start> ::= \"a\"\n",
                "f.fan:1:1: error: include takes a file name: include(\"file.fan\")");
    check_error("f.fan", "<start> ::= f\"{x}\"\n",
                "f.fan:1:13: error: f-strings in a grammar are not supported (they are Python "
                "expressions)");
    check_error("f.fan", "<start> ::= <nope>\n", "f.fan:1:13: error: undefined rule '<nope>'");
    check_error("f.fan", "def f():\n    pass\n",
                "f.fan: error: no productions '<name> ::= ...' in this file\n"
                "f.fan:1:1: warning: 1 Python statement is ignored: kpath reads the grammar "
                "only");
    /* Two errors in one file: the reader goes on with the next line. */
    check_error("f.fan", "<start> ::= gen()\n<b> ::= 0\n",
                "f.fan:1:13: error: the generator call 'gen' in a grammar is not supported "
                "(it is a Python expression)\n"
                "f.fan:2:9: error: bits (0 and 1) are not supported: kpath reads characters");
}

TEST(round_trip_fandango)
{
    const char *text = "<start> ::= <item>+ \";\"? <item>* ;\n"
                       "<item>  ::= ( \"a\" | 'b\\x41' ) <digit>{2,} | r\"[x-z]\\d?\" | [\"pq\"]\n";
    check_round_trip("f.fan", text, GRAMMAR_FORMAT_EBNF, "ebnf");
    check_round_trip("f.fan", text, GRAMMAR_FORMAT_TRIBBLE, "tribble");
}

/* ---- the Fandango writer -------------------------------------------------- */

/* Only what the Fandango writer may say: the start symbol to give Fandango,
 * weights left out. */
static bool fandango_writer_note(const struct diag *d)
{
    return d->severity == DIAG_WARNING &&
           (strstr(d->message, "Fandango starts at <start>, and this grammar starts at") ||
            strstr(d->message, "Fandango has no probabilities in its grammars"));
}

/* Load (a file when `text` is NULL), write as .fan, read that back with
 * kpath's .fan reader: the same graph, labels compared as `labels` says;
 * the .fan text goes to *fan_out when asked. */
static void check_fan_round_trip(const char *name, const char *text, char **fan_out,
                                 enum labels labels)
{
    struct diag_list d = DIAG_LIST_INIT, wd = DIAG_LIST_INIT, bd = DIAG_LIST_INIT;
    struct grammar *g = text ? open_text(name, text, NULL, &d)
                             : grammar_open(name, GRAMMAR_FORMAT_AUTO, NULL, &d);
    if (!CHECK(g != NULL)) {
        fprintf(stderr, "  (%s did not load)\n", name);
        diag_list_free(&d);
        return;
    }
    struct strbuf out = STRBUF_INIT;
    CHECK(grammar_export(g, GRAMMAR_FORMAT_FANDANGO, &out, &wd));
    for (size_t k = 0; k < wd.len; k++)
        if (!CHECK(fandango_writer_note(&wd.items[k])))
            fprintf(stderr, "  %s: %s\n", name, wd.items[k].message);
    struct grammar *back =
        grammar_open_string("back.fan", strbuf_str(&out), out.len, GRAMMAR_FORMAT_AUTO, NULL, &bd);
    if (!CHECK(back != NULL)) {
        char *m = diags_text(&bd);
        fprintf(stderr, "  %s: %s\n%s\n", name, m, strbuf_str(&out));
        free(m);
    } else {
        char *a = graph_text(g, labels), *b = graph_text(back, labels);
        if (!CHECK_STR(b, a))
            fprintf(stderr, "  (%s)\n", name);
        free(a);
        free(b);
    }
    if (fan_out)
        *fan_out = strbuf_detach(&out, NULL);
    strbuf_free(&out);
    grammar_free(back);
    grammar_free(g);
    diag_list_free(&d);
    diag_list_free(&wd);
    diag_list_free(&bd);
}

TEST(round_trip_fandango_every_bundled_and_test_grammar)
{
    /* Every grammar shipped in grammars/ and every valid test grammar, as
     * files (a new one is checked without a change here). */
    const char *patterns[] = {"grammars/*.ebnf", "tests/grammars/ok/*.ebnf"};
    size_t files = 0;
    for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++) {
        glob_t gl;
        char *pattern = strdup(harness_path(patterns[p]));
        if (glob(pattern, 0, NULL, &gl) == 0) {
            for (size_t k = 0; k < gl.gl_pathc; k++, files++)
                check_fan_round_trip(gl.gl_pathv[k], NULL, NULL, LABELS_CANONICAL);
            globfree(&gl);
        }
        free(pattern);
    }
    CHECK(files >= 20);
    /* The other formats' test grammars. */
    const char *formats[] = {"CalcParser.g4", "calc.tribble", "calc.fan", "fan-main.fan"};
    for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
        struct strbuf path = STRBUF_INIT;
        strbuf_addf(&path, "tests/grammars/formats/%s", formats[k]);
        check_fan_round_trip(harness_path(strbuf_str(&path)), NULL, NULL, LABELS_CANONICAL);
        strbuf_free(&path);
    }
    check_fan_round_trip("r.g4", round_trip_g4, NULL, LABELS_CANONICAL);
    check_fan_round_trip("t.tribble", tribble_calc, NULL, LABELS_CANONICAL);
    check_fan_round_trip("f.fan", fandango_items, NULL, LABELS_CANONICAL);
    check_fan_round_trip("f.json",
                         "{\"<start>\": [\"<list>\"],\n"
                         " \"<list>\": [\"[<item>(, <item>)*]\", \"[]\"],\n"
                         " \"<item>\": [[\"<digit>+\", {\"prob\": 0.5}], \"x<item>?\"],\n"
                         " \"<digit>\": [\"0\", \"1\", \"2\"]}\n",
                         NULL, LABELS_CANONICAL);
}

TEST(fandango_writer_names_literals_classes_and_groups)
{
    /* Worked out from Fandango's syntax (language/FandangoParser.g4): the
     * start rule first, and named <start> only when it is called start; a
     * rule start that is not the start rule gives the name up (start_2);
     * '-' and '.' become '_', a name clashing with one before it gets _2, a
     * keyword (if) gets '_', a leading digit a '_' before it.  Literals are
     * Python strings; classes raw strings of one regex class, \xNN for what
     * re or the raw string would take otherwise; a group under a quantifier,
     * a nested alternation and a nested sequence keep their parentheses. */
    char *fan = NULL;
    check_fan_round_trip("n.ebnf",
                         "top := start a-b a_b if | \"q\\\"\\\\\\n\\u{1}é\";\n"
                         "start := (a-b a_b)* [^\\]\\-^\\\\\"a-c] ;\n"
                         "a-b := (\"x\" | \"y\") (\"z\"{2,} (if)?)+ | \"\" ;\n"
                         "a_b := [\\t ] a_b? | (\"p\" (\"q\" \"r\")) \"s\"{,3} ;\n"
                         "if := ((\"1\")*)* | [\\u{0}-\\u{10FFFF}] \"s\"{1} \"t\"{2,4};\n"
                         "<9x> := \"n\";\n",
                         &fan, LABELS_NO_NAMES);
    CHECK_STR(fan,
              "# The start symbol: fandango fuzz --start-symbol='<top>'\n"
              "<top> ::= <start_2> <a_b> <a_b_2> <if_> | \"q\\\"\\\\\\n\\x01é\"\n"
              "<start_2> ::= (<a_b> <a_b_2>)* r\"[^\\x22\\x2d\\x5c-\\x5ea-c]\"\n"
              "<a_b> ::= (\"x\" | \"y\") (\"z\"{2,} <if_>?)+ | \"\"\n"
              "<a_b_2> ::= r\"[\\t\\x20]\" <a_b_2>? | (\"p\" (\"q\" \"r\")) \"s\"{,3}\n"
              "<if_> ::= (\"1\"*)* | r\"[\\x00-\\U0010ffff]\" \"s\"{1} \"t\"{2,4}\n"
              "<_9x> ::= \"n\"\n");
    free(fan);
    /* A start rule called start: no note. */
    struct diag_list d = DIAG_LIST_INIT;
    struct grammar *g = open_text("s.ebnf", "start := \"a\" | b;\nb := \"b\";\n", NULL, &d);
    struct strbuf out = STRBUF_INIT;
    CHECK(g && grammar_export(g, GRAMMAR_FORMAT_FANDANGO, &out, &d));
    CHECK_STR(strbuf_str(&out), "<start> ::= \"a\" | <b>\n<b> ::= \"b\"\n");
    CHECK_INT(d.len, 0);
    strbuf_free(&out);
    grammar_free(g);
    diag_list_free(&d);
}

TEST(antlr_unicode_properties_from_the_unicode_tables)
{
    /* \p{Lu} is the uppercase letters only (É U+00C9, Ω U+03A9), \p{Ll} the
     * lowercase ones, \p{Pc} holds '_', \P{Lu} is every other character and
     * U+3000 is a \p{Zs} space: "a" is no ID, "Éb_c" is one. */
    const char *g4 = "grammar P;\n"
                     "s : (ID | NOTU)* EOF ;\n"
                     "WS : [\\p{Zs}]+ -> skip ;\n"
                     "ID : [\\p{Lu}] [\\p{Ll}\\p{Pc}]* ;\n"
                     "NOTU : [\\P{Lu}] ;\n";
    check_lex("P.g4", g4, "a\xc3\x89" "b_c\xe3\x80\x80\xce\xa9" "1",
              "NOTU\"a\" ID\"\xc3\x89" "b_c\" ~WS\"\xe3\x80\x80\" ID\"\xce\xa9\" NOTU\"1\"");
    /* \p{S} has no letter, \p{ASCII} is ASCII, a script and a block. */
    const char *g4b = "grammar Q;\n"
                      "s : (SYM | ASC | GREEK | ARROW)* EOF ;\n"
                      "SYM : [\\p{S}] ;\n"
                      "ASC : [\\p{ASCII}] ;\n"
                      "GREEK : [\\p{Greek}]+ ;\n"
                      "ARROW : [\\p{InArrows}] ;\n";
    check_lex("Q.g4", g4b, "+x\xce\xb1\xce\xb2\xe2\x86\x92\xc3\xa9",
              "SYM\"+\" ASC\"x\" GREEK\"\xce\xb1\xce\xb2\" SYM\"\xe2\x86\x92\" !9");
    check_error("E.g4", "grammar E;\ns : A ;\nA : [a\\p{Greekk}] ;\n",
                "E.g4:3:7: error: unknown Unicode property \\p{Greekk} (kpath knows the general "
                "categories, binary properties, scripts, blocks (In...) and "
                "Grapheme_Cluster_Break=... of Unicode 15.0.0)");
}

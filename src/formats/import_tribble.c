/* import_tribble: TRIBBLE's text grammars (the published k-path tool) as
 * kpath grammars.
 *
 * The format, as TRIBBLE's parser reads it (its README, "Text Format"):
 *   Grammar       = Production+
 *   Production    = Name '=' Alternation ';'
 *   Alternation   = Concatenation ('|' Concatenation)*
 *   Concatenation = Atom+ ('@@' Probability)?
 *   Atom          = ('(' Alternation ')' | Regex | Literal | Name) Quant?
 *   Quant         = ? | * | + | {n} (n > 1) | {,m} | {n,} | {n,m}
 *   Name          = [A-Za-z0-9_$']+
 *   Literal       = "..." with the escapes \" \\ \n \r \t
 *   Regex         = /.../ in dk.brics.automaton syntax (src/formats/import_regex.h);
 *                   in it \" \\ \n \r \t are undone first, \/ \( \) are
 *                   handed on (so brics reads them as the characters)
 * with line comments (//) and nested block comments wherever blanks may be.  A probability
 * (a decimal or hexadecimal float from 0 to 1) is the weight of its
 * alternative.
 *
 * The start rule is the one rule no other rule names (TRIBBLE's rule), or
 * --start.  When there is no such rule, or more than one, TRIBBLE refuses
 * the grammar; kpath takes the first rule and says so in a warning.
 *
 * A regex becomes a tree of its own (kpath parses by characters), where
 * TRIBBLE keeps it as one terminal: k-paths through regexes differ from
 * TRIBBLE's.  In brics a backslash takes the next character as it is, so
 * /\\x20/ is the characters "x20"; kpath does the same and warns once, since
 * the author probably meant an escape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar_build.h"
#include "formats/import.h"
#include "formats/import_regex.h"
#include "base/escape.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define MAX_NESTING 200

enum tb_kind {
    TB_EOF, TB_NAME, TB_LITERAL, TB_REGEX, TB_PROB, TB_QUANT, TB_PUNCT, TB_ERROR,
};

struct tb_tok {
    enum tb_kind kind;
    struct src_pos pos, end;
    uint32_t punct;           /* PUNCT: = ; | ( ) */
    uint32_t min, max;        /* QUANT */
    double prob;              /* PROB */
};

struct tb {
    struct grammar *g;
    struct diag_list *diags;
    const char *file;
    struct text_cursor c;
    struct tb_tok t;          /* the current token */
    struct strbuf text;       /* NAME, LITERAL: the text */
    struct regex_char *rx;    /* REGEX: the characters, with positions */
    size_t rx_len, rx_cap;
    size_t errors;
    int depth;
    size_t odd_escapes;       /* \\ then a letter or digit in a regex */
    struct src_pos first_odd;
    struct regex_notes notes;
};

static void tb_error(struct tb *p, struct src_pos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void tb_error(struct tb *p, struct src_pos at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(p->diags, DIAG_ERROR, p->file, at.line, at.col, fmt, ap);
    va_end(ap);
    p->errors++;
    p->t.kind = TB_ERROR;
}

static uint32_t peek2(const struct tb *p)
{
    struct text_cursor c = p->c;
    text_cursor_next(&c);
    return text_cursor_peek(&c);
}

static bool at_end(const struct tb *p)
{
    return p->c.i >= p->c.len;
}

/* Blanks and comments; false after an unterminated comment (reported). */
static bool skip_blanks(struct tb *p)
{
    while (!at_end(p)) {
        uint32_t c = text_cursor_peek(&p->c);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            text_cursor_next(&p->c);
        } else if (c == '/' && peek2(p) == '/') {
            while (!at_end(p) && text_cursor_peek(&p->c) != '\n')
                text_cursor_next(&p->c);
        } else if (c == '/' && peek2(p) == '*') {
            struct src_pos open = text_cursor_pos(&p->c);
            text_cursor_next(&p->c);
            text_cursor_next(&p->c);
            size_t depth = 1; /* Scala's comments nest */
            while (depth && !at_end(p)) {
                uint32_t d = text_cursor_next(&p->c);
                if (d == '/' && text_cursor_peek(&p->c) == '*') {
                    text_cursor_next(&p->c);
                    depth++;
                } else if (d == '*' && text_cursor_peek(&p->c) == '/') {
                    text_cursor_next(&p->c);
                    depth--;
                }
            }
            if (depth) {
                tb_error(p, open, "unterminated comment");
                return false;
            }
        } else {
            break;
        }
    }
    return true;
}

static bool is_name_char(uint32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '\'';
}

/* After '"' (consumed). */
static void scan_literal(struct tb *p, struct src_pos open)
{
    strbuf_reset(&p->text);
    for (;;) {
        if (at_end(p)) {
            tb_error(p, open, "unterminated literal");
            return;
        }
        struct src_pos at = text_cursor_pos(&p->c);
        uint32_t c = text_cursor_next(&p->c);
        if (c == '"')
            break;
        if (c == '\\') {
            uint32_t e = text_cursor_next(&p->c);
            switch (e) {
            case '"': case '\\': c = e; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            default:
                tb_error(p, at, "unknown escape in a literal (TRIBBLE has \\\" \\\\ \\n \\r "
                                "\\t only)");
                return;
            }
        }
        strbuf_add_utf8(&p->text, c);
    }
    p->t.kind = TB_LITERAL;
}

static void rx_push(struct tb *p, uint32_t cp, struct src_pos at)
{
    p->rx = xgrow(p->rx, &p->rx_cap, p->rx_len + 1, sizeof *p->rx);
    p->rx[p->rx_len++] = (struct regex_char){cp, at};
}

/* After '/' (consumed): TRIBBLE's quoting undone, brics's left. */
static void scan_regex(struct tb *p, struct src_pos open)
{
    p->rx_len = 0;
    for (;;) {
        if (at_end(p)) {
            tb_error(p, open, "unterminated regex (a '/' inside it is written \\/)");
            return;
        }
        struct src_pos at = text_cursor_pos(&p->c);
        uint32_t c = text_cursor_next(&p->c);
        if (c == '/')
            break;
        if (c == '"') {
            tb_error(p, at, "'\"' in a regex is written \\\" in TRIBBLE");
            return;
        }
        if (c != '\\') {
            rx_push(p, c, at);
            continue;
        }
        uint32_t e = text_cursor_next(&p->c);
        switch (e) {
        case '"': rx_push(p, '"', at); break;
        case 'n': rx_push(p, '\n', at); break;
        case 'r': rx_push(p, '\r', at); break;
        case 't': rx_push(p, '\t', at); break;
        case '\\': {
            rx_push(p, '\\', at);
            uint32_t next = text_cursor_peek(&p->c);
            if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
                (next >= '0' && next <= '9')) {
                if (!p->odd_escapes++)
                    p->first_odd = at;
            }
            break;
        }
        case '/': case '(': case ')':
            rx_push(p, '\\', at);
            rx_push(p, e, at);
            break;
        default:
            tb_error(p, at, "unknown escape in a regex (TRIBBLE has \\\" \\\\ \\n \\r \\t "
                            "\\/ \\( \\) there)");
            return;
        }
    }
    p->t.kind = TB_REGEX;
}

static bool scan_number(struct tb *p, uint64_t *v)
{
    bool any = false;
    *v = 0;
    while (!at_end(p)) {
        uint32_t c = text_cursor_peek(&p->c);
        if (c < '0' || c > '9')
            break;
        text_cursor_next(&p->c);
        *v = *v < 100000000 ? *v * 10 + (c - '0') : *v;
        any = true;
    }
    return any;
}

/* After '{' (consumed): {n} (n > 1), {,m}, {n,}, {n,m}. */
static void scan_brace_quant(struct tb *p, struct src_pos open)
{
    uint64_t a = 0, b = 0;
    skip_blanks(p);
    bool has_a = scan_number(p, &a), comma = false, has_b = false;
    skip_blanks(p);
    if (text_cursor_peek(&p->c) == ',') {
        comma = true;
        text_cursor_next(&p->c);
        skip_blanks(p);
        has_b = scan_number(p, &b);
        skip_blanks(p);
    }
    if (text_cursor_peek(&p->c) != '}' || (!has_a && !has_b)) {
        tb_error(p, open, "expected a repetition {n}, {,m}, {n,} or {n,m}");
        return;
    }
    text_cursor_next(&p->c);
    if (!comma && a < 2) {
        tb_error(p, open, "repetition {%u}: TRIBBLE takes {n} for n of 2 or more",
                 (unsigned)a);
        return;
    }
    if (a > 65535 || b > 65535) {
        tb_error(p, open, "repetition count larger than 65535");
        return;
    }
    if (comma && has_b && (b < a || (a == 1 && b == 1))) {
        tb_error(p, open, "repetition {%u,%u}: the minimum must be at most the maximum, and "
                          "{1,1} is the atom itself", (unsigned)a, (unsigned)b);
        return;
    }
    p->t.kind = TB_QUANT;
    p->t.min = (uint32_t)a;
    p->t.max = !comma ? (uint32_t)a : has_b ? (uint32_t)b : QUANT_INFINITE;
}

/* After "@@" (consumed). */
static void scan_prob(struct tb *p, struct src_pos open)
{
    skip_blanks(p);
    strbuf_reset(&p->text);
    while (!at_end(p) && strchr("0123456789.xXabcdefABCDEFpP-", (int)text_cursor_peek(&p->c)) &&
           text_cursor_peek(&p->c))
        strbuf_addch(&p->text, (char)text_cursor_next(&p->c));
    char *end = NULL;
    double v = p->text.len ? strtod(strbuf_str(&p->text), &end) : -1;
    if (!p->text.len || *end || !(v >= 0 && v <= 1)) {
        tb_error(p, open, "'@@' needs a probability from 0 to 1, found '%s'",
                 strbuf_str(&p->text));
        return;
    }
    p->t.kind = TB_PROB;
    p->t.prob = v;
}

static void next(struct tb *p)
{
    if (p->t.kind == TB_ERROR)
        return;
    if (!skip_blanks(p))
        return;
    p->t.pos = text_cursor_pos(&p->c);
    if (at_end(p)) {
        p->t.kind = TB_EOF;
        p->t.end = p->t.pos;
        return;
    }
    uint32_t c = text_cursor_peek(&p->c);
    if (is_name_char(c)) {
        strbuf_reset(&p->text);
        while (!at_end(p) && is_name_char(text_cursor_peek(&p->c)))
            strbuf_addch(&p->text, (char)text_cursor_next(&p->c));
        p->t.kind = TB_NAME;
    } else {
        text_cursor_next(&p->c);
        switch (c) {
        case '"': scan_literal(p, p->t.pos); break;
        case '/': scan_regex(p, p->t.pos); break;
        case '{': scan_brace_quant(p, p->t.pos); break;
        case '?': case '*': case '+':
            p->t.kind = TB_QUANT;
            p->t.min = c == '+';
            p->t.max = c == '?' ? 1 : QUANT_INFINITE;
            break;
        case '@':
            if (text_cursor_peek(&p->c) == '@') {
                text_cursor_next(&p->c);
                scan_prob(p, p->t.pos);
                break;
            }
            /* fall through */
        default:
            if (strchr("=;|()", (int)c) && c) {
                p->t.kind = TB_PUNCT;
                p->t.punct = c;
            } else {
                struct strbuf sb = STRBUF_INIT;
                escape_add_code_point(&sb, c);
                tb_error(p, p->t.pos, "unexpected character '%s'", strbuf_str(&sb));
                strbuf_free(&sb);
            }
        }
    }
    p->t.end = text_cursor_pos(&p->c);
}

static bool is_punct(const struct tb *p, uint32_t c)
{
    return p->t.kind == TB_PUNCT && p->t.punct == c;
}

static const char *describe(const struct tb *p)
{
    switch (p->t.kind) {
    case TB_EOF: return "the end of the file";
    case TB_NAME: return "a name";
    case TB_LITERAL: return "a literal";
    case TB_REGEX: return "a regex";
    case TB_PROB: return "'@@'";
    case TB_QUANT: return "a quantifier";
    case TB_PUNCT:
        switch (p->t.punct) {
        case '=': return "'='";
        case ';': return "';'";
        case '|': return "'|'";
        case '(': return "'('";
        default: return "')'";
        }
    default: return "an error";
    }
}

static void expected(struct tb *p, const char *what)
{
    if (p->t.kind != TB_ERROR)
        tb_error(p, p->t.pos, "expected %s, found %s", what, describe(p));
}

static struct expr *parse_alternation(struct tb *p);

static struct expr *parse_atom(struct tb *p)
{
    struct src_pos at = p->t.pos;
    struct expr *e = NULL;
    switch (p->t.kind) {
    case TB_NAME:
        e = gb_ref(p->g, p->text.data, p->text.len, at, p->t.end);
        next(p);
        break;
    case TB_LITERAL:
        e = gb_lit(p->g, p->text.data ? p->text.data : "", p->text.len, at, p->t.end);
        next(p);
        break;
    case TB_REGEX: {
        size_t before = p->diags->errors;
        e = import_regex(p->g, REGEX_BRICS, p->rx, p->rx_len, p->t.end, p->file, p->diags,
                         &p->notes);
        if (!e) {
            p->errors += p->diags->errors - before;
            p->t.kind = TB_ERROR;
            return NULL;
        }
        next(p);
        break;
    }
    case TB_PUNCT:
        if (p->t.punct == '(') {
            if (p->depth >= MAX_NESTING) {
                tb_error(p, at, "parentheses nested deeper than %d", MAX_NESTING);
                return NULL;
            }
            next(p);
            p->depth++;
            e = parse_alternation(p);
            p->depth--;
            if (!e)
                return NULL;
            if (!is_punct(p, ')')) {
                char what[64];
                snprintf(what, sizeof what, "')' to close the '(' at %u:%u", at.line, at.col);
                expected(p, what);
                return NULL;
            }
            next(p);
            break;
        }
        /* fall through */
    default: expected(p, "a name, a literal, a regex or '('"); return NULL;
    }
    while (p->t.kind == TB_QUANT) {
        e = gb_quant(p->g, e, p->t.min, p->t.max, at, p->t.end);
        next(p);
    }
    return e;
}

static bool starts_atom(const struct tb *p)
{
    return p->t.kind == TB_NAME || p->t.kind == TB_LITERAL || p->t.kind == TB_REGEX ||
           is_punct(p, '(');
}

static struct expr *parse_alternation(struct tb *p)
{
    struct src_pos start = p->t.pos;
    struct expr_list alts = {0}, items = {0};
    double *weights = NULL;
    size_t wcap = 0;
    bool any_weight = false, ok = true;
    for (;;) {
        struct src_pos at = p->t.pos;
        items.len = 0;
        do {
            struct expr *e = parse_atom(p);
            if (!e) {
                ok = false;
                break;
            }
            expr_list_push(&items, e);
        } while (starts_atom(p));
        if (!ok)
            break;
        weights = xgrow(weights, &wcap, alts.len + 1, sizeof *weights);
        weights[alts.len] = -1;
        if (p->t.kind == TB_PROB) {
            weights[alts.len] = p->t.prob;
            any_weight = true;
            next(p);
        }
        expr_list_push(&alts, gb_seq(p->g, items.items, items.len, at, p->t.pos));
        if (!is_punct(p, '|'))
            break;
        next(p);
    }
    struct expr *e = NULL;
    if (ok)
        e = gb_alt(p->g, alts.items, alts.len, any_weight ? weights : NULL, start, p->t.pos);
    free(weights);
    expr_list_free(&alts);
    expr_list_free(&items);
    return e;
}

/* After an error: on to the token after the next ';' (a new rule). */
static void recover(struct tb *p)
{
    p->t.kind = TB_EOF;
    while (!at_end(p)) {
        uint32_t c = text_cursor_next(&p->c);
        if (c == ';')
            break;
    }
    next(p);
}

/* The rule no other rule names, as TRIBBLE starts; NULL when there is no
 * such rule or more than one (then *count says how many). */
static const char *tribble_root(const struct grammar *g, size_t *count)
{
    bool *named = xcalloc(g->nrules ? g->nrules : 1, sizeof *named);
    struct expr_list stack = {0};
    for (uint32_t r = 0; r < g->nrules; r++) {
        expr_list_push(&stack, g->rules[r].rhs);
        while (stack.len) {
            struct expr *e = stack.items[--stack.len];
            if (e->kind == EXPR_REF) {
                uint32_t t = grammar_find_rule(g, e->u.ref.name);
                if (t != RULE_NONE && t != r)
                    named[t] = true;
            }
            for (uint32_t k = 0; k < e->nchildren; k++)
                expr_list_push(&stack, e->children[k]);
        }
    }
    expr_list_free(&stack);
    const char *root = NULL;
    *count = 0;
    for (uint32_t r = 0; r < g->nrules; r++)
        if (!named[r] && !(*count)++)
            root = g->rules[r].name;
    free(named);
    return *count == 1 ? root : NULL;
}

struct grammar *import_tribble(const char *path, const char *text, size_t len,
                               const struct grammar_options *opts, struct diag_list *diags)
{
    /* a lone CR ends a line, as in every reader (base/line_end.h) */
    char *unified;
    if (!gb_reader_text(path, &text, len, &unified, diags))
        return NULL;
    struct tb p = {0};
    p.g = grammar_new(path);
    p.file = p.g->file;
    p.diags = diags;
    size_t errors_before = diags->errors;
    text_cursor_init(&p.c, text, len);
    next(&p);
    if (p.t.kind == TB_EOF)
        tb_error(&p, p.t.pos, "a TRIBBLE grammar needs at least one rule 'Name = ...;'");
    while (p.t.kind != TB_EOF) {
        if (p.t.kind == TB_ERROR) {
            recover(&p);
            continue;
        }
        if (p.t.kind != TB_NAME) {
            expected(&p, "a rule name");
            continue;
        }
        struct src_pos at = p.t.pos;
        char *name = xstrdup(strbuf_str(&p.text));
        next(&p);
        struct expr *rhs = NULL;
        if (!is_punct(&p, '='))
            expected(&p, "'=' after the rule name");
        else {
            next(&p);
            p.depth = 0;
            rhs = parse_alternation(&p);
            if (rhs && !is_punct(&p, ';'))
                expected(&p, "'|' or ';' to end the rule");
        }
        if (rhs && p.t.kind != TB_ERROR) {
            uint32_t old = grammar_find_rule(p.g, name);
            if (old != RULE_NONE)
                tb_error(&p, at, "rule '%s' is defined twice (first at %u:%u)", name,
                         p.g->rules[old].pos.line, p.g->rules[old].pos.col);
            else
                gb_add_rule(p.g, name, at, rhs);
            if (p.t.kind != TB_ERROR)
                next(&p);
        }
        free(name);
    }
    if (p.odd_escapes)
        diag_add(diags, DIAG_WARNING, p.file, p.first_odd.line, p.first_odd.col,
                 "in a regex a backslash takes the next character as it is (dk.brics has no "
                 "escapes like \\x20 or \\d), so here (%zu place%s in the file) it means "
                 "the letter or digit itself, as in TRIBBLE",
                 p.odd_escapes, p.odd_escapes == 1 ? "" : "s");
    if (p.notes.complements)
        diag_add(diags, DIAG_WARNING, p.file, p.notes.first_complement.line,
                 p.notes.first_complement.col,
                 "'~' in a regex is every string but the ones it names (dk.brics), which kpath "
                 "writes as \"\" | [^...] | .{2,} (%zu place%s in the file); for one "
                 "character other than those, write [^...]",
                 p.notes.complements, p.notes.complements == 1 ? "" : "s");
    bool ok = p.errors == 0;
    if (ok) {
        struct grammar_options o = {0};
        if (opts)
            o = *opts;
        if (!o.start) {
            size_t roots;
            o.start = tribble_root(p.g, &roots);
            if (!o.start) {
                o.start = p.g->rules[0].name;
                diag_add(diags, DIAG_WARNING, p.file, 0, 0,
                         "%s, so TRIBBLE would not know where to start; kpath starts at the "
                         "first rule, '%s' (--start NAME chooses another)",
                         roots ? "more than one rule is named by no other rule"
                               : "every rule is named by another rule",
                         o.start);
            }
        }
        ok = grammar_finish(p.g, &o, diags);
    }
    strbuf_free(&p.text);
    free(p.rx);
    free(unified);
    if (!ok || diags->errors > errors_before) {
        grammar_free(p.g);
        return NULL;
    }
    return p.g;
}

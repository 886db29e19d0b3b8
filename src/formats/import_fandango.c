/* import_fandango: the grammar part of Fandango's .fan files as kpath
 * grammars.
 *
 * What it reads, as Fandango's parser does (language/FandangoParser.g4):
 *   - productions `<name> ::= alternative`, ended by ';' or by the end of
 *     the line (a line ends a production only outside parentheses; a
 *     backslash at the end of a line joins the next one); '#' comments;
 *   - alternatives `a | b`, sequences, groups ( ), the quantifiers * + ?
 *     and {n} {n,} {,m} {n,m} with whole numbers;
 *   - references <name>, and <party:name> or <a:b:name> of protocol
 *     grammars, which stand for <name>;
 *   - Python strings "..." '...' """...""" with Python's escapes; bytes
 *     b"..." (each byte is the character U+0000..U+00FF); r"..." and rb"..."
 *     are regular expressions (src/formats/import_regex.h, Python's dialect);
 *   - the deprecated character sets ["abc"] and [^"abc"];
 *   - the standard library's character rules (<digit>, <letter>-like
 *     <ascii_letter>, <printable>, <byte>, <char>, ...) when the file uses
 *     them without defining them.
 * Skipped with one warning each, naming how many: generators (`::= ... :=
 * expression`), constraints (where, minimizing, maximizing) and other
 * Python code (def, class, import, ...).  An error, naming the construct:
 * generator calls as symbols, bits (0 and 1), permutations [[...]], counted
 * repetition with an expression and f-strings.  include("f.fan") reads f.fan
 * from the including file's directory at that place (at most 16 deep, no
 * file twice); its diagnostics name it.
 *
 * The start rule is <start> (Fandango's), or --start.  Rule names keep their
 * angle brackets, as in fuzzingbook's grammars.  A regex becomes a tree of
 * its own, where Fandango matches it as one terminal (the first match); the
 * grammar kpath reads can therefore accept more splits of an input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar_build.h"
#include "grammar/grammar_file.h"
#include "formats/import.h"
#include "formats/import_regex.h"
#include "base/line_end.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"

#define MAX_NESTING 200

struct fan {
    struct grammar *g;
    struct diag_list *diags;
    const char *file;
    struct text_cursor c;
    size_t errors;
    int depth;        /* parentheses in the current production */
    size_t generators, constraints, code;
    struct src_pos first_generator, first_constraint, first_code;
    bool failed;      /* the current production */
    const struct grammar_options *opts;
    int include_depth;
    char **included;  /* files read so far (owned), against include cycles */
    size_t nincluded;
};

#define MAX_INCLUDE_DEPTH 16

static void fan_error(struct fan *p, struct src_pos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fan_error(struct fan *p, struct src_pos at, const char *fmt, ...)
{
    if (p->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(p->diags, DIAG_ERROR, p->file, at.line, at.col, fmt, ap);
    va_end(ap);
    p->errors++;
    p->failed = true;
}

static bool at_end(const struct fan *p)
{
    return p->c.i >= p->c.len;
}

static uint32_t peek(const struct fan *p)
{
    return text_cursor_peek(&p->c);
}

static uint32_t peek_at(const struct fan *p, size_t ahead)
{
    struct text_cursor c = p->c;
    for (size_t k = 0; k < ahead; k++)
        text_cursor_next(&c);
    return text_cursor_peek(&c);
}

static bool starts_with(const struct fan *p, const char *s)
{
    size_t n = strlen(s);
    return p->c.len - p->c.i >= n && memcmp(p->c.src + p->c.i, s, n) == 0;
}

static void advance(struct fan *p, size_t n)
{
    while (n-- && !at_end(p))
        text_cursor_next(&p->c);
}

static bool is_ident_start(uint32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool is_ident_char(uint32_t c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Blanks, comments and joined lines; newlines too when `newlines` (inside
 * parentheses). */
static void skip_blanks(struct fan *p, bool newlines)
{
    while (!at_end(p)) {
        uint32_t c = peek(p);
        if (c == ' ' || c == '\t' || c == '\f' || (newlines && (c == '\n' || c == '\r')))
            text_cursor_next(&p->c);
        else if (c == '\\' && (peek_at(p, 1) == '\n' || peek_at(p, 1) == '\r'))
            advance(p, 2);
        else if (c == '#')
            while (!at_end(p) && peek(p) != '\n')
                text_cursor_next(&p->c);
        else
            break;
    }
}

/* ---- strings -------------------------------------------------------------- */

/* The prefix letters of a string at the cursor ("r", "rb", ...) and its
 * length, or 0 when no string starts here. */
static size_t string_prefix(const struct fan *p, bool *raw, bool *bytes, bool *fstring)
{
    *raw = *bytes = *fstring = false;
    size_t k = 0;
    for (; k < 2; k++) {
        uint32_t c = peek_at(p, k) | 0x20;
        if (c == 'r')
            *raw = true;
        else if (c == 'b')
            *bytes = true;
        else if (c == 'f')
            *fstring = true;
        else if (c == 'u' && k == 0)
            ;
        else
            break;
    }
    uint32_t q = peek_at(p, k);
    return q == '"' || q == '\'' ? k + 1 : 0;
}

/* A Python string literal at the cursor (prefix included): its characters
 * with their positions, escapes undone unless raw. */
static bool scan_string(struct fan *p, struct regex_char **out, size_t *n, size_t *cap,
                        bool *raw, bool *bytes)
{
    struct src_pos open = text_cursor_pos(&p->c);
    bool fstring;
    size_t len = string_prefix(p, raw, bytes, &fstring);
    advance(p, len - 1);
    uint32_t q = peek(p);
    bool triple = peek_at(p, 1) == q && peek_at(p, 2) == q;
    advance(p, triple ? 3 : 1);
    if (fstring) {
        fan_error(p, open, "f-strings in a grammar are not supported (they are Python "
                           "expressions)");
        return false;
    }
    *n = 0;
    for (;;) {
        if (at_end(p) || (!triple && (peek(p) == '\n' || peek(p) == '\r'))) {
            fan_error(p, open, "unterminated string");
            return false;
        }
        struct src_pos at = text_cursor_pos(&p->c);
        uint32_t c = text_cursor_next(&p->c);
        if (c == q && (!triple || (peek(p) == q && peek_at(p, 1) == q))) {
            if (triple)
                advance(p, 2);
            break;
        }
        if (c == '\\' && *raw) {
            /* A raw string keeps the backslash, but it still escapes a quote. */
            *out = xgrow(*out, cap, *n + 2, sizeof **out);
            (*out)[(*n)++] = (struct regex_char){c, at};
            if (!at_end(p))
                (*out)[(*n)++] = (struct regex_char){text_cursor_next(&p->c), at};
            continue;
        }
        if (c == '\\') {
            uint32_t e = at_end(p) ? 0 : text_cursor_next(&p->c);
            int digits = 0;
            switch (e) {
            case '\n': continue; /* a joined line */
            case '\\': case '\'': case '"': c = e; break;
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'f': c = '\f'; break;
            case 'v': c = '\v'; break;
            case 'a': c = '\a'; break;
            case 'b': c = '\b'; break;
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
                c = e - '0';
                for (int k = 0; k < 2 && peek(p) >= '0' && peek(p) <= '7'; k++)
                    c = c * 8 + (text_cursor_next(&p->c) - '0');
                break;
            case 'x': digits = 2; break;
            case 'u': digits = *bytes ? 0 : 4; break;
            case 'U': digits = *bytes ? 0 : 8; break;
            case 'N':
                if (!*bytes) {
                    fan_error(p, at, "'\\N{...}' escapes are not supported; write the "
                                     "character or \\u");
                    return false;
                }
                /* fall through */
            default:
                /* Python keeps an unknown escape as it is. */
                *out = xgrow(*out, cap, *n + 1, sizeof **out);
                (*out)[(*n)++] = (struct regex_char){'\\', at};
                c = e;
                break;
            }
            if (digits) {
                c = 0;
                for (int k = 0; k < digits; k++) {
                    uint32_t h = peek(p);
                    int v = h >= '0' && h <= '9'   ? (int)(h - '0')
                            : h >= 'a' && h <= 'f' ? (int)(h - 'a' + 10)
                            : h >= 'A' && h <= 'F' ? (int)(h - 'A' + 10)
                                                   : -1;
                    if (v < 0) {
                        fan_error(p, at, "'\\%c' needs %d hexadecimal digits", (char)e, digits);
                        return false;
                    }
                    c = c * 16 + (uint32_t)v;
                    text_cursor_next(&p->c);
                }
                if (c > UTF8_MAX_CODEPOINT) {
                    fan_error(p, at, "escape beyond U+10FFFF");
                    return false;
                }
            }
        }
        *out = xgrow(*out, cap, *n + 1, sizeof **out);
        (*out)[(*n)++] = (struct regex_char){c, at};
    }
    return true;
}

/* ---- productions ----------------------------------------------------------- */

static struct expr *parse_alternative(struct fan *p);

static bool at_production_end(struct fan *p)
{
    skip_blanks(p, p->depth > 0);
    if (at_end(p))
        return true;
    uint32_t c = peek(p);
    return c == ';' || c == '\n' || c == '\r' || c == '|' || c == ')' ||
           (c == ':' && (peek_at(p, 1) == '=' || peek_at(p, 1) == ':')) ||
           (c == '=' && peek_at(p, 1) != '=');
}

/* A whole number into *v, saturated at UINT32_MAX (too large for a bound:
 * parse_braces says so); false when no digit is here. */
static bool scan_uint(struct fan *p, uint32_t *v)
{
    bool any = false;
    uint64_t x = 0;
    while (peek(p) >= '0' && peek(p) <= '9') {
        x = x * 10 + (text_cursor_next(&p->c) - '0');
        if (x > UINT32_MAX)
            x = UINT32_MAX;
        any = true;
    }
    *v = (uint32_t)x;
    return any;
}

/* {n} {n,} {,m} {n,m} after '{' (consumed); the bounds as kpath's own
 * grammars take them (below QUANT_INFINITE). */
static bool parse_braces(struct fan *p, struct src_pos open, uint32_t *min, uint32_t *max)
{
    skip_blanks(p, true);
    uint32_t a = 0, b = 0;
    bool has_a = scan_uint(p, &a), comma = false, has_b = false;
    skip_blanks(p, true);
    if (peek(p) == ',') {
        comma = true;
        text_cursor_next(&p->c);
        skip_blanks(p, true);
        has_b = scan_uint(p, &b);
        skip_blanks(p, true);
    }
    if (peek(p) != '}' || (!has_a && !comma)) {
        fan_error(p, open, "a repetition {...} with a Python expression is not supported; "
                           "kpath takes whole numbers {n}, {n,}, {,m}, {n,m}");
        return false;
    }
    text_cursor_next(&p->c);
    if (a >= QUANT_INFINITE || b >= QUANT_INFINITE) {
        fan_error(p, open, "repetition count too large (the limit is %u)",
                  (unsigned)(QUANT_INFINITE - 1));
        return false;
    }
    if (comma && has_b && b < a) {
        fan_error(p, open, "repetition {%u,%u}: the maximum is below the minimum", a, b);
        return false;
    }
    *min = a;
    *max = !comma ? a : has_b ? b : QUANT_INFINITE;
    return true;
}

static struct expr *parse_symbol(struct fan *p)
{
    struct src_pos at = text_cursor_pos(&p->c);
    uint32_t c = peek(p);
    bool raw, bytes, fstring;
    if (c == '<') {
        /* <name>, <party:name>, <a:b:name>: the last name is the rule. */
        text_cursor_next(&p->c);
        size_t start = p->c.i, last = p->c.i;
        for (;;) {
            if (!is_ident_start(peek(p))) {
                fan_error(p, at, "expected a name after '<'");
                return NULL;
            }
            last = p->c.i;
            while (is_ident_char(peek(p)))
                text_cursor_next(&p->c);
            if (peek(p) != ':')
                break;
            text_cursor_next(&p->c);
        }
        (void)start;
        if (peek(p) != '>') {
            fan_error(p, at, "expected '>' to end the name");
            return NULL;
        }
        struct strbuf name = STRBUF_INIT;
        strbuf_addch(&name, '<');
        strbuf_add(&name, p->c.src + last, p->c.i - last);
        strbuf_addch(&name, '>');
        text_cursor_next(&p->c);
        struct expr *e = gb_ref(p->g, name.data, name.len, at, text_cursor_pos(&p->c));
        strbuf_free(&name);
        return e;
    }
    if (string_prefix(p, &raw, &bytes, &fstring)) {
        struct regex_char *chars = NULL;
        size_t n = 0, cap = 0;
        struct expr *e = NULL;
        if (scan_string(p, &chars, &n, &cap, &raw, &bytes)) {
            struct src_pos end = text_cursor_pos(&p->c);
            if (raw) {
                size_t before = p->diags->errors;
                e = import_regex(p->g, REGEX_PYTHON, chars, n, end, p->file, p->diags, NULL);
                if (!e) {
                    p->errors += p->diags->errors - before;
                    p->failed = true;
                }
            } else {
                struct strbuf sb = STRBUF_INIT;
                for (size_t k = 0; k < n; k++)
                    strbuf_add_utf8(&sb, chars[k].cp);
                e = gb_lit(p->g, sb.data ? sb.data : "", sb.len, at, end);
                strbuf_free(&sb);
            }
        }
        free(chars);
        return e;
    }
    if (c == '(') {
        if (p->depth >= MAX_NESTING) {
            fan_error(p, at, "parentheses nested deeper than %d", MAX_NESTING);
            return NULL;
        }
        text_cursor_next(&p->c);
        p->depth++;
        struct expr *e = parse_alternative(p);
        p->depth--;
        if (!e)
            return NULL;
        skip_blanks(p, true);
        if (peek(p) != ')') {
            fan_error(p, text_cursor_pos(&p->c), "expected ')' to close the '(' at %u:%u",
                      at.line, at.col);
            return NULL;
        }
        text_cursor_next(&p->c);
        return e;
    }
    if (c == '[') {
        if (peek_at(p, 1) == '[') {
            fan_error(p, at, "permutations [[...]] are not supported");
            return NULL;
        }
        /* The deprecated ["abc"] / [^"abc"]: one of the characters. */
        text_cursor_next(&p->c);
        skip_blanks(p, true);
        bool negated = false;
        if (peek(p) == '^') {
            negated = true;
            text_cursor_next(&p->c);
            skip_blanks(p, true);
        }
        struct regex_char *chars = NULL;
        size_t n = 0, cap = 0;
        if (!string_prefix(p, &raw, &bytes, &fstring)) {
            fan_error(p, at, "expected a string in the character set [\"...\"]");
            return NULL;
        }
        bool ok = scan_string(p, &chars, &n, &cap, &raw, &bytes);
        skip_blanks(p, true);
        if (ok && peek(p) != ']')
            fan_error(p, at, "expected ']' to end the character set");
        struct expr *e = NULL;
        if (ok && !p->failed) {
            text_cursor_next(&p->c);
            struct class_range *r = xmalloc((n ? n : 1) * sizeof *r);
            for (size_t k = 0; k < n; k++)
                r[k] = (struct class_range){chars[k].cp, chars[k].cp};
            e = gb_class(p->g, r, n, negated, at, text_cursor_pos(&p->c));
            free(r);
        }
        free(chars);
        return e;
    }
    if (c >= '0' && c <= '9') {
        fan_error(p, at, "bits (0 and 1) are not supported: kpath reads characters");
        return NULL;
    }
    if (is_ident_start(c)) {
        size_t from = p->c.i;
        while (is_ident_char(peek(p)))
            text_cursor_next(&p->c);
        fan_error(p, at, "the generator call '%.*s' in a grammar is not supported (it is a "
                         "Python expression)", (int)(p->c.i - from), p->c.src + from);
        return NULL;
    }
    struct strbuf sb = STRBUF_INIT;
    strbuf_add_utf8(&sb, c);
    fan_error(p, at, "unexpected '%s' in a production", strbuf_str(&sb));
    strbuf_free(&sb);
    return NULL;
}

static struct expr *parse_operator(struct fan *p)
{
    struct src_pos at = text_cursor_pos(&p->c);
    struct expr *e = parse_symbol(p);
    if (!e)
        return NULL;
    uint32_t c = peek(p), min, max;
    if (c == '*' || c == '+' || c == '?') {
        text_cursor_next(&p->c);
        return gb_quant(p->g, e, c == '+', c == '?' ? 1 : QUANT_INFINITE, at,
                        text_cursor_pos(&p->c));
    }
    if (c == '{') {
        struct src_pos open = text_cursor_pos(&p->c);
        text_cursor_next(&p->c);
        if (!parse_braces(p, open, &min, &max))
            return NULL;
        return gb_quant(p->g, e, min, max, at, text_cursor_pos(&p->c));
    }
    return e;
}

static struct expr *parse_alternative(struct fan *p)
{
    struct expr_list alts = {0}, items = {0};
    skip_blanks(p, p->depth > 0);
    struct src_pos start = text_cursor_pos(&p->c);
    for (;;) {
        struct src_pos at = text_cursor_pos(&p->c);
        items.len = 0;
        while (!at_production_end(p)) {
            struct expr *e = parse_operator(p);
            if (!e)
                break;
            expr_list_push(&items, e);
        }
        if (p->failed)
            break;
        if (!items.len) {
            fan_error(p, text_cursor_pos(&p->c), "empty alternative (write \"\" for the "
                                                 "empty string)");
            break;
        }
        expr_list_push(&alts, gb_seq(p->g, items.items, items.len, at, text_cursor_pos(&p->c)));
        if (peek(p) != '|')
            break;
        text_cursor_next(&p->c);
    }
    struct expr *e = NULL;
    if (!p->failed)
        e = gb_alt(p->g, alts.items, alts.len, NULL, start, text_cursor_pos(&p->c));
    expr_list_free(&alts);
    expr_list_free(&items);
    return e;
}

/* Past the rest of a statement: to the end of its line outside brackets
 * and strings, then every following line that is indented or blank (a
 * Python block). */
static void skip_statement(struct fan *p, bool block)
{
    int depth = 0;
    for (;;) {
        while (!at_end(p)) {
            uint32_t c = peek(p);
            bool raw, bytes, fstring;
            if (string_prefix(p, &raw, &bytes, &fstring) && !is_ident_char(p->c.i ? (uint32_t)(unsigned char)p->c.src[p->c.i - 1] : ' ')) {
                struct regex_char *chars = NULL;
                size_t n = 0, cap = 0;
                bool was_failed = p->failed;
                p->failed = true; /* no errors from skipped Python */
                raw = true;
                scan_string(p, &chars, &n, &cap, &raw, &bytes);
                p->failed = was_failed;
                free(chars);
                continue;
            }
            if (c == '#') {
                while (!at_end(p) && peek(p) != '\n')
                    text_cursor_next(&p->c);
                continue;
            }
            if (c == '\\' && peek_at(p, 1) == '\n') {
                advance(p, 2);
                continue;
            }
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                depth--;
            else if (c == '\n' && depth == 0)
                break;
            else if (c == ';' && depth == 0 && !block) {
                text_cursor_next(&p->c);
                return;
            }
            text_cursor_next(&p->c);
        }
        if (at_end(p))
            return;
        text_cursor_next(&p->c); /* the newline */
        /* An indented or blank line continues a block. */
        uint32_t c = peek(p);
        if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r'))
            return;
    }
}

static bool word_at(const struct fan *p, const char *w)
{
    size_t n = strlen(w);
    return starts_with(p, w) &&
           (p->c.i + n >= p->c.len || !is_ident_char((unsigned char)p->c.src[p->c.i + n]));
}

static void count(size_t *n, struct src_pos *first, struct src_pos at)
{
    if (!(*n)++)
        *first = at;
}

/* One production, the cursor at '<'; true when it was one. */
static bool production_ahead(const struct fan *p)
{
    if (peek(p) != '<')
        return false;
    struct text_cursor c = p->c;
    text_cursor_next(&c);
    while (is_ident_char(text_cursor_peek(&c)))
        text_cursor_next(&c);
    if (text_cursor_peek(&c) != '>')
        return false;
    text_cursor_next(&c);
    while (text_cursor_peek(&c) == ' ' || text_cursor_peek(&c) == '\t')
        text_cursor_next(&c);
    return c.len - c.i >= 3 && memcmp(c.src + c.i, "::=", 3) == 0;
}

static void parse_production(struct fan *p)
{
    struct src_pos at = text_cursor_pos(&p->c);
    text_cursor_next(&p->c);
    size_t from = p->c.i;
    while (peek(p) != '>')
        text_cursor_next(&p->c);
    struct strbuf name = STRBUF_INIT;
    strbuf_addch(&name, '<');
    strbuf_add(&name, p->c.src + from, p->c.i - from);
    strbuf_addch(&name, '>');
    text_cursor_next(&p->c);
    skip_blanks(p, false);
    advance(p, 3); /* ::= */
    p->failed = false;
    p->depth = 0;
    struct expr *rhs = parse_alternative(p);
    if (rhs) {
        skip_blanks(p, false);
        uint32_t c = peek(p);
        if (c == ':' || c == '=') {
            /* A generator: `:= expression` (or the deprecated = and ::). */
            count(&p->generators, &p->first_generator, text_cursor_pos(&p->c));
            skip_statement(p, false);
        } else if (c == ')') {
            fan_error(p, text_cursor_pos(&p->c), "unbalanced ')'");
        } else if (c == ';') {
            text_cursor_next(&p->c);
        }
    }
    if (rhs && !p->failed) {
        uint32_t old = grammar_find_rule(p->g, name.data);
        if (old != RULE_NONE) {
            /* Fandango lets a later definition replace an earlier one (it
             * is how a file overrides the standard library's). */
            diag_add(p->diags, DIAG_WARNING, p->file, at.line, at.col,
                     "rule '%s' is defined again: this definition replaces the one at "
                     "%s%s%u:%u, as in Fandango", name.data,
                     p->g->rules[old].file ? p->g->rules[old].file : "",
                     p->g->rules[old].file ? ":" : "", p->g->rules[old].pos.line,
                     p->g->rules[old].pos.col);
            p->g->rules[old].rhs = rhs;
            p->g->rules[old].pos = at;
            p->g->rules[old].file = p->file != p->g->file ? p->file : NULL;
        } else {
            uint32_t r = gb_add_rule(p->g, name.data, at, rhs);
            if (r != RULE_NONE && p->file != p->g->file)
                p->g->rules[r].file = p->file;
        }
    }
    if (p->failed)
        skip_statement(p, false);
    strbuf_free(&name);
}

/* The standard library's character rules, for the names a file uses
 * without defining them. */
static const struct {
    const char *name;
    const char *ranges; /* pairs lo hi, as characters; "\x01" stands for U+0000 */
    uint32_t hi_extra;  /* a last range up to this code point, from ranges' end */
} stdlib_rules[] = {
    {"<digit>", "09", 0},
    {"<hexdigit>", "09AFaf", 0},
    {"<octdigit>", "07", 0},
    {"<ascii_letter>", "AZaz", 0},
    {"<ascii_lowercase_letter>", "az", 0},
    {"<ascii_uppercase_letter>", "AZ", 0},
    {"<alphanum>", "09AZaz", 0},
    {"<alphanum_>", "09AZ__az", 0},
    {"<punctuation>", "!/:@[`{~", 0},
    {"<whitespace>", "\t\r  ", 0},
    {"<printable>", "\t\r ~", 0},
    {"<any_letter>", "09AZ__az", 0},
    {"<any_digit>", "09", 0},
    {"<any_whitespace>", "\t\r  ", 0},
    {"<ascii_char>", "", 0x7F},
    {"<byte>", "", 0xFF},
    {"<char>", "", UTF8_MAX_CODEPOINT},
};

static void add_stdlib(struct fan *p)
{
    struct expr_list stack = {0};
    uint32_t nrules = p->g->nrules;
    for (uint32_t r = 0; r < nrules; r++) {
        expr_list_push(&stack, p->g->rules[r].rhs);
        while (stack.len) {
            struct expr *e = stack.items[--stack.len];
            for (uint32_t k = 0; k < e->nchildren; k++)
                expr_list_push(&stack, e->children[k]);
            if (e->kind != EXPR_REF || grammar_find_rule(p->g, e->u.ref.name) != RULE_NONE)
                continue;
            for (size_t s = 0; s < sizeof stdlib_rules / sizeof *stdlib_rules; s++) {
                if (strcmp(stdlib_rules[s].name, e->u.ref.name) != 0)
                    continue;
                struct class_range r8[8];
                size_t n = 0;
                for (const char *q = stdlib_rules[s].ranges; q[0] && q[1]; q += 2)
                    r8[n++] = (struct class_range){(unsigned char)q[0], (unsigned char)q[1]};
                if (stdlib_rules[s].hi_extra)
                    r8[n++] = (struct class_range){0, stdlib_rules[s].hi_extra};
                struct src_pos none = {0, 0};
                gb_add_rule(p->g, stdlib_rules[s].name, none,
                            gb_class(p->g, r8, n, false, none, none));
            }
        }
    }
    expr_list_free(&stack);
}

static void warn_skipped(struct fan *p, size_t n, struct src_pos at, const char *what)
{
    if (n)
        diag_add(p->diags, DIAG_WARNING, p->file, at.line, at.col,
                 "%zu %s%s ignored: kpath reads the grammar only", n, what,
                 n == 1 ? " is" : "s are");
}

static void parse_include(struct fan *p, struct src_pos at);

/* Statements up to the end of the text at p->c. */
static void parse_file(struct fan *p)
{
    for (;;) {
        skip_blanks(p, true);
        if (at_end(p))
            break;
        struct src_pos at = text_cursor_pos(&p->c);
        p->failed = false;
        if (production_ahead(p)) {
            parse_production(p);
        } else if (peek(p) == ';') {
            text_cursor_next(&p->c);
        } else if (word_at(p, "include")) {
            parse_include(p, at);
        } else if (word_at(p, "where") || word_at(p, "minimizing") ||
                   word_at(p, "maximizing") || word_at(p, "forall") ||
                   word_at(p, "exists")) {
            count(&p->constraints, &p->first_constraint, at);
            skip_statement(p, true);
        } else {
            count(&p->code, &p->first_code, at);
            skip_statement(p, true);
        }
    }
}

/* include("file.fan"): the file, from the directory of the one naming it,
 * read here (its rules first; later definitions replace them). */
static void parse_include(struct fan *p, struct src_pos at)
{
    advance(p, strlen("include"));
    skip_blanks(p, true);
    bool raw, bytes, fstring;
    struct regex_char *chars = NULL;
    size_t n = 0, cap = 0;
    bool ok = peek(p) == '(';
    if (ok) {
        text_cursor_next(&p->c);
        skip_blanks(p, true);
        ok = string_prefix(p, &raw, &bytes, &fstring) && scan_string(p, &chars, &n, &cap, &raw,
                                                                      &bytes);
    }
    skip_statement(p, false);
    if (!ok) {
        fan_error(p, at, "include takes a file name: include(\"file.fan\")");
        free(chars);
        return;
    }
    struct strbuf path = STRBUF_INIT;
    const char *slash = strrchr(p->file, '/');
    if (slash)
        strbuf_add(&path, p->file, (size_t)(slash - p->file) + 1);
    for (size_t k = 0; k < n; k++)
        strbuf_add_utf8(&path, chars[k].cp);
    free(chars);
    bool cycle = false;
    for (size_t k = 0; k < p->nincluded; k++)
        cycle = cycle || strcmp(p->included[k], strbuf_str(&path)) == 0;
    struct strbuf text = STRBUF_INIT;
    if (cycle || p->include_depth >= MAX_INCLUDE_DEPTH) {
        fan_error(p, at, "include of '%s': %s", strbuf_str(&path),
                  cycle ? "the file is already included" : "includes nested too deeply");
    } else if (!grammar_read_file(strbuf_str(&path), p->opts, &text, p->diags)) {
        p->errors++;
        diag_add(p->diags, DIAG_NOTE, p->file, at.line, at.col, "included here");
    } else if (line_end_unify_in_place(text.data, text.len), /* as the main file */
               gb_check_utf8(strbuf_str(&path), text.data ? text.data : "", text.len, p->diags)) {
        p->included = xrealloc(p->included, (p->nincluded + 1) * sizeof *p->included);
        p->included[p->nincluded++] = xstrdup(strbuf_str(&path));
        struct text_cursor saved = p->c;
        const char *saved_file = p->file;
        p->file = arena_strndup(&p->g->arena, path.data, path.len);
        text_cursor_init(&p->c, text.data ? text.data : "", text.len);
        p->include_depth++;
        parse_file(p);
        p->include_depth--;
        p->c = saved;
        p->file = saved_file;
    } else {
        p->errors++;
    }
    strbuf_free(&text);
    strbuf_free(&path);
}

struct grammar *import_fandango(const char *path, const char *text, size_t len,
                                const struct grammar_options *opts, struct diag_list *diags)
{
    /* a lone CR ends a line, as in every reader (base/line_end.h) */
    char *unified;
    if (!gb_reader_text(path, &text, len, &unified, diags))
        return NULL;
    struct fan p = {0};
    p.g = grammar_new(path);
    p.file = p.g->file;
    p.diags = diags;
    size_t errors_before = diags->errors;
    p.opts = opts;
    text_cursor_init(&p.c, text, len);
    parse_file(&p);
    warn_skipped(&p, p.generators, p.first_generator, "generator");
    warn_skipped(&p, p.constraints, p.first_constraint, "constraint");
    warn_skipped(&p, p.code, p.first_code, "Python statement");
    bool ok = p.errors == 0;
    if (ok && !p.g->nrules) {
        diag_add(diags, DIAG_ERROR, p.file, 0, 0,
                 "no productions '<name> ::= ...' in this file");
        ok = false;
    }
    if (ok) {
        add_stdlib(&p);
        struct grammar_options o = {0};
        if (opts)
            o = *opts;
        if (!o.start)
            o.start = grammar_find_rule(p.g, "<start>") != RULE_NONE ? "<start>"
                                                                     : p.g->rules[0].name;
        ok = grammar_finish(p.g, &o, diags);
    }
    for (size_t k = 0; k < p.nincluded; k++)
        free(p.included[k]);
    free(p.included);
    free(unified);
    if (!ok || diags->errors > errors_before) {
        grammar_free(p.g);
        return NULL;
    }
    return p.g;
}

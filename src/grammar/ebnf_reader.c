/* ebnf_reader: kpath's own grammar format (.ebnf) read into the syntax tree:
 * grammar_load_string, declared in grammar.h with the rest of a grammar's
 * contract (grammar_load_file in grammar_file.c reads a file and calls it).
 *
 * The reader runs in passes, each linear in the size of the input:
 *   1. UTF-8 validation (an invalid file is not parsed at all);
 *   2. lexing and parsing into the syntax tree; the parser is a loop over an
 *      explicit stack of open parentheses, so nesting depth costs heap, not
 *      C stack;
 *   3. the rules' spans in the source, when the file has no syntax errors;
 *   4. the checks of grammar_check.h: references resolved through the name
 *      index; when there is no syntax error, the start rule and reachability;
 *      when there is no error but weight errors, productivity.
 * Every diagnostic goes to the caller's diag_list; nothing is printed. */
#include "grammar/grammar.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/line_end.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "grammar/grammar_check.h"
#include "grammar/grammar_private.h"
#include "base/number.h"

#define SURROGATE_LO UTF8_SURROGATE_LO
#define SURROGATE_HI UTF8_SURROGATE_HI
#define WEIGHT_EPSILON 1e-9

/* ---- tokens ------------------------------------------------------------- */

enum tok_kind {
    TOK_EOF,
    TOK_ERROR, /* a lexical error, already reported */
    TOK_NAME,
    TOK_DEFINE,
    TOK_STRING,
    TOK_CLASS,
    TOK_NUMBER,
    TOK_PIPE,
    TOK_SEMI,
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_LBRACE,
    TOK_RBRACE,
    TOK_COMMA,
    TOK_QUEST,
    TOK_STAR,
    TOK_PLUS,
    TOK_PERCENT,
    TOK_ATAT,
};

struct token {
    enum tok_kind kind;
    struct src_pos pos, end;
    size_t start, stop;          /* byte offsets in the source */
    char *text;                  /* STRING: decoded, in the arena */
    size_t len;
    struct class_range *ranges;  /* CLASS: sorted and merged, in the arena */
    uint32_t nranges;
    bool negated;
};

/* ---- parser state ------------------------------------------------------- */

/* An item of the alternative being parsed; start/end cover what was written
 * (the parentheses of a group included), which the expr itself may not. */
struct item {
    struct expr *e;
    struct src_pos start, end;
};

/* A finished alternative waiting for its alternation to close. */
struct alt_entry {
    struct expr *e;
    double weight; /* negative when not annotated */
    struct src_pos weight_pos, start, end;
};

/* An open alternation: the rule's right-hand side or a parenthesized group. */
struct frame {
    bool is_group;
    size_t items_base, alts_base; /* where its entries start on the stacks */
    struct src_pos open_pos;      /* of the '(' */
    struct src_pos alt_start;     /* of the current alternative */
    double weight;                /* of the current alternative, or negative */
    struct src_pos weight_pos;
    bool has_prefix;
};

enum error_kind { ERR_SYNTAX, ERR_WEIGHT, ERR_OTHER };

struct loader {
    struct grammar *g;
    struct diag_list *diags;
    const char *file;

    const char *src;
    size_t len, i;
    uint32_t line, col;

    struct token tok[2]; /* the current token and the next one */
    struct src_pos prev_end;
    size_t prev_stop;    /* byte offset just past the previous token */

    struct strbuf sbuf;                 /* scratch for string contents */
    struct class_range *cr;             /* scratch for class ranges */
    size_t ncr, cr_cap;

    struct frame *frames;
    size_t nframes, frames_cap;
    struct item *items;
    size_t nitems, items_cap;
    struct alt_entry *alts;
    size_t nalts, alts_cap;

    struct expr **exprs; /* every expr, by id */
    size_t nexprs, exprs_cap;
    struct expr **refs;  /* every EXPR_REF */
    size_t nrefs, refs_cap;
    uint32_t cur_rule;   /* rule of the exprs being built; RULE_NONE for a duplicate */

    size_t syntax_errors, weight_errors;
};

static void error_at(struct loader *L, enum error_kind kind, struct src_pos pos,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void error_at(struct loader *L, enum error_kind kind, struct src_pos pos,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(L->diags, DIAG_ERROR, L->file, pos.line, pos.col, fmt, ap);
    va_end(ap);
    if (kind == ERR_SYNTAX)
        L->syntax_errors++;
    else if (kind == ERR_WEIGHT)
        L->weight_errors++;
}

/* ---- character helpers -------------------------------------------------- */

static bool is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool is_name_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool is_name_char(unsigned char c)
{
    return is_name_start(c) || is_digit(c) || c == '.' || c == '-';
}

/* A character for a message: 'c', 'é' (U+00E9), or U+0009 for controls. */
static void describe_char(struct strbuf *sb, uint32_t cp)
{
    if (cp >= 0x21 && cp <= 0x7E)
        strbuf_addf(sb, "'%c'", (char)cp);
    else if (cp >= 0xA0 && escape_is_safe(cp)) {
        strbuf_addch(sb, '\'');
        strbuf_add_utf8(sb, cp);
        strbuf_addf(sb, "' (U+%04X)", (unsigned)cp);
    } else {
        strbuf_addf(sb, "U+%04X", (unsigned)cp);
    }
}

/* ---- lexer -------------------------------------------------------------- */

static struct src_pos here(const struct loader *L)
{
    return (struct src_pos){L->line, L->col};
}

static bool at_end(const struct loader *L)
{
    return L->i >= L->len;
}

static unsigned char peek_byte(const struct loader *L, size_t ahead)
{
    return L->i + ahead < L->len ? (unsigned char)L->src[L->i + ahead] : 0;
}

/* The source is valid UTF-8 by now, so the lead byte gives the length. */
static size_t seq_len(unsigned char c)
{
    return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

static uint32_t current_cp(const struct loader *L)
{
    uint32_t cp = 0;
    if (!utf8_decode(L->src + L->i, L->len - L->i, &cp))
        cp = (unsigned char)L->src[L->i];
    return cp;
}

static void advance(struct loader *L)
{
    unsigned char c = (unsigned char)L->src[L->i];
    if (c == '\n') {
        L->line++;
        L->col = 1;
        L->i++;
        return;
    }
    size_t n = seq_len(c);
    L->i = L->i + n > L->len ? L->len : L->i + n;
    L->col++;
}

static bool at_line_end(const struct loader *L)
{
    return at_end(L) || L->src[L->i] == '\n' || L->src[L->i] == '\r';
}

/* At a backslash inside a string or class: decode one escape into *cp.
 * Returns false after reporting a bad escape (skipped), or silently when the
 * line ends right after the backslash (the caller reports the unterminated
 * string or class). */
static bool lex_escape(struct loader *L, bool in_class, uint32_t *cp)
{
    struct src_pos at = here(L);
    advance(L); /* the backslash */
    if (at_line_end(L))
        return false;
    unsigned char c = peek_byte(L, 0);
    switch (c) {
    case 'n': *cp = '\n'; advance(L); return true;
    case 'r': *cp = '\r'; advance(L); return true;
    case 't': *cp = '\t'; advance(L); return true;
    case '\\': case '"': case '\'':
        *cp = c;
        advance(L);
        return true;
    case ']': case '[': case '-': case '^':
        if (!in_class)
            break;
        *cp = c;
        advance(L);
        return true;
    case 'x': {
        advance(L);
        uint32_t v = 0;
        int digits = 0;
        while (digits < 2 && !at_end(L) && number_hex_digit(peek_byte(L, 0)) >= 0) {
            v = v * 16 + (uint32_t)number_hex_digit(peek_byte(L, 0));
            advance(L);
            digits++;
        }
        if (digits < 2) {
            error_at(L, ERR_SYNTAX, at, "invalid escape '\\x': write two hex digits, as in \\x41");
            return false;
        }
        *cp = v;
        return true;
    }
    case 'u': {
        advance(L);
        bool ok = peek_byte(L, 0) == '{';
        uint32_t v = 0;
        int digits = 0;
        if (ok) {
            advance(L);
            while (!at_end(L) && number_hex_digit(peek_byte(L, 0)) >= 0) {
                if (digits < 7)
                    v = v * 16 + (uint32_t)number_hex_digit(peek_byte(L, 0));
                advance(L);
                digits++;
            }
            ok = digits >= 1 && digits <= 6 && peek_byte(L, 0) == '}';
            if (peek_byte(L, 0) == '}')
                advance(L);
        }
        if (!ok) {
            error_at(L, ERR_SYNTAX, at,
                     "invalid escape '\\u': write 1 to 6 hex digits in braces, as in \\u{1F600}");
            return false;
        }
        if (v > UTF8_MAX_CODEPOINT || (v >= SURROGATE_LO && v <= SURROGATE_HI)) {
            error_at(L, ERR_SYNTAX, at, "invalid code point U+%04X in escape", (unsigned)v);
            return false;
        }
        *cp = v;
        return true;
    }
    default:
        break;
    }
    uint32_t bad = current_cp(L);
    advance(L);
    struct strbuf sb = STRBUF_INIT;
    if ((bad >= 0x21 && bad <= 0x7E) || bad >= 0xA0) {
        strbuf_addstr(&sb, "'\\");
        strbuf_add_utf8(&sb, bad);
        strbuf_addch(&sb, '\'');
    } else {
        strbuf_addf(&sb, "'\\' followed by U+%04X", (unsigned)bad);
    }
    error_at(L, ERR_SYNTAX, at, "unknown escape %s", strbuf_str(&sb));
    strbuf_free(&sb);
    return false;
}

static void lex_string(struct loader *L, struct token *t)
{
    unsigned char quote = peek_byte(L, 0);
    advance(L);
    strbuf_reset(&L->sbuf);
    for (;;) {
        if (at_line_end(L)) {
            error_at(L, ERR_SYNTAX, t->pos, "unterminated string");
            t->kind = TOK_ERROR;
            return;
        }
        unsigned char c = peek_byte(L, 0);
        if (c == quote) {
            advance(L);
            break;
        }
        if (c == '\\') {
            uint32_t cp;
            if (lex_escape(L, false, &cp))
                strbuf_add_utf8(&L->sbuf, cp);
            continue;
        }
        size_t start = L->i;
        advance(L);
        strbuf_add(&L->sbuf, L->src + start, L->i - start);
    }
    t->kind = TOK_STRING;
    t->len = L->sbuf.len;
    t->text = arena_strndup(&L->g->arena, strbuf_str(&L->sbuf), L->sbuf.len);
}

static int range_cmp(const void *a, const void *b)
{
    const struct class_range *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return 0;
}

/* One character of a class, raw or escaped. */
static bool lex_class_char(struct loader *L, uint32_t *cp)
{
    if (peek_byte(L, 0) == '\\')
        return lex_escape(L, true, cp);
    *cp = current_cp(L);
    advance(L);
    return true;
}

static void lex_class(struct loader *L, struct token *t)
{
    advance(L); /* [ */
    bool negated = false;
    if (peek_byte(L, 0) == '^') {
        negated = true;
        advance(L);
    }
    L->ncr = 0;
    bool any_item = false;
    for (;;) {
        if (at_line_end(L)) {
            error_at(L, ERR_SYNTAX, t->pos, "unterminated class");
            t->kind = TOK_ERROR;
            return;
        }
        if (peek_byte(L, 0) == ']') {
            advance(L);
            break;
        }
        any_item = true;
        struct src_pos item_pos = here(L);
        size_t item_start = L->i;
        uint32_t lo = 0, hi = 0;
        bool ok = lex_class_char(L, &lo);
        hi = lo;
        if (peek_byte(L, 0) == '-' && L->i + 1 < L->len && peek_byte(L, 1) != ']' &&
            peek_byte(L, 1) != '\n' && peek_byte(L, 1) != '\r') {
            advance(L); /* - */
            ok = lex_class_char(L, &hi) && ok;
            if (ok && lo > hi) {
                error_at(L, ERR_SYNTAX, item_pos, "inverted range '%.*s' in class",
                         (int)(L->i - item_start), L->src + item_start);
                ok = false;
            }
        }
        if (ok) {
            L->cr = xgrow(L->cr, &L->cr_cap, L->ncr + 1, sizeof *L->cr);
            L->cr[L->ncr++] = (struct class_range){lo, hi};
        }
    }
    if (!any_item)
        error_at(L, ERR_SYNTAX, t->pos, "empty class '%.*s'", (int)(L->i - t->start),
                 L->src + t->start);
    if (L->ncr > 1)
        qsort(L->cr, L->ncr, sizeof *L->cr, range_cmp);
    size_t n = 0;
    for (size_t k = 0; k < L->ncr; k++) {
        if (n && L->cr[k].lo <= L->cr[n - 1].hi + 1) {
            if (L->cr[k].hi > L->cr[n - 1].hi)
                L->cr[n - 1].hi = L->cr[k].hi;
        } else {
            L->cr[n++] = L->cr[k];
        }
    }
    t->kind = TOK_CLASS;
    t->negated = negated;
    t->nranges = (uint32_t)n;
    t->ranges = arena_alloc(&L->g->arena, (n ? n : 1) * sizeof *t->ranges);
    if (n)
        memcpy(t->ranges, L->cr, n * sizeof *t->ranges);
}

/* Skips whitespace and comments; false after an unterminated comment. */
static bool skip_blank(struct loader *L, struct token *t)
{
    while (!at_end(L)) {
        unsigned char c = peek_byte(L, 0);
        if (is_space(c)) {
            advance(L);
        } else if (c == '#' || (c == '/' && peek_byte(L, 1) == '/')) {
            while (!at_end(L) && peek_byte(L, 0) != '\n')
                advance(L);
        } else if (c == '/' && peek_byte(L, 1) == '*') {
            struct src_pos open = here(L);
            size_t open_i = L->i;
            advance(L);
            advance(L);
            for (;;) {
                if (at_end(L)) {
                    error_at(L, ERR_SYNTAX, open, "unterminated comment");
                    t->kind = TOK_ERROR;
                    t->pos = open;
                    t->start = open_i;
                    return false;
                }
                if (peek_byte(L, 0) == '*' && peek_byte(L, 1) == '/') {
                    advance(L);
                    advance(L);
                    break;
                }
                advance(L);
            }
        } else {
            break;
        }
    }
    return true;
}

static void lex(struct loader *L, struct token *t)
{
    memset(t, 0, sizeof *t);
    if (!skip_blank(L, t)) {
        t->stop = L->i;
        t->end = here(L);
        return;
    }
    t->pos = here(L);
    t->start = L->i;
    if (at_end(L)) {
        t->kind = TOK_EOF;
        t->stop = L->i;
        t->end = t->pos;
        return;
    }
    unsigned char c = peek_byte(L, 0);
    enum tok_kind single = TOK_EOF;
    switch (c) {
    case '|': single = TOK_PIPE; break;
    case ';': single = TOK_SEMI; break;
    case '(': single = TOK_LPAREN; break;
    case ')': single = TOK_RPAREN; break;
    case '{': single = TOK_LBRACE; break;
    case '}': single = TOK_RBRACE; break;
    case ',': single = TOK_COMMA; break;
    case '?': single = TOK_QUEST; break;
    case '*': single = TOK_STAR; break;
    case '+': single = TOK_PLUS; break;
    case '%': single = TOK_PERCENT; break;
    case '=': single = TOK_DEFINE; break;
    default: break;
    }
    if (single != TOK_EOF) {
        t->kind = single;
        advance(L);
    } else if (is_name_start(c)) {
        while (!at_end(L) && is_name_char(peek_byte(L, 0)))
            advance(L);
        t->kind = TOK_NAME;
    } else if (c == '<') {
        advance(L);
        while (!at_end(L) && !is_space(peek_byte(L, 0)) && peek_byte(L, 0) != '>')
            advance(L);
        if (peek_byte(L, 0) == '>' && !at_end(L) && L->i - t->start > 1) {
            advance(L);
            t->kind = TOK_NAME;
        } else if (peek_byte(L, 0) == '>' && !at_end(L)) {
            advance(L);
            error_at(L, ERR_SYNTAX, t->pos, "empty name '<>'");
            t->kind = TOK_ERROR;
        } else {
            error_at(L, ERR_SYNTAX, t->pos,
                     "unterminated name: '<' needs a closing '>' before any whitespace");
            t->kind = TOK_ERROR;
        }
    } else if (c == '"' || c == '\'') {
        lex_string(L, t);
    } else if (c == '[') {
        lex_class(L, t);
    } else if (is_digit(c) || (c == '.' && is_digit(peek_byte(L, 1)))) {
        while (!at_end(L) && is_digit(peek_byte(L, 0)))
            advance(L);
        if (peek_byte(L, 0) == '.' && is_digit(peek_byte(L, 1))) {
            advance(L);
            while (!at_end(L) && is_digit(peek_byte(L, 0)))
                advance(L);
        }
        t->kind = TOK_NUMBER;
    } else if (c == ':' && peek_byte(L, 1) == '=') {
        advance(L);
        advance(L);
        t->kind = TOK_DEFINE;
    } else if (c == ':' && peek_byte(L, 1) == ':' && peek_byte(L, 2) == '=') {
        advance(L);
        advance(L);
        advance(L);
        t->kind = TOK_DEFINE;
    } else if (c == '@' && peek_byte(L, 1) == '@') {
        advance(L);
        advance(L);
        t->kind = TOK_ATAT;
    } else {
        uint32_t cp = current_cp(L);
        advance(L);
        struct strbuf sb = STRBUF_INIT;
        describe_char(&sb, cp);
        error_at(L, ERR_SYNTAX, t->pos, "unexpected character %s", strbuf_str(&sb));
        strbuf_free(&sb);
        t->kind = TOK_ERROR;
    }
    t->stop = L->i;
    t->end = here(L);
}

static void next_token(struct loader *L)
{
    L->prev_end = L->tok[0].end;
    L->prev_stop = L->tok[0].stop;
    L->tok[0] = L->tok[1];
    lex(L, &L->tok[1]);
}

/* The current token and the next one start a new rule: NAME DEFINE. */
static bool at_rule_start(const struct loader *L)
{
    return L->tok[0].kind == TOK_NAME && L->tok[1].kind == TOK_DEFINE;
}

static bool at_rule_end(const struct loader *L)
{
    return L->tok[0].kind == TOK_EOF || at_rule_start(L);
}

/* How a message names a token: 'x', string "abc", class [a-z], end of file. */
static void describe_token(const struct loader *L, const struct token *t, struct strbuf *sb)
{
    if (t->kind == TOK_EOF) {
        strbuf_addstr(sb, "end of file");
        return;
    }
    const char *s = L->src + t->start;
    size_t n = t->stop - t->start, cut = n;
    if (cut > 40) {
        cut = 37;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--;
    }
    if (t->kind == TOK_STRING)
        strbuf_addstr(sb, "string ");
    else if (t->kind == TOK_CLASS)
        strbuf_addstr(sb, "class ");
    else
        strbuf_addch(sb, '\'');
    strbuf_add(sb, s, cut);
    if (cut < n)
        strbuf_addstr(sb, "...");
    if (t->kind != TOK_STRING && t->kind != TOK_CLASS)
        strbuf_addch(sb, '\'');
}

/* "expected WHAT, found TOKEN" at the current token, unless the lexer already
 * reported it. */
static void expected(struct loader *L, const char *what)
{
    const struct token *t = &L->tok[0];
    if (t->kind == TOK_ERROR)
        return;
    struct strbuf sb = STRBUF_INIT;
    describe_token(L, t, &sb);
    error_at(L, ERR_SYNTAX, t->pos, "expected %s, found %s", what, strbuf_str(&sb));
    strbuf_free(&sb);
}

/* Skip to just past the next ';', or to the start of the next rule. */
static void recover(struct loader *L)
{
    for (;;) {
        if (L->tok[0].kind == TOK_EOF || at_rule_start(L))
            return;
        if (L->tok[0].kind == TOK_SEMI) {
            next_token(L);
            return;
        }
        next_token(L);
    }
}

/* ---- numbers ------------------------------------------------------------ */

/* A decimal number as written ("12.5"), divided by 10^shift, without strtod
 * (which follows the locale). */
static double parse_decimal(const char *s, size_t n, int shift)
{
    uint64_t mant = 0;
    int scale = shift; /* powers of ten to divide by */
    bool frac = false;
    for (size_t k = 0; k < n; k++) {
        if (s[k] == '.') {
            frac = true;
            continue;
        }
        if (mant < 100000000000000000ULL) {
            mant = mant * 10 + (uint64_t)(s[k] - '0');
            if (frac)
                scale++;
        } else if (!frac) {
            scale--;
        }
    }
    double v = (double)mant;
    double p = 1;
    if (scale > 0) {
        for (int k = 0; k < scale; k++)
            p *= 10;
        v /= p;
    } else {
        for (int k = 0; k < -scale; k++)
            p *= 10;
        v *= p;
    }
    return v;
}

/* ---- building exprs ----------------------------------------------------- */

static struct expr *new_expr(struct loader *L, enum expr_kind kind, struct src_pos pos,
                             struct src_pos end)
{
    struct expr *e = grammar_new_expr(L->g, kind, L->cur_rule);
    grammar_expr_set_id(e, (uint32_t)L->nexprs);
    L->exprs = xgrow(L->exprs, &L->exprs_cap, L->nexprs + 1, sizeof *L->exprs);
    L->exprs[L->nexprs++] = e;
    e->pos = pos;
    e->end = end;
    return e;
}

static void add_child(struct expr *parent, uint32_t k, struct expr *kid)
{
    parent->children[k] = kid;
    kid->parent = parent;
}

static void alloc_children(struct loader *L, struct expr *parent, size_t n)
{
    parent->nchildren = (uint32_t)n;
    parent->children = arena_alloc(&L->g->arena, n * sizeof *parent->children);
}

static struct expr *make_atom(struct loader *L)
{
    const struct token *t = &L->tok[0];
    switch (t->kind) {
    case TOK_STRING: {
        struct expr *e = new_expr(L, EXPR_LIT, t->pos, t->end);
        e->u.lit.text = t->text;
        e->u.lit.len = t->len;
        return e;
    }
    case TOK_CLASS: {
        struct expr *e = new_expr(L, EXPR_CLASS, t->pos, t->end);
        e->u.cls.ranges = t->ranges;
        e->u.cls.nranges = t->nranges;
        e->u.cls.negated = t->negated;
        e->u.cls.source = arena_strndup(&L->g->arena, L->src + t->start, t->stop - t->start);
        return e;
    }
    default: {
        struct expr *e = new_expr(L, EXPR_REF, t->pos, t->end);
        e->u.ref.name = arena_strndup(&L->g->arena, L->src + t->start, t->stop - t->start);
        e->u.ref.target = RULE_NONE;
        L->refs = xgrow(L->refs, &L->refs_cap, L->nrefs + 1, sizeof *L->refs);
        L->refs[L->nrefs++] = e;
        return e;
    }
    }
}

static bool starts_atom(const struct loader *L)
{
    switch (L->tok[0].kind) {
    case TOK_STRING: case TOK_CLASS: case TOK_LPAREN:
        return true;
    case TOK_NAME:
        return !at_rule_start(L);
    default:
        return false;
    }
}

static bool is_quantifier(const struct loader *L)
{
    enum tok_kind k = L->tok[0].kind;
    return k == TOK_QUEST || k == TOK_STAR || k == TOK_PLUS || k == TOK_LBRACE;
}

/* A quantifier bound written in braces; false after reporting it. */
static bool quant_bound(struct loader *L, const struct token *t, struct src_pos brace,
                        uint32_t *out)
{
    const char *s = L->src + t->start;
    size_t n = t->stop - t->start;
    uint64_t v = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k] == '.') {
            error_at(L, ERR_SYNTAX, brace, "quantifier bound '%.*s' is not a whole number",
                     (int)n, s);
            return false;
        }
        v = v * 10 + (uint64_t)(s[k] - '0');
        if (v > UINT32_MAX)
            v = (uint64_t)UINT32_MAX + 1;
    }
    if (v >= UINT32_MAX) {
        error_at(L, ERR_SYNTAX, brace, "quantifier bound '%.*s' is too large (the limit is %u)",
                 (int)n, s, (unsigned)(UINT32_MAX - 1));
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* Parses one quantifier.  Returns false on a syntax error that needs
 * recovery; bad bounds are reported but parsing goes on. */
static bool parse_quantifier(struct loader *L, uint32_t *min, uint32_t *max)
{
    switch (L->tok[0].kind) {
    case TOK_QUEST: *min = 0, *max = 1; next_token(L); return true;
    case TOK_STAR: *min = 0, *max = QUANT_INFINITE; next_token(L); return true;
    case TOK_PLUS: *min = 1, *max = QUANT_INFINITE; next_token(L); return true;
    default: break;
    }
    struct src_pos brace = L->tok[0].pos;
    next_token(L);
    struct token lo_tok = {0}, hi_tok = {0};
    bool have_lo = false, have_hi = false, comma = false;
    if (L->tok[0].kind == TOK_NUMBER) {
        lo_tok = L->tok[0];
        have_lo = true;
        next_token(L);
    }
    if (L->tok[0].kind == TOK_COMMA) {
        comma = true;
        next_token(L);
        if (L->tok[0].kind == TOK_NUMBER) {
            hi_tok = L->tok[0];
            have_hi = true;
            next_token(L);
        }
    }
    if (L->tok[0].kind != TOK_RBRACE) {
        expected(L, have_hi || (have_lo && comma) ? "'}' to end the quantifier"
                    : comma                        ? "a number or '}' in the quantifier"
                    : have_lo                      ? "',' or '}' in the quantifier"
                                                   : "a number, ',' or '}' in the quantifier");
        return false;
    }
    next_token(L);
    *min = 0;
    *max = QUANT_INFINITE;
    if (!have_lo && !have_hi) {
        error_at(L, ERR_SYNTAX, brace, "empty quantifier; write {n}, {n,}, {,m} or {n,m}");
        return true;
    }
    uint32_t lo = 0, hi = QUANT_INFINITE;
    if (have_lo && !quant_bound(L, &lo_tok, brace, &lo))
        return true;
    if (have_hi && !quant_bound(L, &hi_tok, brace, &hi))
        return true;
    if (!comma)
        hi = lo;
    if (lo > hi) {
        error_at(L, ERR_SYNTAX, brace,
                 "inverted quantifier bounds {%u,%u}: the minimum is larger than the maximum",
                 (unsigned)lo, (unsigned)hi);
        return true;
    }
    *min = lo;
    *max = hi;
    return true;
}

static void push_item(struct loader *L, struct expr *e, struct src_pos start, struct src_pos end)
{
    L->items = xgrow(L->items, &L->items_cap, L->nitems + 1, sizeof *L->items);
    L->items[L->nitems++] = (struct item){e, start, end};
}

/* Push atom e (just consumed, written from `start`) with its quantifier. */
static bool push_quantified(struct loader *L, struct expr *e, struct src_pos start)
{
    if (is_quantifier(L)) {
        uint32_t min, max;
        if (!parse_quantifier(L, &min, &max))
            return false;
        struct expr *q = new_expr(L, EXPR_QUANT, start, L->prev_end);
        q->u.quant.min = min;
        q->u.quant.max = max;
        alloc_children(L, q, 1);
        add_child(q, 0, e);
        e = q;
        bool reported = false;
        while (is_quantifier(L)) {
            if (!reported)
                error_at(L, ERR_SYNTAX, L->tok[0].pos,
                         "stacked quantifier; use parentheses to repeat a quantified item, "
                         "as in (x*)+");
            reported = true;
            if (!parse_quantifier(L, &min, &max))
                return false;
        }
    }
    push_item(L, e, start, L->prev_end);
    return true;
}

static void push_frame(struct loader *L, bool is_group, struct src_pos open)
{
    L->frames = xgrow(L->frames, &L->frames_cap, L->nframes + 1, sizeof *L->frames);
    struct frame *f = &L->frames[L->nframes++];
    memset(f, 0, sizeof *f);
    f->is_group = is_group;
    f->open_pos = open;
    f->items_base = L->nitems;
    f->alts_base = L->nalts;
}

static bool parse_prefix_weight(struct loader *L, struct frame *f)
{
    struct token num = L->tok[0];
    next_token(L);
    if (L->tok[0].kind != TOK_PERCENT) {
        struct strbuf what = STRBUF_INIT;
        strbuf_addf(&what, "'%%' after the weight '%.*s'", (int)(num.stop - num.start),
                    L->src + num.start);
        expected(L, strbuf_str(&what));
        strbuf_free(&what);
        return false;
    }
    next_token(L);
    double v = parse_decimal(L->src + num.start, num.stop - num.start, 2);
    if (v > 1) {
        error_at(L, ERR_WEIGHT, num.pos, "weight %.*s%% is outside 0-100%%",
                 (int)(num.stop - num.start), L->src + num.start);
        v = 1;
    }
    f->weight = v;
    f->weight_pos = num.pos;
    f->has_prefix = true;
    return true;
}

static bool parse_suffix_weight(struct loader *L, struct frame *f)
{
    struct src_pos at = L->tok[0].pos;
    next_token(L);
    if (L->tok[0].kind != TOK_NUMBER) {
        expected(L, "a number after '@@'");
        return false;
    }
    struct token num = L->tok[0];
    next_token(L);
    double v = parse_decimal(L->src + num.start, num.stop - num.start, 0);
    if (v > 1) {
        error_at(L, ERR_WEIGHT, at, "weight @@ %.*s is outside 0-1",
                 (int)(num.stop - num.start), L->src + num.start);
        v = 1;
    }
    if (f->has_prefix) {
        error_at(L, ERR_WEIGHT, at, "alternative has both a prefix weight and an '@@' weight");
    } else {
        f->weight = v;
        f->weight_pos = at;
    }
    enum tok_kind k = L->tok[0].kind;
    if (k == TOK_PIPE || k == TOK_SEMI || k == TOK_RPAREN || at_rule_end(L))
        return true;
    expected(L, f->is_group ? "'|' or ')' after the weight" : "'|' or ';' after the weight");
    return false;
}

/* The items of the current alternative become one expr on the alternatives
 * stack. */
static void finish_alternative(struct loader *L, struct frame *f)
{
    size_t base = f->items_base, n = L->nitems - base;
    struct item *it = &L->items[base];
    struct expr *e = it[0].e;
    if (n > 1) {
        e = new_expr(L, EXPR_CAT, it[0].start, it[n - 1].end);
        alloc_children(L, e, n);
        for (size_t k = 0; k < n; k++)
            add_child(e, (uint32_t)k, it[k].e);
    }
    struct src_pos end = it[n - 1].end;
    if (L->prev_end.line > end.line || (L->prev_end.line == end.line && L->prev_end.col > end.col))
        end = L->prev_end; /* a '@@' weight */
    L->nitems = base;
    L->alts = xgrow(L->alts, &L->alts_cap, L->nalts + 1, sizeof *L->alts);
    L->alts[L->nalts++] = (struct alt_entry){e, f->weight, f->weight_pos, f->alt_start, end};
}

/* The alternatives of frame f become one expr; checks their weights. */
static struct expr *finish_alternation(struct loader *L, struct frame *f)
{
    size_t base = f->alts_base, n = L->nalts - base;
    struct alt_entry *a = &L->alts[base];
    struct expr *e;
    if (n == 1) {
        if (a[0].weight >= 0)
            error_at(L, ERR_WEIGHT, a[0].weight_pos,
                     "weight on a single alternative; weights choose between two or more "
                     "alternatives");
        e = a[0].e;
    } else {
        e = new_expr(L, EXPR_ALT, a[0].start, a[n - 1].end);
        alloc_children(L, e, n);
        for (size_t k = 0; k < n; k++)
            add_child(e, (uint32_t)k, a[k].e);
        bool any = false;
        double sum = 0;
        size_t annotated = 0;
        struct src_pos first = {0, 0};
        for (size_t k = 0; k < n; k++) {
            if (a[k].weight >= 0) {
                if (!any)
                    first = a[k].weight_pos;
                any = true;
                sum += a[k].weight;
                annotated++;
            }
        }
        if (any) {
            e->u.alt.weights = arena_alloc(&L->g->arena, n * sizeof *e->u.alt.weights);
            for (size_t k = 0; k < n; k++)
                e->u.alt.weights[k] = a[k].weight >= 0 ? a[k].weight : -1.0;
            if (sum > 1 + WEIGHT_EPSILON)
                error_at(L, ERR_WEIGHT, first,
                         "weights of this alternation add up to %g%%, more than 100%%",
                         sum * 100);
            /* All given and short of 100%: a typo rather than a wish to
             * rescale.  Rounded weights (kpath learn writes 5 digits) pass. */
            else if (annotated == n && sum < 1 - 1e-5 * (double)n)
                error_at(L, ERR_WEIGHT, first,
                         "weights of this alternation add up to %g%%, less than 100%%; make "
                         "them add up to 100%%, or leave one alternative without a weight "
                         "to take the rest", sum * 100);
        }
    }
    L->nalts = base;
    return e;
}

/* The rule or group ends too early (end of file or the next rule). */
static void report_rule_end(struct loader *L, const char *rule_name)
{
    if (L->nframes > 1) {
        struct src_pos open = L->frames[L->nframes - 1].open_pos;
        error_at(L, ERR_SYNTAX, L->prev_end, "missing ')' to close the '(' at %u:%u",
                 (unsigned)open.line, (unsigned)open.col);
    } else {
        error_at(L, ERR_SYNTAX, L->prev_end, "missing ';' at the end of rule '%s'", rule_name);
    }
}

/* The right-hand side of a rule, up to and including its ';'.  A loop over
 * an explicit stack of frames, one per open parenthesis.  Returns NULL after
 * a syntax error (then the input is skipped to the next rule). */
static struct expr *parse_rhs(struct loader *L, const char *rule_name)
{
    enum { ALT_START, ITEMS } state = ALT_START;
    push_frame(L, false, L->tok[0].pos);
    for (;;) {
        struct frame *f = &L->frames[L->nframes - 1];
        if (state == ALT_START) {
            f->alt_start = L->tok[0].pos;
            f->weight = -1;
            f->has_prefix = false;
            if (L->tok[0].kind == TOK_NUMBER && !parse_prefix_weight(L, f))
                goto fail;
            state = ITEMS;
            continue;
        }
        if (starts_atom(L)) {
            struct src_pos start = L->tok[0].pos;
            if (L->tok[0].kind == TOK_LPAREN) {
                next_token(L);
                push_frame(L, true, start);
                state = ALT_START;
                continue;
            }
            struct expr *e = make_atom(L);
            next_token(L);
            if (!push_quantified(L, e, start))
                goto fail;
            continue;
        }
        /* The alternative ends here. */
        enum tok_kind k = L->tok[0].kind;
        if (L->nitems == f->items_base) {
            if (k == TOK_SEMI || k == TOK_PIPE || (k == TOK_RPAREN && f->is_group)) {
                struct src_pos at = L->tok[0].pos;
                error_at(L, ERR_SYNTAX, at, "empty alternative; write \"\" for the empty string");
                struct expr *eps = new_expr(L, EXPR_LIT, at, at);
                eps->u.lit.text = arena_strndup(&L->g->arena, "", 0);
                push_item(L, eps, at, at);
            } else if (at_rule_end(L)) {
                report_rule_end(L, rule_name);
                goto fail;
            } else {
                expected(L, "an item");
                goto fail;
            }
        }
        if (k == TOK_ATAT && !parse_suffix_weight(L, f))
            goto fail;
        finish_alternative(L, f);
        k = L->tok[0].kind;
        if (k == TOK_PIPE) {
            next_token(L);
            state = ALT_START;
            continue;
        }
        if (f->is_group) {
            if (k == TOK_RPAREN) {
                struct src_pos open = f->open_pos;
                next_token(L);
                struct expr *e = finish_alternation(L, f);
                L->nframes--;
                if (!push_quantified(L, e, open))
                    goto fail;
                continue; /* state stays ITEMS */
            }
            if (at_rule_end(L)) {
                report_rule_end(L, rule_name);
            } else if (k != TOK_ERROR) {
                struct strbuf what = STRBUF_INIT;
                strbuf_addf(&what, "')' to close the '(' at %u:%u", (unsigned)f->open_pos.line,
                            (unsigned)f->open_pos.col);
                expected(L, strbuf_str(&what));
                strbuf_free(&what);
            }
            goto fail;
        }
        if (k == TOK_SEMI || at_rule_end(L)) {
            if (k != TOK_SEMI)
                report_rule_end(L, rule_name);
            struct expr *e = finish_alternation(L, f);
            L->nframes--;
            if (k == TOK_SEMI)
                next_token(L);
            return e;
        }
        if (k == TOK_RPAREN)
            error_at(L, ERR_SYNTAX, L->tok[0].pos, "unmatched ')'");
        else
            expected(L, "an item, '|' or ';'");
        goto fail;
    }
fail:
    L->nframes = L->nitems = L->nalts = 0;
    recover(L);
    return NULL;
}

/* Adds a rule to the table, or returns RULE_NONE when the name exists. */
static uint32_t add_rule(struct loader *L, const struct token *name)
{
    struct grammar *g = L->g;
    const char *s = L->src + name->start;
    size_t n = name->stop - name->start;
    if (grammar_find_rule_len(g, s, n) != RULE_NONE)
        return RULE_NONE;
    char *copy = arena_strndup(&g->arena, s, n);
    g->rules = xgrow(g->rules, &g->rules_cap, (size_t)g->nrules + 1, sizeof *g->rules);
    uint32_t idx = g->nrules++;
    struct rule *r = &g->rules[idx];
    memset(r, 0, sizeof *r);
    r->name = copy;
    r->pos = name->pos;
    grammar_index_rule(g, idx);
    return idx;
}

static void parse_rule(struct loader *L)
{
    struct token name = L->tok[0];
    next_token(L);
    if (L->tok[0].kind != TOK_DEFINE) {
        struct strbuf what = STRBUF_INIT;
        strbuf_addf(&what, "':=', '::=' or '=' after the rule name '%.*s'",
                    (int)(name.stop - name.start), L->src + name.start);
        expected(L, strbuf_str(&what));
        strbuf_free(&what);
        add_rule(L, &name); /* so that its references are not reported as well */
        recover(L);
        return;
    }
    next_token(L);
    uint32_t idx = add_rule(L, &name);
    L->cur_rule = idx;
    if (idx == RULE_NONE) {
        uint32_t first = grammar_find_rule_len(L->g, L->src + name.start, name.stop - name.start);
        struct src_pos p = L->g->rules[first].pos;
        error_at(L, ERR_OTHER, name.pos, "rule '%.*s' is defined twice (first at %u:%u)",
                 (int)(name.stop - name.start), L->src + name.start, (unsigned)p.line,
                 (unsigned)p.col);
    }
    const char *rule_name =
        idx != RULE_NONE ? L->g->rules[idx].name
                         : arena_strndup(&L->g->arena, L->src + name.start, name.stop - name.start);
    struct expr *rhs = parse_rhs(L, rule_name);
    if (idx != RULE_NONE) {
        L->g->rules[idx].rhs = rhs;
        L->g->rules[idx].src_name = name.start;
        L->g->rules[idx].src_stop = L->prev_stop;
    }
}

static void parse_grammar(struct loader *L)
{
    lex(L, &L->tok[0]);
    lex(L, &L->tok[1]);
    L->prev_end = (struct src_pos){1, 1};
    while (L->tok[0].kind != TOK_EOF) {
        if (L->tok[0].kind == TOK_NAME) {
            parse_rule(L);
        } else {
            /* Skip to the next rule: stopping at every ';' would report
             * each piece of the garbage again. */
            expected(L, "a rule name");
            do
                next_token(L);
            while (L->tok[0].kind != TOK_EOF && !at_rule_start(L));
        }
    }
}

/* ---- source spans ------------------------------------------------------- */

/* Between two rules there are only blanks and comments (the file has no
 * syntax error when this runs).  A comment starts at src[i]: past its end. */
static size_t skip_comment(const char *src, size_t i, size_t stop)
{
    if (src[i] == '#' || (src[i] == '/' && i + 1 < stop && src[i + 1] == '/')) {
        while (i < stop && src[i] != '\n')
            i++;
        return i;
    }
    i += 2; /* a block comment */
    while (i < stop && !(src[i] == '*' && i + 1 < stop && src[i + 1] == '/'))
        i++;
    return i + 2 <= stop ? i + 2 : stop;
}

static bool at_comment(const char *src, size_t i, size_t stop)
{
    return src[i] == '#' ||
           (src[i] == '/' && i + 1 < stop && (src[i + 1] == '/' || src[i + 1] == '*'));
}

/* The end of a rule's last line: past the newline when only blanks and
 * comments follow the ';' up to it (a comment that starts on the line counts,
 * however many lines it spans), or up to `stop` when that is the end of the
 * file; else `from` itself. */
static size_t line_rest_end(const char *src, size_t from, size_t stop, bool at_eof)
{
    size_t i = from;
    while (i < stop) {
        char c = src[i];
        if (c == '\n')
            return i + 1;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
            i++;
        else if (at_comment(src, i, stop))
            i = skip_comment(src, i, stop);
        else
            return from;
    }
    return at_eof ? stop : from;
}

/* Start of the comment lines directly above a rule's name at `name`, looking
 * no further back than `from`: a blank line (or only the start of the gap)
 * separates them from what comes before. */
static size_t leading_begin(const char *src, size_t from, size_t name)
{
    size_t begin = from, i = from;
    bool content = false; /* the current line holds a comment */
    while (i < name) {
        char c = src[i];
        if (c == '\n') {
            if (!content)
                begin = i + 1;
            content = false;
            i++;
        } else if (at_comment(src, i, name)) {
            content = true;
            i = skip_comment(src, i, name);
        } else {
            i++;
        }
    }
    return begin;
}

static void compute_spans(struct loader *L)
{
    struct grammar *g = L->g;
    for (uint32_t r = 0; r < g->nrules; r++) {
        struct rule *rule = &g->rules[r];
        size_t gap = 0;
        if (r > 0) {
            struct rule *prev = &g->rules[r - 1];
            prev->src_end = line_rest_end(L->src, prev->src_stop, rule->src_name, false);
            gap = prev->src_end;
        }
        rule->src_gap = gap;
        rule->src_begin = leading_begin(L->src, gap, rule->src_name);
    }
    if (g->nrules > 0)
        g->source_head = g->rules[0].src_begin;
    if (g->nrules > 0) {
        struct rule *last = &g->rules[g->nrules - 1];
        last->src_end = line_rest_end(L->src, last->src_stop, L->len, true);
        g->source_tail = last->src_end;
    }
}

/* ---- UTF-8 -------------------------------------------------------------- */

/* Reports invalid UTF-8, at most once per line; true when the text is valid. */
static bool check_utf8(struct loader *L)
{
    uint32_t line = 1, col = 1, reported_line = 0;
    bool ok = true;
    for (size_t i = L->i; i < L->len;) {
        unsigned char c = (unsigned char)L->src[i];
        if (c == '\n') {
            line++;
            col = 1;
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = c < 0x80 ? 1 : utf8_decode(L->src + i, L->len - i, &cp);
        if (!n) {
            ok = false;
            if (reported_line != line)
                error_at(L, ERR_SYNTAX, (struct src_pos){line, col}, "invalid UTF-8 byte 0x%02X",
                         (unsigned)c);
            reported_line = line;
            n = 1;
        }
        i += n;
        col++;
    }
    return ok;
}

/* ---- loading ------------------------------------------------------------ */

struct grammar *grammar_load_string(const char *name, const char *text, size_t len,
                                    const struct grammar_options *opts,
                                    struct diag_list *diags)
{
    struct grammar *g = grammar_new(name);

    struct loader L = {0};
    L.g = g;
    L.diags = diags;
    L.file = g->file;
    L.src = text ? text : "";
    L.len = text ? len : 0;
    L.line = 1;
    L.col = 1;
    L.cur_rule = RULE_NONE;
    size_t errors_before = diags->errors;
    /* A CR alone (old Mac files) is a line break like LF and CRLF.  The
     * loader reads a copy with each lone CR made LF: the same length, so every
     * offset into the source is unchanged, and only one kind of line break to
     * know about (base/line_end.h, as every reader).  g->source keeps the
     * text as it was. */
    char *unified = line_end_unify(L.src, L.len);

    if (L.len >= 3 && memcmp(L.src, "\xEF\xBB\xBF", 3) == 0)
        L.i = 3; /* a byte order mark is not part of the text */
    g->source = arena_strndup(&g->arena, L.src, L.len);
    g->source_len = L.len;
    if (unified)
        L.src = unified;
    if (check_utf8(&L)) {
        parse_grammar(&L);
        if (L.syntax_errors == 0)
            compute_spans(&L);
        struct grammar_check c = {g, diags, L.exprs, L.nexprs, L.refs, L.nrefs};
        grammar_check_references(&c);
        if (g->nrules == 0 && diags->errors == errors_before)
            error_at(&L, ERR_OTHER, here(&L), "the grammar defines no rules"); /* at the end */
        if (g->nrules > 0 && L.syntax_errors == 0 && grammar_check_start(&c, opts))
            grammar_check_reachable(&c);
        if (g->nrules > 0 && diags->errors - errors_before == L.weight_errors)
            grammar_check_productive(&c);
    }

    free(unified);
    strbuf_free(&L.sbuf);
    free(L.cr);
    free(L.frames);
    free(L.items);
    free(L.alts);
    free(L.exprs);
    free(L.refs);
    if (diags->errors > errors_before) {
        grammar_free(g);
        return NULL;
    }
    return g;
}

/* grammar: loading and checking grammar files.
 *
 * The loader runs in passes, each linear in the size of the input:
 *   1. UTF-8 validation (an invalid file is not parsed at all);
 *   2. lexing and parsing into the syntax tree; the parser is a loop over an
 *      explicit stack of open parentheses, so nesting depth costs heap, not
 *      C stack;
 *   3. resolution of references through the name index (uthash);
 *   4. when the file has no syntax errors: the start rule and reachability;
 *   5. when there is no error but weight errors: productivity, as a worklist
 *      fixpoint over the nodes (a CAT waits for a counter to reach zero).
 * Every diagnostic goes to the caller's diag_list; nothing is printed. */
#include "grammar/grammar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"

/* uthash allocates through our wrapper, which aborts instead of failing. */
#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#define uthash_fatal(msg) abort()
#include <uthash.h>

struct rule_index {
    const char *name; /* in the grammar's arena */
    uint32_t rule;
    UT_hash_handle hh;
};

/* Every expr lives inside this wrapper, so the checks can keep per-node state
 * in flat arrays indexed by id.  The expr is the first member, which makes the
 * conversion between the two pointer types valid. */
struct expr_node {
    struct expr e;
    uint32_t id;
};

static uint32_t expr_id(const struct expr *e)
{
    return ((const struct expr_node *)e)->id;
}

#define SURROGATE_LO UTF8_SURROGATE_LO
#define SURROGATE_HI UTF8_SURROGATE_HI
/* Code points a class can match: U+0000..U+10FFFF less the surrogates. */
#define CHARACTER_COUNT ((uint64_t)UTF8_MAX_CODEPOINT + 1 - (SURROGATE_HI - SURROGATE_LO + 1))
#define WEIGHT_EPSILON 1e-9
#define NAME_LIST_MAX 10 /* candidates named in the start-rule warning */

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
    size_t rules_cap;
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

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A character for a message: 'c', 'é' (U+00E9), or U+0009 for controls. */
static void describe_char(struct strbuf *sb, uint32_t cp)
{
    if (cp >= 0x21 && cp <= 0x7E)
        strbuf_addf(sb, "'%c'", (char)cp);
    else if (cp >= 0xA0) {
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
        while (digits < 2 && !at_end(L) && hex_value(peek_byte(L, 0)) >= 0) {
            v = v * 16 + (uint32_t)hex_value(peek_byte(L, 0));
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
            while (!at_end(L) && hex_value(peek_byte(L, 0)) >= 0) {
                if (digits < 7)
                    v = v * 16 + (uint32_t)hex_value(peek_byte(L, 0));
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
    struct expr_node *n = arena_alloc(&L->g->arena, sizeof *n);
    n->id = (uint32_t)L->nexprs;
    L->exprs = xgrow(L->exprs, &L->exprs_cap, L->nexprs + 1, sizeof *L->exprs);
    L->exprs[L->nexprs++] = &n->e;
    n->e.kind = kind;
    n->e.pos = pos;
    n->e.end = end;
    n->e.rule = L->cur_rule;
    return &n->e;
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
    struct rule_index *found = NULL;
    HASH_FIND(hh, g->index, s, n, found);
    if (found)
        return RULE_NONE;
    char *copy = arena_strndup(&g->arena, s, n);
    g->rules = xgrow(g->rules, &L->rules_cap, (size_t)g->nrules + 1, sizeof *g->rules);
    uint32_t idx = g->nrules++;
    struct rule *r = &g->rules[idx];
    memset(r, 0, sizeof *r);
    r->name = copy;
    r->pos = name->pos;
    struct rule_index *entry = arena_alloc(&g->arena, sizeof *entry);
    entry->name = copy;
    entry->rule = idx;
    HASH_ADD_KEYPTR(hh, g->index, entry->name, n, entry);
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
        struct rule_index *found = NULL;
        HASH_FIND(hh, L->g->index, L->src + name.start, name.stop - name.start, found);
        struct src_pos p = L->g->rules[found->rule].pos;
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

/* ---- checks ------------------------------------------------------------- */

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

/* The file a rule was read from (importers read several). */
static const char *rule_file(const struct loader *L, uint32_t r)
{
    return r < L->g->nrules && L->g->rules[r].file ? L->g->rules[r].file : L->file;
}

const char *grammar_rule_file(const struct grammar *g, uint32_t rule)
{
    return rule < g->nrules && g->rules[rule].file ? g->rules[rule].file : g->file;
}

static void resolve_references(struct loader *L)
{
    for (size_t k = 0; k < L->nrefs; k++) {
        struct expr *r = L->refs[k];
        struct rule_index *found = NULL;
        HASH_FIND(hh, L->g->index, r->u.ref.name, strlen(r->u.ref.name), found);
        if (found) {
            r->u.ref.target = found->rule;
        } else {
            diag_add(L->diags, DIAG_ERROR, rule_file(L, r->rule), r->pos.line, r->pos.col,
                     "undefined rule '%s'", r->u.ref.name);
        }
    }
}

/* Compressed adjacency: for each rule, the references selected by key()
 * (the rule holding them, or the rule they name), as offsets into list. */
struct ref_lists {
    uint32_t *off;      /* nrules + 1 */
    struct expr **list;
};

static void build_ref_lists(const struct loader *L, bool by_target, struct ref_lists *out)
{
    uint32_t n = L->g->nrules;
    out->off = xcalloc((size_t)n + 1, sizeof *out->off);
    out->list = xmalloc((L->nrefs ? L->nrefs : 1) * sizeof *out->list);
    for (size_t k = 0; k < L->nrefs; k++) {
        const struct expr *r = L->refs[k];
        uint32_t key = by_target ? r->u.ref.target : r->rule;
        if (r->rule != RULE_NONE && r->u.ref.target != RULE_NONE)
            out->off[key + 1]++;
    }
    for (uint32_t k = 0; k < n; k++)
        out->off[k + 1] += out->off[k];
    uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
    memcpy(fill, out->off, ((size_t)n + 1) * sizeof *fill);
    for (size_t k = 0; k < L->nrefs; k++) {
        struct expr *r = L->refs[k];
        uint32_t key = by_target ? r->u.ref.target : r->rule;
        if (r->rule != RULE_NONE && r->u.ref.target != RULE_NONE)
            out->list[fill[key]++] = r;
    }
    free(fill);
}

static void free_ref_lists(struct ref_lists *rl)
{
    free(rl->off);
    free(rl->list);
}

static bool choose_start(struct loader *L, const struct grammar_options *opts)
{
    struct grammar *g = L->g;
    g->start = 0;
    if (opts && opts->start) {
        uint32_t r = grammar_find_rule(g, opts->start);
        if (r == RULE_NONE) {
            error_at(L, ERR_OTHER, (struct src_pos){0, 0}, "start rule '%s' is not defined",
                     opts->start);
            return false;
        }
        g->start = r;
        return true;
    }
    bool *referenced = xcalloc(g->nrules, sizeof *referenced);
    for (size_t k = 0; k < L->nrefs; k++) {
        const struct expr *r = L->refs[k];
        if (r->rule != RULE_NONE && r->u.ref.target != RULE_NONE)
            referenced[r->u.ref.target] = true;
    }
    uint32_t count = 0, only = 0;
    for (uint32_t k = 0; k < g->nrules; k++) {
        if (!referenced[k]) {
            if (!count)
                only = k;
            count++;
        }
    }
    if (count == 1) {
        g->start = only;
    } else if (count == 0) {
        /* Every rule is referenced (the start rule is recursive, as in most
         * textbook grammars): the first rule is the start, as in yacc and
         * ANTLR, and there is no other candidate to warn about.  kpath info
         * names it. */
    } else {
        struct strbuf names = STRBUF_INIT;
        uint32_t listed = 0;
        for (uint32_t k = 0; k < g->nrules && listed < NAME_LIST_MAX; k++) {
            if (!referenced[k]) {
                strbuf_addstr(&names, listed ? ", " : "");
                strbuf_addstr(&names, g->rules[k].name);
                listed++;
            }
        }
        if (count > listed)
            strbuf_addf(&names, " and %u more", (unsigned)(count - listed));
        diag_add(L->diags, DIAG_WARNING, L->file, g->rules[0].pos.line, g->rules[0].pos.col,
                 "several rules are unreferenced (%s); using the first rule '%s' as start",
                 strbuf_str(&names), g->rules[0].name);
        strbuf_free(&names);
    }
    free(referenced);
    return true;
}

static void check_reachable(struct loader *L)
{
    struct grammar *g = L->g;
    struct ref_lists out;
    build_ref_lists(L, false, &out);
    uint32_t *queue = xmalloc(g->nrules * sizeof *queue);
    size_t head = 0, tail = 0;
    g->rules[g->start].reachable = true;
    queue[tail++] = g->start;
    while (head < tail) {
        uint32_t r = queue[head++];
        for (uint32_t k = out.off[r]; k < out.off[r + 1]; k++) {
            uint32_t t = out.list[k]->u.ref.target;
            if (!g->rules[t].reachable) {
                g->rules[t].reachable = true;
                queue[tail++] = t;
            }
        }
    }
    for (uint32_t k = 0; k < g->nrules; k++) {
        if (!g->rules[k].reachable)
            diag_add(L->diags, DIAG_WARNING, rule_file(L, k), g->rules[k].pos.line,
                     g->rules[k].pos.col, "rule '%s' is unreachable from the start rule '%s'", g->rules[k].name,
                     g->rules[grammar_user_start(g)].name);
    }
    free(queue);
    free_ref_lists(&out);
}

/* A class that matches no character ([^\x00-\u{10FFFF}], or an imported
 * set of UTF-16 surrogates only) is allowed, as a dead end: what holds it can
 * never be derived, so say where it is. */
static void warn_no_character(struct loader *L, const struct expr *e)
{
    diag_add(L->diags, DIAG_WARNING, rule_file(L, e->rule), e->pos.line, e->pos.col,
             "class %s in rule '%s' matches no character: nothing that holds it can be "
             "derived",
             e->u.cls.source, L->g->rules[e->rule].name);
}

/* Productivity as a worklist fixpoint: a node becomes productive once (a
 * leaf at once; an ALT when one child is; a CAT when its counter of
 * unproductive children reaches zero; a QUANT with min 0 at once, else with
 * its child; a REF with its rule), so the work is linear in the nodes. */
static void check_productive(struct loader *L)
{
    struct grammar *g = L->g;
    size_t n = L->nexprs;
    bool *prod = xcalloc(n ? n : 1, sizeof *prod);
    uint32_t *remaining = xcalloc(n ? n : 1, sizeof *remaining);
    bool *rule_prod = xcalloc(g->nrules, sizeof *rule_prod);
    struct expr **work = xmalloc((n ? n : 1) * sizeof *work);
    size_t top = 0;
    struct ref_lists in;
    build_ref_lists(L, true, &in);
    for (size_t k = 0; k < n; k++) {
        struct expr *e = L->exprs[k];
        bool leaf = false;
        switch (e->kind) {
        case EXPR_LIT: leaf = true; break;
        case EXPR_CLASS:
            leaf = grammar_class_size(e) > 0;
            if (!leaf)
                warn_no_character(L, e);
            break;
        case EXPR_QUANT: leaf = e->u.quant.min == 0; break;
        case EXPR_CAT: remaining[k] = e->nchildren; break;
        default: break;
        }
        if (leaf && e->rule != RULE_NONE) {
            prod[k] = true;
            work[top++] = e;
        }
    }
    while (top) {
        struct expr *e = work[--top];
        struct expr *p = e->parent;
        if (!p) {
            uint32_t r = e->rule;
            if (rule_prod[r] || g->rules[r].rhs != e)
                continue;
            rule_prod[r] = true;
            for (uint32_t k = in.off[r]; k < in.off[r + 1]; k++) {
                struct expr *ref = in.list[k];
                if (!prod[expr_id(ref)]) {
                    prod[expr_id(ref)] = true;
                    work[top++] = ref;
                }
            }
            continue;
        }
        uint32_t pid = expr_id(p);
        if (prod[pid])
            continue;
        if (p->kind == EXPR_CAT && --remaining[pid] > 0)
            continue;
        prod[pid] = true;
        work[top++] = p;
    }
    for (uint32_t r = 0; r < g->nrules; r++) {
        if (!rule_prod[r])
            diag_add(L->diags, DIAG_ERROR, rule_file(L, r), g->rules[r].pos.line,
                     g->rules[r].pos.col, "rule '%s' is unproductive: it can never derive a finite string",
                     g->rules[r].name);
    }
    free_ref_lists(&in);
    free(work);
    free(rule_prod);
    free(remaining);
    free(prod);
}

/* ---- loading ------------------------------------------------------------ */

struct grammar *grammar_load_string(const char *name, const char *text, size_t len,
                                    const struct grammar_options *opts,
                                    struct diag_list *diags)
{
    struct grammar *g = xcalloc(1, sizeof *g);
    arena_init(&g->arena);
    g->file = arena_strndup(&g->arena, name ? name : "<string>", strlen(name ? name : "<string>"));
    g->start = RULE_NONE;

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
     * know about.  g->source keeps the text as it was. */
    char *unified = NULL;
    for (size_t i = 0; i < L.len; i++) {
        if (L.src[i] != '\r' || (i + 1 < L.len && L.src[i + 1] == '\n'))
            continue;
        if (!unified) {
            unified = xmalloc(L.len + 1);
            memcpy(unified, L.src, L.len);
            unified[L.len] = '\0';
        }
        unified[i] = '\n';
    }

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
        resolve_references(&L);
        if (g->nrules == 0 && diags->errors == errors_before)
            error_at(&L, ERR_OTHER, here(&L), "the grammar defines no rules"); /* at the end */
        if (g->nrules > 0 && L.syntax_errors == 0 && choose_start(&L, opts))
            check_reachable(&L);
        if (g->nrules > 0 && diags->errors - errors_before == L.weight_errors)
            check_productive(&L);
    }

    g->rules_cap = L.rules_cap;
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

/* ---- grammars built by importers ---------------------------------------- */

struct grammar *grammar_new(const char *file)
{
    struct grammar *g = xcalloc(1, sizeof *g);
    arena_init(&g->arena);
    const char *name = file ? file : "<string>";
    g->file = arena_strndup(&g->arena, name, strlen(name));
    g->start = RULE_NONE;
    g->source = arena_strndup(&g->arena, "", 0);
    return g;
}

/* The same passes as grammar_load_string after parsing, over a tree built
 * with grammar_new_expr: every expr is numbered by walking the rules with an
 * explicit stack (so depth costs heap), then references are resolved by name
 * and the start rule, reachability and productivity are checked. */
bool grammar_finish(struct grammar *g, const struct grammar_options *opts,
                    struct diag_list *diags)
{
    struct loader L = {0};
    L.g = g;
    L.diags = diags;
    L.file = g->file;
    size_t errors_before = diags->errors;
    struct expr **stack = NULL;
    size_t depth = 0, stack_cap = 0;
    for (uint32_t r = 0; r < g->nrules; r++) {
        stack = xgrow(stack, &stack_cap, depth + 1, sizeof *stack);
        stack[depth++] = g->rules[r].rhs;
        g->rules[r].rhs->parent = NULL;
        while (depth) {
            struct expr *e = stack[--depth];
            e->rule = r;
            ((struct expr_node *)e)->id = (uint32_t)L.nexprs;
            L.exprs = xgrow(L.exprs, &L.exprs_cap, L.nexprs + 1, sizeof *L.exprs);
            L.exprs[L.nexprs++] = e;
            if (e->kind == EXPR_REF) {
                L.refs = xgrow(L.refs, &L.refs_cap, L.nrefs + 1, sizeof *L.refs);
                L.refs[L.nrefs++] = e;
            }
            for (uint32_t k = 0; k < e->nchildren; k++) {
                e->children[k]->parent = e;
                stack = xgrow(stack, &stack_cap, depth + 1, sizeof *stack);
                stack[depth++] = e->children[k];
            }
        }
    }
    free(stack);
    resolve_references(&L);
    if (g->nrules == 0 && diags->errors == errors_before)
        error_at(&L, ERR_OTHER, (struct src_pos){0, 0}, "the grammar defines no rules");
    if (g->nrules > 0 && diags->errors == errors_before && choose_start(&L, opts))
        check_reachable(&L);
    if (g->nrules > 0 && diags->errors == errors_before)
        check_productive(&L);
    free(L.exprs);
    free(L.refs);
    return diags->errors == errors_before;
}

void grammar_free(struct grammar *g)
{
    if (!g)
        return;
    HASH_CLEAR(hh, g->index); /* the entries themselves live in the arena */
    free(g->rules);
    arena_free(&g->arena);
    free(g);
}

uint32_t grammar_find_rule(const struct grammar *g, const char *name)
{
    struct rule_index *found = NULL;
    HASH_FIND(hh, g->index, name, strlen(name), found);
    return found ? found->rule : RULE_NONE;
}

uint32_t grammar_user_start(const struct grammar *g)
{
    const struct rule *s = &g->rules[g->start];
    const struct expr *e = s->rhs;
    if (strcmp(s->name, GRAMMAR_START_WRAPPER) == 0 && e && e->kind == EXPR_CAT &&
        e->nchildren == 2 && e->children[0]->kind == EXPR_REF &&
        strncmp(e->children[0]->u.ref.name, "_skip", 5) == 0 &&
        e->children[1]->kind == EXPR_REF && e->children[1]->u.ref.target < g->nrules)
        return e->children[1]->u.ref.target;
    return g->start;
}

/* ---- changing a loaded grammar ------------------------------------------ */

struct expr *grammar_new_expr(struct grammar *g, enum expr_kind kind, uint32_t rule)
{
    /* In an expr_node like every loaded expr, so the two kinds never differ. */
    struct expr_node *n = arena_alloc(&g->arena, sizeof *n);
    n->id = UINT32_MAX;
    n->e.kind = kind;
    n->e.rule = rule;
    return &n->e;
}

static void index_rule(struct grammar *g, uint32_t idx)
{
    struct rule_index *entry = arena_alloc(&g->arena, sizeof *entry);
    entry->name = g->rules[idx].name;
    entry->rule = idx;
    HASH_ADD_KEYPTR(hh, g->index, entry->name, strlen(entry->name), entry);
}

uint32_t grammar_add_rule(struct grammar *g, const char *name, struct expr *rhs)
{
    if (grammar_find_rule(g, name) != RULE_NONE)
        return RULE_NONE;
    g->rules = xgrow(g->rules, &g->rules_cap, (size_t)g->nrules + 1, sizeof *g->rules);
    uint32_t idx = g->nrules++;
    struct rule *r = &g->rules[idx];
    memset(r, 0, sizeof *r);
    r->name = arena_strndup(&g->arena, name, strlen(name));
    r->rhs = rhs;
    index_rule(g, idx);
    return idx;
}

void grammar_keep_rules(struct grammar *g, const uint32_t *order, uint32_t n)
{
    uint32_t *renumber = xmalloc(((size_t)g->nrules + 1) * sizeof *renumber);
    for (uint32_t r = 0; r < g->nrules; r++)
        renumber[r] = RULE_NONE;
    for (uint32_t k = 0; k < n; k++)
        renumber[order[k]] = k;
    struct rule *kept = xmalloc(((size_t)n + 1) * sizeof *kept);
    for (uint32_t k = 0; k < n; k++)
        kept[k] = g->rules[order[k]];
    free(g->rules);
    g->rules = kept;
    g->rules_cap = (size_t)n + 1;
    g->nrules = n;
    g->start = renumber[g->start];

    /* Renumber every expr, and list each rule's references for reachability. */
    struct expr **stack = NULL, **refs = NULL;
    size_t stack_cap = 0, refs_cap = 0, nrefs = 0;
    uint32_t *first_ref = xmalloc(((size_t)n + 1) * sizeof *first_ref);
    for (uint32_t r = 0; r < n; r++) {
        first_ref[r] = (uint32_t)nrefs;
        size_t depth = 0;
        stack = xgrow(stack, &stack_cap, 1, sizeof *stack);
        stack[depth++] = g->rules[r].rhs;
        while (depth) {
            struct expr *e = stack[--depth];
            e->rule = r;
            if (e->kind == EXPR_REF) {
                uint32_t t = e->u.ref.target;
                e->u.ref.target = t == RULE_NONE ? RULE_NONE : renumber[t];
                refs = xgrow(refs, &refs_cap, nrefs + 1, sizeof *refs);
                refs[nrefs++] = e;
            }
            stack = xgrow(stack, &stack_cap, depth + e->nchildren, sizeof *stack);
            for (uint32_t c = 0; c < e->nchildren; c++)
                stack[depth++] = e->children[c];
        }
    }
    first_ref[n] = (uint32_t)nrefs;

    HASH_CLEAR(hh, g->index); /* the old entries stay in the arena, unused */
    for (uint32_t r = 0; r < n; r++) {
        g->rules[r].reachable = false;
        index_rule(g, r);
    }
    uint32_t *queue = xmalloc(((size_t)n + 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    if (g->start != RULE_NONE) {
        g->rules[g->start].reachable = true;
        queue[tail++] = g->start;
    }
    while (head < tail) {
        uint32_t r = queue[head++];
        for (uint32_t k = first_ref[r]; k < first_ref[r + 1]; k++) {
            uint32_t t = refs[k]->u.ref.target;
            if (t != RULE_NONE && !g->rules[t].reachable) {
                g->rules[t].reachable = true;
                queue[tail++] = t;
            }
        }
    }
    free(queue);
    free(first_ref);
    free(refs);
    free(stack);
    free(renumber);
}

/* ---- weights ------------------------------------------------------------ */

/* When every alternative is annotated and the weights add up to less than 1,
 * each still gets exactly its annotation (the probabilities then sum to less
 * than 1; a sampler normalizes).  Unannotated alternatives share what the
 * annotated ones leave equally (0 each when nothing is left). */
double grammar_alt_probability(const struct expr *alt, uint32_t i)
{
    if (alt->kind != EXPR_ALT || i >= alt->nchildren)
        return 0;
    const double *w = alt->u.alt.weights;
    if (!w)
        return 1.0 / alt->nchildren;
    if (w[i] >= 0)
        return w[i];
    double sum = 0;
    uint32_t unannotated = 0;
    for (uint32_t k = 0; k < alt->nchildren; k++) {
        if (w[k] >= 0)
            sum += w[k];
        else
            unannotated++;
    }
    double rest = 1 - sum;
    if (rest < 0)
        rest = 0;
    return rest / unannotated;
}

/* ---- labels ------------------------------------------------------------- */

void grammar_quant_label(const struct expr *quant, struct strbuf *out)
{
    uint32_t min = quant->u.quant.min, max = quant->u.quant.max;
    if (min == 0 && max == 1)
        strbuf_addch(out, '?');
    else if (min == 0 && max == QUANT_INFINITE)
        strbuf_addch(out, '*');
    else if (min == 1 && max == QUANT_INFINITE)
        strbuf_addch(out, '+');
    else if (min == max)
        strbuf_addf(out, "{%u}", (unsigned)min);
    else if (max == QUANT_INFINITE)
        strbuf_addf(out, "{%u,}", (unsigned)min);
    else if (min == 0)
        strbuf_addf(out, "{,%u}", (unsigned)max);
    else
        strbuf_addf(out, "{%u,%u}", (unsigned)min, (unsigned)max);
}

/* Control characters are escaped (\n \r \t, else \xHH, or \u{HH} for C1);
 * other characters are kept.  A byte that is not UTF-8 shows as \xHH, which
 * is lossy: reading the label back gives U+00HH. */
void grammar_lit_label(const char *text, size_t len, struct strbuf *out)
{
    strbuf_addch(out, '"');
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        uint32_t cp = c;
        size_t n = c < 0x80 ? 1 : utf8_decode(text + i, len - i, &cp);
        if (!n) {
            strbuf_addf(out, "\\x%02X", (unsigned)c);
            i++;
            continue;
        }
        switch (cp) {
        case '"': strbuf_addstr(out, "\\\""); break;
        case '\\': strbuf_addstr(out, "\\\\"); break;
        case '\n': strbuf_addstr(out, "\\n"); break;
        case '\r': strbuf_addstr(out, "\\r"); break;
        case '\t': strbuf_addstr(out, "\\t"); break;
        default:
            if (cp < 0x20 || cp == 0x7F)
                strbuf_addf(out, "\\x%02X", (unsigned)cp);
            else if (cp >= 0x80 && cp < 0xA0)
                strbuf_addf(out, "\\u{%X}", (unsigned)cp);
            else
                strbuf_add(out, text + i, n);
            break;
        }
        i += n;
    }
    strbuf_addch(out, '"');
}

/* ---- classes ------------------------------------------------------------ */

static bool is_character(uint32_t cp)
{
    return cp <= UTF8_MAX_CODEPOINT && (cp < SURROGATE_LO || cp > SURROGATE_HI);
}

bool grammar_class_matches(const struct expr *cls, uint32_t cp)
{
    if (!is_character(cp))
        return false;
    const struct class_range *r = cls->u.cls.ranges;
    uint32_t lo = 0, hi = cls->u.cls.nranges;
    bool in = false;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cp < r[mid].lo) {
            hi = mid;
        } else if (cp > r[mid].hi) {
            lo = mid + 1;
        } else {
            in = true;
            break;
        }
    }
    return in != cls->u.cls.negated;
}

/* Characters in [lo,hi], surrogates excluded (lo <= hi). */
static uint64_t interval_size(uint32_t lo, uint32_t hi)
{
    uint64_t n = (uint64_t)hi - lo + 1;
    uint32_t a = lo > SURROGATE_LO ? lo : SURROGATE_LO;
    uint32_t b = hi < SURROGATE_HI ? hi : SURROGATE_HI;
    if (a <= b)
        n -= (uint64_t)b - a + 1;
    return n;
}

/* The n-th character of [lo,hi] (surrogates excluded): true with *cp, or
 * false with n reduced by the interval's size. */
static bool interval_nth(uint32_t lo, uint32_t hi, uint64_t *n, uint32_t *cp)
{
    uint32_t piece[2][2] = {{lo, hi < SURROGATE_LO - 1 ? hi : SURROGATE_LO - 1},
                            {lo > SURROGATE_HI + 1 ? lo : SURROGATE_HI + 1, hi}};
    for (int k = 0; k < 2; k++) {
        if (piece[k][0] > piece[k][1])
            continue;
        uint64_t size = (uint64_t)piece[k][1] - piece[k][0] + 1;
        if (*n < size) {
            *cp = piece[k][0] + (uint32_t)*n;
            return true;
        }
        *n -= size;
    }
    return false;
}

uint64_t grammar_class_size(const struct expr *cls)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < cls->u.cls.nranges; k++)
        n += interval_size(cls->u.cls.ranges[k].lo, cls->u.cls.ranges[k].hi);
    return cls->u.cls.negated ? CHARACTER_COUNT - n : n;
}

/* Returns UINT32_MAX when n is not below grammar_class_size. */
uint32_t grammar_class_nth(const struct expr *cls, uint64_t n)
{
    const struct class_range *r = cls->u.cls.ranges;
    uint32_t cp;
    if (!cls->u.cls.negated) {
        for (uint32_t k = 0; k < cls->u.cls.nranges; k++)
            if (interval_nth(r[k].lo, r[k].hi, &n, &cp))
                return cp;
        return UINT32_MAX;
    }
    uint32_t next = 0; /* first code point not yet covered */
    for (uint32_t k = 0; k < cls->u.cls.nranges; k++) {
        if (r[k].lo > next && interval_nth(next, r[k].lo - 1, &n, &cp))
            return cp;
        if (r[k].hi >= UTF8_MAX_CODEPOINT)
            return UINT32_MAX;
        next = r[k].hi + 1;
    }
    if (interval_nth(next, UTF8_MAX_CODEPOINT, &n, &cp))
        return cp;
    return UINT32_MAX;
}

/* Returns UINT32_MAX for a class without members. */
uint32_t grammar_class_default_char(const struct expr *cls)
{
    for (uint32_t cp = '!'; cp <= '~'; cp++)
        if (grammar_class_matches(cls, cp))
            return cp;
    if (grammar_class_matches(cls, ' '))
        return ' ';
    return grammar_class_nth(cls, 0);
}

/* import_regex: regex terminals of other formats as kpath syntax trees. */
#include "formats/import_regex.h"

#include <stdbool.h>
#include <stdlib.h>

#include "grammar/grammar_build.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "base/number.h"

#define REGEX_MAX_NESTING 200

struct rx {
    struct grammar *g;
    enum regex_dialect d;
    const struct regex_char *c;
    size_t n, i;
    struct src_pos end;
    const char *file;
    struct diag_list *diags;
    struct regex_notes *notes;
    bool failed;
};

struct ranges {
    struct class_range *r;
    size_t n, cap;
};

static void ranges_add(struct ranges *rs, uint32_t lo, uint32_t hi)
{
    rs->r = xgrow(rs->r, &rs->cap, rs->n + 1, sizeof *rs->r);
    rs->r[rs->n++] = (struct class_range){lo, hi};
}

/* The complement of set[0..n) over all code points, added to rs. */
static void ranges_add_complement(struct ranges *rs, const struct class_range *set, size_t n)
{
    struct class_range *s = xmalloc((n ? n : 1) * sizeof *s);
    for (size_t k = 0; k < n; k++)
        s[k] = set[k];
    n = gb_normalize_ranges(s, n);
    uint32_t next = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k].lo > next)
            ranges_add(rs, next, s[k].lo - 1);
        next = s[k].hi + 1;
    }
    if (next <= UTF8_MAX_CODEPOINT)
        ranges_add(rs, next, UTF8_MAX_CODEPOINT);
    free(s);
}

static struct src_pos pos_at(const struct rx *x, size_t i)
{
    return i < x->n ? x->c[i].pos : x->end;
}

static void rx_error(struct rx *x, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void rx_error(struct rx *x, size_t at, const char *fmt, ...)
{
    if (x->failed)
        return; /* one error per regex: the rest would follow from it */
    struct src_pos p = pos_at(x, at);
    va_list ap;
    va_start(ap, fmt);
    diag_vadd(x->diags, DIAG_ERROR, x->file, p.line, p.col, fmt, ap);
    va_end(ap);
    x->failed = true;
}

static bool more(const struct rx *x)
{
    return !x->failed && x->i < x->n;
}

static bool peek_is(const struct rx *x, uint32_t cp)
{
    return x->i < x->n && x->c[x->i].cp == cp;
}

static bool is_digit(uint32_t c)
{
    return c >= '0' && c <= '9';
}

/* The shorthand classes of Python's re, ASCII. */
static bool python_shorthand(uint32_t c, struct ranges *rs, bool *negated)
{
    static const struct class_range digit[] = {{'0', '9'}};
    static const struct class_range word[] = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
    static const struct class_range space[] = {{'\t', '\r'}, {' ', ' '}};
    const struct class_range *set;
    size_t n;
    switch (c | 0x20) {
    case 'd': set = digit, n = 1; break;
    case 'w': set = word, n = 4; break;
    case 's': set = space, n = 2; break;
    default: return false;
    }
    *negated = c >= 'A' && c <= 'Z';
    for (size_t k = 0; k < n; k++)
        ranges_add(rs, set[k].lo, set[k].hi);
    return true;
}

/* After a backslash (consumed) in Python's re: one character into *cp, or a
 * shorthand class into rs (returns 2), or an error (returns 0). */
static int python_escape(struct rx *x, size_t at, bool in_class, uint32_t *cp,
                         struct ranges *rs, bool *negated)
{
    if (x->i >= x->n) {
        rx_error(x, at, "a regex cannot end with a backslash");
        return 0;
    }
    uint32_t c = x->c[x->i++].cp;
    if (python_shorthand(c, rs, negated))
        return 2;
    int digits = 0;
    switch (c) {
    case 'n': *cp = '\n'; return 1;
    case 't': *cp = '\t'; return 1;
    case 'r': *cp = '\r'; return 1;
    case 'f': *cp = '\f'; return 1;
    case 'v': *cp = '\v'; return 1;
    case 'a': *cp = '\a'; return 1;
    case 'b':
        if (in_class) {
            *cp = '\b';
            return 1;
        }
        break;
    case '0':
        *cp = 0;
        for (int k = 0; k < 2 && x->i < x->n && x->c[x->i].cp >= '0' && x->c[x->i].cp <= '7'; k++)
            *cp = *cp * 8 + (x->c[x->i++].cp - '0');
        return 1;
    case 'x': digits = 2; break;
    case 'u': digits = 4; break;
    case 'U': digits = 8; break;
    default: break;
    }
    if (digits) {
        uint32_t v = 0;
        for (int k = 0; k < digits; k++) {
            int h = x->i < x->n ? number_hex_digit(x->c[x->i].cp) : -1;
            if (h < 0) {
                rx_error(x, at, "'\\%c' in a regex needs %d hexadecimal digits", (char)c, digits);
                return 0;
            }
            v = v * 16 + (uint32_t)h;
            x->i++;
        }
        if (v > UTF8_MAX_CODEPOINT) {
            rx_error(x, at, "'\\U%08X' is not a Unicode character", (unsigned)v);
            return 0;
        }
        *cp = v;
        return 1;
    }
    if (is_digit(c)) {
        rx_error(x, at, "back-references (\\%c) in a regex cannot be expressed in a "
                        "context-free grammar", (char)c);
        return 0;
    }
    if (c == 'b' || c == 'B' || c == 'A' || c == 'Z' || c == 'z') {
        rx_error(x, at, "the anchor '\\%c' in a regex is not supported", (char)c);
        return 0;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        rx_error(x, at, "unknown escape '\\%c' in a regex", (char)c);
        return 0;
    }
    *cp = c;
    return 1;
}

/* One member of a class: a character (1) or a shorthand class (2); 0 on error. */
static int class_item(struct rx *x, uint32_t *cp, struct ranges *rs, bool *negated)
{
    size_t at = x->i;
    uint32_t c = x->c[x->i++].cp;
    if (c != '\\') {
        *cp = c;
        return 1;
    }
    if (x->d == REGEX_BRICS) {
        if (x->i >= x->n) {
            rx_error(x, at, "a regex cannot end with a backslash");
            return 0;
        }
        *cp = x->c[x->i++].cp;
        return 1;
    }
    return python_escape(x, at, true, cp, rs, negated);
}

/* After '[' (consumed). */
static struct expr *parse_class(struct rx *x, size_t open)
{
    struct ranges rs = {0};
    bool negated = false;
    if (peek_is(x, '^')) {
        negated = true;
        x->i++;
    }
    bool first = true;
    while (more(x) && (first || !peek_is(x, ']'))) {
        first = false;
        struct ranges sub = {0};
        bool sub_negated = false;
        uint32_t lo = 0;
        int kind = class_item(x, &lo, &sub, &sub_negated);
        if (kind == 2) {
            if (sub_negated)
                ranges_add_complement(&rs, sub.r, sub.n);
            else
                for (size_t k = 0; k < sub.n; k++)
                    ranges_add(&rs, sub.r[k].lo, sub.r[k].hi);
        }
        free(sub.r);
        if (kind != 1)
            continue;
        uint32_t hi = lo;
        if (peek_is(x, '-') && x->i + 1 < x->n && x->c[x->i + 1].cp != ']') {
            size_t dash = x->i++;
            struct ranges bad = {0};
            bool bad_negated;
            int k2 = class_item(x, &hi, &bad, &bad_negated);
            free(bad.r);
            if (k2 == 2)
                rx_error(x, dash, "a range in a regex class cannot end with a class");
            else if (k2 == 1 && hi < lo)
                rx_error(x, dash, "inverted range in a regex class");
            if (k2 != 1 || hi < lo)
                continue;
        }
        ranges_add(&rs, lo, hi);
    }
    struct expr *e = NULL;
    if (!x->failed && !peek_is(x, ']')) {
        rx_error(x, open, "unterminated class '[' in a regex");
    } else if (!x->failed) {
        struct src_pos end = pos_at(x, x->i + 1);
        x->i++;
        e = gb_class(x->g, rs.r, rs.n, negated, pos_at(x, open), end);
    }
    free(rs.r);
    return e;
}

static struct expr *single_class(struct rx *x, size_t at, const struct class_range *r, size_t n,
                                 bool negated)
{
    return gb_class(x->g, r, n, negated, pos_at(x, at), pos_at(x, x->i));
}

static struct expr *parse_union(struct rx *x, int depth);
static struct expr *parse_atom(struct rx *x, int depth, uint32_t *plain);

/* The characters e stands for when it is one character (a class, a literal
 * of one character, or an alternation of those), added to rs; else false. */
static bool single_char_set(const struct expr *e, struct ranges *rs)
{
    if (e->kind == EXPR_CLASS) {
        if (e->u.cls.negated)
            ranges_add_complement(rs, e->u.cls.ranges, e->u.cls.nranges);
        else
            for (uint32_t k = 0; k < e->u.cls.nranges; k++)
                ranges_add(rs, e->u.cls.ranges[k].lo, e->u.cls.ranges[k].hi);
        return true;
    }
    if (e->kind == EXPR_LIT) {
        uint32_t cp;
        size_t n = utf8_decode(e->u.lit.text, e->u.lit.len, &cp);
        if (!n || n != e->u.lit.len)
            return false;
        ranges_add(rs, cp, cp);
        return true;
    }
    if (e->kind != EXPR_ALT)
        return false;
    for (uint32_t k = 0; k < e->nchildren; k++)
        if (!single_char_set(e->children[k], rs))
            return false;
    return true;
}

/* brics's ~X (after '~', consumed): every string but those X matches.  When
 * X is a set S of single characters that is "" | [^S] | .{2,}, exactly;
 * anything else would need the automaton, which kpath does not build. */
static struct expr *complement(struct rx *x, size_t at, int depth)
{
    if (depth >= REGEX_MAX_NESTING) {
        rx_error(x, at, "'~' in a regex nested deeper than %d", REGEX_MAX_NESTING);
        return NULL;
    }
    if (x->i >= x->n) {
        rx_error(x, at, "'~' at the end of a regex has nothing to complement");
        return NULL;
    }
    size_t op = x->i;
    uint32_t plain;
    struct expr *e = parse_atom(x, depth + 1, &plain);
    if (x->failed)
        return NULL;
    struct ranges rs = {0};
    if (plain != UINT32_MAX)
        ranges_add(&rs, plain, plain);
    else if (!single_char_set(e, &rs)) {
        free(rs.r);
        rx_error(x, at, "'~' (complement) in a regex is supported only for a set of single "
                        "characters; the complement of a longer string cannot be written "
                        "without its automaton");
        return NULL;
    }
    struct src_pos pos = pos_at(x, at), end = pos_at(x, x->i);
    if (x->notes && !x->notes->complements++)
        x->notes->first_complement = pos;
    struct class_range all = {0, UTF8_MAX_CODEPOINT};
    struct expr *alts[3];
    alts[0] = gb_lit(x->g, "", 0, pos, end);
    alts[1] = gb_class(x->g, rs.r, rs.n, true, pos_at(x, op), end);
    alts[2] = gb_quant(x->g, gb_class(x->g, &all, 1, false, pos, end), 2, QUANT_INFINITE,
                       pos, end);
    free(rs.r);
    return gb_alt(x->g, alts, 3, NULL, pos, end);
}

/* An atom; *plain is set to the character when it is a plain one (so the
 * caller can merge it into a literal), else left as UINT32_MAX. */
static struct expr *parse_atom(struct rx *x, int depth, uint32_t *plain)
{
    size_t at = x->i;
    uint32_t c = x->c[x->i++].cp;
    *plain = UINT32_MAX;
    if (c == '(') {
        if (depth >= REGEX_MAX_NESTING) {
            rx_error(x, at, "parentheses in a regex nested deeper than %d", REGEX_MAX_NESTING);
            return NULL;
        }
        if (x->d == REGEX_BRICS && peek_is(x, ')')) {
            x->i++;
            return gb_lit(x->g, "", 0, pos_at(x, at), pos_at(x, x->i));
        }
        if (x->d == REGEX_PYTHON && peek_is(x, '?')) {
            x->i++;
            if (peek_is(x, ':')) {
                x->i++;
            } else if (peek_is(x, 'P') && x->i + 1 < x->n && x->c[x->i + 1].cp == '<') {
                while (x->i < x->n && x->c[x->i].cp != '>')
                    x->i++;
                x->i++;
            } else {
                rx_error(x, at, "'(?' in a regex (look-around, flags, conditionals) is not "
                                "supported; only (?:...) and (?P<name>...) groups are");
                return NULL;
            }
        }
        struct expr *e = parse_union(x, depth + 1);
        if (!x->failed && !peek_is(x, ')'))
            rx_error(x, x->i, "expected ')' to close the '(' at %u:%u in the regex",
                     pos_at(x, at).line, pos_at(x, at).col);
        x->i++;
        return x->failed ? NULL : e;
    }
    if (c == '[')
        return parse_class(x, at);
    if (c == '.') {
        if (x->d == REGEX_BRICS) {
            struct class_range all = {0, UTF8_MAX_CODEPOINT};
            return single_class(x, at, &all, 1, false);
        }
        struct class_range nl = {'\n', '\n'};
        return single_class(x, at, &nl, 1, true);
    }
    if (x->d == REGEX_BRICS) {
        if (c == '&') {
            rx_error(x, at, "'&' (intersection) in a regex cannot be expressed in a "
                            "context-free grammar; write \\& for the character");
            return NULL;
        }
        if (c == '~')
            return complement(x, at, depth);
        if (c == '"') {
            struct strbuf sb = STRBUF_INIT;
            while (x->i < x->n && x->c[x->i].cp != '"')
                strbuf_add_utf8(&sb, x->c[x->i++].cp);
            if (x->i >= x->n) {
                strbuf_free(&sb);
                rx_error(x, at, "unterminated string '\"' in a regex");
                return NULL;
            }
            x->i++;
            struct expr *e = gb_lit(x->g, sb.data ? sb.data : "", sb.len, pos_at(x, at),
                                    pos_at(x, x->i));
            strbuf_free(&sb);
            return e;
        }
        if (c == '\\') {
            if (x->i >= x->n) {
                rx_error(x, at, "a regex cannot end with a backslash");
                return NULL;
            }
            c = x->c[x->i++].cp;
        }
        *plain = c;
        return NULL;
    }
    /* Python */
    if (c == '*' || c == '+' || c == '?' || c == '{') {
        if (c != '{') {
            rx_error(x, at, "nothing to repeat before '%c' in the regex", (char)c);
            return NULL;
        }
    }
    if (c == '^' || c == '$') {
        rx_error(x, at, "the anchor '%c' is only supported at the %s of a regex", (char)c,
                 c == '^' ? "start" : "end");
        return NULL;
    }
    if (c == '\\') {
        struct ranges rs = {0};
        bool negated = false;
        uint32_t cp = 0;
        int kind = python_escape(x, at, false, &cp, &rs, &negated);
        struct expr *e = NULL;
        if (kind == 2)
            e = single_class(x, at, rs.r, rs.n, negated);
        else if (kind == 1)
            *plain = cp;
        free(rs.r);
        return e;
    }
    *plain = c;
    return NULL;
}

/* A quantifier at the cursor: true with min/max (and the cursor past it). */
static bool parse_quantifier(struct rx *x, uint32_t *min, uint32_t *max)
{
    if (!more(x))
        return false;
    uint32_t c = x->c[x->i].cp;
    if (c == '?' || c == '*' || c == '+') {
        x->i++;
        *min = c == '+';
        *max = c == '?' ? 1 : QUANT_INFINITE;
    } else if (c == '{') {
        size_t j = x->i + 1;
        uint64_t a = 0, b = 0;
        bool has_a = false, has_b = false, comma = false;
        for (; j < x->n && is_digit(x->c[j].cp); j++, has_a = true)
            a = a < 100000000 ? a * 10 + (x->c[j].cp - '0') : a;
        if (j < x->n && x->c[j].cp == ',') {
            comma = true;
            for (j++; j < x->n && is_digit(x->c[j].cp); j++, has_b = true)
                b = b < 100000000 ? b * 10 + (x->c[j].cp - '0') : b;
        }
        bool ok = j < x->n && x->c[j].cp == '}' &&
                  (has_a || (x->d == REGEX_PYTHON && comma));
        if (!ok) {
            if (x->d == REGEX_BRICS)
                rx_error(x, x->i, "expected a repetition {n}, {n,} or {n,m} in the regex");
            return false; /* Python: '{' is a character */
        }
        if (a > 65535 || b > 65535) {
            rx_error(x, x->i, "repetition count larger than 65535 in the regex");
            return false;
        }
        if (comma && has_b && b < a) {
            rx_error(x, x->i, "repetition {%u,%u} in the regex: the minimum exceeds the maximum",
                     (unsigned)a, (unsigned)b);
            return false;
        }
        *min = (uint32_t)a;
        *max = !comma ? (uint32_t)a : has_b ? (uint32_t)b : QUANT_INFINITE;
        x->i = j + 1;
    } else {
        return false;
    }
    /* Python's lazy and possessive forms match the same language. */
    if (x->d == REGEX_PYTHON && more(x) && (peek_is(x, '?') || peek_is(x, '+')))
        x->i++;
    return true;
}

static bool at_concat_end(const struct rx *x)
{
    if (!more(x))
        return true;
    uint32_t c = x->c[x->i].cp;
    return c == '|' || c == ')';
}

static void flush_literal(struct rx *x, struct strbuf *lit, size_t *lit_at,
                          struct expr_list *items)
{
    if (*lit_at == SIZE_MAX)
        return;
    expr_list_push(items, gb_lit(x->g, lit->data ? lit->data : "", lit->len,
                                 pos_at(x, *lit_at), pos_at(x, x->i)));
    strbuf_reset(lit);
    *lit_at = SIZE_MAX;
}

static struct expr *parse_concat(struct rx *x, int depth)
{
    size_t start = x->i;
    struct expr_list items = {0};
    struct strbuf lit = STRBUF_INIT;
    size_t lit_at = SIZE_MAX;
    if (at_concat_end(x) && x->d == REGEX_BRICS && !x->failed)
        rx_error(x, x->i, "empty alternative in a regex (write () for the empty string)");
    while (!at_concat_end(x)) {
        size_t at = x->i;
        uint32_t plain;
        struct expr *e = parse_atom(x, depth, &plain);
        if (x->failed)
            break;
        uint32_t min, max;
        bool quantified = parse_quantifier(x, &min, &max);
        if (x->failed)
            break;
        if (plain != UINT32_MAX && !quantified) {
            if (lit_at == SIZE_MAX)
                lit_at = at;
            strbuf_add_utf8(&lit, plain);
            continue;
        }
        flush_literal(x, &lit, &lit_at, &items);
        if (plain != UINT32_MAX) {
            char buf[4];
            size_t len = utf8_encode(plain, buf);
            e = gb_lit(x->g, buf, len, pos_at(x, at), pos_at(x, at + 1));
        }
        while (quantified) {
            e = gb_quant(x->g, e, min, max, pos_at(x, at), pos_at(x, x->i));
            quantified = parse_quantifier(x, &min, &max);
        }
        expr_list_push(&items, e);
    }
    flush_literal(x, &lit, &lit_at, &items);
    strbuf_free(&lit);
    struct expr *e = NULL;
    if (!x->failed)
        e = gb_seq(x->g, items.items, items.len, pos_at(x, start), pos_at(x, x->i));
    expr_list_free(&items);
    return e;
}

static struct expr *parse_union(struct rx *x, int depth)
{
    size_t start = x->i;
    struct expr_list alts = {0};
    for (;;) {
        struct expr *e = parse_concat(x, depth);
        if (x->failed)
            break;
        expr_list_push(&alts, e);
        if (!peek_is(x, '|'))
            break;
        x->i++;
    }
    struct expr *e = NULL;
    if (!x->failed)
        e = gb_alt(x->g, alts.items, alts.len, NULL, pos_at(x, start), pos_at(x, x->i));
    expr_list_free(&alts);
    return e;
}

struct expr *import_regex(struct grammar *g, enum regex_dialect dialect,
                          const struct regex_char *chars, size_t n, struct src_pos end,
                          const char *file, struct diag_list *diags, struct regex_notes *notes)
{
    struct rx x = {g, dialect, chars, n, 0, end, file, diags, notes, false};
    if (dialect == REGEX_PYTHON) {
        /* Fandango matches a regex as a whole at its place in the input. */
        if (x.n && chars[0].cp == '^')
            x.i = 1;
        if (x.n > x.i && chars[x.n - 1].cp == '$' &&
            !(x.n >= 2 && chars[x.n - 2].cp == '\\'))
            x.n--;
    }
    struct expr *e = parse_union(&x, 0);
    if (!x.failed && x.i < x.n)
        rx_error(&x, x.i, "unbalanced ')' in the regex");
    return x.failed ? NULL : e;
}

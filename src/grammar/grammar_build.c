/* grammar_build: building kpath syntax trees for the importers. */
#include "grammar/grammar_build.h"

#include <stdlib.h>
#include <string.h>

#include "base/line_end.h"
#include "base/utf8.h"
#include "base/xalloc.h"

void expr_list_push(struct expr_list *l, struct expr *e)
{
    l->items = xgrow(l->items, &l->cap, l->len + 1, sizeof *l->items);
    l->items[l->len++] = e;
}

void expr_list_free(struct expr_list *l)
{
    free(l->items);
    l->items = NULL;
    l->len = l->cap = 0;
}

static struct expr *node(struct grammar *g, enum expr_kind kind, struct src_pos pos,
                         struct src_pos end)
{
    struct expr *e = grammar_new_expr(g, kind, RULE_NONE);
    e->pos = pos;
    e->end = end;
    return e;
}

static void set_children(struct grammar *g, struct expr *e, struct expr *const *kids, size_t n)
{
    e->nchildren = (uint32_t)n;
    e->children = arena_alloc(&g->arena, (n ? n : 1) * sizeof *e->children);
    for (size_t k = 0; k < n; k++) {
        e->children[k] = kids[k];
        kids[k]->parent = e;
    }
}

struct expr *gb_lit(struct grammar *g, const char *text, size_t len, struct src_pos pos,
                    struct src_pos end)
{
    struct expr *e = node(g, EXPR_LIT, pos, end);
    e->u.lit.text = arena_strndup(&g->arena, text ? text : "", text ? len : 0);
    e->u.lit.len = text ? len : 0;
    return e;
}

static int range_cmp(const void *a, const void *b)
{
    const struct class_range *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi < y->hi ? -1 : x->hi > y->hi;
}

size_t gb_normalize_ranges(struct class_range *r, size_t n)
{
    if (n > 1)
        qsort(r, n, sizeof *r, range_cmp);
    size_t out = 0;
    for (size_t k = 0; k < n; k++) {
        if (out && r[k].lo <= r[out - 1].hi + 1) {
            if (r[k].hi > r[out - 1].hi)
                r[out - 1].hi = r[k].hi;
        } else {
            r[out++] = r[k];
        }
    }
    return out;
}

/* One character of a class as the .ebnf lexer reads it back. */
static void class_char(uint32_t cp, struct strbuf *out)
{
    switch (cp) {
    case '\n': strbuf_addstr(out, "\\n"); return;
    case '\r': strbuf_addstr(out, "\\r"); return;
    case '\t': strbuf_addstr(out, "\\t"); return;
    case '\\': case ']': case '[': case '-': case '^': case '"': case '\'':
        strbuf_addch(out, '\\');
        strbuf_addch(out, (char)cp);
        return;
    default: break;
    }
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp > 0xFFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        strbuf_addf(out, "\\u{%X}", (unsigned)cp);
    else
        strbuf_add_utf8(out, cp);
}

void gb_class_source(const struct class_range *ranges, size_t n, bool negated,
                     struct strbuf *out)
{
    strbuf_addstr(out, negated ? "[^" : "[");
    for (size_t k = 0; k < n; k++) {
        class_char(ranges[k].lo, out);
        if (ranges[k].hi != ranges[k].lo) {
            if (ranges[k].hi != ranges[k].lo + 1)
                strbuf_addch(out, '-');
            class_char(ranges[k].hi, out);
        }
    }
    strbuf_addch(out, ']');
}

/* Ranges r[0..n) (normalized) with no endpoint among the UTF-16 surrogates
 * U+D800..U+DFFF, in place; returns the count.  Surrogates are no characters
 * in kpath's UTF-8 text, so no class matches them whatever its ranges say,
 * but the .ebnf lexer refuses them in escapes: a class that named them
 * (ANTLR's [\uD800-\uDBFF], the UTF-16 halves of Java's lexers) must not
 * be written with them.  A range across the block keeps its endpoints. */
static size_t without_surrogates(struct class_range *r, size_t n)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t lo = r[k].lo, hi = r[k].hi;
        if (lo >= UTF8_SURROGATE_LO && lo <= UTF8_SURROGATE_HI)
            lo = UTF8_SURROGATE_HI + 1;
        if (hi >= UTF8_SURROGATE_LO && hi <= UTF8_SURROGATE_HI)
            hi = UTF8_SURROGATE_LO - 1;
        if (lo <= hi)
            r[m++] = (struct class_range){lo, hi};
    }
    return m;
}

struct expr *gb_class(struct grammar *g, const struct class_range *ranges, size_t n,
                      bool negated, struct src_pos pos, struct src_pos end)
{
    struct expr *e = node(g, EXPR_CLASS, pos, end);
    struct class_range *r = arena_alloc(&g->arena, (n ? n : 1) * sizeof *r);
    if (n)
        memcpy(r, ranges, n * sizeof *r);
    n = without_surrogates(r, gb_normalize_ranges(r, n));
    if (n == 0 && !negated) {
        /* Nothing but surrogates: a class of no character, written the one
         * way the .ebnf lexer reads one, [^\u{0}-\u{10FFFF}]. */
        r[n++] = (struct class_range){0, UTF8_MAX_CODEPOINT};
        negated = true;
    }
    e->u.cls.ranges = r;
    e->u.cls.nranges = (uint32_t)n;
    e->u.cls.negated = negated;
    struct strbuf sb = STRBUF_INIT;
    gb_class_source(r, n, negated, &sb);
    e->u.cls.source = arena_strndup(&g->arena, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    return e;
}

struct expr *gb_ref(struct grammar *g, const char *name, size_t len, struct src_pos pos,
                    struct src_pos end)
{
    struct expr *e = node(g, EXPR_REF, pos, end);
    e->u.ref.name = arena_strndup(&g->arena, name, len);
    e->u.ref.target = RULE_NONE;
    return e;
}

struct expr *gb_quant(struct grammar *g, struct expr *child, uint32_t min, uint32_t max,
                      struct src_pos pos, struct src_pos end)
{
    struct expr *e = node(g, EXPR_QUANT, pos, end);
    e->u.quant.min = min;
    e->u.quant.max = max;
    set_children(g, e, &child, 1);
    return e;
}

struct expr *gb_seq(struct grammar *g, struct expr *const *items, size_t n, struct src_pos pos,
                    struct src_pos end)
{
    if (n == 0)
        return gb_lit(g, "", 0, pos, end);
    if (n == 1)
        return items[0];
    struct expr *e = node(g, EXPR_CAT, pos, end);
    set_children(g, e, items, n);
    return e;
}

struct expr *gb_alt(struct grammar *g, struct expr *const *alts, size_t n,
                    const double *weights, struct src_pos pos, struct src_pos end)
{
    if (n == 1)
        return alts[0];
    struct expr *e = node(g, EXPR_ALT, pos, end);
    set_children(g, e, alts, n);
    if (weights) {
        bool any = false;
        for (size_t k = 0; k < n; k++)
            any = any || weights[k] >= 0;
        if (any) {
            e->u.alt.weights = arena_alloc(&g->arena, n * sizeof *e->u.alt.weights);
            memcpy(e->u.alt.weights, weights, n * sizeof *weights);
        }
    }
    return e;
}

uint32_t gb_add_rule(struct grammar *g, const char *name, struct src_pos pos, struct expr *rhs)
{
    uint32_t idx = grammar_add_rule(g, name, rhs);
    if (idx != RULE_NONE)
        g->rules[idx].pos = pos;
    return idx;
}

void text_cursor_init(struct text_cursor *c, const char *src, size_t len)
{
    c->src = src;
    c->len = len;
    c->i = 0;
    c->line = c->col = 1;
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
        c->i = 3; /* a byte order mark is not part of the text */
}

uint32_t text_cursor_peek(const struct text_cursor *c)
{
    if (c->i >= c->len)
        return 0;
    uint32_t cp;
    unsigned char b = (unsigned char)c->src[c->i];
    if (b < 0x80)
        return b;
    return utf8_decode(c->src + c->i, c->len - c->i, &cp) ? cp : 0xFFFD;
}

uint32_t text_cursor_next(struct text_cursor *c)
{
    if (c->i >= c->len)
        return 0;
    uint32_t cp;
    unsigned char b = (unsigned char)c->src[c->i];
    size_t n = 1;
    if (b < 0x80) {
        cp = b;
    } else {
        n = utf8_decode(c->src + c->i, c->len - c->i, &cp);
        if (!n) {
            n = 1;
            cp = 0xFFFD;
        }
    }
    c->i += n;
    if (cp == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    return cp;
}

bool gb_check_utf8(const char *file, const char *src, size_t len, struct diag_list *diags)
{
    struct text_cursor c;
    text_cursor_init(&c, src, len);
    while (c.i < c.len) {
        unsigned char b = (unsigned char)c.src[c.i];
        uint32_t cp;
        if (b >= 0x80 && !utf8_decode(c.src + c.i, c.len - c.i, &cp)) {
            diag_add(diags, DIAG_ERROR, file, c.line, c.col, "invalid UTF-8 byte 0x%02X",
                     (unsigned)b);
            return false;
        }
        text_cursor_next(&c);
    }
    return true;
}

bool gb_reader_text(const char *file, const char **text, size_t len, char **unified,
                    struct diag_list *diags)
{
    *unified = line_end_unify(*text, len);
    if (*unified)
        *text = *unified;
    if (gb_check_utf8(file, *text, len, diags))
        return true;
    free(*unified);
    *unified = NULL;
    return false;
}

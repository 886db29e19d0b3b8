/* rule_names: names that read for learned rules (see rule_names.h). */
#include "infer/rule_names.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* ---- the items of a rule, flattened ---------------------------------------
 * A right-hand side read as one sequence: sequences and optional parts
 * ("x?", the nested optional chains a learned grammar has) are opened up,
 * everything else (alternatives, repetitions, classes, literals, references)
 * is one item. */
struct items {
    const struct expr **v;
    size_t n, cap;
};

static void flatten(const struct expr *rhs, struct items *out)
{
    out->n = 0;
    const struct expr **stack = NULL;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = rhs;
    while (depth) {
        const struct expr *e = stack[--depth];
        bool open = e->kind == EXPR_CAT ||
                    (e->kind == EXPR_QUANT && e->u.quant.min == 0 && e->u.quant.max == 1);
        if (!open) {
            out->v = xgrow(out->v, &out->cap, out->n + 1, sizeof *out->v);
            out->v[out->n++] = e;
            continue;
        }
        stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
        for (uint32_t c = e->nchildren; c-- > 0;) /* the first child on top */
            stack[depth++] = e->children[c];
    }
    free(stack);
}

static bool lit_is(const struct expr *e, const char *s)
{
    return e->kind == EXPR_LIT && e->u.lit.len == strlen(s) && memcmp(e->u.lit.text, s, e->u.lit.len) == 0;
}

static bool lit_has(const struct expr *e, const char *s)
{
    size_t n = strlen(s);
    if (e->kind != EXPR_LIT || e->u.lit.len < n)
        return false;
    for (size_t i = 0; i + n <= e->u.lit.len; i++)
        if (memcmp(e->u.lit.text + i, s, n) == 0)
            return true;
    return false;
}

static bool lit_alnum(const struct expr *e)
{
    for (size_t i = 0; i < e->u.lit.len; i++) {
        unsigned char c = (unsigned char)e->u.lit.text[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return false;
    }
    return e->u.lit.len > 0;
}

/* ---- its delimiters and separators ---------------------------------------- */
static const char *shape_name(const struct items *it)
{
    if (!it->n)
        return NULL;
    const struct expr *first = it->v[0], *last = it->v[it->n - 1];
    if (it->n >= 2 && lit_is(first, "{") && lit_is(last, "}"))
        return "object";
    if (it->n >= 2 && lit_is(first, "[") && lit_is(last, "]"))
        return "array";
    if (lit_is(first, "["))
        for (size_t i = 1; i + 1 < it->n; i++)
            if (lit_is(it->v[i], "]") && lit_is(it->v[i + 1], "\n"))
                return "section";
    if (it->n >= 2 && lit_is(first, "(") && lit_is(last, ")"))
        return "parens";
    if (it->n >= 2 && lit_is(first, "\"") && lit_is(last, "\""))
        return "string";
    bool eq = false, comma = false, op = false, other = false;
    for (size_t i = 0; i < it->n; i++) {
        const struct expr *e = it->v[i];
        if (lit_has(e, "://") || (i + 2 < it->n && lit_is(e, ":") && lit_is(it->v[i + 1], "/") &&
                                  lit_is(it->v[i + 2], "/")))
            return "url";
        if (e->kind != EXPR_LIT)
            continue;
        if (lit_is(e, "=") || lit_is(e, ":") || lit_is(e, " = ") || lit_is(e, ": "))
            eq = true;
        else if (lit_is(e, ","))
            comma = true;
        else if (lit_is(e, "+") || lit_is(e, "-") || lit_is(e, "*") || lit_is(e, "/"))
            op = true;
        else if (!lit_is(e, "(") && !lit_is(e, ")") && !lit_is(e, " ") && !lit_alnum(e))
            other = true;
    }
    if (eq)
        return "pair";
    if (comma)
        return "list";
    if (op && !other && it->n >= 3)
        return "expr";
    if (it->n >= 2 && lit_is(last, "\n"))
        return "line";
    return NULL;
}

/* ---- its characters -------------------------------------------------------- */
enum {
    CH_DIGIT = 1,
    CH_LOWER = 2,
    CH_UPPER = 4,
    CH_NAME = 8,    /* "_" "-" "." */
    CH_NUMBER = 16, /* "+" "-" "." "e" "E": with digits, a number */
    CH_OTHER = 32,
};

static unsigned char_kind(uint32_t c)
{
    if (c >= '0' && c <= '9')
        return CH_DIGIT;
    unsigned k = 0;
    if (c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E')
        k |= CH_NUMBER;
    if (c >= 'a' && c <= 'z')
        return k | CH_LOWER;
    if (c >= 'A' && c <= 'Z')
        return k | CH_UPPER;
    if (c == '_' || c == '-' || c == '.')
        return k | CH_NAME;
    return k ? k : CH_OTHER;
}

static unsigned range_kind(uint32_t lo, uint32_t hi)
{
    if (hi >= 128 || hi - lo > 128)
        return CH_OTHER;
    unsigned k = 0;
    for (uint32_t c = lo; c <= hi; c++)
        k |= char_kind(c);
    return k;
}

/* A name from the characters of a rule made of classes and literals only;
 * NULL for one with references. */
static const char *chars_name(const struct expr *rhs)
{
    unsigned all = 0, nonnumber = 0; /* kinds; kinds of chars outside digits and CH_NUMBER */
    bool many = false, words = rhs->kind == EXPR_ALT;
    const struct expr **stack = NULL;
    size_t depth = 0, cap = 0;
    stack = xgrow(stack, &cap, 1, sizeof *stack);
    stack[depth++] = rhs;
    bool refs = false;
    while (depth && !refs) {
        const struct expr *e = stack[--depth];
        switch (e->kind) {
        case EXPR_REF:
            refs = true;
            break;
        case EXPR_LIT:
            many = many || e->u.lit.len > 1;
            for (size_t i = 0; i < e->u.lit.len; i++) {
                unsigned k = char_kind((unsigned char)e->u.lit.text[i]);
                all |= k;
                if (!(k & (CH_DIGIT | CH_NUMBER)))
                    nonnumber |= k;
            }
            break;
        case EXPR_CLASS:
            for (uint32_t i = 0; i < e->u.cls.nranges; i++) {
                unsigned k = e->u.cls.negated ? CH_OTHER
                                              : range_kind(e->u.cls.ranges[i].lo,
                                                           e->u.cls.ranges[i].hi);
                all |= k;
                if (!(k & (CH_DIGIT | CH_NUMBER)))
                    nonnumber |= k;
            }
            break;
        default:
            many = many || e->kind == EXPR_CAT || (e->kind == EXPR_QUANT && e->u.quant.max > 1);
            if (e->kind != EXPR_ALT || e != rhs)
                words = words && e->kind == EXPR_ALT;
            stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
            for (uint32_t c = 0; c < e->nchildren; c++)
                stack[depth++] = e->children[c];
        }
    }
    free(stack);
    if (refs || !all)
        return NULL;
    if (all == CH_DIGIT)
        return many ? "digits" : "digit";
    if ((all & CH_DIGIT) && !nonnumber && (all & ~CH_DIGIT) &&
        !(all & (CH_LOWER | CH_UPPER) & ~CH_NUMBER))
        return "number";
    /* CH_NUMBER rides along with letters and "-" "." (e, E): drop it. */
    unsigned k = all & ~CH_NUMBER;
    if (all & CH_NUMBER && !(all & (CH_LOWER | CH_UPPER | CH_NAME)))
        k |= CH_OTHER; /* "+" alone */
    if (words && !(k & ~(CH_LOWER | CH_UPPER)))
        return "keyword";
    if (k == CH_LOWER)
        return "word";
    if (!(k & ~(CH_LOWER | CH_UPPER)))
        return "letters";
    if (!(k & ~(CH_LOWER | CH_UPPER | CH_DIGIT)))
        return "alnum";
    if (!(k & ~(CH_LOWER | CH_UPPER | CH_DIGIT | CH_NAME)))
        return "name";
    return "text";
}

/* ---- its position: right before "=" or ":" everywhere it is named ---------
 * The item after e in the sequence around it, climbing out of sequences
 * and optional parts where e is last, and into the first item of what
 * follows; NULL at the end of an alternative or a repetition. */
static bool opens(const struct expr *e)
{
    return e->kind == EXPR_CAT || (e->kind == EXPR_QUANT && e->u.quant.min == 0 && e->u.quant.max == 1);
}

static const struct expr *next_item(const struct expr *e)
{
    const struct expr *next = NULL;
    while (!next && e->parent && opens(e->parent)) {
        const struct expr *p = e->parent;
        uint32_t i = 0;
        while (i < p->nchildren && p->children[i] != e)
            i++;
        if (p->kind == EXPR_CAT && i + 1 < p->nchildren)
            next = p->children[i + 1];
        e = p;
    }
    while (next && opens(next))
        next = next->children[0];
    return next;
}

static bool before_equals(const struct expr *ref)
{
    const struct expr *n = next_item(ref);
    while (n && lit_is(n, " "))
        n = next_item(n);
    return n && (lit_is(n, "=") || lit_is(n, ":") || lit_is(n, " = ") || lit_is(n, ": "));
}

/* ---- naming ------------------------------------------------------------------ */
static bool machine_made(const struct grammar *g, uint32_t rule)
{
    const char *name = g->rules[rule].name;
    size_t len = strlen(name);
    return rule != g->start && len && name[len - 1] >= '0' && name[len - 1] <= '9';
}

/* Whether another rule than `self` has `name`, or is about to get it.  A
 * name about to be left is not reused either; a rule may keep its own (so a
 * second pass changes nothing). */
static bool name_taken(const struct grammar *g, uint32_t self, char *const *fresh,
                       const char *name)
{
    for (uint32_t i = 0; i < g->nrules; i++) {
        if (i != self && strcmp(g->rules[i].name, name) == 0)
            return true;
        if (fresh[i] && strcmp(fresh[i], name) == 0)
            return true;
    }
    return false;
}

void rule_names_apply(struct grammar *g, struct rule_names *r)
{
    memset(r, 0, sizeof *r);
    r->n = g->nrules;
    r->was = xcalloc((size_t)g->nrules + 1, sizeof *r->was);
    char **fresh = xcalloc((size_t)g->nrules + 1, sizeof *fresh);
    /* How often each rule is named, and how often right before "=" or ":". */
    uint32_t *refs_to = xcalloc((size_t)g->nrules + 1, sizeof *refs_to);
    uint32_t *keys_to = xcalloc((size_t)g->nrules + 1, sizeof *keys_to);
    struct items one = {0};
    for (uint32_t i = 0; i < g->nrules; i++) {
        const struct expr **stack = NULL;
        size_t depth = 0, cap = 0;
        stack = xgrow(stack, &cap, 1, sizeof *stack);
        stack[depth++] = g->rules[i].rhs;
        while (depth) {
            const struct expr *e = stack[--depth];
            if (e->kind == EXPR_REF && e->u.ref.target < g->nrules) {
                refs_to[e->u.ref.target]++;
                keys_to[e->u.ref.target] += before_equals(e);
            }
            stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
            for (uint32_t c = 0; c < e->nchildren; c++)
                stack[depth++] = e->children[c];
        }
        free(stack);
    }
    struct strbuf name = STRBUF_INIT;
    for (uint32_t i = 0; i < g->nrules; i++) {
        if (!machine_made(g, i))
            continue;
        flatten(g->rules[i].rhs, &one);
        const char *base = shape_name(&one);
        if (!base) {
            /* A rule of characters, or one naming another rule only (an
             * item of the lattice), is a key by its position. */
            base = chars_name(g->rules[i].rhs);
            bool alias = g->rules[i].rhs->kind == EXPR_REF;
            if ((alias || (base && strcmp(base, "keyword") != 0)) && keys_to[i] &&
                keys_to[i] == refs_to[i])
                base = "key";
        }
        if (!base)
            continue;
        strbuf_reset(&name);
        strbuf_addstr(&name, base);
        for (unsigned k = 2; name_taken(g, i, fresh, name.data); k++) {
            strbuf_reset(&name);
            strbuf_addf(&name, "%s_%u", base, k);
        }
        if (strcmp(name.data, g->rules[i].name) != 0)
            fresh[i] = xstrdup(name.data);
    }
    strbuf_free(&name);
    free(one.v);
    free(refs_to);
    free(keys_to);
    /* Rename: the rules, then every reference to them. */
    for (uint32_t i = 0; i < g->nrules; i++) {
        if (!fresh[i])
            continue;
        r->was[i] = xstrdup(g->rules[i].name);
        g->rules[i].name = arena_strndup(&g->arena, fresh[i], strlen(fresh[i]));
        g->rules[i].edited = true;
        r->renamed++;
    }
    if (r->renamed) {
        for (uint32_t i = 0; i < g->nrules; i++) {
            struct expr **stack = NULL;
            size_t depth = 0, cap = 0;
            stack = xgrow(stack, &cap, 1, sizeof *stack);
            stack[depth++] = g->rules[i].rhs;
            while (depth) {
                struct expr *e = stack[--depth];
                if (e->kind == EXPR_REF && e->u.ref.target < g->nrules &&
                    fresh[e->u.ref.target]) {
                    e->u.ref.name = g->rules[e->u.ref.target].name;
                    g->rules[i].edited = true;
                }
                stack = xgrow(stack, &cap, depth + e->nchildren, sizeof *stack);
                for (uint32_t c = 0; c < e->nchildren; c++)
                    stack[depth++] = e->children[c];
            }
            free(stack);
        }
        /* The name index again, from the rules' names (same order). */
        uint32_t *order = xmalloc(((size_t)g->nrules + 1) * sizeof *order);
        for (uint32_t i = 0; i < g->nrules; i++)
            order[i] = i;
        grammar_keep_rules(g, order, g->nrules);
        free(order);
    }
    for (uint32_t i = 0; i < g->nrules; i++)
        free(fresh[i]);
    free(fresh);
}

void rule_names_note(const struct rule_names *r, const struct grammar *g, uint32_t rule,
                     struct strbuf *out)
{
    if (rule >= r->n || !r->was[rule])
        return;
    if (out->len && out->data[out->len - 1] != '\n')
        strbuf_addch(out, '\n');
    strbuf_addf(out, "named %s from what it holds (was %s)", g->rules[rule].name, r->was[rule]);
}

void rule_names_free(struct rule_names *r)
{
    for (uint32_t i = 0; i < r->n; i++)
        free(r->was[i]);
    free(r->was);
    memset(r, 0, sizeof *r);
}

/* grammar: the syntax tree of a grammar (see grammar.h): making, looking up,
 * changing and freeing it, and what every layer reads off its nodes
 * (alternative probabilities, labels, class members).  The checks
 * (grammar_check.c) and the .ebnf reader (ebnf_reader.c) sit on top of it;
 * nothing here reads text or reports a diagnostic.
 *
 * The rules are found by name through a uthash index whose entries live in
 * the grammar's arena. */
#include "grammar/grammar.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "grammar/grammar_private.h"

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

#define SURROGATE_LO UTF8_SURROGATE_LO
#define SURROGATE_HI UTF8_SURROGATE_HI
/* Code points a class can match: U+0000..U+10FFFF less the surrogates. */
#define CHARACTER_COUNT ((uint64_t)UTF8_MAX_CODEPOINT + 1 - (SURROGATE_HI - SURROGATE_LO + 1))

/* ---- making and freeing ------------------------------------------------- */

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

void grammar_free(struct grammar *g)
{
    if (!g)
        return;
    HASH_CLEAR(hh, g->index); /* the entries themselves live in the arena */
    free(g->rules);
    arena_free(&g->arena);
    free(g);
}

/* ---- looking up --------------------------------------------------------- */

uint32_t grammar_find_rule_len(const struct grammar *g, const char *name, size_t len)
{
    struct rule_index *found = NULL;
    HASH_FIND(hh, g->index, name, len, found);
    return found ? found->rule : RULE_NONE;
}

uint32_t grammar_find_rule(const struct grammar *g, const char *name)
{
    return grammar_find_rule_len(g, name, strlen(name));
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

const char *grammar_rule_file(const struct grammar *g, uint32_t rule)
{
    return rule < g->nrules && g->rules[rule].file ? g->rules[rule].file : g->file;
}

/* ---- changing a loaded grammar ------------------------------------------ */

struct expr *grammar_new_expr(struct grammar *g, enum expr_kind kind, uint32_t rule)
{
    /* In an expr_node, so that it can be numbered (grammar_private.h). */
    struct expr_node *n = arena_alloc(&g->arena, sizeof *n);
    n->id = UINT32_MAX;
    n->e.kind = kind;
    n->e.rule = rule;
    return &n->e;
}

uint32_t grammar_expr_id(const struct expr *e)
{
    return ((const struct expr_node *)e)->id;
}

void grammar_expr_set_id(struct expr *e, uint32_t id)
{
    ((struct expr_node *)e)->id = id;
}

void grammar_index_rule(struct grammar *g, uint32_t idx)
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
    grammar_index_rule(g, idx);
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
        grammar_index_rule(g, r);
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

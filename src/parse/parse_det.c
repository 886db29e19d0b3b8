#include "parse/parse_det.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"

#define UNKNOWN PARSE_DET_UNKNOWN

struct parse_det *parse_det_new(const struct graph *g, const struct lookahead *la)
{
    struct parse_det *d = xcalloc(1, sizeof *d);
    d->g = g;
    d->la = la;
    d->memo = xcalloc((size_t)g->nnodes + 1, sizeof *d->memo);
    d->high_ch = xcalloc((size_t)g->nnodes + 1, sizeof *d->high_ch); /* 0: none asked */
    d->high = xcalloc((size_t)g->nnodes + 1, sizeof *d->high);
    d->by_top = xmalloc(((size_t)g->nnodes + 1) * sizeof *d->by_top);
    for (uint32_t i = 0; i <= g->nnodes; i++)
        d->by_top[i] = PARSE_DET_NONE;
    return d;
}

void parse_det_free(struct parse_det *d)
{
    if (!d)
        return;
    for (uint32_t i = 0; i <= d->g->nnodes; i++)
        free(d->memo[i]);
    free(d->memo);
    free(d->high_ch);
    free(d->high);
    free(d->by_top);
    free(d->chains);
    free(d->nodes);
    free(d);
}

/* A literal's first code point (a byte that is not UTF-8 stands for itself,
 * as the parser reads literals) and whether it is its only one. */
static bool literal_first(const struct expr *lit, uint32_t *cp, bool *single)
{
    if (lit->u.lit.len == 0)
        return false;
    size_t used = utf8_decode(lit->u.lit.text, lit->u.lit.len, cp);
    if (!used)
        *cp = (unsigned char)lit->u.lit.text[0], used = 1;
    *single = used == lit->u.lit.len;
    return true;
}

/* Could leaf `n` match at a position whose character is ch (as far as ch
 * tells)?  *one: it then certainly matches exactly ch. */
static bool leaf_may_match(const struct graph *g, uint32_t n, uint32_t ch, bool *one)
{
    const struct graph_node *node = &g->nodes[n];
    *one = false;
    if (node->kind == NODE_CLASS) {
        *one = grammar_class_matches(node->expr, ch);
        return *one;
    }
    uint32_t cp;
    bool single;
    if (!literal_first(node->expr, &cp, &single))
        return true; /* "" matches anywhere */
    if (cp != ch)
        return false;
    *one = single;
    return true;
}

static bool is_leaf(const struct graph *g, uint32_t n)
{
    return g->nodes[n].kind == NODE_LIT || g->nodes[n].kind == NODE_CLASS;
}

/* Is a non-leaf node predicted with lookahead ch (parse_earley.c's predict)? */
static bool predicted(const struct parse_det *d, uint32_t n, uint32_t ch)
{
    return d->g->nodes[n].min_length == 0 ||
           lookahead_has(d->la->first[n], d->la->first_high[n], ch);
}

/* Does the child `n` survive the prediction with lookahead ch? */
static bool survives(const struct parse_det *d, uint32_t n, uint32_t ch)
{
    bool one;
    return is_leaf(d->g, n) ? leaf_may_match(d->g, n, ch, &one) : predicted(d, n, ch);
}

/* Chains are found once per node and ASCII character at most, and compared
 * only with those from the same node. */
static uint32_t intern(struct parse_det *d, const uint32_t *nodes, uint32_t k, uint32_t leaf)
{
    uint32_t top = k ? nodes[0] : leaf;
    for (uint32_t i = d->by_top[top]; i != PARSE_DET_NONE; i = d->chains[i].next) {
        const struct parse_det_chain_rec *c = &d->chains[i];
        if (c->k == k && c->leaf == leaf &&
            memcmp(d->nodes + c->first, nodes, k * sizeof *nodes) == 0)
            return i;
    }
    d->chains = xgrow(d->chains, &d->chains_cap, (size_t)d->nchains + 1, sizeof *d->chains);
    d->nodes = xgrow(d->nodes, &d->nodes_cap, d->nnodes + k + 1, sizeof *d->nodes);
    struct parse_det_chain_rec *c = &d->chains[d->nchains];
    c->first = (uint32_t)d->nnodes, c->k = k, c->leaf = leaf;
    c->next = d->by_top[top];
    d->by_top[top] = d->nchains;
    c->follow[0] = c->follow[1] = ~UINT64_C(0);
    c->follow_high = true;
    for (uint32_t i = 0; i < k; i++) {
        d->nodes[d->nnodes++] = nodes[i];
        c->follow[0] &= d->la->follow[nodes[i]][0];
        c->follow[1] &= d->la->follow[nodes[i]][1];
        c->follow_high = c->follow_high && d->la->follow_high[nodes[i]];
    }
    return d->nchains++;
}

/* The walk down from c, as predict goes (see the header). */
static uint32_t find_chain(struct parse_det *d, uint32_t c, uint32_t ch)
{
    const struct graph *g = d->g;
    uint32_t nodes[PARSE_DET_MAX_CHAIN];
    uint32_t k = 0, u = c;
    if (u >= g->nnodes)
        return PARSE_DET_NONE; /* the virtual start node */
    for (;;) {
        const struct graph_node *n = &g->nodes[u];
        if (d->barred && d->barred[u])
            return PARSE_DET_NONE;
        if (is_leaf(g, u)) {
            bool one;
            return leaf_may_match(g, u, ch, &one) && one ? intern(d, nodes, k, u)
                                                           : PARSE_DET_NONE;
        }
        if ((n->kind != NODE_REF && n->kind != NODE_ALT) || n->min_length == 0 ||
            !predicted(d, u, ch) || k == PARSE_DET_MAX_CHAIN)
            return PARSE_DET_NONE;
        for (uint32_t i = 0; i < k; i++)
            if (nodes[i] == u)
                return PARSE_DET_NONE;
        nodes[k++] = u;
        const uint32_t *kids = graph_children(g, u);
        uint32_t next = PARSE_DET_NONE;
        for (uint32_t i = 0; i < n->nchildren; i++) {
            if (!survives(d, kids[i], ch))
                continue;
            if (next != PARSE_DET_NONE)
                return PARSE_DET_NONE; /* two ways on */
            next = kids[i];
        }
        if (next == PARSE_DET_NONE)
            return PARSE_DET_NONE; /* no way on: the parse ends here */
        u = next;
    }
}

uint32_t parse_det_chain_slow(struct parse_det *d, uint32_t c, uint32_t ch)
{
    if (ch >= 128) {
        if (d->high_ch[c] != ch) {
            d->high_ch[c] = ch;
            d->high[c] = find_chain(d, c, ch);
        }
        return d->high[c];
    }
    if (!d->memo[c]) {
        d->memo[c] = xmalloc(128 * sizeof **d->memo);
        for (uint32_t i = 0; i < 128; i++)
            d->memo[c][i] = UNKNOWN;
        d->memo_rows++;
    }
    if (d->memo[c][ch] == UNKNOWN)
        d->memo[c][ch] = find_chain(d, c, ch);
    return d->memo[c][ch];
}

void parse_det_bar(struct parse_det *d, const bool *barred)
{
    d->barred = barred;
}

uint32_t parse_det_count(const struct parse_det *d)
{
    return d->nchains;
}

size_t parse_det_memory(const struct parse_det *d)
{
    return d->chains_cap * sizeof *d->chains + d->nodes_cap * sizeof *d->nodes +
           d->memo_rows * 128 * sizeof **d->memo +
           ((size_t)d->g->nnodes + 1) * (sizeof *d->memo + 3 * sizeof *d->high);
}
